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
