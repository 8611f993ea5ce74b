"""The decision documents name the finding codes `daimyo rules SYSTEM --codes` gives, with their severities."""

import functools
import re
from pathlib import Path

import pytest

from builder.catalog.loader import load_catalog
from builder.systems import get

DOCS = sorted((Path(__file__).resolve().parent.parent / "docs").glob("decisions-*.md"))
SYSTEMS = ("senshiai", "kensei", "herocard", "senji", "satsuma")
CODE = r"`((?:" + "|".join(SYSTEMS) + r")\.[a-z][a-z0-9-]*)`"
# a group of codes ("`a.x`, `a.y` (error)" or "`a.x`, error)") and the severity written after it
GROUP = re.compile(r"((?:" + CODE + r"(?:,\s*|\s+and\s+|\s+or\s+)?)+)\s*(?:\(|,\s*)(error|warning|info)\b")


@functools.cache
def _registered() -> dict[str, str]:
    out = {}
    for system in SYSTEMS:
        for code in get(system).catalog.finding_codes(load_catalog(system)).values():
            out[code.code] = code.severity
    return out


def _mentions(text: str):
    for m in GROUP.finditer(text):
        for code in re.findall(CODE, m.group(1)):
            yield code, m.group(m.lastindex)


@pytest.mark.parametrize("doc", DOCS, ids=[d.stem for d in DOCS])
def test_every_code_a_decision_document_names_exists(doc):
    text = doc.read_text()
    registered = _registered()
    unknown = sorted({c for c in re.findall(CODE, text) if c not in registered})
    assert not unknown, f"{doc.name} names codes `daimyo rules --codes` does not list: {unknown}"


@pytest.mark.parametrize("doc", DOCS, ids=[d.stem for d in DOCS])
def test_every_severity_a_decision_document_states_is_the_registered_one(doc):
    registered = _registered()
    wrong = [(c, sev, registered[c]) for c, sev in _mentions(doc.read_text()) if registered.get(c) not in (None, sev)]
    assert not wrong, f"{doc.name}: (code, says, is) {wrong}"


def test_the_check_reads_severities():
    # the pattern sees both ways the documents write a severity, so the test above cannot pass vacuously
    found = dict(
        _mentions(
            "| `herocard.copies-max` (error) | and `satsuma.unknown-suit`, warning) "
            "`a.b` `herocard.not-action-card`, `herocard.not-attribute-card` (info) |"
        )
    )
    assert found == {
        "herocard.copies-max": "error",
        "satsuma.unknown-suit": "warning",
        "herocard.not-action-card": "info",
        "herocard.not-attribute-card": "info",
    }
    assert sum(1 for d in DOCS for _ in _mentions(d.read_text())) >= 15
