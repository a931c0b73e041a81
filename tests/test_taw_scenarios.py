"""The Ancient World: every rule of both editions has a scenario that passes, and each scenario
fails once the rule it shows is broken (in a copy of the game's data, or, for rules that live in
code, by patching the engine)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.data.game import load_game
from pnp.engine.scenario import run_scenario
from pnp.games import the_ancient_world as taw
from pnp.paths import CARDS
from tests.scenario_breaks import copy_with, run_on_copy

FOLDER = CARDS / "the-ancient-world" / "scenarios"
FILES = sorted(FOLDER.glob("*.yaml"))
GAME = CARDS / "the-ancient-world"

#: every rule of the issue, with the scenario that shows it
RULES = {
    "setup: rows by player count, turn-order coins, citizens, starting cards and titans": "setup",
    "first-edition setup: no starting titans or ambrosia": "setup-first-edition",
    "round track: round 2 refreshes the rows and draws one-star threats": "round-two-refresh",
    "first edition keeps the military row, no threatening titans": "round-two-first-edition",
    "round track: Empire B from round 4": "round-four-empire-b-depleted-titans",
    "depleted titan deck: the next highest": "round-four-empire-b-depleted-titans",
    "placement, second edition: 1 coin below a higher citizen": "placement-second-edition",
    "placement, first edition: Build/Recruit match rule, Rebuild ignores": "placement-first-edition",
    "Costly Placement": "placement-costly",
    "Labor": "placement-second-edition",
    "Learn and Expand": "learn-expand",
    "Expand, first edition and Expand+": "expand-first-edition",
    "Rebuild and the first-player token": "rebuild",
    "Recruit, army limit and retiring": "recruit-army-limit",
    "Build and a card action": "build-and-card-action",
    "Explore (round 2) and Build Stored": "explore-build-stored",
    "Build Stored, first edition: through Build": "build-stored-first-edition",
    "Grow (round 3) and starvation": "grow-starvation",
    "Draft": "draft",
    "attack: the rulebook's worked example, legacy, coin face": "attack-example",
    "ambrosia: skill, coin, repair, reuse": "ambrosia",
    "end of round: titans, income, sliding coins, ambrosia refill": "end-of-round",
    "capacity: the district-loss example": "capacity-district-loss",
    "game-end scoring, second edition": "game-end-scoring",
    "game-end scoring, first edition": "game-end-scoring-first-edition",
    "tie-breaks": "tie-breaks",
    "Demanding Titans": "demanding-titans",
    "Threatening Titan Draft": "titan-draft",
    "city-state abilities": "city-states",
    "damage die reading; damaged cards give no food": "damage-harsh",
    "starting cards take no capacity (reading)": "starting-cards-free",
    "titan damage effects; starving at the end of a round does nothing": "titan-damage-effects",
    "ambrosia buys swords in an attack": "ambrosia-swords",
    "passing; Zori Dramatists for the first to pass": "passing-zori",
    "Crane (first edition): Build with no coins, the card free": "crane-first-edition",
    "Distant Outpost fires on the placement, paid or not": "distant-outpost",
    "second edition: a citizen placed without performing the action": "placement-without-action",
    "Explore: a deck depleted while drawing is refreshed from the discards": "explore-deck-depleted",
    "Rebuild: up to 2 cards of the player's choice": "rebuild",
    "Forest Hideout (first edition): all four titans rearranged": "forest-hideout-first-edition",
    "ambrosia refill: none on a covered action (interpretation)": "ambrosia-refill-covered",
    "ambrosia at any time: after the action, before starvation and scoring": "ambrosia-any-time",
    "attack: any set of unused military cards may be paid": "attack-every-payment",
    "starting titan of the board's colour": "starting-titan-colour",
    "first-edition match rule: a higher citizen pays too (interpretation)": "first-edition-match-higher",
    "a card action once a round (a citizen on the card, set by a scenario)": "card-action-once-a-round",
    "first edition: any ready citizen on a card's action (interpretation)":
        "card-action-any-citizen-first-edition",
    "Costly Placement: a boost part of the way pays off part of the fee": "ambrosia-partial-boost-costly",
    "a citizen placed again may be raised with ambrosia": "ambrosia-reuse-boost",
}

#: scenario -> edits of the game's data that break its rule: (file, old text, new text)
DATA_BREAKS: dict[str, list[tuple[str, str, str]]] = {
    "setup": [("game.yaml", "extra_coins_by_seat: [0, 1, 2, 2]", "extra_coins_by_seat: [0, 1, 2, 3]")],
    "setup-first-edition": [("game.yaml", "empire_by_players: [4, 5, 6]", "empire_by_players: [5, 5, 6]")],
    "round-two-refresh": [("game.yaml", "military_refresh: discard", "military_refresh: keep")],
    "round-two-first-edition": [("game.yaml", 'rows/military_refresh: "keep"',
                                 'rows/military_refresh: "discard"')],
    "round-four-empire-b-depleted-titans": [("game.yaml", "empire_b: 4}", "empire_b: 5}")],
    "placement-second-edition": [("game.yaml", "    fee: 1\n", "    fee: 2\n")],
    "placement-costly": [("game.yaml", "fee_by_difference: true", "fee_by_difference: false")],
    "placement-first-edition": [("game.yaml", "match_rule_on: [build, recruit]", "match_rule_on: [recruit]")],
    "learn-expand": [("game.yaml", "learn: {coins: 3, knowledge: 1}", "learn: {coins: 2, knowledge: 1}")],
    "expand-first-edition": [("game.yaml", "expand/draw: 1", "expand/draw: 3")],
    "expand-plus-first-edition": [("game.yaml", "expand/draw: 3", "expand/draw: 1")],
    "rebuild": [("game.yaml", "rebuild: {repairs: 2, coins: 1}", "rebuild: {repairs: 1, coins: 1}")],
    "recruit-army-limit": [("game.yaml", "income: 5, army: 2,", "income: 5, army: 3,")],
    "build-and-card-action": [("decks.yaml", "Aqueduct, fields: {cost_coins: 4, banners: [blue], food: 1",
                               "Aqueduct, fields: {cost_coins: 4, banners: [blue], food: 0")],
    "explore-build-stored": [("game.yaml", "build_stored: action", "build_stored: build")],
    "build-stored-first-edition": [("game.yaml", 'build_stored: "build"', 'build_stored: "action"')],
    "grow-starvation": [("game.yaml", "grow: {coins: 3}", "grow: {coins: 2}")],
    "draft": [("game.yaml", "draft_swords: 1", "draft_swords: 0")],
    "attack-example": [("decks.yaml", "City Guard, count: 4, fields: {swords: 2, legacy_swords: 1}",
                        "City Guard, count: 4, fields: {swords: 2, legacy_swords: 0}")],
    "ambrosia": [("game.yaml", "reuse_citizen: 4", "reuse_citizen: 3")],
    "end-of-round": [("game.yaml", "refill_max_citizens: [0, 1, 2]", "refill_max_citizens: [0, 2, 2]")],
    "capacity-district-loss": [("game.yaml", "army: 2, capacity: 4}", "army: 2, capacity: 8}")],
    "game-end-scoring": [("game.yaml", "banners: [0, 2, 4, 7, 11, 16, 22]",
                          "banners: [0, 2, 4, 7, 11, 16, 21]")],
    "game-end-scoring-first-edition": [("game.yaml", "scoring/starving: 2", "scoring/starving: 3")],
    "tie-breaks": [("game.yaml", "tie_breaks: [coins, cards, knowledge]",
                    "tie_breaks: [coins, knowledge, cards]")],
    "demanding-titans": [("game.yaml", "ambrosia/feed_titan_per_banner: 2",
                          "ambrosia/feed_titan_per_banner: 1")],
    "titan-draft": [("game.yaml", "titans/draft: true", "titans/draft: false")],
    "city-states": [("game.yaml", "Merchants of Merlume, coins: 2", "Merchants of Merlume, coins: 3")],
    "damage-harsh": [("game.yaml", "faces: [titan, titan, titan, coin, coin, blank]",
                      "faces: [titan, titan, coin, coin, coin, blank]")],
    "starting-cards-free": [("game.yaml", "game/rules/capital/capacity: 6",
                             "game/rules/capital/capacity: 4")],
    "titan-damage-effects": [("decks.yaml", "banners: [blue], capacity: 1, damage: coin-on-army",
                              "banners: [blue], capacity: 1, damage: lose-coin")],
    "ambrosia-swords": [("game.yaml", "    sword: 2\n", "    sword: 3\n")],
    "passing-zori": [("decks.yaml", "ability: first-pass-store", "ability: none")],
    "placement-without-action": [("game.yaml", "without_action: true", "without_action: false")],
}


def _only_the_rounds_deck(self, stars: int) -> str | None:
    return f"titans-{stars}" if self.zone(f"titans-{stars}") else None


def _repairs_nothing(self, seat: int, uid: int) -> None:
    return None


def _capacity_unlimited(self, seat: int) -> int:
    return 99


def _starve_even_at_the_end(self, seat: int, titan: str, at_end: bool) -> None:
    return _TITAN_EFFECT(self, seat, titan, False)


_TITAN_EFFECT = taw.TAW.titan_effect


def _build_only_what_is_paid(self, seat: int):
    """Build offered only when some card can be paid in coins and knowledge (the Crane's
    free card forgotten)."""
    best = None
    for _, c in self.buyable(seat):
        if self.can_build(seat, c.card):
            v = self.card_value(seat, c.card)
            if best is None or sum(v.values()) > sum(best.values()):
                best = v
    return best


def _outpost_only_when_learn_is_paid(self, seat: int) -> None:
    if self.st.players[seat].counters["coins"] < self.rule("actions", "learn", "coins"):
        return
    _DO_LEARN(self, seat)


_DO_LEARN = taw.TAW.do_learn


def _explore_refreshes_only_an_empty_deck(self, seat: int) -> None:
    deck = self.current_deck()
    n = self.rule("actions", "explore", "draw") + self.symbols(seat, "explore")
    if 0 < len(self.zone(deck)) < n:  # hide the discards so the refresh finds none
        hidden = list(self.zone("empire-discard"))
        self.zone("empire-discard").clear()
        try:
            _DO_EXPLORE(self, seat)
        finally:
            self.zone("empire-discard")[:0] = hidden
        return
    _DO_EXPLORE(self, seat)


_DO_EXPLORE = taw.TAW.do_explore
_ATTACK_OPTIONS = taw.TAW.attack_options


def _higher_citizen_free(self, seat: int, space: str, skill: int):
    others = [s for _, s in self.st.vars["spaces"][space]]
    if others and skill > max(others):
        return 0
    return _FEE(self, seat, space, skill)


_FEE = taw.TAW.fee


def _occupied_cards_offered(self, seat: int):
    """Turn options as if no citizen stood on any empire card."""
    held = {}
    for c in self.zone("empire", seat):
        if c.tokens and "occupied" in c.tokens:
            held[c.uid] = c.tokens.pop("occupied")
    try:
        return _TURN_OPTIONS(self, seat)
    finally:
        for c in self.zone("empire", seat):
            if c.uid in held:
                c.tokens["occupied"] = held[c.uid]


_TURN_OPTIONS = taw.TAW.turn_options


def _only_the_lowest_citizen_on_cards(self, seat: int):
    """Turn options with a card's action offered to the lowest ready citizen only."""
    opts, est = _TURN_OPTIONS(self, seat)
    low = min((c[0] for c in self.cits(seat) if c[1] == "ready"), default=0)
    return [o for o in opts if not o.startswith("card:") or o.endswith(f"/{low}")], est


