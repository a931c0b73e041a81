"""Documents -> GameDef: turns schema-valid YAML into the typed model, parsing every effect.

Problems found while building (unknown stats in effects, duplicate ids, references that do not
resolve) are collected as Diagnostics; the caller decides whether a model with errors is used.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from pnp.data import model as m
from pnp.data.chart_rows import chart_cards, chart_coverage, roll_bounds
from pnp.data.effects import Effect, EffectCache, Names
from pnp.data.limits import MAX_DICE, MAX_DIGITS, MAX_SIDES, dice_in_limits
from pnp.data.loader import Document
from pnp.data.maps import MapBuilder
from pnp.data.shared_builds import SharedBuilds
from pnp.diagnostics import ERROR, WARNING, Diagnostic, Position

_FORMULA_RE = re.compile(
    r"^\s*(?:(?P<op>ceil|floor)\s*\(\s*(?P<stat>[A-Za-z][A-Za-z_]*)\s*/\s*(?P<div>[0-9]+)\s*\)"
    r"|(?P<plain>[A-Za-z][A-Za-z_]*))\s*$"
)
_CONDITION_RE = re.compile(r"^\s*(?P<stat>[A-Za-z][A-Za-z_-]*)\s*(?P<op><=|>=|==|!=|<|>)\s*(?P<value>-?[0-9]+)\s*$")
_DICE_RE = re.compile(r"^\s*([0-9]*)[dD]([0-9]+)\s*$")


def slug(name: str) -> str:
    """A name as an id: 'Bread & Beer' -> 'bread-beer'."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "x"


@lru_cache(maxsize=64)
def _lines(file: str) -> tuple[str, ...]:
    """A data file's lines, keyed by the Position's own text (no Path made per value)."""
    try:
        return tuple(Path(file).read_text(encoding="utf-8-sig").splitlines())
    except (OSError, UnicodeDecodeError):
        return ()


def listed(doc: Document, key: str) -> Iterator[tuple[Document, tuple, dict]]:
    """Every entry of the document's list `key`, with its JSON path (as Builder.items gives)."""
    for i, item in enumerate(doc.data.get(key) or []):
        yield doc, (key, i), item


def text_pos(doc: Document, path: tuple) -> Position:
    """Where a string value's first character is: after its opening quote if it is quoted."""
    pos = doc.pos(path)
    lines = _lines(pos.file)
    if 0 < pos.line <= len(lines):
        line = lines[pos.line - 1]
        if 0 < pos.column <= len(line) and line[pos.column - 1] in "\"'":
            return pos.shifted(1)
    return pos


class FieldOrigins(Mapping):
    """Where each field of a card is written (its own `fields:` entry, else the deck's
    `defaults:`), looked up when a diagnostic asks: a 54,000-card deck keeps no 250,000
    Positions for the few a diagnostic needs."""

    __slots__ = ("doc", "index", "own", "deck_path", "defaults")

    def __init__(self, doc: Document, deck_path: tuple, index: int, own: Mapping,
                 defaults: Mapping):
        self.doc, self.deck_path, self.index = doc, deck_path, index
        self.own, self.defaults = own, defaults

    def __getitem__(self, key) -> Position:
        if key in self.own:
            return self.doc.pos(self.deck_path + ("cards", self.index, "fields", key))
        if key in self.defaults:
            return self.doc.pos(self.deck_path + ("defaults", key))
        raise KeyError(key)

    def __iter__(self):
        yield from self.defaults
        yield from (k for k in self.own if k not in self.defaults)

    def __len__(self) -> int:
        return len(self.defaults) + sum(1 for k in self.own if k not in self.defaults)


