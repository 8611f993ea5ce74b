"""The Kensei army roster, with optional unit cards.

Page 1 onward: the army (clan, battle size, points, commander level, general, command
hand, rout threshold), the troops (stat line, models, AP per model and per unit; one table row
per unit, so a unit never splits across a page), the limits table (every
army-building restriction with its value, bound and pass/fail, evaluated exactly as
``daimyo check`` does), the glossary (the text of every ability the army uses,
printed once) and the full validation result. With ``unit_cards=True`` one card per
profile follows ("x N"), with the stat line where the catalog or a pack gives it.

Layout numbers live in ``templates/roster/kensei.yaml``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reportlab.platypus import CondPageBreak, Flowable, Table, TableStyle

from builder.catalog.loader import load_catalog
from builder.catalog.overlay import display_name, display_text
from builder.errors import DaimyoError, UsageError, option
from builder.games.kensei.rules import (
    ROUT_PERCENT,
    entry_points,
    hand_size,
    limit_table,
    load_list,
    rout_threshold,
)
from builder.i18n import L_, N_, _, ngettext, tr
from builder.kit import fonts, pdfbase
from builder.kit.blocks import (
    CELL_PAD,
    MM,
    Markup,
    PageSpec,
    Styles,
    build_pdf,
    compact_tables,
    esc,
    frame_width_mm,
    keep,
    para,
    small_paper_layout,
    source_line,
    sources_on,
    sources_shown,
    spec_footer,
    table,
    tables_compact,
    validation_block,
)
from builder.kit.fields import COMMON_KEYS
from builder.kit.layout import card_matrix, card_size, cut_marks, plan_sheet
from builder.kit.pdfbase import appendix, list_display_name
from builder.paths import templates_dir
from builder.rulebooks import format_source
from builder.yamlio import Positions, load_yaml

if TYPE_CHECKING:
    from builder.catalog.loader import Catalog
    from builder.games.kensei.rules import KenseiList
    from builder.systems.parts import PreviewLine, Row

SEED = "001_dbcd2f61c1014419.txt"
DASH = "\u2014"
STAT_FIELDS = (("mov", "MOV"), ("at", "AT"), ("ini", "INI"), ("ho", "HO"), ("wo", "WO"))
CREATURE_FIELDS = (("mov", "MOV"), ("at", "AT"), ("ini", "INI"), ("pr", "PR"), ("wo", "WO"), ("ki", "KI"))
# the printed words of the stat line and the troop table's columns (the template and the code
# name them in English; a page shows them in its language)
LABELS = {
    "MOV": N_("MOV"),
    "AT": N_("AT"),
    "INI": N_("INI"),
    "HO": N_("HO"),
    "WO": N_("WO"),
    "PR": N_("PR"),
    "KI": N_("KI"),
    "Troop": N_("Troop"),
    "Models": N_("Models"),
    "AP/model": N_("AP/model"),
    "AP/unit": N_("AP/unit"),
    "Abilities": N_("Abilities"),
    "Stats": N_("Stats"),
}


def label(name: str) -> str:
    """A column or stat name as printed in the current language."""
    return _(LABELS[name]) if name in LABELS else name


# -- template --------------------------------------------------------------------------

_DEFAULT_TEMPLATE = {
    "font_size": 8.5,
    "troop_columns": {
        "#": 6,
        "Troop": 44,
        "MOV": 12,
        "AT": 10,
        "INI": 8,
        "HO": 10,
        "WO": 8,
        "Models": 15,
        "AP/model": 19,
        "AP/unit": 15,
        "Abilities": 39,
    },
    "unit_card": {"width": 86, "height": 60, "gutter": 3, "columns": 2},
}


def load_template() -> dict:
    """``templates/roster/kensei.yaml`` merged over the built-in defaults."""
    out: dict[str, Any] = {k: (dict(v) if isinstance(v, dict) else v) for k, v in _DEFAULT_TEMPLATE.items()}
    path = templates_dir() / "roster" / "kensei.yaml"
    if path.is_file():
        data, _pos = load_yaml(path)
        for k, v in (data or {}).items():
            if isinstance(v, dict) and isinstance(out.get(k), dict):
                out[k].update(v)
            else:
                out[k] = v
    return out


# -- numbers -----------------------------------------------------------------------------


def num(x: Any) -> str:
    if x is None:
        return DASH
    if isinstance(x, Fraction):
        return str(x.numerator) if x.denominator == 1 else f"{float(x):.2f}".rstrip("0").rstrip(".")
    if isinstance(x, float):
        return str(int(x)) if x.is_integer() else f"{x:.2f}".rstrip("0").rstrip(".")
    return str(x)


def cost_per_model(troop: Any) -> str:
    if troop is None:
        return DASH
    if getattr(troop, "purchase", None) is not None:
        p = troop.purchase
        return _("{points} per {models}").format(points=num(p.points), models=p.models)
    return num(troop.cost)


# -- abilities -----------------------------------------------------------------------------


def troop_abilities(troop: Any, catalog: Catalog) -> list[tuple[str, str | None]]:
    """(ability name, kind) of a profile: its own, its Ki abilities and those its titles grant."""
    if troop is None:
        return []
    out: list[tuple[str, str | None]] = []
    seen = set()

    def add(name: Any, kind: Any) -> None:
        key = str(name).casefold()
        if key not in seen:
            seen.add(key)
            out.append((str(name), kind))

    for a in troop.abilities:
        add(a, "PA")
    for a in troop.ki_abilities:
        add(a, "Ki")
    for t in troop.titles:
        title = catalog.find("titles", t)
        for g in getattr(title, "grants", []) or []:
            add(g, "PA")
    return out


def glossary(lst: Any, catalog: Catalog) -> list[dict]:
    """Every ability the army uses, once, alphabetically, with its text and who uses it."""
    entries: dict[str, dict] = {}
    for e in lst.entries:
        for name, kind in troop_abilities(e.troop, catalog):
            ab = catalog.find("abilities", name)
            key = ab.id if ab is not None else name.casefold()
            item = entries.setdefault(
                key,
                {
                    "name": display_name(catalog, "abilities", ab) if ab is not None else name,
                    "text": display_text(catalog, "abilities", ab, ab.text.strip()) if ab is not None else None,
                    "source": ab.source if ab is not None else None,
                    "kinds": set(),
                    "users": [],
                },
            )
            if kind:
                item["kinds"].add(kind)
            user = display_name(catalog, "troops", e.troop)
            if user not in item["users"]:
                item["users"].append(user)
    return sorted(entries.values(), key=lambda d: d["name"].casefold())


def troop_source(catalog: Catalog, t: Any) -> str | None:
    """Where a troop's profile comes from, as a player reads it: the rulebook section and line,
    or the pack by name (never a path of the installation)."""
    if t is None:
        return None
    pack = getattr(catalog, "from_pack", {}).get(("troops", t.id))
    src = format_source(t.source) if getattr(t, "source", None) else ""
    if pack:
        where = (_("example pack {pack}") if catalog.is_example("troops", t) else _("pack {pack}")).format(
            pack=Path(pack).stem
        )
        return where + (f"; {src}" if src else "")
    return src or _("daimyo catalog (assumed; not in the rulebook)")


def short_source(src: str | None) -> str:
    """``001_...txt:5962-5967`` -> ``Restrictions according to type of troop (lines 5962-5967)``:
    the section and lines, the rulebook being named once under the table."""
    return format_source(src, short=True) if src else ""


# -- the roster -------------------------------------------------------------------------------


def render_roster(
    doc: Any,
    catalog: Catalog,
    lst: Any,
    result: Any,
    out_path: Any,
    *,
    paper: Any = (210.0, 297.0),
    force: bool = False,
    share_code: str | None = None,
    unit_cards: bool = False,
    sources: bool = True,
    **options: Any,
) -> Path:
    """Write the roster of a Kensei list to ``out_path``; returns the path."""
    tpl = load_template()
    title = doc.name or _("Kensei army")
    spec = PageSpec(
        title=title,
        kind=N_("roster"),
        system=doc.system,
        result=result,
        share_code=share_code,
        paper=paper,
        author=doc.author,
        list_file=list_display_name(doc),
    )
    size, compact = small_paper_layout(paper, float(tpl.get("font_size", 8.5)), spec_footer(spec))
    with compact_tables(compact), sources_shown(sources):
        return _roster(
            doc,
            catalog,
            lst,
            result,
            out_path,
            spec,
            size,
            tpl,
            paper,
            force,
            unit_cards,
            options.get("card") or "poker",
        )


def _roster(
    doc: Any,
    catalog: Catalog,
    lst: Any,
    result: Any,
    out_path: Any,
    spec: Any,
    size: Any,
    tpl: Any,
    paper: Any,
    force: Any,
    unit_cards: Any,
    card: Any = "poker",
) -> Path:
    st = Styles(base=size)
    title = spec.title
    width = frame_width_mm(paper, 1)
    rules = dict(getattr(result, "house_rules", None) or catalog.default_rules())
    for e in lst.entries:
        e.points, e.cost_known = entry_points(e, rules)
    story: list[Any] = []
    story += _header(doc, catalog, lst, result, st, width, title, tpl)
    story += _troops(lst, catalog, st, width, tpl)
    story += _limits(lst, catalog, result, st, width)
    story += _glossary(lst, catalog, st, width)
    story += validation_block(result, st, width)
    warnings: list[str] = []
    if unit_cards:
        draw, _pages = unit_card_pages(lst, catalog, card, paper, warnings)
        if draw is not None:
            note = _(
                "Unit cards: on the pages after this roster, one card per "
                "profile at {card} size (sleeve them), \u00d7 N = units (models) of that profile in the army. "
                "{dash} = not in the rulebook (its profile tables are missing); give it in a pack. "
                "* = class value from the rulebook's worked examples."
            ).format(card=card, dash=DASH)
            story += [para(note, st.small)]
            with appendix(draw):
                return build_pdf(out_path, story, spec, force=force)
    return build_pdf(out_path, story, spec, force=force)


def _header(doc: Any, catalog: Catalog, lst: Any, result: Any, st: Any, width: Any, title: Any, tpl: Any) -> list:
    clan = catalog.find("clans", lst.clan) if lst.clan else None
    size = next((b for b in catalog.entries("battle_sizes") if b.max_ap == lst.points), None)
    level = lst.commander
    general = _general_name(lst)
    hand, hand_src = hand_size(catalog, lst.points)
    troops_pts = lst.troops_points
    rout_pct = ROUT_PERCENT
    rout = rout_threshold(troops_pts, rout_pct)
    spent = lst.total
    unspent = lst.points - spent
    legal = result is None or result.legal
    status = _("legal") if legal else _("NOT LEGAL")
    rows = [
        [_("Clan"), display_name(catalog, "clans", clan) if clan else (lst.clan_written or DASH)],
        [
            _("Battle size"),
            _("{points} AP").format(points=lst.points)
            + (f" ({display_name(catalog, 'battle_sizes', size)})" if size else ""),
        ],
        [
            _("Points"),
            _("{spent} / {points} AP spent (troops {troops} + commander level {level}); {unspent} AP unspent").format(
                spent=num(spent),
                points=lst.points,
                troops=num(troops_pts),
                level=lst.commander_cost,
                unspent=num(unspent),
            ),
        ],
        [
            _("Commander level"),
            (
                _("{level} ({cost} AP): strategy roll +{bonus}").format(
                    level=display_name(catalog, "commander_levels", level),
                    cost=level.cost,
                    bonus=level.strategy_bonus,
                )
                + (
                    _(", +{n} command card(s) in maintenance").format(n=level.extra_command_cards)
                    if level.extra_command_cards
                    else ""
                )
            )
            if level
            else str(lst.commander_written),
        ],
        [_("General"), display_name(catalog, "troops", general) if general else DASH],
        [
            _("Command hand"),
            ngettext("{n} card (battle size {points} AP)", "{n} cards (battle size {points} AP)", hand).format(
                n=hand, points=lst.points
            )
            if hand
            else DASH,
        ],
        [
            _("Rout (army in retreat)"),
            _(
                "at {rout} AP lost ({percent}% of {troops} AP of troops); the army routs when {left} AP or less remain"
            ).format(rout=num(rout), percent=f"{rout_pct:g}", troops=num(troops_pts), left=num(troops_pts - rout)),
        ],
        [_("Occult powers rules"), _("yes") if lst.occult else _("no")],
        [_("Check"), status],
    ]
    agreed = getattr(result, "house_rules_agreed", None) or {}
    if agreed:
        rows.append(
            [
                _("House rules agreed"),
                ", ".join(f"{k} = {num(v) if not isinstance(v, str) else v}" for k, v in agreed.items()),
            ]
        )
    fails = [len(rows) - 1 - (1 if agreed else 0)] if not legal else []
    out = [
        para(title, st.title),
        para(_("Kensei army roster") + (f" \u2014 {doc.author}" if doc.author else ""), st.subtitle),
    ]
    if doc.notes:
        out.append(para(doc.notes, st.body))
    srcs = [f"{SEED}:5798-5802", f"{SEED}:5806-5853", hand_src or f"{SEED}:4419-4435", f"{SEED}:2204-2212"]
    out.append(
        keep(
            table(rows, [38, width - 38], st, bold_first=True, zebra=False, fail_rows=fails),
            source_line("; ".join(srcs) + " " + _("(rout base: house rule rout_base)"), st),
        )
    )
    return out


def _general_name(lst: Any) -> str | None:
    if lst.general:
        return lst.general
    gens = [e for e in lst.entries if e.troop is not None and e.troop.general]
    return gens[0].troop.name if len(gens) == 1 else None


STAT_COLUMNS = ("MOV", "AT", "INI", "HO", "WO")  # the troop table's stat columns (a creature's PR under HO)
_RIGHT = {"Models", "AP/model", "AP/unit", *STAT_COLUMNS}


def _troops(lst: Any, catalog: Catalog, st: Any, width: Any, tpl: Any) -> list:
    cols = dict(tpl["troop_columns"])
    if tables_compact():  # stacked rows on small paper: the stat line on one line, not five
        cols = {("Stats" if c == STAT_COLUMNS[0] else c): w for c, w in cols.items() if c not in STAT_COLUMNS[1:]}
    names = list(cols)
    total_w = sum(cols.values())
    widths = [width * w / total_w for w in cols.values()]
    # the number column holds the largest row number on one line (a long list has 5 digits)
    need = (fonts.string_width(str(len(lst.entries)), fonts.REGULAR, st.cell.fontSize) + 6) / MM
    if need > widths[0] and len(widths) > 1:
        widths[1] -= need - widths[0]
        widths[0] = need
    rows = []
    general = _general_name(lst)
    marks: set[str] = set()  # what the note under the table explains: dash, class value, creature
    lines = [troop_line(e, catalog, general) for e in lst.entries]
    _fit_number_columns(names, widths, lines, st)
    for n, line in enumerate(lines, 1):
        cell = "<b>" + _e(line["name"]) + "</b>"
        if line["facts"]:
            cell += (
                f'<br/><font size="{st.cell.fontSize - 1:.1f}" color="#555555">{_e(" · ".join(line["facts"]))}</font>'
            )
        if line["tags"]:
            cell += f'<br/><font size="{st.cell.fontSize - 1:.1f}">{_e("; ".join(line["tags"]))}</font>'
        marks |= line["marks"]
        by_name = {
            "#": str(n),
            "Troop": Markup(cell),
            "Models": line["models"],
            "AP/model": line["per_model"],
            "AP/unit": line["points"],
            "Abilities": line["abilities"],
            **line["stats"],
            "Stats": " · ".join(
                v if v.startswith(label("PR") + " ") else f"{label(c)} {v}" for c, v in line["stats"].items()
            ),
        }
        rows.append([by_name.get(c, "") for c in names])

    def total_row(label: Any, models: Any, points: Any) -> list:
        by_name = {"Troop": label, "Models": models, "AP/unit": points}
        return [by_name.get(c, "") for c in names]

    rows.append(total_row(_("Troops"), str(sum(e.models for e in lst.entries)), num(lst.troops_points)))
    lvl = lst.commander
    rows.append(
        total_row(
            _("Commander level {level}").format(
                level=display_name(catalog, "commander_levels", lvl) if lvl is not None else lst.commander_written
            ),
            "",
            str(lst.commander_cost),
        )
    )
    over = lst.total > lst.points
    rows.append(
        total_row(
            para(_("<b>Total</b> (limit {points} AP)").format(points=lst.points), st.cell, markup=True),
            "",
            para(f"<b>{num(lst.total)}</b>", st.cell, markup=True),
        )
    )
    t = table(
        rows,
        widths,
        st,
        header=[label(c) for c in names],
        total_rows=[len(rows) - 3],
        fail_rows=[len(rows) - 1] if over else [],
        align_right=[i for i, c in enumerate(names) if c in _RIGHT],
    )
    missing = [e for e in lst.entries if not e.cost_known]
    out = [para(_("Troops"), st.h1), t]
    if missing:
        out.append(
            para(
                _("{dash} = cost not in the rulebook or catalog; give it in a pack ({names}).").format(
                    dash=DASH, names=", ".join(e.name for e in missing)
                ),
                st.small,
            )
        )
    notes = []
    if "dash" in marks:
        notes.append(
            _("{dash} = profile value not in the rulebook (its profile tables are missing); give it in a pack").format(
                dash=DASH
            )
        )
    if "class" in marks:
        notes.append(_("* = class value from the rulebook's worked examples"))
    if "creature" in marks:
        notes.append(_("a creature's HO column is its presence (PR)"))
    if notes:
        out.append(para(_("Stat line: {notes}.").format(notes="; ".join(notes)), st.small))
    out.append(
        source_line(
            f"{SEED}:5858-5864 "
            + _("(write each hero's and unit's cost and the army total); costs per model from the daimyo catalog"),
            st,
        )
    )
    return out


def _fit_number_columns(names: list[str], widths: list[float], lines: list[dict], st: Any) -> None:
    """Widen the stat and number columns (in place) to their widest header or value, so that a
    figure such as 10/15 never breaks across lines, taking the room from the Troop and Abilities
    columns (each kept at least 20 mm wide; on paper too narrow for that, the figures wrap)."""
    pad = (CELL_PAD[0] + CELL_PAD[1] + 1) / MM
    grow = {}
    for i, c in enumerate(names):
        if c not in _RIGHT:
            continue
        values = [ln["stats"].get(c, "") if c in STAT_COLUMNS else ln[_NUMBER_KEYS[c]] for ln in lines]
        need = (
            max(
                [fonts.string_width(label(c), fonts.BOLD, st.cellb.fontSize)]
                + [fonts.string_width(v, fonts.REGULAR, st.cell.fontSize) for v in values]
            )
            / MM
            + pad
        )
        if need > widths[i]:
            grow[i] = need - widths[i]
    give = [i for i, c in enumerate(names) if c in ("Troop", "Abilities")]
    spare = sum(max(0.0, widths[i] - 20.0) for i in give)
    wanted = sum(grow.values())
    if not grow or not give or spare <= 0:
        return
    k = min(1.0, spare / wanted)
    for i, g in grow.items():
        widths[i] += g * k
    for i in give:
        widths[i] -= wanted * k * max(0.0, widths[i] - 20.0) / spare


_NUMBER_KEYS = {"Models": "models", "AP/model": "per_model", "AP/unit": "points"}


def troop_line(e: Any, catalog: Catalog, general: str | None = None) -> dict:
    """What the roster prints of a unit ``e`` (an entry of the loaded list): its name, the
    troop's facts (class, type, titles, weapons, armour), tags (general, leader, led by,
    standard), its stat line (``stats``: MOV, AT, INI, HO, WO as printed, a dash for a value
    not known), models, AP a model, AP of the unit and abilities; ``marks``: what the stat line
    needs explained (``dash``, ``class``, ``creature``)."""
    t = e.troop
    facts = []
    stats = dict.fromkeys(STAT_COLUMNS, DASH)
    marks: set[str] = set()
    if t is not None:
        if t.troop_class:
            cls = catalog.find("troop_classes", t.troop_class)
            facts.append(display_name(catalog, "troop_classes", cls) if cls else t.troop_class)
        if t.troop_type:
            facts.append(display_name(catalog, "troop_types", t.troop_type) + (f" ({t.mount})" if t.mount else ""))
        elif t.mount:
            facts.append(_("mount: {mount}").format(mount=t.mount))
        if t.titles:
            facts.append(", ".join(display_name(catalog, "titles", x) for x in t.titles))
        if t.weapons:
            facts.append(
                _("weapons: {weapons}").format(
                    weapons=", ".join(display_name(catalog, "weapons", x) for x in t.weapons)
                )
            )
        if t.armour:
            facts.append(
                _("armour: {armour}").format(armour=", ".join(display_name(catalog, "armour", x) for x in t.armour))
            )
        for stat, value, origin in troop_stats(t, catalog):
            shown = DASH if value is None else value + ("*" if origin == "class" else "")
            if value is None:
                marks.add("dash")
            elif origin == "class":
                marks.add("class")
            if stat == "PR":
                stats["HO"] = f"{label('PR')} {shown}"
                marks.add("creature")
            elif stat == "KI":
                facts.append(f"{label('KI')} {shown}")
            else:
                stats[stat] = shown
    else:
        facts.append(_("not in the catalog"))
        marks.add("dash")
    tags = []
    if t is not None and general and (t.name == general or e.name == general):
        tags.append(_("general"))
    elif t is not None and t.leader:
        tags.append(_("leader"))
    if e.led_by:
        tags.append(_("led by {leader}").format(leader=e.led_by))
    if e.standard:
        tags.append("Hata-Jurushi" + (f" x{e.standard}" if e.standard > 1 else ""))
    if getattr(e, "companion", False):
        tags.append(_("companions: no cost, not a unit"))
    abil = ", ".join(
        f"{display_name(catalog, 'abilities', a)} ({k})" if k == "Ki" else display_name(catalog, "abilities", a)
        for a, k in troop_abilities(t, catalog)
    )
    return {
        "name": display_name(catalog, "troops", t) if t else e.name,
        "facts": facts,
        "tags": tags,
        "stats": stats,
        "marks": marks,
        "models": str(e.models),
        "per_model": cost_per_model(t),
        "points": num(e.points) if e.cost_known else DASH,
        "abilities": abil or DASH,
    }


def _e(text: Any) -> str:
    return esc(text)


STATUSES = {"pass": N_("pass"), "FAIL": N_("FAIL"), "check": N_("check")}  # a limit's result as printed


def _limits(lst: Any, catalog: Catalog, result: Any, st: Any, width: Any) -> list:
    rules = dict(getattr(result, "house_rules", None) or catalog.default_rules())
    rows_d = limit_table(lst, catalog, rules, getattr(result, "findings", None) or [])
    rows, fails = [], []
    cite = sources_on()  # --no-sources: no Source column
    for i, r in enumerate(rows_d):
        label = display_name(catalog, "restrictions", r["label"])  # a restriction's name, translated
        if label == r["label"] and r.get("text"):  # no name of its own: its words, translated
            label = tr(r["text"])
            label = label[:1].upper() + label[1:]
        status = _(STATUSES[r["status"]]) if r["status"] in STATUSES else r["status"]
        cells = [label, tr(r["value"]), tr(r["bound"]), status]
        rows.append(cells + ([short_source(r["source"])] if cite else []))
        if r["status"] != "pass":
            fails.append(i)
    out = [para(_("Army-building limits"), st.h1)]
    if not rows:
        out.append(para(_("No army-building restrictions in the catalog."), st.body))
        return out
    if cite:
        # the sources are the longest cells: the widest column, so that rows stay one or two lines
        lw, vw, bw, rw = (width * k for k in (0.235, 0.13, 0.235, 0.065))
        out.append(
            table(
                rows,
                [lw, vw, bw, rw, width - lw - vw - bw - rw],
                st,
                header=[_("Limit"), _("Value"), _("Bound"), _("Result"), _("Source")],
                fail_rows=fails,
            )
        )
        out.append(
            para(
                _(
                    "Sources are sections and lines of the Kensei rulebook. Percentages are of the battle size; "
                    "leaders do not count toward the type limits ({source}). Rows "
                    "marked check depend on profile fields the catalog lacks."
                ).format(source="001_dbcd2f61c1014419.txt:5889-5894"),
                st.small,
            )
        )
    else:
        out.append(
            table(
                rows,
                [62, 40, width - 62 - 40 - 15, 15],
                st,
                header=[_("Limit"), _("Value"), _("Bound"), _("Result")],
                fail_rows=fails,
            )
        )
        out.append(
            para(
                _(
                    "Percentages are of the battle size; leaders do not count toward the type limits. Rows "
                    "marked check depend on profile fields the catalog lacks."
                ),
                st.small,
            )
        )
    return out


def _glossary(lst: Any, catalog: Catalog, st: Any, width: Any) -> list:
    items = glossary(lst, catalog)
    out = [para(_("Abilities (glossary)"), st.h1)]
    if not items:
        out.append(para(_("No troop in this army has abilities listed in the catalog."), st.body))
        return out
    rows = []
    for it in items:
        kind = "/".join(sorted(it["kinds"]))
        name = f"<b>{_e(it['name'])}</b>" + (
            f' <font size="{st.cell.fontSize - 1:.1f}">({kind})</font>' if kind else ""
        )
        text = _e(it["text"]) if it["text"] else "<i>" + _e(_("not in the ability list; see the troop's pack")) + "</i>"
        body = (
            f'{text}<br/><font size="{st.cell.fontSize - 1:.1f}" color="#555555">'
            + _e(_("used by {users}").format(users=", ".join(it["users"])))
            + (f"; {_e(it['source'])}" if it["source"] and sources_on() else "")
            + "</font>"
        )
        rows.append([para(name, st.cell, markup=True), para(body, st.cell, markup=True)])
    out.append(table(rows, [36, width - 36], st, header=[_("Ability"), _("Rule")]))
    return out


# -- unit cards ---------------------------------------------------------------------------------


def troop_stats(t: Any, catalog: Catalog) -> list[tuple[str, str | None, str | None]]:
    """The stat line of troop profile ``t``: (label, value, origin) for MOV, AT, INI, HO and WO
    (a creature: MOV, AT, INI, PR, WO and KI). A value is the profile's own (origin
    ``profile``), else its class's (``class``: the rulebook's worked examples), else None
    (unknown). MOV and AT carry their second figure (mounted or flying; shooting): ``10/15``."""
    cls = catalog.find("troop_classes", t.troop_class) if (t is not None and t.troop_class) else None
    creature = bool(cls and cls.creature) or (t is not None and t.troop_type == "creature")
    fields = CREATURE_FIELDS if creature else STAT_FIELDS
    stats: list[tuple[str, str | None, str | None]] = []
    for key_f, label in fields:
        v = getattr(t.profile, key_f, None) if (t is not None and t.profile) else None
        origin = "profile"
        if v is None and cls is not None and cls.profile is not None:
            v = getattr(cls.profile, key_f, None)
            origin = "class"
        if v is not None and key_f == "mov":
            alt = getattr(t.profile, "mov_alt", None) if (t is not None and t.profile) else None
            if alt is None and origin == "class" and cls is not None:
                alt = getattr(cls.profile, "mov_alt", None)
            if alt:
                v = f"{v}/{alt}"
        if v is not None and key_f == "at":
            src = t.profile if (origin == "profile" and t.profile) else (cls.profile if cls else None)
            alt = getattr(src, "at_ranged", None) if src is not None else None
            if alt:
                v = f"{v}/{alt}"
        stats.append((label, None if v is None else str(v), origin if v is not None else None))
    return stats


def unit_card_data(lst: Any, catalog: Catalog) -> list[dict]:
    """One card per profile in the list: name, facts, stats (None = unknown), abilities, x N."""
    cards: dict[str, dict] = {}
    for e in lst.entries:
        t = e.troop
        key = t.id if t is not None else e.name.casefold()
        if key in cards:
            c = cards[key]
            c["entries"] += 1
            c["models"] += e.models
            continue
        cls = catalog.find("troop_classes", t.troop_class) if (t is not None and t.troop_class) else None
        stats = troop_stats(t, catalog)
        facts = []
        if t is not None:
            if cls:
                facts.append(f"{display_name(catalog, 'troop_classes', cls)} ({cls.id})")
            if t.troop_type:
                facts.append(display_name(catalog, "troop_types", t.troop_type) + (f" ({t.mount})" if t.mount else ""))
            elif t.mount:
                facts.append(_("mount: {mount}").format(mount=t.mount))
            if t.titles:
                facts.append(", ".join(display_name(catalog, "titles", x) for x in t.titles))
            if t.volume:
                facts.append(f"v{t.volume}")
            if t.leader:
                facts.append(_("leader"))
            if t.unique or t.legendary:
                facts.append(_("legendary") if t.legendary else _("unique"))
        abil = []
        for name, kind in troop_abilities(t, catalog):
            ab = catalog.find("abilities", name)
            abil.append(
                (
                    display_name(catalog, "abilities", ab) if ab else name,
                    kind,
                    display_text(catalog, "abilities", ab, ab.text.strip()) if ab else None,
                )
            )
        cards[key] = {
            "name": display_name(catalog, "troops", t) if t is not None else e.name,
            "facts": facts,
            "stats": stats,
            "weapons": [display_name(catalog, "weapons", x) for x in t.weapons] if t is not None else [],
            "armour": [display_name(catalog, "armour", x) for x in t.armour] if t is not None else [],
            "cost": cost_per_model(t),
            "abilities": abil,
            "entries": 1,
            "models": e.models,
            "single": bool(t is not None and (t.single or t.leader)),
            "source": troop_source(catalog, t) if sources_on() else None,
        }
    return list(cards.values())


UNIT_CARD_MIN_SCALE = 0.75  # unit cards shrink to fit small paper down to this (7 pt text -> 5.25 pt)


UNIT_CARD_SIZES = ("poker", "tarot")


def unit_card_pages(lst: Any, catalog: Catalog, card: str, paper: Any, warnings: list[str]) -> Any:
    """(draw, pages): the unit cards at a sleeve size (``poker`` or ``tarot``) on pages of their
    own, laid out as card sheets (every card its nominal size, cut marks on four sides), the
    cards shared evenly among the pages so that no page holds a lone card; ``draw(canvas,
    paper)`` draws them. (None, 0) when the list has no units or the paper holds no card."""
    if card not in UNIT_CARD_SIZES:
        raise UsageError(
            L_("unit cards print at a sleeve size: {value}, not '{card}'", value=", ".join(UNIT_CARD_SIZES), card=card),
            L_("use {option} poker (the default) or {option} tarot", option=option("card")),
        )
    data = list(unit_card_data(lst, catalog))
    if not data:
        return None, 0
    w, h = card_size(card)
    try:
        plan = plan_sheet(tuple(paper), (w, h), 0.0, marks=True)
    except UsageError:
        plan = None
    if plan is None or plan.per_page < 1:
        msg = (
            f"unit cards ({w:g}x{h:g} mm) do not fit on {paper[0]:g}x{paper[1]:g} mm paper; "
            "the roster is printed without them"
        )
        warnings.append(msg)
        pdfbase.warn(msg)
        return None, 0
    pages = math.ceil(len(data) / plan.per_page)
    per = math.ceil(len(data) / pages)  # 10 cards, 9 a page: 5 and 5, never 9 and 1
    chunks = [data[i : i + per] for i in range(0, len(data), per)]

    def draw(c: Any, paper_: Any) -> None:
        for chunk in chunks:
            used = plan.slots[: len(chunk)]
            for slot, d in zip(used, chunk, strict=False):
                c.saveState()
                a, b, cc, dd, e, f = card_matrix(slot.trim, slot.rotated, False)
                c.transform(a, b, cc, dd, e * MM, f * MM)
                draw_unit_card(c, d, w, h, 0.0, warnings, marks=False)
                c.restoreState()
            pdfbase.draw_marks(
                c, plan.marks if len(used) == len(plan.slots) else cut_marks(used, plan.area, plan.paper)
            )
            if hasattr(c, "page_number_at"):  # "page N of M" under the middle of the middle column,
                mid = plan.slots[min(len(used), plan.cols) // 2].trim  # clear of every cut mark
                y = max(2.5, plan.area.y / 2 - 1.0)
                c.page_number_at = ((mid.x + mid.w / 2 + 10) * MM, y * MM, 6.5)
            c.showPage()

    return draw, len(chunks)


def unit_card_flowables(
    lst: Any, catalog: Catalog, st: Any, tpl: Any, warnings: list[str], frame: Any = None, paper: Any = None
) -> list:
    cfg = tpl["unit_card"]
    w, h, gut = float(cfg["width"]), float(cfg["height"]), float(cfg["gutter"])
    ncol = int(cfg.get("columns", 2))
    scale = 1.0
    if frame is not None:
        # as many columns as fit; on small paper the cards shrink (a little) to fit
        fw, fh = frame
        ncol = max(1, min(ncol, int(fw // (w + 2 * gut))))
        scale = min(1.0, fw / (w + 2 * gut), (fh - 12.0) / (h + 2 * gut))
        if scale < UNIT_CARD_MIN_SCALE:
            msg = (
                f"unit cards ({w:g}x{h:g} mm) do not fit on {paper[0]:g}x{paper[1]:g} mm paper; "
                "the roster is printed without them (print them on A6, 105x148, or larger)"
            )
            warnings.append(msg)
            pdfbase.warn(msg)
            return []
        w, h, gut = w * scale, h * scale, gut * scale
    cards: list[Any] = [UnitCard(d, w, h, gut, warnings, scale) for d in unit_card_data(lst, catalog)]
    if not cards:
        return []
    rows = [cards[i : i + ncol] for i in range(0, len(cards), ncol)]
    if len(rows[-1]) < ncol:
        rows[-1] = rows[-1] + [""] * (ncol - len(rows[-1]))
    t = Table(rows, colWidths=[(w + 2 * gut) * MM] * ncol, rowHeights=[(h + 2 * gut) * MM] * len(rows), hAlign="LEFT")
    t.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), fonts.REGULAR),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 0),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
            ]
        )
    )
    note = _(
        "Unit cards: one per profile, \u00d7 N = units (models) of that profile in the army. "
        "{dash} = not in the rulebook (its profile tables are missing); give it in a pack. "
        "* = class value from the rulebook's worked examples."
    ).format(dash=DASH)
    # the cards follow the roster on its last page when a row of them fits there
    return [CondPageBreak((h + 2 * gut) * MM + 18 * MM), para(_("Unit cards"), st.h1), para(note, st.small), t]


class UnitCard(Flowable):
    """A unit card with corner cut marks in its gutter (never a box around the card)."""

    def __init__(
        self, data: dict, w_mm: float, h_mm: float, gutter_mm: float, warnings: list[str], scale: float = 1.0
    ) -> None:
        super().__init__()
        self.data, self.w, self.h, self.g = data, w_mm, h_mm, gutter_mm
        self.warnings, self.scale = warnings, scale

    def wrap(self, aw: Any, ah: Any) -> Any:
        return (self.w + 2 * self.g) * MM, (self.h + 2 * self.g) * MM

    def draw(self) -> None:
        k = self.scale
        if k != 1.0:  # drawn at full size, scaled down as a whole (small paper)
            self.canv.saveState()
            self.canv.scale(k, k)
        draw_unit_card(self.canv, self.data, self.w / k, self.h / k, self.g / k, self.warnings)
        if k != 1.0:
            self.canv.restoreState()


@dataclass
class _CardArea:
    """Where a unit card is drawn: its canvas, data, lower-left corner and size in points, the
    inner padding, and the warning of a text that does not fit (each said once)."""

    c: Any
    d: Mapping[str, Any]
    x0: float
    y0: float
    W: float
    H: float
    pad: float
    warn: Callable[[Any], None]


def draw_unit_card(
    c: Any, d: Mapping[str, Any], w: float, h: float, g: float, warnings: list[str], marks: bool = True
) -> None:
    """Draw the unit card of ``d`` (``unit_card_data``) on canvas ``c``: ``w`` by ``h`` mm with a
    margin of ``g`` mm, cut marks at its corners unless ``marks`` is false."""
    P = MM
    x0, y0 = g * P, g * P
    W, H = w * P, h * P

    def warn(msg: Any) -> None:
        if msg not in warnings:
            warnings.append(msg)
            pdfbase.warn(msg)

    c.saveState()
    _card_edges(c, x0, y0, W, H, g, marks)
    area = _CardArea(c, d, x0, y0, W, H, 2.5 * P, warn)
    y = _card_header(area)
    y = _card_stats(area, y)
    y = _card_gear(area, y)
    _card_abilities(area, y)
    _card_footer(area)
    c.restoreState()


def _card_edges(c: Any, x0: float, y0: float, W: float, H: float, g: float, marks: bool) -> None:
    """Cut marks at the four corners, outside the card; on a card sheet a thin frame inside the trim."""
    P = MM
    if marks:  # cut marks at the four corners, outside the card
        c.setStrokeColorRGB(0.3, 0.3, 0.3)
        c.setLineWidth(0.3)
        m = min(g - 0.5, 2.5) * P
        for cx, cy, dx, dy in ((x0, y0, -1, -1), (x0 + W, y0, 1, -1), (x0, y0 + H, -1, 1), (x0 + W, y0 + H, 1, 1)):
            c.line(cx + dx * 0.8 * P, cy, cx + dx * (0.8 * P + m), cy)
            c.line(cx, cy + dy * 0.8 * P, cx, cy + dy * (0.8 * P + m))
    else:  # on a card sheet: a thin frame inside the trim
        c.setStrokeColorRGB(0.45, 0.45, 0.45)
        c.setLineWidth(0.5)
        c.roundRect(x0 + 1.2 * P, y0 + 1.2 * P, W - 2.4 * P, H - 2.4 * P, 2.0 * P, stroke=1, fill=0)


def _card_header(a: _CardArea) -> float:
    """The header band (the name and the count of units) and the facts line under it; the
    height where the stat line starts."""
    c, d, x0, y0, W, H, pad, warn = a.c, a.d, a.x0, a.y0, a.W, a.H, a.pad, a.warn
    P = MM
    # header band
    band = 8 * P
    c.setFillColorRGB(0.85, 0.85, 0.85)
    c.rect(x0, y0 + H - band, W, band, stroke=0, fill=1)
    c.setFillColorRGB(0, 0, 0)
    count = (
        f"\u00d7 {d['entries']}"
        if d["single"]
        else "\u00d7 "
        + ngettext("{n} unit ({models} models)", "{n} units ({models} models)", d["entries"]).format(
            n=d["entries"], models=d["models"]
        )
    )
    cw = fonts.string_width(count, fonts.BOLD, 8) + 2
    pdfbase.draw_text_box(
        c,
        count,
        (x0 + W - pad - cw, y0 + H - band, cw, band),
        fonts.BOLD,
        8,
        6,
        align="right",
        valign="middle",
        wrap=False,
    )
    pdfbase.draw_text_box(
        c,
        d["name"],
        (x0 + pad, y0 + H - band, W - 2 * pad - cw - 2, band),
        fonts.BOLD,
        10,
        6,
        valign="middle",
        wrap=False,
        what=f"unit card '{d['name']}' name",
        warn=warn,
    )
    y = y0 + H - band - 1 * P
    # facts line
    facts = " \u00b7 ".join(d["facts"]) + "   " + _("{cost} AP/model").format(cost=d["cost"])
    pdfbase.draw_text_box(
        c,
        facts,
        (x0 + pad, y - 4 * P, W - 2 * pad, 4 * P),
        fonts.CONDENSED,
        7,
        5,
        valign="middle",
        wrap=False,
        what=f"unit card '{d['name']}' facts",
        warn=warn,
    )
    return y - 5 * P


def _card_stats(a: _CardArea, y: float) -> float:
    """The stat line: a cell per stat, its label above its value (``*``: a class value)."""
    c, d, x0, W, pad = a.c, a.d, a.x0, a.W, a.pad
    P = MM
    # stat line
    n = len(d["stats"])
    cellw = (W - 2 * pad) / n
    c.setLineWidth(0.4)
    c.setStrokeColorRGB(0.5, 0.5, 0.5)
    for i, (stat, value, origin) in enumerate(d["stats"]):
        cx = x0 + pad + i * cellw
        c.setFillColorRGB(0.93, 0.93, 0.93)
        c.rect(cx, y - 4 * P, cellw, 4 * P, stroke=1, fill=1)
        c.setFillColorRGB(0, 0, 0)
        pdfbase.draw_text_box(
            c,
            label(stat),
            (cx, y - 4 * P, cellw, 4 * P),
            fonts.BOLD,
            6.5,
            5,
            align="center",
            valign="middle",
            wrap=False,
        )
        c.rect(cx, y - 10 * P, cellw, 6 * P, stroke=1, fill=0)
        shown = DASH if value is None else (value + ("*" if origin == "class" else ""))
        pdfbase.draw_text_box(
            c, shown, (cx, y - 10 * P, cellw, 6 * P), fonts.BOLD, 10, 6, align="center", valign="middle", wrap=False
        )
    return y - 11.5 * P


def _card_gear(a: _CardArea, y: float) -> float:
    """The weapons and armour line, when the unit has any."""
    c, d, x0, W, pad, warn = a.c, a.d, a.x0, a.W, a.pad, a.warn
    P = MM
    gear = []
    if d["weapons"]:
        gear.append(_("Weapons: {weapons}").format(weapons=", ".join(d["weapons"])))
    if d["armour"]:
        gear.append(_("Armour: {armour}").format(armour=", ".join(d["armour"])))
    if gear:
        pdfbase.draw_text_box(
            c,
            "; ".join(gear),
            (x0 + pad, y - 3.6 * P, W - 2 * pad, 3.6 * P),
            fonts.CONDENSED,
            7,
            5,
            valign="middle",
            wrap=False,
            what=f"unit card '{d['name']}' weapons",
            warn=warn,
        )
        y -= 4 * P
    return y


def _card_abilities(a: _CardArea, y: float) -> None:
    """The abilities, filling the rest of the card (shrunk to fit; the glossary has the full text)."""
    c, d, x0, y0, W, pad, warn = a.c, a.d, a.x0, a.y0, a.W, a.pad, a.warn
    P = MM
    # abilities fill the rest (shrunk to fit; the glossary has the full text)
    bottom = y0 + 4.5 * P
    if d["abilities"]:
        parts = []
        for name, kind, text in d["abilities"]:
            tag = f" ({kind})" if kind == "Ki" else ""
            parts.append(f"{name}{tag}: {text}" if text else f"{name}{tag}")
        body = "\n".join(parts)
    else:
        body = _("No special abilities.")
    fit = fonts.fit_text(fonts.printable(body), W - 2 * pad, y - bottom, fonts.CONDENSED, 7, 5)
    if fit.overflow:
        # keep the names only and point to the glossary
        names = ", ".join(n + (" (Ki)" if k == "Ki" else "") for n, k, _text in d["abilities"])
        body = _("{names} (full text in the roster's glossary)").format(names=names)
    pdfbase.draw_text_box(
        c,
        body,
        (x0 + pad, bottom, W - 2 * pad, y - bottom),
        fonts.CONDENSED,
        7,
        4.5,
        what=f"unit card '{d['name']}' abilities",
        warn=warn,
    )


def _card_footer(a: _CardArea) -> None:
    """The footer: the note on values missing from the rulebook, and the profile's source."""
    c, d, x0, y0, W, pad = a.c, a.d, a.x0, a.y0, a.W, a.pad
    P = MM
    # footer: unknown note and source
    unknown = any(v is None for _stat, v, _origin in d["stats"])
    foot = (_("{dash} not in the rulebook; add it in a pack. ").format(dash=DASH) if unknown else "") + (
        d["source"] or ""
    )
    c.setFillColorRGB(0.35, 0.35, 0.35)
    pdfbase.draw_text_box(
        c, foot, (x0 + pad, y0 + 1 * P, W - 2 * pad, 3.2 * P), fonts.CONDENSED, 5.5, 4.5, valign="middle", wrap=False
    )


