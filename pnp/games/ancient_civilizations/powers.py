"""Powers: abilities that last the turn or come every turn (leaders, wonders) held as
powers, used on a roll (adjust, reroll) or as an extra roll, and granted and lost."""

from __future__ import annotations

from collections.abc import Callable

from pnp.engine.api import ABILITY, PER_TURN, Ops, OptionTable, PlayerState

from .common import EXTRA, KEEP, POWER_TABLES, REROLL, _expected, _outcomes
from .tables import PhasePlan


class Powers:
    """ACGame's powers: one part of ACGame (game.py), whose state they read."""

    def roll_powers(self, seat: int, count: int, sides: int, total: int, why: str,
                    judge: Callable[[int], dict[str, float] | None] | None) -> int:
        """Reformer and Stonehenge (+1 or -1 to one roll), Politician and Pyramids (reroll one
        roll): each power once, on any roll its holder makes, kept within the dice's range
        (interpretation leader-this-turn); a 2D6 roll counts as one roll."""
        p = self.players[seat]
        tables = self.r.power_tables
        while True:
            held = p.vars["powers"]
            key = (judge, count, sides, total, *held)
            table = tables.get(key)
            if table is None:
                table = self.power_choice(judge, count, sides, total, held)
                if len(tables) < POWER_TABLES:
                    tables[key] = table
            if table.__class__ is OptionTable:
                options, outcomes = table.options, table
            else:  # no judge: the options alone
                options, outcomes = table, None
            if len(options) == 1:
                return total
            choice = self.choose(seat, options, self.r.why_power, outcomes)
            if choice == KEEP:
                return total
            if choice == REROLL:
                self.spend_power(p, "reroll", 1)
                self.event("power-reroll", seat)
                total = self.roll(sides, why, seat)
                for _ in range(count - 1):
                    total += self.roll(sides, why, seat)
            else:
                self.spend_power(p, "adjust", abs(int(choice)))
                self.event("power-adjust", seat)
                total += int(choice)

    def power_choice(self, judge: Callable[[int], dict[str, float] | None] | None, count: int,
                     sides: int, total: int, held: list[str]) -> OptionTable | tuple[str, ...]:
        """The options of using a power on a roll of `total` (keep, +k/-k within the dice's
        range, reroll), with the judge's estimate of each when there is a judge."""
        powers = self.r.powers
        lo, hi = count, count * sides
        options = [KEEP]
        for key in held:
            name, args = powers[key]
            if name == "adjust":
                for k in range(1, int(args[0]) + 1):
                    for label, v in ((f"+{k}", total + k), (f"-{k}", total - k)):
                        if lo <= v <= hi and label not in options:
                            options.append(label)
            elif name == "reroll" and REROLL not in options:
                options.append(REROLL)
        if judge is None or len(options) == 1:
            return tuple(options)
        rerolls = self.r.reroll_estimates

        def outcome(o: str) -> dict[str, float]:
            if o == REROLL:
                key = (judge, count, sides)
                average = rerolls.get(key)
                if average is None:
                    average = rerolls[key] = _expected(_outcomes(count, sides),
                                                       lambda v: judge(v) or {})
                return average
            return judge(total + (0 if o == KEEP else int(o))) or {}
        return OptionTable(options, [outcome(o) for o in options])

    def spend_power(self, p: PlayerState, name: str, amount: int) -> None:
        for i, key in enumerate(p.vars["powers"]):
            n, args = self.r.powers[key]
            if n == name and (name != "adjust" or int(args[0]) >= amount):
                del p.vars["powers"][i]
                return

    def extra_roll(self, seat: int, plan: PhasePlan) -> None:
        """Populist: one extra roll on one of the named tracks this turn, if the player wants."""
        tt = plan.track
        p = self.players[seat]
        for i, key in enumerate(p.vars["powers"]):
            name, args = self.r.powers[key]
            if name == "extra_roll" and tt.id in args:
                outcomes = tt.extra_outcomes[p.pos[tt.id]]
                if self.choose(seat, outcomes.options, tt.why_extra, outcomes) == EXTRA:
                    del p.vars["powers"][i]
                    self.event("power-extra-roll", seat)
                    self.moves((seat,), plan, whole_phase=False)
                return

    def grant(self, seat: int, key: str, ops: Ops) -> None:
        """An ability that lasts (this turn / per turn) becomes a power held until the End Phase
        (interpretation leader-this-turn)."""
        p = self.players[seat]
        for op in ops:
            if op[0] == ABILITY:
                uses = int(op[2][0]) if op[1] == "reroll" and op[2] else 1
                p.vars["powers"].extend([key] * uses)

    def per_turn_bonuses(self, seat: int, track: str) -> None:
        """Start Phase: each owned wonder's per-turn bonus (stats now, powers for the turn)."""
        p = self.players[seat]
        tt = self.r.tracks[track]
        for key in p.vars["owned"]:
            tid, _, sid = key.partition("/")
            if tid != track:
                continue
            i = tt.ids.index(sid)
            alts = tt.effects[i]
            if alts and tt.timing[i] == PER_TURN:
                self.grant(seat, key, alts[0])
                self.apply(seat, tuple(op for op in alts[0] if op[0] != ABILITY), "per turn")
