"""A seventh game for the tests, a wargame of units of models: its catalog model, rules, roster
and GameSystem in one module (the toy card game is ``tests/toygame.py``).

A list holds ``points`` (the army's size) and ``troops``, each a unit ``{troop: NAME, models: N}``.
The game has the ``units`` part (the web builder edits it unit by unit) and the ``sheet`` part
(it prints a roster instead of cards). Registered by ``tests/test_toy_units_game.py`` only; its
catalog folder is ``tests/data/toyunits``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import toyunits_edits

from builder.catalog.base import BaseCatalog, Entry, Sourced
from builder.errors import ListError, UnknownEntry, UsageError
from builder.findings import error
from builder.kit.fields import Field
from builder.systems.base import GameSystem
from builder.systems.catalog import CatalogPart
from builder.systems.editing import EditingPart
from builder.systems.listdoc import DocumentPart
from builder.systems.newlist import NewListPart, NewOption
from builder.systems.parts import part
from builder.systems.printing import PrintingPart
from builder.systems.questions import QuestionsPart
from builder.systems.settings import SettingsPart
from builder.systems.text import TextPart
from builder.systems.view import BrowsePart, ViewPart


class Troop(Entry):
    points: int
    min_models: int
    max_models: int


class ArmyRules(Sourced):
    points: int
    max_units: int


class ToyUnitsCatalog(BaseCatalog):
    army_rules: ArmyRules
    troops: list[Troop] = []


CATALOG_MODEL = ToyUnitsCatalog

FINDING_CODES = {
    "toyu.points-max": "the army costs no more points than its size",
    "toyu.units-max": "no more units than the rules allow",
    "toyu.models-range": "a unit has between its troop's fewest and most models",
    "toyu.unknown-troop": "a troop the catalog does not know",
}


@dataclass
class Unit:
    written: str
    models: int
    troop: Troop | None  # the catalog troop (None: unknown)
    loc: tuple


@dataclass
class ToyArmy:
    points: int
    entries: list[Unit] = field(default_factory=list)


def _whole(doc, loc, value, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ListError(doc.diag(loc, f"{what} must be a whole number of at least 1"))
    return value


def load_list(doc, catalog):
    data = doc.data
    points = _whole(doc, ("points",), data.get("points", catalog.model.army_rules.points), "points")
    troops = data.get("troops") or []
    if not isinstance(troops, list):
        raise ListError(doc.diag(("troops",), "'troops' must be a list of units"))
    army, findings = ToyArmy(points), []
    for i, t in enumerate(troops):
        name = t.get("troop") if isinstance(t, dict) else t
        models = _whole(doc, ("troops", i, "models"), t.get("models", 1), "models") if isinstance(t, dict) else 1
        troop = catalog.find("troops", str(name))
        if troop is None:
            findings.append(error("toyu.unknown-troop", f"unknown troop '{name}'", loc=("troops", i)))
        army.entries.append(Unit(str(name), models, troop, ("troops", i)))
    return army, findings


def cost(unit: Unit) -> int:
    return unit.models * unit.troop.points if unit.troop is not None else 0


def check(army, catalog, rules):
    r = catalog.model.army_rules
    out = []
    total = sum(cost(u) for u in army.entries)
    if total > army.points:
        out.append(
            error(
                "toyu.points-max",
                f"the army costs {total} points, more than its {army.points}",
                loc=("troops",),
                value=total,
                bound=army.points,
            )
        )
    if len(army.entries) > r.max_units:
        out.append(
            error(
                "toyu.units-max",
                f"{len(army.entries)} units > {r.max_units}",
                loc=("troops",),
                value=len(army.entries),
                bound=r.max_units,
            )
        )
    for u in army.entries:
        t = u.troop
        if t is not None and not t.min_models <= u.models <= t.max_models:
            out.append(
                error(
                    "toyu.models-range",
                    f"{u.models} {t.name}: a unit has {t.min_models} to {t.max_models} models",
                    loc=u.loc + ("models",),
                    value=u.models,
                )
            )
    return out


def summary(army, catalog, rules):
    return {
        "points": sum(cost(u) for u in army.entries),
        "limit": army.points,
        "units": len(army.entries),
        "models": sum(u.models for u in army.entries),
    }


class ToyRoster:
    """The roster the toy wargame prints instead of cards (its ``sheet`` part)."""

    kind = "roster"
    what = "roster"

    def render(
        self, doc, catalog, lst, result, out_path, *, paper, force, share_code, sources, unit_cards=False, **options
    ):
        from builder.kit.blocks import PageSpec, Styles, build_pdf, frame_width_mm, para, table

        st = Styles()
        width = frame_width_mm(paper, 1)
        rows = [[u.written, str(u.models), str(cost(u))] for u in lst.entries]
        total = summary(lst, catalog, {})
        story = [
            para(doc.name or "Toy army", st.title),
            para(f"{total['points']} of {total['limit']} points, {total['units']} units", st.subtitle),
            table(rows, [width * 0.6, width * 0.2, width * 0.2], st, header=["Unit", "Models", "Points"]),
        ]
        spec = PageSpec(
            title=doc.name or "Toy army",
            kind="roster",
            system=doc.system,
            result=result,
            share_code=share_code,
            paper=paper,
        )
        return build_pdf(out_path, story, spec, force=force)


class ToyUnitsPart:
    """The toy's units (the ``Units`` part): a troop and its models, no standard, no leader."""

    standard_word = ""  # the toy's units carry no standard
    leader_word = "leader"

    def unit_rows(self, doc, catalog, rules):
        army, _ = load_list(doc, catalog)
        return [
            {
                "key": u.written,
                "name": u.troop.name if u.troop else u.written,
                "id": u.troop.id if u.troop else None,
                "entry": u.troop,
                "models": u.models,
                "cost": cost(u) if u.troop is not None else None,
                "led_by": None,
                "standard": False,
                "leader": False,
                "general": False,
                "cls": "",
            }
            for u in army.entries
        ]


