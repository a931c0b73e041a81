"""Invariants every game state must satisfy, checked at step boundaries (OpenSpiel style).

The checks here hold for every game: counters within their bounds, supplies within their stock,
tokens conserved between a supply and the counters that hold them, every card in exactly one
zone and none lost or made, state that refers only to what the game has (seats, track spaces,
zones, cards), winners still in the game, copies that share nothing, JSON round trips that
change nothing, phases in order. A rules module adds its
own through its `invariants(game, state, label)` hook. Each check returns plain sentences; a
long run records them in GameResult.violations and never raises. Messages name the broken rule,
not the seat or turn, so the harness can count how many games broke the same way.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pnp.engine.core import OVER, PREGAME, CardInstance, Context, GameMeta, PlayerState, State
from pnp.engine.graph import check_map

MODES = ("all", "sample", "none")
#: in 'sample' mode one step in this many is checked in full (which ones depends on the seed)
SAMPLE_EVERY = 32
#: ... and one sampled step in this many also checks the JSON round trip
ROUNDTRIP_EVERY = 4
#: in 'sample' mode one game in this many is replayed from its log (chosen by the seed)
REPLAY_EVERY = 64

#: a module's own invariants: (state, label of the step just played) -> sentences
ModuleCheck = Callable[[State, str], list[str]]
#: a module's count of a supply's tokens held where no counter or card token shows them
Holdings = Callable[[State], Mapping[str, int]]


@dataclass
class World:
    """What exists in the game's data, and what must add up: the facts the checks that state
    refers only to real things need (a rules module cannot change them)."""

    #: track id -> the indexes of its spaces
    tracks: Mapping[str, frozenset[int]] = field(default_factory=dict)
    #: every card id a zone may hold (None: not checked)
    cards: frozenset[str] | None = None
    #: every zone name, shared or a player's, a card may be in (None: not checked)
    zones: frozenset[str] | None = None
    #: supply id -> (per-player counters, shared counters) that hold its tokens
    links: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = field(default_factory=dict)
    #: supply id -> what the supply and its holdings must always add up to
    totals: dict[str, int] = field(default_factory=dict)
    #: the module's count of tokens held elsewhere (on its board, in its vars)
    holdings: Holdings | None = None


def world_of(game: Any, state: State, from_stock: bool,
             holdings: Holdings | None = None) -> World:
    """The World of a game definition (a GameDef, or anything shaped like one) and the state
    it starts from. `from_stock` (or a state still in its pregame): the game starts fresh, so
    each linked supply and its holders must add up to the box's stock; otherwise (a scenario's
    state) to what they start with."""
    tracks = {t.id: frozenset(s.index for s in t.spaces)
              for t in (getattr(game, "tracks", None) or {}).values()}
    decks = getattr(game, "decks", None) or {}
    cards = {c.card for _, _, zone in state.all_zones() for c in zone}
    cards |= {card.id for d in decks.values() for card in d.cards}
    zones = {z for z in state.zones} | {z for p in state.players for z in p.zones}
    zones |= set(getattr(game, "zones", None) or {}) | set(decks)
    stock = {s.id: s.stock for s in (getattr(game, "supplies", None) or {}).values()}
    links: dict[str, tuple[list[str], list[str]]] = {}
    for c in (getattr(game, "counters", None) or {}).values():
        if getattr(c, "supply", None):
            links.setdefault(c.supply, ([], []))[0 if c.per_player else 1].append(c.id)
    for supply in (holdings(state) if holdings is not None else {}):
        if supply in stock:  # a supply only the module's own places hold (citizens on a board)
            links.setdefault(supply, ([], []))
    world = World(tracks, frozenset(cards), frozenset(zones),
                  {s: (tuple(mine), tuple(shared)) for s, (mine, shared) in links.items()},
                  holdings=holdings)
    start = held_tokens(state, world)
    # before setup, a module's counters may start with tokens its setup only then takes from
    # the supply, so a game from its pregame is held to the box's stock
    fresh = from_stock or state.stage == PREGAME
    world.totals = {s: stock[s] if fresh and s in stock else start[s] for s in world.links}
    return world


def held_tokens(state: State, world: World) -> dict[str, int]:
    """supply id -> tokens in the supply, on the counters linked to it, on cards (a card's
    tokens named like the supply) and wherever else the module says it keeps them."""
    out = {}
    elsewhere = world.holdings(state) if world.holdings is not None else {}
    for supply, (mine, shared) in world.links.items():
        n = state.supply.get(supply, 0) + elsewhere.get(supply, 0)
        n += sum(p.counters.get(c, 0) for p in state.players for c in mine)
        n += sum(state.counters.get(c, 0) for c in shared)
        n += sum(c.tokens.get(supply, 0) for _, _, cards in state.all_zones() for c in cards
                 if c.tokens)
        out[supply] = n
    return out


def check_conservation(state: State, world: World) -> list[str]:
    """Tokens are neither made nor lost: each linked supply plus everything holding its
    tokens adds up to the same total at every step."""
    held = held_tokens(state, world)
    out = []
    for supply, total in world.totals.items():
        if held[supply] != total:
            mine, shared = world.links[supply]
            holders = ", ".join(mine + shared) or "the places the rules module names"
            out.append(f"{supply} tokens were made or lost: the supply and what holds them "
                       f"({holders}) no longer add up")
    return out


def check_references(state: State, world: World) -> list[str]:
    """State refers only to what exists: winners are seats of this game, pawns stand on
    spaces of their own tracks, cards are the game's cards in the game's zones."""
    out = []
    if any(not isinstance(w, int) or not 0 <= w < len(state.players) for w in state.winners):
        out.append("a winner is not a seat of this game")
    if world.tracks or any(p.pos for p in state.players):
        for p in state.players:
            for track, space in p.pos.items():
                spaces = world.tracks.get(track)
                if spaces is None:
                    out.append("a pawn stands on a track the game does not have")
                elif space not in spaces:
                    out.append("a pawn stands off its track (on a space the track does not have)")
    if world.zones is not None:
        names = set(state.zones).union(*(p.zones for p in state.players))
        if not names <= world.zones:
            out.append("a card zone exists that the game does not have")
    if world.cards is not None:
        if any(c.card not in world.cards for _, _, cards in state.all_zones() for c in cards):
            out.append("a zone holds a card that is not one of the game's cards")
    return out


def _bounds(values: dict[str, int], bounds: dict[str, tuple[int | None, int | None]],
            whose: str) -> list[str]:
    out = []
    if values.keys() != bounds.keys():
        out.append(f"{whose} counters do not match the game's counters")
    for name, (lo, hi) in bounds.items():
        value = values.get(name, 0)
        if lo is not None and value < lo:
            out.append(f"{name} is {'negative' if lo == 0 else 'below its minimum'} "
                       f"(minimum {lo})")
        elif hi is not None and value > hi:
            out.append(f"{name} is above its cap ({hi})")
    return out


def check_counters(state: State, meta: GameMeta) -> list[str]:
    """Every player's counters, and the shared ones, within their declared bounds."""
    out: list[str] = []
    for p in state.players:
        out += _bounds(p.counters, meta.counter_bounds, "a player's")
    if meta.shared_bounds or state.counters:
        out += _bounds(state.counters, meta.shared_bounds, "the shared")
    return out


