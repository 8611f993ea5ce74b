"""The web builder's pack editor: make a pack for a game in the workspace's ``packs/`` folder,
add and edit the entries of each section with the fields the game's catalog defines (checked
as you type, each problem beside its field), see the card face as it prints, upload and
download the entries as a spreadsheet. Every save goes to the pack's YAML, its comments kept,
atomically (``builder.packs.editor``)."""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import io
import os
import re
import tempfile
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import quote, urlencode, urlsplit
from urllib.request import url2pathname

from fastapi import Request
from fastapi.responses import HTMLResponse, Response
from PIL import Image
from starlette.concurrency import run_in_threadpool as off_loop

from builder.catalog.loader import load_catalog
from builder.catalog.packart import image_problem
from builder.errors import DaimyoError
from builder.i18n import _
from builder.limits import MAX_ART_BYTES, MAX_FILE_BYTES
from builder.names import slug
from builder.packs.editor import (
    digest,
    import_into,
    new_pack,
    preview_of,
    preview_png,
    remove_entry,
    save_entry,
    unsaved,
    validate_entry,
)
from builder.packs.fields import LIST_SEPARATOR, entry_fields, main_sections, sections
from builder.packs.publish import publish
from builder.packs.registries import configured
from builder.packs.sheet import cell_text, export_csv
from builder.packs.store import file_name as _file_name
from builder.render.cards.geometry import geometry
from builder.render.cards.template import choose_layout, load_template
from builder.render.images import render_sides
from builder.systems import get, ids
from builder.web.common import attachment, read_form, redirect
from builder.web.context import context
from builder.web.jsonanswer import SafeJSONResponse
from builder.web.workspace import Refused, Workspace
from builder.yamlio import atomic_write, parse_yaml, read_text

# a pack file's name as 'pack new' makes it (letters of any script, digits, '-', '.', '_'; a
# space as a person may type one): never a folder, never hidden
_FILE = re.compile(r"^[^\W_][\w .-]{0,80}\.yaml$")
SHOWN_FIELDS = 6  # columns of the entries table
#: what a new entry says of where it comes from, until the player writes something else
ENTERED = "entered by hand"


def folder(ws: Workspace) -> Path:
    """The real path of the workspace's ``packs/`` folder (refused when it is a link out)."""
    return ws.within("packs", "the workspace's packs folder")


def pack_path(ws: Workspace, file: str) -> Path:
    if not _FILE.match(file or ""):
        raise Refused(_("'{file}' is not a pack file of the workspace's packs folder").format(file=file[:80]), 404)
    p = folder(ws) / file
    if not p.is_file() or p.is_symlink():
        raise Refused(_("no pack '{file}' in the workspace's packs folder").format(file=file), 404)
    return ws.within(p, f"packs/{file}")


def load(ws: Workspace, file: str):

    p = pack_path(ws, file)
    text = read_text(p, "pack.yaml", f"packs/{file}")
    data, _lines = parse_yaml(text, f"packs/{file}", "pack.yaml")  # read once, named as in the workspace
    if not isinstance(data, dict):
        raise Refused(
            _("packs/{file} is not a pack; not opened").format(file=file),
            422,
            hint=_("a pack is a mapping with 'system:' and sections"),
        )
    system = str(data.get("system", "")).strip().lower()
    if system not in ids():
        raise Refused(
            _("packs/{file} names no game daimyo knows (system: '{system}'); not opened").format(
                file=file, system=system[:40]
            ),
            422,
            hint="write 'system: GAME' at its top, GAME one of " + ", ".join(ids()),
        )
    return p, text, data, system


async def pack_new(request: Request):
    ctx = context(request)

    form = await read_form(request)
    system = str(form.get("system", "")).strip().lower()
    name = str(form.get("name", "")).strip()[:100]
    if system not in ids():
        raise Refused(
            _("unknown game '{system}'").format(system=system[:40]),
            hint=_("one of {choices}").format(choices=", ".join(ids())),
        )
    if not name:
        raise Refused(_("the pack needs a name"))
    file = _file_name(name) + ".yaml"

    def make() -> None:
        target = folder(ctx.ws) / file
        if os.path.lexists(target):
            raise Refused(
                _("packs/{file} exists already").format(file=file),
                hint=_("choose another name, or open it from the Packs page"),
            )
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:  # a file named packs, a folder that cannot be written
            taken = (ctx.ws.root / "packs").is_file()
            raise Refused(
                "a file named 'packs' takes the place of the workspace's packs folder"
                if taken
                else f"cannot make the workspace's packs folder: {exc.strerror or exc}",
                409,
                hint="rename that file" if taken else "check that the workspace folder can be written",
            ) from None
        folder(ctx.ws)  # the folder made now is still the workspace's own
        new_pack(target, system, name)

    await off_loop(make)
    return redirect(request, f"/packs/edit/{quote(file)}")


