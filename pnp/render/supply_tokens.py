"""Supply tokens: every supply with `token:` in components.yaml printed as `stock` tokens, so the
sheet holds exactly the box the self-play's supplies count (the count is written once).

A token's colour defaults to the map resource of the same id (Antike's marble, iron and gold
chips take the map's colours), its text to the name of the counter that holds the supply's
tokens (what a player calls them), else the supply's own name.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pnp.diagnostics import Diagnostic

#: the kit file
FILE_NAME = "supply-tokens.pdf"
#: a token without a colour of its own or of a map resource
PLAIN = "#e6e1d3"


def _holder_names(game: Any) -> dict[str, str]:
    """supply id -> the name of the first counter (or stat) whose `supply:` names it."""
    out: dict[str, str] = {}
    for c in (getattr(game, "counters", None) or {}).values():
        if getattr(c, "supply", None):
            out.setdefault(c.supply, c.name)
    return out


def supply_groups(game: Any) -> list:
    """One token group per printed supply, in data order: `stock` tokens of it."""
    from pnp.render.tokens import TokenGroup

    gmap = getattr(game, "map", None)
    resources = {r.id: r.colour for r in gmap.resources.values()} if gmap is not None else {}
    holders = _holder_names(game)
    groups = []
    for s in (getattr(game, "supplies", None) or {}).values():
        tok = s.token
        if tok is None:
            continue
        colour = tok.colour or resources.get(s.id) or PLAIN
        text = tok.text if tok.text is not None else holders.get(s.id, s.name)
        groups.append(TokenGroup(s.name, colour, s.stock, tok.shape, tok.size, text,
                                 tok.origin))
    return groups


def check_supply_tokens(game: Any, paper_size: tuple[float, float]) -> list[Diagnostic]:
    """Every printed supply that cannot be drawn on this paper (PNP-R060), nothing written."""
    from pnp.render.tokens import check_groups

    return check_groups(supply_groups(game), paper_size)[1]


def render_supply_tokens(game: Any, out_dir: str | os.PathLike, paper: str = "a4",
                         ) -> tuple[list[Path], list[Diagnostic]]:
    """`supply-tokens.pdf` (nothing when no supply is printed, or one cannot be drawn)."""
    from pnp.render.tokens import render_tokens

    groups = supply_groups(game)
    if not groups:
        return [], []
    return render_tokens(groups, Path(out_dir) / FILE_NAME, paper,
                         title=f"{game.name} — supply tokens")
