"""`$ref`s written into the schema tree once, so jsonschema does not look each one up per value.

jsonschema follows a `$ref` through `referencing` every time a value reaches it (a URI join,
a registry lookup and a JSON-pointer walk): about 40 % of checking a game's documents. A
schema that is not recursive can have each `{"$ref": X, ...}` node rewritten once as
`{"allOf": [X's schema], ...}` (the key keeps its place, so the keywords run in the same
order): every error jsonschema reports keeps its message, value, keyword, instance path and
the schema it failed (`error.schema`), which is all a Diagnostic is made of. Only the
schema path differs (`allOf/0` where `$ref` was), which no diagnostic reads.

Anything this module does not follow exactly as jsonschema would (a recursive schema, a
nested `$id` or `$anchor`, dynamic references, a `$ref` beside an `allOf`, a `$ref` inside
`not`, whose message quotes the subschema) leaves the schema as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import unquote, urldefrag, urljoin

#: keywords that change how a `$ref` resolves, or resolve dynamically: not rewritten
_SCOPED = frozenset({"$id", "$anchor", "$dynamicAnchor", "$dynamicRef", "$recursiveRef",
                     "$recursiveAnchor"})


class _Unsupported(Exception):
    """The schema uses something rewriting would not follow exactly as jsonschema does."""


def inline_refs(schema: Mapping, documents: Callable[[str], Any]) -> dict | None:
    """`schema` with every `$ref` written in place (see the module docstring), or None when
    it cannot be. `documents(uri)` gives the schema document at a URI (without fragment), or
    None; the root's own `$id` is its URI."""
    base = schema.get("$id")
    if not isinstance(base, str):
        return None
    rewriter = _Rewriter(schema, base, documents)
    try:
        return rewriter.node(schema, base, root=True)
    except _Unsupported:
        return None


class _Rewriter:
    def __init__(self, root: Mapping, base: str, documents: Callable[[str], Any]) -> None:
        self.root_uri = urldefrag(base).url
        self.root = root
        self.documents = documents
        self.done: dict[tuple[str, str], Any] = {}  # (document URI, pointer) -> rewritten
        self.open: set[tuple[str, str]] = set()  # targets being rewritten: a ref back is a loop

    def node(self, value: Any, base: str, root: bool = False, in_not: bool = False) -> Any:
        if isinstance(value, list):
            return [self.node(v, base, in_not=in_not) for v in value]
        if not isinstance(value, dict):
            return value
        if _SCOPED.intersection(value) and not (root and set(value) & _SCOPED == {"$id"}):
            raise _Unsupported
        out: dict = {}
        for key, sub in value.items():
            if key == "$ref":
                if in_not or "allOf" in value or not isinstance(sub, str):
                    raise _Unsupported
                out["allOf"] = [self.target(sub, base)]
            elif key in ("enum", "const", "examples", "default", "dependentRequired"):
                out[key] = sub  # values, not schemas: a key named $ref there is data
            elif key == "properties" or key == "$defs" or key == "patternProperties" or \
                    key == "dependentSchemas":
                out[key] = {k: self.node(v, base, in_not=in_not) for k, v in sub.items()} \
                    if isinstance(sub, dict) else sub
            else:
                out[key] = self.node(sub, base, in_not=in_not or key == "not")
        return out

    def target(self, ref: str, base: str) -> Any:
        uri, fragment = urldefrag(urljoin(base, ref))
        key = (uri, fragment)
        if key in self.done:
            return self.done[key]
        if key in self.open:
            raise _Unsupported  # recursive: jsonschema must follow it lazily
        document = self.root if uri == self.root_uri else self.documents(uri)
        if document is None:
            raise _Unsupported  # jsonschema reports what it cannot resolve
        node = document
        for part in unquote(fragment).split("/")[1:] if fragment else ():
            part = part.replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict) and part in node:
                node = node[part]
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                raise _Unsupported
        if fragment and not fragment.startswith("/") or (
                isinstance(node, dict) and ({"$id", "$schema"} & set(node))):
            raise _Unsupported  # an anchor, or a whole document with its own dialect and base
        self.open.add(key)
        try:
            rewritten = self.node(node, uri)
        finally:
            self.open.discard(key)
        self.done[key] = rewritten
        return rewritten
