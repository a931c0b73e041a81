"""`pnp preview` without a browser: what a saved change redraws, what stays while the data is
broken, where diagnostics go, and a server that only reads and only answers this machine."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.preview.state import PreviewState


@pytest.fixture()
def game(tmp_path) -> Path:
    assert CliRunner().invoke(main, ["new", str(tmp_path / "game")]).exit_code == 0
    return tmp_path / "game"


def cards_state(folder: Path) -> PreviewState:
    state = PreviewState(folder, kinds=())  # cards only: the other kinds are not asked for
    first = state.refresh()
    assert first.ok
    return state


def keys(state: PreviewState) -> dict[str, str]:
    return {i.id: i.key for i in state.items.values()}


def test_a_changed_card_is_the_only_one_redrawn(game):
    state = cards_state(game)
    before = keys(state)
    assert len(before) == 18
    deck = game / "deck.yaml"
    deck.write_text(deck.read_text().replace('"Gain 2 {coin}."', '"Gain 5 {coin}."', 1))
    update = state.refresh({deck})
    assert [i["id"] for i in update.items] == ["card/market/caravan"]
    after = keys(state)
    assert {k for k in before if before[k] != after[k]} == {"card/market/caravan"}
    assert after["card/market/caravan"] in {i.key for i in state.items.values()}
    assert state.images.get(after["card/market/caravan"])  # drawn at once, for the page


LAYOUT = """# yaml-language-server: $schema=../.schemas/layout.schema.json
layouts:
  - id: market-front
    extends: poker-front
    background: "COLOUR"
"""

EVENTS = """# yaml-language-server: $schema=.schemas/deck.schema.json
decks:
  - id: events
    name: Events
    front: poker-front
    cards:
      - {id: drought, name: Drought, fields: {text: "Lose 1 {food}."}}
