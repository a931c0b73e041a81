"""`pnp preflight`: check a built shop folder against its shop profile before uploading it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from pnp.commands.common import EXIT_ERRORS, EXIT_OK
from pnp.diagnostics import ERROR, WARNING, has_errors, render_json, render_text


@click.command("preflight")
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--shop", default=None, metavar="NAME|FILE",
              help="The shop profile to check against (default: the one the folder was built "
              "for, from its shop.json).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@click.option("--strict", is_flag=True, help="Treat warnings as errors (exit 1).")
def command(folder: Path, shop: str | None, fmt: str, strict: bool) -> None:
    """Check a shop folder (`pnp build GAME --shop ID` wrote OUT/GAME/shop-ID/) against a shop
    profile: page sizes and boxes, bleed on every edge, page counts and order, image dpi, PNG
    pixel sizes, fonts embedded, text outside the trim or safe zone, colour space and ink.
    Exit 0 when it is ready to upload, 1 when something is wrong."""
    from pnp.render.shops.check import check_shop
    from pnp.render.shops.profile import load_profile

    if not (folder / "shop.json").is_file() and shop and (folder / f"shop-{shop}").is_dir():
        folder = folder / f"shop-{shop}"  # the kit folder and a bundled shop's name
    if shop is None:
        try:
            shop = json.loads((folder / "shop.json").read_text(encoding="utf-8"))["shop"]
        except (OSError, ValueError, KeyError, TypeError):
            raise click.UsageError(f"{folder} has no shop.json naming its shop: pass --shop") \
                from None
    profile, diags = load_profile(shop)
    if profile is not None:
        diags = diags + check_shop(folder, profile)
    failed = profile is None or has_errors(diags, strict)
    if fmt == "json":
        click.echo(render_json(diags, ok=not failed, folder=str(folder), shop=shop))
    else:
        if diags:
            click.echo(render_text(diags))
        errors = sum(d.severity == ERROR for d in diags)
        warnings = sum(d.severity == WARNING for d in diags)
        click.echo(f"{folder}: {errors} errors, {warnings} warnings against {shop}", err=True)
    sys.exit(EXIT_ERRORS if failed else EXIT_OK)
