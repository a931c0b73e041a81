"""Maneuver: legions and galleys move (one decision a move), fight where they meet enemy
units, then conquer the cities their numbers overcome and found cities on empty sites."""

from __future__ import annotations

from pnp.engine.api import Estimate, count, nodes_with, on_map

from .actions import STOP, Actions
from .rules import UNITS


class Maneuver(Actions):
    def steps(self, seat: int, unit: str) -> int:
        """A unit's moves in one maneuver: its base plus every know-how bonus it has."""
        n = self.r.moves[unit]
        for know_how, bonus in self.r.move_bonus.items():
            if self.knows(seat, know_how):
                n += int(bonus.get(unit, 0))
        return n

    def enemy_nodes(self, seat: int) -> set[str]:
        """Map nodes holding another nation's units: only nodes holding units at all are
        looked at (the map has many more, and this is asked for every unit that moves)."""
        nodes = self.r.map.nodes
        held = {n for unit in UNITS for n in nodes_with(self.state, unit)}
        return {n for n in held if n in nodes and self.enemy_units(n, seat) > 0}

    def destinations(self, seat: int, unit: str, src: str,
                     enemy: set[str] | None = None) -> list[str]:
        """Nodes the unit can reach: never through enemy units, but it may stop on them.
        `enemy` is enemy_nodes(seat) when the caller has it already (one map, many units)."""
        r = self.r
        crossing = r.crossing.get(unit)
        through = r.through.get(unit)
        steps = self.steps(seat, unit)
        enemies = (self.enemy_nodes(seat) if enemy is None else enemy) - {src}
        reach = r.map.reach(src, steps, unit, crossing, through, blocked=enemies)
        out = [n for n in reach if n != src]
        for n, d in list(reach.items()):
            if d >= steps or (d > 0 and through is not None
                              and r.map.nodes[n].kind not in through):
                continue
            for m in r.map.neighbours(n, crossing):
                if m in enemies and m not in out and r.map.may_stand(unit, m):
                    out.append(m)
        return out

    def earns(self, per: str) -> bool:
        """Whether a stack awarded for `per` (cities, temples-destroyed) still has cards."""
        stacks = self.state.vars["stacks"]
        return any(a["per"] == per and stacks.get(k, 0) > 0 for k, a in self.r.awards.items())

    def gain(self, seat: int, node: str) -> float:
        """What taking the site at `node` is worth to the greedy bot, from 1 (it brings the
        nation nearer a personage: more cities than it ever held while a stack pays for
        cities, or a temple destroyed while one pays for that) down to 0.25 (the city only
        changes hands). A bot's estimate, not a rule: without it two greedy nations trade
        the same cities back and forth once the kings are gone, and the game never ends."""
        best = self.state.players[seat].vars["best"]["cities"]
        if len(self.cities(seat)) + 1 > best and self.earns("cities"):
            return 1.0
        owner = self.city_owner(node)
        if owner is not None and self.has_temple(node) and self.earns("temples-destroyed"):
            return 1.0
        return 0.25

    def targets(self, seat: int) -> float:
        """The sites the seat's units could take in one maneuver, each by its `gain`: an empty
        site it can pay to found, or a city whose defence its reaching units match (the
        greedy bot's guess of a maneuver's worth, not a rule)."""
        limit = self.r.map.pieces["city"].per_player
        if limit is not None and on_map(self.state, "city", seat) >= limit:
            return 0.0
        reaching: dict[str, int] = {}
        enemy = self.enemy_nodes(seat)
        for unit in UNITS:
            for node in self.r.map.nodes:
                n = count(self.state, node, unit, seat)
                if n == 0:
                    continue
                for d in [node, *self.destinations(seat, unit, node, enemy)]:
                    if self.r.map.nodes[d].site and self.city_owner(d) != seat:
                        reaching[d] = reaching.get(d, 0) + n
        found = self.can_pay_all(seat, self.r.found)
        return sum(self.gain(seat, d) for d, n in reaching.items()
                   if (self.city_owner(d) is None and d not in self.neutral() and found)
                   or (self.city_owner(d) is not None or d in self.neutral())
                   and n >= self.defence(d))

    def maneuver(self, seat: int) -> None:
        moved: dict[tuple[str, str], int] = {}  # (node, unit) -> units that arrived there
        while True:
            options: list[str] = []
            worth: dict[str, Estimate] = {}
            # the map as it stands before this move, read once for every unit that may move
            enemy = self.enemy_nodes(seat)
            mine = {n for unit in UNITS for n in nodes_with(self.state, unit, seat)}
            by_dst: dict[str, Estimate] = {}
            for node in [n for n in self.r.map.nodes if n in mine]:  # in the map's order
                for unit in UNITS:
                    free = count(self.state, node, unit, seat) - moved.get((node, unit), 0)
                    if free <= 0:
                        continue
                    for dst in self.destinations(seat, unit, node, enemy):
                        label = f"{unit}:{node}>{dst}"
                        options.append(label)
                        if dst not in by_dst:
                            by_dst[dst] = self.move_worth(seat, dst)
                        worth[label] = by_dst[dst]
            if not options:
                break
            options.append(STOP)
            worth[STOP] = Estimate()
            pick = self.ctx.choose(seat, options, "move", worth.get)
            if pick == STOP:
                break
            unit, route = pick.split(":")
            src, dst = route.split(">")
            self.ctx.move_piece(unit, src, dst, seat, "maneuver")
            moved[(dst, unit)] = moved.get((dst, unit), 0) + 1
            self.ctx.event(f"moved-{unit}", seat)
            self.fights(seat, dst, unit, moved)
        self.conquests(seat)

    def move_worth(self, seat: int, dst: str) -> Estimate:
        site = self.r.map.nodes[dst].site
        owner = self.city_owner(dst)
        if site and owner is None and dst not in self.neutral():
            return Estimate({"power": 3.0 * self.gain(seat, dst)})
        if site and owner != seat:
            short = self.defence(dst) - self.units(dst, seat) - 1
            return Estimate({"power": self.gain(seat, dst) * (
                3.5 if short <= 0 else 1.0 / (1 + short))})
        near = any(self.r.map.nodes[m].site and self.city_owner(m) != seat
                   for m in self.r.map.neighbours(dst))
        return Estimate({"power": 0.2 if near and not self.units(dst, seat) else -0.05})

    def fights(self, seat: int, node: str, unit: str, moved: dict) -> None:
        """On a node with enemy units the mover may fight, again and again: each fight takes
        one of its units there (the kind that came, first) and one enemy unit (a legion before
        a galley, of the nation with most units there)."""
        while self.enemy_units(node, seat) > 0 and self.units(node, seat) > 0:
            mine, theirs = self.units(node, seat), self.enemy_units(node, seat)
            worth = {"fight": Estimate({"power": 1.0 if mine > theirs else -0.5}),
                     "hold": Estimate()}
            if self.ctx.choose(seat, ["fight", "hold"], "fight", worth.get) != "fight":
                return
            own = unit if count(self.state, node, unit, seat) else (
                "legion" if count(self.state, node, "legion", seat) else "galley")
            self.ctx.remove(own, node, seat, "fight")
            if moved.get((node, own), 0) > 0:
                moved[(node, own)] -= 1
            foe = self.foe(node, seat)
            lost = "legion" if count(self.state, node, "legion", foe) else "galley"
            self.ctx.remove(lost, node, foe, "fight")
            self.ctx.event("fight", seat)

    def foe(self, node: str, seat: int) -> int:
        """The enemy with most units on a node (the lowest seat on a tie)."""
        best, most = -1, 0
        for other in range(len(self.state.players)):
            n = self.units(node, other) if other != seat else 0
            if n > most:
                best, most = other, n
        return best

    def conquests(self, seat: int) -> None:
        """Every city the seat's units overcome is conquered; every empty site with its units
        is founded while it can pay and has city markers."""
        limit = self.r.map.pieces["city"].per_player
        for node in self.r.city_sites:
            mine = self.units(node, seat)
            if mine == 0:
                continue
            owner = self.city_owner(node)
            if owner == seat:
                continue
            if limit is not None and on_map(self.state, "city", seat) >= limit:
                self.ctx.event("cities-ran-out", seat)  # component sufficiency
                return
            neutral = node in self.neutral()
            if owner is None and not neutral:
                if self.can_pay_all(seat, self.r.found):
                    for res, n in self.r.found.items():
                        self.pay(seat, res, n)
                    self.ctx.place("city", node, seat, "found")
                    self.ctx.event("found-city", seat)
                continue
            if mine < self.defence(node):
                continue
            if neutral:
                self.state.vars["neutral"].remove(node)
            else:
                for unit in UNITS:
                    n = count(self.state, node, unit, owner)
                    if n:
                        self.ctx.remove(unit, node, owner, "routed", n)
                if self.has_temple(node):
                    self.ctx.remove("temple", node, owner, "destroyed")
                    self.state.players[seat].counters["temples-destroyed"] += 1
                    self.ctx.event("temple-destroyed", seat)
                self.ctx.remove("city", node, owner, "conquered")
            self.ctx.place("city", node, seat, "conquest")
            self.ctx.event("conquest", seat)
