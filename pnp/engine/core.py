"""Engine core: plain-data game state, explicit chance and decisions, and the event log.

The core knows no game. A rules module plays by calling `ctx.roll` for every die and
`ctx.choose` for every decision; where the dice and the decisions come from (a seeded source,
a scenario script, a recorded log) is the context's business, so the same rules code plays,
tests and replays.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from math import floor as _floor  # a die from random(): the value int() gives, a third faster
from operator import itemgetter
from typing import Any, Protocol

from pnp.engine.choices import LABELS, OPENING_PICKS, option_label
from pnp.engine.graph import MapOps
from pnp.engine.result import GameResult
from pnp.engine.state import (  # noqa: F401  (re-exported: the core's vocabulary)
    ALL,
    HIDDEN,
    MAIN,
    NOBODY,
    OVER,
    OWNER,
    PREGAME,
    CardInstance,
    PlayerState,
    State,
    observe,
    redeterminize,
)
from pnp.engine.zones import ZoneOps

#: log format version written in every log's first event
LOG_VERSION = 1

# --------------------------------------------------------------------------- metadata


@dataclass(frozen=True)
class GameMeta:
    """What a game declares so a harness can check it without knowing its rules (OpenSpiel)."""

    game: str
    players_min: int
    players_max: int
    max_turns: int
    #: per-player counter id -> (min or None, cap or None): bounds every state must respect
    counter_bounds: dict[str, tuple[int | None, int | None]]
    has_chance: bool = True
    phases: tuple[str, ...] = ()  # phase ids in play order ("" steps are not checked)
    score_counter: str = ""
    derived_counters: tuple[str, ...] = ()
    #: shared counter id -> (min or None, cap or None)
    shared_bounds: dict[str, tuple[int | None, int | None]] = field(default_factory=dict)
    #: supply id -> (stock, may run out): tokens left may not exceed the stock, nor (unless
    #: the rules allow substitutes) go below zero
    supplies: dict[str, tuple[int, bool]] = field(default_factory=dict)
    #: zone id -> 'all' | 'owner' | 'none': who sees the cards in it (observation)
    zone_visibility: dict[str, str] = field(default_factory=dict)
    #: what one point of each counter is worth to the greedy bot (1 for a counter not named;
    #: every bundled game and the starter declare it, so it stays here, not in BotHints)
    bot_values: dict[str, float] = field(default_factory=dict)
    #: the game's map (pnp.engine.graph.MapRules) when it has one: its pieces are checked
    map: Any = None


@dataclass(frozen=True)
class BotHints:
    """A game's optional heuristics for the greedy bot beyond `GameMeta.bot_values`, from the
    module's `bot_hints(game)` hook (none by default): they tune one bot, so they are not
    what a harness checks."""

    #: danger floors: counter -> the lowest safe value (famine, defeat, elimination lines)
    floors: dict[str, int] = field(default_factory=dict)
    #: counters the end of the pregame adds to everyone (a setup bonus): during the pregame
    #: the greedy bot judges caps and floors as if they were already added
    pregame_offsets: dict[str, int] = field(default_factory=dict)


#: the hints of a game whose module gives none
NO_HINTS = BotHints()


# --------------------------------------------------------------------------- chance and choice


class Estimate(dict):
    """Expected stat changes of an option, built once by a rules module and offered to bots
    many times.

    `bot_memo` is a slot any bot may fill with what it made of this estimate (None until
    then), so work done once is found again at the next decision without a lookup; a bot
    that uses it must check the memo is its own (the greedy bot stores its weights with its
    digest). It is one slot because a table by id costs more: measured with cachegrind, 1.5%
    more instructions a turn of Ancient Civilizations than the slot."""

    __slots__ = ("bot_memo",)

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.bot_memo: Any = None


#: a roll-off's dice -> the position of its single highest die, or, for a tie, a getter of
#: the tied contenders (a pure function of the dice, shared by every game; bounded)
_ROLL_OFF_WINNERS: dict[tuple[int, ...], int | Callable[[Sequence[int]], tuple[int, ...]]] = {}
ROLL_OFF_MEMO = 1 << 16


def _logged_die(it: Iterator[int], sides: int, why: str) -> int:
    """The next logged die of a replay, checked as `Replay.draw` checks it."""
    value = next(it, None)
    if value is None:
        raise ReplayMismatch(f"the log ends before the roll '{why}'")
    if not 1 <= value <= sides:
        raise ReplayMismatch(f"logged roll {value} does not fit a {sides}-sided die ({why})")
    return value


def _roll_off_winner(values: tuple[int, ...]) -> int | Callable[[Sequence[int]], tuple]:
    """The position of the single highest die, or a getter of the positions tied highest."""
    top = max(values)
    if values.count(top) == 1:
        return values.index(top)
    return itemgetter(*(i for i, v in enumerate(values) if v == top))


class OptionTable:
    """A decision offered many times with the same options and estimates (pay or stop from
    one space, the purchase menu at one amount of Gold): built once by a rules module, passed
    as `ctx.choose(seat, table.options, why, table)`. It is the usual `outcomes` callable for
    any bot; a bot may also judge the table as a whole and keep its judgement in `bot_memo`
    (as on an Estimate: any bot's, checked as its own; the greedy bot keeps the pick that
    stands while no cap or floor is in play)."""

    __slots__ = ("options", "estimates", "bot_memo", "_by_option")

    def __init__(self, options: Sequence[Any], estimates: Sequence[dict[str, float]]):
        if len(options) != len(estimates):
            raise ValueError("an option table needs one estimate per option")
        self.options = tuple(options)
        self._by_option: dict[Any, dict[str, float]] = {}
        for option, estimate in zip(self.options, estimates, strict=True):
            self._by_option.setdefault(option, estimate)  # a repeated option: its first
        #: what `table(option)` gives for each option in turn, looked up once
        self.estimates = tuple(map(self._by_option.__getitem__, self.options))
        self.bot_memo: Any = None

    def __call__(self, option: Any) -> dict[str, float]:
        return self._by_option[option]

    def __len__(self) -> int:
        return len(self.options)


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
            return _floor(rand() * sides) + 1

        def draw_many(sides: int, n: int, why: str) -> list[int]:
            return [_floor(rand() * sides) + 1 for _ in range(n)]

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
        value = next(self._it, None)  # self.next, its message made only when it is needed
        if value is None:
            raise ReplayMismatch(f"the log ends before the roll '{why}'")
        if not 1 <= value <= sides:
            raise ReplayMismatch(f"logged roll {value} does not fit a {sides}-sided die ({why})")
        return value

    def choose(self, state: State, seat: int, options: Sequence[Any], why: str,
               outcomes: Any = None) -> int:
        value = next(self._it, None)
        if value is None:
            raise ReplayMismatch(f"the log ends before the decision '{why}'")
        return value

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
    """A game rolled more dice, or decided or stepped more often in one turn, than any real
    game could: stopped instead of hanging."""


#: a game drawing more dice than this is stuck in a loop (a rules bug)
MAX_ROLLS = 2_000_000
#: decisions, and step boundaries, within one turn past which a game is stuck in a loop
MAX_PER_TURN = 20_000
#: decisions between two looks at the per-turn budget (a power of two, for a cheap test)
DECISION_CHECK = 1024
#: the fast dice check for a runaway game every this many dice (or sooner, near the limit);
#: at most 256, so the count down stays among the ints CPython keeps ready-made
DICE_BUDGET = 256


class StopRun(Exception):
    """Raised by a step hook to stop a run after a given step (scenarios)."""


StepHook = Callable[["Context", str], None]


class Context(ZoneOps, MapOps):
    """What a rules procedure plays through: dice, decisions, events, zone moves
    (pnp.engine.zones), piece moves on a map (pnp.engine.graph) and step boundaries."""

    def __init__(self, state: State, dice: Any, bots: Sequence[Any], result: GameResult,
                 log: list | None = None, on_step: StepHook | None = None,
                 visibility: Mapping[str, str] | None = None, max_rolls: int = MAX_ROLLS,
                 tally_choices: bool = False):
        self.state = state
        #: zone id -> who sees it; with hidden zones, bots get an observation, not the state
        self.visibility = {z: v for z, v in (visibility or {}).items() if v != ALL}
        self._dice = dice
        self.bots = list(bots)
        self.result = result
        self.log = log
        self.on_step = on_step
        self.trace: list[int] = []
        self.steps = 0
        self.decisions = 0
        #: the turn the per-turn budgets count in, and the steps and decisions before it began
        self._budget_turn = state.turn
        self._turn_steps = 0
        self._turn_decisions = 0
        self.violations: list[str] = []
        #: a game drawing more dice than this raises RunawayGame (fixed once the context is made)
        self.max_rolls = max_rolls
        self._draw = dice.draw
        self._draw_many = getattr(dice, "draw_many", None)
        self._events = result.events
        self._trace_add = self.trace.append
        #: count every decision's options and picks into the result (self-play's games only:
        #: replays and a bot's playouts leave it off, so they pay nothing for it)
        self._tally = tally_choices
        if isinstance(dice, SeededDice) and log is None:
            self.roll, self.roll_high = self._make_fast_dice(dice.random)  # type: ignore[method-assign]
        elif type(dice) is Replay and log is None:
            self.roll, self.roll_high = self._make_replay_dice(dice)  # type: ignore[method-assign]
        if log is None and not self.visibility:
            self.choose = self._make_fast_choose()  # type: ignore[method-assign]
        if log is None:
            self.event = self._make_fast_event()  # type: ignore[method-assign]

    @property
    def rolls(self) -> int:
        """Dice rolled so far: every entry of the trace that is not a decision."""
        return len(self.trace) - self.decisions

    def _check_runaway(self) -> None:
        if len(self.trace) - self.decisions > self.max_rolls:
            raise RunawayGame(f"more than {self.max_rolls} dice rolled")

    def _dice_budget(self) -> int:
        """The runaway check, then how many more dice may be rolled before it is due again.
        The fast dice count that down: a small int costs nothing to count, while `len()` of
        a trace past 256 entries makes a new int object on every die."""
        self._check_runaway()
        return min(DICE_BUDGET, self.max_rolls - self.rolls)

    def _make_fast_dice(self, rand: Callable[[], float]) -> tuple[Callable[..., int],
                                                                  Callable[..., int]]:
        """`roll` and `roll_high` for a seeded, unlogged game: the same dice, one call less
        per die. A roll-off draws its dice in one go (two to four contenders, the usual case,
        without building a comprehension) and looks the round's winner up by its dice
        (worked out once per distinct round)."""
        trace = self.trace
        add = trace.append
        extend = trace.extend
        budget = self._dice_budget
        winners = _ROLL_OFF_WINNERS
        left = 0  # dice before the runaway check is due (the first die checks)

        def roll(sides: int, why: str, seat: int = -1) -> int:
            nonlocal left
            value = _floor(rand() * sides) + 1
            add(value)
            left -= 1
            if left < 0:
                left = budget()
            return value

        def roll_high(sides: int, why: str, seats: Sequence[int]) -> int:
            nonlocal left
            contenders = seats
            while True:
                n = len(contenders)
                if n == 4:
                    values = (_floor(rand() * sides) + 1, _floor(rand() * sides) + 1,
                              _floor(rand() * sides) + 1, _floor(rand() * sides) + 1)
                elif n == 3:
                    values = (_floor(rand() * sides) + 1, _floor(rand() * sides) + 1,
                              _floor(rand() * sides) + 1)
                elif n == 2:
                    values = (_floor(rand() * sides) + 1, _floor(rand() * sides) + 1)
                else:
                    values = tuple([_floor(rand() * sides) + 1 for _ in contenders])
                extend(values)
                left -= n
                if left < 0:
                    left = budget()
                won = winners.get(values)
                if won is None:
                    won = _roll_off_winner(values)
                    if len(winners) < ROLL_OFF_MEMO:
                        winners[values] = won
                if won.__class__ is int:
                    return contenders[won]
                contenders = won(contenders)  # those tied highest roll again

        return roll, roll_high

    def _make_replay_dice(self, source: Replay) -> tuple[Callable[..., int],
                                                         Callable[..., int]]:
        """`roll` and `roll_high` for an unlogged replay: the logged dice read as
        `Replay.draw` and `roll_each` read them, the same checks and messages."""
        it = source._it
        return self.dice_drawn_by(lambda sides, why: _logged_die(it, sides, why))

    def dice_drawn_by(self, draw: Callable[[int, str], int]) -> tuple[Callable[..., int],
                                                                   Callable[..., int]]:
        """`roll` and `roll_high` whose every die is `draw(sides, why)` (a replay's logged
        dice, a playout's scripted ones): each die recorded in the trace, a round's dice all
        drawn before any is recorded, without a method call and a runaway check per die
        (the check is due at the first die and at most every DICE_BUDGET after)."""
        trace = self.trace
        add = trace.append
        extend = trace.extend
        budget = self._dice_budget
        left = 0

        def roll(sides: int, why: str, seat: int = -1) -> int:
            nonlocal left
            value = draw(sides, why)
            add(value)
            left -= 1
            if left < 0:
                left = budget()
            return value

        def roll_high(sides: int, why: str, seats: Sequence[int]) -> int:
            nonlocal left
            contenders = seats
            while True:
                values = [draw(sides, why) for _ in contenders]
                extend(values)
                left -= len(values)
                if left < 0:
                    left = budget()
                top = max(values)
                if values.count(top) == 1:
                    return contenders[values.index(top)]
                contenders = [s for s, v in zip(contenders, values, strict=True) if v == top]

        return roll, roll_high

    def _make_fast_choose(self) -> Callable[..., Any]:
        """`choose` for an unlogged game without hidden zones: the same decisions and checks,
        the bots' methods looked up once (the bots see the state itself, as `observe` gives)."""
        pickers = [bot.choose for bot in self.bots]
        add = self._trace_add
        slow = Context.choose
        tally = self._tally_choice if self._tally else None

        def choose(seat: int, options: Sequence[Any], why: str,
                   outcomes: Callable[[Any], dict[str, float]] | None = None,
                   names: Callable[[Any], str | None] | None = None) -> Any:
            n = len(options)
            if n < 2:
                return slow(self, seat, options, why, outcomes)
            if names is not None and getattr(self.bots[seat], "reads_names", False):
                pick = pickers[seat](self.state, seat, options, why, outcomes, names)
            else:
                pick = pickers[seat](self.state, seat, options, why, outcomes)
            if pick.__class__ is not int or not 0 <= pick < n:
                self.violate(f"a bot chose an option that is not legal ({why})")
                raise IllegalChoice(f"option {pick!r} is not legal ({why}); options: "
                                    f"{list(options)}")
            add(pick)
            self.decisions += 1
            if not self.decisions % DECISION_CHECK:
                self._check_decisions(seat, why)
            if tally is not None:
                tally(seat, options, why, pick, names)
            return options[pick]

        return choose

    def _make_fast_event(self) -> Callable[..., None]:
        """`event` for an unlogged game: the count alone, the counter looked up once."""
        events = self._events
        get = events.get  # a Tally: .get skips its __missing__ call

        def event(name: str, seat: int = -1) -> None:
            events[name] = get(name, 0) + 1

        return event

    # chance ------------------------------------------------------------------------------
    def roll(self, sides: int, why: str, seat: int = -1) -> int:
        """One die: from the seeded source, a script or a log; always recorded."""
        value = self._draw(sides, why)
        self._trace_add(value)
        self._check_runaway()
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
        self._check_runaway()
        if self.log is not None:
            for seat, value in zip(seats, values, strict=True):
                self.log.append({"e": "roll", "seat": seat, "sides": sides, "value": value,
                                 "why": why})
        return values

    def roll_face(self, faces: Sequence[Any], why: str, seat: int = -1) -> Any:
        """One roll of a die with these faces (numbers or symbols such as 'titan', 'coin').

        Recorded as the face's 1-based index, so logs replay it and scenarios script it (by
        index or by the face's name)."""
        pick = getattr(self._dice, "draw_face", None)
        if pick is None:
            index = self.roll(len(faces), why, seat)
        else:
            index = pick(tuple(faces), why)
            self._trace_add(index)
            self._check_runaway()
        if self.log is not None:
            self.log.append({"e": "face", "seat": seat, "why": why, "face": faces[index - 1]})
        return faces[index - 1]

    def shuffle(self, cards: list, why: str) -> None:
        """Shuffle a zone in place: a chance event (Fisher-Yates over recorded dice).

        A scripted source may keep the order a scenario set, or impose its own."""
        scripted = getattr(self._dice, "order", None)
        if scripted is not None and scripted(cards, why):
            if self.log is not None:
                self.log.append({"e": "shuffle", "why": why, "n": len(cards), "scripted": True})
            return
        roll = self.roll
        for i in range(len(cards) - 1, 0, -1):
            j = roll(i + 1, why) - 1
            cards[i], cards[j] = cards[j], cards[i]
        if self.log is not None:
            self.log.append({"e": "shuffle", "why": why, "n": len(cards)})

    def draw(self, source: list, count: int, why: str, seat: int = -1,
             into: list | None = None) -> list:
        """Take up to `count` cards from the top (index 0) of a zone, optionally into another.

        Not chance by itself (the pile's order was shuffled), but logged, so a replay shows
        which cards came."""
        taken = source[:count]
        del source[:count]
        if into is not None:
            into.extend(taken)
        if self.log is not None:
            self.log.append({"e": "draw", "seat": seat, "why": why,
                             "cards": [getattr(c, "card", c) for c in taken]})
        return taken

    def draw_random(self, source: list, why: str, seat: int = -1) -> Any:
        """Take one card (or token) at random from an unordered zone, such as a bag: chance."""
        if not source:
            raise IndexError(f"draw from an empty zone ({why})")
        index = self.roll(len(source), why, seat) - 1 if len(source) > 1 else 0
        item = source.pop(index)
        if self.log is not None:
            self.log.append({"e": "draw", "seat": seat, "why": why,
                             "cards": [getattr(item, "card", item)]})
        return item

    def roll_high(self, sides: int, why: str, seats: Sequence[int]) -> int:
        """Each seat rolls one die; a tie for highest re-rolls among the tied; the winner.

        A reusable pattern (first player, turn order), not one game's rule."""
        contenders = seats
        while True:
            values = self.roll_each(sides, why, contenders)
            top = max(values)
            if values.count(top) == 1:
                return contenders[values.index(top)]
            contenders = [s for s, v in zip(contenders, values, strict=True) if v == top]

    # decisions ---------------------------------------------------------------------------
    def choose(self, seat: int, options: Sequence[Any], why: str,
               outcomes: Callable[[Any], dict[str, float]] | None = None,
               names: Callable[[Any], str | None] | None = None) -> Any:
        """One decision by `seat` among legal `options`; a single option is taken unasked.
        `names(option)`, when given, is what the choices report counts an option as (a
        card's name where the option's text carries its instance number); it is asked while a
        self-play report is counting, and by a bot that says it `reads_names` (the probe,
        which takes an option by the name the report gave it), never by a playout."""
        n = len(options)
        if n == 1:
            return options[0]
        if n == 0:
            self.violate(f"no legal option for a decision that cannot pass ({why})")
            raise IllegalChoice(f"no legal options ({why})")
        state = observe(self.state, seat, self.visibility) if self.visibility else self.state
        bot = self.bots[seat]
        if names is not None and getattr(bot, "reads_names", False):
            pick = bot.choose(state, seat, options, why, outcomes, names)
        else:
            pick = bot.choose(state, seat, options, why, outcomes)
        if pick.__class__ is not int or not 0 <= pick < n:
            self.violate(f"a bot chose an option that is not legal ({why})")
            raise IllegalChoice(f"option {pick!r} is not legal ({why}); options: {list(options)}")
        self._trace_add(pick)
        self.decisions += 1
        if not self.decisions % DECISION_CHECK:
            self._check_decisions(seat, why)
        if self._tally:
            self._tally_choice(seat, options, why, pick, names)
        if self.log is not None:
            self.log.append({"e": "choice", "seat": seat, "why": why, "options": list(options),
                             "pick": pick, "value": options[pick]})
        return options[pick]

    def _tally_choice(self, seat: int, options: Sequence[Any], why: str, pick: int,
                      names: Callable[[Any], str | None] | None = None) -> None:
        """Count a decision's size (the branching factor) and, for options that are text
        (a card, an action, a space: numbers are amounts, not things), each label offered to
        this seat (once a decision) and the one picked, keyed (seat, why, label):
        pnp/engine/choices.py. An option's label is `names(option)` where the module gives
        one, else option_label(option)."""
        res = self.result
        sizes = res.branching
        n = len(options)
        sizes[n] = sizes.get(n, 0) + 1
        offers = res.offers
        get = offers.get
        known = LABELS.get
        if names is None:
            labels = {known(o) or option_label(o) for o in options if o.__class__ is str}
        else:
            labels = {names(o) or known(o) or option_label(o)
                      for o in options if o.__class__ is str}
        for label in labels:
            key = (seat, why, label)
            offers[key] = get(key, 0) + 1
        option = options[pick]
        if option.__class__ is str:
            label = (names and names(option)) or option_label(option)
            key = (seat, why, label)
            res.picks[key] = res.picks.get(key, 0) + 1
            opening = res.openings.setdefault((seat, why), [])
            if len(opening) < OPENING_PICKS:
                opening.append(label)

    def recall(self, compute: Callable[..., Any], *args: Any) -> Any:
        """`compute(*args)`: a module's pure computation (no dice, no decisions, no change a
        later step reads; its result never changed by the caller), such as a turn's options
        with their estimates. Here it is simply computed; a search bot's replays, which play
        the same stretch of the game again and again, take it from their first replay of
        that stretch instead (pnp/engine/search.py)."""
        return compute(*args)

    # bookkeeping -------------------------------------------------------------------------
    def event(self, name: str, seat: int = -1) -> None:
        """A named event (counted in GameResult.events, written to the log)."""
        events = self._events
        events[name] = events.get(name, 0) + 1  # a Tally: .get skips its __missing__ call
        if self.log is not None:
            self.log.append({"e": "event", "name": name, "seat": seat})

    def cover(self, kind: str, key: str) -> None:
        """Count a use of something the report checks coverage of (an action space, a card)."""
        self.result.coverage[(kind, key)] += 1

    def violate(self, message: str) -> None:
        """An invariant broke: recorded once per game, never raised in a long run."""
        if message not in self.violations:
            self.violations.append(message)

    def _new_turn(self) -> bool:
        """Whether the turn changed since the budgets last looked (then they count afresh)."""
        turn = self.state.turn
        if turn == self._budget_turn:
            return False
        self._budget_turn, self._turn_steps, self._turn_decisions = (
            turn, self.steps, self.decisions)
        return True

    def _check_decisions(self, seat: int, why: str) -> None:
        if not self._new_turn() and self.decisions - self._turn_decisions > MAX_PER_TURN:
            raise RunawayGame(f"more than {MAX_PER_TURN:,} decisions in turn {self._budget_turn} "
                              f"without the turn ending (the last: seat {seat + 1} deciding "
                              f"'{why}')")

    def step(self, label: str) -> None:
        """A step boundary (a phase ended): invariants and scenario expectations run here."""
        self.steps += 1
        if self.steps - self._turn_steps > MAX_PER_TURN and not self._new_turn():
            raise RunawayGame(f"more than {MAX_PER_TURN:,} steps in turn {self._budget_turn} "
                              f"without the turn ending (the last: '{label}')")
        if self.log is not None:
            st = self.state
            self.log.append({"e": "step", "turn": st.turn, "label": label})
        if self.on_step is not None:
            self.on_step(self, label)


# --------------------------------------------------------------------------- game modules


class GameModule(Protocol):
    """What a rules module offers the driver (pnp/games/<game>.py or a game's own file).

    Required: metadata, new_state, play, finish. Optional, with defaults in pnp.engine.module:
    main_state (scenarios start there), player_counters (derived counters included),
    observation (what a seat may see), invariants (the module's own), coverage_keys (what
    'never used' is measured on), scenario_fields (extra per-player scenario keys), standing
    (the score if the game ended now, where `finish` counts it only at the end).
    """

    def metadata(self, game: Any) -> GameMeta: ...

    def new_state(self, game: Any, players: int) -> State:
        """The state before anything is played (pregame included)."""
        ...

    def play(self, game: Any, ctx: Context, max_turns: int) -> None:
        """Play from ctx.state to the end of the game or the turn cap, calling ctx.step."""
        ...

    def finish(self, game: Any, ctx: Context) -> None:
        """Fill ctx.result from the final state."""
        ...
