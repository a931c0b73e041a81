"""Determinisation for the search bots: hidden cards are shuffled per zone, never across zones.

Issue 20: `redeterminize` pooled the hidden cards of every face-down zone into one shuffle, so
a search bot's playout could deal an event card into a civilization market, and the rules
module, rightly, failed on it (`pnp simulate age-of-civilization --players 4 --bots search:4`
crashed in every game with a KeyError on an event card).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from pnp.engine.state import (
    ALL,
    NOBODY,
    OWNER,
    CardInstance,
    PlayerState,
    State,
    card_backs,
    redeterminize,
)


def _state() -> State:
    uid = iter(range(1000))

    def cards(*names: str) -> list[CardInstance]:
        return [CardInstance(next(uid), n) for n in names]

    players = [PlayerState({}, zones={"hand": cards("a1", "a2", "a3")}),
               PlayerState({}, zones={"hand": cards("b1", "b2", "b3")})]
    return State(players, zones={
        "events": cards("flood", "plague", "harvest", "war", "feast"),
        "civs": cards("rome", "egypt", "persia", "china"),
        "row": cards("open1", "open2"),
    })


VIS = {"events": NOBODY, "civs": NOBODY, "row": ALL, "hand": OWNER}


def _contents(state: State) -> dict:
    return {(owner, zone): Counter(c.card for c in cards)
            for owner, zone, cards in state.all_zones()}


def test_without_backs_hidden_cards_stay_in_their_own_zone():
    before = _state()
    orders = set()
    for seed in range(50):
        state = before.copy()
        redeterminize(state, 0, VIS, random.Random(seed))
        assert _contents(state) == _contents(before)  # no card changed zones
        assert [c.card for c in state.zones["row"]] == ["open1", "open2"]  # open: untouched
        assert [c.card for c in state.players[0].zones["hand"]] == ["a1", "a2", "a3"]  # own
        orders.add((tuple(c.card for c in state.zones["events"]),
                    tuple(c.card for c in state.players[1].zones["hand"])))
    assert len(orders) > 10  # the unseen orders really are dealt afresh


def _backs(state: State) -> dict:
    """The hands were dealt from the events' pile's neighbour, a shared 'deck' of hand
    cards: their back is the deck's; events and civilizations have their own."""
    backs = card_backs(state)
    for p in state.players:
        for c in p.zones["hand"]:
            backs[c.uid] = (-1, "deck")
    return backs


def test_cards_swap_only_with_cards_of_the_same_back():
    """An unseen card in an opponent's hand may be any unseen card of its deck, but an event
    never lands among the civilizations (the crash of issue 20), nor a hand card among either."""
    before = _state()
    backs = _backs(before)
    seen_in_hand = set()
    for seed in range(50):
        state = before.copy()
        redeterminize(state, 0, VIS, random.Random(seed), backs)
        assert _contents(state)[(-1, "events")] == _contents(before)[(-1, "events")]
        assert _contents(state)[(-1, "civs")] == _contents(before)[(-1, "civs")]
        assert [c.card for c in state.players[0].zones["hand"]] == ["a1", "a2", "a3"]
        assert {c.card for c in state.players[1].zones["hand"]} <= {"b1", "b2", "b3"}
        seen_in_hand.update(c.card for c in state.players[1].zones["hand"])
    assert seen_in_hand == {"b1", "b2", "b3"}


def test_a_seat_cannot_tell_which_unseen_cards_of_a_deck_an_opponent_holds():
    state = _state()
    state.zones["deck"] = [CardInstance(100 + i, f"d{i}") for i in range(6)]
    backs = {**card_backs(state), **{c.uid: (-1, "deck") for c in state.players[1].zones["hand"]}}
    vis = {**VIS, "deck": NOBODY}
    held = Counter()
    for seed in range(200):
        copy = state.copy()
        redeterminize(copy, 0, vis, random.Random(seed), backs)
        held.update(c.card for c in copy.players[1].zones["hand"])
        assert len(copy.zones["deck"]) == 6 and len(copy.players[1].zones["hand"]) == 3
    # nine unseen cards of one back, three places in the hand: each card is there sometimes
    assert set(held) == {"b1", "b2", "b3", *(f"d{i}" for i in range(6))}


def test_a_face_up_card_in_a_hidden_zone_keeps_its_place():
    before = _state()
    before.zones["events"][2].face_up = True  # turned over: everybody has seen it
    for seed in range(20):
        state = before.copy()
        redeterminize(state, 1, VIS, random.Random(seed))
        assert state.zones["events"][2].card == "harvest"
        assert _contents(state) == _contents(before)


def test_the_same_seed_deals_the_same_way():
    a, b = _state(), _state()
    redeterminize(a, 0, VIS, random.Random(3))
    redeterminize(b, 0, VIS, random.Random(3))
    assert a == b


@pytest.mark.slow
def test_search_bots_play_age_of_civilization_at_four_players_without_a_crash():
    """The issue's reproduction: every game crashed (KeyError on an event card)."""
    from pnp.commands.common import load_or_exit
    from pnp.engine.play import play_game
    from pnp.engine.selfplay import game_seed

    game = load_or_exit("age-of-civilization").game
    result = play_game(game, 4, game_seed(1, 0), ("search:1",) * 4)
    assert result.violations == [] and result.ended == "completed"
