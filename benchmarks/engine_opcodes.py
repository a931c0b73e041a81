"""Where an Ancient Civilizations turn spends its bytecode: opcodes executed per function.

Deterministic and quick (no valgrind): it traces every executed bytecode instruction of N
seeded games (greedy bots in all four seats, sampled invariants, as engine_games.py plays them)
and prints each function's share, opcodes per turn and calls per turn. Tracing makes the games
slow, so it measures where the work is, not how long it takes; time it with engine_games.py.
A block of other seeds is played untraced first, so first-use tables are built outside the
count (and the traced games find no decision of theirs remembered).
Run from the checkout it measures, as a module:

    python -m benchmarks.engine_opcodes [--games 20] [--top 40]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

import pnp
from benchmarks.engine_games import run_engine
from pnp.data.game import load_game
from pnp.paths import CARDS


def count(games: int) -> tuple[Counter, Counter, int]:
    """(opcodes per function, calls per function, turns) of seeds games..2 games-1."""
    game = load_game(CARDS / "ancient-civilizations").game
    run_engine(game, games, ["greedy"], 4, "sample")  # warm: first-use tables not counted
    opcodes: Counter = Counter()
    calls: Counter = Counter()

    def where(frame: FrameType) -> tuple[str, str]:
        code = frame.f_code
        return Path(code.co_filename).name, code.co_qualname

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "opcode":
            opcodes[where(frame)] += 1
        elif event == "call":
            frame.f_trace_opcodes = True
            calls[where(frame)] += 1
        return trace

    sys.settrace(trace)
    try:
        _, turns = run_engine(game, games, ["greedy"], 4, "sample", games)
    finally:
        sys.settrace(None)
    return opcodes, calls, turns


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--top", type=int, default=40)
    args = ap.parse_args()
    print(f"measuring {Path(pnp.__file__).parent}")
    opcodes, calls, turns = count(args.games)
    total = sum(opcodes.values())
    print(f"{args.games} games, {turns} turns: {total / turns:,.0f} opcodes and "
          f"{sum(calls.values()) / turns:,.0f} Python calls per turn")
    print(f"{'share':>6} {'opcodes/turn':>13} {'calls/turn':>11}  function")
    for key, n in opcodes.most_common(args.top):
        print(f"{100 * n / total:5.1f}% {n / turns:13,.0f} {calls[key] / turns:11.1f}  "
              f"{key[0]}:{key[1]}")


if __name__ == "__main__":
    main()
