"""Diagnostics: every data problem is collected as one of these, never raised.

A diagnostic carries where (file, line, column; 1-based), what (severity, code, message) and
how to fix it (hint). Text output uses the `file:line:column: severity code: message` form that
editors and CI annotate; JSON output is a stable document.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path

ERROR = "error"
WARNING = "warning"
INFO = "info"

SCHEMA_VERSION = 1


@dataclass(frozen=True, order=True)
class Position:
    """A place in a source file: 1-based line and column.

    In a spreadsheet, line and column are the cell's row and column number, and `cell` names it
    as a spreadsheet does (`Empire A!C12 (cost)`: sheet, cell, the column's header)."""

    file: str
    line: int = 0
    column: int = 0
    cell: str = ""

    def shifted(self, columns: int) -> Position:
        """The position `columns` characters further along the same line (a cell stays put:
        its next column is another value)."""
        if self.cell:
            return self
        return Position(self.file, self.line, self.column + columns)


@dataclass(frozen=True)
class Diagnostic:
    severity: str
    code: str
    message: str
    file: str = ""
    line: int = 0
    column: int = 0
    hint: str = ""
    #: a spreadsheet cell's name (`Empire A!C12 (cost)`) where line and column are its row and
    #: column; shown instead of `line:column`
    cell: str = ""

    @classmethod
    def at(
        cls, pos: Position | None, severity: str, code: str, message: str, hint: str = ""
    ) -> Diagnostic:
        if pos is None:
            return cls(severity, code, message, hint=hint)
        return cls(severity, code, message, pos.file, pos.line, pos.column, hint, pos.cell)

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def format_text(self, root: Path | None = None) -> str:
        """`file:line:column: severity code: message` then an indented hint line; a spreadsheet
        cell reads `file:Sheet!C12 (column): ...`."""
        where = display_path(self.file, root) if self.file else "<pnp>"
        if self.cell:
            where += f":{self.cell}"
        elif self.line:
            where += f":{self.line}:{self.column or 1}"
        text = f"{where}: {self.severity} {self.code}: {self.message}"
        if self.hint:
            text += f"\n    hint: {self.hint}"
        return text

    def to_json(self, root: Path | None = None) -> dict:
        data = asdict(self)
        if not self.cell:
            del data["cell"]  # the document stays as it was for every file but a spreadsheet
        if self.file:
            data["file"] = display_path(self.file, root)
        return data


def display_path(file: str, root: Path | None) -> str:
    """A path relative to `root` (or the working directory) when it lies below it."""
    path = Path(file)
    for base in (root, Path.cwd()):
        if base is None:
            continue
        try:
            return str(path.resolve().relative_to(base.resolve()))
        except (ValueError, OSError, RuntimeError):  # RuntimeError: a symlink loop
            continue
    return file


def sort_key(d: Diagnostic) -> tuple:
    return (d.file, d.line, d.column, d.code, d.message)


def has_errors(diags: Iterable[Diagnostic], strict: bool = False) -> bool:
    """True when any diagnostic is an error, or (strict) a warning."""
    bad = {ERROR, WARNING} if strict else {ERROR}
    return any(d.severity in bad for d in diags)


def render_text(diags: Iterable[Diagnostic], root: Path | None = None) -> str:
    return "\n".join(d.format_text(root) for d in sorted(diags, key=sort_key))


def render_json(diags: Iterable[Diagnostic], ok: bool, root: Path | None = None, **extra) -> str:
    doc = {
        "schema_version": SCHEMA_VERSION,
        "ok": ok,
        **extra,
        "diagnostics": [d.to_json(root) for d in sorted(diags, key=sort_key)],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False)


class DiagnosticError(Exception):
    """Raised only to abort a pipeline that already collected its diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__("; ".join(d.message for d in diagnostics[:3]))
        self.diagnostics = diagnostics
