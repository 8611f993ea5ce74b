"""``daimyo registry add|list|remove``: registries kept in config.toml by command, each index
fetched and verified before it is saved; then ``pack search`` and ``pack install`` use them with
no file edited by hand."""

from __future__ import annotations

import json
import tomllib

import pytest
from regserver import Server
from test_packs_registry import club, index, one_error


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A registry folder with Club cards 1 and its index, a packs folder, a config folder."""
    folder = tmp_path / "registry"
    folder.mkdir()
    (folder / "club-1.yaml").write_text(club("1"))
    monkeypatch.setenv("DAIMYO_PACKS", str(tmp_path / "packs"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("DAIMYO_REGISTRY", raising=False)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return folder, tmp_path / "packs", tmp_path / "config" / "daimyo" / "config.toml"


def test_registry_add_folder_then_search_and_install(cli, home):
    folder, packs, cfg = home
    index(cli, folder)
    r = cli("registry", "add", folder)
    assert r.code == 0, r.stderr
    assert r.stdout.strip() == f"added registry 'registry' ({(folder / 'index.json').as_uri()}): 1 pack version"
    assert tomllib.loads(cfg.read_text())["registries"] == [{"name": "registry", "url": str(folder)}]
    r = cli("pack", "search", "club")
    assert r.code == 0, r.stderr
    assert r.stdout.splitlines()[0] == "Club cards 1 (senshiai)"
    r = cli("pack", "install", "Club cards")
    assert r.code == 0, r.stderr
    assert (packs / "club-cards.yaml").is_file()
    r = cli("registry", "list")
    assert r.code == 0 and r.stdout == f"registry\t{folder}\n"


def test_registry_add_http_then_search_and_install(cli, home):
    folder, packs, _cfg = home
    index(cli, folder)
    with Server(folder.parent) as srv:
        url = f"{srv.url}/registry/index.json"
        r = cli("registry", "add", url, "--name", "club")
        assert r.code == 0, r.stderr
        assert r.stdout.strip() == f"added registry 'club' ({url}): 1 pack version"
        r = cli("registry", "list", "--format", "json")
        assert json.loads(r.stdout) == [{"name": "club", "url": url, "index": url}]
        r = cli("pack", "search")
        assert r.code == 0 and "Club cards 1 (senshiai)" in r.stdout
        r = cli("pack", "install", "Club cards@1")
        assert r.code == 0, r.stderr
        assert f"installed from {srv.url}/registry/club-1.yaml" in r.stdout
    assert (packs / "club-cards.yaml").is_file()


def test_registry_add_keeps_the_other_settings_and_comments(cli, home):
    folder, _packs, cfg = home
    index(cli, folder)
    cfg.parent.mkdir(parents=True)
    before = '# my settings\nlang = "fr"  # French\n\n[print]\npaper = "a4"\n'
    cfg.write_text(before)
    assert cli("registry", "add", folder, "--name", "club").code == 0
    text = cfg.read_text()
    assert text.startswith('# my settings\nlang = "fr"  # French\n')
    assert text.endswith('\n[print]\npaper = "a4"\n')
    data = tomllib.loads(text)
    assert data["lang"] == "fr" and data["print"] == {"paper": "a4"}
    assert data["registries"] == [{"name": "club", "url": str(folder)}]
    r = cli("registry", "remove", "club")
    assert r.code == 0 and r.stdout.strip() == f"removed registry 'club' ({folder})"
    assert cfg.read_text() == before.replace("\n\n[print]", "\n\nregistries = []\n\n[print]")
    assert tomllib.loads(cfg.read_text())["registries"] == []


def test_registry_add_replaces_a_list_written_by_hand_and_keeps_it(cli, home, tmp_path):
    folder, _packs, cfg = home
    index(cli, folder)
    other = tmp_path / "other"
    other.mkdir()
    (other / "club-2.yaml").write_text(club("2").replace("Club cards", "Other cards"))
    index(cli, other)
    cfg.parent.mkdir(parents=True)
    cfg.write_text(f'registries = [\n  "{folder}",  # the club\n]\ntheme = "dark"\n')
    assert cli("registry", "add", other).code == 0
    data = tomllib.loads(cfg.read_text())
    assert data["theme"] == "dark"
    assert data["registries"] == [{"name": "registry", "url": str(folder)}, {"name": "other", "url": str(other)}]
    r = cli("pack", "search")
    assert "Club cards 1" in r.stdout and "Other cards 2" in r.stdout


def test_registry_refusals_are_one_line_and_write_nothing(cli, home, tmp_path):
    folder, _packs, cfg = home
    r = cli("registry", "add", folder)  # no index.json yet
    one_error(r, "index.json", "cannot read it")
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "index.json").write_text('{"packs": []}')
    one_error(cli("registry", "add", tmp_path / "bad"), "not a registry index")
    with Server(tmp_path) as srv:
        one_error(cli("registry", "add", f"{srv.url}/nothing/index.json"), "404")
    one_error(cli("registry", "add", "ftp://example.org/index.json"), "not an http, https or file address")
    assert not cfg.exists()
    index(cli, folder)
    one_error(cli("registry", "add", folder, "--name", "a b"), "registry name 'a b' is not usable")
    assert cli("registry", "add", folder).code == 0
    one_error(cli("registry", "add", folder, "--name", "again"), "already has that address")
    one_error(cli("registry", "remove", "nope"), "no registry 'nope'", "registries: registry")
    cfg.write_text("registries = [\n")
    one_error(cli("registry", "add", folder), "config file unreadable")
    assert cfg.read_text() == "registries = [\n"
