"""`pnp tune`: NTBEA finds a planted optimum, the run is deterministic, every bad input is a
diagnostic with a code, and the command's help and JSON have their shape.

The tuned game is the starter of `pnp new` with a rule `setup: extra_gold: [4, 0, 0, 0]`
that its rules module reads: seat 1 starts with 4 more gold, which wins it far more than its
share. Tuning that list toward fair seats must take the advantage away; an optimiser that
returns the base values leaves seat 1 its 4 gold and fails the test.
"""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.engine import ntbea
from pnp.scaffold import scaffold

GOLD0 = "game/rules/setup/extra_gold/0"
GOLD1 = "game/rules/setup/extra_gold/1"


@pytest.fixture(scope="module")
def unfair(tmp_path_factory):
    """The starter game, seat 1 starting with 4 extra gold read from game.yaml's rules."""
    folder = tmp_path_factory.mktemp("tune") / "unfair"
    scaffold(folder, "Unfair")
    rules = folder / "rules.py"
    text = rules.read_text()
    old = "    return State([PlayerState(start_counters(game), dict(pawns)) for _ in range(players)],"
    assert old in text
    rules.write_text(text.replace(old, (
        "    seats = [PlayerState(start_counters(game), dict(pawns)) for _ in range(players)]\n"
        "    for seat, extra in zip(seats, game.rule('setup', 'extra_gold')):\n"
        "        seat.counters[PAY] += extra\n"
        "    return State(seats,")))
    game = folder / "game.yaml"
    text = game.read_text()
    assert "rules:  # rule parameters" in text
    game.write_text(text.replace("rules:  # rule parameters; a game's engine supplies their schema\n",
                                 "rules:\n  setup:\n    extra_gold: [4, 0, 0, 0]\n"))
    return folder


def tune(*args: str):
    return CliRunner().invoke(main, ["tune", *args])


def test_ntbea_finds_the_optimum_of_a_noisy_function_and_is_deterministic():
    """A 4-parameter space of 6^4 points, fitness peaked at (4, 1, 3, 2) plus noise that is
    fixed per point (as paired seeds make it): 40 evaluations find the peak or next to it."""
    peak = (4, 1, 3, 2)
    noise = random.Random(7)
    table = {}

    def fitness(p):
        if p not in table:
            table[p] = -sum(abs(a - b) for a, b in zip(p, peak, strict=True)) + noise.gauss(0, 0.5)
        return table[p]

    result = ntbea.search(fitness, [6, 6, 6, 6], 40, seed=3, start=(0, 0, 0, 0))
    assert len(result.evaluated) == 40
    assert sum(abs(a - b) for a, b in zip(result.best, peak, strict=True)) <= 1
    again = ntbea.search(fitness, [6, 6, 6, 6], 40, seed=3, start=(0, 0, 0, 0))
    assert again.evaluated == result.evaluated and again.best == result.best


def test_ntbea_never_evaluates_a_point_twice_and_stops_when_the_space_is_played():
    seen = []
    result = ntbea.search(lambda p: seen.append(p) or -p[0], [3], 10, seed=1, start=(2,))
    assert sorted(seen) == [(0,), (1,), (2,)] and result.exhausted
    assert result.best == (0,)


def test_ntbea_recommends_only_feasible_points():
    result = ntbea.search(lambda p: -abs(p[0] - 2), [5], 5, seed=1, start=(0,),
                          feasible=lambda p: p != (2,))
    assert result.best in ((1,), (3,))


