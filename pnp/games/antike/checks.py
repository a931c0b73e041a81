"""Antike's own invariants, beside the harness's generic ones: the map's (pnp.engine.graph.check_map)
and the supplies' (components.yaml links the marble, iron, gold and coins counters to their
supplies, so the generic conservation check holds chips and coins to the box's stock). Here:
the 35 personages between the stacks and the nations, a temple stands only in its owner's
city, a neutral site holds no nation's city, and know-hows are owned once."""

from __future__ import annotations

from pnp.engine.api import GameDef, State, count

from .rules import STACKS, rules_for


def invariants(game: GameDef, state: State, label: str) -> list[str]:
    r = rules_for(game)
    out: list[str] = []
    if not state.vars.get("stacks"):
        return out  # before setup
    total = sum(r.stack_size.values())
    if sum(state.vars["stacks"].values()) + sum(p.counters["personages"]
                                                 for p in state.players) != total:
        out.append("personages are not conserved between the stacks and the nations")
    for p in state.players:
        if p.counters["personages"] != sum(p.vars["awarded"][s] for s in STACKS):
            out.append("a nation's personage count differs from its cards")
        if len(set(p.vars["know_hows"])) != len(p.vars["know_hows"]):
            out.append("a nation owns a know-how twice")
    for node in r.city_sites:
        for seat in range(len(state.players)):
            if count(state, node, "temple", seat) and not count(state, node, "city", seat):
                out.append("a temple stands where its owner has no city")
    for node in state.vars.get("neutral", []):
        if count(state, node, "city"):
            out.append("a neutral site holds a nation's city")
    for k, seat in state.vars["first"].items():
        if k not in state.players[seat].vars["know_hows"]:
            out.append("the first owner of a know-how does not own it")
    return out
