"""The game's own invariants, checked by the harness at steps: citizens, armies, empire cards
and the round marker as the rules allow. Tokens are conserved by the harness's generic check:
components.yaml links the coin, knowledge and ambrosia counters to their supplies, and
`holdings` tells it where else the game keeps tokens (coins on armies, ambrosia on the board,
citizens on the table)."""

from __future__ import annotations

from pnp.engine.api import PREGAME, GameDef, State

from .game import TAW
from .pieces import is_retired
from .rules import rules_for


def holdings(game: GameDef, state: State) -> dict[str, int]:
    """Tokens the generic conservation check cannot see on a counter: coins on army cards
    (name and picture coins), ambrosia on action spaces, citizens out of the box."""
    return {
        "coins": sum((c.tokens or {}).get("name", 0) + (c.tokens or {}).get("picture", 0)
                     for p in state.players for c in p.zones.get("armies", ())),
        "ambrosia": sum(state.vars.get("amb", {}).values()),
        "citizens": sum(len(p.vars.get("cit", ())) for p in state.players),
    }


def invariants(game: GameDef, state: State, label: str) -> list[str]:
    """Citizens unique and within the colour's five, armies within the limit with one active
    card each, no empire card owned twice, and every citizen home after the end of a round."""
    r = rules_for(game)
    out: list[str] = []
    t = TAW(r, None, state)
    for seat, p in enumerate(state.players):
        skills = [c[0] for c in p.vars.get("cit", ())]
        if len(set(skills)) != len(skills) or any(not 1 <= s <= 5 for s in skills):
            out.append("a player holds two citizens of one number, or a number outside 1-5")
        armies = t.armies(seat)
        if len(armies) > t.army_limit(seat):
            out.append("a player has more armies than the army limit")
        if any(sum(1 for c in cards if not is_retired(c)) > 1 for cards in armies.values()):
            out.append("an army has more than one active military card")
        names = [c.card for c in p.zones.get("empire", ())]
        if len(set(names)) != len(names):
            out.append("a player owns two copies of one empire card")
        if label == "end-of-round" and any(c[1].startswith(("space:", "card:"))
                                           for c in p.vars.get("cit", ())):
            out.append("a citizen stayed on an action after the end of the round")
    if state.stage != PREGAME and state.counters.get("round", 0) not in (state.turn,
                                                                           state.turn - 1):
        out.append("the round marker is not on the current round")
    return out

