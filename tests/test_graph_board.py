"""The graph board: a map's bad references are diagnostics at their line, its queries answer
from the data, piece moves are logged, and its invariants catch broken states."""

from __future__ import annotations

from pathlib import Path

import pytest
from broken_games import edit, errors, line_of, starter, validate

from pnp.data.game import load_game
from pnp.engine.api import (
    MapError,
    board_of,
    count,
    map_rules,
    nodes_with,
    on_map,
    owner_at,
)
from pnp.engine.core import Context, SeededDice
from pnp.engine.graph import MAP_VAR, check_map
from pnp.engine.invariants import check_state
from pnp.engine.result import GameResult
from pnp.engine.state import PlayerState, State

MAP = """map:
  id: isles
  name: Isles
  width: 100
  height: 60
  resources:
    - {id: ore, name: Ore}
  kinds:
    - {id: land, name: Land}
    - {id: water, name: Water, terrain: water}
  nodes:
    - {id: north, name: North, kind: land, site: ore, at: [10, 10]}
    - {id: south, name: South, kind: land, at: [10, 50]}
    - {id: east, name: East, kind: land, site: ore, at: [90, 30]}
    - {id: bay, name: Bay, kind: water, at: [50, 30]}
  edges:
    - {between: [north, south], kind: road}
    - {between: [north, bay], kind: coast}
    - {between: [south, bay], kind: coast}
    - {between: [bay, east], kind: coast}
  pieces:
    - {id: army, name: Army, on: [land], per_player: 3}
    - {id: ship, name: Ship, on: [water, land], per_player: 2}
    - {id: fort, name: Fort, on: [land], needs_site: true, stock: 2, per_node: 1}
  setup:
    - {side: red, piece: army, nodes: [north, south]}
    - {side: red, piece: fort, nodes: [north]}
"""


def with_map(tmp_path: Path, text: str = MAP) -> Path:
    """The starter game with a map added to its components.yaml."""
    folder = starter(tmp_path)
    comp = folder / "components.yaml"
    if comp.exists():
        comp.write_text(comp.read_text(encoding="utf-8") + text, encoding="utf-8")
    else:
        comp.write_text("# yaml-language-server: $schema=.schemas/components.schema.json\n"
                        + text, encoding="utf-8")
    return folder


def test_a_good_map_validates_and_builds_into_the_model(tmp_path):
    folder = with_map(tmp_path)
    code, diags = validate(folder)
    assert code == 0, diags
    game = load_game(folder).game
    assert list(game.map.nodes) == ["north", "south", "east", "bay"]
    assert game.map.nodes["north"].site == "ore"
    assert game.map.setup[0].nodes == ("north", "south")


@pytest.mark.parametrize("old,new,code,words", [
    ("[north, south], kind: road", "[north, sooth], kind: road", "PNP-G002", "sooth"),
    ("{id: east, name: East", "{id: south, name: East", "PNP-G001", "duplicate node id 'south'"),
    ("kind: land, site: ore, at: [90", "kind: lnd, site: ore, at: [90", "PNP-G003", "lnd"),
    ("site: ore, at: [10, 10]", "site: silver, at: [10, 10]", "PNP-G003", "silver"),
    ("{between: [north, bay], kind: coast}", "{between: [north, north], kind: coast}",
     "PNP-G004", "to itself"),
    ("{between: [bay, east], kind: coast}", "{between: [south, north], kind: coast}",
     "PNP-G004", "twice"),
    ("at: [90, 30]", "at: [190, 30]", "PNP-G005", "outside"),
    ("piece: army, nodes: [north, south]", "piece: army, nodes: [north, nowhere]", "PNP-G002",
     "nowhere"),
    ("piece: army, nodes: [north, south]", "piece: army, nodes: [north, bay]", "PNP-G006",
     "stands only on land"),
    ("piece: fort, nodes: [north]", "piece: fort, nodes: [south]", "PNP-G006", "needs a site"),
    ("piece: fort, nodes: [north]", "piece: fort, nodes: [north, north]", "PNP-G007",
     "a node"),
    ("piece: army, nodes: [north, south]", "piece: army, nodes: [north, south, east, north]",
     "PNP-G007", "more than the 3 each player has"),
    ("piece: fort, nodes", "piece: tower, nodes", "PNP-G003", "tower"),
    ("on: [water, land]", "on: [water, lake]", "PNP-G003", "lake"),
])
def test_every_bad_reference_is_a_diagnostic_at_its_line(tmp_path, old, new, code, words):
    folder = with_map(tmp_path)
    comp = folder / "components.yaml"
    line = edit(comp, old, new)
    _, diags = validate(folder)
    found = errors(diags, code)
    assert found, diags
    hit = next(d for d in found if words in d["message"])
    assert hit["file"].endswith("components.yaml")
    assert hit["line"] == line
    assert hit["column"] >= 1
    assert hit["hint"]


