"""A submitted list: read in any share format, checked, measured against the event's settings.

A submission is text (a share code, forum text, Markdown, JSON or YAML) or the bytes of an
uploaded file (any of those, or a ``.zip`` of a daimyo workspace, where the player names the
list to hand in). It is read as a received list: the packs it names are found by name in the
packs folders only, never as paths on the server.
"""

from __future__ import annotations

import importlib
import io
import json
import zipfile
from dataclasses import dataclass

from builder.catalog.loader import load_catalog
from builder.errors import DaimyoError, UsageError, option, show_options
from builder.event.seal import canonical_json
from builder.findings import event_setting
from builder.render.book import total_of, verdict_of
from builder.share.api import check_imported, parse_source_text
from builder.share.canonical import Resolver, canonical
from builder.share.fingerprint import fingerprint, pack_hashes
from builder.systems import get

MAX_SUBMISSION_BYTES = 256 * 1024  # a list is a few kilobytes; a workspace zip a few dozen
MAX_ZIP_MEMBERS = 500
MAX_ZIP_MEMBER_BYTES = 256 * 1024
MAX_ZIP_LIST_BYTES = 1024 * 1024  # the list files of a zip, unpacked, all told: what is read
MAX_ZIP_PARSED_BYTES = 256 * 1024  # of those, the ones that may be lists of the event's game: what is parsed
MAX_ZIP_RATIO = 100  # unpacked to packed, for a member over a few kilobytes: a list packs to about a fifth


class EventRefused(UsageError):
    """An action the event refuses; ``status`` is the HTTP status a server answers with."""

    def __init__(self, message: str, hint: str | None = None, status: int = 400):
        super().__init__(message, hint)
        self.status = status
        self.message, self.hint = message, hint
        self.choices: list[str] = []  # the lists of a zip to pick from
        self.details: list[str] = []  # one line per problem of the list

    def text(self) -> str:
        """The refusal as a page or the JSON API says it: the command line's own hints left out."""
        message, hint = show_options(str(self.message)), show_options(str(self.hint or ""))
        return message + (f" ({hint})" if hint else "")


@dataclass
class Checked:
    """A list read and checked: what a submission stores."""

    system: str
    format: str
    list_text: str
    canonical: str
    packs: list[str]
    legal: bool
    verdict: str
    total: str
    findings: list[dict]
    fingerprint: str


def setting_key(system: str, key: str) -> str:
    """The list key an event setting names (``points`` is the game's own points key)."""
    game = get(system)
    if key == "points":
        for k in ("points", "max_hero_points"):
            if k in game.new_list.options:
                return k
        raise UsageError(
            f"{game.title} lists have no points to set",
            f"give the game's settings with {option('setting')} KEY=VALUE: " + ", ".join(sorted(game.new_list.options)),
        )
    if key not in game.new_list.options:
        raise UsageError(
            f"'{key}' is not a setting of {game.title} lists",
            "one of " + ", ".join(sorted(game.new_list.options)) if game.new_list.options else "it has none",
        )
    return key


def setting_value(text: str):
    """A setting as written on the command line: a whole number, true/false or text."""
    t = text.strip()
    if t.lstrip("-").isdigit() and len(t) < 16:
        return int(t)
    if t.lower() in ("true", "false", "yes", "no"):
        return t.lower() in ("true", "yes")
    return t


