"""Statistics, exact draw odds and sample hands: odds against enumeration, the query language and
its errors, counts against the rulebook's card list, Kensei limits against the check, stable hands."""

import hashlib
import itertools
import json
import re
from fractions import Fraction
from pathlib import Path
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from builder.analytics import odds
from builder.analytics.hands import draw_hand, hand_seed, sample_hands
from builder.analytics.stats import list_stats, load
from builder.check import check_file
from builder.games.satsuma import rules as core
from builder.kit.deck import DeckView, FieldSpec, Row

from conftest import examples

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"
SEED = "003_d64fd863b3930085.txt"


def small_view(rows):
    fields = {
        "name": FieldSpec("name", "Card", counted=False),
        "type": FieldSpec("type", "Type"),
        "path": FieldSpec("path", "Path"),
        "cost": FieldSpec("cost", "Cost", kind="ordinal", order=("N", "I", "II", "III", "IV", "V")),
    }
    return DeckView("senshiai", [Row(n, c, f) for n, c, f in rows], fields, 6, "test")


DECK = [
    ("Hill", 3, {"name": ("Hill",), "type": ("terrain",), "path": ("Earth",), "cost": ("I",)}),
    ("Harbor", 2, {"name": ("Harbor",), "type": ("terrain",), "path": ("Earth", "Water"), "cost": ("II",)}),
    ("Scout", 2, {"name": ("Scout",), "type": ("troop",), "path": ("Air",), "cost": ("I",)}),
    ("Boat", 1, {"name": ("Boat",), "type": ("troop",), "path": ("Water",), "cost": ("III",)}),
    ("Omen", 2, {"name": ("Omen",), "type": ("event",), "path": (), "cost": ("N",)}),
]


def enumerate_odds(rows, pred, n, op, k) -> Fraction:
    """Every n-card subset of the expanded deck, counted: the definition of the probability."""
    cards = [facts for _, count, facts in rows for _ in range(count)]
    hit = total = 0
    for combo in itertools.combinations(range(len(cards)), n):
        x = sum(1 for i in combo if pred(cards[i]))
        total += 1
        hit += {">=": x >= k, "<=": x <= k, ">": x > k, "<": x < k, "=": x == k, "!=": x != k}[op]
    return Fraction(hit, total)


QUERIES = [
    ("type=terrain", lambda f: "terrain" in f["type"]),
    ("path=Water", lambda f: "Water" in f["path"]),
    ("type=terrain and path=Water", lambda f: "terrain" in f["type"] and "Water" in f["path"]),
    ("type=event or path=Air", lambda f: "event" in f["type"] or "Air" in f["path"]),
    ("not type=terrain", lambda f: "terrain" not in f["type"]),
    ("path!=Earth", lambda f: "Earth" not in f["path"]),
    ("cost<=I", lambda f: f["cost"][0] in ("N", "I")),
    (
        "cost>I and not (type=event or path=Earth)",
        lambda f: f["cost"][0] in ("II", "III") and not ("event" in f["type"] or "Earth" in f["path"]),
    ),
    (
        "type=troop or type=event and cost=N",
        lambda f: "troop" in f["type"] or ("event" in f["type"] and f["cost"] == ("N",)),
    ),
    ("any", lambda f: True),
]


@settings(max_examples=examples(120))
@given(
    st.sampled_from(QUERIES), st.integers(0, 6), st.integers(0, 4), st.sampled_from([">=", "<=", ">", "<", "=", "!="])
)
def test_odds_agree_with_enumeration(query, n, k, op):
    text, pred = query
    view = small_view(DECK)
    ans = odds.answer(f"{text} {op} {k} in {n}", view)
    assert ans.probability == enumerate_odds(DECK, pred, n, op, k)
    assert ans.matching == sum(c for _, c, f in DECK if pred(f))


def test_odds_known_values():
    view = small_view(DECK)
    # one Boat among 10 cards, 3 drawn: 3/10
    assert odds.answer("name=Boat >= 1 in 3", view).probability == Fraction(3, 10)
    # 'in' left out: the opening hand (6 for Senshiai), capped at the deck
    ans = odds.answer("type=event = 0", view)
    assert ans.query.drawn == 6 and ans.probability == Fraction(28, 210)  # C(8,6)/C(10,6)
    assert odds.hypergeometric(50, 1, 6, ">=", 1) == Fraction(6, 50)
    big, k = 10**20, 10**19  # without replacement: K/N * (K-1)/(N-1)
    assert odds.hypergeometric(big, k, 2, "=", 2) == Fraction(k * (k - 1), big * (big - 1))


