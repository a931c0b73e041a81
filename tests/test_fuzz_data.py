"""Random documents and random mutations of the bundled files never crash the pipeline.

Whatever a designer types, pnp answers with diagnostics, never a traceback.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnp.data.game import game_files, load_game
from pnp.data.loader import load_text
from pnp.data.schema import known_kinds, validate_document
from pnp.paths import CARDS, SCHEMAS

AC = CARDS / "ancient-civilizations"
FILES = [p.relative_to(AC).as_posix() for p in game_files(AC)]
TOKENS = ["", "-", ":", "{", "}", "[", "]", "'", '"', "\t", "#", "&a", "*a", "!!python/object", "F+",
          "Fod+1", "roll nowhere", "null", "1e9", "-3", "yes", "D6", "|", ">", "  ", "\n", "id: x",
          "start: true", "☃", "\x00", "<<: *a"]

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.text(max_size=20),
                    st.sampled_from(TOKENS))
documents = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.sampled_from(["id", "name", "effect", "spaces", "rows",
                                                             "roll", "stats", "tracks", "charts", "x"]),
                                            inner, max_size=4)),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(kind=st.sampled_from(known_kinds()), data=documents)
def test_random_documents_of_every_kind_give_diagnostics_not_exceptions(kind, data):
    text = f"# yaml-language-server: $schema=../../schemas/{kind}.schema.json\n"
    text += yaml.safe_dump(data, allow_unicode=True)
    doc, diags = load_text(text, f"cards/x/{kind}.yaml")
    if doc is not None:
        for d in validate_document(doc):
            assert d.line >= 1 and d.code.startswith("PNP-")


mutation = st.tuples(
    st.sampled_from(FILES),
    st.sampled_from(["delete", "insert", "duplicate-line", "swap-lines", "replace-token"]),
    st.integers(0, 10**6), st.integers(0, 10**6), st.sampled_from(TOKENS),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutations=st.lists(mutation, min_size=1, max_size=3))
def test_mutated_bundled_files_never_raise(mutations):
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "ancient-civilizations"
        shutil.copytree(AC, folder)
        for name, op, a, b, token in mutations:
            path = folder / name
            text = path.read_text(encoding="utf-8")
            text = re.sub(r"(\.\./)+schemas", str(SCHEMAS.resolve()), text, count=1)
            lines = text.split("\n")
            i, j = a % len(lines), b % len(lines)
            if op == "delete":
                k = a % max(1, len(text))
                text = text[:k] + text[k + 1 + b % 5:]
            elif op == "insert":
                k = a % max(1, len(text))
                text = text[:k] + token + text[k:]
            elif op == "duplicate-line":
                lines.insert(i, lines[i])
                text = "\n".join(lines)
            elif op == "swap-lines":
                lines[i], lines[j] = lines[j], lines[i]
                text = "\n".join(lines)
            else:
                words = text.split(" ")
                words[a % len(words)] = token
                text = " ".join(words)
            path.write_text(text, encoding="utf-8")
        result = load_game(folder)
        for d in result.diagnostics:
            assert d.code.startswith("PNP-") and d.message
            if d.file:
                assert d.line >= 1 or d.code in {"PNP-Y009"}
