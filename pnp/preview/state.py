"""What `pnp preview` shows: the game's items, their images, and the diagnostics beside each.

A refresh reloads the game through the one pipeline every command uses (`load_game`); cards
whose key did not change keep their image, so an edited card row redraws that card, an edited
layout the cards that use it. Other kinds are redrawn when a file they may read changed. While
the data has errors nothing is redrawn: the last good images stay, with the errors beside the
items they concern.
"""

from __future__ import annotations

import re
import threading
import time
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.data.game import load_game_and_documents
from pnp.data.sheets import SHEET_SUFFIXES
from pnp.diagnostics import Diagnostic, display_path, has_errors
from pnp.preview.quick import changed_cards
from pnp.render.previews import PreviewItem, card_items, draw_card, page_items

__all__ = ["PreviewState", "Update"]

CARD_DPI = 120  # a little over CSS's 96 px per inch: sharp when the page is zoomed a little
PAGE_DPI = 60
_CARD_INPUTS = {".yaml", ".yml", *SHEET_SUFFIXES}  # a change elsewhere (an image) redraws all


@dataclass
class Update:
    """What changed in one refresh, as the page needs it."""

    items: list[dict] = field(default_factory=list)  # new or redrawn items
    removed: list[str] = field(default_factory=list)
    diagnostics: dict[str, list[dict]] = field(default_factory=dict)  # item id ('' the game)
    ok: bool = True
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"items": self.items, "removed": self.removed, "diagnostics": self.diagnostics,
                "ok": self.ok, "seconds": round(self.seconds, 3)}


