"""Packs as spreadsheets: ``daimyo pack import`` and ``daimyo pack export``.

A sheet holds one row per entry and one column per field; the header names the fields
(those of the catalog models, ``builder.packs.fields``). A list field (paths, abilities,
aliases, ...) is one cell with its values separated by ``;`` (``Earth; Water``); a value
that holds a ``;`` itself is written as a YAML flow list (``["a;b", c]``). A mapping field
(a Kensei ``profile``) is a YAML flow mapping (``{mov: 10, at: 2}``). Empty cells are fields
left out. ``true``/``false`` (also yes/no, 1/0) for true-or-false fields.

CSV: one file; a ``section`` column says which section each row belongs to when a pack has
rows of several sections (without it every row goes to ``--section``, by default the
system's main section: cards, troops, action cards, provinces). The pack-level keys are
lines at the top, before the header: ``# system: senshiai``, ``# name: My cards``,
``# version: 1`` (a spreadsheet shows them as one cell each; other ``#`` lines are
comments). The separator of the file (comma, semicolon or tab) is read from the header.
XLSX: a sheet ``pack`` with the pack-level keys (key in column A, value in column B) and one
sheet per section, named after it.

Every bad cell is one line ``FILE:ROW:COLUMN: error: SECTION.FIELD: ...``; nothing is
written when any row is bad.
"""

from __future__ import annotations

import bisect
import csv
import io
import json
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.scalarstring import LiteralScalarString

from builder import SYSTEMS, limits, yamlio
from builder.catalog.loader import load_catalog
from builder.errors import CatalogError, DaimyoError, Diagnostic, UsageError, option
from builder.i18n import L_
from builder.limits import MAX_SHEET_UNPACKED
from builder.names import did_you_mean
from builder.packs.fields import LIST_SEPARATOR, FieldInfo, entry_fields, main_sections, sections
from builder.packs.manage import check_pack
from builder.paths import display_path
from builder.safeout import CsvRows, from_spreadsheet, spreadsheet_text
from builder.systems import catalog_module
from builder.yamlio import Positions, read_text

SHEET_FORMATS = ("csv", "xlsx")
META_ORDER = ("system", "name", "version", "author", "url", "licence", "description", "example")
_TRUE = {"true", "yes", "y", "1", "x", "on"}
_FALSE = {"false", "no", "n", "0", "off"}


@dataclass
class Row:
    section: str
    row: int  # 1-based row in the sheet
    cells: dict[str, Any]  # field -> (text, column)


@dataclass
class Sheet:
    """What a spreadsheet file holds, before conversion."""

    file: str  # as shown in messages (for xlsx: FILE#SHEET per row, see ``label``)
    meta: dict[str, Any] = field(default_factory=dict)  # key -> (text, row, col)
    rows: list[Row] = field(default_factory=list)
    labels: dict[str, str] = field(default_factory=dict)  # section -> file label for messages

    def label(self, section: str) -> str:
        return self.labels.get(section, self.file)


def sheet_format(path: str) -> str:
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix in ("csv", "tsv", "txt"):
        return "csv"
    if suffix in ("xlsx", "xlsm"):
        return "xlsx"
    if suffix == "ods":
        raise UsageError(
            L_("'{path}': .ods spreadsheets are not read", path=path), L_("save the sheet as .csv or .xlsx")
        )
    raise UsageError(L_("'{path}' is not a .csv or .xlsx file", path=path), L_("give a .csv or .xlsx spreadsheet"))


# -- reading -------------------------------------------------------------------------------


