"""Rules core and deck checks for Senshiai (rulebook ``000_ac601013730960cf.txt``).

Pure functions over the catalog models; no YAML, no CLI, no printing.

Rules core (usable on their own, e.g. by a play aid or by card-face printing):

* ``modified_power(base, modifiers)`` - a Unit's Power under bonuses and penalties,
  nulla traits unchanged, the Rule of Singularity applied;
* ``singularity(modifiers)`` -> (greatest bonus, greatest penalty) per trait, per card Type,
  summed over Types; ``net_modifiers(modifiers)`` -> the final (bonus, penalty);
* ``modified_trait(base, modifiers)`` - the same for one characteristic (Resistance, Speed);
* ``is_destroyed(damage, resistance)``, ``capital_waste(damage, resistance, rule)``;
* ``card_abilities(card, catalog)`` (printed plus implied), ``has_ability``,
  ``missing_fields(card, catalog)``, ``required_fields(card, catalog)``,
  ``can_recruit_on(troop, terrain, catalog)``, ``can_target(target, card, catalog)``,
  ``cost_curve(deck)``.

Deck checks (``check``): exactly one Capital costing nulla; the agreed size; the
maximum of 200 cards (house rule ``max_deck_cards``); every card states the fields
its Type requires; troops that can never be recruited; events without any possible
target in the deck. The summary carries the cost curve.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from builder.catalog.browse import complete_in
from builder.errors import ListError
from builder.findings import Finding, codes, error, warning
from builder.games.senshiai.terms import (
    CARD_TYPES,
    PATHS,
    ROMAN,
    TRAITS,
    Power,
    PowerMod,
    cost_label,
    parse_ability,
    parse_modifier,
    parse_power,
)
from builder.i18n import L_, N_, Ln_, Text
from builder.kit.listread import check_keys, read_counts, value_kind
from builder.names import normalize
from builder.rules.limits import limit

if TYPE_CHECKING:
    from builder.catalog.loader import Catalog
    from builder.systems.parts import HouseRules

SEED = "000_ac601013730960cf.txt"
SRC_DECK = f"{SEED}:17"
SRC_CAPITAL = f"{SEED}:17, {SEED}:64-66"
SRC_FIELDS = {"terrain": f"{SEED}:51", "troop": f"{SEED}:53", "event": f"{SEED}:57"}
SRC_RECRUIT = f"{SEED}:53, {SEED}:73"
SRC_TARGET = f"{SEED}:43, {SEED}:57"
SRC_COST = f"{SEED}:47"
SRC_SINGULARITY = f"{SEED}:93-99, {SEED}:167"
SRC_MODIFIERS = f"{SEED}:157-158, {SEED}:167"

# -- Power under modifiers -----------------------------------------------------------

Modifier = tuple  # (source card Type, PowerMod or "+1/1/1")


def _mods(modifiers: Iterable) -> list[tuple[str, PowerMod]]:
    out = []
    for item in modifiers:
        if isinstance(item, (PowerMod, str)):
            src, mod = "", item
        else:
            src, mod = item
        out.append((normalize(src or ""), parse_modifier(mod)))
    return out


def singularity(modifiers: Iterable) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """Total bonus and total penalty per trait under the Rule of Singularity.

    ``modifiers`` are ``(source_type, modifier)`` pairs (``("event", "+1/0/1")``) or
    bare modifiers (all of one Type). Of the cards of one Type only the greatest
    bonus and the greatest penalty count, trait by trait; different Types stack
    (000:93-99, 000:167). Returns (bonus, penalty) as magnitudes >= 0.
    """
    best_bonus: dict[str, list[int]] = {}
    best_pen: dict[str, list[int]] = {}
    for src, mod in _mods(modifiers):
        table = best_bonus if mod.sign > 0 else best_pen
        cur = table.setdefault(src, [0, 0, 0])
        for i, t in enumerate(mod.traits()):
            cur[i] = max(cur[i], t)
    return _by_trait(best_bonus), _by_trait(best_pen)


def _by_trait(table: dict[str, list[int]]) -> tuple[int, int, int]:
    """The sums over the Types of ``table``, trait by trait."""
    a, b, c = (sum(v[i] for v in table.values()) for i in range(3))
    return a, b, c


def net_modifiers(modifiers: Iterable) -> tuple[PowerMod, PowerMod]:
    """The final bonus and penalty in effect at the same time (000:99, 000:167).

    Bonus +1/2/1 against penalty -2/1/1 leaves +0/1/0 and -1/0/0.
    """
    bonus, penalty = singularity(modifiers)
    diff = [b - p for b, p in zip(bonus, penalty, strict=False)]
    return (PowerMod(1, *(max(d, 0) for d in diff)), PowerMod(-1, *(max(-d, 0) for d in diff)))


def modified_power(base: Power | str, modifiers: Iterable = ()) -> Power:
    """A Unit's Power under bonuses and penalties.

    Nulla (``n``) traits cannot be modified (000:157-158); traits never drop below 0
    (a Resistance of 0 means the Unit is destroyed, see ``is_destroyed``).
    Warriors 3/0/6 with +1/1/1 and -0/0/2 -> 4/1/5; Militiamen 1/n/4 -> 2/n/3.
    """
    base = parse_power(base)
    bonus, penalty = net_modifiers(modifiers)
    out = []
    for t, b, p in zip(base.traits(), bonus.traits(), penalty.traits(), strict=False):
        out.append(None if t is None else max(0, t + b - p))
    return Power(*out)


def modified_trait(base: int | None, modifiers: Iterable[tuple[str, int]]) -> int | None:
    """One characteristic (Resistance, Speed) under signed modifiers ``(source_type, +2)``.

    Per card Type only the greatest bonus and the greatest penalty count (000:95-97):
    Resistance 3, a Terrain's +1, Events +2, +1 and +3 -> 3 + 1 + 3 = 7 (000:167).
    """
    if base is None:
        return None
    bonus: dict[str, int] = {}
    pen: dict[str, int] = {}
    for src, value in modifiers:
        key = normalize(src or "")
        if value >= 0:
            bonus[key] = max(bonus.get(key, 0), value)
        else:
            pen[key] = max(pen.get(key, 0), -value)
    return max(0, base + sum(bonus.values()) - sum(pen.values()))


def is_destroyed(damage: int, resistance: int) -> bool:
    """A Unit with damage at least equal to its Resistance is destroyed (000:114, 000:122)."""
    return resistance <= 0 or damage >= resistance


def capital_waste(damage: int, resistance: int, rule: str = "exceeding") -> int:
    """Cards a Capital's master wastes instead of the Capital being destroyed (Maintenance, 000:66).

    ``rule`` is the house rule ``capital_waste``: 'exceeding' (one card per point above
    the Resistance) or 'reaching' (damage equal to the Resistance already costs one card).
    """
    extra = damage - resistance + (1 if rule == "reaching" else 0)
    return max(0, extra)


# -- cards ---------------------------------------------------------------------------


def _subtype(card: Any, catalog: Catalog) -> Any:
    if not card.subtype:
        return None
    for s in catalog.model.subtypes:
        if normalize(s.name) == normalize(card.subtype) or normalize(card.subtype) in map(normalize, s.aliases):
            return s
    return None


def _card_type(card: Any, catalog: Catalog) -> Any:
    if not card.type:
        return None
    for t in catalog.model.card_types:
        if t.id == card.type:
            return t
    return None


def card_abilities(card: Any, catalog: Catalog) -> list:
    """The card's abilities as parsed entries: printed ones plus those its subtype implies."""
    # worked out once per catalog for each set of printed abilities and subtype: a check asks
    # for every card's abilities many times (targets, recruiting, paths)
    memo = catalog.memo("senshiai.card_abilities")
    key = (tuple(card.abilities), card.subtype)
    hit = memo.get(key)
    if hit is None:
        if len(memo) > _KEPT_ABILITIES:  # a server's catalog lives long: keep what is kept bounded
            memo.clear()
        hit = memo[key] = tuple(_parsed_abilities(card, catalog))
    return list(hit)


