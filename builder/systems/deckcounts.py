"""What a deck game's list holds of a card: its copies, and the mapping edits change. Below
both ``builder.systems.cards`` (the questions a deck answers) and ``builder.systems.cardediting``
(the edits), which the latter loads only when a list is edited."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from builder.errors import EditRefused
from builder.i18n import L_
from builder.systems.parts import ListData

__all__ = ["copies", "mapping_of"]


def copies(mapping: Mapping[Any, Any], keys: Iterable[Any]) -> int:
    total = 0
    for k in keys:
        v = mapping[k]
        total += int(v.get("count", 1)) if isinstance(v, dict) else int(v)
    return total


def mapping_of(data: ListData, key: str) -> dict[Any, Any]:
    m = data.get(key)
    if not isinstance(m, dict):
        raise EditRefused(
            L_("the list has no '{key}:' mapping to edit", key=key), L_("add '{key}: {{}}' to the file", key=key)
        )
    return m
