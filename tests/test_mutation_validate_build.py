"""Mutated games: `pnp validate` passes exactly when `pnp build` does, and neither raises,
hangs or blows up, whatever value lands in whichever data file (issue 8).

A fixed-seed, derandomized hypothesis run mutates one value (or deletes or duplicates one item)
in a starter game that holds every kind of game data file: manifest, stats, tracks, charts,
tables, deck, layouts, board and record sheet. Scenarios get the same treatment.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnp.data.game import load_game
from pnp.diagnostics import has_errors
from pnp.paths import CARDS, SCHEMAS
from pnp.scaffold import scaffold

EXTRA_FILES = {
    "charts.yaml": ("charts", {"charts": [{"id": "luck", "name": "Luck", "die": "1D6", "rows": [
        {"roll": [1, 3], "effect": "G+1"}, {"roll": [4, 6], "label": "Windfall", "effect": "G+2"}]}]}),
    "tables.yaml": ("tables", {"tables": [{"id": "prices", "name": "Prices", "pay": "G",
                                           "rows": [{"cost": 2, "buys": "F+1"},
                                                    {"cost": 3, "buys": "VP+1"}]}]}),
    "layouts.yaml": ("layout", {"layouts": [{"id": "own-front", "extends": "poker-front",
                                             "elements": [{"id": "title",
                                                           "text": "{{ card.name | upper }}",
                                                           "size": "11pt"}]}]}),
}

NASTY = [0, -1, 1, 2, 7, 2**31, 10**23, 3.0, 2.5, 1e23, True, None, "", "63", "63mm", "900mm",
         "0mm", "-5mm", "#zz0000", "red", "{{ card.nope }}", "{{ 1/0 }}",
         "{% for a in range(9999) %}{% for b in range(9999) %}{% endfor %}{% endfor %}",
         "{{ card.name * 999999999 }}", "word " * 300, "Gain {coinz}.", "G+1", "Glod+2",
         "G-1D999", "99D1000", "999D6", "1D6", "roll luck", "roll nowhere", "most Gold",
         "most Glod", [1, 6], [3, 300000], [6, 1], {"width": "63mm", "height": 88},
         {"width": "63mm", "height": "88mm"}, "a4", "poker", "tarot", "VP >= 99999", "F < 0",
         "luck", "prices", "road", "gold", [], {}, "x" * 200, "ceil(G / 0)", "card.cost is defined"]

values = st.one_of(st.sampled_from(NASTY), st.integers(-10**12, 10**12), st.text(max_size=12))
mutations = st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(["set", "delete", "double"]),
                               values), min_size=1, max_size=2)


def base_game(root: Path) -> Path:
    folder = root / "mutant"
    scaffold(folder)
    schemas = os.path.relpath(SCHEMAS.resolve(), folder.resolve())
    for name, (kind, data) in EXTRA_FILES.items():
        (folder / name).write_text(f"# yaml-language-server: $schema={schemas}/{kind}.schema.json\n"
                                   + yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    deck = folder / "deck.yaml"
    deck.write_text(deck.read_text().replace("front: poker-front", "front: own-front"))
    tracks = folder / "tracks.yaml"
    tracks.write_text(tracks.read_text().replace('"VP+1"', '"VP+1 roll luck"'))
    return folder


def nodes(data, path=()):
    """Every (path, value) in a document, containers included."""
    yield path, data
    if isinstance(data, dict):
        for k, v in data.items():
            yield from nodes(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from nodes(v, path + (i,))


def mutate(data, pick: int, op: str, value):
    found = [(p, v) for p, v in nodes(data) if p]
    if not found:
        return
    path, _ = found[pick % len(found)]
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if op == "delete":
        del parent[last]
    elif op == "double" and isinstance(parent, list):
        parent.insert(last, parent[last])
    else:
        parent[last] = value


def rewrite(path: Path, muts) -> None:
    text = path.read_text(encoding="utf-8")
    first, _, body = text.partition("\n")
    data = yaml.safe_load(body)
    for pick, op, value in muts:
        mutate(data, pick, op, value)
    path.write_text(first + "\n" + yaml.safe_dump(data, sort_keys=False, allow_unicode=True),
                    encoding="utf-8")


def check_diagnostics(diags) -> None:
    for d in diags:
        assert d.code.startswith("PNP-") and d.message
        if d.file and d.code not in {"PNP-Y009", "PNP-L020", "PNP-L021"}:
            assert d.line >= 1, d


FILES = ["game.yaml", "stats.yaml", "tracks.yaml", "charts.yaml", "tables.yaml", "deck.yaml",
         "layouts.yaml", "board.yaml", "record-sheet.yaml"]


#: examples per run: a fixed, derandomized 120 in CI; PNP_MUTATIONS=2000 explores further
EXAMPLES = int(os.environ.get("PNP_MUTATIONS", "120"))
STATS = {"examples": 0, "loaded": 0, "built": 0}


@pytest.mark.slow  # 20 s of builds: CI runs it, the quick loop leaves it out
@settings(max_examples=EXAMPLES, deadline=None, derandomize=EXAMPLES <= 120, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(file=st.sampled_from(FILES), muts=mutations)
def test_validate_passes_exactly_when_build_does(file, muts):
    from pnp.render.build import build_game
    from pnp.render.preflight import preflight

    with tempfile.TemporaryDirectory() as tmp:
        folder = base_game(Path(tmp))
        rewrite(folder / file, muts)
        start = time.monotonic()
        result = load_game(folder)
        STATS["examples"] += 1
        STATS["loaded"] += result.ok
        check_diagnostics(result.diagnostics)
        validate_ok = result.ok
        if result.ok:
            found = preflight(result.game)
            check_diagnostics(found)
            validate_ok = not has_errors(found)
            paths, built = build_game(result.game, Path(tmp) / "out")
            check_diagnostics(built)
            build_ok = not has_errors(built)
            STATS["built"] += build_ok
            assert validate_ok == build_ok, [d.format_text() for d in built if d.is_error]
            assert bool(paths) == build_ok
        assert time.monotonic() - start < 30, "every example is bounded"


SCENARIOS = sorted((CARDS / "ancient-civilizations" / "scenarios").glob("*.yaml"))[:8]


@settings(max_examples=40, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, len(SCENARIOS) - 1), muts=mutations)
def test_mutated_scenarios_fail_with_messages_not_tracebacks(which, muts):
    from pnp.engine.scenario import run_scenario

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / SCENARIOS[which].name
        shutil.copy(SCENARIOS[which], path)
        path.write_text(path.read_text().replace("../../../schemas", str(SCHEMAS.resolve())))
        rewrite(path, muts)
        start = time.monotonic()
        report = run_scenario(path)
        assert time.monotonic() - start < 30
        for f in report.failures:
            assert f.message
