"""The registry of component kinds (pnp/render/kinds.py) drives validate, build and render:
a kind registered there is checked and rendered without another list to edit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.diagnostics import ERROR, WARNING, Diagnostic
from pnp.render import kinds
from pnp.render.build import build_game
from pnp.render.preflight import preflight


class FakeKind:
    """Stickers: one file, one warning; `error` makes its preflight find an error."""

    name = "stickers"

    def __init__(self, applies: bool = True, error: bool = False):
        self._applies, self.error = applies, error
        self.calls: list[str] = []

    def applies(self, game) -> bool:
        return self._applies

    def preflight(self, game, paper_size) -> list[Diagnostic]:
        self.calls.append("preflight")
        return [Diagnostic(ERROR if self.error else WARNING, "PNP-R999",
                           f"stickers checked on {paper_size[0]:.0f}pt wide paper")]

    def render(self, game, out_dir, paper, **options):
        self.calls.append(f"render {paper}")
        path = Path(out_dir) / "stickers.pdf"
        path.write_bytes(b"%PDF stickers")
        return [path], []

    def output_names(self, game, paper) -> list[str]:
        return ["stickers.pdf"]


@pytest.fixture
def only_stickers(monkeypatch) -> FakeKind:
    """The registry holding the fake kind alone, so no real renderer runs."""
    fake = FakeKind()
    monkeypatch.setattr(kinds, "REGISTRY", {fake.name: fake})
    return fake


def test_the_registry_holds_the_eleven_kinds_in_build_order():
    assert kinds.kind_names() == ["record", "board", "map", "tokens", "supplies", "cards",
                                  "symbols", "rulesheet", "aid", "guide", "overlay"]
    assert [k.name for k in kinds.renderers() if not kinds.in_kit(k)] == ["overlay"]


def test_build_renders_exactly_the_registered_kinds_in_order(ac, tmp_path, monkeypatch):
    called = []
    for kind in kinds.renderers():
        monkeypatch.setattr(kind, "preflight", lambda game, size: [])
        monkeypatch.setattr(kind, "render", lambda game, out, paper, name=kind.name, **o:
                            (called.append(name), ([], []))[1])
    paths, diags = build_game(ac, tmp_path / "kit", "a4")
    assert diags == []
    # Ancient Civilizations has every kind but a map, printed supplies and a player aid (its
    # symbol key lists the short forms its pieces print instead of icons); the fit overlay is
    # a check, never in a kit
    assert called == [k for k in kinds.kind_names()
                      if k not in ("map", "supplies", "aid", "overlay")]


def test_a_registered_kind_is_preflighted_by_validate(only_stickers):
    result = CliRunner().invoke(main, ["validate", "ancient-civilizations", "--format", "json",
                                       "--paper", "letter"])
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)["diagnostics"]
    assert [d["message"] for d in found if d["code"] == "PNP-R999"] == [
        "stickers checked on 612pt wide paper"]


def test_a_registered_kind_is_preflighted_and_rendered_by_build(ac, only_stickers, tmp_path):
    paths, diags = build_game(ac, tmp_path / "kit", "letter")
    assert [p.name for p in paths] == ["stickers.pdf"]
    assert sorted(p.name for p in (tmp_path / "kit").iterdir()) == [".pnp-kit", "stickers.pdf"]
    assert [d.code for d in diags] == ["PNP-R999"]
    assert only_stickers.calls == ["preflight", "render letter"]


def test_an_error_in_a_kinds_preflight_stops_the_build_before_any_file(ac, only_stickers,
                                                                     tmp_path):
    only_stickers.error = True
    paths, diags = build_game(ac, tmp_path / "kit", "a4")
    assert paths == [] and [d.code for d in diags] == ["PNP-R999"]
    assert not (tmp_path / "kit").exists()
    assert only_stickers.calls == ["preflight"]


def test_a_kind_the_game_does_not_have_is_neither_checked_nor_rendered(ac, monkeypatch,
                                                                      tmp_path):
    fake = FakeKind(applies=False)
    monkeypatch.setattr(kinds, "REGISTRY", {fake.name: fake})
    assert preflight(ac, "a4") == []
    assert build_game(ac, tmp_path / "kit", "a4") == ([], [])
    assert fake.calls == []


def test_render_calls_the_registered_renderer_with_its_kinds_options(monkeypatch, tmp_path):
    seen = {}

    def spy(game, out_dir, paper, **options):
        seen.update(options, paper=paper)
        return [], []

    monkeypatch.setattr(kinds.renderer("board"), "render", spy)
    result = CliRunner().invoke(main, ["render", "board", "ancient-civilizations", "--paper",
                                       "letter", "--no-whole", "--out", str(tmp_path / "o")])
    assert result.exit_code == 0, result.output
    assert seen == {"paper": "letter", "board_id": None, "tiled": True, "whole": False}
