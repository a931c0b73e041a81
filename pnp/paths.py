"""Where the bundled folders live: the repository root holds cards/, schemas/, templates/."""

from __future__ import annotations

import os
from pathlib import Path

#: The project root. pnp is installed editable (README), so the data folders sit beside the package.
ROOT = Path(os.environ.get("PNP_HOME", Path(__file__).resolve().parent.parent))
CARDS = ROOT / "cards"
SCHEMAS = ROOT / "schemas"
TEMPLATES = ROOT / "templates"
RULESHEET = ROOT / "rulesheet"
OUTPUT = ROOT / "output"


def default_output() -> Path:
    """Where `pnp build` and `pnp render` write when no --out is given: ./output in the current folder.

    Games live anywhere, so output follows the user rather than this checkout; from the checkout
    root this is the checkout's output/ (the README's first command).
    """
    return Path.cwd() / "output"
