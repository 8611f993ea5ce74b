"""A list's fingerprint: the one definition every face shows (docs/fingerprint.md).

The fingerprint covers what a list means and the content of the packs it is checked with, so
a judge holding a printed book can tell an honest list from a changed one, whichever face the
value was read from (``daimyo check``, ``daimyo print --book``, ``daimyo show``, an event's
pages, export, book and ``/api/reveal``, ``daimyo event verify``, the web builder's Share tab).

The bytes hashed are UTF-8 JSON with sorted keys, ``separators=(",", ":")`` and
``ensure_ascii=False`` of:

* the canonical list (``builder.share.canonical``, what ``daimyo export --to json`` holds)
  without ``checked_with`` (what the list records about its packs) and without ``packs`` (how
  it finds its pack files: a path, a file name or a pack's name), when it is checked with no
  pack;
* ``{"list": THAT, "packs": [HASH, ...]}`` otherwise, HASH being each pack's full content hash
  (``sha256:`` and 64 hex digits, as ``daimyo check --format json`` and ``daimyo pack check``
  give it), in the order the packs are applied (the list's order).

The fingerprint is the first 20 hex digits of the SHA-256 of those bytes, in five groups of
four separated by single spaces: ``fd46 f328 c00e ce2a 25b2``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from builder.errors import DaimyoError
from builder.lists.document import load_list
from builder.share.canonical import canonical

if TYPE_CHECKING:
    from builder.findings import CheckResult

DIGITS = 20  # hex digits shown (80 bits)
GROUP = 4  # digits per group
LEFT_OUT = ("checked_with", "packs")  # what a list says about its packs: the packs' content counts instead


def pack_hashes(packs: Iterable[Any]) -> list[str]:
    """The content hashes that enter a fingerprint: ``packs`` are hashes (``sha256:...``) or the
    packs of a check result (dicts with ``hash``), in the order they are applied. A hash is
    written ``sha256:`` and lower-case hex however it was given; a pack without one is left out."""
    out: list[str] = []
    for p in packs or ():
        h = p.get("hash") if isinstance(p, dict) else p
        h = str(h or "").strip().lower()
        if not h:
            continue
        out.append(h if h.startswith("sha256:") else "sha256:" + h)
    return out


def fingerprint_body(data: dict[str, Any], packs: Iterable[Any] = (), *, is_canonical: bool = False) -> dict[str, Any]:
    """What a fingerprint is taken of: the list document ``data`` (its parsed YAML/JSON mapping,
    in any share format's reading, canonical or not) in canonical form without what it says
    about its packs, with the packs' content hashes when it is checked with any.
    ``is_canonical``: ``data`` is in canonical form already (``canonical``'s own result)."""
    canon = dict(data) if is_canonical else canonical(dict(data))
    for key in LEFT_OUT:
        canon.pop(key, None)
    hashes = pack_hashes(packs)
    return {"list": canon, "packs": hashes} if hashes else canon


def fingerprint_bytes(data: dict[str, Any], packs: Iterable[Any] = (), *, is_canonical: bool = False) -> bytes:
    """The exact bytes whose SHA-256 the fingerprint is cut from."""
    body = fingerprint_body(data, packs, is_canonical=is_canonical)
    return json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def fingerprint_hex(data: dict[str, Any], packs: Iterable[Any] = (), *, is_canonical: bool = False) -> str:
    """The whole SHA-256 (64 hex digits) a fingerprint is cut from."""
    import hashlib  # noqa: PLC0415 - OpenSSL only when something is hashed (tests/test_startup.py)

    return hashlib.sha256(fingerprint_bytes(data, packs, is_canonical=is_canonical)).hexdigest()


def short_form(digest: str) -> str:
    """The first ``DIGITS`` hex digits of ``digest`` in groups of ``GROUP``, separated by spaces."""
    head = digest[:DIGITS]
    return " ".join(head[i : i + GROUP] for i in range(0, len(head), GROUP))


def fingerprint(data: dict[str, Any], packs: Iterable[Any] = (), *, is_canonical: bool = False) -> str:
    """The fingerprint of a list document and of the packs it is checked with (their content
    hashes, or the ``packs`` of its check result): ``fd46 f328 c00e ce2a 25b2``.
    ``is_canonical``: ``data`` is ``canonical``'s result already (it is not worked out again)."""
    return short_form(fingerprint_hex(data, packs, is_canonical=is_canonical))


def fingerprint_of_result(result: CheckResult, data: dict[str, Any] | None = None) -> str:
    """The fingerprint of a checked list file (a ``CheckResult`` of ``daimyo check``) with the
    packs it was checked with: of ``data`` (the list as read for the check) when given, else of
    the list read again from its file. Empty for a list that has no file to read again (a list
    read from stdin)."""
    if data is not None:
        return fingerprint(data, result.packs)
    try:
        doc = load_list(result.file)
        return fingerprint(doc.data, result.packs)
    except (DaimyoError, OSError, ValueError):
        return ""
