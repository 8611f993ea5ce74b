"""Every finding cites a rulebook title and a section a player can look up.

For every finding code of every game: its citation names the rulebook and, for each cited
line, the section that line is in (a range running into the next section is cited under
both); each section named is a heading the rulebook prints, found at the section's first
line, or a passage the registry marks as printing no heading (then the lines are the way to
find it). The headings the rulebook texts print are kept in ``tests/data/rulebook_headings.json``
so the check runs without the texts; with the texts (DAIMYO_RULEBOOKS) that copy is compared
with them.
"""

from __future__ import annotations

import json
import re

import pytest

from builder import SYSTEMS
from builder.catalog.loader import load_catalog
from builder.rulebooks import format_source, registry, rulebook_of
from builder.systems import get

from conftest import DATA, SEEDS, needs_rulebooks, rulebook_text

HEADINGS = DATA / "rulebook_headings.json"
REF = re.compile(r"(\d{3}_[0-9a-f]{16}\.txt):(\d+)(?:-(\d+))?")

# codes about the list's own data, not a rule of a rulebook: they cite nothing
NOT_A_RULE = {
    "senshiai.unknown-card": "a name the catalog and the list's packs do not hold",
    "herocard.unknown-card": "a name the catalog and the list's packs do not hold",
    "kensei.unknown-troop": "a name the catalog and the list's packs do not hold",
    "senji.unknown-name": "a name the catalog does not hold",
    "kensei.cost-unknown": "a troop without a cost in the catalog or packs (the finding names the bound)",
    "kensei.profile-incomplete": "a profile field a restriction needs is missing (the finding names the rule)",
    "senji.placeholder-family": "the catalog's stand-in family names, not the rulebook's",
    "senji.example-board": "the catalog's example board, which the rulebook does not print",
    "satsuma.custom-card": "a card of the list's own, not one of the published decks",
    "satsuma.variant-size": "a variant deck, which the rulebook does not describe",
}


def _words(text: str) -> list[str]:
    text = re.sub(r"<\|[^>]*\|>", "", text).replace("\u2010", "-").lower()
    return re.findall(r"[a-z0-9]+", text)


def headings_in(text: str, book) -> list[list]:
    """``[line, title]`` of each heading the registry says the text prints: the line of the text
    where the heading's words start, each word following the one before within 200 letters
    from the section's first line (the extraction breaks headings: "T HE BUSHIDO ... CODE"),
    or ``[None, title]`` when the text does not print it there."""
    lines = text.split("\n")
    out = []
    for sec in book.sections:
        if not sec.printed:
            continue
        window, starts = "", []
        for n in range(sec.first, min(sec.first + 12, len(lines) + 1)):
            starts.append((len(window), n))
            window += "".join(_words(lines[n - 1]))
        at, found = 0, None
        for i, word in enumerate(_words(sec.title)):
            at = window.find(word, at)
            if not 0 <= at < 200:
                found = None
                break
            if i == 0:
                found = max(n for pos, n in starts if pos <= at)
            at += len(word)
        out.append([found, sec.title])
    return out


def frozen() -> dict:
    return json.loads(HEADINGS.read_text(encoding="utf-8"))


def _registered():
    for sid in SYSTEMS:
        yield from get(sid).catalog.finding_codes(load_catalog(sid)).values()


