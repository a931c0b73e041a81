"""The observation a bot gets at a decision is a view of the state (issue 20 speed): it must
equal the state copied with every card the seat may not see masked, at every decision of real
games with hidden zones, and masking must leave the state itself untouched."""

from __future__ import annotations

import pytest

from pnp.data.game import load_game
from pnp.engine.core import Context, SeededDice
from pnp.engine.play import rules
from pnp.engine.result import GameResult
from pnp.engine.state import HIDDEN, State, observe, visible
from pnp.paths import CARDS


def masked_copy(state: State, seat: int, visibility: dict[str, str]) -> State:
    """The observation as a copy: every card `seat` may not see becomes '?' with uid -1."""
    obs = state.copy()
    for owner, zone, cards in obs.all_zones():
        vis = visibility.get(zone, "all")
        for c in cards:
            if not visible(vis, c.face_up, owner, seat):
                c.uid, c.card, c.tokens, c.flags = -1, HIDDEN, None, None
    return obs


class Checking:
    """Takes the first option, after holding the observation against the masked copy."""

    def __init__(self) -> None:
        self.ctx: Context | None = None
        self.checked = 0
        self.hidden = 0

    def choose(self, state, seat, options, why, outcomes) -> int:
        real = self.ctx.state
        before = real.to_json()
        want = masked_copy(real, seat, self.ctx.visibility)
        assert state == want
        assert real.to_json() == before  # masking changed nothing in the real state
        self.checked += 1
        self.hidden += state is not real
        return len(options) // 2


@pytest.mark.parametrize("folder,variant,players", [
    ("the-ancient-world", None, 3), ("the-ancient-world", "first-edition", 2),
    ("age-of-civilization", "drafting", 3), ("age-of-civilization", "changing-world", 4),
])
def test_every_observation_equals_the_masked_copy(folder, variant, players) -> None:
    game = load_game(CARDS / folder, variant).game
    module = rules(game)
    meta = module.metadata(game)
    assert any(v != "all" for v in meta.zone_visibility.values())
    state = module.new_state(game, players)
    bot = Checking()
    ctx = Context(state, SeededDice(7), [bot] * players,
                  GameResult(game=game.id, seed=7, players=players, bots=("check",) * players),
                  visibility=meta.zone_visibility)
    bot.ctx = ctx
    module.play(game, ctx, meta.max_turns)
    assert bot.checked > 20 and bot.hidden == bot.checked


def test_a_card_turned_face_down_in_an_open_zone_is_hidden_and_one_face_up_shown() -> None:
    game = load_game(CARDS / "the-ancient-world").game
    module = rules(game)
    vis = module.metadata(game).zone_visibility
    state = module.new_state(game, 2)
    open_zone = next(z for z, cards in state.zones.items() if cards and vis.get(z, "all") == "all")
    closed = next(z for z, cards in state.zones.items() if cards and vis.get(z) == "none")
    state.zones[open_zone][0].face_up = False
    state.zones[closed][0].face_up = True
    obs = observe(state, 0, vis)
    assert obs.zones[open_zone][0].card == HIDDEN and obs.zones[open_zone][0].uid == -1
    assert obs.zones[closed][0].card == state.zones[closed][0].card
    assert obs == masked_copy(state, 0, vis)
    assert state.zones[open_zone][0].card != HIDDEN
