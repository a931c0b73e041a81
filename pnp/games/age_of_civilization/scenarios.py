"""What scenarios may set and expect beyond the shared keys: per player `technologies` (set or
expect) and `military` (expect only: it is counted from the cards), and shared vars `starter`,
`opponent` and `bonus`; each value is checked before any is set.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pnp.engine.api import GameDef, ScenarioProblem, State, json_type, vars_problems

from .rules import military, rules_for


def scenario_fields() -> dict[str, tuple[Callable, Callable]]:
    """Scenario keys: `technologies` (set or expect the technologies held) and `military`
    (expect only: the strength the player's cards add up to)."""
    def set_techs(game: GameDef, state: State, seat: int, value: Any, keyed: Any) -> None:
        """The technologies replaced, their tokens taken from (or given back to) the supply."""
        techs = state.players[seat].vars
        state.supply["technology-tokens"] -= len(value) - len(techs["techs"])
        techs["techs"] = [str(t) for t in value]

    def read_techs(game, st, seat, want, keyed):
        return sorted(want), sorted(st.players[seat].vars["techs"])

    def set_military(game, state, seat, value, keyed):
        raise ValueError("military is counted from the cards; set civilizations or technologies")

    def read_military(game, st, seat, want, keyed):
        return want, military(rules_for(game), st.players[seat])

    return {"technologies": (set_techs, read_techs), "military": (set_military, read_military)}


def check_scenario(game: GameDef, state: State, spec: dict) -> list[ScenarioProblem]:
    """A scenario's values before play: shared vars `starter` (a seat), `opponent` (the solo
    opponent's technologies) and `bonus` (civilization card -> coins on it, from the supply);
    per player `technologies` (known, once each) and no `military` (it is counted) or vars."""
    r = rules_for(game)
    out: list[ScenarioProblem] = []
    shared = spec.get("vars") or {}
    settable = {"starter": 0, "opponent": 0, "bonus": {}}
    out += vars_problems(shared, settable, ("vars",))
    n = len(state.players)
    if isinstance(shared.get("starter"), int) and not 0 <= shared["starter"] < n:
        out.append(ScenarioProblem(("vars", "starter"), f"starter is a seat: 0 to {n - 1}",
                                   "the seat that starts the round"))
    if isinstance(shared.get("opponent"), int) and shared["opponent"] < 0:
        out.append(ScenarioProblem(("vars", "opponent"), "opponent counts technologies: 0 or "
                                   "more", "write e.g. 2"))
    bonus = shared.get("bonus")
    if isinstance(bonus, dict):
        stock, substitutes = r.meta.supplies.get("coins", (0, False))
        coins = None if substitutes else state.supply.get("coins", 0)  # else: any number
        for cid, value in bonus.items():
            path = ("vars", "bonus", cid)
            if cid not in r.civs:
                out.append(ScenarioProblem(path, f"'{cid}' is not a civilization card",
                                           "bonus coins lie on civilization cards: "
                                           + ", ".join(sorted(r.civs)[:6]) + ", ...", True))
            elif isinstance(value, bool) or not isinstance(value, int):
                out.append(ScenarioProblem(path, f"bonus coins on {cid} are a whole number, not "
                                           f"{json_type(value)}", "write e.g. 2"))
            elif value < 0 or (coins is not None and value > coins):
                span = "0 or more" if coins is None else f"0 to {coins}"
                out.append(ScenarioProblem(path, f"{value} bonus coins on {cid}: a card holds "
                                           f"{span}", "bonus coins come from the supply"))
    for j, ps in enumerate(spec.get("players") or []):
        out += vars_problems(ps.get("vars"), {}, ("players", j, "vars"),
                             "set technologies with `technologies:`")
        if "military" in ps:
            out.append(ScenarioProblem(("players", j, "military"), "military is counted from "
                                       "the cards, not set", "set civilizations (zones) or "
                                       "technologies; `military` is for expectations", True))
        seen: set[str] = set()
        for k, tech in enumerate(ps.get("technologies") or []):
            if tech not in r.techs:
                out.append(ScenarioProblem(("players", j, "technologies", k),
                                           f"no technology '{tech}'",
                                           "technologies are the ids in the technologies deck"))
            elif tech in seen:
                out.append(ScenarioProblem(("players", j, "technologies", k),
                                           f"{tech} is held once", "list each technology once"))
            seen.add(tech)
    return out