_KEPT_ABILITIES = 50_000  # distinct (printed abilities, subtype) answers kept per catalog


def _parsed_abilities(card: Any, catalog: Catalog) -> list:
    texts = list(card.abilities)
    sub = _subtype(card, catalog)
    if sub is not None:
        have = {normalize(t) for t in texts}
        texts += [t for t in sub.implied_abilities if normalize(t) not in have]
    out = []
    for t in texts:
        try:
            out.append(parse_ability(t, catalog.model.abilities))
        except ValueError:
            continue
    return out


def has_ability(card: Any, name: str, catalog: Catalog) -> bool:
    key = normalize(name)
    return any(normalize(p.ability.name) == key for p in card_abilities(card, catalog))


def required_fields(card: Any, catalog: Catalog) -> list[str]:
    """What a card of this Type (and subtype) must state (000:51-57, 000:64-66)."""
    if not card.type:
        return ["type"]
    ctype = _card_type(card, catalog)
    req = list(ctype.required if ctype else [])
    sub = _subtype(card, catalog)
    if sub is not None:
        req += [f for f in sub.required if f not in req]
    return req


def missing_fields(card: Any, catalog: Catalog) -> list[str]:
    """Required fields the card does not state (``type`` when even its Type is unknown)."""
    out = []
    for f in required_fields(card, catalog):
        if f == "type":
            out.append("type")
            continue
        value = getattr(card, f, None)
        if f == "abilities":
            if not card.abilities and not card.text and not card.modifiers:
                out.append("abilities")
        elif value is None or value == []:
            out.append(f)
    return out


