"""What could be added to a list now: every catalog (and pack) entry with its cost, what
would be left after it, and, for an entry that cannot be added, the first rule that stops it.

This answers a live builder's "what can I add?" (``daimyo options LIST``, the web builder's
side panel). Each entry is tried the way ``daimyo why`` tries it: the list is checked with the
entry added, and the comparison with the list as it is says whether a rule breaks.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from builder.errors import DaimyoError, show_options
from builder.i18n import SOURCE_LANGUAGE, Text, current_language
from builder.kit.edit import number
from builder.lists.check import check_doc
from builder.lists.compare import compare
from builder.names import fold
from builder.rulebooks import humanize

if TYPE_CHECKING:
    from builder.findings import Finding
    from builder.systems.base import GameSystem
    from builder.systems.parts import Cost


@dataclass
class Option:
    """One entry that could be added (``ok``) or not (``code``/``reason``: the first rule
    that stops it, as ``check`` words it).

    ``cost`` is what adding it costs (Kensei: the unit's AP; card games: the card's printed
    cost, None when it has none); ``count`` the models (Kensei) or copies added; ``left`` what
    is left after adding it, in ``unit`` (AP, cards, copies or hero points; None without a limit).
    """

    name: str
    id: str
    section: str
    kind: str | None
    cost: Cost | None
    count: int
    left: Cost | None
    unit: str | None
    ok: bool
    code: str | None = None
    reason: str | None = None
    origin: str | None = None
    warning: str | None = None  # what adding it would warn about (allowed, but said), as check words it

    def to_json(self) -> dict:
        """The option as JSON: English whatever the language, with ``reason_translated`` and
        ``warning_translated`` beside the English in another language."""
        out = {
            k: getattr(self, k)
            for k in (
                "name",
                "id",
                "section",
                "kind",
                "cost",
                "count",
                "left",
                "unit",
                "ok",
                "code",
                "reason",
                "origin",
                "warning",
            )
        }
        if current_language() != SOURCE_LANGUAGE:
            for k in ("reason", "warning"):
                v = getattr(self, k)
                if isinstance(v, Text):
                    out[f"{k}_translated"] = humanize(v.translated(), bare=False)
        return out


def _said(f: Finding) -> str:
    """A finding's message as an option's reason: its English, with its template and parameters
    kept (``builder.i18n.Text``) so that it is shown in the reader's language."""
    return f.text if f.text is not None else f.message


def _origin(catalog: Any, section: str, entry: Any) -> str:
    """Where the entry comes from, as a person names it: the catalog or the pack's name."""
    pack = catalog.from_pack.get((section, entry.id))
    if not pack:
        return "catalog"
    for p in catalog.packs:
        if p.get("file") == pack and p.get("pack"):
            return f"pack {p['pack']}"
    return f"pack {Path(str(pack)).name}"


def options(
    lst: Any,
    *,
    type: str | None = None,
    search: str | None = None,
    max_cost: float | None = None,
    only_ok: bool = False,
) -> list[Option]:
    """Every entry of the catalog and the list's packs that could be added to ``lst`` now.

    ``lst`` is a ``ListEditor`` (``builder.options`` also opens one from a path or text). Filters: ``type``
    (a troop type such as infantry, a card type or kind such as event or base-attack, a
    Satsuma suit, a catalog section such as provinces; case ignored), ``search`` (a part of the name, id or an alias; case and
    accents ignored), ``max_cost`` (at most this cost; entries without a cost pass),
    ``only_ok`` (leave out what cannot be added). Entries come in catalog order.
    """
    gs: GameSystem = lst.game  # lst: a ListEditor (which imports this module)
    catalog, doc = lst.catalog, lst.doc
    before = lst.check()
    want_type = fold(type) if type else None
    want = fold(search) if search else None
    out: list[Option] = []
    for section, entry, kind, printed in gs.questions.candidates(catalog):
        if want_type is not None and fold(kind or "") != want_type and fold(section) != want_type:
            continue
        if want is not None and not any(want in fold(n) for n in (entry.name, entry.id, *(entry.aliases or ()))):
            continue
        if max_cost is not None and printed is not None and number(printed) is not None and printed > max_cost:
            continue
        try:
            data, target, n = gs.questions.trial(doc.data, catalog, section, entry)
        except DaimyoError as exc:  # e.g. an attribute card the hero already has
            message = show_options(exc.diagnostics[0].message if exc.diagnostics else str(exc))
            out.append(
                Option(
                    entry.name,
                    entry.id,
                    section,
                    kind,
                    printed,
                    0,
                    None,
                    None,
                    False,
                    "edit",
                    message,
                    _origin(catalog, section, entry),
                )
            )
            continue
        trial_doc = copy.copy(doc)
        trial_doc.data = data
        after = check_doc(trial_doc, catalog=catalog)
        result = compare(before, after, target)
        cost = gs.questions.cost(before.summary, after.summary, entry, printed)
        if max_cost is not None and cost is not None and cost > max_cost:
            continue
        left, unit = gs.questions.left(section, after.summary, data, entry, catalog)
        # the first rule that stops it: one naming the entry, else the first at its place
        named = [b.finding for b in result.breaks if entry.name in b.finding.message]
        first = named[0] if named else result.breaks[0].finding if result.breaks else None
        if only_ok and first is not None:
            continue
        warns = [w for w in result.warns if entry.name in w.message] or list(result.warns)
        out.append(
            Option(
                entry.name,
                entry.id,
                section,
                kind,
                cost,
                n,
                left,
                unit,
                first is None,
                first.code if first else None,
                _said(first) if first else None,
                _origin(catalog, section, entry),
                _said(warns[0]) if warns and first is None else None,
            )
        )
    return out


__all__ = ["Option", "fold", "options"]
