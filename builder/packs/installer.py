"""Installing packs from registries, addresses and files; updates and what they change.

Nothing is written until every pack of an install (the pack and the packs it needs) is
downloaded, matched with the index's SHA-256 and checked with its game's catalog; then each
is stored and put in use atomically (``builder.packs.store``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote, urljoin

from builder import limits, yamlio
from builder.catalog.packart import art_folder, art_refs, image_problem, path_problem
from builder.catalog.packfiles import bundled_dir, name_key, pack_files, read_header, resolve_pack, resolve_recorded
from builder.catalog.packid import PackId, pack_id, read_pack
from builder.errors import CatalogError, DaimyoError, Diagnostic, UsageError, command_line, option
from builder.i18n import L_, _
from builder.lists.packchanges import for_list, lists_using, pack_changes, summary
from builder.packs import store
from builder.packs.manage import check_pack
from builder.packs.registry import (
    all_entries,
    choose,
    daimyo_version,
    fetch,
    name_key_of,
    needs_newer_daimyo,
    newest,
    sha256_hex,
    split_ref,
    too_big_error,
    version_key,
)
from builder.paths import display_path, is_file, within
from builder.yamlio import read_bytes

if TYPE_CHECKING:
    from builder.packs.registry import Entry


@dataclass
class Ready:
    """A pack downloaded (or read) and checked, not yet written."""

    data: bytes
    ident: PackId
    game: str
    sha256: str
    source: str
    pack: dict  # its data
    origin: str = ""  # the registry's index, or the folder of the address or file (``origin_of``)
    art: dict = field(default_factory=dict)  # {path: bytes}: the images it names, checked


class WouldShadow(UsageError):
    """``refuse_shadows``' refusal: installing ``label`` from ``origin`` would take the place of
    each of ``taken`` (what, how to have it back) in every list that names it; nothing was
    installed. A page shows what would be replaced and asks before installing with ``replace``."""

    def __init__(self, message: str, hint: str, label: str, origin: str, taken: list[tuple[str, str]]):
        super().__init__(message, hint)
        self.label, self.origin, self.taken = label, origin, taken


def origin_of(source: str) -> str:
    """Where a pack installed from an address or a file comes from: its folder (versions 1 and 2
    side by side in one folder are of one origin)."""
    if "://" in source:
        try:
            return urljoin(source, ".")
        except ValueError:
            return source
    return str(Path(source).parent)


def _is_address(ref: str) -> bool:
    return "://" in ref and re.match(r"[A-Za-z][A-Za-z0-9+.-]+:", ref) is not None


def verify(data: bytes, entry) -> None:
    """Refuse bytes whose SHA-256 is not the index's."""
    got = sha256_hex(data)
    if got != entry.sha256:
        raise DaimyoError(
            Diagnostic(
                entry.url,
                0,
                0,
                L_(
                    "SHA-256 {value}... differs from the index's {value2}...; nothing installed",
                    value=got[:16],
                    value2=entry.sha256[:16],
                ),
                code="registry.hash",
                hint=L_(
                    "the file changed after the index was made, or was altered on the way: tell the registry's maintainers"
                ),
            )
        )


def art_problem(where: str, ref: str, message: str, hint: str | None = None) -> DaimyoError:
    return DaimyoError(
        Diagnostic(
            where,
            0,
            0,
            _("art '{path}': {why}; nothing installed").format(path=ref[:200], why=message),
            code="pack.art",
            hint=hint,
        )
    )


