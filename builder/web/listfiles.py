"""What the builder's pages and its JSON API do with the lists of a workspace: start one, import
one, export one, open one in the library's editor, and the new-list form's games."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path, PurePosixPath

from fastapi.responses import Response

from builder.catalog.loader import load_catalog
from builder.catalog.packfiles import resolve_recorded
from builder.errors import DaimyoError, UsageError
from builder.i18n import N_, _
from builder.lists.editor import ListEditor
from builder.lists.new import NewListRequest, start
from builder.packs.bundle import missing_line
from builder.safeout import json_text
from builder.share.api import export_doc, pack_name, parse_source_text, summary_of, validate
from builder.systems import get, ids, is_system, list_systems
from builder.web.catalog_view import completes_only
from builder.web.editing import version_of
from builder.web.views import header, words
from builder.web.workspace import Workspace
from builder.yamlio import read_text

GAME_COOKIE = "daimyo_game"  # the game last chosen for a new list (not secret)
GAME_COOKIE_AGE = 365 * 24 * 3600
FORMATS = (
    ("code", N_("Share code")),
    ("text", N_("Text")),
    ("markdown", "Markdown"),
    ("json", "JSON"),
    ("yaml", "YAML"),
)


def json_body(data: dict) -> Response:
    """A JSON answer of plain data, serialised at once (no framework encoder pass)."""
    return Response(json_text(data, default=_plain).encode("utf-8"), media_type="application/json")


def _plain(v):

    if isinstance(v, Fraction):
        return float(v)
    if isinstance(v, (set, frozenset, tuple)):
        return list(v)
    return str(v)


def ascii_name(name: str) -> str:
    return "".join(c if c.isascii() and c.isprintable() and c not in '"\\' else "_" for c in name)


def load_editor(ws: Workspace, path: str):
    """The library's ListEditor on a list of the workspace, and the page's view of it."""

    p = ws.resolve(path)
    rel = ws.clean(path)
    text = read_text(p, display=rel)
    ws.check_packs(p, text)
    ed = ListEditor(text, file=rel, base_dir=p.parent)
    gs = ed.game
    view = {
        "path": rel,
        "system": ed.system,
        "version": version_of(text),
        "header": header(ed.system, ed.check()),
        **words(gs.id),
    }
    return ed, view


def list_systems_meta(ws: Workspace | None = None, packs: Sequence[dict] = (), lists=()):
    """Each game for the new-list form: id, title, name, the fields its new list asks for, an
    example name (with the file it would give) and the workspace's packs for it."""

    out = []
    for gs in list_systems():
        try:
            fields = gs.new_list.fields(load_catalog(gs.id))
        except DaimyoError:
            fields = []
        example = gs.new_list.example or f"My {gs.what}"
        try:
            file = ws.new_name(example) if ws is not None else ""
        except DaimyoError:
            file = ""
        # a pack starts ticked when the game's lists here use it, or when there are none to ask
        mine = [i for i in lists if i.system == gs.id]
        used = {pk for i in mine for pk in i.packs}

        offered = [
            {
                **p,
                "ticked": not mine
                or p["file"] in used
                or (ws is not None and completes_only(ws.root, gs.id, p["file"])),
            }
            for p in packs
            if p["system"] == gs.id
        ]
        out.append(
            {
                "id": gs.id,
                "title": gs.title,
                "name": gs.name,
                "fields": fields,
                "example": example,
                "example_file": file,
                "packs": offered,
            }
        )
    return out


def default_game(remembered: str | None, lists, ids: list[str]) -> str:
    """The game the new-list form starts with: the one last chosen (remembered in a cookie),
    else the game of most lists in the workspace (the most recently changed list breaks a tie),
    else the first game."""
    if remembered in ids:
        return remembered
    used: dict[str, list] = {}
    for info in lists:
        if info.system in ids:
            used.setdefault(info.system, []).append(info.mtime)
    if used:
        return max(used, key=lambda sid: (len(used[sid]), max(used[sid])))
    return ids[0] if ids else ""


def create_from_form(ws: Workspace, form: dict) -> str:
    """The new-list form's list: its fields are the options the game declares, by key."""
    system = str(form.get("system", "")).strip().lower()
    own = get(system).new_list.options if is_system(system) else frozenset()
    given = {key: form[key] for key in own if key in form}
    return create_list(ws, system, form.get("name"), form.get("file"), form.get("packs") or [], given)


