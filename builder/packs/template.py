"""``daimyo pack new SYSTEM``: a commented pack template generated from the catalog models."""

from __future__ import annotations

import io

from ruamel.yaml import YAML

from builder.catalog.loader import load_catalog
from builder.catalog.packfiles import bundled_dir, pack_files, read_header
from builder.names import slug
from builder.packs.fields import entry_fields, main_sections, sections
from builder.systems import get

SHOW_VALUES = 14


def _dump(data) -> str:
    y = YAML()
    y.default_flow_style = None
    y.width = 4096
    y.indent(mapping=2, sequence=4, offset=2)
    buf = io.StringIO()
    y.dump(data, buf)
    return buf.getvalue()


def _example_catalog(system: str):
    """The catalog with the bundled example pack(s) of the system (examples are complete)."""
    packs = [str(p) for p in pack_files(bundled_dir()) if read_header(p).system == system]
    try:
        return load_catalog(system, packs)
    except Exception:  # the bundled packs are checked by the tests; fall back to the catalog
        return load_catalog(system)


def example_entry(catalog, system: str, section: str) -> dict | None:
    """The fullest entry of the section, as a pack would write it."""
    fields = [f.name for f in entry_fields(system, section)]
    best, score = None, -1
    for rec in catalog.records(section):
        clean = {}
        for k in fields:
            v = rec.get(k)
            if v in (None, [], {}, "") or k == "source" or (k == "id" and v == slug(rec.get("name", ""))):
                continue
            if k == "unknown_suit" and v is False:
                continue
            clean[k] = _plain(v)
        if len(clean) > score:
            best, score = clean, len(clean)
    return best


def _plain(v):
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items() if x is not None}
    if isinstance(v, list):
        return [_plain(x) for x in v]
    if isinstance(v, (str, int, float, bool)) or v is None:
        return v
    return str(v)


def _values(catalog, section: str) -> str:
    names = catalog.names(section)
    if not names:
        return ""
    shown = ", ".join(names[:SHOW_VALUES]) + (f", ... ({len(names)} in all)" if len(names) > SHOW_VALUES else "")
    return f"; catalog values: {shown}"


def render_template(system: str, name: str = "My pack") -> str:
    cat = _example_catalog(system)
    out = [
        f"# A daimyo pack for {get(system).title}.",
        "# Entries named like a catalog entry complete or change it (only the fields you give);",
        "# any other entry is added. Only 'name' is required in an entry; leave out what you do not know.",
        "#   check it:  daimyo pack check THIS-FILE",
        "#   use it:    daimyo check LIST --pack THIS-FILE   (or 'packs: [THIS-FILE]' in a list)",
        "#   share it:  daimyo pack install THIS-FILE, then name it without a path: --pack NAME",
        "#   spreadsheet: daimyo pack export THIS-FILE --to csv  /  daimyo pack import FILE.csv",
        "",
        f"system: {system}",
        f"name: {_scalar(name)}    # the pack's name: lists and --pack may name it without a path",
        "version: '1'         # any text; raise it when you change the pack",
        "# author: your name",
        "# url: where the pack is published",
        "# licence: the terms you share it under, e.g. CC-BY-4.0",
        "# description: one line about the pack",
        "",
    ]
    for section in main_sections(system):
        out.extend(_section_doc(cat, system, section))
    others = [s for s in sections(system) if s not in main_sections(system)]
    if others:
        out.append("# Other sections a pack may hold, each a list of entries with these fields")
        out.append(f"# (see 'daimyo catalog list {system} SECTION' and 'daimyo catalog show {system} NAME'):")
        for s in others:
            names = ", ".join(f.name for f in entry_fields(system, s) if f.name not in ("source",))
            out.append(f"#   {s}: {names}")
    return "\n".join(out).rstrip("\n") + "\n"


def _section_doc(cat, system: str, section: str) -> list[str]:
    fields = entry_fields(system, section)
    width = max(len(f.name) for f in fields)
    out = [
        f"# -- {section} " + "-" * max(4, 70 - len(section)),
        "# One entry per item. Fields (lists are written [a, b]):",
    ]
    for f in fields:
        req = " (required)" if f.required else ""
        values = _values(cat, f.values_from) if f.values_from else ""
        out.append(f"#   {f.name:<{width}}  {f.describe()}{req}: {f.meaning}{values}")
    ex = example_entry(cat, system, section)
    if ex:
        out.append("# Example entry (remove the '# ' in front of each line to use it):")
        text = _dump([ex])
        out.extend("# " + ln if ln else "#" for ln in text.rstrip("\n").split("\n"))
    out.append(f"{section}: []    # write your entries here, in place of [], as in the example")
    out.append("")
    return out


def _scalar(text: str) -> str:
    return _dump(text).split("\n")[0] if text else "''"