def decode(data: bytes, where: str) -> str:
    if len(data) > MAX_SUBMISSION_BYTES:
        raise EventRefused(
            f"{where}: too large: {len(data):,} bytes, at most {MAX_SUBMISSION_BYTES:,}",
            "hand in one list, not a collection",
            status=413,
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        raise EventRefused(
            f"{where}:{line}: not UTF-8 text", "save the list as UTF-8, or paste its share code", status=422
        ) from None


def zip_lists(data: bytes, system: str) -> dict[str, str]:
    """The list files of ``system`` in a workspace zip, by their path inside it. The work is
    bounded whatever the zip: at most ``MAX_ZIP_MEMBERS`` members, list files of at most
    ``MAX_ZIP_MEMBER_BYTES`` each and ``MAX_ZIP_LIST_BYTES`` in all (as unpacked, counted while
    unpacking, not as the zip says), none packed more than ``MAX_ZIP_RATIO`` to 1; and of those
    only the ones naming the game (or holding a share code) are parsed, ``MAX_ZIP_PARSED_BYTES``
    in all."""
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        members = [m for m in zf.infolist() if not m.is_dir()]
    except (zipfile.BadZipFile, ValueError, OSError, EOFError, NotImplementedError):
        raise EventRefused(
            "the upload is not a readable zip file", "upload a list file or a workspace zip", status=422
        ) from None
    if len(members) > MAX_ZIP_MEMBERS:
        raise EventRefused(f"the zip holds {len(members)} files, at most {MAX_ZIP_MEMBERS}", status=413)
    out = {}
    budget, parse_budget = MAX_ZIP_LIST_BYTES, MAX_ZIP_PARSED_BYTES
    for m in members:
        name = m.filename
        if not name.lower().endswith((".yaml", ".yml", ".json", ".txt", ".md")) or "/packs/" in f"/{name}":
            continue
        if m.file_size > MAX_ZIP_MEMBER_BYTES:
            continue
        if m.file_size > 4096 and m.file_size > MAX_ZIP_RATIO * max(1, m.compress_size):
            raise EventRefused(
                f"{name}: packed {m.file_size // max(1, m.compress_size):,} to 1, more than a list ever is "
                f"(at most {MAX_ZIP_RATIO} to 1)",
                "upload the list file itself",
                status=413,
            )
        try:
            with zf.open(m) as fh:
                raw = fh.read(min(MAX_ZIP_MEMBER_BYTES, budget) + 1)
        except (zipfile.BadZipFile, ValueError, OSError, EOFError, NotImplementedError, RuntimeError):
            raise EventRefused(
                f"{name}: cannot be unpacked from the zip", "upload the list file itself", status=422
            ) from None
        if len(raw) > budget:
            raise EventRefused(
                f"the list files of the zip unpack to over {MAX_ZIP_LIST_BYTES:,} bytes",
                "upload the list file itself, or a zip of the workspace's lists alone",
                status=413,
            )
        budget -= len(raw)
        if len(raw) > MAX_ZIP_MEMBER_BYTES:  # larger than the zip said
            continue
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            continue
        if system not in text.lower() and not text.lstrip().startswith("DMY"):
            continue  # a list file names its game (FORMATS.md: 'system' is required); a share code is read
        if len(raw) > parse_budget:
            raise EventRefused(
                f"the zip's {system} lists add up to over {MAX_ZIP_PARSED_BYTES:,} bytes",
                "upload the list file itself, or a zip of the workspace's lists alone",
                status=413,
            )
        parse_budget -= len(raw)
        try:
            if parse_source_text(text, name, None).doc.get("system") == system:
                out[name] = text
        except Exception:
            continue
    return out


def read_upload(data: bytes, filename: str, system: str, pick: str | None = None) -> str:
    """The list text of an uploaded file; a workspace zip gives the list named by ``pick`` (or its
    only list of the event's game)."""
    if data[:4] == b"PK\x03\x04":
        found = zip_lists(data, system)
        if pick:
            if pick not in found:
                raise EventRefused(
                    f"'{pick}' is not a {system} list of the zip",
                    "pick one of: " + ", ".join(sorted(found)) if found else "it holds none",
                    status=422,
                )
            return found[pick]
        if len(found) == 1:
            return next(iter(found.values()))
        if not found:
            raise EventRefused(f"the zip holds no {system} list", status=422)
        err = EventRefused(
            f"the zip holds {len(found)} {system} lists; pick the one to hand in",
            "pick one of: " + ", ".join(sorted(found)),
            status=422,
        )
        err.choices = sorted(found)
        raise err
    return decode(data, filename or "upload")


def check_submission(text: str, system: str, settings: dict, where: str = "list") -> Checked:
    """Read and check a submitted list; EventRefused (422) when it cannot be read as a list of
    the event's game, with each problem as ``WHERE:LINE:COL: what (how to fix it)``."""
    if not text.strip():
        raise EventRefused("the list is empty", "paste a share code or a list, or upload a file", status=422)
    if len(text.encode("utf-8")) > MAX_SUBMISSION_BYTES:
        raise EventRefused(f"the list is too large: over {MAX_SUBMISSION_BYTES:,} bytes", status=413)
    try:
        try:
            imp = parse_source_text(text, where, None)
        except DaimyoError:  # a plain card list names no game: read as one of the event's
            imp = parse_source_text(text, where, system)
        if imp.doc.get("system") != system:
            raise EventRefused(f"this event takes {system} lists, not {imp.doc.get('system')}", status=422)
        imp.received = True  # packs by name only: a submission never reaches files on the server
        res = check_imported(imp)
        canon = canonical(dict(imp.doc))
    except EventRefused:
        raise
    except DaimyoError as exc:
        lines = [d.format() for d in exc.diagnostics]
        err = EventRefused(
            "; ".join(lines[:5]) + (f" (and {len(lines) - 5} more)" if len(lines) > 5 else ""), status=422
        )
        err.details = lines
        raise err from None
    for key, want in sorted(settings.items()):
        got = canon.get(key)
        if got != want:
            res.findings.insert(
                0,
                event_setting(key, want, got),
            )
    return Checked(
        system=system,
        format=imp.format,
        list_text=json.dumps(canon, indent=2, ensure_ascii=False) + "\n",
        canonical=canonical_json(canon),
        packs=pack_hashes(res.packs),  # in the order they are applied, as the fingerprint takes them
        legal=res.legal,
        verdict=verdict_of(res),
        total=total_of(system, res.summary),
        findings=[{"severity": f.severity, "code": f.code, "message": f.message} for f in res.findings],
        fingerprint=fingerprint(canon, res.packs),
    )


def findings_json(findings: list[dict]) -> str:
    return json.dumps(findings, ensure_ascii=False)


#: Imported by ``warm_up``, before a server answers its first request. Its requests run in a pool
#: of threads, and two threads importing a package whose modules import each other in a circle at
#: the same moment can deadlock (ruamel.yaml's C reader and its Python modules do); imported once
#: up front, nothing is left for the threads to import at the same time.
REQUEST_MODULES = ("ruamel.yaml", "pydantic", "builder.check", "builder.share.api")


def warm_up(system: str) -> None:
    """Load the game's catalog, rules and names once, so a server's first list is checked as fast
    as the next ones, and the modules its request threads need (``REQUEST_MODULES``)."""
    for name in REQUEST_MODULES:
        importlib.import_module(name)

    load_catalog(system)
    get(system).rules  # noqa: B018 - imported now, not at the first list
    Resolver.of(system)
