"""Tabletop Simulator custom dice: the texture is Berserk Games' D6 template (a 3 x 3 grid, top
row unused, faces 2 4 5 in the middle row, 1 3 6 below with 1 and 6 upside down), each face
drawn as the game's die net draws it."""

from __future__ import annotations

import dataclasses
import io

import pytest

pytest.importorskip("pypdfium2", reason="the die texture is rasterised with pypdfium2")
from PIL import Image, ImageChops, ImageStat  # noqa: E402

from pnp.render.tts_dice import D6_CELLS, TEXTURE_PX, custom_die, texture_png, wants_texture  # noqa: E402

THIRD = TEXTURE_PX // 3


def cell(img: Image.Image, col: int, row: int) -> Image.Image:
    return img.crop((col * THIRD, row * THIRD, (col + 1) * THIRD, (row + 1) * THIRD))


def inked(img: Image.Image) -> bool:
    """Anything drawn in the cell beyond its plain fill."""
    return max(hi - lo for lo, hi in ImageStat.Stat(img).extrema) > 40


@pytest.fixture(scope="module")
def taw_texture(game_defs):
    from pnp.render.layout.library import load_library

    taw = game_defs("the-ancient-world")
    library, _ = load_library(taw)
    die = taw.dice["damage"]
    return die, library, Image.open(io.BytesIO(texture_png(die, library))).convert("RGB")


def test_the_damage_die_faces_sit_where_the_d6_template_puts_them(taw_texture):
    die, _, img = taw_texture
    assert die.faces == ("titan", "titan", "coin", "coin", "blank", "blank")
    assert img.size == (1024, 1024)
    for col in range(3):
        assert not inked(cell(img, col, 0)), "the template's top row is unused"
    for number, (col, row, _) in D6_CELLS.items():
        assert inked(cell(img, col, row)) == (die.faces[number - 1] != "blank"), number
    # faces 1 and 2 are both titans: face 1 is the same picture turned upside down
    one, two = cell(img, *D6_CELLS[1][:2]), cell(img, *D6_CELLS[2][:2])
    assert max(ImageStat.Stat(ImageChops.difference(one.rotate(180), two)).mean) < 8
    assert min(ImageStat.Stat(ImageChops.difference(one, two)).mean) > 20


def test_a_word_face_is_written_and_a_plain_d6_stays_a_stock_die(taw_texture):
    die, library, _ = taw_texture
    plain = dataclasses.replace(die, faces=(1, 2, 3, 4, 5, 6))
    assert not wants_texture(plain)
    assert not wants_texture(dataclasses.replace(die, faces=(1, 2, 3, 4)))
    # faces the game's die net has no icon for: a shared icon where one has the name, else
    # the word, on white (as a die net without face_icons prints them)
    worded = dataclasses.replace(die, faces=("shield", "sword", "sword", 2, 2, "x"))
    assert wants_texture(worded)
    img = Image.open(io.BytesIO(texture_png(worded, library))).convert("RGB")
    assert all(inked(cell(img, col, row)) for col, row, _ in D6_CELLS.values())
    assert cell(img, 1, 0).getextrema() == ((255, 255),) * 3


def test_the_saved_object_entry_is_a_custom_d6(taw_texture):
    die, _, _ = taw_texture
    obj = custom_die(die, "file:///x/damage.png", {"posX": 0.0})
    assert obj["Name"] == "Custom_Dice" and obj["Nickname"] == die.name
    assert obj["CustomImage"]["ImageURL"] == "file:///x/damage.png"
    assert obj["CustomImage"]["CustomDice"] == {"Type": 1}
    assert obj["Description"].splitlines() == [f"{i + 1}: {f}" for i, f in enumerate(die.faces)]
