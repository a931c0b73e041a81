"""Soak: many games of a bot in every cell (player count × variant), every invariant checked.

Issue 20 asks that the mcts bot play 500 games of every bundled game at every player count and
variant with no crash, no timeout and no broken invariant. A cell costs minutes to hours, so
the matrix takes many sessions: this script runs each cell as its own `pnp simulate ...
--invariants all --skill none --format json` process (what a user would run; a crash in one
cell cannot take the others down), keeps each cell's report as DIR/GAME-P-VARIANT.json
(written under a temporary name and renamed only when the run ended), and skips cells whose
report is already there, so a stopped soak picks up where it stopped. It prints one line per
cell and, at the end, a table of every cell in DIR; `--summary` prints only the table, and
`--markdown` only a Markdown table of where the named games stand, a line per player count
(the one docs/simulate.md shows).

`--estimates DIR` reads a shorter pass of the same cells kept in DIR (say `--games 20`): the
cells still to play are played cheapest first by its cost a game (so more of them finish
before a long run is stopped), and `--markdown` ends with how many cells are left and about
how many CPU hours they will take.

`--ledger FILE` keeps a line per finished cell in FILE (JSON Lines: the cell's verdict, its
outcome counts, the commit that played it and the day), small enough to commit beside the
code. A cell the ledger holds for the same games, seed and line-up is not played again, and
`--summary` and `--markdown` count the ledger's cells with DIR's, so a soak spread over
several machines keeps its record when a machine's folder is gone (DIR's full reports are for
reading one cell; the ledger is the record the docs' table is built from). `--again` plays
the named cells even so, after a fix: the new report replaces the old and the new ledger line
wins over the old, which stays in the ledger's history.

The line-up is `mcts:1` in every seat unless `--bots` says otherwise. A game whose game.yaml
names its own self-play bots (`selfplay:`, a game without chance) gets `mcts:1` against those
bots instead, as the game's own report plays them (while `mcts:1` kept greedy's first tied
option, it played one such game 500 times in every seat).

`--one-seat BOT` seats BOT in one seat and the game's own opponents (greedy, or the game's
self-play bots) in every other, each seat in turn: a deeper pass for a bot whose costly paths
one iteration never reaches (`--one-seat mcts:32 --games 1`: one game with the bot in each
seat, at the default budget, so its tree grows and its tests decide).

Exit code: 0 when every cell in the table finished clean (no crash, no timeout, no violation,
not one game repeated); 1 when any did not, or a cell could not be played (its error is in
the table and in DIR/GAME-P-VARIANT.err). Usage:

    python benchmarks/soak.py GAME [GAME ...] --out DIR [--players 2,3] [--variant base,a]
        [--games 500] [--bots mcts:1 | --one-seat mcts:32] [--seed 1] [--workers 1]
        [--estimates DIR] [--ledger FILE] [--again] [--summary | --markdown]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from datetime import UTC, datetime
from math import inf
from pathlib import Path
from typing import Any

from pnp.commands.common import load_or_exit


def cells(game: str, players: list[int] | None, variants: list[str] | None,
          one_seat: str | None = None) -> tuple[str, list[tuple[int, str, str]]]:
    """GAME's id and every (player count, variant, default line-up) of it the options ask for
    (default: all of them). With `one_seat`, the line-up is that bot in one seat and the
    game's own opponents in the others."""
    definition = load_or_exit(game).game
    return definition.id, cells_of(definition, players, variants, one_seat)


def cells_of(definition: Any, players: list[int] | None, variants: list[str] | None,
             one_seat: str | None = None) -> list[tuple[int, str, str]]:
    """cells() for a game definition already loaded. A player count the game does not take
    is left out with a note on stderr (several games share one --players: 6 is a count of
    Ancient Civilizations, not a failed cell of The Ancient World in the ledger); a variant
    it lacks stays a cell, and fails loudly, since a misspelt variant is the user's to fix; a
    variant written for other player counts is no cell at those counts."""
    counts = list(range(definition.players_min, definition.players_max + 1))
    if players:
        lacks = [str(p) for p in players if p not in counts]
        if lacks:
            print(f"soak: {definition.name} takes {counts[0]} to {counts[-1]} players: "
                  f"{', '.join(lacks)} left out", file=sys.stderr, flush=True)
        counts = [p for p in players if p in counts]
    names = variants or ["base", *sorted(definition.variants)]
    own = list(definition.selfplay.bots) if definition.selfplay is not None else []
    wanted = []
    for p in counts:
        if one_seat is not None:
            others = own or ["greedy"]
            bots = ",".join([one_seat, *(others[i % len(others)] for i in range(p - 1))])
        else:  # mcts:1 everywhere; a game without chance also seats its own (varied) bots
            bots = ",".join(["mcts:1", *own])
        wanted += [(p, v, bots) for v in names if _written_for(definition, v, p)]
    return wanted


