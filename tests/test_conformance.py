"""One conformance test for every game (OpenSpiel style): each bundled game and each docs example,
in each variant it declares, at each player count in its range, played by random bots with every
invariant checked at every step. A new game gets the whole battery by being there.

A game conforms when it breaks no invariant; ends within its declared `max_turns` (or is a
timeout at it); reports scores and winners that agree with its final state; replays from its
own log to the same final state; and moves cards only between zones that exist (components.yaml
declares them, or the state had them before play).
"""

from __future__ import annotations

import shutil

import pytest
from conftest import PLAYABLE, cell_params, variant_params

from pnp.engine.play import metadata, play_game, replay_log, rules
from pnp.engine.result import ALL_OUT, COMPLETED, TIMEOUT
from pnp.engine.state import OVER, State

#: seeds every cell plays in the quick test; the slow sweep plays more
SEEDS = (1, 2)
SLOW_SEEDS = range(3, 13)  # 10 more seeds a cell: about 3 minutes over the five games
#: Antike's random games run to 50+ rounds in 20 cells (5 player counts, 4 variants): fewer
#: seeds keep the quick run and CI's slow sweep within their minutes
ANTIKE_SEEDS, ANTIKE_SLOW_SEEDS = (1,), range(3, 6)


def known_zones(game, players: int) -> set[str]:
    """Zone names as a `move` event writes them (`market`, `hand@2`): every zone the data
    declares and every zone of the state before play."""
    names: set[str] = set()
    for zone in getattr(game, "zones", {}).values():
        if zone.owner == "player":
            names.update(f"{zone.id}@{seat}" for seat in range(players))
        else:
            names.add(zone.id)
    state: State = rules(game).new_state(game, players)
    for seat, zone, _ in state.all_zones():
        names.add(zone if seat < 0 else f"{zone}@{seat}")
    return names


def conformance_problems(game, players: int, seed: int) -> list[str]:
    """What one random game breaks of the harness's contract, in words (empty: it conforms)."""
    meta = metadata(game)
    log: list = []
    r = play_game(game, players, seed, ["random"], invariants="all", log=log)
    problems = [f"invariant: {v}" for v in r.violations]
    end = log[-1]
    final = State.from_json(end["state"])
    if r.ended not in (COMPLETED, TIMEOUT, ALL_OUT):
        problems.append(f"ended {r.ended!r}")
    if not 1 <= r.turns <= meta.max_turns:
        problems.append(f"{r.turns} turns, outside 1..{meta.max_turns}")
    if r.ended == TIMEOUT and r.turns != meta.max_turns and not r.violations:
        problems.append(f"a timeout after {r.turns} turns, not at the cap of {meta.max_turns}")
    if final.stage != OVER or final.ended != r.ended or tuple(final.winners) != r.winners:
        problems.append(f"the final state (stage {final.stage}, ended {final.ended!r}, winners "
                        f"{final.winners}) disagrees with the result ({r.ended!r}, {r.winners})")
    if len(r.scores) != players or len(r.final_stats) != players:
        problems.append(f"{len(r.scores)} scores and {len(r.final_stats)} final stats for "
                        f"{players} players")
    if len(set(r.winners)) != len(r.winners) or any(final.players[w].out for w in r.winners
                                                     if 0 <= w < players):
        problems.append(f"winners {r.winners}: repeated, or out of the game")
    if not set(r.winners) <= set(range(players)):
        problems.append(f"winners {r.winners} are not seats")
    if r.ended in (COMPLETED, TIMEOUT) and not r.winners:
        problems.append(f"{r.ended} without a winner")
    if meta.score_counter and len(r.scores) == players:
        counted = tuple(p.counters.get(meta.score_counter, 0) for p in final.players)
        if r.scores != counted:
            problems.append(f"scores {r.scores} are not the final {meta.score_counter} {counted}")
    try:
        again, result = replay_log(game, log)
    except Exception as exc:  # a replay that fails is this game's problem, reported with it
        problems.append(f"replaying its log failed: {type(exc).__name__}: {exc}")
    else:
        if again != final or result.winners != r.winners or result.scores != r.scores:
            problems.append("replaying its log reaches another final state or result")
    zones = known_zones(game, players)
    for event in log:
        if event["e"] == "move":
            unknown = {event["from"], event["to"]} - zones
            if unknown:
                problems.append(f"the move {event['why']!r} names zones no data or starting "
                                f"state has: {', '.join(sorted(unknown))}")
                break
    return problems


