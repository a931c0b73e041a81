"""Shop profiles: what a print shop accepts, read from YAML and checked against a schema.

A profile is data, not code, so a designer adds a shop by writing a file (`--shop my.yaml`);
the bundled ones (dtc, tgc, mpc, home) live in pnp/render/shops/profiles/. Every problem in a
profile is a Diagnostic at its line and column, and a profile that loads is self-consistent
(a declared pixel size is what its card size, bleed and dpi give).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from pnp.diagnostics import ERROR, Diagnostic

HERE = Path(__file__).resolve().parent
PROFILES = HERE / "profiles"
SCHEMA = HERE / "profile.schema.json"

R_PROFILE = "PNP-R180"  # a shop profile that cannot be used (unknown name, bad file, bad values)

DEFAULT_DPI = 300


@dataclass(frozen=True)
class ShopProfile:
    """One shop's requirements; lengths in points, sizes as (width, height) points."""

    id: str
    name: str
    bleed: float
    safe: float
    cards_format: str  # pdf | png | sheets
    paper: str = "a4"
    url: str = ""
    dpi: int = DEFAULT_DPI
    colour: str = "rgb"
    ink_limit: int | None = None
    pdfx: str = "none"
    order: str = "front-first"
    card_sizes: tuple[tuple[float, float], ...] = ()  # empty: every size is a card
    pixels: dict[tuple[float, float], tuple[int, int]] = field(default_factory=dict)
    tokens: str = "none"  # sheets | none
    token_max: float = 0.0
    boards: str = "none"  # pages | none
    dice: str = "none"  # stock | none
    source: str = ""  # the file it was read from

    def takes_card(self, size: tuple[float, float]) -> bool:
        """Whether the shop prints cards of this size (either way up)."""
        if not self.card_sizes:
            return True
        key = _key(size)
        return any(key in (_key(s), _key(s[::-1])) for s in self.card_sizes)

    def is_token(self, size: tuple[float, float]) -> bool:
        return self.token_max > 0 and max(size) <= self.token_max + 0.01

    def pixel_size(self, size: tuple[float, float]) -> tuple[int, int]:
        """The PNG size of a card side of trim `size`, bleed included, at the profile's dpi."""
        return self.page_pixels((size[0] + 2 * self.bleed, size[1] + 2 * self.bleed))

    def page_pixels(self, page: tuple[float, float]) -> tuple[int, int]:
        """A page of `page` points at the profile's dpi."""
        return (round(page[0] * self.dpi / 72), round(page[1] * self.dpi / 72))


def _key(size: tuple[float, float]) -> tuple[float, float]:
    return (round(size[0], 1), round(size[1], 1))


def _length(value: str | None) -> float:
    from pnp.render.geometry import parse_length

    return 0.0 if value is None or value.strip() == "0" else parse_length(value)


def bundled_names() -> list[str]:
    """The profiles pnp ships (`--shop NAME`)."""
    return sorted(p.stem for p in PROFILES.glob("*.yaml"))


@cache
def _validator() -> Draft202012Validator:
    return Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))


def load_profile(spec: str) -> tuple[ShopProfile | None, list[Diagnostic]]:
    """A bundled profile by name (`dtc`) or a profile file by path; None with diagnostics when
    it is unknown, unreadable, breaks the schema or contradicts itself."""
    from pnp.data.loader import load_file

    path = PROFILES / f"{spec}.yaml" if spec in bundled_names() else Path(spec)
    if not path.is_file():
        return None, [Diagnostic(ERROR, R_PROFILE, f"--shop {spec!r}: no such shop profile",
                                 hint=f"use {', '.join(bundled_names())} or the path of a "
                                      "profile YAML file (docs/print-shops.md)")]
    doc, diags = load_file(path)
    if doc is None or any(d.is_error for d in diags):
        return None, diags
    return _from_document(doc, diags)


def _from_document(doc: Any, diags: list[Diagnostic]) -> tuple[ShopProfile | None,
                                                               list[Diagnostic]]:
    from pnp.data.schema import _to_diagnostic
    from pnp.render.geometry import GeometryError, card_size, parse_length, parse_paper

    errors = sorted(_validator().iter_errors(doc.data),
                    key=lambda e: list(map(str, e.absolute_path)))
    diags = diags + [_to_diagnostic(doc, e) for e in errors]
    if diags and any(d.is_error for d in diags):
        return None, diags
    data, cards = doc.data, doc.data["cards"]
    sizes = tuple(card_size(s) for s in cards.get("sizes", ()))
    tokens, boards = data.get("tokens", {}), data.get("boards", {})
    profile = ShopProfile(
        id=data["id"], name=data["name"], url=data.get("url", ""),
        paper=data.get("paper", "a4"), bleed=parse_length(data["bleed"]),
        safe=_length(data.get("safe")), dpi=data.get("dpi", DEFAULT_DPI),
        colour=data.get("colour", "rgb"), ink_limit=data.get("ink_limit"),
        pdfx=data.get("pdfx", "none"), cards_format=cards["format"],
        order=cards.get("order", "front-first"), card_sizes=sizes,
        tokens=tokens.get("as", "none"), token_max=_length(tokens.get("max_size")),
        boards=boards.get("as", "none"), dice=data.get("dice", "none"), source=str(doc.path))
    try:
        parse_paper(profile.paper)
    except GeometryError as exc:
        diags.append(Diagnostic.at(doc.pos(("paper",)), ERROR, R_PROFILE, str(exc),
                                   "a paper name (a4, letter ...) or WIDTHxHEIGHT with units"))
    if profile.colour == "rgb" and (profile.ink_limit or profile.pdfx != "none"):
        key = "ink_limit" if profile.ink_limit else "pdfx"
        diags.append(Diagnostic.at(doc.key_pos((key,)), ERROR, R_PROFILE,
                                   f"{key} applies to CMYK files, but colour is rgb",
                                   "set colour: cmyk, or remove it"))
    pixels = {}
    for name, (pw, ph) in cards.get("pixels", {}).items():
        pos = doc.pos(("cards", "pixels", name))
        try:
            size = card_size(name)
        except GeometryError as exc:
            diags.append(Diagnostic.at(doc.key_pos(("cards", "pixels", name)), ERROR,
                                       R_PROFILE, str(exc), "use a named card size"))
            continue
        got = profile.pixel_size(size)
        if got != (pw, ph):  # the shop's template and the profile's bleed and dpi disagree
            diags.append(Diagnostic.at(pos, ERROR, R_PROFILE,
                                       f"{name} at {profile.dpi} dpi with "
                                       f"{data['bleed']} bleed is {got[0]}×{got[1]} px, "
                                       f"not {pw}×{ph}",
                                       "check bleed and dpi against the shop's template"))
        pixels[_key(size)] = (pw, ph)
    if any(d.is_error for d in diags):
        return None, diags
    return replace(profile, pixels=pixels), diags
