"""What the pages show of a list: header, entries with their findings, catalog options.

Plain data (dicts and lists) built from the library's check results, so that the HTML
templates and the JSON API show the same thing.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from builder.web.workspace import total_text

UNIT = {"kensei": "AP"}
SECTIONS = {"kensei": ("troops",), "senshiai": ("cards",), "satsuma": ("cards",),
            "herocard": ("action_cards", "attribute_cards"), "senji": ()}
TYPE_FIELD = {"kensei": "troop_type", "senshiai": "type", "herocard": "kind", "satsuma": "suit"}


def pretty_source(src) -> str:
    """Rulebook references as a person reads them: "Kensei rulebook, Army leaders (line 5912)"."""
    from builder.rulebooks import format_source

    return format_source(str(src)) if src else ""


def humanize(text) -> str:
    from builder.rulebooks import humanize as library_humanize

    return library_humanize(str(text)) if text else ""


def fold(text: str) -> str:
    """Accent- and case-insensitive form for search: ``Hōjō`` -> ``hojo``."""
    from builder.lists.options import fold as library_fold

    return library_fold(text)


def num(v):
    if isinstance(v, Fraction):
        v = float(v)
    if isinstance(v, float) and v.is_integer():
        return int(v)
    if isinstance(v, float):
        return round(v, 1)
    return v


def finding_view(f) -> dict:
    return {"severity": f.severity, "code": f.code, "message": humanize(f.message), "source": pretty_source(f.source),
            "value": num(f.value) if f.value is not None else None,
            "bound": num(f.bound) if f.bound is not None else None,
            "base": f.base, "counted": list(f.counted), "line": f.line, "path": f.path,
            "gap": _gap(f)}


def _gap(f) -> str:
    v, b = f.value, f.bound
    if not isinstance(v, (int, float, Fraction)) or not isinstance(b, (int, float, Fraction)) \
            or isinstance(v, bool) or v == b:
        return ""
    return f"{'over' if v > b else 'short'} by {num(abs(v - b))}"


def verdict(res) -> str:
    c = res.counts()
    return "illegal" if c["error"] else ("warnings" if c["warning"] else "legal")


def header(system: str, res) -> dict:
    s = res.summary or {}
    h = {"system": system, "verdict": verdict(res), "total_text": total_text(system, s),
         "counts": res.counts(), "total": None, "limit": None, "left": None, "unit": UNIT.get(system, "cards")}
    if system == "kensei":
        h.update(total=num(s.get("points")), limit=num(s.get("limit")))
    elif system == "senshiai":
        h.update(total=s.get("cards"), limit=s.get("size") if s.get("size") is not None else s.get("max_cards"))
    elif system == "herocard":
        h.update(total=s.get("hero_points"), limit=s.get("max_hero_points"), unit="hero points")
    elif system == "satsuma":
        h.update(total=s.get("cards"), limit=None)
    elif system == "senji":
        h.update(total=s.get("players"), unit="players")
    if isinstance(h["total"], (int, float)) and isinstance(h["limit"], (int, float)):
        h["left"] = num(h["limit"] - h["total"])
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

    if system == "kensei":
        from builder.rules.kensei import entry_points, load_list

        lst, _ = load_list(doc, catalog)
        rules = res.house_rules
        troops = data.get("troops") or []
        for i, t in enumerate(troops):
            written = t.get("troop") if isinstance(t, dict) else t
            e = lst.entries[i] if i < len(lst.entries) else None
            cost, known = (entry_points(e, rules) if e is not None else (0, False))
            troop = getattr(e, "troop", None)
            out.append({
                "index": i, "key": str(written), "name": getattr(troop, "name", None) or str(written),
                "id": getattr(troop, "id", None), "section": "troops",
                "count": int(t.get("models", 1) or 1) if isinstance(t, dict) else 1,
                "count_label": "models", "cost": num(cost) if known else None,
                "led_by": t.get("led_by") if isinstance(t, dict) else None,
                "standard": bool(t.get("standard")) if isinstance(t, dict) else False,
                "leader": bool(getattr(troop, "leader", False)),
                "general": bool(troop is not None and data.get("general")
                                and fold(data.get("general")) == fold(troop.name)),
                "type": getattr(troop, "troop_type", None) or "", "cls": getattr(troop, "troop_class", None) or "",
                "findings": take(lambda loc, i=i: len(loc) >= 2 and loc[0] == "troops" and loc[1] == i),
            })
    elif system in ("senshiai", "satsuma", "herocard"):
        sections = {"senshiai": [("cards", "cards")], "satsuma": [("cards", "cards")],
                    "herocard": [("attributes", "attribute_cards"), ("deck", "action_cards")]}[system]
        for field, section in sections:
            holder = data.get(field)
            if system == "satsuma" and field == "cards" and not isinstance(holder, dict) and "deck" in data:
                side = str(data.get("side", "")).lower()
                holder = {}
                for c in catalog.entries("cards"):
                    if c.side == side:
                        holder[c.name] = holder.get(c.name, 0) + 1
            items = list(holder.items()) if isinstance(holder, dict) else [(a, 1) for a in (holder or [])]
            for key, value in items:
                entry = catalog.find(section, str(key))
                count = int(value.get("count", 1)) if isinstance(value, dict) else (
                    int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 1)
                out.append({
                    "index": None, "key": str(key), "name": getattr(entry, "name", None) or str(key),
                    "id": getattr(entry, "id", None), "section": section, "field": field,
                    "count": count, "count_label": "copies" if field != "attributes" else "",
                    "attribute": field == "attributes", "cost": _cost(entry),
                    "type": _type(system, entry) or ("custom" if isinstance(value, dict) else ""),
                    "custom": isinstance(value, dict),
                    "findings": take(lambda loc, key=key, field=field: len(loc) >= 2 and loc[0] == field
                                     and str(loc[1]) == str(key)),
                })
    elif system == "senji":
        for i, p in enumerate(data.get("players") or []):
            if not isinstance(p, dict):
                continue
            out.append({"index": i, "key": str(i), "name": str(p.get("name") or f"Player {i + 1}"),
                        "id": None, "section": None, "count": None, "count_label": "",
                        "detail": _player_detail(p),
                        "type": "player", "cost": None,
                        "findings": take(lambda loc, i=i: len(loc) >= 2 and loc[0] == "players" and loc[1] == i)})
    rest = [f for i, f in enumerate(findings) if i not in used]
    for f in findings:
        f.pop("_loc", None)
    return out, rest


def _player_detail(p: dict) -> str:
    """A Senji player as a line: family, samurai and provinces with their units."""
    parts = []
    if p.get("family"):
        parts.append(f"family {p['family']}")
    if p.get("samurai"):
        parts.append(f"samurai {p['samurai']}")
    provinces = []
    for pr in p.get("provinces") or []:
        if isinstance(pr, dict):
            extra = []
            units = pr.get("units")
            if isinstance(units, int):
                extra.append(f"{units} unit{'s' * (units != 1)}")
            if pr.get("samurai"):
                extra.append("samurai")
            provinces.append(str(pr.get("province", "?")) + (f" ({', '.join(extra)})" if extra else ""))
        else:
            provinces.append(str(pr))
    if provinces:
        parts.append("provinces " + ", ".join(provinces))
    return " · ".join(parts)


def _cost(entry):
    for attr in ("cost", "hero_points"):
        v = getattr(entry, attr, None)
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return num(v)
    return None


def _type(system: str, entry) -> str:
    if entry is None:
        return ""
    if system == "herocard":
        kind = getattr(entry, "kind", None)
        if kind:
            return str(kind)
        attr = getattr(entry, "attribute", None)
        return f"attribute: {attr}" if attr else ""
    if system == "satsuma":
        return _suit(getattr(entry, "printed", None))
    return str(getattr(entry, TYPE_FIELD.get(system, "type"), None) or "")


SATSUMA_SUITS = {"F": "force", "R": "reserves", "L": "leader", "A": "attack", "D": "defense", "M": "morale",
                 "W": "weapons", "E": "escape"}


def _suit(printed) -> str:
    """A Satsuma card's suit from its printed code (``F5`` -> force)."""
    if not printed:
        return ""
    return SATSUMA_SUITS.get(str(printed)[:1].upper(), "")


