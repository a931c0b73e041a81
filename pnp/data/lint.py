"""Cross-checks on a built game that no schema can express: counts, unused definitions, variants.

References that do not resolve are reported while building (pnp/data/build.py), where the
position of each reference is at hand; this module looks at the game as a whole.
"""

from __future__ import annotations

import copy
import difflib
from collections.abc import Iterable
from dataclasses import replace
from functools import cache
from pathlib import Path

from pnp.data.effects import Effect, effect_charts, effect_formulas, effect_stats, effect_tracks
from pnp.data.loader import Document, load_file
from pnp.data.model import Condition, GameDef, counts_in_words
from pnp.data.rules_reads import unread_rules_keys
from pnp.data.schema import validate_document, validate_rules
from pnp.diagnostics import ERROR, WARNING, Diagnostic
from pnp.paths import TEMPLATES


def lint_game(game: GameDef, docs: list[Document], errors_only: bool = False
              ) -> list[Diagnostic]:
    """Every warning and error about the game as a whole. `errors_only` skips the checks that
    can only warn (unused definitions, unread rules keys): a variant's build reports errors
    only, so their work would be thrown away."""
    return [*_counts(game), *([] if errors_only else _unused(game)), *_variants(game, docs),
            *_deck_layouts(game), *_players(game, docs), *_stat_bounds(game),
            *_winner(game, docs), *_empty_decks(game), *_engine_file(game, docs),
            *([] if errors_only else unread_rules_keys(game, docs))]


VARIANT_PLAYERS = "PNP-L044"  # a variant's `players:` names a count the game does not take
ENGINE_OUTSIDE = "PNP-L040"  # `engine:` names a rules file outside the game folder
ENGINE_OUTSIDE_HINT = ("a game is one folder: put the rules module in it and name it from "
                       "there (`engine: rules.py`)")


def engine_outside(folder: Path | str, engine: str) -> str | None:
    """Why a rules file named by `engine:` is not a file in the game folder (None when it is):
    an absolute path or a `..` would import code from elsewhere, and break when the folder
    moves; a link out of the folder would too."""
    path = Path(engine)
    if path.is_absolute() or engine.startswith("~"):
        return f"engine: {engine!r} is an absolute path; the rules module must be a file in the " \
               "game folder"
    if ".." in path.parts:
        return f"engine: {engine!r} leads out of the game folder; the rules module must be a " \
               "file in it"
    try:
        inside = (Path(folder) / path).resolve().is_relative_to(Path(folder).resolve())
    except (OSError, RuntimeError):
        return None  # a link loop: importing it reports that it cannot be read
    if not inside:
        return f"engine: {engine!r} links to a file outside the game folder; the rules module " \
               "must be a file in it"
    return None


def _engine_file(game: GameDef, docs: list[Document]) -> list[Diagnostic]:
    """`engine:` naming a .py file: that file lies in the game folder (checked without
    importing it: validate never runs game code)."""
    engine = game.engine
    if not isinstance(engine, str) or not engine.endswith(".py"):
        return []
    problem = engine_outside(game.folder, engine)
    if problem is None:
        return []
    return [Diagnostic.at(_game_pos(docs, ("engine",)), ERROR, ENGINE_OUTSIDE, problem,
                          ENGINE_OUTSIDE_HINT)]


def _game_pos(docs: list[Document], *paths: tuple):
    """Where the first of `paths` that exists in game.yaml is written (rule parameters may sit
    at the top level or under `rules:`)."""
    gdoc = next((d for d in docs if d.kind == "game"), None)
    if gdoc is None:
        return None
    for path in paths:
        if tuple(path) in gdoc.positions:
            return gdoc.pos(path)
    return gdoc.pos(paths[0])


def _players(game: GameDef, docs: list[Document]) -> list[Diagnostic]:
    """A player range the game can be played with: min <= recommended <= max."""
    low, high, rec = game.players_min, game.players_max, game.recommended_players
    if low > high:
        return [Diagnostic.at(_game_pos(docs, ("players", "min")), ERROR, "PNP-L016",
                              f"players: min {low} is above max {high}",
                              "swap them, or raise max to at least min")]
    if isinstance(rec, int) and not low <= rec <= high:
        return [Diagnostic.at(_game_pos(docs, ("players", "recommended")), ERROR, "PNP-L016",
                              f"players: recommended {rec} is outside {low}..{high}",
                              f"pick a count from {low} to {high}")]
    return []


