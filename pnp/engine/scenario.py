"""Scenario files: a starting state, scripted dice and decisions, and expectations after steps.

A scenario is a rules test a designer can read: "with these stats, these dice and these choices,
after the Military Phase seat 0 has 3 Military and one tied war happened". Files are loaded with
the project's positioned YAML loader and checked against schemas/scenario.schema.json, so every
problem and every failed expectation points at a line of the scenario file.
"""

from __future__ import annotations

import traceback
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.data.game import SCENARIOS, find_game, load_game, variant_name
from pnp.data.loader import Document, load_file
from pnp.data.model import GameDef, counts_in_words
from pnp.data.schema import check_schema_line, validate_document
from pnp.diagnostics import ERROR, Position, display_path
from pnp.engine.bots import BOTS
from pnp.engine.components import supply_links
from pnp.engine.core import (
    MAIN,
    OVER,
    Context,
    IllegalChoice,
    ReplayMismatch,
    RunawayGame,
    ScriptExhausted,
    State,
    StopRun,
)
from pnp.engine.guards import DEFAULT_LIMITS, OutOfBudget, guarded, prints_to_stderr
from pnp.engine.invariants import World, held_tokens, world_of
from pnp.engine.module import rules_of
from pnp.engine.play import step_checker
from pnp.engine.registry import NoEngine, crash_site, error_words, module_for
from pnp.engine.result import CRASH_PREFIX, GameResult

KIND = "scenario"
#: the rules module raised (or left a state no check can read) while the scenario played it
S_ENGINE_RAISED = "PNP-S013"

#: scenario values checked before play (docs/engine.md, "Writing a scenario")
START_PAST_END = "PNP-S008"  # start: {turn} after the game's last round
OUT_OF_BOUNDS = "PNP-S009"  # a counter or supply set outside its bounds
MODULE_REJECTS = "PNP-S010"  # a value the rules module rejects (vars, its own keys)
SUPPLY_TOTALS = "PNP-S019"  # a stated supply and what holds its tokens do not add up


@dataclass
class Failure:
    """One thing that went wrong, at a line of the scenario file."""

    message: str
    file: str = ""
    line: int = 0
    column: int = 0
    code: str = ""  # a failure that is a diagnostic of its own has a code and a hint
    hint: str = ""

    @classmethod
    def at(cls, pos: Position | None, message: str, code: str = "", hint: str = "") -> Failure:
        if pos is None:
            return cls(message, code=code, hint=hint)
        return cls(message, pos.file, pos.line, pos.column, code, hint)

    def format(self) -> str:
        where = display_path(self.file, None) if self.file else "<scenario>"
        if self.line:
            where += f":{self.line}"
        if not self.code:
            return f"{where}: {self.message}"
        if self.line:
            where += f":{self.column or 1}"
        text = f"{where}: error {self.code}: {self.message}"
        return text + (f"\n        hint: {self.hint}" if self.hint else "")


@dataclass
class ScenarioReport:
    """The outcome of one scenario file."""

    path: Path
    name: str = ""
    failures: list[Failure] = field(default_factory=list)
    checked: int = 0  # expectations evaluated
    rolls: int = 0
    decisions: int = 0
    log: list = field(default_factory=list)
    game: GameDef | None = None  # the game it played, once loaded (`--log` never writes onto it)

    @property
    def ok(self) -> bool:
        return not self.failures


class _Fail(Exception):
    """A scenario problem found while preparing it (reported, then the run is skipped)."""

    def __init__(self, pos: Position | None, message: str):
        super().__init__(message)
        self.pos = pos


class _ScriptError(Exception):
    def __init__(self, pos: Position | None, message: str):
        super().__init__(message)
        self.pos = pos


# --------------------------------------------------------------------------- names


