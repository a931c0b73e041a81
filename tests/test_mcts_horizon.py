"""The mcts bot's rollout horizon (mcts.HORIZON): playouts cut at a step boundary some turns
on and valued by the module's own `finish` of the state there.

The toy harvest of tests/fixtures/search-games makes the value known: `later` pays three
points at the last round, `now` one point at once, so a cut playout prefers `now` and a
playout to the end prefers `later`.
"""

from __future__ import annotations

import pytest
from test_search_bot import toy

from pnp.engine import bots as bots_mod
from pnp.engine import mcts
from pnp.engine.play import metadata, play_game, replay_log
from pnp.engine.result import TIMEOUT, GameResult
from pnp.engine.search import _Playout, playout_value
from pnp.engine.state import PlayerState, State


class _Always:
    """A playout seat that always takes the first option (`now` in the harvest)."""

    def choose(self, state, seat, options, why, outcomes=None):
        return 0


def test_a_cut_playout_is_the_finish_of_the_state_at_the_cut(monkeypatch):
    """Seat 0 stores (`later`) in round 1, then both seats take `now`; a horizon of 2 turns
    from turn 1 cuts at the step that ends round 2 (turn 3 begins): seat 0 has 1 point and 1
    stored, seat 1 has 2 points, and nothing stored has been paid."""
    monkeypatch.setattr(mcts, "HORIZON", 2)
    game = toy("harvest.py")
    bot = mcts.MctsBot(1, 0, metadata(game), 4)
    bot.attach(game, 2, None, 6)  # type: ignore[arg-type]  # play_out never reads the real game

    def branch(p, seat, options, why):
        p.until = p.ctx.state.turn + bot.horizon

    source = _Playout([], 1, "t", [_Always(), _Always()], branch)
    state, result = bot.play_out(source)
    assert source.cut and state.turn == 3
    assert [(p.counters["points"], p.counters["stored"]) for p in state.players] == [(1, 1), (2, 0)]
    assert result.scores == (1, 2) and result.ended == TIMEOUT and result.winners == ()
    assert mcts.leaders_now(result, state) == (1,)  # the score if the game ended now
    result.winners = mcts.leaders_now(result, state)
    assert playout_value(result, 0) == pytest.approx(0.05 * (1 - 2) / 2)
    assert playout_value(result, 1) == pytest.approx(1 + 0.05 * (2 - 1) / 2)
    # without a horizon the same playout runs to the end, where the stored harvest pays
    whole = _Playout([], 1, "t", [_Always(), _Always()], lambda *a: None)
    state, result = bot.play_out(whole)
    assert not whole.cut and result.scores == (5 + 3, 6) and result.winners == (0,)


def test_leaders_now_leaves_out_a_seat_that_is_out():
    state = State([PlayerState({"p": 9}, out=True), PlayerState({"p": 4}),
                   PlayerState({"p": 4})])
    result = GameResult(game="g", seed=0, players=3, bots=("x",) * 3)
    result.scores = (9, 4, 4)
    assert mcts.leaders_now(result, state) == (1, 2)
    result.winners = (0,)  # a finished game's own winners stand
    assert mcts.leaders_now(result, state) == (0,)


def _first_pick(log: list) -> str:
    return next(e["value"] for e in log if e["e"] == "choice" and e["seat"] == 0)


@pytest.mark.parametrize(("horizon", "pick"), [(0, "later"), (1, "now")])
def test_the_search_reads_the_cut_value(monkeypatch, made, horizon, pick):
    """To the end, storing wins; cut a round on, the point in hand leads."""
    monkeypatch.setattr(mcts, "HORIZON", horizon)
    log: list = []
    result = play_game(toy("harvest.py"), 2, 3, ["mcts:16", "random"], log=log,
                       invariants="all")
    assert not result.violations
    assert _first_pick(log) == pick
    bot = made[0]
    if horizon:  # the last round's playouts reach the horizon at the game's end: not cut
        assert 0 < bot.cut < bot.iterations_run
    else:
        assert bot.cut == 0


