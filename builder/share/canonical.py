"""The canonical form of a list document, the common ground of every share format.

``canonical(data, system)`` returns a new plain dict:

* keys in the order of FORMATS.md section 1 (common keys first, then the
  system's keys in their documented order; see ``builder.lists.schema``);
* catalog names written as the catalog writes them (``samurai  yari`` ->
  ``Samurai Yari``; clan, commander level, family, side and deck as their ids);
  a name the catalog does not know is kept as written, spaces tidied;
* inside entries, values equal to the documented default are dropped
  (``models: 1``, ``standard: false``, ``units: 0``, ``samurai: false``);
  top-level keys are kept as written;
* free text tidied: ``name``/``author``/``hero`` on one line with single spaces,
  ``notes`` without trailing spaces or blank first/last lines; empty values and
  nulls dropped; numbers given as names become text;
* deck entries naming the same card (after name matching) are added up.

Names are resolved against the *base* catalog of the system, never a list's
packs: a share code must decode the same way on a machine that lacks the packs,
so names that only a pack knows stay as written.
"""

from __future__ import annotations

import os
import re
import zlib
from typing import Any

from builder.catalog.loader import catalog_files, load_catalog
from builder.catalog.overlay import display_name
from builder.errors import Diagnostic, ListError
from builder.i18n import L_
from builder.kit.fields import Field
from builder.limits import MAX_NUMBER, first_bad_number, too_many_values_message, values_over
from builder.lists.schema import schema
from builder.names import did_you_mean, slug
from builder.systems import ids, is_system

_WS = re.compile(r"\s+")


def tidy(text: object) -> str:
    """One line, single spaces, no spaces at either end (of ``text`` as a string)."""
    return _WS.sub(" ", str(text)).strip()


