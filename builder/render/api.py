"""Entry points for printing: what ``daimyo print``, ``daimyo aid`` and ``daimyo demo`` call.

``render_list(path, out_path, force=False, **options) -> Path``
    Reads the list, loads its catalog (with the list's packs), checks it, and writes:

    * a game without a ``sheet`` part: card sheets (``builder.render.cards.render_cards``);
    * a game with one (Kensei's roster, Senji's setup sheet): the document its
      ``sheet.render(doc, catalog, lst, result, out_path, *, paper=(w, h), force=False,
      share_code=None, sources=True, unit_cards=False) -> Path`` writes
      (``builder.systems.parts.SheetPrinter``).

    Arguments handed to a sheet: ``doc`` is the
    ``builder.lists.document.ListDoc``, ``catalog`` the loaded ``Catalog``, ``lst`` what
    the game's ``rules.load_list(doc, catalog)`` returned (first item),
    ``result`` the ``builder.findings.CheckResult`` of ``builder.check.check_doc``,
    ``paper`` the paper size in mm (portrait), ``share_code`` the list's share code or
    None. They build their PDF with ``builder.kit.pdfbase.build_story`` (or
    ``PdfJob``) and put ``pdfbase.footer_lines(result, share_code)`` in the footer.

    Card-sheet options (all optional): ``paper`` ("a4" | "letter" | "WxH"), ``card``
    ("poker" | "bridge" | "mini" | "tarot" | "WxH" in mm), ``bleed`` (mm), ``marks``
    (bool), ``backs`` (bool), ``duplex`` ("long" | "short"), ``offset`` ((x, y) mm or
    "X,Y"), ``ink_saver`` (bool), ``layout`` ("duplex" | "fold" | "separate"), ``gutter``
    (mm between neighbouring cards; 0 shares the bleed), ``cut_lines`` (bool: full-length
    lines), ``scale_x``/``scale_y`` (printer scale correction, 0.9-1.1). Unknown options
    are refused.

``render_aid(system, out_path, force=False, players=None, paper="a4") -> Path``
    A player aid of a system, by calling
    ``builder.render.aids.render_aid(system, out_path, *, paper=(w, h), force=False,
    players=None) -> Path`` (``players``: the player count for Senji setup tables, or None
    for all counts).

``render_test_sheet(out_path, paper="a4", duplex="long", force=False) -> Path``
    The duplex alignment sheet of ``daimyo print-test``.

Every function raises ``builder.errors.DaimyoError`` (exit 2) for input a user can fix.
"""

from __future__ import annotations

import contextlib
import importlib
from pathlib import Path

from builder.check import load_checked
from builder.errors import DaimyoError, UsageError, command_line, option
from builder.i18n import N_, _
from builder.kit.layout import paper_size
from builder.kit.pdfbase import SharedCode
from builder.kit.printbounds import QR_MAX_BYTES
from builder.kit.printoptions import PrintOptions
from builder.render.bookpdf import render_book
from builder.render.cards import render_cards
from builder.render.cards import render_test_sheet as _render
from builder.render.charts import stats_appendix
from builder.render.images import render_images
from builder.share.code import share_code_of
from builder.share.link import link_of, viewer_base_or_none
from builder.systems import find_system, get
from builder.yamlio import refuse_folder_name, refuse_output

CARD_OPTIONS = {
    "paper",
    "card",
    "bleed",
    "marks",
    "backs",
    "duplex",
    "offset",
    "ink_saver",
    "layout",
    "gutter",
    "cut_lines",
    "scale_x",
    "scale_y",
    "cut_machine",
}


def _optional_module(name: str, what: str):
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name == name:
            raise DaimyoError(
                _("{what} is not available in this build ({name} is missing)").format(what=what, name=name)
            ) from None
        raise


# what a game's printout is called (``gs.sheet.what``), as "the roster does not fit on ... paper" names it
SHEET_WORDS = (N_("roster"), N_("setup sheet"), N_("deck"), N_("list"), N_("army"), N_("hero"))


class _fits:
    """Turns reportlab's layout failure (a table or block wider or taller than the page, on a
    small paper) into one line saying that the document does not fit the paper."""

    def __init__(self, what: str, paper: tuple[float, float]):
        self.what, self.paper = what, paper

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        if exc is None or not isinstance(exc, Exception) or isinstance(exc, UsageError):
            return False
        from_reportlab = False
        while tb is not None:
            if "reportlab" in tb.tb_frame.f_code.co_filename:
                from_reportlab = True
            tb = tb.tb_next
        if not from_reportlab or not (type(exc).__name__ == "LayoutError" or isinstance(exc, ValueError)):
            return False
        w, h = self.paper
        raise UsageError(
            _("the {what} does not fit on {w}x{h} mm paper").format(what=_(self.what), w=f"{w:g}", h=f"{h:g}"),
            _("use a larger {option} such as 148x210 (A5) or a4").format(option=option("paper")),
        ) from None


def shared_code(code: str | None) -> str | None:
    """The share code a printout carries, its QR code holding the link that opens the list when a
    viewer is configured (``DAIMYO_VIEWER``, ``viewer`` in config.toml) and the link fits a QR
    code; the code itself otherwise."""
    if not code:
        return code
    base = viewer_base_or_none()
    link = link_of(code, base) if base else None
    return SharedCode.of(code, link if link and len(link.encode("utf-8")) <= QR_MAX_BYTES else None)


