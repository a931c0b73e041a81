"""The mcts bot: information-set MCTS by trace replay, for any rules module.

The toy modules of tests/fixtures/search-games make the right answer known: a race where one
option is clearly best, a guessing game where peeking at a hidden hand would pay, and a
module whose replays drift.
"""

from __future__ import annotations

import pytest
from test_search_bot import toy, wins

from pnp.engine import mcts
from pnp.engine.bots import bot_factory
from pnp.engine.core import MAIN, GameMeta
from pnp.engine.play import play_game, replay_log
from pnp.engine.state import State

META = GameMeta(game="race", players_min=2, players_max=2, max_turns=40, counter_bounds={})


def test_mcts_beats_random_in_a_race_where_one_option_is_best():
    """Measured: 50 of 60 games (search:8, with 24 playouts a decision to mcts:16's 16
    iterations, wins 58). A random bot wins 15 of 20 about 2% of the time."""
    score = wins(toy("race.py"), ["mcts:16", "random"], 20, invariants="all")
    assert score["mcts:16"] >= 15


def test_mcts_runs_in_the_race_nearly_always():
    log: list = []
    play_game(toy("race.py"), 2, 3, ["mcts:24", "random"], log=log)
    picks = [e["value"] for e in log if e["e"] == "choice" and e["seat"] == 0]
    assert len(picks) >= 3
    assert picks.count("run") > len(picks) / 2  # random would run a third of the time


def play_twice_and_replay(game, seed: int = 11) -> tuple[list, object]:
    """Play the same mcts game twice and replay its log: the two logs must be equal, and the
    replay must reach the same final state and winners. Returns the log and the result."""
    logs, results = [], []
    for _ in range(2):
        log: list = []
        results.append(play_game(game, 2, seed, ["mcts:8", "mcts:8"], log=log,
                                 invariants="all"))
        logs.append(log)
    assert logs[0] == logs[1] and not results[0].violations
    final, again = replay_log(game, logs[0])
    assert final == State.from_json(logs[0][-1]["state"])
    assert again.winners == results[0].winners
    return logs[0], results[0]


def test_the_same_seed_gives_the_same_game_and_the_log_replays_it_exactly():
    game = toy("race.py")
    log, _ = play_twice_and_replay(game)
    other: list = []
    play_game(game, 2, 12, ["mcts:8", "mcts:8"], log=other)
    assert other != log


def test_every_replay_reaches_the_real_decision(made):
    result = play_game(toy("race.py"), 2, 7, ["mcts:4", "random"])
    (bot,) = made
    assert bot.searched > 5 and bot.iterations_run == 4 * bot.searched
    assert bot.mismatches == 0 and not result.violations


def test_a_rules_module_whose_replays_drift_is_reported(made):
    result = play_game(toy("drift.py"), 2, 7, ["mcts:2", "random"])
    assert made[0].mismatches >= 1
    assert any("not deterministic" in v for v in result.violations)


def test_mcts_does_not_see_a_hidden_hand():
    """Seat 0 sees its own card only, so `low` is its best guess every time; a bot that
    peeked at seat 1's hand would say `high` whenever seat 1 holds it."""
    guesses, theirs = [], []
    for seed in range(30):
        log: list = []
        play_game(toy("guess.py"), 2, seed, ["mcts:32", "random"], log=log)
        hands = [e["cards"][0] for e in log if e["e"] == "draw"]
        theirs.append(hands[1])
        guesses.append(next(e["value"] for e in log if e["e"] == "choice"))
    assert "high" in theirs
    assert set(guesses) == {"low"}


def test_a_budget_is_iterations_per_decision():
    assert bot_factory("mcts")(1, 0, META).iterations == mcts.DEFAULT_ITERATIONS
    assert bot_factory("mcts:100")(1, 0, META).iterations == 100
    for bad in ("mcts:0", f"mcts:{mcts.MAX_ITERATIONS + 1}", "mcts:x"):
        with pytest.raises(ValueError, match="iterations per decision"):
            bot_factory(bad)


def test_one_option_costs_nothing_and_no_game_means_no_search():
    bot = mcts.MctsBot(1, 0, META, 4)
    assert bot.choose(State([], stage=MAIN), 0, ["only"], "x", None) == 0
    with pytest.raises(RuntimeError, match="through play_game"):
        bot.choose(State([], stage=MAIN), 0, ["a", "b"], "x", None)


def test_max_n_each_seat_picks_for_itself():
    """A node keeps one reward per seat and each seat's decision reads its own: the deciding
    seat's best child, not the root seat's."""
    node = mcts._Node(2)
    walk = mcts._Walk(None, node, None)  # type: ignore[arg-type]

    class Rollout:
        def hint(self, *args):
            return 0

    walk.rollout = Rollout()  # type: ignore[assignment]
    node.visits = 100
    for label, (mine, theirs) in (("a", (0.9, 0.1)), ("b", (0.1, 0.9))):
        child = node.children[(1, "x", label)] = mcts._Node(2)
        child.visits, child.avail, child.total = 50, 100, [mine * 50, theirs * 50]
    assert walk.step(State([], stage=MAIN), 1, ["a", "b"], "x", None) == 1  # seat 1: "b"


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["age-of-civilization", "ancient-civilizations"])
def test_mcts_plays_a_bundled_game_without_a_violation(engine, game_defs):
    game = game_defs(engine)
    result = play_game(game, 3, 5, ["mcts:2", "greedy", "greedy"], invariants="all",
                       max_turns=3)
    assert result.violations == []


