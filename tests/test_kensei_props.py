"""Properties of Kensei checks: order independence, totals that add up, no crash on any document."""

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from builder.check import check_text
from builder.errors import DaimyoError
from builder.lists.dump import dump_list_yaml

from conftest import DATA, examples

PACK = str(DATA / "kensei" / "troops-pack.yaml")
NAMES = [
    "Taisho Buke",
    "Yari Ashigaru",
    "Samurai Yari",
    "Samurai Dai-Katana",
    "Yumi Samurai",
    "Mounted Samurai",
    "Samurai Hatamoto",
    "Kensei Master",
    "Ashigaru Teppo",
    "Peasants",
    "Ikame Bo",
    "Jikininki",
    "Infernal Onmyouji",
    "Komuso",
    "Mystery Ronin",
    "Samurai Nodachi",
    "Yari Ashigary",
    "Hero Buke Yumi",
    "Ashigaru Taisho",
    "Hata-Jurushi",
]
COST = {
    "Taisho Buke": 20,
    "Yari Ashigaru": 5,
    "Samurai Yari": 5,
    "Samurai Dai-Katana": 10,
    "Yumi Samurai": 15,
    "Mounted Samurai": 20,
    "Samurai Hatamoto": 15,
    "Kensei Master": 30,
    "Ashigaru Teppo": 10,
    "Ikame Bo": 10,
    "Jikininki": 10,
    "Hero Buke Yumi": 25,
    "Ashigaru Taisho": 15,
    "Infernal Onmyouji": 25,
    "Komuso": 20,
    "Mystery Ronin": 10,
}

entry = st.fixed_dictionaries(
    {"troop": st.sampled_from(NAMES), "models": st.integers(1, 16)},
    optional={"standard": st.booleans(), "led_by": st.sampled_from(["Taisho Buke", "Ikame Bo", "Nobody"])},
)
army = st.fixed_dictionaries(
    {
        "system": st.just("kensei"),
        "clan": st.sampled_from(["buke", "kuge", "sohei", "otokodate", "kuroi-te", "hattori"]),
        "points": st.sampled_from([100, 200, 250, 300, 400, 600]),
        "commander": st.sampled_from(["hatamoto", "taisho", "daimyo"]),
        "occult": st.booleans(),
        "troops": st.lists(entry, max_size=9),
    }
)


def _key(res):
    """Findings independent of where entries stand: code, message, value, bound, severity."""
    return sorted((f.severity, f.code, f.message, str(f.value), str(f.bound)) for f in res.findings)


def _check(doc):
    return check_text(dump_list_yaml(doc), "p.yaml", extra_packs=[PACK])


@settings(max_examples=examples(60))
@given(army, st.randoms())
def test_reordering_troops_never_changes_the_result(doc, rnd):
    a = _check(doc)
    shuffled = copy.deepcopy(doc)
    rnd.shuffle(shuffled["troops"])
    b = _check(shuffled)
    assert _key(a) == _key(b)
    assert a.summary == b.summary
    assert a.legal == b.legal


@settings(max_examples=examples(60))
@given(army)
def test_points_total_is_the_sum_of_the_parts(doc):
    res = _check(doc)
    level = {"hatamoto": 0, "taisho": 10, "daimyo": 20}[doc["commander"]]
    parts = 0
    for t in doc["troops"]:
        if t["troop"] == "Peasants":
            parts += 5 * -(-t["models"] // 2)
        else:
            parts += COST.get(t["troop"], 0) * t["models"]
    assert res.summary["points"] == parts + level
    assert res.summary["troops"] + res.summary["commander"] == res.summary["points"]
    assert res.summary["limit"] == doc["points"]
    # the total is over the limit exactly when points-max is reported
    assert (res.summary["points"] > doc["points"]) == any(f.code == "kensei.points-max" for f in res.findings)


yaml_scalar = st.one_of(st.none(), st.booleans(), st.integers(-5, 700), st.floats(allow_nan=True), st.text(max_size=12))
yaml_value = st.recursive(
    yaml_scalar,
    lambda c: st.one_of(st.lists(c, max_size=4), st.dictionaries(st.text(max_size=8), c, max_size=4)),
    max_leaves=12,
)
near_doc = st.fixed_dictionaries(
    {"system": st.just("kensei")},
    optional={
        "clan": yaml_value,
        "points": yaml_value,
        "commander": yaml_value,
        "occult": yaml_value,
        "general": yaml_value,
        "house_rules": yaml_value,
        "name": yaml_value,
        "troops": st.one_of(
            yaml_value,
            st.lists(
                st.one_of(
                    entry,
                    st.dictionaries(
                        st.sampled_from(["troop", "models", "led_by", "standard", "x"]), yaml_value, max_size=4
                    ),
                ),
                max_size=5,
            ),
        ),
    },
)


@settings(max_examples=examples(150))
@given(near_doc)
def test_no_document_makes_check_raise(doc):
    try:
        text = dump_list_yaml(doc)
    except Exception:
        return  # not representable as YAML; nothing to check
    try:
        res = check_text(text, "fuzz.yaml", extra_packs=[PACK])
    except DaimyoError as exc:
        assert exc.exit_code == 2 and exc.diagnostics
        return
    assert isinstance(res.legal, bool)


@settings(max_examples=examples(80))
@given(st.text(max_size=200))
def test_no_text_makes_check_raise(text):
    try:
        check_text("system: kensei\n" + text, "fuzz.yaml", extra_packs=[PACK])
    except DaimyoError as exc:
        assert exc.diagnostics
