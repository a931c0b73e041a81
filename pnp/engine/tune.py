"""`pnp tune`: search a game's numeric parameters toward targets, then confirm on fresh seeds.

Each candidate (one value per parameter) is the game with those values written over its data
(the variant override paths, applied as a variant would be), played on the SAME games seeds
as every other candidate, so a difference between candidates is the parameters', not the
dice's. NTBEA (pnp/engine/ntbea.py) chooses what to play next. The recommended candidate and
the base game are then played again on fresh seeds (the confirmation run), so the evidence is
not the search's own luck, and the candidate is printed as a `variants:` block to paste into
game.yaml. The games run on any executor (pnp/engine/executor.py): the results are the same.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from pnp.data.game import LoadResult, _fresh, build_game, resolve_override
from pnp.data.loader import Document
from pnp.diagnostics import ERROR, Diagnostic
from pnp.engine import lineup, ntbea
from pnp.engine import stats as st
from pnp.engine.choices import PICKED_GAMES, PICKED_UNITS
from pnp.engine.executor import Executor, Job, run_jobs
from pnp.engine.selfplay import SCHEMA_VERSION, Aggregate, PlayFn, SimConfig, _r, default_play
from pnp.engine.tune_spec import BAD_TARGET, BROKEN_CANDIDATE, Param, Target, pick_problem

#: the confirmation run's base seed is the search's plus this: fresh games, never the searched
CONFIRM_SEED_OFFSET = 1_000_000
#: a target's distance is capped here (so a broken candidate, scored at the cap for every
#: target, is never better than a real one, and one wild target cannot swamp the others)
MAX_LOSS = 1.0
#: the candidates listed from the search, best model estimate first
LISTED = 5
#: finalists: the best few by the model's estimate and by their own search games, played
#: again on SELECT_GAMES times the games of a candidate, on seeds of their own (paired)
FINALISTS_BY_MODEL = 2
FINALISTS_BY_GAMES = 2
SELECT_GAMES = 2
SELECT_SEED_OFFSET = 2_000_000

ProgressFn = Callable[[int], None]


@dataclass(frozen=True)
class Settings:
    """The run's shape (every default applied)."""

    players: int
    bots: tuple[str, ...]
    variant: str | None
    budget: int
    games: int
    confirm_games: int
    seed: int
    invariants: str = "sample"


@dataclass
class Evaluation:
    """One candidate's games folded, and what the targets read from them."""

    values: tuple
    aggregate: Aggregate | None
    measures: dict[str, Any]
    losses: list[float]
    broken: str = ""  # why the candidate is unusable (does not build, games crash)

    @property
    def loss(self) -> float:
        return float(sum(self.losses))


class CandidateBuilder:
    """Game definitions for candidates: the documents as read, each candidate's values written
    over a fresh copy (positioned at the parameter, so a value the schema rejects is reported
    at the tune file's line), then the variant, then the usual build; kept per candidate."""

    def __init__(self, folder: Path, docs: list[Document], variant: str | None,
                 params: Sequence[Param]):
        self.folder, self.docs, self.variant, self.params = folder, docs, variant, params
        self.built: dict[tuple, LoadResult] = {}

    def build(self, values: tuple) -> LoadResult:
        if values not in self.built:
            docs = [_fresh(doc) for doc in self.docs]
            for param, value in zip(self.params, values, strict=True):
                found = resolve_override(docs, param.path)
                found.set(value)
                if param.where is not None:
                    found.doc.redirects[found.data_path] = param.where
            result = LoadResult(None)
            build_game(self.folder, docs, self.variant, result, changed_only=True)
            self.built[values] = result
        return self.built[values]


# --------------------------------------------------------------------------- measuring


