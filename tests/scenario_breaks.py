"""Shared by the per-game scenario tests: run a scenario against a copy of its game whose data
has one rule broken, so each test can show its scenario fails when that rule is broken."""

from __future__ import annotations

import shutil
from pathlib import Path

from pnp.engine.scenario import ScenarioReport, run_scenario


def copy_with(game: Path, tmp_path: Path, edits: list[tuple[str, str, str]]) -> Path:
    """A copy of the game folder with each (file, old, new) edit applied once."""
    folder = tmp_path / game.name
    shutil.copytree(game, folder)
    for name, old, new in edits:
        path = folder / name
        text = path.read_text(encoding="utf-8")
        assert text.count(old) >= 1, (name, old)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder


def run_on_copy(scenario: Path, game: Path, folder: Path, tmp_path: Path) -> ScenarioReport:
    """Run `scenario` with its `game:` pointed at `folder` (a broken copy of `game`)."""
    text = scenario.read_text(encoding="utf-8")
    text = text.replace(f"game: {game.name}", f"game: {folder}", 1)
    text = text.replace("$schema=../../../schemas/", "$schema=")
    path = tmp_path / scenario.name
    path.write_text(text, encoding="utf-8")
    return run_scenario(path)
