"""Card moves between zones, through the context, so every move is in the game log.

A rules module that moves cards with raw list operations (`pop`, `append`, `remove`) plays the
same game, but its log cannot show where a card went, and a replay cannot be checked against
it. These operations are the one place a card changes zone: each writes a `move` event (which
cards, from which zone to which, why, for whom) when the game is logged, and costs one `is
None` test when it is not. Chance stays where it was: a shuffle is `ctx.shuffle`, a recorded
chance step; everything else here is deterministic given the state.

Zones are named as the state names them: a shared zone by its id (`"market"`), a player's zone
by `(id, seat)` (`("hand", 2)`). The top of a zone is index 0, as `ctx.draw` reads it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pnp.engine.state import State

#: a shared zone's id, or a player's zone as (id, seat)
ZoneRef = str | tuple[str, int]


def zone_name(ref: ZoneRef) -> str:
    """How a zone is written in the log: `market`, or `hand@2` for seat 2's hand."""
    return ref if isinstance(ref, str) else f"{ref[0]}@{ref[1]}"


def _zone(state: State, ref: ZoneRef) -> list:
    if isinstance(ref, str):
        return state.zone(ref)
    return state.zone(ref[0], ref[1])


def _index_of(cards: list, card: Any) -> int:
    """Position of this very card (by identity: two copies of a card are equal as data)."""
    for i, c in enumerate(cards):
        if c is card:
            return i
    raise ValueError(f"card {getattr(card, 'card', card)!r} is not in the zone")


class ZoneOps:
    """The zone operations of a Context (mixed into it): move, take, draw_to, refill,
    reshuffle, deal. `self.state`, `self.log` and `self.shuffle` are the Context's."""

    state: State
    log: list | None

    def shuffle(self, cards: list, why: str) -> None:  # pragma: no cover - Context's
        raise NotImplementedError

    def zone(self, ref: ZoneRef) -> list:
        """The cards of a zone (created empty on first use)."""
        return _zone(self.state, ref)

    def _moved(self, cards: Sequence[Any], src: ZoneRef, dst: ZoneRef, why: str,
               seat: int) -> None:
        if self.log is not None and cards:
            self.log.append({"e": "move", "seat": seat, "why": why, "from": zone_name(src),
                             "to": zone_name(dst), "cards": [getattr(c, "card", c) for c in cards]})

    def move(self, card: Any, src: ZoneRef, dst: ZoneRef, why: str, seat: int = -1,
             top: bool = False) -> Any:
        """Move this card from `src` to the bottom of `dst` (its top with `top=True`)."""
        cards = _zone(self.state, src)
        del cards[_index_of(cards, card)]
        return self._put(card, src, dst, why, seat, top)

    def take(self, src: ZoneRef, index: int, dst: ZoneRef, why: str, seat: int = -1,
             top: bool = False) -> Any:
        """Move the card at position `index` of `src` (0 is the top) to `dst`."""
        card = _zone(self.state, src).pop(index)
        return self._put(card, src, dst, why, seat, top)

    def _put(self, card: Any, src: ZoneRef, dst: ZoneRef, why: str, seat: int,
             top: bool) -> Any:
        """Place a card just taken from `src` on `dst` (bottom, or top) and log the move."""
        target = _zone(self.state, dst)
        if top:
            target.insert(0, card)
        else:
            target.append(card)
        self._moved((card,), src, dst, why, seat)
        return card

    def draw_to(self, src: ZoneRef, count: int, dst: ZoneRef, why: str,
                seat: int = -1) -> list:
        """Move up to `count` cards from the top of `src` to the bottom of `dst`, in order."""
        cards = _zone(self.state, src)
        taken = cards[:count]
        del cards[:count]
        _zone(self.state, dst).extend(taken)
        self._moved(taken, src, dst, why, seat)
        return taken

    def reshuffle(self, discard: ZoneRef, deck: ZoneRef, why: str) -> int:
        """Shuffle the discard pile and put it under the deck (the usual refresh of a deck
        that ran out); returns how many cards went back."""
        cards = _zone(self.state, discard)
        if not cards:
            return 0
        self.shuffle(cards, why)
        back = list(cards)
        cards.clear()
        _zone(self.state, deck).extend(back)
        self._moved(back, discard, deck, why, -1)
        return len(back)

    def refill(self, row: ZoneRef, deck: ZoneRef, size: int, why: str,
               discard: ZoneRef | None = None) -> list:
        """Fill a face-up row from the top of the deck until it holds `size` cards. With a
        `discard`, a deck that runs out is refreshed from it (reshuffle) and drawing goes on;
        without one, or when both are empty, the row stays short. Returns the cards added."""
        cards = _zone(self.state, row)
        added: list = []
        while len(cards) < size:
            pile = _zone(self.state, deck)
            if not pile:
                if discard is None or not self.reshuffle(discard, deck, f"refresh {zone_name(deck)}"):
                    break
                continue
            added.extend(self.draw_to(deck, min(size - len(cards), len(pile)), row, why))
        return added

    def deal(self, deck: ZoneRef, zone: str, seats: Iterable[int], count: int,
             why: str) -> None:
        """Deal `count` cards to each seat's `zone`, one at a time around the table, from the
        top of `deck` (a short deck deals what it has)."""
        order = list(seats)
        for _ in range(count):
            for seat in order:
                if not _zone(self.state, deck):
                    return
                self.take(deck, 0, (zone, seat), why, seat)
