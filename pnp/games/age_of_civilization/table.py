"""What every part of a game in play shares: the state, the context it is played through, the
supply bookkeeping (coins and workers) and how abilities are counted and gated.

The parts of the game (setup, civilizations, technologies, actions, rounds, solo, scoring) are
mixins of `Table`, joined into `AoC` in game.py. Setting a game up without playing it
(`main_state`, tests) goes through a context too, one that rolls no dice and takes the first
option, so every card still moves through the context's zone operations; such a setup
shuffles nothing (scenarios set the cards they need).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pnp.engine.api import CardInstance, Context, GameResult, PlayerState, State

from .rules import Rules, military


class _NoDice:
    """The chance source of a game set up but not played: it has no dice to roll."""

    def draw(self, sides: int, why: str) -> int:
        raise RuntimeError(f"a game set up without being played rolls no dice ({why})")


class _FirstOption:
    """The bot of a game set up but not played: the first option, every time."""

    def choose(self, state: State, seat: int, options: Sequence[Any], why: str,
               outcomes: Any = None) -> int:
        return 0


def unplayed_context(r: Rules, state: State) -> Context:
    """A context for setting a state up outside a game: no dice, first options, unlogged."""
    n = len(state.players)
    return Context(state, _NoDice(), [_FirstOption()] * n,
                   GameResult(game=r.game.id, seed=0, players=n, bots=()))


class Table:
    """One game being played (or set up): the rules applied to a state through a context."""

    def __init__(self, r: Rules, ctx: Context | None, state: State):
        self.r = r
        #: False for a game set up without being played: its shuffles keep the data's order
        self.played = ctx is not None
        self.ctx = ctx if ctx is not None else unplayed_context(r, state)
        self.state = state
        self.n = len(state.players)
        self.solo = self.n == 1
        self.draft = bool(r.drafting.get("enabled")) and not self.solo
        self.changing = bool(r.changing.get("enabled")) and not self.solo
        self.innovation = bool(r.innovation.get("enabled"))

    # ------------------------------------------------------------------ the context
    def cover(self, kind: str, key: str) -> None:
        self.ctx.cover(kind, key)

    def event(self, name: str, seat: int = -1) -> None:
        self.ctx.event(name, seat)

    def choose(self, seat: int, options: list, why: str,
               outcomes: Callable[[Any], dict[str, float]] | None = None) -> Any:
        return self.ctx.choose(seat, options, why, outcomes)

    def shuffle(self, zone: str, why: str) -> None:
        """Shuffle a shared zone (a chance step of the context), unless the game is only set
        up."""
        if self.played:
            self.ctx.shuffle(self.ctx.zone(zone), why)

    # ------------------------------------------------------------------ supplies
    def gain_coins(self, p: PlayerState, n: int) -> None:
        """Coins from (n > 0) or back to (n < 0) the supply; a loss stops at zero."""
        if n < 0:
            n = -min(-n, p.counters["coins"])
        p.counters["coins"] += n
        self.state.supply["coins"] -= n

    def gain_workers(self, p: PlayerState, n: int) -> None:
        """Workers from the supply up to the maximum, or sacrificed back (down to zero)."""
        if n > 0:
            n = min(n, self.r.max_workers - p.counters["workers"])
        else:
            n = -min(-n, p.counters["workers"])
        p.counters["workers"] += n
        self.state.supply["workers"] -= n

    def put_bonus(self, card: CardInstance, n: int) -> None:
        """Bonus coins from the supply onto a card."""
        if card.tokens is None:
            card.tokens = {}
        card.tokens["coins"] = card.tokens.get("coins", 0) + n
        self.state.supply["coins"] -= n

    # ------------------------------------------------------------------ counting abilities
    def future_cards(self) -> int:
        """Action cards still to come on the time track (Science, Tiwanaku)."""
        return max(0, self.r.track_len - (self.state.turn - 1 + self.r.open_cards))

    def count(self, p: PlayerState, per: str | None, bonus: int = 0) -> int:
        if per is None:
            return 1
        return {"technologies": lambda: len(p.vars["techs"]),
                "points": lambda: p.counters["points"],
                "military": lambda: military(self.r, p),
                "bonus-coins": lambda: bonus,
                "future-rounds": self.future_cards,
                "wonders": lambda: len(p.zones["wonders"]),
                "civilizations": lambda: len(p.zones["civilizations"]),
                "workers": lambda: p.counters["workers"],
                "coins": lambda: p.counters["coins"]}[per]()

    def times(self, p: PlayerState, a: dict, bonus: int = 0) -> int:
        if "per" not in a:
            return 1
        return self.count(p, a["per"], bonus) // a.get("each", 1)

    def strengths(self) -> list[int]:
        return [military(self.r, p) for p in self.state.players]

    def most_military(self, seat: int) -> bool:
        """No one (nor the solo virtual opponent) is stronger: ties count as most."""
        s = self.strengths()
        rivals = [x for i, x in enumerate(s) if i != seat]
        if self.solo:
            rivals.append(self.state.vars["opponent"])
        return all(s[seat] >= x for x in rivals)

    def ok(self, seat: int, a: dict, via: str = "") -> bool:
        if a.get("only_if") == "most-military" and not self.most_military(seat):
            return False
        if a.get("unless") and a["unless"] == via:
            return False
        return True
