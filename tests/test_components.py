"""components.yaml, typed card fields, the rules: block and variant overrides of any file.

Each test writes a small game into tmp_path: a market game with a deck of typed cards, the kind of
game The Ancient World or Age of Civilization is, so the checks are the ones a designer meets.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.data import model as m
from pnp.data.effects import Effect
from pnp.data.game import load_game
from pnp.paths import CARDS, SCHEMAS

S = SCHEMAS.resolve()

GAME = """id: market
name: Market
players: {min: 2, max: 4}
components:
  - {id: cards, name: Cards, count: 7, counts: "deck:tribes"}
phases:
  - {id: work, name: Work Phase}
rules:
  hand_size: 5
variants:
  - id: cheap-hunters
    overrides:
      deck/tribes/cards/hunters/cost: 1
  - id: green-hunters
    overrides:
      deck/tribes/cards/hunters/fields/banners: [green]
"""

STATS = """stats:
  - {id: coins, name: Coins, abbreviation: C}
  - {id: military, name: Military, abbreviation: M}
  - {id: victory-points, name: Victory Points, abbreviation: VP}
"""

DECK = """decks:
  - id: tribes
    name: Tribes
    front: poker-front
    fields:
      cost: {type: integer, min: 0, max: 9}
      banners: {type: list, values: [red, blue, green, yellow, purple]}
      ability: {type: effect}
      needs: {type: condition}
      kind: {type: enum, values: [tribe, city, titan]}
      text: {type: text}
      wild: {type: boolean, default: false}
    defaults: {kind: tribe}
    cards:
      - id: hunters
        name: Hunters
        count: 3
        fields: {cost: 3, banners: [red, blue], ability: "M+1", needs: "C >= 2", text: "Strike first."}
      - id: smiths
        name: Smiths
        count: 4
        fields: {cost: 2, banners: [yellow], ability: "C+2 | VP+1", kind: city, wild: true}
"""

COMPONENTS = """counters:
  - {id: round, name: Round, per_player: false, min: 1, cap: 8, start: 1}
  - {id: workers, name: Workers, abbreviation: W, start: 3, cap: 6}
supplies:
  - {id: coin-tokens, name: Coin tokens, stock: 60, may_run_out: true}
dice:
  - {id: damage, name: Damage die, faces: [titan, coin, blank, blank, coin, titan]}
  - {id: d6, name: Six-sided die, sides: 6}
zones:
  - {id: draw, name: Draw pile, kind: pile, deck: tribes}
  - {id: market-row, name: Market row, kind: row, capacity: 5}
  - {id: hand, name: Hand, kind: hand, owner: player}
action_spaces:
  - {id: forge, name: Forge, slots: 2, cost: "W-1", effect: "C+3"}
  - {id: council, name: Council, slots: null, effect: "VP+1", round: 3}
