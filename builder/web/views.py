"""What the pages show of a list: header, entries with their findings, catalog options.

Plain data (dicts and lists) built from the library's check results, so that the HTML
templates and the JSON API show the same thing.
"""

from __future__ import annotations

import hashlib
from fractions import Fraction
from pathlib import Path

from builder import state
from builder.catalog.loader import load_catalog
from builder.check import check_doc
from builder.findings import Summary
from builder.i18n import L_, SOURCE_LANGUAGE, _, current_language
from builder.i18n import tr as translate_text
from builder.kit.numbers import plain_value
from builder.lists.document import parse_list
from builder.lists.options import fold as library_fold
from builder.lists.options import options as library_options
from builder.rulebooks import format_source
from builder.rulebooks import humanize as library_humanize
from builder.systems import get
from builder.web.catalog_view import holdings, profile_text, shape
from builder.web.editing import version_of
from builder.web.guide import guide
from builder.web.words import tr
from builder.web.workspace import total_text


def game(system: str):
    """The ``GameSystem`` of a list's system."""

    return get(system)


def pretty_source(src) -> str:
    """Rulebook references as a person reads them: "Kensei rulebook, Army leaders (line 5912)"."""

    return format_source(str(src)) if src else ""


def humanize(text) -> str:

    return library_humanize(str(text)) if text else ""


def fold(text: str) -> str:
    """Accent- and case-insensitive form for search: ``Hōjō`` -> ``hojo``."""

    return library_fold(text)


def num(v):
    """A number as the pages show it: whole, or with one decimal place."""
    return plain_value(v, 1)


def finding_text(f: object) -> str:
    """A finding's text as the pages show it, in the page's language: the one place the web
    builder words a finding (``f``: a ``Finding``, or the message of one, such as the reason a
    catalog entry cannot be added): English as it always read, another language from the
    finding's template and parameters (``Finding.translated()``, ``builder.i18n.tr``)."""
    if current_language() == SOURCE_LANGUAGE:
        return humanize(getattr(f, "message", f))
    translated = getattr(f, "translated", None)
    if callable(translated):
        return str(translated())
    return humanize(translate_text(f if isinstance(f, str) else getattr(f, "message", str(f))))


def finding_view(f) -> dict:
    return {
        "severity": f.severity,
        "code": f.code,
        "message": finding_text(f),
        "source": pretty_source(f.source),
        "value": num(f.value) if f.value is not None else None,
        "bound": num(f.bound) if f.bound is not None else None,
        "base": f.base,
        "counted": list(f.counted),
        "line": f.line,
        "path": f.path,
        "gap": _gap(f),
    }


def _gap(f) -> str:
    v, b = f.value, f.bound
    if (
        not isinstance(v, (int, float, Fraction))
        or not isinstance(b, (int, float, Fraction))
        or isinstance(v, bool)
        or v == b
    ):
        return ""
    n = num(abs(v - b))
    return _("over by {n}").format(n=n) if v > b else _("short by {n}").format(n=n)


def verdict(res) -> str:
    c = res.counts()
    return "illegal" if c["error"] else ("warnings" if c["warning"] else "legal")


def header(system: str, res) -> dict:
    s: Summary = res.summary if res.summary else {}
    t = game(system).view.tally(s)
    h = {
        "system": system,
        "verdict": verdict(res),
        "total_text": total_text(system, s),
        "counts": res.counts(),
        "total": num(t["total"]),
        "limit": num(t["limit"]),
        "left": None,
        "unit": t["unit"],
        "more": t.get("more") or "",
    }
    if isinstance(h["total"], (int, float)) and isinstance(h["limit"], (int, float)):
        h["left"] = num(h["limit"] - h["total"])
    h["left_text"] = game(system).view.left_text(t, res.findings)
    return h


def _loc_key(loc):
    return tuple(loc) if loc else ()