def can_recruit_on(troop: Any, terrain: Any, catalog: Catalog) -> bool:
    """A Troop is recruited on a Terrain with Recruit that shares a path with it (000:53, 000:73)."""
    return bool(
        troop.paths
        and terrain.paths
        and set(troop.paths) & set(terrain.paths)
        and has_ability(terrain, "Recruit", catalog)
    )


def can_target(target: str, card: Any, catalog: Catalog) -> bool:
    """Whether ``card`` (in play) can be the Target ``target`` of an Event."""
    tk = None
    for t in catalog.model.targets:
        if normalize(target) in {normalize(n) for n in [t.name, *t.aliases]}:
            tk = t
            break
    if tk is None:
        return False
    if tk.always:
        return True
    if card.type and card.type in {normalize(x) for x in tk.matches_types}:
        return True
    if card.subtype and normalize(card.subtype) in {normalize(x) for x in tk.matches_subtypes}:
        return True
    names = {normalize(a) for a in tk.matches_abilities}
    for p in card_abilities(card, catalog):
        if normalize(p.ability.name) in names:
            if normalize(p.ability.name) == "acts as" and tk.matches_types:
                what = normalize(str(p.params.get("what", "")))
                if what in {"unit", "troop"} and "troop" in {normalize(x) for x in tk.matches_types}:
                    return True
                continue
            return True
    return False


def target_always_possible(target: str, catalog: Catalog) -> bool:
    for t in catalog.model.targets:
        if normalize(target) in {normalize(n) for n in [t.name, *t.aliases]}:
            return t.always
    return False


# -- the deck document -------------------------------------------------------------

LIST_KEYS = ("size", "cards")


@dataclass
class DeckEntry:
    name: str  # as written
    count: int
    card: Any = None  # the catalog Card, None when unknown
    loc: tuple = ()
    line: int | None = None
    col: int | None = None


@dataclass
class Deck:
    size: int | None
    entries: list[DeckEntry] = field(default_factory=list)
    key_pos: dict = field(default_factory=dict)  # ("cards",) -> (line, col) of the key

    def known(self) -> list[DeckEntry]:
        return [e for e in self.entries if e.card is not None]

    def total(self) -> int:
        return sum(e.count for e in self.entries)


