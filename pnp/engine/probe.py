"""Is a "never picked" option the game's or the bot's? Ask the game: a probe seat.

`pnp simulate` lists options its bots never pick (PNP-B022) and options whose pickers win
more or less (PNP-B023); under greedy bots either may be a habit of the bot. A probe seat
plays as greedy does except at decisions whose `why` is the one named, where it takes the
option labelled as named whenever it is offered (or at a share of those decisions, from its
own seeded stream), and it may value stats differently. It sits in one seat against greedy
in the others, every seating equally often, on simulate's seeds; the same seeds are played
again with greedy in every seat, and the probe's gain is its win share minus greedy's in the
very seats it held, seat-game by seat-game (a game where the probe never overrode greedy is
the same game, so the pairs cancel most of the luck). The rules are untouched: only what
one seat picks changes.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from pnp.data.model import GameDef
from pnp.engine import bots as bots_mod
from pnp.engine import lineup
from pnp.engine import stats as st
from pnp.engine.choices import option_label
from pnp.engine.core import NO_HINTS
from pnp.engine.guards import limits_for
from pnp.engine.play import play_game
from pnp.engine.registry import crash_site, error_words
from pnp.engine.selfplay import game_seed

#: the name the probe seat plays under while a probe runs
PROBE = "probe"


@dataclass(frozen=True)
class Probe:
    """What the probe seat does differently: take `pick` at `at` (at `share` of the decisions
    that offer it), and/or value stats at `values`."""

    at: str | None = None
    pick: str | None = None
    share: float = 1.0
    values: Mapping[str, float] = field(default_factory=dict)

    def describe(self) -> str:
        what = [f"takes {self.pick!r} at {self.at!r}"
                + ("" if self.share >= 1 else f" at {self.share:.0%} of its chances")] \
            if self.at else []
        what += [f"values {stat} at {v:g}" for stat, v in self.values.items()]
        return " and ".join(what)


@dataclass
class ProbeResult:
    """The probe's seat-games against the same seats under greedy, and how often it acted."""

    games: int
    shares: list[float]  # the probe's win share, per seat-game
    base: list[float]  # greedy's win share in the same seat and game
    offered: int  # decisions where the probe could take its pick
    overrides: int  # decisions where the probe picked otherwise than greedy would have
    asked: Counter  # (why, option label) -> times offered to the probe seat, for hints

    @property
    def rate(self) -> float:
        return sum(self.shares) / len(self.shares)

    @property
    def greedy_rate(self) -> float:
        return sum(self.base) / len(self.base)

    def diffs(self) -> list[float]:
        """The probe's win share less greedy's, seat-game by seat-game."""
        return [m - b for m, b in zip(self.shares, self.base, strict=True)]

    def gain(self) -> tuple[float, float, float]:
        """The probe's gain over greedy in the same seats, with its 95% t interval."""
        return st.mean_ci(self.diffs())


class ProbeBot:
    """Greedy (or `opponent`) with one seat's pick or stat worths changed; it counts the
    decisions where it picked otherwise than the plain bot would have."""

    #: the context hands this bot a decision's option names (a card's name where the option's
    #: text is an instance number), so --pick takes the name the choices report printed
    reads_names = True

    def __init__(self, probe: Probe, inner: Any, plain: Any | None, draw: Callable[[], float]):
        self.probe, self.inner, self.plain, self.draw = probe, inner, plain, draw
        self.offered = self.overrides = 0

    def choose(self, state: Any, seat: int, options: Sequence[Any], why: str,
               outcomes: Any, names: Callable[[Any], str | None] | None = None) -> int:
        pick = self.inner.choose(state, seat, options, why, outcomes)
        plain = pick if self.plain is None else \
            self.plain.choose(state, seat, options, why, outcomes)
        probe = self.probe
        if probe.at is not None and why == probe.at:
            for i, option in enumerate(options):
                if isinstance(option, str) and \
                        ((names and names(option)) or option_label(option)) == probe.pick:
                    self.offered += 1
                    if probe.share >= 1 or self.draw() < probe.share:
                        pick = i
                    break
        self.overrides += pick != plain
        return pick