def entries(doc, catalog, res) -> tuple[list[dict], list[dict]]:
    """(entries of the list with their own findings, findings about the whole list)."""
    system = doc.system
    data = doc.data
    findings = [finding_view(f) | {"_loc": _loc_key(f.loc)} for f in res.findings]
    used: set[int] = set()
    out: list[dict] = []

    def take(pred):
        got = []
        for i, f in enumerate(findings):
            if i not in used and pred(f["_loc"]):
                used.add(i)
                got.append(f)
        return got

    gs = game(system)
    if gs.units is not None:
        key = gs.entries[0]
        for i, u in enumerate(gs.units.unit_rows(doc, catalog, res.house_rules)):
            known = u["cost"] is not None
            out.append(
                {
                    "index": i,
                    "key": u["key"],
                    "name": u["name"],
                    "id": u["id"],
                    "section": gs.browse.sections[0],
                    "count": u["models"],
                    "count_label": gs.view.count_words[1],
                    "cost": num(u["cost"]) if known else None,
                    "cost_text": gs.browse.cost_text(u["entry"], num(u["cost"])) if known else "",
                    "led_by": u["led_by"],
                    "standard": u["standard"],
                    "leader": u["leader"],
                    "general": u["general"],
                    "type": gs.browse.entry_type(u["entry"]),
                    "cls": u["cls"],
                    "detail": profile_text(u["entry"]),
                    "findings": take(lambda loc, i=i, f=key: len(loc) >= 2 and loc[0] == f and loc[1] == i),
                }
            )
    elif gs.players is not None:
        for seat in gs.players.seats(data):
            i = seat["index"]
            out.append(
                {
                    "index": i,
                    "key": str(i),
                    "name": seat["name"],
                    "id": None,
                    "section": None,
                    "count": None,
                    "count_label": "",
                    "seat": seat,
                    "type": "player",
                    "cost": None,
                    "cost_text": "",
                    "findings": take(lambda loc, i=i: len(loc) >= 2 and loc[0] == "players" and loc[1] == i),
                }
            )
    else:
        for field, section, items in gs.editing.held(data, catalog):
            for key, value in items:
                entry = catalog.find(section, str(key))
                count = (
                    int(value.get("count", 1))
                    if isinstance(value, dict)
                    else (int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 1)
                )
                fixed = field in gs.view.fixed_keys  # given by another choice (a hero's attribute cards)
                out.append(
                    {
                        "index": None,
                        "key": str(key),
                        "name": getattr(entry, "name", None) or str(key),
                        "id": getattr(entry, "id", None),
                        "section": section,
                        "field": field,
                        "count": count,
                        "count_label": "" if fixed else gs.view.count_words[1],
                        "attribute": fixed,
                        "cost": _cost(entry),
                        "cost_text": gs.browse.cost_text(entry, _cost(entry)),
                        "detail": gs.browse.entry_facts(entry) if entry is not None else "",
                        "type": gs.browse.entry_type(entry) or ("custom" if isinstance(value, dict) else ""),
                        "custom": isinstance(value, dict),
                        "findings": take(
                            lambda loc, key=key, field=field: (
                                len(loc) >= 2 and loc[0] == field and str(loc[1]) == str(key)
                            )
                        ),
                    }
                )
    rest = [f for i, f in enumerate(findings) if i not in used]
    for f in findings:
        f.pop("_loc", None)
    return out, rest


def _cost(entry):
    for attr in ("cost", "hero_points"):
        v = getattr(entry, attr, None)
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return num(v)
    return None


def entry_type(system: str, entry) -> str:
    """The type of a catalog entry as the game's browser shows it (empty: none)."""
    return game(system).browse.entry_type(entry)


# id of a catalog's model -> (model, the words of its house rules, a digest of those words)
_RULES_KEPT_MAX = 64  # catalogs
_RULES_KEPT: dict[int, tuple] = state.cache(
    "web.house_rule_words",
    bound=_RULES_KEPT_MAX,
    lifetime=state.CATALOG,
    doc="the words of a catalog's house rules, by its model",
)


def _rule_words(catalog) -> list[tuple]:
    """(rule, its words for the page) of each house rule of ``catalog``: worked out once per
    catalog (they depend on nothing else)."""
    return _rules_kept(catalog)[1]


def _rules_kept(catalog) -> tuple:
    model = catalog.model
    hit = _RULES_KEPT.get(id(model))
    if hit is not None and hit[0] is model:
        return hit
    out = []
    for h in model.house_rules:
        choices = [
            {
                "value": str(h.default).lower() if isinstance(h.default, bool) else str(h.default),
                "reading": humanize(h.reading),
                "default": True,
            }
        ]
        for a in h.alternatives:
            choices.append(
                {
                    "value": str(a.value).lower() if isinstance(a.value, bool) else str(a.value),
                    "reading": humanize(a.reading),
                    "default": False,
                    "source": pretty_source(a.source),
                }
            )
        out.append(
            (
                h,
                {
                    "id": h.id,
                    "title": h.title,
                    "description": humanize(h.description),
                    "choices": choices,
                    "boolean": isinstance(h.default, bool),
                    "source": pretty_source(h.source),
                },
            )
        )
    if len(_RULES_KEPT) >= _RULES_KEPT_MAX:  # catalogs come and go as packs change: keep the newest few
        _RULES_KEPT.clear()
    kept = _RULES_KEPT[id(model)] = (model, out, _digest(repr([w for _, w in out])))
    return kept


