"""`pnp ladder`: skill depth, each bot of a ladder against the one below it (SkillTrace)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from pnp.commands.common import EXIT_ERRORS, EXIT_OK, refuse_game_files
from pnp.commands.simulate import (
    check_players,
    echo_and_report,
    load_variant,
    open_executor,
    parse_bots,
    progress_bar,
    run_options,
)
from pnp.data.limits import MAX_GAMES


@click.command("ladder")
@click.argument("game")
@click.option("--rungs", default=None,
              help="The bots from weakest to strongest, comma-separated "
                   "(default random,greedy,mcts:2,mcts:4,mcts:8,mcts:16).")
@click.option("--players", "-p", type=int, default=None,
              help="Players (default: the game's recommended count).")
@click.option("--games", "-n", type=click.IntRange(1, MAX_GAMES), default=60, show_default=True,
              help="Games per step (rounded up to whole rounds of the step's seatings).")
@click.option("--seed", "-s", type=int, default=1, show_default=True,
              help="Base seed; every step plays the seeds derived from it.")
@click.option("--variant", default=None, help="Rule variant ('base' = none).")
@click.option("--every-step", is_flag=True,
              help="Play every step, not only up to the first that does not climb.")
@run_options("Also write a PDF with the ladder's win rates as a chart.")
def command(game: str, rungs: str | None, players: int | None, games: int, seed: int,
            variant: str | None, every_step: bool, workers: int, scheduler: str | None,
            invariants: str, max_turns: int | None, fmt: str, report_path: Path | None,
            paper: str) -> None:
    """Play each bot of a ladder against the one below it, one seat against the rest, until
    more thinking stops winning more (exit 1 if an invariant broke)."""
    from pnp.engine import ladder

    names = parse_bots(rungs) if rungs else ladder.DEFAULT_RUNGS
    loaded, variant = load_variant(game, variant)
    refuse_game_files(loaded, (report_path, "--report", "ladder.pdf"))
    count = check_players(loaded, players)
    if problem := ladder.ladder_problem(names, count):
        raise click.BadParameter(problem, param_hint="--rungs")
    total = ladder.step_games(games, names, count) * (len(names) - 1)
    with open_executor(workers, scheduler) as executor, \
            progress_bar(total, f"{loaded.id} ladder") as update:
        doc = ladder.run_ladder(loaded, names, count, games, seed=seed, variant=variant,
                                invariants=invariants, max_turns=max_turns,
                                every_step=every_step, executor=executor, progress=update)
    from pnp.report import text

    echo_and_report(doc, fmt, text.render_ladder_text, report_path,
                    "ladder_pdf.write_ladder_pdf", paper)
    sys.exit(EXIT_ERRORS if doc["violations"] else EXIT_OK)
