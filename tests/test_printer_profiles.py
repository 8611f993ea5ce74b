"""Printer profiles: saved, listed, removed and used by ``print --printer``; bad names, values and
files are one line and exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

EX = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture()
def store(tmp_path, monkeypatch):
    path = tmp_path / "config" / "printers.json"
    monkeypatch.setenv("DAIMYO_PRINTERS", str(path))
    return path


def _one_error(r) -> str:
    assert r.code == 2, r
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("daimyo: error: "), r.stderr
    return lines[0]


def test_save_list_remove(cli, store):
    r = cli("printer", "save", "office-laser", "--offset", "0.5,-1.2", "--scale-x", "1.01", "--scale-y", "0.99")
    assert r.code == 0, r
    data = json.loads(store.read_text())
    assert data["printers"]["office-laser"] == {"offset": [0.5, -1.2], "scale_x": 1.01, "scale_y": 0.99}
    assert cli("printer", "save", "home", "--scale-y", "1.1").code == 0
    r = cli("printer", "list")
    assert r.stdout.splitlines() == [
        "home: offset 0,0 mm, scale-x 1, scale-y 1.1",
        "office-laser: offset 0.5,-1.2 mm, scale-x 1.01, scale-y 0.99",
    ]
    assert cli("printer", "remove", "home").code == 0
    assert cli("printer", "list").stdout.splitlines() == [
        "office-laser: offset 0.5,-1.2 mm, scale-x 1.01, scale-y 0.99"
    ]
    line = _one_error(cli("printer", "remove", "home"))
    assert "no printer profile 'home' (saved: office-laser)" in line
    # no temporary file is left beside it
    assert sorted(p.name for p in store.parent.iterdir()) == ["printers.json"]


def test_a_saved_profile_is_not_replaced_without_force(cli, store):
    assert cli("printer", "save", "p1", "--offset", "1,1").code == 0
    line = _one_error(cli("printer", "save", "p1", "--offset", "2,2"))
    assert "exists" in line and "--force" in line
    assert json.loads(store.read_text())["printers"]["p1"]["offset"] == [1.0, 1.0]
    assert cli("printer", "save", "p1", "--offset", "2,2", "--force").code == 0
    assert json.loads(store.read_text())["printers"]["p1"]["offset"] == [2.0, 2.0]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["bad name"], "bad printer name 'bad name'"),
        (["-x"], None),  # an option, not a name: typer's own one line
        (["n" * 41], "bad printer name"),
        (["p", "--scale-x", "1.11"], "scale across the page must be between 0.9 and 1.1, not 1.11"),
        (["p", "--scale-y", "0.89"], "scale down the page must be between 0.9 and 1.1, not 0.89"),
        (["p", "--offset", "20.5,0"], "backs offset across must be between -20 and 20 mm, not 20.5"),
        (["p", "--offset", "left"], "bad offset 'left'"),
    ],
)
def test_bad_names_and_values_are_one_line(cli, store, args, words):
    r = cli("printer", "save", *args)
    assert r.code == 2, r
    if words:
        assert words in _one_error(r)
    assert not store.exists()


@pytest.mark.parametrize(
    "args", [["n" * 40], ["p", "--scale-x", "1.1"], ["p", "--scale-y", "0.9"], ["p", "--offset", "20,-20"]]
)
def test_values_at_the_bounds_are_saved(cli, store, args):
    assert cli("printer", "save", *args).code == 0


def test_a_broken_file_is_named_with_its_line_and_column(cli, store):
    store.parent.mkdir(parents=True)
    store.write_text('{"printers": {\n  "a": \n')
    line = _one_error(cli("printer", "list"))
    assert f"{store}:3:1: the printer profiles are not valid JSON" in line
    store.write_text('{"printers": {"a": {"scale_x": 3}}}')
    line = _one_error(cli("printer", "list"))
    assert "printer 'a': scale across the page must be between 0.9 and 1.1, not 3" in line
    # nothing is overwritten while the file cannot be read
    assert "exists" not in _one_error(cli("printer", "save", "b"))
    assert store.read_text() == '{"printers": {"a": {"scale_x": 3}}}'


def test_print_with_a_profile_prints_as_its_options_do(cli, store, tmp_path):
    assert cli("printer", "save", "p", "--offset", "1.5,-0.5", "--scale-x", "1.02", "--scale-y", "0.98").code == 0
    for name, args in (
        ("profile", ["--printer", "p"]),
        ("options", ["--offset", "1.5,-0.5", "--scale-x", "1.02", "--scale-y", "0.98"]),
        ("plain", []),
        ("override", ["--printer", "p", "--offset", "0,0"]),
        ("override-options", ["--offset", "0,0", "--scale-x", "1.02", "--scale-y", "0.98"]),
    ):
        (tmp_path / name).mkdir()
        r = cli("print", EX / "satsuma-samurai.yaml", "-o", tmp_path / name / "c.pdf", *args)
        assert r.code == 0, r

    def data(name):
        return (tmp_path / name / "c.pdf").read_bytes()

    assert data("profile") == data("options")
    assert data("profile") != data("plain")
    assert data("override") == data("override-options") != data("profile")
    line = _one_error(cli("print", EX / "satsuma-samurai.yaml", "-o", tmp_path / "x.pdf", "--printer", "none"))
    assert "no printer profile 'none' (saved: p)" in line
    assert not (tmp_path / "x.pdf").exists()


def test_the_library_lists_and_reads_profiles(store):
    from builder.render.api import render_list
    from builder.render.printers import get_profile, list_profiles, save_profile

    assert list_profiles() == []
    save_profile("a", "0.4,0.2", 1.0, 1.01)
    assert [p.name for p in list_profiles()] == ["a"]
    opts = get_profile("a").print_options()
    assert opts == {"offset": "0.4,0.2", "scale_x": 1.0, "scale_y": 1.01}
    out = render_list(EX / "satsuma-samurai.yaml", store.parent / "x.pdf", **opts)
    assert Path(out).stat().st_size > 0
