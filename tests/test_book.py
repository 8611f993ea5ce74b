"""The organiser's book: bookmarks, a linked contents page, fields to fill in at the event,
the packs by name, version and hash, a fingerprint that covers pack content."""

from __future__ import annotations

import shutil
from pathlib import Path

import pdfplumber
from pdfcheck import text_pages
from pypdf import PdfReader

from builder.check import check_doc
from builder.lists.document import load_list
from builder.render.book import pack_info
from builder.share.fingerprint import fingerprint

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
LISTS = [EXAMPLES / "senshiai-northern-host.yaml", EXAMPLES / "kensei-buke.yaml", EXAMPLES / "herocard-samurai.yaml"]


def test_book_has_bookmarks_links_fields_and_named_packs(cli, tmp_path):
    out = tmp_path / "book.pdf"
    r = cli("print", *LISTS, "--book", "-o", out)
    assert r.code == 0, r.stderr
    reader = PdfReader(out)
    titles = [o.title for o in reader.outline]
    assert titles == ['1. "Northern host"', '2. "Buke vanguard (rulebook sample)"', '3. "Samurai of the Rising Sun"']
    # each bookmark opens the page the list starts on, and the contents links go there too
    starts = [reader.get_destination_page_number(o) for o in reader.outline]
    links = [a.get_object() for a in reader.pages[0].get("/Annots") or []]
    assert all(a["/Subtype"] == "/Link" for a in links)
    page_ids = [p.indirect_reference.idnum for p in reader.pages]
    targets = {page_ids.index(a["/Dest"][0].idnum) for a in links}  # a wrapped name is two links
    assert targets == set(starts)
    with pdfplumber.open(out) as pdf:
        pages = text_pages(pdf)
        for n in starts:
            text = pages[n].extract_text()
            assert "Player" in text and "Table" in text and "Round" in text and "Checked by" in text
        hero = pages[starts[2]].extract_text()
    assert 'Packs: ["' not in hero and "Packs: HeroCard example" in hero
    info = pack_info(load_list(LISTS[2]))
    assert f"({info[0]['hash']})" in hero and len(info[0]["hash"]) == 12


def test_fingerprint_covers_pack_content(tmp_path):
    (tmp_path / "packs").mkdir()
    pack = EXAMPLES / "packs" / "senshiai-example.yaml"
    shutil.copy(pack, tmp_path / "packs" / pack.name)
    shutil.copy(EXAMPLES / "senshiai-northern-host.yaml", tmp_path / "deck.yaml")
    doc = load_list(tmp_path / "deck.yaml")
    before = fingerprint(doc.data, check_doc(doc).packs)
    assert before == fingerprint(doc.data, check_doc(load_list(tmp_path / "deck.yaml")).packs)  # stable
    text = (tmp_path / "packs" / pack.name).read_text(encoding="utf-8")
    (tmp_path / "packs" / pack.name).write_text(text.replace("power: 2/1/8", "power: 2/1/9", 1), encoding="utf-8")
    after = fingerprint(doc.data, check_doc(load_list(tmp_path / "deck.yaml")).packs)
    assert after != before  # the list is the same; its pack changed


def test_senji_aid_title_names_the_player_count_once(tmp_path):
    from builder.render import api

    out = api.render_aid("senji", tmp_path / "a.pdf", players=4)
    with pdfplumber.open(out) as pdf:
        text = " ".join((text_pages(pdf, slice(1))[0].extract_text() or "").split())
    assert "player aid (4 players)" in text and "players players" not in text
