"""GameDef -> plain JSON-able data, for `pnp show` and for anyone scripting around pnp."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pnp.data.effects import Effect, format_effect
from pnp.data.loader import Document
from pnp.diagnostics import Position


def game_to_data(game, root: Path | None = None) -> dict:
    """A whole GameDef as JSON-able data, effects written with the game's abbreviations."""
    abbr = {s.id: s.short for s in game.stats.values()}
    data = to_data(game, root, abbr)
    data.pop("documents", None)
    return data


def to_data(obj: Any, root: Path | None = None, abbr: Mapping[str, str] | None = None) -> Any:
    """Dataclasses to dicts; effects as {'source', 'canonical'}; positions as 'file:line:col'."""
    if isinstance(obj, Effect):
        return {"source": obj.source, "canonical": format_effect(obj, abbr)}
    if isinstance(obj, Position):
        if not obj.file:
            return None
        return f"{_rel(obj.file, root)}:{obj.line}:{obj.column}"
    if isinstance(obj, Document):
        return _rel(str(obj.path), root)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_data(getattr(obj, f.name), root, abbr) for f in dataclasses.fields(obj)}
    if isinstance(obj, Mapping):
        return {str(k): to_data(v, root, abbr) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_data(v, root, abbr) for v in obj]
    if isinstance(obj, Path):
        return _rel(str(obj), root)
    return obj


def _rel(file: str, root: Path | None) -> str:
    if root is None:
        return file
    try:
        return Path(file).resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return file
