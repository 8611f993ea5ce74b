"""Satsuma Rebellion: a side's deck, the published one (``deck: standard``) or a variant."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from builder.errors import UsageError
from builder.games.satsuma.commands import COMMANDS
from builder.games.satsuma.packs import SatsumaPacks
from builder.games.satsuma.rules import SIDES, SUIT_NAMES
from builder.i18n import L_
from builder.names import did_you_mean
from builder.systems.cards import CardGame
from builder.systems.parts import part

if TYPE_CHECKING:
    from builder.catalog.loader import Catalog  # noqa: F401 - named as a string in the class's base
    from builder.games.satsuma.analytics import SatsumaAnalytics
    from builder.games.satsuma.edits import SatsumaEditing, SatsumaNewList, SatsumaQuestions, SatsumaSettings
    from builder.games.satsuma.printing import SatsumaPrinting
    from builder.games.satsuma.rules import SatsumaList  # noqa: F401 - named as a string in the class's base
    from builder.games.satsuma.text import SatsumaText
    from builder.games.satsuma.view import SatsumaBrowse, SatsumaView


class Satsuma(CardGame["SatsumaList", "Catalog"]):
    id = "satsuma"
    name = "Satsuma Rebellion"
    title = "Satsuma Rebellion (2-player card game)"
    aliases = ("satsuma rebellion",)
    commands = COMMANDS  # daimyo satsuma clash, daimyo satsuma simulate

    def side_of(self, value: str) -> str:
        """``value`` as a side (samurai or imperial); refused otherwise."""
        v = value.strip().lower()
        if v not in SIDES:
            raise UsageError(
                L_("side must be samurai or imperial, not '{value}'", value=value), did_you_mean(value, SIDES) or None
            )
        return v

    def kind_of(self, section: str, entry: Any) -> str | None:
        return SUIT_NAMES.get(str(entry.printed or "")[:1])

    # -- the parts it changes (``builder.systems.parts``) ------------------------------------------
    text: part[SatsumaText] = part(".text:SatsumaText")
    analytics: part[SatsumaAnalytics] = part(".analytics:SatsumaAnalytics")
    settings: part[SatsumaSettings] = part(".edits:SatsumaSettings")
    new_list: part[SatsumaNewList] = part(".edits:SatsumaNewList")
    questions: part[SatsumaQuestions] = part(".edits:SatsumaQuestions")
    view: part[SatsumaView] = part(".view:SatsumaView")
    browse: part[SatsumaBrowse] = part(".view:SatsumaBrowse")
    printing: part[SatsumaPrinting] = part(".printing:SatsumaPrinting")
    packs = part(SatsumaPacks)
    editing: part[SatsumaEditing] = part(".edits:SatsumaEditing")  # a published deck, a variant, the side's cards


SYSTEM = Satsuma()
