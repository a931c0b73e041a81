"""The round: the game loop over its three phases, prepare (the round track, row
refreshes, threatening titans) and the end of the round (confronting titans, income,
ambrosia, citizens home, starvation)."""

from __future__ import annotations

from pnp.engine.api import PREGAME, Phase, play_turns

from .pieces import set_tok, tok
from .table import Table


class Rounds(Table):
    """The game loop and the phases around the players' actions."""

    def play(self, max_turns: int) -> None:
        """Setup (from the pregame), then the rounds through the turn driver: prepare, the
        players' actions, the end of the round; a game still going after round `max_turns`
        is a timeout won on the scoring's tie-breaks."""
        st, ctx = self.st, self.ctx
        assert ctx is not None
        if st.stage == PREGAME:
            self.setup()
            ctx.step("pregame")
        phases = [Phase("prepare", self.prepare), Phase("actions", self.actions),
                  Phase("end-of-round", self.round_end)]
        play_turns(ctx, phases, max_turns, leaders=self.winners)

    def round_end(self) -> None:
        """The end of the round; after the last round, the game-end scoring."""
        st = self.st
        last = st.turn >= self.r.rounds
        self.end_of_round(last)
        if last:
            st.phase = 0  # a finished game's state names the first phase, as it always has
            self.score()

    def prepare(self) -> None:
        """Advance the round; from round 2 refresh both rows and draw threatening titans."""
        st, rule = self.st, self.rule
        rnd = st.turn
        st.counters["round"] = rnd
        if rnd == 1:
            return
        deck = "empire-b" if rnd >= rule("round_track", "empire_b") else "empire-a"
        if rnd == rule("round_track", "empire_b"):
            for z in ("empire-a", "empire-discard", "empire-row"):
                self.mover.draw_to(z, len(self.zone(z)), "box", "Empire B replaces Empire A")
        self.mover.draw_to("empire-row", len(self.zone("empire-row")), "empire-discard",
                           "refresh the empire row")
        self.refill("empire-row", deck, rule("rows", "empire_by_players")[self.n - 2])
        if rule("rows", "military_refresh") == "discard":
            self.mover.draw_to("military-row", len(self.zone("military-row")),
                               "military-discard", "refresh the military row")
        self.refill("military-row", "military-deck", self.n)
        if self.r.threats:
            self.draw_titans(rnd)

    def end_of_round(self, last: bool) -> None:
        st, rule = self.st, self.rule
        if self.r.threats:
            for seat in self.order():
                if not self.zone("threat", seat):
                    continue
                titan = self.zone("threat", seat)[0].card
                cost = len(self.r.f(titan, "banners") or ()) * rule("ambrosia",
                                                                     "feed_titan_per_banner")
                opts = ["roll"]
                est = {"roll": self.r.estimate({"victory-points": -0.7 * cost})}
                if self.r.amb and st.players[seat].counters["ambrosia"] >= cost:
                    opts.append("feed")
                    est["feed"] = self.r.estimate({"ambrosia": -float(cost)})
                pick = self.choose(seat, opts, "confront the threatening titan", est)
                if pick == "feed":
                    self.gain(seat, "ambrosia", -cost)
                    self.event("titan-fed", seat)
                else:
                    self.event("titan-confronted", seat)
                    self.damage_roll(seat, titan, at_end=True)
        for seat in range(self.n):
            if not last:
                self.gain(seat, "coins", self.r.capital["income"] + self.symbols(seat, "income"))
                self.gain(seat, "knowledge", self.symbols(seat, "knowledge"))
                if self.r.amb:
                    self.gain(seat, "ambrosia", self.symbols(seat, "ambrosia"))
            for c in self.zone("armies", seat):
                if tok(c, "name"):
                    set_tok(c, "picture", tok(c, "picture") + tok(c, "name"))
                    set_tok(c, "name", 0)
        if self.r.amb and not last:
            self.refill_ambrosia()
        for space in st.vars["spaces"]:
            st.vars["spaces"][space] = []
        for seat, p in enumerate(st.players):
            p.vars["draft"] = 0
            for c in p.vars["cit"]:
                c[1] = "ready"
            for c in self.zone("empire", seat):
                if c.tokens and "occupied" in c.tokens:
                    del c.tokens["occupied"]
                    if not c.tokens:
                        c.tokens = None
        if st.vars["hand"]:
            st.vars["first"] = st.vars.pop("next_first")
        st.vars["hand"] = False
        for seat in self.order():  # ambrosia at any time: a repair may bring food back
            self.ambrosia_window(seat, "before starvation and scoring")
        for seat in self.order():
            self.starvation(seat)

    def refill_ambrosia(self) -> None:
        """1 ambrosia on each action open this round with few citizens; an action still
        under its cover gets none (interpretation ambrosia-refill-spaces)."""
        st = self.st
        most = self.rule("ambrosia", "refill_max_citizens")[self.n - 2]
        for space in self.open_spaces(st.turn):
            if len(st.vars["spaces"][space]) <= most and space in st.vars["amb"]:
                self.put_ambrosia(space, 1)

    def starvation(self, seat: int) -> None:
        cits = self.cits(seat)
        short = len(cits) - self.food(seat)
        if short <= 0:
            return
        per = self.rule("ambrosia", "feed_citizen")
        if self.r.amb:
            can = min(short, self.st.players[seat].counters["ambrosia"] // per)
            if can:
                opts = [f"feed:{k}" for k in range(can + 1)]
                est = {f"feed:{k}": self.r.estimate({"ambrosia": -float(per * k),
                                              "victory-points": 3.0 * k}) for k in range(can + 1)}
                k = int(self.choose(seat, opts, "feed citizens with ambrosia", est)[5:])
                self.gain(seat, "ambrosia", -per * k)
                short -= k
        for _ in range(short):
            ready = [c for c in cits if c[1] == "ready"]
            opts = [f"starve:{c[0]}" for c in ready]
            pick = self.choose(seat, opts, "a citizen goes hungry")
            next(c for c in ready if c[0] == int(pick[7:]))[1] = "starving"
            self.event("starving", seat)
