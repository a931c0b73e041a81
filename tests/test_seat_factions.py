"""A seat that plays the same faction in every game is named by it in the reports (Antike's
seats fix the nations, while its start coins go by turn order: a report that said only "seat
4" sent a designer, and once us, to tune the wrong nation's coins). A seat whose faction
changes from game to game keeps its number alone."""

from __future__ import annotations

import json

from click.testing import CliRunner

from pnp.cli import main


def _simulate(*args: str) -> str:
    result = CliRunner().invoke(main, ["simulate", *args, "--skill", "none"])
    assert result.exit_code in (0, 1), result.output
    return result.stdout


def test_antike_names_each_seats_nation_in_json_and_text() -> None:
    doc = json.loads(_simulate("antike", "--players", "4", "--games", "12", "--workers", "2",
                               "--format", "json"))
    assert [s.get("faction") for s in doc["seats"]] == [
        "Romans", "Phoenicians", "Carthaginians", "Persians"]
    text = _simulate("antike", "--players", "4", "--games", "12")
    seats = next(line for line in text.splitlines() if line.startswith("Seats"))
    assert "1 (Romans): " in seats and "4 (Persians): " in seats


def test_a_seat_flagged_unfair_is_named_by_its_nation(tmp_path) -> None:
    """Antike at 2 players with 12 start coins for the Romans (first in turn order, seat 1)
    and none for the Phoenicians: PNP-B005 names both seats with their nations."""
    from test_antike_coins import with_coins

    folder = with_coins(tmp_path, "[4, 4, 3, 3, 4, 4]", '{"2": [12, 0]}')
    doc = json.loads(_simulate(str(folder), "--players", "2", "--format", "json"))
    flagged = [f["message"] for f in doc["findings"] if f["code"] == "PNP-B005"]
    assert any(m.startswith("Seat 1 (Romans) wins ") for m in flagged), flagged
    assert any(m.startswith("Seat 2 (Phoenicians) wins less") for m in flagged), flagged


def test_a_seat_whose_faction_changes_keeps_its_number_alone() -> None:
    """The Ancient World's city-states are dealt at random: no seat plays one in every game."""
    doc = json.loads(_simulate("the-ancient-world", "--players", "2", "--games", "12",
                               "--variant", "city-states", "--format", "json"))
    assert doc["factions"] and len({f["faction"] for f in doc["factions"]}) > 2
    assert all("faction" not in s for s in doc["seats"])
    text = _simulate("the-ancient-world", "--players", "2", "--games", "12",
                     "--variant", "city-states")
    assert "Seats      1: " in text


def test_tune_names_the_seats_nations_in_its_confirmation() -> None:
    result = CliRunner().invoke(main, [
        "tune", "antike", "--players", "2", "--param",
        "game/rules/setup/start_coins_by_players/2/0=3..4", "--games", "4", "--budget", "2",
        "--confirm-games", "4"])
    assert result.exit_code == 0, result.output
    base = next(line for line in result.output.splitlines() if "seats   base" in line)
    assert "1 (Romans): " in base and "2 (Phoenicians): " in base


def test_the_pdf_names_the_nations_and_its_seat_chart_keeps_the_seat_numbers(tmp_path) -> None:
    """At six seats "seat 1" does not fit under its bar: the chart labels the bars 1 to 6
    (it read "sea…" six times), and the figures name each seat's nation."""
    import pdfplumber

    from pnp.render.text import ELLIPSIS

    pdf = tmp_path / "report.pdf"
    _simulate("antike", "--players", "6", "--games", "12", "--report", str(pdf))
    with pdfplumber.open(pdf) as doc:
        text = "\n".join(page.extract_text() or "" for page in doc.pages)
        chart = next(page for page in doc.pages if "Win rate by seat (95% CI)" in
                     (page.extract_text() or ""))
        labels = [w["text"] for w in chart.extract_words()]
    assert "1 (Romans): " in text.replace("\n", " ")
    assert f"sea{ELLIPSIS}" not in text
    assert all(str(n) in labels for n in range(1, 7))
