"""The validated game model: frozen dataclasses every consumer reads instead of raw YAML.

Each definition keeps `origin`, where it was written, so the engine, the renderer and the lint
can point a designer back at the line to edit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.data.effects import Effect
from pnp.data.loader import Document
from pnp.diagnostics import Position

NOWHERE = Position("")


@dataclass(frozen=True)
class Stat:
    id: str
    name: str
    abbreviation: str = ""
    aliases: tuple[str, ...] = ()
    min: int = 0
    cap: int | None = None
    start: int = 0
    derived: str | None = None
    note: str = ""
    origin: Position = NOWHERE
    supply: str | None = None  # the supply whose tokens this stat holds (components.yaml)

    @property
    def short(self) -> str:
        """The spelling to print in tight spaces."""
        return self.abbreviation or self.name


@dataclass(frozen=True)
class Formula:
    """`op(stat / divisor)`: the only formula shape the rules need (⌈T/3⌉, ⌊Infra/7⌋)."""

    id: str
    expression: str
    op: str  # 'ceil', 'floor' or 'id'
    stat: str
    divisor: int = 1
    description: str = ""
    origin: Position = NOWHERE

    def evaluate(self, value: int) -> int:
        if self.op == "ceil":
            return math.ceil(value / self.divisor)
        if self.op == "floor":
            return value // self.divisor
        return value


@dataclass(frozen=True)
class Condition:
    """`stat op value`, e.g. Military > 10."""

    stat: str
    op: str
    value: int
    text: str = ""

    def __str__(self) -> str:
        """The condition as written, for card layouts."""
        return self.text or f"{self.stat} {self.op} {self.value}"

    def holds(self, amount: int) -> bool:
        return {
            "<": amount < self.value,
            ">": amount > self.value,
            "<=": amount <= self.value,
            ">=": amount >= self.value,
            "==": amount == self.value,
            "!=": amount != self.value,
        }[self.op]


@dataclass(frozen=True)
class Dice:
    count: int
    sides: int

    def __str__(self) -> str:
        return f"{self.count}D{self.sides}"


@dataclass(frozen=True)
class Space:
    id: str
    name: str
    index: int
    start: bool = False
    effect: Effect | None = None
    text: str = ""
    footnote: str = ""
    origin: Position = NOWHERE

    @property
    def label(self) -> str:
        """The note as printed: the rules' text, else the effect as written."""
        if self.text:
            return self.text
        return self.effect.source if self.effect is not None else ("Start" if self.start else "")


@dataclass(frozen=True)
class Track:
    id: str
    name: str
    spaces: tuple[Space, ...]
    shape: str = "loop"
    aliases: tuple[str, ...] = ()
    note: str = ""
    origin: Position = NOWHERE

    @property
    def start_index(self) -> int:
        return next((s.index for s in self.spaces if s.start), 0)

    def space(self, space_id: str) -> Space:
        return next(s for s in self.spaces if s.id == space_id)


