"""The Senji setup sheet: who plays which family, what is excluded or neutral, where
each player starts, and what each player takes from the box.

Data comes from the list (``players:``), the catalog (setups by player count,
components, samurai) and, for the validation result, ``daimyo check``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from builder.catalog.loader import load_catalog
from builder.catalog.overlay import display_name, display_text
from builder.errors import DaimyoError
from builder.games.senji.rules import printed_name as _name
from builder.games.senji.rules import setup_table
from builder.i18n import N_, _
from builder.kit.blocks import (
    PageSpec,
    Styles,
    build_pdf,
    compact_tables,
    frame_width_mm,
    keep,
    para,
    small_paper_layout,
    source_line,
    sources_shown,
    spec_footer,
    table,
    validation_block,
)
from builder.kit.pdfbase import list_display_name

if TYPE_CHECKING:
    from builder.catalog.loader import Catalog
    from builder.findings import CheckResult
    from builder.games.senji.rules import SenjiList
    from builder.systems.parts import PreviewLine

RULEBOOK = "002_55c7e5ab3d1a76a7.txt"


def _components(catalog: Catalog) -> list[tuple[str, str, str]]:
    """(component, how many each player takes, notes) from the catalog, or the rulebook's list."""
    model = getattr(catalog, "model", None)
    out = []
    for c in getattr(model, "components", None) or []:
        if c.per_player:
            placed = " " + _("({n} placed in play)").format(n=c.placed_at_start) if c.placed_at_start else ""
            out.append(
                (
                    display_name(catalog, "components", c),
                    f"{c.per_player}{placed}",
                    display_text(catalog, "components", c, c.notes or ""),
                )
            )
    if not out:
        out = [
            (_("Military unit"), "12 " + _("({n} placed in play)").format(n=3), ""),
            (_("Fortress"), "6 " + _("({n} placed in play)").format(n=3), ""),
            (_("Diplomacy card"), _("12 of the chosen family"), ""),
            (_("Player aid card"), "1", ""),
            (_("Score counter"), "1", ""),
        ]
    out += [
        (_("Hanafuda card"), _("4 drawn"), _("from the shuffled hanafuda deck")),
        (_("Samurai card"), _("3 drawn, 1 kept"), _("take its figure; score counter at its honor")),
    ]
    return out


def _as_int(v: Any, default: int = 0) -> int:
    try:
        return int(v)
    except (TypeError, ValueError):
        return default


def render_setup(
    doc: Any,
    catalog: Catalog,
    lst: SenjiList,
    result: CheckResult,
    out_path: str | Path,
    *,
    paper: tuple[float, float] = (210.0, 297.0),
    force: bool = False,
    share_code: str | None = None,
    sources: bool = True,
    **options: Any,
) -> Path:
    """Write the setup sheet of a Senji list document ``doc`` to ``out_path`` (``sources``: with
    the rulebook section of each part); ``result`` is the list's check, printed on the sheet."""
    if catalog is None:
        catalog = load_catalog(doc.system, list(doc.packs))
    body = doc.body()
    players = body.get("players") if isinstance(body.get("players"), list) else []
    n = len(players)
    title = doc.name or _("Senji setup, {n} players").format(n=n)
    spec = PageSpec(
        title=title,
        kind=N_("setup sheet"),
        system=doc.system,
        result=result,
        share_code=share_code,
        paper=paper,
        author=doc.author,
        list_file=list_display_name(doc),
    )
    size, compact = small_paper_layout(paper, 9.0, spec_footer(spec))
    with compact_tables(compact), sources_shown(sources):
        return _setup(doc, catalog, result, out_path, spec, size, paper, force, players, n, title)


def _setup(
    doc: Any,
    catalog: Catalog,
    result: CheckResult,
    out_path: str | Path,
    spec: Any,
    size: float,
    paper: tuple[float, float],
    force: bool,
    players: list,
    n: int,
    title: str,
) -> Path:
    st = Styles(base=size)
    width = frame_width_mm(paper, 1)
    info = setup_table(catalog, n)
    story: list[Any] = [
        para(title, st.title),
        para(
            _("Senji setup sheet \u2014 {n} players").format(n=n) + (f" \u2014 {doc.author}" if doc.author else ""),
            st.subtitle,
        ),
    ]
    if doc.notes:
        story.append(para(doc.notes, st.body))
    # the check's verdict first: at the table it is the first thing asked, and a short
    # block at the end would otherwise often sit alone on a last page
    story.extend(validation_block(result, st, width))

    story.append(para(_("Families and provinces"), st.h1))

    def names(kind: str, keys: list) -> list[str]:
        return [display_name(catalog, kind, k) for k in keys]

    rows = [
        [_("Families in play"), ", ".join(names("families", info["in_play"])) or "\u2014"],
        [_("Families excluded"), ", ".join(names("families", info["excluded"])) or _("none")],
        [_("Neutral provinces"), ", ".join(names("provinces", info["neutral"])) or _("none")],
    ]
    story.append(keep(table(rows, [45, width - 45], st, bold_first=True, zebra=False), source_line(info["source"], st)))
    if info["excluded"]:
        story.append(
            para(
                _(
                    "Missing families: in each Winter, 2 diplomacy cards per missing family are "
                    "revealed and bid for with your own diplomacy cards."
                ),
                st.small,
            )
        )
        story.append(source_line(f"{RULEBOOK}:89-96", st))

    story.append(para(_("Players and starting provinces"), st.h1))
    samurai_by = {}
    for p in players:
        if isinstance(p, dict) and p.get("samurai"):
            s = None
            try:
                s = catalog.find("samurai", str(p["samurai"]))
            except Exception:
                s = None
            samurai_by[id(p)] = s
    host = _host(players, samurai_by)
    for i, p in enumerate(players):
        if isinstance(p, dict):
            story.append(_player_block(catalog, st, width, i, p, samurai_by, host))
    story.append(
        source_line(
            f"{RULEBOOK}:41-46 "
            + _("(each named province gets 1 fortress; the samurai and the 3 starting units must all be placed)"),
            st,
        )
    )

    story.append(para(_("Each player takes"), st.h1))
    comps = _components(catalog)
    story.append(
        keep(
            table(
                [list(c) for c in comps],
                [45, 50, width - 95],
                st,
                header=[_("Component"), _("Each player"), _("Notes")],
                bold_first=True,
            ),
            source_line(f"{RULEBOOK}:26-39", st),
        )
    )
    story.append(para(_("Order tokens are split among the players or kept in a common pool."), st.small))
    story.append(source_line(f"{RULEBOOK}:48-49", st))

    return build_pdf(out_path, story, spec, force=force)


