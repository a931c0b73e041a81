"""Setup: decks shuffled, rows dealt, boards, starting cards, citizens and coins; and the
refills of the rows and decks that setup and later rounds share."""

from __future__ import annotations

from typing import Any

from pnp.engine.api import MAIN

from .pieces import set_tok
from .rules import BOARD
from .table import Table


class Setup(Table):
    """Setting up the table and refilling its rows."""

    def setup(self, shuffle: bool = True) -> None:
        """Decks shuffled, rows dealt, player boards, starting cards, citizens and coins."""
        st, rule, n = self.st, self.rule, self.n
        for z in ("empire-a", "empire-b", "military-deck", "districts", "titans-1", "titans-2",
                  "titans-3", "starting-titans"):
            if shuffle:
                self.shuffle(self.zone(z), f"shuffle {z}")
        for z in ("districts", "titans-1", "titans-2", "titans-3"):
            self.flip_top(z)
        row = rule("rows", "empire_by_players")[n - 2]
        self.refill("empire-row", "empire-a", row)
        self.refill("military-row", "military-deck", n)
        st.vars["spaces"] = {s: [] for s in BOARD}
        st.vars["amb"] = {s: 0 for s in BOARD}
        st.counters["round"] = 0
        st.turn = 1
        if self.r.amb:
            for s in self.open_spaces(1):
                self.put_ambrosia(s, rule("ambrosia", "start_on_spaces"))
        first = 0
        st.vars["first"] = first
        extra = rule("setup", "extra_coins_by_seat")
        boards = [b["id"] for b in self.r.boards]
        if self.r.city_states and shuffle:  # boards dealt at random (a scenario keeps the order)
            self.shuffle(boards, "deal city-states")
        for seat, p in enumerate(st.players):
            if self.r.city_states:
                p.vars["city"] = boards[seat % len(boards)]
            order = (seat - first) % n
            self.gain(seat, "coins", rule("setup", "coins") + extra[order]
                      + self.city(seat).get("coins", 0))
            self.gain(seat, "knowledge", self.city(seat).get("knowledge", 0))
            for skill in range(1, rule("setup", "citizens") + 1):
                p.vars["cit"].append([skill, "ready"])
                st.supply["citizens"] -= 1
            for cid in rule("setup", "starting_empire"):
                self.take_card("starting-empire", cid, "empire", seat)
            for i, cid in enumerate(rule("setup", "starting_military")):
                card = self.take_card("starting-military", cid, "armies", seat)
                set_tok(card, "army", i)
                set_tok(card, "name", 0)
                set_tok(card, "picture", 0)
            if rule("setup", "starting_titan") and self.zone("starting-titans"):
                t = self.zone("starting-titans").pop(0)
                self.zone("threat", seat).append(t)
        box = self.zone("box")
        for z in ("starting-empire", "starting-military", "starting-titans"):
            box.extend(self.zone(z))
            self.zone(z).clear()
        st.stage = MAIN
        st.phase = 0

    def take_card(self, zone: str, cid: str, into: str, seat: int) -> Any:
        src = self.zone(zone)
        card = next(c for c in src if c.card == cid)
        src.remove(card)
        self.zone(into, seat).append(card)
        return card

    def refill(self, row: str, deck: str, count: int) -> None:
        cards = self.zone(deck)
        while len(self.zone(row)) < count:
            if not cards:
                discard = self.zone("military-discard" if deck == "military-deck"
                                    else "empire-discard")
                if not discard:
                    return
                cards.extend(discard)
                discard.clear()
                self.shuffle(cards, f"reshuffle {deck}")
            self.zone(row).append(cards.pop(0))

    def refill_deck_from_discard(self, deck: str) -> None:
        if not self.zone(deck) and self.zone("empire-discard"):
            self.zone(deck).extend(self.zone("empire-discard"))
            self.zone("empire-discard").clear()
            self.shuffle(self.zone(deck), f"reshuffle {deck}")
