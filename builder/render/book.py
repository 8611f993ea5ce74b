"""The organiser's book: every list of an event in one PDF.

``daimyo print lists/*.yaml --book -o event.pdf`` prints a contents page (each player's
file, system, list name, total, ``daimyo check`` verdict and page), then each list from a
new page: the verdict and findings, the list as forum text, its share code with the QR
code of it (scan it to import the list) and its **fingerprint**
(``builder.share.fingerprint``, docs/fingerprint.md): the canonical list and the content
hashes of the packs it is checked with. Two lists with the same content have the same
fingerprint whatever their layout or comments; change one card, one model, one option, or a
card's value in a pack the list uses, and the fingerprint changes, so a list cannot be altered
unnoticed after it was handed in (every face shows the same value: ``daimyo check --format
csv`` for the organiser's spreadsheet, the event's pages and export, ``daimyo show``).

This module holds what the book says of each list, and the spreadsheet; the PDF is drawn by
:mod:`builder.render.bookpdf`, so that ``check --format csv`` loads no printing library.
"""

from __future__ import annotations

import io
from pathlib import Path

from builder.check import check_doc
from builder.findings import Summary
from builder.i18n import _, ngettext
from builder.safeout import CsvRows, spreadsheet_cell
from builder.share.code import share_code_of
from builder.share.fingerprint import fingerprint_of_result
from builder.systems import get


def short_hash(value) -> str:
    """A pack's content hash as the book prints it: the first 12 hex digits, without a
    ``sha256:`` prefix (the same pack gives the same digits from any source)."""
    return str(value or "").split(":", 1)[-1][:12]


def pack_info(doc) -> list[dict]:
    """The packs a list is checked with, as the book names them: {name, version, hash} (the
    first 12 hex digits of the SHA-256 of the pack's content), in the list's order."""
    return [
        {"name": p["name"], "version": str(p.get("version") or ""), "hash": short_hash(p.get("hash"))}
        for p in check_doc(doc).packs
    ]


def total_of(system: str, summary: Summary | None) -> str:
    """What a list adds up to, as an organiser reads it (its ``GameSystem.total``)."""
    return get(system).printing.total(summary or {})


def score_name_of(system: str) -> str:
    """What one game's own score is called (victory points, casualties inflicted, a score), in
    the current language: an event's result forms and pairings sheets."""
    return _(get(system).printing.score_name)


def verdict_of(result) -> str:
    if result is None:
        return ""
    counts = result.counts()
    errs, warns = counts.get("error", 0), counts.get("warning", 0)
    head = "legal" if result.legal else "ILLEGAL"
    bits = []
    if errs:
        bits.append(f"{errs} error{'s' * (errs != 1)}")
    if warns:
        bits.append(f"{warns} warning{'s' * (warns != 1)}")
    return head + (f" ({', '.join(bits)})" if bits else "")


def printed_verdict(result) -> str:
    """``verdict_of`` as a page prints it, in the current language (the CSV keeps the English)."""
    if result is None:
        return ""
    counts = result.counts()
    errs, warns = counts.get("error", 0), counts.get("warning", 0)
    head = _("legal") if result.legal else _("ILLEGAL")
    bits = []
    if errs:
        bits.append(ngettext("{n} error", "{n} errors", errs).format(n=errs))
    if warns:
        bits.append(ngettext("{n} warning", "{n} warnings", warns).format(n=warns))
    return head + (f" ({', '.join(bits)})" if bits else "")


def results_csv(results, read) -> str:
    """``daimyo check --format csv``: one row per list for an organiser's spreadsheet: file,
    system, name, legal, verdict, errors, warnings, total, fingerprint (as printed in the
    organiser's book) and share code, both taken of ``read`` (each list's data as it was read
    for its check: a file is read once, and a list from standard input has both too)."""
    out = io.StringIO()
    w = CsvRows(out)
    w.writerow(
        ["file", "system", "name", "legal", "verdict", "errors", "warnings", "total", "fingerprint", "share_code"]
    )
    for r, data in zip(results, read, strict=True):
        counts = r.counts()
        fp = fingerprint_of_result(r, data)
        code = share_code_of(data) or ""
        w.writerow(
            [
                spreadsheet_cell(v)
                for v in (
                    Path(r.file).name,
                    r.system,
                    r.name or "",
                    "yes" if r.legal else "no",
                    verdict_of(r),
                    counts.get("error", 0),
                    counts.get("warning", 0),
                    total_of(r.system, r.summary),
                    fp,
                    code,
                )
            ]
        )
    return out.getvalue()
