"""Ancient personages, awarded at the end of every turn for what a nation achieved and never
taken back, and the end of the game when a nation has enough of them."""

from __future__ import annotations

from pnp.engine.api import COMPLETED, OVER, board_of

from .rules import STACKS
from .table import GALLEY, Table


class Personages(Table):
    def holdings(self) -> list[tuple[int, int, int]]:
        """Per seat, the cities, temples and seas it holds now, counted in one pass over the
        pieces for every nation (awards ask at the end of every turn), and again only after a
        piece moved."""
        if self.ctx is not None:
            kept = self._holdings
            if kept is None or kept[0] != self.ctx.map_changes:
                kept = self._holdings = (self.ctx.map_changes, self.count_holdings())
            return kept[1]
        return self.count_holdings()

    def count_holdings(self) -> list[tuple[int, int, int]]:
        """`holdings` counted afresh."""
        players = len(self.state.players)
        cities, temples, seas = [0] * players, [0] * players, [0] * players
        sea_set = self.r.sea_set
        for node, at in board_of(self.state).items():
            city = at.get("city")
            if city is not None:
                temple = at.get("temple")
                has_temple = temple is not None and sum(temple) > 0
                for seat, n in enumerate(city):
                    if n > 0:
                        cities[seat] += 1
                        if has_temple:
                            temples[seat] += 1
            if node in sea_set:
                galleys = at.get(GALLEY)
                if galleys is not None:
                    for seat, n in enumerate(galleys):
                        if n > 0:
                            seas[seat] += 1
        return list(zip(cities, temples, seas, strict=True))

    def record_best(self, seat: int, now: tuple[int, int, int] | None = None) -> None:
        """The most cities, temples and seas the nation has held at once (what awards read);
        `now` is its holdings() when the caller has counted them."""
        cities, temples, held = self.holdings()[seat] if now is None else now
        best = self.state.players[seat].vars["best"]
        if cities > best["cities"]:
            best["cities"] = cities
        if temples > best["temples"]:
            best["temples"] = temples
        if held > best["seas"]:
            best["seas"] = held

    def deserved(self, seat: int, stack: str) -> int:
        """How many personages of a stack the nation has earned so far."""
        return self.all_deserved(seat)[STACKS.index(stack)]

    def all_deserved(self, seat: int, firsts: int | None = None) -> list[int]:
        """`deserved` for every stack, in STACKS order (awards ask for all five each turn);
        `firsts` is how many know-hows the nation owned first, when the caller has counted."""
        p = self.state.players[seat]
        best = p.vars["best"]
        full = len(p.vars["know_hows"]) == len(self.r.know_hows)
        extra = self.r.all_know_hows
        out = []
        for stack, per, each in self.r.award_plan:
            if per == "first-know-how":
                if firsts is None:
                    firsts = sum(1 for s in self.state.vars["first"].values() if s == seat)
                n = firsts
            elif per == "temples-destroyed":
                n = p.counters["temples-destroyed"] // each
            else:
                n = best[per] // each
            if full and stack == extra:
                n += 1  # the extra personage for owning every know-how
            out.append(n)
        return out

    def award(self, seat: int, now: tuple[int, int, int] | None = None,
              firsts: int | None = None) -> None:
        """The personages the nation has earned and not yet taken, while the stacks last;
        `now` and `firsts` are its holdings() and first know-hows when the caller has
        counted them."""
        self.record_best(seat, now)
        p = self.state.players[seat]
        # what deserved reads: the same as when the nation was last owed nothing, nothing is
        # owed now either (awarded cards are never taken back)
        best = p.vars["best"]
        reads = (best["cities"], best["temples"], best["seas"],
                 p.counters["temples-destroyed"], firsts, len(p.vars["know_hows"]))
        if firsts is not None and self._settled.get(seat) == reads:
            return
        stacks = self.state.vars["stacks"]
        awarded = p.vars["awarded"]
        settled = True
        for stack, earned in zip(STACKS, self.all_deserved(seat, firsts), strict=True):
            owed = earned - awarded[stack]
            if owed <= 0:
                continue
            settled = False
            while owed > 0 and stacks[stack] > 0:
                stacks[stack] -= 1
                awarded[stack] += 1
                p.counters["personages"] += 1
                owed -= 1
                self.ctx.cover("personage", stack)
                self.ctx.event(f"personage-{stack}", seat)
            if owed > 0:
                self.ctx.event(f"stack-empty-{stack}", seat)
        if settled:
            self._settled[seat] = reads

    def end_of_turn(self, active: int) -> None:
        """Awards for every nation (the active one first), then the end check."""
        order = self.state.vars["order"]
        start = order.index(active)
        # awards change no piece and no know-how: one count serves every nation
        now = self.holdings()
        first = self.state.vars["first"]
        if self._firsts is None or self._firsts[0] != len(first):  # owners are never changed
            self._firsts = (len(first), [sum(1 for s in first.values() if s == seat)
                                         for seat in range(len(self.state.players))])
        firsts = self._firsts[1]
        for seat in order[start:] + order[:start]:
            self.award(seat, now[seat], firsts[seat])
        goal = self.r.end_at[len(self.state.players)]
        scores = [p.counters["personages"] for p in self.state.players]
        if max(scores) >= goal:
            st = self.state
            st.stage, st.ended = OVER, COMPLETED
            st.winners = [i for i, s in enumerate(scores) if s == max(scores)]
