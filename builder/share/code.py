"""The share code: one URL-safe line that carries a whole list.

Layout (format version 1)::

    DMY1-<base64url without padding of: payload + CRC-32>

``payload`` is one header byte and a body:

* header byte: bits 0-2 the system: 0-4 the five built-in games in their fixed order
  (``BUILT_IN_IDS``), 7 a game registered by another package, whose id follows the header
  (one length byte and the id in UTF-8), so that its codes read the same wherever that game
  is installed, whatever else is registered (5 and 6 are not used); bit 6 set
  when a 16-bit *names check* follows, bit 7 set when the body is raw-deflate
  compressed (used only when that makes the code shorter);
* names check (2 bytes, big-endian): CRC-32 of the catalog names the code refers
  to by key, low 16 bits. Decoding with a catalog in which a key now points to
  another entry is refused instead of giving a different list;
* body: the list's fields in schema order (``builder.lists.schema``). Each
  mapping starts with a varint bit set of the fields present; then each value:
  text = varint length + UTF-8; whole number = zigzag varint; true/false = one
  byte; catalog name = varint 0 + 16-bit key (CRC-32 of ``section:id``, low 16
  bits) when the catalog knows it and no other entry of the section shares the
  key, else varint (length + 1) + UTF-8 text; lists and decks = varint count +
  items; house rules = count + (text id, typed value).

The CRC-32 (little-endian, as the polynomial's codeword order wants) covers the
prefix and the payload, so any change of a single character -- each position,
any other character -- is a burst of at most 16 bits and is always detected;
base64 text whose unused trailing bits are not zero is refused too, so no two
strings decode to the same bytes.
"""

from __future__ import annotations

import base64
import re
import struct
import zlib
from typing import Any

from builder.errors import DaimyoError, Diagnostic, UsageError, command_line, option
from builder.i18n import L_
from builder.kit.fields import Field
from builder.kit.printbounds import QR_MAX_BYTES
from builder.limits import MAX_CODE_EXPANSION, MAX_VALUES, MIN_CODE_BODY, number_problem, too_many_values_message
from builder.lists.schema import schema
from builder.share.canonical import Resolver, canonical, name_hash
from builder.systems import BUILT_IN_IDS, is_system

VERSION = 1
PREFIX = f"DMY{VERSION}-"
CODE_RE = re.compile(r"^DMY(\d+)-([A-Za-z0-9_-]*)$")
LOOKS_LIKE_CODE = re.compile(r"^\s*[A-Za-z]{3}\d+-[A-Za-z0-9_-]{4,}\s*$")

_F_CHECK = 0x40
_F_DEFLATE = 0x80


class CodeError(DaimyoError):
    """A share code that cannot be decoded (damaged, foreign or newer)."""


def _fail(message: str, hint: str | None = None, where: str = "<code>") -> CodeError:
    return CodeError(Diagnostic(where, 1, 1, message, hint=hint))


# -- primitive writers and readers --------------------------------------------------------


def _varint(n: int, out: bytearray) -> None:
    if n < 0:
        raise ValueError("negative varint")
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return


def _zigzag(n: int) -> int:
    return n * 2 if n >= 0 else -n * 2 - 1


def _unzigzag(n: int) -> int:
    return n // 2 if n % 2 == 0 else -(n + 1) // 2


class _Reader:
    def __init__(self, data: bytes):
        self.data = data
        self.i = 0

    def byte(self) -> int:
        if self.i >= len(self.data):
            raise ValueError("code ends early")
        b = self.data[self.i]
        self.i += 1
        return b

    def take(self, n: int) -> bytes:
        if self.i + n > len(self.data):
            raise ValueError("code ends early")
        b = self.data[self.i : self.i + n]
        self.i += n
        return b

    def varint(self) -> int:
        n = shift = 0
        while True:
            b = self.byte()
            n |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return n
            if shift > 63:
                raise ValueError("number too long")

    def text(self, n: int | None = None) -> str:
        if n is None:
            n = self.varint()
        return self.take(n).decode("utf-8")


# -- encoding ---------------------------------------------------------------------------


