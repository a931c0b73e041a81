"""Self-play harness: play N seeded games and aggregate them (where they run: executor.py).

Each game's seed is derived from the base seed and the game's index, and its bots' seats from
the line-up and the index (pnp/engine/lineup.py), so a game is fully determined by (base seed,
index). Results are folded in index
order (batches merge exactly), so the report is identical for any executor and worker count.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from pnp.engine import lineup
from pnp.engine import stats as st
from pnp.engine.choices import ChoiceTally, choices_document
from pnp.engine.drama import game_drama
from pnp.engine.result import ALL_OUT, COMPLETED, CRASH_PREFIX, TIMEOUT, GameResult

if TYPE_CHECKING:
    from pnp.data.model import GameDef

#: a rules engine entry point: play_game(game, players, seed, bots, *, invariants, log, max_turns)
PlayFn = Callable[..., GameResult]
#: called with the number of games finished so far
ProgressFn = Callable[[int], None]

#: what GameResult.ended holds when the engine raised: reported as an invariant violation
CRASHED = "crashed"
#: bots used when none are named: one kind in every seat, so a seat's win rate is about the
#: seat and not the line-up (greedy: it plays every game's own estimates at little cost)
DEFAULT_BOTS = ("greedy",)
#: invariant-check modes passed through to the engine
INVARIANT_MODES = ("all", "sample", "none")


@dataclass(frozen=True)
class SimConfig:
    """What to play: the same config and game always give the same games."""

    games: int
    players: int
    seed: int = 1
    bots: tuple[str, ...] = DEFAULT_BOTS
    variant: str | None = None
    invariants: str = "sample"
    max_turns: int | None = None
    workers: int = 1
    log_games: int = 0  # event logs are kept for games with index < log_games
    #: why the line-up is the game's own default (game.yaml `selfplay: why:`); None: it is not
    lineup_because: str | None = None


def game_seed(base: int, index: int) -> int:
    """The seed of game `index`: a hash of (base, index), stable across Python versions and W."""
    digest = hashlib.blake2b(f"pnp-selfplay:{base}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") & ((1 << 63) - 1)


def seating(bots: Sequence[str], players: int, index: int) -> tuple[str, ...]:
    """Bot per seat for game `index`: every distinct arrangement of the line-up in turn, so
    over a balanced run (lineup.balanced_games) each is played equally often."""
    return lineup.seating(tuple(bots), players, index)


# --------------------------------------------------------------------------- playing


@dataclass
class PlayedGame:
    """One finished game as the harness keeps it: its index, result and (maybe) its event log."""

    index: int
    result: GameResult
    log: list | None = None


def play_one(game: GameDef, config: SimConfig, index: int, play: PlayFn) -> PlayedGame:
    """Play game `index`; an engine exception becomes a crashed result, never a lost run."""
    seed = game_seed(config.seed, index)
    bots = seating(config.bots, config.players, index)
    log: list | None = [] if index < config.log_games else None
    try:
        result = play(game, config.players, seed, bots, invariants=config.invariants, log=log,
                      max_turns=config.max_turns)
    except (Exception, SystemExit) as exc:  # a rules bug must be reported with its seed, not
        # abort the run (sys.exit in a rules module would otherwise end pnp with exit 0)
        from pnp.engine.registry import crash_site, error_words

        result = GameResult(
            game=getattr(game, "id", "?"), seed=seed, players=config.players, bots=bots,
            variant=config.variant, ended=CRASHED,
            violations=[f"{CRASH_PREFIX}{error_words(exc)} (at {crash_site(game, exc)})"])
    return PlayedGame(index, result, log)


def default_play() -> PlayFn:
    """The real rules engine, imported late so tests and `--help` never need it."""
    from pnp.engine.play import play_game

    return play_game


def known_bots() -> list[str]:
    """Bot names the engine offers (for validating --bots)."""
    from pnp.engine.bots import BOTS

    return sorted(BOTS)


def bot_problem(name: str) -> str | None:
    """What is wrong with a bot name's budget ('search:0', 'random:3'), or None."""
    from pnp.engine.bots import bot_factory

    try:
        bot_factory(name)
    except ValueError as exc:
        return str(exc)
    return None


# --------------------------------------------------------------------------- aggregating


