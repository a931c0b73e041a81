"""`pnp preview` in a real headless Chromium: the cards show, a saved edit to a YAML card or a
spreadsheet cell redraws that card and no other, without reloading the page.

Needs Debian's `chromium` and `chromium-driver` (.ci/run installs them) and selenium (the test
extra); skips with the reason when one is missing.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)")

EVENTS = """# yaml-language-server: $schema=.schemas/deck.schema.json
decks:
  - id: events
    name: Events
    front: poker-front
    back: poker-back
    prototype: true
    fields:
      cost: {type: integer, min: 0, max: 9}
      text: {type: text}
    cards: {from: events.xlsx, sheet: Events}
"""


@pytest.fixture()
def game(tmp_path) -> Path:
    from openpyxl import Workbook

    assert CliRunner().invoke(main, ["new", str(tmp_path / "game")]).exit_code == 0
    folder = tmp_path / "game"
    book = Workbook()
    book.active.title = "Events"
    for row in (["id", "name", "cost", "text"], ["drought", "Drought", 1, "Lose 1 {food}."],
                ["harvest", "Harvest", 2, "Gain 3 {food}."]):
        book.active.append(row)
    book.save(folder / "events.xlsx")
    (folder / "events.yaml").write_text(EVENTS)
    return folder


@pytest.fixture()
def preview(game, tmp_path):
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen([sys.executable, "-m", "pnp", "preview", str(game), "--no-open"],
                               stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
                               env=env, cwd=tmp_path)
    try:
        line = process.stderr.readline()
        match = re.search(r"at (http://127\.0\.0\.1:\d+/)", line)
        assert match, line
        yield match.group(1)
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture()
def browser(tmp_path):
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    os.environ.setdefault("SE_OFFLINE", "true")  # never let selenium fetch a driver
    options = Options()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 f"--user-data-dir={tmp_path / 'chromium-profile'}", "--window-size=1400,1000"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(DRIVER))
    try:
        yield driver
    finally:
        driver.quit()


def wait_for(driver, script: str, timeout: float = 60.0):
    """Poll a JavaScript expression until it is truthy; its value (the timeout is generous:
    a loaded machine draws slowly, and this test checks what is redrawn, not how fast)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = driver.execute_script(f"return {script};")
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {script}")


def loaded(driver, item: str):
    return driver.execute_script("return window.pnpLoaded[arguments[0]] || null;", item)


def shot(driver, item: str) -> bytes:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, item).find_element(By.TAG_NAME, "img").screenshot_as_png


def redrawn(driver, item: str, before: dict, since_ms: float) -> dict:
    return wait_for(driver, f"(() => {{ const l = window.pnpLoaded['{item}']; return l && "
                            f"l.key !== '{before['key']}' && l.at >= {since_ms} ? l : null; }})()")


def test_preview_shows_the_cards_and_redraws_an_edited_card_without_a_reload(
        game, preview, browser, tmp_path):
    from openpyxl import load_workbook
    from selenium.webdriver.common.by import By

    caravan, oasis, drought = "card/market/caravan", "card/market/oasis", "card/events/drought"
    browser.get(preview)
    wait_for(browser, f"window.pnpLoaded['{caravan}'] && window.pnpLoaded['{drought}']")
    figures = browser.find_elements(By.CSS_SELECTOR, "figure[data-kind=cards]")
    assert len(figures) == 18 + 2  # the starter's 18 designs and the sheet's 2
    page_id = browser.execute_script("return window.pnpPageId;")
    wait_for(browser, f"window.pnpLoaded['{oasis}']")
    before = {item: loaded(browser, item) for item in (caravan, oasis, drought)}
    picture = shot(browser, caravan)

    deck = game / "deck.yaml"
    text = deck.read_text()
    assert "Gain 2 {coin}." in text
    written = time.time() * 1000
    deck.write_text(text.replace('"Gain 2 {coin}."', '"Gain 7 {coin} at once."', 1))
    after = redrawn(browser, caravan, before[caravan], written)
    print(f"YAML edit to screen: {after['at'] - written:.0f} ms")
    assert loaded(browser, oasis) == before[oasis]  # the other cards were not redrawn
    assert shot(browser, caravan) != picture
    assert browser.execute_script("return window.pnpPageId;") == page_id  # no reload

    book = load_workbook(game / "events.xlsx")
    book["Events"]["D2"] = "Lose 2 {food}, then draw."
    written = time.time() * 1000
    book.save(game / "events.xlsx")
    after = redrawn(browser, drought, before[drought], written)
    print(f"XLSX cell edit to screen: {after['at'] - written:.0f} ms")
    assert loaded(browser, oasis) == before[oasis]
    assert browser.execute_script("return window.pnpPageId;") == page_id

    # bad data: the last good image stays, the error is shown beside the card it concerns
    good = loaded(browser, caravan)
    oasis_line = '{id: oasis, name: "Oasis", count: 3,'
    deck.write_text(deck.read_text().replace(oasis_line, oasis_line.replace("3", "lots"), 1))
    wait_for(browser, "document.body.classList.contains('broken')")
    note = wait_for(browser, f"document.getElementById('{oasis}').querySelector('ul.diags').textContent")
    assert "count" in note and "deck.yaml" in note
    assert loaded(browser, caravan) == good
    deck.write_text(deck.read_text().replace("count: lots", "count: 3", 1))
    wait_for(browser, "!document.body.classList.contains('broken')")

    # the filter and the overlay toggle
    browser.find_element(By.ID, "filter").send_keys("oasis")
    visible = wait_for(browser, "[...document.querySelectorAll('figure')].filter(f => "
                                "!f.classList.contains('hidden')).map(f => f.id)")
    assert visible == [oasis]
    browser.find_element(By.ID, "overlays").click()
    assert browser.find_element(By.ID, oasis).find_element(By.CLASS_NAME, "trim").is_displayed()
    browser.save_screenshot(str(tmp_path / "preview.png"))  # looked at by eye in development
    assert browser.execute_script("return window.pnpPageId;") == page_id
