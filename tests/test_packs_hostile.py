"""Pack registries that misbehave, and clumsy or hostile input to ``daimyo pack ...``: every
answer is one clear line with the documented exit code, never an internal error, and nothing is
written unless the whole pack arrived and checked."""

from __future__ import annotations

import json

import pytest
from regserver import Server
from test_packs_registry import club, index, one_error


@pytest.fixture
def reg(tmp_path, monkeypatch):
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


def files(folder) -> dict:
    return (
        {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
        if folder.exists()
        else {}
    )


# -- downloads -----------------------------------------------------------------------------------


def test_a_registry_that_trickles_is_given_up_at_the_total_deadline(cli, served, monkeypatch):
    from builder import limits

    srv, folder, packs, _ = served
    index(cli, folder)
    monkeypatch.setattr(limits, "DOWNLOAD_TOTAL_SECONDS", 1.0)
    monkeypatch.setattr(limits, "DOWNLOAD_TIMEOUT_SECONDS", 5.0)  # far more than the server's pauses
    srv.trickle["/registry/club-1.yaml"] = 0.1  # a byte every 100 ms: never silent long enough to time out
    one_error(
        cli("pack", "install", "Club cards"),
        f"{srv.url}/registry/club-1.yaml: error registry.download: download took longer than 1 s "
        "(DOWNLOAD_TOTAL_SECONDS)",
    )
    assert not packs.exists()
    srv.trickle["/slow/index.json"] = 0.1  # the index too
    monkeypatch.setenv("DAIMYO_REGISTRY", f"{srv.url}/slow/index.json")
    one_error(cli("pack", "search"), "download took longer than 1 s")


def test_headers_that_trickle_are_given_up_at_the_total_deadline(served, monkeypatch):
    import socket
    import threading

    from builder import limits
    from builder.errors import DaimyoError
    from builder.packs.registry import fetch

    monkeypatch.setattr(limits, "DOWNLOAD_TOTAL_SECONDS", 1.0)
    monkeypatch.setattr(limits, "DOWNLOAD_TIMEOUT_SECONDS", 5.0)  # far more than the server's pauses
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def drip():
        conn, _ = listener.accept()
        with conn:
            conn.recv(65536)
            for _ in range(100):  # bounded: 10 s at most
                try:
                    conn.sendall(b"a" if _ else b"HTTP/1.1 200 OK\r\nX-Slow: ")  # one header, never ended
                except OSError:
                    return
                if stop.wait(0.1):
                    return
            stop.wait(30)  # then silent, the connection held open

    t = threading.Thread(target=drip, daemon=True)
    t.start()
    try:
        with pytest.raises(DaimyoError) as exc:
            fetch(f"http://127.0.0.1:{listener.getsockname()[1]}/index.json")
        assert "download took longer than 1 s (DOWNLOAD_TOTAL_SECONDS)" in exc.value.lines()[0]
    finally:
        stop.set()
        listener.close()
        t.join(30)


BAD_ANSWERS = {
    "/bad-status": (b"HELLO THERE\r\n\r\n", "not an HTTP answer"),
    "/headers": (b"HTTP/1.1 200 OK\r\n" + b"X-A: b\r\n" * 101 + b"\r\n", "not an HTTP answer"),
    "/long-line": (b"HTTP/1.1 200 OK\r\nX-A: " + b"b" * 70000 + b"\r\n\r\n", "not an HTTP answer"),
    "/chunks": (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "cut short"),
    "/cut-chunks": (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n100\r\nabc", "cut short"),
}


@pytest.mark.parametrize("path", sorted(BAD_ANSWERS))
def test_an_answer_that_is_not_http_is_one_line(cli, served, monkeypatch, path):
    srv, folder, packs, _ = served
    answer, words = BAD_ANSWERS[path]
    srv.raw[path] = answer
    index(cli, folder)
    one_error(cli("pack", "install", f"{srv.url}{path}"), f"{srv.url}{path}: error registry.download:", words)
    monkeypatch.setenv("DAIMYO_REGISTRY", f"{srv.url}{path}")
    one_error(cli("pack", "search"), words)
    # a pack whose download answers so, from a good index
    data = json.loads((folder / "index.json").read_text())
    data["packs"][0]["url"] = path
    (folder / "index.json").write_text(json.dumps(data))
    monkeypatch.setenv("DAIMYO_REGISTRY", f"{srv.url}/registry/index.json")
    one_error(cli("pack", "install", "Club cards"), words)
    assert not packs.exists()


@pytest.mark.parametrize(
    "address", ["http://[::1", "http://[::1/index.json", "http://127.0.0.1:99999/x", "http://[zz]/"]
)
def test_an_address_that_cannot_be_one_is_one_line(cli, reg, monkeypatch, address):
    _, packs, _ = reg
    one_error(cli("pack", "install", address), address)
    monkeypatch.setenv("DAIMYO_REGISTRY", address)
    one_error(cli("pack", "search"), address)
    one_error(cli("pack", "install", "Club cards"), address)
    assert not packs.exists()


def test_an_address_in_the_config_file_that_cannot_be_one(cli, reg, tmp_path, monkeypatch):
    monkeypatch.delenv("DAIMYO_REGISTRY", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    (tmp_path / "config" / "daimyo").mkdir(parents=True)
    (tmp_path / "config" / "daimyo" / "config.toml").write_text('registries = ["http://[::1"]\n')
    one_error(cli("pack", "search"), "http://[::1")


def test_an_index_naming_an_address_that_cannot_be_one(cli, served):
    _srv, folder, _packs, _ = served
    index(cli, folder)
    data = json.loads((folder / "index.json").read_text())
    data["packs"][0]["url"] = "http://[::1/club.yaml"
    (folder / "index.json").write_text(json.dumps(data))
    one_error(cli("pack", "search"), "http://[::1/club.yaml")


def test_a_download_cut_short_installs_nothing_even_when_the_part_checks(cli, served):
    srv, _folder, packs, _ = served
    whole = club("1").encode()
    part = whole[: whole.index(b"  - name: Club Archers")]  # half the cards: a valid pack by itself
    srv.raw["/cut.yaml"] = (
        b"HTTP/1.1 200 OK\r\nContent-Length: " + str(len(whole)).encode() + b"\r\nConnection: close\r\n\r\n" + part
    )
    one_error(
        cli("pack", "install", f"{srv.url}/cut.yaml"),
        f"download cut short: {len(part):,} bytes of the {len(whole):,} announced arrived",
    )
    assert not packs.exists()
    srv.raw["/whole.yaml"] = srv.raw["/cut.yaml"][: -len(part)] + whole
    assert cli("pack", "install", f"{srv.url}/whole.yaml").code == 0


@pytest.mark.parametrize("target", ["file:///etc/passwd", "data:text/plain,system:%20senshiai", "ftp://127.0.0.1/x"])
def test_a_redirect_to_another_scheme_names_it(served, target):
    from builder.errors import DaimyoError
    from builder.packs.registry import fetch

    srv, *_ = served
    srv.redirects["/away"] = target
    with pytest.raises(DaimyoError) as exc:
        fetch(f"{srv.url}/away")
    line = exc.value.lines()[0]
    assert f"redirected to '{target}', which is not http or https" in line, line
    assert "too many" not in line


# -- text from a registry ------------------------------------------------------------------------


def hostile_index(folder, **fields):
    data = json.loads((folder / "index.json").read_text())
    data["packs"][0].update(fields)
    (folder / "index.json").write_text(json.dumps(data))


def test_a_line_break_in_an_index_cannot_forge_a_search_line(cli, served):
    _srv, folder, _packs, _ = served
    index(cli, folder)
    hostile_index(
        folder,
        description="Cards\nEvil pack 9 (senshiai)  [installed]\r\x1b[2Kgone",
        authors=["Ann\u2028Bob"],
        licence="CC\x85BY",
    )
    r = cli("pack", "search")
    assert r.code == 0, r
    assert r.stdout.splitlines() == [
        "Club cards 1 (senshiai)",
        "    Cards\\nEvil pack 9 (senshiai)  [installed]\\r\\x1b[2Kgone",
        "    Ann\\u2028Bob, CC\\x85BY",
    ]


def test_bidi_controls_from_a_registry_are_shown_escaped(cli, served):
    _srv, folder, _packs, _ = served
    (folder / "club-1.yaml").write_text(club("1").replace("Club cards", "Evil\u202egnp.exe"))
    index(cli, folder)
    r = cli("pack", "search")
    assert r.stdout.splitlines()[0] == "Evil\\u202egnp.exe 1 (senshiai)", r
    r = cli("pack", "install", "Evil\u202egnp.exe")
    assert r.code == 0, r
    assert "\u202e" not in r.stdout and "Evil\\u202egnp.exe 1 (senshiai): installed" in r.stdout
    for args in (("pack", "list"), ("pack", "check", "Evil\u202egnp.exe"), ("pack", "remove", "Evil\u202egnp.exe")):
        r = cli(*args)
        assert "\u202e" not in r.stdout + r.stderr and "Evil\\u202egnp.exe" in r.stdout, (args, r)


def test_the_web_packs_page_shows_registry_text_escaped(served):
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from builder.web.app import create_app

    _srv, folder, _packs, work = served
    (folder / "club-1.yaml").write_text(club("1").replace("Club cards", "Evil\u202egnp.exe"))
    from builder.packs.registry import build_index, dump_index

    (folder / "index.json").write_text(dump_index(build_index(folder)[0]))
    hostile_index(folder, description="one\u2066two\nthree")
    app = create_app(work, token="t" * 24, port=8765)
    with TestClient(app, base_url="http://127.0.0.1:8765") as c:
        assert c.get("/?token=" + "t" * 24, follow_redirects=False).status_code == 303
        text = c.get("/packs").text
    assert "Evil\\u202egnp.exe" in text and "one\\u2066two\\nthree" in text
    import re

    shown = re.sub(r'(data-pack|value)="[^"]*"', "", text)  # attributes hold the name itself, unseen
    assert "\u202e" not in shown and "\u2066" not in shown


# -- pack index ----------------------------------------------------------------------------------


def test_pack_index_replaces_only_an_index_without_force(cli, reg):
    folder, _, work = reg
    (work / "mylist.yaml").write_text("system: senshiai\ncards: {}\n")
    r = cli("pack", "index", folder, "-o", "mylist.yaml")
    one_error(r, "mylist.yaml: file exists and is not a registry index; not overwritten (pass --force")
    assert (work / "mylist.yaml").read_text() == "system: senshiai\ncards: {}\n"
    one_error(cli("pack", "index", folder, "-o", folder / "club-1.yaml"), "not overwritten")
    assert (folder / "club-1.yaml").read_text() == club("1")
    # an index it wrote is written again, as a registry's CI does on every change
    assert cli("pack", "index", folder).code == 0
    assert cli("pack", "index", folder).code == 0
    assert cli("pack", "index", folder, "-o", "out.json").code == 0
    assert cli("pack", "index", folder, "-o", "out.json").code == 0
    r = cli("pack", "index", folder, "-o", "mylist.yaml", "--force")
    assert r.code == 0 and json.loads((work / "mylist.yaml").read_text())["daimyo_registry"] == 1


# -- identity ------------------------------------------------------------------------------------


def test_a_new_version_whose_name_is_spelt_otherwise_replaces_the_one_in_use(cli, served):
    _srv, folder, packs, work = served
    index(cli, folder)
    assert cli("pack", "install", "Club cards").code == 0
    (work / "deck.yaml").write_text("system: senshiai\npacks: [Club cards]\ncards: {Club Samurai: 1}\n")
    (folder / "club-2.yaml").write_text(club("2", power="3/1/3").replace("name: Club cards", "name: ClubCards"))
    index(cli, folder)
    r = cli("pack", "update", "--yes")
    assert r.code == 0, r
    assert r.stdout.splitlines()[-1].startswith("ClubCards 2 (senshiai): installed from ")
    assert r.stdout.splitlines()[-1].endswith(f"(was Club cards 1, kept): {packs / 'club-cards.yaml'}")
    assert sorted(p.name for p in packs.glob("*.yaml")) == ["club-cards.yaml"]
    res = json.loads(cli("check", "deck.yaml", "--format", "json").stdout)[0]
    assert res["packs"][-1]["version"] == "2"
    assert cli("pack", "list", "--outdated").stdout.strip() == "every installed pack is up to date"
    r = cli("pack", "remove", "CLUB-CARDS")
    assert r.code == 0, r
    assert not list(packs.glob("*.yaml"))
    r = cli("check", "deck.yaml")
    assert r.code == 2 and "pack file 'Club cards' not found" in r.stderr


def test_an_older_install_that_left_one_file_per_spelling_is_made_whole(cli, served):
    _srv, folder, packs, _work = served
    index(cli, folder)
    assert cli("pack", "install", "Club cards").code == 0
    (packs / "clubcards.yaml").write_bytes((packs / "club-cards.yaml").read_bytes())  # as an older daimyo left it
    (folder / "club-2.yaml").write_text(club("2"))
    index(cli, folder)
    assert cli("pack", "update", "--yes").code == 0
    assert sorted(p.name for p in packs.glob("*.yaml")) == ["club-cards.yaml"]
    assert 'version: "2"' in (packs / "club-cards.yaml").read_text()


# -- shadowing -----------------------------------------------------------------------------------

EVIL_EXAMPLE = """system: senshiai
name: Senshiai example cards
version: "9"
cards:
  - name: Club Samurai
    type: troop
    subtype: Samurai
    cost: II
    paths: [Earth]
    speed: 1
    power: 2/1/3
    assumed: invented for the test
"""


def test_a_registry_pack_named_like_a_bundled_one_needs_replace_and_lists_are_told(cli, served):
    from conftest import ROOT

    _srv, folder, packs, work = served
    (folder / "club-1.yaml").unlink()
    (folder / "example.yaml").write_text(EVIL_EXAMPLE)
    index(cli, folder)
    bundled = json.loads(cli("pack", "check", "Senshiai example cards", "--format", "json").stdout)[0]["hash"]
    deck = (ROOT / "examples" / "senshiai-northern-host.yaml").read_text()
    deck = deck.replace("packs: [packs/senshiai-example.yaml]", "packs: [Senshiai example cards]")
    deck += f"checked_with:\n  - pack: Senshiai example cards\n    name: Senshiai example cards\n    version: '1'\n    hash: {bundled[:23]}\n"
    (work / "deck.yaml").write_text(deck)
    assert cli("check", "deck.yaml").code == 0
    line = one_error(
        cli("pack", "install", "Senshiai example cards"),
        "pack 'Senshiai example cards 9' from ",
        "has the name of the pack bundled with daimyo (senshiai-example.yaml)",
        "nothing installed",
        "pass --replace",
    )
    assert "index.json" in line
    assert not packs.exists()
    one_error(cli("pack", "install", folder / "example.yaml"), "pack bundled with daimyo", "--replace")
    assert not packs.exists()
    r = cli("pack", "install", "Senshiai example cards", "--replace")
    assert r.code == 0, r
    assert r.stderr.strip() == (
        "warning: 'Senshiai example cards 9' now takes the place of the pack bundled with daimyo "
        "(senshiai-example.yaml) in every list that names 'Senshiai example cards'; "
        "'daimyo pack remove \"Senshiai example cards\"' gives it back"
    )
    r = cli("check", "deck.yaml")
    assert r.code == 1  # the deck's cards are gone with the pack that took the bundled one's place
    notes = [ln.strip() for ln in r.stdout.splitlines() if ln.strip().startswith("note:")]
    assert len(notes) == 1 and notes[0].startswith(
        "note: pack 'Senshiai example cards' version 1 recorded by this list is the pack bundled with daimyo "
        "(senshiai-example.yaml), and the installed "
    ), r.stdout
    assert "takes its place (version 9): " in notes[0]
    assert cli("pack", "remove", "Senshiai example cards").code == 0
    assert cli("check", "deck.yaml").code == 0


def test_a_pack_from_another_registry_does_not_replace_the_one_in_use_unasked(cli, served, tmp_path, monkeypatch):
    srv, folder, packs, _work = served
    index(cli, folder)
    assert cli("pack", "install", "Club cards").code == 0
    other = tmp_path / "other"
    other.mkdir()
    (other / "club-99.yaml").write_text(club("99", power="9/9/9"))
    index(cli, other)
    monkeypatch.setenv("DAIMYO_REGISTRY", f"{srv.url}/registry/index.json {other}")
    one_error(
        cli("pack", "update", "--yes"),
        "pack 'Club cards 99' from ",
        f"has the name of 'Club cards 1' installed from {srv.url}/registry/index.json",
        "--replace",
    )
    one_error(cli("pack", "install", "Club cards"), "installed from", "--replace")
    assert "9/9/9" not in (packs / "club-cards.yaml").read_text()
    r = cli("pack", "update", "--yes", "--replace")
    assert r.code == 0, r
    assert "9/9/9" in (packs / "club-cards.yaml").read_text()
    assert "'daimyo pack install \"Club cards@1\"' gives it back" in r.stderr
    # a newer version from the registry it came from needs no flag
    (other / "club-100.yaml").write_text(club("100"))
    index(cli, other)
    assert cli("pack", "update", "--yes").code == 0


# -- the size of a pack --------------------------------------------------------------------------


def big_pack(n: int, flow: bool = False) -> str:
    head = 'system: senshiai\nname: Big pack\nversion: "1"\n'
    if flow:
        return head + "cards: [" + ", ".join(f"{{name: C{i}, type: event, assumed: x}}" for i in range(n)) + "]\n"
    return head + "cards:\n" + "".join(f"  - name: Card {i}\n    type: event\n    assumed: made up\n" for i in range(n))


def test_the_entry_count_at_and_past_the_bound():
    from builder.limits import MAX_PACK_ENTRIES
    from builder.yamlio import entries_over

    for flow in (False, True):
        assert not entries_over(big_pack(MAX_PACK_ENTRIES, flow), MAX_PACK_ENTRIES)
        assert entries_over(big_pack(MAX_PACK_ENTRIES + 1, flow), MAX_PACK_ENTRIES)
    # several sections count together; values inside an entry count towards the values only
    two = big_pack(3) + "terrains:\n  - {name: T, type: terrain, paths: [a, b, c, d, e, f, g], assumed: x}\n"
    assert not entries_over(two, 4) and entries_over(two, 3)
    values = 1 + 6 + 2 + 3 * 7 + 2 + 16  # every key, value, mapping and list: top, cards, terrains
    assert not entries_over(two, 4, values) and entries_over(two, 4, values - 1)


def test_a_pack_past_the_entry_bound_is_refused_in_one_line_everywhere(cli, reg, monkeypatch):
    from builder import limits

    folder, packs, work = reg
    monkeypatch.setattr(limits, "MAX_PACK_ENTRIES", 40)
    (work / "at.yaml").write_text(big_pack(40))
    (work / "past.yaml").write_text(big_pack(41))
    (work / "flow.yaml").write_text(big_pack(41, flow=True))
    (work / "deck.yaml").write_text("system: senshiai\npacks: [past.yaml]\ncards: {Card 1: 1}\n")
    words = "more than 40 entries or 200,000 values (MAX_PACK_ENTRIES); not read (split it into packs of at most 40"
    for name in ("past.yaml", "flow.yaml"):
        one_error(cli("pack", "install", name), f"{name}:1:1: error pack.yaml: {words}")
        one_error(cli("pack", "check", name), words)
    assert not packs.exists()
    one_error(cli("check", "deck.yaml"), words)
    r = cli("pack", "install", "at.yaml")
    assert r.code == 0, r
    (folder / "big.yaml").write_text(big_pack(41))
    one_error(cli("pack", "index", folder), words)
    rows = "section,name,type,assumed\n" + "".join(f"cards,Card {i},event,x\n" for i in range(41))
    (work / "big.csv").write_text("# system: senshiai\n" + rows)
    one_error(cli("pack", "import", "big.csv", "-o", "out.yaml"), "41 rows, more than the 40 entries of a pack")
    assert not (work / "out.yaml").exists()


# -- packs that need packs -----------------------------------------------------------------------


def chain(folder, n: int) -> None:
    for i in range(n):
        needs = f"needs: [Link {i + 1}]\n" if i < n - 1 else ""
        (folder / f"link-{i}.yaml").write_text(f"system: senshiai\nname: Link {i}\nversion: '1'\n{needs}")


def test_an_install_brings_at_most_its_bound_of_packs(cli, reg, monkeypatch):
    from builder import limits

    folder, packs, _work = reg
    monkeypatch.setenv("DAIMYO_REGISTRY", str(folder))
    monkeypatch.setattr(limits, "MAX_PACKS_PER_INSTALL", 5)
    chain(folder, 6)
    index(cli, folder)
    one_error(
        cli("pack", "install", "Link 0"), "pack 'Link 0 1' needs more than 5 packs (MAX_PACKS_PER_INSTALL); nothing"
    )
    assert not packs.exists()
    r = cli("pack", "install", "Link 1")  # Link 1 ... Link 5: five packs
    assert r.code == 0, r
    assert len(r.stdout.splitlines()) == 5 and r.stdout.splitlines()[-1].startswith("Link 1 1 (senshiai): installed")


@pytest.mark.slow  # an index of 2,000 packs
def test_a_long_chain_of_needs_is_refused_not_followed(cli, reg, monkeypatch):
    folder, packs, _work = reg
    monkeypatch.setenv("DAIMYO_REGISTRY", str(folder))
    packs_ = [
        {"name": f"P{i}", "game": "senshiai", "version": "1", "sha256": "a" * 64, "url": f"p{i}.yaml"}
        | ({"needs": [f"P{i + 1}"]} if i < 1999 else {})
        for i in range(2000)
    ]
    (folder / "index.json").write_text(json.dumps({"daimyo_registry": 1, "packs": packs_}))
    one_error(cli("pack", "install", "P0"), "needs more than 50 packs (MAX_PACKS_PER_INSTALL)")
    assert not packs.exists()


def test_an_index_at_and_past_its_bound_of_pack_versions(cli, reg, monkeypatch):
    from builder import limits

    folder, _packs, _work = reg
    monkeypatch.setenv("DAIMYO_REGISTRY", str(folder))
    monkeypatch.setattr(limits, "MAX_INDEX_ENTRIES", 3)
    chain(folder, 2)  # with Club cards: three pack versions
    index(cli, folder)
    assert cli("pack", "search").code == 0
    chain(folder, 3)
    index(cli, folder)
    one_error(cli("pack", "search"), "error registry.index: more than 3 pack versions or 200,000 values")


def test_a_record_naming_a_file_outside_the_kept_versions_is_ignored(cli, served, tmp_path):
    _srv, folder, packs, _work = served
    index(cli, folder)
    assert cli("pack", "install", "Club cards").code == 0
    victim = tmp_path / "victim.yaml"
    victim.write_text(club("1"))
    data = json.loads((packs / ".installed.json").read_text())
    for bad in ("../victim.yaml", "../../victim.yaml", str(victim), ".versions/../../victim.yaml"):
        data["versions"].append(dict(data["versions"][0], file=bad, version="0"))
    (packs / ".installed.json").write_text(json.dumps(data))
    r = cli("pack", "remove", "Club cards")
    assert r.code == 0, r
    assert victim.read_text() == club("1")


def test_a_redirect_without_an_address_is_not_called_a_loop(served):
    from builder.errors import DaimyoError
    from builder.packs.registry import fetch

    srv, *_ = served
    srv.raw["/nowhere"] = b"HTTP/1.1 302 Found\r\nContent-Length: 0\r\n\r\n"
    with pytest.raises(DaimyoError) as exc:
        fetch(f"{srv.url}/nowhere")
    assert "the server answered 302 Found without an address to go to" in exc.value.lines()[0]


def test_import_install_packs_does_not_replace_a_bundled_pack_unasked(cli, served):
    _srv, folder, packs, work = served
    (folder / "club-1.yaml").unlink()
    (folder / "example.yaml").write_text(EVIL_EXAMPLE)
    data = index(cli, folder)
    content = data["packs"][0]["content"]
    (work / "deck.yaml").write_text(
        "system: senshiai\npacks: [Senshiai example cards]\ncards: {Club Samurai: 1}\n"
        f"checked_with:\n  - pack: Senshiai example cards\n    name: Senshiai example cards\n"
        f"    version: '9'\n    hash: {content[:23]}\n"
    )
    r = cli("import", "deck.yaml", "-o", "mine.yaml", "--install-packs")
    assert r.code == 2, r
    assert "has the name of the pack bundled with daimyo" in r.stderr
    assert 'daimyo pack install "Senshiai example cards" --replace' in r.stderr and "pass --replace" not in r.stderr
    assert not packs.exists()
