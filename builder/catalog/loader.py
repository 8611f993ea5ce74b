"""Load, merge, validate and cache one system's catalog (plus user packs).

The catalog of system S is the merge of every ``*.yaml`` file of the folder the game names
(``gs.catalog.folder``: ``catalog/S/`` in a source checkout, the game package's ``data/`` in a
wheel, ``builder.systems.catalog.data_folder``): each file
is a mapping of sections; list sections (cards, troops, abilities, ...) are
concatenated across files, any other section may appear in one file only.

A *pack* is a user's YAML file (given as a path or found by its name: ``builder.catalog.packfiles``) with ``system: S`` and the same sections. An entry
whose name, id or alias matches a catalog entry overrides the fields it gives;
any other entry is added. Pack-level keys (``builder.catalog.packid``): ``system``
(required), ``name`` (or the older ``pack``), ``version``, ``author``, ``url``,
``licence``, ``description``, ``example`` (true when the data is example data).

Validation errors carry the file, line and column of the offending value.
The validated catalog is pickled in a cache keyed by the files' paths, sizes and
modification times, so a warm load costs milliseconds.
"""

from __future__ import annotations

import os
import pickle
import typing
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from builder import __version__, limits, state, yamlio
from builder.catalog.overlay import alias_index, translated_names
from builder.catalog.packfiles import not_found_hint, resolve_pack
from builder.catalog.packid import META_KEYS as PACK_META
from builder.catalog.packid import PackId, meta_diagnostics
from builder.errors import CatalogError, DaimyoError, Diagnostic, option
from builder.i18n import L_, SOURCE_LANGUAGE, current_language
from builder.kit.modelerrors import pydantic_diagnostics
from builder.names import NameIndex, did_you_mean, loose, normalize
from builder.paths import cache_dir, display_path, exists, is_file, origin_text
from builder.systems import catalog_folder, catalog_module, get, ids, is_system
from builder.yamlio import load_yaml, read_text
from builder.yamlpos import FilePositions

CACHE_FORMAT = 7


