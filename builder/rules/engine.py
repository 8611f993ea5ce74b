"""A generic evaluator for declarative restrictions (``builder.catalog.restrictions``).

A game system turns its list into *items* (one per list entry: where it was
written, how many models, how many points, and a dict of *facts* read from the
profile) and a *context* (battle size, list-level facts such as the clan, house
rules, numeric values such as the commander cost). ``evaluate`` then applies the
restrictions in a defined order and returns findings that explain themselves.

Order of evaluation:

1. activation: a restriction is active when its ``when`` selector holds on the
   context and its ``unless`` selector does not;
2. replacement: an active restriction switches off every restriction it
   ``replaces`` (clan rules override the general table);
3. evaluation: the remaining restrictions in catalog order; within one, groups
   in order of first appearance in the list.

Facts may be *unknown* (``Unknown(field)``): an item whose membership depends on
an unknown fact is not counted, and one warning per troop and field names the
missing profile field, so a gap in the data never passes silently.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from builder import state
from builder.catalog.frozen import kind as model_kind
from builder.findings import Finding
from builder.i18n import L_, N_, Ln_, Text
from builder.names import normalize
from builder.rules.compiled import Ruleset


@dataclass(frozen=True)
class Unknown:
    """A fact the profile does not give. ``field`` names the profile field that would."""

    field: str

    def __bool__(self) -> bool:  # pragma: no cover - guard against accidental truthiness
        raise TypeError("Unknown fact used as a boolean")


@dataclass
class Item:
    """One list entry as the engine sees it."""

    loc: tuple
    name: str
    key: str
    models: int
    points: Fraction | int | float
    facts: dict[str, Any]  # string values normalized (builder.names.normalize); sets of normalized strings
    origin: str = ""  # where the profile was written (file:line), for hints
    # Optional hashable key: items with equal ``fkey`` have equal ``facts``, so the
    # engine may reuse a selector's result for one on the other.
    fkey: Any = None

    def describe(self, unit: str) -> str:
        return Ln_(
            "{name} ({n} model, {points} {unit}) at {path}",
            "{name} ({n} models, {points} {unit}) at {path}",
            self.models,
            name=self.name,
            points=fmt_num(self.points),
            unit=catalog_text(unit),
            path=path_text(self.loc),
        )


@dataclass
class Context:
    """What restrictions may refer to besides the items."""

    limit: Fraction | int | float
    facts: dict[str, Any] = field(default_factory=dict)  # clan, occult, commander, ...
    values: dict[str, tuple[Any, str, tuple | None]] = field(default_factory=dict)  # name -> (number, label, loc)
    rules: dict[str, Any] = field(default_factory=dict)  # resolved house rules
    prefix: str = "rules"  # finding-code prefix (the system)
    unit: str = "pts"  # the points unit in messages ("AP")
    default_loc: tuple | None = None
    pack_hint: str = "a pack"
    # the compiled ruleset of the catalog (``builder.rules.compiled``); None: remember nothing
    ruleset: Any = field(default=None, repr=False, compare=False)
    session: Any = field(default=None, repr=False, compare=False)  # the last evaluation's items
    # the catalog's house rules by id (each with ``default`` and ``source_for(value)``): a bound
    # set by a house rule's alternative cites that alternative's lines
    house_rules: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def source(self, r, bv: BoundValue) -> str | None:
        """Where the rulebook gives the bound ``bv`` of restriction ``r``: the lines of the
        alternative a house rule agreed, else the restriction's own."""
        for p in bv.params:
            hr = self.house_rules.get(p)
            if hr is not None and p in self.rules and self.rules[p] != hr.default:
                alt = hr.source_for(self.rules[p])
                if alt:
                    return alt
        return r.source

    def value(self, name: str) -> Fraction:
        if name == "limit":
            return _frac(self.limit)
        if name in self.values:
            return _frac(self.values[name][0])
        raise KeyError(name)


# -- numbers ---------------------------------------------------------------------------


def _frac(x) -> Fraction:
    if isinstance(x, Fraction):
        return x
    if isinstance(x, float):
        return Fraction(x).limit_denominator(10000)
    return Fraction(x)


def exact_number(x):
    """``x`` as an exact number: an int when integral, else a Fraction (same results, faster sums)."""
    if type(x) is int:
        return x
    if not isinstance(x, Fraction):
        x = _frac(x)
    return x.numerator if x.denominator == 1 else x


def fmt_num(x) -> str:
    if type(x) is int:
        return str(x)
    if isinstance(x, bool):
        return str(x).lower()
    if isinstance(x, (Fraction, float)):
        f = _frac(x)
        if f.denominator == 1:
            return str(f.numerator)
        return f"{float(f):.2f}".rstrip("0").rstrip(".")
    return str(x)