def _refill_next_rounds_actions(self) -> None:
    most = self.rule("ambrosia", "refill_max_citizens")[self.n - 2]
    for space in self.open_spaces(self.st.turn + 1):
        if len(self.st.vars["spaces"][space]) <= most and space in self.st.vars["amb"]:
            self.put_ambrosia(space, 1)


def _hideout_picks_only_the_top(self, seat: int, pile: str, n: int) -> None:
    top = self.zone(pile)[:n]
    pick = self.choose(seat, [f"top:{c.uid}" for c in top], "Forest Hideout: the top titan")
    chosen = next(c for c in top if f"top:{c.uid}" == pick)
    self.mover.move(chosen, pile, pile, "Forest Hideout: a titan on top", seat, top=True)


def _repair_the_first_damaged(self, seat: int, n: int, why: str) -> None:
    for _ in range(n):
        dmg = [c for c in self.zone("empire", seat) if c.flags and "damaged" in c.flags]
        if dmg:
            self.repair_uid(seat, dmg[0].uid)


def _expand_plus_may_keep_none(self, seat: int) -> None:
    """Expand as the second edition does it: keeping none of the districts is offered."""
    second = self.r.second
    self.r.second = True
    try:
        _DO_EXPAND(self, seat)
    finally:
        self.r.second = second


