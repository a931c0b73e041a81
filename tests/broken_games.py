"""Helpers for tests that break a starter game on purpose and read what validate and build say."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from pnp.cli import main
from pnp.scaffold import scaffold


def starter(tmp_path: Path, name: str = "broken") -> Path:
    """A fresh `pnp new` game (it validates and builds as it is)."""
    folder = tmp_path / name
    scaffold(folder)
    return folder


def edit(path: Path, old: str, new: str) -> int:
    """Replace the first `old` in the file; returns the 1-based line of the edit."""
    text = path.read_text(encoding="utf-8")
    at = text.index(old)
    path.write_text(text[:at] + new + text[at + len(old):], encoding="utf-8")
    return text[:at].count("\n") + 1


def line_of(path: Path, needle: str) -> int:
    text = path.read_text(encoding="utf-8")
    return text[:text.index(needle)].count("\n") + 1


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def validate(folder: Path, *extra: str) -> tuple[int, list[dict]]:
    """Exit code and diagnostics (JSON form) of `pnp validate --strict FOLDER`."""
    res = run("validate", "--strict", "--format", "json", *extra, str(folder))
    return res.exit_code, json.loads(res.stdout)["diagnostics"]


def build(folder: Path, out: Path) -> tuple[int, str]:
    res = run("build", str(folder), "--out", str(out))
    return res.exit_code, res.output


def errors(diags: list[dict], code: str | None = None) -> list[dict]:
    return [d for d in diags if d["severity"] == "error" and (code is None or d["code"] == code)]
