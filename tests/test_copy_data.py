"""`copy_data`, the fast deepcopy a variant's build works on: same result as deepcopy."""

from __future__ import annotations

import copy
import datetime

import yaml

from pnp.data.game import copy_data, read_game
from pnp.paths import CARDS


def test_copy_data_equals_deepcopy_on_a_bundled_game_and_shares_nothing() -> None:
    _, docs = read_game(CARDS / "ancient-civilizations")
    for doc in docs:
        copied = copy_data(doc.data)
        assert copied == copy.deepcopy(doc.data) == doc.data
        copied["_touched"] = 1  # a variant changes its copy, never the documents as read
        assert "_touched" not in doc.data


def test_a_yaml_alias_stays_one_node_and_other_types_go_to_deepcopy() -> None:
    data = yaml.safe_load("a: &x [1, {b: 2}]\nc: *x\nd: 2020-01-02\ne: !!set {p, q}\n")
    copied = copy_data(data)
    assert copied == data and copied["a"] is copied["c"] and copied["a"] is not data["a"]
    assert copied["d"] == datetime.date(2020, 1, 2)
    assert copied["e"] == {"p", "q"} and copied["e"] is not data["e"]
    copied["a"][1]["b"] = 3
    assert data["a"][1]["b"] == 2 and copied["c"][1]["b"] == 3
