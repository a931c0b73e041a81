"""Decks whose cards are rows of a spreadsheet: `cards: {from: cards.xlsx, sheet: Empire A}`.

The rows become the same card data a deck file holds (`id`, `name`, `count` and `fields`), put
in place of the `from:` map, and the deck's document learns where each value came from (a
mount, see Document.mounts). Schema checks, typed fields, effects, lint and variants then run
unchanged, and every diagnostic they raise names the cell: `cards.xlsx:Empire A!C12 (cost)`.
"""

from __future__ import annotations

import re
from array import array
from pathlib import Path
from typing import Any

from pnp.data.loader import Document, plain_scalar
from pnp.data.sheets import SHEET_SUFFIXES, Table, TableProblem, cell_name, read_table
from pnp.diagnostics import ERROR, WARNING, Diagnostic, Position

__all__ = ["CARD_COLUMNS", "SheetCells", "attach_sheets", "cards_from_table", "cell_value",
           "unread_sheets"]

#: Columns that are the card's own keys; every other column is a field.
CARD_COLUMNS = ("id", "name", "count")
_COLUMN_KIND = {"id": "name", "name": "name", "count": "integer"}
_INT_RE = re.compile(r"\s*[-+]?[0-9]+\s*")


class SheetCells:
    """Where each value of a sheet's cards is: card r is sheet row rows[r], a key or field is
    its column's cell in that row; a key's own position is its column's header cell."""

    __slots__ = ("file", "sheet", "rows", "columns", "headers", "header_row", "first")

    def __init__(self, table: Table, header_row: int, columns: dict[str, int]):
        self.file, self.sheet = table.file, table.sheet
        self.rows = array("I")
        self.columns = columns  # key or field id -> column number
        self.headers = {col: name for name, col in columns.items()}
        self.header_row = header_row
        self.first = min(columns.values())

    def _at(self, row: int, column: int, named: bool = True) -> Position:
        cell = cell_name(self.sheet, row, column)
        if named and column in self.headers:
            cell += f" ({self.headers[column]})"
        return Position(self.file, row, column, cell)

    def _column(self, rest: tuple) -> int | None:
        if rest[0] in ("id", "name", "count"):
            return self.columns.get(rest[0])
        if rest[0] == "fields" and len(rest) > 1:
            return self.columns.get(rest[1])
        return None

    def pos(self, rest: tuple) -> Position | None:
        index = rest[0]
        if not isinstance(index, int) or not 0 <= index < len(self.rows):
            return None
        row = self.rows[index]
        column = self._column(rest[1:]) if len(rest) > 1 else None
        if column is None:
            return self._at(row, self.first, named=False)  # the card as a whole: its row
        return self._at(row, column)

    def key_pos(self, rest: tuple) -> Position | None:
        column = self._column(rest[1:]) if len(rest) > 1 else None
        if column is None or len(rest) > 3:
            return self.pos(rest)
        return self._at(self.header_row, column)  # a field's name is written in its header


def attach_sheets(folder: Path, doc: Document, used: set[Path] | None = None) -> list[Diagnostic]:
    """Read every `cards: {from: ...}` of a deck document and put the rows in its place; the
    `from:` map stays (and the problems are returned) when the sheet cannot be used. `from:`
    is relative to the deck file and must stay inside the game `folder`; each file named is
    added to `used`."""
    data = doc.data
    decks = data.get("decks") if isinstance(data, dict) else None
    diags: list[Diagnostic] = []
    for i, deck in enumerate(decks if isinstance(decks, list) else []):
        source = deck.get("cards") if isinstance(deck, dict) else None
        if not isinstance(source, dict) or not isinstance(source.get("from"), str) \
                or set(source) - {"from", "sheet"}:
            continue  # YAML cards, or a shape the schema reports (a misspelt `sheet:` too)
        sheet = source.get("sheet")
        sheet = str(sheet) if sheet is not None else None
        where = ("decks", i, "cards")
        path = Path(doc.path).parent / source["from"]
        if used is not None:
            used.add(path.resolve())
        if not _inside(folder, path):
            diags.append(Diagnostic.at(doc.pos((*where, "from")), ERROR, "PNP-T001",
                                       f"'{source['from']}' lies outside the game folder",
                                       "keep the spreadsheet in the game folder, so copying the "
                                       "folder copies the whole game"))
            continue
        table = read_table(path, sheet)
        if isinstance(table, TableProblem):
            at = (*where, "sheet") if table.about_sheet else (*where, "from")
            diags.append(Diagnostic.at(doc.pos(at), ERROR, table.code, table.message, table.hint))
            continue
        cards, cells, problems = cards_from_table(table, deck.get("fields"))
        diags.extend(problems)
        if cells is None or any(d.severity == ERROR for d in problems):
            continue
        if not cards:
            diags.append(Diagnostic.at(doc.pos((*where, "from")), ERROR, "PNP-T004",
                                       f"{_sheet_words(table)} has a header row but no cards",
                                       "add a row for each card below the header"))
            continue
        deck["cards"] = cards
        doc.mounts[where] = cells
    return diags