@dataclass
class Aggregate:
    """Everything a report needs, folded one game at a time in index order.

    Per-game columns are kept (a few numbers a game) so `compare` can build intervals for
    differences; counters are summed.
    """

    players: int
    games: int = 0
    turns: list[int] = field(default_factory=list)
    ended: Counter = field(default_factory=Counter)
    completed: list[int] = field(default_factory=list)  # 1/0 per game
    timed_out: list[int] = field(default_factory=list)
    eliminated: list[int] = field(default_factory=list)  # a player went out in this game
    elimination_causes: Counter = field(default_factory=Counter)
    eliminated_players: int = 0
    first_elimination_turns: list[int] = field(default_factory=list)
    #: shared-win credit in whole units of 1/credit_unit (integers: batches merge exactly)
    seat_win_units: list[int] = field(default_factory=list)
    seat_win_columns: list[list[float]] = field(default_factory=list)  # per seat, credit per game
    bot_win_units: Counter = field(default_factory=Counter)
    bot_seats: Counter = field(default_factory=Counter)  # seat-games each bot played
    margins: list[int] = field(default_factory=list)
    margin_shares: list[float] = field(default_factory=list)  # margin / winner's score
    ties: int = 0
    no_winner: int = 0
    stat_values: dict[str, list[int]] = field(default_factory=dict)  # every seat's final value
    stat_game_means: dict[str, list[float]] = field(default_factory=dict)  # per game: seats' mean
    space_counts: Counter = field(default_factory=Counter)
    chart_counts: Counter = field(default_factory=Counter)
    cap_clips: Counter = field(default_factory=Counter)
    floor_clips: Counter = field(default_factory=Counter)
    events: Counter = field(default_factory=Counter)
    coverage: Counter = field(default_factory=Counter)  # (kind, key) -> uses: cards, actions
    event_columns: dict[str, list[int]] = field(default_factory=dict)  # per game counts
    violations: dict[str, dict] = field(default_factory=dict)  # message -> games, first game/seed
    decisions: int = 0
    rolls: int = 0
    supply_low: dict[str, list[int]] = field(default_factory=dict)  # per game: fewest left
    faction_win_units: Counter = field(default_factory=Counter)  # win credit units per faction
    seat_factions: Counter = field(default_factory=Counter)  # (seat, faction) -> games
    #: per game with a lead record (pnp/engine/drama.py): lead changes, the share of turns
    #: the winner trailed, the share of the game before it led for good, a comeback (1/0)
    lead_changes: list[int] = field(default_factory=list)
    trailing_shares: list[float] = field(default_factory=list)
    decided_at: list[float] = field(default_factory=list)
    comebacks: list[int] = field(default_factory=list)
    #: options offered and picked, per option, and decisions per size (pnp/engine/choices.py)
    choices: ChoiceTally = field(default_factory=ChoiceTally)
    #: the first game's outcome (turns, scores, winners, decisions, dice, bots per seat), and
    #: whether any other game's differed: games that all play out alike measure one game
    first_outcome: tuple | None = None
    varied: bool = False
    #: (index, seed) of the first game that hit the turn cap: the game PNP-B002 names
    first_timeout: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        if not self.seat_win_units:
            self.seat_win_units = [0] * self.players
            self.seat_win_columns = [[] for _ in range(self.players)]
        #: 1/k of a win for each of k tied winners is a whole number of these units
        self.credit_unit = math.lcm(*range(1, max(1, self.players) + 1))

    @property
    def seat_wins(self) -> list[float]:
        """Shared-win credit per seat (exact whatever the batching, see seat_win_units)."""
        return [u / self.credit_unit for u in self.seat_win_units]

    @property
    def bot_wins(self) -> Counter:
        return Counter({bot: u / self.credit_unit for bot, u in self.bot_win_units.items()})

    def seat_rows(self) -> list[dict[str, Any]]:
        """Per seat: its number, win credit, win rate with its Wilson interval, and the
        faction it played in every game when there is one (the rows of a report's seats)."""
        n = self.games
        rows = []
        for s, wins in enumerate(self.seat_wins):
            row = {"seat": s + 1, "wins": _r(wins), "win_rate": _r(wins / n) if n else 0.0,
                   "ci95": [_r(x) for x in st.wilson(wins, n)]}
            faction = self.seat_faction(s)
            if faction:
                row["faction"] = faction
            rows.append(row)
        return rows

    @property
    def faction_seats(self) -> Counter:
        """Seat-games each faction played (from seat_factions, which keeps them per seat)."""
        out: Counter = Counter()
        for (_, faction), games in self.seat_factions.items():
            out[faction] += games
        return out

    def seat_faction(self, seat: int) -> str | None:
        """The faction the seat played in every game (Antike's seats fix the nations), else
        None: the report names it beside the seat, so a designer tuning by turn order or by
        nation need not work out which seat is which."""
        for (s, faction), games in self.seat_factions.items():
            if s == seat:
                return faction if games == self.games else None
        return None

    @property
    def faction_wins(self) -> Counter:
        """Shared-win credit per faction (a city-state, a civilization)."""
        return Counter({f: u / self.credit_unit for f, u in self.faction_win_units.items()})

    def add(self, index: int, r: GameResult) -> None:
        """Fold one game in; callers must add games in index order (floats sum in that order)."""
        g = self.games
        self.games += 1
        self.turns.append(r.turns)
        self.ended[r.ended] += 1
        self.completed.append(int(r.ended == COMPLETED))
        self.timed_out.append(int(r.ended == TIMEOUT))
        if r.ended == TIMEOUT and self.first_timeout is None:
            self.first_timeout = (index, r.seed)
        self.eliminated.append(int(bool(r.eliminations)))
        if r.eliminations:
            self.first_elimination_turns.append(min(e.turn for e in r.eliminations))
        self.eliminated_players += len(r.eliminations)
        for e in r.eliminations:
            self.elimination_causes[e.cause or "unknown"] += 1
        winners = tuple(w for w in r.winners if 0 <= w < self.players)
        credit = 1.0 / len(winners) if winners else 0.0
        units = self.credit_unit // len(winners) if winners else 0
        for seat in range(self.players):
            won = seat in winners
            self.seat_win_units[seat] += units if won else 0
            self.seat_win_columns[seat].append(credit if won else 0.0)
            bot = r.bots[seat] if seat < len(r.bots) else "?"
            self.bot_seats[bot] += 1
            self.bot_win_units[bot] += units if won else 0
        if not winners:
            self.no_winner += 1
        elif len(winners) > 1:
            self.ties += 1
        if winners:
            self.margins.append(r.margin)
            top = r.scores[winners[0]] if len(r.scores) > winners[0] else 0
            if top > 0:
                self.margin_shares.append(r.margin / top)
        for seat_stats in r.final_stats:
            for stat, value in seat_stats.items():
                self.stat_values.setdefault(stat, []).append(value)
        for stat in sorted({s for seat_stats in r.final_stats for s in seat_stats}):
            vals = [s[stat] for s in r.final_stats if stat in s]
            self.stat_game_means.setdefault(stat, []).append(st.mean(vals))
        self.space_counts.update(r.space_counts)
        self.chart_counts.update(r.chart_counts)
        self.cap_clips.update(r.cap_clips)
        self.floor_clips.update(r.floor_clips)
        self.events.update(r.events)
        self.coverage.update(r.coverage)
        for name in set(self.event_columns) | set(r.events):
            column = self.event_columns.setdefault(name, [0] * g)
            column.append(r.events.get(name, 0))
        for message in r.violations:
            v = self.violations.setdefault(message, {"message": message, "games": 0,
                                                     "first_game": index, "first_seed": r.seed})
            v["games"] += 1
        self.decisions += r.decisions
        self.rolls += r.rolls
        for name, left in sorted(r.supply_low.items()):
            self.supply_low.setdefault(name, []).append(left)
        lead = game_drama(r.leaders_by_turn, winners)
        if lead is not None:
            self.lead_changes.append(lead["lead_changes"])
            self.trailing_shares.append(lead["trailing_share"])
            self.decided_at.append(lead["decided_at"])
            self.comebacks.append(lead["comeback"])
        self.choices.add(r.offers, r.picks, r.branching, self.players, winners, units,
                         r.openings)
        outcome = (r.turns, tuple(r.scores), winners, r.decisions, r.rolls, tuple(r.bots))
        if self.first_outcome is None:
            self.first_outcome = outcome
        elif outcome != self.first_outcome:
            self.varied = True
        for seat, faction in enumerate(r.factions):
            if faction:
                self.faction_win_units[faction] += units if seat in winners else 0
                self.seat_factions[(seat, faction)] += 1

    def merge(self, later: Aggregate) -> None:
        """Fold in the aggregate of the games that come right after these (a worker's batch).

        Folding batches in index order gives exactly what adding their games one by one gives:
        columns are concatenated, counts are integers, and dicts keep first-seen order.
        """
        if later.players != self.players:
            raise ValueError(f"cannot merge {later.players}-player games into {self.players}")
        g = self.games
        if self.first_timeout is None:
            self.first_timeout = later.first_timeout
        if later.games:
            if not g:
                self.first_outcome = later.first_outcome
            self.varied = (self.varied or later.varied
                           or later.first_outcome != self.first_outcome)
        self.games += later.games
        for name in ("turns", "completed", "timed_out", "eliminated", "first_elimination_turns",
                     "margins", "margin_shares", "lead_changes", "trailing_shares",
                     "decided_at", "comebacks"):
            getattr(self, name).extend(getattr(later, name))
        for name in ("ended", "elimination_causes", "bot_seats", "bot_win_units", "space_counts",
                     "chart_counts", "coverage", "cap_clips", "floor_clips", "events",
                     "faction_win_units", "seat_factions"):
            getattr(self, name).update(getattr(later, name))
        for supply, lows in later.supply_low.items():
            self.supply_low.setdefault(supply, []).extend(lows)
        for seat in range(self.players):
            self.seat_win_units[seat] += later.seat_win_units[seat]
            self.seat_win_columns[seat].extend(later.seat_win_columns[seat])
        for name in ("stat_values", "stat_game_means"):
            mine = getattr(self, name)
            for stat, values in getattr(later, name).items():
                mine.setdefault(stat, []).extend(values)
        for name in set(self.event_columns) | set(later.event_columns):
            column = self.event_columns.setdefault(name, [0] * g)
            column.extend(later.event_columns.get(name) or [0] * later.games)
        for message, v in later.violations.items():
            mine = self.violations.setdefault(message, dict(v, games=0))
            mine["games"] += v["games"]
        self.eliminated_players += later.eliminated_players
        self.ties += later.ties
        self.no_winner += later.no_winner
        self.decisions += later.decisions
        self.rolls += later.rolls
        self.choices.merge(later.choices)


