"""The web builder's Packs page: the packs installed in the user packs folder (version,
source, a newer version in a registry), a search of the configured registries, and one-click
install or update (the same library calls as ``daimyo pack search|install|update``)."""

from __future__ import annotations

import os
from urllib.parse import urlencode

import anyio.to_thread
from fastapi import Request
from fastapi.responses import HTMLResponse

from builder.catalog.packfiles import pack_files
from builder.catalog.packid import pack_id
from builder.errors import DaimyoError
from builder.i18n import _, ngettext
from builder.packs import store
from builder.packs.installer import WouldShadow, download, install, outdated, report
from builder.packs.registries import add, configured, remove
from builder.packs.registry import all_entries, newest, search, stale_notes, version_key
from builder.paths import display_path, within
from builder.systems import ids, list_systems
from builder.web.common import read_form, redirect
from builder.web.context import context, is_htmx
from builder.web.workspace import Refused


def installed_rows(entries) -> list[dict]:
    """One row per pack in use in the user packs folder, with the newer registry version when
    ``entries`` (the registries' index entries, or None when unavailable) have one."""

    rows = []
    for rec, path, ident in store.installed_in_use():
        newer = None
        if entries:
            e = newest(entries, ident.name, ident.system)
            if e is not None and version_key(e.version) > version_key(ident.version):
                newer = e.version
        kept = [r.version for r in store.records() if r.name == ident.name and r.hash != ident.hash]
        rows.append(
            {
                "name": ident.name,
                "game": ident.system,
                "version": ident.version or "",
                "source": rec.source if rec is not None else "made or copied by hand",
                "file": path.name,
                "newer": newer,
                "kept": [v for v in kept if v],
            }
        )
    return rows


def workspace_packs(ws) -> list[dict]:
    """The packs of the workspace's ``packs/`` folder (what the pack editor edits)."""

    out = []
    folder = within(ws.root, "packs")  # None: a link out of the workspace, never read
    for p in pack_files(folder) if folder is not None else []:
        if within(folder, p) is None:
            continue  # a pack file that is a link out of the workspace
        try:
            ident = pack_id(p)
        except DaimyoError as exc:
            out.append({"file": p.name, "name": p.name, "game": "", "version": "", "problem": exc.lines()[0]})
            continue
        out.append({"file": p.name, "name": ident.name, "game": ident.system or "", "version": ident.version or ""})
    return out


def game_names() -> dict[str, str]:
    """Each game's name by its id (``kensei`` -> ``Kensei``), as the rest of the builder shows games."""

    return {gs.id: gs.name for gs in list_systems()}


def registries():
    """(entries, problem): every registry entry, or the one line that says why there are none."""

    try:
        return all_entries(), None
    except DaimyoError as exc:
        return None, exc.lines()[0].removeprefix("daimyo: error: ")


def packs_page(request: Request, q: str = "", system: str = "", done: str = ""):
    ctx = context(request)

    entries, problem = registries()
    game = system if system in ids() else None
    found = search(entries, q[:200] or None, game) if entries is not None else []
    installed = {(r["name"], r["game"]): r for r in installed_rows(entries)}
    results = [{"entry": e, "installed": installed.get((e.name, e.game))} for e in found]
    return ctx.page(
        request,
        "packs.html",
        rows=list(installed.values()),
        results=results,
        q=q[:200],
        system=game or "",
        problem=problem,
        notes=stale_notes(),
        done=done[:1000],  # an install that replaced another pack says so, and how to have it back
        folder=str(store.folder()),
        mine=workspace_packs(ctx.ws),
        game_names=game_names(),
        registry_list=configured_registries()[0],
        registry_env=os.environ.get("DAIMYO_REGISTRY") is not None,
    )


