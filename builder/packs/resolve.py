"""Where a pack named in a list or on the command line is found: the search itself is
``builder.catalog.packfiles`` (the catalog loader merges the packs it is given by name, below the
packs commands); its names are kept here for the commands that manage packs, beside
``looks_like_pack``, which tells a pack from a list by the list keys its game's document has.
"""

from __future__ import annotations

from builder.catalog.packfiles import (
    PACK_SUFFIXES,
    WHERE_LABELS,
    Found,
    Header,
    bundled_dir,
    candidates,
    config_dir,
    in_workspace,
    install_dir,
    is_name,
    name_key,
    not_found_hint,
    pack_files,
    read_header,
    resolve_pack,
    resolve_recorded,
    search_dirs,
    split_ref,
    user_pack_dirs,
    version_key,
    workspace_dir,
)

__all__ = [
    "PACK_SUFFIXES",
    "WHERE_LABELS",
    "Found",
    "Header",
    "bundled_dir",
    "candidates",
    "config_dir",
    "in_workspace",
    "install_dir",
    "is_name",
    "looks_like_pack",
    "name_key",
    "not_found_hint",
    "pack_files",
    "read_header",
    "resolve_pack",
    "resolve_recorded",
    "search_dirs",
    "split_ref",
    "user_pack_dirs",
    "version_key",
    "workspace_dir",
]


_PACK_ONLY_KEYS = ("pack", "version", "licence", "license", "url", "example", "description")


def looks_like_pack(data) -> bool:
    """True when a document read as a list is a pack: pack-level keys such as ``version:``, or a
    section that is a list of named entries where a list has no such key."""
    if not isinstance(data, dict):
        return False
    system = data.get("system")
    if not isinstance(system, str):
        return False
    from builder.lists.schema import keys
    from builder.systems import is_system

    s = system.strip().lower()
    if not is_system(s):
        return False
    list_keys = set(keys(s))
    if any(k in data for k in _PACK_ONLY_KEYS if k not in list_keys):
        return True
    for k, v in data.items():
        if k in list_keys or not isinstance(v, list) or not v:
            continue
        if all(isinstance(x, dict) and "name" in x for x in v):
            return True
    # a section the list knows, written as entries (a Senshiai deck's cards are a mapping)
    for k in ("cards",):
        v = data.get(k)
        if isinstance(v, list) and v and all(isinstance(x, dict) and "name" in x for x in v):
            return True
    return False
