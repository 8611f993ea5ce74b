"""The pydantic models the list documents' models are built from (:mod:`builder.systems.documents`
builds each game's model when a list is first validated; this module is imported then, so a check
from the catalog cache imports no pydantic)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, StrictInt


class CustomCard(BaseModel):
    """A card of a deck written as printed (a card of no pack): its text and its copies."""

    model_config = ConfigDict(extra="forbid")
    printed: str | None = None
    count: StrictInt | None = None
