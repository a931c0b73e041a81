"""One game being played: ACGame, the rulebook's procedures over a State through a Context.

ACGame is one class assembled from one part per concern (pregame.py, movement.py, dice.py,
powers.py, war.py, trade.py, ending.py), so each file reads beside its chapter of the rulebook
while the hot path stays what it was: every method is still an attribute of the one class,
looked up once per call as before, with no call or lookup added between them. Here: the
state it plays over, the effect hooks, and the turn loop.
"""

from __future__ import annotations

from typing import Any

from pnp.engine.api import MAIN, OVER, PREGAME, TIMEOUT, Context, EffectRunner, Ops, StatBook, State

from .common import Bounded
from .dice import Dice
from .ending import Ending
from .movement import Movement
from .powers import Powers
from .pregame import Pregame
from .rules import Rules
from .tables import PhasePlan
from .trade import Trading
from .war import War


class _Forget(dict):
    """A counter that keeps nothing (setup outside a played game)."""

    def __missing__(self, key: Any) -> int:
        return 0

    def __setitem__(self, key: Any, value: Any) -> None:
        pass


class ACGame(Pregame, Movement, Powers, Dice, War, Trading, Ending, EffectRunner):
    """One game being played: the rulebook's procedures over a State, through a Context."""

    def __init__(self, rules: Rules, ctx: Context | None, state: State):
        self.r = rules
        self.ctx = ctx
        self.state = state
        self.players = state.players
        self.stat_rows = [p.counters for p in state.players]
        self.book = (StatBook(rules.bounds, ctx.result.cap_clips, ctx.result.floor_clips) if ctx
                     else StatBook(rules.bounds, _Forget(), _Forget()))
        self.phase_id = "pregame" if state.stage == PREGAME else ""
        if ctx is not None:
            self.roll = ctx.roll
            self.roll_high = ctx.roll_high
            self.choose = ctx.choose
            self.event = ctx.event
            self.spaces = ctx.result.space_counts
            self.chart_counts = ctx.result.chart_counts
        #: fixed stat changes (stats, Bounded): `apply` of ops that are only that, cheaper
        self.add_changes = self.book.add_bounded
        if rules.eliminate_now:
            self.apply = self._apply_then_eliminate
            self.add_changes = self._changes_then_eliminate
        self.single_die = rules.die_count == 1
        self.set_live()

    def set_live(self) -> None:
        """Seats still in the game in seat order, and that order started from each of them."""
        self.live = live = [i for i, p in enumerate(self.players) if not p.out]
        #: seat -> the live seats clockwise from it (turn order once that seat rolls highest)
        self.rotations = {seat: live[k:] + live[:k] for k, seat in enumerate(live)}
        #: per seat, the other players still in, as (seat, pawn positions)
        self.others = [[(q, self.players[q].pos) for q in live if q != seat]
                       for seat in range(len(self.players))]
        #: ... and their pawn positions alone (the scans that need no seat)
        self.other_pos = [[pos for _, pos in others] for others in self.others]

    def formula_value(self, seat: int, formula: str) -> int:
        f = self.r.formulas[formula]
        return f.evaluate(self.players[seat].counters[f.stat])

    def use_ability(self, seat: int, name: str, args: tuple, source: str) -> None:
        if name == "steal":
            self.steal(seat, args[0], int(args[1]))
        elif name == "exchange":
            self.exchange(seat, args[:-1], args[-1])

    def _apply_then_eliminate(self, seat: int, ops: Ops, source: str = "") -> bool:
        short = EffectRunner.apply(self, seat, ops, source)
        if self.state.stage == MAIN:
            self.eliminations_now()
        return short

    def _changes_then_eliminate(self, stats: dict[str, int], changes: Bounded) -> None:
        self.book.add_bounded(stats, changes)
        if self.state.stage == MAIN:
            self.eliminations_now()

    def play(self, max_turns: int) -> None:
        """Pregame and setup, then turns of the 16 phases until the game ends or the cap.

        This loop is the module's own, not the api's `play_turns`: the driver would add a
        call per phase (a closure per Phase) to the hot loop, and it ends a capped game before
        the last phase's step, where this loop steps first and stops at the next turn's top
        (what scenarios and logs of a timeout have always seen)."""
        st = self.state
        if st.stage == PREGAME:
            if self.r.pregame_track:
                self.pregame()
            self.setup()
            self.ctx.step("pregame")
        phases = self.r.phases
        last = len(phases) - 1
        step = self.ctx.step
        # who leads at each turn's end, for the lead metrics (as the api's play_turns records)
        lead = self.ctx.result.leaders_by_turn.append
        while st.stage == MAIN:
            if st.turn > max_turns:
                st.stage, st.ended, st.turn = OVER, TIMEOUT, max_turns
                st.winners = self.leaders()
                return
            plan = phases[st.phase]
            self.phase_id = plan.id
            self.play_phase(plan)
            if st.stage == MAIN:
                if st.phase < last:
                    st.phase += 1
                else:
                    st.phase = 0
                    st.turn += 1
                    lead(tuple(self.leaders()))
            elif st.winners:  # ended inside a turn: its winners close the record
                lead(tuple(st.winners))
            step(plan.id)

    def turn_order(self) -> list[int]:
        """Everyone rolls; the highest goes first (only a tie for highest re-rolls), then
        clockwise (seat order) from that player."""
        live = self.live
        if len(live) < 2:
            return live
        return self.rotations[self.roll_high(self.r.die_sides, self.r.why_order, live)]

    def phase_order(self, plan: PhasePlan) -> list[int]:
        """The order of this phase: rolled anew (interpretation turn-order), or, in the
        turn-order-once variant, rolled in the phase that names a turn order and kept for the
        rest of the turn (a game picked up mid-turn rolls once where it starts)."""
        if not self.r.order_once:
            return self.turn_order()
        kept = self.state.vars.get("turn_order")
        if plan.rolls_order or kept is None:
            kept = self.state.vars["turn_order"] = list(self.turn_order())
        return [seat for seat in kept if not self.players[seat].out]

    def play_phase(self, plan: PhasePlan) -> None:
        """One phase: each player acts in a freshly rolled turn order (per the Start Phase rule,
        a new high roll sets the order for every phase), then the phase-end steps."""
        if self.r.order_once:
            order = self.phase_order(plan)
        else:  # turn_order(), inlined: a fresh roll for the first player of every phase
            order = self.live
            if len(order) > 1:
                order = self.rotations[self.roll_high(self.r.die_sides, self.r.why_order, order)]
        players = self.players
        st = self.state
        tt = plan.track
        if plan.moves_only:
            self.moves(order, plan)
        else:
            per_turn, paid, chart, conversions = (plan.per_turn, plan.paid, plan.chart,
                                                  plan.conversions)
            for seat in order:
                p = players[seat]
                if p.out or st.stage != MAIN:
                    continue
                if per_turn:
                    self.per_turn_bonuses(seat, per_turn)
                if tt is not None:
                    if paid:
                        self.paid_moves(plan, seat)
                    else:
                        self.moves((seat,), plan, whole_phase=False)
                    if p.vars["powers"] and not p.out:
                        self.extra_roll(seat, plan)
                if chart is not None and not p.out:
                    f = plan.rolls
                    for _ in range(f.evaluate(p.counters[f.stat]) if f else 1):
                        self.roll_chart(seat, chart.id)
                for cid in conversions:
                    if not p.out:
                        self.convert(seat, cid)
        if plan.after_table:
            for seat in order:
                if not players[seat].out and st.stage == MAIN:
                    self.purchases(seat, plan.after_table)
        if plan.checks and st.stage == MAIN:
            self.phase_checks(plan, order)
        if plan.end and st.stage == MAIN:
            self.end_phase()
