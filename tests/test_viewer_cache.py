"""The viewer's folder of answers (``daimyo viewer --cache-dir``, builder/viewer/shelf.py): a link
drawn by one copy is answered by another from the folder, byte for byte, without drawing it; an
entry that is not whole is drawn again, never served; another language, daimyo version or
catalog misses; and the folder keeps within its bounds, the oldest entries removed first.

Where an answer came from is read from its ``X-Daimyo-Cache`` header: ``drawn`` (decoded,
checked and drawn here), ``memory`` (kept by this process) or ``folder`` (drawn by a copy)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient
from test_viewer_processes import _free_ports, _get, viewer, wait_until_up

from builder.share.api import export_source
from builder.viewer import shelf as shelf_module
from builder.viewer.shelf import KEEP_AFTER_SWEEP, MAX_ANSWER_BYTES, MAX_ENTRIES, SUFFIX, SWEEP_EVERY, Shelf

from conftest import ROOT

BUKE = ROOT / "examples" / "kensei-buke.yaml"
PUBLIC = "https://lists.example.org"
HEADER = "x-daimyo-cache"


def _code(path=BUKE) -> str:
    return export_source(str(path), "code").strip()


def _entries(folder) -> list:
    return sorted(p for p in folder.iterdir() if p.name.endswith(SUFFIX))


@pytest.fixture
def app_on(fresh_state):
    """A viewer application on a cache folder; each call a new one, as a new process would be
    (the answers kept in memory are emptied)."""
    from builder.viewer.app import make_app

    def make(folder) -> TestClient:
        fresh_state.clear_all()
        return TestClient(make_app(base=PUBLIC, cache_dir=str(folder)), raise_server_exceptions=False)

    return make


@pytest.mark.slow  # starts server processes
@pytest.mark.skipif(os.name == "nt", reason="the viewer's processes need a POSIX system here")
def test_a_link_drawn_by_one_viewer_is_served_by_another_from_the_folder(tmp_path):
    code = _code()
    folder = tmp_path / "answers"
    a, b = _free_ports(2)
    with viewer(a, 1, cache_dir=folder), viewer(b, 1, cache_dir=folder):
        for path in (f"/v/{code}", f"/v/{code}/table", f"/v/{code}/list.yaml"):
            first = _get(a, path)
            assert first[0] == 200 and first[1][HEADER] == "drawn"
            second = _get(b, path)
            assert second[0] == 200
            assert second[1][HEADER] == "folder", path[-12:]  # not drawn by the second viewer
            assert second[2] == first[2]  # byte for byte
            assert second[1]["etag"] == first[1]["etag"]
            assert second[1]["content-type"] == first[1]["content-type"]
            assert _get(b, path)[1][HEADER] == "memory"  # then kept by the second viewer itself
        assert len(_entries(folder)) == 3


@pytest.mark.slow  # starts server processes
@pytest.mark.skipif(os.name == "nt", reason="the viewer's processes need a POSIX system here")
def test_the_workers_of_one_viewer_share_its_folder(tmp_path):
    """``--workers 2``: whichever worker draws a link, the other one reads it from the folder."""
    code = _code()
    folder = tmp_path / "answers"
    (port,) = _free_ports(1)
    with viewer(port, 2, cache_dir=folder):
        sources = [_get(port, f"/v/{code}")[1][HEADER] for _ in range(12)]
    assert sources.count("drawn") == 1, sources  # drawn once for both workers
    assert len(_entries(folder)) == 1


def test_a_damaged_entry_is_drawn_again_and_written_over(tmp_path, app_on):
    code = _code()
    folder = tmp_path / "answers"
    first = app_on(folder).get(f"/v/{code}")
    assert first.headers[HEADER] == "drawn"
    (entry,) = _entries(folder)
    whole = entry.read_bytes()
    damaged = (
        whole[: len(whole) // 2],  # truncated
        whole[:-5] + b"XXXXX",  # its last bytes changed
        b"",  # empty
        whole.replace(b'"status": 200', b'"status": 201'),  # the header changed (its status)
        b"not an entry at all",
    )
    for bad in damaged:
        entry.write_bytes(bad)
        again = app_on(folder).get(f"/v/{code}")
        assert again.status_code == 200
        assert again.headers[HEADER] == "drawn"
        assert again.content == first.content
        assert entry.read_bytes() == whole  # written over, whole again
    assert app_on(folder).get(f"/v/{code}").headers[HEADER] == "folder"


def test_another_language_version_or_catalog_misses(tmp_path, app_on, monkeypatch):
    packs = tmp_path / "packs"
    shutil.copytree(ROOT / "examples" / "packs", packs)
    monkeypatch.setenv("DAIMYO_PACKS", str(packs))
    code = _code(ROOT / "examples" / "senshiai-northern-host.yaml")
    folder = tmp_path / "answers"
    path = f"/v/{code}"
    assert app_on(folder).get(path).headers[HEADER] == "drawn"
    assert app_on(folder).get(path).headers[HEADER] == "folder"
    # another language
    fr = app_on(folder).get(path, headers={"Accept-Language": "fr"})
    assert fr.status_code == 200 and fr.headers[HEADER] == "drawn"
    # another version of daimyo
    monkeypatch.setattr(shelf_module, "__version__", "0.0.0-other")
    assert app_on(folder).get(path).headers[HEADER] == "drawn"
    monkeypatch.undo()
    monkeypatch.setenv("DAIMYO_PACKS", str(packs))
    assert app_on(folder).get(path).headers[HEADER] == "folder"
    # the pack the list names changed: another catalog
    pack = packs / "senshiai-example.yaml"
    st = pack.stat()
    os.utime(pack, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    changed = app_on(folder).get(path)
    assert changed.status_code == 200 and changed.headers[HEADER] == "drawn"
    # another public address (the links the page carries)
    from builder.viewer.app import make_app

    other = TestClient(make_app(base="https://other.example.org", cache_dir=str(folder)))
    assert other.get(path).headers[HEADER] == "drawn"
    assert len(_entries(folder)) == 5


def test_a_viewer_without_a_folder_draws_every_link_itself(app_on, fresh_state, tmp_path):
    from builder.viewer.app import make_app

    code = _code()
    client = TestClient(make_app(base=PUBLIC))
    assert client.get(f"/v/{code}").headers[HEADER] == "drawn"
    assert client.get(f"/v/{code}").headers[HEADER] == "memory"
    assert list(tmp_path.iterdir()) == []


def _put(shelf: Shelf, i: int, size: int = 10) -> str:
    key = Shelf.key(f"code{i}", "page", "en", "catalog", PUBLIC)
    shelf.put(key, (200, b"x" * size, "text/html", ""))
    os.utime(shelf.path(key), ns=(10**18 + i * 10**9, 10**18 + i * 10**9))  # entry i written at second i
    return key


def test_the_folder_keeps_at_most_max_entries_the_oldest_removed_first(tmp_path):
    shelf = Shelf(tmp_path)
    keys = [_put(shelf, i) for i in range(MAX_ENTRIES)]
    assert shelf.sweep() == 0  # at the bound: nothing removed
    assert len(_entries(tmp_path)) == MAX_ENTRIES
    keys.append(_put(shelf, MAX_ENTRIES))  # one past it: the oldest removed, down to KEEP_AFTER_SWEEP
    assert shelf.sweep() == MAX_ENTRIES + 1 - KEEP_AFTER_SWEEP
    assert [p.name for p in _entries(tmp_path)] == sorted(shelf.path(k).name for k in keys[-KEEP_AFTER_SWEEP:])


def test_the_folder_is_swept_as_entries_are_written(tmp_path):
    """Without calling sweep: the first entry a process writes sweeps, then every SWEEP_EVERY-th."""
    shelf = Shelf(tmp_path, max_entries=3, keep=2)
    keys = [_put(shelf, i) for i in range(SWEEP_EVERY)]
    assert len(_entries(tmp_path)) == SWEEP_EVERY  # swept at the first only
    keys.append(_put(shelf, SWEEP_EVERY))  # the SWEEP_EVERY-th since
    assert [p.name for p in _entries(tmp_path)] == sorted(shelf.path(k).name for k in keys[-2:])


def test_an_answer_too_large_is_not_kept(tmp_path):
    shelf = Shelf(tmp_path)
    at, past = Shelf.key("at", "pdf", "en", "c", PUBLIC), Shelf.key("past", "pdf", "en", "c", PUBLIC)
    shelf.put(at, (200, b"%" * MAX_ANSWER_BYTES, "application/pdf", "list.pdf"))
    shelf.put(past, (200, b"%" * (MAX_ANSWER_BYTES + 1), "application/pdf", "list.pdf"))
    assert shelf.get(at) == (200, b"%" * MAX_ANSWER_BYTES, "application/pdf", "list.pdf")
    assert shelf.get(past) is None and not shelf.path(past).exists()


def test_a_temporary_file_left_by_a_stopped_writer_is_removed(tmp_path):
    shelf = Shelf(tmp_path)
    left = tmp_path / ".abc.tmp"
    left.write_bytes(b"half an entry")
    fresh = tmp_path / ".def.tmp"
    fresh.write_bytes(b"being written")
    old = shelf_module.STALE_TEMP_SECONDS + 60
    st = left.stat()
    os.utime(left, (st.st_atime - old, st.st_mtime - old))
    assert shelf.sweep() == 1
    assert not left.exists() and fresh.exists()  # one being written now is left alone


def _viewer_cli(*args: str, env: dict | None = None):
    import subprocess
    import sys

    exe = [sys.executable, "-m", "builder.cli", "viewer", "--port", str(_free_ports(1)[0]), *args]
    return subprocess.run(exe, capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)


def test_a_cache_folder_that_cannot_be_written_is_a_usage_error(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    r = _viewer_cli("--cache-dir", str(blocker / "viewer"))
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "--cache-dir" in lines[0] and "--no-cache" in lines[0], r.stderr
    assert "Traceback" not in r.stderr


def test_cache_dir_and_no_cache_together_are_a_usage_error(tmp_path):
    r = _viewer_cli("--cache-dir", str(tmp_path), "--no-cache")
    assert r.returncode == 2
    assert r.stderr.strip() == "daimyo: error: --cache-dir and --no-cache cannot be used together: give one of them"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow  # starts a server process
@pytest.mark.skipif(os.name == "nt", reason="the viewer's processes need a POSIX system here")
def test_a_default_folder_that_cannot_be_written_is_said_and_the_viewer_draws_alone(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    env = dict(os.environ, DAIMYO_CACHE_DIR=str(blocker / "daimyo"), DAIMYO_VIEWER=PUBLIC)
    (port,) = _free_ports(1)
    exe = [sys.executable, "-m", "builder.cli", "viewer", "--port", str(port)]
    proc = subprocess.Popen(exe, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
    try:
        wait_until_up(port, proc)
        code = _code()
        assert _get(port, f"/v/{code}")[1][HEADER] == "drawn"
        assert _get(port, f"/v/{code}")[1][HEADER] == "memory"
    finally:
        proc.terminate()
        proc.wait(30)
    err = proc.stderr.read().decode()
    assert "daimyo viewer: warning: the cache folder" in err and "--cache-dir" in err, err
    assert "Traceback" not in err
