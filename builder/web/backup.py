"""Back up and restore a whole workspace: "download all" gives a zip of every list file and
the pack files of the folder; "restore from zip" writes the lists and packs of such a zip back,
and never replaces a file that differs without asking: those are listed, each with a box to
tick, and written only when the player confirms.
"""

from __future__ import annotations

import io
import os
import re
import secrets
import time
import zipfile
from pathlib import PurePosixPath

from fastapi import Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool as off_loop

from builder.errors import DaimyoError
from builder.i18n import _
from builder.web.common import attachment
from builder.web.context import context
from builder.web.workspace import Refused
from builder.yamlio import atomic_write, read_bytes

SUFFIXES = (".yaml", ".yml", ".json")
MAX_MEMBERS = 2000
MAX_MEMBER_BYTES = 1024 * 1024
HELD_FOR = 15 * 60  # seconds an uploaded zip waits for the player's answer


def backup_zip(ws) -> bytes:
    """Every list and pack file of the workspace, by its path in the folder (the user's and the
    bundled packs, offered beside them by the new-list form, are not the workspace's: left out).
    A file that cannot be read as a file of the workspace (a pipe, over the size limit, a link
    out of the folder) is left out too."""

    names = [i.path for i in ws.lists()] + [p["path"] for p in ws.packs() if not p["path"].startswith("@")]
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for rel in sorted(dict.fromkeys(names)):
            try:
                data = read_bytes(ws.within(rel, f"'{rel}'"), display=rel)
            except DaimyoError:
                continue
            z.writestr(rel, data)
    return buf.getvalue()


def read_zip(ws, data: bytes) -> dict[str, bytes]:
    """The list and pack files of an uploaded zip, by their cleaned path (refused: paths that
    lead outside the folder, too many or too big members, a file that is no zip)."""

    try:
        z = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise Refused(_("the file is not a zip archive"), hint=_("choose a zip made by 'Download all'")) from None
    infos = [i for i in z.infolist() if not i.is_dir()]
    if len(infos) > MAX_MEMBERS:
        raise Refused(
            _("the zip holds {n} files; at most {most} are restored at once").format(n=len(infos), most=MAX_MEMBERS),
            413,
        )
    out: dict[str, bytes] = {}
    for i in infos:
        name = i.filename.replace("\\", "/")
        if name.startswith("/") or ".." in name.split("/") or ":" in name.split("/")[0]:
            raise Refused(
                _("'{name}' in the zip leads outside the folder; nothing was restored").format(name=name[:200]), 400
            )
        if PurePosixPath(name).suffix.lower() not in SUFFIXES or any(p.startswith(".") for p in name.split("/")):
            continue  # only list and pack files; nothing hidden
        if i.file_size > MAX_MEMBER_BYTES:
            raise Refused(_("'{name}' in the zip is over 1 MiB").format(name=name), 413)
        rel = ws.clean(name)
        out[rel] = z.read(i)
    return out


def plan(ws, files: dict[str, bytes]) -> dict:
    """What restoring would do: new files, files already the same, files that differ."""

    new, same, differ = [], [], []
    for rel, data in sorted(files.items()):
        p = ws.within(rel, f"'{rel}'")
        if not os.path.lexists(ws.root / rel):
            new.append(rel)
            continue
        try:
            here = read_bytes(p, display=rel)
        except DaimyoError:
            here = None  # not a file that can be read: it differs, and is replaced only when asked
        if here == data:
            same.append(rel)
        else:
            differ.append(rel)
    return {"new": new, "same": same, "differ": differ}


def restore(ws, files: dict[str, bytes], replace=()) -> dict:
    """Write the new files, and those of ``replace`` that differ; nothing else is touched."""

    p = plan(ws, files)
    replaced = [r for r in p["differ"] if r in set(replace)]
    for rel in p["new"]:
        ws.create(rel, files[rel].decode("utf-8", errors="replace"))
    for rel in replaced:
        atomic_write(str(ws.resolve(rel)), files[rel].decode("utf-8", errors="replace"), force=True)
    return {
        "written": p["new"],
        "replaced": replaced,
        "same": p["same"],
        "kept": [r for r in p["differ"] if r not in replaced],
    }


held: dict[str, tuple[float, dict]] = {}


def keep(files) -> str:
    now = time.time()
    for k in [k for k, (t, _files) in held.items() if now - t > HELD_FOR]:
        del held[k]
    key = secrets.token_urlsafe(12)
    held[key] = (now, files)
    return key


def download_all(request: Request):
    ctx = context(request)

    name = f"{ctx.ws.root.name or 'workspace'}-lists.zip"
    return Response(
        backup_zip(ctx.ws),
        media_type="application/zip",
        headers={"Content-Disposition": attachment(name), "Cache-Control": "no-store"},
    )


async def restore_upload(request: Request):
    ctx = context(request)

    form = await request.form()
    up = form.get("zip")
    if up is None or isinstance(up, str):
        raise Refused(_("choose a zip file to restore"))

    data = await up.read()

    def unpack():  # reading, comparing and writing every file: off the event loop
        files = read_zip(ctx.ws, data)
        p = plan(ctx.ws, files)
        if not p["differ"]:
            return files, None, restore(ctx.ws, files)
        return files, p, None

    files, p, done = await off_loop(unpack)
    if done is not None:
        return ctx.page(request, "restore.html", done=done, plan=None, key="")
    return ctx.page(request, "restore.html", done=None, plan=p, key=keep(files))


async def restore_confirm(request: Request):
    ctx = context(request)

    form = await request.form()
    key = str(form.get("key") or "")
    if key not in held:
        raise Refused(_("that restore has expired; choose the zip again"), 410)

    _when, files = held.pop(key)
    done = await off_loop(restore, ctx.ws, files, [str(v) for v in form.getlist("replace")])
    for rel in done["replaced"]:
        ctx.editor.forget(rel)
    return ctx.page(request, "restore.html", done=done, plan=None, key="")


def add_routes(routes) -> None:
    """This module's routes, in the order they are matched."""
    routes.get("/backup.zip", include_in_schema=False)(download_all)
    routes.post("/restore", response_class=HTMLResponse, include_in_schema=False)(restore_upload)
    routes.post("/restore/confirm", response_class=HTMLResponse, include_in_schema=False)(restore_confirm)


def folder_of(rel: str) -> str:
    """The folder of a list inside the workspace ("" at the top)."""
    parent = str(PurePosixPath(rel).parent)
    return "" if parent == "." else parent


def first_number(text: str) -> str:
    """The first number of a total ("380 / 400 AP" -> "380"), "" when none."""

    m = re.search(r"-?\d+(?:\.\d+)?", text or "")
    return m.group(0) if m else ""
