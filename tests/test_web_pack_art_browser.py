"""The Packs page and the pack editor in a real browser (the system's Chromium through
Playwright): registries added by address (a folder and one served over HTTP on 127.0.0.1),
searched and installed from; a card's art chosen, cropped to its art box and seen on the card
face; the pack published into the folder registry. Skipped without Chromium; screenshots go to
$DAIMYO_SCREENSHOTS when set."""

from __future__ import annotations

import io
import json
import re
import tomllib
from pathlib import Path

import pytest
from browserkit import CHROMIUM

if not Path(CHROMIUM).exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
pytest.importorskip("uvicorn")

from browserkit import serve
from PIL import Image
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect
from regserver import Server
from test_packs_registry import club
from test_web_pack_browser import fill_entry

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # a browser: none of its tests in the quick loop

TOKEN = "browser-test-token-0123456789"
WAIT = 20_000
expect.set_options(timeout=WAIT)


@pytest.fixture()
def server(tmp_path, monkeypatch):
    from builder.packs.registry import build_index, dump_index
    from builder.web.app import create_app

    monkeypatch.setenv("DAIMYO_PACKS", str(tmp_path / "user-packs"))
    monkeypatch.delenv("DAIMYO_REGISTRY", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    served = tmp_path / "served" / "registry"
    served.mkdir(parents=True)
    (served / "club-1.yaml").write_text(club("1"))
    (served / "index.json").write_text(dump_index(build_index(served)[0]))
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "index.json").write_text('{"daimyo_registry": 1, "packs": []}\n')
    ws = tmp_path / "ws"
    ws.mkdir()
    with Server(tmp_path / "served") as srv, serve(lambda port: create_app(ws, token=TOKEN, port=port)) as url:
        yield {"url": url, "ws": ws, "registry": f"{srv.url}/registry/index.json", "mine": mine, "tmp": tmp_path}