class _Enc:
    def __init__(self, r: Resolver):
        self.r = r
        self.out = bytearray()
        self.checked: list[str] = []

    def text(self, s: str) -> None:
        b = s.encode("utf-8")
        _varint(len(b), self.out)
        self.out += b

    def ref(self, f: Field, name: str) -> None:
        sec, entry = self.r.find(f, name)
        if entry is not None and self.r.display(f, entry) == name:
            h = name_hash(sec, entry.id)
            if len(self.r.hash_table(sec).get(h, ())) == 1:
                _varint(0, self.out)
                self.out += h.to_bytes(2, "big")
                self.checked.append(name)
                return
        b = name.encode("utf-8")
        _varint(len(b) + 1, self.out)
        self.out += b

    def mapping(self, fields, data: dict) -> None:
        present = 0
        for i, f in enumerate(fields):
            if f.key in data:
                present |= 1 << i
        _varint(present, self.out)
        for f in fields:
            if f.key in data:
                self.value(f, data[f.key])

    def value(self, f: Field, v) -> None:
        k = f.kind
        if k in ("text", "notes"):
            self.text(v)
        elif k == "int":
            _varint(_zigzag(v), self.out)
        elif k == "bool":
            self.out.append(1 if v else 0)
        elif k == "ref":
            self.ref(f, v)
        elif k in ("refs", "texts"):
            _varint(len(v), self.out)
            for item in v:
                self.ref(f, item) if k == "refs" else self.text(item)
        elif k == "counts":
            _varint(len(v), self.out)
            for name, n in v.items():
                self.ref(f, name)
                if isinstance(n, dict):  # a custom card: a negative count, then what is printed
                    _varint(_zigzag(-1 - n["count"]), self.out)
                    self.text(n["printed"])
                else:
                    _varint(_zigzag(n), self.out)
        elif k == "rules":
            _varint(len(v), self.out)
            for key, val in v.items():
                self.text(key)
                if isinstance(val, bool):
                    self.out.append(1 if val else 0)
                elif isinstance(val, int):
                    self.out.append(2)
                    _varint(_zigzag(val), self.out)
                elif isinstance(val, float):
                    self.out.append(3)
                    self.out += struct.pack(">d", val)
                else:
                    self.out.append(4)
                    self.text(val)
        elif k == "items":
            _varint(len(v), self.out)
            for row in v:
                self.mapping(f.fields, row)
        else:  # pragma: no cover
            raise AssertionError(k)


def _check16(names: list[str]) -> int:
    return zlib.crc32("\x1f".join(names).encode("utf-8")) & 0xFFFF


def encode(data: dict, resolver: Resolver | None = None) -> str:
    """The share code of a list document (canonicalised first)."""
    doc = canonical(data, resolver=resolver)
    system = doc["system"]
    r = resolver or Resolver.of(system)
    enc = _Enc(r)
    fields = [f for f in schema(system) if f.kind != "system"]
    enc.mapping(fields, doc)
    body = bytes(enc.out)
    head, named = _system_head(system)
    packed = zlib.compress(body, 9, wbits=-15) if len(body) > 24 else body

    if len(packed) < len(body) and len(body) > max(MIN_CODE_BODY, MAX_CODE_EXPANSION * len(packed)):
        raise UsageError(
            L_(
                "this list is too repetitive for a share code: it would expand to {n:,} bytes, more than {MAX_CODE_EXPANSION} times its size (a share code reader refuses it)",
                n=len(body),
                MAX_CODE_EXPANSION=MAX_CODE_EXPANSION,
            ),
            L_("share it as YAML or JSON ({option} yaml)", option=option("to")),
        )
    if len(packed) < len(body):
        head |= _F_DEFLATE
        body = packed
    check = b""
    if enc.checked:
        head |= _F_CHECK
        check = _check16(enc.checked).to_bytes(2, "big")
    payload = bytes([head]) + named + check + body
    crc = zlib.crc32(PREFIX.encode("ascii") + payload).to_bytes(4, "little")
    return PREFIX + base64.urlsafe_b64encode(payload + crc).decode("ascii").rstrip("=")


# -- decoding -------------------------------------------------------------------------------


