"""Schema versions of game data, the keys that moved between them, and `pnp upgrade`.

Every key that ever moved is one row of MOVES, so validate (one PNP-L022 per moved key, in
place of the schema's "unknown property") and upgrade (which moves it) read the same table.
The rewrite is done on the text, driven by the parser's line marks, so comments, blank lines
and key order survive; the result is loaded again and compared with the data the move should
give before anything is written.
"""

from __future__ import annotations

import dataclasses
import difflib
import os
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from pnp.data.loader import Document, load_text
from pnp.diagnostics import ERROR, Diagnostic, display_path, has_errors

#: The schema version of game data this pnp reads and writes (`schema_version:` in game.yaml;
#: schemas/game.schema.json states the same maximum).
CURRENT_VERSION = 2

#: What each version is; a game.yaml without `schema_version:` is version 1.
VERSIONS = {
    1: "the first layout: rule parameters (setup, movement, pregame, check_timing, "
       "turn_order_timing, options, end) at the top level of game.yaml",
    2: "rule parameters under `rules:` in game.yaml, checked against the schema the engine "
       "supplies (schemas/rules/ENGINE.schema.json or the game folder's rules.schema.json)",
}


@dataclass(frozen=True)
class Move:
    """A top-level key of a `kind` file that moved under another top-level key (`under`)."""

    kind: str
    key: str
    under: str
    version: int  # the schema version that has it in its new place
    commit: str  # where the move happened in pnp's history


#: Every key that moved or was renamed in the data files' history (git log -p -- schemas/).
MOVES: tuple[Move, ...] = (
    Move("game", "setup", "rules", 2, "cf9264b"),
    Move("game", "movement", "rules", 2, "cf9264b"),
    Move("game", "pregame", "rules", 2, "cf9264b"),
    Move("game", "check_timing", "rules", 2, "cf9264b"),
    Move("game", "turn_order_timing", "rules", 2, "1cfd88c, moved by the merge 29637c0"),
    Move("game", "options", "rules", 2, "cf9264b"),
    Move("game", "end", "rules", 2, "cf9264b"),
)

MOVED = "PNP-L022"
#: `pnp upgrade` cannot go on: a version it does not know, a move it cannot make, a backup in
#: the way, a file it may not or cannot write (nothing is written when any of these is found).
BAD_VERSION, CANNOT_MOVE, BACKUP_EXISTS, OUTSIDE, CANNOT_WRITE = (
    "PNP-U001", "PNP-U002", "PNP-U003", "PNP-U004", "PNP-U005")

BACKUP_SUFFIX = ".bak"


@dataclass(frozen=True)
class Found:
    """One key of a document in its old place: a top-level key, or a variant's override path
    that still names the old place (`game/check_timing`)."""

    move: Move
    path: tuple  # the data path of the key in the document
    new_name: str = ""  # an override path's new spelling
    conflict: bool = False  # the new place is already taken


def _moves_of(kind: str | None) -> dict[str, Move]:
    return {m.key: m for m in MOVES if m.kind == kind}


def find_moved(doc: Document) -> list[Found]:
    """Every moved key a document still has in its old place, in document order."""
    data = doc.data
    if not isinstance(data, dict):
        return []
    found: list[Found] = []
    for key, move in _moves_of(doc.kind).items():
        if key in data:
            target = data.get(move.under)
            found.append(Found(move, (key,), conflict=isinstance(target, dict) and key in target))
    if doc.kind == "game":
        found.extend(_moved_override_paths(data))
    return sorted(found, key=lambda f: doc.key_pos(f.path))


def moved_override_path(path: str) -> tuple[Move, str] | None:
    """The move an override path still spells the old way, and its new spelling."""
    kind, _, rest = path.partition("/")
    move = _moves_of(kind).get(rest.split("/", 1)[0])
    if move is None:
        return None
    return move, f"{kind}/{move.under}/{rest}"