@pytest.mark.parametrize("module", ["race.py", "harvest.py", "guess.py"])
def test_a_settled_decision_stops_early_and_plays_the_same_game(monkeypatch, made, module):
    """SETTLE stops a decision's iterations once its pick cannot change: the same log (every
    pick, every die) as with the whole budget, for fewer iterations."""
    runs = []
    for settle in (True, False):
        monkeypatch.setattr(mcts, "SETTLE", settle)
        made.clear()
        log: list = []
        play_game(toy(module), 2, 3, ["mcts:16", "greedy"], log=log)
        runs.append((log, sum(b.iterations_run for b in made),
                     16 * sum(b.searched for b in made)))
    (settled, used, _), (whole, spent, budget) = runs
    assert settled == whole
    assert spent == budget and used < budget


def test_a_pick_is_settled_only_when_no_option_can_catch_it():
    root = mcts._Node(1)
    keys = [(0, "x", label) for label in ("a", "b", "c")]
    for label, visits in (("a", 10), ("b", 3)):
        child = root.children[(0, "x", label)] = mcts._Node(1)
        child.visits, child.total = visits, [visits * 0.5]
    assert mcts._settled(root, keys, 0, 0, 6)  # b (3) + 6 left < 10; c, unopened, at 6 too
    assert not mcts._settled(root, keys, 0, 0, 7)  # b could draw level
    assert not mcts._settled(root, keys, 0, 1, 0)  # the leader is not the pick asked about
    assert mcts._settled(root, keys, 0, None, 6)  # no pick asked about: the leader
    assert not mcts._settled(mcts._Node(1), keys, 0, None, 0)  # nothing visited yet


def test_the_greedy_pick_is_left_only_for_a_sure_gain_world_by_world():
    # one world in four better: luck, not a better option
    assert not mcts._surely_better([1, 0, 0, 0], [0, 0, 0, 0])
    # better in most worlds, never worse: taken
    assert mcts._surely_better([1, 1, 1, 0, 1, 1], [0, 0, 0, 0, 0, 0])
    # the same mean gap but unpaired noise (worse in some worlds) is not enough
    assert not mcts._surely_better([1, 0, 1, 0, 1, 0], [0, 1, 0, 0, 0, 1])
    assert not mcts._surely_better([1], [0])


@pytest.mark.parametrize("bot", ["mcts:8", "search:2"])
def test_cards_the_rules_hold_while_a_seat_decides_stay_in_their_zone(bot):
    """The toy explore game looks at the deck's top two cards, asks, then moves those very
    objects. Re-dealing the hidden cards by moving objects put them elsewhere (a crash in The
    Ancient World with mcts:8, 3 players, seed 1, game 5); re-dealing their faces keeps them."""
    for seed in range(4):
        result = play_game(toy("explore.py"), 2, seed, [bot, "random"], invariants="all")
        assert not result.violations and result.ended == "completed"


@pytest.mark.parametrize("bot", ["mcts:1", "search:1"])
def test_a_search_seat_in_the_civilization_draft_leaves_the_others_picks_alone(bot, game_defs):
    """Age of Civilization's drafting variant: every seat picks from its pack at once. The
    picks used to wait in the open until all were made, so a search seat's re-dealt hidden
    cards could move an earlier seat's pick out of its pack (every game crashed with
    StopIteration in setup). Each pick now goes into its hidden hand as it is made."""
    game = game_defs("age-of-civilization", "drafting")
    for seed in range(2):
        result = play_game(game, 3, seed, ["greedy", bot, "greedy"], invariants="all",
                           max_turns=1)
        assert result.violations == [] and result.ended != "crashed"


def test_in_a_game_without_chance_greedys_tie_break_is_no_judgement_to_keep():
    """The tied race: every option is estimated alike and greedy's first is `wait`. Keeping
    greedy's first tied option unless surely beaten, with rollouts that wait too, mcts:16
    won 0 of 20 against greedy-varied; taking any of greedy's tied best, with rollouts that
    break ties at random, it won 17."""
    score = wins(toy("tied.py"), ["mcts:16", "greedy-varied"], 20, invariants="all")
    assert score["mcts:16"] >= 14
    log: list = []
    play_game(toy("tied.py"), 2, 3, ["mcts:1", "greedy"], log=log)
    picks = [e["value"] for e in log if e["e"] == "choice" and e["seat"] == 0]
    assert len(set(picks)) == 3  # one iteration: a tied option at random, not always `wait`


def test_in_a_game_with_chance_greedys_first_tied_option_stays_the_reference():
    """The same tie in a game that declares chance: the rollouts and the reference pick are
    plain greedy's, so one iteration plays greedy's first tied option every time (the
    bundled games with dice keep the bot they were measured with)."""
    import dataclasses

    game = dataclasses.replace(toy("tied.py"), id="tied-chance")
    log: list = []
    play_game(game, 2, 3, ["mcts:1", "greedy"], log=log)
    picks = [e["value"] for e in log if e["e"] == "choice" and e["seat"] == 0]
    assert picks and set(picks) == {"wait"}
