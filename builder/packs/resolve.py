"""Where a pack named in a list or on the command line is found: the search itself is
``builder.catalog.packfiles`` (the catalog loader merges the packs it is given by name, below the
packs commands), and ``looks_like_pack``, which tells a pack from a document read as a list, is
``builder.lists.document``; their names are kept here for the commands that manage packs.
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
from builder.lists.document import looks_like_pack

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