def read_positive_int(doc: Any, key: str, diags: list, what: str) -> int | None:
    if key not in doc.data or doc.data[key] is None:
        return None
    v = doc.data[key]
    if isinstance(v, bool) or not isinstance(v, int) or v < 1:
        diags.append(
            doc.diag(
                (key,),
                L_(
                    "'{key}' must be a whole number of at least 1 ({what}), not {value_kind}",
                    key=key,
                    what=what,
                    value_kind=value_kind(v),
                ),
            )
        )
        return None
    return v


def load_list(doc: Any, catalog: Catalog) -> tuple[Deck, list[Finding]]:
    """Validate the deck's own keys (``size``, ``cards``); ListError for wrong shapes."""
    diags: list = []
    check_keys(doc, LIST_KEYS, diags)
    size = read_positive_int(doc, "size", diags, "the agreed deck size")
    rows = read_counts(doc, "cards", "card", diags)
    if diags:
        raise ListError(sorted(diags, key=lambda d: (d.line, d.col)))
    deck = Deck(size=size)
    for k in LIST_KEYS:
        if k in doc.data:
            deck.key_pos[(k,)] = doc.positions.at((k,), prefer_key=True)
    findings: list[Finding] = []
    for name, count, loc in rows:
        line, col = doc.positions.at(loc, prefer_key=True)
        card = catalog.find("cards", name)
        entry = DeckEntry(name, count, card, loc, line, col)
        deck.entries.append(entry)
        if card is None:
            hint = catalog.did_you_mean("cards", name)
            findings.append(
                error(
                    "senshiai.unknown-card",
                    L_("unknown card '{name}'; {hint}", name=name, hint=hint)
                    if hint
                    else L_("unknown card '{name}'; add it in a pack (packs: [my-cards.yaml])", name=name),
                    loc=loc,
                    value=name,
                    line=line,
                    col=col,
                )
            )
    return deck, findings


# -- checks ----------------------------------------------------------------------------


def _at(f: Finding, e: DeckEntry | None, deck: Deck | None = None) -> Finding:
    if e is not None:
        f.line, f.col = e.line, e.col
    elif deck is not None and f.loc in deck.key_pos:
        f.line, f.col = deck.key_pos[f.loc]
    return f


def _article(word: str) -> str:
    return "an" if str(word)[:1].lower() in "aeiou" else "a"


def check(deck: Deck, catalog: Catalog, rules: HouseRules) -> list[Finding]:
    out: list[Finding] = []
    out += check_capital(deck, catalog)
    out += check_size(deck, catalog, rules)
    out += check_fields(deck, catalog)
    out += check_recruitable(deck, catalog)
    out += check_event_targets(deck, catalog)
    return out


def check_capital(deck: Deck, catalog: Catalog) -> list[Finding]:
    caps = [e for e in deck.known() if e.card.is_capital()]
    n = sum(e.count for e in caps)
    want = catalog.model.deck_rules.capitals
    out = []
    if n != want:
        # what the player wrote: a Capital written once by name and once by an alias is two lines
        names = ", ".join(f"{e.count} {e.name}" for e in sorted(caps, key=lambda e: (e.card.name, e.name)))
        first = caps[1] if len(caps) > 1 else (caps[0] if caps else None)
        f = error(
            "senshiai.capital-count",
            Ln_(
                "deck has {n} Capital ({names}) but must have exactly {want} (a card with the Capital subtype)",
                "deck has {n} Capitals ({names}) but must have exactly {want} (a card with the Capital subtype)",
                n,
                names=names,
                want=want,
            )
            if names
            else Ln_(
                "deck has {n} Capital but must have exactly {want} (a card with the Capital subtype)",
                "deck has {n} Capitals but must have exactly {want} (a card with the Capital subtype)",
                n,
                want=want,
            ),
            loc=first.loc if first else ("cards",),
            source=SRC_CAPITAL,
            value=n,
            bound=want,
            base="cards with the Capital subtype",
            counted=sorted(f"{e.count} x {e.card.name}" for e in caps),
        )
        out.append(_at(f, first, deck))
    for e in caps:
        if e.card.cost is not None and e.card.cost != 0:
            out.append(
                _at(
                    warning(
                        "senshiai.capital-cost",
                        L_(
                            "Capital '{name}' costs {cost}; the Capitals of the Basic Collection cost nulla (N), and "
                            "a Capital is never paid for: it begins the game in place",
                            name=e.card.name,
                            cost=cost_label(e.card.cost),
                        ),
                        loc=e.loc,
                        source=f"{SEED}:66",
                        value=cost_label(e.card.cost),
                        bound="N",
                    ),
                    e,
                )
            )
    return out


