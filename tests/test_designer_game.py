"""A designer's own game self-plays: `pnp new` writes a rules module that `pnp simulate` plays,
games without one get a single clear diagnostic, and only the commands that play import it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.paths import SCHEMAS
from pnp.scaffold import RULES


def run(*args: str):
    return CliRunner().invoke(main, [*args])


@pytest.fixture
def demo(tmp_path) -> Path:
    folder = tmp_path / "demo"
    result = run("new", str(folder))
    assert result.exit_code == 0, result.output
    return folder


def without_engine(folder: Path) -> None:
    game = folder / "game.yaml"
    game.write_text("".join(line for line in game.read_text().splitlines(keepends=True)
                            if not line.startswith("engine:")))


def line_of(path: Path, prefix: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1)
                if line.startswith(prefix))


# --------------------------------------------------------------------------- the scaffold plays


def test_new_game_simulates_200_games_with_coverage_and_no_violations(demo):
    result = run("simulate", str(demo), "--games", "200", "--bots", "random,greedy",
                 "--format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["violations"] == [] and doc["outcomes"]["crashed"] == 0
    cards = doc["coverage"]["card"]
    assert len(cards) == 18 and all(n > 0 for n in cards.values()), cards
    assert doc["never_seen"] == {"spaces": [], "chart_results": [], "coverage": []}
    assert sum(doc["spaces"]["road"].values()) > 200 * 5  # several moves a game
    assert doc["turns"]["mean"] > 5 and doc["outcomes"]["completion_rate"] > 0.9
    assert doc["rolls_per_game"] > 0 and doc["decisions_per_game"] > 0
    bots = {b["bot"]: b for b in doc["bots"]}
    assert bots["greedy"]["ci95"][0] > bots["random"]["ci95"][1]  # its decisions matter


def test_new_game_report_lists_cards_used(demo):
    result = run("simulate", str(demo), "--games", "20")
    assert result.exit_code == 0, result.output
    assert "Used       cards 18 of 18, spaces 10 of 10" in result.stdout


def test_starter_rules_module_is_short_and_uses_only_the_public_api(demo):
    text = (demo / "rules.py").read_text()
    assert text == RULES.read_text()
    assert len(text.splitlines()) <= 125
    imports = [line for line in text.splitlines() if re.match(r"(from|import) ", line)]
    assert imports == ["from pnp.engine.api import ("]
    assert "engine: rules.py" in (demo / "game.yaml").read_text()


def test_the_starter_rules_read_the_turn_cap_and_end_condition_from_the_data(demo):
    game = demo / "game.yaml"
    game.write_text(game.read_text().replace('game_ends_when: "VP >= 10"',
                                             'game_ends_when: "VP >= 1000"')
                    .replace("max_turns: 40", "max_turns: 7"))
    result = run("simulate", str(demo), "--games", "20", "--format", "json")
    doc = json.loads(result.stdout)
    assert doc["outcomes"]["timeouts"] == 20 and doc["turns"]["max"] == 7


def test_a_scenario_sets_the_deck_and_checks_counters_on_the_new_game(demo, tmp_path):
    schema = os.path.relpath(SCHEMAS / "scenario.schema.json", tmp_path)
    text = f"""# yaml-language-server: $schema={schema}
name: A bought card costs Gold; a free card happens at once
game: demo
players: 2
stop: market
state:
  players:
    - counters: {{G: 5}}
    - counters: {{G: 3}}
  zones:
    market: [silk, bandits]
dice: [3, 4]
choices:
  - {{seat: 0, pick: 3}}
  - {{seat: 1, pick: 4}}
  - {{seat: 0, pick: buy}}
expect:
  - after: market
    players:
      - counters: {{G: 2, VP: 2, F: 0}}
        positions: {{road: dunes}}
      - counters: {{G: 1, F: 2}}
        positions: {{road: oasis}}
    zones:
      discard: [silk, bandits]
    coverage: {{card/market/silk: 1, card/market/bandits: 1}}
