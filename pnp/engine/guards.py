"""Limits around one self-played game that no rules module can talk its way past.

A designer's rules module is ordinary Python: it can loop without rolling a die, allocate
without end, end the process or change the game definition that every later game reads. The
context counts dice, decisions and steps (pnp.engine.core); what it cannot count is guarded
here: time and memory by a timer that interrupts the game (main thread only: signals reach
no other), the process's address space by a soft limit, os._exit by a stand-in that
raises, and the definition by a fingerprint taken before and compared after.
"""

from __future__ import annotations

import hashlib
import io
import os
import pickle
import resource
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stdout
from dataclasses import dataclass
from typing import Any

from pnp.memo import PER_OBJECT, BoundedMemo

#: how often the timer looks at the clock and the memory (seconds)
TICK = 0.1
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_MIB = 1 << 20


class OutOfBudget(BaseException):
    """A game ran past its wall time or memory budget, or tried to end the process.

    A BaseException, so a rules module's own `except Exception` cannot swallow it and go on."""


@dataclass(frozen=True)
class GameLimits:
    """What one game may use beyond its dice, decisions and steps."""

    #: CPU seconds for one game (0: no limit); the wall clock gets WALL_FACTOR times as long,
    #: for a module that sleeps or waits rather than computes
    seconds: float = 10.0
    #: MiB one game may grow the process by (0: no limit)
    memory_mib: int = 1024


#: CPU time is the budget, so a game on a loaded machine (other processes taking the cores)
#: is not stopped for being slow; the wall clock only catches a module that waits forever
WALL_FACTOR = 10

#: environment variables that change the budgets (inherited by local worker processes)
SECONDS_ENV, MEMORY_ENV = "PNP_GAME_SECONDS", "PNP_GAME_MEMORY_MIB"


def limits_from_env(env: Any = os.environ) -> GameLimits:
    """The default limits, or the ones PNP_GAME_SECONDS / PNP_GAME_MEMORY_MIB set (0: none);
    a value that is not a number is ignored."""
    def read(name: str, default: float) -> float:
        try:
            value = float(env.get(name, default))
        except ValueError:
            return default
        return value if value >= 0 else default

    base = GameLimits()
    return GameLimits(read(SECONDS_ENV, base.seconds), int(read(MEMORY_ENV, base.memory_mib)))


DEFAULT_LIMITS = limits_from_env()
#: a line-up with a searching bot plays many games inside each one: it gets this much longer
SEARCH_FACTOR = 30
#: ids of the definitions (with the definition) one of whose games ran away in this process
_RAN_AWAY: BoundedMemo[int, Any] = BoundedMemo(PER_OBJECT)


def limits_for(thinking: bool, limits: GameLimits = DEFAULT_LIMITS) -> GameLimits:
    """The limits of one game; a line-up with a `thinking` bot (one that plays games out for
    every decision: search, mcts) gets SEARCH_FACTOR times the time."""
    if limits.seconds and thinking:
        return GameLimits(limits.seconds * SEARCH_FACTOR, limits.memory_mib)
    return limits


def ran_away(game: Any) -> None:
    """Remember that a game of this definition ran away here: a module that loops forever
    would otherwise cost a whole budget for every game of the run (see `has_run_away`)."""
    _RAN_AWAY.put(id(game), game)


def has_run_away(game: Any) -> bool:
    """Whether a game of this definition already ran away in this process."""
    return _RAN_AWAY.get(id(game)) is game


