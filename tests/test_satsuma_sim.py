"""Satsuma Rebellion game simulation: the fast solver against the reference, whole games under the
rulebook, the deck kept whole across reshuffles, determinism, and clashes replayed through the CLI."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from builder.catalog.loader import load_catalog
from builder.games.satsuma import rules as core
from builder.games.satsuma import sim as sim
from builder.games.satsuma import simulate as simu
from builder.games.satsuma.rules import PlayCard
from builder.kit.confidence import mean_interval, wilson

from conftest import examples


@pytest.fixture(scope="module")
def cat():
    return load_catalog("satsuma")


def published(cat, side, rules=None):
    rules = rules or cat.resolve_rules({})
    return [core.play_card(c, rules) for c in cat.entries("cards") if c.side == side]


@pytest.fixture(scope="module")
def game(cat):
    return sim.Sim(
        sim.SideDeck.build("samurai", published(cat, "samurai")),
        sim.SideDeck.build("imperial", published(cat, "imperial")),
    )


def pc(printed, name=None):
    opts = tuple((p[0], int(p[1:])) for p in printed.split(" or "))
    return PlayCard(name or printed, opts, printed)


# -- the fast exact path against best_hand ------------------------------------------------

cards_st = st.lists(
    st.tuples(
        st.sampled_from("FRLADMWE"), st.integers(-1, 12), st.sampled_from("FRLADMWE"), st.integers(0, 12), st.booleans()
    ),
    min_size=0,
    max_size=10,
)


@pytest.mark.slow  # 400 generated hands, each against every way to play it
@settings(max_examples=examples(400))
@given(cards_st, st.sampled_from(core.ROLES))
def test_fast_total_and_escape_agree_with_best_hand(specs, role):
    cards = [PlayCard(f"c{i}", ((a, x), (b, y)) if two else ((a, x),)) for i, (a, x, b, y, two) in enumerate(specs)]
    hand = core.best_hand(cards, role)
    assert core.hand_value(cards, role) == (hand.strength, hand.uses_suit("E"))
    assert core.table_total(range(len(cards)), core.RoleTable.build(cards, role)) == (
        hand.strength,
        hand.uses_suit("E"),
    )
    assert hand.strength == core.best_strength_brute(cards, role)


@pytest.mark.slow  # 300 generated hands, each against every way to play it
@settings(max_examples=examples(300))
@given(st.data())
def test_fast_path_on_published_hands(cat, data):
    side = data.draw(st.sampled_from(core.SIDES))
    rule = data.draw(st.sampled_from(["none", "escape", "defense"]))
    deck = published(cat, side, cat.resolve_rules({"bodyguard_suit": rule}))
    cards = data.draw(st.lists(st.sampled_from(deck), min_size=7, max_size=7, unique_by=lambda c: c.name))
    role = data.draw(st.sampled_from(core.ROLES))
    hand = core.best_hand(cards, role)
    assert core.hand_value(cards, role) == (hand.strength, hand.uses_suit("E"))


def test_escape_counted_only_when_every_best_hand_needs_it():
    # New Positions E5 or D6 and Dug In D3: 6+0 (D) or 5+3 (E + D) -> 8 uses Escape
    assert core.hand_value([pc("E5 or D6"), pc("D3")], "defender") == (8, True)
    # a tie between a hand with and a hand without Escape: the core counts the one without
    assert core.hand_value([pc("E5 or D5")], "defender") == (5, False)
    assert not core.best_hand([pc("E5 or D5")], "defender").uses_suit("E")
    # the attacker never counts Escape
    assert core.hand_value([pc("E6"), pc("F2")], "attacker") == (2, False)


def test_decide_is_what_clash_decides():
    res = core.clash("imperial", [pc("E6"), pc("M9")], [pc("A9")])
    assert (
        core.decide("imperial", 15, 9, True) == (res.winner, 0, 1, res.next_attacker) == ("samurai", 0, 1, "imperial")
    )
    assert core.decide("samurai", 5, 5, False) == ("tie", 1, 1, "samurai")
    assert core.decide("samurai", 4, 5, False) == ("imperial", 1, 0, "imperial")


@pytest.mark.parametrize("per_loss", [1, 2, 3])
def test_the_fast_loop_looks_up_what_decide_decides(game, per_loss):
    """The fast loop takes a hand's outcome from a table of ``decide`` (by attacker, which total is
    higher and the samurai's Escape): any two totals get decide's answer, and whole games with
    several casualties per loss are the reference loop's."""
    table = sim._outcomes(per_loss)
    for a, attacker in enumerate(core.SIDES):
        for s_total, i_total in [(15, 9), (1, 0), (3, 12), (0, 1), (7, 7), (0, 0)]:
            for esc in (False, True):
                order = 0 if s_total > i_total else 1 if i_total > s_total else 2
                winner, s_cas, i_cas, nxt = core.decide(attacker, s_total, i_total, esc, per_loss)
                kept = winner == "samurai" and nxt == "imperial"
                won, tied = winner == "samurai", winner == "tie"
                assert table[a][order][esc] == (s_cas, i_cas, won, tied, kept, core.SIDES.index(nxt), winner, nxt)
    fast = sim.Sim(**{**game.__dict__, "casualties_per_loss": per_loss, "escape_choice": "free"})
    ref = sim.Sim(**{**fast.__dict__, "evaluator": "reference"})
    for i in range(10):
        seed = sim.game_seed(per_loss, i)
        assert sim.play_game(fast, seed, trace=i < 3) == sim.play_game(ref, seed, trace=i < 3)


