"""CLI commands: ``print``, ``print-test`` and ``aid``."""

from __future__ import annotations

import sys
from typing import Any, Optional

import typer

from builder.cli_words import help_text
from builder.i18n import L_, _, ngettext
from builder.kit import printbounds as B
from builder.render import api
from builder.render.api import print_lists
from builder.render.printers import get_profile, list_profiles, profiles_path, remove_profile, save_profile


def _range(b: B.Bound) -> str:
    return L_("{low} to {high}{unit}", low=format(b.low, "g"), high=format(b.high, "g"), unit=b.unit)


cli = typer.Typer()  # this module's commands and groups; register() puts them on the app


@cli.command("print")
def print_list(
    list_files: list[str] = typer.Argument(
        ...,
        metavar="LIST...",
        help="The list to print (with --book: every list of an event; with --to images: the list, then the folder).",
    ),
    output: Optional[str] = typer.Option(None, "--output", "-o", help="The PDF file (or image folder) to write."),
    to: str = typer.Option(
        "pdf",
        "--to",
        help="pdf, or images: one PNG per card face and back at a print "
        "shop's size (poker: 825x1125 px) and a manifest.",
    ),
    book: bool = typer.Option(
        False,
        "--book",
        help="An organiser's book: every list in one PDF with a contents page, share codes, QR codes and fingerprints.",
    ),
    dpi: str = typer.Option(
        f"{B.DEFAULT_DPI:g}",
        "--dpi",
        metavar="DPI",
        help=help_text("--to images: resolution, {range} (print shops ask for 300).", range=_range(B.DPI)),
    ),
    service: Optional[str] = typer.Option(
        None,
        "--service",
        help="--to images: mpc (MakePlayingCards, 822x1122 px poker), dtc "
        "(DriveThruCards) or tgc (The Game Crafter, 825x1125 px): "
        "the service's bleed and safe zone, and an order file.",
    ),
    paper: str = typer.Option(
        B.DEFAULT_PAPER,
        "--paper",
        help=help_text("a4 or letter (or WxH in mm, each side {range}).", range=_range(B.PAPER_SIDE)),
    ),
    card: str = typer.Option(
        B.DEFAULT_CARD,
        "--card",
        help=help_text(
            "poker (63.5x88.9), bridge (57.15x88.9), mini (44x67), tarot (69.85x120.65) or WxH in mm (each side {range}).",
            range=_range(B.CARD_SIDE),
        ),
    ),
    bleed: str = typer.Option(
        f"{B.DEFAULT_BLEED:g}",
        "--bleed",
        metavar="MM",
        help=help_text("Bleed around every card in mm, {range} (3 is usual).", range=_range(B.BLEED)),
    ),
    marks: bool = typer.Option(B.DEFAULT_SWITCHES["marks"], "--marks/--no-marks", help="Cut marks in the page margin."),
    backs: bool = typer.Option(
        B.DEFAULT_SWITCHES["backs"], "--backs/--no-backs", help="Card backs on the page after each sheet."
    ),
    duplex: str = typer.Option(B.DEFAULT_DUPLEX, "--duplex", help="Flip edge of your duplex printer: long or short."),
    offset: Optional[str] = typer.Option(
        None,
        "--offset",
        help=help_text(
            "X,Y in mm, each {range}: shift the backs (measure it with daimyo print-test).", range=_range(B.OFFSET_X)
        ),
    ),
    ink_saver: bool = typer.Option(
        B.DEFAULT_SWITCHES["ink_saver"], "--ink-saver", help="White faces, outlines, no art."
    ),
    unit_cards: bool = typer.Option(
        B.DEFAULT_SWITCHES["unit_cards"], "--unit-cards", help="Kensei: add one card per troop profile."
    ),
    sources: Optional[bool] = typer.Option(
        None,
        "--sources/--no-sources",
        help="Rosters and setup sheets: the rulebook section each rule "
        "and limit comes from (printed unless --no-sources).",
    ),
    layout: str = typer.Option(
        B.DEFAULT_LAYOUT,
        "--layout",
        help="duplex (backs on the next page), fold (front and back side by side: "
        "fold, glue, cut) or separate (all fronts, then all backs).",
    ),
    gutter: Optional[str] = typer.Option(
        None,
        "--gutter",
        metavar="MM",
        help=help_text(
            "mm between neighbouring cards, {range}; 0 shares the bleed so that 9 poker cards with bleed fit A4 or Letter.",
            range=_range(B.GUTTER),
        ),
    ),
    cut_lines: bool = typer.Option(
        B.DEFAULT_SWITCHES["cut_lines"], "--cut-lines", help="Full-length cut lines across the sheet."
    ),
    scale_x: Optional[str] = typer.Option(
        None,
        "--scale-x",
        metavar="FACTOR",
        help=help_text(
            "Scale correction across the page, {range}: 50 / the mm your printed 50 mm ruler measures.",
            range=_range(B.SCALE_X),
        ),
    ),
    scale_y: Optional[str] = typer.Option(
        None,
        "--scale-y",
        metavar="FACTOR",
        help=help_text(
            "Scale correction down the page, {range} (print-test's vertical ruler).", range=_range(B.SCALE_Y)
        ),
    ),
    printer: Optional[str] = typer.Option(
        None,
        "--printer",
        help="A saved printer profile (daimyo printer save): its back "
        "offset and scale; --offset, --scale-x and --scale-y given "
        "as well replace its values.",
    ),
    cut_machine: Optional[str] = typer.Option(
        None,
        "--cut-machine",
        help="silhouette or cricut: the cards inside the machine's "
        "print-and-cut area (Silhouette: with its registration "
        "marks) and the cut lines beside the PDF as NAME.cut.svg "
        "and NAME.cut.dxf.",
    ),
    force: bool = typer.Option(False, "--force", help="Replace an existing output file."),
    stats: bool = typer.Option(
        B.DEFAULT_SWITCHES["stats"], "--stats", help="End the PDF with the list's statistics pages."
    ),
    pack: list[str] = typer.Option([], "--pack", "-p", help="Extra pack file(s) or pack names, as for check."),
):
    """Print a list: card sheets at exact size (Senshiai, HeroCard, Satsuma), a roster (Kensei)
    or a setup sheet (Senji)."""

    checked: list = []

    if printer is not None:
        prof = get_profile(printer).print_options()
        offset = prof["offset"] if offset is None else offset
        scale_x = prof["scale_x"] if scale_x is None else scale_x
        scale_y = prof["scale_y"] if scale_y is None else scale_y

    unit_cards_option: dict[str, Any] = {"unit_cards": True} if unit_cards else {}

    path = print_lists(
        list_files,
        output,
        to=to,
        book=book,
        dpi=dpi,
        stats=stats,
        force=force,
        paper=paper,
        **({"service": service} if service else {}),
        card=card,
        bleed=bleed,
        duplex=duplex,
        offset=offset,
        ink_saver=ink_saver,
        marks=marks,
        backs=backs,
        packs=pack,
        on_result=checked.append,
        sources=sources,
        **unit_cards_option,
        layout=layout,
        gutter=gutter,
        cut_lines=cut_lines,
        scale_x=scale_x,
        scale_y=scale_y,
        cut_machine=cut_machine,
    )
    list_file = list_files[0]
    sys.stderr.write(_("wrote {file}").format(file=path) + "\n")
    if checked and not checked[0].legal:  # the PDF says so too; printing still succeeds
        c = checked[0].counts()
        sys.stderr.write(
            ngettext(
                "{file}: warning: the list is not legal ({n} error); the printout is marked NOT LEGAL (see '{check}')",
                "{file}: warning: the list is not legal ({n} errors); the printout is marked NOT LEGAL (see '{check}')",
                c["error"],
            ).format(file=list_file, n=c["error"], check=f"daimyo check {list_file}")
            + "\n"
        )


