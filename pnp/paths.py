"""Where the bundled folders live: cards/, schemas/, templates/ (with icons/) and rulesheet/.

They stay at the top of the repository, where designers edit them. Two layouts hold them:

- an installed wheel (pip install ., pipx, a wheel built from the sdist): the build copies them
  into the package as `pnp/_bundled/` (setup.py), found here through importlib.resources;
- a checkout with an editable install: the build copies nothing, so they are read from the
  repository root beside `pnp/`, and an edit to a card shows in the next command.

`PNP_HOME` names another root holding the same four folders, and wins over both.
"""

from __future__ import annotations

import os
from importlib.resources import files
from pathlib import Path

#: The folder inside the package that a non-editable build fills (setup.py copies into it).
BUNDLED = "_bundled"
#: The folders carried into the package, relative to ROOT.
DATA_FOLDERS = ("cards", "schemas", "templates", "rulesheet")
#: This package's folder; pip always unpacks wheels, so it is a plain folder on disk.
PACKAGE = Path(str(files("pnp")))


def data_root(package: Path = PACKAGE) -> Path:
    """The folder holding cards/, schemas/, templates/ and rulesheet/: PNP_HOME, else the copy
    inside the installed package, else the checkout the package sits in (editable install)."""
    if os.environ.get("PNP_HOME"):
        return Path(os.environ["PNP_HOME"])
    if (package / BUNDLED).is_dir():
        return package / BUNDLED
    return package.parent


ROOT = data_root()
#: True when the data is the copy inside an installed package: files pip owns, not to be edited.
IN_PACKAGE = ROOT == PACKAGE / BUNDLED
CARDS = ROOT / "cards"
SCHEMAS = ROOT / "schemas"
TEMPLATES = ROOT / "templates"
RULESHEET = ROOT / "rulesheet"


def default_output() -> Path:
    """Where `pnp build` and `pnp render` write when no --out is given: ./output in the current folder.

    Games live anywhere, so output follows the user rather than this checkout; from the checkout
    root this is the checkout's output/ (the README's first command).
    """
    return Path.cwd() / "output"
