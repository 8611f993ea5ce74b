"""Export and import of lists in every share format; the library behind
``daimyo export``, ``daimyo import`` and ``daimyo show``.

Formats: ``text`` (forum/chat lines), ``markdown``, ``json``, ``yaml`` (exactly
what ``daimyo new``/``add`` write) and ``code`` (one-line share code). Every
format reads back to the same canonical list (``builder.share.canonical``).
"""

from __future__ import annotations

import copy
import json
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from builder import yamlio
from builder.catalog.packfiles import PACK_SUFFIXES, is_name, resolve_recorded
from builder.check import check_doc
from builder.errors import CatalogError, DaimyoError, Diagnostic, ListError, UsageError, option
from builder.i18n import L_, _
from builder.limits import MAX_FILE_BYTES, long_integer_problem
from builder.lists.document import parse_list, parse_plain
from builder.lists.dump import dump_list_yaml
from builder.lists.packchanges import checked_with
from builder.names import did_you_mean
from builder.packs.bundle import (
    compare_packs,
    dump_bundle,
    install_bundle_packs,
    is_bundle_text,
    make_bundle,
    read_bundle,
)
from builder.paths import is_file
from builder.safeout import json_text
from builder.share.canonical import Resolver, canonical
from builder.share.code import decode, encode, looks_like_code
from builder.share.link import code_in, looks_like_link
from builder.share.link import link_of as link_of  # re-exported: builder.export(to="link")
from builder.share.link import viewer_base as viewer_base
from builder.share.markdown import looks_like_markdown, render_markdown, strip_markdown
from builder.share.notes import Note
from builder.share.text import parse_text, render_text
from builder.yamlio import Positions, read_text
from builder.yamlpos import too_deep, too_deep_diag

FORMATS = ("text", "markdown", "json", "yaml", "code")
# formats a list is pasted or sent in: their packs are names, looked up in the packs folders only
# (never a path, which would be a file of the sender's machine or anywhere on this one)
NAMES_ONLY = ("code", "text", "markdown")


def pack_name(ref: str) -> str:
    """The name a pack reference stands for: the reference itself when it is a name, else its
    file name without ``.yaml``/``.yml``/``.json`` (``/home/x/packs/my-cards.yaml`` -> ``my-cards``)."""
    if is_name(ref):
        return ref
    name = Path(ref.replace("\\", "/")).name
    for suffix in PACK_SUFFIXES:
        if name.lower().endswith(suffix):
            return name[: -len(suffix)] or name
    return name


def packs_by_name(doc: dict) -> dict:
    """``doc`` with its ``packs`` (and the ``pack`` of each ``checked_with`` record) as names."""
    packs = doc.get("packs")
    if not isinstance(packs, list) or not packs:
        return doc
    out = {**doc, "packs": list(dict.fromkeys(pack_name(p) if isinstance(p, str) else p for p in packs))}
    if isinstance(doc.get("checked_with"), list):
        out["checked_with"] = [
            {**e, "pack": pack_name(e["pack"])} if isinstance(e, dict) and isinstance(e.get("pack"), str) else e
            for e in doc["checked_with"]
        ]
    return out


@dataclass
class Imported:
    doc: dict
    format: str
    file: str
    base_dir: Path
    notes: list[Note] = field(default_factory=list)
    raw: str | None = None  # the document's own text (YAML/JSON), for positions in messages
    received: bool = False  # pasted or piped in (standard input): its packs are found by name only
    parsed: tuple | None = field(default=None, repr=False)  # (data, positions) of ``raw`` when already read

    def warnings(self) -> list[str]:
        return [
            Diagnostic(self.file, n.line, n.col, n.message, severity=n.severity, hint=n.hint).format()
            for n in self.notes
        ]


# -- detection and reading ------------------------------------------------------------------

_YAML_SYSTEM = re.compile(r"^[\"']?system[\"']?\s*:", re.M)


