"""`pnp fetch-sheet` against a real HTTP server on 127.0.0.1: CSV saved, web pages and errors refused."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.data.sheet_fetch import csv_url

CSV = b"id,name,cost\r\ncaravan,Caravan,2\r\noasis,Oasis,0\r\n"
PAGES = {
    "/sheet.csv": (200, "text/csv", CSV),
    "/moved": (302, "text/plain", b""),
    "/login": (200, "text/html; charset=utf-8", b"<!DOCTYPE html><html><body>Sign in</body></html>"),
    "/big.csv": (200, "text/csv", b"id,name\n" + b"a,b\n" * 300),
}


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 (the standard library's name)
        status, kind, body = PAGES.get(self.path, (404, "text/plain", b"no such sheet"))
        self.send_response(status)
        if status == 302:
            self.send_header("Location", "/sheet.csv")
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def fetch(*args):
    return CliRunner().invoke(main, ["fetch-sheet", *args])


def test_a_published_csv_is_saved_as_sent(server, tmp_path):
    out = tmp_path / "game" / "cards.csv"
    result = fetch(f"{server}/sheet.csv", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == CSV
    assert "2 rows under the header id, name, cost" in result.stdout


def test_a_redirect_is_followed(server, tmp_path):
    assert fetch(f"{server}/moved", "--out", str(tmp_path / "c.csv")).exit_code == 0
    assert (tmp_path / "c.csv").read_bytes() == CSV


@pytest.mark.parametrize("path, words", [("/login", "a web page, not CSV"),
                                         ("/nothing", "answered 404")])
def test_a_page_that_is_not_csv_writes_nothing_and_says_how_to_publish(server, tmp_path, path,
                                                                         words):
    out = tmp_path / "cards.csv"
    out.write_bytes(b"id,name\nold,Old\n")
    result = fetch(f"{server}{path}", "--out", str(out))
    assert result.exit_code == 1
    assert "PNP-T020" in result.stderr and words in result.stderr
    assert "Publish to web" in result.stderr
    assert out.read_bytes() == b"id,name\nold,Old\n"  # the earlier download stays


def test_a_sheet_over_the_size_limit_is_refused(server):
    from pnp.data.sheet_fetch import fetch_csv

    got = fetch_csv(f"{server}/big.csv", limit=100)
    assert not isinstance(got, tuple) and "limit" in got.message


def test_nothing_listens_is_an_error_not_a_traceback(tmp_path):
    result = fetch("http://127.0.0.1:9/x.csv", "--out", str(tmp_path / "c.csv"), "--timeout", "2")
    assert result.exit_code == 1 and "PNP-T020" in result.stderr


def test_out_must_be_a_csv_file(server, tmp_path):
    assert fetch(f"{server}/sheet.csv", "--out", str(tmp_path / "c.xlsx")).exit_code == 2


def test_google_links_become_their_csv_address():
    pub = "https://docs.google.com/spreadsheets/d/e/2PACX-abc/pubhtml?gid=7&single=true"
    assert csv_url(pub) == ("https://docs.google.com/spreadsheets/d/e/2PACX-abc/pub?gid=7&"
                            "single=true&output=csv")
    edit = "https://docs.google.com/spreadsheets/d/1AbC_d-E/edit#gid=42"
    assert csv_url(edit) == "https://docs.google.com/spreadsheets/d/1AbC_d-E/export?format=csv&gid=42"
    done = "https://docs.google.com/spreadsheets/d/e/2PACX-abc/pub?output=csv"
    assert csv_url(done) == done
    assert csv_url("http://127.0.0.1:8000/a.csv") == "http://127.0.0.1:8000/a.csv"
