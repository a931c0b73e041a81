"""A deck's cards written out as a CSV, XLSX or YAML table, checked to read back the same.

`pnp export cards` moves a deck from YAML into a spreadsheet and back. Every file is read back
with the same reader a build uses before it is kept, and a card that would come back different
(a map in a free-form field, a text a CSV cell would read as a number) is a diagnostic at the
card, so an export is lossless or is not written.
"""

from __future__ import annotations

import csv
import io
import json
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from pnp.data.loader import Document, load_text
from pnp.data.sheet_decks import CARD_COLUMNS, cards_from_table
from pnp.data.sheets import Table, TableProblem, decode_csv, read_table, table_from_csv_text
from pnp.diagnostics import ERROR, Diagnostic

__all__ = ["FORMATS", "DeckTable", "ExportPlan", "deck_tables", "plan_export", "render_deck",
           "render_workbook", "sheet_title"]

FORMATS = ("csv", "xlsx", "yaml")


@dataclass
class DeckTable:
    """One deck's cards as a table: the header and one row of cell values per card."""

    deck_id: str
    deck_name: str
    doc: Document
    path: tuple  # the deck's data path in doc
    declared: dict
    cards: list[dict]
    header: list[str] = field(default_factory=list)
    rows: list[list[Any]] = field(default_factory=list)


def deck_tables(docs: list[Document], only: str | None = None) -> list[DeckTable]:
    """Every deck with cards (or the one named `only`), as tables."""
    out = []
    for doc in docs:
        if doc.kind != "deck" or not isinstance(doc.data, dict):
            continue
        for i, deck in enumerate(doc.data.get("decks") or []):
            if not isinstance(deck, dict) or not isinstance(deck.get("cards"), list):
                continue
            if only is not None and deck.get("id") != only:
                continue
            declared = deck.get("fields") if isinstance(deck.get("fields"), dict) else {}
            table = DeckTable(str(deck.get("id")), str(deck.get("name", deck.get("id"))), doc,
                              ("decks", i), declared, deck["cards"])
            _fill(table)
            out.append(table)
    return out


def _fill(table: DeckTable) -> None:
    cards = table.cards
    header = [key for key in CARD_COLUMNS if key == "name" or any(key in c for c in cards)]
    header += list(table.declared)
    for card in cards:
        for key in card.get("fields") or {}:
            if key not in header:
                header.append(key)
    table.header = header
    for card in cards:
        fields = card.get("fields") or {}
        row = []
        for key in header:
            value = card.get(key) if key in CARD_COLUMNS else fields.get(key)
            row.append(_cell(value, _kind(table.declared.get(key))))
        table.rows.append(row)


def _kind(spec: Any) -> str | None:
    return spec.get("type") if isinstance(spec, dict) else None


def _cell(value: Any, kind: str | None) -> Any:
    """A card value as a cell: a list as 'a, b' (one item a line when an item holds a comma),
    an empty list as '[]'."""
    if kind == "list" and isinstance(value, list) and all(isinstance(v, str) for v in value):
        if not value:
            return "[]"
        return ("\n" if any("," in v for v in value) else ", ").join(value)
    return value


def render_deck(table: DeckTable, fmt: str) -> tuple[bytes, list[Diagnostic]]:
    """One deck as csv or yaml file bytes, and the cards that would not read back the same
    (nothing may be written then)."""
    problems = _unwritable(table)
    if problems:
        return b"", problems
    data = _csv_bytes(table) if fmt == "csv" else _yaml_bytes(table)
    back = _read_back(table, fmt, data)
    if isinstance(back, list) and back and isinstance(back[0], Diagnostic):
        return data, back
    return data, _compare(table, back)


def render_workbook(tables: list[DeckTable]) -> tuple[bytes, dict[str, str], list[Diagnostic]]:
    """Decks as one xlsx workbook, a sheet each (deck id -> sheet title), and the cards that
    would not read back the same."""
    problems = [d for t in tables for d in _unwritable(t)]
    if problems:
        return b"", {}, problems
    taken: set[str] = set()
    titles = {t.deck_id: sheet_title(t.deck_name, taken) for t in tables}
    data = _xlsx_bytes([(t, titles[t.deck_id]) for t in tables])
    out: list[Diagnostic] = []
    with tempfile.TemporaryDirectory(prefix="pnp-export-") as tmp:
        path = Path(tmp) / "cards.xlsx"
        path.write_bytes(data)
        for t in tables:
            back = _cards_of(t, read_table(path, titles[t.deck_id]))
            out.extend(back if back and isinstance(back[0], Diagnostic) else _compare(t, back))
    return data, titles, out


