"""Age of Civilization: worker slots on a shifting time track, a civilization market whose
unpicked cards gather bonus coins, a technology tree; six rounds, 1 to 4 players.

Everything numeric comes from the game folder: the ten actions from components.yaml
(`action_spaces`: slots, coin cost, fixed gains) and game.yaml `rules.actions` (workers, red
slots, conditions); the cards from deck.yaml; what every civilization, technology and wonder
does from `rules.abilities` (a small vocabulary checked by schemas/rules/age-of-civilization
.schema.json). The module plays the base game, the three variants (Innovation, Changing World,
Drafting) and the solo Skirmish against a virtual opponent.

State layout: the round is `state.turn`; shared vars hold the starter seat, the solo opponent's
military strength and the totals the conservation invariants compare with; a player's
technologies are `vars['techs']` (in the order gained); civilizations are the player's
`civilizations` zone, main civilization first; bonus coins are `tokens['coins']` on a card.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pnp.data.model import GameDef
from pnp.engine.api import fill_result
from pnp.engine.components import counter_bounds, initial_state, supplies, zone_visibility
from pnp.engine.core import MAIN, OVER, PREGAME, Context, GameMeta, State
from pnp.engine.effects_runtime import constant_deltas, single
from pnp.engine.module import ScenarioProblem, json_type, per_definition, vars_problems
from pnp.engine.result import COMPLETED, TIMEOUT
from pnp.engine.state import CardInstance, PlayerState

#: the engine this module plays (game.yaml `engine: age-of-civilization`)
ENGINE = "age-of-civilization"

#: greedy bot: the worth of one unit of each counter; 'power' is a bot-only estimate of a card
#: or technology's lasting value
BOT_VALUES = {"points": 1.0, "coins": 0.3, "workers": 0.6, "power": 1.0}
POWER_TECH = 1.2
POWER_WONDER = 1.0
POWER_CIV = 1.5

TURNS, ROUND_END = "turns", "round-end"


def _flat(effect: Any) -> dict[str, int]:
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
            cost = _flat(space.cost)
            self.actions[aid] = {
                "name": space.name, "slots": space.slots or 1,
                "cost": -cost.get("coins", 0), "gain": _flat(space.effect),
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
        bounds, shared = counter_bounds(game)
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


# --------------------------------------------------------------------------- module API


def metadata(game: GameDef) -> GameMeta:
    return rules_for(game).meta


def new_state(game: GameDef, players: int) -> State:
    """Every card in its deck's zone, counters at their start values; setup is played."""
    state = initial_state(game, players)
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
    r = rules_for(game)
    out = dict(p.counters)
    out["military"] = military(r, p)
    out["technologies"] = len(p.vars.get("techs", ()))
    out["wonders"] = len(p.zones.get("wonders", ()))
    out["civilizations"] = len(p.zones.get("civilizations", ()))
    return out


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


def scenario_fields() -> dict[str, tuple[Callable, Callable]]:
    """Scenario keys: `technologies` (set or expect the technologies held) and `military`
    (expect only: the strength the player's cards add up to)."""
    def set_techs(game: GameDef, state: State, seat: int, value: Any, keyed: Any) -> None:
        state.players[seat].vars["techs"] = [str(t) for t in value]

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


def invariants(game: GameDef, state: State, label: str) -> list[str]:
    """Coins, workers and technology tokens are conserved; at most 3 civilizations and 4
    workers; every technology held once and opened by one it requires; the time track keeps
    its 8 cards; the round never passes the last."""
    r = rules_for(game)
    out: list[str] = []
    v = state.vars
    if "totals" in v:
        coins = state.supply["coins"] + sum(p.counters["coins"] for p in state.players)
        coins += sum((c.tokens or {}).get("coins", 0) for _, _, cards in state.all_zones()
                     for c in cards)
        if coins != v["totals"]["coins"]:
            out.append("coins were made or lost (supply, hands and bonus coins do not add up)")
        workers = state.supply["workers"] + sum(p.counters["workers"] for p in state.players)
        if workers != v["totals"]["workers"]:
            out.append("worker tokens were made or lost")
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


# --------------------------------------------------------------------------- abilities


def _abilities(r: Rules, p: PlayerState) -> list[dict]:
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


def military(r: Rules, p: PlayerState) -> int:
    total = 0
    for a in _abilities(r, p):
        if a["when"] == "always" and a.get("military"):
            n = a["military"]
            if a.get("per") == "technologies":
                n *= len(p.vars["techs"]) // a.get("each", 1)
            total += n
    return total


