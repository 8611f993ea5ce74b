"""The commands a game brings: a game whose ``commands`` part is set (``gs.commands``, a
``builder.systems.parts.Commands``) gets a command group named by its id (``daimyo satsuma clash``).

The command line never imports a game's package for them: it asks the registry for the game and
hands its part a typer group and the helpers below. A game is loaded for its commands only when
a call names it, or when the whole app is shown (help, an unknown command).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import typer

from builder.check import check_doc, resolve_house_rules
from builder.cli import error_lines
from builder.commands.analytics import Progress
from builder.commands.app import add_late
from builder.errors import UsageError
from builder.i18n import _
from builder.lists.document import load_list
from builder.systems import get, ids, is_system
from builder.yamlio import parse_yaml

_AT: list[int] = []  # where the games' groups go among the app's groups (the help lists them there)


def parse_rule_options(items: list[str]) -> dict:
    """``["bodyguard_suit=defense"]`` -> {"bodyguard_suit": "defense"} (numbers/booleans as YAML reads them)."""

    out = {}
    for item in items:
        if "=" not in item:
            raise UsageError(
                _("house rule '{rule}' is not ID=VALUE").format(rule=item),
                _("e.g. {example}").format(example="--rule bodyguard_suit=defense"),
            )
        key, value = item.split("=", 1)

        try:
            val, _where = parse_yaml(value.strip() or "''")
        except Exception:
            val = value.strip()
        out[key.strip()] = val
    return out


def helpers() -> SimpleNamespace:
    """What a game's commands may use of the command line: ``parse_rule_options`` (``--rule ID=VALUE``),
    ``Progress`` (a progress bar on standard error), ``error_lines`` (a ``DaimyoError`` as printed)
    and ``lists``, the library's list functions (``load_list``, ``check_doc``, ``resolve_house_rules``)
    for a game that reads and checks list files."""

    lists = SimpleNamespace(load_list=load_list, check_doc=check_doc, resolve_house_rules=resolve_house_rules)
    return SimpleNamespace(
        parse_rule_options=parse_rule_options, Progress=Progress, error_lines=error_lines, lists=lists
    )


def add_game(app, system_id: str) -> Any:
    """Add the commands of game ``system_id`` to ``app`` (once); its group (``TyperInfo``), or None
    when there is no such game or it brings no commands."""

    for group in app.registered_groups:
        if group.name == system_id:
            return group
    if not is_system(system_id):
        return None
    part = getattr(get(system_id), "commands", None)
    if part is None:
        return None

    sub = typer.Typer(help=part.help, no_args_is_help=True, rich_markup_mode=None)
    part.register(sub, helpers())
    app.add_typer(sub, name=system_id)
    info = app.registered_groups.pop()
    app.registered_groups.insert(_AT[0] if _AT else len(app.registered_groups), info)
    if _AT:
        _AT[0] += 1
    return info


def add_games(app) -> None:
    """Add the commands of every registered game to ``app`` (for help and unknown names)."""

    for sid in ids():
        add_game(app, sid)


def find(app, name: str | None) -> Any:
    """The command group of game ``name``, added to ``app``; every game's with ``name`` None."""
    if name is None:
        add_games(app)
        return None
    return add_game(app, name)


def register(app) -> None:
    """Mark where the games' command groups go; the command line adds them when a call needs them."""

    _AT[:] = [len(app.registered_groups)]
    add_late(find)
