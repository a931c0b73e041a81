"""Edit-to-screen latency of `pnp preview` (issue 21: one changed card in a 500-card game,
<= 300 ms median): from the file write to the page's `load` event of that card's new image.

Starts `pnp preview` on a generated game (benchmarks/sheet_decks.py's deck, 500 card designs),
opens it in headless Debian chromium (chromium-driver, selenium), then edits one card's text at a
time and times each edit on the wall clock both sides share (Python's time.time() and the page's
Date.now()). Prints min, median and max, and the server's own refresh time for the same edits.

    python benchmarks/preview_latency.py [--cards 500] [--edits 15] [--sheet]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from sheet_decks import sheet_game, yaml_game  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=500)
    parser.add_argument("--edits", type=int, default=15)
    parser.add_argument("--sheet", action="store_true", help="the cards in an XLSX sheet")
    args = parser.parse_args()
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    with tempfile.TemporaryDirectory() as tmp:
        folder = yaml_game(Path(tmp), args.cards)
        if args.sheet:
            folder = sheet_game(folder, "xlsx")
        server = subprocess.Popen([sys.executable, "-m", "pnp", "preview", str(folder),
                                   "--no-open"], stderr=subprocess.PIPE, text=True)
        options = Options()
        options.binary_location = shutil.which("chromium")
        for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update",
                     "--disable-sync", f"--user-data-dir={tmp}/profile", "--window-size=1400,1000"):
            options.add_argument(flag)
        driver = webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver")))
        try:
            url = re.search(r"(http://\S+/)", server.stderr.readline()).group(1)
            driver.get(url)
            first = "card/main/card-0"
            wait(driver, f"window.pnpLoaded['{first}']", 60)
            latencies, quick, refresh = [], [], []
            for n in range(args.edits):
                card = f"card/main/card-{n * 7 % args.cards}"
                driver.execute_script(f"document.getElementById('{card}').scrollIntoView()")
                wait(driver, f"window.pnpLoaded['{card}']", 30)
                key = driver.execute_script(f"return window.pnpLoaded['{card}'].key")
                seen = driver.execute_script("return window.pnpTimings.length")
                written = edit(folder, args.sheet, n * 7 % args.cards, n)
                done = wait(driver, f"(() => {{ const l = window.pnpLoaded['{card}']; return l "
                                    f"&& l.key !== '{key}' ? l : null; }})()", 30)
                latencies.append(done["at"] - written)
                # the fast path's update, then the full reload's: wait for both before the next
                timings = wait(driver, f"window.pnpTimings.length >= {seen + 2} && "
                                       f"window.pnpTimings.slice({seen})", 30)
                quick.append(timings[0]["seconds"] * 1000)
                refresh.append(timings[1]["seconds"] * 1000)
        finally:
            driver.quit()
            server.terminate()
            server.wait(10)
    print(f"{args.cards} card designs ({'xlsx' if args.sheet else 'yaml'}), {args.edits} edits: "
          f"write to screen min {min(latencies):.0f} ms, median "
          f"{statistics.median(latencies):.0f} ms, max {max(latencies):.0f} ms")
    print(f"  server: the edited card read and drawn (fast path) median "
          f"{statistics.median(quick):.0f} ms; the whole game reloaded after it median "
          f"{statistics.median(refresh):.0f} ms")
    return 0


def edit(folder: Path, sheet: bool, index: int, n: int) -> float:
    """Change card `index`'s text; the wall-clock time of the write, in ms."""
    if sheet:
        from openpyxl import load_workbook

        path = next(folder.glob("*.xlsx"))
        book = load_workbook(path)
        ws = book.worksheets[0]
        column = [c.value for c in ws[1]].index("text") + 1
        ws.cell(index + 2, column).value = f"Edited {n}: gain {n} gold."
        temp = path.with_name(".~" + path.name)
        book.save(temp)  # then renamed over the file, as spreadsheet programs save
        written = time.time() * 1000
        os.replace(temp, path)
        return written
    deck = folder / "deck.yaml"
    text = deck.read_text(encoding="utf-8")
    new = re.sub(rf"(\{{id: card-{index}, .*?text: )'[^']*'", rf"\g<1>'Edited {n}: gain {n} gold.'",
                 text, count=1)
    written = time.time() * 1000
    deck.write_text(new, encoding="utf-8")
    return written


def wait(driver, script: str, timeout: float):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = driver.execute_script(f"return {script};")
        if value:
            return value
        time.sleep(0.005)
    raise SystemExit(f"timed out waiting for {script}")


if __name__ == "__main__":
    raise SystemExit(main())