class _Names:
    """Resolves the spellings a scenario may use (stats, tracks, spaces, phases, powers)."""

    def __init__(self, game: GameDef):
        self.game = game
        self.stats: dict[str, str] = {}  # counters (stats are counters), by every spelling
        for s in game.stats.values():
            for spelling in (s.id, s.name, s.abbreviation, *s.aliases):
                if spelling:
                    self.stats.setdefault(spelling.lower(), s.id)
        for c in (getattr(game, "counters", None) or {}).values():
            for spelling in (c.id, c.name, getattr(c, "abbreviation", "")):
                if spelling:
                    self.stats.setdefault(spelling.lower(), c.id)
        self.cards: dict[str, str] = {}  # card id, name or deck/card -> card id
        for d in (getattr(game, "decks", None) or {}).values():
            for c in d.cards:
                for spelling in (c.id, c.name, f"{d.id}/{c.id}"):
                    self.cards.setdefault(str(spelling).lower(), c.id)
        self.tracks: dict[str, str] = {}
        for t in game.tracks.values():
            for spelling in (t.id, t.name, *t.aliases):
                self.tracks.setdefault(spelling.lower(), t.id)
        self.phases = [p.id for p in game.phases]

    def stat(self, name: str, pos: Position) -> str:
        ident = self.stats.get(str(name).lower())
        if ident is None:
            raise _Fail(pos, f"unknown stat '{name}'")
        return ident

    def card(self, name: Any, pos: Position) -> str:
        ident = self.cards.get(str(name).lower())
        if ident is None:
            raise _Fail(pos, f"unknown card '{name}'")
        return ident

    def track(self, name: str, pos: Position) -> str:
        ident = self.tracks.get(str(name).lower())
        if ident is None:
            raise _Fail(pos, f"unknown track '{name}'")
        return ident

    def space(self, track: str, ref: Any, pos: Position) -> int:
        spaces = self.game.tracks[track].spaces
        if isinstance(ref, int) and not isinstance(ref, bool):
            if 0 <= ref < len(spaces):
                return ref
            raise _Fail(pos, f"the {track} track has no space {ref} (0-{len(spaces) - 1})")
        low = str(ref).lower()
        for s in spaces:
            if low in (s.id, s.name.lower()):
                return s.index
        raise _Fail(pos, f"the {track} track has no space '{ref}'")

    def keyed(self, ref: str, tracks: Iterable[str], pos: Position) -> str:
        """'track/space' from 'space' or 'track/space' (a power or an owned space)."""
        tracks = list(tracks)
        ref = str(ref)  # a YAML key may be a number
        if "/" in ref:
            track, _, space = ref.partition("/")
            track = self.track(track, pos)
            return f"{track}/{self.game.tracks[track].spaces[self.space(track, space, pos)].id}"
        for track in tracks:
            for s in self.game.tracks[track].spaces:
                if str(ref).lower() in (s.id, s.name.lower()):
                    return f"{track}/{s.id}"
        raise _Fail(pos, f"no space '{ref}' on the tracks {', '.join(tracks)}")

    def step(self, spec: Any, pos: Position, allow: tuple[str, ...]) -> tuple[int | None, str]:
        """(turn or None, label) for a step spec: a phase id, 'pregame' or 'finish' (a phase id wins)."""
        if isinstance(spec, dict):
            turn, label = int(spec["turn"]), str(spec["phase"])
        else:
            turn, label = None, str(spec)
        if label not in self.phases and label not in allow:
            extra = f" or {', '.join(allow)}" if allow else ""
            raise _Fail(pos, f"unknown step '{label}': use a phase id ({', '.join(self.phases)})"
                             f"{extra}")
        return turn, label


# --------------------------------------------------------------------------- scripted sources


class _Dice:
    """Scripted dice; each value remembers its line for error messages. Shuffles keep the
    order the scenario set, so `state: zones:` decides the next cards of a deck."""

    def __init__(self, values: list[Any], positions: list[Position]):
        self.values = values
        self.positions = positions
        self.used = 0

    def draw(self, sides: int, why: str) -> int:
        if self.used >= len(self.values):
            raise ScriptExhausted(f"ran out of scripted dice: roll {self.used + 1} ('{why}', "
                                  f"1-{sides}) has no value ({len(self.values)} given)")
        value = self.values[self.used]
        pos = self.positions[self.used]
        self.used += 1
        if not isinstance(value, int):
            raise _ScriptError(pos, f"die {self.used} is '{value}', but '{why}' rolls a "
                                    f"{sides}-sided die: give a number")
        if not 1 <= value <= sides:
            raise _ScriptError(pos, f"die {self.used} is {value}, but '{why}' rolls a "
                                    f"{sides}-sided die")
        return value


    def draw_face(self, faces: tuple, why: str) -> int:
        """A symbol die: the script gives the face's name or its 1-based index."""
        if self.used < len(self.values) and isinstance(self.values[self.used], str):
            value, pos = self.values[self.used], self.positions[self.used]
            if value not in faces:
                self.used += 1
                raise _ScriptError(pos, f"die {self.used} is '{value}', but '{why}' shows "
                                        f"{', '.join(map(str, faces))}")
            self.used += 1
            return faces.index(value) + 1
        return self.draw(len(faces), why)

    def order(self, cards: list, why: str) -> bool:
        return True  # the scenario's order stands