# -- the game's printing parts (``gs.sheet``, ``gs.unit_cards``), made from the game when first asked for


class KenseiRoster:
    """The army roster Kensei prints instead of cards (the ``SheetPrinter`` part)."""

    kind = "roster"
    what = "roster"
    line_section = "troops"

    def __init__(self, game: Any) -> None:
        self.game = game

    def render(self, doc: Any, catalog: Catalog, lst: KenseiList, result: Any, out_path: Path, **options: Any) -> Path:

        return render_roster(doc, catalog, lst, result, out_path, **options)

    def preview_line(self, pack_path: Path, name: str) -> PreviewLine | None:
        """A unit of one model of troop ``name`` on the roster, as a list holding it alone prints it."""

        header = ["#", "Troop", *STAT_COLUMNS, "Models", "AP/model", "AP/unit", "Abilities"]
        pack = str(pack_path)
        try:
            catalog = load_catalog("kensei", [pack])
            entry = catalog.find("troops", name)
            if entry is None:
                return None
            clans = [str(c) for c in getattr(entry, "clans", None) or []]
            # the list ``daimyo new`` starts with the troop's clan and the pack, the unit added to it
            data, _ = self.game.new_list.make(catalog, {"clan": clans[0] if clans else "buke", "packs": [pack]})
            self.game.editing.add(data, catalog, name, models=1)
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

    def __init__(self, game: Any) -> None:
        self.game = game

    def data(self, lst: KenseiList, catalog: Catalog) -> list[Row]:

        return unit_card_data(lst, catalog)

    def draw(
        self, c: Any, d: Mapping[str, Any], w: float, h: float, g: float, warnings: list[str], marks: bool = True
    ) -> None:

        draw_unit_card(c, d, w, h, g, warnings, marks=marks)
