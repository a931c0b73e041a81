"""Every invariant check catches the broken state it exists for.

Each test builds a state that breaks one rule of the harness (a counter over its cap, a card in
two zones, a lost card, a supply below zero, a copy sharing a list with its original, ...) and
asserts the violation, so replacing any check with a no-op turns a test red.
"""

from __future__ import annotations

import pytest

from pnp.engine import invariants as inv
from pnp.engine.core import OVER, CardInstance, Context, GameMeta, PlayerState, SeededDice, State
from pnp.engine.play import check_replay, play_game
from pnp.engine.result import GameResult
from pnp.games import ancient_civilizations as acm

META = GameMeta(game="t", players_min=2, players_max=2, max_turns=5,
                counter_bounds={"coins": (0, 10), "heat": (-3, None)},
                shared_bounds={"round": (1, 6)}, supplies={"cubes": (20, False),
                                                           "coins": (50, True)},
                phases=("draw", "play", "end"))


def _state() -> State:
    """A legal two-player state: a deck, a hand each, shared counters and supplies."""
    deck = [CardInstance(i, f"c{i % 3}") for i in range(6)]
    players = [PlayerState({"coins": 3, "heat": 0}, zones={"hand": [CardInstance(10 + s, "c0")]})
               for s in range(2)]
    return State(players, counters={"round": 1}, supply={"cubes": 20, "coins": 50},
                 zones={"deck": deck, "discard": []})


def test_a_legal_state_breaks_nothing() -> None:
    state = _state()
    assert inv.StepChecker(META, "all", 0, state).full_check(state) == []


def test_a_counter_over_its_cap_is_caught() -> None:
    state = _state()
    state.players[1].counters["coins"] = 11
    assert "coins is above its cap (10)" in inv.check_state(state, META)


def test_a_counter_below_its_minimum_is_caught() -> None:
    state = _state()
    state.players[0].counters["coins"] = -1
    state.players[1].counters["heat"] = -4
    found = inv.check_state(state, META)
    assert "coins is negative (minimum 0)" in found
    assert "heat is below its minimum (minimum -3)" in found


def test_a_shared_counter_out_of_bounds_is_caught() -> None:
    state = _state()
    state.counters["round"] = 7
    assert "round is above its cap (6)" in inv.check_state(state, META)


def test_a_missing_counter_is_caught() -> None:
    state = _state()
    del state.players[0].counters["heat"]
    assert "a player's counters do not match the game's counters" in inv.check_state(state, META)


def test_a_card_in_two_zones_is_caught() -> None:
    state = _state()
    state.zones["discard"].append(state.zones["deck"][0])
    assert "a card is in two places at once" in inv.check_state(state, META)


def test_a_lost_card_is_caught() -> None:
    state = _state()
    cards = set(inv.card_census(state))
    state.zones["deck"].pop()
    assert "a card was lost (it is in no zone)" in inv.check_state(state, META, cards)


def test_a_card_out_of_nowhere_is_caught() -> None:
    state = _state()
    cards = set(inv.card_census(state))
    state.players[0].zones["hand"].append(CardInstance(99, "c1"))
    assert "a card appeared that the game did not start with" in \
        inv.check_state(state, META, cards)


def test_moving_a_card_between_zones_breaks_nothing() -> None:
    state = _state()
    cards = set(inv.card_census(state))
    state.zones["discard"].append(state.zones["deck"].pop(0))
    assert inv.check_state(state, META, cards) == []


def test_a_supply_below_zero_is_caught_unless_it_may_run_out() -> None:
    state = _state()
    state.supply["cubes"] = -1
    assert "the cubes supply is below zero" in inv.check_state(state, META)
    state = _state()
    state.supply["coins"] = -4  # coins may run out: substitutes are allowed
    assert inv.check_state(state, META) == []


def test_a_supply_above_its_stock_is_caught() -> None:
    state = _state()
    state.supply["cubes"] = 21
    assert "the cubes supply holds more than the box's 20" in inv.check_state(state, META)


def test_a_winner_who_is_out_is_caught() -> None:
    state = _state()
    state.stage, state.winners = OVER, [1]
    state.players[1].out = True
    assert "a winner is not a player still in the game" in inv.check_state(state, META)


def test_a_copy_that_shares_a_list_with_its_original_is_caught(monkeypatch) -> None:
    state = _state()
    assert inv.check_copy(state) == []
    real = PlayerState.copy

    def shallow(self: PlayerState) -> PlayerState:
        c = real(self)
        c.zones["hand"] = self.zones["hand"]  # the bug: one list for both
        return c

    monkeypatch.setattr(PlayerState, "copy", shallow)
    assert "a copy of the state shares data with its original" in inv.check_copy(state)


def test_a_copy_that_shares_a_card_with_its_original_is_caught(monkeypatch) -> None:
    state = _state()
    monkeypatch.setattr(CardInstance, "copy", lambda self: self)
    assert "a copy of the state shares data with its original" in inv.check_copy(state)


def test_a_copy_that_differs_from_its_original_is_caught(monkeypatch) -> None:
    state = _state()
    real = State.copy

    def lossy(self: State) -> State:
        c = real(self)
        c.supply.pop("cubes")
        return c

    monkeypatch.setattr(State, "copy", lossy)
    assert "a copy of the state differs from its original" in inv.check_copy(state)


def test_a_value_json_cannot_keep_is_caught_by_the_round_trip() -> None:
    state = _state()
    state.vars["seen"] = {1: "a"}  # an int key comes back from JSON as a string
    assert inv.check_roundtrip(state) == ["serialize then deserialize changes the state"]


