"""What a pack template of Kensei documents (``gs.packs``): its sections and what each entry field means."""

from __future__ import annotations

from builder.i18n import L_
from builder.systems.packs import PacksPart


class KenseiPacks(PacksPart):
    """What a pack template of Kensei documents (``gs.packs``)."""

    art_sections = ()  # printed with their art (art, focus)
    sections = ("troops",)

    docs = {
        "troops": {
            "clans": L_("the clans that may field the troop (empty: any clan)"),
            "list_section": L_("the section of the army list it is bought in"),
            "cost": L_("the cost in army points (AP) per model"),
            "purchase": L_("a bulk purchase: {models: N, points: AP}"),
            "troop_class": L_("the troop class"),
            "leader": L_("true when the troop is a leader"),
            "general": L_("true when it may be the army's general"),
            "unique": L_("true when at most one may be fielded"),
            "legendary": L_("true for a legendary troop"),
            "troop_type": L_("infantry, cavalry, ..."),
            "titles": L_("titles held"),
            "volume": L_("the troop's volume (base size class)"),
            "weapons": L_("weapons carried"),
            "armour": L_("armour worn"),
            "mount": L_("the mount, for cavalry"),
            "abilities": L_("special abilities"),
            "ki_abilities": L_("Ki abilities"),
            "living": L_("false for creatures that are not living"),
            "common": L_("true for common troops"),
            "realm": L_("the realm of a creature"),
            "single": L_("true when it is a single model, not a unit"),
            "unit_min": L_("the fewest models in a unit"),
            "unit_max": L_("the most models in a unit"),
            "companions": L_("models that always come with it: [{troop: NAME, count: N}]"),
            "profile": L_("the stat line: {mov: 10, at: 2, ini: 1, ho: 3, wo: 1} (also mov_alt, at_ranged, pr, ki)"),
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
