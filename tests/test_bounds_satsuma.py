"""Satsuma Rebellion bounds of the clash, each at the bound and just past it (003_d64fd863b3930085.txt).

"The player with the highest total Strength is the winner" (003:49): a total equal to the other side's
is a tie, not a win. A samurai defender chooses whether to count an Escape card only among hands
that win (003:41-42: he "used an Escape card the previous hand and won the hand").
"""

import pytest

from builder.games.satsuma import rules as core


@pytest.mark.parametrize("rule", ["highest", "free"])
def test_a_samurai_hand_that_only_ties_leaves_nothing_to_choose(rule):
    # 15 with or without Escape against an imperial 15: a tie, Escape is not needed; one point
    # more and the hand wins, so he may count Escape to stay defender
    assert core.choose_escape(rule, True, 15, 15, 15) == (15, False)
    assert core.choose_escape(rule, True, 14, 15, 15) == (15, True)


def test_escape_that_only_ties_is_no_winning_choice():
    # 'free': without Escape 16 wins against 15; with Escape 15 only ties, so staying defender
    # by Escape is no choice he has; with Escape 16 it wins too and he may prefer it
    assert core.choose_escape("free", True, 15, 16, 15) == (16, False)
    assert core.choose_escape("free", True, 15, 16, 16) == (16, True)


def test_leaving_escape_out_for_a_tie_is_no_winning_choice():
    # 'free': with Escape 16 wins against 15; without it 15 only ties, so leaving Escape out to
    # attack next is no choice he has; without it 16 wins too and he may leave Escape out
    assert core.choose_escape("free", False, 15, 15, 16) == (16, True)
    assert core.choose_escape("free", False, 15, 16, 16) == (16, False)