def pack_edit(request: Request, file: str, section: str = "", entry: str = "", done: str = ""):
    ctx = context(request)

    _p, text, data, system = load(ctx.ws, file)
    secs = list(main_sections(system))
    section = section if section in sections(system) else secs[0]
    if section not in secs:
        secs.append(section)
    fields = entry_fields(system, section)
    entries = [e for e in data.get(section) or [] if isinstance(e, dict)]
    current = next((e for e in entries if entry and str(e.get("name")) == entry), None)
    shown = [
        f.name for f in fields if f.name not in ("name", "source", "assumed", "id", "aliases", "notes", "art", "focus")
    ][:SHOWN_FIELDS]
    return ctx.page(
        request,
        "pack_edit.html",
        file=file,
        pack=data,
        system=system,
        section=section,
        sections=secs,
        fields=fields,
        entries=entries,
        current=current,
        values=_cells(fields, current) if current else {"assumed": ENTERED},
        menus=_menus(system, fields, data),
        entered=ENTERED,
        shown=shown,
        version=digest(text),
        cards=_prints_cards(system),
        cell=_cell_text,
        lines=_prints_lines(system, section),
        line=roster_line(_p, system, str(current["name"])) if current and _prints_lines(system, section) else None,
        art_aspect=art_aspect(system, current) if any(f.name == "art" for f in fields) else None,
        folder_registries=folder_registries(),
        done=done[:2000],
    )


def _checked(form: dict, system: str, section: str, data: dict):

    cells = {f.name: _text(form.get("f_" + f.name, ""))[:2000] for f in entry_fields(system, section)}
    original = str(form.get("original", "")) or None
    return validate_entry(system, section, cells, data, original, assumed=ENTERED), original


async def entry_form(request: Request, file: str) -> dict:
    """The posted entry form; a menu of several values (a card's paths) gives each."""
    ctx = context(request)

    _p, _text, _data, system = await off_loop(load, ctx.ws, file)
    several = {"f_" + f.name for s in sections(system) for f in entry_fields(system, s) if f.menu and f.kind == "list"}
    return await read_form(request, multi=tuple(sorted(several)))


async def pack_check_entry(request: Request, file: str):
    form = await entry_form(request, file)
    return await off_loop(check_entry, request, file, form)


def check_entry(request: Request, file: str, form: dict):
    ctx = context(request)
    p, _text, data, system = load(ctx.ws, file)
    section = str(form.get("section", ""))
    checked, _values = _checked(form, system, section, data)
    preview = None
    line = None
    if checked.ok and checked.pack is not None and not _prints_cards(system):  # the line as typed
        with unsaved(p, checked.pack) as tmp:
            line = roster_line(tmp, system, checked.entry["name"])
    if checked.ok and checked.pack is not None and _prints_cards(system):  # the card as typed
        png = preview_of(p, checked.pack, checked.entry["name"], render_sides=render_sides)
        preview = base64.b64encode(png).decode("ascii") if png else None
    return ctx.page(
        request,
        "_pack_errors.html",
        fields=_field_names(system, section),
        checked=checked,
        preview=preview,
        cards=_prints_cards(system),
        line=line,
        lines=_prints_lines(system, section),
    )


async def pack_save_entry(request: Request, file: str):
    ctx = context(request)

    form = await entry_form(request, file)

    def save():
        p, _text, data, system = load(ctx.ws, file)
        section = str(form.get("section", ""))
        checked, original = _checked(form, system, section, data)
        if not checked.ok:
            fields = _field_names(system, section)
            return ctx.page(request, "_pack_errors.html", fields=fields, checked=checked, status=422)
        save_entry(p, section, checked.entry, original, str(form.get("version", "")) or None)
        where = urlencode({"section": section, "entry": checked.entry["name"]})
        return redirect(request, f"/packs/edit/{quote(file)}?{where}")

    return await off_loop(save)


async def pack_remove_entry(request: Request, file: str):
    ctx = context(request)

    form = await read_form(request)
    section = str(form.get("section", ""))

    def remove() -> None:
        p, _text, _data, _system = load(ctx.ws, file)
        remove_entry(p, section, str(form.get("name", "")), str(form.get("version", "")) or None)

    await off_loop(remove)
    return redirect(request, f"/packs/edit/{quote(file)}?" + urlencode({"section": section}))


def pack_preview(request: Request, file: str, entry: str = ""):
    ctx = context(request)

    p, _text, _data, system = load(ctx.ws, file)
    png = preview_png(p, system, entry[:200], render_sides=render_sides)
    if png is None:
        raise Refused(_("no card face to show"), 404)
    return Response(png, media_type="image/png", headers={"Cache-Control": "no-store"})


