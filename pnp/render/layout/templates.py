"""Layout templates: every string is sandboxed jinja2, compiled once, rendered per card.

The commonest templates (`{{ card.x }}`, `card.x is defined`) are answered without jinja2, and
the others are remembered per value of the card fields they read: a deck of a thousand cards
renders each distinct template output once. Every user error becomes an ElementError naming the
card field, never a traceback.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

import jinja2
import jinja2.nodes as jnodes
from jinja2.environment import TemplateExpression
from jinja2.parser import Parser
from jinja2.sandbox import SecurityError

from pnp.diagnostics import ERROR, Diagnostic, Position
from pnp.memo import BoundedCache, BoundedMemo
from pnp.render.layout.codes import (
    R_COLOR,
    R_LENGTH,
    R_SANDBOX,
    R_TEMPLATE_ERROR,
    R_TEMPLATE_LIMIT,
    R_TEMPLATE_SYNTAX,
    R_UNDEFINED,
    ElementError,
)
from pnp.render.layout.shapes import lift_numbers, slot_globals, slot_value
from pnp.render.layout.values import as_text, parse_color
from pnp.templating.sandbox import TemplateLimit, budget, render_limited, sandboxed_environment

_TEMPLATE_MARKS = ("{{", "{%", "{#")

ENV = sandboxed_environment(keep_trailing_newline=False)


def is_template(value: Any) -> bool:
    return isinstance(value, str) and any(m in value for m in _TEMPLATE_MARKS)


def fields_used(ast: jnodes.Template, numbers: tuple[Any, ...] = ()) -> tuple[str, ...]:
    """Card fields a template reads (card.x, card['x']): named in overflow diagnostics.
    `numbers`: the values of a shape's lifted numbers (pnp.render.layout.shapes)."""
    found: list[str] = []
    for n in ast.find_all(jnodes.Getattr):
        if isinstance(n.node, jnodes.Name) and n.node.name == "card" and n.attr not in found:
            found.append(n.attr)
    for n in ast.find_all(jnodes.Getitem):
        if not (isinstance(n.node, jnodes.Name) and n.node.name == "card"):
            continue
        lifted, number = slot_value(n.arg, numbers)
        if lifted:
            key = str(number)
        elif isinstance(n.arg, jnodes.Const):
            key = str(n.arg.value)
        else:
            continue
        if key not in found:
            found.append(key)
    return tuple(found)


_LOOKUP = re.compile(
    r"^\{\{\s*(card|deck|game)\.([A-Za-z_][A-Za-z0-9_]*)\s*"
    r"(?:\|\s*default\(\s*(?:'([^'\\]*)'|\"([^\"\\]*)\")\s*\)\s*)?\}\}$")
_DEFINED = re.compile(r"^\s*(card|deck|game)\.([A-Za-z_][A-Za-z0-9_]*)\s+is\s+(not\s+)?defined\s*$")


class _Lookup:
    """`{{ card.x }}` or `{{ card.x | default('y') }}` without a jinja2 context per render.

    The commonest templates by far; same output and same UndefinedError as jinja2 itself.
    """

    __slots__ = ("scope", "key", "default")

    def __init__(self, scope: str, key: str, default: str | None):
        self.scope, self.key, self.default = scope, key, default

    def render(self, ctx: Mapping[str, Any]) -> str:
        value = ctx[self.scope].get(self.key, _MISSING)
        if value is _MISSING:
            if self.default is not None:
                return self.default
            raise jinja2.UndefinedError(f"'dict object' has no attribute '{self.key}'")
        return value if isinstance(value, str) else str(value)


_MISSING = object()
_SCOPES = ("card", "deck", "game")

#: `{{ card.rows[2].label }}`: a path of keys and list indexes (chart cards have dozens)
_PATH = re.compile(r"^\{\{\s*(card|deck|game)((?:\.[A-Za-z_][A-Za-z0-9_]*|\[-?\d+\])+)\s*\}\}$")
_STEP = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(-?\d+)\]")


