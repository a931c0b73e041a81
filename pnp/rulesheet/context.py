"""What a rulesheet template sees: the GameDef as `game`, and a few formatting helpers.

The helpers only format data (names, effects, conditions, Markdown table cells); they know no
rules, so the same set serves every game. docs/rulesheet.md lists them with examples.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import jinja2

from pnp.data.effects import Ability, ChartRoll, Delta, Effect, format_amount
from pnp.data.model import Condition, GameDef, Interpretation

#: comparison operators in words, as a rulesheet prints them
OP_WORDS = {"<": "below", ">": "above", "<=": "at most", ">=": "at least", "==": "exactly",
            "!=": "not"}
_TIMING_WORDS = {"per_turn": "per turn", "this_turn": "this turn"}
_MISSING = object()


_MARKDOWN_SPECIALS = "\\`*_[]<>"


def plain(value: Any) -> str:
    """Data text that Markdown prints as written: emphasis and link marks escaped."""
    text = "" if value is None else str(value)
    return "".join("\\" + ch if ch in _MARKDOWN_SPECIALS else ch for ch in text)


def cell(value: Any) -> str:
    """Data text safe inside one Markdown table cell: also pipes escaped, line breaks folded."""
    return " ".join(plain(value).replace("|", "\\|").split())


def singular(name: str) -> str:
    """`Territories` -> `Territory`, `Victory Points` -> `Victory Point` (for an amount of 1)."""
    if name.endswith("ies"):
        return name[:-3] + "y"
    if name.endswith("s") and not name.endswith("ss"):
        return name[:-1]
    return name


def markdown_table(headers: Sequence[Any], rows: Iterable[Sequence[Any]],
                   align: str = "") -> str:
    """A whole Markdown table; `align` holds one letter per column: l, c or r."""
    marks = {"l": ":---", "c": ":---:", "r": "---:"}
    heads = [cell(h) for h in headers]
    delim = [marks.get(align[i] if i < len(align) else "l", "---") for i in range(len(heads))]
    lines = ["| " + " | ".join(heads) + " |", "| " + " | ".join(delim) + " |"]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


class Helpers:
    """Formatting helpers bound to one game (stat names come from its data)."""

    def __init__(self, game: GameDef):
        self.game = game

    def stat(self, key: str) -> Any:
        """A stat by id, abbreviation or alias (`G`, `gold`, `Pop`)."""
        if key in self.game.stats:
            return self.game.stats[key]
        for stat in self.game.stats.values():
            if key == stat.abbreviation or key in stat.aliases or key == stat.name:
                return stat
        return jinja2.StrictUndefined(hint=f"the game data has no stat '{key}'")

    def stat_name(self, key: str) -> str:
        stat = self.stat(key)
        return key if isinstance(stat, jinja2.Undefined) else stat.name

    def words(self, effect: Effect | None) -> str:
        """An effect with full stat and chart names: `P+5 T+5` -> `Population +5, Territories +5`."""
        if effect is None or effect.is_empty:
            return ""
        alts = [", ".join(self._item(item) for item in seq) for seq in effect.choices]
        text = " or ".join(alts)
        if effect.timing:
            text += " " + _TIMING_WORDS.get(effect.timing, effect.timing)
        return text

    def _item(self, item: Any) -> str:
        if isinstance(item, Delta):
            return f"{self.stat_name(item.stat)} {format_amount(item.amount)}"
        if isinstance(item, ChartRoll):
            chart = self.game.charts.get(item.chart)
            return f"roll the {chart.name if chart else item.chart}"
        if isinstance(item, Ability):
            return f"{item.name.replace('_', ' ')}({', '.join(map(str, item.args))})"
        return str(item)

    def quantity(self, effect: Effect | None) -> str:
        """Amounts without signs: `R-2` -> `2 Resources`, `F+1 T+1` -> `1 Food and 1 Territory`."""
        if effect is None or effect.is_empty:
            return ""
        parts = []
        for item in effect.choices[0]:
            if isinstance(item, Delta):
                amount = format_amount(item.amount).lstrip("+-")
                name = self.stat_name(item.stat)
                parts.append(f"{amount} {singular(name) if amount == '1' else name}")
            else:
                parts.append(self._item(item))
        return " and ".join(parts)

    def condition(self, cond: Condition | None) -> str:
        """`M > 10` -> `Military above 10`; `T >= 20` -> `at least 20 Territories`."""
        if cond is None:
            return ""
        name, words = self.stat_name(cond.stat), OP_WORDS.get(cond.op, cond.op)
        if cond.op in ("<=", ">="):
            return f"{words} {cond.value} {singular(name) if cond.value == 1 else name}"
        return f"{name} {words} {cond.value}"

    def rule(self, *path: str) -> Any:
        """game.rule(...) that is strict: a missing parameter is an error naming its path."""
        value = self.game.rule(*path, default=_MISSING)
        if value is _MISSING:
            where = "/".join(path)
            return jinja2.StrictUndefined(hint=f"the game data has no rule parameter '{where}'")
        return value

    def card_name(self, card_id: Any) -> str:
        """The printed name of a card by its id (a rulesheet never prints ids)."""
        for deck in self.game.decks.values():
            for card in deck.cards:
                if card.id == card_id:
                    return card.name
        raise jinja2.UndefinedError(f"no card with id {card_id!r} in any deck")

    def variants(self) -> list[dict[str, Any]]:
        """Each variant as players read it: `id`, `name` (the id in words), `text` (its
        description, or the reading it plays) and `players` ('3 players' for a variant
        written for some counts only, else '')."""
        out = []
        for v in self.game.variants.values():
            text = v.description
            if not text and v.interpretation in self.game.interpretations:
                interp = self.game.interpretations[v.interpretation]
                text = next((a.reading for a in interp.alternatives if a.id == v.id), "")
            out.append({"id": v.id, "name": v.id.replace("-", " ").capitalize(), "text": text,
                        "players": v.players_words})
        return out

    def readings(self) -> list[dict[str, Any]]:
        """Each interpretation with the reading this build plays (a variant's, when one is on)."""
        out = []
        for interp in self.game.interpretations.values():
            out.append(self._reading(interp))
        return out

    def _reading(self, interp: Interpretation) -> dict[str, Any]:
        variant = self.game.variants.get(self.game.variant or "")
        reading, chosen = interp.reading, None
        if variant is not None and variant.interpretation == interp.id:
            alt = next((a for a in interp.alternatives if a.id == variant.id), None)
            if alt is not None:
                reading, chosen = alt.reading, variant.id
        others = [a for a in interp.alternatives if a.reading != reading]
        return {"id": interp.id, "rule": interp.rule, "reading": reading, "variant": chosen,
                "why": interp.why, "alternatives": others}


def template_context(game: GameDef) -> dict[str, Any]:
    """The names a rulesheet template may use (documented in docs/rulesheet.md)."""
    h = Helpers(game)
    return {"game": game, "variant": game.variant, "rule": h.rule, "readings": h.readings,
            "table": markdown_table, "stat_name": h.stat_name,
            "stat": h.stat, "symbols": symbol_glossary(game), "card_name": h.card_name,
            "variants": h.variants}


def symbol_glossary(game: GameDef) -> list[dict[str, str]]:
    """The game's symbols for a glossary: `name`, `mark` (the inline `{name}`) and `meaning`,
    the same list the kit's symbol key prints."""
    from pnp.templating.icons import game_symbols

    return [{"name": s.name, "mark": "{" + s.name + "}", "meaning": s.meaning}
            for s in game_symbols(game)[0]]


def template_filters(game: GameDef) -> Mapping[str, Any]:
    h = Helpers(game)
    return {"cell": cell, "plain": plain, "words": h.words, "quantity": h.quantity, "condition": h.condition, "stat_name": h.stat_name}
