"""The table one game is played at: the state, the context and the compiled rules, with the
small readings every part of the rules shares (symbols on a player's cards, capacity, the
army limit, play order, open spaces). The game's parts (setup, rounds, actions, combat,
scoring) are mixins of this class, put together in game.py."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from pnp.engine.api import Context, Estimate, GameResult, State, ZoneRef

from .pieces import is_damaged, is_retired, tok
from .rules import BOARD, Rules

_ZERO = Estimate()
#: city() without a city-state board (shared: nobody writes to it)
_NO_CITY: dict[str, Any] = {}


def at(zone: str, seat: int = -1) -> ZoneRef:
    """A zone as the context's zone operations name it: shared by id, a player's as (id, seat)."""
    return zone if seat < 0 else (zone, seat)


class _KeepOrder:
    """Chance outside a game: a shuffle keeps the order (as a scenario's does) and no die rolls."""

    def draw(self, sides: int, why: str) -> int:
        raise RuntimeError(f"no die can be rolled outside a game ({why})")

    def order(self, cards: list, why: str) -> bool:
        return True


def quiet_context(state: State) -> Context:
    """A context that moves cards without logging them, for setup outside a game (the state
    scenarios start from) and for tests that play one rule on a state."""
    n = len(state.players)
    return Context(state, _KeepOrder(), [], GameResult(game="", seed=0, players=n, bots=()))


class Table:
    """One game being played (or set up, or inspected by the invariants)."""

    def __init__(self, r: Rules, ctx: Context | None, state: State):
        self.r = r
        self.ctx = ctx
        self.st = state
        self.rule = r.rule  # remembered lookups of r.game.rule
        self.n = len(state.players)
        self._quiet: Context | None = None

    @property
    def mover(self) -> Context:
        """What moves cards between zones (so every move is logged): the game's context, or
        outside a game a quiet one that logs nothing and keeps every order."""
        if self.ctx is not None:
            return self.ctx
        if self._quiet is None:
            self._quiet = quiet_context(self.st)
        return self._quiet

    def choose(self, seat: int, options: list[str], why: str,
               est: dict[str, Estimate] | None = None,
               names: Callable[[str], str | None] | None = None) -> str:
        if len(options) == 1:
            return options[0]
        assert self.ctx is not None
        return self.ctx.choose(seat, options, why,
                               (lambda o: est.get(o, _ZERO)) if est else None, names)

    def by_card(self, pairs: Iterable[tuple[str, Any]]) -> Callable[[str], str | None]:
        """`names` for a decision whose options stand for cards ((option, card) pairs): the
        choices report counts each as its card's name, not by the instance number in its
        text ('row:88' is Desert Caravan). The pairs are read only if the report asks, during
        the choose call (a bot's playouts never ask), so a lazy zip is enough."""
        found: dict[str, str] = {}

        def name(option: str) -> str | None:
            if not found:
                f = self.r.f
                found.update((o, f(c.card, "name") or c.card) for o, c in pairs)
            return found.get(option)

        return name

    def gain(self, seat: int, token: str, n: int) -> int:
        """Take n tokens from the box (or pay them back with n < 0; never below zero)."""
        p = self.st.players[seat]
        if n < 0:
            n = -min(-n, p.counters[token])
        p.counters[token] += n
        self.st.supply[token] -= n
        if (token == "knowledge" and n > 0 and self.r.amb
                and self.city(seat).get("ambrosia_per_knowledge")):
            self.gain(seat, "ambrosia", n * self.city(seat)["ambrosia_per_knowledge"])
        return n

    def city(self, seat: int) -> dict[str, Any]:
        """The seat's city-state board ({} without one); read only."""
        return self.r.city_by_id.get(self.st.players[seat].vars.get("city", ""), _NO_CITY)

    def zone(self, name: str, seat: int = -1) -> list:
        """State.zone (created empty on first use), inline: the rules read zones constantly."""
        zones = self.st.zones if seat < 0 else self.st.players[seat].zones
        cards = zones.get(name)
        if cards is None:
            cards = zones[name] = []
        return cards

    def active_cards(self, seat: int) -> list:
        """Cards whose symbols count: undamaged empire cards, districts and defeated titans."""
        return [c for c in self.zone("empire", seat) if not is_damaged(c)] + self.zone("lands", seat)

    def symbols(self, seat: int, field: str) -> int:
        """`field` summed over the active cards (in active_cards' order)."""
        cards = self.r.cards
        zones = self.st.players[seat].zones  # zone(), inline (reading only)
        total = 0
        for c in zones.get("empire", ()):
            if not (c.flags and "damaged" in c.flags):  # is_damaged, inline: a hot path
                total += cards[c.card].get(field, 0)
        for c in zones.get("lands", ()):
            total += cards[c.card].get(field, 0)
        return total

    def has(self, seat: int, ability: str) -> bool:
        return any(self.r.f(c.card, "ability") == ability for c in self.zone("empire", seat)
                   if not is_damaged(c))

    def food(self, seat: int) -> int:
        return self.r.capital["food"] + self.symbols(seat, "food")

    def capacity(self, seat: int) -> int:
        r = self.r
        cards = r.cards
        p = self.st.players[seat]
        city = r.city_by_id.get(p.vars.get("city", ""), _NO_CITY)  # city(seat), inline
        return (r.capital["capacity"] + city.get("capacity", 0)
                + sum([cards[c.card].get("capacity", 0) for c in p.zones.get("lands", ())]))

    def army_limit(self, seat: int) -> int:
        return self.r.capital["army"] + self.symbols(seat, "army")

    def armies(self, seat: int) -> dict[int, list]:
        out: dict[int, list] = {}
        for c in self.zone("armies", seat):
            out.setdefault(tok(c, "army"), []).append(c)
        return out

    def actives(self, seat: int) -> list:
        return [c for c in self.zone("armies", seat) if not is_retired(c)]

    def cits(self, seat: int) -> list[list]:
        return self.st.players[seat].vars["cit"]

    def cover(self, kind: str, key: str) -> None:
        if self.ctx is not None:
            self.ctx.cover(kind, key)

    def event(self, name: str, seat: int = -1) -> None:
        if self.ctx is not None:
            self.ctx.event(name, seat)

    def shuffle(self, cards: list, why: str) -> None:
        if self.ctx is not None:
            self.ctx.shuffle(cards, why)

    def order(self) -> list[int]:
        first = self.st.vars["first"]
        return [(first + i) % self.n for i in range(self.n)]

    def open_spaces(self, rnd: int, seat: int = -1) -> list[str]:
        """The board spaces open in round `rnd` (for `seat`: with its city board's own)."""
        key = (rnd, None if seat < 0 else self.st.players[seat].vars.get("city", ""))
        found = self.r.open_by.get(key)
        if found is None:
            track = self.rule("round_track")
            city = _NO_CITY if seat < 0 else self.city(seat)
            found = self.r.open_by[key] = tuple(
                s for s in BOARD if rnd >= track.get(s, 1) or rnd in city.get(f"{s}_rounds", ()))
        return list(found)

    def put_ambrosia(self, space: str, n: int) -> None:
        self.st.vars["amb"][space] += n
        self.st.supply["ambrosia"] -= n

    def flip_top(self, zone: str) -> None:
        cards = self.zone(zone)
        if cards:
            cards[0].face_up = True

    def current_deck(self) -> str:
        return ("empire-b" if self.st.turn >= self.rule("round_track", "empire_b")
                else "empire-a")
