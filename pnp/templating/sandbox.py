"""A jinja2 sandbox with limits: layout templates finish in bounded time and memory.

jinja2's sandbox stops templates from reaching Python internals, but not from looping for hours
(`{% for a in range(99999) %}{% for b in range(99999) %}`) or building gigabytes
(`{{ 'x' * 10**9 }}`). Here every render gets a budget: at most MAX_ITERATIONS loop steps over
ranges, strings and lists no longer than MAX_OUTPUT characters (items), and MAX_SECONDS of wall
time (checked by a timer signal where one is available). Exceeding any of them raises
TemplateLimit, which the layout code reports as PNP-R014 at the layout line, and the rulesheet
code as PNP-R089 at the source line. Both render through `render_limited`.
"""

from __future__ import annotations

import re
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import PurePath
from typing import Any

import jinja2
from jinja2.runtime import Namespace
from jinja2.sandbox import SandboxedEnvironment, modifies_known_mutable

MAX_OUTPUT = 100_000  # characters of one template's output, or of any string or list it makes
MAX_ITERATIONS = 100_000  # loop steps over range() in one render
MAX_RANGE = 10_000  # items of one range()
MAX_EXPONENT = 64  # the largest power `**` may raise to
MAX_SECONDS = 2.0  # wall time of one render


class TemplateLimit(jinja2.TemplateError):
    """A template needed more time or memory than a card face can."""


class _Budget:
    __slots__ = ("steps", "deadline")

    def __init__(self) -> None:
        self.steps = 0
        self.deadline = time.monotonic() + MAX_SECONDS

    def step(self, n: int = 1) -> None:
        self.steps += n
        if self.steps > MAX_ITERATIONS:
            raise TemplateLimit(f"the template loops more than {MAX_ITERATIONS:,} times")
        if self.steps % 1024 == 0 and time.monotonic() > self.deadline:
            raise TemplateLimit(f"the template ran longer than {MAX_SECONDS:g} s")


_budget = _Budget()


class _Range:
    """range() whose every step is charged to the render's budget."""

    __slots__ = ("_range",)

    def __init__(self, *args: int):
        r = range(*args)
        if len(r) > MAX_RANGE:
            raise TemplateLimit(f"range() of {len(r):,} items; at most {MAX_RANGE:,}")
        self._range = r

    def __len__(self) -> int:
        return len(self._range)

    def __iter__(self) -> Iterator[int]:
        for i in self._range:
            _budget.step()
            yield i

    def __getitem__(self, index):
        return self._range[index]

    def __repr__(self) -> str:
        return repr(self._range)


def _check_size(value: Any) -> Any:
    if isinstance(value, str | list | tuple | bytes) and len(value) > MAX_OUTPUT:
        raise TemplateLimit(f"the template made a value of {len(value):,} characters or items; "
                            f"at most {MAX_OUTPUT:,}")
    return value


def _size(value: Any) -> int:
    return len(value) if isinstance(value, str | list | tuple | bytes) else 0


class _Namespace(Namespace):
    """namespace() whose values stay within the size limit (`ns.s = ns.s ~ ns.s` doubles)."""

    def __setitem__(self, name: str, value: Any) -> None:
        super().__setitem__(name, _check_size(value))


def _limited_filter(f: Callable, name: str) -> Callable:
    def run(*args, **kwargs):
        _check_args(args, kwargs)
        if name == "format":
            _check_format(next((a for a in args if isinstance(a, str)), ""))
        return _check_size(f(*args, **kwargs))

    for attr in ("jinja_pass_arg",):
        if hasattr(f, attr):
            setattr(run, attr, getattr(f, attr))
    return run


def _check_args(args, kwargs) -> None:
    """Refuse widths and counts that would build a huge value before it is built
    ('x'.ljust(10**9), |center(10**9), |indent(10**9))."""
    for v in (*args, *kwargs.values()):
        if isinstance(v, int) and not isinstance(v, bool) and abs(v) > MAX_OUTPUT:
            raise TemplateLimit(f"the number {v:,} is too large for a card template; "
                                f"at most {MAX_OUTPUT:,}")
        if isinstance(v, str) and len(v) > MAX_OUTPUT:
            _check_size(v)


