"""Die nets fold into a closed cube: one glue tab on every seam, none on a fold."""

from __future__ import annotations

import itertools
import shutil

import pytest

from pnp.data.game import load_game
from pnp.paths import CARDS
from pnp.render.layout.dienet import DEFAULT_NET, NetError, fold_net
from pnp.render.preflight import preflight

#: cube nets of every family: the cross (1-4-1), 1-4-1 with offset ends, 2-3-1, 2-2-2, 3-3
NETS = [
    DEFAULT_NET,
    ("0...", "1234", "...5"),
    ("01..", ".234", "..5."),
    ("01..", ".23.", "..45"),
    ("012..", "..345"),
]


def _cube_edges():
    """The 12 edges of a cube, each the pair of sides it joins (opposite sides never meet)."""
    opposite = {"D": "U", "U": "D", "N": "S", "S": "N", "E": "W", "W": "E"}
    return {frozenset(p) for p in itertools.combinations("DUNSEW", 2) if opposite[p[0]] != p[1]}


@pytest.mark.parametrize("net", NETS)
def test_every_seam_gets_exactly_one_tab_and_every_fold_none(net):
    plan = fold_net(net)
    folds = [e.cube_edge for e in plan.folds]
    tabs = [e.cube_edge for e in plan.tabs]
    assert len(folds) == 5 and len(set(folds)) == 5  # a net of 6 faces is a tree: 5 folds
    assert len(tabs) == 7 and len(set(tabs)) == 7  # the other 7 cube edges are glued
    assert set(folds) | set(tabs) == _cube_edges() and not set(folds) & set(tabs)
    for tab in plan.tabs:  # a tab sits on the outline, never on a fold between two faces
        dx, dy = {"N": (0, -1), "S": (0, 1), "E": (1, 0), "W": (-1, 0)}[tab.side]
        assert (tab.cell[0] + dx, tab.cell[1] + dy) not in plan.cells


def test_the_cross_glues_the_back_face_to_both_side_faces():
    # the hand-drawn net had two tabs on two seams and none between the back face (3) and the
    # side faces (4, 5), so the cube could not be closed
    plan = fold_net(DEFAULT_NET)
    side = {face: plan.sides[cell] for cell, face in plan.cells.items()}
    tabs = [e.cube_edge for e in plan.tabs]
    for face in (4, 5):
        assert tabs.count(frozenset((side[3], side[face]))) == 1


@pytest.mark.parametrize("net, why", [
    (("012345",), "same side"),
    (("0123", "45.."), "same side"),
    (("01.", "...", "2345"), "joined"),
    (("0123", "4..."), "6 cells"),
    (("0123", "4..4"), "each once"),
])
def test_a_net_that_does_not_fold_into_a_cube_is_refused(net, why):
    with pytest.raises(NetError, match=why):
        fold_net(net)


def test_a_die_card_with_five_faces_is_an_error_at_its_layout(tmp_path):
    folder = tmp_path / "taw"
    shutil.copytree(CARDS / "the-ancient-world", folder)
    decks = folder / "decks.yaml"
    text = decks.read_text(encoding="utf-8")
    old = "faces: [titan, titan, coin, coin, blank, blank]"
    assert old in text
    decks.write_text(text.replace(old, "faces: [titan, titan, coin, coin, blank]"), "utf-8")
    game = load_game(folder).game
    found = [d for d in preflight(game) if d.code == "PNP-R044"]
    assert found and "6 faces" in found[0].message and "gives 5" in found[0].message


def test_a_layout_net_that_does_not_fold_is_reported_at_its_line(tmp_path):
    folder = tmp_path / "taw"
    shutil.copytree(CARDS / "the-ancient-world", folder)
    layout = folder / "layouts" / "cards.yaml"
    text = layout.read_text(encoding="utf-8")
    old = "{id: net, type: die_net,"
    assert old in text
    layout.write_text(text.replace(old, old + ' net: ["012345"],'), "utf-8")
    game = load_game(folder).game
    found = [d for d in preflight(game) if d.code == "PNP-R044"]
    assert found and found[0].line > 0 and "same side" in found[0].message