def check_size(deck: Deck, catalog: Catalog, rules: HouseRules) -> list[Finding]:
    total = deck.total()
    out = []
    limit = int(rules.get("max_deck_cards", catalog.model.deck_rules.max_cards))
    if deck.size is not None and total != deck.size:
        out.append(
            error(
                "senshiai.deck-size",
                Ln_(
                    "deck has {n} card but the agreed size is {size}",
                    "deck has {n} cards but the agreed size is {size}",
                    total,
                    size=deck.size,
                ),
                loc=("size",),
                source=SRC_DECK,
                value=total,
                bound=deck.size,
                base="agreed deck size ('size')",
            )
        )
    if deck.size is not None and deck.size > limit:  # one finding, at the size that was agreed
        held = Ln_("; the deck has {n} card", "; the deck has {n} cards", total) if total > limit else ""
        out.append(
            error(
                "senshiai.deck-max",
                L_(
                    "agreed size {size} > {limit} (the most a deck may hold){held}",
                    size=deck.size,
                    limit=limit,
                    held=held,
                ),
                loc=("size",),
                source=SRC_DECK,
                value=deck.size,
                bound=limit,
                base="max_deck_cards",
            )
        )
    elif total > limit:
        out.append(
            error(
                "senshiai.deck-max",
                L_("deck has {n} cards > {limit} (the most a deck may hold)", n=total, limit=limit),
                loc=("cards",),
                source=SRC_DECK,
                value=total,
                bound=limit,
                base="max_deck_cards",
            )
        )
        _at(out[-1], None, deck)
    return out


def check_fields(deck: Deck, catalog: Catalog) -> list[Finding]:
    out = []
    for e in deck.known():
        miss = missing_fields(e.card, catalog)
        if not miss:
            continue
        if "type" in miss:
            msg = L_(
                "'{name}' has no known Type (terrain, troop or event); the rulebook does not give it: complete "
                "the card in {where}",
                name=e.card.name,
                where=complete_in(catalog, "cards", e.card),
            )
            src = f"{SEED}:49"
        else:
            why: list[str] = [
                Text("{field} ({why})", {"field": f, "why": Text(FIELD_WHY[f])}) if f in FIELD_WHY else f for f in miss
            ]
            capital = e.card.is_capital() and "power" in miss
            if capital:
                why[miss.index("power")] = L_("power (a Capital acts as a Unit and fights)")
            msg = L_(
                "'{name}' ({type}) does not state {fields}; complete the card in {where}",
                name=e.card.name,
                type=e.card.type,
                fields=Text("; ".join(f"{{w{i}}}" for i in range(len(why))), {f"w{i}": w for i, w in enumerate(why)}),
                where=complete_in(catalog, "cards", e.card),
            )
            src = f"{SEED}:64-66" if capital else SRC_FIELDS.get(e.card.type, f"{SEED}:49")
        out.append(
            _at(
                warning(
                    "senshiai.card-fields",
                    msg,
                    loc=e.loc,
                    source=src,
                    value=miss,
                    base=f"fields a {e.card.type or 'card'} must print",
                ),
                e,
            )
        )
    return out