class AoC:
    """One game being played (or set up): the rules applied to a state through a context."""

    def __init__(self, r: Rules, ctx: Context | None, state: State):
        self.r = r
        self.ctx = ctx
        self.state = state
        self.n = len(state.players)
        self.solo = self.n == 1
        self.draft = bool(r.drafting.get("enabled")) and not self.solo
        self.changing = bool(r.changing.get("enabled")) and not self.solo
        self.innovation = bool(r.innovation.get("enabled"))

    # ------------------------------------------------------------------ helpers
    def cover(self, kind: str, key: str) -> None:
        if self.ctx is not None:
            self.ctx.cover(kind, key)

    def event(self, name: str, seat: int = -1) -> None:
        if self.ctx is not None:
            self.ctx.event(name, seat)

    def choose(self, seat: int, options: list, why: str,
               outcomes: Callable[[Any], dict[str, float]] | None = None) -> Any:
        if self.ctx is None:
            return options[0]
        return self.ctx.choose(seat, options, why, outcomes)

    def shuffle(self, cards: list, why: str) -> None:
        if self.ctx is not None:
            self.ctx.shuffle(cards, why)

    def gain_coins(self, p: PlayerState, n: int) -> None:
        """Coins from (n > 0) or back to (n < 0) the supply; a loss stops at zero."""
        if n < 0:
            n = -min(-n, p.counters["coins"])
        p.counters["coins"] += n
        self.state.supply["coins"] -= n

    def gain_workers(self, p: PlayerState, n: int) -> None:
        """Workers from the supply up to the maximum, or sacrificed back (down to zero)."""
        if n > 0:
            n = min(n, self.r.max_workers - p.counters["workers"])
        else:
            n = -min(-n, p.counters["workers"])
        p.counters["workers"] += n
        self.state.supply["workers"] -= n

    def future_cards(self) -> int:
        """Action cards still to come on the time track (Science, Tiwanaku)."""
        return max(0, self.r.track_len - (self.state.turn - 1 + self.r.open_cards))

    def count(self, p: PlayerState, per: str | None, bonus: int = 0) -> int:
        if per is None:
            return 1
        return {"technologies": lambda: len(p.vars["techs"]),
                "points": lambda: p.counters["points"],
                "military": lambda: military(self.r, p),
                "bonus-coins": lambda: bonus,
                "future-rounds": self.future_cards,
                "wonders": lambda: len(p.zones["wonders"]),
                "civilizations": lambda: len(p.zones["civilizations"]),
                "workers": lambda: p.counters["workers"],
                "coins": lambda: p.counters["coins"]}[per]()

    def times(self, p: PlayerState, a: dict, bonus: int = 0) -> int:
        if "per" not in a:
            return 1
        return self.count(p, a["per"], bonus) // a.get("each", 1)

    def strengths(self) -> list[int]:
        return [military(self.r, p) for p in self.state.players]

    def most_military(self, seat: int) -> bool:
        """No one (nor the solo virtual opponent) is stronger: ties count as most."""
        s = self.strengths()
        rivals = [x for i, x in enumerate(s) if i != seat]
        if self.solo:
            rivals.append(self.state.vars["opponent"])
        return all(s[seat] >= x for x in rivals)

    def ok(self, seat: int, a: dict, via: str = "") -> bool:
        if a.get("only_if") == "most-military" and not self.most_military(seat):
            return False
        if a.get("unless") and a["unless"] == via:
            return False
        return True

    # ------------------------------------------------------------------ setup
    def setup(self) -> None:
        r, st = self.r, self.state
        z = st.zones
        st.vars["starter"] = 0
        st.vars["opponent"] = 0
        st.supply["coins"] -= sum(p.counters["coins"] for p in st.players)  # the 3 coins each
        if self.solo:  # civilizations the Skirmish leaves out
            removed = set(r.solo.get("removed") or ())
            keep = [c for c in z["civilization-deck"] if c.card not in removed]
            z["civilization-box"].extend(c for c in z["civilization-deck"] if c.card in removed)
            z["civilization-deck"][:] = keep
        for zone in ("wonder-deck", "civilization-deck", "special-technology-deck", "event-bag"):
            self.shuffle(z[zone], f"shuffle {zone}")
        wonders = (r.solo["wonder_market"] if self.solo else
                   r.setup["wonder_market"] + r.setup.get("wonder_market_per_player", 1) * self.n)
        z["wonder-market"].extend(z["wonder-deck"][:wonders])
        z["wonder-box"].extend(z["wonder-deck"][wonders:])
        del z["wonder-deck"][:]
        self.time_track()
        if self.draft:
            self.draft_setup()
        else:
            take = r.setup["civilization_market"]
            z["civilization-market"].extend(z["civilization-deck"][:take])
            del z["civilization-deck"][:take]
        if self.innovation:
            k = r.innovation.get("market", 1) + self.n
            z["technology-market"].extend(z["special-technology-deck"][:k])
            del z["special-technology-deck"][:k]
        if self.changing:
            k = r.changing.get("tokens", 3)
            z["event-track"].extend(z["event-bag"][:k])
            del z["event-bag"][:k]
        st.stage = MAIN
        st.turn = 1
        st.phase = 0

    def time_track(self) -> None:
        r, z = self.r, self.state.zones
        cards = z["action-deck"]
        del z["action-deck"][:0]
        if r.setup.get("time_track") == "first-game":
            cards.sort(key=lambda c: r.action_cards[c.card]["first_game"])
        else:
            plague = None
            if self.solo:
                plague = next(c for c in cards if r.action_cards[c.card]["event"] == "plague")
                cards.remove(plague)
            self.shuffle(cards, "shuffle the action cards")
            if plague is not None:
                cards.insert(int(r.solo["plague_position"]) - 1, plague)
        z["time-track"].extend(cards)
        del cards[:]

    def draft_setup(self) -> None:
        """Deal 7 to each player; pick one and pass the rest left, until 5 are kept; the
        leftovers of every hand make the market."""
        r, st = self.r, self.state
        z = st.zones
        hand = int(r.drafting["hand"])
        for p in st.players:
            p.zones["draft-pack"].extend(z["civilization-deck"][:hand])
            del z["civilization-deck"][:hand]
        for _ in range(int(r.drafting["keep"])):
            picks = []
            for seat, p in enumerate(st.players):
                ids = [c.card for c in p.zones["draft-pack"]]
                picks.append(self.choose(seat, ids, "draft a civilization",
                                         self.draft_outcome(p)))
            for seat, p in enumerate(st.players):
                pack = p.zones["draft-pack"]
                card = next(c for c in pack if c.card == picks[seat])
                pack.remove(card)
                p.zones["civilization-hand"].append(card)
            packs = [p.zones["draft-pack"] for p in st.players]
            for seat, p in enumerate(st.players):  # pass to the left (the next seat)
                p.zones["draft-pack"] = packs[(seat - 1) % self.n]
        for p in st.players:
            z["civilization-market"].extend(p.zones["draft-pack"])
            p.zones["draft-pack"] = []

    def draft_outcome(self, p: PlayerState) -> Callable[[str], dict[str, float]]:
        return lambda cid: self.civ_estimate(p, cid, int(self.r.drafting["bonus_later"]), True)

    # ------------------------------------------------------------------ the game
    def play(self, max_turns: int) -> None:
        st, r = self.state, self.r
        ctx = self.ctx
        assert ctx is not None
        if st.stage == PREGAME:
            self.setup()
            st.turn = 1
            ctx.step("pregame")
        self.apply_scenario_bonus()
        if "totals" not in st.vars:
            st.vars["totals"] = {
                "coins": st.supply["coins"] + sum(p.counters["coins"] for p in st.players)
                + sum((c.tokens or {}).get("coins", 0) for _, _, cs in st.all_zones() for c in cs),
                "workers": st.supply["workers"] + sum(p.counters["workers"] for p in st.players),
                "techs": st.supply["technology-tokens"] + st.vars["opponent"]
                + sum(len(p.vars["techs"]) for p in st.players)}
        while st.stage == MAIN:
            if st.phase == 0:
                starter = st.vars["starter"]
                for k in range(self.n):
                    self.take_turn((starter + k) % self.n)
                st.phase = 1
                ctx.step(TURNS)
            last = st.turn >= r.rounds
            capped = st.turn >= max_turns
            self.end_round(last)
            st.phase = 0
            if last:
                self.game_end()
            elif capped:
                st.stage = OVER
                st.ended = TIMEOUT
            else:
                st.turn += 1
            ctx.step(ROUND_END)

    def apply_scenario_bonus(self) -> None:
        """Scenarios may ask for bonus coins on market cards: shared var 'bonus' maps a card id
        to its coins (taken from the supply)."""
        want = self.state.vars.pop("bonus", None)
        if not want:
            return
        for c in self.state.zones["civilization-market"]:
            if c.card in want:
                self.put_bonus(c, int(want[c.card]))

    def put_bonus(self, card: CardInstance, n: int) -> None:
        if card.tokens is None:
            card.tokens = {}
        card.tokens["coins"] = card.tokens.get("coins", 0) + n
        self.state.supply["coins"] -= n

    # ------------------------------------------------------------------ a turn
    def take_turn(self, seat: int) -> None:
        p = self.state.players[seat]
        self.civilization_step(seat, p)
        if self.innovation:
            self.buy_special(seat, p)
        self.actions_step(seat, p)
        self.turn_end(seat, p)

    def market_cards(self, p: PlayerState) -> list[CardInstance]:
        cards = list(self.state.zones["civilization-market"])
        if self.draft:
            cards += p.zones["civilization-hand"]
        return cards

    def civ_estimate(self, p: PlayerState, cid: str, bonus: int, rise: bool) -> dict[str, float]:
        pop = int(self.r.civs[cid]["population"])
        d: dict[str, float] = {"coins": bonus, "power": POWER_CIV}
        if rise:
            d["workers"] = min(pop, self.r.max_workers) - p.counters["workers"]
            for a in self.r.main.get(cid, ()):
                if a["when"] == "rise":
                    mult = a.get("multiply_bonus")
                    if mult:
                        d["coins"] = bonus * mult
                    if a.get("points"):
                        d["points"] = a["points"] * (self.future_cards() if a.get("per") else 1)
                    if a.get("technology"):
                        d["power"] += POWER_TECH * (bonus // a.get("each", 1) if a.get("per") else 1)
                    if a.get("coins"):
                        d["coins"] += a["coins"]
        else:
            d["workers"] = 1 if p.counters["workers"] < self.r.max_workers else 0
            d["power"] = POWER_CIV * 0.6
        return d

    def bonus_of(self, p: PlayerState, card: CardInstance) -> int:
        extra = (card.tokens or {}).get("coins", 0)
        if self.draft:
            first = not p.zones["civilizations"]
            return extra + int(self.r.drafting["bonus_first" if first else "bonus_later"])
        return extra

    def civilization_step(self, seat: int, p: PlayerState) -> None:
        civs = p.zones["civilizations"]
        cards = self.market_cards(p)
        if not cards or len(civs) >= self.r.max_civs:
            if not civs:
                return
            self.event("skip", seat)
            return
        options: list[str] = []
        if civs:
            options.append("skip")
        options += [f"rise:{c.card}" for c in cards]
        if civs:
            options += [f"annex:{c.card}" for c in cards]
        by_id = {c.card: c for c in cards}

        def outcome(opt: str) -> dict[str, float]:
            if opt == "skip":
                return {}
            how, cid = opt.split(":")
            return self.civ_estimate(p, cid, self.bonus_of(p, by_id[cid]), how == "rise")

        pick = self.choose(seat, options, "rise, annex or skip", outcome)
        if pick == "skip":
            self.event("skip", seat)
            return
        how, cid = pick.split(":")
        self.take_civilization(seat, p, by_id[cid], how == "rise")

    def take_civilization(self, seat: int, p: PlayerState, card: CardInstance, rise: bool) -> None:
        r, st = self.r, self.state
        z = st.zones
        bonus = self.bonus_of(p, card)
        on_card = (card.tokens or {}).get("coins", 0)
        from_hand = card in p.zones["civilization-hand"]
        (p.zones["civilization-hand"] if from_hand else z["civilization-market"]).remove(card)
        card.tokens = None
        mult = 1
        if rise:
            mult = max([a.get("multiply_bonus", 1) for a in r.main.get(card.card, ())
                        if a["when"] == "rise"] or [1])
        total_bonus = bonus * mult
        # the coins on the card go to the player; the rest (drafting's fixed bonus, Carthage's
        # extra) comes from the supply
        p.counters["coins"] += on_card
        self.gain_coins(p, total_bonus - on_card)
        self.cover("civilization", card.card)
        if rise:
            p.zones["civilizations"].insert(0, card)
            self.gain_workers(p, -p.counters["workers"])
            self.gain_workers(p, int(r.civs[card.card]["population"]))
            self.event("rise", seat)
            for a in r.main.get(card.card, ()):
                if a["when"] == "rise":
                    self.on_rise(seat, p, a, total_bonus)
        else:
            p.zones["civilizations"].append(card)
            self.gain_workers(p, int(r.turn["annex_workers"]))
            self.event("annex", seat)
        if not self.draft and not self.solo:
            for c in z["civilization-market"]:
                self.put_bonus(c, int(r.turn["bonus_coin"]))
            if z["civilization-deck"]:
                z["civilization-market"].append(z["civilization-deck"].pop(0))

    def on_rise(self, seat: int, p: PlayerState, a: dict, bonus: int) -> None:
        k = self.times(p, a, bonus)
        if a.get("points"):
            p.counters["points"] += a["points"] * k
        if a.get("coins"):
            self.gain_coins(p, a["coins"] * k)
        if a.get("others_coins"):
            for j, q in enumerate(self.state.players):
                if j != seat:
                    self.gain_coins(q, a["others_coins"])
        for _ in range(a.get("technology", 0) * k):
            self.gain_technology(seat, p, "technology on rising")
        for _ in range(a.get("wonder", 0)):
            self.take_wonder(seat, p)

    # ------------------------------------------------------------------ technologies
    def tree(self, p: PlayerState) -> list[str]:
        """The technologies a player's cards offer: the basic tree, with a special card's
        column replaced by its top technology and the card's two."""
        special = p.zones["special-technology"]
        if not special:
            return self.r.basic
        f = self.r.specials[special[0].card]
        col = f["column"]
        out = [t for t in self.r.basic
               if self.r.techs[t]["column"] != col or self.r.techs[t]["row"] == 1]
        return out + [f["second"], f["third"]]

    def available_techs(self, p: PlayerState) -> list[str]:
        held = set(p.vars["techs"])
        out = []
        for t in self.tree(p):
            if t in held:
                continue
            req = self.r.techs[t]["requires"]
            if not req or held.intersection(req):
                out.append(t)
        return out

    def gain_technology(self, seat: int, p: PlayerState, why: str, tech: str | None = None) -> bool:
        if tech is None:
            options = self.available_techs(p)
            if not options:
                return False
            tech = self.choose(seat, options, why, lambda t: self.tech_estimate(p, t))
        p.vars["techs"].append(tech)
        self.state.supply["technology-tokens"] -= 1
        self.cover("technology", tech)
        for a in self.r.main.get(tech, ()):
            if a["when"] == "gained" and a.get("points"):
                p.counters["points"] += a["points"] * self.times(p, a)
        return True

    def tech_estimate(self, p: PlayerState, t: str) -> dict[str, float]:
        d = {"power": POWER_TECH}
        for a in self.r.main.get(t, ()):
            if a["when"] == "gained" and a.get("points"):
                d["points"] = a["points"] * self.times(p, a)
            if a.get("military"):
                d["power"] += 0.4 * a["military"]
        return d

    def buy_special(self, seat: int, p: PlayerState) -> None:
        market = self.state.zones["technology-market"]
        price = int(self.r.innovation.get("price", 1))
        if p.zones["special-technology"] or not market or p.counters["coins"] < price:
            return
        used = {self.r.techs[t]["column"] for t in p.vars["techs"]}
        options = ["none"] + [c.card for c in market
                              if self.r.specials[c.card]["column"] not in used]
        if len(options) == 1:
            return
        pick = self.choose(seat, options, "buy a special technology card",
                           lambda o: {} if o == "none" else {"coins": -price, "power": 0.8})
        if pick == "none":
            return
        card = next(c for c in market if c.card == pick)
        market.remove(card)
        p.zones["special-technology"].append(card)
        self.gain_coins(p, -price)
        self.cover("special-technology", pick)

    # ------------------------------------------------------------------ wonders
    def take_wonder(self, seat: int, p: PlayerState) -> None:
        market = self.state.zones["wonder-market"]
        if not market:
            return
        ids = [c.card for c in market]
        pick = self.choose(seat, ids, "take a wonder", lambda w: self.wonder_estimate(p, w))
        card = next(c for c in market if c.card == pick)
        market.remove(card)
        p.zones["wonders"].append(card)
        self.cover("wonder", pick)

    def wonder_estimate(self, p: PlayerState, w: str) -> dict[str, float]:
        d = {"power": POWER_WONDER}
        for a in self.r.main.get(w, ()):
            if a["when"] == "game-end" and a.get("points"):
                d["points"] = a["points"] * max(1, self.times(p, a))
        return d

    # ------------------------------------------------------------------ actions
    def slots(self, seat: int, p: PlayerState) -> list[tuple[str, str]]:
        """(action, where) of every slot the player may use this round: the permanent card,
        the open action cards, the civilization's own slots and, for Maya, upcoming cards."""
        r, st = self.r, self.state
        out: list[tuple[str, str]] = []
        for a in r.permanent:
            out += [(a, "track")] * r.actions[a]["slots"]
        first = st.turn - 1
        track = st.zones["time-track"]
        abil = _abilities(r, p)
        upcoming = any(a.get("upcoming") for a in abil if a["when"] == "always")
        for i, c in enumerate(track):
            act = r.action_cards[c.card]["action"]
            if act == "none":
                continue
            if first <= i < first + r.open_cards:
                out += [(act, "track")] * r.actions[act]["slots"]
            elif upcoming and i >= first + r.open_cards:
                out += [(act, "upcoming")] * r.actions[act]["slots"]
        for a in abil:
            if a["when"] == "always" and a.get("slot"):
                out.append((a["slot"], "own"))
        blocked = set()
        for j, q in enumerate(st.players):
            if j != seat:
                for a in _abilities(r, q):
                    if a["when"] == "always" and a.get("blocks"):
                        blocked.add(a["blocks"])
        return [s for s in out if s[0] not in blocked]

    def action_terms(self, seat: int, p: PlayerState, act: str, tech: str | None = None,
                     via: str = "") -> dict[str, Any]:
        """Workers, coin cost and what an action gives this player now (modifiers included)."""
        r = self.r
        spec = r.actions[act]
        cost = spec["cost"]
        points = spec["gain"].get("points", 0)
        coins = spec["gain"].get("coins", 0)
        workers = spec["workers"]
        discount, free, keep, others, extra_w, perform, gain_w = 0, False, False, 0, 0, [], 0
        for a in _abilities(r, p):
            if a["when"] != "action" or a.get("action") != act or not self.ok(seat, a, via):
                continue
            if a.get("technologies") is not None and tech not in a["technologies"]:
                continue
            points += a.get("points", 0)
            coins += a.get("coins", 0)
            discount += a.get("discount", 0)
            free = free or bool(a.get("free"))
            keep = keep or bool(a.get("keep_workers"))
            others += a.get("others_coins", 0)
            extra_w += a.get("extra_workers", 0)
            gain_w += a.get("workers", 0)
            if a.get("perform"):
                perform.append(a["perform"])
        cost = 0 if free else max(0, cost - discount)
        return {"cost": cost, "points": points, "coins": coins, "workers": workers + extra_w,
                "sacrifice": spec["sacrifice"] and not keep, "others": others
                + spec["others_coins"], "perform": perform, "gain_workers": gain_w}

    def estimate(self, seat: int, p: PlayerState, act: str, tech: str | None) -> dict[str, float]:
        t = self.action_terms(seat, p, act, tech)
        spec = self.r.actions[act]
        d: dict[str, float] = {"coins": t["coins"] - t["cost"], "points": t["points"]}
        if spec["only_if"] == "most-military" and not (self.most_military(seat)
                                                       and military(self.r, p) >= 1):
            d["points"] = 0
        if spec["no_tech_points"] and not p.vars["techs"]:
            d["points"] += spec["no_tech_points"]
        if t["sacrifice"]:
            d["workers"] = -t["workers"]
        d["workers"] = d.get("workers", 0) + t["gain_workers"]
        if spec["gains"] == "technology" and tech is not None:
            for k, v in self.tech_estimate(p, tech).items():
                d[k] = d.get(k, 0) + v
        if spec["gains"] == "wonder" and self.state.zones["wonder-market"]:
            d["power"] = d.get("power", 0) + POWER_WONDER
        return d

    def placements(self, seat: int, p: PlayerState, free: int, used: list[tuple[str, str]]
                   ) -> list[str]:
        left = list(self.slots(seat, p))
        for u in used:
            if u in left:
                left.remove(u)
        out = []
        seen = set()
        for act, where in left:
            if (act, where) in seen:
                continue
            seen.add((act, where))
            label = act if where == "track" else f"{act}@{where}"
            if self.r.actions[act]["gains"] == "technology":
                for t in self.available_techs(p):
                    terms = self.action_terms(seat, p, act, t)
                    if terms["workers"] <= free and terms["cost"] <= p.counters["coins"]:
                        out.append(f"{label}:{t}")
                continue
            terms = self.action_terms(seat, p, act)
            if terms["workers"] <= free and terms["cost"] <= p.counters["coins"]:
                out.append(label)
        return out

    def actions_step(self, seat: int, p: PlayerState) -> None:
        """Place workers one action at a time, or rest; then resolve the workers."""
        used: list[tuple[str, str]] = []
        placed = sacrificed = 0
        first = True
        while True:
            free = p.counters["workers"] - placed
            options = self.placements(seat, p, free, used)
            head = "rest" if first else "done"
            pick = self.choose(seat, [head, *options], "place a worker or " + head,
                               self.turn_outcome(seat, p))
            if pick == "rest":
                self.rest(seat, p)
                return
            if pick == "done":
                break
            first = False
            act, where, tech = self.split(pick)
            used.append((act, where))
            terms = self.action_terms(seat, p, act, tech)
            placed += terms["workers"]
            if terms["sacrifice"]:
                sacrificed += terms["workers"]
            # a worker gained during the action (China) is on hand and may be placed at once
            self.perform(seat, p, act, terms, tech)
        self.gain_workers(p, -sacrificed)

    def turn_outcome(self, seat: int, p: PlayerState) -> Callable[[str], dict[str, float]]:
        rest = {"coins": self.r.turn["rest"]["coins"],
                "workers": self.r.turn["rest"]["workers"]
                if p.counters["workers"] < self.r.max_workers else 0}

        def outcome(o: str) -> dict[str, float]:
            if o == "rest":
                return rest
            if o == "done":
                return {}
            act, _, tech = self.split(o)
            return self.estimate(seat, p, act, tech)
        return outcome

    @staticmethod
    def split(option: str) -> tuple[str, str, str | None]:
        head, _, tech = option.partition(":")
        act, _, where = head.partition("@")
        return act, where or "track", tech or None

    def perform(self, seat: int, p: PlayerState, act: str, terms: dict, tech: str | None,
                via: str = "") -> None:
        r, st = self.r, self.state
        spec = r.actions[act]
        self.cover("action", act)
        self.gain_coins(p, -terms["cost"])
        points = terms["points"]
        if spec["only_if"] == "most-military" and not (self.most_military(seat)
                                                       and military(r, p) >= 1):
            points = 0
        if spec["no_tech_points"] and not p.vars["techs"]:
            points += spec["no_tech_points"]
        p.counters["points"] += points
        self.gain_coins(p, terms["coins"])
        if terms["others"]:
            for j, q in enumerate(st.players):
                if j != seat:
                    self.gain_coins(q, terms["others"])
        if terms["gain_workers"]:
            self.gain_workers(p, terms["gain_workers"])
        if spec["gains"] == "technology" and tech is not None:
            self.gain_technology(seat, p, "research", tech)
        if spec["gains"] == "wonder":
            self.take_wonder(seat, p)
        for extra in terms["perform"]:
            self.free_action(seat, p, extra, act)

    def free_action(self, seat: int, p: PlayerState, act: str, via: str) -> None:
        """An action performed without a worker (Aksum's Culture, Education): optional, paid."""
        terms = self.action_terms(seat, p, act, via=via)
        terms["workers"] = 0
        terms["sacrifice"] = False
        if terms["cost"] > p.counters["coins"]:
            return
        est = {"coins": terms["coins"] - terms["cost"], "points": terms["points"]}
        pick = self.choose(seat, ["no", act], f"perform {act} for free ({via})",
                           lambda o: {} if o == "no" else est)
        if pick == act:
            self.perform(seat, p, act, terms, None, via)

    def rest(self, seat: int, p: PlayerState) -> None:
        rest = self.r.turn["rest"]
        self.gain_coins(p, int(rest["coins"]))
        self.gain_workers(p, int(rest["workers"]))
        for a in _abilities(self.r, p):
            if a["when"] == "rest":
                self.gain_coins(p, a.get("coins", 0))
                p.counters["points"] += a.get("points", 0)
        self.event("rest", seat)

    # ------------------------------------------------------------------ turn end
    def turn_end(self, seat: int, p: PlayerState) -> None:
        """Every-turn-end abilities: spending ones first, then gains, points-counting last
        (interpretation turn-end-order)."""
        abil = [a for a in _abilities(self.r, p) if a["when"] == "turn-end"]
        for a in abil:
            if a.get("pay_bonus"):
                self.phoenicia(seat, p, a)
        for a in abil:
            if a.get("perform"):
                self.free_action(seat, p, a["perform"], "education")
        for a in abil:
            for _ in range(a.get("technology", 0)):
                self.gain_technology(seat, p, "technology at turn end")
        for a in abil:
            if a.get("pay_bonus") or a.get("perform") or a.get("per") == "points":
                continue
            if not self.ok(seat, a):
                continue
            self.gain_coins(p, a.get("coins", 0) * self.times(p, a))
            p.counters["points"] += a.get("points", 0) * self.times(p, a)
        for a in abil:
            if a.get("per") == "points" and self.ok(seat, a):
                p.counters["points"] += a.get("points", 0) * self.times(p, a)

    def phoenicia(self, seat: int, p: PlayerState, a: dict) -> None:
        n = int(a["pay_bonus"])
        market = self.state.zones["civilization-market"]
        if p.counters["coins"] < n or not market:
            return
        options = ["no"] + [c.card for c in market]
        est = {"coins": -n, "points": a.get("points", 0)}
        pick = self.choose(seat, options, "pay bonus coins onto a market civilization",
                           lambda o: {} if o == "no" else est)
        if pick == "no":
            return
        card = next(c for c in market if c.card == pick)
        p.counters["coins"] -= n
        if card.tokens is None:
            card.tokens = {}
        card.tokens["coins"] = card.tokens.get("coins", 0) + n
        p.counters["points"] += a.get("points", 0)

    # ------------------------------------------------------------------ round end
    def end_round(self, last: bool) -> None:
        r, st = self.r, self.state
        z = st.zones
        if self.solo:
            st.vars["opponent"] += int(r.solo["opponent_growth"])
            st.supply["technology-tokens"] -= int(r.solo["opponent_growth"])
            for c in z["civilization-market"]:
                self.put_bonus(c, int(r.solo["bonus_at_round_end"]))
            for _ in range(int(r.solo["refill_at_round_end"])):
                if z["civilization-deck"]:
                    z["civilization-market"].append(z["civilization-deck"].pop(0))
        else:
            step = -1 if r.round_end.get("starter_passes") == "counter-clockwise" else 1
            st.vars["starter"] = (st.vars["starter"] + step) % self.n
        if last:
            return
        new = st.turn - 1 + r.open_cards  # the card the permanent card's move opens
        token = None
        if self.changing and new >= r.track_len - len(z["event-track"]):
            token = z["event-track"][new - (r.track_len - len(z["event-track"]))].card
        first = bool(r.changing.get("before_war", True))
        if token is not None and first:
            self.world_event(token)
        event = r.action_cards[z["time-track"][new].card]["event"]
        if event == "war":
            self.war()
        elif event == "plague":
            self.event("plague")
            for p in st.players:
                self.gain_workers(p, -int(r.round_end["plague_sacrifice"]))
        if token is not None and not first:
            self.world_event(token)

    def war(self) -> None:
        st = self.state
        self.event("war")
        s = self.strengths()
        pool = s + ([st.vars["opponent"]] if self.solo else [])
        low = min(pool)
        losers = [i for i, x in enumerate(s) if x == low]
        if len(losers) + (1 if self.solo and st.vars["opponent"] == low else 0) > 1:
            self.event("war-tie")
        for i, p in enumerate(st.players):
            abil = _abilities(self.r, p)
            for a in abil:
                if a["when"] == "war" and a.get("coins"):
                    self.gain_coins(p, a["coins"] * self.times(p, a))
            if i in losers and not any(a["when"] == "war" and a.get("immune") for a in abil):
                self.gain_workers(p, -int(self.r.round_end["war_sacrifice"]))

    def world_event(self, token: str) -> None:
        """Changing World: one event token's effect (before the card's own event)."""
        st, r = self.state, self.r
        f = r.events[token]
        self.event(f"event:{token}")
        self.cover("event", token)
        who = f["who"]
        players = list(range(self.n))
        if who != "all":
            key = {"most-wonders": lambda p: len(p.zones["wonders"]),
                   "most-technologies": lambda p: len(p.vars["techs"]),
                   "most-coins": lambda p: p.counters["coins"],
                   "least-military": lambda p: -military(r, p)}[who]
            vals = [key(p) for p in st.players]
            players = [i for i, v in enumerate(vals) if v == max(vals)]
        delta = _flat(f["effect"])
        for i in players:
            p = st.players[i]
            k = p.counters["workers"] if f.get("per") == "workers" else 1
            for stat, n in delta.items():
                if stat == "workers":
                    self.gain_workers(p, n * k)
                elif stat == "coins":
                    self.gain_coins(p, n * k)
                else:
                    p.counters[stat] += n * k

    # ------------------------------------------------------------------ game end
    def game_end(self) -> None:
        r, st = self.r, self.state
        for p in st.players:
            for a in _abilities(r, p):
                if a["when"] == "game-end":
                    p.counters["points"] += a.get("points", 0) * self.times(p, a)
        keys = [tuple([p.counters["points"]] + [p.counters[k] for k in r.tie_breaks])
                for p in st.players]
        best = max(keys)
        st.winners = [i for i, k in enumerate(keys) if k == best]
        st.stage = OVER
        st.ended = COMPLETED
        for i in st.winners:
            for c in st.players[i].zones["civilizations"]:
                self.event(f"won-with:{c.card}")
        if self.solo:
            p = st.players[0]
            for ach in achieved(r, p):
                self.event(f"achievement:{ach}")


def achieved(r: Rules, p: PlayerState) -> list[str]:
    """The solo achievements a final position earns."""
    techs = len(p.vars["techs"])
    out = []
    for a in r.achievements:
        if p.counters["points"] < a["points"]:
            continue
        if "min_technologies" in a and techs < a["min_technologies"]:
            continue
        if "max_technologies" in a and techs > a["max_technologies"]:
            continue
        if "min_wonders" in a and len(p.zones["wonders"]) < a["min_wonders"]:
            continue
        if "min_military" in a and military(r, p) < a["min_military"]:
            continue
        out.append(a["id"])
    return out
