"""Colours are parsed without reportlab (pnp/colors.py), to the same RGB reportlab's names give."""

from __future__ import annotations

import pytest
from reportlab.lib import colors as rl_colors

from pnp.colors import NAMED_COLORS, parse_color


def test_every_name_a_layout_can_write_is_reportlabs_colour():
    """A layout writes names in lower case ('Dark Slate-Gray' reads 'darkslategray');
    'transparent' means no colour at all, so it is not in the table."""
    reportlab = {name: (c.red, c.green, c.blue)
                 for name, c in rl_colors.getAllNamedColors().items()
                 if name == name.lower() and name != "transparent"}
    assert set(NAMED_COLORS) == set(reportlab)
    for name, rgb in reportlab.items():
        assert parse_color(name) == rgb, name


def test_names_hex_and_no_colour():
    assert parse_color("Dark Slate-Gray") == parse_color("#2f4f4f")
    assert parse_color("#fff") == (1.0, 1.0, 1.0)
    assert parse_color(" #FF0000 ") == (1.0, 0.0, 0.0)
    assert parse_color("transparent") is None
    assert parse_color("none") is None
    assert parse_color(None) is None


@pytest.mark.parametrize("bad", ["#ff00", "#gggggg", "reddish", "#ab-c", 12])
def test_an_unknown_colour_is_a_value_error(bad):
    with pytest.raises(ValueError):
        parse_color(bad)
