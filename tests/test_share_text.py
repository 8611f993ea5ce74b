"""Reading lists the way people paste them: lenient, with precise errors."""

from __future__ import annotations

import pytest

from builder.errors import ListError
from builder.share.api import detect_format, export_doc, parse_source_text
from builder.share.canonical import canonical
from builder.share.text import parse_header, parse_text


def test_kensei_text_reads_leniently():
    text = """
    // my spear list
    Spears - KENSEI - clan Buke - 185/200 AP
    Commander: taisho
    General: taisho-buke

    # leaders first
    Taisho Buke (20)
    5x samurai yari (25), with Hata-Jurushi
    Yari Ashigaru x9, led by Taisho Buke
    (3) Yumi Samurai
    """
    doc, notes = parse_text(text, "a.txt")
    assert doc == {
        "system": "kensei",
        "name": "Spears",
        "clan": "buke",
        "points": 200,
        "commander": "taisho",
        "general": "Taisho Buke",
        "troops": [
            {"troop": "Taisho Buke"},
            {"troop": "Samurai Yari", "models": 5, "standard": True},
            {"troop": "Yari Ashigaru", "models": 9, "led_by": "Taisho Buke"},
            {"troop": "Yumi Samurai", "models": 3},
        ],
    }
    assert notes == []


def test_text_export_shows_costs_and_totals():
    doc = {
        "system": "kensei",
        "name": "Vanguard",
        "clan": "buke",
        "points": 200,
        "troops": [{"troop": "Taisho Buke"}, {"troop": "Samurai Yari", "models": 5}],
    }
    out = export_doc(doc, "text", summary={"points": 45})
    assert out.splitlines() == [
        "Vanguard - Kensei - clan Buke - 45/200 AP",
        "",
        "Taisho Buke (20)",
        "5x Samurai Yari (25)",
    ]


def test_unknown_names_are_warnings_with_line_and_suggestion():
    text = "Deck - Senshiai\n4 Warriors\n3 Warrior\n2 Militiamen\n"
    doc, notes = parse_text(text, "deck.txt")
    assert doc["cards"] == {"Warriors": 4, "Warrior": 3, "Militiamen": 2}
    assert len(notes) == 1
    n = notes[0]
    assert (n.line, n.col) == (3, 3)
    assert "unknown card 'Warrior'" in n.message and "did you mean 'Warriors'" in n.message


@pytest.mark.parametrize(
    "line",
    [
        "4 Warriors",
        "4x Warriors",
        "4X warriors",
        "x4 Warriors",
        "(4) Warriors",
        "[4] WARRIORS",
        "Warriors x4",
        "Warriors 4",
        "4 x Warriors",
        "  4   Warriors  ",
    ],
)
def test_count_spellings(line):
    doc, _ = parse_text(line + "\n", "d.txt", system="senshiai")
    assert doc["cards"] == {"Warriors": 4}


def test_plain_deck_lines_infer_the_system():
    text = "// exported from another tool\nDeck\n4 Warriors\n4 Militiamen\n\n2 War Veterans\n"
    doc, _ = parse_text(text, "other.txt")
    assert doc == {"system": "senshiai", "cards": {"Warriors": 4, "Militiamen": 4, "War Veterans": 2}}
    satsuma = parse_text("1 Takamori Saigo\n2 Bushido\n", "s.txt")[0]
    assert satsuma["system"] == "satsuma"


def test_plain_lines_with_no_known_name_ask_for_the_system():
    with pytest.raises(ListError) as exc:
        parse_text("4 Nothing Known\n", "x.txt")
    assert exc.value.lines() == [
        "x.txt:1:1: error: cannot tell which game this list is for "
        "(start with a header such as 'My deck - Senshiai' or pass 'system')"
    ]
    doc, _ = parse_text("4 Nothing Known\n", "x.txt", system="herocard")
    assert doc == {"system": "herocard", "deck": {"Nothing Known": 4}}


def test_hyphen_variants_and_case_in_names():
    doc, notes = parse_text("Kensei - clan BUKE - 200 AP\n5x Samurai Dai\u2011katana\n2x samurai dai katana\n", "k.txt")
    assert [t["troop"] for t in doc["troops"]] == ["Samurai Dai-Katana", "Samurai Dai-Katana"]
    assert notes == []


def test_senji_player_lines():
    text = (
        "Game - Senji - 2 players\nAiko - red - samurai Baba - Kyushu 2+S, Shikoku 1, Province 4\n"
        "Ren - Blue - no provinces\n"
    )
    doc, _notes = parse_text(text, "s.txt")
    assert doc["players"] == [
        {
            "name": "Aiko",
            "family": "red",
            "samurai": "Baba",
            "provinces": [
                {"province": "Kyushu", "units": 2, "samurai": True},
                {"province": "Shikoku", "units": 1},
                {"province": "Province 4"},
            ],
        },
        {"name": "Ren", "family": "blue", "provinces": []},
    ]


def test_herocard_attributes_and_deck():
    text = (
        "Ronin - HeroCard - 28/30 hero points\nHero: My Ronin\nAttributes: A Body, A Mind, An X\n\n3 Overhand Thrust\n"
    )
    doc, _ = parse_text(text, "h.txt")
    assert doc == {
        "system": "herocard",
        "name": "Ronin",
        "hero": "My Ronin",
        "max_hero_points": 30,
        "attributes": ["A Body", "A Mind", "An X"],
        "deck": {"Overhand Thrust": 3},
    }


