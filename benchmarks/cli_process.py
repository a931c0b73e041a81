"""Whole-process CPU of the commands a designer runs most, beside `python -c pass`.

Each round runs every command once, in turn (interleaved), and takes the child's user + system
CPU from `os.wait4`; the figures are min and median over the rounds. Targets (issue 26):
`pnp --help` <= 0.15 s, `pnp validate ancient-civilizations` <= 0.8 s.

    python benchmarks/cli_process.py [--rounds 7] [--against DIR]

`--against DIR` runs every command in another source tree too (e.g. main unpacked with
`git archive main | tar -x -C /tmp/base`), in turn with this one, by the same interpreter:
`python -m pnp` imports pnp from the directory it runs in.
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
    ap.add_argument("--against", type=Path, metavar="DIR",
                    help="another source tree to run the same commands in, interleaved")
    args = ap.parse_args()
    trees = {"": Path(__file__).resolve().parent.parent}
    if args.against is not None:
        trees = {"this: ": trees[""], f"{args.against}: ": args.against.resolve()}
    runs = [(f"{label}{name}", argv, cwd) for name, argv in COMMANDS.items()
            for label, cwd in trees.items()]
    times: dict[str, list[float]] = {label: [] for label, _, _ in runs}
    for _, argv, cwd in runs:  # warm the file cache and the bytecode once
        cpu_seconds(argv, cwd)
    for _ in range(args.rounds):
        for label, argv, cwd in runs:
            times[label].append(cpu_seconds(argv, cwd))
    for label, values in times.items():
        name = label.rsplit(": ", 1)[-1]
        target = TARGETS.get(name)
        verdict = "" if target is None else (
            f" target <= {target} s: {'met' if min(values) <= target else 'NOT met'}")
        print(f"{label}: cpu_min={min(values):.3f} s cpu_median={statistics.median(values):.3f} s"
              f"{verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
