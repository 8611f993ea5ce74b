"""Two lists side by side: what the second adds, removes and changes, and how its total and
verdict differ from the first's.

``diff_files(a, b)`` reads and checks two list files; ``diff_loaded(a, b)`` compares lists
already read (the web builder's comparison page uses it, so that ``daimyo diff A B`` and the
page always say the same). The answer is plain data (``to_json`` is the identity); ``diff_lines``
writes it as text.

Entries are matched by what they are, not by their place in the file: a card by its section
and name, a Kensei troop by its name (its units added up), a Senji player by name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from builder.catalog.loader import load_catalog
from builder.i18n import L_, SOURCE_LANGUAGE, Lj_, Ln_, Text, _, current_language, ngettext, tr
from builder.kit.numbers import plain_value
from builder.lists.check import check_doc
from builder.lists.document import load_list
from builder.names import quoted
from builder.systems import get
from builder.systems.view import amount_text, total_of

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path

    from builder.catalog.loader import Catalog
    from builder.findings import CheckResult
    from builder.lists.document import ListDoc


@dataclass
class Side:
    """One list of a comparison: its parsed document, catalog and check result."""

    doc: ListDoc
    catalog: Catalog
    result: CheckResult


def load_side(path: str | Path, packs: Iterable[str] = ()) -> Side:
    doc = load_list(path)
    catalog = load_catalog(doc.system, list(doc.packs) + [str(p) for p in packs])
    return Side(doc, catalog, check_doc(doc, catalog=catalog))


def diff_files(a: str | Path, b: str | Path, packs: Iterable[str] = ()) -> dict[str, Any]:
    """The comparison of two list files (``packs``: extra pack files for both)."""
    return diff_loaded(load_side(a, packs), load_side(b, packs))


def _plain(v: object) -> object:
    """A setting's value as JSON and text show it."""
    if v is None or isinstance(v, (bool, int, float, str)):
        return plain_value(v)
    return str(v)


def _verdict(res: CheckResult) -> str:
    c = res.counts()
    return "illegal" if c["error"] else ("warnings" if c["warning"] else "legal")


def side_facts(side: Side, file: str | None = None) -> dict:
    """What the comparison says of one list: file, game, name, total and verdict."""
    res = side.result
    t = get(res.system).view.tally(res.summary or {})
    c = res.counts()
    return {
        "file": file if file is not None else res.file,
        "system": res.system,
        "name": res.name or "",
        "total": plain_value(t["total"]),
        "limit": plain_value(t["limit"]),
        "unit": t["unit"],
        "verdict": _verdict(res),
        "errors": c["error"],
        "warnings": c["warning"],
    }


def entries_of(side: Side) -> dict[str, dict]:
    """The entries of a list by what they are: ``{key: {"name", "what", "count", "text"}}``
    (``what``: the list key or part they belong to; ``count``: copies, models or provinces;
    ``text``: the entry as a person reads it in the comparison)."""
    doc, catalog = side.doc, side.catalog
    gs = get(doc.system)
    out: dict[str, dict] = {}
    if gs.units is not None:
        for u in gs.units.unit_rows(doc, catalog, side.result.house_rules):
            row = out.setdefault(
                u["name"],
                {"name": u["name"], "what": gs.entries[0], "units": 0, "count": 0, "points": 0, "known": True},
            )
            row["units"] += 1
            row["count"] += u["models"]
            row["points"] += u["cost"] if u["cost"] is not None else 0
            row["known"] = row["known"] and u["cost"] is not None
        for row in out.values():
            row["points"] = plain_value(row["points"]) if row.pop("known") else None
            units = Ln_("{n} unit", "{n} units", row["units"])
            models = gs.view.counted(row["count"])
            if row["points"] is not None:
                cost = amount_text(row["points"], gs.view.cost_unit or "points")
                row["text"] = L_("{units}, {models}, {cost}", units=units, models=models, cost=cost)
            else:
                row["text"] = L_("{units}, {models}", units=units, models=models)
    elif gs.players is not None:
        for seat in gs.players.seats(doc.data):
            provinces = [_province(pr) for pr in seat["provinces"]]
            text = Lj_(
                ", ",
                [
                    x
                    for x in (
                        f"{seat.get('family')}" if seat.get("family") else "",
                        L_("samurai {name}", name=seat["samurai"]) if seat.get("samurai") else "",
                        L_("provinces {names}", names=Lj_("; ", provinces)) if provinces else L_("no province"),
                    )
                    if x
                ],
            )
            key = f"players: {seat['name']}"
            while key in out:  # two players of one name are kept apart
                key += "'"
            out[key] = {"name": seat["name"], "what": "players", "count": len(provinces), "text": text}
    else:
        for field, section, items in gs.editing.held(doc.data, catalog):
            for key, value in items:
                entry = catalog.find(section, str(key))
                name = getattr(entry, "name", None) or str(key)
                if isinstance(value, dict):
                    count = int(value.get("count", 1) or 1)
                elif isinstance(value, (int, float)) and not isinstance(value, bool):
                    count = int(value)
                else:
                    count = 1
                k = f"{field}: {name}"
                if k in out:
                    out[k]["count"] += count
                else:
                    out[k] = {"name": name, "what": field, "count": count}
        for row in out.values():
            row["text"] = gs.view.counted(row["count"])
    return out