class _Dec:
    def __init__(self, rd: _Reader, r: Resolver, where: str):
        self.rd = rd
        self.r = r
        self.where = where
        self.checked: list[str] = []
        self.left = MAX_VALUES  # the values a list file may hold, counted before they are built

    def count(self, n: int) -> int:
        """Take ``n`` values from the budget before building them; refuse a code over it."""
        self.left -= n
        if self.left < 0:
            raise _fail(too_many_values_message("the code"), "ask for a smaller list", self.where)
        return n

    def number(self, n: int) -> int:
        why = number_problem(n)
        if why:
            raise _fail(f"the code holds a {why}", "it was not made by daimyo", self.where)
        return n

    def ref(self, f: Field) -> str:
        n = self.rd.varint()
        if n:
            return self.rd.text(n - 1)
        h = int.from_bytes(self.rd.take(2), "big")
        sec = self.r.section(f)
        hits = self.r.hash_table(sec).get(h, []) if sec else []
        if len(hits) != 1:
            raise _fail(
                f"the code names a {f.what or 'catalog entry'} this catalog does not have (key {h:04x})"
                if not hits
                else f"the code's {f.what or 'name'} key {h:04x} matches several catalog entries",
                "the code was made with another version of the catalog; ask for the text export instead",
                self.where,
            )
        name = self.r.display(f, hits[0])
        self.checked.append(name)
        return name

    def mapping(self, fields) -> dict:
        present = self.rd.varint()
        if present >> len(fields):
            raise ValueError("unknown field")
        out = {}
        for i, f in enumerate(fields):
            if present & (1 << i):
                self.count(2)
                out[f.key] = self.value(f)
        return out

    def value(self, f: Field):
        rd = self.rd
        k = f.kind
        if k in ("text", "notes"):
            return rd.text()
        if k == "int":
            return self.number(_unzigzag(rd.varint()))
        if k == "bool":
            b = rd.byte()
            if b > 1:
                raise ValueError("bad true/false")
            return bool(b)
        if k == "ref":
            return self.ref(f)
        if k in ("refs", "texts"):
            return [self.ref(f) if k == "refs" else rd.text() for _ in range(self.count(rd.varint()))]
        if k == "counts":
            out: dict[str, object] = {}
            for _ in range(self.count(2 * rd.varint()) // 2):
                name = self.ref(f)
                n = _unzigzag(rd.varint())
                if n < 0 and f.accepts == "printed":  # a custom card (written by a negative count)
                    out[name] = {"printed": rd.text(), "count": self.number(-1 - n)}
                    continue
                have = out.get(name, 0)
                out[name] = self.number((have if isinstance(have, int) else 0) + n)
            return out
        if k == "rules":
            rules: dict[str, bool | int | float | str] = {}
            for _ in range(self.count(2 * rd.varint()) // 2):
                key = rd.text()
                tag = rd.byte()
                if tag in (0, 1):
                    rules[key] = bool(tag)
                elif tag == 2:
                    rules[key] = self.number(_unzigzag(rd.varint()))
                elif tag == 3:
                    value = struct.unpack(">d", rd.take(8))[0]
                    rules[key] = value
                    self.number(value)
                elif tag == 4:
                    rules[key] = rd.text()
                else:
                    raise ValueError("bad house rule value")
            return rules
        if k == "items":
            return [self.mapping(f.fields) for _ in range(self.count(rd.varint()))]
        raise AssertionError(k)  # pragma: no cover


def decode(code: str, where: str = "<code>", resolver: Resolver | None = None, max_body: int | None = None) -> dict:
    """The list document a share code carries; CodeError for anything damaged. ``max_body``: the
    most bytes its body may expand to, below the general bound (a viewer's tighter one)."""
    text = "".join(str(code).split())
    m = CODE_RE.match(text)
    if not m:
        if re.match(r"^[A-Za-z]{3}\d+-", text) and not text.startswith("DMY"):
            raise _fail("not a daimyo share code (daimyo codes start with 'DMY1-')", where=where)
        bad = next((c for c in text[len(PREFIX) :] if not re.match(r"[A-Za-z0-9_-]", c)), None)
        if text.startswith("DMY") and bad is not None:
            raise _fail(
                f"share code contains '{bad}', which no share code contains", "copy the code again, in one piece", where
            )
        raise _fail("not a daimyo share code (daimyo codes start with 'DMY1-')", where=where)
    version = int(m.group(1))
    if m.group(0)[: len(PREFIX)] != PREFIX:
        if version > VERSION:
            raise _fail(
                f"share code format version {version} is newer than this daimyo reads (version {VERSION})",
                "update daimyo, or ask for the text export",
                where,
            )
        raise _fail(f"unknown share code format version {m.group(1)}", where=where)
    b64 = m.group(2)
    if len(b64) % 4 == 1:
        raise _fail(
            "share code damaged: its length is impossible (a character was lost or added)",
            "copy the whole code again",
            where,
        )
    try:
        raw = base64.urlsafe_b64decode(b64 + "=" * (-len(b64) % 4))
    except Exception:
        raise _fail("share code damaged: not valid base64url", "copy the whole code again", where) from None
    if base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=") != b64:
        raise _fail(
            "share code damaged: a character was changed (checksum does not match)", "copy the whole code again", where
        )
    if len(raw) < 6:
        raise _fail("share code damaged: too short", "copy the whole code again", where)
    payload, crc = raw[:-4], raw[-4:]
    if zlib.crc32(PREFIX.encode("ascii") + payload).to_bytes(4, "little") != crc:
        raise _fail(
            "share code damaged: a character was changed, lost or added (checksum does not match)",
            "copy the whole code again",
            where,
        )
    head = payload[0]
    system, rest = _system_of(head, payload[1:], where)
    r = resolver or Resolver.of(system)
    check = None
    try:
        if head & _F_CHECK:
            check, rest = int.from_bytes(rest[:2], "big"), rest[2:]
            if len(payload) < 3:
                raise ValueError("code ends early")
        if head & _F_DEFLATE:
            most = min(1 << 20, max(MIN_CODE_BODY, MAX_CODE_EXPANSION * len(rest)))
            if max_body is not None:
                most = min(most, max_body)
            d = zlib.decompressobj(wbits=-15)
            body = d.decompress(rest, most + 1)
            if len(body) > most:
                raise _fail(
                    f"share code expands to more than {most:,} bytes ({MAX_CODE_EXPANSION} times its "
                    f"size, at least {MIN_CODE_BODY:,}): refused before it is read",
                    command_line("share a list this big as YAML or JSON ('daimyo export LIST --to yaml')"),
                    where,
                )
            if d.unconsumed_tail or not d.eof:
                raise ValueError("compressed body is damaged or too large")
            rest = body
        rd = _Reader(rest)
        dec = _Dec(rd, r, where)
        fields = [f for f in schema(system) if f.kind != "system"]
        doc = dec.mapping(fields)
        if rd.i != len(rest):
            raise ValueError("unexpected bytes at the end")
    except CodeError:
        raise
    except Exception as exc:
        raise _fail(f"share code cannot be read: {exc}", "it was not made by this version of daimyo", where) from None
    if (check is None) != (not dec.checked) or (check is not None and _check16(dec.checked) != check):
        raise _fail(
            "the code's catalog names do not match this catalog",
            "the code was made with another version of the catalog; ask for the text export instead",
            where,
        )
    return {"system": system, **doc}


_NAMED = 7  # header system bits: the game's id follows the header


def _system_head(system: str) -> tuple[int, bytes]:
    """The header's system bits, and the bytes naming the game after the header (a game not
    built in is named by its id: its number in the registry depends on what else is installed)."""
    if system in BUILT_IN_IDS:
        return BUILT_IN_IDS.index(system), b""
    name = system.encode("utf-8")
    if not 0 < len(name) < 256:
        raise _fail(
            f"a game id of {len(name)} bytes cannot be written in a share code",
            "register the game under an id of 1 to 255 bytes",
            "<share code>",
        )
    return _NAMED, bytes([len(name)]) + name


def _system_of(head: int, rest: bytes, where: str) -> tuple[str, bytes]:
    """The game a code names (see ``_system_head``) and the bytes after its name."""
    index = head & 0x07
    if head & 0x38 or (index >= len(BUILT_IN_IDS) and index != _NAMED):
        raise _fail("share code names an unknown game system", "update daimyo", where)
    if index != _NAMED:
        return BUILT_IN_IDS[index], rest
    n = rest[0] if rest else 0
    try:
        system = rest[1 : 1 + n].decode("utf-8") if n and len(rest) > n else ""
    except UnicodeDecodeError:
        system = ""
    if not system:
        raise _fail("share code damaged: the game's name is cut short", "copy the whole code again", where)
    if not is_system(system):
        raise _fail(
            f"share code is a list of the game '{system}', which is not installed here",
            "install the package that adds that game",
            where,
        )
    return system, rest[1 + n :]


def looks_like_code(text: str) -> bool:
    return bool(LOOKS_LIKE_CODE.match(text)) and "\n" not in text.strip()


def share_code_of(doc: Any) -> str | None:
    """The list's share code as a printout carries it (in its footer and QR code), of a list
    document or its data as read: None when the list has no code (it cannot be encoded) or the
    code is longer than a QR code holds (no one types a code of thousands of characters from
    paper)."""
    data = doc if isinstance(doc, dict) else getattr(doc, "data", None)
    if not isinstance(data, dict):
        return None
    try:
        code = encode(data)
    except Exception:  # a list the code cannot carry prints without one, as before
        return None
    return code if len(code.encode("utf-8")) <= QR_MAX_BYTES else None
