"""Write a game's files the way one shop profile asks: `pnp build GAME --shop NAME`.

Each printed deck is sorted by size: a card size the shop prints goes out as its cards (one
PDF a deck in the profile's page order, one PNG a card at the profile's pixels, or imposed
sheets), a deck no larger than the profile's token size as token sheets with cut marks, and
anything larger as one face a page beside the game's boards. `shop.json` lists every file
with what it holds, so the shop's upload form can be filled in from it; the shop preflight
(check.py) then reads the files back, and a build with a preflight error is not swapped in.
Everything is written inside the folder given (the build's staging folder, shop-<id>/).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pnp.diagnostics import WARNING, Diagnostic, has_errors
from pnp.render.geometry import parse_paper, printed_deck_sizes
from pnp.render.pdfwrite import pdf_bytes, write_outputs
from pnp.render.sheets import draw_print_shop
from pnp.render.shops.profile import R_PROFILE, ShopProfile

MANIFEST = "shop.json"


def folder_name(profile: ShopProfile) -> str:
    """The shop's folder inside a kit: `shop-<id>`."""
    return f"shop-{profile.id}"


def sort_decks(game: Any, profile: ShopProfile) -> dict[str, list[Any]]:
    """Printed decks by how the shop takes them: 'cards', 'tokens', 'large' or 'skipped'."""
    out: dict[str, list[Any]] = {"cards": [], "tokens": [], "large": [], "skipped": []}
    for deck, size in printed_deck_sizes(game):
        if profile.is_token(size):
            out["tokens" if profile.tokens == "sheets" else "skipped"].append(deck)
        elif profile.takes_card(size) or profile.cards_format == "sheets":
            out["cards"].append(deck)
        elif profile.boards == "pages":
            out["large"].append(deck)
        else:
            out["skipped"].append(deck)
    return out


def render_shop(game: Any, out_dir: str | Path, profile: ShopProfile
                ) -> tuple[list[Path], list[Diagnostic]]:
    """Every file `profile` asks for, in `out_dir` (made here); the paths and diagnostics.
    Nothing is written when an error is found."""
    from pnp.render.sheets import Build, prepare_cards

    out = Path(out_dir)
    decks = sort_decks(game, profile)
    ids = [d.id for group in ("cards", "tokens", "large") for d in decks[group]]
    copies, diags = prepare_cards(game, ids) if ids else ([], [])
    if has_errors(diags):
        return [], diags
    by_deck: dict[str, list[Any]] = {}
    for cp in copies:
        by_deck.setdefault(cp.front.deck.id, []).append(cp)
    build = Build()
    outputs: list[tuple[Path, bytes]] = []
    entries: list[dict[str, Any]] = []
    written: list[Path] = []
    for deck in decks["cards"]:
        written += _deliver_cards(game, deck, by_deck.get(deck.id, []), out, profile, build,
                                  outputs, entries, diags)
    for deck in decks["large"]:
        _deliver_pages(deck, by_deck.get(deck.id, []), out, profile, build, outputs, entries,
                       "large", diags)
    for deck in decks["tokens"]:
        _deliver_token_sheets(game, deck, by_deck.get(deck.id, []), out, profile, build,
                              outputs, entries, diags)
    for deck in decks["skipped"]:
        diags.append(Diagnostic.at(deck.origin, WARNING, R_PROFILE,
                                   f"deck '{deck.id}' is not delivered to {profile.name}: its "
                                   "size is not one the profile takes",
                                   "print it from the home kit, or add its size to the "
                                   "profile's cards.sizes"))
    written += _deliver_extras(game, out, profile, entries, diags)
    diags.extend(build.diags)
    if has_errors(diags):
        return [], diags
    outputs.append((out / MANIFEST, manifest(game, profile, entries, decks)))
    written += write_outputs(outputs, diags)
    if profile.colour == "cmyk" and not has_errors(diags):
        from pnp.render.shops.pdfx import convert_files

        convert_files(written, profile, diags)
    if not has_errors(diags):  # what was written, read back as the shop will read it
        from pnp.render.shops.check import check_shop

        diags.extend(check_shop(out, profile))
    return written, diags


def _deliver_cards(game, deck, copies, out: Path, profile: ShopProfile, build, outputs,
                   entries, diags) -> list[Path]:
    """A deck of a size the shop prints, in the profile's card format."""
    if profile.cards_format == "sheets":
        from pnp.render.kinds import deck_stem
        from pnp.render.sheets import render_deck_sheets

        paths, d = render_deck_sheets(game, [deck.id], profile.paper, out, duplex="long",
                                      stem=deck_stem(deck))
        diags.extend(d)
        for p in paths:
            entries.append({"file": p.relative_to(out).as_posix(), "kind": "card-sheets",
                            "deck": deck.id, "paper": profile.paper, "duplex": "long"})
        return paths
    if profile.cards_format == "pdf":
        _deliver_pages(deck, copies, out, profile, build, outputs, entries, "cards", diags)
        return []
    _deliver_pngs(deck, copies, out, profile, build, outputs, entries, "cards", diags)
    return []


