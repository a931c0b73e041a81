"""Rulebook prose is never copied: our sentences, rulesheets, docs and comments are in our own words.

Rules facts (names, numbers, the notes of spaces and charts) may be encoded as data; so the
tables (tracks.yaml, charts.yaml, tables.yaml, stats.yaml, the fidelity test) are not checked. Any
run of 8 words that also stands in a rulebook, anywhere else, fails this test.
"""

from __future__ import annotations

import re

import pytest

from pnp.paths import ROOT

SEEDS = ROOT.parent / "shared" / "seeds"
RUN = 8
TABLES = {"tracks.yaml", "charts.yaml", "tables.yaml", "stats.yaml", "record-sheet.yaml",
          "board.yaml", "test_ac_fidelity.py", "test_own_words.py"}


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def runs(ws: list[str]) -> set[tuple[str, ...]]:
    return {tuple(ws[i:i + RUN]) for i in range(len(ws) - RUN + 1)}


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the rulebooks in ../shared/seeds are not beside this checkout")
def test_no_run_of_eight_words_is_copied_from_a_rulebook():
    book = set()
    for seed in sorted(SEEDS.glob("*.txt")):
        book |= runs(words(seed.read_text(encoding="utf-8", errors="ignore")))
    copied = {}
    folders = ["pnp", "cards", "docs", "tests", "templates", "benchmarks", "rulesheet"]
    files = [p for f in folders for p in (ROOT / f).rglob("*")
             if p.suffix in {".py", ".yaml", ".md", ".json"} and p.name not in TABLES]
    files += [ROOT / "README.md"]
    for path in files:
        found = runs(words(path.read_text(encoding="utf-8", errors="ignore"))) & book
        if found:
            copied[str(path.relative_to(ROOT))] = sorted(" ".join(r) for r in found)[:3]
    assert not copied, "rulebook prose copied (write it in your own words):\n" + "\n".join(
        f"  {f}: {r}" for f, r in sorted(copied.items()))