def _digest(text: str) -> str:

    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


def house_rules_key(catalog, rules: list[dict]) -> str:
    """A short key that changes whenever ``rules`` (``house_rules(catalog, ...)``) does: the
    words of the catalog's rules (worked out once) and each rule's current choice."""
    return _rules_kept(catalog)[2] + repr([(r["id"], r["current"], r["agreed"]) for r in rules])


def house_rules(catalog, res) -> list[dict]:
    agreed = res.house_rules_agreed or {}
    out = []
    for h, words in _rule_words(catalog):
        cur = res.house_rules.get(h.id, h.default)
        out.append(
            {**words, "current": str(cur).lower() if isinstance(cur, bool) else str(cur), "agreed": h.id in agreed}
        )
    return out


# -- the catalog beside the list ------------------------------------------------------------------


def catalog_entries(doc, catalog) -> list:
    """(section, entry) pairs the builder shows beside a list, one per name."""
    return game(doc.system).browse.entries(doc.data, catalog)


def options(
    ed,
    q: str = "",
    kind: str = "",
    max_cost=None,
    addable: str = "",
    limit: int = 80,
    others: bool = True,
    owned_only: bool = False,
    across: dict[tuple[str, str], int] | None = None,
) -> dict:
    """Catalog entries matching the filters, each with whether it can be added and, if not,
    the first rule that stops it (the library's ``options``); with what the player's collection
    holds of it, what the list uses and (``across``: what the workspace's lists use, by entry)
    what the workspace uses; ``owned_only``: only the entries the collection holds."""

    system = ed.system
    doc = ed.doc
    try:
        cost = float(max_cost) if max_cost not in (None, "") else None
    except ValueError:
        cost = None
    found = library_options(ed, search=q.strip() or None, max_cost=cost, only_ok=addable == "yes")
    gs = game(system)
    rows, types = [], set()
    seen = set()
    for o in found:
        entry = ed.catalog.find(o.section, o.id)
        if entry is not None and not gs.browse.offers(doc.data, entry):
            continue
        if (o.section, o.name) in seen:
            continue
        seen.add((o.section, o.name))
        t = gs.browse.entry_type(entry)
        types.add(t)
        if kind and t != kind:
            continue
        if addable == "no" and o.ok:
            continue
        extra = gs.browse.option_extra(doc.data, entry) if entry is not None else {}
        if extra.get("unit_cost") is not None:
            extra["unit_cost"] = num(extra["unit_cost"])
        cost = num(o.cost) if o.cost is not None else _cost(entry)
        each = translate_text(gs.browse.cost_text(entry, cost))
        rows.append(
            {
                "section": o.section,
                "id": o.id,
                "name": o.name,
                "type": t,
                "facts": gs.browse.entry_facts(entry) if entry is not None else "",
                "profile": profile_text(entry),
                "cost": cost,
                "cost_text": (
                    L_("{cost} for {counted}", cost=each, counted=gs.view.counted(o.count))
                    if each and o.count > 1
                    else each
                ),
                "unit_cost": None,
                "clans": [],
                "own_clan": False,
                **extra,
                "count": o.count,
                "can": o.ok,
                "reasons": [finding_text(o.reason)] if o.reason else [],
                "code": o.code,
                "warning": finding_text(o.warning) if o.warning else "",
                "after": _left_text(o.left, o.unit),
                "origin": o.origin,
                "example": ed.catalog.is_example(o.section, entry) if entry is not None else False,
            }
        )
    rows.sort(key=gs.browse.option_rank)
    problem = holdings(rows, doc, ed.catalog, across)
    if owned_only:
        rows = [r for r in rows if r["owned"]]
    rows, hidden = shape(rows, gs.browse.priced, others)
    if addable == "yes":
        rows = [r for r in rows if r["can"]]
    return {
        "rows": rows[:limit],
        "more": max(0, len(rows) - limit),
        "types": sorted(types - {""}),
        "others_hidden": hidden,
        "collection_problem": problem,
    }


def _left_text(left, unit) -> str:
    if left is None:
        return ""
    left = num(left)
    unit = tr(unit or "")
    if isinstance(left, (int, float)) and left < 0:
        return _("{n} {unit} over").format(n=-left, unit=unit).replace("  ", " ")
    return _("{n} {unit} left").format(n=left, unit=unit).replace("  ", " ")