def _province(pr: dict[str, Any]) -> str:
    """A province of a Senji player as the comparison words it: ``Owari (3) with samurai``."""
    if pr.get("units") and pr.get("samurai"):
        return L_("{name} ({units}) with samurai", name=pr["name"], units=pr["units"])
    if pr.get("units"):
        return f"{pr['name']} ({pr['units']})"
    if pr.get("samurai"):
        return L_("{name} with samurai", name=pr["name"])
    return str(pr["name"])


def settings_of(side: Side) -> dict:
    """The list-level values (not its entries): name, notes, clan, points, side and the like."""
    gs = get(side.doc.system)
    skip = set(gs.entries) | {k for k, _ in gs.editing.held_sections} | {"system", "packs", "players"}
    out = {}
    for k, v in side.doc.data.items():
        if k in skip or (isinstance(v, (list, dict)) and k != "house_rules"):
            continue
        out[k] = _plain(v)
    for k, v in (side.doc.house_rules or {}).items():
        out[f"house_rules.{k}"] = _plain(v)
    return out


def diff_loaded(a: Side, b: Side, file_a: str | None = None, file_b: str | None = None) -> dict:
    """What ``b`` changes of ``a``: entries added, removed and changed, settings changed,
    the numbers of the check summary before and after, and the verdicts."""
    ea, eb = entries_of(a), entries_of(b)
    added = [dict(eb[k], key=k) for k in eb if k not in ea]
    removed = [dict(ea[k], key=k) for k in ea if k not in eb]
    changed = [
        {
            "key": k,
            "name": eb[k]["name"],
            "what": eb[k]["what"],
            "before": ea[k]["text"],
            "after": eb[k]["text"],
            "count_before": ea[k]["count"],
            "count_after": eb[k]["count"],
        }
        for k in ea
        if k in eb and ea[k]["text"] != eb[k]["text"]
    ]
    sa, sb = settings_of(a), settings_of(b)
    settings = [
        {"key": k, "before": sa.get(k), "after": sb.get(k)}
        for k in list(sa) + [k for k in sb if k not in sa]
        if sa.get(k) != sb.get(k)
    ]
    summary = {}
    ra, rb = a.result.summary or {}, b.result.summary or {}
    for k in list(ra) + [k for k in rb if k not in ra]:
        va, vb = plain_value(ra.get(k)), plain_value(rb.get(k))
        if (
            (isinstance(va, (int, float)) or isinstance(vb, (int, float)))
            and va != vb
            and not isinstance(va, bool)
            and not isinstance(vb, bool)
        ):
            summary[k] = {"before": va, "after": vb}
    codes_a = {f.code for f in a.result.findings if f.severity == "error"}
    codes_b = {f.code for f in b.result.findings if f.severity == "error"}
    fa, fb = side_facts(a, file_a), side_facts(b, file_b)
    return {
        "a": fa,
        "b": fb,
        "same_game": fa["system"] == fb["system"],
        "same": not (added or removed or changed or settings),
        "added": added,
        "removed": removed,
        "changed": changed,
        "settings": settings,
        "summary": summary,
        "errors_fixed": sorted(codes_a - codes_b),
        "errors_new": sorted(codes_b - codes_a),
    }