def detect_format(text: str) -> str:
    """code, json, yaml, markdown or text."""
    body = text.lstrip("\ufeff").strip()
    if looks_like_code(body) or _code_in_envelope(body) or code_in(body):
        return "code"
    if body.startswith("{") or body.startswith("["):
        return "json"
    if _YAML_SYSTEM.search(body):
        return "yaml"
    if looks_like_markdown(body):
        return "markdown"
    return "text"


def _code_in_envelope(body: str) -> str | None:
    """The code of a text whose only content line (comments aside) is a share code."""
    lines = [ln.strip() for ln in body.splitlines() if ln.strip() and not ln.strip().startswith(("#", "//"))]
    if len(lines) == 1 and looks_like_code(lines[0]):
        return lines[0]
    return None


def _code_of_link(text: str) -> str:
    """The share code of a link to a list; UsageError for an address that is no such link."""
    code = code_in(text)
    if code is None:
        raise UsageError(
            _("'{url}' is not a link to a list (a link ends in /v/ and a share code)").format(url=text.strip()),
            _("copy the whole link, or give the share code (DMY1-...)"),
        )
    return code


def parse_source_text(
    text: str, file: str = "<text>", system: str | None = None, base_dir: Path | None = None
) -> Imported:
    """Read a list from text in any share format."""
    base = base_dir if base_dir is not None else Path(".")
    if looks_like_link(text.lstrip("\ufeff")):
        _code_of_link(text.lstrip("\ufeff"))  # an address that is no link to a list is said so
    fmt = detect_format(text)
    if fmt == "code":
        body = text.strip()
        code = code_in(body) or _code_in_envelope(body) or body
        doc = decode(code, where=file)
        if system and doc["system"] != system:
            raise UsageError(L_("the code holds a {system} list, not {system2}", system=doc["system"], system2=system))
        return Imported(canonical(doc, file=file), "code", file, base)
    if fmt in ("json", "yaml"):
        read: list = []
        doc = _parse_document(text, file, fmt, system, read)
        # the check reads the same text: it is given what was read (canonical copies, never shares)
        return Imported(doc, fmt, file, base, raw=text, parsed=read[0] if read else None)
    if fmt == "markdown":
        text = strip_markdown(text)
    doc, notes = parse_text(text, file, system=system)
    return Imported(doc, fmt, file, base, notes)


def _parse_document(text: str, file: str, fmt: str, system: str | None, read: list | None = None) -> dict:
    """The canonical document of a YAML or JSON text (``read`` receives the (data, positions)
    that ``parse_list`` gives for the same text, so that the check does not read it again)."""
    if fmt == "json":
        if too_deep(text):  # json.loads would run out of recursion
            raise ListError(too_deep_diag(file))

        def parse_int(digits: str):
            why = long_integer_problem(digits)
            if why:  # refused before Python converts thousands of digits
                at = text.find(digits)
                line = text.count("\n", 0, at) + 1
                raise ListError(Diagnostic(file, line, at - (text.rfind("\n", 0, at) + 1) + 1, why))
            return int(digits)

        try:
            data = json.loads(text, parse_int=parse_int)
        except json.JSONDecodeError as exc:
            raise ListError(Diagnostic(file, exc.lineno, exc.colno, L_("JSON syntax: {msg}", msg=exc.msg))) from None
        try:  # positions for the shape messages (JSON is YAML)
            as_yaml, pos = yamlio.parse_yaml(text, file)
            if read is not None:
                read.append((as_yaml, pos))
        except DaimyoError as exc:
            if any(d.message.startswith("number out of range") for d in exc.diagnostics):
                raise ListError(exc.diagnostics) from None
            pos = None
    else:
        parsed = parse_plain(text, file)  # the reader check uses: same values, many times faster
        if parsed is None:
            try:
                parsed = yamlio.parse_yaml(text, file)
            except DaimyoError as exc:
                raise ListError(exc.diagnostics) from None
        data, pos = parsed
        if read is not None:
            read.append(parsed)
    if not isinstance(data, dict):
        raise ListError(Diagnostic(file, 1, 1, L_("a list document must be a mapping of keys such as 'system:'")))
    if system and isinstance(data.get("system"), str) and data["system"].strip().lower() != system:
        raise UsageError(L_("the document is a {system} list, not {system2}", system=data["system"], system2=system))
    if "system" not in data:
        if system:
            data = {"system": system, **data}
        else:
            raise ListError(
                Diagnostic(
                    file,
                    1,
                    1,
                    L_("missing required key 'system'"),
                    hint=L_(
                        "one of senshiai, kensei, herocard, senji, satsuma (or pass {option})", option=option("system")
                    ),
                )
            )
    return canonical(data, positions=pos, file=file)


