"""``daimyo check`` as the command line runs it: check the files, print the results, give the
exit code. ``builder.cli.run_check`` imports this module by name when a list is checked, so
``daimyo --version`` and ``daimyo --help`` load no check."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from builder import i18n
from builder.check import check_doc, use_color, write_result
from builder.cli import echo, error_lines
from builder.errors import EXIT_ILLEGAL, EXIT_INPUT, EXIT_OK, DaimyoError, unknown_format
from builder.lists.document import load_list
from builder.safeout import json_text
from builder.share.fingerprint import fingerprint_of_result

if TYPE_CHECKING:
    from builder.findings import CheckResult
    from builder.lists.collection import Collection


def run_check(
    files: list[str],
    format: str,
    pack: list[str],
    strict: bool,
    explain: bool,
    no_color: bool,
    collection: bool = False,
) -> int:
    """``daimyo check``: check ``files``, print the results, and give the exit code (0 legal,
    1 illegal or, with ``strict``, warned, 2 unreadable input). Both routes to the command (the
    typer app and the quick route of ``main``) run it. ``collection``: a note for each entry used
    beyond what the collection holds (the exit code stays the rules')."""
    if format not in ("text", "json", "csv"):
        echo(
            i18n._("daimyo: error: {message}").format(message=unknown_format(format, ("text", "json", "csv"))), err=True
        )
        return EXIT_INPUT
    try:
        owned = _collection() if collection else None
    except DaimyoError as exc:
        return _failed(exc)
    results, read, bad = [], [], False
    for f in files:
        try:
            doc = load_list(f)
            res = check_doc(doc, pack)
            if owned is not None:
                owned.add_notes(res, doc)
        except DaimyoError as exc:
            bad = _failed(exc) == EXIT_INPUT
            continue
        results.append(res)
        read.append(doc.data)  # the fingerprint is taken of the list as read for its check
        if format == "text":
            _write_text_result(res, f, pack, explain, no_color)
    _write_results(results, read, format)
    if bad:
        return EXIT_INPUT
    if any(not r.legal for r in results) or (strict and any(r.has_warnings() for r in results)):
        return EXIT_ILLEGAL
    return EXIT_OK


def _write_results(results: list[CheckResult], read: list[dict[str, Any]], format: str) -> None:
    """``check``'s JSON or CSV answer for every list checked (the text is written list by list)."""
    if format == "json":
        rows = [dict(r.to_json(), fingerprint=fingerprint_of_result(r, d)) for r, d in zip(results, read, strict=True)]
        echo(json_text(rows, indent=2))
    if format == "csv":
        from builder.render.book import results_csv  # noqa: PLC0415 - the book's CSV writer (and what it loads) only for check's CSV

        echo(results_csv(results, read).rstrip("\n"))


def _failed(exc: DaimyoError) -> int:
    """Print ``exc``'s lines on standard error; the exit code of unreadable input."""
    for line in error_lines(exc):
        echo(line, err=True)
    return EXIT_INPUT


def _collection() -> Collection:
    """The player's collection (``check --collection``), read once for every list checked."""
    from builder.lists import collection  # noqa: PLC0415 - the collection (ruamel.yaml) only for `check --collection`

    return collection.read_collection()


def _write_text_result(res, file: str, packs: list[str], explain: bool, no_color: bool) -> None:
    """``check``'s text answer for one list: its result and, with ``explain``, its limits."""

    write_result(res, explain, sys.stdout, use_color(sys.stdout, no_color))
    if explain:
        from builder.analytics.stats import limit_lines  # noqa: PLC0415 - the limits only for `check --explain`

        for line in limit_lines(file, packs):
            echo(line)
