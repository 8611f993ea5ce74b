"""Rules core and hero checks for HeroCard: Rise of the Shogun (``004_80c161daf2b1fabf.txt``).

Pure functions over the catalog models; no YAML, no CLI, no printing.

Rules core:

* ``attack_value(cards)`` - one Base Attack plus Attack Mods (004:984-1001);
* ``block_value(cards)`` - any number of Base Blocks plus Block Mods (004:1079-1106);
* ``attack_succeeds(attack, block)`` - only when the attack exceeds the block (004:1060-1062);
* ``free_points(score, spent)``, ``can_afford(cost, attribute, scores, spent)``,
  ``spend(spent, cost, attribute, scores)`` - spent Attribute points against the score;
* ``can_play(card, scores, spent, own_turn, exclusives_played)`` -> (bool, reason):
  Action Type timing, one Exclusive action per turn, Attribute points;
* ``hero_points(attribute_cards)``, ``attribute_scores(attribute_cards)``;
* ``shogun_points(...)``, ``shogun_target(players)``, ``castles_for(players)``.

Hero checks (``check``): exactly one Body, one Mind and one X Attribute card; the
hero point total at most the agreed limit; at least ``min_action_cards`` Action
cards; at most 6 copies of a card; cards whose cost exceeds the hero's score in
their attribute (never playable); mods without any base card of their kind.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from builder.catalog.browse import complete_in
from builder.errors import ListError
from builder.findings import Finding, codes, error, info, warning
from builder.games.herocard.terms import ATTRIBUTE_LETTER, ATTRIBUTES, KIND_LABEL
from builder.i18n import L_, N_, Ln_, Text
from builder.kit.listread import check_keys, read_counts, value_kind
from builder.names import normalize
from builder.rules.limits import limit

if TYPE_CHECKING:
    from collections.abc import Iterable

    from builder.catalog.loader import Catalog
    from builder.systems.parts import HouseRules

SEED = "004_80c161daf2b1fabf.txt"
SRC_ATTRS = f"{SEED}:1204-1209"
SRC_POINTS = f"{SEED}:1219-1228"
SRC_DECK = f"{SEED}:1211-1217, {SEED}:1253"
SRC_COST = f"{SEED}:941-946"
SRC_TREASURE = f"{SEED}:294-300, {SEED}:1211-1217"
SRC_ATTACK = f"{SEED}:984-1001"
SRC_BLOCK = f"{SEED}:1079-1106"
ATTR_NAME = {"body": N_("Body"), "mind": N_("Mind"), "x": N_("X")}
KIND_NAME = {"base-attack": N_("Base Attack"), "base-block": N_("Base Block")}
# the card kinds (``terms.KIND_LABEL``) as findings name them
N_("Attack"), N_("Attack Mod"), N_("Special Attack"), N_("Block"), N_("Block Mod"), N_("Special Block"), N_("Action")

# -- attack and block arithmetic ----------------------------------------------------


def _kv(card: Any) -> tuple[str | None, int | None]:
    if isinstance(card, tuple):
        return card[0], card[1]
    return card.kind, card.value


def attack_value(cards: Iterable[Any]) -> int:
    """Total value of one Attack Sequence: one Base Attack plus any Attack Mods.

    ``cards`` are ActionCards or ``(kind, value)`` pairs. Attack from Above (Attack 4)
    with Stone Falls through Water (Attack Mod +5) is 9 (004:991-1001). Raises
    ValueError for a mod without a Base Attack or two Base Attacks in one sequence.
    Special attacks add nothing.
    """
    items = [_kv(c) for c in cards]
    bases = [v for k, v in items if k == "base-attack"]
    mods = [v for k, v in items if k == "attack-mod"]
    if len(bases) > 1:
        raise ValueError("an Attack Sequence has one Base Attack (a new Base Attack starts a new sequence)")
    if mods and not bases:
        raise ValueError("an Attack Mod cannot stand alone: play a Base Attack before or with it")
    return sum(v or 0 for v in bases + mods)


def block_value(cards: Iterable[Any]) -> int:
    """Total block value: all Base Blocks added together plus Block Mods.

    Unbroken Defense (9) with Efficient Block (4) is 13; with Cross Block (+5) as
    well, 18 (004:1088-1106). Raises ValueError for a Block Mod without a Base Block.
    """
    items = [_kv(c) for c in cards]
    bases = [v for k, v in items if k == "base-block"]
    mods = [v for k, v in items if k == "block-mod"]
    if mods and not bases:
        raise ValueError("a Block Mod cannot stand alone: play a Base Block before or with it")
    return sum(v or 0 for v in bases + mods)


def attack_succeeds(attack: int, block: int) -> bool:
    """An attack succeeds only when its value exceeds the block value; a tie fails (004:1060-1062, 004:1339)."""
    return attack > block


# -- attribute points ------------------------------------------------------------------


def free_points(score: int, spent: int) -> int:
    return max(0, score - spent)


def can_afford(cost: int, attribute: str, scores: dict, spent: dict) -> bool:
    """The combined Action Cost in play must be equal to or less than the score (004:941-946)."""
    return spent.get(attribute, 0) + cost <= scores.get(attribute, 0)


def spend(spent: dict, cost: int, attribute: str, scores: dict) -> dict:
    """Spent points after paying ``cost``; ValueError when the score does not allow it."""
    if not can_afford(cost, attribute, scores, spent):
        raise ValueError(
            f"{cost} {ATTRIBUTE_LETTER[attribute]} needs {spent.get(attribute, 0) + cost} of "
            f"{scores.get(attribute, 0)} {ATTR_NAME[attribute]} points"
        )
    out = dict(spent)
    out[attribute] = out.get(attribute, 0) + cost
    return out


def clear(spent: dict, cost: int, attribute: str) -> dict:
    """Spent points after clearing a card of that cost from its Attribute Stack."""
    out = dict(spent)
    out[attribute] = max(0, out.get(attribute, 0) - cost)
    return out


def can_play(
    card: Any, scores: dict, spent: dict, own_turn: bool = True, exclusives_played: int = 0
) -> tuple[bool, str]:
    """Whether ``card`` may be played now, and why not (004:948-959)."""
    at = card.action_type
    if at in ("restricted", "exclusive") and not own_turn:
        return False, f"{at.title()} actions are played only during your own Action Phase"
    if at == "exclusive" and exclusives_played >= 1:
        return False, "only one Exclusive action per turn"
    if (
        card.cost is not None
        and card.attribute is not None
        and not can_afford(card.cost, card.attribute, scores, spent)
    ):
        return False, (
            f"costs {card.cost} {ATTRIBUTE_LETTER[card.attribute]} but only "
            f"{free_points(scores.get(card.attribute, 0), spent.get(card.attribute, 0))} "
            f"{ATTR_NAME[card.attribute]} points are free"
        )
    return True, ""


def exclusive_allowed(exclusives_played: int) -> bool:
    """One Exclusive action per turn (004:957-959); a purged one does not count (004:1320-1321)."""
    return exclusives_played < 1


def is_ever_playable(card: Any, scores: dict) -> bool:
    """A card whose cost exceeds the hero's score in its attribute can never be played."""
    if card.cost is None or card.attribute is None:
        return True
    return card.cost <= scores.get(card.attribute, 0)


