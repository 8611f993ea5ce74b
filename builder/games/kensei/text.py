"""Kensei lists as text: the header's clan and points, the commander lines, one line per troop.

Buke vanguard - Kensei - clan buke - 185/200 AP
Commander: taisho

5x Samurai Yari (25)
9x Yari Ashigaru (45), led by Ashigaru Leader, with standard
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any

from builder.catalog.loader import load_catalog
from builder.kit.textform import (
    POINTS_FACET,
    cost_start,
    count_candidates,
    needs_count,
    pick,
    plain_number,
    q,
    strip_cost,
    unmask,
)
from builder.systems.documents import KENSEI as KENSEI_DOCUMENT
from builder.systems.text import TextPart

if TYPE_CHECKING:
    from collections.abc import Mapping

    from builder.systems.parts import ListData, Summary

KENSEI = "kensei"


COMMANDERS = ("hatamoto", "taisho", "daimyo")


def _clan_name(clan: object) -> Any:
    """The clan as the rulebook names it (``buke`` -> ``Buke``); as written when unknown."""
    if not isinstance(clan, str):
        return clan
    entry = load_catalog(KENSEI).find("clans", clan)
    return entry.name if entry is not None else clan


def _clan_id(clan: str) -> str:
    entry = load_catalog(KENSEI).find("clans", clan)
    return entry.id if entry is not None else clan


def header(doc: ListData, summary: Mapping[str, Any]) -> list[str]:
    segs = []
    if "clan" in doc:
        segs.append(f"clan {q(_clan_name(doc['clan']))}")
    used = summary.get("points")
    if "points" in doc:
        segs.append(f"{plain_number(used)}/{doc['points']} AP" if used is not None else f"{doc['points']} AP")
    elif used is not None:
        segs.append(f"{plain_number(used)} AP used")
    return segs


def keys(doc: dict) -> list[str]:
    out = []
    if "commander" in doc:
        c = doc["commander"]
        out.append(f"Commander: {q(c.capitalize() if isinstance(c, str) and c.lower() in COMMANDERS else c)}")
    if doc.get("occult"):  # nothing about occult powers when the list does not use them
        out.append("Occult: yes")
    if "general" in doc:
        out.append(f"General: {q(doc['general'])}")
    return out


def entries(doc: ListData, resolver: Any) -> list[str]:
    out = []
    # a long army names a few profiles many times: each name is written and costed once
    names: dict = {}
    costs: dict = {}
    for t in doc.get("troops", []):
        models = t.get("models", 1)
        troop = t["troop"]
        named = names.get(troop)
        if named is None:
            named = names[troop] = (q(troop), needs_count(troop))
        line = f"{models}x {named[0]}" if "models" in t or named[1] else named[0]
        key = (troop, models)
        if key not in costs:
            costs[key] = unit_cost(resolver, troop, models)
        cost = costs[key]
        if cost is not None:
            line += f" ({plain_number(cost)})"
        if "led_by" in t:
            line += f", led by {q(t['led_by'])}"
        if t.get("standard"):
            line += ", with standard"
        out.append(line)
    return out


def facet(p: Any, seg: str) -> bool:
    low = seg.lower()
    m = POINTS_FACET.match(seg)
    if m:
        p.doc["points"] = int(m.group(2))
        return True
    if low.startswith("clan "):
        p.doc["clan"] = _clan_id(unmask(p, seg[5:]))
        return True
    if low.endswith(" clan"):
        p.doc["clan"] = _clan_id(unmask(p, seg[:-5]))
        return True
    if p.r.find(p.field("clan"), seg)[1] is not None:
        p.doc["clan"] = _clan_id(seg)
        return True
    return False


def bare(line: str) -> str:
    """A troop line without its options and cost figure (what names the troop)."""
    return strip_cost(line.split(",")[0])


def unit_cost(resolver: Any, troop: str, models: int) -> Any:
    """A troop line's cost in AP from the catalog (None when the catalog does not give it)."""
    f = next(f for f in KENSEI_DOCUMENT if f.key == "troops").part("troop")
    _, e = resolver.find(f, troop)
    if e is None:
        return None
    purchase = getattr(e, "purchase", None)
    if purchase is not None and getattr(purchase, "models", None):
        return math.ceil(models / purchase.models) * purchase.points
    cost = getattr(e, "cost", None)
    return None if cost is None else cost * models


_LED = re.compile(r"^led\s+by\s+(.+)$", re.I)
_STD = re.compile(r"^(?:with\s+)?(?:a\s+)?(?:standard|hata[-\s\u2010\u2011\u2013]?jurushi)(?:\s+bearer)?$", re.I)


def troop_line(p: Any, line: str, no: int, col: int) -> None:
    tf = p.field("troops")
    f = tf.part("troop")
    parts = [x.strip() for x in line.split(",")]
    opts: dict = {}
    while len(parts) > 1:
        last = parts[-1]
        m = _LED.match(last)
        if m and "led_by" not in opts:
            opts["led_by"] = unmask(p, m.group(1))
        elif _STD.match(last) and "standard" not in opts:
            opts["standard"] = True
        else:
            break
        parts.pop()
    head = ", ".join(parts)
    cands = []
    for n, name in count_candidates(head, after=False):
        cands.append((n, name))
        bare = strip_cost(name)
        if bare != name and bare:
            cands.insert(len(cands) - 1 if n is None else len(cands), (n, bare))
    # prefer names with the cost figure removed, then catalog hits
    ordered = sorted(cands, key=lambda c: 0 if cost_start(c[1]) < 0 else 1)
    n, name = pick(p, f, ordered)
    if not name:
        p.error(no, col, "a troop line needs a troop name", hint="write e.g. '5x Samurai Yari'")
        return
    p.check_name(f, name, no, col + max(line.find(name), 0))
    row: dict[str, object] = {"troop": name}
    if n is not None:
        row["models"] = n
    if "led_by" in opts:
        p.check_name(f, opts["led_by"], no, col + max(line.find(opts["led_by"]), 0))
        row["led_by"] = opts["led_by"]
    if opts.get("standard"):
        row["standard"] = True
    p.doc.setdefault("troops", []).append(row)


class KenseiText(TextPart):
    """Kensei's text form (``gs.text``): the clan and points in the header, a line per troop."""

    example = "write e.g. 'My army - Kensei - clan buke - 200 AP'"

    def header(self, doc: ListData, summary: Summary) -> list[str]:
        return header(doc, summary)

    def keys(self, doc: ListData) -> list[str]:
        return keys(doc)

    def entries(self, doc: ListData, resolver: object) -> list[str]:
        return entries(doc, resolver)

    def read_facet(self, p: Any, seg: str) -> bool:
        return facet(p, seg)

    def read_entry(self, p: Any, line: str, no: int, col: int) -> None:
        troop_line(p, line, no, col)

    def infer_line(self, line: str) -> str:
        return bare(line)
