"""Reports of self-play as text and JSON: simulate, compare and sweep.

Everything here reads the results document alone (pnp.engine.selfplay.report_document,
compare_document, pnp.engine.sweep.run_sweep), so a saved JSON file gives the same text later.
No reportlab: a text report loads no PDF machinery.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from pnp.engine.findings import (
    all_crashed,
    all_crashed_words,
    every_game_crashed,
    kind_nouns,
    num,
    pct,
    points,
    seat_name,
)

#: the simulate header wraps at this width (a game's default line-up adds its reason)
HEADER_WIDTH = 100

# --------------------------------------------------------------------------- simulate, compare


def render_json(doc: Mapping[str, Any]) -> str:
    return json.dumps(doc, indent=2, ensure_ascii=False)


def _ci(ci: Sequence[float]) -> str:
    return f"{pct(ci[0])}–{pct(ci[1])}"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _findings_text(findings: Sequence[Mapping[str, str]]) -> list[str]:
    if not findings:
        return ["Findings: none"]
    counts: dict[str, int] = {}
    for f in findings:
        counts[f["severity"]] = counts.get(f["severity"], 0) + 1
    head = ", ".join(f"{n} {s}{'s' if n > 1 and s != 'info' else ''}" for s, n in counts.items())
    lines = [f"Findings ({head}):"]
    for f in findings:
        lines.append(f"  {f['severity']:<7} {f['code']}  {f['message']}")
    return lines


def lineup_text(doc: Mapping[str, Any]) -> str:
    """'bots greedy' (one kind in every seat), or the line-up and its number of seatings; then,
    when the line-up is the game's own default (game.yaml `selfplay:`), why."""
    lineup = doc.get("lineup") or {}
    seats = lineup.get("bots") or [b["bot"] for b in doc["bots"]]
    if len(set(seats)) <= 1:
        said = f"bots {seats[0] if seats else '?'} in every seat"
    else:
        said = (f"line-up ({', '.join(seats)}) in each of its {lineup.get('seatings', '?')} "
                f"seatings equally often")
    if lineup.get("default_because"):
        said += f" (the game's default line-up, because {lineup['default_because']})"
    return said


def sentence(said: str) -> str:
    """A phrase as a sentence: its first letter upper case (the rest as it was, unlike
    str.capitalize, which would turn 'BROKEN' into 'broken'), a full stop at the end."""
    return said[:1].upper() + said[1:] + "."


def lead_summary(doc: Mapping[str, Any]) -> str | None:
    """Lead changes, drama, decisiveness and comebacks in one sentence, or None when no game
    recorded who led each turn (the text's Lead line and the PDF's Lead figure)."""
    lead = doc.get("lead") or {}
    if not lead.get("games"):
        return None
    c, t, d = lead["lead_changes"], lead["trailing_share"], lead["decided_at"]
    return (f"changes mean {num(c['mean'])} (p95 {num(c['p95'])}); the winner "
            f"trailed {pct(t['mean'])} [{_ci(t['ci95'])}] of turns, led for good after "
            f"{pct(d['p50'])} of the game (p50); comebacks {pct(lead['comeback_rate'])} "
            f"[{_ci(lead['comeback_ci95'])}]")


def lead_lines(doc: Mapping[str, Any]) -> list[str]:
    """The Lead line (lead changes, drama, decisiveness, comebacks), when turns were traced."""
    said = lead_summary(doc)
    return [f"Lead       {said}"] if said else []


def skill_why_not(doc: Mapping[str, Any]) -> str:
    """Why a report has no skill check: the reason the run gave, else that it had none."""
    return doc.get("skill_skipped") or "this run played no skill check"


def skill_step_text(s: Mapping[str, Any]) -> str:
    """One step of a skill ladder: the upper bot's win rate against the fair share."""
    if all_crashed(s.get("crashed"), s["games"]):
        return (f"{s['upper']} in one seat against {s['lower']}: every game crashed "
                f"({s['games']}), nothing measured")
    return (f"{s['upper']} in one seat against {s['lower']}: won {pct(s['win_rate'])} "
            f"[{_ci(s['ci95'])}] of {s['seat_games']} games, fair {pct(s['fair_share'])}: "
            f"{'more thinking wins more' if s['climbs'] else 'no clear gain'}")