def _header_map(
    sheet: Sheet,
    system: str,
    header: list[Any],
    row_no: int,
    label: str,
    default_section: str | None,
    diags: list[Diagnostic],
) -> tuple[dict[int, str], int | None]:
    """column index -> field name (or 'section'); index of the section column."""
    known: set[str] = set()
    for s in sections(system):
        known.update(f.name for f in entry_fields(system, s))
    cols: dict[int, str] = {}
    sec_col: int | None = None
    for i, h in enumerate(header):
        name = str(h or "").strip()
        if not name:
            continue
        key = name.lower().replace(" ", "_")
        if key == "section":
            sec_col = i
            continue
        if key not in known and key in ("art", "focus"):  # a section the game never prints with art
            diags.append(
                Diagnostic(
                    label,
                    row_no,
                    i + 1,
                    L_(
                        "column '{name}' is not used: {system} prints no card with art; remove the column",
                        name=name,
                        system=system,
                    ),
                )
            )
            continue
        if key not in known:
            hint = did_you_mean(name, sorted(known)) or "the header names fields such as " + ", ".join(
                f.name for f in entry_fields(system, default_section or main_sections(system)[0])[:6]
            )
            diags.append(Diagnostic(label, row_no, i + 1, L_("unknown column '{name}'", name=name), hint=hint))
            continue
        if key in cols.values():
            diags.append(
                Diagnostic(
                    label,
                    row_no,
                    i + 1,
                    L_("column '{name}' appears twice", name=name),
                    hint=L_("each field has one column"),
                )
            )
            continue
        cols[i] = key
    if "name" not in cols.values():
        diags.append(
            Diagnostic(
                label,
                row_no,
                1,
                L_("no 'name' column"),
                hint=L_("the first row names the fields; every entry needs a name"),
            )
        )
    return cols, sec_col


def read_csv(path: str | Path, system: str | None, default_section: str | None) -> tuple[Sheet, list[Diagnostic]]:
    shown = display_path(path)
    text = read_text(path, display=shown).lstrip("\ufeff")
    sheet = Sheet(shown)
    diags: list[Diagnostic] = []
    delim = _delimiter(text)
    reader = csv.reader(io.StringIO(text), delimiter=delim)
    header: list[str] | None = None
    cols: dict[int, str] = {}
    sec_col: int | None = None
    # one pass over the text: each record with the physical line it starts on (the reader's
    # line count before the record, plus one; a quoted cell may span lines)
    records, before = [], 0
    try:
        for cells in reader:
            records.append((before + 1, cells))
            before = reader.line_num
    except csv.Error as exc:
        raise DaimyoError(Diagnostic(shown, reader.line_num, 1, L_("CSV syntax: {exc}", exc=exc))) from None
    for row_no, cells in records:
        filled = [c for c in cells if c.strip()]
        if not filled:
            continue
        if cells[0].lstrip().startswith("#") and all(not c.strip() for c in cells[1:]):
            if header is None:  # '# key: value' before the header: a pack-level key (else a comment)
                m = re.match(r"^#\s*([A-Za-z_]+)\s*:\s*(.*?)\s*$", cells[0].strip())
                if m:
                    sheet.meta[m.group(1).lower()] = (m.group(2), row_no, 1)
            continue
        if header is None:
            header = cells
            system = system or _meta_system(sheet)
            if system is None:
                raise UsageError(
                    L_("the sheet does not say its system"),
                    L_(
                        "pass {option} (senshiai, kensei, herocard, senji or satsuma) or start the file with a line '# system: senshiai'",
                        option=option("system"),
                    ),
                )
            cols, sec_col = _header_map(sheet, system, header, row_no, shown, default_section, diags)
            if "name" not in cols.values():
                break  # every row would lack its name: the header line says it once
            continue
        if len(cells) > len(header) and any(c.strip() for c in cells[len(header) :]):
            diags.append(
                Diagnostic(
                    shown,
                    row_no,
                    len(header) + 1,
                    L_("a value right of the last column"),
                    hint=L_("give the column a header or remove the value"),
                )
            )
        section = default_section
        if sec_col is not None and sec_col < len(cells) and cells[sec_col].strip():
            section = cells[sec_col].strip()
        vals = {cols[i]: (cells[i], i + 1) for i in cols if i < len(cells) and cells[i].strip()}
        sheet.rows.append(Row(section or "", row_no, vals))
        if sec_col is not None:
            sheet.rows[-1].cells["__section_col__"] = ("", sec_col + 1)
    if header is None:
        raise DaimyoError(
            Diagnostic(
                shown, 1, 1, L_("no header row"), hint=L_("the first row names the fields: name, type, cost, ...")
            )
        )
    return sheet, diags


