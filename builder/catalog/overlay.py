"""Game data in other languages: a translation overlay per game and language gives an entry a
display name and rules text, and its names are read as aliases of the entry.

The names in the catalog stay the keys: list files, share codes, fingerprints and packs name an
entry by its catalog name (or id), whatever the language a list is shown in. An overlay only
changes what a page shows in that language (``display_name``, ``display_text``), and lets a list
or a pasted text written with a translated name open anywhere (``alias_index``: the catalog's
``find`` falls back to it).

Where overlays come from (docs/i18n-data.md):

* ``catalog/<system>/i18n/<lang>.yaml`` (``i18n/`` of the game's catalog folder): the game's own
  overlay, a mapping of catalog sections to ``{entry name or id: {name: ..., text: ...,
  aliases: [...]}}`` (a plain string is the name alone), with a ``sources:`` note on where the
  terms come from;
* a pack's ``i18n:`` section, ``{lang: {section: {entry: {name, text, aliases}}}}``, for its
  own entries or the catalog's: it wins over the game's overlay.

An overlay entry whose key names no entry of the section is left out (``problems`` lists it,
and the tests keep the shipped overlays free of them).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from builder import state
from builder.i18n import SOURCE_LANGUAGE, current_language
from builder.names import normalize
from builder.systems import catalog_folder, is_system
from builder.yamlio import load_yaml

META = ("language", "sources", "assumed")  # top-level keys of an overlay file that are not sections


def overlay_dir(system: str) -> Path | None:
    """The game's ``i18n`` folder in its catalog folder; None for a game not registered (now)."""
    return catalog_folder(system) / "i18n" if is_system(system) else None


def languages(system: str) -> list[str]:
    """The languages the game's own overlays are written in."""
    folder = overlay_dir(system)
    return sorted(p.stem for p in folder.glob("*.yaml")) if folder is not None and folder.is_dir() else []


@state.memo(
    "overlay.files", bound=64, lifetime=state.PROCESS, doc="a game's overlay file, by system, language and mtime"
)
def _read(path: str, mtime: float) -> dict:
    data, _pos = load_yaml(path)
    return data if isinstance(data, dict) else {}


def _file_overlay(system: str, lang: str) -> dict:
    folder = overlay_dir(system)
    if folder is None:
        return {}
    path = folder / f"{lang}.yaml"
    try:
        mtime = path.stat().st_mtime
    except OSError:
        return {}
    return _read(str(path), mtime)


def _sources(catalog: Any, lang: str) -> list[dict]:
    """The overlays of ``lang`` for ``catalog``: the game's, then each pack's (later wins)."""
    out = [_file_overlay(catalog.system, lang)]
    for pack in getattr(catalog, "packs", None) or []:
        own = (pack.get("i18n") or {}).get(lang) if isinstance(pack.get("i18n"), dict) else None
        if isinstance(own, dict):
            out.append(own)
    return out


def _entries(data: dict):
    """(section, key, {name, text, aliases}) of an overlay mapping."""
    for section, items in data.items():
        if section in META or not isinstance(items, dict):
            continue
        for key, value in items.items():
            if isinstance(value, str):
                value = {"name": value}
            if isinstance(value, dict):
                yield str(section), str(key), value


def overlay(catalog: Any, lang: str) -> dict[tuple[str, str], dict]:
    """``{(section, entry id): {"name": ..., "text": ...}}`` of ``lang`` for ``catalog``."""
    memo = catalog.memo("overlay")
    hit = memo.get(lang)
    if hit is not None:
        return hit
    out: dict[tuple[str, str], dict] = {}
    if lang != SOURCE_LANGUAGE:
        for n, data in enumerate(_sources(catalog, lang)):
            for section, key, value in _entries(data):
                entry = catalog.find_record(section, key, aliases=False) if section in catalog.sections() else None
                if entry is None:
                    continue
                if n == 0 and normalize(key) not in (normalize(entry["name"]), normalize(entry["id"])):
                    continue  # a pack renamed the entry: the game's translation of the old name is not its name
                slot = out.setdefault((section, entry["id"]), {})
                for field in ("name", "text"):
                    if isinstance(value.get(field), str) and value[field].strip():
                        slot[field] = value[field].strip()
    memo[lang] = out
    return out


def problems(catalog: Any, lang: str) -> list[str]:
    """What in the game's overlay of ``lang`` names no entry (a section or an entry unknown)."""
    out = []
    for section, key, value in _entries(_file_overlay(catalog.system, lang)):
        if section not in catalog.sections():
            out.append(f"{section}: not a section of the {catalog.system} catalog")
        elif catalog.find_record(section, key, aliases=False) is None:
            out.append(f"{section}: '{key}' is not in the catalog")
        else:  # a translated name that is another entry's name would be read as that entry
            own = catalog.find_record(section, key, aliases=False)
            for name in [value.get("name"), *(value.get("aliases") or [])]:
                other = catalog.find_record(section, name, aliases=False) if isinstance(name, str) else None
                if other is not None and other["id"] != own["id"]:
                    out.append(f"{section}: '{key}' is translated '{name}', the name of another entry")
    return out


