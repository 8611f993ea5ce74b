"""What a pack template of HeroCard documents (``gs.packs``): its sections and what each entry field means."""

from __future__ import annotations

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
            "hero": "the hero the card belongs to",
            "attribute": "which attribute the card is: body, mind or x",
            "score": "the Attribute score",
            "hero_points": "the hero points printed in the bottom left corner",
            "text": "the card's text",
        },
        "action_cards": {
            "hero": "the hero whose deck it belongs to (empty: any hero)",
            "kind": "what the card does",
            "action_type": "when it can be played",
            "cost": "the Action Cost (a number)",
            "attribute": "the attribute the cost is paid with: body, mind or x",
            "value": "the constant value (attack or block)",
            "variable": "a variable value, as text",
            "text": "the card's text",
        },
    }

    values_from = {
        ("attribute_cards", "hero"): "heroes",
        ("action_cards", "hero"): "heroes",
    }