"""
    good = tmp_path / "buy-silk.yaml"
    good.write_text(text)
    result = run("scenario", str(good))
    assert result.exit_code == 0, result.output
    bad = tmp_path / "buy-silk-wrong.yaml"
    bad.write_text(text.replace("{G: 2, VP: 2, F: 0}", "{G: 5, VP: 2, F: 0}"))
    result = run("scenario", str(bad))
    assert result.exit_code == 1
    assert "seat 0 gold: expected 5, got 2" in result.output


# --------------------------------------------------------------------------- no rules module


@pytest.mark.parametrize("command", [["simulate"], ["compare", "--variant", "other"]])
def test_a_game_without_rules_module_gets_one_diagnostic_not_a_report(demo, command):
    without_engine(demo)
    result = run(command[0], str(demo), *command[1:], "--games", "5")
    assert result.exit_code == 1
    line = line_of(demo / "game.yaml", "id:")
    assert re.search(rf"game\.yaml:{line}:1: error PNP-M001: game 'demo' has no rules module",
                     result.output), result.output
    assert "engine: rules.py" in result.output and "pnp new" in result.output
    assert "PNP-B0" not in result.output and "Invariant" not in result.output
    assert result.output.count("error") == 1


def test_an_unknown_engine_is_reported_at_its_line(demo):
    game = demo / "game.yaml"
    game.write_text(game.read_text().replace("engine: rules.py", "engine: my-rules"))
    result = run("simulate", str(demo), "--games", "5")
    assert result.exit_code == 1
    assert f"game.yaml:{line_of(game, 'engine:')}:1: error PNP-M001" in result.output
    assert "'my-rules'" in result.output


def test_a_scenario_on_a_game_without_rules_module_fails_clearly(demo, tmp_path):
    without_engine(demo)
    schema = os.path.relpath(SCHEMAS / "scenario.schema.json", tmp_path)
    scenario = tmp_path / "s.yaml"
    scenario.write_text(f"# yaml-language-server: $schema={schema}\nname: n\ngame: demo\n"
                        "players: 2\nexpect:\n  - {turn: 1}\n")
    result = run("scenario", str(scenario))
    assert result.exit_code == 1
    assert "s.yaml:3: game 'demo' has no rules module" in result.output


@pytest.mark.parametrize("source, line, words", [
    ("import os\n\nraise RuntimeError('boom')\n", 3, "RuntimeError: boom"),
    ("def metadata(game:\n", 1, "SyntaxError"),
    ("def metadata(game): ...\ndef new_state(game, players): ...\n"
     "def play(game, ctx, max_turns): ...\n", 1, "missing: finish"),
])
def test_a_rules_module_that_does_not_load_is_reported_at_its_file(demo, source, line, words):
    (demo / "rules.py").write_text(source)
    for command in (["simulate", str(demo)], ["compare", str(demo), "--variant", "x"]):
        result = run(*command, "--games", "3")
        assert result.exit_code == 1
        assert f"rules.py:{line}:1: error PNP-M002" in result.output, result.output
        assert words in result.output and "PNP-B0" not in result.output


# --------------------------------------------------------------------------- who imports game code


def test_validate_and_build_never_import_game_code(demo, tmp_path):
    marker = tmp_path / "imported"
    (demo / "rules.py").write_text(f"from pathlib import Path\nPath({str(marker)!r}).touch()\n"
                                   "raise RuntimeError('game code ran')\n")
    result = run("validate", str(demo))
    assert result.exit_code == 0, result.output
    result = run("build", str(demo), "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert any((tmp_path / "out").rglob("*.pdf"))
    assert not marker.exists()
    result = run("simulate", str(demo), "--games", "2")
    assert result.exit_code == 1 and "RuntimeError: game code ran" in result.output
    assert marker.exists()  # the marker works: playing does import the rules module


def test_the_pdf_report_of_a_new_game_shows_its_cards(demo, tmp_path):
    pdfplumber = pytest.importorskip("pdfplumber")
    report = tmp_path / "report.pdf"
    result = run("simulate", str(demo), "--games", "10", "--report", str(report))
    assert result.exit_code == 0, result.output
    with pdfplumber.open(report) as pdf:
        text = "\n".join(page.extract_text() or "" for page in pdf.pages)
    assert "How often each card and action space was used" in text
    assert "Tax Collector" in text and "Caravanserai" in text


# --------------------------------------------------------------------------- a rules module that raises

PLAY = "    st, fx = ctx.state, Effects(game, ctx)\n"
FINISH = "def finish(game, ctx) -> None:\n"
METADATA = "    return GameMeta("
BREAKS = {  # where the rules module goes wrong: (the line replaced, what comes before it, words)
    "raise in play": (PLAY, "    raise KeyError('no-such-space')\n", "KeyError: 'no-such-space'"),
    "raise in finish": (FINISH, FINISH + "    raise ValueError('no winner')\n",
                        "ValueError: no winner"),
    "raise in metadata": (METADATA, "    raise RuntimeError('no meta')\n" + METADATA,
                          "RuntimeError: no meta"),
    "endless recursion": (PLAY, "    return play(game, ctx, max_turns)\n",
                          "RecursionError: maximum recursion depth exceeded"),
    "a counter holding a string": (PLAY, "    ctx.state.players[0].counters['gold'] = 'lots'\n"
                                   + PLAY, "TypeError: '<' not supported"),
    "sys.exit(0)": (PLAY, "    raise SystemExit(0)\n", "SystemExit: 0"),
}


def break_rules(demo: Path, how: str) -> int:
    """Break the demo's rules.py as BREAKS[how] says; the 1-based line of the broken code."""
    old, new, _ = BREAKS[how]
    rules = demo / "rules.py"
    text = rules.read_text()
    at = text.index(old)
    rules.write_text(text[:at] + new + text[at + len(old):])
    first = text[:at].count("\n") + 1
    return first + (1 if how == "raise in finish" else 0)