# -- heroes --------------------------------------------------------------------------------


def hero_points(attribute_cards: Iterable[Any]) -> int | None:
    """The hero point total of three Attribute cards (None when one is unknown) (004:1220-1222)."""
    pts = [c.hero_points for c in attribute_cards]
    if any(p is None for p in pts):
        return None
    return sum(pts)


def attribute_scores(attribute_cards: Iterable[Any]) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in attribute_cards:
        if c.attribute and c.score is not None:  # two cards of one kind (illegal): the higher score
            out[c.attribute] = max(c.score, out.get(c.attribute, c.score))
    return out


def shogun_points(
    claimed_castles: int = 0,
    chain_peasants: int = 0,
    prisoners: int = 0,
    heir: bool = False,
    scoring: dict | None = None,
) -> int:
    """Victory Points in Rise of the Shogun (004:749-754)."""
    s = scoring or {"claimed_castle": 4, "chain_peasant": 1, "prisoner": 1, "an_heir": 5}
    return (
        claimed_castles * s["claimed_castle"]
        + chain_peasants * s["chain_peasant"]
        + prisoners * s["prisoner"]
        + (s["an_heir"] if heir else 0)
    )


def shogun_target(players: int, shogun: Any = None) -> int:
    """Victory Points needed to become Shogun: 24, 22 or 20 for 2, 3 or 4 players (004:269-273)."""
    table = shogun.victory_points if shogun is not None else {2: 24, 3: 22, 4: 20}
    if players not in table:
        raise ValueError(f"Rise of the Shogun is for 2-4 players, not {players}")
    return table[players]


