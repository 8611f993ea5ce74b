"""The web builder's print page against the command line's print: each option of 'daimyo print'
(custom paper and card sizes, duplex offset, crop marks off, rulebook sections off, statistics
pages, card images, a Tabletop Simulator deck, the alignment sheet) gives what the command
line gives; the page remembers its settings in the workspace; printing's warnings are shown."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import zipfile
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pypdf = pytest.importorskip("pypdf")

from fastapi.testclient import TestClient

from builder.render.api import render_list
from builder.web.app import create_app

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "print-test-token-0123456789"
BASE = "http://127.0.0.1:8765"
MM = 72 / 25.4
CARDS = "/l/senshiai-northern-host.yaml"
SATSUMA = "/l/satsuma-samurai.yaml"
ROSTER = "/l/kensei-buke.yaml"


@pytest.fixture()
def ws(tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(ROOT / "examples", root)
    return root


@pytest.fixture()
def client(ws):
    app = create_app(ws, token=TOKEN, port=8765)
    with TestClient(app, base_url=BASE) as c:  # one event loop for all its requests
        assert c.get(f"/?token={TOKEN}", follow_redirects=False).status_code == 303
        c.headers.update({"X-CSRF-Token": app.csrf})
        yield c


def pdf_of(client, url: str):
    r = client.get(url)
    assert r.status_code == 200, r.text[:400]
    assert r.headers["content-type"] == "application/pdf"
    return r.content


def cli_pdf(ws, tmp_path, name: str, **opts) -> bytes:
    out = tmp_path / f"cli-{len(list(tmp_path.glob('cli-*')))}.pdf"
    render_list(ws / name, out, **opts)
    return out.read_bytes()


def said(r) -> str:
    """What a page says, as read (its HTML entities decoded)."""
    import html

    return html.unescape(r.text)


def texts(data: bytes) -> list[str]:
    return [p.extract_text() for p in pypdf.PdfReader(io.BytesIO(data)).pages]


def size_mm(data: bytes) -> tuple[int, int]:
    box = pypdf.PdfReader(io.BytesIO(data)).pages[0].mediabox
    return round(float(box.width) / MM), round(float(box.height) / MM)


# -- each option gives the command line's PDF ------------------------------------------------------


def test_duplex_offset_moves_the_backs_as_the_command_line_does(client, ws, tmp_path):
    card = dict(
        paper="a4", card="poker", bleed=0.0, backs=True, duplex="long", marks=True, ink_saver=False, cut_lines=False
    )
    web = pdf_of(client, f"{CARDS}/print.pdf?sent=1&duplex=long&marks=on&offset_x=1.5&offset_y=-0.5")
    assert web == cli_pdf(ws, tmp_path, "senshiai-northern-host.yaml", offset=(1.5, -0.5), **card)
    assert web != cli_pdf(ws, tmp_path, "senshiai-northern-host.yaml", **card)  # the offset did something
    # 20 mm is the largest offset the command line takes; just past it is one clear refusal
    assert client.get(f"{CARDS}/print.pdf?duplex=long&offset_x=20&offset_y=-20").status_code == 200
    r = client.get(f"{CARDS}/print.pdf?duplex=long&offset_x=20.1", headers={"HX-Request": "true"})
    assert r.status_code == 400 and "backs offset across must be between -20 and 20 mm, not 20.1" in said(r)
    assert client.get(f"{CARDS}/print.pdf?offset_y=-20.5").status_code == 400
    assert client.get(f"{CARDS}/print.pdf?offset_y=nan").status_code == 400


def test_custom_paper_and_card_sizes(client, ws, tmp_path):
    web = pdf_of(
        client, f"{CARDS}/print.pdf?paper=custom&paper_w=150&paper_h=200&card=custom&card_w=50&card_h=70&duplex="
    )
    assert size_mm(web) == (150, 200)
    assert web == cli_pdf(
        ws,
        tmp_path,
        "senshiai-northern-host.yaml",
        paper="150x200",
        card="50x70",
        bleed=0.0,
        backs=False,
        marks=True,
        ink_saver=False,
        cut_lines=False,
    )
    # the command line's bounds: paper sides from 50 mm, cards from 10 mm
    assert size_mm(pdf_of(client, f"{ROSTER}/print.pdf?paper=custom&paper_w=2000&paper_h=2000")) == (2000, 2000)
    r = client.get(f"{ROSTER}/print.pdf?paper=custom&paper_w=49.9&paper_h=200")
    assert r.status_code == 400 and "paper '49.9x200' width must be between 50 and 2000 mm, not 49.9" in said(r)
    assert client.get(f"{ROSTER}/print.pdf?paper=custom&paper_w=2000.1&paper_h=200").status_code == 400
    assert client.get(f"{CARDS}/print.pdf?card=custom&card_w=10&card_h=10").status_code == 200
    r = client.get(f"{CARDS}/print.pdf?card=custom&card_w=9.9&card_h=20")
    assert r.status_code == 400 and "card '9.9x20' width must be between 10 and 1990 mm, not 9.9" in said(r)
    r = client.get(f"{CARDS}/print.pdf?paper=custom&paper_w=150")
    assert r.status_code == 400 and "needs its width and height" in said(r)


def test_a_form_left_unticked_turns_crop_marks_and_sources_off(client, ws, tmp_path):
    card = dict(paper="a4", card="poker", bleed=0.0, backs=False, ink_saver=False, cut_lines=False)
    no_marks = pdf_of(client, f"{CARDS}/print.pdf?sent=1&duplex=")  # the form sends no 'marks': unticked
    assert no_marks == cli_pdf(ws, tmp_path, "senshiai-northern-host.yaml", marks=False, **card)
    assert pdf_of(client, f"{CARDS}/print.pdf?duplex=") == cli_pdf(
        ws, tmp_path, "senshiai-northern-host.yaml", marks=True, **card
    )
    with_sources = pdf_of(client, f"{ROSTER}/print.pdf?sent=1&sources=on")
    without = pdf_of(client, f"{ROSTER}/print.pdf?sent=1")
    assert without == cli_pdf(ws, tmp_path, "kensei-buke.yaml", sources=False)
    assert with_sources == cli_pdf(ws, tmp_path, "kensei-buke.yaml")
    with_sources, without = texts(with_sources), texts(without)
    assert "Source: Kensei rulebook" in " ".join(with_sources) and "Source:" not in " ".join(without)


def test_statistics_pages_end_the_pdf(client, ws, tmp_path):
    from builder.render.api import print_lists

    plain = texts(pdf_of(client, f"{ROSTER}/print.pdf"))
    stats = pdf_of(client, f"{ROSTER}/print.pdf?stats=on")
    print_lists([str(ws / "kensei-buke.yaml")], str(tmp_path / "stats.pdf"), stats=True)
    assert stats == (tmp_path / "stats.pdf").read_bytes()  # 'daimyo print --stats'
    stats = texts(stats)
    assert len(stats) == len(plain) + 1 and "AP" in stats[-1] and "page" not in stats[-1].splitlines()[-1]


def test_alignment_sheet(client, tmp_path):
    from builder.render.api import render_test_sheet

    web = pdf_of(client, "/print-test.pdf?paper=letter&duplex=short")
    render_test_sheet(tmp_path / "t.pdf", paper="letter", duplex="short")
    assert web == (tmp_path / "t.pdf").read_bytes() and size_mm(web) == (216, 279)
    assert client.get("/print-test.pdf?duplex=sideways").status_code == 400


# -- card images and Tabletop Simulator -------------------------------------------------------------


def test_card_images_as_a_zip_with_the_manifest(client):
    r = client.get(f"{SATSUMA}/print/images.zip?card=poker&bleed=0&dpi=100&service=")
    assert r.status_code == 200 and r.headers["content-type"] == "application/zip"
    assert 'filename="satsuma-samurai-images.zip"' in r.headers["content-disposition"]
    z = zipfile.ZipFile(io.BytesIO(r.content))
    rows = list(csv.DictReader(io.StringIO(z.read("satsuma-samurai-images/manifest.csv").decode())))
    first = rows[0]
    # no bleed chosen: the print shop's 3.175 mm on every side, as 'daimyo print --to images' gives
    shop = 2 * 3.175
    assert (first["width_px"], first["height_px"]) == (
        str(round((63.5 + shop) / 25.4 * 100)),
        str(round((88.9 + shop) / 25.4 * 100)),
    )
    wide = zipfile.ZipFile(io.BytesIO(client.get(f"{SATSUMA}/print/images.zip?card=bridge&bleed=1.5&dpi=100").content))
    row = next(csv.DictReader(io.StringIO(wide.read("satsuma-samurai-images/manifest.csv").decode())))
    assert row["width_px"] == str(round((57.15 + 3) / 25.4 * 100))
    assert sum(1 for n in z.namelist() if n.endswith(".png")) == len(rows)
    order = zipfile.ZipFile(io.BytesIO(client.get(f"{SATSUMA}/print/images.zip?dpi=72&service=tgc").content))
    assert "satsuma-samurai-images/order.csv" in order.namelist()


def test_card_image_bounds_are_refused_before_drawing(client):
    from builder.web.printing import image_options

    assert image_options({"dpi": "72"})["dpi"] == 72 and image_options({"dpi": "600"})["dpi"] == 600
    for bad, says in (("71", "between 72 and 600"), ("601", "between 72 and 600"), ("x", "must be a number")):
        r = client.get(f"{SATSUMA}/print/images.zip?dpi={bad}")
        assert r.status_code == 400 and says in said(r), bad
    assert client.get(f"{SATSUMA}/print/images.zip?service=kinkos").status_code == 400
    r = client.get(f"{ROSTER}/print/images.zip")
    assert r.status_code == 400 and "only card games" in said(r)


def test_tabletop_simulator_deck_names_its_images_where_they_will_be(client):
    def addresses(url):
        r = client.get(url)
        assert r.status_code == 200, r.text[:300]
        z = zipfile.ZipFile(io.BytesIO(r.content))
        saved = json.loads(z.read(next(n for n in z.namelist() if n.endswith(".json"))))
        found = set()

        def walk(v):
            if isinstance(v, dict):
                found.update(x for k, x in v.items() if k in ("FaceURL", "BackURL"))
                for x in v.values():
                    walk(x)
            elif isinstance(v, list):
                for x in v:
                    walk(x)

        walk(saved)
        return found, z.namelist()

    local, names = addresses(f"{SATSUMA}/print/tts.zip?tts_base=/home/me/decks/rebels")
    assert local and all(a.startswith("file:///home/me/decks/rebels/") for a in local)
    assert {a.rsplit("/", 1)[1] for a in local} <= {n.rsplit("/", 1)[1] for n in names}
    win, _ = addresses(f"{SATSUMA}/print/tts.zip?tts_base=C:%5CDecks%5Crebels")
    assert all(a.startswith("file:///C:/Decks/rebels/") for a in win)
    web, _ = addresses(f"{SATSUMA}/print/tts.zip?tts_base=https://example.org/rebels")
    assert all(a.startswith("https://example.org/rebels/") for a in web)
    r = client.get(f"{SATSUMA}/print/tts.zip")
    assert r.status_code == 400 and "loads a deck's images from an address" in said(r)
    r = client.get(f"{SATSUMA}/print/tts.zip?tts_base=decks/rebels")
    assert r.status_code == 400 and "neither a web address nor a full folder path" in said(r)


def test_a_refused_download_asked_from_the_page_answers_the_message_for_the_page(client):
    """The print page asks for card images and the Tabletop Simulator deck itself (app.js), as
    htmx asks: a refused value answers the message the page shows at its top, not an error page."""
    page = client.get(f"{SATSUMA}/print").text
    for button in ("download-images", "download-tts"):
        assert re.search(rf'id="{button}" data-download formaction="/l/satsuma-samurai.yaml/print/', page), button
    for url, says in (
        (f"{SATSUMA}/print/tts.zip?tts_base=", "loads a deck's images from an address"),
        (f"{SATSUMA}/print/tts.zip?tts_base=decks/rebels", "neither a web address nor a full folder path"),
        (f"{SATSUMA}/print/images.zip?card=custom&card_w=&card_h=88", "needs its width and height"),
        (f"{SATSUMA}/print/images.zip?dpi=601", "between 72 and 600"),
    ):
        r = client.get(url, headers={"HX-Request": "true"})
        assert r.status_code == 400 and r.headers.get("X-Daimyo-Flash") == "1", url
        assert 'role="alert"' in r.text and says in said(r) and "<html" not in r.text.lower(), url
    # just inside the bounds, the same request gives the zip
    r = client.get(f"{SATSUMA}/print/images.zip?card=custom&card_w=10&card_h=10&dpi=72", headers={"HX-Request": "true"})
    assert r.status_code == 200 and r.headers["content-type"] == "application/zip"


# -- warnings on the page ----------------------------------------------------------------------------


def test_printing_warnings_and_an_illegal_list_are_shown_beside_the_previews(client, ws):
    small = client.get(f"{SATSUMA}/print/previews?paper=custom&paper_w=105&paper_h=148&card=mini").text
    assert 'id="print-warnings"' in small
    assert "the page margins leave no room for the sheet labels" in small
    clean = client.get(f"{SATSUMA}/print/previews").text
    assert 'id="print-warnings"' not in clean and "NOT LEGAL" not in clean
    text = (ws / "kensei-buke.yaml").read_text()
    (ws / "too-big.yaml").write_text(text.replace("points: 200", "points: 50", 1))
    page = client.get("/l/too-big.yaml/print/previews").text
    assert "The list is not legal" in page and "NOT LEGAL" in page


# -- remembered settings -----------------------------------------------------------------------------


def test_settings_are_remembered_per_list_per_game_and_for_the_printer(client, ws):
    form = {
        "sent": "1",
        "paper": "letter",
        "card": "bridge",
        "bleed": "3",
        "duplex": "short",
        "layout": "duplex",
        "scale_x": "1.01",
        "offset_x": "0.7",
        "cut_lines": "on",
    }
    r = client.post(f"{SATSUMA}/print/settings", data=form)
    assert r.status_code == 200 and "remembered" in said(r)
    page = client.get(f"{SATSUMA}/print").text
    for want in (
        '<option value="letter" selected>',
        '<option value="bridge" selected>',
        '<option value="3" selected>',
        '<option value="short" selected>',
        'name="scale_x"',
        'value="1.01"',
        'value="0.7"',
        'name="cut_lines" value="on" checked',
        "Your last settings for this list.",
    ):
        assert want in page, want
    assert 'name="marks" value="on" checked' not in page  # left unticked: stays unticked
    # another Satsuma list starts with these; a Senshiai list gets only the printer's correction
    other = client.get("/l/satsuma-imperial.yaml/print").text
    assert '<option value="bridge" selected>' in other and "Your last settings" not in other
    senshiai = client.get(f"{CARDS}/print").text
    assert 'value="1.01"' in senshiai and 'value="0.7"' in senshiai
    assert '<option value="bridge" selected>' not in senshiai
    # a roster's form has no printer fields: saving it keeps the printer's correction
    assert client.post(f"{ROSTER}/print/settings", data={"sent": "1", "paper": "a4"}).status_code == 200
    assert 'value="1.01"' in client.get(f"{CARDS}/print").text
    saved = json.loads((ws / ".daimyo" / "print-settings.json").read_text())
    assert saved["printer"]["scale_x"] == "1.01" and saved["lists"]["satsuma-samurai.yaml"]["card"] == "bridge"
    # the settings file is not served
    assert client.get("/l/.daimyo/print-settings.json").status_code == 403


def test_a_bad_setting_is_refused_and_nothing_is_written(client, ws):
    client.post(f"{SATSUMA}/print/settings", data={"sent": "1", "paper": "letter"})
    before = (ws / ".daimyo" / "print-settings.json").read_bytes()
    r = client.post(f"{SATSUMA}/print/settings", data={"sent": "1", "paper": "a3"}, headers={"HX-Request": "true"})
    assert r.status_code == 400 and "unknown paper 'a3'" in said(r)
    r = client.post(f"{SATSUMA}/print/settings", data={"sent": "1", "scale_x": "1.3"})
    assert r.status_code == 400 and "scale across the page must be between 0.9 and 1.1, not 1.3" in said(r)
    assert (ws / ".daimyo" / "print-settings.json").read_bytes() == before


def test_unreadable_settings_are_forgotten_not_a_failure(client, ws):
    (ws / ".daimyo").mkdir()
    (ws / ".daimyo" / "print-settings.json").write_text("{not json")
    page = client.get(f"{SATSUMA}/print")
    assert page.status_code == 200 and '<option value="a4" selected>' in page.text
    assert client.post(f"{SATSUMA}/print/settings", data={"sent": "1", "paper": "letter"}).status_code == 200
    assert (
        json.loads((ws / ".daimyo" / "print-settings.json").read_text())["lists"]["satsuma-samurai.yaml"]["paper"]
        == "letter"
    )


# -- printer profiles saved with 'daimyo printer save' ------------------------------------------------


def test_saved_printer_profiles_are_offered_and_used(client, ws, tmp_path, monkeypatch):
    from builder.render.printers import save_profile

    monkeypatch.setenv("DAIMYO_PRINTERS", str(tmp_path / "printers.json"))
    assert 'id="printer-profile"' not in client.get(f"{CARDS}/print").text  # none saved: no choice shown
    save_profile("office-laser", offset="1,0", scale_x=1.02)
    page = client.get(f"{CARDS}/print").text
    assert 'id="printer-profile"' in page and ">office-laser<" in page
    web = pdf_of(client, f"{CARDS}/print.pdf?duplex=long&printer=office-laser")
    assert web == cli_pdf(
        ws,
        tmp_path,
        "senshiai-northern-host.yaml",
        paper="a4",
        card="poker",
        bleed=0.0,
        backs=True,
        duplex="long",
        marks=True,
        ink_saver=False,
        cut_lines=False,
        scale_x=1.02,
        offset=(1.0, 0.0),
    )
    # an unknown profile is the user's mistake: one line, never a server error
    bad = client.get(f"{CARDS}/print.pdf?duplex=long&printer=nobody")
    assert bad.status_code == 400 and "nobody" in bad.text