@pytest.mark.parametrize("how", list(BREAKS))
def test_a_scenario_reports_the_rules_modules_own_error_at_its_line(demo, tmp_path, how):
    line = break_rules(demo, how)
    schema = os.path.relpath(SCHEMAS / "scenario.schema.json", tmp_path)
    scenario = tmp_path / "s.yaml"
    scenario.write_text(f"# yaml-language-server: $schema={schema}\nname: n\ngame: demo\n"
                        "players: 2\nbots: first\nexpect:\n  - players:\n"
                        "      - counters: {G: 5}\n")
    result = run("scenario", str(scenario))
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    if how != "a counter holding a string":  # that one raises in pnp's check of the state:
        # it is placed at the rules module's line that led there, which is not the edit
        assert f"rules.py:{line}:1: error PNP-S013: engine raised " in result.output
    assert "error PNP-S013: engine raised " + BREAKS[how][2] in result.output
    assert "hint: the rules module failed" in result.output
    as_json = json.loads(run("scenario", str(scenario), "--format", "json").stdout)
    [failure] = as_json["scenarios"][0]["failures"]
    assert failure["code"] == "PNP-S013" and failure["file"].endswith("rules.py")


def test_a_rules_module_calling_sys_exit_is_a_broken_game_not_a_clean_run(demo):
    break_rules(demo, "sys.exit(0)")
    for workers in ("1", "2"):
        result = run("simulate", str(demo), "--games", "6", "--workers", workers)
        assert result.exit_code == 1, result.output
        assert "PNP-B001" in result.output and "engine raised SystemExit: 0" in result.output


#: the market's line after which the tests below put their broken code
MARKET_DRAW = "    fields = card_data(game, DECK, card.card).fields\n"


def after_market_draw(demo: Path, code: str) -> int:
    """Put `code` (indented lines) into the demo's market right after it reads the drawn card;
    the 1-based line of its first line in rules.py."""
    rules = demo / "rules.py"
    text = rules.read_text()
    at = text.index(MARKET_DRAW) + len(MARKET_DRAW)
    rules.write_text(text[:at] + code + text[at:])
    return text[:at].count("\n") + 1


def break_market(demo: Path, when: str) -> int:
    """Make the demo's market call the API with a stat the game has not got, `when` the
    condition holds; the 1-based line of that call in rules.py."""
    return after_market_draw(demo, f"    if {when}:\n        fx.add(seat, 'nonsense', 1)\n") + 1


