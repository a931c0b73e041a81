"""Atomic kits: a game's files are written to a staging folder and swapped in only when all succeeded.

A print kit is several files that belong together (card sheets, board, record sheet, tokens). If a
build fails or is killed half-way, the folder a user prints from must still hold the previous kit,
complete and byte-identical, never a mix. So every file is written into a hidden sibling folder
`.<name>.staging-<pid>` next to the kit; when every renderer succeeded the two folders are
exchanged in one atomic `renameat2(RENAME_EXCHANGE)` call (Linux) or two renames elsewhere, and
the old kit is deleted. Leftovers of a killed build (folders whose pid is no longer running) are
removed, or the old kit restored, at the start of the next build.

Every staging folder holds the kit marker (pnp/render/kit_folder.py) from the start; callers check
`kit_folder_problems` before `staged`, so a folder pnp did not write is never replaced.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pnp.diagnostics import ERROR, Diagnostic
from pnp.render.kit_folder import write_marker
from pnp.render.pdfwrite import WRITE_FAILED

_LEFTOVER = re.compile(r"^\.(?P<name>.+)\.(?P<what>staging|old)-(?P<pid>\d+)$")
_RENAME_EXCHANGE = 2


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process: leave its folders alone
    return True


def clean_leftovers(target: Path) -> None:
    """Remove staging/old folders of `target` left by dead builds; restore an old kit if needed.

    A build killed between the two renames of the non-atomic swap leaves no kit but a complete
    `.<name>.old-<pid>`: that is put back. Everything else of a dead pid is deleted.
    """
    parent = target.parent
    if not parent.is_dir():
        return
    for entry in sorted(parent.iterdir()):
        m = _LEFTOVER.match(entry.name)
        if not m or m["name"] != target.name or _pid_alive(int(m["pid"])):
            continue
        if m["what"] == "old" and not target.exists():
            os.replace(entry, target)
            continue
        shutil.rmtree(entry, ignore_errors=True)
        if entry.exists() and not entry.is_dir():
            entry.unlink(missing_ok=True)


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap two existing paths (Linux renameat2); False when the system cannot."""
    import ctypes  # here, not at the top: only a swap needs it (ctypes.util loads subprocess)
    import ctypes.util

    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        libc = ctypes.CDLL(name, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd = -100
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                          ctypes.c_uint]
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP):
        return False
    raise OSError(err, os.strerror(err), str(a))


def swap_in(staging: Path, target: Path) -> None:
    """Make `staging` the new `target`; the previous `target` (if any) is deleted afterwards."""
    if not target.exists():
        os.replace(staging, target)
        return
    if _exchange(staging, target):
        shutil.rmtree(staging, ignore_errors=True)  # now holds the previous kit
        return
    old = target.parent / f".{target.name}.old-{os.getpid()}"
    os.replace(target, old)
    os.replace(staging, target)
    shutil.rmtree(old, ignore_errors=True)


def write_error(path: Path, exc: OSError) -> Diagnostic:
    """The R050 diagnostic for an output folder or file that cannot be written."""
    return Diagnostic(ERROR, WRITE_FAILED, f"cannot write {path}: {exc.strerror or exc}", str(path),
                      hint="check the folder exists, is a folder and is writable, or choose "
                           "another with --out")


@contextmanager
def staged(target: str | os.PathLike, diags: list[Diagnostic],
           swap: bool = True) -> Iterator[Path | None]:
    """Yield a fresh staging folder for `target`; swap it in at the end unless diags has errors.

    With swap=False the caller moves what it wants out of the staging folder (move_into) before
    the block ends; whatever is left is deleted.

    The staging folder starts with the kit marker, which move_into carries into `target` too.
    Yields None (with an R050 diagnostic added) when the output folder cannot be created. On an
    exception or an error diagnostic the staging folder is removed and `target` is untouched.
    """
    target = Path(target)
    staging = target.parent / f".{target.name}.staging-{os.getpid()}"
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        clean_leftovers(target)
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir()
        write_marker(staging)  # the kit says pnp wrote it, so the next build may replace it
    except OSError as exc:
        diags.append(write_error(target, exc))
        yield None
        return
    try:
        yield staging
        if not swap or any(d.severity == ERROR for d in diags):
            return
        try:
            swap_in(staging, target)
        except OSError as exc:
            diags.append(write_error(target, exc))
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def move_into(staging: Path, target: Path, paths: list[Path]) -> list[Path]:
    """Move each top-level entry of `staging` into `target` (one os.replace each) and map paths.

    For commands that update part of a kit (`pnp render`): the other files stay as they are.
    """
    target.mkdir(parents=True, exist_ok=True)
    for entry in sorted(staging.iterdir()):
        dest = target / entry.name
        if dest.is_dir() and not entry.is_dir():
            shutil.rmtree(dest)
        if entry.is_dir() and dest.exists():
            if _exchange(entry, dest):
                continue
            shutil.rmtree(dest)
        os.replace(entry, dest)
    return [target / p.relative_to(staging) for p in paths]