def _written_for(definition: Any, variant: str, players: int) -> bool:
    """Whether each variant of `variant` ('a+b') that the game has is written for `players`
    (game.yaml `players:` under the variant); not a cell otherwise, as sweep leaves it out."""
    return all(definition.variants[v].plays_with(players)
               for v in variant.split("+") if v in definition.variants)


def report_name(game_id: str, players: int, variant: str) -> str:
    """The file a cell's report is kept in, in the soak's folder and in an --estimates one."""
    return f"{game_id}-{players}-{variant}.json"


def run_cell(path: Path, game: str, players: int, variant: str, bots: str, games: int,
             seed: int, workers: int) -> dict[str, Any] | None:
    """Play one cell in its own process; keep its report (or what went wrong) at `path`.
    None when the process was stopped by a signal: nothing is kept, the cell runs again."""
    command = [sys.executable, "-m", "pnp", "simulate", game, "--players", str(players),
               "--bots", bots, "--games", str(games), "--seed", str(seed),
               "--workers", str(workers), "--invariants", "all", "--skill", "none",
               "--format", "json"]
    if variant != "base":
        command += ["--variant", variant]
    commit = _commit()  # the code the cell runs: read as it starts, not when it ends
    start = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, cwd=path.parent)
    wall = time.monotonic() - start
    path.with_suffix(".err").write_text(done.stderr)
    if done.returncode < 0:
        return None
    try:
        record = json.loads(done.stdout)
    except ValueError:
        last = done.stderr.strip().splitlines()[-1:] or ["no output"]
        record = {"game": path.name.rsplit(f"-{players}-", 1)[0], "players": players,
                  "variant": variant,
                  "error": f"exit {done.returncode}: {last[0]}"}
    record["soak"] = {"exit": done.returncode, "wall_seconds": round(wall, 1), "bots": bots,
                      "commit": commit}
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(record))
    temporary.replace(path)
    return record


def ledger_line(record: dict[str, Any], seed: int) -> dict[str, Any]:
    """What the ledger keeps of a cell's report: enough for verdict() and the tables, the
    first violations to start from, and where and when it was played."""
    keep = {k: record[k] for k in ("game", "players", "variant", "games", "seconds", "error",
                                   "outcomes", "soak") if k in record}
    keep["seed"] = seed
    if "seats" in record:
        keep["seats"] = [{"win_rate": s["win_rate"]} for s in record["seats"]]
        keep["lineup"] = {"bots": record["lineup"]["bots"]}
        keep["violations"] = record["violations"][:3]
        keep["violation_count"] = len(record["violations"])
    keep["commit"] = record["soak"]["commit"]
    keep["day"] = datetime.now(UTC).date().isoformat()
    return keep