@dataclass
class Simulation:
    """A finished run: its config, the aggregate, wall time and any event logs kept."""

    game: Any
    config: SimConfig
    aggregate: Aggregate
    seconds: float
    logs: list[tuple[int, int, tuple[str, ...], list]] = field(default_factory=list)
    #: kind -> every key the game could report as used (what "never used" is measured on)
    coverage_keys: dict[str, list[str]] = field(default_factory=dict)
    #: (index, games of the full run, the game's seed) when only one game of a run was
    #: played (run_one)
    only: tuple[int, int, int] | None = None

    @property
    def broken(self) -> bool:
        """True when any invariant broke (or the engine crashed): the command exits 1."""
        return bool(self.aggregate.violations)


def run_simulation(game: GameDef, config: SimConfig, play: PlayFn | None = None,
                   progress: ProgressFn | None = None, executor: Any = None) -> Simulation:
    """Play config.games games and fold them; `play` is injectable so tests can pass a fake.

    The games run on `executor` (pnp.engine.executor), or, when none is given, on one made for
    config.workers and closed again before this returns.
    """
    from pnp.engine import executor as ex

    job = ex.Job(game, config, play or default_play())
    started = time.perf_counter()
    if executor is None:
        with ex.make_executor(config.workers) as own:
            [outcome] = ex.run_jobs([job], own, progress)
    else:
        [outcome] = ex.run_jobs([job], executor, progress)
    return Simulation(game, config, outcome.aggregate, time.perf_counter() - started,
                      outcome.logs, coverage_keys(game, play))


