"""Age of Civilization: worker slots on a shifting time track, a civilization market whose
unpicked cards gather bonus coins, a technology tree; six rounds, 1 to 4 players.

This file is the rules-module protocol (metadata, new_state, main_state, play, finish and the
optional hooks); the rules live beside it, one concern a file: rules.py (the data compiled
once), table.py (what the parts share), setup.py, civilizations.py, technology.py (with
wonders), actions.py (worker placement), rounds.py (turns and round ends), solo.py (the
Skirmish), scoring.py, game.py (the parts joined, and the round driver), scenarios.py and
checks.py (the game's invariants). Everything numeric comes from the game folder
(docs/age-of-civilization.md); only `pnp.engine.api` is imported.

State layout: the round is `state.turn`; shared vars hold the starter seat, the solo opponent's
military strength and the totals the conservation invariants compare with; a player's
technologies are `vars['techs']` (in the order gained); civilizations are the player's
`civilizations` zone, main civilization first; bonus coins are `tokens['coins']` on a card.
"""

from __future__ import annotations

from pnp.engine.api import (
    PREGAME,
    Context,
    GameDef,
    GameMeta,
    PlayerState,
    State,
    fill_result,
    initial_state,
)

from .checks import holdings, invariants
from .game import ROUND_END, TURNS, AoC
from .rules import Rules, abilities, military, rules_for
from .scenarios import check_scenario, scenario_fields
from .scoring import sheet_counters
from .solo import achieved

#: the engine this module plays (game.yaml `engine: age-of-civilization`)
ENGINE = "age-of-civilization"
#: `play` goes on from a state saved at any step boundary exactly as it went on from there
#: (all it carries from phase to phase is in the state), so search bots replay from the last
#: step instead of the game's start (pnp/engine/search.py; tests/test_resume_at_steps.py)
RESUMES_AT_STEPS = True

__all__ = [
    "ENGINE", "ROUND_END", "TURNS", "AoC", "Rules", "abilities", "achieved", "check_scenario",
    "coverage_keys", "finish", "holdings", "invariants", "main_state", "metadata", "military", "new_state",
    "play", "player_counters", "rules_for", "scenario_fields",
]


def metadata(game: GameDef) -> GameMeta:
    return rules_for(game).meta


def new_state(game: GameDef, players: int) -> State:
    """Every card in its deck's zone, counters at their start values (the 3 coins each taken
    from the supply, so the box's stock adds up from the start); setup is played."""
    state = initial_state(game, players)
    state.supply["coins"] -= sum(p.counters["coins"] for p in state.players)
    for p in state.players:
        p.vars = {"techs": []}
    state.vars = {"starter": 0, "opponent": 0}
    state.stage = PREGAME
    return state


def main_state(game: GameDef, players: int) -> State:
    """The state right after setup without shuffling (scenarios set the cards they need)."""
    state = new_state(game, players)
    AoC(rules_for(game), None, state).setup()
    return state


def play(game: GameDef, ctx: Context, max_turns: int | None = None) -> None:
    r = rules_for(game)
    AoC(r, ctx, ctx.state).play(r.rounds if max_turns is None else max_turns)


def finish(game: GameDef, ctx: Context) -> None:
    fill_result(ctx, "points")
    st = ctx.state
    ctx.result.turns = min(st.turn, rules_for(game).rounds)
    ctx.result.final_stats = [player_counters(game, p, st) for p in st.players]


def player_counters(game: GameDef, p: PlayerState, state: State | None = None) -> dict[str, int]:
    """Counters plus what a player sheet would show: military, technologies, wonders, civs."""
    return sheet_counters(rules_for(game), p)


def coverage_keys(game: GameDef) -> dict[str, list[str]]:
    """What 'never used' is measured on: civilizations risen or annexed, technologies gained,
    wonders taken, actions performed, event tokens and special technology cards used."""
    r = rules_for(game)
    out = {"civilization": list(r.civs), "technology": list(r.basic),
           "wonder": list(r.wonders), "action": list(r.actions)}
    if r.innovation.get("enabled"):
        out["technology"] = list(r.techs)
        out["special-technology"] = list(r.specials)
    if r.changing.get("enabled"):
        out["event"] = list(r.events)
    return out