def plain(x):
    """A JSON-friendly number."""
    if type(x) is int:
        return x
    if isinstance(x, Fraction):
        return x.numerator if x.denominator == 1 else round(float(x), 4)
    return x


def path_text(loc) -> str:
    if not loc:
        return "list"
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


# -- selectors ---------------------------------------------------------------------------

_NORMALIZED_MAX = 20001
_NORMALIZED: dict[str, str] = state.cache(
    "rules.normalized_names", bound=_NORMALIZED_MAX, lifetime=state.VALUE, doc="a selector's wanted name, normalized"
)


def normalize_value(v):
    """``v`` normalized (``builder.names.normalize``) when it is a text, else as it is."""
    if not isinstance(v, str):
        return v
    hit = _NORMALIZED.get(v)
    if hit is None:
        if len(_NORMALIZED) >= _NORMALIZED_MAX:
            _NORMALIZED.clear()
        hit = _NORMALIZED[v] = normalize(v)
    return hit


def compile_selector(sel: dict) -> dict:
    """The selector with its wanted names normalized (the ruleset keeps a restriction's)."""
    out: dict = {}
    for key, want in sel.items():
        if key in ("any", "all"):
            out[key] = [compile_selector(s) for s in want]
        elif key == "not":
            out[key] = compile_selector(want)
        elif key == "house_rule" or isinstance(want, dict):
            out[key] = want
        elif isinstance(want, list):
            out[key] = [w if isinstance(w, str) and w.startswith("$") else normalize_value(w) for w in want]
        else:
            out[key] = want if isinstance(want, str) and want.startswith("$") else normalize_value(want)
    return out


def _expect(v, ctx_facts: dict):
    if isinstance(v, str) and v.startswith("$"):
        return normalize_value(ctx_facts.get(v[1:]))
    return v


def _eq(fact, want) -> bool:
    """``want`` is normalized; string facts are compared normalized."""
    if isinstance(fact, (set, frozenset, list, tuple)):
        return want in fact if isinstance(fact, (set, frozenset)) else any(normalize_value(f) == want for f in fact)
    if isinstance(want, bool) or isinstance(fact, bool):
        return fact is want or fact == want
    return fact == want  # string facts are normalized by the system (see Item)


def match(sel: dict, facts: dict, ctx_facts: dict, rules: dict | None = None):
    """Three-valued match: ``(True|False|None, unknown_fields)``. None means "cannot tell"."""
    return _match(compile_selector(sel), facts, ctx_facts, rules)


def _match(sel: dict, facts: dict, ctx_facts: dict, rules: dict | None = None):
    unknown: list[str] = []
    result: bool | None = True
    for key, want in sel.items():
        if key == "any":
            sub = [_match(s, facts, ctx_facts, rules) for s in want]
            if any(r is True for r, _ in sub):
                r = True
            elif any(r is None for r, _ in sub):
                r = None
                for _, u in sub:
                    unknown += u
            else:
                r = False
        elif key == "all":
            r = True
            for s in want:
                rr, uu = _match(s, facts, ctx_facts, rules)
                if rr is False:
                    r = False
                    break
                if rr is None:
                    r = None
                    unknown += uu
        elif key == "not":
            rr, uu = _match(want, facts, ctx_facts, rules)
            r = None if rr is None else not rr
            unknown += uu
        elif key == "house_rule":
            r = all(_eq((rules or {}).get(k), normalize_value(v)) for k, v in want.items())
        else:
            fact = facts.get(key, _MISSING)
            if fact is _MISSING:
                fact = Unknown(key)
            if isinstance(fact, Unknown):
                r = None
                unknown.append(fact.field)
            elif isinstance(want, dict):
                try:
                    x = float(fact)
                    r = (want.get("min") is None or x >= float(_expect(want["min"], ctx_facts))) and (
                        want.get("max") is None or x <= float(_expect(want["max"], ctx_facts))
                    )
                except (TypeError, ValueError):
                    r = False
            elif isinstance(want, list):
                r = any(_eq(fact, _expect(w, ctx_facts)) for w in want)
            else:
                r = _eq(fact, _expect(want, ctx_facts))
        if r is False:
            return False, []
        if r is None:
            result = None
    return result, (unknown if result is None else [])


_MISSING = object()


# -- bounds ---------------------------------------------------------------------------------

BASE_NAMES = {"limit": N_("the battle size"), "spent": N_("points spent")}


def catalog_text(text: str | None) -> str:
    """A word or phrase from a catalog (a restriction's label, noun or message, the points
    unit) as a message: ``scripts/i18n.py extract`` takes these from the catalogs into the
    ``findings`` templates, so it is translated where it is shown like any marked string."""
    return Text(text) if text else (text or "")


@dataclass
class BoundValue:
    value: Fraction
    text: str  # "50% of 200 AP = 100 AP"
    base: str | None  # "50% of 200 AP"
    params: list[str]


