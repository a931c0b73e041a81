"""Bounded memos: results that can be worked out again, remembered within a size, so memory
stays flat however much new input arrives (a huge deck's source positions, a long self-play
run's estimates, 54,000 cards' texts).

It needs nothing but the standard library, so every layer may use it: the data layer, the
engine (and the bundled games, through pnp.engine.api) and the renderer.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")

#: objects `per_object` keeps a result for (definitions come and go in tests; keep it small)
PER_OBJECT = 33


class BoundedMemo(dict[K, V]):
    """A memo of at most `maxsize` entries, emptied when full: the simplest bound, for results
    that are cheap to work out again. Reads are the dict's own (`get`, `in`, `[]`), so a hit
    costs what a plain dict's does; a miss is kept with `put`, or a loop that writes a bounded
    number of entries calls `make_room` once and then writes them with `memo[key] = value`."""

    __slots__ = ("maxsize",)

    def __init__(self, maxsize: int):
        super().__init__()
        self.maxsize = maxsize

    def _spill(self) -> None:
        """What a full memo does before it takes another entry: start afresh."""
        self.clear()

    def make_room(self) -> None:
        """Start afresh if the memo is full."""
        if len(self) >= self.maxsize:
            self._spill()

    def put(self, key: K, value: V) -> V:
        """Remember `value` under `key` (making room first) and return it."""
        if len(self) >= self.maxsize:
            self._spill()
        self[key] = value
        return value


class BoundedCache(BoundedMemo[K, V]):
    """A cache of at most 2 × `maxsize` entries that keeps what is still used: the repeats a
    deck has (the same title on every 54th card, one card printed many times) keep hitting
    while memory stays flat however many unique cards there are. The dict itself is the newer
    half (so `get` is dict.get); when it is full it becomes the older half, and `recall` moves
    an entry found only there back to the newer one, so what is still used survives the
    turnover. Callers try `get`, then `recall`; every write makes room itself."""

    __slots__ = ("old",)

    def __init__(self, maxsize: int = 1024):  # two halves: as many entries as one 2,048 cache
        super().__init__(maxsize)
        self.old: dict[K, V] = {}

    def _spill(self) -> None:
        """The newer half becomes the older one (the oldest entries go)."""
        self.old = dict(self)
        self.clear()

    def recall(self, key: K) -> V | None:
        """The entry from the older half (moved to the newer one), or None."""
        value = self.old.get(key)
        if value is not None:
            self[key] = value
        return value

    def __setitem__(self, key: K, value: V) -> None:
        if len(self) >= self.maxsize:
            self._spill()
        super().__setitem__(key, value)


def per_object(build: Callable[[Any], T]) -> Callable[[Any], T]:
    """`build(x)` once per object, by identity: what is compiled from one game definition (a
    variant's definition is another object, so it gets its own). The object is kept beside its
    result, so a recycled id is never mistaken for it; at most PER_OBJECT, emptied when full."""
    cache: BoundedMemo[int, tuple[Any, T]] = BoundedMemo(PER_OBJECT)

    @functools.wraps(build)
    def get(key: Any) -> T:
        hit = cache.get(id(key))
        if hit is not None and hit[0] is key:
            return hit[1]
        return cache.put(id(key), (key, build(key)))[1]

    return get
