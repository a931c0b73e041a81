"""The end and scoring: phase checks, eliminations, the End Phase's game end, leaders, and a
player's stats as the record page shows them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pnp.engine.api import ALL_OUT, COMPLETED, MAIN, OVER, Elimination, PlayerState

from .tables import PhasePlan

if TYPE_CHECKING:
    from .rules import Rules


def final_stats(r: Rules, p: PlayerState) -> dict[str, int]:
    """A player's stats with the derived ones (Cities) filled in."""
    out = dict(p.counters)
    for sid, f in r.derived.items():
        out[sid] = f.evaluate(p.counters.get(f.stat, 0))
    return out


class Ending:
    """ACGame's checks and the end: one part of ACGame (game.py), whose state they read."""

    def phase_checks(self, plan: PhasePlan, order: list[int]) -> None:
        """'If a player ever has ...' checks: once per player at the end of the phase that states
        them (interpretation ever-checks), or every check every phase (checks-every-phase).
        One chart roll per check (interpretation conquest-once)."""
        checks = self.r.checks
        for seat in order:
            p = self.players[seat]
            for cid in plan.checks:
                if p.out:
                    break
                stat, op, value, ops = checks[cid]
                if op(p.counters[stat], value):
                    self.event(cid, seat)
                    self.apply(seat, ops, cid)

    def end_phase(self) -> None:
        """End Phase: a player at 0 Territory or Population is out and the others play on
        (interpretation elimination); powers of the turn are lost; the game ends when anyone
        still in has 20 Territories (game-end); with one player left, that player wins."""
        r = self.r
        for seat, p in enumerate(self.players):
            if not p.out:
                self.check_out(seat)
            p.vars["powers"].clear()
        live = [p for p in self.players if not p.out]
        if r.game_end is not None:
            stat, op, value = r.game_end
            if any(op(p.counters[stat], value) for p in live):
                self.game_over(COMPLETED)
                return
        if not live:
            self.game_over(ALL_OUT)
        elif len(live) == 1 and len(self.players) > 1:
            self.event("last-standing")
            self.game_over(COMPLETED)

    def check_out(self, seat: int) -> bool:
        p = self.players[seat]
        for stat, op, value in self.r.eliminated_when:
            if op(p.counters[stat], value):
                p.out = True
                p.vars["powers"].clear()
                self.set_live()
                self.ctx.result.eliminations.append(
                    Elimination(seat, self.state.turn, stat, self.phase_id))
                self.event("elimination", seat)
                return True
        return False

    def eliminations_now(self) -> None:
        """Variant elimination-immediate: out the moment Territory or Population reaches 0."""
        for seat, p in enumerate(self.players):
            if not p.out:
                self.check_out(seat)
        live = sum(1 for p in self.players if not p.out)
        if live < 2 and self.state.stage == MAIN:
            if live == 1:
                self.event("last-standing")
            self.game_over(COMPLETED if live else ALL_OUT)

    def game_over(self, how: str) -> None:
        st = self.state
        st.stage, st.ended = OVER, how
        st.winners = self.leaders()

    def leaders(self) -> list[int]:
        """Seats still in the game sharing the most VP (ties reported, never broken)."""
        stat = self.r.score_stat
        live = [(i, p.counters[stat]) for i, p in enumerate(self.players) if not p.out]
        if not live:
            return []
        top = max(v for _, v in live)
        return [i for i, v in live if v == top]
