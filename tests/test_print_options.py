"""Every print option means one thing on every face: a value at each bound prints, a value just
past it is refused with the same one message by the command line (exit 2), the web print page
(HTTP 400), its API (HTTP 400, JSON), a printer profile (exit 2, nothing saved) and the web's
remembered settings (HTTP 400, nothing written). The bounds are written here as numbers, so a
bound changed in the print options' model fails these tests; the web form's inputs carry the
model's bounds; the defaults are the same on the command line and the web."""

from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from builder.kit import printbounds
from builder.web.app import create_app

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "print-options-token-0123456789"
BASE = "http://127.0.0.1:8765"
DECK = "system: senshiai\nname: One card\npacks: [packs/senshiai-example.yaml]\ncards:\n  Capital of the North: 1\n"

SHOPS = "(use mpc, dtc or tgc)"
PAPER_HINT = "(such as 105x148 (A6))"
CARD_HINT = "(such as 63.5x88.9 (poker))"
SCALE_HINT = "(50 divided by the mm your printed 50 mm ruler measures, such as 1.01)"
OFFSET_HINT = "(the mm read on the alignment sheet's back, such as 0.5 or -1)"
GUTTER_HINT = "(mm between neighbouring cards, such as 0 or 3)"


def _paper(v: str) -> tuple[list[str], dict[str, str]]:
    return ["--paper", f"{v}x297", "--card", "20x30"], {
        "paper": "custom",
        "paper_w": v,
        "paper_h": "297",
        "card": "custom",
        "card_w": "20",
        "card_h": "30",
    }


def _paper_h(v: str) -> tuple[list[str], dict[str, str]]:
    return ["--paper", f"210x{v}", "--card", "20x30"], {
        "paper": "custom",
        "paper_w": "210",
        "paper_h": v,
        "card": "custom",
        "card_w": "20",
        "card_h": "30",
    }


def _card(v: str) -> tuple[list[str], dict[str, str]]:
    return ["--paper", "2000x2000", "--card", f"{v}x20"], {
        "paper": "custom",
        "paper_w": "2000",
        "paper_h": "2000",
        "card": "custom",
        "card_w": v,
        "card_h": "20",
    }


def _card_h(v: str) -> tuple[list[str], dict[str, str]]:
    return ["--paper", "2000x2000", "--card", f"20x{v}"], {
        "paper": "custom",
        "paper_w": "2000",
        "paper_h": "2000",
        "card": "custom",
        "card_w": "20",
        "card_h": v,
    }


# option: (how a value is given: (command-line arguments, web form fields), whether a printer
# profile keeps it (its arguments), the values at the bounds, the values just past them and the
# message of each)
NUMBERS = {
    "bleed": (
        lambda v: (["--bleed", v], {"bleed": v}),
        None,
        ("0", "6"),
        {
            "-0.1": "bleed must be between 0 and 6 mm, not -0.1 (3 mm is usual)",
            "6.1": "bleed must be between 0 and 6 mm, not 6.1 (3 mm is usual)",
        },
    ),
    "gutter": (
        lambda v: (["--gutter", v], {"gutter": v}),
        None,
        ("0", "50"),
        {
            "-0.1": f"gutter must be between 0 and 50 mm, not -0.1 {GUTTER_HINT}",
            "50.1": f"gutter must be between 0 and 50 mm, not 50.1 {GUTTER_HINT}",
        },
    ),
    "scale_x": (
        lambda v: (["--scale-x", v], {"scale_x": v}),
        lambda v: ["--scale-x", v],
        ("0.9", "1.1"),
        {
            "0.89": f"scale across the page must be between 0.9 and 1.1, not 0.89 {SCALE_HINT}",
            "1.11": f"scale across the page must be between 0.9 and 1.1, not 1.11 {SCALE_HINT}",
        },
    ),
    "scale_y": (
        lambda v: (["--scale-y", v], {"scale_y": v}),
        lambda v: ["--scale-y", v],
        ("0.9", "1.1"),
        {
            "0.89": f"scale down the page must be between 0.9 and 1.1, not 0.89 {SCALE_HINT}",
            "1.11": f"scale down the page must be between 0.9 and 1.1, not 1.11 {SCALE_HINT}",
        },
    ),
    "offset_x": (
        lambda v: (["--offset", f"{v},0"], {"offset_x": v}),
        lambda v: ["--offset", f"{v},0"],
        ("-20", "20"),
        {
            "-20.1": f"backs offset across must be between -20 and 20 mm, not -20.1 {OFFSET_HINT}",
            "20.1": f"backs offset across must be between -20 and 20 mm, not 20.1 {OFFSET_HINT}",
        },
    ),
    "offset_y": (
        lambda v: (["--offset", f"0,{v}"], {"offset_y": v}),
        lambda v: ["--offset", f"0,{v}"],
        ("-20", "20"),
        {
            "-20.1": f"backs offset up must be between -20 and 20 mm, not -20.1 {OFFSET_HINT}",
            "20.1": f"backs offset up must be between -20 and 20 mm, not 20.1 {OFFSET_HINT}",
        },
    ),
    "paper_w": (
        _paper,
        None,
        ("50", "2000"),
        {
            "49.9": f"paper '49.9x297' width must be between 50 and 2000 mm, not 49.9 {PAPER_HINT}",
            "2000.1": f"paper '2000.1x297' width must be between 50 and 2000 mm, not 2000.1 {PAPER_HINT}",
        },
    ),
    "paper_h": (
        _paper_h,
        None,
        ("50", "2000"),
        {
            "49.9": f"paper '210x49.9' height must be between 50 and 2000 mm, not 49.9 {PAPER_HINT}",
            "2000.1": f"paper '210x2000.1' height must be between 50 and 2000 mm, not 2000.1 {PAPER_HINT}",
        },
    ),
    "card_w": (
        _card,
        None,
        ("10", "1990"),
        {
            "9.9": f"card '9.9x20' width must be between 10 and 1990 mm, not 9.9 {CARD_HINT}",
            "1990.1": f"card '1990.1x20' width must be between 10 and 1990 mm, not 1990.1 {CARD_HINT}",
        },
    ),
    "card_h": (
        _card_h,
        None,
        ("10", "1990"),
        {
            "9.9": f"card '20x9.9' height must be between 10 and 1990 mm, not 9.9 {CARD_HINT}",
            "1990.1": f"card '20x1990.1' height must be between 10 and 1990 mm, not 1990.1 {CARD_HINT}",
        },
    ),
}