class Catalog:
    """A validated catalog with name indexes. Picklable."""

    def __init__(self, system: str, model, files: list[str], packs: list[dict]):
        self.system = system
        self._model = model
        self._model_blob: bytes | None = None
        self.files = files
        self.packs = packs  # [{"file":..., "pack":..., "example": bool, "description":...}]
        self.fingerprint: str | None = None  # the files' paths, sizes and times (set by load_catalog)
        self.origin: dict[tuple[str, str], str] = {}
        self.from_pack: dict[tuple[str, str], str] = {}
        # entries a pack changed: {"pack": file, "line": the pack entry's line, "fields": what it
        # gives, "base_source": the replaced entry's source, "base_where": where that was written}
        self.overridden: dict[tuple[str, str], dict] = {}
        self._sections = entry_sections(type(model))
        # plain, validated data: browsing needs no pydantic import
        self.raw: dict = model.model_dump(mode="python", exclude_none=False)
        from builder.catalog.frozen import freeze  # noqa: PLC0415 - only when a catalog is built; a catalog read from the cache needs none

        self._model = freeze(model)  # plain objects: a catalog from the cache needs no pydantic
        self._index: dict[str, dict[str, int]] = {}
        self._loose: dict[str, dict[str, int]] = {}
        self._positions: FilePositions | None = None  # while it is built (messages say where)
        for section in self._sections:
            idx: dict[str, int] = {}
            lidx: dict[str, int] = {}
            for i, e in enumerate(self.raw.get(section) or []):
                for key in [e["name"], e["id"], *e.get("aliases", [])]:
                    idx.setdefault(normalize(key), i)
                    lidx.setdefault(loose(key), i)
            self._index[section] = idx
            self._loose[section] = lidx

    @property
    def model(self):
        """The validated pydantic root model (unpickled on first use)."""
        if self._model is None and self._model_blob is not None:
            self._model = pickle.loads(self._model_blob)
        return self._model

    def records(self, section: str) -> list[dict]:
        """Plain validated data of a section (no pydantic needed)."""
        return list(self.raw.get(section) or [])

    # -- browsing -----------------------------------------------------------
    def sections(self) -> list[str]:
        return list(self._sections)

    def entries(self, section: str) -> list:
        return list(getattr(self.model, section, None) or [])

    def names(self, section: str) -> list[str]:
        return [e["name"] for e in self.records(section)]

    def find(self, section: str, name: str):
        """The entry called ``name`` (case, spaces, hyphen variants and aliases ignored; a
        translated name of an overlay is an alias too: ``builder.catalog.overlay``)."""
        i = self._position(section, name, True)
        return None if i is None else self.entries(section)[i]

    def find_record(self, section: str, name: str, aliases: bool = True) -> dict | None:
        """Like ``find`` but the plain record (``aliases=False``: not by a translated name)."""
        i = self._position(section, name, aliases)
        return None if i is None else self.raw[section][i]

    def _position(self, section: str, name: str, translated: bool) -> int | None:
        """The index of the entry ``name`` names in ``section``: the one place names are resolved."""
        if not isinstance(name, str):
            return None
        i = self._index.get(section, {}).get(normalize(name))
        if i is None:
            i = self._loose.get(section, {}).get(loose(name))
        if i is None and translated and section in self._index:
            i = alias_index(self, section).get(normalize(name))
        return i

    def find_any(self, name: str, sections: list[str] | None = None):
        for section in sections or self.sections():
            hit = self.find(section, name)
            if hit is not None:
                return section, hit
        return None, None

    def suggest(self, section: str, name: str, n: int = 3) -> list[str]:
        # the section's names are prepared once (a long list may hold very many unknown names)
        indexes = self.memo("name_index")
        index = indexes.get(section)
        if index is None:
            cands = []
            for rec in self.records(section):
                cands.append(rec["name"])
                cands.extend(rec.get("aliases") or [])
            index = indexes[section] = NameIndex(cands)
        hits = index.suggest(name, n)
        # show display names, not aliases
        out = []
        for h in hits:
            e = self.find_record(section, h)
            if e is not None and e["name"] not in out:
                out.append(e["name"])
        return out

    def did_you_mean(self, section: str, name: str) -> str:
        # remembered: a list is read and checked several times per edit, each unknown name
        # asking again (a comparison with every catalog name each time)
        memo = self.memo("did_you_mean")
        key = (section, name, current_language())
        hit = memo.get(key)
        if hit is None:
            if len(memo) > 50_000:
                memo.clear()
            hit = did_you_mean(name, self.suggest(section, name))
            lang = current_language()
            if not hit and lang != SOURCE_LANGUAGE:  # a name written in the language shown: its closest names there
                hit = did_you_mean(name, translated_names(self, section, lang))
            memo[key] = hit
        return hit

    def memo(self, name: str) -> dict:
        """A dict kept with this catalog for what is worked out from its entries again and again
        (name suggestions, a card's parsed abilities): a catalog never changes once built, so
        neither does what is worked out from it. Not written to the cache on disk."""
        memos = self.__dict__.setdefault("_memos", {})
        return memos.setdefault(name, {})

    def where(self, section: str, entry) -> str:
        """``file:line`` where the entry (model or record) was written (catalog or pack)."""
        return self.origin.get((section, entry_id(entry)), "")

    def override(self, section: str, entry) -> dict | None:
        """How a pack changed a catalog entry (see ``overridden``), or None."""
        return getattr(self, "overridden", {}).get((section, entry_id(entry)))

    def is_example(self, section: str, entry) -> bool:
        pack = self.from_pack.get((section, entry_id(entry)))
        return bool(pack and any(p["file"] == pack and p.get("example") for p in self.packs))

    # -- house rules ----------------------------------------------------------
    def house_rules(self) -> dict[str, Any]:
        return {h.id: h for h in self.model.house_rules}

    def default_rules(self) -> dict[str, Any]:
        return {h["id"]: h["default"] for h in self.raw.get("house_rules") or []}

    def resolve_rules(self, agreed: dict | None) -> dict[str, Any]:
        """Defaults overridden by agreed values; raises KeyError/ValueError with a user message."""
        rules = self.default_rules()
        known = self.house_rules()
        for key, value in (agreed or {}).items():
            rule = known.get(key)
            if rule is None:
                hint = did_you_mean(str(key), list(known))
                raise KeyError(
                    f"unknown house rule '{key}' for {self.system}"
                    + (f"; {hint}" if hint else f"; known: {', '.join(known) or 'none'}")
                )
            rules[key] = rule.coerce(value)
        return rules

    # -- used while loading --------------------------------------------------
    def diag(self, path: tuple, message: str, code: str = "catalog.reference", hint: str | None = None) -> Diagnostic:
        if self._positions is not None:
            return self._positions.diag(tuple(path), message, code=code, hint=hint)
        return Diagnostic(self.system, 0, 0, message, code=code, hint=hint)

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_positions"] = None
        state.pop("_memos", None)  # what was worked out (suggestions, parsed abilities) is not cached on disk
        if state["_model_blob"] is None:
            state["_model_blob"] = pickle.dumps(self._model, protocol=pickle.HIGHEST_PROTOCOL)
        state["_model"] = None
        return state