def test_query_values_are_loose_and_quoted():
    view = small_view(
        DECK + [("Rice Fields", 1, {"name": ("Rice Fields",), "type": ("terrain",), "path": (), "cost": ("I",)})]
    )
    assert odds.answer('name="rice fields" >= 1 in 1', view).matching == 1
    assert odds.answer("TYPE = Terrain AND Path=earth >= 1", view).matching == 5
    assert odds.answer("types=terrain >= 1", view).matching == 6  # plural field names


@pytest.mark.parametrize(
    "query, col, words",
    [
        ("typ=terrain >= 1", 1, "unknown field 'typ'"),
        ("type=terain >= 1", 6, "did you mean 'terrain'"),
        ("type=terrain >= x", 17, "whole number"),
        ("type=terrain 1", 14, "expected a comparison"),
        ("(type=terrain >= 1", 15, "expected ')'"),
        ("type=terrain >= 1 in 11", 22, "cannot draw 11 cards from a deck of 10"),
        ("type=terrain >= 1 in 3 more", 24, "unexpected 'more'"),
        ("type>terrain >= 1", 5, "has no order"),
        ("cost<=VI >= 1", 7, "unknown cost 'VI'"),
        ("type=terrain and >= 1", 18, "expected a field"),
        ("name='Hill >= 1", 6, "never closed"),
        ("", 1, "empty query"),
    ],
)
def test_bad_queries_name_the_column(query, col, words):
    with pytest.raises(odds.QueryError) as ei:
        odds.answer(query, small_view(DECK))
    line = ei.value.lines(flags=True)[0]  # as the command line shows it
    assert line.startswith(f"daimyo: error: --odds '{query}': column {col}: "), line
    assert ei.value.lines()[0].startswith(f"daimyo: error: 'odds' '{query}': column {col}: ")
    assert words in line and "\n" not in line


# -- statistics -----------------------------------------------------------------------------


def test_satsuma_suit_counts_match_the_rulebook_card_list():
    from conftest import rulebook_text

    lines = rulebook_text(SEED).split("\n")[62:108]  # the samurai deck, lines 63-108
    want: dict = {}
    for line in lines:
        letters = set(re.findall(r"\b([FRLADMWE])\d+", line))
        for s in letters:
            want[core.SUIT_NAMES[s]] = want.get(core.SUIT_NAMES[s], 0) + 1
    st_ = list_stats(EX / "satsuma-samurai.yaml")
    suits = {v["value"]: v["cards"] for b in st_["counts"] if b["field"] == "suit" for v in b["values"]}
    assert {k: v for k, v in suits.items() if k != "(none)"} == want
    assert suits["(none)"] == 1  # Bodyguard, printed T2, has no usable suit by default
    assert st_["cards"] == 46
    force = next(s for s in st_["suits"] if s["suit"] == "Force")
    assert force["max"] == 9 and force["roles"] == ["attacker", "defender"]


def test_senshiai_counts_add_up_and_follow_the_cards():
    ld = load(EX / "senshiai-northern-host.yaml")
    st_ = list_stats(None, loaded=ld)
    by = {b["field"]: {v["value"]: v["cards"] for v in b["values"]} for b in st_["counts"]}
    assert sum(by["type"].values()) == st_["cards"] == 50
    want_terrain = sum(e.count for e in ld.lst.entries if e.card.type == "terrain")
    assert by["type"]["terrain"] == want_terrain
    earth = sum(e.count for e in ld.lst.entries if "Earth" in [str(p) for p in (e.card.paths or [])])
    assert by["path"]["Earth"] == earth
    assert list(by["cost"]) == [c for c in ("N", "I", "II", "III", "IV", "V", "?") if c in by["cost"]]