def check_supplies(state: State, meta: GameMeta) -> list[str]:
    """Tokens left in each supply: never above the box's stock, never below zero unless the
    rules let the supply run out (then the shortfall is measured, not a violation)."""
    out = []
    if state.supply.keys() != meta.supplies.keys():
        out.append("the supplies do not match the game's supplies")
    for name, (stock, may_run_out) in meta.supplies.items():
        left = state.supply.get(name, 0)
        if left > stock:
            out.append(f"the {name} supply holds more than the box's {stock}")
        elif left < 0 and not may_run_out:
            out.append(f"the {name} supply is below zero")
    return out


def card_census(state: State) -> dict[int, int]:
    """uid -> how many places hold that card (every card must be in exactly one)."""
    seen: dict[int, int] = {}
    for _, _, cards in state.all_zones():
        for c in cards:
            seen[c.uid] = seen.get(c.uid, 0) + 1
    return seen


def check_cards(state: State, expected: set[int] | None) -> list[str]:
    """Every card in exactly one zone; with `expected` (the uids at the start), none lost or
    made."""
    census = card_census(state)
    out = []
    if any(n > 1 for n in census.values()):
        out.append("a card is in two places at once")
    if expected is not None:
        if expected - census.keys():
            out.append("a card was lost (it is in no zone)")
        if census.keys() - expected:
            out.append("a card appeared that the game did not start with")
    return out


