"""The mcts bot's fresh-pairs test (mcts.CONFIRM) against the winner's curse.

The root's playouts both choose the rival (the most visited option) and test it against the
greedy pick, so a rival that was lucky early is the one that looks surest. In the toy dice
game of tests/fixtures/search-games/lucky.py the pots a, b and c are worth the same and
greedy takes a: every departure to b or c is a false one. Pot d is made better than its
estimate says (`GENEROUS`) to check that a real edge still gets through.
"""

from __future__ import annotations

import pytest
from test_mcts_bot import play_twice_and_replay
from test_search_bot import toy

from pnp.engine import mcts
from pnp.engine.play import play_game
from pnp.engine.registry import module_for

GAMES = 20


def _play(monkeypatch, confirm: float, generous: int, play: str = "tree") -> list[str]:
    """Play GAMES lucky games, mcts:16 against greedy (its bots kept by the `made` fixture);
    the mcts seat's picks."""
    game = toy("lucky.py")
    monkeypatch.setattr(mcts, "CONFIRM_PLAY", play)
    monkeypatch.setattr(module_for(game), "GENEROUS", generous)
    monkeypatch.setattr(mcts, "CONFIRM", confirm)
    picks: list[str] = []
    for seed in range(GAMES):
        log: list = []
        result = play_game(game, 2, seed, ["mcts:16", "greedy"], invariants="all", log=log)
        assert not result.violations
        picks += [e["value"] for e in log if e["e"] == "choice" and e["seat"] == 0]
    return picks


def test_without_fresh_pairs_lucky_equal_pots_are_taken_more_often_than_the_test_allows(
        monkeypatch, made):
    """The curse itself: the root test at SURE = 2 should let about one decision in 40 between
    equal options leave greedy's pick; selection on the same playouts makes it several times
    that (measured: 11 of 120 at these seeds, against about 3 the test allows)."""
    picks = _play(monkeypatch, 0.0, 0)
    false = sum(p != "a" for p in picks)
    assert false > 2 * len(picks) / 40


@pytest.mark.parametrize("play", ["tree", "rollout"])
def test_fresh_pairs_keep_the_greedy_pick_between_equal_pots(monkeypatch, made, play):
    picks = _play(monkeypatch, 1.0, 0, play)
    assert sum(b.confirmations for b in made) > 0  # rivals did pass the root test ...
    assert set(picks) == {"a"}  # ... and none passed it again on worlds it had not seen


@pytest.mark.parametrize("play", ["tree", "rollout"])
def test_fresh_pairs_still_let_a_real_edge_through(monkeypatch, made, play):
    picks = _play(monkeypatch, 1.0, 2, play)
    assert picks.count("d") >= 1
    assert set(picks) <= {"a", "d"}


def test_a_game_with_fresh_pairs_repeats_and_replays_exactly(monkeypatch):
    monkeypatch.setattr(module_for(toy("lucky.py")), "GENEROUS", 2)
    monkeypatch.setattr(mcts, "CONFIRM", 1.0)
    play_twice_and_replay(toy("lucky.py"), seed=3)


@pytest.mark.parametrize("confirm", [0.0, 1.0])
def test_fresh_pairs_cost_nothing_where_no_rival_passes_the_root_test(monkeypatch, made,
                                                                       confirm):
    """In the race (no estimates) the root test never runs, so neither do fresh pairs."""
    monkeypatch.setattr(mcts, "CONFIRM", confirm)
    monkeypatch.setattr(mcts, "SETTLE", False)  # every decision spends its whole budget
    play_game(toy("race.py"), 2, 3, ["mcts:8", "random"])
    assert sum(b.confirmations for b in made) == 0
    assert sum(b.iterations_run for b in made) == 8 * sum(b.searched for b in made)


def test_an_unknown_way_to_play_the_fresh_pairs_is_refused(monkeypatch, made):
    with pytest.raises(ValueError, match="CONFIRM_PLAY"):
        _play(monkeypatch, 1.0, 0, "paranoid")