def _stat_bounds(game: GameDef) -> list[Diagnostic]:
    """A stat's start must lie within its floor and cap, and the floor must not pass the cap."""
    out = []
    for s in game.stats.values():
        if s.cap is not None and s.min is not None and s.min > s.cap:
            out.append(Diagnostic.at(s.origin, ERROR, "PNP-L017",
                                     f"stat '{s.id}': min {s.min} is above cap {s.cap}",
                                     "lower min or raise cap"))
        elif s.cap is not None and s.start > s.cap:
            out.append(Diagnostic.at(s.origin, ERROR, "PNP-L017",
                                     f"stat '{s.id}' starts at {s.start}, above its cap {s.cap}",
                                     f"start at most {s.cap}, or raise the cap"))
        elif s.min is not None and s.start < s.min:
            out.append(Diagnostic.at(s.origin, ERROR, "PNP-L017",
                                     f"stat '{s.id}' starts at {s.start}, below its min {s.min}",
                                     f"start at least {s.min}, or lower min"))
    return out


def _winner(game: GameDef, docs: list[Document]) -> list[Diagnostic]:
    """`winner: most STAT` must name a stat the game has."""
    rule = game.rule("end", "winner")
    if not isinstance(rule, str):
        return []
    name = rule.strip().removeprefix("most ").strip()
    spellings = {x.lower() for s in game.stats.values()
                 for x in (s.id, s.name, s.abbreviation, *s.aliases) if x}
    if name.lower() in spellings:
        return []
    known = sorted({s.abbreviation or s.id for s in game.stats.values()})
    shown = {x.lower(): x for s in game.stats.values() for x in (s.abbreviation, s.name) if x}
    close = [shown[c] for c in difflib.get_close_matches(name.lower(), list(shown), n=2)]
    hint = (f"did you mean most {' or most '.join(close)}?" if close
            else f"write 'most STAT' with a stat from stats.yaml: {', '.join(known) or '(none)'}")
    return [Diagnostic.at(_game_pos(docs, ("end", "winner"), ("rules", "end", "winner")), ERROR,
                          "PNP-L018", f"winner '{rule}' names no stat", hint)]


def _empty_decks(game: GameDef) -> list[Diagnostic]:
    """A deck that prints no card would make an empty PDF: an error, not a blank file."""
    out = []
    for deck in game.decks.values():
        if deck.printed and sum(max(0, c.count) for c in deck.cards) == 0:
            why = "every card has count: 0" if deck.cards else "it has no cards"
            out.append(Diagnostic.at(deck.origin, ERROR, "PNP-L019",
                                     f"deck '{deck.id}' prints no cards: {why}",
                                     "give a card a count of 1 or more; for a deck the engine reads but never prints, add printed: false"))
    return out


@cache
def shared_layout_ids(folder: Path = TEMPLATES) -> frozenset[str]:
    """Ids of the layouts every game may use (templates/*.yaml)."""
    ids = set()
    for path in sorted(folder.glob("*.yaml")):
        doc, _ = load_file(path)
        if doc is not None and isinstance(doc.data, dict):
            ids |= {x.get("id") for x in doc.data.get("layouts") or [] if isinstance(x, dict)}
    return frozenset(i for i in ids if isinstance(i, str))


def _deck_layouts(game: GameDef) -> list[Diagnostic]:
    """A deck's front and back must name a layout from templates/ or the game's own layouts."""
    known = set(shared_layout_ids())
    for doc in game.layout_documents:
        if isinstance(doc.data, dict):
            known |= {x.get("id") for x in doc.data.get("layouts") or [] if isinstance(x, dict)}
    out = []
    for deck in game.decks.values():
        for side in ("front", "back"):
            layout = getattr(deck, side)
            if layout and layout not in known:
                close = difflib.get_close_matches(layout, sorted(k for k in known if k), n=3)
                hint = f"did you mean {' or '.join(close)}?" if close else (
                    f"layouts: {', '.join(sorted(k for k in known if k))}")
                out.append(Diagnostic.at(deck.origin, ERROR, "PNP-L003",
                                         f"deck '{deck.id}': unknown {side} layout '{layout}'", hint))
    return out


def all_effects(game: GameDef) -> Iterable[Effect]:
    """Every parsed effect in the game: spaces, chart rows, tables, phases, checks, rules."""
    for track in game.tracks.values():
        yield from (s.effect for s in track.spaces if s.effect)
    for chart in game.charts.values():
        yield from (r.effect for r in chart.rows if r.effect)
    for table in game.tables.values():
        yield from (r.buys for r in table.rows if r.buys)
    for phase in game.phases:
        yield from (e for e in (phase.cost, phase.on_roll) if e)
    for check in game.checks.values():
        yield check.effect
    for conv in game.conversions.values():
        yield from (conv.pay, conv.gain)
    yield from _effects_in(game.rules)
    for space in game.action_spaces.values():
        yield from (e for e in (space.cost, space.effect) if e)
    for deck in game.decks.values():
        for card in deck.cards:
            yield from (v for v in card.fields.values() if isinstance(v, Effect))


