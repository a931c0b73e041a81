"""The papers pnp prints on: one table for every command, renderer and report.

Home papers go through a home printer: kits are laid out on them and boards tiled over them.
Large papers print a whole board at once (a board's `whole_paper:`). `--paper` accepts every
name here (or WIDTHxHEIGHT, parsed by `pnp.render.geometry.parse_paper`). Pure data with no
reportlab, so every layer may import it.
"""

from __future__ import annotations

from dataclasses import dataclass

_MM = 72.0 / 25.4  # points per millimetre, as in pnp.render.geometry


@dataclass(frozen=True)
class Paper:
    name: str
    size: tuple[float, float]  # (width, height) in points, portrait
    home: bool  # a home printer takes it: the default kit paper
    large: bool  # a board may print whole on it (`whole_paper:`)


#: name -> paper, home papers first; sizes in points, portrait
PAPERS: dict[str, Paper] = {p.name: p for p in (
    Paper("a4", (210 * _MM, 297 * _MM), home=True, large=False),
    Paper("letter", (8.5 * 72, 11 * 72), home=True, large=False),
    Paper("a3", (297 * _MM, 420 * _MM), home=False, large=True),
    Paper("tabloid", (11 * 72, 17 * 72), home=False, large=True),
    Paper("a2", (420 * _MM, 594 * _MM), home=False, large=True),
)}
DEFAULT_PAPER = "a4"
HOME_PAPERS = tuple(name for name, p in PAPERS.items() if p.home)
LARGE_PAPERS = tuple(name for name, p in PAPERS.items() if p.large)
CUSTOM_EXAMPLE = "WIDTHxHEIGHT like 210mmx297mm"
#: the simulate and sweep reports' fixed columns and charts need at least A5 (148×210 mm)
REPORT_MIN_SIZE = (148 * _MM, 210 * _MM)


def known_name(spec: str) -> str | None:
    """The table's name for `spec` (`A4` -> `a4`), or None for a custom WIDTHxHEIGHT."""
    key = spec.strip().lower()
    return key if key in PAPERS else None


def file_part(spec: str) -> str:
    """The paper as it appears in a file name: its name, or `custom` for WIDTHxHEIGHT."""
    key = spec.lower()
    return key if key in PAPERS else "custom"


def too_small(size: tuple[float, float], minimum: tuple[float, float],
              what: str = "a report") -> str | None:
    """Why a page of `size` (points) is smaller than `minimum`, or None when it is not."""
    if size[0] + 0.01 >= minimum[0] and size[1] + 0.01 >= minimum[1]:
        return None
    return (f"{size[0] / _MM:.0f}×{size[1] / _MM:.0f} mm is smaller than the "
            f"{minimum[0] / _MM:.0f}×{minimum[1] / _MM:.0f} mm {what} needs")


def names_text() -> str:
    """Every paper name, home papers first, for help texts and hints."""
    return f"{', '.join(HOME_PAPERS)} (home), {', '.join(LARGE_PAPERS)} (large)"
