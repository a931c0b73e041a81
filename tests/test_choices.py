"""Per-option pick and win rates and the branching factor (pnp/engine/choices.py): a deck with
a planted dominant card and a planted dead card is caught, a fair tally is not."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.engine import stats as st
from pnp.engine.choices import (
    ChoiceTally,
    branching_table,
    choices_document,
    holm_corrected,
    never_picked,
    opening_table,
    option_label,
    option_table,
)
from pnp.report.text import choice_lines
from pnp.scaffold import scaffold

CROWN = ('{id: crown, name: "Crown", count: 3, fields: {type: Goods, cost: 1, effect: "VP+6", '
         'text: "Gain 6 {vp}."}}')
CURSE = ('{id: curse, name: "Curse", count: 3, fields: {type: Event, cost: 1, effect: "F-2", '
         'text: "Lose 2 {food}."}}')


def planted_game(tmp_path):
    """The starter game with Salt made a card no one should refuse (1 coin for 6 VP) and
    Festival one no one should buy (1 coin to lose 2 food)."""
    folder = tmp_path / "planted"
    scaffold(folder, "Planted")
    deck = folder / "deck.yaml"
    lines = deck.read_text(encoding="utf-8").splitlines()
    lines = [("      - " + CROWN) if "id: salt," in ln else
             ("      - " + CURSE) if "id: festival," in ln else ln for ln in lines]
    deck.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def simulate_json(folder, *args):
    result = CliRunner().invoke(main, ["simulate", str(folder), "--games", "200",
                                       "--format", "json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def row(doc, why, option):
    return next(r for r in doc["choices"]["options"] if (r["why"], r["option"]) == (why, option))


def test_a_planted_dominant_card_and_a_dead_card_are_found(tmp_path):
    doc = simulate_json(planted_game(tmp_path))
    crown = row(doc, "buy crown", "buy")
    assert crown["flagged"] and crown["gap"] >= 0.10
    assert crown["ci95_picked"][0] > crown["ci95_not_picked"][1]
    curse = row(doc, "buy curse", "buy")
    assert curse["picked"] == 0 and curse["offered"] >= 50
    assert row(doc, "buy curse", "pass")["picked"] == curse["offered"]
    messages = {f["code"]: f["message"] for f in doc["findings"]
                if f["code"] in ("PNP-B022", "PNP-B023")}
    assert "'buy' at 'buy curse'" in messages["PNP-B022"]
    dominant = [f["message"] for f in doc["findings"] if f["code"] == "PNP-B023"
                and "'buy' at 'buy crown'" in f["message"]]
    assert dominant and "a dominant pick?" in dominant[0]


def test_the_unplanted_deck_has_neither(tmp_path):
    """The same game without the plants: no 'buy crown' (there is no such card), and the
    Festival and Salt it had are bought by someone."""
    folder = tmp_path / "starter"
    scaffold(folder, "Starter")
    doc = simulate_json(folder)
    whys = {r["why"] for r in doc["choices"]["options"]}
    assert "buy crown" not in whys and "buy curse" not in whys
    assert row(doc, "buy festival", "buy")["picked"] > 0
    assert not any("'buy' at 'buy " in f["message"] for f in doc["findings"]
                   if f["code"] == "PNP-B022")


def test_text_and_pdf_show_choices(tmp_path):
    folder = planted_game(tmp_path)
    result = CliRunner().invoke(main, ["simulate", str(folder), "--games", "200",
                                       "--report", str(tmp_path / "r.pdf")])
    assert result.exit_code == 0, result.output
    assert "Choices    2 options a decision" in result.output
    assert "  picked   'buy' at 'buy crown'" in result.output
    assert (tmp_path / "r.pdf").read_bytes().startswith(b"%PDF")


def fair_tally(options: int, games: int, seed: int) -> ChoiceTally:
    """Two-seat games where each seat picks each option by a coin flip and the winner is
    another coin flip: no option is worth anything."""
    rnd = random.Random(seed)
    tally = ChoiceTally()
    for _ in range(games):
        offers, picks = {}, {}
        for seat in (0, 1):
            for k in range(options):
                offers[(seat, "buy", f"card-{k}")] = 1
                if rnd.random() < 0.5:
                    picks[(seat, "buy", f"card-{k}")] = 1
        tally.add(offers, picks, {2: options * 2}, 2, (rnd.randrange(2),), 2)
    return tally


def test_a_fair_deck_flags_no_card_and_holm_is_what_keeps_it_so():
    rows = option_table(fair_tally(40, 400, 7), 2)
    assert all(r["tested"] for r in rows)
    assert not any(r["flagged"] for r in rows)
    # across seeds, an uncorrected 5% test would flag some card of 40 most of the time
    raw = sum(any(r["p"] < 0.05 for r in option_table(fair_tally(40, 400, s), 2))
              for s in range(10))
    held = sum(any(r["flagged"] for r in option_table(fair_tally(40, 400, s), 2))
               for s in range(10))
    assert raw >= 5 and held <= 1


def test_holm_corrects_over_the_tested_rows_only():
    rows = [{"tested": True, "p": 0.01}, {"tested": False, "p": None},
            {"tested": True, "p": 0.04}, {"tested": True, "p": 0.03}]
    holm_corrected(rows)
    # three tested: the smallest p times 3, the next times 2 (kept in rank order), the last
    assert [r["p_holm"] for r in rows] == [0.03, None, 0.06, 0.06]


def test_merging_batches_equals_adding_games_one_by_one():
    whole = fair_tally(5, 60, 3)
    a, b = ChoiceTally(), ChoiceTally()
    rnd = random.Random(3)
    both = [a] * 25 + [b] * 35
    for part in both:  # replay fair_tally's draws, split into two batches
        offers, picks = {}, {}
        for seat in (0, 1):
            for k in range(5):
                offers[(seat, "buy", f"card-{k}")] = 1
                if rnd.random() < 0.5:
                    picks[(seat, "buy", f"card-{k}")] = 1
        part.add(offers, picks, {2: 10}, 2, (rnd.randrange(2),), 2)
    a.merge(b)
    assert a == whole


def test_option_labels_drop_numbered_parts_only():
    assert option_label("district:122") == option_label("district:123") == "district"
    assert option_label("place:labor/1/0") == "place:labor"
    assert option_label("rise:aztecs") == "rise:aztecs"
    assert option_label("F+1") == "F+1" and option_label("G-1 F+2") == "G-1 F+2"
    assert option_label("legion:antiochia>damascus") == "legion:antiochia>damascus"


def test_branching_table_percentiles():
    b = branching_table({2: 90, 10: 9, 40: 1}, 10)
    assert b == {"decisions": 100, "per_game": 10.0, "mean": 3.1, "p50": 2, "p95": 10,
                 "max": 40, "histogram": {"2": 90, "10": 9, "40": 1}}
    assert branching_table({}, 0) == {"decisions": 0}


def test_never_picked_needs_enough_offers():
    rows = [{"picked": 0, "offered": 49, "seat_games": 30},
            {"picked": 0, "offered": 50, "seat_games": 30},
            {"picked": 0, "offered": 80, "seat_games": 19},
            {"picked": 1, "offered": 80, "seat_games": 30}]
    assert never_picked(rows) == [rows[1]]


def test_two_rates_p_value():
    assert st.two_rates_p_value(30, 100, 30, 100) == pytest.approx(1.0)
    assert st.two_rates_p_value(60, 100, 30, 100) < 0.001
    assert st.two_rates_p_value(0, 0, 3, 10) == 1.0
    assert st.two_rates_p_value(0, 10, 0, 10) == 1.0


def plan_tally(rush_wins: bool, seed: int = 5) -> ChoiceTally:
    """Three-seat games: each seat opens 'rush, rush, rush' or 'farm, trade, rush' at
    'action' (by a coin flip); with `rush_wins`, a rusher wins whenever one plays."""
    rnd = random.Random(seed)
    tally = ChoiceTally()
    for _ in range(300):
        plans = [rnd.random() < 0.5 for _ in range(3)]
        openings = {(s, "action"): ["rush"] * 3 if rush else ["farm", "trade", "rush"]
                    for s, rush in enumerate(plans)}
        rushers = [s for s, rush in enumerate(plans) if rush]
        winner = rnd.choice(rushers) if rush_wins and rushers else rnd.randrange(3)
        tally.add({}, {}, {}, 3, (winner,), 6, openings)
    return tally


def test_a_dominant_opening_is_found_and_a_fair_one_is_not():
    rows = [{"why": "action", "option": o} for o in ("rush", "farm", "trade")]
    won = opening_table(plan_tally(True), 6, rows)
    assert [r["opening"] for r in won["dominant"]] == ["action: rush, rush, rush"]
    assert won["dominant"][0]["win_share"] > 0.8
    fair = opening_table(plan_tally(False), 6, rows)
    assert fair["dominant"] == [] and fair["one_plan"] == []
    assert fair["distinct"] == 2


def test_a_forced_pick_is_no_plan_however_its_survivors_win():
    """AC at 3 players: 'stop' at 'knowledge: pay to move' is never picked, so the seats that
    live to be asked three times open 'move, move, move' and win, and the seats eliminated
    after one ask open 'move' and lose. That is survival, not a plan: no B024. A seat that
    was cut short on another road still counts against the plan."""
    def tally(other_road: bool) -> ChoiceTally:
        t = ChoiceTally()
        for g in range(200):
            short = ["rush"] if other_road and g % 2 else ["move"]
            t.add({}, {}, {}, 3, (g % 2,), 2,
                  {(0, "pay to move"): ["move"] * 3, (1, "pay to move"): ["move"] * 3,
                   (2, "pay to move"): short})
        return t
    rows = [{"why": "pay to move", "option": o} for o in ("move", "stop", "rush")]
    survived = opening_table(tally(False), 2, rows)
    assert survived["dominant"] == []
    [plan] = [r for r in survived["most_played"] if r["picks"] == ["move"] * 3]
    assert not plan["tested"] and plan["win_rate_rest"] is None
    parted = opening_table(tally(True), 2, rows)
    [plan] = [r for r in parted["most_played"] if r["picks"] == ["move"] * 3]
    assert plan["tested"] and plan["win_rate_rest"] == 0.0
    assert [r["opening"] for r in parted["dominant"]] == ["pay to move: move, move, move"]


def test_the_text_names_a_chosen_opening_when_the_most_played_is_a_forced_road():
    """The most played opening is a forced pick ('move' three times: nobody stops): the
    Openings line says nobody opened otherwise and names the most played opening that was
    a real choice, with both sides' rates; a chosen opening on top gets no such addendum."""
    tally = ChoiceTally()
    for g in range(200):
        tally.add({}, {}, {2: 3}, 2, (g % 2,), 2,
                  {(0, "pay to move"): ["move"] * 3, (1, "pay to move"): ["move"] * 3,
                   (0, "tech"): ["mining"] if g % 3 else ["bronze"],
                   (1, "tech"): ["bronze"]})
    doc = {"choices": choices_document(tally, 200, 2)}
    [line] = [x for x in choice_lines(doc) if x.startswith("Openings")]
    assert "most played 'pay to move: move, move, move': 100% of seat-games" in line
    assert "no seat opened otherwise; where seats chose, 'tech: bronze': 67%" in line
    assert "the others there 50% [" in line
    chosen = ChoiceTally()
    for g in range(100):
        chosen.add({}, {}, {2: 1}, 2, (g % 2,), 2,
                   {(0, "tech"): ["mining"], (1, "tech"): ["bronze"]})
    [line] = [x for x in choice_lines({"choices": choices_document(chosen, 100, 2)})
              if x.startswith("Openings")]
    assert "opened otherwise" not in line and "where seats chose" not in line