def _num(x, ctx: Context, used: list[str]) -> Fraction:
    if model_kind(x) == "Param":
        used.append(x.param)
        if x.param in ctx.rules:
            v = ctx.rules[x.param]
        elif x.default is not None:
            v = x.default
        else:
            raise KeyError(x.param)
        if isinstance(v, bool) or not isinstance(v, (int, float, Fraction)):
            raise ValueError(L_("house rule '{param}' is not a number ({value})", param=x.param, value=repr(v)))
        return _frac(v)
    return _frac(x)


def eval_bound(b, ctx: Context, measure_unit: str) -> BoundValue:
    used: list[str] = []
    v: Fraction | None
    if model_kind(b) != "BoundExpr":
        v = _num(b, ctx, used)
        txt: str = _amount(v, measure_unit)
        if model_kind(b) == "Param":
            txt = L_("{bound} (house rule {param})", bound=txt, param=b.param)
        return BoundValue(v, txt, None, used)
    unit = ctx.unit
    base_v = ctx.value(b.of)
    base_txt = _amount(base_v, unit)
    base: str | None
    if b.value is not None:
        v = _num(b.value, ctx, used)
        text, base = _amount(v, measure_unit), None
    elif b.percent is not None:
        p = _num(b.percent, ctx, used)
        v = p * base_v / 100
        base = L_("{percent}% of {base}", percent=fmt_num(p), base=base_txt)
        text = _equals(base, v, measure_unit)
    elif b.per is not None:
        per = _num(b.per, ctx, used)
        times = _num(b.times, ctx, used)
        offset = _num(b.offset, ctx, used)
        q = base_v / per
        if b.round == "up":
            q = Fraction(math.ceil(q))
        elif b.round == "down":
            q = Fraction(math.floor(q))
        v = q * times + offset
        base = L_("{times} per {per} of {base}", times=fmt_num(times), per=_amount(per, unit), base=base_txt)
        if b.round == "up":
            base = L_("{base} rounded up", base=base)
        elif b.round == "down":
            base = L_("{base} rounded down", base=base)
        if offset:
            base = Text(
                "{base} {sign} {offset}",
                {"base": base, "sign": "+" if offset > 0 else "-", "offset": fmt_num(abs(offset))},
            )
        text = _equals(base, v, measure_unit)
        note = ctx.values.get(b.of, (None, ""))[1] if isinstance(b.of, str) else ""
        if note and note[:1].isdigit():  # a size read otherwise than written: say why
            text = Text("{text} ({note})", {"text": text, "note": note})
    elif b.table is None:
        v = base_v
        name = BASE_NAMES.get(b.of) or (ctx.values[b.of][1] if b.of in ctx.values else b.of)
        text = Text("{base} ({name})", {"base": base_txt, "name": Text(name)})
        base = None
    else:
        v = None
        for row in b.table:
            lo = row.min if row.min is not None else -math.inf
            hi = row.max if row.max is not None else math.inf
            if lo <= base_v <= hi:
                v = _num(row.value, ctx, used)
                break
        if v is None:
            raise LookupError(L_("no table row for {base}", base=base_txt))
        base = L_("table at {base}", base=base_txt)
        text = L_("{bound} at {base}", bound=_amount(v, measure_unit), base=base_txt)
    clamp: list[str] = []
    if b.at_least is not None:
        lo = _num(b.at_least, ctx, used)
        if v < lo:
            v = lo
        clamp.append(L_("at least {n}", n=fmt_num(lo)))
    if b.at_most is not None:
        hi = _num(b.at_most, ctx, used)
        if v > hi:
            v = hi
        clamp.append(L_("at most {n}", n=fmt_num(hi)))
    if clamp:
        both = clamp[0] if len(clamp) == 1 else Text("{a}, {b}", {"a": clamp[0], "b": clamp[1]})
        base = Text("{base}, {clamp}", {"base": base, "clamp": both}) if base else both
        text = _equals(base, v, measure_unit)
    shown = [p for p in used if p in ctx.rules]
    if shown:
        rules = ", ".join(f"{p}={fmt_num(ctx.rules[p])}" for p in shown)
        base = L_("{bound} (house rule {rules})", bound=base or text, rules=rules)
    return BoundValue(v, text, base, used)


def _amount(v: Any, unit: str) -> str:
    """A number with its unit ("100 AP"; a unit of "" is a bare number)."""
    unit = unit.strip()
    return Text("{n} {unit}", {"n": fmt_num(v), "unit": catalog_text(unit)}) if unit else fmt_num(v)


def _equals(base: str, v: Any, unit: str) -> str:
    return Text("{base} = {bound}", {"base": base, "bound": _amount(v, unit)})


