"""Read one table from a CSV, XLSX, XLS or ODS file, keeping each cell's row and column.

A deck may keep its cards in a spreadsheet. This module only reads: it returns the table's
non-blank rows with their sheet row numbers, so every later check can name the cell. CSV goes
through the standard library (encoding from the byte-order mark, else UTF-8, else Windows-1252;
the delimiter is the one the header line uses most); workbooks through python-calamine, the
Rust calamine reader that pandas also uses, which reads xlsx, xls and ods alike, quickly.
"""

from __future__ import annotations

import codecs
import csv
import datetime as dt
import difflib
import io
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["SHEET_SUFFIXES", "Table", "TableProblem", "cell_name", "column_letters",
           "decode_csv", "read_table", "table_from_csv_text"]

#: File endings read as tables.
SHEET_SUFFIXES = (".csv", ".tsv", ".xlsx", ".xlsm", ".xls", ".ods")
_WORKBOOKS = {".xlsx", ".xlsm", ".xls", ".ods"}
_ZIPPED = {".xlsx", ".xlsm", ".ods"}

MAX_SHEET_BYTES = 16 * 1024 * 1024  # the file as stored
MAX_UNZIPPED = 256 * 1024 * 1024  # an xlsx or ods is a zip: what it unpacks to
MAX_ROWS = 100_000
MAX_COLUMNS = 1_000
_DELIMITERS = (",", ";", "\t", "|")


@dataclass
class Table:
    """The non-blank rows of one sheet: (sheet row number, cells from column A on); blank cells
    are None, whole numbers are ints, text is kept as written."""

    file: str
    sheet: str  # '' for a CSV file, which has one unnamed sheet
    rows: list[tuple[int, list[Any]]] = field(default_factory=list)
    #: True when cells carry their own types (a workbook); False when every cell is text (CSV)
    typed: bool = True


@dataclass(frozen=True)
class TableProblem:
    """Why a table could not be read: `about_sheet` when the sheet name is the mistake."""

    code: str
    message: str
    hint: str
    about_sheet: bool = False


def column_letters(column: int) -> str:
    """1 -> 'A', 27 -> 'AA': a column's name in a spreadsheet."""
    letters = ""
    while column > 0:
        column, rest = divmod(column - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def cell_name(sheet: str, row: int, column: int) -> str:
    """'Empire A!C12', or 'C12' in a CSV file."""
    ref = f"{column_letters(column)}{row}"
    return f"{sheet}!{ref}" if sheet else ref


def read_table(path: Path, sheet: str | None = None) -> Table | TableProblem:
    """The named sheet (the first when None) of a spreadsheet file, or why it cannot be read."""
    suffix = path.suffix.lower()
    if suffix not in SHEET_SUFFIXES:
        return TableProblem("PNP-T001", f"'{path.name}' is not a spreadsheet pnp reads",
                            f"use a file ending in {', '.join(SHEET_SUFFIXES)}")
    try:
        if not path.is_file():
            return TableProblem("PNP-T001", f"no spreadsheet file '{path.name}'",
                                "check the name in `from:`; the path is relative to this deck file")
        size = path.stat().st_size
        if size > MAX_SHEET_BYTES:
            return TableProblem("PNP-T001", f"'{path.name}' is {size:,} bytes, over the "
                                f"{MAX_SHEET_BYTES:,}-byte limit", "split the cards over several sheets")
        if suffix in _WORKBOOKS:
            return _read_workbook(path, suffix, sheet)
        if sheet:
            return TableProblem("PNP-T002", f"'{path.name}' is a CSV file and has no sheets",
                                "remove `sheet:`, or point `from:` at a workbook", about_sheet=True)
        return table_from_csv_text(decode_csv(path.read_bytes()), str(path))
    except (OSError, ValueError, csv.Error) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        return TableProblem("PNP-T001", f"cannot read '{path.name}': {reason}",
                            "check that the file is a readable spreadsheet")


def decode_csv(raw: bytes) -> str:
    """CSV bytes as text: the byte-order mark's encoding, else UTF-8, else Windows-1252 (what
    Excel writes on Windows), else Latin-1, which decodes anything."""
    for bom, encoding in ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
                          (codecs.BOM_UTF16_BE, "utf-16-be")):
        if raw.startswith(bom):
            return raw[len(bom):].decode(encoding, errors="replace")
    for encoding in ("utf-8", "cp1252"):
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            continue
    return raw.decode("latin-1")


