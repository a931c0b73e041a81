"""The YAML loader: exact positions, YAML 1.2 scalars, and a diagnostic (never a crash) for bad input."""

from __future__ import annotations

import math
import string
import time

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnp.data import loader
from pnp.data.loader import (
    MAX_BYTES,
    MAX_NODES,
    SCHEMA_LINE_RE,
    Document,
    load_file,
    load_text,
)
from pnp.diagnostics import ERROR, Position

SCHEMA = "# yaml-language-server: $schema=../../schemas/tracks.schema.json\n"

NESTED = (
    SCHEMA
    + """\
tracks:
  - id: river
    steps: [1, 2,
            3]
    label: "Hi there"
  - id: road
    meta:
      cost: 5
      tags:
        - a
        -   b
"""
)


def load(text, name="cards/demo/tracks.yaml", **kw):
    return load_text(text, name, **kw)


def codes(diags):
    return [d.code for d in diags]


def where(d):
    return (d.line, d.column)


def assert_well_formed(diags, file="cards/demo/tracks.yaml"):
    """What every diagnostic must carry, so editors and CI can point at it."""
    for d in diags:
        assert d.severity == ERROR
        assert d.code.startswith("PNP-Y")
        assert d.file == file
        assert d.line >= 1 and d.column >= 1
        assert d.hint
        assert "internal error" not in d.message, d


# -- positions ------------------------------------------------------------------------------


def test_nested_data_and_schema_ref():
    doc, diags = load(NESTED)
    assert diags == []
    assert doc.data == {
        "tracks": [
            {"id": "river", "steps": [1, 2, 3], "label": "Hi there"},
            {"id": "road", "meta": {"cost": 5, "tags": ["a", "b"]}},
        ]
    }
    assert doc.schema_ref == "../../schemas/tracks.schema.json"
    assert doc.kind == "tracks"
    assert doc.path.name == "tracks.yaml"


@pytest.mark.parametrize(
    "path, value_at, key_at",
    [
        ((), (2, 1), (2, 1)),
        (("tracks",), (3, 3), (2, 1)),
        (("tracks", 0), (3, 5), (3, 5)),
        (("tracks", 0, "id"), (3, 9), (3, 5)),
        (("tracks", 0, "steps"), (4, 12), (4, 5)),
        (("tracks", 0, "steps", 0), (4, 13), (4, 13)),
        (("tracks", 0, "steps", 2), (5, 13), (5, 13)),
        (("tracks", 0, "label"), (6, 12), (6, 5)),
        (("tracks", 1, "meta"), (9, 7), (8, 5)),
        (("tracks", 1, "meta", "cost"), (9, 13), (9, 7)),
        (("tracks", 1, "meta", "tags", 0), (11, 11), (11, 11)),
        (("tracks", 1, "meta", "tags", 1), (12, 13), (12, 13)),
    ],
)
def test_positions_of_keys_and_values(path, value_at, key_at):
    doc, _ = load(NESTED)
    file = "cards/demo/tracks.yaml"
    assert doc.pos(path) == Position(file, *value_at)
    assert doc.key_pos(path) == Position(file, *key_at)
    if path:
        assert doc.positions[path] == value_at


def test_pos_falls_back_to_nearest_ancestor():
    doc, _ = load(NESTED)
    assert doc.pos(["tracks", 0, "missing", 3]) == doc.pos(("tracks", 0))
    assert doc.pos(("nothing", "here")) == doc.pos(())
    assert doc.key_pos(("tracks", 0, "missing")) == doc.pos(("tracks", 0))
    assert Document(doc.path, {}).pos(("x",)) == Position(str(doc.path), 1, 1)


def test_empty_value_points_at_its_key_line():
    doc, diags = load("name:\ncost: 2\n")
    assert diags == [] and doc.data == {"name": None, "cost": 2}
    assert doc.pos(("name",)).line == 1


def test_columns_count_characters_not_bytes():
    doc, _ = load("é: ü\nnames: [Zoë, Åsa]\n")
    assert doc.positions[("names", 1)] == (2, 14)


def test_windows_line_endings_count_once():
    doc, diags = load("a: 1\r\nb:\r\n  - x\r\n  - y\r\n")
    assert diags == [] and doc.positions[("b", 1)] == (4, 5)
    assert where(load("a: 1\r\nb:\r\n\tc: 2\r\n")[1][0]) == (3, 1)
    assert where(load(b"a: 1\r\nb: \xff\r\n")[1][0]) == (2, 4)