def run_one(game: GameDef, config: SimConfig, index: int, play: PlayFn | None = None
            ) -> Simulation:
    """Game `index` of the run `config` describes, alone, in this process: its seed and seats
    are the full run's, so a game a finding names (the first to hit the turn cap, say) can be
    looked at by itself, with its event log when config.log_games asks for one."""
    from pnp.engine import executor as ex

    one = replace(config, games=1, log_games=index + 1 if config.log_games else 0)
    started = time.perf_counter()
    batch = ex.play_batch(ex.Job(game, one, play or default_play()), 0, index, index + 1)
    return Simulation(game, one, batch.aggregate, time.perf_counter() - started, batch.logs,
                      coverage_keys(game, play),
                      only=(index, config.games, game_seed(config.seed, index)))


def coverage_keys(game: Any, play: PlayFn | None = None) -> dict[str, list[str]]:
    """What the game's coverage is measured on: the rules module's keys when the real engine
    plays (cards, action spaces, ...), else the keys the data suggests."""
    from pnp.engine.module import default_coverage_keys

    if play is None:
        from pnp.engine.play import rules
        from pnp.engine.registry import NoEngine

        try:
            return rules(game).coverage_keys(game)
        except NoEngine:
            pass
    return default_coverage_keys(game)


# --------------------------------------------------------------------------- the report document

SCHEMA_VERSION = 1


