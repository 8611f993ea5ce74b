"""daimyo pack new / check / list / install, and check given a pack."""

from __future__ import annotations

import json

import pytest

from builder import SYSTEMS

from conftest import ROOT

EXAMPLE_PACKS = ROOT / "examples" / "packs"


@pytest.fixture
def user(tmp_path, monkeypatch):
    folder = tmp_path / "user-packs"
    monkeypatch.setenv("DAIMYO_PACKS", str(folder))
    monkeypatch.chdir(tmp_path)
    return folder


@pytest.mark.parametrize("system", SYSTEMS)
def test_template_documents_every_field_of_the_main_sections_and_checks(cli, tmp_path, system):
    from builder.packs.fields import entry_fields, main_sections

    out = tmp_path / "t.yaml"
    r = cli("pack", "new", system, "-o", out, "--name", "My stuff")
    assert r.code == 0, r.stderr
    text = out.read_text()
    for section in main_sections(system):
        assert f"\n{section}: []" in text
        block = text[text.index(f"# -- {section} ") : text.index(f"\n{section}: []")]
        for f in entry_fields(system, section):
            assert f.meaning, f"{system}.{section}.{f.name} has no meaning written"
            line = next((ln for ln in block.splitlines() if ln.startswith(f"#   {f.name} ")), None)
            assert line is not None and f.describe() in line and f.meaning in line, f.name
        assert "# Example entry" in text
    r = cli("pack", "check", out)
    assert r.code == 0, r.stderr
    assert f"{system} pack 'My stuff' version 1" in r.stdout


def test_template_example_entry_is_valid_when_uncommented(cli, tmp_path):
    out = tmp_path / "t.yaml"
    cli("pack", "new", "kensei", "-o", out)
    lines = out.read_text().splitlines()
    i = lines.index("# Example entry (remove the '# ' in front of each line to use it):")
    entry = []
    for ln in lines[i + 1 :]:
        if not ln.startswith("#   ") and not ln.startswith("#     "):
            break
        entry.append(ln[2:])
    text = "\n".join(lines).replace("troops: []", "troops:\n" + "\n".join(entry))
    out.write_text(text + "\n")
    r = cli("pack", "check", out)
    assert r.code == 0, r.stderr
    assert "troops 1 changed" in r.stdout


def test_template_choices_come_from_the_models(tmp_path):
    from builder.packs.template import render_template

    text = render_template("herocard")
    assert "one of base-attack, attack-mod, special-attack, base-block, block-mod, special-block, other" in text
    assert "#   attribute    one of body, mind, x" in text


def test_check_on_a_pack_says_it_is_a_pack(cli):
    r = cli("check", EXAMPLE_PACKS / "senshiai-example.yaml")
    assert r.code == 2
    assert len(r.stderr.splitlines()) == 1
    assert "this is a pack, not a list; did you mean 'daimyo pack check " in r.stderr


def test_pack_check_text_and_json_carry_identity(cli):
    r = cli("pack", "check", "senshiai-example")
    assert r.code == 0
    assert r.stdout.startswith(
        "(bundled) senshiai-example.yaml: ok, senshiai pack 'Senshiai example cards' version 1 ("
    )
    assert "cards 13 added, 6 changed" in r.stdout
    data = json.loads(cli("pack", "check", "senshiai-example", "-f", "json").stdout)[0]
    assert data["name"] == "Senshiai example cards" and data["version"] == "1"
    assert data["hash"].startswith("sha256:") and len(data["hash"]) == 71
    assert data["added"] == {"cards": 13} and data["changed"] == {"cards": 6}


def test_list_check_records_the_packs_checked_with(cli):
    r = cli("check", ROOT / "examples" / "senshiai-northern-host.yaml")
    assert "  packs: Senshiai example cards 1 (" in r.stdout
    data = json.loads(cli("check", ROOT / "examples" / "senshiai-northern-host.yaml", "-f", "json").stdout)[0]
    assert [(p["name"], p["version"]) for p in data["packs"]] == [("Senshiai example cards", "1")]
    assert data["packs"][0]["hash"].startswith("sha256:")