def test_kensei_limits_are_the_rules_engine_measure(tmp_path):
    st_ = list_stats(EX / "kensei-buke.yaml")
    rows = {(r["code"], r["kind"], r["group"]): r for r in st_["limits"]}
    total = rows[("kensei.points-max", "max", None)]
    assert (total["value"], total["bound"], total["room"], total["ok"]) == (200, 200, 0, True)
    ranged = rows[("kensei.ranged-max", "max", None)]
    assert (ranged["value"], ranged["bound"], ranged["room"]) == (60, 100, 40)  # Yumi Samurai, 60 AP
    assert all(r["ok"] for r in st_["limits"]) and check_file(EX / "kensei-buke.yaml").legal
    points = {b["by"]: {v["value"]: v["points"] for v in b["values"]} for b in st_["points"]}
    assert sum(points["class"].values()) == 200
    # an army that breaks limits: every broken limit is a finding of 'daimyo check' with the same numbers
    bad = tmp_path / "bad.yaml"
    bad.write_text((EX / "kensei-buke.yaml").read_text().replace("models: 4", "models: 14"))
    res = check_file(bad)
    broken = [r for r in list_stats(bad)["limits"] if not r["ok"]]
    assert broken
    found = {(f.code, f.value, f.bound) for f in res.findings}
    for r in broken:
        assert (r["code"], r["value"], r["bound"]) in found, r


def test_stats_of_every_example_and_json(cli):
    for path in sorted(EX.glob("*.yaml")):
        r = cli("stats", path, "--format", "json")
        assert r.code == 0, r
        data = json.loads(r.stdout)
        assert data["system"] in path.name and data["limits"]


def test_stats_cli_odds_and_errors(cli):
    r = cli("stats", EX / "satsuma-imperial.yaml", "--odds", "suit=Attack >= 2 in 7", "--odds", "suit=A >= 2")
    assert r.code == 0, r
    got = re.findall(r"P\(([^)]*)\) = ([0-9.]+)", r.stdout)
    assert len(got) == 2 and got[0][1] == got[1][1]  # the letter A is the suit Attack; 'in 7' the default
    r = cli("stats", EX / "satsuma-imperial.yaml", "--odds", "suit=Atack >= 2")
    assert r.code == 2 and r.stderr.count("\n") == 1 and "column 6" in r.stderr
    r = cli("stats", EX / "kensei-buke.yaml", "--odds", "type=x >= 1")
    assert r.code == 2 and "card decks" in r.stderr
    r = cli("stats", EX / "nope.yaml")
    assert r.code == 2 and "Traceback" not in r.stderr


# -- hands -----------------------------------------------------------------------------------


def reference_hand(counts, seed, index, size):
    """The documented algorithm, written again: Random(blake2b('hand:S:i')) and int(random() * left)."""
    h = int.from_bytes(hashlib.blake2b(f"hand:{seed}:{index}".encode(), digest_size=8).digest(), "big")
    rnd = Random(h)
    left = list(counts)
    out = []
    for _ in range(size):
        x = int(rnd.random() * sum(left))
        i = 0
        while x >= left[i]:
            x -= left[i]
            i += 1
        left[i] -= 1
        out.append(i)
    return out


def test_hands_follow_the_documented_algorithm_and_are_stable():
    ld = load(EX / "satsuma-samurai.yaml")
    counts = [r.count for r in ld.view.rows]
    for seed in (0, 1, 7, 2**40):
        for i in (1, 2, 5):
            assert draw_hand(ld.view, seed, i, 7) == reference_hand(counts, seed, i, 7)
    # pinned: the same hand on every platform and Python version
    assert sample_hands(ld, 7)["hands"][0]["cards"] == [
        "Samurai Warriors",
        "Bushido",
        "Heavy Rain",
        "Tragic Hero",
        "Takamori Saigo",
        "Dispatch Guards",
        "Isolated Sword Duels",
    ]
    many = sample_hands(ld, 7, draws=5)["hands"]
    assert many[0]["cards"] == sample_hands(ld, 7, draws=1)["hands"][0]["cards"]
    assert len({tuple(h["cards"]) for h in many}) == 5
    assert hand_seed(7, 1) != hand_seed(7, 2)


def test_satsuma_hand_shows_the_core_best_totals(cli):
    r = cli("hand", EX / "satsuma-imperial.yaml", "--seed", "3", "--draws", "3", "--format", "json")
    assert r.code == 0, r
    data = json.loads(r.stdout)
    assert data["size"] == 7 and len(data["hands"]) == 3
    for h in data["hands"]:
        for role in ("attacker", "defender"):
            res = cli(
                "satsuma",
                "clash",
                "-a",
                "imperial" if role == "attacker" else "samurai",
                "-i",
                "; ".join(h["cards"]),
                "-s",
                "Honor",
                "--format",
                "json",
            )
            assert json.loads(res.stdout)["imperial"]["strength"] == h[role]["strength"]