def read_source(source: str, system: str | None = None, stdin=None) -> Imported:
    """SOURCE of ``daimyo import``/``show``: ``-`` (stdin), a file, or a share code."""
    if source == "-":
        stream = stdin if stdin is not None else sys.stdin
        imp = parse_source_text(_read_stream(stream), "<stdin>", system, Path("."))
        imp.received = True
        return imp
    p = Path(source)
    try:
        exists = os.path.lexists(p)  # a device or a pipe too: read_text refuses it in one line
    except (OSError, ValueError):  # a long code or text is no path
        exists = False
    if exists:
        text = read_text(p)
        return parse_source_text(text, str(source), system, p.parent)
    if looks_like_link(source):
        source = _code_of_link(source)
    if looks_like_code(source) or re.match(r"^\s*DMY", source):
        doc = decode(source, where="<code>")
        if system and doc["system"] != system:
            raise UsageError(L_("the code holds a {system} list, not {system2}", system=doc["system"], system2=system))
        return Imported(canonical(doc, file="<code>"), "code", "<code>", Path("."))
    raise DaimyoError(
        Diagnostic(
            str(source),
            0,
            0,
            L_("file not found"),
            hint=L_("give a list file, a share code (DMY1-...), a link to a list or - for standard input"),
        )
    )


def _read_stream(stream) -> str:
    """Standard input, at most as large as a list file may be (MAX_FILE_BYTES): a pipe that
    never ends (``yes |``, ``< /dev/zero``) is refused after that many bytes, not read on."""
    raw = getattr(stream, "buffer", None)
    data = raw.read(MAX_FILE_BYTES + 1) if raw is not None else stream.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise DaimyoError(
            Diagnostic(
                "<stdin>",
                0,
                0,
                L_("standard input too large: over {MAX_FILE_BYTES:,} bytes", MAX_FILE_BYTES=MAX_FILE_BYTES),
                hint=L_("split it into smaller lists"),
            )
        )
    if isinstance(data, bytes):
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            before = data[: exc.start]
            line = before.count(b"\n") + 1
            col = len(before[before.rfind(b"\n") + 1 :].decode("utf-8", "replace")) + 1
            raise DaimyoError(
                Diagnostic("<stdin>", line, col, L_("not UTF-8 text"), hint=L_("send the text as UTF-8"))
            ) from None
    return data


# -- exporting -----------------------------------------------------------------------------


