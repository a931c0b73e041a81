"""Event logs: JSONL files of what happened in a game, readable by people and by `replay_log`.

Every line is one JSON object with an "e" (event) field:
  game   first line: game id, variant, players, seed, bots, max_turns, log version
  roll   a die: seat (-1 when no player rolls), sides, value, why (what the roll is for)
  choice a decision: seat, why, the legal options, pick (index) and value (the option)
  event  a named happening counted in the result (war, famine, wonder-built, ...), seat
  step   a step boundary: the phase that just ended and the turn number now
  move   cards that changed zone (pnp.engine.zones): seat, why, from, to (`hand@2` is seat 2's
         hand), cards (their ids, in order)
  draw   cards taken from the top of a pile with ctx.draw: seat, why, cards
  shuffle a zone shuffled: why, n (its size); its dice are the roll events before it
  face   a symbol die's face: seat, why, face
  end    how the game ended, turns, winners, scores and the final state
Replaying needs only the "game" line and the roll values and choice picks, in order.

A line is the event as the engine logged it ("e" first), compact and UTF-8; a file holds one
game or several one after another (`pnp simulate --log-games N`), each opening with its "game"
line. `pnp simulate --log` and `pnp scenario --log` both write through write_jsonl.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from pnp.atomic import atomic_write_bytes


def jsonl_bytes(events: Iterable[dict[str, Any]]) -> bytes:
    """Events one per line, each ending in a newline. A value JSON cannot hold is written as
    its str(): the log is still written, and replay reads only dice values and picks."""
    return "".join(json.dumps(e, ensure_ascii=False, separators=(",", ":"), default=str) + "\n"
                   for e in events).encode("utf-8")


def write_jsonl(events: Iterable[dict[str, Any]], path: str | Path) -> Path:
    """Write events one per line, atomically: an interrupted write leaves any old log whole."""
    return atomic_write_bytes(path, jsonl_bytes(events))


def read_jsonl(path: str | Path) -> list[dict[str, Any]]:
    """Read a log written by write_jsonl (blank lines skipped)."""
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def describe(event: dict[str, Any]) -> str:
    """One log event as a line of text."""
    kind = event.get("e")
    seat = event.get("seat", -1)
    who = f"seat {seat}" if isinstance(seat, int) and seat >= 0 else "-"
    if kind == "game":
        return (f"{event['game']} ({event.get('variant') or 'standard rules'}), "
                f"{event['players']} players, seed {event['seed']}, bots {event['bots']}")
    if kind == "roll":
        return f"  {who:8} rolls {event['value']} on a d{event['sides']} ({event['why']})"
    if kind == "choice":
        return (f"  {who:8} chooses {event['value']!r} for {event['why']} "
                f"(of {len(event['options'])})")
    if kind == "event":
        return f"  {who:8} ** {event['name']}"
    if kind == "move":
        return (f"  {who:8} moves {', '.join(map(str, event['cards']))} from {event['from']} "
                f"to {event['to']} ({event['why']})")
    if kind == "draw":
        return f"  {who:8} draws {', '.join(map(str, event['cards']))} ({event['why']})"
    if kind == "shuffle":
        return f"  {'-':8} shuffles {event['n']} cards ({event['why']})"
    if kind == "face":
        return f"  {who:8} rolls {event['face']!r} ({event['why']})"
    if kind == "step":
        return f"-- end of {event['label']}, turn {event['turn']}"
    if kind == "end":
        return (f"game over ({event['ended']}) after {event['turns']} turns: winners "
                f"{event['winners']}, scores {event['scores']}")
    return json.dumps(event)


def narrate(events: Iterable[dict[str, Any]]) -> Iterator[str]:
    """The whole log as text, one line per event."""
    for e in events:
        yield describe(e)