def measures(agg: Aggregate, players: int, targets: Sequence[Target],
             whys: dict[int, str]) -> dict[str, Any]:
    """What the targets read from a candidate's games: seat rates and the fair share, mean
    length, finish rate, and each pick target's win rate when picked."""
    n = agg.games
    wins = agg.seat_wins
    fair = sum(wins) / (n * players) if n else 0.0
    out: dict[str, Any] = {
        "seats": [_r(w / n) if n else 0.0 for w in wins],
        "fair_share": _r(fair),
        "turns": _r(st.mean(agg.turns)),
        "finish_rate": _r(sum(agg.completed) / n) if n else 0.0,
    }
    picks = []
    for i, target in enumerate(targets):
        if target.kind != "pick":
            continue
        row = agg.choices.options.get((whys.get(i, target.at), target.option))
        games = row[PICKED_GAMES] if row else 0
        rate = row[PICKED_UNITS] / agg.credit_unit / games if games else None
        picks.append({"option": target.option, "at": whys.get(i, target.at),
                      "picked_games": games, "win_rate": None if rate is None else _r(rate)})
    if picks:
        out["picks"] = picks
    return out


def losses(targets: Sequence[Target], m: dict[str, Any]) -> list[float]:
    """Each target's weighted distance from what it wants (0 when met), at most MAX_LOSS
    before weighting: seats, the root mean square of each seat's gap from the fair share;
    turns, the relative gap of the mean length; finish, how far the finish rate falls short;
    pick, the gap of the pickers' win rate (the cap when nobody picked it)."""
    out, picks = [], iter(m.get("picks", ()))
    for t in targets:
        if t.kind == "seats":
            gaps = [s - m["fair_share"] for s in m["seats"]]
            d = (sum(g * g for g in gaps) / len(gaps)) ** 0.5 if gaps else 0.0
        elif t.kind == "turns":
            d = abs(m["turns"] - t.value) / t.value
        elif t.kind == "finish":
            d = max(0.0, t.value - m["finish_rate"])
        else:
            pick = next(picks)
            wanted = m["fair_share"] if t.value is None else t.value
            d = MAX_LOSS if pick["win_rate"] is None else abs(pick["win_rate"] - wanted)
        out.append(t.weight * min(MAX_LOSS, d))
    return out


# --------------------------------------------------------------------------- the run


@dataclass
class TuneRun:
    """What a run needs beyond the settings; `progress` is told the games finished so far."""

    folder: Path
    docs: list[Document]
    params: list[Param]
    targets: list[Target]
    settings: Settings
    executor: Executor
    play: PlayFn | None = None
    progress: ProgressFn | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    _done: int = 0
    _whys: dict[int, str] = field(default_factory=dict)

    def _config(self, seed: int, games: int) -> SimConfig:
        s = self.settings
        return SimConfig(games=lineup.balanced_games(games, s.bots, s.players), players=s.players,
                         seed=seed, bots=s.bots, variant=s.variant, invariants=s.invariants)

    def _play(self, games: list, seed: int, count: int) -> list[Aggregate]:
        config = self._config(seed, count)
        jobs = [Job(g, config, self.play or default_play()) for g in games]
        start = self._done

        def tell(done: int) -> None:
            if self.progress:
                self.progress(start + done)

        outcomes = run_jobs(jobs, self.executor, tell)
        self._done = start + config.games * len(jobs)
        return [o.aggregate for o in outcomes]

    def evaluate(self, builder: CandidateBuilder, values: tuple, seed: int, games: int
                 ) -> Evaluation:
        """Play one candidate; a candidate that does not build or whose games crash or break
        an invariant is `broken` and scored at the cap of every target."""
        result = builder.build(values)
        if not result.ok:
            first = next((d for d in result.diagnostics if d.severity == ERROR), None)
            why = first.format_text() if first else "it does not build"
            return self._broken(values, f"does not build: {why}")
        [agg] = self._play([result.game], seed, games)
        return self.scored(values, agg)

    def scored(self, values: tuple, agg: Aggregate) -> Evaluation:
        m = measures(agg, self.settings.players, self.targets, self._whys)
        if agg.violations:
            v = min(agg.violations.values(), key=lambda v: (v["first_game"], v["message"]))
            return Evaluation(values, agg, m, [t.weight * MAX_LOSS for t in self.targets],
                              f"{v['games']} game{'s' if v['games'] != 1 else ''} broke: "
                              f"{v['message']} (first seed {v['first_seed']})")
        return Evaluation(values, agg, m, losses(self.targets, m))

    def _broken(self, values: tuple, why: str) -> Evaluation:
        return Evaluation(values, None, {}, [t.weight * MAX_LOSS for t in self.targets], why)

    def resolve_picks(self, base: Aggregate) -> list[Diagnostic]:
        """Each pick target's decision, from the options the base games offered."""
        diags = []
        for i, target in enumerate(self.targets):
            if target.kind != "pick":
                continue
            problem = pick_problem(target, base.choices.options)
            if problem:
                diags.append(Diagnostic.at(target.where, ERROR, BAD_TARGET, problem,
                                           "name an option as the simulate report does (the "
                                           "choices section of pnp simulate --format json)"))
            else:
                self._whys[i] = target.at or next(why for why, option in base.choices.options
                                                  if option == target.option)
        return diags


