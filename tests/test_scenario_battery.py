"""The battery every bundled game's rule scenarios get by having a `scenarios/` folder: each
file passes and checks something, every variant is shown by one, and every file names its
schema so an editor can check it. What is particular to a game (which rule each scenario
shows, and how to break it) stays in that game's own test module."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pnp.data.game import load_game
from pnp.engine.scenario import run_scenario
from pnp.paths import CARDS

GAMES = sorted(path.parent for path in CARDS.glob("*/scenarios"))
FILES = [path for game in GAMES for path in sorted((game / "scenarios").glob("*.yaml"))]
SCHEMA_LINE = "# yaml-language-server: $schema=../../../schemas/scenario.schema.json"


def _name(path: Path) -> str:
    return f"{path.parent.parent.name}/{path.stem}"


def test_every_bundled_game_has_scenarios() -> None:
    names = {game.name for game in GAMES}
    assert {"age-of-civilization", "ancient-civilizations", "antike",
            "the-ancient-world"} <= names


@pytest.mark.parametrize("path", FILES, ids=_name)
def test_scenario_passes(path: Path) -> None:
    report = run_scenario(path)
    assert report.ok, "\n".join(f.format() for f in report.failures)
    assert report.checked >= 1


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_every_variant_has_a_scenario(game: Path) -> None:
    variants = load_game(game).game.variants
    used = {m[1] for path in (game / "scenarios").glob("*.yaml")
            for m in re.finditer(r"(?m)^variant: (\S+)", path.read_text(encoding="utf-8"))}
    assert set(variants) - used == set()


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_every_file_starts_with_the_schema_line(game: Path) -> None:
    first_lines = {path.name: path.read_text(encoding="utf-8").splitlines()[0]
                   for path in (game / "scenarios").glob("*.yaml")}
    assert {name: line for name, line in first_lines.items() if line != SCHEMA_LINE} == {}