def entry_id(entry) -> str:
    """The id of a catalog entry (a model or a plain record)."""
    return entry["id"] if isinstance(entry, dict) else entry.id


# -- model introspection -------------------------------------------------------


def entry_sections(model_cls) -> list[str]:
    from builder.catalog.base import Entry  # noqa: PLC0415 - only when a catalog is built; a catalog read from the cache needs none

    out = []
    for name, field in model_cls.model_fields.items():
        ann = field.annotation
        if typing.get_origin(ann) is list:
            (arg,) = typing.get_args(ann) or (None,)
            if isinstance(arg, type) and issubclass(arg, Entry):
                out.append(name)
    return out


def list_sections(model_cls) -> list[str]:
    return [n for n, f in model_cls.model_fields.items() if typing.get_origin(f.annotation) is list]


# -- loading -----------------------------------------------------------------------


def catalog_files(system: str) -> list[Path]:
    """The system's catalog files (listed again only when the folder changes)."""
    if not is_system(system):
        return []
    folder = catalog_folder(system)  # the game says where its data is
    try:
        stamp = os.stat(folder).st_mtime_ns
    except OSError:
        return []
    hit = _FILES.get(str(folder))
    if hit is not None and hit[0] == stamp:
        return hit[1]
    files = sorted(p for p in folder.glob("*.yaml") if p.is_file())
    _FILES[str(folder)] = (stamp, files)
    return files


_FILES: dict[str, tuple[int, list[Path]]] = state.cache(
    "catalog.folder_files",
    bound=None,
    lifetime=state.FILE,
    doc="the YAML files of a catalog folder, by folder, while its modification time is the same (one per game folder)",
)


def _fingerprint(paths: list[Path]) -> str:
    """Every input file's path, size and modification time (stored in the cache and compared)."""
    parts = [f"{__version__}:{CACHE_FORMAT}"]
    for p in paths:
        try:
            st = os.stat(p)
            parts.append(f"{os.path.abspath(p)}:{st.st_size}:{st.st_mtime_ns}")
        except OSError:
            parts.append(f"{p}:missing")
    return "\n".join(parts)


def load_catalog(system: str, packs: Sequence[str | os.PathLike] = (), use_cache: bool = True) -> Catalog:
    """The validated catalog of ``system`` with ``packs`` applied, from the cache when fresh."""
    if not is_system(system):
        raise CatalogError(
            Diagnostic(
                "daimyo",
                0,
                0,
                L_("unknown system '{system}'", system=system),
                code="catalog.system",
                hint=did_you_mean(system, ids()) or L_("systems: {values}", values=", ".join(ids())),
            )
        )
    files = catalog_files(system)
    pack_paths = []
    for p in packs:
        if is_file(p):
            pack_paths.append(Path(p))
            continue
        found = resolve_pack(str(p), None, system) if str(p).strip() else None
        if found is None:
            if not str(p).strip():
                raise CatalogError(
                    Diagnostic(
                        "daimyo",
                        0,
                        0,
                        L_("empty pack name"),
                        code="pack.missing",
                        hint=L_("give a pack file or a pack name after {option}", option=option("pack")),
                    )
                )

            if exists(p):  # a folder, a device or a pipe: the reader refuses it, it is not "not found"
                pack_paths.append(Path(p))
                continue
            raise CatalogError(
                Diagnostic(str(p), 0, 0, L_("pack file not found"), code="pack.missing", hint=not_found_hint(str(p)))
            )
        pack_paths.append(found)
    cache_file = None
    if use_cache and os.environ.get("DAIMYO_NO_CACHE") != "1":
        fingerprint = _fingerprint(files + pack_paths)
        memo = _MEMO.get((system, fingerprint))
        if memo is not None:
            return memo
        key = f"{zlib.crc32(fingerprint.encode()):08x}{len(fingerprint):06x}"
        cache_file = cache_dir() / f"{system}-{key}.pickle"
        try:
            with open(cache_file, "rb") as fh:
                cat = pickle.load(fh)
            if isinstance(cat, Catalog) and getattr(cat, "fingerprint", None) == fingerprint:
                _remember(system, fingerprint, cat)
                return cat
        except Exception:  # missing or stale cache: rebuild
            pass
    cat = build_catalog(system, files, pack_paths)
    cat.fingerprint = _fingerprint(files + pack_paths) if cache_file is None else fingerprint
    if cache_file is not None:
        _write_cache(cache_file, cat)
        _remember(system, fingerprint, cat)
    return cat


