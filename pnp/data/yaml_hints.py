"""Hints for YAML syntax errors, in a designer's words rather than the parser's."""

from __future__ import annotations

import re

__all__ = ["TAB_HINT", "UTF8_HINT", "syntax_hint"]

TAB_HINT = "indent with spaces; YAML forbids tabs"
UTF8_HINT = "save the file as UTF-8"

_SYNTAX_HINTS = (
    ("tab character", TAB_HINT),
    (
        "mapping values are not allowed",
        "a ': ' inside a value starts a new key; put the whole value in quotes, "
        'e.g. text: "Pay 2: draw a card"',
    ),
    (
        "could not find expected ':'",
        "a key is missing its ':' or text runs onto the next line; "
        "put multi-line text in quotes or after '|'",
    ),
    (
        "quoted scalar",
        "a quoted value is not closed; add the closing quote "
        "(inside '...' write '' for an apostrophe)",
    ),
    (
        "unknown escape",
        "inside double quotes a backslash starts an escape; use single quotes, or write \\\\ "
        "for a backslash",
    ),
    (
        "cannot start any token",
        "this character cannot start a plain value (e.g. @ or `); put the value in quotes",
    ),
    (
        "expected alphabetic or numeric character",
        "'*' and '&' start an alias or an anchor; put text that starts with them in quotes",
    ),
    (
        "block scalar",
        "after '|' or '>' only an indent number or '+'/'-' may follow; start the text on the "
        "next line, indented",
    ),
    ("flow sequence", "a [ ... ] list is not closed or lacks a comma between items"),
    ("flow mapping", "a { ... } map is not closed or lacks a comma between entries"),
    ("expected '-'", "check the indentation: the items of one list start with '- ' in one column"),
    (
        "expected <block end>",
        "check the indentation: entries at the same level must start in the same column",
    ),
    (
        "expected key",
        "check the indentation (entries at one level start in one column) and quote values "
        "that contain ': ' or start with a quote",
    ),
    ("document", "one file holds one document; remove the text after the end marker '...'"),
    ("directive", "a line starting with '%' is a YAML directive; quote text that starts with %"),
    ("tag", "remove the '!' tag; pnp data files use plain YAML"),
)
_DEFAULT_SYNTAX_HINT = (
    "check this line and the one above for a missing quote, bracket or ':', text containing "
    "': ' that needs quotes, or wrong indentation"
)


_KEY_LINE_RE = re.compile(r"^( *)(- +)?[A-Za-z0-9_\"'-][^:#]*:( |$)")


def _over_indented(text: str, line: int) -> bool:
    """True when `line` (1-based) is a `key: value` line indented further than the previous
    content line, which already holds a complete `key: value` (so it cannot be its parent)."""
    lines = text.splitlines()
    if not 1 < line <= len(lines):
        return False
    here = _KEY_LINE_RE.match(lines[line - 1])
    if here is None:
        return False
    for prev in reversed(lines[:line - 1]):
        stripped = prev.strip()
        if not stripped or stripped.startswith("#"):
            continue
        above = _KEY_LINE_RE.match(prev)
        if above is None:
            return False
        indent = len(above.group(1)) + len(above.group(2) or "")
        has_value = prev.rstrip().split(":", 1)[1].strip() not in ("", "|", ">", "|-", ">-")
        return len(here.group(1)) > indent and has_value
    return False


# -- compact source positions ----------------------------------------------------------------
#
# A 54,000-card deck has over a million keys and values; a dict from path tuples to (line,
# column) tuples costs some 300 bytes for each. Positions are kept instead in a tree shaped
# like the data: a map keeps its keys (one tuple shared by every map with the same keys) and
# where its packed key and value positions start in the file's one array, a list where its
# packed item positions start and how many there are, each with the nodes of its maps and lists
# beside them (None when it holds only scalars).


def syntax_hint(words: str, text: str, line: int) -> str:
    """The hint for a parser error whose problem and context read `words`, at `line` of `text`."""
    hint = next((h for key, h in _SYNTAX_HINTS if key in words), _DEFAULT_SYNTAX_HINT)
    if "mapping values are not allowed" in words and _over_indented(text, line):
        hint = ("this key is indented further than the key above it: start it in the same "
                "column as its neighbours (or, if it is meant as text, quote the value above)")
    return hint
