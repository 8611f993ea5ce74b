"""``DocumentPart``: a game's list document (``gs.document``). The fields themselves are in
``builder.systems.documents``, whose model is built when first asked for (a check that only reads
a list does not need pydantic)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from builder.systems.documents import document, list_model, validate
from builder.systems.parts import ListData

if TYPE_CHECKING:
    from builder.errors import Diagnostic
    from builder.kit.fields import Field

COMMON_KEYS = ("system", "name", "author", "notes", "packs", "house_rules")  # the keys of ``builder.kit.fields.COMMON``


class DocumentPart:
    """A game's list document (``gs.document``): its own keys, their order and kinds, its model.

    A built-in game's fields are the tuple above named after its id; a game of another package
    declares its own (``declared``) in a subclass."""

    declared: tuple[Field, ...] = ()  # the fields of a game this module does not hold

    def __init__(self, game: Any):
        self.game = game

    @property
    def fields(self) -> tuple[Field, ...]:
        """The fields (``builder.kit.fields.Field``) of the game's own list keys, in order."""
        own = document(self.game.id)
        return tuple(self.declared) if own is None else own

    @property
    def key_order(self) -> tuple[str, ...]:
        """The game's own list keys in the order they are written."""
        return tuple(f.key for f in self.fields)

    @property
    def list_keys(self) -> tuple[str, ...]:
        """Every key a list of the game may hold, in the order they are written."""
        return COMMON_KEYS + self.key_order

    def model(self) -> type:
        """The pydantic model of a list document of the game (built on first use)."""
        return list_model(self.game.id, self.fields)

    def validate(self, data: ListData, positions: object) -> list[Diagnostic]:
        """Diagnostics (file:line:col) for what ``data`` breaks in the list model; [] when it fits."""
        return validate(self.model(), data, positions)