def _unwritable(table: DeckTable) -> list[Diagnostic]:
    out = []
    for r, row in enumerate(table.rows):
        for key, value in zip(table.header, row, strict=True):
            if isinstance(value, (dict, list)):
                where = (*table.path, "cards", r) + ((key,) if key in CARD_COLUMNS else ("fields", key))
                out.append(Diagnostic.at(table.doc.pos(where), ERROR, "PNP-T010",
                                         f"deck '{table.deck_id}': {key} of card {r + 1} holds a "
                                         f"{type(value).__name__}, which a cell cannot hold",
                                         "declare the field (a list field is written 'a, b'), or "
                                         "keep this deck in YAML"))
    return out


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _csv_bytes(table: DeckTable) -> bytes:
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(table.header)
    for row in table.rows:
        writer.writerow([_text(v) for v in row])
    return out.getvalue().encode("utf-8-sig")  # the mark makes Excel read UTF-8


_BAD_TITLE = re.compile(r"[\[\]:*?/\\]")


def sheet_title(name: str, taken: set[str]) -> str:
    """A workbook sheet name for a deck: at most 31 characters, none of []:*?/\\, unique."""
    base = _BAD_TITLE.sub("-", name).strip("' ")[:31] or "cards"
    title, n = base, 2
    while title.lower() in taken:
        suffix = f" {n}"
        title, n = base[:31 - len(suffix)] + suffix, n + 1
    taken.add(title.lower())
    return title


def _xlsx_bytes(tables: list[tuple[DeckTable, str]]) -> bytes:
    import datetime as dt

    from openpyxl import Workbook

    book = Workbook()
    book.remove(book.active)
    for table, title in tables:
        sheet = book.create_sheet(title)
        sheet.append(table.header)
        for row in table.rows:
            sheet.append([None if isinstance(v, str) and v.startswith("=") else v for v in row])
            for col, value in enumerate(row, 1):
                if isinstance(value, str) and value.startswith("="):  # text, not a formula
                    cell = sheet.cell(sheet.max_row, col)
                    cell.value, cell.data_type = value, "s"
        sheet.freeze_panes = "A2"
    fixed = dt.datetime(2000, 1, 1)  # the same deck gives the same bytes
    book.properties.created = book.properties.modified = fixed
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _yaml_bytes(table: DeckTable) -> bytes:
    lines = [f"# The cards of deck '{table.deck_id}', written by pnp export: paste them into the "
             "deck in place of its `cards:`.", "cards:"]
    for card in table.cards:
        text = yaml.safe_dump(card, default_flow_style=True, sort_keys=False, allow_unicode=True,
                              width=1_000_000).strip()
        lines.append(f"  - {text}")
    return ("\n".join(lines) + "\n").encode("utf-8")


def _read_back(table: DeckTable, fmt: str, data: bytes) -> list:
    """The cards as the exported bytes give them back, or why they do not."""
    if fmt == "yaml":
        doc, diags = load_text(data, f"{table.deck_id}.yaml")
        if doc is None or not isinstance(doc.data, dict):
            return [_bug(table, diags[0].message if diags else "unreadable YAML")]
        return doc.data.get("cards") or []
    return _cards_of(table, table_from_csv_text(decode_csv(data), f"{table.deck_id}.csv"))


def _cards_of(table: DeckTable, back: Table | TableProblem) -> list:
    if isinstance(back, TableProblem):
        return [_bug(table, back.message)]
    cards, _, diags = cards_from_table(back, table.declared)
    errors = [d for d in diags if d.severity == ERROR]
    return [_bug(table, errors[0].message)] if errors else cards


