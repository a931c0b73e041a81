"""A board that is a graph (TAG's GraphBoard): queries on the map, logged piece moves, and the
invariants every state with a map must keep.

The map itself is data (components.yaml `map:`, built and checked in pnp/data/maps.py). Three
parts use it here:

- `MapRules` (one per GameDef, `map_rules(game)`): adjacency, paths and reach, read-only and
  deterministic (neighbours in the order the data gives the edges), so a rules module and a
  bot ask the same questions and get the same answers;
- `MapOps`, mixed into the Context like the zone operations: the one place a piece is placed,
  removed or moved, each writing a `piece` event when the game is logged and counting the node
  it arrives on for the coverage report;
- `check_map`: pieces only on nodes the map has, only on kinds of node they may stand on,
  never more of a piece than a player owns, the box holds or a node takes.

Pieces live in the state's shared vars under `map` (plain JSON, so copies, round trips and
replays need nothing new): `{node: {piece: [count of seat 0, count of seat 1, ...]}}`. A node
without pieces is left out.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Iterable
from typing import Any

from pnp.data.maps import standing_problem
from pnp.data.model import GameMap, MapNode, MapPiece
from pnp.engine.state import State
from pnp.memo import per_object

#: the shared var that holds the pieces on the map
MAP_VAR = "map"

#: coverage kind of a node a piece arrived on (GameResult.coverage[("node", id)])
NODE_COVERAGE = "node"


class MapError(ValueError):
    """A rules module asked for a piece operation that cannot be done (a bug in its rules)."""


class MapRules:
    """A GameMap compiled for play: adjacency by edge kind, standing rules, path queries."""

    def __init__(self, gmap: GameMap):
        self.map = gmap
        self.nodes: dict[str, MapNode] = dict(gmap.nodes)
        self.pieces: dict[str, MapPiece] = dict(gmap.pieces)
        adj: dict[str, list[tuple[str, str]]] = {n: [] for n in self.nodes}
        for e in gmap.edges:
            adj[e.a].append((e.b, e.kind))
            adj[e.b].append((e.a, e.kind))
        #: node -> ((neighbour, edge kind), ...) in data order
        self.adj: dict[str, tuple[tuple[str, str], ...]] = {n: tuple(v) for n, v in adj.items()}
        self._edge = {frozenset((e.a, e.b)): e.kind for e in gmap.edges}
        self._stand = {(p, n): not standing_problem(piece, node)
                       for p, piece in self.pieces.items() for n, node in self.nodes.items()}
        #: (piece, crossing) -> node -> the neighbours a path may step onto, before `blocked`
        self._ways: dict[tuple[str | None, frozenset[str] | None], dict[str, tuple[str, ...]]] = {}

    # ---------------------------------------------------------------- adjacency
    def neighbours(self, node: str, crossing: Collection[str] | None = None) -> tuple[str, ...]:
        """Nodes one edge from `node` (only across edges of the kinds in `crossing`)."""
        return tuple(n for n, k in self.adj[node] if crossing is None or k in crossing)

    def adjacent(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self._edge

    def edge_kind(self, a: str, b: str) -> str | None:
        """The kind of the edge a–b, None when they are not adjacent."""
        return self._edge.get(frozenset((a, b)))

    def may_stand(self, piece: str, node: str) -> bool:
        """Whether the piece may stand on the node (its kind, and a site where one is needed)."""
        return self._stand.get((piece, node), False)

    def sites(self, resource: str | None = None) -> list[str]:
        """Nodes with a site (of `resource`), in data order."""
        return [n for n, node in self.nodes.items()
                if node.site is not None and (resource is None or node.site == resource)]

    # ---------------------------------------------------------------- paths
    def _ways_for(self, piece: str | None,
                  crossing: Collection[str] | None) -> dict[str, tuple[str, ...]]:
        """node -> its neighbours across edges of the `crossing` kinds that `piece` may stand
        on, in data order: worked out once per (piece, crossing), since paths ask it for
        every step."""
        key = (piece, None if crossing is None else frozenset(crossing))
        ways = self._ways.get(key)
        if ways is None:
            ways = self._ways[key] = {
                node: tuple(n for n, kind in adj if (crossing is None or kind in crossing)
                            and (piece is None or self._stand.get((piece, n), False)))
                for node, adj in self.adj.items()}
        return ways

    def _steps(self, node: str, piece: str | None, crossing: Collection[str] | None,
               blocked: Collection[str]) -> Iterable[str]:
        for n in self._ways_for(piece, crossing)[node]:
            if n not in blocked:
                yield n

    def reach(self, src: str, steps: int | None = None, piece: str | None = None,
              crossing: Collection[str] | None = None, through: Collection[str] | None = None,
              blocked: Collection[str] = ()) -> dict[str, int]:
        """Every node within `steps` edges of `src` (all when None) -> its distance.

        A path goes only across edges of the kinds in `crossing`, onto nodes the `piece` may
        stand on, never onto a `blocked` node, and passes on only from nodes whose kind is in
        `through` (None: from any): a galley may end its move in a harbour without sailing
        across the land."""
        ways = self._ways_for(piece, crossing)
        nodes = self.nodes
        dist = {src: 0}
        queue = deque([src])
        pop, push = queue.popleft, queue.append
        while queue:
            node = pop()
            d = dist[node]
            if steps is not None and d >= steps:
                continue
            if d > 0 and through is not None and nodes[node].kind not in through:
                continue
            d += 1
            for n in ways[node]:
                if n not in dist and n not in blocked:
                    dist[n] = d
                    push(n)
        return dist

    def path(self, src: str, dst: str, piece: str | None = None,
             crossing: Collection[str] | None = None, through: Collection[str] | None = None,
             blocked: Collection[str] = ()) -> list[str] | None:
        """A shortest path src .. dst under the same limits as `reach` (the first found in
        data order, so always the same one), or None."""
        back: dict[str, str | None] = {src: None}
        queue = deque([src])
        while queue:
            node = queue.popleft()
            if node == dst:
                out = [node]
                while back[out[-1]] is not None:
                    out.append(back[out[-1]])  # type: ignore[arg-type]
                return out[::-1]
            if node != src and through is not None and self.nodes[node].kind not in through:
                continue
            for n in self._steps(node, piece, crossing, blocked):
                if n not in back:
                    back[n] = node
                    queue.append(n)
        return None

    def distance(self, src: str, dst: str, **limits: Any) -> int | None:
        """Edges on a shortest path (None: unreachable)."""
        found = self.path(src, dst, **limits)
        return None if found is None else len(found) - 1


@per_object
def map_rules(game: Any) -> MapRules:
    """The compiled map of a GameDef (built once per definition)."""
    if game.map is None:
        raise MapError(f"game '{game.id}' has no map (components.yaml `map:`)")
    return MapRules(game.map)


# --------------------------------------------------------------------------- the pieces


def pieces_of(state: State) -> dict[str, dict[str, list[int]]]:
    """node -> piece -> count per seat (created empty on first use)."""
    board = state.vars.get(MAP_VAR)
    if board is None:
        board = state.vars[MAP_VAR] = {}
    return board


def board_of(state: State) -> dict[str, dict[str, list[int]]]:
    """node -> piece -> count per seat, to read (an empty dict, not stored, when no piece was
    ever placed: unlike `pieces_of` it never adds the var). A rules module that asks many
    questions of one position reads it once rather than calling `count` per question."""
    return state.vars.get(MAP_VAR) or _NO_PIECES


_NO_PIECES: dict[str, dict[str, list[int]]] = {}


def count(state: State, node: str, piece: str, seat: int | None = None) -> int:
    """Pieces of a kind on a node: one seat's, or everybody's (seat None)."""
    board = state.vars.get(MAP_VAR)
    if not board:
        return 0
    at = board.get(node)
    if at is None:
        return 0
    row = at.get(piece)
    if row is None:
        return 0
    return sum(row) if seat is None else row[seat]


def on_map(state: State, piece: str, seat: int) -> int:
    """How many of a piece `seat` has on the map."""
    return sum(row[piece][seat] for row in (state.vars.get(MAP_VAR) or _NO_PIECES).values()
               if piece in row)


def nodes_with(state: State, piece: str, seat: int | None = None) -> list[str]:
    """Nodes holding the piece (of `seat`, or anybody's), in the order they were first used."""
    board = state.vars.get(MAP_VAR) or _NO_PIECES
    if seat is None:
        return [n for n, at in board.items() if piece in at and sum(at[piece]) > 0]
    return [n for n, at in board.items() if piece in at and at[piece][seat] > 0]


def owner_at(state: State, node: str, piece: str) -> int | None:
    """The seat with the most of the piece on the node (the lowest on a tie), None if none."""
    board = state.vars.get(MAP_VAR)
    if not board:
        return None
    at = board.get(node)
    row = None if at is None else at.get(piece)
    if not row:
        return None
    most = max(row)
    return None if most == 0 else row.index(most)


class MapOps:
    """The map operations of a Context (mixed into it): place, remove, move_piece. Each
    writes a `piece` event when the game is logged; arriving pieces count for the node's
    coverage."""

    state: State
    log: list | None
    #: piece operations done through this context so far: a rules module may keep what it
    #: read of the map for as long as this count stands (pieces change only through these)
    map_changes: int = 0

    def cover(self, kind: str, key: str) -> None:  # pragma: no cover - Context's
        raise NotImplementedError

    def _row(self, node: str, piece: str) -> list[int]:
        board = pieces_of(self.state)
        at = board.get(node)
        if at is None:
            at = board[node] = {}
        row = at.get(piece)
        if row is None:
            row = at[piece] = [0] * len(self.state.players)
        return row

    def _drop_empty(self, node: str, piece: str) -> None:
        at = pieces_of(self.state)[node]
        if not any(at[piece]):
            del at[piece]
        if not at:
            del pieces_of(self.state)[node]

    def _take(self, op: str, piece: str, node: str, seat: int, n: int, why: str) -> None:
        """Take `n` of seat's pieces off a node, or raise (the node's rows left tidy)."""
        row = self._row(node, piece)
        if n < 1 or row[seat] < n:
            self._drop_empty(node, piece)
            raise MapError(f"{op} {n} {piece} of seat {seat} from {node}: it holds "
                           f"{row[seat]} ({why})")
        self.map_changes += 1
        row[seat] -= n
        self._drop_empty(node, piece)

    def _logged(self, op: str, piece: str, seat: int, n: int, why: str, src: str | None,
                dst: str | None) -> None:
        if self.log is not None:
            self.log.append({"e": "piece", "op": op, "piece": piece, "seat": seat, "n": n,
                             "from": src, "to": dst, "why": why})

    def place(self, piece: str, node: str, seat: int, why: str, n: int = 1) -> None:
        """Put `n` of seat's pieces on a node (from the player's reserve or the box)."""
        if n < 1:
            raise MapError(f"place {n} {piece}: the count must be positive ({why})")
        self.map_changes += 1
        self._row(node, piece)[seat] += n
        self.cover(NODE_COVERAGE, node)
        self._logged("place", piece, seat, n, why, None, node)

    def remove(self, piece: str, node: str, seat: int, why: str, n: int = 1) -> None:
        """Take `n` of seat's pieces off a node (back to the reserve or the box)."""
        self._take("remove", piece, node, seat, n, why)
        self._logged("remove", piece, seat, n, why, node, None)

    def move_piece(self, piece: str, src: str, dst: str, seat: int, why: str,
                   n: int = 1) -> None:
        """Move `n` of seat's pieces from one node to another (the rules module checks the
        route with MapRules; this records where they went)."""
        self._take("move", piece, src, seat, n, why)
        self._row(dst, piece)[seat] += n
        self.cover(NODE_COVERAGE, dst)
        self._logged("move", piece, seat, n, why, src, dst)


# --------------------------------------------------------------------------- invariants


def check_map(state: State, rules: MapRules) -> list[str]:
    """The map's invariants: every piece on an existing node, of a known kind, on a node it
    may stand on, one count per seat and none negative; per player, per box and per node,
    never more than the limits (no piece is made out of nothing)."""
    out: list[str] = []
    board = state.vars.get(MAP_VAR)
    if not board:
        return out
    if not isinstance(board, dict):
        return ["the map's pieces are not a table of nodes"]
    seats = len(state.players)
    mine: dict[str, list[int]] = {}
    for node, at in board.items():
        if node not in rules.nodes:
            out.append("a piece stands on a node the map does not have")
            continue
        for piece, row in at.items():
            spec = rules.pieces.get(piece)
            if spec is None:
                out.append("a piece of a kind the map does not have is on the map")
                continue
            if not isinstance(row, list) or len(row) != seats:
                out.append("a node's piece count does not have one entry per seat")
                continue
            if min(row) < 0:
                out.append(f"a count of {spec.name} on a node is negative")
            if any(row) and not rules.may_stand(piece, node):
                out.append(f"a {spec.name} stands on a node it may not stand on")
            if spec.per_node is not None and sum(row) > spec.per_node:
                out.append(f"more than {spec.per_node} {spec.name} on one node")
            total = mine.setdefault(piece, [0] * seats)
            for i, v in enumerate(row):
                total[i] += v
    for piece, totals in mine.items():
        spec = rules.pieces[piece]
        if spec.per_player is not None and max(totals) > spec.per_player:
            out.append(f"a player has more {spec.name} on the map than the {spec.per_player} "
                       "they own")
        if spec.stock is not None and sum(totals) > spec.stock:
            out.append(f"more {spec.name} on the map than the box's {spec.stock}")
    return out