def pack_sheet(request: Request, file: str):
    ctx = context(request)

    _p, _text, data, _system = load(ctx.ws, file)
    return Response(
        export_csv(data),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": attachment(f"{Path(file).stem}.csv")},
    )


async def pack_upload(request: Request, file: str):
    ctx = context(request)

    await off_loop(load, ctx.ws, file)  # a pack of the workspace, before the upload is read
    form = await request.form()
    up = form.get("sheet")
    if up is None or not hasattr(up, "read"):
        raise Refused(_("choose a .csv or .xlsx file to upload"))
    name = str(getattr(up, "filename", "") or "sheet.csv")
    suffix = ".xlsx" if name.lower().endswith(".xlsx") else ".csv"
    body = await up.read(MAX_FILE_BYTES + 1)
    if len(body) > MAX_FILE_BYTES:
        raise Refused(_("the spreadsheet is too large"), 413)
    version = str(form.get("version", "")) or None

    def add_rows() -> None:
        p, _text, _data, _system = load(ctx.ws, file)

        fd, tmp = tempfile.mkstemp(suffix=suffix, prefix="daimyo-sheet-")
        shown = Path(name).name or "sheet" + suffix
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(body)
            import_into(p, tmp, version, shown)  # one write: all the rows or none
        except DaimyoError as exc:  # each problem named in the sheet the player chose
            if not any(tmp in d.file for d in exc.diagnostics):
                raise
            named = [dataclasses.replace(d, file=d.file.replace(tmp, shown)) for d in exc.diagnostics]
            raise DaimyoError(named) from None
        finally:
            os.unlink(tmp)

    await off_loop(add_rows)
    return redirect(request, f"/packs/edit/{quote(file)}")


ART_MIME = {"PNG": ("png", "image/png"), "JPEG": ("jpg", "image/jpeg"), "WEBP": ("webp", "image/webp")}


def art_aspect(system: str, entry: Mapping | None) -> float | None:
    """Width / height of the art box the entry prints in (its layout's), or None when its card
    shows no art."""
    if not _prints_cards(system):
        return None
    try:
        tpl = load_template(system)
        box = geometry(tpl, choose_layout(tpl, dict(entry or {})), 0.0).art
    except (DaimyoError, KeyError):
        return None
    if box is None or box[3] <= 0:
        return None
    return box[2] / box[3]


def store_art(folder_path: Path, name: str, body: bytes, aspect: float | None) -> str:
    """Keep an uploaded image (already cropped by the page) as ``art/<entry>-<hash>.<ext>`` in
    the pack's folder, trimmed to the art box's proportions ``aspect``; its path as the
    entry's ``art:`` names it. Refused (4xx, one line) when it cannot travel with the pack."""

    why = image_problem(body)
    if why:
        raise Refused(_("the image cannot be a card's art: {why}").format(why=why), 422)
    with Image.open(io.BytesIO(body)) as im:
        im.load()
        fmt = im.format or "PNG"
        w, h = im.size
        if aspect:
            cw, ch = (w, round(w / aspect)) if w / h < aspect else (round(h * aspect), h)
            cw, ch = max(1, min(cw, w)), max(1, min(ch, h))
            if (cw, ch) != (w, h):
                x, y = (w - cw) // 2, (h - ch) // 2
                part = im.crop((x, y, x + cw, y + ch))
                out = io.BytesIO()
                alpha = part.mode in ("RGBA", "LA", "PA") or "transparency" in part.info
                fmt = "PNG" if alpha or fmt == "PNG" else "JPEG"
                part.convert("RGBA" if alpha else "RGB").save(out, fmt, **({"quality": 92} if fmt == "JPEG" else {}))
                body = out.getvalue()
    ext = ART_MIME.get(fmt, ("png", ""))[0]
    rel = f"art/{slug(name)[:60] or 'card'}-{hashlib.sha256(body).hexdigest()[:10]}.{ext}"
    target = folder_path / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.parent.is_symlink() or target.is_symlink():
        raise Refused(_("the pack's art folder is a link; not written"), 409)
    atomic_write(target, body, force=True)  # named by its content: the same bytes, or none there
    return rel


async def pack_art(request: Request, file: str):
    """An entry's art, uploaded cropped: stored beside the pack (``store_art``); answers the
    path for the entry's ``art:`` field as JSON."""
    ctx = context(request)

    _p, _text, _data, system = await off_loop(load, ctx.ws, file)
    form = await request.form()
    up = form.get("image")
    if up is None or not hasattr(up, "read"):
        raise Refused(_("choose an image (PNG, JPEG or WebP)"))
    body = await up.read(MAX_ART_BYTES + 1)
    if len(body) > MAX_ART_BYTES:
        raise Refused(_("the image is too large"), 413)
    name = str(form.get("f_name", "")).strip()[:200]
    if not name:
        raise Refused(_("name the entry first"))
    cells = {k[2:]: str(v)[:200] for k, v in form.multi_items() if k.startswith("f_") and isinstance(v, str)}
    aspect = art_aspect(system, cells)

    def keep() -> str:
        p = pack_path(ctx.ws, file)
        return store_art(p.parent, name, body, aspect)

    rel = await off_loop(keep)
    return SafeJSONResponse({"path": rel})


