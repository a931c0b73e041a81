"""`pnp validate` finds everything `pnp build` would fail on, without writing a file.

Each test breaks a starter game in one way a designer might, and checks that validate reports it
(code, file, line) and build refuses it with the same finding, writing nothing.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.broken_games import build, edit, errors, line_of, starter, validate


def assert_both_refuse(folder: Path, tmp_path: Path, code: str, file: str, line: int) -> dict:
    status, diags = validate(folder)
    found = errors(diags, code)
    assert status == 1 and found, diags
    assert found[0]["file"].endswith(file) and found[0]["line"] == line, found
    out = tmp_path / "out"
    status, text = build(folder, out)
    assert status == 1 and code in text
    assert not list(out.rglob("*.pdf")), "a refused build writes no PDF"
    return found[0]


def test_starter_game_validates_and_builds_clean(tmp_path):
    folder = starter(tmp_path)
    assert validate(folder) == (0, [])
    status, _ = build(folder, tmp_path / "out")
    assert status == 0


def test_deck_whose_every_card_has_count_zero_is_an_error(tmp_path):
    folder = starter(tmp_path)
    deck = folder / "deck.yaml"
    deck.write_text(re.sub(r"count: 3", "count: 0", deck.read_text()))
    assert_both_refuse(folder, tmp_path, "PNP-L019", "deck.yaml", line_of(deck, "- id: market"))


def test_min_players_above_max_is_an_error(tmp_path):
    folder = starter(tmp_path)
    line = edit(folder / "game.yaml", "{min: 2, max: 4}", "{min: 5, max: 2}")
    assert_both_refuse(folder, tmp_path, "PNP-L016", "game.yaml", line)


def test_stat_starting_above_its_cap_is_an_error(tmp_path):
    folder = starter(tmp_path)
    line = edit(folder / "stats.yaml", "cap: 10}", "cap: 10, start: 20}")
    found = assert_both_refuse(folder, tmp_path, "PNP-L017", "stats.yaml", line)
    assert "starts at 20, above its cap 10" in found["message"]


def test_winner_naming_no_stat_is_an_error_with_the_nearest_stat(tmp_path):
    folder = starter(tmp_path)
    line = edit(folder / "game.yaml", "winner: most VP", "winner: most Gould")
    found = assert_both_refuse(folder, tmp_path, "PNP-L018", "game.yaml", line)
    assert "most Gold" in found["hint"]


def test_bad_colour_in_deck_defaults_is_one_error_at_the_default(tmp_path):
    folder = starter(tmp_path)
    line = edit(folder / "deck.yaml", 'color: "#7a4b2a"', 'color: "#zz4b2a"')
    found = assert_both_refuse(folder, tmp_path, "PNP-R005", "deck.yaml", line)
    status, diags = validate(folder)
    art = [d for d in errors(diags, "PNP-R005") if "element 'art'" in d["message"]]
    assert len(art) == 1, "one diagnostic for the 18 cards the default breaks"
    assert "and 13 more" in found["message"]


def test_text_that_cannot_fit_fails_validate_at_the_card_field(tmp_path):
    folder = starter(tmp_path)
    line = edit(folder / "deck.yaml", '"Gain 2 {coin}."', '"' + "word " * 800 + '"')
    found = assert_both_refuse(folder, tmp_path, "PNP-R020", "deck.yaml", line)
    assert "card 'caravan', field 'text'" in found["message"]


def test_unknown_icon_in_card_text_fails_validate(tmp_path):
    folder = starter(tmp_path)
    line = edit(folder / "deck.yaml", '"Gain 2 {coin}."', '"Gain 2 {coinz}."')
    found = assert_both_refuse(folder, tmp_path, "PNP-R021", "deck.yaml", line)
    assert "coin" in found["hint"]


def test_card_larger_than_the_paper_fails_validate(tmp_path):
    folder = starter(tmp_path)
    line = edit(folder / "deck.yaml", "size: poker", "size: {width: 900mm, height: 88mm}")
    assert_both_refuse(folder, tmp_path, "PNP-R040", "deck.yaml", line - 2)


def test_template_error_is_reported_once_at_the_layout_line(tmp_path):
    folder = starter(tmp_path)
    (folder / "layouts.yaml").write_text(
        "# yaml-language-server: $schema=../../schemas/layout.schema.json\n"
        "layouts:\n"
        "  - id: broken-front\n"
        "    extends: poker-front\n"
        "    elements:\n"
        "      - id: title\n"
        "        text: \"{{ card.name ~ (card.cost / 0) }}\"\n", encoding="utf-8")
    edit(folder / "layouts.yaml", "../../schemas", str(Path(__file__).parents[1] / "schemas"))
    edit(folder / "deck.yaml", "front: poker-front", "front: broken-front")
    found = assert_both_refuse(folder, tmp_path, "PNP-R013", "layouts.yaml", 6)
    status, diags = validate(folder)
    assert len(errors(diags, "PNP-R013")) == 1, "once per layout, not once per card"
    assert "ZeroDivisionError" in found["message"] and "18 cards" not in found["message"]


def test_validate_checks_the_paper_build_will_use(tmp_path):
    folder = starter(tmp_path)
    # 270 mm tall plus bleed and margins: fits A4 (297 mm), not Letter (279.4 mm)
    edit(folder / "deck.yaml", "size: poker", "size: {width: 150mm, height: 270mm}")
    _, on_a4 = validate(folder)
    _, on_letter = validate(folder, "--paper", "letter")
    assert not errors(on_a4, "PNP-R040")
    assert errors(on_letter, "PNP-R040")


def _own_layout(folder: Path, title_template: str) -> None:
    schemas = Path(__file__).parents[1] / "schemas"
    (folder / "layouts.yaml").write_text(
        f"# yaml-language-server: $schema={schemas}/layout.schema.json\n"
        "layouts:\n"
        "  - id: own-front\n"
        "    extends: poker-front\n"
        "    elements:\n"
        "      - id: title\n"
        f"        text: \"{title_template}\"\n", encoding="utf-8")
    edit(folder / "deck.yaml", "front: poker-front", "front: own-front")


def test_template_that_loops_for_ever_is_stopped_and_reported_once(tmp_path):
    import time

    folder = starter(tmp_path)
    _own_layout(folder, "{% for a in range(9999) %}{% for b in range(9999) %}{% endfor %}"
                        "{% endfor %}{{ card.name }}")
    start = time.monotonic()
    found = assert_both_refuse(folder, tmp_path, "PNP-R014", "layouts.yaml", 6)
    assert time.monotonic() - start < 20
    assert "loops more than" in found["message"]


def test_template_building_a_huge_string_is_refused(tmp_path):
    folder = starter(tmp_path)
    _own_layout(folder, "{{ card.name * 999999999 }}")
    found = assert_both_refuse(folder, tmp_path, "PNP-R014", "layouts.yaml", 6)
    assert "100,000" in found["message"]


def test_a_data_only_deck_is_neither_an_error_nor_printed(tmp_path):
    """`printed: false` marks a deck the engine reads whose cards are printed on other cards:
    validate accepts every count 0 there, and build makes no card sheet for it."""
    from pnp.data.game import load_game
    from pnp.render.build import build_game

    folder = starter(tmp_path)
    text = (folder / "deck.yaml").read_text()
    (folder / "deck.yaml").write_text(text.replace("count: 3", "count: 0").replace(
        "count: 2", "count: 0").replace("count: 1", "count: 0"))
    status, diags = validate(folder)
    assert status == 1 and errors(diags, "PNP-L019")
    (folder / "deck.yaml").write_text((folder / "deck.yaml").read_text().replace(
        "    size: poker", "    printed: false\n    size: poker", 1))
    status, diags = validate(folder)
    assert [d for d in diags if d["severity"] == "error"] == [], diags
    paths, found = build_game(load_game(folder).game, tmp_path / "out")
    assert not [d for d in found if d.is_error]
    assert not [p for p in paths if p.name.startswith("cards-")]


def test_a_character_the_font_lacks_is_found_by_validate_and_build_still_prints(tmp_path):
    """A card text with a symbol Vera cannot draw: validate warns at the card's line (strict
    fails), and build still writes the kit, telling the same."""
    folder = starter(tmp_path)
    line = edit(folder / "deck.yaml", '"Gain 2 {coin}."', '"Gain 2 {coin} \u2665."')
    status, diags = validate(folder)
    found = [d for d in diags if d["code"] == "PNP-R023"]
    assert status == 1 and found and found[0]["severity"] == "warning", diags
    assert found[0]["file"].endswith("deck.yaml") and found[0]["line"] == line
    status, text = build(folder, tmp_path / "out")
    assert status == 0 and "PNP-R023" in text
    assert list((tmp_path / "out").rglob("*.pdf"))
