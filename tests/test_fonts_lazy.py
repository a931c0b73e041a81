"""Vera faces are registered when first needed, and the family's bold and italic stay mapped.

Each check runs in a fresh process: within the test session some other test has long since
registered every face.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _fresh(code: str) -> dict:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, cwd=REPO)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_the_family_maps_bold_and_italic_whichever_face_came_first():
    """platypus turns <b> and <i> into faces through this mapping (the rulesheets use it)."""
    got = _fresh(
        "import json\n"
        "from pnp.render import fonts\n"
        "fonts.ensure_font('Vera')\n"  # one face first, the rest later
        "fonts.ensure_fonts()\n"
        "from reportlab.lib.fonts import tt2ps\n"
        "print(json.dumps([tt2ps('Vera', b, i) for b, i in ((0, 0), (1, 0), (0, 1), (1, 1))]))")
    assert got == ["Vera", "Vera-Bold", "Vera-Italic", "Vera-BoldItalic"]


def test_card_sheets_parse_only_the_faces_their_cards_use(tmp_path):
    """A deck in regular and bold leaves the italics unparsed; the sheet still renders."""
    folder = tmp_path / "game"
    got = _fresh(
        "import json, importlib.util, pathlib\n"
        "spec = importlib.util.spec_from_file_location('b', 'benchmarks/render_cards.py')\n"
        "b = importlib.util.module_from_spec(spec); spec.loader.exec_module(b)\n"
        f"folder = b.write_game(pathlib.Path({str(tmp_path)!r}), 54, True, 'like')\n"
        "from pnp.data.game import load_game\n"
        "from pnp.render import fonts\n"
        "from pnp.render.sheets import render_deck_sheets\n"
        "paths, diags = render_deck_sheets(load_game(folder).game, "
        f"out_dir=pathlib.Path({str(folder)!r}) / 'out')\n"
        "print(json.dumps({'faces': sorted(fonts._registered), 'files': len(paths), "
        "'diags': len(diags)}))")
    assert got == {"faces": ["Vera", "Vera-Bold"], "files": 1, "diags": 0}
