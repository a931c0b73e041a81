"""Games live anywhere: any name for `pnp new`, folders that move, output under the current folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.data.game import load_game
from pnp.paths import CARDS


def kit_bytes(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("name, game_id", [("My Game!", "my-game"), ("Lamplighters", "lamplighters"),
                                           ("my_game", "my-game")])
def test_new_accepts_any_name_and_the_game_validates_and_builds(tmp_path, monkeypatch, name, game_id):
    monkeypatch.chdir(tmp_path)
    assert run("new", name).exit_code == 0
    loaded = load_game(tmp_path / name)
    assert loaded.ok and not loaded.diagnostics, [d.format_text() for d in loaded.diagnostics]
    assert loaded.game.id == game_id
    assert run("validate", name, "--strict").exit_code == 0
    result = run("build", name)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "output" / game_id / "cards-market.pdf").is_file()  # ./output/GAME


def test_a_new_game_copied_elsewhere_validates_and_builds_the_same_bytes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run("new", "My Game!").exit_code == 0
    assert run("build", "My Game!", "--out", "first").exit_code == 0
    elsewhere = tmp_path / "far" / "away"
    elsewhere.mkdir(parents=True)
    shutil.copytree(tmp_path / "My Game!", elsewhere / "My Game!")
    shutil.rmtree(tmp_path / "My Game!")  # nothing may still point at the old place
    monkeypatch.chdir(elsewhere)
    result = run("validate", "My Game!", "--strict")
    assert result.exit_code == 0, result.output
    assert run("build", "My Game!").exit_code == 0
    assert kit_bytes(elsewhere / "output" / "my-game") == kit_bytes(tmp_path / "first" / "my-game")


def test_new_game_schema_lines_point_at_schemas_inside_the_game(tmp_path):
    folder = tmp_path / "Lamplighters"
    assert run("new", str(folder)).exit_code == 0
    for yaml_file in folder.glob("*.yaml"):
        ref = yaml_file.read_text().splitlines()[0].split("$schema=")[1]
        assert ref.startswith(".schemas/"), ref
        assert (folder / ref).is_file()  # what an editor opens


def test_a_bundled_game_moved_out_of_the_checkout_is_fixed_by_pnp_schemas(tmp_path):
    moved = tmp_path / "ancient-civilizations"
    shutil.copytree(CARDS / "ancient-civilizations", moved)
    before = load_game(moved)
    assert before.ok  # the kind comes from the schema file's name, wherever the line points
    assert any(d.code == "PNP-L011" for d in before.diagnostics)  # but an editor finds nothing
    result = run("schemas", str(moved))
    assert result.exit_code == 0, result.output
    after = load_game(moved)
    assert after.ok and not [d for d in after.diagnostics if d.code == "PNP-L011"]
    layout = next(moved.glob("layouts/*.yaml"), None)
    if layout is not None:
        assert "$schema=../.schemas/layout.schema.json" in layout.read_text().splitlines()[0]
    # only the first line changed
    original = (CARDS / "ancient-civilizations" / "stats.yaml").read_text().splitlines()
    assert (moved / "stats.yaml").read_text().splitlines()[1:] == original[1:]


def test_the_game_id_must_still_match_its_folder_slug(tmp_path):
    folder = tmp_path / "Lamplighters"
    assert run("new", str(folder)).exit_code == 0
    renamed = folder.rename(tmp_path / "Other Game")
    codes = [d.code for d in load_game(renamed).diagnostics]
    assert "PNP-L007" in codes


# Every output path a command cannot write is a PNP-R050 diagnostic with exit 1, never a traceback.
UNWRITABLE = [
    ("new", "{blocker}/game"),
    ("build", "ancient-civilizations", "--out", "{blocker}/out"),
    ("render", "cards", "ancient-civilizations", "--out", "{blocker}/out"),
    ("render", "board", "ancient-civilizations", "--out", "{blocker}/out"),
    ("render", "record", "ancient-civilizations", "--out", "{blocker}/out"),
    ("render", "tokens", "ancient-civilizations", "--out", "{blocker}/out"),
    ("simulate", "ancient-civilizations", "--games", "2", "--report", "{blocker}/r.pdf"),
    ("simulate", "ancient-civilizations", "--games", "2", "--log", "{blocker}/r.jsonl"),
    ("scenario", "ancient-civilizations", "--log", "{blocker}/logs"),
    ("sweep", "ancient-civilizations", "--games", "2", "--report", "{blocker}/r.pdf"),
]


@pytest.mark.parametrize("args", UNWRITABLE, ids=lambda a: " ".join(a[:2]) + " " + a[-2])
def test_an_unwritable_output_is_a_diagnostic_not_a_traceback(tmp_path, args):
    blocker = tmp_path / "a-file"  # a file where a folder should be: unwritable even for root
    blocker.write_text("in the way")
    result = run(*(a.format(blocker=blocker) for a in args))
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "PNP-R050" in result.output and str(blocker) in result.output
    assert "Traceback" not in result.output
    assert blocker.read_text() == "in the way"


def _moved_game(tmp_path: Path) -> Path:
    moved = tmp_path / "game" / "ancient-civilizations"
    shutil.copytree(CARDS / "ancient-civilizations", moved)
    return moved


def test_pnp_schemas_refuses_a_schemas_folder_linking_outside_the_game(tmp_path):
    """GAME/.schemas -> a folder outside the game: once the 12 schema files went there."""
    moved = _moved_game(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (moved / ".schemas").symlink_to(outside, target_is_directory=True)
    before = {p: p.read_bytes() for p in moved.rglob("*.yaml")}
    result = run("schemas", str(moved))
    assert result.exit_code == 1
    assert "PNP-C002" in result.output and ".schemas is a link" in result.output
    assert list(outside.iterdir()) == []
    assert {p: p.read_bytes() for p in moved.rglob("*.yaml")} == before  # nothing written


@pytest.mark.parametrize("linked", ["stats.yaml", "layouts"])
def test_pnp_schemas_refuses_a_data_file_linking_outside_the_game(tmp_path, linked):
    """A data file (or a folder of them) linking outside: its first line was rewritten there."""
    moved = _moved_game(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    shutil.move(moved / linked, outside / linked)
    (moved / linked).symlink_to(outside / linked)
    before = {p: p.read_bytes() for p in outside.rglob("*") if p.is_file()}
    result = run("schemas", str(moved))
    assert {p: p.read_bytes() for p in outside.rglob("*") if p.is_file()} == before
    if linked == "layouts":  # a linked folder is not part of the game: read and written never
        return
    assert result.exit_code == 1
    assert "PNP-C002" in result.output and f"{linked} is a link" in result.output
    assert not (moved / ".schemas").exists()  # nothing written inside either


def test_pnp_schemas_replaces_files_whole_keeping_their_mode(tmp_path):
    """Each file is written to a temporary file in its folder and renamed over the old one:
    a hard link to a data file (another name for the same bytes) keeps the old bytes."""
    moved = _moved_game(tmp_path)
    stats = moved / "stats.yaml"
    stats.chmod(0o640)
    other_name = tmp_path / "stats-hard-link.yaml"
    other_name.hardlink_to(stats)
    old = stats.read_bytes()
    assert run("schemas", str(moved)).exit_code == 0
    assert other_name.read_bytes() == old  # the rename gave stats.yaml a new inode
    assert stats.read_bytes() != old and stats.stat().st_mode & 0o777 == 0o640
    assert not [p for p in moved.rglob("*.tmp")]


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
@pytest.mark.parametrize("args", [
    ("sweep", "ancient-civilizations", "--games", "2", "--report", "/proc/x.pdf"),
    ("simulate", "ancient-civilizations", "--games", "2", "--report", "/proc/x.pdf"),
    ("simulate", "ancient-civilizations", "--games", "2", "--log", "/proc/x.jsonl"),
    ("scenario", "ancient-civilizations", "--log", "/proc/x"),
], ids=lambda a: " ".join(a[:1] + a[-2:]))
def test_an_output_in_a_folder_nobody_may_write_is_a_diagnostic(args):
    result = run(*args)
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert f"{args[-1]}: error PNP-R050: cannot write {args[-1]}" in result.output
    assert "--" + args[-2].lstrip("-") in result.output  # the hint names the option
