"""`pnp simulate`: self-play a game many times; balance figures, findings, optional PDF report."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from importlib import import_module
from pathlib import Path
from typing import Any

import click

from pnp.commands.common import (
    EXIT_ERRORS,
    EXIT_OK,
    echo_diagnostics,
    load_or_exit,
    paper_option,
    refuse_game_files,
    rules_or_exit,
    write_or_exit,
)
from pnp.data.game import variant_ids, variant_name
from pnp.data.limits import MAX_GAMES, MAX_TURNS
from pnp.diagnostics import ERROR, Diagnostic
from pnp.engine import selfplay
from pnp.engine.findings import all_crashed
from pnp.engine.ladder import SKILL_GAMES, SKILL_RUNGS
from pnp.engine.selfplay import INVARIANT_MODES, SimConfig
from pnp.paper import REPORT_MIN_SIZE


def parse_bots(value: str | None) -> tuple[str, ...]:
    """'random,search:32' -> ('random', 'search:32'); unknown names and bad budgets are a
    usage error (exit 2)."""
    names = tuple(b.strip() for b in (value or "").split(",") if b.strip())
    known = selfplay.known_bots()
    if not names:
        names = tuple(b for b in selfplay.DEFAULT_BOTS if b in known) or tuple(known[:1])
    unknown = [b for b in names if b.partition(":")[0] not in known]
    if unknown:
        raise click.BadParameter(f"unknown bot {', '.join(map(repr, unknown))} "
                                 f"(known: {', '.join(known)})", param_hint="--bots")
    for name in names:
        if ":" in name and (problem := selfplay.bot_problem(name)):
            raise click.BadParameter(problem, param_hint="--bots")
    return names


def lineup_for(game, value: str | None) -> tuple[tuple[str, ...], str | None]:
    """The line-up to play and why, when it is the game's own: --bots when given, else the
    game's `selfplay: bots:` with its `why`, else greedy. A bad default is its PNP-L043
    diagnostic (as validate reports it) and exit 1, before any game is played."""
    if value is None and getattr(game, "selfplay", None) is not None:
        from pnp.engine import selfplay_default

        if problems := selfplay_default.problems(game):
            echo_diagnostics(problems)
            sys.exit(EXIT_ERRORS)
        return parse_bots(",".join(game.selfplay.bots)), game.selfplay.why
    return parse_bots(value), None


def balanced(games: int, bots: tuple[str, ...], players: int) -> int:
    """--games rounded up so every seating of a mixed line-up is played equally often (said on
    stderr when it changes); a line-up with too many seatings is a usage error."""
    from pnp.engine import lineup

    if problem := lineup.problem(bots, players):
        raise click.BadParameter(problem, param_hint="--bots")
    total = lineup.balanced_games(games, bots, players)
    if total != games:
        click.echo(f"playing {total} games, not {games}: a whole number of rounds through the "
                   f"{lineup.count(bots, players)} seatings of {','.join(bots)}", err=True)
    return total


def load_variant(name: str, variant: str | Sequence[str] | None):
    """Load GAME (exit 2 when unknown) under `variant` ('base' or None = no variant; several,
    or 'a+b', combine: a conflicting combination is PNP-L042, exit 1)."""
    variant = variant_name(variant)
    base = load_or_exit(name).game
    for one in variant_ids(variant):
        if one not in base.variants:
            known = ", ".join(base.variants) or "(none)"
            raise click.BadParameter(f"no variant '{one}' in {base.id} (known: base, {known})",
                                     param_hint="--variant")
    game = load_or_exit(name, variant).game if variant else base
    rules_or_exit(game)  # one clear diagnostic for a game without a working rules module
    return game, variant


def check_range(game, players: int) -> int:
    """A count the game takes, whatever its variants are written for (a usage error if not)."""
    if not game.players_min <= players <= game.players_max:
        raise click.BadParameter(f"{game.name} takes {game.players_min} to {game.players_max} "
                                 f"players", param_hint="--players")
    return players


def check_players(game, players: int | None) -> int:
    """--players (the game's recommended count when not given) within the game's range and
    among the counts the variants in play are written for (the first of theirs when the
    recommended count is not); 0 is a usage error like any other count out of range, never
    the default."""
    counts = game.player_counts()
    if not counts:
        raise click.BadParameter(f"the variants {game.variant} are written for no player count "
                                 "in common: play them apart", param_hint="--variant")
    if players is None:
        players = game.recommended_players or game.players_min
        if players not in counts:
            players = counts[0]
    check_range(game, players)
    if players not in counts:
        variant = next(v for v in game.variants_in_play if not v.plays_with(players))
        raise click.BadParameter(f"the variant {variant.id} is written for "
                                 f"{variant.players_words}, not {players}",
                                 param_hint="--players")
    return players


@contextmanager
def progress_bar(total: int, label: str):
    """A click progress bar on stderr when it is a terminal; otherwise no output at all."""
    if not sys.stderr.isatty():
        yield None
        return
    with click.progressbar(length=total, label=label, file=sys.stderr) as bar:
        seen = [0]

        def update(done: int) -> None:
            bar.update(done - seen[0])
            seen[0] = done

        yield update


@contextmanager
def open_executor(workers: int, scheduler: str | None):
    """The executor the options ask for, closed (workers stopped) however the command ends;
    an unusable cluster is a usage error (exit 2) with the reason, a worker that died in the
    run a PNP-B021 diagnostic naming the games lost (exit 1)."""
    from pnp.engine.executor import ExecutorError, WorkerLost, make_executor

    try:
        executor = make_executor(workers, scheduler)
    except ExecutorError as exc:
        raise click.UsageError(str(exc)) from None
    lost = None
    with executor:
        try:
            yield executor
        except ExecutorError as exc:
            raise click.UsageError(str(exc)) from None
        except WorkerLost as exc:
            lost = exc
    if lost is not None:  # said once the other workers are stopped
        echo_diagnostics([worker_lost(lost)])
        sys.exit(EXIT_ERRORS)


WORKER_LOST = "PNP-B021"  # a worker process died mid-run: games lost, no report


def worker_lost(exc) -> Diagnostic:
    return Diagnostic(ERROR, WORKER_LOST, str(exc),
                      hint="a rules module must return from every game, never end its process "
                           "(os._exit, a crash in native code); if something else ended it (out "
                           "of memory, a kill), run again, with fewer --workers")


def executor_options(f):
    """--workers and --scheduler: where the games run (the results are the same anywhere)."""
    f = click.option("--scheduler", envvar="PNP_SCHEDULER", default=None, metavar="tcp://HOST:PORT",
                     help="Play on a running Dask cluster (default: $PNP_SCHEDULER); needs "
                          "pnp[cluster].")(f)
    return click.option("--workers", "-w", type=click.IntRange(1, 256), default=1, show_default=True,
                        help="Local worker processes; the output is the same for any number.")(f)


def write_logs(path: Path, sim: selfplay.Simulation) -> None:
    """Each logged game's events one after another (each log opens with the engine's own
    header event carrying the seed and bots, so it replays alone)."""
    from pnp.engine.log import write_jsonl

    write_jsonl((e for *_, events in sim.logs for e in events), path)


def games_option(help: str = "Games to play."):
    """--games, bounded by the limit every command that plays shares (pnp.data.limits), so a
    typo such as 99999999999999999999 is a usage error, not a search for gigabytes."""
    return click.option("--games", "-n", type=click.IntRange(1, MAX_GAMES), default=200,
                        show_default=True, help=help)


def max_turns_option(f):
    """--max-turns, bounded like the game data's own turn limit."""
    return click.option("--max-turns", type=click.IntRange(1, MAX_TURNS), default=None,
                        help="Turn cap (default: the game's own).")(f)


