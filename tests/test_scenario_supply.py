"""A scenario that sets a counter linked to a supply (components.yaml or stats.yaml `supply:`)
takes the difference from that supply, or gives it back, so the harness's conservation check
holds; a scenario that states a supply gets a diagnostic at that line when the supply and what
holds its tokens cannot add up to what the game holds (PNP-S019), and one whose counters take
more than a supply that may not run out holds gets one at the counter that drew it dry
(PNP-S009). Nothing is played in either case (issue 22)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.engine.scenario import run_scenario
from pnp.paths import CARDS, SCHEMAS
from pnp.scaffold import scaffold

#: the starter game's Gold linked to a coin supply that may not run out
COINS = "supplies:\n  - {id: coin, name: Coin tokens, stock: 6}\n"


def starter_with_coins(tmp_path: Path) -> Path:
    folder = tmp_path / "demo"
    scaffold(folder)
    (folder / "components.yaml").write_text(
        "# yaml-language-server: $schema=.schemas/components.schema.json\n" + COINS)
    stats = folder / "stats.yaml"
    text = stats.read_text()
    plain = "{id: gold, name: Gold, abbreviation: G}"
    assert plain in text
    stats.write_text(text.replace(plain, plain[:-1] + ", supply: coin}"))
    return folder


def scenario(tmp_path: Path, game: Path | str, body: str) -> Path:
    path = tmp_path / "supply.yaml"
    path.write_text(f"# yaml-language-server: $schema={SCHEMAS}/scenario.schema.json\n"
                    f"name: supply\ngame: {game}\n{body}", encoding="utf-8")
    return path


def line_of(path: Path, marker: str = "# <-") -> int:
    return next(i for i, t in enumerate(path.read_text().splitlines(), 1) if marker in t)


def test_a_counter_set_from_the_pregame_takes_its_tokens_from_the_supply(tmp_path):
    """Seat 0 set to 4 Gold: the coin supply of 6 holds 2 after setup, and no coin was made
    (before, the scenario failed with 'coin tokens were made or lost')."""
    path = scenario(tmp_path, starter_with_coins(tmp_path), """players: 2
state:
  players:
    - counters: {G: 4}
expect:
  - after: pregame
    players:
      - counters: {G: 4}
      - counters: {G: 0}
    supply: {coin: 2}
""")
    report = run_scenario(path)
    assert report.ok, [f.format() for f in report.failures]


def test_a_counter_set_lower_gives_its_tokens_back(tmp_path):
    """The Ancient World, after setup (55 coins in the supply, 6 and 7 held): the first seat
    set to 10 takes 4, the second set to 2 gives 5 back."""
    path = scenario(tmp_path, "the-ancient-world", """players: 2
start: {turn: 1, phase: prepare}
state:
  players:
    - counters: {coins: 10}
    - counters: {coins: 2}
expect:
  - after: prepare
    players:
      - counters: {coins: 10}
      - counters: {coins: 2}
    supply: {coins: 56}
""")
    report = run_scenario(path)
    assert report.ok, [f.format() for f in report.failures]


def test_a_stated_supply_that_cannot_add_up_is_a_diagnostic_at_its_line(tmp_path):
    """68 coins in the box: a supply of 60 beside 6 + 7 coins held would make 5."""
    path = scenario(tmp_path, "the-ancient-world", """players: 2
start: {turn: 1, phase: actions}
stop: finish
state:
  supply: {coins: 60}  # <-
bots: first
expect:
  - {after: finish, ended: completed}
""")
    report = run_scenario(path)
    (failure,) = report.failures
    assert failure.code == "PNP-S019" and failure.line == line_of(path)
    assert "add up to 73, but the game holds 68" in failure.message
    assert "state 55" in failure.hint
    assert report.decisions == 0 and report.rolls == 0


def test_a_stated_supply_that_adds_up_is_played(tmp_path):
    path = scenario(tmp_path, "the-ancient-world", """players: 2
start: {turn: 1, phase: prepare}
state:
  supply: {coins: 50}
  players:
    - counters: {coins: 11}
expect:
  - {after: prepare, supply: {coins: 50}}
""")
    report = run_scenario(path)
    assert report.ok, [f.format() for f in report.failures]


def test_counters_that_take_more_than_the_supply_holds_fail_at_the_last_one(tmp_path):
    """6 coins that may not run out: 4 Gold and then 3 more take one coin too many."""
    path = scenario(tmp_path, starter_with_coins(tmp_path), """players: 2
state:
  players:
    - counters: {G: 4}
    - counters: {G: 3}  # <-
bots: first
expect:
  - {after: pregame}
""")
    report = run_scenario(path)
    (failure,) = report.failures
    assert failure.code == "PNP-S009" and failure.line == line_of(path)
    assert "take 1 more coin than the supply holds" in failure.message
    assert report.decisions == 0


def test_technologies_set_take_their_tokens_from_the_supply(tmp_path):
    """Age of Civilization keeps 20 technology tokens; two technologies set take two."""
    path = scenario(tmp_path, "age-of-civilization", """players: 2
state:
  players:
    - technologies: [writing, education]
bots: first
expect:
  - after: pregame
    supply: {technology-tokens: 18, coins: 64}
""")
    report = run_scenario(path)
    assert report.ok, [f.format() for f in report.failures]


def test_a_module_key_that_makes_tokens_is_a_diagnostic(tmp_path, monkeypatch):
    """The mutation: technologies set without taking their tokens are tokens made."""
    import pnp.games.age_of_civilization as aoc

    fields = aoc.scenario_fields()
    _, read = fields["technologies"]

    def free_techs(game, state, seat, value, keyed):
        state.players[seat].vars["techs"] = list(value)

    monkeypatch.setattr(aoc, "scenario_fields",
                        lambda: {**fields, "technologies": (free_techs, read)})
    path = scenario(tmp_path, "age-of-civilization", """players: 2
state:
  players:
    - technologies: [writing]
bots: first
expect:
  - {after: pregame}
""")
    codes = [f.code for f in run_scenario(path).failures]
    assert codes == ["PNP-S019"]


@pytest.mark.parametrize("game", ["age-of-civilization", "the-ancient-world"])
def test_a_fresh_game_holds_the_box_stock_before_setup(game):
    """Every token of a linked supply is in the supply or on a counter before setup too (Age
    of Civilization's 3 coins each come out of the supply when the state is made)."""
    from pnp.data.game import load_game
    from pnp.engine.invariants import held_tokens, world_of
    from pnp.engine.module import rules_of
    from pnp.engine.registry import module_for

    loaded = load_game(CARDS / game).game
    module = rules_of(module_for(loaded))
    state = module.new_state(loaded, 3)
    world = world_of(loaded, state, False, module.holdings(loaded))
    stock = {s.id: s.stock for s in loaded.supplies.values()}
    assert held_tokens(state, world) == {s: stock[s] for s in world.links}
