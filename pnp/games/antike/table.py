"""What every part of a game of Antike shares: the state it plays on, the context it plays
through, and the small questions every action asks (whose city is this, what does a nation
hold, how does it pay)."""

from __future__ import annotations

from pnp.engine.api import Context, State, board_of

from .rules import RESOURCES, UNITS, Rules

LEGION, GALLEY = UNITS


class Sight:
    """The map as one seat sees it for one decision: its cities, the nodes holding its
    legions and galleys, the nodes holding another nation's units, whose city stands where
    and where the temples are. Read in one pass over the pieces (a greedy estimate asks many
    questions of one position); a move changes only the two nodes it joins, so a maneuver
    reads those two again (`look`) rather than the whole map.  `cities` and `city_pieces`
    are not kept up by `look`: a maneuver moves no city."""

    __slots__ = ("_enemy", "_frozen", "cities", "city_pieces", "own", "owner", "seat",
                 "temples")

    def __init__(self, board: dict, seat: int):
        self.seat = seat
        #: the seat's cities in board order (Table.cities) and its city pieces on the map
        #: (on_map(state, "city", seat))
        self.cities: list[str] = []
        self.city_pieces = 0
        #: node -> (legions, galleys) of the seat, for nodes holding either
        self.own: dict[str, tuple[int, int]] = {}
        #: node -> the seat whose city stands there (Table.city_owner)
        self.owner: dict[str, int] = {}
        #: nodes with a temple (Table.has_temple)
        self.temples: set[str] = set()
        self._enemy: set[str] = set()
        self._frozen: frozenset[str] | None = None
        # _see's reading of every node, inlined: a greedy game reads the map thousands of times
        cities, owner, temples, own, enemy = self.cities, self.owner, self.temples, self.own, []
        pieces = 0
        for node, at in board.items():
            city = at.get("city")
            if city:
                n = city[seat]
                pieces += n
                if n > 0:
                    cities.append(node)
                most = max(city)
                if most:
                    owner[node] = city.index(most)
                temple = at.get("temple")
                if temple is not None and sum(temple) > 0:
                    temples.add(node)
            elif "temple" in at and sum(at["temple"]) > 0:
                temples.add(node)
            legions, galleys = at.get(LEGION), at.get(GALLEY)
            if legions is None:
                if galleys is None:
                    continue
                mine = (0, galleys[seat])
                others = sum(galleys) - mine[1]
            elif galleys is None:
                mine = (legions[seat], 0)
                others = sum(legions) - mine[0]
            else:
                mine = (legions[seat], galleys[seat])
                others = sum(legions) + sum(galleys) - mine[0] - mine[1]
            if mine[0] > 0 or mine[1] > 0:
                own[node] = mine
            if others > 0:
                enemy.append(node)
        self.city_pieces = pieces
        self._enemy.update(enemy)

    def _see(self, node: str, at: dict) -> None:
        city = at.get("city")
        if city:
            most = max(city)
            if most:
                self.owner[node] = city.index(most)
        temple = at.get("temple")
        if temple is not None and sum(temple) > 0:
            self.temples.add(node)
        legions, galleys = at.get(LEGION), at.get(GALLEY)
        if legions is None and galleys is None:
            return
        seat = self.seat
        mine = (0 if legions is None else legions[seat], 0 if galleys is None else galleys[seat])
        if mine[0] > 0 or mine[1] > 0:
            self.own[node] = mine
        if ((0 if legions is None else sum(legions)) + (0 if galleys is None else sum(galleys))
                - mine[0] - mine[1] > 0):
            self._enemy.add(node)

    def look(self, board: dict, node: str) -> None:
        """Read one node again, after pieces moved onto or off it."""
        self.own.pop(node, None)
        self.owner.pop(node, None)
        self.temples.discard(node)
        if node in self._enemy:
            self._enemy.discard(node)
            self._frozen = None
        at = board.get(node)
        if at is not None:
            had = len(self._enemy)
            self._see(node, at)
            if len(self._enemy) != had:
                self._frozen = None

    @property
    def enemy(self) -> frozenset[str]:
        """Nodes holding another nation's units (a frozenset: it keys the destinations memo,
        and is made again only when it changes)."""
        if self._frozen is None:
            self._frozen = frozenset(self._enemy)
        return self._frozen


def any_unit(counters: dict[str, int]) -> str:
    """Which unit a payment in any resource takes next: the resource held most (the first of
    the rules' order on a tie), coins once no resource is left."""
    best = max(RESOURCES, key=lambda x: (counters[x], -RESOURCES.index(x)))
    return best if counters[best] > 0 else "coins"


