"""The mcts bot's opponent model in the tree (mcts.OPPONENTS).

"tree": every seat's decision below the root gets a node, picked by UCB for the seat deciding
(max-n). "model": only the searching seat's decisions get nodes; the others are played by the
rollout bot, as TAG's MCTS does with its opponent tree policy SelfOnly. The toy race of
tests/fixtures/search-games has both seats decide every turn, so a tree of either kind is deep.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from test_mcts_bot import play_twice_and_replay
from test_search_bot import toy

from pnp.engine import mcts
from pnp.engine.play import play_game

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "mcts_bot.py"


def _descendants(node: mcts._Node, depth: int = 1):
    """(depth, key) of every node below `node`; a key is (seat, why, option label)."""
    for key, child in node.children.items():
        yield depth, key
        yield from _descendants(child, depth + 1)


def _roots(monkeypatch, mode: str, bots: list[str], seed: int = 7) -> list[tuple[int, mcts._Node]]:
    """Play the race with OPPONENTS=`mode` and keep every searched decision's (seat, root)."""
    monkeypatch.setattr(mcts, "OPPONENTS", mode)
    roots: list[tuple[int, mcts._Node]] = []
    decide = mcts.MctsBot.decide

    def keep(self, root, state, seat, options, why, outcomes, hint):
        roots.append((seat, root))
        return decide(self, root, state, seat, options, why, outcomes, hint)

    monkeypatch.setattr(mcts.MctsBot, "decide", keep)
    result = play_game(toy("race.py"), 2, seed, bots, invariants="all")
    assert not result.violations
    return roots


@pytest.mark.parametrize("bots", [["mcts:24", "random"], ["random", "mcts:24"]])
def test_with_an_opponent_model_no_other_seat_gets_a_tree_node(monkeypatch, bots):
    roots = _roots(monkeypatch, "model", bots)
    assert len(roots) > 3
    deepest = 0
    for seat, root in roots:
        for depth, (at_seat, _, _) in _descendants(root):
            assert at_seat == seat
            deepest = max(deepest, depth)
    assert deepest >= 2  # the searching seat's own later decisions still get nodes


@pytest.mark.parametrize("bots", [["mcts:24", "random"], ["random", "mcts:24"]])
def test_with_the_tree_every_seat_gets_tree_nodes(monkeypatch, bots):
    roots = _roots(monkeypatch, "tree", bots)
    others = [key for seat, root in roots for _, key in _descendants(root) if key[0] != seat]
    assert others  # the opponent's replies are nodes of the searching seat's tree


@pytest.mark.parametrize(("mode", "depth"), [("tree", 1), ("tree", 2), ("model", 1), ("model", 2)])
def test_no_tree_node_is_deeper_than_tree_depth(monkeypatch, mode, depth):
    """TREE_DEPTH 1 is flat Monte Carlo over the root's options; 2 adds one decision below."""
    monkeypatch.setattr(mcts, "TREE_DEPTH", depth)
    roots = _roots(monkeypatch, mode, ["mcts:24", "random"])
    depths = [d for _, root in roots for d, _ in _descendants(root)]
    assert max(depths) == depth


def test_an_opponent_model_keeps_games_repeatable_and_replays_exact(monkeypatch, made):
    monkeypatch.setattr(mcts, "OPPONENTS", "model")
    play_twice_and_replay(toy("race.py"))
    assert all(bot.mismatches == 0 for bot in made) and made[0].searched > 3


def test_an_unknown_opponent_setting_is_refused(monkeypatch):
    monkeypatch.setattr(mcts, "OPPONENTS", "paranoid")
    with pytest.raises(ValueError, match="OPPONENTS"):
        play_game(toy("race.py"), 2, 1, ["mcts:2", "random"])


def test_the_benchmark_sets_a_text_constant_as_text_and_the_others_as_numbers(monkeypatch):
    spec = importlib.util.spec_from_file_location("mcts_bot_bench", BENCH)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)  # type: ignore[union-attr]
    monkeypatch.setattr(mcts, "OPPONENTS", "tree")
    monkeypatch.setattr(mcts, "EXPLORE", 0.7)
    bench.set_constant("OPPONENTS=model")
    bench.set_constant("EXPLORE=2")
    assert mcts.OPPONENTS == "model" and mcts.EXPLORE == 2.0
    with pytest.raises(SystemExit, match="no constant"):
        bench.set_constant("NOPE=1")
    mine = [{"game": 0, "seat": 0, "mcts": 1.0}, {"game": 1, "seat": 1, "mcts": 0.0},
            {"game": 2, "seat": 0, "mcts": 1.0}]
    other = [{"game": 0, "seat": 0, "mcts": 0.0}, {"game": 1, "seat": 1, "mcts": 0.0},
             {"game": 2, "seat": 0, "mcts": 0.0}]
    gain, low, high = bench.paired_gain(mine, other)
    assert gain == pytest.approx(2 / 3) and low < gain < high
    with pytest.raises(SystemExit, match="same games"):
        bench.paired_gain(mine, other[:2])


def test_the_t_root_test_asks_more_of_a_rival_seen_in_few_pairs(monkeypatch):
    # three pairs, mean difference 0.73, 2.75 standard errors: enough for "z" at SURE 2, not
    # for Student's t with 2 degrees of freedom (4.5 at the same level)
    mine, theirs = [1.0, 0.2, 1.0], [0.0, 0.0, 0.0]
    monkeypatch.setattr(mcts, "SURE_TEST", "z")
    assert mcts._surely_better(mine, theirs)
    monkeypatch.setattr(mcts, "SURE_TEST", "t")
    assert not mcts._surely_better(mine, theirs)
    # with thirty such pairs both agree
    assert mcts._surely_better(mine * 10, theirs * 10)
    monkeypatch.setattr(mcts, "SURE_TEST", "w")
    with pytest.raises(ValueError, match="SURE_TEST"):
        mcts._surely_better(mine, theirs)
