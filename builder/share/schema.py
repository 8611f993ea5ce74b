"""The shape of each system's list document, as the share formats see it.

One small schema per system (FORMATS.md section 1): the common fields here, the game's own
fields from its ``gs.document`` (``builder.systems.documents``), which also gives the
order keys are written in and the pydantic model a list is validated by. It drives everything in
``builder.share``: the canonical form (key order, defaults dropped inside
entries, names resolved through the catalog), the compact share code (fields in
schema order) and the text formats. The schema speaks of the list *document*
(plain dicts), never of a rules engine's internal model.

Field kinds:

* ``text``   free text (name, author, hero, a pack path)
* ``notes``  free text that may span lines
* ``int``    a whole number (bool is not a number)
* ``bool``   true or false
* ``ref``    a catalog name; ``sections`` are tried in order (the first one the
  catalog has is used) and ``value`` says what the canonical form writes:
  ``name`` (display name, e.g. a troop or card) or ``id`` (e.g. ``buke``)
* ``refs``   a list of ``ref``
* ``texts``  a list of ``text`` (packs)
* ``counts`` a mapping of catalog name -> count (a deck)
* ``rules``  the house-rules mapping (rule id -> scalar value)
* ``items``  a list of mappings, each described by ``fields``
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field as _field


@dataclass(frozen=True)
class Field:
    key: str
    kind: str
    sections: tuple[str, ...] = ()
    value: str = "name"  # for refs: "name" or "id"
    default: object = None  # inside items: a value equal to the default is dropped
    fields: tuple[Field, ...] = ()  # for items
    what: str = ""  # how a message names one value ("troop", "card", ...)
    item_key: str | None = None  # for items: the field that names an item (troop, province)
    accepts: str = ""  # what the list model accepts besides the kind: "int" (a bool field), "printed"
    shared: bool = True  # False: a list may hold it, but the share formats leave it out

    def sub(self, key: str) -> Field | None:
        return next((f for f in self.fields if f.key == key), None)

    def part(self, key: str) -> Field:
        """The sub-field ``key``, one this field is declared with (KeyError when it is not)."""
        f = self.sub(key)
        if f is None:
            raise KeyError(f"field '{self.key}' has no field '{key}'")
        return f


COMMON = (
    Field("system", "system"),
    Field("name", "text"),
    Field("author", "text"),
    Field("notes", "notes"),
    Field("packs", "texts"),
    Field("house_rules", "rules"),
)

#: Which packs (name, version, content hash) a list was checked with when it was exported; written
#: by ``daimyo export`` and compared with the local packs by ``daimyo import``. Last in every
#: schema, so share codes without it read as before.
CHECKED_WITH = Field("checked_with", "items", item_key="pack", what="pack", fields=(
    Field("pack", "text"),  # the reference as the list's ``packs:`` writes it
    Field("name", "text"),
    Field("version", "text"),
    Field("hash", "text"),  # sha256: and the first 16 hex digits of the pack's content hash
))


class _BySystem(Mapping):
    """A read-only mapping of every registered system's id to what ``compute(GameSystem)`` gives,
    worked out when first asked for (the games declare their documents in ``builder.systems``)."""

    def __init__(self, compute):
        self._compute = compute
        self._memo: dict = {}

    def __getitem__(self, system: str):
        from builder.systems import get, is_system

        if not isinstance(system, str) or not is_system(system):
            raise KeyError(system)
        gs = get(system)
        hit = self._memo.get(system)
        if hit is None or hit[0] is not gs:
            hit = self._memo[system] = (gs, self._compute(gs))
        return hit[1]

    def __iter__(self):
        from builder.systems import ids

        return iter(ids())

    def __len__(self) -> int:
        from builder.systems import ids

        return len(ids())


def _shared(fields) -> tuple[Field, ...]:
    from dataclasses import replace

    return tuple(replace(f, fields=_shared(f.fields)) if f.fields else f for f in fields if f.shared)


def _own_fields(gs) -> tuple[Field, ...]:
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


@dataclass
class Note:
    """A problem or remark met while reading shared input (line numbers for text)."""

    line: int
    col: int
    message: str
    severity: str = "warning"
    hint: str | None = None
    extra: dict = _field(default_factory=dict)
