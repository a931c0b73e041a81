"""Find a game's rulesheet sources and render their jinja2 into Markdown, lines traced back.

Every line of literal text in a source is tagged, before jinja2 sees it, with an invisible
marker naming its file and line; markers survive loops and macros with the text they label. So
a Markdown problem found after rendering (a table row one cell short, written inside a
`{% for %}`) is reported at the template line that wrote it. Markers are Unicode space
characters, so jinja2's whitespace control (`{%-`, `-%}`) strips them like any other space.
"""

from __future__ import annotations

import re
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import jinja2
from jinja2.sandbox import SecurityError

from pnp import paths
from pnp.data.model import GameDef
from pnp.diagnostics import ERROR, Diagnostic, Position
from pnp.rulesheet.context import template_context, template_filters
from pnp.templating.sandbox import (
    MAX_ITERATIONS,
    MAX_OUTPUT,
    MAX_SECONDS,
    TemplateLimit,
    render_limited,
    sandboxed_environment,
)

# Diagnostic codes (docs/rulesheet.md lists them).
R_SYNTAX = "PNP-R080"  # jinja2 syntax error in a rulesheet source
R_UNDEFINED = "PNP-R081"  # a source reads a field or rule parameter the data does not have
R_SANDBOX = "PNP-R082"  # a source tries something the sandbox forbids
R_TEMPLATE = "PNP-R083"  # a source failed while rendering (include not found, 1/0, ...)
R_SOURCE = "PNP-R087"  # a source that cannot be read, or a rulesheet folder without sources
R_LIMIT = "PNP-R089"  # a source loops, runs or writes past the sandbox's limits

SUFFIX = ".md"
MAX_SOURCE_BYTES = 1_000_000

_START, _SEP, _END = "\u3000", "\u205f", "\u200a"
_DIGIT0 = 0x2000
_MARK = re.compile(f"{_START}([\u2000-\u2009]+){_SEP}([\u2000-\u2009]+){_END}")
_CLOSERS = {"{{": "}}", "{%": "%}", "{#": "#}"}
_OUTSIDE = re.compile(r"\{[{%#]|\n")


def _digits(n: int) -> str:
    return "".join(chr(_DIGIT0 + int(d)) for d in str(n))


def _number(marks: str) -> int:
    return int("".join(str(ord(ch) - _DIGIT0) for ch in marks))


def _marker(file_index: int, line: int) -> str:
    return f"{_START}{_digits(file_index)}{_SEP}{_digits(line)}{_END}"


def mark_lines(source: str, file_index: int) -> str:
    """The source with a marker at the start of every line that begins outside a jinja2 tag."""
    out = [_marker(file_index, 1)]
    line, i, n = 1, 0, len(source)
    while i < n:
        m = _OUTSIDE.search(source, i)  # the next line break or tag, outside any tag
        if m is None:
            out.append(source[i:])
            break
        out.append(source[i:m.start()])
        i = m.end()
        if m.group() == "\n":
            line += 1
            out.append("\n" + _marker(file_index, line))
            continue
        closer = _CLOSERS[m.group()]
        end = source.find(closer, i)
        inside = source[i:] if end < 0 else source[i:end + 2]
        out.append(m.group() + inside)
        line += inside.count("\n")
        i = n if end < 0 else end + 2
    return "".join(out)


@dataclass(frozen=True)
class RenderedSource:
    """One source file rendered to Markdown; `lines[i]` is where output line i+1 was written."""

    path: Path
    text: str
    lines: tuple[Position, ...]

    def position(self, line_index: int) -> Position:
        """The source position of a 0-based output line (clamped)."""
        if not self.lines:
            return Position(str(self.path), 1, 1)
        return self.lines[max(0, min(line_index, len(self.lines) - 1))]


def unmark(text: str, files: list[Path]) -> tuple[str, tuple[Position, ...]]:
    """Strip the markers; each output line is placed at the last marker it holds (or inherits)."""
    out_lines, positions = [], []
    current = Position(str(files[0]) if files else "", 1, 1)
    for raw in text.split("\n"):
        found = list(_MARK.finditer(raw))
        if found:
            f, ln = _number(found[-1].group(1)), _number(found[-1].group(2))
            current = Position(str(files[f]) if f < len(files) else "", ln, 1)
        out_lines.append(_MARK.sub("", raw))
        positions.append(current)
    return "\n".join(out_lines), tuple(positions)


def rulesheet_folder(game: GameDef) -> Path | None:
    """The game's rulesheet sources: `rulesheet/` inside its folder, else rulesheet/<id>/."""
    for folder in (Path(game.folder) / "rulesheet", paths.RULESHEET / game.id):
        if folder.is_dir():
            return folder
    return None


_TAG = re.compile(r"\{[{%](.*?)[}%]\}", re.S)
_VARIANT = re.compile(r"\bvariant\b")


def sources_reading_variant(folder: Path) -> set[Path]:
    """The sources whose jinja2 reads `variant` (the variant being printed): all of them when
    a partial does, since any source may import it."""
    top = source_files(folder)
    reading = set()
    for path in folder.glob(f"*{SUFFIX}"):
        try:
            text = read_source(path)
        except SourceError:
            continue  # reported when the sheet is rendered
        if any(_VARIANT.search(tag) for tag in _TAG.findall(text)):
            if path.name.startswith("_"):
                return set(top)
            reading.add(path)
    return {p for p in top if p in reading}