def test_hash_ignores_layout_and_comments_but_not_values(tmp_path):
    from builder.catalog.packid import pack_id

    a = tmp_path / "a.yaml"
    b = tmp_path / "b.yaml"
    a.write_text("system: senshiai\nname: x\ncards:\n  - {name: A, assumed: m, speed: 1}\n")
    b.write_text("# comment\nname: x\nsystem: senshiai\ncards:\n- assumed: m\n  name: A\n  speed: 1\n")
    assert pack_id(a).hash == pack_id(b).hash
    b.write_text("name: x\nsystem: senshiai\ncards:\n- assumed: m\n  name: A\n  speed: 2\n")
    assert pack_id(a).hash != pack_id(b).hash


def test_install_then_use_by_name_keeps_earlier_versions_and_force_for_a_hand_made_one(cli, user, tmp_path):
    mine = tmp_path / "cards.yaml"
    mine.write_text(
        "system: senshiai\nname: Club cards\nversion: '1'\n"
        "cards:\n  - {name: Club Samurai, type: troop, assumed: mine}\n"
    )
    r = cli("pack", "install", mine)
    assert r.code == 0, r.stderr
    assert (user / "club-cards.yaml").read_text() == mine.read_text()
    r = cli("pack", "install", mine)
    assert r.code == 0 and r.stdout.startswith("Club cards 1: already installed and in use: ")
    v2 = tmp_path / "v2.yaml"
    v2.write_text(mine.read_text().replace("'1'", "'2'"))
    r = cli("pack", "install", v2)  # the version in use is kept: no --force needed
    assert r.code == 0, r.stderr
    assert f"Club cards 2 (senshiai): installed from {v2} (was Club cards 1, kept)" in r.stdout
    assert (user / "club-cards.yaml").read_text() == v2.read_text()
    r = cli("pack", "install", "Club cards@1")  # brought back from the kept copy, no registry needed
    assert r.code == 0, r.stderr
    assert (user / "club-cards.yaml").read_text() == mine.read_text()
    r = cli("catalog", "show", "senshiai", "Club Samurai", "--pack", "club cards")
    assert r.code == 0, r.stderr
    # a pack made by hand in the packs folder is the user's own work: replaced only with --force
    (user / "club-cards.yaml").write_text(mine.read_text().replace("assumed: mine", "assumed: edited by hand"))
    r = cli("pack", "install", v2)
    assert r.code == 2
    assert r.stderr.strip() == (
        f"daimyo: error: {user / 'club-cards.yaml'} holds pack 'Club cards' that was not "
        "installed from a registry or a file (made or copied by hand) (pass --force to "
        "replace it)"
    )
    assert "edited by hand" in (user / "club-cards.yaml").read_text()
    r = cli("pack", "install", v2, "--force")
    assert r.code == 0 and (user / "club-cards.yaml").read_text() == v2.read_text()


def test_install_refuses_a_broken_pack(cli, user, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("system: senshiai\nname: Bad\ncards:\n  - {name: X, type: troup, assumed: m}\n")
    r = cli("pack", "install", bad)
    assert r.code == 2 and "troup" in r.stderr
    assert not user.exists() or not any(user.iterdir())


def test_pack_list_shows_where_and_which_wins(cli, user, tmp_path):
    user.mkdir()
    (user / "senshiai-example.yaml").write_text("system: senshiai\nname: Senshiai example cards\nversion: '9'\n")
    r = cli("pack", "list")
    assert r.code == 0
    out = r.stdout
    assert f"user packs folder: {user}" in out
    assert "Senshiai example cards 9 [senshiai]" in out
    mine = next(ln for ln in out.splitlines() if "Senshiai example cards 9" in ln)
    bundled = next(ln for ln in out.splitlines() if "Senshiai example cards 1" in ln)
    assert mine.endswith("(wins)")
    assert bundled.endswith("(shadowed by user-packs/senshiai-example.yaml)")  # relative to the current folder
    data = json.loads(cli("pack", "list", "--system", "senshiai", "-f", "json").stdout)
    assert [(d["version"], d["where"], d["wins"]) for d in data] == [("9", "user", True), ("1", "bundled", False)]
