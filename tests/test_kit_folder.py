"""A build never deletes what pnp did not write (issue 28, part 3).

`pnp build` swaps a whole folder in for OUT/<id> and `pnp render` moves files into it, so both
refuse, changing nothing on disk, when that folder is not a kit pnp wrote (no `.pnp-kit`
marker), is a symbolic link, is the game's own folder or holds it, or lies inside the game.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.data.game import load_game
from pnp.render.build import build_game
from pnp.render.kit_folder import MARKER, MARKER_TEXT
from pnp.scaffold import scaffold


def run(*args: str):
    return CliRunner().invoke(main, [str(a) for a in args])


def tree(root: Path) -> dict[str, object]:
    """Every entry under root: a file's bytes, a link's target, or 'dir' (hidden ones too)."""
    out: dict[str, object] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            rel = str(p.relative_to(root))
            if p.is_symlink():
                out[rel] = "-> " + os.readlink(p)
            elif p.is_dir():
                out[rel] = "dir"
            else:
                out[rel] = p.read_bytes()
    return out


@pytest.fixture()
def here(tmp_path, monkeypatch) -> Path:
    """The folder holding a new game `my-game` (with a notes file of the designer's), as cwd."""
    monkeypatch.chdir(tmp_path)
    assert run("new", "my-game").exit_code == 0
    (tmp_path / "my-game" / "notes.txt").write_text("playtest 3: the bandits are too strong\n")
    return tmp_path


# the two commands that write a kit, given the kit folder they write (for build: OUT/<id>)
def build_into(kit: Path, game: str = "my-game"):
    assert kit.name == "my-game"
    return run("build", game, "--out", kit.parent)


def render_into(kit: Path, game: str = "my-game"):
    return run("render", "cards", game, "--out", kit)


WRITERS = [pytest.param(build_into, id="build"), pytest.param(render_into, id="render")]


def refused(result, code: str) -> None:
    assert result.exit_code == 1, result.output
    assert f"error {code}:" in result.output, result.output
    assert "Traceback" not in result.output


def test_build_out_dot_beside_the_game_refuses_and_keeps_every_file_of_the_game(here):
    """The user's report: `pnp build my-game --out .` replaced ./my-game with the kit."""
    before = tree(here)
    result = run("build", "my-game", "--out", ".")
    refused(result, "PNP-R053")
    assert "the game's own folder" in result.output
    assert tree(here) == before  # the YAML, rules.py and the notes byte-identical, no staging


@pytest.mark.parametrize("write", WRITERS)
def test_the_game_folder_as_the_kit_folder_is_refused(here, write):
    before = tree(here)
    refused(write(here / "my-game"), "PNP-R053")
    assert tree(here) == before


@pytest.mark.parametrize("write", WRITERS)
def test_a_kit_folder_holding_the_game_is_refused(tmp_path, monkeypatch, write):
    monkeypatch.chdir(tmp_path)
    kit = tmp_path / "out" / "my-game"
    scaffold(kit / "games" / "my-game")  # the game lies inside OUT/<id>
    before = tree(tmp_path)
    result = write(kit, str(kit / "games" / "my-game"))
    refused(result, "PNP-R053")
    assert "holds the game folder" in result.output
    assert tree(tmp_path) == before


@pytest.mark.parametrize("out", ["my-game", "my-game/kits"])
def test_build_out_inside_the_game_folder_is_refused(here, out):
    before = tree(here)
    result = run("build", "my-game", "--out", out)
    refused(result, "PNP-R054")
    assert tree(here) == before  # not even my-game/kits/ was created


def test_render_into_a_folder_inside_the_game_is_refused(here):
    before = tree(here)
    refused(render_into(here / "my-game" / "print"), "PNP-R054")
    assert tree(here) == before


@pytest.mark.parametrize("write", WRITERS)
def test_a_foreign_folder_at_the_kit_place_is_refused_and_kept(here, write):
    kit = here / "out" / "my-game"
    kit.mkdir(parents=True)
    (kit / "thesis.txt").write_text("three years of work\n")
    before = tree(here)
    result = write(kit)
    refused(result, "PNP-R052")
    assert "move the folder away or choose another --out" in result.output
    assert tree(here) == before


def test_a_file_at_the_kit_place_is_refused_and_kept(here):
    (here / "out").mkdir()
    (here / "out" / "my-game").write_text("not a folder\n")
    before = tree(here)
    refused(build_into(here / "out" / "my-game"), "PNP-R052")
    assert tree(here) == before


def test_a_kit_of_an_earlier_pnp_without_the_marker_says_to_delete_it_by_hand(here):
    assert run("build", "my-game").exit_code == 0
    (here / "output" / "my-game" / MARKER).unlink()  # as pnp wrote kits before the marker
    before = tree(here)
    result = run("build", "my-game")
    refused(result, "PNP-R052")
    assert "earlier pnp" in result.output and "delete that folder yourself" in result.output
    assert tree(here) == before


@pytest.mark.parametrize("write", WRITERS)
@pytest.mark.parametrize("points_at", ["an empty folder", "a kit"])
def test_a_symlinked_kit_folder_is_refused_not_followed(here, write, points_at):
    if points_at == "a kit":
        assert run("build", "my-game", "--out", here / "elsewhere").exit_code == 0
        elsewhere = here / "elsewhere" / "my-game"
        assert (elsewhere / MARKER).is_file()
    else:
        elsewhere = here / "elsewhere"
        elsewhere.mkdir()
    (here / "out").mkdir()
    (here / "out" / "my-game").symlink_to(elsewhere, target_is_directory=True)
    before = tree(here)
    refused(write(here / "out" / "my-game"), "PNP-R055")
    assert tree(here) == before  # the link is still a link, and no .my-game.staging-* is left


@pytest.mark.parametrize("command", ["build", "render"])
def test_an_empty_out_is_a_usage_error(here, command):
    before = tree(here)
    args = ["build", "my-game"] if command == "build" else ["render", "cards", "my-game"]
    result = run(*args, "--out", "")
    assert result.exit_code == 2, result.output
    assert "--out" in result.output and "empty" in result.output
    assert tree(here) == before


def test_rebuilding_over_pnps_own_kit_replaces_it(here):
    assert run("build", "my-game").exit_code == 0
    kit = here / "output" / "my-game"
    assert (kit / MARKER).read_bytes() == MARKER_TEXT
    (kit / "stale.pdf").write_bytes(b"%PDF- from an older build")
    game_yaml = here / "my-game" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace('name: "My Game"', 'name: "Renamed"'))
    before = (kit / "cards-market.pdf").read_bytes()
    result = run("build", "my-game")
    assert result.exit_code == 0, result.output
    assert (kit / "cards-market.pdf").read_bytes() != before
    assert not (kit / "stale.pdf").exists()  # the folder is pnp's: the whole kit is replaced
    assert (kit / MARKER).read_bytes() == MARKER_TEXT
    assert sorted(p.name for p in here.iterdir()) == ["my-game", "output"]
    assert sorted(p.name for p in (here / "output").iterdir()) == ["my-game"]  # no staging


