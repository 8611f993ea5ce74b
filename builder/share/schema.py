"""The shape of each system's list document, as the share formats see it.

One small schema per system (FORMATS.md section 1) drives everything in
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

from dataclasses import dataclass, field as _field


@dataclass(frozen=True)
class Field:
    key: str
    kind: str
    sections: tuple[str, ...] = ()
    value: str = "name"  # for refs: "name" or "id"
    default: object = None  # inside items: a value equal to the default is dropped
    fields: tuple["Field", ...] = ()  # for items
    what: str = ""  # how a message names one value ("troop", "card", ...)
    item_key: str | None = None  # for items: the field that names an item (troop, province)

    def sub(self, key: str) -> "Field | None":
        return next((f for f in self.fields if f.key == key), None)


COMMON = (
    Field("system", "system"),
    Field("name", "text"),
    Field("author", "text"),
    Field("notes", "notes"),
    Field("packs", "texts"),
    Field("house_rules", "rules"),
)

_CARD = ("cards",)

SCHEMAS: dict[str, tuple[Field, ...]] = {
    "kensei": (
        Field("clan", "ref", ("clans",), value="id", what="clan"),
        Field("points", "int"),
        Field("commander", "ref", ("commander_levels",), value="id", what="commander level"),
        Field("occult", "bool"),
        Field("general", "ref", ("troops",), what="troop"),
        Field("troops", "items", item_key="troop", what="troop", fields=(
            Field("troop", "ref", ("troops",), what="troop"),
            Field("models", "int", default=1),
            Field("led_by", "ref", ("troops",), what="troop"),
            Field("standard", "bool", default=False),
        )),
    ),
    "senshiai": (
        Field("size", "int"),
        Field("cards", "counts", _CARD, what="card"),
    ),
    "herocard": (
        Field("hero", "ref", ("heroes",), what="hero"),
        Field("max_hero_points", "int"),
        Field("attributes", "refs", ("attributes", "attribute_cards", "cards"), what="attribute card"),
        Field("deck", "counts", ("actions", "action_cards", "cards"), what="card"),
    ),
    "senji": (
        Field("players", "items", item_key="name", what="player", fields=(
            Field("name", "text"),
            Field("family", "ref", ("families",), value="id", what="family"),
            Field("samurai", "ref", ("samurai", "samurai_cards", "cards"), what="samurai card"),
            Field("provinces", "items", item_key="province", what="province", fields=(
                Field("province", "ref", ("provinces",), what="province"),
                Field("units", "int", default=0),
                Field("samurai", "bool", default=False),
            )),
        )),
    ),
    "satsuma": (
        Field("side", "ref", ("sides",), value="id", what="side"),
        Field("deck", "ref", ("decks",), value="id", what="deck"),
        Field("cards", "counts", _CARD, what="card"),
    ),
}

#: Which packs (name, version, content hash) a list was checked with when it was exported; written
#: by ``daimyo export`` and compared with the local packs by ``daimyo import``. Last in every
#: schema, so share codes without it read as before.
CHECKED_WITH = Field("checked_with", "items", item_key="pack", what="pack", fields=(
    Field("pack", "text"),  # the reference as the list's ``packs:`` writes it
    Field("name", "text"),
    Field("version", "text"),
    Field("hash", "text"),  # sha256: and the first 16 hex digits of the pack's content hash
))
for _s in SCHEMAS:
    SCHEMAS[_s] = SCHEMAS[_s] + (CHECKED_WITH,)
del _s

#: Short labels used in text headers (and accepted on import, with the ids).
LABELS = {
    "senshiai": "Senshiai",
    "kensei": "Kensei",
    "herocard": "HeroCard",
    "senji": "Senji",
    "satsuma": "Satsuma Rebellion",
}
EXTRA_LABELS = {
    "herocard": ("HeroCard: Rise of the Shogun", "Rise of the Shogun", "Hero Card"),
    "satsuma": ("Satsuma",),
}


def schema(system: str) -> tuple[Field, ...]:
    own = SCHEMAS.get(system)
    if own is None:  # a registered game: its GameSystem gives its fields
        from builder.systems import get

        own = tuple(get(system).share_fields) + (CHECKED_WITH,)
    return COMMON + own


def keys(system: str) -> list[str]:
    return [f.key for f in schema(system)]


def field_of(system: str, key: str) -> Field | None:
    return next((f for f in schema(system) if f.key == key), None)


@dataclass
class Note:
    """A problem or remark met while reading shared input (line numbers for text)."""

    line: int
    col: int
    message: str
    severity: str = "warning"
    hint: str | None = None
    extra: dict = _field(default_factory=dict)
