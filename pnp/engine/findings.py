"""Findings: what a designer should look at, in plain words, each with a severity and a code.

Every threshold is a named constant below, so a reader can see why something fired (or did
not) and tune it. Findings read the simulate document (rates, intervals, tables) plus the
per-game columns kept by the aggregate.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pnp.diagnostics import ERROR, INFO, WARNING
from pnp.engine import stats as st
from pnp.engine.dice import distribution, enumerable
from pnp.engine.result import CRASH_PREFIX, NOT_PLAYED, RUNAWAY_PREFIX

# --- thresholds -------------------------------------------------------------------------------
#: eliminations before this turn count as early
EARLY_ELIMINATION_TURN = 6
#: share of games with an early elimination that makes a warning
EARLY_ELIMINATION_RATE = 0.10
#: share of games with any elimination worth an info line
ELIMINATION_RATE_INFO = 0.25
#: a seat's edge must exceed this (absolute win-rate points) as well as be significant
SEAT_GAP_MIN = 0.03
#: family-wise error for "some seat differs": the P seats' p-values are Holm-corrected
SEAT_ALPHA = 0.05
#: clips per game above which a cap or floor is reported (info), and warned about
CAP_CLIPS_INFO = 1.0
CAP_CLIPS_WARN = 3.0
#: share of players ending at a stat's cap (warning) or floor (info) that makes it "pinned"
PINNED_SHARE = 0.5
#: a result this likely to have shown up by chance (1 - P(missed)) makes "never seen" a warning
NEVER_SEEN_CONFIDENCE = 0.99
#: median winning margin, as a share of the winner's score, that suggests a runaway leader
RUNAWAY_SHARE = 0.4
#: a record sheet's turn grid is too short (warning) when this share of games goes past it
GRID_SHORT_SHARE = 0.05
#: share of games ending in a tie for first worth an info line
TIE_RATE_INFO = 0.10
#: family-wise error for "the strongest bot beats its fair share" (the best of B bots is tested
#: at SKILL_ALPHA / B), and the least edge, in win-rate points, that counts as skill
SKILL_ALPHA = 0.05
SKILL_GAP_MIN = 0.03
#: family-wise error for "some faction differs": each of F factions is tested at
#: FACTION_ALPHA / F, and the least edge that counts
FACTION_ALPHA = 0.05
FACTION_GAP_MIN = 0.03
#: at most this many distinct invariant violations are listed one by one
MAX_VIOLATION_FINDINGS = 10
#: at most this many decisions with never-picked options, and options whose pickers win more
#: or less, are listed one by one (the rest on one line; all of them in the JSON)
MAX_CHOICE_FINDINGS = 8

SEVERITY_ORDER = {ERROR: 0, WARNING: 1, INFO: 2}


@dataclass(frozen=True)
class Finding:
    severity: str
    code: str
    message: str

    def to_json(self) -> dict[str, str]:
        return {"severity": self.severity, "code": self.code, "message": self.message}


def pct(x: float) -> str:
    """A rate as a short percentage: 41%, 0.4%, 0%."""
    if 0 < abs(x) < 0.01:
        return f"{x * 100:.1f}%"
    return f"{x * 100:.0f}%"


def points(x: float) -> str:
    """A difference of rates in percentage points, signed: +4.2 pts."""
    return f"{x * 100:+.1f} pts"


def num(x: float) -> str:
    """A figure with at most one decimal and no trailing zero: 4, 4.5, 14.1."""
    text = f"{x:.1f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


#: findings that generalise from many games (rates, shares, tendencies, one bot against
#: another): when every game played out alike (PNP-B027) there is one game behind them, so they
#: stand down; what stays describes that one game (never used, pinned, supplies, violations)
ALIKE_STAND_DOWN = frozenset({"PNP-B005", "PNP-B013", "PNP-B014", "PNP-B015", "PNP-B019",
                              "PNP-B022", "PNP-B023", "PNP-B024", "PNP-B025"})


#: how PNP-B001 leads a game that broke off rather than broke a rule, by its violation's start
BROKE_OFF = ((CRASH_PREFIX, "Crashed"), (RUNAWAY_PREFIX, "Stopped"), (NOT_PLAYED, "Not played"))


def broken_lead(message: str) -> str:
    """'Crashed', 'Stopped', 'Not played' or 'Invariant broken': what a violation says of its
    games, read from how its message begins."""
    return next((lead for start, lead in BROKE_OFF if message.startswith(start)),
                "Invariant broken")


def all_crashed(crashed: int | None, games: int | None) -> bool:
    """True when every one of `games` games broke off (the rules raised, or ran past the
    budget, or were not played after a runaway): a run, a ladder step, a sweep cell or a side
    of a comparison whose figures would all be of games that never ran."""
    return bool(crashed) and crashed == games


def every_game_crashed(doc: Mapping[str, Any]) -> bool:
    """True when every game of the run broke off, so nothing else was measured."""
    return all_crashed((doc.get("outcomes") or {}).get("crashed"), doc.get("games"))


def all_crashed_words(doc: Mapping[str, Any]) -> str:
    """What the text and PDF reports say instead of their figures when every game crashed."""
    return (f"every game crashed ({doc['outcomes']['crashed']} of {doc['games']}): the rules "
            "raised an error or ran past the budget, so nothing was measured")


def find(doc: Mapping[str, Any], game: Any = None, agg: Any = None) -> list[Finding]:
    """Every finding for one simulate document, most severe first (then by code, message)."""
    out: list[Finding] = []
    for check in (_violations, _timeouts, _eliminations, _seats, _never_seen, _never_used,
                  _short_grids, _caps,
                  _pinned, _runaway, _ties, _skill, _supplies, _factions, _never_picked,
                  _pickers_win, _plans):
        out.extend(check(doc, game, agg))
    if every_game_crashed(doc):  # the figures are of games that never ran: only the error
        out = [f for f in out if f.code == "PNP-B001"]
    elif (doc.get("outcomes") or {}).get("all_alike"):
        out = [f for f in out if f.code not in ALIKE_STAND_DOWN]
    return sorted(out, key=lambda f: finding_order(f.severity, f.code, f.message))


def finding_order(severity: str, code: str, message: str) -> tuple:
    """How findings are listed: most severe first, then by code; PNP-B001 keeps the run's
    order (the first game's problem first: a runaway before the games it left unplayed), the
    others read alphabetically within a code."""
    return SEVERITY_ORDER.get(severity, 9), code, "" if code == "PNP-B001" else message


def _name(table: Any, key: str) -> str:
    item = (table or {}).get(key)
    return getattr(item, "name", None) or key


def _titled(table: Any, key: str, noun: str) -> str:
    """'Farm track', but 'Pre-History Track' when the name already says what it is."""
    name = _name(table, key)
    return name if name.lower().endswith(noun.lower()) else f"{name} {noun}"


def _violations(doc, game, agg) -> list[Finding]:
    return broken_findings(doc["violations"], doc["games"])


def broken_findings(violations: list[dict[str, Any]], n: int, where: str = "") -> list[Finding]:
    """PNP-B001 for the distinct violations of `n` games (`where`: ' of the step ...' when they
    are a ladder step's), most games first as the run sorted them, the rest summed."""
    out = []
    for v in violations[:MAX_VIOLATION_FINDINGS]:
        what = broken_lead(v["message"])
        # a game of the run itself (not of a ladder step) can be played alone
        alone = f"; {_play_alone(v['first_game'])}" if n > 1 and not where else ""
        out.append(Finding(ERROR, "PNP-B001",
                           f"{what} in {v['games']} of {n} games{where}: {v['message']} "
                           f"(first in game {v['first_game']}, seed {v['first_seed']}{alone})"))
    if len(violations) > MAX_VIOLATION_FINDINGS:
        rest = violations[MAX_VIOLATION_FINDINGS:]
        out.append(Finding(ERROR, "PNP-B001",
                           f"{len(rest)} more distinct invariant violations in "
                           f"{sum(v['games'] for v in rest)} game reports{where} (see the JSON "
                           f"output)"))
    return out


def _play_alone(index: int, log: str = "") -> str:
    """How to look at one game a finding names (`pnp simulate --game`)."""
    return f"`pnp simulate` with the run's options and `--game {index}{log}` plays it alone"


def _timeouts(doc, game, agg) -> list[Finding]:
    o, n = doc["outcomes"], doc["games"]
    if not o["timeouts"]:
        return []
    cap = f" of {doc['max_turns']} turns" if doc.get("max_turns") else ""
    first = o.get("first_timeout")
    look = (f"; the first was game {first['game']} (seed {first['seed']}): "
            f"{_play_alone(first['game'], ' --log FILE')} and writes its event log"
            if first and n > 1 else "")
    return [Finding(WARNING, "PNP-B002",
                    f"{pct(o['timeout_rate'])} of games ({o['timeouts']} of {n}) hit the turn cap"
                    f"{cap} before the game ended: the end condition may be out of reach"
                    f"{look}")]


def _eliminations(doc, game, agg) -> list[Finding]:
    o, n = doc["outcomes"], doc["games"]
    out = []
    causes = o["elimination_causes"]
    total = sum(causes.values())
    top = max(causes, key=lambda k: (causes[k], k)) if causes else ""
    cause = f" (most often by {top}: {pct(causes[top] / total)} of eliminations)" if total else ""
    firsts = getattr(agg, "first_elimination_turns", None) or []
    early = sum(1 for t in firsts if t < EARLY_ELIMINATION_TURN)
    if n and early / n >= EARLY_ELIMINATION_RATE:
        out.append(Finding(WARNING, "PNP-B003",
                           f"{pct(early / n)} of games have a player eliminated before turn "
                           f"{EARLY_ELIMINATION_TURN}{cause}"))
    elif n and o["elimination_rate"] >= ELIMINATION_RATE_INFO:
        out.append(Finding(INFO, "PNP-B003",
                           f"{pct(o['elimination_rate'])} of games see a player eliminated{cause}"))
    if o.get("all_eliminated"):
        out.append(Finding(WARNING, "PNP-B004",
                           f"{pct(o['all_eliminated'] / n)} of games ({o['all_eliminated']} of {n}) "
                           f"end with every player eliminated and no winner"))
    return out


def seat_tests(doc: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The one seat-fairness test, shared by PNP-B005 and `pnp sweep` so they never disagree.

    Each seat's win credit is tested against the fair share with the score test (the one the
    Wilson interval inverts); the P seats' p-values are Holm-corrected (family-wise error
    SEAT_ALPHA for "some seat differs"), and a seat is flagged when its corrected p-value is
    below SEAT_ALPHA **and** it is at least SEAT_GAP_MIN from the fair share. Games that all
    played out alike (PNP-B027) are one game repeated: no seat is flagged. Per seat:
    {seat, gap, p, p_holm, flagged}."""
    fair, n = doc["fair_share"], doc["games"]
    seats = doc["seats"]
    alike = bool((doc.get("outcomes") or {}).get("all_alike"))
    raw = [st.rate_p_value(s["wins"], n, fair) for s in seats]
    adjusted = st.holm(raw)
    out = []
    for s, p, q in zip(seats, raw, adjusted, strict=True):
        gap = s["win_rate"] - fair
        out.append({"seat": s["seat"], "gap": gap, "p": p, "p_holm": q,
                    "flagged": bool(q < SEAT_ALPHA and abs(gap) >= SEAT_GAP_MIN
                                    and not alike)})
    return out


def seat_name(seat: Mapping[str, Any]) -> str:
    """A seat as reports name it: its number, and the faction it played in every game when
    there is one ('4 (Persians)')."""
    faction = seat.get("faction")
    return f"{seat['seat']} ({faction})" if faction else str(seat["seat"])


def _seats(doc, game, agg) -> list[Finding]:
    """Each favoured seat on its own line; the seats that lose out together on one line.

    The decision is seat_tests' (Holm-corrected for the number of seats); the message shows
    the plain 95% interval and the corrected p-value.
    """
    fair = doc["fair_share"]
    if doc["outcomes"].get("all_alike"):
        return [Finding(WARNING, "PNP-B027",
                        f"All {doc['games']} games played out alike (the same turns, scores, "
                        f"winners and decisions): nothing in the game or the bots varied, so the "
                        f"run is one game repeated. Its seat, faction, option and plan rates "
                        f"describe that game, so no seat, faction, option or plan is flagged, "
                        f"and the findings left describe that one game; play bots that vary "
                        f"(greedy-varied, random, mcts; game.yaml's selfplay: can make one the "
                        f"game's default) or add chance to measure them")]
    out, below = [], []
    by_seat = {s["seat"]: s for s in doc["seats"]}
    for t in seat_tests(doc):
        if not t["flagged"]:
            continue
        s = by_seat[t["seat"]]
        lo, hi = s["ci95"]
        if t["gap"] > 0:
            out.append(Finding(WARNING, "PNP-B005",
                               f"Seat {seat_name(s)} wins {pct(s['win_rate'])} of games "
                               f"(95% CI {pct(lo)}–{pct(hi)}), above the fair share of "
                               f"{pct(fair)} (Holm-corrected {_p(t['p_holm'])})"))
        else:
            below.append((s, t))
    if below:
        which = _and([seat_name(s) for s, _ in below])
        rates = ", ".join(f"{pct(s['win_rate'])} ({pct(s['ci95'][0])}–{pct(s['ci95'][1])}, "
                          f"{_p(t['p_holm'])})" for s, t in below)
        out.append(Finding(WARNING, "PNP-B005",
                           f"Seat{'s' if len(below) > 1 else ''} {which} win{'' if len(below) > 1 else 's'} "
                           f"less than the fair share of {pct(fair)}: {rates} (95% CIs, "
                           f"Holm-corrected p)"))
    return out


def _games(n: int) -> str:
    """'1 game', '200 games' (`pnp simulate --game` reports one)."""
    return f"{n} game{'' if n == 1 else 's'}"


def _p(p: float) -> str:
    """A p-value as a short statement: p = 0.003, p = 0.04, p < 0.001."""
    if p < 0.001:
        return "p < 0.001"
    return f"p = {p:.3f}" if p < 0.01 else f"p = {p:.2f}"


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _chart_odds(chart: Any) -> dict[int, float]:
    """Probability of each total for the chart's dice (e.g. 2D6 is not uniform)."""
    die = getattr(chart, "die", None)
    count, sides = (getattr(die, "count", 1), getattr(die, "sides", 6)) if die else (1, 6)
    if not enumerable(count, sides):  # O(count · range), not O(count · range · sides)
        return dict(distribution(count, sides))
    dist = {0: 1.0}
    for _ in range(count):
        nxt: dict[int, float] = {}
        for total, p in dist.items():
            for face in range(1, sides + 1):
                nxt[total + face] = nxt.get(total + face, 0.0) + p / sides
        dist = nxt
    return dist


def _never_seen(doc, game, agg) -> list[Finding]:
    n = doc["games"]
    out = []
    tracks = getattr(game, "tracks", {}) or {}
    missing: dict[str, list[str]] = {}
    for s in doc["never_seen"]["spaces"]:
        missing.setdefault(s["track"], []).append(s["name"] or s["space"])
    for track, names in missing.items():
        landings = sum(doc["spaces"].get(track, {}).values())
        what = "never landed on" if landings else "never landed on (the track was never used)"
        out.append(Finding(WARNING, "PNP-B006",
                           f"{_titled(tracks, track, 'track')}: {len(names)} "
                           f"space{'s' if len(names) > 1 else ''} {what} in {_games(n)}: "
                           f"{', '.join(names)}"))
    charts = getattr(game, "charts", {}) or {}
    rows_missing: dict[str, list[dict]] = {}
    for r in doc["never_seen"]["chart_results"]:
        rows_missing.setdefault(r["chart"], []).append(r)
    for chart_id, rows in rows_missing.items():
        rolls = sum(doc["charts"].get(chart_id, {}).values())
        name = _titled(charts, chart_id, "chart")
        if rolls == 0:
            out.append(Finding(WARNING, "PNP-B008", f"The {name} was never rolled in {_games(n)}"))
            continue
        chart = charts.get(chart_id)
        odds = _chart_odds(chart) if chart is not None else {}
        sure, unsure = [], []
        for r in rows:
            row = next((x for x in chart.rows if x.roll_label == r["roll"]), None) if chart else None
            p = sum(odds.get(t, 0.0) for t in range(row.low, row.high + 1)) if row else 0.0
            (sure if 1 - (1 - p) ** rolls >= NEVER_SEEN_CONFIDENCE else unsure).append(
                f"{r['roll']} ({r['result']})")
        if sure:
            out.append(Finding(WARNING, "PNP-B009",
                               f"{name}: {', '.join(sure)} never came up in {rolls} rolls, "
                               f"though the dice should have shown "
                               f"{'it' if len(sure) == 1 else 'them'}: check the rule that rolls it"))
        if unsure:
            out.append(Finding(INFO, "PNP-B009",
                               f"{name}: {', '.join(unsure)} never came up, but the chart was "
                               f"rolled only {rolls} times in {_games(n)}"))
    return out


#: coverage kinds as a report names them ("card" -> "cards")
KIND_NOUNS = {"card": ("card", "cards"), "action": ("action space", "action spaces")}


def kind_nouns(kind: str) -> tuple[str, str]:
    """A coverage kind as a report names one and many: 'card' -> ('card', 'cards'); a
    module's own kind in plain English: 'technology' -> ('technology', 'technologies')."""
    if kind in KIND_NOUNS:
        return KIND_NOUNS[kind]
    if kind.endswith("y") and kind[-2:-1] not in ("", "a", "e", "i", "o", "u"):
        return kind, kind[:-1] + "ies"
    if kind.endswith(("s", "x", "z", "ch", "sh")):
        return kind, kind + "es"
    return kind, kind + "s"


def _key_name(game: Any, kind: str, key: str) -> str:
    """A coverage key as the designer wrote it: a card's name for 'deck/card'."""
    if kind == "card" and "/" in key:
        deck, _, card = key.partition("/")
        d = (getattr(game, "decks", None) or {}).get(deck)
        c = next((c for c in getattr(d, "cards", ()) if c.id == card), None)
        return getattr(c, "name", None) or key
    if kind == "action":
        return _name(getattr(game, "action_spaces", None), key)
    # a module's own kind keyed by a card's id ('card-action', 'technology'): the card's name
    names = {c.name for d in (getattr(game, "decks", None) or {}).values()
             for c in getattr(d, "cards", ()) if c.id == key and c.name}
    return names.pop() if len(names) == 1 else key


def _never_used(doc, game, agg) -> list[Finding]:
    """Cards never played, action spaces never taken (the rules module's coverage keys)."""
    n = doc["games"]
    missing: dict[str, list[str]] = {}
    for item in doc["never_seen"].get("coverage", ()):
        missing.setdefault(item["kind"], []).append(_key_name(game, item["kind"], item["key"]))
    out = []
    for kind, names in missing.items():
        one, many = kind_nouns(kind)
        used = sum(doc.get("coverage", {}).get(kind, {}).values())
        what = "never used" if used else f"never used (no {one} was used at all)"
        out.append(Finding(WARNING, "PNP-B017",
                           f"{len(names)} {one if len(names) == 1 else many} {what} in {_games(n)}: "
                           f"{', '.join(names)}"))
    return out


def _short_grids(doc, game, agg) -> list[Finding]:
    """A record sheet whose turn grid has fewer rows than games last: the printed sheet runs
    out before the game does (warning when 5% of games or more go past it)."""
    sheets = getattr(game, "record_sheets", None) or {}
    lengths = {int(t): k for t, k in ((doc.get("turns") or {}).get("histogram") or {}).items()}
    n = sum(lengths.values())
    out = []
    for sheet in sheets.values():
        rows = sheet.turn_grid_turns
        longer = sum(k for t, k in lengths.items() if t > rows)
        if not rows or not longer:
            continue
        severity = WARNING if longer >= GRID_SHORT_SHARE * n else INFO
        out.append(Finding(severity, "PNP-B028",
                           f"{sheet.name}: its turn grid has {rows} turns, and {pct(longer / n)} "
                           f"of games ({longer} of {n}) went past turn {rows} (the longest "
                           f"lasted {max(lengths)}): a player runs out of rows; give "
                           f"turn_grid more turns (record-sheet.yaml)"))
    return out


def _caps(doc, game, agg) -> list[Finding]:
    stats = getattr(game, "stats", {}) or {}
    out = []
    for key, bound in (("cap_clips", "cap"), ("floor_clips", "min")):
        for stat_id, c in (doc.get(key) or {}).items():
            per_game = c["per_game"]
            if per_game < CAP_CLIPS_INFO:
                continue
            severity = WARNING if per_game >= CAP_CLIPS_WARN else INFO
            limit = getattr(stats.get(stat_id), bound, None)
            if bound == "cap":
                what = f"hit its cap of {limit}" if limit is not None else "hit its cap"
                lost = "the rest of each gain is lost"
            else:
                what = f"fell to its floor of {limit}" if limit is not None else "fell to its floor"
                lost = "losses larger than what was left were cut short"
            out.append(Finding(severity, "PNP-B010",
                               f"{_name(stats, stat_id)} {what} {num(per_game)} times a game: "
                               f"{lost}"))
    return out


def _pinned(doc, game, agg) -> list[Finding]:
    stats = getattr(game, "stats", {}) or {}
    values = getattr(agg, "stat_values", None) or {}
    out = []
    for stat_id, summary in doc["stats"].items():
        name = _name(stats, stat_id)
        stat = stats.get(stat_id)
        cap, floor = getattr(stat, "cap", None), getattr(stat, "min", None)
        if summary["min"] == summary["max"] and summary["min"] != cap:
            # at its floor (0 for a counter with none declared) it may as well be used up
            # every game as never touched
            at_floor = summary["min"] == (0 if floor is None else floor)
            # only final values are known: the same end may be a start never moved, or a
            # limit every player reaches (Age of Civilization's three civilizations)
            why = ("either nothing in play changes it, or every player uses it all up by the end"
                   if at_floor else "either nothing in play changes it, or every player "
                   "reaches the same limit by the end")
            out.append(Finding(WARNING, "PNP-B012",
                               f"{name} ends every game at {num(summary['min'])} for every player: "
                               f"{why}"))
            continue
        vals = values.get(stat_id) or []
        if stat is None or not vals:
            continue
        if cap is not None:
            share = sum(1 for v in vals if v >= cap) / len(vals)
            if share >= PINNED_SHARE:
                out.append(Finding(WARNING, "PNP-B011",
                                   f"{name} ends the game at its cap ({cap}) for {pct(share)} of "
                                   f"players: the cap binds, so more {name} is wasted"))
        if floor is not None:
            share = sum(1 for v in vals if v <= floor) / len(vals)
            if share >= PINNED_SHARE:
                out.append(Finding(INFO, "PNP-B011",
                                   f"{name} ends the game at its floor ({floor}) for {pct(share)} "
                                   f"of players"))
    return out


def _runaway(doc, game, agg) -> list[Finding]:
    m = doc["margin"]
    share = m.get("share_of_winning_score_p50", 0.0)
    if share >= RUNAWAY_SHARE and doc["games"]:
        return [Finding(WARNING, "PNP-B013",
                        f"The winner's typical lead is {num(m['p50'])} points, {pct(share)} of the "
                        f"winning score (p95 {num(m['p95'])}): games tend to run away from the "
                        f"others")]
    return []


def _ties(doc, game, agg) -> list[Finding]:
    m, n = doc["margin"], doc["games"]
    out = []
    if n and m["tie_rate"] >= TIE_RATE_INFO:
        out.append(Finding(INFO, "PNP-B014",
                           f"{pct(m['tie_rate'])} of games end in a tie for first place "
                           f"(tied winners share the win)"))
    if m.get("negative"):
        out.append(Finding(INFO, "PNP-B016",
                           f"In {m['negative']} of {n} games ({pct(m['negative'] / n)}) a player "
                           f"who did not win had more points than the winner (a negative margin): "
                           f"usually an eliminated player, whose points no longer count"))
    return out


def _skill(doc, game, agg) -> list[Finding]:
    """Skill depth: does the strongest bot win more than its fair share of the seats it played?

    The fair share is the harness's (wins per seat-game when every seat is equal, ties shared).
    The strongest bot is picked after the fact, so the decision allows for that: its interval
    is widened for the number of bots (Bonferroni); the message shows the plain 95% interval.
    """
    bots = [b for b in doc["bots"] if b["seat_games"]]
    if len(bots) < 2:
        return []
    fair = doc["fair_share"]
    best = max(bots, key=lambda b: (b["win_rate"], b["bot"]))
    worst = min(bots, key=lambda b: (b["win_rate"], b["bot"]))
    z = st.normal_quantile(1 - SKILL_ALPHA / (2 * len(bots)))
    lo, _ = st.wilson(best["wins"], best["seat_games"], z)
    ci_lo, ci_hi = best["ci95"]
    rest = (f"; the {worst['bot']} bot wins {pct(worst['win_rate'])} "
            f"(95% CI {pct(worst['ci95'][0])}–{pct(worst['ci95'][1])})")
    if lo > fair and best["win_rate"] - fair >= SKILL_GAP_MIN:
        return [Finding(INFO, "PNP-B015",
                        f"Skill matters: the {best['bot']} bot wins {pct(best['win_rate'])} of "
                        f"its seats (95% CI {pct(ci_lo)}–{pct(ci_hi)}) against a fair share of "
                        f"{pct(fair)}{rest}")]
    return [Finding(INFO, "PNP-B015",
                    f"No bot wins clearly more than its share: the best, {best['bot']}, wins "
                    f"{pct(best['win_rate'])} of its seats (95% CI {pct(ci_lo)}–{pct(ci_hi)}) "
                    f"against a fair share of {pct(fair)}{rest}: the game may be mostly luck, or "
                    f"the bots too alike to show skill (try a stronger one, such as search:32)")]


def _supplies(doc, game, agg) -> list[Finding]:
    """Component sufficiency: a supply whose 99th-percentile need exceeds the box's stock."""
    out = []
    for s in (doc.get("supplies") or {}).values():
        if s["print_more"] <= 0:
            continue
        ran = (f"; it ran out in {pct(s['short_rate'])} of games, by up to {s['shortfall_max']}"
               if s["short_games"] else "")
        out.append(Finding(WARNING, "PNP-B018",
                           f"{s['name']}: 99% of games need at most {s['need_p99']} at once "
                           f"(worst game {s['need_max']}), but the box holds {s['stock']}: "
                           f"print {s['print_more']} more{ran}"))
    return out


def _factions(doc, game, agg) -> list[Finding]:
    """A faction (city-state, civilization) that wins more or less than the fair share, by
    Bonferroni-widened intervals (the message shows the 95% one)."""
    rows = [f for f in doc.get("factions") or [] if f["seat_games"]]
    if len(rows) < 2:
        return []
    fair = doc["fair_share"]
    z = st.normal_quantile(1 - FACTION_ALPHA / (2 * len(rows)))
    out = []
    for f in rows:
        gap = f["win_rate"] - fair
        if st.excludes(st.wilson(f["wins"], f["seat_games"], z), fair) and \
                abs(gap) >= FACTION_GAP_MIN:
            lo, hi = f["ci95"]
            out.append(Finding(WARNING, "PNP-B019",
                               f"{f['faction']} wins {pct(f['win_rate'])} of the games it is "
                               f"played in (95% CI {pct(lo)}–{pct(hi)}), "
                               f"{'above' if gap > 0 else 'below'} the fair share of {pct(fair)}"))
    return out


def _option(row: Mapping[str, Any]) -> str:
    return f"'{row['option']}' at '{row['why']}'"


def _never_picked(doc, game, agg) -> list[Finding]:
    """Options offered often and never picked (pnp/engine/choices.py says how often is
    often), on one line: the most offered first."""
    from pnp.engine.choices import never_picked

    rows = never_picked((doc.get("choices") or {}).get("options") or [])
    if not rows:
        return []
    rows = sorted(rows, key=lambda r: (-r["offered"], r["why"], r["option"]))
    names = [f"{_option(r)} ({r['offered']} offers)" for r in rows[:MAX_CHOICE_FINDINGS]]
    if len(rows) > MAX_CHOICE_FINDINGS:
        names.append(f"{len(rows) - MAX_CHOICE_FINDINGS} more (see choices in the JSON output)")
    return [Finding(WARNING, "PNP-B022",
                    f"Never picked, though offered often: {_and(names)}: why would anyone "
                    f"pick {'it' if len(rows) == 1 else 'them'}? (a habit of the bots, or the "
                    f"game? `pnp probe GAME --at WHY --pick OPTION` seats one player who "
                    f"takes it)")]


def _pickers_win(doc, game, agg) -> list[Finding]:
    """An option whose pickers win far more (or far less) than every other seat-game, by the
    two-rate test Holm-corrected over every option tested (choices.option_table)."""
    options = (doc.get("choices") or {}).get("options") or []
    rows = [r for r in options if r["flagged"]]
    tested = sum(1 for r in options if r["tested"])
    rows.sort(key=lambda r: (-abs(r["gap"]), r["why"], r["option"]))
    out = []
    for r in rows[:MAX_CHOICE_FINDINGS]:
        lo, hi = r["ci95_picked"]
        lo2, hi2 = r["ci95_not_picked"]
        verdict = ("a dominant pick?" if r["gap"] > 0 else "never worth picking?")
        out.append(Finding(WARNING, "PNP-B023",
                           f"Seats that picked {_option(r)} won {pct(r['win_rate_picked'])} "
                           f"(95% CI {pct(lo)}–{pct(hi)}, {r['picked_games']} seat-games) "
                           f"against {pct(r['win_rate_not_picked'])} ({pct(lo2)}–{pct(hi2)}) "
                           f"for every other seat-game (Holm-corrected {_p(r['p_holm'])} over "
                           f"{tested} options): {verdict}{_never_declined(r, options)}"))
    if len(rows) > MAX_CHOICE_FINDINGS:
        out.append(Finding(WARNING, "PNP-B023",
                           f"{len(rows) - MAX_CHOICE_FINDINGS} more options whose pickers win "
                           f"more or less than the rest (see choices in the JSON output)"))
    return out


def _never_declined(row: Mapping[str, Any], options: list[Mapping[str, Any]]) -> str:
    """For an option taken at every decision that offered it: its pickers are simply the seats
    offered it (that had the Gold, landed there), so the gap may be theirs, not the choice's;
    the probe of another option at that decision asks the choice itself."""
    if row["picked"] < row["offered"]:
        return ""
    other = next((o["option"] for o in options
                  if o["why"] == row["why"] and o["option"] != row["option"]), None)
    probe = (f"; `pnp probe GAME --at '{row['why']}' --pick '{other}'` asks whether declining "
             f"it wins more" if other is not None else "")
    return (f" (taken at every decision that offered it, so its pickers are the seats it was "
            f"offered to, and the gap may be theirs rather than the choice's{probe})")


def _plans(doc, game, agg) -> list[Finding]:
    """A dominant plan (an opening whose players win far more and took most wins: PNP-B024)
    and one plan for everyone (an opening nearly every seat-game played: PNP-B025)."""
    openings = (doc.get("choices") or {}).get("openings") or {}
    out = []
    for r in openings.get("dominant") or []:
        lo, hi = r["ci95"]
        out.append(Finding(WARNING, "PNP-B024",
                           f"A dominant plan? Seats opening '{r['opening']}' won "
                           f"{pct(r['win_rate'])} (95% CI {pct(lo)}–{pct(hi)}, "
                           f"{r['seat_games']} seat-games) against {pct(r['win_rate_rest'])} for "
                           f"the seats that opened otherwise there, and took "
                           f"{pct(r['win_share'])} of all wins (Holm-corrected {_p(r['p_holm'])})"))
    for r in openings.get("one_plan") or []:
        out.append(Finding(INFO, "PNP-B025",
                           f"One plan for everyone: {pct(r['share'])} of seat-games opened "
                           f"'{r['opening']}' (its players won {pct(r['win_rate'])}): the bots "
                           f"see one way to start; is another ever worth it?"))
    return out
