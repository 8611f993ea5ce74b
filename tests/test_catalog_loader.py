"""The generic catalog loader: merging, packs, cache, and exact messages for broken files.

A small stand-in system keeps these tests independent of the real catalogs.
"""

import re
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


def _parsed_snapshot():
    """Each parsed catalog file kept by the loader, as pickled bytes (data and positions)."""
    import pickle

    from builder.catalog import loader

    return {key: pickle.dumps((hit[2], hit[3].value, hit[3].key, hit[3].file)) for key, hit in loader._PARSED.items()}


def _summary(cat):
    return (cat.raw, cat.origin, cat.from_pack, cat.overridden, cat.packs, cat.files)


@pytest.mark.parametrize("pack", sorted(p.name for p in (ROOT / "examples" / "packs").glob("*.yaml")))
def test_a_pack_leaves_the_parsed_catalog_files_unchanged(pack, monkeypatch):
    """Catalog files are parsed once per process while they are unchanged on disk: a build with
    a pack that overrides and adds entries changes nothing a later build reads."""
    from builder.catalog import loader
    from builder.catalog.loader import catalog_files

    system = pack.split("-")[0]
    files = catalog_files(system)
    monkeypatch.setattr(loader, "_PARSED", {})
    before = build_catalog(system, files)
    parsed = _parsed_snapshot()
    assert len(parsed) == len(files)
    with_pack = build_catalog(system, files, [ROOT / "examples" / "packs" / pack])
    assert with_pack.overridden and with_pack.from_pack  # the pack overrides entries and adds some
    assert _parsed_snapshot() == parsed
    after = build_catalog(system, files)
    assert _parsed_snapshot() == parsed
    assert _summary(after) == _summary(before)
    monkeypatch.setattr(loader, "_PARSED", {})  # parsed afresh: the same catalog
    assert _summary(build_catalog(system, files)) == _summary(before)
    assert _parsed_snapshot() == parsed


def test_a_catalog_file_is_parsed_again_when_it_changes(tmp_path, monkeypatch):
    import os

    from builder import yamlio
    from builder.catalog import loader

    monkeypatch.setattr(loader, "_PARSED", {})
    parses = []
    real = yamlio.parse_yaml
    monkeypatch.setattr(yamlio, "parse_yaml", lambda *a, **k: parses.append(a[1]) or real(*a, **k))
    f = tmp_path / "base.yaml"
    f.write_text((ROOT / BAD / "base.yaml").read_text())
    cost = lambda: build_catalog("fakesys", [f]).find("cards", "Warriors").cost  # noqa: E731
    assert cost() == 3 and len(parses) == 1
    assert cost() == 3 and len(parses) == 1  # unchanged: parsed once
    st = os.stat(f)
    f.write_text(f.read_text().replace("cost: 3", "cost: 7"))  # the same size, a new time
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    assert os.stat(f).st_size == st.st_size
    assert cost() == 7 and len(parses) == 2
    assert cost() == 7 and len(parses) == 2
    f.write_text(f.read_text().replace("cost: 7", "cost: 12"))  # a new size
    assert cost() == 12 and len(parses) == 3
    st = os.stat(f)
    f.write_text(f.read_text().replace("cost: 12", "cost: 15"))  # the same size and time: the text differs
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert cost() == 15 and len(parses) == 4
    assert cost() == 15 and len(parses) == 4
    other = tmp_path / "other.yaml"  # the same text in another file: parsed for its own name
    other.write_text(f.read_text())
    with pytest.raises(CatalogError) as ei:
        build_catalog("fakesys", [f, other])
    assert len(parses) == 5
    assert all(line.startswith(str(other)) for line in ei.value.lines())


def test_the_parsed_catalog_files_kept_are_bounded(tmp_path, monkeypatch):
    from builder.catalog import loader

    monkeypatch.setattr(loader, "_PARSED", {})
    monkeypatch.setattr(loader, "_PARSED_MAX", 2)
    text = (ROOT / BAD / "base.yaml").read_text()
    files = []
    for name in ("a", "b", "c"):
        f = tmp_path / f"{name}.yaml"
        f.write_text(text if name == "a" else "# another file\n")
        files.append(f)
    kept = lambda: [Path(path).name for path, _ in loader._PARSED]  # noqa: E731
    build_catalog("fakesys", files)
    assert kept() == ["b.yaml", "c.yaml"]  # the least recently used left
    build_catalog("fakesys", files[1:])
    build_catalog("fakesys", files[:1])
    assert kept() == ["c.yaml", "a.yaml"]
    monkeypatch.setattr(loader, "_PARSED_CHARS", len(text) + 5)
    build_catalog("fakesys", files[1:2])
    assert kept() == ["b.yaml"]  # with a.yaml, more characters than allowed
    monkeypatch.setattr(loader, "_PARSED_CHARS", len(text) - 1)
    assert build_catalog("fakesys", files[:1]).find("cards", "Warriors").cost == 3
    assert kept() == ["b.yaml"]  # a file larger than all allowed is not kept


def test_a_frozen_entry_answers_its_model_class_methods_and_properties_and_refuses_other_names():
    from builder.catalog.frozen import Frozen
    from builder.catalog.loader import load_catalog

    pack = Path(__file__).resolve().parent.parent / "examples" / "packs" / "senshiai-example.yaml"
    cat = load_catalog("senshiai", [pack])
    cap, warriors = cat.find("cards", "Capital of the North"), cat.find("cards", "Warriors")
    assert isinstance(cap, Frozen) and isinstance(warriors, Frozen)
    for _ in range(2):  # the second time from what the first lookup kept
        assert cap.is_capital() is True and warriors.is_capital() is False  # a method, per entry
        assert (cap.cost_label, warriors.cost_label) == ("N", "II")  # a property, per entry
        assert (cap.cost_label, warriors.cost_label) == (cap.thaw().cost_label, warriors.thaw().cost_label)
        with pytest.raises(AttributeError, match="'Card' has no attribute 'no_such_field'"):
            cap.no_such_field  # noqa: B018
        assert not hasattr(warriors, "no_such_field")