def house_rules(catalog, res) -> list[dict]:
    out = []
    agreed = res.house_rules_agreed or {}
    for h in catalog.model.house_rules:
        cur = res.house_rules.get(h.id, h.default)
        choices = [{"value": str(h.default).lower() if isinstance(h.default, bool) else str(h.default),
                    "reading": humanize(h.reading), "default": True}]
        for a in h.alternatives:
            choices.append({"value": str(a.value).lower() if isinstance(a.value, bool) else str(a.value),
                            "reading": humanize(a.reading), "default": False, "source": pretty_source(a.source)})
        out.append({"id": h.id, "title": h.title, "description": humanize(h.description),
                    "current": str(cur).lower() if isinstance(cur, bool) else str(cur),
                    "agreed": h.id in agreed, "choices": choices,
                    "boolean": isinstance(h.default, bool), "source": pretty_source(h.source)})
    return out


# -- the catalog beside the list ------------------------------------------------------------------

def catalog_entries(doc, catalog) -> list:
    """(section, entry) pairs a list of this system may take."""
    system = doc.system
    out = []
    for section in SECTIONS.get(system, ()):
        for e in catalog.entries(section):
            if system == "satsuma" and getattr(e, "side", None) != str(doc.data.get("side", "")).lower():
                continue
            out.append((section, e))
    if system == "satsuma":  # one row per card name (the published decks repeat some)
        seen, uniq = set(), []
        for s, e in out:
            if e.name not in seen:
                seen.add(e.name)
                uniq.append((s, e))
        out = uniq
    return out