"""


def make(tmp_path: Path, **files: str) -> Path:
    """The market game, with any file replaced (None drops it)."""
    folder = tmp_path / "market"
    folder.mkdir(exist_ok=True)
    base = {"game": GAME, "stats": STATS, "deck": DECK, "components": COMPONENTS}
    for kind, body in {**base, **files}.items():
        path = folder / f"{kind}.yaml"
        if body is None:
            path.unlink(missing_ok=True)
            continue
        path.write_text(f"# yaml-language-server: $schema={S}/{kind}.schema.json\n{body}", encoding="utf-8")
    return folder


def diags(folder: Path, variant: str | None = None) -> list[tuple[str, str, int, int]]:
    result = load_game(folder, variant)
    return [(d.code, Path(d.file).name, d.line, d.column) for d in result.diagnostics]


def messages(folder: Path, variant: str | None = None) -> list[str]:
    return [f"{d.code} {Path(d.file).name}:{d.line}: {d.message} / {d.hint}"
            for d in load_game(folder, variant).diagnostics]


def line_of(folder: Path, kind: str, text: str) -> int:
    """1-based line of the first line of a file that contains `text`."""
    lines = (folder / f"{kind}.yaml").read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


# ---------------------------------------------------------------- the clean game


def test_the_market_game_is_clean(tmp_path):
    assert messages(make(tmp_path)) == []


def test_card_fields_are_parsed_once_to_their_declared_types(tmp_path):
    game = load_game(make(tmp_path)).game
    hunters, smiths = game.decks["tribes"].cards
    assert hunters.fields["cost"] == 3 and hunters.count == 3
    assert hunters.fields["banners"] == ("red", "blue") and str(hunters.fields["banners"]) == "red, blue"
    assert isinstance(hunters.fields["ability"], Effect)
    assert hunters.fields["ability"].choices[0][0].stat == "military"
    assert str(hunters.fields["ability"]) == "M+1"  # a layout prints the text as written
    assert isinstance(hunters.fields["needs"], m.Condition) and hunters.fields["needs"].stat == "coins"
    assert hunters.fields["kind"] == "tribe" and smiths.fields["kind"] == "city"  # deck default
    assert hunters.fields["wild"] is False and smiths.fields["wild"] is True  # declared default
    assert smiths.fields["ability"].is_choice
    assert game.decks["tribes"].fields["banners"].values[0] == "red"


def test_components_build_into_counters_supplies_dice_zones_and_action_spaces(tmp_path):
    game = load_game(make(tmp_path)).game
    assert game.counters["round"] == m.Counter("round", "Round", 1, 8, 1, False,
                                               origin=game.counters["round"].origin)
    assert game.supplies["coin-tokens"].stock == 60 and game.supplies["coin-tokens"].may_run_out
    assert game.dice["damage"].faces == ("titan", "coin", "blank", "blank", "coin", "titan")
    assert not game.dice["damage"].numeric
    assert game.dice["d6"].faces == (1, 2, 3, 4, 5, 6) and game.dice["d6"].numeric
    draw, row, hand = game.zones["draw"], game.zones["market-row"], game.zones["hand"]
    assert (draw.deck, draw.face, draw.visible_to) == ("tribes", "down", "none")
    assert (row.capacity, row.visible_to) == (5, "all")
    assert (hand.owner, hand.visible_to) == ("player", "owner")
    forge, council = game.action_spaces["forge"], game.action_spaces["council"]
    assert forge.slots == 2 and forge.cost.choices[0][0].stat == "workers"
    assert council.slots is None and council.round == 3


def test_every_stat_is_also_a_per_player_counter(tmp_path):
    game = load_game(make(tmp_path)).game
    coins = game.counters["coins"]
    assert coins.per_player and coins.stat and coins.min == 0 and coins.abbreviation == "C"
    assert set(game.stats) < set(game.counters)
    ac = load_game(CARDS / "ancient-civilizations").game
    food = ac.counters["food"]
    assert (food.min, food.cap, food.start) == (ac.stats["food"].min, ac.stats["food"].cap,
                                                ac.stats["food"].start)


def test_show_json_lists_the_components(tmp_path):
    result = CliRunner().invoke(main, ["show", str(make(tmp_path)), "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["dice"]["damage"]["faces"][0] == "titan"
    card = data["decks"]["tribes"]["cards"][0]
    assert card["fields"]["ability"]["source"] == "M+1" and card["fields"]["banners"] == ["red", "blue"]


# ---------------------------------------------------------------- typed fields: broken input


@pytest.mark.parametrize("old, new, code, words", [
    ("cost: 3,", "cost: three,", "PNP-D003", "expected a whole number"),
    ("cost: 3,", "cost: -1,", "PNP-D003", "below the minimum 0"),
    ("cost: 3,", "cost: 12,", "PNP-D003", "above the maximum 9"),
    ("banners: [red, blue]", "banners: [red, pink]", "PNP-D003", "'pink' is not one of red, blue"),
    ("banners: [red, blue]", "banners: {red: 1}", "PNP-D003", "expected a list"),
    ('ability: "M+1"', 'ability: "M+"', "PNP-E001", ""),
    ('ability: "M+1"', 'ability: "Mil+1"', "PNP-E002", "unknown stat"),
    ('needs: "C >= 2"', 'needs: "lots of coins"', "PNP-E007", "bad condition"),
    ("kind: city", "kind: town", "PNP-D003", "'town' is not one of tribe, city, titan"),
    ("wild: true", "wild: yes", "PNP-D003", "expected true or false"),
    ('text: "Strike first."', "text: [a, b]", "PNP-D003", "expected text"),
])
def test_a_card_field_of_the_wrong_type_is_reported_at_its_line(tmp_path, old, new, code, words):
    assert old in DECK
    folder = make(tmp_path, deck=DECK.replace(old, new, 1))
    found = [d for d in load_game(folder).diagnostics if d.code == code]
    assert found, messages(folder)
    line = line_of(folder, "deck", new)
    assert (Path(found[0].file).name, found[0].line) == ("deck.yaml", line)
    assert words in found[0].message and found[0].hint


def test_a_wrong_enum_value_in_a_list_points_at_the_item_and_suggests(tmp_path):
    folder = make(tmp_path, deck=DECK.replace("banners: [yellow]", "banners: [yelow]"))
    d = next(d for d in load_game(folder).diagnostics if d.code == "PNP-D003")
    text = (folder / "deck.yaml").read_text().splitlines()[d.line - 1]
    assert text[d.column - 1:].startswith("yelow") and "did you mean yellow" in d.hint


def test_a_missing_required_field_is_reported_at_the_card(tmp_path):
    deck = DECK.replace("cost: {type: integer, min: 0, max: 9}", "cost: {type: integer, required: true}")
    folder = make(tmp_path, deck=deck.replace("{cost: 2, ", "{"))
    assert ("PNP-D002", "deck.yaml", line_of(folder, "deck", "- id: smiths"), 9) in diags(folder)


def test_an_enum_without_values_is_reported(tmp_path):
    folder = make(tmp_path, deck=DECK.replace("kind: {type: enum, values: [tribe, city, titan]}",
                                              "kind: {type: enum}"))
    assert any(c == "PNP-D001" for c, *_ in diags(folder))


def test_a_misspelt_field_is_a_warning_naming_the_declared_one(tmp_path):
    folder = make(tmp_path, deck=DECK.replace("{cost: 2, ", "{cots: 2, "))
    d = next(d for d in load_game(folder).diagnostics if d.code == "PNP-D004")
    assert d.severity == "warning" and "did you mean cost" in d.hint


def test_undeclared_fields_stay_plain_values(tmp_path):
    folder = make(tmp_path, deck=DECK.replace('text: "Strike first."', 'text: "Strike first.", flavour: [1, 2]'))
    assert messages(folder) == []
    assert load_game(folder).game.decks["tribes"].cards[0].fields["flavour"] == [1, 2]


def test_deck_schema_rejects_an_unknown_field_type(tmp_path):
    folder = make(tmp_path, deck=DECK.replace("{type: boolean, default: false}", "{type: bool}"))
    assert ("PNP-S005", "deck.yaml", line_of(folder, "deck", "type: bool}"), 20) in diags(folder)


# ---------------------------------------------------------------- components: broken input


@pytest.mark.parametrize("old, new, code", [
    ("sides: 6", "sides: 0", "PNP-S001"),
    ("kind: row", "kind: market", "PNP-S005"),
    ("stock: 60", "stock: many", "PNP-S004"),
    ("slots: 2", "slot: 2", "PNP-S002"),
    ("sides: 6", "sides: 6, faces: [1, 2]", "PNP-S001"),
])
def test_components_schema_reports_mistakes_at_their_line(tmp_path, old, new, code):
    folder = make(tmp_path, components=COMPONENTS.replace(old, new))
    found = [(c, f, ln) for c, f, ln, _ in diags(folder) if c == code]
    assert found and found[0][1:] == ("components.yaml", line_of(folder, "components", new))


def test_a_zone_naming_an_unknown_deck_suggests_the_right_one(tmp_path):
    folder = make(tmp_path, components=COMPONENTS.replace("deck: tribes", "deck: tribe"))
    d = next(d for d in load_game(folder).diagnostics if d.code == "PNP-L003")
    assert d.line == line_of(folder, "components", "deck: tribe}") and "did you mean tribes" in d.hint


def test_an_action_space_effect_must_name_a_stat_or_counter(tmp_path):
    folder = make(tmp_path, components=COMPONENTS.replace('effect: "C+3"', 'effect: "Coin+3"'))
    d = next(d for d in load_game(folder).diagnostics if d.code == "PNP-E002")
    assert d.line == line_of(folder, "components", "Coin+3") and "Coins" in d.message


def test_a_counter_may_not_reuse_a_stat_id_or_spelling(tmp_path):
    clash = COMPONENTS.replace("{id: workers, name: Workers, abbreviation: W,",
                               "{id: coins, name: Workers, abbreviation: W,")
    assert ("PNP-L002", "components.yaml", line_of(make(tmp_path, components=clash), "components", "id: coins"),
            10) in diags(tmp_path / "market")
    spelled = COMPONENTS.replace("abbreviation: W,", "abbreviation: VP,")
    assert any(c == "PNP-L006" for c, *_ in diags(make(tmp_path, components=spelled)))


def test_duplicate_ids_within_one_component_kind(tmp_path):
    folder = make(tmp_path, components=COMPONENTS.replace("{id: market-row,", "{id: draw,"))
    assert ("PNP-L002", "components.yaml", line_of(folder, "components", "{id: draw, name: Market"), 10) \
        in diags(folder)


def test_a_counter_start_outside_its_bounds(tmp_path):
    folder = make(tmp_path, components=COMPONENTS.replace("start: 3, cap: 6", "start: 7, cap: 6"))
    assert any(c == "PNP-L017" for c, *_ in diags(folder))


# ---------------------------------------------------------------- variants override any file


def test_a_variant_overrides_one_field_of_one_card_and_show_prints_it(tmp_path):
    folder = make(tmp_path)

    def hunters(*variant: str) -> dict:
        args = ["show", str(folder), "--format", "json"] + [a for v in variant for a in ("--variant", v)]
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output
        return json.loads(result.output)["decks"]["tribes"]["cards"][0]["fields"]

    assert hunters()["cost"] == 3
    assert hunters("cheap-hunters")["cost"] == 1
    assert hunters("cheap-hunters")["banners"] == ["red", "blue"]  # the rest of the card is kept
    assert hunters("green-hunters")["banners"] == ["green"]


def test_an_override_path_that_names_nothing_is_reported_at_the_variant_line(tmp_path):
    game = GAME.replace("deck/tribes/cards/hunters/cost", "deck/tribes/cards/huntres/cost")
    folder = make(tmp_path, game=game)
    line = line_of(folder, "game", "huntres")
    for variant in (None, "cheap-hunters"):  # validate, and playing the variant
        d = next(d for d in load_game(folder, variant).diagnostics if d.code == "PNP-L015")
        assert (Path(d.file).name, d.line, d.column) == ("game.yaml", line, 7)
        assert "did you mean hunters" in d.hint


def test_an_override_of_an_unknown_file_kind_suggests_the_kind(tmp_path):
    folder = make(tmp_path, game=GAME.replace("deck/tribes", "decks/tribes", 1))
    d = next(d for d in load_game(folder).diagnostics if d.code == "PNP-L015")
    assert "no 'decks' file" in d.message and "did you mean deck" in d.hint


def test_a_bad_overriding_value_is_reported_at_the_variant_line(tmp_path):
    folder = make(tmp_path, game=GAME.replace("hunters/cost: 1", "hunters/cost: -4"))
    d = next(d for d in load_game(folder, "cheap-hunters").diagnostics if d.code == "PNP-D003")
    assert (Path(d.file).name, d.line) == ("game.yaml", line_of(folder, "game", "cost: -4"))


def test_overrides_reach_components_stats_and_track_spaces(tmp_path):
    game = GAME + """  - id: big
    overrides:
      components/dice/damage/faces: [titan, titan, coin, coin, blank, blank]
      components/counters/round/cap: 10
      stats/coins/start: 4
