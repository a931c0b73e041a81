"""The Ancient World: the turn-order coins make up for playing later in the round; they must
not open a card with a game-end bonus that the first player cannot reach in round 1.

Issue 20: the prototype Hall of War cost 8 coins and no knowledge, so the first seat with 2
extra coins (the third) could build it on its first turn and nobody before it could. Greedy
bots did so in 148 of 200 four-player games and those seats won 52%: seat 3 won 50% at three
players and 46% at four, although at four seats 3 and 4 get the same coins."""

from __future__ import annotations

import pytest

from pnp.data.game import load_game
from pnp.games.the_ancient_world import main_state
from pnp.games.the_ancient_world.game import TAW
from pnp.games.the_ancient_world.rules import rules_for
from pnp.paths import CARDS

GAME = CARDS / "the-ancient-world"


def bonus_cards_in_reach(players: int) -> list[set[str]]:
    """Per seat, the Empire C cards with a game-end bonus it can build right after setup."""
    game = load_game(GAME).game
    state = main_state(game, players)
    r = rules_for(game)
    table = TAW(r, None, state)
    return [{c.card for c in table.zone("empire-c")
             if r.f(c.card, "bonus_vp") and table.can_build(seat, c.card)}
            for seat in range(players)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_turn_order_coins_open_no_bonus_card_the_first_player_cannot_reach(players):
    reach = bonus_cards_in_reach(players)
    for seat, cards in enumerate(reach):
        assert cards <= reach[0], (f"seat {seat + 1} alone can build {sorted(cards - reach[0])} "
                                   f"on its first turn with its turn-order coins")


def test_the_reach_is_not_empty():
    """The check above is not empty: Trade Route (6 coins) is in everyone's reach."""
    assert all("trade-route" in cards for cards in bonus_cards_in_reach(4))
