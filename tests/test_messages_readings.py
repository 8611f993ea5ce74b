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


# -- a Capital written by its name and by its alias: what the player wrote ------------------------

CAPITAL_PACK = """system: senshiai
name: test capitals
cards:
  - name: Capital of the East
    aliases: [Eastern Capital]
    type: terrain
    subtype: Capital
    cost: N
    paths: [Earth]
    limit: 3
    speed: 0
    power: 2/1/8
    assumed: test card
"""


def test_a_capital_written_by_name_and_alias_is_shown_as_written(tmp_path):
    (tmp_path / "caps.yaml").write_text(CAPITAL_PACK, encoding="utf-8")
    text = "system: senshiai\npacks: [caps.yaml]\ncards:\n  Capital of the East: 1\n  Eastern Capital: 1\n"
    res = check_text(text, str(tmp_path / "deck.yaml"), base_dir=tmp_path)
    (f,) = [f for f in res.findings if f.code == "senshiai.capital-count"]
    assert "(1 Capital of the East, 1 Eastern Capital)" in f.message and (f.value, f.bound) == (2, 1)
    assert res.summary["capital"] == ["Capital of the East", "Eastern Capital"]


# -- "N Heroes could be the army general" names every one ----------------------------------------

TWO_GENERALS = """system: kensei
clan: kuge
points: 200
troops:
  - troop: Hero Kuge Naginata
  - troop: Hero Kuge Naginata
  - troop: Yari Ashigaru
    models: 10
  - troop: Onna-Bushi
    models: 5
"""


def test_every_hero_that_could_be_the_general_is_named():
    res = check_text(TWO_GENERALS)
    (f,) = [f for f in res.findings if f.code == "kensei.general-ambiguous"]
    assert f.message == ("2 Heroes could be the army general ('Hero Kuge Naginata' 2 times); name one with 'general:'")


# -- a province a pack adds is pointed at in the pack ----------------------------------------------


def test_a_province_refused_from_a_pack_points_at_the_pack_entry(tmp_path):
    import pytest

    from builder.catalog.loader import load_catalog
    from builder.errors import CatalogError

    pack = tmp_path / "board.yaml"
    pack.write_text(
        "system: senji\nname: b\nprovinces:\n  - {id: province-04, name: Dewa, known: true, assumed: x}\n"
        "  - {name: Ezo, known: true, assumed: an island the board does not have}\n",
        encoding="utf-8",
    )
    with pytest.raises(CatalogError) as ei:
        load_catalog("senji", [pack], use_cache=False)
    (line,) = ei.value.lines()
    assert line.startswith(f"{pack}:5:5: error catalog.reference: the board has 18 provinces")
    assert "the pack adds 'Ezo'" in line and "catalog/senji" not in line
    # a name taken from daimyo's own catalog says where, as a user names it
    pack.write_text("system: senji\nname: b\nprovinces:\n  - {id: province-04, name: Shikoku, assumed: x}\n")
    with pytest.raises(CatalogError) as ei:
        load_catalog("senji", [pack], use_cache=False)
    (line,) = ei.value.lines()
    assert line.startswith(f"{pack}:4:")
    assert "(also 'Shikoku' in the daimyo catalog (senji/provinces.yaml, line 9))" in line


# -- an unknown hero: a pack may declare it --------------------------------------------------------


def test_an_unknown_hero_says_a_pack_may_declare_it(tmp_path):
    import pytest

    from builder.catalog.loader import load_catalog
    from builder.errors import CatalogError

    pack = tmp_path / "hero.yaml"
    pack.write_text(
        "system: herocard\nname: h\nattribute_cards:\n"
        "  - {name: Zzq Might, hero: Zzzzq, attribute: body, score: 8, hero_points: 10, assumed: t}\n",
        encoding="utf-8",
    )
    with pytest.raises(CatalogError) as ei:
        load_catalog("herocard", [pack], use_cache=False)
    assert (
        "unknown hero 'Zzzzq' (heroes: Samurai, Ninja, Miko, Prince; or declare a new hero in the pack: "
        in (ei.value.lines()[0])
    )
    pack.write_text(pack.read_text() + "heroes:\n  - {name: Zzzzq, assumed: t}\n")
    assert load_catalog("herocard", [pack], use_cache=False).find("heroes", "Zzzzq") is not None