def check_winners(state: State) -> list[str]:
    if state.stage == OVER:
        live_seats = {i for i, p in enumerate(state.players) if not p.out}
        if not set(state.winners) <= live_seats:
            return ["a winner is not a player still in the game"]
    return []


#: values that cannot be shared harmfully (immutable scalars): skipped at once
_SCALARS = frozenset({int, str, float, bool, type(None)})


def _mutable_ids(root: Any) -> set[int]:
    """The ids of every mutable part (list, dict, slotted object such as a player or a card)
    reachable from `root`, walked without recursion."""
    seen: set[int] = set()
    stack = [root]
    scalars = _SCALARS
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind in scalars:
            continue
        if kind is dict:
            seen.add(id(node))
            stack.extend(node.values())
        elif kind is list:
            seen.add(id(node))
            stack.extend(node)
        elif kind is tuple:
            stack.extend(node)
        else:
            slots = getattr(kind, "__slots__", None)
            if slots:
                seen.add(id(node))
                stack.extend(getattr(node, s) for s in slots)
            elif isinstance(node, list | dict):  # a subclass of list or dict
                seen.add(id(node))
                stack.extend(node.values() if isinstance(node, dict) else node)
    return seen


def _state_ids(state: State) -> list[int]:
    """The ids of every mutable part of a State (a list: a part reached twice is listed
    twice), walking its known shape directly (the module's vars, plain JSON of any shape, are
    walked generically)."""
    markers = state.markers
    ids = [id(state), id(state.players), id(markers), id(state.owners), id(state.counters),
           id(state.supply), id(state.zones), id(state.winners)]
    add = ids.append
    ids += map(id, markers.values())
    scalars = _SCALARS
    for p in state.players:
        zones = p.zones
        ids += (id(p), id(p.counters), id(p.pos), id(zones))
        if zones:
            _zone_ids(zones, ids)
        # the module's vars: a plain dict of scalars and flat lists of scalars (the usual
        # shape) in one pass, anything deeper walked generically
        value = p.vars
        if type(value) is dict:
            add(id(value))
            for v in value.values():
                kind = type(v)
                if kind is list:
                    if scalars.issuperset(map(type, v)):
                        add(id(v))
                        continue
                elif kind in scalars:
                    continue
                ids += _mutable_ids(v)
        else:
            ids += _mutable_ids(value)
    if state.zones:
        _zone_ids(state.zones, ids)
    value = state.vars
    if type(value) is dict and not value:  # the usual shared vars: none
        add(id(value))
    else:
        ids += _mutable_ids(value)
    return ids


def _zone_ids(zones: dict[str, list[CardInstance]], ids: list[int]) -> None:
    """Add the ids of the card lists of `zones`, their cards and the cards' tokens and flags."""
    add = ids.append
    for cards in zones.values():
        add(id(cards))
        ids += map(id, cards)
        for c in cards:
            if c.tokens is not None:
                add(id(c.tokens))
            if c.flags is not None:
                add(id(c.flags))


#: the State shape _state_ids knows; any other shape is walked generically
_KNOWN_SHAPE = (State.__slots__, PlayerState.__slots__, CardInstance.__slots__) == (
    ("players", "markers", "owners", "counters", "supply", "zones", "vars", "turn", "phase",
     "stage", "ended", "winners"), ("counters", "pos", "zones", "vars", "out"),
    ("uid", "card", "tokens", "flags", "face_up"))


def _shares(a: Any, b: Any) -> bool:
    """Whether two structures share any mutable part (list, dict, player, card)."""
    if _KNOWN_SHAPE and type(a) is State and type(b) is State:
        return not set(_state_ids(a)).isdisjoint(_state_ids(b))
    return not _mutable_ids(a).isdisjoint(_mutable_ids(b))