def _r(x: float, digits: int = 4) -> float:
    """Round for the document: stable, readable JSON (ints stay ints, -0.0 shows as 0.0)."""
    if isinstance(x, int):
        return x
    return round(x, digits) + 0.0


def _histogram(values: Sequence[int]) -> dict[str, int]:
    counts = Counter(values)
    return {str(v): counts[v] for v in sorted(counts)}


def _space_table(game: Any, counts: Counter) -> dict[str, dict[str, int]]:
    """{track: {space: landings}} in board order, every defined space listed (zeros included)."""
    table: dict[str, dict[str, int]] = {}
    tracks = getattr(game, "tracks", {}) or {}
    for track_id, track in tracks.items():
        by_index = {s.index: s.id for s in track.spaces}
        row = {s.id: 0 for s in track.spaces}
        for (t, space), n in counts.items():
            if t == track_id:
                key = by_index.get(space, str(space)) if isinstance(space, int) else str(space)
                row[key] = row.get(key, 0) + n
        table[track_id] = row
    for (t, space), n in sorted(counts.items(), key=lambda kv: (str(kv[0][0]), str(kv[0][1]))):
        if t not in tracks:  # the engine reported a track the data does not define
            table.setdefault(str(t), {})[str(space)] = table.get(str(t), {}).get(str(space), 0) + n
    return table


def _chart_table(game: Any, counts: Counter) -> dict[str, dict[str, int]]:
    """{chart: {roll label: results}} with every row listed; keys are (chart id, roll)."""
    table: dict[str, dict[str, int]] = {}
    charts = getattr(game, "charts", {}) or {}
    for chart_id, chart in charts.items():
        row = {r.roll_label: 0 for r in chart.rows}
        for (c, roll), n in counts.items():
            if c == chart_id:
                match = next((r for r in chart.rows if r.low <= roll <= r.high), None) \
                    if isinstance(roll, int) else None
                key = match.roll_label if match else str(roll)
                row[key] = row.get(key, 0) + n
        table[chart_id] = row
    for (c, roll), n in sorted(counts.items(), key=lambda kv: (str(kv[0][0]), str(kv[0][1]))):
        if c not in charts:
            table.setdefault(str(c), {})[str(roll)] = table.get(str(c), {}).get(str(roll), 0) + n
    return table


def _coverage_table(keys: dict[str, list[str]], counts: Counter) -> dict[str, dict[str, int]]:
    """{kind: {key: uses}}: every key the game declares (zeros included), in its order, then any
    key the rules reported that was not declared."""
    table = {kind: {k: 0 for k in ks} for kind, ks in keys.items()}
    for (kind, key), n in sorted(counts.items(), key=lambda kv: (str(kv[0][0]), str(kv[0][1]))):
        row = table.setdefault(str(kind), {})
        row[str(key)] = row.get(str(key), 0) + n
    return table


def _never_seen(game: Any, spaces: dict, charts: dict,
                coverage: dict | None = None, keys: dict | None = None) -> dict[str, list[dict]]:
    """Spaces, chart rows and declared coverage keys (cards, action spaces) with no count.
    Start spaces are left out: pawns begin there, and on a path (not a loop) nothing can land
    on them again."""
    missing_spaces = []
    for track_id, track in (getattr(game, "tracks", {}) or {}).items():
        for s in track.spaces:
            if not s.start and spaces.get(track_id, {}).get(s.id, 0) == 0:
                missing_spaces.append({"track": track_id, "space": s.id, "name": s.name})
    missing_rows = []
    for chart_id, chart in (getattr(game, "charts", {}) or {}).items():
        for r in chart.rows:
            if charts.get(chart_id, {}).get(r.roll_label, 0) == 0:
                missing_rows.append({"chart": chart_id, "roll": r.roll_label,
                                     "result": r.result_label})
    unused = [{"kind": kind, "key": k} for kind, ks in (keys or {}).items() for k in ks
              if not (coverage or {}).get(kind, {}).get(k)]
    return {"spaces": missing_spaces, "chart_results": missing_rows, "coverage": unused}


