"""Preflight: every problem `pnp build` would hit, found without writing a file.

`pnp validate` and `pnp build` both call `preflight`; build stops before writing anything when
it finds an error, so the two commands cannot disagree about the game's data. It asks every
registered kind of component (pnp/render/kinds.py) that the game has for its checks: the
checks of record sheets, boards, pawns and cards live here (compile every layout the decks
use, draw every card face once on a scratch canvas for templates, colours, lengths, fonts,
images, icons and text fit, check card and token sizes against the paper, lay out boards and
draw them for text fit, impose record sheets); the rulesheet's are pnp.rulesheet.check.

A layout problem that is not one card's data (a template bug, a missing field, a bad constant)
is reported once, at the layout line, naming the cards it breaks; a card's own bad value is
reported at that value.
"""

from __future__ import annotations

import io
from typing import Any

from pnp.diagnostics import ERROR, Diagnostic
from pnp.paper import CUSTOM_EXAMPLE, names_text
from pnp.render.geometry import GeometryError, card_size, impose_grid, parse_paper
from pnp.render.layout import (
    R_SANDBOX,
    R_TEMPLATE_ERROR,
    R_TEMPLATE_LIMIT,
    R_TEMPLATE_SYNTAX,
    R_UNDEFINED,
    ElementError,
    load_library,
)
from pnp.render.pdfops import discard_operators

R_PAPER = "PNP-R051"  # a bad --paper (same code as the card renderer's option errors)
MAX_CARDS_NAMED = 5
#: template syntax, undefined names, sandbox refusals and exceptions raised by a template:
#: reported at the layout line, whatever card field the template happened to read first
TEMPLATE_CODES = {R_TEMPLATE_SYNTAX, R_UNDEFINED, R_SANDBOX, R_TEMPLATE_ERROR, R_TEMPLATE_LIMIT}  # cards listed by name in a once-per-layout diagnostic


def preflight(game: Any, paper: str = "a4") -> list[Diagnostic]:
    """Every diagnostic building `game` on `paper` would give, in a stable order, each once."""
    try:
        paper_size = parse_paper(paper)
    except GeometryError as exc:
        return [Diagnostic(ERROR, R_PAPER, f"--paper {paper!r}: {exc}",
                           hint=f"use {names_text()} or {CUSTOM_EXAMPLE}")]
    from pnp.render.kinds import renderers

    out: list[Diagnostic] = []
    for kind in renderers():
        if not kind.applies(game):
            continue
        for d in kind.preflight(game, paper_size):
            if d not in out:
                out.append(d)
    return out


def _scratch_canvas(paper_size: tuple[float, float]):
    """A canvas whose drawing is thrown away: fonts, forms and measurement work as in a build."""
    from pnp.render.pdfwrite import new_canvas

    return new_canvas(io.BytesIO(), paper_size, "preflight")


# ---------------------------------------------------------------------------------------------
# record sheets, boards, tokens


def check_records(game: Any, paper_size) -> list[Diagnostic]:
    from pnp.render.records import check_sheet

    out: list[Diagnostic] = []
    for sheet in game.record_sheets.values():
        out.extend(check_sheet(game, sheet, paper_size)[1])
    return out


def check_boards(game: Any, paper_size) -> list[Diagnostic]:
    from pnp.render.boards import Diags, check_board, draw_board

    out: list[Diagnostic] = []
    for board in game.boards.values():
        plan, diags = check_board(game, board, paper_size)
        out.extend(diags)
        if plan is None:
            continue
        bd = Diags()
        c = _scratch_canvas(paper_size)
        draw_board(c, plan[0], bd, game.name)
        out.extend(bd.items)
    return out


def check_pawns(game: Any, paper_size) -> list[Diagnostic]:
    from pnp.render.build import pawn_groups
    from pnp.render.tokens import check_groups

    groups, diags = pawn_groups(game)
    return diags + check_groups(groups, paper_size)[1]


# ---------------------------------------------------------------------------------------------
# cards


def fit_diagnostics(layout: Any, game: Any) -> list[Diagnostic]:
    """Every box of `layout` that declares `holds` checked against its occupants (layout.fit)."""
    from pnp.render.layout.fit import check_holds

    out: list[Diagnostic] = []
    for el in layout.elements:
        for inner in getattr(el, "elements", None) or [el]:  # a StaticRun groups several
            out.extend(check_holds(inner, game, layout.id))
    return out


def check_cards(game: Any, paper_size) -> list[Diagnostic]:
    from pnp.render.cuts import deck_cuts
    from pnp.render.sheets import HOME_BLEED, HOME_MARGIN, _layout, card_context

    decks = [d for d in game.decks.values() if d.printed]
    if not decks:
        return []
    library, diags = load_library(game)
    c = _scratch_canvas(paper_size)
    failures: dict[tuple, list[str]] = {}  # one entry per root cause, with the cards it breaks
    for deck in decks:
        try:
            size = card_size(deck.size)
            impose_grid(paper_size, size, HOME_BLEED, HOME_MARGIN)
        except GeometryError as exc:
            diags.append(Diagnostic.at(deck.origin, ERROR, "PNP-R040", f"deck '{deck.id}': {exc}",
                                       "card width and height must fit the paper with its margins"))
            continue
        diags.extend(deck_cuts(deck, size)[1])
        sides = [("front", deck.front)] + ([("back", deck.back)] if deck.back else [])
        for side, layout_id in sides:
            layout = _layout(library, deck, layout_id, size, diags)
            if layout is None:
                continue
            for d in fit_diagnostics(layout, game):
                if d not in diags:
                    diags.append(d)
            for card in deck.cards:
                ctx = card_context(game, deck, card)
                errors = layout.draw(c, ctx, HOME_BLEED)
                discard_operators(c)  # the drawing itself is not needed
                for err in errors:
                    key = _cause(deck, side, layout.id, card, err)
                    names = failures.setdefault(key, [])
                    if card.id not in names:
                        names.append(card.id)
    for key, names in failures.items():
        diags.append(_diagnostic(key, names))
    return diags


def _cause(deck, side: str, layout_id: str, card, err: ElementError) -> tuple:
    """What one element error is about: a card's own value (at that value) or the layout (at
    the element's line); errors with the same cause collapse into one diagnostic."""
    own = (err.field is not None and err.field in card.fields
           and err.code not in TEMPLATE_CODES)  # a template that raises is the layout's fault
    if own:
        pos = (card.field_origins or {}).get(err.field) or card.origin
        where = f"field '{err.field}'"
    else:
        pos = err.origin or card.origin
        where = ""
    return (pos, err.severity, err.code, err.message, err.hint, deck.id, side, layout_id, where,
            own and pos == card.origin)


def _diagnostic(key: tuple, cards: list[str]) -> Diagnostic:
    pos, severity, code, message, hint, deck_id, side, layout_id, where, at_card = key
    shown = ", ".join(repr(c) for c in cards[:MAX_CARDS_NAMED])
    if len(cards) > MAX_CARDS_NAMED:
        shown += f" and {len(cards) - MAX_CARDS_NAMED} more"
    which = f"card {shown}" if len(cards) == 1 else f"cards {shown}"
    field = f", {where}" if where else ""
    return Diagnostic.at(pos, severity, code,
                         f"deck '{deck_id}', {which}{field} ({side} layout '{layout_id}'): "
                         f"{message}", hint)
