"""Satsuma Rebellion: catalog as printed, the best-hand solver, clashes, the end, deck checks."""

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from builder.catalog.loader import load_catalog
from builder.check import check_file, check_text
from builder.errors import CatalogError, ListError
from builder.games.satsuma import rules as core
from builder.games.satsuma.rules import PlayCard

from conftest import examples

ROOT = Path(__file__).resolve().parent.parent
SEED = "003_d64fd863b3930085.txt"
DATA = Path(__file__).resolve().parent / "data" / "satsuma"


@pytest.fixture(scope="module")
def cat():
    return load_catalog("satsuma")


def pc(printed, name=None):
    opts = tuple((p[0], int(p[1:])) for p in printed.split(" or "))
    return PlayCard(name or printed, opts, printed)


# -- catalog -----------------------------------------------------------------------


def test_both_decks_exactly_as_printed(cat):
    from conftest import rulebook_text

    lines = rulebook_text(SEED).split("\n")
    for side, first, last in (("samurai", 63, 108), ("imperial", 110, 155)):
        printed = [
            re.match(r"^(.*?)\s+([A-Z][0-9]+(?: or [A-Z][0-9]+)?)$", lines[i - 1].strip()).groups()
            for i in range(first, last + 1)
        ]
        cards = [c for c in cat.entries("cards") if c.side == side]
        assert len(cards) == 46
        assert [(c.name, c.printed) for c in cards] == printed
        for c, line in zip(cards, range(first, last + 1), strict=False):
            assert c.source == f"003_d64fd863b3930085.txt:{line}"


def test_eight_suits_and_two_option_cards(cat):
    assert [s.letter for s in cat.entries("suits")] == list("FRLADMWE")
    assert [s.name for s in cat.entries("suits")] == [
        "Force",
        "Reserves",
        "Leader",
        "Attack",
        "Defense",
        "Morale",
        "Weapons",
        "Escape",
    ]
    tw = cat.find("cards", "Traditional Army")
    assert [(o.suit, o.strength) for o in tw.options] == [("W", 5), ("M", 6)]
    assert all(1 <= len(c.options) <= 2 for c in cat.entries("cards"))


def test_bodyguard_kept_as_printed_and_flagged(cat):
    bg = cat.find("cards", "Bodyguard")
    assert bg.printed == "T2" and bg.unknown_suit
    assert [c.name for c in cat.entries("cards") if c.unknown_suit] == ["Bodyguard"]
    assert cat.house_rules()["bodyguard_suit"].default == "none"


def test_victory_table_and_constants(cat):
    table = core.victory_table(cat)
    assert core.victory_level(0, table) == "Greater Imperial Victory"
    assert core.victory_level(7, table) == "Greater Imperial Victory"
    assert core.victory_level(8, table) == "Historically Equivalent"
    assert core.victory_level(9, table) == "Greater Samurai Moral Victory"
    assert core.victory_level(14, table) == "Greater Samurai Moral Victory"
    assert core.constant(cat, "end_casualties", 0) == 9
    assert core.constant(cat, "hand_size", 0) == 7


def _pack(tmp_path, text):
    p = tmp_path / "pack.yaml"
    p.write_text("system: satsuma\n" + text)
    return p


def test_catalog_rejects_unflagged_unknown_suit(tmp_path):
    p = _pack(tmp_path, "cards:\n  - name: Telegraph\n    side: imperial\n    printed: T3\n    assumed: test\n")
    with pytest.raises(CatalogError) as ei:
        load_catalog("satsuma", [p], use_cache=False)
    assert "suit letter 'T'" in str(ei.value) and "pack.yaml:5:" in str(ei.value)


def test_catalog_rejects_non_positive_strength_and_bad_text(tmp_path):
    p = _pack(tmp_path, "cards:\n  - name: Stragglers\n    side: imperial\n    printed: F0\n    assumed: test\n")
    with pytest.raises(CatalogError, match="strengths are positive"):
        load_catalog("satsuma", [p], use_cache=False)
    p = _pack(tmp_path, "cards:\n  - name: Odd\n    side: imperial\n    printed: lots\n    assumed: test\n")
    with pytest.raises(CatalogError, match="not a suit letter"):
        load_catalog("satsuma", [p], use_cache=False)


