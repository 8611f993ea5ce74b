"""Art that travels with its pack: ``pack publish`` writes the pack and its images into a
registry folder, the index carries each image's SHA-256, ``pack install`` over HTTP fetches and
verifies them and the printed deck shows them; a tampered image is refused with nothing written;
hostile images are refused at ``pack check`` with one line each, every limit at and past it."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader
from regserver import Server
from test_packs_registry import one_error

RED = (200, 30, 30)
BLUE = (30, 60, 200)

PACK = """# my cards, with art
system: senshiai
name: My cards
cards:
  - name: Red Samurai
    type: troop
    subtype: Samurai
    cost: II
    paths: [Earth]
    speed: 1
    power: 2/1/3
    assumed: invented for the test
    art: art/warriors.png
  - name: Blue Archers
    type: troop
    subtype: Archers
    cost: I
    paths: [Earth]
    speed: 1
    power: 1/1/1
    assumed: invented for the test
    art: art/archers.png
"""

DECK = "system: senshiai\npacks: [My cards]\ncards:\n  Red Samurai: 1\n  Blue Archers: 1\n"


def picture(colour, size=(600, 450), fmt="PNG", mode="RGB") -> bytes:
    im = Image.new(mode, size, colour if mode == "RGB" else 0)
    buf = io.BytesIO()
    im.save(buf, fmt)
    return buf.getvalue()


@pytest.fixture
def mine(tmp_path, monkeypatch):
    """A pack folder with my-cards.yaml and its two images; a fresh packs and config folder."""
    folder = tmp_path / "mine"
    (folder / "art").mkdir(parents=True)
    (folder / "art" / "warriors.png").write_bytes(picture(RED))
    (folder / "art" / "archers.png").write_bytes(picture(BLUE))
    (folder / "my-cards.yaml").write_text(PACK)
    monkeypatch.setenv("DAIMYO_PACKS", str(tmp_path / "packs"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("DAIMYO_REGISTRY", raising=False)
    monkeypatch.chdir(folder)
    return folder


def near(px, colour, tol=40) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(px[:3], colour, strict=True))


def pdf_images(pdf: Path) -> list[Image.Image]:
    return [Image.open(io.BytesIO(img.data)).convert("RGB") for page in PdfReader(pdf).pages for img in page.images]


def test_publish_then_install_over_http_prints_the_art(cli, mine, tmp_path):
    reg = tmp_path / "registry"
    r = cli("pack", "publish", "my-cards.yaml", "--to", reg)
    assert r.code == 0, r.stderr
    assert r.stdout.splitlines()[:2] == [
        f"published My cards 1 (senshiai): {reg / 'my-cards-1' / 'my-cards-1.yaml'}",
        "  with 2 images: art/archers.png, art/warriors.png",
    ]
    assert (reg / "my-cards-1" / "art" / "warriors.png").read_bytes() == (mine / "art" / "warriors.png").read_bytes()
    [entry] = json.loads((reg / "index.json").read_text())["packs"]
    assert entry["version"] == "1" and entry["url"] == "my-cards-1/my-cards-1.yaml"
    assert entry["art"] == [
        {
            "path": p,
            "sha256": hashlib.sha256((mine / p).read_bytes()).hexdigest(),
            "size": (mine / p).stat().st_size,
        }
        for p in ("art/archers.png", "art/warriors.png")
    ]
    published = (reg / "my-cards-1" / "my-cards-1.yaml").read_text()
    assert published.startswith('# my cards, with art\nsystem: senshiai\nname: My cards\nversion: "1"\n')
    with Server(tmp_path) as srv:
        assert cli("registry", "add", f"{srv.url}/registry/index.json").code == 0
        r = cli("pack", "install", "My cards")
        assert r.code == 0, r.stderr
        assert f"installed from {srv.url}/registry/my-cards-1/my-cards-1.yaml" in r.stdout
        assert "/registry/my-cards-1/art/warriors.png" in srv.requests
    packs = tmp_path / "packs"
    assert (packs / ".art" / "my-cards" / "art" / "archers.png").read_bytes() == (mine / "art/archers.png").read_bytes()
    assert cli("pack", "list").stdout.count("My cards 1 [senshiai]") == 1
    work = tmp_path / "work"
    work.mkdir()
    (work / "deck.yaml").write_text(DECK)
    r = cli("print", work / "deck.yaml", "-o", work / "deck.pdf")
    assert r.code == 0, r.stderr
    images = pdf_images(work / "deck.pdf")
    assert len(images) == 2
    colours = sorted(im.getpixel((im.width // 2, im.height // 2)) for im in images)
    assert near(colours[0], BLUE) and near(colours[1], RED), colours
    subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", work / "deck.pdf", work / "page"], check=True)
    page = Image.open(work / "page-1.png").convert("RGB")
    seen = [page.getpixel((x, y)) for x in range(0, page.width, 3) for y in range(0, page.height // 2, 3)]
    assert sum(near(px, RED, 25) for px in seen) > 200 and sum(near(px, BLUE, 25) for px in seen) > 200


def test_publish_refuses_empty_and_unchanged_and_reports_the_changes(cli, mine, tmp_path):
    reg = tmp_path / "registry"
    (mine / "empty.yaml").write_text("system: senshiai\nname: Empty\ncards: []\n")
    one_error(cli("pack", "publish", "empty.yaml", "--to", reg), "pack 'Empty' has no entries; nothing published")
    assert not reg.exists()
    assert cli("pack", "publish", "my-cards.yaml", "--to", reg).code == 0
    r = cli("pack", "publish", "my-cards.yaml", "--to", reg)
    one_error(r, "pack 'My cards' is unchanged since version 1", "nothing published")
    (mine / "my-cards.yaml").write_text(PACK.replace("power: 2/1/3", "power: 3/1/3"))
    (mine / "art" / "archers.png").write_bytes(picture((30, 200, 60)))
    one_error(cli("pack", "publish", "my-cards.yaml", "--to", reg, "--version", "1"), "not newer than 1")
    r = cli("pack", "publish", "my-cards.yaml", "--to", reg)
    assert r.code == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == f"published My cards 2 (senshiai): {reg / 'my-cards-2' / 'my-cards-2.yaml'}"
    assert "My cards: 1 -> 2 (senshiai): 1 changed" in lines
    assert "  art changed: art/archers.png" in lines
    assert any(ln.startswith("  changed Red Samurai") or "Red Samurai" in ln for ln in lines if ln.startswith("  "))
    assert lines[-1] == f"wrote {reg / 'index.json'}: 2 pack versions"
    assert (reg / "my-cards-1" / "art" / "archers.png").read_bytes() == picture(BLUE)  # version 1 keeps its art
    r = cli("pack", "publish", "my-cards.yaml", "--to", reg, "--version", "2.5")
    one_error(r, "unchanged since version 2")
    (mine / "my-cards.yaml").write_text(PACK.replace("power: 2/1/3", "power: 4/1/3"))
    assert cli("pack", "publish", "my-cards.yaml", "--to", reg, "--version", "2.5").code == 0
    assert [e["version"] for e in json.loads((reg / "index.json").read_text())["packs"]] == ["1", "2", "2.5"]


def test_pack_index_warns_about_an_empty_pack(cli, tmp_path):
    reg = tmp_path / "registry"
    reg.mkdir()
    (reg / "empty.yaml").write_text('system: senshiai\nname: Empty\nversion: "1"\ncards: []\n')
    r = cli("pack", "index", reg)
    assert r.code == 0
    [line] = r.stderr.splitlines()
    assert line.startswith("warning: ") and line.endswith(
        "empty.yaml: pack 'Empty' has no entries; a friend who installs it gets nothing"
    )


def test_tampered_image_is_refused_at_install_and_nothing_is_written(cli, mine, tmp_path):
    reg = tmp_path / "registry"
    assert cli("pack", "publish", "my-cards.yaml", "--to", reg).code == 0
    art = reg / "my-cards-1" / "art" / "warriors.png"
    art.write_bytes(picture((201, 30, 30)))  # still a good image, other bytes
    with Server(tmp_path) as srv:
        assert cli("registry", "add", f"{srv.url}/registry/index.json").code == 0
        r = cli("pack", "install", "My cards")
        line = one_error(r, "warriors.png", "SHA-256", "differs from the index's", "nothing installed")
        assert line.startswith(f"{srv.url}/registry/my-cards-1/art/warriors.png: error registry.hash:")
    assert not (tmp_path / "packs").exists()


def png_claiming(width: int, height: int) -> bytes:
    """A small PNG file whose header claims ``width`` x ``height`` pixels."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)  # 1-bit greyscale
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b"")


