"""Senshiai readings at their bounds: who opens recruiting, which copies an Event can target."""

from pathlib import Path

from builder.check import check_text

ROOT = Path(__file__).resolve().parent.parent
PACK = ROOT / "examples" / "packs" / "senshiai-example.yaml"

EXTRA = """\
system: senshiai
name: reading probes
version: "1"
cards:
  - name: Wind Callers
    type: troop
    subtype: Shamans
    cost: II
    paths: [Air]
    speed: 2
    power: 1/1/3
    abilities: [Recruit]
    assumed: a probe card
  - name: Mountain Heralds
    type: troop
    subtype: Scouts
    cost: II
    paths: [Earth, Air]
    speed: 2
    power: 1/1/3
    abilities: [Recruit]
    assumed: a probe card
  - name: Dispel
    type: event
    subtype: Ritual
    cost: I
    target: Event
    duration: instant
    abilities: [Annuls the Target]
    assumed: a probe card
"""


def _check(tmp_path, cards: dict):
    (tmp_path / "probes.yaml").write_text(EXTRA)
    body = "\n".join(f"  {k}: {v}" for k, v in cards.items())
    text = f"system: senshiai\npacks: [{PACK}, probes.yaml]\ncards:\n{body}\n"
    return check_text(text, str(tmp_path / "deck.yaml"), base_dir=tmp_path)


def _unrecruitable(res):
    return sorted(f.path.split(".", 1)[1] for f in res.findings if f.code == "senshiai.unrecruitable")


def test_a_recruit_troop_that_cannot_be_recruited_opens_nothing(tmp_path):
    # 000:53 a troop is recruited where an ally Unit with Recruit stands; the Air-only Wind
    # Callers have no Air Recruit terrain, so they never stand anywhere and open no path
    # for themselves nor for the Storm Hawks, even with an Air terrain (Mountain Pass) in the deck.
    res = _check(
        tmp_path, {"Capital of the North": 1, "Rice Fields": 3, "Mountain Pass": 2, "Wind Callers": 2, "Storm Hawks": 2}
    )
    assert _unrecruitable(res) == ["Storm Hawks", "Wind Callers"]


def test_recruiting_opens_paths_as_a_chain(tmp_path):
    # Mountain Heralds (Earth/Air, Recruit) are recruited on Rice Fields (Earth), may stand on
    # Mountain Pass (Earth/Air) and so open Air: Wind Callers, then Storm Hawks, can be recruited there.
    res = _check(
        tmp_path,
        {
            "Capital of the North": 1,
            "Rice Fields": 3,
            "Mountain Pass": 2,
            "Mountain Heralds": 1,
            "Wind Callers": 2,
            "Storm Hawks": 2,
        },
    )
    assert _unrecruitable(res) == []
    # without the Earth/Air terrain the Heralds stand only on Earth terrains: Air stays closed
    res = _check(tmp_path, {"Capital of the North": 1, "Rice Fields": 3, "Mountain Heralds": 1, "Storm Hawks": 2})
    assert _unrecruitable(res) == ["Storm Hawks"]


def _no_target(res):
    return [f for f in res.findings if f.code == "senshiai.event-no-target"]


def test_two_copies_of_an_event_that_targets_events_can_target_each_other(tmp_path):
    # 000:167 an Event "can likewise be cast on a Target already in-game": the second copy is one
    res = _check(tmp_path, {"Capital of the North": 1, "Rice Fields": 3, "Warriors": 3, "Dispel": 2})
    assert _no_target(res) == []


def test_one_copy_of_an_event_that_targets_events_has_no_target(tmp_path):
    res = _check(tmp_path, {"Capital of the North": 1, "Rice Fields": 3, "Warriors": 3, "Dispel": 1})
    (f,) = _no_target(res)
    assert f.message.startswith("'Dispel' targets an Event but no other card of this deck can be one")


def test_missing_fields_say_what_is_missing_and_why(tmp_path):
    (tmp_path / "cap.yaml").write_text(
        "system: senshiai\nname: cap\nversion: '1'\ncards:\n"
        "  - {name: Nameless Capital, type: terrain, subtype: Capital, cost: N, "
        "paths: [Earth], speed: 0, assumed: a probe card}\n"
    )
    res = check_text(
        "system: senshiai\npacks: [cap.yaml]\ncards:\n  Nameless Capital: 1\n",
        str(tmp_path / "deck.yaml"),
        base_dir=tmp_path,
    )
    (f,) = [f for f in res.findings if f.code == "senshiai.card-fields"]
    # the hint names the pack the card comes from, its file (by its name: the folder is not
    # below the current one) and the entry's line
    assert f.message == (
        "'Nameless Capital' (terrain) does not state power (a Capital acts as a Unit and fights); "
        "complete the card in its pack 'cap' (cap.yaml:5)"
    )
    assert f.source.endswith(":64-66")  # the Capital rule, not the card types
    # the rulebook's Warriors (Power only): what is missing, never the optional text or modifiers
    (w,) = [
        f for f in check_text("system: senshiai\ncards:\n  Warriors: 3\n").findings if f.code == "senshiai.card-fields"
    ]
    assert w.message.startswith("'Warriors' (troop) does not state subtype (")
    assert w.message.endswith("complete the card in a pack of your own (an entry of the same name completes it)")
    assert "text" not in w.message and "modifiers" not in w.message and "must print" not in w.message
