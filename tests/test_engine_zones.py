"""Zone operations and the turn driver of pnp.engine.api: a card changes zone only through the
context, so the game log shows every move and a replay moves the same cards; the driver owns
steps, turns and the turn cap, so a rules module lists its phases and nothing more."""

from __future__ import annotations

from pnp.engine.api import (
    MAIN,
    OVER,
    TIMEOUT,
    CardInstance,
    Context,
    GameResult,
    Phase,
    PlayerState,
    State,
    play_turns,
)
from pnp.engine.core import ScriptedDice, trace_from_log
from pnp.engine.play import play_game, replay


def cards(*names: str, first: int = 1) -> list[CardInstance]:
    return [CardInstance(first + i, n) for i, n in enumerate(names)]


def context(zones: dict, dice=(), players: int = 2, log: list | None = None) -> Context:
    state = State([PlayerState({}) for _ in range(players)], zones=zones)
    result = GameResult(game="t", seed=0, players=players, bots=("t",) * players)
    return Context(state, ScriptedDice(list(dice)), [], result, log)


def moves(log: list) -> list[tuple]:
    return [(e["from"], e["to"], tuple(e["cards"]), e["why"]) for e in log if e["e"] == "move"]


def test_move_takes_that_very_card_even_beside_an_equal_copy():
    first, twin = CardInstance(1, "farm"), CardInstance(1, "farm")  # equal as data
    log: list = []
    ctx = context({"row": [first, twin]}, log=log)
    ctx.move(twin, "row", ("hand", 1), "buy a farm", seat=1)
    assert ctx.zone("row")[0] is first and ctx.zone(("hand", 1))[0] is twin
    assert moves(log) == [("row", "hand@1", ("farm",), "buy a farm")]
    assert log[-1]["seat"] == 1


def test_take_moves_a_card_by_position_and_can_put_it_on_top():
    ctx = context({"deck": cards("a", "b", "c"), "pile": cards("x", first=9)})
    taken = ctx.take("deck", 1, "pile", "peek", top=True)
    assert taken.card == "b"
    assert [c.card for c in ctx.zone("deck")] == ["a", "c"]
    assert [c.card for c in ctx.zone("pile")] == ["b", "x"]


def test_draw_to_moves_the_top_cards_in_order_and_stops_at_an_empty_deck():
    log: list = []
    ctx = context({"deck": cards("a", "b", "c")}, log=log)
    assert [c.card for c in ctx.draw_to("deck", 2, ("hand", 0), "draw two", 0)] == ["a", "b"]
    assert [c.card for c in ctx.draw_to("deck", 5, ("hand", 0), "draw five", 0)] == ["c"]
    assert ctx.draw_to("deck", 1, ("hand", 0), "draw one", 0) == []
    assert [c.card for c in ctx.zone(("hand", 0))] == ["a", "b", "c"]
    assert moves(log) == [("deck", "hand@0", ("a", "b"), "draw two"),
                          ("deck", "hand@0", ("c",), "draw five")]  # nothing moved: no event


def test_reshuffle_shuffles_the_discards_under_the_deck_with_recorded_dice():
    # Fisher-Yates over three cards rolls a d3 then a d2: 1 swaps the last card with the
    # first, then 1 swaps the middle with the first: [x, y, z] -> [z, y, x] -> [y, z, x]
    log: list = []
    ctx = context({"deck": cards("top"), "discard": cards("x", "y", "z", first=5)},
                  dice=[1, 1], log=log)
    assert ctx.reshuffle("discard", "deck", "refresh") == 3
    assert [c.card for c in ctx.zone("deck")] == ["top", "y", "z", "x"]
    assert ctx.zone("discard") == []
    assert ctx.trace == [1, 1]
    assert moves(log) == [("discard", "deck", ("y", "z", "x"), "refresh")]
    assert ctx.reshuffle("discard", "deck", "refresh") == 0  # nothing to shuffle: no dice


def test_refill_fills_the_row_and_refreshes_an_empty_deck_from_the_discards():
    ctx = context({"row": cards("r"), "deck": cards("d"), "discard": cards("p", "q", first=7)},
                  dice=[2])  # a d2 of 2 keeps [p, q] in order
    added = ctx.refill("row", "deck", 4, "refill the row", discard="discard")
    assert [c.card for c in added] == ["d", "p", "q"]
    assert [c.card for c in ctx.zone("row")] == ["r", "d", "p", "q"]
    assert ctx.zone("deck") == [] and ctx.zone("discard") == []


