"""The Ancient World: the rulebooks' worked examples and edition counts, checked on the engine."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.data.game import load_game
from pnp.engine.core import trace_from_log
from pnp.engine.play import play_game, replay
from pnp.games import the_ancient_world as taw
from pnp.paths import CARDS

FOLDER = CARDS / "the-ancient-world"


def _game(variant=None):
    result = load_game(FOLDER, variant)
    assert result.ok, result.diagnostics
    return result


def test_both_editions_hold_the_rulebook_card_counts():
    second = {"empire-a": 40, "empire-b": 34, "empire-c": 11, "districts": 16, "military": 25,
              "starting-empire": 8, "starting-military": 8, "starting-titans": 4}
    first = {"empire-a": 45, "empire-b": 47, "empire-c": 0, "districts": 10, "military": 25,
             "starting-empire": 8, "starting-military": 8, "starting-titans": 0}
    for variant, want, titans in ((None, second, 35), ("first-edition", first, 20)):
        result = _game(variant)
        decks = result.game.decks
        assert {d: sum(c.count for c in decks[d].cards) for d in want} == want
        assert sum(c.count for d in ("titans-1", "titans-2", "titans-3")
                   for c in decks[d].cards) == titans
        assert not [d for d in result.diagnostics if d.code == "PNP-L004"]


def _seat0(variant=None):
    game = _game(variant).game
    state = taw.main_state(game, 2)
    return game, state, taw.TAW(taw.rules_for(game), None, state)


def _move(t, card, into, seat=0):
    for _, _, cards in t.st.all_zones():
        for c in cards:
            if c.card == card:
                cards.remove(c)
                t.zone(into, seat).append(c)
                return c
    raise AssertionError(card)


def test_attack_example_merkian_troops_reach_defence_8_for_two_coins():
    game, state, t = _seat0()
    for c in list(t.zone("armies", 0)):  # only the troops in army 0, a retired card below
        t.zone("armies", 0).remove(c)
        t.zone("box").append(c)
    troops = _move(t, "merkian-troops", "armies")
    troops.tokens = {"army": 0, "name": 0, "picture": 1}
    for cid in ("amber-barracks", "thistle-archive", "jade-arena"):
        _move(t, cid, "empire")
    for c in list(t.zone("empire", 0)):
        if c.card in ("fishing-dock", "wheat-fields"):
            t.zone("empire", 0).remove(c)
            t.zone("box").append(c)
    titan = t.zone("titans-1")[0]
    assert titan.card == "stone-being" and t.r.f(titan.card, "defence") == 8
    # 3 arrows + 1 sword, 1 legacy sword (retired card: none here, so the troops' own legacy
    # does not count yet) and 3 swords from empire cards: 7 without a retired card below
    assert t.attack_value(0, [troops], "stone-being") == 7
    guard = _move(t, "city-guard", "armies")  # retired below the troops: legacy sword 1
    guard.tokens, guard.flags = {"army": 0, "name": 0, "picture": 0}, ["retired"]
    assert t.attack_value(0, [troops], "stone-being") == 8
    options = [o for o, _ in t.attack_options(0) if o.startswith("attack:titans-1:")]
    assert options == [f"attack:titans-1:{troops.uid}:0"]
    state.players[0].counters["coins"] = 5
    assert t.attack_options(0)  # cost is 1 + the coin on the picture = 2


def test_losing_a_district_keeps_the_empire_but_blocks_building():
    game, state, t = _seat0()
    d1 = _move(t, "salt-flats", "lands")
    cap = t.capacity(0)
    while len(t.zone("empire", 0)) < cap:
        c = t.zone("empire-a").pop()
        t.zone("empire", 0).append(c)
    owned = len(t.zone("empire", 0))
    t.zone("lands", 0).remove(d1)
    t.zone("box").append(d1)
    assert t.capacity(0) < owned and len(t.zone("empire", 0)) == owned
    state.players[0].counters["coins"] = 50
    assert not t.can_build(0, t.zone("empire-row")[0].card)


def test_first_edition_forbids_placing_below_a_higher_citizen_but_build_matches():
    game, state, t = _seat0("first-edition")
    state.vars["spaces"]["labor"] = [[1, 3]]
    state.vars["spaces"]["build"] = [[1, 3]]
    assert t.fee(0, "labor", 2) is None and t.fee(0, "labor", 4) == 0
    assert t.fee(0, "build", 2) == 1 and t.fee(0, "build", 3) == 0
    state.vars["spaces"]["rebuild"] = [[1, 5]]
    assert t.fee(0, "rebuild", 1) == 0
    game2, state2, t2 = _seat0()
    state2.vars["spaces"]["labor"] = [[1, 3]]
    assert t2.fee(0, "labor", 2) == 1


# ------------------------------------------------------------------ every card move is logged


def _zones(state) -> dict[str, Counter]:
    """Each zone's cards (by card id), zones named as the log names them (`box`, `lands@1`)."""
    out = {name: Counter(c.card for c in cards) for name, cards in state.zones.items()}
    for seat, p in enumerate(state.players):
        out.update({f"{name}@{seat}": Counter(c.card for c in cards)
                    for name, cards in p.zones.items()})
    return {name: cards for name, cards in out.items() if cards}


