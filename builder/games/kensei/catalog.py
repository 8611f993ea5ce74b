"""Kensei catalog models (the merge of ``catalog/kensei/*.yaml``).

What the army-list checks read, and where it lives:

* ``clans``            -- Clan entries (ids: buke, kuge, sohei, otokodate, kuroi-te,
  hattori). ``army_building`` holds the clan's special army-building rules as
  text; the structured form of those overrides is in ``army_building.clan_overrides``.
* ``commander_levels`` -- hatamoto / taisho / daimyo with ``cost`` (AP),
  ``strategy_bonus``, ``extra_command_cards``, ``scenery_elements``.
* ``battle_sizes``     -- vanguard 200 / battle 400 / pitched-battle 600 (``max_ap``).
* ``troop_classes``    -- H, E, W, P, K, O, C, M, I (the entry ``id`` is the letter).
  ``lead_order`` ranks the classes that can lead or be led (H 4, E 3, W 2, P 1;
  None = cannot lead a unit nor be led).
* ``titles``, ``troop_types``, ``volumes``, ``weapon_types``, ``weapons``, ``armour``.
  A weapon is ranged when ``ranged`` is true, a firearm when ``firearm`` is true.
* ``abilities``        -- the 123 abilities of the appendix with their text.
* ``troops``           -- every troop the rulebook names. Per model ``cost`` (AP) or
  None when the book does not give it. See :class:`Troop` for the fields.
* ``sample_lists``     -- the five 200 AP sample lists, reconstructed where garbled.
* ``command_cards``    -- the command deck (value, count, suit; counts total 24).
* ``army_building``    -- all numeric army-building constants (:class:`ArmyBuilding`):
  leader/unit table, percentage limits (each naming the house rule that may
  change it), unit sizes, profile limits, clan overrides, peasant purchase rule.
* ``house_rules``      -- contradictions as parameters (``catalog/kensei/house_rules.yaml``).
* ``restrictions``     -- declarative restrictions (owned by the restriction engine).

Everything the book does not state is ``None`` (unknown), never invented; entries
that infer something carry ``assumed:``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import ValidationInfo, field_validator, model_serializer, model_validator

from builder.catalog.base import BaseCatalog, Entry, Sourced, Strict
from builder.catalog.restrictions import Restriction, check_restrictions
from builder.names import did_you_mean

# The vocabulary a restriction (catalog/kensei/restrictions.yaml or a pack) may use:
# troop facts in ``of`` selectors, list facts in ``when``/``unless``, and the list's
# numeric values for bases and ``plus`` (the checks in builder.games.kensei.rules compute them).
RESTRICTION_FACTS = frozenset(
    {
        "troop",
        "name",
        "class",
        "type",
        "size_class",
        "titles",
        "weapons",
        "ranged",
        "firearm",
        "melee",
        "leader",
        "general",
        "unique",
        "legendary",
        "single",
        "unit",
        "living",
        "common",
        "clans",
        "list_section",
        "realm",
        "creature",
        "spiritual",
        "cost",
        "volume",
        "standard",
        "led",
        "warrior",
        "exempt",
        "exempt_min",
        "own_unit_min",
        "own_unit_max",
    }
)
RESTRICTION_CONTEXT_FACTS = frozenset({"clan", "occult", "commander", "limit"})
RESTRICTION_CONTEXT_VALUES = frozenset(
    {"limit", "size", "percent_base", "spent", "troops_points", "commander_cost", "ranged_points"}
)

TROOP_TYPES = ("infantry", "mounted", "skirmisher", "spiritual", "creature")
CLASS_CODES = ("H", "E", "W", "P", "K", "O", "C", "M", "I")


# -- small value objects ----------------------------------------------------------------

PROVENANCE = ("source", "assumed", "notes")


def _provenance_last(data: dict, drop_none: bool) -> dict:
    if drop_none:
        data = {k: v for k, v in data.items() if v is not None}
    tail = {k: data.pop(k) for k in PROVENANCE if k in data}
    return {**data, **tail}


class Noted(Sourced):
    """A sourced value object with optional ``notes``; dumps without unknown (None) values."""

    notes: str | None = None

    @model_serializer(mode="wrap")
    def _compact(self, handler):
        return _provenance_last(handler(self), drop_none=True)


class KenseiEntry(Entry):
    """An entry whose dump lists its own fields first and source/assumed/notes last."""

    @model_serializer(mode="wrap")
    def _ordered(self, handler):
        return _provenance_last(handler(self), drop_none=False)


class SourcedText(Noted):
    """A rule quoted (ligatures restored) from the rulebook."""

    name: str | None = None
    text: str


class Profile(Strict):
    """A stat line. Every field may be absent: the book's profile tables were images.

    ``mov``/``mov_alt``: movement in cm (on foot / mounted, or walking / flying for
    creatures); ``at``/``at_ranged``: melee / shooting dice; ``ini`` initiative;
    ``ho`` honour (``pr`` presence for creatures); ``wo`` wounds; ``ki`` Ki cost to
    invoke (creatures).
    """

    mov: int | None = None
    mov_alt: int | None = None
    at: int | None = None
    at_ranged: int | None = None
    ini: int | None = None
    ho: int | None = None
    pr: int | None = None
    wo: int | None = None
    ki: int | None = None

    @model_serializer(mode="wrap")
    def _drop_unknown(self, handler):
        """Only the values the profile gives (None = unknown is left out)."""
        return {k: v for k, v in handler(self).items() if v is not None}


class Purchase(Strict):
    """A bulk purchase rule: ``models`` miniatures for every ``points`` AP (peasants 2 per 5)."""

    models: int
    points: float
    house_rule: str | None = None  # the house rule that chooses this reading


class Companion(Strict):
    """Models that always come with a troop (an Onmyouji's two Shikigami)."""

    troop: str
    count: int


# -- entry sections ------------------------------------------------------------------------


class Clan(KenseiEntry):
    """A playable clan. ``army_building`` quotes its army-building exceptions."""

    playable: bool = True
    living: bool | None = None  # False: the army takes no living troops (Kuroi-te)
    description: str | None = None
    army_building: list[SourcedText] = []
    special_actions: list[SourcedText] = []


class CommanderLevel(KenseiEntry):
    cost: int  # AP added to the cost of the troops
    strategy_bonus: int
    extra_command_cards: int = 0  # drawn in maintenance; the hand size does not grow
    scenery_elements: int | None = None
    effects: str


class BattleSize(KenseiEntry):
    max_ap: int  # "Up to N army points"
    description: str | None = None


class TroopClass(KenseiEntry):
    """A troop class; ``id`` is its letter (H, E, W, P, K, O, C, M, I)."""

    order: int  # position in the book's list (1 = H)
    lead_order: int | None = None  # H 4 > E 3 > W 2 > P 1; None: cannot lead nor be led
    can_be_general: bool = False  # only heroes (H) may be the army general
    creature: bool = False
    spiritual: bool = False
    profile: Profile | None = None  # class attributes where the book gives them
    description: str | None = None


class Title(KenseiEntry):
    """A troop title (Samurai, Ashigaru, Ninja, ...). ``grants`` names abilities it gives (PA)."""

    grants: list[str] = []
    living: bool | None = None  # undead, spectres and creatures are not living
    creature: bool = False
    text: str | None = None


class TroopType(KenseiEntry):
    """infantry, mounted, skirmisher, spiritual, creature."""

    formation: Literal["closed", "open", "single", "varies"] | None = None
    max_unit_size_key: str | None = None  # key into army_building.unit_size.max
    description: str | None = None


class Volume(KenseiEntry):
    value: int  # 1..4
    height_cm: float
    description: str


class WeaponType(KenseiEntry):
    """A weapon category: melee Type 0-7, or the ranged bands short / mid / long."""

    kind: Literal["melee", "ranged"]
    number: int | None = None  # melee type number 0..7
    range_cm: int | None = None  # ranged: the band's upper limit
    modifiers: str | None = None


class Weapon(KenseiEntry):
    """A weapon. ``ranged`` and ``firearm`` are what the percentage limits look up."""

    weapon_type: str  # id of a weapon_types entry
    ranged: bool = False
    firearm: bool = False


class Armour(KenseiEntry):
    modifier: int  # to the enemy's Damage Roll
    text: str


class Ability(KenseiEntry):
    """One of the 123 abilities of the appendix (L6821-7389).

    ``text`` is the rule, cleaned of obvious extraction artefacts (listed in
    ``notes``). ``kind`` is PA/Ki where the book states it elsewhere (the
    appendix marks neither); ``template`` marks "Hatred of." which takes an object.
    """

    text: str
    kind: Literal["PA", "Ki"] | None = None
    template: bool = False


class Troop(KenseiEntry):
    """A troop profile as far as the rulebook gives it.

    Fields the checks use:

    * ``clans``: clan ids whose list may take it; ``any`` = any clan, ``common`` =
      the appendix's Common Troops (subject to the clan overrides: Kuroi-te no
      living troops, Hattori no common troops); ``list_section`` names the appendix
      list the troop belongs to (a clan id, common, spiritual, hell-creatures...).
    * ``cost``: AP per model (None = not in the book); ``purchase`` for bulk rules.
    * ``troop_class`` (H..I), ``leader`` (army-leader rank), ``general`` (may be the
      army general: a hero with leader rank), ``unique``/``legendary``.
    * ``troop_type`` (infantry/mounted/skirmisher/spiritual/creature), ``titles``,
      ``volume``, ``weapons`` (ids; look up ``ranged``/``firearm`` in ``weapons``),
      ``armour``, ``abilities`` / ``ki_abilities`` (names in ``abilities``).
    * ``living`` (False for undead, spectres, creatures), ``common`` (a Common
      Troops profile, barred from Hattori armies), ``realm`` for creatures.
    * ``single``: fielded as one model, not as a unit (leaders, unique creatures,
      spiritual troops); ``unit_min``/``unit_max`` override the unit-size limits.
    * ``companions``: models that come with it (Onmyouji: 2 Shikigami).
    * ``profile``: the stat line (None: not in the rulebook; example packs add one).
    """

    clans: list[str] = []
    list_section: str | None = None
    cost: float | None = None
    purchase: Purchase | None = None
    troop_class: str | None = None
    leader: bool | None = None
    general: bool | None = None
    unique: bool | None = None
    legendary: bool | None = None
    troop_type: str | None = None
    titles: list[str] = []
    volume: int | None = None
    weapons: list[str] = []
    armour: list[str] = []
    mount: str | None = None
    abilities: list[str] = []
    ki_abilities: list[str] = []
    living: bool | None = None
    common: bool | None = None
    realm: str | None = None
    single: bool | None = None
    unit_min: int | None = None
    unit_max: int | None = None
    companions: list[Companion] = []
    profile: Profile | None = None

    @field_validator("troop_type")
    @classmethod
    def _type_ok(cls, v: Any) -> Any:
        if v is not None and v not in TROOP_TYPES:
            say = {
                "cavalry": "mounted",
                "skirmishers": "skirmisher",
                "creatures": "creature",
                "spiritual troops": "spiritual",
            }.get(str(v).lower())
            raise ValueError(
                f"troop_type '{v}' is not one of {', '.join(TROOP_TYPES)}" + (f" (write '{say}')" if say else "")
            )
        return v

    @field_validator("cost")
    @classmethod
    def _cost_ok(cls, v: Any) -> Any:
        if v is not None and v < 0:
            raise ValueError(f"cost {v:g} is negative")
        return int(v) if v is not None and float(v).is_integer() else v  # 5, not 5.0

    @field_validator("unit_min", "unit_max")
    @classmethod
    def _size_ok(cls, v: Any, info: ValidationInfo) -> Any:
        if v is not None and v < 1:
            raise ValueError(f"a unit holds at least 1 model, not {v}")
        low = info.data.get("unit_min") if info.field_name == "unit_max" else None
        if v is not None and low is not None and low > v:
            raise ValueError(f"unit_max {v} is less than unit_min {low}")
        return v


class SampleItem(Noted):
    """One row of a sample list. ``points`` is the whole unit's cost (UNIT POINTS)."""

    troop: str
    models: int
    points: int
    printed_points: int | None = None  # what the garbled table prints, when different


class SampleList(KenseiEntry):
    """One of the five 200 AP sample lists (L6115-6248)."""

    clan: str
    battle_size: int
    commander_level: str
    commander_level_printed: bool
    troops: list[SampleItem]
    total: int  # the TOTAL POINTS the book prints


class CommandCard(KenseiEntry):
    """A kind of command card: ``count`` copies of ``value`` (a normal deck's ``suit``)."""

    value: int
    count: int
    suit: str | None = None


# -- army building constants ------------------------------------------------------------------


class TableRow(Strict):
    """Leader and unit table row (L6061-6113)."""

    ap: int
    leaders_min: int
    leaders_max: int
    units_min: int
    units_max: int


class Formula(Noted):
    """A formula the text states; ``per_ap``: one per this many AP."""

    min_per_ap: int | None = None
    max_per_ap: int | None = None
    min: int | None = None
    text: str


class LeadersAndUnits(Noted):
    table: list[TableRow]
    leaders_formula: Formula
    units_formula: Formula
    house_rules: list[str] = []  # ids of the house rules choosing between table and formula


class PercentLimit(Noted):
    """A type limit: ``kind`` min|max, ``percent`` of the battle size.

    ``category`` names what is counted: melee_infantry_warriors, ranged, firearms,
    cavalry, skirmishers, creatures. ``house_rule`` is the id of the house rule whose
    value replaces ``percent`` when agreed (None: fixed). ``examples`` are the
    book's worked figures {battle size AP: AP}.
    """

    id: str
    category: str
    kind: Literal["min", "max"]
    percent: float
    house_rule: str | None = None
    within: str | None = None  # a sub-cap of another limit (firearms within ranged)
    examples: dict[int, float] = {}
    text: str


class UnitSize(Noted):
    """At least ``min`` models; at most ``max[key]`` by troop type (infantry/skirmisher/other)."""

    min: int
    max: dict[str, int]
    house_rule: str | None = None


class ProfileLimits(Noted):
    """At most ``max_units_per_profile`` units of one profile; elite profiles by size."""

    max_units_per_profile: int
    elite: list[dict[str, int]]  # [{from_ap, to_ap, max}]
    unique_max_models: int = 1
    house_rule: str | None = None


class ClanOverride(Noted):
    """A clan's army-building exception as data.

    ``rule`` is one of: ``limit`` (replace ``limit``'s percent with ``percent``),
    ``no_living_troops``, ``no_common_troops``, ``melee_minimum_counts`` (also counts
    ``counts``: inferior_creatures, ranged_warriors), ``spiritual_only`` (``allowed``
    troop ids; ``forbidden`` ids).
    """

    clan: str
    rule: Literal["limit", "no_living_troops", "no_common_troops", "melee_minimum_counts", "spiritual_only"]
    limit: str | None = None
    percent: float | None = None
    counts: list[str] = []
    allowed: list[str] = []
    forbidden: list[str] = []
    text: str


class SpiritualRules(Noted):
    max_spiritual: int
    exclusive: list[str]  # the troop kinds of which only one may be taken
    onmyouji_companions: int
    requires_advanced_rules: bool
    text: str


class ArmyBuilding(Strict):
    """Every numeric constant of army building (L5753-6113)."""

    total: SourcedText  # troops + commander level <= battle size
    percent_base: str  # "battle_size"; the house rule percent_base may change it
    leaders_and_units: LeadersAndUnits
    general: SourcedText
    leaders_exempt: SourcedText  # leaders do not count toward type limits
    limits: list[PercentLimit]
    unit_size: UnitSize
    profile_limits: ProfileLimits
    peasants: Purchase
    peasants_source: str
    hata_jurushi_per_unit: int
    hata_jurushi_source: str
    spiritual: SpiritualRules
    clan_overrides: list[ClanOverride]
    hand_sizes: list[dict[str, int]]  # [{from_ap, to_ap (optional), hand}]
    hand_sizes_source: str

    @model_validator(mode="after")
    def _limit_ids_unique(self) -> Any:
        seen = set()
        for lim in self.limits:
            if lim.id in seen:
                raise ValueError(f"limit id '{lim.id}' appears twice")
            seen.add(lim.id)
        return self

    def limit(self, limit_id: str) -> PercentLimit | None:
        return next((x for x in self.limits if x.id == limit_id), None)


class KenseiCatalog(BaseCatalog):
    clans: list[Clan] = []
    commander_levels: list[CommanderLevel] = []
    battle_sizes: list[BattleSize] = []
    troop_classes: list[TroopClass] = []
    titles: list[Title] = []
    troop_types: list[TroopType] = []
    volumes: list[Volume] = []
    weapon_types: list[WeaponType] = []
    weapons: list[Weapon] = []
    armour: list[Armour] = []
    abilities: list[Ability] = []
    troops: list[Troop] = []
    sample_lists: list[SampleList] = []
    command_cards: list[CommandCard] = []
    army_building: ArmyBuilding | None = None
    restrictions: list[Restriction] = []


CATALOG_MODEL = KenseiCatalog


# The appendix lists a troop may belong to (L6737-6819), plus the clan ids.
LIST_SECTIONS = ("common", "spiritual", "hell-creatures", "celestial-creatures", "earthly-creatures", "death-creatures")


def cross_check(catalog: Any) -> list:
    """Every name an entry uses must exist: one diagnostic per bad reference.

    Checks troops (clans, class, type, titles, volume, weapons, armour, abilities,
    companions, house rules), titles (granted abilities), weapons (weapon type),
    sample lists (clan, commander level, troops, unit points and totals), and the
    army-building data (house-rule ids, clans, limits, troops).
    """
    m = catalog.model
    refs = _Refs(catalog, [], {h.id for h in m.house_rules})
    _check_troops(refs, m)
    _check_titles_and_weapons(refs, m)
    _check_sample_lists(refs, m)
    if m.army_building is not None:
        _check_army_building(refs, m)
    # restrictions may name only facts, list facts, values and house rules the checks know
    for i, fld, msg in check_restrictions(
        list(m.restrictions), RESTRICTION_FACTS, RESTRICTION_CONTEXT_FACTS, RESTRICTION_CONTEXT_VALUES, refs.rules
    ):
        refs.out.append(catalog.diag(("restrictions", i, fld), f"restriction '{m.restrictions[i].id}': {msg}"))
    return refs.out


@dataclass
class _Refs:
    """The catalog being checked, the diagnostics found so far (``out``) and its house-rule ids."""

    catalog: Any
    out: list[Any]
    rules: set[str]

    def ref(self, section: str, name: Any, path: tuple, owner: str, kind: str, extra: Any = ()) -> Any:
        """Find ``name`` in ``section``; otherwise "<owner> unknown <kind> 'name'" at ``path``."""
        catalog = self.catalog
        if not isinstance(name, str) or name in extra:
            return None
        hit = catalog.find(section, name)
        if hit is None:
            hint = catalog.did_you_mean(section, name)
            if not hint:
                known = [
                    e.id if section in ("troop_classes", "clans", "commander_levels", "troop_types") else e.name
                    for e in catalog.entries(section)
                ] + list(extra)
                hint = (
                    ("known: " + ", ".join(known))
                    if len(known) <= 12
                    else f"see 'daimyo catalog list kensei {section}'"
                )
            self.out.append(catalog.diag(path, f"{owner} unknown {kind} '{name}'", hint=hint))
        return hit

    def rule(self, rid: Any, path: tuple, owner: str) -> None:
        """A house rule named at ``path`` must be one of the catalog's."""
        if rid is not None and rid not in self.rules:
            self.out.append(
                self.catalog.diag(
                    path,
                    f"{owner} names unknown house rule '{rid}'",
                    hint=did_you_mean(rid, sorted(self.rules)) or "see 'daimyo rules kensei'",
                )
            )


def _check_troops(refs: _Refs, m: Any) -> None:
    """Each troop's clans, army list, class, type, volume, titles, gear, abilities, companions,
    purchase rule, and whether its class may be the general."""
    catalog, out, ref, rule = refs.catalog, refs.out, refs.ref, refs.rule
    volumes = {v.value for v in m.volumes}
    clan_ids = [c.id for c in m.clans]
    for i, t in enumerate(m.troops):
        at: tuple[str | int, ...] = ("troops", i)
        for j, c in enumerate(t.clans):
            ref("clans", c, at + ("clans", j), f"troop '{t.name}' names", "clan", extra=("any", "common"))
        if (
            t.list_section is not None
            and t.list_section not in LIST_SECTIONS
            and catalog.find("clans", t.list_section) is None
        ):
            known = list(LIST_SECTIONS) + clan_ids
            out.append(
                catalog.diag(
                    at + ("list_section",),
                    f"troop '{t.name}' names list '{t.list_section}', which is no army list",
                    hint=did_you_mean(t.list_section, known) or "lists: " + ", ".join(known),
                )
            )
        if t.troop_class is not None:
            ref("troop_classes", t.troop_class, at + ("troop_class",), f"troop '{t.name}' has", "class")
        if t.troop_type is not None:
            ref("troop_types", t.troop_type, at + ("troop_type",), f"troop '{t.name}' has", "troop type")
        if t.volume is not None and volumes and t.volume not in volumes:
            out.append(
                catalog.diag(
                    at + ("volume",),
                    f"troop '{t.name}' has volume {t.volume}, not one of " + ", ".join(map(str, sorted(volumes))),
                )
            )
        for j, x in enumerate(t.titles):
            ref("titles", x, at + ("titles", j), f"troop '{t.name}' has", "title")
        for j, x in enumerate(t.weapons):
            ref("weapons", x, at + ("weapons", j), f"troop '{t.name}' carries", "weapon")
        for j, x in enumerate(t.armour):
            ref("armour", x, at + ("armour", j), f"troop '{t.name}' wears", "armour")
        for field in ("abilities", "ki_abilities"):
            for j, x in enumerate(getattr(t, field)):
                ref("abilities", x, at + (field, j), f"troop '{t.name}' has", "ability")
        for j, comp in enumerate(t.companions):
            ref("troops", comp.troop, at + ("companions", j, "troop"), f"troop '{t.name}' comes with", "troop")
        if t.purchase is not None:
            rule(t.purchase.house_rule, at + ("purchase", "house_rule"), f"troop '{t.name}' purchase")
        general_classes = [c.id for c in m.troop_classes if c.can_be_general] or ["H"]
        if t.general and t.troop_class is not None and t.troop_class not in general_classes:
            out.append(
                catalog.diag(
                    at + ("general",),
                    f"troop '{t.name}' is class {t.troop_class}; only class{'es' * (len(general_classes) > 1)} "
                    f"{', '.join(general_classes)} can be the army general (troop_classes: can_be_general; L1741-1744)",
                )
            )


def _check_titles_and_weapons(refs: _Refs, m: Any) -> None:
    """The abilities each title grants, and each weapon's type (ranged as its type, a firearm ranged)."""
    catalog, out, ref = refs.catalog, refs.out, refs.ref
    for i, t in enumerate(m.titles):
        for j, x in enumerate(t.grants):
            ref("abilities", x, ("titles", i, "grants", j), f"title '{t.name}' grants", "ability")
    for i, w in enumerate(m.weapons):
        wt = ref("weapon_types", w.weapon_type, ("weapons", i, "weapon_type"), f"weapon '{w.name}' has", "weapon type")
        if wt is not None and (wt.kind == "ranged") != w.ranged:
            out.append(
                catalog.diag(
                    ("weapons", i, "ranged"),
                    f"weapon '{w.name}' is of {wt.kind} type '{wt.name}' but ranged is {w.ranged}",
                )
            )
        if w.firearm and not w.ranged:
            out.append(catalog.diag(("weapons", i, "firearm"), f"weapon '{w.name}' is a firearm but not ranged"))


def _check_sample_lists(refs: _Refs, m: Any) -> None:
    """The rulebook's sample lists: their clan, commander level and troops, each unit's points
    and each list's total."""
    catalog, out, ref = refs.catalog, refs.out, refs.ref
    for i, sl in enumerate(m.sample_lists):
        at = ("sample_lists", i)
        ref("clans", sl.clan, at + ("clan",), f"sample list '{sl.name}' names", "clan")
        level = ref(
            "commander_levels",
            sl.commander_level,
            at + ("commander_level",),
            f"sample list '{sl.name}' names",
            "commander level",
        )
        level_cost = level.cost if level is not None else 0
        total = level_cost
        for j, item in enumerate(sl.troops):
            total += item.points
            troop = ref("troops", item.troop, at + ("troops", j, "troop"), f"sample list '{sl.name}' names", "troop")
            changed = troop is not None and ("troops", troop.id) in getattr(catalog, "from_pack", {})
            if (
                troop is not None and troop.cost is not None and troop.cost * item.models != item.points and not changed
            ):  # a pack may change a cost: the rulebook's samples keep theirs
                out.append(
                    catalog.diag(
                        at + ("troops", j, "points"),
                        f"{item.models} x {troop.name} at {troop.cost:g} AP = "
                        f"{troop.cost * item.models:g} AP, not {item.points}",
                        code="catalog.value",
                    )
                )
        if total != sl.total:
            out.append(
                catalog.diag(
                    at + ("total",),
                    f"sample list '{sl.name}' adds up to {total} AP "
                    f"(troops {total - level_cost} + commander level {level_cost}), "
                    f"not its total {sl.total}",
                    code="catalog.value",
                )
            )


def _check_army_building(refs: _Refs, m: Any) -> None:
    """The army-building data: its house rules, limits, unit sizes and clan overrides."""
    catalog, out, ref, rule = refs.catalog, refs.out, refs.ref, refs.rule
    ab = m.army_building
    at = ("army_building",)
    for j, rid in enumerate(ab.leaders_and_units.house_rules):
        rule(rid, at + ("leaders_and_units", "house_rules", j), "army_building.leaders_and_units")
    limit_ids = [x.id for x in ab.limits]
    for j, lim in enumerate(ab.limits):
        rule(lim.house_rule, at + ("limits", j, "house_rule"), f"limit '{lim.id}'")
        if lim.within is not None and lim.within not in limit_ids:
            out.append(
                catalog.diag(
                    at + ("limits", j, "within"),
                    f"limit '{lim.id}' is within unknown limit '{lim.within}'",
                    hint=did_you_mean(lim.within, limit_ids) or None,
                )
            )
    rule(ab.unit_size.house_rule, at + ("unit_size", "house_rule"), "army_building.unit_size")
    rule(ab.profile_limits.house_rule, at + ("profile_limits", "house_rule"), "army_building.profile_limits")
    rule(ab.peasants.house_rule, at + ("peasants", "house_rule"), "army_building.peasants")
    for t in m.troop_types:
        key = t.max_unit_size_key
        if key is not None and key not in ab.unit_size.max:
            out.append(
                catalog.diag(
                    at + ("unit_size", "max"),
                    f"troop type '{t.name}' uses unit size '{key}', which army_building.unit_size.max does not give",
                )
            )
    for j, ov in enumerate(ab.clan_overrides):
        p = at + ("clan_overrides", j)
        ref("clans", ov.clan, p + ("clan",), "clan override names", "clan")
        if ov.limit is not None and ov.limit not in limit_ids:
            out.append(
                catalog.diag(
                    p + ("limit",),
                    f"clan override for '{ov.clan}' names unknown limit '{ov.limit}'",
                    hint=did_you_mean(ov.limit, limit_ids) or None,
                )
            )
        if ov.rule == "limit" and (ov.limit is None or ov.percent is None):
            out.append(catalog.diag(p + ("rule",), "a 'limit' override needs 'limit:' and 'percent:'"))
        for field in ("allowed", "forbidden"):
            for k, x in enumerate(getattr(ov, field)):
                ref("troops", x, p + (field, k), "clan override names", "troop")
