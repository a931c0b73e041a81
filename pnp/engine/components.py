"""From a game's components to the engine's state and metadata: the reusable half of a module.

A rules module for a card, market or worker-placement game needs the same few things from the
data: the bounds of every counter, the supplies at their stock, who sees each zone, and the
cards dealt into the zones they start in (one instance per copy). These helpers build them from
GameDef's components (components.yaml, stats.yaml, decks), so a module only writes its rules.
"""

from __future__ import annotations

from typing import Any

from pnp.engine.state import ALL, NOBODY, OWNER, CardInstance, PlayerState, State

Bounds = dict[str, tuple[int | None, int | None]]


def counter_bounds(game: Any) -> tuple[Bounds, Bounds]:
    """(per-player bounds, shared bounds) of every counter; derived stats are left out."""
    mine: Bounds = {}
    shared: Bounds = {}
    for c in (getattr(game, "counters", None) or {}).values():
        stat = (getattr(game, "stats", None) or {}).get(c.id)
        if stat is not None and stat.derived:
            continue
        (mine if c.per_player else shared)[c.id] = (c.min, c.cap)
    return mine, shared


def supplies(game: Any) -> dict[str, tuple[int, bool]]:
    """supply id -> (stock, may run out)."""
    return {s.id: (s.stock, s.may_run_out)
            for s in (getattr(game, "supplies", None) or {}).values()}


def full_supplies(game: Any) -> dict[str, int]:
    """supply id -> its stock: every supply full, as a new game's state starts."""
    return {s: stock for s, (stock, _) in supplies(game).items()}


def supply_links(game: Any) -> dict[str, str]:
    """counter id -> the supply whose tokens it holds (a counter's `supply:` in the data)."""
    return {c.id: c.supply for c in (getattr(game, "counters", None) or {}).values()
            if getattr(c, "supply", None)}


def zone_visibility(game: Any) -> dict[str, str]:
    """zone id -> who sees its cards: 'all', 'owner' or 'none'."""
    out = {}
    for z in (getattr(game, "zones", None) or {}).values():
        vis = z.visible_to
        if z.face == "down" and vis == ALL:
            vis = NOBODY
        out[z.id] = vis if vis in (ALL, OWNER, NOBODY) else ALL
    return out


def deal_cards(game: Any, deck_id: str, first_uid: int = 0) -> list[CardInstance]:
    """One instance per printed copy of every card of a deck, in deck order (shuffle later)."""
    deck = game.decks[deck_id]
    out = []
    uid = first_uid
    for card in deck.cards:
        for _ in range(card.count):
            out.append(CardInstance(uid, card.id))
            uid += 1
    return out


def initial_state(game: Any, players: int) -> State:
    """Counters at their start values, supplies full, every zone created (per player or
    shared) and each deck's cards in the zone that names it, in deck order."""
    mine = [c for c in (getattr(game, "counters", None) or {}).values() if c.per_player]
    stats = getattr(game, "stats", None) or {}
    mine = [c for c in mine if not (c.id in stats and stats[c.id].derived)]
    shared = [c for c in (getattr(game, "counters", None) or {}).values() if not c.per_player]
    state = State([PlayerState({c.id: c.start for c in mine}) for _ in range(players)],
                  counters={c.id: c.start for c in shared},
                  supply=full_supplies(game))
    uid = 0
    for z in (getattr(game, "zones", None) or {}).values():
        if z.owner == "player":
            for p in state.players:
                p.zones[z.id] = []
            continue
        cards = []
        if z.deck:
            cards = deal_cards(game, z.deck, uid)
            uid += len(cards)
        state.zones[z.id] = cards
    return state
