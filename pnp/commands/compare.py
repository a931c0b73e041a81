"""`pnp compare`: the same seeds under two rule variants; differences with 95% intervals."""

from __future__ import annotations

import sys

import click

from pnp.commands.common import EXIT_ERRORS, EXIT_OK
from pnp.commands.simulate import (
    balanced,
    check_players,
    game_options,
    lineup_for,
    load_variant,
    open_executor,
    progress_bar,
)
from pnp.engine import selfplay
from pnp.engine.selfplay import SimConfig


@click.command("compare")
@click.argument("game")
@click.option("--variant", "variants", multiple=True,
              help="Give twice (A then B); given once, it is compared with the base rules. "
                   "a+b plays variants a and b together.")
@game_options
def command(game: str, variants: tuple[str, ...], games: int, players: int | None, seed: int,
            workers: int, scheduler: str | None, bots: str | None, invariants: str,
            max_turns: int | None, fmt: str) -> None:
    """Play the same seeds under variants A and B and report B − A with 95% CIs."""
    if not variants or len(variants) > 2:
        raise click.UsageError("give --variant once (compared with base) or twice (A, B)")
    labels = ("base", variants[0]) if len(variants) == 1 else variants
    (game_a, var_a), (game_b, var_b) = (load_variant(game, v) for v in labels)
    bot_names, _ = lineup_for(game_a, bots)  # the game's own default when --bots is not given
    common = [n for n in game_a.player_counts() if n in game_b.player_counts()]
    if players is None and common and (game_a.recommended_players or game_a.players_min) \
            not in common:
        players = common[0]  # a variant written for fewer counts picks the default
    players = check_players(game_b, check_players(game_a, players))
    games = balanced(games, bot_names, players)
    sims = []
    with open_executor(workers, scheduler) as executor:
        for gamedef, variant in ((game_a, var_a), (game_b, var_b)):
            config = SimConfig(games=games, players=players, seed=seed, bots=bot_names,
                               variant=variant, invariants=invariants, max_turns=max_turns,
                               workers=workers)
            with progress_bar(games, variant or "base") as update:
                sims.append(selfplay.run_simulation(gamedef, config, progress=update,
                                                    executor=executor))
    doc = selfplay.compare_document(*sims)
    from pnp.report import text

    click.echo(text.render_json(doc) if fmt == "json" else text.render_compare_text(doc))
    sys.exit(EXIT_ERRORS if any(s.broken for s in sims) else EXIT_OK)
