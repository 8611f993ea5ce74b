"""Kensei army lists: loading, the rules core, the checks and the summary.

The declarative rules (percentages, counts, unit sizes, clan overrides) are the
``restrictions`` of ``catalog/kensei/restrictions.yaml`` evaluated by
``builder.rules.engine``. What cannot be said that way is checked here in Python
and produces the same kind of finding: the army general, unit leaders
(``led_by``), the Hata-Jurushi, the Onmyouji's Shikigami, peasants bought in
pairs, troop costs missing from the catalog, unknown names.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from builder import state
from builder.errors import ListError
from builder.findings import Finding, codes
from builder.i18n import L_, N_, Text
from builder.names import did_you_mean, normalize
from builder.paths import origin_text
from builder.rules.compiled import ruleset
from builder.rules.engine import (
    Context,
    Item,
    Unknown,
    active_restrictions,
    catalog_text,
    evaluate,
    exact_number,
    fmt_num,
    limit_report,
    matching,
    measure_exact,
    plain,
)
from builder.rules.engine import normalize_value as _normalize

if TYPE_CHECKING:
    from builder.catalog.loader import Catalog

SEED = "001_dbcd2f61c1014419.txt"
LIST_KEYS = ("clan", "points", "commander", "occult", "general", "troops")
TROOP_KEYS = ("troop", "models", "led_by", "standard")
UNIT = "AP"
N_("AP")  # the points unit, as a message (``builder.rules.engine.catalog_text``)
# the troop types, as the findings name them
TYPE_NAMES = {
    "infantry": N_("infantry"),
    "mounted": N_("mounted"),
    "skirmisher": N_("skirmisher"),
    "spiritual": N_("spiritual"),
    "creature": N_("creature"),
}


def _type(value: Any) -> str:
    """A troop type as a finding says it (translated where it is shown)."""
    return Text(TYPE_NAMES[value]) if value in TYPE_NAMES else str(value)


# the facts and values a restriction may use: builder.games.kensei.catalog.RESTRICTION_FACTS and
# RESTRICTION_CONTEXT_FACTS / _VALUES (the catalog refuses any other when it is loaded)

SRC = {
    "general": f"{SEED}:5869-5871, {SEED}:5914-5915, {SEED}:1741-1744",
    "unit_leader": f"{SEED}:1839-1860",
    "standard": f"{SEED}:5941-5944, {SEED}:1683-1693",
    "shikigami": f"{SEED}:5946-5950, {SEED}:4933-4937",
    "peasants": f"{SEED}:5936-5939",
    "commander": f"{SEED}:5806-5853",
    "clan": f"{SEED}:5827-5831",
}


# -- the list -------------------------------------------------------------------------------


@dataclass
class TroopEntry:
    index: int
    name: str  # as written
    troop: Any  # catalog Troop or None
    models: int
    led_by: str | None = None
    standard: int = 0
    points: Fraction = Fraction(0)
    cost_known: bool = True
    # the models come with another troop (an Onmyouji's Shikigami): no cost, not a unit,
    # only their number is checked (001:4884-4891, 001:5948-5949)
    companion: bool = False
    # a Hata-Jurushi written as a troop: it belongs inside a unit (kensei.standard-outside-unit
    # says so) and is neither priced nor counted as a troop of its own
    standard_bearer: bool = False

    @property
    def loc(self) -> tuple:
        return ("troops", self.index)


@dataclass
class KenseiList:
    clan: str | None  # clan id
    clan_written: str | None
    points: int
    commander: Any  # CommanderLevel or None
    commander_written: str
    occult: bool
    general: str | None
    entries: list[TroopEntry] = field(default_factory=list)
    doc: Any = None
    # what ``check`` prepared for the rules engine (items, context, catalog, house rules), which
    # ``summary`` of the same list, catalog and house rules reuses
    prepared: tuple | None = field(default=None, repr=False, compare=False)

    @property
    def commander_cost(self) -> int:
        return int(getattr(self.commander, "cost", 0) or 0)

    @property
    def troops_points(self) -> Fraction:
        return Fraction(self._troops_exact())

    @property
    def total(self) -> Fraction:
        return Fraction(self._troops_exact() + self.commander_cost)

    def _troops_exact(self) -> Any:
        total: int | Fraction = 0
        for e in self.entries:
            total += e.points
        return exact_number(total)


def _find(catalog: Catalog, section: str, name: Any) -> Any:
    """``catalog.find`` remembered per loaded catalog (its entries never change)."""
    if not isinstance(name, str):
        return catalog.find(section, name)
    memo = ruleset(catalog).table("find")
    key = (section, name)
    try:
        return memo[key]
    except KeyError:
        pass
    hit = memo[key] = catalog.find(section, name)
    return hit


def _type_name(v: Any) -> str:
    return {
        bool: "true/false",
        int: "a whole number",
        float: "a number",
        str: "text",
        list: "a list",
        dict: "a mapping",
        type(None): "empty",
    }.get(type(v), type(v).__name__)


def _read_troop(doc: Any, i: int, t: Any, bad: Any, diags: list[Any]) -> tuple[Any, ...] | None:
    """One entry of ``troops:`` as written: ``(index, name, models, led_by, standard)``, or None
    when it is wrong (said with ``bad`` and in ``diags``)."""
    if isinstance(t, str):
        t = {"troop": t}
    if not isinstance(t, dict):
        bad(
            ("troops", i),
            L_(
                "troops[{i}] must be a mapping with 'troop:' (and 'models:'), not {type_name}",
                i=i,
                type_name=_type_name(t),
            ),
        )
        return None
    ok = True
    for k in t:
        if k not in TROOP_KEYS:
            diags.append(
                doc.positions.diag(
                    ("troops", i, k),
                    L_("unknown key '{k}' in troops[{i}]", k=k, i=i),
                    hint=did_you_mean(str(k), TROOP_KEYS) or L_("allowed: {values}", values=", ".join(TROOP_KEYS)),
                    prefer_key=True,
                )
            )
            ok = False
    name = t.get("troop")
    if "troop" not in t:
        bad(("troops", i), L_("troops[{i}] has no 'troop:' name", i=i))
        ok = False
    elif not isinstance(name, str) or not name.strip():
        bad(
            ("troops", i, "troop"),
            L_("troops[{i}].troop must be a troop name, not {type_name}", i=i, type_name=_type_name(name)),
        )
        ok = False
    models = t.get("models", 1)
    if models is None:
        models = 1
    if isinstance(models, bool) or not isinstance(models, int):
        bad(
            ("troops", i, "models"),
            L_("troops[{i}].models must be a whole number, not {models!r}", i=i, models=models),
        )
        ok = False
    elif models < 1:
        bad(
            ("troops", i, "models"),
            L_("troops[{i}].models must be at least 1, not {models}", i=i, models=models),
            L_("remove the entry instead"),
        )
        ok = False
    led_by = t.get("led_by")
    if led_by is not None and (not isinstance(led_by, str) or not led_by.strip()):
        bad(("troops", i, "led_by"), L_("troops[{i}].led_by must be the name of a leader in the list", i=i))
        ok = False
    std = t.get("standard", False)
    if std is None:
        std = False
    if isinstance(std, bool):
        std = int(std)
    elif not isinstance(std, int) or std < 0:
        bad(
            ("troops", i, "standard"),
            L_(
                "troops[{i}].standard must be true, false or a count of Hata-Jurushi (0 or more), not {std!r}",
                i=i,
                std=std,
            ),
            L_("write 'standard: true' on a unit that carries its Hata-Jurushi"),
        )
        ok = False
    if ok and isinstance(name, str):  # ok: a troop name
        return (i, name, models, led_by, std)
    return None


def load_list(doc: Any, catalog: Catalog) -> tuple[KenseiList, list[Finding]]:
    """Validate the Kensei keys of ``doc``; resolve names. Returns ``(KenseiList, findings)``.

    Wrong shapes, wrong types and unknown keys raise ListError listing every
    problem; unknown catalog names (clan, commander level, troops) are findings.
    """
    body = doc.body()
    diags: list[Any] = []
    findings: list[Finding] = []

    def bad(path: Any, msg: Any, hint: Any = None) -> None:
        diags.append(doc.positions.diag(path, msg, hint=hint, prefer_key=False))

    _unknown_keys(doc, body, diags)
    clan_written, points = _read_clan_and_points(doc, body, catalog, bad, diags)
    commander, occult, general, troops = _read_army_keys(body, bad)
    raw_entries = []
    for i, t in enumerate(troops):
        entry = _read_troop(doc, i, t, bad, diags)
        if entry is not None:
            raw_entries.append(entry)
    if diags:
        raise ListError(sorted(diags, key=lambda d: (d.line, d.col)))

    # names -> catalog entries (unknown names are findings)
    clan_id = _clan_id(catalog, clan_written, findings)
    level = _find(catalog, "commander_levels", commander)
    if level is None:
        findings.append(
            Finding(
                "error",
                "kensei.unknown-commander",
                _unknown(L_("commander level"), commander, catalog, "commander_levels"),
                loc=("commander",),
                source=SRC["commander"],
            )
        )
    lst = KenseiList(
        clan=clan_id,
        clan_written=clan_written,
        points=int(points),
        commander=level,
        commander_written=commander,
        occult=occult,
        general=general,
        doc=doc,
    )
    for i, name, models, led_by, std in raw_entries:
        troop = _find(catalog, "troops", name)
        if troop is None:
            findings.append(
                Finding(
                    "error", "kensei.unknown-troop", _unknown(L_("troop"), name, catalog, "troops"), loc=("troops", i)
                )
            )
        companion = troop is not None and troop.id in companion_ids(catalog)
        bearer = troop is not None and _is_standard_bearer(troop)
        lst.entries.append(TroopEntry(i, name, troop, models, led_by, std, companion=companion, standard_bearer=bearer))
    return lst, findings


def _unknown_keys(doc: Any, body: Any, diags: list[Any]) -> None:
    """A diagnostic for each key a Kensei list does not have."""
    for key in body:
        if key not in LIST_KEYS:
            hint = did_you_mean(str(key), LIST_KEYS + ("system", "name", "author", "notes", "packs", "house_rules"))
            diags.append(
                doc.positions.diag(
                    (key,),
                    L_("unknown key '{key}' in a kensei list", key=key),
                    hint=hint or L_("allowed: {values}", values=", ".join(LIST_KEYS)),
                    prefer_key=True,
                )
            )


def _read_clan_and_points(
    doc: Any, body: Any, catalog: Catalog, bad: Callable[..., None], diags: list[Any]
) -> tuple[Any, Any]:
    """The two required keys as written: the clan (a name) and the points (a positive whole number)."""
    # clan
    clan_written = body.get("clan")
    if "clan" not in body:
        diags.append(
            doc.positions.diag(
                (),
                L_("missing required key 'clan'"),
                hint=L_("one of {values}", values=", ".join(e.id for e in catalog.entries("clans"))),
            )
        )
    elif not isinstance(clan_written, str) or not clan_written.strip():
        bad(("clan",), L_("'clan' must be a clan name, not {type_name}", type_name=_type_name(clan_written)))
    # points
    points = body.get("points")
    if "points" not in body:
        diags.append(
            doc.positions.diag(
                (),
                L_("missing required key 'points'"),
                hint=L_("the agreed battle size in army points, e.g. points: 200"),
            )
        )
    elif (
        isinstance(points, bool)
        or not isinstance(points, (int, float))
        or (isinstance(points, float) and not points.is_integer())
    ):
        bad(
            ("points",),
            L_(
                "'points' must be a whole number of army points, not {type_name} {points!r}",
                type_name=_type_name(points),
                points=points,
            ),
            L_("e.g. points: 200"),
        )
    elif points <= 0:
        bad(("points",), L_("'points' must be positive, not {points}", points=points), L_("e.g. points: 200"))
    return clan_written, points


def _read_army_keys(body: Any, bad: Callable[..., None]) -> tuple[Any, Any, Any, list[Any]]:
    """The commander level (hatamoto when left out), occult, the general and the troops as written."""
    commander = body.get("commander", "hatamoto")
    if commander is None:
        commander = "hatamoto"
    if not isinstance(commander, str):
        bad(
            ("commander",),
            L_("'commander' must be hatamoto, taisho or daimyo, not {type_name}", type_name=_type_name(commander)),
        )
    occult = body.get("occult", False)
    if occult is None:
        occult = False
    if not isinstance(occult, bool):
        bad(("occult",), L_("'occult' must be true or false, not {occult!r}", occult=occult))
    general = body.get("general")
    if general is not None and not isinstance(general, str):
        bad(
            ("general",),
            L_("'general' must be the name of a troop in the list, not {type_name}", type_name=_type_name(general)),
        )
    troops = body.get("troops")
    if troops is None:
        troops = []
    if not isinstance(troops, list):
        bad(
            ("troops",),
            L_("'troops' must be a list of troops, not {type_name}", type_name=_type_name(troops)),
            L_("write each troop as '- troop: NAME' with 'models: N'"),
        )
        troops = []
    return commander, occult, general, troops


def _clan_id(catalog: Catalog, clan_written: Any, findings: list[Finding]) -> Any:
    """The id of the clan written (None, with a finding, when the catalog has no such clan); a
    clan that is not playable is a finding too."""
    clan = _find(catalog, "clans", clan_written)
    if clan is None:
        findings.append(
            Finding(
                "error",
                "kensei.unknown-clan",
                _unknown(L_("clan"), clan_written, catalog, "clans"),
                loc=("clan",),
                source=SRC["clan"],
            )
        )
        return None
    if not clan.playable:  # a clan a pack describes but that no army may be raised from
        playable = [c.name for c in catalog.entries("clans") if c.playable]
        findings.append(
            Finding(
                "error",
                "kensei.clan-not-playable",
                L_(
                    "clan '{clan}' is not playable (its catalog entry says playable: false); choose one of {clans}",
                    clan=clan.name,
                    clans=", ".join(playable),
                ),
                loc=("clan",),
                source=SRC["clan"],
            )
        )
    return clan.id


def _is_standard_bearer(troop: Any) -> bool:
    return "hata-jurushi" in _normalize(troop.name)


def companion_ids(catalog: Catalog) -> frozenset:
    """The ids of the troops that come with another troop (``companions``: an Onmyouji's
    Shikigami), remembered per loaded catalog."""
    memo = ruleset(catalog).table("facts")
    hit = memo.get("companion_ids")
    if hit is None:
        ids = set()
        for t in catalog.entries("troops"):
            for c in getattr(t, "companions", None) or []:
                comp = _find(catalog, "troops", c.troop)
                if comp is not None:
                    ids.add(comp.id)
        hit = memo["companion_ids"] = frozenset(ids)
    return hit


def _unknown(what: str, name: Any, catalog: Catalog, section: str) -> str:
    hint = catalog.did_you_mean(section, str(name))
    if hint:
        return L_("unknown {what} '{name}'; {hint}", what=what, name=name, hint=hint)
    return L_("unknown {what} '{name}'", what=what, name=name)


# -- profile facts ---------------------------------------------------------------------------


def _weapons_index(catalog: Catalog) -> dict:
    cache = ruleset(catalog).table("facts")
    if "weapons" not in cache:
        idx = {}
        for w in catalog.entries("weapons"):
            for k in [w.name, w.id, *w.aliases]:
                idx[normalize(k)] = w
        cache["weapons"] = idx
    return cache["weapons"]


# what a troop class is when the catalog has no entry for it (its troop_classes entries say it:
# 001:1302-1306 the classes, 001:1741-1744 a Hero leader is the general, 001:4846-4868 the
# spiritual Onmyouji and Komuso, 001:5055-5095 the creatures)
_CLASS_DEFAULTS = {"can_be_general": ("H",), "creature": ("C", "M", "I"), "spiritual": ("O", "K")}


def class_is(catalog: Catalog, cls: str | None, flag: str) -> bool:
    """What the catalog's troop class ``cls`` says of ``flag`` (can_be_general, creature,
    spiritual): a pack that changes a class changes what its troops are."""
    memo = catalog.memo("kensei.troop_classes")
    if not memo:
        memo.update({normalize(c.id): c for c in catalog.entries("troop_classes")})
    entry = memo.get(normalize(cls)) if cls else None
    if entry is None:
        return cls in _CLASS_DEFAULTS[flag]
    return bool(getattr(entry, flag))


def unit_size_key(catalog: Catalog, ttype: str) -> str:
    """Which largest unit size a troop type has (the unit size table, 001:5919-5922): its
    troop_types entry's ``max_unit_size_key`` (infantry, skirmisher, other), which a pack may change."""
    memo = catalog.memo("kensei.troop_types")
    if not memo:
        memo.update({normalize(t.id): t for t in catalog.entries("troop_types")})
    entry = memo.get(normalize(ttype))
    key = getattr(entry, "max_unit_size_key", None) if entry is not None else None
    return key or {"infantry": "infantry", "skirmisher": "skirmisher"}.get(ttype, "other")


