"""Safe YAML loading that remembers where every key and value came from.

Game data is edited by hand, so every problem must point at a file, line and column. PyYAML's own
constructors drop positions, resolve YAML 1.1 booleans (`No` -> False) and keep the last of two
duplicate keys; this module reads the parser's event stream instead and builds plain Python values
itself, with YAML 1.2 core-schema scalars, explicit checks and resource limits. Every bad input
becomes a Diagnostic; nothing is raised to the caller.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import yaml
from yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)

from pnp.data.positions import MapPos, Positions, SeqPos, compact_subs, pack, unpack
from pnp.data.yaml_hints import TAB_HINT, UTF8_HINT, syntax_hint
from pnp.diagnostics import ERROR, Diagnostic, Position
from pnp.memo import BoundedMemo

__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_NODES",
    "SCHEMA_LINE_RE",
    "Document",
    "load_file",
    "load_text",
    "plain_scalar",
]

#: The first line of every data file: `# yaml-language-server: $schema=<ref>`.
SCHEMA_LINE_RE = re.compile(r"^#\s*yaml-language-server\s*:\s*\$schema=(?P<ref>\S+)\s*$")

MAX_BYTES = 4 * 1024 * 1024  # default size limit of one data file
MAX_NODES = 2_000_000  # cap on constructed values, counting every alias expansion
MAX_DEPTH = 100  # cap on nesting: libyaml slows quadratically and recurses in C on deep nesting

# Only the libyaml parser is used (its event stream); no PyYAML constructor ever runs.
_Loader = getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader

_CORE = "tag:yaml.org,2002:"
_STR, _INT, _FLOAT, _BOOL, _NULL = (_CORE + t for t in ("str", "int", "float", "bool", "null"))
_SEQ, _MAP = _CORE + "seq", _CORE + "map"

# Node tuples built from the event stream:
#   (_SCALAR, value, line, col, source_text)   (_SEQ_N, items, line, col)
#   (_MAP_N, [key, value, key, value, ...], line, col)   (_ALIAS, target_node, line, col)
_SCALAR, _SEQ_N, _MAP_N, _ALIAS = range(4)


class _MergeKey:
    """The plain `<<` key: merges other maps into this one."""

    def __repr__(self) -> str:
        return "'<<'"


_MERGE = _MergeKey()
_SKIP = object()  # a mapping key that was rejected (already reported)

# YAML 1.2 core schema (https://yaml.org/spec/1.2.2/#1032-tag-resolution).
_NULLS = frozenset({"null", "Null", "NULL", "~", ""})
_NUM_START = frozenset("0123456789+-.")
_INT_DEC = re.compile(r"[-+]?[0-9]+")
_INT_OCT = re.compile(r"0o[0-7]+")
_INT_HEX = re.compile(r"0x[0-9a-fA-F]+")
_FLOAT_RE = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?")
_INF_RE = re.compile(r"([-+]?)\.(?:inf|Inf|INF)")
_NAN_RE = re.compile(r"\.(?:nan|NaN|NAN)")

# Characters YAML forbids in a stream (the same set libyaml and PyYAML's reader reject).
_NON_PRINTABLE = re.compile(
    "[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)
# YAML line breaks: parser marks count lines this way, so positions computed here must too.
_BREAK_RE = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_LINE_START = "(?:\\A|(?<=[\r\n\x85\u2028\u2029]))"
_TAB_INDENT_RE = re.compile(_LINE_START + " *\t")
_CONTENT_LINE_RE = re.compile(_LINE_START + "[ \t\ufeff]*[^ \t#\r\n\x85\u2028\u2029\ufeff]")

#: the most positions a document's memo keeps (a huge deck's variant builds stay bounded)
MEMO_SIZE = 50_000


@dataclass
class Document:
    """One loaded data file: plain data plus the source position of every key and value."""

    path: Path
    data: Any
    schema_ref: str | None = None
    #: path -> (line, column) of each value, and of each mapping key (a dict, or the loader's
    #: compact Positions)
    positions: Mapping[tuple, tuple[int, int]] = field(default_factory=dict, repr=False)
    key_positions: Mapping[tuple, tuple[int, int]] = field(default_factory=dict, repr=False)
    #: data path -> where its value was written instead (a variant override, in game.yaml)
    redirects: dict[tuple, Position] = field(default_factory=dict, repr=False)
    #: data path -> the values below it that were read from another file (a deck's cards from
    #: a spreadsheet): an object whose pos(rest) and key_pos(rest) give a Position or None
    mounts: dict[tuple, Any] = field(default_factory=dict, repr=False)

    def redirected(self, path: Sequence[str | int]) -> Position | None:
        """The override position for `path` or its nearest overridden ancestor, if any."""
        if not self.redirects:
            return None
        key = tuple(path)
        for end in range(len(key), 0, -1):
            found = self.redirects.get(key[:end])
            if found is not None:
                return found
        return None

    #: (path, str(path)), made once: every Position of the document shares the text
    _file: tuple | None = field(default=None, init=False, repr=False, compare=False)
    #: path -> Position, shared by the copies of one document that variant builds read (their
    #: positions are the same; a redirected path is answered before it, never kept)
    memo: BoundedMemo[tuple, Position] | None = field(default=None, repr=False, compare=False)

    def __getstate__(self) -> dict:
        """The document without its lookup caches (`_file`, `memo`): they fill as positions are
        asked, and a pickle (a worker's copy, the fingerprint that catches a rules module
        changing the game) must hold the data alone, not when a position was last looked up."""
        state = {f.name: getattr(self, f.name) for f in fields(self)}
        return {**state, "_file": None, "memo": None}

    @property
    def file(self) -> str:
        """The path as text (one string for every Position of the document)."""
        file = self._file
        if file is None or file[0] is not self.path:
            file = self._file = (self.path, str(self.path))
        return file[1]

    def pos(self, path: Sequence[str | int] = ()) -> Position:
        """Where the value at `path` starts; the nearest recorded ancestor for missing paths.

        `()` is the root value; a document without positions points at line 1, column 1. A value
        a variant replaced points at the override that wrote it.
        """
        moved = self.redirected(path)
        if moved is not None:
            return moved
        key = tuple(path)
        memo = self.memo
        if memo is None:
            return self._pos(key)
        found = memo.get(key)
        if found is None:
            found = memo.put(key, self._pos(key))
        return found

    def _pos(self, key: tuple) -> Position:
        if self.mounts:
            found = self._mounted(key, False)
            if found is not None:
                return found
        while True:
            found = self.positions.get(key)
            if found is not None:
                return Position(self.file, found[0], found[1])
            if not key:
                return Position(self.file, 1, 1)
            key = key[:-1]

    def key_pos(self, path: Sequence[str | int]) -> Position:
        """Where the mapping key leading to `path` is written; pos(path) when there is none."""
        moved = self.redirected(path)
        if moved is not None:
            return moved
        if self.mounts:
            mounted = self._mounted(tuple(path), True)
            if mounted is not None:
                return mounted
        found = self.key_positions.get(tuple(path))
        if found is not None:
            return Position(self.file, found[0], found[1])
        return self.pos(path)

    def _mounted(self, key: tuple, keys: bool) -> Position | None:
        """The position of a value below a mount, from the file it was read from."""
        for prefix, source in self.mounts.items():
            n = len(prefix)
            if len(key) > n and key[:n] == prefix:
                return source.key_pos(key[n:]) if keys else source.pos(key[n:])
        return None

    @property
    def kind(self) -> str | None:
        """The schema's file stem ('../../schemas/tracks.schema.json' -> 'tracks'), or None."""
        if not self.schema_ref:
            return None
        name = re.split(r"[#?]", self.schema_ref, maxsplit=1)[0].replace("\\", "/")
        name = name.rstrip("/").rsplit("/", 1)[-1]
        for suffix in (".json", ".yaml", ".yml"):
            name = name.removesuffix(suffix)
        name = name.removesuffix(".schema")
        return name or None