# a name that is none of the choices: one message on every face
CHOICES = {
    "paper": (
        (["--paper", "a5"], {"paper": "a5"}),
        "unknown paper 'a5' (use a4, letter or WxH in millimetres such as 210x297)",
    ),
    "card": (
        (["--card", "jumbo"], {"card": "jumbo"}),
        "unknown card size 'jumbo' (use poker, bridge, tarot, mini or WxH in millimetres such as 63.5x88.9)",
    ),
    "duplex": (
        (["--duplex", "sideways"], {"duplex": "sideways"}),
        "unknown duplex mode 'sideways' (use long or short)",
    ),
    "layout": (
        (["--layout", "gutterfold"], {"layout": "gutterfold"}),
        "unknown layout 'gutterfold' (use duplex, fold or separate)",
    ),
    "bleed": ((["--bleed", "wide"], {"bleed": "wide"}), "bleed must be a number, not 'wide' (3 mm is usual)"),
    "scale_x": (
        (["--scale-x", "x"], {"scale_x": "x"}),
        f"scale across the page must be a number, not 'x' {SCALE_HINT}",
    ),
}


@pytest.fixture()
def ws(tmp_path):
    root = tmp_path / "ws"
    root.mkdir()
    shutil.copytree(ROOT / "examples" / "packs", root / "packs")
    (root / "deck.yaml").write_text(DECK, encoding="utf-8")
    return root


@pytest.fixture()
def client(ws):
    app = create_app(ws, token=TOKEN, port=8765)
    with TestClient(app, base_url=BASE) as c:
        assert c.get(f"/?token={TOKEN}", follow_redirects=False).status_code == 303
        c.headers.update({"X-CSRF-Token": app.csrf})
        yield c


@pytest.fixture()
def store(tmp_path, monkeypatch):
    path = tmp_path / "config" / "printers.json"
    monkeypatch.setenv("DAIMYO_PRINTERS", str(path))
    return path


def _cli_refuses(cli, args: list[str], out: Path) -> str:
    r = cli(*args)
    assert r.code == 2, r
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("daimyo: error: "), r.stderr
    assert not out.exists()
    return lines[0].removeprefix("daimyo: error: ")


def _page_refuses(client, url: str, params: dict) -> str:
    r = client.get(url, params=params, headers={"HX-Request": "true"})
    assert r.status_code == 400, (url, params, r.text[:300])
    (shown,) = re.findall(r"<strong>(.*?)</strong>", r.text)
    return html.unescape(shown)


