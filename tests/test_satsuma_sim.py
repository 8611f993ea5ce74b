"""Satsuma Rebellion game simulation: the fast solver against the reference, whole games under the
rulebook, the deck kept whole across reshuffles, determinism, and clashes replayed through the CLI."""

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from builder.analytics import simulate as simu
from builder.analytics.confidence import mean_interval, wilson
from builder.catalog.loader import load_catalog
from builder.rules import satsuma as core
from builder.rules import satsuma_sim as sim
from builder.rules.satsuma import PlayCard


@pytest.fixture(scope="module")
def cat():
    return load_catalog("satsuma")


def published(cat, side, rules=None):
    rules = rules or cat.resolve_rules({})
    return [core.play_card(c, rules) for c in cat.entries("cards") if c.side == side]


@pytest.fixture(scope="module")
def game(cat):
    return sim.Sim(sim.SideDeck.build("samurai", published(cat, "samurai")),
                   sim.SideDeck.build("imperial", published(cat, "imperial")))


def pc(printed, name=None):
    opts = tuple((p[0], int(p[1:])) for p in printed.split(" or "))
    return PlayCard(name or printed, opts, printed)


# -- the fast exact path against best_hand ------------------------------------------------

cards_st = st.lists(
    st.tuples(st.sampled_from("FRLADMWE"), st.integers(-1, 12), st.sampled_from("FRLADMWE"), st.integers(0, 12),
              st.booleans()), min_size=0, max_size=10)


@settings(max_examples=400, deadline=None)
@given(cards_st, st.sampled_from(core.ROLES))
def test_fast_total_and_escape_agree_with_best_hand(specs, role):
    cards = [PlayCard(f"c{i}", ((a, x), (b, y)) if two else ((a, x),)) for i, (a, x, b, y, two) in enumerate(specs)]
    hand = core.best_hand(cards, role)
    assert core.hand_value(cards, role) == (hand.strength, hand.uses_suit("E"))
    assert core.table_total(range(len(cards)), core.RoleTable.build(cards, role)) == \
        (hand.strength, hand.uses_suit("E"))
    assert hand.strength == core.best_strength_brute(cards, role)


@settings(max_examples=300, deadline=None)
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
    assert core.decide("imperial", 15, 9, True) == (res.winner, 0, 1, res.next_attacker) == \
        ("samurai", 0, 1, "imperial")
    assert core.decide("samurai", 5, 5, False) == ("tie", 1, 1, "samurai")
    assert core.decide("samurai", 4, 5, False) == ("imperial", 1, 0, "imperial")


# -- the policies ------------------------------------------------------------------------

def test_best_policy_discards_what_the_role_cannot_count_then_weak_cards():
    cards = [pc("D5", "Block Passes"), pc("E6", "Break Out"), pc("F7", "Samurai Warriors"), pc("F4", "Small Clashes"),
             pc("M1", "Weak Morale"), pc("L10", "Saigo"), pc("A5", "Raiders")]
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
        for before, after in zip(g.trace, g.trace[1:]):
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


def test_same_seed_same_game_and_seeds_differ(game):
    a = [sim.play_game(game, sim.game_seed(3, i), trace=True) for i in range(5)]
    b = [sim.play_game(game, sim.game_seed(3, i), trace=True) for i in range(5)]
    assert a == b
    assert len({sim.game_seed(3, i) for i in range(1000)}) == 1000
    assert a[0].trace != a[1].trace


def test_game_seed_and_shuffle_are_fixed_algorithms():
    from random import Random

    # the seed is BLAKE2b of the text 'satsuma-game:MASTER:INDEX', its first 8 bytes big-endian
    import hashlib

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


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("FRLADMWE"), st.integers(1, 9), st.integers(1, 3)), min_size=1,
                max_size=12),
       st.lists(st.tuples(st.sampled_from("FRLADMWE"), st.integers(1, 9), st.integers(1, 3)), min_size=1,
                max_size=12),
       st.integers(0, 2**64 - 1), st.sampled_from(list(sim.POLICIES)), st.sampled_from(list(sim.POLICIES)))
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
    assert lo == 0 and hi == pytest.approx(1.959963984540054 ** 2 / (10 + 1.959963984540054 ** 2))
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
            r = cli("satsuma", "clash", "-a", h["attacker"], "-s", "; ".join(h["samurai"]),
                    "-i", "; ".join(h["imperial"]), "--format", "json")
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
    assert {r["id"] for r in data["readings"]} >= {"discard-before-redraw", "escape-counted"}
    # the text and the JSON report the same games
    great = next(v for v in data["victory"] if v["result"] == "Greater Imperial Victory")
    assert f"{great['games']:,}" in r.stdout


def test_simulate_variant_decks_and_policies(cli, tmp_path):
    variant = tmp_path / "variant.yaml"
    variant.write_text("system: satsuma\nname: Saigo doubled\nside: samurai\n"
                       "cards: {Takamori Saigo: 3, Honor: 3, Bushido: 3, Break Out: 3, Night Assault: 3,"
                       " Out Fight & Outmaneuver: 3, Block Passes: 3, Samurai Warriors: 3}\n")
    base = json.loads(cli("satsuma", "simulate", "-n", "300", "--format", "json").stdout)
    strong = json.loads(cli("satsuma", "simulate", "-n", "300", "--format", "json", "--samurai",
                            str(variant)).stdout)
    assert strong["decks"][0]["name"] == "Saigo doubled" and strong["decks"][0]["cards"] == 24
    assert strong["mean_imperial_casualties"]["mean"] > base["mean_imperial_casualties"]["mean"] + 2
    weak = json.loads(cli("satsuma", "simulate", "-n", "300", "--format", "json", "--policy",
                          "samurai=none,imperial=best").stdout)
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
