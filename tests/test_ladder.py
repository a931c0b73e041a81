"""The skill ladder (pnp ladder, pnp/engine/ladder.py): fake games whose true skill depth is
known, and the command on the starter game."""

from __future__ import annotations

import json
import random

from click.testing import CliRunner

from pnp.cli import main
from pnp.engine.executor import make_executor
from pnp.engine.ladder import ladder_problem, run_ladder, with_skill
from pnp.scaffold import scaffold
from tests.test_selfplay_fakes import _result, fake_game

#: how strong each bot is in the skill fake: mcts:4 is no stronger than mcts:2
STRENGTH = {"random": 0, "greedy": 1, "mcts:2": 2, "mcts:4": 2}


def luck_play(game, players, seed, bots, *, invariants="sample", log=None, max_turns=None):
    """Whoever plays, the dice alone pick the winner."""
    winner = random.Random(seed).randrange(players)
    return _result(game, players, seed, bots, 10, (winner,),
                   [5 + (s == winner) for s in range(players)])


def skill_play(game, players, seed, bots, *, invariants="sample", log=None, max_turns=None):
    """The strongest bot at the table wins; equally strong ones share the dice."""
    top = max(STRENGTH[b] for b in bots)
    best = [s for s, b in enumerate(bots) if STRENGTH[b] == top]
    winner = random.Random(seed).choice(best)
    return _result(game, players, seed, bots, 10, (winner,),
                   [5 + (s == winner) for s in range(players)])


def ladder(play, rungs=("random", "greedy", "mcts:2", "mcts:4"), players=3, every=False):
    with make_executor(1) as executor:
        return run_ladder(fake_game(), rungs, players, 120, executor=executor, play=play,
                          every_step=every)


def test_a_game_of_luck_does_not_climb_and_says_so():
    doc = ladder(luck_play)
    assert len(doc["steps"]) == 1 and doc["depth"] == 0  # stopped at the first flat step
    assert not doc["steps"][0]["climbs"]
    [finding] = doc["findings"]
    assert finding["code"] == "PNP-B026" and finding["severity"] == "warning"
    assert "More thinking does not win more" in finding["message"]


def test_skill_climbs_until_it_flattens():
    doc = ladder(skill_play, every=True)
    assert [s["climbs"] for s in doc["steps"]] == [True, True, False]
    assert doc["depth"] == 2 and doc["flattened_at"] == "mcts:4"
    assert doc["steps"][0]["win_rate"] == 1.0 and doc["steps"][0]["fair_share"] == 0.3333
    messages = [f["message"] for f in doc["findings"]]
    assert any(m.startswith("The first step already wins nearly always") for m in messages)
    assert any(m.startswith("Skill pays for 2 steps of the ladder, up to mcts:2") for m in messages)


def test_one_seat_against_the_lower_bot_everywhere_else():
    doc = ladder(skill_play, rungs=("random", "greedy"), players=4)
    step = doc["steps"][0]
    assert step["games"] == 120 and step["seat_games"] == 120  # one greedy seat a game


def test_bad_ladders_are_refused():
    assert ladder_problem(("greedy",), 2)
    assert "named twice" in ladder_problem(("greedy", "random", "greedy"), 2)
    assert ladder_problem(("random", "greedy"), 3) is None


