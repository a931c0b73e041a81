"""What every part of a game of Antike shares: the state it plays on, the context it plays
through, and the small questions every action asks (whose city is this, what does a nation
hold, how does it pay)."""

from __future__ import annotations

from pnp.engine.api import Context, State, count, nodes_with, owner_at

from .rules import RESOURCES, UNITS, Rules


class Table:
    """One game of Antike being played (or set up): rules, context and state."""

    def __init__(self, r: Rules, ctx: Context | None, state: State):
        self.r = r
        self.ctx = ctx
        self.state = state

    # ------------------------------------------------------------------ reading the map
    def cities(self, seat: int) -> list[str]:
        return nodes_with(self.state, "city", seat)

    def city_owner(self, node: str) -> int | None:
        return owner_at(self.state, node, "city")

    def has_temple(self, node: str) -> bool:
        return count(self.state, node, "temple") > 0

    def temples(self, seat: int) -> list[str]:
        return [n for n in self.cities(seat) if self.has_temple(n)]

    def units(self, node: str, seat: int) -> int:
        return sum(count(self.state, node, u, seat) for u in UNITS)

    def enemy_units(self, node: str, seat: int) -> int:
        return sum(count(self.state, node, u) for u in UNITS) - self.units(node, seat)

    def neutral(self) -> list[str]:
        return self.state.vars.get("neutral", [])

    def seas_held(self, seat: int) -> int:
        return sum(1 for s in self.r.seas if count(self.state, s, "galley", seat) > 0)

    def knows(self, seat: int, know_how: str) -> bool:
        return know_how in self.state.players[seat].vars["know_hows"]

    def defence(self, node: str) -> int:
        """A city's defence strength: 1, or 3 with a temple; plus 1 for its owner's Monarchy;
        plus each unit of its owner in the province (the Corniclanum example: 3 + 2 + 1)."""
        d = self.r.defence
        owner = self.city_owner(node)
        strength = d["temple"] if self.has_temple(node) else d["city"]
        if owner is None:
            return strength  # a neutral city
        if self.knows(owner, "monarchy"):
            strength += d["monarchy"]
        return strength + d["unit"] * self.units(node, owner)

    # ------------------------------------------------------------------ paying and taking
    def wealth(self, seat: int) -> int:
        """Units a nation could pay with: its resources and its coins (coins are wild)."""
        c = self.state.players[seat].counters
        return sum(c[r] for r in RESOURCES) + c["coins"]

    def can_pay(self, seat: int, resource: str, amount: int) -> bool:
        c = self.state.players[seat].counters
        return c[resource] + c["coins"] >= amount

    def can_pay_all(self, seat: int, prices: dict[str, int]) -> bool:
        """Whether coins cover every resource short of these prices."""
        c = self.state.players[seat].counters
        return sum(max(0, n - c[r]) for r, n in prices.items()) <= c["coins"]

    def pay(self, seat: int, resource: str | None, amount: int) -> None:
        """Pay `amount` units of `resource` to the bank (None: any resource, the most held
        first), coins making up what is short."""
        c = self.state.players[seat].counters
        supply = self.state.supply
        for _ in range(amount):
            if resource is None:
                best = max(RESOURCES, key=lambda x: (c[x], -RESOURCES.index(x)))
                kind = best if c[best] > 0 else "coins"
            else:
                kind = resource if c[resource] > 0 else "coins"
            if c[kind] <= 0:
                raise ValueError(f"seat {seat} cannot pay {amount} {resource or 'units'}")
            c[kind] -= 1
            supply[kind] += 1

    def take(self, seat: int, resource: str, amount: int) -> int:
        """Take up to `amount` from the bank (a short bank pays what it has); returns it."""
        got = max(0, min(amount, self.state.supply[resource]))
        self.state.supply[resource] -= got
        self.state.players[seat].counters[resource] += got
        return got