def test_a_node_without_edges_is_a_warning(tmp_path):
    folder = with_map(tmp_path, MAP.replace("    - {between: [bay, east], kind: coast}\n", ""))
    code, diags = validate(folder)
    assert code == 1  # --strict
    warn = [d for d in diags if d["code"] == "PNP-G008"]
    assert warn and warn[0]["line"] == line_of(folder / "components.yaml", "{id: east")


def _game(tmp_path):
    return load_game(with_map(tmp_path)).game


def test_adjacency_and_paths_follow_the_data(tmp_path):
    r = map_rules(_game(tmp_path))
    assert r.neighbours("north") == ("south", "bay")
    assert r.neighbours("north", crossing={"road"}) == ("south",)
    assert r.adjacent("bay", "east") and not r.adjacent("north", "east")
    # an army walks on land only: east is cut off by the bay
    assert r.path("north", "east", piece="army") is None
    assert r.path("north", "east", piece="ship") == ["north", "bay", "east"]
    # a ship that may pass on only from water cannot sail across the land from north to south
    assert r.reach("east", piece="ship", through={"water"}) == {
        "east": 0, "bay": 1, "north": 2, "south": 2}
    assert r.path("south", "north", piece="ship", crossing={"coast"}) == ["south", "bay", "north"]
    assert r.distance("south", "north", piece="ship", crossing={"coast"}) == 2
    assert r.reach("north", steps=1) == {"north": 0, "south": 1, "bay": 1}
    assert r.may_stand("fort", "north") and not r.may_stand("fort", "south")
    assert r.sites("ore") == ["north", "east"]


def _plain_reach(r, src, steps, piece, crossing, through, blocked):
    """`reach` as its docstring says, from neighbours and may_stand alone (no tables)."""
    dist = {src: 0}
    frontier = [src]
    while frontier:
        nxt = []
        for node in frontier:
            d = dist[node]
            if steps is not None and d >= steps:
                continue
            if d > 0 and through is not None and r.nodes[node].kind not in through:
                continue
            for n in r.neighbours(node, crossing):
                if n in dist or n in blocked or (piece is not None and not r.may_stand(piece, n)):
                    continue
                dist[n] = d + 1
                nxt.append(n)
        frontier = nxt
    return dist


def test_reach_agrees_with_the_plain_search_for_every_limit(tmp_path):
    """reach keeps a table of steps per (piece, crossing): every combination of limits, asked
    in turn on one MapRules, answers as a search from the neighbours would, in BFS order."""
    r = map_rules(_game(tmp_path))
    asked = 0
    for piece in (None, "army", "ship", "fort"):
        for crossing in (None, {"road"}, {"coast"}, ["coast", "road"]):
            for through in (None, {"water"}, {"land"}):
                for blocked in ((), {"bay"}, ["south"]):
                    for steps in (None, 0, 1, 2):
                        for src in r.nodes:
                            got = r.reach(src, steps, piece, crossing, through, blocked)
                            want = _plain_reach(r, src, steps, piece, crossing, through, blocked)
                            assert got == want and list(got) == list(want), (
                                src, steps, piece, crossing, through, blocked)
                            asked += 1
    assert asked == 4 * 4 * 3 * 3 * 4 * 4
    # a blocked node is never entered, even as the only way on
    assert r.reach("north", piece="army", blocked={"south"}) == {"north": 0}


def test_board_of_reads_the_pieces_without_adding_the_var():
    ctx = _ctx(players=3)
    st = ctx.state
    assert board_of(st) == {} and MAP_VAR not in st.vars
    assert count(st, "north", "army") == 0 and owner_at(st, "north", "army") is None
    assert nodes_with(st, "army") == [] and on_map(st, "army", 0) == 0
    assert MAP_VAR not in st.vars  # reading never writes
    ctx.place("army", "north", 2, "setup", n=2)
    ctx.place("army", "north", 1, "setup", n=2)
    ctx.place("ship", "bay", 0, "setup")
    assert board_of(st) is st.vars[MAP_VAR]
    assert board_of(st) == {"north": {"army": [0, 2, 2]}, "bay": {"ship": [1, 0, 0]}}
    assert owner_at(st, "north", "army") == 1  # a tie goes to the lowest seat
    assert owner_at(st, "bay", "army") is None and owner_at(st, "south", "ship") is None
    assert count(st, "north", "army") == 4 and count(st, "north", "army", 0) == 0
    assert nodes_with(st, "army", 0) == [] and nodes_with(st, "army", 2) == ["north"]
    assert nodes_with(st, "ship") == ["bay"]


