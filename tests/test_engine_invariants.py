"""Every registered game, played by random and greedy bots for every player count, keeps every
invariant at every step (every variant of every game, with random bots and more checks:
tests/test_conformance.py)."""

from __future__ import annotations

from collections import Counter

from conftest import BUNDLED

from pnp.engine.play import metadata, play_game
from pnp.engine.registry import ENGINES
from pnp.engine.result import ALL_OUT, COMPLETED, TIMEOUT

SEEDS_PER_COUNT = 20
#: Antike's games run 50+ rounds at every count from 2 to 6: fewer seeds keep this test
#: seconds long (the slow conformance sweep plays more of them)
FEWER_SEEDS = {"antike": 4}


def test_every_engine_has_a_bundled_game() -> None:
    assert {g.engine for g in BUNDLED.values()} == set(ENGINES)


def test_metadata_is_what_the_data_declares(bundled_game) -> None:
    game = bundled_game
    meta = metadata(game)
    assert (meta.players_min, meta.players_max) == (game.players_min, game.players_max)
    assert meta.max_turns == game.rule("end", "max_turns")
    for stat in game.stats.values():
        if not stat.derived:
            assert meta.counter_bounds[stat.id] == (stat.min, stat.cap)
    assert meta.has_chance == (game.id != "antike")  # Antike has no dice and no shuffle
    assert meta.phases == tuple(p.id for p in game.phases)


def test_random_and_greedy_games_keep_every_invariant_at_every_step(bundled_game) -> None:
    game = bundled_game
    meta = metadata(game)
    ended: Counter = Counter()
    for players in range(meta.players_min, meta.players_max + 1):
        for seed in range(FEWER_SEEDS.get(game.id, SEEDS_PER_COUNT)):
            bots = [("random", "greedy")[(seed + seat) % 2] for seat in range(players)]
            r = play_game(game, players, 1000 * players + seed, bots, invariants="all")
            assert r.violations == [], (players, seed, r.violations)
            assert r.ended in (COMPLETED, TIMEOUT, ALL_OUT)
            assert 1 <= r.turns <= meta.max_turns
            assert set(r.winners) <= set(range(players))
            assert len(r.scores) == len(r.final_stats) == players
            for stats in r.final_stats:
                for stat, (lo, hi) in meta.counter_bounds.items():
                    assert (lo is None or lo <= stats[stat]) and (hi is None or stats[stat] <= hi)
            ended[r.ended] += 1
    assert ended[COMPLETED] > 0


def test_a_short_turn_cap_is_a_timeout_not_a_hang(bundled_game) -> None:
    r = play_game(bundled_game, 4, 7, ["random"], invariants="all", max_turns=1)
    assert r.ended in (TIMEOUT, COMPLETED) and r.turns == 1
