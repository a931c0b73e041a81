"""What `pnp tune` searches and aims at, read from options and a tune file and checked before
a game is played: every problem a Diagnostic with a code (the file's line and column, or the
option that gave it), never an exception.

Parameters are variant override paths (docs/components.md) with the values to try; a path
that names nothing is PNP-L015 with the same did-you-mean a variant gets.
"""

from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.data.game import OverrideProblem, resolve_override
from pnp.data.loader import Document, load_file
from pnp.data.schema import check_schema_line, validate_document
from pnp.diagnostics import ERROR, WARNING, Diagnostic, Position

KIND = "tune"

#: diagnostic codes of pnp tune (docs/tune.md)
NOT_A_NUMBER = "PNP-B090"  # a parameter's path names no number (a list, a text, a missing key)
EMPTY_RANGE = "PNP-B091"  # a range with no value (LO above HI, a step of 0, too many values)
BAD_TARGET = "PNP-B092"  # a target pnp cannot read, or one this game cannot measure
NO_BUDGET = "PNP-B093"  # budget, games or confirmation games below 1
NOT_A_TUNE_FILE = "PNP-B094"  # the file's schema line names another kind
OVERLAP = "PNP-B095"  # two parameters reach the same value, or a variant sets it too
BROKEN_CANDIDATE = "PNP-B096"  # a candidate that does not build, or whose games crash
SINGLE_POINT = "PNP-B097"  # every parameter has one value: nothing to search
UNKNOWN_PATH = "PNP-L015"  # the variant override checker's own code

#: at most this many values per parameter (a typo such as 0..100000 is a problem, not a plan)
MAX_VALUES = 1000

DEFAULT_BUDGET = 30
DEFAULT_GAMES = 60
DEFAULT_CONFIRM = 300

_RANGE = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*\.\.\s*(-?\d+(?:\.\d+)?)(?:\s+by\s+(\d+(?:\.\d+)?))?\s*$")
_NUMBER = re.compile(r"^\s*-?\d+(?:\.\d+)?\s*$")


@dataclass(frozen=True)
class Param:
    """One searched value: its override path, the values to try, and its value in the game."""

    path: str
    values: tuple[int | float, ...]
    base: int | float
    where: Position | None = None


@dataclass(frozen=True)
class Target:
    """One aim: `kind` seats, turns, finish or pick; `value` the figure wanted (None: the
    fair share, for seats and pick)."""

    kind: str
    value: float | None = None
    weight: float = 1.0
    option: str = ""
    at: str = ""
    where: Position | None = None

    @property
    def label(self) -> str:
        if self.kind == "seats":
            return "fair seats"
        if self.kind == "turns":
            return f"mean length {_num(self.value)} turns"
        if self.kind == "finish":
            return f"finish rate at least {_num(self.value)}"
        wanted = "the fair share" if self.value is None else _num(self.value)
        at = f" at '{self.at}'" if self.at else ""
        return f"'{self.option}'{at} win rate when picked {wanted}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"target": self.kind, "label": self.label, "weight": self.weight}
        if self.value is not None:
            out["value"] = self.value
        if self.kind == "pick":
            out.update(option=self.option, at=self.at or None)
        return out


@dataclass
class TuneSpec:
    """Everything a tune run needs besides the game; settings None until defaults apply."""

    params: list[Param] = field(default_factory=list)
    targets: list[Target] = field(default_factory=list)
    players: int | None = None
    bots: str | None = None
    variant: str | None = None
    budget: int | None = None
    games: int | None = None
    confirm_games: int | None = None
    seed: int | None = None


def _num(x: float | None) -> str:
    if x is None:
        return "?"
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _option_pos(option: str) -> Position:
    return Position(option)


# --------------------------------------------------------------------------- ranges


