"""What the builds of one game's variants share, so `pnp validate` builds each variant from
what no override reaches (pnp.data.game.variant_problems makes one for all of them)."""

from __future__ import annotations

from typing import Any

from pnp.data.effects import EffectCache, Names
from pnp.data.loader import Document
from pnp.diagnostics import Diagnostic


class SharedBuilds(EffectCache):
    """What the builds of one game's variants share: parsed effect texts, and each track and
    chart as built. One is reused while its data, the game's names and its source positions
    are the same (no override reaches it): most variants change rules or one chart, and the
    tracks' spaces and the charts' rows are the largest part of a build. Tracks, charts and
    effects are immutable."""

    def __init__(self) -> None:
        super().__init__()
        self._parts: dict[tuple, tuple] = {}

    def part(self, doc: Document, path: tuple, raw: dict, names: Names
             ) -> tuple[Any, list[Diagnostic]] | None:
        """What was built from the same data at the same place, and its diagnostics."""
        kept = self._parts.get((doc.path, path))
        if (kept is None or kept[0] is not doc.positions or _overridden(doc, path)
                or kept[1] != raw or kept[2] != names):
            return None
        return kept[3], list(kept[4])

    def keep(self, doc: Document, path: tuple, raw: dict, names: Names, built: Any,
             diags: list[Diagnostic]) -> None:
        if not doc.mounts and not _overridden(doc, path):
            self._parts[(doc.path, path)] = (doc.positions, raw, names, built, list(diags))


def _overridden(doc: Document, path: tuple) -> bool:
    """Whether a variant override wrote `path`, a value below it or one of its ancestors."""
    n = len(path)
    return any(key[:n] == path or path[:len(key)] == key for key in doc.redirects)
