"""A rulesheet a player can learn from: every action, card ability and variant the engine plays
is in it, in players' words (no ids, no command-line flags, no simulator vocabulary)."""

from __future__ import annotations

import re

import pytest

from pnp.data.game import load_game
from pnp.paths import CARDS
from pnp.render.rulesheet import readings_markdown
from pnp.rulesheet.check import prepare

CASES = [("the-ancient-world", None), ("the-ancient-world", "first-edition"),
         ("age-of-civilization", None), ("ancient-civilizations", None)]


def _sheet(name, variant):
    game = load_game(CARDS / name, variant).game
    prepared = prepare(game)
    assert not [d for d in prepared.diagnostics if d.is_error]
    text = "\n".join(s.source.text for s in prepared.sources)
    return game, " ".join((text + "\n" + readings_markdown(game)).split())


@pytest.mark.parametrize("name, variant", CASES)
def test_every_action_and_phase_is_in_the_rulesheet(name, variant):
    game, text = _sheet(name, variant)
    names = [a.name for a in game.action_spaces.values()] or [p.name for p in game.phases]
    assert names
    for n in names:  # the turn table names a phase by its track ("Naval" for Naval Phase)
        assert n in text or f"| {n.removesuffix(' Phase')} |" in text, n


@pytest.mark.parametrize("name, variant", CASES)
def test_every_variant_is_in_the_rulesheet(name, variant):
    game, text = _sheet(name, variant)
    assert game.variants
    for v in game.variants.values():
        assert v.id.replace("-", " ").capitalize() in text, v.id


@pytest.mark.parametrize("name, variant", CASES)
def test_every_card_with_an_ability_is_in_the_rulesheet(name, variant):
    game, text = _sheet(name, variant)
    cards = [c for d in game.decks.values() for c in d.cards
             if c.count and any(k in c.fields for k in ("text", "main", "ability"))
             and str(c.fields.get("text") or c.fields.get("main") or
                     c.fields.get("ability") or "none") not in ("", "none")
             and d.id in {"empire-a", "empire-b", "empire-c", "starting-empire",
                          "civilizations", "wonders"}]
    if name == "ancient-civilizations":
        assert not cards  # its chart cards repeat the charts, which the sheet prints whole
        return
    assert cards
    for c in cards:
        assert c.name in text, c.name


@pytest.mark.parametrize("name, variant", [*CASES, ("antike", None), ("antike", "round-coin")])
def test_the_rulesheet_speaks_to_players(name, variant):
    game, text = _sheet(name, variant)
    assert not re.search(r"(?<![\w-])--[a-z]", text), "a command-line flag"
    keys = re.findall(r"\b[a-z]+(?:_[a-z]+)+\b", text)  # Antike's readings once named two
    assert not keys, f"data keys: {keys}"
    for word in ("simulation", "timed-out", "turn cap", "bots ", "self-play", "the engine"):
        assert word not in text.lower(), word
    ids = {c.id for d in game.decks.values() for c in d.cards if "-" in c.id
           and any(k in c.fields for k in ("text", "main", "ability"))}
    ids |= {v for v in game.rule("setup", "starting_empire", default=[]) or []}
    printed = [i for i in ids if re.search(rf"(?<![\w{{-]){re.escape(i)}(?![\w-])", text)]
    assert not printed, printed


def test_the_first_edition_sheet_has_one_pass_and_no_empire_c_on_build():
    _, text = _sheet("the-ancient-world", "first-edition")
    assert text.count("pass for the rest of the round") == 1
    assert "pass (stored" not in text
    assert "| Build | always | Buy an empire card from the row. |" in text
    assert "| Expand | always | Pay 1 knowledge or 3 coins: take the top district. |" in text
