"""Packs found by name: the list's folder, the workspace packs/ folder, the user packs folder
(DAIMYO_PACKS) and the bundled example packs, in that order."""

from __future__ import annotations

import shutil

import pytest

from conftest import ROOT

EXAMPLE_PACKS = ROOT / "examples" / "packs"


def _pack(path, name, system="senshiai", version="1", extra=""):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"system: {system}\nname: {name}\nversion: '{version}'\n{extra}")
    return path


@pytest.fixture
def places(tmp_path, monkeypatch):
    """An empty workspace (the current folder), a list folder and a user packs folder."""
    work = tmp_path / "work"
    lists = tmp_path / "lists"
    user = tmp_path / "user"
    for d in (work, lists, user):
        d.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("DAIMYO_PACKS", str(user))
    return work, lists, user


def test_bundled_example_pack_by_file_name_and_by_declared_name(places):
    from builder.catalog.packfiles import resolve_pack

    assert resolve_pack("senshiai-example") == EXAMPLE_PACKS / "senshiai-example.yaml"
    assert resolve_pack("Senshiai example cards") == EXAMPLE_PACKS / "senshiai-example.yaml"
    assert resolve_pack("SENSHIAI_EXAMPLE.yaml") == EXAMPLE_PACKS / "senshiai-example.yaml"
    assert resolve_pack("kensei-example-profiles") == EXAMPLE_PACKS / "kensei-profiles.yaml"
    assert resolve_pack("no-such-pack") is None


def test_search_order_list_folder_then_workspace_then_user_then_bundled(places):
    from builder.catalog.packfiles import candidates, resolve_pack

    work, lists, user = places
    bundled = EXAMPLE_PACKS / "senshiai-example.yaml"
    assert resolve_pack("senshiai-example", lists) == bundled
    u = _pack(user / "senshiai-example.yaml", "mine")
    assert resolve_pack("senshiai-example", lists) == u
    w = _pack(work / "packs" / "senshiai-example.yaml", "workspace")
    assert resolve_pack("senshiai-example", lists).resolve() == w.resolve()
    lp = _pack(lists / "packs" / "senshiai-example.yaml", "next to the list")
    assert resolve_pack("senshiai-example", lists) == lp
    lf = _pack(lists / "senshiai-example.yaml", "in the list folder")
    assert resolve_pack("senshiai-example", lists) == lf
    where = [c.where for c in candidates("senshiai-example", lists)]
    assert where == ["list", "list", "workspace", "user", "bundled"]


def test_a_path_as_written_wins_and_a_missing_path_falls_back_to_its_name(places):
    from builder.catalog.packfiles import resolve_pack

    _work, lists, _user = places
    own = _pack(lists / "data" / "cards.yaml", "cards")
    assert resolve_pack("data/cards.yaml", lists) == own
    # a list copied away from its packs/ folder still finds the bundled pack of that name
    assert resolve_pack("packs/senshiai-example.yaml", lists) == EXAMPLE_PACKS / "senshiai-example.yaml"
    assert resolve_pack("packs/cards.yaml", lists) is None


def test_the_list_folder_is_searched_by_file_name_only(places):
    from builder.catalog.packfiles import resolve_pack

    _work, lists, user = places
    _pack(lists / "deck.yaml", "house cards")  # a file in the list folder declaring a name
    assert resolve_pack("house cards", lists) is None
    u = _pack(user / "hc.yaml", "House Cards")
    assert resolve_pack("house cards", lists) == u


def test_a_pack_of_the_list_system_wins_over_one_of_another_system(places):
    from builder.catalog.packfiles import resolve_pack

    work, lists, user = places
    k = _pack(work / "packs" / "club.yaml", "club", system="kensei")
    s = _pack(user / "club.yaml", "club", system="senshiai")
    assert resolve_pack("club", lists).resolve() == k.resolve()
    assert resolve_pack("club", lists, system="senshiai") == s
    assert resolve_pack("club", lists, system="kensei").resolve() == k.resolve()


