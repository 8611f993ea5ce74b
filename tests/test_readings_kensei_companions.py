"""An Onmyouji's Shikigami written out in a list are its companions (001:4884-4891,
001:4933-4937, 001:5948-5949): they cost nothing, are no unit and need no class or leader
rank; only their number is checked, at the bound and past it."""

from builder.check import check_text
from builder.lists.dump import dump_list_yaml

# the rulebook's Kuge sample (195 AP, 4 units: the most at 200 AP) and an Onmyouji of 5 AP
KUGE = {
    "system": "kensei",
    "clan": "kuge",
    "points": 200,
    "occult": True,
    "packs": ["spirits.yaml"],
    "troops": [
        {"troop": "Hero Kuge Naginata"},
        {"troop": "Yari Ashigaru", "models": 10},
        {"troop": "Onna-Bushi", "models": 5},
        {"troop": "Ninja Shinobigatana", "models": 5},
        {"troop": "Ashigaru Teppo", "models": 5},
        {"troop": "Infernal Onmyouji"},
    ],
}
ONMYOUJI_COST = "  - {name: Infernal Onmyouji, cost: 5}\n"
# what the "give it in a pack" advice leads a player to write for the Shikigami
SHIKIGAMI_PROFILE = "  - {name: Shikigami, cost: 0, troop_class: I, leader: false}\n"


def _check(tmp_path, shikigami: int | None, pack_lines: str = ONMYOUJI_COST, onmyouji: int = 1):
    (tmp_path / "spirits.yaml").write_text("system: kensei\nname: spirits\ntroops:\n" + pack_lines, encoding="utf-8")
    doc = {**KUGE, "troops": list(KUGE["troops"])}
    if onmyouji == 2:
        doc["troops"][2] = {"troop": "Onna-Bushi", "models": 3}  # room for a second one
        doc["troops"].append({"troop": "Onmyouji of Death"})
        (tmp_path / "spirits.yaml").write_text(
            "system: kensei\nname: spirits\ntroops:\n" + pack_lines + "  - {name: Onmyouji of Death, cost: 5}\n",
            encoding="utf-8",
        )
    if shikigami is not None:
        doc["troops"].append({"troop": "Shikigami", "models": shikigami})
    return check_text(dump_list_yaml(doc), str(tmp_path / "list.yaml"), base_dir=tmp_path)


def _lines(res):
    return [f.format() for f in res.findings]


def test_listed_shikigami_need_no_cost_class_or_leader_rank(tmp_path):
    res = _check(tmp_path, 2)
    assert res.legal and res.findings == [], _lines(res)
    assert res.summary["points"] == 200 and res.summary["units"] == 4
    assert res.summary["models"] == 1 + 10 + 5 + 5 + 5 + 1 + 2


def test_shikigami_given_a_profile_in_a_pack_are_no_unit(tmp_path):
    # four units are the most at 200 AP (001:6103-6113): the Shikigami are not a fifth, nor a
    # unit of 2 models below the 3 a unit needs (001:5919-5920)
    res = _check(tmp_path, 2, ONMYOUJI_COST + SHIKIGAMI_PROFILE)
    assert res.legal and res.findings == [], _lines(res)
    assert res.summary["units"] == 4 and res.summary["points"] == 200


def test_the_number_of_shikigami_at_the_bound_and_past_it(tmp_path):
    for listed in (1, 3):
        res = _check(tmp_path, listed, ONMYOUJI_COST + SHIKIGAMI_PROFILE)
        (f,) = res.findings
        assert f.code == "kensei.onmyouji-shikigami" and f.severity == "error"
        assert (f.value, f.bound) == (listed, 2)
        assert f.message == (
            f"{listed} Shikigami listed, but 2 go with 1 Onmyouji (an Onmyouji is accompanied by two Shikigami)"
        )
    assert _check(tmp_path, 2, ONMYOUJI_COST + SHIKIGAMI_PROFILE).legal


def test_the_count_names_as_many_onmyouji_as_the_list_holds(tmp_path):
    res = _check(tmp_path, 3, onmyouji=2)
    (f,) = [f for f in res.findings if f.code == "kensei.onmyouji-shikigami"]
    assert f.message.startswith("3 Shikigami listed, but 4 go with 2 Onmyouji")
    assert (f.value, f.bound) == (3, 4)


def test_shikigami_without_an_onmyouji(tmp_path):
    (tmp_path / "spirits.yaml").write_text("system: kensei\nname: spirits\ntroops: []\n", encoding="utf-8")
    doc = {**KUGE, "troops": [*KUGE["troops"][:5], {"troop": "Shikigami", "models": 2}]}
    res = check_text(dump_list_yaml(doc), str(tmp_path / "list.yaml"), base_dir=tmp_path)
    (f,) = res.findings
    assert f.message.startswith("2 Shikigami listed, but 0 go with no Onmyouji") and (f.value, f.bound) == (2, 0)
