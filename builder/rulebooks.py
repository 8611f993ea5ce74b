"""The rulebooks the catalog cites, and the one way a source is shown to a user.

``catalog/rulebooks.yaml`` names every rulebook (title, edition, the text file a source
cites, a hash of that text) and its sections with their line ranges, so a source such as
``001_dbcd2f61c1014419.txt:5912-5914`` reads "Kensei rulebook, Army leaders (lines
5912-5914)". Nothing here needs the rulebook texts themselves.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
from dataclasses import dataclass

from builder import state
from builder.i18n import _, current_language, pgettext
from builder.paths import cache_dir, catalog_dir

# One reference: FILE:LINE or FILE:FIRST-LAST.
_REF = r"(?P<file>[0-9]{3}_[0-9a-f]{16}\.txt):(?P<a>[0-9]+)(?:\s*[-\u2013]\s*(?P<b>[0-9]+))?"
_ONE = r"[0-9]{3}_[0-9a-f]{16}\.txt:[0-9]+(?:\s*[-\u2013]\s*[0-9]+)?"


@state.memo("rulebooks.patterns", bound=None, lifetime=state.PROCESS, doc="compiled reference patterns, by name")
def _rx(name: str) -> re.Pattern:
    """The patterns, compiled when first needed (start-up stays fast)."""
    if name == "ref":
        return re.compile(_REF)
    if name == "run":  # a run of references joined by ", " or "; "
        return re.compile(rf"{_ONE}(?:\s*[,;]\s*{_ONE})*")
    return re.compile(r"\bL(?P<a>[0-9]{1,5})(?:-(?P<b>[0-9]{1,5}))?\b")  # the notes' L5960, L5898-5899


@dataclass(frozen=True)
class Section:
    title: str
    first: int
    last: int
    printed: bool = True


@dataclass(frozen=True)
class Rulebook:
    file: str
    system: str
    title: str
    edition: str
    sha256: str
    lines: int
    sections: tuple[Section, ...]

    def section_at(self, line: int) -> Section | None:
        for s in self.sections:
            if s.first <= line <= s.last:
                return s
        return None


@state.memo("rulebooks.registry", bound=1, lifetime=state.PROCESS, doc="the bundled rulebooks, by file name")
def registry() -> dict[str, Rulebook]:
    """Every rulebook by the file name sources cite."""
    data = _read_registry(catalog_dir() / "rulebooks.yaml")
    out = {}
    for b in data["rulebooks"]:
        sections = tuple(
            Section(s["title"], int(s["lines"][0]), int(s["lines"][1]), bool(s.get("printed", True)))
            for s in b["sections"]
        )
        out[b["file"]] = Rulebook(
            b["file"], b["system"], b["title"], str(b["edition"]), b["sha256"], int(b["lines"]), sections
        )
    return out


def _read_registry(path) -> dict:
    """The data of ``rulebooks.yaml``, from a JSON copy in the cache folder while the file is
    unchanged (its path, size and time): a YAML loader takes some 40 ms on it,
    which a command that shows one source would otherwise spend on this file alone.
    ``DAIMYO_NO_CACHE=1`` reads the YAML every time; a cache folder that cannot be written only
    costs that time."""
    st = os.stat(path)
    key = f"1:{st.st_size}:{st.st_mtime_ns}:{os.path.abspath(path)}"
    use_cache = os.environ.get("DAIMYO_NO_CACHE") != "1"
    copy = cache_dir() / "rulebooks.json"
    if use_cache:
        try:
            with open(copy, encoding="utf-8") as fh:
                kept = json.load(fh)
            if isinstance(kept, dict) and kept.get("key") == key and isinstance(kept.get("data"), dict):
                return kept["data"]
        except (OSError, ValueError):
            pass  # none yet, damaged, or another file's: read the YAML
    from ruamel.yaml import YAML  # noqa: PLC0415 - the YAML library only when the cached copy is stale

    with open(path, encoding="utf-8") as fh:
        data = YAML(typ="safe").load(fh)
    if use_cache:
        tmp = None
        try:
            copy.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".rulebooks.", suffix=".tmp", dir=copy.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump({"key": key, "data": data}, fh)
            # whole or not at all, for the commands reading it meanwhile (yamlio.atomic_write
            # would close an import cycle: yamlio -> errors -> rulebooks)
            os.replace(tmp, copy)
        except OSError:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
    return data


def rulebook_of(system: str) -> Rulebook | None:
    for book in registry().values():
        if book.system == system:
            return book
    return None


def source_refs(source: str) -> list[tuple[str, int, int]]:
    """(rulebook file, first line, last line) of each rulebook reference in ``source``."""
    return [(m["file"], int(m["a"]), int(m["b"] or m["a"])) for m in _rx("ref").finditer(source)]


# the context of a rulebook's title and section names in the message catalogs (``scripts/i18n.py``
# takes them from ``catalog/rulebooks.yaml``): a citation names them in the reader's language
RULEBOOK_CONTEXT = "rulebook"


def named(title: str) -> str:
    """A rulebook's title, edition or a section's title, as a citation in the current language names it."""
    return pgettext(RULEBOOK_CONTEXT, title)


def _lines(ranges: list[tuple[int, int]]) -> str:
    parts = ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in ranges)
    if len(ranges) == 1 and ranges[0][0] == ranges[0][1]:
        return _("line {lines}").format(lines=parts)
    return _("lines {lines}").format(lines=parts)


def format_source(source: str | None, inline: bool = False, short: bool = False) -> str:
    """A source as a player reads it (see :func:`_format_source`; the same few sources are
    formatted again and again, so the answers are kept)."""
    if not source:
        return ""
    return _format_source(str(source), inline, short, current_language())


@state.memo("rulebooks.sources", bound=4096, lifetime=state.VALUE, doc="a source reference as a player reads it")
def _format_source(source: str, inline: bool = False, short: bool = False, lang: str = "en") -> str:
    """A source as a player reads it: "Kensei rulebook, Army leaders (line 5912)" (the words in
    ``lang``, the current language, which the kept answers are told apart by).

    ``source`` is one or more ``FILE:LINE`` / ``FILE:FIRST-LAST`` joined by ``,`` or ``;``;
    references into one section are gathered, sections of one rulebook follow each other
    after ``;``; a range that runs into the next section is cited under each of the two (a range
    over three sections or more, a chapter and its steps, under its first). ``inline=True`` gives the form to put inside parentheses of a sentence
    ("Kensei rulebook, Army leaders, line 5912"); ``short=True`` leaves the rulebook's title
    out where it is named once nearby (a roster column). A text holding no reference is kept.
    """
    if not source:
        return ""
    refs = source_refs(source)
    if not refs:
        return source
    books = registry()
    groups: list[tuple[str, str | None, list[tuple[int, int]]]] = []
    for file, first, last in refs:
        book = books.get(file)
        a = first
        # a range over two sections is cited under each, with its own lines; a range over a
        # whole run of sections (a chapter and its steps) is cited under its first
        chapter = book is not None and len({s.title for s in book.sections if s.first <= last and s.last >= first}) > 2
        while a <= last:
            sec = book.section_at(a) if book else None
            b = min(last, sec.last) if sec and not chapter else last
            key = (file, sec.title if sec else None)
            if groups and (groups[-1][0], groups[-1][1]) == key:
                groups[-1][2].append((a, b))
            else:
                groups.append((file, key[1], [(a, b)]))
            a = b + 1
    out, last_file = [], None
    for file, title, ranges in groups:
        book = books.get(file)
        name = named(book.title) if book else _rulebook(file.split("_")[0])
        where = _lines(ranges)
        head = name if file != last_file and not short else ""
        if title:
            title = named(title)
            body = f"{title}, {where}" if inline else f"{title} ({where})"
            piece = f"{head}, {body}" if head else body
        else:
            piece = f"{head}, {where}" if head else where
        out.append(piece)
        last_file = file
    return "; ".join(out)


def _rulebook(number: str) -> str:
    return _("rulebook {number}").format(number=number)


def exact_source(source: str | None) -> str:
    """The exact references of a source, as ``--explain`` shows them next to the readable form."""
    return ", ".join(f"{f}:{a}" + (f"-{b}" if b != a else "") for f, a, b in source_refs(source or ""))


def humanize(text: str | None, bare: bool = True) -> str:
    """``text`` with every rulebook reference in it written as a player reads it; a reference
    inside parentheses becomes "(Kensei rulebook, Army leaders, line 5912)". ``bare``: the
    catalog notes' "L5960" becomes "line 5960" too (only for catalog text, never for
    messages that may quote what a user wrote)."""
    if not text:
        return text or ""
    if ".txt:" in text:
        whole = text
        text = _rx("run").sub(lambda m: format_source(m.group(0), inline=_in_parens(whole, m)), text)
    if bare and "L" in text:
        text = _rx("bare").sub(
            lambda m: (
                _("line {lines}").format(lines=m["a"])
                if not m["b"]
                else _("lines {lines}").format(lines=f"{m['a']}-{m['b']}")
            ),
            text,
        )
    return text


def _in_parens(text: str, m: re.Match) -> bool:
    before = text[: m.start()].rstrip()
    return before.endswith("(") or (before.endswith(",") and "(" in before[-60:])


__all__ = [
    "Rulebook",
    "Section",
    "exact_source",
    "format_source",
    "humanize",
    "named",
    "registry",
    "rulebook_of",
    "source_refs",
]
