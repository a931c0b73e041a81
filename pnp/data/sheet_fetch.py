"""Download a Google Sheets (or any) CSV for `pnp fetch-sheet`: explicit, never during a build.

A build reads only files in the game folder, so it gives the same PDF offline and tomorrow;
fetching a sheet is a separate step whose result is a file the designer can look at and commit.
"""

from __future__ import annotations

import re
import urllib.error
import urllib.parse
import urllib.request

from pnp.data.sheets import MAX_SHEET_BYTES, Table, decode_csv, table_from_csv_text
from pnp.diagnostics import ERROR, Diagnostic

__all__ = ["csv_url", "fetch_csv"]

FETCH = "PNP-T020"
_EDIT = re.compile(r"^(https://docs\.google\.com/spreadsheets/d/)([A-Za-z0-9_-]+)(/[^?#]*)?(.*)$")
_PUBLISH_HINT = ("in Google Sheets use File > Share > Publish to web, pick the sheet and "
                 "'Comma-separated values (.csv)', and give pnp that link")


def csv_url(url: str) -> str:
    """The CSV address of a Google Sheets link: a published page (`pubhtml`) becomes its CSV
    (`pub?output=csv`), an editing link (`/d/ID/edit#gid=N`) its CSV export; others unchanged."""
    parts = urllib.parse.urlsplit(url)
    if parts.netloc != "docs.google.com" or "/spreadsheets/" not in parts.path:
        return url
    query = dict(urllib.parse.parse_qsl(parts.query))
    if parts.path.endswith(("/pub", "/pubhtml")):
        query["output"] = "csv"
        path = re.sub(r"/pubhtml$", "/pub", parts.path)
        return urllib.parse.urlunsplit((parts.scheme, parts.netloc, path,
                                        urllib.parse.urlencode(query), ""))
    match = _EDIT.match(url)
    if match and "/d/e/" not in url:
        gid = re.search(r"gid=([0-9]+)", url)
        tail = f"&gid={gid.group(1)}" if gid else ""
        return f"{match.group(1)}{match.group(2)}/export?format=csv{tail}"
    return url


def fetch_csv(url: str, timeout: float = 30.0, limit: int = MAX_SHEET_BYTES
              ) -> tuple[bytes, Table] | Diagnostic:
    """The CSV bytes at `url` and the table they hold, or why there is none."""
    address = csv_url(url)
    if urllib.parse.urlsplit(address).scheme not in ("http", "https"):
        return Diagnostic(ERROR, FETCH, f"'{url}' is not an http or https address",
                          hint=_PUBLISH_HINT)
    request = urllib.request.Request(address, headers={"User-Agent": "pnp fetch-sheet"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            kind = response.headers.get_content_type()
            data = response.read(limit + 1)
    except urllib.error.HTTPError as exc:
        return Diagnostic(ERROR, FETCH, f"the address answered {exc.code} {exc.reason}",
                          hint="check the link is published and public; " + _PUBLISH_HINT)
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", None) or exc
        return Diagnostic(ERROR, FETCH, f"cannot fetch '{address}': {reason}",
                          hint="check the address and the network connection")
    if len(data) > limit:
        return Diagnostic(ERROR, FETCH, f"the sheet is over the {limit:,}-byte limit",
                          hint="split the cards over several sheets")
    head = data[:512].lstrip().lower()
    if kind == "text/html" or head.startswith((b"<!doctype", b"<html")):
        return Diagnostic(ERROR, FETCH, "the address gave a web page, not CSV", hint=_PUBLISH_HINT)
    table = table_from_csv_text(decode_csv(data), "sheet.csv")
    if not isinstance(table, Table) or not table.rows:
        return Diagnostic(ERROR, FETCH, "the address gave no table rows", hint=_PUBLISH_HINT)
    return data, table