class Builder:
    """Builds one GameDef from a game folder's documents, collecting diagnostics."""

    def __init__(self, folder: Path, docs: list[Document], variant: str | None = None,
                 effects: EffectCache | None = None):
        self.folder = folder
        self.effects = EffectCache() if effects is None else effects  # shared by variants
        self.docs = docs
        self.variant = variant
        self.diags: list[Diagnostic] = []
        self.by_kind: dict[str, list[Document]] = {}
        for doc in docs:
            self.by_kind.setdefault(doc.kind or "", []).append(doc)
        self.names = Names()
        #: (what, id) of definitions that failed to build: references to them stay silent, the
        #: definition's own error is the one root cause to report
        self.broken: set[tuple[str, str]] = set()

    # ------------------------------------------------------------------ helpers
    def error(self, pos: Position | None, code: str, message: str, hint: str = "") -> None:
        self.diags.append(Diagnostic.at(pos, ERROR, code, message, hint))

    def items(self, kind: str, key: str) -> Iterable[tuple[Document, tuple, dict]]:
        """Every entry of list `key` across the documents of one kind, with its JSON path."""
        for doc in self.by_kind.get(kind, []):
            data = doc.data if isinstance(doc.data, dict) else {}
            for i, item in enumerate(data.get(key) or []):
                if isinstance(item, dict):
                    yield doc, (key, i), item

    def unique_items(self, entries: Iterable[tuple[Document, tuple, dict]], what: str,
                     ) -> Iterator[tuple[Document, tuple, dict]]:
        """The entries whose id is new; a repeated id is reported where it stands and skipped."""
        seen: dict[str, Position] = {}
        for doc, path, item in entries:
            if self.unique(seen, item["id"], doc.pos(path + ("id",)), what):
                yield doc, path, item

    def unique(self, seen: dict[str, Position], ident: str, pos: Position, what: str) -> bool:
        if ident in seen:
            first = seen[ident]
            self.error(pos, "PNP-L002", f"duplicate {what} id '{ident}'",
                       f"first defined at {Path(first.file).name}:{first.line}; ids must be unique")
            return False
        seen[ident] = pos
        return True

    def effect(self, doc: Document, path: tuple, text: Any) -> Effect | None:
        if text is None:
            return None
        eff, diags = self.effects.parse(str(text), text_pos(doc, path), self.names)
        self.diags.extend(diags)
        return eff

    def condition(self, doc: Document, path: tuple, text: str) -> m.Condition | None:
        match = _CONDITION_RE.match(text) if isinstance(text, str) else None
        pos = text_pos(doc, path)
        if not match:
            self.error(pos, "PNP-E007", f"bad condition '{text}'", "write STAT OP NUMBER, e.g. 'M > 10'")
            return None
        if len(match["value"].lstrip("-")) > MAX_DIGITS:
            self.error(pos, "PNP-E007", f"condition '{text[:40]}…' compares with a number of "
                       f"more than {MAX_DIGITS} digits", "no game needs it: use a smaller number")
            return None
        stat = self.stat_id(match["stat"], pos)
        if stat is None:
            return None
        return m.Condition(stat, match["op"], int(match["value"]), text)

    def dice(self, doc: Document, path: tuple, text: str) -> m.Dice | None:
        """'2D6' as Dice, or an error when it is not dice or needs more than the limits."""
        match = _DICE_RE.match(str(text))
        pos = text_pos(doc, path)
        if not match:
            self.error(pos, "PNP-E008", f"'{str(text)[:40]}' is not dice", "write e.g. 1D6 or 2D6")
            return None
        count, sides = match[1] or "1", match[2]
        if not dice_in_limits(count, sides):
            self.error(pos, "PNP-E008", f"dice '{str(text)[:40]}' are out of range",
                       f"roll 1 to {MAX_DICE} dice of 1 to {MAX_SIDES} sides")
            return None
        return m.Dice(int(count), int(sides))

    def stat_id(self, name: str, pos: Position | None) -> str | None:
        ident = self.names.stats.get(str(name).lower())
        if ident is None:
            close = _close(str(name), self.names.stats, self.names)
            self.error(pos, "PNP-E002", f"unknown stat '{name}'" + (f"; did you mean {close}?" if close else ""),
                       "use a stat id, name, abbreviation or alias from stats.yaml")
        return ident

    def ref(self, table: dict, ident: Any, pos: Position, what: str) -> str | None:
        """Resolve a reference to a track/chart/table/... id, or report it with did-you-mean."""
        if ident is None:
            return None
        if not isinstance(ident, str):
            self.error(pos, "PNP-L003", f"expected a {what} id, found {type(ident).__name__}",
                       f"write the {what}'s id")
            return None
        if ident in table:
            return ident
        if (what, ident) in self.broken:
            return None
        close = _close(str(ident), {k: k for k in table}, None)
        hint = f"did you mean {close}?" if close else (
            f"known {what}s: {', '.join(sorted(table)) or '(none)'}")
        self.error(pos, "PNP-L003", f"unknown {what} '{ident}'", hint)
        return None

    # ------------------------------------------------------------------ build
    def build(self) -> m.GameDef | None:
        games = self.by_kind.get("game", [])
        if len(games) != 1:
            pos = Position(str(self.folder / "game.yaml"), 1, 1)
            if not games:
                self.error(pos, "PNP-L012", "no game manifest in this folder",
                           "add game.yaml with '# yaml-language-server: $schema=.../game.schema.json'")
            else:
                self.error(games[1].pos(()), "PNP-L012", "more than one game manifest",
                           f"keep one; the first is {games[0].path.name}")
            return None
        gdoc = games[0]
        g = gdoc.data
        stats = self.build_stats()
        counters = self.build_counters(stats)
        formulas = self.build_formulas()
        tracks_raw = list(self.items("tracks", "tracks"))
        charts_raw = list(self.items("charts", "charts"))
        self.names = Names.create(
            stats={c.id: [c.name, c.abbreviation, *c.aliases] for c in counters.values()},
            charts={c["id"]: [c.get("name", "")] for _, _, c in charts_raw},
            tracks={t["id"]: [t.get("name", ""), *(t.get("aliases") or [])] for _, _, t in tracks_raw},
            formulas={f: [] for f in formulas},
        )
        self.check_aliases(counters)
        formulas = self.resolve_formulas(formulas)
        for s in stats.values():
            if s.derived:
                self.ref(formulas, s.derived, s.origin, "formula")
        tracks = self.build_tracks(tracks_raw)
        charts = self.build_charts(charts_raw)
        tables = self.build_tables()
        checks = self.build_checks(gdoc)
        conversions = self.build_conversions(gdoc)
        groups = {k: tuple(v) for k, v in (g.get("track_groups") or {}).items()}
        for name, ids in groups.items():
            for i, tid in enumerate(ids):
                self.ref(tracks, tid, gdoc.pos(("track_groups", name, i)), "track")
        phases = self.build_phases(gdoc, tracks, charts, tables, checks, conversions, formulas)
        rules = self.build_rules(gdoc, tracks, groups)
        decks = self.build_decks(charts)
        supplies = self.build_supplies()
        game = m.GameDef(
            id=g["id"], name=g["name"], folder=self.folder,
            players_min=g["players"]["min"], players_max=g["players"]["max"],
            recommended_players=g["players"].get("recommended"),
            edition=g.get("edition", ""), description=g.get("description", ""),
            engine=g.get("engine"), prototype=bool(g.get("prototype", False)),
            components=self.build_components(gdoc), stats=stats, formulas=formulas,
            tracks=tracks, charts=charts, tables=tables, phases=phases, checks=checks,
            conversions=conversions, track_groups=groups, rules=rules,
            interpretations=self.build_interpretations(gdoc),
            variants=self.build_variants(gdoc),
            decks=decks, boards=self.build_boards(tracks, charts, tables),
            record_sheets=self.build_record_sheets(stats, tracks),
            layout_documents=tuple(self.by_kind.get("layout", [])),
            documents=tuple(self.docs), variant=self.variant, origin=gdoc.pos(()),
            counters=self.check_supply_links(counters, supplies), supplies=supplies,
            dice=self.build_dice(),
            zones=self.build_zones(decks), action_spaces=self.build_action_spaces(),
            map=self.build_map(), selfplay=self.build_selfplay(gdoc),
        )
        folder = self.folder.resolve().name  # resolved: `pnp validate .` has a name too
        if game.id not in (folder, slug(folder)):  # 'My Game!/' holds id: my-game
            self.error(gdoc.pos(("id",)), "PNP-L007",
                       f"game id '{game.id}' does not match its folder '{folder}'",
                       f"rename the folder or set id: {slug(folder)}")
        return game

    def build_stats(self) -> dict[str, m.Stat]:
        stats: dict[str, m.Stat] = {}
        seen: dict[str, Position] = {}
        for doc, path, s in self.items("stats", "stats"):
            pos = doc.pos(path + ("id",))
            if not self.unique(seen, s["id"], pos, "stat"):
                continue
            stats[s["id"]] = m.Stat(
                id=s["id"], name=s["name"], abbreviation=s.get("abbreviation", ""),
                aliases=tuple(s.get("aliases") or ()), min=s.get("min", 0), cap=s.get("cap"),
                start=s.get("start", 0), derived=s.get("derived"), note=s.get("note", ""),
                origin=doc.pos(path), supply=s.get("supply"),
            )
        return stats

    def check_aliases(self, counters: dict[str, m.Counter]) -> None:
        """Two stats or counters must never share a spelling: 'F' cannot mean Food and Faith."""
        owner: dict[str, tuple[str, Position]] = {}
        for s in counters.values():
            for spelling in sorted({s.id, s.name, s.abbreviation, *s.aliases} - {""}):
                key = spelling.lower()
                if key in owner and owner[key][0] != s.id:
                    what = "stat" if counters[owner[key][0]].stat else "counter"
                    self.error(s.origin, "PNP-L006",
                               f"'{spelling}' names both {what} '{owner[key][0]}' and "
                               f"{'stat' if s.stat else 'counter'} '{s.id}'",
                               "remove the alias from one of them")
                owner.setdefault(key, (s.id, s.origin))

    # ------------------------------------------------------------------ components.yaml
    def build_counters(self, stats: dict[str, m.Stat]) -> dict[str, m.Counter]:
        """Every stat as a per-player counter, then the counters of components.yaml."""
        out = {s.id: m.Counter(s.id, s.name, s.min, s.cap, s.start, True, s.abbreviation, s.note,
                               s.origin, s.aliases, stat=True, supply=s.supply)
               for s in stats.values()}
        seen = {s.id: s.origin for s in stats.values()}
        for doc, path, c in self.items("components", "counters"):
            pos = doc.pos(path + ("id",))
            if c["id"] in stats:
                self.error(pos, "PNP-L002", f"counter id '{c['id']}' is already a stat",
                           "every stat is a per-player counter already; rename one of them")
                continue
            if not self.unique(seen, c["id"], pos, "counter"):
                continue
            low, cap, start = c.get("min", 0), c.get("cap"), c.get("start", 0)
            if low is not None and cap is not None and low > cap:
                self.error(doc.pos(path + ("cap",)), "PNP-L017",
                           f"counter '{c['id']}': cap {cap} is below min {low}", "raise cap or lower min")
            elif (low is not None and start < low) or (cap is not None and start > cap):
                self.error(doc.pos(path + ("start",)), "PNP-L017",
                           f"counter '{c['id']}': start {start} is outside min {low} .. cap {cap}",
                           "start within the counter's bounds")
            out[c["id"]] = m.Counter(
                c["id"], c["name"], low, cap, start, bool(c.get("per_player", True)),
                c.get("abbreviation", ""), c.get("note", ""), doc.pos(path),
                tuple(c.get("aliases") or ()), supply=c.get("supply"))
        return out

    def check_supply_links(self, counters: dict[str, m.Counter],
                           supplies: dict[str, m.Supply]) -> dict[str, m.Counter]:
        """A counter's `supply:` must name a supply of components.yaml; an unknown one is
        reported at its line and the link dropped (nothing could be conserved against it)."""
        out = dict(counters)
        for c in counters.values():
            if c.supply is None:
                continue
            key = "stats" if c.stat else "components"
            pos = next((doc.pos(path + ("supply",)) for doc, path, raw
                        in self.items(key, "stats" if c.stat else "counters")
                        if raw.get("id") == c.id), c.origin)
            if self.ref(supplies, c.supply, pos, "supply") is None:
                out[c.id] = replace(c, supply=None)
        return out

    def build_supplies(self) -> dict[str, m.Supply]:
        out: dict[str, m.Supply] = {}
        for doc, path, s in self.unique_items(self.items("components", "supplies"), "supply"):
            tok = s.get("token")
            token = None if tok is None else m.SupplyToken(
                tok.get("shape", "circle"), tok.get("size", "12mm"), tok.get("colour"),
                tok.get("text"), doc.pos(path + ("token",)))
            out[s["id"]] = m.Supply(s["id"], s["name"], s["stock"], bool(s.get("may_run_out", False)),
                                    s.get("note", ""), doc.pos(path), token)
        return out

    def build_dice(self) -> dict[str, m.Die]:
        out: dict[str, m.Die] = {}
        for doc, path, d in self.unique_items(self.items("components", "dice"), "die"):
            sides = len(d["faces"]) if "faces" in d else d["sides"]
            if not dice_in_limits(1, sides):  # the schema says so too; range() would take GBs
                key = "faces" if "faces" in d else "sides"
                self.error(doc.pos(path + (key,)), "PNP-E008", f"die '{d['id']}' has "
                           f"{sides} sides", f"a die has 1 to {MAX_SIDES} sides")
                continue
            faces = tuple(d["faces"]) if "faces" in d else tuple(range(1, sides + 1))
            out[d["id"]] = m.Die(d["id"], d["name"], faces, d.get("note", ""), doc.pos(path))
        return out

    def build_zones(self, decks: dict[str, m.Deck]) -> dict[str, m.ZoneDef]:
        out: dict[str, m.ZoneDef] = {}
        for doc, path, z in self.unique_items(self.items("components", "zones"), "zone"):
            deck = self.ref(decks, z.get("deck"), doc.pos(path + ("deck",)), "deck")
            kind, face = z["kind"], z.get("face", "down" if z["kind"] == "pile" else "up")
            visible = z.get("visible_to") or (
                "owner" if kind == "hand" else "none" if kind == "pile" or face == "down" else "all")
            out[z["id"]] = m.ZoneDef(z["id"], z["name"], kind, z.get("owner", "shared"), face, visible,
                                     deck, z.get("capacity"), z.get("note", ""), doc.pos(path))
        return out

    def build_map(self) -> m.GameMap | None:
        """components.yaml `map:` (pnp/data/maps.py checks its references)."""
        maps = MapBuilder(self.by_kind.get("components", []))
        built = maps.build()
        self.diags.extend(maps.diags)
        return built

    def build_action_spaces(self) -> dict[str, m.ActionSpace]:
        out: dict[str, m.ActionSpace] = {}
        spaces = self.items("components", "action_spaces")
        for doc, path, a in self.unique_items(spaces, "action space"):
            out[a["id"]] = m.ActionSpace(
                a["id"], a["name"], a.get("slots", 1),
                self.effect(doc, path + ("cost",), a.get("cost")),
                self.effect(doc, path + ("effect",), a.get("effect")),
                a.get("text", ""), a.get("round"), a.get("note", ""), doc.pos(path))
        return out

    def build_formulas(self) -> dict[str, tuple[Document, tuple, dict]]:
        out: dict[str, tuple[Document, tuple, dict]] = {}
        for doc, path, f in self.unique_items(self.items("stats", "formulas"), "formula"):
            out[f["id"]] = (doc, path, f)
        return out

    def resolve_formulas(self, raw: dict) -> dict[str, m.Formula]:
        out: dict[str, m.Formula] = {}
        for fid, (doc, path, f) in raw.items():
            pos = text_pos(doc, path + ("expression",))
            match = _FORMULA_RE.match(f["expression"])
            if not match:
                continue  # the schema pattern already reported it
            if match["div"] and (len(match["div"]) > MAX_DIGITS or int(match["div"]) == 0):
                self.error(pos, "PNP-E007", f"formula '{fid}' divides by {match['div'][:12]}",
                           f"divide by a whole number from 1 to {'9' * MAX_DIGITS}")
                continue
            stat = self.stat_id(match["stat"] or match["plain"], pos)
            if stat is None:
                self.broken.add(("formula", fid))
                continue
            out[fid] = m.Formula(fid, f["expression"], match["op"] or "id", stat,
                                 int(match["div"] or 1), f.get("description", ""), doc.pos(path))
        return out

    def build_tracks(self, raw) -> dict[str, m.Track]:
        tracks: dict[str, m.Track] = {}
        for doc, path, t in self.unique_items(raw, "track"):
            tracks[t["id"]] = self.shared_part(doc, path, t, self.build_track)
        return tracks

    def shared_part(self, doc: Document, path: tuple, raw: dict, build: Any) -> Any:
        """`build(doc, path, raw)`, or what an earlier variant's build made of the same data
        (SharedBuilds) with its diagnostics again; None when the part cannot be built."""
        shared = self.effects if isinstance(self.effects, SharedBuilds) else None
        if shared is None:
            return build(doc, path, raw)
        reused = shared.part(doc, path, raw, self.names)
        if reused is not None:
            self.diags.extend(reused[1])
            return reused[0]
        first = len(self.diags)
        part = build(doc, path, raw)
        if part is not None:
            shared.keep(doc, path, raw, self.names, part, self.diags[first:])
        return part

    def build_track(self, doc: Document, path: tuple, t: dict) -> m.Track:
        """One track and its spaces (their effects parsed against the game's names)."""
        spaces = []
        space_ids: dict[str, Position] = {}
        for i, s in enumerate(t["spaces"]):
            spath = path + ("spaces", i)
            sid = s.get("id") or slug(s["name"])
            self.unique(space_ids, sid, doc.pos(spath), f"space (track {t['id']})")
            spaces.append(m.Space(
                id=sid, name=s["name"], index=i, start=bool(s.get("start", False)),
                effect=self.effect(doc, spath + ("effect",), s.get("effect")),
                text=s.get("text", ""), footnote=s.get("footnote", ""), origin=doc.pos(spath)))
        starts = [s for s in spaces if s.start]
        if len(starts) != 1:
            self.error(doc.pos(path + ("spaces",)), "PNP-L013",
                       f"track '{t['id']}' has {len(starts)} start spaces",
                       "mark exactly one space with start: true")
        return m.Track(t["id"], t["name"], tuple(spaces), t.get("shape", "loop"),
                       tuple(t.get("aliases") or ()), t.get("note", ""), doc.pos(path))

    def build_charts(self, raw) -> dict[str, m.Chart]:
        charts: dict[str, m.Chart] = {}
        for doc, path, c in self.unique_items(raw, "chart"):
            chart = self.shared_part(doc, path, c, self.build_chart)
            if chart is None:
                self.broken.add(("chart", c["id"]))
            else:
                charts[c["id"]] = chart
        return charts

    def build_chart(self, doc: Document, path: tuple, c: dict) -> m.Chart | None:
        """One chart and its rows (None when its dice are not dice)."""
        dice = self.dice(doc, path + ("die",), c["die"])
        if dice is None:
            return None
        rows = []
        for i, r in enumerate(c["rows"]):
            rpath = path + ("rows", i)
            bounds = roll_bounds(r["roll"])
            if bounds is None:
                self.error(doc.pos(rpath + ("roll",)), "PNP-L014",
                           f"chart '{c['id']}': roll {r['roll']!r} is not a whole number "
                           "or a [low, high] range of whole numbers", "write roll: 3 or [3, 4]")
                continue
            low, high = bounds
            rows.append(m.ChartRow(low, high, self.effect(doc, rpath + ("effect",), r["effect"]),
                                   r.get("label", ""), r.get("text", ""), r.get("if_short"),
                                   doc.pos(rpath)))
        problems = chart_coverage([(r.low, r.high) for r in rows], dice.count,
                                  dice.count * dice.sides)
        if problems:
            self.error(doc.pos(path + ("rows",)), "PNP-L014",
                       f"chart '{c['id']}' rows do not cover {dice} once each; {problems}",
                       f"give one row for every roll from {dice.count} to "
                       f"{dice.count * dice.sides}")
        return m.Chart(c["id"], c["name"], dice, tuple(rows), c.get("note", ""),
                       bool(c.get("footnote", False)), doc.pos(path))

    def build_tables(self) -> dict[str, m.Table]:
        tables: dict[str, m.Table] = {}
        for doc, path, t in self.unique_items(self.items("tables", "tables"), "table"):
            pay = self.stat_id(t["pay"], text_pos(doc, path + ("pay",))) if t.get("pay") else None
            rows = tuple(
                m.TableRow(r["cost"], self.effect(doc, path + ("rows", i, "buys"), r["buys"]),
                           doc.pos(path + ("rows", i)))
                for i, r in enumerate(t["rows"]))
            tables[t["id"]] = m.Table(t["id"], t["name"], rows, pay, t.get("note", ""), doc.pos(path))
        return tables

    def build_checks(self, gdoc: Document) -> dict[str, m.Check]:
        out: dict[str, m.Check] = {}
        for _, path, c in self.unique_items(listed(gdoc, "checks"), "check"):
            cond = self.condition(gdoc, path + ("when",), c["when"])
            eff = self.effect(gdoc, path + ("effect",), c["effect"])
            if cond and eff:
                out[c["id"]] = m.Check(c["id"], c.get("name", c["id"]), cond, eff, gdoc.pos(path))
            else:
                self.broken.add(("check", c["id"]))
        return out

    def build_conversions(self, gdoc: Document) -> dict[str, m.Conversion]:
        out: dict[str, m.Conversion] = {}
        for _, path, c in self.unique_items(listed(gdoc, "conversions"), "conversion"):
            pay = self.effect(gdoc, path + ("pay",), c["pay"])
            gain = self.effect(gdoc, path + ("gain",), c["gain"])
            if pay and gain:
                out[c["id"]] = m.Conversion(c["id"], c.get("name", c["id"]), pay, gain,
                                            bool(c.get("mandatory", False)),
                                            bool(c.get("repeat", True)), gdoc.pos(path))
            else:
                self.broken.add(("conversion", c["id"]))
        return out

    def build_phases(self, gdoc, tracks, charts, tables, checks, conversions, formulas):
        phases = []
        seen: dict[str, Position] = {}
        for i, p in enumerate(gdoc.data["phases"]):
            path = ("phases", i)
            self.unique(seen, p["id"], gdoc.pos(path + ("id",)), "phase")
            def ref(key, table, what, p=p, path=path):
                return self.ref(table, p.get(key), gdoc.pos(path + (key,)), what)

            phases.append(m.Phase(
                id=p["id"], name=p["name"], index=i,
                track=ref("track", tracks, "track"), chart=ref("chart", charts, "chart"),
                rolls=ref("rolls", formulas, "formula"), turn_order=p.get("turn_order"),
                per_turn_bonuses=ref("per_turn_bonuses", tracks, "track"),
                checks=tuple(c for j, c in enumerate(p.get("checks") or ())
                             if self.ref(checks, c, gdoc.pos(path + ("checks", j)), "check")),
                conversions=tuple(c for j, c in enumerate(p.get("conversions") or ())
                                  if self.ref(conversions, c, gdoc.pos(path + ("conversions", j)),
                                              "conversion")),
                cost=self.effect(gdoc, path + ("cost",), p.get("cost")),
                on_roll=self.effect(gdoc, path + ("on_roll",), p.get("on_roll")),
                optional=bool(p.get("optional", False)), repeat=bool(p.get("repeat", False)),
                build_once=bool(p.get("build_once", False)), option=p.get("option"),
                after_table=self.ref(tables, (p.get("after") or {}).get("table"),
                                     gdoc.pos(path + ("after", "table")), "table"),
                end_checks=bool(p.get("end_checks", False)), note=p.get("note", ""),
                origin=gdoc.pos(path)))
        return tuple(phases)

    def build_rules(self, gdoc: Document, tracks, groups) -> dict[str, Any]:
        """The `rules:` block with its effects, dice and conditions parsed.

        Its shape is the engine's (schemas/rules/ENGINE.schema.json); the keys parsed here are the
        ones whose spelling says what they hold (effects, dice, conditions, stat lists)."""
        g = gdoc.data.get("rules")
        g = g if isinstance(g, dict) else {}
        base = ("rules",)
        rules: dict[str, Any] = {}
        for key, value in g.items():  # timings are words, not effects: kept as written
            rules[key] = value if key.endswith("_timing") else \
                self._parse_params(gdoc, base + (key,), value)
        pregame = g.get("pregame") if isinstance(g.get("pregame"), dict) else {}
        self.ref(tracks, pregame.get("track"), gdoc.pos(base + ("pregame", "track")), "track")
        setup = g.get("setup") if isinstance(g.get("setup"), dict) else {}
        self.ref(tracks, setup.get("pregame"), gdoc.pos(base + ("setup", "pregame")), "track")
        self.ref(groups, setup.get("pawn_on_start_of_each"),
                 gdoc.pos(base + ("setup", "pawn_on_start_of_each")), "track group")
        movement = g.get("movement") if isinstance(g.get("movement"), dict) else {}
        for i, tid in enumerate(movement.get("markers_on") or ()):
            self.ref(tracks, tid, gdoc.pos(base + ("movement", "markers_on", i)), "track")
        return rules

    _EFFECT_KEYS = {"bonus", "reroll_cost", "loss", "winner_steals", "aggressor_win_steals", "both_gain"}
    _DICE_KEYS = {"die", "roll"}
    _CONDITION_KEYS = {"game_ends_when", "eliminated_when"}

    def _parse_params(self, doc: Document, path: tuple, node: Any) -> Any:
        if isinstance(node, dict):
            out = {}
            for k, v in node.items():
                p = path + (k,)
                if k in self._EFFECT_KEYS and isinstance(v, str):
                    out[k] = self.effect(doc, p, v)
                elif k in self._DICE_KEYS and isinstance(v, str):
                    out[k] = self.dice(doc, p, v) or m.Dice(1, 6)
                elif k in self._CONDITION_KEYS:
                    vals = v if isinstance(v, list) else [v]
                    conds = tuple(self.condition(doc, p + ((i,) if isinstance(v, list) else ()), c)
                                  for i, c in enumerate(vals))
                    out[k] = conds if isinstance(v, list) else conds[0]
                elif k == "exchange" and isinstance(v, list):
                    out[k] = tuple(self.stat_id(s, text_pos(doc, p + (i,))) for i, s in enumerate(v))
                else:
                    out[k] = self._parse_params(doc, p, v)
            return out
        if isinstance(node, list):
            return tuple(self._parse_params(doc, path + (i,), v) for i, v in enumerate(node))
        return node

    def build_components(self, gdoc: Document) -> tuple[m.Component, ...]:
        seen: dict[str, Position] = {}
        out = []
        for i, c in enumerate(gdoc.data.get("components") or []):
            pos = gdoc.pos(("components", i))
            if self.unique(seen, c["id"], pos, "component"):
                out.append(m.Component(c["id"], c["name"], c["count"], bool(c.get("per_player")),
                                       c.get("counts"), c.get("note", ""), pos))
        return tuple(out)

    def build_interpretations(self, gdoc: Document) -> dict[str, m.Interpretation]:
        out: dict[str, m.Interpretation] = {}
        seen: dict[str, Position] = {}
        for i, it in enumerate(gdoc.data.get("interpretations") or []):
            pos = gdoc.pos(("interpretations", i))
            if self.unique(seen, it["id"], pos, "interpretation"):
                alts = tuple(m.Alternative(a["reading"], a.get("id")) for a in it["alternatives"])
                out[it["id"]] = m.Interpretation(it["id"], it["rule"], it["reading"], alts,
                                                 it["why"], pos)
        return out

    def build_selfplay(self, gdoc: Document) -> m.SelfPlayDefault | None:
        block = gdoc.data.get("selfplay")
        if not block:
            return None
        bots = tuple(block["bots"])
        return m.SelfPlayDefault(bots, block["why"],
                                 tuple(gdoc.pos(("selfplay", "bots", i)) for i in range(len(bots))),
                                 gdoc.pos(("selfplay",)))

    def build_variants(self, gdoc: Document) -> dict[str, m.Variant]:
        out: dict[str, m.Variant] = {}
        seen: dict[str, Position] = {}
        for i, v in enumerate(gdoc.data.get("variants") or []):
            pos = gdoc.pos(("variants", i))
            if self.unique(seen, v["id"], pos, "variant"):
                out[v["id"]] = m.Variant(v["id"], dict(v["overrides"]), v.get("interpretation"),
                                         v.get("description", ""), pos,
                                         tuple(v.get("conflicts") or ()),
                                         tuple(sorted(v.get("players") or ())))
        return out

    def build_decks(self, charts: dict[str, m.Chart]) -> dict[str, m.Deck]:
        out: dict[str, m.Deck] = {}
        for doc, path, d in self.unique_items(self.items("deck", "decks"), "deck"):
            declared = self.card_fields(doc, path, d)
            defaults = dict(d.get("defaults") or {})
            cards = []
            if d.get("generate") == "charts":
                cards.extend(chart_cards(charts, defaults))
            card_ids: dict[str, Position] = {}
            for i, c in enumerate(d.get("cards") or []):
                cpath = path + ("cards", i)
                cid = c.get("id") or slug(c.get("name", f"card-{i + 1}"))
                self.unique(card_ids, cid, doc.pos(cpath), f"card (deck {d['id']})")
                own = c.get("fields") or {}
                fields = {**defaults, **own}
                origins = FieldOrigins(doc, path, i, own, defaults)
                if declared:
                    where = {k: (cpath + ("fields", k)) if k in own else (path + ("defaults", k))
                             for k in fields}
                    fields = self.typed_fields(doc, d["id"], cid, cpath, declared, fields, where)
                fields.setdefault("name", c.get("name", cid))
                cards.append(m.Card(cid, c.get("name", cid), int(c.get("count", 1)), fields,
                                    doc.pos(cpath), origins))
            out[d["id"]] = m.Deck(d["id"], d["name"], d.get("size", "poker"), d.get("front", ""),
                                  d.get("back"), tuple(cards), bool(d.get("prototype", False)),
                                  doc.pos(path), declared, d.get("printed", True) is not False,
                                  d.get("cut"))
        return out

    def card_fields(self, doc: Document, path: tuple, deck: dict) -> dict[str, m.CardField]:
        """A deck's field declarations; enum and list fields without `values` are reported."""
        out: dict[str, m.CardField] = {}
        for fid, f in (deck.get("fields") or {}).items():
            fpath = path + ("fields", fid)
            kind, values = f["type"], tuple(f.get("values") or ())
            if kind == "enum" and not values:
                self.error(doc.key_pos(fpath), "PNP-D001", f"enum field '{fid}' lists no values",
                           "add values: [a, b, ...]")
            if f.get("min") is not None and f.get("max") is not None and f["min"] > f["max"]:
                self.error(doc.pos(fpath + ("max",)), "PNP-D001",
                           f"field '{fid}': max {f['max']} is below min {f['min']}", "swap them")
            out[fid] = m.CardField(fid, kind, values, bool(f.get("required", False)), f.get("default"),
                                   f.get("min"), f.get("max"), doc.pos(fpath))
        return out

    def typed_fields(self, doc: Document, deck: str, card: str, cpath: tuple,
                     declared: dict[str, m.CardField], fields: dict, where: dict) -> dict:
        """A card's fields parsed to their declared types; each mistake a positioned diagnostic."""
        out = dict(fields)
        for fid, spec in declared.items():
            if fid not in fields:
                if spec.required:
                    self.error(doc.pos(cpath), "PNP-D002",
                               f"card '{card}' of deck '{deck}' lacks required field '{fid}'",
                               f"add {fid}: to the card's fields (or a default to the deck)")
                    continue
                if spec.default is None:
                    continue
                out[fid] = self.field_value(doc, spec, spec.default, spec.origin, None, card)
                continue
            out[fid] = self.field_value(doc, spec, fields[fid], doc.pos(where[fid]), where[fid], card)
        for fid in fields:  # undeclared fields stay free-form; one spelled like a declared one is a typo
            if fid in declared or fid == "name":
                continue
            close = difflib.get_close_matches(fid, list(declared), n=2, cutoff=0.75)
            if close:
                hint = f"did you mean {' or '.join(close)}? deck '{deck}' declares: {', '.join(declared)}"
                self.diags.append(Diagnostic.at(doc.key_pos(where[fid]), WARNING, "PNP-D004",
                                                f"card '{card}': field '{fid}' is not declared", hint))
        return out

    def field_value(self, doc: Document, spec: m.CardField, value: Any, pos: Position,
                    path: tuple | None, card: str) -> Any:
        """One value parsed to its declared type, or None after reporting why it is not one."""
        what = f"card '{card}': {spec.id}"
        kind = spec.type

        def bad(message: str, hint: str) -> None:
            self.error(pos, "PNP-D003", f"{what}: {message}", hint)

        if kind == "integer":
            if isinstance(value, bool) or not isinstance(value, int):
                return bad(f"expected a whole number, got {_shown(value)}", "write a number such as 3")
            if spec.min is not None and value < spec.min:
                return bad(f"{value} is below the minimum {spec.min}", f"use {spec.min} or more")
            if spec.max is not None and value > spec.max:
                return bad(f"{value} is above the maximum {spec.max}", f"use {spec.max} or less")
            return value
        if kind == "boolean":
            if not isinstance(value, bool):
                return bad(f"expected true or false, got {_shown(value)}", "write true or false")
            return value
        if kind == "text":
            if isinstance(value, bool) or not isinstance(value, (str, int, float)):
                return bad(f"expected text, got {_shown(value)}", "write the text, quoted if it holds ': '")
            return str(value)
        if kind == "enum":
            if not isinstance(value, str) or (spec.values and value not in spec.values):
                return bad(f"{_shown(value)} is not one of {', '.join(spec.values)}", _did_you_mean(value, spec.values))
            return value
        if kind == "list":
            items = [value] if isinstance(value, str) else value
            if not isinstance(items, list) or not all(isinstance(v, str) for v in items):
                return bad(f"expected a list of words, got {_shown(value)}", "write [a, b, ...]")
            wrong = [v for v in items if spec.values and v not in spec.values]
            if wrong:
                item_pos = doc.pos(path + (items.index(wrong[0]),)) if path and value is items else pos
                self.error(item_pos, "PNP-D003",
                           f"{what}: {wrong[0]!r} is not one of {', '.join(spec.values)}",
                           _did_you_mean(wrong[0], spec.values))
                return None
            return m.FieldList(items)
        if kind == "effect":
            if path is None:  # a declared default: positioned at the declaration
                eff, diags = self.effects.parse(str(value), pos, self.names)
                self.diags.extend(diags)
                return eff
            return self.effect(doc, path, value)
        if kind == "condition":
            if path is None:
                match = _CONDITION_RE.match(str(value))
                if not match:
                    return bad(f"bad condition {_shown(value)}", "write STAT OP NUMBER, e.g. 'M > 10'")
                stat = self.stat_id(match["stat"], pos)
                return m.Condition(stat, match["op"], int(match["value"]), str(value)) if stat else None
            return self.condition(doc, path, value)
        return value

    def build_boards(self, tracks, charts, tables) -> dict[str, m.Board]:
        out: dict[str, m.Board] = {}
        for doc, path, b in self.unique_items(self.items("board", "boards"), "board"):
            items = []
            for i, item in enumerate(b["items"]):
                (kind, ident), = item.items()
                ipos = doc.pos(path + ("items", i, kind))
                table = {"track": tracks, "chart": charts, "table": tables}[kind]
                if self.ref(table, ident, ipos, kind):
                    items.append(m.BoardItem(kind, ident, ipos))
            out[b["id"]] = m.Board(b["id"], b["name"], tuple(items), b.get("whole_paper"),
                                   doc.pos(path), doc.pos(path + ("whole_paper",)))
        return out

    def build_record_sheets(self, stats, tracks) -> dict[str, m.RecordSheet]:
        out: dict[str, m.RecordSheet] = {}
        sheets = self.items("record-sheet", "record_sheets")
        for doc, path, r in self.unique_items(sheets, "record sheet"):
            fields = []
            for i, f in enumerate(r["fields"]):
                fpos = doc.pos(path + ("fields", i))
                stat = self.ref(stats, f.get("stat"), doc.pos(path + ("fields", i, "stat")), "stat")
                label = f.get("label") or (stats[stat].name if stat else f["id"])
                kind = f.get("kind") or ("number" if stat else "text")
                fields.append(m.RecordField(f["id"], label, kind, stat, f.get("lines", 1),
                                            f.get("note", ""), fpos))
            grid = r.get("turn_grid") or {}
            grid_stats = tuple(s for i, s in enumerate(grid.get("stats") or ())
                               if self.ref(stats, s, doc.pos(path + ("turn_grid", "stats", i)), "stat"))
            lists = tuple(
                m.RecordList(x["id"], x.get("label", x["id"]), x["from_track"], doc.pos(path + ("lists", i)))
                for i, x in enumerate(r.get("lists") or ())
                if self.ref(tracks, x["from_track"], doc.pos(path + ("lists", i, "from_track")), "track"))
            out[r["id"]] = m.RecordSheet(r["id"], r["name"], tuple(fields), grid.get("turns", 0),
                                         grid_stats, lists, doc.pos(path))
        return out


def _shown(value: Any) -> str:
    """A value as a message shows it: 'pink', 3, a list."""
    text = repr(value) if isinstance(value, str) else json.dumps(value, default=str, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _did_you_mean(value: Any, options: tuple[str, ...]) -> str:
    close = difflib.get_close_matches(str(value), list(options), n=2)
    return (f"did you mean {' or '.join(close)}? " if close else "") + f"one of: {', '.join(options)}"


def _close(word: str, table: dict, names: Names | None) -> str:
    keys = difflib.get_close_matches(word.lower(), list(table), n=3, cutoff=0.6)
    shown = []
    for k in keys:
        s = names.shown(k) if names else k
        if s not in shown:
            shown.append(s)
    return " or ".join(shown)