# -- evaluation ----------------------------------------------------------------------------
#
# Catalogs are immutable once loaded and reused in-process, so what depends only on a
# restriction (its compiled selectors, the context values it reads) is worked out once per
# restriction, and results that depend on a restriction plus a few context values
# (activation, bounds, selector matches of items with a ``fkey``) are remembered under
# exactly those values. All of it lives in the catalog's ruleset (``ctx.ruleset``,
# ``builder.rules.compiled``); without one, an evaluation remembers for itself only.

_MISSING_RULE = object()
_MEMO_CAP = 50000


class _Rule:
    """What the engine remembers about one restriction object."""

    __slots__ = ("bases", "bound_memo", "r", "sel", "specs", "unless", "when")

    def __init__(self, r):
        self.r = r
        self.sel = compile_selector(r.of) if r.of else None
        self.when = compile_selector(r.when) if r.when else None
        self.unless = compile_selector(r.unless) if r.unless else None
        self.specs = tuple(
            (kind, b) for kind, b in (("min", r.min), ("max", r.max), ("exactly", r.exactly)) if b is not None
        )
        self.bases = tuple(dict.fromkeys(b.of for _, b in self.specs if hasattr(b, "of")))
        self.bound_memo: dict = {}


def _rule(r, rs) -> _Rule:
    """What the ruleset ``rs`` compiled from restriction ``r`` (by its id, for this very object)."""
    info = rs.rules.get(r.id)
    if info is None or info.r is not r:
        info = rs.rules[r.id] = _Rule(r)
    return info


def _ruleset(ctx: Context):
    rs = ctx.ruleset
    if rs is None:
        rs = ctx.ruleset = Ruleset(None, None)
    return rs


class _Session:
    """One evaluation: the context's interned keys and each item's memo row."""

    __slots__ = ("bases", "counted", "ctx", "fk", "items", "rk", "rows", "rs")

    def __init__(self, ctx: Context, items: list[Item]):
        self.ctx = ctx
        self.rs = rs = _ruleset(ctx)
        self.items = items
        self.bases: dict[str, Any] = {}
        self.counted: tuple | None = None  # (active set, items each of its restrictions counts)
        try:
            # whole contexts (list facts, house rules) as small ints: hashed once per list
            self.fk = rs.intern(tuple((k, type(v), v) for k, v in ctx.facts.items()))
            self.rk = rs.intern(tuple((k, type(v), v) for k, v in ctx.rules.items()))
        except TypeError:  # an unhashable fact or rule value: nothing is remembered
            self.fk = self.rk = None
        rows = []
        memo = rs.rows
        if len(memo) > _MEMO_CAP:
            memo.clear()
        for it in items:
            row = None
            if it.fkey is not None and self.fk is not None:
                key = (it.fkey, self.fk, self.rk)
                try:
                    row = memo.get(key)
                    if row is None:
                        row = memo[key] = {}
                except TypeError:
                    row = None
            rows.append(row)
        self.rows = rows

    def match(self, info: _Rule, idx: int, it: Item):
        """``match(r.of, ...)`` for the item at ``idx``, remembered per (item facts, context)."""
        sel = info.sel
        if sel is None:  # a restriction without 'of' counts every item
            return True, []
        row = self.rows[idx]
        if row is None:
            return _match(sel, it.facts, self.ctx.facts, self.ctx.rules)
        hit = row.get(info)
        if hit is None:
            ok, unknown = _match(sel, it.facts, self.ctx.facts, self.ctx.rules)
            hit = row[info] = (ok, tuple(unknown))
        return hit

    def hits(self, aset: _ActiveSet, stable: bool):
        """For each active restriction: the items it counts and ``(item, unknown fields)`` it cannot tell.

        Worked out once per (item facts, context, active set) and remembered in the item's row.
        """
        n = len(aset.rules)
        counted: list[list[Item]] = [[] for _ in range(n)]
        unknown: list[list] = [[] for _ in range(n)]
        infos = aset.infos
        active = aset
        key = aset
        for i, it in enumerate(self.items):
            row = self.rows[i] if stable else None
            h = None
            if row is not None:
                ent = row.get(key)
                if ent is not None and ent[0] is active:
                    h = ent[1]
            if h is None:
                out = []
                for j, info in enumerate(infos):
                    ok, unk = self.match(info, i, it) if info.sel is not None else (True, ())
                    if ok is not False:
                        out.append((j, ok, tuple(unk)))
                h = tuple(out)
                if row is not None:
                    row[key] = (active, h)
            for j, ok, unk in h:
                if ok is True:
                    counted[j].append(it)
                else:
                    unknown[j].append((it, unk))
        return counted, unknown

    def base(self, name: str):
        hit = self.bases.get(name, _MISSING_RULE)
        if hit is _MISSING_RULE:
            ctx = self.ctx
            if name == "limit":
                hit = ("limit", type(ctx.limit), ctx.limit)
            elif name in ctx.values:
                v = ctx.values[name]
                hit = (type(v[0]), v[0], v[1])
            else:
                hit = None
            self.bases[name] = hit
        return hit


