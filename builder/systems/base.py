"""``GameSystem``: what every game answers, with defaults; each game declares the parts it changes.

How ``add`` and ``remove`` change a list is the game's ``editing`` part
(``builder.systems.editing``); ``Pick``, ``same_as`` and ``loc_of`` here are what its hooks share.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic

from typing_extensions import TypeVar

from builder.errors import UsageError
from builder.i18n import L_
from builder.kit.numbers import plural
from builder.names import normalize
from builder.systems.analytics import AnalyticsPart
from builder.systems.catalog import CatalogPart
from builder.systems.editing import EditingPart
from builder.systems.listdoc import COMMON_KEYS, DocumentPart
from builder.systems.newlist import NewListPart
from builder.systems.packs import PacksPart
from builder.systems.parts import (
    Analytics,
    Catalog,
    CatalogView,
    Commands,
    Document,
    Editing,
    ListData,
    ListView,
    NewList,
    Packs,
    Picked,
    Players,
    Printing,
    Questions,
    Rules,
    Settings,
    SheetPrinter,
    TextForm,
    UnitCards,
    Units,
    Where,
    part,
)
from builder.systems.printing import PrintingPart
from builder.systems.questions import QuestionsPart
from builder.systems.settings import TEXT_KEYS, SettingsPart, text_value
from builder.systems.text import TextPart
from builder.systems.view import BrowsePart, ViewPart, fmt

UNSET = ("none", "null", "off", "-")

# A game's list as its rules load it, and the catalog its parts are handed: a game names them on
# its class (``class Kensei(GameSystem["KenseiList", "Catalog"])``) and the type checker holds its
# parts to the contracts of ``builder.systems.parts`` with them; a ``GameSystem`` named without
# them (code outside the games) takes any list and catalog.
GameList = TypeVar("GameList", default=Any)
GameCatalog = TypeVar("GameCatalog", default=Any)


def whole(key: str, value: str, example: str) -> int:
    """``value`` as a whole number of at least 1, or a UsageError naming ``key``."""
    try:
        n = int(value)
    except ValueError:
        raise UsageError(
            L_("{key} must be a whole number, not '{value}'", key=key, value=value), f"e.g. {example}"
        ) from None
    if n < 1:
        raise UsageError(L_("{key} must be at least 1, not {n}", key=key, n=n))
    return n


class GameSystem(Generic[GameList, GameCatalog]):
    """One game: its identity and its parts. Subclasses set the class attributes and declare the
    parts they change (``text = part(KenseiText)``).

    ``entries``: list keys holding what ``add`` adds; ``what``: what a list of the game is called
    (army, deck, hero, setup); ``prints``: cards, roster or setup. The parts
    (``builder.systems.parts``) hold the rest: how add and remove change a list (``editing``),
    the list document (``document``), what ``set`` may change (``settings``), how a new list
    starts (``new_list``), the text form, analytics, packs, printing, the builder's views.
    """

    id: str = ""
    name: str = ""
    title: str = ""
    aliases: tuple[str, ...] = ()
    kind: str = "deck"
    entries: tuple[str, ...] = ()
    what: str = "list"
    noun: str = "card"
    # the parts only some games have (``builder.systems.parts``); None: the game has none
    units: Units[GameCatalog] | None = None  # a list of units of models, edited unit by unit
    players: Players[GameCatalog] | None = None  # a setup by player, one seat each
    sheet: SheetPrinter[GameList, GameCatalog] | None = (
        None  # a document printed instead of cards (a roster, a setup sheet)
    )
    unit_cards: UnitCards[GameList, GameCatalog] | None = (
        None  # cards of the units printed beside the sheet, also as images
    )
    # the parts every game has, each made from the game when first asked for
    text: part[TextForm] = part(TextPart)  # the text form (forums, chats): ``builder.share.text``
    document: part[Document] = part(DocumentPart)  # the list document's keys and model
    analytics: part[Analytics[GameList, GameCatalog]] = part(
        AnalyticsPart
    )  # statistics, odds, sample hands: ``builder.analytics``
    packs: part[Packs] = part(PacksPart)  # what a pack template documents: ``builder.packs``
    view: part[ListView[GameCatalog]] = part(ViewPart)  # how the builder shows a list: ``builder.web``
    new_list: part[NewList[GameCatalog]] = part(NewListPart)  # how a new list starts: 'daimyo new', the new-list form
    settings: part[Settings[GameCatalog]] = part(SettingsPart)  # what 'set KEY VALUE' may change: the Set operation
    questions: part[Questions[GameCatalog]] = part(QuestionsPart)  # what adding an entry would do: options, why
    browse: part[CatalogView[GameCatalog]] = part(
        BrowsePart
    )  # the catalog beside a list in the builder: ``builder.web``
    printing: part[Printing[GameCatalog]] = part(PrintingPart)  # what the printed documents ask: ``builder.render``
    editing: part[Editing[GameCatalog]] = part(EditingPart)  # how add and remove change a list: ``builder.lists``
    catalog: part[Catalog[GameList, GameCatalog]] = part(CatalogPart)  # its catalog and modules: ``builder.catalog``
    commands: Commands | None = None  # the game's own commands (``daimyo <id> ...``)

    def __repr__(self) -> str:
        return f"<GameSystem {self.id}>"

    @property
    def rules(self) -> Rules[GameList, GameCatalog]:
        """The game's rules (``load_list``, ``check``, ``summary``): what ``daimyo check`` calls."""
        return self.catalog.rules()

    @property
    def prints(self) -> str:
        """What a list of the game prints as: ``cards``, or its sheet's kind (``roster``, ``setup``)."""
        return "cards" if self.sheet is None else self.sheet.kind

    @property
    def layout(self) -> str:
        """How the web builder lays a list out: ``units``, ``players`` or ``cards`` (from the parts)."""
        return "units" if self.units is not None else "players" if self.players is not None else "cards"

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "name": self.name,
            "title": self.title,
            "aliases": list(self.aliases),
            "kind": self.kind,
            "entries": list(self.entries),
            "keys": list(self.document.list_keys),
            "set_keys": list(self.settings.keys),
            "prints": self.prints,
        }


