"""Parameter sweeps: the same seeds played in every cell of players × variant × bot mix.

Every cell is one simulate run (its own config, the same base seed), all sent to one executor at
once so the workers stay busy across cells. The sweep document keeps, per cell, the measures a
designer compares across cells (completion, length, seat balance, skill depth, findings); the
full simulate document of a cell is one `pnp simulate` away.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any

from pnp.engine import lineup
from pnp.engine import stats as st
from pnp.engine.executor import Executor, Job, ProgressFn, run_jobs
from pnp.engine.selfplay import (
    SCHEMA_VERSION,
    PlayFn,
    SimConfig,
    Simulation,
    _r,
    default_play,
    report_document,
)


@dataclass(frozen=True)
class Cell:
    """One point of the sweep."""

    players: int
    variant: str | None
    bots: tuple[str, ...]

    @property
    def label(self) -> str:
        return f"{self.players}p {self.variant or 'base'} {','.join(self.bots)}"


def cross(players: Sequence[int], variants: Sequence[str | None],
          bot_mixes: Sequence[tuple[str, ...]]) -> list[Cell]:
    """Every combination, players slowest and bot mix fastest (the order of the table)."""
    return [Cell(p, v, b) for p, v, b in product(players, variants, bot_mixes)]


def run_sweep(games: Mapping[str | None, Any], cells: Sequence[Cell], per_cell: int, *,
              seed: int = 1, invariants: str = "sample", max_turns: int | None = None,
              executor: Executor, play: PlayFn | None = None,
              progress: ProgressFn | None = None) -> dict[str, Any]:
    """Play `per_cell` games in every cell (game definitions by variant) and build the document."""
    play = play or default_play()
    configs = [SimConfig(games=lineup.balanced_games(per_cell, c.bots, c.players),
                         players=c.players, seed=seed, bots=c.bots, variant=c.variant,
                         invariants=invariants, max_turns=max_turns)
               for c in cells]
    jobs = [Job(games[c.variant], config, play) for c, config in zip(cells, configs, strict=True)]
    started = time.perf_counter()
    outcomes = run_jobs(jobs, executor, progress)
    seconds = time.perf_counter() - started
    rows = []
    for cell, job, outcome in zip(cells, jobs, outcomes, strict=True):
        sim = Simulation(job.game, job.config, outcome.aggregate, outcome.cpu_seconds)
        rows.append(cell_summary(cell, report_document(sim)))
    first = next(iter(games.values()))
    total = sum(config.games for config in configs)
    return {
        "schema_version": SCHEMA_VERSION,
        "game": getattr(first, "id", str(first)),
        "games_per_cell": per_cell,
        "seed": seed,
        "invariants": invariants,
        "max_turns": max_turns,
        "players": sorted({c.players for c in cells}),
        "variants": list(dict.fromkeys(c.variant or "base" for c in cells)),
        "bots": [list(b) for b in dict.fromkeys(c.bots for c in cells)],
        "cells": rows,
        "games": total,
        "seconds": round(seconds, 3),
        "games_per_second": round(total / seconds, 1) if seconds > 0 else 0.0,
    }


def seat_balance(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The seat farthest from the fair share, with its 95% interval (Wilson) and the verdict
    of the seat test PNP-B005 uses (findings.seat_tests: Holm-corrected score tests)."""
    from pnp.engine.findings import seat_tests

    fair = doc["fair_share"]
    worst = max(doc["seats"], key=lambda s: (abs(s["win_rate"] - fair), -s["seat"]))
    test = next(t for t in seat_tests(doc) if t["seat"] == worst["seat"])
    lo, hi = worst["ci95"]
    return {"seat": worst["seat"], "win_rate": worst["win_rate"], "fair_share": fair,
            "gap": _r(worst["win_rate"] - fair), "ci95": [lo, hi],
            "gap_ci95": [_r(lo - fair), _r(hi - fair)], "p_holm": _r(test["p_holm"]),
            "significant": test["flagged"]}


def skill_depth(doc: Mapping[str, Any]) -> dict[str, Any] | None:
    """How much more the best bot wins than the worst (per seat played), with a 95% interval
    (Newcombe); None when the mix has one bot."""
    bots = [b for b in doc["bots"] if b["seat_games"]]
    if len(bots) < 2:
        return None
    best = max(bots, key=lambda b: (b["win_rate"], b["bot"]))
    worst = min(bots, key=lambda b: (b["win_rate"], b["bot"]))
    diff, lo, hi = st.diff_proportions(worst["wins"], worst["seat_games"],
                                       best["wins"], best["seat_games"])
    return {"best": best["bot"], "worst": worst["bot"], "best_rate": best["win_rate"],
            "worst_rate": worst["win_rate"], "diff": _r(diff), "ci95": [_r(lo), _r(hi)],
            "significant": bool(lo > 0)}


def cell_summary(cell: Cell, doc: Mapping[str, Any]) -> dict[str, Any]:
    """The sweep's row for one cell, from that cell's simulate document."""
    o, t = doc["outcomes"], doc["turns"]
    return {
        "players": cell.players,
        "variant": cell.variant or "base",
        "bots": list(cell.bots),
        "label": cell.label,
        "games": doc["games"],
        "completion_rate": o["completion_rate"],
        "timeout_rate": o["timeout_rate"],
        "elimination_rate": o["elimination_rate"],
        "crashed": o["crashed"],
        "turns": {k: t[k] for k in ("mean", "p50", "p95", "max")},
        "fair_share": doc["fair_share"],
        "seats": [{k: s[k] for k in ("seat", "win_rate", "ci95")} for s in doc["seats"]],
        "seat_balance": seat_balance(doc),
        "skill": skill_depth(doc),
        "violations": sum(v["games"] for v in doc["violations"]),
        "findings": list(doc["findings"]),
    }


def broken(sweep: Mapping[str, Any]) -> bool:
    """True when an invariant broke (or the engine crashed) in any cell: exit 1."""
    return any(c["violations"] or c["crashed"] for c in sweep["cells"])
