"""A pack's ``unit_min``/``unit_max`` set a profile's unit sizes in place of the general 3 and
15/5/10 (001:5919-5922): each at the bound and just past it, in both directions, and refused when
they cannot be a unit size."""

import pytest

from builder.catalog.loader import load_catalog
from builder.check import check_text
from builder.errors import CatalogError

LIST = """system: kensei
clan: kuge
points: 200
packs: [sizes.yaml]
troops:
  - troop: Hero Kuge Naginata
  - troop: Yari Ashigaru
    models: {yari}
  - troop: Onna-Bushi
    models: {onna}
"""


def _check(tmp_path, pack_lines: str, onna: int = 5, yari: int = 10):
    (tmp_path / "sizes.yaml").write_text("system: kensei\nname: sizes\ntroops:\n" + pack_lines, encoding="utf-8")
    return check_text(LIST.format(onna=onna, yari=yari), str(tmp_path / "list.yaml"), base_dir=tmp_path)


def _sizes(res):
    return [(f.code, f.value, f.bound) for f in res.findings if f.code.startswith("kensei.unit-size")]


def test_unit_min_above_the_general_minimum(tmp_path):
    pack = "  - {name: Onna-Bushi, unit_min: 5}\n"
    assert _sizes(_check(tmp_path, pack, onna=5)) == []
    res = _check(tmp_path, pack, onna=4)
    (f,) = [f for f in res.findings if f.code.startswith("kensei.unit-size")]
    assert (f.code, f.value, f.bound, f.loc) == ("kensei.unit-size-min", 4, 5, ("troops", 2))
    assert f.message == "Onna-Bushi: unit of 4 models < 5 (unit_min of its profile in pack 'sizes.yaml', line 4)"


def test_unit_min_below_the_general_minimum(tmp_path):
    pack = "  - {name: Onna-Bushi, unit_min: 2}\n"
    assert _sizes(_check(tmp_path, pack, onna=2)) == []
    assert _sizes(_check(tmp_path, pack, onna=1)) == [("kensei.unit-size-min", 1, 2)]
    # without it a unit of 2 is below the 3 a unit needs
    assert _sizes(_check(tmp_path, "  - {name: Yari Ashigaru, cost: 5}\n", onna=2)) == [("kensei.unit-size-min", 2, 3)]


def test_unit_max_below_and_above_the_general_maximum(tmp_path):
    pack = "  - {name: Yari Ashigaru, unit_max: 8}\n"
    assert _sizes(_check(tmp_path, pack, yari=8)) == []
    assert _sizes(_check(tmp_path, pack, yari=9)) == [("kensei.unit-size-max", 9, 8)]
    pack = "  - {name: Yari Ashigaru, unit_max: 20}\n"  # more than the 15 of infantry units
    assert _sizes(_check(tmp_path, pack, yari=20)) == []
    assert _sizes(_check(tmp_path, pack, yari=21)) == [("kensei.unit-size-max", 21, 20)]


def test_sizes_no_unit_can_have_are_refused_at_the_pack_line(tmp_path):
    pack = tmp_path / "sizes.yaml"
    for lines, said in (
        ("  - {name: Onna-Bushi, unit_min: 0}\n", "a unit holds at least 1 model, not 0"),
        ("  - {name: Onna-Bushi, unit_min: 6, unit_max: 5}\n", "unit_max 5 is less than unit_min 6"),
    ):
        pack.write_text("system: kensei\nname: sizes\ntroops:\n" + lines, encoding="utf-8")
        with pytest.raises(CatalogError) as ei:
            load_catalog("kensei", [pack], use_cache=False)
        (line,) = ei.value.lines()
        assert line.startswith(f"{pack}:4:") and said in line
    pack.write_text("system: kensei\nname: sizes\ntroops:\n  - {name: Onna-Bushi, unit_min: 5, unit_max: 5}\n")
    assert load_catalog("kensei", [pack], use_cache=False).find("troops", "Onna-Bushi").unit_max == 5


def test_the_roster_s_limits_table_shows_a_size_the_profile_sets(tmp_path):
    from builder.check import load_checked
    from builder.games.kensei import rules as kensei

    (tmp_path / "sizes.yaml").write_text(
        "system: kensei\nname: sizes\ntroops:\n  - {name: Onna-Bushi, unit_min: 5}\n", encoding="utf-8"
    )
    path = tmp_path / "list.yaml"
    for onna, status in ((4, "FAIL"), (5, None)):
        path.write_text(LIST.format(onna=onna, yari=10), encoding="utf-8")
        _doc, catalog, lst, res = load_checked(path)
        rows = {r["id"]: r for r in kensei.limit_table(lst, catalog, res.house_rules, res.findings)}
        own = rows.get("kensei.unit-size-min-unit_min")
        assert (own and own["status"]) == status
        # the general minimum of 3 is not failed by a unit its profile lets be smaller or larger
        assert rows["unit-size-min"]["status"] == "pass"
    assert (own is None) and rows["unit-size-min"]["value"] == "lowest 10 models"
