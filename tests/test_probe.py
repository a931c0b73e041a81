"""`pnp probe`: one seat takes an option greedy passes over (or values a stat differently),
paired with greedy on the same seeds. It must find a blind spot where there is one, play
greedy's very games where it changes nothing, and say plainly when it had nothing to probe."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from pnp.cli import main
from pnp.commands.probe import render_sweep
from pnp.data.game import load_game
from pnp.data.model import GameDef
from pnp.engine import bots as bots_mod
from pnp.engine import probe as probe_mod
from pnp.engine.probe import PROBE, Probe, run_probe, sweep_games, worth_sweep
from pnp.scaffold import scaffold

GAMES = Path(__file__).parent / "fixtures" / "search-games"


def run(*args: str):
    return CliRunner().invoke(main, ["probe", *args])


def harvest() -> GameDef:
    """The toy harvest: `now` pays one point at once, `later` three at the end; greedy, with
    no estimates to go on, takes the first option, `now`, every round."""
    return GameDef(id="harvest", name="Harvest", folder=GAMES, players_min=2, players_max=2,
                   engine="harvest.py")


def test_a_blind_spot_of_greedys_is_found_and_named():
    result = run_probe(harvest(), 2, 10, 1, Probe(at="harvest", pick="later"))
    assert result.offered == result.overrides == 10 * 6  # every round of every game
    gain, lo, _ = result.gain()
    assert result.rate == 1.0 and result.greedy_rate == 0.5  # greedy ties itself
    assert gain == 0.5 and lo > 0
    assert PROBE not in bots_mod.BOTS  # the probe's bot name is gone after the run


def test_a_probe_at_a_share_takes_its_pick_only_that_often():
    result = run_probe(harvest(), 2, 40, 1, Probe(at="harvest", pick="later", share=0.5))
    assert result.offered == 240 and 80 < result.overrides < 160


def test_a_probe_that_changes_nothing_plays_greedys_games(tmp_path):
    out = run("ancient-civilizations", "--players", "3", "--games", "30", "--value",
              "gold=0.8", "--format", "json")  # greedy's own worth for Gold
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    assert doc["gain"] == 0.0 and doc["probe_rate"] == doc["greedy_rate"]
    assert doc["verdict"].startswith("nothing was probed")


def test_a_known_loss_reads_as_one_and_the_report_is_the_same_every_run():
    args = ("ancient-civilizations", "--players", "3", "--games", "150", "--at",
            "build: pay to move", "--pick", "stop")
    first, second = run(*args), run(*args)
    assert first.exit_code == 0 and first.output == second.output
    assert "offered at" in first.output and "the probe wins less" in first.output


def test_a_decision_never_offered_lists_the_ones_the_game_asks(tmp_path):
    folder = tmp_path / "demo"
    scaffold(folder)
    out = run(str(folder), "--at", "buy silks", "--pick", "silk", "--games", "4")
    assert out.exit_code == 1
    assert "never offered" in out.output and "'buy silk'" in out.output
    out = run(str(folder), "--at", "buy silk", "--pick", "silk", "--games", "4")
    assert out.exit_code == 1 and "never offered: 'buy silk' offered 'buy', 'pass'" in out.output


def test_what_cannot_be_probed_is_a_usage_error():
    for args in ([], ["--at", "build: pay to move"], ["--pick", "stop"],
                 ["--value", "gld=1"], ["--value", "gold=lots"], ["--share", "0"],
                 ["--worths", "--value", "gold=1"], ["--worths", "--at", "x", "--pick", "y"]):
        out = run("ancient-civilizations", *args)
        assert out.exit_code == 2, (args, out.output)
    assert "has no stat 'gld'" in run("ancient-civilizations", "--value", "gld=1").output


def test_a_broken_game_stops_the_probe_with_exit_1(tmp_path):
    folder = tmp_path / "demo"
    scaffold(folder)
    rules = folder / "rules.py"
    text = rules.read_text()
    old = "    fill_result(ctx, SCORE)\n"
    assert old in text
    rules.write_text(text.replace(old, "    raise RuntimeError('boom')\n" + old, 1))
    out = run(str(folder), "--value", "gold=2", "--games", "2")
    assert out.exit_code == 1 and "pnp simulate" in out.output


def test_a_game_without_chance_is_probed_against_its_own_self_play_bot():
    """Antike's greedy would play one game however many are asked for; its game.yaml names
    greedy-varied, and the probe plays against that, not greedy."""
    out = run("antike", "--players", "2", "--games", "2", "--value", "gold=1", "--format",
              "json")
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["opponent"] == "greedy-varied"


def test_an_unknown_opponent_is_named_as_the_opponents_fault():
    out = run("ancient-civilizations", "--value", "gold=1", "--opponent", "genius")
    assert out.exit_code == 2 and "--opponent" in out.output and "genius" in out.output
    out = run("ancient-civilizations", "--value", "gold=1", "--opponent", "greedy,random")
    assert out.exit_code == 2 and "name one bot" in out.output


def _worths(folder: Path) -> tuple[dict, dict]:
    out = run(str(folder), "--worths", "--players", "3", "--games", "300", "--format", "json")
    assert out.exit_code == 0, out.output
    doc = json.loads(out.stdout)
    return {(r["stat"], r["factor"]): r for r in doc["worths"]}, doc


def test_the_worth_sweep_finds_a_stat_valued_though_no_rule_reads_it(tmp_path):
    """The starter game with nothing eaten in the End Phase (`eat: 0`): Food then does nothing,
    yet greedy values it at 2, so a seat that values it at nothing wins more, and the sweep
    says so (Holm-corrected over its nine probes); as `pnp new` writes it, Food feeds the
    caravan and no worth change wins more."""
    folder = tmp_path / "caravan"
    scaffold(folder)
    plain, _ = _worths(folder)
    assert not any(r["blind_spot"] for r in plain.values()), plain
    assert plain[("food", 0.0)]["gain"] < 0  # ignoring Food now costs points
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("    eat: 1\n", "    eat: 0\n"))
    unread, doc = _worths(folder)
    food = unread[("food", 0.0)]
    assert food["blind_spot"] and food["gain_ci95"][0] > 0 and food["p_holm"] < 0.05
    assert food["worth"] == 2.0 and food["probe_worth"] == 0.0
    assert not unread[("victory-points", 0.0)]["blind_spot"]  # points still win games
    text = render_sweep(doc)  # the text output, drawn from the same document
    assert "food at 0 (+" in text and "a blind spot of the bot's worths" in text


def test_a_sweep_plays_greedys_games_once_and_pairs_every_probe_with_them(tmp_path, monkeypatch):
    """Every probe of a sweep is paired with the same greedy-alone games (same seeds), so the
    sweep plays them once: each row is what the probe alone would say, and the progress count
    ends at the games really played."""
    scaffold(tmp_path / "caravan")
    game = load_game(tmp_path / "caravan").game
    alone_games = []
    played = probe_mod._played

    def counting(i, game, players, seed, seats):
        if PROBE not in seats:
            alone_games.append(i)
        return played(i, game, players, seed, seats)

    monkeypatch.setattr(probe_mod, "_played", counting)
    seen: list[int] = []
    rows = worth_sweep(game, 2, 12, 3, progress=seen.append)
    assert sorted(alone_games) == list(range(12))  # once, not once per probe
    assert seen == sorted(seen) and seen[-1] == sweep_games(game, 2, 12) == (len(rows) + 1) * 12
    for row in (rows[0], rows[-1]):
        alone = run_probe(game, 2, 12, 3, Probe(values={row["stat"]: row["probe_worth"]}))
        gain, lo, hi = alone.gain()
        assert (round(gain, 4), [round(lo, 4), round(hi, 4)]) == (row["gain"], row["gain_ci95"])


def test_a_card_is_probed_by_the_name_the_choices_report_gives_it():
    """The Ancient World's build options carry instance numbers ('empire-row/121'); the report
    names each by its card, and B022 says to probe that name. The probe must find it (it once
    answered "never offered", listing the very card among the options)."""
    game = load_game(Path(__file__).parents[1] / "cards" / "the-ancient-world").game
    result = run_probe(game, 3, 6, 1, Probe(at="build an empire card", pick="Obsidian Market"))
    assert result.offered > 0 and result.overrides > 0
    assert ("build an empire card", "Obsidian Market") in result.asked


def test_a_stat_no_decision_weighs_is_named_as_never_read(tmp_path):
    """A worth the bot never reads (a stat no option's estimate changes) plays the same games
    at every factor; the sweep says so in one line instead of leaving it to the table."""
    folder = tmp_path / "caravan"
    scaffold(folder)
    stats = folder / "stats.yaml"
    stats.write_text(stats.read_text() + "  - {id: renown, name: Renown, abbreviation: R}\n")
    out = run(str(folder), "--worths", "--players", "2", "--games", "12")
    assert out.exit_code == 0, out.output
    line = next(x for x in out.output.splitlines() if "the same games at every worth" in x)
    assert "renown" in line and "food" not in line and "gold" not in line