def test_an_existing_empty_folder_may_become_the_kit(here):
    (here / "output" / "my-game").mkdir(parents=True)
    assert run("build", "my-game").exit_code == 0
    assert (here / "output" / "my-game" / MARKER).is_file()


def test_render_into_a_marked_kit_updates_only_its_own_files(here):
    assert run("build", "my-game").exit_code == 0
    kit = here / "output" / "my-game"
    (kit / "my-notes.txt").write_text("print on 160 g/m2\n")
    game_yaml = here / "my-game" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace('name: "My Game"', 'name: "Renamed"'))
    before = tree(kit)
    result = render_into(kit)
    assert result.exit_code == 0, result.output
    after = tree(kit)
    changed = sorted(k for k in after if after[k] != before.get(k))
    assert changed == ["cards-market.pdf"]  # the game's new name is on the cards
    assert set(after) == set(before)  # the notes and the other components are still there


def test_build_game_refuses_a_foreign_folder_without_writing(here):
    """The library call checks too, not only the command."""
    game = load_game(here / "my-game").game
    paths, diags = build_game(game, here)  # the folder holding the game, notes and all
    assert paths == [] and [d.code for d in diags if d.is_error] == ["PNP-R053"]
    paths, diags = build_game(game, here / "my-game" / "kit")
    assert paths == [] and [d.code for d in diags if d.is_error] == ["PNP-R054"]
    assert not (here / "my-game" / "kit").exists()