class _Choices:
    """Scripted decisions for every seat, then an optional fallback bot."""

    def __init__(self, entries: list[tuple[Any, int | None, Position, dict]],
                 fallback: list | None, fail: Any = None):
        self.entries = entries
        self.fallback = fallback
        self.used = 0
        self.fail = fail  # records an `offered`/`not_offered` mismatch; the run goes on

    def choose(self, state: State, seat: int, options: list, why: str, outcomes: Any) -> int:
        if self.used >= len(self.entries):
            if self.fallback is not None:
                return self.fallback[seat].choose(state, seat, options, why, outcomes)
            raise ScriptExhausted(f"ran out of scripted choices: seat {seat} must decide "
                                  f"'{why}' among {list(options)}")
        pick, want, pos, checks = self.entries[self.used]
        self.used += 1
        if want is not None and want != seat:
            raise _ScriptError(pos, f"choice {self.used} is for seat {want}, but seat {seat} "
                                    f"is deciding '{why}' among {list(options)}")
        labels = {str(o) for o in options}
        for key, present in (("offered", True), ("not_offered", False)):
            for k, label in enumerate(checks.get(key) or ()):
                if (str(label) in labels) != present and self.fail is not None:
                    self.fail(checks["pos"](key, k),
                              f"choice {self.used}: '{label}' is "
                              f"{'not ' if present else ''}offered to seat {seat} deciding "
                              f"'{why}'; options: {list(options)}")
        for i, option in enumerate(options):
            if option == pick or str(option) == str(pick):
                return i
        raise _ScriptError(pos, f"choice {self.used} '{pick}' is not a legal option for seat "
                                f"{seat} deciding '{why}'; options: {list(options)}")


# --------------------------------------------------------------------------- running

_GAMES: dict[tuple[str, str | None], Any] = {}


def _game(doc: Document, name: str, variant: str | None) -> GameDef:
    local = (doc.path.parent / name)
    folder, hint = (local, "") if local.is_dir() else find_game(name)
    if folder is None:
        raise _Fail(doc.pos(("game",)), f"no game '{name}'. {hint}")
    key = (str(Path(folder).resolve()), variant)
    if key not in _GAMES:
        result = load_game(folder, variant)
        if not result.ok:
            first = next((d for d in result.diagnostics if d.severity == ERROR), None)
            where = doc.pos(("variant",) if variant else ("game",))
            raise _Fail(where, f"the game does not load: {first.message if first else '?'}")
        _GAMES[key] = result.game
    return _GAMES[key]


def load_scenario(path: Path) -> tuple[Document | None, list[Failure]]:
    """Load and schema-check one scenario file."""
    doc, problems = load_file(path)
    failures = [Failure(d.message, d.file, d.line, d.column) for d in problems
                if d.severity == ERROR]
    if doc is None:
        return None, failures
    failures += [Failure(d.message, d.file, d.line, d.column) for d in check_schema_line(doc)
                 if d.severity == ERROR]
    if failures:
        return None, failures
    if doc.kind != KIND:
        return None, [Failure(f"not a scenario file (its schema line names '{doc.kind}')",
                              str(path), 1, 1)]
    failures = [Failure(f"{d.message}" + (f" (hint: {d.hint})" if d.hint else ""),
                        d.file, d.line, d.column) for d in validate_document(doc)]
    return (None, failures) if failures else (doc, [])


def run_scenario(path: str | Path) -> ScenarioReport:
    """Run one scenario file and check its expectations."""
    path = Path(path)
    report = ScenarioReport(path)
    doc, failures = load_scenario(path)
    report.failures += failures
    if doc is None:
        return report
    report.name = str(doc.data.get("name", ""))
    run = _Run(doc, report)
    try:
        with prints_to_stderr():  # a module's prints never mix into the report (--format json)
            run.run()
    except _Fail as exc:
        report.failures.append(Failure.at(exc.pos, str(exc)))
    except (Exception, SystemExit) as exc:
        if run.rules_file is None:  # not the rules module's: a bug of pnp's own
            raise
        report.failures.append(run.engine_raised(exc))
    return report


def scenario_files(paths: Iterable[str | Path]) -> list[Path]:
    """The scenario files named, folders expanded to their *.yaml files (sorted); a game (a
    bundled name or a folder holding game.yaml) stands for its `scenarios/` folder."""
    out: list[Path] = []
    for p in map(Path, paths):
        if not p.exists() or (p / "game.yaml").is_file():
            folder, _ = find_game(str(p))
            if folder is not None and (folder / "game.yaml").is_file():
                p = folder / SCENARIOS
        if p.is_dir():
            out += sorted(q for q in p.rglob("*") if q.suffix in (".yaml", ".yml"))
        else:
            out.append(p)
    return out


def run_paths(paths: Iterable[str | Path]) -> list[ScenarioReport]:
    return [run_scenario(p) for p in scenario_files(paths)]