def _api_refuses(client, params: dict) -> str:
    r = client.get("/api/lists/deck.yaml/print", params=params)
    assert r.status_code == 400, (params, r.text[:300])
    return r.json()["error"]


def _settings_refused(client, ws: Path, params: dict) -> str:
    before = (ws / ".daimyo" / "print-settings.json").read_bytes()
    r = client.post("/l/deck.yaml/print/settings", data={"sent": "1", **params}, headers={"HX-Request": "true"})
    assert r.status_code == 400, (params, r.text[:300])
    assert (ws / ".daimyo" / "print-settings.json").read_bytes() == before  # nothing written
    (shown,) = re.findall(r"<strong>(.*?)</strong>", r.text)
    return html.unescape(shown)


@pytest.mark.parametrize("name", list(NUMBERS))
def test_each_bound_prints_and_just_past_it_is_one_message_on_every_face(cli, client, ws, store, tmp_path, name):
    given, profile, at_bounds, past = NUMBERS[name]
    client.post("/l/deck.yaml/print/settings", data={"sent": "1", "paper": "letter"})  # settings to keep
    for value in at_bounds:
        args, form = given(value)
        out = tmp_path / f"at-{value}.pdf"
        r = cli("print", ws / "deck.yaml", "-o", out, *args)
        assert r.code == 0 and out.exists(), (name, value, r)
        web = client.get("/l/deck.yaml/print.pdf", params=form)
        assert web.status_code == 200 and web.content.startswith(b"%PDF"), (name, value, web.text[:300])
        assert web.content == out.read_bytes(), (name, value)  # the same options, the same PDF
        assert client.get("/api/lists/deck.yaml/print", params=form).content == web.content
        assert client.post("/l/deck.yaml/print/settings", data={"sent": "1", **form}).status_code == 200
        if profile is not None:
            assert cli("printer", "save", f"p{value}", *profile(value)).code == 0, (name, value)
    for value, message in past.items():
        args, form = given(value)
        out = tmp_path / "past.pdf"
        said = {
            "command line": _cli_refuses(cli, ["print", ws / "deck.yaml", "-o", out, *args], out),
            "print page": _page_refuses(client, "/l/deck.yaml/print.pdf", form),
            "previews": _page_refuses(client, "/l/deck.yaml/print/previews", form),
            "API": _api_refuses(client, form),
            "remembered settings": _settings_refused(client, ws, form),
        }
        if profile is not None:
            before = store.read_bytes()
            said["printer profile"] = _cli_refuses(cli, ["printer", "save", "past", *profile(value)], tmp_path / "no")
            assert store.read_bytes() == before  # nothing saved
        assert said == dict.fromkeys(said, message), (name, value)


@pytest.mark.parametrize("name", list(CHOICES))
def test_an_unknown_choice_is_one_message_on_every_face(cli, client, ws, tmp_path, name):
    (args, form), message = CHOICES[name]
    client.post("/l/deck.yaml/print/settings", data={"sent": "1", "paper": "letter"})
    out = tmp_path / "x.pdf"
    said = {
        "command line": _cli_refuses(cli, ["print", ws / "deck.yaml", "-o", out, *args], out),
        "print page": _page_refuses(client, "/l/deck.yaml/print.pdf", form),
        "API": _api_refuses(client, form),
        "remembered settings": _settings_refused(client, ws, form),
    }
    assert said == dict.fromkeys(said, message)


def test_card_images_resolution_and_service_on_every_face(cli, client, ws, tmp_path):
    """``--to images``: 72 and 600 dpi draw the card, 71 and 601 are refused in one message."""
    for dpi in ("72", "600"):
        assert cli("print", ws / "deck.yaml", "--to", "images", tmp_path / f"i{dpi}", "--dpi", dpi).code == 0
        r = client.get("/l/deck.yaml/print/images.zip", params={"dpi": dpi})
        assert r.status_code == 200 and r.headers["content-type"] == "application/zip"
    cases = {
        "71": "resolution must be between 72 and 600 dpi, not 71 (300 is what print shops ask for)",
        "601": "resolution must be between 72 and 600 dpi, not 601 (300 is what print shops ask for)",
    }
    for dpi, message in cases.items():
        out = tmp_path / f"past{dpi}"
        assert _cli_refuses(cli, ["print", ws / "deck.yaml", "--to", "images", out, "--dpi", dpi], out) == message
        assert _page_refuses(client, "/l/deck.yaml/print/images.zip", {"dpi": dpi}) == message
    message = f"unknown print service 'kinkos' {SHOPS}"
    out = tmp_path / "shop"
    assert _cli_refuses(cli, ["print", ws / "deck.yaml", "--to", "images", out, "--service", "kinkos"], out) == message
    assert _page_refuses(client, "/l/deck.yaml/print/images.zip", {"service": "kinkos"}) == message