# -- the policies ------------------------------------------------------------------------


def test_best_policy_discards_what_the_role_cannot_count_then_weak_cards():
    cards = [
        pc("D5", "Block Passes"),
        pc("E6", "Break Out"),
        pc("F7", "Samurai Warriors"),
        pc("F4", "Small Clashes"),
        pc("M1", "Weak Morale"),
        pc("L10", "Saigo"),
        pc("A5", "Raiders"),
    ]
    deck = sim.SideDeck.build("samurai", cards)
    hand = list(range(7))
    att, dfd = deck.tables
    # attacking: Defense and Escape cannot count (dead), then Small Clashes (F, beaten by F7)
    assert sim.discards("best", hand, att, 3) == [0, 1, 3]
    # defending: Attack cannot count; Small Clashes is idle; Weak Morale (M1) is a weak counted card
    assert sim.discards("best", hand, dfd, 3) == [6, 3, 4]
    # simple: only the cards the role may not use
    assert sim.discards("simple", hand, att, 3) == [0, 1]
    assert sim.discards("none", hand, att, 3) == []
    assert sim.discards("best", hand, att, 1) == [0]


# -- whole games ---------------------------------------------------------------------------


def test_games_follow_the_rulebook(game, cat):
    table = core.victory_table(cat)
    for i in range(60):
        g = sim.play_game(game, sim.game_seed(5, i), trace=True)
        assert g.samurai_casualties == 9  # the end (line 6); a hand adds at most one
        assert g.victory == core.victory_level(g.imperial_casualties, table)
        assert len(g.trace) == g.hands
        assert g.trace[0]["attacker"] == "samurai"  # line 39
        for before, after in zip(g.trace, g.trace[1:], strict=False):
            assert after["attacker"] == before["next_attacker"]
        assert sum(h["casualties"]["imperial"] for h in g.trace) == g.imperial_casualties
        for h in g.trace:
            assert len(h["samurai"]) == len(h["imperial"]) == 7
            assert len(set(h["samurai"])) == 7  # one copy of each card: never the same card twice
        sam_cas = [h["casualties"]["samurai"] for h in g.trace]
        assert sum(sam_cas) == 9 and sam_cas[-1] == 1


def test_fast_and_reference_evaluators_play_the_same_games(game):
    ref = sim.Sim(**{**game.__dict__, "evaluator": "reference"})
    for i in range(15):
        seed = sim.game_seed(11, i)
        assert sim.play_game(game, seed, trace=True) == sim.play_game(ref, seed, trace=True)
    # untraced, the fast loop skips work the trace needs (a samurai defender's Escape when he
    # loses): the games must still be the reference's
    for i in range(15, 215):
        seed = sim.game_seed(11, i)
        assert sim.play_game(game, seed) == sim.play_game(ref, seed)


option_st = st.tuples(st.sampled_from("FRLADMWE"), st.integers(1, 9))
card_st = st.one_of(
    option_st.map(lambda o: (o,)), st.tuples(option_st, option_st), st.just((("T", 2),))
)  # T: no usable option