def _delimiter(text: str) -> str:
    """The separator (comma, semicolon or tab) the header line uses most: the first line that is
    neither blank nor a '#' line (read without splitting the whole text)."""
    at = 0
    while at < len(text):
        end = text.find("\n", at)
        end = len(text) if end < 0 else end
        line = text[at:end]
        if line.strip() and not line.lstrip().startswith("#"):
            return max((",", ";", "\t"), key=lambda d: line.count(d))
        at = end + 1
    return ","


def _meta_system(sheet: Sheet) -> str | None:
    v = sheet.meta.get("system")
    return v[0].strip().lower() if v and v[0].strip() else None


def _check_unpacked(path: str | Path, shown: str) -> None:
    """Refuse a workbook whose parts declare more than MAX_SHEET_UNPACKED bytes (a zip's reader
    never gives more than a part declares); a file that is no zip is left to the reader."""
    try:
        with zipfile.ZipFile(path) as z:
            size = sum(i.file_size for i in z.infolist())
    except (zipfile.BadZipFile, OSError, ValueError):
        return
    if size > MAX_SHEET_UNPACKED:
        raise DaimyoError(
            Diagnostic(
                shown,
                0,
                0,
                L_(
                    "the workbook unpacks to {value:.0f} MiB, over the limit of {value2} MiB; not read",
                    value=size / 1048576,
                    value2=MAX_SHEET_UNPACKED // 1048576,
                ),
                hint=L_("save the sheet alone as .csv, or split it"),
            )
        )


def _openpyxl(missing: UsageError) -> Any:
    """openpyxl, imported for an .xlsx file only; ``missing`` is raised when it is not installed."""
    try:
        import openpyxl  # noqa: PLC0415 - openpyxl only for .xlsx files; its absence is answered in one line
    except ImportError:  # pragma: no cover - a dependency
        raise missing from None
    return openpyxl


def read_xlsx(path: str | Path, system: str | None, default_section: str | None) -> tuple[Sheet, list[Diagnostic]]:
    shown = display_path(path)
    openpyxl = _openpyxl(
        UsageError(L_("reading .xlsx needs the openpyxl package"), L_("pip install openpyxl, or save as .csv"))
    )
    _check_unpacked(path, shown)
    try:
        book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # zip or XML damage: one line
        raise DaimyoError(
            Diagnostic(
                shown,
                0,
                0,
                L_("not a readable .xlsx workbook ({name})", name=type(exc).__name__),
                hint=L_("save it again from the spreadsheet program, or as .csv"),
            )
        ) from None
    sheet = Sheet(shown)
    diags: list[Diagnostic] = []
    try:
        ws_meta = next((ws for ws in book.worksheets if ws.title.strip().lower() == "pack"), None)
        if ws_meta is not None:
            for r, row in enumerate(ws_meta.iter_rows(values_only=True), 1):
                if not row or row[0] is None:
                    continue
                key = str(row[0]).strip().lower().rstrip(":")
                if key.startswith("#") or not key:
                    continue
                val = row[1] if len(row) > 1 else None
                sheet.meta[key] = ("" if val is None else from_spreadsheet(_cell_text(val)), r, 2)
        system = system or _meta_system(sheet)
        if system is None:
            raise UsageError(
                L_("the workbook does not say its system"),
                L_(
                    "pass {option} or add a sheet 'pack' with 'system' in A1 and the system in B1",
                    option=option("system"),
                ),
            )
        allowed = sections(system)
        for ws in book.worksheets:
            if ws is ws_meta:
                continue
            label = f"{shown}#{ws.title}"
            title = ws.title.strip().lower().replace(" ", "_")
            if title in allowed:
                section = title
            elif len(book.worksheets) - (ws_meta is not None) == 1:
                section = default_section
            else:
                diags.append(
                    Diagnostic(
                        label,
                        1,
                        1,
                        L_("sheet '{title}' is not a section of a {system} pack", title=ws.title, system=system),
                        hint=did_you_mean(ws.title, allowed) or L_("sections: {values}", values=", ".join(allowed)),
                    )
                )
                continue
            sheet.labels[section] = label
            header: list[str] | None = None
            cols: dict[int, str] = {}
            for r, row in enumerate(ws.iter_rows(values_only=True), 1):
                cells = ["" if v is None else _cell_text(v) for v in (row or ())]
                if not any(c.strip() for c in cells):
                    continue
                if header is None:
                    header = cells
                    cols, _ = _header_map(sheet, system, header, r, label, section, diags)
                    continue
                vals = {cols[i]: (cells[i], i + 1) for i in cols if i < len(cells) and cells[i].strip()}
                sheet.rows.append(Row(section, r, vals))
    finally:
        book.close()
    return sheet, diags