class ToyUnitsView(ViewPart):
    """How the builder shows a toy army: units of models, priced in points."""

    list_title = "Army"
    cost_unit = "pts"
    count_words = ("model", "models")
    entry_words = ("unit", "units")

    def tally(self, summary):
        return {"total": summary.get("points", 0), "limit": summary.get("limit"), "unit": "pts", "more": ""}


class ToyUnitsBrowse(BrowsePart):
    """The toy's troops beside the army."""

    sections = ("troops",)


class ToyUnitsDocument(DocumentPart):
    """The toy's list document: ``points`` and ``troops``, each ``{troop: NAME, models: N}``."""

    declared = (
        Field("points", "int"),
        Field(
            "troops",
            "items",
            item_key="troop",
            what="troop",
            fields=(Field("troop", "ref", ("troops",), what="troop"), Field("models", "int", default=1)),
        ),
    )


class ToyUnitsPrinting(PrintingPart):
    """The toy's player aid: the toy card game's template."""

    aid_template = Path(__file__).resolve().parent / "data" / "toygame-aid.yaml"


class ToyUnitsText(TextPart):
    """The toy's text form: the points in the header, ``MODELS TROOP`` a line."""

    def header(self, doc, summary):
        return [f"{doc.get('points')} pts"] if doc.get("points") else []

    def entries(self, doc, resolver):
        return [f"{t.get('models', 1)} {t.get('troop')}" for t in doc.get("troops") or [] if isinstance(t, dict)]


class ToyUnitsQuestions(QuestionsPart):
    """What adding a unit to a toy army would do: each troop, tried with its fewest models."""

    def candidates(self, catalog):
        for t in catalog.entries("troops"):
            yield "troops", t, "troop", t.points


class ToyUnitsNewList(NewListPart):
    """How a new toy army starts: its points (the form asks for them), no units."""

    options = frozenset({"points"})

    def declare(self, catalog):
        return [NewOption("points", "Points", "number", default=catalog.model.army_rules.points, min=1, max=10000)]

    def body(self, data, catalog, options):
        data["points"] = options["points"]
        data["troops"] = []
        return [f"a toy army of {data['points']} points"]


class ToyUnitsSettings(SettingsPart):
    """What ``set`` may change in a toy army: its points besides the name, author and notes."""

    keys = ("name", "author", "notes", "points")

    def own(self, catalog, key, value):
        try:
            return int(value), None
        except ValueError:
            raise UsageError(f"points must be a whole number, not '{value}'") from None


class ToyUnitsCatalog(CatalogPart):
    """The toy's catalog in ``tests/data/toyunits``; its catalog model and rules in this module."""

    folder = Path(__file__).resolve().parent / "data" / "toyunits"
    module_name = __name__
    rules_name = __name__


class ToyUnitsEditing(EditingPart):
    """The ``Editing`` part: a unit of a troop added with its models, the last unit removed."""

    add_options = frozenset({"models"})
    remove_options = frozenset()
    # its own unit operations (models, duplicate, remove a unit by its place): a game brings its
    # edits as a module, and needs no file of daimyo's for them
    edits = toyunits_edits

    def _troop(self, catalog, name):
        t = catalog.find("troops", str(name))
        if t is None:
            raise UnknownEntry(f"unknown troop '{name}'")
        return t

    def add(self, data, catalog, name, count=None, *, models=None, **options):
        from builder.kit.edit import add_troop

        t = self._troop(catalog, name)
        n = models if models is not None else t.min_models
        i = add_troop(data, t.name, n)
        return [f"added {n} {t.name}"], ("troops", i)

    def remove(self, data, catalog, name, count=1, **options):
        t = self._troop(catalog, name)
        troops = data.get("troops") or []
        for i in range(len(troops) - 1, -1, -1):
            written = troops[i].get("troop") if isinstance(troops[i], dict) else troops[i]
            if str(written).casefold() == t.name.casefold():
                del troops[i]
                return [f"removed {t.name}"]
        raise UnknownEntry(f"no unit of {t.name} in the list")


class ToyUnits(GameSystem):
    id = "toyunits"
    name = "Toy skirmish"
    title = "Toy skirmish (a test-only wargame)"
    aliases = ("toy skirmish",)
    kind = "army"
    entries = ("troops",)
    what = "army"
    noun = "troop"
    printing = part(ToyUnitsPrinting)  # its player aid (the toy card game's)
    settings = part(ToyUnitsSettings)  # what 'set' may change
    new_list = part(ToyUnitsNewList)  # how a new list starts
    questions = part(ToyUnitsQuestions)  # what adding a unit would do
    view = part(ToyUnitsView)  # how the builder shows the army
    browse = part(ToyUnitsBrowse)  # its troops beside the army
    document = part(ToyUnitsDocument)  # its list document: the points and the units
    catalog = part(ToyUnitsCatalog)  # its catalog folder, and this module as catalog model and rules
    editing = part(ToyUnitsEditing)  # a unit added, the last unit of a troop removed

    def __init__(self):
        self.units = ToyUnitsPart()  # the ``Units`` part: the list is units of models
        self.sheet = ToyRoster()

    text = part(ToyUnitsText)


SYSTEM = ToyUnits()
