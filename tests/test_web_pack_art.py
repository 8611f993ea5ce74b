"""The pack editor's art and Publish, through the framework's test client: an uploaded image is
kept beside the pack at the art box's proportions (a hostile one refused with 4xx and one line),
the card face shows it, and Publish writes the next version and its art into a folder registry."""

from __future__ import annotations

import io
import json
import re

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from PIL import Image
from test_web_pack_editor import BASE, CAPITAL, HX, TOKEN, version

from builder.web.app import create_app


@pytest.fixture()
def c(tmp_path, monkeypatch):
    from fastapi.testclient import TestClient

    ws = tmp_path / "ws"
    ws.mkdir()
    monkeypatch.setenv("DAIMYO_PACKS", str(tmp_path / "user-packs"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("DAIMYO_REGISTRY", raising=False)
    app = create_app(ws, token=TOKEN, port=8765)
    with TestClient(app, base_url=BASE) as client:
        assert client.get(f"/?token={TOKEN}", follow_redirects=False).status_code == 303
        client.headers.update({"X-CSRF-Token": app.csrf})
        client.ws = ws
        yield client


def png(size, colour=(200, 30, 30)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, colour).save(buf, "PNG")
    return buf.getvalue()


def test_upload_art_crop_preview_save_and_publish(c, tmp_path):
    assert c.post("/packs/new", data={"system": "senshiai", "name": "Club cards"}, headers=HX).status_code == 204
    page = c.get("/packs/edit/club-cards.yaml").text
    aspect = float(re.search(r'data-aspect="([0-9.]+)"', page).group(1))
    assert 1.0 < aspect < 2.5  # a Senshiai card's art box is wider than tall
    assert "Add a registry folder on the Packs page" in page
    r = c.post(
        "/packs/edit/club-cards.yaml/art",
        data={k: v for k, v in CAPITAL.items()},
        files={"image": ("a.png", png((900, 300)), "image/png")},
    )
    assert r.status_code == 200, r.text
    rel = r.json()["path"]
    assert re.fullmatch(r"art/hill-fort-[0-9a-f]{10}\.png", rel)
    with Image.open(c.ws / "packs" / rel) as im:
        assert abs(im.width / im.height - aspect) < 0.01 and im.height == 300
    # the card face as typed shows it: the preview of the entry with its art
    form = {**CAPITAL, "f_art": rel, "section": "cards", "version": version(page)}
    r = c.post("/packs/edit/club-cards.yaml/check", data=form, headers=HX)
    assert r.status_code == 200 and 'src="data:image/png;base64,' in r.text
    r = c.post("/packs/edit/club-cards.yaml/save", data=form, headers=HX)
    assert r.status_code == 204
    assert f"art: {rel}" in (c.ws / "packs" / "club-cards.yaml").read_text()
    # hostile uploads: refused, one line, nothing written
    before = sorted(p.name for p in (c.ws / "packs" / "art").iterdir())
    svg = b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'
    for body, words in (
        (svg, "an SVG drawing; art must be a PNG, JPEG or WebP image"),
        (png((40, 30))[:60], "a damaged or truncated PNG file"),
    ):
        r = c.post("/packs/edit/club-cards.yaml/art", data=CAPITAL, files={"image": ("x.png", body, "image/png")})
        assert r.status_code == 422 and words in r.text, r.text
    r = c.post("/packs/edit/club-cards.yaml/art", data={}, files={"image": ("x.png", png((4, 4)), "image/png")})
    assert r.status_code == 400 and "name the entry first" in r.text
    assert sorted(p.name for p in (c.ws / "packs" / "art").iterdir()) == before
    # Publish into a folder registry added on the Packs page
    reg = tmp_path / "registry"
    reg.mkdir()
    (reg / "index.json").write_text('{"daimyo_registry": 1, "packs": []}\n')
    assert c.post("/packs/registries/add", data={"url": str(reg), "name": "club"}, headers=HX).status_code == 204
    page = c.get("/packs/edit/club-cards.yaml").text
    assert 'id="publish-registry"' in page and f"club ({reg})" in page
    r = c.post("/packs/edit/club-cards.yaml/publish", data={"registry": "club"}, headers=HX)
    assert r.status_code == 204, r.text
    page = c.get(r.headers["HX-Redirect"]).text
    assert "published Club cards 1 (senshiai)" in page
    assert (reg / "club-cards-1" / rel).read_bytes() == (c.ws / "packs" / rel).read_bytes()
    [entry] = json.loads((reg / "index.json").read_text())["packs"]
    assert [a["path"] for a in entry["art"]] == [rel]
    r = c.post("/packs/edit/club-cards.yaml/publish", data={"registry": "club"}, headers=HX)
    assert r.status_code == 400 and "unchanged since version 1" in r.text
    r = c.post("/packs/edit/club-cards.yaml/publish", data={"registry": "nope"}, headers=HX)
    assert r.status_code == 400 and "no folder registry named" in r.text
