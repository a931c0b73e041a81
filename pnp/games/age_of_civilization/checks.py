"""The game's own rules that must hold at every step, checked by the harness beside the
generic ones (which conserve coins and workers: components.yaml links those counters to their
supplies, and bonus coins sit on cards as `coins` tokens): technology tokens conserved,
at most 3 civilizations, every technology held once and opened by one it requires, the time
track whole, the round never past the last.
"""

from __future__ import annotations

from pnp.engine.api import PREGAME, GameDef, State

from .rules import rules_for


def holdings(game: GameDef, state: State) -> dict[str, int]:
    """Technology tokens off the supply: on the players' technologies and the solo opponent's
    (so the harness's conservation check, and a scenario's stated supply, count them)."""
    return {"technology-tokens": state.vars.get("opponent", 0)
            + sum(len(p.vars.get("techs", ())) for p in state.players)}


def invariants(game: GameDef, state: State, label: str) -> list[str]:
    """Technology tokens are conserved; at most 3 civilizations; every technology held once
    and opened by one it requires; the time track keeps its 8 cards; the round never passes
    the last."""
    r = rules_for(game)
    out: list[str] = []
    v = state.vars
    if "totals" in v:
        techs = state.supply["technology-tokens"] + sum(len(p.vars["techs"])
                                                       for p in state.players) + v["opponent"]
        if techs != v["totals"]["techs"]:
            out.append("technology tokens were made or lost")
    for p in state.players:
        if len(p.zones["civilizations"]) > r.max_civs:
            out.append(f"a player holds more than {r.max_civs} civilizations")
        techs = p.vars["techs"]
        if len(set(techs)) != len(techs):
            out.append("a technology is held twice")
        held: set[str] = set()
        for t in techs:
            req = r.techs[t]["requires"]
            if req and not held & set(req):
                out.append("a technology was gained without one it requires")
            held.add(t)
    if state.stage != PREGAME:
        if len(state.zones["time-track"]) != r.track_len:
            out.append("the time track does not hold all its action cards")
        if state.turn > r.rounds + 1:
            out.append("the game went past its last round")
    return out
