"""``PacksPart``: what a pack template of a game documents (``gs.packs``, read by ``builder.packs``)."""

from __future__ import annotations

from typing import Any


class PacksPart:
    """The ``Packs`` part: none of a game's sections documented (a template lists them as found)."""

    sections: tuple[str, ...] = ()  # the catalog sections a pack template documents first
    docs: dict[str, dict[str, str]] = {}  # section -> entry field -> what it means
    values_from: dict[tuple[str, str], str] = {}  # (section, field) -> the section naming its values
    # (section, field) -> the catalog section whose names are the only values the field takes
    # (the pack editor offers them in a menu)
    menus: dict[tuple[str, str], str] = {}
    # the sections whose entries are printed with their art ('art', 'focus'); None: any section
    # (a game that does not say); a pack giving art to an entry of another section is refused
    art_sections: tuple[str, ...] | None = None

    def __init__(self, game: Any):
        self.game = game