# Catalogs already loaded in this process, by system and fingerprint (checking many
# lists loads the same catalog once).
_MEMO_MAX = 33  # catalogs
_MEMO: dict[tuple[str, str], Catalog] = state.cache(
    "catalog.loaded", bound=_MEMO_MAX, lifetime=state.CATALOG, doc="catalogs loaded, by game and fingerprint"
)


def _remember(system: str, fingerprint: str, cat: Catalog) -> None:
    if len(_MEMO) >= _MEMO_MAX:
        _MEMO.clear()
    _MEMO[(system, fingerprint)] = cat


def _write_cache(cache_file: Path, cat: Catalog) -> None:
    try:
        cache_file.parent.mkdir(parents=True, exist_ok=True)
        for old in cache_file.parent.glob(f"{cat.system}-*.pickle"):
            if old != cache_file and len(old.name) == len(cache_file.name):
                try:
                    old.unlink()
                except OSError:
                    pass
        yamlio.atomic_write(cache_file, pickle.dumps(cat, protocol=pickle.HIGHEST_PROTOCOL))
    except Exception:
        pass  # a read-only cache folder only costs speed


def _merge_into(raw: dict, pos, data: dict, p, model_cls, file: str, diags: list) -> None:
    lists = set(list_sections(model_cls))
    for key, val in data.items():
        if key in lists and isinstance(val, list):
            dest = raw.setdefault(key, [])
            if not isinstance(dest, list):
                diags.append(
                    p.diag(
                        (key,),
                        L_("section '{key}' is a list here but not elsewhere", key=key),
                        code="catalog.type",
                        prefer_key=True,
                    )
                )
                continue
            start = len(dest)
            dest.extend(val)
            for i in range(len(val)):
                pos.add((key, start + i), p, (key, i))
            if (key,) not in pos.key:
                pos.key[(key,)] = p.key.get((key,), (1, 1))
                pos.files[(key,)] = file
        else:
            if key in raw:
                line, col = p.at((key,), prefer_key=True)
                diags.append(
                    Diagnostic(
                        file,
                        line,
                        col,
                        L_("section '{key}' is defined twice", key=key),
                        code="catalog.duplicate",
                        hint=L_("first defined in {file_of}", file_of=pos.file_of((key,))),
                    )
                )
                continue
            raw[key] = val
            pos.add((key,), p, (key,))


def _apply_pack(
    raw: dict, pos, data: dict, p, model_cls, file: str, diags: list, cat_origin: dict, overrides: dict | None = None
) -> None:
    entries = set(entry_sections(model_cls))
    lists = set(list_sections(model_cls))
    for key, val in data.items():
        if key in PACK_META:
            continue
        val = _pack_section_shape(key, val, raw.get(key), key in entries, key in lists, p, diags)
        if val is _SKIP:
            continue
        if key in entries and isinstance(val, list):
            dest = raw.setdefault(key, [])
            index: dict[str, int] = {}
            for i, item in enumerate(dest):
                if isinstance(item, dict):
                    for k in [item.get("name"), item.get("id"), *(item.get("aliases") or [])]:
                        if isinstance(k, str):
                            index.setdefault(normalize(k), i)
            for j, item in enumerate(val):
                hit = None
                if isinstance(item, dict):
                    for k in [item.get("id"), item.get("name")]:
                        if isinstance(k, str) and normalize(k) in index:
                            hit = index[normalize(k)]
                            break
                if hit is None:
                    dest.append(item)
                    pos.add((key, len(dest) - 1), p, (key, j))
                    cat_origin[(key, len(dest) - 1)] = file
                else:
                    base = dest[hit] if isinstance(dest[hit], dict) else {}
                    if overrides is not None:
                        before = overrides.get((key, hit))
                        line, _ = p.at((key, j))
                        given = [f for f in item if f not in ("name", "id")]
                        overrides[(key, hit)] = {
                            "pack": file,
                            "line": line,
                            "fields": list(dict.fromkeys((before["fields"] if before else []) + given)),
                            # what the first pack replaced: the catalog's (or an earlier pack's) entry
                            "base_source": before["base_source"] if before else base.get("source"),
                            "base_where": before["base_where"]
                            if before
                            else f"{pos.file_of((key, hit))}:{pos.at((key, hit))[0]}",
                            "base_pack": before["base_pack"] if before else cat_origin.get((key, hit)),
                        }
                    dest[hit] = {**base, **item}
                    for field in item:
                        pos.add((key, hit, field), p, (key, j, field))
                    cat_origin[(key, hit)] = file
        elif key in lists and isinstance(val, list):
            dest = raw.setdefault(key, [])
            start = len(dest)
            dest.extend(val)
            for i in range(len(val)):
                pos.add((key, start + i), p, (key, i))
        elif isinstance(val, dict) and isinstance(raw.get(key), dict):
            _add_merged_positions(pos, p, (key,), raw[key], val)
            raw[key] = _deep_merge(raw[key], val)
        else:
            raw[key] = val
            pos.add((key,), p, (key,))