def test_catalog_rejects_unknown_keys(tmp_path):
    p = _pack(
        tmp_path, "cards:\n  - name: Odd\n    side: imperial\n    printed: F2\n    strenght: 2\n    assumed: test\n"
    )
    with pytest.raises(CatalogError, match="unknown key 'strenght'"):
        load_catalog("satsuma", [p], use_cache=False)


# -- best hand ------------------------------------------------------------------------


def test_one_card_per_suit():
    hand = core.best_hand([pc("F7"), pc("F4"), pc("M9"), pc("M3")], "attacker")
    assert hand.strength == 16
    assert [(u.card, u.suit) for u in hand.used] == [("F7", "F"), ("M9", "M")]
    assert hand.unused == ("F4", "M3")


def test_attacker_uses_no_defense_or_escape_defender_no_attack():
    cards = [pc("D5"), pc("E6"), pc("A7"), pc("F1")]
    assert core.best_hand(cards, "attacker").strength == 7 + 1
    assert core.best_hand(cards, "defender").strength == 5 + 6 + 1


def test_two_option_card_counts_once_as_one_option():
    # Suicidal Ferocity F6 or M7 with Honor M9: Honor takes Morale, Ferocity plays Force
    hand = core.best_hand([pc("F6 or M7", "Suicidal Ferocity"), pc("M9", "Honor")], "attacker")
    assert hand.strength == 15
    assert {(u.card, u.suit, u.strength) for u in hand.used} == {("Suicidal Ferocity", "F", 6), ("Honor", "M", 9)}
    # alone it counts once, as the better option
    assert core.best_hand([pc("F6 or M7")], "attacker").strength == 7


def test_assignment_needs_lookahead():
    # greedy on the strongest option first would take W8 for the first card and lose the F7
    cards = [pc("W8 or F7"), pc("W6"), pc("F1")]
    assert core.best_hand(cards, "attacker").strength == 7 + 6
    assert core.best_strength_brute(cards, "attacker") == 13


def test_empty_and_unusable_hands():
    assert core.best_hand([], "attacker").strength == 0
    hand = core.best_hand([pc("D5"), pc("E3")], "attacker")
    assert hand.strength == 0 and hand.used == () and hand.unused == ("D5", "E3")


def test_bodyguard_under_each_reading(cat):
    bg = cat.find("cards", "Bodyguard")
    assert core.play_card(bg, {"bodyguard_suit": "none"}).options == ()
    assert core.play_card(bg, {"bodyguard_suit": "defense"}).options == (("D", 2),)
    as_def = core.play_card(bg, {"bodyguard_suit": "defense"})
    assert core.best_hand([as_def], "defender").strength == 2
    assert core.best_hand([as_def], "attacker").strength == 0
    assert core.play_card(bg, {"bodyguard_suit": "force"}).options == (("F", 2),)


def _deck(cat, side, rules=None):
    return [core.play_card(c, rules or {}) for c in cat.entries("cards") if c.side == side]


@st.composite
def hands(draw, size=7):
    cat = load_catalog("satsuma")
    side = draw(st.sampled_from(core.SIDES))
    rule = draw(st.sampled_from(["none", "defense", "escape", "leader"]))
    deck = _deck(cat, side, {"bodyguard_suit": rule})
    cards = draw(st.lists(st.sampled_from(deck), min_size=size, max_size=size, unique_by=lambda c: c.name))
    role = draw(st.sampled_from(core.ROLES))
    return cards, role


@pytest.mark.slow  # 300 generated hands, each solved by brute force
@settings(max_examples=examples(300))
@given(hands(), st.randoms(use_true_random=False))
def test_solver_agrees_with_brute_force_and_ignores_order(args, rnd):
    cards, role = args
    hand = core.best_hand(cards, role)
    assert hand.strength == core.best_strength_brute(cards, role)
    # the used cards are distinct cards of the hand, in distinct usable suits, adding up
    assert len({u.suit for u in hand.used}) == len(hand.used)
    assert sum(u.strength for u in hand.used) == hand.strength
    assert sorted([u.card for u in hand.used] + list(hand.unused)) == sorted(c.name for c in cards)
    for u in hand.used:
        card = next(c for c in cards if c.name == u.card)
        assert (u.suit, u.strength) in core.usable_options(card, role)
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    assert core.best_hand(shuffled, role) == hand


