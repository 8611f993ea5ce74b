"""Card images for named print services and Tabletop Simulator decks within its limits."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from pdfcheck import example_deck
from PIL import Image

from builder.render.images import MPC_BRACKETS, SERVICES, TTS_MAX_PX, mpc_bracket

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
SENSHIAI = EXAMPLES / "senshiai-northern-host.yaml"
SATSUMA = EXAMPLES / "satsuma-samurai.yaml"
HEROCARD = EXAMPLES / "herocard-samurai.yaml"


@pytest.mark.parametrize(  # the quick loop prints for one service, the suite for every one
    "shop,size",
    [
        ("mpc", (822, 1122)),
        pytest.param("dtc", (825, 1125), marks=pytest.mark.slow),
        pytest.param("tgc", (825, 1125), marks=pytest.mark.slow),
    ],
)
def test_each_service_gets_its_published_poker_size(cli, tmp_path, shop, size):
    out = tmp_path / shop
    r = cli("print", SATSUMA, "--to", "images", out, "--service", shop)
    assert r.code == 0, r.stderr
    pngs = sorted(out.glob("*.png"))
    assert len(pngs) == 46 + 1  # 46 different cards and one back
    for png in pngs:
        with Image.open(png) as im:
            assert im.size == size
            assert im.info["dpi"][0] == pytest.approx(300, abs=0.01)
    # the frame lies inside the service's safe zone: no frame ink within bleed + safe of the edge
    svc = SERVICES[shop]
    with Image.open(pngs[0]) as im:
        line = im.convert("RGB").crop((0, size[1] // 2, size[0], size[1] // 2 + 1)).tobytes()  # r, g, b bytes
    row = [tuple(line[i : i + 3]) for i in range(0, len(line), 3)]
    dark = [i for i, (r, g, b) in enumerate(row) if r + g + b < 300]
    assert dark and min(dark) >= svc.bleed_px + svc.safe_px - 1 and max(dark) <= size[0] - svc.bleed_px - svc.safe_px


def test_the_png_says_its_true_resolution(cli, tmp_path):
    out = tmp_path / "hi"
    # two cards of a poker-size deck: the resolution is the same for every card
    assert cli("print", example_deck(tmp_path, 2), "--to", "images", out, "--dpi", "600").code == 0
    with Image.open(next(out.glob("0*.png"))) as im:
        assert im.size == (1650, 2250) and im.info["dpi"][0] == pytest.approx(600, abs=0.01)


def test_mpc_order_is_an_mpc_autofill_file_with_its_bracket(cli, tmp_path):
    out = tmp_path / "mpc"
    assert cli("print", SENSHIAI, "--to", "images", out, "--service", "mpc").code == 0
    root = ET.parse(out / "order.xml").getroot()
    assert root.tag == "order"
    assert root.findtext("details/quantity") == "50" and root.findtext("details/bracket") == "55"
    slots = [int(s) for card in root.iterfind("fronts/card") for s in card.findtext("slots").split(",")]
    assert sorted(slots) == list(range(50))  # every copy has its slot, once
    for card in root.iterfind("fronts/card"):
        assert (out / card.findtext("name")).is_file()
    assert (out / root.findtext("cardback")).is_file()


def test_dtc_and_tgc_orders_list_files_and_quantities(cli, tmp_path):
    out = tmp_path / "tgc"
    assert cli("print", SENSHIAI, "--to", "images", out, "--service", "tgc").code == 0
    lines = (out / "order.csv").read_text(encoding="utf-8").splitlines()
    assert lines[0] == "file,quantity,back_file"
    rows = [ln.split(",") for ln in lines[1:]]
    assert sum(int(q) for _, q, _ in rows) == 50 and all(
        (out / f).is_file() and (out / b).is_file() for f, _, b in rows
    )


def test_mpc_brackets_at_and_past_each_bound():
    assert mpc_bracket(1) == 18 and mpc_bracket(18) == 18 and mpc_bracket(19) == 36
    assert mpc_bracket(55) == 55 and mpc_bracket(56) == 72
    assert mpc_bracket(MPC_BRACKETS[-1]) == MPC_BRACKETS[-1] and mpc_bracket(MPC_BRACKETS[-1] + 1) is None


def test_unknown_service_and_service_without_images_are_one_line(cli, tmp_path):
    r = cli("print", SATSUMA, "--to", "images", tmp_path / "x", "--service", "kinkos")
    assert r.code == 2 and "unknown print service 'kinkos'" in r.stderr and r.stderr.count("\n") == 1
    r = cli("print", SATSUMA, "-o", tmp_path / "x.pdf", "--service", "mpc")
    assert r.code == 2 and r.stderr.count("\n") == 1


@pytest.mark.parametrize("card", ["poker", "tarot", "mini"])
def test_tts_sheets_are_at_most_4096_px_a_side(cli, tmp_path, card):
    out = tmp_path / card
    assert cli("export", SENSHIAI, "--to", "tts", out, "--card", card).code in (0, 2)
    for sheet in out.glob("*-sheet-*.jpg"):
        with Image.open(sheet) as im:
            assert im.size[0] <= TTS_MAX_PX and im.size[1] <= TTS_MAX_PX


def test_tts_with_a_base_url_starting_cards_and_descriptions(cli, tmp_path):
    out = tmp_path / "tts"
    r = cli("export", SENSHIAI, "--to", "tts", out, "--base-url", "https://example.org/decks")
    assert r.code == 0, r.stderr
    saved = json.loads(next(out.glob("*.json")).read_text(encoding="utf-8"))
    deck, *loose = saved["ObjectStates"]
    assert [o["Nickname"] for o in loose] == ["Capital of the North"]  # beside the deck, not in it
    assert len(deck["DeckIDs"]) == 49 and all(o["Nickname"] != "Capital of the North" for o in deck["ContainedObjects"])
    for custom in deck["CustomDeck"].values():
        for url in (custom["FaceURL"], custom["BackURL"]):
            assert url.startswith("https://example.org/decks/") and (out / url.rsplit("/", 1)[1]).is_file()
    rice = next(o for o in deck["ContainedObjects"] if o["Nickname"] == "Rice Fields")
    assert "Recruit: Troops may be recruited" in rice["Description"] and "Limit 2" in rice["Description"]


def test_tts_herocard_attribute_cards_lie_beside_the_deck(cli, tmp_path):
    out = tmp_path / "hc"
    assert cli("export", HEROCARD, "--to", "tts", out).code == 0
    saved = json.loads(next(out.glob("*.json")).read_text(encoding="utf-8"))
    _deck, *loose = saved["ObjectStates"]
    assert sorted(o["Nickname"] for o in loose) == ["Honor's Power", "Scholar's Wisdom", "Warrior's Strength"]
    assert len({o["Transform"]["posX"] for o in loose}) == 3  # side by side, not stacked


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("ftp:/nowhere", "the address must start with http:// or https://"),
        ("example.org/decks/", "the address must start with http:// or https://"),
        ("file:///home/me/decks/", "the address must start with http:// or https://"),
        ("https://", "the address names no host"),
        ("https://example.org/my decks/", "a web address holds no space"),
        ("https://example.org/decks/\nrm", "a web address holds no line break"),
        ("https://example.org/\r\ndecks/", "a web address holds no line break"),
        ("https://example.org/\tdecks/", "a web address holds no tab"),
        ("https://example.org/\x07decks/", "a web address holds no control character"),
    ],
)
def test_tts_base_url_must_be_a_web_address(cli, tmp_path, url, why):
    """An address with a blank or a scheme Tabletop Simulator cannot load is one line, exit 2,
    and nothing is written."""
    out = tmp_path / "t"
    r = cli("export", SENSHIAI, "--to", "tts", out, "--base-url", url)
    assert r.code == 2 and r.stderr.count("\n") == 1, r.stderr
    line = r.stderr.rstrip("\n")
    assert line.startswith("daimyo: error: bad --base-url '") and f": {why} (" in line, line
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_tts_base_url_of_http_with_an_escaped_space_is_taken(cli, tmp_path):
    out = tmp_path / "t"
    r = cli("export", SENSHIAI, "--to", "tts", out, "--base-url", "HTTP://example.org/my%20decks")
    assert r.code == 0, r.stderr
    saved = next(out.glob("*.json")).read_text(encoding="utf-8")
    assert "HTTP://example.org/my%20decks/" in saved