def parse_range(value: Any) -> tuple[tuple[int | float, ...] | None, str]:
    """The values a range names ('0..4', '0.5..2 by 0.5', '2', [0, 1, 3]), or None and why."""
    if isinstance(value, list):
        if any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in value):
            return None, "a list of values holds only numbers"
        values = tuple(dict.fromkeys(value))
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        values = (value,)
    else:
        text = str(value)
        if "," in text and all(_NUMBER.match(p) for p in text.split(",")):
            return parse_range([_number(p) for p in text.split(",")])
        if _NUMBER.match(text):
            return (_number(text),), ""
        match = _RANGE.match(text)
        if not match:
            return None, f"'{text}' is not a range: write LO..HI, LO..HI by STEP, or values A,B,C"
        lo, hi = _number(match[1]), _number(match[2])
        step = _number(match[3]) if match[3] else 1
        if step <= 0:
            return None, f"'{text}' steps by {step}: a step is above 0"
        if lo > hi:
            return None, f"'{text}' is empty: {lo} is above {hi}"
        count = math.floor((hi - lo) / step + 1e-9) + 1
        if count > MAX_VALUES:
            return None, f"'{text}' holds {count} values, over {MAX_VALUES}"
        whole = all(isinstance(x, int) for x in (lo, hi, step))
        values = tuple((lo + i * step) if whole else round(lo + i * step, 9) for i in range(count))
    if not values:
        return None, "the list of values is empty"
    if len(values) > MAX_VALUES:
        return None, f"{len(values)} values, over {MAX_VALUES}"
    return values, ""


def _number(text: str) -> int | float:
    text = str(text).strip()
    return float(text) if "." in text else int(text)


# --------------------------------------------------------------------------- targets


def parse_target_text(text: str) -> tuple[Target | None, str]:
    """A --target: 'seats', 'turns=N', 'finish=X' (at least X), 'pick:OPTION[ at WHY][=RATE]'."""
    raw = text.strip()
    if raw in ("seats", "fair-seats", "seats=fair"):
        return Target("seats"), ""
    if raw.startswith("pick:"):
        body, rate = raw[5:], None
        head, eq, tail = body.rpartition("=")
        if eq and _NUMBER.match(tail):
            body, rate = head, _number(tail)
            if not 0 <= rate <= 1:
                return None, f"'{raw}': a win rate is between 0 and 1"
        option, sep, why = body.partition(" at ")
        if not option.strip():
            return None, f"'{raw}' names no option: pick:OPTION, e.g. pick:empire-c"
        return Target("pick", rate, option=option.strip(), at=why.strip() if sep else ""), ""
    name, eq, value = raw.partition("=")
    if name in ("turns", "finish") and eq and _NUMBER.match(value):
        number = _number(value)
        if name == "turns" and number <= 0:
            return None, f"'{raw}': a game lasts more than 0 turns"
        if name == "finish" and not 0 < number <= 1:
            return None, f"'{raw}': a finish rate is above 0 and at most 1"
        return Target(name, float(number)), ""
    close = difflib.get_close_matches(name, ["seats", "turns", "finish", "pick"], n=1)
    return None, (f"unknown target '{raw}'" + (f" (did you mean {close[0]}?)" if close else ""))


TARGET_HINT = ("targets: seats (every seat wins its fair share), turns=N (mean length), "
               "finish=X (at least this share of games end normally), pick:OPTION[ at "
               "DECISION][=RATE] (that option's win rate when picked; default the fair share)")


def _target_from_yaml(item: Any) -> Target:
    if isinstance(item, str):
        return Target("seats")
    weight = float(item.get("weight", 1.0))
    if "seats" in item:
        return Target("seats", weight=weight)
    if "turns" in item:
        return Target("turns", float(item["turns"]), weight)
    if "finish" in item:
        return Target("finish", float(item["finish"]), weight)
    rate = item.get("win_rate")
    return Target("pick", None if rate is None else float(rate), weight, str(item["pick"]),
                  str(item.get("at") or ""))


# --------------------------------------------------------------------------- reading


