"""`pnp probe`: is an option greedy never picks worth picking? One seat takes it; paired."""

from __future__ import annotations

import sys
from typing import Any

import click

from pnp.commands.common import EXIT_ERRORS, EXIT_OK
from pnp.commands.simulate import check_players, format_option, load_variant, progress_bar
from pnp.data.limits import MAX_GAMES

#: decisions listed in the hint when the named one was never offered
HINT_DECISIONS = 12


@click.command("probe")
@click.argument("game")
@click.option("--at", "at", metavar="WHY", default=None,
              help="The decision, as simulate's choices name it ('build: pay to move').")
@click.option("--pick", metavar="LABEL", default=None,
              help="The option to take there, as simulate's choices name it ('stop').")
@click.option("--share", type=click.FloatRange(0, 1, min_open=True), default=1.0,
              show_default=True, help="Take it at this share of the decisions that offer it.")
@click.option("--value", "values", multiple=True, metavar="STAT=WORTH",
              help="The probe seat's greedy values STAT at WORTH (repeatable).")
@click.option("--worths", is_flag=True,
              help="Sweep the bot's worths instead: each stat valued at nothing, half and "
                   "twice its worth, one probe each; says which wins more.")
@click.option("--players", "-p", type=int, default=None,
              help="Players (default: the game's recommended count).")
@click.option("--games", "-n", type=click.IntRange(1, MAX_GAMES), default=300,
              show_default=True, help="Games (rounded up to whole rounds of the seatings).")
@click.option("--seed", "-s", type=int, default=1, show_default=True, help="Base seed.")
@click.option("--variant", default=None, help="Rule variant ('base' = none).")
@click.option("--opponent", default=None, metavar="BOT",
              help="The bot the probe is built on and plays against (default: the game's own "
                   "self-play bot, else greedy).")
@format_option
def command(game: str, at: str | None, pick: str | None, share: float,
            values: tuple[str, ...], worths: bool, players: int | None, games: int, seed: int,
            variant: str | None, opponent: str | None, fmt: str) -> None:
    """Ask the game whether an option greedy passes over is worth taking: one seat takes it
    (or values a stat differently) against greedy, paired with greedy on the same seeds
    (exit 1 if the option was never offered or a game broke a rule check)."""
    from pnp.engine.probe import Probe, ProbeError, games_to_play, run_probe

    if (at is None) != (pick is None):
        raise click.UsageError("give --at and --pick together")
    if worths and (at is not None or values):
        raise click.UsageError("--worths sweeps every stat's worth on its own: give it alone")
    if at is None and not values and not worths:
        raise click.UsageError("give --at WHY --pick LABEL, or --value STAT=WORTH, or both, "
                               "or --worths")
    loaded, variant = load_variant(game, variant)
    count = check_players(loaded, players)
    if worths:
        sweep(loaded, variant, count, games, seed, opponent_for(loaded, opponent), fmt)
        return
    probe = Probe(at, pick, share, parse_values(values, loaded))
    bot = opponent_for(loaded, opponent)
    with progress_bar(2 * games_to_play(games, count, bot), f"{loaded.id} probe") as update:
        try:
            result = run_probe(loaded, count, games, seed, probe, bot, progress=update)
        except ProbeError as err:
            click.echo(f"error: {err}; `pnp simulate {game}` reports it with the game's "
                       f"findings", err=True)
            sys.exit(EXIT_ERRORS)
    doc = document(loaded, variant, count, seed, probe, bot, result)
    if fmt == "json":
        from pnp.report.text import render_json

        click.echo(render_json(doc))
    else:
        click.echo(render_text(doc))
    sys.exit(EXIT_ERRORS if at is not None and not result.offered else EXIT_OK)