def test_every_finding_code_cites_the_rulebook_or_says_why_not():
    missing = sorted(fc.code for fc in _registered() if not fc.source and fc.code not in NOT_A_RULE)
    assert missing == [], f"finding codes citing no rulebook section: {missing}"
    cited = sorted(c for c in NOT_A_RULE if any(fc.code == c and fc.source for fc in _registered()))
    assert cited == [], f"these cite a section now: take them out of NOT_A_RULE: {cited}"
    codes = {fc.code for fc in _registered()}
    assert set(NOT_A_RULE) <= codes, sorted(set(NOT_A_RULE) - codes)


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_citation_names_the_section_of_each_cited_line(system):
    books, seen = registry(), frozen()
    for fc in get(system).catalog.finding_codes(load_catalog(system)).values():
        if not fc.source:
            continue
        shown = format_source(fc.source)
        refs = REF.findall(fc.source)
        assert refs, (fc.code, fc.source)
        for file, a, b in refs:
            book = books[file]
            assert shown.startswith(books[REF.findall(fc.source)[0][0]].title + ", "), (fc.code, shown)
            printed = {title for line, title in seen[file]["headings"] if line is not None}
            first, last = int(a), int(b or a)
            assert 1 <= first <= last <= book.lines, (fc.code, fc.source)
            spanned = {book.section_at(n).title for n in range(first, last + 1) if book.section_at(n)}
            # a range over two sections names each; over three or more (a chapter and its steps),
            # its first section, with the whole range
            chapter = len(spanned) > 2
            for line in range(first, last + 1):
                sec = book.section_at(line)
                assert sec is not None, (fc.code, line)
                named = book.section_at(first).title if chapter else sec.title
                assert f"{named} (" in shown, f"{fc.code}: line {line} is in '{sec.title}', cited as {shown}"
                # a section a player can find: a heading the rulebook prints, or lines of a passage without one
                assert sec.title in printed or not sec.printed, (fc.code, sec.title)


def test_the_frozen_headings_are_those_of_the_registry():
    """The copy of the printed headings and the registry agree (a heading renamed or moved in
    the registry without the text is caught without the rulebooks)."""
    seen = frozen()
    books = registry()
    assert set(seen) == set(books)
    for file, book in books.items():
        assert seen[file]["title"] == book.title
        titles = [title for _, title in seen[file]["headings"]]
        assert titles == [s.title for s in book.sections if s.printed], file
        for (line, title), sec in zip(seen[file]["headings"], [s for s in book.sections if s.printed], strict=True):
            assert line is not None, f"{file}: '{title}' is not printed in the text: mark it printed: false"
            assert sec.first <= line < sec.first + 12 and line <= sec.last, (file, title, line, sec)


@needs_rulebooks
@pytest.mark.parametrize("system", SYSTEMS)
def test_the_frozen_headings_are_those_the_rulebook_prints(system):
    book = rulebook_of(system)
    assert frozen()[book.file]["headings"] == headings_in(rulebook_text(book.file), book)


def test_the_unit_leader_rule_is_cited_under_unit_leader_not_the_sidebar():
    """Kensei prints the sidebar 'In thousand fronts' inside the unit leader rules
    (001:1790-1795): the rules after it are still the unit leader's (001:1796-1861)."""
    codes = get("kensei").catalog.finding_codes(load_catalog("kensei"))
    for code in ("kensei.unit-leader-class", "kensei.unit-leader-type", "kensei.led-by-not-leader"):
        shown = codes[code].section()
        assert "Unit leader (" in shown and "In thousand fronts" not in shown, (code, shown)


def test_a_range_over_two_sections_is_cited_under_both():
    assert (
        format_source("001_dbcd2f61c1014419.txt:5946-5955")
        == "Kensei rulebook, Omnyouji (lines 5946-5951); Komuso (lines 5952-5955)"
    )
    assert (
        format_source("003_d64fd863b3930085.txt:62-155")
        == "Satsuma Rebellion rulebook, The Samurai deck (lines 62-108); The Imperial deck (lines 109-155)"
    )


def write_frozen() -> None:  # pragma: no cover - run by hand when the registry or the texts change
    """``python -c "import sys; sys.path.insert(0, 'tests'); import test_citations as t; t.write_frozen()"``"""
    assert SEEDS is not None, "set DAIMYO_RULEBOOKS"
    out = {}
    for file, book in registry().items():
        out[file] = {"title": book.title, "headings": headings_in((SEEDS / file).read_text(encoding="utf-8"), book)}
    HEADINGS.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