def test_the_command_on_the_starter_game(tmp_path):
    folder = tmp_path / "starter"
    scaffold(folder, "Starter")
    runner = CliRunner()
    result = runner.invoke(main, ["ladder", str(folder), "--rungs", "random,greedy",
                                  "--games", "40", "--format", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["steps"][0]["upper"] == "greedy" and doc["steps"][0]["climbs"]
    text = runner.invoke(main, ["ladder", str(folder), "--rungs", "random,greedy",
                                "--games", "40", "--report", str(tmp_path / "l.pdf")])
    assert text.exit_code == 0 and "greedy vs random" in text.output
    assert (tmp_path / "l.pdf").read_bytes().startswith(b"%PDF")
    bad = runner.invoke(main, ["ladder", str(folder), "--rungs", "greedy,greedy"])
    assert bad.exit_code == 2 and "named twice" in bad.output


def test_a_later_climb_is_said_when_every_step_is_played():
    """Strengths 0, 1, 2, 2, 3: the third step is flat, the fourth climbs again."""
    STRENGTH.update({"mcts:8": 3})
    try:
        doc = ladder(skill_play, rungs=("random", "greedy", "mcts:2", "mcts:4", "mcts:8"),
                     every=True)
    finally:
        del STRENGTH["mcts:8"]
    assert [s["climbs"] for s in doc["steps"]] == [True, True, False, True]
    assert any("a later step climbs again: mcts:8 wins" in f["message"]
               for f in doc["findings"])


def crash_play(game, players, seed, bots, *, invariants="sample", log=None, max_turns=None):
    """The rules raise whenever the random bot plays; otherwise a game of luck."""
    if "random" in bots:
        raise KeyError("boom")
    return luck_play(game, players, seed, bots)


def sometimes_crash_play(game, players, seed, bots, *, invariants="sample", log=None,
                         max_turns=None):
    """A game of luck whose rules raise in about a quarter of the games."""
    if seed % 4 == 0:
        raise KeyError("boom")
    return luck_play(game, players, seed, bots)


def test_a_step_whose_every_game_crashed_says_so_and_claims_no_skill():
    """The crash is the finding, with the step it came from; 'more thinking does not win more'
    would be read off games that never ran."""
    doc = ladder(crash_play)
    assert doc["steps"][0]["crashed"] == doc["steps"][0]["games"] == 120
    [finding] = doc["findings"]
    assert finding["code"] == "PNP-B001" and finding["severity"] == "error"
    assert finding["message"].startswith("Crashed in 120 of 120 games of the step greedy "
                                         "against random: engine raised KeyError: 'boom'")


def test_a_step_where_some_games_crashed_reports_them_beside_its_skill_finding():
    doc = ladder(sometimes_crash_play)
    step = doc["steps"][0]
    assert 0 < step["crashed"] < step["games"]
    codes = [f["code"] for f in doc["findings"]]
    assert codes.count("PNP-B001") == 1 and "PNP-B026" in codes
    assert f"Crashed in {step['crashed']} of 120 games of the step" in doc["findings"][0]["message"]


def test_a_ladder_counts_its_progress_across_steps():
    seen = []
    with make_executor(1) as executor:
        doc = run_ladder(fake_game(), ("random", "greedy", "mcts:2"), 3, 30, executor=executor,
                         play=skill_play, every_step=True, progress=seen.append)
    assert seen == sorted(seen) and seen[-1] == sum(s["games"] for s in doc["steps"]) == 60


def test_simulate_merges_a_flat_skill_check_into_its_findings():
    """A game of luck: the skill check's warning joins the run's findings, most severe first."""
    report = {"findings": [{"severity": "info", "code": "PNP-B001", "message": "a"},
                           {"severity": "error", "code": "PNP-B009", "message": "b"}]}
    doc = with_skill(report, ladder(luck_play, rungs=("random", "greedy")))
    assert [f["code"] for f in doc["findings"]] == ["PNP-B009", "PNP-B026", "PNP-B001"]
    assert doc["skill"]["depth"] == 0 and not doc["skill"]["steps"][0]["climbs"]
    assert set(doc["skill"]) == {"rungs", "games_per_step", "steps", "depth", "flattened_at",
                                 "violations"}
    assert "cpu_seconds_per_game" not in doc["skill"]["steps"][0]  # no timings: same for any -w
    assert with_skill({"findings": []}, None, "one player")["skill_skipped"] == "one player"


def test_simulate_prints_skill_depth(tmp_path):
    """Done-when of issue 20: `pnp simulate` prints skill depth (greedy against random on the
    run's seeds by default), and --skill none leaves it out."""
    folder = tmp_path / "starter"
    scaffold(folder, "Starter")
    runner = CliRunner()
    result = runner.invoke(main, ["simulate", str(folder), "--games", "30", "--format", "json"])
    assert result.exit_code == 0, result.output
    skill = json.loads(result.stdout)["skill"]
    assert skill["rungs"] == ["random", "greedy"] and skill["games_per_step"] == 30
    [step] = skill["steps"]
    assert step["upper"] == "greedy" and step["climbs"] and skill["depth"] == 1
    text = runner.invoke(main, ["simulate", str(folder), "--games", "30"]).output
    assert "Skill      greedy in one seat against random: won" in text
    assert "depth 1 of 1 step (random < greedy)" in text
    off = runner.invoke(main, ["simulate", str(folder), "--games", "4", "--skill", "none",
                               "--format", "json"])
    assert off.exit_code == 0 and json.loads(off.stdout)["skill"] is None
    bad = runner.invoke(main, ["simulate", str(folder), "--skill", "greedy"])
    assert bad.exit_code == 2 and "--skill" in bad.output and "two rungs" in bad.output
    unknown = runner.invoke(main, ["simulate", str(folder), "--skill", "random,wizard"])
    assert unknown.exit_code == 2 and "--skill" in unknown.output


def test_simulate_skips_the_skill_check_at_one_player():
    result = CliRunner().invoke(main, ["simulate", "age-of-civilization", "--players", "1",
                                       "--games", "2", "--format", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["skill"] is None and "one player" in doc["skill_skipped"]
