"""The print page in a real browser (the system's Chromium through Playwright): a custom paper
chosen in the form shows printing's warnings beside the previews, the settings are there again
after a reload, and the Tabletop Simulator deck and the alignment sheet download; the page has
no serious accessibility violation with every section open."""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path

import pypdf
import pytest
import test_web_a11y as a11y
from test_web_browser import TOKEN, WAIT, expect, page, server  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # a browser: none of its tests in the quick loop

SATSUMA = "/l/satsuma-samurai.yaml/print"


def settled(pg) -> None:
    """Every htmx request of the page has finished and the previews' images are drawn."""
    pg.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-settling, .htmx-swapping')")
    pg.wait_for_function(
        "() => [...document.querySelectorAll('.pages img')].every(i => i.complete && i.naturalWidth > 0)"
    )


@pytest.mark.slow  # a journey in the browser
def test_custom_paper_warnings_and_remembered_settings(page, server, shots):  # noqa: F811
    pg = page
    pg.goto(server["url"] + SATSUMA)
    expect(pg.locator("#page-count")).to_be_visible()
    settled(pg)
    expect(pg.get_by_label("Sheet width (mm)")).to_be_hidden()  # asked for only when chosen
    pg.locator("#print-form select[name=paper]").select_option("custom")
    expect(pg.get_by_label("Sheet width (mm)")).to_have_value("210")  # A4 to start from: no error
    pg.get_by_label("Sheet width (mm)").fill("105")
    pg.get_by_label("Sheet height (mm)").fill("148")
    pg.get_by_label("Sheet height (mm)").press("Tab")
    pg.locator("#print-form select[name=card]").select_option("mini")
    # the small sheet leaves no room for the labels: the page says so, not only the server's terminal
    expect(pg.locator("#print-warnings")).to_contain_text("the page margins leave no room for the sheet labels")
    pg.locator(".fine-tune summary", has_text="Spacing").click()
    pg.get_by_label("Backs offset across (mm)").fill("0.8")
    pg.get_by_label("Backs offset across (mm)").press("Tab")
    expect(pg.locator("#print-saved")).to_contain_text("remembered")
    settled(pg)
    expect(pg.locator("#print-saved")).to_contain_text("remembered")
    expect(pg.locator("#flash")).to_be_empty()  # no step of the way was refused
    shots(pg, "print-custom-paper.png", full_page=True)
    with pg.expect_download() as dl:
        pg.locator("#download-pdf").click()
    pdf = pypdf.PdfReader(io.BytesIO(Path(dl.value.path()).read_bytes()))
    box = pdf.pages[0].mediabox
    assert (round(float(box.width) * 25.4 / 72), round(float(box.height) * 25.4 / 72)) == (105, 148)
    expect(pg.locator("#page-count")).to_contain_text(f"{len(pdf.pages)} pages")

    pg.reload()
    expect(pg.locator("#print-form select[name=paper]")).to_have_value("custom")
    expect(pg.get_by_label("Sheet width (mm)")).to_have_value("105")
    expect(pg.locator("#print-form select[name=card]")).to_have_value("mini")
    expect(pg.get_by_label("Backs offset across (mm)")).to_have_value("0.8")
    expect(pg.locator("#print-saved")).to_contain_text("Your last settings for this list")
    expect(pg.locator("#print-warnings")).to_be_visible()  # the previews of the remembered settings


@pytest.mark.slow  # a journey in the browser
def test_tabletop_simulator_deck_and_alignment_sheet_download(page, server, shots):  # noqa: F811
    pg = page
    pg.goto(server["url"] + "/l/satsuma-imperial.yaml/print")
    expect(pg.locator("#page-count")).to_be_visible()
    settled(pg)
    pg.locator("#more-outputs summary").click()
    pg.get_by_label("Where the deck's images will be").fill("/home/player/decks/imperial")
    pg.get_by_label("Where the deck's images will be").press("Tab")
    settled(pg)
    shots(pg, "print-outputs.png", full_page=True)
    with pg.expect_download(timeout=4 * WAIT) as dl:
        pg.locator("#download-tts").click()
    assert dl.value.suggested_filename == "satsuma-imperial-tts.zip"
    z = zipfile.ZipFile(dl.value.path())
    saved = z.read(next(n for n in z.namelist() if n.endswith(".json"))).decode()
    assert "file:///home/player/decks/imperial/" in saved and json.loads(saved)
    with pg.expect_download() as dl:
        pg.locator("#download-test").click()
    sheet = pypdf.PdfReader(dl.value.path())
    assert dl.value.suggested_filename == "alignment-sheet.pdf" and len(sheet.pages) == 2


@pytest.mark.slow  # a journey in the browser
def test_a_refused_image_or_deck_download_keeps_the_print_page_with_its_message(page, server, shots):  # noqa: F811
    pg = page
    here = re.compile(r"/l/satsuma-imperial\.yaml/print$")
    pg.goto(server["url"] + "/l/satsuma-imperial.yaml/print")
    expect(pg.locator("#page-count")).to_be_visible()
    settled(pg)
    if not pg.locator("#more-outputs[open]").count():  # open already when an address is remembered
        pg.locator("#more-outputs summary").click()
    where = pg.get_by_label("Where the deck's images will be")
    where.fill("")
    pg.locator("#download-tts").click()
    # the server's words at the top of the print page, the form as it was (not an error page)
    expect(pg.locator("#flash")).to_contain_text("Tabletop Simulator loads a deck's images from an address")
    expect(pg).to_have_url(here)
    expect(pg.locator("#download-tts")).to_be_enabled()
    where.fill("decks/imperial")
    pg.locator("#download-tts").click()
    expect(pg.locator("#flash")).to_contain_text("neither a web address nor a full folder path")
    expect(where).to_have_value("decks/imperial")
    shots(pg, "print-refused-download.png", full_page=True)
    where.fill("/home/player/decks/imperial")
    with pg.expect_download(timeout=4 * WAIT) as dl:
        pg.locator("#download-tts").click()
    assert dl.value.suggested_filename == "satsuma-imperial-tts.zip"
    expect(pg.locator("#flash")).to_be_empty()  # the old message goes once a download is given

    # card images of a custom card whose width was left out
    pg.locator("#print-form select[name=card]").select_option("custom")
    pg.get_by_label("Card width (mm)").fill("")
    pg.get_by_label("Card width (mm)").press("Tab")
    settled(pg)
    if pg.locator("#flash button[data-close]").count():  # the previews may have said it already
        pg.locator("#flash button[data-close]").click()
    expect(pg.locator("#flash")).to_be_empty()
    pg.locator("#download-images").click()
    expect(pg.locator("#flash")).to_contain_text("needs its width and height")
    expect(pg).to_have_url(here)


def test_print_page_with_every_section_open_has_no_serious_accessibility_violation(browser, server):  # noqa: F811
    ctx = browser.new_context(viewport={"width": 1366, "height": 900}, bypass_csp=True)
    pg = ctx.new_page()
    pg.set_default_timeout(WAIT)
    pg.goto(f"{server['url']}/?token={TOKEN}")
    for path in (SATSUMA, "/l/kensei-buke.yaml/print", "/l/senji-three-daimyo.yaml/print"):
        pg.goto(server["url"] + path)
        expect(pg.locator("#page-count")).to_be_visible()
        for summary in pg.locator("details > summary").all():
            summary.click()
        settled(pg)
        found = a11y.violations(pg)
        assert not found, f"{path}: {found}"
    ctx.close()