def test_tune_takes_away_a_planted_seat_advantage(unfair):
    result = tune(str(unfair), "--param", f"{GOLD0}=0..6", "--param", f"{GOLD1}=0..6",
                  "--players", "2", "--budget", "12", "--games", "150", "--confirm-games", "300",
                  "--format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    best = doc["best"]["values"]
    assert doc["params"][0]["base"] == 4 and doc["params"][1]["base"] == 0
    # base: seat 1 four gold ahead; the first seat's own edge (55% with no extra gold) makes
    # the fair point one where seat 2 has the extra gold
    assert best[GOLD0] - best[GOLD1] <= 0, best
    confirm = doc["confirmation"]
    assert confirm["base"]["seats"][0]["win_rate"] > 0.6  # the planted advantage is real
    assert not confirm["base"]["seats_inside"]
    assert confirm["tuned"]["seats_inside"], confirm["tuned"]["seats"]
    assert confirm["tuned"]["loss"] < confirm["base"]["loss"]
    assert confirm["seed"] != doc["seed"] and confirm["games"] == 300
    assert confirm["seat_differences"][0]["ci95"][1] < 0  # seat 1 wins less, paired
    assert doc["search"]["inert"] is False  # the gold changed the games
    block = doc["override"]["yaml"]
    assert f"{GOLD0}: {best[GOLD0]}" in block and block.startswith("variants:\n- id: tuned\n")


def test_the_proposed_block_pasted_into_game_yaml_plays_as_a_variant(unfair, tmp_path):
    import shutil

    import yaml

    from pnp.data.game import load_game

    out = tmp_path / "tuned.yaml"
    result = tune(str(unfair), "--param", f"{GOLD0}=0..2", "--players", "2", "--budget", "3",
                  "--games", "60", "--confirm-games", "60", "--out", str(out))
    assert result.exit_code == 0, result.output
    block = yaml.safe_load(out.read_text())
    copy = tmp_path / "unfair"
    shutil.copytree(unfair, copy)
    game = copy / "game.yaml"
    data = game.read_text() + "\n" + out.read_text()
    game.write_text(data)
    loaded = load_game(copy, "tuned")
    assert loaded.ok, loaded.diagnostics
    wanted = block["variants"][0]["overrides"][GOLD0]
    assert loaded.game.rules["setup"]["extra_gold"][0] == wanted
    assert "Proposed variant" in result.stdout and "- id: tuned" in result.stdout


def test_the_same_seed_gives_the_same_output(unfair):
    args = [str(unfair), "--param", f"{GOLD0}=0..5", "--players", "2", "--budget", "4",
            "--games", "20", "--confirm-games", "40", "--seed", "5"]
    one, two = tune(*args, "--format", "json"), tune(*args, "--format", "json", "--workers", "2")
    assert one.exit_code == two.exit_code == 0, one.output + two.output
    a, b = json.loads(one.stdout), json.loads(two.stdout)
    a.pop("seconds"), b.pop("seconds")
    assert a == b
    text1, text2 = tune(*args), tune(*args)
    assert text1.stdout == text2.stdout and "Confirmation" in text1.stdout
    other = json.loads(tune(*args[:-1], "6", "--format", "json").stdout)
    assert other["search"]["evaluations"] != a["search"]["evaluations"]


def test_json_shape_and_a_target_file(unfair, tmp_path):
    spec = tmp_path / "t.yaml"
    spec.write_text("# yaml-language-server: $schema=../schemas/tune.schema.json\n"
                    f"params:\n  {GOLD0}: 0..3\n  {GOLD1}: [0, 2]\n"
                    "targets:\n  - seats\n  - {turns: 12, weight: 0.5}\n  - {finish: 0.9}\n"
                    "players: 2\nbudget: 3\ngames: 10\nconfirm_games: 10\n")
    result = tune(str(unfair), "--tune", str(spec), "--format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert {"schema_version", "game", "variant", "players", "bots", "seed", "optimiser",
            "budget", "games_per_candidate", "params", "targets", "search", "best",
            "confirmation", "broken", "override", "seconds"} <= set(doc)
    assert [t["target"] for t in doc["targets"]] == ["seats", "turns", "finish"]
    assert doc["targets"][1] == {"target": "turns", "label": "mean length 12 turns",
                                 "weight": 0.5, "value": 12.0}
    assert doc["search"]["evaluated"] == 3 and doc["budget"] == 3
    assert len(doc["confirmation"]["tuned"]["losses"]) == 3
    assert doc["params"][1]["values"] == [0, 2]


def test_help_names_every_option():
    result = tune("--help")
    assert result.exit_code == 0
    for option in ("--tune", "--param", "--target", "--budget", "--games", "--confirm-games",
                   "--seed", "--workers", "--scheduler", "--format", "--out", "--variant"):
        assert option in result.output
    assert "tune" in CliRunner().invoke(main, ["--help"]).output


# --------------------------------------------------------------------------- bad input


def _codes(result) -> list[str]:
    import re

    return re.findall(r"(PNP-[A-Z]\d{3})", result.output)


@pytest.mark.parametrize(("args", "code", "words", "exit_code"), [
    (["--param", "game/rules/setup/extra_gld/0=0..3"], "PNP-L015", "did you mean extra_gold", 2),
    (["--param", "game/rules/setup=0..3"], "PNP-B090", "not a number", 2),
    (["--param", "game/rules/setup/extra_gold=0..3"], "PNP-B090", "not a number", 2),
    (["--param", "game/name=0..3"], "PNP-B090", "not a number", 2),
    (["--param", f"{GOLD0}=5..2"], "PNP-B091", "is empty", 2),
    (["--param", f"{GOLD0}=0..4 by 0"], "PNP-B091", "a step is above 0", 2),
    (["--param", f"{GOLD0}=0..99999999"], "PNP-B091", "over 1000", 2),
    (["--param", f"{GOLD0}="], "PNP-B091", "not a range", 2),
    (["--param", GOLD0], "PNP-B091", "gives no values", 2),
    (["--param", f"{GOLD0}=0..3", "--target", "fairness"], "PNP-B092", "unknown target", 2),
    (["--param", f"{GOLD0}=0..3", "--target", "turns=0"], "PNP-B092", "more than 0 turns", 2),
    (["--param", f"{GOLD0}=0..3", "--target", "finish=2"], "PNP-B092", "at most 1", 2),
    (["--param", f"{GOLD0}=0..3", "--budget", "0"], "PNP-B093", "nothing would be played", 2),
    (["--param", f"{GOLD0}=0..3", "--games", "0"], "PNP-B093", "nothing would be played", 2),
    (["--param", f"{GOLD0}=0..3", "--confirm-games", "-1"], "PNP-B093", "nothing", 2),
    (["--param", f"{GOLD0}=0..3", "--param", f"{GOLD0}=1..2"], "PNP-B095", "same value", 2),
    ([], "PNP-B091", "no parameter", 2),
    (["--param", f"{GOLD0}=0..3", "--budget", "10001"], "PNP-B093", "over 10000", 2),
])
def test_bad_input_is_a_diagnostic_with_a_code(unfair, args, code, words, exit_code):
    result = tune(str(unfair), "--players", "2", "--budget", "2", "--games", "4",
                  "--confirm-games", "4", *args) if "--budget" not in args else tune(
        str(unfair), "--players", "2", *args)
    assert result.exit_code == exit_code, result.output
    assert any(c.startswith(code) for c in _codes(result)), result.output
    assert words in result.output
    assert "Traceback" not in result.output


def test_a_pick_target_the_games_never_offer_is_named_with_a_did_you_mean(unfair):
    result = tune(str(unfair), "--param", f"{GOLD0}=0..1", "--players", "2", "--budget", "2",
                  "--games", "10", "--confirm-games", "4", "--target", "pick:bye")
    assert result.exit_code == 2, result.output
    assert "PNP-B092" in result.output and "did you mean buy" in result.output


def test_a_pick_target_is_measured(unfair):
    result = tune(str(unfair), "--param", f"{GOLD0}=0..1", "--players", "2", "--budget", "2",
                  "--games", "20", "--confirm-games", "20", "--target", "pick:buy at buy silk=0.5",
                  "--format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    pick = doc["confirmation"]["tuned"]["measures"]["picks"][0]
    assert pick["option"] == "buy" and pick["at"] == "buy silk" and pick["picked_games"] > 0
    assert doc["targets"][0]["value"] == 0.5


def test_a_pick_target_offered_at_several_decisions_must_say_which(unfair):
    result = tune(str(unfair), "--param", f"{GOLD0}=0..1", "--players", "2", "--budget", "2",
                  "--games", "10", "--confirm-games", "4", "--target", "pick:buy")
    assert result.exit_code == 2 and "PNP-B092" in result.output, result.output
    assert "'buy silk'" in result.output and "say which" in result.output


def test_a_tune_file_is_schema_checked_at_its_lines(unfair, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("# yaml-language-server: $schema=../schemas/tune.schema.json\n"
                   f"params:\n  {GOLD0}: 0..3\ntargets:\n  - {{turns: -2}}\nbudgett: 4\n")
    result = tune(str(unfair), "--tune", str(bad))
    assert result.exit_code == 1, result.output
    assert "bad.yaml:" in result.output and "PNP-S" in result.output
    empty = tmp_path / "empty.yaml"
    empty.write_text("# yaml-language-server: $schema=../schemas/tune.schema.json\n"
                     f"params:\n  {GOLD0}: 3..1\ntargets: [seats]\n")
    result = tune(str(unfair), "--tune", str(empty))
    assert result.exit_code == 1 and "empty.yaml:3:" in result.output, result.output
    assert "PNP-B091" in result.output
    path = tmp_path / "path.yaml"
    path.write_text("# yaml-language-server: $schema=../schemas/tune.schema.json\n"
                    "targets: [seats]\nparams:\n  game/rules/setup/extra_gould/0: 0..3\n")
    result = tune(str(unfair), "--tune", str(path))
    assert result.exit_code == 1 and "path.yaml:4:3: error PNP-L015" in result.output, \
        result.output
    other = tmp_path / "other.yaml"
    other.write_text("# yaml-language-server: $schema=../schemas/stats.schema.json\nstats: []\n")
    result = tune(str(unfair), "--tune", str(other))
    assert result.exit_code == 1 and "PNP-B094" in result.output, result.output


def test_a_value_the_games_schema_rejects_is_found_before_any_game_is_played():
    result = tune("the-ancient-world", "--param", "game/rules/setup/coins=-3..1")
    assert result.exit_code == 2, result.output
    assert "--param game/rules/setup/coins=-3..1: error PNP-S" in result.output
    assert "-3 is less than the minimum of 0" in result.output


def test_a_tuned_value_the_variant_also_sets_is_refused():
    result = tune("the-ancient-world", "--variant", "starting-cards-free",
                  "--param", "game/rules/capital/capacity=4..6")
    assert result.exit_code == 2 and "PNP-B095" in result.output, result.output


def test_out_never_writes_a_yaml_file_into_the_game_folder(unfair):
    result = tune(str(unfair), "--param", f"{GOLD0}=0..1", "--players", "2",
                  "--out", str(unfair / "tuned.yaml"))
    assert result.exit_code == 1 and "PNP-R056" in result.output, result.output
    assert not (unfair / "tuned.yaml").exists()
    result = tune(str(unfair), "--param", f"{GOLD0}=0..1", "--players", "2",
                  "--out", str(unfair / "game.yaml"))
    assert result.exit_code == 1 and "PNP-R056" in result.output, result.output


def test_the_docs_example_tune_file_reads_clean_against_the_ancient_world():
    from pathlib import Path

    from pnp.data.game import load_game_and_documents
    from pnp.engine import tune_spec as ts

    root = Path(__file__).resolve().parents[1]
    spec, diags = ts.read_tune_file(root / "docs" / "examples" / "the-ancient-world-coins.tune.yaml")
    assert diags == [] and spec is not None
    _, docs = load_game_and_documents(root / "cards" / "the-ancient-world")
    assert ts.check(spec, docs, {}) == []
    assert [p.base for p in spec.params] == [0, 1, 2]  # extra_coins_by_seat: [0, 1, 2, 2]
    assert (spec.players, spec.budget, spec.games, spec.confirm_games) == (3, 30, 60, 300)
    four, diags = ts.read_tune_file(root / "docs" / "examples"
                                    / "the-ancient-world-coins-4p.tune.yaml")
    assert diags == [] and four is not None
    assert ts.check(four, docs, {}) == []
    assert [p.base for p in four.params] == [0, 1, 2, 2] and four.players == 4


def test_one_value_per_parameter_is_a_warning_and_the_run_goes_on(unfair):
    result = tune(str(unfair), "--param", f"{GOLD0}=2", "--players", "2", "--budget", "2",
                  "--games", "10", "--confirm-games", "10")
    assert result.exit_code == 0, result.output
    assert "warning PNP-B097" in result.output and "Confirmation" in result.output


def _crashing_when(first_gold: int):
    """The real rules, except that a game whose seat 1 has `first_gold` extra gold raises."""
    from pnp.engine.selfplay import default_play

    real = default_play()

    def play(game, *args, **kwargs):
        if game.rule("setup", "extra_gold")[0] == first_gold:
            raise RuntimeError("planted crash")
        return real(game, *args, **kwargs)

    return play


def test_a_candidate_whose_games_crash_is_listed_and_never_proposed(unfair, monkeypatch):
    from pnp.engine import tune as tune_module

    monkeypatch.setattr(tune_module, "default_play", lambda: _crashing_when(0))
    result = tune(str(unfair), "--param", f"{GOLD0}=0..4", "--players", "2", "--budget", "5",
                  "--games", "20", "--confirm-games", "20", "--format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert [b["values"][GOLD0] for b in doc["broken"]] == [0]
    assert "planted crash" in doc["broken"][0]["why"]
    assert doc["best"]["values"][GOLD0] != 0


def test_a_base_game_whose_games_crash_stops_with_a_diagnostic(unfair, monkeypatch):
    from pnp.engine import tune as tune_module

    monkeypatch.setattr(tune_module, "default_play", lambda: _crashing_when(4))
    result = tune(str(unfair), "--param", f"{GOLD0}=0..4", "--players", "2", "--budget", "3",
                  "--games", "10", "--confirm-games", "10")
    assert result.exit_code == 1, result.output
    assert "PNP-B096" in result.output and "planted crash" in result.output


def _confirmed(base_inside: list[bool], tuned_inside: list[bool], diffs: list[tuple]) -> dict:
    """A tune document reduced to what the verdict reads: each side's seats inside or not,
    each seat's paired difference (mean, low, high)."""
    def side(inside, loss):
        return {"loss": loss, "seats_inside": all(inside), "seats_flagged": [],
                "seats": [{"seat": i + 1, "inside": x} for i, x in enumerate(inside)]}

    return {"best": {"same_as_base": False}, "targets": [{"target": "seats"}],
            "confirmation": {"games": 300, "base": side(base_inside, 0.049),
                             "tuned": side(tuned_inside, 0.035),
                             "seat_differences": [{"seat": i + 1, "diff": d, "ci95": [lo, hi]}
                                                  for i, (d, lo, hi) in enumerate(diffs)]}}


def test_the_verdict_says_when_no_seat_really_moved():
    """The 3-player docs run of this branch: every tuned seat inside, the base's seat 3 out,
    yet every paired interval holds 0. The verdict must not read as an improvement shown."""
    from pnp.report.tune_text import verdict

    doc = _confirmed([True, True, False], [True, True, True],
                     [(-0.013, -0.088, 0.062), (-0.007, -0.08, 0.067), (0.02, -0.05, 0.089)])
    text = verdict(doc)
    assert "(base: seat 3 did not)" in text, text  # one seat: 'seat', not 'seats'
    assert "no seat's paired difference leaves out 0" in text and "within noise" in text


def test_the_verdict_names_the_seats_that_moved():
    from pnp.report.tune_text import verdict

    doc = _confirmed([True, False, False], [False, True, True],
                     [(0.05, -0.027, 0.127), (0.113, 0.046, 0.181), (-0.163, -0.238, -0.088)])
    text = verdict(doc)
    assert "Seat 1 still misses the fair share." in text, text
    assert "seat 2 gains 11.3 points, seat 3 loses 16.3 points" in text
    assert "the other seats' changes are within noise" in text
    assert "leaves out 0" not in text
    doc["confirmation"]["tuned"]["seats"][1]["inside"] = False
    assert "Seats 1, 2 still miss the fair share." in verdict(doc)


def test_the_base_is_always_a_finalist(unfair):
    """The finalists' games include the base values (listed first), so a proposal has beaten
    the base on games the search never saw; here the base (4 gold) loses to the fair values."""
    result = tune(str(unfair), "--param", f"{GOLD0}=0..6", "--players", "2", "--budget", "6",
                  "--games", "30", "--confirm-games", "60", "--format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    finalists = doc["selection"]["finalists"]
    assert finalists[0]["values"] == {GOLD0: 4}, finalists
    assert len(finalists) == 5 and len({f[GOLD0] for f in (r["values"] for r in finalists)}) == 5
    assert doc["best"]["values"][GOLD0] != 4 and doc["override"]["proposed"] is True


def _crashing_on_the_finalists_games(seed: int, games: int):
    """The real rules, except that every value but the base's 4 gold crashes on the games of
    the finalists' run (seeds of their own): a candidate that looked better on the search's
    games and is no good on any other."""
    from pnp.engine import tune as tune_module
    from pnp.engine.selfplay import default_play, game_seed

    real = default_play()
    select = {game_seed(seed + tune_module.SELECT_SEED_OFFSET, i)
              for i in range(games * tune_module.SELECT_GAMES)}

    def play(game, players, game_seed_, *args, **kwargs):
        if game.rule("setup", "extra_gold")[0] != 4 and game_seed_ in select:
            raise RuntimeError("planted crash")
        return real(game, players, game_seed_, *args, **kwargs)

    return play


def test_a_candidate_that_beats_the_base_only_on_the_search_games_is_not_proposed(
        unfair, monkeypatch, tmp_path):
    from pnp.engine import tune as tune_module

    monkeypatch.setattr(tune_module, "default_play", lambda: _crashing_on_the_finalists_games(1, 20))
    out = tmp_path / "tuned.yaml"
    args = [str(unfair), "--param", f"{GOLD0}=0..6", "--players", "2", "--budget", "5",
            "--games", "20", "--confirm-games", "20"]
    result = tune(*args, "--format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["search"]["ranked"][0]["values"] != {GOLD0: 4}  # the search preferred a change
    assert all(r.get("broken") for r in doc["selection"]["finalists"][1:])
    assert doc["best"]["same_as_base"] and doc["override"]["proposed"] is False
    text = tune(*args, "--out", str(out))
    assert text.exit_code == 0, text.output
    assert "No variant proposed: no candidate beat the base values." in text.stdout
    assert "Proposed variant" not in text.stdout and "the base values stand" in text.stdout
    assert "tuned  the base values (no candidate beat them)" in text.stdout
    assert "(paired)" not in text.stdout  # no +0.0 differences of the base with itself
    assert not out.exists() and "not written" in text.stderr


def test_tuned_values_not_better_on_fresh_games_are_not_offered_to_paste():
    from pnp.report.tune_text import render_tune_text

    doc = {"game": "g", "variant": None, "params": [{"path": GOLD0, "values": [0, 1, 2, 3, 4],
                                                     "base": 4}],
           "targets": [{"target": "seats", "label": "fair seats"}], "players": 2,
           "bots": ["greedy"], "seed": 1, "optimiser": {"name": "NTBEA"},
           "games_per_candidate": 20, "broken": [],
           "search": {"evaluated": 5, "space": 5, "exhausted": True, "ranked": [],
                      "base": {"loss": 0.2, "values": {GOLD0: 4}}},
           "selection": {"finalists": []},
           "best": {"values": {GOLD0: 2}, "same_as_base": False}}
    side = {"loss": 0.1, "losses": [0.1], "measures": {}, "fair_share": 0.5, "seats": [],
            "seats_inside": True, "seats_flagged": [], "turns": {"mean": 6},
            "finish_rate": 1.0}
    doc["confirmation"] = {"games": 20, "seed": 1000001, "base": side,
                           "tuned": dict(side, loss=0.12, losses=[0.12]),
                           "seat_differences": []}
    doc["override"] = {"id": "tuned", "yaml": "variants:\n- id: tuned\n",
                       "variant": {"overrides": {GOLD0: 2}}, "proposed": False,
                       "why_not": "the tuned values' loss on fresh games is not lower than the "
                                  "base's"}
    text = render_tune_text(doc)
    assert "Proposed variant" not in text and "- id: tuned" not in text
    assert "No variant proposed: the tuned values' loss on fresh games is not lower" in text
    assert "extra_gold/0 = 2" in text.split("No variant proposed")[1]


def test_a_parameter_the_player_count_never_reads_is_called_out(unfair):
    """Seat 4's extra gold at 2 players: a valid path whose value no 2-player game reads (as
    Antike's general start-coin list at a count with a list of its own). Every candidate
    plays the base's very games; the verdict says so instead of "the base values stand" as
    if the gold had been weighed."""
    result = tune(str(unfair), "--param", "game/rules/setup/extra_gold/3=0..3", "--players",
                  "2", "--budget", "4", "--games", "10", "--confirm-games", "10",
                  "--format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["search"]["inert"] is True and doc["search"]["unchanged"] == 3
    text = tune(str(unfair), "--param", "game/rules/setup/extra_gold/3=0..3", "--players", "2",
                "--budget", "4", "--games", "10", "--confirm-games", "10")
    assert "every candidate played the base values' very games" in text.output
    assert "Is each path read at 2 players?" in text.output