def test_hand_sizes_and_huge_counts(cli, tmp_path):
    r = cli("hand", EX / "senshiai-northern-host.yaml", "--seed", "1", "--format", "json")
    assert json.loads(r.stdout)["size"] == 6  # Senshiai: up to 6 cards in hand
    r = cli("hand", EX / "herocard-samurai.yaml", "--seed", "1", "--format", "json")
    assert json.loads(r.stdout)["size"] == 7
    huge = tmp_path / "huge.yaml"
    huge.write_text("system: satsuma\nside: imperial\ncards: {Imperial Guard: 1000000, Rear Attack: 1}\n")
    r = cli("hand", huge, "--seed", "1", "--format", "json")
    assert r.code == 0 and json.loads(r.stdout)["hands"][0]["cards"] == ["Imperial Guard"] * 7
    r = cli("stats", huge, "--odds", "name='Rear Attack' >= 1 in 7")
    assert r.code == 0 and "P(name='Rear Attack' >= 1 in 7) = 0.0000" in r.stdout
    r = cli("hand", EX / "kensei-buke.yaml", "--seed", "1")
    assert r.code == 2 and "no cards to draw" in r.stderr
    r = cli("hand", EX / "satsuma-imperial.yaml", "--seed", "1", "--draws", "0")
    assert r.code == 2 and r.stderr.startswith("daimyo: error: --draws 0")


# -- charts ----------------------------------------------------------------------------------


def _pages(path):
    import pdfplumber

    with pdfplumber.open(path) as pdf:
        return [(p.extract_text() or "", p.rects, p.width, p.height) for p in pdf.pages]


def _texts(path, pages=slice(None)) -> list[str]:
    """The text of each page (or of the slice ``pages`` of them)."""
    import pdfplumber
    from pdfcheck import text_pages

    with pdfplumber.open(path) as pdf:
        return [p.extract_text() or "" for p in text_pages(pdf, pages)]


def test_stats_pdf_charts_read_back(cli, tmp_path):
    out = tmp_path / "stats.pdf"
    r = cli("stats", EX / "senshiai-northern-host.yaml", "-o", out, "--odds", "type=terrain >= 1 in 6")
    assert r.code == 0, r
    pages = _pages(out)
    text = "\n".join(t for t, *_ in pages)
    for words in (
        "Statistics: Northern host",
        "Type (cards)",
        "Cost (cards)",
        "Path (cards)",
        "Recruit",
        "Limits: value against bound",
        "Draw odds",
        "type=terrain >= 1 in 6",
    ):
        assert words in text, words
    # the Type chart: three bars whose lengths follow the counts 13, 23, 14
    _text0, rects, _w, h = pages[0]
    first = [r for r in rects if r["top"] < h * 0.25 and r["height"] > 3]
    widths = sorted(round(r["width"], 1) for r in first)
    assert len(widths) >= 3
    a, b, c = widths[-3:]
    assert abs(c / a - 23 / 13) < 0.02 and abs(b / a - 14 / 13) < 0.02
    # not overwritten without --force
    r = cli("stats", EX / "senshiai-northern-host.yaml", "-o", out)
    assert r.code == 2 and "--force" in r.stderr


def test_print_with_stats_adds_the_stats_pages(cli, tmp_path):
    plain, with_stats = tmp_path / "plain.pdf", tmp_path / "stats.pdf"
    assert cli("print", EX / "kensei-buke.yaml", "-o", plain).code == 0
    r = cli("print", EX / "kensei-buke.yaml", "-o", with_stats, "--stats")
    assert r.code == 0, r
    a, b = _texts(plain), _texts(with_stats)
    assert len(b) == len(a) + 1
    assert "Statistics: Buke vanguard" in b[-1] and "Points by troop class" in b[-1]
    assert "Statistics" not in "".join(a)
    r = cli("print", EX / "satsuma-imperial.yaml", "-o", tmp_path / "cards.pdf", "--stats")
    assert r.code == 0, r
    (last,) = _texts(tmp_path / "cards.pdf", slice(-1, None))
    assert "Statistics: Imperial Army" in last and "Suit (cards)" in last