def _effects_in(node) -> Iterable[Effect]:
    if isinstance(node, Effect):
        yield node
    elif isinstance(node, dict):
        for v in node.values():
            yield from _effects_in(v)
    elif isinstance(node, (list, tuple)):
        for v in node:
            yield from _effects_in(v)


def _counts(game: GameDef) -> list[Diagnostic]:
    """Declared component counts against what the data actually holds (warnings)."""
    out = []
    for comp in game.components:
        if not comp.counts:
            continue
        kind, _, ident = comp.counts.partition(":")
        if kind == "tracks":
            actual, what = len(game.tracks), "tracks"
        elif kind == "charts":
            actual, what = sum(1 for c in game.charts.values() if not c.footnote), "charts"
        elif kind == "track-group":
            if ident not in game.track_groups:
                out.append(Diagnostic.at(comp.origin, ERROR, "PNP-L003",
                                         f"unknown track group '{ident}'", "see track_groups"))
                continue
            actual, what = len(game.track_groups[ident]), f"tracks in group {ident}"
        else:  # deck
            if ident not in game.decks:
                out.append(Diagnostic.at(comp.origin, ERROR, "PNP-L003", f"unknown deck '{ident}'",
                                         f"decks: {', '.join(game.decks) or '(none)'}"))
                continue
            actual, what = sum(c.count for c in game.decks[ident].cards), f"cards in deck {ident}"
        if actual != comp.count:
            out.append(Diagnostic.at(
                comp.origin, WARNING, "PNP-L004",
                f"component '{comp.id}' declares {comp.count} but the data has {actual} {what}",
                "fix the count, or the data it counts"))
    return out


def _unused(game: GameDef) -> list[Diagnostic]:
    """Definitions nothing refers to: usually a typo elsewhere or a leftover (warnings)."""
    effects = list(all_effects(game))
    used_charts = {c for e in effects for c in effect_charts(e)}
    used_charts |= {p.chart for p in game.phases if p.chart}
    used_tracks = {t for e in effects for t in effect_tracks(e)}
    used_tracks |= {p.track for p in game.phases if p.track} | {p.per_turn_bonuses for p in game.phases}
    used_tracks |= {t for ids in game.track_groups.values() for t in ids}
    used_tracks |= {game.rule("pregame", "track"), game.rule("setup", "pregame")}
    used_tables = {p.after_table for p in game.phases}
    used_formulas = {f for e in effects for f in effect_formulas(e)}
    used_formulas |= {p.rolls for p in game.phases} | {s.derived for s in game.stats.values()}
    used_stats = {s for e in effects for s in effect_stats(e)}
    used_stats |= {c.when.stat for c in game.checks.values()}
    used_stats |= {v.stat for d in game.decks.values() for c in d.cards for v in c.fields.values()
                   if isinstance(v, Condition)}
    used_stats |= {f.stat for f in game.formulas.values()}
    used_stats |= {s.id for s in game.stats.values() if s.derived}
    for rs in game.record_sheets.values():
        used_stats |= {f.stat for f in rs.fields if f.stat}
    for board in game.boards.values():
        for item in board.items:
            {"track": used_tracks, "chart": used_charts, "table": used_tables}[item.kind].add(item.ref)
    out = []
    for what, defined, used in (
        ("chart", game.charts, used_charts),
        ("track", game.tracks, used_tracks),
        ("table", game.tables, used_tables),
        ("formula", game.formulas, used_formulas),
        ("stat", game.stats, used_stats),
    ):
        for ident, item in defined.items():
            if ident not in used:
                out.append(Diagnostic.at(item.origin, WARNING, "PNP-L005",
                                         f"{what} '{ident}' is never used",
                                         "refer to it from a phase, effect or board, or remove it"))
    return out


