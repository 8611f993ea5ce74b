"""Pack identity: name, version, author, url, licence, and a hash of the content. It is defined in
``builder.catalog.packid`` (the catalog records the identity of each pack it merges); its names
are kept here for the commands that install, share and edit packs."""

from __future__ import annotations

from builder.catalog.packid import (
    LIST_META,
    META_KEYS,
    TEXT_META,
    PackId,
    content_hash,
    meta_diagnostics,
    pack_id,
    read_pack,
    short_hash,
)

__all__ = [
    "LIST_META",
    "META_KEYS",
    "TEXT_META",
    "PackId",
    "content_hash",
    "meta_diagnostics",
    "pack_id",
    "read_pack",
    "short_hash",
]
