"""Layout files: loaded by pnp.data.loader (positions kept), checked against layout.schema.json.

A file loaded outside `pnp validate` (a test, `render --layout`) gets the same schema check, so
a layout is never drawn unchecked.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from pnp import paths
from pnp.diagnostics import ERROR, Diagnostic
from pnp.render.layout.codes import R_SCHEMA

LAYOUT_SCHEMA = "layout.schema.json"


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
