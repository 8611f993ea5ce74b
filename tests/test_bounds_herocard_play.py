"""HeroCard: an action is paid while the combined Action Cost in play is equal to or less than
the hero's score (HeroCard rulebook, Taking Actions, lines 941-946), at the score and one past it."""

from __future__ import annotations

import pytest

from builder.games.herocard.rules import can_afford, spend


@pytest.mark.parametrize("spent, cost, ok", [(0, 9, True), (0, 10, False), (4, 5, True), (4, 6, False)])
def test_an_action_is_paid_up_to_the_score(spent, cost, ok):
    scores = {"body": 9}
    assert can_afford(cost, "body", scores, {"body": spent}) is ok
    if ok:
        assert spend({"body": spent}, cost, "body", scores)["body"] == spent + cost
    else:
        with pytest.raises(ValueError):
            spend({"body": spent}, cost, "body", scores)


def test_a_score_of_nothing_pays_only_a_card_of_no_cost():
    assert can_afford(0, "mind", {}, {}) is True
    assert can_afford(1, "mind", {}, {}) is False


@pytest.mark.parametrize("cost, playable", [(8, True), (9, True), (10, False)])
def test_a_card_costing_the_score_can_be_played(cost, playable):
    from types import SimpleNamespace

    from builder.games.herocard.rules import _never_playable, is_ever_playable

    card = SimpleNamespace(cost=cost, attribute="body", name="Card")
    assert is_ever_playable(card, {"body": 9}) is playable
    assert _never_playable(card, {"body": 9}) is (not playable)  # what a mod's Base card is judged by


@pytest.mark.parametrize("limit, refused", [(1, False), (0, True)])
def test_the_list_s_hero_point_limit_is_at_least_one(cli, tmp_path, limit, refused):
    import shutil

    from conftest import ROOT

    shutil.copytree(ROOT / "examples" / "packs", tmp_path / "packs")
    f = tmp_path / "hero.yaml"
    text = (ROOT / "examples" / "herocard-samurai.yaml").read_text(encoding="utf-8")
    f.write_text(text.replace("max_hero_points: 30", f"max_hero_points: {limit}"), encoding="utf-8")
    r = cli("check", f)
    assert (r.code == 2) is refused
    assert ("'max_hero_points' must be a whole number of at least 1" in r.stderr) is refused


@pytest.mark.parametrize(
    "attributes, body_cards",
    [
        (["Warrior's Strength", "Scholar's Wisdom", "Honor's Power"], 1),
        (["Warrior's Strength", "Iron Body", "Scholar's Wisdom"], 2),
    ],
)
def test_one_body_card_and_not_two(attributes, body_cards):
    from builder.check import check_text

    from conftest import ROOT

    text = (ROOT / "examples" / "herocard-samurai.yaml").read_text(encoding="utf-8")
    text = text.replace(
        "attributes: [Warrior's Strength, Scholar's Wisdom, Honor's Power]",
        "attributes: [" + ", ".join(attributes) + "]",
    )
    res = check_text(text, "hero.yaml", base_dir=ROOT / "examples")
    twice = [f for f in res.findings if f.code == "herocard.attribute-kinds" and "Body attribute cards" in f.message]
    assert len(twice) == (body_cards > 1)  # 004:1204-1209: one Body, one Mind, one X
    if twice:
        assert twice[0].value == 2 and twice[0].bound == 1


def test_a_mod_without_its_base_cites_the_rule_of_its_own_kind():
    from builder.check import check_file
    from builder.rulebooks import format_source

    from conftest import DATA

    for name, section in (("attack", "Attacking"), ("block", "Blocking")):
        found = [
            f
            for f in check_file(DATA / "herocard" / f"mod-without-base-{name}.yaml").findings
            if f.code == "herocard.mod-without-base"
        ]
        assert found and all(format_source(f.source).startswith(f"HeroCard rulebook, {section} (") for f in found), (
            found
        )


def test_too_many_copies_on_one_line_names_no_lines():
    from builder.check import check_file

    from conftest import DATA

    (f,) = [f for f in check_file(DATA / "herocard" / "copies-max.yaml").findings if f.code == "herocard.copies-max"]
    assert f.message == "7 copies of 'Overhand Thrust' > 6 (the most copies of one card)"
