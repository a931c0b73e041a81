"""What The Ancient World reads from its GameDef again and again, compiled once per
definition: card fields by id, the switches the editions and variants set, and the names
the rules module uses for the board, the decks and the tokens."""

from __future__ import annotations

from typing import Any

from pnp.engine.api import (
    BoundedMemo,
    Estimate,
    GameDef,
    GameMeta,
    counter_and_shared_bounds,
    per_definition,
    supplies,
    zone_visibility,
)

COLOURS = ("red", "blue", "green", "yellow", "purple")
BOARD = ("labor", "build", "draft", "expand", "learn", "rebuild", "recruit", "explore", "grow")
EMPIRE_DECKS = ("empire-a", "empire-b", "empire-c", "starting-empire")
TOKENS = ("coins", "knowledge", "ambrosia")
#: greedy bot: worth of one unit of each counter (a heuristic, not a rule). A point is worth
#: 1.5 coins: at 3 players `pnp probe --worths` found a seat valuing points at half (not 3)
#: won 13 more per 100 seat-games, and fresh seeds fixed in advance agreed at 2, 3 and 4
#: (docs/the-ancient-world.md).
BOT_VALUES = {"victory-points": 1.5, "coins": 1.0, "knowledge": 1.6, "ambrosia": 0.6,
              "draft": 0.8}
NONE = "none"
#: interned estimates kept per definition before the table starts afresh
ESTIMATE_MEMO = 1 << 14
#: placement estimates kept per definition before the table starts afresh
PLACEMENT_MEMO = 1 << 14
#: attack estimates kept per definition before the table starts afresh
ATTACK_MEMO = 1 << 12


class Rules:
    """The data a game reads over and over, compiled once per GameDef."""

    def __init__(self, game: GameDef):
        self.game = game
        rule = game.rule
        self.cards: dict[str, dict[str, Any]] = {}
        self.deck_of: dict[str, str] = {}
        for deck in game.decks.values():
            for card in deck.cards:
                self.cards[card.id] = dict(card.fields)
                self.deck_of[card.id] = deck.id
        #: empire cards with an action a citizen can be placed on (has_action)
        self.action_cards = frozenset(c for c in self.cards if has_action(self, c))
        self.rounds = int(rule("end", "max_turns"))
        self.second = rule("edition") == "second"
        self.capital = dict(rule("capital"))
        self.faces = tuple(game.dice["damage"].faces)
        self.amb = bool(rule("ambrosia", "enabled"))
        self.threats = bool(rule("titans", "threatening"))
        self.city_states = bool(rule("city_states", "enabled"))
        self.boards = [dict(b) for b in rule("city_states", "boards")]
        self.banner_vp = list(rule("scoring", "banners"))
        self.metadata: GameMeta | None = None
        #: rule parameters by path, looked up once (GameDef.rule walks the tree every call)
        self._rules: dict[tuple[str, ...], Any] = {}
        #: city-state board by id (the first with that id, as a search finds it)
        self.city_by_id: dict[str, dict[str, Any]] = {}
        for board in self.boards:
            self.city_by_id.setdefault(board["id"], board)
        #: board spaces where nobody pays for citizens already there, per city-state board id
        self.ignore_by: dict[str, frozenset[str]] = {}
        #: what a placement fee reads: higher skill paid for (else forbidden), the fee by
        #: difference, the fee, the spaces of the match rule
        self.fee_rule = (rule("placement", "higher_skill") == "pay",
                         rule("placement", "fee_by_difference"), rule("placement", "fee"),
                         rule("placement", "match_rule_on"))
        #: one Estimate per distinct content (see `estimate`)
        self._estimates: BoundedMemo[tuple, Estimate] = BoundedMemo(ESTIMATE_MEMO)
        #: a placement's Estimate by (the space's gains, fee, boost, ambrosia on the space)
        self.placements: BoundedMemo[tuple, Estimate] = BoundedMemo(PLACEMENT_MEMO)
        #: an attack's Estimate by (coins, ambrosia swords, victory points)
        self.attacks: BoundedMemo[tuple[int, int, float], Estimate] = BoundedMemo(ATTACK_MEMO)
        #: a titan's (defence, whether arrows count, banners, capacity) by card id
        self.titan_facts: dict[str, tuple[int, bool, int, int]] = {}
        #: option strings by their parts (a turn offers the same ones again and again)
        self.labels: dict[tuple, str] = {}
        #: the greedy bot's worth of a card by (card, rounds left, change in fed citizens):
        #: (card_value, the sum of its values)
        self.values: dict[tuple[str, int, int], tuple[dict[str, float], float]] = {}
        #: open_spaces by (round, city board id or None for the board alone)
        self.open_by: dict[tuple[int, str | None], tuple[str, ...]] = {}

    def rule(self, *path: str) -> Any:
        """game.rule(*path), remembered: the definition never changes during play (the
        harness checks its fingerprint)."""
        try:
            return self._rules[path]
        except KeyError:
            value = self._rules[path] = self.game.rule(*path)
            return value

    def estimate(self, e: dict[str, float]) -> Estimate:
        """The one Estimate with exactly these items (in this order): a bot digests an
        Estimate once and keeps its digest on it, so the same gains offered again at the next
        decision are not digested again. Nobody writes to an Estimate once built."""
        key = tuple(e.items())
        found = self._estimates.get(key)
        if found is None:
            found = self._estimates.put(key, Estimate(e))
        return found

    def ignored(self, city: str) -> frozenset[str]:
        """Spaces where a placement ignores the citizens already there, with city board
        `city` (its own list joined to the rules')."""
        found = self.ignore_by.get(city)
        if found is None:
            board = self.city_by_id.get(city, {})
            found = self.ignore_by[city] = frozenset(
                set(self.rule("placement", "ignore_citizens_on"))
                | set(board.get("ignore_citizens_on", ())))
        return found

    def f(self, card: str, field: str) -> Any:
        """A card's field, 0 when the card has none."""
        return self.cards[card].get(field, 0)

    def meta(self) -> GameMeta:
        """What the harness checks: players, rounds, bounds, supplies, phases."""
        mine, shared = counter_and_shared_bounds(self.game)
        g = self.game
        return GameMeta(game=g.id, players_min=g.players_min, players_max=g.players_max,
                        max_turns=self.rounds, counter_bounds=mine, shared_bounds=shared,
                        phases=tuple(p.id for p in g.phases), score_counter="victory-points",
                        supplies=supplies(g), zone_visibility=zone_visibility(g),
                        bot_values=dict(BOT_VALUES))


#: the compiled rules of a GameDef (a variant's definition is another object)
rules_for = per_definition(Rules)


def has_action(r: Rules, card: str) -> bool:
    """Whether an empire card has an action a citizen can be placed on."""
    f = r.cards[card]
    return bool(f.get("act_coins") or f.get("act_knowledge") or f.get("act_repair")
                or str(f.get("ability", "")).startswith("action-")
                or f.get("ability") == "borrow-action")
