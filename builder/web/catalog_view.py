"""The catalog beside a list as a player expects it: the list's own faction first and alone
unless asked, each entry's profile and printed facts beside it, an entry without a known cost
marked so (never offered as "can add"), and packs that only complete the catalog's entries
(profiles) ticked for a new list.
"""

from __future__ import annotations

from typing import Any

from builder import state
from builder.catalog.loader import load_catalog
from builder.errors import DaimyoError
from builder.i18n import L_, N_, Text
from builder.lists.collection import owned_counts, read_collection, used_by
from builder.names import normalize

PROFILE_ORDER = (
    ("mov", "MOV"),
    ("mov_alt", "MOV"),
    ("at", "AT"),
    ("at_ranged", N_("AT ranged")),
    ("ini", "INI"),
    ("ho", "HO"),
    ("pr", "PR"),
    ("wo", "WO"),
    ("ki", "KI"),
)
UNKNOWN_COST = L_("its cost is not printed in the catalog; a pack can give it")  # translated where shown


def profile_text(entry) -> str:
    """A troop's stat line: ``MOV 10 · AT 2 · INI 1 · HO 3 · WO 1`` ("" without one): a Text,
    its labels (the rulebook's abbreviations) translated where it is shown."""
    p = getattr(entry, "profile", None)
    if p is None:
        return ""
    parts: dict[str, Any] = {}
    for key, label in PROFILE_ORDER:
        v = getattr(p, key, None)
        if v is not None:
            parts[f"p{len(parts)}"] = Text("{label} {value}", {"label": Text(label), "value": v})
    return Text(" · ".join("{" + k + "}" for k in parts), parts) if parts else ""


def foreign(row: dict) -> bool:
    """Whether a catalog row belongs to another faction than the list's (a troop of other clans)."""
    clans = row.get("clans") or []
    return bool(clans) and "any" not in clans and not row.get("own_clan")


def shape(rows: list[dict], priced: bool, others: bool) -> tuple[list[dict], int]:
    """The rows the page shows (``others``: other factions' too) with profiles and unknown
    costs marked; and how many rows of other factions were left out."""
    out, hidden = [], 0
    for r in rows:
        if not others and foreign(r):
            hidden += 1
            continue
        if priced and r.get("cost") is None and r.get("unit_cost") is None:
            r["unknown_cost"] = True
            if r["can"]:
                r["can"] = False
                r["reasons"] = [UNKNOWN_COST] + list(r.get("reasons") or [])
        out.append(r)
    return out, hidden


@state.memo(
    "web.catalog_completes_only",
    bound=64,
    lifetime=state.FILE,
    doc="whether a catalog only completes the bundled one, by game, path and modification time",
)
def _completes_only(system: str, path: str, mtime: float) -> bool:

    try:
        base = load_catalog(system)
        with_pack = load_catalog(system, [path])
    except DaimyoError:
        return False
    for sec in with_pack.sections():
        names = {e.name for e in with_pack.entries(sec)}
        before = {e.name for e in base.entries(sec)} if sec in base.sections() else set()
        if names != before:
            return False
    return True


def completes_only(root, system: str, rel: str) -> bool:
    """Whether a pack of the workspace adds nothing new and only completes entries the catalog
    has (stat lines for printing): it changes no verdict, so a new list starts with it."""
    p = root / rel
    try:
        mtime = p.stat().st_mtime
    except OSError:
        return False
    return _completes_only(system, str(p), mtime)


def holdings(rows: list[dict[str, Any]], doc: Any, catalog: Any, across: dict[tuple[str, str], int] | None) -> str:
    """Each row given what the player's collection holds of it (``owned``), what the list uses
    (``used_here``) and what the workspace's lists use together (``used_all``; ``across``, by
    entry). The collection's problem, one line, when it cannot be read (then nothing is owned)."""
    problem = ""
    try:
        owned = owned_counts(read_collection(), doc.system, catalog)
    except DaimyoError as exc:
        owned, problem = {}, exc.lines()[0]
    try:
        here = {k: u.count for k, u in used_by(doc, catalog).items()}
    except DaimyoError:
        here = {}
    for r in rows:
        k = (r["section"], normalize(r["name"]))
        # no collection of this game: no line of counts under every entry (a phone scrolls less)
        r["owned"] = owned.get(k, 0) if owned or problem else None
        r["used_here"] = here.get(k, 0)
        r["used_all"] = (across or {}).get(k, 0)
    return problem