def _delimiter(text: str) -> str:
    """The delimiter the header line uses most (',' when it uses none: a one-column table)."""
    header = text.split("\n", 1)[0]
    counts = [(header.count(d), -i, d) for i, d in enumerate(_DELIMITERS)]
    best = max(counts)
    return best[2] if best[0] else ","


def table_from_csv_text(text: str, file: str) -> Table | TableProblem:
    """A CSV file's rows; a row's number is its record's (a quoted cell may span lines)."""
    if "\x00" in text:
        return TableProblem("PNP-T001", f"'{Path(file).name}' holds NUL characters, so it is not "
                            "CSV text", "save the sheet as CSV (comma- or semicolon-separated)")
    table = Table(file, "", typed=False)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text))
    for number, cells in enumerate(reader, 1):
        problem = _add_row(table, number, [c if c.strip() else None for c in cells])
        if problem is not None:
            return problem
    return table


def _add_row(table: Table, number: int, cells: list[Any]) -> TableProblem | None:
    if number > MAX_ROWS:
        return TableProblem("PNP-T001", f"'{Path(table.file).name}' has more than {MAX_ROWS:,} "
                            "rows", "split the cards over several sheets")
    if len(cells) > MAX_COLUMNS:
        cells = cells[:MAX_COLUMNS] if not any(c is not None for c in cells[MAX_COLUMNS:]) else None
        if cells is None:
            return TableProblem("PNP-T001", f"row {number} has more than {MAX_COLUMNS:,} columns",
                                "a card needs far fewer columns; check the delimiter")
    while cells and cells[-1] is None:
        cells.pop()
    if cells:
        table.rows.append((number, cells))
    return None


def _read_workbook(path: Path, suffix: str, sheet: str | None) -> Table | TableProblem:
    from python_calamine import CalamineError, CalamineWorkbook

    if suffix in _ZIPPED:
        try:
            with zipfile.ZipFile(path) as archive:
                unpacked = sum(info.file_size for info in archive.infolist())
        except zipfile.BadZipFile:
            return TableProblem("PNP-T001", f"'{path.name}' is not a valid {suffix[1:]} file "
                                "(it is not a zip archive)", "save it again from the spreadsheet program")
        if unpacked > MAX_UNZIPPED:
            return TableProblem("PNP-T001", f"'{path.name}' unpacks to {unpacked:,} bytes, over "
                                f"the {MAX_UNZIPPED:,}-byte limit", "split the cards over several files")
    try:
        book = CalamineWorkbook.from_path(str(path))
        names = list(book.sheet_names)
        if sheet is None:
            if not names:
                return TableProblem("PNP-T002", f"'{path.name}' has no sheets", "add a sheet of cards")
            sheet = names[0]
        elif sheet not in names:
            close = difflib.get_close_matches(sheet, names, n=3)
            hint = (f"did you mean {' or '.join(close)}? " if close else "") + (
                f"its sheets: {', '.join(names)}")
            return TableProblem("PNP-T002", f"'{path.name}' has no sheet '{sheet}'", hint,
                                about_sheet=True)
        grid = book.get_sheet_by_name(sheet).to_python(skip_empty_area=False)
    except CalamineError as exc:
        return TableProblem("PNP-T001", f"cannot read '{path.name}': {exc}",
                            "save it again from the spreadsheet program")
    table = Table(str(path), sheet)
    for number, cells in enumerate(grid, 1):
        problem = _add_row(table, number, [_cell(value) for value in cells])
        if problem is not None:
            return problem
    return table


def _cell(value: Any) -> Any:
    """A workbook cell as plain data: blank -> None, a whole number -> int, a date -> ISO text."""
    if isinstance(value, str):
        return value if value.strip() else None
    if isinstance(value, bool):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() and abs(value) < 2**53 else value
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return str(value)
    return value