def troop_facts(troop: Any, catalog: Catalog) -> dict:
    """What restrictions can ask about a troop profile. Unknown values are ``Unknown(field)``."""
    cache = ruleset(catalog).table("facts")
    key = ("troop", troop.id)
    if key in cache:
        return cache[key]
    cls = troop.troop_class
    ttype = troop.troop_type
    creature = class_is(catalog, cls, "creature") or ttype == "creature" if (cls or ttype) else Unknown("troop_type")
    spiritual = class_is(catalog, cls, "spiritual") or ttype == "spiritual" if (cls or ttype) else Unknown("troop_type")
    widx = _weapons_index(catalog)
    weapons = [widx.get(normalize(w)) for w in troop.weapons]
    ranged: bool | Unknown
    firearm: bool | Unknown
    melee: bool | Unknown
    if troop.weapons:
        known = [w for w in weapons if w is not None]
        if len(known) < len(weapons):
            ranged = firearm = melee = Unknown("weapons")
        else:
            ranged = any(w.ranged for w in known)
            firearm = any(w.firearm for w in known)
            melee = any(not w.ranged for w in known)
    elif creature is True or spiritual is True:
        ranged = firearm = melee = False  # creatures use no weapons (L5125-5126)
    else:
        ranged = firearm = melee = Unknown("weapons")
    leader = Unknown("leader") if troop.leader is None else troop.leader
    unique = bool(troop.unique)  # not marked unique = may be repeated (L1359-1362)
    legendary = bool(troop.legendary)
    if troop.single is not None:
        single = troop.single
    elif isinstance(leader, Unknown):
        single = Unknown("leader")
    else:
        single = leader or unique or legendary or spiritual is True
    if troop.general is not None:
        general = troop.general
    elif cls is None or isinstance(leader, Unknown):
        general = Unknown("troop_class" if cls is None else "leader")
    else:
        general = class_is(catalog, cls, "can_be_general") and leader
    if troop.living is not None:
        living = troop.living
    elif creature is True:
        living = False
    else:
        living = Unknown("living")
    if troop.common is not None:
        common = troop.common
    elif troop.list_section:
        common = normalize(troop.list_section) == "common"
    else:
        common = False
    size_class = unit_size_key(catalog, ttype) if ttype else Unknown("troop_type")
    facts = {
        "troop": normalize(troop.id),
        "name": normalize(troop.name),
        "class": normalize(cls) if cls else Unknown("troop_class"),
        "type": ttype if ttype else Unknown("troop_type"),
        "size_class": size_class,
        "titles": frozenset(normalize(t) for t in troop.titles),
        "weapons": frozenset(normalize(w) for w in troop.weapons),
        "ranged": ranged,
        "firearm": firearm,
        "melee": melee,
        "leader": leader,
        "general": general,
        "unique": unique,
        "legendary": legendary,
        "single": single,
        "unit": (not single) if not isinstance(single, Unknown) else single,
        "living": living,
        "common": common,
        "clans": frozenset(normalize(c) for c in troop.clans) if troop.clans else Unknown("clans"),
        "list_section": normalize(troop.list_section) if troop.list_section else Unknown("list_section"),
        "realm": normalize(troop.realm) if troop.realm else Unknown("realm"),
        "creature": creature,
        "spiritual": spiritual,
        "cost": troop.cost if troop.cost is not None else Unknown("cost"),
        "volume": troop.volume if troop.volume is not None else Unknown("volume"),
        # the profile sets its own unit sizes (``unit_min``/``unit_max`` of a pack): the
        # general limits leave it to _check_unit_sizes
        "own_unit_min": troop.unit_min is not None,
        "own_unit_max": troop.unit_max is not None,
    }
    cache[key] = facts
    return facts