# why a missing field matters, said where the deck check names it
FIELD_WHY = {
    "subtype": N_("Effects choose their targets by it"),
    "cost": N_("it is paid by discarding that many cards"),
    "paths": N_("a troop is recruited and moves only where it shares a path"),
    "speed": N_("how many Terrains it crosses in a turn"),
    "power": N_("it cannot fight without one"),
    "target": N_("an Event is cast only upon a valid Target"),
    "duration": N_("how long the Event lasts"),
    "abilities": N_("an Effect always has abilities"),
    "limit": "how many troops may station on it",
}


def recruit_terrains(deck: Deck, catalog: Catalog) -> list:
    return [e.card for e in deck.known() if e.card.type == "terrain" and has_ability(e.card, "Recruit", catalog)]


def recruitable(deck: Deck, catalog: Catalog) -> tuple[set[str], set[str]]:
    """Names of the deck's troops that can be recruited, and the paths open to recruiting.

    A Troop is recruited on a Terrain with Recruit, or on the Terrain where an ally Unit
    with Recruit stands (000:53), and only on a Terrain it shares a path with (000:73).
    A Recruit troop opens the terrains it can stand on only once it can itself be
    recruited, so the answer is a fixed point: start from the Recruit terrains (the
    Capital included) and add the terrains each newly recruitable Recruit troop can
    reach until nothing changes.
    """
    terrains = [e.card for e in deck.known() if e.card.type == "terrain" and e.card.paths]
    troops = [e.card for e in deck.known() if e.card.type == "troop" and e.card.paths]
    open_paths = {p for t in recruit_terrains(deck, catalog) for p in (t.paths or [])}
    done: set[str] = set()
    changed = True
    while changed:
        changed = False
        for c in troops:
            if c.name in done or not set(c.paths) & open_paths:
                continue
            done.add(c.name)
            changed = True
            if has_ability(c, "Recruit", catalog):  # it may stand on any terrain it shares a path with
                for t in terrains:
                    if set(t.paths) & set(c.paths):
                        open_paths |= set(t.paths)
    return done, open_paths


def check_recruitable(deck: Deck, catalog: Catalog) -> list[Finding]:
    """Troops no Recruit terrain of the deck (the Capital included) nor recruitable Recruit troop opens."""
    terrains = recruit_terrains(deck, catalog)
    done, open_paths = recruitable(deck, catalog)
    out = []
    for e in deck.known():
        c = e.card
        if c.type != "troop" or not c.paths or c.name in done:
            continue
        where = ", ".join(sorted(f"{t.name} [{'/'.join(t.paths or [])}]" for t in terrains)) or L_("none")
        out.append(
            _at(
                warning(
                    "senshiai.unrecruitable",
                    L_(
                        "'{name}' (paths {paths}) can never be recruited: no Recruit terrain of the deck shares a "
                        "path with it (Recruit terrains: {where})",
                        name=c.name,
                        paths="/".join(c.paths),
                        where=where,
                    ),
                    loc=e.loc,
                    source=SRC_RECRUIT,
                    value=list(c.paths),
                    bound=sorted(open_paths),
                    base="paths of the deck's Recruit terrains",
                ),
                e,
            )
        )
    return out


def check_event_targets(deck: Deck, catalog: Catalog) -> list[Finding]:
    """Events whose Target no other card of the deck can be.

    A second copy of the same card counts: an Event may be cast on a Target already
    in-game (000:167), so one copy of an Event that targets Events can target the other.
    """
    out = []
    for e in deck.known():
        c = e.card
        if c.type != "event" or not c.target:
            continue
        if target_always_possible(c.target, catalog):
            continue
        if any(
            can_target(c.target, other.card, catalog)
            for other in deck.known()
            if other.card is not c or other.count > 1
        ):
            continue
        out.append(
            _at(
                warning(
                    "senshiai.event-no-target",
                    (
                        L_(
                            "'{name}' targets an {target} but no other card of this deck can be one; it can only be "
                            "cast on an opponent's cards",
                            name=c.name,
                            target=c.target,
                        )
                        if _article(c.target) == "an"
                        else L_(
                            "'{name}' targets a {target} but no other card of this deck can be one; it can only be "
                            "cast on an opponent's cards",
                            name=c.name,
                            target=c.target,
                        )
                    ),
                    loc=e.loc,
                    source=SRC_TARGET,
                    value=c.target,
                ),
                e,
            )
        )
    return out


