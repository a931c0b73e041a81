"""The preview's fast path: the cards a saved deck file or sheet changed, built on their own.

Checking a whole game again takes as long as its biggest deck; the preview wants the edited card
on screen first. When only deck files or their spreadsheets changed, and only card values (no
deck declaration, no card added or removed), the changed files are read again and the game is
built from every document with each deck cut down to its changed cards: the same pipeline, the
same parsed values and so the same image as the full build, in a fraction of the time. The full
reload follows at once and has the last word (its diagnostics, and anything this path declined).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pnp.data.build import slug
from pnp.data.game import LoadResult, build_game
from pnp.data.loader import Document, load_file
from pnp.data.sheet_decks import attach_sheets
from pnp.diagnostics import has_errors

__all__ = ["changed_cards"]


def changed_cards(folder: Path, docs: list[Document], changed: Iterable[Path]
                  ) -> tuple[Any, set[str]] | None:
    """(a GameDef holding the changed cards, their preview ids), or None when this change needs
    the full reload (another kind of file, a declaration, a card added or removed, an error)."""
    paths = {Path(p).resolve() for p in changed}
    touched: dict[int, Document] = {}
    covered: set[Path] = set()
    for i, doc in enumerate(docs):
        if doc.kind != "deck":
            continue
        files = {Path(doc.path).resolve(), *(Path(m.file).resolve() for m in doc.mounts.values())}
        if files & paths:
            touched[i] = doc
            covered |= files & paths
    if not touched or paths - covered:
        return None
    keep: dict[str, set[int]] = {}
    ids: set[str] = set()
    new_docs = list(docs)
    for i, old in touched.items():
        new, problems = load_file(old.path)
        if new is None or has_errors(problems) or new.kind != "deck":
            return None
        if has_errors(attach_sheets(folder, new)):
            return None
        found = _changed(old, new)
        if found is None:
            return None
        for deck_id, indexes, cards in found:
            keep[deck_id] = indexes
            ids |= {f"card/{deck_id}/{c.get('id') or slug(str(c.get('name', '')))}" for c in cards}
        new_docs[i] = new
    if not ids:
        return None, set()
    result = LoadResult(None)
    build_game(folder, [_cut(doc, keep) for doc in new_docs], None, result)
    if not result.ok:
        return None
    return result.game, ids


def _decks(doc: Document) -> list[dict]:
    data = doc.data if isinstance(doc.data, dict) else {}
    return [d for d in data.get("decks") or [] if isinstance(d, dict)]


def _changed(old: Document, new: Document) -> list[tuple[str, set[int], list[dict]]] | None:
    """Per deck, the indexes and data of the cards whose values changed; None when anything
    but card values changed."""
    before = {d.get("id"): d for d in _decks(old)}
    out = []
    if [d.get("id") for d in _decks(new)] != list(before):
        return None
    for deck in _decks(new):
        was = before[deck.get("id")]
        if {k: v for k, v in deck.items() if k != "cards"} != \
                {k: v for k, v in was.items() if k != "cards"}:
            return None
        cards, old_cards = deck.get("cards"), was.get("cards")
        if not isinstance(cards, list) or not isinstance(old_cards, list):
            if cards != old_cards:
                return None
            continue
        if len(cards) != len(old_cards):
            return None
        indexes = {j for j, (a, b) in enumerate(zip(cards, old_cards, strict=True)) if a != b}
        if indexes:
            out.append((str(deck.get("id")), indexes, [cards[j] for j in sorted(indexes)]))
    return out


def _cut(doc: Document, keep: dict[str, set[int]]) -> Document:
    """A shallow copy of a deck document whose decks hold only the kept cards (the first card
    where none is kept: a deck needs one); other documents as they are."""
    if doc.kind != "deck":
        return doc
    decks = []
    for deck in _decks(doc):
        cards = deck.get("cards")
        if isinstance(cards, list) and cards:
            wanted = keep.get(str(deck.get("id")), set())
            cards = [c for j, c in enumerate(cards) if j in wanted] or cards[:1]
            deck = {**deck, "cards": cards}
        decks.append(deck)
    return Document(doc.path, {**doc.data, "decks": decks}, doc.schema_ref, doc.positions,
                    doc.key_positions, {}, doc.mounts)