def summarize(sim: Simulation) -> dict[str, Any]:
    """The simulate JSON document (without findings): identical for identical inputs and any W,
    apart from `seconds` and `games_per_second`."""
    a, c, game = sim.aggregate, sim.config, sim.game
    n = a.games
    seat_wins, bot_wins = a.seat_wins, a.bot_wins
    fair = (sum(seat_wins) / (n * c.players)) if n else 0.0
    seats = a.seat_rows()
    bots = []
    for bot in dict.fromkeys(c.bots):
        seat_games = a.bot_seats.get(bot, 0)
        wins = bot_wins.get(bot, 0.0)
        bots.append({"bot": bot, "seat_games": seat_games, "wins": _r(wins),
                     "win_rate": _r(wins / seat_games) if seat_games else 0.0,
                     "ci95": [_r(x) for x in st.wilson(wins, seat_games)]})
    stats_doc = {}
    bounds = getattr(game, "stats", {}) or {}
    for stat in list(bounds) + sorted(set(a.stat_values) - set(bounds)):
        values = a.stat_values.get(stat)
        if not values:
            continue
        stats_doc[stat] = {"p5": _r(st.quantile(values, 0.05)), "p50": _r(st.quantile(values, 0.5)),
                           "p95": _r(st.quantile(values, 0.95)), "mean": _r(st.mean(values)),
                           "min": min(values), "max": max(values)}
    spaces = _space_table(game, a.space_counts)
    charts = _chart_table(game, a.chart_counts)
    coverage = _coverage_table(sim.coverage_keys, a.coverage)
    completed, timeouts, eliminations = sum(a.completed), sum(a.timed_out), sum(a.eliminated)
    turns = {k: _r(v) for k, v in st.describe(a.turns).items()}
    turns["min"] = min(a.turns) if a.turns else 0
    turns["histogram"] = _histogram(a.turns)
    margin = {k: _r(v) for k, v in st.describe(a.margins).items()}
    margin.update(histogram=_histogram(a.margins), ties=a.ties,
                  negative=sum(1 for x in a.margins if x < 0),
                  tie_rate=_r(a.ties / n) if n else 0.0, no_winner=a.no_winner,
                  share_of_winning_score_p50=_r(st.quantile(a.margin_shares, 0.5)))
    alike = n > 1 and not a.varied  # one game repeated (PNP-B027): its tests stand down
    return {
        "schema_version": SCHEMA_VERSION,
        "game": getattr(game, "id", str(game)),
        "variant": c.variant,
        "games": n,
        "players": c.players,
        "seed": c.seed,
        "invariants": c.invariants,
        "max_turns": c.max_turns,
        "seconds": round(sim.seconds, 3),
        "games_per_second": round(n / sim.seconds, 1) if sim.seconds > 0 else 0.0,
        **({"only_game": {"game": sim.only[0], "of": sim.only[1], "seed": sim.only[2]}}
           if sim.only else {}),
        "turns": turns,
        "outcomes": {
            "completed": completed, "timeouts": timeouts, "eliminations": eliminations,
            "all_eliminated": a.ended.get(ALL_OUT, 0), "crashed": a.ended.get(CRASHED, 0),
            "completion_rate": _r(completed / n) if n else 0.0,
            "timeout_rate": _r(timeouts / n) if n else 0.0,
            "elimination_rate": _r(eliminations / n) if n else 0.0,
            "eliminated_players": a.eliminated_players,
            "all_alike": alike,
            "first_timeout": ({"game": a.first_timeout[0], "seed": a.first_timeout[1]}
                              if a.first_timeout else None),
            "elimination_causes": dict(sorted(a.elimination_causes.items())),
            "first_elimination_turn": {k: _r(v) for k, v in
                                       st.describe(a.first_elimination_turns).items()},
        },
        "fair_share": _r(fair),
        "lineup": {"bots": list(lineup.pool(c.bots, c.players)),
                   "seatings": 1 if len(c.bots) == 1 else lineup.count(c.bots, c.players),
                   **({"default_because": c.lineup_because} if c.lineup_because else {})},
        "seats": seats,
        "bots": bots,
        "margin": margin,
        "stats": stats_doc,
        "spaces": spaces,
        "charts": charts,
        "coverage": coverage,
        "never_seen": _never_seen(game, spaces, charts, coverage, sim.coverage_keys),
        "cap_clips": {stat: {"total": k, "per_game": _r(k / n) if n else 0.0}
                      for stat, k in sorted(a.cap_clips.items())},
        "floor_clips": {stat: {"total": k, "per_game": _r(k / n) if n else 0.0}
                        for stat, k in sorted(a.floor_clips.items())},
        "events": {name: {"total": a.events[name], "per_game": _r(a.events[name] / n),
                          "games": sum(1 for v in a.event_columns[name] if v)}
                   for name in sorted(a.events)},
        "decisions_per_game": _r(a.decisions / n, 2) if n else 0.0,
        "rolls_per_game": _r(a.rolls / n, 2) if n else 0.0,
        "violations": sorted(a.violations.values(), key=lambda v: (v["first_game"], v["message"])),
        "lead": _lead_table(a),
        "supplies": _supply_table(game, a),
        "factions": _faction_table(a),
        "choices": choices_document(a.choices, n, a.credit_unit, alike=alike),
        "findings": [],
    }