#: --invariants and --format, as simulate, sweep and ladder take them
invariants_option = click.option(
    "--invariants", type=click.Choice(INVARIANT_MODES), default="sample", show_default=True,
    help="Check invariants at every step, a sample, or none.")
format_option = click.option("--format", "fmt", type=click.Choice(["text", "json"]),
                             default="text", show_default=True)


def report_options(help: str):
    """--report FILE (what the PDF holds: `help`) and the paper it is laid out on, as
    simulate, sweep and ladder take them."""
    def decorate(f):
        f = paper_option("--report: the paper of the PDF report.", smallest=REPORT_MIN_SIZE)(f)
        return click.option("--report", "report_path",
                            type=click.Path(dir_okay=False, path_type=Path), default=None,
                            help=help)(f)
    return decorate


def run_options(report_help: str):
    """What sweep and ladder take after their own options, in this order: where the games
    run, the invariant checks, the turn cap, the output format, and --report (`report_help`)
    with its paper."""
    def decorate(f):
        f = report_options(report_help)(f)
        for option in (format_option, max_turns_option, invariants_option, executor_options):
            f = option(f)
        return f
    return decorate


def echo_and_report(doc: dict[str, Any], fmt: str, render_text: Callable[[dict[str, Any]], str],
                    report_path: Path | None, writer: str, *args: Any) -> None:
    """Print the document (JSON, or `render_text`'s text), then with --report write its PDF
    with `writer(path, doc, *args)`: 'module.function' under pnp.report, imported only then,
    so reportlab loads only for a report."""
    from pnp.report.text import render_json

    click.echo(render_json(doc) if fmt == "json" else render_text(doc))
    if report_path:
        module, _, name = writer.rpartition(".")
        write = getattr(import_module(f"pnp.report.{module}"), name)
        write_or_exit(report_path, lambda: write(report_path, doc, *args), "--report")
        click.echo(f"wrote {report_path}", err=True)


