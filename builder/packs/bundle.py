"""Lists that travel with their packs.

* ``checked_with`` (made by ``builder.lists.packchanges``): the packs (reference, name, version,
  content hash) a list was checked with, recorded by ``daimyo export`` in every format and
  compared by ``daimyo import``;
* bundles: one YAML file holding a list and the packs it uses (``daimyo export LIST --to bundle``,
  ``daimyo import BUNDLE [--install-packs]``)::

      daimyo_bundle: 1
      list: {system: senshiai, packs: [My cards], cards: {...}}
      packs:
        - {system: senshiai, name: My cards, version: '2', cards: [...]}
      art:
        - {"pack": "My cards", "path": "art/warriors.png", "sha256": "...", "data": "<base64>"}

  In a bundle the list names each pack by its declared name, so that it finds the pack
  once installed, whatever the folders on the other machine.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import shutil
import tempfile
from pathlib import Path
from types import ModuleType

from builder import yamlio
from builder.catalog.packart import art_diagnostics, art_folder, art_refs, image_problem, norm, path_problem, sha256_hex
from builder.catalog.packfiles import (
    bundled_dir,
    name_key,
    not_found_hint,
    pack_files,
    read_header,
    resolve_pack,
    resolve_recorded,
    shown,
)
from builder.catalog.packid import PackId, pack_id, read_pack
from builder.errors import DaimyoError, Diagnostic, UsageError
from builder.i18n import L_, _
from builder.lists.dump import dump_list_yaml
from builder.lists.packchanges import short_hash as _short
from builder.paths import display_path, within
from builder.yamlio import read_text

BUNDLE_KEY = "daimyo_bundle"
BUNDLE_VERSION = 1


def _label(name, version) -> str:
    return f"'{name}'" + (f" version {version}" if version else "")


def install_command(name: str, version: str | None) -> str:
    """The command that installs pack ``name`` (that version) from the configured registries."""
    ref = f"{name}@{version}" if version else str(name)
    return f'daimyo pack install "{ref}"' if any(c in ref for c in " '&;|<>()$`\\") else f"daimyo pack install {ref}"


def missing_line(name: str, version: str | None = None) -> str:
    """What an import says of a pack the received list names and this computer lacks."""
    return (
        f"pack {_label(name, version)} is missing here; the list is checked without it "
        f"(install it from a registry: {install_command(name, version)}, or import "
        "with --install-packs; a bundle carries it: ask for 'daimyo export LIST --to bundle', then "
        "'daimyo import BUNDLE --install-packs')"
    )


def compare_packs(doc: dict, base_dir: Path, names_only: bool = False) -> list[str]:
    """One line per pack of a received list that is missing here or differs from the local one."""
    recorded = {str(e.get("pack")): e for e in doc.get("checked_with") or [] if isinstance(e, dict)}
    out = []
    for ref in doc.get("packs") or []:
        rec = recorded.get(ref, {})
        name = rec.get("name") or ref
        path = resolve_recorded(ref, doc, base_dir, doc.get("system"), names_only=names_only)
        if path is None:
            out.append(missing_line(name, rec.get("version")))
            continue
        if not rec.get("hash"):
            continue
        try:
            ident = pack_id(path)
        except DaimyoError:
            continue
        if _short(ident.hash) != rec["hash"]:
            out.append(
                f"pack {_label(name, rec.get('version'))} differs here: found {_label(ident.name, ident.version)} "
                f"with other content in {shown(path)}; the check may differ from the sender's"
            )
    return out


# -- bundles -----------------------------------------------------------------------------------


def _art_files(data: dict, path: Path) -> dict[str, bytes]:
    """The images pack file ``path`` names, read from beside it."""
    folder = art_folder(path)
    out = {}
    for ref in art_refs(data):
        real = within(folder, ref)
        if real is not None and real.is_file():
            out[ref] = real.read_bytes()
    return out


def make_bundle(doc: dict, base_dir: Path) -> dict:
    """The bundle of a canonical list: the list (packs named by their names), the packs and
    their art (``art``: one item per image, its bytes in base64)."""
    packs, refs, arts = [], [], []
    digests: list[dict[str, str]] = []
    for ref in doc.get("packs") or []:
        path = resolve_pack(ref, base_dir, doc.get("system"))
        if path is None:
            raise UsageError(
                L_("pack '{ref}' of the list is not found, so it cannot travel in the bundle", ref=ref),
                not_found_hint(ref, base_dir),
            )
        data, _ = read_pack(path)
        name = data.get("name") or data.get("pack")
        if not name:  # a pack travels under a name: its file name when it declares none
            name = Path(path).stem
            data = {"system": data.get("system"), "name": name, **data}
        files = _art_files(data, Path(path))
        problems = art_diagnostics(data, art_folder(path), display_path(path)) if art_refs(data) else []
        if problems:
            raise DaimyoError(problems)
        digests.append({k: sha256_hex(v) for k, v in files.items()})
        for ref, raw in sorted(files.items()):
            arts.append(
                {"pack": str(name), "path": ref, "sha256": digests[-1][ref], "data": base64.b64encode(raw).decode()}
            )
        packs.append(data)
        refs.append(str(name))
    lst = dict(doc)
    if refs:
        lst["packs"] = refs
    lst.pop("checked_with", None)
    if refs:
        lst["checked_with"] = [
            {
                "pack": r,
                "name": r,
                **({"version": str(p["version"])} if p.get("version") is not None else {}),
                "hash": _short(PackId.of(p, art=d).hash),
            }
            for r, p, d in zip(refs, packs, digests, strict=True)
        ]
    out = {BUNDLE_KEY: BUNDLE_VERSION, "list": lst, "packs": packs}
    if arts:
        out["art"] = arts
    return out


def _sheet() -> ModuleType:
    """``builder.packs.sheet`` (a pack written out as YAML), imported when a bundle is made or installed."""
    from builder.packs import sheet  # noqa: PLC0415 - pack management only when a bundle is made or installed; `daimyo check` loads this module

    return sheet


def dump_bundle(bundle: dict) -> str:
    lines = [
        "# A daimyo bundle: a list and the packs it uses. Open it with 'daimyo import FILE -o LIST.yaml'",
        "# ('--install-packs' installs the packs into your packs folder).",
        f"{BUNDLE_KEY}: {bundle[BUNDLE_KEY]}",
        "list:",
    ]
    lines += ["  " + ln if ln else "" for ln in dump_list_yaml(bundle["list"]).rstrip("\n").split("\n")]
    lines.append("packs:")
    for p in bundle["packs"]:
        text = _sheet().dump_pack(p).rstrip("\n").split("\n")
        text = [ln for ln in text if ln.strip()] if False else text
        lines.append("  - " + text[0])
        lines += ["    " + ln if ln else "" for ln in text[1:]]
    if not bundle["packs"]:
        lines[-1] = "packs: []"
    if bundle.get("art"):
        lines.append("art:")
        for a in bundle["art"]:
            lines.append("  - " + json.dumps(a, ensure_ascii=False))
    return "\n".join(lines) + "\n"


def is_bundle_text(text: str) -> bool:
    return re.search(rf"^[\"']?{BUNDLE_KEY}[\"']?\s*:", text, re.M) is not None


def read_bundle(path: str) -> tuple[dict, list[dict], object, dict[str, dict[str, bytes]]]:
    """(list document, pack datas, positions, art) of a bundle file; DaimyoError when it is
    damaged. ``art``: {pack name: {path: bytes}}, each image matched with its SHA-256 and
    checked as art."""
    shown = display_path(path)
    data, pos = yamlio.parse_yaml(read_text(path, display=shown), shown)
    if not isinstance(data, dict) or BUNDLE_KEY not in data:
        raise DaimyoError(Diagnostic(shown, 1, 1, L_("not a daimyo bundle")))
    if data[BUNDLE_KEY] != BUNDLE_VERSION:
        raise DaimyoError(
            pos.diag(
                (BUNDLE_KEY,),
                L_(
                    "bundle format {value!r} is not known here (this daimyo reads format {BUNDLE_VERSION})",
                    value=data[BUNDLE_KEY],
                    BUNDLE_VERSION=BUNDLE_VERSION,
                ),
                hint=L_("update daimyo"),
            )
        )
    lst = data.get("list")
    if not isinstance(lst, dict):
        raise DaimyoError(pos.diag(("list",) if "list" in data else (), L_("a bundle needs 'list:' with the list")))
    packs = data.get("packs") or []
    if not isinstance(packs, list) or not all(isinstance(p, dict) for p in packs):
        raise DaimyoError(pos.diag(("packs",), L_("'packs' must be a list of packs")))
    for i, p in enumerate(packs):
        if not isinstance(p.get("system"), str) or not (p.get("name") or p.get("pack")):
            raise DaimyoError(pos.diag(("packs", i), L_("each pack of a bundle needs 'system:' and 'name:'")))
    return lst, packs, pos, _read_art(data.get("art"), pos)


def _read_art(items, pos) -> dict[str, dict[str, bytes]]:
    if items is None:
        return {}
    if not isinstance(items, list):
        raise DaimyoError(pos.diag(("art",), "'art' must be a list of images"))
    out: dict[str, dict[str, bytes]] = {}
    for i, a in enumerate(items):
        if not (
            isinstance(a, dict)
            and all(isinstance(a.get(k), str) for k in ("pack", "path", "sha256", "data"))
            and path_problem(a["path"]) is None
        ):
            raise DaimyoError(
                pos.diag(
                    ("art", i), "each image of a bundle needs 'pack', 'path' (inside the pack), 'sha256' and 'data'"
                )
            )
        try:
            raw = base64.b64decode(a["data"], validate=True)
        except (binascii.Error, ValueError):
            raw = b""
        if sha256_hex(raw) != a["sha256"].lower():
            raise DaimyoError(
                pos.diag(
                    ("art", i),
                    _("art '{path}' of pack '{pack}' is damaged (its SHA-256 differs); nothing installed").format(
                        path=a["path"][:200], pack=a["pack"][:100]
                    ),
                    code="registry.hash",
                    hint=_("ask the sender for the bundle again"),
                )
            )
        why = image_problem(raw)
        if why:
            raise DaimyoError(
                pos.diag(
                    ("art", i),
                    _("art '{path}' of pack '{pack}': {why}").format(
                        path=a["path"][:200], pack=a["pack"][:100], why=why
                    ),
                    code="pack.art",
                )
            )
        out.setdefault(a["pack"], {})[norm(a["path"])] = raw
    return out


def bundled_copy(p: dict, art: dict[str, bytes]) -> Path | None:
    """The pack bundled with daimyo that is pack ``p`` (the same name, game and content), or None."""
    name = p.get("name") or p.get("pack")
    if not isinstance(name, str) or not isinstance(p.get("system"), str):
        return None
    want = PackId.of(p, art={k: sha256_hex(v) for k, v in art.items()}).hash
    key = name_key(name)
    for path in pack_files(bundled_dir()):
        head = read_header(path)
        if head.system not in (None, p["system"]) or key not in (name_key(path.name), name_key(head.name or "")):
            continue
        try:
            if pack_id(path).hash == want:
                return path
        except DaimyoError:
            continue
    return None


def install_bundle_packs(
    packs: list[dict], force: bool = False, where: str = "bundle", art: dict[str, dict[str, bytes]] | None = None
) -> list[str]:
    """Install the packs of a bundle with their art; every pack is checked (and may replace an
    installed one) before any is written. A pack that is one bundled with daimyo is used from
    there, never copied. One line per pack."""
    from builder.packs.manage import install_pack  # noqa: PLC0415 - pack management only when a bundle is made or installed; `daimyo check` loads this module

    art = art or {}
    temps = []
    out = []
    top = tempfile.mkdtemp(prefix="daimyo-bundle-")
    try:
        for n, p in enumerate(packs):
            name = p.get("name") or p.get("pack")
            files = art.get(str(name), {})
            bundled = bundled_copy(p, files)
            if bundled is not None:
                out.append(
                    _("pack {label}: bundled with daimyo, used from there (not copied)").format(
                        label=_label(name, p.get("version"))
                    )
                )
                continue
            folder = Path(top) / str(n)
            folder.mkdir()
            tmp = folder / "pack.yaml"
            tmp.write_text(_sheet().dump_pack(p), encoding="utf-8")
            for ref, raw in files.items():
                f = folder / ref
                f.parent.mkdir(parents=True, exist_ok=True)
                f.write_bytes(raw)
            temps.append((p, str(tmp), files))
        for dry in (True, False):
            for p, tmp_file, files in temps:
                try:
                    target, what = install_pack(tmp_file, force=force, dry_run=dry, art=files)
                except DaimyoError as exc:  # the lines point into a temporary file: name the pack instead
                    shown_tmp = {tmp_file, display_path(tmp_file)}
                    name = p.get("name") or p.get("pack")
                    raise DaimyoError(
                        [
                            Diagnostic(
                                where,
                                0,
                                0,
                                L_("pack '{name}': {message}", name=name, message=d.message),
                                code=d.code,
                                hint=d.hint,
                            )
                            if d.file in shown_tmp
                            else d
                            for d in exc.diagnostics
                        ]
                    ) from None
                if not dry:
                    out.append(f"pack {_label(p.get('name') or p.get('pack'), p.get('version'))}: {what}: {target}")
        return out
    finally:
        shutil.rmtree(top, ignore_errors=True)