def _session(ctx: Context, items: list[Item]) -> _Session:
    sess = ctx.session
    if sess is not None and sess.items is items and sess.ctx is ctx:
        return sess
    return _Session(ctx, items)


class _ActiveSet:
    """The restrictions active in one context, with what evaluating them needs."""

    __slots__ = ("bases", "index", "infos", "plans", "restrictions", "rules", "shape")

    def __init__(self, restrictions, rules: tuple, rs):
        self.restrictions = restrictions
        self.rules = rules
        self.shape = tuple((r, r.for_each, r.count, bool(r.plus)) for r in rules)
        self.index = {r.id: j for j, r in enumerate(rules)}
        self.infos = tuple(_rule(r, rs) for r in rules)
        self.bases = tuple(dict.fromkeys(n for info in self.infos for n in info.bases))
        self.plans: dict = {}

    def plan(self, ctx: Context, sess: _Session) -> list:
        """Each restriction's ``(bounds state, bounds)``; remembered per house rules, unit and bases."""
        key = None
        if sess.rk is not None:
            key = (sess.rk, ctx.unit, tuple(sess.base(n) for n in self.bases))
            try:
                hit = self.plans.get(key)
            except TypeError:
                key, hit = None, None
            if hit is not None:
                return hit
        out = [_bounds(r, ctx, f" {ctx.unit}" if r.count == "points" else "", sess) for r in self.rules]
        if key is not None:
            if len(self.plans) > _MEMO_CAP:
                self.plans.clear()
            self.plans[key] = out
        return out


def active_restrictions(restrictions: Iterable, ctx: Context) -> list:
    """Steps 1 and 2 of the defined order: activation, then replacement."""
    return list(_active(restrictions, ctx, ctx.session)[0].rules)


def _active(restrictions: Iterable, ctx: Context, sess: _Session | None) -> tuple[_ActiveSet, bool]:
    """The active restrictions and whether that set is the remembered one (stable identity)."""
    if sess is None:
        sess = _Session(ctx, [])
    rs = sess.rs
    key = None
    if isinstance(restrictions, list) and sess.fk is not None:
        key = (sess.fk, sess.rk)
        hit = rs.active.get(key)
        if hit is not None and hit[0] is restrictions:
            return hit[1], True
    active = []
    for r in restrictions:
        info = _rule(r, rs)
        if info.when is not None:
            ok, _ = _match(info.when, ctx.facts, ctx.facts, ctx.rules)
            if ok is not True:
                continue
        if info.unless is not None:
            ok, _ = _match(info.unless, ctx.facts, ctx.facts, ctx.rules)
            if ok is True:
                continue
        active.append(r)
    replaced = {rid for r in active for rid in r.replaces}
    out = _ActiveSet(restrictions, tuple(r for r in active if r.id not in replaced), rs)
    if key is not None:
        if len(rs.active) > _MEMO_CAP:
            rs.active.clear()
        rs.active[key] = (restrictions, out)
    return out, key is not None


_NOUN = {"models": N_("models"), "units": N_("units"), "profiles": N_("profiles")}
N_("model"), N_("unit"), N_("profile")  # the nouns for one (``_value_text``)


def _value_text(n, measure: str, noun: str | None, ctx: Context) -> str:
    if measure == "points":
        return _amount(n, ctx.unit)
    word = noun or _NOUN[measure]
    if n == 1 and word.endswith("s"):
        word = word[:-1]
    return Text("{n} {noun}", {"n": fmt_num(n), "noun": catalog_text(word)})


def _measure(measure: str, items: list[Item]) -> Fraction:
    return Fraction(measure_exact(measure, items))


def measure_exact(measure: str, items: list[Item]):
    """``_measure`` as an int when integral (else a Fraction)."""
    if measure == "models":
        return sum(i.models for i in items)
    if measure == "points":
        total = 0
        for i in items:
            p = i.points
            total += p if type(p) is int else exact_number(p)
        return exact_number(total)
    if measure == "profiles":
        return len({i.key for i in items})
    return len(items)


def matching(r, items: list[Item], ctx: Context) -> list[Item]:
    """The items the restriction's ``of`` selector certainly holds for."""
    if not r.of:
        return list(items)
    sess = _session(ctx, items)
    if sess.counted is not None:
        aset, counted = sess.counted
        j = aset.index.get(r.id)
        if j is not None and aset.rules[j] is r:
            return list(counted[j])
    info = _rule(r, sess.rs)
    return [it for i, it in enumerate(items) if sess.match(info, i, it)[0] is True]


