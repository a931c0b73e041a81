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
                  "titans-3"):
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
        colours = list(range(len(boards)))
        dealt = shuffle and not self.r.city_states and rule("setup", "starting_titan")
        if dealt:
            # the rulebook gives each player a board, not the board of a seat: dealt at
            # random, so a board's starting titan is not always the same seat's (issue 20)
            self.shuffle(colours, "deal player boards")
        for seat, p in enumerate(st.players):
            if self.r.city_states:
                p.vars["city"] = boards[seat % len(boards)]
            elif dealt:
                p.vars["board"] = colours[seat % len(colours)]
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
            if rule("setup", "starting_titan"):
                titan = self.starting_titan(seat)
                if titan is not None:
                    self.mover.move(titan, "starting-titans", ("threat", seat), "starting titan",
                                    seat)
        for z in ("starting-empire", "starting-military", "starting-titans"):
            self.mover.draw_to(z, len(self.zone(z)), "box", "starting cards left over")
        st.stage = MAIN
        st.phase = 0

    def starting_titan(self, seat: int) -> Any:
        """The starting titan whose art matches the player's board: the boards and the
        starting titans are listed in the same colour order (red, blue, green, gold), and a
        seat plays the board it was dealt (`board`, or with city-states `city`), or where no
        board was dealt (a scenario) the board of its place in that order."""
        boards = [b["id"] for b in self.r.boards]
        city = self.st.players[seat].vars.get("city", "")
        colour = boards.index(city) if city in boards else self.st.players[seat].vars.get(
            "board", seat)
        titans = [c.id for c in self.r.game.decks["starting-titans"].cards]
        want = titans[colour % len(titans)]
        return next((c for c in self.zone("starting-titans") if c.card == want), None)

    def take_card(self, zone: str, cid: str, into: str, seat: int) -> Any:
        card = next(c for c in self.zone(zone) if c.card == cid)
        return self.mover.move(card, zone, (into, seat), "starting card", seat)

    def refill(self, row: str, deck: str, count: int) -> None:
        """Fill a row from the top of its deck; a deck that runs out takes its discards back,
        shuffled (not ctx.refill: its shuffle is logged as this game's always was)."""
        discard = "military-discard" if deck == "military-deck" else "empire-discard"
        while len(self.zone(row)) < count:
            if not self.zone(deck) and not self.mover.reshuffle(discard, deck,
                                                                f"reshuffle {deck}"):
                return
            self.mover.draw_to(deck, count - len(self.zone(row)), row, f"refill {row}")

    def refill_deck_from_discard(self, deck: str) -> None:
        if not self.zone(deck):
            self.mover.reshuffle("empire-discard", deck, f"reshuffle {deck}")