def castles_for(players: int, shogun: Any = None) -> int:
    """Castles placed: 6, 7 or 8 for 2, 3 or 4 players (004:346-348)."""
    table = shogun.castles if shogun is not None else {2: 6, 3: 7, 4: 8}
    if players not in table:
        raise ValueError(f"Rise of the Shogun is for 2-4 players, not {players}")
    return table[players]


# -- the hero document ---------------------------------------------------------------------

LIST_KEYS = ("hero", "max_hero_points", "attributes", "deck")


@dataclass
class Slot:
    name: str
    count: int
    card: Any = None
    loc: tuple = ()
    line: int | None = None
    col: int | None = None
    other: str | None = None  # the catalog section of a card that is no action card (a Treasure)


@dataclass
class HeroList:
    hero: str | None
    max_hero_points: int | None
    attributes: list[Slot] = field(default_factory=list)
    deck: list[Slot] = field(default_factory=list)
    key_pos: dict = field(default_factory=dict)

    def attribute_cards(self) -> list:
        return [s.card for s in self.attributes if s.card is not None]

    def action_total(self) -> int:
        """The action cards of the deck: a card known to be of another kind (an attribute card,
        a Treasure) is not one of them."""
        return sum(s.count for s in self.deck if s.other is None)


def _read_attributes(doc: Any, diags: list[Any]) -> list[tuple[str, tuple[Any, ...]]]:
    """The attribute cards as written, with where (a problem is said in ``diags``)."""
    attrs = doc.data.get("attributes")
    rows_attr: list[tuple[str, tuple]] = []
    if attrs is None:
        diags.append(
            doc.positions.diag(
                (),
                L_("missing 'attributes:' (the hero's Body, Mind and X attribute cards)"),
                hint=L_("e.g. attributes: [Warrior's Strength, Scholar's Wisdom, Honor's Power]"),
            )
        )
    elif not isinstance(attrs, list):
        diags.append(
            doc.diag(
                ("attributes",),
                L_(
                    "'attributes' must be a list of three attribute card names, not {value_kind}",
                    value_kind=value_kind(attrs),
                ),
                hint=L_("e.g. attributes: [Body card, Mind card, X card]"),
            )
        )
    else:
        for i, a in enumerate(attrs):
            if isinstance(a, bool) or not isinstance(a, (str, int, float)) or not str(a).strip():
                diags.append(
                    doc.diag(
                        ("attributes", i),
                        L_(
                            "attribute card {value} must be a card name, not {value_kind}",
                            value=i + 1,
                            value_kind=value_kind(a),
                        ),
                    )
                )
                continue
            rows_attr.append((str(a).strip(), ("attributes", i)))
    return rows_attr


