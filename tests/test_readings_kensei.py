"""Kensei readings at their bounds: the Hata-Jurushi on any unit (001:1688-1693, 001:5941-5944)."""

import copy

from tests.test_kensei_rules import KUROI, codes, run


def _with_standard(doc, index, house_rules=None):
    d = copy.deepcopy(doc)
    d["troops"][index]["standard"] = True
    if house_rules:
        d["house_rules"] = house_rules
    return d


def test_a_creature_unit_may_carry_a_hata_jurushi():
    # the bearer "uses the unit's profile" and there is "one for each unit in your army":
    # the Jikininki (inferior creatures) are a unit like any other
    res = run(_with_standard(KUROI, 4))
    assert "kensei.standard-not-unit" not in codes(res), [f.format() for f in res.findings]
    assert res.legal


def test_the_leader_class_ladder_is_a_named_house_rule():
    res = run(_with_standard(KUROI, 4, {"standard_leader_classes": True}))
    (f,) = [f for f in res.findings if f.code == "kensei.standard-not-unit"]
    assert "standard_leader_classes" in f.message and "not I" in f.message
    assert "1852-1856" in f.source
    # a warrior unit passes under either reading
    assert "kensei.standard-not-unit" not in codes(run(_with_standard(KUROI, 2, {"standard_leader_classes": True})))


def test_a_single_model_never_carries_one():
    (f,) = [f for f in run(_with_standard(KUROI, 1)).findings if f.code == "kensei.standard-not-unit"]
    assert "single model" in f.message and "title" not in f.message