_SKIP = object()

ART_FIELDS = ("art", "focus")


def unused_fields(system: str, data: dict, p, entries: set[str]) -> list[Diagnostic]:
    """A located error for each field of a pack entry that the game accepts and never uses: art
    (and its focus) outside the sections the game prints with art (``gs.packs.art_sections``)."""
    printed = get(system).packs.art_sections
    if printed is None:
        return []
    out = []
    for section, val in data.items():
        if section not in entries or section in printed or not isinstance(val, list):
            continue
        where = (
            f"only {' and '.join(printed)} entries are printed with art"
            if printed
            else f"{system} prints no card with art"
        )
        for j, item in enumerate(val):
            for field in ART_FIELDS:
                if isinstance(item, dict) and field in item:
                    out.append(
                        p.diag(
                            (section, j, field),
                            L_(
                                "'{field}' is not used in {section}: {where}; remove it",
                                field=field,
                                section=section,
                                where=where,
                            ),
                            code="pack.unused",
                            prefer_key=True,
                        )
                    )
    return out


def _pack_section_shape(key, val, have, is_entries: bool, is_list: bool, p, diags: list):
    """A pack section of the shape the catalog gives it (entries: a list of mappings whose
    ``aliases`` are a list of names; other lists a list; mappings a mapping), else ``_SKIP``
    with a located error for it and for each entry that is not a mapping."""

    def wrong(path, message):
        diags.append(p.diag(path, message, code="pack.type"))

    if is_entries or is_list or isinstance(have, list):
        if not isinstance(val, list):
            wrong((key,), f"'{key}' must be a list" + (" of entries (- name: ...)" if is_entries else ""))
            return _SKIP
        if not is_entries:
            return val
        kept = []
        for j, item in enumerate(val):
            if not isinstance(item, dict):
                wrong((key, j), f"each entry of '{key}' must be a mapping with 'name:'")
                continue
            aliases = item.get("aliases")
            if aliases is not None and not (isinstance(aliases, list) and all(isinstance(a, str) for a in aliases)):
                wrong((key, j, "aliases"), "'aliases' must be a list of names")
                continue
            kept.append(item)
        return kept if len(kept) == len(val) else _SKIP
    if isinstance(have, dict) and not isinstance(val, dict):
        wrong((key,), f"'{key}' must be a mapping")
        return _SKIP
    return val


def _add_merged_positions(pos, p, path: tuple, old: dict, new: dict) -> None:
    """Point only the values a pack gives at the pack; merged-in catalog values keep their file."""
    for k, v in new.items():
        sub = path + (k,)
        if isinstance(v, dict) and isinstance(old.get(k), dict):
            _add_merged_positions(pos, p, sub, old[k], v)
        else:
            pos.add(sub, p, sub)


def _deep_merge(a: dict, b: dict) -> dict:
    out = dict(a)
    for k, v in b.items():
        out[k] = _deep_merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


