"""HeroCard: Rise of the Shogun: a hero with three attribute cards and an action deck."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from builder.games.herocard.packs import HeroCardPacks
from builder.systems.cards import CardGame
from builder.systems.parts import part

if TYPE_CHECKING:
    from builder.catalog.loader import Catalog  # noqa: F401 - named as a string in the class's base
    from builder.games.herocard.analytics import HeroCardAnalytics
    from builder.games.herocard.edits import HeroCardEditing, HeroCardNewList, HeroCardQuestions, HeroCardSettings
    from builder.games.herocard.printing import HeroCardPrinting
    from builder.games.herocard.rules import HeroList  # noqa: F401 - named as a string in the class's base
    from builder.games.herocard.text import HeroCardText
    from builder.games.herocard.view import HeroCardBrowse, HeroCardView


class HeroCard(CardGame["HeroList", "Catalog"]):
    id = "herocard"
    name = "HeroCard"
    title = "HeroCard: Rise of the Shogun (card duel)"
    aliases = ("hero card", "herocard rise of the shogun", "rise of the shogun")
    what = "hero"
    sections = (("action_cards", "deck"), ("attribute_cards", "attributes"))
    anchor_field = "kind"
    deck_word = "action deck"

    def kind_of(self, section: str, entry: Any) -> str | None:
        return "attribute" if section == "attribute_cards" else entry.kind

    # -- the parts it changes (``builder.systems.parts``) ------------------------------------------
    text: part[HeroCardText] = part(".text:HeroCardText")
    analytics: part[HeroCardAnalytics] = part(".analytics:HeroCardAnalytics")
    settings: part[HeroCardSettings] = part(".edits:HeroCardSettings")
    new_list: part[HeroCardNewList] = part(".edits:HeroCardNewList")
    questions: part[HeroCardQuestions] = part(".edits:HeroCardQuestions")
    view: part[HeroCardView] = part(".view:HeroCardView")
    browse: part[HeroCardBrowse] = part(".view:HeroCardBrowse")
    printing: part[HeroCardPrinting] = part(".printing:HeroCardPrinting")
    packs = part(HeroCardPacks)
    editing: part[HeroCardEditing] = part(".edits:HeroCardEditing")  # attribute cards one each, action cards by copies


SYSTEM = HeroCard()