# -- points ------------------------------------------------------------------------------------


def entry_points(e: TroopEntry, rules: dict) -> tuple[Fraction, bool]:
    """Cost of an entry and whether the cost is known."""
    t = e.troop
    if t is None:
        return Fraction(0), False
    if e.companion or e.standard_bearer:
        return Fraction(0), True  # fielded with the troop it comes with (or inside a unit), at no cost
    if t.purchase is not None:
        reading = rules.get(t.purchase.house_rule or "peasant_purchase", "pairs")
        lot_models, lot_points = t.purchase.models, Fraction(t.purchase.points).limit_denominator(1000)
        if reading != "bonus":
            return lot_points * math.ceil(e.models / lot_models), True
        if t.cost is None:
            return Fraction(0), False
        cost = Fraction(t.cost).limit_denominator(1000)
        # bonus reading: pay for p models, get lot_models free for every lot_points spent
        for paid in range(0, e.models + 1):
            if paid + lot_models * math.floor(paid * cost / lot_points) >= e.models:
                return cost * paid, True
    if t.cost is None:
        return Fraction(0), False
    return Fraction(t.cost).limit_denominator(1000) * e.models, True


def _entry_points(catalog: Catalog, e: TroopEntry, rules: dict) -> Any:
    """``entry_points`` remembered per troop, size and purchase reading; an int when integral."""
    t = e.troop
    if t is None:
        return entry_points(e, rules)
    reading = rules.get(t.purchase.house_rule or "peasant_purchase", "pairs") if t.purchase is not None else None
    memo = ruleset(catalog).table("points")
    key: tuple | None = (t.id, e.models, reading)
    try:
        hit = memo.get(key)
    except TypeError:
        hit, key = None, None
    if hit is None or hit[0] is not t:
        pts, known = entry_points(e, rules)
        hit = (t, exact_number(pts), known)
        if key is not None:
            memo[key] = hit
    return hit[1], hit[2]


# -- checks --------------------------------------------------------------------------------------


def _item_facts(
    catalog: Catalog, troop: Any, standard: bool, led: bool, warrior_classes: tuple, caps_only: bool, every: bool
) -> tuple[dict, tuple]:
    """The facts of one list entry and their key: the troop's facts plus what the entry adds.

    Entries with the same key have the same facts, so one dict is shared between them
    (the engine reads facts and never changes them).
    """
    rs = ruleset(catalog)
    memo = rs.table("item_facts")
    key = (rs.serial, troop.id, standard, led, warrior_classes, caps_only, every)
    hit = memo.get(key)
    if hit is not None and hit[0] is troop:
        return hit[1], key
    facts = dict(troop_facts(troop, catalog))
    facts["standard"] = standard
    facts["led"] = led
    leader = facts["leader"]
    cls = facts["class"]
    facts["warrior"] = cls if isinstance(cls, Unknown) else cls.upper() in warrior_classes
    if caps_only and leader is True:
        # leaders_exempt=caps_only: a leader (the Hero general too) counts toward the melee
        # minimum like a warrior when it is infantry armed for melee (the selector checks that)
        facts["warrior"] = True
    facts["exempt"] = leader
    facts["exempt_min"] = False if caps_only else leader
    if not every and facts["type"] in ("mounted", "skirmisher", "creature"):
        facts["ranged"] = facts["firearm"] = False  # one category per troop: its type first
    memo[key] = (troop, facts)
    return facts, key


def _origin(catalog: Catalog, troop: Any) -> str:
    memo = ruleset(catalog).table("origin")
    hit = memo.get(troop.id)
    if hit is None or hit[0] is not troop:
        hit = memo[troop.id] = (troop, origin_text(catalog.where("troops", troop)))
    return hit[1]