def load_file(
    path: str | Path, max_bytes: int = MAX_BYTES
) -> tuple[Document | None, list[Diagnostic]]:
    """Read and load one data file; size is checked before reading so huge files cost nothing."""
    p = Path(path)
    file = str(p)
    try:
        size = p.stat().st_size
        if size > max_bytes:
            return None, [_too_big(file, size, max_bytes)]
        raw = p.read_bytes()
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        return None, [
            Diagnostic(
                ERROR,
                "PNP-Y009",
                f"cannot read the file: {reason}",
                file,
                1,
                1,
                "check that the path is right and the file is a readable regular file",
            )
        ]
    return load_text(raw, p, max_bytes)


def load_text(
    text: str | bytes, filename: str | Path, max_bytes: int = MAX_BYTES
) -> tuple[Document | None, list[Diagnostic]]:
    """Load YAML source named `filename`; returns (None, errors) when no data could be built.

    A Document is returned whenever the text parsed into one document, possibly together with
    errors found while building it (duplicate keys, bad tags, bad keys, bad merges).
    """
    path = Path(filename)
    file = str(path)
    try:
        return _Load(path, file).run(text, max_bytes)
    except Exception as exc:  # last line of defence: a loader bug must not crash a lint run
        return None, [
            Diagnostic(
                ERROR,
                "PNP-Y001",
                f"could not load the YAML (internal error: {type(exc).__name__}: {exc})",
                file,
                1,
                1,
                "this is a bug in pnp; please report it together with the file",
            )
        ]


