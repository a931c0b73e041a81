"""Sums of dice as distributions, for estimates that must not enumerate every combination.

`count` dice of `sides` have sides**count equally likely combinations (2.2e9 for 12D6) but only
count·(sides-1)+1 sums. Adding one die to a distribution is a running window sum over it, so a
whole distribution costs O(count · range) even at the data's limit of 99D1000.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from functools import lru_cache
from itertools import accumulate
from operator import sub

#: dice with at most this many equally likely combinations (4D6) may be enumerated one
#: combination at a time, as the engines always did (their estimates stay bit for bit the
#: same); larger dice go by `distribution`
ENUMERATED = 6 ** 4


def enumerable(count: int, sides: int) -> bool:
    """Whether `count` dice of `sides` have at most ENUMERATED combinations."""
    return sides ** count <= ENUMERATED


def add_dice(dist: dict[int, float], count: int, sides: int, sign: int = 1) -> dict[int, float]:
    """The distribution of `total + sign · (count dice of sides)`, total drawn from `dist`."""
    if sign < 0:
        flipped = add_dice({-t: p for t, p in dist.items()}, count, sides)
        return {-t: p for t, p in flipped.items()}
    if not dist:
        return {}
    low = min(dist)
    dense = [0.0] * (max(dist) - low + 1)
    for total, p in dist.items():
        dense[total - low] += p
    pad = [0.0] * (sides - 1)
    for _ in range(count):
        # new[j] = (old[j] + old[j-1] + ... + old[j-sides+1]) / sides over the padded list
        cum = [0.0, *accumulate(pad + dense + pad)]
        dense = [w / sides for w in map(sub, cum[sides:], cum)]
    return {low + count + i: p for i, p in enumerate(dense) if p > 0.0}


@lru_cache(maxsize=64)
def distribution(count: int, sides: int) -> dict[int, float]:
    """P(sum) of `count` dice of `sides`, sums in increasing order (shared: do not change it)."""
    return add_dice({0: 1.0}, count, sides)


def compare(a: dict[int, float], b: dict[int, float]) -> tuple[float, float, float]:
    """(P(A > B), P(A < B), P(A == B)) for independent A and B, in O(n log n)."""
    values = sorted(b)
    below = [0.0, *accumulate(b[v] for v in values)]  # below[i]: P(B < values[i])
    total_b = below[-1]
    greater = less = equal = 0.0
    for v, p in a.items():
        lo, hi = bisect_left(values, v), bisect_right(values, v)
        greater += p * below[lo]
        equal += p * (below[hi] - below[lo])
        less += p * (total_b - below[hi])
    return greater, less, equal