def check_imported(imp: Imported, extra_packs=()):
    """The check result of an imported list (packs relative to where it came from).

    A YAML or JSON document is checked as written, so messages point at its lines.
    """
    rewritten = imp.raw is None
    text = imp.raw  # None: a code or a pasted text, checked as data
    data = imp.doc
    # a share code or a pasted list names packs only: it never reaches files outside the packs folders
    names_only = imp.format in NAMES_ONLY or imp.received
    if imp.doc.get("packs") and (imp.raw is None or names_only):
        found = {
            pk: resolve_recorded(pk, imp.doc, imp.base_dir, imp.doc.get("system"), names_only=names_only)
            for pk in imp.doc["packs"]
        }
        missing = [pk for pk, path in found.items() if path is None]
        if missing or names_only:  # a received code or text: check without the sender's packs, and say so
            recorded = {e.get("pack"): e for e in imp.doc.get("checked_with") or [] if isinstance(e, dict)}
            for pk in missing:
                rec = recorded.get(pk, {})
                label = f"'{rec.get('name') or pk}'" + (f" version {rec['version']}" if rec.get("version") else "")
                imp.notes.append(
                    Note(
                        0,
                        0,
                        f"pack {label} is missing here; checked without it, so the names it "
                        "adds count as unknown (a bundle carries the pack: "
                        "'daimyo export LIST --to bundle' on the sender's side)",
                    )
                )
            kept = [str(path) for pk, path in found.items() if path is not None]
            data = {k: v for k, v in imp.doc.items() if k != "packs"}
            if kept:
                data = {**data, "packs": kept}
            text = None
            rewritten = True
    if text is None:  # no text of its own: checked as data (no YAML written and read back: linear, fast)
        doc = parse_list("", imp.file, base_dir=imp.base_dir, parsed=(copy.deepcopy(data), Positions(imp.file)))
    else:
        doc = parse_list(text, imp.file, base_dir=imp.base_dir, parsed=None if rewritten else imp.parsed)
    res = check_doc(doc, list(extra_packs))
    if rewritten:  # line numbers of a re-written document would point nowhere
        for f in res.findings:
            f.line = f.col = None
    return res


def validate(imp: Imported):
    """The check result, or None when the catalog or a pack cannot be loaded; ListError
    when the system's list loader cannot read the document (wrong shapes or types)."""
    try:
        return check_imported(imp)
    except ListError as exc:
        if all(d.message.startswith("pack file ") for d in exc.diagnostics):
            return None  # packs missing here (e.g. a received code): sharing still works
        raise
    except (CatalogError, DaimyoError):
        return None
    except Exception:  # a rules module in the making must not stop sharing
        return None


def summary_of(imp: Imported) -> dict | None:
    try:
        return check_imported(imp).summary
    except Exception:  # no summary is fine: the header then omits the totals
        return None


def export_doc(doc: dict, fmt: str, summary: dict | None = None) -> str:
    """A canonical document in one share format (text ends with a newline, a code does not)."""
    if fmt not in FORMATS:
        raise UsageError(
            L_("unknown format '{fmt}'", fmt=fmt),
            did_you_mean(fmt, FORMATS) or L_("one of {values}", values=", ".join(FORMATS)),
        )
    doc = canonical(doc)
    r = Resolver.of(doc["system"])
    if fmt == "yaml":
        return dump_list_yaml(doc)
    if fmt == "json":
        return json_text(doc, indent=2) + "\n"
    if fmt == "code":
        return encode(doc, r)
    if fmt == "markdown":
        return _reads_back(doc, render_markdown(doc, r, summary), fmt)

    return _reads_back(doc, render_text(doc, r, summary), fmt)


def _unstated(doc: dict) -> dict:
    """The document without what a text leaves unsaid because it is the default (occult powers unused)."""
    return {k: v for k, v in doc.items() if not (k == "occult" and v is False)}


def _reads_back(doc: dict, text: str, fmt: str) -> str:
    """``text`` if it imports back to exactly ``doc``; otherwise refuse the export, naming what
    would change, rather than share a list that reads back as another one."""
    try:  # read as import reads it: the format detected, then the text or Markdown reader
        imp = parse_source_text(text, "<export>", doc["system"])
        back = imp.doc if imp.format == fmt else None
    except Exception:  # any failure to read it back is a failure to represent it
        back = None
    if back is not None and _unstated(back) == _unstated(doc):
        return text
    changed = [k for k in dict.fromkeys([*doc, *(back or {})]) if back is None or doc.get(k) != back.get(k)]
    what = ", ".join(f"'{k}'" for k in changed[:3]) or "the list"
    raise UsageError(
        L_(
            "this list cannot be written as {fmt} so that it reads back the same ({what} would change)",
            fmt=fmt,
            what=what,
        ),
        L_("export it as YAML or JSON ({option} yaml), or as a share code ({option} code)", option=option("to")),
    )


