"""Messages that say the right thing, each against the list that showed the wrong one; no verdict
changes here."""

from builder.check import check_text

# -- a bound changed by a house rule cites the house rule's lines ---------------------------------

KENSEI_HOUSE_RULES = """system: kensei
clan: kuge
points: 200
house_rules: {house_rules}
troops:
  - troop: Hero Kuge Naginata
  - troop: Onna-Bushi
    models: 5
  - troop: Ninja Shinobigatana
    models: 5
  - troop: Ninja Shinobigatana
    models: 1
  - troop: Ashigaru Teppo
    models: 5
"""


def test_a_kensei_bound_set_by_a_house_rule_cites_that_reading():
    res = check_text(KENSEI_HOUSE_RULES.format(house_rules="{skirmisher_max_percent: 25, melee_min_percent: 20}"))
    by = {f.code: f for f in res.findings}
    # 25%: the percent table (001:6029-6037), not the 35% of the restrictions table
    assert by["kensei.skirmishers-max"].source == "001_dbcd2f61c1014419.txt:6029-6037"
    assert by["kensei.skirmishers-max"].bound == 50
    # 20%: the worked examples (001:5960-5961)
    assert by["kensei.melee-min"].source == "001_dbcd2f61c1014419.txt:5960-5961"
    # the default readings cite their own lines
    res = check_text(KENSEI_HOUSE_RULES.format(house_rules="{}").replace("models: 1", "models: 3"))
    by = {f.code: f for f in res.findings}
    assert by["kensei.skirmishers-max"].source == "001_dbcd2f61c1014419.txt:5974-5977"
    assert by["kensei.skirmishers-max"].bound == 70


# -- a Hata-Jurushi written as a troop: the one error that says where it goes --------------------

HATA = """system: kensei
clan: kuge
points: 200
troops:
  - troop: Hero Kuge Naginata
  - troop: Yari Ashigaru
    models: 10
  - troop: Hata-Jurushi
  - troop: Onna-Bushi
    models: 5
"""


def test_a_hata_jurushi_written_as_a_troop_gives_only_the_error_that_places_it():
    res = check_text(HATA)
    (f,) = res.findings
    assert f.code == "kensei.standard-outside-unit" and f.loc == ("troops", 2)
    assert "write 'standard: true' on that unit instead" in f.message
    assert res.summary["points"] == 20 + 50 + 25  # it has no cost of its own
