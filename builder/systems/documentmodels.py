"""The pydantic side of the list documents: the models they are built from, the building of a
game's model from its fields, and the validation of a list by it. :mod:`builder.systems.documents`
imports this module when a game's model is first built or a list validated, so a check from the
catalog cache imports no pydantic."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Optional, Union

from pydantic import BaseModel, BeforeValidator, ConfigDict, StrictBool, StrictInt, ValidationError, create_model

from builder.kit.modelerrors import pydantic_diagnostics

if TYPE_CHECKING:
    from builder.errors import Diagnostic
    from builder.kit.fields import Field


class CustomCard(BaseModel):
    """A card of a deck written as printed (a card of no pack): its text and its copies."""

    model_config = ConfigDict(extra="forbid")
    printed: str | None = None
    count: StrictInt | None = None


def build_model(name: str, fields: tuple[Field, ...]) -> Any:
    """The pydantic model called ``name`` of a document (or an item) made of ``fields``."""
    config = ConfigDict(extra="forbid", defer_build=True)
    # pydantic's field definitions: (annotation made at run time, default; ... = required)
    spec: dict[str, Any] = {f.key: (_annotation(f, name), ... if f.kind == "system" else None) for f in fields}
    return create_model(name, __config__=config, **spec)


def _annotation(f: Field, owner: str) -> Any:
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
            return Optional[dict[name, StrictInt | CustomCard | None]]
        return Optional[dict[name, StrictInt | None]]
    if f.kind == "items":
        item = build_model(f"{owner}_{f.key}", f.fields)
        key = f.item_key

        def named(v: object) -> object:  # an item written as its name alone ("- Samurai Yari")
            return {key: v} if key and isinstance(v, (str, int, float)) and not isinstance(v, bool) else v

        # a model class made at run time is a type to pydantic, not to a static checker
        return Optional[list[Annotated[item, BeforeValidator(named)]]]  # type: ignore[valid-type]
    raise ValueError(f"unknown field kind '{f.kind}' of '{f.key}'")  # pragma: no cover - a document's mistake


def validate(model: Any, data: dict[str, Any], positions: Any) -> list[Diagnostic]:
    """Diagnostics (file:line:col) for everything ``data`` breaks in ``model``; [] when it fits."""
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