def _msg(exc) -> str:
    lines = exc.lines()
    text = lines[0] if lines else str(exc)
    return text.removeprefix("daimyo: error: ")


def entry_detail(catalog, section: str, name: str) -> dict | None:
    e = catalog.find(section, name)
    if e is None:
        return None
    fields = []
    skip = {"id", "name", "source", "assumed", "aliases"}
    for k, v in e.model_dump(exclude_none=True).items():
        if k in skip or v in ([], {}, "", None):
            continue
        if isinstance(v, bool):
            v = _("yes") if v else _("no")
        elif isinstance(v, list):
            v = ", ".join(str(x) if not isinstance(x, dict) else ", ".join(f"{a} {b}" for a, b in x.items()) for x in v)
        elif isinstance(v, dict):
            v = ", ".join(f"{a}: {b}" for a, b in v.items())
        fields.append((k.replace("_", " "), str(v)))
    return {
        "name": e.name,
        "id": e.id,
        "section": section,
        "fields": fields,
        "source": pretty_source(getattr(e, "source", None)),
        "assumed": humanize(getattr(e, "assumed", None)),
        "aliases": list(getattr(e, "aliases", []) or []),
        "example": catalog.is_example(section, e) if hasattr(catalog, "is_example") else False,
    }


def list_view(rel: str, path: Path, text: str, known=None):
    """(doc, catalog, result, view dict) of a list file's text (``known``: its doc, catalog and
    check result, when the editor has them already)."""

    if known is not None:
        doc, catalog, res = known
    else:
        doc = parse_list(text, rel, base_dir=path.parent)
        catalog = load_catalog(doc.system, list(doc.packs))
        res = check_doc(doc, catalog=catalog)
    ents, general = entries(doc, catalog, res)
    rules = house_rules(catalog, res)
    view = {
        "path": rel,
        "system": doc.system,
        "name": doc.name or Path(rel).stem,
        "notes": doc.notes or "",
        "author": doc.author or "",
        "version": version_of(text),
        "header": header(doc.system, res),
        "entries": ents,
        "general_findings": general,
        "summary": {k: num(v) for k, v in res.summary.items()},
        "house_rules": rules,
        "house_rules_key": house_rules_key(catalog, rules),
        "settings": settings(doc, catalog),
        "standard_deck": game(doc.system).editing.published(doc.data),
        "resets_deck": "deck" in game(doc.system).settings.keys and not game(doc.system).editing.published(doc.data),
        "list_title": game(doc.system).view.list_title,
        "browse": bool(game(doc.system).browse.sections),
        "prints": game(doc.system).prints,
        "game_name": game(doc.system).name,
        **words(doc.system),
        "composition": composition(doc.system, res.summary, ents),
        "editable": path.suffix.lower() != ".json",
    }

    return doc, catalog, res, guide(view)


def words(system: str) -> dict:
    """The game's own words for what the builder shows: what an entry is, what its count counts,
    the name of the type filter, whether entries have costs."""
    gs = game(system)
    return {
        "count_words": list(gs.view.count_words),
        "entry_words": list(gs.view.entry_words),
        "type_label": gs.browse.type_label,
        "priced": gs.browse.priced,
        "cost_unit": gs.view.cost_unit,
        "layout": gs.layout,
        "name_example": gs.new_list.example,
        "standard_word": gs.units.standard_word if gs.units is not None else "",
        "leader_word": gs.units.leader_word if gs.units is not None else "leader",
        "seat_words": dict(gs.players.seat_words) if gs.players is not None else {},
    }


def composition(system: str, summary: dict, ents: list[dict]) -> list[tuple[str, object]]:
    """What the list is made of: the game's own breakdown, else its entries counted by type
    (``troop 23``, ``event 14``) in the order they first appear."""
    own = game(system).view.composition(summary or {})
    if own:
        return [(k, num(v)) for k, v in own]
    by_type: dict[str, int] = {}
    for e in ents:
        if e.get("type") and isinstance(e.get("count"), int) and not e.get("attribute"):
            by_type[e["type"]] = by_type.get(e["type"], 0) + e["count"]
    return list(by_type.items()) if len(by_type) > 1 else []


def settings(doc, catalog) -> list[dict]:
    """The list-level values a person may change (name aside), with their choices."""
    out = game(doc.system).view.builder_settings(doc.data, catalog)
    for o in out:
        o["value"] = "" if o["value"] is None else str(o["value"])
        if "choices" in o and o["value"] and all(o["value"] != c[0] for c in o["choices"]):
            o["choices"] = [(o["value"], o["value"])] + list(o["choices"])
    return out
