"""Tabletop Playground package (`pnp build --ttp`): card templates in Plasticity Studios'
published format (github.com/plasticity-studios/tabletop-playground-schemas, CardTemplate),
made from the Tabletop Simulator sheets, with every texture they name in the package."""

from __future__ import annotations

import json
import re

import pytest
from PIL import Image

pytest.importorskip("pypdfium2", reason="the sheets are rasterised with pypdfium2")

# CardTemplate's required properties and enums in the published schema.json
REQUIRED = {"BackIndex", "CardMetadata", "CardNames", "CardTags", "CollisionType", "FrontTexture",
            "GUID", "HiddenIndex", "Indices", "Metadata", "Models", "Name", "SurfaceType",
            "Tags", "Type"}
COLLISION = {"Regular", "Ground", "Penetrable", "Static"}
SURFACE = {"Cardboard", "Cloth", "Glass", "Metal", "Plastic", "Silent", "Wood"}
MODELS = {"Rounded", "Square", "Round", "Hexagonal"}


@pytest.fixture(scope="module")
def taw(game_defs):
    return game_defs("the-ancient-world")


@pytest.fixture(scope="module")
def package(taw, tmp_path_factory):
    from pnp.render.build import build_game

    kit = tmp_path_factory.mktemp("ttp") / "the-ancient-world"
    paths, diags = build_game(taw, kit, ttp=True)
    assert not [d for d in diags if d.is_error], diags
    return kit, kit / "ttp" / "the-ancient-world"


def templates(root):
    return {p.stem: json.loads(p.read_text(encoding="utf-8"))
            for p in sorted((root / "Templates").glob("*.json"))}


def test_every_template_has_the_schemas_required_fields_and_valid_values(package):
    _, root = package
    manifest = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["Name"] == "The Ancient World" and re.fullmatch(r"[0-9A-F]{32}",
                                                                    manifest["GUID"])
    found = templates(root)
    assert found
    guids = [t["GUID"] for t in found.values()]
    assert len(set(guids)) == len(guids)
    for name, t in found.items():
        assert REQUIRED <= set(t), (name, REQUIRED - set(t))
        assert t["Type"] == "Card" and re.fullmatch(r"[0-9A-F]{32}", t["GUID"])
        assert t["CollisionType"] in COLLISION and t["SurfaceType"] in SURFACE
        assert t["Model"] in MODELS and t["BackIndex"] == -2 and t["HiddenIndex"] == -3
        assert 1 <= t["NumHorizontal"] <= 128 and 1 <= t["NumVertical"] <= 128
        assert t["Indices"] and set(t["CardNames"]) == {str(i) for i in t["Indices"]}


def test_the_sheets_and_backs_are_in_the_package_and_fit_the_grids(package):
    _, root = package
    for name, t in templates(root).items():
        front, back = root / "Textures" / t["FrontTexture"], root / "Textures" / t["BackTexture"]
        assert front.is_file() and back.is_file(), name
        with Image.open(front) as im:
            w, h = im.size
        assert w % t["NumHorizontal"] == 0 and h % t["NumVertical"] == 0, (name, w, h)
        assert max(w, h) <= 4096
        # the last cell is the TTS hidden-card cell: no card of the stack uses it
        assert max(t["Indices"]) < t["NumHorizontal"] * t["NumVertical"] - 1


def test_each_deck_is_all_its_copies_with_names_and_its_printed_size(package, taw):
    _, root = package
    found = templates(root)
    for deck_id in ("empire-a", "tokens"):
        deck = taw.decks[deck_id]
        stacks = [t for name, t in found.items() if name.rsplit("-", 1)[0] == deck_id]
        names = [t["CardNames"][str(i)] for t in stacks for i in t["Indices"]]
        assert len(names) == sum(c.count for c in deck.cards), deck_id
        assert sorted(set(names)) == sorted({c.name for c in deck.cards if c.count})
    (empire,) = [t for name, t in found.items() if name == "empire-a-1"]
    assert (empire["Width"], empire["Height"]) == (6.35, 8.89)  # poker, 2.5 x 3.5 in, in cm


def test_the_package_is_the_same_on_a_rebuild(package, taw):
    from pnp.render.ttpg import package_files

    kit, _ = package
    first = package_files(taw, kit)
    assert first == package_files(taw, kit)
    assert {p.relative_to(kit).as_posix() for p, _ in first} >= {
        "ttp/the-ancient-world/manifest.json", "ttp/the-ancient-world/Templates/empire-a-1.json"}


def test_build_ttp_on_the_command_line_writes_the_package(tmp_path):
    from click.testing import CliRunner

    from pnp.cli import main

    runner = CliRunner()
    assert runner.invoke(main, ["new", str(tmp_path / "my-game")]).exit_code == 0
    result = runner.invoke(main, ["build", str(tmp_path / "my-game"), "--ttp",
                                  "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    root = tmp_path / "out" / "my-game" / "ttp" / "my-game"
    assert (root / "manifest.json").is_file() and list((root / "Templates").glob("*.json"))
