"""Exports record the packs a list was checked with; bundles carry them."""

from __future__ import annotations

import pytest

from conftest import ROOT

DECK = ROOT / "examples" / "senshiai-northern-host.yaml"


@pytest.mark.parametrize("fmt", ["text", "markdown", "json", "yaml", "code"])
def test_every_export_records_the_packs_and_reads_back(cli, tmp_path, fmt):
    out = tmp_path / f"deck.{fmt}"
    r = cli("export", DECK, "--to", fmt, "-o", out)
    assert r.code == 0, r.stderr
    r = cli("import", out)
    assert r.code == 0, r.stderr
    # a pasted or sent list (text, Markdown, a code) names its packs by name only, files by their path
    ref = "senshiai-example" if fmt in ("text", "markdown", "code") else "packs/senshiai-example.yaml"
    assert f"packs:\n  - {ref}\n" in r.stdout
    assert (
        f"checked_with:\n  - pack: {ref}\n    name: Senshiai example cards\n"
        "    version: '1'\n    hash: sha256:" in r.stdout
    )
    assert "unknown card" not in r.stderr  # the pack is found here: its cards are known
    assert "note:" not in r.stderr


def test_text_export_shows_the_packs_line(cli):
    r = cli("export", DECK, "--to", "text")
    # read as a post: no JSON literals
    assert "Packs: packs/senshiai-example.yaml\n" in r.stdout
    assert "Checked with: packs/senshiai-example.yaml (Senshiai example cards, version 1, sha256:" in r.stdout
    assert "[" not in r.stdout and "{" not in r.stdout


def test_bundle_layout_and_errors(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = cli("export", DECK, "--to", "bundle", "-o", "b.yaml")
    assert r.code == 0, r.stderr
    text = (tmp_path / "b.yaml").read_text()
    assert "\ndaimyo_bundle: 1\nlist:\n  system: senshiai\n" in text
    assert "  packs:\n    - Senshiai example cards\n" in text
    assert "\npacks:\n  - system: senshiai\n    name: Senshiai example cards\n    version: '1'\n" in text
    (tmp_path / "v9.yaml").write_text(text.replace("daimyo_bundle: 1", "daimyo_bundle: 9"))
    r = cli("import", "v9.yaml")
    assert r.code == 2
    assert r.stderr.strip() == (
        "v9.yaml:3:16: error: bundle format 9 is not known here (this daimyo reads format 1) (update daimyo)"
    )
    (tmp_path / "nolist.yaml").write_text("daimyo_bundle: 1\npacks: []\n")
    r = cli("import", "nolist.yaml")
    assert r.code == 2 and r.stderr.strip() == "nolist.yaml:1:1: error: a bundle needs 'list:' with the list"
    r = cli("import", DECK, "--install-packs")  # every pack it names is here: nothing to install
    assert r.code == 0 and "every pack the list names is here" in r.stderr
    (tmp_path / "lonely.yaml").write_text("system: senshiai\npacks: [nowhere-pack]\ncards: {}\n")
    r = cli("export", "lonely.yaml", "--to", "bundle")
    assert r.code == 2 and len(r.stderr.strip().splitlines()) == 1
    assert "pack 'nowhere-pack' of the list is not found, so it cannot travel in the bundle" in r.stderr


def test_bundle_with_a_broken_pack_is_refused_before_anything_is_installed(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cli("export", DECK, "--to", "bundle", "-o", "b.yaml")
    text = (tmp_path / "b.yaml").read_text().replace("power: 2/1/8", "power: lots", 1)
    (tmp_path / "b.yaml").write_text(text)
    r = cli("import", "b.yaml", "-o", "deck.yaml", "--install-packs")
    assert r.code == 2
    assert r.stderr.startswith("b.yaml: error catalog.value: pack 'Senshiai example cards': cards[")
    assert "power 'lots'" in r.stderr and len(r.stderr.splitlines()) == 1
    assert not (tmp_path / "deck.yaml").exists()
