"""Every share format reads back to the same canonical list, which checks the same.

Lists are generated from the catalog's names (in varied spellings: case, hyphen
variants, extra spaces), names no catalog knows, and odd free text; legal and
illegal alike.
"""

from __future__ import annotations

import glob
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from builder.catalog.loader import load_catalog
from builder.errors import DaimyoError, UsageError
from builder.names import loose
from builder.share.api import FORMATS, export_doc, parse_source_text
from builder.share.canonical import Resolver, canonical

from conftest import ROOT, examples

SETTINGS = settings(max_examples=examples(30))


def _names(system: str, *sections: str) -> list[str]:
    try:
        cat = load_catalog(system)
    except DaimyoError:
        return []
    out = []
    for sec in sections:
        if sec in cat.sections():
            out += [e.name for e in cat.entries(sec)]
            out += [e.id for e in cat.entries(sec)]
    return out


WORD = st.from_regex(r"[A-Z][a-z]{2,7}", fullmatch=True)
#: names no catalog knows: plain words, and odd ones that the text formats must quote
UNKNOWN = st.one_of(
    st.lists(WORD, min_size=1, max_size=3).map(" ".join).map(lambda s: s + " Zq"),
    st.text(alphabet=st.sampled_from(list("aZ09 -'&().#/:xX*+,|[]\"\\\u2013S\u00e9")), min_size=1, max_size=14).filter(
        lambda s: s.strip()
    ),
)
TEXT = st.text(alphabet=st.sampled_from(list("abcXYZ019 -#:'()/*_.,!?&|\\[]é漢")), min_size=1, max_size=30)
NOTES = st.lists(TEXT, min_size=1, max_size=3).map("\n".join)


def _variant(name: str):
    """A spelling that the name rules say is the same name."""
    return st.sampled_from(
        [
            name,
            name.upper(),
            name.lower(),
            name.replace(" ", "  "),
            name.replace("-", "\u2011"),
            name.replace("-", " - "),
        ]
    )


def name_of(system: str, *sections: str):
    known = _names(system, *sections)
    if not known:
        return UNKNOWN
    return st.one_of(st.sampled_from(known).flatmap(_variant), UNKNOWN)


def house_rules(system: str):
    try:
        cat = load_catalog(system)
    except DaimyoError:
        return st.just({})
    rules = cat.model.house_rules
    if not rules:
        return st.just({})
    pairs = st.sampled_from(rules).flatmap(lambda h: st.sampled_from(h.allowed()).map(lambda v: (h.id, v)))
    return st.lists(pairs, max_size=3).map(dict)


def common(system: str):
    return st.fixed_dictionaries(
        {"system": st.just(system)},
        optional={"name": TEXT, "author": TEXT, "notes": NOTES, "house_rules": house_rules(system)},
    )


def kensei():
    troop = st.fixed_dictionaries(
        {"troop": name_of("kensei", "troops")},
        optional={"models": st.integers(1, 30), "led_by": name_of("kensei", "troops"), "standard": st.booleans()},
    )
    body = st.fixed_dictionaries(
        {
            "clan": name_of("kensei", "clans"),
            "points": st.sampled_from([200, 400, 600, 250]),
            "troops": st.lists(troop, max_size=8),
        },
        optional={
            "commander": name_of("kensei", "commander_levels"),
            "occult": st.booleans(),
            "general": name_of("kensei", "troops"),
        },
    )
    return st.tuples(common("kensei"), body).map(lambda t: {**t[0], **t[1]})


def deck(system: str, *sections: str):
    return st.dictionaries(name_of(system, *sections), st.integers(0, 8).map(lambda n: n or 1), max_size=12)


def senshiai():
    body = st.fixed_dictionaries({"cards": deck("senshiai", "cards")}, optional={"size": st.sampled_from([40, 50, 60])})
    return st.tuples(common("senshiai"), body).map(lambda t: {**t[0], **t[1]})


def herocard():
    body = st.fixed_dictionaries(
        {"deck": deck("herocard", "actions", "action_cards", "cards")},
        optional={
            "hero": name_of("herocard", "heroes"),
            "max_hero_points": st.sampled_from([30, 40]),
            "attributes": st.lists(name_of("herocard", "attributes", "attribute_cards", "cards"), max_size=4),
        },
    )
    return st.tuples(common("herocard"), body).map(lambda t: {**t[0], **t[1]})


