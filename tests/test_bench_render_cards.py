"""benchmarks/render_cards.py's generated games: they load clean, render, and the like-with-like
card puts the baseline's texts where ../shared/bench/reportlab_cards.py puts them.

No timing here: speed is the benchmark's job (docs/rendering.md, Speed).
"""

from __future__ import annotations

import importlib.util
import re
import zlib
from pathlib import Path

import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth

from pnp.data.game import load_game
from pnp.render import fonts
from pnp.render.geometry import mm
from pnp.render.sheets import render_deck_sheets

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "render_cards.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("render_cards_bench", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _streams(pdf: bytes) -> list[str]:
    """Every FlateDecode stream of the file, decompressed (the page streams among them)."""
    out = []
    for m in re.finditer(rb"stream\r?\n(.*?)endstream", pdf, re.S):
        try:  # a stream's data may end with an end-of-line before `endstream`
            out.append(zlib.decompressobj().decompress(m.group(1)).decode("latin-1"))
        except zlib.error:
            continue
    return out


def test_the_like_card_uses_the_baselines_texts(bench):
    texts = bench.baseline_texts()
    assert len(texts) == 54
    assert texts[0] == ("A", "of Spades") and texts[9] == ("10", "of Spades")
    assert texts[-2:] == [("Joker", "Red"), ("Joker", "Black")]


def test_unique_like_texts_differ_and_keep_the_baselines_lengths(bench):
    texts = bench.baseline_texts()
    titles = [bench.numbered(texts[i % 54][0], i) for i in range(5400)]
    bodies = [bench.numbered(texts[i % 54][1], i) for i in range(5400)]
    assert len(set(titles)) == 5400 and len(set(bodies)) == 5400
    for i in range(5400):
        title, body = texts[i % 54]
        assert len(titles[i]) == max(3, len(title))  # 'A' -> three characters, 'Joker' stays 5
        assert len(bodies[i]) == len(body)  # 'of Spades' stays 9, 'Red' stays 3
    assert bench.numbered("of Spades", 62) == "of Spa010"


@pytest.mark.parametrize("kind,unique", [("like", False), ("like", True), ("rich", True)])
def test_generated_game_loads_clean_and_renders(bench, tmp_path, kind, unique):
    folder = bench.write_game(tmp_path, 54, unique, kind)
    result = load_game(folder)
    assert result.ok and not result.diagnostics, [d.format_text() for d in result.diagnostics]
    paths, diags = render_deck_sheets(result.game, out_dir=tmp_path / "out")
    assert not diags, [d.format_text() for d in diags]
    assert len(paths) == 1 and paths[0].read_bytes().startswith(b"%PDF")


def test_like_card_places_its_texts_where_the_baseline_does(bench, tmp_path):
    """Title baseline at 62 % of an 88 mm card, body at 45 %, both centred on the card."""
    folder = bench.write_game(tmp_path, 54, False, "like")
    result = load_game(folder)
    paths, diags = render_deck_sheets(result.game, out_dir=tmp_path / "out")
    assert not diags
    page = next(s for s in _streams(paths[0].read_bytes()) if "re W n" in s)
    first_card = re.search(r"re W n 1 0 0 1 (\S+) (\S+) cm", page)
    card_x, card_y = float(first_card.group(1)), float(first_card.group(2))
    placed = [(float(x), float(y)) for x, y in re.findall(r"1 0 0 1 (\S+) (\S+) Tm", page)[:2]]
    card_w, card_h = mm(63.5), mm(88)
    fonts.ensure_fonts()
    for (x, y), text, font, size, at in [(placed[0], "A", "Vera-Bold", 28, 0.62),
                                         (placed[1], "of Spades", "Vera", 12, 0.45)]:
        assert y == pytest.approx(at * card_h, abs=0.02)
        assert x + stringWidth(text, font, size) / 2 == pytest.approx(card_w / 2, abs=0.02)
    assert (card_x, card_y) == (pytest.approx((595.2756 - 3 * card_w) / 2, abs=0.01),
                                pytest.approx((841.8898 - 3 * card_h) / 2 + 2 * card_h,
                                              abs=0.01))