"""


def test_a_layout_change_redraws_the_cards_of_that_layout_and_no_other(game):
    (game / "layouts").mkdir()
    layout = game / "layouts" / "market.yaml"
    layout.write_text(LAYOUT.replace("COLOUR", "#f0e0c0"))
    deck = game / "deck.yaml"
    deck.write_text(deck.read_text().replace("front: poker-front", "front: market-front", 1))
    (game / "events.yaml").write_text(EVENTS)
    state = cards_state(game)
    assert len(state.items) == 19
    layout.write_text(LAYOUT.replace("COLOUR", "#c0e0f0"))
    update = state.refresh({layout})
    redrawn = {i["id"] for i in update.items}
    assert len(redrawn) == 18 and all(i.startswith("card/market/") for i in redrawn)


def test_broken_data_keeps_the_last_good_images_and_puts_the_error_beside_its_card(game):
    state = cards_state(game)
    png, _ = state.image("card/market/oasis")
    before = keys(state)
    deck = game / "deck.yaml"
    good = deck.read_text()
    deck.write_text(good.replace('{id: oasis, name: "Oasis", count: 3,',
                                 '{id: oasis, name: "Oasis", count: lots,', 1))
    update = state.refresh({deck})
    assert not update.ok and update.items == [] and keys(state) == before
    assert state.image("card/market/oasis")[0] == png
    [note] = update.diagnostics["card/market/oasis"]
    assert note["code"] == "PNP-S004" and "count" in note["message"]
    deck.write_text(good)
    again = state.refresh({deck})
    assert again.ok and "card/market/oasis" not in again.diagnostics


def test_a_removed_card_leaves_the_page(game):
    state = cards_state(game)
    deck = game / "deck.yaml"
    lines = [line for line in deck.read_text().splitlines() if "{id: famine," not in line]
    deck.write_text("\n".join(lines) + "\n")
    text = (game / "game.yaml").read_text().replace("count: 54", "count: 51")
    (game / "game.yaml").write_text(text)
    update = state.refresh({deck, game / "game.yaml"})
    assert update.removed == ["card/market/famine"]


def test_other_kinds_are_pages_of_what_their_renderers_print(game):
    state = PreviewState(game)
    state.refresh()
    update = state.refresh_pages(None)
    kinds = {i["kind"] for i in update.items}
    assert {"board", "record", "tokens"} <= kinds
    assert all(state.image(i["id"])[0].startswith(b"\x89PNG") for i in update.items)
    # a card's text changes no board: only the rulesheet (which reads everything) is asked
    deck = game / "deck.yaml"
    deck.write_text(deck.read_text().replace('"Gain 2 {coin}."', '"Gain 4 {coin}."', 1))
    state.refresh({deck})
    assert state.refresh_pages({deck}).items == []


@pytest.fixture()
def server(game, tmp_path):
    process = subprocess.Popen([sys.executable, "-m", "pnp", "preview", str(game), "--no-open"],
                               stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
                               cwd=tmp_path)
    try:
        line = process.stderr.readline()
        match = re.search(r"at (http://([0-9.]+):\d+/)", line)
        assert match, line
        yield match.group(1), match.group(2)
    finally:
        process.terminate()
        process.wait(10)


def status(url: str, method: str = "GET", host: str | None = None) -> int:
    request = urllib.request.Request(url, method=method)
    if host:
        request.add_header("Host", host)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_the_server_listens_on_loopback_reads_only_and_refuses_other_host_names(server):
    url, address = server
    assert address == "127.0.0.1"
    with urllib.request.urlopen(url + "api/state", timeout=10) as response:
        state = json.load(response)
    assert len([i for i in state["items"] if i["kind"] == "cards"]) == 18
    with urllib.request.urlopen(url + "img/card/market/caravan", timeout=20) as response:
        assert response.headers["Content-Type"] == "image/png"
        assert response.read().startswith(b"\x89PNG")
    assert status(url + "img/card/market/nothing") == 404
    for method in ("POST", "PUT", "DELETE"):
        assert status(url, method) == 405
    assert status(url, host="attacker.example") == 400  # a rebound DNS name reads nothing


def test_the_fast_path_draws_the_edited_card_the_full_reload_then_agrees(game):
    state = cards_state(game)
    deck = game / "deck.yaml"
    deck.write_text(deck.read_text().replace('"Gain 2 {coin}."', '"Gain 6 {coin}."', 1))
    quick = state.quick({deck})
    assert [i["id"] for i in quick.items] == ["card/market/caravan"]
    key = state.items["card/market/caravan"].key
    assert state.images.get(key)
    full = state.refresh({deck})
    assert full.items == []  # the same key: nothing drawn twice
    assert state.items["card/market/caravan"].key == key


def test_the_fast_path_declines_what_needs_the_whole_game(game):
    state = cards_state(game)
    deck = game / "deck.yaml"
    text = deck.read_text()
    assert state.quick({game / "stats.yaml"}) is None  # not a deck
    deck.write_text(text.replace("name: Market deck", "name: Market", 1))
    assert state.quick({deck}) is None  # a deck declaration
    deck.write_text(text.replace('"Gain 2 {coin}."', '"Gain 2 {coin}.", wild: [1, 2]', 1)
                    .replace("{id: oasis, name: \"Oasis\", count: 3,", "{id: oasis, count: 3,", 1))
    assert state.quick({deck}) is None  # an error (a card without a name): the full reload says so
    deck.write_text(text.replace('      - {id: oasis,', '      - {id: extra, name: Extra}\n'
                                 '      - {id: oasis,', 1))
    assert state.quick({deck}) is None  # a card added


def test_a_bad_spreadsheet_cell_is_shown_beside_its_card(game):
    from openpyxl import Workbook

    book = Workbook()
    book.active.title = "Events"
    for row in (["id", "name", "cost", "text"], ["drought", "Drought", 1, "Lose 1 {food}."],
                ["harvest", "Harvest", 2, "Gain 3 {food}."]):
        book.active.append(row)
    book.save(game / "events.xlsx")
    (game / "events.yaml").write_text(EVENTS.replace(
        "    cards:\n      - {id: drought, name: Drought, fields: {text: \"Lose 1 {food}.\"}}\n",
        "    fields: {cost: {type: integer, min: 0, max: 9}, text: {type: text}}\n"
        "    cards: {from: events.xlsx, sheet: Events}\n"))
    state = cards_state(game)
    assert "card/events/harvest" in state.items
    book.active["C3"] = "two"
    book.save(game / "events.xlsx")
    update = state.refresh({game / "events.xlsx"})
    assert not update.ok
    [note] = update.diagnostics["card/events/harvest"]
    assert note["cell"] == "Events!C3 (cost)" and "events.xlsx:Events!C3 (cost)" in note["text"]