async def packs_update(request: Request, name: str = ""):
    """The confirm step of an update: what the newest version changes, entry by entry, and
    which of the workspace's lists use the entries concerned (``daimyo pack update``'s
    report); nothing is replaced until the person confirms."""
    ctx = context(request)

    name = name.strip()[:200]
    if not name:
        raise Refused(_("name an installed pack to update"))

    def work():
        ups = outdated(name)
        if not ups:
            return None
        u = ups[0]
        return report(u, download(u.entry), [str(ctx.ws.root)])

    rep = await anyio.to_thread.run_sync(work)
    if rep is None:
        return redirect(request, "/packs?" + urlencode({"done": _("{name}: up to date").format(name=name)}))
    lists = []
    for f, mine in rep.lists:
        try:
            rel = f.resolve().relative_to(ctx.ws.root.resolve()).as_posix()
        except ValueError:
            rel = None
        lists.append({"rel": rel, "shown": rel or display_path(f), "changes": [c.text() for c in mine]})
    u = rep.update
    return ctx.page(
        request,
        "pack_update.html",
        pack=u.name,
        game=game_names().get(u.game, u.game),
        current=u.current or _("(no version)"),
        version=rep.version,
        ref=f"{u.name}@{rep.version}",
        changes=rep.changes,
        lists=lists,
    )


async def packs_install(request: Request):
    """Install a pack of the registries (``daimyo pack install REF``). One that would take the
    place of a bundled pack or of one installed from elsewhere is refused (409) with what it
    would replace and a Replace button: the second post names ``replace=1`` and installs it as
    ``daimyo pack install REF --replace`` does; nothing is replaced without it."""

    form = await read_form(request)
    ref = str(form.get("ref", "")).strip()[:300]
    if not ref or "://" in ref or "/" in ref or "\\" in ref:  # registry names only, never a path here
        raise Refused(_("name a pack of the registries (NAME or NAME@VERSION)"))
    replace = str(form.get("replace", "")) == "1"
    try:
        lines = await anyio.to_thread.run_sync(lambda: install(ref, replace=replace))
    except WouldShadow as exc:
        return confirm_replace(request, ref, exc)
    return redirect(request, "/packs?" + urlencode({"done": "; ".join(lines)}))


def confirm_replace(request: Request, ref: str, exc: WouldShadow):
    """The refusal of an install that would shadow another pack, as a question: what it would
    take the place of and a Replace button (in the message area for htmx, else a page); 409."""
    ctx = context(request)
    shown = {"ref": ref, "label": exc.label, "origin": exc.origin, "taken": exc.taken}
    if is_htmx(request):
        resp = ctx.page(request, "_pack_replace.html", status=409, **shown)
        resp.headers["X-Daimyo-Flash"] = "1"  # app.js shows it in #flash, as a refusal
        return resp
    return ctx.page(request, "pack_replace.html", status=409, **shown)


async def registries_add(request: Request):
    """Add a registry by its address (or a folder on this machine): the index is fetched and
    verified before config.toml is written (``daimyo registry add``)."""
    form = await read_form(request)
    ref = str(form.get("url", "")).strip()[:2000]
    name = str(form.get("name", "")).strip()[:100] or None
    if not ref:
        raise Refused(_("give a registry's address (its index.json) or folder"))
    reg, count = await anyio.to_thread.run_sync(lambda: add(ref, name))
    done = ngettext(
        "added registry '{name}': {n} pack version", "added registry '{name}': {n} pack versions", count
    ).format(name=reg.name, n=count)
    return redirect(request, "/packs?" + urlencode({"done": done}))


async def registries_remove(request: Request):
    """Remove a registry from config.toml (``daimyo registry remove``)."""
    form = await read_form(request)
    name = str(form.get("name", "")).strip()[:200]
    if not name:
        raise Refused(_("name a registry to remove"))
    reg = await anyio.to_thread.run_sync(lambda: remove(name))
    return redirect(request, "/packs?" + urlencode({"done": _("removed registry '{name}'").format(name=reg.name)}))


def configured_registries() -> tuple[list, str | None]:
    """The registries of config.toml, or the one line that says why they cannot be read."""
    try:
        return configured(), None
    except DaimyoError as exc:
        return [], exc.lines()[0].removeprefix("daimyo: error: ")


def add_routes(routes) -> None:
    """This module's routes, in the order they are matched."""
    routes.get("/packs", response_class=HTMLResponse, include_in_schema=False)(packs_page)
    routes.post("/packs/registries/add", include_in_schema=False)(registries_add)
    routes.post("/packs/registries/remove", include_in_schema=False)(registries_remove)
    routes.get("/packs/update", response_class=HTMLResponse, include_in_schema=False)(packs_update)
    routes.post("/packs/install", include_in_schema=False)(packs_install)
