"""Age of Civilization moves every card through the context's zone operations: a logged game
has a `move` event for each card that changed zone (setup's markets and time track, drafting,
rising and annexing, wonders, special technology cards, market refills), and a replay of the
log moves the same cards in the same order."""

from __future__ import annotations

from collections import Counter

import pytest

from pnp.data.game import load_game
from pnp.engine.core import trace_from_log
from pnp.engine.play import play_game, replay
from pnp.games import age_of_civilization as aoc
from pnp.paths import CARDS


def moves(log: list) -> list[tuple]:
    return [(e["from"], e["to"], tuple(e["cards"]), e["why"]) for e in log if e["e"] == "move"]


def zones_of(state) -> dict[str, Counter]:
    """Every zone as the log names it (`market`, `hand@2`), with the card ids it holds."""
    out = {z: Counter(c.card for c in cards) for z, cards in state.zones.items()}
    for seat, p in enumerate(state.players):
        out.update({f"{z}@{seat}": Counter(c.card for c in cards) for z, cards in p.zones.items()})
    return out


@pytest.mark.parametrize(("players", "variant"), [(1, None), (2, "first-game"),
                                                  (3, "drafting"), (4, "innovation"),
                                                  (4, "changing-world")])
def test_every_card_that_changes_zone_is_a_logged_move_and_a_replay_moves_the_same(
        players: int, variant: str | None) -> None:
    game = load_game(CARDS / "age-of-civilization", variant).game
    log: list = []
    bots = ["greedy", "random"] * 2
    result = play_game(game, players, 5, bots[:players], invariants="all", log=log)
    assert result.violations == [] and result.ended == "completed"
    # the starting state with every logged move applied is the final state, zone by zone
    where = zones_of(aoc.new_state(game, players))
    for src, dst, cards, _ in moves(log):
        for card in cards:
            assert where[src][card] > 0, f"{card} moved from {src}, where it was not"
            where[src][card] -= 1
            where.setdefault(dst, Counter())[card] += 1
    final = next(e for e in log if e["e"] == "end")
    assert final["winners"] == list(result.winners)
    state, _ = replay(game, players, trace_from_log(log))
    assert {z: +c for z, c in where.items()} == {z: +c for z, c in zones_of(state).items()}
    # setup laid out the time track; the game took civilizations
    whys = Counter(why for *_, why in moves(log))
    assert whys["time track"] + whys["first-game time track"] >= 1
    assert whys["rise"] >= 1
    again: list = []
    replay(game, players, trace_from_log(log), log=again)
    assert moves(again) == moves(log)


def test_a_drafted_pack_passes_to_the_next_seat() -> None:
    game = load_game(CARDS / "age-of-civilization", "drafting").game
    log: list = []
    play_game(game, 3, 2, ["random"], log=log)
    passes = [(src, dst) for src, dst, _, why in moves(log) if why == "pass the draft pack"]
    # each pass: the last seat's pack goes under the first seat's, then each moves on
    assert passes[:3] == [("draft-pack@2", "draft-pack@0"), ("draft-pack@1", "draft-pack@2"),
                          ("draft-pack@0", "draft-pack@1")]
