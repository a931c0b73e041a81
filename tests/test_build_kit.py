"""The Ancient Civilizations print kit: `pnp build` writes every component, deterministically."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from pnp.render import records
from pnp.render.build import PLAYER_COLOURS, build_game

KIT = {
    "record-page.pdf", "record-page-fillable.pdf", "board-a4-tiled.pdf", "board-a2.pdf",
    "tokens.pdf", "cards-chart-cards.pdf", "symbol-key.pdf", "rulesheet.pdf", "print-guide.pdf",
    "print-all.pdf",
}
PLAYERS, PAWNS_EACH = 6, 12


@pytest.fixture(scope="module")
def kit(tmp_path_factory, ac) -> Path:
    folder = tmp_path_factory.mktemp("kit") / "ancient-civilizations"
    ticks = []
    paths, diags = build_game(ac, folder, "a4", progress=lambda i, n: ticks.append((i, n)))
    assert not [d for d in diags if d.is_error], diags
    assert {p.name for p in paths} == KIT
    # record sheets, boards, tokens, cards, the symbol key (of its short forms), rulesheet, guide
    assert ticks[-1][0] == ticks[-1][1] == 7
    return folder


def promised(game, paper: str) -> set[str]:
    """The files every registered kind of the kit the game has says it writes (a check such
    as the fit overlay is no part of the kit)."""
    from pnp.render.kinds import in_kit, renderers

    return {n for kind in renderers() if in_kit(kind) and kind.applies(game)
            for n in kind.output_names(game, paper)}


def test_the_kinds_name_the_files_the_build_writes(ac):
    assert promised(ac, "a4") == KIT
    assert promised(ac, "letter") == KIT - {"board-a4-tiled.pdf"} | {"board-letter-tiled.pdf"}


def test_the_kit_folder_holds_exactly_the_kit(kit):
    # no temporary files left behind; the marker says pnp wrote the folder (kit_folder.py)
    assert {p.name for p in kit.iterdir()} == KIT | {".pnp-kit"}


def test_every_pdf_in_the_kit_embeds_its_fonts(kit):
    for name in sorted(KIT):
        reader = PdfReader(kit / name)
        for page in reader.pages:
            for font in page["/Resources"].get("/Font", {}).values():
                assert "/FontFile2" in font.get_object()["/FontDescriptor"], (name, font)


def test_pawns_for_six_players_twelve_each_in_distinct_colours(kit):
    with pdfplumber.open(kit / "tokens.pdf") as pdf:
        words = [w["text"] for page in pdf.pages for w in page.extract_words()]
    for player in range(1, PLAYERS + 1):
        assert words.count(f"P{player}") == PAWNS_EACH
    colours = [hex_ for _, hex_ in PLAYER_COLOURS[:PLAYERS]]
    assert len(set(colours)) == PLAYERS


def test_chart_reference_cards_carry_every_chart(kit, ac):
    text = PdfReader(kit / "cards-chart-cards.pdf").pages[0].extract_text()
    for chart in ac.charts.values():
        if not chart.footnote:
            assert chart.name.split()[0] in text  # long titles wrap
            for row in chart.rows:
                if row.label:
                    assert row.label in text


def test_building_twice_gives_identical_bytes(kit, ac, tmp_path):
    build_game(ac, tmp_path, "a4")
    for name in KIT:
        assert (tmp_path / name).read_bytes() == (kit / name).read_bytes(), name


def test_a_failed_build_leaves_the_previous_kit(ac, tmp_path, monkeypatch):
    build_game(ac, tmp_path, "a4")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    # an error found in the data: reported, nothing written
    paths, diags = build_game(ac, tmp_path, "a9")
    assert paths == [] and any(d.is_error for d in diags)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before

    # a crash half-way through drawing: the file being drawn is not touched either
    def broken(*args, **kwargs):
        raise RuntimeError("drawing failed half-way")

    monkeypatch.setattr(records, "draw_sheet", broken)
    with pytest.raises(RuntimeError):
        build_game(ac, tmp_path, "a4")
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_letter_kit_tiles_the_board_on_letter(ac, tmp_path):
    paths, diags = build_game(ac, tmp_path, "letter")
    assert {p.name for p in paths} == promised(ac, "letter")
    assert "board-letter-tiled.pdf" in {p.name for p in paths}
    page = PdfReader(tmp_path / "record-page.pdf").pages[0]
    assert {round(float(page.mediabox.width)), round(float(page.mediabox.height))} == {612, 792}


def test_render_command_writes_one_kind(tmp_path):
    from pnp.commands.render import command

    result = CliRunner().invoke(command, ["record", "ancient-civilizations", "--out",
                                          str(tmp_path), "--no-fillable"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == [".pnp-kit", "record-page.pdf"]
    assert str(tmp_path / "record-page.pdf") in result.output


def test_render_command_refuses_an_option_of_another_kind(tmp_path):
    from pnp.commands.render import command

    result = CliRunner().invoke(command, ["board", "ancient-civilizations", "--duplex", "long",
                                          "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "--duplex" in result.output


def test_render_command_refuses_an_unknown_paper_as_a_usage_error(tmp_path):
    """Like `pnp build`: exit 2, said once, nothing written."""
    from pnp.commands.render import command

    result = CliRunner().invoke(command, ["board", "ancient-civilizations", "--paper", "a9",
                                          "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert not list(tmp_path.iterdir())


def test_card_exports_keep_the_kit_names(ac, tmp_path):
    """A deck's PNG folder is named like its PDF: cards-<deck>-png/<deck>/<card>.png, and
    nothing else is left in the folder."""
    pytest.importorskip("pypdfium2", reason="PNG export needs pypdfium2")
    from pnp.render.kinds import renderer

    paths, diags = renderer("cards").render(ac, tmp_path, "a4", png=True)
    assert not [d for d in diags if d.is_error]
    assert all(p.exists() for p in paths)
    pngs = sorted(p.name for p in (tmp_path / "cards-chart-cards-png" / "chart-cards").iterdir())
    charts = ("city", "conquest", "defeat", "conversion", "civil-war")
    # the five share one back: written once for the deck
    assert pngs == sorted([f"{c}.png" for c in charts] + ["back.png"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cards-chart-cards-png",
                                                          "cards-chart-cards.pdf"]


def test_the_common_counters_mark_every_pre_history_space_after_the_start(kit, ac):
    # the pregame puts a marker on each Pre-History space but Dawn of Time (22 of 23); the
    # same markers then go on built wonders (12 on the Wonders track)
    spaces = len(ac.tracks["pre-history"].spaces) - 1
    assert spaces == 22 and len(ac.tracks["wonders"].spaces) - 1 <= spaces
    with pdfplumber.open(kit / "tokens.pdf") as pdf:
        text = " ".join(page.extract_text() or "" for page in pdf.pages)
    assert f"Common counters × {spaces}" in text
