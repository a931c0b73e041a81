"""Antike: every rule the summary states has a scenario that passes and fails once the rule is
broken in a copy of the data; the map blocks at enemy units; the defence sum is the example's;
the rondel charges for steps past the free ones; the game's own invariants catch broken
states."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_antike_coins import with_coins

from pnp.data.game import load_game
from pnp.engine.api import Rondel
from pnp.engine.invariants import check_conservation, world_of
from pnp.games import antike
from pnp.games.antike import Antike, invariants, main_state, rules_for
from pnp.paths import CARDS
from tests.scenario_breaks import copy_with, run_on_copy

FOLDER = CARDS / "antike" / "scenarios"
FILES = sorted(FOLDER.glob("*.yaml"))
GAME = CARDS / "antike"

#: the summary's rules and examples, with the scenario that shows each
RULES = {
    "1-3 rondel steps free": "rondel-free-steps",
    "each further step costs one unit of resource": "rondel-paid-step",
    "1 marble per marble city, 3 with a temple": "marble-income",
    "5 marble for each new temple": "temple-price",
    "Corniclanum defends with 6 (3 + 2 units + 1 Monarchy)": "corniclanum-defence",
    "a city falls to units matching its defence; a destroyed temple wins a general":
        "corniclanum-falls",
    "Alexandria (defence 3) taken with Navigation's galley moves": "alexandria-navigation",
    "Attalia: two legions, then a galley, fought in order before the conquest": "attalia-in-order",
    "the game ends at the personage count for the number of players": "game-end",
    "longer game: one start city of three": "longer-game",
}

#: scenario -> edits of the data that break the rule it shows
DATA_BREAKS = {
    "rondel-free-steps": [("game.yaml", "free_steps: 3", "free_steps: 2")],
    "rondel-paid-step": [("game.yaml", "free_steps: 3", "free_steps: 4")],
    "marble-income": [("game.yaml", "temple: 3                # and 3", "temple: 2  # and 3")],
    "temple-price": [("game.yaml", "marble: 5 ", "marble: 4 ")],
    "corniclanum-defence": [("game.yaml", "unit: 1 ", "unit: 0 ")],
    "corniclanum-falls": [("game.yaml", "monarchy: 1 ", "monarchy: 2 ")],
    "alexandria-navigation": [("game.yaml", "navigation: {galley: 1}", "navigation: {galley: 0}")],
    "attalia-in-order": [("game.yaml", "temple: 3                # the summary",
                          "temple: 5                # the summary")],
    "game-end": [("game.yaml", '"2": 9,', '"2": 10,')],
    "longer-game": [("game.yaml", "game/rules/setup/start_cities: 1",
                     "game/rules/setup/start_cities: 3")],
    "neutral-cities": [("game.yaml", "game/rules/neutral_cities: true",
                        "game/rules/neutral_cities: false")],
    "round-coin": [("game.yaml", "overrides: {game/rules/setup/round_coins: 1}",
                    "overrides: {game/rules/setup/round_coins: 0}")],
    "legions-ran-out": [("components.yaml", "{id: legion, name: Legion, on: [province], "
                         "per_player: 10}", "{id: legion, name: Legion, on: [province], "
                         "per_player: 11}")],
}


def test_every_rule_has_a_scenario_and_a_way_to_break_it() -> None:
    stems = {p.stem for p in FILES}
    assert not {rule: stem for rule, stem in RULES.items() if stem not in stems}
    assert stems == set(DATA_BREAKS)


@pytest.mark.parametrize("stem", sorted(DATA_BREAKS))
def test_scenario_fails_when_its_rule_is_broken(tmp_path: Path, stem: str) -> None:
    folder = copy_with(GAME, tmp_path, DATA_BREAKS[stem])
    assert not run_on_copy(FOLDER / f"{stem}.yaml", GAME, folder, tmp_path).ok


def _table(players: int = 2, board: dict | None = None, know: dict | None = None) -> Antike:
    game = load_game(GAME).game
    state = main_state(game, players)
    if board is not None:
        state.vars["map"] = board
    for seat, ks in (know or {}).items():
        state.players[seat].vars["know_hows"] = list(ks)
    return Antike(rules_for(game), None, state)


def test_the_corniclanum_defence_is_three_plus_two_units_plus_monarchy() -> None:
    t = _table(board={"corniclanum": {"city": [0, 1], "temple": [0, 1], "legion": [0, 1],
                                      "galley": [0, 1]}}, know={1: ["monarchy"]})
    assert t.defence("corniclanum") == 6
    t.state.players[1].vars["know_hows"] = []
    assert t.defence("corniclanum") == 5
    t.state.vars["map"] = {"corniclanum": {"city": [0, 1]}}
    assert t.defence("corniclanum") == 1


def test_enemy_units_block_a_path_but_may_be_entered() -> None:
    t = _table(board={"sparta": {"legion": [1, 0]}, "ephesos": {"legion": [0, 1]}},
               know={0: ["wheel"]})
    reach = t.destinations(0, "legion", "sparta")
    assert "ephesos" in reach            # it may stop on the enemy
    assert "attalia" not in reach        # but not pass through it (sparta-ephesos-attalia)
    t.state.vars["map"] = {"sparta": {"legion": [1, 0]}}
    assert "attalia" in t.destinations(0, "legion", "sparta")


def test_a_galley_ends_its_move_in_a_harbour() -> None:
    t = _table(board={"mare-hesperium": {"galley": [1, 0]}}, know={0: ["sailing", "navigation"]})
    reach = t.destinations(0, "galley", "mare-hesperium")
    assert "corniclanum" in reach and "mare-sardoum" in reach
    assert "roma" in reach               # hesperium-sardoum-roma: three steps by sea
    assert "tarraco" not in reach        # inland: no galley stands there by way of the coast
    # from a harbour it sails on, but never across the land to another harbour
    t.state.vars["map"] = {"gades": {"galley": [1, 0]}}
    assert "tingis" in t.destinations(0, "galley", "gades")  # by way of mare-hesperium
    assert "corniclanum" in t.destinations(0, "galley", "gades")


def test_the_rondel_charges_for_steps_past_the_free_ones() -> None:
    r = Rondel(("a", "b", "c", "d", "e", "f", "g", "h"), free_steps=3, step_cost=1, max_steps=7)
    assert [m.cost for m in r.moves(0)] == [0, 0, 0, 1, 2, 3, 4]
    assert [m.id for m in r.moves(6)][:3] == ["h", "a", "b"]
    assert len(r.moves(0, budget=1)) == 4
    assert [m.id for m in r.moves(None)] == list("abcdefgh")
    assert rules_for(load_game(GAME).game).rondel.moves(0)[3].id == "iron"


@pytest.mark.parametrize("breakage,message", [
    (lambda st: st.vars["stacks"].__setitem__("kings", 0), "personages are not conserved"),
    (lambda st: st.players[0].vars["know_hows"].extend(["wheel", "wheel"]), "know-how twice"),
    (lambda st: st.vars["map"].setdefault("tingis", {}).__setitem__("temple", [1, 0]),
     "temple stands where its owner has no city"),
    (lambda st: st.vars["first"].__setitem__("roads", 1), "first owner"),
])
def test_the_game_invariants_catch_broken_states(breakage, message) -> None:
    game = load_game(GAME).game
    t = _table()
    assert invariants(game, t.state, "round") == []
    breakage(t.state)
    assert any(message in p for p in invariants(game, t.state, "round"))


@pytest.mark.parametrize("breakage,supply", [
    (lambda st: st.players[0].counters.__setitem__("gold", 50), "gold"),
    (lambda st: st.supply.__setitem__("marble", st.supply["marble"] - 1), "marble"),
    (lambda st: st.players[1].counters.__setitem__("coins", 0), "coins"),
])
def test_chips_and_coins_are_conserved_by_the_generic_check(breakage, supply) -> None:
    """components.yaml links the chip and coin counters to their supplies: the harness's own
    conservation check holds them to the box's stock (Antike keeps no check of its own)."""
    game = load_game(GAME).game
    t = _table()
    world = world_of(game, t.state, from_stock=True)
    assert set(world.links) == {"marble", "iron", "gold", "coins"}
    assert world.totals == {s.id: s.stock for s in game.supplies.values()}
    assert check_conservation(t.state, world) == []
    t.pay(0, "marble", 1)  # paying the bank moves a chip, it makes none
    assert check_conservation(t.state, world) == []
    breakage(t.state)
    assert any(p.startswith(f"{supply} tokens were made or lost")
               for p in check_conservation(t.state, world))
    assert not any(supply in p for p in invariants(game, t.state, "round"))


