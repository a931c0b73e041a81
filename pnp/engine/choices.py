"""Per-option pick and win rates, and the branching factor: "why would anyone pick this card?"

Each self-played game counts, per seat, every text option it was offered and picked
(`GameResult.offers`, `.picks`, keyed (seat, why, label): a card, an action, a space;
numeric options are amounts and are left out, and numbered parts of an option's text are
dropped, see option_label) and how many options each decision had
(`GameResult.branching`). Folded over games, an option (a decision's `why` and the option's
text) gets: how often it was offered and picked, and the win rate of the seat-games that
picked it at least once against every other seat-game (offered it and passed, or never
offered it: a card so good that every bot buys it on sight shows as pickers winning more
than the rest, not as an untestable "everyone picks it").

The two win rates are compared with the two-proportion score test; the p-values of every
option with enough seat-games on both sides are Holm-corrected together (as the seat test
corrects for its seats), so a fair deck of many cards does not flag one by chance. After
Ludii's BranchingFactor and the per-card pick and win rates of deck-building studies; read
them as associations under the bots that played (a strong player may pick a card because
it was winning), not as causes.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pnp.engine import stats as st

#: the seat-games needed on each side (picked it, did not) for a test
MIN_GROUP = 20
#: family-wise error for "some option's pickers win more or less" (Holm over the options)
OPTION_ALPHA = 0.05
#: the least difference, in win-rate points, between pickers and passers worth a finding
OPTION_GAP_MIN = 0.10
#: an option offered in at least this many decisions, over at least MIN_GROUP seat-games,
#: and never picked, is "never picked"
NEVER_PICKED_OFFERS = 50

#: a seat's opening at a decision: its first this many picks there, in order (the plan it
#: set out on: the first three technologies, the first three action spaces)
OPENING_PICKS = 3
#: an opening whose seat-games took at least this share of all wins, and whose players win
#: more than the rest by the option test (OPTION_ALPHA, OPTION_GAP_MIN), is a dominant plan
DOMINANT_WIN_SHARE = 0.5
#: an opening played in at least this share of seat-games is "one plan for everyone"
ONE_PLAN_SHARE = 0.9
#: openings listed in the JSON (the most played; the count of distinct ones is given too)
OPENINGS_LISTED = 20

#: option text -> its label (a bound on memory: past it, labels are worked out each time)
LABEL_MEMO = 65536
LABELS: dict[str, str] = {}
_SEPARATORS = re.compile(r"([:/])")


def option_label(option: str) -> str:
    """What an option is counted as: its text, less the parts from the first ':'- or
    '/'-separated part that holds a digit on (instance numbers, positions, amounts:
    'district:122' and 'district:123' are both 'district', 'place:labor/1/0' is
    'place:labor', 'rise:aztecs' stays). An option whose first part holds a digit ('F+1',
    'G-1 F+2') is kept whole: it is an amount to pick, not a numbered thing."""
    label = LABELS.get(option)
    if label is None:
        parts = _SEPARATORS.split(option)
        label = option
        for i in range(2, len(parts), 2):
            if any(ch.isdigit() for ch in parts[i]):
                label = "".join(parts[:i - 1])
                break
        if len(LABELS) < LABEL_MEMO:
            LABELS[option] = label
    return label


# the fields of one option's row, in order (plain ints: batches merge exactly)
OFFERED, PICKED, GAMES, PICKED_GAMES, PICKED_UNITS = range(5)


@dataclass
class ChoiceTally:
    """Options and picks folded over games (in index order, so merges are exact).

    `options`: (why, option) -> [offered, picked, seat-games offered, seat-games that picked
    it, their win units]; win units are the aggregate's shared-win units (1/credit_unit of a
    win). `seat_games` and `win_units` count every seat-game, so the seat-games that did not
    pick an option are the rest."""

    options: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    branching: Counter = field(default_factory=Counter)  # options -> decisions
    seat_games: int = 0
    win_units: int = 0
    #: opening (why, (first pick, second, third)) -> [seat-games, win units]
    openings: dict[tuple[str, tuple[str, ...]], list[int]] = field(default_factory=dict)

    def add(self, offers: dict, picks: dict, branching: dict, players: int,
            winners: Sequence[int], units: int, openings: dict | None = None) -> None:
        """One game of `players` seats: `units` of a win to each seat in `winners`; `openings`
        holds each seat's first picks at each decision."""
        self.seat_games += players
        for (seat, why), picked in (openings or {}).items():
            row = self.openings.setdefault((why, tuple(picked)), [0, 0])
            row[0] += 1
            row[1] += units if seat in winners else 0
        self.branching.update(branching)
        self.win_units += units * len(winners)
        table = self.options
        for (seat, why, option), n in offers.items():
            row = table.get((why, option))
            if row is None:
                row = table[(why, option)] = [0] * 5
            picked = picks.get((seat, why, option), 0)
            row[OFFERED] += n
            row[PICKED] += picked
            row[GAMES] += 1
            if picked:
                row[PICKED_GAMES] += 1
                row[PICKED_UNITS] += units if seat in winners else 0

    def merge(self, later: ChoiceTally) -> None:
        """Fold in the tally of the games right after these."""
        self.branching.update(later.branching)
        self.seat_games += later.seat_games
        self.win_units += later.win_units
        for key, row in later.openings.items():
            mine = self.openings.setdefault(key, [0, 0])
            mine[0] += row[0]
            mine[1] += row[1]
        for key, row in later.options.items():
            mine = self.options.get(key)
            if mine is None:
                self.options[key] = list(row)
            else:
                for i, v in enumerate(row):
                    mine[i] += v


