"""A round: every player's turn from the starter on (civilization, special technology, actions,
turn-end abilities), then the round end (the starter token passes, the solo opponent grows,
the newly opened action card's war or plague, Changing World's event tokens).
"""

from __future__ import annotations

from pnp.engine.api import PlayerState

from .rules import POWER_TECH, abilities, flat, military, sourced_abilities
from .table import Table


class Rounds(Table):
    """The two steps of a round: `turns` and `round-end`."""

    def turns(self) -> None:
        """Every player's turn, from the starter round the table."""
        starter = self.state.vars["starter"]
        for k in range(self.n):
            self.take_turn((starter + k) % self.n)

    def take_turn(self, seat: int) -> None:
        p = self.state.players[seat]
        self.civilization_step(seat, p)
        if self.innovation:
            self.buy_special(seat, p)
        self.actions_step(seat, p)
        self.turn_end(seat, p)

    def turn_end(self, seat: int, p: PlayerState) -> None:
        """Every-turn-end abilities, each once, in the order the player chooses (`end:SOURCE`,
        the card or technology it comes from); one gained meanwhile (Babylon's technology
        bringing Education) joins the ones still to use this turn end."""
        done: set[str] = set()
        while True:
            pending = [(k, a) for k, a in sourced_abilities(self.r, p, "turn-end")
                       if k not in done]
            if not pending:
                return
            by_label = {f"end:{k}": (k, a) for k, a in pending}
            pick = self.choose(seat, list(by_label), "the next every-turn-end ability",
                               lambda o, labels=by_label: self.turn_end_estimate(seat, p, labels[o][1]))
            key, a = by_label[pick]
            done.add(key)
            self.turn_end_ability(seat, p, a)

    def turn_end_estimate(self, seat: int, p: PlayerState, a: dict) -> dict[str, float]:
        """What using one ability now is worth to a greedy bot: gains before spending, and
        what counts the player's points (Britain) last."""
        if a.get("per") == "points":
            return {"points": -0.1}
        if a.get("pay_bonus") or a.get("perform"):
            return {}
        if a.get("technology"):
            return {"power": POWER_TECH}
        k = self.times(p, a) if self.ok(seat, a) else 0
        return {"coins": a.get("coins", 0) * k, "points": a.get("points", 0) * k}

    def turn_end_ability(self, seat: int, p: PlayerState, a: dict) -> None:
        if a.get("pay_bonus"):
            self.phoenicia(seat, p, a)
        elif a.get("perform"):
            self.free_action(seat, p, a["perform"], "education")
        elif a.get("technology"):
            for _ in range(a["technology"]):
                self.gain_technology(seat, p, "technology at turn end")
        elif self.ok(seat, a):
            self.gain_coins(p, a.get("coins", 0) * self.times(p, a))
            p.counters["points"] += a.get("points", 0) * self.times(p, a)

    # ------------------------------------------------------------------ round end
    def end_round(self, last: bool) -> None:
        r, st = self.r, self.state
        z = st.zones
        if self.solo:
            self.solo_round_end()
        else:
            step = -1 if r.round_end.get("starter_passes") == "counter-clockwise" else 1
            st.vars["starter"] = (st.vars["starter"] + step) % self.n
        if last:
            return
        new = st.turn - 1 + r.open_cards  # the card the permanent card's move opens
        token = None
        k = st.turn - int(r.changing.get("first_round", 3))  # tokens act from that round on
        if self.changing and 0 <= k < len(z["event-track"]):
            token = z["event-track"][k].card
        first = bool(r.changing.get("before_war", True))
        if token is not None and first:
            self.world_event(token)
        read = st.turn >= int(r.game.rule("time_track", "events_from_round", default=1))
        event = r.action_cards[z["time-track"][new].card]["event"] if read else "none"
        if event == "war":
            self.war()
        elif event == "plague":
            self.event("plague")
            for p in st.players:
                self.gain_workers(p, -int(r.round_end["plague_sacrifice"]))
        if token is not None and not first:
            self.world_event(token)

    def war(self) -> None:
        st = self.state
        self.event("war")
        s = self.strengths()
        pool = s + ([st.vars["opponent"]] if self.solo else [])
        low = min(pool)
        losers = [i for i, x in enumerate(s) if x == low]
        if len(losers) + (1 if self.solo and st.vars["opponent"] == low else 0) > 1:
            self.event("war-tie")
        for i, p in enumerate(st.players):
            abil = abilities(self.r, p)
            for a in abil:
                if a["when"] == "war" and a.get("coins"):
                    self.gain_coins(p, a["coins"] * self.times(p, a))
            if i in losers and not any(a["when"] == "war" and a.get("immune") for a in abil):
                self.gain_workers(p, -int(self.r.round_end["war_sacrifice"]))

    def world_event(self, token: str) -> None:
        """Changing World: one event token's effect (before the card's own event)."""
        st, r = self.state, self.r
        f = r.events[token]
        self.event(f"event:{token}")
        self.cover("event", token)
        who = f["who"]
        players = list(range(self.n))
        if who != "all":
            key = {"most-wonders": lambda p: len(p.zones["wonders"]),
                   "most-technologies": lambda p: len(p.vars["techs"]),
                   "most-coins": lambda p: p.counters["coins"],
                   "least-military": lambda p: -military(r, p)}[who]
            vals = [key(p) for p in st.players]
            players = [i for i, v in enumerate(vals) if v == max(vals)]
        delta = flat(f["effect"])
        for i in players:
            p = st.players[i]
            k = p.counters["workers"] if f.get("per") == "workers" else 1
            for stat, n in delta.items():
                if stat == "workers":
                    self.gain_workers(p, n * k)
                elif stat == "coins":
                    self.gain_coins(p, n * k)
                else:
                    p.counters[stat] += n * k
