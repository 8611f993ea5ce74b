"""HeroCard's parts that change a list (a hero's attribute cards): how a new list starts
(``gs.new_list``), what ``set`` may change (``gs.settings``), what adding an entry would do
(``gs.questions``) and how add and remove change it (``gs.editing``). Each is made from the game
when first asked for, so the edit toolkit (ruamel.yaml) loads only with them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ruamel.yaml.comments import CommentedSeq

from builder.errors import EditRefused, UsageError, option
from builder.i18n import L_, Ln_
from builder.kit.edit import keys_naming
from builder.kit.numbers import number
from builder.names import normalize
from builder.systems.base import Pick, fmt, same_as, text_value, whole
from builder.systems.cardediting import CardEditing
from builder.systems.cards import CardQuestions, copies
from builder.systems.newlist import NewListPart, NewOption
from builder.systems.settings import SettingsPart

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from builder.catalog.loader import Catalog
    from builder.games.herocard.rules import HeroList  # noqa: F401 - named as a string in the class's base
    from builder.systems.parts import Cost, Entry, ListData, Options, Summary


ATTR_LABEL = {"body": "Body", "mind": "Mind", "x": "X"}


def hero_attributes(catalog: Catalog, hero: str) -> tuple[list[str], list[str]]:
    """The hero's first Body, Mind and X cards in catalog order (rulebook cards before pack
    additions) and the hero's other attribute cards; ([], ...) when a kind is missing."""
    by_kind: dict[str, list[str]] = {}
    for a in catalog.entries("attribute_cards"):
        if a.hero and normalize(a.hero) == normalize(hero) and a.attribute:
            by_kind.setdefault(a.attribute, []).append(a.name)
    if not all(by_kind.get(k) for k in ("body", "mind", "x")):
        return [], []
    others = [f"{n} ({ATTR_LABEL[k]})" for k in ("body", "mind", "x") for n in by_kind[k][1:]]
    return [by_kind[k][0] for k in ("body", "mind", "x")], others


def _attribute_kind(catalog: Catalog, name: object) -> str | None:
    card = catalog.find("attribute_cards", str(name)) if isinstance(name, (str, int, float)) else None
    return getattr(card, "attribute", None) if card is not None else None


class HeroCardQuestions(CardQuestions):
    """What adding an entry to a HeroCard list would do (``gs.questions``)."""

    def candidates(self, catalog: Catalog) -> Iterator[tuple[str, Entry, str | None, Cost | None]]:
        for section, _ in self.game.sections:
            for c in catalog.entries(section):
                yield section, c, self.game.kind_of(section, c), (c.cost if section == "action_cards" else None)

    def left(
        self, section: str, summary: Summary, data: ListData, entry: Any, catalog: Catalog
    ) -> tuple[Cost | None, str | None]:

        if section == "attribute_cards":
            hp, most = number(summary.get("hero_points")), number(summary.get("max_hero_points"))
            return (most - hp if hp is not None and most is not None else None), "hero points"
        deck = data.get("deck") or {}
        have = copies(deck, keys_naming(deck, same_as(Pick(section, entry, entry.name, "deck"), catalog)))
        return catalog.model.deck_rules.max_copies - have, "copies"

    def describe_addition(
        self, comparison: Any, data: ListData, catalog: Catalog, name: str, count: int | None, list_data: ListData
    ) -> tuple[str, str, str | None]:
        pick = self.game.editing.resolve(catalog, name, list_data)
        state = self._state_after(comparison.after.summary, data, pick, catalog, list_data)
        if pick.field == "attributes":
            return pick.name, state, L_("  note: {note}", note=comparison.notes[-1])
        return L_("{n} {name}", n=count or 1, name=pick.name), state, None

    def _state_after(self, summary: Summary, data: ListData, pick: Pick, catalog: Catalog, list_data: ListData) -> str:

        if pick.field == "attributes":
            hp = summary.get("hero_points")
            return L_(
                "hero points would be {n}/{most}",
                n=fmt(hp if hp is not None else "?"),
                most=fmt(summary.get("max_hero_points")),
            )
        n = copies(data["deck"], keys_naming(data["deck"], same_as(pick, catalog)))
        most = catalog.model.deck_rules.max_copies
        cards = summary.get("action_cards")
        deck = (
            Ln_("the action deck would have {n} card", "the action deck would have {n} cards", cards)
            if isinstance(cards, int)
            else L_("the action deck would have {n} cards", n=cards)
        )
        return L_("{n} of at most {most} copies; {deck}", n=n, most=most, deck=deck)