def render_list(path, out_path, force: bool = False, **options) -> Path:
    """Print a list (see the module docstring). Returns the written path."""
    unit_cards = bool(options.pop("unit_cards", False))  # Kensei roster only
    sources = options.pop("sources", None)  # rosters and setup sheets: None = print them (the default)
    sources = True if sources is None else bool(sources)
    extra_packs = list(options.pop("packs", ()) or ())  # like check --pack
    on_result = options.pop("on_result", None)  # told the check result (the terminal says so)
    unknown = set(options) - CARD_OPTIONS
    if unknown:
        raise UsageError(_("unknown print option(s): {options}").format(options=", ".join(sorted(unknown))))

    checked = PrintOptions.of(**options)  # every value checked before anything is read or written
    out = Path(out_path)
    refuse_output(out_path, force)
    paper = checked.paper_mm
    doc, catalog, lst, result = load_checked(path, extra_packs)
    if on_result is not None:
        on_result(result)
    share = shared_code(share_code_of(doc))

    gs = get(doc.system)
    if gs.sheet is None:
        with _fits(N_("card sheet"), paper):
            return render_cards(doc, catalog, lst, result, out, force=force, share_code=share, **options)
    with _fits(gs.sheet.what, paper):
        return gs.sheet.render(
            doc,
            catalog,
            lst,
            result,
            out,
            paper=paper,
            force=force,
            share_code=share,
            unit_cards=unit_cards,
            sources=sources,
            **({"card": options["card"]} if options.get("card") else {}),
        )


def render_aid(system, out_path, force: bool = False, players=None, paper: str = "a4", sources: bool = False) -> Path:
    """Print the player aid of ``system`` (see the module docstring); ``sources``: with the
    rulebook section of each block (left off by default: players at the table want the rules)."""
    key = find_system(str(system).strip()).id  # an id, name or alias
    out = Path(out_path)
    refuse_output(out_path, force)
    mod = _optional_module("builder.render.aids", "printing a player aid")
    size = paper_size(paper)
    with _fits(N_("player aid"), size):
        return mod.render_aid(key, out, paper=size, force=force, players=players, sources=sources)


def render_test_sheet(out_path, paper: str = "a4", duplex: str = "long", force: bool = False) -> Path:
    """The duplex alignment sheet (see ``builder.render.cards.render_test_sheet``)."""
    o = PrintOptions.of(paper=paper, duplex=duplex)  # checked as print checks them
    size, duplex = o.paper_mm, o.duplex
    with _fits(N_("alignment sheet"), size):
        return _render(out_path, size, duplex=duplex, force=force)


def print_lists(
    list_files,
    output=None,
    *,
    to: str = "pdf",
    book: bool = False,
    dpi=None,
    stats: bool = False,
    force: bool = False,
    paper=None,
    card=None,
    bleed=None,
    duplex=None,
    offset=None,
    ink_saver: bool = False,
    service: str | None = None,
    **options,
) -> Path:
    """What ``daimyo print`` writes: one list's PDF (``stats``: ending with its statistics pages),
    an organiser's book of several lists (``book``), or one list's card images (``to="images"``:
    ``output`` or the second of ``list_files`` is the folder). Every option is checked with the
    print options' model (``builder.kit.printoptions.PrintOptions``: None is its default) before
    the list is read; ``options`` as ``render_list`` takes them. Returns the written path."""
    if to not in ("pdf", "images"):
        raise UsageError(
            _("unknown output '{to}'").format(to=to),
            _("use {option} pdf or {option} images").format(option=option("to")),
        )
    unknown = set(options) - CARD_OPTIONS - {"unit_cards", "sources", "packs", "on_result"}
    if unknown:
        raise UsageError(_("unknown print option(s): {options}").format(options=", ".join(sorted(unknown))))
    given = {k: v for k, v in options.items() if k in CARD_OPTIONS}
    o = PrintOptions.of(
        paper=paper, card=card, bleed=bleed, duplex=duplex, offset=offset, dpi=dpi, service=service, **given
    )
    if to == "images":
        folder = output or (list_files[1] if len(list_files) == 2 else None)
        if folder is None or len(list_files) > 2 or (output and len(list_files) != 1):
            raise UsageError(
                _("{option} images takes one list and one folder").format(option=option("to")),
                command_line(f"daimyo print LIST {option('to')} images DIR"),
            )

        return render_images(
            list_files[0],
            folder,
            force=force,
            card=o.card,
            bleed=o.bleed if o.bleed else None,
            dpi=o.dpi,
            ink_saver=bool(ink_saver),
            shop=o.service,
        )
    if o.service is not None:
        raise UsageError(
            _("{service} names the print service of {to} images").format(service=option("service"), to=option("to")),
            command_line(f"daimyo print LIST {option('to')} images DIR {option('service')} {service}"),
        )
    if output is None:
        raise UsageError(
            _("missing option '{option}'").format(option=option("output")) + command_line(" / '-o'"),
            command_line(_("see 'daimyo print --help'")),
        )
    if book:
        return render_book(list_files, output, force=force, paper=o.paper)
    if len(list_files) != 1:
        raise UsageError(
            _("{n} lists given; print takes one").format(n=len(list_files)),
            _("pass {option} to print several lists into one PDF").format(option=option("book")),
        )

    refuse_folder_name(output)

    pages: contextlib.AbstractContextManager[None]
    if stats:
        pages = stats_appendix(list_files[0], o.paper if isinstance(o.paper, str) else "{:g}x{:g}".format(*o.paper))
    else:
        pages = contextlib.nullcontext()
    rest = {k: v for k, v in options.items() if k not in CARD_OPTIONS}
    sheet = o.sheet()
    sheet["ink_saver"] = bool(ink_saver)
    with pages:
        return render_list(list_files[0], output, force=force, **sheet, **rest)