def _moved_override_paths(data: dict) -> list[Found]:
    found = []
    variants = data.get("variants")
    for i, variant in enumerate(variants if isinstance(variants, list) else []):
        overrides = variant.get("overrides") if isinstance(variant, dict) else None
        if not isinstance(overrides, dict):
            continue
        for key in overrides:
            moved = moved_override_path(key) if isinstance(key, str) else None
            if moved is not None:
                move, new = moved
                found.append(Found(move, ("variants", i, "overrides", key), new, new in overrides))
    return found


def game_argument(folder: Path) -> str:
    """How to name the game folder on a command line: the bundled name or a path."""
    from pnp.paths import CARDS

    try:
        if folder.resolve().parent == CARDS.resolve():
            return shlex.quote(folder.name)
    except (OSError, RuntimeError):
        pass
    return shlex.quote(display_path(str(folder), None))


def moved_key_diagnostics(doc: Document, found: list[Found], folder: Path) -> list[Diagnostic]:
    """One PNP-L022 per moved key, at the key, naming where it went and how to move it."""
    run = f"run `pnp upgrade {game_argument(folder)}`"
    out = []
    for f in found:
        m = f.move
        where = f"`{m.key}` moved under `{m.under}:` in schema version {m.version}"
        if len(f.path) > 1:  # an override path
            message = f"override path '{f.path[-1]}': {where}; the path is now '{f.new_name}'"
            hint = (f"keep one of '{f.path[-1]}' and '{f.new_name}' in this variant, then {run}"
                    if f.conflict else run)
        else:
            message = where
            hint = run
            if f.conflict:
                message += f", and `{m.under}:` already has a `{m.key}`"
                hint = (f"keep one of the two (pnp reads the one under `{m.under}:`): delete "
                        f"the other, then {run}")
        out.append(Diagnostic.at(doc.key_pos(f.path), ERROR, MOVED, message, hint))
    return out


def without_moved(doc: Document, found: list[Found]) -> Document:
    """The document with its moved top-level keys left out, for the schema check: a moved key
    is reported once, by PNP-L022, not again as an unknown property."""
    top = {f.path[0] for f in found if len(f.path) == 1}
    if not top or not isinstance(doc.data, dict):
        return doc
    return dataclasses.replace(doc, data={k: v for k, v in doc.data.items() if k not in top})


# -- pnp upgrade --------------------------------------------------------------------------------


