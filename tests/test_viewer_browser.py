"""The viewer and the table view in a real browser: a share code of each game opens at desktop
and phone size with no serious accessibility violation, and its link preview carries the title,
verdict and total; ``export --to html`` of each game opens from a file with the network off, and
its counters work, survive a reload and reset."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from browserkit import have_chromium, serve
from test_web_a11y import violations

from builder.share.api import export_source

from conftest import ROOT

pytestmark = [  # a browser: none of its tests in the quick loop
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not have_chromium(), reason="no Chromium (/usr/bin/chromium) to drive"),
]

WAIT = 15_000
GAMES = {
    "kensei": "kensei-buke.yaml",
    "senshiai": "senshiai-northern-host.yaml",
    "herocard": "herocard-samurai.yaml",
    "senji": "senji-three-daimyo.yaml",
    "satsuma": "satsuma-imperial.yaml",
}


@pytest.fixture(scope="module")
def packs_here():
    """The example packs installed where the viewer looks for packs by name."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("DAIMYO_PACKS", str(ROOT / "examples" / "packs"))
        mp.setenv("DAIMYO_VIEWER", "https://lists.example.org")
        yield


@pytest.fixture(scope="module")
def codes(packs_here) -> dict[str, str]:
    return {game: export_source(str(ROOT / "examples" / f), "code").strip() for game, f in GAMES.items()}


@pytest.fixture(scope="module")
def viewer(packs_here):
    from builder.viewer.app import make_app

    with serve(lambda port: make_app()) as url:
        yield url


@pytest.mark.parametrize("game", list(GAMES))
def test_a_share_code_of_each_game_opens_in_the_viewer(browser, viewer, codes, game, tmp_path, shots):
    code = codes[game]
    for width, height in ((1366, 900), (390, 844)):
        ctx = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
        pg = ctx.new_page()
        pg.set_default_timeout(WAIT)
        r = pg.goto(f"{viewer}/v/{code}")
        assert r is not None and r.status == 200
        assert r.headers["cache-control"] == "public, max-age=31536000, immutable" and r.headers["etag"]
        name = pg.locator("h1").inner_text()
        # the link preview: title, verdict and total
        og_title = pg.locator('meta[property="og:title"]').get_attribute("content")
        og_desc = pg.locator('meta[property="og:description"]').get_attribute("content")
        assert og_title is not None and og_title.startswith(name)
        assert og_desc is not None and og_desc.split(" · ")[0] in ("legal", "legal, with warnings", "not legal")
        assert pg.locator(".verdict").inner_text() == og_desc.split(" · ")[0]
        assert pg.locator("h1 + p strong").inner_text() in og_desc
        assert pg.locator('meta[property="og:url"]').get_attribute("content") == f"https://lists.example.org/v/{code}"
        # every button is there, and the entries with their rules
        for label in ("Table view", "Print", "Download", "Copy link", "Open in my builder", "Copy the share code"):
            assert pg.get_by_role("button", name=label).count() + pg.get_by_role("link", name=label).count() == 1
        assert pg.locator("#code").inner_text() == code
        assert pg.locator("article.card").count() >= 1
        if game == "kensei":
            assert pg.locator("table.stats").first.is_visible()  # the stat lines
        assert pg.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")  # no sideways scroll
        if shutil.which("zbarimg"):  # the page's QR code opens the page (a phone shows it to another)
            qr = tmp_path / f"qr-{game}-{width}.png"
            pg.locator("figure.qr").screenshot(path=str(qr))
            read = subprocess.run(["zbarimg", "-q", "--raw", str(qr)], capture_output=True, text=True).stdout.split()
            assert read == [f"https://lists.example.org/v/{code}"]
        for scheme in ("light", "dark"):
            pg.emulate_media(color_scheme=scheme)
            assert not violations(pg), (game, width, scheme)
            shots(pg, f"viewer-{game}-{width}-{scheme}.png", full_page=True)
        ctx.close()


def _open_offline(browser, path: Path, width: int = 390, height: int = 844):
    """A page of ``path`` opened from file:// with every other request refused (the network off)."""
    ctx = browser.new_context(viewport={"width": width, "height": height})
    asked: list[str] = []

    def route(r):
        asked.append(r.request.url)
        if r.request.url.startswith("file://"):
            r.continue_()
        else:
            r.abort()

    ctx.route("**/*", route)
    pg = ctx.new_page()
    pg.set_default_timeout(WAIT)
    pg.goto(path.as_uri())
    return ctx, pg, asked


@pytest.mark.parametrize("game", list(GAMES))
def test_the_table_view_works_offline_and_keeps_its_counters(browser, packs_here, cli, game, tmp_path, shots):
    out = tmp_path / f"{game}.html"
    r = cli("export", ROOT / "examples" / GAMES[game], "--to", "html", "-o", out)
    assert r.code == 0, r.stderr
    ctx, pg, asked = _open_offline(browser, out)
    rnd = pg.locator('[data-counter="round"]')
    assert rnd.locator("output").inner_text() == "1"
    rnd.get_by_role("button", name="Round: one more").click()
    rnd.get_by_role("button", name="Round: one more").click()
    assert rnd.locator("output").inner_text() == "3"
    per_entry = pg.locator('[data-counter^="e0."]')
    if per_entry.count():  # Kensei's wounds and casualties, Senji's honour
        first = per_entry.first
        first.locator("button[data-step='1']").click()
        assert first.locator("output").inner_text() == "1"
    shots(pg, f"table-{game}-390.png", full_page=True)
    pg.reload()
    assert pg.locator('[data-counter="round"] output').inner_text() == "3"  # kept in local storage
    if per_entry.count():
        assert per_entry.first.locator("output").inner_text() == "1"
    pg.emulate_media(color_scheme="dark")
    shots(pg, f"table-{game}-390-dark.png", full_page=True)
    assert not violations(pg), game
    pg.once("dialog", lambda d: d.accept())
    pg.get_by_role("button", name="Reset the counters").click()
    assert pg.locator('[data-counter="round"] output').inner_text() == "1"
    pg.reload()
    assert pg.locator('[data-counter="round"] output').inner_text() == "1"
    assert asked and all(u.startswith("file://") for u in asked), asked  # nothing but the file itself
    ctx.close()


def test_the_kensei_table_view_shows_the_rout_threshold_and_casualties_up_to_the_models(
    browser, packs_here, cli, tmp_path
):
    out = tmp_path / "buke.html"
    assert cli("export", ROOT / "examples" / "kensei-buke.yaml", "--to", "html", "-o", out).code == 0
    ctx, pg, _asked = _open_offline(browser, out)
    lost = pg.locator('[data-counter="lost"]')
    assert "The army routs at 150 AP lost (75% of 200 AP of troops)" in lost.inner_text()
    # Samurai Yari: 5 models, so 5 casualties at most
    yari = pg.locator("article", has_text="Samurai Yari")
    cas = yari.locator('[data-counter$=".casualties"]')
    for _ in range(7):
        cas.locator("button[data-step='1']").click()
    assert cas.locator("output").inner_text() == "5"
    assert "alert" in (cas.get_attribute("class") or "")
    ctx.close()
