"""Parse rendered rulesheet Markdown with markdown-it-py and check what it would print wrong.

markdown-it follows GFM: a table row with too many cells loses the extra ones and a short row is
padded, silently; a delimiter row that does not match the header turns the table into a
paragraph of pipes. Both would print a wrong table, so both are diagnostics here, at the source
line that wrote the row.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode

from pnp.diagnostics import ERROR, WARNING, Diagnostic
from pnp.rulesheet.sources import RenderedSource
from pnp.templating.icons import ICON_MARK

R_TABLE = "PNP-R084"  # a Markdown table row whose cell count differs from its header
R_ICON = "PNP-R085"  # an inline {icon} no icon file defines
R_UNSUPPORTED = "PNP-R086"  # warning: Markdown a rulesheet does not print (images)

_DELIMITER = re.compile(r"^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")


def markdown_parser() -> MarkdownIt:
    """CommonMark with GFM tables; raw HTML off, so a source cannot inject markup."""
    return MarkdownIt("commonmark", {"html": False}).enable("table")


@dataclass(frozen=True)
class ParsedSource:
    source: RenderedSource
    tree: SyntaxTreeNode


def split_cells(line: str) -> list[str]:
    """The cells of one table row as GFM reads them (unescaped pipes split; outer pipes trim)."""
    text = line.strip()
    if text.startswith("|"):
        text = text[1:]
    if text.endswith("|") and not text.endswith("\\|"):
        text = text[:-1]
    return re.split(r"(?<!\\)\|", text)


def parse_sources(rendered: Iterable[RenderedSource], icons: Iterable[str] = (),
                  ) -> tuple[list[ParsedSource], list[Diagnostic]]:
    """Parse each rendered source; check tables, images and inline icons."""
    md = markdown_parser()
    known = set(icons)
    parsed, diags = [], []
    for src in rendered:
        tree = SyntaxTreeNode(md.parse(src.text))
        diags.extend(check_tree(tree, src, known))
        parsed.append(ParsedSource(src, tree))
    return parsed, diags


def walk(node: SyntaxTreeNode) -> Iterator[SyntaxTreeNode]:
    yield node
    for child in node.children:
        yield from walk(child)


def check_tree(tree: SyntaxTreeNode, src: RenderedSource, icons: set[str]) -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    lines = src.text.split("\n")
    for node in walk(tree):
        if node.type == "table":
            diags.extend(_check_table(node, src, lines))
        elif node.type == "paragraph" and node.map:
            diags.extend(_check_table_like(node, src, lines))
        elif node.type == "image":
            diags.append(Diagnostic.at(_pos(src, node), WARNING, R_UNSUPPORTED,
                                       "images are not drawn in a rulesheet; the alt text is "
                                       "printed instead", "use an inline {icon} for symbols"))
        elif node.type == "text":
            for m in ICON_MARK.finditer(node.content):
                if m.group(1) not in icons:
                    known = ", ".join(sorted(icons)) or "none"
                    diags.append(Diagnostic.at(_pos(src, node), ERROR, R_ICON,
                                               f"unknown icon {{{m.group(1)}}}",
                                               f"icons defined: {known} (templates/icons.yaml "
                                               "and the game's layout files)"))
    return diags


def _pos(src: RenderedSource, node: SyntaxTreeNode):
    while node is not None and not node.map:
        node = node.parent
    return src.position(node.map[0] if node is not None else 0)


def _rows(table: SyntaxTreeNode) -> Iterator[SyntaxTreeNode]:
    for section in table.children:
        for row in section.children:
            if row.type == "tr":
                yield row


def _check_table(table: SyntaxTreeNode, src: RenderedSource, lines: list[str]) -> list[Diagnostic]:
    rows = list(_rows(table))
    if not rows:
        return []
    width = len(rows[0].children)
    diags = []
    for row in rows[1:]:
        if not row.map:
            continue
        count = len(split_cells(lines[row.map[0]]))
        if count != width:
            diags.append(Diagnostic.at(
                src.position(row.map[0]), ERROR, R_TABLE,
                f"table row has {count} cells but its header has {width}",
                "every row needs one cell per header column (write \\| for a pipe inside a cell, "
                "or use the `cell` filter)"))
    return diags


def _check_table_like(par: SyntaxTreeNode, src: RenderedSource, lines: list[str]) -> list[Diagnostic]:
    """Pipes in a header line and a delimiter line that markdown-it did not read as a table."""
    start, end = par.map
    block = lines[start:end]
    for i in range(len(block) - 1):
        head, delim = block[i], block[i + 1]
        if head.lstrip().startswith("|") and _DELIMITER.match(delim) and "-" in delim:
            h, d = len(split_cells(head)), len(split_cells(delim))
            return [Diagnostic.at(
                src.position(start + i + 1), ERROR, R_TABLE,
                f"not read as a table: the delimiter row has {d} cells but the header has {h}",
                "write one |---| per header column")]
    return []
