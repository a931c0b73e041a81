"""Movement and spaces: rolling and moving on a track (the hot path, `moves`), paid moves,
start spaces, occupied spaces and built wonders, landing, building and space effects."""

from __future__ import annotations

from collections.abc import Sequence

from pnp.engine.api import ABILITY, MAIN, PlayerState

from .common import _NOTHING, REROLL, STAY, STOP, WAR
from .dice import _landing_judge
from .tables import PhasePlan, TrackTable


class Movement:
    """ACGame's moves: one part of ACGame (game.py), whose state they read."""

    def moves(self, order: Sequence[int], plan: PhasePlan, whole_phase: bool = True) -> None:
        """Each seat of `order` rolls and moves, following the roll-and-move rules to the space
        the pawn ends on: a free space is landed on at once (the common case, inlined); a
        start space, an occupied space or a built wonder is resolved by resolve(). With
        `whole_phase` these are a phase's own moves: a player out (or a game over) is skipped
        and a Populist may roll again. What every move reads is looked up once."""
        players = self.players
        st = self.state
        tt = plan.track
        tid, n, start, loop, blocks, fasts, why, keys, leader = plan.moving
        roll = self.roll
        single = self.single_die
        sides = self.r.die_sides
        spaces = self.spaces  # a Tally: .get skips its __missing__ call
        clips, floors = self.book.clips, self.book.floors
        other_pos = self.other_pos
        for seat in order:
            p = players[seat]
            if whole_phase and (p.out or st.stage != MAIN):
                continue
            here = p.pos[tid]
            if single and not p.vars["powers"]:
                steps = roll(sides, why, seat)
            else:
                steps = self.move_roll(seat, tt, here)
            dest = (here + steps) % n if loop else tt.advance(here, steps)
            stop = dest == start  # a start space, a pawn or a built wonder: no plain landing
            if not stop:
                for pos in other_pos[seat]:  # renewed when a player is out
                    if pos[tid] == dest:
                        stop = True
                        break
                else:
                    stop = blocks and dest in st.markers[tid]
            if stop:
                dest = self.resolve(seat, tt, plan, dest)
            if dest >= 0:
                fast = None if fasts is None else fasts[dest]
                if fast is None:
                    self.land(seat, tt, dest, plan)
                else:  # the common landing, inlined: fixed changes within the stats' bounds
                    p.pos[tid] = dest
                    landed = keys[dest]
                    spaces[landed] = spaces.get(landed, 0) + 1
                    if leader:
                        p.vars["leader"] = tt.ids[dest]
                    stats = p.counters
                    for stat, k, lo, hi in fast:  # StatBook.add_bounded, inlined
                        v = stats[stat] + k
                        if v > hi:
                            clips[stat] = clips.get(stat, 0) + 1
                            v = hi
                        elif v < lo:
                            floors[stat] = floors.get(stat, 0) + 1
                            v = lo
                        stats[stat] = v
                    if self.r.eliminate_now:
                        self.eliminations_now()
            if whole_phase and p.vars["powers"] and not p.out:
                self.extra_roll(seat, plan)

    def paid_moves(self, plan: PhasePlan, seat: int) -> None:
        """Build, Wonder, Knowledge: pay the phase cost to move once, as often as the player can
        pay and wants to; `on_roll` (Build: Infra+1) comes with every paid move."""
        tt = plan.track
        p = self.players[seat]
        stats = p.counters
        need = plan.pay_need
        while True:
            for stat, least in need:  # can the player pay?
                if stats[stat] < least:
                    return
            if plan.optional:
                here = p.pos[tt.id]
                outcomes = plan.pay_outcomes[here] if not tt.owned or self.unbuilt(tt) else \
                    plan.pay_only_outcomes  # nothing left to build: the move is only a cost
                if self.choose(seat, outcomes.options, plan.why_pay, outcomes) == STOP:
                    return
            if plan.pay_bounded is not None:  # cost, then the on_roll gain: fixed changes
                self.book.add_bounded(stats, plan.pay_bounded)
            else:
                self.apply(seat, plan.cost_ops, plan.why_pay)
                self.apply(seat, plan.on_roll, plan.why_pay)
            self.moves((seat,), plan, whole_phase=False)
            if p.out or not plan.repeat:
                return

    def unbuilt(self, tt: TrackTable) -> int:
        return tt.n - 1 - len(self.state.markers.get(tt.id, ()))

    def move_roll(self, seat: int, tt: TrackTable, here: int) -> int:
        """A move's roll by `seat` from `here`: the dice, then any roll power it holds (judged
        by where each result would land)."""
        r = self.r
        p = self.players[seat]
        judge = None
        if p.vars["powers"]:
            judges = tt.judges
            if judges is None:
                judges = tt.judges = [_landing_judge(tt, i) for i in range(tt.n)]
            judge = judges[here]
        if r.die_count == 1 and judge is None:
            return self.roll(r.die_sides, tt.why_move, seat)
        return self.player_roll(seat, r.die_count, r.die_sides, tt.why_move, judge)

    def occupant(self, tt: TrackTable, space: int, seat: int) -> int:
        """The seat of another live pawn on `space`, or -1."""
        tid = tt.id
        for q, other in enumerate(self.players):
            if q != seat and not other.out and other.pos[tid] == space:
                return q
        return -1

    def resolve(self, seat: int, tt: TrackTable, plan: PhasePlan | None, dest: int,
                pregame: bool = False) -> int:
        """Where a move that reached `dest` ends: start spaces give nothing but may be left by
        paying the reroll cost; an occupied space (or a built wonder, interpretation
        built-wonder) is resolved by occupied(). -1 when the move ended there (a start space,
        or a war)."""
        r = self.r
        p = self.players[seat]
        tid = tt.id
        option = plan.option if plan is not None else None
        while True:
            if dest == tt.start:
                self.place(p, tt, dest)
                if r.start_benefit:
                    self.apply_space(seat, tt, dest)
                if option is not None and r.start_options and self.start_option(seat, tt, option):
                    return -1
                if self.start_reroll(seat, tt):
                    dest = tt.advance(dest, self.player_roll(seat, r.die_count, r.die_sides,
                                                             tt.why_move))
                    continue
                return -1
            if pregame:
                if dest in self.state.markers[tid]:
                    dest = self.marked_space(seat, tt)
                return dest
            occupant = -1
            for q, pos in self.others[seat]:
                if pos[tid] == dest:
                    occupant = q
                    break
            if occupant < 0 and not (tt.blocks and dest in self.state.markers[tid]):
                return dest
            if occupant >= 0 and option == "trade":
                self.trade(seat, occupant)
            choice = self.occupied(seat, tt, dest, occupant >= 0 and option == "war")
            if choice == WAR:
                if r.war_to_start:
                    p.pos[tid] = tt.start
                self.war(seat, occupant)
                return -1
            if choice == REROLL:
                self.event("occupied-reroll", seat)
                dest = tt.advance(dest, self.player_roll(seat, r.die_count, r.die_sides,
                                                         tt.why_move))
                continue
            self.event("occupied-" + choice, seat)
            return tt.neighbour(dest, choice)

    def start_option(self, seat: int, tt: TrackTable, option: str) -> bool:
        """Variant start-space-options: a move ending on a start space where an opponent's pawn
        stands offers the phase's option; True when a war ended the move."""
        occupant = self.occupant(tt, tt.start, seat)
        if occupant < 0:
            return False
        if option == "trade":
            self.trade(seat, occupant)
            return self.players[seat].out
        if option != "war":
            return False

        def outcomes(o: str) -> dict[str, float]:
            return self.war_estimate(seat, occupant) if o == WAR else _NOTHING
        if self.choose(seat, (STAY, WAR), tt.why_occupied, outcomes) != WAR:
            return False
        self.war(seat, occupant)
        return True

    def start_reroll(self, seat: int, tt: TrackTable) -> bool:
        """On a start space the player may pay the reroll cost (1 Gold) to roll and move again."""
        r = self.r
        if not r.start_reroll or not self.book.can_pay(self.players[seat].counters, r.start_cost):
            return False
        table = tt.start_outcomes
        if self.choose(seat, table.options, tt.why_start, table) != REROLL:
            return False
        self.event("start-reroll", seat)
        if r.start_cost_changes is None:
            self.apply(seat, r.start_cost_ops, tt.why_start)
        else:
            self.add_changes(self.stat_rows[seat], r.start_cost_changes)
        return True

    def occupied(self, seat: int, tt: TrackTable, dest: int, war: bool) -> str:
        """Occupied space: take the free space just before or after, or roll again (with no free
        neighbour, rolling again is all that is left); in the Military Phase, or declare war."""
        shared_start = self.r.start_shared
        tid = tt.id
        others = self.other_pos[seat]
        # a neighbour is free when it is the start space (interpretation occupied-neighbours),
        # or holds no other live pawn and no built wonder (interpretation built-wonder)
        free = 0  # bit k: the k-th neighbour in tt.sides[dest] is free
        bit = 1
        for _, nb in tt.sides[dest]:
            if nb == tt.start and shared_start:
                free |= bit
            else:
                for pos in others:
                    if pos[tid] == nb:
                        break
                else:
                    if not (tt.blocks and nb in self.state.markers[tid]):
                        free |= bit
            bit <<= 1
        table = tt.occupied_tables[dest][free]
        if not war:
            return self.choose(seat, table.options, tt.why_occupied, table)
        options = (WAR, *table.options)
        static = tt.occupied_outcomes[dest]

        def outcomes(o: str) -> dict[str, float]:
            if o == WAR:
                return self.war_estimate(seat, self.occupant(tt, dest, seat))
            return static(o)
        return self.choose(seat, options, tt.why_occupied, outcomes)

    def land(self, seat: int, tt: TrackTable, dest: int, plan: PhasePlan | None,
             pregame: bool = False) -> None:
        """The pawn stops on `dest`: count it, then build, mark or take the space's effect."""
        p = self.players[seat]
        self.place(p, tt, dest)
        if dest == tt.start:
            if self.r.start_benefit:
                self.apply_space(seat, tt, dest)
            return
        if plan is not None and plan.build_once:
            self.build(seat, tt, dest)
            return
        if pregame:
            self.state.markers[tt.id].append(dest)
        fast = tt.fast[dest]
        if fast is not None:  # fixed changes: apply_space without its dispatch
            self.add_changes(p.counters, fast)
        else:
            self.apply_space(seat, tt, dest)

    def place(self, p: PlayerState, tt: TrackTable, dest: int) -> None:
        """The pawn stops on `dest`: its position, the landing count, the leader it shows
        (moves() does the same inline for a free landing, the hot path)."""
        p.pos[tt.id] = dest
        spaces = self.spaces  # a Tally: .get skips its __missing__ call
        landed = tt.keys[dest]
        spaces[landed] = spaces.get(landed, 0) + 1
        if tt.leader:
            p.vars["leader"] = tt.ids[dest]

    def build(self, seat: int, tt: TrackTable, dest: int) -> None:
        """Wonder Phase: an unbuilt wonder is built, marked and owned for good; landing on a
        built one happens only in the built-wonder-wasted variant: the move is wasted."""
        marks = self.state.markers.setdefault(tt.id, [])
        if dest in marks:
            self.event("wonder-wasted", seat)
            return
        marks.append(dest)
        key = tt.owned_keys[dest]
        self.state.owners[key] = seat
        self.players[seat].vars["owned"].append(key)
        self.event("wonder-built", seat)

    def apply_space(self, seat: int, tt: TrackTable, dest: int) -> None:
        """A space's effect; with alternatives (Builder: R+5 | W+1) the player picks one."""
        alts = tt.effects[dest]
        if not alts:
            return
        ops = alts[0]
        if len(alts) > 1:
            table = tt.alt_tables[dest]
            choice = self.choose(seat, table.options, tt.why_alt, table)
            ops = alts[table.options.index(choice)]
        if tt.timing[dest] is not None:
            self.grant(seat, tt.owned_keys[dest], ops)
            ops = tuple(op for op in ops if op[0] != ABILITY)
        self.apply(seat, ops, tt.why_move)
