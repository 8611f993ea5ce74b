"""The ``daimyo`` typer app: the top-level group, the core commands (check, rules, catalog, demo)
and the command table. ``builder.cli.main`` runs it for every call its own quick route for
``daimyo check`` does not take.

The other commands live in small modules under ``builder/commands/``: module-level functions on a
typer app of the module's own, which ``register(app)`` puts on this one. ``COMMAND_TABLE`` imports
a module only when a call names one of its commands.
"""

from __future__ import annotations

import copy
import importlib
from typing import Any, Optional

import typer
from typer.main import get_command_name

import builder.state
from builder import __version__
from builder.catalog.browse import check_catalogs, house_rules_lines, list_entries, show_entry
from builder.catalog.loader import load_catalog
from builder.cli import echo, fail, find_game, run_check
from builder.cli_words import help_said, route, usage_message
from builder.errors import EXIT_INPUT, DaimyoError, UsageError
from builder.findings import severity_word
from builder.i18n import _, current_language
from builder.limits import long_integer_problem, number_problem
from builder.names import did_you_mean
from builder.safeout import json_text
from builder.systems import get, ids, list_systems
from builder.yamlio import begin_command

route()  # click's and typer's own words (Usage:, Options, Missing argument...) in daimyo's catalogs


def translate_help(command: Any) -> None:
    """A command's help, its short help and its parameters' help (and its subcommands') in the
    current language, once per language: written in English in the sources (``help=``, the
    docstring), where ``scripts/i18n.py extract`` finds them, and translated when the command
    line is read, the language being chosen by then."""
    lang = current_language()
    done = vars(command).setdefault("_help_english", {})
    if vars(command).get("_help_language") == lang:
        return
    for attr in ("help", "short_help", "epilog"):
        english = done.setdefault(attr, getattr(command, attr, None))
        if isinstance(english, str) and english:
            setattr(command, attr, help_said(english))
    for param in getattr(command, "params", ()):
        english = vars(param).setdefault("_help_english", getattr(param, "help", None))
        if isinstance(english, str) and english:
            param.help = help_said(english)
    vars(command)["_help_language"] = lang
    for sub in (getattr(command, "commands", None) or {}).values():
        translate_help(sub)


def _usage_error_classes():

    try:  # typer 0.2x carries its own copy of click
        exceptions = importlib.import_module("typer._click.exceptions")
    except ImportError:  # pragma: no cover - typer on top of click
        exceptions = importlib.import_module("click.exceptions")
    # an older click has no NoArgsIsHelpError
    return exceptions.UsageError, getattr(exceptions, "NoArgsIsHelpError", ())


def usage_error_line(exc, text: str | None = None) -> str:
    """A command-line parsing error as one ``daimyo: error: ...`` line naming the command's help."""
    ctx = getattr(exc, "ctx", None)
    see = ctx is not None
    names = []
    while ctx is not None and ctx.parent is not None:
        names.append(ctx.info_name)
        ctx = ctx.parent
    command = " ".join(["daimyo", *reversed([n for n in names if n])])
    text = " ".join((text or usage_message(exc)).split())
    if text.endswith("."):
        text = text[:-1]
    text = text[:1].lower() + text[1:] if text[:1].isupper() and text[1:2].islower() else text
    if see:
        return _("daimyo: error: {message} (see '{help}')").format(message=text, help=f"{command} --help")
    return _("daimyo: error: {message}").format(message=text)


