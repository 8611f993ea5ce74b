"""'Did you mean ...?' suggestions for unknown names: the prepared name index gives exactly the
suggestions a comparison with every catalog name gives, in every game, for any list size."""

from __future__ import annotations

import difflib
import json
import random
import shutil
from pathlib import Path

import pytest

from builder.catalog.loader import load_catalog
from builder.names import NameIndex, normalize, suggest

ROOT = Path(__file__).resolve().parent.parent
PACKS = {"senshiai": ["examples/packs/senshiai-example.yaml"], "herocard": ["examples/packs/herocard-example.yaml"]}


def _catalog(system):
    return load_catalog(system, packs=[ROOT / p for p in PACKS.get(system, [])])


def reference(name, candidates, n=3):
    """The plain definition: difflib's ratio with every candidate, the best within 0.08 of
    the best (at least 0.6); failing that, candidates containing the name or contained in it."""
    keyed = {normalize(c): c for c in dict.fromkeys(candidates)}
    key = normalize(name)
    scored = sorted(((difflib.SequenceMatcher(None, key, k).ratio(), k) for k in keyed), key=lambda t: (-t[0], t[1]))
    scored = [(r, k) for r, k in scored if r >= 0.6]
    best = scored[0][0] if scored else 0
    out = [keyed[k] for r, k in scored if r >= best - 0.08][:n]
    return out or [c for k, c in keyed.items() if key and (key in k or k in key)][:n]


def misspell(name, rnd):
    chars = list(name)
    for _ in range(rnd.randint(1, 4)):
        op = rnd.choice("dist")
        i = rnd.randrange(len(chars) + 1)
        if op == "d" and i < len(chars):
            del chars[i]
        elif op == "i":
            chars.insert(i, rnd.choice("aeiou rstn-'"))
        elif op == "s" and i + 1 < len(chars):
            chars[i], chars[i + 1] = chars[i + 1], chars[i]
        elif op == "t":
            chars[i:] = chars[i:][: rnd.randint(0, 3)]
    return "".join(chars)


# suggestions the catalog gave for these misspellings (unchanged by the index)
KNOWN = {
    ("senshiai", "cards"): {
        "Warrior": "did you mean 'Warriors'?",
        "Militamen": "did you mean 'Militiamen'?",
        "rice feilds": "did you mean 'Rice Fields'?",
        "Capitol of the North": "did you mean 'Capital of the North'?",
        "Stone": "did you mean 'Stone Fort' or 'Stone Rain'?",
        "Harbour": "",
        "Pirates": "did you mean 'River Pirates'?",
        "Open Vault": "did you mean 'Open the Vaults'?",
        "Warriors of the North": "did you mean 'Capital of the North'?",
    },
    ("kensei", "troops"): {
        "Samurai": "did you mean 'Samurai Yari' or 'Yumi Samurai'?",
        "Ashigaru Archer": "did you mean 'Ashigaru Yari'?",
        "Bushi": "did you mean 'Onna-Bushi'?",
        "Sohei Monk": "",
        "Ninja": "did you mean 'Ninja Shinobigatana'?",
        "Cavalry": "did you mean 'Warrior Monk Cavalry'?",
        "Onna Bugeisha": "did you mean 'Onna-Bushi'?",
        "Kuge": "did you mean 'Kogen'?",
    },
    ("herocard", "heroes"): {
        "Samurai": "did you mean 'Samurai'?",
        "Ronin": "did you mean 'Ninja'?",
        "Monk": "",
    },
}


@pytest.mark.parametrize("system,section", list(KNOWN))
def test_known_misspellings_keep_their_suggestions(system, section):
    cat = _catalog(system)
    got = {name: cat.did_you_mean(section, name) for name in KNOWN[(system, section)]}
    assert got == KNOWN[(system, section)]


