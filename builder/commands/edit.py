"""CLI commands that build a list: new, add, remove, set, why, options, and ``edit``: every
other change the web builder makes (a unit's models, standard, leader; duplicate or remove a
unit; a house rule; a card's copies; a part of a Senji setup).

Each command parses its arguments, builds one operation for the library's edit session
(``builder.lists.editor.ListEditor``, operations in ``builder.lists.ops`` and the game's
``edits``), and prints what was done and the list's check. The editing itself (comments
kept, unknown names refused with suggestions, atomic writes, no lost edit when two run at
once) is the library's.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

import typer
from typer.core import TyperCommand

from builder.catalog.loader import load_catalog
from builder.catalog.packfiles import is_name, not_found_hint, resolve_pack
from builder.check import check_file, format_result
from builder.cli import echo, find_game
from builder.errors import DaimyoError, UsageError, unknown_format
from builder.i18n import N_, _, ngettext, tr
from builder.kit.numbers import number_text
from builder.lists.compare import gap
from builder.lists.document import load_list
from builder.lists.editor import ListEditor, edit_file
from builder.lists.new import NewListRequest, parse_opts, start
from builder.lists.ops import from_form
from builder.lists.options import options
from builder.paths import is_file
from builder.rulebooks import format_source, humanize
from builder.safeout import json_text
from builder.systems import get, list_systems
from builder.yamlio import atomic_write


class NewCommand(TyperCommand):
    """``daimyo new``, whose help ends with the options each registered game declares (read
    only when the help is asked for: it loads every game's catalog)."""

    def format_epilog(self, ctx, formatter) -> None:
        formatter.write_paragraph()
        formatter.write_text(_("The options of each game (--opt KEY=VALUE):"))
        with formatter.indentation():
            for line in game_option_lines():
                formatter.write_text(line)


def game_option_lines() -> list[str]:
    """One line per game (and per option) for ``daimyo new --help``: key, what it is, what it takes."""

    out = []
    for gs in list_systems():
        try:
            declared = gs.new_list.declare(load_catalog(gs.id))
        except DaimyoError:
            declared = []
        if not declared:
            out.append(_("{game}: none").format(game=gs.id))
            continue
        out.append(f"{gs.id}:")
        for o in declared:
            said = [tr(o.help or o.label)]
            if o.kind == "choice" and o.choices and not o.open:
                said.append(_("one of {values}").format(values=", ".join(v for v, _label in o.choices)))
            elif o.kind == "flag":
                said.append(_("yes or no"))
            elif o.kind == "number" and o.min is not None and o.max is not None:
                said.append(_("{min} to {max}").format(min=o.min, max=o.max))
            elif o.kind == "number" and o.min is not None:
                said.append(_("at least {min}").format(min=o.min))
            if o.required:
                said.append(_("required"))
            elif o.default is not None:
                default = (_("yes") if o.default else _("no")) if isinstance(o.default, bool) else o.default
                said.append(_("default {value}").format(value=default))
            out.append(f"  {o.key}: " + "; ".join(said))
    return out


def _pack_paths(packs: list[str], out: str, system: str | None = None) -> tuple[list[str], list[str]]:
    """Packs as written in the list (a path relative to the list's folder, or a pack name found
    in the packs folders) and the files they resolve to."""

    folder = Path(out).resolve().parent
    written, files = [], []
    for p in packs:
        pp = Path(p)
        if is_file(pp):
            written.append(Path(os.path.relpath(pp.resolve(), folder)).as_posix())
            files.append(str(pp.resolve()))
            continue
        found = resolve_pack(p, folder, system)
        if found is None:
            raise UsageError(_("pack file '{pack}' not found").format(pack=p), not_found_hint(p))
        written.append(p if is_name(p) else Path(os.path.relpath(found.resolve(), folder)).as_posix())
        files.append(str(found.resolve()))
    return written, files


def why_lines(
    path: str, name: str, count: int | None = None, models: int | None = None, player: str | None = None
) -> tuple[bool, list[str]]:
    """``daimyo why`` as ``(yes, lines)``, from the library's comparison before and after."""

    ed = ListEditor.open(path)
    res = ed.why(name, count, models=models, player=player)
    what, state, note = ed.game.questions.describe_addition(res, res.data, ed.catalog, name, count, ed.doc.data)
    noun = ed.game.noun
    if res.ok:
        k = len(res.warns)  # e.g. a card the hero can never pay for: allowed, and said so
        if k:
            yes = ngettext(
                "yes: {what} can be added, with {n} warning; {state}",
                "yes: {what} can be added, with {n} warnings; {state}",
                k,
            ).format(what=tr(what), n=k, state=tr(state))
        else:
            yes = _("yes: {what} can be added; {state}").format(what=tr(what), state=tr(state))
        lines = [yes] + ([tr(note)] if note else [])
        lines += [f"  {w.format()}" for w in res.warns]
        lines += ["  " + _("and it would satisfy {rule}").format(rule=tr(c)) for c in res.fixes]
        lines += [
            "  " + _("still to fix: {code}: {message}").format(code=f.code, message=f.translated() + tr(gap(f)))
            for f in res.still
        ]
        return True, lines
    k = len({b.finding.code for b in res.breaks})  # a rule broken at two places is one rule
    head = ngettext("no: adding {what} would break {n} rule:", "no: adding {what} would break {n} rules:", k)
    lines = [head.format(what=tr(what), n=k)] + ([tr(note)] if note else [])
    for b in res.breaks:
        f = b.finding
        lines.append(
            f"  {f.code}: {f.translated()}{tr(gap(f))}"
            + (f" ({format_source(f.source, inline=True)})" if f.source else "")
        )
        if b.before is not None:
            lines.append("      " + _("already broken before: {message}").format(message=b.before.translated()))
    lines += [
        "  "
        + _("still to fix (not caused by this {noun}): {code}: {message}").format(
            noun=tr(noun), code=f.code, message=f.translated() + tr(gap(f))
        )
        for f in res.still
    ]
    return False, lines


def options_lines(ed, found) -> list[str]:
    """``daimyo options`` as text: one line per entry, then how many can be added."""
    if not found:
        return [_("nothing matches")]

    gs = get(ed.system)
    width = min(max(len(o.name) for o in found), 32)
    out = []
    for o in found:
        if o.unit == "AP":
            cost = _("cost unknown") if o.cost is None else f"{number_text(o.cost)} {_('AP')}"
        else:  # as the card prints it (Senshiai: a Roman numeral or N)
            cost = tr(gs.browse.cost_text(ed.catalog.find(o.section, o.id), o.cost))
        what = _("{n} models").format(n=o.count) if o.unit == "AP" and o.count > 1 else ""
        head = f"{'+' if o.ok else '-'} {o.name:<{width}}  {cost:>8}"
        if o.ok:
            left = "" if o.left is None else _("{n} {unit} left").format(n=number_text(o.left), unit=_(o.unit))
            warned = ""
            if o.warning:  # allowed, but said
                warned = _("warning: {message}").format(message=humanize(tr(o.warning)))
            out.append("  ".join(x for x in (head, what, left, warned) if x).rstrip())
        else:
            out.append(
                "  ".join(x for x in (head, what) if x)
                + "  "
                + _("no: {code}: {reason}").format(code=o.code, reason=tr(o.reason))
            )
    out.append(_("{n} of {total} can be added").format(n=sum(o.ok for o in found), total=len(found)))
    return out


def _print_change(ed, change, breaks: bool = False) -> None:
    """The notes of an edit, the rules it broke (as ``check`` prints them), then the list's check."""

    for line in change.notes:
        echo(tr(line))
    shown: list = []  # each finding is printed once: what the edit broke here, the rest in the verdict
    if breaks:
        for f in [
            *change.breaks,
            *getattr(change.comparison, "warns", []),
        ]:  # warns: e.g. a card the hero can never pay for
            if f not in shown:
                echo(f.format(ed.file))
                shown.append(f)
    for line in format_result(ed.check(), all_rules=False, printed=shown):
        echo(line)


def _game_of(file: str):

    return get(load_list(file).system)


def _edit(file: str, form: dict) -> None:
    """Make the change ``form`` names (the words the web builder posts), save it and print it."""

    ed, change = edit_file(file, lambda ed: ed.apply(from_form(form, ed.game)))
    _print_change(ed, change)


UNIT = N_("the unit's place in the list, counting from 1")


cli = typer.Typer()  # this module's commands and groups; register() puts them on the app


edit_app = typer.Typer(
    help="Change a unit, a house rule, a card's copies or a part of a list: every change "
    "the web builder makes, saved at once (comments kept).",
    no_args_is_help=True,
    rich_markup_mode=None,
)

cli.add_typer(edit_app, name="edit")


@edit_app.command("models", context_settings={"ignore_unknown_options": True})
def models_cmd(
    file: str = typer.Argument(..., help="the list file"),
    unit: int = typer.Argument(..., min=1, help=UNIT),
    models: str = typer.Argument(..., metavar="N", help="the unit's models; +N or -N changes them by N"),
):
    """kensei: set a unit's models (6), or change them (+1, -2)."""
    m = models.strip()
    key = "delta" if m[:1] in ("+", "-") else "value"
    _edit(file, {"op": "models", "index": unit - 1, key: m})


@edit_app.command("duplicate")
def duplicate_cmd(
    file: str = typer.Argument(..., help="the list file"), unit: int = typer.Argument(..., min=1, help=UNIT)
):
    """kensei: one more unit like this one, right below it."""
    _edit(file, {"op": "duplicate", "index": unit - 1})


@edit_app.command("remove-unit")
def remove_unit_cmd(
    file: str = typer.Argument(..., help="the list file"), unit: int = typer.Argument(..., min=1, help=UNIT)
):
    """kensei: take this unit off the list (a general it alone leads goes too)."""
    _edit(file, {"op": "remove", "index": unit - 1})


@edit_app.command("standard")
def standard_cmd(
    file: str = typer.Argument(..., help="the list file"),
    unit: int = typer.Argument(..., min=1, help=UNIT),
    on: str = typer.Argument(..., metavar="on|off", help="on: the unit carries a Hata-Jurushi"),
):
    """kensei: give a unit a Hata-Jurushi (on) or take it away (off)."""

    if on.lower() not in ("on", "off"):
        raise UsageError(_("say on or off, not '{value}'").format(value=on))
    _edit(file, {"op": "troop", "index": unit - 1, "field": "standard", "value": on})


@edit_app.command("leader")
def leader_cmd(
    file: str = typer.Argument(..., help="the list file"),
    unit: int = typer.Argument(..., min=1, help=UNIT),
    name: str = typer.Argument(..., help="a leader of the list, or 'none' for no unit leader"),
):
    """kensei: deploy a leader as the unit's leader (led_by), or none."""
    _edit(
        file,
        {
            "op": "troop",
            "index": unit - 1,
            "field": "led_by",
            "value": "" if name.strip().lower() == "none" else name,
        },
    )


@edit_app.command("house-rule")
def house_rule_cmd(
    file: str = typer.Argument(..., help="the list file"),
    key: str = typer.Argument(..., help="the house rule's id (see 'daimyo check --explain')"),
    value: str = typer.Argument(..., help="the agreed value, or 'default' for the rulebook's reading"),
):
    """Agree a house rule for the list, or go back to the rulebook's reading (default)."""
    _edit(file, {"op": "house_rule", "key": key, "value": value})


@edit_app.command("copies")
def copies_cmd(
    file: str = typer.Argument(..., help="the list file"),
    item: str = typer.Argument(..., metavar="NAME", help="the card"),
    count: int = typer.Argument(..., metavar="N", min=0, max=1000, help="the copies it should have (0: none)"),
):
    """Cards: make a card's copies in the list exactly N."""
    _edit(file, {"op": "copies", "item": item, "value": count})


@edit_app.command("player")
def player_cmd(
    file: str = typer.Argument(..., help="the list file"),
    player: int = typer.Argument(..., min=1, help="the player's place in the setup, counting from 1"),
    field: str = typer.Argument(..., help="name, family, samurai, or remove (the player leaves)"),
    value: str = typer.Argument("", help="the new value ('' takes a family or samurai card away)"),
):
    """senji: change a player of the setup: name, family, samurai card; or remove the player."""
    _edit(file, {"op": "part", "where": ("players", player - 1), "field": field, "value": value})


@edit_app.command("province")
def province_cmd(
    file: str = typer.Argument(..., help="the list file"),
    player: int = typer.Argument(..., min=1, help="the player's place in the setup, counting from 1"),
    province: int = typer.Argument(..., min=1, help="the province's place in the player's provinces, counting from 1"),
    field: str = typer.Argument(..., help="units, samurai, or remove (the province goes)"),
    value: str = typer.Argument("", help="the new value"),
):
    """senji: change a player's province: its units, its samurai figure; or remove it."""
    _edit(
        file,
        {"op": "part", "where": ("players", player - 1, "provinces", province - 1), "field": field, "value": value},
    )


@cli.command("new", cls=NewCommand)
def new_cmd(
    system: str = typer.Argument(
        ..., help="the game system: kensei, senshiai, herocard, senji, satsuma or an installed game's"
    ),
    opt: list[str] = typer.Option(
        [],
        "--opt",
        metavar="KEY=VALUE",
        help="an option of the game's own, e.g. --opt clan=buke (repeatable; the keys of each game are below)",
    ),
    clan: Optional[str] = typer.Option(None, "--clan", help="kensei: buke, kuge, sohei, otokodate, kuroi-te, hattori"),
    points: Optional[str] = typer.Option(
        None, "--points", metavar="N", help="kensei: the agreed battle size in AP [default: 200]"
    ),
    commander: Optional[str] = typer.Option(
        None, "--commander", help="kensei: hatamoto, taisho or daimyo [default: hatamoto]"
    ),
    occult: Optional[bool] = typer.Option(
        None, "--occult/--no-occult", help="kensei: use the advanced occult rules [default: no]"
    ),
    size: Optional[str] = typer.Option(
        None,
        "--size",
        metavar="N",
        help="senshiai: the agreed deck size (the deck must have exactly this many cards)",
    ),
    hero: Optional[str] = typer.Option(
        None, "--hero", help="herocard: the hero's name (a catalog hero starts with its attribute cards)"
    ),
    max_hero_points: Optional[str] = typer.Option(
        None, "--max-hero-points", metavar="N", help="herocard: the agreed hero point limit [default: 30]"
    ),
    players: Optional[str] = typer.Option(None, "--players", metavar="N", help="senji: the number of players, 3 to 6"),
    side: Optional[str] = typer.Option(
        None, "--side", help="satsuma: samurai or imperial (starts with the published deck)"
    ),
    pack: list[str] = typer.Option(
        [],
        "--pack",
        "-p",
        help="a pack file whose cards or troops the list may name (repeatable); written relative to the list's folder",
    ),
    name: Optional[str] = typer.Option(None, "--name", help="the list's name"),
    out: str = typer.Option(..., "--output", "-o", help="the list file to create"),
    force: bool = typer.Option(False, "--force", help="replace an existing file"),
):
    """Start a new list file and check it.

    A game's own options are given as --opt KEY=VALUE, e.g. daimyo new kensei --opt clan=buke
    --opt points=400 -o army.yaml. The older flags stand for the same keys: kensei --clan C
    [--points 200]; senshiai [--size 50]; herocard --hero NAME [--max-hero-points 30]; senji
    --players N; satsuma --side samurai|imperial.
    """

    gs = find_game(system)
    flags = {
        "clan": clan,
        "points": points,
        "commander": commander,
        "occult": occult,
        "size": size,
        "hero": hero,
        "max_hero_points": max_hero_points,
        "players": players,
        "side": side,
    }
    given: dict[str, object] = dict(parse_opts(opt))
    for key, value in flags.items():  # a flag stands for its key: --clan buke is --opt clan=buke
        if value is None:
            continue
        if key in given:
            raise UsageError(
                _("option '{key}' is given twice").format(key=key),
                _("give --opt {key}=... or its flag, not both").format(key=key),
            )
        given[key] = value
    packs, pack_files = _pack_paths(pack, out, gs.id)
    new = start(NewListRequest(gs.id, given, name, packs, pack_files))
    atomic_write(out, new.text, force=force)
    echo(_("wrote {file}").format(file=out), err=True)
    for n in new.notes:
        echo(tr(n))

    for line in format_result(check_file(out), all_rules=False):
        echo(line)


@cli.command("add")
def add_cmd(
    file: str = typer.Argument(..., help="the list file"),
    item: str = typer.Argument(
        ...,
        metavar="NAME",
        help="a card (kensei: a troop; senji: a family, samurai card or province) named as in the catalog or the list's packs",
    ),
    count: Optional[int] = typer.Option(
        None, "--count", "-n", help="cards: how many copies to add [default: 1]; senji: the units on the province"
    ),
    variant: bool = typer.Option(
        False, "--variant", help="satsuma: turn the published deck ('deck: standard') into a variant deck first"
    ),
    models: Optional[int] = typer.Option(
        None, "--models", "-m", help="kensei: models in the unit (default: 3 for a unit, 1 for a single model)"
    ),
    led_by: Optional[str] = typer.Option(None, "--led-by", help="kensei: a leader of the list deployed as unit leader"),
    standard: bool = typer.Option(False, "--standard", help="kensei: the unit carries a Hata-Jurushi"),
    player: Optional[str] = typer.Option(
        None,
        "--player",
        help="senji: the player (name or family) who gets the samurai card or province [default: the one with fewest]",
    ),
    opt: list[str] = typer.Option(
        [], "--opt", metavar="KEY=VALUE", help="an option of the game's own add, e.g. --opt models=2 (repeatable)"
    ),
):
    """Add copies of a card (senshiai, herocard, satsuma), a troop (kensei), or a player's
    family, samurai card or province (senji) to a list.

    A HeroCard attribute card goes into 'attributes' (replacing the card of the same
    kind); new cards are written with the catalog's spelling, after the last card of
    their type. A rule the addition breaks is named at once.
    """

    given = parse_opts(opt)
    # the editor checks the options against the list's system (read once)
    ed, change = edit_file(
        file,
        lambda ed: ed.add(
            item,
            count,
            models=models,
            led_by=led_by,
            standard=standard,
            variant=variant,
            player=player,
            options=given,
        ),
    )
    _print_change(ed, change, breaks=True)


@cli.command("remove")
def remove_cmd(
    file: str = typer.Argument(..., help="the list file"),
    item: str = typer.Argument(
        ...,
        metavar="NAME",
        help="the card to take copies of (kensei: the troop's last entry; senji: a player, family, samurai card or province)",
    ),
    count: Optional[int] = typer.Option(
        None, "--count", "-n", help="cards: how many copies to remove [default: 1]; at 0 the line goes"
    ),
    all_: bool = typer.Option(False, "--all", help="cards: remove every copy"),
    variant: bool = typer.Option(
        False, "--variant", help="satsuma: turn the published deck ('deck: standard') into a variant deck first"
    ),
):
    """Remove copies of a card, a troop, or a senji player, samurai card or province from a list."""

    def remove(ed):
        ed.game.editing.check_options("remove", {"count": count, "all": all_, "variant": variant})
        if all_ and count is not None:
            raise UsageError(_("give --count or --all, not both"))
        if count is not None and count < 1:
            raise UsageError(_("--count must be at least 1, not {count}").format(count=count))
        return ed.remove(item, None if all_ else (1 if count is None else count), variant=variant)

    ed, change = edit_file(file, remove)
    _print_change(ed, change)


@cli.command("set")
def set_cmd(
    file: str = typer.Argument(..., help="the list file"),
    key: str = typer.Argument(
        ...,
        help="kensei: commander, points, clan, occult, general; senshiai: size; "
        "herocard: hero, max_hero_points; satsuma: side; any: name",
    ),
    value: str = typer.Argument(..., help="the new value ('none' removes a senshiai size; '' removes a name)"),
):
    """Change a setting of a list: kensei commander, points, clan, occult, general;
    senshiai size; herocard hero, max_hero_points; satsuma side; the name of any list."""
    ed, change = edit_file(file, lambda ed: ed.set(key, value))
    _print_change(ed, change)


@cli.command("why")
def why_cmd(
    file: str = typer.Argument(..., help="the list file"),
    item: str = typer.Argument(
        ..., metavar="NAME", help="a card (kensei: a troop; senji: a family, samurai card or province)"
    ),
    count: int = typer.Option(1, "--count", "-n", help="cards: how many more copies to try"),
    models: Optional[int] = typer.Option(None, "--models", "-m", help="kensei: models in the unit to try"),
    player: Optional[str] = typer.Option(None, "--player", help="senji: the player who would get it"),
):
    """Could one more copy of a card (or unit of a troop) be added? If not, which rule
    stops it and by how much. Exit 0 yes, 1 no, 2 bad input."""

    gs = _game_of(file)
    gs.editing.check_options("add", {"models": models, "player": player})
    if "count" in gs.editing.add_options and count < 1:
        raise UsageError(_("--count must be at least 1, not {count}").format(count=count))
    yes, lines = why_lines(file, item, count if gs.kind == "deck" else None, models, player)
    for line in lines:
        echo(line)
    raise typer.Exit(0 if yes else 1)


@cli.command("options")
def options_cmd(
    file: str = typer.Argument(..., help="the list file"),
    type_: Optional[str] = typer.Option(
        None, "--type", "-t", help="only this troop type, card type or kind (e.g. infantry, event, base-attack)"
    ),
    search: Optional[str] = typer.Option(
        None, "--search", "-s", help="only names containing this (case and accents ignored)"
    ),
    max_cost: Optional[float] = typer.Option(None, "--max-cost", help="only entries costing at most this"),
    can: bool = typer.Option(False, "--can", help="only what can be added now"),
    format: str = typer.Option("text", "--format", "-f", help="text or json"),
):
    """What could be added to a list now: every troop or card of the catalog and the list's
    packs, with its cost and what is left after it, or the first rule that stops it."""

    if format not in ("text", "json"):
        raise UsageError(unknown_format(format, ("text", "json")))
    ed = ListEditor.open(file)
    found = options(ed, type=type_, search=search, max_cost=max_cost, only_ok=can)
    if format == "json":
        echo(json_text([o.to_json() for o in found], indent=2))
        return
    for line in options_lines(ed, found):
        echo(line)


def register(app) -> None:
    """Add this module's commands and command groups to the typer app."""
    app.registered_commands += cli.registered_commands
    app.registered_groups += cli.registered_groups