class HeroCardNewList(NewListPart):
    """How a new HeroCard list starts (``gs.new_list``): its options and the fields of the new-list form."""

    options = frozenset({"hero", "max_hero_points"})
    example = "Samurai of the Rising Sun"

    def declare(self, catalog: Catalog) -> list[NewOption]:
        heroes = tuple((e.name, e.name) for e in catalog.entries("heroes"))
        limit = int(catalog.default_rules().get("max_hero_points", catalog.model.deck_rules.max_hero_points))
        return [
            NewOption(
                "hero",
                L_("Hero"),
                "choice",
                help=L_("the hero's name (a catalog hero starts with its attribute cards)"),
                start=heroes[0][0] if heroes else None,
                choices=heroes,
                open=True,
                required=True,
            ),
            NewOption(
                "max_hero_points",
                L_("Hero point limit"),
                "number",
                help=L_("the agreed hero point limit"),
                default=limit,
                min=1,
            ),
        ]

    def body(self, data: ListData, catalog: Catalog, options: Options) -> list[str]:
        hero = options["hero"]
        entry = catalog.find("heroes", hero)
        data["hero"] = entry.name if entry is not None else hero
        data["max_hero_points"] = options["max_hero_points"]
        attrs, others = hero_attributes(catalog, entry.name) if entry is not None else ([], [])
        data["attributes"] = attrs
        notes: list[str] = []
        if attrs:
            notes.append(L_("attributes: the {hero}'s {cards}", hero=entry.name, cards=", ".join(attrs)))
            if others:
                notes.append(
                    L_(
                        "  also in the catalog: {cards}; 'daimyo add' one to swap it in for the card of its kind",
                        cards=", ".join(others),
                    )
                )
        elif entry is None:
            hint = catalog.did_you_mean("heroes", hero)
            if hint:
                notes.append(
                    L_(
                        "'{hero}' is your own hero ({hint}): add its Body, Mind and X attribute cards with 'daimyo add'",
                        hero=hero,
                        hint=hint,
                    )
                )
            else:
                notes.append(
                    L_(
                        "'{hero}' is your own hero: add its Body, Mind and X attribute cards with 'daimyo add'",
                        hero=hero,
                    )
                )
        data["deck"] = {}
        return notes


