"""The generic catalog loader: merging, packs, cache, and exact messages for broken files.

A small stand-in system keeps these tests independent of the real catalogs.
"""

import sys
import types
from pathlib import Path

import pytest

from builder.catalog.base import BaseCatalog, Entry
from builder.catalog.loader import build_catalog
from builder.errors import CatalogError
from builder.names import did_you_mean

ROOT = Path(__file__).resolve().parent.parent
BAD = Path("tests/data/catalog_bad")


class Ability(Entry):
    text: str


class Card(Entry):
    cost: int
    abilities: list[str] = []


class FakeCatalog(BaseCatalog):
    abilities: list[Ability] = []
    cards: list[Card] = []


def _cross_check(cat):
    out = []
    for i, card in enumerate(cat.entries("cards")):
        for j, name in enumerate(card.abilities):
            if cat.find("abilities", name) is None:
                hint = did_you_mean(name, cat.names("abilities")) or None
                out.append(
                    cat.diag(
                        ("cards", i, "abilities", j), f"card '{card.name}' names unknown ability '{name}'", hint=hint
                    )
                )
    return out


@pytest.fixture(autouse=True)
def fake_system(monkeypatch):
    """A game registered for the test, whose catalog model is the module made here."""
    from builder.systems import register, unregister
    from builder.systems.base import GameSystem
    from builder.systems.catalog import CatalogPart
    from builder.systems.parts import part

    mod = types.ModuleType("fakesys_catalog")
    mod.CATALOG_MODEL = FakeCatalog
    mod.cross_check = _cross_check
    monkeypatch.setitem(sys.modules, "fakesys_catalog", mod)
    monkeypatch.chdir(ROOT)

    class FakeCatalogPart(CatalogPart):
        module_name = "fakesys_catalog"

    class Fake(GameSystem):
        id = "fakesys"
        catalog = part(FakeCatalogPart)

    register(Fake())
    yield
    unregister("fakesys")


def build(*names, packs=()):
    return build_catalog("fakesys", [BAD / n for n in names], [Path(p) for p in packs])


CASES = sorted(p.stem for p in (ROOT / BAD).glob("*.expected"))


@pytest.mark.parametrize("case", CASES)
def test_broken_file_gives_exact_messages(case):
    expected = (ROOT / BAD / f"{case}.expected").read_text().splitlines()
    with pytest.raises(CatalogError) as ei:
        build("base.yaml", f"{case}.yaml")
    assert ei.value.lines() == expected


def test_every_broken_file_has_expected_output():
    yamls = {p.stem for p in (ROOT / BAD).glob("*.yaml")} - {"base"}
    assert yamls == set(CASES)


def test_valid_base_loads_and_indexes():
    cat = build("base.yaml")
    assert cat.find("cards", "warriors").cost == 3
    assert cat.find("cards", "WARRIORS ").name == "Warriors"
    assert cat.suggest("cards", "Warior") == ["Warriors"]
    assert cat.where("cards", cat.find("cards", "Warriors")).endswith("base.yaml:7")


def test_pack_overrides_and_adds(tmp_path):
    pack = tmp_path / "pack.yaml"
    pack.write_text(
        "system: fakesys\npack: My cards\nexample: true\ncards:\n"
        "  - name: warriors\n    cost: 4\n"
        "  - name: Ronin\n    cost: 5\n    assumed: house card\n"
    )
    cat = build("base.yaml", packs=[pack])
    assert cat.find("cards", "Warriors").cost == 4
    assert cat.find("cards", "Warriors").abilities == ["Charge"]  # untouched fields kept
    ronin = cat.find("cards", "Ronin")
    assert ronin.cost == 5 and cat.is_example("cards", ronin)
    assert not cat.is_example("abilities", cat.find("abilities", "Charge"))


def test_pack_errors_point_into_the_pack(tmp_path):
    pack = tmp_path / "pack.yaml"
    pack.write_text("system: fakesys\ncards:\n  - name: Ronin\n    cost: lots\n    assumed: x\n")
    with pytest.raises(CatalogError) as ei:
        build("base.yaml", packs=[pack])
    (line,) = ei.value.lines()
    assert line.startswith(f"{pack}:4:11: error catalog.type: cards[1].cost:")


def test_pack_for_another_system_is_refused(tmp_path):
    pack = tmp_path / "pack.yaml"
    pack.write_text("system: kensei\ncards: []\n")
    with pytest.raises(CatalogError) as ei:
        build("base.yaml", packs=[pack])
    assert ei.value.lines() == [
        f"{pack}:1:9: error pack.system: pack is for system 'kensei', not 'fakesys' "
        "(add 'system: fakesys' at the top of the pack)"
    ]


def test_cache_is_used_and_rebuilt_on_change(tmp_path, monkeypatch):
    from builder.catalog import loader

    folder = tmp_path / "catalog" / "fakesys"
    folder.mkdir(parents=True)
    f = folder / "cards.yaml"
    f.write_text((ROOT / BAD / "base.yaml").read_text())
    monkeypatch.setenv("DAIMYO_DATA", str(tmp_path))
    monkeypatch.setenv("DAIMYO_CACHE_DIR", str(tmp_path / "cache"))
    from builder import paths

    paths.data_root.cache_clear()
    try:
        calls = []
        real = loader.build_catalog
        monkeypatch.setattr(loader, "build_catalog", lambda *a, **k: calls.append(1) or real(*a, **k))
        first = loader.load_catalog("fakesys")
        second = loader.load_catalog("fakesys")
        assert len(calls) == 1  # second load came from the cache
        assert second.find("cards", "Warriors").cost == first.find("cards", "Warriors").cost == 3
        f.write_text(f.read_text().replace("cost: 3", "cost: 7"))
        third = loader.load_catalog("fakesys")
        assert len(calls) == 2 and third.find("cards", "Warriors").cost == 7
    finally:
        paths.data_root.cache_clear()
