"""Satsuma Rebellion bounds of the clash, each at the bound and just past it (003_d64fd863b3930085.txt).

"The player with the highest total Strength is the winner" (003:49): a total equal to the other side's
is a tie, not a win. A samurai defender chooses whether to count an Escape card only among hands
that win (003:41-42: he "used an Escape card the previous hand and won the hand").
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from builder.games.satsuma import rules as core
from builder.games.satsuma.rules import PlayCard

from conftest import examples


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


option_st = st.tuples(st.sampled_from("FRLADMWE"), st.integers(1, 9))


@settings(max_examples=examples(200))
@given(st.lists(st.lists(option_st, min_size=1, max_size=3), min_size=1, max_size=7), st.sampled_from(core.ROLES))
def test_the_fast_totals_stay_exact_past_two_options_a_card(specs, role):
    # a printed card has one or two options ("W5 or M6"); the fast totals take their general
    # path for a card of three (a user's own card data), and still agree with the exact solver
    cards = [PlayCard(f"c{i}", tuple(opts)) for i, opts in enumerate(specs)]
    hand = core.best_hand(cards, role)
    want = (hand.strength, hand.uses_suit("E"))
    assert core.hand_value(cards, role) == want
    assert core.table_total(range(len(cards)), core.RoleTable.build(cards, role)) == want


def _read(text: str):
    from builder.check import check_text
    from builder.errors import ListError

    try:
        return check_text("system: satsuma\nside: samurai\ncards:\n" + text, "deck.yaml")
    except ListError as e:
        return str(e)


def _codes(res):
    return {f.code: f.message for f in res.findings}


@pytest.mark.parametrize(
    ("count", "error"),
    [
        (1, None),
        (0, "deck.yaml:4:12: error: card 'Bushido': count 0 must be 1 or more (remove the line to leave the card out)"),
    ],
)
def test_a_card_line_counts_at_least_one_copy(count, error):
    res = _read(f"  Bushido: {count}\n  Honor: 6\n")
    assert res == error if error else "satsuma.deck-size" not in _codes(res)


@pytest.mark.parametrize(
    ("count", "error"),
    [(1, None), (0, "deck.yaml:4:29: error: custom card 'Odd': count must be a whole number 1 or more, not 0")],
)
def test_a_custom_card_counts_at_least_one_copy(count, error):
    res = _read(f"  Odd: {{printed: F1, count: {count}}}\n  Honor: 6\n")
    assert res == error if error else "satsuma.deck-size" not in _codes(res)


@pytest.mark.parametrize(("printed", "refused"), [("F1", False), ("F0", True)])
def test_a_custom_card_s_strength_is_at_least_one(printed, refused):
    # 003:19 each card has a Strength Value; the printed strengths are 1 and more
    res = _read(f"  Odd: {{printed: {printed}, count: 1}}\n  Honor: 6\n")
    assert ("satsuma.strength" in _codes(res)) is refused


def test_a_card_of_the_other_deck_is_named_with_a_card_of_this_deck():
    # the hint names a samurai card, never the imperial card itself
    res = _read("  Imperial Guard: 7\n")
    assert _codes(res)["satsuma.wrong-side"] == (
        "'Imperial Guard' is a card of the imperial deck, not the samurai deck; did you mean 'Dispatch Guards'?"
    )


@pytest.mark.parametrize(("honor", "short"), [(7, False), (6, True)])
def test_a_deck_short_of_a_hand_is_shown_at_its_cards(honor, short):
    # 003:35 each player draws a hand of 7 cards: a variant deck of 6 is refused where its
    # cards are written (a published deck, 46 cards, never is)
    res = _read(f"  Honor: {honor}\n")
    found = [f for f in res.findings if f.code == "satsuma.deck-size"]
    assert bool(found) is short
    if short:
        assert (found[0].path, found[0].line) == ("cards", 4)


def test_only_a_variant_deck_is_compared_with_the_published_one():
    # 003:17-18 the two published decks; a deck of other cards is a variant, and says so
    res = _read("  Honor: 7\n")
    assert _codes(res)["satsuma.variant-size"] == "variant deck of 7 cards; the published samurai deck has 46"
    from builder.check import check_text

    standard = check_text("system: satsuma\nside: samurai\ndeck: standard\n", "deck.yaml")
    assert "satsuma.variant-size" not in _codes(standard)


def test_a_variant_deck_is_compared_with_the_published_deck_of_its_own_side(tmp_path):
    # a pack adds a card to the imperial deck (47 cards): a samurai variant still compares with
    # the 46 samurai cards
    from builder.check import check_text

    (tmp_path / "pack.yaml").write_text(
        "system: satsuma\nname: extra\nversion: '1'\ncards:\n"
        "  - name: Telegraph Office\n    side: imperial\n    printed: F3\n"
        "    assumed: test\n"
    )
    res = check_text(
        "system: satsuma\npacks: [pack.yaml]\nside: samurai\ncards:\n  Honor: 7\n",
        str(tmp_path / "deck.yaml"),
        base_dir=tmp_path,
    )
    assert _codes(res)["satsuma.variant-size"] == "variant deck of 7 cards; the published samurai deck has 46"


@pytest.mark.parametrize("options", [(("E", 4), ("E", 5)), (("E", 3), ("E", 4), ("E", 5))])
def test_a_card_whose_every_option_is_escape_counts_as_escape(options):
    # only the attacker may not use Escape cards (003:47-48): for the defender a card offering
    # only Escape options (two, or three past the printed bound) counts its best Escape, and the
    # hand uses Escape
    for cards in ([PlayCard("all escape", options)], [PlayCard("all escape", options), PlayCard("force", (("F", 3),))]):
        want = (3 if len(cards) > 1 else 0) + 5
        assert core.best_hand(cards, "defender").strength == want
        assert core.hand_value(cards, "defender") == (want, True)
        assert core.table_total(range(len(cards)), core.RoleTable.build(cards, "defender")) == (want, True)
