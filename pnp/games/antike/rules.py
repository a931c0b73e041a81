"""Antike's data compiled once per definition (`rules_for`): the rondel, the nations, the
know-hows, the personage stacks and every rule parameter of game.yaml. Nothing else in the
package reads the GameDef."""

from __future__ import annotations

from typing import Any

from pnp.engine.api import (
    BoundedMemo,
    GameDef,
    GameMeta,
    RondelMove,
    counter_and_shared_bounds,
    map_rules,
    per_definition,
    rondel_from,
    supplies,
)

RESOURCES = ("marble", "iron", "gold")
UNITS = ("legion", "galley")
STACKS = ("kings", "scholars", "generals", "citizens", "navigators")
#: destinations remembered per definition before the memo is emptied (a few MB at most)
DESTINATIONS_MEMO = 1 << 16

#: greedy bot: worth of a unit of each counter; 'power' is a bot-only estimate of what an
#: action builds towards (cities, temples, know-hows, units). No option's estimate carries
#: personages (they are awarded at a turn's end, for what 'power' already counts), so their
#: worth changes no pick: `pnp probe antike --worths` says so ("the same games at every worth")
BOT_VALUES = {"personages": 12.0, "marble": 0.8, "iron": 0.9, "gold": 1.0, "coins": 1.0,
              "temples-destroyed": 0.0, "power": 1.0}