@dataclass
class FileChange:
    """One file's upgrade: its bytes before and after, and what changed, in words."""

    path: Path
    old: bytes
    new: bytes
    notes: list[str] = field(default_factory=list)

    def diff(self, folder: Path) -> str:
        """A unified diff, paths relative to the game folder (`patch -p1` applies it there)."""
        name = _relative_name(self.path, folder)
        old = _split_lines(self.old.decode("utf-8"))
        new = _split_lines(self.new.decode("utf-8"))
        out = []
        for line in difflib.unified_diff(old, new, f"a/{name}", f"b/{name}"):
            out.append(line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n")
        return "".join(out)


@dataclass
class UpgradePlan:
    """What `pnp upgrade` would write, or why it cannot (errors: nothing is written)."""

    folder: Path
    changes: list[FileChange] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not has_errors(self.diagnostics)


def plan_upgrade(folder: Path | str) -> UpgradePlan:
    """Read a game folder and work out every file's upgraded text; writes nothing.

    A file that does not load (YAML errors, a link out of the folder) stops the whole plan:
    a game is upgraded in one go or not at all."""
    from pnp.data.game import read_game

    folder = Path(folder)
    plan = UpgradePlan(folder)
    result, docs = read_game(folder)
    plan.diagnostics = [d for d in result.diagnostics if d.severity == ERROR]
    if docs is None or not plan.ok:
        return plan
    seen: set[Path] = set()
    for doc in docs:
        if (not _moves_of(doc.kind) and doc.kind != "game") or Path(doc.path).resolve() in seen:
            continue  # a file linked in twice is upgraded once
        seen.add(Path(doc.path).resolve())
        change = _plan_file(doc, plan)
        if change is not None:
            plan.changes.append(change)
    if not plan.ok:
        plan.changes = []
    return plan


def _declared_version(doc: Document, plan: UpgradePlan) -> int | None:
    """The file's `schema_version` (1 when absent), or None after reporting a bad one."""
    data = doc.data if isinstance(doc.data, dict) else {}
    if "schema_version" not in data:
        return 1
    version = data["schema_version"]
    pos = doc.pos(("schema_version",))
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        plan.diagnostics.append(Diagnostic.at(
            pos, ERROR, BAD_VERSION, f"schema_version must be a whole number from 1 to "
            f"{CURRENT_VERSION}, not {str(version)[:40]!r}",
            "write the version the game was made for (docs/schema-versions.md), or delete the "
            "line for version 1"))
        return None
    if version > CURRENT_VERSION:
        plan.diagnostics.append(Diagnostic.at(
            pos, ERROR, BAD_VERSION, f"this game is written for schema version {version}; this "
            f"pnp knows versions up to {CURRENT_VERSION}", "upgrade pnp; a game is never downgraded"))
        return None
    return version


def _plan_file(doc: Document, plan: UpgradePlan) -> FileChange | None:
    version = _declared_version(doc, plan)
    if version is None:
        return None
    found = find_moved(doc)
    for f in found:
        if f.conflict:
            plan.diagnostics.extend(moved_key_diagnostics(doc, [f], plan.folder))
    if not plan.ok:
        return None
    bump = doc.kind == "game" and version < CURRENT_VERSION
    if not found and not bump:
        return None
    try:
        old = Path(doc.path).read_bytes()
    except OSError as exc:
        plan.diagnostics.append(Diagnostic(ERROR, CANNOT_WRITE, f"cannot read the file again: "
                                           f"{exc.strerror or exc}", str(doc.path), 1, 1,
                                           "check the file is readable"))
        return None
    rewrite = _Rewrite(doc, old, found, CURRENT_VERSION if bump else None)
    new = rewrite.run()
    plan.diagnostics.extend(rewrite.problems)
    if new is None:
        return None
    return FileChange(Path(doc.path), old, new, rewrite.notes)


_BREAK_RE = re.compile("\r\n|[\r\n\x85\u2028\u2029]")


def _split_lines(text: str) -> list[str]:
    """Lines with their line breaks, split where YAML (and the parser's marks) split them."""
    lines, start = [], 0
    for m in _BREAK_RE.finditer(text):
        lines.append(text[start:m.end()])
        start = m.end()
    if start < len(text):
        lines.append(text[start:])
    return lines


def _is_blank(line: str) -> bool:
    return not line.strip()


class _Rewrite:
    """The text of one file with its moved keys moved, override paths respelt and
    `schema_version` set; `problems` says why not when it cannot be done safely."""

    def __init__(self, doc: Document, raw: bytes, found: list[Found], version: int | None):
        self.doc, self.raw, self.found, self.version = doc, raw, found, version
        self.problems: list[Diagnostic] = []
        self.notes: list[str] = []  # what moved, in words
        self.renames: list[str] = []  # then what was respelt or set

    def refuse(self, line: int, column: int, message: str,
               hint: str = "make this change by hand (docs/schema-versions.md)") -> None:
        self.problems.append(Diagnostic(ERROR, CANNOT_MOVE, message, str(self.doc.path), line,
                                        column, hint))

    def run(self) -> bytes | None:
        try:
            text = self.raw.decode("utf-8")
        except UnicodeDecodeError:
            self.refuse(1, 1, "the file changed since it was read (it is no longer UTF-8)",
                        "run pnp upgrade again")
            return None
        bom = "\ufeff" if text.startswith("\ufeff") else ""
        text = text[len(bom):]
        try:
            root = yaml.compose(text, Loader=yaml.SafeLoader)
        except yaml.YAMLError as exc:  # the loader accepted it; libyaml and PyYAML may differ
            mark = getattr(exc, "problem_mark", None)
            self.refuse(mark.line + 1 if mark else 1, mark.column + 1 if mark else 1,
                        f"cannot read the file's layout to rewrite it: {exc}".splitlines()[0])
            return None
        if not isinstance(root, yaml.MappingNode) or root.flow_style:
            self.refuse(1, 1, "the file's top level is not a block mapping (one `key:` a line), "
                        "so its keys cannot be moved line by line")
            return None
        new_text = self.rewrite(text, root)
        if new_text is None:
            return None
        new = (bom + new_text).encode("utf-8")
        if not self.verify(new):
            return None
        return new

    # the rewrite --------------------------------------------------------------------------

    def rewrite(self, text: str, root: yaml.MappingNode) -> str | None:
        lines = _split_lines(text)
        newline = m.group() if (m := _BREAK_RE.search(text)) else "\n"
        if lines and not lines[-1].endswith(("\n", "\r", "\x85", "\u2028", "\u2029")):
            lines[-1] += newline  # taken off again at the end
            had_end = False
        else:
            had_end = True
        entries = [(k, v) for k, v in root.value]
        for key_node, _ in entries:
            if key_node.start_mark.column != 0:
                self.refuse(key_node.start_mark.line + 1, key_node.start_mark.column + 1,
                            "the top-level keys are indented, so their blocks cannot be moved "
                            "line by line")
                return None
        keys = [k.value if isinstance(k, yaml.ScalarNode) else None for k, _ in entries]
        starts, ends = self.spans(lines, entries)
        before: dict[int, list[str]] = {}
        deleted: set[int] = set()

        for f in self.found:  # override paths: respelt in place, on their own line
            if len(f.path) > 1 and not self.respell(lines, root, f):
                return None
        if self.version is not None:
            self.set_version(lines, entries, keys, before, newline)
            if self.problems:
                return None

        top = [f for f in self.found if len(f.path) == 1]
        for f in top:
            if f.move.key not in keys:  # it comes from a merge (`<<:`), not a line of its own
                pos = self.doc.key_pos(f.path)
                self.refuse(pos.line, pos.column, f"`{f.move.key}` is merged in with `<<:`, "
                            "so there is no block of lines to move")
                return None
        for under in dict.fromkeys(f.move.under for f in top):
            moving = [keys.index(f.move.key) for f in top if f.move.under == under]
            moving.sort()
            blocks: list[str] = []
            target = keys.index(under) if under in keys else None
            indent = 2
            if target is not None:
                indent = self.child_indent(entries[target])
                if indent is None:
                    return None
            for n, i in enumerate(moving):
                gap = lines[ends[i - 1]:starts[i]] if i > 0 else []
                if n > 0 or target is not None:
                    blocks.extend(gap)
                    deleted.update(range(ends[i - 1], starts[i]))
                blocks.extend(" " * indent + line if not _is_blank(line) else line
                              for line in lines[starts[i]:ends[i]])
                deleted.update(range(starts[i], ends[i]))
                self.notes.append(f"moved `{keys[i]}` under `{under}:` (schema version "
                                  f"{_moves_of(self.doc.kind)[keys[i]].version})")
            if target is None:
                at = starts[moving[0]]
                before.setdefault(at, []).extend([f"{under}:{newline}", *blocks])
            else:
                before.setdefault(ends[target], []).extend(blocks)

        out = []
        for i, line in enumerate(lines):
            out.extend(before.get(i, ()))
            if i not in deleted:
                out.append(line)
        out.extend(before.get(len(lines), ()))
        self.notes.extend(self.renames)
        new_text = "".join(out)
        if not had_end and new_text.endswith(newline):
            new_text = new_text[:-len(newline)]
        return new_text

    def spans(self, lines: list[str], entries: list) -> tuple[list[int], list[int]]:
        """Each top-level entry's first and (exclusive) last line: from the comment lines at
        column 0 right above its key (the first entry's stay where they are: the file's head)
        to its last line that is not blank."""
        key_lines = [k.start_mark.line for k, _ in entries]
        starts = []
        for n, line in enumerate(key_lines):
            start = line
            while n > 0 and start > 0 and lines[start - 1].startswith("#"):
                start -= 1
            starts.append(start)
        ends = []
        for n in range(len(entries)):
            end = starts[n + 1] if n + 1 < len(entries) else len(lines)
            while end > key_lines[n] + 1 and _is_blank(lines[end - 1]):
                end -= 1
            ends.append(end)
        return starts, ends

    def child_indent(self, entry) -> int | None:
        """The column the entries of an existing block mapping start in (2 when it is empty)."""
        key, value = entry
        if isinstance(value, yaml.ScalarNode) and value.tag.endswith(":null") and value.value == "":
            return 2
        if isinstance(value, yaml.MappingNode) and not value.flow_style and value.value:
            return value.value[0][0].start_mark.column
        self.refuse(key.start_mark.line + 1, key.start_mark.column + 1,
                    f"`{key.value}:` is not a block of `key: value` lines, so the moved keys "
                    "cannot be added to it",
                    f"write `{key.value}:` as a block (one key a line, indented), then run pnp "
                    "upgrade again")
        return None

    def set_version(self, lines, entries, keys, before, newline) -> None:
        """`schema_version:` set in place, or added as the file's first key."""
        self.renames.append(f"schema_version: {self.version}")
        if "schema_version" not in keys:
            before.setdefault(entries[0][0].start_mark.line, []).insert(
                0, f"schema_version: {self.version}{newline}")
            return
        value = entries[keys.index("schema_version")][1]
        mark, end = value.start_mark, value.end_mark
        if not isinstance(value, yaml.ScalarNode) or mark.line != end.line or value.style:
            self.refuse(mark.line + 1, mark.column + 1, "schema_version is not a plain number")
            return
        line = lines[mark.line]
        lines[mark.line] = line[:mark.column] + str(self.version) + line[end.column:]

    def respell(self, lines: list[str], root: yaml.MappingNode, f: Found) -> bool:
        """An override path's key rewritten in place: `game/end/...` -> `game/rules/end/...`."""
        node = _key_node(root, f.path)
        old, new = f.path[-1], f.new_name
        if node is None or node.start_mark.line != node.end_mark.line:
            pos = self.doc.key_pos(f.path)
            self.refuse(pos.line, pos.column, f"override path '{old}' is not written on one line")
            return False
        line = lines[node.start_mark.line]
        raw = line[node.start_mark.column:node.end_mark.column]
        inner = raw[1:-1] if node.style in ("'", '"') else raw
        if inner != old:
            self.refuse(node.start_mark.line + 1, node.start_mark.column + 1,
                        f"override path '{old}' is written with escapes or folds")
            return False
        at = node.start_mark.column + (1 if node.style in ("'", '"') else 0)
        lines[node.start_mark.line] = line[:at] + new + line[at + len(old):]
        self.renames.append(f"override path '{old}' is now '{new}'")
        return True

    # the check ----------------------------------------------------------------------------

    def verify(self, new: bytes) -> bool:
        """The rewritten text must load to exactly the data the moves describe, key order too."""
        doc, problems = load_text(new, self.doc.path)
        expected = self.expected()
        if doc is None or has_errors(problems) or _ordered(doc.data) != _ordered(expected):
            self.refuse(1, 1, "the rewritten file would not hold the same data (anchors, "
                        "aliases or block scalars kept at a moved block's end can cause this)")
            return False
        return True

    def expected(self) -> dict:
        data = self.doc.data
        moved = {f.path[0]: f.move for f in self.found if len(f.path) == 1}
        renamed = {f.path: f.new_name for f in self.found if len(f.path) > 1}
        out: dict = {}
        if self.version is not None and "schema_version" not in data:
            out["schema_version"] = self.version
        for key, value in data.items():
            if key in moved:
                under = moved[key].under
                if under not in data and under not in out:
                    out[under] = {}
                continue
            out[key] = self.version if key == "schema_version" and self.version else value
        for key, move in moved.items():
            if out.get(move.under) is None:
                out[move.under] = {}
            out[move.under] = {**out[move.under], key: data[key]}
        if renamed:
            out["variants"] = [dict(v) if isinstance(v, dict) else v for v in out["variants"]]
            for (_, i, _, old), new in renamed.items():
                variant = out["variants"][i]
                variant["overrides"] = {new if k == old else k: v
                                        for k, v in variant["overrides"].items()}
        return out


def _key_node(root: yaml.Node, path: tuple) -> yaml.ScalarNode | None:
    """The key node of a data path (mapping keys and list indices) in a composed tree."""
    node, key_node = root, None
    for step in path:
        if isinstance(node, yaml.MappingNode):
            match = [(k, v) for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == step]
            if not match:
                return None
            key_node, node = match[-1]
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) and step < len(node.value):
            node, key_node = node.value[step], None
        else:
            return None
    return key_node


