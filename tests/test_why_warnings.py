"""`why` and `add` name the warnings an addition brings: a HeroCard action card whose cost is
above the hero's score can be added (no deck rule forbids it) but can never be played
(HeroCard rulebook, Taking Actions, lines 941-946)."""

import shutil

from conftest import ROOT

NEVER = (
    "warning herocard.cost-exceeds-score: 'Heaven Splitter' costs 11 B but the hero's Body score is 9: "
    "it can never be played"
)


def setup(tmp_path):
    shutil.copytree(ROOT / "examples" / "packs", tmp_path / "packs")
    f = tmp_path / "hero.yaml"
    shutil.copy(ROOT / "examples" / "herocard-samurai.yaml", f)
    return f


def test_why_says_a_card_can_be_added_but_never_played(cli, tmp_path):
    f = setup(tmp_path)
    r = cli("why", f, "Heaven Splitter")
    assert r.code == 0
    lines = r.stdout.splitlines()
    assert lines[0].startswith("yes: 1 Heaven Splitter can be added, with 1 warning; ")
    assert lines[1].startswith("  " + NEVER)
    # a card the hero can pay for: no warning
    r = cli("why", f, "Quiet Meditation")
    assert r.code == 0 and "warning" not in r.stdout


def test_add_prints_the_warning_line_check_prints(cli, tmp_path):
    f = setup(tmp_path)
    r = cli("add", f, "Heaven Splitter")
    assert r.code == 0
    line = next(x for x in r.stdout.splitlines() if "cost-exceeds-score" in x)
    assert line.startswith(f"{f}:14:3: warning herocard.cost-exceeds-score: ") and "can never be played" in line
    check = cli("check", f)
    assert line in check.stdout.splitlines() or line.strip() in check.stdout