def test_a_conquest_is_worth_less_to_the_greedy_bot_once_it_earns_nothing() -> None:
    """Seat 0 takes Sparta from seat 1: worth 1 while it lifts seat 0 past the most cities it
    held and kings remain, or destroys a temple while generals remain; 0.25 otherwise."""
    t = _table(board={"roma": {"city": [1, 0]}, "sparta": {"city": [0, 1]}})
    t.state.vars["stacks"] = {"kings": 3, "scholars": 8, "generals": 7, "citizens": 6,
                              "navigators": 5}
    t.state.players[0].vars["best"]["cities"] = 1
    assert t.gain(0, "sparta") == 1.0
    t.state.vars["stacks"]["kings"] = 0
    assert t.gain(0, "sparta") == 0.25
    t.state.vars["map"]["sparta"]["temple"] = [0, 1]
    assert t.gain(0, "sparta") == 1.0
    t.state.vars["stacks"]["generals"] = 0
    assert t.gain(0, "sparta") == 0.25


def _at_wedge(t: Antike, seat: int, wedge: str) -> list:
    """Put the seat's marker on `wedge`; returns the rondel moves it has from there."""
    first = t.r.rondel_moves(-1, 0)  # before the first turn: every wedge, free
    t.state.players[seat].vars["rondel"] = first[[m.id for m in first].index(wedge)].space
    return t.r.rondel_moves(t.state.players[seat].vars["rondel"], t.wealth(seat))


