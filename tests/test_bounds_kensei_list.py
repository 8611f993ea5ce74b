"""Kensei list reading: the bounds of the keys a list writes, at the bound and just past it.

The battle size is "the maximum army points agreed upon for the battle" (001:5798-5802): a
positive number; a unit or model entry holds at least one model; ``standard`` says whether a unit
carries its Hata-Jurushi ("one for each unit", 001:5941-5944): true, false or a count, never
negative. A list past one of these bounds is refused with one line at the key's place.
"""

import pytest

from builder.catalog.loader import load_catalog
from builder.check import check_doc, check_text
from builder.errors import ListError
from builder.lists.document import parse_list

LIST = """system: kensei
clan: buke
points: {points}
troops:
  - troop: Taisho Buke
  - troop: Samurai Yari
    models: {models}
    standard: {standard}
"""


def _check(points=200, models=5, standard="false", **kw):
    return check_text(LIST.format(points=points, models=models, standard=standard), "army.yaml", **kw)


def _refused(**kw) -> str:
    with pytest.raises(ListError) as ei:
        _check(**kw)
    (line,) = ei.value.lines()
    return line


def test_points_must_be_positive():
    assert _refused(points=0) == "army.yaml:3:9: error: 'points' must be positive, not 0 (e.g. points: 200)"
    res = _check(points=1)  # the least battle size is read, and held to its bounds
    assert res.summary.get("points") is not None
    assert "kensei.points-max" in {f.code for f in res.findings}


def test_an_entry_holds_at_least_one_model():
    assert _refused(models=0) == (
        "army.yaml:7:13: error: troops[1].models must be at least 1, not 0 (remove the entry instead)"
    )
    res = _check(models=1)
    (small,) = [f for f in res.findings if f.code == "kensei.unit-size-min"]
    assert small.value == 1


STANDARD_RULE = (
    "troops[1].standard must be true, false or a count of Hata-Jurushi (0 or more), not {} "
    "(write 'standard: true' on a unit that carries its Hata-Jurushi)"
)


@pytest.mark.parametrize("written, shown", [("-1", "-1"), ("yes", "'yes'"), ("1.5", "1.5"), ("[1]", "[1]")])
def test_standard_refuses_what_is_not_true_false_or_a_count(written, shown):
    assert _refused(standard=written) == "army.yaml:8:15: error: " + STANDARD_RULE.format(shown)


@pytest.mark.parametrize("written", ["false", "0", "true", "1", ""])
def test_standard_accepts_true_false_and_a_count_up_to_one(written):
    res = _check(standard=written)  # "" : the key written with no value, read as false
    assert not [f for f in res.findings if f.code.startswith("kensei.standard")], written


def test_a_count_of_two_standards_is_read_and_held_to_one_per_unit():
    # "You can only include one for each unit in your army" (001:5941-5944): 1 is the bound
    (over,) = [f for f in _check(standard="2").findings if f.code.startswith("kensei.standard")]
    assert (over.code, over.value, over.bound) == ("kensei.standard-max", 2, 1)
    assert over.message == "Samurai Yari: 2 Hata-Jurushi in one unit > 1 (one for each unit)"


# a club's pack rule on the ``standard`` fact (a restriction a pack may add): no Hata-Jurushi
NO_STANDARD = """system: kensei
restrictions:
  - id: no-standard
    name: No Hata-Jurushi
    code: no-standard
    label: units with a Hata-Jurushi
    count: units
    of: {standard: true}
    max: 0
    assumed: a house rule of our club
"""
TWO_UNITS = """system: kensei
clan: buke
points: 200
troops:
  - troop: Taisho Buke
  - troop: Samurai Yari
    models: 5
  - troop: Samurai Yari
    models: 5
    standard: {standard}
"""


@pytest.mark.parametrize("first", [False, True])
def test_the_standard_fact_is_the_entry_s_own(tmp_path, first):
    # two units of the same troop and size, one with its Hata-Jurushi: only that one counts, in
    # either order (an entry's facts are never another entry's)
    pack = tmp_path / "p.yaml"
    pack.write_text(NO_STANDARD)
    catalog = load_catalog("kensei", [str(pack)])
    text = TWO_UNITS
    if first:  # the unit with the standard comes first
        text = text.replace(
            "    models: 5\n  - troop: Samurai Yari\n    models: 5\n    standard: {standard}\n",
            "    models: 5\n    standard: {standard}\n  - troop: Samurai Yari\n    models: 5\n",
        )
    at = check_doc(parse_list(text.format(standard="false"), "army.yaml"), catalog=catalog)
    assert not [f for f in at.findings if f.code == "kensei.no-standard"]
    past = check_doc(parse_list(text.format(standard="true"), "army.yaml"), catalog=catalog)
    (over,) = [f for f in past.findings if f.code == "kensei.no-standard"]
    assert over.value == 1 and over.bound == 0
    one = check_doc(parse_list(text.format(standard="1"), "army.yaml"), catalog=catalog)
    assert [f.value for f in one.findings if f.code == "kensei.no-standard"] == [1]
