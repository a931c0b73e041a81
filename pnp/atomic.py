"""Atomic file writes: readers see the old file or the new one, never half of it.

Rendered files (pnp.render.pdfwrite, tokens), reports (pnp.report) and event logs
(pnp.engine.log) are written through here, so a full disk or a crash mid-write never leaves a
truncated file where a good one was. It needs nothing but the standard library, so every layer
may use it.
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> Path:
    """Write to a temp file in the same folder, then os.replace: readers see old or new, never half."""
    path = Path(path)
    if path.parent.exists() and not path.parent.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(path.parent))
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    return path