@settings(max_examples=examples(80))
@given(
    st.lists(card_st, min_size=8, max_size=30),
    st.lists(card_st, min_size=8, max_size=30),
    st.integers(0, 2**64 - 1),
    st.sampled_from(list(sim.POLICIES)),
    st.sampled_from(list(sim.POLICIES)),
    st.sampled_from(core.ESCAPE_CHOICES),
    st.sampled_from(sim.DISCARD_TIMINGS),
    st.integers(0, 3),
)
@pytest.mark.slow  # 80 whole games, each played by both evaluators
def test_fast_loop_plays_the_reference_games_on_random_decks(sam, imp, seed, p1, p2, choice, timing, weak):
    """Property: on random decks (one- and two-option cards, Escape, cards with no usable suit), every
    policy and house rule, the fast loop plays exactly the games of the reference loop, whose
    discards come from ``discards`` and whose clashes come from ``core.clash``."""

    def deck(spec, side):
        return sim.SideDeck.build(side, [PlayCard(f"{side}{i}", opts) for i, opts in enumerate(spec)])

    game = sim.Sim(
        deck(sam, "s"),
        deck(imp, "i"),
        policies=(p1, p2),
        max_hands=40,
        escape_choice=choice,
        discard_timing=timing,
        weak=(weak, weak),
    )
    ref = sim.Sim(**{**game.__dict__, "evaluator": "reference"})
    assert sim.play_game(game, seed, trace=True) == sim.play_game(ref, seed, trace=True)
    assert sim.play_game(game, seed) == sim.play_game(ref, seed)


@pytest.mark.slow  # 400 generated hands, each against every way to play it
@settings(max_examples=examples(400))
@given(st.lists(card_st, min_size=0, max_size=9), st.sampled_from(core.ROLES))
def test_assignment_behind_the_discards_is_a_best_hand(spec, role):
    """Property: the counted hand the 'best' policy keeps is a legal hand (one card per suit, an option
    each card has) of the highest total."""
    cards = [PlayCard(f"c{i}", opts) for i, opts in enumerate(spec)]
    table = core.RoleTable.build(cards, role)
    best, who, dead = sim._assign(list(range(len(cards))), table)
    assert sum(best) == core.best_strength_brute(cards, role)
    used = [p for p in who if p >= 0]
    assert len(used) == len(set(used))
    for s, p in enumerate(who):
        if p >= 0:
            assert (s, best[s]) in table.opts[p]
    assert dead == [i for i, c in enumerate(cards) if not core.usable_options(c, role)]


def _brute_escape(cards, role):
    from itertools import product

    choices = [((None, 0),) + core.usable_options(c, role) for c in cards]
    top = {False: 0, True: None}
    for combo in product(*choices):
        suits = [s for s, _ in combo if s is not None]
        if len(suits) == len(set(suits)):
            key = "E" in suits
            total = sum(v for _, v in combo)
            if top[key] is None or total > top[key]:
                top[key] = total
    return top[False], top[True]


@pytest.mark.slow  # 400 generated hands, each against every way to play it
@settings(max_examples=examples(400))
@given(st.lists(card_st, min_size=0, max_size=8), st.sampled_from(core.ROLES))
def test_totals_with_and_without_escape(spec, role):
    """Property: ``escape_totals`` (the reference) and the fast loop's ``_escape_split`` agree with a
    brute force over every choice of options."""
    cards = [PlayCard(f"c{i}", opts) for i, opts in enumerate(spec)]
    want = _brute_escape(cards, role)
    assert core.escape_totals(cards, role) == want
    table = core.RoleTable.build(cards, role)
    best = [0] * 8
    left = []
    for c in range(len(cards)):
        if table.suit[c] >= 0:
            best[table.suit[c]] = max(best[table.suit[c]], table.value[c])
        elif table.suit[c] == -2:
            left.append(c)
    assert sim._escape_split(best, left, table) == want
    total, esc = core.table_total(range(len(cards)), table)
    assert total == max(want[0], want[1] or 0) and esc == (want[1] is not None and want[1] > want[0])


# -- Escape on purpose ------------------------------------------------------------------------


