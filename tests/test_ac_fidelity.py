"""Ancient Civilizations data against the rulebook, transcribed here independently of cards/.

Each table below is typed from the rules text (002_966292444ce3e8d0.txt); a typo in the YAML,
a dropped space or a changed number shows up as a failing row.
"""

from __future__ import annotations

import pytest

from pnp.data.effects import format_effect

# Track -> spaces in order as "Name: note" (the rulebook's note, or Start).
TRACKS = {
    "pre-history": "Dawn of Time: Start|Hunting: F+1|Gathering: F+1|Fire: R+1 F+1|Boats: T+1 F+2|"
    "Tools: R+1 F+2|Archery: M+1 F+2|The Wheel: R+2|Writing: C+2|Numbers: VP+1|Mysticism: Z+2|"
    "Clothing: C+2|The Arch: I+1|Painting: C+2|Cultivation: F+3|Nets: F+3|Metal Working: M+1 G+1|"
    "Pottery: C+1 F+2|Domestication: F+3|Papyrus: C+2|Glass: C+2|Migration: P+2|Ritual: Z+2",
    "leader": "Tyrant: Start|Genius: Ideas +3|Wise: Stability +3|Iconic: Culture +4|Religious: Zeal +5|"
    "Conqueror: Territory +3|Reformer: Get +1 or -1 to one Roll this turn|"
    "Builder: Resources +5 or Wonder +1|Politician: Reroll 1 Die roll this turn|"
    "Populist: Get 1 extra Roll on Military, Trade, or Naval Track|Usurper: Stability -1|"
    "Weak: Stability -2|Madness: Stability -3",
    "agriculture": "Mother Earth: Start|Provinces: Gain Food = 1/3 your Territories rounding up|"
    "Farms: Food +3|Livestock: F+2|Groves: F+1|Vineyards: F+1|Herds: F+2|Grain: F+3|"
    "Bread & Beer: F+3|Cloth: R+1 M+1 G+1|Blight: Food -1D6|Pestilence: Food -1D6|Drought: Food -1D6",
    "trade": "Demand: Start|Trade Route: Gold +3|"
    "Sell Surplus: Trade Food or Resources for Gold on a 1 to 1 Basis|Plague: Population -1D6|"
    "Traders: G+1|Merchants: G+1|Banditry: Gold -1D6|Caravans: G+2|Coinage: G+3|"
    "Diffusion of Knowledge: Ideas +2|Treaty: Stability +2|Slave Trade: Population +1 G+1|"
    "Luxury Items: G+3",
    "naval": "Call of the Sea: Start|Ship Building: Military +2 Gold +1|Flood: Pop -1 Food -2 Infra -2|"
    "River Trade: Resources +1 Food +1 Gold +1|Storm: Military -1D6|Trade Fleet: Gold +3|"
    "Piracy: Gold -1D6|Sea Trade: Gold +2 Ideas +1|Expedition: Territory +1 and Military +1D6 -3|"
    "Colonization: Territory +1 and Stability +2|Navy: Military +3|Biremes: Military +2",
    "industry": "Labor: Start|Clay Pits: Resources +2|Forest Logging: R+3|Masonry: R+2|Quarries: R+2|"
    "Mines: Military +1 R+1 Gold +1|Tar, Pitch, and Resin: R+1|Earthquake: Infra -1D6 (*)|"
    "Iron Forges: M+2 R+1|Carpentry: R+1|Craftsmen: M+1 R+1 G+1|Brickmaking: R+3|Fire: Infra -1D6",
    "building": "Construction: Start|Temples: Zeal +4|Roads: Infra +1 Gold +2|Bridges: G+3|"
    "Aqueducts: Food +4|Port: Gold +3 Culture +1|Granaries: F+3|Wonder: Wonder +1|Walls: Military +3|"
    "Fortifications: M+4|Housing: Infra +1 Population +1|Urbanization: Infra +2|"
    "Public Works: Infra +1 Culture +3",
    "wonders": "Monuments: Start|Stonehenge: Get +1 or -1 to one roll per Turn|"
    "Ziggurat: Resources +1 per Turn|Pyramids: Get 1 Reroll per Turn|Mausoleum: Stability +1 per Turn|"
    "Colossus: Gold +1 per Turn|Hanging Gardens: Food +2 per Turn|Great Wall: Military +2 per turn|"
    "Pantheon: Culture +2 per Turn|Parthenon: Zeal +1 per Turn|Great Library: Ideas +1 per Turn|"
    "Colosseum: M+1 and C+1 per Turn|Great Baths: VP +1 per Turn",
    "knowledge": "Ancient Wisdom: Start|Mathematics: R+1 M+1 Gold +1|Astronomy: Culture +1 F+1 Z+1|"
    "Medicine: Population +1|Engineering: Resources +3|Sailing: M+1 G+2|Calendar: Food +2 Zeal +1|"
    "Architecture: R+1 C+2|Metallurgy: Military +3|Fermentation: Food +3|Irrigation: F +3|"
    "Breeding: F+2 M+1|Cartography: Territory +1",
    "religion": "Worship: Start|Sacred Texts: Zeal +2 Culture +1|Priesthood: Z+2|Ceremonies: Z+2 S+1|"
    "Mythology: Z+1 C+2|Monotheism: Z+3|Holy Days: Z+2|Theocracy: Z+1 Stability +1|"
    "Theology: Z+1 Ideas +1|Divination: Z+1 C+1|Schism: Zeal -1D6|Holy War: Z+1 Military +2|"
    "Heresy: Zeal -1D6",
    "government": "Tyranny: Start|Laws: Stability +3|Social Classes: S+2|City States: S+2|Dynasty: S+4|"
    "Empire: S+2 Military +1|Democracy: S+1 Gold +2|Bureaucracy: S+2|Republic: S+3|"
    "Uprising: Stability -1D6|Autocracy: S+1|Anarchy: Stability -1D6|Corruption: Stability -2 Gold -1D6",
    "culture": "Ethnicity: Start|Music & Dance: Culture +2|Sculpture: C+3|Science: Ideas +1 C+1|"
    "Sport: C+2 Military +1|Costume: C+1 M+1 Stability +1|Theatre: C+3|Artisans: C+2 Gold+1|"
    "Cuisine: C+2 Food +1|Stagnation: Culture -1D6|Literature: C+2 Zeal +1|Jewelry: C+1 G+2|"
    "Philosophy: C+1 S+1 Ideas +1",
    "military": "Pax: Start|Warrior Code: Military +2 Culture +1|Logistics: M+3|Equestrian: M+2 Gold +1|"
    "Allies: M+3|War: Military -1D6|Barbarians: Military -1D6|Raids: Gold +1D6|"
    "Incursions: Military -1D6|Raise Army: M+3|Levy Troops: M+2|Mercenaries: M+2|Garrisons: M+2",
}