def _prepare(lst: KenseiList, catalog: Catalog, rules: dict) -> Any:
    every = rules.get("count_every_category", True) is not False
    caps_only = rules.get("leaders_exempt", "all_type_limits") == "caps_only"
    warrior_classes = ("W",) if rules.get("melee_warrior_classes") == "warrior_only" else ("W", "E")
    leader_in_size = rules.get("unit_leader_counts_toward_size") is True
    led = {}
    for e in lst.entries:
        if e.led_by and e.troop is not None:
            led[e.index] = 1
    joined = _protector_unit(lst)  # Sato is one more miniature of the unit Kogen leads
    items = []
    rs = ruleset(catalog)
    memo = rs.table("entries")
    for e in lst.entries:
        t = e.troop
        if t is None:
            continue
        if e.companion or e.standard_bearer:
            # not a unit, no cost: only the Shikigami's number is checked (_check_shikigami), and
            # a Hata-Jurushi's place (_check_standards)
            e.points, e.cost_known = Fraction(0), True
            continue
        # everything an entry's item needs but its place in the list, remembered per troop,
        # size, flags and the house rules that change them
        reading = rules.get(t.purchase.house_rule or "peasant_purchase", "pairs") if t.purchase is not None else None
        key: tuple | None = (
            t.id,
            e.models,
            e.standard > 0,
            e.led_by is not None,
            reading,
            warrior_classes,
            caps_only,
            every,
        )
        try:
            hit = memo.get(key)
        except TypeError:
            hit, key = None, None
        if hit is None or hit[0] is not t:
            points, known = _entry_points(catalog, e, rules)
            facts, fkey = _item_facts(
                catalog, t, e.standard > 0, e.led_by is not None, warrior_classes, caps_only, every
            )
            hit = (t, points, known, facts, fkey, _origin(catalog, t))
            if key is not None:
                memo[key] = hit
        _, e.points, e.cost_known, facts, fkey, origin = hit
        models = e.models + (led.get(e.index, 0) if leader_in_size else 0) + (1 if e is joined else 0)
        items.append(Item(("troops", e.index), t.name, t.id, models, e.points, facts, origin, fkey))
    ranged_points: Fraction | int | float = 0
    for i in items:
        if i.facts["ranged"] is True and i.facts["exempt"] is False:
            ranged_points += i.points
    ranged_points = exact_number(ranged_points)
    troops_points = lst._troops_exact()
    total = exact_number(troops_points + lst.commander_cost)
    level_name = getattr(lst.commander, "name", lst.commander_written)
    rounding = math.floor if rules.get("limits_between_hundreds") == "floor" else math.ceil
    size = max(100, rounding(lst.points / 100) * 100)
    spent_base = rules.get("percent_base") == "points_spent"
    size_label: str
    if size == lst.points:
        size_label = L_("the battle size")
    elif rounding is math.floor:
        size_label = L_(
            "{points} AP counts as {size} AP: the leader and unit limits go by the hundred, rounded down, "
            "house rule limits_between_hundreds",
            points=lst.points,
            size=size,
        )
    else:
        size_label = L_(
            "{points} AP counts as {size} AP: the leader and unit limits go by the hundred, rounded up, "
            "house rule limits_between_hundreds",
            points=lst.points,
            size=size,
        )
    ctx = Context(
        limit=lst.points,
        facts={
            "clan": lst.clan,
            "occult": lst.occult,
            "commander": getattr(lst.commander, "id", None),
            "limit": lst.points,
        },
        values={
            "commander_cost": (lst.commander_cost, L_("commander level {level}", level=level_name), ("commander",)),
            "spent": (total, L_("points spent"), ("points",)),
            "size": (size, size_label, ("points",)),
            "percent_base": (
                total if spent_base else lst.points,
                L_("points spent") if spent_base else L_("the battle size"),
                ("points",),
            ),
            "troops_points": (troops_points, L_("troops"), ("troops",)),
            "ranged_points": (ranged_points, L_("ranged troops"), ("troops",)),
        },
        rules=rules,
        prefix="kensei",
        unit=UNIT,
        default_loc=("troops",),
        pack_hint="a pack",
        ruleset=rs,
        house_rules={h.id: h for h in catalog.model.house_rules},
    )
    return items, ctx


def check(lst: KenseiList, catalog: Catalog, rules: dict) -> list[Finding]:
    items, ctx = _prepare(lst, catalog, rules)
    lst.prepared = (items, ctx, catalog, dict(rules))
    findings = evaluate(catalog.model.restrictions, items, ctx)
    for f in findings:
        if f.code == "kensei.spiritual-max":
            f.reword(_spiritual_message(lst, f))
    findings += _check_unit_sizes(lst, items)
    findings += _check_costs(lst)
    findings += _check_general(lst, catalog)
    findings += _check_unit_leaders(lst, catalog, rules)
    findings += _check_protector(lst, catalog)
    findings += _check_standards(lst, catalog, rules)
    findings += _check_shikigami(lst, catalog)
    findings += _check_peasants(lst, rules)
    if rules.get("onmyouji_realm_limits_troops") is True:
        findings += _check_realm(lst)
    return findings


def _check_unit_sizes(lst: KenseiList, items: list) -> list[Finding]:
    """The unit sizes a profile sets itself (``unit_min``/``unit_max`` in a pack), in place of the
    general 3 and 15/5/10 (001:5919-5922), at the bound and past it."""
    out = []
    troops = {e.loc: e.troop for e in lst.entries}
    for it in items:
        if it.facts["unit"] is not True or not (it.facts["own_unit_min"] or it.facts["own_unit_max"]):
            continue
        t = troops.get(it.loc)
        for kind, bound in (("min", getattr(t, "unit_min", None)), ("max", getattr(t, "unit_max", None))):
            if bound is None or (it.models >= bound if kind == "min" else it.models <= bound):
                continue
            op = "<" if kind == "min" else ">"
            out.append(
                Finding(
                    "error",
                    f"kensei.unit-size-{kind}",
                    L_(
                        "{name}: unit of {n} models {op} {bound} ({field} of its profile in {origin})",
                        name=it.name,
                        n=it.models,
                        op=op,
                        bound=bound,
                        field="unit_" + kind,
                        origin=it.origin,
                    ),
                    loc=it.loc,
                    source=f"{SEED}:5919-5922",
                    value=it.models,
                    bound=bound,
                    base=f"unit_{kind}",
                )
            )
    return out


def _spiritual_message(lst: KenseiList, f: Finding) -> str:
    """One Onmyouji or one Komuso, never both (001:5946-5955), said of what the list holds."""
    held: dict[str, list[str]] = {"O": [], "K": []}
    for e in lst.entries:
        cls = getattr(e.troop, "troop_class", None) if e.troop is not None else None
        if cls in held:
            held[cls] += [e.troop.name] * max(1, e.models)
    onm, kom = held["O"], held["K"]
    names = ", ".join(sorted(onm + kom))
    if onm and kom:
        return L_("{names}: an army takes one Onmyouji or one Komuso, never both", names=names)
    if onm:
        return L_("{n} Onmyouji ({names}) > 1: an army takes only one Onmyouji", n=len(onm), names=names)
    if kom:
        return L_("{n} Komuso > 1: an army takes only one Komuso", n=len(kom))
    return f.text or f.message


def _check_realm(lst: KenseiList) -> list[Finding]:
    realms = {
        e.troop.realm for e in lst.entries if e.troop is not None and e.troop.troop_class == "O" and e.troop.realm
    }
    if not realms:
        return []
    out = []
    for e in lst.entries:
        t = e.troop
        if t is None or t.troop_type != "creature" or t.companions:
            continue
        if "shikigami" in _normalize(t.name):
            continue
        if t.realm and t.realm not in realms:
            out.append(
                Finding(
                    "error",
                    "kensei.onmyouji-realm",
                    L_(
                        "{name} is a {realm} creature; the Onmyouji's realm is {realms}",
                        name=t.name,
                        realm=t.realm,
                        realms=", ".join(sorted(realms)),
                    ),
                    loc=e.loc,
                    source=f"{SEED}:4917-4922",
                )
            )
    return out


def _check_costs(lst: KenseiList) -> list[Finding]:
    out = []
    seen = set()
    for e in lst.entries:
        if e.troop is not None and not e.cost_known and e.troop.id not in seen:
            seen.add(e.troop.id)
            out.append(
                Finding(
                    "error",
                    "kensei.cost-unknown",
                    L_(
                        "'{name}' has no cost in the catalog (the rulebook's army lists are missing), so the "
                        "points limits cannot be checked and the list cannot be confirmed legal; give 'cost: N' "
                        "for '{name}' in a pack (packs: [my-troops.yaml])",
                        name=e.troop.name,
                    ),
                    loc=e.loc,
                    source=f"{SEED}:6710-6819",
                )
            )
    return out


