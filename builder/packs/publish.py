"""``daimyo pack publish PACK --to REGISTRY_FOLDER``: a new version of a pack, with its art, in a
registry folder, in one step.

The pack is checked (its art too) and refused when it has no entries or is unchanged since the
version last published there (the same data, apart from ``version:``, and the same images). Its
next version is set (``--version V``, else the pack's own when newer than the last published,
else the last published with its last number counted up: ``1`` -> ``2``, ``1.4`` -> ``1.5``),
then ``NAME-VERSION/NAME-VERSION.yaml`` and the images it names (at the same paths beside it)
are written as one folder renamed into place, and the registry's ``index.json`` is written
again. What changed since the last version is reported as ``daimyo pack update`` reports it.
"""

from __future__ import annotations

import hashlib
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from builder import limits, yamlio
from builder.catalog.packart import art_digests, art_folder, with_art
from builder.catalog.packfiles import name_key, resolve_pack, version_key
from builder.catalog.packid import PackId, content_hash, read_pack
from builder.errors import DaimyoError, UsageError, WouldOverwrite, one_line, option
from builder.i18n import _, ngettext
from builder.lists.packchanges import pack_changes, summary
from builder.packs.installer import local_art
from builder.packs.manage import check_pack
from builder.packs.registry import (
    INDEX_NAME,
    build_index,
    dump_index,
    has_entries,
    is_index_file,
    registry_pack_files,
)
from builder.packs.sheet import dump_pack
from builder.packs.store import file_name, put_folder
from builder.paths import display_path, is_file
from builder.yamlio import read_text


@dataclass
class Published:
    """A version of the pack found in the registry folder."""

    path: Path
    version: str
    data: dict
    art: dict[str, str]  # {path: SHA-256}


def same_content(data: dict, art: dict[str, str]) -> str:
    """The content hash of a pack without its ``version:``: what "unchanged" compares."""
    return with_art(content_hash({k: v for k, v in data.items() if k != "version"}), art)


def published_versions(folder: Path, name: str, system: str) -> list[Published]:
    """Every version of pack ``name`` (for ``system``) in the registry folder, oldest first; a
    file that cannot be read is skipped (``pack index`` names it)."""
    out = []
    key = name_key(name)
    for p in registry_pack_files(folder):
        try:
            data, _pos = read_pack(p)
        except DaimyoError:
            continue
        ident = PackId.of(data, p)
        if name_key(ident.name) == key and str(data.get("system", "")).strip().lower() == system:
            out.append(Published(p, ident.version or "", data, art_digests(data, art_folder(p))))
    return sorted(out, key=lambda x: version_key(x.version))


def next_version(last: str) -> str:
    """The version after ``last``: its last number counted up (``1`` -> ``2``, ``1.9`` -> ``1.10``)."""
    m = re.search(r"(\d+)(\D*)$", last)
    if m is None:
        raise UsageError(
            _("cannot tell which version comes after '{version}'").format(version=one_line(last)[:60]),
            _("give one with {option}").format(option=option("version")),
        )
    return last[: m.start(1)] + str(int(m.group(1)) + 1) + m.group(2)


def with_version(text: str, data: dict, version: str) -> str:
    """The pack's text with ``version:`` set (its comments and layout kept)."""
    line = f'version: "{version}"'
    m = re.search(r"^version[ \t]*:.*$", text, re.M)
    if m is not None:
        new = text[: m.start()] + line + text[m.end() :]
    else:
        at = None
        for key in ("name", "pack", "system"):
            at = at or re.search(rf"^{key}[ \t]*:.*$\n?", text, re.M)
        end = at.end() if at is not None else 0
        if at is not None and not text[:end].endswith("\n"):
            line = "\n" + line
        new = text[:end] + line + "\n" + text[end:]
    try:
        parsed, _pos = yamlio.parse_yaml(new, "pack", "pack.yaml", max_entries=limits.MAX_PACK_ENTRIES)
    except DaimyoError:
        parsed = None
    if parsed != {**data, "version": version}:
        return dump_pack({**data, "version": version})
    return new