class LimitedEnvironment(SandboxedEnvironment):
    """The layout sandbox: jinja2's, plus the limits above."""

    intercepted_binops = frozenset(["*", "**", "%", "+"])

    def __init__(self, **options: Any):
        super().__init__(**options)
        self.globals["range"] = _Range
        self.globals["namespace"] = _Namespace
        self.filters = {name: _limited_filter(f, name) for name, f in self.filters.items()}

    def call_binop(self, context, operator: str, left: Any, right: Any) -> Any:
        if operator == "*":
            n = right if isinstance(right, int) else left if isinstance(left, int) else None
            seq = left if isinstance(right, int) else right
            if n is not None and _size(seq) * max(0, n) > MAX_OUTPUT:
                raise TemplateLimit(f"repeating a value {n:,} times makes more than "
                                    f"{MAX_OUTPUT:,} characters")
        elif operator == "**" and isinstance(right, int | float):
            bits = left.bit_length() if isinstance(left, int) else 64
            if abs(right) > MAX_EXPONENT or bits * abs(right) > MAX_OUTPUT:
                raise TemplateLimit(f"{left!r:.20} ** {right!r:.20} is too large for a card")
        elif operator == "%" and isinstance(left, str):
            _check_format(left)
        result = super().call_binop(context, operator, left, right)
        return _check_size(result)

    def call(__self, __context, __obj, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
        _check_args(args, kwargs)
        return _check_size(super().call(__context, __obj, *args, **kwargs))

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        wrapped = super().wrap_str_format(value)
        if wrapped is not None:
            _check_format(value.__self__)
        return wrapped


def _check_format(fmt: str) -> None:
    """Refuse a format string with a huge width or precision ('{:>999999999}', '%999999999d')."""
    for width in re.findall(r"\d{6,}", str(fmt)):
        _check_args((int(width),), {})


@contextmanager
def budget() -> Iterator[None]:
    """One render's budget; in the main thread a timer also interrupts a render that runs too
    long between budget checks."""
    global _budget
    _budget = _Budget()
    timer = threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
    if not timer:
        yield
        return

    def expired(_signum, _frame):
        raise TemplateLimit(f"the template ran longer than {MAX_SECONDS:g} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, MAX_SECONDS)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def render_limited(template: jinja2.Template, ctx: Any) -> str:
    """template.render(ctx) within one budget, streamed so output past MAX_OUTPUT stops the
    render early (a card face, or one rulesheet source: about 25 pages, which lay out in
    seconds; platypus takes minutes over a table of 20,000 rows)."""
    out: list[str] = []
    size = 0
    with budget():
        chunks = template.generate(ctx)
        for chunk in chunks:
            size += len(chunk)
            if size > MAX_OUTPUT:
                over = TemplateLimit(f"the template writes more than {MAX_OUTPUT:,} characters")
                chunks.throw(over)  # raised where the template writes: its line is traced
                raise over
            out.append(chunk)
    return "".join(out)


class _DataOnlySandbox(LimitedEnvironment):
    """Reads game data, nothing else: no mutation, no file paths, no raw YAML documents."""

    hidden_attributes = frozenset({"folder", "documents", "layout_documents"})

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        if attr in self.hidden_attributes or isinstance(obj, PurePath) or isinstance(value, PurePath):
            return False
        if not super().is_safe_attribute(obj, attr, value):
            return False
        return not modifies_known_mutable(obj, attr)


def sandboxed_environment(*, data_only: bool = False, **options: Any) -> SandboxedEnvironment:
    """The one environment every designer-written template runs in (card layouts, rulesheets):
    sandboxed, limited, StrictUndefined (a typo is an error with a line, never a blank on the
    printed page), not escaping.

    `data_only` also forbids changing lists and dicts and reaching file paths, for templates
    that are handed whole model objects (the rulesheet's `game`) rather than plain dicts.
    """
    cls = _DataOnlySandbox if data_only else LimitedEnvironment
    options.setdefault("undefined", jinja2.StrictUndefined)
    options.setdefault("autoescape", False)
    # jinja2's optimizer only folds constant expressions at compile time, re-walking each
    # node's subtree (a third of compiling a layout's arithmetic); a folded value is the one
    # the template computes when rendered, so output and errors are the same without it
    options.setdefault("optimized", False)
    return cls(**options)
