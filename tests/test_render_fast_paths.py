"""The card renderer's shortcuts give what the long way gives (pnp.render.pdfops,
layout/canvas.py, layout/templates.py, geometry.py): the same subset codes and escaped bytes
as reportlab, a bounded cache that keeps what is still used, parsed values that follow each
card's own text, and cached crop marks a caller may change without changing the next page's.
"""

from __future__ import annotations

import io

import pytest
from reportlab.pdfbase import pdfmetrics

from pnp.render import fonts, pdfops
from pnp.render.geometry import crop_marks, impose_grid
from pnp.render.layout.canvas import BoundedCache
from pnp.render.layout.codes import ElementError
from pnp.render.layout.templates import Prop
from pnp.render.layout.values import parse_color
from pnp.render.pdfwrite import new_canvas


def vera_characters() -> str:
    """Every character Vera draws, from the end of its range: more than one subset holds."""
    fonts.ensure_fonts()
    codes = sorted(pdfmetrics.getFont(fonts.DEFAULT_FONT).face.charToGlyph, reverse=True)
    return "".join(chr(c) for c in codes if c > 32)


MANY = vera_characters()


def reportlab_runs(c, font_name: str, text: str) -> tuple:
    """What reportlab's own splitString and escape give, on this canvas."""
    font = pdfmetrics.getFont(font_name)
    return tuple((font.getSubsetInternalName(subset, c._doc), c._escape(chunk))
                 for subset, chunk in font.splitString(text, c._doc))


TEXTS = ["Gain 3 (coins) \\ draw", "", "é and ü, naïve", "a\u00a0b", MANY[:150],
         "Gain 3 (coins) \\ draw", MANY, "tail: " + MANY[140:160] + " é (x)", "\u0000\t\n"]


def test_text_runs_are_reportlabs_codes_and_bytes_text_after_text():
    fonts.ensure_fonts()
    ours = new_canvas(io.BytesIO(), (200, 200))
    theirs = new_canvas(io.BytesIO(), (200, 200))
    for text in TEXTS:
        assert pdfops.text_runs(ours, fonts.DEFAULT_FONT, text) == \
            reportlab_runs(theirs, fonts.DEFAULT_FONT, text), text
    # a second subset was reached, and both documents hold the same subsets
    font = pdfmetrics.getFont(fonts.DEFAULT_FONT)
    assert len(MANY) > 224 and len(font.state[ours._doc].subsets) > 1
    assert font.state[ours._doc].subsets == font.state[theirs._doc].subsets


def test_an_empty_text_registers_no_font():
    c = new_canvas(io.BytesIO(), (200, 200))
    assert pdfops.text_runs(c, "Vera-Bold", "") == ()
    assert "Vera-Bold" not in c._doc.fontMapping


def test_the_bounded_cache_keeps_what_is_still_used_and_stays_bounded():
    cache = BoundedCache(maxsize=4)
    cache["title"] = 1
    for i in range(3):
        cache[i] = i
    cache["late"] = 9  # the newer half was full: it became the older half
    assert cache.get("title") is None and cache.recall("title") == 1  # moved forward
    for i in range(100, 110):
        cache[i] = i
        assert cache.get("title") or cache.recall("title")  # used on every "card": kept
    assert len(cache) <= 4 and len(cache.old) <= 4
    assert cache.get(0) is None and cache.recall(0) is None  # unused: gone


def test_a_parsed_colour_follows_each_cards_own_text():
    prop = Prop("fill", "{{ card.color }}", parse_color)
    assert prop.get({"card": {"color": "#ff0000"}}, "e") == (1.0, 0.0, 0.0)
    assert prop.get({"card": {"color": "#0000ff"}}, "e") == (0.0, 0.0, 1.0)
    assert prop.get({"card": {"color": "#ff0000"}}, "e") == (1.0, 0.0, 0.0)
    with pytest.raises(ElementError) as err:  # a bad value still fails after good ones
        prop.get({"card": {"color": "not a colour"}}, "element 'art'")
    assert "element 'art' fill" in err.value.message


def test_a_plain_lookup_renders_numbers_and_missing_fields_as_jinja2_does():
    from pnp.render.layout.values import as_text

    prop = Prop("text", "{{ card.cost }}", as_text)
    assert prop.get({"card": {"cost": "3{coin}"}}, "e") == "3{coin}"
    assert prop.get({"card": {"cost": 3}}, "e") == "3"
    with pytest.raises(ElementError):
        prop.get({"card": {}}, "e")


def test_cached_crop_marks_are_a_fresh_list_each_time():
    grid = impose_grid((595.27, 841.89), (180.0, 249.4))
    marks = crop_marks(grid)
    first = list(marks)
    marks.append((0.0, 0.0, 1.0, 1.0))
    assert crop_marks(grid) == first
    assert crop_marks(grid, cells=[(0, 0)]) != first