def skill_depth_text(sk: Mapping[str, Any]) -> str:
    """How many steps of the run's short ladder climbed, out of how many."""
    played, rungs = len(sk["steps"]), sk["rungs"]
    return (f"depth {sk['depth']} of {len(rungs) - 1} step{'s' if len(rungs) != 2 else ''} "
            f"({' < '.join(rungs)})"
            + ("" if played == len(rungs) - 1 else f", stopped after {played}")
            + "; pnp ladder climbs further"
            + (f"; invariants BROKEN in {sk['violations']} games" if sk["violations"] else ""))


def skill_lines(doc: Mapping[str, Any]) -> list[str]:
    """The Skill lines: each step of the run's short ladder (the upper bot in one seat against
    the lower in the rest), whether it climbs, and the depth."""
    sk = doc.get("skill")
    if not sk:
        return [f"Skill      not measured: {doc['skill_skipped']}"] if doc.get(
            "skill_skipped") else []
    lines = [f"{'Skill' if i == 0 else '':<11}{skill_step_text(s)}"
             for i, s in enumerate(sk["steps"])]
    lines.append(f"{'':<11}{skill_depth_text(sk)}")
    return lines


#: options shown in the text report (those whose pickers' win rate differs most from the rest)
TEXT_OPTIONS = 5


def choice_lines(doc: Mapping[str, Any]) -> list[str]:
    """The Choices line (branching factor, options never picked) and the few options whose
    pickers win most differently from every other seat-game (the JSON lists them all)."""
    ch = doc.get("choices") or {}
    b, rows = ch.get("branching") or {}, ch.get("options") or []
    if not b.get("decisions"):
        return []
    never = sum(1 for r in rows if not r["picked"])
    lines = [f"Choices    {num(b['mean'])} options a decision (p50 {b['p50']}, p95 {b['p95']}, "
             f"max {b['max']}), {num(b['per_game'])} decisions a game; {len(rows)} named options"
             f", {never} never picked"]
    shown = sorted((r for r in rows if r["tested"]),
                   key=lambda r: (-abs(r["gap"]), r["why"], r["option"]))[:TEXT_OPTIONS]
    for r in shown:
        lines.append(f"  picked   '{r['option']}' at '{r['why']}': {pct(r['pick_rate'])} of "
                     f"{r['offered']} offers; its pickers won {pct(r['win_rate_picked'])} "
                     f"[{_ci(r['ci95_picked'])}], the rest {pct(r['win_rate_not_picked'])} "
                     f"[{_ci(r['ci95_not_picked'])}]" + (" *" if r["flagged"] else ""))
    op = ch.get("openings") or {}
    if op.get("most_played"):
        top = op["most_played"][0]
        line = (f"Openings   {op['distinct']} distinct (a seat's first {op['picks']} picks at "
                f"a decision); most played '{top['opening']}': {pct(top['share'])} of "
                f"seat-games, won {pct(top['win_rate'])} [{_ci(top['ci95'])}]")
        if top["win_rate_rest"] is None:  # a forced road says little: name a chosen one too
            line += ", no seat opened otherwise"
            chosen = next((r for r in op["most_played"] if r["tested"]), None)
            if chosen:
                line += (f"; where seats chose, '{chosen['opening']}': {pct(chosen['share'])}"
                         f", won {pct(chosen['win_rate'])} [{_ci(chosen['ci95'])}], the "
                         f"others there {pct(chosen['win_rate_rest'])} "
                         f"[{_ci(chosen['ci95_rest'])}]")
        lines.append(line)
    return lines


def played_words(doc: Mapping[str, Any]) -> str:
    """'200 games', or for `--game`: 'game 7 (its seed …) of a run of 12 games'."""
    only = doc.get("only_game")
    return (f"game {only['game']} (its seed {only['seed']}) of a run of {only['of']} games"
            if only else f"{doc['games']} games")