@pytest.mark.parametrize("coins,founds", [(2, False), (3, True)])
def test_a_maneuver_counts_a_city_only_if_the_nation_can_pay_it_after_its_paid_step(
        coins, founds) -> None:
    """Seat 0's legion in Roma reaches one empty site, and the nation holds 1 iron and
    `coins` coins: a city (marble, iron, gold; coins wild) is in reach before it pays the
    step from maneuver-2 to maneuver-1, and after it only with 3 coins. With 2, the estimate
    once counted the city it could not found: in a soak game both nations took the two
    maneuver wedges in turn for 250 rounds, founding nothing (docs/antike.md#maneuver-loop)."""
    t = _table(board={"roma": {"city": [1, 0], "legion": [1, 0]}})
    c = t.state.players[0].counters
    c.update(marble=0, iron=1, gold=0, coins=coins)
    assert t.targets(0) == 1.0  # before any step is paid, the site counts
    moves = _at_wedge(t, 0, "maneuver-2")
    assert {m.id: m.cost for m in moves}["maneuver-1"] == 1
    worth = t.wedge_worths(0, moves)("maneuver-1")
    assert worth["power"] == (2.0 if founds else 0.0) * 1.0 - 2.0
    assert (c["iron"], c["coins"]) == (1, coins)  # an estimate pays nothing


def test_wedge_estimates_spend_only_what_is_left_after_the_paid_steps() -> None:
    """Temple, Arming and Know-how rate what the nation can buy once the steps to reach the
    wedge are paid (the most-held resource first, then coins, as the rondel takes them)."""
    t = _table(board={"roma": {"city": [1, 0]}, "sparta": {"city": [1, 0]}})
    c = t.state.players[0].counters
    c.update(marble=0, iron=0, gold=0, coins=t.r.temple_price + 1)
    assert t.after_paying(0, 2) == {**dict(c), "coins": t.r.temple_price - 1}
    free = t.wedge_worth(0, "temple", 0)
    paid = t.wedge_worth(0, "temple", 2)
    assert free["power"] == 4.0 and paid["power"] == -4.0  # one temple, then none
    assert t.wedge_worth(0, "arming", 2)["power"] == pytest.approx(
        1.2 * min(4, t.r.temple_price - 1) - 4.0)
    cheapest = min(f["price"] for f in t.r.know_hows.values() if not f["needs"])
    c.update(coins=cheapest)
    assert t.wedge_worth(0, "know-how", 0)["power"] == 8.0
    assert t.wedge_worth(0, "know-how", 1)["power"] == -2.0