# Chart -> results for rolls 1..6, as canonical effects (abbreviations).
CHARTS = {
    "city": ["G+1", "G+2", "C+1", "C+2", "R+1", "Idea+1"],
    "conquest": ["G+1D6", "P+1D6", "VP+1", "VP+2", "T+1", "T+2"],
    "defeat": ["P-1D6", "G-1D6", "G-1D6", "VP-3", "T-1", "T-2"],
    "conversion": ["G+2", "T+1", "P+2", "S+2", "C+2", "steal(P, 1)"],
    "civil-war": ["M-1", "P-1D6", "M-2", "T-1", "P-1D6", "T-2"],
}

PHASES = [
    ("Start Phase", None), ("Leader Phase", "leader"), ("Agriculture Phase", "agriculture"),
    ("Population Phase", None), ("Resource Phase", "industry"), ("Build Phase", "building"),
    ("City Phase", None), ("Wonder Phase", "wonders"), ("Military Phase", "military"),
    ("Culture Phase", "culture"), ("Religion Phase", "religion"), ("Government Phase", "government"),
    ("Trade Phase", "trade"), ("Naval Phase", "naval"), ("Knowledge Phase", "knowledge"),
    ("End Phase", None),
]

STATS = [("Cities", "City"), ("Infrastructure", "Infra"), ("Ideas", "Idea"), ("Victory Points", "VP"),
         ("Population", "P"), ("Stability", "S"), ("Territories", "T"), ("Food", "F"),
         ("Resources", "R"), ("Culture", "C"), ("Military", "M"), ("Gold", "G"), ("Zeal", "Z"),
         ("Wonders", "W")]


@pytest.mark.parametrize("track_id", list(TRACKS))
def test_track_spaces_match_the_rulebook(ac, track_id):
    track = ac.tracks[track_id]
    expected = [tuple(e.split(": ", 1)) for e in TRACKS[track_id].split("|")]
    actual = [(s.name, "Start" if s.start else s.label) for s in track.spaces]
    assert actual == expected


def test_there_are_13_tracks_and_most_loops_have_13_spaces(ac):
    assert len(ac.tracks) == 13
    assert len(ac.tracks["pre-history"].spaces) == 23
    lengths = {t.id: len(t.spaces) for t in ac.tracks.values() if t.id != "pre-history"}
    assert lengths.pop("naval") == 12
    assert set(lengths.values()) == {13}


@pytest.mark.parametrize("chart_id", list(CHARTS))
def test_chart_results_match_the_rulebook(ac, chart_id):
    abbr = {s.id: s.short for s in ac.stats.values()}
    chart = ac.charts[chart_id]
    assert [format_effect(chart.row_for(r).effect, abbr) for r in range(1, 7)] == CHARTS[chart_id]