def render_text(doc: Mapping[str, Any]) -> str:
    """Header, key figures, then the findings most severe first."""
    o, t, m = doc["outcomes"], doc["turns"], doc["margin"]
    header = (f"{doc['game']} ({doc['variant'] or 'base rules'}): {played_words(doc)}, "
              f"{doc['players']} players, seed {doc['seed']}, {lineup_text(doc)}")
    lines = [
        # a game's own line-up brings its reason, a sentence or two: wrapped, not one long line
        textwrap.fill(header, width=HEADER_WIDTH, subsequent_indent="  ",
                      break_on_hyphens=False, break_long_words=False),
        f"  {doc['seconds']:.1f} s, {doc['games_per_second']:.1f} games/s, "
        f"invariants checked: {doc['invariants']}",
        "",
    ]
    if every_game_crashed(doc):  # no figure is of a game that ran: the error alone
        lines += [f"Outcomes   {all_crashed_words(doc)}; fix that and run again", ""]
        lines.extend(_findings_text(doc["findings"]))
        return "\n".join(lines)
    lines += [
        f"Turns      mean {num(t['mean'])}, p50 {num(t['p50'])}, p95 {num(t['p95'])}, "
        f"max {t['max']}",
        f"Outcomes   completed {pct(o['completion_rate'])}, timeouts {pct(o['timeout_rate'])}, "
        f"games with an elimination {pct(o['elimination_rate'])}"
        + (f", crashed {pct(o['crashed'] / doc['games'])}" if o.get("crashed") else "")
        + (" (" + ", ".join(f"{k} {v}" for k, v in o["elimination_causes"].items()) + ")"
           if o["elimination_causes"] else ""),
        "Seats      " + "  ".join(f"{seat_name(s)}: {pct(s['win_rate'])} [{_ci(s['ci95'])}]"
                                  for s in doc["seats"]) + f"   (fair {pct(doc['fair_share'])})",
        "Bots       " + "  ".join(f"{b['bot']}: {pct(b['win_rate'])} [{_ci(b['ci95'])}]"
                                  for b in doc["bots"]),
        f"Margin     mean {num(m['mean'])}, p50 {num(m['p50'])}, p95 {num(m['p95'])}, "
        f"ties {pct(m['tie_rate'])}",
        *lead_lines(doc),
        *skill_lines(doc),
        *choice_lines(doc),
    ]
    used = [f"{coverage_title(kind).lower()} {sum(1 for v in keys.values() if v)} of {len(keys)}"
            for kind, keys in doc.get("coverage", {}).items() if keys]
    landed = [v for row in doc["spaces"].values() for v in row.values()]
    if landed:
        used.append(f"spaces {sum(1 for v in landed if v)} of {len(landed)}")
    if used:
        lines.append("Used       " + ", ".join(used))
    never = doc["never_seen"]
    unused = never.get("coverage", [])
    if never["spaces"] or never["chart_results"] or unused:
        lines.append(f"Never seen {_count(len(never['spaces']), 'space')}, "
                     f"{_count(len(never['chart_results']), 'chart result')}"
                     + (f", {_count(len(unused), 'other item')} never used" if unused else ""))
    for s in (doc.get("supplies") or {}).values():
        lines.append(f"Supply     {s['name']}: need p99 {s['need_p99']} (max {s['need_max']}) "
                     f"of {s['stock']} in the box"
                     + (f", ran out in {pct(s['short_rate'])} of games" if s["short_games"] else "")
                     + (f": print {s['print_more']} more" if s["print_more"] else ""))
    if doc.get("factions"):
        lines.append("Factions   " + "  ".join(f"{f['faction']}: {pct(f['win_rate'])} "
                                              f"[{_ci(f['ci95'])}]" for f in doc["factions"]))
    if doc["violations"]:
        lines.append(f"Invariants BROKEN in {sum(v['games'] for v in doc['violations'])} game "
                     f"reports ({len(doc['violations'])} distinct)")
    lines.append("")
    lines.extend(_findings_text(doc["findings"]))
    return "\n".join(lines)


COMPARE_SECTIONS = {"game": "Game", "seats": "Win rate by seat",
                    "stats": "Stats at game end (mean)", "events": "Events per game"}