class DaimyoGroup(typer.core.TyperGroup):
    """The top-level group: a bad option, a missing argument or a value of the wrong type is one
    ``daimyo: error:`` line and exit 2, and a DaimyoError escaping a command prints its lines."""

    def _guard(self, call, *args, **kwargs):
        usage_error, no_args = _usage_error_classes()
        try:
            return call(*args, **kwargs)
        except no_args as exc:  # a group called without its command: the help, then one line
            echo(exc.format_message().rstrip("\n"))
            echo(usage_error_line(exc, _("missing command")), err=True)
            raise typer.Exit(EXIT_INPUT) from None
        except usage_error as exc:
            echo(usage_error_line(exc), err=True)
            raise typer.Exit(EXIT_INPUT) from None
        except DaimyoError as exc:
            fail(exc)

    def make_context(self, *args, **kwargs):
        translate_help(self)
        return self._guard(super().make_context, *args, **kwargs)

    def resolve_command(self, ctx, args):
        name, cmd, rest = super().resolve_command(ctx, args)
        if cmd is not None and not vars(cmd).get("_numbers_checked", False):
            run = cmd.invoke

            def invoke(sub_ctx, _run=run):
                check_number_options(sub_ctx)
                return _run(sub_ctx)

            # this command object's invoke (over its class's), wrapped once
            vars(cmd).update(invoke=invoke, _numbers_checked=True)
        return name, cmd, rest

    def invoke(self, ctx):

        begin_command()  # what an earlier command of this process read is no input of this one
        try:
            return self._guard(super().invoke, ctx)
        finally:
            begin_command(track=False)  # release the locks of files read for editing


def check_number_options(ctx) -> None:
    """Every number given on the command line is inside the documented number range."""

    for param in ctx.command.params:
        value = ctx.params.get(param.name)
        values = value if isinstance(value, (list, tuple)) else [value]
        for v in values:  # whole numbers (options in millimetres have ranges of their own)
            why = number_problem(v) if isinstance(v, int) else None
            if (
                why is None
                and isinstance(v, str)
                and param.name == "value"
                and v.strip().lstrip("+-").replace("_", "").isdigit()
            ):  # daimyo set FILE KEY VALUE, a number
                why = long_integer_problem(v.strip())
                if why is None and v.strip().lstrip("+-").isdigit() and len(v.strip()) <= 31:
                    why = number_problem(int(v.strip()))
            if why:
                opts = [o for o in getattr(param, "opts", []) if o.startswith("--")]
                label = opts[0] if opts and getattr(param, "param_type_name", "") == "option" else param.name.upper()
                raise UsageError(f"{label}: {why}")


