"""Sane maximums for numbers in game data: the schemas state them, the code enforces them too.

Anything above these is a typo or a stress test, never a game; past them validation, building
and self-play would hang or run out of memory instead of answering in seconds.
"""

from __future__ import annotations

MAX_DICE = 99  # dice rolled at once ('99D6')
MAX_SIDES = 1000  # sides of one die ('1D1000')
MAX_ROLL = MAX_DICE * MAX_SIDES  # the highest roll a chart row may name
MAX_DIGITS = 9  # digits of a number written inside a string (conditions, formulas)
MAX_PLAYERS = 99
MAX_COMPONENT_COUNT = 10_000  # copies of one component
MAX_CARD_COUNT = 1_000  # copies of one card
MAX_GRID_TURNS = 200  # turn columns on a record sheet
MAX_TURNS = 100_000  # end.max_turns and scenario turn caps
MAX_STAT = 1_000_000_000  # |min|, |cap|, |start| of a stat
MAX_GAMES = 1_000_000  # games one `pnp simulate` may play


def dice_in_limits(count: str | int, sides: str | int) -> bool:
    """Whether `count`D`sides` is dice a game may roll: 1..MAX_DICE dice of 1..MAX_SIDES
    sides. Digits are counted before converting, so '1D999999999999' costs nothing; the data
    checks (effects, rules dice) and the engines ask this one question."""
    texts = (str(count), str(sides))
    if any(not t.isdigit() or len(t) > len(str(limit))
           for t, limit in zip(texts, (MAX_DICE, MAX_SIDES), strict=True)):
        return False
    return 1 <= int(texts[0]) <= MAX_DICE and 1 <= int(texts[1]) <= MAX_SIDES
