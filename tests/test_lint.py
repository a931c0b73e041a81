"""Cross-reference checks on small games written for each case."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.data.game import load_game
from pnp.paths import SCHEMAS

S = SCHEMAS.resolve()

BASE = {
    "game.yaml": """id: mini
name: Mini
players: {min: 2, max: 4}
components:
  - {id: tracks, name: Tracks, count: 1, counts: tracks}
phases:
  - {id: move, name: Move Phase, track: road}
  - {id: fight, name: Fight Phase, chart: battle}
""",
    "stats.yaml": """stats:
  - {id: gold, name: Gold, abbreviation: G}
  - {id: food, name: Food, abbreviation: F, aliases: [Grain]}
""",
    "tracks.yaml": """tracks:
  - id: road
    name: Road
    spaces:
      - {name: Home, start: true}
      - {name: Farm, effect: F+1}
      - {name: Mine, effect: G+1}
""",
    "charts.yaml": """charts:
  - id: battle
    name: Battle
    die: 1D6
    rows:
      - {roll: [1, 3], effect: G-1}
      - {roll: [4, 6], effect: F+1}
""",
}


def make_game(tmp_path: Path, name: str = "mini", **changes: str) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    files = {**BASE, **{k.replace("_", "-").replace("-yaml", ".yaml"): v for k, v in changes.items()}}
    for file, body in files.items():
        if body is None:
            continue
        kind = {"game.yaml": "game"}.get(file, file.split(".")[0].rstrip("0123456789-"))
        (folder / file).write_text(f"# yaml-language-server: $schema={S}/{kind}.schema.json\n{body}")
    return folder


# Expected lines below count the schema line that make_game writes first.
def codes(folder: Path, variant: str | None = None) -> list[tuple[str, str, int]]:
    result = load_game(folder, variant)
    return [(d.code, Path(d.file).name, d.line) for d in result.diagnostics]


def test_the_mini_game_is_clean(tmp_path):
    assert codes(make_game(tmp_path)) == []


def test_duplicate_track_id_across_files(tmp_path):
    folder = make_game(tmp_path)
    (folder / "tracks2.yaml").write_text(
        f"# yaml-language-server: $schema={S}/tracks.schema.json\n" + BASE["tracks.yaml"])
    assert ("PNP-L002", "tracks2.yaml", 3) in codes(folder)


def test_phase_naming_a_missing_chart(tmp_path):
    game = BASE["game.yaml"].replace("chart: battle", "chart: batle")
    found = codes(make_game(tmp_path, game_yaml=game))
    assert ("PNP-L003", "game.yaml", 9) in found


def test_unknown_stat_in_an_effect_via_alias_is_fine_but_typo_is_not(tmp_path):
    tracks = BASE["tracks.yaml"].replace("effect: F+1", "effect: Grain+1").replace("G+1", "Glod+1")
    found = codes(make_game(tmp_path, tracks_yaml=tracks))
    assert found == [("PNP-E002", "tracks.yaml", 8)]


def test_declared_count_differs_from_data_is_a_warning(tmp_path):
    game = BASE["game.yaml"].replace("count: 1, counts", "count: 3, counts")
    result = load_game(make_game(tmp_path, game_yaml=game))
    assert result.ok
    assert [(d.severity, d.code) for d in result.diagnostics] == [("warning", "PNP-L004")]


def test_unused_chart_and_stat_are_warnings(tmp_path):
    stats = BASE["stats.yaml"] + "  - {id: faith, name: Faith}\n"
    charts = BASE["charts.yaml"] + BASE["charts.yaml"].replace("charts:\n", "").replace("battle", "omen")
    found = codes(make_game(tmp_path, stats_yaml=stats, charts_yaml=charts))
    assert ("PNP-L005", "stats.yaml", 5) in found
    assert ("PNP-L005", "charts.yaml", 9) in found


def test_one_spelling_for_two_stats_is_an_error(tmp_path):
    stats = BASE["stats.yaml"].replace("aliases: [Grain]", "aliases: [G]")
    assert ("PNP-L006", "stats.yaml", 4) in codes(make_game(tmp_path, stats_yaml=stats))


def test_game_id_must_match_the_folder(tmp_path):
    assert ("PNP-L007", "game.yaml", 2) in codes(make_game(tmp_path, name="other"))


def test_chart_rows_must_cover_the_die_once(tmp_path):
    charts = BASE["charts.yaml"].replace("roll: [4, 6]", "roll: [3, 5]")
    found = load_game(make_game(tmp_path, charts_yaml=charts)).diagnostics
    assert found[0].code == "PNP-L014" and "missing [6]" in found[0].message and "twice [3]" in found[0].message


def test_track_needs_exactly_one_start(tmp_path):
    tracks = BASE["tracks.yaml"].replace("{name: Home, start: true}", "{name: Home}")
    assert ("PNP-L013", "tracks.yaml", 6) in codes(make_game(tmp_path, tracks_yaml=tracks))


def test_missing_schema_line(tmp_path):
    folder = make_game(tmp_path)
    (folder / "extra.yaml").write_text("tracks: []\n")
    assert ("PNP-L001", "extra.yaml", 1) in codes(folder)


def test_variant_with_a_path_that_matches_nothing(tmp_path):
    game = BASE["game.yaml"] + "variants:\n  - id: rich\n    overrides:\n      tracks/road/spaces/mime/effect: G+2\n"
    assert ("PNP-L015", "game.yaml", 13) in codes(make_game(tmp_path, game_yaml=game))  # the override line


def test_variant_overrides_the_data(tmp_path):
    game = BASE["game.yaml"] + "variants:\n  - id: rich\n    overrides:\n      tracks/road/spaces/mine/effect: G+2\n"
    folder = make_game(tmp_path, game_yaml=game)
    mine = load_game(folder, "rich").game.tracks["road"].space("mine")
    assert mine.effect.choices[0][0].amount.const == 2


@pytest.mark.parametrize("missing", ["game.yaml"])
def test_a_folder_without_a_manifest(tmp_path, missing):
    folder = make_game(tmp_path, game_yaml=None)
    assert codes(folder)[0][0] == "PNP-L012"


def test_deck_naming_an_unknown_layout(tmp_path):
    folder = make_game(tmp_path)
    (folder / "deck.yaml").write_text(
        f"# yaml-language-server: $schema={S}/deck.schema.json\n"
        "decks:\n  - id: d\n    name: D\n    front: poker-frnt\n    cards: [{id: a, name: A}]\n")
    result = load_game(folder)
    diag = next(d for d in result.diagnostics if d.code == "PNP-L003")
    assert "poker-frnt" in diag.message and "did you mean poker-front" in diag.hint


def test_a_variants_build_skips_only_the_checks_that_cannot_error(tmp_path):
    """Validate builds every variant for the errors it brings and drops its warnings, so the
    variant builds skip the warning-only checks (unused definitions, unread rules keys);
    those checks never give an error, and a variant's lint errors are still found."""
    from pnp.data import lint
    from pnp.data.game import load_game_and_documents, variant_problems

    stats = BASE["stats.yaml"] + "  - {id: faith, name: Faith, cap: 5}\n"  # unused: PNP-L005
    game = BASE["game.yaml"] + ("rules:\n  nobody_reads_this: 3\n"  # unread rules key
                                "variants:\n  - id: zealots\n    overrides:\n"
                                "      stats/faith/start: 9\n")  # above its cap: PNP-L017
    folder = make_game(tmp_path, stats_yaml=stats, game_yaml=game.replace(
        "players:", "engine: rules.py\nplayers:"))
    (folder / "rules.py").write_text('"""Reads nothing."""\n', encoding="utf-8")
    result, docs = load_game_and_documents(folder)
    skipped = [*lint._unused(result.game), *lint.unread_rules_keys(result.game, docs)]
    assert {d.code for d in skipped} == {"PNP-L005", "PNP-L041"}
    assert {d.severity for d in skipped} == {"warning"}
    full = lint.lint_game(result.game, docs)
    assert lint.lint_game(result.game, docs, errors_only=True) == [
        d for d in full if d not in skipped]
    (found,) = variant_problems(folder, result, docs)
    assert (found.code, Path(found.file).name, found.line) == ("PNP-L017", "stats.yaml", 5)
    assert found.message.startswith("variant zealots: stat 'faith' starts at 9")


def test_variant_builds_leave_the_documents_as_read():
    """A variant build copies only the documents its overrides write into and reads the
    others in place: after building every variant of every bundled game, the documents are
    as they were read (nothing in a build or its lint writes into data)."""
    from pnp.data.game import bundled_games, copy_data, load_game_and_documents, variant_problems

    for folder in bundled_games():
        result, docs = load_game_and_documents(folder)
        before = [copy_data(d.data) for d in docs]
        variant_problems(folder, result, docs)
        assert [d.data for d in docs] == before, folder.name
        assert all(not d.redirects for d in docs), folder.name