def run_tune(run: TuneRun) -> tuple[dict[str, Any] | None, list[Diagnostic]]:
    """Search, confirm and document; (None, diagnostics) when a target cannot be measured."""
    s = run.settings
    started = time.perf_counter()
    builder = CandidateBuilder(run.folder, run.docs, s.variant, run.params)
    base_values = tuple(p.base for p in run.params)
    sizes = [len(p.values) for p in run.params]
    # the search starts at the base values when the ranges hold them, else at the nearest
    start = tuple(min(range(len(p.values)), key=lambda i: (abs(p.values[i] - p.base), i))
                  for p in run.params)
    values_of = lambda point: tuple(p.values[i] for p, i in zip(run.params, point, strict=True))  # noqa: E731
    base_eval = run.evaluate(builder, base_values, s.seed, s.games)
    if base_eval.broken:
        return None, [Diagnostic(ERROR, BROKEN_CANDIDATE, f"the base game {base_eval.broken}",
                                 hint="simulate the game first: tuning needs games that finish")]
    problems = run.resolve_picks(base_eval.aggregate)
    if problems:
        return None, problems
    base_eval = run.scored(base_values, base_eval.aggregate)
    evaluations: dict[tuple, Evaluation] = {base_values: base_eval}

    def fitness(point: ntbea.Point) -> float:
        values = values_of(point)
        if values not in evaluations:
            evaluations[values] = run.evaluate(builder, values, s.seed, s.games)
        return -evaluations[values].loss

    result = ntbea.search(fitness, sizes, s.budget, s.seed, start,
                          feasible=lambda p: not evaluations[values_of(p)].broken)
    ranked = result.ranked(lambda p: not evaluations[values_of(p)].broken)
    finalists = _finalists(ranked, evaluations, values_of, base_values)
    selection: list[dict[str, Any]] = []
    best_values = values_of(result.best)
    if len(finalists) > 1:  # TAG's final evaluation: the finalists on more games, paired;
        # the base is always one of them, so a candidate that only beat it on the search's own
        # seeds (the winner's curse of picking the best of many noisy scores) is not proposed
        aggs = run._play([builder.build(v).game for v in finalists],
                         s.seed + SELECT_SEED_OFFSET, s.games * SELECT_GAMES)
        scored = [run.scored(v, a) for v, a in zip(finalists, aggs, strict=True)]
        best_values = choose(scored)
        selection = [_eval_json(e, run.params) for e in scored]
    best_eval = evaluations[best_values]
    broken = [e for e in evaluations.values() if e.broken]
    others = [e for v, e in evaluations.items() if v != base_values and not e.broken]
    unchanged = sum(1 for e in others if same_games(e.aggregate, base_eval.aggregate))
    # the confirmation: base and best on fresh seeds (one run, so the workers stay busy)
    confirm_seed = s.seed + CONFIRM_SEED_OFFSET
    base_game = builder.build(base_values).game
    tuned_result = builder.build(best_values)
    same = best_values == base_values
    games = [base_game] if same else [base_game, tuned_result.game]
    aggs = run._play(games, confirm_seed, s.confirm_games)
    base_c = run.scored(base_values, aggs[0])
    tuned_c = base_c if same else run.scored(best_values, aggs[1])
    doc = {
        "schema_version": SCHEMA_VERSION,
        "game": _game_id(run.docs),
        "variant": s.variant,
        "players": s.players,
        "bots": list(s.bots),
        "seed": s.seed,
        "optimiser": {"name": "NTBEA", "k_explore": ntbea.K_EXPLORE,
                      "neighbours": ntbea.NEIGHBOURS},
        "budget": s.budget,
        "games_per_candidate": run._config(s.seed, s.games).games,
        "params": [{"path": p.path, "values": list(p.values), "base": p.base}
                   for p in run.params],
        "targets": [t.to_json() for t in run.targets],
        "search": {
            "evaluated": len(result.evaluated),
            "space": ntbea.space_size(sizes),
            "exhausted": result.exhausted,
            "unchanged": unchanged,
            "inert": bool(others) and unchanged == len(others),
            "base": _eval_json(base_eval, run.params),
            "ranked": [dict(_eval_json(evaluations[values_of(p)], run.params),
                            estimate=_r(-result.model.estimate(p)))
                       for p in ranked[:LISTED]],
            "evaluations": [_eval_json(evaluations[values_of(p)], run.params)
                            for p, _ in result.evaluated],
        },
        "selection": {"seed": s.seed + SELECT_SEED_OFFSET,
                      "games": run._config(s.seed, s.games * SELECT_GAMES).games if selection
                      else 0, "finalists": selection},
        "best": {"values": _assign(run.params, best_values),
                 "changed": {p.path: v for p, v in zip(run.params, best_values, strict=True)
                             if v != p.base},
                 "search_loss": _r(best_eval.loss), "same_as_base": same},
        "confirmation": _confirmation(run, confirm_seed, base_c, tuned_c),
        "broken": [{"values": _assign(run.params, e.values), "why": e.broken} for e in broken],
        "override": dict(override_block(run, best_values),
                         **_proposal(same, base_c, tuned_c)),
        "seconds": round(time.perf_counter() - started, 3),
    }
    return doc, []


