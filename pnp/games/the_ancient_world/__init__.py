"""The Ancient World, both editions: the rulebook as procedures over the GameDef.

Every number comes from game.yaml's `rules:` block and the card fields of decks.yaml; the two
editions differ only in that data (the variant first-edition) and the switches it sets
(placement rule, military row refresh, threatening titans, ambrosia, Build Stored, the damage
die's coin face, Empire C). Readings of unclear rules follow game.yaml's `interpretations:`.
Dice go through `ctx.roll_face`/`ctx.shuffle`, decisions through `ctx.choose` with string
options (what logs and scenarios write), each with a greedy estimate.
"""

from __future__ import annotations

from typing import Any

from pnp.engine.api import Context, GameDef, GameMeta, State, fill_result, initial_state

from .checks import holdings, invariants
from .game import TAW
from .rules import BOARD, EMPIRE_DECKS, Rules, has_action, rules_for
from .scenario import check_scenario, scenario_fields

__all__ = ["ENGINE", "TAW", "Rules", "check_scenario", "coverage_keys", "finish", "holdings", "invariants",
           "main_state", "metadata", "new_state", "play", "player_counters", "rules_for",
           "scenario_fields", "standing"]

ENGINE = "the-ancient-world"
#: `play` goes on from a state saved at any step boundary exactly as it went on from there
#: (all it carries from phase to phase is in the state), so search bots replay from the last
#: step instead of the game's start (pnp/engine/search.py; tests/test_resume_at_steps.py)
RESUMES_AT_STEPS = True


def metadata(game: GameDef) -> GameMeta:
    """Players, rounds, bounds, supplies, zone visibility and bot values (built once)."""
    r = rules_for(game)
    if r.metadata is None:
        r.metadata = r.meta()
    return r.metadata


def new_state(game: GameDef, players: int) -> State:
    """Every card in its deck's zone, supplies full, nobody seated yet (setup is played)."""
    state = initial_state(game, players)
    for p in state.players:
        p.vars = {"cit": [], "passed": False, "city": "", "draft": 0}
    state.vars = {"spaces": {}, "amb": {}, "first": 0, "hand": False, "first_pass": -1,
                  "scout": ""}
    return state


def main_state(game: GameDef, players: int) -> State:
    """The state after setup, before round 1 (scenarios start here; decks unshuffled)."""
    state = new_state(game, players)
    TAW(rules_for(game), None, state).setup(shuffle=False)
    return state


def play(game: GameDef, ctx: Context, max_turns: int | None = None) -> None:
    """Setup (from the pregame), then rounds until the last is scored or the cap is reached."""
    r = rules_for(game)
    TAW(r, ctx, ctx.state).play(r.rounds if max_turns is None else max_turns)


def finish(game: GameDef, ctx: Context) -> None:
    """The usual result, and the board each seat played where boards were dealt: the
    city-state with city-states, else the starting titan of the board's colour (the boards
    differ only by it), so a board's edge is reported as the board's, not a seat's."""
    fill_result(ctx, "victory-points")
    st, res = ctx.state, ctx.result
    r = rules_for(game)
    if r.city_states:
        names = {b["id"]: b["name"] for b in r.boards}
        res.factions = tuple(names.get(p.vars.get("city", ""), "") for p in st.players)
    elif all("board" in p.vars for p in st.players):
        titans = [c.name for c in game.decks["starting-titans"].cards]
        res.factions = tuple(f"{titans[p.vars['board'] % len(titans)]} board"
                             for p in st.players)


def standing(game: GameDef, state: State) -> list[int]:
    """Each seat's victory points if the game ended now: the game-end scoring of the state as
    it is (the counter stays 0 until the last round is scored), read without changing it. A
    search bot that cuts its playouts short values them by this."""
    table = TAW(rules_for(game), None, state)
    return [table.score_of(seat) for seat in range(len(state.players))]


def coverage_keys(game: GameDef) -> dict[str, list[str]]:
    """Board actions taken, card actions used, and cards gained (bought, recruited, defeated,
    expanded into), for every card a game can gain."""
    r = rules_for(game)
    dealt = {z.deck for z in game.zones.values() if z.deck}  # not the printed-only pieces
    cards = [f"{r.deck_of[c]}/{c}" for c in r.cards
             if r.deck_of[c] in dealt and not r.deck_of[c].startswith("starting")
             and any(card.id == c and card.count for card in game.decks[r.deck_of[c]].cards)]
    acts = [c for c in r.cards if r.deck_of[c] in EMPIRE_DECKS
            and has_action(r, c) and any(card.id == c and card.count
                                         for card in game.decks[r.deck_of[c]].cards)]
    return {"action": list(BOARD), "card": cards, "card-action": acts}


def player_counters(game: GameDef, p: Any) -> dict[str, int]:
    return dict(p.counters)