@contextmanager
def probe_seat(probe: Probe, opponent: str = "greedy") -> Iterator[list[ProbeBot]]:
    """Make the bot name PROBE play `probe` while the block runs; yields every probe bot made
    (their counts of offers and overrides)."""
    base = bots_mod.bot_factory(opponent)
    made: list[ProbeBot] = []

    def factory(seed: int, seat: int, meta: Any, hints: Any = NO_HINTS) -> ProbeBot:
        plain = None
        if probe.values:
            plain = base(seed, seat, meta, hints)
            meta = dataclasses.replace(meta, bot_values={**meta.bot_values, **probe.values})
        bot = ProbeBot(probe, base(seed, seat, meta, hints), plain,
                       random.Random(f"probe:{seed}:{seat}").random)
        made.append(bot)
        return bot

    before = bots_mod.BOTS.get(PROBE)
    bots_mod.BOTS[PROBE] = factory
    try:
        yield made
    finally:
        if before is None:
            del bots_mod.BOTS[PROBE]
        else:
            bots_mod.BOTS[PROBE] = before


def games_to_play(games: int, players: int, opponent: str = "greedy") -> int:
    """`games` rounded up to whole rounds of the probe line-up's seatings."""
    return lineup.balanced_games(games, (PROBE,) + (opponent,) * (players - 1), players)


@dataclass
class PairedSeats:
    """One bot's seat-games beside the same seats' under the opponent alone."""

    held: list[tuple[int, int, float]]  # (game, seat, the bot's win share) per seat-game
    base: list[float]  # the opponent's win share in the same seat and game
    seconds: float  # CPU seconds of the line-up's games
    plain_seconds: float  # ... and of the opponent-alone games played (not those shared)


def share(winners: Sequence[int], players: int, seat: int) -> float:
    """`seat`'s share of a game's `winners` (ties split it; no winner: 0)."""
    winners = [w for w in winners if 0 <= w < players]
    return 1 / len(winners) if seat in winners else 0.0


def one_seat_against(players: int, games: int, names: Sequence[str], bot: str,
                     opponent: str, play: Callable[[int, Sequence[str]], Any],
                     progress: Callable[[int, list], None] | None = None,
                     baseline: dict[int, Sequence[int]] | None = None) -> PairedSeats:
    """Games 0..games-1 of the line-up `names` (seating i for game i), then the same games
    with `opponent` alone; `play(i, seats)` plays game i (the caller's seeds, limits and
    error policy), `seats` being `(opponent,)` in the second half. Every seat `bot` held gets
    its win share in both, so the two pair up seat-game by seat-game. `baseline`, game number
    to the opponent-alone game's winners, is read before playing one and filled after: runs on
    the same seeds share it, and an opponent-alone game is played once. `progress(done, held)`
    after each game played, `done` counting on through the second half."""
    held: list[tuple[int, int, float]] = []
    started = time.process_time()
    for i in range(games):
        seats = lineup.seating(names, players, i)
        result = play(i, seats)
        held += [(i, s, share(result.winners, players, s))
                 for s, name in enumerate(seats) if name == bot]
        if progress:
            progress(i + 1, held)
    middle = time.process_time()
    plain = {} if baseline is None else baseline  # winners only (not the result: memory)
    played = games
    for i in range(games):
        if i not in plain:
            plain[i] = play(i, (opponent,)).winners
            played += 1
            if progress:
                progress(played, held)
    base = [share(plain[i], players, s) for i, s, _ in held]
    return PairedSeats(held, base, middle - started, time.process_time() - middle)


def run_probe(game: GameDef, players: int, games: int, seed: int, probe: Probe,
              opponent: str = "greedy",
              progress: Callable[[int], None] | None = None,
              baseline: dict[int, Sequence[int]] | None = None) -> ProbeResult:
    """Play `games` games (rounded up to whole rounds of seatings) with one probe seat, then
    the same seeds with `opponent` alone (those kept in `baseline`, shared by probes of one
    game, count and seed, are not played again). A game that crashes or breaks a rule check
    ends the probe with ProbeError: it measures play, not a broken module (`pnp simulate`
    reports those)."""
    names = (PROBE,) + (opponent,) * (players - 1)
    total = games_to_play(games, players, opponent)
    asked: Counter = Counter()

    def play(i: int, seats: Sequence[str]) -> Any:
        result = _played(i, game, players, game_seed(seed, i), seats)
        if PROBE in seats:
            s = seats.index(PROBE)
            asked.update({(why, option): n for (seat, why, option), n in result.offers.items()
                          if seat == s})
        return result

    with probe_seat(probe, opponent) as made:
        paired = one_seat_against(players, total, names, PROBE, opponent, play,
                                  progress and (lambda done, _: progress(done)), baseline)
    return ProbeResult(total, [h[2] for h in paired.held], paired.base,
                       sum(b.offered for b in made), sum(b.overrides for b in made), asked)


