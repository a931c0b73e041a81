"""Lead changes, drama and decisiveness: how a game's lead moved, from who led each turn.

Read from `GameResult.leaders_by_turn` (the seats leading at the end of each turn, by the
module's own ranking, recorded by the api's `play_turns`; a module with its own turn loop
records none, and one whose `leaders` names nobody mid-game is left out too; a turn with no
leader named is skipped). After Ludii's LeadChange, Drama and Decisiveness metrics
(Browne 2008; Piette et al., Ludii), measured on who leads rather than on a state evaluation:

- lead changes: turns whose sole leader differs from the last sole leader (ties do not count);
- trailing share (drama): the share of turns the eventual winner was not among the leaders;
- decided at: the share of the recorded turns before the winner led for good (0: led from
  the first turn on; (T - 1) / T: took the lead only in the last of T turns);
- comeback: the winner was not among the leaders at half time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def game_drama(leaders_by_turn: Sequence[Sequence[int]],
               winners: Sequence[int]) -> dict[str, Any] | None:
    """The four figures for one game, or None when it recorded no turn or had no winner."""
    leaders_by_turn = [leading for leading in leaders_by_turn if leading]
    turns = len(leaders_by_turn)
    if turns < 2 or not winners:  # a module whose `leaders` names nobody records nothing
        return None
    changes, last = 0, None
    for leading in leaders_by_turn:
        if len(leading) == 1:
            if last is not None and leading[0] != last:
                changes += 1
            last = leading[0]
    winner = winners[0]
    led = [winner in leading for leading in leaders_by_turn]
    trailing = sum(1 for x in led if not x) / turns
    since = turns
    while since > 0 and led[since - 1]:
        since -= 1
    half = leaders_by_turn[(turns - 1) // 2]
    return {"lead_changes": changes, "trailing_share": trailing, "decided_at": since / turns,
            "comeback": int(turns >= 2 and winner not in half)}