class HeroCardSettings(SettingsPart):
    """What ``set`` may change in a HeroCard list (``gs.settings``)."""

    keys = ("hero", "max_hero_points", "name", "author", "notes")

    def own(self, catalog: Catalog, key: str, value: str) -> tuple[object, str | None]:
        if key == "max_hero_points":
            return whole("max_hero_points", value, "max_hero_points 30"), None
        if not value.strip():
            raise UsageError(L_("hero needs a name"), L_("e.g. set hero.yaml hero Samurai"))
        hero = catalog.find("heroes", value)
        if hero is not None:
            return hero.name, None
        hint = catalog.did_you_mean("heroes", value)
        return text_value(value), (
            f"'{value}' is not a hero of the catalog ({hint}); kept as your own hero's name"
            if hint
            else f"'{value}' is your own hero (not a catalog hero)"
        )

    def after(self, data: ListData, catalog: Catalog, key: str, value: object) -> list[str]:
        """A new hero brings its Body, Mind and X cards, or the notes say why the cards stay."""
        if key != "hero" or value is None:
            return []
        attrs = data.get("attributes")
        old = [str(a) for a in attrs] if isinstance(attrs, list) else []
        entry = catalog.find("heroes", str(value))
        new, _ = hero_attributes(catalog, entry.name) if entry is not None else ([], [])
        if new and [normalize(a) for a in old] == [normalize(a) for a in new]:
            return []
        if new:
            seq = CommentedSeq(new)
            seq.fa.set_flow_style()
            data["attributes"] = seq
            return [
                f"attributes: the {entry.name}'s " + ", ".join(new) + (f" (replacing {', '.join(old)})" if old else "")
            ]
        if not old:
            return []
        owners = {getattr(catalog.find("attribute_cards", a), "hero", None) for a in old} - {None}
        whose = (
            f"the {', '.join(sorted(o for o in owners if o is not None))}'s cards" if owners else "cards of your own"
        )
        if entry is None:
            return [
                f"the attribute cards stay ({', '.join(old)}: {whose}); give your own hero its Body, Mind "
                "and X cards with 'daimyo add'"
            ]
        return [
            f"the attribute cards stay ({', '.join(old)}: {whose}): the catalog has no Body, Mind and X "
            f"cards for the {entry.name}; a pack can add them, then 'daimyo add' each"
        ]


class HeroCardEditing(CardEditing):
    """How add and remove change a hero: action cards by copies, attribute cards one each (a new
    Body, Mind or X card replaces the hero's card of that kind)."""

    held_sections = (("attributes", "attribute_cards"), ("deck", "action_cards"))

    def _add_pick(
        self, data: ListData, catalog: Catalog, pick: Pick, count: int, variant: bool, check_side: bool
    ) -> list[str]:
        if pick.field != "attributes":
            return super()._add_pick(data, catalog, pick, count, variant, check_side)
        if count != 1:
            raise EditRefused(
                L_("'{name}' is an attribute card: a hero has it once, not {count} times", name=pick.name, count=count),
                L_("leave out {option}", option=option("count")),
            )
        attrs = data.get("attributes")
        if not isinstance(attrs, list):
            raise EditRefused(L_("the list has no 'attributes:' list to edit"), L_("add 'attributes: []' to the file"))
        same = same_as(pick, catalog)
        if any(same(a) for a in attrs):
            raise EditRefused(L_("'{name}' is already one of the hero's attribute cards", name=pick.name))
        kind = pick.entry.attribute
        label = ATTR_LABEL.get(kind or "", "")
        if kind is not None:
            for i, a in enumerate(attrs):
                if _attribute_kind(catalog, a) == kind:
                    old = attrs[i]
                    attrs[i] = pick.name
                    return [
                        L_(
                            "{name} is an attribute card ({label}): it replaces {old} as the hero's {label} "
                            "card (a hero has one Body, one Mind and one X card)",
                            name=pick.name,
                            label=label,
                            old=old,
                        )
                    ]
        if not attrs and hasattr(attrs, "fa"):
            attrs.fa.set_flow_style()
        attrs.append(pick.name)
        if label:
            return [
                L_(
                    "{name} is an attribute card ({label}): added to the hero's attribute cards, not the action deck",
                    name=pick.name,
                    label=label,
                )
            ]
        return [
            L_("{name} is an attribute card: added to the hero's attribute cards, not the action deck", name=pick.name)
        ]

    def _remove_from_list(
        self, holder: list[Any], pick: Pick, same: Callable[[object], bool], count: int | None
    ) -> list[str] | None:
        for i, a in enumerate(holder):
            if same(a):
                if count not in (None, 1):
                    raise EditRefused(
                        L_("'{a}' is an attribute card: the hero has it once", a=a),
                        L_("leave out {option}", option=option("count")),
                    )
                del holder[i]
                return [L_("removed {name} from the hero's attribute cards", name=a)]
        return None