def test_one_plan_for_everyone_needs_a_real_choice():
    tally = ChoiceTally()
    for g in range(100):
        tally.add({}, {}, {}, 2, (g % 2,), 2,
                  {(0, "tech"): ["mining", "iron", "gunpowder"],
                   (1, "tech"): ["mining", "iron", "gunpowder"],
                   (0, "pay to move"): ["move", "move"], (1, "pay to move"): ["move", "move"]})
    rows = [{"why": "tech", "option": o} for o in ("mining", "iron", "gunpowder", "bronze")]
    rows += [{"why": "pay to move", "option": o} for o in ("move", "stop")]
    table = opening_table(tally, 2, rows)
    assert [r["opening"] for r in table["one_plan"]] == ["tech: mining, iron, gunpowder"]
    doc = {"choices": {"openings": table}}
    from pnp.engine.findings import _plans

    [finding] = _plans(doc, None, None)
    assert finding.code == "PNP-B025" and "100% of seat-games" in finding.message


class _Second:
    """A bot that always takes the second option."""

    def choose(self, state, seat, options, why, outcomes):
        return 1


@pytest.mark.parametrize("logged", [False, True], ids=["fast path", "logged path"])
def test_a_modules_names_count_card_options_by_card_and_change_no_pick(logged):
    """Two copies of one card offered at once count as one offer of the card, under its name;
    an option with no name keeps its own label; the pick and the log are the option's text."""
    from pnp.engine.api import Context, GameResult, PlayerState, State
    from pnp.engine.core import ScriptedDice

    log = [] if logged else None
    result = GameResult(game="g", seed=0, players=2, bots=("t", "t"))
    ctx = Context(State([PlayerState({}), PlayerState({})]), ScriptedDice([]),
                  [_Second(), _Second()], result, log, tally_choices=True)
    names = {"row:88": "Ember Mill", "row:89": "Ember Mill", "row:90": "Town Hall"}.get
    pick = ctx.choose(0, ["draw", "row:88", "row:89", "row:90"], "explore", None, names)
    assert pick == "row:88"
    assert result.offers == {(0, "explore", "draw"): 1, (0, "explore", "Ember Mill"): 1,
                             (0, "explore", "Town Hall"): 1}
    assert result.picks == {(0, "explore", "Ember Mill"): 1}
    assert result.openings == {(0, "explore"): ["Ember Mill"]}
    if logged:
        assert log[-1]["value"] == "row:88" and log[-1]["options"][1] == "row:88"
    ctx.choose(1, ["row:88", "row:90"], "explore")  # no names: the text's own label
    assert result.picks[(1, "explore", "row")] == 1


def test_an_option_never_declined_says_its_pickers_are_the_seats_offered_it(tmp_path):
    """The Crown is bought whenever it is offered, so 'its pickers won more' is partly 'the
    seats that drew it with a coin won more': the finding says so and names the probe of
    declining it; the same row with one decline does not."""
    from pnp.engine.findings import find

    doc = simulate_json(planted_game(tmp_path))
    crown = row(doc, "buy crown", "buy")
    assert crown["picked"] == crown["offered"] and crown["flagged"]

    def message(d):
        return next(f.message for f in find(d) if f.code == "PNP-B023" and "buy crown" in f.message)

    said = message(doc)
    assert "taken at every decision that offered it" in said
    assert "`pnp probe GAME --at 'buy crown' --pick 'pass'`" in said
    crown["picked"] -= 1  # one seat passed it by once: a real choice, no caveat
    assert "taken at every decision" not in message(doc)
