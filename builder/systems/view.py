"""How the builder shows a game's list and the catalog beside it: ``ViewPart`` (``gs.view``) and
``BrowsePart`` (``gs.browse``), with the defaults of a deck of cards; a game overrides them in its
own package (``builder/games/<id>/view.py``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from builder.i18n import L_, N_, Ln_, Text
from builder.kit.numbers import number_text
from builder.systems.parts import ListData, Summary, Tally

if TYPE_CHECKING:
    from builder.findings import Finding

# the games import the kit's number formatter from here by this name
fmt = number_text

# the words a total or a cost is counted in (a tally's ``unit``), translated where shown
UNIT_WORDS = (
    N_("AP"),
    N_("cards"),
    N_("hero points"),
    N_("players"),
    N_("points"),
    N_("copies"),
    N_("units"),
    N_("provinces"),
)


def unit_word(unit: str) -> str:
    """A tally's unit as a message ("AP" is "AP" in English, "PA" in Spanish), or as it is when
    it is not one of the games' words."""
    return Text(unit) if unit in UNIT_WORDS else unit


def _plural_n(n: float) -> int:
    """The count a plural form is chosen by (a fraction takes the form of many)."""
    return int(n) if float(n).is_integer() else 2


def counted_text(n: float, words: tuple[str, str]) -> str:
    """``n`` with the word of what it counts (``words``: one and many): ``1 copy``, ``5 models``."""
    shown, k = fmt(n), _plural_n(n)
    if words == ("copy", "copies"):
        return Ln_("{n} copy", "{n} copies", k, n=shown)
    if words == ("model", "models"):
        return Ln_("{n} model", "{n} models", k, n=shown)
    if words == ("unit", "units"):
        return Ln_("{n} unit", "{n} units", k, n=shown)
    if words == ("card", "cards"):
        return Ln_("{n} card", "{n} cards", k, n=shown)
    if words == ("player", "players"):
        return Ln_("{n} player", "{n} players", k, n=shown)
    return f"{shown} {words[0] if n == 1 else words[1]}"


def amount_text(n: object, unit: str) -> str:
    """A number and its unit: ``25 AP``, ``30 hero points``."""
    return L_("{n} {unit}", n=n, unit=unit_word(unit)) if unit else str(n)


def total_of(total: object, limit: object, unit: str) -> str:
    """A total against its limit: ``120 / 200 AP``; ``46 cards`` with no limit."""
    if limit is not None:
        return L_("{total} / {limit} {unit}", total=total, limit=limit, unit=unit_word(unit))
    return L_("{n} {unit}", n=total, unit=unit_word(unit))


class ViewPart:
    """How the builder shows a list of the game (the ``ListView`` part): its heading, what its
    entries and counts are called, its total and what is left of its limit."""

    list_title: str = "Deck"  # the heading of the list in the builder
    cost_unit: str = ""  # what a cost is counted in, after the number ("AP"); "" for a card's printed cost
    count_words: tuple[str, str] = ("copy", "copies")  # what an entry's count counts, one and many
    entry_words: tuple[str, str] = ("card", "cards")  # what an entry of a list is, one and many
    fixed_keys: tuple[str, ...] = ()  # list keys whose cards follow from another choice (no +/- of their own)

    def __init__(self, game: Any):
        self.game = game

    def counted(self, n: float) -> str:
        """``n`` with the word of what an entry's count counts: ``1 copy``, ``5 models``."""
        return counted_text(n, self.count_words)

    def composition(self, summary: Summary) -> list[tuple[str, object]]:
        """The builder's breakdown of a list (label, value) from its check summary; [] when the
        builder's count of entries by type says enough."""
        return []

    def tally(self, summary: Summary) -> Tally:
        """The list's total as the builder's header shows it: ``total``, ``limit`` (None: none),
        ``unit`` and ``more`` (a further short text, or "")."""
        return {"total": summary.get("cards"), "limit": None, "unit": "cards", "more": ""}

    def left_text(self, tally: Tally, findings: Iterable[Finding]) -> str:
        """What the builder's header says is left of the list's limit: ``5 AP left``,
        ``3 cards over`` ("" when the list has no limit, or its total is unknown)."""
        total, limit = tally.get("total"), tally.get("limit")
        if not isinstance(total, (int, float, Fraction)) or not isinstance(limit, (int, float, Fraction)):
            return ""
        left = limit - total
        if left >= 0:
            return L_("{n} {unit} left", n=fmt(abs(left)), unit=unit_word(tally["unit"]))
        return L_("{n} {unit} over", n=fmt(abs(left)), unit=unit_word(tally["unit"]))

    def total_text(self, summary: Summary) -> str:
        """The one-line total a person reads in a list of lists: ``380 / 400 AP``, ``46 cards``."""
        t = self.tally(summary or {})
        total = "?" if t["total"] is None else fmt(t["total"])
        text = total_of(total, fmt(t["limit"]) if t["limit"] is not None else None, t["unit"])
        return L_("{total}, {more}", total=text, more=t["more"]) if t["more"] else text

    def builder_settings(self, data: ListData, catalog: Any) -> list[dict[str, Any]]:
        """The list-level values the builder offers to change (name, notes aside): ``key``,
        ``label``, ``value`` and ``choices`` (value, label) or a ``type``."""
        return []


class BrowsePart:
    """The catalog beside a list in the builder (the ``CatalogView`` part): what is shown, how
    an entry's cost and facts read, its type for the filter, the order of the rows."""

    sections: tuple[str, ...] = ()  # the catalog sections shown beside the list, to add from
    type_field: str = "type"  # the catalog field the builder's filter by type reads
    type_label: str = L_("Type")  # the name of the catalog filter by ``entry_type``
    priced: bool = True  # whether catalog entries have a cost to show and filter by

    def __init__(self, game: Any):
        self.game = game

    def cost_text(self, entry: Any, cost: Any) -> str:
        """An entry's cost as the builder shows it beside the entry (``25 AP``, ``cost II``);
        "" without a cost."""
        if cost is None:
            return ""
        if self.game.view.cost_unit:
            return amount_text(fmt(cost), self.game.view.cost_unit)
        return L_("cost {n}", n=fmt(cost))

    def entry_facts(self, entry: Any) -> str:
        """The few printed facts a player picks an entry by, shown beside its name in the
        builder (a Satsuma card's suits and strengths); "" for none."""
        return ""

    def entry_type(self, entry: Any) -> str:
        """What kind of entry a catalog entry is, for the builder's filter ("" when unknown)."""
        return str(getattr(entry, self.type_field, None) or "") if entry is not None else ""

    def offers(self, data: ListData, entry: Any) -> bool:
        """Whether the builder offers ``entry`` to this list at all (a Satsuma side's cards)."""
        return True

    def entries(self, data: ListData, catalog: Any) -> list[Any]:
        """``(section, entry)`` of what the builder shows beside the list, one row per name."""
        out, seen = [], set()
        for section in self.sections:
            for e in catalog.entries(section):
                if self.offers(data, e) and (section, e.name) not in seen:
                    seen.add((section, e.name))
                    out.append((section, e))
        return out

    def option_extra(self, data: ListData, entry: Any) -> dict[str, object]:
        """More facts of a catalog row beside the list (a troop's cost per model, its clans)."""
        return {}

    def option_rank(self, row: Mapping[str, Any]) -> tuple[object, ...]:
        """The order of the catalog rows: what can be added first, then by name."""
        return (not row["can"], row["name"])
