"""Two kit kinds read from the data the engine plays: supply tokens (a supply's `token:` prints
its `stock` of tokens) and the player aid (`player-aid/*.md`, one page a player). Antike uses
both; each check is fed the broken input it exists for."""

from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader

from pnp.data.game import load_game
from pnp.paths import CARDS
from pnp.render.aid import check_aid, render_aid
from pnp.render.geometry import parse_paper
from pnp.render.kinds import kind_names, renderer
from pnp.render.supply_tokens import FILE_NAME, render_supply_tokens, supply_groups
from tests.scenario_breaks import copy_with

GAME = CARDS / "antike"


def _text(path: Path) -> list[str]:
    return [" ".join((p.extract_text() or "").split()) for p in PdfReader(path).pages]


# --------------------------------------------------------------------------- supply tokens


def test_antike_prints_each_supply_at_its_stock_in_the_map_colours() -> None:
    game = load_game(GAME).game
    groups = {g.label: g for g in supply_groups(game)}
    assert {k: g.count for k, g in groups.items()} == {
        s.name: s.stock for s in game.supplies.values()}
    colours = {r.id: r.colour for r in game.map.resources.values()}
    assert groups["Iron chips"].colour == colours["iron"]  # written once, on the map
    assert groups["Marble chips"].text == "Marble"  # the counter that holds the chips
    assert groups["Coins"].text == "Coin"  # the data's own text wins


def test_the_sheet_follows_the_stock(tmp_path) -> None:
    folder = copy_with(GAME, tmp_path, [(
        "components.yaml", "{id: coins, name: Coins, stock: 40,",
        "{id: coins, name: Coins, stock: 7,")])
    game = load_game(folder).game
    assert {g.label: g.count for g in supply_groups(game)}["Coins"] == 7
    written, diags = render_supply_tokens(game, tmp_path / "out")
    assert not diags and [p.name for p in written] == [FILE_NAME]
    text = " ".join(_text(written[0]))
    assert "Coins × 7" in text and "Iron chips × 90" in text


def test_a_token_that_cannot_be_cut_is_reported_at_its_line(tmp_path) -> None:
    folder = copy_with(GAME, tmp_path, [(
        "components.yaml", "stock: 90, token: {shape: square}", "stock: 90, token: {size: 3mm}")])
    game = load_game(folder).game
    diags = renderer("supplies").preflight(game, parse_paper("a4"))
    assert [d.code for d in diags] == ["PNP-R060"]
    assert diags[0].file.endswith("components.yaml") and diags[0].line == 15
    written, _ = render_supply_tokens(game, tmp_path / "out")
    assert written == [] and not (tmp_path / "out" / FILE_NAME).exists()


def test_supplies_without_token_print_nothing() -> None:
    for name in ("the-ancient-world", "age-of-civilization"):
        game = load_game(CARDS / name).game
        assert game.supplies and not renderer("supplies").applies(game)
    assert kind_names().index("supplies") < kind_names().index("guide")


# --------------------------------------------------------------------------- player aid


def test_antike_aid_is_one_page_a_player_with_the_data_numbers(tmp_path) -> None:
    game = load_game(GAME).game
    assert check_aid(game, parse_paper("a4")) == []
    written, diags = render_aid(game, tmp_path, "a4")
    assert not diags
    pages = _text(written[0])
    assert len(pages) == game.players_max
    for seat, page in enumerate(pages, start=1):
        assert f"Player {seat}" in page
        assert "Temple 5 marble" in page and "Legion 1 iron" in page
        assert "Navigation 10 Sailing" in page and "King 9 3 cities held at once" in page


def test_the_aid_prints_what_the_engine_reads(tmp_path) -> None:
    """Nothing is written twice: a price changed in game.yaml or deck.yaml changes the aid."""
    folder = copy_with(GAME, tmp_path, [
        ("game.yaml", "    marble: 5                # the summary", "    marble: 6   #"),
        ("game.yaml", "    kings: {per: cities, each: 3}", "    kings: {per: cities, each: 4}"),
        ("deck.yaml", "{row: secondary, price: 10, needs: sailing,",
         "{row: secondary, price: 12, needs: sailing,")])
    written, diags = render_aid(load_game(folder).game, tmp_path / "out", "a4")
    assert not diags
    page = _text(written[0])[0]
    assert "Temple 6 marble" in page and "Navigation 12 Sailing" in page
    assert "4 cities held at once" in page


def test_an_aid_longer_than_a_page_is_an_error_before_anything_is_written(tmp_path) -> None:
    folder = copy_with(GAME, tmp_path, [])
    (folder / "player-aid" / "02-more.md").write_text(
        "## More\n\n" + "A line a player would not read at the table. " * 900 + "\n",
        encoding="utf-8")
    game = load_game(folder).game
    diags = check_aid(game, parse_paper("a4"))
    assert [d.code for d in diags] == ["PNP-R088"] and "one page" in diags[0].message
    written, diags = render_aid(game, tmp_path / "out", "a4")
    assert written == [] and diags[0].code == "PNP-R088"


def test_an_aid_source_error_names_its_file_and_line(tmp_path) -> None:
    folder = copy_with(GAME, tmp_path, [])
    (folder / "player-aid" / "02-bad.md").write_text(
        "## Bad\n\nThe price is {{ rule('temple', 'granite') }}.\n", encoding="utf-8")
    diags = check_aid(load_game(folder).game, parse_paper("a4"))
    assert diags and diags[0].code == "PNP-R081"
    assert diags[0].file.endswith("02-bad.md") and diags[0].line == 3


def test_the_print_guide_names_the_map_tokens_and_aid() -> None:
    """The guide says what each of Antike's map, token and aid files is; the whole map is for
    a copy shop, so it is not in the home print job."""
    from pnp.render.guide import entries

    game = load_game(GAME).game
    names = ["map-a4-tiled.pdf", "map-pieces.pdf", "map-a2.pdf", FILE_NAME, "player-aid.pdf"]
    got = {e.name: e for e in entries(game, names)}
    assert not any(e.what == "Part of the kit." for e in got.values())
    assert got["map-a2.pdf"].stock == "large paper" and not got["map-a2.pdf"].home
    assert "Iron chips (90)" in got[FILE_NAME].what and "Coins (40)" in got[FILE_NAME].what
