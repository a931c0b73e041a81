"""Skill depth as a ladder: does a stronger bot win more, step after step?

After Ludii's SkillTrace (Piette et al.): each rung's bot plays the rung below it, one seat
against the lower bot in every other seat, every seating equally often on the same seeds.
A step **climbs** when the new bot's win rate's 95% interval lies above the fair share (one
seat in P) and it is at least CLIMB_GAP_MIN above it. The ladder stops at the first step that
does not climb (win rates have flattened), unless asked to play every step. What it says: how
many steps of more thinking keep paying (skill depth), that none does (the game is mostly
luck, or the bots too alike), or that the first step already wins nearly always (the game
rewards the simplest sense and the rest of the ladder measures little).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from pnp.engine import lineup
from pnp.engine import stats as st
from pnp.engine.executor import Executor, Job, ProgressFn, run_jobs
from pnp.engine.selfplay import CRASHED, SCHEMA_VERSION, PlayFn, SimConfig, default_play

#: the rungs when none are named: random, the game's greedy estimates, then mcts doubling
DEFAULT_RUNGS = ("random", "greedy", "mcts:2", "mcts:4", "mcts:8", "mcts:16")
#: the least edge over the fair share, in win-rate points, that counts as a climb
CLIMB_GAP_MIN = 0.03
#: a first step whose bot wins at least this share of games "wins nearly always"
NEARLY_ALWAYS = 0.9
#: the short ladder `pnp simulate` plays after its run (--skill), and its games a step at most
SKILL_RUNGS = ("random", "greedy")
SKILL_GAMES = 60


def step_bots(upper: str, lower: str, players: int) -> tuple[str, ...]:
    """The line-up of one step: the upper bot in one seat, the lower in every other."""
    return (upper,) + (lower,) * (players - 1)


def ladder_problem(rungs: Sequence[str], players: int) -> str | None:
    """What is wrong with a ladder (too few rungs, a rung named twice), or None."""
    if len(rungs) < 2:
        return "a ladder needs two rungs or more (random,greedy,...)"
    twice = sorted({r for r in rungs if list(rungs).count(r) > 1})
    if twice:
        return f"each rung must be another bot; named twice: {', '.join(twice)}"
    for upper, lower in zip(rungs[1:], rungs, strict=False):
        if problem := lineup.problem(step_bots(upper, lower, players), players):
            return problem
    return None


def step_games(per_step: int, rungs: Sequence[str], players: int) -> int:
    """Games a step plays: per_step rounded up to whole rounds of its seatings."""
    return lineup.balanced_games(per_step, step_bots(rungs[1], rungs[0], players), players)


def run_ladder(game: Any, rungs: Sequence[str], players: int, per_step: int, *, seed: int = 1,
               variant: str | None = None, invariants: str = "sample",
               max_turns: int | None = None, every_step: bool = False, executor: Executor,
               play: PlayFn | None = None, progress: ProgressFn | None = None) -> dict[str, Any]:
    """Play the ladder's steps in order (stopping at the first that does not climb unless
    `every_step`) and build its document."""
    play = play or default_play()
    steps, started, cpu = [], time.perf_counter(), 0.0
    played = 0
    for lower, upper in zip(rungs, rungs[1:], strict=False):
        bots = step_bots(upper, lower, players)
        config = SimConfig(games=lineup.balanced_games(per_step, bots, players), players=players,
                           seed=seed, bots=bots, variant=variant, invariants=invariants,
                           max_turns=max_turns)
        # progress counts the ladder's games so far, not each step's from zero
        step_progress = ((lambda done, before=played: progress(before + done))
                         if progress else None)
        [outcome] = run_jobs([Job(game, config, play)], executor, step_progress)
        played += config.games
        cpu += outcome.cpu_seconds
        steps.append(step_row(upper, lower, outcome.aggregate, outcome.cpu_seconds))
        if not steps[-1]["climbs"] and not every_step:
            break
    seconds = time.perf_counter() - started
    climbed = 0
    for s in steps:
        if not s["climbs"]:
            break
        climbed += 1
    return {"schema_version": SCHEMA_VERSION, "game": getattr(game, "id", str(game)),
            "variant": variant, "players": players, "seed": seed, "games_per_step": per_step,
            "rungs": list(rungs), "steps": steps, "depth": climbed,
            "flattened_at": steps[climbed]["upper"] if climbed < len(steps) else None,
            "violations": sum(s["violations"] for s in steps),
            "seconds": round(seconds, 3), "cpu_seconds": round(cpu, 3),
            "findings": [f.to_json() for f in ladder_findings(steps, players)]}


def step_row(upper: str, lower: str, agg: Any, cpu_seconds: float) -> dict[str, Any]:
    """One step: the upper bot's wins per seat-game against the fair share, with its 95%
    interval and the score test's p-value; `climbs` as the module docstring says."""
    n = agg.games
    seat_games = agg.bot_seats.get(upper, 0)
    wins = agg.bot_wins.get(upper, 0.0)
    fair = sum(agg.seat_wins) / (n * agg.players) if n else 0.0
    rate = wins / seat_games if seat_games else 0.0
    lo, hi = st.wilson(wins, seat_games)
    return {"upper": upper, "lower": lower, "games": n, "seat_games": seat_games,
            "wins": round(wins, 4), "win_rate": round(rate, 4), "ci95": [round(lo, 4), round(hi, 4)],
            "fair_share": round(fair, 4), "gap": round(rate - fair, 4),
            "p": round(st.rate_p_value(wins, seat_games, fair), 4),
            "climbs": bool(lo > fair and rate - fair >= CLIMB_GAP_MIN),
            "violations": sum(v["games"] for v in agg.violations.values()),
            "broken": sorted(agg.violations.values(),
                             key=lambda v: (v["first_game"], v["message"])),
            "crashed": agg.ended.get(CRASHED, 0),
            "cpu_seconds_per_game": round(cpu_seconds / n, 3) if n else 0.0}


