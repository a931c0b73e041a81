"""The game's data compiled once per definition (`rules_for`), and what a player's cards add
up to: every other part of the module reads numbers from here, never from the GameDef again.

The ten actions come from components.yaml (`action_spaces`: slots, coin cost, fixed gains) and
game.yaml `rules.actions` (workers, red slots, conditions); the cards from deck.yaml; what every
civilization, technology and wonder does from `rules.abilities`.
"""

from __future__ import annotations

from typing import Any

from pnp.engine.api import (
    GameDef,
    GameMeta,
    PlayerState,
    constant_deltas,
    counter_and_shared_bounds,
    per_definition,
    single,
    supplies,
    zone_visibility,
)

#: greedy bot: the worth of one unit of each counter; 'power' is a bot-only estimate of a card
#: or technology's lasting value. Power is worth half a point: `pnp probe --worths` found a seat
#: valuing it at 0.5 won 8.5-11.3 more per 100 seat-games at 3 players (+5.2 at 2p, +6.9 at 4p),
#: confirmed on fresh seeds fixed in advance (docs/age-of-civilization.md).
BOT_VALUES = {"points": 1.0, "coins": 0.3, "workers": 0.6, "power": 0.5}
POWER_TECH = 1.2
POWER_WONDER = 1.0
POWER_CIV = 1.5


def flat(effect: Any) -> dict[str, int]:
    """Fixed counter changes of a parsed effect (None or '-': nothing)."""
    return constant_deltas(single(effect))


class Rules:
    """The game's data compiled once: actions, cards, technologies, abilities, variants."""

    def __init__(self, game: GameDef):
        self.game = game
        rule = game.rule
        self.rounds = int(rule("end", "max_turns"))
        self.tie_breaks = tuple(rule("end", "tie_breaks", default=()) or ())
        self.actions: dict[str, dict[str, Any]] = {}
        for aid, space in game.action_spaces.items():
            extra = dict(rule("actions", aid, default={}) or {})
            cost = flat(space.cost)
            self.actions[aid] = {
                "name": space.name, "slots": space.slots or 1,
                "cost": -cost.get("coins", 0), "gain": flat(space.effect),
                "workers": int(extra.get("workers", 1)),
                "sacrifice": bool(extra.get("sacrifice", False)),
                "gains": extra.get("gain"), "only_if": extra.get("only_if"),
                "no_tech_points": int(extra.get("bonus_if_no_technology", 0)),
                "others_coins": int(extra.get("others_coins", 0)),
            }
        self.permanent = list(game.decks["permanent"].cards[0].fields["actions"])
        self.action_cards = {c.id: c.fields for c in game.decks["actions"].cards}
        self.civs = {c.id: c.fields for c in game.decks["civilizations"].cards}
        self.wonders = {c.id: c.fields for c in game.decks["wonders"].cards}
        self.techs = {c.id: c.fields for c in game.decks["technologies"].cards}
        self.tech_names = {c.id: c.name for c in game.decks["technologies"].cards}
        self.specials = {c.id: c.fields for c in game.decks["special-technologies"].cards}
        self.events = {c.id: c.fields for c in game.decks["events"].cards}
        self.basic = [t for t, f in self.techs.items() if f["set"] == "basic"]
        self.track_len = len(game.decks["actions"].cards)
        self.open_cards = int(rule("time_track", "open_cards"))
        self.setup = dict(rule("setup") or {})
        self.turn = dict(rule("turn") or {})
        self.round_end = dict(rule("round_end") or {})
        self.innovation = dict(rule("innovation") or {})
        self.changing = dict(rule("changing_world") or {})
        self.drafting = dict(rule("drafting") or {})
        self.solo = dict(rule("solo") or {})
        self.max_civs = int(self.turn["max_civilizations"])
        self.max_workers = int(self.turn["max_workers"])
        abilities = rule("abilities", default={}) or {}
        self.main = {k: tuple(v.get("main") or ()) for k, v in abilities.items()}
        self.legacy = {k: tuple(v.get("legacy") or ()) for k, v in abilities.items()}
        self.achievements = list(self.solo.get("achievements") or [])
        bounds, shared = counter_and_shared_bounds(game)
        self.meta = GameMeta(
            game=game.id, players_min=game.players_min, players_max=game.players_max,
            max_turns=self.rounds, counter_bounds=bounds, shared_bounds=shared,
            has_chance=True, phases=tuple(p.id for p in game.phases), score_counter="points",
            supplies=supplies(game), zone_visibility=zone_visibility(game),
            bot_values=dict(BOT_VALUES))

    def problems(self) -> list[str]:
        """Data the engine cannot play: an ability keyed to no card, a tech requiring none."""
        out = []
        known = set(self.civs) | set(self.wonders) | set(self.techs)
        for key in set(self.main) | set(self.legacy):
            if key not in known:
                out.append(f"rules.abilities names '{key}', which is no card or technology")
        for t, f in self.techs.items():
            for req in f["requires"]:
                if req not in self.techs:
                    out.append(f"technology '{t}' requires unknown '{req}'")
        return out


#: the compiled rules of a definition: tables are built once per GameDef
rules_for = per_definition(Rules)


def abilities(r: Rules, p: PlayerState) -> list[dict]:
    """Every ability working for a player: the main civilization's main ability, every
    civilization's legacy, the technologies and the wonders."""
    out: list[dict] = []
    civs = p.zones["civilizations"]
    if civs:
        out.extend(r.main.get(civs[0].card, ()))
    for c in civs:
        out.extend(r.legacy.get(c.card, ()))
    for t in p.vars["techs"]:
        out.extend(r.main.get(t, ()))
    for w in p.zones["wonders"]:
        out.extend(r.main.get(w.card, ()))
    return out


def sourced_abilities(r: Rules, p: PlayerState, when: str) -> list[tuple[str, dict]]:
    """The abilities of one kind working for a player, each named by the card or technology
    it comes from (`egypt`, `education`; a second one of the same source `egypt-2`), the
    names a player's choice of order is given in."""
    civs = p.zones["civilizations"]
    sources: list[tuple[str, tuple]] = []
    if civs:
        sources.append((civs[0].card, r.main.get(civs[0].card, ())))
    sources += [(c.card, r.legacy.get(c.card, ())) for c in civs]
    sources += [(t, r.main.get(t, ())) for t in p.vars["techs"]]
    sources += [(w.card, r.main.get(w.card, ())) for w in p.zones["wonders"]]
    out: list[tuple[str, dict]] = []
    seen: dict[str, int] = {}
    for source, found in sources:
        for a in found:
            if a["when"] == when:
                seen[source] = seen.get(source, 0) + 1
                out.append((source if seen[source] == 1 else f"{source}-{seen[source]}", a))
    return out


def military(r: Rules, p: PlayerState) -> int:
    """A player's military strength: what its working abilities add up to."""
    total = 0
    for a in abilities(r, p):
        if a["when"] == "always" and a.get("military"):
            n = a["military"]
            if a.get("per") == "technologies":
                n *= len(p.vars["techs"]) // a.get("each", 1)
            total += n
    return total