def test_bom_is_accepted_and_does_not_shift_columns():
    doc, diags = load("\ufeff" + SCHEMA + "a: 1\n")
    assert diags == [] and doc.kind == "tracks" and doc.positions[("a",)] == (2, 4)
    doc, diags = load(("\ufeff" + SCHEMA + "a: 1\n").encode("utf-8"))
    assert diags == [] and doc.kind == "tracks" and doc.positions[("a",)] == (2, 4)


# -- YAML 1.2 scalars -----------------------------------------------------------------------


def test_card_words_stay_strings_under_yaml_1_2():
    text = "a: No\nb: On\nc: yes\nd: off\ne: Y\nf: n\ng: NO\nh: Off\n"
    doc, diags = load(text)
    assert diags == []
    assert doc.data == {"a": "No", "b": "On", "c": "yes", "d": "off", "e": "Y", "f": "n",
                        "g": "NO", "h": "Off"}  # fmt: skip


@pytest.mark.parametrize(
    "source, expected",
    [
        ("true", True),
        ("False", False),
        ("TRUE", True),
        ("'true'", "true"),
        ("!!str true", "true"),
        ("null", None),
        ("~", None),
        ("", None),
        ("12", 12),
        ("-3", -3),
        ("012", 12),
        ("0o17", 15),
        ("0x1F", 31),
        ("1.5", 1.5),
        ("1e3", 1000.0),
        ("-.inf", -math.inf),
        ("1_000", "1_000"),
        ("2001-12-14", "2001-12-14"),
        ("3:30", "3:30"),
        ("'12'", "12"),
        ("!!int '12'", 12),
        ("!!float 2", 2.0),
        ("! 12", "12"),
    ],
)
def test_scalars_resolve_like_yaml_1_2_core(source, expected):
    doc, diags = load(f"v: {source}\n")
    assert diags == []
    assert doc.data["v"] == expected
    assert type(doc.data["v"]) is type(expected)


def test_nan_is_kept_as_float():
    doc, _ = load("v: .nan\n")
    assert math.isnan(doc.data["v"])


def test_invalid_value_for_standard_tag():
    doc, diags = load("v: !!int twelve\n")
    assert codes(diags) == ["PNP-Y010"] and where(diags[0]) == (1, 4)
    assert doc.data == {"v": "twelve"}


# -- duplicate keys -------------------------------------------------------------------------


def test_duplicate_key_reported_at_second_occurrence_first_value_kept():
    doc, diags = load("name: Ford\ncost: 3\nname: Bridge\n")
    assert codes(diags) == ["PNP-Y002"]
    d = diags[0]
    assert "'name'" in d.message
    assert where(d) == (3, 1)
    assert "line 1" in d.hint
    assert doc.data == {"name": "Ford", "cost": 3}


def test_every_duplicate_in_a_file_is_reported():
    text = """\
- id: a
  cost: 1
  id: b
- id: c
  meta:
    x: 1
    y: 2
    x: 3
  id: d
"""
    doc, diags = load(text)
    assert [(d.code, d.line, d.column) for d in diags] == [
        ("PNP-Y002", 3, 3),
        ("PNP-Y002", 8, 5),
        ("PNP-Y002", 9, 3),
    ]
    assert "line 6" in diags[1].hint
    assert doc.data == [{"id": "a", "cost": 1}, {"id": "c", "meta": {"x": 1, "y": 2}}]


def test_int_and_string_spelling_of_one_key_are_duplicates():
    _, diags = load("1: a\n'1': b\n")
    assert codes(diags) == ["PNP-Y002"] and where(diags[0]) == (2, 1)


# -- tabs, encoding, control characters -----------------------------------------------------


def test_tab_indentation():
    doc, diags = load("card:\n\tname: Ford\n")
    assert doc is None
    assert codes(diags) == ["PNP-Y003"]  # no second, cryptic syntax error for the same line
    assert where(diags[0]) == (2, 1)
    assert diags[0].hint == "indent with spaces; YAML forbids tabs"


def test_tab_after_spaces_is_reported_at_the_tab():
    _, diags = load("card:\n  name: Ford\n  \tcost: 2\n")
    assert codes(diags) == ["PNP-Y003"] and where(diags[0]) == (3, 3)