def senji():
    province = st.fixed_dictionaries(
        {"province": name_of("senji", "provinces")}, optional={"units": st.integers(0, 6), "samurai": st.booleans()}
    )
    player = st.fixed_dictionaries(
        {"name": WORD},
        optional={
            "family": name_of("senji", "families"),
            "samurai": name_of("senji", "samurai"),
            "provinces": st.lists(province, max_size=3),
        },
    )
    body = st.fixed_dictionaries({"players": st.lists(player, max_size=6)})
    return st.tuples(common("senji"), body).map(lambda t: {**t[0], **t[1]})


def satsuma():
    body = st.fixed_dictionaries(
        {"side": name_of("satsuma", "sides")},
        optional={"deck": st.sampled_from(["standard", "Standard"]), "cards": deck("satsuma", "cards")},
    )
    return st.tuples(common("satsuma"), body).map(lambda t: {**t[0], **t[1]})


STRATEGIES = {"kensei": kensei, "senshiai": senshiai, "herocard": herocard, "senji": senji, "satsuma": satsuma}


def outcome(doc: dict):
    """What ``daimyo check`` says about a document: exit 2, or legality and each finding."""
    from builder.check import check_text
    from builder.lists.dump import dump_list_yaml

    try:
        res = check_text(dump_list_yaml(doc), "<list>", base_dir=ROOT)
    except DaimyoError:
        return "unreadable"
    except Exception as exc:  # a rules module's own bug: compared, not hidden
        return f"crash {type(exc).__name__}"
    return res.legal, sorted({(f.severity, f.code, loose(f.path or "")) for f in res.findings})


def has_case_twins(node) -> bool:
    """Whether two names in one mapping or one list of entries differ only in case."""
    if isinstance(node, dict):
        keys = [k for k in node if isinstance(k, str)]
        if len({k.casefold() for k in keys}) < len(keys):
            return True
        return any(has_case_twins(v) for v in node.values())
    if isinstance(node, list):
        firsts = [next(iter(e.values())) for e in node if isinstance(e, dict) and e]
        names = [n for n in firsts if isinstance(n, str)]
        if len({n.casefold() for n in names}) < len(names):
            return True
        return any(has_case_twins(v) for v in node)
    return False


def roundtrip(doc: dict, fmt: str) -> dict:
    out = export_doc(doc, fmt)
    return parse_source_text(out, f"<{fmt}>", system=None).doc


@pytest.mark.parametrize("system", list(STRATEGIES))
def test_every_format_round_trips(system):
    @SETTINGS
    @given(STRATEGIES[system]())
    def run(doc):
        canon = canonical(doc)
        assert canonical(canon) == canon  # idempotent
        for fmt in FORMATS:
            try:
                back = roundtrip(doc, fmt)
            except UsageError as exc:
                # names differing only in case would read back merged: only then is
                # a text or Markdown export refused
                assert fmt in ("text", "markdown") and has_case_twins(canon), (fmt, exc)
                assert "cannot be written as" in str(exc)
                continue
            if fmt in ("text", "markdown"):  # occult powers unused go unsaid
                canon_t = {k: v for k, v in canon.items() if not (k == "occult" and v is False)}
                assert back == canon_t, (fmt, export_doc(doc, fmt))
                continue
            assert back == canon, (fmt, export_doc(doc, fmt))
        before = outcome(doc)
        if before != "unreadable":  # export refuses what check cannot read (tested elsewhere)
            assert outcome(canon) == before
            assert outcome(back) == before

    run()


@pytest.mark.parametrize("path", sorted(glob.glob(str(ROOT / "examples" / "*.yaml"))))
def test_examples_round_trip_and_stay_legal(path):
    from builder.check import check_file

    text = Path(path).read_text(encoding="utf-8")
    imp = parse_source_text(text, path, base_dir=Path(path).parent)
    res = check_file(path)
    for fmt in FORMATS:
        out = export_doc(imp.doc, fmt)
        back = parse_source_text(out, f"<{fmt}>")
        assert back.doc == imp.doc, fmt
        from builder.share.api import check_imported

        back.base_dir = imp.base_dir
        again = check_imported(back)
        assert again.legal == res.legal
        assert [(f.severity, f.code) for f in again.findings] == [(f.severity, f.code) for f in res.findings]