def _too_big(file: str, size: int, limit: int) -> Diagnostic:
    return Diagnostic(
        ERROR,
        "PNP-Y008",
        f"file is {size:,} bytes, over the {limit:,}-byte limit",
        file,
        1,
        1,
        "split the data into several smaller files",
    )


class _Abort(Exception):
    """Stops composing after a fatal problem that has already been reported."""


class _LineIndex:
    """Turns string offsets into 1-based (line, column) the way YAML parsers count them."""

    def __init__(self, text: str):
        self.starts = [0] + [m.end() for m in _BREAK_RE.finditer(text)]

    def line_col(self, index: int) -> tuple[int, int]:
        line = bisect_right(self.starts, index)
        return line, index - self.starts[line - 1] + 1


def _line_col(text: str, index: int) -> tuple[int, int]:
    """(line, column) of `index` in `text`, for one-off error positions."""
    return _LineIndex(text[:index]).line_col(index)


def _show_tag(tag: str) -> str:
    return "!!" + tag[len(_CORE) :] if tag.startswith(_CORE) else tag


def _resolve_plain(text: str) -> Any:
    """A plain (unquoted, untagged) scalar under the YAML 1.2 core schema."""
    if not text:
        return None
    first = text[0]
    if first in _NUM_START:
        return _number(text, text)
    if first in "tTfF" and len(text) in (4, 5):
        low = text.lower()
        if low == "true":
            return True
        if low == "false":
            return False
        return text
    if text in _NULLS:
        return None
    if text == "<<":
        return _MERGE
    return text


def plain_scalar(text: str) -> Any:
    """What `text` means written unquoted in YAML (`3` an int, `true` a bool, `~` None): a
    CSV cell of a free-form card field reads as the same text would in a deck file."""
    value = _resolve_plain(text)
    return "<<" if value is _MERGE else value


