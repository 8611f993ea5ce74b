"""Copies of one card are counted together, whatever spellings the deck lines use."""

from builder.check import check_text


def test_two_spellings_of_one_card_count_together():
    res = check_text("system: herocard\nhero: X\nattributes: []\ndeck:\n  Cross Block: 3\n  cross-block: 4\n")
    (f,) = [f for f in res.findings if f.code == "herocard.copies-max"]
    assert f.value == 7 and f.bound == 6
    assert f.message.startswith("7 copies of 'Cross Block' (on 2 lines) > 6")
    assert f.line == 5


def test_six_copies_on_two_lines_pass():
    res = check_text("system: herocard\nhero: X\nattributes: []\ndeck:\n  Cross Block: 3\n  cross-block: 3\n")
    assert not [f for f in res.findings if f.code == "herocard.copies-max"]
