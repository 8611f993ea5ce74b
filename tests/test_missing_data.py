"""Data a legality bound depends on is never assumed: a missing cost, hero point total or class
makes the list impossible to confirm legal, in check, the organiser's CSV and options."""

import csv
import io

from builder.check import check_text

BUKE = """\
system: kensei
clan: buke
points: 200
troops:
  - troop: Taisho Buke
  - {troop: Samurai Yari, models: 5}
  - {troop: Yari Ashigaru, models: 9}
  - {troop: Samurai Dai-Katana, models: 5}
  - {troop: Yumi Samurai, models: 4}
"""
ONI = BUKE + "  - {troop: Oni, models: 3}\n"


def test_the_published_army_is_legal_at_200_of_200():
    assert check_text(BUKE).legal


def test_troops_without_a_cost_never_pass_as_legal(cli, tmp_path):
    # 200/200 AP plus three Oni the catalog has no cost for: they do not count as 0 AP
    res = check_text(ONI, "army.yaml")
    assert not res.legal
    (f,) = [f for f in res.findings if f.code == "kensei.cost-unknown"]
    assert f.severity == "error" and "'Oni' has no cost" in f.message
    assert "cannot be confirmed legal" in f.message and "in a pack" in f.message
    path = tmp_path / "army.yaml"
    path.write_text(ONI)
    r = cli("check", str(path))
    assert r.code == 1 and "ILLEGAL" in r.stdout
    rows = list(csv.DictReader(io.StringIO(cli("check", str(path), "--format", "csv").stdout)))
    assert rows[0]["legal"] == "no" and int(rows[0]["errors"]) >= 1


def test_options_say_cost_unknown_never_can_add(cli, tmp_path):
    path = tmp_path / "army.yaml"
    path.write_text(BUKE.replace("points: 200", "points: 300"))
    r = cli("options", str(path), "--search", "Oni")
    (line,) = [ln for ln in r.stdout.splitlines() if ln.startswith(("+ Oni", "- Oni"))]
    assert line.startswith("- Oni") and "cost unknown" in line and "kensei.cost-unknown" in line
    assert "0 of 1 can be added" in r.stdout


RONIN = """\
system: kensei
name: ronin without a leader field
version: "1"
troops:
  - name: Nameless Ronin
    clans: [buke]
    cost: 10
    troop_class: W
    troop_type: infantry
    weapons: [Katana]
    assumed: a test profile that does not say whether it is a leader
"""


def test_a_missing_field_that_decides_a_bound_is_an_error(tmp_path):
    pack = tmp_path / "ronin.yaml"
    pack.write_text(RONIN)
    # 250 AP needs 2 leaders: whether the ronin is one decides kensei.leaders-min
    text = BUKE.replace("points: 200", "points: 250") + "  - {troop: Nameless Ronin, models: 3}\n"
    res = check_text(text, str(tmp_path / "a.yaml"), extra_packs=[str(pack)])
    (f,) = [f for f in res.findings if f.code == "kensei.profile-incomplete" and "'leader'" in f.message]
    assert f.severity == "error" and "kensei.leaders-min" in f.message
    assert "cannot be confirmed legal" in f.message and "give 'leader' for 'Nameless Ronin'" in f.message
    assert not res.legal


def test_a_missing_field_no_bound_depends_on_stays_a_warning(tmp_path):
    # the Mystery Ronin of the test pack has no weapons: at 250 AP the ranged maximum is far off
    # even if it counted, so the missing field cannot change the verdict
    from tests.test_kensei_rules import BUKE as DOC
    from tests.test_kensei_rules import run, troops

    doc = troops(DOC, *DOC["troops"], {"troop": "Mystery Ronin", "models": 3})
    doc["points"] = 250
    gaps = [f for f in run(doc).findings if f.code == "kensei.profile-incomplete" and "'weapons'" in f.message]
    assert gaps and {f.severity for f in gaps} == {"warning"}


def test_hero_points_unknown_is_an_error():
    text = (
        "system: herocard\nattributes: [Warrior's Strength, Scholar's Wisdom, Honor's Power]\ndeck:\n"
        "  Overhand Thrust: 4\n  Attack from Above: 4\n  Thunder Stroke: 4\n  Efficient Block: 4\n"
        "  Cross Block: 4\n"
    )
    res = check_text(text)
    (f,) = [f for f in res.findings if f.code == "herocard.hero-points-unknown"]
    assert f.severity == "error" and not res.legal
    assert "give 'hero_points: N'" in f.message and "in a pack" in f.message
