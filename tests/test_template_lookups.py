"""The template shortcuts (`{{ card.x }}`, `{{ card.rows[2].label }}`) render exactly what
jinja2 renders, and fail exactly where it fails: they only save compiling a template."""

from __future__ import annotations

import jinja2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.render.layout.codes import ElementError
from pnp.render.layout.templates import ENV, _compile, _PathLookup, render_template
from pnp.templating.sandbox import render_limited

SOURCES = ["{{ card.rows[0].label }}", "{{ card.rows[2].roll }}", "{{ card.rows[-1].result }}",
           "{{ card.grid[1][0] }}", "{{ card.meta.items }}", "{{ deck.rows[0].label }}",
           "{{card.rows[1].label}}"]

leaf = st.one_of(st.text(max_size=5), st.integers(-9, 9), st.floats(allow_nan=False, width=16),
                 st.booleans(), st.none())
values = st.recursive(leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.sampled_from(["label", "roll", "result", "items", "x"]), inner,
                    max_size=4)), max_leaves=12)
contexts = st.fixed_dictionaries({
    "card": st.dictionaries(st.sampled_from(["rows", "grid", "meta"]), values, max_size=3),
    "deck": st.dictionaries(st.sampled_from(["rows"]), values, max_size=1),
    "game": st.just({})})


def _outcome(template, ctx) -> tuple[str, str]:
    try:
        return "ok", render_template(template, ctx, "text")
    except ElementError as exc:
        return "error", exc.code
    except jinja2.UndefinedError:
        return "error", "undefined"


def test_paths_of_keys_and_indexes_take_the_shortcut() -> None:
    assert all(isinstance(_compile(s)[0], _PathLookup) for s in SOURCES)
    assert not isinstance(_compile("{{ card.rows[0].label | upper }}")[0], _PathLookup)


@settings(max_examples=300, deadline=None)
@given(source=st.sampled_from(SOURCES), ctx=contexts)
def test_a_path_lookup_renders_and_fails_as_jinja2_does(source: str, ctx: dict) -> None:
    fast, _ = _compile(source)
    slow = ENV.from_string(source)
    want = _outcome(slow, ctx)
    got = _outcome(fast, ctx)
    assert got == want


@pytest.mark.parametrize("ctx", [
    {"card": {"meta": {"items": "a field named like a dict method"}}},
    {"card": {"rows": [{"label": True}, {"label": None}, {"label": 1.5}]}},
    {"card": {"rows": [{"label": [1, 2]}, {"label": {"x": 1}}]}},
    {"card": {"rows": "text, not a list"}},
    {"card": {"grid": [[7], [8, 9]]}},
])
def test_the_values_jinja2_reads_its_own_way(ctx: dict) -> None:
    ctx = {"deck": {}, "game": {}, **ctx}
    for source in SOURCES:
        assert _outcome(_compile(source)[0], ctx) == _outcome(ENV.from_string(source), ctx), \
            source


def test_a_missing_row_is_the_same_undefined_error_as_jinja2() -> None:
    fast, _ = _compile("{{ card.rows[5].label }}")
    ctx = {"card": {"rows": [{"label": "a"}]}, "deck": {}, "game": {}}
    with pytest.raises(ElementError) as got:
        render_template(fast, ctx, "text")
    with pytest.raises(ElementError) as want:
        render_template(ENV.from_string("{{ card.rows[5].label }}"), ctx, "text")
    assert (got.value.code, str(got.value)) == (want.value.code, str(want.value))
    assert render_limited(ENV.from_string("{{ card.rows[0].label }}"), ctx) == \
        render_template(_compile("{{ card.rows[0].label }}")[0], ctx, "text") == "a"
