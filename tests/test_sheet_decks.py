"""Decks whose cards are spreadsheet rows: the same cards, the same checks, every problem at its cell."""

from __future__ import annotations

import json
import shutil
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from ods_file import write_ods
from openpyxl import Workbook
from sheet_helpers import export, game_with_sheet_cards, replace_cards

from pnp.cli import main
from pnp.data.game import load_game, read_game
from pnp.data.sheets import decode_csv, read_table, table_from_csv_text
from pnp.diagnostics import render_json
from pnp.paths import CARDS
from pnp.render.sheets import render_deck_sheets


def card_pdfs(folder: Path, out: Path) -> dict[str, bytes]:
    loaded = load_game(folder)
    assert loaded.ok, [d.format_text() for d in loaded.diagnostics][:5]
    paths, diags = render_deck_sheets(loaded.game, out_dir=out, stem="cards")
    assert not [d for d in diags if d.is_error], diags[:3]
    return {p.name: p.read_bytes() for p in paths}


@cache
def yaml_pdfs(name: str, tmp: Path) -> dict[str, bytes]:
    return card_pdfs(CARDS / name, tmp / "yaml" / name)


@pytest.fixture(scope="module")
def shared(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("sheets")


@pytest.mark.parametrize("name", ["the-ancient-world", "age-of-civilization"])
@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_a_bundled_game_with_its_decks_in_a_spreadsheet_prints_the_same_pdf_bytes(shared, name, fmt):
    folder = game_with_sheet_cards(name, fmt, shared / fmt)
    text = next(folder.glob("deck*.yaml")).read_text()
    assert f".{fmt}" in text and "fields: {" not in text  # the cards really moved out
    assert card_pdfs(folder, shared / "out" / fmt / name) == yaml_pdfs(name, shared)


def _cards(game) -> dict:
    return {(deck.id, c.id): (c.name, c.count, {k: str(v) for k, v in c.fields.items()})
            for deck in game.decks.values() for c in deck.cards}


def test_a_variant_overrides_spreadsheet_cards_by_id(tmp_path):
    # first-edition sets deck/empire-a/cards/crane/count: 1 and changes distant-outpost's ability
    folder = game_with_sheet_cards("the-ancient-world", "csv", tmp_path)
    ours = load_game(folder, "first-edition")
    theirs = load_game(CARDS / "the-ancient-world", "first-edition")
    assert ours.ok and theirs.ok
    assert _cards(ours.game) == _cards(theirs.game)
    crane = next(c for c in ours.game.decks["empire-a"].cards if c.id == "crane")
    assert crane.count == 1  # 0 in the sheet
    outpost = next(c for c in ours.game.decks["empire-a"].cards if c.id == "distant-outpost")
    assert outpost.fields["ability"] == "outpost-right-learn"


def test_yaml_to_sheet_and_back_gives_the_same_cards_and_pdf(shared, tmp_path):
    name = "the-ancient-world"
    folder = game_with_sheet_cards(name, "xlsx", tmp_path / "sheet")
    uses = export(folder, "yaml", tmp_path / "back-out")
    assert uses == {}  # yaml prints no `cards: {from: ...}` line
    back = tmp_path / "back" / name
    shutil.copytree(CARDS / name, back)
    deck_file = back / "decks.yaml"
    pasted = {}
    for part in sorted((tmp_path / "back-out").glob("*.yaml")):
        lines = part.read_text().splitlines()[1:]  # the comment line, then `cards:` and items
        pasted[part.stem] = "\n".join("    " + line for line in lines).strip()
    deck_file.write_text(replace_cards(deck_file.read_text(), pasted))
    assert "cards: {from" not in deck_file.read_text()

    def deck_data(folder):
        _, docs = read_game(folder)
        return [d.data for d in docs if d.kind == "deck"]

    assert deck_data(back) == deck_data(CARDS / name)
    assert card_pdfs(back, tmp_path / "pdf") == yaml_pdfs(name, shared)


# -- a small game whose deck declares one field of each type --------------------------------

DECK = """# yaml-language-server: $schema=.schemas/deck.schema.json
decks:
  - id: market
    name: Market deck
    front: poker-front
    back: poker-back
    prototype: true
    defaults: {color: "#7a4b2a"}
    fields:
      cost: {type: integer, min: 0, max: 9}
      type: {type: enum, values: [Trade, Place, Hazard]}
      banners: {type: list, values: [red, blue]}
      effect: {type: effect}
      needs: {type: condition}
      wild: {type: boolean, default: false}
      text: {type: text, required: true}
    cards: {from: CARDS_FROM}
"""

HEADER = ["id", "name", "count", "cost", "type", "banners", "effect", "needs", "wild", "text"]
GOOD = [["caravan", "Caravan", 3, 2, "Trade", "red, blue", "G+2", "G >= 1", True, "Gain 2 {coin}."],
        ["oasis", "Oasis", 2, 0, "Place", "blue", "F+2", None, None, "Gain 2 {food}."],
        ["bandits", "Bandits", None, 1, "Hazard", "red", "G-2", None, False, "Lose 2 {coin}."]]


def small_game(tmp_path: Path, rows: list[list], fmt: str = "xlsx", sheet: str = "Empire A",
               header: list | None = None) -> Path:
    runner = CliRunner()
    assert runner.invoke(main, ["new", str(tmp_path / "game")]).exit_code == 0
    folder = tmp_path / "game"
    table = [header or HEADER, *rows]
    if fmt == "xlsx":
        book = Workbook()
        book.active.title = sheet
        for row in table:
            book.active.append(row)
        book.save(folder / "cards.xlsx")
        source = f"cards.xlsx, sheet: {sheet}"
    elif fmt == "ods":
        write_ods(folder / "cards.ods", {sheet: table})
        source = f"cards.ods, sheet: {sheet}"
    else:
        lines = [",".join("" if v is None else json.dumps(v) if isinstance(v, str) and ","
                          in v else str(v).lower() if isinstance(v, bool) else str(v) for v in row)
                 for row in table]
        (folder / "cards.csv").write_text("\n".join(lines) + "\n")
        source = "cards.csv"
    (folder / "deck.yaml").write_text(DECK.replace("CARDS_FROM", source))
    return folder


@pytest.mark.parametrize("fmt", ["xlsx", "ods", "csv"])
def test_good_rows_are_typed_cards_with_counts_and_blank_cells_absent(tmp_path, fmt):
    loaded = load_game(small_game(tmp_path, GOOD, fmt))
    assert loaded.ok, [d.format_text() for d in loaded.diagnostics]
    cards = {c.id: c for c in loaded.game.decks["market"].cards}
    assert [c.count for c in cards.values()] == [3, 2, 1]  # a blank count is one copy
    caravan = cards["caravan"].fields
    assert caravan["cost"] == 2 and caravan["type"] == "Trade" and caravan["wild"] is True
    assert list(caravan["banners"]) == ["red", "blue"]
    assert caravan["effect"].source == "G+2" and caravan["needs"].value == 1
    assert list(cards["oasis"].fields["banners"]) == ["blue"]
    assert "needs" not in cards["oasis"].fields  # blank: absent
    assert cards["oasis"].fields["wild"] is False  # blank: the declared default


# (cell, value, code, message part): each kind of bad cell, written in row 3 (the second card)
BAD_CELLS = [
    ("D3", "four", "PNP-D003", "expected a whole number, got 'four'"),
    ("D3", 12, "PNP-D003", "12 is above the maximum 9"),
    ("E3", "Plcae", "PNP-D003", "'Plcae' is not one of Trade, Place, Hazard"),
    ("F3", "blue, pink", "PNP-D003", "'pink' is not one of red, blue"),
    ("G3", "F+", "PNP-E", ""),
    ("G3", "Mana+2", "PNP-E002", "Mana"),
    ("H3", "F = 2", "PNP-E007", "bad condition"),
    ("I3", "maybe", "PNP-D003", "expected true or false"),
    ("C3", "two", "PNP-S004", "count: expected integer"),
    ("C3", -1, "PNP-S001", "count"),
    ("A3", "Oasis Two", "PNP-S006", "has the wrong form"),
    ("A3", "caravan", "PNP-L002", "duplicate card"),
    ("J3", None, "PNP-D002", "lacks required field 'text'"),
    ("B3", None, "PNP-S003", "missing required property 'name'"),
]


def _with(cell: str, value) -> list[list]:
    rows = [list(r) for r in GOOD]
    rows[int(cell[1:]) - 2][ord(cell[0]) - ord("A")] = value
    return rows


@pytest.mark.parametrize("cell, value, code, words", BAD_CELLS)
def test_each_kind_of_bad_cell_is_reported_at_its_cell_with_the_column_name(tmp_path, cell, value,
                                                                            code, words):
    loaded = load_game(small_game(tmp_path, _with(cell, value)))
    errors = [d for d in loaded.diagnostics if d.is_error]
    assert len(errors) == 1 and errors[0].code.startswith(code), [d.format_text() for d in errors]
    d = errors[0]
    assert words in d.message
    assert Path(d.file).name == "cards.xlsx"
    row_only = code in ("PNP-D002", "PNP-S003", "PNP-L002")  # about the card: its row
    column = 1 if row_only else ord(cell[0]) - ord("A") + 1
    assert (d.line, d.column) == (3, column)
    header = HEADER[column - 1]
    assert d.cell == ("Empire A!A3" if row_only else f"Empire A!{cell} ({header})")
    assert f"cards.xlsx:{d.cell}: error {d.code}" in d.format_text()


def test_a_csv_cell_is_named_without_a_sheet_and_json_keeps_line_and_column(tmp_path):
    loaded = load_game(small_game(tmp_path, _with("D4", "lots"), "csv"))
    [d] = [d for d in loaded.diagnostics if d.is_error]
    assert (d.line, d.column, d.cell) == (4, 4, "D4 (cost)")
    out = json.loads(render_json([d], ok=False))["diagnostics"][0]
    assert (out["line"], out["column"], out["cell"]) == (4, 4, "D4 (cost)")
    assert "cell" not in json.loads(render_json(load_game(CARDS / "the-ancient-world")
                                                .diagnostics or [], ok=True))


def test_an_undeclared_column_spelled_like_a_field_is_a_warning_at_its_header(tmp_path):
    header = [*HEADER[:3], "cots", *HEADER[4:]]
    loaded = load_game(small_game(tmp_path, GOOD, header=header))
    warnings = [d for d in loaded.diagnostics if d.code == "PNP-D004"]
    assert warnings and {(d.line, d.column, d.cell) for d in warnings} == {(1, 4, "Empire A!D1 (cots)")}


def test_table_problems_point_at_the_deck_file_or_the_cell(tmp_path):
    folder = small_game(tmp_path, GOOD)
    deck = folder / "deck.yaml"

    def errors(text: str) -> list:
        deck.write_text(DECK.replace("CARDS_FROM", text))
        return [(d.code, Path(d.file).name, d.line, d.cell, d.message)
                for d in load_game(folder).diagnostics if d.is_error]

    [(code, name, line, _, message)] = errors("cards.xlsx, shet: Empire A")
    assert (code, name, line) == ("PNP-S002", "deck.yaml", 17) and "'shet'" in message
    assert errors("cards.xlsx, sheet: Empire B") == [
        ("PNP-T002", "deck.yaml", 17, "", "'cards.xlsx' has no sheet 'Empire B'")]
    [(code, name, line, _, message)] = errors("crads.xlsx")
    assert (code, name, line) == ("PNP-T001", "deck.yaml", 17) and "crads.xlsx" in message
    assert errors("../outside.csv")[0][:3] == ("PNP-T001", "deck.yaml", 17)
    (folder / "broken.xlsx").write_bytes(b"not a zip at all")
    assert errors("broken.xlsx")[0][0] == "PNP-T001"
    (folder / "empty.csv").write_text("id,name,text\n\n")
    assert errors("empty.csv")[0][0] == "PNP-T004"
    (folder / "twice.csv").write_text("id,name,text,name\na,A,x,B\n")
    assert errors("twice.csv") == [("PNP-T003", "twice.csv", 1, "D1",
                                    "a second column is named 'name'")]


def test_a_value_under_no_header_is_a_warning_and_not_read(tmp_path):
    folder = small_game(tmp_path, [GOOD[0] + ["stray note"]])
    loaded = load_game(folder)
    assert loaded.ok
    [d] = [d for d in loaded.diagnostics if d.code == "PNP-T003"]
    assert (d.severity, d.cell) == ("warning", "Empire A!K2")


def test_csv_encoding_and_delimiter_are_detected():
    text = "id;name;text\ncafe;Café;Prix: 3,50\n"
    for raw in (text.encode("cp1252"), text.encode("utf-8"), text.encode("utf-8-sig"),
                b"\xff\xfe" + text.replace(";", "\t").encode("utf-16-le")):
        table = table_from_csv_text(decode_csv(raw), "cards.csv")
        assert table.rows[1] == (2, ["cafe", "Café", "Prix: 3,50"])


def test_a_multi_line_csv_cell_keeps_the_row_number_of_its_record(tmp_path):
    path = tmp_path / "cards.csv"
    path.write_text('id,name,text\na,A,"two\nlines"\nb,B,plain\n')
    table = read_table(path)
    assert [number for number, _ in table.rows] == [1, 2, 3]


def test_export_refuses_a_card_that_would_not_come_back_the_same(tmp_path):
    folder = small_game(tmp_path, GOOD)
    yaml_deck = DECK.replace("cards: {from: CARDS_FROM}", """cards:
      - {id: odd, name: Odd, fields: {text: "x", notes: {a: 1}}}
      - {id: even, name: Even, fields: {text: "x", code: "3"}}""")
    (folder / "deck.yaml").write_text(yaml_deck)
    result = CliRunner().invoke(main, ["export", "cards", str(folder), "--format", "csv",
                                       "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert "PNP-T010" in result.stderr and "notes" in result.stderr
    assert not (tmp_path / "out").exists()  # nothing written
    # the map is the only problem for xlsx; for CSV the text '3' would come back a number too
    (folder / "deck.yaml").write_text(yaml_deck.replace(", notes: {a: 1}", ""))
    csv_run = CliRunner().invoke(main, ["export", "cards", str(folder), "--format", "csv",
                                        "--out", str(tmp_path / "out")])
    assert csv_run.exit_code == 1 and "'3'" in csv_run.stderr and "code" in csv_run.stderr
    xlsx_run = CliRunner().invoke(main, ["export", "cards", str(folder), "--format", "xlsx",
                                         "--out", str(tmp_path / "out")])
    assert xlsx_run.exit_code == 0, xlsx_run.output
    again = CliRunner().invoke(main, ["export", "cards", str(folder), "--format", "xlsx",
                                      "--out", str(tmp_path / "out")])
    assert again.exit_code == 1 and "--force" in again.stderr  # never replaces a file unasked


def test_a_spreadsheet_no_deck_reads_is_a_warning_saying_how_to_use_it(tmp_path):
    folder = small_game(tmp_path, GOOD)
    (folder / "more-cards.csv").write_text("id,name\nx,X\n")
    loaded = load_game(folder)
    [d] = [d for d in loaded.diagnostics if d.code == "PNP-T005"]
    assert Path(d.file).name == "more-cards.csv" and d.severity == "warning"
    assert "cards: {from: more-cards.csv}" in d.hint
    assert loaded.ok  # cards.xlsx, which the deck reads, is not reported