def test_refill_without_a_discard_leaves_the_row_short():
    ctx = context({"row": [], "deck": cards("a")})
    ctx.refill("row", "deck", 3, "refill")
    assert [c.card for c in ctx.zone("row")] == ["a"]


def test_deal_goes_round_the_table_one_card_at_a_time():
    ctx = context({"deck": cards("1", "2", "3", "4", "5")}, players=2)
    ctx.deal("deck", "hand", [1, 0], 3, "deal")  # seat 1 first; five cards for six places
    assert [c.card for c in ctx.zone(("hand", 1))] == ["1", "3", "5"]
    assert [c.card for c in ctx.zone(("hand", 0))] == ["2", "4"]


def test_an_unlogged_game_moves_the_same_cards_and_writes_nothing():
    ctx = context({"deck": cards("a", "b")})
    ctx.draw_to("deck", 1, "row", "draw")
    assert ctx.log is None and [c.card for c in ctx.zone("row")] == ["a"]


# ------------------------------------------------------------------------ the turn driver


def test_the_driver_plays_each_phase_steps_after_it_and_times_out_after_the_last_turn():
    ctx = context({})
    st = ctx.state
    st.stage, st.turn = MAIN, 1
    played, steps = [], []
    ctx.on_step = lambda _ctx, label: steps.append((st.turn, label))
    phases = [Phase("income", lambda: played.append(("income", st.turn))),
              Phase("action", lambda: played.append(("action", st.turn)))]
    play_turns(ctx, phases, 2, leaders=lambda: [1])
    assert played == [("income", 1), ("action", 1), ("income", 2), ("action", 2)]
    assert steps == [(1, "income"), (2, "action"), (2, "income"), (2, "action")]
    assert (st.stage, st.ended, st.winners, st.turn) == (OVER, TIMEOUT, [1], 2)


def test_a_phase_that_ends_the_game_is_the_last_one_played():
    ctx = context({})
    st = ctx.state
    st.stage, st.turn = MAIN, 1
    played = []

    def score() -> None:
        played.append("score")
        st.stage, st.ended, st.winners = OVER, "completed", [0]

    play_turns(ctx, [Phase("score", score), Phase("never", lambda: played.append("no"))], 9,
               leaders=lambda: [])
    assert played == ["score"] and st.ended == "completed" and ctx.steps == 1


def test_a_scenario_starting_mid_turn_or_past_the_cap_is_driven_from_there():
    ctx = context({})
    st = ctx.state
    st.stage, st.turn, st.phase = MAIN, 3, 1
    played = []
    phases = [Phase("a", lambda: played.append("a")), Phase("b", lambda: played.append("b"))]
    play_turns(ctx, phases, 3, leaders=lambda: [0])
    assert played == ["b"] and st.ended == TIMEOUT  # only the rest of turn 3
    st.stage, st.turn, st.phase, played[:] = MAIN, 7, 0, []
    play_turns(ctx, phases, 3, leaders=lambda: [0])
    assert played == [] and (st.stage, st.turn) == (OVER, 3)  # turn 7 is past the cap of 3


# ------------------------------------------------------------------------ in a real game


def test_the_starter_games_card_moves_are_logged_and_replay_to_the_same_moves(starter_game):
    log: list = []
    result = play_game(starter_game, 3, 11, ["greedy"], log=log)
    logged = moves(log)
    assert {(src, dst) for src, dst, _, _ in logged} <= {("market", "discard"),
                                                         ("discard", "market")}
    drawn = sum(len(c) for src, _, c, _ in logged if src == "market")
    assert drawn >= result.turns  # each player draws a market card every turn
    again: list = []
    replay(starter_game, 3, trace_from_log(log), log=again)
    assert moves(again) == logged


def test_a_narrated_log_tells_each_move_in_words(starter_game):
    from pnp.engine.log import narrate

    log: list = []
    play_game(starter_game, 2, 5, ["greedy"], log=log)
    lines = list(narrate(log))
    moved = [line for line in lines if " moves " in line]
    assert moved and all(" from market to discard (market card)" in line or
                         " from discard to market " in line for line in moved)
    assert not [line for line in lines if line.startswith("{")]  # no event left as raw JSON