def _commit() -> str:
    """The commit of the pnp checkout that played the cell (+ when it had changes), or pnp's
    version where pnp is not a checkout."""
    import pnp
    here = Path(pnp.__file__).resolve().parent
    try:
        head = subprocess.run(["git", "-C", str(here), "rev-parse", "--short=12", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(here), "status", "--porcelain", "--", "."],
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return f"pnp {pnp.__version__}"
    return head + ("+" if dirty else "")


def read_ledger(ledger: Path | None, games: int | None = None) -> dict[str, dict[str, Any]]:
    """The ledger's cells by report name (the last line of a cell wins), only those of
    `games` games when it is given; {} without a ledger or before its first line."""
    cells: dict[str, dict[str, Any]] = {}
    try:
        text = ledger.read_text() if ledger is not None else ""
    except FileNotFoundError:
        return cells
    for line in text.splitlines():
        try:
            record = json.loads(line)
            name = report_name(record["game"], record["players"], record["variant"] or "base")
        except (ValueError, KeyError, TypeError):
            continue  # a line cut short by a stop: that cell plays again
        if games is None or record.get("games") == games:
            cells[name] = record
    return cells


def kept(out: Path, ledger: Path | None, games: int | None) -> dict[str, dict[str, Any] | None]:
    """Every cell with a record: the ledger's, then DIR's full reports over them (None for a
    report that cannot be read: played, not clean)."""
    records: dict[str, dict[str, Any] | None] = dict(read_ledger(ledger, games))
    for path in sorted(out.glob("*.json")) if out.is_dir() else []:
        try:
            records[path.name] = json.loads(path.read_text())
        except ValueError:
            records[path.name] = None
    return records


def append_ledger(ledger: Path, record: dict[str, Any], seed: int) -> None:
    """Add the cell's line; after a line a stop cut short (no newline) on a line of its own,
    or the two would read as one broken line and this cell would be lost too."""
    cut = ledger.exists() and ledger.stat().st_size > 0 and \
        ledger.read_bytes()[-1:] != b"\n"
    with ledger.open("a") as f:
        if cut:
            f.write("\n")
        f.write(json.dumps(ledger_line(record, seed), sort_keys=True) + "\n")


def verdict(record: dict[str, Any]) -> tuple[bool, str]:
    """Whether a cell finished clean, and its table line."""
    name = (f"{record.get('game')} {record.get('players')}p "
            f"{record.get('variant') or 'base'}")
    if "error" in record:
        return False, f"{name}: FAILED {record['error']}"
    o = record["outcomes"]
    seats = "/".join(f"{round(100 * s['win_rate'])}" for s in record["seats"])
    bots = ",".join(dict.fromkeys(record["lineup"]["bots"]))
    problems = [f"{n} {label}" for n, label in ((o["crashed"], "crashed"),
                                                (o["timeouts"], "timeouts"),
                                                (record.get("violation_count",
                                                            len(record["violations"])),
                                                 "violations"))
                if n]
    if o["all_alike"]:
        problems.append("every game alike (use bots that vary)")
    ended = o["completed"] + o.get("all_eliminated", 0)
    line = (f"{name} [{bots}]: {record['games']} games, {o['completed']} completed"
            + (f", {o['all_eliminated']} all eliminated" if o.get("all_eliminated") else "")
            + f"; seats {seats}%; {record.get('seconds', 0):.1f} s")
    if ended + o["crashed"] + o["timeouts"] != record["games"]:
        problems.append("games unaccounted for")
    return not problems, line + ("; " + ", ".join(problems) if problems else "; clean")


def table(out: Path, ledger: Path | None = None, games: int | None = None) -> bool:
    """Print every cell kept in `out` (and in the ledger); True when all are clean."""
    clean = True
    for name, record in sorted(kept(out, ledger, games).items()):
        try:
            if record is None:  # cut short
                raise json.JSONDecodeError("cut short", "", 0)
            ok, line = verdict(record)
        except (ValueError, KeyError, TypeError) as e:  # not a report soak.py wrote
            ok, line = False, f"{name}: FAILED unreadable report ({e.__class__.__name__})"
        clean &= ok
        print(("   " if ok else "!! ") + line)
    return clean


def markdown(out: Path, games: list[str], estimates: Path | None = None,
             count: int = 500, ledger: Path | None = None) -> None:
    """A line per game and player count: how many of its cells have a report in `out`, how
    many of those are clean, the games that ended with every player out, and what is left;
    with `estimates`, a last line with the cells left and their CPU hours at `count` games."""
    left_cells: list[str] = []
    records = kept(out, ledger, count)
    print("| game | players | cells soaked (of all) | clean | games ended with every player "
          "out | not yet soaked |")
    print("|---|---|---|---|---|---|")
    for game in games:
        definition = load_or_exit(game).game
        name, label, wanted = definition.id, definition.name, cells_of(definition, None, None)
        for players in dict.fromkeys(p for p, _, _ in wanted):
            variants = [v for p, v, _ in wanted if p == players]
            done = clean = out_all = 0
            missing = []
            for variant in variants:
                cell = report_name(name, players, variant)
                if cell not in records:
                    missing.append(variant)
                    left_cells.append(cell)
                    continue
                record = records[cell] or {}  # None: cut short, played, not clean
                done += 1
                try:
                    clean += verdict(record)[0]
                    out_all += record["outcomes"].get("all_eliminated", 0)
                except (KeyError, TypeError, AttributeError):  # a failed or unreadable cell
                    pass
            left = "all" if not done else ", ".join(missing) or "—"
            print(f"| {label} | {players} | {done} of {len(variants)} | {clean} | {out_all} "
                  f"| {left} |")
    if estimates is not None:
        hours = [cell_hours(estimates, name, count) for name in left_cells]
        known = [h for h in hours if h is not None]
        unknown = len(hours) - len(known)
        n = len(left_cells)
        print(f"\n{n} cell{'' if n == 1 else 's'} left, about {sum(known):.1f} CPU hours at {count} "
              f"games by the runs in {estimates}"
              + (f" ({unknown} of them without a run there)" if unknown else ""))


def cell_hours(estimates: Path, name: str, games: int) -> float | None:
    """CPU hours the cell whose report would be named `name` is expected to take for
    `games` games, by its run kept in `estimates` (seconds a game); None where none is kept."""
    try:
        record = json.loads((estimates / name).read_text())
        return record["seconds"] / record["games"] * games / 3600
    except (OSError, ValueError, KeyError, TypeError, ZeroDivisionError):
        return None


def split(values: list[str] | None) -> list[str] | None:
    return [v for item in values for v in item.split(",") if v] if values else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="+", metavar="GAME")
    ap.add_argument("--out", type=Path, required=True, help="the folder the cells' reports go to")
    ap.add_argument("--players", action="append", help="player counts (default: every one)")
    ap.add_argument("--variant", action="append", help="variants, 'base' for none "
                    "(default: base and every variant)")
    ap.add_argument("--games", type=int, default=500, dest="count")
    which = ap.add_mutually_exclusive_group()
    which.add_argument("--bots", help="the line-up (default: mcts:1, see above)")
    which.add_argument("--one-seat", metavar="BOT",
                       help="BOT in one seat, the game's own opponents in the others")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    show = ap.add_mutually_exclusive_group()
    show.add_argument("--summary", action="store_true", help="print the table, play nothing")
    show.add_argument("--markdown", action="store_true",
                      help="print a Markdown table of the games' cells, play nothing")
    ap.add_argument("--estimates", type=Path, metavar="DIR",
                    help="a shorter pass of the same cells: play the cheapest first, and "
                    "--markdown says the CPU hours left")
    ap.add_argument("--ledger", type=Path, metavar="FILE",
                    help="a line per finished cell, kept across machines (JSON Lines)")
    ap.add_argument("--again", action="store_true",
                    help="play the named cells even when kept (after a fix: the new "
                    "report and ledger line replace the old)")
    args = ap.parse_args()
    players = [int(p) for p in split(args.players) or []] or None
    if args.markdown:
        markdown(args.out, args.games, args.estimates, args.count, args.ledger)
        return
    args.out.mkdir(parents=True, exist_ok=True)
    if not args.summary:
        todo = []
        for game in args.games:
            if Path(game).is_dir():  # a game folder: the cells run in the report folder
                game = str(Path(game).resolve())
            name, wanted = cells(game, players, split(args.variant), args.one_seat)
            todo += [(game, name, p, variant, bots) for p, variant, bots in wanted]
        if args.estimates is not None:  # cheapest first; a cell without a run there last
            def cost(cell: tuple) -> float:
                hours = cell_hours(args.estimates, report_name(*cell[1:4]), args.count)
                return inf if hours is None else hours
            todo.sort(key=cost)
        ledger = read_ledger(args.ledger, args.count)  # cells played before this run
        for game, name, p, variant, bots in todo:
            path = args.out / report_name(name, p, variant)
            line = ledger.get(path.name)
            if args.again:
                pass  # after a fix: the new report replaces the old, the ledger's last line wins
            elif path.exists():  # played already (by an earlier run, or one running beside)
                continue
            elif line and line.get("seed") == args.seed and \
                    line.get("soak", {}).get("bots") == (args.bots or bots):
                continue  # played on another machine, or before this folder was emptied
            record = run_cell(path, game, p, variant, args.bots or bots, args.count,
                              args.seed, args.workers)
            if record is not None and args.ledger is not None:
                append_ledger(args.ledger, record, args.seed)
            print("   " + (verdict(record)[1] if record else
                           f"{name} {p}p {variant}: stopped by a signal, not kept"),
                  flush=True)
    print(f"every cell in {args.out}" + (f" and {args.ledger}" if args.ledger else "") + ":")
    sys.exit(0 if table(args.out, args.ledger, args.count if args.ledger else None) else 1)


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:  # the cell in play keeps nothing; the finished ones stay
        print("stopped: the finished cells are kept, the next run plays the rest",
              file=sys.stderr)
        sys.exit(130)