def _log(game, players, bots, horizon, monkeypatch, **kw) -> list:
    monkeypatch.setattr(mcts, "HORIZON", horizon)
    log: list = []
    play_game(game, players, 5, bots, log=log, **kw)
    return log


def test_no_horizon_plays_as_a_horizon_past_the_game_does(monkeypatch, starter_game):
    """HORIZON=0 installs nothing new; a horizon no playout reaches watches every step and
    changes nothing: the same picks, dice and final state, in a module that resumes at steps
    (the starter game) and in one that does not (the toy)."""
    for game, players in ((toy("harvest.py"), 2), (starter_game, 2)):
        bots = ["mcts:4", "greedy"]
        assert (_log(game, players, bots, 0, monkeypatch)
                == _log(game, players, bots, 1000, monkeypatch))


class _Watching(mcts.MctsBot):
    """An mcts bot that checks the real game is untouched by its search."""

    def choose(self, state, seat, options, why, outcomes):
        real = self.real
        if real is None or len(options) < 2:
            return super().choose(state, seat, options, why, outcomes)
        before, trace, decisions = real.state.copy(), list(real.trace), real.decisions
        pick = super().choose(state, seat, options, why, outcomes)
        assert real.state == before and real.trace == trace and real.decisions == decisions
        return pick


def test_a_cut_leaves_the_real_game_as_it_was(monkeypatch, starter_game):
    monkeypatch.setattr(mcts, "HORIZON", 1)
    made: list = []

    def make(seed, seat, meta, hints, iterations=None):
        bot = _Watching(seed, seat, meta, iterations, hints=hints)
        made.append(bot)
        return bot

    monkeypatch.setitem(bots_mod.BOTS, "mcts", make)
    log: list = []
    result = play_game(starter_game, 2, 7, ["mcts:4", "greedy"], log=log, invariants="all")
    assert not result.violations and made[0].cut > 0 and made[0].mismatches == 0
    final, again = replay_log(starter_game, log)
    assert final == State.from_json(log[-1]["state"]) and again.winners == result.winners


def test_a_module_without_standing_has_none_and_the_ancient_world_scores_mid_game(game_defs):
    """The Ancient World fills victory points only when the last round is scored, so `finish`
    of a mid-game state says 0 for everyone; its `standing` hook scores the state as it is,
    without changing it."""
    from pnp.engine.core import Context, SeededDice
    from pnp.engine.module import Rules
    from pnp.engine.play import rules

    class Bare:
        metadata = new_state = play = finish = None

    assert Rules(Bare).standing(None, State([])) is None  # type: ignore[arg-type]
    game = game_defs("the-ancient-world")
    module = rules(game)
    state = module.new_state(game, 2)
    seen: list = []

    def hook(ctx, label):
        if label == "end-of-round" and state.turn == 4:
            before = state.copy()
            seen.append(module.standing(game, state))
            assert state == before
            raise StopIteration

    result = GameResult(game=game.id, seed=3, players=2, bots=("greedy",) * 2)
    from pnp.engine.bots import make_bots

    meta = module.metadata(game)
    ctx = Context(state, SeededDice(3), make_bots(["greedy"], 2, 3, meta, module.bot_hints(game)),
                  result, on_step=hook)
    with pytest.raises(StopIteration):
        module.play(game, ctx, meta.max_turns)
    assert [p.counters["victory-points"] for p in state.players] == [0, 0]
    (scores,) = seen
    assert len(scores) == 2 and max(scores) > 0


def test_a_cut_in_the_ancient_world_is_valued_by_its_standing(monkeypatch, made, game_defs):
    monkeypatch.setattr(mcts, "HORIZON", 1)
    game = game_defs("the-ancient-world")
    cut: list = []  # the scores of every cut playout, as valued
    leaders = mcts.leaders_now
    monkeypatch.setattr(mcts, "leaders_now", lambda r, st: cut.append(r.scores) or leaders(r, st))
    result = play_game(game, 2, 2, ["mcts:2", "greedy"], invariants="all", max_turns=3)
    assert not result.violations and len(cut) == made[0].cut > 0
    assert any(max(s) > 0 for s in cut)  # not the all-zero score of finish mid-game