def publish(pack: str, to: str, version: str | None = None) -> list[str]:
    """Publish ``pack`` (a file, or a pack name found in the packs folders) into the registry
    folder ``to``; lines for people."""
    path = Path(pack) if is_file(pack) else resolve_pack(pack)
    if path is None:
        raise UsageError(_("pack '{pack}' not found").format(pack=one_line(pack)[:200]), _("give the pack's file"))
    report = check_pack(path)
    data, _pos = read_pack(path)
    name, system = report.ident.name, report.system
    if not has_entries(data):
        raise UsageError(
            _("pack '{name}' has no entries; nothing published").format(name=name),
            _("add cards or other entries to {file} first").format(file=display_path(path)),
        )
    folder = Path(to)
    if folder.exists() and not folder.is_dir():
        raise UsageError(_("{folder} is not a folder").format(folder=to), _("give the registry's folder"))
    index_file = folder / INDEX_NAME
    if index_file.exists() and not is_index_file(index_file):
        raise WouldOverwrite(str(index_file), "file exists and is not a registry index; not overwritten")
    art = local_art(data, path)
    digests = {k: hashlib.sha256(v).hexdigest() for k, v in art.items()}
    versions = published_versions(folder, name, system) if folder.is_dir() else []
    last = versions[-1] if versions else None
    if last is not None and same_content(last.data, last.art) == same_content(data, digests):
        raise UsageError(
            _("pack '{name}' is unchanged since version {version} ({file}); nothing published").format(
                name=name, version=last.version, file=display_path(last.path)
            ),
            _("change it first"),
        )
    own = str(data["version"]) if data.get("version") is not None else None
    if version is not None:
        version = version.strip()
        if not version or len(version) > 40 or not re.fullmatch(r"[\w.+-]+", version):
            raise UsageError(
                _("version '{version}' is not usable").format(version=one_line(version)[:60]),
                _("use letters, digits, '.', '+', '-' or '_', e.g. 2 or 1.3"),
            )
        if last is not None and version_key(version) <= version_key(last.version):
            raise UsageError(
                _("version {version} is not newer than {last}, published already").format(
                    version=version, last=last.version
                ),
                _("give a newer one with {option}, or leave it out").format(option=option("version")),
            )
    elif last is None:
        version = own or "1"
    elif own is not None and version_key(own) > version_key(last.version):
        version = own
    else:
        version = next_version(last.version)
    stem = f"{file_name(name)}-{file_name(version)}"
    target = folder / stem
    if target.exists():
        raise WouldOverwrite(str(target), "exists already; nothing published")
    text = with_version(read_text(path, "pack.yaml"), data, version)
    folder.mkdir(parents=True, exist_ok=True)
    put_folder({f"{stem}.yaml": text.encode("utf-8"), **art}, target)
    try:
        index, index_lines = build_index(folder)
    except DaimyoError:
        shutil.rmtree(target, ignore_errors=True)  # the registry holds a pack that is not valid: nothing published
        raise
    yamlio.atomic_write(index_file, dump_index(index), force=True)
    out = [
        _("published {name} {version} ({game}): {file}").format(
            name=name, version=version, game=system, file=display_path(target / f"{stem}.yaml")
        )
    ]
    if art:
        out.append(
            ngettext("  with {n} image: {paths}", "  with {n} images: {paths}", len(art)).format(
                n=len(art), paths=", ".join(sorted(art))
            )
        )
    if last is not None:
        changes = pack_changes(last.data, data)
        art_changed = sorted(p for p in set(digests) | set(last.art) if digests.get(p) != last.art.get(p))
        out.append(f"{name}: {last.version} -> {version} ({system}): {summary(changes)}")
        out += [f"  {c.text()}" for c in changes]
        out += [_("  art changed: {path}").format(path=p) for p in art_changed]
    out += [line for line in index_lines if line.startswith("warning:")]
    n = len(index["packs"])
    out.append(
        ngettext("wrote {file}: {n} pack version", "wrote {file}: {n} pack versions", n).format(
            file=display_path(index_file), n=n
        )
    )
    return out
