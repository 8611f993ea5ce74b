"""Declarative army-building restrictions (data evaluated by builder.rules.engine)."""

from __future__ import annotations

from typing import Any

from builder.catalog.base import Sourced


class Restriction(Sourced):
    """Placeholder shape; the restriction engine defines the full model."""

    id: str
    description: str | None = None
    spec: dict[str, Any] = {}
