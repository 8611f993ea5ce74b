"""Kensei: an army of troops (units of N models) within an agreed battle size in AP."""

from __future__ import annotations

from builder.errors import UnknownEntry, UsageError, command_line, option
from builder.games.kensei import edits as kensei_edits
from builder.names import did_you_mean
from builder.systems.base import GameSystem, fmt

SET_KEYS = ("commander", "points", "clan", "occult", "general", "name")


def _one_of(catalog, section: str) -> str:
    return "one of " + ", ".join(e.id for e in catalog.entries(section))


class KenseiRoster:
    """The army roster Kensei prints instead of cards (the ``SheetPrinter`` part)."""

    kind = "roster"
    what = "roster"
    line_section = "troops"

    def render(self, doc, catalog, lst, result, out_path, **options):
        from builder.games.kensei.roster import render_roster  # reportlab: loaded when printing

        return render_roster(doc, catalog, lst, result, out_path, **options)

    def preview_line(self, pack_path, name):
        """A unit of one model of troop ``name`` on the roster, as a list holding it alone prints it."""
        from builder.catalog.loader import load_catalog
        from builder.errors import DaimyoError
        from builder.games.kensei.roster import troop_line
        from builder.games.kensei.rules import entry_points, load_list
        from builder.lists.editor import ListEditor

        header = ["#", "Troop", "Models", "AP/model", "AP/unit", "Abilities"]
        pack = str(pack_path)
        try:
            entry = load_catalog("kensei", [pack]).find("troops", name)
            if entry is None:
                return None
            clans = [str(c) for c in getattr(entry, "clans", None) or []]
            ed, _ = ListEditor.new("kensei", pack_files=[pack], packs=[pack], clan=clans[0] if clans else "buke")
            ed.add(name, models=1)
            lst, _ = load_list(ed.doc, ed.catalog)
            e = lst.entries[-1]
            e.points, e.cost_known = entry_points(e, dict(ed.catalog.default_rules()))  # as the roster prices it
            t = troop_line(e, ed.catalog)
        except DaimyoError:
            return None
        return {"header": header, "cells": ["1", t["name"], t["models"], t["per_model"], t["points"], t["abilities"]],
                "notes": t["facts"] + t["tags"]}


class KenseiUnitCards:
    """One card per troop profile of an army (the ``UnitCards`` part): printed after the roster
    with ``--unit-cards``, and as card images or a Tabletop Simulator deck."""

    sizes: tuple[str, ...] = ("poker", "tarot")

    def data(self, lst, catalog):
        from builder.games.kensei.roster import unit_card_data

        return unit_card_data(lst, catalog)

    def draw(self, c, d, w, h, g, warnings, marks=True):
        from builder.games.kensei.roster import _draw_card  # reportlab: loaded when printing

        _draw_card(c, d, w, h, g, warnings, marks=marks)