def same_games(a: Aggregate, b: Aggregate) -> bool:
    """Whether two runs on the same seeds played the same games, game for game (lengths,
    winners, decisions, dice and events): a candidate that did changed nothing that was
    played, as when its path is a list the player count does not read."""
    return (a.turns == b.turns and a.seat_win_columns == b.seat_win_columns
            and a.decisions == b.decisions and a.rolls == b.rolls and a.events == b.events)


def _finalists(ranked: list, evaluations: dict, values_of: Callable, base: tuple
               ) -> list[tuple]:
    """The base values, then the first FINALISTS_BY_MODEL points by model estimate, then the
    FINALISTS_BY_GAMES lowest search losses not among them (the model smooths; a point's own
    games may know better), as values, in that order, each once."""
    by_model = [v for v in map(values_of, ranked) if v != base][:FINALISTS_BY_MODEL]
    by_games = sorted((values_of(p) for p in ranked), key=lambda v: evaluations[v].loss)
    extra = [v for v in by_games if v not in by_model and v != base][:FINALISTS_BY_GAMES]
    return [base, *by_model, *extra]


def choose(scored: Sequence[Evaluation]) -> tuple:
    """The finalist with the lowest loss on the finalists' games, never a broken one; the
    first listed (the base) wins a tie."""
    return min(scored, key=lambda e: (e.broken != "", e.loss)).values


def _proposal(same: bool, base: Evaluation, tuned: Evaluation) -> dict[str, Any]:
    """Whether the tuned values are offered as a variant: only when they are not the base's
    and their loss on the confirmation's fresh games is lower than the base's; else why not."""
    if same:
        return {"proposed": False, "why_not": "no candidate beat the base values"}
    if tuned.broken:
        return {"proposed": False, "why_not": f"the tuned values' fresh games {tuned.broken}"}
    if not tuned.loss < base.loss:
        return {"proposed": False, "why_not": "the tuned values' loss on fresh games is not "
                                              "lower than the base's"}
    return {"proposed": True, "why_not": None}


def _game_id(docs: list[Document]) -> str:
    game = next((d for d in docs if d.kind == "game"), None)
    return str(game.data.get("id", "?")) if game is not None and isinstance(game.data, dict) else "?"


