"""Fake games for the self-play harness tests: known odds, so a test knows the true answer.

They have play_game's signature and return GameResult. They are module-level functions so worker
processes can unpickle them. This module has no tests of its own.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

from pnp.data.model import Chart, ChartRow, Dice, GameDef, Space, Stat, Track
from pnp.engine.result import COMPLETED, TIMEOUT, Elimination, GameResult

#: seat 0's true win probability in the unbalanced fake
SEAT0_WIN = 0.6
#: share of unbalanced games with an elimination before turn 6
EARLY_OUT = 0.45
#: share of unbalanced games that hit the turn cap
TIMEOUTS = 0.10

SPACES = ("start", "farms", "herds", "grain", "blight", "drought")


def fake_game(variant: str | None = None) -> GameDef:
    """A tiny game definition: one six-space loop, one 1D6 chart, three stats (food capped at 20)."""
    track = Track("farm", "Farm", tuple(Space(s, s.title(), i, start=(i == 0))
                                        for i, s in enumerate(SPACES)))
    chart = Chart("raid", "Raid", Dice(1, 6),
                  tuple(ChartRow(i, i, None, label=f"result {i}") for i in range(1, 7)))
    stats = {
        "victory-points": Stat("victory-points", "Victory Points"),
        "food": Stat("food", "Food", cap=20),
        "resources": Stat("resources", "Resources", cap=10),
    }
    return GameDef(id="fake", name="Fake Game", folder=Path("."), players_min=2, players_max=6,
                   recommended_players=4, stats=stats, tracks={"farm": track},
                   charts={"raid": chart}, variant=variant)


def _result(game, players, seed, bots, turns, winners, scores, **kw) -> GameResult:
    scores = tuple(scores)
    best_other = max((s for i, s in enumerate(scores) if i not in winners), default=0)
    margin = 0 if len(winners) != 1 else scores[winners[0]] - best_other
    return GameResult(game=game.id, seed=seed, players=players, bots=tuple(bots),
                      variant=game.variant, turns=turns, winners=tuple(winners), scores=scores,
                      margin=margin, **kw)


def fair_play(game, players, seed, bots, *, invariants="sample", log=None, max_turns=None):
    """Every seat equally likely to win; every space and chart result comes up; nothing clips."""
    rng = random.Random(seed)
    turns = 10 + rng.randint(0, 6) + (5 if game.variant == "long" else 0)
    scores = [rng.randint(15, 30) for _ in range(players)]
    winner = rng.randrange(players)
    scores[winner] = max(scores) + 1
    spaces = Counter({("farm", s): rng.randint(1, 4) for s in SPACES})
    charts = Counter({("raid", r): rng.randint(1, 3) for r in range(1, 7)})
    stats = [{"victory-points": scores[s], "food": rng.randint(0, 19),
              "resources": rng.randint(0, 9)} for s in range(players)]
    if log is not None:  # like the engine: a header event, then one event per roll
        log.append({"e": "game", "game": game.id, "players": players, "seed": seed,
                    "bots": list(bots)})
        log.extend({"e": "roll", "sides": 6, "value": rng.randint(1, 6)} for _ in range(3))
    return _result(game, players, seed, bots, turns, (winner,), scores, final_stats=stats,
                   space_counts=spaces, chart_counts=charts,
                   events=Counter(war=rng.randint(0, 3), trade=rng.randint(0, 2)),
                   decisions=turns * players, rolls=turns * players * 2)


def unbalanced_play(game, players, seed, bots, *, invariants="sample", log=None, max_turns=None):
    """Seat 0 wins 60%; 45% early eliminations; 10% timeouts; a dead space; a dead chart row;
    food clips 4 times a game; resources end at their cap; winners lead by half their score."""
    rng = random.Random(seed)
    turns = 12 + rng.randint(0, 4)
    ended = COMPLETED
    if rng.random() < TIMEOUTS:
        ended, turns = TIMEOUT, 40
    winner = 0 if rng.random() < SEAT0_WIN else rng.randrange(1, players)
    scores = [rng.randint(5, 10) for _ in range(players)]
    scores[winner] = 24
    eliminations = []
    if rng.random() < EARLY_OUT:
        eliminations.append(Elimination(seat=players - 1, turn=rng.randint(2, 5), cause="population"))
    spaces = Counter({("farm", s): rng.randint(1, 4) for s in SPACES if s != "drought"})
    charts = Counter({("raid", r): rng.randint(8, 12) for r in range(1, 6)})
    stats = [{"victory-points": scores[s], "food": rng.randint(0, 20), "resources": 10}
             for s in range(players)]
    return _result(game, players, seed, bots, turns, (winner,), scores, ended=ended,
                   eliminations=eliminations, final_stats=stats, space_counts=spaces,
                   chart_counts=charts, cap_clips=Counter(food=4))


def tied_play(game, players, seed, bots, *, invariants="sample", log=None, max_turns=None):
    """Every game a tie between all players."""
    return _result(game, players, seed, bots, 10, tuple(range(players)), [12] * players,
                   final_stats=[{"victory-points": 12}] * players)


def broken_play(game, players, seed, bots, *, invariants="sample", log=None, max_turns=None):
    """fair_play, but one game in about seven breaks an invariant and one in about eleven crashes."""
    if seed % 11 == 0:
        raise KeyError("no-such-space")
    result = fair_play(game, players, seed, bots, invariants=invariants, log=log)
    if seed % 7 == 0:
        result.violations.append("food went above its cap of 20")
    return result


#: share of games won by a seat the `greedy` bot plays, in the skilled fake
SKILLED_WIN = 0.7


def skilled_play(game, players, seed, bots, *, invariants="sample", log=None, max_turns=None):
    """fair_play, except that a seat played by `greedy` wins SKILLED_WIN of the games."""
    result = fair_play(game, players, seed, bots, invariants=invariants, log=log)
    rng = random.Random(seed * 7 + 1)
    skilled = [s for s, b in enumerate(bots) if b == "greedy"]
    others = [s for s in range(players) if s not in skilled]
    pool = skilled if skilled and (not others or rng.random() < SKILLED_WIN) else others
    winner = rng.choice(pool)
    scores = list(result.scores)
    scores[winner] = max(scores) + 1
    return _result(game, players, seed, bots, result.turns, (winner,), scores,
                   final_stats=result.final_stats, space_counts=result.space_counts,
                   chart_counts=result.chart_counts)


def half_unwon_play(game, players, seed, bots, *, invariants="sample", log=None, max_turns=None):
    """skilled_play, but every other game ends with no winner (everybody out)."""
    result = skilled_play(game, players, seed, bots, invariants=invariants, log=log)
    if seed % 2:
        result.winners, result.margin = (), 0
    return result
