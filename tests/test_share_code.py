"""The share code: compact, versioned, and never decoded into a different list."""

from __future__ import annotations

import base64
import glob
import zlib
from pathlib import Path

import pytest
from sweeps import quick_first

from builder.errors import DaimyoError
from builder.share.api import parse_source_text
from builder.share.canonical import Resolver, canonical
from builder.share.code import PREFIX, CodeError, decode, encode

from conftest import DATA, ROOT

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
EXAMPLES = sorted(glob.glob(str(ROOT / "examples" / "*.yaml"))) + sorted(glob.glob(str(DATA / "share" / "*.yaml")))


def _doc(path: str) -> dict:
    return parse_source_text(Path(path).read_text(encoding="utf-8"), path).doc


@pytest.mark.parametrize("path", quick_first(EXAMPLES), ids=lambda p: Path(p).name)
def test_every_single_character_change_is_rejected(path):
    doc = _doc(path)
    code = encode(doc)
    assert decode(code) == doc
    rejected = 0
    for i, old in enumerate(code):
        for c in ALPHABET:
            if c == old:
                continue
            damaged = code[:i] + c + code[i + 1 :]
            with pytest.raises(CodeError):
                decode(damaged)
            rejected += 1
    assert rejected == len(code) * (len(ALPHABET) - 1) - sum(1 for ch in code if ch not in ALPHABET)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: Path(p).name)
def test_lost_added_and_swapped_characters_are_rejected(path):
    code = encode(_doc(path))
    for i in range(len(PREFIX), len(code)):
        with pytest.raises(CodeError):
            decode(code[:i] + code[i + 1 :])
        for c in "A_9":
            with pytest.raises(CodeError):
                decode(code[:i] + c + code[i:])
        if i + 1 < len(code) and code[i] != code[i + 1]:
            with pytest.raises(CodeError):
                decode(code[:i] + code[i + 1] + code[i] + code[i + 2 :])


def test_code_is_one_url_safe_line_with_version_prefix():
    for path in EXAMPLES:
        code = encode(_doc(path))
        assert code.startswith("DMY1-")
        assert set(code[5:]) <= set(ALPHABET)
        assert "\n" not in code and "=" not in code


def test_catalog_names_are_short_keys_and_unknown_names_text():
    doc = {
        "system": "kensei",
        "clan": "buke",
        "points": 200,
        "troops": [{"troop": "Samurai Yari", "models": 5}, {"troop": "Homebrew Ronin"}],
    }
    code = encode(doc)
    raw = base64.urlsafe_b64decode(code[5:] + "=" * (-len(code[5:]) % 4))
    assert b"Homebrew Ronin" in raw or raw[0] & 0x80  # text (maybe deflated)
    assert b"Samurai Yari" not in raw
    assert decode(code) == canonical(doc)


def test_code_made_with_another_catalog_is_refused_not_misread():
    """A key that now points to a different entry fails the names check."""
    doc = {"system": "senshiai", "cards": {"Warriors": 3}}
    code = encode(doc)
    r = Resolver.of("senshiai")

    class Renamed:
        def __init__(self, e):
            self.id, self.name, self.aliases = e.id, "Warrior Monks", []

    class Cat:
        def sections(self):
            return r.catalog.sections()

        def entries(self, s):
            return [Renamed(e) if e.id == "warriors" else e for e in r.catalog.entries(s)]

        def find(self, s, n):
            return None

    other = Resolver("senshiai", Cat())
    with pytest.raises(CodeError, match="another version of the catalog"):
        decode(code, resolver=other)

    class Without(Cat):
        def entries(self, s):
            return [e for e in r.catalog.entries(s) if e.id != "warriors"]

    with pytest.raises(CodeError, match="does not have"):
        decode(code, resolver=Resolver("senshiai", Without()))


@pytest.mark.parametrize(
    "bad, message",
    [
        ("", "not a daimyo share code"),
        ("DMY1-", "damaged"),
        ("DMY1-AAAA", "damaged"),
        ("DMY9-QUJD", "newer than this daimyo reads"),
        ("XYZ1-QUJDREVG", "not a daimyo share code"),
        ("DMY1-ab$cd", "contains '$'"),
    ],
)
def test_malformed_codes_give_clear_messages(bad, message):
    with pytest.raises(DaimyoError, match=message.replace("$", r"\$")):
        decode(bad)


def test_trailing_bits_must_be_zero():
    code = encode({"system": "satsuma", "side": "samurai", "deck": "standard"})
    body = code[5:]
    if len(body) % 4 == 0:
        pytest.skip("no spare bits in this length")
    last = ALPHABET.index(body[-1])
    for c in ALPHABET:
        if c != body[-1] and (ALPHABET.index(c) >> 2) == (last >> 2):
            with pytest.raises(CodeError):
                decode(code[:-1] + c)


def test_a_valid_crc_over_garbage_is_still_refused():
    payload = bytes([1, 0xFF, 0xFF, 0x01])
    crc = zlib.crc32(PREFIX.encode() + payload).to_bytes(4, "little")
    code = PREFIX + base64.urlsafe_b64encode(payload + crc).decode().rstrip("=")
    with pytest.raises(CodeError, match=r"cannot be read|does not have|ends early"):
        decode(code)


def test_whitespace_and_envelope_are_tolerated():
    doc = {"system": "senshiai", "size": 50, "cards": {"Warriors": 6}}
    code = encode(doc)
    assert decode("  " + code[:20] + "\n" + code[20:] + "\n") == canonical(doc)
    envelope = f"# My deck\n# Senshiai, 6 cards\n{code}\n# paste into daimyo import\n"
    assert parse_source_text(envelope, "<chat>").doc == canonical(doc)


def test_compression_keeps_long_lists_short():
    doc = {"system": "senshiai", "notes": "Earth and water troops. " * 20, "cards": {"Warriors": 6}}
    code = encode(doc)
    assert len(code) < len(doc["notes"]) // 2
    assert decode(code) == canonical(doc)
