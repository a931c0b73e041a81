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