def _is_general_eligible(t: Any, catalog: Catalog) -> bool | None:
    if t is None:
        return False
    if t.general is not None:
        return t.general
    if t.troop_class is None or t.leader is None:
        return None
    return class_is(catalog, t.troop_class, "can_be_general") and bool(t.leader)


def _check_general(lst: KenseiList, catalog: Catalog) -> list[Finding]:
    src = SRC["general"]
    if lst.general is not None:
        target = _find(catalog, "troops", lst.general)
        hits = [e for e in lst.entries if e.troop is not None and target is not None and e.troop.id == target.id]
        if not hits:
            hits = [e for e in lst.entries if _normalize(e.name) == _normalize(lst.general)]
        if not hits:
            listed = [e.troop.name for e in lst.entries if e.troop is not None]
            hint = did_you_mean(lst.general, listed)
            return [
                Finding(
                    "error",
                    "kensei.general-not-listed",
                    L_("the general '{name}' is not among the troops; {hint}", name=lst.general, hint=hint)
                    if hint
                    else L_("the general '{name}' is not among the troops", name=lst.general),
                    loc=("general",),
                    source=src,
                )
            ]
        e = hits[0]
        if e.troop is None:
            return []  # an unknown troop: already reported as kensei.unknown-troop
        ok = _is_general_eligible(e.troop, catalog)
        if ok is None:
            return [
                Finding(
                    "warning",
                    "kensei.general-not-hero",
                    L_(
                        "cannot tell whether '{name}' may be the general: its profile lacks 'troop_class' or "
                        "'leader'; give them in a pack",
                        name=e.troop.name,
                    ),
                    loc=("general",),
                    source=src,
                )
            ]
        if not ok:
            cls = e.troop.troop_class or "?"
            why = L_("class {cls}", cls=cls) if e.troop.leader else L_("class {cls}, no leader rank", cls=cls)
            return [
                Finding(
                    "error",
                    "kensei.general-not-hero",
                    L_("the general '{name}' must be a Hero with leader rank ({why})", name=e.troop.name, why=why),
                    loc=("general",),
                    source=src,
                )
            ]
        return []
    eligible = [e for e in lst.entries if _is_general_eligible(e.troop, catalog)]
    if len(eligible) == 1:
        return []
    if not eligible:
        return [
            Finding(
                "error",
                "kensei.general-missing",
                L_("no Hero with leader rank in the list to be the army general"),
                loc=("troops",),
                source=src,
                value=0,
                bound=1,
            )
        ]
    # every Hero as written, a name written on several entries with how many times
    written: dict[str, int] = {}
    for e in eligible:
        written[e.name] = written.get(e.name, 0) + 1
    shown: list[str] = [
        L_("'{name}' {n} times", name=n, n=k) if k > 1 else f"'{n}'" for n, k in sorted(written.items())
    ]
    names = Text(", ".join(f"{{p{i}}}" for i in range(len(shown))), {f"p{i}": x for i, x in enumerate(shown)})
    return [
        Finding(
            "error",
            "kensei.general-ambiguous",
            L_(
                "{n} Heroes could be the army general ({names}); name one with 'general:'",
                n=len(eligible),
                names=names,
            ),
            loc=("troops",),
            source=src,
        )
    ]


def _lead_order(catalog: Catalog, t: Any) -> int | None:
    if t is None or not t.troop_class:
        return None
    cls = _find(catalog, "troop_classes", t.troop_class)
    return getattr(cls, "lead_order", None)


def _leader_type(e: TroopEntry, ldr_troop: Any, catalog: Catalog, split_all: bool, src: str) -> Finding | None:
    """ "Must be of the same type (hand to hand armed infantry, ranged weapon armed infantry,
    cavalry, etc)" (001:1857-1860): only infantry is split by its weapons, so a mounted archer
    leads mounted spearmen (the rulebook's mounted Sohei Daimyo leads cavalry monks, 001:1820-1831);
    the house rule unit_leader_weapons_every_type splits every type by its weapons."""
    ft, fl = troop_facts(e.troop, catalog), troop_facts(ldr_troop, catalog)
    tu, tl = ft["type"], fl["type"]
    unknown = "troop_type"
    if not isinstance(tu, Unknown) and not isinstance(tl, Unknown) and tu != tl:
        return Finding(
            "error",
            "kensei.unit-leader-type",
            L_(
                "{name}: leader '{leader}' is {leader_type}, the unit is {unit_type}; they must be of the same type",
                name=e.troop.name,
                leader=ldr_troop.name,
                leader_type=_type(tl),
                unit_type=_type(tu),
            ),
            loc=e.loc + ("led_by",),
            source=src,
            value=tl,
            bound=tu,
        )
    split = split_all or tu == "infantry" or tl == "infantry"
    if not isinstance(tu, Unknown) and not isinstance(tl, Unknown):
        if not split:
            return None
        ru, rl = ft["ranged"], fl["ranged"]
        if not isinstance(ru, Unknown) and not isinstance(rl, Unknown):
            if ru == rl:
                return None
            arms = {True: "ranged weapon armed", False: "hand to hand armed"}
            shown = {
                True: lambda t: L_("ranged weapon armed {type}", type=_type(t)),
                False: lambda t: L_("hand to hand armed {type}", type=_type(t)),
            }
            same = (
                L_("they must be of the same type")
                if tu == "infantry"
                else L_("they must be of the same type (house rule unit_leader_weapons_every_type)")
            )
            return Finding(
                "error",
                "kensei.unit-leader-type",
                L_(
                    "{name}: leader '{leader}' is {leader_type}, the unit is {unit_type}; {rule}",
                    name=e.troop.name,
                    leader=ldr_troop.name,
                    leader_type=shown[rl](tl),
                    unit_type=shown[ru](tu),
                    rule=same,
                ),
                loc=e.loc + ("led_by",),
                source=src,
                value=f"{arms[rl]} {tl}",
                bound=f"{arms[ru]} {tu}",
            )
        unknown = "weapons"
    return Finding(
        "warning",
        "kensei.unit-leader-type",
        L_(
            "{name}: cannot tell whether '{leader}' is of the unit's type (a profile lacks {field}; give it in a pack)",
            name=e.troop.name,
            leader=ldr_troop.name,
            field=unknown,
        ),
        loc=e.loc + ("led_by",),
        source=src,
    )


def _leader_class(e: TroopEntry, ldr_troop: Any, catalog: Catalog, src: str) -> Finding | None:
    """Whether the unit's leader's class may lead it (001:1852-1856): a class that leads nothing,
    or is below the unit's, is an error; a class not given, a warning."""
    lo_u, lo_l = _lead_order(catalog, e.troop), _lead_order(catalog, ldr_troop)
    if lo_u is None or lo_l is None:
        who = e.troop if lo_u is None else ldr_troop
        if who.troop_class is None:  # missing data: a warning naming the field, as everywhere
            return Finding(
                "warning",
                "kensei.unit-leader-class",
                L_(
                    "{name}: '{who}' has no 'troop_class' in its profile, so whether it may lead or be led "
                    "cannot be told; give 'troop_class' in a pack",
                    name=e.troop.name,
                    who=who.name,
                ),
                loc=e.loc + ("led_by",),
                source=src,
            )
        else:
            return Finding(
                "error",
                "kensei.unit-leader-class",
                L_(
                    "{name}: class {cls} of '{who}' can neither lead a unit nor be led (only Hero, Elite, "
                    "Warrior and Peasant)",
                    name=e.troop.name,
                    cls=who.troop_class,
                    who=who.name,
                ),
                loc=e.loc + ("led_by",),
                source=src,
            )
    elif lo_l < lo_u:
        return Finding(
            "error",
            "kensei.unit-leader-class",
            L_(
                "{name}: leader '{leader}' (class {leader_class}) is below the unit's class {unit_class}",
                name=e.troop.name,
                leader=ldr_troop.name,
                leader_class=ldr_troop.troop_class,
                unit_class=e.troop.troop_class,
            ),
            loc=e.loc + ("led_by",),
            source=src,
            value=ldr_troop.troop_class,
            bound=e.troop.troop_class,
        )
    return None