def evaluate(restrictions: Iterable, items: list[Item], ctx: Context) -> list[Finding]:
    """Apply the restrictions to the items; return findings in the defined order."""
    findings: list[Finding] = []
    gaps: dict[tuple[str, str], dict] = {}
    sess = _Session(ctx, items)
    ctx.session = sess  # reused by later questions about the same items
    aset, stable = _active(restrictions, ctx, sess)
    counted, unknown = sess.hits(aset, stable)
    sess.counted = (aset, counted)
    plan = aset.plan(ctx, sess)
    exact = exact_number
    for j, (r, for_each, count, has_plus) in enumerate(aset.shape):
        state, bounds = plan[j]
        if state != "ok":
            findings.append(_skipped(r, state, bounds, ctx))
            continue
        group = counted[j]
        if unknown[j]:
            _add_gaps(r, unknown[j], ctx, gaps, _decisive(r, for_each, count, group, unknown[j], bounds, ctx))
        groups: Sequence[tuple[Any, list[Item]]]
        if for_each == "list":
            groups = ((None, group),)
        elif for_each == "entry":
            if not group:
                continue
            groups = [(it, [it]) for it in group]
        else:
            groups = _group_by(for_each, group)
        plus: Sequence
        if has_plus:
            plus = _plus(r, ctx)
            extra = 0
            for p in plus:
                extra += p[0]
        else:
            plus, extra = (), 0
        for key, grp in groups:
            if count == "points":
                value = 0
                for it in grp:
                    p = it.points
                    value += p if type(p) is int else exact(p)
            elif count == "models":
                value = 0
                for it in grp:
                    value += it.models
            else:
                value = measure_exact(count, grp)
            if extra or type(value) is not int:
                value = exact(value + extra)
            for kind, bv, bound in bounds:
                if kind == "min":
                    if value >= bound:
                        continue
                elif kind == "max":
                    if value <= bound:
                        continue
                elif value == bound:
                    continue
                findings.append(_violation(r, kind, bv, bound, value, grp, plus, ctx, key))
    for (_key, fld), g in gaps.items():
        item = g["item"]
        rules = ", ".join(sorted(g["rules"]))
        where = L_(" (profile in {origin})", origin=item.origin) if item.origin else ""
        blocking = sorted(g.get("blocking", ()))
        hint = catalog_text(ctx.pack_hint)
        if blocking:  # a bound that decides legality cannot be evaluated: the list cannot be confirmed legal
            findings.append(
                Finding(
                    "error",
                    f"{ctx.prefix}.profile-incomplete",
                    L_(
                        "'{name}' has no '{field}' in its profile{where}, so {rules} cannot be checked and the "
                        "list cannot be confirmed legal; give '{field}' for '{name}' in {pack}",
                        name=item.name,
                        field=fld,
                        where=where,
                        rules=", ".join(blocking),
                        pack=hint,
                    ),
                    loc=item.loc,
                    counted=[item.describe(ctx.unit)],
                )
            )
            continue
        findings.append(
            Finding(
                "warning",
                f"{ctx.prefix}.profile-incomplete",
                L_(
                    "'{name}' has no '{field}' in its profile{where}, so {rules} cannot tell whether it counts; "
                    "give '{field}' for '{name}' in {pack}",
                    name=item.name,
                    field=fld,
                    where=where,
                    rules=rules,
                    pack=hint,
                ),
                loc=item.loc,
                counted=[item.describe(ctx.unit)],
            )
        )
    return findings


def _add_gaps(r, unknown: list, ctx: Context, gaps: dict, decisive: bool = False) -> None:
    code = f"{ctx.prefix}.{r.code}"
    for it, unk in unknown:
        for fld in unk:
            g = gaps.get((it.key, fld))
            if g is None:
                g = gaps[(it.key, fld)] = {"item": it, "rules": set()}
            g["rules"].add(code)
            if decisive and r.severity == "error":
                g.setdefault("blocking", set()).add(code)


def _passes(kind: str, value, bound) -> bool:
    if kind == "min":
        return value >= bound
    if kind == "max":
        return value <= bound
    return value == bound


def _decisive(r, for_each, count, group: list, unknown: list, bounds, ctx: Context) -> bool:
    """Whether the items the rule cannot tell about could change its verdict.

    For a rule over the whole list the verdict is known when it is the same with none and with
    all of those items counted (a minimum already met, a maximum not reached even with them);
    otherwise, and for rules per entry or per group, the missing data decides.
    """
    if for_each != "list" or not bounds or any(kind == "exactly" for kind, _, _ in bounds):
        return True
    extra = sum(exact_number(ctx.value(p)) for p in r.plus if p in ctx.values) if r.plus else 0
    with_them = list(group) + [it for it, _ in unknown]

    def value(items):
        if count == "points":
            return exact_number(sum(exact_number(it.points) for it in items) + extra)
        if count == "models":
            return exact_number(sum(it.models for it in items) + extra)
        return exact_number(measure_exact(count, items) + extra)

    low, high = value(group), value(with_them)
    return any(_passes(kind, low, bound) != _passes(kind, high, bound) for kind, _, bound in bounds)


