"""Satsuma Rebellion: a side's deck, the published one (``deck: standard``) or a variant."""

from __future__ import annotations

from builder.errors import EditRefused, UsageError, option
from builder.games.satsuma.commands import COMMANDS
from builder.names import did_you_mean, normalize
from builder.systems.cards import CardGame

SUITS = {"F": "force", "R": "reserves", "L": "leader", "A": "attack", "D": "defense", "M": "morale",
         "W": "weapons", "E": "escape"}  # a card's suit by the first letter of its printed code


def side_cards(catalog, side: str) -> list:
    return [c for c in catalog.entries("cards") if c.side == side]


def to_variant(data, catalog) -> str:
    """Write a ``deck: standard`` list's published cards out under ``cards:``; returns a note."""
    from ruamel.yaml.comments import CommentedMap

    from builder.kit.edit import replace_key

    side = str(data.get("side", "")).strip().lower()
    cards = CommentedMap()
    for c in side_cards(catalog, side):
        cards[c.name] = cards.get(c.name, 0) + 1
    replace_key(data, "deck", "cards", cards)
    return f"wrote the published {side} deck ({sum(cards.values())} cards) out under 'cards:' (a variant deck now)"


class Satsuma(CardGame):
    id = "satsuma"
    name = "Satsuma Rebellion"
    title = "Satsuma Rebellion (2-player card game)"
    aliases = ("satsuma rebellion",)
    set_keys = ("side", "deck", "name", "author", "notes")
    add_options = frozenset({"count", "variant"})
    remove_options = frozenset({"count", "all", "variant"})
    new_options = frozenset({"side"})
    type_field = "suit"
    commands = COMMANDS  # daimyo satsuma clash, daimyo satsuma simulate
    type_label = "Suit"
    priced = False  # a Satsuma card has a printed value, not a cost
    name_example = "Saigo's rebels"

    def entry_facts(self, entry):
        """The card's strength (its suit is its type): ``F7`` -> ``strength 7``; a card of two
        options names both: ``W5 or M6`` -> ``weapons 5 or morale 6``."""
        import re

        printed = str(getattr(entry, "printed", None) or "") if entry is not None else ""
        options = re.findall(r"\b([A-Za-z])\s*(\d+)\b", printed)
        if not options or any(s.upper() not in SUITS for s, _ in options):
            return printed
        if len(options) == 1:
            return f"strength {options[0][1]}"
        return " or ".join(f"{SUITS[s.upper()]} {n}" for s, n in options)

    def entry_type(self, entry):
        """A card's suit, from its printed code (``F5``: force)."""
        printed = getattr(entry, "printed", None) if entry is not None else None
        return SUITS.get(str(printed)[:1].upper(), "") if printed else ""

    def offers(self, data, entry):
        return getattr(entry, "side", None) == str(data.get("side", "")).lower()

    def published(self, data):
        return "deck" in data and not isinstance(data.get("cards"), dict)

    def held(self, data, catalog):
        if not self.published(data):
            return super().held(data, catalog)
        counts: dict = {}
        for c in side_cards(catalog, str(data.get("side", "")).lower()):
            counts[c.name] = counts.get(c.name, 0) + 1
        return [("cards", "cards", list(counts.items()))]

    def new_fields(self, catalog):
        return [{"key": "side", "label": "Side", "value": "samurai",
                 "choices": [("samurai", "Samurai"), ("imperial", "Imperial")]}]

    def builder_settings(self, data, catalog):
        return [{"key": "side", "label": "Side", "value": data.get("side", ""),
                 "choices": [("samurai", "Samurai"), ("imperial", "Imperial")]}]

    # -- packs: the sections a template documents first, what each entry field means --------------
    pack_sections = ("cards",)
    pack_docs = {
        "cards": {
            "side": "the side whose deck holds the card",
            "printed": "the values as printed, e.g. 'F5' or 'F5 or M3'",
            "unknown_suit": "true when the suit cannot be read from the rulebook",
        },
    }

    def _side(self, value: str) -> str:
        from builder.games.satsuma.rules import SIDES

        v = value.strip().lower()
        if v not in SIDES:
            raise UsageError(f"side must be samurai or imperial, not '{value}'", did_you_mean(value, SIDES) or None)
        return v

    def new_body(self, data, catalog, options):
        side = options.get("side")
        if side is None:
            raise UsageError(f"{option('side')} is required for a satsuma deck", f"{option('side')} samurai or {option('side')} imperial")
        data["side"] = self._side(side)
        data["deck"] = "standard"
        return []

    def set_own(self, catalog, key, value):
        if key == "deck":
            if value.strip().lower() != "standard":
                raise UsageError(f"deck takes 'standard' (the published deck of the list's side), not '{value}'",
                                 "change a variant deck's cards with add and remove")
            return "standard", None
        return self._side(value), None

    def after_set(self, data, catalog, key, value):
        """``set deck standard``: the cards written out under ``cards:`` give way to the side's
        published deck (undo in the builder brings them back)."""
        from builder.kit.edit import delete_key

        if key != "deck" or "cards" not in data:
            return []
        cards = data.get("cards")
        n = sum(v if isinstance(v, int) else 1 for v in cards.values()) if isinstance(cards, dict) else 0
        delete_key(data, "cards")
        side = str(data.get("side", "")).strip().lower()
        return [f"the {n} cards under 'cards:' are replaced by the published {side} deck "
                f"({len(side_cards(catalog, side))} cards)"]

    def custom(self, data, name):
        cards = data.get("cards")
        if not isinstance(cards, dict):
            return None
        for k, v in cards.items():
            if isinstance(v, dict) and normalize(str(k)) == normalize(name):
                return str(k)
        return None

    def ready(self, data, catalog, variant: bool, verb: str) -> list[str]:
        """A ``deck: standard`` list becomes a variant deck only with ``variant``."""
        if "deck" not in data:
            return []
        side = str(data.get("side", "")).strip().lower()
        if not variant:
            n = len(side_cards(catalog, side))
            raise EditRefused(f"this is the published {side} deck ('deck: standard'); {verb} a card makes it a "
                              "variant deck", f"pass {option('variant')} to write its {n} cards out under 'cards:' first")
        return [to_variant(data, catalog)]

    def prepare(self, data, catalog, pick, verb, variant, check_side):
        side = str(data.get("side", "")).strip().lower()
        if check_side and pick.entry is not None and pick.entry.side != side:
            hint = did_you_mean(pick.name, [c.name for c in side_cards(catalog, side)])
            raise EditRefused(f"'{pick.name}' is a card of the {pick.entry.side} deck, not the {side} deck",
                              hint or f"a {side} deck takes {side} cards: 'daimyo catalog list satsuma cards'")
        return self.ready(data, catalog, variant, verb)

    def remove_ready(self, data, catalog, pick, field, variant):
        if "deck" not in data:
            return []
        side = str(data.get("side", "")).strip().lower()
        if pick.entry is None or pick.entry.side != side:
            return None
        return self.ready(data, catalog, variant, "removing")

    def kind_of(self, section, entry):
        from builder.games.satsuma.rules import SUIT_NAMES

        return SUIT_NAMES.get(str(entry.printed or "")[:1])

    def candidates(self, catalog):
        for c in catalog.entries("cards"):
            yield "cards", c, self.kind_of("cards", c), None

    def state_after(self, summary, data, pick, catalog, list_data):
        text = super().state_after(summary, data, pick, catalog, list_data)
        if "deck" in list_data:
            text += " as a variant deck ('daimyo add --variant' writes it out)"
        return text


    # -- text form -------------------------------------------------------------------------------

    text_labels = ("Satsuma",)
    text_example = "write e.g. 'My deck - Satsuma Rebellion - side samurai'"

    def text_header(self, doc, summary):
        from builder.kit.textform import q

        segs = [f"side {q(doc['side'])}"] if "side" in doc else []
        if "cards" in doc:
            segs.append(f"{sum(n.get('count', 1) if isinstance(n, dict) else n for n in doc['cards'].values())} cards")
        return segs

    def text_keys(self, doc):
        from builder.kit.textform import q

        return [f"Deck: {q(doc['deck'])}"] if "deck" in doc else []

    def read_facet(self, p, seg):
        from builder.kit.textform import _CARDS, _uq

        low = seg.lower()
        if low.startswith("side "):
            p.doc["side"] = _uq(p, seg[5:])
            return True
        if _CARDS.match(seg):
            p.doc.setdefault("cards", {})
            return True
        if p.r.find(p.field("side"), seg)[1] is not None or low in ("samurai", "imperial"):
            p.doc["side"] = seg
            return True
        return False

    # -- analytics -------------------------------------------------------------------------------

    query_vocabulary = {"usable": ("attacker", "defender")}

    def query_value(self, field, raw):
        from builder.games.satsuma.rules import SUIT_NAMES

        if field == "suit" and len(raw) == 1:
            return SUIT_NAMES.get(raw.upper())
        return None

    def deck_view(self, lst, catalog, rules):
        from builder.games.satsuma.analytics import satsuma_view

        return satsuma_view(lst, catalog, rules)

    def stats_facts(self, loaded):
        from builder.games.satsuma.analytics import satsuma_facts

        return satsuma_facts(loaded)

    def stats_lines(self, stats):
        from builder.games.satsuma.analytics import satsuma_lines

        return satsuma_lines(stats)

    def stats_charts(self, stats):
        rows = [["suit", "cards", "strongest", "mean", "who may count it"]]
        rows += [[x["suit"], x["cards"], x["max"], f"{x['mean']:.1f}", " and ".join(x["roles"])]
                 for x in stats["suits"]]
        return [("Suits", "table", rows, (0.2, 0.12, 0.14, 0.12, 0.42))]

    def hand_facts(self, loaded, rows):
        from builder.games.satsuma.analytics import satsuma_hand

        return satsuma_hand(loaded, rows)

    def hand_lines(self, hand):
        from builder.games.satsuma.analytics import satsuma_hand_lines

        return satsuma_hand_lines(hand)

    def aid_blocks(self):
        from builder.games.satsuma.aid import BLOCKS  # the block toolkit (reportlab): loaded when printing

        return BLOCKS


SYSTEM = Satsuma()
