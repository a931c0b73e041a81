"""One game of Antike, joined from its parts: setup, and rounds in which each nation in turn
moves on the rondel, performs the wedge's action and is awarded personages."""

from __future__ import annotations

from pnp.engine.api import MAIN, PREGAME, Estimate, Phase, play_turns

from .maneuver import Maneuver
from .personages import Personages
from .rules import RESOURCES, STACKS

ROUND = "round"


class Antike(Maneuver, Personages):
    def setup(self) -> None:
        """Nations in seat order, start cities on the map, start coins by turn order."""
        st, r = self.state, self.r
        players = len(st.players)
        nations = r.nations_for(players)
        first = nations.index(r.starter(players))
        st.vars["order"] = [(first + i) % players for i in range(players)]
        st.vars["stacks"] = {s: r.stack_size[s] for s in STACKS}
        st.vars["first"] = {}
        st.vars["neutral"] = []
        for seat, nation in enumerate(nations):
            p = st.players[seat]
            p.vars = {"nation": nation, "rondel": -1, "know_hows": [],
                      "best": {"cities": 0, "temples": 0, "seas": 0},
                      "awarded": {s: 0 for s in STACKS}}
            starts = list(r.start[nation])
            if r.start_cities < len(starts):
                starts = self.choose_start(seat, starts)
            for node in starts:
                self.ctx.place("city", node, seat, "setup")
        if r.neutral_cities:
            for nation in r.nation_order[players:]:
                st.vars["neutral"].extend(r.start[nation])
        for seat in range(players):
            for res in RESOURCES:
                self.take(seat, res, r.start_resources)
        # one entry per place in turn order; the general list has six, and with fewer nations
        # the rest go unused
        for seat, coins in zip(st.vars["order"], r.start_coins(players), strict=False):
            self.take(seat, "coins", coins)
        for seat in range(players):
            st.players[seat].vars["best"]["cities"] = len(self.cities(seat))

    def choose_start(self, seat: int, starts: list[str]) -> list[str]:
        """The longer game: one start city, the nation's choice."""
        value = {"gold": 3.0, "iron": 2.0, "marble": 1.0}
        worth = {n: Estimate({"power": value.get(self.r.map.nodes[n].site or "", 0.0)})
                 for n in starts}
        chosen: list[str] = []
        left = list(starts)
        for _ in range(self.r.start_cities):
            pick = self.ctx.choose(seat, left, "start-city", worth.get)
            chosen.append(pick)
            left.remove(pick)
        return chosen

    def play(self, max_turns: int) -> None:
        st, ctx = self.state, self.ctx
        if st.stage == PREGAME:
            self.setup()
            st.stage, st.turn = MAIN, 1
            ctx.step("pregame")
        play_turns(ctx, [Phase(ROUND, self.round)], max_turns, leaders=self.leaders)

    def round(self) -> None:
        if self.r.round_coins:
            for seat in self.state.vars["order"]:
                if self.take(seat, "coins", self.r.round_coins) < self.r.round_coins:
                    self.ctx.event("bank-short-coins", seat)
        for seat in list(self.state.vars["order"]):
            self.turn(seat)
            if self.state.stage != MAIN:
                return

    def turn(self, seat: int) -> None:
        wedge = self.rondel_turn(seat)
        action = self.r.action[wedge]
        if action in RESOURCES:
            self.income(seat, action)
        elif action == "temple":
            self.temple(seat)
        elif action == "arming":
            self.arming(seat)
        elif action == "know-how":
            self.know_how(seat)
        else:
            self.maneuver(seat, self.rondel_sight(seat))
        self.end_of_turn(seat)

    def leaders(self) -> list[int]:
        scores = [p.counters["personages"] for p in self.state.players]
        return [i for i, s in enumerate(scores) if s == max(scores)]
