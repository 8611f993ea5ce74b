"""Kensei on the command line: check (text, --explain, --strict, json, exit codes) and new/add/remove/set/why."""

import json
import shutil

import pytest

from conftest import DATA, ROOT

PACK = DATA / "kensei" / "troops-pack.yaml"

RANGED_105 = """\
system: kensei
clan: sohei
points: 200
troops:
  - troop: Hero Sohei Katana
  - troop: Ikame Bo
  - troop: Monk Naginata
    models: 5
  - troop: Yari Ashigaru
    models: 8
  - troop: Monk Teppo
    models: 3
  - troop: Ashigaru Sling
    models: 6
"""


@pytest.fixture
def lists(tmp_path):
    (tmp_path / "ranged.yaml").write_text(RANGED_105, encoding="utf-8")
    shutil.copy(ROOT / "examples" / "kensei-buke.yaml", tmp_path / "buke.yaml")
    return tmp_path


def test_check_text_names_value_bound_base_and_source(cli, lists):
    r = cli("check", lists / "ranged.yaml")
    assert r.code == 1
    line = next(x for x in r.stdout.splitlines() if "kensei.ranged-max" in x)
    assert line.strip() == (
        f"{lists / 'ranged.yaml'}:13:5: error kensei.ranged-max: ranged troops 105 AP > "
        "50% of 200 AP = 100 AP (Kensei rulebook, Restrictions according to type of troop, "
        "lines 5962-5967)"
    )
    assert ".txt" not in r.stdout  # no rulebook file names where a player reads


def test_explain_keeps_the_exact_reference(cli, lists):
    r = cli("check", lists / "ranged.yaml", "--explain")
    line = next(x for x in r.stdout.splitlines() if "kensei.ranged-max" in x)
    assert line.endswith(
        "(Kensei rulebook, Restrictions according to type of troop, lines 5962-5967 "
        "[001_dbcd2f61c1014419.txt:5962-5967])"
    )


def test_explain_lists_what_was_counted(cli, lists):
    r = cli("check", "--explain", lists / "ranged.yaml")
    out = r.stdout
    i = out.index("kensei.ranged-max")
    block = out[i:].splitlines()[1:4]
    assert "counted: Monk Teppo (3 models, 45 AP) at troops[4]" in block[0]
    assert "counted: Ashigaru Sling (6 models, 60 AP) at troops[5]" in block[1]
    assert "value 105, bound 100, base 50% of 200 AP" in block[2]


def test_json_output(cli, lists):
    r = cli("check", "--format", "json", lists / "ranged.yaml", lists / "buke.yaml")
    assert r.code == 1
    data = json.loads(r.stdout)
    assert [d["legal"] for d in data] == [False, True]
    f = data[0]["findings"][0]
    assert f == {
        "severity": "error",
        "code": "kensei.ranged-max",
        "message": "ranged troops 105 AP > 50% of 200 AP = 100 AP",
        "path": "troops[5]",
        "source": "001_dbcd2f61c1014419.txt:5962-5967",
        "source_text": "Kensei rulebook, Restrictions according to type of troop (lines 5962-5967)",
        "line": 13,
        "col": 5,
        "value": 105,
        "bound": 100,
        "base": "50% of 200 AP",
        "counted": ["Monk Teppo (3 models, 45 AP) at troops[4]", "Ashigaru Sling (6 models, 60 AP) at troops[5]"],
    }
    assert data[1]["summary"]["points"] == 200 and data[1]["summary"]["limit"] == 200
    assert data[1]["house_rules"]["cavalry_max_percent"] == 40


def test_exit_codes_and_strict(cli, lists, tmp_path):
    assert cli("check", lists / "buke.yaml").code == 0
    warn = tmp_path / "warn.yaml"
    # an odd number of peasants is a warning only
    warn.write_text(
        (ROOT / "examples" / "kensei-buke.yaml")
        .read_text(encoding="utf-8")
        .replace("  - troop: Samurai Yari           # 25 AP\n    models: 5\n", "  - troop: Peasants\n    models: 5\n"),
        encoding="utf-8",
    )
    r = cli("check", warn)
    assert r.code == 0, r.stdout
    assert "warning kensei.peasant-pairs" in r.stdout
    assert cli("check", "--strict", warn).code == 1
    bad = tmp_path / "bad.yaml"
    bad.write_text("system: kensei\nclan: buke\npoints: lots\ntroops: 3\ncolour: red\n", encoding="utf-8")
    r = cli("check", bad)
    assert r.code == 2
    lines = r.stderr.strip().splitlines()
    assert lines == [
        f"{bad}:3:9: error: 'points' must be a whole number of army points, not text 'lots' (e.g. points: 200)",
        f"{bad}:4:9: error: 'troops' must be a list of troops, not a whole number "
        "(write each troop as '- troop: NAME' with 'models: N')",
        f"{bad}:5:1: error: unknown key 'colour' in a kensei list "
        "(allowed: clan, points, commander, occult, general, troops)",
    ]


def test_unknown_troop_key_did_you_mean(cli, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "system: kensei\nclan: buke\npoints: 200\ntroops:\n  - troop: Taisho Buke\n    model: 3\n", encoding="utf-8"
    )
    r = cli("check", bad)
    assert r.code == 2
    assert f"{bad}:6:5: error: unknown key 'model' in troops[0] (did you mean 'models'?)" in r.stderr


# -- building lists ------------------------------------------------------------------------------


