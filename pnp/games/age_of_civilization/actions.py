"""Worker placement: the slots a player may use this round (the permanent card, the open action
cards of the time track, a civilization's own slots), what an action costs and gives with every
modifier, placing workers one action at a time or resting, and performing the actions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pnp.engine.api import PlayerState

from .rules import POWER_WONDER, abilities, military
from .table import Table


class Actions(Table):
    """The action step of a turn. An option is labelled as a scenario writes it: `culture`,
    `research:writing`, `culture@india` (a civilization's own slot), `hunt@upcoming` (Maya)."""

    def slots(self, seat: int, p: PlayerState) -> list[tuple[str, str]]:
        """(action, where) of every slot the player may use this round: the permanent card,
        the open action cards, the civilization's own slots and, for Maya, upcoming cards."""
        r, st = self.r, self.state
        out: list[tuple[str, str]] = []
        for a in r.permanent:
            out += [(a, "track")] * r.actions[a]["slots"]
        first = st.turn - 1
        track = st.zones["time-track"]
        abil = abilities(r, p)
        upcoming = any(a.get("upcoming") for a in abil if a["when"] == "always")
        for i, c in enumerate(track):
            act = r.action_cards[c.card]["action"]
            if act == "none":
                continue
            if first <= i < first + r.open_cards:
                out += [(act, "track")] * r.actions[act]["slots"]
            elif upcoming and i >= first + r.open_cards:
                out += [(act, "upcoming")] * r.actions[act]["slots"]
        for a in abil:
            if a["when"] == "always" and a.get("slot"):
                out.append((a["slot"], "own"))
        blocked = set()
        for j, q in enumerate(st.players):
            if j != seat:
                for a in abilities(r, q):
                    if a["when"] == "always" and a.get("blocks"):
                        blocked.add(a["blocks"])
        return [s for s in out if s[0] not in blocked]

    def action_terms(self, seat: int, p: PlayerState, act: str, tech: str | None = None,
                     via: str = "") -> dict[str, Any]:
        """Workers, coin cost and what an action gives this player now (modifiers included)."""
        r = self.r
        spec = r.actions[act]
        cost = spec["cost"]
        points = spec["gain"].get("points", 0)
        coins = spec["gain"].get("coins", 0)
        workers = spec["workers"]
        discount, free, keep, others, extra_w, perform, gain_w = 0, False, False, 0, 0, [], 0
        for a in abilities(r, p):
            if a["when"] != "action" or a.get("action") != act or not self.ok(seat, a, via):
                continue
            if a.get("technologies") is not None and tech not in a["technologies"]:
                continue
            points += a.get("points", 0)
            coins += a.get("coins", 0)
            discount += a.get("discount", 0)
            free = free or bool(a.get("free"))
            keep = keep or bool(a.get("keep_workers"))
            others += a.get("others_coins", 0)
            extra_w += a.get("extra_workers", 0)
            gain_w += a.get("workers", 0)
            if a.get("perform"):
                perform.append(a["perform"])
        cost = 0 if free else max(0, cost - discount)
        return {"cost": cost, "points": points, "coins": coins, "workers": workers + extra_w,
                "sacrifice": spec["sacrifice"] and not keep, "others": others
                + spec["others_coins"], "perform": perform, "gain_workers": gain_w}

    def estimate(self, seat: int, p: PlayerState, act: str, tech: str | None) -> dict[str, float]:
        t = self.action_terms(seat, p, act, tech)
        spec = self.r.actions[act]
        d: dict[str, float] = {"coins": t["coins"] - t["cost"], "points": t["points"]}
        if spec["only_if"] == "most-military" and not (self.most_military(seat)
                                                       and military(self.r, p) >= 1):
            d["points"] = 0
        if spec["no_tech_points"] and not p.vars["techs"]:
            d["points"] += spec["no_tech_points"]
        if t["sacrifice"]:
            d["workers"] = -t["workers"]
        d["workers"] = d.get("workers", 0) + t["gain_workers"]
        if spec["gains"] == "technology" and tech is not None:
            for k, v in self.tech_estimate(p, tech).items():
                d[k] = d.get(k, 0) + v
        if spec["gains"] == "wonder" and self.state.zones["wonder-market"]:
            d["power"] = d.get("power", 0) + POWER_WONDER
        return d

    def placements(self, seat: int, p: PlayerState, free: int, used: list[tuple[str, str]]
                   ) -> list[str]:
        left = list(self.slots(seat, p))
        for u in used:
            if u in left:
                left.remove(u)
        out = []
        seen = set()
        for act, where in left:
            if (act, where) in seen:
                continue
            seen.add((act, where))
            label = act if where == "track" else f"{act}@{where}"
            if self.r.actions[act]["gains"] == "technology":
                for t in self.available_techs(p):
                    terms = self.action_terms(seat, p, act, t)
                    if terms["workers"] <= free and terms["cost"] <= p.counters["coins"]:
                        out.append(f"{label}:{t}")
                continue
            terms = self.action_terms(seat, p, act)
            if terms["workers"] <= free and terms["cost"] <= p.counters["coins"]:
                out.append(label)
        return out

    def actions_step(self, seat: int, p: PlayerState) -> None:
        """Place workers one action at a time, or rest; then resolve the workers."""
        used: list[tuple[str, str]] = []
        placed = sacrificed = 0
        first = True
        while True:
            free = p.counters["workers"] - placed
            options = self.placements(seat, p, free, used)
            head = "rest" if first else "done"
            pick = self.choose(seat, [head, *options], "place a worker or " + head,
                               self.turn_outcome(seat, p))
            if pick == "rest":
                self.rest(seat, p)
                return
            if pick == "done":
                break
            first = False
            act, where, tech = self.split(pick)
            used.append((act, where))
            terms = self.action_terms(seat, p, act, tech)
            placed += terms["workers"]
            if terms["sacrifice"]:
                sacrificed += terms["workers"]
            # a worker gained during the action (China) is on hand and may be placed at once
            self.perform(seat, p, act, terms, tech)
        self.gain_workers(p, -sacrificed)

    def turn_outcome(self, seat: int, p: PlayerState) -> Callable[[str], dict[str, float]]:
        rest = {"coins": self.r.turn["rest"]["coins"],
                "workers": self.r.turn["rest"]["workers"]
                if p.counters["workers"] < self.r.max_workers else 0}

        def outcome(o: str) -> dict[str, float]:
            if o == "rest":
                return rest
            if o == "done":
                return {}
            act, _, tech = self.split(o)
            return self.estimate(seat, p, act, tech)
        return outcome

    @staticmethod
    def split(option: str) -> tuple[str, str, str | None]:
        head, _, tech = option.partition(":")
        act, _, where = head.partition("@")
        return act, where or "track", tech or None

    def perform(self, seat: int, p: PlayerState, act: str, terms: dict, tech: str | None,
                via: str = "") -> None:
        r, st = self.r, self.state
        spec = r.actions[act]
        self.cover("action", act)
        self.gain_coins(p, -terms["cost"])
        points = terms["points"]
        if spec["only_if"] == "most-military" and not (self.most_military(seat)
                                                       and military(r, p) >= 1):
            points = 0
        if spec["no_tech_points"] and not p.vars["techs"]:
            points += spec["no_tech_points"]
        p.counters["points"] += points
        self.gain_coins(p, terms["coins"])
        if terms["others"]:
            for j, q in enumerate(st.players):
                if j != seat:
                    self.gain_coins(q, terms["others"])
        if terms["gain_workers"]:
            self.gain_workers(p, terms["gain_workers"])
        if spec["gains"] == "technology" and tech is not None:
            self.gain_technology(seat, p, "research", tech)
        if spec["gains"] == "wonder":
            self.take_wonder(seat, p)
        for extra in terms["perform"]:
            self.free_action(seat, p, extra, act)

    def free_action(self, seat: int, p: PlayerState, act: str, via: str) -> None:
        """An action performed without a worker (Aksum's Culture, Education): optional, paid."""
        terms = self.action_terms(seat, p, act, via=via)
        terms["workers"] = 0
        terms["sacrifice"] = False
        if terms["cost"] > p.counters["coins"]:
            return
        est = {"coins": terms["coins"] - terms["cost"], "points": terms["points"]}
        pick = self.choose(seat, ["no", act], f"perform {act} for free ({via})",
                           lambda o: {} if o == "no" else est)
        if pick == act:
            self.perform(seat, p, act, terms, None, via)

    def rest(self, seat: int, p: PlayerState) -> None:
        rest = self.r.turn["rest"]
        self.gain_coins(p, int(rest["coins"]))
        self.gain_workers(p, int(rest["workers"]))
        for a in abilities(self.r, p):
            if a["when"] == "rest":
                self.gain_coins(p, a.get("coins", 0))
                p.counters["points"] += a.get("points", 0)
        self.event("rest", seat)
