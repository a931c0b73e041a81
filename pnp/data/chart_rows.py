"""Chart rows: a row's roll as bounds, whether a chart's rows cover its dice once each, and the
reference card each chart prints as (pnp.data.build builds charts with these)."""

from __future__ import annotations

from typing import Any

from pnp.data import model as m
from pnp.data.limits import MAX_ROLL

__all__ = ["chart_cards", "chart_coverage", "roll_bounds"]


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


def roll_bounds(roll: Any) -> tuple[int, int] | None:
    """A chart row's roll as (low, high): 3, 3.0 (YAML) or [3, 4]; None when it is neither or
    lies outside 0..MAX_ROLL."""
    values = roll if isinstance(roll, list) else [roll, roll]
    if len(values) != 2:
        return None
    out = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int | float):
            return None
        if isinstance(v, float) and not v.is_integer():
            return None
        if not 0 <= v <= MAX_ROLL:
            return None
        out.append(int(v))
    return out[0], out[1]


def chart_coverage(ranges: list[tuple[int, int]], lowest: int, highest: int) -> str:
    """What is wrong with rows covering lowest..highest once each ('' when nothing): linear in
    the number of rows, whatever the width of their ranges."""
    def show(spans: list[tuple[int, int]]) -> str:
        text = ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in spans[:8])
        return "[" + text + (", …" if len(spans) > 8 else "") + "]"

    missing, doubled, extra = [], [], []
    reversed_ = [(a, b) for a, b in ranges if a > b]
    spans = sorted((a, b) for a, b in ranges if a <= b)
    for a, b in spans:
        if a < lowest:
            extra.append((a, min(b, lowest - 1)))
        if b > highest:
            extra.append((max(a, highest + 1), b))
    reach = lowest - 1  # every roll up to here is covered
    for a, b in spans:
        if a > reach + 1:
            gap = (max(reach + 1, lowest), min(a - 1, highest))
            if gap[0] <= gap[1]:
                missing.append(gap)
        elif a <= reach:
            overlap = (max(a, lowest), min(b, reach, highest))
            if overlap[0] <= overlap[1]:
                doubled.append(overlap)
        reach = max(reach, b)
    if reach < highest:
        missing.append((max(reach + 1, lowest), highest))
    parts = ([f"missing {show(missing)}"] if missing else []) + (
        [f"twice {show(doubled)}"] if doubled else []) + (
        [f"impossible {show(sorted(extra))}"] if extra else []) + (
        [f"reversed {show(reversed_)}"] if reversed_ else [])
    return "; ".join(parts)