async def pack_publish(request: Request, file: str):
    """Publish the pack into a folder registry of config.toml (``daimyo pack publish``)."""
    ctx = context(request)

    form = await read_form(request)
    which = str(form.get("registry", "")).strip()[:200]
    version = str(form.get("version", "")).strip()[:40] or None

    def go() -> list[str]:
        p = pack_path(ctx.ws, file)
        target = next((r for r in folder_registries() if r.name == which), None)
        if target is None:
            raise Refused(_("no folder registry named '{name}' in config.toml").format(name=which[:100]))
        return publish(str(p), target.folder, version)

    lines = await off_loop(go)
    return redirect(request, f"/packs/edit/{quote(file)}?" + urlencode({"done": "; ".join(lines)[:2000]}))


@dataclasses.dataclass
class FolderRegistry:
    name: str
    folder: str


def folder_registries() -> list[FolderRegistry]:
    """The registries of config.toml that are folders on this machine (where a pack is published)."""
    try:
        regs = configured()
    except DaimyoError:
        return []
    out = []
    for r in regs:
        if r.index.lower().startswith("file:"):
            out.append(FolderRegistry(r.name, url2pathname(urlsplit(r.index).path).removesuffix("/index.json")))
    return out


def add_routes(routes) -> None:
    """This module's routes, in the order they are matched."""
    routes.post("/packs/edit/{file}/art", include_in_schema=False)(pack_art)
    routes.post("/packs/edit/{file}/publish", include_in_schema=False)(pack_publish)
    routes.post("/packs/new", include_in_schema=False)(pack_new)
    routes.get("/packs/edit/{file}", response_class=HTMLResponse, include_in_schema=False)(pack_edit)
    routes.post("/packs/edit/{file}/check", response_class=HTMLResponse, include_in_schema=False)(pack_check_entry)
    routes.post("/packs/edit/{file}/save", include_in_schema=False)(pack_save_entry)
    routes.post("/packs/edit/{file}/remove", include_in_schema=False)(pack_remove_entry)
    routes.get("/packs/edit/{file}/preview.png", include_in_schema=False)(pack_preview)
    routes.get("/packs/edit/{file}/sheet.csv", include_in_schema=False)(pack_sheet)
    routes.post("/packs/edit/{file}/upload", include_in_schema=False)(pack_upload)


def _text(value) -> str:
    """A field's text: the values of a menu of several joined as a spreadsheet cell holds them."""

    if isinstance(value, list):
        return f"{LIST_SEPARATOR} ".join(str(v).strip() for v in value if str(v).strip())
    return str(value)


def _menus(system: str, fields, data: dict) -> dict[str, list[str]]:
    """field -> the values its menu offers: the names of the catalog section the game gives
    for it (``gs.packs.menus``), then those the pack itself adds to that section."""

    wanted = {f.name: f.menu for f in fields if f.menu}
    if not wanted:
        return {}
    cat = load_catalog(system)
    out = {}
    for name, section in wanted.items():
        names = [str(n) for n in cat.names(section)]
        names += [
            str(e["name"])
            for e in data.get(section) or []
            if isinstance(e, dict) and e.get("name") and str(e["name"]) not in names
        ]
        out[name] = names
    return out


def _field_names(system: str, section: str) -> list[str]:

    return [f.name for f in entry_fields(system, section)]


def _cell_text(v) -> str:

    return cell_text(None, v)


def _cells(fields, entry) -> dict:
    """The form's text for each field of ``entry`` (lists as 'a; b', as in a spreadsheet)."""

    if not entry:
        return {}
    return {f.name: cell_text(f, entry.get(f.name)) for f in fields if entry.get(f.name) is not None}


def _prints_cards(system: str) -> bool:

    return get(system).sheet is None


def _prints_lines(system: str, section: str) -> bool:

    sheet = get(system).sheet
    return sheet is not None and sheet.line_section == section


def roster_line(pack_path, system: str, name: str) -> Mapping[str, object] | None:
    """The line the game's printed sheet gives entry ``name`` of the pack at ``pack_path`` (a
    unit of one model on a Kensei roster, a province on a Senji setup sheet), or None."""

    sheet = get(system).sheet
    if sheet is None:
        return None
    return sheet.preview_line(Path(pack_path).resolve(), name)