def _check_unit_leaders(lst: KenseiList, catalog: Catalog, rules: dict | None = None) -> list[Finding]:
    out = []
    src = SRC["unit_leader"]
    split_all = (rules or {}).get("unit_leader_weapons_every_type") is True
    led_count: dict[str, list[TroopEntry]] = {}
    for e in lst.entries:
        if e.led_by is None or e.troop is None:
            continue
        target = _find(catalog, "troops", e.led_by)
        leaders = [
            x
            for x in lst.entries
            if x is not e and x.troop is not None and (target is not None and x.troop.id == target.id)
        ]
        if not leaders:
            cands = sorted({x.troop.name for x in lst.entries if x.troop is not None and x.troop.leader})
            hint = did_you_mean(e.led_by, cands)
            out.append(
                Finding(
                    "error",
                    "kensei.led-by-unknown",
                    L_(
                        "{name}: unit leader '{leader}' is not in the list; {hint}",
                        name=e.troop.name,
                        leader=e.led_by,
                        hint=hint,
                    )
                    if hint
                    else L_("{name}: unit leader '{leader}' is not in the list", name=e.troop.name, leader=e.led_by),
                    loc=e.loc + ("led_by",),
                    source=src,
                )
            )
            continue
        ldr_troop = target
        if ldr_troop.leader is not True:
            out.append(
                Finding(
                    "error" if ldr_troop.leader is False else "warning",
                    "kensei.led-by-not-leader",
                    L_(
                        "{name}: '{leader}' has no leader rank and cannot lead a unit",
                        name=e.troop.name,
                        leader=ldr_troop.name,
                    )
                    if ldr_troop.leader is False
                    else L_(
                        "{name}: '{leader}' has no 'leader' field in its profile and cannot lead a unit",
                        name=e.troop.name,
                        leader=ldr_troop.name,
                    ),
                    loc=e.loc + ("led_by",),
                    source=src,
                )
            )
            continue
        led_count.setdefault(ldr_troop.id, []).append(e)
        finding = _leader_class(e, ldr_troop, catalog, src)
        if finding is not None:
            out.append(finding)
        finding = _leader_type(e, ldr_troop, catalog, split_all, src)
        if finding is not None:
            out.append(finding)
    for tid, units in led_count.items():
        have = sum(1 for x in lst.entries if x.troop is not None and x.troop.id == tid)
        for e in units[have:]:
            out.append(
                Finding(
                    "error",
                    "kensei.unit-leader-twice",
                    L_(
                        "'{name}' leads {n} units; a leader leads one unit",
                        name=_find(catalog, "troops", tid).name,
                        n=len(units),
                    ),
                    loc=e.loc + ("led_by",),
                    source=src,
                    value=len(units),
                    bound=have,
                )
            )
    return out


def _protector_unit(lst: KenseiList) -> Any:
    """The entry of the unit Kogen leads when Sato, in the army with Kogen, joins it ("The
    Protector", L7295-7312: Sato "uses the same profile than the unit", one more miniature of
    it); None otherwise."""
    kogen = sato = unit = None
    for e in lst.entries:
        if e.troop is None:
            continue
        tid = normalize(e.troop.id)
        if tid == "kogen":
            kogen = e
        elif tid == "sato":
            sato = sato or e
        elif unit is None and e.led_by and normalize(e.led_by) == "kogen":
            unit = e
    if kogen is None or sato is None or unit is None:
        return None
    if sato.led_by and normalize(sato.led_by) != "kogen":
        return None
    return unit


def _check_protector(lst: KenseiList, catalog: Catalog) -> list[Finding]:
    """ "The Protector" (L7295-7312): with Kogen and Sato both in the army, Sato is deployed in
    the unit Kogen leads, or, when Kogen leads none, joins him as a unit of two."""
    src = f"{SEED}:7295-7312"
    kogen = [e for e in lst.entries if e.troop is not None and normalize(e.troop.id) == "kogen"]
    sato = [e for e in lst.entries if e.troop is not None and normalize(e.troop.id) == "sato"]
    if not kogen or not sato:
        return []
    out = []
    led = [
        e for e in lst.entries if e.troop is not None and e.led_by and normalize(e.led_by) == "kogen" and e not in sato
    ]
    for s in sato:
        if s.led_by and normalize(s.led_by) != "kogen":
            out.append(
                Finding(
                    "error",
                    "kensei.the-protector",
                    L_(
                        "Sato is led by '{leader}', but with Kogen in the army Sato must be deployed in the unit "
                        "Kogen leads (The Protector)",
                        leader=s.led_by,
                    ),
                    loc=s.loc + ("led_by",),
                    source=src,
                )
            )
        elif led:
            out.append(
                Finding(
                    "info",
                    "kensei.the-protector",
                    L_(
                        "Sato is deployed in the unit Kogen leads ({unit}) and uses its profile: the unit counts "
                        "{n} miniatures with him; +1 to the Protect the Leader roll (The Protector)",
                        unit=led[0].troop.name,
                        n=led[0].models + 1,
                    ),
                    loc=s.loc,
                    source=src,
                )
            )
        elif s.models != 1:
            out.append(
                Finding(
                    "error",
                    "kensei.the-protector",
                    L_(
                        "Kogen leads no unit: Sato joins him as a unit of two miniatures, Kogen and Sato, so Sato "
                        "is one model, not {n} (The Protector)",
                        n=s.models,
                    ),
                    loc=s.loc + ("models",),
                    source=src,
                    value=s.models,
                    bound=1,
                )
            )
        else:
            out.append(
                Finding(
                    "info",
                    "kensei.the-protector",
                    L_(
                        "Kogen leads no unit: Sato becomes an elite Yurei with Nodachi and joins him as a unit of "
                        "two miniatures (The Protector)"
                    ),
                    loc=s.loc,
                    source=src,
                )
            )
    return out


def _check_standards(lst: KenseiList, catalog: Catalog, rules: dict | None = None) -> list[Finding]:
    """One Hata-Jurushi per unit, inside a unit (001:1688-1693, 001:5941-5944).

    The bearer uses the unit's profile, so any unit carries one, a creature unit
    included; the house rule ``standard_leader_classes`` limits it to the classes that
    may lead a unit (001:1852-1856).
    """
    out = []
    src = SRC["standard"]
    ladder = (rules or {}).get("standard_leader_classes") is True
    for e in lst.entries:
        if e.standard_bearer:
            out.append(
                Finding(
                    "error",
                    "kensei.standard-outside-unit",
                    L_("a Hata-Jurushi must be deployed inside a unit; write 'standard: true' on that unit instead"),
                    loc=e.loc,
                    source=src,
                )
            )
            continue
        if not e.standard or e.troop is None:
            continue
        if e.standard > 1:
            out.append(
                Finding(
                    "error",
                    "kensei.standard-max",
                    L_("{name}: {n} Hata-Jurushi in one unit > 1 (one for each unit)", name=e.troop.name, n=e.standard),
                    loc=e.loc + ("standard",),
                    source=src,
                    value=e.standard,
                    bound=1,
                )
            )
        facts = troop_facts(e.troop, catalog)
        if facts["unit"] is False:
            out.append(
                Finding(
                    "error",
                    "kensei.standard-not-unit",
                    L_(
                        "{name} is a single model, not a unit: a Hata-Jurushi is deployed inside a unit",
                        name=e.troop.name,
                    ),
                    loc=e.loc + ("standard",),
                    source=src,
                )
            )
        elif ladder and _lead_order(catalog, e.troop) is None and e.troop.troop_class:
            out.append(
                Finding(
                    "error",
                    "kensei.standard-not-unit",
                    L_(
                        "{name}: under the house rule standard_leader_classes a Hata-Jurushi goes only in a unit "
                        "of class Hero, Elite, Warrior or Peasant, not {cls}",
                        name=e.troop.name,
                        cls=e.troop.troop_class,
                    ),
                    loc=e.loc + ("standard",),
                    source=f"{src}, {SEED}:1852-1856",
                )
            )
    return out


