"""Kensei: an army of troops (units of N models) within an agreed battle size in AP."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from builder.errors import UnknownEntry
from builder.games.kensei.packs import KenseiPacks
from builder.i18n import L_
from builder.systems.base import GameSystem
from builder.systems.newlist import NewListPart, NewOption
from builder.systems.parts import part

if TYPE_CHECKING:
    from builder.catalog.loader import Catalog
    from builder.games.kensei.analytics import KenseiAnalytics
    from builder.games.kensei.edits import KenseiEditing, KenseiSettings
    from builder.games.kensei.printing import KenseiPrinting
    from builder.games.kensei.questions import KenseiQuestions
    from builder.games.kensei.roster import KenseiRoster, KenseiUnitCards
    from builder.games.kensei.rules import KenseiList  # noqa: F401 - the list type the game names: GameSystem["KenseiList", ...]
    from builder.games.kensei.text import KenseiText
    from builder.games.kensei.units import KenseiUnits
    from builder.games.kensei.view import KenseiBrowse, KenseiView
    from builder.systems.parts import ListData, Options


class KenseiNewList(NewListPart):
    """How a new Kensei list starts (``gs.new_list``): its options and the fields of the new-list form."""

    options = frozenset({"clan", "points", "commander", "occult"})
    example = "Buke vanguard"

    def declare(self, catalog: Catalog) -> list[NewOption]:
        return [
            NewOption(
                "clan",
                L_("Clan"),
                "choice",
                help=L_("the army's clan"),
                choices=tuple((e.id, e.name) for e in catalog.entries("clans") if e.playable),
                required=True,
                prompt="choose a clan",
            ),
            NewOption(
                "points", L_("Battle size (AP)"), "number", help=L_("the agreed battle size in AP"), default=200, min=1
            ),
            NewOption(
                "commander",
                L_("Commander"),
                "choice",
                help=L_("the commander's level"),
                default="hatamoto",
                choices=tuple((e.id, e.name) for e in catalog.entries("commander_levels")),
            ),
            NewOption(
                "occult",
                L_("Occult rules"),
                "flag",
                help=L_("use the advanced occult rules"),
                default=False,
                form=False,
            ),
        ]

    def body(self, data: ListData, catalog: Catalog, options: Options) -> list[str]:
        packs = data.pop("packs", None)
        data.update(
            {
                "clan": options["clan"],
                "points": options["points"],
                "commander": options["commander"],
                "occult": bool(options["occult"]),
                "troops": [],
            }
        )
        if packs:
            data["packs"] = packs
        return []


class Kensei(GameSystem["KenseiList", "Catalog"]):
    id = "kensei"
    name = "Kensei"
    title = "Kensei (miniature wargame, 2nd edition)"
    aliases = ("kensei 2nd edition", "kensei 2e")
    kind = "army"
    entries = ("troops",)
    what = "army"
    noun = "troop"

    def troop(self, catalog: Catalog, name: str) -> Any:
        t = catalog.find("troops", name)
        if t is None:
            raise UnknownEntry(
                L_("unknown troop '{name}'", name=name),
                catalog.did_you_mean("troops", name) or L_("see 'daimyo catalog list kensei troops'"),
            )
        return t

    # -- the parts it changes (``builder.systems.parts``) ------------------------------------------
    units: part[KenseiUnits] = part(".units:KenseiUnits")  # a Kensei army is units of models
    sheet: part[KenseiRoster] = part(".roster:KenseiRoster")  # the roster, printed instead of cards
    unit_cards: part[KenseiUnitCards] = part(".roster:KenseiUnitCards")
    text: part[KenseiText] = part(".text:KenseiText")
    analytics: part[KenseiAnalytics] = part(".analytics:KenseiAnalytics")
    settings: part[KenseiSettings] = part(".edits:KenseiSettings")
    new_list = part(KenseiNewList)
    questions: part[KenseiQuestions] = part(".questions:KenseiQuestions")
    view: part[KenseiView] = part(".view:KenseiView")
    browse: part[KenseiBrowse] = part(".view:KenseiBrowse")
    printing: part[KenseiPrinting] = part(".printing:KenseiPrinting")
    packs = part(KenseiPacks)
    editing: part[KenseiEditing] = part(".edits:KenseiEditing")  # a unit of a troop added, the last one removed


SYSTEM = Kensei()