def test_a_run_whose_every_game_crashes_reports_the_error_at_the_designers_line_alone(
        demo, tmp_path):
    """An error raised inside pnp's API is placed at the rules module's line that called it,
    and a run in which every game crashed shows that error and nothing measured from games
    that never ran (no seat rates, no 'never used', no 'all alike', no skill ladder)."""
    pdfplumber = pytest.importorskip("pdfplumber")
    line = break_market(demo, "True")
    report = tmp_path / "report.pdf"
    result = run("simulate", str(demo), "--games", "12", "--report", str(report))
    assert result.exit_code == 1, result.output
    assert "every game crashed (12 of 12)" in result.output
    assert (f"Crashed in 12 of 12 games: engine raised KeyError: 'nonsense' "
            f"(at rules.py:{line}, raised in ") in result.output
    assert re.findall(r"PNP-B\d+", result.output) == ["PNP-B001"]
    assert "Seats" not in result.output and "Skill" not in result.output
    doc = json.loads(run("simulate", str(demo), "--games", "12", "--format", "json").stdout)
    assert doc["skill"] is None and "crashed" in doc["skill_skipped"]
    assert [f["code"] for f in doc["findings"]] == ["PNP-B001"]
    with pdfplumber.open(report) as pdf:
        assert len(pdf.pages) == 1
        text = pdf.pages[0].extract_text()
    assert "Every game crashed (12 of 12)" in text and "PNP-B001" in text
    laddered = run("ladder", str(demo), "--games", "12", "--report", str(tmp_path / "l.pdf"))
    assert laddered.exit_code == 1 and "every game crashed (12): nothing measured" in \
        laddered.output and "Depth      not measured" in laddered.output, laddered.output
    assert re.findall(r"PNP-B\d+", laddered.output) == ["PNP-B001"]
    with pdfplumber.open(tmp_path / "l.pdf") as pdf:
        assert "A step crashed in every game" in pdf.pages[0].extract_text()
    swept = run("sweep", str(demo), "--games", "12", "--players", "2")
    assert swept.exit_code == 1 and "every game crashed" in swept.output, swept.output
    assert "seat 1 +0.0" not in swept.output
    compared = run("compare", str(demo), "--games", "12", "--variant", "base")
    assert compared.exit_code == 1 and "base: crashed in 12 games: engine raised" in \
        compared.output, compared.output
    assert "every game of base crashed: nothing to compare" in compared.output
    assert "seat 1 " not in compared.output  # no table of games that never ran


def test_an_error_that_prints_a_whole_state_is_cut_short_and_counted_as_one(demo):
    """A module that raises with its state (different in every game) gets one finding of a
    readable length, not one screen-long finding a game."""
    after_market_draw(demo, "    if st.turn > 3:\n        raise ValueError('bad state ' + "
                            "'x' * 400 + repr(st.to_json()))\n")
    doc = json.loads(run("simulate", str(demo), "--games", "12", "--format", "json").stdout)
    [finding] = doc["findings"]
    assert finding["message"].startswith("Crashed in 12 of 12 games: engine raised ValueError: "
                                         "bad state xxx")
    assert len(finding["message"]) < 500 and "..." in finding["message"]


def test_a_probe_of_a_crashing_game_points_at_the_designers_line(demo):
    line = break_market(demo, "True")
    result = run("probe", str(demo), "--worths")
    assert result.exit_code == 1, result.output
    assert (f"game 1 crashed: KeyError: 'nonsense' (at rules.py:{line}, raised in "
            in result.output), result.output


