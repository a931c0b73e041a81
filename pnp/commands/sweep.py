"""`pnp sweep`: self-play every combination of player counts, variants and bot mixes."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from pnp.commands.common import EXIT_ERRORS, EXIT_OK, refuse_game_files
from pnp.commands.simulate import (
    check_players,
    check_range,
    echo_and_report,
    games_option,
    lineup_for,
    load_variant,
    open_executor,
    parse_bots,
    progress_bar,
    run_options,
)
from pnp.data.model import counts_in_words
from pnp.engine import lineup


def split_list(values: tuple[str, ...]) -> list[str]:
    """Repeated options and comma lists alike: ('3,4', '5') -> ['3', '4', '5']."""
    return [v.strip() for value in values for v in value.split(",") if v.strip()]


def parse_players(values: tuple[str, ...], games: list) -> list[int]:
    """The --players counts, each one the game takes; without any, each variant's default
    (cells a variant is not written for are left out afterwards, see `playable`)."""
    counts = []
    for text in split_list(values):
        try:
            counts.append(int(text))
        except ValueError:
            raise click.BadParameter(f"'{text}' is not a number of players",
                                     param_hint="--players") from None
    if not counts:
        return list(dict.fromkeys(check_players(game, None) for game in games))
    return list(dict.fromkeys(check_range(games[0], n) for n in counts))


def playable(cells: list, loaded: dict) -> list:
    """The cells whose variants are written for their player count; each one left out is
    named on stderr, and none left is a usage error."""
    keep = []
    for cell in cells:
        game = loaded[cell.variant]
        if cell.players in game.player_counts():
            keep.append(cell)
        else:
            click.echo(f"sweep: {cell.variant} at {cell.players} players left out (written for "
                       f"{counts_in_words(game.player_counts())} players)", err=True)
    if not keep:
        raise click.BadParameter("no cell left: the variants are written for other player "
                                 "counts", param_hint="--players")
    return keep


@click.command("sweep")
@click.argument("game")
@click.option("--players", "-p", "players", multiple=True,
              help="Player counts: repeat or comma-separate (3,4,5). Default: recommended.")
@click.option("--variant", "variants", multiple=True,
              help="Rule variants: repeat or comma-separate ('base' = no variant; a+b plays a "
                   "and b together in one cell). Default: base.")
@click.option("--bots", "bot_mixes", multiple=True,
              help="A line-up: one bot for every seat (default: the game's selfplay: bots:, else "
                   "greedy), or comma-separated bots "
                   "seated every way in turn (random,greedy); repeat for more line-ups.")
@games_option("Games per cell.")
@click.option("--seed", "-s", type=int, default=1, show_default=True,
              help="Base seed; every cell plays the seeds derived from it.")
@run_options("Also write a PDF with one chart per measure across the cells.")
def command(game: str, players: tuple[str, ...], variants: tuple[str, ...],
            bot_mixes: tuple[str, ...], games: int, seed: int, workers: int,
            scheduler: str | None, invariants: str, max_turns: int | None, fmt: str,
            report_path: Path | None, paper: str) -> None:
    """Play GAME in every cell of --players × --variant × --bots and tabulate the measures
    (exit 1 if an invariant broke in any cell)."""
    from pnp.engine import sweep

    names = list(dict.fromkeys(split_list(variants))) or ["base"]
    loaded = dict(load_variant(game, name)[::-1] for name in names)  # variant -> game definition
    base = next(iter(loaded.values()))
    refuse_game_files(base, (report_path, "--report", "sweep.pdf"))
    counts = parse_players(players, list(loaded.values()))
    mixes = list(dict.fromkeys(parse_bots(mix) for mix in bot_mixes)) or [lineup_for(base, None)[0]]
    cells = playable(sweep.cross(counts, list(loaded), mixes), loaded)
    for cell in cells:
        if problem := lineup.problem(cell.bots, cell.players):
            raise click.BadParameter(problem, param_hint="--bots")
    total = sum(lineup.balanced_games(games, c.bots, c.players) for c in cells)
    with open_executor(workers, scheduler) as executor, \
            progress_bar(total, f"{base.id} sweep ({len(cells)} cells)") as update:
        doc = sweep.run_sweep(loaded, cells, games, seed=seed, invariants=invariants,
                              max_turns=max_turns, executor=executor, progress=update)
    from pnp.report import text

    echo_and_report(doc, fmt, text.render_sweep_text, report_path,
                    "sweep_pdf.write_sweep_pdf", paper)
    sys.exit(EXIT_ERRORS if sweep.broken(doc) else EXIT_OK)