def load_list(doc: Any, catalog: Catalog) -> tuple[HeroList, list[Finding]]:
    diags: list = []
    check_keys(doc, LIST_KEYS, diags)
    data = doc.data
    hero = data.get("hero")
    if (hero is not None and not isinstance(hero, (str, int, float))) or isinstance(hero, bool):
        diags.append(
            doc.diag(
                ("hero",), L_("'hero' must be text (the hero's name), not {value_kind}", value_kind=value_kind(hero))
            )
        )
        hero = None
    limit = data.get("max_hero_points")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        diags.append(
            doc.diag(
                ("max_hero_points",),
                L_(
                    "'max_hero_points' must be a whole number of at least 1 (the agreed hero point limit), not {value_kind}",
                    value_kind=value_kind(limit),
                ),
            )
        )
        limit = None
    agreed = doc.house_rules.get("max_hero_points") if isinstance(doc.house_rules, dict) else None
    if limit is not None and agreed is not None and agreed != limit:
        diags.append(
            doc.diag(
                ("max_hero_points",),
                L_(
                    "'max_hero_points: {limit}' disagrees with house rule max_hero_points {agreed}",
                    limit=limit,
                    agreed=agreed,
                ),
                hint=L_("give the agreed limit once"),
            )
        )
    rows_attr = _read_attributes(doc, diags)
    rows_deck = read_counts(doc, "deck", "card", diags, example="deck: {Overhand Thrust: 3}")
    if diags:
        raise ListError(sorted(diags, key=lambda d: (d.line, d.col)))
    if limit is not None and isinstance(doc.house_rules, dict):
        # the list's own limit is the agreed value of house rule max_hero_points (FORMATS.md 1.3)
        doc.house_rules.setdefault("max_hero_points", limit)
    lst = HeroList(hero=None if hero is None else str(hero), max_hero_points=limit)
    for k in LIST_KEYS:
        if k in data:
            lst.key_pos[(k,)] = doc.positions.at((k,), prefer_key=True)
    findings: list[Finding] = []
    for name, loc in rows_attr:
        line, col = doc.positions.at(loc)
        card = catalog.find("attribute_cards", name)
        lst.attributes.append(Slot(name, 1, card, loc, line, col))
        if card is None:
            if catalog.find("action_cards", name) is not None:
                findings.append(
                    error(
                        "herocard.not-attribute-card",
                        L_("'{name}' is an action card, not an attribute card; list it under 'deck'", name=name),
                        loc=loc,
                        line=line,
                        col=col,
                        source=SRC_ATTRS,
                    )
                )
            else:
                findings.append(_unknown(catalog, "attribute_cards", name, loc, line, col, L_("attribute card")))
    for name, count, loc in rows_deck:
        line, col = doc.positions.at(loc, prefer_key=True)
        card = catalog.find("action_cards", name)
        lst.deck.append(Slot(name, count, card, loc, line, col))
        if card is None:
            treasure = catalog.find("treasures", name)
            if catalog.find("attribute_cards", name) is not None:
                lst.deck[-1].other = "attribute_cards"
                findings.append(
                    error(
                        "herocard.not-action-card",
                        L_("'{name}' is an attribute card, not an action card; list it under 'attributes'", name=name),
                        loc=loc,
                        line=line,
                        col=col,
                        source=SRC_ATTRS,
                    )
                )
            elif treasure is not None:
                lst.deck[-1].other = "treasures"
                findings.append(
                    error(
                        "herocard.not-action-card",
                        L_(
                            "'{name}' is a Treasure card, not an action card: Treasures are drawn from their own "
                            "deck when a Hero searches a Shrine; remove it from 'deck'",
                            name=name,
                        ),
                        loc=loc,
                        line=line,
                        col=col,
                        source=SRC_TREASURE,
                        value=treasure.name,
                    )
                )
            else:
                findings.append(_unknown(catalog, "action_cards", name, loc, line, col, L_("action card")))
    return lst, findings


def _unknown(
    catalog: Catalog, section: str, name: str, loc: tuple, line: int | None, col: int | None, what: str
) -> Finding:
    hint = catalog.did_you_mean(section, name)
    return error(
        "herocard.unknown-card",
        L_("unknown {what} '{name}'; {hint}", what=what, name=name, hint=hint)
        if hint
        else L_("unknown {what} '{name}'; add it in a pack (packs: [my-cards.yaml])", what=what, name=name),
        loc=loc,
        value=name,
        line=line,
        col=col,
    )


# -- checks -----------------------------------------------------------------------------------


def _limit(lst: HeroList, catalog: Catalog, rules: HouseRules) -> int:
    if lst.max_hero_points is not None:
        return lst.max_hero_points
    return int(rules.get("max_hero_points", catalog.model.deck_rules.max_hero_points))


def _at(f: Finding, slot: Slot | None = None, lst: HeroList | None = None) -> Finding:
    if slot is not None:
        f.line, f.col = slot.line, slot.col
    elif lst is not None and f.loc in lst.key_pos:
        f.line, f.col = lst.key_pos[f.loc]
    return f


def check(lst: HeroList, catalog: Catalog, rules: HouseRules) -> list[Finding]:
    if lst.max_hero_points is not None and isinstance(rules, dict):
        rules["max_hero_points"] = lst.max_hero_points  # reported as the agreed value
    out: list[Finding] = []
    out += check_attributes(lst, catalog)
    out += check_hero_points(lst, catalog, rules)
    out += check_deck_size(lst, catalog, rules)
    out += check_copies(lst, catalog)
    out += check_costs(lst, catalog)
    out += check_mods(lst, catalog)
    return out


