"""What the viewer and the table view show of a list: ``play_of(imported)``.

A received list (a share code, a link, a file) is checked as ``daimyo show`` checks it (its packs
found by name in the packs folders, a pack missing here left out and said so), then drawn as
plain data: the game, name, total, verdict and findings, every entry with what the catalog says
of it (Kensei's stat lines and abilities with their text, from the unit cards), the packs the
list names and whether they are known here, and the counters players keep during a game.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from builder import i18n, state
from builder.catalog.loader import load_catalog
from builder.catalog.packfiles import resolve_recorded
from builder.check import check_doc
from builder.errors import CatalogError, DaimyoError
from builder.findings import Summary
from builder.i18n import _
from builder.lists.document import parse_list
from builder.share.api import NAMES_ONLY, Imported, export_doc
from builder.share.fingerprint import fingerprint
from builder.systems import get
from builder.systems.printing import PrintingPart
from builder.web.views import entries, entry_detail, header
from builder.yamlio import Positions

__all__ = ["Loaded", "Play", "loaded_of", "play_of"]

SKIP_FACTS = {"clans", "list section", "living", "single", "unique", "legendary", "leader", "general"}

FACTS_KEPT = 4096  # entries of catalogs: a few catalogs' worth in a few languages
_FACTS: dict[tuple[Any, ...], list[tuple[str, str]]] = state.cache(
    "viewer.entry_facts",
    bound=FACTS_KEPT,
    lifetime=state.CATALOG,
    doc="what the catalog says of an entry, as the viewer shows it, by catalog, entry and language",
)


@dataclass
class Play:
    """A list as the viewer and the table view show it (plain data, JSON-ready)."""

    system: str
    game: str
    name: str
    author: str
    notes: str
    total_text: str
    verdict: str
    counts: dict[str, int]
    findings: list[dict[str, Any]]  # about the whole list (an entry's own are in its row)
    entries: list[dict[str, Any]]
    packs: list[dict[str, Any]]
    counters: list[dict[str, Any]]
    fingerprint: str
    code: str = ""
    missing: list[str] = field(default_factory=list)
    sent: dict[str, Any] = field(default_factory=dict)  # the list as sent (its packs by name)
    checked: dict[str, Any] = field(default_factory=dict)  # as checked here (the packs found here)

    @property
    def yaml(self) -> str:
        """The list file, as sent (written when asked for: most answers never need it)."""
        return export_doc(self.sent, "yaml")

    @property
    def printed(self) -> str:
        """The list file as checked here (the packs found here, by their files): what prints."""
        return export_doc(self.checked, "yaml")

    @property
    def key(self) -> str:
        """What the table view keeps its counters under (one list, whatever its file is called)."""
        return "daimyo:" + self.fingerprint.replace(" ", "")


def _packs(imp: Imported) -> tuple[dict[str, Any], list[dict[str, Any]], list[str]]:
    """(the data to check, the packs the list names with whether each is known here, the names
    of those missing)."""
    data = imp.doc
    names_only = imp.format in NAMES_ONLY or imp.received
    recorded = {e.get("pack"): e for e in data.get("checked_with") or [] if isinstance(e, dict)}
    rows, kept, missing = [], [], []
    for ref in data.get("packs") or []:
        path = resolve_recorded(ref, data, imp.base_dir, data.get("system"), names_only=names_only)
        rec = recorded.get(ref, {})
        rows.append(
            {
                "pack": ref,
                "name": rec.get("name") or ref,
                "version": rec.get("version") or "",
                "hash": rec.get("hash") or "",
                "known": path is not None,
            }
        )
        if path is None:
            missing.append(str(rec.get("name") or ref))
        else:
            kept.append(str(path))
    checked = {k: v for k, v in data.items() if k != "packs"}
    if kept:
        checked["packs"] = kept
    return checked, rows, missing


def _stats(system: str, lst: Any, catalog: Any) -> dict[str, dict[str, Any]]:
    """The unit cards' data by name (a game of units: stat lines, weapons, abilities' text)."""
    cards = get(system).unit_cards
    if cards is None or lst is None:
        return {}
    try:
        return {str(d["name"]): dict(d) for d in cards.data(lst, catalog)}
    except Exception:  # a list the cards cannot draw still shows its entries
        return {}


def _entry(row: dict[str, Any], catalog: Any, cards: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """One entry of the list with what the catalog says of it."""
    facts = _facts(catalog, row["section"], row["name"]) if row.get("section") else []
    out = {
        "name": row["name"],
        "count": row.get("count"),
        "count_label": row.get("count_label") or "",
        "cost_text": row.get("cost_text") or "",
        "type": row.get("type") or "",
        "detail": row.get("detail") or "",
        "facts": facts,
        "stats": [],
        "abilities": [],
        "findings": row.get("findings") or [],
        "tags": [],
        "seat": row.get("seat"),
    }
    card = cards.get(row["name"])
    if card is not None:
        out["stats"] = [(label, "-" if value is None else value) for label, value, _origin in card.get("stats", [])]
        out["abilities"] = [(n, t or "") for n, _kind, t in card.get("abilities", [])]
        out["facts"] = [(_("class, type"), ", ".join(card.get("facts", [])))] + [
            (k, v) for k, v in out["facts"] if k not in ("troop class", "troop type", "titles", "volume")
        ]
    for key, word in (("leader", _("leader")), ("general", _("general"))):
        if row.get(key):
            out["tags"].append(word)
    if row.get("led_by"):
        out["tags"].append(_("led by {name}").format(name=row["led_by"]))
    return out


def _facts(catalog: Any, section: str, name: str) -> list[tuple[str, str]]:
    """What the catalog says of an entry (its fields, in the reader's language): the same for
    every list that names it, so worked out once per catalog, entry and language."""
    fingerprint = getattr(catalog, "fingerprint", None)
    key = (id(catalog) if fingerprint is None else fingerprint, section, name, i18n.current_language())
    kept = _FACTS.get(key)
    if kept is None:
        detail = entry_detail(catalog, section, name)
        kept = [(k, v) for k, v in (detail or {}).get("fields", []) if k not in SKIP_FACTS]
        if fingerprint is not None:  # a catalog without one (made in memory) is not kept by it
            if len(_FACTS) >= FACTS_KEPT:
                _FACTS.clear()
            _FACTS[key] = kept
    return list(kept)


def _counters(system: str, catalog: Any, summary: Summary) -> list[dict[str, Any]]:
    """The game's counters, their words in the reader's language (a game of another package
    whose printing part has none: the defaults, a round counter and the victory points)."""
    printing = get(system).printing
    made = printing.counters if hasattr(printing, "counters") else PrintingPart(None).counters
    rows = []
    for c in made(catalog, summary):
        c = dict(c)
        c["label"] = _(str(c["label"]))
        c["note"] = _(str(c["note"])).format(**c.get("values", {})) if c.get("note") else ""
        rows.append(c)
    return rows


@dataclass
class Loaded:
    """A list read with its packs and catalog, before it is checked and drawn: what its answer
    depends on besides the code (``catalog.fingerprint``) is known here."""

    doc: Any  # the list document
    catalog: Any
    data: dict[str, Any]  # the list as checked here (the packs found here)
    packs: list[dict[str, Any]]
    missing: list[str]


def loaded_of(imp: Imported) -> Loaded:
    """The list ``imp`` with the packs found here and the catalog it is checked against."""
    system = imp.doc["system"]
    data, packs, missing = _packs(imp)
    doc = parse_list("", imp.file, base_dir=imp.base_dir, parsed=(copy.deepcopy(data), Positions(imp.file)))
    try:
        catalog = load_catalog(system, list(doc.packs))
    except CatalogError:  # a pack known here that cannot be read: the game's own catalog
        catalog = load_catalog(system)
    return Loaded(doc, catalog, data, packs, missing)


def play_of(imp: Imported, code: str = "", *, is_canonical: bool = False, loaded: Loaded | None = None) -> Play:
    """The list ``imp`` checked and drawn for the viewer and the table view. DaimyoError when
    its game's rules cannot read it (the viewer answers 400 with the message).
    ``is_canonical``: ``imp.doc`` is ``canonical``'s result (a code the viewer just read);
    ``loaded``: ``loaded_of(imp)``, when the caller has it already."""
    system = imp.doc["system"]
    gs = get(system)
    loaded = loaded or loaded_of(imp)
    doc, catalog = loaded.doc, loaded.catalog
    res = check_doc(doc, catalog=catalog)
    try:
        lst, _notes = gs.rules.load_list(doc, catalog)
    except DaimyoError:
        lst = None
    rows, general = entries(doc, catalog, res)
    cards = _stats(system, lst, catalog)
    head = header(system, res)
    return Play(
        system=system,
        game=gs.name,
        name=str(imp.doc.get("name") or _("Unnamed list")),
        author=str(imp.doc.get("author") or ""),
        notes=str(imp.doc.get("notes") or ""),
        total_text=str(head["total_text"]),
        verdict=str(head["verdict"]),
        counts=dict(head["counts"]),
        findings=general,
        entries=[_entry(r, catalog, cards) for r in rows],
        packs=loaded.packs,
        counters=_counters(system, catalog, res.summary),
        fingerprint=fingerprint(imp.doc, res.packs, is_canonical=is_canonical),
        code=code,
        sent=imp.doc,
        checked=loaded.data,
        missing=loaded.missing,
    )
