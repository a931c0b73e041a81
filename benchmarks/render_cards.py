"""Card rendering against plain reportlab (../shared/bench/reportlab_cards.py), like with like.

Every figure is CPU time (user + system) of fresh processes, pnp and reportlab interleaved
round by round, min and median over the rounds; memory is each process's peak RSS.

A generated game folder holds N text-only cards, 9 to an A4 page with crop marks, as the
baseline draws N cards 9 to an A4 page with crop marks. Two kinds of card:

    like: what the baseline draws, in pnp's own layout language (the game's
          templates/like-reportlab.yaml): a 63.5 x 88 mm card with a 0.92 grey background,
          its title 28 pt bold centred at 62 % of the card's height and a 12 pt body line
          centred at 45 %, in black, the baseline's texts. The issue's targets are read on
          these rows. What still differs: pnp embeds Bitstream Vera (TrueType; it never
          draws the 14 unembedded PDF fonts, so no Helvetica), the background runs 3 mm
          past the block's outer edges (pnp's home bleed) where the baseline shifts the left
          column's rectangle 3 mm left, pnp's crop marks start 1 mm past the bleed and run
          5 mm (the baseline's 2 mm past the block, 4 mm), and every pnp sheet prints its
          footer, a 50 mm scale bar and the card ids in the margin.
    rich: templates/cards.yaml poker-front, a richer card than the baseline's (title, cost
          with icons, type line, wrapped rules text with icons, on poker's 63.5 x 88.9 mm):
          what a designer's text deck costs, not a like-with-like figure.

Decks of 5,400 cards, one file each (a data file holds at most 4 MiB). Each kind has two cases:

    repeated: the 54 cards of the baseline's deck over and over (N/54 copies of each text, each
              copy its own card, so every card is laid out, but layout caches serve most)
    unique:   every card's texts different (nothing a cache keyed by text can serve twice);
              like: each title and body line keeps the baseline's length, the card's number
              in base 62 written over its end (a title shorter than 3 characters grows to 3,
              so 5,400 or 54,000 of them can differ); rich: the rules text gets the number

For each size, kind and case two comparisons:

    whole process: `pnp render cards GAME --out DIR` (imports, YAML, validation, build, layout,
                   drawing, the atomic write) against `python reportlab_cards.py OUT.pdf N`
    render call:   `render_deck_sheets(game)` on a game already loaded, in a fresh process
                   after its imports, against the baseline script run after importing
                   reportlab (so neither side counts imports)

Beside the 54-card whole-process rows, the import floor: a fresh process that only imports
what the standards mandate for this command (click, jsonschema, jinja2 and jinja2.sandbox,
PyYAML, reportlab.pdfgen.canvas) and does nothing, interleaved with the same rounds, as a
ratio to the baseline's whole process: the part of the 2.5x budget no pnp code can win back.

Targets (issue 26), on the like rows: 54 cards whole process <= 2.5x reportlab; render call
with every text different <= 1.5x reportlab; the whole 54,000-unique-card run <= 150 MiB peak.

Run: python benchmarks/render_cards.py [--sizes 54,5400,54000] [--kinds like,rich]
[--cases repeated,unique] [--rounds 3]
(run it with the Python of a venv holding this checkout's pnp, e.g. .venv/bin/python: the
`pnp` beside that interpreter is the one timed, whatever PATH says).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

BASELINE = Path(__file__).resolve().parents[1].parent / "shared" / "bench" / "reportlab_cards.py"
if not BASELINE.exists():
    BASELINE = Path("/work/shared/bench/reportlab_cards.py")
SCHEMAS = Path(__file__).resolve().parents[1] / "schemas"

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["Spades", "Hearts", "Diamonds", "Clubs"]
ICONS = {"Spades": "sword", "Hearts": "food", "Diamonds": "coin", "Clubs": "star"}

KINDS = ("like", "rich")
TARGETS = {("whole", "like", "repeated", 54): 2.5, ("call", "like", "unique", 5400): 1.5,
           ("call", "like", "unique", 54000): 1.5}
MEMORY_TARGET_MIB = 150

#: what the mandated libraries cost to import, nothing else (the import floor)
FLOOR = ("import click, jsonschema, jinja2, jinja2.sandbox, yaml, reportlab.pdfgen.canvas")


def base_fields() -> list[dict]:
    """The baseline's 54 cards (13 ranks of 4 suits, two jokers) as poker-front fields."""
    out = []
    for s in SUITS:
        for i, r in enumerate(RANKS):
            out.append({"name": f"{r} of {s}", "cost": f"{i % 5 + 1}{{{ICONS[s]}}}",
                        "type": f"{s} — rank {r}",
                        "text": f"When you play this card, gain {i % 3 + 1} {{coin}} and draw a "
                                f"card. If it is a {s[:-1].lower()}, gain {{{ICONS[s]}}} as well."})
    for colour in ("Red", "Black"):
        out.append({"name": f"{colour} Joker", "type": "Joker",
                    "text": "Counts as any card of your choice.",
                    "flavor": "Wild and unpredictable."})
    return out