class _PathLookup:
    """`{{ card.rows[2].label }}` walked through plain dicts and lists; anything else (a
    missing key, a name that is also a dict method, a value that is not text or a number)
    is left to jinja2 itself, compiled the first time it is needed, so output and errors
    are jinja2's."""

    __slots__ = ("scope", "steps", "source", "_template")

    def __init__(self, scope: str, steps: tuple[str | int, ...], source: str):
        self.scope, self.steps, self.source, self._template = scope, steps, source, None

    def render(self, ctx: Mapping[str, Any]) -> str:
        value: Any = ctx[self.scope]
        for step in self.steps:
            if step.__class__ is int:
                if value.__class__ is not list or not -len(value) <= step < len(value):
                    return self._jinja(ctx)
            elif value.__class__ is not dict or step not in value or hasattr(dict, step):
                return self._jinja(ctx)
            value = value[step]
        if value.__class__ in (str, int, float):
            return str(value)
        return self._jinja(ctx)

    def _jinja(self, ctx: Mapping[str, Any]) -> str:
        if self._template is None:
            self._template = ENV.from_string(self.source)
        return render_limited(self._template, ctx)


def _path_steps(text: str) -> tuple[str | int, ...]:
    return tuple(int(m.group(2)) if m.group(2) is not None else m.group(1)
                 for m in _STEP.finditer(text))


def _scope_refs(ast: jnodes.Template) -> tuple[tuple[str, str], ...] | None:
    """Every (scope, key) a template reads when it only reads `scope.key` / `scope['key']`;
    None when it uses a scope as a whole (then its output cannot be memoised by those keys)."""
    refs: list[tuple[str, str]] = []
    covered = 0
    for n in ast.find_all((jnodes.Getattr, jnodes.Getitem)):
        if isinstance(n.node, jnodes.Name) and n.node.name in _SCOPES:
            if isinstance(n, jnodes.Getattr):
                key = n.attr
            elif isinstance(n.arg, jnodes.Const) and isinstance(n.arg.value, str):
                key = n.arg.value
            else:
                return None
            covered += 1
            if (n.node.name, key) not in refs:
                refs.append((n.node.name, key))
    names = sum(1 for n in ast.find_all(jnodes.Name) if n.name in _SCOPES)
    return tuple(refs) if names == covered else None


#: a template's outputs remembered per value of what it reads (then the memo starts afresh)
TEMPLATE_OUTPUTS = 1025


class _Memo:
    """A jinja2 template whose output is remembered per value of the keys it reads."""

    __slots__ = ("template", "refs", "cache")

    def __init__(self, template: jinja2.Template, refs: tuple[tuple[str, str], ...]):
        self.template, self.refs = template, refs
        self.cache: BoundedMemo[tuple, str] = BoundedMemo(TEMPLATE_OUTPUTS)

    def render(self, ctx: Mapping[str, Any]) -> str:
        key = tuple(ctx[scope].get(k, _MISSING) for scope, k in self.refs)
        try:
            out = self.cache.get(key)
        except TypeError:  # a list or dict value: not hashable, render every time
            return render_limited(self.template, ctx)
        if out is None:
            out = self.cache.put(key, render_limited(self.template, ctx))
        return out


@lru_cache(maxsize=4096)
def _compile(source: str) -> tuple[Any, tuple[str, ...]]:
    """A template (or a fast lookup with identical behaviour) and the card fields it reads."""
    shaped = _shaped(source)
    if shaped is not None:
        (ast, code, refs), numbers = shaped
        fields = fields_used(ast, numbers)
    else:
        ast = ENV.parse(source)
        fields = fields_used(ast)
    m = _LOOKUP.match(source.strip())
    if m:
        default = m.group(3) if m.group(3) is not None else m.group(4)
        return _Lookup(m.group(1), m.group(2), default), fields
    m = _PATH.match(source.strip())
    if m:
        return _PathLookup(m.group(1), _path_steps(m.group(2)), source), fields
    compiled = _shape_code(code) if shaped is not None else None
    if compiled is not None:
        template = ENV.template_class.from_code(
            ENV, compiled, ENV.make_globals(slot_globals(numbers)), None)
    else:
        ast = ENV.parse(source) if shaped is not None else ast
        refs = _scope_refs(ast)
        # ENV.from_string(source) would parse the source a second time: compile the tree
        # parsed above instead (the same code)
        template = ENV.template_class.from_code(ENV, ENV.compile(ast), ENV.make_globals(None),
                                                None)
    return (_Memo(template, refs) if refs is not None else template), fields


