"""The greedy-varied bot: greedy's judgement, its ties broken at random (seeded)."""

from __future__ import annotations

from types import SimpleNamespace

from pnp.engine.bots import GreedyBot, VariedGreedyBot
from pnp.engine.core import GameMeta, OptionTable


def _state(vp: int = 0):
    return SimpleNamespace(players=[SimpleNamespace(counters={"vp": vp})], stage="play")


META = GameMeta("t", 1, 1, 10, {"vp": (0, None)}, has_chance=False)
#: four options worth 1, 3, 3 and 0 points: the middle two tie for best
TABLE = OptionTable(["a", "b", "c", "d"], [{"vp": 1}, {"vp": 3}, {"vp": 3}, {"vp": 0}])


def _picks(seed: int, n: int = 40) -> list[int]:
    bot = VariedGreedyBot(seed, 0, META)
    return [bot.choose(_state(), 0, TABLE.options, "buy", TABLE) for _ in range(n)]


def test_greedy_varied_picks_only_among_greedys_best_and_greedy_takes_the_first_of_them():
    greedy = GreedyBot(1, 0, META)
    assert greedy.choose(_state(), 0, TABLE.options, "buy", TABLE) == 1
    picks = [p for seed in range(5) for p in _picks(seed)]
    assert set(picks) == {1, 2}  # both tied options, never a worse one


def test_greedy_varied_is_the_same_for_a_seed_and_differs_across_seeds():
    assert _picks(7) == _picks(7)
    assert _picks(7) != _picks(8)


def test_greedy_varied_without_estimates_treats_every_option_as_tied():
    bot = VariedGreedyBot(3, 0, META)
    picks = {bot.choose(_state(), 0, ["x", "y", "z"], "pick", None) for _ in range(60)}
    assert picks == {0, 1, 2}


def test_a_lone_best_option_is_always_taken():
    table = OptionTable(["a", "b"], [{"vp": 1}, {"vp": 2}])
    bot = VariedGreedyBot(5, 0, META)
    assert {bot.choose(_state(), 0, table.options, "buy", table) for _ in range(30)} == {1}
