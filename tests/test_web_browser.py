"""The web builder in a real browser (Chromium driven by Playwright): lists built by clicks and
typing only, the counter and verdict following each change, an illegal list fixed from its
inline findings, the PDF downloaded and read back, a share code imported, and (with
``$DAIMYO_SCREENSHOTS`` set) a screenshot of every page.

Chromium is the system's (Debian's ``chromium`` package; ``.ci/run`` installs it); without it
these tests are skipped. Screenshots are taken only when ``$DAIMYO_SCREENSHOTS`` names the
folder for them: no test reads them back.
"""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pytest
from browserkit import CHROMIUM

if not Path(CHROMIUM).exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
pytest.importorskip("uvicorn")

from browserkit import add_from_catalog, catalog_row, changed, idle, search_catalog, serve, version
from playwright.sync_api import expect

from builder.check import check_file

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # a browser: none of its tests in the quick loop

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "browser-test-token-0123456789"
WAIT = 15_000  # ms: the machine may be busy
expect.set_options(timeout=WAIT)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from builder.web.app import create_app

    ws = tmp_path_factory.mktemp("browser") / "ws"
    shutil.copytree(ROOT / "examples", ws)
    (ws / "fix-me.yaml").write_text(
        "# a list to fix in the browser\nsystem: kensei\nname: Fix me\nclan: buke\npoints: 200\n"
        "commander: hatamoto\ntroops:\n  - troop: Taisho Buke\n  - troop: Samurai Yari\n    models: 5\n"
        "  - troop: Yari Ashigaru\n    models: 9\n  - troop: Samurai Dai-Katana\n    models: 5\n"
        "  - troop: Yumi Samurai            # the archers\n    models: 8\n"
    )
    hero = (ws / "herocard-samurai.yaml").read_text()
    assert "  Overhand Thrust: 3\n" in hero
    (ws / "fix-my-hero.yaml").write_text(
        hero.replace("name: Samurai of the Rising Sun", "name: Fix my hero").replace(
            "  Overhand Thrust: 3\n", "  Overhand Thrust: 7  # one too many\n"
        )
    )
    with serve(lambda port: create_app(ws, token=TOKEN, port=port)) as url:
        yield {"url": url, "ws": ws}


@pytest.fixture()
def page(browser, server):
    ctx = browser.new_context(viewport={"width": 1366, "height": 900}, accept_downloads=True)
    pg = ctx.new_page()
    pg.set_default_timeout(WAIT)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("dialog", lambda d: d.accept())
    pg.goto(f"{server['url']}/?token={TOKEN}")
    yield pg
    ctx.close()
    assert not errors, errors  # no script error on any page


def total(pg) -> str:
    return pg.locator("#total").inner_text()


def verdict(pg):
    return pg.locator("#verdict")


def entry(pg, name: str, nth: int = -1):
    rows = pg.locator("ol.entries > li.entry", has=pg.locator(".entry-name", has_text=re.compile(f"^{name}$")))
    return rows.nth(nth) if nth >= 0 else rows.last


def type_count(pg, row, n: int):
    idle(pg)
    before = version(pg)
    box = row.locator("input.n")
    box.fill(str(n))
    box.press("Tab")
    changed(pg, before)


def test_gate_page_without_the_token(browser, server, shots):
    ctx = browser.new_context(viewport={"width": 1000, "height": 700})
    pg = ctx.new_page()
    resp = pg.goto(server["url"] + "/")
    assert resp.status == 401
    expect(pg.locator("h1")).to_contain_text("needs its token")
    shots(pg, "gate.png")
    ctx.close()


