"""The ``daimyo`` command: parse arguments, call the library, print, set the exit code.

``main`` runs the typer app of ``builder.commands.app`` (its commands live in small modules
under ``builder/commands/``), except for the most common call: ``daimyo check FILE...`` with
check's own options, which a small parser here reads without importing typer, and runs with the
same function the typer command runs. This module holds what every command prints with
(``echo``, ``error_lines``, ``fail``) and imports nothing heavy.
"""

from __future__ import annotations

import errno
import importlib
import os
import sys
from types import ModuleType
from typing import TYPE_CHECKING

from builder import i18n
from builder.errors import DaimyoError, safe_terminal, unknown_format
from builder.systems import find_system
from builder.yamlio import begin_command

if TYPE_CHECKING:
    pass


def echo(text: str = "", err: bool = False) -> None:
    """Write one or more lines; control characters (from names and notes) are escaped."""

    stream = sys.stderr if err else sys.stdout
    stream.write(safe_terminal(text) + "\n")


def error_lines(exc: DaimyoError) -> list[str]:
    """What the command line prints for a library error: one line per problem, the options it
    names written as flags (``--force``) and command-line hints kept. Every command reports
    errors through here (``fail``), so a library error reads the same from every command."""
    return exc.lines(flags=True)


def _typer() -> ModuleType:
    """typer, imported when a command of the typer app fails or refuses an option."""
    import typer  # noqa: PLC0415 - typer only on the typer route; the quick route of `daimyo check` loads none

    return typer


def fail(exc: DaimyoError) -> None:
    """Print ``exc`` (``error_lines``) on standard error and end with its exit code."""
    for line in error_lines(exc):
        echo(line, err=True)
    raise _typer().Exit(exc.exit_code)


def formats(*names: str):
    """The callback of a ``--format`` option whose command writes ``names``: another format is
    refused as the command line is read, before the command reads or writes anything."""

    def check(value):
        if value is not None and value not in names:
            raise _typer().BadParameter(unknown_format(value, names))
        return value

    return check


def find_game(name: str):
    """The ``GameSystem`` a command line names (its id, name or an alias)."""

    return find_system(name.strip())


# -- check -------------------------------------------------------------------------


def run_check(
    files: list[str],
    format: str,
    pack: list[str],
    strict: bool,
    explain: bool,
    no_color: bool,
    collection: bool = False,
) -> int:
    """``daimyo check`` (``builder.clicheck.run_check``, imported by name when a list is checked,
    so ``daimyo --version`` loads no check): the exit code (0 legal, 1 illegal or, with ``strict``,
    warned, 2 unreadable input). Both routes to the command (the typer app and the quick route of
    ``main``) run it."""
    code: int = importlib.import_module("builder.clicheck").run_check(
        files, format, pack, strict, explain, no_color, collection
    )
    return code


#: check's options as the quick route knows them: the parameter each sets
_CHECK_OPTIONS = {
    "--format": "format",
    "-f": "format",
    "--pack": "pack",
    "-p": "pack",
    "--strict": "strict",
    "--explain": "explain",
    "--no-color": "no_color",
    "--collection": "collection",
}


def quick_check_args(
    args: list[str],
) -> tuple[list[str], str, list[str], bool, bool, bool, bool] | None:
    """The arguments of ``run_check`` when ``args`` are ``check`` and one or more files with check's
    own options only (``--format json``, ``--format=json``, ``-f json``, ``--pack P``..., ``--strict``,
    ``--explain``, ``--no-color``, ``--collection``); None for anything else (help, an unknown or odd option, a value
    that looks like an option, no file, shell completion, another command), which the typer app
    parses and answers as ever."""
    if not args or args[0] != "check" or any(k.startswith("_") and k.endswith("_COMPLETE") for k in os.environ):
        return None
    files: list[str] = []
    packs: list[str] = []
    fmt = "text"
    flags: set[str] = set()
    rest = iter(args[1:])
    for arg in rest:
        if not arg.startswith("-"):
            files.append(arg)
            continue
        name, eq, value = arg.partition("=")
        key = _CHECK_OPTIONS.get(name)
        takes_value = key in ("format", "pack")
        if key is None or (eq and not (takes_value and name.startswith("--"))):
            return None
        if not takes_value:
            flags.add(key)
            continue
        if not eq:
            given = next(rest, None)
            if given is None or given.startswith("-"):
                return None
            value = given
        if key == "format":
            fmt = value
        else:
            packs.append(value)
    if not files:
        return None
    return files, fmt, packs, "strict" in flags, "explain" in flags, "no_color" in flags, "collection" in flags


