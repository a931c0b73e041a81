"""`pnp tune`: search numeric parameters of GAME toward targets and propose a variant."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import click

from pnp.commands.common import (
    EXIT_ERRORS,
    EXIT_OK,
    EXIT_USAGE,
    echo_diagnostics,
    refuse_game_files,
    resolve_games,
    rules_or_exit,
    write_or_exit,
)
from pnp.commands.simulate import (
    check_players,
    executor_options,
    format_option,
    lineup_for,
    open_executor,
    progress_bar,
)
from pnp.diagnostics import ERROR, Diagnostic

#: the most candidates one run may evaluate (a typo's 10**9 is a problem, not a plan)
MAX_BUDGET = 10_000


@click.command("tune")
@click.argument("game")
@click.option("--tune", "tune_file", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="A tune file (params, targets, settings; docs/tune.md). "
                                 "Options add to its params and targets and replace its settings.")
@click.option("--param", "params", multiple=True, metavar="PATH=RANGE",
              help="A value to search: a variant override path and LO..HI, LO..HI by STEP, or "
                   "A,B,C (repeat for more).")
@click.option("--target", "targets", multiple=True, metavar="TARGET",
              help="seats, turns=N, finish=X, or pick:OPTION[ at DECISION][=RATE] (repeat for "
                   "more; default: seats).")
@click.option("--players", "-p", type=int, default=None,
              help="Players per game (default: the game's recommended count).")
@click.option("--bots", default=None,
              help="The line-up, as simulate's (default: the game's selfplay: bots:, else greedy).")
@click.option("--variant", default=None, help="Tune on top of this variant (or a+b).")
@click.option("--budget", type=int, default=None,
              help="Candidates to evaluate, the base values first (default 30).")
@click.option("--games", "-n", type=int, default=None,
              help="Games per candidate, the same seeds for each (default 60).")
@click.option("--confirm-games", type=int, default=None,
              help="Games of the confirmation run on fresh seeds, base and best (default 300).")
@click.option("--seed", "-s", type=int, default=None,
              help="Base seed of the search games and the optimiser (default 1).")
@executor_options
@format_option
@click.option("--out", "out_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the proposed variants: block to this YAML file (not written "
                   "when no variant is proposed).")
def command(game: str, tune_file: Path | None, params: tuple[str, ...], targets: tuple[str, ...],
            players: int | None, bots: str | None, variant: str | None, budget: int | None,
            games: int | None, confirm_games: int | None, seed: int | None, workers: int,
            scheduler: str | None, fmt: str, out_path: Path | None) -> None:
    """Search GAME's numeric parameters toward targets and print the variant to paste."""
    from pnp.data.game import load_game_and_documents, variant_ids, variant_name
    from pnp.data.limits import MAX_GAMES
    from pnp.engine import tune_spec as ts
    from pnp.engine.tune import Settings, TuneRun, run_tune

    folder = resolve_games((game,))[0]
    spec, diags = ts.TuneSpec(), []
    if tune_file is not None:
        read, diags = ts.read_tune_file(tune_file)
        spec = read or spec
    more_params, more_targets, problems = ts.from_options(params, targets)
    diags += problems
    spec.params += more_params
    spec.targets += more_targets
    if not spec.targets and not targets and tune_file is None:
        spec.targets = [ts.Target("seats")]
    for name, value in (("players", players), ("bots", bots), ("variant", variant),
                        ("budget", budget), ("games", games), ("confirm_games", confirm_games),
                        ("seed", seed)):
        if value is not None:
            setattr(spec, name, value)
    _stop_if(diags)
    loaded, docs = load_game_and_documents(folder)
    if not loaded.ok:
        echo_diagnostics(loaded.diagnostics)
        sys.exit(EXIT_ERRORS)
    base = loaded.game
    vname = variant_name(spec.variant)
    overrides: dict = {}
    for one in variant_ids(vname):
        if one not in base.variants:
            raise click.BadParameter(f"no variant '{one}' in {base.id} (known: base, "
                                     f"{', '.join(base.variants) or '(none)'})",
                                     param_hint="--variant")
        overrides.update(base.variants[one].overrides)
    diags += ts.check(spec, docs, overrides)
    for name, most in (("budget", MAX_BUDGET), ("games", MAX_GAMES),
                       ("confirm_games", MAX_GAMES)):
        value = getattr(spec, name)
        if value is not None and value > most:
            option = "--" + name.replace("_", "-")
            diags.append(Diagnostic(ERROR, ts.NO_BUDGET, f"{option} is {value}, over {most}",
                                    f"{option} {value}", hint=f"give {option} at most {most}"))
    if (single := ts.single_point(spec)) is not None:
        diags.append(single)
    _stop_if(diags)
    rules_or_exit(base)
    # the variant's overrides are tune's to apply; its player counts are checked here
    count = check_players(dataclasses.replace(base, variant=vname), spec.players)
    line_up, _ = lineup_for(base, spec.bots)  # the game's own default when none is given
    from pnp.engine import lineup

    if problem := lineup.problem(line_up, count):
        raise click.BadParameter(problem, param_hint="--bots")
    refuse_game_files(base, (out_path, "--out", "tuned.yaml"))
    if out_path is not None and _inside_game_data(out_path, folder):
        echo_diagnostics([Diagnostic(ERROR, "PNP-R056", f"--out {out_path} would be read as "
                                     f"a data file of {base.id}", str(out_path),
                                     hint="write the block outside the game folder (or as a "
                                          "non-YAML file) and paste it into game.yaml")])
        sys.exit(EXIT_ERRORS)
    settings = Settings(count, line_up, vname, spec.budget or ts.DEFAULT_BUDGET,
                        spec.games or ts.DEFAULT_GAMES, spec.confirm_games or ts.DEFAULT_CONFIRM,
                        1 if spec.seed is None else spec.seed)
    _check_extremes(folder, docs, spec.params, vname)
    total = (settings.budget + 8) * settings.games + 2 * settings.confirm_games  # about
    with open_executor(workers, scheduler) as executor, \
            progress_bar(total, f"{base.id} tune") as update:
        doc, problems = run_tune(TuneRun(folder, docs, spec.params, spec.targets, settings,
                                         executor, progress=update))
    if doc is None:
        _stop_if(problems)
    from pnp.report import text
    from pnp.report.tune_text import render_tune_text

    click.echo(text.render_json(doc) if fmt == "json" else render_tune_text(doc), nl=fmt == "json")
    if out_path is not None and not doc["override"].get("proposed", True):
        click.echo(f"no variant proposed: {out_path} not written", err=True)
    elif out_path is not None:
        from pnp.atomic import atomic_write_bytes

        block = doc["override"]["yaml"].encode()
        write_or_exit(out_path, lambda: atomic_write_bytes(out_path, block), "--out")
        click.echo(f"wrote {out_path}", err=True)
    click.echo(f"{doc['seconds']:.1f} s", err=True)
    sys.exit(EXIT_OK)