@pytest.mark.slow  # a journey in the browser
def test_build_a_legal_400_ap_kensei_list(page, server, shots):
    pg = page
    expect(pg.locator("h1")).to_have_text("Your lists")
    shots(pg, "workspace.png", full_page=True)
    pg.select_option("#new-system", "kensei")
    form = pg.locator("#new-form")
    form.get_by_label("Name", exact=True).fill("Otokodate 400")
    form.get_by_label("Clan").select_option("otokodate")
    form.get_by_label("Battle size (AP)").fill("400")
    form.get_by_label("Commander").select_option("daimyo")
    form.get_by_role("button", name="Create list").click()
    pg.wait_for_url(re.compile(r"/l/Otokodate-400\.yaml$"))
    expect(pg.locator(".list-name")).to_have_text("Otokodate 400")
    assert total(pg) == "20"  # the daimyo commander level's 20 AP
    expect(verdict(pg)).to_contain_text("illegal")
    expect(pg.locator("#left")).to_have_text("380 AP left")

    add_from_catalog(pg, "taisho oto", "Taisho Otokodate")
    expect(pg.locator("#total")).to_have_text("40")
    add_from_catalog(pg, "ASSASSIN", "Assassin")
    expect(pg.locator("#total")).to_have_text("50")
    add_from_catalog(pg, "yari ash", "Yari Ashigaru")
    expect(pg.locator("#total")).to_have_text("65")  # 3 models at 5 AP
    type_count(pg, entry(pg, "Yari Ashigaru"), 15)
    expect(pg.locator("#total")).to_have_text("125")
    add_from_catalog(pg, "katana", "Otokodate Ashigaru Katana")
    type_count(pg, entry(pg, "Otokodate Ashigaru Katana"), 15)
    expect(pg.locator("#total")).to_have_text("200")
    add_from_catalog(pg, "ozutzu", "Ozutzu Cannon")
    click_and_wait(pg, entry(pg, "Ozutzu Cannon").get_by_role("button", name="One model more in Ozutzu Cannon"))
    expect(pg.locator("#total")).to_have_text("240")
    click_and_wait(pg, entry(pg, "Ozutzu Cannon").get_by_role("button", name="One model more in Ozutzu Cannon"))
    expect(pg.locator("#total")).to_have_text("250")
    expect(verdict(pg)).to_contain_text("illegal")  # 4 units, but 400 AP needs more
    add_from_catalog(pg, "yari ash", "Yari Ashigaru")
    type_count(pg, entry(pg, "Yari Ashigaru"), 12)
    expect(pg.locator("#total")).to_have_text("310")
    expect(verdict(pg)).to_contain_text("legal")
    expect(verdict(pg)).not_to_contain_text("illegal")
    expect(pg.locator("#left")).to_have_text("90 AP left")
    expect(pg.locator(".status")).to_have_class(re.compile("v-legal"))
    search_catalog(pg, "")
    expect(pg.locator("ul.catalog li.opt").nth(5)).to_be_visible()
    expect(pg.locator("ul.catalog .why.ok").first).to_be_visible()
    pg.locator("h2#list-h").click()
    shots(pg, "builder.png")

    # the file on disk is the list: the command line checks it the same way
    res = check_file(server["ws"] / "Otokodate-400.yaml")
    assert res.legal and res.summary["points"] == 310 and res.summary["limit"] == 400
    # undo with the keyboard, redo with the button
    pg.keyboard.press("Control+z")  # back to the last unit's 3 models
    expect(pg.locator("#total")).to_have_text("265")
    pg.locator("#redo").click()
    expect(pg.locator("#total")).to_have_text("310")
    # an entry in full, with its rulebook source
    pg.get_by_role("button", name="Assassin", exact=True).first.click()
    expect(pg.locator("#detail")).to_be_visible()
    expect(pg.locator("#detail .source")).to_contain_text("Kensei rulebook")
    shots(pg, "entry.png")
    pg.keyboard.press("Escape")
    expect(pg.locator("#detail")).to_be_hidden()
    # on a phone
    pg.set_viewport_size({"width": 390, "height": 844})
    shots(pg, "builder-phone.png")


