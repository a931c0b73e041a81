"""Symbols a player can read: distinct per meaning (linted), explained in a key in each kit."""

from __future__ import annotations

import re

import pdfplumber
import pytest

from pnp.data.game import load_game
from pnp.paths import CARDS
from pnp.rulesheet.context import symbol_glossary
from pnp.templating.icons import IconDef, game_symbols
from pnp.templating.symbols import colour_distance, symbol_clashes

GAMES_WITH_SYMBOLS = ["the-ancient-world", "age-of-civilization"]


def _icon(name, shape, fill, label="", meaning=None):
    rgb = tuple(int(fill[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return IconDef(name, shape=shape, fill=rgb, label=label, meaning=meaning or name)


def test_the_old_blue_banner_and_knowledge_diamonds_clash():
    old = [_icon("taw-knowledge", "diamond", "#1f5fa8", "K", "knowledge"),
           _icon("taw-banner-blue", "diamond", "#1976d2", "", "blue banner")]
    found = symbol_clashes(old)
    assert len(found) == 1 and found[0].code == "PNP-R024" and "taw-banner-blue" in found[0].message


def test_a_shared_label_between_two_meanings_clashes():
    old = [_icon("taw-ambrosia", "circle", "#7b1fa2", "A", "ambrosia"),
           _icon("taw-arrow", "triangle", "#6d4c41", "A", "arrow")]
    assert [d.code for d in symbol_clashes(old)] == ["PNP-R024"]
    aoc = [_icon("aoc-worker", "circle", "#4e342e", "W", "worker"),
           _icon("aoc-wonder", "diamond", "#6a1b9a", "W", "wonder")]
    assert "label 'W'" in symbol_clashes(aoc)[0].message


def test_one_shape_in_clearly_different_colours_does_not_clash():
    assert colour_distance((1, 0, 0), (0, 0.5, 0)) > 50
    banners = [_icon("red", "banner", "#d32f2f"), _icon("green", "banner", "#388e3c")]
    assert symbol_clashes(banners) == []


def _game(name):
    res = load_game(CARDS / name)
    assert res.game is not None
    return res.game


@pytest.mark.parametrize("name", GAMES_WITH_SYMBOLS)
def test_no_two_meanings_of_a_bundled_game_share_a_glyph(name):
    found, diags = game_symbols(_game(name))
    assert not diags and len(found) >= 10
    assert symbol_clashes(found) == []
    labels = [s.label for s in found if s.label]
    assert len(labels) == len(set(labels))
    looks = [(s.shape, s.fill) for s in found]
    assert len(looks) == len(set(looks))


@pytest.mark.parametrize("name", GAMES_WITH_SYMBOLS)
def test_every_symbol_printed_in_card_text_is_explained(name):
    game = _game(name)
    explained = {s.name for s in game_symbols(game)[0]}
    text = (CARDS / name / "layouts" / "cards.yaml").read_text(encoding="utf-8")
    used = set(re.findall(r"\{((?:taw|aoc)-[a-z-]+)\}", text))
    assert used and used <= explained, sorted(used - explained)


@pytest.mark.parametrize("name", GAMES_WITH_SYMBOLS)
def test_the_kit_holds_a_symbol_key_with_every_meaning(name, tmp_path):
    from pnp.render.symbolkey import render_symbol_key

    game = _game(name)
    written, diags = render_symbol_key(game, tmp_path)
    assert written and not diags
    with pdfplumber.open(written[0]) as pdf:
        text = " ".join((p.extract_text() or "") for p in pdf.pages)
    flat = " ".join(text.split())
    for s in game_symbols(game)[0]:
        assert " ".join(s.meaning.split()[:4]) in flat, s.name
    glossary = symbol_glossary(game)
    assert [g["name"] for g in glossary] == [s.name for s in game_symbols(game)[0]]


def test_ancient_civilizations_key_lists_the_short_forms_its_pieces_print(tmp_path):
    """Its rulebook writes effects in letters (F+2 M+1), not symbols: the key lists every
    short form, the board's tags, the dice notation and the pieces, and says why words."""
    from pnp.render.kinds import renderer
    from pnp.render.symbolkey import render_symbol_key, word_keys

    game = _game("ancient-civilizations")
    assert renderer("symbols").applies(game)
    written, diags = render_symbol_key(game, tmp_path)
    assert written and not diags
    with pdfplumber.open(written[0]) as pdf:
        flat = " ".join(" ".join((p.extract_text() or "") for p in pdf.pages).split())
        words = {w["text"] for p in pdf.pages for w in p.extract_words()}
    assert "not pictures" in flat and "50 mm" in flat
    keys = {text: meaning for text, meaning, _ in word_keys(game)}
    listed = set()
    for stat in game.stats.values():
        assert keys[stat.abbreviation].startswith(stat.name), stat.id
        assert stat.abbreviation in words and stat.name in flat, stat.id
        listed |= {stat.abbreviation, *stat.aliases, stat.name}
    for mark in ("1D6", "START", "END", "(*)", "P1…P6", "Common counters"):
        assert mark in flat, mark
    # every short form a space on the board prints before a number is explained
    used = {m for track in game.tracks.values() for space in track.spaces
            for m in re.findall(r"\b([A-Z][A-Za-z]*) ?[+-] ?\d", space.label)}
    assert used and used - {"Get"} <= listed, sorted(used - listed)  # 'Get +1 to a roll'
    assert word_keys(_game("the-ancient-world")) == []  # a game of icons keeps its icon key
