"""The Age of Civilization greedy bot values a civilization by what it does over the rest of
the game (worth.py), read from the ability data, not by what it pays on rising (issue 20: the
first seats took Lydia, China and Carthage, whose players won 9-15%). Each test fails against
the old estimate, which gave every civilization one flat lasting worth."""

from __future__ import annotations

from pnp.data.game import load_game
from pnp.engine.bots import GreedyBot
from pnp.engine.core import Context, ScriptedDice
from pnp.engine.play import play_game
from pnp.engine.result import GameResult
from pnp.games import age_of_civilization as aoc
from pnp.games.age_of_civilization.rules import Rules
from pnp.paths import CARDS

GAME = load_game(CARDS / "age-of-civilization").game


def greedy_table(state, rules=None) -> aoc.AoC:
    """An AoC over `state` with a greedy bot in every seat."""
    r = rules or aoc.rules_for(GAME)
    n = len(state.players)
    ctx = Context(state, ScriptedDice([]), [GreedyBot(0, s, r.meta) for s in range(n)],
                  GameResult(game=GAME.id, seed=0, players=n, bots=("greedy",) * n))
    return aoc.AoC(r, ctx, state)


def market(state, *cards: str) -> None:
    """Make the civilization market exactly `cards`, taken from the deck."""
    deck = state.zones["civilization-deck"]
    deck.extend(state.zones["civilization-market"])
    state.zones["civilization-market"] = [next(c for c in deck if c.card == cid) for cid in cards]
    for c in state.zones["civilization-market"]:
        deck.remove(c)


def rise_first(table: aoc.AoC, *cards: str) -> str:
    """The civilization seat 0 rises in round 1 from a market of `cards`."""
    market(table.state, *cards)
    table.state.turn = 1
    table.civilization_step(0, table.state.players[0])
    return table.state.players[0].zones["civilizations"][0].card


def test_greedy_rises_a_lasting_civilization_over_a_rising_payout() -> None:
    """Babylon gains a technology at every turn end; Lydia pays 4 coins once. The flat worth
    made Lydia (4 coins more) the pick; counting what Babylon does every round makes it
    Babylon, whichever is offered first."""
    for cards in (("lydia", "babylon"), ("babylon", "lydia")):
        assert rise_first(greedy_table(aoc.main_state(GAME, 4)), *cards) == "babylon"


def test_the_lasting_worth_comes_from_the_ability_data() -> None:
    """The same choice with Babylon's abilities taken out of a copy of the rules: nothing is
    left to value beyond the rising, and Lydia's coins win. No civilization has a number of
    its own in the bot."""
    r = Rules(GAME)
    r.main = {**r.main, "babylon": ()}
    r.legacy = {**r.legacy, "babylon": ()}
    assert rise_first(greedy_table(aoc.main_state(GAME, 4), r), "babylon", "lydia") == "lydia"


def test_rising_weighs_the_main_ability_it_covers() -> None:
    """Over Babylon, rising Olmec gives up a technology a round that annexing keeps: annexing
    is worth more than rising by more than the rising workers alone."""
    state = aoc.main_state(GAME, 4)
    table = greedy_table(state)
    state.turn = 2
    p = state.players[0]
    market(state, "babylon")
    p.zones["civilizations"].append(state.zones["civilization-market"].pop())
    assert table.civ_worth(p, "olmec", rise=False) > table.civ_worth(p, "olmec", rise=True) + 2


def test_a_lasting_ability_is_worth_less_with_fewer_rounds_left() -> None:
    state = aoc.main_state(GAME, 4)
    table = greedy_table(state)
    p = state.players[0]
    worth = []
    for turn in (2, 5):
        state.turn = turn
        worth.append(table.civ_worth(p, "olmec", rise=False))  # 2 points at the game's end
        worth.append(table.civ_worth(p, "babylon", rise=True))  # a technology every round
    olmec_2, babylon_2, olmec_5, babylon_5 = worth
    assert olmec_2 == olmec_5 > 0  # game-end points do not shrink
    assert babylon_2 > babylon_5 > 0


def test_greedy_still_annexes_and_takes_civilizations_after_round_one() -> None:
    """The old blind spots: it never annexed, and it rose only in rounds 1 to 3."""
    annex = rise = 0
    for seed in range(12):
        r = play_game(GAME, 4, seed, ["greedy"], invariants="all")
        assert r.violations == []
        annex += r.events["annex"]
        rise += r.events["rise"]
    assert annex >= 12  # at least one a game on average (4.1 a game over 1,000)
    assert rise > 12 * 4  # more than the round-1 rises
