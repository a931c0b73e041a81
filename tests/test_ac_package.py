"""The Ancient Civilizations package keeps to the public engine API and stays readable: a rules
module written against pnp.engine.api survives changes to the engine's internals."""

from __future__ import annotations

import ast
from pathlib import Path

import pnp.games.ancient_civilizations as ac

PACKAGE = Path(ac.__file__).parent


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    out = {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and not n.level}
    out |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    return out


def test_every_part_imports_pnp_only_through_the_engine_api() -> None:
    found = {f.name: sorted(m for m in _imports(f) if m.split(".")[0] == "pnp"
                            and m != "pnp.engine.api")
             for f in PACKAGE.glob("*.py")}
    assert len(found) > 10
    assert {name: mods for name, mods in found.items() if mods} == {}


def test_no_part_is_long() -> None:
    lengths = {f.name: len(f.read_text().splitlines()) for f in PACKAGE.glob("*.py")}
    assert max(lengths.values()) < 900, lengths


def test_the_protocol_and_what_tests_reach_are_at_the_top() -> None:
    for name in ("ENGINE", "metadata", "bot_hints", "new_state", "main_state", "play", "finish",
                 "player_counters", "coverage_keys", "invariants", "check_scenario",
                 "scenario_fields", "ACGame", "rules_for"):
        assert hasattr(ac, name), name
    assert not hasattr(ac, "player_stats") and not hasattr(ac, "power_ids")
