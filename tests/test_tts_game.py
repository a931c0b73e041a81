"""One Tabletop Simulator saved object a game (`pnp build --tts`): a bag of every deck, tokens
and boards as two-sided tiles, a symbol die as a Custom_Dice with its faces on a texture; and file URLs that name the kit folder, not
the staging folder it was built in."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from PIL import Image

from pnp.render.exports import TTS_MAX_WIDTH

pytest.importorskip("pypdfium2", reason="TTS images are rasterised with pypdfium2")


def local(url: str) -> Path:
    return Path(unquote(urlparse(url).path))


@pytest.fixture(scope="module")
def taw(game_defs):
    return game_defs("the-ancient-world")


@pytest.fixture(scope="module")
def kit(taw, tmp_path_factory):
    from pnp.render.build import build_game

    folder = tmp_path_factory.mktemp("tts") / "the-ancient-world"
    paths, diags = build_game(taw, folder, tts=True)
    assert not [d for d in diags if d.is_error], diags
    return folder


def urls(obj) -> list[str]:
    """Every image URL in a saved object, however deep."""
    found = []
    if isinstance(obj, dict):
        for key, value in obj.items():
            if key in ("FaceURL", "BackURL", "ImageURL", "ImageSecondaryURL"):
                found += [value] if value else []  # "" is TTS's "no image" (a die's back)
            else:
                found += urls(value)
    elif isinstance(obj, list):
        for value in obj:
            found += urls(value)
    return found


def test_every_url_names_an_image_in_the_kit_folder(kit):
    """A build swaps its staging folder in at the end: the objects must point at the kit."""
    saves = sorted(kit.glob("*-tts/*.json")) + [kit / "the-ancient-world-tts.json"]
    for save in saves:
        found = urls(json.loads(save.read_text(encoding="utf-8")))
        assert found, save
        for url in found:
            path = local(url)
            assert path.is_relative_to(kit.resolve()) and ".staging" not in url, url
            assert path.is_file(), url


def test_one_bag_holds_every_deck_token_board_and_die(kit, taw):
    doc = json.loads((kit / "the-ancient-world-tts.json").read_text(encoding="utf-8"))
    (game_bag,) = doc["ObjectStates"]
    assert game_bag["Name"] == "Bag" and game_bag["Nickname"] == "The Ancient World"
    inside = {o["Nickname"]: o for o in game_bag["ContainedObjects"]}
    assert inside["Empire A"]["Name"] == "DeckCustom"  # poker cards stay a deck
    tokens = inside[taw.decks["tokens"].name]
    assert tokens["Name"] == "Bag"
    assert len(tokens["ContainedObjects"]) == sum(c.count for c in taw.decks["tokens"].cards)
    assert {t["Name"] for t in tokens["ContainedObjects"]} == {"Custom_Tile"}
    coin = next(t for t in tokens["ContainedObjects"] if t["Nickname"].startswith("Coin"))
    assert coin["CustomImage"]["CustomTile"]["Type"] == 2  # round token, round tile
    assert coin["CustomImage"]["ImageURL"] != coin["CustomImage"]["ImageSecondaryURL"]
    boards = inside[taw.decks["player-boards"].name]["ContainedObjects"]
    assert len(boards) == 4 and all(b["Name"] == "Custom_Tile" for b in boards)
    with Image.open(local(boards[0]["CustomImage"]["ImageURL"])) as im:
        assert max(im.size) <= TTS_MAX_WIDTH
    (die,) = inside["Dice"]["ContainedObjects"]
    faces = next(iter(taw.dice.values())).faces
    assert die["Name"] == "Custom_Dice" and die["CustomImage"]["CustomDice"] == {"Type": 1}
    assert die["Description"].splitlines()[0] == f"1: {faces[0]}"
    with Image.open(local(die["CustomImage"]["ImageURL"])) as im:
        assert im.size == (1024, 1024)


def test_a_base_url_replaces_the_file_urls(taw, tmp_path):
    from pnp.render.tts_game import render_game_object

    paths, diags = render_game_object(taw, tmp_path, "https://example.org/taw/")
    assert not [d for d in diags if d.is_error]
    doc = json.loads((tmp_path / "the-ancient-world-tts.json").read_text(encoding="utf-8"))
    found = urls(doc)
    assert found and all(u.startswith("https://example.org/taw/tts-pieces/") for u in found)


def test_render_cards_tts_points_at_the_output_folder(tmp_path):
    from click.testing import CliRunner

    from pnp.cli import main

    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["render", "cards", "ancient-civilizations", "--tts",
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    (save,) = out.glob("*-tts/*.json")
    for url in urls(json.loads(save.read_text(encoding="utf-8"))):
        assert local(url).is_file() and local(url).is_relative_to(out.resolve()), url


def test_a_drawn_board_is_a_custom_board_and_pawns_come_in_player_colours(ac, tmp_path):
    from pnp.render.build import PLAYER_COLOURS, build_game

    kit = tmp_path / "ancient-civilizations"
    paths, diags = build_game(ac, kit, tts=True)
    assert not [d for d in diags if d.is_error], diags
    doc = json.loads((kit / "ancient-civilizations-tts.json").read_text(encoding="utf-8"))
    inside = doc["ObjectStates"][0]["ContainedObjects"]
    (board,) = [o for o in inside if o["Name"] == "Custom_Board"]
    with Image.open(local(board["CustomImage"]["ImageURL"])) as im:
        assert max(im.size) == TTS_MAX_WIDTH  # the whole print, as large as TTS takes
    bags = [o for o in inside if o["Name"] == "Bag"]
    assert len(bags) == ac.players_max == 6
    first = bags[0]["ContainedObjects"]
    assert len(first) == 12 and first[0]["Name"] == "PlayerPawn"
    hex_ = PLAYER_COLOURS[0][1]
    assert first[0]["ColorDiffuse"]["r"] == pytest.approx(int(hex_[1:3], 16) / 255, abs=1e-3)