def _r(x: float) -> float:
    return round(x, 4) + 0.0


def branching_table(sizes: Counter, games: int) -> dict[str, Any]:
    """The branching factor: options per decision (of two or more options), mean, p50, p95,
    max, decisions per game, and decisions by their number of options."""
    decisions = sum(sizes.values())
    if not decisions:
        return {"decisions": 0}
    ordered = sorted(sizes)

    def at(q: float) -> int:
        rank, seen = q * (decisions - 1), 0
        for size in ordered:
            seen += sizes[size]
            if seen > rank:
                return size
        return ordered[-1]

    return {"decisions": decisions, "per_game": _r(decisions / games) if games else 0.0,
            "mean": _r(sum(k * v for k, v in sizes.items()) / decisions),
            "p50": at(0.5), "p95": at(0.95), "max": ordered[-1],
            "histogram": {str(k): sizes[k] for k in ordered}}


def holm_corrected(rows: list[dict[str, Any]]) -> None:
    """Give every row its `p_holm`: its `p` Holm-corrected over the rows `tested` together
    (None where it was not tested), so a table of many options flags few by chance."""
    tested = [row for row in rows if row["tested"]]
    for row, q in zip(tested, st.holm([row["p"] for row in tested]), strict=True):
        row["p_holm"] = _r(q)
    for row in rows:
        row.setdefault("p_holm", None)


def option_table(tally: ChoiceTally, credit_unit: int) -> list[dict[str, Any]]:
    """Every option, sorted by decision then option: offered, picked, pick rate, seat-games,
    win rate when picked and when not (every other seat-game; Wilson 95% intervals), their
    difference, and the
    test: raw and Holm-corrected p-value, `flagged` when the corrected p is below
    OPTION_ALPHA and the difference at least OPTION_GAP_MIN; `tested` when both sides had
    MIN_GROUP seat-games."""
    rows = []
    for (why, option) in sorted(tally.options):
        r = tally.options[(why, option)]
        won_picked = r[PICKED_UNITS] / credit_unit
        won_passed = (tally.win_units - r[PICKED_UNITS]) / credit_unit
        passed_games = tally.seat_games - r[PICKED_GAMES]
        picked_rate = won_picked / r[PICKED_GAMES] if r[PICKED_GAMES] else None
        passed_rate = won_passed / passed_games if passed_games else None
        tested = r[PICKED_GAMES] >= MIN_GROUP and passed_games >= MIN_GROUP
        rows.append({
            "why": why, "option": option, "offered": r[OFFERED], "picked": r[PICKED],
            "pick_rate": _r(r[PICKED] / r[OFFERED]) if r[OFFERED] else 0.0,
            "seat_games": r[GAMES], "picked_games": r[PICKED_GAMES],
            "win_rate_picked": None if picked_rate is None else _r(picked_rate),
            "ci95_picked": [_r(x) for x in st.wilson(won_picked, r[PICKED_GAMES])],
            "win_rate_not_picked": None if passed_rate is None else _r(passed_rate),
            "ci95_not_picked": [_r(x) for x in st.wilson(won_passed, passed_games)],
            "gap": (None if picked_rate is None or passed_rate is None
                    else _r(picked_rate - passed_rate)),
            "tested": tested,
            "p": _r(st.two_rates_p_value(won_picked, r[PICKED_GAMES], won_passed,
                                         passed_games)) if tested else None,
        })
    holm_corrected(rows)
    for row in rows:
        row["flagged"] = bool(row["tested"] and row["p_holm"] < OPTION_ALPHA
                              and abs(row["gap"]) >= OPTION_GAP_MIN)
    return rows


