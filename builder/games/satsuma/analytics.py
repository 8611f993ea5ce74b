"""Satsuma Rebellion as statistics, odds and sample hands see it: the deck view, the suits, a hand's best play."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from builder.games.satsuma import rules as core
from builder.games.satsuma.rules import SUIT_NAMES
from builder.i18n import L_, Text, _, tr
from builder.kit.deck import DeckView, FieldSpec, Row, unknown_note
from builder.kit.facts import Loaded, rule_limits
from builder.systems.analytics import AnalyticsPart

if TYPE_CHECKING:
    from collections.abc import Mapping

    from builder.catalog.loader import Catalog
    from builder.games.satsuma.rules import SatsumaList
    from builder.kit.facts import Loaded
    from builder.systems.parts import HouseRules


def satsuma_view(lst: SatsumaList, catalog: Catalog, rules: HouseRules) -> DeckView:
    return _satsuma(lst, catalog, rules)


def _satsuma(lst: SatsumaList, catalog: Catalog, rules: HouseRules) -> DeckView:

    fields = {
        "name": FieldSpec("name", L_("Card"), counted=False, aliases=("card",)),
        "suit": FieldSpec(
            "suit", L_("Suit"), kind="ordinal", order=tuple(core.SUIT_NAMES.values()), aliases=("suits",), ordered=False
        ),
        "strength": FieldSpec("strength", L_("Strength"), kind="number", aliases=("strengths",)),
        "options": FieldSpec("options", L_("Suits to choose from"), kind="number"),
        "usable": FieldSpec("usable", L_("Usable by"), aliases=("role", "roles")),
    }
    rows, unknown = [], []
    for e in lst.entries:
        pc = e.custom if e.custom is not None else (core.play_card(e.card, rules) if e.card is not None else None)
        if pc is None:
            unknown.append(e.name)
            continue
        usable = tuple(r for r in core.ROLES if core.usable_options(pc, r))
        facts = {
            "name": (pc.name,),
            "suit": tuple(dict.fromkeys(core.SUIT_NAMES[s] for s, _ in pc.options if s in core.SUIT_NAMES)),
            "strength": tuple(dict.fromkeys(v for s, v in pc.options if s in core.SUIT_NAMES)),
            "options": (len(pc.options),),
            "usable": usable,
        }
        rows.append(Row(pc.name, e.count, facts))
    size, source = core.hand_size(catalog)
    return DeckView("satsuma", rows, fields, size, source, unknown_note(unknown))


def satsuma_hand(ld: Loaded, rows: list[Row]) -> dict[str, object]:
    """The best hand as attacker and as defender."""

    by_name: dict = {}
    for e in ld.lst.entries:
        pc = e.custom if e.custom is not None else (core.play_card(e.card, ld.rules) if e.card else None)
        if pc is not None:
            by_name.setdefault(pc.name, pc)
    pcs = [by_name[r.name] for r in rows]
    out: dict[str, object] = {}
    for role in core.ROLES:
        h = core.best_hand(pcs, role)
        out[role] = {
            "strength": h.strength,
            "used": [{"card": u.card, "suit": u.suit_name, "strength": u.strength} for u in h.used],
            "escape": h.uses_suit("E"),
        }
    return out


def satsuma_hand_lines(h: Mapping[str, Any]) -> list[str]:
    lines = []
    for role in ("attacker", "defender"):
        r = h[role]
        used = ", ".join(f"{u['suit']} {u['strength']} {u['card']}" for u in r["used"]) or _("nothing usable")
        if role == "attacker":
            lines.append("  " + _("as attacker: {strength} ({used})").format(strength=r["strength"], used=used))
        else:
            lines.append("  " + _("as defender: {strength} ({used})").format(strength=r["strength"], used=used))
    return lines


def satsuma_facts(ld: Loaded) -> dict:

    cards_of = []
    for e in ld.lst.entries:
        pc = e.custom if e.custom is not None else (core.play_card(e.card, ld.rules) if e.card else None)
        if pc is not None:
            cards_of.append((pc, e.count))
    suits = []
    for letter, name in core.SUIT_NAMES.items():
        cards = weighted = top = 0
        for pc, count in cards_of:
            vals = [v for s, v in pc.options if s == letter]
            if vals:
                cards += count
                weighted += max(vals) * count
                top = max(top, max(vals))
        suits.append(
            {
                "suit": name,
                "letter": letter,
                "cards": cards,
                "max": top,
                "mean": weighted / cards if cards else 0.0,
                "roles": [r for r in core.ROLES if letter not in core.FORBIDDEN[r]],
            }
        )
    return {"suits": suits, "limits": rule_limits(ld)}


def satsuma_lines(st: Mapping[str, Any]) -> list[str]:
    lines = [_("Suits (cards offering the suit, strongest, mean strength; who may count it):")]
    for s in st["suits"]:
        facts = _("{cards} cards  max {max}  mean {mean}").format(
            cards=f"{s['cards']:>3}", max=f"{s['max']:>2}", mean=f"{s['mean']:4.1f}"
        )
        lines.append(f"  {s['suit']:<9} {facts}  {tr(_roles_text(s['roles']))}")
    return lines


def _roles_text(roles: list[str]) -> str:
    """``attacker and defender`` (a Text, the roles translated where it is printed)."""
    if not roles:
        return ""
    text: str = Text(roles[0])
    for role in roles[1:]:
        text = L_("{first} and {second}", first=text, second=Text(role))
    return text


class SatsumaAnalytics(AnalyticsPart):
    """Satsuma's statistics, odds and sample hands (``gs.analytics``)."""

    query_vocabulary = {"usable": ("attacker", "defender")}

    def deck_view(self, lst: SatsumaList, catalog: Catalog, rules: HouseRules) -> DeckView:
        return satsuma_view(lst, catalog, rules)

    def stats_facts(self, loaded: Loaded) -> dict[str, object]:
        return satsuma_facts(loaded)

    def stats_lines(self, stats: Mapping[str, Any]) -> list[str]:
        return satsuma_lines(stats)

    def stats_charts(self, stats: Mapping[str, Any]) -> list[tuple[str, str, list[object], object]]:
        # the printed table's words are Texts (translated where printed); a suit and a role are
        # the game's words
        head = [L_("suit"), L_("cards"), L_("strongest"), L_("mean"), L_("who may count it")]
        rows: list[object] = [head]
        rows += [
            [Text(x["suit"]), x["cards"], x["max"], f"{x['mean']:.1f}", _roles_text(x["roles"])] for x in stats["suits"]
        ]
        return [(L_("Suits"), "table", rows, (0.2, 0.12, 0.14, 0.12, 0.42))]

    def hand_facts(self, loaded: Loaded, rows: list[Row]) -> dict[str, object]:
        return satsuma_hand(loaded, rows)

    def hand_lines(self, hand: Mapping[str, Any]) -> list[str]:
        return satsuma_hand_lines(hand)

    def query_value(self, field: str, raw: str) -> object:
        if field == "suit" and len(raw) == 1:
            return SUIT_NAMES.get(raw.upper())
        return None