def _run_quick_check(
    files: list[str],
    format: str,
    pack: list[str],
    strict: bool,
    explain: bool,
    no_color: bool,
    collection: bool = False,
) -> int:
    """``run_check`` as the typer app runs it: each command reads its input afresh and releases the
    files it locked; an interruption ends with exit 130, a closed output pipe with exit 1. A
    DaimyoError escaping is printed by ``main``, as one escaping the typer app is."""

    begin_command()
    try:
        return run_check(files, format, pack, strict, explain, no_color, collection)
    except KeyboardInterrupt:
        return 130
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            raise
        sys.stdout, sys.stderr = _Pacified(sys.stdout), _Pacified(sys.stderr)
        return 1
    finally:
        begin_command(track=False)


class _Pacified:
    """A stream whose ``flush`` ignores a closed pipe (the reader went away): nothing more is said
    at exit about output that can no longer be delivered."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def flush(self) -> None:

        try:
            self._stream.flush()
        except OSError as exc:
            if exc.errno != errno.EPIPE:
                raise

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def take_language(args: list[str]) -> tuple[list[str], str | None]:
    """``args`` without the ``--lang TAG`` / ``--lang=TAG`` options (anywhere before ``--``), and
    the last tag given (``None`` for none): the language is chosen before any command runs."""
    out: list[str] = []
    lang: str | None = None
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            out.extend(args[i:])
            break
        if arg == "--lang" and i + 1 < len(args):
            lang = args[i + 1]
            i += 2
            continue
        if arg.startswith("--lang="):
            lang = arg.split("=", 1)[1]
            i += 1
            continue
        out.append(arg)
        i += 1
    return out, lang


def choose_language(lang: str | None) -> str:
    """Set the language of this run: ``--lang``, else ``DAIMYO_LANG``, ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG``; English for one with no catalog (a one-line note on standard error when it was asked
    for by ``--lang``)."""
    if lang is None:
        return i18n.set_language(i18n.language_from_env())
    chosen = i18n.set_language(lang)
    if i18n.normalize(lang) and chosen == i18n.SOURCE_LANGUAGE and i18n.normalize(lang).split("_")[0] != "en":
        echo(
            i18n._("daimyo: no translation for language '{lang}'; using English (available: {languages})").format(
                lang=lang, languages=", ".join(i18n.available())
            ),
            err=True,
        )
    return chosen


def main() -> None:
    try:
        args, lang = take_language(sys.argv[1:])
        sys.argv[1:] = args
        choose_language(lang)
        quick = quick_check_args(args)
        if quick is not None:
            sys.exit(_run_quick_check(*quick))
        # the typer app, by name: its modules import the helpers above
        importlib.import_module("builder.commands.app").app_for(args)()
    except DaimyoError as exc:  # raised outside a command's own handling
        for line in error_lines(exc):
            echo(line, err=True)
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        echo(i18n._("daimyo: interrupted"), err=True)
        sys.exit(130)
    except Exception as exc:  # a bug, not bad input: one line unless asked for the details
        if os.environ.get("DAIMYO_DEBUG"):
            raise
        where = ""
        tb = exc.__traceback__
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        if tb is not None:
            where = f" at {os.path.basename(tb.tb_frame.f_code.co_filename)}:{tb.tb_lineno}"
        echo(
            i18n._(
                "daimyo: internal error: {error}{where} (this is a bug in daimyo; run again with DAIMYO_DEBUG=1 "
                "for the details)"
            ).format(error=f"{type(exc).__name__}: {exc}", where=where),
            err=True,
        )
        sys.exit(70)


if __name__ == "__main__":  # pragma: no cover
    main()