def source_files(folder: Path) -> list[Path]:
    """The sources in print order (by name); `_name.md` files are partials for import/include."""
    return sorted(p for p in folder.glob(f"*{SUFFIX}") if p.is_file() and not p.name.startswith("_"))


class _MarkingLoader(jinja2.BaseLoader):
    """Loads sources from one folder (no `..`), each marked with its own file index."""

    def __init__(self, folder: Path, files: list[Path]):
        self.folder, self.files = folder, files

    def get_source(self, environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        path = (self.folder / template).resolve()
        if path.parent != self.folder.resolve() or not path.is_file() or path.suffix != SUFFIX:
            raise jinja2.TemplateNotFound(template)
        if path not in self.files:
            self.files.append(path)
        text = read_source(path)
        # up to date for the environment's life (one rendering of the rulesheet), so jinja2
        # compiles a partial once however many sources import or include it
        return mark_lines(text, self.files.index(path)), str(path), lambda: True


class SourceError(Exception):
    """A source file that cannot be read as UTF-8 text of a sane size."""


def read_source(path: Path) -> str:
    data = path.read_bytes()
    if len(data) > MAX_SOURCE_BYTES:
        raise SourceError(f"{path.name} is larger than {MAX_SOURCE_BYTES // 1000} kB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SourceError(f"{path.name} is not UTF-8 text (byte {exc.start})") from None


def make_environment(game: GameDef, folder: Path, files: list[Path]) -> jinja2.Environment:
    env = sandboxed_environment(data_only=True, loader=_MarkingLoader(folder, files),
                                trim_blocks=True, keep_trailing_newline=True,
                                finalize=_no_none)
    env.filters.update(template_filters(game))
    env.globals.update(template_context(game))
    return env


def _no_none(value):
    """Printing None is always a missing value in a rulesheet, never text to show."""
    if value is None:
        raise jinja2.UndefinedError("a value printed here is None (missing in the game data)")
    return value


def render_sources(game: GameDef, folder: Path | None = None, only: set[Path] | None = None,
                   ) -> tuple[list[RenderedSource], list[Diagnostic]]:
    """Render every source of the game's rulesheet (or those in `only`); errors are
    diagnostics with file and line."""
    folder = folder or rulesheet_folder(game)
    if folder is None:
        return [], []
    top = source_files(folder)
    if not top:
        return [], [Diagnostic(ERROR, R_SOURCE, f"rulesheet folder {folder} holds no {SUFFIX} "
                               "sources", str(folder), hint="add e.g. 01-overview.md")]
    files: list[Path] = [p.resolve() for p in top]
    env = make_environment(game, folder, files)
    rendered, diags = [], []
    for path in top if only is None else [p for p in top if p in only]:
        try:
            # the card layouts' budget: loop steps, sizes, output and time, per source
            text = render_limited(env.get_template(path.name), {})
        except Exception as exc:  # a user template may raise anything; report, never crash
            diags.append(template_diagnostic(exc, path.resolve(), files))
            continue
        body, lines = unmark(text, files)
        rendered.append(RenderedSource(path.resolve(), body, lines))
    return rendered, diags


def template_diagnostic(exc: BaseException, path: Path, files: list[Path]) -> Diagnostic:
    """A jinja2 (or other) exception from rendering `path`, placed at the template line."""
    if isinstance(exc, SourceError):
        return Diagnostic(ERROR, R_SOURCE, str(exc), str(path), hint="save the file as UTF-8 text")
    if isinstance(exc, jinja2.TemplateSyntaxError):
        where = Path(exc.filename) if exc.filename else path
        return Diagnostic(ERROR, R_SYNTAX, f"template syntax: {exc.message}", str(where),
                          exc.lineno or 1, 1, "check the {{ }} and {% %} pairs on this line")
    file, line = _template_frame(exc, {str(p) for p in files}, path)
    if isinstance(exc, TemplateLimit):
        return Diagnostic(ERROR, R_LIMIT, f"the source passed the sandbox's limits: {exc}", file,
                          line, 1, f"a rulesheet source may loop {MAX_ITERATIONS:,} times, "
                          f"write {MAX_OUTPUT:,} characters and run {MAX_SECONDS:g} s: loop over "
                          "the game data, not over made-up ranges or strings, and split a long "
                          "source into several files")
    if isinstance(exc, SecurityError):
        return Diagnostic(ERROR, R_SANDBOX, f"not allowed in a rulesheet: {exc}", file, line, 1,
                          "templates may only read the game data (game, rule(), helpers)")
    if isinstance(exc, jinja2.UndefinedError):
        return Diagnostic(ERROR, R_UNDEFINED, f"missing in the game data: {exc.message}", file,
                          line, 1, "check the name against `pnp show GAME`; docs/rulesheet.md "
                          "lists what a template can read")
    if isinstance(exc, jinja2.TemplateNotFound):
        return Diagnostic(ERROR, R_TEMPLATE, f"no source named {exc.name!r} in the rulesheet "
                          "folder", file, line, 1, "include and import name files beside this one")
    message = exc.message if isinstance(exc, jinja2.TemplateError) else f"{type(exc).__name__}: {exc}"
    return Diagnostic(ERROR, R_TEMPLATE, f"template failed: {message}", file, line, 1)


def _template_frame(exc: BaseException, names: set[str], fallback: Path) -> tuple[str, int]:
    """The innermost traceback frame inside a rulesheet source (jinja2 maps it to the line)."""
    best = (str(fallback), 0)
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename in names:
            best = (frame.filename, frame.lineno or 0)
    return best
