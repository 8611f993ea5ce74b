"""Catalog browsing for the CLI: list, show, check."""

from __future__ import annotations

from pathlib import Path

from builder import limits
from builder.catalog.loader import entry_id, load_catalog
from builder.catalog.packfiles import resolve_pack
from builder.errors import CatalogError, Diagnostic, UsageError, option
from builder.i18n import L_, SOURCE_LANGUAGE, _, tr, use
from builder.names import did_you_mean, normalize
from builder.paths import data_root, display_path, is_file, origin_text
from builder.rulebooks import format_source, humanize, source_refs
from builder.safeout import json_text
from builder.yamlio import load_yaml


def _fields(entry) -> dict:
    d = entry if isinstance(entry, dict) else entry.model_dump()
    return {k: v for k, v in d.items() if v is not None and v != [] and v != {}}


def _short(entry) -> str:
    d = _fields(entry)
    bits = []
    for k, v in d.items():
        if k in ("id", "name", "aliases", "source", "assumed", "text", "notes", "description"):
            continue
        if isinstance(v, (str, int, float, bool)) and len(str(v)) < 30:
            bits.append(f"{k}={v}")
    return ", ".join(bits[:6])


def _shown(key, value) -> str:
    """A field's value as a player reads it: sources by rulebook title, section and line,
    yes/no for flags."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, (list, tuple)):
        return ", ".join(_shown(key, x) for x in value)
    if isinstance(value, dict):
        return ", ".join(f"{a}: {_shown(a, b)}" for a, b in value.items() if b is not None)
    if isinstance(value, str):
        if key == "source":
            return format_source(value)
        return humanize(value, bare=key in ("assumed", "notes", "description", "reading"))
    return str(value)


_OPS = ("<=", ">=", "!=", "~", "=", "<", ">")


def parse_filter(text: str) -> tuple[str, str, str]:
    """``name~samurai``, ``cost<10``, ``clan=buke`` -> (field, operator, value)."""
    at = min(((text.find(op), op) for op in _OPS if op in text), default=None)
    if at is None or at[0] <= 0:
        raise UsageError(
            L_("filter '{text}' is not FIELD=VALUE, FIELD~TEXT or FIELD<NUMBER", text=text),
            L_("e.g. {option} clan=buke, {option} name~samurai, {option} cost<10", option=option("where")),
        )
    i = at[0]
    op = next(o for o in _OPS if text.startswith(o, i))
    return text[:i].strip(), op, text[i + len(op) :].strip()


def _number(v):
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return v
    try:
        return float(str(v))
    except ValueError:
        return None


def _one(have, op: str, want: str) -> bool:
    if op == "~":
        return normalize(want) in normalize(str(have))
    if op in ("=", "!="):
        same = normalize(str(have)) == normalize(want) or (
            isinstance(have, bool) and want.lower() in (("true", "yes") if have else ("false", "no"))
        )
        return same if op == "=" else not same
    a, b = _number(have), _number(want)
    if a is None or b is None:
        return False
    return {"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op]


def _matches(entry, filters: list[tuple[str, str, str]]) -> bool:
    d = _fields(entry)
    for key, op, want in filters:
        if key not in d and f"{key}s" in d:
            key = f"{key}s"  # clan=buke also matches a list field 'clans'
        if key not in d:
            if op == "!=":
                continue
            return False
        have = d[key]
        values = have if isinstance(have, list) else [have]
        if key == "clans" and op == "=" and any(normalize(str(v)) == "any" for v in values):
            continue  # a troop every clan may take (Peasants): what 'why' and 'add' accept
        hits = [_one(v, op, want) for v in values]
        if not (all(hits) if op == "!=" else any(hits)):
            return False
    return True


def has_assumed(entry) -> bool:
    """An entry with an ``assumed`` field anywhere (itself or a value inside it)."""
    if isinstance(entry, dict):
        return ("assumed" in entry and bool(entry["assumed"])) or any(has_assumed(v) for v in entry.values())
    if isinstance(entry, list):
        return any(has_assumed(v) for v in entry)
    return False


def list_entries(system: str, section: str | None, where: list[str], packs=()) -> list[str]:
    cat = load_catalog(system, packs)
    sections = cat.sections()
    if section is not None:
        if section not in sections:
            hint = did_you_mean(section, sections) or "sections: " + ", ".join(sections)
            raise UsageError(L_("{system} has no section '{section}'", system=system, section=section), hint)
        sections = [section]
    filters = [parse_filter(w) for w in where]
    lines = []
    for sec in sections:
        rows = [e for e in cat.records(sec) if _matches(e, filters)]
        if not rows:
            continue
        lines.append(f"{sec} ({len(rows)}):")  # a section by its key, as written in the catalog
        for e in rows:
            tag = ""
            if cat.is_example(sec, e):
                tag = " " + _("[example]")
            elif has_assumed(e):
                tag = " " + _("[assumed]")
            extra = _short(e)
            lines.append(f"  {e['name']}{tag}" + (f"  ({extra})" if extra else ""))
    if not lines:
        lines.append(_("no entries match"))
    return lines


def show_entry(system: str, name: str, packs=()) -> list[str]:
    cat = load_catalog(system, packs)
    section, entry = None, None
    for sec in cat.sections():
        entry = cat.find_record(sec, name)
        if entry is not None:
            section = sec
            break
    if entry is None or section is None:  # found together
        cands = [n for s in cat.sections() for n in cat.names(s)]
        raise UsageError(
            L_("no {system} entry named '{name}'", system=system, name=name), did_you_mean(name, cands) or None
        )
    # the fields by their keys, as the catalog's files write them (data, like a list file's keys)
    lines = [
        f"{entry['name']}  " + _("({system} {section}, id {id})").format(system=system, section=section, id=entry["id"])
    ]
    over = cat.override(section, entry)
    if over is not None:
        # one origin: the pack's entry is in force; the entry it replaced is named in the same line
        lines.append(
            "  "
            + _("defined in: {origin}, which overrides {replaced}").format(
                origin=tr(_pack_origin(cat, over["pack"], over["line"])), replaced=_replaced(over)
            )
        )
        fields = ", ".join(f for f in over["fields"] if f not in ("source",))
        if _is_rulebook(over.get("base_source")):
            gives = _("the pack gives: {fields} (the other fields are the rulebook entry's)")
        else:
            gives = _("the pack gives: {fields} (the other fields are the catalog entry's)")
        lines.append("  " + gives.format(fields=fields or _("no other field")))
    for k, v in _fields(entry).items():
        if k in ("name", "id"):
            continue
        if k == "source" and over is not None:
            if "source" in over["fields"]:
                lines.append("  " + _("source given by the pack: {source}").format(source=_shown(k, v)))
            continue
        if isinstance(v, list) and v and isinstance(v[0], dict):
            lines.append(f"  {k}:")
            for item in v:
                lines.append("    - " + ", ".join(f"{a}: {_shown(a, b)}" for a, b in item.items() if b is not None))
        elif isinstance(v, list):
            if v:
                lines.append(f"  {k}: " + ", ".join(_shown(k, x) for x in v))
        elif isinstance(v, dict):
            lines.append(f"  {k}: " + ", ".join(f"{a}: {_shown(a, b)}" for a, b in v.items() if b is not None))
        else:
            lines.append(f"  {k}: {_shown(k, v)}")
    if over is not None:
        return lines

    pack = getattr(cat, "from_pack", {}).get((section, entry["id"]))
    where = cat.where(section, entry)
    if pack and where:
        file, _sep, line = where.rpartition(":")
        origin = tr(_pack_origin(cat, file, int(line) if line.isdigit() else 0))
        lines.append("  " + _("defined in: {origin}").format(origin=origin))
        return lines
    where = tr(origin_text(where))
    if where:
        if cat.is_example(section, entry):
            said = _("defined in: {origin} (example data, not from the rulebook)")
        else:
            said = _("defined in: {origin}")
        lines.append("  " + said.format(origin=where))
    return lines


def _is_rulebook(source) -> bool:
    """Whether ``source`` cites a rulebook (file and line), rather than being a note."""
    return bool(source) and bool(source_refs(str(source)))


def complete_in(cat, section: str, entry) -> str:
    """Where a player completes ``entry`` (a model or a record), as a finding's hint says it: the
    pack that gives it, with its file and the entry's line, or a pack of their own."""
    where = cat.where(section, entry)
    if not (getattr(cat, "from_pack", {}).get((section, entry_id(entry))) and where):
        return L_("a pack of your own (an entry of the same name completes it)")
    file, _sep, line = where.rpartition(":")
    origin = _pack_origin(cat, file, int(line) if line.isdigit() else 0)
    shown = display_path(file)
    if Path(shown).is_absolute():  # not below the current folder (a server's workspace): the file's name
        origin = origin.replace(f"({shown}:", f"({Path(file).name}:", 1)
    return L_("its {origin}", origin=origin)