def test_a_rules_modules_prints_go_to_stderr_so_the_json_report_stays_whole(demo, tmp_path):
    """A designer debugging with print() (at import and while playing) still gets a report a
    program can read on stdout, in one process or several, and sees the prints on stderr."""
    after_market_draw(demo, "    print('debug: drew', card.card)\n")
    rules = demo / "rules.py"
    rules.write_text("print('loading my rules')\n" + rules.read_text().replace(
        PLAY, PLAY + "    print('debug: playing')\n"))
    for workers in ("1", "2"):
        done = subprocess.run([sys.executable, "-m", "pnp", "simulate", str(demo), "--games",
                               "4", "--workers", workers, "--format", "json"],
                              capture_output=True, text=True, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["games"] == 4
        assert "loading my rules" in done.stderr and "debug: drew" in done.stderr
    for bots in ("greedy", "mcts:4"):  # each real draw prints once: replays and playouts drop
        log = tmp_path / f"{bots.replace(':', '')}.jsonl"  # theirs (mcts:4 plays out thousands)
        done = subprocess.run([sys.executable, "-m", "pnp", "simulate", str(demo), "--games",
                               "1", "--bots", bots, "--skill", "none", "--log", str(log)],
                              capture_output=True, text=True, cwd=tmp_path)
        draws = log.read_text().count('"why":"market card"')
        assert draws > 10 and done.stderr.count("debug: drew") == draws, (bots, draws)
    scenario = tmp_path / "s.yaml"
    schema = os.path.relpath(SCHEMAS / "scenario.schema.json", tmp_path)
    scenario.write_text(f"# yaml-language-server: $schema={schema}\nname: n\ngame: demo\n"
                        "players: 2\nbots: first\nmax_turns: 3\nexpect:\n  - players:\n"
                        "      - counters: {G: 5}\n")  # pass or fail, the JSON is whole
    done = subprocess.run([sys.executable, "-m", "pnp", "scenario", str(scenario), "--format",
                           "json"], capture_output=True, text=True, cwd=demo.parent)
    assert json.loads(done.stdout)["scenarios"][0]["name"] == "n", done.stdout + done.stderr
    assert "debug: playing" in done.stderr


def test_a_run_where_some_games_crash_says_how_many_beside_its_figures(demo):
    break_market(demo, "st.turn == 2 and card.card == 'famine'")
    result = run("simulate", str(demo), "--games", "100", "--skill", "none")
    assert result.exit_code == 1, result.output
    crashed = re.search(r"Outcomes .*, crashed (\d+)%", result.output)
    assert crashed and 0 < int(crashed.group(1)) < 100, result.output
    assert f"Crashed in {crashed.group(1)} of 100 games" in result.output
    assert "Seats      1:" in result.output  # the games that ran are still measured


# --------------------------------------------------------------------------- rules from elsewhere

def outside_rules(demo: Path, tmp_path: Path, form: str) -> tuple[Path, str]:
    """Point the demo's `engine:` at a rules file outside its folder, as `form` says; the
    outside file leaves a marker when imported. Returns the marker and the `engine:` value."""
    marker = tmp_path / "imported"
    elsewhere = tmp_path / "elsewhere.py"
    elsewhere.write_text(f"from pathlib import Path\nPath({str(marker)!r}).touch()\n"
                         + (demo / "rules.py").read_text())
    game = demo / "game.yaml"
    engine = {"parent": "../elsewhere.py", "absolute": str(elsewhere),
              "link": "rules.py"}[form]
    game.write_text(game.read_text().replace("engine: rules.py", f"engine: {engine}"))
    if form == "link":
        (demo / "rules.py").unlink()
        (demo / "rules.py").symlink_to(elsewhere)
    return marker, engine


@pytest.mark.parametrize("form", ["parent", "absolute", "link"])
def test_an_engine_outside_the_game_folder_is_an_error_at_its_line(demo, tmp_path, form):
    marker, _ = outside_rules(demo, tmp_path, form)
    line = line_of(demo / "game.yaml", "engine:")
    at = re.compile(rf"game\.yaml:{line}:\d+: error PNP-L040: engine: .* (leads out of|is an "
                    r"absolute path|links to a file outside)")
    result = run("validate", str(demo))
    assert result.exit_code == 1 and at.search(result.output), result.output
    schema = os.path.relpath(SCHEMAS / "scenario.schema.json", tmp_path)
    scenario = tmp_path / "s.yaml"
    scenario.write_text(f"# yaml-language-server: $schema={schema}\nname: n\ngame: {demo}\n"
                        "players: 2\nexpect:\n  - {turn: 1}\n")
    for command in (["simulate", str(demo), "--games", "2"],
                    ["compare", str(demo), "--variant", "x", "--games", "2"],
                    ["scenario", str(scenario)]):
        result = run(*command)
        assert result.exit_code == 1, result.output
        assert "the rules module must be a file in" in result.output  # scenario: no code
    assert not marker.exists()  # the code outside was never imported


@pytest.mark.parametrize("form", ["parent", "absolute", "link"])
def test_the_rules_loader_itself_refuses_a_file_outside_the_game_folder(demo, tmp_path, form):
    import dataclasses

    from pnp.data.game import load_game
    from pnp.engine.registry import NoEngine, engine_diagnostic, module_for

    game = load_game(demo).game
    marker, engine = outside_rules(demo, tmp_path, form)
    unchecked = dataclasses.replace(game, engine=engine)  # as if no lint had run
    with pytest.raises(NoEngine) as caught:
        module_for(unchecked)
    assert caught.value.code == "PNP-L040"
    d = engine_diagnostic(unchecked, caught.value)
    assert d.file.endswith("game.yaml") and d.line == line_of(demo / "game.yaml", "engine:")
    assert not marker.exists()


def test_a_record_sheet_shorter_than_the_games_is_a_finding(demo):
    """The Caravan Log's turn grid covers the games; cut to 12 turns, most games outlast it and
    the report says which sheet, by how much, and where to fix it."""
    def grid_findings():
        result = run("simulate", str(demo), "--games", "100", "--skill", "none",
                     "--format", "json")
        assert result.exit_code == 0, result.output
        return [f for f in json.loads(result.stdout)["findings"] if f["code"] == "PNP-B028"]

    assert grid_findings() == []
    sheet = demo / "record-sheet.yaml"
    sheet.write_text(re.sub(r"turns: \d+", "turns: 12", sheet.read_text()))
    (found,) = grid_findings()
    assert found["severity"] == "warning"
    assert found["message"].startswith("Caravan Log: its turn grid has 12 turns, and ")
    assert "went past turn 12" in found["message"] and "record-sheet.yaml" in found["message"]