def options(ed, q: str = "", kind: str = "", max_cost=None, addable: str = "", limit: int = 80) -> dict:
    """Catalog entries matching the filters, each with whether it can be added and, if not,
    the first rule that stops it (the library's ``options``)."""
    from builder.lists.options import options as library_options

    system = ed.system
    doc = ed.doc
    try:
        cost = float(max_cost) if max_cost not in (None, "") else None
    except ValueError:
        cost = None
    found = library_options(ed, search=q.strip() or None, max_cost=cost, only_ok=addable == "yes")
    rows, types = [], set()
    clan = str(doc.data.get("clan", "")).lower()
    seen = set()
    for o in found:
        entry = ed.catalog.find(o.section, o.id)
        if system == "satsuma" and getattr(entry, "side", None) != str(doc.data.get("side", "")).lower():
            continue
        if (o.section, o.name) in seen:
            continue
        seen.add((o.section, o.name))
        t = _type(system, entry)
        types.add(t)
        if kind and t != kind:
            continue
        if addable == "no" and o.ok:
            continue
        clans = list(getattr(entry, "clans", []) or [])
        rows.append({"section": o.section, "id": o.id, "name": o.name, "type": t,
                     "cost": num(o.cost) if o.cost is not None else _cost(entry),
                     "unit_cost": num(entry.cost) if system == "kensei" and getattr(entry, "cost", None) is not None
                     else None,
                     "count": o.count, "clans": clans, "own_clan": system == "kensei" and clan in clans,
                     "can": o.ok, "reasons": [humanize(o.reason)] if o.reason else [], "code": o.code,
                     "after": _left_text(o.left, o.unit), "origin": o.origin,
                     "example": ed.catalog.is_example(o.section, entry) if entry is not None else False})
    if system == "kensei":  # the list's own clan first, then troops for any clan, then the rest
        rows.sort(key=lambda r: (0 if r["own_clan"] else 1 if ("any" in r["clans"] or not r["clans"]) else 2,
                                 not r["can"], r["name"]))
    return {"rows": rows[:limit], "more": max(0, len(rows) - limit), "types": sorted(types - {""})}


