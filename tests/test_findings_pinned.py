"""PNP-B012: a stat that ends every game at one value for every player. It says why only as
far as the figures allow: at the stat's floor it may be used up every game, not untouched."""

from __future__ import annotations

from types import SimpleNamespace

from pnp.engine import findings


def b012(value: int, floor: int | None, cap: int | None = None) -> list[str]:
    game = SimpleNamespace(stats={"coins": SimpleNamespace(name="Coins", min=floor, cap=cap)})
    doc = {"stats": {"coins": {"min": value, "max": value}}}
    return [f.message for f in findings._pinned(doc, game, SimpleNamespace(stat_values={}))
            if f.code == "PNP-B012"]


def test_a_stat_fixed_above_its_floor_may_be_untouched_or_filled_to_a_limit():
    """Age of Civilization's civilizations end at 3 for everyone because every player fills
    the three places, not because nothing changes them: the message must allow both."""
    assert b012(5, floor=0) == ["Coins ends every game at 5 for every player: either nothing "
                                "in play changes it, or every player reaches the same limit by "
                                "the end"]


def test_a_stat_that_always_ends_at_its_floor_may_be_spent_not_untouched():
    (message,) = b012(0, floor=0)
    assert message.startswith("Coins ends every game at 0 for every player: either nothing in "
                              "play changes it, or every player uses it all up")


def test_a_stat_that_varies_or_ends_at_its_cap_is_not_b012():
    game = SimpleNamespace(stats={"coins": SimpleNamespace(name="Coins", min=0, cap=9)})
    varied = {"stats": {"coins": {"min": 0, "max": 4}}}
    assert not [f for f in findings._pinned(varied, game, SimpleNamespace(stat_values={}))
                if f.code == "PNP-B012"]
    assert b012(9, floor=0, cap=9) == []


def test_a_counter_with_no_declared_floor_ending_at_0_may_be_spent():
    doc = {"stats": {"coins": {"min": 0, "max": 0}}}
    (f,) = findings._pinned(doc, SimpleNamespace(stats={}), SimpleNamespace(stat_values={}))
    assert "uses it all up" in f.message
