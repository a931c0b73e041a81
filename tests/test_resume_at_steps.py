"""Search bots replay a game from its last step, not its start, when the rules module says it
resumes at steps (RESUMES_AT_STEPS): every bundled module must play on from a state saved at
any step exactly as it played on from there, resuming must change no pick, and a module that
says so falsely is caught."""

from __future__ import annotations

import pytest
from conftest import BUNDLED, variant_params
from test_search_bot import toy

from pnp.data.game import load_game
from pnp.engine import search
from pnp.engine.core import Context, Replay, trace_from_log
from pnp.engine.play import play_game, rules
from pnp.engine.result import GameResult
from pnp.scaffold import scaffold


def plays_on_alike(game, players: int, seed: int, bots: list[str]) -> int:
    """Play a game, then replay it, and from a copy of the state at every step play on with
    the rest of its dice and decisions: each must end in the game's own final state, winners
    and scores. Returns how many steps were tried."""
    log: list = []
    play_game(game, players, seed, bots, invariants="none", log=log)
    trace = trace_from_log(log)
    module = rules(game)
    meta = module.metadata(game)
    saved = []

    def keep(ctx: Context, label: str) -> None:
        saved.append((ctx.state.copy(), len(ctx.trace), ctx.steps, label))

    def result() -> GameResult:
        return GameResult(game=game.id, seed=0, players=players, bots=("r",) * players)

    source = Replay(trace)
    final = module.new_state(game, players)
    ctx = Context(final, source, [source] * players, result(), None, keep,
                  meta.zone_visibility)
    module.play(game, ctx, meta.max_turns)
    module.finish(game, ctx)
    assert saved, "the game has no steps"
    for at, pos, step, label in saved:
        rest = Replay(trace[pos:])
        state = at.copy()
        again = Context(state, rest, [rest] * players, result(), None, None,
                        meta.zone_visibility)
        module.play(game, again, meta.max_turns)
        module.finish(game, again)
        where = f"seed {seed}, step {step} ({label}, turn {at.turn})"
        assert rest.left() == 0, where
        assert state == final, where
        assert (again.result.winners, again.result.scores) == (ctx.result.winners,
                                                               ctx.result.scores), where
    return len(saved)


@pytest.mark.parametrize("engine", sorted(BUNDLED))
def test_every_bundled_module_says_it_resumes_at_steps(engine, game_defs):
    assert rules(game_defs(engine)).module.RESUMES_AT_STEPS is True


@pytest.mark.parametrize("engine", sorted(BUNDLED))
def test_a_bundled_game_plays_on_from_every_step_as_it_played(engine, game_defs):
    game = game_defs(engine)
    low = BUNDLED[engine].players_min
    assert plays_on_alike(game, max(low, 2), 21, ["greedy"]) > 3
    assert plays_on_alike(game, max(low, 3), 22, ["random", "greedy", "greedy"][:max(low, 3)])


@pytest.mark.slow
@pytest.mark.parametrize(("engine", "variant"), variant_params(BUNDLED))
def test_every_variant_plays_on_from_every_step_as_it_played(engine, variant, game_defs):
    game = game_defs(engine, variant)
    top = BUNDLED[engine].players_max
    for seed, players, bots in ((31, min(top, 4), ["greedy"]),
                                (32, BUNDLED[engine].players_min, ["random"])):
        plays_on_alike(game, players, seed, bots)