def _number(text: str, default: Any) -> Any:
    """int or float for core-schema number syntax, else `default`."""
    try:
        if _INT_DEC.fullmatch(text):
            return int(text)
        if _INT_OCT.fullmatch(text):
            return int(text[2:], 8)
        if _INT_HEX.fullmatch(text):
            return int(text[2:], 16)
        if _FLOAT_RE.fullmatch(text):
            return float(text)
    except ValueError:  # more digits than Python converts (sys.int_info.default_max_str_digits)
        return default
    inf = _INF_RE.fullmatch(text)
    if inf:
        return float(inf.group(1) + "inf")
    if _NAN_RE.fullmatch(text):
        return float("nan")
    return default


class _Load:
    """One load: decodes, pre-checks, composes nodes from events, then builds values."""

    def __init__(self, path: Path, file: str):
        self.path = path
        self.file = file
        self.diags: list[Diagnostic] = []
        self._reported: set[tuple] = set()
        self.spans: list[tuple[int, int, int, int]] | None = None  # multi-line quoted/block scalars
        self.names: dict = {}  # each text, key and tuple of keys once per file
        self.flat = array("Q")  # every packed position of the file (see MapPos, SeqPos)

    # -- reporting -------------------------------------------------------------------------

    def report(self, code: str, message: str, line: int, col: int, hint: str) -> None:
        """Record an error once (an aliased node is built once per use, but reported once)."""
        key = (code, message, line, col)
        if key not in self._reported:
            self._reported.add(key)
            self.diags.append(Diagnostic(ERROR, code, message, self.file, line, col, hint))

    def done(self, doc: Document | None) -> tuple[Document | None, list[Diagnostic]]:
        self.diags.sort(key=lambda d: (d.line, d.column))
        return doc, self.diags

    # -- pipeline --------------------------------------------------------------------------

    def run(self, source: str | bytes, max_bytes: int) -> tuple[Document | None, list[Diagnostic]]:
        text = self.decode(source, max_bytes)
        if text is None:
            return self.done(None)
        bad = _NON_PRINTABLE.search(text)
        if bad:
            line, col = _line_col(text, bad.start())
            self.report(
                "PNP-Y004",
                f"character U+{ord(bad.group()):04X} is not allowed in a YAML file",
                line,
                col,
                f"{UTF8_HINT} text and delete the invisible control character at this spot",
            )
            return self.done(None)

        newline = text.find("\n")
        first_line = (text if newline < 0 else text[:newline]).rstrip("\r")
        match = SCHEMA_LINE_RE.match(first_line)
        schema_ref = match.group("ref") if match else None

        if not _CONTENT_LINE_RE.search(text):
            self.report(
                "PNP-Y006",
                "empty document",
                1,
                1,
                "the file has no data (only comments or blank lines); add the data or delete "
                "the file",
            )
            return self.done(None)

        tabs = [m.end() - 1 for m in _TAB_INDENT_RE.finditer(text)] if "\t" in text else []
        if tabs:
            self.spans = []
        root, error, fatal = self.compose(text)
        tab_lines = self.report_tabs(text, tabs, error) if tabs else set()
        if error is not None:
            self.report_syntax(error, tab_lines, text)
            return self.done(None)
        if fatal:
            return self.done(None)

        data, own, tree = (None, 0, None) if root is None else self.build(root)
        del root  # the node tree is no longer needed: only the data and positions stay
        if data is None:
            line, col = unpack(own) if own else (1, 1)
            self.report(
                "PNP-Y006",
                "empty document",
                line,
                col,
                "the file holds no data (just '---' or null); add the data or delete the file",
            )
            return self.done(None)
        doc = Document(self.path, data, schema_ref, Positions(own, tree, self.flat),
                       Positions(own, tree, self.flat, keys=True))
        return self.done(doc)

    def decode(self, source: str | bytes, max_bytes: int) -> str | None:
        """Text without BOM, or None after reporting a size or encoding problem."""
        if isinstance(source, str):
            size = len(source.encode("utf-8", "surrogatepass"))
        else:
            size = len(source)
        if size > max_bytes:
            self.diags.append(_too_big(self.file, size, max_bytes))
            return None
        if isinstance(source, str):
            return source[1:] if source.startswith("\ufeff") else source
        raw = bytes(source)
        if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
            self.report("PNP-Y004", "the file is UTF-16 encoded, not UTF-8", 1, 1, UTF8_HINT)
            return None
        if raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            before = raw[: exc.start].decode("utf-8")
            line, col = _line_col(before, len(before))
            self.report(
                "PNP-Y004",
                f"the file is not valid UTF-8: byte 0x{raw[exc.start]:02X} at line {line}, "
                f"column {col} cannot be decoded",
                line,
                col,
                f"{UTF8_HINT} (this byte comes from another encoding, e.g. Windows-1252)",
            )
            return None

    # -- phase 1: events -> nodes ----------------------------------------------------------

    def compose(self, text: str) -> tuple[tuple | None, yaml.YAMLError | None, bool]:
        """(root node, parser error, fatal) from the event stream, without recursion.

        Anchored nodes are shared, so expansion size and nesting depth are tracked here and
        a bomb is stopped before anything is built.
        """
        loader = _Loader(text)
        try:
            return self._compose(loader.get_event), None, False
        except yaml.YAMLError as exc:
            return None, exc, False
        except _Abort:
            return None, None, True
        finally:
            dispose = getattr(loader, "dispose", None)
            if dispose is not None:
                dispose()

    def _compose(self, get_event: Any) -> tuple | None:
        max_nodes, max_depth = MAX_NODES, MAX_DEPTH
        spans = self.spans
        stack: list[list] = []  # open collections: [node, child height, anchor, total at start]
        anchors: dict[str, tuple[tuple, int, int]] = {}  # name -> (node, size, height)
        total = 0
        documents = 0
        root = None
        while True:
            event = get_event()
            cls = event.__class__
            if cls is ScalarEvent:
                total += 1
                mark = event.start_mark
                line, col = mark.line + 1, mark.column + 1
                value = event.value
                tag = event.tag
                if spans is not None and event.style and event.end_mark.line > mark.line:
                    end = event.end_mark  # multi-line quoted or block text: tabs allowed
                    spans.append((mark.line, mark.column, end.line, end.column))
                if tag is None:
                    resolved = _resolve_plain(value) if event.implicit[0] else value
                elif tag == "!":
                    resolved = value
                else:
                    resolved = self.tagged_scalar(tag, value, event.implicit[0], line, col)
                node = (_SCALAR, resolved, line, col, value)
                if event.anchor is not None:
                    anchors[event.anchor] = (node, 1, 0)
            elif cls is MappingStartEvent or cls is SequenceStartEvent:
                total += 1
                mark = event.start_mark
                line, col = mark.line + 1, mark.column + 1
                if len(stack) >= max_depth:
                    self.report(
                        "PNP-Y005",
                        f"data nested more than {max_depth} levels deep",
                        line,
                        col,
                        "flatten the data; game data never needs this much nesting",
                    )
                    raise _Abort
                is_map = cls is MappingStartEvent
                tag = event.tag
                if tag is not None and tag != "!" and tag != (_MAP if is_map else _SEQ):
                    self.bad_tag(tag, line, col, "a map" if is_map else "a list")
                node = (_MAP_N if is_map else _SEQ_N, [], line, col)
                if stack:
                    stack[-1][0][1].append(node)
                else:
                    root = node
                stack.append([node, 0, event.anchor, total - 1])
                continue
            elif cls is MappingEndEvent or cls is SequenceEndEvent:
                node, height, anchor, start = stack.pop()
                height += 1
                if anchor is not None:
                    anchors[anchor] = (node, total - start, height)
                if stack and height > stack[-1][1]:
                    stack[-1][1] = height
                continue
            elif cls is AliasEvent:
                mark = event.start_mark
                line, col = mark.line + 1, mark.column + 1
                name = event.anchor
                if any(frame[2] == name for frame in stack):
                    self.report(
                        "PNP-Y005",
                        f"alias *{name} is used inside the collection &{name} it refers to "
                        "(endless expansion)",
                        line,
                        col,
                        "an alias may only repeat a finished map or list; remove the alias",
                    )
                    raise _Abort
                entry = anchors.get(name)
                if entry is None:
                    self.report(
                        "PNP-Y001",
                        f"alias *{name} refers to no anchor",
                        line,
                        col,
                        f"define &{name} before using *{name}, or put text that starts "
                        "with '*' in quotes",
                    )
                    node = (_SCALAR, None, line, col, f"*{name}")
                else:
                    target, size, height = entry
                    total += size
                    if total > max_nodes:
                        self.report(
                            "PNP-Y005",
                            f"alias expansion too large: more than {max_nodes:,} values",
                            line,
                            col,
                            "aliases here repeat data exponentially (a 'billion laughs' "
                            "document); write the data out or use fewer nested aliases",
                        )
                        raise _Abort
                    if len(stack) + height > max_depth:
                        self.report(
                            "PNP-Y005",
                            f"alias *{name} nests the data more than {max_depth} levels deep",
                            line,
                            col,
                            "flatten the data; game data never needs this much nesting",
                        )
                        raise _Abort
                    node = (_ALIAS, target, line, col)
            elif cls is DocumentStartEvent:
                documents += 1
                if documents > 1:
                    mark = event.start_mark
                    line = mark.line + 1
                    self.report(
                        "PNP-Y007",
                        f"more than one YAML document in the file (a second one starts at "
                        f"line {line})",
                        line,
                        mark.column + 1,
                        "keep one document per file: remove the extra '---' line or split the "
                        "file in two",
                    )
                    raise _Abort
                continue
            elif cls is StreamEndEvent or event is None:
                return root
            else:  # stream start, document end
                continue

            if total > max_nodes:
                self.report(
                    "PNP-Y005",
                    f"too many values: more than {max_nodes:,}",
                    line,
                    col,
                    "split the data into several smaller files",
                )
                raise _Abort
            if stack:
                stack[-1][0][1].append(node)
            else:
                root = node

    def tagged_scalar(self, tag: str, text: str, plain: bool, line: int, col: int) -> Any:
        """Apply an explicit standard tag; any other tag is an error (the text is kept)."""
        if tag == _STR:
            return text
        if tag == _INT:
            value = _number(text, None)
            if isinstance(value, int):
                return value
        elif tag == _FLOAT:
            value = _number(text, None)
            if isinstance(value, int | float):
                return float(value)
        elif tag == _BOOL:
            low = text.lower()
            if low in ("true", "false"):
                return low == "true"
        elif tag == _NULL:
            if text in _NULLS:
                return None
        else:
            self.bad_tag(tag, line, col, "a value")
            value = _resolve_plain(text) if plain else text
            return "<<" if value is _MERGE else value
        self.report(
            "PNP-Y010",
            f"{text!r} is not a valid {_show_tag(tag)} value",
            line,
            col,
            f"remove the {_show_tag(tag)} tag or fix the value",
        )
        return text

    def bad_tag(self, tag: str, line: int, col: int, what: str) -> None:
        shown = _show_tag(tag)
        unsafe = "unsafe " if "python/" in tag else ""
        self.report(
            "PNP-Y010",
            f"{unsafe}tag {shown} is not allowed on {what}",
            line,
            col,
            "pnp data files use plain YAML: remove the tag (only !!str, !!int, !!float, "
            "!!bool, !!null, !!seq and !!map are understood)",
        )

    # -- tabs and syntax errors ------------------------------------------------------------

    def report_tabs(self, text: str, tabs: list[int], error: yaml.YAMLError | None) -> set[int]:
        """Report tabs in indentation, except inside quoted or block text; returns their lines.

        After a parse error only tabs the parser got past (or that sit on the error line) are
        reported, since the parser's view of the rest is unknown.
        """
        index = _LineIndex(text)
        spans = self.spans or []
        starts = [(s[0], s[1]) for s in spans]
        problem = context = None
        if error is not None:
            pm = getattr(error, "problem_mark", None)
            cm = getattr(error, "context_mark", None)
            problem = (pm.line, pm.column) if pm is not None else (0, 0)
            context = (cm.line, cm.column) if cm is not None else problem
        lines: set[int] = set()
        for offset in tabs:
            line, col = index.line_col(offset)
            here = (line - 1, col - 1)
            i = bisect_right(starts, here) - 1
            if i >= 0 and here < (spans[i][2], spans[i][3]):
                continue
            if problem is not None and here[0] != problem[0] and not here < min(problem, context):
                continue
            lines.add(line)
            self.report("PNP-Y003", "tab character used for indentation", line, col, TAB_HINT)
        return lines

    def report_syntax(self, error: yaml.YAMLError, tab_lines: set[int], text: str = "") -> None:
        mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
        opened = getattr(error, "context_mark", None)
        context_words = getattr(error, "context", None) or ""
        if (opened is not None and mark is not None and opened.line < mark.line
                and ("flow" in context_words or "quoted scalar" in context_words)):
            noticed = mark.line + 1
            mark = opened  # an unclosed bracket or quote: the mistake is where it was opened
        else:
            noticed = 0
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        if line in tab_lines:
            return  # the tab report already explains this error
        problem = getattr(error, "problem", None) or str(error)
        context = getattr(error, "context", None)
        if "maximum nesting depth" in problem:  # the cap newer libyaml builds have (1,000
            # levels), met while scanning ahead of the events that would have met ours
            self.report("PNP-Y005", f"data nested more than {MAX_DEPTH} levels deep", line,
                        col, "flatten the data; game data never needs this much nesting")
            return
        message = f"YAML syntax error: {problem}"
        if context:
            cm = getattr(error, "context_mark", None)
            where = ""
            if cm is not None and (cm.line, cm.column) != (line - 1, col - 1):
                where = f" that starts at line {cm.line + 1}, column {cm.column + 1}"
            message += f" ({context}{where})"
        if noticed:
            message += f"; opened here, still open at line {noticed}"
        words = f"{problem} {context or ''}"
        self.report("PNP-Y001", message, line, col, syntax_hint(words, text, line))

    # -- phase 2: nodes -> values ----------------------------------------------------------

    def build(self, node: tuple) -> tuple[Any, int, Any]:
        """The plain value of `node`, its packed position and its position node (None for a
        scalar); depth was capped while composing."""
        kind = node[0]
        if kind == _SCALAR:
            value = node[1]
            if type(value) is str:
                value = self.names.setdefault(value, value)
            return ("<<" if value is _MERGE else value), pack(node[2], node[3]), None
        if kind == _ALIAS:
            value, _, tree = self.build(node[1])
            return value, pack(node[2], node[3]), tree  # the alias, not the anchor
        own = pack(node[2], node[3])
        if kind == _SEQ_N:
            values, packed, subs = [], [], []
            for item in node[1]:
                value, where, sub = self.build(item)
                values.append(value)
                packed.append(where)
                subs.append(sub)
            start = len(self.flat)
            self.flat.extend(packed)
            return values, own, SeqPos(start, len(packed), compact_subs(subs))
        return self._map(node, own)

    def _map(self, node: tuple, own: int) -> tuple[dict, int, MapPos]:
        result, entries = self.build_map(node)
        keys = tuple(entries)
        keys = self.names.setdefault(keys, keys)
        flat, start, subs = self.flat, len(self.flat), []
        for key in keys:
            kpos, vpos, sub = entries[key]
            flat.append(kpos)
            flat.append(vpos)
            subs.append(sub)
        return result, own, MapPos(keys, start, compact_subs(subs))

    def build_map(self, node: tuple) -> tuple[dict, dict]:
        """The map's value and, per key in order, (key position, value position, node)."""
        items = node[1]
        result: dict = {}
        entries: dict = {}
        seen: dict[Any, tuple[int, int]] = {}  # key as JSON sees it -> where it first appears
        merges: list[tuple] = []
        names = self.names
        for i in range(0, len(items), 2):
            key_node = items[i]
            key = self.key_of(key_node)
            if key is _SKIP:
                continue
            where = (key_node[2], key_node[3])
            seen_as = key if type(key) is str or key is _MERGE else str(key)
            first = seen.get(seen_as)
            if first is not None:
                self.report(
                    "PNP-Y002",
                    f"duplicate key {key!r}",
                    where[0],
                    where[1],
                    f"{key!r} is first set at line {first[0]}, column {first[1]}; remove or "
                    "rename one of them (only the first is used)",
                )
                continue
            seen[seen_as] = where
            if key is _MERGE:
                merges.append(items[i + 1])
                continue
            if type(key) is str:
                key = names.setdefault(key, key)
            value_node = items[i + 1]
            if value_node[0] == _SCALAR:  # fast path for the common case
                value = value_node[1]
                if type(value) is str:  # equal texts (a type line, a cost) stored once
                    value = names.setdefault(value, value)
                result[key] = "<<" if value is _MERGE else value
                entries[key] = (pack(*where), pack(value_node[2], value_node[3]), None)
            else:
                result[key], vpos, sub = self.build(value_node)
                entries[key] = (pack(*where), vpos, sub)
        for merge in merges:
            self.merge(result, entries, seen, merge)
        return result, entries

    def key_of(self, node: tuple) -> Any:
        """A usable mapping key (str, int or the merge key), or _SKIP after reporting."""
        target = node[1] if node[0] == _ALIAS else node
        if target[0] == _SCALAR:
            value = target[1]
            if type(value) is str or type(value) is int:
                return value
            if value is _MERGE:
                return _MERGE if node is target else "<<"
            if target[4]:
                return target[4]  # true, 1.5, null, ~ as keys: keep the words as written
            self.report(
                "PNP-Y011",
                "mapping key is empty",
                node[2],
                node[3],
                "give the entry a key before the ':'",
            )
            return _SKIP
        self.report(
            "PNP-Y011",
            f"a {'map' if target[0] == _MAP_N else 'list'} cannot be used as a mapping key",
            node[2],
            node[3],
            "keys must be plain text or numbers; check the indentation and the '?' and ':' markers",
        )
        return _SKIP

    def merge(self, result: dict, entries: dict, seen: dict, node: tuple) -> None:
        """`<<: *base` / `<<: [*a, *b]`: copy keys the map lacks; earlier sources win."""
        target = node[1] if node[0] == _ALIAS else node
        if target[0] == _MAP_N:
            sources = [target]
        elif target[0] == _SEQ_N:
            sources = []
            for item in target[1]:
                item_target = item[1] if item[0] == _ALIAS else item
                if item_target[0] == _MAP_N:
                    sources.append(item_target)
                else:
                    self.bad_merge(item)
        else:
            self.bad_merge(node)
            return
        for source in sources:
            values, new_entries = self.build_map(source)
            for key, value in values.items():
                seen_as = key if type(key) is str else str(key)
                if seen_as in seen:
                    continue
                seen[seen_as] = unpack(new_entries[key][0])
                result[key] = value
                entries[key] = new_entries[key]

    def bad_merge(self, node: tuple) -> None:
        self.report(
            "PNP-Y012",
            "the merge key '<<' needs a map or a list of maps",
            node[2],
            node[3],
            "write '<<: *name' where &name marks a map, or quote '<<' to use it as a plain key",
        )
