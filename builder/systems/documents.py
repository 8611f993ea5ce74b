"""The list document of each game: its keys, their order and kinds, and its pydantic model.

Each game's document is one tuple of fields (``builder.kit.fields.Field``), named after
the game's id (``KENSEI``); ``gs.document`` (``builder.systems.listdoc.DocumentPart``) finds it. It is the one description of a
list document: the order keys are written in and the keys a list may hold
(``gs.document.key_order``/``list_keys``), the share formats' schema (``builder.lists.schema``)
and the pydantic model a document is validated by (``list_model``), which is built from the
fields when first asked for, for that game only: nothing on the way of a single ``daimyo
check`` imports pydantic.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any

from builder import state
from builder.kit.fields import CHECKED_WITH, COMMON, Field

if TYPE_CHECKING:
    from builder.errors import Diagnostic

_CARD = ("cards",)

SENSHIAI = (
    Field("size", "int"),
    Field("cards", "counts", _CARD, what="card"),
)

KENSEI = (
    Field("clan", "ref", ("clans",), value="id", what="clan"),
    Field("points", "int"),
    Field("commander", "ref", ("commander_levels",), value="id", what="commander level"),
    Field("occult", "bool"),
    Field("general", "ref", ("troops",), what="troop"),
    Field(
        "troops",
        "items",
        item_key="troop",
        what="troop",
        fields=(
            Field("troop", "ref", ("troops",), what="troop"),
            Field("models", "int", default=1),
            Field("led_by", "ref", ("troops",), what="troop"),
            Field("standard", "bool", default=False, accepts="int"),  # more than one is an error the rules name
        ),
    ),
)

HEROCARD = (
    Field("hero", "ref", ("heroes",), what="hero"),
    Field("max_hero_points", "int"),
    Field("attributes", "refs", ("attributes", "attribute_cards", "cards"), what="attribute card"),
    Field("deck", "counts", ("actions", "action_cards", "cards"), what="card"),
)

SENJI = (
    Field(
        "players",
        "items",
        item_key="name",
        what="player",
        fields=(
            Field("name", "text"),
            Field("family", "ref", ("families",), value="id", what="family"),
            Field("samurai", "ref", ("samurai", "samurai_cards", "cards"), what="samurai card"),
            Field(
                "provinces",
                "items",
                item_key="province",
                what="province",
                fields=(
                    Field("province", "ref", ("provinces",), what="province"),
                    Field("units", "int", default=0),
                    Field("samurai", "bool", default=False),
                    Field("fortresses", "int", shared=False),  # the rules give each province its fortresses
                ),
            ),
        ),
    ),
)

SATSUMA = (
    Field("side", "ref", ("sides",), value="id", what="side"),
    Field("deck", "ref", ("decks",), value="id", what="deck"),
    Field("cards", "counts", _CARD, what="card", accepts="printed"),  # or a custom card: {printed: F5, count: 1}
)


def document(system_id: str) -> tuple[Field, ...] | None:
    """The fields of a built-in game's list document (its own keys, in the order they are written)."""
    return globals().get(system_id.upper().replace("-", "_"))


# -- the pydantic model ----------------------------------------------------------------------------

_MODELS: dict = state.cache(
    "systems.list_models",
    bound=None,
    lifetime=state.PROCESS,
    doc="the pydantic model of a game's list document, by game",
)


def list_model(system_id: str, fields: tuple[Field, ...]) -> Any:
    """The pydantic model of a game's list document, built from its fields (remembered)."""
    hit = _MODELS.get(system_id)
    if hit is not None and hit[0] == fields:
        return hit[1]
    model = _models().build_model(f"{system_id.capitalize()}List", COMMON + tuple(fields) + (CHECKED_WITH,))
    _MODELS[system_id] = (fields, model)
    return model


def _models() -> ModuleType:
    """``builder.systems.documentmodels``, imported when a model is first built or a list
    validated (it brings pydantic)."""
    from builder.systems import documentmodels  # noqa: PLC0415 - pydantic only when a list is validated; `daimyo check` from the catalog cache loads none

    return documentmodels


def validate(model: Any, data: dict[str, Any], positions: Any) -> list[Diagnostic]:
    """Diagnostics (file:line:col) for everything ``data`` breaks in ``model``; [] when it fits."""
    found: list[Diagnostic] = _models().validate(model, data, positions)
    return found
