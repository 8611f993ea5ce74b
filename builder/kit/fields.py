"""The fields of a list document, as the games declare them (``gs.document``) and the
share formats read them (``builder.lists.schema`` gives each game's schema: these common fields,
then the game's own).

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

from dataclasses import dataclass


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
CHECKED_WITH = Field(
    "checked_with",
    "items",
    item_key="pack",
    what="pack",
    fields=(
        Field("pack", "text"),  # the reference as the list's ``packs:`` writes it
        Field("name", "text"),
        Field("version", "text"),
        Field("hash", "text"),  # sha256: and the first 16 hex digits of the pack's content hash
    ),
)

#: The keys every list document may hold besides its game's own (the common fields and
#: ``checked_with``).
COMMON_KEYS = (*(f.key for f in COMMON), CHECKED_WITH.key)
