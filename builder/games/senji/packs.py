"""What a pack template of Senji documents (``gs.packs``): its sections and what each entry field means."""

from __future__ import annotations

from builder.i18n import L_
from builder.systems.packs import PacksPart


class SenjiPacks(PacksPart):
    """What a pack template of Senji documents (``gs.packs``)."""

    art_sections = ()  # printed with their art (art, focus)
    sections = ("provinces",)

    docs = {
        "provinces": {
            "known": L_("false while the name is a placeholder"),
            "region": L_("the region of Japan"),
            "adjacent": L_("land provinces next to this one"),
            "seas": L_("sea zones next to it"),
        },
    }
