"""Shared fixtures: the bundled Ancient Civilizations game, loaded once per session."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.paths import CARDS

AC = CARDS / "ancient-civilizations"


@pytest.fixture(scope="session")
def ac_folder() -> Path:
    return AC


@pytest.fixture(scope="session")
def ac():
    from pnp.data.game import load_game

    result = load_game(AC)
    assert result.ok, "\n".join(d.format_text() for d in result.diagnostics)
    return result.game