def _assign(params: Sequence[Param], values: tuple) -> dict[str, Any]:
    return {p.path: v for p, v in zip(params, values, strict=True)}


def _eval_json(e: Evaluation, params: Sequence[Param]) -> dict[str, Any]:
    out = {"values": _assign(params, e.values), "loss": _r(e.loss),
           "losses": [_r(x) for x in e.losses], "measures": e.measures}
    if e.broken:
        out["broken"] = e.broken
    return out


def _side(run: TuneRun, e: Evaluation) -> dict[str, Any]:
    """One side of the confirmation: the seats with Wilson intervals and the seat test, the
    length, the finish rate, each target's figure and distance."""
    from pnp.engine.findings import seat_tests

    agg = e.aggregate
    n = agg.games
    fair = e.measures["fair_share"]
    seats = agg.seat_rows()
    tests = seat_tests({"fair_share": fair, "games": n, "seats": seats})
    for seat, test in zip(seats, tests, strict=True):
        seat.update(inside=bool(seat["ci95"][0] <= fair <= seat["ci95"][1]),
                    p_holm=_r(test["p_holm"]), flagged=test["flagged"])
    turns = st.mean_ci(agg.turns)
    done = sum(agg.completed)
    return {"loss": _r(e.loss), "losses": [_r(x) for x in e.losses], "measures": e.measures,
            "fair_share": fair, "seats": seats,
            "seats_inside": all(s["inside"] for s in seats),
            "seats_flagged": [s["seat"] for s in seats if s["flagged"]],
            "turns": {"mean": _r(turns[0]), "ci95": [_r(turns[1]), _r(turns[2])]},
            "finish_rate": _r(done / n), "finish_ci95": [_r(x) for x in st.wilson(done, n)],
            "violations": sum(v["games"] for v in agg.violations.values()),
            "broken": e.broken or None}


def _confirmation(run: TuneRun, seed: int, base: Evaluation, tuned: Evaluation
                  ) -> dict[str, Any]:
    """Base and tuned on the same fresh seeds; per seat, the paired difference of win credit
    (tuned minus base, game by game) with a t interval."""
    a, b = base.aggregate, tuned.aggregate
    diffs = []
    for seat in range(run.settings.players):
        d = [y - x for x, y in zip(a.seat_win_columns[seat], b.seat_win_columns[seat], strict=True)]
        m, lo, hi = st.mean_ci(d)
        diffs.append({"seat": seat + 1, "diff": _r(m), "ci95": [_r(lo), _r(hi)]})
    return {"seed": seed, "games": a.games, "base": _side(run, base), "tuned": _side(run, tuned),
            "seat_differences": diffs}


def variant_id(docs: list[Document]) -> str:
    """'tuned', or 'tuned-2', ... when the game has that variant already."""
    game = next((d for d in docs if d.kind == "game"), None)
    taken = {str(v.get("id")) for v in (game.data.get("variants") or [])
             if isinstance(v, dict)} if game is not None and isinstance(game.data, dict) else set()
    name, n = "tuned", 1
    while name in taken:
        n += 1
        name = f"tuned-{n}"
    return name


def override_block(run: TuneRun, values: tuple) -> dict[str, Any]:
    """The variant to paste under game.yaml's `variants:`, as YAML text and as data."""
    s = run.settings
    vid = variant_id(run.docs)
    overrides = {p.path: v for p, v in zip(run.params, values, strict=True)}
    aims = ", ".join(t.label for t in run.targets)
    on = f" on top of {s.variant}" if s.variant else ""
    description = (f"Tuned by pnp tune toward {aims}{on} ({s.players} players, "
                   f"{','.join(s.bots)}, seed {s.seed}).")
    item = {"id": vid, "description": description, "overrides": overrides}
    text = yaml.safe_dump({"variants": [item]}, sort_keys=False, allow_unicode=True,
                          default_flow_style=False, width=100)
    return {"id": vid, "variant": item, "yaml": text,
            "unchanged": [p.path for p, v in zip(run.params, values, strict=True) if v == p.base]}
