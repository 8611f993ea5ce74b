"""CLI commands: daimyo collection add|remove|list|import|needs (what the player owns:
``builder.lists.collection``)."""

from __future__ import annotations

import io
from typing import Any, Optional

import typer

from builder.cli import echo, formats
from builder.errors import DaimyoError
from builder.i18n import N_, _
from builder.lists.collection import (
    EXPANSIONS,
    Collection,
    apply_changes,
    change_for,
    collection_path,
    game_id,
    needs,
    read_collection,
    read_csv_changes,
)
from builder.lists.document import load_list
from builder.safeout import CsvRows, json_text, spreadsheet_cell

cli = typer.Typer()  # this module's commands; register() puts them on the app

collection_app = typer.Typer(
    help=_(
        "What you own, per game: cards with copies, models per troop, expansions (collection.yaml "
        "in the config folder; DAIMYO_COLLECTION names another file)."
    ),
    no_args_is_help=True,
    rich_markup_mode=None,
)
cli.add_typer(collection_app, name="collection")

COPIES_HELP = N_("how many copies (cards), models (troops) or boxes (expansions)")


def _owned_line(coll: Collection, system: str, section: str, name: str) -> str:
    h = coll.holding(system)
    have = (h.expansions if section == EXPANSIONS else h.entries.get(section, {})).get(name, 0)
    return _("{game}: '{name}' ({section}): {n} owned").format(game=system, name=name, section=section, n=have)


@collection_app.command("add")
def collection_add(
    game: str = typer.Argument(..., help=_("senshiai, kensei, herocard, senji or satsuma")),
    name: str = typer.Argument(..., help=_("a catalog entry's name (card, troop, samurai...) or a pack's name")),
    copies: int = typer.Option(1, "--copies", "-n", min=1, help=_(COPIES_HELP)),
) -> None:
    """Add what you own: copies of a card, models of a troop, or an expansion (a pack of the game)."""

    system = game_id(game)
    ch = change_for(read_collection(), system, name, copies)
    coll = apply_changes([ch])
    echo(_owned_line(coll, system, ch.section, ch.name))


@collection_app.command("remove")
def collection_remove(
    game: str = typer.Argument(..., help=_("the game")),
    name: str = typer.Argument(..., help=_("the entry's or expansion's name")),
    copies: int = typer.Option(1, "--copies", "-n", min=1, help=_(COPIES_HELP)),
) -> None:
    """Remove copies of what you own (at 0 the name leaves the file)."""

    system = game_id(game)
    ch = change_for(read_collection(), system, name, -copies)
    coll = apply_changes([ch])
    echo(_owned_line(coll, system, ch.section, ch.name))


def _csv(rows: list[dict[str, Any]], columns: tuple[str, ...]) -> str:
    buf = io.StringIO()
    w = CsvRows(buf)
    w.writerow(columns)
    for r in rows:
        w.writerow([spreadsheet_cell(r[c]) for c in columns])
    return buf.getvalue().rstrip("\n")


@collection_app.command("list")
def collection_list(
    game: Optional[str] = typer.Argument(None, help=_("only this game")),
    format: str = typer.Option(
        "text",
        "--format",
        "-f",
        help=_("text, json or csv (game,section,name,copies: what 'collection import' reads)"),
        callback=formats("text", "json", "csv"),
    ),
) -> None:
    """List what you own."""

    system = game_id(game) if game else None
    coll = read_collection()
    rows = coll.rows(system)
    if format == "json":
        echo(json_text({"file": coll.file, "entries": rows}, indent=2))
        return
    if format == "csv":
        echo(_csv(rows, ("game", "section", "name", "copies")))
        return
    if not rows:
        echo(_("nothing owned yet ({file}): 'daimyo collection add GAME NAME'").format(file=coll.file), err=True)
        return
    width = max(len(str(r["copies"])) for r in rows)
    last = None
    for r in rows:
        if r["game"] != last:
            echo(f"{r['game']}:")
            last = r["game"]
        echo(f"  {r['copies']:>{width}}  {r['name']} ({r['section']})")


@collection_app.command("import")
def collection_import(
    file: str = typer.Argument(
        ..., help=_("a CSV file of rows game,name,copies (a first row naming the columns is optional)")
    ),
) -> None:
    """Add every row of a CSV file to what you own: all rows, or none when one is bad."""

    coll = read_collection()
    changes = read_csv_changes(file, coll)
    apply_changes(changes)
    echo(_("imported {n} rows into {file}").format(n=len(changes), file=collection_path()))


@collection_app.command("needs")
def collection_needs(
    lists: list[str] = typer.Argument(..., help=_("the lists fielded together")),
    each: bool = typer.Option(
        False, "--each", help=_("the lists are fielded one at a time: the most any one list uses, not the sum")
    ),
    format: str = typer.Option(
        "text", "--format", "-f", help=_("text, json or csv"), callback=formats("text", "json", "csv")
    ),
) -> None:
    """What is missing to field these lists together: per entry, what the lists of its game use
    together (--each: the most one list uses) beyond what you own."""

    coll = read_collection()
    docs = []
    bad: list[DaimyoError] = []
    for f in lists:
        try:
            docs.append(load_list(f))
        except DaimyoError as exc:
            bad.append(exc)
    if bad:
        raise DaimyoError([d for exc in bad for d in exc.diagnostics])
    found = needs(docs, coll, each=each)
    rows = [n.to_json() for n in found]
    if format == "json":
        echo(json_text({"each": each, "missing": rows}, indent=2))
        return
    if format == "csv":
        echo(_csv(rows, ("game", "section", "name", "needed", "owned", "missing")))
        return
    if not rows:
        echo(_("nothing is missing: the collection holds everything these lists use"))
        return
    for n in found:
        echo(
            _("{game}: {missing} more '{name}' (needed {needed}, owned {owned})").format(
                game=n.system, missing=n.missing, name=n.name, needed=n.needed, owned=n.owned
            )
        )


def register(app: typer.Typer) -> None:
    """Add this module's commands and command groups to the typer app."""
    app.registered_commands += cli.registered_commands
    app.registered_groups += cli.registered_groups