def cost_curve(deck: Deck) -> dict[str, int]:
    """Cards per cost, N to V (unknown costs under '?')."""
    curve = {r: 0 for r in ROMAN}
    for e in deck.known():
        key = cost_label(e.card.cost)
        curve[key] = curve.get(key, 0) + e.count
    return curve


def summary(deck: Deck, catalog: Catalog, rules: HouseRules) -> dict:
    capitals = [e for e in deck.known() if e.card.is_capital()]
    # one Capital by its catalog name; several as the player wrote them (a name and its alias differ)
    caps = [e.card.name for e in capitals] if len(capitals) == 1 else sorted(e.name for e in capitals)
    types: dict[str, int] = {}
    for e in deck.known():
        key = e.card.type or "unknown"
        types[key] = types.get(key, 0) + e.count
    out: dict = {"cards": deck.total()}
    if deck.size is not None:
        out["size"] = deck.size
    out["max_cards"] = int(rules.get("max_deck_cards", catalog.model.deck_rules.max_cards))
    if caps:
        out["capital"] = caps[0] if len(caps) == 1 else caps
    for t in (*CARD_TYPES, "unknown"):
        if types.get(t):
            out[t + "s" if t != "unknown" else "unknown_type"] = types[t]
    out["curve"] = " ".join(f"{k}:{v}" for k, v in cost_curve(deck).items())
    return out


__all__ = [
    "PATHS",
    "TRAITS",
    "Deck",
    "DeckEntry",
    "Power",
    "PowerMod",
    "can_recruit_on",
    "can_target",
    "capital_waste",
    "card_abilities",
    "check",
    "cost_curve",
    "has_ability",
    "is_destroyed",
    "load_list",
    "missing_fields",
    "modified_power",
    "modified_trait",
    "net_modifiers",
    "required_fields",
    "singularity",
    "summary",
]


def limits(deck: Deck, catalog: Catalog, rules: HouseRules) -> list[dict]:
    """The deck's cards (those the catalog knows) against the most a deck may hold and the agreed size."""
    total = sum(e.count for e in deck.entries if e.card is not None)
    most = int(rules.get("max_deck_cards", catalog.model.deck_rules.max_cards))
    rows = [limit(L_("cards in the deck"), "max", total, most, "cards", SRC_DECK)]
    if deck.size is not None:
        rows.append(limit(L_("cards against the agreed size"), "max", total, deck.size, "cards", SRC_DECK))
    return rows


def hand_size(catalog: Catalog) -> tuple[int, str]:
    """Cards in a full hand (the Draw Stage draws up to it) and where the rulebook says so."""
    return int(catalog.model.deck_rules.hand_size or 6), f"{SEED}:27"


# -- finding codes ---------------------------------------------------------------------------------

FINDING_CODES = codes(
    "senshiai",
    {
        "unknown-card": ("error", N_("a card the catalog and the list's packs do not know")),
        "capital-count": ("error", N_("a deck holds exactly one Capital"), SRC_CAPITAL),
        "capital-cost": (
            "warning",
            N_("a Capital with a cost other than nulla (the Basic Collection's cost nulla)"),
            f"{SEED}:66",
        ),
        "deck-size": ("error", N_("the deck does not hold the agreed number of cards"), SRC_DECK),
        "deck-max": ("error", N_("the deck (or its agreed size) is over the most a deck may hold"), SRC_DECK),
        "card-fields": ("warning", N_("a card lacks fields its type must print (named in the message)"), f"{SEED}:49"),
        "unrecruitable": ("warning", N_("a troop no Recruit terrain of the deck can recruit"), SRC_RECRUIT),
        "event-no-target": ("warning", N_("an event whose target no card of the deck can be"), SRC_TARGET),
    },
)