def check_copy(state: State) -> list[str]:
    """A copy equals its original and shares no list, dict, player or card with it."""
    c = state.copy()
    out = []
    if c != state:
        out.append("a copy of the state differs from its original")
    if _shares(state, c):
        out.append("a copy of the state shares data with its original")
    return out


def check_roundtrip(state: State) -> list[str]:
    """Serialising to JSON text and back gives an equal state."""
    back = State.from_json(json.loads(json.dumps(state.to_json())))
    return [] if back == state else ["serialize then deserialize changes the state"]


def check_state(state: State, meta: GameMeta, cards: set[int] | None = None) -> list[str]:
    """The generic state invariants (bounds, supplies, cards, winners, pieces on a map)."""
    out = (check_counters(state, meta) + check_supplies(state, meta)
           + check_cards(state, cards) + check_winners(state))
    if meta.map is not None:
        out += check_map(state, meta.map)
    return out


class StepChecker:
    """The step hook of a self-played game: phase order always, full checks every or sampled."""

    def __init__(self, meta: GameMeta, mode: str, seed: int, state: State,
                 module_check: ModuleCheck | None = None, world: World | None = None):
        if mode not in MODES:
            raise ValueError(f"invariants must be one of {', '.join(MODES)}, not {mode!r}")
        self.meta = meta
        self.mode = mode
        self.sampled = mode == "sample"
        self.checked = mode != "none"
        self.phased = bool(meta.phases)
        self.module_check = module_check
        self.world = world
        self.offset = seed % SAMPLE_EVERY
        self.cards = set(card_census(state))
        phases = meta.phases
        #: label -> the label due next ("pregame" is followed by the first phase)
        self.after = {"pregame": phases[0] if phases else ""}
        for i, ph in enumerate(phases):
            self.after[ph] = phases[(i + 1) % len(phases)]
        self.first = phases[0] if phases else ""
        self.expect = "pregame" if state.stage == PREGAME or not phases else phases[state.phase]
        self.turn = state.turn

    def __call__(self, ctx: Context, label: str) -> None:
        st = ctx.state
        if st.supply:  # component sufficiency: measured at every step, cheaply
            low = ctx.result.supply_low
            for name, left in st.supply.items():
                if name not in low or left < low[name]:
                    low[name] = left
        if self.phased:
            if label != self.expect:
                ctx.violate(f"phases out of order: {label} came where {self.expect} was due")
            nxt = self.after.get(label, self.first)
            if label == "pregame":
                if st.turn != 1:
                    ctx.violate("the first turn after the pregame is not turn 1")
            elif nxt == self.first and st.stage != OVER and st.turn != self.turn + 1:
                ctx.violate("the turn number did not advance by one after the last phase")
            self.expect = nxt
        self.turn = st.turn
        if self.sampled:
            k = ctx.steps + self.offset
            if k % SAMPLE_EVERY:
                return
            deep = k % (SAMPLE_EVERY * ROUNDTRIP_EVERY) == 0
        elif not self.checked:
            return
        else:
            deep = True
        for message in self.full_check(st, label, deep):
            ctx.violate(message)

    def full_check(self, state: State, label: str = "", deep: bool = True) -> list[str]:
        """Every invariant at once (`deep=False` skips the JSON round trip, the costly one)."""
        out = check_state(state, self.meta, self.cards) + check_copy(state)
        if self.world is not None:
            out += check_references(state, self.world) + check_conservation(state, self.world)
        if deep:
            out += check_roundtrip(state)
        if self.module_check is not None:
            out += self.module_check(state, label)
        return out


    def final_check(self, state: State, winners: Any) -> list[str]:
        """The checks every game gets once it is over, sampled or not: the generic state
        invariants on the final state and the result's winners (not the copy or round trip)."""
        if not self.checked:
            return []
        out = check_state(state, self.meta, self.cards)
        if self.world is not None:
            out += check_references(state, self.world) + check_conservation(state, self.world)
        players = len(state.players)
        if any(not isinstance(w, int) or not 0 <= w < players for w in winners):
            out.append("a winner is not a seat of this game")
        return out