#: the share of games a box should serve: component needs are reported at this percentile
SUPPLY_QUANTILE = 0.99


def _supply_table(game: Any, a: Aggregate) -> dict[str, dict[str, Any]]:
    """Per supply: the box's stock and what games needed out of it at once (stock minus the
    fewest tokens left), at the median, the 99th percentile and the worst game; where the
    rules let a supply run out, how often and by how much it did."""
    from pnp.engine.components import supplies

    stock = supplies(game)
    out = {}
    for name in list(stock) + sorted(set(a.supply_low) - set(stock)):
        lows = a.supply_low.get(name)
        if not lows or name not in stock:
            continue
        box, may_run_out = stock[name]
        need = [box - x for x in lows]
        if box == 0 and not any(need):  # a supply this variant leaves out of the box
            continue
        short = [-x for x in lows if x < 0]
        p99 = math.ceil(st.quantile(need, SUPPLY_QUANTILE))
        item = (getattr(game, "supplies", None) or {}).get(name)
        out[name] = {"name": getattr(item, "name", None) or name, "stock": box,
                     "may_run_out": may_run_out, "need_p50": _r(st.quantile(need, 0.5)),
                     "need_p99": p99, "need_max": max(need),
                     "short_games": len(short), "short_rate": _r(len(short) / len(lows)),
                     "shortfall_max": max(short, default=0),
                     "print_more": max(0, p99 - box)}
    return out


def _tenths(shares: Sequence[float]) -> list[int]:
    """Games per tenth of a 0..1 share: [0, 0.1), [0.1, 0.2), ... [0.9, 1] (the report's
    distributions; rounded first so 0.3 falls in [0.3, 0.4) whatever the float)."""
    counts = [0] * 10
    for x in shares:
        counts[min(9, math.floor(round(x * 10, 6)))] += 1
    return counts


def _lead_table(a: Aggregate) -> dict[str, Any]:
    """Lead changes, drama and decisiveness over the games that recorded who led each turn
    (pnp/engine/drama.py), with their distributions over games; `games` 0 when the rules
    module's turn loop records none."""
    n = len(a.lead_changes)
    if not n:
        return {"games": 0}
    changes = {k: _r(v) for k, v in st.describe(a.lead_changes).items()}
    changes["histogram"] = _histogram(a.lead_changes)
    trailing = st.mean_ci(a.trailing_shares, bounds=(0.0, 1.0))
    comebacks = sum(a.comebacks)
    decided = {k: _r(v) for k, v in st.describe(a.decided_at).items()}
    decided["tenths"] = _tenths(a.decided_at)
    return {"games": n, "lead_changes": changes,
            "trailing_share": {"mean": _r(trailing[0]), "ci95": [_r(trailing[1]), _r(trailing[2])],
                               "tenths": _tenths(a.trailing_shares)},
            "decided_at": decided,
            "comeback_rate": _r(comebacks / n),
            "comeback_ci95": [_r(x) for x in st.wilson(comebacks, n)]}


def _faction_table(a: Aggregate) -> list[dict[str, Any]]:
    """Win rate per faction a rules module reported (city-states, civilizations), with
    Wilson 95% intervals over the seat-games each faction was played."""
    out = []
    seat_games = a.faction_seats  # derived: read once
    for faction in sorted(seat_games):
        n = seat_games[faction]
        wins = a.faction_wins.get(faction, 0.0)
        out.append({"faction": faction, "seat_games": n, "wins": _r(wins),
                    "win_rate": _r(wins / n) if n else 0.0,
                    "ci95": [_r(x) for x in st.wilson(wins, n)]})
    return out


def report_document(sim: Simulation) -> dict[str, Any]:
    """summarize() plus the findings, most severe first."""
    from pnp.engine.findings import find, seat_tests

    doc = summarize(sim)
    for seat, test in zip(doc["seats"], seat_tests(doc), strict=True):
        seat.update(p_holm=_r(test["p_holm"]), flagged=test["flagged"])
    doc["findings"] = [f.to_json() for f in find(doc, sim.game, sim.aggregate)]
    return doc


# --------------------------------------------------------------------------- comparing variants


#: compare sections, in the order printed
GROUPS = ("game", "seats", "stats", "events")