# -- where each game's data is -------------------------------------------------------------------

ORIGIN = re.compile(r"the daimyo catalog \((?P<file>[a-z_/]+\.yaml), line [0-9]+\)")


def _origins(system: str, section: str, *names: str) -> list[str]:
    from builder.catalog.loader import load_catalog
    from builder.paths import origin_text

    cat = load_catalog(system)
    out = []
    for name in names:
        text = origin_text(cat.where(section, cat.find(section, name)))
        m = ORIGIN.fullmatch(text)
        assert m, text
        out.append(m["file"])
    return out


def test_each_game_says_its_catalog_folder_and_its_entries_read_as_the_daimyo_catalog():
    """In the source tree each game's folder is catalog/<id>: the game says so (the loader asks
    it) and its entries read "the daimyo catalog (<id>/<file>, line N)"."""
    from builder import SYSTEMS
    from builder.catalog.loader import catalog_files
    from builder.systems import catalog_folder

    for system in SYSTEMS:
        assert catalog_folder(system) == ROOT / "catalog" / system
        assert catalog_files(system) == sorted((ROOT / "catalog" / system).glob("*.yaml"))
    assert _origins("kensei", "troops", "Samurai Yari") == ["kensei/troops.yaml"]
    assert _origins("senji", "provinces", "Shikoku") == ["senji/provinces.yaml"]


@pytest.fixture
def data_folder(tmp_path, monkeypatch):
    """A DAIMYO_DATA folder holding a copy of Kensei's catalog folder alone."""
    import shutil

    from builder import paths, state

    shutil.copytree(ROOT / "catalog" / "kensei", tmp_path / "data" / "catalog" / "kensei")
    monkeypatch.setenv("DAIMYO_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("DAIMYO_CACHE_DIR", str(tmp_path / "cache"))
    state.clear_all()
    yield tmp_path / "data"
    monkeypatch.delenv("DAIMYO_DATA")
    state.clear_all()
    paths.data_root.cache_clear()


def test_daimyo_data_with_a_games_folder_replaces_that_games_data_and_no_other(data_folder):
    """DAIMYO_DATA's catalog/<id>/ is read instead of the game's own data; a game without a
    folder there keeps its own (before, every game was read from DAIMYO_DATA alone and a
    missing folder was "no catalog files found"). The entries read the same either way."""
    from builder.catalog.loader import load_catalog
    from builder.catalog.overlay import languages
    from builder.systems import catalog_folder

    assert catalog_folder("kensei") == data_folder / "catalog" / "kensei"
    assert catalog_folder("senji") == ROOT / "catalog" / "senji"
    assert {Path(f).parent for f in load_catalog("kensei").files} == {data_folder / "catalog" / "kensei"}
    assert {Path(f).parent for f in load_catalog("senji").files} == {ROOT / "catalog" / "senji"}
    assert _origins("kensei", "troops", "Samurai Yari") == ["kensei/troops.yaml"]
    assert _origins("senji", "provinces", "Shikoku") == ["senji/provinces.yaml"]
    assert languages("senji") == ["fr"] and languages("kensei") == ["es"]  # each game's i18n/ beside its files


def test_origin_text_reads_the_same_in_a_wheels_layout(tmp_path, monkeypatch):
    """In a wheel each game's catalog/<id>/ is the data/ folder of builder/games/<id>/ and
    rulebooks.yaml stays in builder/_data/catalog/: an entry still reads "the daimyo catalog
    (kensei/troops.yaml, line 3)", never the package's path."""
    from builder import paths

    pkg = tmp_path / "site-packages" / "builder"
    for rel in (
        "_data/catalog/rulebooks.yaml",
        "_data/examples/packs/kensei-profiles.yaml",
        "games/kensei/data/troops.yaml",
        "games/senji/data/i18n/fr.yaml",
        "games/kensei/rules.py",
    ):
        (pkg / rel).parent.mkdir(parents=True, exist_ok=True)
        (pkg / rel).write_text("", encoding="utf-8")
    mine = tmp_path / "mine.yaml"
    monkeypatch.setattr(paths, "_PKG", pkg)
    monkeypatch.delenv("DAIMYO_DATA", raising=False)
    paths.data_root.cache_clear()
    try:
        assert paths.data_root() == pkg / "_data"
        assert paths.origin_text(f"{pkg}/games/kensei/data/troops.yaml:3") == (
            "the daimyo catalog (kensei/troops.yaml, line 3)"
        )
        assert paths.origin_text(f"{pkg}/games/senji/data/i18n/fr.yaml") == "the daimyo catalog (senji/i18n/fr.yaml)"
        assert paths.origin_text(f"{pkg}/_data/examples/packs/kensei-profiles.yaml:7") == (
            "the bundled example pack 'kensei-profiles', line 7"
        )
        assert paths.origin_text(f"{pkg}/games/kensei/rules.py:1") == "pack 'rules.py', line 1"
        assert paths.origin_text(f"{mine}:4") == "pack 'mine.yaml', line 4"
    finally:
        paths.data_root.cache_clear()
