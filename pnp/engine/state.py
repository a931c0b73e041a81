"""The generic game state: counters, pawn positions, zones of card instances, shared areas.

Every game's state is built from the same few parts (TAG's components), so the harness can copy,
serialise, compare, observe and check any game without knowing its rules:

- counters: bounded integers per player (stats are counters) and shared ones;
- supply: tokens left in the box, per supply;
- pos: a pawn position per track, per player;
- zones: ordered lists of card instances, per player (a hand, a tableau) or shared (a draw
  pile, a market row); each instance carries its own tokens and flags;
- owners and markers: shared areas (a space owned by a seat, spaces marked on a track);
- vars: the rules module's own plain data (JSON values), per player and shared.

A state is plain data: `copy()` shares nothing with its original, `to_json()`/`from_json()`
round-trip exactly, and `==` compares everything.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any

#: State.stage values
PREGAME, MAIN, OVER = "pregame", "main", "over"

#: zone visibility: everybody, only the owning seat, nobody (a face-down pile)
ALL, OWNER, NOBODY = "all", "owner", "none"
#: the id an observer sees for a card it may not see
HIDDEN = "?"


@dataclass(slots=True)
class CardInstance:
    """One physical card: which card it is (the deck's card id), plus what lies on it."""

    uid: int  # unique within a game: conservation checks count these
    card: str  # the card's id in its deck
    tokens: dict[str, int] | None = None  # e.g. coins placed on the card
    flags: list[str] | None = None  # e.g. 'exhausted', 'damaged'
    face_up: bool | None = None  # None: as its zone shows it

    def copy(self) -> CardInstance:
        return CardInstance(self.uid, self.card,
                            None if self.tokens is None else dict(self.tokens),
                            None if self.flags is None else list(self.flags), self.face_up)

    def to_json(self) -> Any:
        if self.tokens is None and self.flags is None and self.face_up is None:
            return [self.uid, self.card]
        return {"uid": self.uid, "card": self.card, "tokens": self.tokens, "flags": self.flags,
                "face_up": self.face_up}

    @classmethod
    def from_json(cls, data: Any) -> CardInstance:
        if isinstance(data, list):
            return cls(int(data[0]), str(data[1]))
        tokens = data.get("tokens")
        flags = data.get("flags")
        return cls(int(data["uid"]), str(data["card"]),
                   None if tokens is None else {str(k): int(v) for k, v in tokens.items()},
                   None if flags is None else [str(f) for f in flags], data.get("face_up"))


Zones = dict[str, list[CardInstance]]

#: JSON scalars: copied by reference (immutable)
_SCALARS = frozenset({int, str, float, bool, type(None)})
_INT = frozenset({int})
_FACE_UP = attrgetter("face_up")


def _copy_zones(zones: Zones) -> Zones:
    return {z: [c.copy() for c in cards] for z, cards in zones.items()}


def _zones_json(zones: Zones) -> dict[str, list]:
    return {z: [c.to_json() for c in cards] for z, cards in zones.items()}


def _zones_from(data: Mapping[str, Any] | None) -> Zones:
    if not data:
        return {}
    card = CardInstance.from_json
    return {str(z): list(map(card, cards)) for z, cards in data.items()}


def _ints(data: Mapping[str, Any]) -> dict[str, int]:
    """{key: int(value)} of a JSON object, keys as they are, in C-level passes: a plain dict
    of ints only (what JSON gives) is copied as it is, since int() of an int is itself."""
    values = data.values()
    if type(data) is dict and _INT.issuperset(map(type, values)):
        return dict(data)
    return dict(zip(data, map(int, values), strict=True))


def _int_list(data: Any) -> list[int]:
    """[int(value) for value in data], a list of ints only copied as it is."""
    if type(data) is list and _INT.issuperset(map(type, data)):
        return list(data)
    return list(map(int, data))


@dataclass(slots=True)
class PlayerState:
    """One seat: its counters, pawns, zones and the module's own data."""

    counters: dict[str, int]
    pos: dict[str, int] = field(default_factory=dict)  # track id -> space index of the pawn
    zones: Zones = field(default_factory=dict)  # zone id -> cards, in order (index 0 = top)
    vars: dict[str, Any] = field(default_factory=dict)  # rules module's data (JSON values)
    out: bool = False  # eliminated

    def copy(self) -> PlayerState:
        return PlayerState(dict(self.counters), dict(self.pos),
                           _copy_zones(self.zones) if self.zones else {},
                           _copy_json(self.vars) if self.vars else {}, self.out)

    def to_json(self) -> dict[str, Any]:
        zones = self.zones
        return {"counters": dict(self.counters), "pos": dict(self.pos),
                "zones": _zones_json(zones) if zones else {}, "vars": _copy_json(self.vars),
                "out": self.out}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PlayerState:
        get = data.get
        return cls(_ints(data["counters"]), _ints(get("pos", {})), _zones_from(get("zones")),
                   _copy_json(get("vars") or {}), bool(get("out", False)))


@dataclass(slots=True)
class State:
    """The whole game between two steps: everything a replay must reproduce, nothing else."""

    players: list[PlayerState]
    markers: dict[str, list[int]] = field(default_factory=dict)  # track id -> marked indices
    owners: dict[str, int] = field(default_factory=dict)  # owned area key -> seat
    counters: dict[str, int] = field(default_factory=dict)  # shared counters
    supply: dict[str, int] = field(default_factory=dict)  # supply id -> tokens left in the box
    zones: Zones = field(default_factory=dict)  # shared zones
    vars: dict[str, Any] = field(default_factory=dict)  # rules module's shared data
    turn: int = 0  # 0 during the pregame, then 1, 2, ... (a round, where a game has rounds)
    phase: int = 0  # index of the phase being played (or next to play)
    stage: str = PREGAME
    ended: str = ""  # GameResult.ended once the game is over
    winners: list[int] = field(default_factory=list)

    def copy(self) -> State:
        """An independent copy (no shared lists or dicts), much cheaper than deepcopy."""
        return State([p.copy() for p in self.players],
                     {k: list(v) for k, v in self.markers.items()}, dict(self.owners),
                     dict(self.counters), dict(self.supply),
                     _copy_zones(self.zones) if self.zones else {},
                     _copy_json(self.vars) if self.vars else {},
                     self.turn, self.phase, self.stage, self.ended, list(self.winners))

    def to_json(self) -> dict[str, Any]:
        return {"players": [p.to_json() for p in self.players],
                "markers": {k: list(v) for k, v in self.markers.items()},
                "owners": dict(self.owners), "counters": dict(self.counters),
                "supply": dict(self.supply), "zones": _zones_json(self.zones),
                "vars": _copy_json(self.vars), "turn": self.turn, "phase": self.phase,
                "stage": self.stage, "ended": self.ended, "winners": list(self.winners)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        get = data.get
        return cls(list(map(PlayerState.from_json, data["players"])),
                   {k: _int_list(v) for k, v in get("markers", {}).items()},
                   _ints(get("owners", {})), _ints(get("counters", {})),
                   _ints(get("supply", {})), _zones_from(get("zones")),
                   _copy_json(get("vars") or {}), int(get("turn", 0)), int(get("phase", 0)),
                   str(get("stage", PREGAME)), str(get("ended", "")),
                   _int_list(get("winners", ())))

    def live(self) -> list[int]:
        """Seats still in the game, in seat order."""
        return [i for i, p in enumerate(self.players) if not p.out]

    def all_zones(self) -> Iterator[tuple[int, str, list[CardInstance]]]:
        """(owner seat or -1 for shared, zone id, cards) for every zone of the state."""
        for zone, cards in self.zones.items():
            yield -1, zone, cards
        for seat, p in enumerate(self.players):
            for zone, cards in p.zones.items():
                yield seat, zone, cards

    def zone(self, zone: str, seat: int = -1) -> list[CardInstance]:
        """A shared zone (seat -1) or a player's zone, created empty on first use."""
        zones = self.zones if seat < 0 else self.players[seat].zones
        cards = zones.get(zone)
        if cards is None:
            cards = zones[zone] = []
        return cards


def _copy_json(value: Any) -> Any:
    """A copy of plain JSON data (dicts, lists, scalars); tuples become lists, as JSON does."""
    kind = type(value)
    if kind is dict:  # the usual case: scalars and flat lists copied without a call each
        scalars = _SCALARS
        out = {}
        for k, v in value.items():
            kind = type(v)
            if kind is list:
                if not v or scalars.issuperset(map(type, v)):  # a flat list
                    out[k] = v[:]
                    continue
            elif kind in scalars:
                out[k] = v
                continue
            out[k] = _copy_json(v)
        return out
    if kind in _SCALARS:
        return value
    if isinstance(value, dict):
        return {k: _copy_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        if _SCALARS.issuperset(map(type, value)):  # a flat list: no element needs a copy
            return list(value)
        return [_copy_json(v) for v in value]
    return value


# --------------------------------------------------------------------------- observation


def visible(visibility: str, face_up: bool | None, owner: int, seat: int) -> bool:
    """Whether `seat` may see a card in a zone with `visibility` owned by `owner` (-1 shared)."""
    if face_up is not None:
        if face_up:
            return True
        return visibility == OWNER and owner == seat  # face down in one's own hand: still known
    if visibility == ALL:
        return True
    return visibility == OWNER and owner == seat


def observe(state: State, seat: int, visibility: Mapping[str, str]) -> State:
    """What `seat` may know (TAG's copy per observer): hidden cards become '?', uid -1.

    `visibility` maps zone id -> 'all' | 'owner' | 'none'; zones it does not name are open.
    A bot gets one at every decision, so it is a view, not a copy: every part that shows
    nothing hidden (counters, vars, open zones, seen cards) is the state's own object; the
    zones are masked when a bot first reads them (most bots read only counters), each zone
    with a hidden card as a new list whose hidden cards are one '?' instance per observation
    (per face_up value). It equals the state copied and masked card by card. Bots must read
    it during their decision and never change it (a game without hidden zones gives them the
    state itself).
    """
    if not visibility or all(v == ALL for v in visibility.values()):
        return state
    masks: dict[bool | None, CardInstance] = {}
    obs = _ObservedState.__new__(_ObservedState)
    obs._source, obs._seat, obs._visibility, obs._masks = state, seat, visibility, masks
    players = []
    for owner, p in enumerate(state.players):
        view = _ObservedPlayer.__new__(_ObservedPlayer)
        view.counters, view.pos, view.vars, view.out = p.counters, p.pos, p.vars, p.out
        view._source, view._owner, view._seat = p, owner, seat
        view._visibility, view._masks = visibility, masks
        players.append(view)
    obs.players, obs.markers, obs.owners, obs.counters = (players, state.markers, state.owners,
                                                          state.counters)
    obs.supply, obs.vars, obs.turn, obs.phase = state.supply, state.vars, state.turn, state.phase
    obs.stage, obs.ended, obs.winners = state.stage, state.ended, state.winners
    return obs


def _same_fields(a: Any, b: Any, names: tuple[str, ...]) -> bool:
    return all(getattr(a, n) == getattr(b, n) for n in names)


class _ObservedState(State):
    """An observation (see observe): its shared zones are masked on first read. `zones`
    starts unset, so reading it reaches __getattr__ once, which fills the slot."""

    __slots__ = ("_masks", "_seat", "_source", "_visibility")

    def __getattr__(self, name: str) -> Any:
        if name != "zones":
            raise AttributeError(name)
        zones = self.zones = _observed(self._source.zones, -1, self._seat, self._visibility,
                                       self._masks)
        return zones

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return _same_fields(self, other, _STATE_FIELDS)

    __hash__ = None  # type: ignore[assignment]


class _ObservedPlayer(PlayerState):
    """A seat in an observation: its zones are masked on first read, like _ObservedState's."""

    __slots__ = ("_masks", "_owner", "_seat", "_source", "_visibility")

    def __getattr__(self, name: str) -> Any:
        if name != "zones":
            raise AttributeError(name)
        zones = self.zones = _observed(self._source.zones, self._owner, self._seat,
                                       self._visibility, self._masks)
        return zones

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PlayerState):
            return NotImplemented
        return _same_fields(self, other, _PLAYER_FIELDS)

    __hash__ = None  # type: ignore[assignment]


_STATE_FIELDS = tuple(f.name for f in fields(State))
_PLAYER_FIELDS = tuple(f.name for f in fields(PlayerState))


def _observed(zones: Zones, owner: int, seat: int, visibility: Mapping[str, str],
              masks: dict[bool | None, CardInstance]) -> Zones:
    """`zones` as `seat` sees them: the same dict when no card in it is hidden, else a new
    dict sharing every zone without a hidden card (`masks`: the '?' card per face_up)."""
    out: Zones | None = None
    get = visibility.get
    for zone, cards in zones.items():
        if not cards:
            continue
        vis = get(zone, ALL)
        if vis == OWNER and owner == seat:  # its own: every card known, face down or not
            continue
        faces = set(map(_FACE_UP, cards))
        if vis == ALL:  # open: only a card turned face down is hidden
            if False not in faces:
                continue
        elif None not in faces and False not in faces:  # hidden unless turned face up
            continue
        if out is None:
            out = dict(zones)
        if vis == ALL:  # visible() in the zone's terms: face down (False) is hidden
            mask = _mask(masks, False)
            out[zone] = [mask if c.face_up is not None and not c.face_up else c for c in cards]
        elif len(faces) == 1 and None in faces:  # a face-down pile
            out[zone] = [_mask(masks, None)] * len(cards)
        else:  # hidden unless turned face up
            mask = {f: _mask(masks, f) for f in faces if not f}
            out[zone] = [c if c.face_up else mask[c.face_up] for c in cards]
    return zones if out is None else out


def _mask(masks: dict[bool | None, CardInstance], face_up: bool | None) -> CardInstance:
    """The one '?' card of this observation with `face_up` as the hidden card's."""
    card = masks.get(face_up)
    if card is None:
        card = masks[face_up] = CardInstance(-1, HIDDEN, None, None, face_up)
    return card


def card_backs(state: State) -> dict[int, tuple[int, str]]:
    """uid -> (owner, zone) each card starts in (in a game's new state): the pile it comes
    from, which is what its back shows a player who cannot see its face."""
    return {c.uid: (owner, zone) for owner, zone, cards in state.all_zones() for c in cards}


def redeterminize(state: State, seat: int, visibility: Mapping[str, str],
                  rng: random.Random, backs: Mapping[int, Any] | None = None) -> None:
    """Deal the cards `seat` cannot see afresh among the places it cannot see (in place),
    only ever swapping cards with the same back.

    A search bot playing out from a copy of the true state would otherwise know the hidden
    cards; after this it knows what it could see. A card's back is the pile it started in
    (`backs`, from card_backs of the game's new state): an unseen card in an opponent's hand
    may be any unseen card of its deck, wherever that lies, but never a card of another deck
    (a draw pile of events and a market of civilizations hold different kinds of card, and a
    rules module may rely on it: pooling every zone's hidden cards once put event cards in
    Age of Civilization's civilization market). Without `backs` (or for a card made after
    the start) the back is the zone the card is in: each zone's unseen cards are shuffled
    among that zone's unseen places only. Groups are dealt in state order by the one `rng`,
    so the result depends on the seed alone.

    What is dealt is each card's face (its id, tokens and flags); the card objects, their
    uids and face-up flags stay where they are. A rules module may hold cards in hand while a
    seat decides (The Ancient World's explore looks at the top cards of a deck, asks which to
    keep, then moves those very cards): had the objects moved, the module would move cards no
    longer in the zone and the playout would crash.
    """
    groups: dict[Any, list[tuple[list[CardInstance], int]]] = {}
    for owner, zone, cards in state.all_zones():
        vis = visibility.get(zone, ALL)
        for i, c in enumerate(cards):
            if not visible(vis, c.face_up, owner, seat):
                back = backs.get(c.uid) if backs is not None else None
                groups.setdefault(back if back is not None else ("zone", owner, zone),
                                  []).append((cards, i))
    for places in groups.values():
        if len(places) < 2:
            continue
        faces = [(c.card, c.tokens, c.flags) for c in (cards[i] for cards, i in places)]
        rng.shuffle(faces)
        for (cards, i), (card, tokens, flags) in zip(places, faces, strict=True):
            c = cards[i]
            c.card, c.tokens, c.flags = card, tokens, flags
