"""Kensei: an army of troops (units of N models) within an agreed battle size in AP."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from builder.catalog.loader import load_catalog
from builder.errors import DaimyoError, UnknownEntry, UsageError, option
from builder.games.kensei.packs import KenseiPacks
from builder.games.kensei.units import KenseiUnits
from builder.i18n import L_
from builder.kit.fields import COMMON_KEYS
from builder.kit.numbers import number
from builder.names import did_you_mean
from builder.systems.base import GameSystem, fmt
from builder.systems.editing import EditingPart
from builder.systems.newlist import NewListPart, NewOption
from builder.systems.parts import part
from builder.systems.questions import QuestionsPart
from builder.systems.settings import SettingsPart
from builder.yamlio import Positions

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from pathlib import Path

    from builder.catalog.loader import Catalog
    from builder.games.kensei.analytics import KenseiAnalytics
    from builder.games.kensei.printing import KenseiPrinting
    from builder.games.kensei.rules import KenseiList
    from builder.games.kensei.text import KenseiText
    from builder.games.kensei.view import KenseiBrowse, KenseiView
    from builder.systems.parts import Cost, Entry, ListData, Options, PreviewLine, Row, Summary, Where


SET_KEYS = ("commander", "points", "clan", "occult", "general", "name")


def _one_of(catalog: Catalog, section: str) -> str:
    return "one of " + ", ".join(e.id for e in catalog.entries(section))


class KenseiRoster:
    """The army roster Kensei prints instead of cards (the ``SheetPrinter`` part)."""

    kind = "roster"
    what = "roster"
    line_section = "troops"

    def render(self, doc: Any, catalog: Catalog, lst: KenseiList, result: Any, out_path: Path, **options: Any) -> Path:
        from builder.games.kensei.roster import render_roster  # noqa: PLC0415 - the roster (reportlab) only when printing; `daimyo check` loads none

        return render_roster(doc, catalog, lst, result, out_path, **options)

    def preview_line(self, pack_path: Path, name: str) -> PreviewLine | None:
        """A unit of one model of troop ``name`` on the roster, as a list holding it alone prints it."""
        from builder.games.kensei.roster import STAT_COLUMNS, troop_line  # noqa: PLC0415 - the roster (reportlab) only when printing; `daimyo check` loads none
        from builder.games.kensei.rules import entry_points, load_list  # noqa: PLC0415 - the rules engine only when a list is read; `daimyo catalog list` loads none

        header = ["#", "Troop", *STAT_COLUMNS, "Models", "AP/model", "AP/unit", "Abilities"]
        pack = str(pack_path)
        try:
            catalog = load_catalog("kensei", [pack])
            entry = catalog.find("troops", name)
            if entry is None:
                return None
            clans = [str(c) for c in getattr(entry, "clans", None) or []]
            # the list ``daimyo new`` starts with the troop's clan and the pack, the unit added to it
            data, _ = SYSTEM.new_list.make(catalog, {"clan": clans[0] if clans else "buke", "packs": [pack]})
            SYSTEM.editing.add(data, catalog, name, models=1)
            lst, _ = load_list(_MadeList(data), catalog)
            e = lst.entries[-1]
            e.points, e.cost_known = entry_points(e, dict(catalog.default_rules()))  # as the roster prices it
            t = troop_line(e, catalog)
        except DaimyoError:
            return None
        return {
            "header": header,
            "cells": [
                "1",
                t["name"],
                *(t["stats"][c] for c in STAT_COLUMNS),
                t["models"],
                t["per_model"],
                t["points"],
                t["abilities"],
            ],
            "notes": t["facts"] + t["tags"],
        }


class _MadeList:
    """A list document made here rather than read from a file (the rules read its game's keys)."""

    def __init__(self, data: dict):
        self.data = data
        self.positions = Positions("<preview>")

    def body(self) -> dict:
        return {k: v for k, v in self.data.items() if k not in COMMON_KEYS}


class KenseiUnitCards:
    """One card per troop profile of an army (the ``UnitCards`` part): printed after the roster
    with ``--unit-cards``, and as card images or a Tabletop Simulator deck."""

    sizes: tuple[str, ...] = ("poker", "tarot")

    def data(self, lst: KenseiList, catalog: Catalog) -> list[Row]:
        from builder.games.kensei.roster import unit_card_data  # noqa: PLC0415 - the roster (reportlab) only when printing; `daimyo check` loads none

        return unit_card_data(lst, catalog)

    def draw(
        self, c: Any, d: Mapping[str, Any], w: float, h: float, g: float, warnings: list[str], marks: bool = True
    ) -> None:
        from builder.games.kensei.roster import draw_unit_card  # noqa: PLC0415 - the roster (reportlab) only when printing; `daimyo check` loads none

        draw_unit_card(c, d, w, h, g, warnings, marks=marks)


class KenseiQuestions(QuestionsPart):
    """What adding an entry to a Kensei list would do (``gs.questions``)."""

    def candidates(self, catalog: Catalog) -> Iterator[tuple[str, Entry, str | None, Cost | None]]:
        for t in catalog.entries("troops"):
            yield "troops", t, t.troop_type, None

    def trial(self, data: ListData, catalog: Catalog, section: str, entry: Any) -> tuple[ListData, Where | None, int]:
        n = self.game.default_models(catalog, entry)
        troops = data.get("troops")
        troops = list(troops) if isinstance(troops, list) else []
        troops.append({"troop": entry.name, "models": n} if n != 1 else {"troop": entry.name})
        return {**data, "troops": troops}, ("troops", len(troops) - 1), n

    def cost(self, before: Summary, after: Summary, entry: Any, printed: Cost | None) -> Cost | None:
        if entry.cost is None and entry.purchase is None:  # the catalog has no cost for it
            return None
        a, b = number(after.get("troops")), number(before.get("troops"))
        return a - b if a is not None and b is not None else None

    def left(
        self, section: str, summary: Summary, data: ListData, entry: object, catalog: Catalog
    ) -> tuple[Cost | None, str | None]:
        p, lim = number(summary.get("points")), number(summary.get("limit"))
        return (lim - p if p is not None and lim is not None else None), "AP"

    def describe_addition(
        self, comparison: Any, data: ListData, catalog: Catalog, name: str, count: int | None, list_data: ListData
    ) -> tuple[str, str, str | None]:
        entry = data["troops"][comparison.target[1]]
        n = entry.get("models", 1)
        after = comparison.after.summary
        what = L_("{n} {name} ({points} AP)", n=n, name=entry["troop"], points=fmt(comparison.adds.get("troops", 0)))
        return what, L_("points would be {n}/{most} AP", n=fmt(after.get("points")), most=fmt(after.get("limit"))), None


class KenseiNewList(NewListPart):
    """How a new Kensei list starts (``gs.new_list``): its options and the fields of the new-list form."""

    options = frozenset({"clan", "points", "commander", "occult"})
    example = "Buke vanguard"

    def declare(self, catalog: Catalog) -> list[NewOption]:
        return [
            NewOption(
                "clan",
                L_("Clan"),
                "choice",
                help=L_("the army's clan"),
                choices=tuple((e.id, e.name) for e in catalog.entries("clans") if e.playable),
                required=True,
                prompt="choose a clan",
            ),
            NewOption(
                "points", L_("Battle size (AP)"), "number", help=L_("the agreed battle size in AP"), default=200, min=1
            ),
            NewOption(
                "commander",
                L_("Commander"),
                "choice",
                help=L_("the commander's level"),
                default="hatamoto",
                choices=tuple((e.id, e.name) for e in catalog.entries("commander_levels")),
            ),
            NewOption(
                "occult",
                L_("Occult rules"),
                "flag",
                help=L_("use the advanced occult rules"),
                default=False,
                form=False,
            ),
        ]

    def body(self, data: ListData, catalog: Catalog, options: Options) -> list[str]:
        packs = data.pop("packs", None)
        data.update(
            {
                "clan": options["clan"],
                "points": options["points"],
                "commander": options["commander"],
                "occult": bool(options["occult"]),
                "troops": [],
            }
        )
        if packs:
            data["packs"] = packs
        return []


class KenseiSettings(SettingsPart):
    """What ``set`` may change in a Kensei list (``gs.settings``)."""

    keys = SET_KEYS

    def value(self, catalog: Catalog, key: str, value: str) -> tuple[object, str | None]:
        if key not in SET_KEYS:
            raise UsageError(
                L_("cannot set '{key}'", key=key),
                did_you_mean(key, SET_KEYS) or L_("one of {values}", values=", ".join(SET_KEYS)),
            )
        if key == "commander":
            lvl = catalog.find("commander_levels", value)
            if lvl is None:
                raise UnknownEntry(
                    L_("unknown commander level '{value}'", value=value),
                    catalog.did_you_mean("commander_levels", value) or _one_of(catalog, "commander_levels"),
                )
            return lvl.id, None
        if key == "clan":
            c = catalog.find("clans", value)
            if c is None:
                raise UnknownEntry(
                    L_("unknown clan '{value}'", value=value),
                    catalog.did_you_mean("clans", value) or _one_of(catalog, "clans"),
                )
            return c.id, None
        if key == "points":
            try:
                n = int(value)
            except ValueError:
                raise UsageError(L_("points must be a whole number, not '{value}'", value=value), "e.g. 400") from None
            if n <= 0:
                raise UsageError(L_("points must be positive, not {n}", n=n))
            return n, None
        if key == "occult":
            v = value.strip().lower()
            if v in ("true", "yes", "on", "1"):
                return True, None
            if v in ("false", "no", "off", "0"):
                return False, None
            raise UsageError(L_("occult takes true or false, not '{value}'", value=value))
        if key == "general":
            if not value.strip():
                return None, None  # no general named: the list's hero leads
            return self.game.troop(catalog, value).name, None
        return value, None

    def apply(self, data: ListData, catalog: Catalog, key: str, value: str) -> tuple[list[str], Where]:
        from builder.kit.edit import delete_key, set_key  # noqa: PLC0415 - the edit toolkit (ruamel.yaml) only when a list is edited; `daimyo check` loads none

        v, _ = self.value(catalog, key, value)
        if v is None:
            if key in data:
                delete_key(data, key)
            return [L_("removed {key}", key=key)], (key,)
        set_key(data, key, v)
        return [L_("set {key} = {value}", key=key, value=str(v).lower() if isinstance(v, bool) else v)], (key,)


class KenseiEditing(EditingPart):
    """How add and remove change an army: a unit of a troop (its models, leader and standard),
    the last unit of a troop taken off; the game's own edits change a unit by its place."""

    add_options = frozenset({"models", "led_by", "standard"})
    remove_options = frozenset()

    def __init__(self, game: Kensei) -> None:
        super().__init__(game)
        from builder.games.kensei import edits  # noqa: PLC0415 - the game's own edits only when a list is edited; `daimyo check` loads none

        self.edits = edits  # a unit's models, standard, leader; duplicate and remove a unit by its place

    def option_refusal(self, verb: str, opt: str) -> str:
        if verb == "remove":
            return f"{option('count')} and {option('all')} apply to card lists; 'remove' takes one kensei troop entry"
        if opt == "count":
            return f"{option('count')} applies to card lists; a kensei unit's size is {option('models')}"
        return super().option_refusal(verb, opt)

    def add(
        self,
        data: ListData,
        catalog: Catalog,
        name: str,
        count: int | None = None,
        *,
        models: int | None = None,
        led_by: str | None = None,
        standard: bool = False,
        **options: Any,
    ) -> tuple[list[str], Where | None]:
        from builder.kit.edit import add_troop  # noqa: PLC0415 - the edit toolkit (ruamel.yaml) only when a list is edited; `daimyo check` loads none

        t = self.game.troop(catalog, name)
        n = models if models is not None else self.game.default_models(catalog, t)
        if n < 1:
            raise UsageError(L_("{option} must be at least 1, not {n}", option=option("models"), n=n))
        if led_by is not None:
            self.game.troop(catalog, led_by)
        i = add_troop(data, t.name, n, led_by, standard)
        return [L_("added {n} {name}", n=n, name=t.name) if n > 1 else L_("added {name}", name=t.name)], ("troops", i)

    def remove(self, data: ListData, catalog: Catalog, name: str, count: int | None = 1, **options: Any) -> list[str]:
        from builder.kit.edit import remove_troop  # noqa: PLC0415 - the edit toolkit (ruamel.yaml) only when a list is edited; `daimyo check` loads none

        removed = remove_troop(data, name, catalog)
        return [L_("removed {name}", name=removed.get("troop") if isinstance(removed, dict) else removed)]


class Kensei(GameSystem["KenseiList", "Catalog"]):
    id = "kensei"
    name = "Kensei"
    title = "Kensei (miniature wargame, 2nd edition)"
    aliases = ("kensei 2nd edition", "kensei 2e")
    kind = "army"
    entries = ("troops",)
    what = "army"
    noun = "troop"

    def __init__(self) -> None:
        self.units = KenseiUnits(self)  # a Kensei army is units of models (``units.py``)
        self.sheet = KenseiRoster()
        self.unit_cards = KenseiUnitCards()

    def troop(self, catalog: Catalog, name: str) -> Any:
        t = catalog.find("troops", name)
        if t is None:
            raise UnknownEntry(
                L_("unknown troop '{name}'", name=name),
                catalog.did_you_mean("troops", name) or L_("see 'daimyo catalog list kensei troops'"),
            )
        return t

    def default_models(self, catalog: Catalog, troop: Any) -> int:
        from builder.games.kensei.rules import troop_facts  # noqa: PLC0415 - the rules engine only when a list is read; `daimyo catalog list` loads none

        if troop_facts(troop, catalog)["unit"] is True:
            return max(3, troop.unit_min or 3)
        return 1

    # -- the parts it changes (``builder.systems.parts``) ------------------------------------------
    text: part[KenseiText] = part(".text:KenseiText")
    analytics: part[KenseiAnalytics] = part(".analytics:KenseiAnalytics")
    settings = part(KenseiSettings)
    new_list = part(KenseiNewList)
    questions = part(KenseiQuestions)
    view: part[KenseiView] = part(".view:KenseiView")
    browse: part[KenseiBrowse] = part(".view:KenseiBrowse")
    printing: part[KenseiPrinting] = part(".printing:KenseiPrinting")
    packs = part(KenseiPacks)
    editing = part(KenseiEditing)  # a unit of a troop added, the last one removed


SYSTEM = Kensei()