def test_new_refuses_to_overwrite_and_other_systems(cli, tmp_path):
    out = tmp_path / "army.yaml"
    r = cli("new", "kensei", "--clan", "buke", "--points", "400", "-o", out)
    assert r.code == 0, r.stderr
    text = out.read_text(encoding="utf-8")
    assert text == "system: kensei\nclan: buke\npoints: 400\ncommander: hatamoto\noccult: false\ntroops: []\n"
    out.write_text(text + "# mine\n", encoding="utf-8")
    r = cli("new", "kensei", "--clan", "kuge", "-o", out)
    assert r.code == 2 and "not overwritten" in r.stderr
    assert out.read_text(encoding="utf-8").endswith("# mine\n")
    assert cli("new", "kensei", "--clan", "kuge", "-o", out, "--force").code == 0
    r = cli("new", "senshiai", "-o", tmp_path / "deck.yaml")
    assert r.code == 0 and (tmp_path / "deck.yaml").read_text(encoding="utf-8") == "system: senshiai\ncards: {}\n"
    r = cli("new", "senshiai", "--clan", "buke", "-o", tmp_path / "deck2.yaml")
    assert r.code == 2 and "'clan' is not an option of a new senshiai list (senshiai lists take size)" in r.stderr
    r = cli("new", "kensei", "--clan", "bukke", "-o", tmp_path / "x.yaml")
    assert r.code == 2 and "clan is one of kuge, buke, sohei" in r.stderr and "did you mean 'buke'" in r.stderr


def test_add_remove_set_keep_comments(cli, tmp_path):
    f = tmp_path / "army.yaml"
    f.write_text(
        "# my army\nsystem: kensei\nname: Test   # the name\nclan: buke\npoints: 200\n"
        "troops:\n  - troop: Taisho Buke   # the general\n",
        encoding="utf-8",
    )
    r = cli("add", f, "Yari Ashigaru", "--models", "10")
    assert r.code == 0, r.stderr
    assert "added 10 Yari Ashigaru" in r.stdout and "points 70, limit 200" in r.stdout
    r = cli("add", f, "samurai dai-katana", "--models", "5")
    assert r.code == 0
    r = cli("set", f, "commander", "taisho")
    assert r.code == 0 and "points 130" in r.stdout
    text = f.read_text(encoding="utf-8")
    assert text == (
        "# my army\nsystem: kensei\nname: Test   # the name\nclan: buke\npoints: 200\n"
        "commander: taisho\n"
        "troops:\n  - troop: Taisho Buke   # the general\n"
        "  - troop: Yari Ashigaru\n    models: 10\n"
        "  - troop: Samurai Dai-Katana\n    models: 5\n"
    )
    r = cli("remove", f, "Yari Ashigaru")
    assert r.code == 0 and "removed Yari Ashigaru" in r.stdout
    assert "Yari Ashigaru" not in f.read_text(encoding="utf-8")
    assert "# the general" in f.read_text(encoding="utf-8")
    for key, value, want in (
        ("points", "400", "points: 400"),
        ("occult", "true", "occult: true"),
        ("name", "New name", "name: New name   # the name"),  # the spacing kept
        ("general", "taisho buke", "general: Taisho Buke"),
        ("clan", "kuge", "clan: kuge"),
    ):
        assert cli("set", f, key, value).code == 0
        assert want in f.read_text(encoding="utf-8")


def test_edits_refuse_bad_names_and_unparsable_files(cli, tmp_path):
    f = tmp_path / "army.yaml"
    f.write_text("system: kensei\nclan: buke\npoints: 200\ntroops: []\n", encoding="utf-8")
    r = cli("add", f, "Yari Ashigar")
    assert r.code == 2 and "unknown troop 'Yari Ashigar' (did you mean 'Yari Ashigaru'?)" in r.stderr
    r = cli("set", f, "commander", "shogun")
    assert r.code == 2 and "unknown commander level 'shogun'" in r.stderr
    r = cli("set", f, "colour", "red")
    assert r.code == 2
    r = cli("remove", f, "Taisho Buke")
    assert r.code == 2 and "no troop 'Taisho Buke'" in r.stderr
    assert f.read_text(encoding="utf-8") == "system: kensei\nclan: buke\npoints: 200\ntroops: []\n"
    broken = "system: kensei\nclan: buke\npoints: [200\ntroops: []\n"
    f.write_text(broken, encoding="utf-8")
    for args in (("add", f, "Taisho Buke"), ("set", f, "points", "300"), ("remove", f, "Taisho Buke")):
        r = cli(*args)
        assert r.code == 2 and "YAML syntax" in r.stderr
        assert f.read_text(encoding="utf-8") == broken
    f.write_text("system: kensei\nclan: buke\npoints: lots\n", encoding="utf-8")
    assert cli("add", f, "Taisho Buke").code == 2
    assert f.read_text(encoding="utf-8") == "system: kensei\nclan: buke\npoints: lots\n"


def test_why(cli, tmp_path):
    f = tmp_path / "buke.yaml"
    shutil.copy(ROOT / "examples" / "kensei-buke.yaml", f)
    r = cli("why", f, "Samurai Dai-Katana")
    assert r.code == 1
    assert r.stdout.splitlines()[0] == "no: adding 3 Samurai Dai-Katana (30 AP) would break 2 rules:"
    assert (
        "kensei.points-max: total (troops plus commander level) 230 AP > 200 AP (the battle size) "
        "(over by 30)" in r.stdout
    )
    assert "kensei.units-max: 5 units > 1 per 100 AP of 200 AP rounded up + 2 = 4 (over by 1)" in r.stdout
    r = cli("set", f, "points", "300")
    r = cli("why", f, "Samurai Dai-Katana", "--models", "3")
    assert r.code == 0, r.stdout
    assert r.stdout.startswith("yes: 3 Samurai Dai-Katana (30 AP) can be added; points would be 230/300 AP")
    r = cli("why", f, "Hero Kuge Naginata")
    assert r.code == 1 and "kensei.wrong-clan" in r.stdout
    assert cli("why", f, "Nobody").code == 2
