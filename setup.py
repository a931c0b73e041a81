"""Build hook: carry the top-level data folders into the package, as pnp/_bundled/.

cards/, schemas/, templates/ (with its icons) and rulesheet/ stay at the top of the repository,
where designers edit them; a wheel (and a wheel built from the sdist) holds a copy of them inside
the package, where pnp/paths.py finds them. An editable install copies nothing: pnp reads the
checkout. Everything else is declared in pyproject.toml.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

# the same names as pnp.paths.BUNDLED and pnp.paths.DATA_FOLDERS (the build cannot import pnp)
BUNDLED = "_bundled"
DATA_FOLDERS = ("cards", "schemas", "templates", "rulesheet")
HERE = Path(__file__).resolve().parent
SKIPPED = shutil.ignore_patterns("__pycache__", "*.pyc", ".*")


class BuildWithData(build_py):
    """build_py that also copies the data folders into build/lib/pnp/_bundled/."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        target = Path(self.build_lib) / "pnp" / BUNDLED
        shutil.rmtree(target, ignore_errors=True)  # no file deleted from the repository survives
        for name in DATA_FOLDERS:
            if not (HERE / name).is_dir():  # a wheel without its games would install and fail
                raise FileNotFoundError(f"{HERE / name} is missing: an sdist must carry it (MANIFEST.in)")
            shutil.copytree(HERE / name, target / name, ignore=SKIPPED)


setup(cmdclass={"build_py": BuildWithData})
