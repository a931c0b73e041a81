"""Every relative link in README.md and docs/ reaches a file that exists and, when it names
one, a heading or `<a id>` anchor in that file: a reader who follows a link from the README
lands where it says (docs move: a section split into its own page must take its links along)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^(```|~~~)")


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def prose(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, line) of a Markdown file, code fences and their insides left out."""
    fenced = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            yield number, line


@cache
def anchors(path: Path) -> frozenset[str]:
    found: set[str] = set()
    for _, line in prose(path):
        m = re.match(r"#{1,6}\s+(.*)", line)
        if m:
            base = slug(m.group(1))
            n = 0
            while (base if n == 0 else f"{base}-{n}") in found:
                n += 1
            found.add(base if n == 0 else f"{base}-{n}")
        found.update(re.findall(r'<a id="([^"]+)"', line))
    return frozenset(found)


def broken_links(files: list[Path], root: Path = ROOT) -> list[str]:
    bad = []
    for path in files:
        for number, line in prose(path):
            for target in LINK.findall(line):
                if re.match(r"[a-z]+:", target):  # https:, mailto:
                    continue
                name, _, anchor = target.partition("#")
                goal = (path.parent / name).resolve() if name else path
                where = f"{path.relative_to(root)}:{number}: {target}"
                if not goal.exists():
                    bad.append(f"{where} (no such file)")
                elif anchor and goal.suffix == ".md" and anchor not in anchors(goal):
                    bad.append(f"{where} (no such anchor)")
    return bad


def test_every_relative_link_in_the_docs_lands():
    files = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    assert broken_links(files) == []


def test_a_link_to_a_moved_section_or_a_missing_file_is_caught(tmp_path):
    (tmp_path / "a.md").write_text(
        "# Title\n## Soak: every cell, 500 games\n<a id=\"kept\"></a>text\n"
        "[ok](#soak-every-cell-500-games) [ok](b.md#kept-here) [ok](#kept)\n"
        "[moved](#bot-strength) [gone](c.md) [wrong](b.md#nowhere) [web](https://x.org/#y)\n"
        "```\n[in code](#not-checked)\n```\n")
    (tmp_path / "b.md").write_text("## Kept here\n")
    bad = broken_links([tmp_path / "a.md"], root=tmp_path)
    assert bad == ["a.md:5: #bot-strength (no such anchor)", "a.md:5: c.md (no such file)",
                   "a.md:5: b.md#nowhere (no such anchor)"]
