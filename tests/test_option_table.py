"""Option tables: the greedy bot's whole-table judgement must pick exactly what scoring each
option one by one picks, caps, danger floors and ties included, every time it is asked."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.engine.bots import GreedyBot, RandomBot
from pnp.engine.core import BotHints, Estimate, GameMeta, OptionTable
from pnp.engine.state import MAIN, PlayerState, State

STATS = ("food", "gold", "military", "culture")


def _meta() -> GameMeta:
    return GameMeta(game="t", players_min=1, players_max=2, max_turns=5,
                    counter_bounds={"food": (0, 12), "gold": (0, None), "military": (0, 15),
                                    "culture": (0, None)},
                    bot_values={"food": 1.0, "gold": 0.5, "military": 2.0, "culture": 1.0})


#: danger floors come from the game's bot_hints hook, not from its metadata
HINTS = BotHints(floors={"food": 2, "military": 1})


def _state(values: dict[str, int]) -> State:
    st_ = State([PlayerState(dict(values))])
    st_.stage = MAIN
    return st_


# halves, as dice means are: a cap or floor then falls between two counter values
deltas = st.dictionaries(st.sampled_from(STATS), st.integers(-12, 12).map(lambda k: k / 2),
                         max_size=3)
counters = st.fixed_dictionaries({s: st.integers(0, 16) for s in STATS})


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(deltas, min_size=1, max_size=5), st.lists(counters, min_size=1, max_size=6),
       st.booleans())
def test_table_pick_equals_option_by_option(estimates, positions, plain) -> None:
    """Asked at many counter values (the memo fills and is read back), the table's pick is
    the one-by-one pick; the estimates may be Estimates or plain dicts."""
    made = [dict(e) if plain else Estimate(e) for e in estimates]
    options = tuple(f"o{i}" for i in range(len(made)))
    table = OptionTable(options, made)
    bot = GreedyBot(1, 0, _meta(), HINTS)
    one_by_one = dict(zip(options, made, strict=True)).get
    for values in positions + positions:  # the second pass reads what the first remembered
        state = _state(values)
        expected = bot.pick(state.players[0].counters, options, one_by_one)
        assert bot.choose(state, 0, table.options, "t", table) == expected


def test_ties_go_to_the_first_option() -> None:
    table = OptionTable(("stay", "go"), (Estimate({"gold": 1.0}), Estimate({"gold": 1.0})))
    bot = GreedyBot(1, 0, _meta(), HINTS)
    assert bot.choose(_state(dict.fromkeys(STATS, 5)), 0, table.options, "t", table) == 0


def test_a_floor_changes_the_pick_and_the_table_follows() -> None:
    """Selling Food is worth it with plenty, not near the danger floor: the plain pick (sell)
    must give way to keeping when Food is low, as scoring each option would."""
    table = OptionTable(("keep", "sell"), (Estimate(), Estimate({"food": -3.0, "gold": 8.0})))
    bot = GreedyBot(1, 0, _meta(), HINTS)
    rich, poor = dict.fromkeys(STATS, 10), {**dict.fromkeys(STATS, 10), "food": 3}
    assert bot.choose(_state(rich), 0, table.options, "t", table) == 1
    assert bot.choose(_state(poor), 0, table.options, "t", table) == 0
    assert bot.choose(_state(rich), 0, table.options, "t", table) == 1


def test_a_floor_or_cap_between_two_counter_values_is_met_at_the_right_one() -> None:
    """Dice means are halves, so a loss can cross the danger line (Food 2 + 2) from 5 but not
    from 6, and a gain can pass the cap (Food 12) from 11 but not from 10: the table must
    change its pick exactly there."""
    bot = GreedyBot(1, 0, _meta(), HINTS)
    sell = OptionTable(("keep", "sell"), (Estimate(), Estimate({"food": -1.5, "gold": 4.0})))
    grow = OptionTable(("gold", "food"), (Estimate({"gold": 2.6}), Estimate({"food": 1.5})))
    expected = {5: ("keep", "food"), 6: ("sell", "food"), 10: ("sell", "food"),
                11: ("sell", "gold")}
    for food, picks in expected.items():
        state = _state({**dict.fromkeys(STATS, 5), "food": food})
        got = tuple(t.options[bot.choose(state, 0, t.options, "t", t)] for t in (sell, grow))
        assert got == picks, food


def test_another_games_digest_is_not_trusted() -> None:
    """A table judged by a bot of one game is judged anew by a bot with other values."""
    table = OptionTable(("a", "b"), (Estimate({"gold": 2.0}), Estimate({"military": 1.5})))
    values = dict.fromkeys(STATS, 5)
    assert GreedyBot(1, 0, _meta(), HINTS).choose(_state(values), 0, table.options, "t", table) == 1
    meta = GameMeta(game="u", players_min=1, players_max=2, max_turns=5,
                    counter_bounds=_meta().counter_bounds, bot_values={"gold": 3.0})
    assert GreedyBot(1, 0, meta).choose(_state(values), 0, table.options, "t", table) == 0


def test_a_table_is_the_usual_outcomes_for_other_bots() -> None:
    e = Estimate({"gold": 1.0})
    table = OptionTable(("x", "y", "x"), (e, Estimate(), Estimate({"gold": 9.0})))
    assert table("x") is e  # a repeated option means its first estimate
    assert len(table) == 3
    pick = RandomBot(3, 0).choose(_state(dict.fromkeys(STATS, 1)), 0, table.options, "t", table)
    assert 0 <= pick < 3


def test_one_estimate_per_option() -> None:
    with pytest.raises(ValueError, match="one estimate per option"):
        OptionTable(("a", "b"), (Estimate(),))
