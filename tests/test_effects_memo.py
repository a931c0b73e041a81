"""Effects keeps parsed effect texts and expected changes per game, not per Effects (a search
bot's every replay makes an Effects): what it remembers must be what it would work out afresh,
on the effects real games ask about."""

from __future__ import annotations

import pytest
from conftest import PLAYABLE

from pnp.data.game import load_game
from pnp.engine import api
from pnp.engine.api import Effects, Estimate, compile_effect, mean_delta
from pnp.engine.play import play_game
from pnp.scaffold import scaffold


def plain_expect(fx: Effects, effect) -> Estimate:
    """Effects.expect as it was before the memo: parsed anew, worked out anew."""
    from pnp.data.effects import parse_effect

    parsed = effect
    if isinstance(effect, str):
        parsed, problems = parse_effect(effect, None, api._names(fx.game))
        assert parsed is not None, problems
    alts = compile_effect(fx.effect(None) if effect is None else parsed)
    out = Estimate()
    for ops in alts:
        for stat, d in mean_delta(ops, formula=fx._nominal).items():
            out[stat] = out.get(stat, 0.0) + d / len(alts)
    return out


def compared(monkeypatch, game, players: int, seeds: range) -> int:
    """Play greedy games; at every `expect` compare the answer with the plain one (values
    and order) and check a module's change to it does not reach the next answer."""
    seen = []
    remembered = Effects.expect

    def checked(self, effect):
        got = remembered(self, effect)
        want = plain_expect(self, effect)
        assert list(got.items()) == list(want.items()), effect
        assert type(got) is Estimate and got.bot_memo is None
        seen.append(effect)
        return got

    monkeypatch.setattr(Effects, "expect", checked)
    for seed in seeds:
        assert not play_game(game, players, seed, ["greedy"]).violations
    return len(seen)


def test_the_starter_games_expected_changes_are_the_plain_ones(tmp_path, monkeypatch):
    scaffold(tmp_path / "starter")
    game = load_game(tmp_path / "starter").game
    assert compared(monkeypatch, game, 3, range(4)) > 100


@pytest.mark.skipif("spice-market" not in PLAYABLE, reason="the docs' example is not there")
def test_spice_markets_expected_changes_are_the_plain_ones(game_defs, monkeypatch):
    assert compared(monkeypatch, game_defs("spice-market"), 2, range(3)) > 20


def test_an_estimate_a_module_changes_does_not_change_the_next(tmp_path):
    scaffold(tmp_path / "starter")
    game = load_game(tmp_path / "starter").game
    text = next(c.fields["effect"] for c in game.decks["market"].cards if c.fields.get("cost"))

    class Ctx:  # what Effects reads of a context
        state = type("S", (), {"players": []})()
        result = type("R", (), {"cap_clips": {}, "floor_clips": {}})()

    fx = Effects(game, Ctx())
    first = fx.expect(text)
    first["gold"] = first.get("gold", 0) - 99  # as the starter's market adds the cost
    again = Effects(game, Ctx()).expect(text)
    assert again == plain_expect(fx, text) and again is not first