def where(game, players: int, seed: int) -> str:
    return f"{game.id}, variant {game.variant or 'base'}, {players} players, seed {seed}"


@pytest.mark.parametrize(("game_id", "variant", "players"), cell_params())
def test_random_games_conform(game_defs, game_id, variant, players):
    game = game_defs(game_id, variant)
    seeds = ANTIKE_SEEDS if game_id == "antike" else SEEDS
    broken = {where(game, players, s): p for s in seeds if (p := conformance_problems(game,
                                                                                       players, s))}
    assert broken == {}, broken


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "variant", "players"), cell_params())
def test_many_random_games_conform(game_defs, game_id, variant, players):
    game = game_defs(game_id, variant)
    seeds = ANTIKE_SLOW_SEEDS if game_id == "antike" else SLOW_SEEDS
    broken = {where(game, players, s): p for s in seeds
              if (p := conformance_problems(game, players, s))}
    assert broken == {}, broken


@pytest.mark.parametrize(("game_id", "variant"), variant_params())
def test_the_player_range_tested_is_the_one_the_rules_declare(game_defs, game_id, variant):
    """The cells above come from game.yaml alone; the rules module's metadata must agree."""
    meta = metadata(game_defs(game_id, variant))
    declared = PLAYABLE[game_id]
    assert (meta.players_min, meta.players_max) == (declared.players_min, declared.players_max)
    assert meta.max_turns >= 1


def test_every_bundled_engine_is_played():
    from pnp.engine.registry import ENGINES

    assert {g.engine for g in PLAYABLE.values()} >= set(ENGINES)


# --------------------------------------------------------------------------- the checks can fail


def broken_example(tmp_path, *edits: tuple[str, str]):
    """The spice-market example with lines of its rules changed: (old, new) pairs."""
    from pnp.data.game import load_game

    folder = tmp_path / "spice-market"
    shutil.copytree(PLAYABLE["spice-market"].folder, folder)
    rules_py = folder / "rules.py"
    source = rules_py.read_text()
    for old, new in edits:
        assert old in source
        source = source.replace(old, new)
    rules_py.write_text(source)
    return load_game(folder).game


FINISH = "    fill_result(ctx, SCORE)"
END_CHECK = "    if any(goal.holds(p.counters[goal.stat]) for p in st.players) or not ctx.zone(MARKET):"
BUY = '    pick = ctx.choose(seat, list(worth), "buy", worth.get)'


@pytest.mark.parametrize(("edits", "words"), [
    # a bought card goes to a misspelt zone: the data has no `discrad`
    ([('(DISCARD, seat), "buy"', '("discrad", seat), "buy"')], "names zones no data"),
    # the report's scores are not the final Victory Points
    ([(FINISH, FINISH + "\n    ctx.result.scores = tuple(s + 1 for s in ctx.result.scores)")],
     "are not the final"),
    # the result's winners are not the final state's
    ([(FINISH, FINISH + "\n    ctx.result.winners = (0, 0)")], "disagrees with the result"),
    # played past the turn cap the game declares
    ([("play_turns(ctx, phases, max_turns,", "play_turns(ctx, phases, max_turns + 5,"),
      (END_CHECK, "    if st.turn > 1000:")], "outside 1.."),
    # a pick that is not the logged decision's does not replay
    ([(BUY, BUY + "\n    import random\n    pick = random.choice(list(worth))")], "replay"),
])
def test_the_conformance_check_catches_a_broken_game(tmp_path, edits, words):
    game = broken_example(tmp_path, *edits)
    found = [p for seed in SEEDS for p in conformance_problems(game, 2, seed)]
    assert any(words in p for p in found), found