def fetch_art(pack: dict, url: str, entry=None) -> dict[str, bytes]:
    """The images pack data fetched from ``url`` names, each fetched beside it (and, from a
    registry, verified by the SHA-256 its index gives) and checked as art; DaimyoError (one
    line) for the first that fails. Nothing is written."""
    refs = art_refs(pack)
    listed = {a["path"]: a for a in entry.art} if entry is not None else {}
    out = {}
    for ref in refs:
        why = path_problem(ref)
        if why is not None:
            raise art_problem(url, ref, why)
        if entry is not None and ref not in listed:
            raise art_problem(
                url,
                ref,
                _("the pack names it and the registry's index does not carry it"),
                _("tell the registry's maintainers"),
            )
        where = urljoin(url, quote(ref))
        a = listed.get(ref)
        if a is not None and a.get("size") is not None and a["size"] > limits.MAX_ART_BYTES:
            raise too_big_error(where, a["size"], limits.MAX_ART_BYTES)
        raw = fetch(where, "art", limits.MAX_ART_BYTES)
        if a is not None and sha256_hex(raw) != a["sha256"]:
            got = sha256_hex(raw)
            raise DaimyoError(
                Diagnostic(
                    where,
                    0,
                    0,
                    _("SHA-256 {got}... differs from the index's {want}...; nothing installed").format(
                        got=got[:16], want=a["sha256"][:16]
                    ),
                    code="registry.hash",
                    hint=_(
                        "the image changed after the index was made, or was altered on the way: "
                        "tell the registry's maintainers"
                    ),
                )
            )
        problem = image_problem(raw)
        if problem:
            raise art_problem(where, ref, problem)
        out[ref] = raw
    return out


def local_art(pack: dict, path: Path) -> dict[str, bytes]:
    """The images a pack file here names, read from beside it (``check_pack`` checked them)."""
    folder = art_folder(path)
    out = {}
    for ref in art_refs(pack):
        real = within(folder, ref)
        if real is not None and real.is_file():
            out[ref] = real.read_bytes()
    return out


