"""Satsuma's parts that change a list (a published deck written out as a variant): how a new list starts
(``gs.new_list``), what ``set`` may change (``gs.settings``), what adding an entry would do
(``gs.questions``) and how add and remove change it (``gs.editing``). Each is made from the game
when first asked for, so the edit toolkit (ruamel.yaml) loads only with them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ruamel.yaml.comments import CommentedMap

from builder.errors import EditRefused, UsageError, option
from builder.i18n import L_
from builder.kit.edit import delete_key, replace_key
from builder.names import did_you_mean, normalize
from builder.systems.cardediting import CardEditing
from builder.systems.cards import CardQuestions
from builder.systems.newlist import NewListPart, NewOption
from builder.systems.settings import SettingsPart

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from builder.catalog.loader import Catalog
    from builder.games.satsuma.rules import SatsumaList  # noqa: F401 - named as a string in the class's base
    from builder.systems.base import Pick
    from builder.systems.parts import Cost, Entry, ListData, Options, Summary


def side_cards(catalog: Catalog, side: str) -> list:
    return [c for c in catalog.entries("cards") if c.side == side]


def to_variant(data: ListData, catalog: Catalog) -> str:
    """Write a ``deck: standard`` list's published cards out under ``cards:``; returns a note."""

    side = str(data.get("side", "")).strip().lower()
    cards = CommentedMap()
    for c in side_cards(catalog, side):
        cards[c.name] = cards.get(c.name, 0) + 1
    replace_key(data, "deck", "cards", cards)
    return L_(
        "wrote the published {side} deck ({n} cards) out under 'cards:' (a variant deck now)",
        side=side,
        n=sum(cards.values()),
    )


class SatsumaQuestions(CardQuestions):
    """What adding an entry to a Satsuma list would do (``gs.questions``)."""

    def candidates(self, catalog: Catalog) -> Iterator[tuple[str, Entry, str | None, Cost | None]]:
        for c in catalog.entries("cards"):
            yield "cards", c, self.game.kind_of("cards", c), None

    def _state_after(self, summary: Summary, data: ListData, pick: Pick, catalog: Catalog, list_data: ListData) -> str:
        text = super()._state_after(summary, data, pick, catalog, list_data)
        if "deck" in list_data:
            return L_("{state} as a variant deck ('daimyo add --variant' writes it out)", state=text)
        return text


class SatsumaNewList(NewListPart):
    """How a new Satsuma list starts (``gs.new_list``): its options and the fields of the new-list form."""

    options = frozenset({"side"})
    example = "Saigo's rebels"

    def declare(self, catalog: Catalog) -> list[NewOption]:
        return [
            NewOption(
                "side",
                L_("Side"),
                "choice",
                help=L_("the side (starts with its published deck)"),
                start="samurai",
                choices=(("samurai", "Samurai"), ("imperial", "Imperial")),
                required=True,
            )
        ]

    def body(self, data: ListData, catalog: Catalog, options: Options) -> list[str]:
        data["side"] = options["side"]
        data["deck"] = "standard"
        return []


class SatsumaSettings(SettingsPart):
    """What ``set`` may change in a Satsuma list (``gs.settings``)."""

    keys = ("side", "deck", "name", "author", "notes")

    def own(self, catalog: Catalog, key: str, value: str) -> tuple[object, str | None]:
        if key == "deck":
            if value.strip().lower() != "standard":
                raise UsageError(
                    L_("deck takes 'standard' (the published deck of the list's side), not '{value}'", value=value),
                    L_("change a variant deck's cards with add and remove"),
                )
            return "standard", None
        return self.game.side_of(value), None

    def after(self, data: ListData, catalog: Catalog, key: str, value: object) -> list[str]:
        """``set deck standard``: the cards written out under ``cards:`` give way to the side's
        published deck (undo in the builder brings them back)."""

        if key != "deck" or "cards" not in data:
            return []
        cards = data.get("cards")
        n = sum(v if isinstance(v, int) else 1 for v in cards.values()) if isinstance(cards, dict) else 0
        delete_key(data, "cards")
        side = str(data.get("side", "")).strip().lower()
        return [
            f"the {n} cards under 'cards:' are replaced by the published {side} deck "
            f"({len(side_cards(catalog, side))} cards)"
        ]


class SatsumaEditing(CardEditing):
    """How add and remove change a side's deck: the published deck (``deck: standard``) becomes
    a variant only with ``--variant``; a card of the other side is refused."""

    add_options = frozenset({"count", "variant"})
    remove_options = frozenset({"count", "all", "variant"})

    def published(self, data: ListData) -> bool:
        return "deck" in data and not isinstance(data.get("cards"), dict)

    def held(self, data: ListData, catalog: Catalog) -> list[tuple[str, str, Sequence[tuple[str, object]]]]:
        if not self.published(data):
            return super().held(data, catalog)
        counts: dict = {}
        for c in side_cards(catalog, str(data.get("side", "")).lower()):
            counts[c.name] = counts.get(c.name, 0) + 1
        return [("cards", "cards", list(counts.items()))]

    def _custom(self, data: ListData, name: str) -> str | None:
        cards = data.get("cards")
        if not isinstance(cards, dict):
            return None
        for k, v in cards.items():
            if isinstance(v, dict) and normalize(str(k)) == normalize(name):
                return str(k)
        return None

    def _ready(self, data: ListData, catalog: Catalog, variant: bool, verb: str) -> list[str]:
        """A ``deck: standard`` list becomes a variant deck only with ``variant``."""
        if "deck" not in data:
            return []
        side = str(data.get("side", "")).strip().lower()
        if not variant:
            n = len(side_cards(catalog, side))
            raise EditRefused(
                L_(
                    "this is the published {side} deck ('deck: standard'); {verb} a card makes it a variant deck",
                    side=side,
                    verb=verb,
                ),
                L_("pass {option} to write its {n} cards out under 'cards:' first", option=option("variant"), n=n),
            )
        return [to_variant(data, catalog)]

    def _prepare(
        self, data: ListData, catalog: Catalog, pick: Pick, verb: str, variant: bool, check_side: bool
    ) -> list[str]:
        side = str(data.get("side", "")).strip().lower()
        if check_side and pick.entry is not None and pick.entry.side != side:
            hint = did_you_mean(pick.name, [c.name for c in side_cards(catalog, side)])
            raise EditRefused(
                L_(
                    "'{name}' is a card of the {side} deck, not the {side2} deck",
                    name=pick.name,
                    side=pick.entry.side,
                    side2=side,
                ),
                hint or L_("a {side} deck takes {side} cards: 'daimyo catalog list satsuma cards'", side=side),
            )
        return self._ready(data, catalog, variant, verb)

    def _remove_ready(
        self, data: ListData, catalog: Catalog, pick: Pick, field: str, variant: bool
    ) -> list[str] | None:
        if "deck" not in data:
            return []
        side = str(data.get("side", "")).strip().lower()
        if pick.entry is None or pick.entry.side != side:
            return None
        return self._ready(data, catalog, variant, "removing")