# -- the export and import commands as library calls --------------------------------------------


def export_source(source: str, to: str, system: str | None = None, on_read=None) -> str:
    """``source`` (a list file, share code, text or ``-``) written as ``to``: a share format or
    ``bundle`` (the list with its packs). The packs the list is checked with are recorded for the
    receiver. ``on_read(imported)`` is told what was read (its warnings) before anything else."""
    choices = FORMATS + ("bundle",)
    if to not in choices:
        named = ", ".join(choices + ("link", "html", "tts"))
        if to.lower() in ("pdf", "print", "cards", "png"):
            raise UsageError(
                L_("export does not write '{to}': it writes {named}", to=to, named=named),
                L_("print cards, sheets and rosters as a PDF with 'daimyo print LIST'"),
            )
        raise UsageError(
            L_("unknown format '{to}'", to=to),
            did_you_mean(to, choices + ("link", "html", "tts")) or L_("one of {named}", named=named),
        )
    imp = read_source(source, system)
    if on_read is not None:
        on_read(imp)
    if to == "bundle":
        return dump_bundle(make_bundle(imp.doc, imp.base_dir))
    found = {e["pack"]: e for e in checked_with(imp.doc, imp.base_dir)}
    if found or imp.doc.get("checked_with"):  # the packs it is checked with, for the receiver
        kept = [e for e in imp.doc.get("checked_with") or [] if e.get("pack") not in found]
        imp.doc["checked_with"] = kept + list(found.values())
    res = validate(imp)
    text = export_doc(imp.doc, to, res.summary if res is not None else None)
    return text + "\n" if to == "code" else text


def _read_bundle(source: str):
    if source == "-" or not is_file(source):
        return None
    try:
        with open(source, "rb") as fh:
            head = fh.read(4096).decode("utf-8", "replace")
    except OSError:
        return None
    if not is_bundle_text(head):
        return None
    return read_bundle(source)


def import_source(
    source: str,
    system: str | None = None,
    install_packs: bool = False,
    force_packs: bool = False,
    note=lambda line: None,
) -> tuple[str, Imported]:
    """A shared list (any format, a share code or a bundle) as list YAML, and what was read.
    ``note(line)`` is told the packs a bundle carries (or installs, with ``install_packs``), the
    warnings of the import and how the list's packs compare with the local ones."""
    bundle = _read_bundle(source)
    if bundle is not None:
        lst, packs, _, art = bundle
        imp = Imported(canonical(lst, file=source), "bundle", source, Path(source).parent)
        if install_packs:
            for line in install_bundle_packs(packs, force=force_packs, where=source, art=art):
                note(line)
        else:
            for p in packs:
                v = f" version {p['version']}" if p.get("version") is not None else ""
                note(
                    f"{source}: carries pack '{p.get('name') or p.get('pack')}'{v} ({p['system']}); "
                    "install it with --install-packs"
                )
    else:
        imp = read_source(source, system)
        if imp.format in NAMES_ONLY or imp.received:
            imp.doc = packs_by_name(imp.doc)
        if install_packs:  # the packs it names, from the configured registries
            from builder.packs.installer import install_recorded  # noqa: PLC0415 - the pack installer only when a recorded pack is missing

            for line in install_recorded(
                imp.doc, imp.base_dir, names_only=imp.format in NAMES_ONLY or imp.received, force=force_packs
            ):
                note(line)
    for line in imp.warnings():
        note(line)
    if bundle is None or install_packs:
        for line in compare_packs(imp.doc, imp.base_dir, names_only=imp.format in NAMES_ONLY or imp.received):
            note(f"{source if imp.format != 'code' else '<code>'}: note: {line}")
    return dump_list_yaml(imp.doc), imp
