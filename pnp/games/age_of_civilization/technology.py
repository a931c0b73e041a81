"""Technologies and wonders, what a player builds up: the technology tree (with Innovation's
special cards replacing a column), gaining a technology token, buying a special technology
card, and taking a wonder from the market.
"""

from __future__ import annotations

from pnp.engine.api import PlayerState

from .rules import POWER_TECH, POWER_WONDER
from .table import Table


class Technology(Table):
    """Technologies held are `vars['techs']` (in the order gained); wonders a player's zone."""

    def tree(self, p: PlayerState) -> list[str]:
        """The technologies a player's cards offer: the basic tree, with a special card's
        column replaced by its top technology and the card's two."""
        special = p.zones["special-technology"]
        if not special:
            return self.r.basic
        f = self.r.specials[special[0].card]
        col = f["column"]
        out = [t for t in self.r.basic
               if self.r.techs[t]["column"] != col or self.r.techs[t]["row"] == 1]
        return out + [f["second"], f["third"]]

    def available_techs(self, p: PlayerState) -> list[str]:
        held = set(p.vars["techs"])
        out = []
        for t in self.tree(p):
            if t in held:
                continue
            req = self.r.techs[t]["requires"]
            if not req or held.intersection(req):
                out.append(t)
        return out

    def gain_technology(self, seat: int, p: PlayerState, why: str, tech: str | None = None) -> bool:
        if tech is None:
            options = self.available_techs(p)
            if not options:
                return False
            tech = self.choose(seat, options, why, lambda t: self.tech_estimate(p, t))
        p.vars["techs"].append(tech)
        self.state.supply["technology-tokens"] -= 1
        self.cover("technology", tech)
        for a in self.r.main.get(tech, ()):
            if a["when"] == "gained" and a.get("points"):
                p.counters["points"] += a["points"] * self.times(p, a)
        return True

    def tech_estimate(self, p: PlayerState, t: str) -> dict[str, float]:
        d = {"power": POWER_TECH}
        for a in self.r.main.get(t, ()):
            if a["when"] == "gained" and a.get("points"):
                d["points"] = a["points"] * self.times(p, a)
            if a.get("military"):
                d["power"] += 0.4 * a["military"]
        return d

    def buy_special(self, seat: int, p: PlayerState) -> None:
        """Innovation: buy a special technology card (at most innovation.per_player) for a
        column not yet used."""
        market = self.state.zones["technology-market"]
        price = int(self.r.innovation.get("price", 1))
        if (len(p.zones["special-technology"]) >= int(self.r.innovation.get("per_player", 1))
                or not market or p.counters["coins"] < price):
            return
        used = {self.r.techs[t]["column"] for t in p.vars["techs"]}
        options = ["none"] + [c.card for c in market
                              if self.r.specials[c.card]["column"] not in used]
        if len(options) == 1:
            return
        pick = self.choose(seat, options, "buy a special technology card",
                           lambda o: {} if o == "none" else {"coins": -price, "power": 0.8})
        if pick == "none":
            return
        card = next(c for c in market if c.card == pick)
        self.ctx.move(card, "technology-market", ("special-technology", seat),
                      "buy a special technology card", seat)
        self.gain_coins(p, -price)
        self.cover("special-technology", pick)

    # ------------------------------------------------------------------ wonders
    def take_wonder(self, seat: int, p: PlayerState) -> None:
        market = self.state.zones["wonder-market"]
        if not market:
            return
        ids = [c.card for c in market]
        pick = self.choose(seat, ids, "take a wonder", lambda w: self.wonder_estimate(p, w))
        card = next(c for c in market if c.card == pick)
        self.ctx.move(card, "wonder-market", ("wonders", seat), "take a wonder", seat)
        self.cover("wonder", pick)

    def wonder_estimate(self, p: PlayerState, w: str) -> dict[str, float]:
        d = {"power": POWER_WONDER}
        for a in self.r.main.get(w, ()):
            if a["when"] == "game-end" and a.get("points"):
                d["points"] = a["points"] * max(1, self.times(p, a))
        return d
