"""`pnp validate`: schema and lint checks for one or more games, and their rulesheet sources."""

from __future__ import annotations

import sys

import click

from pnp.commands.common import EXIT_ERRORS, EXIT_OK, paper_option, resolve_games
from pnp.data.game import load_game_and_documents, variant_problems
from pnp.diagnostics import ERROR, WARNING, has_errors, render_json, render_text


@click.command("validate")
@click.argument("games", nargs=-1, metavar="[GAME]...")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--strict", is_flag=True, help="Treat warnings as errors (exit 1).")
@paper_option("The paper `pnp build` will use: card and sheet sizes are checked against it.")
def command(games: tuple[str, ...], fmt: str, strict: bool, paper: str) -> None:
    """Check games against their schemas and cross-references (all bundled games when none named).

    A game without data errors has each of its variants built too, and is preflighted:
    everything `pnp build` checks (layouts and
    templates against every card, images, icons, fonts, colours, sizes, text fit, the rulesheet
    sources rendered to Markdown and parsed), with nothing written."""
    folders = resolve_games(games)
    diags, summary = [], []
    for folder in folders:
        result, docs = load_game_and_documents(folder)
        found = list(result.diagnostics)
        game = result.game
        if game is not None and result.ok and docs is not None:
            from pnp.render.preflight import preflight  # the renderer loads only when needed
            from pnp.rulesheet.check import variant_check

            # every --variant loads too, and its rulesheet renders (a template may branch on it)
            checks = variant_check(game) if game.variants else None  # reads the sources
            found.extend(variant_problems(folder, result, docs, checks))

            found.extend(preflight(game, paper))  # every kind's checks, the rulesheet's too
            if game.selfplay is not None:  # game.yaml's default line-up: engine bot names
                from pnp.engine import selfplay_default

                found.extend(selfplay_default.problems(game))
        diags.extend(found)
        errors = sum(d.severity == ERROR for d in found)
        warnings = sum(d.severity == WARNING for d in found)
        summary.append({
            "game": folder.name, "files": len(result.files), "errors": errors, "warnings": warnings,
            "checked": _checked(game) if game else {},
        })
    failed = has_errors(diags, strict)
    if fmt == "json":
        click.echo(render_json(diags, ok=not failed, games=summary))
    else:
        if diags:
            click.echo(render_text(diags))
        for s in summary:
            what = ", ".join(f"{n} {k}" for k, n in s["checked"].items() if n)
            click.echo(f"{s['game']}: {s['files']} files, {s['errors']} errors, "
                       f"{s['warnings']} warnings" + (f" ({what})" if what else ""), err=True)
    sys.exit(EXIT_ERRORS if failed else EXIT_OK)


def _checked(game) -> dict[str, int]:
    return {
        "stats": len(game.stats), "tracks": len(game.tracks),
        "spaces": sum(len(t.spaces) for t in game.tracks.values()),
        "charts": len(game.charts), "tables": len(game.tables), "phases": len(game.phases),
        "decks": len(game.decks), "cards": sum(len(d.cards) for d in game.decks.values()),
        "boards": len(game.boards), "record sheets": len(game.record_sheets),
        "interpretations": len(game.interpretations), "variants": len(game.variants),
    }
