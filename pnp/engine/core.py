"""Engine core: plain-data game state, explicit chance and decisions, and the event log.

The core knows no game. A rules module plays by calling `ctx.roll` for every die and
`ctx.choose` for every decision; where the dice and the decisions come from (a seeded source,
a scenario script, a recorded log) is the context's business, so the same rules code plays,
tests and replays.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pnp.engine.result import GameResult

#: log format version written in every log's first event
LOG_VERSION = 1

# --------------------------------------------------------------------------- state


@dataclass(slots=True)
class PlayerState:
    """One civilization: its stats, a pawn position per track, powers held for the turn."""

    stats: dict[str, int]
    pos: dict[str, int]  # track id -> space index of this player's pawn
    powers: list[str] = field(default_factory=list)  # power ids ("track/space") unused this turn
    owned: list[str] = field(default_factory=list)  # owned spaces ("track/space"), build order
    leader: str = ""  # space id of the current leader ("" before the first Leader Phase)
    out: bool = False  # eliminated

    def copy(self) -> PlayerState:
        return PlayerState(dict(self.stats), dict(self.pos), list(self.powers), list(self.owned),
                           self.leader, self.out)

    def to_json(self) -> dict[str, Any]:
        return {"stats": dict(self.stats), "pos": dict(self.pos), "powers": list(self.powers),
                "owned": list(self.owned), "leader": self.leader, "out": self.out}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PlayerState:
        return cls({k: int(v) for k, v in data["stats"].items()},
                   {k: int(v) for k, v in data["pos"].items()},
                   list(data.get("powers", ())), list(data.get("owned", ())),
                   str(data.get("leader", "")), bool(data.get("out", False)))


#: State.stage values
PREGAME, MAIN, OVER = "pregame", "main", "over"


@dataclass(slots=True)
class State:
    """The whole game between two steps: everything a replay must reproduce, nothing else."""

    players: list[PlayerState]
    markers: dict[str, list[int]] = field(default_factory=dict)  # track id -> marked indices
    owners: dict[str, int] = field(default_factory=dict)  # owned space "track/space" -> seat
    turn: int = 0  # 0 during the pregame, then 1, 2, ...
    phase: int = 0  # index of the phase being played (or next to play)
    stage: str = PREGAME
    ended: str = ""  # GameResult.ended once the game is over
    winners: list[int] = field(default_factory=list)

    def copy(self) -> State:
        """An independent copy (no shared lists or dicts), much cheaper than deepcopy."""
        return State([p.copy() for p in self.players],
                     {k: list(v) for k, v in self.markers.items()}, dict(self.owners),
                     self.turn, self.phase, self.stage, self.ended, list(self.winners))

    def to_json(self) -> dict[str, Any]:
        return {"players": [p.to_json() for p in self.players],
                "markers": {k: list(v) for k, v in self.markers.items()},
                "owners": dict(self.owners), "turn": self.turn, "phase": self.phase,
                "stage": self.stage, "ended": self.ended, "winners": list(self.winners)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        return cls([PlayerState.from_json(p) for p in data["players"]],
                   {k: [int(i) for i in v] for k, v in data.get("markers", {}).items()},
                   {k: int(v) for k, v in data.get("owners", {}).items()},
                   int(data.get("turn", 0)), int(data.get("phase", 0)),
                   str(data.get("stage", PREGAME)), str(data.get("ended", "")),
                   [int(s) for s in data.get("winners", ())])

    def live(self) -> list[int]:
        """Seats still in the game, in seat order."""
        return [i for i, p in enumerate(self.players) if not p.out]


# --------------------------------------------------------------------------- metadata


@dataclass(frozen=True)
class GameMeta:
    """What a game declares so a harness can check it without knowing its rules (OpenSpiel)."""

    game: str
    players_min: int
    players_max: int
    max_turns: int
    stat_bounds: dict[str, tuple[int, int | None]]  # stat id -> (min, cap or None)
    has_chance: bool = True
    phases: tuple[str, ...] = ()  # phase ids in play order
    track_starts: dict[str, int] = field(default_factory=dict)  # track id -> start index
    track_lengths: dict[str, int] = field(default_factory=dict)  # track id -> spaces
    exclusive_tracks: tuple[str, ...] = ()  # one pawn per non-start space on these
    owned_tracks: tuple[str, ...] = ()  # tracks whose spaces are owned once (wonders)
    score_stat: str = ""
    derived_stats: tuple[str, ...] = ()
    #: greedy bot: value of one point of each stat, and danger floors (stat -> lowest safe value)
    bot_values: dict[str, float] = field(default_factory=dict)
    bot_floors: dict[str, int] = field(default_factory=dict)


# --------------------------------------------------------------------------- chance and choice


class Estimate(dict):
    """Expected stat changes of an option, built once by a rules module and offered to bots
    many times; a bot may keep its own digest of it in `prep` (the greedy bot does)."""

    __slots__ = ("prep",)

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.prep: Any = None



class ScriptExhausted(Exception):
    """A scripted source ran out: a scenario is missing dice or choices (a clear failure)."""


class ReplayMismatch(Exception):
    """A recorded log does not fit the game being replayed (other data, rules or variant)."""


class IllegalChoice(Exception):
    """A scripted choice is not among the legal options."""


class Bot(Protocol):
    def choose(self, state: State, seat: int, options: Sequence[Any], why: str,
               outcomes: Callable[[Any], dict[str, float]] | None) -> int:
        """Index of the chosen option."""
        ...


class SeededDice:
    """Dice from one `random.Random(seed)`: the only randomness in a self-played game."""

    __slots__ = ("draw", "draw_many", "random")

    def __init__(self, seed: int):
        self.random = rand = random.Random(seed).random

        def draw(sides: int, why: str) -> int:
            return int(rand() * sides) + 1

        def draw_many(sides: int, n: int, why: str) -> list[int]:
            return [int(rand() * sides) + 1 for _ in range(n)]

        self.draw = draw
        self.draw_many = draw_many


class ScriptedDice:
    """Dice from a list, consumed in order; running out raises ScriptExhausted."""

    def __init__(self, values: Sequence[int], where: Sequence[str] | None = None):
        self.values = list(values)
        self.where = list(where or ())
        self.used = 0

    def draw(self, sides: int, why: str) -> int:
        if self.used >= len(self.values):
            raise ScriptExhausted(
                f"ran out of scripted dice: roll {self.used + 1} ({why}, 1-{sides}) has no value; "
                f"the script gives {len(self.values)}")
        value = self.values[self.used]
        where = self.where[self.used] if self.used < len(self.where) else ""
        self.used += 1
        if not 1 <= value <= sides:
            raise IllegalChoice(f"scripted die {value} cannot come up on a {sides}-sided die "
                                f"({why}){' at ' + where if where else ''}")
        return value


class Replay:
    """Dice and decisions read back from a trace (ints in the order they were drawn)."""

    def __init__(self, trace: Iterable[int]):
        self._it: Iterator[int] = iter(trace)

    def next(self, what: str) -> int:
        value = next(self._it, None)
        if value is None:
            raise ReplayMismatch(f"the log ends before {what}")
        return value

    def draw(self, sides: int, why: str) -> int:
        value = self.next(f"the roll '{why}'")
        if not 1 <= value <= sides:
            raise ReplayMismatch(f"logged roll {value} does not fit a {sides}-sided die ({why})")
        return value

    def choose(self, state: State, seat: int, options: Sequence[Any], why: str,
               outcomes: Any = None) -> int:
        return self.next(f"the decision '{why}'")

    def left(self) -> int:
        return sum(1 for _ in self._it)


def trace_from_log(events: Iterable[dict[str, Any]]) -> list[int]:
    """The dice and decision indices of a JSONL event log, in order."""
    out = []
    for e in events:
        kind = e.get("e")
        if kind == "roll":
            out.append(int(e["value"]))
        elif kind == "choice":
            out.append(int(e["pick"]))
    return out


# --------------------------------------------------------------------------- context


class RunawayGame(Exception):
    """A game rolled more dice than any real game could: stopped instead of hanging."""


#: a game drawing more dice than this is stuck in a loop (a rules bug)
MAX_ROLLS = 2_000_000


class StopRun(Exception):
    """Raised by a step hook to stop a run after a given step (scenarios)."""


StepHook = Callable[["Context", str], None]


class Context:
    """What a rules procedure plays through: dice, decisions, events and step boundaries."""

    def __init__(self, state: State, dice: Any, bots: Sequence[Any], result: GameResult,
                 log: list | None = None, on_step: StepHook | None = None):
        self.state = state
        self.bots = list(bots)
        self.result = result
        self.log = log
        self.on_step = on_step
        self.trace: list[int] = []
        self.steps = 0
        self.rolls = 0
        self.decisions = 0
        self.violations: list[str] = []
        self.max_rolls = MAX_ROLLS
        self._draw = dice.draw
        self._draw_many = getattr(dice, "draw_many", None)
        self._events = result.events
        self._trace_add = self.trace.append
        if isinstance(dice, SeededDice) and log is None:
            self.roll = self._make_fast_roll(dice.random)  # type: ignore[method-assign]
            self.roll_high = self._make_fast_roll_high(dice.random)  # type: ignore[method-assign]

    def _make_fast_roll(self, rand: Callable[[], float]) -> Callable[..., int]:
        """`roll` for a seeded, unlogged game: the same dice, one call less per die."""
        add = self._trace_add

        def roll(sides: int, why: str, seat: int = -1) -> int:
            value = int(rand() * sides) + 1
            add(value)
            self.rolls += 1
            if self.rolls > self.max_rolls:
                raise RunawayGame(f"more than {self.max_rolls} dice rolled")
            return value

        return roll

    def _make_fast_roll_high(self, rand: Callable[[], float]) -> Callable[..., int]:
        """`roll_high` for a seeded, unlogged game: the same dice, drawn in one loop."""
        trace = self.trace

        def roll_high(sides: int, why: str, seats: Sequence[int]) -> int:
            contenders = seats
            while True:
                values = [int(rand() * sides) + 1 for _ in contenders]
                trace.extend(values)
                self.rolls += len(values)
                if self.rolls > self.max_rolls:
                    raise RunawayGame(f"more than {self.max_rolls} dice rolled")
                top = max(values)
                if values.count(top) == 1:
                    return contenders[values.index(top)]
                contenders = [s for s, v in zip(contenders, values, strict=True) if v == top]

        return roll_high

    # chance ------------------------------------------------------------------------------
    def roll(self, sides: int, why: str, seat: int = -1) -> int:
        """One die: from the seeded source, a script or a log; always recorded."""
        value = self._draw(sides, why)
        self._trace_add(value)
        self.rolls += 1
        if self.rolls > self.max_rolls:
            raise RunawayGame(f"more than {self.max_rolls} dice rolled")
        if self.log is not None:
            self.log.append({"e": "roll", "seat": seat, "sides": sides, "value": value, "why": why})
        return value

    def roll_each(self, sides: int, why: str, seats: Sequence[int]) -> list[int]:
        """One die for each seat (turn order): `roll` for many at once, cheaper per die."""
        if self._draw_many is not None:
            values = self._draw_many(sides, len(seats), why)
        else:
            draw = self._draw
            values = [draw(sides, why) for _ in seats]
        self.trace.extend(values)
        self.rolls += len(values)
        if self.rolls > self.max_rolls:
            raise RunawayGame(f"more than {self.max_rolls} dice rolled")
        if self.log is not None:
            for seat, value in zip(seats, values, strict=True):
                self.log.append({"e": "roll", "seat": seat, "sides": sides, "value": value,
                                 "why": why})
        return values

    def roll_high(self, sides: int, why: str, seats: Sequence[int]) -> int:
        """Each seat rolls one die; a tie for highest re-rolls among the tied; the winner."""
        contenders = seats
        while True:
            values = self.roll_each(sides, why, contenders)
            top = max(values)
            if values.count(top) == 1:
                return contenders[values.index(top)]
            contenders = [s for s, v in zip(contenders, values, strict=True) if v == top]

    # decisions ---------------------------------------------------------------------------
    def choose(self, seat: int, options: Sequence[Any], why: str,
               outcomes: Callable[[Any], dict[str, float]] | None = None) -> Any:
        """One decision by `seat` among legal `options`; a single option is taken unasked."""
        n = len(options)
        if n == 1:
            return options[0]
        if n == 0:
            self.violate(f"no legal option for a decision that cannot pass ({why})")
            raise IllegalChoice(f"no legal options ({why})")
        pick = self.bots[seat].choose(self.state, seat, options, why, outcomes)
        if pick.__class__ is not int or not 0 <= pick < n:
            self.violate(f"a bot chose an option that is not legal ({why})")
            raise IllegalChoice(f"option {pick!r} is not legal ({why}); options: {list(options)}")
        self._trace_add(pick)
        self.decisions += 1
        if self.log is not None:
            self.log.append({"e": "choice", "seat": seat, "why": why, "options": list(options),
                             "pick": pick, "value": options[pick]})
        return options[pick]

    # bookkeeping -------------------------------------------------------------------------
    def event(self, name: str, seat: int = -1) -> None:
        """A named event (counted in GameResult.events, written to the log)."""
        self._events[name] += 1
        if self.log is not None:
            self.log.append({"e": "event", "name": name, "seat": seat})

    def violate(self, message: str) -> None:
        """An invariant broke: recorded once per game, never raised in a long run."""
        if message not in self.violations:
            self.violations.append(message)

    def step(self, label: str) -> None:
        """A step boundary (a phase ended): invariants and scenario expectations run here."""
        self.steps += 1
        if self.log is not None:
            st = self.state
            self.log.append({"e": "step", "turn": st.turn, "label": label})
        if self.on_step is not None:
            self.on_step(self, label)


# --------------------------------------------------------------------------- game modules


class GameModule(Protocol):
    """What a rules module offers the driver (pnp/engine/games/<game>.py)."""

    def metadata(self, game: Any) -> GameMeta: ...

    def new_state(self, game: Any, players: int) -> State:
        """The state before anything is played (pregame included)."""
        ...

    def main_state(self, game: Any, players: int) -> State:
        """The state right after setup, ready for the first phase (scenarios start here)."""
        ...

    def play(self, game: Any, ctx: Context, max_turns: int) -> None:
        """Play from ctx.state to the end of the game or the turn cap, calling ctx.step."""
        ...

    def finish(self, game: Any, ctx: Context) -> None:
        """Fill ctx.result from the final state."""
        ...

    def player_stats(self, game: Any, player: PlayerState) -> dict[str, int]:
        """A player's stats with derived ones included."""
        ...

    def power_ids(self, game: Any) -> frozenset[str]:
        """Ids of the powers a player may hold."""
        ...
