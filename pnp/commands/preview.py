"""`pnp preview`: a local page showing every component of a game, redrawn as files are saved."""

from __future__ import annotations

import sys

import click

from pnp.commands.common import EXIT_ERRORS, EXIT_OK, paper_option, resolve_games


@click.command("preview")
@click.argument("game", metavar="GAME")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to serve on; only this machine can connect to the default. "
              "Another address lets other machines read the game's data and images.")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="The port (0: a free one).")
@click.option("--no-open", is_flag=True, help="Do not open the page in the browser.")
@paper_option("The paper boards, sheets and the rulesheet are laid out on.")
def command(game: str, host: str, port: int, no_open: bool, paper: str) -> None:
    """Show every card, board, sheet and token of GAME in the browser and redraw what a saved
    change touches (Ctrl+C stops it); read-only, on 127.0.0.1 unless --host says otherwise."""
    import uvicorn

    from pnp.preview.server import bind, make_app
    from pnp.preview.state import PreviewState

    folder = resolve_games((game,))[0]
    state = PreviewState(folder, paper)
    first = state.refresh()
    try:
        sock = bind(host, port)
    except OSError as exc:
        click.echo(f"cannot listen on {host}:{port}: {exc.strerror or exc}", err=True)
        sys.exit(EXIT_ERRORS)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{sock.getsockname()[1]}/"
    errors = sum(len(v) for v in first.diagnostics.values())
    click.echo(f"pnp preview of {folder.name} at {url} ({len(state.items)} cards"
               + (f", {errors} diagnostics on the page" if errors else "") + "); Ctrl+C stops it",
               err=True)
    sys.stdout.flush()
    if not no_open:
        import webbrowser

        webbrowser.open(url)
    config = uvicorn.Config(make_app(state, host), log_level="warning", lifespan="on",
                            timeout_graceful_shutdown=1)
    uvicorn.Server(config).run(sockets=[sock])
    sys.exit(EXIT_OK)
