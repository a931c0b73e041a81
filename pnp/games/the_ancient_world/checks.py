"""The game's own invariants, checked by the harness at steps: tokens conserved, citizens,
armies, empire cards and the round marker as the rules allow."""

from __future__ import annotations

from pnp.engine.api import PREGAME, GameDef, State, supplies

from .game import TAW
from .pieces import is_retired
from .rules import TOKENS, rules_for


def invariants(game: GameDef, state: State, label: str) -> list[str]:
    """Token conservation (player, cards, board and box add up to the stock), citizens
    unique and within the colour's five, armies within the limit with one active card each,
    no empire card owned twice, and every citizen home after the end of a round."""
    r = rules_for(game)
    out: list[str] = []
    stock = supplies(game)
    held = {t: sum(p.counters[t] for p in state.players) for t in TOKENS}
    held["coins"] += sum((c.tokens or {}).get("name", 0) + (c.tokens or {}).get("picture", 0)
                         for p in state.players for c in p.zones.get("armies", ()))
    held["ambrosia"] += sum(state.vars.get("amb", {}).values())
    held["citizens"] = sum(len(p.vars.get("cit", ())) for p in state.players)
    # the box's stock after setup; a scenario's starting state may hand out other amounts, so
    # from then on the totals it starts with are what must be kept
    totals = _first_totals(state, {t: held[t] + state.supply[t] for t in held})
    for t in held:
        want = stock[t][0] if label == "pregame" else totals[t]
        if held[t] + state.supply[t] != want:
            out.append(f"{t} are made or lost: held and supply do not add up to the "
                       f"{'stock' if label == 'pregame' else 'totals'}")
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


#: id(state) -> (the state, the token totals first seen), the last few games only; kept off
#: the state so checking a game never changes it (a replay must end in the same state)
_TOTALS: dict[int, tuple[State, dict[str, int]]] = {}


def _first_totals(state: State, now: dict[str, int]) -> dict[str, int]:
    hit = _TOTALS.get(id(state))
    if hit is not None and hit[0] is state:
        return hit[1]
    while len(_TOTALS) >= 64:
        del _TOTALS[next(iter(_TOTALS))]
    _TOTALS[id(state)] = (state, now)
    return now