def test_names_only_ignores_paths_and_the_list_folder(places):
    from builder.catalog.packfiles import resolve_pack

    _work, lists, user = places
    _pack(lists / "secret.yaml", "secret")
    assert resolve_pack(str(lists / "secret.yaml"), names_only=True) is None
    assert resolve_pack("secret", lists, names_only=True) is None
    u = _pack(user / "secret.yaml", "secret")
    assert resolve_pack("../../x/secret.yaml", lists, names_only=True) == u


def test_daimyo_packs_holds_several_folders(places, monkeypatch, tmp_path):
    import os

    from builder.catalog.packfiles import resolve_pack, user_pack_dirs

    a, b = tmp_path / "a", tmp_path / "b"
    monkeypatch.setenv("DAIMYO_PACKS", f"{a}{os.pathsep}{b}")
    assert user_pack_dirs() == [a, b]
    pb = _pack(b / "x.yaml", "x")
    assert resolve_pack("x") == pb
    pa = _pack(a / "x.yaml", "x")
    assert resolve_pack("x") == pa


def test_platform_config_folder_without_daimyo_packs(monkeypatch, tmp_path):
    import sys

    from builder.catalog.packfiles import user_pack_dirs

    monkeypatch.delenv("DAIMYO_PACKS")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    if sys.platform.startswith("linux"):
        assert user_pack_dirs() == [tmp_path / "cfg" / "daimyo" / "packs"]


# -- through the commands, from a folder that holds nothing ------------------------------------


def test_check_with_pack_by_name_from_an_empty_folder(cli, places):
    work, _lists, _user = places
    shutil.copy(ROOT / "examples" / "senshiai-northern-host.yaml", work / "deck.yaml")
    text = (work / "deck.yaml").read_text().replace("packs: [packs/senshiai-example.yaml]\n", "")
    (work / "deck.yaml").write_text(text)
    r = cli("check", "deck.yaml")
    assert r.code == 1  # the example cards are unknown without the pack
    r = cli("check", "deck.yaml", "--pack", "senshiai-example")
    assert r.code == 0, r.stdout + r.stderr
    assert "legal (0 errors" in r.stdout


def test_list_packs_key_by_name(cli, places):
    _work, lists, _user = places
    text = (ROOT / "examples" / "senshiai-northern-host.yaml").read_text()
    (lists / "deck.yaml").write_text(text.replace("packs/senshiai-example.yaml", "Senshiai example cards"))
    r = cli("check", lists / "deck.yaml")
    assert r.code == 0, r.stdout + r.stderr


def test_copied_example_lists_find_their_packs(cli, places):
    _work, lists, _user = places
    for name in ("senshiai-northern-host.yaml", "senji-three-daimyo.yaml", "herocard-samurai.yaml"):
        shutil.copy(ROOT / "examples" / name, lists / name)
        r = cli("check", lists / name)
        assert r.code == 0, r.stdout + r.stderr


def test_new_with_pack_by_name_writes_the_name(cli, places):
    work, _lists, _user = places
    r = cli("new", "senshiai", "--size", "50", "--pack", "senshiai-example", "-o", "deck.yaml")
    assert r.code == 0, r.stderr  # written (and checked: an empty deck is illegal)
    assert "ILLEGAL" in r.stdout
    assert "packs:\n  - senshiai-example\n" in (work / "deck.yaml").read_text()
    r = cli("add", "deck.yaml", "Capital of the North")
    assert r.code in (0, 1) and "Capital of the North" in (work / "deck.yaml").read_text()


def test_unknown_pack_name_is_one_line_naming_the_places(cli, places):
    _work, lists, _user = places
    (lists / "deck.yaml").write_text("system: senshiai\npacks: [my-cards]\ncards: {}\n")
    r = cli("check", lists / "deck.yaml")
    assert r.code == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"{lists / 'deck.yaml'}:2:9: error: pack file 'my-cards' not found")
    assert "nor the name of a pack in the packs folders" in lines[0] and "daimyo pack list" in lines[0]
    r = cli("check", lists / "deck.yaml", "--pack", "nope")
    assert r.code == 2 and len(r.stderr.strip().splitlines()) == 1