def unread_sheets(folder: Path, used: set[Path]) -> list[Diagnostic]:
    """A warning for each spreadsheet in the game folder that no deck reads: a designer who
    drops cards.csv beside the YAML learns how to use it instead of seeing nothing happen."""
    out = []
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).parts
        if path.suffix.lower() not in SHEET_SUFFIXES or any(p.startswith((".", "~$")) for p in rel):
            continue
        if path.is_file() and path.resolve() not in used:
            out.append(Diagnostic(WARNING, "PNP-T005", f"no deck reads '{path.name}'", str(path),
                                  1, 1, f"to take a deck's cards from it, write `cards: {{from: "
                                  f"{'/'.join(rel)}}}` in the deck (one row a card, the first row "
                                  "names the columns); or move it out of the game folder"))
    return out


def cards_from_table(table: Table, declared: Any) -> tuple[list[dict], SheetCells | None,
                                                           list[Diagnostic]]:
    """The cards of a table (its first non-blank row names the columns) and their cells."""
    declared = declared if isinstance(declared, dict) else {}
    diags: list[Diagnostic] = []
    if not table.rows:
        diags.append(Diagnostic(ERROR, "PNP-T003", f"{_sheet_words(table)} is empty", table.file,
                                1, 1, "the first row names the columns (id, name, count and the "
                                "deck's fields), each row below is one card",
                                cell_name(table.sheet, 1, 1)))
        return [], None, diags
    header_row, header = table.rows[0]
    columns: dict[str, int] = {}
    for column, value in enumerate(header, 1):
        if value is None:
            continue
        name = str(value).strip()
        if name in columns:
            first = cell_name(table.sheet, header_row, columns[name])
            diags.append(_cell_diag(table, header_row, column, ERROR, "PNP-T003",
                                    f"a second column is named '{name}'",
                                    f"the first is {first}; rename or remove one of them"))
            continue
        columns[name] = column
    if not columns:
        return [], None, diags
    cells = SheetCells(table, header_row, columns)
    kinds = {col: _COLUMN_KIND.get(name) or _field_kind(declared.get(name))
             for name, col in columns.items()}
    unnamed_reported: set[int] = set()
    cards = []
    for number, row in table.rows[1:]:
        card: dict[str, Any] = {}
        fields: dict[str, Any] = {}
        for column, value in enumerate(row, 1):
            if value is None:
                continue
            name = cells.headers.get(column)
            if name is None:
                if column not in unnamed_reported:
                    unnamed_reported.add(column)
                    diags.append(_cell_diag(table, number, column, WARNING, "PNP-T003",
                                            "a value in a column without a header is not read",
                                            "name the column in the header row (a field id), "
                                            "or clear it"))
                continue
            value = cell_value(kinds[column], value, table.typed)
            if name in CARD_COLUMNS:
                card[name] = value
            else:
                fields[name] = value
        if not card and not fields:
            continue
        if fields:
            card["fields"] = fields
        cells.rows.append(number)
        cards.append(card)
    return cards, cells, diags


def _field_kind(spec: Any) -> str | None:
    kind = spec.get("type") if isinstance(spec, dict) else None
    return kind if isinstance(kind, str) else None


def cell_value(kind: str | None, value: Any, typed: bool) -> Any:
    """A cell as the value a deck file would hold for a column of this kind; text that is not
    of the kind stays text, so the field checks report it at its cell."""
    if isinstance(value, str):
        if kind == "integer" and _INT_RE.fullmatch(value):
            return int(value)
        if kind == "boolean" and value.strip().lower() in ("true", "false"):
            return value.strip().lower() == "true"
        if kind == "list":  # 'a, b', or one item a line when an item holds a comma
            if value.strip() == "[]":
                return []
            sep = "\n" if "\n" in value.strip() else ","
            return [item.strip() for item in value.split(sep) if item.strip()]
        if kind is None and not typed:
            return plain_scalar(value.strip())  # a CSV cell of a free field reads as YAML would
        return value
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and kind in ("name", "enum", "effect", "condition"):
        return str(value)
    if isinstance(value, (int, float)) and kind == "list":
        return [str(value)]
    return value


def _cell_diag(table: Table, row: int, column: int, severity: str, code: str, message: str,
               hint: str) -> Diagnostic:
    return Diagnostic(severity, code, message, table.file, row, column, hint,
                      cell_name(table.sheet, row, column))


def _sheet_words(table: Table) -> str:
    name = Path(table.file).name
    return f"sheet '{table.sheet}' of '{name}'" if table.sheet else f"'{name}'"


def _inside(folder: Path, path: Path) -> bool:
    try:
        return path.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError):
        return False