def test_tab_indentation_yaml_tolerates_is_still_reported():
    doc, diags = load("steps: [1,\n\t2]\n")
    assert codes(diags) == ["PNP-Y003"] and where(diags[0]) == (2, 1)
    assert doc.data == {"steps": [1, 2]}


def test_tabs_inside_quoted_and_block_text_are_fine():
    text = "a: \"x\n\ty\"\nb: 'p\n  \tq'\nc: |\n  code:\n  \tindented\nd:\t1\n"
    doc, diags = load(text)
    assert diags == []
    assert doc.data == {"a": "x y", "b": "p q", "c": "code:\n\tindented\n", "d": 1}


def test_non_utf8_byte_position():
    raw = "a: 1\nb: 2\nname: Zoë café\n".encode().replace("é".encode(), b"\xe9")
    doc, diags = load(raw)
    assert doc is None
    assert codes(diags) == ["PNP-Y004"]
    assert where(diags[0]) == (3, 14)  # characters, so 'ë' counts once
    assert "save the file as UTF-8" in diags[0].hint


def test_utf16_file_is_rejected():
    _, diags = load("a: 1\n".encode("utf-16"))
    assert codes(diags) == ["PNP-Y004"] and "save the file as UTF-8" in diags[0].hint


def test_control_character_position():
    _, diags = load("a: 1\nb: x\x00y\n")
    assert codes(diags) == ["PNP-Y004"] and where(diags[0]) == (2, 5)
    assert "U+0000" in diags[0].message


# -- empty, multi-document, size, files -----------------------------------------------------


@pytest.mark.parametrize(
    "text", ["", b"", "\n\n  \n", "# just a comment\n   # another\n", SCHEMA, "---\n", "\ufeff"]
)
def test_empty_document(text):
    doc, diags = load(text)
    assert doc is None
    assert codes(diags) == ["PNP-Y006"]
    assert diags[0].message == "empty document"


def test_more_than_one_document():
    doc, diags = load("a: 1\n---\nb: 2\n")
    assert doc is None
    assert codes(diags) == ["PNP-Y007"] and where(diags[0]) == (2, 1)


def test_single_explicit_document_is_fine():
    doc, diags = load("---\na: 1\n...\n")
    assert diags == [] and doc.data == {"a": 1}


def test_size_limit_reports_size_and_limit_without_parsing():
    text = "a: [unclosed\n" * 10
    doc, diags = load(text, max_bytes=100)
    assert doc is None
    assert codes(diags) == ["PNP-Y008"]
    assert "130" in diags[0].message and "100" in diags[0].message
    assert load("a: 1\n", max_bytes=5)[1] == []
    assert MAX_BYTES == 4 * 1024 * 1024


def test_load_file_checks_size_before_reading(tmp_path, monkeypatch):
    path = tmp_path / "big.yaml"
    path.write_text("a: 1\n" * 100)

    def no_read(self):
        raise AssertionError("read a file that is over the limit")

    monkeypatch.setattr(type(path), "read_bytes", no_read)
    doc, diags = load_file(path, max_bytes=100)
    assert doc is None and codes(diags) == ["PNP-Y008"] and diags[0].file == str(path)


def test_load_file(tmp_path):
    path = tmp_path / "tracks.yaml"
    path.write_text(SCHEMA + "a: [1, 2]\n", encoding="utf-8")
    doc, diags = load_file(str(path))
    assert diags == []
    assert doc.path == path and doc.data == {"a": [1, 2]} and doc.kind == "tracks"
    assert doc.pos(("a", 1)) == Position(str(path), 2, 8)


@pytest.mark.parametrize("name", ["missing.yaml", "."])
def test_load_file_unreadable(tmp_path, name):
    path = tmp_path / name
    doc, diags = load_file(path)
    assert doc is None
    assert codes(diags) == ["PNP-Y009"]
    assert diags[0].file == str(path) and where(diags[0]) == (1, 1) and diags[0].hint


# -- aliases, merges, limits ----------------------------------------------------------------

BILLION_LAUGHS = "a: &a [lol,lol,lol,lol,lol,lol,lol,lol,lol]\n" + "".join(
    f"{c}: &{c} [{','.join(['*' + p] * 9)}]\n" for p, c in zip("abcdefgh", "bcdefghi", strict=True)
)