def hero_attribute_name(lst: HeroList, catalog: Catalog, kind: str) -> str:
    """The attribute as a finding names it: the hero's own name for its Attribute X beside the
    letter, "X (ki)" (the hero's ``attribute_x``: which Attribute X a Hero has, 004:858-864;
    ki in Rise of the Shogun, 004:262-264)."""
    name = Text(ATTR_NAME[kind])
    if kind != "x" or not lst.hero:
        return name
    hero = catalog.find("heroes", lst.hero)
    x = getattr(hero, "attribute_x", None) if hero is not None else None
    return Text("{name} ({x})", {"name": name, "x": x}) if x else name


def check_attributes(lst: HeroList, catalog: Catalog) -> list[Finding]:
    out = []
    want = catalog.model.deck_rules.attribute_cards
    n = len(lst.attributes)
    if n != want:
        out.append(
            _at(
                error(
                    "herocard.attribute-count",
                    Ln_(
                        "hero has {n} attribute card but must have exactly {want} (one Body, one Mind, one X)",
                        "hero has {n} attribute cards but must have exactly {want} (one Body, one Mind, one X)",
                        n,
                        want=want,
                    ),
                    loc=("attributes",),
                    source=SRC_ATTRS,
                    value=n,
                    bound=want,
                ),
                lst=lst,
            )
        )
    by_kind: dict[str, list[Slot]] = {}
    unknown_kind = []
    for s in lst.attributes:
        if s.card is None:
            continue
        if s.card.attribute is None:
            unknown_kind.append(s)
            continue
        by_kind.setdefault(s.card.attribute, []).append(s)
    for kind in ATTRIBUTES:
        slots = by_kind.get(kind, [])
        if len(slots) > 1:
            names = ", ".join(sorted(s.card.name for s in slots))
            out.append(
                _at(
                    error(
                        "herocard.attribute-kinds",
                        L_(
                            "{n} {attribute} attribute cards ({names}); a hero has exactly one {kind} card",
                            n=len(slots),
                            attribute=hero_attribute_name(lst, catalog, kind),
                            names=names,
                            kind=Text(ATTR_NAME[kind]),
                        ),
                        loc=slots[1].loc,
                        source=SRC_ATTRS,
                        value=len(slots),
                        bound=1,
                        base=f"{ATTR_NAME[kind]} cards",
                    ),
                    slots[1],
                )
            )
        elif not slots and not unknown_kind and all(s.card is not None for s in lst.attributes):
            out.append(
                _at(
                    error(
                        "herocard.attribute-kinds",
                        L_(
                            "no {attribute} attribute card; a hero has one Body, one Mind and one X card",
                            attribute=hero_attribute_name(lst, catalog, kind),
                        ),
                        loc=("attributes",),
                        source=SRC_ATTRS,
                        value=0,
                        bound=1,
                        base=f"{ATTR_NAME[kind]} cards",
                    ),
                    lst=lst,
                )
            )
    for s in unknown_kind:
        out.append(
            _at(
                error(
                    "herocard.attribute-unknown",
                    L_(
                        "'{name}' does not say which attribute it is (Body, Mind or X), so the rule of one Body, "
                        "one Mind and one X card cannot be checked; give 'attribute: body' (mind or x) for it in "
                        "{where}",
                        name=s.card.name,
                        where=complete_in(catalog, "attribute_cards", s.card),
                    ),
                    loc=s.loc,
                    source=SRC_ATTRS,
                ),
                s,
            )
        )
    return out


