"""Render every component a game defines: the one place `pnp build` calls into the renderer."""

from __future__ import annotations

from pathlib import Path

from pnp.data.model import GameDef
from pnp.diagnostics import Diagnostic


def build_game(game: GameDef, out_dir: Path, paper: str = "a4") -> tuple[list[Path], list[Diagnostic]]:
    """Write the game's PDFs into out_dir; returns the files written and any diagnostics."""
    paths: list[Path] = []
    diags: list[Diagnostic] = []
    return paths, diags
