"""Scenario files written by tests: the schema line every scenario starts with, and one small
Ancient Civilizations case (a war whose dice tie) that tests vary a line at a time."""

from __future__ import annotations

from pathlib import Path

from pnp.paths import SCHEMAS

HEAD = f"# yaml-language-server: $schema={SCHEMAS / 'scenario.schema.json'}\n"

#: `choices: [war]` is the line tests replace to pick otherwise
TIED_WAR = """name: A tied war
game: ancient-civilizations
players: 2
start: military
state:
  players:
    - stats: {M: 8, VP: 3}
    - stats: {M: 5, VP: 2}
      positions: {military: logistics}
dice: [6, 1, 2, 2, 1, 3, 2, 4, 3, 1]
choices: [war]
expect:
  - after: military
    players:
      - stats: {M: 6, VP: 3}
"""


def write_case(folder: Path, text: str) -> Path:
    """`text` with the schema line, as folder/case.yaml."""
    path = folder / "case.yaml"
    path.write_text(HEAD + text, encoding="utf-8")
    return path
