"""Rules read every number from the data: change the data and the game changes with it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from pnp.engine.core import Context, ScriptedDice, State, StopRun
from pnp.engine.result import GameResult
from pnp.games import ancient_civilizations as ac_rules


class Script:
    """Decisions from a list of option values, for every seat."""

    def __init__(self, picks: list[Any]):
        self.picks = list(picks)

    def choose(self, state, seat, options, why, outcomes) -> int:
        return list(options).index(self.picks.pop(0))


def play_phase(game, phase: str, dice: list[int], stats: list[dict] = (),
               positions: list[dict] = (), picks: list[Any] = ()) -> tuple[State, GameResult]:
    """Two players right after setup play one phase with scripted dice and decisions."""
    state = ac_rules.main_state(game, 2)
    state.phase = [p.id for p in game.phases].index(phase)
    for p, s in zip(state.players, stats, strict=False):
        p.counters.update(s)
    for p, s in zip(state.players, positions, strict=False):
        p.pos.update(s)
    result = GameResult(game=game.id, seed=0, players=2, bots=("script",) * 2)

    def stop(ctx: Context, label: str) -> None:
        raise StopRun

    script = Script(picks)
    ctx = Context(state, ScriptedDice(dice), [script, script], result, on_step=stop)
    try:
        ac_rules.play(game, ctx)
    except StopRun:
        pass
    return state, result


def _with_stat(game, stat: str, **changes):
    stats = dict(game.stats)
    stats[stat] = replace(stats[stat], **changes)
    return replace(game, stats=stats)


def _with_rule(game, path: tuple[str, ...], value):
    rules = dict(game.rules)
    node = rules
    for key in path[:-1]:
        node[key] = dict(node[key])
        node = node[key]
    node[path[-1]] = value
    return replace(game, rules=rules)


def test_food_is_capped_at_20_by_the_data(ac) -> None:
    # seat 0 at 19 Food lands on Farms (F+3)
    state, result = play_phase(ac, "agriculture", [6, 1, 2, 3], stats=[{"food": 19}])
    assert state.players[0].counters["food"] == 20
    assert result.cap_clips["food"] == 1
    roomier = _with_stat(ac, "food", cap=25)
    state, _ = play_phase(roomier, "agriculture", [6, 1, 2, 3], stats=[{"food": 19}])
    assert state.players[0].counters["food"] == 22


def test_the_war_bonus_of_2_comes_from_the_data(ac) -> None:
    # seat 0 (Military 8 -> 6 after losing 2) beats seat 1 (5 -> 4) only thanks to the +2:
    # war rolls 3+3 = 6 (+2 = 8) against 4+3 = 7
    dice = [6, 1, 2, 2, 1, 3, 3, 4, 3, 1]
    setup = dict(stats=[{"military": 8, "victory-points": 3}, {"military": 5, "victory-points": 2}],
                 positions=[{}, {"military": 2}], picks=["war"])
    state, result = play_phase(ac, "military", dice, **setup)
    assert result.events["war-won-aggressor"] == 1
    assert state.players[0].counters["victory-points"] == 3 + 2
    no_bonus = _with_rule(ac, ("options", "war", "higher_military_bonus"), 0)
    state, result = play_phase(no_bonus, "military", dice, **setup)
    assert result.events["war-won-defender"] == 1
    assert state.players[1].counters["victory-points"] == 2 + 2


def test_the_turn_cap_of_60_comes_from_the_data(ac) -> None:
    from pnp.engine.play import metadata

    assert metadata(ac).max_turns == 60
    assert metadata(_with_rule(ac, ("end", "max_turns"), 9)).max_turns == 9


def test_the_game_end_at_20_territories_comes_from_the_data(ac) -> None:
    state, _ = play_phase(ac, "end", [2, 1], stats=[{"territories": 19}])
    assert state.stage == "main" and state.turn == 2
    lower = ac.rule("end", "game_ends_when")
    easier = _with_rule(ac, ("end", "game_ends_when"), replace(lower, value=19))
    state, _ = play_phase(easier, "end", [2, 1], stats=[{"territories": 19}])
    assert state.stage == "over" and state.winners == [0, 1]


def test_the_setup_bonus_of_5_comes_from_the_data(ac) -> None:
    state = ac_rules.main_state(ac, 2)
    assert {s: state.players[0].counters[s] for s in ("population", "territories", "food",
                                                    "stability", "zeal", "military",
                                                    "culture")} == dict.fromkeys(
        ("population", "territories", "food", "stability", "zeal", "military", "culture"), 5)
    assert state.players[0].counters["gold"] == 0
