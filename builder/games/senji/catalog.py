"""Catalog models for Senji (002_55c7e5ab3d1a76a7.txt).

The rulebook names only a few of the 18 provinces (Kyushu, Shikoku, "the
northernmost province") and a few samurai; the other entries are visible
placeholders (``known: false`` with ``assumed:``). A pack can supply a full board:
an entry with the same id (``province-04``) replaces the placeholder's fields.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from builder.catalog.base import BaseCatalog, Entry, Sourced, Strict
from builder.i18n import L_


class Family(Entry):
    colour: str
    symbol: str | None = None  # the family symbol on the dice of destiny; not described by the text
    known: bool = True  # false: the name is a placeholder, not given by the rulebook


class Province(Entry):
    known: bool = True  # false: a placeholder for a province the rulebook does not name
    region: str | None = None
    adjacent: list[str] = []  # land provinces next to this one (when a board pack gives them)
    seas: list[str] = []  # adjacent sea zones (when a board pack gives them)


class Samurai(Entry):
    known: bool = True
    honor: int | None = Field(default=None, ge=0)  # starting honor printed on the card (line 39)
    ability: str | None = None


class Kami(Entry):
    colour: str
    power: str


class Component(Entry):
    total: int = Field(ge=0)
    per_player: int | None = Field(default=None, ge=0)
    placed_at_start: int | None = Field(default=None, ge=0)


class Setup(Sourced):
    players: int = Field(ge=1)
    excluded: list[str] = []  # family names/ids
    neutral: list[str] = []  # province names/ids


class Number(Sourced):
    value: int
    notes: str | None = None


class Limits(Strict):
    players_min: Number
    players_max: Number
    starting_provinces: Number
    starting_units: Number
    starting_samurai: Number
    fortresses_per_province: Number
    units_per_province: Number
    units_per_player: Number
    units_per_fleet: Number
    provinces_per_player: Number
    board_provinces: Number
    samurai_cards_drawn: Number
    samurai_cards_kept: Number


class Combat(Strict):
    dice: Number
    unit_points: Number
    samurai_die_points: Number
    symbol_points: Number
    dummy_support_value: Number
    attacker_honor_multiplier: Number
    defender_honor_multiplier: Number


class Goal(Strict):
    honor: Number


class SenjiCatalog(BaseCatalog):
    families: list[Family] = []
    provinces: list[Province] = []
    samurai: list[Samurai] = []
    kami: list[Kami] = []
    components: list[Component] = []
    setups: list[Setup] = []
    limits: Limits | None = None
    combat: Combat | None = None
    goal: Goal | None = None


CATALOG_MODEL = SenjiCatalog


def cross_check(catalog: Any) -> list:
    m = catalog.model
    out = []
    seen_counts: dict[int, int] = {}
    for i, s in enumerate(m.setups):
        if s.players in seen_counts:
            out.append(
                catalog.diag(
                    ("setups", i, "players"),
                    L_("a second setup for {players} players", players=s.players),
                    hint=L_("each player count has one setup"),
                )
            )
        seen_counts.setdefault(s.players, i)
        for j, name in enumerate(s.excluded):
            if catalog.find("families", name) is None:
                out.append(
                    catalog.diag(
                        ("setups", i, "excluded", j),
                        L_("unknown family '{name}'", name=name),
                        hint=catalog.did_you_mean("families", name) or None,
                    )
                )
        for j, name in enumerate(s.neutral):
            if catalog.find("provinces", name) is None:
                out.append(
                    catalog.diag(
                        ("setups", i, "neutral", j),
                        L_("unknown province '{name}'", name=name),
                        hint=catalog.did_you_mean("provinces", name) or None,
                    )
                )
        if m.families and len(m.families) - len(s.excluded) < s.players:
            out.append(
                catalog.diag(
                    ("setups", i, "players"),
                    L_(
                        "{players} players but only {value} families are left after the exclusions",
                        players=s.players,
                        value=len(m.families) - len(s.excluded),
                    ),
                )
            )
    for i, p in enumerate(m.provinces):
        for key in ("adjacent",):
            for j, name in enumerate(getattr(p, key)):
                other = catalog.find("provinces", name)
                if other is None:
                    out.append(
                        catalog.diag(
                            ("provinces", i, key, j),
                            L_("unknown province '{name}'", name=name),
                            hint=catalog.did_you_mean("provinces", name) or None,
                        )
                    )
                elif p.name not in [
                    catalog.find("provinces", n).name
                    for n in other.adjacent
                    if catalog.find("provinces", n) is not None
                ]:
                    out.append(
                        catalog.diag(
                            ("provinces", i, key, j),
                            L_(
                                "'{name}' lists '{name2}' as adjacent but not the other way round",
                                name=p.name,
                                name2=other.name,
                            ),
                            hint=L_("adjacency goes both ways"),
                        )
                    )
    if m.limits is not None and m.provinces:
        want = m.limits.board_provinces.value
        if len(m.provinces) != want:
            # a province a pack adds (not one it names by a placeholder's id) is where it went wrong
            added = [
                i
                for i, p in enumerate(m.provinces)
                if catalog.from_pack.get(("provinces", p.id)) and catalog.override("provinces", p) is None
            ]
            out.append(
                catalog.diag(
                    ("provinces", added[0]) if added and len(m.provinces) > want else ("provinces",),
                    f"the board has {want} provinces "
                    f"(002_55c7e5ab3d1a76a7.txt:7), the catalog lists {len(m.provinces)}"
                    + (f"; the pack adds {', '.join(repr(m.provinces[i].name) for i in added)}" if added else ""),
                    hint=L_(
                        "a board pack names the placeholders by their ids (province-04 ... province-18) instead of adding provinces"
                    ),
                )
            )
    return out
