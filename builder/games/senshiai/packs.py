"""What a pack template of Senshiai documents (``gs.packs``): its sections and what each entry field means."""

from __future__ import annotations

from builder.systems.packs import PacksPart


class SenshiaiPacks(PacksPart):
    """What a pack template of Senshiai documents (``gs.packs``)."""

    art_sections = ("cards",)  # printed with their art (art, focus)
    sections = ("cards",)

    docs = {
        "cards": {
            "type": "the card type",
            "subtype": "the subtype printed on the card (a Capital is a terrain with subtype Capital)",
            "cost": "the cost: N (none) or a Roman numeral I-V",
            "paths": "the paths of the card",
            "limit": "terrains: how many may be in play (1 when not printed)",
            "speed": "units: the Speed",
            "power": "units and Capitals: Power as ATTACK/DEFENCE/HEALTH, e.g. 3/0/6 ('n' for none)",
            "target": "events: what the event targets",
            "duration": "events: how long it lasts",
            "abilities": "concise abilities, as printed (e.g. 'Recruit (Infantry)')",
            "text": "the card's long ability text",
            "modifiers": "power bonuses or penalties given to the target, e.g. +1/0/0",
        },
    }

    values_from = {
        ("cards", "subtype"): "subtypes",
        ("cards", "paths"): "paths",
        ("cards", "abilities"): "abilities",
    }

    menus = {
        ("cards", "cost"): "costs",
        ("cards", "paths"): "paths",
    }
