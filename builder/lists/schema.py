"""The shape of each system's list document, as the share formats and the list writer see it.

One small schema per system (FORMATS.md section 1): the common fields here, the game's own
fields from its ``gs.document`` (``builder.systems.documents``), which also gives the
order keys are written in and the pydantic model a list is validated by. It drives everything in
``builder.share``: the canonical form (key order, defaults dropped inside
entries, names resolved through the catalog), the compact share code (fields in
schema order) and the text formats. The schema speaks of the list *document*
(plain dicts), never of a rules engine's internal model.

The fields themselves (``Field``, the ``COMMON`` ones and ``CHECKED_WITH``) are in
``builder.kit.fields``, below the games that declare their documents with them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from builder.kit.fields import CHECKED_WITH, COMMON, Field
from builder.systems import get, ids, is_system

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

    from builder.systems.base import GameSystem


class _BySystem(Mapping):
    """A read-only mapping of every registered system's id to what ``compute(GameSystem)`` gives,
    worked out when first asked for (the games declare their documents in ``builder.systems``)."""

    def __init__(self, compute: Callable[[GameSystem], Any]) -> None:
        self._compute = compute
        self._memo: dict = {}

    def __getitem__(self, system: str) -> Any:
        if not isinstance(system, str) or not is_system(system):
            raise KeyError(system)
        gs = get(system)
        hit = self._memo.get(system)
        if hit is None or hit[0] is not gs:
            hit = self._memo[system] = (gs, self._compute(gs))
        return hit[1]

    def __iter__(self) -> Iterator[str]:
        return iter(ids())

    def __len__(self) -> int:
        return len(ids())


def _shared(fields: Iterable[Field]) -> tuple[Field, ...]:
    return tuple(replace(f, fields=_shared(f.fields)) if f.fields else f for f in fields if f.shared)


def _own_fields(gs: GameSystem) -> tuple[Field, ...]:
    return _shared(gs.document.fields) + (CHECKED_WITH,)


#: The fields of each system's list document after the common ones (``gs.document.fields``).
SCHEMAS: Mapping[str, tuple[Field, ...]] = _BySystem(_own_fields)


def schema(system: str) -> tuple[Field, ...]:
    """Every field of ``system``'s list document, in the order a list is written."""
    return COMMON + SCHEMAS[system]


def keys(system: str) -> list[str]:
    return [f.key for f in schema(system)]


def field_of(system: str, key: str) -> Field | None:
    return next((f for f in schema(system) if f.key == key), None)


def declared_field(system: str, key: str) -> Field:
    """The field ``key`` of ``system``'s list document, one the game declares (KeyError when not)."""
    f = field_of(system, key)
    if f is None:
        raise KeyError(f"{system} lists have no field '{key}'")
    return f
