"""`pnp simulate --game INDEX` plays one game of a run alone, with the full run's seed and
seats, so the game a finding names (PNP-B002's first game at the turn cap) can be looked at
by itself: last session that took a script playing the soak's 500 games one by one."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from pnp.cli import main
from pnp.scaffold import scaffold


def _simulate(*args: str):
    return CliRunner().invoke(main, ["simulate", *args, "--skill", "none"])


def _logs(path: Path) -> list[list[dict]]:
    """The games of a --log file, each from its header event (`"e": "game"`) on."""
    games: list[list[dict]] = []
    for line in path.read_text().splitlines():
        event = json.loads(line)
        if event.get("e") == "game" or not games:
            games.append([])
        games[-1].append(event)
    return games


def test_b002_names_the_first_capped_game_and_game_plays_it_alone(tmp_path) -> None:
    folder = tmp_path / "caravan"
    scaffold(folder)
    run = _simulate(str(folder), "--players", "3", "--games", "12", "--max-turns", "6",
                    "--bots", "random,greedy", "--format", "json", "--log",
                    str(tmp_path / "all.jsonl"), "--log-games", "12")
    doc = json.loads(run.stdout)
    first = doc["outcomes"]["first_timeout"]
    assert doc["outcomes"]["timeouts"] > 0 and first is not None
    [b002] = [f["message"] for f in doc["findings"] if f["code"] == "PNP-B002"]
    assert f"the first was game {first['game']} (seed {first['seed']}): `pnp simulate` with " \
        in b002 and f"`--game {first['game']} --log FILE` plays it alone" in b002

    for index in (first["game"], 7):
        one = _simulate(str(folder), "--players", "3", "--games", "12", "--max-turns", "6",
                        "--bots", "random,greedy", "--format", "json", "--game", str(index),
                        "--log", str(tmp_path / f"one-{index}.jsonl"))
        assert one.exit_code == 0, one.output
        alone = json.loads(one.stdout)
        assert alone["games"] == 1 and alone["only_game"]["game"] == index
        assert alone["only_game"]["of"] == 12
        # the same game as in the full run: its whole event log, seed and seats included
        assert _logs(tmp_path / f"one-{index}.jsonl") == [_logs(tmp_path / "all.jsonl")[index]]
    text = _simulate(str(folder), "--players", "3", "--games", "12", "--game", "7")
    assert text.output.startswith("caravan (base rules): game 7 (its seed ")
    assert " in 1 games" not in text.output
    assert "of a run of 12 games" in text.output


def test_b001_names_how_to_play_the_first_broken_game_alone(tmp_path) -> None:
    """A rules module that raises in some games: the crash finding says how to play the first
    one alone, and that game crashes alone too."""
    from broken_games import edit, starter

    folder = starter(tmp_path, "caravan")
    rules = folder / "rules.py"
    edit(rules, "def play(game, ctx", "def _play(game, ctx")
    with rules.open("a") as f:
        f.write("\n\ndef play(game, ctx, *args, **kwargs):\n"
                "    if ctx.roll(3, 'omen') == 3:\n"
                "        raise RuntimeError('a third of the games break')\n"
                "    return _play(game, ctx, *args, **kwargs)\n")
    run = _simulate(str(folder), "--players", "2", "--games", "20", "--format", "json")
    doc = json.loads(run.stdout)
    [b001] = [f["message"] for f in doc["findings"] if f["code"] == "PNP-B001"]
    first = doc["violations"][0]["first_game"]
    assert 0 < doc["outcomes"]["crashed"] < 20 and "a third of the games break" in b001
    assert f"`pnp simulate` with the run's options and `--game {first}` plays it alone" in b001
    alone = _simulate(str(folder), "--players", "2", "--games", "20", "--game", str(first),
                      "--format", "json")
    assert alone.exit_code == 1
    assert json.loads(alone.stdout)["outcomes"]["crashed"] == 1


def test_a_game_outside_the_run_is_a_usage_error(tmp_path) -> None:
    folder = tmp_path / "caravan"
    scaffold(folder)
    result = _simulate(str(folder), "--players", "2", "--games", "10", "--game", "10")
    assert result.exit_code == 2
    assert "a run of 10 games has games 0 to 9" in result.output


def test_the_pdf_of_one_game_says_which_game_it_is(tmp_path) -> None:
    import pdfplumber

    folder = tmp_path / "caravan"
    scaffold(folder)
    pdf = tmp_path / "one.pdf"
    result = _simulate(str(folder), "--players", "2", "--games", "12", "--game", "3",
                       "--report", str(pdf))
    assert result.exit_code == 0, result.output
    with pdfplumber.open(pdf) as doc:
        first = " ".join((doc.pages[0].extract_text() or "").split())
    assert "game 3 (its seed " in first and "of a run of 12 games" in first
