"""Restrictions in the catalog or a pack may only use facts the Kensei checks compute."""

import pytest

from builder.catalog.loader import load_catalog
from builder.errors import CatalogError
from builder.games.kensei import catalog as catalog_kensei
from builder.games.kensei import rules as rules_kensei


def test_the_vocabulary_is_written_once_beside_the_catalog():
    """The catalog's check of a restriction reads the one list of facts; the checks keep no copy."""
    assert {"class", "ranged", "own_unit_max"} <= catalog_kensei.RESTRICTION_FACTS
    assert {"clan", "occult", "commander", "limit"} == catalog_kensei.RESTRICTION_CONTEXT_FACTS
    assert "troops_points" in catalog_kensei.RESTRICTION_CONTEXT_VALUES
    assert not {"FACTS", "CONTEXT_FACTS", "CONTEXT_VALUES"} & set(vars(rules_kensei))


def test_pack_restriction_with_unknown_fact_is_refused(tmp_path):
    pack = tmp_path / "p.yaml"
    pack.write_text(
        "system: kensei\nrestrictions:\n  - id: my-limit\n    name: Silly\n    code: my-limit\n"
        "    label: silly troops\n    count: points\n    of: {colour: red}\n"
        "    max: {percent: 10, of: limit}\n    assumed: a test\n"
    )
    with pytest.raises(CatalogError) as ei:
        load_catalog("kensei", [pack])
    (line,) = ei.value.lines()
    assert line.startswith(f"{pack}:8:9: error catalog.reference: restriction 'my-limit': unknown fact 'colour'")


def test_pack_restriction_with_known_facts_is_accepted(tmp_path):
    pack = tmp_path / "p.yaml"
    pack.write_text(
        "system: kensei\nrestrictions:\n  - id: my-limit\n    name: Few archers\n    code: my-limit\n"
        "    label: ranged troops\n    count: points\n    of: {ranged: true}\n"
        "    max: {percent: 10, of: limit}\n    assumed: a house rule of our club\n"
    )
    cat = load_catalog("kensei", [pack])
    assert cat.find("restrictions", "my-limit") is not None
