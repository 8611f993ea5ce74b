"""Pack identity: name, version, author, url, licence, and a hash of the content.

The pack-level keys (everything else in a pack is catalog sections):

========== ======== ==========================================================
key        required meaning
========== ======== ==========================================================
system     yes      the game the pack is for
name       no       the pack's name (default: the file name); ``pack:`` is the
                    older spelling and still read
version    no       any text, e.g. ``1`` or ``2024-06``; compared as text
author     no       who made it
url        no       where it is published
licence    no       the terms it is shared under (``license`` is read too)
description no      one line about it
example    no       true when the data is example data, not rulebook data
authors    no       several authors, a list of text (``author`` is one)
needs      no       the packs it needs, by name (``NAME`` or ``NAME@VERSION``)
daimyo     no       the lowest daimyo version it needs, e.g. ``"0.2"``
========== ======== ==========================================================

The hash is SHA-256 over the pack's data (not its text): key order, comments, quoting and
layout do not change it, any value does. A pack that names art images has them in its hash too
(``builder.catalog.packart``). It is written ``sha256:`` + 64 hex digits and
shown to people by its first 12.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from builder import limits, yamlio
from builder.catalog.packart import art_digests, art_folder, art_refs, with_art
from builder.errors import CatalogError, Diagnostic
from builder.i18n import L_
from builder.paths import display_path
from builder.yamlio import Positions, read_text

META_KEYS = (
    "system",
    "name",
    "pack",
    "version",
    "author",
    "authors",
    "url",
    "licence",
    "license",
    "description",
    "example",
    "needs",
    "daimyo",
    "i18n",
)
TEXT_META = ("name", "pack", "version", "author", "url", "licence", "license", "description", "daimyo")
LIST_META = ("authors", "needs")


def content_hash(data: Any) -> str:
    """``sha256:<hex>`` of the pack's data in a canonical JSON form."""
    try:
        text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    except TypeError:  # keys of mixed types (1 and "a") cannot be sorted: compare them as text
        text = json.dumps(_text_keys(data), sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    import hashlib  # noqa: PLC0415 - OpenSSL only when something is hashed (tests/test_startup.py)

    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def _text_keys(data: Any) -> Any:
    if isinstance(data, dict):
        return {str(k): _text_keys(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_text_keys(v) for v in data]
    return data


def _art_of(data: dict[str, Any], file: str | Path | None) -> dict[str, str]:
    if file is None or not art_refs(data) or "://" in str(file):
        return {}
    try:
        if not Path(file).is_file():
            return {}
    except (OSError, ValueError):
        return {}
    return art_digests(data, art_folder(file))


def short_hash(h: str | None) -> str:
    return (h or "").split(":", 1)[-1][:12]


def meta_diagnostics(data: dict[str, Any], pos: Positions) -> list[Diagnostic]:
    """Problems with the pack-level keys (wrong types)."""
    out = []
    for k in TEXT_META:
        if (
            k in data
            and data[k] is not None
            and (isinstance(data[k], bool) or not isinstance(data[k], (str, int, float)))
        ):
            out.append(
                pos.diag(
                    (k,),
                    L_("'{k}' must be text, not {name}", k=k, name=type(data[k]).__name__),
                    code="pack.type",
                    hint=f'e.g. {k}: "1.0"' if k in ("version", "daimyo") else None,
                )
            )
    for k in LIST_META:
        v = data.get(k)
        if v is not None and (not isinstance(v, list) or not all(isinstance(x, str) and x.strip() for x in v)):
            out.append(
                pos.diag(
                    (k,),
                    L_("'{k}' must be a list of names", k=k),
                    code="pack.type",
                    hint=f"e.g. {k}: [" + ("Other pack" if k == "needs" else "A. Author") + "]",
                )
            )
    return out


@dataclass
class PackId:
    """Who a pack is: what lists record and bundles carry."""

    name: str
    version: str | None
    hash: str
    system: str | None = None
    author: str | None = None
    url: str | None = None
    licence: str | None = None
    description: str | None = None
    example: bool = False
    file: str | None = None

    @classmethod
    def of(cls, data: dict[str, Any], file: str | Path | None = None, art: dict[str, str] | None = None) -> PackId:
        """``art``: {path: SHA-256} of the images the pack names (``builder.catalog.packart``);
        read from beside ``file`` when not given and ``file`` is a pack file here."""

        def text(*keys: str) -> str | None:
            for k in keys:
                v = data.get(k)
                if v is not None and not isinstance(v, (dict, list, bool)):
                    return str(v)
            return None

        name = text("name", "pack") or (Path(file).stem if file else "pack")
        return cls(
            name=name,
            version=text("version"),
            hash=with_art(content_hash(data), _art_of(data, file) if art is None else art),
            system=text("system"),
            author=text("author"),
            url=text("url"),
            licence=text("licence", "license"),
            description=text("description"),
            example=data.get("example") is True,
            file=str(file) if file else None,
        )

    def label(self) -> str:
        """``NAME VERSION`` for people (``NAME`` when it has no version)."""
        return self.name + (f" {self.version}" if self.version else "")

    def to_json(self) -> dict[str, str | bool | None]:
        d: dict[str, str | bool | None] = {"name": self.name, "version": self.version, "hash": self.hash}
        for k in ("author", "url", "licence"):
            if getattr(self, k):
                d[k] = getattr(self, k)
        if self.example:
            d["example"] = True
        return d

    def same_content(self, other: PackId) -> bool:
        return self.hash == other.hash


def read_pack(path: str | Path) -> tuple[dict[str, Any], object]:
    """The data and positions of a pack file; DaimyoError when it is not a readable mapping."""
    shown = display_path(path)
    data, pos = yamlio.parse_yaml(
        read_text(path, "pack.yaml", shown), shown, "pack.yaml", max_entries=limits.MAX_PACK_ENTRIES
    )
    if not isinstance(data, dict):
        raise CatalogError(pos.diag((), L_("a pack must be a mapping with 'system:' and sections"), code="pack.type"))
    return data, pos


def pack_id(path: str | Path) -> PackId:
    data, _ = read_pack(path)
    return PackId.of(data, path)
