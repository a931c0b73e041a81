"""`pnp render` wiring: the calibration page a duplex user needs is one flag away."""

from __future__ import annotations

from click.testing import CliRunner
from pypdf import PdfReader

from pnp.cli import main


def test_render_cards_with_a_calibration_page(tmp_path):
    result = CliRunner().invoke(main, ["render", "cards", "ancient-civilizations", "--duplex", "short",
                                       "--calibration", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    calibration = tmp_path / "calibration-a4-short.pdf"
    assert calibration.exists()
    text = "".join(page.extract_text() for page in PdfReader(calibration).pages)
    assert "offset" in text.lower()


def test_calibration_is_a_cards_option_only(tmp_path):
    result = CliRunner().invoke(main, ["render", "board", "ancient-civilizations", "--calibration",
                                       "--out", str(tmp_path)])
    assert result.exit_code == 2 and "--calibration applies to `pnp render cards`" in result.output
