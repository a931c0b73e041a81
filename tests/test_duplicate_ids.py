"""A repeated id in any list of a game's data is an error at the repeat (PNP-L002), one for
every kind of entry the data builder reads (pnp/data/build.py Builder.unique_items)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from pnp.data.game import load_game
from pnp.paths import CARDS, SCHEMAS

#: (game, file, list key, what the message calls an entry)
CASES = [
    ("ancient-civilizations", "game.yaml", "checks", "check"),
    ("ancient-civilizations", "game.yaml", "conversions", "conversion"),
    ("ancient-civilizations", "tables.yaml", "tables", "table"),
    ("ancient-civilizations", "stats.yaml", "formulas", "formula"),
    ("ancient-civilizations", "charts.yaml", "charts", "chart"),
    ("ancient-civilizations", "tracks.yaml", "tracks", "track"),
    ("ancient-civilizations", "record-sheet.yaml", "record_sheets", "record sheet"),
    ("antike", "board.yaml", "boards", "board"),
    ("antike", "deck.yaml", "decks", "deck"),
    ("antike", "components.yaml", "supplies", "supply"),
    ("the-ancient-world", "components.yaml", "dice", "die"),
    ("the-ancient-world", "components.yaml", "zones", "zone"),
    ("the-ancient-world", "components.yaml", "action_spaces", "action space"),
]


def with_first_entry_repeated(tmp_path: Path, game: str, file: str, key: str,
                               ) -> tuple[Path, str, range]:
    """A copy of the game whose list `key` in `file` has its first entry twice (its lines
    copied as written, so nothing else changes), the entry's id and the lines of the repeat."""
    folder = tmp_path / "cards" / game  # where the files' relative schema lines still point
    shutil.copytree(CARDS / game, folder)
    (tmp_path / "schemas").symlink_to(SCHEMAS.resolve())
    path = folder / file
    text = path.read_text(encoding="utf-8")
    entries = next(v for k, v in yaml.compose(text).value if k.value == key).value
    start = entries[0].start_mark.line
    last = entries[1].start_mark if len(entries) > 1 else entries[0].end_mark
    end = last.line + (last.column > 0 and len(entries) == 1)  # the line after the entry
    lines = text.splitlines(keepends=True)
    path.write_text("".join(lines[:end] + lines[start:end] + lines[end:]), encoding="utf-8")
    ident = next(v.value for k, v in entries[0].value if k.value == "id")
    return folder, ident, range(end + 1, end + (end - start) + 1)


@pytest.mark.parametrize(("game", "file", "key", "what"), CASES,
                         ids=[f"{c[0]}:{c[2]}" for c in CASES])
def test_a_repeated_id_is_reported_at_the_repeat(tmp_path, game, file, key, what):
    folder, ident, repeat = with_first_entry_repeated(tmp_path, game, file, key)
    found = [d for d in load_game(folder).diagnostics if d.code == "PNP-L002"]
    assert [(d.message, Path(d.file).name) for d in found] == [
        (f"duplicate {what} id '{ident}'", file)]
    assert found[0].line in repeat  # at the repeat, not at the first