_DO_EXPAND = taw.TAW.do_expand


def _only_the_boost_that_frees(self, seat: int, space: str, skill: int, spare=None):
    """No boost, or only the least that makes the placement free."""
    amb = self.st.players[seat].counters["ambrosia"] if spare is None else spare
    if self.fee(seat, space, skill) == 0:
        return [0]
    for k in range(1, amb // self.rule("ambrosia", "skill") + 1):
        if self.fee(seat, space, skill + k) == 0:
            return [0, k]
    return [0]


_REUSE = taw.TAW.reuse_options


def _reuse_never_raised(self, seat: int, est):
    return [o for o in _REUSE(self, seat, est) if o.endswith("/0")]


#: scenario -> (TAW method, replacement) for rules that are logic, not numbers
CODE_BREAKS = {
    "round-four-empire-b-depleted-titans": ("titan_pile", _only_the_rounds_deck),
    "ambrosia": ("repair_uid", _repairs_nothing),
    "capacity-district-loss": ("capacity", _capacity_unlimited),
    "titan-damage-effects": ("titan_effect", _starve_even_at_the_end),
    "crane-first-edition": ("best_buy", _build_only_what_is_paid),
    "distant-outpost": ("do_learn", _outpost_only_when_learn_is_paid),
    "explore-deck-depleted": ("do_explore", _explore_refreshes_only_an_empty_deck),
    "rebuild": ("repair_some", _repair_the_first_damaged),
    "forest-hideout-first-edition": ("rearrange_top", _hideout_picks_only_the_top),
    "ambrosia-refill-covered": ("refill_ambrosia", _refill_next_rounds_actions),
    "ambrosia-any-time": ("ambrosia_window", lambda self, seat, why, in_turn=False: None),
    "attack-every-payment": ("attack_options", lambda self, seat: _ATTACK_OPTIONS(self, seat)[:6]),
    "starting-titan-colour": ("starting_titan", lambda self, seat: self.zone("starting-titans")[0]),
    "first-edition-match-higher": ("fee", _higher_citizen_free),
    "card-action-once-a-round": ("turn_options", _occupied_cards_offered),
    "card-action-any-citizen-first-edition": ("turn_options", _only_the_lowest_citizen_on_cards),
    "expand-plus-first-edition": ("do_expand", _expand_plus_may_keep_none),
    "ambrosia-partial-boost-costly": ("boosts", _only_the_boost_that_frees),
    "ambrosia-reuse-boost": ("reuse_options", _reuse_never_raised),
}


def test_every_rule_has_a_scenario() -> None:
    stems = {p.stem for p in FILES}
    assert not {rule: stem for rule, stem in RULES.items() if stem not in stems}


def test_every_scenario_has_a_way_to_break_it() -> None:
    assert {p.stem for p in FILES} <= set(DATA_BREAKS) | set(CODE_BREAKS)


@pytest.mark.parametrize("stem", sorted(DATA_BREAKS))
def test_scenario_fails_when_its_data_rule_is_broken(tmp_path: Path, stem: str) -> None:
    folder = copy_with(GAME, tmp_path, DATA_BREAKS[stem])
    assert run_scenario(FOLDER / f"{stem}.yaml").ok
    assert not run_on_copy(FOLDER / f"{stem}.yaml", GAME, folder, tmp_path).ok


@pytest.mark.parametrize("stem", sorted(CODE_BREAKS))
def test_scenario_fails_when_its_coded_rule_is_broken(monkeypatch, stem: str) -> None:
    name, broken = CODE_BREAKS[stem]
    monkeypatch.setattr(taw.TAW, name, broken)
    assert not run_scenario(FOLDER / f"{stem}.yaml").ok


def test_a_card_action_is_offered_once_per_round() -> None:
    game = load_game(GAME).game
    state = taw.main_state(game, 2)
    t = taw.TAW(taw.rules_for(game), None, state)
    caravan = next(c for c in t.zone("empire-row") if c.card == "desert-caravan")
    t.zone("empire-row").remove(caravan)
    t.zone("empire", 0).append(caravan)
    opts = [o for o in t.turn_options(0)[0] if o.startswith("card:")]
    assert opts == [f"card:{caravan.uid}/1"]
    t.card_action(0, opts[0][5:])
    assert not [o for o in t.turn_options(0)[0] if o.startswith("card:")]


def test_every_variant_loads() -> None:
    for variant in load_game(GAME).game.variants:
        result = load_game(GAME, variant)
        assert result.ok, (variant, [d.message for d in result.diagnostics])


@pytest.mark.parametrize("variant", ["first-edition", "first-edition-expand-plus"])
def test_the_first_edition_has_no_ambrosia_on_any_card(variant: str) -> None:
    """The first edition has no ambrosia: no card of its decks gives it or a titan takes it."""
    game = load_game(GAME, variant).game
    found = [f"{d.id}/{c.id}" for d in game.decks.values() for c in d.cards if c.count
             and (c.fields.get("ambrosia") or c.fields.get("damage") == "lose-ambrosia")]
    assert found == []