def _shaped(source: str) -> tuple[tuple[jnodes.Template, Callable[[], Any], Any],
                                  tuple[Any, ...]] | None:
    """The source's shape (its tree, its code compiled when first asked for, its scope refs)
    and its numbers; None when it is compiled as written (pnp.render.layout.shapes)."""
    lifted = lift_numbers(ENV, source)
    if lifted is None:
        return None
    try:
        return _shape(lifted[0]), lifted[1]
    except jinja2.TemplateSyntaxError:
        return None  # parsed as written, for jinja2's own message


def _shape_code(code: Callable[[], Any]) -> Any:
    """A shape's code; None when compiling it fails (then the source is compiled as written:
    jinja2 folds what its numbers make constant, `{{ 1 or x is nope }}`, and reports what
    it reports)."""
    try:
        return code()
    except jinja2.TemplateSyntaxError:
        return None


@lru_cache(maxsize=1024)
def _shape(shape: str) -> tuple[jnodes.Template, Callable[[], Any], Any]:
    ast = ENV.parse(shape)
    return ast, lru_cache(maxsize=1)(lambda: ENV.compile(ast)), _scope_refs(ast)


@lru_cache(maxsize=4096)
def _expression(source: str) -> Any:
    """A `when:` expression compiled once per distinct source (elements repeat them, and
    compiling is most of what loading a layout costs), and once per shape of those that differ
    only in their numbers; the compiled expression keeps no state."""
    lifted = lift_numbers(ENV, source, expression=True)
    if lifted is not None:
        try:
            code = _expression_shape(lifted[0])
        except jinja2.TemplateSyntaxError:
            pass  # compiled as written below, for jinja2's own message
        else:
            template = ENV.template_class.from_code(
                ENV, code, ENV.make_globals(slot_globals(lifted[1])), None)
            return TemplateExpression(template, True)
    return ENV.compile_expression(source)


@lru_cache(maxsize=1024)
def _expression_shape(shape: str) -> Any:
    """What `compile_expression` compiles: the expression assigned to `result`."""
    parser = Parser(ENV, shape, state="variable")
    expr = parser.parse_expression()
    if not parser.stream.eos:
        raise jinja2.TemplateSyntaxError("chunk after expression", parser.stream.current.lineno)
    expr.set_environment(ENV)
    body = [jnodes.Assign(jnodes.Name("result", "store"), expr, lineno=1)]
    return ENV.compile(jnodes.Template(body, lineno=1))


@lru_cache(maxsize=4096)
def condition_fields(source: str) -> tuple[str, ...]:
    """The card fields a `when:` template reads, parsed once per distinct source (once per
    shape of those that differ only in their numbers)."""
    shaped = _shaped(source)
    if shaped is not None:
        return fields_used(shaped[0][0], shaped[1])
    return fields_used(ENV.parse(source))


def compile_condition(source: str) -> Callable[..., Any]:
    """A `when:` expression; `card.x is defined` is answered without jinja2."""
    m = _DEFINED.match(source)
    if m:
        scope, key, negate = m.group(1), m.group(2), bool(m.group(3))
        return lambda **ctx: (key in ctx[scope]) != negate
    expression = _expression(source)

    failed: list[str] = []  # per element, as before: only the compiled code is shared

    def limited(**ctx):
        if failed:  # it hit a limit once: the next card would wait as long
            raise TemplateLimit(failed[0])
        try:
            with budget():
                return expression(**ctx)
        except TemplateLimit as exc:
            failed.append(str(exc))
            raise

    return limited


