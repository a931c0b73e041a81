"""A game's own default line-up (game.yaml `selfplay: bots:`), checked as --bots is.

The bot names are the engine's, so the check lives here, above the data layer: `pnp validate`
adds it to the data's diagnostics (as it adds the renderer's preflight), and the commands that
play refuse a bad default with the same diagnostic before any game is played.
"""

from __future__ import annotations

import difflib
from typing import Any

from pnp.diagnostics import ERROR, Diagnostic
from pnp.engine import lineup
from pnp.engine.bots import BOTS, bot_factory

#: game.yaml `selfplay: bots:` names a bot self-play cannot seat
SELFPLAY_LINEUP = "PNP-L043"


def problems(game: Any) -> list[Diagnostic]:
    """Each name a known bot with a budget it takes (at the name's place in game.yaml), then
    the whole line-up seatable at every player count the game allows."""
    block = getattr(game, "selfplay", None)
    if block is None:
        return []
    out = []
    for name, pos in zip(block.bots, block.positions, strict=True):
        try:
            bot_factory(name)
        except ValueError as exc:
            base = name.partition(":")[0]
            close = difflib.get_close_matches(base, BOTS, 1) if base not in BOTS else []
            hint = (f"did you mean '{close[0]}'? " if close else "") + \
                "name bots as --bots does (docs/simulate.md, Bots)"
            out.append(Diagnostic.at(pos, ERROR, SELFPLAY_LINEUP, f"selfplay: {exc}", hint))
    if out:
        return out
    for players in range(game.players_min, game.players_max + 1):
        if problem := lineup.problem(block.bots, players):
            return [Diagnostic.at(block.origin, ERROR, SELFPLAY_LINEUP, f"selfplay: {problem}",
                                  "name fewer different bots in selfplay: bots:")]
    return []
