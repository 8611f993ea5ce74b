"""The numbers a group may agree in ``house_rules:``: the rulebook's value by default, and a
value at the end of its range is taken while one just past it is refused with one line naming
the rule, the range and the file:line:col (exit 2)."""

from __future__ import annotations

import re
import shutil

import pytest

from builder.catalog.loader import load_catalog

from conftest import ROOT

# game, rule, the rulebook's value, the fewest and the most a group may agree (None: no most)
RANGES = [
    # a share of the army's points is 0% to 100% (Kensei rulebook, Restrictions according to type
    # of troop, 001:5956-5977; Percent table, 001:6013-6060)
    ("kensei", "melee_min_percent", 25, 0, 100),
    ("kensei", "cavalry_max_percent", 40, 0, 100),
    ("kensei", "skirmisher_max_percent", 35, 0, 100),
    ("kensei", "creature_max_percent", 50, 0, 100),
    # the command-deck table: 4 cards from 200 AP; a hand of 1 to 6 cards (001:4424, 001:2168)
    ("kensei", "hand_size_below_200", 4, 1, 6),
    # a deck of at most 200 cards (000:17); a limit below one card would forbid every deck
    ("senshiai", "max_deck_cards", 200, 1, None),
    # at least 20 action cards, a 30 hero point limit (004:1211-1217, 004:1219-1228)
    ("herocard", "min_action_cards", 20, 1, None),
    ("herocard", "max_hero_points", 30, 1, None),
]
LISTS = {"kensei": "kensei-buke.yaml", "senshiai": "senshiai-northern-host.yaml", "herocard": "herocard-samurai.yaml"}


def _rule(game: str, rid: str):
    rules = load_catalog(game).house_rules
    rules = rules() if callable(rules) else rules
    return next(h for h in (rules.values() if isinstance(rules, dict) else rules) if h.id == rid)


def test_every_numeric_house_rule_is_in_the_table():
    listed = {(g, r) for g, r, *_ in RANGES}
    for game in ("kensei", "senshiai", "herocard", "senji", "satsuma"):
        rules = load_catalog(game).house_rules
        rules = rules() if callable(rules) else rules
        for h in rules.values() if isinstance(rules, dict) else rules:
            if h.kind in ("int", "number"):
                assert (game, h.id) in listed, f"{game} house rule {h.id}: add its range to RANGES"


@pytest.mark.parametrize("game, rid, default, lo, hi", RANGES)
def test_the_default_is_the_rulebook_s(game, rid, default, lo, hi):
    assert _rule(game, rid).default == default


def agreed(tmp_path, game: str, rid: str, value) -> str:
    shutil.copytree(ROOT / "examples" / "packs", tmp_path / "packs", dirs_exist_ok=True)
    text = (ROOT / "examples" / LISTS[game]).read_text(encoding="utf-8")
    text = re.sub(rf"^{rid}:.*\n", "", text, flags=re.M)  # a key of the list itself (max_hero_points)
    assert "house_rules:" not in text
    f = tmp_path / f"{game}-{rid}-{value}.yaml"
    f.write_text(text + f"house_rules:\n  {rid}: {value}\n", encoding="utf-8")
    return str(f)


@pytest.mark.parametrize("game, rid, default, lo, hi", RANGES)
def test_the_fewest_is_taken_and_one_less_refused(cli, tmp_path, game, rid, default, lo, hi):
    r = cli("check", agreed(tmp_path, game, rid, lo))
    assert r.code in (0, 1) and "must be" not in r.stdout + r.stderr, r.stderr
    f = agreed(tmp_path, game, rid, lo - 1)
    r = cli("check", f)
    assert r.code == 2
    (line,) = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert re.match(rf"{re.escape(f)}:\d+:\d+: error: '{rid}' must be .*at least {lo}\b.*, not {lo - 1}$", line), line


@pytest.mark.parametrize("game, rid, default, lo, hi", [x for x in RANGES if x[4] is not None])
def test_the_most_is_taken_and_one_more_refused(cli, tmp_path, game, rid, default, lo, hi):
    r = cli("check", agreed(tmp_path, game, rid, hi))
    assert r.code in (0, 1) and "must be" not in r.stdout + r.stderr, r.stderr
    f = agreed(tmp_path, game, rid, hi + 1)
    r = cli("check", f)
    assert r.code == 2
    (line,) = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert re.match(rf"{re.escape(f)}:\d+:\d+: error: '{rid}' must be at most {hi}, not {hi + 1}$", line), line