#: templates that hit a sandbox limit (by id, with the template itself to keep the id taken)
_OVER_LIMIT: dict[int, tuple[Any, str]] = {}


def render_template(template: Any, ctx: Mapping[str, Any], what: str,
                    fields: tuple[str, ...] = ()) -> str:
    """Render one compiled template, turning every user error into an ElementError."""
    first = fields[0] if fields else None
    over = _OVER_LIMIT.get(id(template))
    try:
        if over is not None and over[0] is template:
            raise TemplateLimit(over[1])  # it failed once: the next card would wait as long
        if isinstance(template, jinja2.Template):
            return render_limited(template, ctx)
        return template.render(ctx)
    except TemplateLimit as exc:
        _OVER_LIMIT[id(template)] = (template, str(exc))
        raise ElementError(R_TEMPLATE_LIMIT, f"{what}: {exc}",
                           "a card template should read and format card values: keep loops "
                           "short and values small", first) from None
    except jinja2.UndefinedError as exc:
        missing = re.search(r"has no attribute '([^']+)'", str(exc))
        name = missing.group(1) if missing else first
        raise ElementError(R_UNDEFINED, f"{what}: {exc.message}",
                           "add the field to the card (or the deck's defaults), or guard it "
                           "with {% if card.FIELD is defined %}", name) from None
    except SecurityError as exc:
        raise ElementError(R_SANDBOX, f"{what}: not allowed in a layout template: {exc}",
                           "templates may only read card, deck and game values", first) from None
    except jinja2.TemplateError as exc:
        raise ElementError(R_TEMPLATE_ERROR, f"{what}: {exc}", "", first) from None
    except Exception as exc:  # a user template may raise anything (1/0, int('x'), ...)
        raise ElementError(R_TEMPLATE_ERROR, f"{what}: {type(exc).__name__}: {exc}", "",
                           first) from None


class Prop:
    """A property that is either constant (parsed once) or a template (rendered per card).

    A plain `{{ card.x }}` whose value is text is read straight from the context, and a parsed
    value (a colour, a length) is remembered per text: most cards repeat them."""

    __slots__ = ("const", "template", "parse", "fields", "name", "is_const", "lookup", "parsed")

    def __init__(self, name: str, value: Any, parse: Callable[[Any], Any]):
        self.name = name
        self.parse = parse
        self.template = None
        self.lookup: tuple[str, str] | None = None
        self.parsed: BoundedCache | None = None if parse is as_text else BoundedCache(256)
        self.fields: tuple[str, ...] = ()
        if is_template(value):
            self.template, self.fields = _compile(value)
            if isinstance(self.template, _Lookup):
                self.lookup = (self.template.scope, self.template.key)
            self.const = None
            self.is_const = False
        else:
            self.const = parse(value)  # may raise ValueError: reported at compile time
            self.is_const = True

    def get(self, ctx: Mapping[str, Any], what: str) -> Any:
        if self.is_const:
            return self.const
        lookup = self.lookup
        text = None if lookup is None else ctx[lookup[0]].get(lookup[1])
        if text.__class__ is not str:  # not a plain text value: render as jinja2 would
            text = render_template(self.template, ctx, f"{what} {self.name}", self.fields)
        parsed = self.parsed
        if parsed is None:
            return text
        value = parsed.get(text, _MISSING)
        if value is _MISSING:
            try:
                value = self.parse(text)
            except ValueError as exc:
                code = R_COLOR if self.parse is parse_color else R_LENGTH
                raise ElementError(code, f"{what} {self.name}: {exc}", "",
                                   self.fields[0] if self.fields else None) from None
            parsed[text] = value
        return value


def syntax_diagnostic(pos: Position | None, what: str,
                      exc: jinja2.TemplateSyntaxError) -> Diagnostic:
    return Diagnostic.at(pos, ERROR, R_TEMPLATE_SYNTAX,
                         f"{what}: template syntax error: {exc.message}",
                         "jinja2 syntax: {{ card.field }}, {% if ... %}...{% endif %}")
