"""What a pack template of Senji documents (``gs.packs``): its sections and what each entry field means."""

from __future__ import annotations

from builder.systems.packs import PacksPart


class SenjiPacks(PacksPart):
    """What a pack template of Senji documents (``gs.packs``)."""

    art_sections = ()  # printed with their art (art, focus)
    sections = ("provinces",)

    docs = {
        "provinces": {
            "known": "false while the name is a placeholder",
            "region": "the region of Japan",
            "adjacent": "land provinces next to this one",
            "seas": "sea zones next to it",
        },
    }
