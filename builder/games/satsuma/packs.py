"""What a pack template of Satsuma documents (``gs.packs``): its sections and what each entry field means."""

from __future__ import annotations

from builder.systems.packs import PacksPart


class SatsumaPacks(PacksPart):
    """What a pack template of Satsuma documents (``gs.packs``)."""

    art_sections = ("cards",)  # printed with their art (art, focus)
    sections = ("cards",)

    docs = {
        "cards": {
            "side": "the side whose deck holds the card",
            "printed": "the values as printed, e.g. 'F5' or 'F5 or M3'",
            "unknown_suit": "true when the suit cannot be read from the rulebook",
        },
    }