# Catalog files already parsed in this process (tests and long-running processes build
# catalogs many times): (absolute path, name shown in messages) -> ((size, modification time),
# text, data, positions), the most recently used last. A file is read again on every build and
# parsed again when its size, time or text differ. The data and positions are shared by every
# build: merging them into a catalog copies what it changes and never changes them.
_PARSED_MAX = 64  # files
_PARSED: dict[tuple[str, str], tuple] = state.cache(
    "catalog.parsed_files",
    bound=_PARSED_MAX,
    lifetime=state.FILE,
    doc="catalog files parsed, by path, while size, time and text are the same (also bound by their characters)",
)
_PARSED_CHARS = 2_000_000  # characters of text in all (the parsed data take some 15 times as much memory)


def _parse_catalog_file(f: Path, shown: str) -> tuple[Any, Any]:
    """The data and positions of catalog file ``f`` (parsed once while it is unchanged)."""
    key = (os.path.abspath(f), shown)
    try:
        st = os.stat(f)
        stamp: tuple | None = (st.st_size, st.st_mtime_ns)
    except OSError:
        stamp = None  # the reading says what is wrong
    text = read_text(f, "catalog.yaml", shown)
    hit = _PARSED.pop(key, None)
    if hit is not None and stamp is not None and hit[0] == stamp and hit[1] == text:
        _PARSED[key] = hit
        return hit[2], hit[3]
    data, pos = yamlio.parse_yaml(text, shown, "catalog.yaml", max_entries=limits.MAX_PACK_ENTRIES)
    if stamp is not None and len(text) <= _PARSED_CHARS:
        kept = list(_PARSED.items())  # the least recently used first
        chars = len(text) + sum(len(entry[1]) for _, entry in kept)
        for old, entry in kept:
            if len(_PARSED) < _PARSED_MAX and chars <= _PARSED_CHARS:
                break
            _PARSED.pop(old, None)
            chars -= len(entry[1])
        _PARSED[key] = (stamp, text, data, pos)
    return data, pos


def build_catalog(system: str, files: list[Path], packs: Sequence[Path | str] = (), parsed: tuple = ()) -> Catalog:
    """Parse, merge and validate; raise CatalogError listing every problem. ``parsed``: packs
    already read, as (name, data, positions), applied after ``packs`` without reading a file
    (a pack made from a spreadsheet is checked as it is made)."""
    mod = catalog_module(system)
    model_cls = mod.CATALOG_MODEL
    diags: list[Diagnostic] = []
    raw: dict = {}
    pos = FilePositions()

    folder = catalog_folder(system)
    pos.files[()] = display_path(folder)
    if not files:
        raise CatalogError(
            Diagnostic(
                str(folder),
                0,
                0,
                L_("no catalog files found"),
                code="catalog.missing",
                hint=L_("reinstall daimyo"),
            )
        )
    for f in files:
        try:
            data, p = _parse_catalog_file(f, display_path(f))
        except CatalogError:
            raise
        except Exception as exc:
            if isinstance(exc, DaimyoError):
                diags.extend(exc.diagnostics)
                continue
            raise
        if data is None:
            continue
        if not isinstance(data, dict):
            diags.append(p.diag((), L_("a catalog file must be a mapping of sections"), code="catalog.type"))
            continue
        if "system" in data and data["system"] != system:
            diags.append(
                p.diag(
                    ("system",),
                    L_("file in catalog/{system}/ says system '{system2}'", system=system, system2=data["system"]),
                    code="catalog.system",
                )
            )
        data = {k: v for k, v in data.items() if k != "system"}
        _merge_into(raw, pos, data, p, model_cls, display_path(f), diags)
    raw["system"] = system
    origin_file: dict = {}
    overrides: dict = {}
    pack_info = []
    for pf, given in [(pf, None) for pf in packs] + [(name, (d, ps)) for name, d, ps in parsed]:
        if given is not None:
            data, p = given
        else:
            try:
                data, p = load_yaml(pf, code="pack.yaml", max_entries=limits.MAX_PACK_ENTRIES)
            except DaimyoError as exc:
                diags.extend(exc.diagnostics)
                continue
        info = _pack_info(system, pf, data, p, model_cls, diags)
        if info is None:
            continue
        pack_info.append(info)
        _apply_pack(raw, pos, data, p, model_cls, str(pf), diags, origin_file, overrides)
    if diags:
        raise CatalogError(_sorted(diags))
    model = validate_model(model_cls, raw, pos)
    cat = Catalog(system, model, [str(f) for f in files], pack_info)
    cat._positions = pos
    for section in cat.sections():
        for i, e in enumerate(cat.entries(section)):
            line, _ = pos.at((section, i))
            cat.origin[(section, e.id)] = f"{pos.file_of((section, i))}:{line}"
            if (section, i) in origin_file:
                cat.from_pack[(section, e.id)] = origin_file[(section, i)]
            if (section, i) in overrides:  # what is in force is the pack's entry
                o = overrides[(section, i)]
                cat.overridden[(section, e.id)] = o
                cat.origin[(section, e.id)] = f"{o['pack']}:{o['line']}"
    diags.extend(check_unique(cat))
    cross = getattr(mod, "cross_check", None)
    if cross is not None:
        diags.extend(cross(cat))
    if diags:
        raise CatalogError(_sorted(diags))
    cat._positions = None
    return cat


