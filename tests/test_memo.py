"""The bounded memos every layer shares (pnp/memo.py): a memo emptied when full, and the
renderer's two-half cache that keeps what is still used."""

from __future__ import annotations

from pnp.engine import api
from pnp.memo import PER_OBJECT, BoundedCache, BoundedMemo, per_object


def test_a_full_memo_starts_afresh_before_it_takes_another_entry():
    memo = BoundedMemo(3)
    for k in range(3):
        assert memo.put(k, k * 10) == k * 10
    assert memo == {0: 0, 1: 10, 2: 20}  # full, nothing lost yet
    assert memo.put("next", 1) == 1
    assert memo == {"next": 1}  # emptied, then the new entry kept
    for k in range(20):
        memo.put(k, k)
        assert len(memo) <= 3


def test_make_room_empties_only_a_full_memo():
    memo = BoundedMemo(2)
    memo["a"] = 1
    memo.make_room()
    assert memo == {"a": 1}
    memo["b"] = 2
    memo.make_room()
    assert memo == {}


def test_reads_are_a_plain_dicts():
    memo = BoundedMemo(2)
    memo.put("a", 1)
    assert memo.get("a") == 1 and "a" in memo and memo["a"] == 1 and memo.get("b") is None


def test_the_cache_keeps_both_halves_and_put_turns_them_over():
    cache = BoundedCache(maxsize=2)
    cache.put("a", 1)
    cache["b"] = 2
    cache.put("c", 3)  # the newer half was full: it became the older half
    assert dict(cache) == {"c": 3} and cache.old == {"a": 1, "b": 2}
    assert cache.recall("a") == 1 and cache.get("a") == 1  # moved forward


def test_the_games_reach_the_memo_through_the_api():
    assert api.BoundedMemo is BoundedMemo and "BoundedMemo" in api.__all__


def test_per_object_builds_once_per_object_by_identity_and_stays_bounded():
    built = []

    @per_object
    def size(items: list) -> int:
        built.append(id(items))
        return len(items)

    a, b = [1, 2], [1, 2]  # equal, but two objects: each gets its own
    assert (size(a), size(a), size(b)) == (2, 2, 2) and built == [id(a), id(b)]
    keep = [[k] for k in range(PER_OBJECT * 2)]
    for items in keep:
        size(items)
    built.clear()
    size(keep[-1])
    assert built == []  # the newest are still kept
    size(a)
    assert built == [id(a)]  # the oldest went when the memo was emptied
