"""Compact source positions: where each key and value of a loaded data file came from.

A 54,000-card deck has over a million keys and values, and a dict from path tuples to (line,
column) tuples would cost some 300 bytes for each; this keeps them packed in one array per file
instead, so diagnostics can still point at any value without the memory of a dict.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Mapping
from typing import Any

__all__ = ["Positions", "MapPos", "SeqPos", "pack", "unpack", "compact_subs"]

#
# A 54,000-card deck has over a million keys and values; a dict from path tuples to (line,
# column) tuples costs some 300 bytes for each. Positions are kept instead in a tree shaped
# like the data: a map keeps its keys (one tuple shared by every map with the same keys) and
# where its packed key and value positions start in the file's one array, a list where its
# packed item positions start and how many there are, each with the nodes of its maps and lists
# beside them (None when it holds only scalars).

_SHIFT = 32  # a position is packed as line << 32 | column
_MASK = (1 << _SHIFT) - 1


def pack(line: int, col: int) -> int:
    return line << _SHIFT | col


def unpack(packed: int) -> tuple[int, int]:
    return packed >> _SHIFT, packed & _MASK


class MapPos:
    """A map's positions: from `start`, key and value positions in turn, in `keys` order."""

    __slots__ = ("keys", "start", "subs")

    def __init__(self, keys: tuple, start: int, subs: tuple | None):
        self.keys, self.start, self.subs = keys, start, subs


class SeqPos:
    """A list's positions: from `start`, each of its `count` items' positions."""

    __slots__ = ("start", "count", "subs")

    def __init__(self, start: int, count: int, subs: tuple | None):
        self.start, self.count, self.subs = start, count, subs


def compact_subs(subs: list) -> tuple | None:
    """The child nodes of a map or list, None when it holds only scalars."""
    return None if all(sub is None for sub in subs) else tuple(subs)


def _child(node: Any, step: Any, flat: array, want_key: bool) -> tuple[int, Any] | None:
    """The packed value (or key) position of `step` below a position node, and the step's own
    node (None for a scalar); None when the node has no such step."""
    cls = node.__class__
    if cls is MapPos:
        try:
            i = node.keys.index(step)
        except ValueError:
            return None
        packed = flat[node.start + 2 * i + (0 if want_key else 1)]
    elif cls is SeqPos:
        if want_key or not isinstance(step, int) or not 0 <= step < node.count:
            return None  # list items have no key
        i = step
        packed = flat[node.start + i]
    else:
        return None
    subs = node.subs
    return packed, (None if subs is None else subs[i])


def _walk(root: int, tree: Any, flat: array, want_key: bool) -> Iterator[tuple[tuple, int]]:
    """Every (path, packed position) of a position tree, parents before children."""
    if not want_key:
        yield (), root
    stack = [((), tree)]
    while stack:
        path, node = stack.pop()
        if type(node) is MapPos:
            items = [(k, flat[node.start + 2 * i + (0 if want_key else 1)])
                     for i, k in enumerate(node.keys)]
        elif type(node) is SeqPos:
            items = [] if want_key else [(i, flat[node.start + i]) for i in range(node.count)]
        else:
            continue
        for step, packed in items:
            yield (*path, step), packed
        if node.subs is not None:
            n = len(node.keys) if type(node) is MapPos else node.count
            for i in range(n - 1, -1, -1):
                if node.subs[i] is not None:
                    step = node.keys[i] if type(node) is MapPos else i
                    stack.append(((*path, step), node.subs[i]))


class Positions(Mapping):
    """Read-only `path -> (line, column)` over a position tree: where each value (or, with
    `keys=True`, each mapping key) of a document is written."""

    __slots__ = ("_root", "_tree", "_flat", "_keys", "_memo")

    def __init__(self, root: int, tree: Any, flat: array, keys: bool = False):
        self._root, self._tree, self._flat, self._keys = root, tree, flat, keys
        self._memo: tuple[tuple, Any] | None = None

    def __getstate__(self) -> tuple:
        """The positions without the lookup memo (a cache: see Document.__getstate__)."""
        return self._root, self._tree, self._flat, self._keys

    def __setstate__(self, state: tuple) -> None:
        self._root, self._tree, self._flat, self._keys = state
        self._memo = None

    def get(self, path, default=None):
        path = tuple(path)
        if not path:
            return default if self._keys else unpack(self._root)
        parent = path[:-1]
        memo = self._memo  # the last parent looked up: a card's fields are asked in a row
        if memo is not None and memo[0] == parent:
            node = memo[1]
        else:
            node = self._tree
            try:
                for step in parent:
                    found = _child(node, step, self._flat, False)
                    if found is None:
                        return default
                    node = found[1]
            except TypeError:  # an odd step (an unhashable list): not a path of this document
                return default
            self._memo = (parent, node)
        try:
            found = _child(node, path[-1], self._flat, self._keys)
        except TypeError:
            return default
        return default if found is None else unpack(found[0])

    def __getitem__(self, path) -> tuple[int, int]:
        found = self.get(path)
        if found is None:
            raise KeyError(path)
        return found

    def __contains__(self, path) -> bool:
        return self.get(path) is not None

    def __iter__(self) -> Iterator[tuple]:
        return (path for path, _ in _walk(self._root, self._tree, self._flat, self._keys))

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __repr__(self) -> str:
        return f"Positions({len(self)} paths)"
