"""The fields of a pack's entries, read from the catalog's pydantic models.

``entry_fields(system, section)`` gives, for every field of the section's entry model, its
kind (text, whole number, number, true/false, one of fixed values, list, mapping), the
allowed values (fixed values, or names from another catalog section) and its meaning.
Templates (``daimyo pack new``) and spreadsheets (``daimyo pack import/export``) are built
from it, so a field added to a model appears in both; a test fails when a field has no
meaning written here.
"""

from __future__ import annotations

import types
import typing
from dataclasses import dataclass

from builder.catalog.loader import entry_sections
from builder.systems import catalog_module, get

COMMON_DOCS = {
    "name": "the name as printed; an entry named like a catalog entry completes or changes that entry",
    "id": "a short key (default: made from the name)",
    "aliases": "other spellings that find this entry",
    "notes": "free text",
    "art": "an image printed on the card (PNG or JPEG), as a path relative to the pack",
    "focus": "which part of the art stays when it is cropped to fill its box: center, top, bottom, "
    "left, right (or 'top left'), or X,Y fractions from the top-left such as 0.5,0.2",
    "source": "where the rulebook states it, as RULEBOOK-FILE:LINE (only for rulebook data)",
    "assumed": "what you assumed, or where the data comes from (e.g. 'printed on my cards')",
}

#: the separator of list values inside one spreadsheet cell
LIST_SEPARATOR = ";"


@dataclass
class FieldInfo:
    name: str
    kind: str  # text, int, number, bool, choice, list, mapping, items, value
    required: bool
    choices: tuple = ()
    meaning: str = ""
    values_from: str | None = None
    item_kind: str | None = None  # for lists: the kind of one item
    menu: str | None = None  # the catalog section whose names are the only values (a menu)

    def describe(self) -> str:
        return {
            "text": "text",
            "int": "whole number",
            "number": "number",
            "bool": "true or false",
            "choice": "one of " + ", ".join(map(str, self.choices)),
            "list": f"list of {_plural(self.item_kind)}",
            "mapping": "mapping",
            "items": "list of mappings",
            "value": "text as printed",
        }[self.kind]


def _plural(kind):
    return {"int": "whole numbers", "number": "numbers", "choice": "values", "value": "values"}.get(kind, "texts")


def _strip(ann):
    """The annotation without Optional/None and Annotated."""
    while True:
        origin = typing.get_origin(ann)
        if origin is typing.Annotated:
            ann = typing.get_args(ann)[0]
            continue
        if origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(ann) if a is not type(None)]
            if len(args) == 1:
                ann = args[0]
                continue
        return ann


def _annotated(ann) -> bool:
    """True when a validator converts the value (keep spreadsheet text as text)."""
    while True:
        origin = typing.get_origin(ann)
        if origin is typing.Annotated:
            return True
        if origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(ann) if a is not type(None)]
            if len(args) == 1:
                ann = args[0]
                continue
        return False


def kind_of(ann) -> tuple[str, tuple, str | None]:
    """(kind, choices, item kind) of an annotation."""
    annotated = _annotated(ann)
    base = _strip(ann)
    origin = typing.get_origin(base)
    if origin is typing.Literal:
        return "choice", typing.get_args(base), None
    if origin is list:
        (arg,) = typing.get_args(base) or (str,)
        inner, choices, _ = kind_of(arg)
        if inner in ("mapping", "items"):
            return "items", (), None
        return "list", choices, inner
    if origin is dict:
        return "mapping", (), None
    if base is bool:
        return "bool", (), None
    if base is int:
        return ("value" if annotated else "int"), (), None
    if base is float:
        return "number", (), None
    if base is str:
        return "text", (), None
    from pydantic import BaseModel  # noqa: PLC0415 - a catalog's models load pydantic; `daimyo pack list` reads none

    if isinstance(base, type) and issubclass(base, BaseModel):
        return "mapping", (), None
    return "value", (), None


def entry_model(system: str, section: str):
    model = catalog_module(system).CATALOG_MODEL
    field = model.model_fields.get(section)
    if field is None:
        return None
    args = typing.get_args(field.annotation)
    return args[0] if args else None


def entry_fields(system: str, section: str) -> list[FieldInfo]:
    """The fields a pack may give ``section`` entries: name first, the section's own, provenance
    last (art and focus only where the game prints the section's entries with art)."""
    cls = entry_model(system, section)
    if cls is None:
        return []

    gs = get(system)
    docs = gs.packs.docs.get(section, {})
    own: list[FieldInfo] = []
    common: list[FieldInfo] = []
    printed = gs.packs.art_sections
    for name, f in cls.model_fields.items():
        if name in ("art", "focus") and printed is not None and section not in printed:
            continue  # refused by the loader: the section is not printed with art
        kind, choices, item = kind_of(f.annotation)
        if f.annotation is not None and _strip(f.annotation) is str and kind == "text":
            pass
        meaning = docs.get(name) or COMMON_DOCS.get(name, "")
        info = FieldInfo(
            name,
            kind,
            f.is_required(),
            tuple(choices),
            meaning,
            gs.packs.values_from.get((section, name)),
            item,
            getattr(gs.packs, "menus", {}).get((section, name)),
        )
        (common if name in COMMON_DOCS else own).append(info)
    by = {f.name: f for f in common}
    head = [by.pop("name")] if "name" in by else []
    tail = [by[k] for k in ("id", "aliases", "notes", "art", "focus", "assumed", "source") if k in by]
    return head + own + tail


def main_sections(system: str) -> tuple[str, ...]:
    """The sections documented in full first (a pack may hold any section)."""
    return tuple(get(system).packs.sections)


def sections(system: str) -> list[str]:
    """Every entry section a pack of ``system`` may hold, the main ones first."""
    allsec = entry_sections(catalog_module(system).CATALOG_MODEL)
    main = [s for s in main_sections(system) if s in allsec]
    return main + [s for s in allsec if s not in main]
