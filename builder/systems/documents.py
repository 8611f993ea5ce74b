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

from typing import TYPE_CHECKING, Annotated, Any, Optional, Union

from builder import state
from builder.kit.fields import CHECKED_WITH, COMMON, Field
from builder.kit.modelerrors import pydantic_diagnostics

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
    model = _model(f"{system_id.capitalize()}List", COMMON + tuple(fields) + (CHECKED_WITH,))
    _MODELS[system_id] = (fields, model)
    return model


def _model(name: str, fields: tuple[Field, ...]) -> Any:
    from pydantic import ConfigDict, create_model  # noqa: PLC0415 - pydantic only when a list is validated; `daimyo check` from the catalog cache loads none

    config = ConfigDict(extra="forbid", defer_build=True)
    # pydantic's field definitions: (annotation made at run time, default; ... = required)
    spec: dict[str, Any] = {f.key: (_annotation(f, name), ... if f.kind == "system" else None) for f in fields}
    return create_model(name, __config__=config, **spec)


def _annotation(f: Field, owner: str) -> Any:
    from pydantic import StrictBool, StrictInt  # noqa: PLC0415 - pydantic only when a list is validated; `daimyo check` from the catalog cache loads none

    name = Union[str, StrictInt, float]  # a name as YAML reads it (a card called 1600 is a number)
    if f.kind == "system":
        return str
    if f.kind in ("text", "notes", "ref"):
        return Optional[name]
    if f.kind == "int":
        return Optional[StrictInt]
    if f.kind == "bool":
        return Optional[StrictBool | StrictInt] if f.accepts == "int" else Optional[StrictBool]
    if f.kind == "refs":
        return Optional[list[name | None] | name]
    if f.kind == "texts":
        return Optional[list[str] | str]
    if f.kind == "rules":
        return Optional[dict[str, Any]]
    if f.kind == "counts":
        if f.accepts == "printed":
            from builder.systems.documentmodels import CustomCard  # noqa: PLC0415 - pydantic only when a list is validated

            return Optional[dict[name, Optional[StrictInt | CustomCard]]]
        return Optional[dict[name, Optional[StrictInt]]]
    if f.kind == "items":
        from pydantic import BeforeValidator  # noqa: PLC0415 - pydantic only when a list is validated; `daimyo check` from the catalog cache loads none

        item = _model(f"{owner}_{f.key}", f.fields)
        key = f.item_key

        def named(v: object) -> object:  # an item written as its name alone ("- Samurai Yari")
            return {key: v} if key and isinstance(v, (str, int, float)) and not isinstance(v, bool) else v

        # a model class made at run time is a type to pydantic, not to a static checker
        return Optional[list[Annotated[item, BeforeValidator(named)]]]  # type: ignore[valid-type]
    raise ValueError(f"unknown field kind '{f.kind}' of '{f.key}'")  # pragma: no cover - a document's mistake


def validate(model: Any, data: dict[str, Any], positions: Any) -> list[Diagnostic]:
    """Diagnostics (file:line:col) for everything ``data`` breaks in ``model``; [] when it fits."""
    from pydantic import ValidationError  # noqa: PLC0415 - pydantic only when a list is validated; `daimyo check` from the catalog cache loads none

    try:
        model.model_validate(data)
    except ValidationError as exc:
        return pydantic_diagnostics(_Located(exc, data), positions, model, prefix=None)
    return []


class _Located:
    """A ValidationError whose locations keep only the keys and indexes of the document (pydantic
    adds the name of the union member or model it tried)."""

    def __init__(self, exc: Any, data: object) -> None:
        self.exc, self.data = exc, data

    def errors(self, **kw: Any) -> list[dict[str, Any]]:
        out = []
        for err in self.exc.errors(**kw):
            node, loc = self.data, []
            for part in err["loc"]:
                if (isinstance(node, dict) and part in node) or (
                    isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
                ):
                    loc.append(part)
                    node = node[part]
                elif err["type"] == "extra_forbidden" or err["type"] == "missing":
                    if part == err["loc"][-1]:
                        loc.append(part)
            out.append(dict(err, loc=tuple(loc)))
        return out