def _metric(label: str, kind: str, a: float, b: float, d: tuple[float, float, float],
            group: str = "game") -> dict:
    diff, lo, hi = d
    return {"metric": label, "group": group, "kind": kind, "a": _r(a), "b": _r(b), "diff": _r(diff),
            "ci95": [_r(lo), _r(hi)], "significant": bool(lo > 0 or hi < 0)}


def compare_document(first: Simulation, second: Simulation) -> dict[str, Any]:
    """B minus A for every headline figure, with 95% CIs; `significant` when the CI excludes 0.

    Both runs use the same per-game seeds and seatings; the intervals treat them as independent
    samples (conservative when the seeds make results move together).
    """
    a, b = first.aggregate, second.aggregate
    na, nb = a.games, b.games
    metrics = [_metric("turns (mean)", "mean", st.mean(a.turns), st.mean(b.turns),
                       st.diff_means(a.turns, b.turns))]
    for label, col_a, col_b in (("completion rate", a.completed, b.completed),
                                ("timeout rate", a.timed_out, b.timed_out),
                                ("elimination rate", a.eliminated, b.eliminated)):
        metrics.append(_metric(label, "rate", sum(col_a) / na, sum(col_b) / nb,
                               st.diff_proportions(sum(col_a), na, sum(col_b), nb)))
    metrics.append(_metric("winning margin (mean)", "mean", st.mean(a.margins), st.mean(b.margins),
                           st.diff_means(a.margins, b.margins)))
    for seat in range(min(a.players, b.players)):
        wa, wb = a.seat_wins[seat], b.seat_wins[seat]
        metrics.append(_metric(f"seat {seat + 1} win rate", "rate", wa / na, wb / nb,
                               st.diff_proportions(wa, na, wb, nb), "seats"))
    stats = getattr(first.game, "stats", {}) or {}
    order = list(stats) + sorted((set(a.stat_game_means) | set(b.stat_game_means)) - set(stats))
    for stat in order:
        ca, cb = a.stat_game_means.get(stat), b.stat_game_means.get(stat)
        if not ca or not cb:
            continue
        metrics.append(_metric(f"{stat} at game end (mean)", "mean", st.mean(ca), st.mean(cb),
                               st.diff_means(ca, cb), "stats"))
    for name in sorted(set(a.events) | set(b.events)):
        ca = a.event_columns.get(name) or [0] * na
        cb = b.event_columns.get(name) or [0] * nb
        metrics.append(_metric(f"{name} per game", "mean", st.mean(ca), st.mean(cb),
                               st.diff_means(ca, cb), "events"))
    c = first.config
    label_a, label_b = first.config.variant or "base", second.config.variant or "base"
    seconds = first.seconds + second.seconds
    violations = [dict(v, variant=label_a) for v in summarize(first)["violations"]] + \
                 [dict(v, variant=label_b) for v in summarize(second)["violations"]]
    return {
        "schema_version": SCHEMA_VERSION,
        "game": getattr(first.game, "id", str(first.game)),
        "a": label_a,
        "b": label_b,
        "games": na,
        "players": c.players,
        "seed": c.seed,
        "bots": list(c.bots),
        "seconds": round(seconds, 3),
        "games_per_second": round((na + nb) / seconds, 1) if seconds > 0 else 0.0,
        "metrics": metrics,
        "crashed": {"a": a.ended.get(CRASHED, 0), "b": b.ended.get(CRASHED, 0)},
        "violations": violations,
        "findings": [f.to_json() for f in _compare_findings(label_a, label_b, metrics, violations)],
    }


def _compare_findings(label_a: str, label_b: str, metrics: list[dict], violations: list[dict]):
    from pnp.engine.findings import ERROR, INFO, Finding, broken_lead, num, pct, points

    out = [Finding(ERROR, "PNP-B001", f"{v['variant']}: {broken_lead(v['message']).lower()} in "
                   f"{v['games']} games: "
                   f"{v['message']} (first in game {v['first_game']}, seed {v['first_seed']})")
           for v in violations]
    for m in metrics:
        if not m["significant"]:
            continue
        if m["kind"] == "rate":
            what = (f"{pct(m['a'])} → {pct(m['b'])} ({points(m['diff'])}, 95% CI "
                    f"{points(m['ci95'][0])} to {points(m['ci95'][1])})")
        else:
            what = (f"{num(m['a'])} → {num(m['b'])} ({m['diff']:+.2f}, 95% CI "
                    f"{m['ci95'][0]:+.2f} to {m['ci95'][1]:+.2f})")
        out.append(Finding(INFO, "PNP-B020", f"{m['metric']}: {what} from {label_a} to {label_b}"))
    return out
