"""Charts and dice: a player's rolls (dice, then any roll power the player holds), dice
amounts of effects and chart rolls, with the judges a power holder weighs a roll by."""

from __future__ import annotations

from collections.abc import Callable

from .tables import TrackTable


def _landing_judge(tt: TrackTable, here: int) -> Callable[[int], dict[str, float]]:
    """A move roll's worth to a power holder: what the space it reaches gives."""
    def judge(v: int) -> dict[str, float]:
        return tt.expect[tt.advance(here, v)]
    return judge


def _amount_judge(stat: str, sign: int) -> Callable[[int], dict[str, float]]:
    """A dice amount's worth to a power holder: the amount itself."""
    def judge(v: int) -> dict[str, float]:
        return {stat: sign * v}
    return judge


class Dice:
    """ACGame's rolls: one part of ACGame (game.py), whose state they read."""

    def roll_amount(self, seat: int, count: int, sides: int, stat: str, sign: int) -> int:
        judge = None
        if count == 1 and not self.players[seat].vars["powers"]:
            return self.roll(sides, self.r.why_amount[stat], seat)
        if self.players[seat].vars["powers"]:
            judge = self.r.amount_judges.get((stat, sign))
            if judge is None:
                judge = self.r.amount_judges[(stat, sign)] = _amount_judge(stat, sign)
        return self.player_roll(seat, count, sides, self.r.why_amount[stat], judge)

    def roll_chart(self, seat: int, chart: str) -> None:
        """Roll on a chart. A row marked `if_short: lose-all-and-reroll` whose loss is more than
        the stat held empties it and rolls again, and again (interpretation defeat-short-gold);
        the defeat-no-reroll variant marks those rows `lose-all`: the stat empties, no reroll."""
        t = self.r.charts[chart]
        p = self.players[seat]
        while True:
            if t.count == 1 and not p.vars["powers"]:
                v = self.roll(t.sides, t.why, seat)
            else:
                v = self.player_roll(seat, t.count, t.sides, t.why,
                                     t.row_expect.get if p.vars["powers"] else None)
            key, ops, if_short = t.rows[v]
            counts = self.chart_counts
            counts[key] = counts.get(key, 0) + 1
            changes = self.r.chart_changes[chart][v]
            if changes is not None:  # fixed changes, no short rule: nothing more to decide
                self.add_changes(p.counters, changes)
                return
            short = self.apply(seat, ops, t.why)
            if short and if_short == "lose-all-and-reroll" and not p.out:
                self.event(t.reroll_event, seat)
                continue
            return

    def player_roll(self, seat: int, count: int, sides: int, why: str,
                    judge: Callable[[int], dict[str, float] | None] | None = None) -> int:
        """A roll by a player: the dice, then any unused roll power they choose to use on it."""
        roll = self.roll
        total = roll(sides, why, seat)
        for _ in range(count - 1):
            total += roll(sides, why, seat)
        if self.players[seat].vars["powers"]:
            total = self.roll_powers(seat, count, sides, total, why, judge)
        return total