class PreviewState:
    """The preview of one game folder; refresh() and image() may be called from any thread."""

    def __init__(self, folder: Path, paper: str = "a4", kinds: Iterable[str] | None = None):
        self.folder = Path(folder)
        self.paper = paper
        self.kinds = set(kinds) if kinds is not None else None  # None: every registered kind
        self.items: dict[str, PreviewItem] = {}
        self.images: dict[str, bytes] = {}  # key -> png
        self.render_diags: dict[str, list[Diagnostic]] = {}  # item id -> drawing problems
        self.data_diags: list[Diagnostic] = []
        self.ok = False
        self._spans: dict[str, list[tuple[int, str]]] = {}  # file -> (line, item id or '')
        self._library: Any = None  # the layouts, kept while no layout file changes
        self._library_diags: list[Diagnostic] = []
        self._docs: list | None = None  # the documents as read by the last good refresh
        self._lock = threading.RLock()  # pdfium and reportlab draw one thing at a time

    # -- refreshing ------------------------------------------------------------------------

    def refresh(self, changed: Iterable[Path] | None = None) -> Update:
        """Reload the game and redraw the cards whose key changed (all on the first call).

        The game is loaded and keyed outside the lock, so images keep being served meanwhile;
        refresh itself is called from one thread at a time (the watcher)."""
        start = time.perf_counter()
        result, docs = load_game_and_documents(self.folder)
        update = Update(ok=result.ok)
        items: list[PreviewItem] = []
        redraw_all = changed is not None and any(
            Path(p).suffix.lower() not in _CARD_INPUTS for p in changed)
        if result.ok:
            same_layouts = (changed is not None and not redraw_all
                            and not any(_kind_of(Path(p)) == "layout" for p in changed))
            if not same_layouts or self._library is None:
                from pnp.render.layout.library import load_library

                self._library, self._library_diags = load_library(result.game)
            items, diags = card_items(result.game, self._library)
        with self._lock:
            self._docs = docs if result.ok else None
            self.data_diags = list(result.diagnostics)
            if result.ok:
                self.data_diags.extend(self._library_diags)
                self.data_diags.extend(d for d in diags if d not in self._library_diags)
                self.game = result.game
                drawn = self._replace([i for i in self.items.values() if i.kind == "cards"],
                                      items, update, redraw_all)
                self._map_spans()
            else:
                drawn = []
            self.ok = result.ok
        for item_id in drawn:
            self.image(item_id)  # drawn now: the page asks for it at once
        update.diagnostics = self.diagnostics_json()
        update.seconds = time.perf_counter() - start
        return update

    def quick(self, changed: Iterable[Path]) -> Update | None:
        """Redraw at once the cards whose values a saved deck file or sheet changed (see
        pnp/preview/quick.py); None when the change needs the full refresh first."""
        start = time.perf_counter()
        with self._lock:
            docs, library = self._docs, self._library
        if not self.ok or docs is None or library is None:
            return None
        found = changed_cards(self.folder, docs, changed)
        if found is None:
            return None
        game, ids = found
        update = Update(ok=True)
        if ids:
            items, _ = card_items(game, library)
            with self._lock:
                for item in items:
                    before = self.items.get(item.id)
                    if item.id not in ids or before is None or before.key == item.key:
                        continue
                    item.origin = before.origin  # the cut-down deck's rows are not the file's
                    self.items[item.id] = item
                    update.items.append(item.to_json())
        for shown in update.items:
            self.image(shown["id"])  # drawn now: the page asks for it at once
        update.diagnostics = self.diagnostics_json()
        update.seconds = time.perf_counter() - start
        return update

    def refresh_pages(self, changed: Iterable[Path] | None = None) -> Update:
        """Redraw the other kinds (boards, sheets, tokens, rulesheet) when a file they may read
        changed: anything but a deck's cards and layouts (the rulesheet reads those too)."""
        start = time.perf_counter()
        with self._lock:
            update = Update(ok=self.ok)
            if not self.ok:
                return update
            game = self.game
        paths = [Path(p) for p in changed] if changed is not None else None
        only_cards = paths is not None and all(_card_file(p) for p in paths)
        kinds = {"rulesheet"} if only_cards else None
        wanted = [k for k in self._page_kinds() if kinds is None or k in kinds]
        if not wanted:
            return update
        items, diags = page_items(game, wanted, self.paper, PAGE_DPI)  # cards keep drawing
        with self._lock:
            if game is not self.game:
                return update  # the data changed meanwhile: the next refresh draws it again
            for item in items:
                self.images[item.key] = item.png or b""
            self.render_diags.update({i.id: [] for i in items})
            for d in diags:
                kind_items = [i for i in items if i.kind in wanted]
                if kind_items:
                    self.render_diags.setdefault(kind_items[0].id, []).append(d)
            old = [i for i in self.items.values() if i.kind in wanted]
            self._replace(old, items, update, False)
            update.diagnostics = self.diagnostics_json()
            update.seconds = time.perf_counter() - start
            return update

    def _page_kinds(self) -> list[str]:
        from pnp.render.kinds import kind_names

        return [k for k in kind_names() if k != "cards" and (self.kinds is None or k in self.kinds)]

    def _replace(self, old: list[PreviewItem], new: list[PreviewItem], update: Update,
                 redraw_all: bool) -> list[str]:
        """Install the new items; the ids of the cards to draw at once (redrawn ones)."""
        drawn: list[str] = []
        new_ids = {i.id for i in new}
        for item in old:
            if item.id not in new_ids:
                del self.items[item.id]
                self.render_diags.pop(item.id, None)
                update.removed.append(item.id)
        for item in new:
            before = self.items.get(item.id)
            if redraw_all and item.kind == "cards":
                self.images.pop(item.key, None)
            self.items[item.id] = item
            if before is None or before.key != item.key or redraw_all:
                if item.kind == "cards" and before is not None:
                    drawn.append(item.id)
                update.items.append(item.to_json())
        return drawn

    # -- images ----------------------------------------------------------------------------

    def image(self, item_id: str) -> tuple[bytes | None, bool]:
        """The item's current image, drawn on first request (cards are drawn lazily), and
        whether drawing it now reported something (the page should hear of it)."""
        with self._lock:
            item = self.items.get(item_id)
            if item is None:
                return None, False
            png = self.images.get(item.key)
        if png is not None or item.copy is None:
            return png, False
        png, diags = draw_card(item, CARD_DPI)  # outside the lock: pages keep loading
        with self._lock:
            self.images[item.key] = png
            reported = bool(diags) or bool(self.render_diags.get(item.id))
            self.render_diags[item.id] = diags
        return png, reported

    # -- diagnostics -----------------------------------------------------------------------

    def _map_spans(self) -> None:
        """Per data file, the lines (or rows) where each card and deck starts."""
        spans: dict[str, list[tuple[int, str]]] = {}
        for deck in self.game.decks.values():
            if deck.origin.file:
                spans.setdefault(deck.origin.file, []).append((deck.origin.line, ""))
            for card in deck.cards:
                item_id = f"card/{deck.id}/{card.id}"
                if card.origin.file and item_id in self.items:
                    spans.setdefault(card.origin.file, []).append((card.origin.line, item_id))
        self._spans = {f: sorted(v) for f, v in spans.items()}

    def owner(self, d: Diagnostic) -> str:
        """The item a data diagnostic is about ('' for the game as a whole)."""
        spans = self._spans.get(d.file)
        if not spans or not d.line:
            return ""
        i = bisect_right(spans, (d.line, "\uffff")) - 1
        return spans[i][1] if i >= 0 else ""

    def diagnostics_json(self) -> dict[str, list[dict]]:
        """Every diagnostic as the page shows it, by the item it is about ('' the game)."""
        out: dict[str, list[dict]] = {}
        with self._lock:
            for d in self.data_diags:
                out.setdefault(self.owner(d), []).append(_shown(d, self.folder))
            for item_id, diags in self.render_diags.items():
                for d in diags:
                    out.setdefault(item_id, []).append(_shown(d, self.folder))
        return out

    def state_json(self) -> dict[str, Any]:
        with self._lock:
            return {"game": getattr(getattr(self, "game", None), "name", self.folder.name),
                    "folder": str(self.folder), "ok": self.ok,
                    "items": [i.to_json() for i in self.items.values()],
                    "diagnostics": self.diagnostics_json(),
                    "errors": has_errors(self.data_diags)}


def _kind_of(path: Path) -> str | None:
    """A YAML file's kind from its schema line (None for other files or none)."""
    if path.suffix.lower() not in (".yaml", ".yml"):
        return None
    try:
        with path.open(encoding="utf-8", errors="replace") as fh:
            first = fh.readline()
    except OSError:
        return None
    match = re.search(r"([A-Za-z-]+)\.schema\.json", first)
    return match.group(1) if match else None


def _card_file(path: Path) -> bool:
    """A file only cards read: a spreadsheet, a deck or layout file (by its schema line)."""
    return path.suffix.lower() in SHEET_SUFFIXES or _kind_of(path) in ("deck", "layout")


def _shown(d: Diagnostic, root: Path) -> dict:
    data = d.to_json(root.parent)
    data["text"] = d.format_text(root.parent)
    data["file"] = display_path(d.file, root.parent) if d.file else ""
    return data
