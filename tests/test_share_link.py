"""Links to a list (``BASE/v/CODE``): ``export --to link``, ``import URL``, the builder's Import
box and its "Open in my builder" page, with the viewer's address from --base-url,
DAIMYO_VIEWER or config.toml."""

from __future__ import annotations

import shutil

import pytest

from builder.share.link import code_in, link_of

from conftest import ROOT

BUKE = ROOT / "examples" / "kensei-buke.yaml"
BASE = "https://lists.example.org"


@pytest.fixture
def no_viewer(tmp_path, monkeypatch):
    """No viewer configured: an empty config folder and no DAIMYO_VIEWER."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("DAIMYO_VIEWER", raising=False)
    return tmp_path / "config" / "daimyo" / "config.toml"


def test_export_to_link_without_a_viewer_is_one_line_and_exit_2(cli, no_viewer):
    r = cli("export", BUKE, "--to", "link")
    assert r.code == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert "no viewer address is configured for links" in lines[0]
    assert "--base-url" in lines[0] and "DAIMYO_VIEWER" in lines[0] and "config.toml" in lines[0]


def test_export_to_link_then_import_the_link_gives_the_list(cli, no_viewer):
    code = cli("export", BUKE, "--to", "code").stdout.strip()
    r = cli("export", BUKE, "--to", "link", "--base-url", BASE + "/")
    assert r.code == 0, r.stderr
    assert r.stdout.strip() == f"{BASE}/v/{code}"
    same = cli("import", code).stdout
    for link in (r.stdout.strip(), r.stdout.strip() + "/table", r.stdout.strip() + "?utm=x#top"):
        back = cli("import", link)
        assert back.code == 0, back.stderr
        assert back.stdout == same


def test_the_viewer_comes_from_the_environment_then_the_config_file(cli, no_viewer, monkeypatch):
    no_viewer.parent.mkdir(parents=True)
    no_viewer.write_text('viewer = "https://club.example/lists/"\n')
    assert cli("export", BUKE, "--to", "link").stdout.startswith("https://club.example/lists/v/DMY1-")
    monkeypatch.setenv("DAIMYO_VIEWER", "http://127.0.0.1:9000")
    assert cli("export", BUKE, "--to", "link").stdout.startswith("http://127.0.0.1:9000/v/DMY1-")
    monkeypatch.setenv("DAIMYO_VIEWER", "ftp://nowhere")
    r = cli("export", BUKE, "--to", "link")
    assert r.code == 2 and "DAIMYO_VIEWER: 'ftp://nowhere' is not a viewer's address" in r.stderr


def test_a_link_without_a_code_is_refused_in_one_line(cli):
    r = cli("import", "https://lists.example.org/about")
    assert r.code == 2
    assert r.stderr.strip().splitlines() == [
        "daimyo: error: 'https://lists.example.org/about' is not a link to a list (a link ends in /v/ and a "
        "share code) (copy the whole link, or give the share code (DMY1-...))"
    ]


def test_code_in_and_link_of_are_each_others_inverse():
    code = "DMY1-QZ0j4QkfQnVrZSB2YW5n"
    assert code_in(link_of(code, BASE)) == code
    assert code_in(link_of(code, BASE) + "/table") == code
    assert code_in("https://x.org/v/" + code + "?a=1") == code
    assert code_in(code) is None  # a bare code is no link
    assert code_in("https://x.org/" + code) is None
    assert code_in("https://x.org/v/" + "A" * 9000) is None  # longer than any link


def test_the_builders_import_box_takes_a_link_and_a_viewer_opens_it(tmp_path, cli):
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from builder.check import check_file
    from builder.web.app import create_app

    ws = tmp_path / "ws"
    ws.mkdir()
    shutil.copy(BUKE, ws / "a.yaml")
    token = "link-token-0123456789abcdef"
    app = create_app(ws, token=token, port=8765)
    link = cli("export", BUKE, "--to", "link", "--base-url", BASE).stdout.strip()
    with TestClient(app, base_url="http://127.0.0.1:8765") as anon:
        # "Open in my builder": a visitor without the cookie sees the offer, nothing is written
        offer = anon.get("/import", params={"code": code_in(link)})
        assert offer.status_code == 200 and code_in(link) in offer.text
        assert "Continue to the Import box" in offer.text
        assert sorted(p.name for p in ws.iterdir()) == ["a.yaml"]
        assert anon.get("/", params={"import": code_in(link)}).status_code == 401  # the workspace wants its token
        assert anon.get("/import").status_code == 400
    with TestClient(app, base_url="http://127.0.0.1:8765") as c:
        c.get(f"/?token={token}")
        c.headers.update({"X-CSRF-Token": app.csrf})
        page = c.get("/", params={"import": code_in(link)})
        assert page.status_code == 200 and f">{code_in(link)}</textarea>" in page.text
        r = c.post("/import", data={"text": link, "file": "from-link.yaml"}, headers={"HX-Request": "true"})
        assert r.status_code == 204, r.text
        wrong = c.post("/import", data={"text": "https://lists.example.org/about"}, headers={"HX-Request": "true"})
        assert wrong.status_code == 400 and "is not a link to a list" in wrong.text
    assert check_file(ws / "from-link.yaml").summary["points"] == 200


def test_the_share_tab_shows_the_link_and_its_qr_code_when_a_viewer_is_configured(tmp_path, cli, monkeypatch):
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from builder.web.app import create_app

    ws = tmp_path / "ws"
    ws.mkdir()
    shutil.copy(BUKE, ws / "a.yaml")
    token = "link-token-0123456789abcdef"
    app = create_app(ws, token=token, port=8765)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("DAIMYO_VIEWER", raising=False)
    with TestClient(app, base_url="http://127.0.0.1:8765") as c:
        c.get(f"/?token={token}")
        page = c.get("/l/a.yaml/share").text
        assert "No viewer is configured for links" in page and 'id="out-link"' not in page
        monkeypatch.setenv("DAIMYO_VIEWER", BASE)
        link = cli("export", BUKE, "--to", "link").stdout.strip()
        page = c.get("/l/a.yaml/share").text
        assert f'readonly rows="3" class="mono" spellcheck="false">{link}</textarea>' in page
        assert '<figure class="share-qr"><svg viewBox=' in page


def test_the_library_exports_a_link_and_imports_one(no_viewer):
    import builder

    link = builder.export(BUKE, to="link", base_url=BASE)
    assert link == f"{BASE}/v/{builder.export(BUKE, to='code')}"
    assert builder.import_(link).text == builder.import_(builder.export(BUKE, to="code")).text
    with pytest.raises(builder.DaimyoError, match="no viewer address is configured for links"):
        builder.export(BUKE, to="link")
