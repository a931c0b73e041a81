"""The search bot: flat Monte Carlo by trace replay, for any rules module.

Small rules modules in tests/fixtures/search-games make the right answer known: a race where
one option is clearly best, a guessing game where peeking at a hidden hand would pay, and a
module that breaks determinism (its replays drift).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.data.model import GameDef
from pnp.engine import bots as bots_mod
from pnp.engine.bots import bot_factory
from pnp.engine.core import MAIN, GameMeta
from pnp.engine.play import play_game, replay_log
from pnp.engine.result import GameResult
from pnp.engine.search import DEFAULT_PLAYOUTS, SearchBot, pick_option, playout_value
from pnp.engine.state import State

GAMES = Path(__file__).parent / "fixtures" / "search-games"


def toy(engine: str) -> GameDef:
    name = engine.removesuffix(".py")
    return GameDef(id=name, name=name.title(), folder=GAMES, players_min=2, players_max=2,
                   engine=engine)


def wins(game: GameDef, bots: list[str], games: int, **kw) -> dict[str, float]:
    """Win credit per bot name, the two bots swapping seats every game."""
    out = dict.fromkeys(bots, 0.0)
    for seed in range(games):
        seats = bots if seed % 2 == 0 else bots[::-1]
        r = play_game(game, 2, seed, seats, **kw)
        assert not r.violations, r.violations
        for w in r.winners:
            out[seats[w]] += 1 / len(r.winners)
    return out


@pytest.fixture
def made(monkeypatch) -> list[SearchBot]:
    """Every search bot play_game makes, kept so a test can read its counters."""
    out: list[SearchBot] = []

    def search(seed, seat, meta, hints, playouts=None):
        bot = SearchBot(seed, seat, meta, playouts, hints=hints)
        out.append(bot)
        return bot

    monkeypatch.setitem(bots_mod.BOTS, "search", search)
    return out


def test_search_beats_random_in_a_race_where_one_option_is_best():
    score = wins(toy("race.py"), ["search:8", "random"], 20, invariants="all")
    assert score["search:8"] >= 17


class Scripted(SearchBot):
    """A search bot whose playouts are worth fixed values per option (no game is played)."""

    def __init__(self, values: list[float]):
        meta = GameMeta(game="x", players_min=2, players_max=2, max_turns=1, counter_bounds={})
        super().__init__(1, 0, meta, 4)
        self.values = values
        self.real = type("Ctx", (), {"trace": [], "decisions": 0})()

    def playout(self, prefix, pick, tag, seat, options, why, check) -> float:
        return self.values[pick]


def test_search_picks_the_best_mean_and_breaks_ties_to_the_earliest():
    state = State([], stage=MAIN)
    assert Scripted([0.2, 0.7, 0.7, 0.1]).choose(state, 0, "abcd", "x", None) == 1
    assert Scripted([0.5, 0.5, 0.5]).choose(state, 0, "abc", "x", None) == 0
    assert Scripted([0.0, 0.0, 1e-6]).choose(state, 0, "abc", "x", None) == 2


def test_a_better_option_replaces_the_default_only_when_the_playouts_are_sure():
    # option 1 won one playout of four more than option 0: luck, not a better option
    assert pick_option([[0, 0, 0, 0], [1, 0, 0, 0]], default=0) == 0
    # three more wins of four: taken
    assert pick_option([[0, 0, 0, 0], [1, 1, 1, 0]], default=0) == 1
    # the default may be any option (the greedy playout bot's own pick)
    assert pick_option([[1, 1, 1, 0], [0, 0, 0, 0], [1, 1, 1, 1]], default=2) == 2
    assert pick_option([[0, 0, 0, 0], [1, 1, 1, 0]], default=0, margin=0) == 1


def test_search_runs_in_the_race_nearly_always():
    log: list = []
    play_game(toy("race.py"), 2, 3, ["search:8", "random"], log=log)
    picks = [e["value"] for e in log if e["e"] == "choice" and e["seat"] == 0]
    assert len(picks) >= 3
    assert picks.count("run") >= len(picks) - 1  # a step may do as well next to the goal


def test_the_win_share_outweighs_the_margin_term():
    won_narrowly = GameResult("x", 0, 2, (), winners=(0,), scores=(10, 9))
    lost_closely = GameResult("x", 0, 2, (), winners=(1,), scores=(9, 10))
    tied = GameResult("x", 0, 2, (), winners=(0, 1), scores=(10, 10))
    assert playout_value(won_narrowly, 0) > playout_value(tied, 0) > playout_value(lost_closely, 0)
    assert 0.99 < playout_value(won_narrowly, 0) < 1.01
    assert playout_value(won_narrowly, 1) < 0.0 < playout_value(tied, 1)


def test_search_picks_are_the_same_for_the_same_seed():
    game = toy("race.py")
    logs = []
    for _ in range(2):
        log: list = []
        play_game(game, 2, 11, ["search:3", "search:3"], log=log)
        logs.append(log)
    assert logs[0] == logs[1]
    other: list = []
    play_game(game, 2, 12, ["search:3", "search:3"], log=other)
    assert other != logs[0]


def test_a_game_with_a_search_bot_replays_from_its_log_to_the_identical_final_state():
    game = toy("race.py")
    log: list = []
    result = play_game(game, 2, 5, ["search:3", "random"], log=log, invariants="all")
    assert not result.violations
    end = log[-1]
    assert end["e"] == "end"
    final, again = replay_log(game, log)
    assert final == State.from_json(end["state"])
    assert again.winners == result.winners


def test_the_replayed_prefix_reaches_the_real_state_at_every_decision(made):
    result = play_game(toy("race.py"), 2, 7, ["search:2", "random"])
    (bot,) = made
    assert bot.searched > 5
    assert bot.checked == bot.searched and bot.mismatches == 0
    assert not result.violations


def test_a_rules_module_whose_replays_drift_is_reported(made):
    result = play_game(toy("drift.py"), 2, 7, ["search:2", "random"])
    (bot,) = made
    assert bot.mismatches >= 1
    assert any("not deterministic" in v for v in result.violations)


def guess_games(monkeypatch, hide: bool) -> list[tuple[str, str, str]]:
    """(seat 0's card, seat 1's card, seat 0's guess) over 40 seeded games."""
    def search(seed, seat, meta, playouts=None):
        bot = SearchBot(seed, seat, meta, 32)
        bot.hide = hide
        return bot

    monkeypatch.setitem(bots_mod.BOTS, "search", search)
    out = []
    for seed in range(40):
        log: list = []
        play_game(toy("guess.py"), 2, seed, ["search", "random"], log=log)
        hands = [e["cards"][0] for e in log if e["e"] == "draw"]
        guess = next(e["value"] for e in log if e["e"] == "choice")
        out.append((hands[0], hands[1], guess))
    return out


def test_search_does_not_see_a_hidden_hand(monkeypatch):
    games = guess_games(monkeypatch, hide=True)
    assert any(theirs == "high" for _, theirs, _ in games)
    # what seat 0 can see (its own card) says `low` is the better guess: it always says `low`
    assert all(guess == "low" for _, _, guess in games)


def test_a_search_that_peeked_would_guess_the_hidden_card(monkeypatch):
    """The check above can fail: without redeterminizing, the playouts know seat 1's card."""
    games = guess_games(monkeypatch, hide=False)
    assert all(guess == theirs for _, theirs, guess in games)


def test_a_budget_is_named_after_a_colon():
    meta = GameMeta(game="race", players_min=2, players_max=2, max_turns=40, counter_bounds={})
    assert bot_factory("search")(1, 0, meta).playouts == DEFAULT_PLAYOUTS
    assert bot_factory("search:32")(1, 0, meta).playouts == 32
    bot = bot_factory("search-greedy:5")(1, 0, meta)
    assert (bot.playouts, bot.policy) == (5, "greedy")
    for bad, message in (("search:0", "whole number from 1"), ("search:x", "whole number"),
                         ("random:3", "takes no budget"), ("genius", "unknown bot")):
        with pytest.raises(ValueError, match=message):
            bot_factory(bad)


def test_many_options_share_the_budget():
    meta = GameMeta(game="race", players_min=2, players_max=2, max_turns=40, counter_bounds={})
    bot = SearchBot(1, 0, meta, 8)
    assert bot.budget(2) == 8 and bot.budget(8) == 8
    assert bot.budget(16) == 4 and bot.budget(100) == 1


def test_a_search_bot_outside_play_game_says_why_it_cannot_play():
    meta = GameMeta(game="race", players_min=2, players_max=2, max_turns=40, counter_bounds={})
    with pytest.raises(RuntimeError, match="through play_game"):
        SearchBot(1, 0, meta).choose(State([], stage=MAIN), 0, ["a", "b"], "x", None)


def test_search_replays_ancient_civilizations_exactly_at_every_decision(ac, made):
    """The real rules module: each searched decision's replayed prefix reaches the real state,
    and the game, search bot and all, replays from its log (two turns, one playout)."""
    log: list = []
    result = play_game(ac, 2, 3, ["search:1", "random"], invariants="all", max_turns=2, log=log)
    (bot,) = made
    assert bot.searched >= 10
    assert bot.checked == bot.searched and bot.mismatches == 0
    assert not result.violations
    final, _ = replay_log(ac, log)
    assert final == State.from_json(log[-1]["state"])