def test_the_longer_game_that_looped_on_maneuvers_now_ends() -> None:
    """Game 232 of the 500-game soak of the longer game at 2 players (seed 1, mcts:1 in seat
    1 against greedy-varied) ran to the 300-round cap: from round 51 both nations moved
    between the two maneuver wedges, paying a step each time, with a city in their estimate
    they could no longer pay for. It now ends, with every invariant kept."""
    from pnp.engine.selfplay import SimConfig, default_play, play_one

    game = load_game(GAME, variant="longer-game").game
    config = SimConfig(games=500, players=2, seed=1, bots=("mcts:1", "greedy-varied"),
                       variant="longer-game", invariants="all")
    result = play_one(game, config, 232, default_play()).result
    assert result.seed == 2067105015952789832 and result.bots == ("mcts:1", "greedy-varied")
    assert result.ended == "completed" and not result.violations
    assert result.turns < 100


@pytest.mark.parametrize("players,index", [(3, 181), (4, 88), (6, 82)])
def test_the_games_that_ran_to_the_cap_now_end(tmp_path, players, index) -> None:
    """Three games of 1,500 (seed 1, random and greedy bots in alternate seats) ran to the
    150-round cap: the two greedy nations traded the same cities back and forth once the
    kings were gone. With a conquest worth less when it earns nothing, each ends. They were
    played with the start coins of the time (1 to 6 by turn order), so they are replayed
    with those, whatever game.yaml holds now."""
    from pnp.engine.play import play_game
    from pnp.engine.selfplay import game_seed

    game = load_game(with_coins(tmp_path, "[1, 2, 3, 4, 5, 6]")).game
    bots = tuple(("random", "greedy")[(index + s) % 2] for s in range(players))
    result = play_game(game, players, game_seed(1, index), bots)
    assert result.ended == "completed" and not result.violations
    assert result.turns < 100


def test_the_engine_declares_the_map_for_the_generic_invariants() -> None:
    game = load_game(GAME).game
    meta = antike.metadata(game)
    assert meta.map is not None and "corniclanum" in meta.map.nodes
    assert meta.score_counter == "personages"


def test_the_printed_card_texts_agree_with_the_numbers_the_engine_reads() -> None:
    """The personage and know-how cards print their numbers in words the layout shows (text,
    cost); the engine reads game.yaml and the price field. Both must say the same."""
    game = load_game(GAME).game
    r = rules_for(game)
    for card in game.decks["personages"].cards:
        award = r.awards[card.fields["award"]]
        if "each" in award and award["each"] > 1:
            assert f"every {award['each']} " in card.fields["text"], card.id
        assert f"({r.stack_size[card.fields['award']]} in the stack)" in card.fields["type"]
    for card in game.decks["know-hows"].cards:
        assert card.fields["cost"] == f"{card.fields['price']} gold", card.id


