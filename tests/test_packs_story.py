"""A new user's cards from a spreadsheet to a legal printed deck, and a bundle that opens legal
on a second machine (its own packs folder and its own folders)."""

from __future__ import annotations

import json

import pytest

STARTER_CSV = """\
name,type,subtype,cost,paths,limit,speed,power,target,duration,abilities,modifiers
Castle of the East,terrain,Capital,N,Earth; Water,3,0,2/1/8,,,,
Paddy Field,terrain,Farmland,I,Earth,2,,,,,Recruit,
Harbour Town,terrain,Port,II,Earth; Water,2,,,,,Recruit,
Ashigaru Spearmen,troop,Infantry,I,Earth,,1,1/n/4,,,,
Wave Raiders,troop,Sailors,II,Water,,2,2/n/4,,,Boarding,
Castle Archers,troop,Archers,III,Earth,,1,0/3/3,,,Artillery: 0/5/3,
Hatamoto Guard,troop,Samurai,IV,Earth,,2,5/0/7,,,Bushido,
Warriors,,Infantry,II,Earth,,2,,,,,
Sake Ration,event,Training,II,,,,,Troop,until the end of the round,,+1/1/1
Monsoon,event,Misfortune,I,,,,,Troop,until the end of the round,,-0/0/2
"""
DECK = {
    "Castle of the East": 1,
    "Paddy Field": 6,
    "Harbour Town": 6,
    "Ashigaru Spearmen": 8,
    "Wave Raiders": 6,
    "Castle Archers": 5,
    "Hatamoto Guard": 4,
    "Warriors": 6,
    "Sake Ration": 4,
    "Monsoon": 4,
}


@pytest.fixture
def machines(tmp_path, monkeypatch):
    """Two machines: separate packs folders (DAIMYO_PACKS) and separate working folders."""
    a, b = tmp_path / "alice", tmp_path / "bob"
    for m in (a, b):
        (m / "work").mkdir(parents=True)

    def on(machine):
        monkeypatch.setenv("DAIMYO_PACKS", str(machine / "packs"))
        monkeypatch.chdir(machine / "work")
        return machine / "work"

    return on, a, b


def test_spreadsheet_to_legal_printed_deck_to_bundle_on_a_second_machine(cli, machines):
    on, alice, bob = machines
    work = on(alice)
    (work / "starter.csv").write_text(STARTER_CSV)
    r = cli(
        "pack",
        "import",
        "starter.csv",
        "--system",
        "senshiai",
        "--name",
        "Starter deck cards",
        "--version",
        "1",
        "-o",
        "starter.yaml",
    )
    assert r.code == 0, r.stderr
    r = cli("pack", "check", "starter.yaml")
    assert r.code == 0 and "cards 9 added, 1 changed" in r.stdout, r.stdout + r.stderr

    r = cli("new", "senshiai", "--size", "50", "--pack", "starter.yaml", "--name", "East starter", "-o", "deck.yaml")
    assert r.code == 0, r.stderr
    for card, n in DECK.items():
        r = cli("add", "deck.yaml", card, "--count", n)
        assert r.code in (0, 1), r.stderr
    r = cli("check", "deck.yaml", "--format", "json")
    result = json.loads(r.stdout)[0]
    assert r.code == 0 and result["legal"], r.stdout
    assert result["summary"]["cards"] == 50
    assert [(p["name"], p["version"]) for p in result["packs"]] == [("Starter deck cards", "1")]

    r = cli("print", "deck.yaml", "-o", "deck.pdf")
    assert r.code == 0, r.stderr
    from pypdf import PdfReader

    text = "".join(page.extract_text() for page in PdfReader(work / "deck.pdf").pages)
    for card in ("Castle of the East", "Hatamoto Guard", "Sake Ration"):
        assert card in text
    import re

    # the Power typed into the sheet, printed under its labels (Speed 2 first)
    assert re.search(r"Hatamoto Guard.*?Speed\s+2\s+Melee\s+5\s+Ranged\s+0\s+Resistance\s+7", text, re.S), text

    r = cli("export", "deck.yaml", "--to", "bundle", "-o", "east.bundle.yaml")
    assert r.code == 0, r.stderr
    code = cli("export", "deck.yaml", "--to", "code").stdout.strip()
    bundle = (work / "east.bundle.yaml").read_bytes()

    # -- Bob: nothing of Alice's but what she sends -------------------------------------------
    work = on(bob)
    r = cli("import", code, "-o", "from-code.yaml")
    assert r.code == 0, r.stderr
    assert (
        "<code>: note: pack 'Starter deck cards' version 1 is missing here; the list is checked without it "
        '(install it from a registry: daimyo pack install "Starter deck cards@1", or import with '
        "--install-packs; a bundle carries it: ask for 'daimyo export LIST --to bundle', then "
        "'daimyo import BUNDLE --install-packs')"
    ) in r.stderr
    assert cli("check", "from-code.yaml").code == 2  # its pack is not found here

    (work / "east.bundle.yaml").write_bytes(bundle)
    r = cli("import", "east.bundle.yaml", "-o", "deck.yaml")
    assert r.code == 0, r.stderr
    assert "carries pack 'Starter deck cards' version 1 (senshiai); install it with --install-packs" in r.stderr
    r = cli("import", "east.bundle.yaml", "-o", "deck.yaml", "--force", "--install-packs")
    assert r.code == 0, r.stderr
    assert f"pack 'Starter deck cards' version 1: installed: {bob / 'packs' / 'starter-deck-cards.yaml'}" in r.stderr
    r = cli("check", "deck.yaml", "--format", "json")
    result = json.loads(r.stdout)[0]
    assert r.code == 0 and result["legal"], r.stdout + r.stderr
    assert result["summary"]["cards"] == 50
    alice_hash = json.loads(cli("pack", "check", alice / "work" / "starter.yaml", "-f", "json").stdout)[0]["hash"]
    assert result["packs"][0]["hash"] == alice_hash
    # and now the share code opens legal too, its pack found by name
    r = cli("import", code, "-o", "from-code.yaml", "--force")
    assert r.code == 0 and "missing" not in r.stderr, r.stderr
    assert cli("check", "from-code.yaml").code == 0


def test_import_says_when_the_local_pack_differs(cli, machines):
    on, alice, bob = machines
    work = on(alice)
    (work / "starter.csv").write_text(STARTER_CSV)
    cli("pack", "import", "starter.csv", "--system", "senshiai", "--name", "Starter deck cards", "-o", "s.yaml")
    assert cli("pack", "install", "s.yaml").code == 0
    (work / "deck.yaml").write_text("system: senshiai\npacks: [Starter deck cards]\ncards: {Castle of the East: 1}\n")
    code = cli("export", "deck.yaml", "--to", "code").stdout.strip()
    on(bob)
    changed = STARTER_CSV.replace("5/0/7", "6/0/7")
    (bob / "work" / "s.csv").write_text(changed)
    cli("pack", "import", "s.csv", "--system", "senshiai", "--name", "Starter deck cards", "-o", "s.yaml")
    assert cli("pack", "install", "s.yaml").code == 0
    r = cli("import", code, "-o", "deck.yaml")
    assert r.code == 0
    lines = [ln for ln in r.stderr.splitlines() if "note:" in ln]
    assert len(lines) == 1
    assert lines[0].startswith(
        "<code>: note: pack 'Starter deck cards' differs here: found 'Starter deck cards' with other content in "
    )