def check_hero_points(lst: HeroList, catalog: Catalog, rules: HouseRules) -> list[Finding]:
    cards = lst.attribute_cards()
    if not cards:
        return []
    limit = _limit(lst, catalog, rules)
    lacking = [c for c in cards if c.hero_points is None]
    missing = [c.name for c in lacking]
    if missing:
        where = sorted({complete_in(catalog, "attribute_cards", c) for c in lacking})
        return [
            _at(
                error(
                    "herocard.hero-points-unknown",
                    Ln_(
                        "hero point total cannot be checked against {limit}, so the hero cannot be confirmed "
                        "legal: {names} prints no hero points in the catalog; give 'hero_points: N' for it in "
                        "{where}",
                        "hero point total cannot be checked against {limit}, so the hero cannot be confirmed "
                        "legal: {names} print no hero points in the catalog; give 'hero_points: N' for them in "
                        "{where}",
                        len(missing),
                        limit=limit,
                        names=", ".join(sorted(missing)),
                        where=_either(where),
                    ),
                    loc=("attributes",),
                    source=SRC_POINTS,
                    value=sorted(missing),
                    bound=limit,
                    base="hero points of the attribute cards",
                ),
                lst=lst,
            )
        ]
    total = sum(c.hero_points for c in cards)
    if total > limit:
        base = "max_hero_points" + (" (list)" if lst.max_hero_points is not None else "")
        return [
            _at(
                error(
                    "herocard.hero-points-max",
                    L_("hero points {total} > {limit} (the agreed hero point limit)", total=total, limit=limit),
                    loc=("attributes",),
                    source=SRC_POINTS,
                    value=total,
                    bound=limit,
                    base=base,
                    counted=[f"{c.name}: {c.hero_points}" for c in cards],
                ),
                lst=lst,
            )
        ]
    return []


def _house_rule(catalog: Catalog, rule_id: str, value: object, source: str) -> tuple[str, str | None]:
    """What a bound set by house rule ``rule_id`` says of itself: ``, house rule ID=VALUE`` when
    the value is not the default, and the lines that give the value (an alternative's), else
    ``source``, the rule's own lines."""
    hr = next((h for h in catalog.model.house_rules if h.id == rule_id), None)
    if hr is None or value == hr.default:
        return "", source
    return L_(", house rule {rule}={value}", rule=rule_id, value=value), hr.source_for(value) or source


def _either(where: list[str]) -> str:
    """Places a player may complete cards in, "A or B" (each said in the current language)."""
    out = where[0]
    for w in where[1:]:
        out = L_("{a} or {b}", a=out, b=w)
    return out


def check_deck_size(lst: HeroList, catalog: Catalog, rules: HouseRules) -> list[Finding]:
    want = int(rules.get("min_action_cards", catalog.model.deck_rules.min_action_cards))
    n = lst.action_total()
    if n < want:
        agreed, source = _house_rule(catalog, "min_action_cards", want, SRC_DECK)
        return [
            _at(
                error(
                    "herocard.deck-min",
                    Ln_(
                        "action deck has {n} card < {want} (the fewest an Action deck may hold{agreed})",
                        "action deck has {n} cards < {want} (the fewest an Action deck may hold{agreed})",
                        n,
                        want=want,
                        agreed=agreed,
                    ),
                    loc=("deck",),
                    source=source,
                    value=n,
                    bound=want,
                    base="min_action_cards",
                ),
                lst=lst,
            )
        ]
    return []


def check_copies(lst: HeroList, catalog: Catalog) -> list[Finding]:
    """At most ``max_copies`` of one card, however many lines (spellings) name it."""

    most = catalog.model.deck_rules.max_copies
    groups: dict[str, list] = {}
    for s in lst.deck:
        key = f"id:{s.card.id}" if s.card is not None else f"name:{normalize(s.name)}"
        groups.setdefault(key, []).append(s)
    out = []
    for slots in groups.values():
        total = sum(s.count for s in slots)
        if total > most:
            first = slots[0]
            name = first.card.name if first.card is not None else first.name
            lines = L_(" (on {n} lines)", n=len(slots)) if len(slots) > 1 else ""
            out.append(
                _at(
                    error(
                        "herocard.copies-max",
                        L_(
                            "{total} copies of '{name}'{lines} > {most} (the most copies of one card)",
                            total=total,
                            name=name,
                            lines=lines,
                            most=most,
                        ),
                        loc=first.loc,
                        source=f"{SEED}:1216-1217, {SEED}:1253",
                        value=total,
                        bound=most,
                    ),
                    first,
                )
            )
    return out