def _stop_if(diags: list[Diagnostic]) -> None:
    """Print the diagnostics; stop when any is an error: exit 2 when every error came from an
    option (a usage problem), else 1 (a tune file's or the game's)."""
    if not diags:
        return
    echo_diagnostics(diags)
    errors = [d for d in diags if d.severity == ERROR]
    if errors:
        sys.exit(EXIT_USAGE if all(d.file.startswith("--") for d in errors) else EXIT_ERRORS)


def _inside_game_data(path: Path, folder: Path) -> bool:
    """A .yaml file inside the game folder (not in a hidden folder) is loaded as game data."""
    try:
        rel = path.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return path.suffix in (".yaml", ".yml") and not any(p.startswith(".") for p in rel.parts)


def _check_extremes(folder: Path, docs, params, variant: str | None) -> None:
    """Build the game with every parameter at its lowest, then its highest value: a value the
    game's schemas reject is reported at the parameter's line before anything is played."""
    from pnp.engine.tune import CandidateBuilder

    builder = CandidateBuilder(folder, docs, variant, params)
    seen, found = set(), []
    for values in (tuple(min(p.values) for p in params), tuple(max(p.values) for p in params)):
        result = builder.build(values)
        bad = [d for d in result.diagnostics if d.severity == ERROR]
        new = [d for d in bad if (d.file, d.line, d.message) not in seen]
        seen.update((d.file, d.line, d.message) for d in bad)
        found += new
    _stop_if(found)