def _bug(table: DeckTable, why: str) -> Diagnostic:
    return Diagnostic.at(table.doc.pos(table.path), ERROR, "PNP-T010",
                         f"deck '{table.deck_id}' does not read back from its export: {why}",
                         "this is a bug in pnp; please report it with the deck")


def _normal(card: Any, declared: dict) -> Any:
    """A card as the table form holds it: a list field written as one word is a list of one."""
    if not isinstance(card, dict):
        return card
    fields = card.get("fields")
    if not isinstance(fields, dict):
        return card
    fixed = {k: ([v] if _kind(declared.get(k)) == "list" and isinstance(v, str) else v)
             for k, v in fields.items()}
    out = {k: v for k, v in card.items() if k != "fields"}
    if fixed:
        out["fields"] = fixed
    return out


def _compare(table: DeckTable, back: list[dict]) -> list[Diagnostic]:
    out = []
    for r, card in enumerate(table.cards):
        mine = _normal(card, table.declared)
        theirs = back[r] if r < len(back) else None
        if mine == theirs:
            continue
        key, where = _first_difference(mine, theirs)
        out.append(Diagnostic.at(table.doc.pos((*table.path, "cards", r) + where), ERROR,
                                 "PNP-T010", f"deck '{table.deck_id}': card {r + 1}'s {key} would "
                                 f"read back as {_show(theirs, where)} instead of "
                                 f"{_show(mine, where)}",
                                 "a cell cannot hold this value as it is (an empty text, a null, "
                                 "a text that reads as a number in CSV); change it, or keep this "
                                 "deck in YAML"))
    if len(back) > len(table.cards):
        out.append(_bug(table, f"{len(back)} cards came back for {len(table.cards)}"))
    return out


def _first_difference(mine: Any, theirs: Any) -> tuple[str, tuple]:
    theirs = theirs if isinstance(theirs, dict) else {}
    for key in CARD_COLUMNS:
        if mine.get(key) != theirs.get(key):
            return key, (key,)
    a, b = mine.get("fields") or {}, theirs.get("fields") or {}
    for key in list(a) + [k for k in b if k not in a]:
        if a.get(key, _MISSING) != b.get(key, _MISSING):
            return key, ("fields", key)
    return "fields", ("fields",)


_MISSING = object()


def _show(card: Any, where: tuple) -> str:
    value: Any = card
    for step in where:
        value = value.get(step, _MISSING) if isinstance(value, dict) else _MISSING
    if value is _MISSING:
        return "nothing"
    text = repr(value)
    return text if len(text) <= 80 else text[:79] + "…"


@dataclass
class ExportPlan:
    """Files an export would write (name -> bytes), what each deck then says in its file, and
    the problems that stop it."""

    files: dict[str, bytes] = field(default_factory=dict)
    uses: dict[str, str] = field(default_factory=dict)  # deck id -> `cards:` line for the deck
    diagnostics: list[Diagnostic] = field(default_factory=list)


def plan_export(docs: list[Document], fmt: str, game_id: str, deck: str | None = None) -> ExportPlan:
    """The files that export the game's decks (or one) in `fmt`: a CSV or YAML file per deck,
    one workbook with a sheet per deck."""
    plan = ExportPlan()
    tables = deck_tables(docs, deck)
    if not tables:
        return plan
    if fmt == "xlsx":
        name = f"{game_id}-cards.xlsx"
        data, titles, plan.diagnostics = render_workbook(tables)
        plan.files[name] = data
        plan.uses = {t.deck_id: f"cards: {{from: {name}, sheet: {_flow(titles[t.deck_id])}}}" for t in tables}
    else:
        for t in tables:
            data, problems = render_deck(t, fmt)
            plan.diagnostics.extend(problems)
            plan.files[f"{t.deck_id}.{fmt}"] = data
            plan.uses[t.deck_id] = (f"cards: {{from: {t.deck_id}.csv}}" if fmt == "csv"
                                    else f"its cards: from {t.deck_id}.yaml")
    return plan


def _flow(text: str) -> str:
    """Text as a YAML flow value: plain when that is safe, else double-quoted."""
    return text if re.fullmatch(r"[A-Za-z][A-Za-z0-9 _.-]*", text) else json.dumps(text)
