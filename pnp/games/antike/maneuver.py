"""Maneuver: legions and galleys move (one decision a move), fight where they meet enemy
units, then conquer the cities their numbers overcome and found cities on empty sites."""

from __future__ import annotations

from collections.abc import Callable

from pnp.engine.api import Estimate, board_of, count, on_map

from .actions import STOP, Actions
from .rules import UNITS
from .table import Sight

#: estimates every decision shares (read-only: a bot keeps its digest in their memo slot)
NOTHING = Estimate()
NEAR = Estimate({"power": 0.2})
IDLE = Estimate({"power": -0.05})


class Maneuver(Actions):
    def steps(self, seat: int, unit: str) -> int:
        """A unit's moves in one maneuver: its base plus every know-how bonus it has."""
        n = self.r.moves[unit]
        for know_how, bonus in self.r.move_bonus.items():
            if self.knows(seat, know_how):
                n += int(bonus.get(unit, 0))
        return n

    def enemy_nodes(self, seat: int) -> frozenset[str]:
        """Map nodes holding another nation's units."""
        return Sight(board_of(self.state), seat).enemy

    def destinations(self, seat: int, unit: str, src: str,
                     enemy: frozenset[str] | set[str] | None = None,
                     steps: int | None = None) -> tuple[str, ...]:
        """Nodes the unit can reach: never through enemy units, but it may stop on them.
        `enemy` and `steps` are enemy_nodes(seat) and steps(seat, unit) when the caller has
        them already (one map, many units)."""
        if steps is None:
            steps = self.steps(seat, unit)
        enemy = self.enemy_nodes(seat) if enemy is None else frozenset(enemy)
        return self.routes(unit, src, steps, enemy)[0]

    def routes(self, unit: str, src: str, steps: int,
               enemy: frozenset[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(destinations, their move labels `unit:src>dst`): a pure function of the unit, its
        source, its steps and the enemy nodes, so it is remembered per definition (a playout
        asks the same questions again and again; bounded, emptied when full)."""
        key = (unit, src, steps, enemy)
        memo = self.r.destinations
        out = memo.get(key)
        if out is None:
            dests = self.find_destinations(unit, src, steps, enemy - {src})
            labels = tuple(f"{unit}:{src}>{d}" for d in dests)
            self.r.move_dst.update(zip(labels, dests, strict=True))
            out = memo.put(key, (dests, labels))
        return out

    def find_destinations(self, unit: str, src: str, steps: int,
                          enemies: frozenset[str]) -> tuple[str, ...]:
        """`destinations` worked out: the nodes within `steps` of `src` by paths that do not
        cross an enemy, then the enemy nodes one step further that the unit may stand on."""
        r = self.r
        crossing = r.crossing.get(unit)
        through = r.through.get(unit)
        reach = r.map.reach(src, steps, unit, crossing, through, blocked=enemies)
        out = [n for n in reach if n != src]
        if enemies:
            for n, d in reach.items():
                if d >= steps or (d > 0 and through is not None
                                  and r.map.nodes[n].kind not in through):
                    continue
                for m in r.map.neighbours(n, crossing):
                    if m in enemies and m not in out and r.map.may_stand(unit, m):
                        out.append(m)
        return tuple(out)

    def earns(self, per: str) -> bool:
        """Whether a stack awarded for `per` (cities, temples-destroyed) still has cards."""
        stacks = self.state.vars["stacks"]
        return any(a["per"] == per and stacks.get(k, 0) > 0 for k, a in self.r.awards.items())

    def gains(self, seat: int, sight: Sight | None = None) -> tuple[bool, bool]:
        """What makes a site worth its full value to `gain` (the same for every site of one
        decision): (one more city lifts the nation past the most it ever held while a stack
        pays for cities, a destroyed temple still earns a personage)."""
        best = self.state.players[seat].vars["best"]["cities"]
        cities = len(self.cities(seat) if sight is None else sight.cities)
        return (cities + 1 > best and self.earns("cities"), self.earns("temples-destroyed"))

    def gain(self, seat: int, node: str, gains: tuple[bool, bool] | None = None,
             sight: Sight | None = None) -> float:
        """What taking the site at `node` is worth to the greedy bot, from 1 (it brings the
        nation nearer a personage: more cities than it ever held while a stack pays for
        cities, or a temple destroyed while one pays for that) down to 0.25 (the city only
        changes hands). A bot's estimate, not a rule: without it two greedy nations trade
        the same cities back and forth once the kings are gone, and the game never ends.
        `gains` and `sight` are gains(seat) and the map when the caller has them already."""
        grows, razes = self.gains(seat) if gains is None else gains
        if grows:
            return 1.0
        if razes and (self.city_owner(node) is not None and self.has_temple(node)
                      if sight is None else node in sight.owner and node in sight.temples):
            return 1.0
        return 0.25

    def seen_defence(self, node: str, sight: Sight) -> int:
        """`defence` of a node, its owner and temple read from the sight."""
        return self.defence_of(node, sight.owner.get(node), node in sight.temples)

    def targets(self, seat: int, sight: Sight | None = None,
                counters: dict[str, int] | None = None) -> float:
        """The sites the seat's units could take in one maneuver, each by its `gain`: an empty
        site it can pay to found (from `counters` when given: what it will hold once its
        rondel steps are paid), or a city whose defence its reaching units match (the
        greedy bot's guess of a maneuver's worth, not a rule)."""
        r = self.r
        if sight is None:
            sight = Sight(board_of(self.state), seat)
        limit = r.map.pieces["city"].per_player
        if limit is not None and sight.city_pieces >= limit:
            return 0.0
        own, enemy, site, owner = sight.own, sight.enemy, r.site, sight.owner.get
        reaching: dict[str, int] = {}
        for k, unit in enumerate(UNITS):
            steps = self.steps(seat, unit)
            for node in r.map.nodes:  # in the map's order
                held = own.get(node)
                if held is None or held[k] == 0:
                    continue
                n = held[k]
                for d in (node, *self.routes(unit, node, steps, enemy)[0]):
                    if site[d] and owner(d) != seat:
                        reaching[d] = reaching.get(d, 0) + n
        if not reaching:
            return 0
        found = self.can_pay_all(seat, r.found, counters)
        neutral = self.neutral()
        gains = self.gains(seat, sight)
        return sum(self.gain(seat, d, gains, sight) for d, n in reaching.items()
                   if (owner(d) is None and d not in neutral and found)
                   or (owner(d) is not None or d in neutral) and n >= self.seen_defence(d, sight))

    def maneuver(self, seat: int, sight: Sight | None = None) -> None:
        """Moves, one decision each, until the nation stops or none is left; fights where
        they meet enemy units; then the conquests. `sight` is the map as it stands when the
        caller has read it (the rondel decision's estimates do)."""
        moved: dict[tuple[str, str], int] = {}  # (node, unit) -> units that arrived there
        nodes = self.r.map.nodes
        # the map as it stands before the first move, read once for every unit that may move
        if sight is None or sight.seat != seat:
            sight = self.sight(seat)
        steps = [self.steps(seat, unit) for unit in UNITS]  # know-hows stay as they are
        # what a move changes is the two nodes it joins (cities, temples, know-hows and the
        # personage stacks stay as they are until the conquests): each node's move labels and
        # each destination's greedy estimate are kept from move to move, and only those two
        # nodes' dropped (every node's labels when the nodes holding enemy units change)
        by_dst: dict[str, Estimate] = {}
        gains: list[tuple[bool, bool]] = []
        labels_at: dict[str, list[str]] = {}
        labels_for = sight.enemy
        dst_of = self.r.move_dst
        while True:
            own, enemy = sight.own, sight.enemy
            if enemy is not labels_for:
                labels_at.clear()
                labels_for = enemy
            options: list[str] = []
            for node in [n for n in nodes if n in own]:  # in the map's order
                labels = labels_at.get(node)
                if labels is None:
                    labels = labels_at[node] = []
                    held = own[node]
                    for k, unit in enumerate(UNITS):
                        if held[k] - moved.get((node, unit), 0) > 0:
                            labels.extend(self.routes(unit, node, steps[k], enemy)[1])
                options.extend(labels)
            if not options:
                break
            options.append(STOP)
            pick = self.ctx.choose(seat, options, "move",
                                   self.move_worths(seat, dst_of, sight, by_dst, gains))
            if pick == STOP:
                break
            unit, route = pick.split(":")
            src, dst = route.split(">")
            self.ctx.move_piece(unit, src, dst, seat, "maneuver")
            moved[(dst, unit)] = moved.get((dst, unit), 0) + 1
            self.ctx.event(f"moved-{unit}", seat)
            self.fights(seat, dst, unit, moved)
            board = board_of(self.state)
            sight.look(board, src)
            sight.look(board, dst)
            for node in (src, dst):
                by_dst.pop(node, None)
                labels_at.pop(node, None)
        self.conquests(seat, sight.own)

    def move_worths(self, seat: int, dst_of: dict[str, str], sight: Sight,
                    by_dst: dict[str, Estimate],
                    gains: list[tuple[bool, bool]]) -> Callable[[str], Estimate | None]:
        """The greedy estimates of one move decision, worked out only when a bot asks (a
        replayed or random decision never does) and once per destination (`by_dst`, which
        the maneuver keeps while they hold; `gains` holds gains(seat) once asked); `dst_of`
        gives each move label's destination."""

        def worth(label: str) -> Estimate | None:
            dst = dst_of.get(label)
            if dst is None:
                return NOTHING if label == STOP else None
            est = by_dst.get(dst)
            if est is None:
                if not gains:
                    gains.append(self.gains(seat, sight))
                est = by_dst[dst] = self.move_worth(seat, dst, gains[0], sight)
            return est

        return worth

    def move_worth(self, seat: int, dst: str, gains: tuple[bool, bool] | None = None,
                   sight: Sight | None = None) -> Estimate:
        """What the greedy bot expects from moving a unit to `dst` (a bot's estimate)."""
        if sight is None:
            sight = Sight(board_of(self.state), seat)
        site = self.r.site[dst]
        owner = sight.owner.get(dst)
        if site and owner is None and dst not in self.neutral():
            return Estimate({"power": 3.0 * self.gain(seat, dst, gains, sight)})
        mine = sight.own.get(dst)
        here = 0 if mine is None else mine[0] + mine[1]
        if site and owner != seat:
            short = self.seen_defence(dst, sight) - here - 1
            return Estimate({"power": self.gain(seat, dst, gains, sight) * (
                3.5 if short <= 0 else 1.0 / (1 + short))})
        owners = sight.owner
        near = any(owners.get(m) != seat for m in self.r.site_neighbours[dst])
        return NEAR if near and not here else IDLE

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

    def conquests(self, seat: int, own: dict[str, tuple[int, int]] | None = None) -> None:
        """Every city the seat's units overcome is conquered; every empty site with its units
        is founded while it can pay and has city markers. `own` is the seat's units by node
        (Sight.own) when the caller has them (a conquest routs only the loser's units)."""
        limit = self.r.map.pieces["city"].per_player
        if own is None:
            own = Sight(board_of(self.state), seat).own
        for node in self.r.city_sites:
            held = own.get(node)
            if held is None:
                continue
            mine = held[0] + held[1]
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