@pytest.mark.parametrize(  # every name of a game misspelt: the quick loop one game, the suite every game
    "system",
    ["senshiai", *(pytest.param(s, marks=pytest.mark.slow) for s in ("kensei", "herocard", "senji", "satsuma"))],
)
def test_index_agrees_with_a_comparison_with_every_name(system):
    """Misspellings of every name of every section (and some unrelated words) get the same
    suggestions as the plain definition."""
    cat = _catalog(system)
    rnd = random.Random(system)
    for section in cat.sections():
        cands = [n for e in cat.records(section) for n in [e["name"], *(e.get("aliases") or [])]]
        index = NameIndex(cands)
        tries = [misspell(c, rnd) for c in cands for _ in range(3)]
        tries += ["", "x", "Zzz", "dragon", "the", cands[0] * 3 if cands else "q"]
        for name in tries:
            assert index.suggest(name) == reference(name, cands), (section, name)


def test_index_handles_long_names_and_other_scripts():
    cands = ["Ōtomo Sōrin", "織田 信長", "a" * 300 + "b", "b" * 70_000, "Go", "Gō"]
    index = NameIndex(cands)
    for name in ["Otomo Sorin", "Ōtomo", "織田", "a" * 299, "b" * 69_990, "go", "", "GO!"]:
        assert index.suggest(name) == reference(name, cands), name
    assert suggest("x", []) == []


def test_check_of_a_misspelt_deck_names_the_close_cards(tmp_path, cli):
    shutil.copytree(ROOT / "examples" / "packs", tmp_path / "packs")
    text = (ROOT / "examples" / "senshiai-northern-host.yaml").read_text(encoding="utf-8")
    for good, bad in [
        ("Warriors: 6", "Warrior: 6"),
        ("Sky Riders", "Sky Rider"),
        ("Stone Fort", "Stone"),
        ("Rice Fields", "rice feilds"),
    ]:
        text = text.replace(good, bad, 1)
    f = tmp_path / "deck.yaml"
    f.write_text(text, encoding="utf-8")
    r = cli("check", f)
    assert r.code == 1, r
    lines = [ln.strip() for ln in r.stdout.splitlines() if "senshiai.unknown-card" in ln]
    assert lines == [
        f"{f}:12:3: error senshiai.unknown-card: unknown card 'rice feilds'; did you mean 'Rice Fields'?",
        f"{f}:16:3: error senshiai.unknown-card: unknown card 'Stone'; did you mean 'Stone Fort' or 'Stone Rain'?",
        f"{f}:18:3: error senshiai.unknown-card: unknown card 'Warrior'; did you mean 'Warriors'?",
        f"{f}:20:3: error senshiai.unknown-card: unknown card 'Sky Rider'; did you mean 'Sky Riders'?",
    ]


def test_many_distinct_unknown_names_get_the_suggestions_one_name_gets(tmp_path, cli):
    """A deck of thousands of distinct unknown names: each line's suggestion is the one the
    name gets alone."""
    shutil.copytree(ROOT / "examples" / "packs", tmp_path / "packs")
    rnd = random.Random(5)
    cat = _catalog("senshiai")
    names = [e["name"] for e in cat.records("cards")]
    unknown = {}
    for i in range(2000):
        u = " ".join((misspell(rnd.choice(names), rnd) + f" {i % 7 or ''}").split())
        if u.strip() and cat.find("cards", u) is None and ":" not in u and not u.startswith(("-", "'", " ")):
            unknown.setdefault(normalize(u), u)
    unknown = list(unknown.values())
    body = "".join(f'  "{u}": 1\n' for u in unknown)
    f = tmp_path / "deck.yaml"
    f.write_text(
        "system: senshiai\nname: many\npacks: [packs/senshiai-example.yaml]\nsize: 50\ncards:\n" + body,
        encoding="utf-8",
    )
    r = cli("check", f, "--format", "json")
    assert r.stdout.startswith("[") and not r.stderr, r
    found = [x for x in json.loads(r.stdout)[0]["findings"] if x["code"] == "senshiai.unknown-card"]
    assert len(found) == len(unknown) > 1000
    cands = [n for e in cat.records("cards") for n in [e["name"], *(e.get("aliases") or [])]]
    for x, u in zip(found, unknown, strict=False):
        shown = list(dict.fromkeys(cat.find_record("cards", h)["name"] for h in reference(u, cands)))
        hits = reference(u, shown) if shown else []
        tail = (
            "did you mean " + " or ".join(f"'{h}'" for h in hits) + "?"
            if hits
            else "add it in a pack (packs: [my-cards.yaml])"
        )
        assert x["message"] == f"unknown card '{u}'; {tail}"
