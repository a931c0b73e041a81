"""Render and parse a game's rulesheet sources without drawing: what `pnp validate` runs.

The PDF renderer starts from the same `prepare`, so a source that validates is exactly the
source that prints, and a broken one is reported before any PDF is written.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pnp.data.model import GameDef
from pnp.diagnostics import Diagnostic
from pnp.rulesheet.markdown import ParsedSource, parse_sources
from pnp.rulesheet.sources import render_sources, rulesheet_folder, sources_reading_variant
from pnp.templating.icons import IconDef, game_icons


@dataclass
class Prepared:
    """A rulesheet ready to lay out: parsed sources, the icons they may use (as the layout
    files define them: pnp.render.rulesheet paints them), and diagnostics."""

    folder: Path | None
    sources: list[ParsedSource] = field(default_factory=list)
    icons: dict[str, IconDef] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def prepare(game: GameDef, folder: Path | None = None) -> Prepared:
    """Render the sources' jinja2 and parse the Markdown; never raises on bad sources."""
    folder = folder or rulesheet_folder(game)
    result = Prepared(folder)
    if folder is None:
        return result
    rendered, diags = render_sources(game, folder)
    result.diagnostics.extend(diags)
    result.icons, icon_diags = game_icons(game)
    result.diagnostics.extend(d for d in icon_diags if d.is_error)
    result.sources, md_diags = parse_sources(rendered, result.icons)
    result.diagnostics.extend(md_diags)
    return result


def check_rulesheet(game: GameDef, folder: Path | None = None) -> list[Diagnostic]:
    """Every problem in the game's rulesheet sources (none when the game has no rulesheet)."""
    return prepare(game, folder).diagnostics


def variant_check(base: GameDef) -> Callable[[GameDef], list[Diagnostic]]:
    """What validate checks of the rulesheet under each variant of `base`: the sources that
    read `variant` (a template that branches on it, like Antike's readings, once broke under
    every variant and nowhere else), rendered and parsed. Rendering every source under every
    variant added almost half to validate's time in Ancient Civilizations; `build --variant`
    and `render rulesheet --variant` render them all and refuse before writing."""
    folder = rulesheet_folder(base)
    reading = sources_reading_variant(folder) if folder is not None else set()
    if not reading:
        return lambda game: []

    def check(game: GameDef) -> list[Diagnostic]:
        rendered, diags = render_sources(game, folder, reading)
        icons, icon_diags = game_icons(game)
        diags.extend(d for d in icon_diags if d.is_error)
        diags.extend(parse_sources(rendered, icons)[1])
        return diags

    return check
