"""Samples are documentation and tests at once: every game under docs/examples/ validates clean
and self-plays, and every code excerpt the docs quote from a file is still in that file."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(p.parent for p in (ROOT / "docs" / "examples").glob("*/game.yaml"))
#: a fenced block that quotes a file names it after the language: ```python docs/x/rules.py
QUOTE = re.compile(r"^```(\w+) +(\S+)\n(.*?)^```$", re.S | re.M)


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
                 "--bots", "random,greedy",
                 "--format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["violations"] == [] and doc["outcomes"]["crashed"] == 0
    assert doc["outcomes"]["completion_rate"] > 0.8
    assert all(n > 0 for n in doc["coverage"]["card"].values()), doc["coverage"]
    bots = {b["bot"]: b for b in doc["bots"]}
    assert bots["greedy"]["ci95"][0] > bots["random"]["ci95"][1]  # the estimates guide it
def quotes(page: Path) -> list[tuple[str, str]]:
    """(file named, block text) of every fenced block of `page` that quotes a file."""
    return [(m.group(2), m.group(3)) for m in QUOTE.finditer(page.read_text(encoding="utf-8"))]


def test_every_quoted_excerpt_of_engine_md_is_in_the_file_it_names():
    found = quotes(ROOT / "docs" / "engine.md")
    assert {name for name, _ in found} >= {"pnp/starter_rules.py",
                                           "docs/examples/spice-market/rules.py"}
    stale = [f"{name}:\n{text}" for name, text in found
             if text not in (ROOT / name).read_text(encoding="utf-8")]
    assert stale == [], "docs/engine.md quotes code that is no longer there:\n" + "\n".join(stale)


def test_the_quote_check_sees_an_edited_excerpt(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("text\n```python pnp/starter_rules.py\nPASS, BUY = 'pass', 'buy'\n```\n")
    ((name, text),) = quotes(page)
    assert name == "pnp/starter_rules.py"
    assert text not in (ROOT / name).read_text(encoding="utf-8")  # the file says "pass", "buy"


def section(page: Path, heading: str) -> str:
    """The text of a `## heading` section, up to the next heading of its level."""
    text = page.read_text(encoding="utf-8")
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end > 0 else None]


def test_engine_md_lists_every_name_the_api_exports():
    from pnp.engine import api

    table = section(ROOT / "docs" / "engine.md", "The public API")
    missing = [name for name in api.__all__ if f"`{name}" not in table]
    assert missing == [], f"docs/engine.md, 'The public API', does not name {missing}"


def test_engine_md_lists_every_hook_the_harness_reads():
    text = section(ROOT / "docs" / "engine.md", "The rules module protocol")
    hooks = ["metadata", "new_state", "play", "finish", "main_state", "player_counters",
             "observation", "invariants", "coverage_keys", "scenario_fields", "check_scenario"]
    source = (ROOT / "pnp" / "engine" / "module.py").read_text(encoding="utf-8")
    assert all(f'"{h}"' in source or f"module.{h}" in source for h in hooks)
    assert [h for h in hooks if f"| `{h}(" not in text] == []
