"""What a pack template of Kensei documents (``gs.packs``): its sections and what each entry field means."""

from __future__ import annotations

from builder.systems.packs import PacksPart


class KenseiPacks(PacksPart):
    """What a pack template of Kensei documents (``gs.packs``)."""

    art_sections = ()  # printed with their art (art, focus)
    sections = ("troops",)

    docs = {
        "troops": {
            "clans": "the clans that may field the troop (empty: any clan)",
            "list_section": "the section of the army list it is bought in",
            "cost": "the cost in army points (AP) per model",
            "purchase": "a bulk purchase: {models: N, points: AP}",
            "troop_class": "the troop class",
            "leader": "true when the troop is a leader",
            "general": "true when it may be the army's general",
            "unique": "true when at most one may be fielded",
            "legendary": "true for a legendary troop",
            "troop_type": "infantry, cavalry, ...",
            "titles": "titles held",
            "volume": "the troop's volume (base size class)",
            "weapons": "weapons carried",
            "armour": "armour worn",
            "mount": "the mount, for cavalry",
            "abilities": "special abilities",
            "ki_abilities": "Ki abilities",
            "living": "false for creatures that are not living",
            "common": "true for common troops",
            "realm": "the realm of a creature",
            "single": "true when it is a single model, not a unit",
            "unit_min": "the fewest models in a unit",
            "unit_max": "the most models in a unit",
            "companions": "models that always come with it: [{troop: NAME, count: N}]",
            "profile": "the stat line: {mov: 10, at: 2, ini: 1, ho: 3, wo: 1} (also mov_alt, at_ranged, pr, ki)",
        },
    }

    values_from = {
        ("troops", "clans"): "clans",
        ("troops", "troop_class"): "troop_classes",
        ("troops", "troop_type"): "troop_types",
        ("troops", "titles"): "titles",
        ("troops", "weapons"): "weapons",
        ("troops", "armour"): "armour",
        ("troops", "abilities"): "abilities",
    }