def resident_mib() -> float:
    """This process's resident memory now (Linux /proc; 0 where it cannot be read)."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE / _MIB
    except (OSError, ValueError, IndexError):
        return 0.0


def _address_space() -> int:
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[0]) * _PAGE
    except (OSError, ValueError, IndexError):
        return 0


def _refuse_exit(code: int = 0) -> None:
    raise OutOfBudget(f"the rules module tried to end the process (os._exit({code}))")


@contextmanager
def prints_to_stderr() -> Iterator[None]:
    """Whatever a rules module prints (a designer's debugging print()) goes to stderr while it
    loads or plays, so stdout carries only pnp's own report: text to read, or JSON to pipe on."""
    with redirect_stdout(sys.stderr):
        yield


class _Nowhere(io.TextIOBase):
    """A text stream that keeps nothing."""

    def write(self, text: str) -> int:
        return len(text)


@contextmanager
def prints_dropped() -> Iterator[None]:
    """A rules module's prints are dropped while pnp replays a game for a check or plays one
    out for a search bot, so a designer reads each real game's prints once, not once per
    replay (a search bot replays thousands of times a game)."""
    with redirect_stdout(_Nowhere()):
        yield


@contextmanager
def guarded(limits: GameLimits) -> Iterator[None]:
    """Play one game inside the limits; past one, OutOfBudget is raised inside the game.

    In a thread other than the main one (a Dask worker's) only os._exit is guarded: the
    context's own budgets still stop a game that decides or steps without end."""
    real_exit = os._exit
    os._exit = _refuse_exit  # type: ignore[assignment]
    timed = (threading.current_thread() is threading.main_thread()
             and hasattr(signal, "setitimer") and (limits.seconds or limits.memory_mib))
    if not timed:
        try:
            yield
        finally:
            os._exit = real_exit  # type: ignore[assignment]
        return
    start, cpu_start, base = time.monotonic(), time.process_time(), resident_mib()

    def tick(_signum: int, _frame: Any) -> None:
        if limits.seconds and time.process_time() - cpu_start > limits.seconds:
            raise OutOfBudget(f"the game computed for more than {limits.seconds:g} CPU s (a "
                              f"game that needs longer: set {SECONDS_ENV})")
        if limits.seconds and time.monotonic() - start > limits.seconds * WALL_FACTOR:
            raise OutOfBudget(f"the game took more than {limits.seconds * WALL_FACTOR:g} s "
                              f"while computing for less than {limits.seconds:g} CPU s: it "
                              f"waits for something (a game that needs longer: set "
                              f"{SECONDS_ENV})")
        if limits.memory_mib and resident_mib() - base > limits.memory_mib:
            raise OutOfBudget(f"the game used more than {limits.memory_mib} MiB of memory (a "
                              f"game that needs more: set {MEMORY_ENV})")

    previous = signal.signal(signal.SIGALRM, tick)
    old_as = _lower_address_space(limits)
    signal.setitimer(signal.ITIMER_REAL, TICK, TICK)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if old_as is not None:
            resource.setrlimit(resource.RLIMIT_AS, old_as)
        os._exit = real_exit  # type: ignore[assignment]


def _lower_address_space(limits: GameLimits) -> tuple[int, int] | None:
    """A soft cap on the address space, twice the memory budget above today's, so one huge
    allocation fails at once with MemoryError instead of swapping the machine; the old
    limits, to restore (None when nothing was changed)."""
    if not limits.memory_mib:
        return None
    now = _address_space()
    if not now:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    want = now + 2 * limits.memory_mib * _MIB
    if hard != resource.RLIM_INFINITY:
        want = min(want, hard)
    if soft != resource.RLIM_INFINITY and soft <= want:
        return None
    resource.setrlimit(resource.RLIMIT_AS, (want, hard))
    return soft, hard


def fingerprint(game: Any) -> bytes:
    """A digest of the whole game definition: equal before and after a game unless the
    rules module changed the data every later game reads."""
    return hashlib.blake2b(pickle.dumps(game, protocol=5), digest_size=16).digest()


#: id of each definition this process has fingerprinted -> (the definition, its digest)
_PRINTS: BoundedMemo[int, tuple[Any, bytes]] = BoundedMemo(PER_OBJECT)


def first_fingerprint(game: Any) -> tuple[bytes, bool]:
    """The definition's digest as this process first saw it, and whether this is the first
    time (the first game a process plays of a definition is always checked in full)."""
    hit = _PRINTS.get(id(game))
    if hit is not None and hit[0] is game:
        return hit[1], False
    digest = fingerprint(game)
    _PRINTS.put(id(game), (game, digest))
    return digest, True