class _Run:
    """One scenario being prepared, played and checked."""

    def __init__(self, doc: Document, report: ScenarioReport):
        self.doc = doc
        self.data = doc.data
        self.report = report
        #: the rules module's file once it is loaded: from then on, what raises is the engine's
        self.rules_file: str | None = None

    def pos(self, *path: Any) -> Position:
        return self.doc.pos(path)

    def key_pos(self, *path: Any) -> Position:
        return self.doc.key_pos(path)

    def fail(self, pos: Position, message: str) -> None:
        self.report.failures.append(Failure.at(pos, message))

    # ------------------------------------------------------------------ setup
    def run(self) -> None:
        data = self.data
        game = _game(self.doc, str(data["game"]), variant_name(data.get("variant")))
        self.report.game = game
        try:
            loaded = module_for(game)
            module = rules_of(loaded)
        except NoEngine as exc:  # at the rules file's failing line, else at `game:`
            where = Position(exc.file, exc.line, 1) if exc.file else self.pos("game")
            raise _Fail(where, str(exc)) from None
        self.rules_file = str(getattr(loaded, "__file__", "") or "")
        self.game, self.module = game, module
        self.names = names = _Names(game)
        meta = module.metadata(game)
        players = int(data["players"])
        if not meta.players_min <= players <= meta.players_max:
            raise _Fail(self.pos("players"), f"{game.id} is for {meta.players_min}-"
                                             f"{meta.players_max} players")
        if players not in game.player_counts():
            raise _Fail(self.pos("players"), f"the variant {game.variant} is written for "
                                             f"{counts_in_words(game.player_counts())} "
                                             "players")
        self.players = players
        start = names.step(data.get("start", "pregame"), self.pos("start"), ("pregame",))
        stop_spec = data.get("stop", data.get("start", "pregame"))
        self.stop = names.step(stop_spec, self.pos("stop"), ("pregame", "finish"))
        if start[1] == "pregame":
            state = module.new_state(game, players)
        else:
            state = module.main_state(game, players)
            state.turn = start[0] or 1
            state.phase = names.phases.index(start[1])
        problems = self.value_problems(meta, state, start)
        if problems:  # every one of them, and nothing is played
            self.report.failures += problems
            return
        world = world_of(game, state, False, module.holdings(game))
        before = held_tokens(state, world)
        self.override(state)
        problems = self.supply_problems(meta, state, world, before)
        if problems:
            self.report.failures += problems
            return
        self.expects = []
        for i, e in enumerate(data["expect"]):
            step = names.step(e.get("after", "finish"), self.pos("expect", i, "after"),
                              ("pregame", "finish"))
            self.expects.append((i, e, step))
        dice = [v if isinstance(v, str) else int(v) for v in data.get("dice") or []]
        dice_pos = [self.pos("dice", i) for i in range(len(dice))]
        entries = []
        for i, c in enumerate(data.get("choices") or []):
            if isinstance(c, dict):
                checks = {k: c[k] for k in ("offered", "not_offered") if k in c}
                checks["pos"] = (lambda key, k, i=i: self.pos("choices", i, key, k))
                entries.append((c["pick"], c.get("seat"), self.pos("choices", i), checks))
            else:
                entries.append((c, None, self.pos("choices", i), {}))
        fallback = None
        if data.get("bots"):
            hints = module.bot_hints(game)
            fallback = [BOTS[data["bots"]](0, seat, meta, hints) for seat in range(players)]
        self.dice = _Dice(dice, dice_pos)
        self.choices = _Choices(entries, fallback, self.fail)
        result = GameResult(game=game.id, seed=0, players=players, bots=("script",) * players,
                            variant=game.variant)
        self.checker = step_checker(game, module, meta, "all", 0, state)
        ctx = Context(state, self.dice, [self.choices] * players, result, self.report.log,
                      self.on_step, meta.zone_visibility)
        self.ctx = ctx
        self.done: set[int] = set()
        self.play(data.get("max_turns", meta.max_turns))

    def value_problems(self, meta: Any, state: State, start: tuple[int | None, str]
                       ) -> list[Failure]:
        """Every start turn, counter, supply and module value the scenario sets, checked
        before play against the game's rounds, bounds and rules module (never a traceback)."""
        out: list[Failure] = []
        game = self.game
        if start[0] is not None and start[0] > meta.max_turns:
            out.append(Failure.at(self.pos("start", "turn"), f"turn {start[0]} is past the last "
                                  f"round: {game.id} plays {meta.max_turns}", START_PAST_END,
                                  f"start at a turn from 1 to {meta.max_turns}"))
        spec = self.data.get("state") or {}

        def bounded(value: Any, bounds: Any, path: tuple, what: str) -> None:
            lo, hi = bounds or (None, None)
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                span = f"{'' if lo is None else lo}..{'' if hi is None else hi}"
                out.append(Failure.at(self.pos(*path), f"{what} {value} is outside its bounds "
                                      f"{span}", OUT_OF_BOUNDS, f"set {what} within {span}"))

        for j, ps in enumerate(spec.get("players") or []):
            for key in ("stats", "counters"):
                for name, value in (ps.get(key) or {}).items():
                    stat = self.names.stats.get(str(name).lower())
                    if stat is not None:  # an unknown name is reported when it is set
                        bounded(value, meta.counter_bounds.get(stat),
                                ("state", "players", j, key, name), stat)
        for name, value in (spec.get("counters") or {}).items():
            counter = self.names.stats.get(str(name).lower())
            if counter is not None:
                bounded(value, meta.shared_bounds.get(counter), ("state", "counters", name),
                        f"shared {counter}")
        for name, value in (spec.get("supply") or {}).items():
            stock, may_run_out = meta.supplies.get(name, (None, True))
            bounded(value, (None if may_run_out else 0, stock), ("state", "supply", name),
                    f"the {name} supply")
        for problem in self.module.scenario_problems(game, state, spec):
            path = ("state", *problem.path)
            where = self.key_pos(*path) if problem.at_key else self.pos(*path)
            out.append(Failure.at(where, problem.message, MODULE_REJECTS, problem.hint))
        return out

    def override(self, state: State) -> None:
        names = self.names
        spec = self.data.get("state") or {}
        extra = self.module.scenario_hooks()
        links = supply_links(self.game)
        stated = set(spec.get("supply") or {})
        #: supply id -> the lines of the counters set that hold its tokens (for diagnostics)
        self.drawn: dict[str, list[Position]] = {}

        def take(counter: str, old: int, new: int, where: Position) -> None:
            """A counter linked to a supply takes the difference from it (or gives it back),
            unless the scenario states that supply itself."""
            supply = links.get(counter)
            if supply is None or supply not in state.supply:
                return
            if new > old:
                self.drawn.setdefault(supply, []).append(where)
            if supply not in stated:
                state.supply[supply] -= new - old

        def set_counters(values: dict | None, counters: dict[str, int], path: tuple,
                         not_here: str) -> None:
            """Set each named counter of `counters` (through `take`); a name that is not one
            of them fails with `not_here` ('{}': the counter)."""
            for name, value in (values or {}).items():
                where = self.key_pos(*path, name)
                counter = names.stat(name, where)
                if counter not in counters:
                    raise _Fail(where, not_here.format(counter))
                take(counter, counters[counter], int(value), where)
                counters[counter] = int(value)

        for j, ps in enumerate(spec.get("players") or []):
            seat = ps.get("seat", j)
            if seat >= self.players:
                raise _Fail(self.pos("state", "players", j), f"no seat {seat} in a "
                                                             f"{self.players}-player game")
            p = state.players[seat]
            for key in ("stats", "counters"):
                set_counters(ps.get(key), p.counters, ("state", "players", j, key),
                             "{} is derived; set the counter it comes from")
            for name, ref in (ps.get("positions") or {}).items():
                where = self.key_pos("state", "players", j, "positions", name)
                track = names.track(name, where)
                if track not in p.pos:
                    raise _Fail(where, f"no pawn on the {track} track at this point of the game")
                p.pos[track] = names.space(track, ref, self.pos("state", "players", j,
                                                                "positions", name))
            self.set_zones(state, seat, ps.get("zones"), ("state", "players", j, "zones"))
            p.vars.update(ps.get("vars") or {})
            for key, (setter, _) in extra.items():
                if key in ps:
                    path = ("state", "players", j, key)
                    setter(self.game, state, seat, ps[key], self.keyed_at(path))
            if "out" in ps:
                p.out = bool(ps["out"])
        for name, refs in (spec.get("markers") or {}).items():
            where = self.key_pos("state", "markers", name)
            track = names.track(name, where)
            state.markers[track] = [names.space(track, r, self.pos("state", "markers", name, i))
                                    for i, r in enumerate(refs)]
        set_counters(spec.get("counters"), state.counters, ("state", "counters"),
                     "{} is not a shared counter")
        for name, value in (spec.get("supply") or {}).items():
            if name not in state.supply:
                raise _Fail(self.key_pos("state", "supply", name), f"no supply '{name}'")
            state.supply[name] = int(value)
        self.set_zones(state, -1, spec.get("zones"), ("state", "zones"))
        state.vars.update(spec.get("vars") or {})

    def supply_problems(self, meta: Any, state: State, world: World,
                        before: dict[str, int]) -> list[Failure]:
        """Tokens the scenario's state made or lost: a supply it states must add up, with
        everything holding its tokens, to what the game held before the scenario set anything
        (else PNP-S019 at that supply); a supply that gave the counters set their tokens must
        not go below zero where the rules let it not run out, nor above its stock (PNP-S009
        at the last counter that drew from it)."""
        out: list[Failure] = []
        stated = (self.data.get("state") or {}).get("supply") or {}
        after = held_tokens(state, world)
        for supply in world.links:
            stock, may_run_out = meta.supplies.get(supply, (None, True))
            left = state.supply.get(supply, 0)
            if after[supply] != before[supply]:
                if supply in stated:
                    where = self.pos("state", "supply", supply)
                    fix = left + before[supply] - after[supply]
                    hint = (f"leave `{supply}` out of `supply:` (each counter set then takes "
                            f"its difference from the supply), or state {fix}")
                else:  # a module's own key made or lost them
                    where = self.key_pos("state")
                    hint = "the rules module's scenario keys must take tokens from the supply"
                out.append(Failure.at(where, f"the {supply} supply ({left}) and what holds "
                                      f"{supply} add up to {after[supply]}, but the game holds "
                                      f"{before[supply]}: tokens would be made or lost",
                                      SUPPLY_TOTALS, hint))
            elif supply not in stated and ((left < 0 and not may_run_out)
                                           or (stock is not None and left > stock)):
                lines = self.drawn.get(supply)
                where = lines[-1] if lines else self.key_pos("state")
                short = (f"take {-left} more {supply} than the supply holds" if left < 0 else
                         f"give back {supply} the box does not hold (the supply would hold "
                         f"{left} of {stock})")
                out.append(Failure.at(where, f"the counters set {short}", OUT_OF_BOUNDS,
                                      f"the box holds {stock} {supply}: set fewer, or fewer "
                                      f"elsewhere"))
        return out

    def engine_raised(self, exc: BaseException) -> Failure:
        """The rules module's own exception (in metadata, play, finish, a hook, or a check of
        the state it left), worded as `pnp simulate` words it, at the rules module's line that
        raised (else at the scenario's `game:`)."""
        frames = traceback.extract_tb(exc.__traceback__)
        last = f" (at {crash_site(self.game, exc)})" if frames else ""
        mine = [f for f in frames if f.filename == self.rules_file]
        where = Position(mine[-1].filename, mine[-1].lineno or 1, 1) if mine else self.pos("game")
        return Failure.at(where, f"{CRASH_PREFIX}{error_words(exc)}{last}",
                          S_ENGINE_RAISED,
                          "the rules module failed while this scenario played it; `pnp "
                          "simulate` reports the same error as PNP-B001 (docs/engine.md: what "
                          "play, finish and metadata must do)")

    def keyed_at(self, path: tuple) -> Any:
        """A space resolver for a module's scenario key, failing at that key's line."""
        def keyed(ref: Any, tracks: Any) -> str:
            return self.names.keyed(ref, tracks, self.key_pos(*path))
        return keyed

    def set_zones(self, state: State, seat: int, spec: Any, path: tuple) -> None:
        """Put the named cards on top of each zone, in order (top first), taking each from
        wherever the game holds a copy; what the zone held stays below them, unless the zone
        is given as {cards, rest_to}: then what it held goes to the bottom of the shared zone
        `rest_to` first, so the zone holds exactly these cards (and no card leaves the game)."""
        if not spec:
            return
        zones = state.zones if seat < 0 else state.players[seat].zones
        for zone, refs in spec.items():
            where = self.key_pos(*path, zone)
            if zone not in zones:
                raise _Fail(where, f"no zone '{zone}' "
                                   f"{'shared' if seat < 0 else f'for seat {seat}'}; zones: "
                                   f"{', '.join(sorted(zones)) or 'none'}")
            if isinstance(refs, dict):
                rest = refs["rest_to"]
                if rest not in state.zones or rest == zone and seat < 0:
                    raise _Fail(self.pos(*path, zone, "rest_to"),
                                f"rest_to names no other shared zone: '{rest}'; shared zones: "
                                f"{', '.join(sorted(state.zones))}")
                state.zones[rest].extend(zones[zone])
                zones[zone].clear()
        pool: dict[str, list] = {}
        for _, _, cards in state.all_zones():
            for c in cards:
                pool.setdefault(c.card, []).append((cards, c))
        for zone, refs in spec.items():
            cards_path = (*path, zone)
            if isinstance(refs, dict):
                refs, cards_path = refs["cards"], (*path, zone, "cards")
            taken = []
            for k, ref in enumerate(refs):
                card = self.names.card(ref, self.pos(*cards_path, k))
                if not pool.get(card):
                    raise _Fail(self.pos(*cards_path, k),
                                f"no copy of '{card}' left to put here (the game has "
                                f"{sum(1 for _, _, cs in state.all_zones() for c in cs if c.card == card)})")
                src, inst = pool[card].pop()
                src.remove(inst)
                taken.append(inst)
            zones[zone][:0] = taken

    # ------------------------------------------------------------------ playing
    def play(self, max_turns: int) -> None:
        ctx = self.ctx
        try:
            with guarded(DEFAULT_LIMITS):  # a module that loops forever fails, never hangs
                self.module.play(self.game, ctx, max_turns)
        except StopRun:
            pass
        except (_ScriptError, ScriptExhausted, IllegalChoice, ReplayMismatch, RunawayGame,
                OutOfBudget, MemoryError) as exc:
            where = getattr(exc, "pos", None)
            if where is None:
                key = "dice" if "dice" in str(exc) else "choices"
                where = self.key_pos(key) if key in self.data else self.pos()
            self.fail(where, str(exc))
        self.module.finish(self.game, ctx)
        report = self.report
        report.rolls, report.decisions = ctx.rolls, ctx.decisions
        for i, e, step in self.expects:
            if i not in self.done:
                if step[1] == "finish":
                    self.check(i, e)
                else:
                    self.fail(self.pos("expect", i, "after"),
                              f"the run stopped before step {_step_text(step)}")
        left = len(self.dice.values) - self.dice.used
        if left and not report.failures:
            self.fail(self.key_pos("dice"), f"{left} scripted dice were not used")
        left = len(self.choices.entries) - self.choices.used
        if left and not report.failures:
            self.fail(self.key_pos("choices"), f"{left} scripted choices were not used")
        for message in ctx.violations:
            self.fail(self.pos(), f"invariant broken: {message}")

    def on_step(self, ctx: Context, label: str) -> None:
        self.checker(ctx, label)
        st = ctx.state
        phases = self.names.phases
        if label == "pregame":
            turn = 0
        elif label == phases[-1] and st.stage == MAIN:
            turn = st.turn - 1
        else:
            turn = st.turn
        for i, e, step in self.expects:
            if i not in self.done and _matches(step, label, turn):
                self.done.add(i)
                self.check(i, e, f"after {_step_text((turn if turn else None, label))}")
        if _matches(self.stop, label, turn):
            raise StopRun

    # ------------------------------------------------------------------ checking
    def check(self, i: int, e: dict, when: str = "at the end") -> None:
        """Compare one expectation with the current state; each mismatch is a failure."""
        self.report.checked += 1
        try:
            self._check(i, e, when)
        except _Fail as exc:  # a misspelt name in the expectation: reported, the run goes on
            self.fail(exc.pos, str(exc))

    def _check(self, i: int, e: dict, when: str) -> None:
        st: State = self.ctx.state
        res = self.ctx.result
        names = self.names
        base = ("expect", i)

        def expect(path: tuple, what: str, want: Any, got: Any) -> None:
            if want != got:
                self.fail(self.key_pos(*base, *path),
                          f"{when}: {what}: expected {_show(want)}, got {_show(got)}")

        extra = self.module.scenario_hooks()
        for j, ps in enumerate(e.get("players") or []):
            seat = ps.get("seat", j)
            if seat >= self.players:
                self.fail(self.pos(*base, "players", j), f"no seat {seat}")
                continue
            p = st.players[seat]
            counters = self.module.counters(self.game, p)
            for key in ("stats", "counters"):
                for name, want in (ps.get(key) or {}).items():
                    stat = names.stat(name, self.key_pos(*base, "players", j, key, name))
                    expect(("players", j, key, name), f"seat {seat} {stat}", want,
                           counters.get(stat))
            for name, ref in (ps.get("positions") or {}).items():
                path = ("players", j, "positions", name)
                track = names.track(name, self.key_pos(*base, *path))
                want = names.space(track, ref, self.pos(*base, *path))
                spaces = self.game.tracks[track].spaces
                got = p.pos.get(track)
                expect(path, f"seat {seat} pawn on the {track} track", spaces[want].id,
                       spaces[got].id if got is not None else None)
            self.expect_zones(p.zones, ps.get("zones"), (*base, "players", j, "zones"),
                              f"seat {seat} ", expect)
            for key, want in (ps.get("vars") or {}).items():
                expect(("players", j, "vars", key), f"seat {seat} {key}", want, p.vars.get(key))
            for key, (_, read) in extra.items():
                if key in ps:
                    path = ("players", j, key)
                    want, got = read(self.game, st, seat, ps[key],
                                     self.keyed_at((*base, *path)))
                    expect(path, f"seat {seat} {key}", want, got)
            if "out" in ps:
                expect(("players", j, "out"), f"seat {seat} out", ps["out"], p.out)
        for name, want in (e.get("counters") or {}).items():
            counter = names.stat(name, self.key_pos(*base, "counters", name))
            expect(("counters", name), f"shared {counter}", want, st.counters.get(counter))
        for key, want in (e.get("vars") or {}).items():
            expect(("vars", key), f"shared {key}", want, st.vars.get(key))
        for zone, refs in (e.get("face_up") or {}).items():
            if zone not in st.zones:
                self.fail(self.key_pos(*base, "face_up", zone), f"no shared zone '{zone}'")
                continue
            want = [names.card(r, self.pos(*base, "face_up", zone, k)) for k, r in enumerate(refs)]
            expect(("face_up", zone), f"face-up cards of {zone}", want,
                   [c.card for c in st.zones[zone] if c.face_up])
        for name, want in (e.get("supply") or {}).items():
            expect(("supply", name), f"{name} left in the supply", want, st.supply.get(name))
        self.expect_zones(st.zones, e.get("zones"), (*base, "zones"), "", expect)
        for key, want in (e.get("coverage") or {}).items():
            kind, _, ident = str(key).partition("/")
            expect(("coverage", key), f"uses of {key}", want, res.coverage.get((kind, ident), 0))
        for name, want in (e.get("events") or {}).items():
            expect(("events", name), f"'{name}' events", want, res.events.get(name, 0))
        for chart, rows in (e.get("charts") or {}).items():
            got = Counter({roll: n for (c, roll), n in res.chart_counts.items() if c == chart})
            expect(("charts", chart), f"{chart} chart results", sorted(rows),
                   sorted(got.elements()))
        for name, refs in (e.get("markers") or {}).items():
            path = ("markers", name)
            track = names.track(name, self.key_pos(*base, *path))
            spaces = self.game.tracks[track].spaces
            want = sorted(spaces[names.space(track, r, self.pos(*base, *path, k))].id
                          for k, r in enumerate(refs))
            got = sorted(spaces[x].id for x in st.markers.get(track, []))
            expect(path, f"markers on the {track} track", want, got)
        for ref, seat in (e.get("owners") or {}).items():
            key = names.keyed(ref, self.game.tracks, self.key_pos(*base, "owners", ref))
            expect(("owners", ref), f"owner of {key}", seat, st.owners.get(key))
        if "eliminated" in e:
            want_seats = sorted(x if isinstance(x, int) else x["seat"] for x in e["eliminated"])
            expect(("eliminated",), "seats out", want_seats,
                   sorted(i for i, p in enumerate(st.players) if p.out))
            causes = {el.seat: el.cause for el in res.eliminations}
            for k, x in enumerate(e["eliminated"]):
                if isinstance(x, dict) and "cause" in x:
                    cause = names.stat(x["cause"], self.pos(*base, "eliminated", k, "cause"))
                    expect(("eliminated", k, "cause"), f"seat {x['seat']} out because of",
                           cause, causes.get(x["seat"]))
        if "winners" in e:
            expect(("winners",), "winners", sorted(e["winners"]),
                   sorted(st.winners) if st.stage == OVER else "(game not over)")
        if "ended" in e:
            expect(("ended",), "how the game ended", e["ended"], st.ended)
        if "turn" in e:
            expect(("turn",), "turn", e["turn"], st.turn)
        if "phase" in e:
            expect(("phase",), "next phase", e["phase"], self.names.phases[st.phase])


    def expect_zones(self, zones: dict, spec: Any, path: tuple, whose: str, expect: Any) -> None:
        """Each named zone holds exactly these cards, in this order (top first)."""
        for zone, refs in (spec or {}).items():
            if zone not in zones:
                self.fail(self.key_pos(*path, zone), f"no zone '{zone}'")
                continue
            at = (*path, zone)
            if isinstance(refs, dict):  # {cards, rest_to}: the zone holds exactly `cards`
                refs, at = refs["cards"], (*at, "cards")
            want = [self.names.card(r, self.pos(*at, k)) for k, r in enumerate(refs)]
            expect((*path[2:], zone), f"{whose}{zone}", want, [c.card for c in zones[zone]])


def _matches(step: tuple[int | None, str], label: str, turn: int) -> bool:
    want_turn, want_label = step
    return want_label == label and (want_turn is None or want_turn == turn)


def _step_text(step: tuple[int | None, str]) -> str:
    turn, label = step
    return f"{label} (turn {turn})" if turn else label


def _show(value: Any) -> str:
    return repr(value) if isinstance(value, str) else str(value)
