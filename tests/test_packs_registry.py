"""Pack registries served on 127.0.0.1: index, search, install, verify, update, remove, and every
refusal (hash mismatch, bad index, oversized, timeout, redirects, a newer daimyo, a kill)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest
from regserver import Server

from conftest import ROOT, examples

CLUB = """system: senshiai
name: Club cards
version: "{version}"
description: Cards of our club
authors: [Ann Example]
licence: CC-BY-4.0
cards:
  - name: Club Samurai
    type: troop
    subtype: Samurai
    cost: II
    paths: [Earth]
    speed: 1
    power: {power}
    assumed: invented for the test
  - name: Club Archers
    type: troop
    subtype: Archers
    cost: I
    paths: [Earth]
    speed: 1
    power: 1/1/1
    assumed: invented for the test
"""


def club(version="1", power="2/1/3", drop_archers=False) -> str:
    text = CLUB.format(version=version, power=power)
    if drop_archers:
        text = text[: text.index("  - name: Club Archers")]
    return text


@pytest.fixture
def reg(tmp_path, monkeypatch):
    """A registry folder with Club cards 1, its index, a packs folder and a work folder."""
    folder = tmp_path / "registry"
    folder.mkdir()
    (folder / "club-1.yaml").write_text(club("1"))
    packs = tmp_path / "packs"
    monkeypatch.setenv("DAIMYO_PACKS", str(packs))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return folder, packs, work


@pytest.fixture
def served(reg, monkeypatch):
    folder, packs, work = reg
    with Server(folder.parent) as srv:
        monkeypatch.setenv("DAIMYO_REGISTRY", f"{srv.url}/registry/index.json")
        yield srv, folder, packs, work


def index(cli, folder):
    r = cli("pack", "index", folder)
    assert r.code == 0, r.stderr
    return json.loads((folder / "index.json").read_text())


def one_error(r, *parts):
    assert r.code == 2, r
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    for p in parts:
        assert p in lines[0], lines[0]
    return lines[0]


# -- the index ---------------------------------------------------------------------------------


def test_pack_index_writes_every_field_of_the_format(cli, reg):
    import hashlib

    folder, _, _ = reg
    (folder / "more").mkdir()
    (folder / "more" / "club-2.yaml").write_text(club("2") + "needs: [Senshiai example cards]\ndaimyo: '0.1'\n")
    r = cli("pack", "index", folder)
    assert r.code == 0, r.stderr
    assert r.stdout.splitlines()[-1] == f"wrote {folder / 'index.json'}: 2 pack versions"
    data = json.loads((folder / "index.json").read_text())
    assert data["daimyo_registry"] == 1
    one, two = data["packs"]
    raw = (folder / "club-1.yaml").read_bytes()
    assert one == {
        "name": "Club cards",
        "game": "senshiai",
        "version": "1",
        "description": "Cards of our club",
        "authors": ["Ann Example"],
        "licence": "CC-BY-4.0",
        "sha256": hashlib.sha256(raw).hexdigest(),
        "size": len(raw),
        "content": one["content"],
        "url": "club-1.yaml",
    }
    assert one["content"].startswith("sha256:") and len(one["content"]) == 71
    assert two["url"] == "more/club-2.yaml" and two["needs"] == ["Senshiai example cards"] and two["daimyo"] == "0.1"
    r = cli("pack", "index", folder, "--base-url", "https://example.org/packs/")
    assert (
        json.loads((folder / "index.json").read_text())["packs"][1]["url"]
        == "https://example.org/packs/more/club-2.yaml"
    )


def test_pack_index_refuses_bad_packs_and_writes_nothing(cli, reg):
    folder, _, _ = reg
    (folder / "bad.yaml").write_text(club("3").replace("type: troop", "type: troup", 1))
    (folder / "noversion.yaml").write_text(club("1").replace('version: "1"\n', "").replace("Club cards", "Other"))
    (folder / "again.yaml").write_text(club("1") + "# the same version again\n")
    r = cli("pack", "index", folder)
    assert r.code == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 3, r.stderr
    assert any(ln.startswith(f"{folder / 'bad.yaml'}:") and "troup" in ln for ln in lines)
    assert any("pack 'Other' has no 'version:'" in ln for ln in lines)
    assert any("pack 'Club cards' version 1 is also in" in ln for ln in lines)
    assert not (folder / "index.json").exists()


@pytest.mark.parametrize(
    "text, expected",
    [
        ("not json at all", "1:1: error registry.index: not a registry index (a JSON object was expected)"),
        ('{"packs": []}', "1:1: error registry.index: not a registry index (no 'daimyo_registry' key)"),
        (
            '{"daimyo_registry": 2, "packs": []}',
            "1:21: error registry.index: registry index format 2 is not known here",
        ),
        (
            '{"daimyo_registry": 1,\n "packs": [{"name": "X", "game": "senshiai", "version": "1", "sha256": "abc", '
            '"url": "x.yaml"}]}',
            "2:72: error registry.index: 'sha256' must be 64 hexadecimal digits",
        ),
        (
            '{"daimyo_registry": 1,\n "packs": [{"name": "X", "game": "chess", "version": "1", "sha256": "'
            + "a" * 64
            + '", "url": "x.yaml"}]}',
            "2:34: error registry.index: unknown game 'chess'",
        ),
        (
            '{"daimyo_registry": 1, "packs": [{"name": "X", "game": "senshiai", "version": "1", "sha256": "'
            + "a" * 64
            + '", "url": "ftp://example.org/x.yaml"}]}',
            "address 'ftp://example.org/x.yaml' is not http, https or file",
        ),
        ('{"daimyo_registry": 1, "packs": [{"game": "senshiai"}]}', "pack has no 'name'"),
        (
            '{"daimyo_registry": 1, "packs": [{"name": "X", "game": "senshiai", "version": "1", "sha256": "'
            + "a" * 64
            + '", "url": "file:///etc/hostname"}]}',
            "address 'file:///etc/hostname' is a file on this machine, named by a registry on the network",
        ),
    ],
)
def test_a_bad_index_is_one_line_with_its_place(cli, served, text, expected):
    srv, folder, packs, _ = served
    (folder / "index.json").write_text(text)
    line = one_error(cli("pack", "search"), expected)
    assert line.startswith(f"{srv.url}/registry/index.json")
    assert one_error(cli("pack", "install", "Club cards"), expected)
    assert not packs.exists()


# -- search, install, update ------------------------------------------------------------------------


def test_registry_story_search_install_outdated_update_and_the_list_is_told(cli, served):
    srv, folder, packs, work = served
    index(cli, folder)
    r = cli("pack", "search", "club")
    assert r.code == 0, r.stderr
    assert r.stdout.splitlines() == ["Club cards 1 (senshiai)", "    Cards of our club", "    Ann Example, CC-BY-4.0"]
    assert cli("pack", "search", "--system", "kensei").code == 1
    r = cli("pack", "install", "club-cards")
    assert r.code == 0, r.stderr
    assert r.stdout.strip() == (
        f"Club cards 1 (senshiai): installed from {srv.url}/registry/club-1.yaml: {packs / 'club-cards.yaml'}"
    )
    assert (packs / "club-cards.yaml").read_text() == club("1")
    record = json.loads((packs / ".installed.json").read_text())["versions"][0]
    assert (record["name"], record["version"], record["source"]) == (
        "Club cards",
        "1",
        f"{srv.url}/registry/club-1.yaml",
    )
    assert "[installed]" in cli("pack", "search").stdout

    # a deck built with version 1 records it
    assert cli("new", "senshiai", "--size", "3", "--pack", "Club cards", "-o", "deck.yaml").code == 0
    assert cli("add", "deck.yaml", "Club Samurai", "--count", "2").code in (0, 1)  # legal or not, it is added
    assert cli("add", "deck.yaml", "Club Archers").code in (0, 1)
    text = (work / "deck.yaml").read_text()
    assert "checked_with:\n  - pack: Club cards\n    name: Club cards\n    version: '1'\n" in text

    # version 2: Club Samurai's Power changes, Club Archers goes
    (folder / "club-2.yaml").write_text(club("2", power="3/1/3", drop_archers=True))
    index(cli, folder)
    r = cli("pack", "list", "--outdated")
    assert r.code == 0
    assert r.stdout.strip() == (f"Club cards (senshiai): 1 in use, 2 available from {srv.url}/registry/index.json")
    assert json.loads(cli("pack", "list", "--outdated", "--format", "json").stdout) == [
        {
            "name": "Club cards",
            "game": "senshiai",
            "version": "1",
            "latest": "2",
            "registry": f"{srv.url}/registry/index.json",
        }
    ]
    r = cli("pack", "update")  # no terminal to ask: nothing replaced
    assert r.code == 1
    assert r.stdout.splitlines() == [
        "Club cards: 1 -> 2 (senshiai): 1 removed, 1 changed",
        "  Club Samurai: power 2/1/3 -> 3/1/3",
        "  Club Archers removed",
        "  list deck.yaml: Club Samurai: power 2/1/3 -> 3/1/3; Club Archers removed",
    ]
    assert r.stderr.strip() == "nothing replaced: pass --yes to install this update"
    assert (packs / "club-cards.yaml").read_text() == club("1")
    r = cli("pack", "update", "--yes")
    assert r.code == 0, r.stderr
    assert r.stdout.splitlines()[-1] == (
        f"Club cards 2 (senshiai): installed from {srv.url}/registry/club-2.yaml "
        f"(was Club cards 1, kept): {packs / 'club-cards.yaml'}"
    )
    assert cli("pack", "list", "--outdated").stdout.strip() == "every installed pack is up to date"
    listed = cli("pack", "list").stdout
    assert f"      from {srv.url}/registry/club-2.yaml\n      also kept: 1 (" in listed
    found = json.loads(cli("pack", "search", "--format", "json").stdout)
    assert [(e["name"], e["version"], e["url"]) for e in found] == [
        ("Club cards", "2", f"{srv.url}/registry/club-2.yaml")
    ]

    # the deck is told what changed for it, and how to go back
    r = cli("check", "deck.yaml")
    notes = [ln.strip() for ln in r.stdout.splitlines() if ln.strip().startswith("note:")]
    assert notes == [
        "note: pack 'Club cards' version 1 recorded by this list differs here (version 2): Club "
        "Samurai: power 2/1/3 -> 3/1/3; Club Archers removed; 'daimyo pack install \"Club cards@1\"' "
        "brings it back"
    ]
    r = cli("check", "deck.yaml", "--format", "json")
    assert json.loads(r.stdout)[0]["pack_changes"] == [notes[0][len("note: ") :]]
    served_before = list(srv.requests)
    r = cli("pack", "install", "Club cards@1")  # from the kept copy: the registry is not asked
    assert r.code == 0, r.stderr
    assert srv.requests == served_before
    assert (packs / "club-cards.yaml").read_text() == club("1")
    r = cli("check", "deck.yaml")
    assert "note:" not in r.stdout

    r = cli("pack", "remove", "Club cards@2")
    assert r.code == 0 and r.stdout.strip() == f"removed Club cards 2 ({srv.url}/registry/club-2.yaml)"
    assert (packs / "club-cards.yaml").read_text() == club("1")
    r = cli("pack", "remove", "Club cards")
    assert r.code == 0 and not (packs / "club-cards.yaml").exists()
    assert json.loads((packs / ".installed.json").read_text())["versions"] == []
    one_error(cli("pack", "remove", "Club cards"), "pack 'Club cards' is not installed")


def test_a_registry_in_a_local_folder_and_several_registries(cli, reg, tmp_path, monkeypatch):
    folder, _packs, _ = reg
    index(cli, folder)
    other = tmp_path / "other"
    other.mkdir()
    (other / "k.yaml").write_text("system: kensei\nname: Kensei extras\nversion: '5'\n")
    index(cli, other)
    monkeypatch.setenv("DAIMYO_REGISTRY", f"{folder} {other / 'index.json'}")
    r = cli("pack", "search")
    assert [ln for ln in r.stdout.splitlines() if not ln.startswith(" ")] == [
        "Kensei extras 5 (kensei)",
        "Club cards 1 (senshiai)",
    ]
    r = cli("pack", "install", "kensei extras")
    assert r.code == 0 and f"installed from {(other / 'k.yaml').as_uri()}" in r.stdout


def test_registries_from_the_config_file(cli, reg, tmp_path, monkeypatch):
    folder, _packs, _ = reg
    index(cli, folder)
    monkeypatch.delenv("DAIMYO_REGISTRY", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    one_error(cli("pack", "search"), "no pack registry is configured", "DAIMYO_REGISTRY")
    (tmp_path / "config" / "daimyo").mkdir(parents=True)
    cfg = tmp_path / "config" / "daimyo" / "config.toml"
    cfg.write_text(f'registries = ["{folder.as_posix()}"]\n')
    assert "Club cards 1 (senshiai)" in cli("pack", "search").stdout
    cfg.write_text("registries = [\n")
    one_error(cli("pack", "search"), f"{cfg}:", "config file unreadable")


# -- refusals ------------------------------------------------------------------------------------------


def test_a_download_that_differs_from_the_index_is_refused_and_nothing_is_written(cli, served):
    srv, folder, packs, _ = served
    index(cli, folder)
    (folder / "club-1.yaml").write_text(club("1", power="9/9/9"))  # changed after the index was made
    line = one_error(
        cli("pack", "install", "Club cards"),
        "error registry.hash: SHA-256 ",
        "differs from the index's",
        "nothing installed",
    )
    assert line.startswith(f"{srv.url}/registry/club-1.yaml: ")
    assert not packs.exists()
    # with a version in use, the refusal leaves it as it was
    index(cli, folder)
    assert cli("pack", "install", "Club cards").code == 0
    before = {p.name: p.read_bytes() for p in packs.rglob("*") if p.is_file()}
    (folder / "club-2.yaml").write_text(club("2"))
    index(cli, folder)
    (folder / "club-2.yaml").write_text(club("2") + "# tampered\n")
    one_error(cli("pack", "update", "--yes"), "SHA-256")
    assert {p.name: p.read_bytes() for p in packs.rglob("*") if p.is_file()} == before


def test_the_file_is_the_pack_the_index_names(cli, served):
    _srv, folder, packs, _ = served
    index(cli, folder)
    data = json.loads((folder / "index.json").read_text())
    data["packs"][0]["version"] = "7"  # bytes match, but the file says version 1
    (folder / "index.json").write_text(json.dumps(data))
    one_error(
        cli("pack", "install", "Club cards"),
        "the file is pack 'Club cards 1' (senshiai), the index says 'Club cards 7' (senshiai); nothing installed",
    )
    assert not packs.exists()


def test_download_size_limit_at_and_past_the_bound(served, monkeypatch):
    from builder import limits
    from builder.errors import DaimyoError
    from builder.packs.registry import fetch

    srv, *_ = served
    monkeypatch.setattr(limits, "MAX_DOWNLOAD_BYTES", 1000)
    for length in (True, False):  # announced by Content-Length, or only found while reading
        srv.blobs["/exact"] = (b"x" * 1000, length)
        srv.blobs["/over"] = (b"x" * 1001, length)
        assert fetch(f"{srv.url}/exact") == b"x" * 1000
        with pytest.raises(DaimyoError) as exc:
            fetch(f"{srv.url}/over")
        assert "too large" in str(exc.value.lines()[0]) and "limit of 1,000 bytes" in exc.value.lines()[0]


def test_an_oversized_pack_is_refused(cli, served, monkeypatch):
    from builder import limits

    _srv, folder, packs, _ = served
    (folder / "club-1.yaml").write_text(club("1") + "# " + "padding " * 400 + "\n")
    size = (folder / "club-1.yaml").stat().st_size
    index(cli, folder)
    monkeypatch.setattr(limits, "MAX_DOWNLOAD_BYTES", size - 1)  # the index is smaller than the pack
    one_error(
        cli("pack", "install", "Club cards"),
        f"too large: {size:,} bytes, more than the limit of {size - 1:,} bytes (MAX_DOWNLOAD_BYTES)",
    )
    assert not packs.exists()
    monkeypatch.setattr(limits, "MAX_DOWNLOAD_BYTES", size)
    assert cli("pack", "install", "Club cards").code == 0


def test_a_server_that_does_not_answer_times_out(cli, served, monkeypatch):
    from builder import limits

    srv, folder, packs, _ = served
    index(cli, folder)
    monkeypatch.setattr(limits, "DOWNLOAD_TIMEOUT_SECONDS", 0.3)
    srv.stall.add("/registry/club-1.yaml")
    one_error(
        cli("pack", "install", "Club cards"),
        f"{srv.url}/registry/club-1.yaml: error registry.download: no answer for 0.3 s (DOWNLOAD_TIMEOUT_SECONDS)",
    )
    assert not packs.exists()


def test_redirects_are_followed_up_to_the_limit_and_loops_refused(served):
    from builder import limits
    from builder.errors import DaimyoError
    from builder.packs.registry import fetch

    srv, *_ = served
    srv.blobs["/end"] = (b"arrived", True)
    n = limits.MAX_REDIRECTS
    for i in range(n + 1):  # /r0 -> /r1 -> ... -> /r{n} -> /end: n + 1 redirects from /r0
        srv.redirects[f"/r{i}"] = f"/r{i + 1}" if i < n else "/end"
    assert fetch(f"{srv.url}/r1") == b"arrived"  # exactly n redirects
    with pytest.raises(DaimyoError) as exc:
        fetch(f"{srv.url}/r0")  # n + 1
    assert f"too many redirects (more than {n}) or a redirect loop" in exc.value.lines()[0]
    srv.redirects["/loop-a"] = "/loop-b"
    srv.redirects["/loop-b"] = "/loop-a"
    with pytest.raises(DaimyoError) as exc:
        fetch(f"{srv.url}/loop-a")
    assert "redirect loop" in exc.value.lines()[0]
    srv.redirects["/elsewhere"] = "ftp://127.0.0.1/x"
    with pytest.raises(DaimyoError) as exc:
        fetch(f"{srv.url}/elsewhere")
    assert "redirected to 'ftp://127.0.0.1/x', which is not http or https" in exc.value.lines()[0]


def test_only_http_https_and_file_addresses(cli, reg, monkeypatch):
    _, packs, _ = reg
    one_error(cli("pack", "install", "ftp://example.org/club.yaml"), "not an http, https or file address (ftp)")
    monkeypatch.setenv("DAIMYO_REGISTRY", "gopher://example.org/index.json")
    one_error(cli("pack", "search"), "registry 'gopher://example.org/index.json' is not an http, https or file address")
    assert not packs.exists()


def test_a_pack_needing_a_newer_daimyo(cli, served):
    _srv, folder, _packs, _ = served
    (folder / "club-2.yaml").write_text(club("2") + "daimyo: '99.0'\n")
    index(cli, folder)
    assert "Club cards 2 (senshiai)  needs daimyo 99.0" in cli("pack", "search").stdout
    from builder import __version__

    one_error(
        cli("pack", "install", "Club cards@2"),
        f"pack 'Club cards' 2 needs daimyo 99.0 or newer; this is daimyo {__version__}",
    )
    r = cli("pack", "install", "Club cards")  # the newest this daimyo can use
    assert r.code == 0 and r.stdout.startswith("Club cards 1 (senshiai): installed")
    assert cli("pack", "list", "--outdated").stdout.strip() == "every installed pack is up to date"
    # a pack file that says so is refused too
    one_error(cli("pack", "install", folder / "club-2.yaml"), "needs daimyo 99.0 or newer")


def test_version_order_is_by_number():
    from builder.packs.registry import version_key

    assert version_key("1.10") > version_key("1.9") > version_key("1.2.3") > version_key("1")
    assert version_key("2024-06") > version_key("2024-05")
    assert version_key(None) < version_key("0")


def test_needed_packs_are_installed_first(cli, served):
    _srv, folder, packs, _ = served
    (folder / "base.yaml").write_text("system: senshiai\nname: Club base\nversion: '1'\n")
    (folder / "club-2.yaml").write_text(club("2") + "needs: [Club base]\n")
    index(cli, folder)
    r = cli("pack", "install", "Club cards")
    assert r.code == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("Club base 1 (senshiai): installed") and lines[1].startswith("Club cards 2 ")
    assert (packs / "club-base.yaml").is_file()


@pytest.mark.slow  # a process, killed mid-download
def test_a_kill_during_the_download_leaves_nothing_half_written(cli, served, tmp_path):
    srv, folder, packs, _work = served
    index(cli, folder)
    assert cli("pack", "install", "Club cards").code == 0
    before = {str(p.relative_to(packs)): p.read_bytes() for p in packs.rglob("*") if p.is_file()}
    (folder / "club-2.yaml").write_text(club("2", power="9/9/9"))
    index(cli, folder)
    # the update is a process of its own, killed mid-download; then a fresh one finishes it
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DAIMYO_PACKS": str(packs)}
    srv.half.add("/registry/club-2.yaml")
    proc = subprocess.Popen(
        [sys.executable, "-m", "builder", "pack", "update", "--yes"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert srv.half_sent.wait(60), "the download never started"
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGKILL
    after = {str(p.relative_to(packs)): p.read_bytes() for p in packs.rglob("*") if p.is_file()}
    assert after == before  # the version in use, the kept versions and the records as they were
    srv.half.clear()
    r = subprocess.run(
        [sys.executable, "-m", "builder", "pack", "update", "--yes"], env=env, capture_output=True, text=True
    )
    assert r.returncode == 0, r.stderr
    assert "9/9/9" in (packs / "club-cards.yaml").read_text()


# -- lists that travel -------------------------------------------------------------------------------


def test_import_names_the_install_command_and_installs_from_the_registry(cli, served, tmp_path, monkeypatch):
    srv, folder, _packs, work = served
    index(cli, folder)
    assert cli("pack", "install", "Club cards").code == 0
    (work / "deck.yaml").write_text(
        "system: senshiai\npacks: [Club cards]\nsize: 3\ncards: {Club Samurai: 2, Club Archers: 1}\n"
    )
    code = cli("export", "deck.yaml", "--to", "code").stdout.strip()
    # another machine: an empty packs folder, the same registry
    monkeypatch.setenv("DAIMYO_PACKS", str(tmp_path / "bob-packs"))
    r = cli("import", code, "-o", "bob.yaml")
    assert r.code == 0
    assert 'install it from a registry: daimyo pack install "Club cards@1", or import with --install-packs' in r.stderr
    r = cli("import", code, "-o", "bob.yaml", "--force", "--install-packs")
    assert r.code == 0, r.stderr
    assert f"Club cards 1 (senshiai): installed from {srv.url}/registry/club-1.yaml" in r.stderr
    assert (tmp_path / "bob-packs" / "club-cards.yaml").read_text() == club("1")
    res = json.loads(cli("check", "bob.yaml", "--format", "json").stdout)[0]
    assert res["summary"]["cards"] == 3 and res["packs"][0]["version"] == "1"
    # the registry's pack is not the one the list was made with: refused, nothing installed
    monkeypatch.setenv("DAIMYO_PACKS", str(tmp_path / "carol-packs"))
    (folder / "club-1.yaml").write_text(club("1", power="5/5/5"))
    index(cli, folder)
    one_error(cli("import", code, "-o", "carol.yaml", "--install-packs"), "is not the one the list was made with")
    assert not (tmp_path / "carol-packs").exists()


def test_a_list_can_stay_on_a_kept_version(cli, served):
    _srv, folder, _packs, work = served
    index(cli, folder)
    assert cli("pack", "install", "Club cards").code == 0
    (folder / "club-2.yaml").write_text(club("2", power="3/1/3"))
    index(cli, folder)
    assert cli("pack", "update", "--yes").code == 0
    (work / "old.yaml").write_text("system: senshiai\npacks: ['Club cards@1']\ncards: {Club Samurai: 1}\n")
    (work / "new.yaml").write_text("system: senshiai\npacks: [Club cards]\ncards: {Club Samurai: 1}\n")
    old = json.loads(cli("check", "old.yaml", "--format", "json").stdout)[0]
    new = json.loads(cli("check", "new.yaml", "--format", "json").stdout)[0]
    assert (old["packs"][0]["version"], new["packs"][0]["version"]) == ("1", "2")
    r = cli("catalog", "show", "senshiai", "Club Samurai", "--pack", "Club cards@1")
    assert r.code == 0 and "2/1/3" in r.stdout, r.stdout
    (work / "gone.yaml").write_text("system: senshiai\npacks: ['Club cards@7']\ncards: {Club Samurai: 1}\n")
    r = cli("check", "gone.yaml")
    assert r.code == 2 and "pack file 'Club cards@7' not found" in r.stderr


def test_offline_search_uses_the_last_index_read(cli, reg, monkeypatch):
    folder, packs, _work = reg
    index(cli, folder)
    with Server(folder.parent) as srv:
        url = f"{srv.url}/registry/index.json"
        monkeypatch.setenv("DAIMYO_REGISTRY", url)
        assert cli("pack", "search").code == 0
    r = cli("pack", "search")  # the server is gone
    assert r.code == 0 and r.stdout.startswith("Club cards 1 (senshiai)")
    assert r.stderr.startswith(f"{url}: note: not reachable; its index as read on ")
    r = cli("pack", "install", "Club cards")  # the pack itself cannot come from the copy of the index
    assert r.code == 2 and "cannot connect" in r.stderr and not packs.exists()


def test_update_replaces_a_hand_made_pack_only_with_force(cli, served):
    _srv, folder, packs, _work = served
    (folder / "club-2.yaml").write_text(club("2"))
    index(cli, folder)
    packs.mkdir()
    (packs / "club-cards.yaml").write_text(club("1").replace("invented for the test", "typed by hand"))
    assert cli("pack", "list", "--outdated").stdout.startswith("Club cards (senshiai): 1 in use, 2 available")
    one_error(cli("pack", "update", "--yes"), "that was not installed from a registry or a file", "--force")
    assert "typed by hand" in (packs / "club-cards.yaml").read_text()
    r = cli("pack", "update", "--yes", "--force")
    assert r.code == 0 and (packs / "club-cards.yaml").read_text() == club("2")
    assert "(was Club cards 1, kept)" in r.stdout  # the hand-made one is kept, not lost
    assert cli("pack", "install", "Club cards@1").code == 0
    assert "typed by hand" in (packs / "club-cards.yaml").read_text()


def test_interrupted_between_keeping_a_version_and_putting_it_in_use(cli, served, monkeypatch):
    """Every write is atomic, so an install stopped after the new version is kept and recorded
    but before it is put in use leaves the old version in use, whole; the next update finishes."""
    from builder.packs import store

    _srv, folder, packs, _work = served
    index(cli, folder)
    assert cli("pack", "install", "Club cards").code == 0
    (folder / "club-2.yaml").write_text(club("2", power="9/9/9"))
    index(cli, folder)

    def stop(rec):
        raise KeyboardInterrupt  # Ctrl-C, at the worst moment

    activate = store.activate
    monkeypatch.setattr(store, "activate", stop)
    assert cli("pack", "update", "--yes").code != 0
    monkeypatch.setattr(store, "activate", activate)
    assert (packs / "club-cards.yaml").read_text() == club("1")
    assert not [p for p in packs.rglob("*") if ".tmp" in p.name or p.name.startswith(".daimyo")]
    r = cli("check", "--format", "json", "--pack", "Club cards", ROOT / "examples" / "senshiai-northern-host.yaml")
    assert json.loads(r.stdout)[0]["packs"][-1]["version"] == "1"
    assert cli("pack", "list", "--outdated").stdout.startswith("Club cards (senshiai): 1 in use, 2 available")
    r = cli("pack", "update", "--yes")
    assert r.code == 0 and "9/9/9" in (packs / "club-cards.yaml").read_text()


@pytest.mark.slow  # hundreds of generated index files
def test_any_index_text_is_entries_or_one_clear_error():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from builder.errors import DaimyoError
    from builder.packs.registry import parse_index

    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.text(max_size=20),
        st.just("a" * 64),
        st.sampled_from(["senshiai", "kensei", "x.yaml", "1"]),
    )
    values = st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
        max_leaves=12,
    )
    keys = st.sampled_from(
        [
            "name",
            "game",
            "version",
            "sha256",
            "url",
            "size",
            "needs",
            "authors",
            "daimyo",
            "content",
            "description",
            "licence",
        ]
    )
    entry = st.dictionaries(keys, values, max_size=12)
    index = st.fixed_dictionaries(
        {"daimyo_registry": st.sampled_from([1, 1, 2, "1"]), "packs": st.one_of(st.lists(entry, max_size=3), values)}
    )

    @settings(max_examples=examples(300))  # the profile's: derandomized in the suite, random with DAIMYO_FUZZ
    @given(index)
    def run(data):
        try:
            entries = parse_index(json.dumps(data), "https://example.org/index.json")
        except DaimyoError as exc:
            lines = exc.lines()
            assert len(lines) == 1 and lines[0].startswith("https://example.org/index.json")
            return
        for e in entries:
            assert e.url.startswith("https://") and len(e.sha256) == 64

    run()


def test_a_name_in_several_games_needs_the_game(cli, served):
    _srv, folder, _packs, _work = served
    (folder / "k.yaml").write_text("system: kensei\nname: Club cards\nversion: '4'\n")
    index(cli, folder)
    one_error(
        cli("pack", "install", "Club cards"),
        "pack 'Club cards' is in the registries for several games (kensei, senshiai) (name the game with --system)",
    )
    r = cli("pack", "install", "Club cards", "--system", "kensei")
    assert r.code == 0 and r.stdout.startswith("Club cards 4 (kensei): installed")


# -- pack index: bounded, whatever folder it is given -------------------------------------------


def _versions(folder, n):
    for i in range(1, n + 1):
        (folder / f"club-{i}.yaml").write_text(club(str(i)))


def test_pack_index_indexes_packs_up_to_its_bound_and_refuses_one_more(cli, tmp_path, monkeypatch):
    from builder import limits

    monkeypatch.setattr(limits, "MAX_INDEX_PACKS", 3)
    folder = tmp_path / "registry"
    folder.mkdir()
    _versions(folder, 3)
    r = cli("pack", "index", folder)
    assert r.code == 0, r.stderr
    assert "wrote" in r.stdout and "3 pack versions" in r.stdout
    (folder / "index.json").unlink()
    _versions(folder, 4)
    r = cli("pack", "index", folder)
    assert r.code == 2
    assert r.stderr.splitlines() == [
        f"daimyo: error: {folder}: more than 3 pack files 3 folders deep (MAX_INDEX_PACKS); not indexed "
        "(give the folder holding the registry's packs)"
    ]
    assert not (folder / "index.json").exists()


def test_pack_index_looks_at_names_up_to_its_bound_and_refuses_one_more(cli, tmp_path, monkeypatch):
    from builder import limits

    monkeypatch.setattr(limits, "MAX_INDEX_FILES", 3)
    folder = tmp_path / "registry"
    (folder / "art").mkdir(parents=True)
    (folder / "art" / "a.png").write_bytes(b"")
    _versions(folder, 1)  # three names: art, art/a.png, club-1.yaml
    r = cli("pack", "index", folder, "-o", tmp_path / "index.json")
    assert r.code == 0, r.stderr
    (folder / "notes.txt").write_text("")
    r = cli("pack", "index", folder, "-o", tmp_path / "index2.json")
    assert r.code == 2
    assert r.stderr.splitlines() == [
        f"daimyo: error: {folder}: more than 3 files and folders 3 folders deep (MAX_INDEX_FILES); not indexed "
        "(give the folder holding the registry's packs)"
    ]
    assert not (tmp_path / "index2.json").exists()


def test_pack_index_does_not_follow_a_folder_link_that_loops(cli, tmp_path):
    folder = tmp_path / "registry"
    (folder / "sub").mkdir(parents=True)
    _versions(folder, 1)
    (folder / "sub" / "back").symlink_to(folder, target_is_directory=True)
    (folder / "loop").symlink_to(folder / "loop", target_is_directory=True)  # a link to itself
    r = cli("pack", "index", folder)
    assert r.code == 0, r.stderr
    assert "1 pack version" in r.stdout