def _check_shikigami(lst: KenseiList, catalog: Catalog) -> list[Finding]:
    """The companions listed (an Onmyouji's Shikigami) against the number their troops bring:
    "Must be accompanied by two Shikigami" (001:5948-5949, 001:4933-4937)."""
    out = []
    src = SRC["shikigami"]
    need: dict[str, list[tuple[TroopEntry, int]]] = {}  # companion id -> (owner entry, models it brings)
    names: dict[str, str] = {}
    for e in lst.entries:
        for c in getattr(e.troop, "companions", None) or []:
            comp = _find(catalog, "troops", c.troop)
            key = comp.id if comp is not None else _normalize(c.troop)
            names[key] = comp.name if comp is not None else c.troop
            need.setdefault(key, []).append((e, c.count * e.models))
    have: dict[str, list[TroopEntry]] = {}
    for e in lst.entries:
        if e.troop is not None and (e.companion or e.troop.id in need or "shikigami" in _normalize(e.troop.name)):
            have.setdefault(e.troop.id, []).append(e)
    for key in sorted(set(need) | set(have)):
        owners = need.get(key, [])
        want = sum(n for _, n in owners)
        got_entries = have.get(key, [])
        got = sum(x.models for x in got_entries)
        name = names.get(key) or (got_entries[0].troop.name if got_entries else key)
        if not got_entries:
            for owner, each in owners:
                out.append(
                    Finding(
                        "info",
                        "kensei.onmyouji-shikigami",
                        L_(
                            "{owner} comes with {n} {name} (not listed; they are fielded with it)",
                            owner=owner.troop.name,
                            n=each,
                            name=name,
                        ),
                        loc=owner.loc,
                        source=src,
                        value=0,
                        bound=each,
                    )
                )
        elif got != want:
            held = sum(o.models for o, _ in owners)
            with_whom = L_("{n} Onmyouji", n=held) if held else L_("no Onmyouji")
            out.append(
                Finding(
                    "error",
                    "kensei.onmyouji-shikigami",
                    L_(
                        "{got} {name} listed, but {want} go with {with_whom} (an Onmyouji is accompanied by two "
                        "Shikigami)",
                        got=got,
                        name=name,
                        want=want,
                        with_whom=with_whom,
                    ),
                    loc=got_entries[0].loc,
                    source=src,
                    value=got,
                    bound=want,
                )
            )
    return out


def _check_peasants(lst: KenseiList, rules: dict) -> list[Finding]:
    out = []
    for e in lst.entries:
        t = e.troop
        if t is None or t.purchase is None:
            continue
        if rules.get(t.purchase.house_rule or "peasant_purchase", "pairs") == "bonus":
            continue
        n = t.purchase.models
        if e.models % n:
            paid = math.ceil(e.models / n) * n
            out.append(
                Finding(
                    "warning",
                    "kensei.peasant-pairs",
                    L_(
                        "{name}: {n} models, but peasants are bought {per} for every {cost} {unit}: paid as {paid} "
                        "({points} {unit})",
                        name=t.name,
                        n=e.models,
                        per=n,
                        cost=fmt_num(t.purchase.points),
                        unit=catalog_text(UNIT),
                        paid=paid,
                        points=fmt_num(e.points),
                    ),
                    loc=e.loc + ("models",),
                    source=SRC["peasants"],
                    value=e.models,
                    bound=paid,
                )
            )
    return out


# -- summary ------------------------------------------------------------------------------------

SUMMARY_KEYS = {
    "melee-min": "melee",
    "ranged-max": "ranged",
    "firearms-max": "firearms",
    "cavalry-max": "cavalry",
    "skirmishers-max": "skirmishers",
    "creatures-max": "creatures",
}


def summary(lst: KenseiList, catalog: Catalog, rules: dict) -> dict:
    prepared = lst.prepared
    if prepared is not None and prepared[2] is catalog and prepared[3] == rules:
        items, ctx = prepared[0], prepared[1]
    else:
        items, ctx = _prepare(lst, catalog, rules)
    troops = lst._troops_exact()
    out: dict[str, Any] = {
        "points": plain(exact_number(troops + lst.commander_cost)),
        "limit": lst.points,
        "troops": plain(troops),
        "commander": lst.commander_cost,
        "clan": lst.clan,
    }
    out["units"] = sum(1 for i in items if i.facts["unit"] is True)
    out["leaders"] = sum(1 for i in items if i.facts["leader"] is True)
    out["models"] = sum(i.models for i in items) + sum(e.models for e in lst.entries if e.companion)
    for r, key in _summary_rules(active_restrictions(catalog.model.restrictions, ctx), ruleset(catalog)):
        v = measure_exact("points", matching(r, items, ctx))
        out[key] = plain(v)
        out[f"{key}_percent"] = _percent(v, lst.points) if lst.points else 0
    return out


def _summary_rules(active: list, rs: Any) -> list:
    """``(restriction, summary key)`` for the first active restriction of each summary key."""
    memo = rs.table("summary_rules")
    key = tuple(r.id for r in active)
    hit = memo.get(key)
    if hit is None or any(a is not b for a, b in zip(hit[0], active, strict=False)):
        pairs, seen = [], set()
        for r in active:
            k = SUMMARY_KEYS.get(r.code)
            if k is not None and k not in seen:
                seen.add(k)
                pairs.append((r, k))
        hit = memo[key] = (active, pairs)
    return hit[1]


def _percent(v: Any, limit: Any) -> int | float:
    """``v`` as a percentage of ``limit`` to one decimal, exactly as a Fraction would round it."""
    if type(v) is int and type(limit) is int and (v * 100) % limit == 0:
        return (v * 100) // limit
    key = (type(v), v, type(limit), limit)
    hit = _PERCENTS.get(key)
    if hit is None:
        if len(_PERCENTS) >= _PERCENTS_MAX:
            _PERCENTS.clear()
        hit = _PERCENTS[key] = plain(round(Fraction(v) * 100 / limit, 1))
    return hit


_PERCENTS_MAX = 20001
_PERCENTS: dict = state.cache(
    "kensei.percents",
    bound=_PERCENTS_MAX,
    lifetime=state.VALUE,
    doc="a share of a limit as a percentage, by value and limit",
)


# -- what the roster states ---------------------------------------------------------------------

ROUT_PERCENT = 75
"""An army that has lost at least 75% of its starting army points is in full retreat."""
ROUT_SOURCE = f"{SEED}:2204-2209"


def rout_threshold(troops_points: Any, percent: float = ROUT_PERCENT) -> Fraction:
    """Army points lost at which the army goes into full retreat (75% of the starting points)."""
    return Fraction(troops_points) * Fraction(percent).limit_denominator(1000) / 100


def hand_size(catalog: Catalog, points: int) -> tuple[int | None, str | None]:
    """Command cards kept in hand at a battle size, and where the catalog's table comes from."""
    ab = getattr(catalog.model, "army_building", None)
    if ab is None:
        return None, None
    return _hand_of(ab, points), ab.hand_sizes_source


def _hand_of(ab: Any, points: int) -> int | None:
    """Command cards kept in hand for a battle size (4/5/6), from the catalog's bands."""
    bands = getattr(ab, "hand_sizes", None) or []
    best = None
    for b in bands:
        lo = b.get("from_ap", 0)
        hi = b.get("to_ap")
        if points >= lo and (hi is None or points <= hi):
            best = b.get("hand")
    if best is None and bands and points < min(b.get("from_ap", 0) for b in bands):
        best = min(bands, key=lambda b: b.get("from_ap", 0)).get("hand")
    return best


# -- limits (for statistics) ---------------------------------------------------------------------


def limits(lst: KenseiList, catalog: Catalog, rules: dict, detail: bool = False) -> list[dict]:
    """Every limit of the army measured by the rules engine, with the room left (see
    ``engine.limit_report``)."""
    items, ctx = _prepare(lst, catalog, rules)
    return limit_report(catalog.model.restrictions, items, ctx, detail)