def baseline_texts() -> list[tuple[str, str]]:
    """The baseline's 54 (title, body) pairs, in its order (reportlab_cards.py's `base`)."""
    return [(r, "of " + s) for s in SUITS for r in RANKS] + [("Joker", "Red"), ("Joker", "Black")]


DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def numbered(text: str, i: int) -> str:
    """`text` with `i` in base 62 (3 digits) written over its end: as long as `text`, or 3
    characters when it is shorter, so each of up to 238,328 cards gets its own."""
    code = ""
    for _ in range(3):
        i, d = divmod(i, 62)
        code = DIGITS[d] + code
    return text[:max(0, len(text) - 3)] + code


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


#: cards per deck file: a data file may hold at most 4 MiB, a component count at most 10,000
PER_DECK = 5400

#: the baseline's card (reportlab_cards.py: CW, CH) and where it puts its two baselines
LIKE_W_MM, LIKE_H_MM = 63.5, 88.0
LIKE_TEXTS = (("title", "bold", 28.0, 0.62), ("body", "regular", 12.0, 0.45))


def like_layout(schemas: Path) -> str:
    """The baseline's card in pnp's layout language: grey background, a centred 28 pt bold
    title with its baseline at 62 % of the card's height, a centred 12 pt body line at 45 %.

    pnp places a text box's first baseline one ascent below the box's top (valign: top), so
    each box's top is the baseline's height less the font's ascent; the box is as wide as the
    card (centred like drawCentredString) and one line tall."""
    from pnp.render import fonts  # the ascent of the font pnp will draw with

    pt = 25.4 / 72
    elements = []
    for field, style, size, at in LIKE_TEXTS:
        ascent, descent = fonts.ascent_descent(fonts.resolve_font(style))
        top = LIKE_H_MM * (1 - at) - size * ascent * pt
        height = size * 1.2 * pt + 0.2  # one line at the default leading, a little air
        text = "{{ card.name }}" if field == "title" else "{{ card.body }}"
        elements.append(
            f"      - {{id: {field}, type: text, text: \"{text}\", x: 0mm, y: {top:.3f}mm, "
            f"width: {LIKE_W_MM}mm, height: {height:.3f}mm, font: {style}, size: {size:g}pt, "
            f"min_size: {size:g}pt, wrap: false, align: center, color: black}}")
    return "\n".join([
        f"# yaml-language-server: $schema={schemas}/layout.schema.json",
        "# The baseline's card (../shared/bench/reportlab_cards.py), drawn by pnp.",
        "layouts:",
        "  - id: like-reportlab",
        f"    size: {{width: {LIKE_W_MM}mm, height: {LIKE_H_MM}mm}}",
        "    bleed: 3mm",
        "    background: '#ebebeb'",
        "    elements:", *elements]) + "\n"