@cli.command("print-test")
def print_test(
    output: str = typer.Option(..., "--output", "-o", help="The PDF file to write."),
    paper: str = typer.Option(
        B.DEFAULT_PAPER,
        "--paper",
        help=help_text("a4 or letter (or WxH in mm, each side {range}).", range=_range(B.PAPER_SIDE)),
    ),
    duplex: str = typer.Option(B.DEFAULT_DUPLEX, "--duplex", help="Flip edge: long or short."),
    force: bool = typer.Option(False, "--force", help="Replace an existing output file."),
):
    """Print a duplex alignment sheet: read the misalignment on its back and pass it as --offset X,Y."""

    path = api.render_test_sheet(output, paper=paper, duplex=duplex, force=force)
    sys.stderr.write(_("wrote {file}").format(file=path) + "\n")


printer_app = typer.Typer(
    help="Printer profiles: the back offset and scale measured with print-test, used by 'daimyo print --printer NAME'.",
    no_args_is_help=True,
    rich_markup_mode=None,
)

cli.add_typer(printer_app, name="printer")


@printer_app.command("save")
def printer_save(
    name: str = typer.Argument(..., help="The profile's name (letters, digits, '-', '_', '.')."),
    offset: Optional[str] = typer.Option(
        None,
        "--offset",
        help=help_text("X,Y in mm, each {range}: the backs' shift that print-test measured.", range=_range(B.OFFSET_X)),
    ),
    scale_x: str = typer.Option(
        f"{B.DEFAULT_SCALE:g}",
        "--scale-x",
        metavar="FACTOR",
        help=help_text("{range}: 50 / the mm the printed horizontal ruler measures.", range=_range(B.SCALE_X)),
    ),
    scale_y: str = typer.Option(
        f"{B.DEFAULT_SCALE:g}",
        "--scale-y",
        metavar="FACTOR",
        help=help_text("{range}: 50 / the mm the printed vertical ruler measures.", range=_range(B.SCALE_Y)),
    ),
    force: bool = typer.Option(False, "--force", help="Replace a profile of that name."),
):
    """Save a printer profile."""

    prof = save_profile(name, offset, scale_x, scale_y, force=force)
    sys.stderr.write(_("saved {profile} in {file}").format(profile=prof.describe(), file=profiles_path()) + "\n")