def check_with(cli, mine, art_name: str, data: bytes | None):
    if data is not None:
        (mine / "art" / art_name).write_bytes(data)
    (mine / "my-cards.yaml").write_text(
        PACK.replace("art/warriors.png", art_name if "/" in art_name else f"art/{art_name}")
    )
    return cli("pack", "check", "my-cards.yaml")


def test_hostile_images_are_refused_with_one_line_each(cli, mine, tmp_path):
    line = one_error(check_with(cli, mine, "huge.png", png_claiming(20_000, 20_000)), "art 'art/huge.png'")
    assert "20,000 x 20,000 pixels, more than 50,000,000 (MAX_IMAGE_PIXELS)" in line
    jpeg = picture(RED, fmt="JPEG")
    line = one_error(check_with(cli, mine, "cut.jpg", jpeg[: len(jpeg) // 2]), "art 'art/cut.jpg'")
    assert "a damaged or truncated JPEG file" in line
    (tmp_path / "x.png").write_bytes(picture(RED))
    line = one_error(check_with(cli, mine, "../x.png", None), "art '../x.png'", "leads outside the pack's folder")
    svg = b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'
    line = one_error(check_with(cli, mine, "drawing.png", svg), "art 'art/drawing.png'", "an SVG drawing")
    assert "PNG, JPEG or WebP" in line
    one_error(check_with(cli, mine, "anim.gif", picture(RED, fmt="GIF")), "a GIF")
    (mine / "art" / "out.png").symlink_to(tmp_path / "x.png")
    one_error(check_with(cli, mine, "out.png", None), "art 'art/out.png'", "leads outside")
    one_error(check_with(cli, mine, "/etc/x.png", None), "art '/etc/x.png'", "leads outside")
    one_error(check_with(cli, mine, "missing.png", None), "art 'art/missing.png'", "not found")


def test_formats_are_told_by_their_bytes_and_cmyk_is_accepted(cli, mine):
    for name, data in [
        ("a.png", picture(RED)),
        ("b.jpg", picture(RED, fmt="JPEG")),
        ("c.webp", picture(RED, fmt="WEBP")),
        ("png-named.jpg", picture(RED)),
        ("cmyk.jpg", picture(RED, fmt="JPEG", mode="CMYK")),
        ("grey.png", picture(RED, mode="L")),
    ]:
        r = check_with(cli, mine, name, data)
        assert r.code == 0, (name, r.stderr)


def test_art_limits_at_and_past_each_bound(cli, mine, monkeypatch):
    import builder.catalog.packart as packart

    data = picture(RED, size=(40, 30))
    (mine / "art" / "archers.png").write_bytes(picture(BLUE, size=(20, 10)))
    monkeypatch.setattr(packart, "MAX_ART_BYTES", len(data))
    assert check_with(cli, mine, "a.png", data).code == 0
    monkeypatch.setattr(packart, "MAX_ART_BYTES", len(data) - 1)
    one_error(check_with(cli, mine, "a.png", data), f"{len(data):,} bytes, more than {len(data) - 1:,} (MAX_ART_BYTES)")
    monkeypatch.setattr(packart, "MAX_ART_BYTES", 10**9)
    monkeypatch.setattr(packart, "MAX_IMAGE_PIXELS", 40 * 30)
    assert check_with(cli, mine, "a.png", data).code == 0
    monkeypatch.setattr(packart, "MAX_IMAGE_PIXELS", 40 * 30 - 1)
    one_error(check_with(cli, mine, "a.png", data), "40 x 30 pixels, more than 1,199 (MAX_IMAGE_PIXELS)")
    monkeypatch.setattr(packart, "MAX_IMAGE_PIXELS", 10**9)
    monkeypatch.setattr(packart, "MAX_ART_FILES", 2)
    assert check_with(cli, mine, "a.png", data).code == 0
    (mine / "my-cards.yaml").write_text(
        PACK + "  - name: Green Samurai\n    type: troop\n    subtype: Samurai\n    cost: I\n    paths: [Earth]\n"
        "    speed: 1\n    power: 1/1/1\n    assumed: invented\n    art: art/a.png\n"
    )
    one_error(cli("pack", "check", "my-cards.yaml"), "names 3 images, more than 2 (MAX_ART_FILES)")


def test_the_content_hash_covers_the_images(cli, mine):
    from builder.catalog.packid import content_hash, pack_id, read_pack

    before = pack_id(mine / "my-cards.yaml").hash
    data, _ = read_pack(mine / "my-cards.yaml")
    digests = {p: hashlib.sha256((mine / p).read_bytes()).hexdigest() for p in ("art/archers.png", "art/warriors.png")}
    text = content_hash(data) + "\n" + "".join(f"{p}\t{digests[p]}\n" for p in sorted(digests))
    assert before == "sha256:" + hashlib.sha256(text.encode()).hexdigest()
    (mine / "art" / "archers.png").write_bytes(picture((31, 60, 200)))
    assert pack_id(mine / "my-cards.yaml").hash != before
    shutil.rmtree(mine / "art")
    (mine / "plain.yaml").write_text(
        PACK.replace("    art: art/warriors.png\n", "").replace("    art: art/archers.png\n", "")
    )
    plain, _ = read_pack(mine / "plain.yaml")
    assert pack_id(mine / "plain.yaml").hash == content_hash(plain)  # no art: the data hash, as before


def test_a_bundle_carries_the_art_and_a_damaged_image_is_refused(cli, mine, tmp_path):
    (mine / "deck.yaml").write_text(DECK.replace("[My cards]", "[my-cards.yaml]"))
    r = cli("export", "deck.yaml", "--to", "bundle", "-o", tmp_path / "b.yaml")
    assert r.code == 0, r.stderr
    text = (tmp_path / "b.yaml").read_text()
    assert '\nart:\n  - {"pack": "My cards", "path": "art/archers.png", "sha256": "' in text
    work = tmp_path / "friend"
    work.mkdir()
    damaged = text.replace('"data": "iVBOR', '"data": "iVBAR', 1)
    (work / "damaged.yaml").write_text(damaged)
    r = cli("import", work / "damaged.yaml", "-o", work / "deck.yaml", "--install-packs")
    one_error(r, "art 'art/archers.png' of pack 'My cards' is damaged (its SHA-256 differs)", "nothing installed")
    assert not (tmp_path / "packs").exists() and not (work / "deck.yaml").exists()
    r = cli("import", tmp_path / "b.yaml", "-o", work / "deck.yaml", "--install-packs")
    assert r.code == 0, r.stderr
    assert f"pack 'My cards': installed: {tmp_path / 'packs' / 'my-cards.yaml'}" in r.stderr
    kept = tmp_path / "packs" / ".art" / "my-cards" / "art"
    assert (kept / "warriors.png").read_bytes() == (mine / "art" / "warriors.png").read_bytes()
    r = cli("print", work / "deck.yaml", "-o", work / "deck.pdf")
    assert r.code == 0, r.stderr
    assert len(pdf_images(work / "deck.pdf")) == 2


def test_import_install_packs_never_copies_a_bundled_pack(cli, tmp_path, monkeypatch):
    from conftest import ROOT

    monkeypatch.setenv("DAIMYO_PACKS", str(tmp_path / "packs"))
    monkeypatch.chdir(tmp_path)
    deck = ROOT / "examples" / "senshiai-northern-host.yaml"
    assert cli("export", deck, "--to", "bundle", "-o", "b.yaml").code == 0
    r = cli("import", "b.yaml", "-o", "deck.yaml", "--install-packs")
    assert r.code == 0, r.stderr
    assert "pack 'Senshiai example cards' version 1: bundled with daimyo, used from there (not copied)" in r.stderr
    assert not list((tmp_path / "packs").glob("*.yaml"))  # nothing copied into the packs folder
    assert "checked_with:\n  - pack: Senshiai example cards\n" in (tmp_path / "deck.yaml").read_text()
    r = cli("check", "deck.yaml", "--format", "json")
    assert r.code == 0 and json.loads(r.stdout)[0]["legal"]
    listed = cli("pack", "list").stdout
    assert "Senshiai example cards 1 [senshiai]" in listed and "(bundled) senshiai-example.yaml  (wins)" in listed


def test_install_from_a_file_and_update_carry_the_art(cli, mine, tmp_path):
    r = cli("pack", "install", "my-cards.yaml")
    assert r.code == 0, r.stderr
    kept = tmp_path / "packs" / ".art" / "my-cards" / "art"
    assert (kept / "archers.png").read_bytes() == picture(BLUE)
    reg = tmp_path / "registry"
    assert cli("pack", "publish", "my-cards.yaml", "--to", reg).code == 0
    (mine / "my-cards.yaml").write_text(PACK.replace("power: 2/1/3", "power: 3/1/3"))
    (mine / "art" / "archers.png").write_bytes(picture((30, 200, 60)))
    assert cli("pack", "publish", "my-cards.yaml", "--to", reg).code == 0
    with Server(tmp_path) as srv:
        assert cli("registry", "add", f"{srv.url}/registry/index.json").code == 0
        r = cli("pack", "install", "My cards@1", "--replace")
        assert r.code == 0, r.stderr
        r = cli("pack", "update", "My cards", "--yes")
        assert r.code == 0, r.stderr
        assert "My cards: 1 -> 2 (senshiai): 1 changed" in r.stdout
    assert (kept / "archers.png").read_bytes() == picture((30, 200, 60))
    from builder.catalog.packid import pack_id

    index = json.loads((reg / "index.json").read_text())
    assert pack_id(tmp_path / "packs" / "my-cards.yaml").hash == index["packs"][-1]["content"]
    r = cli("pack", "install", "My cards@1")  # kept: back without the network, its own art with it
    assert r.code == 0, r.stderr
    assert (kept / "archers.png").read_bytes() == picture(BLUE)
    r = cli("pack", "remove", "My cards")
    assert r.code == 0 and not (tmp_path / "packs" / ".art" / "my-cards").exists()


def test_install_refuses_an_index_whose_art_is_hostile(cli, mine, tmp_path, monkeypatch):
    reg = tmp_path / "registry"
    assert cli("pack", "publish", "my-cards.yaml", "--to", reg).code == 0
    good = json.loads((reg / "index.json").read_text())
    with Server(tmp_path) as srv:
        assert cli("registry", "add", f"{srv.url}/registry/index.json").code == 0

        def install_with(index: dict):
            (reg / "index.json").write_text(json.dumps(index))
            return cli("pack", "install", "My cards")

        outside = json.loads(json.dumps(good))
        outside["packs"][0]["art"][0]["path"] = "../../x.png"
        one_error(install_with(outside), "each image of 'art' needs 'path' (inside the pack's folder)")
        missing = json.loads(json.dumps(good))
        missing["packs"][0]["art"].pop(0)
        one_error(install_with(missing), "art 'art/archers.png'", "the registry's index does not carry it")
        svg = b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'
        (reg / "my-cards-1" / "art" / "archers.png").write_bytes(svg)  # a matching hash does not make it art
        sneaky = json.loads(json.dumps(good))
        sneaky["packs"][0]["art"][0]["sha256"] = hashlib.sha256(svg).hexdigest()
        one_error(install_with(sneaky), "art 'art/archers.png': an SVG drawing", "nothing installed")
        import builder.limits

        monkeypatch.setattr(builder.limits, "MAX_ART_BYTES", 1000)
        huge = json.loads(json.dumps(good))
        huge["packs"][0]["art"][0]["size"] = 1001
        one_error(install_with(huge), "too large: 1,001 bytes, more than the limit of 1,000 bytes")
    assert not (tmp_path / "packs").exists()


def test_an_image_over_a_million_bytes_travels(cli, mine, tmp_path):
    """The index's numbers are read up to 1,000,000: a larger image is listed without its size,
    and still verified by its SHA-256."""
    import os

    noise = Image.frombytes("RGB", (640, 600), os.urandom(640 * 600 * 3))
    buf = io.BytesIO()
    noise.save(buf, "PNG")
    assert len(buf.getvalue()) > 1_000_000
    (mine / "art" / "warriors.png").write_bytes(buf.getvalue())
    reg = tmp_path / "registry"
    assert cli("pack", "publish", "my-cards.yaml", "--to", reg).code == 0
    art = json.loads((reg / "index.json").read_text())["packs"][0]["art"]
    assert "size" not in art[1] and art[1]["sha256"] == hashlib.sha256(buf.getvalue()).hexdigest()
    with Server(tmp_path) as srv:
        assert cli("registry", "add", f"{srv.url}/registry/index.json").code == 0
        r = cli("pack", "install", "My cards")
        assert r.code == 0, r.stderr
    assert (tmp_path / "packs" / ".art" / "my-cards" / "art" / "warriors.png").read_bytes() == buf.getvalue()


def test_cmyk_art_is_converted_to_rgb_when_printed(tmp_path):
    from builder.render.cards import prepare_image

    path = tmp_path / "cmyk.jpg"
    Image.new("CMYK", (472, 354), (0, 200, 200, 40)).save(path, "JPEG")  # 40 x 30 mm at 300 dpi
    prepared = prepare_image(path, 40.0, 30.0)
    assert prepared.is_jpeg
    data = prepared.source
    with Image.open(io.BytesIO(data)) as im:
        assert im.mode == "RGB"
        r, g, b = im.getpixel((im.width // 2, im.height // 2))
        assert r > 120 and g < 90 and b < 90, (r, g, b)  # red stays red