def test_the_starter_game_plays_on_from_every_step_as_it_played(tmp_path):
    scaffold(tmp_path / "starter")
    game = load_game(tmp_path / "starter").game
    assert rules(game).module.RESUMES_AT_STEPS is True
    for seed, players in ((41, 2), (42, 4)):
        assert plays_on_alike(game, players, seed, ["greedy", "random"] * (players // 2)) > 3


def plain_recaller(self, source):
    return lambda compute, *args: compute(*args)


@pytest.mark.parametrize(("engine", "players", "turns"), [
    ("age-of-civilization", 3, None), ("the-ancient-world", 2, 2),
    ("ancient-civilizations", 3, 4)])
def test_resuming_changes_no_pick(engine, players, turns, game_defs, made, monkeypatch):
    """The same game, with the module's flag on and off: the same log, event for event."""
    game = game_defs(engine)
    module = rules(game).module
    logs = []
    for flag in (True, False):
        monkeypatch.setattr(module, "RESUMES_AT_STEPS", flag)
        if not flag:  # and every `ctx.recall` computed afresh, as in the real game
            monkeypatch.setattr(search.Replaying, "_recaller", plain_recaller)
        log: list = []
        result = play_game(game, players, 5, ["mcts:2"] + ["greedy"] * (players - 1),
                           invariants="none", log=log, max_turns=turns)
        assert not result.violations
        logs.append(log)
    assert logs[0] == logs[1]
    resumed, plain = made
    assert resumed.resume is not None and resumed.resume.pos > 0  # it did start later
    assert plain.resume is None
    assert resumed.iterations_run == plain.iterations_run > 0


def test_the_starter_game_with_mcts_resumes_and_picks_the_same(tmp_path, made, monkeypatch):
    scaffold(tmp_path / "starter")
    game = load_game(tmp_path / "starter").game
    module = rules(game).module
    logs = []
    for flag in (True, False):
        monkeypatch.setattr(module, "RESUMES_AT_STEPS", flag)
        log: list = []
        play_game(game, 2, 3, ["mcts:4", "greedy"], log=log)
        logs.append(log)
    assert logs[0] == logs[1] and made[0].resume is not None


def test_a_module_that_says_it_resumes_but_forgets_is_caught_by_the_sampled_replay():
    # the first game a process plays of a definition is replayed, and resumed from a step
    result = play_game(toy("forgetful.py"), 2, 7, ["random", "random"])
    assert any("RESUMES_AT_STEPS" in v for v in result.violations), result.violations


def test_without_the_flag_the_same_module_is_not_faulted(monkeypatch):
    game = toy("forgetful.py")
    monkeypatch.setattr(rules(game).module, "RESUMES_AT_STEPS", False)
    assert play_game(game, 2, 7, ["random", "random"]).violations == []


def test_a_module_that_says_it_resumes_but_forgets_is_caught_by_mcts(made):
    # seat 2 decides after seat 1 has moved this turn, by a step the forgetful replay shortens
    result = play_game(toy("forgetful.py"), 2, 7, ["random", "mcts:2"], invariants="none")
    assert made[0].mismatches >= 1
    assert any("not deterministic" in v for v in result.violations), result.violations


def test_what_replays_recall_is_what_they_would_compute(game_defs, made, monkeypatch):
    """The Ancient World's turn options in search replays (taken from the first replay of a
    stretch) against the options worked out afresh on the replay's own state."""
    taken = []
    recaller = search.Replaying._recaller

    def checking(self, source):
        inner = recaller(self, source)

        def recall(compute, *args):
            before = len(self.recalled)
            got = inner(compute, *args)
            fresh = compute(*args)
            assert got[0] == fresh[0] and got[1] == fresh[1]
            assert list(got[1]) == list(fresh[1])  # the same estimates in the same order
            if not source.branched and len(self.recalled) == before:
                taken.append(got)  # not computed here: taken from an earlier replay
            return got

        return recall

    monkeypatch.setattr(search.Replaying, "_recaller", checking)
    result = play_game(game_defs("the-ancient-world"), 3, 8, ["mcts:3", "greedy", "greedy"],
                       invariants="none", max_turns=2)
    assert not result.violations and len(taken) > 50


def test_a_recall_that_draws_or_decides_is_not_kept():
    class Source:
        branched = off_script = False
        pos = 3

    bot = search.Replaying()
    bot.recalled, source = [], Source()
    recall = bot._recaller(source)

    def rolls():
        source.pos += 1  # as a die from the trace would
        return "rolled"

    assert recall(rolls) == "rolled" and bot.recalled == []
    assert recall(lambda: "pure") == "pure" and bot.recalled == []  # its turn was the roll's
    bot.calls = 0
    assert recall(lambda: "pure") == "pure" and bot.recalled == ["pure"]
    bot.calls = 0
    assert recall(lambda: "other") == "pure"  # the same call of a later replay: taken
    source.branched = True
    assert recall(lambda: "other") == "other"  # past the decision searched: computed
