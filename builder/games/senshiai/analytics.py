"""Senshiai as statistics, odds and sample hands see it: the deck view, the cost curve, what a hand holds."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from builder.games.senshiai.catalog import CARD_TYPES, PATHS, ROMAN, cost_label
from builder.games.senshiai.rules import card_abilities, hand_size
from builder.i18n import L_, _, ngettext
from builder.kit.deck import DeckView, FieldSpec, Row, unknown_note
from builder.kit.facts import Loaded, rule_limits
from builder.systems.analytics import AnalyticsPart

if TYPE_CHECKING:
    from builder.catalog.loader import Catalog
    from builder.games.senshiai.rules import Deck
    from builder.systems.parts import HouseRules


def senshiai_view(lst: Deck, catalog: Catalog, rules: HouseRules) -> DeckView:
    return _senshiai(lst, catalog)


def _senshiai(deck: Deck, catalog: Catalog) -> DeckView:

    fields = {
        "name": FieldSpec("name", L_("Card"), counted=False, aliases=("card",)),
        "type": FieldSpec("type", L_("Type"), aliases=("types",)),
        "subtype": FieldSpec("subtype", L_("Subtype"), aliases=("subtypes",)),
        "cost": FieldSpec("cost", L_("Cost"), kind="ordinal", order=ROMAN + ("?",), aliases=("costs",)),
        "path": FieldSpec("path", L_("Path"), aliases=("paths",)),
        "ability": FieldSpec("ability", L_("Ability"), aliases=("abilities",)),
        "capital": FieldSpec("capital", L_("Capital"), counted=False),
        "speed": FieldSpec("speed", L_("Speed"), kind="number", counted=False),
    }
    rows, unknown = [], []
    for e in deck.entries:
        c = e.card
        if c is None:
            unknown.append(e.name)
            continue
        facts = {
            "name": (c.name,),
            "type": (c.type or "unknown",),
            "subtype": (c.subtype,) if c.subtype else (),
            "cost": (cost_label(c.cost),),
            "path": tuple(str(p) for p in (c.paths or ())),
            "ability": tuple(dict.fromkeys(p.ability.name for p in card_abilities(c, catalog))),
            "capital": ("yes" if c.is_capital() else "no",),
            "speed": (c.speed,) if c.speed is not None else (),
        }
        rows.append(Row(c.name, e.count, facts))

    size, source = hand_size(catalog)
    return DeckView("senshiai", rows, fields, size, source, unknown_note(unknown))


def senshiai_hand(ld: Loaded, rows: list[Row]) -> dict[str, object]:
    """What the hand holds by type, and whether it can recruit."""
    types: dict = {}
    for r in rows:
        t = r.facts["type"][0]
        types[t] = types.get(t, 0) + 1
    recruit = any(r.facts["type"] == ("terrain",) and "Recruit" in r.facts["ability"] for r in rows)
    return {
        "types": types,
        "recruit_terrain": recruit,
        "capital": any(r.facts.get("capital") == ("yes",) for r in rows),
    }


def senshiai_hand_lines(h: Mapping[str, Any]) -> list[str]:
    t = ", ".join(_type_count(k, n) for k, n in h["types"].items())
    recruit = _("yes") if h["recruit_terrain"] else _("no")
    line = _("{types}; Recruit terrain: {recruit}").format(types=t, recruit=recruit)
    return ["  " + (_("{line}; the Capital").format(line=line) if h["capital"] else line)]


def _type_count(kind: str, n: int) -> str:
    """``2 troops``: how many cards of a Senshiai card type a hand holds."""
    if kind == "troop":
        return ngettext("{n} troop", "{n} troops", n).format(n=n)
    if kind == "event":
        return ngettext("{n} event", "{n} events", n).format(n=n)
    if kind == "terrain":
        return ngettext("{n} terrain", "{n} terrains", n).format(n=n)
    if kind == "unknown":
        return ngettext("{n} unknown", "{n} unknowns", n).format(n=n)
    return f"{n} {kind}{'s' if n != 1 else ''}"


def senshiai_facts(ld: Loaded) -> dict:
    counts = ld.view.counts("cost") if ld.view is not None else {}
    curve = [{"cost": k, "cards": n} for k, n in counts.items()]
    return {"limits": rule_limits(ld), "cost_curve": curve}


class SenshiaiAnalytics(AnalyticsPart):
    """Senshiai's statistics, odds and sample hands (``gs.analytics``)."""

    query_vocabulary = {
        "type": CARD_TYPES,
        "path": PATHS,
        "capital": ("yes", "no"),
    }

    def deck_view(self, lst: Deck, catalog: Catalog, rules: HouseRules) -> DeckView:
        return senshiai_view(lst, catalog, rules)

    def stats_facts(self, loaded: Loaded) -> dict[str, object]:
        return senshiai_facts(loaded)

    def hand_facts(self, loaded: Loaded, rows: list[Row]) -> dict[str, object]:
        return senshiai_hand(loaded, rows)

    def hand_lines(self, hand: Mapping[str, object]) -> list[str]:
        return senshiai_hand_lines(hand)
