"""Layout templates that differ only in their numbers share one compiled shape
(pnp.render.layout.shapes), and render, fail and name card fields exactly as jinja2 does with
the numbers written in."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from jinja2 import Undefined

from pnp.render.layout import templates as T
from pnp.render.layout.codes import ElementError
from pnp.render.layout.shapes import lift_numbers
from pnp.render.layout.templates import ENV, fields_used, render_template

CTX = {"card": {"title": "Ford", "rows": [{"label": "a", "roll": 2}, {"label": ""}, {"n": 3}],
                "cost": 4, "1": "one"},
       "deck": {"name": "Deck", "prototype": True}, "game": {"name": "Game"}}

numbers = st.sampled_from(["0", "1", "2", "3", "9", "54", "18.5", "0.55", "1e3", "0x1F", "1_000",
                           "007", "2.", "1.5.2"])
names = st.sampled_from(["card.rows", "card.title", "card.cost", "card.nope", "deck.name",
                         "card.rows[1].label", "card.rows | length", "card[1]", "x"])
atoms = st.one_of(numbers, names, st.just("'t'"))
operators = st.sampled_from([" + ", " - ", " * ", " / ", " // ", " % ", " ** ", " ~ ", " > ",
                             " and ", " or ", " in ", " is ", " | ", ".", "=", ", "])


@st.composite
def expressions(draw, depth: int = 3) -> str:
    if depth == 0 or draw(st.booleans()):
        return draw(atoms)
    left, right = draw(expressions(depth - 1)), draw(expressions(depth - 1))
    shape = draw(st.sampled_from(["{} {} {}", "({}{}{})", "[{}{}{}] | min", "{}[{}{}]",
                                  "{} if {} else {}", "-{}{}{}", "{}{}{}"]))
    if shape == "{} if {} else {}":
        return shape.format(left, right, draw(expressions(depth - 1)))
    return shape.format(left, draw(operators), right)


def _outcome(run):
    try:
        return "ok", _comparable(run())
    except ElementError as exc:
        return "error", exc.code, str(exc), exc.field
    except Exception as exc:  # noqa: BLE001 - a template may raise anything; compare what
        return "raised", type(exc).__name__, str(exc)


def _comparable(value):
    """A result with an undefined value inside (a tuple, a list) as something `==` can compare:
    the strict undefined raises when compared, so it stands as its kind and message."""
    if isinstance(value, Undefined):
        return "undefined", type(value).__name__, value._undefined_message  # noqa: SLF001
    if isinstance(value, (tuple, list)):
        return type(value).__name__, [_comparable(v) for v in value]
    return value


def _as_written(source: str):
    ast = ENV.parse(source)
    fields = fields_used(ast)
    return fields, render_template(ENV.from_string(source), CTX, "text", fields)


def _shaped(source: str):
    T._compile.cache_clear()  # noqa: SLF001 - each source compiled afresh, as in a new process
    template, fields = T._compile(source)
    return fields, render_template(template, CTX, "text", fields)


@settings(max_examples=400, deadline=None)
@given(expression=expressions(), tail=st.sampled_from(["", "mm", " {{ 2 }}"]))
def test_a_template_renders_and_fails_as_it_does_with_its_numbers_written_in(
        expression: str, tail: str) -> None:
    source = "{{ " + expression + " }}" + tail
    assert _outcome(lambda: _shaped(source)) == _outcome(lambda: _as_written(source)), source


@settings(max_examples=300, deadline=None)
@given(expression=expressions())
@example(expression="('t' and 't' . 1 ,  't')")  # an undefined inside a tuple: compared as such
def test_a_when_condition_is_what_jinja2_compiles(expression: str) -> None:
    def shaped():
        T._expression.cache_clear()  # noqa: SLF001
        return T._expression(expression)(**CTX)

    def as_written():
        return ENV.compile_expression(expression)(**CTX)

    assert _outcome(shaped) == _outcome(as_written), expression


@pytest.mark.parametrize("source", [
    "{{ card.rows.0.label }}",  # a number after a dot is an attribute, not a value
    "{{ card.cost is divisibleby 2 }}",  # a test's argument
    "{{ card.title | 5 }}", "{{ card.title is 5 }}",  # a filter or test name
    "{% if card.cost > 3 %}{{ 1 }}{% endif %}",  # statements are compiled as written
    "{{ _pnp_n0 + 1 }}",  # the slot names' prefix
])
def test_numbers_that_are_not_values_are_left_as_written(source: str) -> None:
    assert lift_numbers(ENV, source) is None


def test_a_layouts_rows_compile_once_per_shape() -> None:
    T._shape.cache_clear()  # noqa: SLF001
    sources = [f"{{{{ ({top} + {i} * ([9, 54 / (card.rows | length)] | min)) }}}}mm"
               for top in (18.5, 20) for i in range(1, 12)]
    rendered = [render_template(T._compile(s)[0], CTX, "y") for s in sources]
    assert T._shape.cache_info().currsize == 1
    assert rendered[0] == "27.5mm" and rendered[-1] == "119mm"  # 20 + 11 * min(9, 54 / 3)
    assert rendered == [render_template(ENV.from_string(s), CTX, "y") for s in sources]


def test_a_card_index_written_as_a_number_is_the_field_it_names() -> None:
    assert T._compile("{{ card[1] }}{{ card[2] }}")[1] == ("1", "2")