def test_choose_escape_under_each_house_rule():
    # the samurai defender: 12 without Escape, 15 with; the imperial 10 -> both hands win
    assert core.choose_escape("free", True, 10, 12, 15) == (15, True)
    assert core.choose_escape("free", False, 10, 12, 15) == (12, False)  # left out on purpose
    assert core.choose_escape("free", None, 10, 12, 15) == (15, True)  # no preference: the best hand
    assert core.choose_escape("highest", False, 10, 12, 15) == (15, True)  # must count 15: Escape needed
    assert core.choose_escape("needed", False, 10, 12, 15) == (15, True)
    # only the hand with Escape wins: it is played whatever the preference (a win beats a tie or a loss)
    assert core.choose_escape("free", False, 13, 12, 15) == (15, True)
    # equal totals: 'highest' lets him pick; 'needed' counts the one without Escape
    assert core.choose_escape("highest", True, 10, 15, 15) == (15, True)
    assert core.choose_escape("needed", True, 10, 15, 15) == (15, False)
    # a lower total with Escape that still wins: only 'free' allows it
    assert core.choose_escape("free", True, 10, 15, 12) == (12, True)
    assert core.choose_escape("highest", True, 10, 15, 12) == (15, False)
    # losing or tying: the best hand, no choice
    assert core.choose_escape("free", True, 20, 15, 12) == (15, False)


def _deck(side, spec):
    cards = [
        PlayCard(f"{side}{i}", tuple((p[0], int(p[1:])) for p in word.split("/")), word)
        for i, word in enumerate(spec.split())
    ]
    return sim.SideDeck.build(side, cards)


# The samurai win most hands they defend (the imperial attacks with weak Attack cards, defends with
# strong Defense cards); their Escape cards are two-option E/D cards, counted as Defense in their
# best hand: winning with the Escape option instead keeps them defender.
DEFEND_BETTER = (
    "F4 F6 M4 M6 A1 A2 E5/D6 E4/D5 E6/D7 F5 M5 R3 R2 L4 W3 W4 R4 L3 W5 F3",
    "F4 F6 M4 M6 A2 A1 A3 D6 D8 D7 F5 M5 R3 R2 L4 W3 W4 D5 A2 M3",
)
# The samurai win most hands they attack (strong Attack cards) and lose most they defend: an Escape
# card that would keep them defender is better left out when the hand is won without it.
ATTACK_BETTER = (
    "F4 F6 M4 M6 A6 A7 A5 E4 E6 E3 D1 D2 F5 M5 R3 R2 L4 W3 W4 A4",
    "F4 F6 M4 M6 A6 A8 A7 D1 D2 D1 F5 M5 R3 R2 L4 W3 W4 A5 A6 M3",
)


def _mean_ic(t):
    return sum(k * n for k, n in t.imperial.items()) / t.games


@pytest.mark.slow  # 1,200 simulated games
def test_escape_is_used_on_purpose_when_defending_is_better():
    s, i = DEFEND_BETTER
    best = sim.Sim(_deck("samurai", s), _deck("imperial", i), policies=("best", "best"), escape_choice="free")
    plain = sim.Sim(_deck("samurai", s), _deck("imperial", i), policies=("max", "best"))
    out = sim.role_outcomes(best)
    assert out["defender"][0] > 0.8 > 0.3 > out["attacker"][0]
    assert all(best.prefer_defender)
    tb, tp = simu.run(best, 400, 3), simu.run(plain, 400, 3)
    assert tb.escapes > 3 * tp.escapes
    assert _mean_ic(tb) > 2 * _mean_ic(tp)
    # hand by hand: a defender's won hand without Escape is only ever one where no Escape card could win
    g = sim.play_game(best, sim.game_seed(3, 0), trace=True)
    chosen = [h for h in g.trace if h["attacker"] == "imperial" and h["winner"] == "samurai"]
    assert chosen and sum(h["samurai_escape"] for h in chosen) > len(chosen) // 2
    # under the house rule 'needed' the samurai cannot choose: the same games as the plain policy
    needed = sim.Sim(**{**best.__dict__, "escape_choice": "needed"})
    assert simu.run(needed, 200, 3) == simu.run(plain, 200, 3)