def test_yaml_export_is_the_canonical_dump(tmp_path):
    from builder.lists.dump import dump_list_yaml

    doc = {
        "troops": [{"models": 5, "troop": "samurai  yari"}],
        "points": 200,
        "clan": "Buke",
        "system": "kensei",
        "name": "Vanguard",
    }
    out = export_doc(doc, "yaml")
    assert out == dump_list_yaml(canonical(doc))
    assert out.splitlines()[:4] == ["system: kensei", "name: Vanguard", "clan: buke", "points: 200"]
    assert "  - troop: Samurai Yari" in out and "    models: 5" in out


def test_canonical_drops_entry_defaults_and_resolves_names():
    doc = {
        "system": "kensei",
        "clan": "BUKE",
        "points": 200,
        "troops": [{"troop": "yari  ashigaru", "models": 1, "standard": False}],
    }
    assert canonical(doc) == {"system": "kensei", "clan": "buke", "points": 200, "troops": [{"troop": "Yari Ashigaru"}]}


def test_canonical_adds_up_repeated_cards():
    doc = {"system": "senshiai", "cards": {"Warriors": 2, "warriors": 3, "Unknown Card": 1}}
    assert canonical(doc)["cards"] == {"Warriors": 5, "Unknown Card": 1}


def test_senji_family_keeps_the_name_lists_use():
    r = Resolver.of("senji")
    if not r.knows(
        __import__("builder.lists.schema", fromlist=["field_of"]).field_of("senji", "players").sub("family")
    ):
        pytest.skip("no families in the catalog")
    doc = {"system": "senji", "players": [{"name": "Aiko", "family": "Red", "provinces": []}]}
    assert canonical(doc)["players"] == [{"name": "Aiko", "family": "red", "provinces": []}]


def test_a_card_name_that_reads_like_a_count_is_quoted():
    """'1 X 0' would read as one card called '0' ('1 x 0'): such a name is written quoted."""
    from builder.share.api import export_doc, parse_source_text

    for name in ("X 0", "x3 Archers", "* Star"):
        doc = {"system": "satsuma", "side": "samurai", "cards": {name: 2}}
        text = export_doc(doc, "text")
        assert f'2 "{name}"' in text
        assert parse_source_text(text, "<export>", "satsuma").doc["cards"] == {name: 2}


@pytest.mark.parametrize("system", list(STRATEGIES))
def test_a_name_and_its_id_have_one_loose_key(system):
    """The catalog finds an entry by its name or its id (the name's slug): the loose key that
    findings and names are compared by is the same for both, and for no other entry's name."""
    from builder.names import slug

    cat = load_catalog(system)
    for section in cat.sections():
        records = cat.records(section)
        for r in records:
            assert loose(r["name"]) == loose(slug(r["name"])), (section, r["name"])
            hit = cat.find_record(section, slug(r["name"]))
            assert hit is not None and loose(hit["name"]) == loose(r["name"]), (section, r["name"])
    assert loose("Dai-Katana") == loose("dai katana") != loose("Dai-Katanas")
    # a list separator after the name is another name, not part of this one
    assert loose("Warrior's Strength, ':'") != loose("Warrior's Strength") == loose("warrior-s-strength")
    assert loose(":") == ":" and loose("?!") != loose(":")


def test_a_card_written_by_its_id_checks_like_the_canonical_list():
    """A list naming a card by its id (``out-fight-outmaneuver``) and its canonical form (the
    card's name, ``Out Fight & Outmaneuver``) give the same findings at the same card."""
    doc = {"system": "satsuma", "side": "imperial", "cards": {"out-fight-outmaneuver": 1}}
    canon = canonical(doc)
    assert canon["cards"] == {"Out Fight & Outmaneuver": 1}
    before, after = outcome(doc), outcome(canon)
    assert before == after
    legal, findings = before
    assert not legal
    assert ("error", "satsuma.wrong-side", loose("cards.Out Fight & Outmaneuver")) in findings