def _deliver_pages(deck, copies, out: Path, profile: ShopProfile, build, outputs, entries,
                   kind: str, diags) -> None:
    if profile.cards_format == "png":
        _deliver_pngs(deck, copies, out, profile, build, outputs, entries, kind, diags)
        return
    if not copies:
        return
    back_first = profile.order == "back-first"
    pdf, sides = pdf_bytes(lambda c: draw_print_shop(c, copies, build.drawer(c, copies),
                                                     profile.bleed, back_first),
                           copies[0].size, f"{deck.name} for {profile.name}")
    path = out / f"{deck.id}.pdf"
    outputs.append((path, pdf))
    entries.append({"file": path.name, "kind": kind, "deck": deck.id, "pages": len(sides),
                    "cards": len(copies), "sides": sides, "trim_pt": _pt(copies[0].size)})


def _deliver_pngs(deck, copies, out: Path, profile: ShopProfile, build, outputs, entries,
                  kind: str, diags) -> None:
    from pnp.render.exports import card_pngs
    from pnp.render.sheets import _unique

    unique = _unique(copies)
    if not unique:
        return
    pngs = card_pngs(unique, out, build, diags, bleed=profile.bleed, dpi=profile.dpi)
    outputs.extend(pngs)
    counts = {cp.front.card.id: sum(1 for c in copies if c.front.card.id == cp.front.card.id)
              for cp in unique}
    size = unique[0].size
    px = profile.pixels.get((round(size[0], 1), round(size[1], 1)), profile.pixel_size(size))
    entries.append({"folder": deck.id, "kind": kind, "deck": deck.id,
                    "files": [p.relative_to(out).as_posix() for p, _ in pngs],
                    "counts": counts, "pixels": list(px), "trim_pt": _pt(size)})


def _deliver_token_sheets(game, deck, copies, out: Path, profile: ShopProfile, build,
                          outputs, entries, diags) -> None:
    """Tokens as sheets of the profile's paper, butted with cut marks, backs on the next
    page for a long-edge flip (the card sheet renderer), not one token a page."""
    from pnp.render.sheets import draw_home_sheets

    if not copies:
        return
    paper = parse_paper(profile.paper)
    title = f"{game.name} · {deck.name} · {profile.name}"
    pdf, pages = pdf_bytes(lambda c: draw_home_sheets(c, copies, paper,
                                                      build.drawer(c, copies), "long",
                                                      title=title),
                           paper, title)
    entry = {"kind": "token-sheets", "deck": deck.id, "pages": pages, "tokens": len(copies),
             "paper": profile.paper, "trim_pt": _pt(copies[0].size)}
    if profile.cards_format == "png":
        from pnp.render.exports import rasterise

        names = [out / f"tokens-{deck.id}-{i + 1}.png" for i in range(pages)]
        outputs.extend(zip(names, rasterise(pdf, [profile.page_pixels(paper)] * pages,
                                                          profile.dpi), strict=True))
        entry["files"] = [n.name for n in names]
    else:
        path = out / f"tokens-{deck.id}.pdf"
        outputs.append((path, pdf))
        entry["file"] = path.name
    entries.append(entry)


def _deliver_extras(game, out: Path, profile: ShopProfile, entries, diags) -> list[Path]:
    """Pawn sheets with the tokens, boards whole with the large pieces (their own renderers
    write them); a PNG shop gets each of their pages as a PNG instead."""
    made: list[tuple[Path, str]] = []
    if profile.tokens == "sheets":
        from pnp.render.build import render_pawns

        paths, d = render_pawns(game, out, profile.paper)
        diags.extend(d)
        made += [(p, "pawn-sheets") for p in paths]
    if profile.boards == "pages" and game.boards:
        from pnp.render.boards import render_board

        paths, d = render_board(game, out, profile.paper, tiled=False, whole=True)
        diags.extend(d)
        made += [(p, "board") for p in paths]
    written: list[Path] = []
    for path, kind in made:
        if profile.cards_format != "png":
            written.append(path)
            entries.append({"file": path.name, "kind": kind})
            continue
        pngs = _pdf_to_pngs(path, profile, diags)
        path.unlink()
        written += pngs
        entries.append({"files": [p.name for p in pngs], "kind": kind})
    return written


def _pdf_to_pngs(path: Path, profile: ShopProfile, diags) -> list[Path]:
    """`<stem>-<n>.png`, each page of a PDF at the profile's dpi."""
    import pypdfium2 as pdfium

    from pnp.render.exports import rasterise

    data = path.read_bytes()
    doc = pdfium.PdfDocument(data)
    try:
        sizes = [profile.page_pixels(doc[i].get_size()) for i in range(len(doc))]
    finally:
        doc.close()
    names = [path.with_name(f"{path.stem}-{i + 1}.png") for i in range(len(sizes))]
    return write_outputs(list(zip(names, rasterise(data, sizes, profile.dpi), strict=True)),
                         diags)


def _pt(size: tuple[float, float]) -> list[float]:
    return [round(size[0], 2), round(size[1], 2)]


def manifest(game: Any, profile: ShopProfile, entries: list[dict], decks: dict) -> bytes:
    """`shop.json`: the profile's terms and every file with what it holds (sorted, stable)."""
    doc = {
        "game": game.id, "shop": profile.id, "shop_name": profile.name,
        "profile": Path(profile.source).name, "bleed_pt": round(profile.bleed, 3),
        "safe_pt": round(profile.safe, 3), "dpi": profile.dpi, "colour": profile.colour,
        "ink_limit": profile.ink_limit, "pdfx": profile.pdfx, "order": profile.order,
        "files": entries,
        "dice": ([{"id": d.id, "name": d.name, "faces": [str(f) for f in d.faces]}
                  for d in game.dice.values()] if profile.dice == "stock" else []),
        "not_delivered": [d.id for d in decks["skipped"]],
    }
    return (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode("utf-8")