class ProbeError(Exception):
    """A probe game crashed or broke a rule check."""


def _played(i: int, game: GameDef, players: int, seed: int, seats: Sequence[str]) -> Any:
    """Game `i` of the probe, played; ProbeError when it crashes or breaks a rule check."""
    try:
        result = play_game(game, players, seed, seats, invariants="none",
                           limits=limits_for(False))
    except Exception as err:  # a rules module's own error: said in one line, not a traceback
        raise ProbeError(f"game {i + 1} crashed: {error_words(err)} "
                         f"(at {crash_site(game, err)})") from err
    if result.violations:
        raise ProbeError(f"game {i + 1} broke a rule check: {result.violations[0]}")
    return result


#: what a worth sweep tries, as multiples of each stat's own worth: nothing, half, twice
SWEEP_FACTORS = (0.0, 0.5, 2.0)
#: family-wise error of a worth sweep's blind-spot test (Holm over every probe of the sweep)
SWEEP_ALPHA = 0.05


def worths_of(game: GameDef) -> dict[str, float]:
    """The worth of each stat the bot weighs, by name: GameMeta.bot_values, 1 where a stat
    has none (as the greedy bot reads them)."""
    from pnp.engine.play import rules

    meta = rules(game).metadata(game)
    return {s: float(meta.bot_values.get(s, 1.0)) for s in sorted({*game.stats, *meta.bot_values})}


def sweep_games(game: GameDef, players: int, games: int, opponent: str = "greedy") -> int:
    """The games a worth sweep plays: one probe per stat and factor, and the opponent-alone
    games once."""
    per_probe = games_to_play(games, players, opponent)
    return (len(worths_of(game)) * len(SWEEP_FACTORS) + 1) * per_probe


def worth_sweep(game: GameDef, players: int, games: int, seed: int, opponent: str = "greedy",
                progress: Callable[[int], None] | None = None) -> list[dict[str, Any]]:
    """Each stat the bot weighs (GameMeta.bot_values, 1 where a stat has none), valued by the
    probe seat at each of SWEEP_FACTORS times its worth, one probe each on the same seeds: a
    worth that wins more, Holm-corrected over the whole sweep, is a blind spot of the bot's
    worths (a stat no rule reads, valued as if it counted, is the usual one). `progress` gets
    the games played so far over the whole sweep (sweep_games of them in all: the
    opponent-alone games are played once and shared by every probe)."""
    worths = worths_of(game)
    per_probe = games_to_play(games, players, opponent)
    baseline: dict[int, Sequence[int]] = {}
    rows: list[dict[str, Any]] = []
    for stat, worth in worths.items():
        for factor in SWEEP_FACTORS:
            done = len(rows) * per_probe + len(baseline)
            result = run_probe(game, players, games, seed, Probe(values={stat: worth * factor}),
                               opponent, progress and (lambda n, d=done: progress(d + n)),
                               baseline)
            diffs = result.diffs()
            gain, lo, hi = st.mean_ci(diffs)
            rows.append({"stat": stat, "worth": worth, "factor": factor,
                         "probe_worth": round(worth * factor, 6), "seat_games": len(diffs),
                         "overrides": result.overrides, "gain": round(gain, 4),
                         "gain_ci95": [round(lo, 4), round(hi, 4)],
                         "p": st.mean_p_value(diffs)})
    for row, q in zip(rows, st.holm([r["p"] for r in rows]), strict=True):
        row["p_holm"] = round(q, 4)
        row["p"] = round(row["p"], 4)
        row["blind_spot"] = q < SWEEP_ALPHA and row["gain"] > 0
    return rows