def create_list(ws: Workspace, system: str, name, file, packs, options: dict) -> str:
    """Start a new list in the workspace (the form's and the JSON API's): ``packs`` are workspace
    paths the form offers, ``options`` the game's own by key; what the form shows and is left
    out takes what the form starts with. The list is made by the library's one path for a new
    list (``builder.lists.new.start``); the file is created, never replaced."""

    system = str(system or "").strip().lower()
    if not is_system(system):  # every registered game, not only the built-in ones
        raise UsageError(
            _("unknown system '{system}'").format(system=system), _("one of {choices}").format(choices=", ".join(ids()))
        )
    name = str(name or "").strip() or None
    rel = ws.new_name(file or name or f"new-{system}")
    wanted = [packs] if isinstance(packs, str) else list(packs or [])
    offered = {p["path"]: p for p in ws.packs()} if wanted else {}
    files = []
    for w in wanted:
        pk = offered.get(str(w))
        if pk is None or pk["system"] != system:
            raise UsageError(
                _("no {system} pack '{name}' in the workspace").format(system=system, name=w),
                _("choose one of the packs the form offers"),
            )
        files.append(pk["file"])
    written = [ws.pack_ref(Path(pk), rel, system) for pk in files]  # by name, as 'daimyo new --pack' writes
    new = start(NewListRequest(system, options, name, written, files, as_form=True))
    ws.create(rel, new.text)
    return rel


def import_response(ws: Workspace, text: str, file: str | None) -> tuple[str, list[str]]:
    """Write a received list into the workspace: (its file, the packs it names that are not
    found here). Its packs are named by their names, found by the documented search order
    from the new list's folder, as 'daimyo import' finds them; a path the sender wrote is
    never followed."""

    if not text or not text.strip():
        raise UsageError(_("paste a share code or a list to import"))
    imp = parse_source_text(text, "<pasted>", None, ws.root)
    imp.received = True  # its packs are found by name only

    validate(imp)  # a list the check cannot read is refused (422), as 'daimyo import' refuses it
    doc = imp.doc
    wanted = doc.get("packs") or []
    doc = {k: v for k, v in doc.items() if k != "packs"}
    rel = ws.new_name(file or doc.get("name") or f"imported-{doc['system']}")
    packs, missing = _pack_names(ws, rel, doc, wanted)
    if packs:
        doc = _with_packs(doc, packs)
    out = export_doc(doc, "yaml")
    if file:
        ws.create(rel, out)
        return rel, missing
    base = PurePosixPath(rel)
    names = [rel] + [ws.clean(str(base.with_name(f"{base.stem}-{n}{base.suffix}"))) for n in range(2, 2 + 1000)]
    return ws.create_free(names, out), missing


def _with_packs(doc: dict, packs: list[str]) -> dict:
    """``doc`` with ``packs`` in the place a list writes them (after system, name, author, notes)."""
    out: dict = {}
    for k, v in doc.items():
        if k not in ("system", "name", "author", "notes") and "packs" not in out:
            out["packs"] = packs
        out[k] = v
    out.setdefault("packs", packs)
    return out


def _pack_names(ws: Workspace, rel: str, doc: dict, wanted) -> tuple[list[str], list[str]]:
    """The names of the packs a received list names (the sender's paths or names), for the new
    list ``rel``: those the search order finds from its folder (the workspace's packs, the user's,
    the bundled ones); and the names of those it does not find."""

    here = (ws.root / rel).parent
    out: list[str] = []
    missing: list[str] = []
    for w in wanted if isinstance(wanted, list) else [wanted]:
        if not isinstance(w, str) or not w.strip():
            continue
        ref = w.strip()
        name = pack_name(ref)
        with ws.packs_here():
            found = resolve_recorded(ref, doc, here, doc.get("system"), names_only=True)
            if found is not None and resolve_recorded(name, doc, here, doc.get("system"), names_only=True) != found:
                recorded = [
                    e["name"]
                    for e in doc.get("checked_with") or []
                    if isinstance(e, dict) and e.get("pack") == ref and isinstance(e.get("name"), str)
                ]
                name = recorded[0] if recorded else name  # found by the name it was recorded with
        if found is not None:
            if name not in out:
                out.append(name)
            continue
        # named as 'daimyo import' names it: the name (and version) the sender's check recorded
        rec = next((e for e in doc.get("checked_with") or [] if isinstance(e, dict) and e.get("pack") == ref), {})
        label = str(rec.get("name") or PurePosixPath(ref.replace("\\", "/")).name)
        if rec.get("version"):
            label += f"@{rec['version']}"
        if label not in missing:
            missing.append(label)
    return out, missing


def missing_notes(missing: list[str]) -> list[str]:
    """The lines 'daimyo import' says of the packs a received list names and this folder lacks
    (each ``NAME`` or ``NAME@VERSION``)."""

    out = []
    for m in missing:
        name, _at, version = m.rpartition("@") if "@" in m else (m, "", "")
        out.append(missing_line(name, version or None))
    return out


def export_response(ws: Workspace, path: str, fmt: str) -> str:

    if fmt not in dict(FORMATS):
        raise UsageError(_("unknown format '{fmt}'").format(fmt=fmt), _("code, text, markdown, json or yaml"))
    p = ws.resolve(path)
    text = read_text(p, display=ws.clean(path))
    ws.check_packs(p, text)
    imp = parse_source_text(text, ws.clean(path), None, p.parent)
    return export_doc(imp.doc, fmt, summary_of(imp))
