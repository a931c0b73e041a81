"""Samples are documentation and tests at once: every game under docs/examples/ validates clean
and self-plays."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(p.parent for p in (ROOT / "docs" / "examples").glob("*/game.yaml"))


def run(*args: str):
    return CliRunner().invoke(main, [*args])


def test_there_is_a_card_game_example():
    assert [p.name for p in EXAMPLES] == ["spice-market"]


@pytest.mark.parametrize("folder", EXAMPLES, ids=lambda p: p.name)
def test_the_example_validates_without_a_warning(folder):
    result = run("validate", str(folder), "--strict")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("folder", EXAMPLES, ids=lambda p: p.name)
def test_the_example_self_plays_50_games_with_every_check_and_every_card_bought(folder):
    result = run("simulate", str(folder), "--games", "50", "--invariants", "all",
                 "--format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["violations"] == [] and doc["outcomes"]["crashed"] == 0
    assert doc["outcomes"]["completion_rate"] > 0.8
    assert all(n > 0 for n in doc["coverage"]["card"].values()), doc["coverage"]
    bots = {b["bot"]: b for b in doc["bots"]}
    assert bots["greedy"]["ci95"][0] > bots["random"]["ci95"][1]  # the estimates guide it
