"""Engine core: plain-data state, seeded chance, decisions, event logs and replays."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pnp.engine.bots import BOTS, FirstBot, GreedyBot, RandomBot
from pnp.engine.core import MAIN, NO_HINTS, ReplayMismatch, ScriptedDice, ScriptExhausted, State
from pnp.engine.invariants import check_copy, check_roundtrip, check_state
from pnp.engine.log import jsonl_bytes, narrate, read_jsonl, write_jsonl
from pnp.engine.module import Rules
from pnp.engine.play import metadata, play_game, replay_log, rules
from pnp.engine.registry import NoEngine, module_for


def _midgame(ac) -> State:
    """The final state of a short seeded game: stats, positions, markers all in use."""
    log: list = []
    play_game(ac, 4, 11, ["random"], log=log, max_turns=3)
    return State.from_json(log[-1]["state"])


def test_a_copy_is_independent_of_its_original(ac) -> None:
    state = _midgame(ac)
    before = json.dumps(state.to_json(), sort_keys=True)
    copy = state.copy()
    assert copy == state and check_copy(state) == []
    copy.players[0].counters["food"] += 1
    copy.players[1].pos["military"] = 5
    copy.players[2].vars["powers"].append("leader/reformer")
    copy.markers.setdefault("wonders", []).append(4)
    copy.owners["wonders/pyramids"] = 3
    assert json.dumps(state.to_json(), sort_keys=True) == before


def test_serialize_then_deserialize_is_identical(ac) -> None:
    state = _midgame(ac)
    assert State.from_json(json.loads(json.dumps(state.to_json()))) == state
    assert check_roundtrip(state) == []
    assert check_state(state, metadata(ac)) == []


def test_the_same_seed_plays_the_same_game(ac) -> None:
    a = play_game(ac, 4, 5, ["random", "greedy"] * 2)
    b = play_game(ac, 4, 5, ["random", "greedy"] * 2)
    c = play_game(ac, 4, 6, ["random", "greedy"] * 2)
    assert (a.turns, a.scores, a.events, a.space_counts) == (b.turns, b.scores, b.events,
                                                             b.space_counts)
    assert (a.scores, a.space_counts) != (c.scores, c.space_counts)


def test_a_jsonl_log_replays_to_the_identical_final_state(ac, tmp_path: Path) -> None:
    log: list = []
    result = play_game(ac, 3, 21, ["greedy", "random", "greedy"], log=log)
    path = tmp_path / "game.jsonl"
    write_jsonl(log, path)
    events = read_jsonl(path)
    state, again = replay_log(ac, events)
    assert state == State.from_json(events[-1]["state"])
    assert (again.turns, again.scores, again.winners) == (result.turns, result.scores,
                                                          result.winners)
    rolls = sum(1 for e in events if e["e"] == "roll")
    choices = sum(1 for e in events if e["e"] == "choice")
    assert (rolls, choices) == (result.rolls, result.decisions)
    assert events[0]["e"] == "game" and events[-1]["e"] == "end"
    text = list(narrate(events))
    assert text[0].startswith("ancient-civilizations") and "game over" in text[-1]


def test_a_log_line_is_the_event_as_logged_compact_and_utf8(tmp_path: Path) -> None:
    events = [{"e": "game", "game": "g", "seed": 7}, {"e": "event", "name": "Ré", "seat": 0}]
    path = write_jsonl(events, tmp_path / "g.jsonl")
    assert path.read_bytes() == ('{"e":"game","game":"g","seed":7}\n'
                                 '{"e":"event","name":"Ré","seat":0}\n').encode()
    assert jsonl_bytes(events) == path.read_bytes()
    assert read_jsonl(path) == events


def test_a_log_of_another_variant_does_not_replay(ac) -> None:
    log: list = []
    play_game(ac, 2, 3, ["random"], log=log)
    log[0]["variant"] = "negative-military"
    with pytest.raises(ReplayMismatch):
        replay_log(ac, log)


def test_a_log_cut_short_does_not_replay(ac) -> None:
    log: list = []
    play_game(ac, 2, 3, ["random"], log=log)
    with pytest.raises(ReplayMismatch, match="ends before"):
        replay_log(ac, log[: len(log) // 2])


def test_scripted_dice_that_run_out_raise_a_clear_error() -> None:
    dice = ScriptedDice([3])
    assert dice.draw(6, "move military") == 3
    with pytest.raises(ScriptExhausted, match="roll 2 .move military"):
        dice.draw(6, "move military")


def test_bot_hints_come_from_the_module_hook_or_are_none(ac) -> None:
    """Danger floors are the greedy bot's own heuristics, from a module's bot_hints hook: the
    famine line (Food < 1) for Ancient Civilizations, nothing for a module without one."""
    assert rules(ac).bot_hints(ac).floors["food"] == ac.checks["famine"].when.value

    class Bare:  # the protocol's four functions and no hook
        metadata = new_state = play = finish = staticmethod(lambda *a: None)
    assert Rules(Bare).bot_hints(ac) is NO_HINTS


def test_random_bots_are_seeded_by_game_seed_and_seat() -> None:
    options = list(range(10))
    picks = lambda bot: [bot.choose(None, 0, options, "x", None) for _ in range(20)]  # noqa: E731
    assert picks(RandomBot(1, 0)) == picks(RandomBot(1, 0))
    assert picks(RandomBot(1, 0)) != picks(RandomBot(1, 1))
    assert picks(RandomBot(1, 0)) != picks(RandomBot(2, 0))
    assert {"random", "greedy"} <= set(BOTS)


def test_greedy_takes_the_gain_and_keeps_food_above_famine(ac) -> None:
    meta = metadata(ac)
    bot = GreedyBot(0, 0, meta, rules(ac).bot_hints(ac))  # the famine floor is a bot hint
    state = State.from_json({"players": [{"counters": {s: 5 for s in meta.counter_bounds},
                                          "pos": {}}]})
    state.stage = MAIN  # in the pregame the floors are judged after the setup bonus
    gains = {"stop": {}, "move": {"victory-points": 1.0}}
    assert bot.choose(state, 0, ["stop", "move"], "x", gains.get) == 1
    state.players[0].counters["food"] = 2
    famine = {"keep": {}, "sell": {"food": -2.0, "gold": 2.0}}
    assert bot.choose(state, 0, ["keep", "sell"], "x", famine.get) == 0
    state.players[0].counters["food"] = 20
    capped = {"food": {"food": 3.0}, "gold": {"gold": 1.0}}
    assert bot.choose(state, 0, ["food", "gold"], "x", capped.get) == 1


def test_a_game_without_engine_is_refused(ac) -> None:
    from dataclasses import replace

    with pytest.raises(NoEngine, match="neither a bundled engine nor a .py file"):
        module_for(replace(ac, engine="chess"))
    with pytest.raises(NoEngine, match="has no rules module.*engine: rules.py"):
        module_for(replace(ac, engine=None))


def test_player_counts_outside_the_data_are_refused(ac) -> None:
    with pytest.raises(ValueError, match="2-6 players"):
        play_game(ac, 7, 1, ["random"])
    with pytest.raises(ValueError, match="unknown bot"):
        play_game(ac, 2, 1, ["clever"])


def test_invariant_sampling_is_cheap_but_still_checks(ac) -> None:
    for mode in ("all", "sample", "none"):
        assert play_game(ac, 4, 16, ["random"], invariants=mode).violations == []
    with pytest.raises(ValueError, match="invariants"):
        play_game(ac, 2, 1, ["random"], invariants="some")


def test_an_illegal_bot_choice_is_a_violation_not_an_exception(ac, monkeypatch) -> None:
    class Cheat:
        def __init__(self, *args) -> None:
            pass

        def choose(self, state, seat, options, why, outcomes) -> int:
            return len(options)  # one past the last legal option

    monkeypatch.setitem(BOTS, "cheat", Cheat)
    r = play_game(ac, 2, 1, ["cheat"])
    assert r.ended == "crashed"
    assert any("not legal" in v for v in r.violations)


@pytest.mark.parametrize("share", ["counters", "vars-list", "markers", "winners", "card-tokens"])
def test_a_copy_sharing_any_mutable_part_is_caught(ac, monkeypatch, share: str) -> None:
    """The copy invariant: a State.copy that forgets to copy one part is reported."""
    from pnp.engine.state import CardInstance

    state = _midgame(ac)
    state.zones["pile"] = [CardInstance(1, "x", tokens={"coin": 1})]
    honest = State.copy

    def leaky(self: State) -> State:
        c = honest(self)
        if share == "counters":
            c.players[1].counters = self.players[1].counters
        elif share == "vars-list":
            c.players[0].vars["powers"] = self.players[0].vars["powers"]
        elif share == "markers":
            c.markers["wonders"] = self.markers.setdefault("wonders", [])
        elif share == "winners":
            c.winners = self.winners
        else:
            c.zones["pile"][0].tokens = self.zones["pile"][0].tokens
        return c

    assert check_copy(state) == []
    monkeypatch.setattr(State, "copy", leaky)
    assert check_copy(state) == ["a copy of the state shares data with its original"]


@pytest.mark.parametrize("dice", ["seeded", "scripted", "replayed"])
def test_a_game_rolling_without_end_is_stopped(dice: str) -> None:
    """The runaway guard: more dice than the context allows raise RunawayGame, whichever way
    the dice are drawn; decisions in between do not count as dice."""
    from pnp.engine.core import Context, Replay, RunawayGame, SeededDice
    from pnp.engine.result import GameResult

    state = State.from_json({"players": [{"counters": {}}, {"counters": {}}]})
    # (replayed all ones: every roll-off ties, so only the guard can end it)
    source = {"seeded": SeededDice(1), "scripted": ScriptedDice([1] * 50),
              "replayed": Replay([1] * 50)}[dice]
    ctx = Context(state, source, [FirstBot(), FirstBot()],
                  GameResult(game="g", seed=1, players=2, bots=("first",) * 2), max_rolls=10)
    for _ in range(8):
        ctx.roll(6, "x")
        ctx.choose(0, ["a", "b"], "y")
    assert (ctx.rolls, ctx.decisions) == (8, 8)
    with pytest.raises(RunawayGame):
        ctx.roll_high(6, "order", [0, 1])  # two more dice would do; a tie needs a third
        ctx.roll(6, "x")


def test_a_seeded_roll_off_rerolls_only_the_tied_and_the_highest_goes_first() -> None:
    """The seeded roll-off's fast path against the rule worked out from its own dice: every
    contender rolls, only those tied highest roll again (in the order given), the single
    highest wins; a replay of the same dice names the same winner."""
    from pnp.engine.core import Context, Replay, SeededDice
    from pnp.engine.result import GameResult

    state = State.from_json({"players": [{"counters": {}} for _ in range(4)]})
    ties = 0
    for seed in range(300):
        for seats in ([2, 0, 3, 1], [1, 3], [0, 1, 2]):
            result = GameResult(game="g", seed=seed, players=4, bots=("first",) * 4)
            ctx = Context(state, SeededDice(seed), [FirstBot()] * 4, result)
            winner = ctx.roll_high(6, "order", seats)
            dice, contenders = list(ctx.trace), seats
            while True:
                values, dice = dice[:len(contenders)], dice[len(contenders):]
                tied = [s for s, v in zip(contenders, values, strict=True) if v == max(values)]
                if len(tied) == 1:
                    break
                ties += 1
                contenders = tied
            assert (winner, dice) == (tied[0], [])
            source = Replay(ctx.trace)
            again = Context(state, source, [source] * 4, result)
            assert again.roll_high(6, "order", seats) == winner
    assert ties > 100  # the tie path was taken, often