def test_escape_is_left_out_when_attacking_is_better():
    s, i = ATTACK_BETTER
    best = sim.Sim(_deck("samurai", s), _deck("imperial", i), policies=("best", "best"), escape_choice="free")
    plain = sim.Sim(_deck("samurai", s), _deck("imperial", i), policies=("max", "best"))
    out = sim.role_outcomes(best)
    assert out["attacker"][0] > 0.6 > 0.4 > out["defender"][0]
    assert not any(best.prefer_defender)
    tb, tp = simu.run(best, 400, 3), simu.run(plain, 400, 3)
    assert tb.escapes < tp.escapes
    assert _mean_ic(tb) > _mean_ic(tp) + 1


def test_role_values_follow_the_roles():
    # a samurai who always wins attacking and never defending: attacking is worth more at every count
    values = sim.role_values({"attacker": (0.9, 0.0, 0.1), "defender": (0.1, 0.0, 0.9)}, 9)
    assert len(values) == 9 and all(a > d for a, d in values)
    # one loss left, defending wins half the hands, attacking none: defending is worth more
    ((a, d),) = sim.role_values({"attacker": (0.0, 0.0, 1.0), "defender": (0.5, 0.0, 0.5)}, 1)
    assert a == 0.0 and d == pytest.approx(0.5)
    # casualties of 2 per loss: the values are indexed by casualties, two at a time
    two = sim.role_values({"attacker": (0.5, 0.1, 0.4), "defender": (0.3, 0.1, 0.6)}, 4, 2)
    assert two[0] == two[1] and two[2] == two[3] and two[0][0] > two[2][0]


# -- house rules ------------------------------------------------------------------------------


def test_house_rules_change_the_simulation(game):
    base = simu.run(game, 300, 5)
    assert game.escape_choice == "needed"  # the text's reading: every usable card counts
    for key, value in (("escape_choice", "free"), ("discard_timing", "after_redraw")):
        other = sim.Sim(**{**game.__dict__, key: value})
        assert simu.run(other, 300, 5) != base, (key, value)
    # the published samurai prefer attacking at every count, so among hands of the highest total
    # they never pick Escape: 'highest' plays the same games as the text's reading
    assert not any(game.prefer_defender)
    assert simu.run(sim.Sim(**{**game.__dict__, "escape_choice": "highest"}), 300, 5) == base
    with pytest.raises(ValueError, match="escape_choice"):
        sim.Sim(**{**game.__dict__, "escape_choice": "always"})


def test_discard_timing_decides_what_a_rebuilt_deck_holds():
    # a deck of 9: 7 drawn, 2 left; 3 discarded and 3 drawn again -> the deck runs out mid-draw
    deck = _deck("samurai", "D1 D2 D3 F1 F2 F3 M1 M2 M3")
    imp = _deck("imperial", "F5 F6 F7 F8 F9 M5 M6 M7 M8 M9")
    seen = {}
    for timing in sim.DISCARD_TIMINGS:
        game = sim.Sim(deck, imp, policies=("simple", "none"), discard_timing=timing, max_hands=1)
        g = sim.play_game(game, 7, trace=True)
        seen[timing] = g.trace[0]["samurai"]
    # the samurai attack: the three Defense cards cannot count and are discarded
    assert not any(n in ("samurai0", "samurai1", "samurai2") for n in seen["after_redraw"])
    assert len(seen["after_redraw"]) == 6  # 2 left in the deck, the discards not yet shuffled in
    assert len(seen["before_redraw"]) == 7  # the discards are shuffled into the new deck


def test_same_seed_same_game_and_seeds_differ(game):
    a = [sim.play_game(game, sim.game_seed(3, i), trace=True) for i in range(5)]
    b = [sim.play_game(game, sim.game_seed(3, i), trace=True) for i in range(5)]
    assert a == b
    assert len({sim.game_seed(3, i) for i in range(1000)}) == 1000
    assert a[0].trace != a[1].trace


def test_game_seed_and_shuffle_are_fixed_algorithms():
    # the seed is BLAKE2b of the text 'satsuma-game:MASTER:INDEX', its first 8 bytes big-endian
    import hashlib
    from random import Random

    want = int.from_bytes(hashlib.blake2b(b"satsuma-game:1:0", digest_size=8).digest(), "big")
    assert sim.game_seed(1, 0) == want
    # Fisher-Yates from the end with int(random() * (i + 1))
    r1, r2 = Random(42), Random(42)
    cards = list(range(10))
    sim.shuffle(cards, r1.random)
    ref = list(range(10))
    for i in range(9, 0, -1):
        j = int(r2.random() * (i + 1))
        ref[i], ref[j] = ref[j], ref[i]
    assert cards == ref and sorted(cards) == list(range(10))


