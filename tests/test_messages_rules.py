"""What check says around the rules: only what matters, in a player's words."""

from pathlib import Path

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


def _write(tmp_path: Path, text: str, name="army.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_tab_in_the_indentation_is_named_as_such(cli, tmp_path):
    path = _write(tmp_path, "system: kensei\npoints: 200\ntroops:\n\t- troop: Taisho Buke\n")
    r = cli("check", str(path))
    assert r.code == 2
    (line,) = r.stderr.strip().splitlines()
    assert line.startswith(f"{path}:4:1: error: line 4 is indented with a tab; indent with spaces")
    assert "cannot start any token" not in line


def test_house_rules_are_listed_only_when_agreed_or_explained(cli, tmp_path):
    plain = cli("check", str(_write(tmp_path, BUKE)))
    assert plain.code == 0 and "house rules" not in plain.stdout
    agreed = cli(
        "check",
        str(
            _write(tmp_path, BUKE.replace("points: 200", "points: 200\nhouse_rules: {melee_min_percent: 20}"), "b.yaml")
        ),
    )
    assert "  house rules: melee_min_percent=20 (agreed)" in agreed.stdout
    assert "leader_count" not in agreed.stdout
    explained = cli("check", str(_write(tmp_path, BUKE)), "--explain")
    assert "house rules: leader_count=table" in explained.stdout


def test_explain_shows_what_makes_up_each_limit_on_a_legal_list(cli, tmp_path):
    r = cli("check", str(_write(tmp_path, BUKE)), "--explain")
    assert r.code == 0 and "legal" in r.stdout
    lines = r.stdout.splitlines()
    i = lines.index("    melee infantry warriors: 120 >= 50 AP")
    assert lines[i + 1].startswith("      counted: Samurai Yari (5 models, 25 AP)")
    assert "Yumi Samurai" not in lines[i + 1]  # archers are not melee
    assert "    total (troops plus commander level): 200 <= 200 AP" in lines


TWO_ONMYOUJI = """\
system: kensei
clan: kuroi-te
points: 200
commander: taisho
occult: true
troops:
  - troop: Taisho Samurai
  - troop: Tenome
  - {troop: Yurei Naginata, models: 5}
  - {troop: Ashigaru Yari, models: 10}
  - troop: Infernal Onmyouji
  - troop: Onmyouji of Death
"""


def test_two_onmyouji_are_named_and_each_brings_two_shikigami():
    from builder.check import check_text

    res = check_text(TWO_ONMYOUJI)
    (f,) = [f for f in res.findings if f.code == "kensei.spiritual-max"]
    assert f.message == "2 Onmyouji (Infernal Onmyouji, Onmyouji of Death) > 1: an army takes only one Onmyouji"
    assert "Komuso" not in f.message and "models spiritual models" not in f.message
    # 001:5946-5950 "Must be accompanied by two Shikigami": two each, not four for the first
    notes = sorted(f.message for f in res.findings if f.code == "kensei.onmyouji-shikigami")
    assert notes == [
        "Infernal Onmyouji comes with 2 Shikigami (not listed; they are fielded with it)",
        "Onmyouji of Death comes with 2 Shikigami (not listed; they are fielded with it)",
    ]


def test_the_unit_leader_rule_is_cited_under_unit_leader_not_a_sidebar():
    from builder.rulebooks import format_source

    # the requirements for a unit leader (001:1852-1856) sit after the sidebar "In thousand fronts"
    assert format_source("001_dbcd2f61c1014419.txt:1852-1856") == "Kensei rulebook, Unit leader (lines 1852-1856)"
    assert format_source("001_dbcd2f61c1014419.txt:1792") == "Kensei rulebook, In thousand fronts (line 1792)"
    assert format_source("001_dbcd2f61c1014419.txt:1866").startswith("Kensei rulebook, Last man standing")


def test_text_export_reads_as_a_post(cli, tmp_path):
    path = _write(
        tmp_path,
        BUKE.replace(
            "points: 200",
            "points: 200\ncommander: taisho\noccult: false\n"
            "house_rules: {cavalry_max_percent: 50, leader_count: formula}",
        ),
    )
    r = cli("export", str(path), "--to", "text")
    assert r.code == 0, r.stderr
    assert r.stdout.splitlines()[0] == "Kensei - clan Buke - 210/200 AP"
    assert "Commander: Taisho" in r.stdout
    assert "House rules: cavalry_max_percent=50, leader_count=formula" in r.stdout
    assert "ccult" not in r.stdout and "{" not in r.stdout and "[" not in r.stdout
    back = tmp_path / "back.txt"
    back.write_text(r.stdout)
    again = cli("import", str(back))
    assert again.code == 0 and "cavalry_max_percent: 50" in again.stdout and "clan: buke" in again.stdout
    assert "commander: taisho" in again.stdout


def test_a_size_between_hundreds_says_how_it_is_read():
    from builder.check import check_text

    res = check_text("system: kensei\nclan: buke\npoints: 250\ntroops: []\n")
    (f,) = [f for f in res.findings if f.code == "kensei.leaders-min"]
    assert "250 AP counts as 300 AP: the leader and unit limits go by the hundred, rounded up" in f.message
    (u,) = [f for f in res.findings if f.code == "kensei.units-min"]
    assert "250 AP counts as 300 AP" in u.message
    # at a size on the hundred nothing needs saying
    (g,) = [
        f
        for f in check_text("system: kensei\nclan: buke\npoints: 300\ntroops: []\n").findings
        if f.code == "kensei.leaders-min"
    ]
    assert "counts as" not in g.message


def test_export_to_pdf_names_every_format_and_points_to_print(cli):
    from conftest import ROOT

    r = cli("export", str(ROOT / "examples" / "kensei-buke.yaml"), "--to", "pdf")
    assert r.code == 2
    assert "text, markdown, json, yaml, code, bundle, link, html, tts" in r.stderr and "daimyo print" in r.stderr


def test_wrote_goes_to_standard_error_for_every_command(cli, tmp_path):
    from conftest import ROOT

    buke = str(ROOT / "examples" / "kensei-buke.yaml")
    runs = [
        ("export", buke, "--to", "text", "-o", str(tmp_path / "a.txt")),
        ("new", "kensei", "--clan", "buke", "--points", "200", "-o", str(tmp_path / "b.yaml")),
        ("pack", "new", "senshiai", "-o", str(tmp_path / "c.yaml")),
    ]
    for args in runs:
        r = cli(*args)
        assert r.code == 0, (args, r.stderr)
        assert "wrote " in r.stderr and "wrote " not in r.stdout, (args, r.stdout, r.stderr)
