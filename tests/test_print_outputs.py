"""Outputs beyond the PDF sheets: card images for print shops, Tabletop Simulator decks,
the organiser's book and the check spreadsheet."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from urllib.parse import urlparse
from urllib.request import url2pathname

import pdfplumber
import pytest
from pdfcheck import example_deck, text_pages
from PIL import Image

from builder.check import check_doc
from builder.lists.document import load_list
from builder.share.code import share_code_of
from builder.share.fingerprint import fingerprint

from qrread import page_codes

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
SENSHIAI = EXAMPLES / "senshiai-northern-host.yaml"
SATSUMA = EXAMPLES / "satsuma-samurai.yaml"


def _manifest(d: Path) -> list[dict]:
    return list(csv.DictReader(io.StringIO((d / "manifest.csv").read_text(encoding="utf-8"))))


def test_images_one_png_per_face_and_back_at_the_shop_size(cli, tmp_path):
    out = tmp_path / "shop"
    r = cli("print", SENSHIAI, "--to", "images", out)
    assert r.code == 0, r.stderr
    rows = _manifest(out)
    fronts = [x for x in rows if x["side"] == "front"]
    backs = [x for x in rows if x["side"] == "back"]
    assert len(fronts) == 16 and len(backs) == 1  # 16 different cards, one back design
    assert sum(int(x["count"]) for x in fronts) == 50 and int(backs[0]["count"]) == 50
    for x in rows:
        with Image.open(out / x["file"]) as im:
            # poker 2.5 x 3.5 in with 1/8 in bleed at 300 dpi
            assert im.size == (825, 1125) == (int(x["width_px"]), int(x["height_px"]))
    assert {x["back_file"] for x in fronts} == {backs[0]["file"]}
    # the card is drawn, not blank: the face's frame and the back's fill differ from white
    with Image.open(out / fronts[0]["file"]) as im:
        assert len(set(im.convert("L").resize((40, 55)).tobytes())) > 5
    # refused without --force, replaced with it
    assert cli("print", SENSHIAI, "--to", "images", out).code == 2
    assert cli("print", SENSHIAI, "--to", "images", out, "--force").code == 0


def test_image_faces_carry_the_deck_name_and_numbers_like_the_sheets(cli, tmp_path):
    """Each face image is numbered as its copies are on the PDF sheets ("4-6/50": the card is
    printed 3 times, as cards 4 to 6 of 50); the manifest says so, and the numbers cover the
    deck once, in order."""
    from PIL import ImageChops

    from builder.check import load_checked
    from builder.render.images import render_sides

    out = tmp_path / "shop"
    assert cli("print", SENSHIAI, "--to", "images", out).code == 0
    fronts = [x for x in _manifest(out) if x["side"] == "front"]
    first = 1
    for x in fronts:
        n = int(x["count"])
        want = f"{first}/50" if n == 1 else f"{first}-{first + n - 1}/50"
        assert x["numbers"] == want, x
        first += n
    assert first == 51
    # the name and number are drawn in small print along the bottom edge, and only there
    doc, catalog, lst, _ = load_checked(SENSHIAI)
    plain, _ = render_sides(doc, catalog, lst, dpi=100)
    numbered, _ = render_sides(doc, catalog, lst, dpi=100, numbers=True)
    box = ImageChops.difference(plain[0].image, numbered[0].image).getbbox()
    w, h = plain[0].image.size
    assert box is not None and box[1] > h * 0.9 and box[0] < w * 0.2 and box[2] > w * 0.8, (box, w, h)


@pytest.mark.parametrize("card,size", [("bridge", (750, 1125)), ("tarot", (900, 1500))])
def test_image_presets_of_other_card_sizes(cli, tmp_path, card, size):
    out = tmp_path / card
    # two cards: every face of a deck has the preset's size
    assert cli("print", example_deck(tmp_path, 2), "--to", "images", out, "--card", card).code == 0
    rows = _manifest(out)
    assert len(rows) == 3  # two faces and the back
    for row in rows:
        assert (int(row["width_px"]), int(row["height_px"])) == size
        with Image.open(out / row["file"]) as im:
            assert im.size == size


def test_tts_deck_sheets_and_saved_object(cli, tmp_path):
    from builder.check import load_checked
    from builder.render.images import TTS_DPI, render_sides

    out = tmp_path / "tts"
    r = cli("export", SATSUMA, "--to", "tts", out)
    assert r.code == 0, r.stderr
    [saved_file] = list(out.glob("*.json"))
    saved = json.loads(saved_file.read_text(encoding="utf-8"))
    [deck] = saved["ObjectStates"]
    assert deck["Name"] == "DeckCustom" and deck["Nickname"] == "Saigo's rebels"
    assert len(deck["DeckIDs"]) == 46 == len(deck["ContainedObjects"])
    assert len(deck["CustomDeck"]) == 2  # 46 faces: 39 on a sheet within 4,096 px, then 7
    doc, catalog, lst, _ = load_checked(SATSUMA)
    fronts, backs = render_sides(doc, catalog, lst, bleed=0.0, dpi=TTS_DPI)
    cw, ch = fronts[0].image.size
    assert (cw, ch) == (500, 700)  # poker at 200 dpi
    by_name = {f.name: f.image for f in fronts}
    for key, custom in deck["CustomDeck"].items():
        cols, rows = custom["NumWidth"], custom["NumHeight"]
        assert cols <= 10 and rows <= 7 and cols * cw <= 4096 and rows * ch <= 4096
        sheet_path = Path(url2pathname(urlparse(custom["FaceURL"]).path))
        back_path = Path(url2pathname(urlparse(custom["BackURL"]).path))
        assert custom["FaceURL"].startswith("file://") and sheet_path.is_file() and back_path.is_file()
        # every card's CardID points at the cell holding its face
        with Image.open(sheet_path) as sheet:
            assert sheet.size == (cols * cw, rows * ch)
            on_sheet = [o for o in deck["ContainedObjects"] if key in o["CustomDeck"]]
            assert on_sheet
            for obj in on_sheet:
                assert obj["Name"] == "Card" and obj["CustomDeck"][key] == custom
                cell = obj["CardID"] - int(key) * 100
                assert obj["CardID"] in deck["DeckIDs"] and 0 <= cell < cols * rows - 1
                crop = sheet.crop(
                    ((cell % cols) * cw, (cell // cols) * ch, (cell % cols + 1) * cw, (cell // cols + 1) * ch)
                )
                assert _similar(crop, by_name[obj["Nickname"]]), obj["Nickname"]
            # the last cell is the hidden card: the back
            last = cols * rows - 1
            hidden = sheet.crop(
                ((last % cols) * cw, (last // cols) * ch, (last % cols + 1) * cw, (last // cols + 1) * ch)
            )
            assert _similar(hidden, backs[0].image)


def _similar(a, b) -> bool:
    """Two card images alike (JPEG-compressed): mean absolute difference of small thumbnails."""
    sa = a.convert("L").resize((50, 70))
    sb = b.convert("L").resize((50, 70))
    diff = sum(abs(x - y) for x, y in zip(sa.tobytes(), sb.tobytes(), strict=False)) / (50 * 70)
    return diff < 6


def test_tts_refuses_a_setup_sheet_system(cli, tmp_path):
    # a Kensei roster's unit cards are exported (test_unit_card_images.py); Senji has no cards
    r = cli("export", EXAMPLES / "senji-three-daimyo.yaml", "--to", "tts", tmp_path / "t")
    assert r.code == 2 and r.stderr.count("\n") == 1
    r = cli("print", EXAMPLES / "senji-three-daimyo.yaml", "--to", "images", tmp_path / "i")
    assert r.code == 2 and r.stderr.count("\n") == 1


def test_organisers_book(cli, tmp_path):
    lists = sorted(EXAMPLES.glob("*.yaml"))
    out = tmp_path / "event.pdf"
    r = cli("print", *lists, "--book", "-o", out)
    assert r.code == 0, r.stderr
    with pdfplumber.open(out) as pdf:
        texts = [p.extract_text() or "" for p in text_pages(pdf)]
    contents = texts[0]
    starts = {}
    for i, t in enumerate(texts):
        for n, lst in enumerate(lists):
            if t.startswith(f"{n + 1}. "):
                starts[lst.name] = i + 1
    assert "File System List Total Verdict Page" in contents
    assert "kensei-buke.yaml kensei" in contents and "200/200 AP legal" in contents
    assert "satsuma-samurai.yaml" in contents and "legal (1 warning)" in contents
    assert len(starts) == len(lists)  # every list starts on a page of its own
    for lst in lists:
        page = starts[lst.name]
        doc = load_list(lst)
        from builder.check import check_doc

        fp = fingerprint(doc.data, check_doc(doc).packs)  # the packs' content counts too
        assert f"Fingerprint {fp}" in texts[page - 1]
        assert page_codes(out, page) == [share_code_of(doc)]
        # the contents give the page
        row = next(ln for ln in contents.splitlines() if lst.name[:20] in ln or lst.name[:12] in ln)
        assert row.rstrip().endswith(str(page)) or str(page) in row


def test_fingerprint_changes_with_the_content_not_the_layout(tmp_path):
    base = (EXAMPLES / "kensei-buke.yaml").read_text(encoding="utf-8")
    same = "# a comment\n" + base.replace("name: Buke", "name:   Buke")
    changed = base.replace("models: 5", "models: 6", 1)
    docs = []
    for i, text in enumerate((base, same, changed)):
        p = tmp_path / f"{i}.yaml"
        p.write_text(text, encoding="utf-8")
        docs.append(fingerprint(load_list(p).data))
    assert docs[0] == docs[1] != docs[2]


def test_fingerprint_covers_the_content_of_the_packs_a_list_uses(cli, tmp_path):
    pack = tmp_path / "club.yaml"
    pack.write_text(
        "system: senshiai\nname: Club\ncards:\n  - {name: Club Samurai, type: troop, speed: 1, "
        "power: 2/1/3, assumed: test}\n"
    )
    deck = tmp_path / "deck.yaml"
    deck.write_text("system: senshiai\npacks: [club.yaml]\ncards: {Club Samurai: 2}\n")

    def prints():
        r = cli("check", deck, "--format", "csv")
        out = tmp_path / "book.pdf"
        assert cli("print", deck, "--book", "-o", out, "--force").code == 0
        with pdfplumber.open(out) as pdf:
            text = "".join(p.extract_text() or "" for p in text_pages(pdf))
        return next(iter(csv.DictReader(io.StringIO(r.stdout))))["fingerprint"], text

    fp, book = prints()
    assert f"Fingerprint {fp}" in book
    pack.write_text(pack.read_text().replace("power: 2/1/3", "power: 3/1/3"))  # the list's text is the same
    fp2, book2 = prints()
    assert fp2 != fp and f"Fingerprint {fp2}" in book2
    pack.write_text("# a comment\n" + pack.read_text().replace("power: 3/1/3", "power: 2/1/3"))
    assert prints()[0] == fp  # the pack's data counts, not its layout


def test_check_csv_for_the_organisers_spreadsheet(cli, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text((EXAMPLES / "kensei-buke.yaml").read_text().replace("points: 200", "points: 150"))
    r = cli("check", EXAMPLES / "kensei-buke.yaml", SATSUMA, bad, "--format", "csv")
    assert r.code == 1
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert [x["file"] for x in rows] == ["kensei-buke.yaml", "satsuma-samurai.yaml", "bad.yaml"]
    assert rows[0]["legal"] == "yes" and rows[0]["total"] == "200/200 AP"
    assert rows[1]["verdict"] == "legal (1 warning)" and rows[1]["total"] == "46 cards"
    assert rows[2]["legal"] == "no" and rows[2]["verdict"].startswith("ILLEGAL")
    buke = load_list(EXAMPLES / "kensei-buke.yaml")
    assert rows[0]["fingerprint"] == fingerprint(buke.data, check_doc(buke).packs)
    assert rows[0]["share_code"] == share_code_of(load_list(EXAMPLES / "kensei-buke.yaml"))