def _player_block(
    catalog: Catalog, st: Styles, width: float, i: int, p: dict[str, Any], samurai_by: dict[int, Any], host: int | None
) -> Any:
    """One player's heading, kept samurai and starting provinces on the setup sheet."""
    pname = str(p.get("name") or _("Player {n}").format(n=i + 1))
    fam = display_name(catalog, "families", _name(catalog, "families", p.get("family")))
    sam = samurai_by.get(id(p))
    sam_name = display_name(catalog, "samurai", sam) if sam is not None else str(p.get("samurai") or "\u2014")
    honor = getattr(sam, "honor", None) if sam is not None else None
    head = f"{i + 1}. {pname} \u2014 " + _("{family} family").format(family=fam or "?")
    if host is not None and host == i:
        head += " \u2014 " + _("first host of the emperor")
    prov_rows = []
    units_total = 0
    samurai_placed = 0
    for j, pr in enumerate(p.get("provinces") or []):
        if isinstance(pr, str):
            pr = {"province": pr}
        if not isinstance(pr, dict):
            continue
        units = _as_int(pr.get("units", 0))
        units_total += units
        has_sam = bool(pr.get("samurai", False))
        samurai_placed += has_sam
        prov_rows.append(
            [
                str(j + 1),
                display_name(catalog, "provinces", _name(catalog, "provinces", pr.get("province"))),
                "1",
                str(units),
                sam_name if has_sam else "",
            ]
        )
    prov_rows.append(["", _("total"), str(len(prov_rows)), str(units_total), str(samurai_placed)])
    ability = display_text(catalog, "samurai", sam, getattr(sam, "ability", None)) if sam is not None else None
    info_line = (
        _("Samurai kept: {samurai}").format(samurai=sam_name)
        + " "
        + (
            _("(starting honor {honor})").format(honor=honor)
            if honor is not None
            else _("(starting honor: printed on the card)")
        )
        + (f"; {ability}" if ability else "")
    )
    return keep(
        para(head, st.h2),
        para(info_line, st.body),
        table(
            prov_rows,
            [8, width - 8 - 22 - 20 - 45, 22, 20, 45],
            st,
            header=["#", _("Province (naming order)"), _("Fortress"), _("Units"), _("Samurai")],
            total_rows=[len(prov_rows) - 1],
            align_right=[2, 3],
        ),
    )


def _host(players: list, samurai_by: dict) -> int | None:
    """Index of the player with the highest starting honor (None when unknown or tied)."""
    best, who, tie = None, None, False
    for i, p in enumerate(players):
        s = samurai_by.get(id(p))
        h = getattr(s, "honor", None) if s is not None else None
        if h is None:
            return None
        if best is None or h > best:
            best, who, tie = h, i, False
        elif h == best:
            tie = True
    return None if tie else who


class SenjiSetupSheet:
    """The setup sheet Senji prints instead of cards (the ``SheetPrinter`` part)."""

    kind = "setup"
    what = "setup sheet"
    line_section = "provinces"

    def __init__(self, game: Any) -> None:
        self.game = game

    def render(
        self,
        doc: Any,
        catalog: Catalog,
        lst: SenjiList,
        result: Any,
        out_path: Path,
        *,
        unit_cards: bool = False,
        card: object = None,
        **options: Any,
    ) -> Path:

        return render_setup(doc, catalog, lst, result, out_path, **options)

    def preview_line(self, pack_path: Path, name: str) -> PreviewLine | None:
        """Province ``name`` on the setup sheet: named first, with its fortress and a unit."""
        header = ["#", "Province (naming order)", "Fortress", "Units", "Samurai"]
        try:
            catalog = load_catalog("senji", [str(pack_path)])
            if catalog.find("provinces", name) is None:
                return None
            return {
                "header": header,
                "cells": ["1", _name(catalog, "provinces", name), "1", "1", ""],
                "notes": [],
            }
        except DaimyoError:
            return None
