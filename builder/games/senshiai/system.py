"""Senshiai: a deck of cards (Basic Collection), optionally of an agreed size."""

from __future__ import annotations

from builder.errors import UsageError, option
from builder.systems.base import UNSET, plural, whole
from builder.systems.cards import CardGame


class Senshiai(CardGame):
    id = "senshiai"
    name = "Senshiai"
    title = "Senshiai (card game, Basic Collection)"
    aliases = ("senshiai basic collection",)
    set_keys = ("size", "name", "author", "notes")
    anchor_field = "type"
    new_options = frozenset({"size"})
    name_example = "Northern host"

    def entry_facts(self, entry):
        """The paths and the Power (attack/defence/health) printed on the card."""
        if entry is None:
            return ""
        paths = ", ".join(str(x) for x in (getattr(entry, "paths", None) or []))
        power = getattr(entry, "power", None)
        return " · ".join(x for x in (paths, f"power {power}" if power is not None else "") if x)

    def cost_text(self, entry, cost):
        """The cost as printed on the card: N (none) or a Roman numeral."""
        label = getattr(entry, "cost_label", None)
        if cost is None or not label:
            return super().cost_text(entry, cost)
        return f"cost {label}"

    # -- packs: the sections a template documents first, what each entry field means --------------
    pack_sections = ("cards",)
    pack_docs = {
        "cards": {
            "type": "the card type",
            "subtype": "the subtype printed on the card (a Capital is a terrain with subtype Capital)",
            "cost": "the cost: N (none) or a Roman numeral I-V",
            "paths": "the paths of the card",
            "limit": "terrains: how many may be in play (1 when not printed)",
            "speed": "units: the Speed",
            "power": "units and Capitals: Power as ATTACK/DEFENCE/HEALTH, e.g. 3/0/6 ('n' for none)",
            "target": "events: what the event targets",
            "duration": "events: how long it lasts",
            "abilities": "concise abilities, as printed (e.g. 'Recruit (Infantry)')",
            "text": "the card's long ability text",
            "modifiers": "power bonuses or penalties given to the target, e.g. +1/0/0",
        },
    }
    pack_values_from = {
        ("cards", "subtype"): "subtypes",
        ("cards", "paths"): "paths",
        ("cards", "abilities"): "abilities",
    }

    def tally(self, summary):
        size = summary.get("size")
        return {"total": summary.get("cards"), "limit": size if size is not None else summary.get("max_cards"),
                "unit": "cards", "more": ""}

    def new_fields(self, catalog):
        return [{"key": "size", "label": "Agreed deck size (optional)", "value": "", "type": "number", "min": 1}]

    def builder_settings(self, data, catalog):
        return [{"key": "size", "label": "Agreed deck size", "value": data.get("size", ""), "type": "number",
                 "placeholder": "any"}]

    def new_body(self, data, catalog, options):
        size = options.get("size")
        if size is not None:
            if size < 1:
                raise UsageError(f"{option('size')} must be at least 1, not {size}", f"e.g. {option('size')} 50")
            data["size"] = size
        data["cards"] = {}
        return []

    def set_own(self, catalog, key, value):
        if value.strip().lower() in UNSET:
            return None, "no agreed deck size now: any size up to the maximum is legal"
        return whole("size", value, "size 50"), None

    def left(self, section, summary, data, entry, catalog):
        from builder.kit.edit import number

        cards = number(summary.get("cards"))
        most = summary.get("size") if summary.get("size") is not None else summary.get("max_cards")
        return (most - cards if cards is not None and number(most) is not None else None), "cards"

    def state_after(self, summary, data, pick, catalog, list_data):
        size = summary.get("size")
        return (f"the deck would have {plural(summary.get('cards'), 'card')}"
                + (f" (agreed size {size})" if size is not None else f" (at most {summary.get('max_cards')})"))


    # -- text form -------------------------------------------------------------------------------

    text_example = "write e.g. 'My deck - Senshiai - 50/50 cards'"

    def text_header(self, doc, summary):
        n = sum(doc.get("cards", {}).values())
        return [f"{n}/{doc['size']} cards" if "size" in doc else f"{n} cards"]

    def read_facet(self, p, seg):
        import re

        from builder.kit.textform import _CARDS

        m = _CARDS.match(seg)
        if m:
            if m.group(1):
                p.doc["size"] = int(m.group(2))
            return True
        m = re.match(r"^size\s+([0-9]{1,30})$", seg, re.I)
        if m:
            p.doc["size"] = int(m.group(1))
            return True
        return False

    # -- analytics -------------------------------------------------------------------------------

    query_vocabulary = {"type": ("terrain", "troop", "event"), "path": ("Air", "Earth", "Water"),
                        "capital": ("yes", "no")}

    def deck_view(self, lst, catalog, rules):
        from builder.games.senshiai.analytics import senshiai_view

        return senshiai_view(lst, catalog, rules)

    def stats_facts(self, loaded):
        from builder.games.senshiai.analytics import senshiai_facts

        return senshiai_facts(loaded)

    def hand_facts(self, loaded, rows):
        from builder.games.senshiai.analytics import senshiai_hand

        return senshiai_hand(loaded, rows)

    def hand_lines(self, hand):
        from builder.games.senshiai.analytics import senshiai_hand_lines

        return senshiai_hand_lines(hand)

    def aid_blocks(self):
        from builder.games.senshiai.aid import BLOCKS  # the block toolkit (reportlab): loaded when printing

        return BLOCKS

    def ability(self, catalog, written):
        from builder.games.senshiai.catalog import parse_ability

        try:
            return parse_ability(str(written), catalog.entries("abilities")).ability
        except Exception:  # not an ability as a card writes it: the name before a colon, if any
            return super().ability(catalog, written)


SYSTEM = Senshiai()