def check_costs(lst: HeroList, catalog: Catalog) -> list[Finding]:
    scores = attribute_scores(lst.attribute_cards())
    out = []
    unknown = []
    for s in lst.deck:
        c = s.card
        if c is None:
            continue
        if c.cost is None or c.attribute is None:
            unknown.append(c.name)
            continue
        if c.attribute not in scores:
            continue  # no card of that attribute (or its score is unknown): reported elsewhere
        if c.cost > scores[c.attribute]:
            out.append(
                _at(
                    warning(
                        "herocard.cost-exceeds-score",
                        L_(
                            "'{name}' costs {cost} {letter} but the hero's {attribute} score is {score}: it can "
                            "never be played",
                            name=c.name,
                            cost=c.cost,
                            letter=ATTRIBUTE_LETTER[c.attribute],
                            attribute=hero_attribute_name(lst, catalog, c.attribute),
                            score=scores[c.attribute],
                        ),
                        loc=s.loc,
                        source=SRC_COST,
                        value=c.cost,
                        bound=scores[c.attribute],
                        base=f"{ATTR_NAME[c.attribute]} score",
                    ),
                    s,
                )
            )
    if unknown:
        out.append(
            _at(
                info(
                    "herocard.cost-unknown",
                    L_(
                        "action cost not known for {names}; their costs cannot be checked against the hero's scores",
                        names=", ".join(sorted(unknown)),
                    ),
                    loc=("deck",),
                    source=SRC_COST,
                ),
                lst=lst,
            )
        )
    missing_scores = [c.name for c in lst.attribute_cards() if c.attribute and c.score is None]
    if missing_scores:
        out.append(
            _at(
                warning(
                    "herocard.unknown-value",
                    L_(
                        "attribute score not known for {names}; action costs cannot be checked against it "
                        "(complete the card in a pack)",
                        names=", ".join(sorted(missing_scores)),
                    ),
                    loc=("attributes",),
                    source=SRC_COST,
                ),
                lst=lst,
            )
        )
    return out


def _never_playable(card: Any, scores: dict) -> bool:
    """A card whose known cost is over the hero's known score in its attribute (004:941-946)."""
    return card.cost is not None and card.attribute in scores and card.cost > scores[card.attribute]


def check_mods(lst: HeroList, catalog: Catalog) -> list[Finding]:
    """A mod needs a Base card of its kind that can be played with it (004:984-1001, 004:1035-1038)."""
    scores = attribute_scores(lst.attribute_cards())
    out = []
    # what each kind needs played with it: its card_kinds entry's ``needs`` (a pack may change it)
    needs = [
        (k.key, k.needs, k.group) for k in catalog.model.card_kinds if k.needs in KIND_LABEL and k.key in KIND_LABEL
    ]
    for mod, base, group in needs:
        base_name = Text(KIND_NAME.get(base, KIND_LABEL[base]))
        bases = {s.card.name: s.card for s in lst.deck if s.card is not None and s.card.kind == base}
        playable = [c for c in bases.values() if not _never_playable(c, scores)]
        if playable:
            continue
        if bases:
            names = ", ".join(f"'{n}'" for n in sorted(bases))
            why = (
                L_(
                    "the deck's only {kind}s ({names}) can never be played (cost over the hero's score) and a mod "
                    "cannot stand alone",
                    kind=base_name,
                    names=names,
                )
                if len(bases) > 1
                else L_(
                    "the deck's only {kind} ({names}) can never be played (cost over the hero's score) and a mod "
                    "cannot stand alone",
                    kind=base_name,
                    names=names,
                )
            )
        else:
            why = L_("the deck has no {kind} and a mod cannot stand alone", kind=base_name)
        for s in lst.deck:
            if s.card is not None and s.card.kind == mod:
                out.append(
                    _at(
                        warning(
                            "herocard.mod-without-base",
                            L_(
                                "'{name}' ({kind}) can never be played: {why}",
                                name=s.card.name,
                                kind=Text(KIND_LABEL[mod]),
                                why=why,
                            ),
                            loc=s.loc,
                            source=SRC_ATTACK if group == "attack" else SRC_BLOCK,
                        ),
                        s,
                    )
                )
    return out


def summary(lst: HeroList, catalog: Catalog, rules: HouseRules) -> dict:
    cards = lst.attribute_cards()
    out: dict = {}
    if lst.hero:
        out["hero"] = lst.hero
    out["hero_points"] = hero_points(cards) if len(cards) == len(lst.attributes) and cards else None
    out["max_hero_points"] = _limit(lst, catalog, rules)
    out["action_cards"] = lst.action_total()
    scores = attribute_scores(cards)
    if scores:
        out["scores"] = " ".join(f"{ATTRIBUTE_LETTER[a]}{scores[a]}" for a in ATTRIBUTES if a in scores)
    group_of = {k.key: k.group for k in catalog.model.card_kinds}
    groups = {"attack": 0, "block": 0, "other": 0}
    for s in lst.deck:
        if s.card is not None and s.card.kind:
            groups[group_of.get(s.card.kind, "other")] += s.count
    out["attack_cards"] = groups["attack"]
    out["block_cards"] = groups["block"]
    return out


