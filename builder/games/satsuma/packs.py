"""What a pack template of Satsuma documents (``gs.packs``): its sections and what each entry field means."""

from __future__ import annotations

from builder.i18n import L_
from builder.systems.packs import PacksPart


class SatsumaPacks(PacksPart):
    """What a pack template of Satsuma documents (``gs.packs``)."""

    art_sections = ("cards",)  # printed with their art (art, focus)
    sections = ("cards",)

    docs = {
        "cards": {
            "side": L_("the side whose deck holds the card"),
            "printed": L_("the values as printed, e.g. 'F5' or 'F5 or M3'"),
            "unknown_suit": L_("true when the suit cannot be read from the rulebook"),
        },
    }