def test_header_name_may_hold_separators_and_system_words():
    assert parse_header("Kensei - Senji | test - Kensei - clan buke - 200 AP") == (
        "kensei",
        "Kensei - Senji | test",
        ["clan buke", "200 AP"],
    )


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Army - Kensei - clan buke - lots of AP\n", "t.txt:1:1: error: cannot read 'lots of AP' in the header"),
        ("Army - Kensei - 200 AP\nOccult: maybe\n", "t.txt:2:9: error: occult must be yes or no, not 'maybe'"),
        ("Army - Kensei - 200 AP\nHouse rules: {a: [\n", "t.txt:2:14: error: cannot read '{a: ['"),
        ("Deck - Senshiai\nSB: 2 Warriors\n", "t.txt:2:1: error: a Senshiai deck has no sideboard"),
        ("Deck - Senshiai\nHero: Bob\n", "t.txt:2:7: error: 'hero' is not part of a Senshiai list"),
        ("Game - Senji\nAiko\n", "t.txt:2:1: error: a player line reads"),
        ("   \n# only comments\n", "t.txt:1:1: error: no list found: the text is empty"),
    ],
)
def test_malformed_text_gives_line_numbered_errors(text, expected):
    with pytest.raises(ListError) as exc:
        parse_text(text, "t.txt")
    assert exc.value.lines()[0].startswith(expected)


def test_markdown_round_trip_with_escapes():
    doc = canonical(
        {"system": "senshiai", "name": "Best *deck*_1 [x]", "notes": "a | b\n# not a heading", "cards": {"Warriors": 3}}
    )
    md = export_doc(doc, "markdown")
    assert md.splitlines()[0] == r"**Best \*deck\*\_1 \[x\] - Senshiai - 3 cards**"
    assert detect_format(md) == "markdown"
    assert parse_source_text(md, "m.md").doc == doc


@pytest.mark.parametrize(
    "text, fmt",
    [
        ("DMY1-AAAAAA", "code"),
        ('{"system": "kensei"}', "json"),
        ("system: kensei\n", "yaml"),
        ("# c\nsystem: senji\n", "yaml"),
        ("**A - Kensei**\n", "markdown"),
        ("4 Warriors\n", "text"),
    ],
)
def test_format_detection(text, fmt):
    assert detect_format(text) == fmt


def test_json_errors_have_positions():
    with pytest.raises(ListError) as exc:
        parse_source_text('{"system": "kensei",\n "points": }', "l.json")
    assert exc.value.lines()[0].startswith("l.json:2:12: error: JSON syntax")


def test_yaml_shape_errors_point_at_the_line():
    with pytest.raises(ListError) as exc:
        parse_source_text("system: senshiai\ncards:\n  Warriors: many\nsize: 50\ncolour: red\n", "d.yaml")
    assert exc.value.lines() == [
        "d.yaml:5:1: error: unknown key 'colour' in a senshiai list (known keys: system, name, author, "
        "notes, packs, house_rules, size, cards, checked_with)",
        "d.yaml:3:13: error: the count of 'Warriors' must be a whole number (0 or more), not 'many'",
    ]


def test_names_that_would_not_read_back_are_quoted():
    doc = canonical({"system": "senshiai", "cards": {"Warriors": 2, "3 Lanterns, lit": 1, "Deck": 1}})
    out = export_doc(doc, "text")
    assert out.splitlines()[2:] == ["2 Warriors", '1 "3 Lanterns, lit"', '1 "Deck"']
    assert parse_source_text(out, "q.txt").doc == doc


def test_unclosed_quote_is_an_error():
    with pytest.raises(ListError) as exc:
        parse_text('Deck - Senshiai\n2 "Warriors\n', "q.txt")
    assert exc.value.lines()[0].startswith("q.txt:2:3: error: a quote is not closed")


def test_dump_is_block_style_ordered_and_stable():
    from builder.lists.dump import dump_list_yaml
    from builder.yamlio import parse_yaml

    doc = {
        "players": [
            {"provinces": [{"units": 2, "province": "Kyushu", "samurai": True}], "name": "Aiko", "family": "red"}
        ],
        "notes": "line one\nline two",
        "name": "yes",
        "system": "senji",
    }
    out = dump_list_yaml(doc)
    assert out == (
        "system: senji\nname: 'yes'\nnotes: |-\n  line one\n  line two\nplayers:\n"
        "  - name: Aiko\n    family: red\n    provinces:\n      - province: Kyushu\n"
        "        units: 2\n        samurai: true\n"
    )
    assert parse_yaml(out)[0] == doc
    assert dump_list_yaml(parse_yaml(out)[0]) == out


@pytest.mark.parametrize(
    "text, line",
    [
        (
            "Deck:Kensei\nKensei\n",
            "t.txt:1:6: error: 'deck:' takes its entries on the lines below it, not 'Kensei' "
            "(put each entry on a line of its own)",
        ),
        (
            "A - Kensei - clan buke - 200 AP\nTroops: Samurai Yari\nSamurai Yari\n",
            "t.txt:2:9: error: 'troops:' takes its entries on the lines below it, not 'Samurai Yari' "
            "(put each entry on a line of its own)",
        ),
    ],
)
def test_a_heading_with_a_value_is_an_error_at_its_line(text, line):
    # the value used to be kept as text, and the entries below then failed on it
    with pytest.raises(ListError) as exc:
        parse_text(text, "t.txt", system="herocard" if text.startswith("Deck") else None)
    assert exc.value.lines() == [line]
