"""A minimal OpenDocument spreadsheet writer for tests (no library writes .ods)."""

from __future__ import annotations

import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

_MANIFEST = """<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">
 <manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>
 <manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>
</manifest:manifest>
"""

_NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
       'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
       'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"')


def _cell(value) -> str:
    if value is None:
        return "<table:table-cell/>"
    if isinstance(value, bool):
        return (f'<table:table-cell office:value-type="boolean" office:boolean-value='
                f'"{str(value).lower()}"><text:p>{str(value).upper()}</text:p></table:table-cell>')
    if isinstance(value, (int, float)):
        return (f'<table:table-cell office:value-type="float" office:value="{value}">'
                f"<text:p>{value}</text:p></table:table-cell>")
    return (f'<table:table-cell office:value-type="string"><text:p>{escape(str(value))}'
            "</text:p></table:table-cell>")


def write_ods(path: Path, sheets: dict[str, list[list]]) -> Path:
    """`sheets`: sheet name -> rows of cell values (None for a blank cell)."""
    tables = []
    for name, rows in sheets.items():
        body = "".join("<table:table-row>" + "".join(_cell(v) for v in row) + "</table:table-row>"
                       for row in rows)
        tables.append(f'<table:table table:name="{escape(name)}">{body}</table:table>')
    content = (f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {_NS} '
               f'office:version="1.2"><office:body><office:spreadsheet>{"".join(tables)}'
               "</office:spreadsheet></office:body></office:document-content>")
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet")
        archive.writestr("META-INF/manifest.xml", _MANIFEST)
        archive.writestr("content.xml", content)
    return path
