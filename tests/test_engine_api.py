"""pnp.engine.api: the helpers a designer's rules module leans on read the data and go through
the context, so what they do is bounded, scripted and recorded like any rule."""

from __future__ import annotations

import dataclasses

import pytest

from pnp.data.game import load_game
from pnp.engine.api import (
    Context,
    Effects,
    GameMeta,
    GameResult,
    PlayerState,
    State,
    advance,
    card_instances,
    counter_bounds,
    leaders,
    start_counters,
)
from pnp.engine.bots import FirstBot, GreedyBot
from pnp.engine.core import ScriptedDice
from pnp.scaffold import scaffold


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    folder = tmp_path_factory.mktemp("g") / "caravan"
    scaffold(folder)
    return load_game(folder).game


def context(game, dice=(), bots=None, players=2, log=None) -> Context:
    state = State([PlayerState(start_counters(game)) for _ in range(players)])
    meta = GameMeta(game.id, 2, 4, 10, counter_bounds(game), bot_values={"victory-points": 10})
    bots = bots or [FirstBot() for _ in range(players)]
    result = GameResult(game=game.id, seed=0, players=players, bots=("t",) * players)
    return Context(state, ScriptedDice(list(dice)), bots, result, log,
                   visibility=meta.zone_visibility)


def test_counters_and_bounds_come_from_the_stats(game):
    assert start_counters(game) == {"gold": 0, "food": 0, "victory-points": 0}
    assert counter_bounds(game)["food"] == (0, 10)
    richer = dataclasses.replace(game, counters={**game.counters, "gold": dataclasses.replace(
        game.counters["gold"], start=4)})
    assert start_counters(richer)["gold"] == 4


def test_every_printed_copy_is_one_card_with_its_own_uid(game):
    cards = card_instances(game, "market", first_uid=100)
    assert len(cards) == 54 and len({c.uid for c in cards}) == 54
    assert min(c.uid for c in cards) == 100
    assert sum(c.card == "silk" for c in cards) == 3


def test_a_loop_wraps_and_a_path_stops_at_its_end(game):
    road = game.tracks["road"]
    assert advance(road, 8, 4) == 2
    path = dataclasses.replace(road, shape="path")
    assert advance(path, 8, 4) == 9


def test_gains_stop_at_the_cap_and_losses_at_the_floor_and_are_counted(game):
    ctx = context(game)
    fx = Effects(game, ctx)
    fx.apply(0, "F+7", "test")
    fx.apply(0, "F+7", "test")
    fx.apply(1, "G-2", "test")
    assert ctx.state.players[0].counters["food"] == 10
    assert ctx.state.players[1].counters["gold"] == 0
    assert ctx.result.cap_clips["food"] == 1 and ctx.result.floor_clips["gold"] == 1


def test_effect_dice_are_rolled_through_the_context(game):
    log: list = []
    ctx = context(game, dice=[4], log=log)
    ctx.state.players[0].counters["gold"] = 6
    Effects(game, ctx).apply(0, "G-1D6", "tax")
    assert ctx.state.players[0].counters["gold"] == 2
    assert ctx.trace == [4] and log[0]["e"] == "roll" and log[0]["why"] == "amount gold"


def test_an_effect_with_alternatives_is_the_players_choice(game):
    log: list = []
    ctx = context(game, log=log)
    Effects(game, ctx).apply(0, "G+1 | F+2", "map")
    choice = next(e for e in log if e["e"] == "choice")
    assert choice["options"] == ["G+1", "F+2"] and choice["value"] == "G+1"
    assert ctx.state.players[0].counters == {"gold": 1, "food": 0, "victory-points": 0}


def test_the_greedy_bot_weighs_each_alternative(game):
    meta = GameMeta(game.id, 2, 4, 10, counter_bounds(game), bot_values={"victory-points": 10})
    ctx = context(game, bots=[GreedyBot(0, 0, meta), GreedyBot(0, 1, meta)])
    fx = Effects(game, ctx)
    fx.apply(0, "G+3 | VP+1", "pick")
    assert ctx.state.players[0].counters["victory-points"] == 1
    assert fx.expect("G-1D6 F+1") == {"gold": -3.5, "food": 1.0}


def test_bad_effect_text_names_the_text(game):
    with pytest.raises(ValueError, match="'Q\\+1'"):
        Effects(game, context(game)).effect("Q+1")


def test_leaders_are_the_players_still_in_with_the_most(game):
    st = State([PlayerState({"victory-points": v}) for v in (5, 7, 7)])
    assert leaders(st, "victory-points") == [1, 2]
    st.players[2].out = True
    assert leaders(st, "victory-points") == [1]
