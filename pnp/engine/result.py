"""What one self-played game reports: the contract between a rules module and the harness.

The rules module fills it while playing; the self-play harness (selfplay.py) aggregates many of
them into balance statistics and findings. Everything here is plain data, picklable across
worker processes, and identical for identical seeds.
"""

from __future__ import annotations

from dataclasses import dataclass, field

COMPLETED = "completed"  # the game's end condition was met
TIMEOUT = "timeout"  # the turn cap was reached first (a finding, never a hang)
ALL_OUT = "all-eliminated"  # fewer than one player left in the game
#: how the violation of a game whose rules raised begins (selfplay.play_one writes it)
CRASH_PREFIX = "engine raised "
#: how the violation of a game stopped at its CPU, wall-clock or memory budget begins
RUNAWAY_PREFIX = "the game did not end: "
#: the violation of each game not played because an earlier one ran away in the same process
NOT_PLAYED = ("an earlier game of this run did not end (see that finding): the rules module "
              "loops, so this one was not played")


class Tally(dict):
    """Counts by key; a key never counted reads as 0 (`t[key] += 1` works), as in a Counter.
    Not a Counter: Counter defines `__delitem__`, so CPython sends every store into one
    through a Python-level slot, about three times a dict store, and a game's hot path
    stores into these on every landing and event. Merged into a Counter with `update`."""

    __slots__ = ()

    def __missing__(self, key: object) -> int:
        return 0


@dataclass
class Elimination:
    seat: int
    turn: int
    cause: str  # e.g. 'territories' or 'population'
    phase: str = ""


@dataclass
class GameResult:
    game: str
    seed: int
    players: int
    bots: tuple[str, ...]  # bot name per seat
    variant: str | None = None
    turns: int = 0
    ended: str = COMPLETED
    winners: tuple[int, ...] = ()  # seats sharing the top score (ties reported)
    scores: tuple[int, ...] = ()  # final VP (or the game's score) per seat
    margin: int = 0  # winner's score minus the best other player still in (0 on a tie)
    eliminations: list[Elimination] = field(default_factory=list)
    final_stats: list[dict[str, int]] = field(default_factory=list)  # per seat, stat id -> value
    space_counts: Tally = field(default_factory=Tally)  # (track id, space id) -> landings
    chart_counts: Tally = field(default_factory=Tally)  # (chart id, row low roll) -> results
    cap_clips: Tally = field(default_factory=Tally)  # stat id -> gains cut at the stat's cap
    floor_clips: Tally = field(default_factory=Tally)  # stat id -> losses cut at its floor
    #: (kind, key) -> uses: which action spaces, cards, ... a game used (the module's coverage
    #: keys; tracks and charts are counted in space_counts and chart_counts)
    coverage: Tally = field(default_factory=Tally)
    events: Tally = field(default_factory=Tally)  # named events: 'war', 'war-won', 'trade', ...
    violations: list[str] = field(default_factory=list)  # invariant violations, in plain words
    decisions: int = 0
    rolls: int = 0
    #: supply id -> the fewest tokens left in it at any step (the harness's step hook records
    #: it; below zero where the rules let a supply run out): stock minus this is what the game
    #: needed out of the box at once
    supply_low: dict[str, int] = field(default_factory=dict)
    #: per seat, the faction the player played (a city-state, a civilization), when the rules
    #: module reports one; the report shows win rates by faction
    factions: tuple[str, ...] = ()
    #: the seats leading (by the module's own `leaders`) at the end of each turn, recorded by
    #: the api's play_turns (or a module's own turn loop, as Ancient Civilizations's): what
    #: lead changes, drama and decisiveness are measured on
    leaders_by_turn: list[tuple[int, ...]] = field(default_factory=list)
    #: options -> decisions offering that many (the branching factor; decisions of two or
    #: more options, as `decisions` counts them), and (seat, why, option) -> times that text
    #: option was offered to the seat, and picked by it: per-option pick and win rates
    branching: Tally = field(default_factory=Tally)
    offers: Tally = field(default_factory=Tally)
    picks: Tally = field(default_factory=Tally)
    #: (seat, why) -> the seat's first named picks at that decision (at most
    #: choices.OPENING_PICKS): the plan it opened with there
    openings: dict[tuple[int, str], list[str]] = field(default_factory=dict)