def _ordered(value):
    """A value with every mapping as a list of pairs, so comparing it compares key order too."""
    if isinstance(value, dict):
        return [(k, _ordered(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [_ordered(v) for v in value]
    return value


def _relative_name(path: Path, folder: Path) -> str:
    try:
        return path.resolve().relative_to(folder.resolve()).as_posix()
    except (ValueError, OSError, RuntimeError):
        return path.name


# -- writing ------------------------------------------------------------------------------------


def write_upgrade(plan: UpgradePlan) -> list[Diagnostic]:
    """Write a plan: each file's backup (FILE.bak, never over an existing one), then the file,
    through a temporary file in its folder and os.replace. Nothing is written when a check
    fails; files inside links that lead out of the game folder are refused."""
    folder = plan.folder.resolve()
    targets = []
    problems: list[Diagnostic] = []
    for change in plan.changes:
        real = change.path.resolve()
        name = str(change.path)
        if not real.is_relative_to(folder) or real.is_symlink():
            problems.append(Diagnostic(ERROR, OUTSIDE, "this file links to a place outside the "
                                       "game folder; pnp upgrade writes only inside it", name, 1,
                                       1, "copy the file into the game folder instead of "
                                       "linking to it"))
            continue
        backup = real.with_name(real.name + BACKUP_SUFFIX)
        if backup.exists() or backup.is_symlink():
            problems.append(Diagnostic(ERROR, BACKUP_EXISTS, f"a backup {backup.name} is already "
                                       "there (from an earlier upgrade?)", name, 1, 1,
                                       f"move {backup.name} away or delete it, then run pnp "
                                       "upgrade again"))
            continue
        try:
            if real.read_bytes() != change.old:
                problems.append(Diagnostic(ERROR, CANNOT_WRITE, "the file changed while pnp "
                                           "upgrade read it", name, 1, 1, "run pnp upgrade again"))
                continue
        except OSError as exc:
            problems.append(_cannot_write(name, exc))
            continue
        targets.append((change, real, backup))
    if problems:
        return problems
    for change, real, backup in targets:
        try:
            mode = real.stat().st_mode & 0o7777
            _write_new(backup, change.old, mode)
            _replace(real, change.new, mode)
        except OSError as exc:
            return [_cannot_write(str(change.path), exc)]
    return []


def _cannot_write(name: str, exc: OSError) -> Diagnostic:
    return Diagnostic(ERROR, CANNOT_WRITE, f"cannot write {name}: {exc.strerror or exc}", name,
                      hint="check the game folder is writable")


def _write_new(path: Path, data: bytes, mode: int) -> None:
    """Create `path` with `data`; fails if anything (a file, a link) already has the name."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), mode)
    try:
        os.fchmod(fd, mode)  # the original's permissions, whatever the umask
        with os.fdopen(fd, "wb") as out:
            fd = -1
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
    except BaseException:
        if fd >= 0:
            os.close(fd)
        path.unlink(missing_ok=True)  # O_EXCL: the name is ours, a half-written file goes
        raise


def _replace(path: Path, data: bytes, mode: int) -> None:
    """Replace `path` atomically: a new file in the same folder, then os.replace."""
    tmp = path.with_name(f".{path.name}.pnp-upgrade-{os.getpid()}.tmp")
    _write_new(tmp, data, mode)
    try:
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
