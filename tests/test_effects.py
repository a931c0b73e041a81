"""Tests for the effect grammar (pnp.data.effects): ASTs, canonical text, diagnostics."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from pnp.data.effects import (
    ABILITIES,
    BAD_ABILITY_ARGS,
    BAD_DICE,
    PER_TURN,
    SYNTAX_ERROR,
    THIS_TURN,
    UNKNOWN_ABILITY,
    UNKNOWN_CHART,
    UNKNOWN_FORMULA,
    UNKNOWN_STAT,
    Ability,
    Amount,
    ChartRoll,
    Delta,
    Effect,
    Names,
    effect_charts,
    effect_formulas,
    effect_stats,
    effect_tracks,
    format_effect,
    parse_effect,
)
from pnp.diagnostics import ERROR, Position

# The Ancient Civilizations vocabulary: stat id -> other spellings (name first, abbreviation).
STATS = {
    "food": ["Food", "F"],
    "military": ["Military", "M"],
    "trade": ["Trade", "T"],
    "resources": ["Resources", "R"],
    "wonder": ["Wonder", "W"],
    "culture": ["Culture", "C"],
    "gold": ["Gold", "G"],
    "population": ["Population", "P", "Pop"],
    "infrastructure": ["Infrastructure", "I", "Infra"],
    "victory_points": ["Victory Points", "VP"],
}
ABBR = {stat: spellings[-1] if stat != "population" else "P" for stat, spellings in STATS.items()}
TRACKS = {"military": ["Military"], "trade": ["Trade"], "naval": ["Naval"]}
CHARTS = {"conquest": ["Conquest"], "volcano": ["Volcano"]}
FORMULAS = {"provinces": []}
NAMES = Names.create(stats=STATS, charts=CHARTS, tracks=TRACKS, formulas=FORMULAS)
POS = Position("game.yaml", 12, 15)
CODES = {SYNTAX_ERROR, UNKNOWN_STAT, UNKNOWN_CHART, UNKNOWN_ABILITY, BAD_ABILITY_ARGS}
CODES |= {UNKNOWN_FORMULA, BAD_DICE}  # 'A-001D1': a die of one side, past the dice limits


def parse(text: str, pos: Position | None = POS):
    return parse_effect(text, pos, NAMES)


def ok(text: str) -> Effect:
    effect, diags = parse(text)
    assert diags == [], [d.format_text() for d in diags]
    assert effect is not None
    return effect


def errors(text: str):
    effect, diags = parse(text)
    assert effect is None
    assert diags and all(d.severity == ERROR for d in diags)
    return diags


def one(*items, timing=None) -> Effect:
    """An effect without a choice."""
    return Effect((tuple(items),), timing)


def n(value: int) -> Amount:
    return Amount(const=value)


# --------------------------------------------------------------------------- rulebook examples

EXAMPLES: list[tuple[str, Effect]] = [
    ("F+2 M+1", one(Delta("food", n(2)), Delta("military", n(1)))),
    ("Food -1D6", one(Delta("food", Amount(dice=-1, sides=6)))),
    ("Military +1D6 -3", one(Delta("military", Amount(const=-3, dice=1, sides=6)))),
    (
        "T+1 and M+1D6-3",
        one(Delta("trade", n(1)), Delta("military", Amount(const=-3, dice=1, sides=6))),
    ),
    ("R+5 | W+1", Effect(((Delta("resources", n(5)),), (Delta("wonder", n(1)),)), None)),
    ("R+1 per turn", one(Delta("resources", n(1)), timing=PER_TURN)),
    ("M+1 C+1 per turn", one(Delta("military", n(1)), Delta("culture", n(1)), timing=PER_TURN)),
    ("adjust(1) this turn", one(Ability("adjust", (1,)), timing=THIS_TURN)),
    ("reroll(1) this turn", one(Ability("reroll", (1,)), timing=THIS_TURN)),
    ("reroll(1) per turn", one(Ability("reroll", (1,)), timing=PER_TURN)),
    ("adjust(1) per turn", one(Ability("adjust", (1,)), timing=PER_TURN)),
    (
        "extra_roll(military, trade, naval) this turn",
        one(Ability("extra_roll", ("military", "trade", "naval")), timing=THIS_TURN),
    ),
    ("exchange(F, R, G)", one(Ability("exchange", ("food", "resources", "gold")))),
    ("steal(P, 1)", one(Ability("steal", ("population", 1)))),
    ("roll conquest", one(ChartRoll("conquest"))),
    (
        "I-1D6 roll volcano",
        one(Delta("infrastructure", Amount(dice=-1, sides=6)), ChartRoll("volcano")),
    ),
    ("F+provinces", one(Delta("food", Amount(formula="provinces")))),
    (
        "Pop -1 Food -2 Infra -2",
        one(Delta("population", n(-1)), Delta("food", n(-2)), Delta("infrastructure", n(-2))),
    ),
    ("G+1D6", one(Delta("gold", Amount(dice=1, sides=6)))),
    ("VP+1", one(Delta("victory_points", n(1)))),
    ("F +3", one(Delta("food", n(3)))),
    ("Gold+1", one(Delta("gold", n(1)))),
    ("", Effect((), None)),
    ("-", Effect((), None)),
]


@pytest.mark.parametrize(("text", "expected"), EXAMPLES, ids=[t or "<empty>" for t, _ in EXAMPLES])
def test_rulebook_examples_parse_to_expected_ast(text: str, expected: Effect) -> None:
    effect = ok(text)
    assert effect == expected
    assert effect.source == text
    assert effect.pos == POS


@pytest.mark.parametrize(
    "text", [t for t, _ in EXAMPLES], ids=[t or "<empty>" for t, _ in EXAMPLES]
)
@pytest.mark.parametrize("abbreviations", [None, ABBR], ids=["ids", "abbreviations"])
def test_rulebook_examples_round_trip(text: str, abbreviations: dict[str, str] | None) -> None:
    effect = ok(text)
    assert ok(format_effect(effect, abbreviations)) == effect


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("F +3", "F+3"),
        ("F + 3", "F+3"),
        ("  Food+3  ", "F+3"),
        ("Military +1D6 -3", "M+1D6-3"),
        ("M + d6 - 3", "M+1D6-3"),
        ("T+1 and M+1D6-3", "T+1 M+1D6-3"),
        ("R+5|W+1", "R+5 | W+1"),
        ("R+1   PER   Turn", "R+1 per turn"),
        ("Reroll( 1 )This turn", "reroll(1) this turn"),
        ("exchange(F,R,G)", "exchange(F, R, G)"),
        ("extra_roll(Military,TRADE , naval)", "extra_roll(military, trade, naval)"),
        ("ROLL Conquest", "roll conquest"),
        ("F\u22122", "F-2"),
        ("F+02", "F+2"),
        ("F - Provinces", "F-provinces"),
        ("", "-"),
        (" - ", "-"),
    ],
)
def test_format_is_canonical(text: str, canonical: str) -> None:
    effect = ok(text)
    assert format_effect(effect, ABBR) == canonical
    assert format_effect(ok(canonical), ABBR) == canonical


def test_format_without_abbreviations_uses_stat_ids() -> None:
    assert format_effect(ok("F+2 | Pop-1D6+1 steal(P, 2)")) == (
        "food+2 | population-1D6+1 steal(population, 2)"
    )


def test_positions_point_at_each_item() -> None:
    effect = ok("F+2  roll conquest | reroll(1)")
    (delta, chart), (ability,) = effect.choices
    assert delta.pos == Position("game.yaml", 12, 15)
    assert chart.pos == Position("game.yaml", 12, 20)
    assert ability.pos == Position("game.yaml", 12, 36)
    no_pos, _ = parse("F+2", pos=None)
    assert no_pos is not None and no_pos.choices[0][0].pos is None


def test_case_insensitive_keywords_dice_and_unicode_minus() -> None:
    assert ok("f+1 AND m+2D6 Per TURN") == one(
        Delta("food", n(1)), Delta("military", Amount(dice=2, sides=6)), timing=PER_TURN
    )
    assert ok("G\u22121d8\u22121") == one(Delta("gold", Amount(const=-1, dice=-1, sides=8)))
    assert ok("\u2212") == Effect((), None)


def test_timing_applies_to_every_alternative() -> None:
    effect = ok("R+5 | W+1 this turn")
    assert effect.timing == THIS_TURN and effect.is_choice


def test_none_is_no_effect_and_other_types_are_reported() -> None:
    assert parse_effect(None, POS, NAMES) == (Effect((), None), [])  # type: ignore[arg-type]
    effect, diags = parse_effect(3, POS, NAMES)  # type: ignore[arg-type]
    assert effect is None and [d.code for d in diags] == [SYNTAX_ERROR]


# --------------------------------------------------------------------------- diagnostics


def test_unknown_stat_did_you_mean_and_exact_column() -> None:
    (diag,) = errors("M+1 Fod+2")
    assert diag.code == UNKNOWN_STAT
    assert diag.message == "unknown stat 'Fod'; did you mean Food?"
    assert (diag.file, diag.line, diag.column) == ("game.yaml", 12, 19)
    assert diag.hint


def test_every_unknown_name_in_one_string_is_reported() -> None:
    diags = errors("Fod+1 M+2 Infr-1 rerol(1) roll conquset F+provences")
    assert [(d.code, d.column - POS.column) for d in diags] == [
        (UNKNOWN_STAT, 0),
        (UNKNOWN_STAT, 10),
        (UNKNOWN_ABILITY, 17),
        (UNKNOWN_CHART, 31),
        (UNKNOWN_FORMULA, 42),
    ]
    assert "did you mean Infra?" in diags[1].message
    assert "did you mean reroll?" in diags[2].message
    assert "unknown chart 'conquset'; did you mean Conquest?" == diags[3].message
    assert "did you mean provinces?" in diags[4].message


def test_unknown_stat_without_close_match_has_no_suggestion() -> None:
    (diag,) = errors("Xyzzy+1")
    assert diag.message == "unknown stat 'Xyzzy'"


@pytest.mark.parametrize(
    ("text", "offset", "expected", "found"),
    [
        ("F+", 2, "an amount", "end of text"),
        ("F+2 |", 5, "a stat change", "end of text"),
        ("+2", 0, "a stat change", "'+'"),
        ("roll", 4, "a chart name after 'roll'", "end of text"),
        ("F 2", 2, "'+' or '-' after 'F'", "number 2"),
        ("F+M+1", 2, "an amount", "'M'"),
        ("F+2 -1", 4, "another item", "'-'"),
        ("F+1D6+2D6", 6, "a whole number as the dice modifier", "dice '2D6'"),
        ("F+0D6", 2, "dice with at least one die", "dice '0D6'"),
        ("F+2 and", 7, "a stat change", "end of text"),
        ("and F+2", 0, "a stat change", "'and'"),
        ("R+1 per", 7, "'turn' after 'per'", "end of text"),
        ("R+1 per turn | W+1", 13, "end of text after the timing", "'|'"),
        ("reroll()", 7, "an argument", "')'"),
        ("reroll(1", 8, "',' or ')'", "end of text"),
        ("adjust(-1)", 7, "an argument", "'-'"),
        ("F+2 ; M+1", 4, "another item", "unexpected character ';'"),
    ],
)
def test_syntax_errors_say_expected_and_found(
    text: str, offset: int, expected: str, found: str
) -> None:
    diags = errors(text)
    assert [d.code for d in diags] == [SYNTAX_ERROR]
    (diag,) = diags
    assert diag.message.startswith(f"expected {expected}")
    assert diag.message.endswith(f"found {found}")
    assert diag.column == POS.column + offset
    assert diag.hint


def test_huge_numbers_are_a_syntax_error_not_a_crash() -> None:
    for text in ("F+" + "9" * 5000, "F+1D6-" + "1" * 10, "reroll(" + "1" * 10):
        (diag,) = errors(text)
        assert diag.code == SYNTAX_ERROR and "at most 9 digits" in diag.message
        assert len(diag.message) < 80
    assert ok("F+999999999") == one(Delta("food", n(999_999_999)))


def test_dice_past_99_dice_of_1000_sides_are_out_of_range_however_many_digits() -> None:
    """G-1D999999999 (issue 28) and dice of thousands of digits say what is wrong with them:
    at most 99 dice of at most 1000 sides (PNP-E008), the same limit the schema and the
    engines use; 99D1000 itself is fine."""
    for text in ("F+1D999999999", "F+1D" + "9" * 10, "F-" + "9" * 5000 + "D6", "F+1D1001",
                 "F-100D6", "F+D1001"):
        (diag,) = errors(text)
        assert diag.code == "PNP-E008" and "out of range" in diag.message, text
        assert "99 dice of 1 to 1000 sides" in diag.hint
        assert len(diag.message) < 80
    assert ok("F-99D1000") == one(Delta("food", Amount(0, -99, 1000)))
    assert ok("F+D1000") == one(Delta("food", Amount(0, 1, 1000)))


def test_syntax_error_keeps_earlier_name_errors() -> None:
    assert [d.code for d in errors("Fod+1 +2")] == [UNKNOWN_STAT, SYNTAX_ERROR]


@pytest.mark.parametrize(
    ("text", "messages"),
    [
        ("reroll(x)", ["argument 1 of reroll() must be a whole number, found 'x'"]),
        ("reroll(1, 2)", ["reroll() takes 1 argument, found 2"]),
        ("exchange(F)", ["exchange() takes at least 2 arguments, found 1"]),
        (
            "steal(1, P)",
            [
                "argument 1 of steal() must be a stat, found number 1",
                "argument 2 of steal() must be a whole number, found 'P'",
            ],
        ),
        (
            "exchange(F, Gld)",
            ["unknown stat 'Gld' as argument 2 of exchange(); did you mean Gold?"],
        ),
        (
            "extra_roll(militray, sea)",
            [
                "unknown track 'militray' as argument 1 of extra_roll(); did you mean Military?",
                "unknown track 'sea' as argument 2 of extra_roll()",
            ],
        ),
    ],
)
def test_ability_argument_errors(text: str, messages: list[str]) -> None:
    diags = errors(text)
    assert all(d.code == BAD_ABILITY_ARGS for d in diags)
    assert [d.message for d in diags] == messages
    assert all("usage: " in d.hint for d in diags)


def test_ability_argument_error_column() -> None:
    (diag,) = errors("F+1 steal(P, x)")
    assert diag.column == POS.column + 13


# --------------------------------------------------------------------------- helpers


def test_effect_name_sets() -> None:
    effect = ok("F+provinces roll volcano | exchange(R, G) extra_roll(naval) steal(P, 1)")
    assert effect_stats(effect) == {"food", "resources", "gold", "population"}
    assert effect_charts(effect) == {"volcano"}
    assert effect_tracks(effect) == {"naval"}
    assert effect_formulas(effect) == {"provinces"}
    assert effect_stats(ok("-")) == set()


def test_names_create_prefers_ids_and_display_names() -> None:
    names = Names.create(stats={"food": ["Food", "F"], "faith": ["Faith", "food"]})
    assert names.stats["food"] == "food"  # another stat's alias never hides an id
    assert names.stats["faith"] == "faith"
    assert names.shown("food") == "Food"


def test_ability_specs_accept_the_documented_argument_counts() -> None:
    assert ABILITIES["exchange"].kinds_for(3) == ("stat", "stat", "stat")
    assert ABILITIES["exchange"].kinds_for(1) is None
    assert ABILITIES["steal"].kinds_for(2) == ("stat", "int")
    assert ABILITIES["extra_roll"].signature == "extra_roll(tracks: track...)"


# --------------------------------------------------------------------------- properties

STAT_IDS = sorted(STATS)
ARGS = {
    "int": st.integers(0, 99),
    "stat": st.sampled_from(STAT_IDS),
    "track": st.sampled_from(sorted(TRACKS)),
}
signs = st.sampled_from([1, -1])
amounts = st.one_of(
    st.builds(Amount, const=st.integers(-999, 999)),
    st.builds(
        lambda count, sign, sides, const: Amount(const, sign * count, sides),
        st.integers(1, 9),
        signs,
        st.integers(1, 100),
        st.integers(-20, 20),
    ),
    st.builds(lambda sign: Amount(formula="provinces", formula_sign=sign), signs),
)


def _abilities(spec):
    """Valid calls of one ability, whatever its parameters are."""
    low = len(spec.params)
    high = low + 2 if any(p.many for p in spec.params) else low
    return st.integers(low, high).flatmap(
        lambda count: st.tuples(*(ARGS[kind] for kind in spec.kinds_for(count))).map(
            lambda args: Ability(spec.name, args)
        )
    )


items = st.one_of(
    st.builds(Delta, st.sampled_from(STAT_IDS), amounts),
    st.builds(ChartRoll, st.sampled_from(sorted(CHARTS))),
    *(_abilities(spec) for spec in ABILITIES.values()),
)
effects = st.one_of(
    st.just(Effect((), None)),
    st.builds(
        Effect,
        st.lists(st.lists(items, min_size=1, max_size=4).map(tuple), min_size=1, max_size=3).map(
            tuple
        ),
        st.sampled_from([None, PER_TURN, THIS_TURN]),
    ),
)


@given(effects, st.sampled_from([None, ABBR]))
def test_round_trip_generated_asts(effect: Effect, abbreviations: dict[str, str] | None) -> None:
    text = format_effect(effect, abbreviations)
    assert ok(text) == effect


FRAGMENTS = [
    "F", "Food", "Fod", "M", "+", "-", "\u2212", "1", "12", "0", "D6", "1d6", "0D6", "provinces",
    "roll", "conquest", "|", "and", "per", "this", "turn", "reroll", "exchange", "steal", "(",
    ")", ",", " ", "  ", "\n", ";", "x",
]  # fmt: skip


@given(
    st.one_of(
        st.text(max_size=40),
        st.lists(st.sampled_from(FRAGMENTS), max_size=14).map("".join),
    )
)
@example("A-001D1")  # found by hypothesis: a one-sided die, past the dice limits (PNP-E008)
def test_arbitrary_text_never_raises(text: str) -> None:
    effect, diags = parse(text)
    assert (effect is None) == bool(diags)
    for diag in diags:
        assert diag.severity == ERROR and diag.code in CODES
        assert POS.column <= diag.column <= POS.column + len(text)
        assert diag.message
    if effect is not None:  # whatever parses, its canonical text parses to the same AST
        assert ok(format_effect(effect, ABBR)) == effect