def write_game(root: Path, n: int, unique: bool, kind: str = "rich") -> Path:
    """A game folder with `n` cards of `kind` (see the module docstring), in decks of at most
    PER_DECK cards, one deck file each (a multiple of 9 cards: pages break as in one long deck)."""
    case = "unique" if unique else "repeated"
    folder = root / (f"bench-{case}-{n}" if kind == "rich" else f"bench-{kind}-{case}-{n}")
    if folder.exists():
        return folder
    folder.mkdir(parents=True)
    s = SCHEMAS.resolve()
    sizes = [min(PER_DECK, n - start) for start in range(0, n, PER_DECK)]
    components = "".join(f"  - {{id: deck-{k}, name: Deck {k}, count: {size}, "
                         f"counts: 'deck:main-{k}'}}\n" for k, size in enumerate(sizes))
    (folder / "game.yaml").write_text(
        f"# yaml-language-server: $schema={s}/game.schema.json\n"
        f"id: {folder.name}\nname: Benchmark\nplayers: {{min: 2, max: 4}}\n"
        f"components:\n{components}"
        "phases:\n  - {id: draw, name: Draw Phase, track: path}\n", encoding="utf-8")
    (folder / "stats.yaml").write_text(
        f"# yaml-language-server: $schema={s}/stats.schema.json\n"
        "stats:\n  - {id: gold, name: Gold, abbreviation: G}\n", encoding="utf-8")
    (folder / "tracks.yaml").write_text(
        f"# yaml-language-server: $schema={s}/tracks.schema.json\n"
        "tracks:\n  - id: path\n    name: Path\n    spaces:\n      - {name: Start, start: true}\n"
        "      - {name: Mine, effect: G+1}\n", encoding="utf-8")
    if kind == "like":
        (folder / "templates").mkdir()
        (folder / "templates" / "like-reportlab.yaml").write_text(like_layout(s),
                                                                  encoding="utf-8")
        size, front = f"{{width: {LIKE_W_MM}mm, height: {LIKE_H_MM}mm}}", "like-reportlab"
    else:
        size, front = "poker", "poker-front"
    base = base_fields()
    texts = baseline_texts()
    i = 0
    for k, count in enumerate(sizes):
        lines = [f"# yaml-language-server: $schema={s}/deck.schema.json", "decks:",
                 f"  - id: main-{k}", f"    name: Main deck {k}", f"    size: {size}",
                 f"    front: {front}", "    cards:"]
        for _ in range(count):
            if kind == "like":
                title, body = texts[i % len(texts)]
                if unique:
                    title, body = numbered(title, i), numbered(body, i)
                f = {"name": title, "body": body}
            else:
                f = dict(base[i % len(base)])
                if unique:
                    f["text"] = f"{f['text']} Card number {i}."
            lines.append(f"      - id: card-{i}\n        name: {_quoted(f.pop('name'))}\n"
                         f"        fields:")
            lines.extend(f"          {key}: {_quoted(v)}" for key, v in f.items())
            i += 1
        (folder / f"deck-{k:02}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


#: children may write and read bytecode as an installed pnp does (pip compiles a wheel's
#: modules); a shell with PYTHONDONTWRITEBYTECODE set would time compiling every module
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run(cmd: list[str]) -> tuple[float, float, str]:
    """CPU seconds (user + system) and peak RSS (MiB) of one child process, and its output."""
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=CHILD_ENV)
        _, status, usage = os.wait4(proc.pid, 0)
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    if status != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({status}):\n{text[-2000:]}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, text


_RL_CALL = ("import sys, time, runpy; import reportlab.pdfgen.canvas, reportlab.lib.pagesizes, "
            "reportlab.lib.units; sys.argv = sys.argv[1:]; t = time.process_time(); "
            "runpy.run_path(sys.argv[0], run_name='__main__'); "
            "print('cpu', time.process_time() - t)")


def pnp_call_child(folder: str, out: str) -> None:
    """In a fresh process: load the game, then time only the render call (CPU)."""
    import time

    from pnp.data.game import load_game
    from pnp.render.sheets import render_deck_sheets

    result = load_game(folder)
    assert result.ok, [d.format_text() for d in result.diagnostics][:5]
    t = time.process_time()
    paths, diags = render_deck_sheets(result.game, paper="a4", out_dir=Path(out))
    cpu = time.process_time() - t
    assert paths and not diags, diags
    print("cpu", cpu)


def _cpu_line(text: str) -> float:
    return float(next(ln for ln in text.splitlines() if ln.startswith("cpu ")).split()[1])


def measure(folder: Path, n: int, out: Path, rounds: int, which: str,
            floor: bool = False) -> dict[str, list]:
    """Interleaved rounds of pnp and reportlab (and, with `floor`, the import floor: a process
    that imports the mandated libraries and stops); `which` is 'whole' or 'call'."""
    beside = Path(sys.executable).with_name("pnp")  # this interpreter's pnp, PATH or not
    pnp = str(beside) if beside.exists() else shutil.which("pnp") or "pnp"
    sides = ("pnp", "rl", "floor") if floor else ("pnp", "rl")
    samples: dict[str, list] = {key: [] for side in sides for key in (side, side + "_rss")}
    for k in range(-1, rounds):  # round -1 warms the file cache and writes the bytecode
        turn = k % len(sides)  # each side goes first in turn
        for side in sides[turn:] + sides[:turn]:
            kit = out / f"kit-{side}"
            shutil.rmtree(kit, ignore_errors=True)
            kit.mkdir()
            if side == "floor":
                cpu, rss, _ = run([sys.executable, "-c", FLOOR])
            elif side == "pnp" and which == "whole":
                cpu, rss, _ = run([pnp, "render", "cards", str(folder), "--out", str(kit)])
            elif side == "pnp":
                _, rss, text = run([sys.executable, __file__, "--call-child", str(folder),
                                    str(kit)])
                cpu = _cpu_line(text)
            elif which == "whole":
                cpu, rss, _ = run([sys.executable, str(BASELINE), str(kit / "rl.pdf"), str(n)])
            else:
                _, rss, text = run([sys.executable, "-c", _RL_CALL, str(BASELINE),
                                    str(kit / "rl.pdf"), str(n)])
                cpu = _cpu_line(text)
            if k >= 0:
                samples[side].append(cpu)
                samples[side + "_rss"].append(rss)
    return samples