def ladder_findings(steps: Sequence[dict[str, Any]], players: int) -> list:
    """PNP-B026: no step climbs (mostly luck at these budgets), the first step already wins
    nearly always, or how many steps climb before the rates flatten."""
    from pnp.engine.findings import INFO, WARNING, Finding, all_crashed, broken_findings, pct

    out = [f for s in steps for f in broken_findings(
        s.get("broken", []), s["games"], f" of the step {s['upper']} against {s['lower']}")]
    if not steps or any(all_crashed(s.get("crashed"), s["games"]) for s in steps):
        return out  # a step whose every game broke off measured nothing: no skill finding
    first = steps[0]

    def said(s: dict[str, Any]) -> str:
        lo, hi = s["ci95"]
        return (f"{s['upper']} wins {pct(s['win_rate'])} (95% CI {pct(lo)}–{pct(hi)}) against "
                f"{s['lower']}, fair share {pct(s['fair_share'])}")

    if first["win_rate"] >= NEARLY_ALWAYS:
        out.append(Finding(INFO, "PNP-B026",
                           f"The first step already wins nearly always: {said(first)}: a little "
                           f"more thinking decides the game outright; the steps above say "
                           f"whether still more keeps paying"))
    climbed = 0
    for s in steps:
        if not s["climbs"]:
            break
        climbed += 1
    if climbed == 0 and not any(s["climbs"] for s in steps):
        out.append(Finding(WARNING, "PNP-B026",
                           f"More thinking does not win more: {said(first)}: the game may be "
                           f"mostly luck, or the bots too alike; try stronger rungs before "
                           f"concluding that choices do not matter"))
    elif climbed == 0:
        later = next(s for s in steps if s["climbs"])
        out.append(Finding(INFO, "PNP-B026",
                           f"The first step does not climb ({said(first)}), a later one does: "
                           f"{said(later)}"))
    elif climbed < len(steps):
        stop = steps[climbed]
        again = [s for s in steps[climbed + 1:] if s["climbs"]]
        out.append(Finding(INFO, "PNP-B026",
                           f"Skill pays for {climbed} step{'s' if climbed > 1 else ''} of the "
                           f"ladder, up to {stop['lower']}; then it flattens: {said(stop)}"
                           + (f"; a later step climbs again: {said(again[0])}" if again else "")))
    else:
        out.append(Finding(INFO, "PNP-B026",
                           f"Every step of the ladder climbs ({climbed}): {said(steps[-1])}; a "
                           f"stronger rung may still win more"))
    return out


def skill_section(doc: dict[str, Any]) -> dict[str, Any]:
    """The part of a ladder's document that `pnp simulate` keeps under "skill" (the game, seed
    and players are the run's own; the findings join the run's; no timings, so the document
    stays the same for any number of workers)."""
    steps = [{k: v for k, v in s.items() if k != "cpu_seconds_per_game"} for s in doc["steps"]]
    return {"rungs": doc["rungs"], "games_per_step": doc["games_per_step"], "steps": steps,
            "depth": doc["depth"], "flattened_at": doc["flattened_at"],
            "violations": doc["violations"]}


def with_skill(report: dict[str, Any], doc: dict[str, Any] | None, why_not: str | None = None
               ) -> dict[str, Any]:
    """A simulate report with its skill check: the section under "skill" (or None and the
    reason under "skill_skipped"), and the ladder's findings among the run's, most severe
    first."""
    from pnp.engine.findings import finding_order

    if doc is None:
        report["skill"] = None
        if why_not:
            report["skill_skipped"] = why_not
        return report
    report["skill"] = skill_section(doc)
    report["findings"] = sorted([*report["findings"], *doc["findings"]],
                                key=lambda f: finding_order(f["severity"], f["code"],
                                                            f["message"]))
    return report