def prepare(data: bytes, source: str, entry=None, art: dict[str, bytes] | None = None) -> Ready:
    """Check downloaded bytes as a pack (and, from a registry, that it is the pack the index
    names). ``art``: the images it names, fetched and checked (``fetch_art``); None: fetched
    here, beside ``source`` (read from beside it for a file)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise DaimyoError(Diagnostic(source, 0, 0, L_("not UTF-8 text"), code="pack.yaml")) from None
    pack, pos = yamlio.parse_yaml(text, source, "pack.yaml", max_entries=limits.MAX_PACK_ENTRIES)
    if not isinstance(pack, dict):
        raise CatalogError(pos.diag((), L_("a pack must be a mapping with 'system:' and sections"), code="pack.type"))
    report = check_pack(source, parsed=(pack, pos))
    if art is None:
        art = fetch_art(pack, source, entry) if "://" in source else local_art(pack, Path(source))
    ident = PackId.of(pack, source, art={k: sha256_hex(v) for k, v in art.items()})
    if entry is not None:
        if (name_key_of(ident.name), ident.version, report.system) != (
            name_key_of(entry.name),
            entry.version,
            entry.game,
        ):
            raise DaimyoError(
                Diagnostic(
                    source,
                    0,
                    0,
                    L_(
                        "the file is pack '{label}' ({system}), the index says '{label2}' ({game}); nothing installed",
                        label=ident.label(),
                        system=report.system,
                        label2=entry.label(),
                        game=entry.game,
                    ),
                    code="registry.mismatch",
                    hint=L_("tell the registry's maintainers"),
                )
            )

    origin = entry.registry if entry is not None and entry.registry else origin_of(source)
    return Ready(data, ident, report.system, sha256_hex(data), source, pack, origin, art)


def _needs_daimyo(ready: Ready) -> None:
    need = ready.pack.get("daimyo")
    if need is not None and needs_newer_daimyo(str(need)):
        raise UsageError(
            L_(
                "pack '{label}' needs daimyo {need} or newer; this is daimyo {daimyo_version}",
                label=ready.ident.label(),
                need=need,
                daimyo_version=daimyo_version(),
            ),
            L_("update daimyo, or install an older version of the pack"),
        )


def download(entry) -> Ready:
    if entry.size is not None:
        if entry.size > limits.MAX_DOWNLOAD_BYTES:
            raise too_big_error(entry.url, entry.size, limits.MAX_DOWNLOAD_BYTES)
    data = fetch(entry.url, "pack")
    verify(data, entry)
    return prepare(data, entry.url, entry)


def _plan(entry, entries, planned: dict) -> None:
    """``entry`` and the packs it needs that are not installed, in install order (the needed
    ones later: they are installed first). At most ``MAX_PACKS_PER_INSTALL`` packs: a registry
    whose packs need each other in a long chain is refused, not followed."""
    todo = [entry]
    while todo:
        e = todo.pop()
        key = (name_key_of(e.name), e.game)
        if key in planned:
            continue
        planned[key] = e
        if len(planned) > limits.MAX_PACKS_PER_INSTALL:
            raise UsageError(
                L_(
                    "pack '{label}' needs more than {MAX_PACKS_PER_INSTALL} packs (MAX_PACKS_PER_INSTALL); nothing installed",
                    label=entry.label(),
                    MAX_PACKS_PER_INSTALL=limits.MAX_PACKS_PER_INSTALL,
                ),
                L_("tell the registry's maintainers"),
            )
        for need in reversed(e.needs):
            name, version = split_ref(need)
            have = resolve_pack(name, None, e.game)
            if have is not None and (version is None or read_header(have).version == version):
                continue
            todo.append(choose(entries, name, version, e.game))


def install(ref: str, game: str | None = None, force: bool = False, replace: bool = False) -> list[str]:
    """``daimyo pack install REF``: a registry name (``NAME`` or ``NAME@VERSION``), an address
    or a file. Lines for people. ``replace``: a pack that takes the place of a bundled pack, or
    of an installed one of another origin, is installed (and said so); otherwise refused."""
    if _is_address(ref):
        ready = prepare(fetch(ref, "pack"), ref)
        _needs_daimyo(ready)
        return put_in_use([ready], force, replace)
    if is_file(ref):
        check_pack(ref)  # its art too, read from beside it
        ready = prepare(read_bytes(ref, "pack.yaml"), str(Path(ref).resolve()))
        _needs_daimyo(ready)
        return put_in_use([ready], force, replace)

    name, version = split_ref(ref)
    if version is not None:  # kept here: brought back without the network
        old = store.find(name, version)
        if old is not None and (game is None or old.game == game):
            with store.locked():
                path = store.activate(old)
            return [f"{old.label()}: in use again (kept from {old.source}): {path}"]
    entries = all_entries()
    entry = choose(entries, name, version, game)
    current, _path = store.in_use(entry.name)
    if current is not None and entry.content and current.hash == entry.content:
        return [f"{entry.label()}: already installed and in use: {_path}"]
    kept = store.find(entry.name, entry.version, content=entry.content) if entry.content else None
    if kept is not None and not entry.needs:  # the very content the index names: no download
        with store.locked():
            path = store.activate(kept)
        return [f"{kept.label()}: in use again (kept from {kept.source}): {path}"]
    planned: dict = {}
    _plan(entry, entries, planned)
    readies = [download(e) for e in reversed(list(planned.values()))]  # needed packs first
    return put_in_use(readies, force, replace)


def bundled_named(name: str, game: str) -> list[Path]:
    """The packs bundled with daimyo that lists know as ``name`` (any spelling) for ``game``."""
    key = name_key(name)
    out = []
    for p in pack_files(bundled_dir()):
        h = read_header(p)
        if h.system in (None, game) and (name_key(p.name) == key or name_key(h.name or "") == key):
            out.append(p)
    return out


def shadows(r: Ready) -> list[tuple[str, str]]:
    """What installing ``r`` would take the place of, for every list that names it: a bundled
    pack, or the installed pack of another origin; (what, how to have it back) for each."""
    out = []
    for p in bundled_named(r.ident.name, r.game):
        try:
            if pack_id(p).hash == r.ident.hash:
                continue
        except DaimyoError:
            pass
        out.append((f"the pack bundled with daimyo ({p.name})", f"'daimyo pack remove \"{r.ident.name}\"'"))
    current, _path = store.in_use(r.ident.name)
    if current is not None and current.hash != r.ident.hash and current.origin and current.origin != r.origin:
        back = f"{current.name}@{current.version}" if current.version else current.name
        out.append((f"'{current.label()}' installed from {current.origin}", f"'daimyo pack install \"{back}\"'"))
    return out


def refuse_shadows(readies: list[Ready], replace: bool, hint: str | None = None) -> None:
    """UsageError for the first pack that would take the place of another (``shadows``), unless
    ``replace``; ``hint``: how to install it all the same (default: the ``replace`` option)."""
    for r in readies:
        taken = shadows(r)
        if taken and not replace:
            raise WouldShadow(
                L_(
                    "pack '{label}' from {origin} has the name of {value}: installed, it would take its place in every list that names it; nothing installed",
                    label=r.ident.label(),
                    origin=r.origin,
                    value=" and of ".join((what for what, _back in taken)),
                ),
                hint or L_("pass {option} to install it all the same", option=option("replace")),
                r.ident.label(),
                r.origin,
                taken,
            )


def put_in_use(readies: list[Ready], force: bool, replace: bool = False) -> list[str]:
    """Store and put in use checked packs; a file in use that is no stored version (a pack made
    or copied by hand) is replaced only with ``force``, and a pack that would take the place of
    a bundled one or of one installed from elsewhere (``shadows``) only with ``replace``."""
    out = []
    refuse_shadows(readies, replace)  # before the packs folder is made
    with store.locked():
        refuse_shadows(readies, replace)  # and again under the lock: another install may have run
        for r in readies:
            current, path = store.in_use(r.ident.name)
            if path.is_file() and current is None and not force:
                try:
                    same = pack_id(path).hash == r.ident.hash
                except DaimyoError:
                    same = False
                if not same:
                    raise UsageError(
                        L_(
                            "{path} holds pack '{name}' that was not installed from a registry or a file (made or copied by hand)",
                            path=path,
                            name=r.ident.name,
                        ),
                        L_("pass {option} to replace it", option=option("force")),
                    )
        for r in readies:
            current, path = store.in_use(r.ident.name)
            if current is None and path.is_file():  # a pack made by hand, replaced with force: kept too
                try:
                    old, raw = pack_id(path), path.read_bytes()
                    if old.hash != r.ident.hash:
                        current = store.store(
                            raw,
                            old,
                            old.system or r.game,
                            sha256_hex(raw),
                            f"made or copied by hand ({path})",
                            art=store.read_art(path),
                        )
                except (DaimyoError, OSError):
                    pass
            taken = shadows(r)
            rec = store.store(r.data, r.ident, r.game, r.sha256, r.source, r.origin, r.art)
            if current is not None and current.hash == rec.hash and path.is_file():
                out.append(f"{rec.label()}: already installed and in use: {path}")
                continue
            target = store.activate(rec)
            was = f" (was {current.label()}, kept)" if current is not None else ""
            out.append(f"{rec.label()} ({r.game}): installed from {r.source}{was}: {target}")
            for what, back in taken:
                out.append(
                    f"warning: '{rec.label()}' now takes the place of {what} in every list that names "
                    f"'{r.ident.name}'; {back} gives it back"
                )
    return out


# -- updates ------------------------------------------------------------------------------------


@dataclass
class Update:
    name: str
    game: str
    current: str | None  # version in use
    path: Path
    entry: Entry  # the newer registry Entry
    data: dict  # the data in use


def outdated(name: str | None = None) -> list[Update]:
    """The installed packs (all, or ``name``) for which a registry has a newer version this
    daimyo can use."""
    entries = all_entries()
    out = []
    seen = False
    for _rec, path, ident in store.installed_in_use():
        if name is not None and name_key_of(ident.name) != name_key_of(name):
            continue
        seen = True
        e = newest(entries, ident.name, ident.system)
        if e is None or version_key(e.version) <= version_key(ident.version):
            continue
        try:
            data = read_pack(path)[0]
        except DaimyoError:
            continue
        out.append(Update(ident.name, ident.system or e.game, ident.version, path, e, data))
    if name is not None and not seen:
        raise UsageError(
            L_("pack '{name}' is not installed in {folder}", name=name, folder=store.folder()),
            L_("'daimyo pack list' shows the packs"),
        )
    return out


@dataclass
class UpdateReport:
    """What replacing the version in use with a new one changes: the pack's entries added,
    removed and changed (``changes``), and for each list that uses the pack the changes that
    concern its entries (``lists``: file, changes; none: none of its entries change)."""

    update: Update
    version: str  # the new version
    changes: list  # builder.lists.packchanges.EntryChange
    lists: list  # [(Path, [EntryChange])]

    def head(self) -> str:
        u = self.update
        return f"{u.name}: {u.current or '(no version)'} -> {self.version} ({u.game}): {summary(self.changes)}"

    def lines(self) -> list[str]:
        """The report as ``daimyo pack update`` prints it."""
        lines = [self.head()]
        lines += [f"  {c.text()}" for c in self.changes]
        for f, mine in self.lists:
            what = "; ".join(c.text() for c in mine) if mine else "none of its entries change"
            lines.append(f"  list {display_path(f)}: {what}")
        return lines


def report(update: Update, ready: Ready, list_paths: list[str]) -> UpdateReport:
    """What replacing the version in use with ``ready`` changes: for the pack, then for each list
    among ``list_paths`` (files, or folders searched) that uses it."""
    changes = pack_changes(update.data, ready.pack)
    lists = [(f, for_list(changes, data)) for f, data in lists_using(update.path, list_paths)]
    return UpdateReport(update, update.entry.version, changes, lists)


def describe(update: Update, ready: Ready, list_paths: list[str]) -> list[str]:
    """``report`` as lines for people."""
    return report(update, ready, list_paths).lines()


def install_recorded(doc: dict, base_dir, names_only: bool = False, force: bool = False) -> list[str]:
    """``daimyo import SOURCE --install-packs`` for a list that names its packs (a share code,
    text, YAML): install from the registries each pack it records that is missing here or
    differs, the version it records, refusing one whose content is not the recorded one."""
    recorded = {str(e.get("pack")): e for e in doc.get("checked_with") or [] if isinstance(e, dict)}
    wanted = []
    for ref in doc.get("packs") or []:
        rec = recorded.get(str(ref), {})
        path = resolve_recorded(str(ref), doc, base_dir, doc.get("system"), names_only=names_only)
        if path is not None:
            try:
                if not rec.get("hash") or pack_id(path).hash.startswith(rec["hash"]):
                    continue
            except DaimyoError:
                pass
        wanted.append((str(rec.get("name") or ref), rec.get("version"), rec.get("hash")))
    if not wanted:
        return ["every pack the list names is here"]
    entries = all_entries()
    planned: dict = {}
    for name, version, content in wanted:
        entry = choose(entries, name, version, doc.get("system"))
        if content and entry.content and not entry.content.startswith(content):
            raise DaimyoError(
                Diagnostic(
                    entry.url,
                    0,
                    0,
                    L_(
                        "pack '{label}' in the registry is not the one the list was made with (content {content} recorded); nothing installed",
                        label=entry.label(),
                        content=content,
                    ),
                    code="registry.hash",
                    hint=command_line("ask the sender for a bundle: 'daimyo export LIST --to bundle'"),
                )
            )
        _plan(entry, entries, planned)
    readies = [download(e) for e in reversed(list(planned.values()))]
    for name, _version, content in wanted:
        for r in readies:
            if name_key_of(r.ident.name) == name_key_of(name) and content and not r.ident.hash.startswith(content):
                raise DaimyoError(
                    Diagnostic(
                        r.source,
                        0,
                        0,
                        L_(
                            "pack '{label}' is not the one the list was made with (content {content} recorded); nothing installed",
                            label=r.ident.label(),
                            content=content,
                        ),
                        code="registry.hash",
                        hint=command_line("ask the sender for a bundle: 'daimyo export LIST --to bundle'"),
                    )
                )
    for r in readies:
        refuse_shadows(
            [r], False, command_line(f'to install it all the same: daimyo pack install "{r.ident.name}" --replace')
        )
    return put_in_use(readies, force)
