"""Line-ups: which bot sits in which seat of each game, balanced so seats and bots separate.

A line-up names one bot per seat. One name fills every seat (the default: every seat plays
alike, so a seat's win rate is about the seat alone). With several names, the seats are filled
from them in order, repeating them when there are fewer names than seats ('random,greedy' at
three players is random, greedy, random), and the games cycle through **every distinct
arrangement** of those bots over the seats, each equally often: game i plays arrangement
i mod K, and a run is rounded up to a whole number of K games (`balanced_games`). So every
seat meets every bot, and every bot every set of neighbours, equally often; a seat's rate
then compares seats under the same mix of bots, and a bot's rate bots in the same mix of seats.

With more names than seats, the arrangements are those of every choice of seats' worth of
bots from the names ('a,b,c' at two players: ab, ac, ba, bc, ca, cb).

Game i's seed does not depend on the line-up (selfplay.game_seed), so two line-ups of a run
play the same seeds.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from itertools import permutations

#: more distinct arrangements than this is a usage error (a run would need that many games to
#: balance them): six different bots at six players is 720
MAX_ARRANGEMENTS = 720


def pool(bots: Sequence[str], players: int) -> tuple[str, ...]:
    """The bots a game seats: one name in every seat, else the names in order, repeated to
    fill the seats when there are fewer of them."""
    if not bots:
        raise ValueError("a line-up names at least one bot")
    if len(bots) >= players:
        return tuple(bots)
    return tuple(bots[i % len(bots)] for i in range(players))


def count(bots: Sequence[str], players: int) -> int:
    """How many distinct arrangements the line-up has (without listing them)."""
    names = pool(bots, players)
    if len(names) == players:  # a multiset permutation: n! / prod(k!)
        total = math.factorial(players)
        for k in Counter(names).values():
            total //= math.factorial(k)
        return total
    return len(_arrangements(names, players))


def problem(bots: Sequence[str], players: int) -> str | None:
    """Why a line-up cannot be balanced at this player count, or None."""
    names = pool(bots, players)
    if len(names) > players and math.perm(len(names), players) > 50 * MAX_ARRANGEMENTS:
        return f"{len(names)} bots for {players} seats are too many to seat every way"
    k = count(bots, players)
    if k > MAX_ARRANGEMENTS:
        return (f"the line-up {','.join(bots)} has {k} seatings at {players} players; a run "
                f"balances at most {MAX_ARRANGEMENTS}: name fewer different bots")
    return None


@lru_cache(maxsize=64)
def _arrangements(names: tuple[str, ...], players: int) -> tuple[tuple[str, ...], ...]:
    """Every distinct arrangement, in first-seen order of itertools' permutations (the first
    is the line-up as given)."""
    return tuple(dict.fromkeys(permutations(names, players)))


def arrangements(bots: Sequence[str], players: int) -> tuple[tuple[str, ...], ...]:
    """Every distinct seating of the line-up, the first one being the line-up as given."""
    if problem(bots, players):
        raise ValueError(problem(bots, players))
    return _arrangements(pool(bots, players), players)


def seating(bots: Sequence[str], players: int, index: int) -> tuple[str, ...]:
    """The bot in each seat of game `index`: arrangement index mod K."""
    if len(bots) == 1:
        return tuple(bots) * players
    every = arrangements(tuple(bots), players)
    return every[index % len(every)]


def balanced_games(games: int, bots: Sequence[str], players: int) -> int:
    """`games` rounded up to a whole number of cycles through the arrangements, so every
    seating is played equally often."""
    k = 1 if len(bots) == 1 else count(bots, players)
    return -(-games // k) * k