class Table:
    """One game of Antike being played (or set up): rules, context and state."""

    def __init__(self, r: Rules, ctx: Context | None, state: State):
        self.r = r
        self.ctx = ctx
        self.state = state
        #: the map as the last rondel decision read it, for the wedge's action (Actions)
        self._rondel_sight: Sight | None = None
        #: seat -> (ctx.map_changes, Sight): a read of the map kept while no piece moves
        self._sights: dict[int, tuple[int, Sight]] = {}
        #: (ctx.map_changes, Personages.holdings()) kept the same way
        self._holdings: tuple[int, list[tuple[int, int, int]]] | None = None
        #: (know-hows with a first owner, first know-hows per seat): owners only ever added
        self._firsts: tuple[int, list[int]] | None = None
        #: seat -> what its awards read when it was last owed nothing (Personages.award)
        self._settled: dict[int, tuple] = {}

    def sight(self, seat: int) -> Sight:
        """The map as the seat sees it now: read again only after a piece moved (pieces
        change only through the context's map operations, which count every change)."""
        if self.ctx is None:
            return Sight(board_of(self.state), seat)
        now = self.ctx.map_changes
        kept = self._sights.get(seat)
        if kept is None or kept[0] != now:
            kept = self._sights[seat] = (now, Sight(board_of(self.state), seat))
        return kept[1]

    # ------------------------------------------------------------------ reading the map
    # Each question reads the pieces (board_of) straight away: they are asked hundreds of
    # thousands of times a game, and a call per piece kind was most of their cost.
    def cities(self, seat: int) -> list[str]:
        """The seat's cities, in the order the board first used their nodes."""
        return [n for n, at in board_of(self.state).items()
                if "city" in at and at["city"][seat] > 0]

    def city_owner(self, node: str) -> int | None:
        at = board_of(self.state).get(node)
        row = None if at is None else at.get("city")
        if not row:
            return None
        most = max(row)
        return None if most == 0 else row.index(most)

    def has_temple(self, node: str) -> bool:
        at = board_of(self.state).get(node)
        row = None if at is None else at.get("temple")
        return row is not None and sum(row) > 0

    def temples(self, seat: int) -> list[str]:
        return [n for n in self.cities(seat) if self.has_temple(n)]

    def units(self, node: str, seat: int) -> int:
        at = board_of(self.state).get(node)
        if at is None:
            return 0
        legions, galleys = at.get(LEGION), at.get(GALLEY)
        return ((0 if legions is None else legions[seat])
                + (0 if galleys is None else galleys[seat]))

    def enemy_units(self, node: str, seat: int) -> int:
        at = board_of(self.state).get(node)
        if at is None:
            return 0
        legions, galleys = at.get(LEGION), at.get(GALLEY)
        return ((0 if legions is None else sum(legions) - legions[seat])
                + (0 if galleys is None else sum(galleys) - galleys[seat]))

    def neutral(self) -> list[str]:
        return self.state.vars.get("neutral", [])

    def seas_held(self, seat: int) -> int:
        board = board_of(self.state)
        held = 0
        for s in self.r.seas:
            at = board.get(s)
            if at is not None and GALLEY in at and at[GALLEY][seat] > 0:
                held += 1
        return held

    def knows(self, seat: int, know_how: str) -> bool:
        return know_how in self.state.players[seat].vars["know_hows"]

    def defence(self, node: str) -> int:
        """A city's defence strength: 1, or 3 with a temple; plus 1 for its owner's Monarchy;
        plus each unit of its owner in the province (the Corniclanum example: 3 + 2 + 1)."""
        return self.defence_of(node, self.city_owner(node), self.has_temple(node))

    def defence_of(self, node: str, owner: int | None, temple: bool) -> int:
        """`defence` of a node whose city owner and temple the caller has read already."""
        d = self.r.defence
        strength = d["temple"] if temple else d["city"]
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

    def can_pay_all(self, seat: int, prices: dict[str, int],
                    counters: dict[str, int] | None = None) -> bool:
        """Whether coins cover every resource short of these prices (from `counters` when
        given: what the seat will hold, see after_paying)."""
        c = self.state.players[seat].counters if counters is None else counters
        return sum(max(0, n - c[r]) for r, n in prices.items()) <= c["coins"]

    def pay(self, seat: int, resource: str | None, amount: int) -> None:
        """Pay `amount` units of `resource` to the bank (None: any resource, the most held
        first), coins making up what is short."""
        c = self.state.players[seat].counters
        supply = self.state.supply
        for _ in range(amount):
            if resource is None:
                kind = any_unit(c)
            else:
                kind = resource if c[resource] > 0 else "coins"
            if c[kind] <= 0:
                raise ValueError(f"seat {seat} cannot pay {amount} {resource or 'units'}")
            c[kind] -= 1
            supply[kind] += 1

    def after_paying(self, seat: int, amount: int) -> dict[str, int]:
        """The seat's counters once it has paid `amount` units of any resource, taken as
        `pay` takes them: what a wedge's estimate may spend after the wedge's paid steps
        (counted before them, a nation that can found a city only before paying its step
        rates a maneuver it cannot use above every income, round after round)."""
        c = dict(self.state.players[seat].counters)
        for _ in range(amount):
            kind = any_unit(c)
            if c[kind] <= 0:
                break
            c[kind] -= 1
        return c

    def take(self, seat: int, resource: str, amount: int) -> int:
        """Take up to `amount` from the bank (a short bank pays what it has); returns it."""
        got = max(0, min(amount, self.state.supply[resource]))
        self.state.supply[resource] -= got
        self.state.players[seat].counters[resource] += got
        return got