def _cell_text(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


# -- converting ----------------------------------------------------------------------------


def _convert(f: FieldInfo, text: str) -> Any:
    """The value of one cell; ValueError with a message naming what was expected. A text cell
    the export wrote with a leading ``'`` (``'=SUM(1)``, ``'-2``) is that text exactly, without
    the apostrophe and unstripped."""
    raw = from_spreadsheet(text)
    if raw is not text and f.kind in ("text", "choice", "value"):
        return _scalar("text", raw, f) if f.kind == "value" else _scalar(f.kind, raw, f)
    t = raw.strip()
    if f.kind in ("mapping", "items"):
        return _flow(t, "mapping" if f.kind == "mapping" else "list")
    if f.kind == "list":
        if t.startswith("["):
            items = _flow(t, "list")
        else:
            items = [x.strip() for x in t.split(LIST_SEPARATOR) if x.strip()]
        return [_scalar(f.item_kind, x, f) if isinstance(x, str) else x for x in items]
    return _scalar(f.kind, t, f)


def _scalar(kind: str | None, t: str, f: FieldInfo) -> Any:
    if kind == "int":
        if re.fullmatch(r"[+-]?[0-9]+", t):
            return int(t)
        raise ValueError(f"'{t}' is not a whole number")
    if kind == "number":
        if re.fullmatch(r"[+-]?[0-9]+", t):
            return int(t)
        try:
            v = float(t.replace(",", ".")) if re.fullmatch(r"[+-]?[0-9]*[.,][0-9]+", t) else float(t)
        except ValueError:
            raise ValueError(f"'{t}' is not a number") from None
        if v != v or v in (float("inf"), float("-inf")):
            raise ValueError(f"'{t}' is not a number")
        return v
    if kind == "bool":
        if t.lower() in _TRUE:
            return True
        if t.lower() in _FALSE:
            return False
        raise ValueError(f"'{t}' is not true or false")
    if kind == "choice":
        for c in f.choices:
            if str(c).lower() == t.lower():
                return c
        return t  # the model's own validator words the message (and accepts its aliases)
    if kind == "value":
        return int(t) if re.fullmatch(r"[+-]?[0-9]+", t) else t
    return t


def _flow(t: str, want: str) -> Any:
    try:
        data, _ = yamlio.parse_yaml(t, "<cell>")
    except DaimyoError as exc:
        msg = exc.diagnostics[0].message if exc.diagnostics else "not YAML"
        raise ValueError(f"cannot read '{t}' as a {want} ({msg})") from None
    if want == "mapping" and not isinstance(data, dict):
        raise ValueError(f"'{t}' is not a mapping such as {{mov: 10, at: 2}}")
    if want == "list" and not isinstance(data, list):
        raise ValueError(f"'{t}' is not a list such as [a, b]")
    return data


def sheet_to_pack(
    sheet: Sheet, system: str, overrides: dict[str, Any], assumed: str | None = None
) -> tuple[dict[str, Any], list[Diagnostic], dict[tuple[str, int], tuple[str, Row]]]:
    """(pack data, diagnostics, where) where maps (section, index) -> Row. ``assumed`` is written
    into rows that give neither ``source`` nor ``assumed`` (every entry says where it is from)."""
    diags: list[Diagnostic] = []
    data: dict[str, Any] = {"system": system}

    roots = set(catalog_module(system).CATALOG_MODEL.model_fields) - set(sections(system))
    for key, (text, row, col) in sheet.meta.items():
        key = {"pack": "name", "license": "licence"}.get(key, key)
        if key not in META_ORDER and key not in roots:
            continue  # a comment line that looks like 'word: text'
        if key == "system":
            if text.strip().lower() != system:
                diags.append(
                    Diagnostic(
                        sheet.file,
                        row,
                        col,
                        L_(
                            "the sheet says system '{text}' but {option} is {system}",
                            text=text,
                            option=option("system"),
                            system=system,
                        ),
                        hint=L_("drop one of them or make them agree"),
                    )
                )
            continue
        if key == "example":
            if text.strip().lower() in _TRUE | _FALSE:
                data["example"] = text.strip().lower() in _TRUE
            else:
                diags.append(Diagnostic(sheet.file, row, col, L_("example: '{text}' is not true or false", text=text)))
            continue
        if key in META_ORDER:
            data[key] = text
            continue
        try:  # another pack-level section (e.g. deck_rules), as YAML flow
            data[key] = (
                _flow(text, "mapping")
                if text.strip().startswith("{")
                else (_flow(text, "list") if text.strip().startswith("[") else text)
            )
        except ValueError as exc:
            diags.append(Diagnostic(sheet.file, row, col, f"{key}: {exc}"))
    for k, v in overrides.items():
        if v is not None:
            data[k] = v
    allowed = sections(system)
    fields = {s: {f.name: f for f in entry_fields(system, s)} for s in allowed}
    where: dict[tuple[str, int], tuple[str, Row]] = {}
    for r in sheet.rows:
        label = sheet.label(r.section)
        sec_col = r.cells.pop("__section_col__", ("", 1))[1]
        if r.section not in allowed:
            diags.append(
                Diagnostic(
                    label,
                    r.row,
                    sec_col,
                    L_("section '{section}' is not a section of a {system} pack", section=r.section, system=system),
                    hint=did_you_mean(r.section, allowed) or L_("sections: {values}", values=", ".join(allowed)),
                )
            )
            continue
        entry = {}
        for name, (text, col) in r.cells.items():
            f = fields[r.section].get(name)
            if f is None:
                diags.append(
                    Diagnostic(
                        label,
                        r.row,
                        col,
                        L_("{section}.{name}: not a field of {section}", section=r.section, name=name),
                        hint=L_("fields: {values}", values=", ".join(fields[r.section])),
                    )
                )
                continue
            try:
                entry[name] = _convert(f, text)
            except ValueError as exc:
                diags.append(
                    Diagnostic(
                        label,
                        r.row,
                        col,
                        f"{r.section}.{name}: {exc}",
                        hint=L_("{name} is {describe}", name=name, describe=f.describe()),
                    )
                )
        if (
            "name" in entry
            and "source" not in entry
            and "assumed" not in entry
            and assumed
            and _base_record(system, r.section, entry) is None
        ):
            entry["assumed"] = assumed  # a new entry says where it is from; a change keeps the catalog's
        if "name" not in entry:
            col = next(iter(r.cells.values()), ("", 1))[1]
            diags.append(
                Diagnostic(
                    label,
                    r.row,
                    1,
                    L_("{section}: a row without a name", section=r.section),
                    hint=L_("every entry needs a name; remove the row or fill in the name"),
                )
            )
            del col
            continue
        entries = data.setdefault(r.section, [])
        where[(r.section, len(entries))] = (label, r)
        entries.append(entry)
    return data, diags, where


def _base_record(system: str, section: str, entry: dict[str, Any]) -> dict[str, Any] | None:
    cat = load_catalog(system)
    for key in (entry.get("id"), entry.get("name")):
        if isinstance(key, str):
            hit = cat.find_record(section, key)
            if hit is not None:
                return hit
    return None


# -- writing packs ---------------------------------------------------------------------------


def dump_pack(data: dict[str, Any]) -> str:
    """A pack as YAML: the pack-level keys, then each section as a block list of entries
    with one field per line (lists and mappings inside a field in flow style)."""

    def prep(v: Any) -> Any:
        if isinstance(v, str) and "\n" in v:
            return LiteralScalarString(v)
        if isinstance(v, dict):
            return {k: prep(x) for k, x in v.items()}
        if isinstance(v, list):
            return [prep(x) for x in v]
        return v

    y = YAML()
    y.default_flow_style = None
    y.width = 4096
    y.indent(mapping=2, sequence=4, offset=2)
    head = {k: data[k] for k in META_ORDER if k in data}
    rest = {k: v for k, v in data.items() if k not in head}
    buf = io.StringIO()
    if head:
        block = YAML()
        block.default_flow_style = False
        block.width = 4096
        block.dump(prep(head), buf)
    for k, v in rest.items():
        buf.write("\n")
        if isinstance(v, list) and v:
            buf.write(f"{k}:\n")
            y.dump([prep(entry) for entry in v], buf)
        else:
            y.dump({k: prep(v)}, buf)
    return buf.getvalue()


def import_sheet(
    path: str | Path,
    system: str | None,
    section: str | None = None,
    overrides: dict[str, Any] | None = None,
    assumed: str | None = "",
    default_name: str | None = None,
) -> tuple[str, dict[str, Any]]:
    """(pack YAML text, pack data) from a spreadsheet; DaimyoError with every bad cell.

    The sheet is read once; the pack made from it is checked with the catalog as data (its
    positions are the sheet's rows and columns), never written out and parsed back.
    ``default_name``: the pack's name when neither the sheet nor ``overrides`` gives one."""
    fmt = sheet_format(str(path))
    if section is not None and system is not None and section not in sections(system):
        raise UsageError(
            L_("'{section}' is not a section of a {system} pack", section=section, system=system),
            did_you_mean(section, sections(system)) or L_("sections: {values}", values=", ".join(sections(system))),
        )
    reader = read_csv if fmt == "csv" else read_xlsx
    default = section or (main_sections(system)[0] if system else None)
    sheet, diags = reader(path, system, default)

    if len(sheet.rows) > limits.MAX_PACK_ENTRIES:  # one entry a row: the pack it would make is refused
        raise DaimyoError(
            Diagnostic(
                sheet.file,
                0,
                0,
                L_(
                    "{n:,} rows, more than the {MAX_PACK_ENTRIES:,} entries of a pack (MAX_PACK_ENTRIES)",
                    n=len(sheet.rows),
                    MAX_PACK_ENTRIES=limits.MAX_PACK_ENTRIES,
                ),
                hint=L_(
                    "split it into sheets of at most {MAX_PACK_ENTRIES:,} rows",
                    MAX_PACK_ENTRIES=limits.MAX_PACK_ENTRIES,
                ),
            )
        )
    system = system or _meta_system(sheet)
    if system not in SYSTEMS:
        row = sheet.meta.get("system", ("", 1, 1))
        raise DaimyoError(
            Diagnostic(
                sheet.file,
                row[1],
                row[2],
                L_("unknown system '{system}'", system=system),
                hint=L_("one of {values}", values=", ".join(SYSTEMS)),
            )
        )
    for r in sheet.rows:
        if not r.section:
            r.section = section or main_sections(system)[0]
    if assumed == "":
        assumed = f"from {Path(str(path)).name}"
    data, more, where = sheet_to_pack(sheet, system, overrides or {}, assumed)
    if default_name and "name" not in data:
        data["name"] = default_name
    diags += more
    try:  # the cells that could be read, checked with the catalog: every problem at once
        validate_sheet(data, where, sheet)
    except DaimyoError as exc:
        diags += exc.diagnostics
    if diags:
        raise DaimyoError(_sorted(list(dict.fromkeys(diags))))
    return dump_pack(data), data


def _sorted(diags: list[Diagnostic]) -> list[Diagnostic]:
    return sorted(diags, key=lambda d: (d.file, d.line, d.col))


_MADE = "<pack made from the sheet>"


def _positions(data: dict[str, Any]) -> Positions:
    """Positions for a pack made from a sheet: one made-up line per section, entry and field
    (a value inside a field shares its field's line), so that a problem the catalog finds
    leads back to its entry and field (:func:`_map_back`)."""
    pos = Positions(_MADE)
    line = 0
    for key, val in data.items():
        line += 1
        pos.key[(key,)] = (line, 1)
        if not isinstance(val, list):
            pos.value[(key,)] = (line, 1)
            continue
        for j, entry in enumerate(val):
            line += 1
            pos.value[(key, j)] = (line, 3)
            for fld, v in entry.items() if isinstance(entry, dict) else ():
                line += 1
                pos.key[(key, j, fld)] = pos.value[(key, j, fld)] = (line, 5)
                for sub in range(len(v)) if isinstance(v, list) else v if isinstance(v, dict) else ():
                    pos.value[(key, j, fld, sub)] = (line, 5)
    return pos


def validate_sheet(data: dict[str, Any], where: dict[tuple[str, int], tuple[str, Row]], sheet: Sheet) -> None:
    """Check the pack with the catalog; map every problem back to its row and column."""
    pos = _positions(data)
    try:
        check_pack(_MADE, parsed=(data, pos))
    except CatalogError as exc:
        lines = _line_paths(pos)
        out = [_map_back(d, lines, where, sheet) if d.file == _MADE else d for d in exc.diagnostics]
        raise DaimyoError(_sorted(out)) from None


def _line_paths(pos: Positions) -> tuple[list[int], list[tuple[Any, ...]]]:
    """(lines, paths) of every entry and field, sorted by line (for a binary search)."""
    best: dict[int, tuple[Any, ...]] = {}
    for path, (line, _col) in list(pos.key.items()) + list(pos.value.items()):
        if len(path) >= 2 and isinstance(path[1], int) and len(path) <= 3:
            if line not in best or len(path) > len(best[line]):
                best[line] = path
    lines = sorted(best)
    return lines, [best[n] for n in lines]


def _map_back(
    d: Diagnostic,
    line_paths: tuple[list[int], list[tuple[Any, ...]]],
    where: dict[tuple[str, int], tuple[str, Row]],
    sheet: Sheet,
) -> Diagnostic:
    """A diagnostic at a line of the pack made from the sheet, moved to the sheet's row and column."""
    lines, paths = line_paths
    i = bisect.bisect_right(lines, d.line) - 1
    if i < 0:
        return Diagnostic(sheet.file, 0, 0, d.message, hint=d.hint)
    best = paths[i]
    section, index = best[0], best[1]
    fld = best[2] if len(best) > 2 and isinstance(best[2], str) else None
    m = re.match(r"^[a-z_]+\[\d+\]\.([a-z_]+)", d.message)
    if m:  # the message names the field: trust it over the line
        fld = m.group(1)
    label, row = where.get((section, index), (sheet.file, None))
    if row is None:
        return Diagnostic(label, 0, 0, d.message, hint=d.hint)
    col = row.cells.get(fld, ("", 1))[1] if fld else 1
    msg = re.sub(r"^[a-z_]+\[\d+\](\.[a-z_]+(\[\d+\])*)*:\s*", "", d.message)
    name = f"{section}.{fld}" if fld else section
    if not msg.startswith(name):
        msg = f"{name}: {msg}"
    return Diagnostic(label, row.row, col, msg, hint=d.hint)


# -- exporting -------------------------------------------------------------------------------


def cell_text(f: FieldInfo | None, v: Any) -> str:
    """The text of value ``v`` of field ``f`` in a spreadsheet's cell (lists as 'a; b')."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        if (
            all(isinstance(x, (str, int, float)) and not isinstance(x, bool) for x in v)
            and all(LIST_SEPARATOR not in str(x) and str(x).strip() == str(x) and str(x) for x in v)
            and (f is None or f.kind == "list")
            and v
        ):
            return f"{LIST_SEPARATOR} ".join(str(x) for x in v)
        return _flow_text(v)
    if isinstance(v, dict):
        return _flow_text(v)
    return str(v)


def _flow_text(v: Any) -> str:
    return json.dumps(v, ensure_ascii=False)  # JSON is YAML flow: read back exactly


def pack_tables(data: dict[str, Any]) -> tuple[dict[str, str], dict[str, tuple[list[str], list[list[str]]]]]:
    """(pack-level keys as cell text, {section: (header, rows)}) of a pack's data."""
    system = str(data.get("system", "")).strip().lower()
    allowed = sections(system)
    meta, tables = {}, {}
    for k, v in data.items():
        if k in allowed and isinstance(v, list):
            fields = entry_fields(system, k)
            order = [f.name for f in fields]
            by = {f.name: f for f in fields}
            present = []
            for e in v:
                for key in e if isinstance(e, dict) else {}:
                    if key not in present:
                        present.append(key)
            header = [n for n in order if n in present] + [n for n in present if n not in order]
            rows = [[_sheet_cell(by.get(h), e.get(h)) if isinstance(e, dict) else "" for h in header] for e in v]
            tables[k] = (header, rows)
        else:
            meta[k] = (
                v if isinstance(v, str) else cell_text(None, v) if not isinstance(v, (dict, list)) else _flow_text(v)
            )
    return meta, tables


def _sheet_cell(f: FieldInfo | None, v: Any) -> str:
    """The cell text of a value for an exported sheet: a number as it is, any text a
    spreadsheet would run as a formula with a leading ``'`` (``builder.safeout``)."""
    text = cell_text(f, v)
    return text if isinstance(v, (int, float)) and not isinstance(v, bool) else spreadsheet_text(text)


def export_csv(data: dict[str, Any]) -> str:
    meta, tables = pack_tables(data)
    out = io.StringIO()
    w = CsvRows(out)
    for k in list(META_ORDER) + [k for k in meta if k not in META_ORDER]:
        if k in meta:
            value = str(meta[k]).replace("\n", " ").replace("\r", " ")
            w.writerow([f"# {k}: {value}"])
    if len(tables) <= 1:
        for header, rows in tables.values():
            w.writerow(header)
            for r in rows:
                w.writerow(r)
        return out.getvalue()
    header = ["section"]
    for h, _ in tables.values():
        header += [x for x in h if x not in header]
    w.writerow(header)
    for section, (h, rows) in tables.items():
        for r in rows:
            cells = dict(zip(h, r, strict=False))
            w.writerow([section] + [cells.get(x, "") for x in header[1:]])
    return out.getvalue()


def export_xlsx(data: dict[str, Any]) -> bytes:
    openpyxl = _openpyxl(
        UsageError(
            L_("writing .xlsx needs the openpyxl package"),
            L_("pip install openpyxl, or use {option} csv", option=option("to")),
        )
    )
    meta, tables = pack_tables(data)
    book = openpyxl.Workbook()
    ws = book.active
    ws.title = "pack"
    for k in list(META_ORDER) + [k for k in meta if k not in META_ORDER]:
        if k in meta:
            _text_row(ws, [k, spreadsheet_text(str(meta[k]))])
    for section, (header, rows) in tables.items():
        sh = book.create_sheet(section[:31])
        _text_row(sh, header)
        for r in rows:
            _text_row(sh, r)  # every cell as text: the pack's values read back exactly
        sh.freeze_panes = "A2"
    buf = io.BytesIO()
    book.save(buf)
    return buf.getvalue()


def _text_row(ws: Any, values: list[str]) -> None:
    """Append a row of text cells, each stored as a string: openpyxl makes a text that starts
    with ``=`` a formula, which the escape of ``_sheet_cell`` already rules out."""
    ws.append(values)
    for c in ws[ws.max_row]:
        if isinstance(c.value, str):
            c.data_type = "s"
