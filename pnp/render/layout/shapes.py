"""Layout templates that differ only in their numbers compile once.

A layout that repeats one design with other numbers (a chart card's rows: `{{ 18.5 + 3 * h }}mm`,
`{{ 18.5 + 4 * h }}mm`, ...) holds dozens of templates of a few shapes, and jinja2 takes a few
milliseconds to compile each: most of what `pnp validate` spends on such a layout. Here jinja2's
own lexer finds a template's number literals, each is replaced by a name, and the numbers are
handed to the compiled code as globals: each shape is parsed and compiled once, and renders
what the template with its numbers written in renders.

Only `{{ }}` expressions are rewritten, and only numbers whose neighbours accept a name in the
same place (an operand, a list item, an argument): not `x.0`, a filter or test name, a keyword
name, or anything inside `{% %}` (a signature's `m(1)` is an error, `m(n)` a parameter). A
source that is rewritten otherwise is compiled as written; so is one whose shape does not parse,
so syntax errors keep jinja2's own message.
"""

from __future__ import annotations

import re
from typing import Any

import jinja2

#: the names numbers are lifted into: `_pnp_n0`, `_pnp_n1`, ... (a source that spells the
#: prefix itself is compiled as written)
PREFIX = "_pnp_n"
SLOT = re.compile(rf"^{PREFIX}(\d+)$")

_NEWLINES = re.compile(r"(\r\n|\r|\n)")
_NUMBERS = frozenset({"integer", "float"})
#: what may stand before and after a lifted number (an operator's text, a name's text, or a
#: token type); anything else keeps the template as written
_BEFORE = frozenset({"(", "[", "{", ",", ":", "=", "+", "-", "*", "/", "//", "%", "**", "~", "<", ">",
                     "<=", ">=", "==", "!=", "and", "or", "if", "else", "in", "variable_begin",
                     "^"})
_AFTER = frozenset({")", "]", "}", ",", ":", "+", "-", "*", "/", "//", "%", "**", "~", "<", ">",
                    "<=", ">=", "==", "!=", "|", "and", "or", "if", "else", "is", "in", "not",
                    "variable_end", "$"})
#: token types an expression (a `when:` condition, lexed in the variable state) may hold
_EXPRESSION_TOKENS = frozenset({"whitespace", "operator", "name", "string", "integer", "float"})


def lift_numbers(env: jinja2.Environment, source: str, expression: bool = False,
                 ) -> tuple[str, tuple[Any, ...]] | None:
    """The source with its number literals replaced by slot names, and their values in slot
    order; None when the source is to be compiled as written (see the module docstring).
    `expression`: the source is a bare expression (`compile_expression`), not a template."""
    if PREFIX in source:
        return None
    text = "\n".join(_NEWLINES.split(source)[::2])  # as jinja2's lexer reads it
    try:
        tokens = list(env.lexer.tokeniter(text, None, state="variable" if expression else None))
    except jinja2.TemplateSyntaxError:
        return None
    significant = [(i, _kind(tok, value)) for i, (_, tok, value) in enumerate(tokens)
                   if tok != "whitespace"]
    order = {i: n for n, (i, _) in enumerate(significant)}
    lift: list[int] = []
    for i, (_, tok, _value) in enumerate(tokens):
        if expression and tok not in _EXPRESSION_TOKENS:
            return None
        if tok in ("block_begin", "linestatement_begin"):
            return None
        if tok not in _NUMBERS:
            continue
        n = order[i]
        before = significant[n - 1][1] if n > 0 else "^"
        after = significant[n + 1][1] if n + 1 < len(significant) else "$"
        if before not in _BEFORE or after not in _AFTER or (before == "not" and n > 1 and
                                                            significant[n - 2][1] == "is"):
            return None
        lift.append(i)
    parts: list[str] = []
    values: list[Any] = []
    cursor = 0
    lifted = set(lift)
    for i, (lineno, tok, value) in enumerate(tokens):
        at = text.find(value, cursor) if value else cursor
        if at < 0 or text[cursor:at].strip():  # only stripped whitespace may lie between
            return None
        if i in lifted:
            parts.append(text[cursor:at])
            parts.append(f" {PREFIX}{len(values)} ")
            values.append(next(env.lexer.wrap(iter([(lineno, tok, value)]))).value)
        else:
            parts.append(text[cursor:at + len(value)])
        cursor = at + len(value)
    parts.append(text[cursor:])
    return "".join(parts), tuple(values)


def _kind(tok: str, value: str) -> str:
    return value if tok in ("operator", "name") else tok


def slot_globals(values: tuple[Any, ...]) -> dict[str, Any]:
    return {f"{PREFIX}{i}": v for i, v in enumerate(values)}


def slot_value(node: Any, values: tuple[Any, ...]) -> tuple[bool, Any]:
    """(True, the number) when `node` is a lifted number's name, else (False, None)."""
    name = getattr(node, "name", None)
    m = SLOT.match(name) if isinstance(name, str) and node.__class__.__name__ == "Name" else None
    if m is None or int(m.group(1)) >= len(values):
        return False, None
    return True, values[int(m.group(1))]
