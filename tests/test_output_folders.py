"""An output named 'newdir/' (a trailing slash) or an existing folder is refused as a folder by
every command that writes a file, in one line, before anything is made; no --force is
suggested (none would help), and nothing is created."""

import shutil

import pytest

from conftest import ROOT

COMMANDS = {
    "new": ["new", "senshiai"],
    "export": ["export", "kensei-buke.yaml", "--to", "text"],
    "import": ["import", "kensei-buke.yaml"],
    "print roster": ["print", "kensei-buke.yaml"],
    "print cards": ["print", "senshiai-northern-host.yaml"],
    "print setup": ["print", "senji-three-daimyo.yaml"],
    "print-test": ["print-test"],
    "aid": ["aid", "kensei"],
    "pack new": ["pack", "new", "senshiai"],
    "stats": ["stats", "kensei-buke.yaml"],
}


@pytest.fixture
def work(tmp_path, monkeypatch):
    for f in ("kensei-buke.yaml", "senshiai-northern-host.yaml", "senji-three-daimyo.yaml"):
        shutil.copy(ROOT / "examples" / f, tmp_path / f)
    shutil.copytree(ROOT / "examples" / "packs", tmp_path / "packs")
    (tmp_path / "exists").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("force", [False, True])
def test_a_folder_is_refused_as_a_folder(cli, work, command, force):
    extra = ["--force"] if force else []
    for out, message in (
        ("newdir/", "names a folder (it ends with '/'), not a file"),
        ("exists", "is a folder, not a file"),
        ("exists/", "names a folder"),
    ):
        r = cli(*COMMANDS[command], "-o", out, *extra)
        assert r.code == 2, (out, r)
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and message in lines[0], (out, r.stderr)
        assert "--force" not in r.stderr and "Traceback" not in r.stderr
    assert not (work / "newdir").exists()
    assert list((work / "exists").iterdir()) == []


def test_an_image_folder_may_end_with_a_slash(cli, work):
    r = cli("print", "senshiai-northern-host.yaml", "--to", "images", "-o", "imgs/")
    assert r.code == 0, r
    assert (work / "imgs" / "manifest.csv").is_file()