def test_billion_laughs_is_stopped_quickly():
    start = time.perf_counter()
    doc, diags = load(BILLION_LAUGHS)
    assert time.perf_counter() - start < 1.0
    assert doc is None
    assert codes(diags) == ["PNP-Y005"]
    assert "alias expansion too large" in diags[0].message
    assert MAX_NODES == 2_000_000


def test_node_cap_counts_expansions(monkeypatch):
    monkeypatch.setattr(loader, "MAX_NODES", 50)
    text = "a: &a [1, 2, 3, 4, 5, 6, 7, 8, 9]\nb: [*a, *a, *a, *a, *a]\n"
    assert codes(load(text)[1]) == ["PNP-Y005"]
    assert load("a: &a [1, 2, 3, 4, 5, 6, 7, 8, 9]\nb: [*a, *a, *a]\n")[1] == []


def test_recursive_alias_is_rejected():
    doc, diags = load("a: &loop [1, *loop]\n")
    assert doc is None and codes(diags) == ["PNP-Y005"] and where(diags[0]) == (1, 14)


def test_deep_nesting_is_rejected_without_crashing():
    # libyaml's composer recurses in C: this input used to crash the interpreter.
    start = time.perf_counter()
    doc, diags = load("[" * 100_000 + "]" * 100_000)
    assert time.perf_counter() - start < 2.0
    assert doc is None and codes(diags) == ["PNP-Y005"]


def test_aliases_are_copies_with_positions():
    text = "base: &b {cost: 1, tags: [x]}\nfirst: *b\n"
    doc, diags = load(text)
    assert diags == [] and doc.data["first"] == {"cost": 1, "tags": ["x"]}
    doc.data["first"]["tags"].append("y")
    assert doc.data["base"]["tags"] == ["x"]
    assert doc.positions[("first",)] == (2, 8)  # where the alias is written
    assert doc.positions[("first", "cost")] == (1, 17)  # where the value is written


def test_undefined_alias():
    doc, diags = load("a: 1\nb: *nothing\n")
    assert codes(diags) == ["PNP-Y001"] and where(diags[0]) == (2, 4)
    assert doc.data == {"a": 1, "b": None}


def test_merge_keys_explicit_keys_win():
    text = """\
defaults: &d {cost: 1, type: unit, side: front}
extra: &e {type: event, rare: true}
card:
  <<: [*d, *e]
  cost: 4
"""
    doc, diags = load(text)
    assert diags == []
    assert doc.data["card"] == {"cost": 4, "type": "unit", "side": "front", "rare": True}
    assert doc.positions[("card", "cost")] == (5, 9)
    assert doc.positions[("card", "side")] == (1, 42)
    assert doc.key_positions[("card", "rare")] == (2, 25)


def test_merge_of_a_scalar_is_an_error():
    doc, diags = load("card:\n  <<: 3\n  cost: 1\n")
    assert codes(diags) == ["PNP-Y012"] and where(diags[0]) == (2, 7)
    assert doc.data == {"card": {"cost": 1}}


def test_quoted_merge_key_is_plain_text():
    doc, diags = load("'<<': 1\n")
    assert diags == [] and doc.data == {"<<": 1}


# -- tags and keys --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, at",
    [
        ("cmd: !!python/object/apply:os.system ['echo pwned']\n", (1, 6)),
        ("x: !!python/name:os.system\n", (1, 4)),
        ("card: !custom {a: 1}\n", (1, 7)),
        ("x: !!binary aGk=\n", (1, 4)),
    ],
)
def test_unsafe_or_unknown_tags_are_rejected(text, at):
    doc, diags = load(text)
    assert codes(diags) == ["PNP-Y010"] and where(diags[0]) == at
    assert_well_formed(diags)


def test_non_string_keys():
    doc, diags = load("? [1, 2]\n: list\n? {a: 1}\n: map\n3: three\ntrue: word\n")
    assert [(d.code, d.line, d.column) for d in diags] == [
        ("PNP-Y011", 1, 3),
        ("PNP-Y011", 3, 3),
    ]
    assert doc.data == {3: "three", "true": "word"}