@pytest.mark.slow  # a journey in the browser
def test_fix_an_illegal_list_from_its_inline_findings(page, server, shots):
    pg = page
    pg.get_by_role("link", name="Fix me").click()
    expect(pg.locator("#total")).to_have_text("260")
    expect(verdict(pg)).to_contain_text("illegal: 2 errors")
    archers = entry(pg, "Yumi Samurai")
    ranged = archers.locator(".finding", has_text="ranged troops 120 AP > 50% of 200 AP")
    expect(ranged).to_contain_text("over by 20")
    ranged.locator("details.explain summary").click()
    expect(ranged.locator("details.explain dl")).to_contain_text("Yumi Samurai (8 models, 120 AP)")
    shots(pg, "findings.png")
    for left in (7, 6, 5, 4):
        entry(pg, "Yumi Samurai").get_by_role("button", name="One model fewer in Yumi Samurai").click()
        expect(entry(pg, "Yumi Samurai").locator("input.n")).to_have_value(str(left))
    expect(pg.locator("#total")).to_have_text("200")
    expect(verdict(pg)).to_have_text(re.compile("legal"))
    expect(pg.locator(".finding.f-error")).to_have_count(0)
    text = (server["ws"] / "fix-me.yaml").read_text()
    assert "# the archers" in text and "models: 4" in text  # comments kept
    assert check_file(server["ws"] / "fix-me.yaml").legal


@pytest.mark.slow  # a journey in the browser
def test_fix_a_hero_deck_with_too_many_copies(page, server):
    pg = page
    pg.get_by_role("link", name="Fix my hero").click()
    expect(pg.locator("#total")).to_have_text("30")
    expect(pg.locator("#more")).to_have_text("30 action cards")
    expect(verdict(pg)).to_contain_text("illegal: 1 error")
    thrust = entry(pg, "Overhand Thrust")
    expect(thrust.locator(".finding.f-error")).to_contain_text("7 copies of 'Overhand Thrust' > 6")
    expect(thrust.locator(".finding.f-error")).to_contain_text("over by 1")
    expect(thrust.locator(".entry-cost")).to_have_text("cost 3")
    expect(entry(pg, "Warrior's Strength").locator(".entry-cost")).to_have_text("11 hero points")
    click_and_wait(pg, thrust.get_by_role("button", name="One Overhand Thrust fewer"))
    expect(pg.locator("#more")).to_have_text("29 action cards")
    expect(verdict(pg)).not_to_contain_text("illegal")
    expect(pg.locator(".finding.f-error")).to_have_count(0)
    text = (server["ws"] / "fix-my-hero.yaml").read_text()
    assert "Overhand Thrust: 6  # one too many" in text  # the comment stays with its line
    assert check_file(server["ws"] / "fix-my-hero.yaml").legal


@pytest.mark.slow  # a journey in the browser
def test_build_a_satsuma_variant_deck(page, server):
    pg = page
    pg.select_option("#new-system", "satsuma")
    form = pg.locator("#new-form")
    form.get_by_label("Name", exact=True).fill("Variant rebels")
    form.get_by_label("Side").select_option("samurai")
    form.get_by_role("button", name="Create list").click()
    pg.wait_for_url(re.compile(r"/l/Variant-rebels\.yaml$"))
    expect(pg.locator("#total")).to_have_text("46")
    expect(pg.locator(".hint")).to_contain_text("published deck")
    first = pg.locator("ol.entries > li.entry").first
    name = first.locator(".entry-name").inner_text()
    click_and_wait(pg, first.get_by_role("button", name=f"One {name} fewer"))
    expect(pg.locator("#total")).to_have_text("45")
    expect(pg.locator(".hint")).to_have_count(0)  # a variant deck now
    search_catalog(pg, "")
    row = pg.locator("ul.catalog li.opt").first
    added = row.locator(".opt-name").inner_text()
    click_and_wait(pg, row.locator(".btn-add"))
    expect(pg.locator("#total")).to_have_text("46")
    row = entry(pg, re.escape(added))
    have = int(row.locator("input.n").input_value())
    type_count(pg, row, have + 1)  # typing the number of copies
    expect(pg.locator("#total")).to_have_text("47")
    text = (server["ws"] / "Variant-rebels.yaml").read_text()
    assert "cards:" in text and "deck: standard" not in text
    res = check_file(server["ws"] / "Variant-rebels.yaml")
    assert res.summary["deck"] == "variant"
    expect(pg.locator("#total")).to_have_text(str(res.summary["cards"]))