class Pick:
    """A name resolved through the list's catalog and packs."""

    def __init__(self, section: str | None, entry: Any, name: str, field: str) -> None:
        self.section = section  # catalog section; None for a custom entry written in the list
        self.entry = entry
        self.name = name  # the catalog's spelling (or the list's, for a custom entry)
        self.field = field  # the list key that holds it


def same_as(pick: Picked, catalog: Any) -> Callable[[object], bool]:
    """A test: does a name written in the list name the picked entry?"""
    want = normalize(pick.name)

    def same(written: object) -> bool:
        if not isinstance(written, (str, int, float)) or isinstance(written, bool):
            return False
        if normalize(str(written)) == want:
            return True
        if pick.section is None:
            return False
        other = catalog.find(pick.section, str(written))
        return other is not None and other.id == pick.entry.id

    return same


def loc_of(data: ListData, pick: Picked, catalog: Any) -> Where | None:
    """Where the picked entry is written in ``data``: (field, key) or (field, index)."""
    same = same_as(pick, catalog)
    holder = data.get(pick.field)
    if isinstance(holder, list):
        for i, a in enumerate(holder):
            if same(a):
                return (pick.field, i)
        return None
    if isinstance(holder, dict):
        for k in holder:
            if same(k):
                return (pick.field, k)
    return None


__all__ = [
    "COMMON_KEYS",
    "TEXT_KEYS",
    "UNSET",
    "GameSystem",
    "Pick",
    "fmt",
    "loc_of",
    "plural",
    "same_as",
    "text_value",
    "whole",
]