def never_picked(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Options offered often enough (NEVER_PICKED_OFFERS decisions over MIN_GROUP seat-games)
    that no seat ever picked."""
    return [row for row in rows if not row["picked"] and row["offered"] >= NEVER_PICKED_OFFERS
            and row["seat_games"] >= MIN_GROUP]


def _opened_otherwise(tally_openings: Mapping[tuple[str, tuple[str, ...]], Sequence[int]]
                      ) -> dict[tuple[str, tuple[str, ...]], tuple[int, int]]:
    """Per opening (why, picked): the seat-games and win units of the openings at the same
    decision that part from it, differing at some pick both made. An opening that agrees
    with `picked` as far as both go chose no other plan: a seat cut short on the same road
    (eliminated, or the game over, before its third pick there), or one that went on from a
    shorter `picked`. Leaving those out keeps a forced pick's "plan" from being flagged for
    the seats that lived to make it; a seat-game never asked at the decision chose nothing
    there either. Worked out from sums by prefix: those agreeing with `picked` are the ones
    that begin with it, plus the ones that are exactly one of its shorter prefixes."""
    starting: dict[tuple[str, tuple[str, ...]], list[int]] = {}  # (why, prefix) -> sums
    for (why, picked), (games, won) in tally_openings.items():
        for n in range(len(picked) + 1):
            row = starting.setdefault((why, picked[:n]), [0, 0])
            row[0] += games
            row[1] += won
    out = {}
    for (why, picked) in tally_openings:
        games, won = starting[(why, ())]
        agree_g, agree_w = starting[(why, picked)]
        for n in range(len(picked)):
            exact = tally_openings.get((why, picked[:n]))
            if exact is not None:
                agree_g, agree_w = agree_g + exact[0], agree_w + exact[1]
        out[(why, picked)] = (games - agree_g, won - agree_w)
    return out


def opening_table(tally: ChoiceTally, credit_unit: int,
                  options: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """Openings (each seat's first OPENING_PICKS picks at each decision): how many distinct
    ones were played, and the OPENINGS_LISTED most played with their share of seat-games, their win rate
    against the seat-games that opened otherwise at that decision (_opened_otherwise; Wilson
    intervals, the option test Holm-corrected over every opening with MIN_GROUP seat-games
    on both sides), their share of all wins, and
    `dominant` when the test flags them and they took DOMINANT_WIN_SHARE of the wins;
    `one_plan`: openings of two picks or more, at a decision with three options or more
    (`options`: the option rows), played in ONE_PLAN_SHARE of the seat-games or more."""
    total, units = tally.seat_games, tally.win_units
    rows = []
    otherwise = _opened_otherwise(tally.openings)
    for (why, picked), (games, won) in tally.openings.items():
        rest_games, rest_won = otherwise[(why, picked)]
        rest_won /= credit_unit
        tested = games >= MIN_GROUP and rest_games >= MIN_GROUP
        rows.append({
            "opening": f"{why}: {', '.join(picked)}", "why": why, "picks": list(picked),
            "seat_games": games, "share": _r(games / total) if total else 0.0,
            "win_rate": _r(won / credit_unit / games),
            "ci95": [_r(x) for x in st.wilson(won / credit_unit, games)],
            "win_rate_rest": _r(rest_won / rest_games) if rest_games else None,
            "ci95_rest": [_r(x) for x in st.wilson(rest_won, rest_games)],
            "win_share": _r(won / units) if units else 0.0,
            "gap": _r(won / credit_unit / games - rest_won / rest_games) if rest_games else None,
            "tested": tested,
            "p": _r(st.two_rates_p_value(won / credit_unit, games, rest_won, rest_games))
            if tested else None})
    holm_corrected(rows)
    for r in rows:
        r["dominant"] = bool(r["tested"] and r["p_holm"] < OPTION_ALPHA
                             and r["gap"] >= OPTION_GAP_MIN
                             and r["win_share"] >= DOMINANT_WIN_SHARE)
    rows.sort(key=lambda r: (-r["seat_games"], r["opening"]))
    kinds = Counter(row["why"] for row in options)
    one_plan = [r for r in rows if r["share"] >= ONE_PLAN_SHARE and len(r["picks"]) >= 2
                and kinds[r["why"]] >= 3]
    return {"picks": OPENING_PICKS, "distinct": len(rows), "seat_games": total,
            "most_played": rows[:OPENINGS_LISTED],
            "dominant": [r for r in rows if r["dominant"]], "one_plan": one_plan}


def choices_document(tally: ChoiceTally, games: int, credit_unit: int,
                     alike: bool = False) -> dict[str, Any]:
    """The JSON section: the branching factor, the per-option rows and the openings.

    `alike`: every game played out alike (PNP-B027), so the rows describe one game and the
    tests stand down: no option is flagged, no opening is dominant or everyone's one plan."""
    rows = option_table(tally, credit_unit)
    openings = opening_table(tally, credit_unit, rows)
    if alike:
        for row in rows:
            row["flagged"] = False
        for row in openings["most_played"]:
            row["dominant"] = False
        openings["dominant"], openings["one_plan"] = [], []
    return {"branching": branching_table(tally.branching, games),
            "options": rows,
            "openings": openings}