def click_and_wait(pg, target):
    """Click a button that changes the list and wait for the new version of the list."""
    idle(pg)
    before = version(pg)
    target.click()
    changed(pg, before)


@pytest.mark.slow  # a journey in the browser
def test_build_a_senshiai_deck_by_clicks(page, server, shots):
    pg = page
    form = pg.locator("#new-form")
    pg.select_option("#new-system", "senshiai")
    # the form follows the game: its example name, its packs in this folder, its own fields
    expect(form.get_by_label("Name", exact=True)).to_have_attribute("placeholder", "e.g. Northern host")
    expect(form.get_by_label(re.compile("Senshiai example cards"))).to_be_checked()
    expect(form.get_by_label("Clan")).to_be_hidden()
    form.get_by_label("Name", exact=True).fill("Twelve cards")
    form.get_by_label("Agreed deck size (optional)").fill("12")
    form.get_by_role("button", name="Create list").click()
    pg.wait_for_url(re.compile(r"/l/Twelve-cards\.yaml$"))
    expect(pg.locator("#total")).to_have_text("0")
    expect(pg.locator(".total .of")).to_have_text("/ 12")
    expect(pg.locator(".total .unit")).to_have_text("cards")
    expect(verdict(pg)).to_contain_text("illegal")
    expect(pg.locator(".needs-box li.need", has_text="Capital")).to_have_text(re.compile(r"Capital\s*0/1"))
    for search, name in (
        ("capital of the n", "Capital of the North"),
        ("rice", "Rice Fields"),
        ("WARR", "Warriors"),
        ("militia", "Militiamen"),
    ):
        add_from_catalog(pg, search, name)
    expect(pg.locator("#total")).to_have_text("4")
    rice = entry(pg, "Rice Fields")
    for _ in range(2):
        click_and_wait(pg, rice.get_by_role("button", name="One Rice Fields more"))
    type_count(pg, entry(pg, "Warriors"), 4)
    militia = entry(pg, "Militiamen")
    for _ in range(3):
        click_and_wait(pg, militia.get_by_role("button", name="One Militiamen more"))
    expect(pg.locator("#total")).to_have_text("12")
    expect(pg.locator("#left")).to_have_text("0 cards left")
    expect(verdict(pg)).to_have_text(re.compile("legal"))
    expect(verdict(pg)).not_to_contain_text("illegal")
    # the deck's own words: copies and printed costs, never models or AP
    expect(entry(pg, "Warriors").locator(".entry-cost")).to_have_text("cost II")
    expect(entry(pg, "Capital of the North").locator(".entry-cost")).to_have_text("cost N")
    expect(entry(pg, "Warriors").locator("input.n")).to_have_attribute("aria-label", "Copies of Warriors")
    expect(pg.locator("ul.composition li")).to_have_text(["terrain 4", "troop 8"])
    expect(pg.locator("#list-panel")).not_to_contain_text("model")
    search_catalog(pg, "")
    # every row says why it cannot be added now: a second Capital, or a 13th card
    expect(catalog_row(pg, "Capital of the North").locator(".why.no").first).to_contain_text("2 Capitals")
    expect(catalog_row(pg, "Militiamen").locator(".why.no")).to_contain_text("agreed size is 12")
    expect(pg.locator("#catalog-panel")).not_to_contain_text("model")
    pg.locator("h2#list-h").click()
    shots(pg, "senshiai.png", full_page=True)
    res = check_file(server["ws"] / "Twelve-cards.yaml")
    assert res.legal and res.summary["cards"] == 12 and res.summary["capital"] == "Capital of the North"
    # every copy out with one click, back with undo
    click_and_wait(pg, entry(pg, "Militiamen").get_by_role("button", name="Remove every Militiamen"))
    expect(pg.locator("#total")).to_have_text("8")
    pg.get_by_role("button", name=re.compile("Undo")).click()
    expect(pg.locator("#total")).to_have_text("12")
    pg.set_viewport_size({"width": 390, "height": 844})
    shots(pg, "senshiai-phone.png")
    # the next new list starts with the game chosen last
    pg.goto(server["url"] + "/")
    expect(pg.locator("#new-system")).to_have_value("senshiai")
    expect(pg.locator("#new-form").get_by_label("Agreed deck size (optional)")).to_be_visible()
    shots(pg, "workspace-phone.png", full_page=True)
    assert pg.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than a phone


