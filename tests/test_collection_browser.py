"""The builder's catalog beside a list and the player's collection, in a real browser (Chromium
driven by Playwright): "Owned only" leaves the entries the collection holds, and each entry
shows what is owned, what this list uses and what the lists of the folder use together.

What the lists use is worked out from the list files themselves (``test_collection.used_in``).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from browserkit import CHROMIUM

if not Path(CHROMIUM).exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
pytest.importorskip("uvicorn")

from browserkit import catalog_shows, idle, serve
from playwright.sync_api import expect
from test_collection import fold, used_in

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # a browser: none of its tests in the quick loop

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "collection-browser-token-0123456789"
WAIT = 15_000  # ms: the machine may be busy
expect.set_options(timeout=WAIT)

OWNED = {"Yari Ashigaru": 12, "Taisho Buke": 1}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from builder.web.app import create_app

    base = tmp_path_factory.mktemp("collection-browser")
    ws = base / "ws"
    shutil.copytree(ROOT / "examples", ws)
    coll = base / "collection.yaml"
    coll.write_text("kensei:\n  troops:\n" + "".join(f"    {k}: {v}\n" for k, v in OWNED.items()))
    before = os.environ.get("DAIMYO_COLLECTION")
    os.environ["DAIMYO_COLLECTION"] = str(coll)  # the server reads it in this process
    try:
        with serve(lambda port: create_app(ws, token=TOKEN, port=port)) as url:
            yield {"url": url, "ws": ws}
    finally:
        if before is None:
            os.environ.pop("DAIMYO_COLLECTION", None)
        else:
            os.environ["DAIMYO_COLLECTION"] = before


@pytest.fixture()
def page(browser, server):
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    pg = ctx.new_page()
    pg.set_default_timeout(WAIT)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(f"{server['url']}/?token={TOKEN}")
    yield pg
    ctx.close()
    assert not errors, errors


def rows(pg) -> list[str]:
    return pg.locator("ul.catalog li.opt .opt-name").all_inner_texts()


def test_owned_only_shows_the_entries_the_collection_holds(page, server, shots):
    pg = page
    pg.goto(f"{server['url']}/l/kensei-buke.yaml")
    catalog_shows(pg, "")
    everything = rows(pg)
    assert len(everything) > len(OWNED)
    pg.locator("#catalog-owned").check()
    expect(pg.locator("ul.catalog li.opt")).to_have_count(len(OWNED))
    idle(pg)
    assert sorted(rows(pg)) == sorted(OWNED)
    here = used_in(server["ws"] / "kensei-buke.yaml")
    across = sum((used_in(p) for p in sorted(server["ws"].glob("kensei-*.yaml"))), start=type(here)())
    for name, owned in OWNED.items():
        row = pg.locator("ul.catalog li.opt", has=pg.get_by_role("button", name=name, exact=True))
        expect(row.locator(".holding")).to_have_text(
            f"owned {owned} · this list {here[fold(name)]} · workspace {across[fold(name)]}"
        )
    assert across[fold("Yari Ashigaru")] > here[fold("Yari Ashigaru")]  # other lists of the folder count
    # other clans' entries left out are counted among the owned ones alone: none here
    expect(pg.locator(".others-note")).to_have_count(0)
    shots(pg, "collection-owned-only.png")
    pg.locator("#catalog-owned").uncheck()
    expect(pg.locator("ul.catalog li.opt")).to_have_count(len(everything))
