"""Symbols a player can tell apart: two meanings may not share a shape and colour, or a label.

A game's icons with a `meaning` are its symbol language (pnp.templating.icons.game_symbols).
Colours count as the same when they are closer than a just-readable difference in CIELAB
(ΔE*76 below 20, about what separates two blues on a home print), so "#1f5fa8" and "#1976d2"
clash while red and green never do.
"""

from __future__ import annotations

from collections.abc import Sequence

from pnp.diagnostics import WARNING, Diagnostic
from pnp.templating.icons import IconDef

R_SYMBOL_CLASH = "PNP-R024"  # warning: two meanings drawn alike (shape and colour, or label)
SAME_COLOUR = 20.0  # ΔE*76 below which two fills read as one colour


def lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    """sRGB (0..1) to CIELAB under D65."""
    def lin(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(v) for v in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def colour_distance(a, b) -> float:
    """ΔE*76 between two sRGB colours (0..1); black for a missing fill."""
    la, lb = lab(a or (0, 0, 0)), lab(b or (0, 0, 0))
    return sum((p - q) ** 2 for p, q in zip(la, lb, strict=True)) ** 0.5


def symbol_clashes(symbols: Sequence[IconDef]) -> list[Diagnostic]:
    """A warning for each pair of different meanings drawn alike, at the later icon."""
    out: list[Diagnostic] = []
    for i, b in enumerate(symbols):
        for a in symbols[:i]:
            if a.meaning == b.meaning or a.file is not None or b.file is not None:
                continue
            if a.shape == b.shape and colour_distance(a.fill, b.fill) < SAME_COLOUR:
                out.append(Diagnostic.at(
                    b.origin, WARNING, R_SYMBOL_CLASH,
                    f"icon {b.name!r} ({b.meaning}) is the same {b.shape} in the same colour as "
                    f"{a.name!r} ({a.meaning})",
                    "give one meaning another shape or a clearly different colour"))
            elif a.label and a.label == b.label:
                out.append(Diagnostic.at(
                    b.origin, WARNING, R_SYMBOL_CLASH,
                    f"icon {b.name!r} ({b.meaning}) has the label {b.label!r}, as "
                    f"{a.name!r} ({a.meaning}) does", "give each meaning its own letters"))
    return out