def _variants(game: GameDef, docs: list[Document]) -> list[Diagnostic]:
    """Interpretations and variants must point at each other and at real data."""
    out = []
    playable = {a.id for i in game.interpretations.values() for a in i.alternatives if a.id}
    for interp in game.interpretations.values():
        for alt in interp.alternatives:
            if alt.id and alt.id not in game.variants:
                out.append(Diagnostic.at(interp.origin, WARNING, "PNP-L008",
                                         f"alternative '{alt.id}' of '{interp.id}' has no variant",
                                         f"add a variant with id: {alt.id}, or drop the alternative's id"))
    for variant in game.variants.values():
        if variant.interpretation and variant.interpretation not in game.interpretations:
            out.append(Diagnostic.at(variant.origin, ERROR, "PNP-L003",
                                     f"unknown interpretation '{variant.interpretation}'",
                                     f"interpretations: {', '.join(game.interpretations)}"))
        elif variant.interpretation and variant.id not in playable:
            out.append(Diagnostic.at(variant.origin, WARNING, "PNP-L008",
                                     f"variant '{variant.id}' is not an alternative of "
                                     f"'{variant.interpretation}'",
                                     "give the alternative it plays the same id"))
        outside = [n for n in variant.players
                   if not game.players_min <= n <= game.players_max]
        if outside:
            out.append(Diagnostic.at(variant.origin, ERROR, VARIANT_PLAYERS,
                                     f"variant '{variant.id}' is for {counts_in_words(outside)} players, "
                                     f"but the game takes {game.players_min} to "
                                     f"{game.players_max}",
                                     f"list counts from {game.players_min} to "
                                     f"{game.players_max} under players:, or leave players: "
                                     "out for every count"))
        for other in variant.conflicts:
            if other not in game.variants:
                close = difflib.get_close_matches(other, list(game.variants), n=3)
                out.append(Diagnostic.at(variant.origin, ERROR, "PNP-L009",
                                         f"variant '{variant.id}' conflicts with unknown "
                                         f"variant '{other}'",
                                         f"did you mean {', '.join(close)}?" if close else
                                         f"variants: {', '.join(game.variants)}"))
    if game.variant is None:
        out.extend(_override_problems(game, docs))
    return out


def _override_problems(game: GameDef, docs: list[Document]) -> list[Diagnostic]:
    """Every override of every variant must name data, and its new value must pass the schema;
    both are reported at the override's line.

    Variants whose overrides touch different data are applied together to one copy of the
    documents they change, so the schemas run about once however many variants there are."""
    from pnp.data.game import OverrideProblem, copy_data, resolve_override

    game_doc = next((d for d in docs if d.kind == "game"), None)
    listed = game_doc.data.get("variants") or [] if game_doc and isinstance(game_doc.data, dict) else []
    out: list[Diagnostic] = []
    groups: list[tuple[dict[int, Document], set, set]] = []  # (copies, paths, their prefixes)
    moved: dict[tuple[str, int], str] = {}  # (file, line) of an override value -> its variant
    for index, spec in enumerate(listed):
        variant = game.variants.get(spec.get("id")) if isinstance(spec, dict) else None
        if variant is None:
            continue
        targets = []
        for path, value in variant.overrides.items():
            where = ("variants", index, "overrides", path)
            found = resolve_override(docs, str(path))
            if isinstance(found, OverrideProblem):
                out.append(Diagnostic.at(game_doc.key_pos(where), ERROR, "PNP-L015",
                                         f"variant '{variant.id}': {found.message}", found.hint))
            else:
                targets.append((path, value, found, game_doc.pos(where)))
        # Two overrides clash when one path lies within the other.
        fulls = {(id(f.doc), f.data_path) for _, _, f, _ in targets}
        prefixes = {(id(f.doc), f.data_path[:n]) for _, _, f, _ in targets
                    for n in range(1, len(f.data_path) + 1)}
        group = next((g for g in groups if not (fulls & g[2] or prefixes & g[1])), None)
        if group is None:
            group = ({}, set(), set())
            groups.append(group)
        group[1].update(fulls)
        group[2].update(prefixes)
        for path, value, found, value_pos in targets:
            doc = found.doc
            if id(doc) not in group[0]:
                group[0][id(doc)] = Document(doc.path, copy_data(doc.data), doc.schema_ref,
                                             doc.positions, doc.key_positions, {},
                                             doc.mounts)
            target = resolve_override([group[0][id(doc)]], str(path))
            if not isinstance(target, OverrideProblem):
                target.set(copy.deepcopy(value))
                target.doc.redirects[target.data_path] = value_pos
                moved[(value_pos.file, value_pos.line)] = variant.id
    for copies, _, _ in groups:
        for doc in copies.values():
            # the other top-level values are the base game's, which passed (lint runs on a
            # game without errors): only those an override reaches are checked again
            changed = {path[0] for path in doc.redirects if path}
            problems = validate_document(doc, changed)
            if doc.kind == "game" and changed & {"rules", "engine"}:
                problems += validate_rules(doc, game.folder)
            out.extend(replace(d, message=f"variant '{moved[d.file, d.line]}': {d.message}")
                       for d in problems if (d.file, d.line) in moved)
    return out
