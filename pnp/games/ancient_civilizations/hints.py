"""What the greedy bot is told about this game: the worth of each stat, estimates of
effects, reserves, single-use currencies, danger floors and the pregame offsets. These are
heuristics, not rules: a change here changes how the bot plays, never what the rules do."""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

from pnp.engine.api import ABILITY, DELTA, BotHints, Ops, constant_deltas, mean_delta

from .common import _merge

if TYPE_CHECKING:
    from .rules import Rules

#: greedy bot: what one point of a stat is worth (a heuristic, not a rule; see docs/engine.md)
BOT_VALUES = {"victory-points": 10.0, "territories": 6.0, "population": 3.0, "culture": 2.5,
              "infrastructure": 1.5, "wonders": 4.0, "military": 1.2, "ideas": 1.0,
              "stability": 1.0, "zeal": 0.8, "gold": 0.8, "resources": 0.8, "food": 0.6,
              "power": 3.0}
#: greedy bot: an owned space (a wonder) is valued as this many turns of its per-turn bonus
OWNED_WORTH = 5
#: greedy bot, spending a stat that has a reserve (Food: the famine line plus the worst single
#: loss a move can bring): a point spent from above the reserve counts at this share of its
#: value (it is surplus, soon clipped at the cap), a point from below it at this share
SURPLUS_SHARE, RESERVE_SHARE = 0.5, 2.0


def estimate(r: Rules, alts: tuple[Ops, ...], timing: str | None) -> dict[str, float]:
    """Greedy estimate of an effect: the best alternative's mean stat changes."""
    best: dict[str, float] = {}
    best_value = None
    for alt in alts:
        d = mean_delta(alt, r.chart_means, lambda fid: nominal_formula(r, fid))
        for op in alt:
            if op[0] == ABILITY:
                key = "power" if timing else op[1]
                d[key] = d.get(key, 0.0) + 1.0
        value = sum(BOT_VALUES.get(k, 1.0) * v for k, v in d.items())
        if best_value is None or value > best_value:
            best, best_value = d, value
    return best


def value(d: dict[str, float]) -> float:
    """An estimate's worth at the bots' base values (for deriving other values)."""
    return sum(BOT_VALUES.get(k, 1.0) * v for k, v in d.items())


def nominal_formula(r: Rules, fid: str) -> float:
    """A formula at the stat's value right after setup (estimates only)."""
    f = r.formulas.get(fid)
    if f is None:
        return 0.0
    base = r.game.stats[f.stat].start if f.stat in r.game.stats else 0
    base += constant_deltas(r.setup_bonus).get(f.stat, 0)
    return float(f.evaluate(base))


def reserves(r: Rules) -> dict[str, int]:
    """Stat -> the level a greedy player keeps before spending it: the line a check fires
    below (Food: famine) plus the worst single loss any space can bring."""
    worst: dict[str, int] = {}
    for tt in r.tracks.values():
        for alts in tt.effects:
            for op in (op for alt in alts for op in alt if op[0] == DELTA):
                loss = -(op[2] + (op[3] * op[4] if op[3] < 0 else op[3]))
                if loss > 0:
                    worst[op[1]] = max(worst.get(op[1], 0), loss)
    out: dict[str, int] = {}
    for stat, op, value, _ in r.checks.values():
        if op in (operator.lt, operator.le) and stat in worst:
            line = value if op is operator.lt else value + 1
            out[stat] = max(out.get(stat, 0), line + worst[stat])
    return out


#: abilities that only swap one stat for another (Sell Surplus): not a use of their own
SWAPS = frozenset({"exchange"})


def single_use(r: Rules) -> frozenset[str]:
    """Stats that pay for one phase's moves and nothing else (Wonder Points, Ideas,
    Resources), so they are worth what those moves bring. Swapping one away (a trade offer,
    Sell Surplus) is not another use: the bot judges a swap at the stats' worths. Before
    Resources counted (they can be traded), greedy valued them at a flat 0.8, below the 2
    Gold a point costs on the Purchase List, and never bought one: a habit `simulate`
    reported as "never picked"; one seat of that greedy among today's wins 10 points less
    than today's greedy in its seats at three players (`pnp probe ... --value
    resources=0.8`)."""
    paid: dict[str, int] = {}
    for plan in r.phases:
        for stat, k in plan.cost.items():
            if k < 0:
                paid[stat] = paid.get(stat, 0) + 1
    other = set(r.start_cost)
    other |= {pay for pay, _, _ in r.tables.values()}
    other |= {s for c in r.conversions.values() for s in c[1]}
    for tt in r.tracks.values():
        for alts in tt.effects:
            for op in (op for alt in alts for op in alt if op[0] == ABILITY):
                if op[1] not in SWAPS:
                    other.update(a for a in op[2] if a in r.bounds)
    return frozenset(s for s, n in paid.items() if n == 1 and s not in other)


def spend(r: Rules, stats: dict[str, int], stat: str, amount: int) -> float:
    """Greedy's view of paying `amount` of `stat` (a negative change): points above the
    stat's reserve are surplus and count less, points below it count more."""
    keep = r.reserve.get(stat)
    if keep is None:
        return float(-amount)
    above = min(amount, max(0, stats[stat] - keep))
    return -(SURPLUS_SHARE * above + RESERVE_SHARE * (amount - above))


def greedy_hints(r: Rules) -> BotHints:
    """The greedy bot's danger floors (every check or elimination of the form `stat < n`)
    and the setup bonus it judges pregame caps and floors by."""
    floors: dict[str, int] = {}
    for stat, op, value in [*(c[:3] for c in r.checks.values()), *r.eliminated_when]:
        if op in (operator.lt, operator.le):
            line = value if op is operator.lt else value + 1
            floors[stat] = max(floors.get(stat, line), line)
    return BotHints(floors=floors, pregame_offsets=constant_deltas(r.setup_bonus))


def bot_values(r: Rules) -> dict[str, float]:
    """The bots' stat values, with a single-use currency worth what it buys per point; paying
    in it then costs nothing it could have bought instead (the paid phases' tables say so)."""
    values = dict(BOT_VALUES)
    for plan in r.phases:  # a single-use currency is worth what it buys, per point
        if plan.track is not None and plan.paid:
            for stat, k in plan.cost.items():
                if stat in r.single_use and k < 0:
                    tt = plan.track
                    moves = [value(tt.move_expect[i]) for i in range(tt.n)]
                    values[stat] = sum(moves) / len(moves) / -k
    for plan in r.phases:  # paying in it costs nothing it could have bought instead
        if plan.track is not None and plan.paid and any(
                s in r.single_use for s in plan.cost):
            tt = plan.track
            sunk = {s: v for s, v in plan.cost.items() if s not in r.single_use}
            base = _merge(sunk, constant_deltas(plan.on_roll))
            plan.pay_expect = [_merge(base, tt.move_expect[i]) for i in range(tt.n)]
            plan.pay_tables()
    return values
