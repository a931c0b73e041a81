"""pnp works from a wheel: the data folders resolve, and the wheel and sdist carry every file of them.

.ci/smoke_wheel.sh runs the installed wheel end to end; these tests catch a packaging regression
in the test run itself: a folder missing from the wheel fails here, not only in CI.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp import __version__, paths
from pnp.cli import main

REPO = Path(__file__).resolve().parent.parent
BUNDLED_GAMES = {"age-of-civilization", "ancient-civilizations", "antike", "the-ancient-world"}


def data_files(root: Path) -> set[str]:
    """Every file of the four data folders under `root`, as posix paths relative to it (what the
    build copies: no caches, no hidden files)."""
    found = set()
    for name in paths.DATA_FOLDERS:
        for path in (root / name).rglob("*"):
            rel = path.relative_to(root)
            if path.is_file() and not any(p.startswith(".") or p == "__pycache__" for p in rel.parts) \
                    and path.suffix != ".pyc":
                found.add(rel.as_posix())
    return found


# the folders resolve (no wheel needed)

def test_every_bundled_game_is_found_with_its_manifest():
    assert {p.name for p in paths.CARDS.iterdir() if (p / "game.yaml").is_file()} == BUNDLED_GAMES


def test_every_schema_a_bundled_file_names_is_there():
    kinds = set()
    for game in BUNDLED_GAMES:
        for f in (paths.CARDS / game).rglob("*.yaml"):
            first = f.read_text(encoding="utf-8").splitlines()[0]
            kinds.add(first.rsplit("/", 1)[-1].removesuffix(".schema.json"))
    assert kinds and all((paths.SCHEMAS / f"{k}.schema.json").is_file() for k in kinds), kinds
    for game in BUNDLED_GAMES:  # each bundled engine's rules: schema
        assert (paths.SCHEMAS / "rules" / f"{game}.schema.json").is_file()


def test_templates_hold_the_shared_layouts_and_every_icon_image():
    assert (paths.TEMPLATES / "cards.yaml").is_file()
    icons = (paths.TEMPLATES / "icons.yaml").read_text(encoding="utf-8")
    images = [line.split("file:")[1].strip(" }") for line in icons.splitlines() if "file:" in line]
    assert images == ["icons/coin.png", "icons/food.png", "icons/sword.png"]
    assert all((paths.TEMPLATES / image).is_file() for image in images)


def test_the_rulesheet_sources_are_found():
    assert len(list((paths.RULESHEET / "ancient-civilizations").glob("*.md"))) == 8


def test_an_installed_package_reads_its_own_copy_and_a_checkout_reads_itself(tmp_path, monkeypatch):
    monkeypatch.delenv("PNP_HOME", raising=False)
    checkout_package = tmp_path / "checkout" / "pnp"
    checkout_package.mkdir(parents=True)
    assert paths.data_root(checkout_package) == tmp_path / "checkout"
    installed_package = tmp_path / "site-packages" / "pnp"
    (installed_package / "_bundled").mkdir(parents=True)
    assert paths.data_root(installed_package) == installed_package / "_bundled"
    monkeypatch.setenv("PNP_HOME", str(tmp_path / "home"))
    assert paths.data_root(installed_package) == tmp_path / "home"


def test_this_checkout_reads_its_own_folders():
    if paths.IN_PACKAGE or os.environ.get("PNP_HOME"):
        pytest.skip("pnp is installed from a wheel, or PNP_HOME points elsewhere")
    assert paths.ROOT == REPO


def test_setup_py_copies_the_folders_paths_py_reads():
    """setup.py cannot import pnp, so it repeats the names: they must not drift apart."""
    tree = ast.parse((REPO / "setup.py").read_text(encoding="utf-8"))
    names = {t.id: ast.literal_eval(n.value) for n in tree.body if isinstance(n, ast.Assign)
             for t in n.targets if isinstance(t, ast.Name) and t.id in ("BUNDLED", "DATA_FOLDERS")}
    assert names == {"BUNDLED": paths.BUNDLED, "DATA_FOLDERS": paths.DATA_FOLDERS}


# commands that would mislead or harm an install

def test_list_with_no_games_says_where_it_looked_and_exits_1(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "CARDS", tmp_path / "cards")
    result = CliRunner().invoke(main, ["list"])
    assert result.exit_code == 1
    assert "PNP-C001" in result.output and str(tmp_path / "cards") in result.output


def test_schemas_refuses_to_rewrite_a_game_inside_the_installed_package(tmp_path, monkeypatch):
    cards = tmp_path / "_bundled" / "cards"
    game = cards / "tiny"
    game.mkdir(parents=True)
    manifest = game / "game.yaml"
    manifest.write_text("# yaml-language-server: $schema=../../schemas/game.schema.json\nid: tiny\n",
                        encoding="utf-8")
    monkeypatch.setattr(paths, "IN_PACKAGE", True)
    monkeypatch.setattr(paths, "CARDS", cards)
    result = CliRunner().invoke(main, ["schemas", str(game)])
    assert result.exit_code == 1
    assert "bundled inside the installed pnp" in result.output and "cp -r" in result.output
    assert not (game / ".schemas").exists()
    assert manifest.read_text(encoding="utf-8").startswith("# yaml-language-server: $schema=../../")


# the built distributions (seconds: a real build, as pip and CI run it)

@pytest.mark.slow
def test_the_sdist_and_the_wheel_built_from_it_carry_every_data_file(tmp_path):
    pytest.importorskip("build")
    # from a clean copy: setuptools also packs whatever a stale *.egg-info/SOURCES.txt lists
    clone = tmp_path / "clone"
    shutil.copytree(REPO, clone, ignore=shutil.ignore_patterns(
        ".git", ".venv", "output", "build", "dist", "*.egg-info", "__pycache__", ".*_cache",
        ".hypothesis"))
    built = subprocess.run([sys.executable, "-m", "build", "--outdir", str(tmp_path), str(clone)],
                           capture_output=True, text=True)
    assert built.returncode == 0, (built.stdout + built.stderr)[-3000:]
    expected = data_files(REPO)
    assert {"templates/icons/coin.png", "schemas/game.schema.json",
            "cards/ancient-civilizations/game.yaml", "rulesheet/ancient-civilizations/01-overview.md"} <= expected

    (sdist,) = tmp_path.glob("pnp_toolkit-*.tar.gz")
    top = f"pnp_toolkit-{__version__}/"
    with tarfile.open(sdist) as tar:
        in_sdist = {n.removeprefix(top) for n in tar.getnames()}
    assert expected <= in_sdist
    assert {"LICENSE", "setup.py", "MANIFEST.in", ".ci/smoke_wheel.sh"} <= in_sdist

    (wheel,) = tmp_path.glob(f"pnp_toolkit-{__version__}-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        metadata = zf.read(f"pnp_toolkit-{__version__}.dist-info/METADATA").decode()
        entry_points = zf.read(f"pnp_toolkit-{__version__}.dist-info/entry_points.txt").decode()
    bundled = {n.removeprefix("pnp/_bundled/") for n in names if n.startswith("pnp/_bundled/")}
    assert bundled == expected
    shops = {f"pnp/render/shops/profiles/{n}.yaml" for n in ("dtc", "tgc", "mpc", "home")}
    assert shops | {"pnp/render/shops/profile.schema.json"} <= names  # --shop NAME works
    assert {f"pnp_toolkit-{__version__}/{n}" for n in shops} <= {top + n for n in in_sdist}
    assert "pnp/paths.py" in names and f"pnp_toolkit-{__version__}.dist-info/licenses/LICENSE" in names
    assert "Name: pnp-toolkit" in metadata and f"Version: {__version__}" in metadata
    assert "License-Expression: MIT" in metadata
    assert "pnp = pnp.cli:main" in entry_points