class Kensei(GameSystem):
    id = "kensei"
    name = "Kensei"
    title = "Kensei (miniature wargame, 2nd edition)"
    aliases = ("kensei 2nd edition", "kensei 2e")
    kind = "army"
    entries = ("troops",)
    set_keys = SET_KEYS
    what = "army"
    noun = "troop"
    add_options = frozenset({"models", "led_by", "standard"})
    remove_options = frozenset()
    new_options = frozenset({"clan", "points", "commander", "occult"})
    edits = kensei_edits  # a unit's models, standard, leader; duplicate and remove a unit by its place
    list_title = "Army"
    cost_unit = "AP"
    type_field = "troop_type"
    browse_sections = ("troops",)
    count_words = ("model", "models")
    standard_word = "Hata-Jurushi"
    leader_word = "unit leader"
    entry_words = ("unit", "units")
    name_example = "Buke vanguard"

    def __init__(self):
        self.units = self  # a Kensei army is units of models (the ``Units`` part)
        self.sheet = KenseiRoster()
        self.unit_cards = KenseiUnitCards()

    def composition(self, summary):
        keys = ("units", "leaders", "models", "melee_percent", "ranged_percent", "firearms_percent",
                "cavalry_percent", "skirmishers_percent", "creatures_percent")
        return [(k.replace("_percent", " %").replace("_", " "), summary[k]) for k in keys if k in summary]

    # -- the builder's view -----------------------------------------------------------------------

    def tally(self, summary):
        return {"total": summary.get("points", 0), "limit": summary.get("limit", 0), "unit": "AP", "more": ""}

    def unit_costs(self, doc, catalog, rules):
        from builder.games.kensei.rules import entry_points, load_list

        hit = getattr(doc, "loaded", None)  # read by the check of this very data already
        lst = hit[2] if hit is not None and hit[0] is doc.data and hit[1] is catalog else load_list(doc, catalog)[0]
        return [(e, *entry_points(e, rules)) for e in lst.entries]

    def builder_settings(self, data, catalog):
        leaders = []
        for t in data.get("troops") or []:
            n = t.get("troop") if isinstance(t, dict) else t
            tr = catalog.find("troops", str(n)) if n else None
            if tr is not None and getattr(tr, "leader", False) and (tr.name, tr.name) not in leaders:
                leaders.append((tr.name, tr.name))
        return [
            {"key": "points", "label": "Battle size (AP)", "value": data.get("points", ""), "type": "number"},
            {"key": "clan", "label": "Clan", "value": data.get("clan", ""),
             "choices": [(e.id, e.name) for e in catalog.entries("clans")]},
            {"key": "commander", "label": "Commander", "value": data.get("commander", "hatamoto"),
             "choices": [(e.id, e.name) for e in catalog.entries("commander_levels")]},
            {"key": "occult", "label": "Occult rules", "value": str(bool(data.get("occult"))).lower(),
             "choices": [("false", "no"), ("true", "yes")]},
            {"key": "general", "label": "General", "value": data.get("general", ""),
             "choices": [("", "(the list's hero)")] + leaders}]

    def new_fields(self, catalog):
        return [{"key": "clan", "label": "Clan", "value": "", "prompt": "choose a clan",
                 "choices": [(e.id, e.name) for e in catalog.entries("clans")]},
                {"key": "points", "label": "Battle size (AP)", "value": "200", "type": "number", "min": 1},
                {"key": "commander", "label": "Commander", "value": "hatamoto",
                 "choices": [(e.id, e.name) for e in catalog.entries("commander_levels")]}]

    def option_extra(self, data, entry):
        clans = list(getattr(entry, "clans", []) or [])
        return {"unit_cost": getattr(entry, "cost", None), "clans": clans,
                "own_clan": str(data.get("clan", "")).lower() in clans}

    def option_rank(self, row):
        """The list's own clan first, then troops any clan may take, then the rest."""
        clans = row.get("clans") or []
        return (0 if row.get("own_clan") else 1 if ("any" in clans or not clans) else 2, not row["can"], row["name"])

    # -- names ----------------------------------------------------------------------------------

    # -- packs: the sections a template documents first, what each entry field means --------------
    pack_sections = ("troops",)
    pack_docs = {
        "troops": {
            "clans": "the clans that may field the troop (empty: any clan)",
            "list_section": "the section of the army list it is bought in",
            "cost": "the cost in army points (AP) per model",
            "purchase": "a bulk purchase: {models: N, points: AP}",
            "troop_class": "the troop class",
            "leader": "true when the troop is a leader",
            "general": "true when it may be the army's general",
            "unique": "true when at most one may be fielded",
            "legendary": "true for a legendary troop",
            "troop_type": "infantry, cavalry, ...",
            "titles": "titles held",
            "volume": "the troop's volume (base size class)",
            "weapons": "weapons carried",
            "armour": "armour worn",
            "mount": "the mount, for cavalry",
            "abilities": "special abilities",
            "ki_abilities": "Ki abilities",
            "living": "false for creatures that are not living",
            "common": "true for common troops",
            "realm": "the realm of a creature",
            "single": "true when it is a single model, not a unit",
            "unit_min": "the fewest models in a unit",
            "unit_max": "the most models in a unit",
            "companions": "models that always come with it: [{troop: NAME, count: N}]",
            "profile": "the stat line: {mov: 10, at: 2, ini: 1, ho: 3, wo: 1} (also mov_alt, at_ranged, pr, ki)",
        },
    }
    pack_values_from = {
        ("troops", "clans"): "clans",
        ("troops", "troop_class"): "troop_classes",
        ("troops", "troop_type"): "troop_types",
        ("troops", "titles"): "titles",
        ("troops", "weapons"): "weapons",
        ("troops", "armour"): "armour",
        ("troops", "abilities"): "abilities",
    }

    def troop(self, catalog, name: str):
        t = catalog.find("troops", name)
        if t is None:
            raise UnknownEntry(f"unknown troop '{name}'", catalog.did_you_mean("troops", name) or
                               "see 'daimyo catalog list kensei troops'")
        return t

    def default_models(self, catalog, troop) -> int:
        from builder.games.kensei.rules import troop_facts

        if troop_facts(troop, catalog)["unit"] is True:
            return max(3, troop.unit_min or 3)
        return 1

    def option_refusal(self, verb, opt):
        if verb == "remove":
            return f"{option('count')} and {option('all')} apply to card lists; 'remove' takes one kensei troop entry"
        if opt == "count":
            return f"{option('count')} applies to card lists; a kensei unit's size is {option('models')}"
        return super().option_refusal(verb, opt)

    # -- editing --------------------------------------------------------------------------------

    def new_body(self, data, catalog, options):
        clan, commander = options.get("clan"), options.get("commander") or "hatamoto"
        points = 200 if options.get("points") is None else options["points"]
        if clan is None:
            raise UsageError(f"{option('clan')} is required for a kensei list",
                             command_line(f"e.g. daimyo new kensei {option('clan')} buke {option('points')} 400 -o army.yaml"))
        c = catalog.find("clans", clan)
        if c is None:
            raise UnknownEntry(f"unknown clan '{clan}'", catalog.did_you_mean("clans", clan) or _one_of(catalog, "clans"))
        lvl = catalog.find("commander_levels", commander)
        if lvl is None:
            raise UnknownEntry(f"unknown commander level '{commander}'",
                               catalog.did_you_mean("commander_levels", commander) or
                               _one_of(catalog, "commander_levels"))
        if points <= 0:
            raise UsageError(f"{option('points')} must be positive, not {points}", f"e.g. {option('points')} 200")
        packs = data.pop("packs", None)
        data.update({"clan": c.id, "points": points, "commander": lvl.id, "occult": bool(options.get("occult")),
                     "troops": []})
        if packs:
            data["packs"] = packs
        return []

    def add(self, data, catalog, name, count=None, *, models=None, led_by=None, standard=False, **options):
        from builder.kit.edit import add_troop

        t = self.troop(catalog, name)
        n = models if models is not None else self.default_models(catalog, t)
        if n < 1:
            raise UsageError(f"{option('models')} must be at least 1, not {n}")
        if led_by is not None:
            self.troop(catalog, led_by)
        i = add_troop(data, t.name, n, led_by, standard)
        return [f"added {n} {t.name}" if n > 1 else f"added {t.name}"], ("troops", i)

    def remove(self, data, catalog, name, count=1, **options):
        from builder.kit.edit import remove_troop

        removed = remove_troop(data, name, catalog)
        return [f"removed {removed.get('troop') if isinstance(removed, dict) else removed}"]

    def set_value(self, catalog, key, value):
        if key not in SET_KEYS:
            raise UsageError(f"cannot set '{key}'", did_you_mean(key, SET_KEYS) or "one of " + ", ".join(SET_KEYS))
        if key == "commander":
            lvl = catalog.find("commander_levels", value)
            if lvl is None:
                raise UnknownEntry(f"unknown commander level '{value}'",
                                   catalog.did_you_mean("commander_levels", value) or
                                   _one_of(catalog, "commander_levels"))
            return lvl.id, None
        if key == "clan":
            c = catalog.find("clans", value)
            if c is None:
                raise UnknownEntry(f"unknown clan '{value}'", catalog.did_you_mean("clans", value) or
                                   _one_of(catalog, "clans"))
            return c.id, None
        if key == "points":
            try:
                n = int(value)
            except ValueError:
                raise UsageError(f"points must be a whole number, not '{value}'", "e.g. 400") from None
            if n <= 0:
                raise UsageError(f"points must be positive, not {n}")
            return n, None
        if key == "occult":
            v = value.strip().lower()
            if v in ("true", "yes", "on", "1"):
                return True, None
            if v in ("false", "no", "off", "0"):
                return False, None
            raise UsageError(f"occult takes true or false, not '{value}'")
        if key == "general":
            if not value.strip():
                return None, None  # no general named: the list's hero leads
            return self.troop(catalog, value).name, None
        return value, None

    def set(self, data, catalog, key, value):
        from builder.kit.edit import delete_key, set_key

        v, _ = self.set_value(catalog, key, value)
        if v is None:
            if key in data:
                delete_key(data, key)
            return [f"removed {key}"], (key,)
        set_key(data, key, v)
        return [f"set {key} = {str(v).lower() if isinstance(v, bool) else v}"], (key,)

    # -- questions -------------------------------------------------------------------------------

    def candidates(self, catalog):
        for t in catalog.entries("troops"):
            yield "troops", t, t.troop_type, None

    def trial(self, data, catalog, section, entry):
        n = self.default_models(catalog, entry)
        troops = data.get("troops")
        troops = list(troops) if isinstance(troops, list) else []
        troops.append({"troop": entry.name, "models": n} if n != 1 else {"troop": entry.name})
        return {**data, "troops": troops}, ("troops", len(troops) - 1), n

    def cost(self, before, after, entry, printed):
        from builder.kit.edit import number

        if entry.cost is None and entry.purchase is None:  # the catalog has no cost for it
            return None
        a, b = number(after.get("troops")), number(before.get("troops"))
        return a - b if a is not None and b is not None else None

    def left(self, section, summary, data, entry, catalog):
        from builder.kit.edit import number

        p, lim = number(summary.get("points")), number(summary.get("limit"))
        return (lim - p if p is not None and lim is not None else None), "AP"

    def describe_addition(self, comparison, data, catalog, name, count, list_data):
        entry = data["troops"][comparison.target[1]]
        n = entry.get("models", 1)
        after = comparison.after.summary
        what = f"{n} {entry['troop']} ({fmt(comparison.adds.get('troops', 0))} AP)"
        return what, f"points would be {fmt(after.get('points'))}/{fmt(after.get('limit'))} AP", None


    # -- text form -------------------------------------------------------------------------------

    text_example = "write e.g. 'My army - Kensei - clan buke - 200 AP'"

    def text_header(self, doc, summary):
        from builder.games.kensei.text import header

        return header(doc, summary)

    def text_keys(self, doc):
        from builder.games.kensei.text import keys

        return keys(doc)

    def text_entries(self, doc, resolver):
        from builder.games.kensei.text import entries

        return entries(doc, resolver)

    def read_facet(self, p, seg):
        from builder.games.kensei.text import facet

        return facet(p, seg)

    def read_entry(self, p, line, no, col):
        from builder.games.kensei.text import troop_line

        troop_line(p, line, no, col)

    def infer_line(self, line):
        from builder.games.kensei.text import bare

        return bare(line)

    # -- printing and analytics ------------------------------------------------------------------

    def total(self, summary):
        return f"{summary['points']}/{summary.get('limit', '?')} AP" if "points" in summary else super().total(summary)

    def stats_facts(self, loaded):
        from builder.games.kensei.analytics import kensei_facts

        return kensei_facts(loaded)

    def stats_lines(self, stats):
        from builder.games.kensei.analytics import kensei_lines

        return kensei_lines(stats)

    def stats_charts(self, stats):
        return [(f"Points by troop {block['by']} (of {stats['battle_size']} AP)", "bars",
                 [(str(v["value"]), v["points"]) for v in block["values"]], " AP") for block in stats["points"]]

    def aid_blocks(self):
        from builder.games.kensei.aid import BLOCKS  # the block toolkit (reportlab): loaded when printing

        return BLOCKS


SYSTEM = Kensei()
