"""Dice inside the data's limits (99 dice of 1000 sides) never make the Ancient Civilizations
engine enumerate sides**count combinations: its estimates go by distributions of sums
(pnp/engine/dice.py), so games with such dice play in seconds and a few hundred MB.

Issue 28: `die: 12D6` (2.2e9 combinations), a war roll of 99D1000, a war loss of M-12D6 or a
movement die of 3D1000 validated clean, then every simulated game ran out of memory."""

from __future__ import annotations

import itertools
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pnp.engine.dice import add_dice, compare, distribution

GAME = Path(__file__).parent.parent / "cards" / "ancient-civilizations"

#: each run may take this much address space (the 12D6 list alone wanted 17 GB)
MEMORY = 1_500_000_000

PLAY = textwrap.dedent("""
    import resource, sys, time
    from pathlib import Path
    resource.setrlimit(resource.RLIMIT_AS, ({memory}, {memory}))
    from pnp.data.game import load_game
    from pnp.engine.selfplay import SimConfig, run_simulation
    loaded = load_game(Path(sys.argv[1]))
    assert loaded.ok, [d.message for d in loaded.diagnostics if d.severity == "error"]
    started = time.process_time()
    sim = run_simulation(loaded.game, SimConfig(games=2, players=3, seed=1,
                                                bots=("random", "greedy")))
    print("violations", dict(sim.aggregate.violations))
    print("seconds", time.process_time() - started)
""")


def with_rule(tmp_path: Path, old: str, new: str) -> Path:
    folder = tmp_path / GAME.name
    shutil.copytree(GAME, folder)
    game_yaml = folder / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    game_yaml.write_text(text.replace(old, new), encoding="utf-8")
    return folder


@pytest.mark.parametrize("old, new", [
    ("    die: 1D6\n", "    die: 12D6\n"),           # movement: 6**12 = 2.2e9 combinations
    ("    die: 1D6\n", "    die: 3D1000\n"),         # movement: 1e9 combinations
    ('      roll: 2D6\n', '      roll: 99D1000\n'),  # the war roll: 1000**99
    ('      loss: "M-1D6"\n', '      loss: "M-12D6"\n'),  # the war loss: 6**12
])
def test_large_dice_play_in_seconds_and_bounded_memory(tmp_path, old, new):
    folder = with_rule(tmp_path, old, new)
    script = PLAY.format(memory=MEMORY)
    done = subprocess.run([sys.executable, "-c", script, str(folder)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "MemoryError" not in done.stdout + done.stderr
    assert "violations {}" in done.stdout, done.stdout


def test_a_distribution_is_the_enumeration_counted():
    """2D6: 1/36 for 2, 6/36 for 7; 3D4 against all 64 combinations."""
    two = distribution(2, 6)
    assert two[2] == pytest.approx(1 / 36) and two[7] == pytest.approx(6 / 36)
    counted: dict[int, float] = {}
    for faces in itertools.product(range(1, 5), repeat=3):
        counted[sum(faces)] = counted.get(sum(faces), 0.0) + 1 / 64
    three = distribution(3, 4)
    assert set(three) == set(counted) == set(range(3, 13))
    assert all(three[s] == pytest.approx(p) for s, p in counted.items())


def test_a_loss_subtracts_its_dice_from_the_total():
    """5 - 1D2 is 4 or 3, even odds; 99D1000 has 98,902 sums, not 1000**99 entries."""
    assert add_dice({5: 1.0}, 1, 2, -1) == pytest.approx({4: 0.5, 3: 0.5})
    assert len(distribution(99, 1000)) <= 99 * 999 + 1


def test_comparing_two_dice():
    """1D6 against 1D6: 15/36 higher, 15/36 lower, 6/36 level."""
    assert compare(distribution(1, 6), distribution(1, 6)) == pytest.approx(
        (15 / 36, 15 / 36, 6 / 36))
