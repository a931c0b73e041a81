"""A build is atomic per game: a failed or killed build leaves the previous kit byte-identical."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.data.game import load_game
from pnp.render.build import build_game
from pnp.render.staging import clean_leftovers
from pnp.scaffold import scaffold

ROOT = Path(__file__).resolve().parents[1]


def kit_bytes(folder: Path) -> dict[str, bytes]:
    """Every file under the kit folder (hidden ones too) with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


@pytest.fixture()
def game_folder(tmp_path) -> Path:
    folder = tmp_path / "caravan"
    scaffold(folder)
    return folder


def test_a_build_failing_on_its_last_component_leaves_the_previous_kit_unchanged(game_folder,
                                                                                   tmp_path):
    game = load_game(game_folder).game
    out = tmp_path / "output" / game.id
    paths, diags = build_game(game, out)
    assert paths and not [d for d in diags if d.is_error]
    before = kit_bytes(out)
    assert "cards-market.pdf" in before

    # the cards are rendered last; a layout no file defines fails them after every other
    # component rendered fine (and with different bytes: the game has another name)
    deck = game.decks["market"]
    broken = replace(game, name="Renamed", decks={"market": replace(deck, front="no-such-layout")})
    paths, diags = build_game(broken, out)
    assert [d for d in diags if d.is_error and d.code == "PNP-R002"], diags
    assert paths == []
    assert kit_bytes(out) == before
    assert sorted(p.name for p in out.parent.iterdir()) == [game.id]  # no staging left


def test_a_failed_build_through_the_cli_exits_1_and_keeps_the_kit(game_folder, tmp_path):
    out = tmp_path / "out"
    assert CliRunner().invoke(main, ["build", str(game_folder), "--out", str(out)]).exit_code == 0
    before = kit_bytes(out / "caravan")
    deck = game_folder / "deck.yaml"
    deck.write_text(deck.read_text().replace("front: poker-front", "front: no-such-layout"))
    result = CliRunner().invoke(main, ["build", str(game_folder), "--out", str(out)])
    assert result.exit_code == 1
    assert kit_bytes(out / "caravan") == before


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_leftovers_of_a_dead_build_are_removed_and_a_lost_kit_is_restored(tmp_path):
    target = tmp_path / "game"
    pid = _dead_pid()
    stale = tmp_path / f".game.staging-{pid}"
    stale.mkdir()
    (stale / "half.pdf").write_bytes(b"%PDF-")
    old = tmp_path / f".game.old-{pid}"  # killed between the two renames: no kit, old one aside
    old.mkdir()
    (old / "kit.pdf").write_bytes(b"previous")
    mine = tmp_path / f".game.staging-{os.getpid()}"  # a live build's folder is left alone
    mine.mkdir()
    clean_leftovers(target)
    assert not stale.exists() and not old.exists() and mine.exists()
    assert (target / "kit.pdf").read_bytes() == b"previous"


def _build(game_folder: Path, out: Path) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "pnp", "build", str(game_folder), "--out",
                             str(out)], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def _kill_when(proc: subprocess.Popen, out: Path, written: int, deadline: float) -> None:
    """SIGKILL the build once it has written `written` new files anywhere under `out`."""
    start = time.time_ns()
    while time.monotonic() < deadline and proc.poll() is None:
        fresh = 0
        try:
            for p in out.rglob("*"):
                try:
                    fresh += p.is_file() and p.stat().st_mtime_ns >= start
                except OSError:
                    pass  # renamed or deleted while we looked
        except OSError:  # a folder (the staging one, swapped in) vanished while being listed
            continue
        if fresh >= written:
            break
        time.sleep(0.002)
    proc.send_signal(signal.SIGKILL)
    proc.wait()


def test_a_killed_build_leaves_the_previous_kit_and_the_next_build_cleans_up(game_folder,
                                                                               tmp_path):
    out = tmp_path / "out"
    assert _build(game_folder, out).wait() == 0
    previous = kit_bytes(out / "caravan")
    game_yaml = game_folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("name: \"Caravan\"", "name: \"Caravan II\""))
    assert _build(game_folder, tmp_path / "new").wait() == 0
    new = kit_bytes(tmp_path / "new" / "caravan")  # builds are deterministic: what a swap gives
    assert new != previous
    # kill at several points: after 0..5 files were written, and at fixed delays
    points = [("files", n) for n in range(6)] + [("delay", d) for d in (0.3, 0.6, 0.9)]
    interrupted = 0
    for kind, value in points:
        proc = _build(game_folder, out)
        if kind == "files":
            _kill_when(proc, out, value, time.monotonic() + 20)
        else:
            time.sleep(value)
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        now = kit_bytes(out / "caravan")
        assert now in (previous, new), (kind, value, sorted(now))  # one whole kit, never a mix
        interrupted += any(out.glob(".caravan.staging-*"))
    assert interrupted >= 1  # some kills did land mid-build, leaving staging folders behind
    assert _build(game_folder, out).wait() == 0
    assert sorted(p.name for p in out.iterdir()) == ["caravan"]  # no staging or old folders
    assert kit_bytes(out / "caravan") == new