app = typer.Typer(
    cls=DaimyoGroup,
    name="daimyo",
    help="Deck and army builder with print-and-play output for Senshiai, Kensei, HeroCard, "
    "Senji and Satsuma Rebellion.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
catalog_app = typer.Typer(help="Browse and validate the catalog.", no_args_is_help=True, rich_markup_mode=None)
app.add_typer(catalog_app, name="catalog")


def _version(value: bool):
    if value:
        echo(f"daimyo {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
    lang: str = typer.Option(
        "",
        "--lang",
        metavar="LANG",
        help="The language of messages and printed pages (en, es, fr, ja; default: DAIMYO_LANG, then LC_ALL, LC_MESSAGES, LANG).",
    ),
):
    """daimyo: build, check, print and share lists for five Japanese-themed games."""


# -- check -------------------------------------------------------------------------


@app.command()
def check(
    files: list[str] = typer.Argument(..., help="List documents (YAML or JSON)."),
    format: str = typer.Option(
        "text",
        "--format",
        "-f",
        help="text, json or csv (one row per list: file, system, name, verdict, total, fingerprint, share code)",
    ),
    pack: list[str] = typer.Option([], "--pack", "-p", help="Extra pack file(s) for every list."),
    strict: bool = typer.Option(False, "--strict", help="Warnings make the exit status 1 too."),
    explain: bool = typer.Option(False, "--explain", help="Show what was counted toward each limit."),
    no_color: bool = typer.Option(False, "--no-color", help="No colour, even on a terminal (NO_COLOR too)."),
    collection: bool = typer.Option(
        False,
        "--collection",
        help=_(
            "Note (info, not an error) each entry used beyond what you own ('daimyo collection'); "
            "json adds collection_short."
        ),
    ),
):
    """Check lists against the rules. Exit 0 legal, 1 illegal, 2 unreadable input."""
    raise typer.Exit(run_check(files, format, pack, strict, explain, no_color, collection))


# -- rules -------------------------------------------------------------------------


@app.command()
def rules(
    system: str = typer.Argument(..., help="senshiai, kensei, herocard, senji or satsuma"),
    format: str = typer.Option("text", "--format", "-f", help="text, json or markdown"),
    codes: bool = typer.Option(
        False, "--codes", help="list the finding codes a check may give instead: severity, meaning and rulebook section"
    ),
):
    """List the house-rule parameters of a system: default reading, alternatives, sources."""

    if format not in ("text", "json", "markdown"):
        raise UsageError(
            _("unknown format '{format}'").format(format=format),
            did_you_mean(format, ["text", "json", "markdown"]) or _("use text, json or markdown"),
        )
    cat = load_catalog(find_game(system).id)
    if codes:
        return _print_codes(find_game(system).id, cat, format)

    for line in house_rules_lines(cat, system, format):
        echo(line)


def _print_codes(system: str, cat, format: str) -> None:
    """The finding codes of ``system`` (``rules --codes``)."""

    codes = list(get(system).catalog.finding_codes(cat).values())
    if format == "json":
        echo(json_text({"system": system, "codes": [c.to_json() for c in codes]}, indent=2))
    elif format == "markdown":
        echo("| " + " | ".join((_("code"), _("severity"), _("meaning"), _("rulebook"))) + " |")
        echo("| --- | --- | --- | --- |")
        for c in codes:
            echo(f"| `{c.code}` | {severity_word(c.severity)} | {_(c.meaning).replace('|', '/')} | {c.section()} |")
    else:
        width = max(len(c.code) for c in codes)
        for c in codes:
            echo(
                f"{c.code:<{width}}  {severity_word(c.severity):<7}  {_(c.meaning)}"
                + (f" ({c.section()})" if c.source else "")
            )


# -- catalog -----------------------------------------------------------------------


@catalog_app.command("systems")
def catalog_systems():
    """The game systems (the five built in and any other registered) and how many entries each
    catalog holds."""

    for gs in list_systems():
        cat = load_catalog(gs.id)
        counts = ", ".join(f"{len(cat.records(sec))} {sec}" for sec in cat.sections())
        echo(f"{gs.id:9} {gs.title}: {counts}")


@catalog_app.command("list")
def catalog_list(
    system: str = typer.Argument(..., help="the game system"),
    section: Optional[str] = typer.Argument(None, help="a section such as troops, abilities, cards"),
    where: list[str] = typer.Option(
        [],
        "--where",
        "-w",
        help="filter: FIELD=VALUE, FIELD~TEXT (contains, any case), FIELD<N, >, <=, >=, != (e.g. clan=buke, name~samurai, cost<10)",
    ),
    pack: list[str] = typer.Option([], "--pack", "-p", help="Pack file(s) to include."),
):
    """List the entries of a system, optionally one section, filtered by fields."""

    for line in list_entries(find_game(system).id, section, where, pack):
        echo(line)


@catalog_app.command("show")
def catalog_show(
    system: str = typer.Argument(...),
    name: str = typer.Argument(..., help="an entry's name, id or alias"),
    pack: list[str] = typer.Option([], "--pack", "-p"),
):
    """Show one entry in full with its source."""

    for line in show_entry(find_game(system).id, name, pack):
        echo(line)


@catalog_app.command("check")
def catalog_check(
    pack: list[str] = typer.Option([], "--pack", "-p", help="Pack file(s) to validate with the catalog."),
    system: Optional[str] = typer.Option(None, "--system", "-s", help="only this system"),
):
    """Validate the catalog (and packs). Exit 0 when valid, 2 with one line per problem."""

    try:
        for line in check_catalogs(find_game(system).id if system else None, pack, ids()):
            echo(line)
    except DaimyoError as exc:
        for line in getattr(exc, "ok_lines", []):
            echo(line)
        fail(exc)


# -- demo --------------------------------------------------------------------------


@app.command()
def demo(
    out: str = typer.Option("output", "--output", "-o", "--out", help="folder for the generated files"),
    force: bool = typer.Option(False, "--force", help="also replace files in the folder that the demo did not write"),
):
    """The main job on the bundled examples: validate the catalog, check a list of every system, print PDFs.

    The demo replaces its own earlier output; any other file in the way is kept unless --force."""
    from builder.demo import run_demo  # noqa: PLC0415 - the demo (and the checks and printing it runs) only when `daimyo demo` runs

    code = run_demo(out, echo, force=force)
    raise typer.Exit(code)


CORE_COMMANDS = ("check", "rules", "catalog", "demo")  # the commands above: always on the app

_LATE: list = []  # finders of command groups added only when a call needs them (a game's own commands)


def add_late(finder) -> None:
    """Let ``finder(app, name)`` add command groups when a call needs them: the group ``name`` (its
    ``TyperInfo``, or None when it has none of that name), or every group it knows (``name`` None)."""
    _LATE.append(finder)


def _add_late(name: str | None) -> list:
    found = [finder(app, name) for finder in _LATE]
    return [g for g in found if g is not None] if name is not None else []


#: the modules of ``builder/commands`` in the order their commands are listed (after the ones above)
COMMAND_MODULES = (
    "edit",
    "printing",
    "share",
    "games",
    "analytics",
    "packs",
    "collection",
    "serve",
    "event",
    "diff",
)
#: the commands and command groups each module adds with ``register``, by name: a call that names
#: one imports that module alone (tests/test_startup.py holds this table to what the modules add)
COMMAND_TABLE = {
    **dict.fromkeys(("new", "add", "remove", "set", "why", "options", "edit"), "edit"),
    **dict.fromkeys(("print", "print-test", "aid", "printer"), "printing"),
    **dict.fromkeys(("export", "import", "show"), "share"),
    **dict.fromkeys(("stats", "hand"), "analytics"),
    **dict.fromkeys(("pack", "registry"), "packs"),
    "collection": "collection",
    "serve": "serve",
    "viewer": "serve",
    "event": "event",
    "diff": "diff",
}
_REGISTERED: list[bool] = []  # [True] once every module's commands are on the app
_ALONE: dict[str, typer.Typer] = builder.state.cache(
    "commands.alone",
    bound=None,
    lifetime=builder.state.PROCESS,
    doc="a command module's commands on an app of their own, by module",
)


def register_commands() -> None:
    """Every command of ``builder/commands`` on the app, in their order (once): what help, an unknown
    name and a game's own commands need."""
    if _REGISTERED:
        return

    _REGISTERED.append(True)
    for mod in COMMAND_MODULES:
        importlib.import_module(f"builder.commands.{mod}").register(app)


def _commands_of(name: str):
    """The app holding the commands of the module that adds command ``name``: the app itself once
    every module is on it, else an app of that module's commands alone (imported just now)."""
    mod = COMMAND_TABLE.get(name)
    if mod is None or _REGISTERED:
        register_commands()
        return app
    if mod not in _ALONE:
        _ALONE[mod] = typer.Typer()
        importlib.import_module(f"builder.commands.{mod}").register(_ALONE[mod])
    return _ALONE[mod]


def app_for(args: list[str]):
    """The app to run ``args`` with: when they name one command (or command group), a copy of the
    app holding only that one, since typer builds the parameters of every registered command on
    each call and one is all a call runs; only the module adding that command is imported (its
    name is looked up in ``COMMAND_TABLE``). The whole app for help, root options and unknown names.
    A game's command group (``gs.commands``) is added when a call names the game, or with the
    whole app (``--version`` alone excepted)."""
    name = args[0] if args else ""
    if not name or name.startswith("-"):
        if args != ["--version"]:  # help: every command, the games' own command groups too
            register_commands()
            _add_late(None)
        return app

    source = _commands_of(name) if name not in CORE_COMMANDS else app
    cmds = [
        c
        for c in source.registered_commands
        if (c.name or (get_command_name(c.callback.__name__) if c.callback else "")) == name
    ]
    groups = [g for g in source.registered_groups if g.name == name]
    if not cmds and not groups:  # a game's own commands (``daimyo satsuma clash``)
        register_commands()
        groups = _add_late(name)
    if len(cmds) + len(groups) != 1:
        register_commands()
        _add_late(None)
        return app

    one = copy.copy(app)
    one.registered_commands, one.registered_groups = cmds, groups
    return one
