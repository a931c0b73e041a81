"""The Ancient World, both editions: the rulebook as procedures over the GameDef.

Every number comes from game.yaml's `rules:` block and the card fields of decks.yaml; the two
editions differ only in that data (the variant first-edition) and the switches it sets
(placement rule, military row refresh, threatening titans, ambrosia, Build Stored, the damage
die's coin face, Empire C). Readings of unclear rules follow game.yaml's `interpretations:`.
Dice go through `ctx.roll_face`/`ctx.shuffle`, decisions through `ctx.choose` with string
options (what logs and scenarios write), each with a greedy estimate.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any

from pnp.data.model import GameDef
from pnp.engine.api import fill_result
from pnp.engine.components import counter_bounds, initial_state, supplies, zone_visibility
from pnp.engine.core import MAIN, OVER, PREGAME, Context, Estimate, GameMeta, State
from pnp.engine.module import ScenarioProblem, vars_problems
from pnp.engine.result import COMPLETED, TIMEOUT

ENGINE = "the-ancient-world"
COLOURS = ("red", "blue", "green", "yellow", "purple")
BOARD = ("labor", "build", "draft", "expand", "learn", "rebuild", "recruit", "explore", "grow")
EMPIRE_DECKS = ("empire-a", "empire-b", "empire-c", "starting-empire")
TOKENS = ("coins", "knowledge", "ambrosia")
#: greedy bot: worth of one unit of each counter (a heuristic, not a rule)
BOT_VALUES = {"victory-points": 3.0, "coins": 1.0, "knowledge": 1.6, "ambrosia": 0.6,
              "draft": 0.8}
#: most attack payments offered per target (the cheapest ones): keeps decisions small
MAX_PAYMENTS = 6
NONE = "none"


class Rules:
    """The data a game reads over and over, compiled once per GameDef."""

    def __init__(self, game: GameDef):
        self.game = game
        rule = game.rule
        self.cards: dict[str, dict[str, Any]] = {}
        self.deck_of: dict[str, str] = {}
        for deck in game.decks.values():
            for card in deck.cards:
                self.cards[card.id] = dict(card.fields)
                self.deck_of[card.id] = deck.id
        self.rounds = int(rule("end", "max_turns"))
        self.second = rule("edition") == "second"
        self.capital = dict(rule("capital"))
        self.faces = tuple(game.dice["damage"].faces)
        self.amb = bool(rule("ambrosia", "enabled"))
        self.threats = bool(rule("titans", "threatening"))
        self.city_states = bool(rule("city_states", "enabled"))
        self.boards = [dict(b) for b in rule("city_states", "boards")]
        self.banner_vp = list(rule("scoring", "banners"))
        self.metadata: GameMeta | None = None

    def f(self, card: str, field: str) -> Any:
        return self.cards[card].get(field, 0)

    def meta(self) -> GameMeta:
        mine, shared = counter_bounds(self.game)
        g = self.game
        return GameMeta(game=g.id, players_min=g.players_min, players_max=g.players_max,
                        max_turns=self.rounds, counter_bounds=mine, shared_bounds=shared,
                        phases=tuple(p.id for p in g.phases), score_counter="victory-points",
                        supplies=supplies(g), zone_visibility=zone_visibility(g),
                        bot_values=dict(BOT_VALUES))


_RULES: dict[int, tuple[GameDef, Rules]] = {}


def rules_for(game: GameDef) -> Rules:
    hit = _RULES.get(id(game))
    if hit is not None and hit[0] is game:
        return hit[1]
    r = Rules(game)
    if len(_RULES) > 32:
        _RULES.clear()
    _RULES[id(game)] = (game, r)
    return r


# --------------------------------------------------------------------------- module API


def metadata(game: GameDef) -> GameMeta:
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
    r = rules_for(game)
    TAW(r, ctx, ctx.state).play(r.rounds if max_turns is None else max_turns)


def finish(game: GameDef, ctx: Context) -> None:
    fill_result(ctx, "victory-points")
    st, res = ctx.state, ctx.result
    if rules_for(game).city_states:
        names = {b["id"]: b["name"] for b in rules_for(game).boards}
        res.factions = tuple(names.get(p.vars.get("city", ""), "") for p in st.players)


def coverage_keys(game: GameDef) -> dict[str, list[str]]:
    """Board actions taken, card actions used, and cards gained (bought, recruited, defeated,
    expanded into), for every card a game can gain."""
    r = rules_for(game)
    dealt = {z.deck for z in game.zones.values() if z.deck}  # not the printed-only pieces
    cards = [f"{r.deck_of[c]}/{c}" for c in r.cards
             if r.deck_of[c] in dealt and not r.deck_of[c].startswith("starting")
             and any(card.id == c and card.count for card in game.decks[r.deck_of[c]].cards)]
    acts = [c for c in r.cards if r.deck_of[c] in EMPIRE_DECKS
            and _has_action(r, c) and any(card.id == c and card.count
                                          for card in game.decks[r.deck_of[c]].cards)]
    return {"action": list(BOARD), "card": cards, "card-action": acts}


def _has_action(r: Rules, card: str) -> bool:
    f = r.cards[card]
    return bool(f.get("act_coins") or f.get("act_knowledge") or f.get("act_repair")
                or str(f.get("ability", "")).startswith("action-")
                or f.get("ability") == "borrow-action")


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
        if any(sum(1 for c in cards if not _retired(c)) > 1 for cards in armies.values()):
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
    copies = Counter(c.card for _, _, cs in state.all_zones() for c in cs)
    coins = state.supply.get("coins", 0)
    wanted: Counter = Counter()
    for j, ps in enumerate(spec.get("players") or []):
        out += vars_problems(ps.get("vars"), {}, ("players", j, "vars"), hint)
        held: set[int] = set()
        for k, text in enumerate(ps.get("citizens") or []):
            skill, _, where = str(text).partition(" ")
            path = ("players", j, "citizens", k)
            if not 1 <= int(skill) <= skills or int(skill) in held:
                out.append(ScenarioProblem(path, f"citizen {skill}: each player holds skills 1 "
                                           f"to {skills}, each once",
                                           "give each citizen its own skill"))
            if where not in places:
                out.append(ScenarioProblem(path, f"a citizen cannot be '{where}' here",
                                           "places: " + ", ".join(places)))
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
    """Scenario keys: `citizens` ('2 ready', '3 space:labor'), `armies` ('card army name
    picture [retired]') and `damaged` (empire cards lying damaged); each sets or expects."""
    def set_cits(game: GameDef, state: State, seat: int, value: Any, keyed: Any) -> None:
        cits = state.players[seat].vars["cit"]
        state.supply["citizens"] += len(cits)
        cits[:] = [[int(v.split()[0]), v.split()[1]] for v in value]
        state.supply["citizens"] -= len(cits)
        for held in state.vars.get("spaces", {}).values():
            held[:] = [x for x in held if x[0] != seat]
        for skill, where in cits:
            if where.startswith("space:"):
                state.vars["spaces"][where[6:]].append([seat, skill])

    def read_cits(game, st, seat, want, keyed):
        got = [f"{s} {w}" for s, w in sorted(st.players[seat].vars["cit"])]
        return sorted(want, key=lambda v: int(v.split()[0])), got

    def set_armies(game, state, seat, value, keyed):
        zone = state.players[seat].zones["armies"]
        box = state.zones["box"]
        box.extend(zone)
        zone.clear()
        for v in value:
            cid, army, name, picture, *retired = v.split()
            card = next((c for c in box if c.card == cid), None)
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
        got = [f"{c.card} {_tok(c, 'army')} {_tok(c, 'name')} {_tok(c, 'picture')}"
               + (" retired" if _retired(c) else "") for c in st.players[seat].zones["armies"]]
        return sorted(want), sorted(got)

    def set_damaged(game, state, seat, value, keyed):
        for c in state.players[seat].zones["empire"]:
            _flag(c, "damaged", c.card in value)

    def read_damaged(game, st, seat, want, keyed):
        return sorted(want), sorted(c.card for c in st.players[seat].zones["empire"]
                                    if _damaged(c))

    return {"citizens": (set_cits, read_cits), "armies": (set_armies, read_armies),
            "damaged": (set_damaged, read_damaged)}


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


def player_counters(game: GameDef, p: Any) -> dict[str, int]:
    return dict(p.counters)


# --------------------------------------------------------------------------- the game


def _retired(c: Any) -> bool:
    return bool(c.flags and "retired" in c.flags)


def _damaged(c: Any) -> bool:
    return bool(c.flags and "damaged" in c.flags)


def _tok(c: Any, key: str) -> int:
    return (c.tokens or {}).get(key, 0)


def _set_tok(c: Any, key: str, value: int) -> None:
    if c.tokens is None:
        c.tokens = {}
    c.tokens[key] = value


def _flag(c: Any, flag: str, on: bool = True) -> None:
    flags = [f for f in (c.flags or []) if f != flag]
    if on:
        flags.append(flag)
    c.flags = flags or None


class TAW:
    """One game being played (or set up, or inspected by the invariants)."""

    def __init__(self, r: Rules, ctx: Context | None, state: State):
        self.r = r
        self.ctx = ctx
        self.st = state
        self.rule = r.game.rule
        self.n = len(state.players)

    # ------------------------------------------------------------------ small helpers
    def choose(self, seat: int, options: list[str], why: str,
               est: dict[str, Estimate] | None = None) -> str:
        if len(options) == 1:
            return options[0]
        assert self.ctx is not None
        return self.ctx.choose(seat, options, why,
                               (lambda o: est.get(o, _ZERO)) if est else None)

    def gain(self, seat: int, token: str, n: int) -> int:
        """Take n tokens from the box (or pay them back with n < 0; never below zero)."""
        p = self.st.players[seat]
        if n < 0:
            n = -min(-n, p.counters[token])
        p.counters[token] += n
        self.st.supply[token] -= n
        if (token == "knowledge" and n > 0 and self.r.amb
                and self.city(seat).get("ambrosia_per_knowledge")):
            self.gain(seat, "ambrosia", n * self.city(seat)["ambrosia_per_knowledge"])
        return n

    def city(self, seat: int) -> dict[str, Any]:
        cid = self.st.players[seat].vars.get("city", "")
        return next((b for b in self.r.boards if b["id"] == cid), {})

    def zone(self, name: str, seat: int = -1) -> list:
        return self.st.zone(name, seat)

    def active_cards(self, seat: int) -> list:
        """Cards whose symbols count: undamaged empire cards, districts and defeated titans."""
        return [c for c in self.zone("empire", seat) if not _damaged(c)] + self.zone("lands", seat)

    def symbols(self, seat: int, field: str) -> int:
        f = self.r.f
        return sum(f(c.card, field) for c in self.active_cards(seat))

    def has(self, seat: int, ability: str) -> bool:
        return any(self.r.f(c.card, "ability") == ability for c in self.zone("empire", seat)
                   if not _damaged(c))

    def food(self, seat: int) -> int:
        return self.r.capital["food"] + self.symbols(seat, "food")

    def capacity(self, seat: int) -> int:
        return (self.r.capital["capacity"] + self.city(seat).get("capacity", 0)
                + sum(self.r.f(c.card, "capacity") for c in self.zone("lands", seat)))

    def army_limit(self, seat: int) -> int:
        return self.r.capital["army"] + self.symbols(seat, "army")

    def armies(self, seat: int) -> dict[int, list]:
        out: dict[int, list] = {}
        for c in self.zone("armies", seat):
            out.setdefault(_tok(c, "army"), []).append(c)
        return out

    def actives(self, seat: int) -> list:
        return [c for c in self.zone("armies", seat) if not _retired(c)]

    def cits(self, seat: int) -> list[list]:
        return self.st.players[seat].vars["cit"]

    def cover(self, kind: str, key: str) -> None:
        if self.ctx is not None:
            self.ctx.cover(kind, key)

    def event(self, name: str, seat: int = -1) -> None:
        if self.ctx is not None:
            self.ctx.event(name, seat)

    def shuffle(self, cards: list, why: str) -> None:
        if self.ctx is not None:
            self.ctx.shuffle(cards, why)

    # ------------------------------------------------------------------ setup
    def setup(self, shuffle: bool = True) -> None:
        """Decks shuffled, rows dealt, player boards, starting cards, citizens and coins."""
        st, rule, n = self.st, self.rule, self.n
        for z in ("empire-a", "empire-b", "military-deck", "districts", "titans-1", "titans-2",
                  "titans-3", "starting-titans"):
            if shuffle:
                self.shuffle(self.zone(z), f"shuffle {z}")
        for z in ("districts", "titans-1", "titans-2", "titans-3"):
            self.flip_top(z)
        row = rule("rows", "empire_by_players")[n - 2]
        self.refill("empire-row", "empire-a", row)
        self.refill("military-row", "military-deck", n)
        st.vars["spaces"] = {s: [] for s in BOARD}
        st.vars["amb"] = {s: 0 for s in BOARD}
        st.counters["round"] = 0
        st.turn = 1
        if self.r.amb:
            for s in self.open_spaces(1):
                self.put_ambrosia(s, rule("ambrosia", "start_on_spaces"))
        first = 0
        st.vars["first"] = first
        extra = rule("setup", "extra_coins_by_seat")
        boards = [b["id"] for b in self.r.boards]
        if self.r.city_states and shuffle:  # boards dealt at random (a scenario keeps the order)
            self.shuffle(boards, "deal city-states")
        for seat, p in enumerate(st.players):
            if self.r.city_states:
                p.vars["city"] = boards[seat % len(boards)]
            order = (seat - first) % n
            self.gain(seat, "coins", rule("setup", "coins") + extra[order]
                      + self.city(seat).get("coins", 0))
            self.gain(seat, "knowledge", self.city(seat).get("knowledge", 0))
            for skill in range(1, rule("setup", "citizens") + 1):
                p.vars["cit"].append([skill, "ready"])
                st.supply["citizens"] -= 1
            for cid in rule("setup", "starting_empire"):
                self.take_card("starting-empire", cid, "empire", seat)
            for i, cid in enumerate(rule("setup", "starting_military")):
                card = self.take_card("starting-military", cid, "armies", seat)
                _set_tok(card, "army", i)
                _set_tok(card, "name", 0)
                _set_tok(card, "picture", 0)
            if rule("setup", "starting_titan") and self.zone("starting-titans"):
                t = self.zone("starting-titans").pop(0)
                self.zone("threat", seat).append(t)
        box = self.zone("box")
        for z in ("starting-empire", "starting-military", "starting-titans"):
            box.extend(self.zone(z))
            self.zone(z).clear()
        st.stage = MAIN
        st.phase = 0

    def take_card(self, zone: str, cid: str, into: str, seat: int) -> Any:
        src = self.zone(zone)
        card = next(c for c in src if c.card == cid)
        src.remove(card)
        self.zone(into, seat).append(card)
        return card

    def flip_top(self, zone: str) -> None:
        cards = self.zone(zone)
        if cards:
            cards[0].face_up = True

    def refill(self, row: str, deck: str, count: int) -> None:
        cards = self.zone(deck)
        while len(self.zone(row)) < count:
            if not cards:
                discard = self.zone("military-discard" if deck == "military-deck"
                                    else "empire-discard")
                if not discard:
                    return
                cards.extend(discard)
                discard.clear()
                self.shuffle(cards, f"reshuffle {deck}")
            self.zone(row).append(cards.pop(0))

    def open_spaces(self, rnd: int, seat: int = -1) -> list[str]:
        track = self.rule("round_track")
        out = []
        for s in BOARD:
            opens = track.get(s, 1)
            if rnd >= opens:
                out.append(s)
            elif seat >= 0 and rnd in self.city(seat).get(f"{s}_rounds", ()):
                out.append(s)
        return out

    def put_ambrosia(self, space: str, n: int) -> None:
        self.st.vars["amb"][space] += n
        self.st.supply["ambrosia"] -= n

    # ------------------------------------------------------------------ the game loop
    def play(self, max_turns: int) -> None:
        st, ctx = self.st, self.ctx
        assert ctx is not None
        if st.stage == PREGAME:
            self.setup()
            ctx.step("pregame")
        phases = ("prepare", "actions", "end-of-round")
        while st.stage == MAIN:
            if st.phase == 0:
                self.prepare()
                st.phase = 1
                ctx.step("prepare")
            if st.phase == 1:
                self.actions()
                st.phase = 2
                ctx.step("actions")
            last = st.turn >= self.r.rounds
            self.end_of_round(last)
            st.phase = 0
            if last:
                self.score()
            elif st.turn >= max_turns:
                st.stage, st.ended = OVER, TIMEOUT
                st.winners = self.winners()
            else:
                st.turn += 1
            ctx.step(phases[2])

    def order(self) -> list[int]:
        first = self.st.vars["first"]
        return [(first + i) % self.n for i in range(self.n)]

    # ------------------------------------------------------------------ prepare
    def prepare(self) -> None:
        """Advance the round; from round 2 refresh both rows and draw threatening titans."""
        st, rule = self.st, self.rule
        rnd = st.turn
        st.counters["round"] = rnd
        if rnd == 1:
            return
        deck = "empire-b" if rnd >= rule("round_track", "empire_b") else "empire-a"
        if rnd == rule("round_track", "empire_b"):
            self.zone("box").extend(self.zone("empire-a") + self.zone("empire-discard")
                                    + self.zone("empire-row"))
            for z in ("empire-a", "empire-discard", "empire-row"):
                self.zone(z).clear()
        self.zone("empire-discard").extend(self.zone("empire-row"))
        self.zone("empire-row").clear()
        self.refill("empire-row", deck, rule("rows", "empire_by_players")[self.n - 2])
        if rule("rows", "military_refresh") == "discard":
            self.zone("military-discard").extend(self.zone("military-row"))
            self.zone("military-row").clear()
        self.refill("military-row", "military-deck", self.n)
        if self.r.threats:
            self.draw_titans(rnd)

    def titan_pile(self, stars: int) -> str | None:
        """The pile to draw from: the round's, else the next highest, else the next lower."""
        order = list(range(stars, 4)) + list(range(stars - 1, 0, -1))
        for s in order:
            if self.zone(f"titans-{s}"):
                return f"titans-{s}"
        return None

    def draw_one(self, pile: str) -> Any:
        """A face-down card below the face-up top, unless the top is the last card."""
        cards = self.zone(pile)
        if len(cards) > 1 and cards[0].face_up:
            card = cards.pop(1)
        else:
            card = cards.pop(0)
        card.face_up = None
        return card

    def draw_titans(self, rnd: int) -> None:
        stars = self.rule("titans", "deck_by_round")[rnd - 1]
        needy = [s for s in self.order() if not self.zone("threat", s)]
        if not needy or stars < 1:
            return
        if self.rule("titans", "draft"):
            offer = []
            for _ in needy:
                pile = self.titan_pile(stars)
                if pile:
                    offer.append(self.draw_one(pile))
            for seat in needy:
                if not offer:
                    break
                opts = [f"titan:{c.uid}" for c in offer]
                est = {o: Estimate({"victory-points": -self.r.f(c.card, "defence") / 3})
                       for o, c in zip(opts, offer, strict=True)}
                pick = self.choose(seat, opts, "choose a threatening titan", est)
                card = offer[opts.index(pick)]
                offer.remove(card)
                self.zone("threat", seat).append(card)
            return
        for seat in needy:
            pile = self.titan_pile(stars)
            if pile:
                self.zone("threat", seat).append(self.draw_one(pile))

    # ------------------------------------------------------------------ player actions
    def actions(self) -> None:
        st = self.st
        for p in st.players:
            p.vars["passed"] = False
        st.vars["first_pass"] = -1
        while True:
            live = [s for s in self.order() if not st.players[s].vars["passed"]]
            if not live:
                return
            for seat in self.order():
                if not st.players[seat].vars["passed"]:
                    self.turn(seat)

    def turn(self, seat: int) -> None:
        """One turn: free ambrosia actions, then one action (or pass)."""
        while True:
            opts, est = self.turn_options(seat)
            pick = self.choose(seat, opts, "action", est)
            kind, _, arg = pick.partition(":")
            if kind == "amb-coin":
                self.gain(seat, "ambrosia", -self.rule("ambrosia", "coin"))
                self.gain(seat, "coins", 1)
                self.event("ambrosia-coin", seat)
                continue
            if kind == "amb-repair":
                self.gain(seat, "ambrosia", -self.rule("ambrosia", "repair"))
                self.repair_uid(seat, int(arg))
                self.event("ambrosia-repair", seat)
                continue
            if kind == "reuse":
                self.gain(seat, "ambrosia", -self.rule("ambrosia", "reuse_citizen"))
                self.event("ambrosia-reuse", seat)
                self.place(seat, arg, reuse=True)
                continue
            if kind == "pass":
                self.pass_(seat)
            elif kind == "place":
                self.place(seat, arg)
            elif kind == "card":
                self.card_action(seat, arg)
            elif kind == "attack":
                self.attack(seat, arg)
            elif kind == "stored":
                self.build_card(seat, int(arg), "stored")
            return

    def turn_options(self, seat: int) -> tuple[list[str], dict[str, Estimate]]:
        p = self.st.players[seat]
        opts = ["pass"]
        est: dict[str, Estimate] = {}
        rnd = self.st.turn
        ready = sorted(c[0] for c in self.cits(seat) if c[1] == "ready")
        placed = sorted(c[0] for c in self.cits(seat) if c[1].startswith("space:"))
        for space in self.open_spaces(rnd, seat):
            gain = self.space_estimate(seat, space)
            if gain is None and not self.st.vars["amb"].get(space):
                continue
            for skill in ready:
                for boost in self.boosts(seat, space, skill):
                    fee = self.fee(seat, space, skill + boost)
                    if fee is None or fee > p.counters["coins"]:
                        continue
                    o = f"place:{space}/{skill}/{boost}"
                    opts.append(o)
                    e = dict(gain or {})
                    e["coins"] = e.get("coins", 0) - fee
                    e["ambrosia"] = (e.get("ambrosia", 0) - boost * self.rule("ambrosia", "skill")
                                     + self.st.vars["amb"].get(space, 0))
                    est[o] = Estimate(e)
            if self.r.amb and p.counters["ambrosia"] >= self.rule("ambrosia", "reuse_citizen"):
                for skill in placed:
                    fee = self.fee(seat, space, skill)
                    if fee is not None and fee <= p.counters["coins"] and gain is not None:
                        o = f"reuse:{space}/{skill}/0"
                        opts.append(o)
                        est[o] = Estimate({**gain, "ambrosia": -4.0, "coins": gain.get("coins", 0) - fee})
        if ready:
            for c in self.zone("empire", seat):
                if _damaged(c) or not _has_action(self.r, c.card) or _tok(c, "occupied"):
                    continue
                o = f"card:{c.uid}/{ready[0]}"
                e = self.card_estimate(seat, c.card)
                if e is not None:
                    opts.append(o)
                    est[o] = Estimate(e)
        for o, e in self.attack_options(seat):
            opts.append(o)
            est[o] = e
        if self.rule("actions", "build_stored") == "action":
            for c in self.zone("stored", seat):
                if self.can_build(seat, c.card):
                    o = f"stored:{c.uid}"
                    opts.append(o)
                    est[o] = Estimate(self.card_value(seat, c.card))
        if self.r.amb:
            if p.counters["ambrosia"] >= self.rule("ambrosia", "coin"):
                opts.append("amb-coin")
                est["amb-coin"] = Estimate({"ambrosia": -2.0, "coins": 1.0})
            if p.counters["ambrosia"] >= self.rule("ambrosia", "repair"):
                for c in self.zone("empire", seat):
                    if _damaged(c):
                        o = f"amb-repair:{c.uid}"
                        opts.append(o)
                        est[o] = Estimate({"ambrosia": -2.0, "victory-points": 1.0})
                        break
        return opts, est

    def boosts(self, seat: int, space: str, skill: int) -> list[int]:
        """No boost, plus (with ambrosia) the fewest that make the placement free."""
        out = [0]
        if not self.r.amb:
            return out
        have = self.st.players[seat].counters["ambrosia"] // self.rule("ambrosia", "skill")
        base = self.fee(seat, space, skill)
        if base == 0:
            return out
        for k in range(1, have + 1):
            if self.fee(seat, space, skill + k) == 0:
                out.append(k)
                break
        return out

    def fee(self, seat: int, space: str, skill: int) -> int | None:
        """Coins to place a citizen of `skill` on a board space; None: not allowed."""
        ignore = set(self.rule("placement", "ignore_citizens_on")) | set(
            self.city(seat).get("ignore_citizens_on", ()))
        if space in ignore:
            return 0
        others = [s for _, s in self.st.vars["spaces"][space]]
        if not others:
            return 0
        top = max(others)
        if self.rule("placement", "higher_skill") == "pay":
            if top <= skill:
                return 0
            if self.rule("placement", "fee_by_difference"):
                return top - skill
            return self.rule("placement", "fee")
        if skill > top:
            return 0
        if space in self.rule("placement", "match_rule_on"):
            return 0 if skill in others else self.rule("placement", "fee")
        return None

    def pass_(self, seat: int) -> None:
        st = self.st
        st.players[seat].vars["passed"] = True
        self.event("pass", seat)
        if st.vars["first_pass"] < 0:
            st.vars["first_pass"] = seat
            if self.has(seat, "first-pass-store"):
                opts = [NONE, "deck"] + [f"row:{c.uid}" for c in self.zone("empire-row")]
                est = {o: Estimate({"victory-points": 0.5}) for o in opts[1:]}
                pick = self.choose(seat, opts, "store a card for passing first", est)
                if pick == "deck":
                    deck = self.current_deck()
                    self.refill_deck_from_discard(deck)
                    if self.zone(deck):
                        self.zone("stored", seat).append(self.zone(deck).pop(0))
                elif pick != NONE:
                    self.store_from(seat, "empire-row", int(pick[4:]))

    # ------------------------------------------------------------------ placing citizens
    def place(self, seat: int, arg: str, reuse: bool = False) -> None:
        space, skill_s, boost_s = arg.split("/")
        skill, boost = int(skill_s), int(boost_s)
        fee = self.fee(seat, space, skill + boost) or 0
        if boost:
            self.gain(seat, "ambrosia", -boost * self.rule("ambrosia", "skill"))
        self.gain(seat, "coins", -fee)
        cit = next(c for c in self.cits(seat) if c[0] == skill)
        if reuse:
            old = cit[1][6:]
            self.st.vars["spaces"][old] = [x for x in self.st.vars["spaces"][old]
                                           if x != [seat, skill]]
        cit[1] = f"space:{space}"
        self.st.vars["spaces"][space].append([seat, skill])
        self.cover("action", space)
        getattr(self, f"do_{space}")(seat)
        amb = self.st.vars["amb"].get(space, 0)
        if amb:
            self.st.vars["amb"][space] = 0
            self.st.players[seat].counters["ambrosia"] += amb

    def space_estimate(self, seat: int, space: str) -> dict[str, float] | None:
        """What an action is worth to a greedy bot; None: it cannot be performed now."""
        p = self.st.players[seat].counters
        rule = self.rule
        if space == "labor":
            return {"coins": float(rule("actions", "labor_coins"))}
        if space == "draft":
            return {"draft": 1.0 if self.actives(seat) else 0.1}
        if space == "learn":
            if p["coins"] < rule("actions", "learn", "coins"):
                return None
            return {"coins": -3.0, "knowledge": 1.0, "victory-points": 0.3}
        if space == "expand":
            if not self.zone("districts") or (p["knowledge"] < rule("actions", "expand", "knowledge")
                                              and p["coins"] < rule("actions", "expand", "coins")):
                return None
            return {"knowledge": -1.0, "victory-points": 1.5}
        if space == "rebuild":
            dmg = sum(1 for c in self.zone("empire", seat) if _damaged(c))
            return {"coins": 1.0, "victory-points": min(dmg, 2) * 1.5 + 0.3}
        if space == "build":
            best = self.best_buy(seat)
            return best
        if space == "recruit":
            if not self.recruitable(seat):
                return None
            return {"draft": 2.0, "victory-points": 0.5}
        if space == "explore":
            return {"victory-points": 0.8}
        if space == "grow":
            if p["coins"] < rule("actions", "grow", "coins") or self.st.supply["citizens"] <= 0 \
                    or len(self.cits(seat)) >= rule("setup", "citizen_skills"):
                return None
            food_ok = self.food(seat) > len(self.cits(seat))
            left = self.r.rounds - self.st.turn
            return {"coins": -3.0, "victory-points": (1.5 * left if food_ok else -2.0)}
        return None

    def card_value(self, seat: int, cid: str) -> dict[str, float]:
        f = self.r.cards[cid]
        left = max(0, self.r.rounds - self.st.turn)
        vp = (2.2 * len(f.get("banners", ())) + f.get("vp", 0) + 0.4 * f.get("bonus_vp", 0)
              + left * (0.35 * f.get("income", 0) + 0.5 * f.get("knowledge", 0)
                        + 0.2 * f.get("ambrosia", 0))
              + 0.8 * (f.get("swords", 0) + f.get("arrows", 0)) + 1.5 * f.get("food", 0)
              + f.get("army", 0) + 1.5 * f.get("citizen", 0))
        return {"victory-points": vp, "coins": -float(f.get("cost_coins", 0)),
                "knowledge": -float(f.get("cost_knowledge", 0))}

    def can_build(self, seat: int, cid: str, free: bool = False) -> bool:
        p = self.st.players[seat].counters
        f = self.r.cards[cid]
        if any(c.card == cid for c in self.zone("empire", seat)):
            return False
        if len(self.zone("empire", seat)) >= self.capacity(seat):
            return False
        if free:
            return True
        return p["coins"] >= f.get("cost_coins", 0) and p["knowledge"] >= f.get("cost_knowledge", 0)

    def buyable(self, seat: int) -> list[tuple[str, Any]]:
        out = [("empire-row", c) for c in self.zone("empire-row")]
        if self.rule("actions", "build_from_c"):
            out += [("empire-c", c) for c in self.zone("empire-c")]
        if self.rule("actions", "build_stored") == "build":
            out += [("stored", c) for c in self.zone("stored", seat)]
        return out

    def best_buy(self, seat: int) -> dict[str, float] | None:
        best = None
        for _, c in self.buyable(seat):
            if self.can_build(seat, c.card):
                v = self.card_value(seat, c.card)
                if best is None or sum(v.values()) > sum(best.values()):
                    best = v
        return best

    # ------------------------------------------------------------------ board actions
    def do_labor(self, seat: int) -> None:
        self.gain(seat, "coins", self.rule("actions", "labor_coins"))
        if self.has(seat, "scribe-own-labor") and self.st.players[seat].counters["coins"] >= 1:
            pick = self.choose(seat, ["no", "scribe"], "Scribe Guild: pay 1 coin for 1 knowledge",
                               {"scribe": Estimate({"coins": -1.0, "knowledge": 1.0})})
            if pick == "scribe":
                self.gain(seat, "coins", -1)
                self.gain(seat, "knowledge", 1)
                self.event("scribe-guild", seat)

    def do_draft(self, seat: int) -> None:
        self.st.players[seat].vars["draft"] += self.rule("actions", "draft_swords")

    def do_learn(self, seat: int) -> None:
        cost = self.rule("actions", "learn")
        if self.st.players[seat].counters["coins"] < cost["coins"]:
            return
        self.gain(seat, "coins", -cost["coins"])
        self.gain(seat, "knowledge", cost["knowledge"])
        if self.has(seat, "outpost-own-learn"):
            self.lift_coin(seat, "Distant Outpost: lift a coin off a military card")
        for other in range(self.n):
            if other == seat:
                continue
            if (seat == (other - 1) % self.n and self.has(other, "outpost-right-learn")):
                self.lift_coin(other, "Distant Outpost: lift a coin off a military card")
            if (seat == (other + 1) % self.n and self.has(other, "scribe-left-learn")
                    and self.st.players[other].counters["coins"] >= 1):
                pick = self.choose(other, ["no", "scribe"], "Scribe Guild: pay 1 coin for 1 knowledge",
                                   {"scribe": Estimate({"coins": -1.0, "knowledge": 1.0})})
                if pick == "scribe":
                    self.gain(other, "coins", -1)
                    self.gain(other, "knowledge", 1)

    def lift_coin(self, seat: int, why: str) -> None:
        cards = [c for c in self.zone("armies", seat) if _tok(c, "name") + _tok(c, "picture")]
        if not cards:
            return
        opts = [NONE] + [f"{c.uid}/{w}" for c in cards for w in ("name", "picture") if _tok(c, w)]
        est = {o: Estimate({"coins": 0.5 if o.endswith("picture") else 0.8}) for o in opts[1:]}
        pick = self.choose(seat, opts, why, est)
        if pick == NONE:
            return
        uid, where = pick.split("/")
        card = next(c for c in cards if c.uid == int(uid))
        _set_tok(card, where, _tok(card, where) - 1)
        self.st.supply["coins"] += 1
        self.event("coin-lifted", seat)

    def do_expand(self, seat: int) -> None:
        p = self.st.players[seat].counters
        cost = self.rule("actions", "expand")
        pays = []
        if p["knowledge"] >= cost["knowledge"]:
            pays.append("knowledge")
        if p["coins"] >= cost["coins"]:
            pays.append("coins")
        deck = self.zone("districts")
        if not pays or not deck:
            return
        est = {"knowledge": Estimate({"knowledge": -float(cost["knowledge"])}),
               "coins": Estimate({"coins": -float(cost["coins"])})}
        pay = self.choose(seat, pays, "pay for Expand", est)
        self.gain(seat, pay, -cost[pay])
        drawn = deck[:cost["draw"]]
        del deck[:cost["draw"]]
        opts = [f"district:{c.uid}" for c in drawn]
        if len(drawn) > 1:
            opts = [NONE] + opts
        est2 = {f"district:{c.uid}": Estimate({"victory-points": self.r.f(c.card, "capacity")
                                               + len(self.r.f(c.card, "banners") or ())})
                for c in drawn}
        pick = self.choose(seat, opts, "keep a district", est2)
        for c in drawn:
            c.face_up = None
            if pick == f"district:{c.uid}":
                self.zone("lands", seat).append(c)
                self.cover("card", f"districts/{c.card}")
            else:
                deck.append(c)
        self.flip_top("districts")

    def do_rebuild(self, seat: int) -> None:
        for _ in range(self.rule("actions", "rebuild", "repairs")):
            dmg = [c for c in self.zone("empire", seat) if _damaged(c)]
            if not dmg:
                break
            self.repair_uid(seat, dmg[0].uid)
        self.gain(seat, "coins", self.rule("actions", "rebuild", "coins"))
        self.claim_first(seat)

    def claim_first(self, seat: int) -> None:
        if not self.st.vars["hand"]:  # the token changes hands now, play order next round
            self.st.vars["next_first"] = seat
            self.st.vars["hand"] = True
            self.event("first-player-claimed", seat)

    def repair_uid(self, seat: int, uid: int) -> None:
        for c in self.zone("empire", seat):
            if c.uid == uid:
                _flag(c, "damaged", False)

    def recruitable(self, seat: int) -> list[tuple[Any, str]]:
        coins = self.st.players[seat].counters["coins"]
        places = self.army_places(seat)
        if not places:
            return []
        return [(c, pl) for c in self.zone("military-row")
                if self.r.f(c.card, "cost_coins") <= coins for pl in places]

    def army_places(self, seat: int) -> list[str]:
        armies = self.armies(seat)
        out = [f"army:{i}" for i, cards in sorted(armies.items())
               if not any(not _retired(c) for c in cards)]
        if len(armies) < self.army_limit(seat):
            out.append("new")
        if out:
            return out
        used_ok = self.city(seat).get("retire_used", False)
        return [f"retire:{i}" for i, cards in sorted(armies.items())
                for c in cards if not _retired(c) and (used_ok or not _tok(c, "name"))]

    def do_recruit(self, seat: int) -> None:
        pairs = self.recruitable(seat)
        if not pairs:
            return
        opts = [f"{c.uid}@{pl}" for c, pl in pairs]
        f = self.r.f
        est = {o: Estimate({"draft": float(f(c.card, "swords") + f(c.card, "arrows")),
                            "coins": -float(f(c.card, "cost_coins")),
                            "victory-points": 0.5 if pl.startswith("retire") else 0.0})
               for o, (c, pl) in zip(opts, pairs, strict=True)}
        pick = self.choose(seat, opts, "recruit a military card", est)
        c, place = pairs[opts.index(pick)]
        self.gain(seat, "coins", -f(c.card, "cost_coins"))
        self.zone("military-row").remove(c)
        armies = self.armies(seat)
        if place == "new":
            index = next(i for i in range(len(armies) + 1) if i not in armies)
        else:
            index = int(place.split(":")[1])
            if place.startswith("retire"):
                old = next(x for x in armies[index] if not _retired(x))
                self.st.supply["coins"] += _tok(old, "name") + _tok(old, "picture")
                _set_tok(old, "name", 0)
                _set_tok(old, "picture", 0)
                _flag(old, "retired")
                self.event("retire", seat)
        c.tokens = {"army": index, "name": 0, "picture": 0}
        self.zone("armies", seat).append(c)
        self.cover("card", f"military/{c.card}")

    def current_deck(self) -> str:
        return ("empire-b" if self.st.turn >= self.rule("round_track", "empire_b")
                else "empire-a")

    def refill_deck_from_discard(self, deck: str) -> None:
        if not self.zone(deck) and self.zone("empire-discard"):
            self.zone(deck).extend(self.zone("empire-discard"))
            self.zone("empire-discard").clear()
            self.shuffle(self.zone(deck), f"reshuffle {deck}")

    def store_from(self, seat: int, zone: str, uid: int) -> None:
        src = self.zone(zone)
        card = next(c for c in src if c.uid == uid)
        src.remove(card)
        self.zone("stored", seat).append(card)

    def do_explore(self, seat: int) -> None:
        rule = self.rule
        opts = ["draw"] + [f"row:{c.uid}" for c in self.zone("empire-row")]
        if rule("actions", "explore", "from_c"):
            opts += [f"c:{c.uid}" for c in self.zone("empire-c")]
        est = {o: Estimate({"victory-points": 0.6}) for o in opts}
        pick = self.choose(seat, opts, "explore", est)
        if pick.startswith("row:"):
            self.store_from(seat, "empire-row", int(pick[4:]))
            return
        if pick.startswith("c:"):
            self.store_from(seat, "empire-c", int(pick[2:]))
            return
        deck = self.current_deck()
        self.refill_deck_from_discard(deck)
        n = rule("actions", "explore", "draw") + self.symbols(seat, "explore")
        drawn = self.zone(deck)[:n]
        del self.zone(deck)[:n]
        if not drawn:
            return
        opts = [f"keep:{c.uid}" for c in drawn]
        est = {f"keep:{c.uid}": Estimate({"victory-points": self.card_value(seat, c.card)[
            "victory-points"] / 4}) for c in drawn}
        pick = self.choose(seat, opts, "store one explored card", est)
        for c in drawn:
            (self.zone("stored", seat) if pick == f"keep:{c.uid}"
             else self.zone("empire-discard")).append(c)

    def do_grow(self, seat: int) -> None:
        cost = self.rule("actions", "grow", "coins")
        if self.st.players[seat].counters["coins"] < cost:
            return
        if self.new_citizen(seat):
            self.gain(seat, "coins", -cost)

    def new_citizen(self, seat: int) -> bool:
        """The lowest unused number of the player's colour, into the starving/new area."""
        have = {c[0] for c in self.cits(seat)}
        free = [s for s in range(1, self.rule("setup", "citizen_skills") + 1) if s not in have]
        if not free or self.st.supply["citizens"] <= 0:
            return False
        self.cits(seat).append([free[0], "new"])
        self.st.supply["citizens"] -= 1
        self.event("citizen-gained", seat)
        if self.has(seat, "aqueduct"):
            self.gain(seat, "coins", self.food(seat))
        return True

    def do_build(self, seat: int) -> None:
        options = [(z, c) for z, c in self.buyable(seat) if self.can_build(seat, c.card)]
        crane = [c for c in self.zone("empire", seat)
                 if self.r.f(c.card, "ability") == "crane" and not _damaged(c)]
        opts = [NONE] + [f"{z}/{c.uid}" for z, c in options]
        est = {f"{z}/{c.uid}": Estimate(self.card_value(seat, c.card)) for z, c in options}
        if crane:
            for z, c in self.buyable(seat):
                if c.card != crane[0].card and self.can_build(seat, c.card, free=True):
                    o = f"crane:{z}/{c.uid}"
                    opts.append(o)
                    v = dict(self.card_value(seat, c.card))
                    v["coins"] = 0.0
                    v["knowledge"] = 0.0
                    v["victory-points"] -= 2.5
                    est[o] = Estimate(v)
        if len(opts) == 1:
            return
        pick = self.choose(seat, opts, "build an empire card", est)
        if pick == NONE:
            return
        free = pick.startswith("crane:")
        if free:
            pick = pick[6:]
            cr = crane[0]
            self.zone("empire", seat).remove(cr)
            self.zone("empire-discard").append(cr)
            self.event("crane", seat)
        zone, uid = pick.split("/")
        self.build_card(seat, int(uid), zone, free)

    def build_card(self, seat: int, uid: int, zone: str, free: bool = False) -> None:
        src = self.zone(zone, seat if zone == "stored" else -1)
        card = next(c for c in src if c.uid == uid)
        if not self.can_build(seat, card.card, free):
            return
        f = self.r.cards[card.card]
        if not free:
            self.gain(seat, "coins", -f.get("cost_coins", 0))
            self.gain(seat, "knowledge", -f.get("cost_knowledge", 0))
        src.remove(card)
        card.face_up = None
        self.zone("empire", seat).append(card)
        self.cover("card", f"{self.r.deck_of[card.card]}/{card.card}")
        self.event("build", seat)
        if f.get("citizen"):
            self.new_citizen(seat)
        ability = f.get("ability")
        if ability == "scholars":
            self.gain(seat, "knowledge", 1)
        if ability in ("scholars", "upgrade-citizen"):
            self.upgrade_citizen(seat)

    def upgrade_citizen(self, seat: int) -> None:
        have = {c[0] for c in self.cits(seat)}
        free = [s for s in range(1, self.rule("setup", "citizen_skills") + 1) if s not in have]
        if not free:
            return
        opts = [NONE] + [f"swap:{c[0]}" for c in self.cits(seat) if c[0] < free[0]]
        est = {o: Estimate({"victory-points": 0.3 * (free[0] - int(o[5:]))}) for o in opts[1:]}
        pick = self.choose(seat, opts, "trade a citizen for a higher one", est)
        if pick == NONE:
            return
        old = int(pick[5:])
        cit = next(c for c in self.cits(seat) if c[0] == old)
        cit[0] = free[0]
        if cit[1].startswith("space:"):
            space = self.st.vars["spaces"][cit[1][6:]]
            for x in space:
                if x == [seat, old]:
                    x[1] = free[0]
        self.event("citizen-upgraded", seat)

    # ------------------------------------------------------------------ card actions
    def card_estimate(self, seat: int, cid: str) -> dict[str, float] | None:
        f = self.r.cards[cid]
        e = {"coins": float(f.get("act_coins", 0)), "knowledge": float(f.get("act_knowledge", 0))}
        ab = f.get("ability")
        if ab == "action-coin-per-food":
            e["coins"] += self.food(seat)
        if f.get("act_repair"):
            e["victory-points"] = 1.0 if any(_damaged(c) for c in self.zone("empire", seat)) else 0.0
        if ab == "action-clear-military":
            coins = max((_tok(c, "picture") + _tok(c, "name") for c in self.actives(seat)), default=0)
            e["coins"] += coins
        if ab == "action-explore":
            e["victory-points"] = 0.6
        if ab == "borrow-action":
            if not self.borrowable(seat):
                return None
            e["coins"] += 1.0
        if ab == "action-titan-scout":
            e["victory-points"] = 0.5
        return e

    def borrowable(self, seat: int) -> list:
        return [c for o in range(self.n) if o != seat for c in self.zone("empire", o)
                if not _damaged(c) and _has_action(self.r, c.card)
                and self.r.f(c.card, "ability") not in ("borrow-action",)]

    def card_action(self, seat: int, arg: str) -> None:
        uid_s, skill_s = arg.split("/")
        card = next(c for c in self.zone("empire", seat) if c.uid == int(uid_s))
        cit = next(c for c in self.cits(seat) if c[0] == int(skill_s))
        cit[1] = f"card:{card.uid}"
        _set_tok(card, "occupied", 1)
        self.cover("card-action", card.card)
        self.card_effect(seat, card.card)

    def card_effect(self, seat: int, cid: str) -> None:
        f = self.r.cards[cid]
        if f.get("act_coins"):
            self.gain(seat, "coins", f["act_coins"])
        if f.get("act_knowledge"):
            self.gain(seat, "knowledge", f["act_knowledge"])
        for _ in range(f.get("act_repair", 0)):
            dmg = [c for c in self.zone("empire", seat) if _damaged(c)]
            if dmg:
                self.repair_uid(seat, dmg[0].uid)
        ab = f.get("ability")
        if ab == "action-coin-per-food":
            self.gain(seat, "coins", self.food(seat))
        elif ab == "action-explore":
            self.do_explore(seat)
        elif ab == "action-first-player":
            self.claim_first(seat)
        elif ab == "action-clear-military":
            cards = [c for c in self.zone("armies", seat) if _tok(c, "name") + _tok(c, "picture")]
            if cards:
                opts = [f"clear:{c.uid}" for c in cards]
                est = {f"clear:{c.uid}": Estimate({"coins": float(_tok(c, "name") + _tok(c, "picture"))})
                       for c in cards}
                pick = self.choose(seat, opts, "Holy Site: clear a military card", est)
                c = cards[opts.index(pick)]
                self.st.supply["coins"] += _tok(c, "name") + _tok(c, "picture")
                _set_tok(c, "name", 0)
                _set_tok(c, "picture", 0)
        elif ab == "borrow-action":
            cards = self.borrowable(seat)
            if cards:
                opts = [f"borrow:{c.uid}" for c in cards]
                est = {f"borrow:{c.uid}": Estimate(self.card_estimate(seat, c.card) or {})
                       for c in cards}
                pick = self.choose(seat, opts, "use another player's card action", est)
                self.event("borrow-action", seat)
                self.card_effect(seat, cards[opts.index(pick)].card)
        elif ab == "action-titan-scout":
            piles = [f"titans-{s}" for s in (1, 2, 3) if self.zone(f"titans-{s}")]
            if not piles:
                return
            pile = self.choose(seat, piles, "Forest Hideout: look at a titan pile")
            top = self.zone(pile)[:4]
            opts = [f"top:{c.uid}" for c in top]
            est = {f"top:{c.uid}": Estimate({"victory-points": -self.r.f(c.card, "defence") / 4})
                   for c in top}
            pick = self.choose(seat, opts, "Forest Hideout: the titan to put on top", est)
            chosen = top[opts.index(pick)]
            cards = self.zone(pile)
            for c in top:
                c.face_up = None
            cards.remove(chosen)
            cards.insert(0, chosen)
            self.flip_top(pile)
            self.event("titan-scout", seat)
            attacks = [(o, e) for o, e in self.attack_options(seat) if o.split(":")[1] == pile]
            if attacks:
                opts2 = [NONE] + [o for o, _ in attacks]
                pick2 = self.choose(seat, opts2, "Forest Hideout: attack the top titan",
                                    dict(attacks))
                if pick2 != NONE:
                    self.attack(seat, pick2.split(":", 1)[1])

    # ------------------------------------------------------------------ attacking titans
    def targets(self, seat: int) -> list[tuple[str, Any]]:
        out = [(f"titans-{s}", self.zone(f"titans-{s}")[0]) for s in (1, 2, 3)
               if self.zone(f"titans-{s}")]
        if self.rule("attack", "threats_attackable"):
            out += [(f"threat-{o}", self.zone("threat", o)[0]) for o in range(self.n)
                    if self.zone("threat", o)]
        return out

    def attack_value(self, seat: int, used: list, titan: str, amb_swords: int = 0) -> int:
        f = self.r.f
        both = f(titan, "target") == "swords-and-arrows"
        swords = self.symbols(seat, "swords") + self.st.players[seat].vars["draft"] + amb_swords
        arrows = self.symbols(seat, "arrows")
        armies = self.armies(seat)
        for c in used:
            swords += f(c.card, "swords")
            arrows += f(c.card, "arrows")
            for old in armies.get(_tok(c, "army"), ()):
                if _retired(old):
                    swords += f(old.card, "legacy_swords")
                    arrows += f(old.card, "legacy_arrows")
        return swords + (arrows if both else 0)

    def attack_options(self, seat: int) -> list[tuple[str, Estimate]]:
        ready = [c for c in self.actives(seat) if not _tok(c, "name")]
        if not ready:
            return []
        p = self.st.players[seat].counters
        sword_cost = self.rule("ambrosia", "sword") if self.r.amb else 0
        out = []
        for target, titan in self.targets(seat):
            defence = self.r.f(titan.card, "defence")
            found = []
            for k in range(1, len(ready) + 1):
                for used in combinations(ready, k):
                    cost = sum(_tok(c, "picture") + 1 for c in used)
                    if cost > p["coins"]:
                        continue
                    short = defence - self.attack_value(seat, list(used), titan.card)
                    amb = max(0, short)
                    if amb and (not sword_cost or amb * sword_cost > p["ambrosia"]):
                        continue
                    found.append((cost + amb, cost, amb, used))
            found.sort(key=lambda x: (x[0], [c.uid for c in x[3]]))
            banners = len(self.r.f(titan.card, "banners") or ())
            for _, cost, amb, used in found[:MAX_PAYMENTS]:
                o = f"attack:{target}:{'+'.join(str(c.uid) for c in used)}:{amb}"
                e = Estimate({"coins": -float(cost), "ambrosia": -float(amb * sword_cost),
                              "victory-points": 2.5 * banners + self.r.f(titan.card, "capacity")
                              + (2.0 if target == f"threat-{seat}" else 0.0) - 0.8 * banners})
                out.append((o, e))
        return out

    def attack(self, seat: int, arg: str) -> None:
        """Pay the chosen military cards, take the titan, roll one damage die per banner."""
        target, uids, amb_s = arg.split(":")
        amb = int(amb_s)
        used = [c for c in self.zone("armies", seat) if str(c.uid) in uids.split("+")]
        for c in used:
            cost = _tok(c, "picture") + 1
            self.st.players[seat].counters["coins"] -= cost
            _set_tok(c, "name", cost)
        if amb:
            self.gain(seat, "ambrosia", -amb * self.rule("ambrosia", "sword"))
        if target.startswith("threat-"):
            owner = int(target[7:])
            titan = self.zone("threat", owner).pop(0)
            self.event("threat-defeated" if owner == seat else "threat-stolen", seat)
        else:
            titan = self.zone(target).pop(0)
            self.flip_top(target)
        titan.face_up = None
        self.zone("lands", seat).append(titan)
        self.cover("card", f"{self.r.deck_of[titan.card]}/{titan.card}")
        self.event("titan-defeated", seat)
        f = self.r.f
        armies = self.armies(seat)
        loot = spy = repair = 0
        for c in used:
            loot += f(c.card, "loot")
            spy += f(c.card, "spy")
            repair += f(c.card, "repair")
            for old in armies.get(_tok(c, "army"), ()):
                if _retired(old):
                    loot += f(old.card, "legacy_loot")
                    spy += f(old.card, "legacy_spy")
        if spy:
            self.gain(seat, "knowledge", spy)
        for _ in range(repair):
            dmg = [c for c in self.zone("empire", seat) if _damaged(c)]
            if dmg:
                self.repair_uid(seat, dmg[0].uid)
        self.damage_roll(seat, titan.card, at_end=False)
        if loot:
            self.gain(seat, "coins", loot)

    def damage_roll(self, seat: int, titan: str, at_end: bool) -> None:
        assert self.ctx is not None
        n = len(self.r.f(titan, "banners") or ())
        faces = [self.ctx.roll_face(self.r.faces, "damage die", seat) for _ in range(n)]
        rerolls = sum(1 for c in self.zone("empire", seat)
                      if not _damaged(c) and self.r.f(c.card, "ability") == "reroll-damage")
        for _ in range(rerolls):
            bad = sorted({i for i, x in enumerate(faces) if x != "blank"})
            if not bad:
                break
            opts = [NONE] + [f"reroll:{i}" for i in bad]
            est = {o: Estimate({"victory-points": 0.5}) for o in opts[1:]}
            pick = self.choose(seat, opts, "reroll a damage die", est)
            if pick == NONE:
                break
            i = int(pick[7:])
            faces[i] = self.ctx.roll_face(self.r.faces, "damage die reroll", seat)
            self.event("damage-reroll", seat)
        for face in faces:
            self.event(f"damage-{face}", seat)
            if face == "titan":
                self.damage_empire(seat)
            elif face == "coin":
                if self.rule("attack", "coin_face") == "lose-coin":
                    self.gain(seat, "coins", -1)
                else:
                    self.titan_effect(seat, titan, at_end)

    def damage_empire(self, seat: int) -> None:
        cards = [c for c in self.zone("empire", seat) if not _damaged(c)]
        if not cards:
            return
        opts = [f"damage:{c.uid}" for c in cards]
        est = {f"damage:{c.uid}": Estimate({"victory-points": -self.card_value(seat, c.card)[
            "victory-points"] / 3}) for c in cards}
        pick = self.choose(seat, opts, "damage an empire card", est)
        _flag(cards[opts.index(pick)], "damaged")
        self.check_armies(seat)

    def check_armies(self, seat: int) -> None:
        """Armies beyond the limit are discarded whole, retired cards included."""
        while len(self.armies(seat)) > self.army_limit(seat):
            armies = self.armies(seat)
            opts = [f"disband:{i}" for i in sorted(armies)]
            pick = self.choose(seat, opts, "discard an army over the limit")
            for c in armies[int(pick[8:])]:
                self.discard_military(seat, c)
            self.event("army-disbanded", seat)

    def discard_military(self, seat: int, c: Any) -> None:
        self.st.supply["coins"] += _tok(c, "name") + _tok(c, "picture")
        c.tokens = None
        c.flags = None
        self.zone("armies", seat).remove(c)
        self.zone("military-discard").append(c)

    def titan_effect(self, seat: int, titan: str, at_end: bool) -> None:
        f = self.r.f
        effect = f(titan, "damage")
        amount = f(titan, "damage_amount") or 1
        self.event(f"titan-effect-{effect}", seat)
        if effect == "lose-coin":
            self.gain(seat, "coins", -amount)
        elif effect == "lose-ambrosia":
            self.gain(seat, "ambrosia", -amount)
        elif effect == "starve-citizen":
            ready = [c for c in self.cits(seat) if c[1] == "ready"]
            if ready and not at_end:
                opts = [f"starve:{c[0]}" for c in ready]
                pick = self.choose(seat, opts, "a ready citizen starves")
                next(c for c in ready if c[0] == int(pick[7:]))[1] = "starving"
        elif effect == "coin-on-army":
            act = self.actives(seat)
            if act:
                opts = [f"coin:{c.uid}" for c in act]
                pick = self.choose(seat, opts, "put a coin on an army")
                c = act[opts.index(pick)]
                _set_tok(c, "picture", _tok(c, "picture") + 1)
                self.st.supply["coins"] -= 1
        elif effect == "discard-military":
            act = self.actives(seat)
            if act:
                opts = [f"discard:{c.uid}" for c in act]
                pick = self.choose(seat, opts, "discard a military card")
                self.discard_military(seat, act[opts.index(pick)])
        elif effect == "discard-stored":
            self.zone("empire-discard").extend(self.zone("stored", seat))
            self.zone("stored", seat).clear()
        elif effect == "discard-district":
            ds = [c for c in self.zone("lands", seat) if self.r.deck_of[c.card] == "districts"]
            if ds:
                opts = [f"district:{c.uid}" for c in ds]
                pick = self.choose(seat, opts, "discard a district")
                c = ds[opts.index(pick)]
                self.zone("lands", seat).remove(c)
                self.zone("box").append(c)
                self.check_armies(seat)

    # ------------------------------------------------------------------ end of round
    def end_of_round(self, last: bool) -> None:
        st, rule = self.st, self.rule
        if self.r.threats:
            for seat in self.order():
                if not self.zone("threat", seat):
                    continue
                titan = self.zone("threat", seat)[0].card
                cost = len(self.r.f(titan, "banners") or ()) * rule("ambrosia",
                                                                     "feed_titan_per_banner")
                opts = ["roll"]
                est = {"roll": Estimate({"victory-points": -0.7 * cost})}
                if self.r.amb and st.players[seat].counters["ambrosia"] >= cost:
                    opts.append("feed")
                    est["feed"] = Estimate({"ambrosia": -float(cost)})
                pick = self.choose(seat, opts, "confront the threatening titan", est)
                if pick == "feed":
                    self.gain(seat, "ambrosia", -cost)
                    self.event("titan-fed", seat)
                else:
                    self.event("titan-confronted", seat)
                    self.damage_roll(seat, titan, at_end=True)
        for seat in range(self.n):
            if not last:
                self.gain(seat, "coins", self.r.capital["income"] + self.symbols(seat, "income"))
                self.gain(seat, "knowledge", self.symbols(seat, "knowledge"))
                if self.r.amb:
                    self.gain(seat, "ambrosia", self.symbols(seat, "ambrosia"))
            for c in self.zone("armies", seat):
                if _tok(c, "name"):
                    _set_tok(c, "picture", _tok(c, "picture") + _tok(c, "name"))
                    _set_tok(c, "name", 0)
        if self.r.amb and not last:
            most = rule("ambrosia", "refill_max_citizens")[self.n - 2]
            for space in self.open_spaces(st.turn + 1):
                if len(st.vars["spaces"][space]) <= most and space in st.vars["amb"]:
                    self.put_ambrosia(space, 1)
        for space in st.vars["spaces"]:
            st.vars["spaces"][space] = []
        for seat, p in enumerate(st.players):
            p.vars["draft"] = 0
            for c in p.vars["cit"]:
                c[1] = "ready"
            for c in self.zone("empire", seat):
                if c.tokens and "occupied" in c.tokens:
                    del c.tokens["occupied"]
                    if not c.tokens:
                        c.tokens = None
        if st.vars["hand"]:
            st.vars["first"] = st.vars.pop("next_first")
        st.vars["hand"] = False
        for seat in self.order():
            self.starvation(seat)

    def starvation(self, seat: int) -> None:
        cits = self.cits(seat)
        short = len(cits) - self.food(seat)
        if short <= 0:
            return
        per = self.rule("ambrosia", "feed_citizen")
        if self.r.amb:
            can = min(short, self.st.players[seat].counters["ambrosia"] // per)
            if can:
                opts = [f"feed:{k}" for k in range(can + 1)]
                est = {f"feed:{k}": Estimate({"ambrosia": -float(per * k),
                                              "victory-points": 3.0 * k}) for k in range(can + 1)}
                k = int(self.choose(seat, opts, "feed citizens with ambrosia", est)[5:])
                self.gain(seat, "ambrosia", -per * k)
                short -= k
        for _ in range(short):
            ready = [c for c in cits if c[1] == "ready"]
            opts = [f"starve:{c[0]}" for c in ready]
            pick = self.choose(seat, opts, "a citizen goes hungry")
            next(c for c in ready if c[0] == int(pick[7:]))[1] = "starving"
            self.event("starving", seat)

    # ------------------------------------------------------------------ scoring
    def banners(self, seat: int) -> dict[str, int]:
        out = dict.fromkeys(COLOURS, 0)
        for c in self.zone("empire", seat) + self.zone("lands", seat):
            for b in self.r.f(c.card, "banners") or ():
                out[b] += 1
        return out

    def score_of(self, seat: int) -> int:
        """Starving and damage penalties, banner sets capped, then card bonuses."""
        rule, f = self.rule, self.r.f
        p = self.st.players[seat]
        starving = sum(1 for c in self.cits(seat) if c[1] == "starving")
        damaged = sum(1 for c in self.zone("empire", seat) if _damaged(c))
        vp = -rule("scoring", "starving") * starving - rule("scoring", "damaged") * damaged
        banners = self.banners(seat)
        cap = rule("scoring", "banner_cap")
        table = self.r.banner_vp
        vp += sum(table[min(n, cap)] for n in banners.values())
        titans3 = sum(1 for c in self.zone("lands", seat)
                      if self.r.deck_of[c.card].startswith(("titans", "starting-titans"))
                      and len(f(c.card, "banners") or ()) >= 3)
        for c in self.zone("empire", seat):  # every card counts: damage was repaired above
            cid = c.card
            vp += f(cid, "vp")
            ab = f(cid, "ability")
            bonus = f(cid, "bonus_vp")
            needs = str(f(cid, "needs") or "")
            if bonus and needs and ab not in ("five-citizens", "three-citizens", "two-big-titans"):
                if all(banners[col] >= int(k) for col, k in _needs(needs)):
                    vp += bonus
            if ab == "vp-per-3-coins":
                vp += 2 * (p.counters["coins"] // 3)
            elif ab == "vp-per-3-ambrosia":
                vp += 2 * (p.counters["ambrosia"] // 3)
            elif ab == "vp-per-knowledge":
                vp += 2 * p.counters["knowledge"]
            elif ab == "five-citizens" and len(self.cits(seat)) - starving >= 5:
                vp += bonus
            elif ab == "three-citizens" and len(self.cits(seat)) == 3:
                vp += bonus
            elif ab == "two-big-titans" and titans3 >= 2:
                vp += bonus
            elif ab == "vp-per-set":
                vp += f(cid, "set_vp") * min(banners.values())
        return vp

    def score(self) -> None:
        st = self.st
        for seat, p in enumerate(st.players):
            p.counters["victory-points"] = self.score_of(seat)
            for c in self.zone("empire", seat):
                _flag(c, "damaged", False)
        st.stage, st.ended = OVER, COMPLETED
        st.winners = self.winners()
        if self.r.city_states and self.ctx is not None:
            for w in st.winners:
                self.event(f"win:{st.players[w].vars['city']}", w)

    def winners(self) -> list[int]:
        def key(seat: int) -> tuple:
            p = self.st.players[seat]
            parts = [p.counters["victory-points"]]
            for tb in self.rule("scoring", "tie_breaks"):
                if tb == "cards":
                    parts.append(len(self.zone("empire", seat)) + len(self.zone("lands", seat)))
                else:
                    parts.append(p.counters[tb])
            return tuple(parts)
        best = max(key(s) for s in range(self.n))
        return [s for s in range(self.n) if key(s) == best]


def _needs(text: str) -> list[tuple[str, str]]:
    """'blue 4, red 5' -> [('blue', '4'), ('red', '5')]."""
    out = []
    for part in text.split(","):
        words = part.split()
        if len(words) == 2:
            out.append((words[0], words[1]))
    return out


_ZERO = Estimate()