def _ctx(players: int = 2, log: list | None = None) -> Context:
    state = State([PlayerState({}) for _ in range(players)])
    return Context(state, SeededDice(1), [], GameResult("g", 1, players, ()), log=log)


def test_piece_moves_are_logged_and_counted_for_coverage():
    log: list = []
    ctx = _ctx(log=log)
    ctx.place("army", "north", 1, "setup", n=2)
    ctx.move_piece("army", "north", "south", 1, "march")
    ctx.remove("army", "south", 1, "battle")
    st = ctx.state
    assert count(st, "north", "army", 1) == 1 and count(st, "south", "army") == 0
    assert on_map(st, "army", 1) == 1 and nodes_with(st, "army") == ["north"]
    assert owner_at(st, "north", "army") == 1
    assert [(e["op"], e["from"], e["to"], e["n"]) for e in log] == [
        ("place", None, "north", 2), ("move", "north", "south", 1), ("remove", "south", None, 1)]
    assert ctx.result.coverage[("node", "north")] == 1
    assert ctx.result.coverage[("node", "south")] == 1
    assert st.vars[MAP_VAR] == {"north": {"army": [0, 1]}}  # an emptied node is left out


def test_every_piece_operation_counts_as_a_map_change():
    ctx = _ctx()
    assert ctx.map_changes == 0
    ctx.place("army", "north", 1, "setup", n=2)
    ctx.move_piece("army", "north", "south", 1, "march")
    ctx.remove("army", "south", 1, "battle")
    assert ctx.map_changes == 3
    with pytest.raises(MapError):
        ctx.remove("army", "south", 1, "battle")  # refused: nothing changed
    with pytest.raises(MapError):
        ctx.place("army", "south", 1, "setup", n=0)
    assert ctx.map_changes == 3
    assert _ctx().map_changes == 0  # a count per context


def test_moving_a_piece_that_is_not_there_is_refused():
    ctx = _ctx()
    with pytest.raises(MapError):
        ctx.move_piece("army", "north", "south", 0, "march")
    with pytest.raises(MapError):
        ctx.remove("army", "north", 0, "battle")
    assert ctx.state.vars[MAP_VAR] == {}


@pytest.mark.parametrize("board,message", [
    ({"atlantis": {"army": [1, 0]}}, "a node the map does not have"),
    ({"north": {"dragon": [1, 0]}}, "a kind the map does not have"),
    ({"north": {"army": [1]}}, "one entry per seat"),
    ({"north": {"army": [-1, 0]}}, "negative"),
    ({"bay": {"army": [1, 0]}}, "Army stands on a node it may not stand on"),
    ({"south": {"fort": [1, 0]}}, "Fort stands on a node it may not stand on"),
    ({"north": {"fort": [1, 1]}}, "more than 1 Fort on one node"),
    ({"north": {"army": [2, 0]}, "south": {"army": [2, 0]}}, "more Army on the map than the 3"),
    ({"north": {"fort": [1, 0]}, "east": {"fort": [0, 1]}, "south": {"army": [1, 0]}}, None),
    ({"north": {"fort": [1, 0]}, "east": {"fort": [1, 0]}}, None),
])
def test_the_map_invariants_catch_broken_states(tmp_path, board, message):
    rules = map_rules(_game(tmp_path))
    state = State([PlayerState({}), PlayerState({})], vars={MAP_VAR: board})
    problems = check_map(state, rules)
    if message is None:
        assert problems == []
    else:
        assert any(message in p for p in problems), problems


def test_the_box_stock_is_checked_across_players(tmp_path):
    game = _game(tmp_path)
    text = MAP.replace("stock: 2", "stock: 1")
    rules = map_rules(load_game(with_map(tmp_path / "b", text)).game)
    state = State([PlayerState({}), PlayerState({})],
                  vars={MAP_VAR: {"north": {"fort": [1, 0]}, "east": {"fort": [0, 1]}}})
    assert any("box's 1" in p for p in check_map(state, rules))
    assert check_map(state, map_rules(game)) == []


def test_the_generic_state_check_includes_the_map(tmp_path):
    from pnp.engine.core import GameMeta

    rules = map_rules(_game(tmp_path))
    meta = GameMeta("g", 2, 2, 5, {}, map=rules)
    state = State([PlayerState({}), PlayerState({})], vars={MAP_VAR: {"atlantis": {"army": [1, 0]}}})
    assert any("does not have" in p for p in check_state(state, meta))