def test_defeat_chart_short_gold_rows(ac):
    rows = ac.charts["defeat"].rows
    assert [r.if_short for r in rows] == [None, "lose-all-and-reroll", "lose-all-and-reroll", None, None, None]


def test_earthquake_rolls_for_a_volcano_that_costs_1d6_pop(ac):
    quake = ac.tracks["industry"].space("earthquake")
    assert "roll volcano" in format_effect(quake.effect)
    volcano = ac.charts["volcano"]
    assert format_effect(volcano.row_for(1).effect, {"population": "P"}) == "P-1D6"
    assert all(volcano.row_for(r).effect.is_empty for r in range(2, 7))


def test_fourteen_stats_with_the_rulebook_abbreviations(ac):
    assert [(s.name, s.abbreviation) for s in ac.stats.values()] == STATS


def test_caps_food_20_resources_10(ac):
    assert ac.stats["food"].cap == 20
    assert ac.stats["resources"].cap == 10
    assert [s.id for s in ac.stats.values() if s.cap is not None] == ["food", "resources"]


def test_sixteen_phases_in_order_with_their_tracks(ac):
    assert [(p.name, p.track) for p in ac.phases] == PHASES
    assert ac.phase("city").chart == "city"


def test_purchase_list(ac):
    rows = ac.tables["purchase"].rows
    assert ac.tables["purchase"].pay == "gold"
    abbr = {s.id: s.short for s in ac.stats.values()}
    assert [(r.cost, format_effect(r.buys, abbr)) for r in rows] == [
        (2, "F+1"), (2, "R+1"), (3, "M+1"), (3, "C+1"), (4, "S+1")]


def test_setup_bonus_is_plus_5_to_seven_stats(ac):
    bonus = ac.rule("setup", "bonus")
    deltas = {d.stat: d.amount.const for d in bonus.choices[0]}
    assert deltas == {s: 5 for s in ("population", "territories", "food", "stability", "zeal",
                                      "military", "culture")}


def test_components_twelve_pawns_per_player_and_six_sided_dice(ac):
    comps = {c.id: c for c in ac.components}
    assert comps["pawns"].count == 12 and comps["pawns"].per_player
    assert str(ac.rule("movement", "die")) == "1D6"
    assert len(ac.track_groups["main-tracks"]) == 12


def test_end_and_loss_conditions(ac):
    end = ac.rule("end", "game_ends_when")
    assert (end.stat, end.op, end.value) == ("territories", ">=", 20)
    losses = {(c.stat, c.op, c.value) for c in ac.rule("end", "eliminated_when")}
    assert losses == {("territories", "<", 1), ("population", "<", 1)}


def test_war_option_numbers(ac):
    war = ac.rule("options", "war")
    assert str(war["roll"]) == "2D6" and war["higher_military_bonus"] == 2
    assert format_effect(war["winner_steals"], {"victory-points": "VP"}) == "VP+2"
    assert format_effect(war["aggressor_win_steals"], {"territories": "T"}) == "T+1"


def test_checks_thresholds(ac):
    got = {c.id: (c.when.stat, c.when.op, c.when.value) for c in ac.checks.values()}
    assert got == {
        "famine": ("food", "<", 1), "conquest": ("military", ">", 10), "defeat": ("military", "<", 1),
        "conversion": ("zeal", ">", 10), "zeal-civil-war": ("zeal", "<", 1),
        "stability-civil-war": ("stability", "<", 1),
    }


def test_record_page_fields_in_rulebook_order(ac):
    sheet = ac.record_sheets["record-page"]
    labels = [f.label for f in sheet.fields if f.kind != "lines"]
    assert labels == ["Name", "Leader", "Infrastructure", "Victory Points", "Population", "Territories",
                      "Food", "Resources", "Culture", "Military", "Gold", "Ideas", "Zeal", "Stability",
                      "Cities", "Wonders"]


REQUIRED_INTERPRETATIONS = ["arch", "resource-track", "track-names", "naval-length", "negative-stats",
                            "ever-checks", "defeat-short-gold", "conversion-repeat", "pre-history-end",
                            "built-wonder"]


def test_every_known_ambiguity_has_an_interpretation_with_alternatives(ac):
    for ident in REQUIRED_INTERPRETATIONS:
        interp = ac.interpretations[ident]
        assert interp.reading and interp.why and interp.alternatives


def test_arch_variant_turns_i_into_ideas(ac_folder):
    from pnp.data.game import load_game

    base = load_game(ac_folder).game.tracks["pre-history"].space("the-arch").effect
    variant = load_game(ac_folder, "arch-ideas").game.tracks["pre-history"].space("the-arch").effect
    assert base.choices[0][0].stat == "infrastructure"
    assert variant.choices[0][0].stat == "ideas"
