"""Setup and the pregame: Pre-History's roll-and-mark path until every space is marked,
then the setup bonus and a pawn on each main track's start."""

from __future__ import annotations

from pnp.engine.api import MAIN, EffectRunner

from .tables import TrackTable


class Pregame:
    """ACGame's setup and pregame: one part of ACGame (game.py), whose state they read."""

    def setup(self) -> None:
        """Setup bonus to everyone, the pregame pawn leaves, one pawn on each main track's start."""
        r = self.r
        for seat, p in enumerate(self.players):
            EffectRunner.apply(self, seat, r.setup_bonus, "setup")
            if r.pregame_track:
                p.pos.pop(r.pregame_track, None)
            for t in r.main_tracks:
                p.pos[t] = r.tracks[t].start
        st = self.state
        st.stage, st.turn, st.phase = MAIN, 1, 0

    def pregame(self) -> None:
        """Pre-History: roll high for the first player, then clockwise; landing on a space gives
        its boosts and marks it; a marked space sends the player to any unmarked one of their
        choice (interpretation marked-space); ends as soon as every space is marked."""
        tt = self.r.tracks[self.r.pregame_track]
        marks = self.state.markers.setdefault(tt.id, [])
        goal = tt.n - 1  # every space but the start
        order = self.turn_order()
        while len(marks) < goal:
            for seat in order:
                self.pregame_move(seat, tt)
                if len(marks) >= goal:
                    return

    def pregame_move(self, seat: int, tt: TrackTable) -> None:
        """Pre-History: roll and move; a marked space sends the player to an unmarked one."""
        here = self.players[seat].pos[tt.id]
        dest = tt.advance(here, self.move_roll(seat, tt, here))
        if dest == tt.start:
            dest = self.resolve(seat, tt, None, dest, pregame=True)
            if dest < 0:
                return
        elif dest in self.state.markers[tt.id]:
            dest = self.marked_space(seat, tt)
        self.land(seat, tt, dest, None, pregame=True)

    def marked_space(self, seat: int, tt: TrackTable) -> int:
        """Pre-History: a marked space sends the player to any unmarked space of their choice
        (interpretation marked-space: the chosen space gives its boosts and is marked)."""
        marks = set(self.state.markers[tt.id])  # asked of every space: a set, not the list
        ids, start = tt.ids, tt.start
        options = [ids[i] for i in range(tt.n) if i != start and i not in marks]
        choice = self.choose(seat, options, tt.why_marked, tt.expect_by_id)
        self.event("marked-space", seat)
        return ids.index(choice)