def read_tune_file(path: Path) -> tuple[TuneSpec | None, list[Diagnostic]]:
    """A tune file, schema-checked; its params' ranges parsed (paths are checked against the
    game later, in `check`)."""
    doc, problems = load_file(path)
    diags = [d for d in problems if d.severity == ERROR]
    if doc is None or diags:
        return None, diags
    diags = [d for d in check_schema_line(doc) if d.severity == ERROR]
    if diags:
        return None, diags
    if doc.kind != KIND:
        return None, [Diagnostic(ERROR, NOT_A_TUNE_FILE, f"not a tune file: its schema line names "
                                 f"'{doc.kind}'", str(path), 1, 1,
                                 "start it with # yaml-language-server: "
                                 "$schema=<path to schemas/tune.schema.json>")]
    diags = validate_document(doc)
    if diags:
        return None, diags
    return spec_of(doc)


def spec_of(doc: Document) -> tuple[TuneSpec, list[Diagnostic]]:
    data = doc.data
    spec = TuneSpec(players=data.get("players"), bots=data.get("bots"),
                    variant=data.get("variant"), budget=data.get("budget"),
                    games=data.get("games"), confirm_games=data.get("confirm_games"),
                    seed=data.get("seed"))
    diags = []
    for key, value in data["params"].items():
        values, why = parse_range(value)
        where = doc.pos(("params", key))
        if values is None:
            diags.append(Diagnostic.at(where, ERROR, EMPTY_RANGE, f"parameter {key}: {why}",
                                       "give at least one value: LO..HI with LO at most HI"))
            continue
        spec.params.append(Param(str(key), values, 0, doc.key_pos(("params", key))))
    for i, item in enumerate(data["targets"]):
        spec.targets.append(_with_where(_target_from_yaml(item), doc.pos(("targets", i))))
    return spec, diags


def _with_where(target: Target, where: Position) -> Target:
    return Target(target.kind, target.value, target.weight, target.option, target.at, where)


def from_options(params: tuple[str, ...], targets: tuple[str, ...]
                 ) -> tuple[list[Param], list[Target], list[Diagnostic]]:
    """--param PATH=RANGE and --target TEXT, each problem a diagnostic naming the option."""
    out_params, out_targets, diags = [], [], []
    for text in params:
        path, eq, value = text.partition("=")
        where = _option_pos(f"--param {text}")
        if not eq or not path.strip():
            diags.append(Diagnostic.at(where, ERROR, EMPTY_RANGE, f"--param '{text}' gives no "
                                       "values", "write --param PATH=LO..HI, e.g. --param "
                                       "game/rules/setup/coins=4..8"))
            continue
        values, why = parse_range(value)
        if values is None:
            diags.append(Diagnostic.at(where, ERROR, EMPTY_RANGE, f"parameter {path.strip()}: {why}",
                                       "give at least one value: LO..HI with LO at most HI"))
            continue
        out_params.append(Param(path.strip(), values, 0, where))
    for text in targets:
        target, why = parse_target_text(text)
        if target is None:
            diags.append(Diagnostic.at(_option_pos(f"--target {text}"), ERROR, BAD_TARGET, why,
                                       TARGET_HINT))
        else:
            out_targets.append(_with_where(target, _option_pos(f"--target {text}")))
    return out_params, out_targets, diags


# --------------------------------------------------------------------------- against the game