def _pack_info(system: str, pf: Any, data: Any, p: Any, model_cls: Any, diags: list[Diagnostic]) -> dict | None:
    """What a catalog keeps of a pack read for ``system`` (its name, version, hash, author, ...),
    with the problems of its top-level keys added to ``diags``; None for a pack not to apply."""
    if not isinstance(data, dict):
        diags.append(p.diag((), L_("a pack must be a mapping with 'system:' and sections"), code="pack.type"))
        return None
    if data.get("system") != system:
        got = data.get("system")
        diags.append(
            p.diag(
                ("system",) if "system" in data else (),
                L_("pack is for system '{got}', not '{system}'", got=got, system=system)
                if got
                else L_("pack has no 'system:' key"),
                code="pack.system",
                hint=L_("add 'system: {system}' at the top of the pack", system=system),
            )
        )
        return None
    if "example" in data and not isinstance(data["example"], bool):
        diags.append(p.diag(("example",), L_("'{k}' must be true or false", k="example"), code="catalog.type"))
    diags.extend(meta_diagnostics(data, p))
    ident = PackId.of(data, pf)
    info = {
        "file": str(pf),
        "pack": ident.name,
        "name": ident.name,
        "version": ident.version,
        "hash": ident.hash,
        "author": ident.author,
        "url": ident.url,
        "licence": ident.licence,
        "example": bool(data.get("example", False)),
        "description": data.get("description"),
        # translations of the pack's (or the catalog's) entries: builder.catalog.overlay
        "i18n": data.get("i18n") if isinstance(data.get("i18n"), dict) else None,
    }
    diags.extend(unused_fields(system, data, p, set(entry_sections(model_cls))))
    return info


def _sorted(diags):
    return sorted(diags, key=lambda d: (d.file, d.line, d.col, d.message))


def check_unique(cat: Catalog) -> list[Diagnostic]:
    out = []
    for section in cat.sections():
        seen: dict[str, int] = {}
        for i, e in enumerate(cat.entries(section)):
            keys = {normalize(e.name): ("name", e.name)}
            keys.setdefault(normalize(e.id), ("id", e.id))
            for j, a in enumerate(e.aliases):
                keys.setdefault(normalize(a), (f"aliases[{j}]", a))
            for key, (field, shown) in keys.items():
                if key in seen and seen[key] != i:
                    other = cat.entries(section)[seen[key]]
                    path = (section, i, "name") if field in ("name", "id") else (section, i, "aliases")
                    pos = cat._positions  # set while the catalog is built, where this runs
                    at = ""
                    if pos is not None:
                        where = f"{pos.file_of((section, seen[key]))}:{pos.at((section, seen[key]))[0]}"
                        shown_at = origin_text(where)
                        # a pack by its path; daimyo's own catalog or example pack as a user names it
                        at = f" at {where}" if shown_at.startswith("pack '") else f" in {shown_at}"
                    out.append(
                        cat.diag(
                            path,
                            L_(
                                "duplicate {section} name '{shown}' (also '{name}'{at})",
                                section=section,
                                shown=shown,
                                name=other.name,
                                at=at,
                            ),
                            code="catalog.duplicate",
                            hint=L_("names, ids and aliases must be unique; use an alias for a variant spelling"),
                        )
                    )
                else:
                    seen.setdefault(key, i)
    return out


def validate_model(model_cls, raw: dict, pos) -> Any:
    """Validate with pydantic; map every error to its file, line and column."""
    from pydantic import ValidationError  # noqa: PLC0415 - pydantic only when a model is validated; `daimyo catalog list` reads the cache without it

    try:
        return model_cls.model_validate(raw)
    except ValidationError as exc:
        raise CatalogError(_sorted(pydantic_diagnostics(exc, pos, model_cls, prefix="catalog"))) from None