@settings(max_examples=examples(60))
@given(
    st.lists(st.tuples(st.sampled_from("FRLADMWE"), st.integers(1, 9), st.integers(1, 3)), min_size=1, max_size=12),
    st.lists(st.tuples(st.sampled_from("FRLADMWE"), st.integers(1, 9), st.integers(1, 3)), min_size=1, max_size=12),
    st.integers(0, 2**64 - 1),
    st.sampled_from(list(sim.POLICIES)),
    st.sampled_from(list(sim.POLICIES)),
)
def test_every_card_stays_in_its_deck_across_reshuffles(sam, imp, seed, p1, p2):
    """Property: at every moment each card of a deck is in exactly one place (deck, discard pile,
    hand), whatever the deck size (down to below one hand), the policies and the seed."""

    def deck(spec, side):
        cards = []
        for i, (s, v, n) in enumerate(spec):
            cards += [PlayCard(f"{side}{i}", ((s, v),))] * n
        return sim.SideDeck.build(side, cards)

    game = sim.Sim(deck(sam, "s"), deck(imp, "i"), policies=(p1, p2), max_hands=60)
    sizes = (len(game.samurai), len(game.imperial))
    seen = []

    def observe(piles, discs, held):
        for side in (0, 1):
            everything = sorted(piles[side] + discs[side] + list(held[side]))
            assert everything == list(range(sizes[side]))
            assert len(held[side]) <= game.hand_size
            if sizes[side] >= game.hand_size and held[side]:
                assert len(held[side]) == game.hand_size
        seen.append(1)

    g = sim.play_game(game, seed, observe=observe)
    assert len(seen) == 2 * g.hands
    if min(sizes) > 10:
        assert g.hands < 5 or sum(g.reshuffles) > 0


def test_a_deck_that_never_loses_stops_at_the_hand_cap(cat):
    strong = sim.SideDeck.build("samurai", [pc("L99")] * 8)
    game = sim.Sim(strong, sim.SideDeck.build("imperial", published(cat, "imperial")), max_hands=50)
    g = sim.play_game(game, 1)
    assert g.victory is None and g.hands == 50 and g.samurai_casualties == 0


# -- runs -----------------------------------------------------------------------------------


def test_run_is_the_same_for_any_number_of_jobs(game):
    one = simu.run(game, 300, 9, jobs=1)
    two = simu.run(game, 300, 9, jobs=2)
    assert one == two
    assert one.games == 300 and sum(one.victory.values()) == 300
    assert simu.run(game, 300, 10, jobs=1) != one


def test_wilson_interval():
    lo, hi = wilson(0, 10)  # no successes: the upper bound is z^2 / (n + z^2)
    assert lo == 0 and hi == pytest.approx(1.959963984540054**2 / (10 + 1.959963984540054**2))
    lo, hi = wilson(5, 10)
    assert lo + hi == pytest.approx(1.0) and 0.2 < lo < 0.25
    lo, hi = wilson(500, 1000)
    assert hi - lo == pytest.approx(2 * 1.96 * (0.25 / 1000) ** 0.5, rel=0.01)
    mean, lo, hi = mean_interval(10, 50, 2)  # values 5 and 5
    assert (mean, lo, hi) == (5, 5, 5)


# -- the command line ------------------------------------------------------------------------


def test_simulated_clashes_replay_through_the_clash_command(cli, game):
    """The simulator decides clashes as 'daimyo satsuma clash' does: replay a sample through the CLI."""
    replayed = 0
    for i in range(4):
        g = sim.play_game(game, sim.game_seed(21, i), trace=True)
        for h in g.trace[::3]:
            # a samurai defender's choice of Escape (house rule escape_choice) is passed on
            choice = [] if h["attacker"] == "samurai" else ["--escape", "use" if h["samurai_escape"] else "leave"]
            r = cli(
                "satsuma",
                "clash",
                "-a",
                h["attacker"],
                "-s",
                "; ".join(h["samurai"]),
                "-i",
                "; ".join(h["imperial"]),
                "--format",
                "json",
                *choice,
            )
            assert r.code == 0, r
            out = json.loads(r.stdout)
            assert out["samurai"]["strength"] == h["samurai_strength"]
            assert out["imperial"]["strength"] == h["imperial_strength"]
            assert out["winner"] == h["winner"]
            assert out["casualties"] == h["casualties"]
            assert out["next_attacker"] == h["next_attacker"]
            replayed += 1
    assert replayed >= 12


