"""Layout files: loaded by pnp.data.loader (positions kept), checked against layout.schema.json.

A file loaded outside `pnp validate` (a test, `render --layout`) gets the same schema check, so
a layout is never drawn unchecked. The shared files in templates/ are loaded once per process
for the renderer's layouts and the icon names alike, and every path a layout file names (an
image, an icon, a font) is kept inside its folder by `safe_path`.
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path

from pnp import paths
from pnp.diagnostics import ERROR, Diagnostic
from pnp.templating.codes import R_SCHEMA

LAYOUT_SCHEMA = "layout.schema.json"
RASTER_EXTENSIONS = {".png", ".jpg", ".jpeg"}


def safe_path(root: Path, relative: str) -> Path | None:
    """`relative` resolved under `root`, or None when it escapes (.., absolute, symlink out)."""
    if not relative or os.path.isabs(relative) or relative.startswith("~"):
        return None
    target = (root / relative).resolve()
    try:
        target.relative_to(root.resolve())
    except ValueError:
        return None
    return target


def load_layout_file(path: Path):
    """Load one layout YAML file -> (Document | None, diagnostics), schema-checked."""
    from pnp.data.loader import load_file

    doc, diags = load_file(path)
    if doc is None:
        return None, diags
    return doc, diags + validate_layout_document(doc)


@lru_cache(maxsize=1)
def _layout_validator():
    import jsonschema

    schema = json.loads((paths.SCHEMAS / LAYOUT_SCHEMA).read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def validate_layout_document(doc) -> list[Diagnostic]:
    """Schema-check a layout document: pnp.data.schema when the file names its schema (as
    `pnp validate` does), else this schema directly, so a file without the line is checked too."""
    from pnp.data.schema import validate_document

    if getattr(doc, "kind", None) == "layout":
        return list(validate_document(doc))
    out = []
    errors = _layout_validator().iter_errors(doc.data)
    for err in sorted(errors, key=lambda e: list(e.absolute_path)):
        where = "/".join(str(p) for p in err.absolute_path) or "(top level)"
        out.append(Diagnostic.at(doc.pos(tuple(err.absolute_path)), ERROR, R_SCHEMA,
                                 f"{where}: {err.message}",
                                 "see schemas/layout.schema.json and docs/rendering.md"))
    return out


_shared_cache: dict[tuple, tuple[list, list[Diagnostic]]] = {}


def shared_documents(folder: Path) -> tuple[list, list[Diagnostic]]:
    """templates/*.yaml, loaded and checked once per process (keyed by their mtimes)."""
    files = sorted(folder.glob("*.yaml")) if folder.is_dir() else []
    key = (str(folder),) + tuple((f.name, f.stat().st_mtime_ns) for f in files)
    if key not in _shared_cache:
        docs, diags = [], []
        for f in files:
            doc, d = load_layout_file(f)
            diags.extend(d)
            if doc is not None:
                docs.append(doc)
        _shared_cache.clear()
        _shared_cache[key] = (docs, diags)
    return _shared_cache[key]
