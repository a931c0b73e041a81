"""`pnp new`: a new user's first ten minutes must work as written."""

from __future__ import annotations

from click.testing import CliRunner

from pnp.cli import main
from pnp.data.game import load_game


def test_new_game_validates_clean_and_has_a_54_card_deck(tmp_path):
    folder = tmp_path / "spice-road"
    result = CliRunner().invoke(main, ["new", str(folder)])
    assert result.exit_code == 0, result.output
    loaded = load_game(folder)
    assert loaded.ok and not loaded.diagnostics, [d.format_text() for d in loaded.diagnostics]
    game = loaded.game
    assert game.id == "spice-road" and game.name == "Spice Road"
    assert sum(c.count for c in game.decks["market"].cards) == 54
    assert game.tracks["road"].spaces[0].start
    assert game.record_sheets["caravan-log"].turn_grid_turns == 36


def test_new_refuses_a_folder_that_has_files(tmp_path):
    (tmp_path / "keep.txt").write_text("mine")
    result = CliRunner().invoke(main, ["new", str(tmp_path)])
    assert result.exit_code == 2 and "not empty" in result.output
    assert (tmp_path / "keep.txt").read_text() == "mine"