@settings(max_examples=examples(60))
@given(
    st.lists(
        st.tuples(
            st.sampled_from("FRLADMWE"),
            st.integers(1, 12),
            st.sampled_from("FRLADMWE"),
            st.integers(1, 12),
            st.booleans(),
        ),
        min_size=0,
        max_size=9,
    ),
    st.sampled_from(core.ROLES),
)
def test_solver_on_random_cards(specs, role):
    cards = [PlayCard(f"c{i}", ((a, x), (b, y)) if two else ((a, x),)) for i, (a, x, b, y, two) in enumerate(specs)]
    assert core.best_hand(cards, role).strength == core.best_strength_brute(cards, role)


# -- clash, next attacker, the end ----------------------------------------------------


def test_clash_higher_total_wins_loser_takes_a_casualty():
    res = core.clash("samurai", [pc("F9"), pc("L10")], [pc("F6"), pc("D7")])
    assert res.samurai.strength == 19 and res.imperial.strength == 13
    assert res.winner == "samurai"
    assert res.casualties == {"samurai": 0, "imperial": 1}
    assert res.next_attacker == "samurai"


def test_defender_win_makes_it_attacker():
    res = core.clash("samurai", [pc("F3")], [pc("D7")])
    assert res.winner == "imperial" and res.next_attacker == "imperial"
    assert res.casualties == {"samurai": 1, "imperial": 0}


def test_tie_gives_both_a_casualty_and_keeps_roles():
    for attacker in core.SIDES:
        res = core.clash(attacker, [pc("F5")], [pc("F5")])
        assert res.winner == "tie"
        assert res.casualties == {"samurai": 1, "imperial": 1}
        assert res.next_attacker == attacker


def test_escape_rule_samurai_stays_defender():
    # the samurai defend and win using an Escape card: they remain the defender
    res = core.clash("imperial", [pc("E6", "Break Out"), pc("M9", "Honor")], [pc("A9", "Rear Attack")])
    assert res.winner == "samurai" and res.samurai.uses_suit("E")
    assert res.next_attacker == "imperial" and res.escape_kept_defender
    # winning as defender without an Escape card: the samurai attack next
    res = core.clash("imperial", [pc("M9"), pc("F7")], [pc("A9")])
    assert res.winner == "samurai" and res.next_attacker == "samurai"
    # an Escape card in the hand that was not used does not count (attacker cannot use it)
    res = core.clash("samurai", [pc("E6"), pc("F9")], [pc("F2")])
    assert res.next_attacker == "samurai"


def test_game_ends_at_nine_samurai_casualties():
    state = core.GameState()
    assert state.attacker == "samurai"
    lose = core.clash("samurai", [pc("F1")], [pc("F9")])
    for _ in range(8):
        state = core.apply_clash(state, lose)
        assert not core.is_game_over(state.samurai_casualties)
    state = core.apply_clash(state, lose)
    assert state.samurai_casualties == 9 and core.is_game_over(state.samurai_casualties)
    assert core.victory_level(state.imperial_casualties) == "Greater Imperial Victory"


def test_standard_deck_hands(cat):
    sam = core.play_cards(
        cat,
        [
            "Takamori Saigo",
            "Out Fight & Outmaneuver",
            "Honor",
            "Night Assault",
            "Satsuma Armories",
            "Kyushu Samurai",
            "Foxholes",
        ],
        "samurai",
    )
    imp = core.play_cards(
        cat,
        [
            "General Yamagata",
            "Kumamoto Castle",
            "Meiji Emperor",
            "Rear Attack",
            "Modern Firearms",
            "Replace Losses",
            "Breakthrough",
        ],
        "imperial",
    )
    res = core.clash("samurai", sam, imp)
    # samurai attack: L10 F9 M9 A7 W5 R2 (Foxholes D2 unusable) = 42
    assert res.samurai.strength == 42
    # imperial defend: L8 D7 M8 W8 R5 F7 (Rear Attack A9 unusable) = 43
    assert res.imperial.strength == 43
    assert res.winner == "imperial" and res.next_attacker == "imperial"


def test_unknown_and_wrong_side_names(cat):
    with pytest.raises(LookupError, match="did you mean 'Bushido'"):
        core.find_card(cat, "Bushdo", "samurai")
    with pytest.raises(LookupError, match="imperial deck, not the samurai deck"):
        core.find_card(cat, "Gatling Guns", "samurai")


