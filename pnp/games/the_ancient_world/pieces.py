"""A card instance as this game marks it: tokens on it (army number, coins on its name and
picture, an occupied action) and flags (retired, damaged). One home, so every rule reads
a card the same way."""

from __future__ import annotations

from typing import Any


def is_retired(c: Any) -> bool:
    return bool(c.flags and "retired" in c.flags)


def is_damaged(c: Any) -> bool:
    return bool(c.flags and "damaged" in c.flags)


def tok(c: Any, key: str) -> int:
    return (c.tokens or {}).get(key, 0)


def set_tok(c: Any, key: str, value: int) -> None:
    if c.tokens is None:
        c.tokens = {}
    c.tokens[key] = value


def set_flag(c: Any, flag: str, on: bool = True) -> None:
    flags = [f for f in (c.flags or []) if f != flag]
    if on:
        flags.append(flag)
    c.flags = flags or None
