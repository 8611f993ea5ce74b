"""The one number formatter (``builder.kit.numbers``) every face and game uses."""

from __future__ import annotations

from fractions import Fraction

from builder.kit.numbers import number_text, plain_value, plural


def test_a_number_is_written_as_people_write_it():
    shown = [number_text(v) for v in (25, 25.0, 2.5, -3.0, Fraction(7, 2), None, "12 AP", True)]
    assert shown == ["25", "25", "2.5", "-3", "7/2", "None", "12 AP", "True"]
    assert number_text(0.1 + 0.2) == "0.30000000000000004"
    assert [number_text(v, short=True) for v in (0.1 + 0.2, 25.0, 1e6, 2)] == ["0.3", "25", "1000000", "2"]


def test_a_value_for_json_or_a_page_is_whole_or_rounded():
    shown = [plain_value(v) for v in (5, Fraction(7, 3), Fraction(6, 2), 3.0, 2.255, -1.0, None, "x", True)]
    assert shown == [5, 2.33, 3, 3, 2.25, -1, None, "x", True]
    assert [type(v) for v in shown[:6]] == [int, float, int, int, float, int]
    assert plain_value(Fraction(7, 3), 1) == 2.3


def test_a_count_takes_its_word_in_the_plural_unless_it_is_one():
    assert [plural(n, "card") for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