@dataclass(frozen=True)
class ChartRow:
    low: int
    high: int
    effect: Effect | None
    label: str = ""
    text: str = ""
    if_short: str | None = None
    origin: Position = NOWHERE

    @property
    def roll_label(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"

    @property
    def result_label(self) -> str:
        body = self.text or (self.effect.source if self.effect else "")
        return f"{self.label}: {body}" if self.label and body else (self.label or body)


@dataclass(frozen=True)
class Chart:
    id: str
    name: str
    die: Dice
    rows: tuple[ChartRow, ...]
    note: str = ""
    footnote: bool = False
    origin: Position = NOWHERE

    def row_for(self, roll: int) -> ChartRow:
        return next(r for r in self.rows if r.low <= roll <= r.high)


@dataclass(frozen=True)
class TableRow:
    cost: int
    buys: Effect
    origin: Position = NOWHERE


@dataclass(frozen=True)
class Table:
    id: str
    name: str
    rows: tuple[TableRow, ...]
    pay: str | None = None
    note: str = ""
    origin: Position = NOWHERE


@dataclass(frozen=True)
class Check:
    id: str
    name: str
    when: Condition
    effect: Effect
    origin: Position = NOWHERE


@dataclass(frozen=True)
class Conversion:
    id: str
    name: str
    pay: Effect
    gain: Effect
    mandatory: bool = False
    repeat: bool = True
    origin: Position = NOWHERE


@dataclass(frozen=True)
class Phase:
    id: str
    name: str
    index: int
    track: str | None = None
    chart: str | None = None
    rolls: str | None = None
    turn_order: str | None = None
    per_turn_bonuses: str | None = None
    checks: tuple[str, ...] = ()
    conversions: tuple[str, ...] = ()
    cost: Effect | None = None
    on_roll: Effect | None = None
    optional: bool = False
    repeat: bool = False
    build_once: bool = False
    option: str | None = None
    after_table: str | None = None
    end_checks: bool = False
    note: str = ""
    origin: Position = NOWHERE


@dataclass(frozen=True)
class Component:
    id: str
    name: str
    count: int
    per_player: bool = False
    counts: str | None = None
    note: str = ""
    origin: Position = NOWHERE


@dataclass(frozen=True)
class Alternative:
    reading: str
    id: str | None = None


@dataclass(frozen=True)
class Interpretation:
    id: str
    rule: str
    reading: str
    alternatives: tuple[Alternative, ...]
    why: str
    origin: Position = NOWHERE


@dataclass(frozen=True)
class SelfPlayDefault:
    """game.yaml `selfplay:`: the line-up self-play seats when --bots is not given, and why
    this game needs one of its own (the reports print it)."""

    bots: tuple[str, ...]
    why: str
    #: where each bot name is written, for a diagnostic on a bad one
    positions: tuple[Position, ...] = ()
    origin: Position = NOWHERE


@dataclass(frozen=True)
class Variant:
    id: str
    overrides: Mapping[str, Any]
    interpretation: str | None = None
    description: str = ""
    origin: Position = NOWHERE
    conflicts: tuple[str, ...] = ()
    #: the player counts the variant is written for; empty: every count the game takes
    players: tuple[int, ...] = ()

    def plays_with(self, players: int) -> bool:
        """Whether the variant may be played with this many players."""
        return not self.players or players in self.players

    @property
    def players_words(self) -> str:
        """'3 players', '3 and 4 players'; '' for a variant of every count."""
        return f"{counts_in_words(self.players)} players" if self.players else ""


def counts_in_words(counts: Sequence[int]) -> str:
    """Player counts as a sentence says them: '3', '3 and 4', '2, 3 and 5'."""
    words = [str(n) for n in counts]
    return words[-1] if len(words) < 2 else ", ".join(words[:-1]) + " and " + words[-1]


class FieldList(tuple):
    """A card field of type list: a tuple of strings that prints as 'red, blue' on a card."""

    __slots__ = ()

    def __str__(self) -> str:
        return ", ".join(str(v) for v in self)


#: Types a deck may declare for its card fields (docs/components.md).
FIELD_TYPES = ("integer", "text", "enum", "list", "effect", "condition", "boolean")


@dataclass(frozen=True)
class CardField:
    """A typed field declared by a deck; every card's value is parsed to this type once."""

    id: str
    type: str  # one of FIELD_TYPES
    values: tuple[str, ...] = ()  # allowed values for enum / list items
    required: bool = False
    default: Any = None
    min: int | None = None
    max: int | None = None
    origin: Position = NOWHERE


@dataclass(frozen=True, slots=True)
class Card:
    """One card design; `count` copies are printed and dealt (slots: a big deck holds many).

    `fields` holds each value as its deck declares it (int, str, FieldList, Effect, Condition,
    bool); undeclared fields keep their YAML value. An Effect prints as the text written."""

    id: str
    name: str
    count: int
    fields: Mapping[str, Any]
    origin: Position = NOWHERE
    field_origins: Mapping[str, Position] = field(default_factory=dict)


@dataclass(frozen=True)
class Deck:
    id: str
    name: str
    size: str | Mapping[str, str]
    front: str
    back: str | None
    cards: tuple[Card, ...]
    prototype: bool = False
    origin: Position = NOWHERE
    fields: Mapping[str, CardField] = field(default_factory=dict)
    printed: bool = True  # False: data only, no card sheets (its cards appear on other cards)
    cut: Any = None  # how each card is cut out: a shape name or {shape|field, inset} (schema)


@dataclass(frozen=True)
class Counter:
    """A bounded integer, per player (every stat is one) or shared (a round marker)."""

    id: str
    name: str
    min: int | None = 0
    cap: int | None = None
    start: int = 0
    per_player: bool = True
    abbreviation: str = ""
    note: str = ""
    origin: Position = NOWHERE
    aliases: tuple[str, ...] = ()
    stat: bool = False  # True when the counter is a stat from stats.yaml
    #: the supply whose tokens it holds: gains come from it, losses go back (conserved)
    supply: str | None = None


@dataclass(frozen=True)
class SupplyToken:
    """How a supply is printed as tokens (`token:`); None fields take the renderer's defaults."""

    shape: str = "circle"
    size: str = "12mm"
    colour: str | None = None
    text: str | None = None
    origin: Position = NOWHERE


@dataclass(frozen=True)
class Supply:
    """A pool of tokens in the box; may_run_out: the rules allow play on when it is empty;
    token: printed as `stock` tokens (None: not printed)."""

    id: str
    name: str
    stock: int
    may_run_out: bool = False
    note: str = ""
    origin: Position = NOWHERE
    token: SupplyToken | None = None


@dataclass(frozen=True)
class Die:
    """A die by its faces: (1, ..., 6) for a D6, ('titan', 'coin', 'blank', ...) for a symbol die."""

    id: str
    name: str
    faces: tuple[int | str, ...]
    note: str = ""
    origin: Position = NOWHERE

    @property
    def numeric(self) -> bool:
        return all(isinstance(f, int) and not isinstance(f, bool) for f in self.faces)


#: Zone kinds and the defaults derived from them (docs/components.md).
ZONE_KINDS = ("pile", "discard", "row", "hand", "tableau", "stored", "area")


@dataclass(frozen=True)
class ZoneDef:
    """A place cards or tokens sit: a draw pile, a market row, a hand; shared or per player."""

    id: str
    name: str
    kind: str  # one of ZONE_KINDS
    owner: str = "shared"  # 'shared' | 'player'
    face: str = "up"  # 'up' | 'down'
    visible_to: str = "all"  # 'all' | 'owner' | 'none'
    deck: str | None = None  # a deck whose cards (all copies) start here
    capacity: int | None = None
    note: str = ""
    origin: Position = NOWHERE


@dataclass(frozen=True)
class ActionSpace:
    """A worker-placement space: how many workers fit, what it costs and what it gives."""

    id: str
    name: str
    slots: int | None = 1  # None: unlimited
    cost: Effect | None = None
    effect: Effect | None = None
    text: str = ""
    round: int | None = None  # first round it is open (None: from the start)
    note: str = ""
    origin: Position = NOWHERE


@dataclass(frozen=True)
class BoardItem:
    kind: str  # 'track', 'chart' or 'table'
    ref: str
    origin: Position = NOWHERE


@dataclass(frozen=True)
class Board:
    id: str
    name: str
    items: tuple[BoardItem, ...]
    whole_paper: str | None = None
    origin: Position = NOWHERE
    paper_origin: Position = NOWHERE  # where `whole_paper` is written (the board's when absent)


@dataclass(frozen=True)
class RecordField:
    id: str
    label: str
    kind: str = "number"  # 'number', 'text' or 'lines'
    stat: str | None = None
    lines: int = 1
    note: str = ""
    origin: Position = NOWHERE


@dataclass(frozen=True)
class RecordList:
    id: str
    label: str
    from_track: str
    origin: Position = NOWHERE


@dataclass(frozen=True)
class RecordSheet:
    id: str
    name: str
    fields: tuple[RecordField, ...]
    turn_grid_turns: int = 0
    turn_grid_stats: tuple[str, ...] = ()
    lists: tuple[RecordList, ...] = ()
    origin: Position = NOWHERE


@dataclass(frozen=True)
class MapKind:
    """A kind of node (a province, a sea): pieces say which kinds they may stand on."""

    id: str
    name: str
    terrain: str = "land"  # 'land' | 'water': how the renderer draws it
    colour: str = ""
    origin: Position = NOWHERE


@dataclass(frozen=True)
class MapResource:
    """What a site on a node yields (marble, iron, gold)."""

    id: str
    name: str
    colour: str = ""
    origin: Position = NOWHERE


@dataclass(frozen=True)
class MapNode:
    id: str
    name: str
    kind: str
    at: tuple[float, float]  # map units, 0,0 at the top-left
    site: str | None = None  # a resource id
    note: str = ""
    origin: Position = NOWHERE


@dataclass(frozen=True)
class MapEdge:
    a: str
    b: str
    kind: str = ""
    origin: Position = NOWHERE


@dataclass(frozen=True)
class MapPiece:
    """A kind of piece on the map (legion, city, temple) and its limits."""

    id: str
    name: str
    on: tuple[str, ...]  # node kinds
    per_player: int | None = None
    stock: int | None = None
    per_node: int | None = None
    needs_site: bool = False
    note: str = ""
    origin: Position = NOWHERE


@dataclass(frozen=True)
class MapSetup:
    """Pieces a side starts with on the map."""

    side: str
    piece: str
    nodes: tuple[str, ...]
    count: int = 1
    origin: Position = NOWHERE


@dataclass(frozen=True)
class GameMap:
    """A board that is a graph (TAG's GraphBoard): nodes, edges, pieces and their limits."""

    id: str
    name: str
    width: float
    height: float
    kinds: Mapping[str, MapKind]
    nodes: Mapping[str, MapNode]
    edges: tuple[MapEdge, ...]
    pieces: Mapping[str, MapPiece] = field(default_factory=dict)
    resources: Mapping[str, MapResource] = field(default_factory=dict)
    setup: tuple[MapSetup, ...] = ()
    print_width: float = 0.0  # points; 0: the default
    whole_paper: str | None = None
    origin: Position = NOWHERE
    paper_origin: Position = NOWHERE  # where whole_paper (else print_width) is written


@dataclass(frozen=True)
class GameDef:
    """One game, resolved and validated: what the engine, renderer and rulesheet read."""

    id: str
    name: str
    folder: Path
    players_min: int
    players_max: int
    edition: str = ""
    description: str = ""
    engine: str | None = None
    prototype: bool = False
    recommended_players: int | None = None
    components: tuple[Component, ...] = ()
    stats: Mapping[str, Stat] = field(default_factory=dict)
    formulas: Mapping[str, Formula] = field(default_factory=dict)
    tracks: Mapping[str, Track] = field(default_factory=dict)
    charts: Mapping[str, Chart] = field(default_factory=dict)
    tables: Mapping[str, Table] = field(default_factory=dict)
    phases: tuple[Phase, ...] = ()
    checks: Mapping[str, Check] = field(default_factory=dict)
    conversions: Mapping[str, Conversion] = field(default_factory=dict)
    track_groups: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: the `rules:` block of game.yaml (effects, dice and conditions parsed); its schema is the
    #: engine's (schemas/rules/ENGINE.schema.json)
    rules: Mapping[str, Any] = field(default_factory=dict)
    interpretations: Mapping[str, Interpretation] = field(default_factory=dict)
    variants: Mapping[str, Variant] = field(default_factory=dict)
    decks: Mapping[str, Deck] = field(default_factory=dict)
    boards: Mapping[str, Board] = field(default_factory=dict)
    record_sheets: Mapping[str, RecordSheet] = field(default_factory=dict)
    layout_documents: tuple[Document, ...] = ()
    documents: tuple[Document, ...] = ()
    variant: str | None = None
    origin: Position = NOWHERE
    #: every stat (per player, stat=True) and every counter of components.yaml, by id
    counters: Mapping[str, Counter] = field(default_factory=dict)
    supplies: Mapping[str, Supply] = field(default_factory=dict)
    dice: Mapping[str, Die] = field(default_factory=dict)
    zones: Mapping[str, ZoneDef] = field(default_factory=dict)
    action_spaces: Mapping[str, ActionSpace] = field(default_factory=dict)
    #: components.yaml `map:`, a board that is a graph (None: the game has none)
    map: GameMap | None = None
    #: game.yaml `selfplay:` (None: self-play seats greedy everywhere unless --bots says)
    selfplay: SelfPlayDefault | None = None

    @property
    def variants_in_play(self) -> list[Variant]:
        """The variants this definition was built with (`variant` is 'a+b' for two)."""
        return [self.variants[v] for v in (self.variant or "").split("+") if v in self.variants]

    def player_counts(self) -> list[int]:
        """The counts this game may be played with: its range, less the counts a variant in
        play is not written for."""
        playing = self.variants_in_play
        return [n for n in range(self.players_min, self.players_max + 1)
                if all(v.plays_with(n) for v in playing)]

    def players_text(self) -> str:
        """The counts as a title prints them: '2 to 6 players', or '3 players' on the kit of
        a variant written for three."""
        counts = self.player_counts() or [self.players_min, self.players_max]
        if len(counts) > 2 and counts == list(range(counts[0], counts[-1] + 1)):
            return f"{counts[0]} to {counts[-1]} players"
        return f"{counts_in_words(counts)} players"

    def rule(self, *path: str, default: Any = None) -> Any:
        """A rule parameter by path, e.g. game.rule('options', 'war', 'roll')."""
        node: Any = self.rules
        for step in path:
            if not isinstance(node, Mapping) or step not in node:
                return default
            node = node[step]
        return node

    def phase(self, phase_id: str) -> Phase:
        return next(p for p in self.phases if p.id == phase_id)