def _stepping(state: State) -> tuple[Context, inv.StepChecker]:
    checker = inv.StepChecker(META, "all", 0, state)
    ctx = Context(state, SeededDice(1), [], GameResult("t", 0, 2, ()), on_step=checker)
    return ctx, checker


def test_phases_out_of_order_are_caught() -> None:
    state = _state()
    state.stage, state.turn = "main", 1
    ctx, _ = _stepping(state)
    ctx.step("draw")
    ctx.step("end")
    assert "phases out of order: end came where play was due" in ctx.violations


def test_a_turn_that_does_not_advance_is_caught() -> None:
    state = _state()
    state.stage, state.turn = "main", 1
    ctx, _ = _stepping(state)
    for label in ("draw", "play", "end"):
        ctx.step(label)  # the turn number should now be 2
    assert "the turn number did not advance by one after the last phase" in ctx.violations


def test_sampled_checks_run_on_some_steps_and_catch_a_broken_counter() -> None:
    state = _state()
    state.stage, state.turn = "main", 1
    checker = inv.StepChecker(META, "sample", 0, state)
    ctx = Context(state, SeededDice(1), [], GameResult("t", 0, 2, ()), on_step=checker)
    state.players[0].counters["coins"] = 99
    for k in range(inv.SAMPLE_EVERY):
        state.turn = 1 + k // 3
        ctx.step(("draw", "play", "end")[k % 3])
    assert "coins is above its cap (10)" in ctx.violations


def test_a_module_invariant_is_run_by_the_step_checker() -> None:
    state = _state()
    state.stage, state.turn = "main", 1
    checker = inv.StepChecker(META, "all", 0, state,
                              lambda st, label: ["the deck is too thin"]
                              if len(st.zones["deck"]) < 6 else [])
    ctx = Context(state, SeededDice(1), [], GameResult("t", 0, 2, ()), on_step=checker)
    state.zones["discard"].append(state.zones["deck"].pop())
    ctx.step("draw")
    assert "the deck is too thin" in ctx.violations


# ----------------------------------------------------------------- Ancient Civilizations' own


def _ac_state(ac) -> State:
    log: list = []
    play_game(ac, 3, 11, ["random"], log=log, max_turns=3)
    return State.from_json(log[-1]["state"])


def test_ac_two_pawns_on_one_space_are_caught(ac) -> None:
    state = _ac_state(ac)
    assert acm.invariants(ac, state, "") == []
    start = acm.rules_for(ac).tracks["military"].start
    for p in state.players[:2]:
        p.pos["military"] = start + 2
    assert "two pawns share a non-start space on the military track" in \
        acm.invariants(ac, state, "")


def test_ac_a_pawn_off_its_track_is_caught(ac) -> None:
    state = _ac_state(ac)
    state.players[0].pos["military"] = 99
    assert "a pawn is off the military track" in acm.invariants(ac, state, "")


def test_ac_a_wonder_owned_twice_or_unmarked_is_caught(ac) -> None:
    state = _ac_state(ac)
    key = f"wonders/{ac.tracks['wonders'].spaces[2].id}"
    for seat in (0, 1):
        state.players[seat].vars["owned"].append(key)
    state.owners[key] = 1
    found = acm.invariants(ac, state, "")
    assert f"{key} is owned twice" in found
    state = _ac_state(ac)
    state.owners[key] = 0  # the board says owned, the player's list does not
    assert "the owners on the board do not match what the players own" in \
        acm.invariants(ac, state, "")


def test_ac_a_space_marked_twice_is_caught(ac) -> None:
    state = _ac_state(ac)
    state.markers["wonders"] = [3, 3]
    assert "a space on the wonders track is marked twice" in acm.invariants(ac, state, "")


def test_ac_powers_outliving_the_end_phase_are_caught(ac) -> None:
    state = _ac_state(ac)
    state.players[0].vars["powers"].append("leader/reformer")
    assert acm.invariants(ac, state, "military") == []
    assert "powers of the turn outlived the End Phase" in acm.invariants(ac, state, "end")


def test_ac_a_pawn_on_no_track_and_an_owned_space_without_markers_are_caught(ac) -> None:
    state = _ac_state(ac)
    state.players[0].pos["moon"] = 1
    assert "a pawn is on moon, which is not a track" in acm.invariants(ac, state, "")
    state = _ac_state(ac)
    state.players[0].vars["owned"].append("naval/x")
    state.owners["naval/x"] = 0
    assert acm.invariants(ac, state, "") == \
        ["owned space naval/x is on a track without markers"]


# ----------------------------------------------------------------- replay identity


def test_a_replay_that_reaches_another_state_is_caught(ac) -> None:
    log: list = []
    result = play_game(ac, 2, 5, ["random"], log=log, max_turns=2)
    trace = [int(e["value"]) if e["e"] == "roll" else int(e["pick"])
             for e in log if e["e"] in ("roll", "choice")]
    final = State.from_json(log[-1]["state"])
    assert check_replay(ac, 2, trace, 2, final) == []
    final.players[0].counters["food"] += 1
    assert check_replay(ac, 2, trace, 2, final) == \
        ["replaying the log gives a different final state"]
    assert result.violations == []


def test_a_replay_with_a_broken_trace_is_caught(ac) -> None:
    final = _ac_state(ac)
    assert check_replay(ac, 3, [1, 2], 3, final)[0].startswith("replaying the log failed")


@pytest.mark.parametrize("mode", ["all", "sample", "none"])
def test_invariant_modes_are_accepted(mode: str) -> None:
    inv.StepChecker(META, mode, 0, _state())


def test_an_unknown_invariant_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="invariants must be one of"):
        inv.StepChecker(META, "some", 0, _state())
