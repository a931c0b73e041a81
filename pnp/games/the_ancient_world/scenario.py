"""What scenarios may say about a player beyond the state: citizens, armies and damaged cards
(set and expected), and the checks of those values before a scenario plays."""

from __future__ import annotations

from collections import Counter
from typing import Any

from pnp.engine.api import GameDef, ScenarioProblem, State, vars_problems

from .pieces import is_damaged, is_retired, set_flag, set_tok, tok
from .rules import EMPIRE_DECKS, has_action, rules_for


def check_scenario(game: GameDef, state: State, spec: dict) -> list[ScenarioProblem]:
    """A scenario's values before play: no vars (citizens, armies and damaged cards have their
    own keys); `citizens` of skills 1 to setup.citizen_skills, each once, ready, new, starving
    or on a board action the starting state has (`space:learn`); `armies` of military cards
    the game holds, their coins from the supply; `damaged` empire cards."""
    r = rules_for(game)
    hint = "set citizens, armies and damaged with their own keys"
    out = vars_problems(spec.get("vars"), {}, ("vars",), hint)
    skills = int(game.rule("setup", "citizen_skills"))
    places = ["ready", "new", "starving", *(f"space:{s}" for s in state.vars.get("spaces", {}))]
    card_places = {f"card:{c}" for c in r.cards if r.deck_of.get(c) in EMPIRE_DECKS
                   and has_action(r, c)}
    copies = Counter(c.card for _, _, cs in state.all_zones() for c in cs)
    coins = state.supply.get("coins", 0)
    wanted: Counter = Counter()
    for j, ps in enumerate(spec.get("players") or []):
        out += vars_problems(ps.get("vars"), {}, ("players", j, "vars"), hint)
        seat = ps.get("seat", j)
        empire = {c.card for c in state.players[seat].zones["empire"]} if seat < len(
            state.players) else set()
        empire |= {str(c) for c in ((ps.get("zones") or {}).get("empire") or [])
                   if isinstance(ps.get("zones"), dict)}
        held: set[int] = set()
        for k, text in enumerate(ps.get("citizens") or []):
            skill, _, where = str(text).partition(" ")
            path = ("players", j, "citizens", k)
            if not 1 <= int(skill) <= skills or int(skill) in held:
                out.append(ScenarioProblem(path, f"citizen {skill}: each player holds skills 1 "
                                           f"to {skills}, each once",
                                           "give each citizen its own skill"))
            if where not in places and where not in card_places:
                out.append(ScenarioProblem(path, f"a citizen cannot be '{where}' here",
                                           "places: " + ", ".join(places)
                                           + ", or card:CARD (an empire card with an action)"))
            elif where in card_places and where[5:] not in empire:
                out.append(ScenarioProblem(path, f"citizen {skill} on {where[5:]}: the "
                                           "player's empire holds no such card",
                                           "put the card under zones: empire"))
            held.add(int(skill))
        for k, text in enumerate(ps.get("armies") or []):
            cid, _, numbers = str(text).partition(" ")
            path = ("players", j, "armies", k)
            wanted[cid] += 1
            if r.deck_of.get(cid) not in ("military", "starting-military"):
                out.append(ScenarioProblem(path, f"'{cid}' is not a military card",
                                           "armies hold cards of the military decks"))
            elif wanted[cid] > copies[cid]:
                out.append(ScenarioProblem(path, f"the game holds {copies[cid]} {cid}",
                                           "use another military card"))
            coins -= sum(int(v) for v in numbers.split()[1:3])
            if coins < 0:
                out.append(ScenarioProblem(path, "more coins on armies than the supply holds",
                                           f"the supply holds {state.supply.get('coins', 0)}"))
                coins = 10 ** 9  # said once
        for k, cid in enumerate(ps.get("damaged") or []):
            if r.deck_of.get(cid) not in EMPIRE_DECKS:
                out.append(ScenarioProblem(("players", j, "damaged", k),
                                           f"'{cid}' is not an empire card",
                                           "damaged cards are empire cards"))
    return out


def scenario_fields() -> dict[str, tuple[Any, Any]]:
    """Scenario keys: `citizens` ('2 ready', '3 space:labor', '1 card:desert-caravan' on an
    empire card's action), `armies` ('card army name
    picture [retired]') and `damaged` (empire cards lying damaged); each sets or expects."""
    def set_cits(game: GameDef, state: State, seat: int, value: Any, keyed: Any) -> None:
        cits = state.players[seat].vars["cit"]
        state.supply["citizens"] += len(cits)
        cits[:] = [[int(v.split()[0]), v.split()[1]] for v in value]
        state.supply["citizens"] -= len(cits)
        for held in state.vars.get("spaces", {}).values():
            held[:] = [x for x in held if x[0] != seat]
        for cit in cits:
            skill, where = cit
            if where.startswith("space:"):
                state.vars["spaces"][where[6:]].append([seat, skill])
            elif where.startswith("card:"):  # on the action of an empire card the player owns
                card = next((c for c in state.players[seat].zones["empire"]
                             if c.card == where[5:]), None)
                if card is not None:  # check_scenario refused a card the empire lacks
                    cit[1] = f"card:{card.uid}"
                    set_tok(card, "occupied", 1)

    def read_cits(game, st, seat, want, keyed):
        uids = {str(c.uid): c.card for c in st.players[seat].zones["empire"]}
        got = [f"{s} card:{uids.get(w[5:], w[5:])}" if w.startswith("card:") else f"{s} {w}"
               for s, w in sorted(st.players[seat].vars["cit"])]
        return sorted(want, key=lambda v: int(v.split()[0])), got

    def set_armies(game, state, seat, value, keyed):
        """The armies replaced: a card the player already held keeps its uid (so labels such
        as `171/picture` do not move), then one from the box, then one from anywhere."""
        zone = state.players[seat].zones["armies"]
        box = state.zones["box"]
        held = list(zone)
        box.extend(zone)
        zone.clear()
        for v in value:
            cid, army, name, picture, *retired = v.split()
            card = next((c for c in held if c.card == cid and c in box), None)
            card = card or next((c for c in box if c.card == cid), None)
            if card is None:
                card = next(c for _, _, cs in state.all_zones() for c in cs if c.card == cid)
                for _, _, cs in state.all_zones():
                    if card in cs:
                        cs.remove(card)
                        break
            else:
                box.remove(card)
            card.tokens = {"army": int(army), "name": int(name), "picture": int(picture)}
            card.flags = ["retired"] if retired else None
            zone.append(card)
            state.supply["coins"] -= int(name) + int(picture)

    def read_armies(game, st, seat, want, keyed):
        got = [f"{c.card} {tok(c, 'army')} {tok(c, 'name')} {tok(c, 'picture')}"
               + (" retired" if is_retired(c) else "") for c in st.players[seat].zones["armies"]]
        return sorted(want), sorted(got)

    def set_damaged(game, state, seat, value, keyed):
        for c in state.players[seat].zones["empire"]:
            set_flag(c, "damaged", c.card in value)

    def read_damaged(game, st, seat, want, keyed):
        return sorted(want), sorted(c.card for c in st.players[seat].zones["empire"]
                                    if is_damaged(c))

    return {"citizens": (set_cits, read_cits), "armies": (set_armies, read_armies),
            "damaged": (set_damaged, read_damaged)}