def test_card_faces(cat):
    faces = core.card_faces(cat, {"bodyguard_suit": "none"}, side="samurai")
    assert len(faces) == 46
    bg = next(f for f in faces if f["name"] == "Bodyguard")
    assert bg["options"] == [{"letter": "T", "suit": None, "strength": 2, "known": False, "plays_as": None}]
    ta = next(f for f in faces if f["name"] == "Traditional Army")
    assert [o["suit"] for o in ta["options"]] == ["Weapons", "Morale"]


# -- deck lists ------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["satsuma-samurai.yaml", "satsuma-imperial.yaml"])
def test_examples_are_legal(name):
    res = check_file(ROOT / "examples" / name)
    assert res.legal, [f.format() for f in res.findings]
    assert res.summary["cards"] == 46


def test_standard_samurai_deck_shows_the_bodyguard_decision():
    res = check_file(ROOT / "examples" / "satsuma-samurai.yaml")
    (f,) = [f for f in res.findings if f.code == "satsuma.unknown-suit"]
    assert f.severity == "warning" and "bodyguard_suit=none" in f.message and f.source.endswith(":77")
    agreed = check_text("system: satsuma\nside: samurai\ndeck: standard\nhouse_rules: {bodyguard_suit: defense}\n")
    (f,) = [f for f in agreed.findings if f.code == "satsuma.unknown-suit"]
    assert f.severity == "info" and "plays as Defense" in f.message
    assert agreed.house_rules["bodyguard_suit"] == "defense"


def _expect(path):
    return path.read_text().splitlines()[0].split(":", 1)[1].split()


@pytest.mark.parametrize("path", sorted(DATA.glob("bad-*.yaml")), ids=lambda p: p.stem)
def test_bad_decks_give_their_finding(path):
    res = check_file(path)
    assert not res.legal
    codes = {f.code for f in res.findings if f.severity == "error"}
    for code in _expect(path):
        assert code in codes, (code, [f.format() for f in res.findings])
    for f in res.findings:
        assert f.line is not None and f.line > 1


@pytest.mark.parametrize("path", sorted(DATA.glob("warn-*.yaml")), ids=lambda p: p.stem)
def test_warning_decks_are_legal(path):
    res = check_file(path)
    assert res.legal
    assert set(_expect(path)) <= {f.code for f in res.findings if f.severity == "warning"}


@pytest.mark.parametrize("path", sorted(DATA.glob("shape-*.yaml")), ids=lambda p: p.stem)
def test_bad_shapes_are_list_errors(path):
    want = path.read_text().splitlines()[0].split(":", 1)[1].strip()
    with pytest.raises(ListError) as ei:
        check_file(path)
    assert any(want in line for line in ei.value.lines()), ei.value.lines()
    assert all(line.startswith(str(path)) for line in ei.value.lines())


def test_unknown_card_finding_suggests(tmp_path):
    res = check_file(DATA / "bad-unknown-card.yaml")
    (f,) = [f for f in res.findings if f.code == "satsuma.unknown-name"]
    assert "did you mean 'Bushido'" in f.message and f.path == "cards.Bushid"


def test_variant_deck_with_custom_cards_is_legal():
    res = check_text(
        "system: satsuma\nside: imperial\ncards:\n  Imperial Guard: 2\n  Garrison: 1\n  Siege: 1\n"
        "  Patrols: 1\n  Sniping: 1\n  Telegraph Lines: {printed: W3 or F2, count: 1}\n"
    )
    assert res.legal
    assert res.summary == {"cards": 7, "side": "imperial", "deck": "variant", "usable_cards": 7}


@settings(max_examples=examples(80))
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers(-3, 60) | st.text(max_size=12),
        lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
        max_leaves=12,
    )
)
def test_junk_never_raises(junk):
    import json

    from builder.errors import DaimyoError

    for doc in (
        {"system": "satsuma", "side": "samurai", "cards": junk},
        {"system": "satsuma", "side": junk, "deck": junk},
        {"system": "satsuma", "side": "imperial", "cards": {"Siege": junk, "X": {"printed": junk}}},
    ):
        try:
            check_text(json.dumps(doc))
        except DaimyoError:
            pass


def test_summary_of_a_huge_count_is_counted_not_expanded():
    # a million copies of one card (the most a count may be): the summary counts per line and
    # never builds the deck
    res = check_text("system: satsuma\nside: samurai\ncards:\n  Bushido: 1000000\n")
    assert res.summary["cards"] == res.summary["usable_cards"] == 10**6
