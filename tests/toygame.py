"""A sixth game for the tests: its catalog model, its rules and its GameSystem, in one module.

Registered by ``tests/test_toy_game.py`` only; the catalog folder is ``tests/data/toygame``, the card
template ``tests/data/toygame-cards.yaml``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from builder.catalog.base import BaseCatalog, Entry, Sourced
from builder.errors import ListError
from builder.findings import error
from builder.kit.fields import Field
from builder.systems.cards import CardGame, CardQuestions
from builder.systems.catalog import CatalogPart
from builder.systems.listdoc import DocumentPart
from builder.systems.newlist import NewListPart, NewOption
from builder.systems.parts import part
from builder.systems.printing import PrintingPart


class ToyCard(Entry):
    cost: int
    colour: str


class DeckRules(Sourced):
    size: int
    max_copies: int


class ToyCatalog(BaseCatalog):
    deck_rules: DeckRules
    cards: list[ToyCard] = []


CATALOG_MODEL = ToyCatalog

FINDING_CODES = {
    "toy.deck-size": "the deck holds exactly the agreed number of cards",
    "toy.copies-max": "no more copies of one card than the rules allow",
    "toy.unknown-card": "a card the catalog does not know",
}


@dataclass
class ToyDeck:
    cards: list[tuple[str, int, object, tuple]] = field(default_factory=list)  # (written, copies, card, loc)


def load_list(doc, catalog):
    cards = doc.data.get("cards") or {}
    if not isinstance(cards, dict):
        raise ListError(doc.diag(("cards",), "'cards' must be a mapping of card names to copies"))
    deck, findings = ToyDeck(), []
    for name, n in cards.items():
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise ListError(doc.diag(("cards", name), f"copies of '{name}' must be a whole number of at least 1"))
        card = catalog.find("cards", str(name))
        if card is None:
            findings.append(error("toy.unknown-card", f"unknown card '{name}'", loc=("cards", name)))
        deck.cards.append((str(name), n, card, ("cards", name)))
    return deck, findings


def check(deck, catalog, rules):
    r = catalog.model.deck_rules
    out = []
    total = sum(n for _, n, _, _ in deck.cards)
    if total != r.size:
        out.append(
            error(
                "toy.deck-size",
                f"deck has {total} cards but must have {r.size}",
                loc=("cards",),
                value=total,
                bound=r.size,
            )
        )
    for name, n, _card, loc in deck.cards:
        if n > r.max_copies:
            out.append(
                error(
                    "toy.copies-max", f"{n} copies of '{name}' > {r.max_copies}", loc=loc, value=n, bound=r.max_copies
                )
            )
    return out


def summary(deck, catalog, rules):
    return {
        "cards": sum(n for _, n, _, _ in deck.cards),
        "size": catalog.model.deck_rules.size,
        "cost": sum(n * c.cost for _, n, c, _ in deck.cards if c is not None),
    }


class ToyDocument(DocumentPart):
    """The toy's list document: ``cards``, a card name to its copies."""

    declared = (Field("scenario", "text"), Field("cards", "counts", ("cards",), what="card"))


class ToyPrinting(PrintingPart):
    """The toy's printed documents: its own card template (name, colour, cost) and player aid."""

    card_template = Path(__file__).resolve().parent / "data" / "toygame-cards.yaml"
    aid_template = Path(__file__).resolve().parent / "data" / "toygame-aid.yaml"


class ToyQuestions(CardQuestions):
    """What adding a card to a toy deck would do."""

    def left(self, section, summary, data, entry, catalog):
        return summary["size"] - summary["cards"], "cards"

    def _state_after(self, summary, data, pick, catalog, list_data):
        return f"the deck would have {summary['cards']} of {summary['size']} cards"


SCENARIOS = (("skirmish", "Skirmish"), ("river-crossing", "River crossing"), ("siege", "Siege"))


class ToyNewList(NewListPart):
    """How a new toy deck starts: no cards, and a scenario of its own, an option none of the
    built-in games has (``daimyo new toy --opt scenario=siege``)."""

    options = frozenset({"scenario"})
    example = "Two foxes"

    def declare(self, catalog):
        return [
            NewOption(
                "scenario",
                "Scenario",
                "choice",
                help="the scenario the duel is played in",
                default="skirmish",
                choices=SCENARIOS,
            )
        ]

    def body(self, data, catalog, options):
        if options["scenario"] != "skirmish":  # the usual duel goes unsaid
            data["scenario"] = options["scenario"]
        data["cards"] = {}
        return [f"a toy deck holds {catalog.model.deck_rules.size} cards"]


class ToyCatalogPart(CatalogPart):
    """The toy's catalog in ``tests/data/toygame``; its catalog model and rules in this module."""

    folder = Path(__file__).resolve().parent / "data" / "toygame"
    module_name = __name__
    rules_name = __name__


class ToyGame(CardGame):
    id = "toygame"
    name = "Toy duel"
    title = "Toy duel (a test-only card game)"
    aliases = ("toy duel", "toy")
    anchor_field = "colour"
    new_list = part(ToyNewList)  # how a new list starts
    questions = part(ToyQuestions)  # what adding a card would do
    printing = part(ToyPrinting)  # its card faces and player aid
    document = part(ToyDocument)  # its list document: a mapping of cards
    catalog = part(ToyCatalogPart)  # its catalog folder, and this module as catalog model and rules


SYSTEM = ToyGame()
