"""Whole-process CPU of the commands a designer runs most, beside `python -c pass`.

Each round runs every command once, in turn (interleaved), and takes the child's user + system
CPU from `os.wait4`; the figures are min and median over the rounds. Targets (issue 26):
`pnp --help` <= 0.15 s, `pnp validate ancient-civilizations` <= 0.8 s.

    python benchmarks/cli_process.py [--rounds 7]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

PNP = [sys.executable, "-m", "pnp"]
COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "pnp --version": [*PNP, "--version"],
    "pnp --help": [*PNP, "--help"],
    "pnp validate ancient-civilizations": [*PNP, "validate", "ancient-civilizations"],
}
TARGETS = {"pnp --help": 0.15, "pnp validate ancient-civilizations": 0.8}


#: children may write and read bytecode as an installed pnp does (pip compiles a wheel's
#: modules); a shell with PYTHONDONTWRITEBYTECODE set would time compiling every module
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def cpu_seconds(argv: list[str], cwd: Path) -> float:
    """User + system CPU of one child process run to its end."""
    proc = subprocess.Popen(argv, cwd=cwd, env=CHILD_ENV, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} exited {proc.returncode}")
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    cwd = Path(__file__).resolve().parent.parent
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for argv in COMMANDS.values():  # warm the file cache and the bytecode once
        cpu_seconds(argv, cwd)
    for _ in range(args.rounds):
        for name, argv in COMMANDS.items():
            times[name].append(cpu_seconds(argv, cwd))
    for name, values in times.items():
        target = TARGETS.get(name)
        verdict = "" if target is None else (
            f" target <= {target} s: {'met' if min(values) <= target else 'NOT met'}")
        print(f"{name}: cpu_min={min(values):.3f} s cpu_median={statistics.median(values):.3f} s"
              f"{verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