def game_options(f):
    """Options shared by simulate and compare."""
    for option in reversed([
        games_option(),
        click.option("--players", "-p", type=int, default=None,
                     help="Players per game (default: the game's recommended count)."),
        click.option("--seed", "-s", type=int, default=1, show_default=True,
                     help="Base seed; game i uses a seed derived from (seed, i)."),
        click.option("--bots", default=None,
                     help="The line-up: one bot for every seat (default: the game's selfplay: bots:, "
                          "else greedy), or comma-separated bots seated every way in turn; "
                          "search:N gives the search bot N playouts per option."),
        invariants_option,
        max_turns_option,
        format_option,
    ]):
        f = option(f)
    return executor_options(f)


@click.command("simulate")
@click.argument("game")
@game_options
@click.option("--variant", "variant", multiple=True,
              help="A rule variant from the game's data ('base' = none); repeat it (or write "
                   "a+b) to combine variants.")
@report_options("Also write a PDF report with charts.")
@click.option("--log", "log_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the event log of the first game(s) as JSON lines.")
@click.option("--log-games", type=click.IntRange(1, MAX_GAMES), default=1, show_default=True,
              help="How many games --log records.")
@click.option("--game", "only", type=click.IntRange(0, MAX_GAMES - 1), default=None,
              metavar="INDEX",
              help="Play only this game of the run (0 is the first; findings name games so), "
                   "with its seed and seats as in the full run of --games; add --log for its "
                   "event log. No skill check.")
@click.option("--skill", "skill", default=",".join(SKILL_RUNGS), show_default=True,
              help="Skill depth: a short ladder of bots, weakest first, each one seat against "
                   f"the one below on up to {SKILL_GAMES} games a step (at most --games), "
                   "played after the run on the same seeds; 'none' skips it. pnp ladder plays "
                   "longer ladders.")
def command(game: str, games: int, players: int | None, seed: int, workers: int,
            scheduler: str | None, bots: str | None, invariants: str, max_turns: int | None,
            fmt: str, variant: tuple[str, ...], report_path: Path | None, paper: str,
            log_path: Path | None, log_games: int, only: int | None, skill: str) -> None:
    """Self-play GAME and report balance figures and findings (exit 1 if an invariant broke)."""
    from pnp.engine import ladder

    gamedef, variant = load_variant(game, variant)
    refuse_game_files(gamedef, (report_path, "--report", "report.pdf"),
                      (log_path, "--log", "games.jsonl"))  # before any game is played
    players = check_players(gamedef, players)
    names, because = lineup_for(gamedef, bots)
    games = balanced(games, names, players)
    try:
        rungs = None if skill.strip().lower() == "none" else parse_bots(skill)
    except click.BadParameter as exc:
        raise click.BadParameter(exc.message, param_hint="--skill") from None
    skipped = "skipped with --skill none" if rungs is None else None  # reports say why
    if only is not None:
        if only >= games:
            raise click.BadParameter(f"a run of {games} games has games 0 to {games - 1}",
                                     param_hint="--game")
        rungs, skipped = None, f"--game {only} plays one game of the run"
    if rungs and players < 2:
        rungs, skipped = None, "one player: no seat to win against"
    if rungs and (problem := ladder.ladder_problem(rungs, players)):
        raise click.BadParameter(problem, param_hint="--skill")
    per_step = min(games, SKILL_GAMES)
    total = games + (ladder.step_games(per_step, rungs, players) * (len(rungs) - 1)
                     if rungs else 0)
    config = SimConfig(games=games, players=players, seed=seed,
                       bots=names, variant=variant, invariants=invariants,
                       max_turns=max_turns, workers=workers,
                       log_games=min(log_games, games) if log_path else 0,
                       lineup_because=because)
    with open_executor(workers, scheduler) as executor, \
            progress_bar(total, f"{gamedef.id}") as update:
        sim = (selfplay.run_one(gamedef, config, only) if only is not None else
               selfplay.run_simulation(gamedef, config, progress=update, executor=executor))
        skill_doc = None
        if rungs and all_crashed(sim.aggregate.ended.get(selfplay.CRASHED), sim.aggregate.games):
            skipped = "every game of the run crashed: the ladder would crash the same way"
        elif rungs:
            after = (lambda done: update(games + done)) if update else None
            skill_doc = ladder.run_ladder(gamedef, rungs, players, per_step, seed=seed,
                                          variant=variant, invariants=invariants,
                                          max_turns=max_turns, executor=executor,
                                          progress=after)
    doc = ladder.with_skill(selfplay.report_document(sim), skill_doc, skipped)
    from pnp.report import text

    echo_and_report(doc, fmt, text.render_text, report_path, "pdf.write_report_pdf", gamedef,
                    paper)
    if log_path:
        write_or_exit(log_path, lambda: write_logs(log_path, sim), "--log")
        click.echo(f"wrote {log_path} ({len(sim.logs)} game{'s' if len(sim.logs) > 1 else ''})",
                   err=True)
    broken = sim.broken or bool(skill_doc and skill_doc["violations"])
    sys.exit(EXIT_ERRORS if broken else EXIT_OK)
