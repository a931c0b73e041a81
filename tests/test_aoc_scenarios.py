"""Age of Civilization: every rule has a scenario that passes, and each scenario fails once the
rule it shows is broken (in a copy of the game's data, or, for rules that live in code, by
patching the engine)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.engine.scenario import run_scenario
from pnp.games import age_of_civilization as aoc
from pnp.games.age_of_civilization import actions as aoc_actions
from pnp.paths import CARDS
from tests.scenario_breaks import copy_with, run_on_copy

FOLDER = CARDS / "age-of-civilization" / "scenarios"
FILES = sorted(FOLDER.glob("*.yaml"))
GAME = CARDS / "age-of-civilization"

#: every rule of the issue, with the scenario that shows it
RULES = {
    "Culture paid with 4 coins scores 2": "culture-four-coins",
    "Science gained in round 4 scores 2": "science-round-four",
    "Tiwanaku risen in round 1 scores 5": "tiwanaku-round-one",
    "bonus coins on unpicked market cards, market refilled": "tiwanaku-round-one",
    "Iberia with 5 bonus coins gains two technologies": "iberia-bonus-techs",
    "Carthage triples its bonus coins": "carthage-triples",
    "Persia at war with strength 7 gains 3 coins": "persia-war",
    "military strength from civilizations and technologies": "persia-war",
    "war: the least military strength sacrifices": "persia-war",
    "war tie: all tied sacrifice": "war-tie",
    "Britain at turn end": "britain-turn-end",
    "Arabia at turn end": "arabia-turn-end",
    "rest: +2 coins +1 worker, at most 4": "rest",
    "white and red slots": "red-and-white-slots",
    "Research: two slots, 4 coins, 1 point, a technology": "research-twice",
    "Wonder: 7 coins, sacrificed worker, 3 points, a wonder": "wonder",
    "Aztecs: Wonder 6 less, one more worker": "aztecs-wonder",
    "annex: under the main, +1 worker, bonus coins": "annex",
    "rise: new main, population renewed": "annex",
    "at most 3 civilizations": "three-civilizations",
    "starter token passes counter-clockwise": "round-end-starter-and-track",
    "the permanent card moves and opens the next card": "round-end-starter-and-track",
    "plague: everyone sacrifices": "plague",
    "Conquest: most military (ties count)": "conquest",
    "Conquest: needs at least 1 strength": "conquest-too-weak",
    "Hunt: a point without technology": "hunt",
    "Trade: others gain 1 coin": "trade",
    "game end abilities and tie-breaks": "game-end-tie-breaks",
    "Phoenicia: 2 coins as bonus, 2 points": "phoenicia",
    "Education: free Culture at turn end": "education",
    "solo: the virtual opponent grows, market bonus and refill": "solo-war",
    "solo: Plague fifth": "solo-plague-fifth",
    "solo: achievements": "solo-achievements",
    "solo: Trade and Lydia, no bonus coins on a pick": "solo-trade-lydia",
    "Innovation: buy a special technology card": "innovation",
    "Innovation: the covered column is replaced": "innovation-covered-column",
    "Innovation: a token on a column's top technology blocks it (interpretation)":
        "innovation-top-token-blocks",
    "Changing World: token before the plague": "changing-world-before-plague",
    "Changing World: Birth Boom": "changing-world-birth-boom",
    "Drafting: first civilization without bonus, no refill": "drafting-first-civilization",
    "Drafting: 2 bonus coins later, Carthage 6, Iberia 1": "drafting-carthage-iberia",
    "variant hunt-twice": "hunt-twice",
    "variant first-game": "first-game",
    "turn-end abilities in the player's order": "turn-end-any-order",
    "a turn-end ability gained at the turn end acts then": "turn-end-gained-ability",
    "solo with first-game: the Plague fifth": "solo-first-game-plague",
    "round 1: a civilization must rise": "first-round-rise",
    "variant hunt-two-free": "hunt-two-free",
}

#: scenario -> edits of the game's data that break its rule: (file, old text, new text)
DATA_BREAKS: dict[str, list[tuple[str, str, str]]] = {
    "culture-four-coins": [("components.yaml", 'slots: 1, cost: "C-4", effect: "VP+2", text: "1 worker and 4',
                            'slots: 1, cost: "C-4", effect: "VP+3", text: "1 worker and 4')],
    "science-round-four": [("game.yaml", "main: [{when: gained, points: 1, per: future-rounds}]",
                            "main: [{when: gained, points: 2, per: future-rounds}]")],
    "tiwanaku-round-one": [("game.yaml", "bonus_coin: 1 ", "bonus_coin: 0 ")],
    "iberia-bonus-techs": [("game.yaml", "{when: rise, technology: 1, per: bonus-coins, each: 2}",
                            "{when: rise, technology: 1, per: bonus-coins, each: 3}")],
    "carthage-triples": [("game.yaml", "multiply_bonus: 3", "multiply_bonus: 2")],
    "persia-war": [("game.yaml", "[{when: war, coins: 1, per: military, each: 2}]",
                    "[{when: war, coins: 1, per: military, each: 3}]")],
    "britain-turn-end": [("game.yaml", "per: points, each: 7", "per: points, each: 8")],
    "arabia-turn-end": [("game.yaml", "[{when: turn-end, coins: 1, per: technologies, each: 2}]",
                         "[{when: turn-end, coins: 2, per: technologies, each: 2}]")],
    "rest": [("game.yaml", "rest: {coins: 2, workers: 1}", "rest: {coins: 3, workers: 1}")],
    "red-and-white-slots": [("game.yaml", "exploit: {workers: 1, sacrifice: true}",
                             "exploit: {workers: 1, sacrifice: false}")],
    "research-twice": [("components.yaml", "slots: 2, cost: \"C-4\", effect: \"VP+1\"",
                        "slots: 2, cost: \"C-4\", effect: \"VP+2\"")],
    "wonder": [("components.yaml", 'slots: 1, cost: "C-7", effect: "VP+3"',
                'slots: 1, cost: "C-7", effect: "VP+2"')],
    "aztecs-wonder": [("game.yaml", "discount: 6, extra_workers: 1", "discount: 6, extra_workers: 0")],
    "annex": [("game.yaml", "annex_workers: 1", "annex_workers: 0")],
    "three-civilizations": [("game.yaml", "max_civilizations: 3", "max_civilizations: 4")],
    "round-end-starter-and-track": [("game.yaml", "starter_passes: counter-clockwise",
                                     "starter_passes: clockwise")],
    "plague": [("game.yaml", "plague_sacrifice: 1", "plague_sacrifice: 0")],
    "hunt": [("game.yaml", "bonus_if_no_technology: 1", "bonus_if_no_technology: 0")],
    "trade": [("game.yaml", "trade: {workers: 1, others_coins: 1}", "trade: {workers: 1, others_coins: 0}")],
    "game-end-tie-breaks": [("game.yaml", "tie_breaks: [workers, coins]", "tie_breaks: [coins, workers]")],
    "phoenicia": [("game.yaml", "pay_bonus: 2, points: 2", "pay_bonus: 2, points: 1")],
    "education": [("game.yaml", "main: [{when: turn-end, perform: culture}]",
                   "main: [{when: turn-end, coins: 0}]")],
    "solo-war": [("game.yaml", "opponent_growth: 1", "opponent_growth: 0")],
    "solo-plague-fifth": [("game.yaml", "plague_position: 5", "plague_position: 6")],
    "solo-achievements": [("game.yaml", "points: 25, min_wonders: 4", "points: 25, min_wonders: 5")],
    "solo-trade-lydia": [("game.yaml", "{when: rise, coins: 4, others_coins: 1}",
                          "{when: rise, coins: 3, others_coins: 1}")],
    "innovation": [("game.yaml", "price: 1", "price: 2")],
    "first-round-rise": [("game.yaml", "first_round: rise", "first_round: free")],
    "innovation-covered-column": [("deck.yaml", "row: 2, requires: [writing], ability: Culture costs",
                                   "row: 2, requires: [education], ability: Culture costs")],
    "changing-world-before-plague": [("game.yaml", "before_war: true", "before_war: false")],
    "changing-world-birth-boom": [("deck.yaml", "who: all, effect: W+1", "who: all, effect: W+0")],
    "drafting-first-civilization": [("game.yaml", "bonus_first: 0", "bonus_first: 1")],
    "drafting-carthage-iberia": [("game.yaml", "bonus_later: 2", "bonus_later: 3")],
    "hunt-two-free": [("game.yaml", "description: \"Hunt has two slots, both free.\", overrides: {components/action_spaces/hunt/slots: 2}",
                       "description: \"Hunt has two slots, both free.\", overrides: {components/action_spaces/hunt/slots: 1}")],
    "hunt-twice": [("game.yaml", "components/action_spaces/hunt/slots: 2",
                    "components/action_spaces/hunt/slots: 1")],
    "first-game": [("deck.yaml", "action: hunt, event: none, first_game: 1",
                    "action: hunt, event: none, first_game: 3"),
                   ("deck.yaml", "action: farm, event: none, first_game: 3",
                    "action: farm, event: none, first_game: 1")],
}


def _ties_lose(self, seat: int) -> bool:
    s = self.strengths()
    return all(s[seat] > x for i, x in enumerate(s) if i != seat)


def _all_tied_spared(self) -> None:  # only the first weakest sacrifices
    s = self.strengths()
    self.event("war")
    loser = s.index(min(s))
    self.gain_workers(self.state.players[loser], -1)


def _fixed_turn_end_order(self, seat: int, p) -> None:
    """The order main fixed: spending abilities first, then gains, Britain last."""
    from pnp.games.age_of_civilization.rules import sourced_abilities

    abil = [a for _, a in sourced_abilities(self.r, p, "turn-end")]
    rank = {id(a): (0 if a.get("pay_bonus") or a.get("perform") else
                    2 if a.get("per") == "points" else 1) for a in abil}
    for a in sorted(abil, key=lambda a: rank[id(a)]):
        self.turn_end_ability(seat, p, a)


def _turn_end_abilities_fixed_at_its_start(self, seat: int, p) -> None:
    """Only the abilities held when the turn end began act (in the player's order)."""
    from pnp.games.age_of_civilization.rules import sourced_abilities

    pending = dict(sourced_abilities(self.r, p, "turn-end"))
    while pending:
        labels = [f"end:{k}" for k in pending]
        pick = self.choose(seat, labels, "the next every-turn-end ability")
        self.turn_end_ability(seat, p, pending.pop(pick[4:]))


def _first_game_order_ignores_solo(self) -> None:
    r, ctx = self.r, self.ctx
    if r.setup.get("time_track") == "first-game":
        for card in sorted(ctx.zone("action-deck"),
                           key=lambda c: r.action_cards[c.card]["first_game"]):
            ctx.move(card, "action-deck", "time-track", "first-game time track")
        return
    _TIME_TRACK(self)


_TIME_TRACK = aoc.AoC.time_track


def _top_tokens_ignored(self, seat: int, p) -> None:
    """The alternative reading: a token on a column's top technology leaves it free."""
    techs = p.vars["techs"]
    p.vars["techs"] = [t for t in techs if self.r.techs[t]["row"] != 1]
    try:
        _BUY_SPECIAL(self, seat, p)
    finally:
        p.vars["techs"] = techs


_BUY_SPECIAL = aoc.AoC.buy_special


#: scenario -> (AoC method, replacement) for rules that are logic, not numbers
CODE_BREAKS = {
    "conquest": ("most_military", _ties_lose),
    "war-tie": ("war", _all_tied_spared),
    "turn-end-any-order": ("turn_end", _fixed_turn_end_order),
    "turn-end-gained-ability": ("turn_end", _turn_end_abilities_fixed_at_its_start),
    "solo-first-game-plague": ("time_track", _first_game_order_ignores_solo),
    "innovation-top-token-blocks": ("buy_special", _top_tokens_ignored),
}


def test_every_rule_has_a_scenario() -> None:
    stems = {p.stem for p in FILES}
    assert not {rule: stem for rule, stem in RULES.items() if stem not in stems}


def test_every_scenario_has_a_way_to_break_it() -> None:
    stems = {p.stem for p in FILES}
    assert stems - set(DATA_BREAKS) - set(CODE_BREAKS) == {"conquest-too-weak"}


@pytest.mark.parametrize("stem", sorted(DATA_BREAKS))
def test_scenario_fails_when_its_data_rule_is_broken(tmp_path: Path, stem: str) -> None:
    folder = copy_with(GAME, tmp_path, DATA_BREAKS[stem])
    assert run_scenario(FOLDER / f"{stem}.yaml").ok
    assert not run_on_copy(FOLDER / f"{stem}.yaml", GAME, folder, tmp_path).ok


#: rules keys the engine once ignored (issue 22): changing each breaks a scenario that uses it
KEY_BREAKS: dict[str, tuple[str, list[tuple[str, str, str]]]] = {
    "setup.starter": ("round-end-starter-and-track",
                      [("game.yaml", "starter: seat-0", "starter: seat-1")]),
    "time_track.events_from_round": ("plague", [("game.yaml", "events_from_round: 1",
                                                 "events_from_round: 5")]),
    "innovation.per_player": ("innovation", [("game.yaml", "\n    per_player: 1",
                                              "\n    per_player: 0")]),
    "changing_world.first_round": ("changing-world-before-plague",
                                   [("game.yaml", "first_round: 3 ", "first_round: 4 ")]),
    "turn.first_round": ("first-round-rise", [("game.yaml", "first_round: rise",
                                               "first_round: free")]),
}


@pytest.mark.parametrize("key", sorted(KEY_BREAKS))
def test_a_rules_key_the_engine_reads_changes_play(tmp_path: Path, key: str) -> None:
    stem, edits = KEY_BREAKS[key]
    folder = copy_with(GAME, tmp_path, edits)
    assert run_scenario(FOLDER / f"{stem}.yaml").ok
    assert not run_on_copy(FOLDER / f"{stem}.yaml", GAME, folder, tmp_path).ok


@pytest.mark.parametrize("stem", sorted(CODE_BREAKS))
def test_scenario_fails_when_its_coded_rule_is_broken(monkeypatch, stem: str) -> None:
    name, broken = CODE_BREAKS[stem]
    monkeypatch.setattr(aoc.AoC, name, broken)
    assert not run_scenario(FOLDER / f"{stem}.yaml").ok


def test_conquest_needs_one_strength(monkeypatch) -> None:
    monkeypatch.setattr(aoc_actions, "military", lambda r, p: 1)  # where Conquest reads it
    assert not run_scenario(FOLDER / "conquest-too-weak.yaml").ok
