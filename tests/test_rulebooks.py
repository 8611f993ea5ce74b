"""The rulebook registry and the one way sources are shown to players."""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

import pytest

from builder import SYSTEMS
from builder.rulebooks import exact_source, format_source, humanize, registry, rulebook_of

from conftest import ROOT, SEEDS, rulebook_text

SOURCE_REF = re.compile(r"(\d{3}_[0-9a-f]{16}\.txt):(\d+)(?:-(\d+))?")


def test_every_system_has_one_rulebook_with_sections_covering_every_line():
    books = registry()
    assert {b.system for b in books.values()} == set(SYSTEMS)
    for book in books.values():
        assert book.title.endswith("rulebook") and book.edition and len(book.sha256) == 64
        assert book.sections[0].first == 1 and book.sections[-1].last == book.lines
        for a, b in zip(book.sections, book.sections[1:], strict=False):
            assert a.first <= a.last and b.first == a.last + 1, (book.file, a, b)


def test_format_source_reads_title_section_and_line():
    assert format_source("001_dbcd2f61c1014419.txt:5912") == "Kensei rulebook, Army leaders (line 5912)"
    assert format_source("001_dbcd2f61c1014419.txt:5912-5914") == "Kensei rulebook, Army leaders (lines 5912-5914)"
    assert (
        format_source("001_dbcd2f61c1014419.txt:5912-5914", inline=True)
        == "Kensei rulebook, Army leaders, lines 5912-5914"
    )
    two = "001_dbcd2f61c1014419.txt:6154, 001_dbcd2f61c1014419.txt:6160; 001_dbcd2f61c1014419.txt:5913"
    assert format_source(two) == "Kensei rulebook, Army list samples (lines 6154, 6160); Army leaders (line 5913)"
    assert format_source("004_80c161daf2b1fabf.txt:941-946") == "HeroCard rulebook, Taking Actions (lines 941-946)"
    assert exact_source(two) == (
        "001_dbcd2f61c1014419.txt:6154, 001_dbcd2f61c1014419.txt:6160, 001_dbcd2f61c1014419.txt:5913"
    )


def test_humanize_rewrites_references_inside_sentences():
    text = "red is the colour of the Military Kami (002_55c7e5ab3d1a76a7.txt:165) as printed"
    assert (
        humanize(text) == "red is the colour of the Military Kami (Senji rulebook, Samurai & Kami, line 165) as printed"
    )
    assert humanize("stated at L5960 and L5898-5899") == "stated at line 5960 and lines 5898-5899"
    assert humanize("no reference") == "no reference"


def _catalog_files() -> list[Path]:
    """Every YAML file of the catalog: rulebooks.yaml and each game's folder, as the game gives
    it (``gs.catalog.folder``), walked with os.walk (which follows a linked folder, where
    Python 3.11's rglob does not) and counted against the files of catalog/."""
    from builder.systems import catalog_folder

    def walk(folder: Path) -> list[Path]:
        return sorted(Path(d) / f for d, _, fs in os.walk(folder, followlinks=True) for f in fs if f.endswith(".yaml"))

    files = [ROOT / "catalog" / "rulebooks.yaml"] + [p for s in SYSTEMS for p in walk(catalog_folder(s))]
    assert len(files) == len(walk(ROOT / "catalog")) == len(list((ROOT / "catalog").rglob("*.yaml")))
    assert len(files) >= 33, len(files)  # 32 files of the five games and rulebooks.yaml
    return files


def test_every_catalog_source_falls_in_a_named_section():
    books = registry()
    read = cited = 0
    for path in _catalog_files():
        read += 1
        for m in SOURCE_REF.finditer(path.read_text(encoding="utf-8")):
            book = books[m.group(1)]
            a, b = int(m.group(2)), int(m.group(3) or m.group(2))
            assert 1 <= a <= b <= book.lines, (path.name, m.group(0))
            assert book.section_at(a) is not None
            cited += 1
    assert read >= 33 and cited >= 900, (read, cited)  # 33 files, 991 references


def _words(text: str) -> list[str]:
    text = re.sub(r"<\|[^>]*\|>", "", text).replace("\u2010", "-").lower()
    return re.findall(r"[a-z0-9]+", text)


@pytest.mark.parametrize("system", SYSTEMS)
def test_registry_matches_the_rulebook_texts(system):
    """Hash and line count of each text; every printed heading stands at the start of its section."""
    book = rulebook_of(system)
    text = rulebook_text(book.file)
    assert hashlib.sha256((SEEDS / book.file).read_bytes()).hexdigest() == book.sha256
    lines = text.split("\n")
    assert book.lines in (len(lines), len(lines) - 1)
    for sec in book.sections:
        if not sec.printed:
            continue
        window = "".join(_words(" ".join(lines[sec.first - 1 : sec.first + 11])))  # "A BOUT" -> "about"
        at = 0
        for word in _words(sec.title):  # each word of the heading, in order, near the start
            at = window.find(word, at)
            assert 0 <= at < 200, f"{book.file}:{sec.first}: heading '{sec.title}' not found"
            at += len(word)


def test_the_registry_is_read_from_its_cached_copy_only_while_the_file_is_unchanged(tmp_path, monkeypatch):
    """A command reads rulebooks.yaml's JSON copy in the cache folder, the same data as the
    YAML; a changed file (its size or time), a damaged copy or an unwritable folder is read
    from the YAML again, and DAIMYO_NO_CACHE=1 writes no copy."""
    import shutil

    from ruamel.yaml import YAML

    from builder.rulebooks import _read_registry

    src = tmp_path / "rulebooks.yaml"
    shutil.copy(ROOT / "catalog" / "rulebooks.yaml", src)
    want = YAML(typ="safe").load(src.read_text(encoding="utf-8"))
    cache = tmp_path / "cache"
    monkeypatch.setenv("DAIMYO_CACHE_DIR", str(cache))
    monkeypatch.delenv("DAIMYO_NO_CACHE", raising=False)
    assert _read_registry(src) == want
    copy = cache / "rulebooks.json"
    assert copy.is_file() and [p.name for p in cache.iterdir()] == ["rulebooks.json"]  # no temporary left
    # the copy is what is read while the file is unchanged
    kept = json.loads(copy.read_text(encoding="utf-8"))
    kept["data"]["rulebooks"][0]["title"] = "Read from the copy"
    copy.write_text(json.dumps(kept), encoding="utf-8")
    assert _read_registry(src)["rulebooks"][0]["title"] == "Read from the copy"
    # a changed file is read again, and its copy replaced
    src.write_text(src.read_text(encoding="utf-8") + "\n# an edit\n", encoding="utf-8")
    assert _read_registry(src) == want
    assert json.loads(copy.read_text(encoding="utf-8"))["data"] == want
    # a damaged copy is passed over
    current = json.loads(copy.read_text(encoding="utf-8"))["key"]
    for damaged in ('{"key": ', json.dumps({"key": current, "data": ["not", "a", "mapping"]}), "[1]"):
        copy.write_text(damaged, encoding="utf-8")
        assert _read_registry(src) == want
    # no copy written with DAIMYO_NO_CACHE=1, nor where the folder cannot be made
    copy.unlink()
    monkeypatch.setenv("DAIMYO_NO_CACHE", "1")
    assert _read_registry(src) == want and not copy.exists()
    monkeypatch.delenv("DAIMYO_NO_CACHE")
    (tmp_path / "file").write_text("", encoding="utf-8")
    monkeypatch.setenv("DAIMYO_CACHE_DIR", str(tmp_path / "file" / "cache"))
    assert _read_registry(src) == want
