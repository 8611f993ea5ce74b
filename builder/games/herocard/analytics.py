"""HeroCard as statistics, odds and sample hands see it: the deck view and the best attack and block of a hand."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from builder.games.herocard.rules import ATTR_NAME, attack_value, block_value, hand_size
from builder.i18n import L_, _
from builder.kit.deck import DeckView, FieldSpec, Row, unknown_note
from builder.systems.analytics import AnalyticsPart

if TYPE_CHECKING:
    from collections.abc import Mapping

    from builder.catalog.loader import Catalog
    from builder.games.herocard.rules import HeroList
    from builder.kit.facts import Loaded
    from builder.systems.parts import HouseRules


def herocard_view(lst: HeroList, catalog: Catalog, rules: HouseRules) -> DeckView:
    return _herocard(lst, catalog)


def _herocard(lst: HeroList, catalog: Catalog) -> DeckView:

    kinds = {k.key: k for k in catalog.model.card_kinds}
    fields = {
        "name": FieldSpec("name", L_("Card"), counted=False, aliases=("card",)),
        "kind": FieldSpec("kind", L_("Card kind"), aliases=("kinds", "card_kind")),
        "group": FieldSpec("group", L_("Attack or block"), aliases=("groups",)),
        "type": FieldSpec("type", L_("Action type"), aliases=("types", "action_type")),
        "attribute": FieldSpec("attribute", L_("Attribute"), aliases=("attributes", "attr")),
        "cost": FieldSpec("cost", L_("Cost"), kind="number", aliases=("costs",)),
        "value": FieldSpec("value", L_("Value"), kind="number", counted=False),
        "hero": FieldSpec("hero", L_("Hero"), counted=False),
    }
    rows, unknown = [], []
    for s in lst.deck:
        c = s.card
        if c is None:
            unknown.append(s.name)
            continue
        kind = kinds.get(c.kind) if c.kind else None
        facts = {
            "name": (c.name,),
            "kind": (kind.label if kind is not None else (c.kind or "unknown"),),
            "group": (kind.group if kind is not None else "unknown",),
            "type": (c.action_type or "unknown",),
            "attribute": (ATTR_NAME.get(c.attribute, c.attribute) if c.attribute else "unknown",),
            "cost": (c.cost,) if c.cost is not None else ("unknown",),
            "value": (c.value,) if c.value is not None else (),
            "hero": (c.hero,) if c.hero else (),
        }
        rows.append(Row(c.name, s.count, facts))

    size, source = hand_size(catalog)
    return DeckView("herocard", rows, fields, size, source, unknown_note(unknown))


def herocard_hand(ld: Loaded, rows: list[Row]) -> dict[str, object]:
    """The best attack and the best block the hand can make."""

    cards = {s.card.name: s.card for s in ld.lst.deck if s.card is not None}
    hand = [cards[r.name] for r in rows]
    out: dict[str, object] = {}
    for what, base, mod, fn in (
        ("attack", "base-attack", "attack-mod", attack_value),
        ("block", "base-block", "block-mod", block_value),
    ):
        mods = [c for c in hand if c.kind == mod]
        best, seq = 0, list[str]()
        for b in (c for c in hand if c.kind == base):
            v = fn([b] + mods)
            if v > best or not seq:
                best, seq = v, [b.name] + [m.name for m in mods]
        out[f"best_{what}"] = {"value": best, "cards": seq}
    return out


def herocard_hand_lines(h: Mapping[str, Any]) -> list[str]:
    lines = []
    for what in ("attack", "block"):
        b = h[f"best_{what}"]
        if what == "attack":
            best = _("best attack: {value}").format(value=b["value"])
            none = _("(no Base Attack)")
        else:
            best = _("best block: {value}").format(value=b["value"])
            none = _("(no Base Block)")
        lines.append(f"  {best} " + (f"({' + '.join(b['cards'])})" if b["cards"] else none))
    return lines


class HeroCardAnalytics(AnalyticsPart):
    """HeroCard's statistics, odds and sample hands (``gs.analytics``)."""

    query_vocabulary = {
        "group": ("attack", "block", "other"),
        "type": ("fast", "restricted", "exclusive"),
        "attribute": ("Body", "Mind", "X"),
    }

    def deck_view(self, lst: HeroList, catalog: Catalog, rules: HouseRules) -> DeckView:
        return herocard_view(lst, catalog, rules)

    def hand_facts(self, loaded: Loaded, rows: list[Row]) -> dict[str, object]:
        return herocard_hand(loaded, rows)

    def hand_lines(self, hand: Mapping[str, Any]) -> list[str]:
        return herocard_hand_lines(hand)
