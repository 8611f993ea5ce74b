"""What a new version of a pack changes, and for which lists: defined in
``builder.lists.packchanges`` (a list records the packs it was checked with, and its check says
what differs here); the names are kept here for the commands that install and update packs."""

from __future__ import annotations

from builder.lists.packchanges import (
    LIST_DEPTH,
    MAX_LISTS,
    EntryChange,
    for_list,
    list_drift,
    lists_in,
    lists_using,
    names_in,
    pack_changes,
    recorded_packs,
    summary,
)

__all__ = [
    "LIST_DEPTH",
    "MAX_LISTS",
    "EntryChange",
    "for_list",
    "list_drift",
    "lists_in",
    "lists_using",
    "names_in",
    "pack_changes",
    "recorded_packs",
    "summary",
]