def check(spec: TuneSpec, docs: list[Document], variant_overrides: dict[str, Any]
          ) -> list[Diagnostic]:
    """Each parameter's path against the game's documents (as read, before any variant):
    it must name a number (PNP-L015, B090); no two may name the same value, nor a path the
    chosen variant sets (B095). Fills in each Param's base value. Also: targets, budget."""
    diags: list[Diagnostic] = []
    checked: list[Param] = []
    places: dict[tuple, str] = {}
    for param in spec.params:
        found = resolve_override(docs, param.path)
        if isinstance(found, OverrideProblem):
            diags.append(Diagnostic.at(param.where, ERROR, UNKNOWN_PATH, found.message, found.hint))
            continue
        container, key = found.container, found.key
        present = (key in container) if isinstance(container, dict) else \
            (isinstance(key, int) and key < len(container))
        value = container[key] if present else None
        if not present or isinstance(value, bool) or not isinstance(value, (int, float)):
            what = "nothing yet" if not present else f"{type(value).__name__} {_short(value)}"
            diags.append(Diagnostic.at(param.where, ERROR, NOT_A_NUMBER,
                                       f"parameter {param.path} names {what}, not a number",
                                       "tune numbers only: end the path at a number, e.g. a "
                                       "list's item by its index (extra_coins_by_seat/1)"))
            continue
        place = (str(found.doc.path), found.data_path)
        clash = next((p for (f, dp), p in places.items() if f == place[0]
                      and (dp[:len(place[1])] == place[1] or place[1][:len(dp)] == dp)), None)
        if clash is not None:
            diags.append(Diagnostic.at(param.where, ERROR, OVERLAP, f"parameters {clash} and "
                                       f"{param.path} name the same value", "tune each value once"))
            continue
        for vpath in variant_overrides:
            other = resolve_override(docs, vpath)
            if not isinstance(other, OverrideProblem) and str(other.doc.path) == place[0] and (
                    other.data_path[:len(place[1])] == place[1]
                    or place[1][:len(other.data_path)] == other.data_path):
                diags.append(Diagnostic.at(param.where, ERROR, OVERLAP, f"parameter {param.path}: "
                                           f"the variant sets {vpath}, which would replace the "
                                           "tuned value", "tune it on the base rules, or tune "
                                           "another value"))
                break
        else:
            places[place] = param.path
            checked.append(Param(param.path, param.values, value, param.where))
    spec.params = checked
    if not spec.targets:
        diags.append(Diagnostic(ERROR, BAD_TARGET, "no target: nothing to tune toward",
                                hint=TARGET_HINT))
    for name in ("budget", "games", "confirm_games"):
        value = getattr(spec, name)
        if value is not None and value < 1:
            option = "--" + name.replace("_", "-")
            diags.append(Diagnostic.at(_option_pos(f"{option} {value}"), ERROR, NO_BUDGET,
                                       f"{option} is {value}: nothing would be played",
                                       f"give {option} 1 or more (defaults: budget "
                                       f"{DEFAULT_BUDGET}, games {DEFAULT_GAMES}, "
                                       f"confirm-games {DEFAULT_CONFIRM})"))
    if not spec.params and not any(d.code in (UNKNOWN_PATH, NOT_A_NUMBER, OVERLAP, EMPTY_RANGE)
                                   for d in diags):
        diags.append(Diagnostic(ERROR, EMPTY_RANGE, "no parameter: nothing to search", "--param",
                                hint="give --param PATH=LO..HI, or params: in a tune file"))
    return diags


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def pick_problem(target: Target, options: dict[tuple[str, str], Any]) -> str:
    """Why a pick target names no option the base games offered (with a did-you-mean), or ''."""
    whys = sorted({why for why, option in options if option == target.option})
    if not whys:
        names = sorted({option for _, option in options})
        close = difflib.get_close_matches(target.option, names, n=3)
        return (f"no option '{target.option}' was offered in the base games"
                + (f"; did you mean {', '.join(close)}?" if close else ""))
    if target.at and target.at not in whys:
        return f"'{target.option}' is offered at {', '.join(map(repr, whys))}, not '{target.at}'"
    if not target.at and len(whys) > 1:
        return (f"'{target.option}' is offered at {len(whys)} decisions ({', '.join(map(repr, whys))}): "
                f"say which, pick:{target.option} at DECISION")
    return ""


def single_point(spec: TuneSpec) -> Diagnostic | None:
    if spec.params and all(len(p.values) == 1 for p in spec.params):
        return Diagnostic(WARNING, SINGLE_POINT, "every parameter has one value: the run only "
                          "compares that candidate with the base game",
                          "give a parameter a range (LO..HI) to search")
    return None