class Rules:
    def __init__(self, game: GameDef):
        self.game = game
        rule = game.rule
        ron = rule("rondel")
        self.rondel_track = str(ron["track"])
        self.rondel = rondel_from(game, ron["track"], int(ron["free_steps"]),
                                  int(ron["step_cost"]), int(ron["max_steps"]))
        #: the price of the longest move, past which more wealth changes nothing
        self._dearest = self.rondel.cost(min(self.rondel.max_steps, len(self.rondel.spaces) - 1))
        self._rondel_moves: dict[tuple[int, int], list[RondelMove]] = {}
        #: wedge id -> action ('maneuver-1' and 'maneuver-2' are both 'maneuver')
        self.action = {w: ("maneuver" if w.startswith("maneuver") else w)
                       for w in self.rondel.spaces}
        self.map = map_rules(game)
        self.income = dict(rule("income"))
        self.temple_price = int(rule("temple", "marble"))
        self.arming = {u: int(rule("arming", u)) for u in UNITS}
        man = rule("maneuver")
        self.moves = {"legion": int(man["legion_moves"]), "galley": int(man["galley_moves"])}
        self.move_bonus = {k: dict(v) for k, v in (man.get("bonus") or {}).items()}
        self.crossing = {u: frozenset(v) for u, v in (man.get("crossing") or {}).items()}
        self.through = {u: frozenset(v) for u, v in (man.get("through") or {}).items()}
        self.found = {k: int(v) for k, v in (man.get("found") or {}).items()}
        self.defence = {k: int(v) for k, v in rule("defence").items()}
        kh = rule("know_how")
        self.market_units = int(kh["market_units"])
        self.currency_coins = int(kh["currency_coins"])
        self.democracy_discount = int(kh["democracy_discount"])
        self.awards: dict[str, dict[str, Any]] = {
            k: dict(v) for k, v in rule("personages").items() if isinstance(v, dict)}
        self.all_know_hows = str(rule("personages", "all_know_hows"))
        #: (stack, what it is awarded for, how many of that a personage takes), STACKS order
        self.award_plan = tuple(
            (s, self.awards[s]["per"],
             0 if self.awards[s]["per"] == "first-know-how" else int(self.awards[s]["each"]))
            for s in STACKS)
        setup = rule("setup")
        self.start_cities = int(setup["start_cities"])
        #: coins of the 1st, 2nd, ... nation in turn order (the list for every player count)
        self.start_coins_by_order = tuple(int(c) for c in setup.get("start_coins_by_order") or ())
        #: player count -> its own list, overriding start_coins_by_order at that count
        self.start_coins_by_players = {
            int(n): tuple(int(c) for c in coins)
            for n, coins in (setup.get("start_coins_by_players") or {}).items()}
        self.start_resources = int(setup.get("start_resources", 0))
        self.round_coins = int(setup.get("round_coins", 0))
        self.end_at = {int(k): int(v) for k, v in rule("end", "personages").items()}
        self.max_turns = int(rule("end", "max_turns"))
        self.neutral_cities = bool(rule("neutral_cities", default=False))
        self.nations = {c.id: c.fields for c in game.decks["nations"].cards}
        self.nation_names = {c.id: c.name for c in game.decks["nations"].cards}
        self.nation_order = sorted(self.nations, key=lambda n: self.nations[n]["seat_order"])
        self.know_hows = {c.id: c.fields for c in game.decks["know-hows"].cards}
        self.stack_size = {c.fields["award"]: c.count for c in game.decks["personages"].cards}
        self.start = {s.side: s.nodes for s in game.map.setup if s.piece == "city"}
        self.city_sites = self.map.sites()
        self.seas = [n for n, node in self.map.nodes.items() if node.kind == "sea"]
        self.sea_set = frozenset(self.seas)
        self.coastal = {n for n in self.city_sites
                        if any(self.map.nodes[m].kind == "sea" for m in self.map.neighbours(n))}
        #: node -> the resource of its city site (None: a sea, or no site)
        self.site = {n: node.site for n, node in self.map.nodes.items()}
        #: node -> its neighbours across any edge that have a city site, in data order
        self.site_neighbours = {n: tuple(m for m in self.map.neighbours(n) if self.site[m])
                                for n in self.map.nodes}
        #: (unit, src, steps, nodes holding enemy units) -> (destinations, move labels), pure
        #: in the map and asked again at every decision of every playout (Maneuver.routes)
        self.destinations: BoundedMemo[tuple, tuple[tuple[str, ...], tuple[str, ...]]] = \
            BoundedMemo(DESTINATIONS_MEMO)
        #: move label (`unit:src>dst`) -> its destination, for every label routes has made
        self.move_dst: dict[str, str] = {}
        bounds, shared = counter_and_shared_bounds(game)
        self.meta = GameMeta(
            game=game.id, players_min=game.players_min, players_max=game.players_max,
            max_turns=self.max_turns, counter_bounds=bounds, shared_bounds=shared,
            has_chance=False, phases=tuple(p.id for p in game.phases),
            score_counter="personages", supplies=supplies(game), bot_values=dict(BOT_VALUES),
            map=self.map)

    def rondel_moves(self, here: int, wealth: int) -> list[RondelMove]:
        """The rondel's moves from wedge index `here` (-1: before the first turn) for a nation
        that can pay `wealth` units: kept per (here, wealth up to the dearest move), since
        every turn asks. The list is shared: read it, never change it."""
        key = (here, min(wealth, self._dearest))
        moves = self._rondel_moves.get(key)
        if moves is None:
            moves = self._rondel_moves[key] = self.rondel.moves(None if here < 0 else here,
                                                                key[1])
        return moves

    def nations_for(self, players: int) -> list[str]:
        """The nations in play, in seat order: the first `players` by the cards' seat order."""
        return self.nation_order[:players]

    def starter(self, players: int) -> str:
        """The nation whose card marks this player count (else the first in play)."""
        playing = self.nations_for(players)
        for n in playing:
            if str(players) in self.nations[n]["starts_game"]:
                return n
        return playing[0]

    def start_coins(self, players: int) -> tuple[int, ...]:
        """Coins by place in turn order at this count: its own list when the data gives one,
        since the same place is a different nation at each count, else the general list."""
        return self.start_coins_by_players.get(players, self.start_coins_by_order)


rules_for = per_definition(Rules)