def sweep(game: Any, variant: str | None, players: int, games: int, seed: int, bot: str,
          fmt: str) -> None:
    """`--worths`: the worth sweep (pnp/engine/probe.py), as JSON or a table; exit 0 (a
    blind spot is a finding about the bot, not a failure), 1 if a game broke."""
    from pnp.engine.probe import SWEEP_FACTORS, ProbeError, games_to_play, sweep_games, worth_sweep

    with progress_bar(sweep_games(game, players, games, bot), f"{game.id} worths") as update:
        try:
            rows = worth_sweep(game, players, games, seed, bot, progress=update)
        except ProbeError as err:
            click.echo(f"error: {err}; `pnp simulate {game.id}` reports it with the game's "
                       f"findings", err=True)
            sys.exit(EXIT_ERRORS)
    doc = {"game": game.id, "variant": variant or "base", "players": players, "seed": seed,
           "games": games_to_play(games, players, bot), "opponent": bot,
           "factors": list(SWEEP_FACTORS), "worths": rows}
    if fmt == "json":
        from pnp.report.text import render_json

        click.echo(render_json(doc))
    else:
        click.echo(render_sweep(doc))
    sys.exit(EXIT_OK)


def render_sweep(doc: dict[str, Any]) -> str:
    """The worth sweep as a table: a line per stat, a column per factor (gain, interval)."""
    lines = [f"{doc['game']} ({doc['variant']}): the worths of {doc['opponent']}, each stat "
             f"valued by one seat at " + ", ".join(f"{f:g}×" for f in doc["factors"])
             + f" its worth; {doc['games']} games a probe, {doc['players']} players, seed "
             f"{doc['seed']}, paired with {doc['opponent']} alone",
             (f"  {'stat':<22}{'worth':>7}  "
              + "".join(f"{f'at {f:g}×':<28}" for f in doc["factors"])).rstrip()]
    by_stat: dict[str, list[dict[str, Any]]] = {}
    for row in doc["worths"]:
        by_stat.setdefault(row["stat"], []).append(row)
    for stat, rows in by_stat.items():
        cells = []
        for r in rows:
            lo, hi = r["gain_ci95"]
            mark = " *" if r["blind_spot"] else ""
            cells.append(f"{r['gain']:+.1%} [{lo:+.1%}, {hi:+.1%}]{mark}" if r["overrides"]
                         else "same games")
        lines.append((f"  {stat:<22}{rows[0]['worth']:>7g}  " + "".join(f"{c:<28}" for c in cells)).rstrip())
    found = [r for r in doc["worths"] if r["blind_spot"]]
    if found:
        lines.append("  * wins more than the bot's own worth (Holm-corrected over the sweep): "
                     + "; ".join(f"{r['stat']} at {r['probe_worth']:g} ({r['gain']:+.1%}, "
                                 f"p = {r['p_holm']:g})" for r in found)
                     + ": a blind spot of the bot's worths; set it in the rules module's "
                     "GameMeta bot_values, then play another seed to confirm")
    else:
        lines.append(f"  no worth wins more than the bot's own (Holm-corrected over "
                     f"{len(doc['worths'])} probes): no blind spot a worth change shows")
    unweighed = [stat for stat, rows in by_stat.items()
                 if rows[0]["worth"] and not any(r["overrides"] for r in rows)]
    if unweighed:
        lines.append(f"  the same games at every worth: {', '.join(unweighed)} (no decision "
                     f"the bot met carried a change in them, so their worth is never read)")
    return "\n".join(lines)


def opponent_for(game: Any, name: str | None) -> str:
    """--opponent, else the game's own self-play bot when its line-up is one bot (Antike's
    greedy-varied: greedy would play one game however many are asked for), else greedy."""
    from pnp.commands.simulate import parse_bots

    if name is None:
        own = getattr(game, "selfplay", None)
        name = own.bots[0] if own is not None and len(set(own.bots)) == 1 else "greedy"
    try:
        names = parse_bots(name)
    except click.BadParameter as err:
        raise click.BadParameter(err.message, param_hint="--opponent") from None
    if len(names) != 1:
        raise click.BadParameter(f"{name!r}: name one bot", param_hint="--opponent")
    return names[0]


def parse_values(items: tuple[str, ...], game: Any) -> dict[str, float]:
    """--value STAT=WORTH pairs; a stat the game has neither in stats.yaml nor among its
    bots' worths (GameMeta.bot_values), or a worth that is not a number, is a usage error
    naming what is known."""
    out: dict[str, float] = {}
    if not items:
        return out
    from pnp.engine.play import rules

    worths = set(game.stats) | set(rules(game).metadata(game).bot_values)
    for item in items:
        stat, _, worth = item.partition("=")
        stat = stat.strip()
        if stat not in worths:
            known = ", ".join(sorted(worths)) or "(none)"
            raise click.BadParameter(f"{item!r}: {game.id} has no stat {stat!r} (stats: "
                                     f"{known})", param_hint="--value")
        try:
            out[stat] = float(worth)
        except ValueError:
            raise click.BadParameter(f"{item!r}: give STAT=WORTH, a number",
                                     param_hint="--value") from None
    return out