def _senji_add(pg, search: str, name: str, player: str):
    """Add a samurai card or province from the catalog to ``player`` (the list's "go to" choice)."""
    pg.locator("#add-to").select_option(label=player)
    search_catalog(pg, search)
    row = catalog_row(pg, name)
    expect(row).to_have_count(1)
    idle(pg)
    before = version(pg)
    row.locator(".btn-add").click()
    changed(pg, before)


@pytest.mark.slow  # a journey in the browser
def test_build_a_legal_senji_setup(page, server, shots):
    pg = page
    pg.select_option("#new-system", "senji")
    form = pg.locator("#new-form")
    form.get_by_label("Name", exact=True).fill("Three houses")
    form.get_by_role("spinbutton", name="Players").fill("3")
    form.get_by_label(re.compile("Example board")).uncheck()  # the rulebook's placeholder province names
    form.get_by_role("button", name="Create list").click()
    pg.wait_for_url(re.compile(r"/l/Three-houses\.yaml$"))
    expect(pg.locator("#total")).to_have_text("3")
    expect(verdict(pg)).to_contain_text("illegal")
    seats = pg.locator("ol.entries > li.entry")
    expect(seats).to_have_count(3)
    # the players get their names by typing
    for i, who in enumerate(["Aiko", "Kenji", "Sora"]):
        idle(pg)
        before = version(pg)
        box = seats.nth(i).get_by_role("textbox", name=f"Name of player {i + 1}")
        box.fill(who)
        box.press("Tab")
        changed(pg, before)
    plan = {"Aiko": ("Chosogabe", [4, 7, 10]), "Kenji": ("Ekes", [5, 8, 11]), "Sora": ("Wakizaka", [6, 9, 12])}
    for who, (samurai, provinces) in plan.items():
        _senji_add(pg, samurai, samurai, who)
        for n in provinces:
            _senji_add(pg, f"Province {n}", f"Province {n}", who)
    for i, (_who, (samurai, provinces)) in enumerate(plan.items()):
        seat = seats.nth(i)
        expect(seat.locator(".tag-samurai")).to_contain_text(samurai)
        expect(seat.locator("li.province")).to_have_count(3)
        first = f"Province {provinces[0]}"
        idle(pg)
        before = version(pg)
        units = seat.get_by_label(f"Units in {first}")
        units.fill("3")
        units.press("Tab")
        changed(pg, before)
        idle(pg)
        before = version(pg)
        seats.nth(i).get_by_label(f"Samurai figure in {first}").check()
        changed(pg, before)
    # no error left: the placeholder province names are warnings (a board pack names them)
    expect(verdict(pg)).to_contain_text("warnings")
    res = check_file(server["ws"] / "Three-houses.yaml")
    assert res.legal, [f.message for f in res.findings if f.severity == "error"]
    assert res.summary["players"] == 3 and res.summary["units"] == 9
    text = (server["ws"] / "Three-houses.yaml").read_text()
    assert "name: Aiko" in text and "samurai: Ekes" in text
    shots(pg, "senji.png", full_page=True)
    pg.set_viewport_size({"width": 390, "height": 844})
    shots(pg, "senji-phone.png")
    pg.set_viewport_size({"width": 1366, "height": 900})
    # a wrong move is one click away from being undone, and is shown at once
    seats.nth(0).get_by_label("Remove Province 7").click()
    expect(verdict(pg)).to_contain_text("illegal")
    expect(seats.nth(0).locator("ul.needs")).to_contain_text("provinces 2/3")
    pg.get_by_role("button", name=re.compile("Undo")).click()
    expect(verdict(pg)).to_contain_text("warnings")


