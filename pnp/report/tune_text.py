"""The text of a `pnp tune` document (pnp/engine/tune.py): the search in a few lines, the
confirmation run base against tuned on the same fresh seeds, and the variant block to paste."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pnp.engine.findings import num, pct, points, seat_name


def _ci(ci: Sequence[float]) -> str:
    return f"{pct(ci[0])}–{pct(ci[1])}"


def _values(values: Mapping[str, Any]) -> str:
    """Each value by the last two steps of its path: extra_coins_by_seat/1 = 0."""
    return ", ".join(f"{'/'.join(path.split('/')[-2:])} = {v}" for path, v in values.items())


def _seats(side: Mapping[str, Any]) -> str:
    return "  ".join(f"{seat_name(s)}: {pct(s['win_rate'])} [{_ci(s['ci95'])}]"
                     + ("" if s["inside"] else " ×") for s in side["seats"])


def render_tune_text(doc: Mapping[str, Any]) -> str:
    """The report a designer reads; `× ` marks a seat whose 95% interval misses the fair share."""
    s, c = doc["search"], doc["confirmation"]
    base, tuned = c["base"], c["tuned"]
    lines = [
        f"{doc['game']} ({doc['variant'] or 'base rules'}): tune {len(doc['params'])} "
        f"parameter{'s' if len(doc['params']) != 1 else ''} toward "
        f"{', '.join(t['label'] for t in doc['targets'])}",
        f"  {doc['players']} players, bots {','.join(doc['bots'])}, seed {doc['seed']}; "
        f"{doc['optimiser']['name']}: {s['evaluated']} of {s['space']} candidates evaluated"
        f"{' (every one)' if s['exhausted'] else ''}, {doc['games_per_candidate']} games each "
        f"on the same seeds",
        "",
        "Parameters",
    ]
    for p in doc["params"]:
        vals = p["values"]
        shown = (f"{vals[0]}..{vals[-1]}" if len(vals) > 3 and all(
            isinstance(v, int) for v in vals) and vals == list(range(vals[0], vals[-1] + 1))
            else ", ".join(map(str, vals)))
        best = doc["best"]["values"][p["path"]]
        lines.append(f"  {p['path']}: {shown} (base {p['base']}, best {best})")
    lines += ["", "Search (same seeds for every candidate; loss 0 = every target met)",
              f"  base    loss {s['base']['loss']:.3f}  {_values(s['base']['values'])}"]
    for i, row in enumerate(s["ranked"], 1):
        lines.append(f"  #{i:<5} loss {row['loss']:.3f}  model {row['estimate']:.3f}  "
                     f"{_values(row['values'])}")
    for b in doc["broken"]:
        lines.append(f"  broken  {_values(b['values'])}: {b['why']}")
    sel = doc["selection"]
    if sel["finalists"]:
        lines += ["", f"Finalists and the base: {sel['games']} more games each (seed "
                      f"{sel['seed']}), the lowest loss goes on"]
        for row in sel["finalists"]:
            mark = "base  " if row["values"] == s["base"]["values"] else "      "
            lines.append(f"  {mark}loss {row['loss']:.3f}  {_values(row['values'])}"
                         + (f"  broken: {row['broken']}" if row.get("broken") else ""))
    lines += ["", f"Confirmation: {c['games']} fresh games (seed {c['seed']}), base and tuned on "
                  f"the same seeds",
              f"  fair share {pct(tuned['fair_share'])}",
              f"  seats   base   {_seats(base)}"]
    if doc["best"]["same_as_base"]:  # nothing tuned: no second row of the same games
        lines.append("          tuned  the base values (no candidate beat them)")
    else:
        lines.append(f"          tuned  {_seats(tuned)}")
        seats = {s["seat"]: s for s in tuned["seats"]}
        lines.append("          tuned − base (paired): " + "  ".join(
            f"{seat_name(seats[d['seat']])}: {points(d['diff'])} [{d['ci95'][0] * 100:+.1f}, "
            f"{d['ci95'][1] * 100:+.1f}]" for d in c["seat_differences"]))
    lines.append(f"  turns   base {num(base['turns']['mean'])}, tuned {num(tuned['turns']['mean'])}"
                 f"; finish rate base {pct(base['finish_rate'])}, tuned "
                 f"{pct(tuned['finish_rate'])}")
    for i, t in enumerate(doc["targets"]):
        lines.append(f"  target  {t['label']}: loss base {base['losses'][i]:.3f}, tuned "
                     f"{tuned['losses'][i]:.3f}")
    for pb, pt in zip(base["measures"].get("picks", ()), tuned["measures"].get("picks", ()),
                      strict=True):
        rate = lambda p: "never picked" if p["win_rate"] is None else pct(p["win_rate"])  # noqa: E731
        lines.append(f"  picked  '{pt['option']}' at '{pt['at']}': pickers won base {rate(pb)} "
                     f"({pb['picked_games']} seat-games), tuned {rate(pt)} "
                     f"({pt['picked_games']})")
    lines += ["", "Verdict"]
    lines.append("  " + verdict(doc))
    over = doc["override"]
    if over.get("proposed", True):
        lines += ["", "Proposed variant (paste the item under variants: in game.yaml; "
                      "play it with --variant " + over["id"] + "):", ""]
        lines += ["  " + line if line else "" for line in over["yaml"].rstrip().split("\n")]
    else:
        lines += ["", f"No variant proposed: {over['why_not']}."]
        if not doc["best"]["same_as_base"]:
            lines.append("  The tuned values, to search on from (not to paste): "
                         + _values(over["variant"]["overrides"]))
    return "\n".join(lines) + "\n"


def _seat_list(seats: Sequence[Mapping[str, Any]]) -> str:
    """'seat 3', 'seats 1, 3', 'seat 4 (Persians)'."""
    return f"seat{'s' if len(seats) != 1 else ''} {', '.join(map(seat_name, seats))}"


def verdict(doc: Mapping[str, Any]) -> str:
    """A few sentences: did the tuned values meet the targets on the fresh seeds, and did any
    seat's rate really move (its paired interval leaves out 0) or is the gain within noise?"""
    c = doc["confirmation"]
    base, tuned = c["base"], c["tuned"]
    if (doc.get("search") or {}).get("inert"):
        variant = f" in the variant {doc['variant']}" if doc.get("variant") else ""
        return (f"every candidate played the base values' very games, game for game: the "
                f"values tried changed nothing that was played. Is each path read at "
                f"{doc['players']} players{variant}? (A player count with a list of its own "
                f"reads that list, not the general one.) The base values stand.")
    if doc["best"]["same_as_base"]:
        return ("no candidate beat the base values on the search's games or, played again, on "
                "the finalists'; the base values stand.")
    better = "lower" if tuned["loss"] < base["loss"] else (
        "not lower: the search's gain did not hold on fresh games; keep the base values, or "
        "search again with more --games")
    text = (f"on fresh seeds the tuned values' loss is {tuned['loss']:.3f} against the base's "
            f"{base['loss']:.3f} ({better}).")
    if any(t["target"] == "seats" for t in doc["targets"]):
        row = {s["seat"]: s for s in tuned["seats"]}
        missed = [s for s in base["seats"] if not s["inside"]]
        if tuned["seats_inside"]:
            text += " Every seat's 95% interval holds the fair share (base: " + (
                f"{_seat_list(missed)} did not)." if missed else "so did every seat).")
        else:
            out = [s for s in tuned["seats"] if not s["inside"]]
            text += f" {_seat_list(out).capitalize()} still miss{'es' if len(out) == 1 else ''}" \
                    " the fair share."
        if tuned["seats_flagged"]:
            flagged = [row[n] for n in tuned["seats_flagged"]]
            text += f" The seat test still flags {_seat_list(flagged)}."
        moved = [d for d in c["seat_differences"] if d["ci95"][0] > 0 or d["ci95"][1] < 0]
        if moved:
            text += " Paired with the base game by game, " + ", ".join(
                f"seat {seat_name(row[d['seat']])} {'gains' if d['diff'] > 0 else 'loses'} "
                f"{abs(d['diff']) * 100:.1f} points" for d in moved) + (
                "; the other seats' changes are within noise." if len(moved) < len(
                    c["seat_differences"]) else ".")
        else:
            text += (f" But no seat's paired difference leaves out 0: on {c['games']} games the "
                     "tuned values cannot be told from the base seat by seat, so the change is "
                     "within noise (try more --confirm-games, or a wider range).")
    return text