def verdict(lo: float, hi: float, probe: Any, opponent: str, result: Any) -> str:
    """The gain's interval in plain words."""
    if not result.overrides:
        return (f"nothing was probed: the probe seat picked as {opponent} does at every "
                f"decision, so it played {opponent}'s games")
    if lo > 0:
        return (f"the probe wins more than {opponent} in the same seats: {opponent}'s habit "
                f"there is a blind spot of the bot, not a fact about the game")
    if hi < 0:
        return ("the probe wins less: this way of playing it loses (another way might not: "
                "try --share)" if probe.at else f"the probe wins less: {opponent}'s own worths "
                "play better here")
    return "no difference the games can tell apart: play more games to narrow it"


def document(game: Any, variant: str | None, players: int, seed: int, probe: Any,
             opponent: str, result: Any) -> dict[str, Any]:
    """The probe's figures as plain data (the JSON output; the text is drawn from it)."""
    from pnp.engine import stats as st

    lo, hi = st.wilson(sum(result.shares), len(result.shares))
    gain, gain_lo, gain_hi = result.gain()
    decisions = sorted({why for why, _ in result.asked})
    return {
        "game": game.id, "variant": variant or "base", "players": players, "seed": seed,
        "games": result.games, "opponent": opponent,
        "probe": {"at": probe.at, "pick": probe.pick, "share": probe.share,
                  "values": dict(probe.values), "describe": probe.describe()},
        "offered": result.offered, "overrides": result.overrides,
        "seat_games": len(result.shares),
        "probe_rate": round(result.rate, 4), "probe_ci95": [round(lo, 4), round(hi, 4)],
        "greedy_rate": round(result.greedy_rate, 4),
        "gain": round(gain, 4), "gain_ci95": [round(gain_lo, 4), round(gain_hi, 4)],
        "verdict": verdict(gain_lo, gain_hi, probe, opponent, result),
        "decisions": decisions if probe.at is not None and not result.offered else [],
        "options_there": sorted(label for why, label in result.asked if why == probe.at),
    }


def render_text(doc: dict[str, Any]) -> str:
    """The probe's report as a few lines of text."""
    lo, hi = doc["probe_ci95"]
    g_lo, g_hi = doc["gain_ci95"]
    lines = [f"{doc['game']} ({doc['variant']}): {doc['games']} games, {doc['players']} "
             f"players, seed {doc['seed']}; one seat {doc['probe']['describe']}, {doc['opponent']} "
             f"in the others, then the same seeds with {doc['opponent']} alone"]
    offered = f"offered at {doc['offered']} decisions; " if doc["probe"]["at"] else ""
    lines.append(f"  {offered}picked otherwise than {doc['opponent']} at {doc['overrides']}")
    if doc["probe"]["at"] is not None:
        if not doc["offered"] and doc["options_there"]:
            lines.append(f"  never offered: {doc['probe']['at']!r} offered "
                         + ", ".join(map(repr, doc["options_there"])))
        elif not doc["offered"]:
            shown = doc["decisions"][:HINT_DECISIONS]
            more = len(doc["decisions"]) - len(shown)
            lines.append(f"  never offered: no decision {doc['probe']['at']!r} offered "
                         f"{doc['probe']['pick']!r}. Decisions this game asked: "
                         + ", ".join(map(repr, shown)) + (f" and {more} more" if more else "")
                         + " (`pnp simulate --format json` lists each one's options)")
    lines.append(f"  probe wins {doc['probe_rate']:.1%} of its {doc['seat_games']} seat-games "
                 f"[{lo:.1%}–{hi:.1%}]; {doc['opponent']} in the same seats "
                 f"{doc['greedy_rate']:.1%}; "
                 f"gain {doc['gain']:+.1%} [{g_lo:+.1%} to {g_hi:+.1%}], paired")
    lines.append(f"  {doc['verdict']}")
    return "\n".join(lines)