_OP = {"min": "\u2265", "max": "\u2264", "exactly": "="}
OWN_SIZES = ("unit_min", "unit_max")  # the ``base`` of a unit size a profile sets itself
# rules checked in Python (general, unit leaders, standards, ...): the roster names them by finding code
_CHECKED_IN_CODE = {
    "kensei.general": N_("Army general"),
    "kensei.unit-leader": N_("Unit leaders"),
    "kensei.standard": N_("Hata-Jurushi"),
    "kensei.shikigami": N_("Onmyouji's Shikigami"),
    "kensei.peasants": N_("Peasants bought in pairs"),
    "kensei.unknown-cost": N_("Troop costs known"),
    "kensei.unknown-troop": N_("Troops in the catalog"),
}


def _measured(value: Any, row: dict) -> str:
    """``4 units``: a Text, its unit (a catalog's word) translated where it is shown."""
    word = row["unit"]
    if row["count"] != "points" and value == 1 and word.endswith("s"):
        word = word[:-1]
    return Text("{n} {unit}", {"n": fmt_num(value), "unit": catalog_text(word)})


def limit_table(lst: KenseiList, catalog: Catalog, rules: dict, findings: Any) -> list[dict]:
    """The roster's limits table: one row per restriction and bound, from ``limits`` (the highest or
    lowest group for a rule counted per group), turned to FAIL (or check) when the check reported a
    finding with the rule's code; then the rules checked in code that reported something."""
    by_code: dict[str, list] = {}
    for f in findings:
        by_code.setdefault(f.code, []).append(f)
    merged: dict[tuple, list[dict]] = {}
    for row in limits(lst, catalog, rules, detail=True):
        merged.setdefault((row["id"], row["kind"]), []).append(row)
    rows = []
    for (rid, kind), group in merged.items():
        first = group[0]
        per_group = first["for_each"] != "list"
        measured = [r for r in group if r["value"] is not None]
        value_txt: str
        if not measured:
            value_txt = L_("none")
        elif per_group:
            worst = (min if kind == "min" else max)(measured, key=lambda r: r["value"])
            shown = _measured(worst["value"], worst)
            value_txt = L_("lowest {value}", value=shown) if kind == "min" else L_("highest {value}", value=shown)
        else:
            value_txt = _measured(first["value"], first)
        ok = all(r["ok"] for r in group)
        fs = [
            f
            for f in by_code.get(first["code"], [])
            if (f.bound is None or f.bound == first["bound"]) and f.base not in OWN_SIZES
        ]
        status = "pass" if ok else "FAIL"
        if any(f.severity == "error" for f in fs):
            status = "FAIL"
        elif status == "pass" and any(f.severity == "warning" for f in fs):
            status = "check"
        label = first["name"] or (first["label"] + (" (each)" if per_group else ""))
        # the label as a message (a restriction without a name of its own), translated where shown
        text = None if first["name"] else catalog_text(first["label"])
        if text and per_group:
            text = L_("{label} (each)", label=text)
        rows.append(
            {
                "id": rid,
                "code": first["code"],
                "label": label[:1].upper() + label[1:],
                "text": text,
                "value": value_txt,
                "bound": Text("{op} {bound}", {"op": _OP[kind], "bound": first["bound_text"]}),
                "status": status,
                "source": first["source"],
            }
        )
    for f in findings:  # a unit size a pack's profile sets itself (_check_unit_sizes)
        if f.base in OWN_SIZES:
            rows.append(
                {
                    "id": f"{f.code}-{f.base}",
                    "code": f.code,
                    "label": f"Unit size set by the profile ({f.base})",
                    "text": L_("Unit size set by the profile ({base})", base=f.base),
                    "value": Text("{n} {unit}", {"n": fmt_num(f.value), "unit": catalog_text("models")}),
                    "bound": f"{_OP['min' if f.base == 'unit_min' else 'max']} {fmt_num(f.bound)}",
                    "status": "FAIL",
                    "source": f.source or "",
                }
            )
    covered = {row["code"] for row in rows}
    for code, f_list in sorted(by_code.items()):
        if code in covered or not code.startswith("kensei.") or code == "kensei.profile-incomplete":
            continue
        sev = {f.severity for f in f_list}
        if sev == {"info"}:
            continue
        label = _CHECKED_IN_CODE.get(code, code.split(".", 1)[1].replace("-", " ").capitalize())
        rows.append(
            {
                "id": code,
                "code": code,
                "label": label,
                "text": Text(label) if code in _CHECKED_IN_CODE else None,
                "value": f_list[0].message,
                "bound": "",
                "status": "FAIL" if "error" in sev else "check",
                "source": f_list[0].source or "",
            }
        )
    return rows


def points_by(lst: KenseiList, catalog: Catalog, rules: dict, fact: str) -> dict[str, Any]:
    """Points spent per value of a troop fact (``class``, ``type``, ``titles``...); an entry with
    several values (titles) counts under each."""
    items, _ = _prepare(lst, catalog, rules)
    out: dict[str, Any] = {}
    for it in items:
        v = it.facts.get(fact)
        values = sorted(v) if isinstance(v, (set, frozenset, list, tuple)) else [v]
        for x in values:
            k = "unknown" if x is None or type(x).__name__ == "Unknown" else str(x)
            out[k] = plain(exact_number(out.get(k, 0) + exact_number(it.points)))
    return out


# -- finding codes ---------------------------------------------------------------------------------
# The codes of the checks written here; the restrictions' codes come from the catalog
# (``gs.catalog.finding_codes``).

FINDING_CODES = codes(
    "kensei",
    {
        "unknown-clan": ("error", N_("the list's clan is not in the catalog"), SRC["clan"]),
        "clan-not-playable": (
            "error",
            N_(
                "the list's clan is one a pack marks not playable (playable: false): an army is raised from a "
                "playable clan"
            ),
            f"{SEED}:286, {SRC['clan']}",
        ),
        "unknown-commander": ("error", N_("the commander level is not one of the catalog's"), SRC["commander"]),
        "unknown-troop": ("error", N_("a troop the catalog and the list's packs do not know")),
        "cost-unknown": (
            "error",
            N_("a troop without a cost in the catalog: the points limits cannot be checked until a pack gives it"),
        ),
        "onmyouji-realm": (
            "error",
            N_("a creature from outside the realm of the army's Onmyouji"),
            f"{SEED}:4917-4922",
        ),
        "general-not-listed": ("error", N_("the general named by 'general:' is not among the troops"), SRC["general"]),
        "general-not-hero": ("error", N_("the army general must be a Hero with leader rank"), SRC["general"]),
        "general-missing": ("error", N_("no Hero with leader rank to be the army general"), SRC["general"]),
        "general-ambiguous": (
            "error",
            N_("several Heroes could be the general; 'general:' must name one"),
            SRC["general"],
        ),
        "led-by-unknown": ("error", N_("a unit's leader ('led_by') is not in the list"), SRC["unit_leader"]),
        "led-by-not-leader": ("error", N_("a unit's leader ('led_by') has no leader rank"), SRC["unit_leader"]),
        "unit-leader-class": (
            "error",
            N_("a unit leader's class is below the unit's, or its class cannot lead"),
            SRC["unit_leader"],
        ),
        "unit-leader-type": ("error", N_("a unit leader is not of the unit's troop type"), SRC["unit_leader"]),
        "unit-leader-twice": ("error", N_("one leader leads more than one unit"), SRC["unit_leader"]),
        "the-protector": ("error", N_("Sato deploys in the unit Kogen leads (The Protector)"), f"{SEED}:7295-7312"),
        "standard-outside-unit": (
            "error",
            N_("a Hata-Jurushi listed on its own instead of inside a unit"),
            SRC["standard"],
        ),
        "standard-max": ("error", N_("more than one Hata-Jurushi in one unit"), SRC["standard"]),
        "standard-not-unit": (
            "error",
            N_("a Hata-Jurushi on a single model (or, under a house rule, a unit of a class that may not be led)"),
            SRC["standard"],
        ),
        "onmyouji-shikigami": (
            "error",
            N_("the Shikigami listed do not match the Onmyouji they go with"),
            SRC["shikigami"],
        ),
        "peasant-pairs": (
            "warning",
            N_("peasants are bought in groups; an odd number is paid as the next group"),
            SRC["peasants"],
        ),
    },
)


def default_models(catalog: Catalog, troop: Any) -> int:
    """The models a new unit of ``troop`` starts with: a unit troop's least (at least 3), else 1."""
    if troop_facts(troop, catalog)["unit"] is True:
        return max(3, troop.unit_min or 3)
    return 1
