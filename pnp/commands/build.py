"""`pnp build`: validate each game, then render every component it defines into ./output/GAME/."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from pnp.commands.common import EXIT_ERRORS, EXIT_OK, output_folder, paper_option, resolve_games
from pnp.data.game import load_game
from pnp.diagnostics import has_errors, render_text
from pnp.paths import default_output


@click.command("build")
@click.argument("games", nargs=-1, metavar="[GAME]...")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              callback=output_folder,
              help="Output folder (default: ./output under the current folder). Each game gets a "
              "sub-folder.")
@paper_option("The home paper the kit is laid out on.")
@click.option("--variant", default=None,
              help="Print this variant's kit (its own card counts and pieces) into "
              "GAME-VARIANT/.")
@click.option("--gutterfold", is_flag=True,
              help="Card backs beside their fronts with a fold line, for printers without duplex.")
@click.option("--low-ink", is_flag=True,
              help="Leave out the cards' dark backgrounds and full-bleed frames.")
@click.option("--pack", is_flag=True,
              help="One card file per card size (cards-poker.pdf ...): small decks share sheets.")
@click.option("--print-shop", is_flag=True, help="Also each deck one card a page with bleed.")
@click.option("--png", is_flag=True, help="Also one 300 dpi PNG per card (a deck's shared back "
              "once).")
@click.option("--tts", is_flag=True, help="Also Tabletop Simulator deck sheets and saved objects.")
@click.option("--tts-url", default=None, metavar="URL",
              help="With --tts: the saved objects load the sheets from URL/<file>.")
@click.option("--ttp", is_flag=True, help="Also a Tabletop Playground package, ttp/GAME/, made "
              "from the Tabletop Simulator sheets (which it writes too).")
@click.option("--shop", default=None, metavar="NAME|FILE",
              help="Also the files a print shop takes, into GAME/shop-<id>/: dtc, tgc, mpc, "
              "home, or a shop profile YAML file.")
def command(games: tuple[str, ...], out_dir: Path | None, paper: str, variant: str | None,
            gutterfold: bool, low_ink: bool, pack: bool, print_shop: bool, png: bool,
            tts: bool, tts_url: str | None, ttp: bool, shop: str | None) -> None:
    """Validate and render every bundled game (or the games named)."""
    out_dir = out_dir or default_output()
    profile = None
    if shop is not None:
        from pnp.render.shops.profile import load_profile

        profile, found = load_profile(shop)
        if found:
            click.echo(render_text(found), err=True)
        if profile is None:
            sys.exit(EXIT_ERRORS)
    failed = False
    for folder in resolve_games(games):
        result = load_game(folder, variant)
        if result.diagnostics:
            click.echo(render_text(result.diagnostics), err=True)
        if not result.ok:
            click.echo(f"{folder.name}: not built (fix the errors above)", err=True)
            failed = True
            continue
        game = result.game
        click.echo(
            f"{game.id}: valid ({len(result.files)} files: {len(game.stats)} stats, "
            f"{len(game.tracks)} tracks, {len(game.charts)} charts, {len(game.phases)} phases, "
            f"{len(game.decks)} decks)", err=True)
        from pnp.render.build import build_game  # the renderer is imported only when building

        with click.progressbar(length=1, label=f"building {game.id}", file=sys.stderr) as bar:
            def progress(done: int, total: int) -> None:
                bar.length = total
                bar.update(done - bar.pos)

            kit = out_dir / (f"{game.id}-{variant}" if variant else game.id)
            paths, diags = build_game(game, kit, paper=paper, progress=progress,
                                      gutterfold=gutterfold, low_ink=low_ink, pack=pack,
                                      print_shop=print_shop, png=png, tts=tts, tts_url=tts_url,
                                      ttp=ttp, shop=profile)
        if diags:
            click.echo(render_text(diags), err=True)
        if has_errors(diags):
            click.echo(f"{game.id}: not built (fix the errors above)", err=True)
            failed = True
        for path in paths:
            click.echo(str(path))
    sys.exit(EXIT_ERRORS if failed else EXIT_OK)