# --------------------------------------------------------------------------- reports and logs
# `simulate --report/--log`, `sweep --report` and `scenario --log` never write onto a file the
# game is made of (its YAML, rules module, rules schema, rulesheet or .schemas), nor onto the game
# folder itself; any other path, inside the game folder too, is allowed.


def scenario_file(folder: Path) -> Path:
    from pnp.paths import SCHEMAS

    schema = os.path.relpath(SCHEMAS / "scenario.schema.json", folder)
    path = folder / "opening.yaml"
    path.write_text(f"# yaml-language-server: $schema={schema}\nname: the opening\n"
                    "game: my-game\nplayers: 2\nexpect:\n  - after: pregame\n"
                    "    players:\n      - counters: {G: 0}\n")
    return path


@pytest.mark.parametrize("args", [
    ("simulate", "my-game", "--games", "2", "--report", "my-game/stats.yaml"),
    ("simulate", "my-game", "--games", "2", "--log", "my-game/rules.py"),
    ("simulate", "my-game", "--games", "2", "--report", "my-game/.schemas/deck.schema.json"),
    ("simulate", "my-game", "--games", "2", "--log", "my-game/layouts/new.yaml"),  # not yet there
    ("sweep", "my-game", "--games", "2", "--report", "my-game/game.yaml"),
], ids=lambda a: f"{a[0]} {a[-2]} {a[-1]}")
def test_a_report_or_log_onto_the_game_is_refused(here, args):
    before = tree(here)
    result = run(*args)
    refused(result, "PNP-R056")
    assert tree(here) == before


def test_a_report_onto_a_rulesheet_source_is_refused(here):
    sheet = here / "my-game" / "rulesheet"
    sheet.mkdir()
    (sheet / "01-rules.md").write_text("# Rules\n\nRoll and move.\n")
    before = tree(here)
    refused(run("simulate", "my-game", "--games", "2", "--report", sheet / "02-report.md"),
            "PNP-R056")
    assert tree(here) == before


def test_a_log_through_a_link_onto_a_game_file_is_refused(here):
    (here / "games.jsonl").symlink_to(here / "my-game" / "stats.yaml")
    before = tree(here)
    refused(run("simulate", "my-game", "--games", "2", "--log", "games.jsonl"), "PNP-R056")
    assert tree(here) == before


def test_a_report_and_log_inside_the_game_folder_are_allowed(here):
    result = run("simulate", "my-game", "--games", "2", "--report", "my-game/report.pdf",
                 "--log", "my-game/logs/games.jsonl")
    assert result.exit_code == 0, result.output
    assert (here / "my-game" / "report.pdf").read_bytes().startswith(b"%PDF")
    assert (here / "my-game" / "logs" / "games.jsonl").stat().st_size > 0
    assert run("validate", "my-game", "--strict").exit_code == 0  # the game is still whole


def test_scenario_logs_into_the_game_folder_itself_are_refused(here):
    scenario = scenario_file(here)
    assert run("scenario", scenario).exit_code == 0
    before = tree(here)
    refused(run("scenario", scenario, "--log", "my-game"), "PNP-R056")
    assert tree(here) == before
    result = run("scenario", scenario, "--log", "my-game/logs")  # a folder of its own is fine
    assert result.exit_code == 0, result.output
    assert (here / "my-game" / "logs" / "opening.jsonl").is_file()