def _group_by(fact: str, counted: list[Item]) -> list[tuple[Any, list[Item]]]:
    groups: dict[Any, list[Item]] = {}
    for it in counted:
        v = it.facts.get(fact)
        if isinstance(v, Unknown) or v is None:
            continue
        if isinstance(v, (set, frozenset, list, tuple)):
            for x in v:
                groups.setdefault(normalize_value(x), []).append(it)
        else:
            groups.setdefault(normalize_value(v), []).append(it)
    return list(groups.items())


def _plus(r, ctx: Context) -> list:
    return [(exact_number(ctx.value(p)), ctx.values[p][1], ctx.values[p][2]) for p in r.plus if p in ctx.values]


def _skipped(r, state: str, reason, ctx: Context) -> Finding:
    if state == "lookup":
        return Finding(
            "warning",
            f"{ctx.prefix}.{r.code}",
            L_(
                "{label}: cannot apply this rule ({reason}); check it by hand",
                label=catalog_text(r.label),
                reason=reason,
            ),
            loc=ctx.default_loc,
            source=r.source,
        )
    return Finding(
        "warning",
        f"{ctx.prefix}.{r.code}",
        L_(
            "{label}: house rule {param} is missing or not a number; rule skipped",
            label=catalog_text(r.label),
            param=reason,
        ),
        loc=ctx.default_loc,
        source=r.source,
    )


def _groups(
    r, items: list[Item], ctx: Context, gaps: dict, sess: _Session | None = None, hit=None
) -> list[tuple[Any, list[Item]]]:
    counted: list[Item] = []
    if hit is not None:
        counted = hit[0]
        if hit[1]:
            _add_gaps(r, hit[1], ctx, gaps)
    elif r.of:
        if sess is None:
            sess = _session(ctx, items)
        info = _rule(r, sess.rs)
        code = None
        for i, it in enumerate(items):
            ok, unknown = sess.match(info, i, it)
            if ok is True:
                counted.append(it)
            elif ok is None:
                if code is None:
                    code = f"{ctx.prefix}.{r.code}"
                for fld in unknown:
                    g = gaps.get((it.key, fld))
                    if g is None:
                        g = gaps[(it.key, fld)] = {"item": it, "rules": set()}
                    g["rules"].add(code)
    else:
        counted = list(items)
    if r.for_each == "list":
        return [(None, counted)]
    if r.for_each == "entry":
        return [(it, [it]) for it in counted]
    return _group_by(r.for_each, counted)


def _bounds(r, ctx: Context, measure_unit: str, sess: _Session | None = None):
    """``("ok", [(kind, BoundValue, exact value)])`` or ``(failure kind, reason)``; remembered."""
    info = _rule(r, sess.rs if sess is not None else _ruleset(ctx))
    key = None
    if sess is not None and sess.rk is not None:
        key = (sess.rk, ctx.unit, measure_unit, tuple(sess.base(n) for n in info.bases))
        try:
            hit = info.bound_memo.get(key)
        except TypeError:
            key, hit = None, None
        if hit is not None:
            return hit
    try:
        out = (
            "ok",
            [
                (kind, bv, exact_number(bv.value))
                for kind, bv in ((kind, eval_bound(b, ctx, measure_unit)) for kind, b in info.specs)
            ],
        )
    except LookupError as exc:
        out = ("lookup", exc.args[0])
    except (KeyError, ValueError) as exc:
        out = ("param", exc.args[0])
    if key is not None:
        if len(info.bound_memo) > _MEMO_CAP:
            info.bound_memo.clear()
        info.bound_memo[key] = out
    return out


def _violation(r, kind: str, bv: BoundValue, bound, value, group: list[Item], plus, ctx: Context, key) -> Finding:
    op = "<" if (kind == "min" or (kind == "exactly" and value < bound)) else ">"
    if kind == "exactly":
        op = "!="
    loc = _blame(r, kind, group, plus, bound, ctx, key)
    counted: list[str] = [
        Text("{label}: {amount}", {"label": catalog_text(lbl), "amount": _amount(v, ctx.unit)}) for v, lbl, _ in plus
    ]
    counted += [it.describe(ctx.unit) for it in group]
    first = group[0] if group else None
    fields: dict[str, Any] = {
        "label": catalog_text(r.label),
        "value": fmt_num(value),
        "bound": fmt_num(bound),
        "value_text": _value_text(value, r.count, r.noun, ctx),
        "op": op,
        "bound_text": bv.text,
        "base": bv.base or bv.text,
        "kind": kind,
        "item": first.name if first else "",
        "excess": fmt_num(abs(value - bound)),
        **{k: v for k, v in ctx.facts.items() if isinstance(v, (str, int, float))},
    }
    msg: str
    if r.message:
        try:
            msg = Text(r.message, fields)  # the catalog's message, translated like a marked one
        except (KeyError, IndexError, ValueError):
            msg = catalog_text(r.message)
    elif r.noun and r.count != "points":
        msg = Text("{value_text} {op} {bound_text}", fields)
    else:
        msg = Text("{label} {value_text} {op} {bound_text}", fields)
    if r.hint:
        msg = Text("{message} ({hint})", {"message": msg, "hint": catalog_text(r.hint)})
    return Finding(
        r.severity,
        f"{ctx.prefix}.{r.code}",
        msg,
        loc=loc,
        source=ctx.source(r, bv),
        value=plain(value),
        bound=plain(bv.value),
        base=bv.base or bv.text,
        counted=counted,
    )


