"""`pnp simulate` and `pnp compare` wiring: options, exit codes, output documents, files written.

The rules engine is replaced by the fake games, so these tests check the command, not the rules.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from test_selfplay_fakes import broken_play, fair_play

from pnp.cli import main
from pnp.engine import selfplay
from pnp.engine.log import jsonl_bytes

#: fields the CLI contract (DESIGN.md) requires in the simulate document
REQUIRED = {"schema_version", "game", "variant", "games", "players", "seed", "bots", "seconds",
            "games_per_second", "turns", "outcomes", "seats", "margin", "stats", "spaces",
            "coverage", "never_seen", "charts", "cap_clips", "floor_clips", "events", "violations", "findings",
            "supplies", "factions"}


@pytest.fixture
def fake_engine(monkeypatch):
    """Swap in a fake engine: returns a setter choosing which fake game plays."""
    monkeypatch.setattr(selfplay, "known_bots", lambda: ["greedy", "random", "search"])

    def use(play):
        monkeypatch.setattr(selfplay, "default_play", lambda: play)

    use(fair_play)
    return use


def simulate(*args: str):
    return CliRunner().invoke(main, ["simulate", "ancient-civilizations", *args])


def test_json_document_has_every_contract_field(fake_engine):
    result = simulate("--games", "12", "--seed", "4", "--format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert REQUIRED <= set(doc)
    assert set(doc["turns"]) >= {"mean", "p50", "p95", "max"}
    assert set(doc["outcomes"]) >= {"completed", "timeouts", "eliminations", "completion_rate",
                                    "timeout_rate", "elimination_rate", "elimination_causes"}
    assert set(doc["seats"][0]) >= {"seat", "wins", "win_rate", "ci95"}
    assert set(doc["never_seen"]) == {"spaces", "chart_results", "coverage"}
    assert isinstance(doc["coverage"], dict)
    assert all(set(f) == {"severity", "code", "message"} for f in doc["findings"])
    assert (doc["game"], doc["games"], doc["players"], doc["seed"]) == (
        "ancient-civilizations", 12, 4, 4)


def test_one_and_two_workers_print_the_same_document(fake_engine):
    docs = []
    for workers in ("1", "2"):
        result = simulate("--games", "30", "--workers", workers, "--format", "json")
        assert result.exit_code == 0, result.output
        doc = json.loads(result.stdout)
        docs.append({k: v for k, v in doc.items() if k not in ("seconds", "games_per_second")})
    assert docs[0] == docs[1]


def test_broken_invariant_exits_1(fake_engine):
    fake_engine(broken_play)
    result = simulate("--games", "40")
    assert result.exit_code == 1
    assert "Invariant broken" in result.stdout


@pytest.mark.parametrize("args,message", [
    (("--variant", "no-such-variant"), "no variant 'no-such-variant'"),
    (("--bots", "random,genius"), "unknown bot 'genius'"),
    (("--bots", "random,search:0"), "a whole number from 1 to 1000"),
    (("--bots", "random:3"), "takes no budget"),
    (("--players", "9"), "2 to 6 players"),
])
def test_bad_options_exit_2_with_a_clear_message(fake_engine, args, message):
    result = simulate("--games", "2", *args)
    assert result.exit_code == 2
    assert message in result.output


def test_unknown_game_exits_2(fake_engine):
    result = CliRunner().invoke(main, ["simulate", "ancient-civilisations"])
    assert result.exit_code == 2
    assert "no game 'ancient-civilisations'" in result.output
    assert "ancient-civilizations" in result.output


def test_report_and_log_files_are_written(fake_engine, tmp_path):
    pdf, log = tmp_path / "report.pdf", tmp_path / "games.jsonl"
    result = simulate("--games", "6", "--report", str(pdf), "--log", str(log), "--log-games", "2")
    assert result.exit_code == 0, result.output
    assert pdf.read_bytes().startswith(b"%PDF")
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert log.read_bytes() == jsonl_bytes(lines)  # the one log format, as scenario writes it
    headers = [x for x in lines if x.get("e") == "game"]
    assert [h["seed"] for h in headers] == [selfplay.game_seed(1, 0), selfplay.game_seed(1, 1)]
    assert len(lines) == 2 * (1 + 3)  # per game: the engine's header and three fake rolls


def test_variant_is_reported(fake_engine):
    result = simulate("--games", "3", "--variant", "arch-ideas", "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["variant"] == "arch-ideas"
    base = simulate("--games", "3", "--variant", "base", "--format", "json")
    assert json.loads(base.stdout)["variant"] is None


def test_compare_reports_differences_with_intervals(fake_engine):
    result = CliRunner().invoke(main, ["compare", "ancient-civilizations", "--variant", "base",
                                       "--variant", "arch-ideas", "--games", "20",
                                       "--format", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert (doc["a"], doc["b"], doc["games"]) == ("base", "arch-ideas", 20)
    names = [m["metric"] for m in doc["metrics"]]
    assert "turns (mean)" in names and "seat 1 win rate" in names
    assert all(len(m["ci95"]) == 2 and "significant" in m for m in doc["metrics"])
    text = CliRunner().invoke(main, ["compare", "ancient-civilizations", "--variant",
                                     "arch-ideas", "--games", "5"])
    assert text.exit_code == 0 and "arch-ideas vs base" in text.stdout


def test_compare_needs_one_or_two_variants(fake_engine):
    result = CliRunner().invoke(main, ["compare", "ancient-civilizations"])
    assert result.exit_code == 2
    unknown = CliRunner().invoke(main, ["compare", "ancient-civilizations", "--variant", "nope"])
    assert unknown.exit_code == 2 and "no variant 'nope'" in unknown.output


def test_real_engine_gives_the_same_document_on_one_and_two_workers():
    pytest.importorskip("pnp.engine.play")
    docs = []
    for workers in ("1", "2"):
        result = simulate("--games", "16", "--seed", "3", "--workers", workers, "--format", "json")
        assert result.exit_code == 0, result.output
        doc = json.loads(result.stdout)
        docs.append({k: v for k, v in doc.items() if k not in ("seconds", "games_per_second")})
    assert docs[0] == docs[1]
    outcomes = docs[0]["outcomes"]
    assert docs[0]["violations"] == [] and outcomes["crashed"] == 0
    assert outcomes["completed"] + outcomes["timeouts"] + outcomes["all_eliminated"] == 16