def render_compare_text(doc: Mapping[str, Any]) -> str:
    """Each figure under A and B, the difference B − A with its 95% CI; * marks a real change."""
    significant = sum(m["significant"] for m in doc["metrics"])
    lines = [
        f"{doc['game']}: {doc['b']} vs {doc['a']}, {doc['games']} games each (same seeds), "
        f"{doc['players']} players, seed {doc['seed']}, bots {','.join(doc['bots'])}",
        f"  {doc['seconds']:.1f} s. {significant} of {len(doc['metrics'])} figures differ: "
        f"marked *, the 95% CI of B − A excludes 0.",
    ]
    crashed = doc.get("crashed") or {}
    gone = [doc[side] for side in ("a", "b") if all_crashed(crashed.get(side), doc["games"])]
    if gone:  # the figures of a side whose every game crashed are of games that never ran
        lines += ["", f"  every game of {' and '.join(dict.fromkeys(gone))} crashed: nothing to "
                      "compare; the errors are below", ""]
        lines.extend(_findings_text([f for f in doc["findings"] if f["severity"] == "error"]))
        return "\n".join(lines)
    groups = list(dict.fromkeys([*GROUP_ORDER, *(m.get("group", "game") for m in doc["metrics"])]))
    width = max([len(_short_label(m)) for m in doc["metrics"]]
                + [len(COMPARE_SECTIONS.get(g, g)) for g in groups
                   if any(m.get("group", "game") == g for m in doc["metrics"])])
    col = max(len(doc["a"]), len(doc["b"]), 8)
    for group in groups:
        rows = [m for m in doc["metrics"] if m.get("group", "game") == group]
        if not rows:
            continue
        lines.append("")
        lines.append(f"  {COMPARE_SECTIONS.get(group, group):{width}}  {doc['a']:>{col}}  "
                     f"{doc['b']:>{col}}  {'B − A':>10}  95% CI")
        for m in rows:
            if m["kind"] == "rate":
                a, b, d = pct(m["a"]), pct(m["b"]), points(m["diff"])
                ci = f"{points(m['ci95'][0])} to {points(m['ci95'][1])}"
            else:
                a, b, d = f"{m['a']:.2f}", f"{m['b']:.2f}", f"{m['diff']:+.2f}"
                ci = f"{m['ci95'][0]:+.2f} to {m['ci95'][1]:+.2f}"
            mark = "*" if m["significant"] else " "
            lines.append(f"{mark} {_short_label(m):{width}}  {a:>{col}}  {b:>{col}}  {d:>10}  {ci}")
    errors = [f for f in doc["findings"] if f["severity"] == "error"]
    if errors:
        lines.append("")
        lines.extend(_findings_text(errors))
    return "\n".join(lines)


GROUP_ORDER = ("game", "seats", "stats", "events")


def _short_label(m: Mapping[str, Any]) -> str:
    """The metric's name without what its section heading already says."""
    label = m["metric"]
    if m.get("group") == "stats":
        return label.removesuffix(" (mean)").removesuffix(" at game end")
    if m.get("group") == "events":
        return label.removesuffix(" per game")
    if m.get("group") == "seats":
        return label.removesuffix(" win rate")
    return label


def coverage_title(kind: str) -> str:
    """'card' -> 'Cards', 'action' -> 'Action spaces', 'technology' -> 'Technologies'."""
    return kind_nouns(kind)[1].capitalize()


# --------------------------------------------------------------------------- sweep

#: findings listed per cell in the text and the PDF (all of them are in the JSON)
TOP_FINDINGS = 3


def _pts(x: float) -> str:
    return f"{x * 100:+.1f}"


def _seat_text(b: Mapping[str, Any]) -> str:
    lo, hi = b["gap_ci95"]
    mark = " *" if b["significant"] else ""
    return f"seat {b['seat']} {_pts(b['gap'])} ({_pts(lo)} to {_pts(hi)}){mark}"


def _skill_text(s: Mapping[str, Any] | None) -> str:
    if s is None:
        return "n/a (one bot)"
    lo, hi = s["ci95"]
    mark = " *" if s["significant"] else ""
    return f"{s['best']} {_pts(s['diff'])} ({_pts(lo)} to {_pts(hi)}){mark}"


def _finding_counts(findings: Sequence[Mapping[str, str]]) -> str:
    counts: dict[str, int] = {}
    for f in findings:
        counts[f["severity"]] = counts.get(f["severity"], 0) + 1
    return ", ".join(f"{n} {s}{'s' if n > 1 and s != 'info' else ''}"
                     for s, n in counts.items()) or "none"


