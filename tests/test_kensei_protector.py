"""Kensei "The Protector" (Kensei rulebook, Appendix: ability list, lines 7295-7312): with Kogen
and Sato in the army, Sato is deployed in the unit Kogen leads and "uses the same profile than
the unit" (one more miniature of it, within the unit's size); when Kogen leads no unit, Sato
joins him "forming an unit of two miniatures"."""

from builder.check import check_text

ARMY = """system: kensei
clan: kuroi-te
points: 400
troops:
  - troop: Taisho Samurai
  - troop: Kogen
  - troop: Sato
{sato}  - troop: Yurei Naginata
    models: {models}
{led}"""


def army(models=5, led="    led_by: Kogen\n", sato=""):
    return check_text(ARMY.format(models=models, led=led, sato=sato), "army.yaml")


def findings(res, code):
    return [f for f in res.findings if f.code == code]


def test_sato_counts_in_the_unit_kogen_leads_up_to_its_largest_size():
    # an infantry unit holds 15 miniatures (lines 5921-5922): 14 and Sato fit
    res = army(models=14)
    assert not findings(res, "kensei.unit-size-max")
    (info,) = findings(res, "kensei.the-protector")
    assert info.severity == "info" and "the unit counts 15 miniatures with him" in info.message
    # 15 and Sato are one too many
    res = army(models=15)
    (over,) = findings(res, "kensei.unit-size-max")
    assert over.value == 16 and over.bound == 15 and "Yurei Naginata" in over.message
    assert "the unit counts 16 miniatures with him" in findings(res, "kensei.the-protector")[0].message


def test_without_sato_the_unit_keeps_its_own_size():
    res = check_text(
        ARMY.format(models=15, led="    led_by: Kogen\n", sato="").replace("  - troop: Sato\n", ""), "army.yaml"
    )
    assert not findings(res, "kensei.unit-size-max")


def test_kogen_leading_no_unit_forms_a_unit_of_two_with_sato():
    res = army(led="")
    (info,) = findings(res, "kensei.the-protector")
    assert info.severity == "info" and "unit of two miniatures" in info.message
    assert not findings(res, "kensei.unit-size-min")  # the unit of two is the rule's own
    res = army(led="", sato="    models: 2\n")
    errors = [f for f in findings(res, "kensei.the-protector") if f.severity == "error"]
    assert len(errors) == 1 and "Sato is one model, not 2" in errors[0].message
    assert errors[0].value == 2 and errors[0].bound == 1


def test_sato_led_by_kogen_in_so_many_words_counts_in_his_unit():
    # "Sato must be deployed in the same unit which Kogen is the unit leader" (lines 7296-7299):
    # a list that says so (Sato led by Kogen) is the same list; 14 and Sato fit, 15 and Sato do not
    res = army(models=14, sato="    led_by: Kogen\n")
    assert not findings(res, "kensei.unit-size-max")
    assert [f.severity for f in findings(res, "kensei.the-protector")] == ["info"]
    (over,) = findings(army(models=15, sato="    led_by: Kogen\n"), "kensei.unit-size-max")
    assert over.value == 16 and over.bound == 15


def test_sato_led_by_another_leader_is_an_error_and_not_counted_in_kogens_unit():
    # Sato must be in Kogen's unit (lines 7296-7299): led by the Taisho he is wrongly placed,
    # which is the one error; he is not added to the unit Kogen leads (15 stays within 15)
    res = army(models=15, sato="    led_by: Taisho Samurai\n")
    (err,) = findings(res, "kensei.the-protector")
    assert err.severity == "error" and "Sato is led by 'Taisho Samurai'" in err.message
    assert err.loc[-1] == "led_by"
    assert not findings(res, "kensei.unit-size-max")


def test_sato_without_kogen_is_an_ordinary_troop():
    # the rule applies "If both Kogen and Sato are in your army" (line 7296)
    res = check_text(ARMY.format(models=5, led="", sato="").replace("  - troop: Kogen\n", ""), "army.yaml")
    assert not findings(res, "kensei.the-protector")
    res = check_text(ARMY.format(models=5, led="", sato="").replace("  - troop: Sato\n", ""), "army.yaml")
    assert not findings(res, "kensei.the-protector")
