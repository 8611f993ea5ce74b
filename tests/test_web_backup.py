"""The workspace backed up as one zip and restored from it, never replacing a file that
differs without the player ticking it."""

from __future__ import annotations

import io
import shutil
import zipfile
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from builder.web.app import create_app

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "backup-token-0123456789abcdef"


def client_for(ws: Path) -> TestClient:
    app = create_app(ws, token=TOKEN, port=8765)
    c = TestClient(app, base_url="http://127.0.0.1:8765")
    assert c.get(f"/?token={TOKEN}", follow_redirects=False).status_code == 303
    c.headers.update({"X-CSRF-Token": app.csrf, "HX-Request": "true"})
    return c


@pytest.fixture()
def ws(tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(ROOT / "examples", root)
    (root / "club").mkdir()
    shutil.copy(root / "kensei-buke.yaml", root / "club" / "buke-copy.yaml")
    return root


def zip_of(files: dict[str, str]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for k, v in files.items():
            z.writestr(k, v)
    return buf.getvalue()


def test_download_all_holds_every_list_and_pack(ws):
    c = client_for(ws)
    r = c.get("/backup.zip")
    assert r.status_code == 200 and r.headers["content-type"] == "application/zip"
    assert 'filename="ws-lists.zip"' in r.headers["content-disposition"]
    z = zipfile.ZipFile(io.BytesIO(r.content))
    names = set(z.namelist())
    want = {p.relative_to(ws).as_posix() for p in ws.rglob("*.yaml")}
    assert names == want and "club/buke-copy.yaml" in names and "packs/senji-board.yaml" in names
    assert z.read("kensei-buke.yaml") == (ws / "kensei-buke.yaml").read_bytes()


def test_restore_into_an_empty_folder_and_back_again(ws, tmp_path):
    data = client_for(ws).get("/backup.zip").content
    empty = tmp_path / "empty"
    empty.mkdir()
    c = client_for(empty)
    r = c.post("/restore", files={"zip": ("b.zip", data, "application/zip")})
    assert r.status_code == 200 and "Restored" in r.text
    for p in ws.rglob("*.yaml"):
        assert (empty / p.relative_to(ws)).read_bytes() == p.read_bytes()
    again = c.post("/restore", files={"zip": ("b.zip", data, "application/zip")}).text
    assert "written: 0" in again and "already the same: " in again  # nothing to ask, nothing changed


def test_a_file_that_differs_is_kept_unless_ticked(ws):
    c = client_for(ws)
    mine = (ws / "kensei-buke.yaml").read_text()
    theirs = mine.replace("    models: 9\n", "    models: 10\n")
    data = zip_of(
        {
            "kensei-buke.yaml": theirs,
            "kensei-kuge.yaml": (ws / "kensei-kuge.yaml").read_text(),
            "new/fresh.yaml": mine,
            "notes.txt": "skipped",
            ".hidden.yaml": "x",
        }
    )
    r = c.post("/restore", files={"zip": ("b.zip", data, "application/zip")})
    assert "Some files differ from yours" in r.text and 'value="kensei-buke.yaml"' in r.text
    assert (ws / "kensei-buke.yaml").read_text() == mine  # nothing written before the answer
    assert not (ws / "new" / "fresh.yaml").exists()
    key = r.text.split('name="key" value="')[1].split('"')[0]
    done = c.post("/restore/confirm", data={"key": key}).text  # nothing ticked
    assert "kept as they were: 1 (kensei-buke.yaml)" in done and "written: 1 (new/fresh.yaml)" in done
    assert (ws / "kensei-buke.yaml").read_text() == mine and (ws / "new" / "fresh.yaml").read_text() == mine
    assert not (ws / "notes.txt").exists() and not (ws / ".hidden.yaml").exists()
    r = c.post("/restore", files={"zip": ("b.zip", data, "application/zip")})
    key = r.text.split('name="key" value="')[1].split('"')[0]
    done = c.post("/restore/confirm", data={"key": key, "replace": "kensei-buke.yaml"}).text
    assert "replaced: 1 (kensei-buke.yaml)" in done
    assert (ws / "kensei-buke.yaml").read_text() == theirs
    assert c.post("/restore/confirm", data={"key": key}).status_code == 410  # one answer per upload


@pytest.mark.parametrize("name", ["../evil.yaml", "/etc/evil.yaml"])
def test_a_zip_leading_outside_the_folder_is_refused(ws, name):
    c = client_for(ws)
    r = c.post("/restore", files={"zip": ("b.zip", zip_of({name: "system: kensei\n"}), "application/zip")})
    assert 400 <= r.status_code < 500
    assert not (ws.parent / "evil.yaml").exists()


def test_a_file_that_is_no_zip_is_refused(ws):
    r = client_for(ws).post("/restore", files={"zip": ("b.zip", b"not a zip", "application/zip")})
    assert r.status_code == 400 and "not a zip archive" in r.text


def test_the_workspace_page_offers_search_filters_and_folders(ws):
    html = client_for(ws).get("/").text
    assert 'id="ws-q"' in html and 'id="ws-game"' in html and 'id="ws-verdict"' in html and 'id="ws-sort"' in html
    assert '<option value="club">club</option>' in html  # subfolders as folders
    assert 'data-folder="club"' in html and 'data-points="200"' in html


def test_download_all_of_one_list_and_no_packs_folder(tmp_path):
    """An ordinary workspace: one list, no packs folder; the bundled packs offered by the
    new-list form are not the workspace's and are not in the zip."""
    root = tmp_path / "club"
    root.mkdir()
    shutil.copy(ROOT / "examples" / "kensei-buke.yaml", root / "deck.yaml")
    r = client_for(root).get("/backup.zip")
    assert r.status_code == 200, r.text[:300]
    z = zipfile.ZipFile(io.BytesIO(r.content))
    assert z.namelist() == ["deck.yaml"] and z.read("deck.yaml") == (root / "deck.yaml").read_bytes()


def test_download_and_restore_never_reach_through_a_link_out_of_the_folder(ws, tmp_path):
    """A ``packs/`` folder that is a link to a folder outside: its files are neither zipped nor
    compared with, nor written by a restore."""
    outside = tmp_path / "outside"
    shutil.move(ws / "packs", outside)
    (ws / "packs").symlink_to(outside, target_is_directory=True)
    before = {p.name: p.read_bytes() for p in outside.iterdir()}
    c = client_for(ws)
    names = zipfile.ZipFile(io.BytesIO(c.get("/backup.zip").content)).namelist()
    assert names and not any(n.startswith("packs/") for n in names)
    r = c.post("/restore", files={"zip": ("b.zip", zip_of({"packs/new.yaml": "name: x\n"}), "application/zip")})
    assert r.status_code == 403 and "leads outside the workspace" in r.text
    assert {p.name: p.read_bytes() for p in outside.iterdir()} == before


def test_download_all_of_a_folder_named_in_any_script(tmp_path):
    root = tmp_path / "日本の軍"
    root.mkdir()
    shutil.copy(ROOT / "examples" / "kensei-buke.yaml", root / "deck.yaml")
    r = client_for(root).get("/backup.zip")
    assert r.status_code == 200
    assert r.headers["content-disposition"] == (
        "attachment; filename=\"____-lists.zip\"; filename*=UTF-8''%E6%97%A5%E6%9C%AC%E3%81%AE%E8%BB%8D-lists.zip"
    )


def test_the_servers_own_folders_linked_outside_are_never_written(ws, tmp_path):
    """``.trash`` and ``.daimyo`` that are links to folders outside: a deleted list is not moved
    out of the workspace, print settings and the undo history of several server processes are
    not written there; each refusal says why (403)."""
    outside = tmp_path / "outside"
    (outside / "trash").mkdir(parents=True)
    (outside / "state").mkdir()
    (ws / ".trash").symlink_to(outside / "trash", target_is_directory=True)
    (ws / ".daimyo").symlink_to(outside / "state", target_is_directory=True)
    c = client_for(ws)
    r = c.delete("/api/lists/kensei-buke.yaml")
    assert r.status_code == 403
    assert r.json()["error"].startswith("the workspace's .trash folder leads outside the workspace (a symbolic link)")
    assert (ws / "kensei-buke.yaml").is_file()
    r = c.post("/l/kensei-buke.yaml/print/settings", data={"paper": "a4"})
    assert r.status_code == 403 and "print settings are not saved there" in r.text
    shared = TestClient(create_app(ws, token=TOKEN, port=8765, shared=True), base_url="http://127.0.0.1:8765")
    r = shared.post(
        "/api/lists/kensei-kuge.yaml/edit",
        headers={"Authorization": f"Bearer {TOKEN}"},
        json={"op": "set", "key": "name", "value": "Renamed"},
    )
    assert r.status_code == 403 and "no history is kept there" in r.json()["error"]
    assert "Renamed" not in (ws / "kensei-kuge.yaml").read_text()
    assert sorted(outside.rglob("*")) == [outside / "state", outside / "trash"]  # nothing written there


def test_download_all_skips_a_pipe_named_like_a_list(ws):
    import os
    import threading

    os.mkfifo(ws / "pipe.yaml")
    got: dict = {}
    fetch = threading.Thread(target=lambda: got.setdefault("r", client_for(ws).get("/backup.zip")), daemon=True)
    fetch.start()
    fetch.join(60)  # a server that opened the pipe would wait for a writer for ever
    assert not fetch.is_alive(), "Download all waited on a pipe"
    names = zipfile.ZipFile(io.BytesIO(got["r"].content)).namelist()
    assert "pipe.yaml" not in names and "kensei-buke.yaml" in names