def test_registries_art_and_publish_in_the_browser(browser, server, shots):
    ctx = browser.new_context(viewport={"width": 1366, "height": 1000})
    pg = ctx.new_page()
    pg.set_default_timeout(WAIT)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(f"{server['url']}/?token={TOKEN}")
    pg.goto(f"{server['url']}/packs")
    expect(pg.locator("#regs-h")).to_contain_text("Registries in use")

    # a registry served over HTTP, by its address; then search and install from it
    pg.fill("#registry-url", server["registry"])
    pg.fill("#registry-name", "club")
    pg.get_by_role("button", name="Add registry").click()
    expect(pg.locator("#packs-done")).to_have_text("added registry 'club': 1 pack version")
    expect(pg.locator('#registry-list li[data-registry="club"]')).to_contain_text(server["registry"])
    row = pg.locator('#results tr[data-pack="Club cards"]')
    row.get_by_role("button", name="Install").click()
    expect(pg.locator("#packs-done")).to_contain_text("Club cards 1 (senshiai): installed from")
    expect(pg.locator('#installed tr[data-pack="Club cards"]')).to_be_visible()
    # one that cannot be read is refused with its one line, and nothing is saved
    pg.fill("#registry-url", server["registry"].replace("/registry/", "/nothing/"))
    pg.fill("#registry-name", "")
    pg.get_by_role("button", name="Add registry").click()
    expect(pg.locator("body")).to_contain_text("404")
    pg.goto(f"{server['url']}/packs")
    # a folder registry of this machine, by its path
    pg.fill("#registry-url", str(server["mine"]))
    pg.fill("#registry-name", "mine")
    pg.get_by_role("button", name="Add registry").click()
    expect(pg.locator("#packs-done")).to_have_text("added registry 'mine': 0 pack versions")
    shots(pg, "packs-registries.png", full_page=True)
    cfg = tomllib.loads((server["tmp"] / "config" / "daimyo" / "config.toml").read_text())
    assert [r["name"] for r in cfg["registries"]] == ["club", "mine"]

    # a pack of the workspace, an entry with art cropped to its art box
    pg.select_option("#new-pack-system", "senshiai")
    pg.fill("#new-pack-name", "My cards")
    pg.get_by_role("button", name="Create pack").click()
    pg.wait_for_url(re.compile(r"/packs/edit/my-cards\.yaml$"))
    fill_entry(
        pg,
        {
            "name": "Red Samurai",
            "type": "troop",
            "subtype": "Samurai",
            "cost": "II",
            "paths": ["Earth"],
            "speed": "1",
            "power": "2/1/3",
        },
    )
    expect(pg.locator("#entry-state")).to_have_text("✓ valid")
    image = Image.new("RGB", (1200, 400), (30, 60, 200))  # blue on the left, red on the right
    image.paste((200, 30, 30), (600, 0, 1200, 400))
    buf = io.BytesIO()
    image.save(buf, "PNG")
    pg.set_input_files("#art-file", files=[{"name": "art.png", "mimeType": "image/png", "buffer": buf.getvalue()}])
    expect(pg.locator("#art-stage")).to_be_visible()
    pg.locator("#art-stage").scroll_into_view_if_needed()
    frame = pg.locator("#art-frame").bounding_box()
    stage = pg.locator("#art-source").bounding_box()
    pg.mouse.move(frame["x"] + 10, frame["y"] + 10)  # the frame dragged to the right edge: red only
    pg.mouse.down()
    pg.mouse.move(frame["x"] + 10 + stage["width"], frame["y"] + 10, steps=5)
    pg.mouse.up()
    left = pg.eval_on_selector("#art-frame", "e => parseFloat(e.style.left)")
    width = pg.eval_on_selector("#art-frame", "e => parseFloat(e.style.width)")
    assert abs(left + width - stage["width"]) < 2, (left, width, stage)  # at the right edge
    pg.wait_for_function("() => document.querySelector('#card-preview').naturalWidth > 100")
    before = pg.get_attribute("#card-preview", "src")
    pg.get_by_role("button", name="Use this art").click()
    expect(pg.locator("#art-state")).to_contain_text("Art: art/red-samurai-")
    pg.wait_for_function(
        "b => { const i = document.querySelector('#card-preview'); return i.src !== b && i.complete && i.naturalWidth > 100; }",
        arg=before,
    )
    # the card face as it prints now shows the art: red where the placeholder was pale (the
    # preview may be drawn again once more after the save: read it until it settles)
    reds = 0
    for _attempt in range(60):
        try:
            shot = pg.locator("#card-preview").screenshot()
        except PlaywrightError:  # the preview was swapped for its next drawing while shot: again
            pg.wait_for_timeout(250)
            continue
        face = Image.open(io.BytesIO(shot)).convert("RGB")
        reds = sum(
            1
            for x in range(0, face.width, 2)
            for y in range(0, face.height, 2)
            if face.getpixel((x, y))[0] > 170 and face.getpixel((x, y))[1] < 80
        )
        if reds > 300:
            break
        pg.wait_for_timeout(250)
    assert reds > 300, reds
    shots(pg, "pack-editor-art.png", full_page=True)
    pg.get_by_role("button", name="Add to cards").click()
    pg.wait_for_url(re.compile(r"entry=Red\+Samurai"))
    [kept] = list((server["ws"] / "packs" / "art").iterdir())
    aspect = float(pg.locator("#art-card").get_attribute("data-aspect"))
    with Image.open(kept) as im:
        assert abs(im.width / im.height - aspect) < 0.01
        px = im.convert("RGB").getpixel((im.width // 2, im.height // 2))
        assert px[0] > 150 and px[2] < 90, px  # the part the frame was dragged to
    preview = pg.locator("#card-preview")
    pg.wait_for_function("() => document.querySelector('#card-preview').naturalWidth > 100")
    expect(preview).to_be_visible()

    # Publish into the folder registry
    pg.select_option("#publish-registry", "mine")
    pg.get_by_role("button", name="Publish", exact=True).click()
    expect(pg.locator("#pack-done")).to_contain_text("published My cards 1 (senshiai)")
    shots(pg, "pack-editor-published.png", full_page=True)
    [entry] = json.loads((server["mine"] / "index.json").read_text())["packs"]
    assert entry["name"] == "My cards" and [a["path"] for a in entry["art"]] == [f"art/{kept.name}"]
    ctx.close()
    assert not errors, errors