# -- syntax errors --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, at, hint_words",
    [
        ("name: Ford\ntext: Pay 2: draw a card\n", (2, 12), "quotes"),
        ("a:\n  b: 1\n c: 2\n", (3, 2), "indentation"),
        ("steps: [1, 2\ncost: 3\n", (1, 8), "list"),
        ('text: "unclosed\ncost: 3\n', (1, 7), "quote"),
        ("text: @player\n", (1, 7), "quotes"),
    ],
)
def test_syntax_errors(text, at, hint_words):
    doc, diags = load(text)
    assert doc is None
    assert codes(diags) == ["PNP-Y001"]
    assert where(diags[0]) == at
    assert hint_words in diags[0].hint
    assert_well_formed(diags)


# -- schema line ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "ref, kind",
    [
        ("../../schemas/tracks.schema.json", "tracks"),
        ("https://example.org/schemas/cards.schema.json#/defs", "cards"),
        ("../../schemas/board.json", "board"),
        ("rules.schema.yaml", "rules"),
    ],
)
def test_kind_from_schema_line(ref, kind):
    doc, _ = load(f"# yaml-language-server: $schema={ref}\na: 1\n")
    assert doc.schema_ref == ref and doc.kind == kind


def test_no_schema_line_is_not_the_loaders_business():
    doc, diags = load("a: 1\n# yaml-language-server: $schema=x.schema.json\n")
    assert diags == [] and doc.schema_ref is None and doc.kind is None


def test_schema_line_regex():
    m = SCHEMA_LINE_RE.match("# yaml-language-server: $schema=../../schemas/x.schema.json")
    assert m and m.group("ref") == "../../schemas/x.schema.json"
    assert not SCHEMA_LINE_RE.match("# a comment")


# -- the pure-Python fallback behaves the same ---------------------------------------------


@pytest.mark.parametrize(
    "text, expected_codes",
    [
        (NESTED, []),
        ("a: 1\na: 2\n", ["PNP-Y002"]),
        ("a:\n\tb: 1\n", ["PNP-Y003"]),
        ("a: b: c\n", ["PNP-Y001"]),
        (BILLION_LAUGHS, ["PNP-Y005"]),
        ("[" * 1000, ["PNP-Y005"]),
        ("a: 1\n---\nb: 2\n", ["PNP-Y007"]),
    ],
)
def test_pure_python_parser(monkeypatch, text, expected_codes):
    c_doc, c_diags = load(text)
    monkeypatch.setattr(loader, "_Loader", yaml.SafeLoader)
    doc, diags = load(text)
    assert codes(diags) == codes(c_diags) == expected_codes
    if doc is not None:
        assert doc.data == c_doc.data and doc.positions == c_doc.positions


# -- nothing ever raises --------------------------------------------------------------------

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
YAMLISH = st.text(
    alphabet=" \t\n\r-:?,[]{}&*!|>'\"#%@`~.<=0123456789abcxyéü\x00\ufeff", max_size=80
)


@FUZZ
@given(st.one_of(st.text(max_size=200), YAMLISH))
def test_any_text_gives_diagnostics_not_exceptions(text):
    doc, diags = load(text)
    assert_well_formed(diags)
    assert doc is not None or diags


@FUZZ
@given(st.binary(max_size=200))
def test_any_bytes_give_diagnostics_not_exceptions(raw):
    doc, diags = load(raw)
    assert_well_formed(diags)
    assert doc is not None or diags


WORD = (
    st.text(alphabet=string.ascii_letters + " ", min_size=1, max_size=8).map(str.strip).filter(bool)
)
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-(10**6), 10**6), WORD)
DATA = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(WORD, inner, max_size=4),
    max_leaves=20,
)


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, (*path, i))


@settings(max_examples=150, deadline=None)
@given(DATA.filter(lambda d: d is not None), st.booleans())
def test_round_trip_keeps_data_and_positions_every_value(data, flow):
    text = yaml.safe_dump(data, default_flow_style=flow, allow_unicode=True)
    doc, diags = load(text)
    assert diags == []
    assert doc.data == data
    lines = text.splitlines()
    for path in _paths(data):
        line, col = doc.positions[path]
        assert 1 <= line <= len(lines) and 1 <= col <= len(lines[line - 1]) + 1
        if path and isinstance(path[-1], str):
            kline, kcol = doc.key_positions[path]
            assert lines[kline - 1][kcol - 1 :].lstrip("'\"").startswith(path[-1])