def test_simulate_text_and_json(cli):
    r = cli("satsuma", "simulate", "--games", "200", "--seed", "4")
    assert r.code == 0, r
    assert "Greater Imperial Victory" in r.stdout and "95% confidence interval" in r.stdout
    assert "mean game length" in r.stdout
    assert "\r" not in r.stderr  # no progress bar when not on a terminal
    j = cli("satsuma", "simulate", "--games", "200", "--seed", "4", "--format", "json", "--jobs", "2")
    data = json.loads(j.stdout)
    assert data["games"] == 200 and sum(v["games"] for v in data["victory"]) == 200
    assert sum(c["games"] for c in data["imperial_casualties"]) == 200
    for v in data["victory"]:
        assert v["ci95"][0] <= v["share"] <= v["ci95"][1]
    assert {r["id"] for r in data["readings"]} >= {"roles-before-discard", "escape-samurai-only"}
    assert data["house_rules"] == {
        "escape_choice": "needed",
        "discard_timing": "before_redraw",
        "bodyguard_suit": "none",
    }
    assert "house rules: escape_choice=needed, discard_timing=before_redraw, bodyguard_suit=none" in r.stdout
    # the text and the JSON report the same games
    great = next(v for v in data["victory"] if v["result"] == "Greater Imperial Victory")
    assert f"{great['games']:,}" in r.stdout


def test_simulate_variant_decks_and_policies(cli, tmp_path):
    variant = tmp_path / "variant.yaml"
    variant.write_text(
        "system: satsuma\nname: Saigo doubled\nside: samurai\n"
        "cards: {Takamori Saigo: 3, Honor: 3, Bushido: 3, Break Out: 3, Night Assault: 3,"
        " Out Fight & Outmaneuver: 3, Block Passes: 3, Samurai Warriors: 3}\n"
    )
    base = json.loads(cli("satsuma", "simulate", "-n", "300", "--format", "json").stdout)
    strong = json.loads(cli("satsuma", "simulate", "-n", "300", "--format", "json", "--samurai", str(variant)).stdout)
    assert strong["decks"][0]["name"] == "Saigo doubled" and strong["decks"][0]["cards"] == 24
    assert strong["mean_imperial_casualties"]["mean"] > base["mean_imperial_casualties"]["mean"] + 2
    weak = json.loads(
        cli("satsuma", "simulate", "-n", "300", "--format", "json", "--policy", "samurai=none,imperial=best").stdout
    )
    assert weak["policies"]["samurai"]["name"] == "none"
    assert weak["mean_imperial_casualties"]["mean"] < base["mean_imperial_casualties"]["mean"]


def test_simulate_bad_input_is_one_line(cli, tmp_path):
    from conftest import ROOT

    imperial = ROOT / "examples" / "satsuma-imperial.yaml"
    r = cli("satsuma", "simulate", "--samurai", str(imperial))
    assert r.code == 2 and r.stderr.count("\n") == 1 and "imperial deck" in r.stderr
    r = cli("satsuma", "simulate", "--samurai", str(ROOT / "examples" / "kensei-buke.yaml"))
    assert r.code == 2 and "kensei list" in r.stderr
    r = cli("satsuma", "simulate", "--policy", "bets")
    assert r.code == 2 and "did you mean" in r.stderr.lower() and "best" in r.stderr
    r = cli("satsuma", "simulate", "--games", "0")
    assert r.code == 2 and r.stderr.startswith("daimyo: error:")
    bad = tmp_path / "bad.yaml"
    bad.write_text("system: satsuma\nside: samurai\ncards: {Honor: 1, Bushido: 1}\n")
    r = cli("satsuma", "simulate", "--samurai", str(bad))
    assert r.code == 1 and "bad.yaml:3:" in r.stderr and "deck has 2 cards" in r.stderr
    r = cli("satsuma", "simulate", "--samurai", str(tmp_path / "missing.yaml"))
    assert r.code == 2 and "Traceback" not in r.stderr


