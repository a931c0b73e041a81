"""components.yaml `map:`: a board that is a graph, built into `GameMap` with every bad
reference reported where it is written.

A map is nodes (provinces, seas, city sites) joined by edges, and the pieces that stand on
them with their limits. A schema can say that an edge is a pair of ids; only this pass can say
that both ids name nodes, that a setup puts a piece on a node it may stand on, and that no
side starts with more pieces than the box holds. Codes PNP-G001..G009 (docs/components.md).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from pnp.data import model as m
from pnp.data.loader import Document
from pnp.diagnostics import ERROR, WARNING, Diagnostic, Position

G_DUPLICATE = "PNP-G001"  # two nodes (kinds, resources, pieces) with one id
G_NO_NODE = "PNP-G002"  # an edge or a setup names a node the map does not have
G_NO_REF = "PNP-G003"  # a node kind, a site's resource, a setup's piece that does not exist
G_BAD_EDGE = "PNP-G004"  # an edge from a node to itself, or the same edge twice
G_OUTSIDE = "PNP-G005"  # a node placed outside the map's width and height
G_NOT_HERE = "PNP-G006"  # a setup puts a piece on a node it may not stand on
G_LIMIT = "PNP-G007"  # a setup needs more pieces than a limit allows
G_ISLAND = "PNP-G008"  # warning: a node no edge reaches
G_TWO_MAPS = "PNP-G009"  # more than one components file has a map

#: the printed map's width when `print_width` is not given: across an A2 sheet's long side
DEFAULT_PRINT_WIDTH_MM = 560.0
_UNIT_PT = {"mm": 72 / 25.4, "cm": 720 / 25.4, "in": 72.0, "pt": 1.0}
_LENGTH = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*(mm|cm|in|pt)\s*$")


def length_pt(text: str | None, default_mm: float) -> float:
    """A length as the schema writes it ('560mm') in points; the default when absent."""
    match = _LENGTH.match(text or "")
    if not match:
        return default_mm * _UNIT_PT["mm"]
    return float(match[1]) * _UNIT_PT[match[2]]


def _close(word: str, known: Iterable[str]) -> str:
    hit = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return f"did you mean '{hit[0]}'?" if hit else ""


class MapBuilder:
    """Builds the game's map (or None) from the components documents, collecting diagnostics."""

    def __init__(self, docs: list[Document]):
        self.docs = [d for d in docs if isinstance(d.data, dict) and "map" in d.data]
        self.diags: list[Diagnostic] = []

    def error(self, pos: Position, code: str, message: str, hint: str,
              severity: str = ERROR) -> None:
        self.diags.append(Diagnostic.at(pos, severity, code, message, hint))

    def build(self) -> m.GameMap | None:
        if not self.docs:
            return None
        for extra in self.docs[1:]:
            self.error(extra.pos(("map",)), G_TWO_MAPS, "a second map: a game has one",
                       f"the first is in {self.docs[0].path.name}; put every node of the "
                       "board in that one map")
        doc = self.docs[0]
        data = doc.data["map"]
        if not isinstance(data, dict):
            return None  # the schema reports the shape
        pos = doc.pos
        kinds = self._unique(doc, data, "kinds", "node kind", lambda p, k: m.MapKind(
            k["id"], k["name"], k.get("terrain", "land"), k.get("colour", ""), pos(p)))
        resources = self._unique(doc, data, "resources", "resource", lambda p, r: m.MapResource(
            r["id"], r["name"], r.get("colour", ""), pos(p)))
        width, height = float(data["width"]), float(data["height"])
        nodes = self._unique(doc, data, "nodes", "node",
                             lambda p, n: self._node(doc, p, n, kinds, resources, width, height))
        pieces = self._unique(doc, data, "pieces", "piece",
                              lambda p, c: self._piece(doc, p, c, kinds))
        edges = self._edges(doc, data, nodes)
        self._islands(nodes, edges)
        setup = self._setup(doc, data, nodes, pieces)
        return m.GameMap(
            data["id"], data["name"], width, height, kinds, nodes, tuple(edges), pieces,
            resources, tuple(setup), length_pt(data.get("print_width"), DEFAULT_PRINT_WIDTH_MM),
            data.get("whole_paper"), pos(("map",)),
            pos(("map", next((k for k in ("whole_paper", "print_width") if k in data), "id"))))

    # ------------------------------------------------------------------ parts
    def _unique(self, doc: Document, data: dict, key: str, what: str,
                make: Callable[[tuple, dict], Any]) -> dict[str, Any]:
        """Items of list `key` by id; a repeated id is G001 at the repeat."""
        out: dict[str, Any] = {}
        first: dict[str, Position] = {}
        for i, item in enumerate(data.get(key) or []):
            if not isinstance(item, dict) or not isinstance(item.get("id"), str):
                continue
            path = ("map", key, i)
            ident = item["id"]
            if ident in first:
                where = first[ident]
                self.error(doc.pos(path + ("id",)), G_DUPLICATE, f"duplicate {what} id '{ident}'",
                           f"first defined at {Path(where.file).name}:{where.line}; each {what} "
                           "needs its own id")
                continue
            first[ident] = doc.pos(path)
            built = make(path, item)
            if built is not None:
                out[ident] = built
        return out

    def _node(self, doc: Document, path: tuple, n: dict, kinds: dict, resources: dict,
              width: float, height: float) -> m.MapNode | None:
        ok = True
        if n["kind"] not in kinds:
            self.error(doc.pos(path + ("kind",)), G_NO_REF, f"node '{n['id']}' is of unknown "
                       f"kind '{n['kind']}'", _close(n["kind"], kinds) or
                       f"the map's kinds: {', '.join(kinds) or '(none)'}")
            ok = False
        site = n.get("site")
        if site is not None and site not in resources:
            self.error(doc.pos(path + ("site",)), G_NO_REF, f"node '{n['id']}' has a site of "
                       f"unknown resource '{site}'", _close(site, resources) or
                       f"the map's resources: {', '.join(resources) or '(none)'}")
            ok = False
        x, y = float(n["at"][0]), float(n["at"][1])
        if not (0 <= x <= width and 0 <= y <= height):
            self.error(doc.pos(path + ("at",)), G_OUTSIDE, f"node '{n['id']}' at {x:g},{y:g} "
                       f"lies outside the map ({width:g} × {height:g})",
                       "positions run from 0,0 at the top-left to width,height")
            ok = False
        if not ok:
            return None
        return m.MapNode(n["id"], n["name"], n["kind"], (x, y), site, n.get("note", ""),
                         doc.pos(path))

    def _piece(self, doc: Document, path: tuple, c: dict, kinds: dict) -> m.MapPiece:
        for i, kind in enumerate(c["on"]):
            if kind not in kinds:
                self.error(doc.pos(path + ("on", i)), G_NO_REF, f"piece '{c['id']}' may stand "
                           f"on unknown node kind '{kind}'", _close(kind, kinds) or
                           f"the map's kinds: {', '.join(kinds) or '(none)'}")
        return m.MapPiece(c["id"], c["name"], tuple(k for k in c["on"] if k in kinds),
                          c.get("per_player"), c.get("stock"), c.get("per_node"),
                          bool(c.get("needs_site", False)), c.get("note", ""), doc.pos(path))

    def _node_ref(self, doc: Document, path: tuple, ident: str, nodes: dict, what: str) -> bool:
        if ident in nodes:
            return True
        self.error(doc.pos(path), G_NO_NODE, f"{what} names node '{ident}', which the map does "
                   "not have", _close(ident, nodes) or "add the node, or name one of the map's")
        return False

    def _edges(self, doc: Document, data: dict, nodes: dict) -> list[m.MapEdge]:
        out: list[m.MapEdge] = []
        seen: dict[frozenset, Position] = {}
        for i, e in enumerate(data.get("edges") or []):
            path = ("map", "edges", i)
            a, b = e["between"]
            ok_a = self._node_ref(doc, path + ("between", 0), a, nodes, "an edge")
            ok_b = self._node_ref(doc, path + ("between", 1), b, nodes, "an edge")
            if not (ok_a and ok_b):
                continue
            if a == b:
                self.error(doc.pos(path), G_BAD_EDGE, f"an edge joins '{a}' to itself",
                           "an edge joins two different nodes")
                continue
            key = frozenset((a, b))
            if key in seen:
                self.error(doc.pos(path), G_BAD_EDGE, f"the edge {a}–{b} is given twice",
                           f"first at line {seen[key].line}; an edge is crossed both ways, so "
                           "give it once")
                continue
            seen[key] = doc.pos(path)
            out.append(m.MapEdge(a, b, e.get("kind", ""), doc.pos(path)))
        return out

    def _islands(self, nodes: dict, edges: list[m.MapEdge]) -> None:
        joined = {e.a for e in edges} | {e.b for e in edges}
        for node in nodes.values():
            if node.id not in joined and len(nodes) > 1:
                self.error(node.origin, G_ISLAND, f"node '{node.id}' has no edge: no piece can "
                           "move to or from it", "add an edge, or mean it as an island",
                           WARNING)

    def _setup(self, doc: Document, data: dict, nodes: dict, pieces: dict) -> list[m.MapSetup]:
        out: list[m.MapSetup] = []
        mine: dict[tuple[str, str], int] = {}  # (side, piece) -> pieces placed
        total: dict[str, int] = {}
        here: dict[tuple[str, str], int] = {}  # (node, piece) -> pieces placed
        for i, s in enumerate(data.get("setup") or []):
            path = ("map", "setup", i)
            piece = pieces.get(s["piece"])
            if piece is None:
                self.error(doc.pos(path + ("piece",)), G_NO_REF, f"setup places unknown piece "
                           f"'{s['piece']}'", _close(s["piece"], pieces) or
                           f"the map's pieces: {', '.join(pieces) or '(none)'}")
                continue
            count = int(s.get("count", 1))
            good = []
            for j, ident in enumerate(s["nodes"]):
                at = path + ("nodes", j)
                if not self._node_ref(doc, at, ident, nodes, f"the setup of '{s['side']}'"):
                    continue
                node = nodes[ident]
                why = standing_problem(piece, node)
                if why:
                    self.error(doc.pos(at), G_NOT_HERE, f"{piece.name} of '{s['side']}' cannot "
                               f"start on '{ident}': {why}", "place it on a node it may stand on")
                    continue
                here[(ident, piece.id)] = here.get((ident, piece.id), 0) + count
                if piece.per_node is not None and here[(ident, piece.id)] > piece.per_node:
                    self.error(doc.pos(at), G_LIMIT, f"'{ident}' starts with "
                               f"{here[(ident, piece.id)]} {piece.name}, above its "
                               f"{piece.per_node} a node", "place fewer there")
                good.append(ident)
                mine[(s["side"], piece.id)] = mine.get((s["side"], piece.id), 0) + count
                total[piece.id] = total.get(piece.id, 0) + count
            n = mine.get((s["side"], piece.id), 0)
            if piece.per_player is not None and n > piece.per_player:
                self.error(doc.pos(path), G_LIMIT, f"'{s['side']}' starts with {n} {piece.name}, "
                           f"more than the {piece.per_player} each player has",
                           "place fewer, or raise per_player")
            out.append(m.MapSetup(s["side"], piece.id, tuple(good), count, doc.pos(path)))
        for pid, n in total.items():
            stock = pieces[pid].stock
            if stock is not None and n > stock:
                self.error(pieces[pid].origin, G_LIMIT, f"the setups place {n} "
                           f"{pieces[pid].name} in all, more than the {stock} in the box",
                           "raise stock, or place fewer")
        return out


def standing_problem(piece: m.MapPiece, node: m.MapNode) -> str:
    """Why `piece` may not stand on `node` ('' when it may): shared by the data check and the
    engine's invariants."""
    if node.kind not in piece.on:
        return f"a {piece.name} stands only on {', '.join(piece.on) or 'no kind'}, not on " \
               f"{node.kind}"
    if piece.needs_site and node.site is None:
        return f"a {piece.name} needs a site and '{node.id}' has none"
    return ""