def tidy_notes(text: str) -> str:
    lines = [ln.rstrip() for ln in str(text).replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    lines = [ln.replace("\t", "    ") for ln in lines]
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    if lines:
        lines[0] = lines[0].lstrip()
    return "\n".join(lines)


def name_hash(section: str, entry_id: str) -> int:
    """The 16-bit key under which a share code names a catalog entry."""
    return zlib.crc32(f"{section}:{entry_id}".encode()) & 0xFFFF


class Resolver:
    """Catalog name lookups for one system (base catalog only; no catalog is fine too)."""

    _cache: dict[str, Resolver] = {}

    def __init__(self, system: str, catalog=None):
        self.system = system
        self.catalog = catalog
        self._hashes: dict[str, dict[int, list]] = {}
        self._stamp: tuple[tuple[str, int, int], ...] | None = None  # the catalog files it was read from

    @classmethod
    def of(cls, system: str) -> Resolver:
        """The resolver of a system's base catalog, kept while the catalog files are unchanged."""
        try:
            stamp = tuple((str(p), *_time_and_size(os.stat(p))) for p in catalog_files(system))
        except OSError:
            stamp = None
        hit = cls._cache.get(system)
        if hit is not None and stamp is not None and hit._stamp == stamp:
            return hit
        try:
            cat = load_catalog(system)
        except Exception:  # a broken catalog: names are shared as text
            cat = None
        hit = cls(system, cat)
        hit._stamp = stamp
        cls._cache[system] = hit
        return hit

    def section(self, f: Field) -> str | None:
        if self.catalog is None:
            return None
        have = self.catalog.sections()
        for s in f.sections:
            if s in have and self.catalog.entries(s):
                return s
        return None

    def find(self, f: Field, name: str):
        """(section, entry) for ``name``, or (section, None)."""
        sec = self.section(f)
        if sec is None:
            return None, None
        return sec, self.catalog.find(sec, name)

    def display(self, f: Field, entry) -> str:
        """How a list writes the entry: its name, or for id-like fields (clan, family,
        side) the slug of its name when that finds it (``red``, ``buke``), else its id."""
        if f.value != "id":
            return entry.name
        sec = self.section(f)
        s = slug(entry.name)
        if s and self.catalog.find(sec, s) is entry:
            return s
        return entry.id

    def resolve(self, f: Field, name: Any) -> tuple[str, Any]:
        """The canonical spelling of a name and its entry (None when unknown); remembered per
        field and name (a long list names the same few entries again and again)."""
        if not isinstance(name, str):
            return self._resolve(f, name)
        memo = self.__dict__.setdefault("_resolved", {})
        key = (f.sections, f.value, name)
        hit = memo.get(key)
        if hit is None:
            if len(memo) > 50_000:
                memo.clear()
            hit = memo[key] = self._resolve(f, name)
        return hit

    def _resolve(self, f: Field, name: Any) -> tuple[str, Any]:
        text = tidy(name)
        _, entry = self.find(f, text)
        if entry is None:
            return text, None
        return self.display(f, entry), entry

    def suggest(self, f: Field, name: str) -> str:
        sec = self.section(f)
        if sec is None:
            return ""
        return did_you_mean(name, self.catalog.suggest(sec, name))

    def knows(self, f: Field) -> bool:
        return self.section(f) is not None

    def hash_table(self, section: str) -> dict[int, list]:
        table = self._hashes.get(section)
        if table is None:
            table = {}
            for e in self.catalog.entries(section):
                table.setdefault(name_hash(section, e.id), []).append(e)
            self._hashes[section] = table
        return table

    def names(self, f: Field) -> list[str]:
        sec = self.section(f)
        if sec is None:
            return []
        return [self.display(f, e) for e in self.catalog.entries(sec)]


class DisplayResolver(Resolver):
    """Names as a page shows them in the current language (a translation overlay's display
    names, ``builder.catalog.overlay``): for ``daimyo show``, never for a list that is written
    or shared (those keep the catalog's names)."""

    @classmethod
    def shown(cls, system: str) -> DisplayResolver:
        return cls(system, Resolver.of(system).catalog)

    def display(self, f: Field, entry) -> str:
        name = super().display(f, entry)
        sec = self.section(f)
        if f.value == "id" or sec is None:
            return name
        return display_name(self.catalog, sec, entry)


class _Ctx:
    def __init__(self, system: str, resolver: Resolver, positions, file: str):
        self.system = system
        self.r = resolver
        self.pos = positions
        self.file = file
        self.diags: list[Diagnostic] = []

    def err(self, path: tuple, message: str, hint: str | None = None, key: bool = False) -> None:
        if self.pos is not None:
            self.diags.append(self.pos.diag(path, message, hint=hint, prefer_key=key))
        else:
            self.diags.append(Diagnostic(self.file, 0, 0, f"{_path(path)}: {message}" if path else message, hint=hint))


def _time_and_size(st: os.stat_result) -> tuple[int, int]:
    return st.st_mtime_ns, st.st_size


def _path(path: tuple) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _is_text(v) -> bool:
    return isinstance(v, (str, int, float)) and not isinstance(v, bool)


def canonical(
    data: dict, system: str | None = None, resolver: Resolver | None = None, positions=None, file: str = "<list>"
) -> dict:
    """The canonical form of a list document; ListError listing every shape problem."""
    if not isinstance(data, dict):
        raise ListError(Diagnostic(file, 1, 1, L_("a list document must be a mapping of keys such as 'system:'")))
    system = system or data.get("system")

    if not isinstance(system, str) or not is_system(system.strip().lower()):
        hint = did_you_mean(str(system), ids()) or "one of " + ", ".join(ids())
        if positions is not None:
            raise ListError(positions.diag(("system",), L_("unknown system '{system}'", system=system), hint=hint))
        raise ListError(Diagnostic(file, 0, 0, L_("unknown system '{system}'", system=system), hint=hint))
    system = system.strip().lower()

    if values_over(data):
        raise ListError(Diagnostic(file, 1, 1, too_many_values_message(), hint=L_("split it into several lists")))
    bad = first_bad_number(data)
    if bad is not None:
        if positions is not None:
            raise ListError(positions.diag(bad[0], bad[1]))
        raise ListError(Diagnostic(file, 0, 0, f"{_path(bad[0])}: {bad[1]}" if bad[0] else bad[1]))
    r = resolver or Resolver.of(system)
    ctx = _Ctx(system, r, positions, file)
    fields = schema(system)
    known = [f.key for f in fields]
    for k in data:
        if k not in known:
            hint = did_you_mean(str(k), list(known)) or "known keys: " + ", ".join(f.key for f in fields)
            ctx.err((k,), f"unknown key '{k}' in a {system} list", hint=hint, key=True)
    out: dict = {}
    for f in fields:
        if f.key not in data:
            continue
        if f.kind == "system":
            out["system"] = system
            continue
        v = _value(ctx, f, data[f.key], (f.key,), top=True)
        if v is not _DROP:
            out[f.key] = v
    if ctx.diags:
        raise ListError(ctx.diags)
    return out


class _Drop:
    pass


_DROP = _Drop()


def _custom_card(ctx: _Ctx, f: Field, path: tuple, name, card: dict):
    """A custom card of a deck as the list writes it: ``{printed: TEXT, count: N}`` (count 1 when
    left out); None after an error."""
    extra = [k for k in card if k not in ("printed", "count")]
    if extra:
        ctx.err(
            path,
            f"a custom {f.what} takes 'printed' and 'count', not '{extra[0]}'",
            hint='e.g. NAME: {printed: "F5 or M3", count: 1}',
        )
        return None
    printed = card.get("printed")
    if not _is_text(printed) or not tidy(printed):
        ctx.err(
            path,
            f"a custom {f.what} needs 'printed': its values as printed",
            hint='e.g. NAME: {printed: "F5 or M3", count: 1}',
        )
        return None
    n = card.get("count", 1)
    if isinstance(n, float) and n.is_integer():
        n = int(n)
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_NUMBER:
        ctx.err(path, f"the count of '{name}' must be a whole number (0 or more), not {n!r}")
        return None
    return {"printed": tidy(printed), "count": n}


def _value(ctx: _Ctx, f: Field, v: Any, path: tuple[Any, ...], top: bool = False) -> Any:
    """The canonical value of field ``f`` written as ``v`` at ``path`` (``top``: a key of the list
    itself, kept even at its default); ``_DROP`` when it is left out, or wrong (after an error)."""
    if v is None:
        return _DROP
    kind = f.kind
    if kind in ("text", "notes"):
        return _text_value(ctx, f, v, path)
    if kind == "int":
        return _int_value(ctx, f, v, path, top)
    if kind == "bool":
        return _bool_value(ctx, f, v, path, top)
    if kind == "ref":
        if not _is_text(v):
            ctx.err(path, f"'{f.key}' must be a {f.what or 'name'}")
            return _DROP
        name, _ = ctx.r.resolve(f, v)
        return name if name else _DROP
    if kind in ("refs", "texts"):
        return _names_value(ctx, f, v, path)
    if kind == "counts":
        return _counts_value(ctx, f, v, path)
    if kind == "rules":
        return _rules_value(ctx, v, path)
    if kind == "items":
        return _items_value(ctx, f, v, path)
    raise AssertionError(kind)  # pragma: no cover


def _text_value(ctx: _Ctx, f: Field, v: Any, path: tuple[Any, ...]) -> Any:
    """A text (``notes``: with its line breaks), tidied; dropped when empty."""
    if not _is_text(v):
        ctx.err(path, f"'{f.key}' must be text")
        return _DROP
    t = tidy_notes(v) if f.kind == "notes" else tidy(v)
    return t if t else _DROP


def _int_value(ctx: _Ctx, f: Field, v: Any, path: tuple[Any, ...], top: bool) -> Any:
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    if isinstance(v, bool) or not isinstance(v, int):
        ctx.err(path, f"'{f.key}' must be a whole number, not {v!r}")
        return _DROP
    if v < 0:
        ctx.err(path, f"'{f.key}' must not be negative, not {v}")
        return _DROP
    if not top and f.default is not None and v == f.default:
        return _DROP
    return v


def _bool_value(ctx: _Ctx, f: Field, v: Any, path: tuple[Any, ...], top: bool) -> Any:
    if not isinstance(v, bool):
        ctx.err(path, f"'{f.key}' must be true or false, not {v!r}")
        return _DROP
    if not top and f.default is not None and v == f.default:
        return _DROP
    return v


def _names_value(ctx: _Ctx, f: Field, v: Any, path: tuple[Any, ...]) -> Any:
    """A list of names (``refs``: resolved in the catalog) or texts (one text alone is a list)."""
    kind = f.kind
    if kind == "texts" and _is_text(v):
        v = [v]
    if not isinstance(v, list):
        ctx.err(path, f"'{f.key}' must be a list")
        return _DROP
    names = []
    for i, item in enumerate(v):
        if not _is_text(item):
            ctx.err(path + (i,), f"each item of '{f.key}' must be a name")
            continue
        t = ctx.r.resolve(f, item)[0] if kind == "refs" else tidy(item)
        if t:
            names.append(t)
    return names


def _counts_value(ctx: _Ctx, f: Field, v: Any, path: tuple[Any, ...]) -> Any:
    """Counts by name (a name written twice adds up), and the custom cards of a deck."""
    if not isinstance(v, dict):
        ctx.err(path, f"'{f.key}' must be a mapping of {f.what} names to counts", hint=f"e.g. {f.key}: {{Name: 2}}")
        return _DROP
    counts: dict[Any, Any] = {}
    for k, n in v.items():
        if isinstance(n, float) and n.is_integer():
            n = int(n)
        if f.accepts == "printed" and isinstance(n, dict):  # a custom card: {printed: F5, count: 1}
            card = _custom_card(ctx, f, path + (k,), k, n)
            if card is not None:
                counts[tidy(k) if _is_text(k) else tidy(str(k))] = card
            continue
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            ctx.err(path + (k,), f"the count of '{k}' must be a whole number (0 or more), not {n!r}")
            continue
        name = ctx.r.resolve(f, k)[0] if _is_text(k) else tidy(k)
        if not name:
            ctx.err(path + (k,), f"empty {f.what} name", key=True)
            continue
        counts[name] = counts.get(name, 0) + n
        if counts[name] > MAX_NUMBER:
            ctx.err(path + (k,), f"the count of '{name}' adds up to more than {MAX_NUMBER:,}")
            counts[name] = MAX_NUMBER
    return counts


def _rules_value(ctx: _Ctx, v: Any, path: tuple[Any, ...]) -> Any:
    """The house rules: one plain value (finite, when a number) by rule id."""
    if not isinstance(v, dict):
        ctx.err(path, "'house_rules' must be a mapping of rule ids to values")
        return _DROP
    rules = {}
    for k, val in v.items():
        if not isinstance(val, (str, int, float, bool)):
            ctx.err(path + (k,), f"house rule '{k}' must have a single value (number, text, true/false)")
            continue
        if isinstance(val, float) and (val != val or val in (float("inf"), float("-inf"))):
            ctx.err(path + (k,), f"house rule '{k}' must be a finite number")
            continue
        rules[str(k)] = val
    return rules


def _items_value(ctx: _Ctx, f: Field, v: Any, path: tuple[Any, ...]) -> Any:
    """A list of items (a unit, a troop), each a mapping of the item's own fields (an item written
    as its name alone is ``{item_key: name}``)."""
    if not isinstance(v, list):
        ctx.err(path, f"'{f.key}' must be a list of {f.what}s")
        return _DROP
    rows = []
    for i, item in enumerate(v):
        if _is_text(item) and f.item_key:
            item = {f.item_key: item}
        if not isinstance(item, dict):
            ctx.err(
                path + (i,),
                f"each {f.what} must be a mapping",
                hint=f"e.g. - {f.item_key}: Name" if f.item_key else None,
            )
            continue
        known = [s.key for s in f.fields]  # in declared order: the same message every run
        for k in item:
            if k not in known:
                hint = did_you_mean(str(k), list(known)) or "known keys: " + ", ".join(known)
                ctx.err(path + (i, k), f"unknown key '{k}' in a {f.what}", hint=hint, key=True)
        row = {}
        for s in f.fields:
            if s.key in item:
                sv = _value(ctx, s, item[s.key], path + (i, s.key))
                if sv is not _DROP:
                    row[s.key] = sv
        if f.item_key and f.item_key not in row:
            ctx.err(path + (i,), f"each {f.what} needs '{f.item_key}:'", hint=f"e.g. - {f.item_key}: Name")
            continue
        rows.append(row)
    return rows