@printer_app.command("list")
def printer_list():
    """The saved printer profiles."""

    for prof in list_profiles():
        sys.stdout.write(prof.describe() + "\n")


@printer_app.command("remove")
def printer_remove(name: str = typer.Argument(..., help="The profile to remove.")):
    """Remove a printer profile."""

    prof = remove_profile(name)
    sys.stderr.write(_("removed {profile}").format(profile=prof.describe()) + "\n")


@cli.command("aid")
def aid(
    system: str = typer.Argument(..., help="senshiai, kensei, herocard, senji or satsuma"),
    output: str = typer.Option(..., "--output", "-o", help="The PDF file to write."),
    paper: str = typer.Option(
        B.DEFAULT_PAPER,
        "--paper",
        help=help_text("a4 or letter (or WxH in mm, each side {range}).", range=_range(B.PAPER_SIDE)),
    ),
    players: Optional[int] = typer.Option(None, "--players", help="Senji: the number of players (3-6)."),
    sources: bool = typer.Option(
        False, "--sources", help="Print the rulebook section of each block (left off by default)."
    ),
    force: bool = typer.Option(False, "--force", help="Replace an existing output file."),
):
    """Print a player aid (reference sheet) of a game system."""

    path = api.render_aid(system, output, force=force, players=players, paper=paper, sources=sources)
    sys.stderr.write(_("wrote {file}").format(file=path) + "\n")


def register(app) -> None:
    """Add this module's commands and command groups to the typer app."""
    app.registered_commands += cli.registered_commands
    app.registered_groups += cli.registered_groups
