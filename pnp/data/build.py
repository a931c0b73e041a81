"""Documents -> GameDef: turns schema-valid YAML into the typed model, parsing every effect.

Problems found while building (unknown stats in effects, duplicate ids, references that do not
resolve) are collected as Diagnostics; the caller decides whether a model with errors is used.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

from pnp.data import model as m
from pnp.data.effects import Effect, Names, parse_effect
from pnp.data.loader import Document
from pnp.diagnostics import ERROR, Diagnostic, Position

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
def _lines(path: Path) -> tuple[str, ...]:
    try:
        return tuple(path.read_text(encoding="utf-8-sig").splitlines())
    except (OSError, UnicodeDecodeError):
        return ()


def text_pos(doc: Document, path: tuple) -> Position:
    """Where a string value's first character is: after its opening quote if it is quoted."""
    pos = doc.pos(path)
    lines = _lines(doc.path)
    if 0 < pos.line <= len(lines):
        line = lines[pos.line - 1]
        if 0 < pos.column <= len(line) and line[pos.column - 1] in "\"'":
            return pos.shifted(1)
    return pos


class Builder:
    """Builds one GameDef from a game folder's documents, collecting diagnostics."""

    def __init__(self, folder: Path, docs: list[Document], variant: str | None = None):
        self.folder = folder
        self.docs = docs
        self.variant = variant
        self.diags: list[Diagnostic] = []
        self.by_kind: dict[str, list[Document]] = {}
        for doc in docs:
            self.by_kind.setdefault(doc.kind or "", []).append(doc)
        self.names = Names()

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
        eff, diags = parse_effect(str(text), text_pos(doc, path), self.names)
        self.diags.extend(diags)
        return eff

    def condition(self, doc: Document, path: tuple, text: str) -> m.Condition | None:
        match = _CONDITION_RE.match(text or "")
        pos = text_pos(doc, path)
        if not match:
            self.error(pos, "PNP-E007", f"bad condition '{text}'", "write STAT OP NUMBER, e.g. 'M > 10'")
            return None
        stat = self.stat_id(match["stat"], pos)
        if stat is None:
            return None
        return m.Condition(stat, match["op"], int(match["value"]), text)

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
        if ident in table:
            return ident
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
        formulas = self.build_formulas()
        tracks_raw = list(self.items("tracks", "tracks"))
        charts_raw = list(self.items("charts", "charts"))
        self.names = Names.create(
            stats={s.id: [s.name, s.abbreviation, *s.aliases] for s in stats.values()},
            charts={c["id"]: [c.get("name", "")] for _, _, c in charts_raw},
            tracks={t["id"]: [t.get("name", ""), *(t.get("aliases") or [])] for _, _, t in tracks_raw},
            formulas={f: [] for f in formulas},
        )
        self.check_aliases(stats)
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
            decks=self.build_decks(charts), boards=self.build_boards(tracks, charts, tables),
            record_sheets=self.build_record_sheets(stats, tracks),
            layout_documents=tuple(self.by_kind.get("layout", [])),
            documents=tuple(self.docs), variant=self.variant, origin=gdoc.pos(()),
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
                origin=doc.pos(path),
            )
        return stats

    def check_aliases(self, stats: dict[str, m.Stat]) -> None:
        """Two stats must never share a spelling: 'F' cannot mean Food and Faith."""
        owner: dict[str, tuple[str, Position]] = {}
        for s in stats.values():
            for spelling in {s.id, s.name, s.abbreviation, *s.aliases} - {""}:
                key = spelling.lower()
                if key in owner and owner[key][0] != s.id:
                    self.error(s.origin, "PNP-L006",
                               f"'{spelling}' names both stat '{owner[key][0]}' and stat '{s.id}'",
                               "remove the alias from one of them")
                owner.setdefault(key, (s.id, s.origin))

    def build_formulas(self) -> dict[str, tuple[Document, tuple, dict]]:
        out: dict[str, tuple[Document, tuple, dict]] = {}
        seen: dict[str, Position] = {}
        for doc, path, f in self.items("stats", "formulas"):
            if self.unique(seen, f["id"], doc.pos(path + ("id",)), "formula"):
                out[f["id"]] = (doc, path, f)
        return out

    def resolve_formulas(self, raw: dict) -> dict[str, m.Formula]:
        out: dict[str, m.Formula] = {}
        for fid, (doc, path, f) in raw.items():
            pos = text_pos(doc, path + ("expression",))
            match = _FORMULA_RE.match(f["expression"])
            if not match:
                continue  # the schema pattern already reported it
            stat = self.stat_id(match["stat"] or match["plain"], pos)
            if stat is None:
                continue
            out[fid] = m.Formula(fid, f["expression"], match["op"] or "id", stat,
                                 int(match["div"] or 1), f.get("description", ""), doc.pos(path))
        return out

    def build_tracks(self, raw) -> dict[str, m.Track]:
        tracks: dict[str, m.Track] = {}
        seen: dict[str, Position] = {}
        for doc, path, t in raw:
            if not self.unique(seen, t["id"], doc.pos(path + ("id",)), "track"):
                continue
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
            tracks[t["id"]] = m.Track(t["id"], t["name"], tuple(spaces), t.get("shape", "loop"),
                                      tuple(t.get("aliases") or ()), t.get("note", ""), doc.pos(path))
        return tracks

    def build_charts(self, raw) -> dict[str, m.Chart]:
        charts: dict[str, m.Chart] = {}
        seen: dict[str, Position] = {}
        for doc, path, c in raw:
            if not self.unique(seen, c["id"], doc.pos(path + ("id",)), "chart"):
                continue
            dice = _dice(c["die"])
            rows = []
            covered: list[int] = []
            for i, r in enumerate(c["rows"]):
                rpath = path + ("rows", i)
                low, high = (r["roll"], r["roll"]) if isinstance(r["roll"], int) else tuple(r["roll"])
                covered.extend(range(low, high + 1))
                rows.append(m.ChartRow(low, high, self.effect(doc, rpath + ("effect",), r["effect"]),
                                       r.get("label", ""), r.get("text", ""), r.get("if_short"),
                                       doc.pos(rpath)))
            want = list(range(dice.count, dice.count * dice.sides + 1))
            if sorted(covered) != want:
                missing = sorted(set(want) - set(covered))
                doubled = sorted({x for x in covered if covered.count(x) > 1})
                extra = sorted(set(covered) - set(want))
                self.error(doc.pos(path + ("rows",)), "PNP-L014",
                           f"chart '{c['id']}' rows do not cover {dice} once each"
                           + (f"; missing {missing}" if missing else "")
                           + (f"; twice {doubled}" if doubled else "")
                           + (f"; impossible {extra}" if extra else ""),
                           f"give one row for every roll from {want[0]} to {want[-1]}")
            charts[c["id"]] = m.Chart(c["id"], c["name"], dice, tuple(rows), c.get("note", ""),
                                      bool(c.get("footnote", False)), doc.pos(path))
        return charts

    def build_tables(self) -> dict[str, m.Table]:
        tables: dict[str, m.Table] = {}
        seen: dict[str, Position] = {}
        for doc, path, t in self.items("tables", "tables"):
            if not self.unique(seen, t["id"], doc.pos(path + ("id",)), "table"):
                continue
            pay = self.stat_id(t["pay"], text_pos(doc, path + ("pay",))) if t.get("pay") else None
            rows = tuple(
                m.TableRow(r["cost"], self.effect(doc, path + ("rows", i, "buys"), r["buys"]),
                           doc.pos(path + ("rows", i)))
                for i, r in enumerate(t["rows"]))
            tables[t["id"]] = m.Table(t["id"], t["name"], rows, pay, t.get("note", ""), doc.pos(path))
        return tables

    def build_checks(self, gdoc: Document) -> dict[str, m.Check]:
        out: dict[str, m.Check] = {}
        seen: dict[str, Position] = {}
        for i, c in enumerate(gdoc.data.get("checks") or []):
            path = ("checks", i)
            if not self.unique(seen, c["id"], gdoc.pos(path + ("id",)), "check"):
                continue
            cond = self.condition(gdoc, path + ("when",), c["when"])
            eff = self.effect(gdoc, path + ("effect",), c["effect"])
            if cond and eff:
                out[c["id"]] = m.Check(c["id"], c.get("name", c["id"]), cond, eff, gdoc.pos(path))
        return out

    def build_conversions(self, gdoc: Document) -> dict[str, m.Conversion]:
        out: dict[str, m.Conversion] = {}
        seen: dict[str, Position] = {}
        for i, c in enumerate(gdoc.data.get("conversions") or []):
            path = ("conversions", i)
            if not self.unique(seen, c["id"], gdoc.pos(path + ("id",)), "conversion"):
                continue
            pay = self.effect(gdoc, path + ("pay",), c["pay"])
            gain = self.effect(gdoc, path + ("gain",), c["gain"])
            if pay and gain:
                out[c["id"]] = m.Conversion(c["id"], c.get("name", c["id"]), pay, gain,
                                            bool(c.get("mandatory", False)),
                                            bool(c.get("repeat", True)), gdoc.pos(path))
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
        """Rule parameters with their effects, dice and conditions parsed."""
        g = gdoc.data
        rules: dict[str, Any] = {}
        for key in ("setup", "movement", "pregame", "options", "end"):
            if key in g:
                rules[key] = self._parse_params(gdoc, (key,), g[key])
        rules["check_timing"] = g.get("check_timing", "phase-end")
        for key, table, what in (("pregame", tracks, "track"),):
            track = (g.get(key) or {}).get("track")
            self.ref(table, track, gdoc.pos((key, "track")), what)
        setup = g.get("setup") or {}
        self.ref(tracks, setup.get("pregame"), gdoc.pos(("setup", "pregame")), "track")
        self.ref(groups, setup.get("pawn_on_start_of_each"),
                 gdoc.pos(("setup", "pawn_on_start_of_each")), "track group")
        for i, tid in enumerate((g.get("movement") or {}).get("markers_on") or ()):
            self.ref(tracks, tid, gdoc.pos(("movement", "markers_on", i)), "track")
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
                    out[k] = _dice(v)
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

    def build_variants(self, gdoc: Document) -> dict[str, m.Variant]:
        out: dict[str, m.Variant] = {}
        seen: dict[str, Position] = {}
        for i, v in enumerate(gdoc.data.get("variants") or []):
            pos = gdoc.pos(("variants", i))
            if self.unique(seen, v["id"], pos, "variant"):
                out[v["id"]] = m.Variant(v["id"], dict(v["overrides"]), v.get("interpretation"),
                                         v.get("description", ""), pos)
        return out

    def build_decks(self, charts: dict[str, m.Chart]) -> dict[str, m.Deck]:
        out: dict[str, m.Deck] = {}
        seen: dict[str, Position] = {}
        for doc, path, d in self.items("deck", "decks"):
            if not self.unique(seen, d["id"], doc.pos(path + ("id",)), "deck"):
                continue
            defaults = dict(d.get("defaults") or {})
            cards = []
            if d.get("generate") == "charts":
                cards.extend(chart_cards(charts, defaults))
            card_ids: dict[str, Position] = {}
            for i, c in enumerate(d.get("cards") or []):
                cpath = path + ("cards", i)
                cid = c.get("id") or slug(c.get("name", f"card-{i + 1}"))
                self.unique(card_ids, cid, doc.pos(cpath), f"card (deck {d['id']})")
                fields = {**defaults, **(c.get("fields") or {})}
                fields.setdefault("name", c.get("name", cid))
                origins = {k: doc.pos(cpath + ("fields", k)) for k in (c.get("fields") or {})}
                cards.append(m.Card(cid, c.get("name", cid), int(c.get("count", 1)), fields,
                                    doc.pos(cpath), origins))
            out[d["id"]] = m.Deck(d["id"], d["name"], d.get("size", "poker"), d.get("front", ""),
                                  d.get("back"), tuple(cards), bool(d.get("prototype", False)),
                                  doc.pos(path))
        return out

    def build_boards(self, tracks, charts, tables) -> dict[str, m.Board]:
        out: dict[str, m.Board] = {}
        seen: dict[str, Position] = {}
        for doc, path, b in self.items("board", "boards"):
            if not self.unique(seen, b["id"], doc.pos(path + ("id",)), "board"):
                continue
            items = []
            for i, item in enumerate(b["items"]):
                (kind, ident), = item.items()
                ipos = doc.pos(path + ("items", i, kind))
                table = {"track": tracks, "chart": charts, "table": tables}[kind]
                if self.ref(table, ident, ipos, kind):
                    items.append(m.BoardItem(kind, ident, ipos))
            out[b["id"]] = m.Board(b["id"], b["name"], tuple(items), b.get("whole_paper"), doc.pos(path))
        return out

    def build_record_sheets(self, stats, tracks) -> dict[str, m.RecordSheet]:
        out: dict[str, m.RecordSheet] = {}
        seen: dict[str, Position] = {}
        for doc, path, r in self.items("record-sheet", "record_sheets"):
            if not self.unique(seen, r["id"], doc.pos(path + ("id",)), "record sheet"):
                continue
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


def chart_cards(charts: dict[str, m.Chart], defaults: dict) -> list[m.Card]:
    """One reference card per chart, its fields read from the chart: charts are written once.

    Results keep the rules' own wording (as on the board), not the canonical effect text."""
    cards = []
    for chart in charts.values():
        if chart.footnote:
            continue
        rows = [{"roll": r.roll_label, "label": r.label,
                 "result": r.text or (r.effect.source if r.effect else "")}
                for r in chart.rows]
        fields = {**defaults, "name": chart.name, "title": chart.name, "die": str(chart.die),
                  "rows": rows, "note": chart.note}
        cards.append(m.Card(chart.id, chart.name, 1, fields, chart.origin, {}))
    return cards


def _dice(text: str) -> m.Dice:
    match = _DICE_RE.match(text)
    if not match:
        return m.Dice(1, 6)
    return m.Dice(int(match[1] or 1), int(match[2]))


def _close(word: str, table: dict, names: Names | None) -> str:
    import difflib

    keys = difflib.get_close_matches(word.lower(), list(table), n=3, cutoff=0.6)
    shown = []
    for k in keys:
        s = names.shown(k) if names else k
        if s not in shown:
            shown.append(s)
    return " or ".join(shown)