def report(kind: str, case: str, n: int, which: str, s: dict[str, list]) -> None:
    p_min, r_min = min(s["pnp"]), min(s["rl"])
    p_med, r_med = statistics.median(s["pnp"]), statistics.median(s["rl"])
    ratio_min, ratio_med = p_min / r_min, p_med / r_med
    what = "whole process" if which == "whole" else "render call"
    line = (f"{kind:4} {case:8} {n:>6} cards, {what:13}: pnp CPU min {p_min:7.3f} s median "
            f"{p_med:7.3f} s | reportlab min {r_min:6.3f} s median {r_med:6.3f} s"
            f" | ratio min {ratio_min:5.2f} median {ratio_med:5.2f}")
    target = TARGETS.get((which, kind, case, n))
    if target is not None:
        line += f"  (target <= {target}: {'met' if ratio_med <= target else 'NOT met'})"
    print(line)
    if s.get("floor"):
        f_min, f_med = min(s["floor"]), statistics.median(s["floor"])
        print(f"{'':4} {'':8} {'':>6}        import floor : CPU min {f_min:7.3f} s median "
              f"{f_med:7.3f} s (click, jsonschema, jinja2, yaml, reportlab canvas; nothing "
              f"else) = min {f_min / r_min:5.2f} median {f_med / r_med:5.2f} of reportlab's "
              f"whole process")
    if which == "whole":
        peak = max(s["pnp_rss"])
        mem = (f"{'':4} {'':8} {n:>6} cards, peak RSS     : pnp {peak:7.1f} MiB"
               f" | reportlab {max(s['rl_rss']):6.1f} MiB")
        if n >= 54000 and case == "unique" and kind == "like":
            mem += (f"  (target <= {MEMORY_TARGET_MIB} MiB: "
                    f"{'met' if peak <= MEMORY_TARGET_MIB else 'NOT met'})")
        print(mem)
    sys.stdout.flush()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="54,5400,54000", help="card counts (default 54,5400,54000)")
    ap.add_argument("--kinds", default="like,rich",
                    help="like (the baseline's card, the targets' rows), rich (poker-front) or both")
    ap.add_argument("--cases", default="repeated,unique", help="repeated, unique or both")
    ap.add_argument("--measures", default="whole,call", help="whole, call or both")
    ap.add_argument("--rounds", type=int, default=3,
                    help="interleaved rounds per figure (default 3; 54,000 cards: at most 3)")
    ap.add_argument("--call-child", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.call_child:
        pnp_call_child(*args.call_child)
        return
    if not BASELINE.exists():
        raise SystemExit(f"baseline not found: {BASELINE}")
    kinds = args.kinds.split(",")
    if any(k not in KINDS for k in kinds):
        raise SystemExit(f"--kinds takes {', '.join(KINDS)}")
    print(f"baseline: {BASELINE}; CPU = user + system of each process; "
          f"{args.rounds} interleaved rounds; like = the baseline's card drawn by pnp (the "
          f"targets' rows), rich = poker-front, a richer card than the baseline's")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for n in (int(x) for x in args.sizes.split(",")):
            for kind in kinds:
                for case in args.cases.split(","):
                    folder = write_game(root, n, case == "unique", kind)
                    for which in args.measures.split(","):
                        rounds = min(args.rounds, 3) if n >= 54000 else args.rounds
                        floor = which == "whole" and n == 54
                        report(kind, case, n, which,
                               measure(folder, n, root, rounds, which, floor))
                    shutil.rmtree(folder)


if __name__ == "__main__":
    main()