def _left_text(left, unit) -> str:
    if left is None:
        return ""
    left = num(left)
    if isinstance(left, (int, float)) and left < 0:
        return f"{-left} {unit or ''} over".replace("  ", " ")
    return f"{left} {unit or ''} left".replace("  ", " ")


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
            v = "yes" if v else "no"
        elif isinstance(v, list):
            v = ", ".join(str(x) if not isinstance(x, dict) else ", ".join(f"{a} {b}" for a, b in x.items())
                          for x in v)
        elif isinstance(v, dict):
            v = ", ".join(f"{a}: {b}" for a, b in v.items())
        fields.append((k.replace("_", " "), str(v)))
    return {"name": e.name, "id": e.id, "section": section, "fields": fields,
            "source": pretty_source(getattr(e, "source", None)), "assumed": humanize(getattr(e, "assumed", None)),
            "aliases": list(getattr(e, "aliases", []) or []),
            "example": catalog.is_example(section, e) if hasattr(catalog, "is_example") else False}


def list_view(rel: str, path: Path, text: str, known=None):
    """(doc, catalog, result, view dict) of a list file's text (``known``: its doc, catalog and
    check result, when the editor has them already)."""
    from builder.catalog.loader import load_catalog
    from builder.check import check_doc
    from builder.lists.document import parse_list
    from builder.web.editing import version_of

    if known is not None:
        doc, catalog, res = known
    else:
        doc = parse_list(text, rel, base_dir=path.parent)
        catalog = load_catalog(doc.system, list(doc.packs))
        res = check_doc(doc, catalog=catalog)
    ents, general = entries(doc, catalog, res)
    view = {"path": rel, "system": doc.system, "name": doc.name or Path(rel).stem, "notes": doc.notes or "",
            "author": doc.author or "", "version": version_of(text), "header": header(doc.system, res),
            "entries": ents, "general_findings": general, "summary": {k: num(v) for k, v in res.summary.items()},
            "house_rules": house_rules(catalog, res), "settings": settings(doc, catalog),
            "standard_deck": doc.system == "satsuma" and "deck" in doc.data,
            "editable": path.suffix.lower() != ".json"}
    return doc, catalog, res, view


def settings(doc, catalog) -> list[dict]:
    """The list-level values a person may change (name aside), with their choices."""
    d = doc.data
    s = doc.system
    out = []
    if s == "kensei":
        out.append({"key": "points", "label": "Battle size (AP)", "value": d.get("points", ""), "type": "number"})
        out.append({"key": "clan", "label": "Clan", "value": d.get("clan", ""),
                    "choices": [(e.id, e.name) for e in catalog.entries("clans")]})
        out.append({"key": "commander", "label": "Commander", "value": d.get("commander", "hatamoto"),
                    "choices": [(e.id, e.name) for e in catalog.entries("commander_levels")]})
        out.append({"key": "occult", "label": "Occult rules", "value": str(bool(d.get("occult"))).lower(),
                    "choices": [("false", "no"), ("true", "yes")]})
        leaders = []
        for t in d.get("troops") or []:
            n = t.get("troop") if isinstance(t, dict) else t
            tr = catalog.find("troops", str(n)) if n else None
            if tr is not None and getattr(tr, "leader", False) and (tr.name, tr.name) not in leaders:
                leaders.append((tr.name, tr.name))
        out.append({"key": "general", "label": "General", "value": d.get("general", ""),
                    "choices": [("", "(the list's hero)")] + leaders})
    elif s == "senshiai":
        out.append({"key": "size", "label": "Agreed deck size", "value": d.get("size", ""), "type": "number",
                    "placeholder": "any"})
    elif s == "herocard":
        out.append({"key": "hero", "label": "Hero", "value": d.get("hero", ""),
                    "choices": [(e.name, e.name) for e in catalog.entries("heroes")]})
        out.append({"key": "max_hero_points", "label": "Hero point limit", "value": d.get("max_hero_points", ""),
                    "type": "number"})
    elif s == "satsuma":
        out.append({"key": "side", "label": "Side", "value": d.get("side", ""),
                    "choices": [("samurai", "Samurai"), ("imperial", "Imperial")]})
    for o in out:
        o["value"] = "" if o["value"] is None else str(o["value"])
        if "choices" in o and o["value"] and all(o["value"] != c[0] for c in o["choices"]):
            o["choices"] = [(o["value"], o["value"])] + list(o["choices"])
    return out
