"""Card art as printed: 16-bit images, EXIF orientation, low resolution, cover crop with a
focus point, art reaching into the bleed."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from builder.catalog.focus import cover_crop, parse_focus
from builder.errors import UsageError
from builder.render import api
from builder.render.cards import prepare_image

BOX = (47.5, 31.0)  # the Satsuma art box, mm


def _list(tmp_path, image: Image.Image, name="bushido.png", **save) -> Path:
    art = tmp_path / "art"
    art.mkdir(exist_ok=True)
    image.save(art / name, **save)
    p = tmp_path / "l.yaml"
    p.write_text("system: satsuma\nside: samurai\ncards:\n  Bushido: 1\n", encoding="utf-8")
    return p


def _embedded(pdf: Path) -> list[Image.Image]:
    out = []
    reader = PdfReader(pdf)
    for page in reader.pages:
        for img in page.images:
            out.append(Image.open(io.BytesIO(img.data)).convert("RGB"))
    if not out:  # images inside form XObjects
        for num in range(1, 400):
            try:
                o = reader.get_object(num)
            except Exception:
                continue
            if hasattr(o, "get") and o.get("/Subtype") == "/Image":
                data = o.get_data() if o.get("/Filter") != "/DCTDecode" else o._data
                if o.get("/Filter") == "/DCTDecode":
                    out.append(Image.open(io.BytesIO(data)).convert("RGB"))
                else:
                    w, h = int(o["/Width"]), int(o["/Height"])
                    mode = "RGB" if str(o.get("/ColorSpace")) == "/DeviceRGB" else "L"
                    out.append(Image.frombytes(mode, (w, h), o.get_data()).convert("RGB"))
    return out


def test_16_bit_png_prints_its_picture_not_a_blank_box(tmp_path):
    im = Image.new("I", (600, 390))
    im.paste(30000, (0, 0, 300, 390))  # left half mid grey, right half black
    im = im.convert("I;16")  # saved as a 16-bit greyscale PNG
    lst = _list(tmp_path, im)
    out = api.render_list(lst, tmp_path / "a.pdf", backs=False)
    [art] = _embedded(out)
    left = art.getpixel((art.width // 4, art.height // 2))
    right = art.getpixel((3 * art.width // 4, art.height // 2))
    assert 100 < left[0] < 140 and right[0] < 20  # 30000 / 65535 of white, and black


def test_exif_orientation_is_honoured(tmp_path):
    # stored sideways: red left, blue right; EXIF 6 says "turn 90 degrees clockwise to view"
    im = Image.new("RGB", (400, 620), (0, 0, 255))
    im.paste((255, 0, 0), (0, 0, 200, 620))
    exif = Image.Exif()
    exif[0x0112] = 6
    lst = _list(tmp_path, im, "bushido.jpg", exif=exif, quality=95)
    out = api.render_list(lst, tmp_path / "a.pdf", backs=False)
    [art] = _embedded(out)
    top = art.getpixel((art.width // 2, 2))
    bottom = art.getpixel((art.width // 2, art.height - 3))
    assert top[0] > 200 and top[2] < 60  # viewed upright: red on top
    assert bottom[2] > 200 and bottom[0] < 60  # blue below


def test_low_resolution_art_is_one_warning_with_its_dpi(tmp_path, capsys):
    lst = _list(tmp_path, Image.new("RGB", (120, 78), (90, 90, 90)))
    api.render_list(lst, tmp_path / "a.pdf", backs=False)
    err = [ln for ln in capsys.readouterr().err.splitlines() if "dpi" in ln]
    assert len(err) == 1
    assert "card 'Bushido': its art prints at 64 dpi (below 150)" in err[0]
    assert "561 x 366 px" in err[0]
    # 300 dpi art: no word
    lst = _list(tmp_path, Image.new("RGB", (561, 366), (90, 90, 90)))
    api.render_list(lst, tmp_path / "b.pdf", backs=False)
    assert "dpi" not in capsys.readouterr().err


def test_art_fills_its_box_cropped_around_the_focus(tmp_path):
    im = Image.new("RGB", (600, 600), (0, 0, 0))
    im.paste((0, 200, 0), (0, 0, 600, 300))  # green top half, black bottom half
    p = tmp_path / "sq.png"
    im.save(p)
    # the crop keeps 600 x 392 px: from the top 300 of them are green, from the bottom 92
    for focus, expect_green in (((0.5, 0.0), 300 / 392), ((0.5, 1.0), 92 / 392), ((0.5, 0.5), 0.5)):
        prep = prepare_image(p, *BOX, focus=focus)
        assert prep.width_px / prep.height_px == pytest.approx(BOX[0] / BOX[1], rel=0.01)  # cover
        got = Image.open(io.BytesIO(prep.source)).convert("RGB")
        green = sum(1 for y in range(got.height) if got.getpixel((got.width // 2, y))[1] > 100) / got.height
        assert green == pytest.approx(expect_green, abs=0.03), focus


def test_focus_words_and_fractions():
    assert parse_focus("top") == (0.5, 0.0)
    assert parse_focus("bottom right") == (1.0, 1.0)
    assert parse_focus("0.25,0.75") == (0.25, 0.75)
    assert parse_focus("30%, 60%") == (0.3, 0.6)
    for bad in ("upwards", "2,0.5", "top left right"):
        with pytest.raises(ValueError, match="focus"):
            parse_focus(bad)
    assert cover_crop(1000, 500, 10, 10, (0.0, 0.5)) == (0, 0, 500, 500)
    assert cover_crop(1000, 500, 10, 10, (1.0, 0.5)) == (500, 0, 1000, 500)


def test_focus_in_a_pack_is_checked_where_it_is_written(tmp_path):
    from builder.catalog.base import Entry

    assert Entry(name="X", assumed="test", focus="top left").focus == "top left"
    with pytest.raises(Exception, match="focus 'sideways'"):
        Entry(name="X", assumed="test", focus="sideways")


def test_full_bleed_art_reaches_into_the_bleed():
    from builder.render.cards import SheetOptions, art_box, load_template

    tpl = load_template("satsuma")
    layout = tpl.default_layout
    tpl.layouts[layout].art = (0.0, 0.0, tpl.size[0], 40.0)  # art across the top of the card
    opts = SheetOptions(card=tpl.size, bleed=3.0)
    x, y, w, h = art_box(tpl, layout, opts)
    assert (x, w) == (pytest.approx(-3.0), pytest.approx(tpl.size[0] + 6))
    assert y + h == pytest.approx(tpl.size[1] + 3)  # into the top bleed
    assert y == pytest.approx(tpl.size[1] - 40.0)  # the inner edge stays


def test_unreadable_art_still_one_line(tmp_path):
    p = tmp_path / "x.png"
    p.write_bytes(b"nope")
    with pytest.raises(UsageError, match="cannot read image"):
        prepare_image(p, *BOX)


def _card(name: str, art: str) -> str:
    return (
        f"  - name: {name}\n    type: troop\n    subtype: Samurai\n    cost: I\n    paths: [Earth]\n"
        f"    speed: 2\n    power: 2/1/3\n    art: {art}\n    assumed: test\n"
    )


def test_art_is_read_only_from_inside_the_packs_folder(tmp_path, cli):
    """An ``art:`` path that leaves the folder of the pack naming it (``..``, an absolute path,
    a symbolic link out) is not read: one warning names the card and the rule, and the card
    prints with its placeholder; art inside the folder prints."""
    club = tmp_path / "club"
    (club / "packs" / "art").mkdir(parents=True)
    Image.new("RGB", (600, 400), (200, 30, 30)).save(club / "secret.png")  # the list's folder, not the pack's
    Image.new("RGB", (600, 400), (30, 30, 200)).save(club / "packs" / "art" / "own.png")
    (club / "packs" / "link.png").symlink_to(club / "secret.png")
    (club / "packs" / "mine.yaml").write_text(
        "system: senshiai\nname: Mine\nversion: '1'\ncards:\n"
        + _card("Up Art", "../secret.png")
        + _card("Far Art", str(club / "secret.png"))
        + _card("Link Art", "link.png")
        + _card("Own Art", "art/own.png"),
        encoding="utf-8",
    )
    (club / "deck.yaml").write_text(
        "system: senshiai\nname: Deck\npacks: [packs/mine.yaml]\ncards:\n"
        "  Up Art: 1\n  Far Art: 1\n  Link Art: 1\n  Own Art: 1\n",
        encoding="utf-8",
    )
    r = cli("print", club / "deck.yaml", "-o", tmp_path / "cards.pdf", "--no-backs")
    assert r.code == 0, r.stderr
    said = [ln for ln in r.stderr.splitlines() if "art is read only from inside" in ln]
    for name, art in (("Up Art", "../secret.png"), ("Far Art", str(club / "secret.png")), ("Link Art", "link.png")):
        want = f"card '{name}': art '{art}' leads outside the folder of the pack that names it (packs/)"
        assert sum(want in ln for ln in said) == 1, (name, r.stderr)
    assert len(said) == 3
    [art] = _embedded(tmp_path / "cards.pdf")  # the pack's own art, alone
    red, _green, blue = art.getpixel((art.width // 2, art.height // 2))
    assert blue > 150 and red < 80