def _blame(r, kind, group: list[Item], plus, bound, ctx: Context, key) -> tuple | None:
    """The entry a finding points at: where a max was first exceeded, else the rule's place."""
    if r.for_each == "entry" and group:
        return group[0].loc
    if kind in ("max", "exactly") and group:
        total = 0
        for p in plus:
            total += exact_number(p[0])
        if total > bound:
            for _, _, loc in plus:
                if loc:
                    return loc
        for it in group:
            if r.count == "points":
                total += exact_number(it.points)
            elif r.count == "models":
                total += it.models
            else:
                total += 1
            if total > bound:
                return it.loc
        return group[-1].loc
    if r.at:
        return tuple(r.at)
    if group and r.for_each not in ("list", "entry"):
        return group[0].loc
    return ctx.default_loc


def limit_report(restrictions: Iterable, items: list[Item], ctx: Context, detail: bool = False) -> list[dict]:
    """Every active restriction measured as ``evaluate`` measures it, broken or not: one row per
    bound and group with the value, the bound and the room left.

    ``detail``: each row also names its restriction (``id``, ``name``, ``for_each``), and a
    restriction counted per group that has no group gets one row per bound with ``value`` None.

    ``room`` is how much more the list may add before a maximum is broken (bound - value), how much
    it has above a minimum (value - bound; negative: short by that much), or the distance to an
    exact bound. Rules that cannot be applied (a missing house rule, no table row) are left out.
    """
    rows: list[dict] = []
    gaps: dict = {}
    sess = _session(ctx, items)
    for r in active_restrictions(restrictions, ctx):
        measure_unit = f" {ctx.unit}" if r.count == "points" else ""
        state, bounds = _bounds(r, ctx, measure_unit, sess)
        if state != "ok":
            continue
        extra = 0
        for p in _plus(r, ctx):
            extra += p[0]
        groups = _groups(r, items, ctx, gaps, sess)
        if detail and not groups:
            for kind, bv, bound in bounds:
                rows.append(
                    {
                        "code": f"{ctx.prefix}.{r.code}",
                        "label": catalog_text(r.label),
                        "kind": kind,
                        "count": r.count,
                        "group": None,
                        "value": None,
                        "bound": plain(bound),
                        "bound_text": bv.text,
                        "room": None,
                        "ok": True,
                        "unit": None,
                        "source": ctx.source(r, bv),
                        "id": r.id,
                        "name": r.name,
                        "for_each": r.for_each,
                    }
                )
        for key, group in groups:
            value = exact_number(measure_exact(r.count, group) + extra)
            for kind, bv, bound in bounds:
                if kind == "max":
                    room, ok = bound - value, value <= bound
                elif kind == "min":
                    room, ok = value - bound, value >= bound
                else:
                    room, ok = bound - value, value == bound
                rows.append(
                    {
                        "code": f"{ctx.prefix}.{r.code}",
                        "label": catalog_text(r.label),
                        "kind": kind,
                        "count": r.count,
                        "group": None if key is None else (key.name if isinstance(key, Item) else str(key)),
                        "value": plain(value),
                        "bound": plain(bound),
                        "bound_text": bv.text,
                        "room": plain(exact_number(room)),
                        "ok": ok,
                        "unit": ctx.unit if r.count == "points" else (r.noun or _NOUN.get(r.count, r.count)),
                        "source": ctx.source(r, bv),
                    }
                )
                if detail:
                    rows[-1].update(
                        id=r.id,
                        name=r.name,
                        for_each=r.for_each,
                        counted=[
                            Text("{label}: {amount}", {"label": catalog_text(lbl), "amount": _amount(v, ctx.unit)})
                            for v, lbl, _ in _plus(r, ctx)
                        ]
                        + [it.describe(ctx.unit) for it in group],
                    )
    return rows


__all__ = [
    "BASE_NAMES",
    "BoundValue",
    "Context",
    "Item",
    "Unknown",
    "active_restrictions",
    "compile_selector",
    "eval_bound",
    "evaluate",
    "exact_number",
    "fmt_num",
    "limit_report",
    "match",
    "matching",
    "measure_exact",
    "normalize_value",
    "path_text",
    "plain",
]
