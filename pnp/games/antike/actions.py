"""The rondel and the actions of its wedges other than Maneuver: income (Marble, Iron, Gold),
Temple, Arming and Know-how. Every price and yield comes from the Rules."""

from __future__ import annotations

from collections.abc import Callable

from pnp.engine.api import Estimate, count, on_map

from .rules import RESOURCES
from .table import Sight, Table

STOP = "stop"


class Actions(Table):
    # ------------------------------------------------------------------ the rondel
    def rondel_turn(self, seat: int) -> str:
        """Move the seat's marker (paying for steps past the free ones); returns the wedge."""
        p = self.state.players[seat]
        here = p.vars["rondel"]
        moves = self.r.rondel_moves(here, self.wealth(seat))
        labels = [m.id for m in moves]
        seen: list[Sight] = []
        pick = self.ctx.choose(seat, labels, "rondel", self.wedge_worths(seat, moves, seen))
        # the map the estimates read, if a bot asked for them: nothing moves before the
        # wedge's action, so a maneuver starts from it (rondel_sight)
        self._rondel_sight = seen[0] if seen else None
        move = moves[labels.index(pick)]
        if move.cost:
            self.pay(seat, None, move.cost)
            self.ctx.event("rondel-paid-steps", seat)
        p.vars["rondel"] = move.space
        self.ctx.result.space_counts[(self.r.rondel_track, move.id)] += 1
        self.ctx.event(f"wedge-{self.r.action[move.id]}", seat)
        return move.id

    def rondel_sight(self, seat: int) -> Sight | None:
        """The map as the seat's last rondel decision read it (None if no bot asked for
        estimates), handed over once: only the wedge's action that follows may use it."""
        sight, self._rondel_sight = self._rondel_sight, None
        return sight if sight is not None and sight.seat == seat else None

    def wedge_worths(self, seat: int, moves: list,
                     seen: list[Sight] | None = None) -> Callable[[str], Estimate | None]:
        """The greedy estimates of one rondel decision, worked out only when a bot asks (a
        replayed or random decision never does), each wedge once, all from one read of the
        map (a Sight, left in `seen`); Maneuver wedges of the same cost share one look at
        the targets."""
        cost = {m.id: m.cost for m in moves}
        done: dict[str, Estimate] = {}
        seen = [] if seen is None else seen
        aims: dict[int, float] = {}

        def targets(paid: int, counters: dict[str, int]) -> float:
            if paid not in aims:
                aims[paid] = self.targets(seat, seen[0], counters)
            return aims[paid]

        def worth(wedge: str) -> Estimate | None:
            est = done.get(wedge)
            if est is None:
                if wedge not in cost:
                    return None
                if not seen:
                    seen.append(self.sight(seat))
                est = done[wedge] = self.wedge_worth(seat, wedge, cost[wedge], targets, seen[0])
            return est

        return worth

    def wedge_worth(self, seat: int, wedge: str, cost: int,
                    targets: Callable[[int, dict[str, int]], float] | None = None,
                    sight: Sight | None = None) -> Estimate:
        """What the greedy bot expects from a wedge (a bot's estimate, not a rule), spending
        only what the nation holds once the wedge's paid steps are paid; `targets(cost,
        counters)` gives the seat's targets and `sight` the map when the caller keeps them."""
        action = self.r.action[wedge]
        out = Estimate()
        # what is left to spend (income needs none of it: the wedge pays, it does not buy)
        c = self.after_paying(seat, cost) if action not in RESOURCES else {}
        if action in RESOURCES:
            out[action] = float(min(self.income_of(seat, action, sight),
                                    self.state.supply[action]))
            if self.knows(seat, "currency"):
                out["coins"] = float(self.r.currency_coins)
        elif action == "temple":
            if sight is None:
                n = len(self.temple_sites(seat))
            else:
                n = sum(1 for city in sight.cities if city not in sight.temples)
            afford = (c["marble"] + c["coins"]) // self.r.temple_price
            out["power"] = 4.0 * min(n, afford)
        elif action == "know-how":
            out["power"] = 8.0 if self.buyable(seat, c) else 0.0
        elif action == "arming":
            out["power"] = 1.2 * min(4, c["iron"] + c["coins"])
        else:
            aim = self.targets(seat, sight, c) if targets is None else targets(cost, c)
            out["power"] = 2.0 * aim
        out["power"] = out.get("power", 0.0) - 2.0 * cost
        return out

    # ------------------------------------------------------------------ income
    def income_of(self, seat: int, resource: str, sight: Sight | None = None) -> int:
        """1 a city of the resource, 3 with a temple; Market adds its units. `sight` is the
        map when the caller has read it already."""
        site, pay = self.r.site, self.r.income
        if sight is None:
            total = sum(pay["temple"] if self.has_temple(n) else pay["city"]
                        for n in self.cities(seat) if site[n] == resource)
        else:
            temples = sight.temples
            total = sum(pay["temple"] if n in temples else pay["city"]
                        for n in sight.cities if site[n] == resource)
        if self.knows(seat, "market"):
            total += self.r.market_units
        return total

    def income(self, seat: int, resource: str) -> None:
        owed = self.income_of(seat, resource)
        got = self.take(seat, resource, owed)
        if got < owed:
            self.ctx.event(f"bank-short-{resource}", seat)
        if self.knows(seat, "currency"):
            self.take(seat, "coins", self.r.currency_coins)

    # ------------------------------------------------------------------ temple
    def temple_sites(self, seat: int) -> list[str]:
        """The seat's cities without a temple, richest site first (gold, iron, marble)."""
        order = {"gold": 0, "iron": 1, "marble": 2}
        free = [n for n in self.cities(seat) if not self.has_temple(n)]
        return sorted(free, key=lambda n: (order.get(self.r.map.nodes[n].site or "", 3),
                                           self.r.city_sites.index(n)))

    def temple(self, seat: int) -> None:
        """As many temples as the nation can pay for, while the box has them."""
        stock = self.r.map.pieces["temple"].stock
        for node in self.temple_sites(seat):
            placed = sum(count(self.state, n, "temple") for n in self.r.city_sites)
            if stock is not None and placed >= stock:
                self.ctx.event("temples-ran-out", seat)
                break
            if not self.can_pay(seat, "marble", self.r.temple_price):
                break
            self.pay(seat, "marble", self.r.temple_price)
            self.ctx.place("temple", node, seat, "temple")

    # ------------------------------------------------------------------ arming
    def unit_price(self, seat: int, unit: str) -> int:
        price = self.r.arming[unit]
        if self.knows(seat, "democracy"):
            price = max(0, price - self.r.democracy_discount)
        return price

    def arming(self, seat: int) -> None:
        """New legions in the seat's cities and galleys in its coastal cities, one decision a
        unit, until it stops or cannot pay."""
        out_of: set[str] = set()  # kinds of unit the nation has none left of (reported once)
        cities = self.cities(seat)  # arming places units, never cities
        while True:
            options: list[str] = []
            worth: dict[str, Estimate] = {}
            for unit in ("legion", "galley"):
                limit = self.r.map.pieces[unit].per_player
                if limit is not None and on_map(self.state, unit, seat) >= limit:
                    if unit not in out_of:  # component sufficiency: the box's units ran out
                        out_of.add(unit)
                        self.ctx.event(f"{unit}s-ran-out", seat)
                    continue
                price = self.unit_price(seat, unit)
                if not self.can_pay(seat, "iron", price):
                    continue
                est = Estimate({"iron": -float(price), "power": 1.5})  # one for every city
                for node in cities:
                    if unit == "galley" and node not in self.r.coastal:
                        continue
                    label = f"{unit}@{node}"
                    options.append(label)
                    worth[label] = est
            if not options:
                return
            options.append(STOP)
            worth[STOP] = Estimate()
            pick = self.ctx.choose(seat, options, "arming", worth.get)
            if pick == STOP:
                return
            unit, node = pick.split("@")
            self.pay(seat, "iron", self.unit_price(seat, unit))
            self.ctx.place(unit, node, seat, "arming")
            self.ctx.event(f"armed-{unit}", seat)

    # ------------------------------------------------------------------ know-how
    def buyable(self, seat: int, counters: dict[str, int] | None = None) -> list[str]:
        """Know-hows the seat does not have, whose basic one it has, that it can pay for
        (with `counters` when given: what it will hold, see after_paying)."""
        c = self.state.players[seat].counters if counters is None else counters
        out = []
        for k, f in self.r.know_hows.items():
            if self.knows(seat, k) or (f["needs"] and not self.knows(seat, f["needs"])):
                continue
            if c["gold"] + c["coins"] >= f["price"]:
                out.append(k)
        return out

    def know_how_power(self, know_how: str) -> float:
        """The greedy bot's worth of a know-how: its price back, more when it wins a scholar."""
        bonus = 6.0 if know_how not in self.state.vars["first"] else 2.0
        return float(self.r.know_hows[know_how]["price"]) + bonus

    def know_how(self, seat: int) -> None:
        """Buy know-hows with gold, one decision each, until it stops or cannot pay."""
        first = self.state.vars["first"]
        while True:
            options = self.buyable(seat)
            if not options:
                return
            worth = {k: Estimate({"gold": -float(self.r.know_hows[k]["price"]),
                                  "power": self.know_how_power(k)}) for k in options}
            options = [*options, STOP]
            worth[STOP] = Estimate()
            pick = self.ctx.choose(seat, options, "know-how", worth.get)
            if pick == STOP:
                return
            self.pay(seat, "gold", self.r.know_hows[pick]["price"])
            self.state.players[seat].vars["know_hows"].append(pick)
            first.setdefault(pick, seat)
            self.ctx.cover("know-how", pick)
            self.ctx.event("know-how", seat)