def table_rows(sweep: Mapping[str, Any]) -> list[list[str]]:
    """The table, header first: one row a cell."""
    rows = [["cell", "completed", "turns mean (p50/p95)", "worst seat, pts vs fair (95% CI)",
             "skill: best − worst bot, pts (95% CI)", "findings"]]
    for c in sweep["cells"]:
        t = c["turns"]
        if all_crashed(c.get("crashed"), c["games"]):  # figures of games that never ran
            rows.append([c["label"], "0%", "every game crashed", "-", "-",
                         _finding_counts(c["findings"])])
            continue
        rows.append([c["label"], pct(c["completion_rate"]),
                     f"{num(t['mean'])} ({num(t['p50'])}/{num(t['p95'])})",
                     _seat_text(c["seat_balance"]), _skill_text(c["skill"]),
                     _finding_counts(c["findings"])])
    return rows


def render_sweep_text(sweep: Mapping[str, Any]) -> str:
    """The header line, the table, then each cell's most severe findings."""
    cells = sweep["cells"]
    lines = [f"{sweep['game']} sweep: {len(cells)} cells × {sweep['games_per_cell']} games "
             f"(seed {sweep['seed']}), {sweep['games']} games in {sweep['seconds']:.1f} s", ""]
    rows = table_rows(sweep)
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        lines.append("  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)).rstrip())
    lines += ["", "pts: percentage points. *: for a seat, the seat test flags it (the test of "
              "PNP-B005: Holm-corrected over the cell's seats, 3 points or more); for skill, the "
              "95% interval excludes 0 (the better bot really wins more).", "",
              "Top findings:"]
    for c in cells:
        lines.append(f"  {c['label']}")
        for f in c["findings"][:TOP_FINDINGS] or [{"severity": "", "code": "", "message":
                                                   "none"}]:
            lines.append(f"    {f['severity']:<7} {f['code']:<8}  {f['message']}".rstrip()
                         if f["code"] else "    none")
        if len(c["findings"]) > TOP_FINDINGS:
            lines.append(f"    … {len(c['findings']) - TOP_FINDINGS} more (--format json)")
    return "\n".join(lines)


def render_ladder_text(doc: Mapping[str, Any]) -> str:
    """The ladder: one line per step (the upper bot's win rate against the lower, fair
    share, whether it climbs), the depth, then the findings."""
    lines = [f"{doc['game']} ({doc['variant'] or 'base rules'}): skill ladder, {doc['players']} "
             f"players, seed {doc['seed']}, {doc['games_per_step']} games a step; "
             f"{' < '.join(doc['rungs'])}",
             f"  {doc['seconds']:.1f} s ({doc['cpu_seconds']:.1f} CPU s)", ""]
    for s in doc["steps"]:
        if all_crashed(s.get("crashed"), s["games"]):
            lines.append(f"  {s['upper']:>12} vs {s['lower']:<12} every game crashed "
                         f"({s['games']}): nothing measured")
            continue
        lines.append(f"  {s['upper']:>12} vs {s['lower']:<12} {pct(s['win_rate']):>4} "
                     f"[{_ci(s['ci95'])}] of {s['seat_games']} games, fair {pct(s['fair_share'])}"
                     f"  {'climbs' if s['climbs'] else 'flat'}  "
                     f"({s['cpu_seconds_per_game']:.2f} CPU s a game)")
    played = len(doc["steps"])
    if played < len(doc["rungs"]) - 1:
        last = doc["steps"][-1]
        why = ("crashed in every game" if all_crashed(last.get("crashed"), last["games"]) else
               "did not climb; --every-step plays them all")
        lines.append(f"  (stopped after {played} of {len(doc['rungs']) - 1} steps: the last "
                     f"{why})")
    if any(all_crashed(s.get("crashed"), s["games"]) for s in doc["steps"]):
        lines.append("Depth      not measured: a step crashed in every game (below)")
    else:
        lines.append(f"Depth      {doc['depth']} of {played} "
                     f"step{'s' if played != 1 else ''} climbed"
                     + (f"; flat from {doc['flattened_at']}" if doc["flattened_at"] else ""))
    if doc["violations"]:
        lines.append(f"Invariants BROKEN in {doc['violations']} game reports")
    lines.append("")
    lines.extend(_findings_text(doc["findings"]))
    return "\n".join(lines)