def _pack_origin(cat, file: str, line: int) -> str:
    """A pack entry as its user finds it: the pack's name, its file (as typed, or the file name of
    a pack bundled with daimyo) and the entry's line."""
    info: dict = next((p for p in cat.packs if p.get("file") == file), {})
    name = info.get("name") or info.get("pack") or Path(file).stem
    example = info.get("example")
    at = f":{line}" if line else ""
    try:
        Path(file).resolve().relative_to(data_root().resolve())
        bundled = True
    except (ValueError, OSError):
        bundled = False
    where = f"{Path(file).name if bundled else display_path(file)}{at}"
    if bundled and example:
        return L_(
            "the bundled example pack '{name}' ({where}; example data, not from the rulebook)", name=name, where=where
        )
    if bundled:
        return L_("the bundled example pack '{name}' ({where})", name=name, where=where)
    if example:
        return L_("pack '{name}' ({where}; example data, not from the rulebook)", name=name, where=where)
    return L_("pack '{name}' ({where})", name=name, where=where)


def _replaced(over: dict) -> str:
    """The entry a pack overrides, as a player names it: the rulebook's title and section, or
    the catalog's (or an earlier pack's) entry when it cites no rulebook."""
    src = over.get("base_source")
    if _is_rulebook(src):
        return _("the rulebook's entry ({source})").format(source=format_source(src, inline=True))
    where = tr(origin_text(over.get("base_where")))
    if not where:
        return _("the catalog's entry")
    if src:
        return _("the entry of {origin}; {note}").format(origin=where, note=humanize_note(src))
    return _("the entry of {origin}; not in the rulebook").format(origin=where)