def test_the_defaults_are_the_same_on_the_command_line_and_the_web(cli, client, ws, tmp_path):
    """Nothing chosen: the command line and the web print the same PDF (A4, poker cards, no
    bleed, crop marks, backs for a long-edge duplex printer), and the page starts from them."""
    out = tmp_path / "plain.pdf"
    assert cli("print", ws / "deck.yaml", "-o", out).code == 0
    assert client.get("/l/deck.yaml/print.pdf").content == out.read_bytes()
    assert client.get("/api/lists/deck.yaml/print").content == out.read_bytes()
    page = client.get("/l/deck.yaml/print").text
    for name, value in (("paper", "a4"), ("card", "poker"), ("bleed", "0"), ("duplex", "long"), ("layout", "duplex")):
        select = re.search(rf'<select name="{name}">(.*?)</select>', page, re.S).group(1)
        assert re.search(rf'<option value="{re.escape(value)}" selected>', select), name
    assert re.search(r'name="marks" value="on" checked', page) and not re.search(
        r'name="cut_lines" value="on" checked', page
    )
    # the form as the page first sends it prints what the command line prints with no option
    form = {
        "sent": "1",
        "paper": "a4",
        "card": "poker",
        "bleed": "0",
        "duplex": "long",
        "layout": "duplex",
        "marks": "on",
    }
    assert client.get("/l/deck.yaml/print.pdf", params=form).content == out.read_bytes()


def test_the_web_form_inputs_carry_the_models_bounds(client):
    page = client.get("/l/deck.yaml/print").text
    inputs = {m.group(1): m.group(2) for m in re.finditer(r'<input name="([a-z_]+)" type="number"([^>]*)>', page)}
    # every bounded option is a number input (the bleed a menu, below), and no other
    assert set(inputs) == set(printbounds.BOUNDS) - {"bleed"}
    for name, attrs in inputs.items():
        b = printbounds.BOUNDS[name]
        got = {k: float(v) for k, v in re.findall(r'\b(min|max|step)="([^"]+)"', attrs)}
        assert got == {"min": b.low, "max": b.high, "step": b.step}, name
    # and the numbers themselves, as the tests above take them
    assert printbounds.BOUNDS["bleed"].high == 6 and printbounds.BOUNDS["scale_x"].low == 0.9
    # the bleed menu offers only values inside the bound
    bleeds = re.search(r'<select name="bleed">(.*?)</select>', page, re.S).group(1)
    assert all(0 <= float(v) <= printbounds.BLEED.high for v in re.findall(r'value="([^"]*)"', bleeds))


def test_a_saved_profile_holds_the_values_print_takes(cli, store):
    """A profile written by hand outside the bounds is refused when read, in the same words."""
    store.parent.mkdir(parents=True)
    store.write_text(json.dumps({"printers": {"old": {"offset": [0, 0], "scale_x": 1.2, "scale_y": 1}}}))
    r = cli("printer", "list")
    assert r.code == 2
    assert r.stderr.strip().endswith(
        f"printer 'old': scale across the page must be between 0.9 and 1.1, not 1.2 {SCALE_HINT} "
        "(fix the file or save the profile again)"
    )


def test_remembered_settings_the_model_now_refuses_go_back_to_the_defaults(client, ws):
    """Settings kept by an older version (its web page took a scale of 0.8 to 1.2) or written by
    hand: a number outside the bounds is not put back in the form, where every preview would be
    refused; the values inside them are kept."""
    (ws / ".daimyo").mkdir()
    (ws / ".daimyo" / "print-settings.json").write_text(
        json.dumps(
            {
                "lists": {"deck.yaml": {"paper": "letter", "bleed": "8", "gutter": "2"}},
                "printer": {"scale_x": "1.15", "scale_y": "1.01", "offset_x": "25", "offset_y": "-1"},
            }
        )
    )
    page = client.get("/l/deck.yaml/print").text

    def value(name: str) -> str:
        return re.search(rf'<input name="{name}" type="number"[^>]* value="([^"]*)"', page).group(1)

    assert (value("scale_x"), value("scale_y"), value("offset_x"), value("offset_y")) == ("", "1.01", "", "-1")
    assert value("gutter") == "2" and '<option value="letter" selected>' in page
    bleeds = re.search(r'<select name="bleed">(.*?)</select>', page, re.S).group(1)
    assert '<option value="0" selected>' in bleeds
