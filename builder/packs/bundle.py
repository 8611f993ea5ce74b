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

  In a bundle the list names each pack by its declared name, so that it finds the pack
  once installed, whatever the folders on the other machine.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from builder import yamlio
from builder.catalog.packfiles import not_found_hint, resolve_pack, resolve_recorded
from builder.catalog.packid import PackId, pack_id, read_pack
from builder.errors import DaimyoError, Diagnostic, UsageError
from builder.i18n import L_
from builder.lists.dump import dump_list_yaml
from builder.lists.packchanges import short_hash as _short
from builder.paths import display_path
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
    from builder.packs.manage import shown  # noqa: PLC0415 - pack management only when a bundle is made or installed; `daimyo check` loads this module

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


def make_bundle(doc: dict, base_dir: Path) -> dict:
    """The bundle of a canonical list: the list (packs named by their names) and the packs."""
    packs, refs = [], []
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
                "hash": _short(PackId.of(p).hash),
            }
            for r, p in zip(refs, packs, strict=True)
        ]
    return {BUNDLE_KEY: BUNDLE_VERSION, "list": lst, "packs": packs}


def dump_bundle(bundle: dict) -> str:
    from builder.packs.sheet import dump_pack  # noqa: PLC0415 - pack management only when a bundle is made or installed; `daimyo check` loads this module

    lines = [
        "# A daimyo bundle: a list and the packs it uses. Open it with 'daimyo import FILE -o LIST.yaml'",
        "# ('--install-packs' installs the packs into your packs folder).",
        f"{BUNDLE_KEY}: {bundle[BUNDLE_KEY]}",
        "list:",
    ]
    lines += ["  " + ln if ln else "" for ln in dump_list_yaml(bundle["list"]).rstrip("\n").split("\n")]
    lines.append("packs:")
    for p in bundle["packs"]:
        text = dump_pack(p).rstrip("\n").split("\n")
        text = [ln for ln in text if ln.strip()] if False else text
        lines.append("  - " + text[0])
        lines += ["    " + ln if ln else "" for ln in text[1:]]
    if not bundle["packs"]:
        lines[-1] = "packs: []"
    return "\n".join(lines) + "\n"


def is_bundle_text(text: str) -> bool:
    return re.search(rf"^[\"']?{BUNDLE_KEY}[\"']?\s*:", text, re.M) is not None


def read_bundle(path: str) -> tuple[dict, list[dict], object]:
    """(list document, pack datas, positions) of a bundle file; DaimyoError when it is damaged."""
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
    return lst, packs, pos


def install_bundle_packs(packs: list[dict], force: bool = False, where: str = "bundle") -> list[str]:
    """Install the packs of a bundle; every pack is checked (and may replace an installed one)
    before any is written. One line per pack."""
    from builder.packs.manage import install_pack  # noqa: PLC0415 - pack management only when a bundle is made or installed; `daimyo check` loads this module
    from builder.packs.sheet import dump_pack  # noqa: PLC0415 - pack management only when a bundle is made or installed; `daimyo check` loads this module

    temps = []
    try:
        for p in packs:
            fd, tmp = tempfile.mkstemp(suffix=".yaml", prefix="daimyo-bundle-")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(dump_pack(p))
            temps.append((p, tmp))
        out = []
        for dry in (True, False):
            for p, tmp in temps:
                try:
                    target, what = install_pack(tmp, force=force, dry_run=dry)
                except DaimyoError as exc:  # the lines point into a temporary file: name the pack instead
                    shown_tmp = {tmp, display_path(tmp)}
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
        for _, tmp in temps:
            try:
                os.unlink(tmp)
            except OSError:
                pass