def humanize_note(text) -> str:
    return humanize(str(text), bare=True)


def check_catalogs(system: str | None, packs=(), games: tuple[str, ...] = ()) -> list[str]:
    """Validate the catalog of every game of ``games`` (the registry's ids, which the caller
    gives) or of ``system`` alone; packs go with the game they name."""
    by_system: dict[str, list[str]] = {s: [] for s in games}
    diags: list[Diagnostic] = []
    for p in packs:
        if not is_file(p):
            p = str(resolve_pack(str(p), None, system) or p)
        try:
            data, pos = load_yaml(p, code="pack.yaml", max_entries=limits.MAX_PACK_ENTRIES)
        except Exception as exc:  # DaimyoError
            diags.extend(getattr(exc, "diagnostics", []))
            continue
        s = data.get("system") if isinstance(data, dict) else None
        if s not in games:
            diags.append(
                pos.diag(
                    ("system",) if isinstance(data, dict) and "system" in data else (),
                    L_("pack names no known system ({s!r})", s=s),
                    code="pack.system",
                    hint=L_("add 'system:' with one of {values}", values=", ".join(games)),
                )
            )
            continue
        by_system[s].append(p)
    lines = []
    for s in games:
        if system and s != system:
            continue
        try:
            cat = load_catalog(s, by_system[s], use_cache=False)
        except CatalogError as exc:
            diags.extend(exc.diagnostics)
            continue
        n = sum(len(cat.records(sec)) for sec in cat.sections())
        assumed = sum(1 for sec in cat.sections() for e in cat.records(sec) if has_assumed(e))
        extra = f" with {len(by_system[s])} pack(s)" if by_system[s] else ""
        lines.append(
            f"{s}: ok, {n} entries ({assumed} with assumed fields), {len(cat.raw.get('house_rules') or [])} house rules{extra}"
        )
    if diags:
        err = CatalogError(diags)
        err.ok_lines = lines
        raise err
    return lines


def house_rules_lines(cat, system: str, format: str = "text") -> list[str]:
    """The lines of ``daimyo rules SYSTEM``: each house-rule parameter with its default reading,
    the alternatives and the rulebook sources (``format``: text, markdown or json, one string)."""
    hrs = cat.model.house_rules
    out: list[str] = []
    if format == "markdown":
        out.append("| parameter | default | alternatives | sources |")
        out.append("| --- | --- | --- | --- |")
        for h in hrs:
            alts = "; ".join(f"`{a.value}`: {humanize(a.reading)}" for a in h.alternatives) or "any agreed value"
            srcs = "; ".join(
                dict.fromkeys(format_source(x) for x in [h.source, *(a.source for a in h.alternatives)] if x)
            )
            cell = lambda t: str(t).replace("|", "\\|").replace("\n", " ")  # noqa: E731
            out.append(
                f"| `{h.id}` | `{_fmt_value(h.default)}`: {cell(humanize(h.reading))} | {cell(alts)} | "
                f"{cell(srcs or humanize(h.assumed) or '')} |"
            )
        return out
    if format == "json":
        rows = []
        for h in hrs:
            d = h.model_dump(exclude_none=True)
            for item, model in [(d, h), *zip(d.get("alternatives", []), h.alternatives, strict=False)]:
                if getattr(model, "source", None):
                    with use(SOURCE_LANGUAGE):  # machine output: the same in every language
                        item["source_text"] = format_source(model.source)
            rows.append(d)
        return [json_text(rows, indent=2, default=str)]
    if not hrs:
        out.append(_("{system}: no house-rule parameters").format(system=system))
    for h in hrs:
        out.append(f"{h.id} = {_fmt_value(h.default)}   {h.title}")
        out.append(f"    {humanize(h.description)}")
        out.append(
            "    "
            + _("default: {reading}").format(reading=humanize(h.reading))
            + (f" ({format_source(h.source, inline=True)})" if h.source else "")
        )
        for a in h.alternatives:
            out.append(
                "    "
                + _("alternative {value}: {reading}").format(value=_fmt_value(a.value), reading=humanize(a.reading))
                + (f" ({format_source(a.source, inline=True)})" if a.source else "")
            )
        if h.assumed:
            out.append("    " + _("assumed: {reading}").format(reading=humanize(h.assumed)))
    return out


def _fmt_value(v) -> str:
    """A house-rule value as a list file writes it (true/false, numbers and words bare)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "none"
    return str(v)