@pytest.mark.slow  # a journey in the browser
def test_print_preview_and_pdf_download(page, server, shots):
    import pypdf

    pg = page
    pg.goto(server["url"] + "/l/kensei-buke.yaml/print")
    expect(pg.locator(".pages img").first).to_be_visible()
    pg.wait_for_function(
        "() => [...document.querySelectorAll('.pages img')].every(i => i.complete && i.naturalWidth > 0)"
    )
    pg.get_by_label("Paper").select_option("letter")
    pg.get_by_label("Unit cards after the roster").check()
    expect(pg.locator("#previews")).to_contain_text("3 pages")  # the roster's 2 and a page of unit cards
    pg.wait_for_function(
        "() => [...document.querySelectorAll('.pages img')].every(i => i.complete && i.naturalWidth > 0)"
    )
    shots(pg, "print.png")
    with pg.expect_download() as dl:
        pg.locator("#download-pdf").click()
    path = dl.value.path()
    assert dl.value.suggested_filename == "kensei-buke.pdf"
    pdf = pypdf.PdfReader(io.BytesIO(Path(path).read_bytes()))
    w, h = float(pdf.pages[0].mediabox.width), float(pdf.pages[0].mediabox.height)
    assert (round(w), round(h)) == (612, 792)
    text = "\n".join(p.extract_text() for p in pdf.pages)
    assert "Buke vanguard" in text and "Yumi Samurai" in text


@pytest.mark.slow  # a journey in the browser
def test_print_card_sheets_folded_with_cut_lines(page, server, shots):
    import pypdf

    pg = page
    pg.goto(server["url"] + "/l/senshiai-northern-host.yaml/print")
    expect(pg.locator(".pages img").first).to_be_visible()
    first = pg.locator("#previews").inner_text()
    pg.get_by_label("Bleed").select_option("3")
    pg.get_by_label("Layout").select_option("fold")
    pg.get_by_label("Full cut lines across the sheet").check()
    pg.locator(".fine-tune summary").click()
    pg.get_by_label("Gutter (mm)").fill("0")
    pg.get_by_label("Gutter (mm)").press("Tab")
    expect(pg.locator("#previews")).not_to_have_text(first)
    pg.wait_for_function(
        "() => [...document.querySelectorAll('.pages img')].every(i => i.complete && i.naturalWidth > 0)"
    )
    shots(pg, "print-cards.png")
    with pg.expect_download() as dl:
        pg.locator("#download-pdf").click()
    pdf = pypdf.PdfReader(io.BytesIO(Path(dl.value.path()).read_bytes()))
    # the previews follow every choice: once the last one is drawn they count the PDF's pages
    expect(pg.locator("#previews")).to_contain_text(re.compile(rf"\b{len(pdf.pages)} pages\b"))
    text = " ".join(p.extract_text() for p in pdf.pages)
    assert "bleed 3 mm; fold along the dashed line, glue, then cut" in text


@pytest.mark.slow  # a journey in the browser
def test_share_and_import_a_share_code(page, server, shots):
    pg = page
    pg.goto(server["url"] + "/l/kensei-kuge.yaml/share")
    code = pg.locator("#out-code").input_value()
    assert code.startswith("DMY")
    expect(pg.locator("#out-markdown")).to_contain_text("Kuge")
    shots(pg, "share.png")
    pg.goto(server["url"] + "/")
    pg.get_by_label("Share code, link or list text").fill(code)
    pg.get_by_label("File (optional)").fill("from a friend")
    pg.get_by_role("button", name="Import", exact=True).click()
    pg.wait_for_url(re.compile(r"/l/from-a-friend\.yaml$"))
    expect(pg.locator(".list-name")).to_contain_text("Kuge vanguard")
    expect(pg.locator("#total")).to_have_text("195")
    pg.goto(server["url"] + "/")
    pg.get_by_label("Share code, link or list text").fill(code[:-8] + "AAAAAAAA")
    pg.get_by_role("button", name="Import", exact=True).click()
    expect(pg.locator("#flash .alert")).to_be_visible()