def _id(entry: Any) -> str | None:
    if entry is None:
        return None
    if isinstance(entry, dict):
        return entry.get("id")
    return getattr(entry, "id", None)


def _name(entry: Any) -> str:
    if isinstance(entry, dict):
        return str(entry.get("name", ""))
    return str(getattr(entry, "name", entry))


def display_name(catalog: Any, section: str, entry: Any, lang: str | None = None) -> str:
    """The name of ``entry`` (an entry, its record, or a name to look up) as a page in ``lang``
    (the current language) shows it: the overlay's, else the catalog's."""
    lang = lang or current_language()
    if isinstance(entry, str):  # a name as written: kept as written unless the overlay has one
        found = catalog.find(section, entry) if (catalog is not None and lang != SOURCE_LANGUAGE) else None
        if found is None:
            return entry
        got = overlay(catalog, lang).get((section, _id(found) or ""), {})
        return got.get("name") or entry
    if catalog is None or lang == SOURCE_LANGUAGE:
        return _name(entry)
    got = overlay(catalog, lang).get((section, _id(entry) or ""), {})
    return got.get("name") or _name(entry)


def display_text(catalog: Any, section: str, entry: Any, default: Any, lang: str | None = None) -> Any:
    """The rules text of ``entry`` in ``lang`` (the current language): the overlay's, else
    ``default`` (the catalog's text); nothing when the catalog has no text to print."""
    lang = lang or current_language()
    if catalog is None or entry is None or lang == SOURCE_LANGUAGE or not default:
        return default  # the overlay translates the text a page prints; it adds none
    if isinstance(entry, str):
        entry = catalog.find(section, entry)
    got = overlay(catalog, lang).get((section, _id(entry) or ""), {})
    return got.get("text") or default


def _all_languages(catalog: Any) -> list[str]:
    """The languages of the game's overlays and of its packs' ``i18n:`` sections."""
    langs = set(languages(catalog.system))
    for pack in getattr(catalog, "packs", None) or []:
        if isinstance(pack.get("i18n"), dict):
            langs.update(str(k) for k in pack["i18n"])
    return sorted(langs)


def alias_index(catalog: Any, section: str) -> dict[str, int]:
    """``{normalized translated name or alias: entry index}`` of a section, from every
    language's overlay (the game's and the packs'): a list written in any language opens."""
    memo = catalog.memo("overlay_aliases")
    hit = memo.get(section)
    if hit is not None:
        return hit
    ids = {r["id"]: i for i, r in enumerate(catalog.records(section))}
    out: dict[str, int] = {}
    for lang in _all_languages(catalog):
        for data in _sources(catalog, lang):
            for sec, key, value in _entries(data):
                if sec != section:
                    continue
                entry = catalog.find_record(section, key, aliases=False)
                if entry is None or entry["id"] not in ids:
                    continue
                names = [value.get("name")] + list(value.get("aliases") or [])
                for name in names:
                    if isinstance(name, str) and name.strip():
                        out.setdefault(normalize(name), ids[entry["id"]])
    memo[section] = out
    return out


def translated_names(catalog: Any, section: str, lang: str) -> list[str]:
    """Every name and alias of a section's entries in ``lang``'s overlay (for did-you-mean)."""
    memo = catalog.memo("overlay_names")
    hit = memo.get((section, lang))
    if hit is None:
        hit = []
        if lang in _all_languages(catalog):
            for data in _sources(catalog, lang):
                for sec, _key, value in _entries(data):
                    if sec == section:
                        hit.extend(n for n in [value.get("name"), *(value.get("aliases") or [])] if isinstance(n, str))
        memo[(section, lang)] = hit
    return hit


def entry_translation(catalog: Any, entry: Any, field: str, lang: str | None = None) -> str | None:
    """The overlay's ``field`` (``name`` or ``text``) of ``entry`` in ``lang`` (the current
    language), whatever section it is in; None when the overlay has none."""
    lang = lang or current_language()
    if catalog is None or entry is None or lang == SOURCE_LANGUAGE:
        return None
    ident = _id(entry)
    if not ident:
        return None
    table = overlay(catalog, lang)
    if not table:
        return None
    for section in catalog.sections():
        got = table.get((section, ident))
        if got and got.get(field):
            return str(got[field])
    return None
