"""What a pack template of HeroCard documents (``gs.packs``): its sections and what each entry field means."""

from __future__ import annotations

from builder.i18n import L_
from builder.systems.packs import PacksPart


class HeroCardPacks(PacksPart):
    """What a pack template of HeroCard documents (``gs.packs``)."""

    art_sections = ("attribute_cards", "action_cards")  # printed with their art (art, focus)
    sections = (
        "attribute_cards",
        "action_cards",
    )

    docs = {
        "attribute_cards": {
            "hero": L_("the hero the card belongs to"),
            "attribute": L_("which attribute the card is: body, mind or x"),
            "score": L_("the Attribute score"),
            "hero_points": L_("the hero points printed in the bottom left corner"),
            "text": L_("the card's text"),
        },
        "action_cards": {
            "hero": L_("the hero whose deck it belongs to (empty: any hero)"),
            "kind": L_("what the card does"),
            "action_type": L_("when it can be played"),
            "cost": L_("the Action Cost (a number)"),
            "attribute": L_("the attribute the cost is paid with: body, mind or x"),
            "value": L_("the constant value (attack or block)"),
            "variable": L_("a variable value, as text"),
            "text": L_("the card's text"),
        },
    }

    values_from = {
        ("attribute_cards", "hero"): "heroes",
        ("action_cards", "hero"): "heroes",
    }