def _moves(log: list) -> list[tuple]:
    return [(e["from"], e["to"], tuple(e["cards"]), e["why"]) for e in log if e["e"] == "move"]


def _unexplained(game, players: int, log: list, final) -> dict[str, Counter]:
    """The zones of `final` that the log's moves, applied to the state before setup, get wrong."""
    zones = _zones(taw.new_state(game, players))
    for src, dst, cards, _ in _moves(log):
        zones.setdefault(src, Counter()).subtract(cards)
        zones.setdefault(dst, Counter()).update(cards)
    want = _zones(final)
    return {name: +cards - want.get(name, Counter()) or want.get(name, Counter()) - +cards
            for name, cards in zones.items() if +cards != want.get(name, Counter())}


@pytest.mark.parametrize("variant, moved", [
    (None, "a threatening titan"), ("titan-draft", "a drafted threatening titan"),
    ("first-edition-expand-plus", "a district back under the deck")])
def test_the_log_moves_every_card_and_a_replay_moves_the_same(variant, moved):
    game = _game(variant).game
    log: list = []
    play_game(game, 3, 11, ["greedy", "random", "greedy"], invariants="none", log=log)
    again: list = []
    final, _ = replay(game, 3, trace_from_log(log), log=again)
    assert _unexplained(game, 3, log, final) == {}
    whys = {why for *_, why in _moves(log)}
    assert {"starting card", "refill empire-row", "refill military-row", "recruit", "build",
            "keep a district", moved} <= whys
    assert _moves(again) == _moves(log)


def test_a_card_moved_behind_the_contexts_back_is_caught(monkeypatch):
    def take_card_unlogged(self, zone: str, cid: str, into: str, seat: int):
        card = next(c for c in self.zone(zone) if c.card == cid)
        self.zone(zone).remove(card)
        self.zone(into, seat).append(card)
        return card

    monkeypatch.setattr(taw.TAW, "take_card", take_card_unlogged)
    game = _game().game
    log: list = []
    play_game(game, 2, 3, ["greedy"], invariants="none", log=log)
    final, _ = replay(game, 2, trace_from_log(log))
    assert "empire@0" in _unexplained(game, 2, log, final)


def test_the_choices_report_counts_card_options_by_the_cards_name():
    """"Why would anyone pick this card?" needs the card: an option's text carries a card's
    instance number (recruit '88@retire:0', build 'empire-row/121'), and the report names the
    card instead, so two games' copies of one card count together."""
    game = _game().game
    names = {deck: {c.name for c in game.decks[deck].cards}
             for deck in ("military", "empire-a", "empire-b", "empire-c", "starting-empire")}
    empire = set().union(*(names[d] for d in names if d != "military"))
    # 60 games: greedy explores about once a game, and draws at 2 of those 60 explores
    out = CliRunner().invoke(main, ["simulate", str(FOLDER), "--players", "3", "--games", "60",
                                    "--skill", "none", "--format", "json"])
    assert out.exit_code == 0, out.output
    rows = json.loads(out.stdout)["choices"]["options"]

    def options(why):
        return {r["option"] for r in rows if r["why"] == why}

    recruited, built = options("recruit a military card"), options("build an empire card")
    assert recruited and recruited <= names["military"]
    assert len(built) > 5 and built - {"none"} <= empire
    assert options("explore") - {"draw"} <= empire
    picked = {r["option"]: r["picked"] for r in rows if r["why"] == "build an empire card"}
    assert sum(picked.values()) > 20  # the built cards, under their names
    # the greedy bot weighs a card in view at explore against what a draw may bring, so the
    # row's cards are not all "never picked" (they were while every option counted the same)
    explored = {r["option"]: r["picked"] for r in rows if r["why"] == "explore"}
    assert explored["draw"] > 0 and sum(explored.values()) - explored["draw"] > 0


def test_a_draw_at_explore_is_worth_the_best_of_its_cards_taken_from_the_row():
    from pnp.games.the_ancient_world.board import best_of
    assert best_of([1.0, 2.0, 3.0], 2) == pytest.approx((2 + 3 + 3) / 3)
    assert best_of([1.0, 2.0, 3.0], 1) == pytest.approx(2.0)  # one card: the row's mean
    assert best_of([1.0, 5.0], 4) == 5.0  # more draws than cards in view: the best of them
