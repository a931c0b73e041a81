"""The CLI contract for list/validate/show, and the edits a designer makes by mistake."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp import __version__
from pnp.cli import main
from pnp.paths import CARDS


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture
def game_copy(tmp_path: Path) -> Path:
    """A copy of Ancient Civilizations with schema lines still pointing at this checkout."""
    dest = tmp_path / "ancient-civilizations"
    shutil.copytree(CARDS / "ancient-civilizations", dest)
    schemas = (CARDS.parent / "schemas").resolve()
    for f in dest.rglob("*.yaml"):
        text = f.read_text(encoding="utf-8")
        f.write_text(re.sub(r"(\.\./)+schemas", str(schemas), text, count=1), encoding="utf-8")
    return dest


def edit(path: Path, old: str, new: str) -> int:
    """Replace the first `old` in the file; returns the 1-based line of the edit."""
    text = path.read_text(encoding="utf-8")
    at = text.index(old)
    path.write_text(text[:at] + new + text[at + len(old):], encoding="utf-8")
    return text[:at].count("\n") + 1


def test_version():
    assert run("--version").output.strip() == f"pnp, version {__version__}"


def test_list_names_the_bundled_games():
    assert "ancient-civilizations" in run("list").output.split()


def test_validate_bundled_games_is_clean():
    result = run("validate", "--strict")
    assert result.exit_code == 0, result.output


def test_validate_json_is_a_stable_document():
    result = run("validate", "ancient-civilizations", "--format", "json")
    doc = json.loads(result.output)
    assert doc["schema_version"] == 1 and doc["ok"] is True and doc["diagnostics"] == []
    assert doc["games"][0]["checked"]["tracks"] == 13


def test_unknown_game_is_a_usage_error():
    result = run("validate", "ancient-civilisations")
    assert result.exit_code == 2
    assert "did you mean ancient-civilizations" in result.output


@pytest.mark.parametrize(
    "file, old, new, code",
    [
        ("tracks.yaml", 'effect: "F+1"}', 'effect: "Fod+1"}', "PNP-E002"),  # unknown stat
        ("stats.yaml", "    abbreviation: VP\n", "    abbreviation: VP\n    abbreviation: V\n", "PNP-Y002"),
        ("charts.yaml", "die: 1D6\n", "die: [1D6\n", "PNP-Y001"),  # broken YAML syntax
        ("tables.yaml", "{cost: 2, buys", '{cost: "two", buys', "PNP-S004"),  # string for a number
        ("game.yaml", "track: leader}", "track: leaders}", "PNP-L003"),  # unknown track
        ("game.yaml", "chart: city,", "chart: cty,", "PNP-L003"),  # unknown chart
        ("game.yaml", '"roll conquest M-1D6"', '"roll conquests M-1D6"', "PNP-E003"),
    ],
)
def test_a_broken_edit_names_the_file_and_line(game_copy, file, old, new, code):
    line = edit(game_copy / file, old, new)
    if old.endswith("\n") and new.count("\n") > old.count("\n"):
        line += 1  # the duplicate is the added line
    result = run("validate", str(game_copy))
    assert result.exit_code == 1
    assert re.search(rf"{re.escape(file)}:{line}:\d+: error {code}", result.output), result.output


def test_did_you_mean_for_an_unknown_stat(game_copy):
    edit(game_copy / "tracks.yaml", 'effect: "F+1"}', 'effect: "Fod+1"}')
    result = run("validate", str(game_copy), "--format", "json")
    diag = json.loads(result.output)["diagnostics"][0]
    assert "did you mean" in diag["message"] and "F" in diag["message"]


def test_warnings_fail_only_with_strict(game_copy):
    edit(game_copy / "game.yaml", "count: 13, counts: tracks", "count: 14, counts: tracks")
    assert run("validate", str(game_copy)).exit_code == 0
    strict = run("validate", str(game_copy), "--strict")
    assert strict.exit_code == 1 and "PNP-L004" in strict.output


def test_show_prints_the_whole_resolved_game():
    result = run("show", "ancient-civilizations", "--format", "json")
    assert result.exit_code == 0
    doc = json.loads(result.output)
    assert doc["schema_version"] == 1
    assert len(doc["tracks"]) == 13 and len(doc["phases"]) == 16 and len(doc["stats"]) == 14
    arch = next(s for s in doc["tracks"]["pre-history"]["spaces"] if s["name"] == "The Arch")
    assert arch["effect"]["source"] == "I+1" and arch["effect"]["canonical"] == "Infra+1"
    assert arch["origin"].startswith("cards/ancient-civilizations/tracks.yaml:")


def test_show_yaml_and_variant():
    result = run("show", "ancient-civilizations", "--format", "yaml", "--variant", "arch-ideas")
    assert result.exit_code == 0 and "canonical: Idea+1" in result.output


def test_show_unknown_variant_fails_with_hint():
    result = run("show", "ancient-civilizations", "--variant", "arch-idea")
    assert result.exit_code == 1 and "did you mean arch-ideas" in result.output


def test_a_variant_that_breaks_only_when_applied_fails_validate(game_copy):
    """An override that is valid YAML and valid schema but names an unknown stat breaks only
    when the variant is built: validate builds every variant and reports it at the
    override's line, named after the variant, so `--variant` can never fail after a clean
    validate."""
    line = edit(game_copy / "game.yaml", 'the-arch/effect: "Idea+1"', 'the-arch/effect: "Bogus+1"')
    result = run("validate", str(game_copy))
    assert result.exit_code == 1
    assert re.search(rf"game.yaml:{line}:\d+: error PNP-E002: variant arch-ideas: unknown stat "
                     r"'Bogus'", result.output), result.output
    assert run("show", str(game_copy), "--variant", "arch-ideas").exit_code == 1



@pytest.mark.parametrize("override", ['tracks/pre-history/spaces/the-arch/effect: "Bogus+1"',
                                      'charts/defeat/rows/3/effect: "Bogus+1"'])
def test_a_later_variant_that_breaks_a_track_or_chart_has_it_built_afresh(game_copy, override):
    """The variant builds reuse a track or chart built for an earlier variant only while no
    override reaches it: the sixth variant's override of an effect is built and its error
    found, though five builds before it made the same track or chart from the same data."""
    line = edit(game_copy / "game.yaml", "tracks/pre-history/shape: loop", override)
    result = run("validate", str(game_copy))
    assert result.exit_code == 1
    assert re.search(rf"game.yaml:{line}:\d+: error PNP-E002: variant pre-history-wraps: "
                     r"unknown stat 'Bogus'", result.output), result.output


def test_a_track_an_override_reaches_is_not_reused_even_with_the_same_data():
    """A track is reused between variant builds only at the same source positions: an
    override that writes a space's own value again moves that value to the override's line,
    where an error in it would be reported."""
    from pnp.data.build import Builder
    from pnp.data.game import _fresh, read_game
    from pnp.data.shared_builds import SharedBuilds

    _, docs = read_game(CARDS / "ancient-civilizations")
    shared = SharedBuilds()
    Builder(CARDS / "ancient-civilizations", [_fresh(d) for d in docs], None, shared).build()
    again = [_fresh(d) for d in docs]
    tracks = next(d for d in again if d.kind == "tracks")
    builder = Builder(CARDS / "ancient-civilizations", again, None, shared)
    builder.build()
    path, raw = ("tracks", 0), tracks.data["tracks"][0]
    assert shared.part(tracks, path, raw, builder.names) is not None
    tracks.redirects[("tracks", 0, "spaces", 1, "effect")] = tracks.pos(("tracks",))
    assert shared.part(tracks, path, raw, builder.names) is None


def test_a_variant_that_renames_a_stat_breaks_the_base_effects_that_spell_it(game_copy):
    """Validate parses each effect text once for all variants that share the same names; a
    variant that renames a stat changes the names, so the base game's effects that spell the
    old abbreviation are parsed again for it, and fail, even after other variants parsed them."""
    edit(game_copy / "game.yaml", "  - id: negative-military\n",
         "  - id: thoughts\n    interpretation: arch\n    overrides:\n"
         "      stats/ideas/abbreviation: Thought\n  - id: negative-military\n")
    assert run("show", str(game_copy), "--variant", "arch-ideas").exit_code == 0
    result = run("validate", str(game_copy))
    assert result.exit_code == 1
    assert re.search(r"game.yaml:54:\d+: error PNP-E002: variant thoughts: unknown stat 'Idea'",
                     result.output), result.output
    assert "variant arch-ideas" not in result.output