__all__ = [
    "HeroList",
    "Slot",
    "attack_succeeds",
    "attack_value",
    "attribute_scores",
    "block_value",
    "can_afford",
    "can_play",
    "castles_for",
    "check",
    "clear",
    "exclusive_allowed",
    "free_points",
    "hero_points",
    "is_ever_playable",
    "load_list",
    "shogun_points",
    "shogun_target",
    "spend",
    "summary",
]


def limits(lst: HeroList, catalog: Catalog, rules: HouseRules) -> list[dict]:
    """Hero points, action cards and copies of each card against what the rules allow."""
    rows = []
    s = summary(lst, catalog, rules)
    if s.get("hero_points") is not None and s.get("max_hero_points") is not None:
        rows.append(limit(L_("hero points"), "max", s["hero_points"], s["max_hero_points"], "points", SRC_POINTS))
    dr = catalog.model.deck_rules
    minimum = int(rules.get("min_action_cards", dr.min_action_cards))
    rows.append(
        limit(
            L_("action cards"),
            "min",
            lst.action_total(),
            minimum,
            "cards",
            _house_rule(catalog, "min_action_cards", minimum, SRC_DECK)[1],
        )
    )
    if dr.max_copies:
        for slot in lst.deck:
            if slot.card is not None:
                rows.append(
                    limit(
                        L_("copies of one card"),
                        "max",
                        slot.count,
                        int(dr.max_copies),
                        "copies",
                        SRC_DECK,
                        group=slot.card.name,
                    )
                )
    return rows


def hand_size(catalog: Catalog) -> tuple[int, str]:
    """Cards in the opening hand and where the rulebook says so."""
    return int(getattr(getattr(catalog.model, "deck_rules", None), "opening_hand", None) or 7), f"{SEED}:1244"


# -- finding codes ---------------------------------------------------------------------------------

FINDING_CODES = codes(
    "herocard",
    {
        "unknown-card": ("error", N_("a card the catalog and the list's packs do not know")),
        "not-attribute-card": ("error", N_("an action card listed among the hero's attribute cards"), SRC_ATTRS),
        "not-action-card": (
            "error",
            N_("an attribute card or a Treasure listed in the action deck"),
            f"{SRC_ATTRS}, {SRC_TREASURE}",
        ),
        "attribute-count": ("error", N_("a hero has exactly three attribute cards"), SRC_ATTRS),
        "attribute-kinds": ("error", N_("a hero has one Body, one Mind and one X attribute card"), SRC_ATTRS),
        "attribute-unknown": (
            "error",
            N_(
                "an attribute card that does not say whether it is Body, Mind or X: one of each "
                "cannot be checked until a pack says"
            ),
            SRC_ATTRS,
        ),
        "hero-points-unknown": (
            "error",
            N_("an attribute card without hero points: the hero point limit cannot be checked until a pack gives them"),
            SRC_POINTS,
        ),
        "unknown-value": (
            "warning",
            N_("a card lacks a value a rule needs (attribute, hero points or score)"),
            SRC_ATTRS,
        ),
        "hero-points-max": ("error", N_("the attribute cards' hero points exceed the agreed limit"), SRC_POINTS),
        "deck-min": ("error", N_("the action deck holds fewer cards than the rules ask"), SRC_DECK),
        "copies-max": (
            "error",
            N_("more copies of one action card than the rules allow"),
            f"{SEED}:1216-1217, {SEED}:1253",
        ),
        "cost-exceeds-score": (
            "warning",
            N_("an action card costing more than the hero's score can never be played"),
            SRC_COST,
        ),
        "cost-unknown": (
            "info",
            N_("action costs the catalog lacks cannot be checked against the hero's scores"),
            SRC_COST,
        ),
        "mod-without-base": (
            "warning",
            N_("an attack or block mod with no playable base card of its kind in the deck can never be played"),
            SRC_ATTACK,
        ),
    },
)