def _random_board(rng, players: int, nodes: list[str]) -> dict:
    """Pieces anywhere (not only where the rules would put them): Sight must read any board
    as the table's one-question-at-a-time reads do."""
    board: dict = {}
    for node in rng.sample(nodes, k=len(nodes) // 2):
        at = {}
        for piece in ("city", "temple", "legion", "galley"):
            if rng.random() < 0.5:
                row = [rng.choice((0, 0, 1, 2, 3)) for _ in range(players)]
                if any(row):
                    at[piece] = row
        if at:
            board[node] = at
    return board


def _sight_as_read(t: Antike, seat: int) -> dict:
    """What the table's own questions say about every node, in Sight's terms."""
    from pnp.engine.api import count, on_map

    board = t.state.vars["map"]
    return {
        "cities": t.cities(seat), "city_pieces": on_map(t.state, "city", seat),
        "owner": {n: t.city_owner(n) for n in board if t.city_owner(n) is not None},
        "temples": {n for n in board if t.has_temple(n)},
        "own": {n: (count(t.state, n, "legion", seat), count(t.state, n, "galley", seat))
                for n in board if count(t.state, n, "legion", seat)
                or count(t.state, n, "galley", seat)},
        "enemy": {n for n in board if t.enemy_units(n, seat) > 0}}


def _sight_fields(s) -> dict:
    return {"cities": s.cities, "city_pieces": s.city_pieces, "owner": s.owner,
            "temples": s.temples, "own": s.own, "enemy": set(s.enemy)}


@pytest.mark.parametrize("players", [2, 3, 6])
def test_a_sight_reads_the_map_as_the_tables_questions_do(players) -> None:
    """Sight reads every node in one pass (and one node again after a move): on random
    boards, before and after pieces change on a few nodes, it agrees with the table's reads;
    so do the awards' holdings."""
    import random

    from pnp.games.antike.table import Sight

    rng = random.Random(players)
    t = _table(players)
    nodes = list(t.r.map.nodes)
    for _ in range(60):
        board = t.state.vars["map"] = _random_board(rng, players, nodes)
        seat = rng.randrange(players)
        sight = Sight(board, seat)
        assert _sight_fields(sight) == _sight_as_read(t, seat)
        assert t.holdings() == [(len(t.cities(s)), len(t.temples(s)), t.seas_held(s))
                                for s in range(players)]
        for node in rng.sample(nodes, k=3):  # pieces come and go on a few nodes
            fresh = _random_board(rng, players, [node]).get(node)
            if fresh is None:
                board.pop(node, None)
            else:
                board[node] = fresh
            sight.look(board, node)
        want = _sight_as_read(t, seat)
        got = _sight_fields(Sight(board, seat))
        assert got == want
        # look keeps all but a city's owner and count up to date (a maneuver moves no city)
        looked = _sight_fields(sight)
        for key in ("own", "enemy", "owner", "temples"):
            assert looked[key] == want[key], key


@pytest.mark.parametrize("players,bots", [(2, ("greedy", "greedy")),
                                          (3, ("random", "greedy", "greedy")),
                                          (4, ("greedy", "random", "greedy", "greedy"))])
def test_the_estimates_a_bot_asks_for_are_those_of_the_position(monkeypatch, players,
                                                                bots) -> None:
    """Estimates are worked out when a bot asks and kept while they hold (a maneuver keeps a
    destination's until a move touches it; a rondel decision reads the map once): each one
    a bot gets equals the estimate worked out afresh from the position it is asked in."""
    from pnp.engine.play import play_game
    from pnp.engine.selfplay import game_seed
    from pnp.games.antike.maneuver import Maneuver

    checked = {"move": 0, "rondel": 0}
    move_worths, wedge_worths = Maneuver.move_worths, Maneuver.wedge_worths

    def checked_moves(self, seat, dst_of, sight, by_dst, gains):
        worth = move_worths(self, seat, dst_of, sight, by_dst, gains)

        def check(label):
            got = worth(label)
            if label in dst_of:
                assert got == self.move_worth(seat, dst_of[label]), label
                checked["move"] += 1
            return got
        return check

    def checked_wedges(self, seat, moves, seen=None):
        worth = wedge_worths(self, seat, moves, seen)
        cost = {m.id: m.cost for m in moves}

        def check(wedge):
            got = worth(wedge)
            assert got == self.wedge_worth(seat, wedge, cost[wedge]), wedge
            checked["rondel"] += 1
            return got
        return check

    monkeypatch.setattr(Maneuver, "move_worths", checked_moves)
    monkeypatch.setattr(Maneuver, "wedge_worths", checked_wedges)
    game = load_game(GAME).game
    for i in range(2):
        result = play_game(game, players, game_seed(3, i), bots)
        assert result.ended == "completed" and not result.violations
    assert checked["move"] > 100 and checked["rondel"] > 100