"""
    result = load_game(make(tmp_path, game=game), "big")
    assert result.ok, [d.format_text() for d in result.diagnostics]
    assert result.game.dice["damage"].faces[:2] == ("titan", "titan")
    assert result.game.counters["round"].cap == 10 and result.game.stats["coins"].start == 4


def test_generated_cards_explain_where_to_override(tmp_path):
    folder = tmp_path / "ancient-civilizations"
    shutil.copytree(CARDS / "ancient-civilizations", folder)
    for path in folder.rglob("*.yaml"):  # the copy's schema lines point back at the real schemas
        text = path.read_text()
        path.write_text(text.replace("$schema=../../../schemas", f"$schema={S}")
                        .replace("$schema=../../schemas", f"$schema={S}"))
    with (folder / "game.yaml").open("a") as f:
        f.write("  - id: city-note\n    overrides:\n      deck/chart-cards/cards/city/note: x\n")
    d = next(d for d in load_game(folder).diagnostics if d.code == "PNP-L015")
    assert "generated from charts" in d.hint


# ---------------------------------------------------------------- the rules: block


def ac_copy(tmp_path: Path, old: str, new: str) -> Path:
    folder = tmp_path / "ancient-civilizations"
    shutil.copytree(CARDS / "ancient-civilizations", folder)
    game = folder / "game.yaml"
    text = game.read_text()
    assert old in text
    game.write_text(text.replace(old, new, 1))
    return folder


def test_a_wrong_type_under_rules_is_reported_from_the_engines_rules_schema(tmp_path):
    folder = ac_copy(tmp_path, "max_turns: 60", "max_turns: sixty")
    d = next(d for d in load_game(folder).diagnostics if d.severity == "error")
    assert (d.code, Path(d.file).name, d.line) == ("PNP-S004", "game.yaml", line_of(folder, "game", "sixty"))
    assert "rules/end/max_turns" in d.message


def test_an_unknown_rule_parameter_is_reported_with_a_suggestion(tmp_path):
    folder = ac_copy(tmp_path, "    built_wonder: occupied", "    built_wonders: occupied")
    d = next(d for d in load_game(folder).diagnostics if d.severity == "error")
    assert d.code == "PNP-S002" and "did you mean built_wonder" in d.hint


def test_rule_parameters_outside_rules_are_unknown_to_the_manifest(tmp_path):
    folder = ac_copy(tmp_path, "\nrules:\n", "\nhand_size: 5\nrules:\n")
    d = next(d for d in load_game(folder).diagnostics if d.severity == "error")
    assert d.code == "PNP-S002" and "hand_size" in d.message


def test_a_rule_parameter_left_where_schema_version_1_had_it_says_where_it_moved(tmp_path):
    folder = ac_copy(tmp_path, "\nrules:\n", "\ncheck_timing: phase-end\nrules:\n")
    errors = [d for d in load_game(folder).diagnostics if d.severity == "error"]
    assert [(d.code, d.line) for d in errors] == [("PNP-L022", line_of(folder, "game", "check_timing: phase-end"))]
    assert "already has a `check_timing`" in errors[0].message


def test_a_game_folder_may_carry_its_own_rules_schema(tmp_path):
    folder = make(tmp_path)
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
              "properties": {"hand_size": {"type": "integer", "maximum": 4,
                                           "description": "Cards in hand."}},
              "additionalProperties": False}
    (folder / "rules.schema.json").write_text(json.dumps(schema))
    d = next(d for d in load_game(folder).diagnostics if d.severity == "error")
    assert (d.code, d.line) == ("PNP-S001", line_of(folder, "game", "hand_size"))
    (folder / "rules.schema.json").write_text("{not json")
    d = next(d for d in load_game(folder).diagnostics if d.severity == "error")
    assert d.code == "PNP-S007" and Path(d.file).name == "rules.schema.json"


def test_rules_keep_their_parsed_values():
    ac = load_game(CARDS / "ancient-civilizations").game
    assert list(ac.rules) == ["setup", "movement", "pregame", "check_timing", "turn_order_timing",
                              "options", "end"]
    assert ac.rule("check_timing") == "phase-end"
    assert load_game(CARDS / "ancient-civilizations", "checks-every-phase").game.rule(
        "check_timing") == "every-phase"


def test_a_card_layout_prints_typed_fields_as_written(tmp_path):
    from pnp.render.layout.templates import _compile, render_template
    from pnp.render.sheets import card_context

    game = load_game(make(tmp_path)).game
    deck = game.decks["tribes"]
    ctx = card_context(game, deck, deck.cards[1])
    for source, shown in (("{{ card.ability }}", "C+2 | VP+1"), ("{{ card.banners }}", "yellow"),
                          ("Cost {{ card.cost }}: {{ card.ability.source }}", "Cost 2: C+2 | VP+1")):
        template, fields = _compile(source)
        assert render_template(template, ctx, "test", fields) == shown


def test_validate_reports_a_misspelt_last_step_of_an_override_at_its_line(tmp_path):
    folder = ac_copy(tmp_path, "game/rules/movement/built_wonder: wasted", "game/rules/movement/built_wondr: wasted")
    d = next(d for d in load_game(folder).diagnostics if d.severity == "error")  # no variant played
    assert (d.code, d.line) == ("PNP-S002", line_of(folder, "game", "built_wondr"))
    assert "variant 'built-wonder-wasted'" in d.message and "did you mean built_wonder" in d.hint