def test_progress_bar_only_on_a_terminal(game):
    import io

    from builder.commands.analytics import Progress

    class Tty(io.StringIO):
        def isatty(self):
            return True

    tty, pipe = Tty(), io.StringIO()
    for stream in (tty, pipe):
        bar = Progress(300, "simulating", stream=stream)
        simu.run(game, 300, 2, jobs=1, progress=bar)
        bar.close()
    assert "\rsimulating [" in tty.getvalue() and "100% 300/300" in tty.getvalue()
    assert pipe.getvalue() == ""
    quiet = Tty()
    Progress(300, "simulating", enabled=False, stream=quiet)(150)  # --format json: never drawn
    assert quiet.getvalue() == ""


def test_simulation_house_rules_from_the_command_line_and_lists(cli, tmp_path):
    listed = cli("rules", "satsuma")
    assert listed.code == 0
    for key in (
        "escape_choice = needed",
        "discard_timing = before_redraw",
        "alternative free",
        "alternative after_redraw",
    ):
        assert key in listed.stdout
    readings = cli("satsuma", "simulate", "--readings")
    assert "escape_choice = needed" in readings.stdout and "discard_timing = before_redraw" in readings.stdout
    args = ("satsuma", "simulate", "-n", "300", "--format", "json")
    base = json.loads(cli(*args).stdout)
    free = json.loads(cli(*args, "--rule", "escape_choice=free").stdout)
    assert base["house_rules"]["escape_choice"] == "needed" and free["house_rules"]["escape_choice"] == "free"
    assert free["imperial_casualties"] != base["imperial_casualties"]
    assert free["hands"]["escape_kept_defender"] < base["hands"]["escape_kept_defender"]
    needed = base
    # the same through a list's agreed house rules; two lists agreeing differently must be settled
    sam = tmp_path / "sam.yaml"
    sam.write_text("system: satsuma\nside: samurai\ndeck: standard\nhouse_rules: {escape_choice: needed}\n")
    imp = tmp_path / "imp.yaml"
    imp.write_text("system: satsuma\nside: imperial\ndeck: standard\nhouse_rules: {escape_choice: highest}\n")
    assert (
        json.loads(cli(*args, "--samurai", str(sam), "--imperial", str(imp), "--rule", "escape_choice=needed").stdout)[
            "imperial_casualties"
        ]
        == needed["imperial_casualties"]
    )
    r = cli(*args, "--samurai", str(sam), "--imperial", str(imp))
    assert r.code == 2 and r.stderr.count("\n") == 1 and "escape_choice" in r.stderr and "--rule" in r.stderr
    r = cli(*args, "--rule", "escape_choice=sometimes")
    assert r.code == 2 and "escape_choice" in r.stderr and "free" in r.stderr


def test_clash_command_takes_the_samurai_escape_choice(cli):
    hand = ("-a", "imperial", "-s", "Break Out; Honor; Samurai Warriors", "-i", "Rear Attack", "--format", "json")
    auto = json.loads(cli("satsuma", "clash", *hand).stdout)
    assert auto["samurai"]["strength"] == 22 and auto["next_attacker"] == "imperial"  # Escape kept him defender
    r = cli("satsuma", "clash", *hand, "--escape", "leave")  # the text: every usable card counts
    assert r.code == 2 and "escape_choice=needed" in r.stderr and "highest total, 22" in r.stderr
    leave = json.loads(cli("satsuma", "clash", *hand, "--escape", "leave", "--rule", "escape_choice=free").stdout)
    assert leave["samurai"]["strength"] == 16 and leave["winner"] == "samurai" and leave["next_attacker"] == "samurai"
    r = cli("satsuma", "clash", *hand, "--escape", "leave", "--rule", "escape_choice=highest")
    assert r.code == 2 and "highest total, 22" in r.stderr
    r = cli("satsuma", "clash", "-a", "samurai", "-s", "Break Out; Honor", "-i", "Rear Attack", "--escape", "use")
    assert r.code == 2 and "may not use Escape" in r.stderr and ".txt" not in r.stderr