def _total(f: dict) -> str:
    if f["total"] is None:
        return "?"
    if not f["unit"]:
        return f"{f['total']} / {f['limit']}" if f["limit"] is not None else str(f["total"])
    return tr(total_of(f["total"], f["limit"], f["unit"]))


def verdict_text(f: dict) -> str:
    """A list's verdict in the current language: ``legal``, ``ILLEGAL (2 errors)``."""
    if f["verdict"] == "illegal":
        return ngettext("ILLEGAL ({n} error)", "ILLEGAL ({n} errors)", f["errors"]).format(n=f["errors"])
    if f["verdict"] == "warnings":
        return ngettext("legal ({n} warning)", "legal ({n} warnings)", f["warnings"]).format(n=f["warnings"])
    return _("legal")


def diff_lines(d: dict) -> list[str]:
    """The comparison as text, the way ``daimyo diff`` prints it."""
    a, b = d["a"], d["b"]
    lines = [
        f"--- {a['file']}: {a['system']} {quoted(a['name'])}, {_total(a)}, {verdict_text(a)}",
        f"+++ {b['file']}: {b['system']} {quoted(b['name'])}, {_total(b)}, {verdict_text(b)}",
    ]
    if not d["same_game"]:
        lines.append(_("the lists are of different games ({a}, {b})").format(a=a["system"], b=b["system"]))
    for s in d["settings"]:
        lines.append(f"~ {s['key']}: {_shown(s['before'])} -> {_shown(s['after'])}")
    for e in d["removed"]:
        lines.append(f"- {e['what']}: {e['name']} ({tr(e['text'])})")
    for e in d["added"]:
        lines.append(f"+ {e['what']}: {e['name']} ({tr(e['text'])})")
    for e in d["changed"]:
        lines.append(f"~ {e['what']}: {e['name']}: {tr(e['before'])} -> {tr(e['after'])}")
    if d["same"]:
        lines.append(_("no difference in the lists' entries or settings"))
    if d["summary"]:
        changes = ", ".join(f"{k} {_shown(v['before'])} -> {_shown(v['after'])}" for k, v in d["summary"].items())
        lines.append(_("summary: {changes}").format(changes=changes))
    lines.append(_("total: {a} -> {b}").format(a=_total(a), b=_total(b)))
    lines.append(_("verdict: {a} -> {b}").format(a=verdict_text(a), b=verdict_text(b)))
    if d["errors_fixed"]:
        lines.append(_("errors fixed: {codes}").format(codes=", ".join(d["errors_fixed"])))
    if d["errors_new"]:
        lines.append(_("new errors: {codes}").format(codes=", ".join(d["errors_new"])))
    return lines


def with_translations(d: dict[str, Any]) -> dict[str, Any]:
    """The comparison as JSON: English whatever the language, with ``text_translated`` (and
    ``before_translated``, ``after_translated``) beside an entry's words in another language."""
    if current_language() == SOURCE_LANGUAGE:
        return d
    out = dict(d)
    for key, fields in (("added", ("text",)), ("removed", ("text",)), ("changed", ("before", "after"))):
        rows = []
        for e in d[key]:
            e = dict(e)
            for f in fields:
                if isinstance(e.get(f), Text):
                    e[f"{f}_translated"] = e[f].translated()
            rows.append(e)
        out[key] = rows
    return out


def _shown(v: object) -> str:
    return _("(none)") if v is None or v == "" else str(v)


def variant_name(name: str) -> str:
    """The name of a list's variant: "Buke vanguard" -> "Buke vanguard (variant)", then
    "(variant 2)" and on."""
    m = re.fullmatch(r"(.*) \(variant(?: (\d+))?\)", name or "")
    if m:
        return f"{m.group(1)} (variant {int(m.group(2) or 1) + 1})"
    return f"{name} (variant)" if name else "variant"


__all__ = [
    "Side",
    "diff_files",
    "diff_lines",
    "diff_loaded",
    "entries_of",
    "load_side",
    "settings_of",
    "variant_name",
]
