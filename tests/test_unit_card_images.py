"""Kensei unit cards as card images (``print --to images``) and as a Tabletop Simulator deck."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from PIL import Image

from builder.kit.layout import card_size
from builder.render.images import SHOP_BLEED

EX = Path(__file__).resolve().parent.parent / "examples"
LIST = EX / "kensei-buke.yaml"


def _data() -> list[dict]:
    """The troop profiles of the list, as the roster's unit cards print them."""
    from builder.check import load_checked
    from builder.games.kensei.roster import unit_card_data

    _, catalog, lst, _ = load_checked(LIST)
    return unit_card_data(lst, catalog)


def _units(cli) -> list[str]:
    return [d["name"] for d in _data()]


@pytest.mark.parametrize(("card", "bleed"), [("poker", None), ("tarot", None), ("poker", 1.0)])
def test_unit_cards_as_images(cli, tmp_path, card, bleed):
    names = _units(cli)
    assert len(names) >= 2
    args = ["--card", card] + ([] if bleed is None else ["--bleed", str(bleed)])
    r = cli("print", LIST, "--to", "images", tmp_path / "img", *args)
    assert r.code == 0, r
    rows = list(csv.DictReader((tmp_path / "img" / "manifest.csv").open()))
    fronts = [row for row in rows if row["side"] == "front"]
    backs = [row for row in rows if row["side"] == "back"]
    assert [row["card"] for row in fronts] == names
    assert len(backs) == 1 and int(backs[0]["count"]) == len(names)
    w, h = card_size(card)
    b = SHOP_BLEED if bleed is None else bleed
    size = (round((w + 2 * b) / 25.4 * 300), round((h + 2 * b) / 25.4 * 300))
    for row in fronts + backs:
        im = Image.open(tmp_path / "img" / row["file"])
        assert im.size == size and (int(row["width_px"]), int(row["height_px"])) == size
        assert all(abs(v - 300) < 0.01 for v in im.info["dpi"])
        if row["side"] == "front":
            assert row["back_file"] == backs[0]["file"]
            # the name band: light grey across the top of the trim, the face below it white
            px = im.convert("RGB").getpixel((size[0] // 2, round((b + 2.0) / 25.4 * 300)))
            assert all(200 <= v <= 230 for v in px), px
            assert im.convert("RGB").getpixel((size[0] // 2, size[1] // 2)) == (255, 255, 255)
        else:
            px = im.convert("RGB").getpixel((5, 5))
            assert all(v < 80 for v in px), px


def test_unit_cards_refuse_a_size_no_sleeve_fits(cli, tmp_path):
    r = cli("print", LIST, "--to", "images", tmp_path / "img", "--card", "mini")
    assert r.code == 2 and len(r.stderr.splitlines()) == 1 and "sleeve size" in r.stderr
    assert not (tmp_path / "img").exists() or not list((tmp_path / "img").iterdir())


def test_unit_cards_to_tabletop_simulator(cli, tmp_path):
    names = _units(cli)
    r = cli("export", LIST, "--to", "tts", tmp_path / "tts", "--base-url", "https://example.org/k/")
    assert r.code == 0, r
    (out,) = (tmp_path / "tts").glob("*.json")
    saved = json.loads(out.read_text())
    (deck,) = [o for o in saved["ObjectStates"] if o["Name"] == "DeckCustom"]
    assert [c["Nickname"] for c in deck["ContainedObjects"]] == names
    assert len(deck["DeckIDs"]) == len(names)
    for c, d in zip(deck["ContainedObjects"], _data(), strict=True):
        for label, value, _ in d["stats"]:
            assert f"{label} {value if value is not None else '-'}" in c["Description"]
        for name, _, _ in d["abilities"]:
            assert name in c["Description"]
    for entry in deck["CustomDeck"].values():
        assert entry["FaceURL"].startswith("https://example.org/k/")
        sheet = Image.open(tmp_path / "tts" / entry["FaceURL"].rsplit("/", 1)[1])
        assert sheet.size[0] <= 4096 and sheet.size[1] <= 4096
