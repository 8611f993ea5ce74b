"""`daimyo satsuma clash`: text and JSON output, bad names exit 2 with one line."""

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SAM = "Takamori Saigo; Out Fight & Outmaneuver; Honor; Night Assault; Satsuma Armories; Kyushu Samurai; Foxholes"
IMP = "General Yamagata; Kumamoto Castle; Meiji Emperor; Rear Attack; Modern Firearms; Replace Losses; Breakthrough"


def test_clash_text(cli):
    r = cli("satsuma", "clash", "--attacker", "samurai", "--samurai", SAM, "--imperial", IMP)
    assert r.code == 0, r
    assert r.stdout.splitlines() == [
        "samurai (attacker): strength 42",
        "  Force      9  Out Fight & Outmaneuver",
        "  Reserves   2  Kyushu Samurai",
        "  Leader    10  Takamori Saigo",
        "  Attack     7  Night Assault",
        "  Morale     9  Honor",
        "  Weapons    5  Satsuma Armories",
        "  not used: Foxholes",
        "imperial (defender): strength 43",
        "  Force      7  Breakthrough",
        "  Reserves   5  Replace Losses",
        "  Leader     8  General Yamagata",
        "  Defense    7  Kumamoto Castle",
        "  Morale     8  Meiji Emperor",
        "  Weapons    8  Modern Firearms",
        "  not used: Rear Attack",
        "winner: imperial",
        "casualties: samurai 1, imperial 0",
        "next attacker: imperial",
    ]


def test_clash_json_keys_and_values(cli):
    r = cli("satsuma", "clash", "--attacker", "samurai", "--samurai", SAM, "--imperial", IMP, "--format", "json")
    assert r.code == 0, r
    data = json.loads(r.stdout)
    assert set(data) == {"samurai", "imperial", "winner", "casualties", "next_attacker"}
    assert set(data["samurai"]) == {"strength", "used"}
    assert data["samurai"]["strength"] == 42 and data["imperial"]["strength"] == 43
    assert {"card": "Honor", "suit": "Morale", "strength": 9} in data["samurai"]["used"]
    assert data["winner"] == "imperial"
    assert data["casualties"] == {"samurai": 1, "imperial": 0}
    assert data["next_attacker"] == "imperial"


def test_clash_escape_and_tie(cli):
    r = cli("satsuma", "clash", "-a", "imperial", "-s", "Break Out; Honor", "-i", "Rear Attack", "-f", "json")
    data = json.loads(r.stdout)
    assert data["winner"] == "samurai" and data["next_attacker"] == "imperial"
    assert {"card": "Break Out", "suit": "Escape", "strength": 6} in data["samurai"]["used"]
    r = cli("satsuma", "clash", "-a", "imperial", "-s", "Break Out; Honor", "-i", "Rear Attack")
    assert "stay defender" in r.stdout
    r = cli("satsuma", "clash", "-a", "imperial", "-s", "Samurai Warriors", "-i", "Breakthrough", "-f", "json")
    data = json.loads(r.stdout)
    assert data["winner"] == "tie" and data["casualties"] == {"samurai": 1, "imperial": 1}
    assert data["next_attacker"] == "imperial"


def test_clash_names_are_loose(cli):
    r = cli(
        "satsuma", "clash", "-a", "samurai", "-s", "  takamori   SAIGO ;; honor", "-i", "gatling-guns", "-f", "json"
    )
    assert r.code == 0, r
    assert json.loads(r.stdout)["samurai"]["strength"] == 19


def test_unknown_card_one_line_exit_2(cli):
    r = cli("satsuma", "clash", "-a", "samurai", "-s", "Takamori Sago", "-i", "Siege")
    assert r.code == 2 and r.stdout == ""
    assert r.stderr.splitlines() == [
        "daimyo: error: --samurai: unknown samurai card 'Takamori Sago'; did you mean 'Takamori Saigo'?"
    ]


def test_wrong_side_one_line_exit_2(cli):
    r = cli("satsuma", "clash", "-a", "samurai", "-s", "Honor", "-i", "Honor")
    assert r.code == 2
    assert r.stderr.splitlines() == [
        "daimyo: error: --imperial: 'Honor' is a card of the samurai deck, not the imperial deck"
    ]


def test_bad_attacker_and_empty_hand(cli):
    r = cli("satsuma", "clash", "-a", "samura", "-s", "Honor", "-i", "Siege")
    assert r.code == 2 and "did you mean 'samurai'" in r.stderr and len(r.stderr.splitlines()) == 1
    r = cli("satsuma", "clash", "-a", "samurai", "-s", " ; ", "-i", "Siege")
    assert r.code == 2 and "--samurai names no cards" in r.stderr


def test_bodyguard_house_rule_option(cli):
    r = cli("satsuma", "clash", "-a", "imperial", "-s", "Bodyguard", "-i", "Sniping", "-f", "json")
    assert json.loads(r.stdout)["samurai"]["strength"] == 0
    r = cli(
        "satsuma",
        "clash",
        "-a",
        "imperial",
        "-s",
        "Bodyguard",
        "-i",
        "Sniping",
        "-f",
        "json",
        "--rule",
        "bodyguard_suit=defense",
    )
    data = json.loads(r.stdout)
    assert data["samurai"] == {"strength": 2, "used": [{"card": "Bodyguard", "suit": "Defense", "strength": 2}]}
    assert data["winner"] == "samurai"
    r = cli("satsuma", "clash", "-a", "imperial", "-s", "Bodyguard", "-i", "Sniping", "--rule", "bodyguard_suit=T")
    assert r.code == 2 and "bodyguard_suit" in r.stderr


def test_check_examples_exit_0(cli):
    r = cli(
        "check", ROOT / "examples/satsuma-samurai.yaml", ROOT / "examples/satsuma-imperial.yaml", "--format", "json"
    )
    assert r.code == 0, r
    out = json.loads(r.stdout)
    assert [o["summary"]["cards"] for o in out] == [46, 46]


def test_clash_refuses_a_card_named_twice(cli):
    res = cli("satsuma", "clash", "-a", "samurai", "-s", "Takamori Saigo; takamori saigo", "-i", "Imperial Guard")
    assert res.code == 2
    assert res.stderr.strip() == (
        "daimyo: error: --samurai names 'Takamori Saigo' more than once; the published deck holds one copy of each card"
    )


def test_clash_refuses_more_than_seven_cards(cli):
    hand = (
        "Takamori Saigo; Samurai Warriors; Traditional Army; Tragic Hero; Foxholes; Kyushu Samurai; "
        "Shigakko Schools; Bodyguard"
    )
    res = cli("satsuma", "clash", "-a", "samurai", "-s", hand, "-i", "Imperial Guard")
    assert res.code == 2
    assert res.stderr.strip() == (
        "daimyo: error: --samurai names 8 cards; a hand holds 7 "
        "(each player draws 7 cards, Satsuma Rebellion rulebook, Logistics phase, line 35)"
    )
