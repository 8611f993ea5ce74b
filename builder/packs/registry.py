"""Pack registries: a static ``index.json`` of packs, where to find registries, and downloads.

A registry is a folder of pack files with an ``index.json`` beside them (written by
``daimyo pack index FOLDER``), served from any static host (a git repository's raw files, a
web page) or read from a local folder::

    {"daimyo_registry": 1,
     "packs": [{"name": "Club cards", "game": "senshiai", "version": "2",
                "description": "...", "authors": ["..."], "licence": "CC-BY-4.0",
                "sha256": "<64 hex digits of the file's bytes>", "size": 1234,
                "content": "sha256:<64 hex digits of the pack's data>",
                "url": "club-cards-2.yaml", "needs": ["Other pack"], "daimyo": "0.1",
                "art": [{"path": "art/warriors.png", "sha256": "<64 hex digits>", "size": 5678}]}]}

``url`` is relative to the index (or absolute); ``content`` is the pack's content hash, the
one lists record (``checked_with``), which covers its images; ``art`` lists the images the pack
names, each ``path`` relative to the pack's file, fetched and verified by its SHA-256 like the
pack. The registries used come from ``DAIMYO_REGISTRY`` (index
URLs or folders separated by spaces) or else ``registries = [...]`` in the user's config file
(``config.toml`` in the config folder). Every download is size-limited, time-limited, follows
few redirects and reads ``http``, ``https`` and ``file`` addresses only
(``builder.limits``).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import socket
import stat
import threading
import time
import tomllib
import urllib.error
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal
from urllib.parse import SplitResult, quote, urljoin, urlsplit

from builder import SYSTEMS, __version__, limits, yamlio
from builder.catalog.packart import art_folder, art_refs, norm, path_problem
from builder.catalog.packfiles import PACK_SUFFIXES, config_dir, name_key, split_ref, version_key
from builder.catalog.packid import PackId
from builder.errors import CatalogError, DaimyoError, Diagnostic, UsageError, one_line, option
from builder.i18n import L_, _
from builder.names import did_you_mean, loose
from builder.packs.manage import check_pack
from builder.paths import cache_dir, display_path, within
from builder.safeout import json_text
from builder.yamlio import entries_over, read_bytes

INDEX_KEY = "daimyo_registry"
INDEX_FORMAT = 1
INDEX_NAME = "index.json"
SCHEMES = ("http", "https", "file")
CONFIG_NAME = "config.toml"


# -- versions ---------------------------------------------------------------------------------


def daimyo_version() -> str:
    return __version__


def needs_newer_daimyo(minimum: str | None) -> bool:
    return minimum is not None and version_key(minimum) > version_key(daimyo_version())


# -- the index --------------------------------------------------------------------------------


@dataclass
class Entry:
    """One pack version in a registry's index."""

    name: str
    game: str
    version: str
    sha256: str
    url: str  # absolute (resolved against the index's address)
    registry: str = ""
    size: int | None = None
    content: str | None = None
    description: str | None = None
    authors: list[str] = field(default_factory=list)
    licence: str | None = None
    needs: list[str] = field(default_factory=list)
    daimyo: str | None = None
    art: list[dict[str, Any]] = field(default_factory=list)  # [{"path", "sha256", "size"}]: the images it carries

    def label(self) -> str:
        return f"{self.name} {self.version}"

    @property
    def compatible(self) -> bool:
        return not needs_newer_daimyo(self.daimyo)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "name": self.name,
            "game": self.game,
            "version": self.version,
            "sha256": self.sha256,
            "url": self.url,
            "registry": self.registry,
        }
        for k in ("size", "content", "description", "licence", "daimyo"):
            if getattr(self, k) is not None:
                d[k] = getattr(self, k)
        if self.authors:
            d["authors"] = list(self.authors)
        if self.needs:
            d["needs"] = list(self.needs)
        if self.art:
            d["art"] = [dict(a) for a in self.art]
        return d


_HEX64 = re.compile(r"^[0-9a-f]{64}$")


def parse_index(text: str, where: str) -> list[Entry]:
    """The entries of an index's text; DaimyoError naming the line of the first problem."""
    if text.lstrip().startswith("{") is False:
        raise DaimyoError(
            Diagnostic(
                where,
                1,
                1,
                L_("not a registry index (a JSON object was expected)"),
                code="registry.index",
                hint=L_("'daimyo pack index FOLDER' writes one"),
            )
        )

    if entries_over(text, limits.MAX_INDEX_ENTRIES, limits.MAX_PACK_VALUES):
        raise DaimyoError(
            Diagnostic(
                where,
                1,
                1,
                L_(
                    "more than {MAX_INDEX_ENTRIES:,} pack versions or {MAX_PACK_VALUES:,} values (MAX_INDEX_ENTRIES); not read",
                    MAX_INDEX_ENTRIES=limits.MAX_INDEX_ENTRIES,
                    MAX_PACK_VALUES=limits.MAX_PACK_VALUES,
                ),
                code="registry.index",
                hint=L_("a registry's index lists at most that many; tell its maintainers"),
            )
        )
    data, pos = yamlio.parse_yaml(text, where, "registry.index")
    if not isinstance(data, dict) or INDEX_KEY not in data:
        raise DaimyoError(
            Diagnostic(
                where,
                1,
                1,
                L_("not a registry index (no '{INDEX_KEY}' key)", INDEX_KEY=INDEX_KEY),
                code="registry.index",
                hint=L_("'daimyo pack index FOLDER' writes one"),
            )
        )
    if data[INDEX_KEY] != INDEX_FORMAT:
        raise DaimyoError(
            pos.diag(
                (INDEX_KEY,),
                L_(
                    "registry index format {value!r} is not known here (this daimyo reads format {INDEX_FORMAT})",
                    value=data[INDEX_KEY],
                    INDEX_FORMAT=INDEX_FORMAT,
                ),
                code="registry.index",
                hint=L_("update daimyo"),
            )
        )
    packs = data.get("packs")
    if not isinstance(packs, list):
        raise DaimyoError(
            pos.diag(
                ("packs",) if "packs" in data else (), L_("'packs' must be a list of packs"), code="registry.index"
            )
        )
    out = []
    for i, p in enumerate(packs):

        def bad(
            key: str | None, message: str, hint: str | None = None, i: int = i, p: Any = p
        ) -> DaimyoError:  # this pack's index and object, bound now
            at = ("packs", i, key) if isinstance(p, dict) and key in p else ("packs", i)
            return DaimyoError(pos.diag(at, message, code="registry.index", hint=hint))

        if not isinstance(p, dict):
            raise bad(None, L_("each pack of the index must be an object"))
        for key in ("name", "game", "version", "sha256", "url"):
            if not isinstance(p.get(key), str) or not p[key].strip():
                raise bad(
                    key,
                    L_("'{key}' must be text", key=key) if key in p else L_("pack has no '{key}'", key=key),
                    L_("'daimyo pack index FOLDER' writes a valid index"),
                )
        if p["game"] not in SYSTEMS:
            raise bad(
                "game", L_("unknown game '{game}'", game=p["game"]), L_("one of {values}", values=", ".join(SYSTEMS))
            )
        if not _HEX64.match(p["sha256"].lower()):
            raise bad("sha256", L_("'sha256' must be 64 hexadecimal digits"))
        for key in ("needs", "authors"):
            if key in p and (not isinstance(p[key], list) or not all(isinstance(x, str) for x in p[key])):
                raise bad(key, L_("'{key}' must be a list of text", key=key))
        for key in ("description", "licence", "daimyo", "content"):
            if key in p and p[key] is not None and not isinstance(p[key], str):
                raise bad(key, L_("'{key}' must be text", key=key))
        size = p.get("size")
        if size is not None and (isinstance(size, bool) or not isinstance(size, int) or size < 0):
            raise bad("size", L_("'size' must be a whole number of bytes"))
        try:
            url = absolute_url(p["url"], where)
        except DaimyoError as exc:
            raise bad("url", exc.diagnostics[0].message, exc.diagnostics[0].hint) from None
        art = p.get("art") or []
        problem = _art_problem(art)
        if problem:
            raise bad("art", problem, "'daimyo pack index FOLDER' writes a valid index")
        out.append(
            Entry(
                name=p["name"].strip(),
                game=p["game"],
                version=p["version"].strip(),
                sha256=p["sha256"].lower(),
                url=url,
                registry=where,
                size=size,
                content=p.get("content"),
                description=p.get("description"),
                authors=list(p.get("authors") or []),
                licence=p.get("licence"),
                needs=list(p.get("needs") or []),
                daimyo=p.get("daimyo"),
                art=[{"path": a["path"], "sha256": a["sha256"], "size": a.get("size")} for a in art],
            )
        )
    return out


def _art_problem(art: Any) -> str | None:
    """What is wrong with the ``art`` of a pack of an index, or None."""
    if not isinstance(art, list) or len(art) > limits.MAX_ART_FILES:
        return f"'art' must be a list of at most {limits.MAX_ART_FILES:,} images"
    for a in art:
        if (
            not isinstance(a, dict)
            or not isinstance(a.get("path"), str)
            or path_problem(a["path"]) is not None
            or norm(a["path"]) != a["path"]
            or not isinstance(a.get("sha256"), str)
            or not _HEX64.match(a["sha256"])
            or (a.get("size") is not None and (isinstance(a["size"], bool) or not isinstance(a["size"], int)))
        ):
            return "each image of 'art' needs 'path' (inside the pack's folder) and 'sha256' (64 hexadecimal digits)"
    return None


def absolute_url(url: str, base: str) -> str:
    """``url`` (relative to the index at ``base``, or absolute) as an absolute address whose
    scheme daimyo reads; UsageError for any other scheme."""
    try:
        full = urljoin(base, url)
    except ValueError as exc:
        raise UsageError(
            L_("address '{url}' is not a valid address: {exc}", url=url, exc=exc), L_("check the address")
        ) from None
    try:
        scheme = split_address(full).scheme.lower()
    except DaimyoError as exc:
        raise UsageError(
            L_("address '{url}' is {message}", url=url, message=exc.diagnostics[0].message), L_("check the address")
        ) from None
    if scheme not in SCHEMES:
        raise UsageError(
            L_("address '{url}' is not http, https or file", url=url),
            L_("registries are read over http(s) or from a folder"),
        )
    if scheme == "file" and urlsplit(base).scheme.lower() != "file":
        raise UsageError(
            L_("address '{url}' is a file on this machine, named by a registry on the network", url=url),
            L_("a registry served over http(s) names its packs by http(s) addresses"),
        )
    return full


# -- which registries -------------------------------------------------------------------------


def registry_urls() -> list[str]:
    """The index addresses to use: ``DAIMYO_REGISTRY`` (spaces between several) or the config
    file's ``registries``; folders and paths become ``file:`` addresses."""
    env = os.environ.get("DAIMYO_REGISTRY")
    if env is not None:
        return [to_index_url(x) for x in env.split() if x.strip()]
    cfg = config_file()
    if not cfg.is_file():
        return []

    try:
        data = tomllib.loads(cfg.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        m = re.search(r"line (\d+), column (\d+)", str(exc))
        line, col = (int(m.group(1)), int(m.group(2))) if m else (0, 0)
        raise DaimyoError(
            Diagnostic(
                str(cfg),
                line,
                col,
                L_("config file unreadable: {exc}", exc=exc),
                code="registry.config",
                hint=L_('registries = ["https://.../index.json"]'),
            )
        ) from exc
    regs = data.get("registries", [])
    if isinstance(regs, (str, dict)):
        regs = [regs]
    if isinstance(regs, list):  # {name = "club", url = "..."}, as 'daimyo registry add' writes
        regs = [x.get("url") if isinstance(x, dict) else x for x in regs]
    if not isinstance(regs, list) or not all(isinstance(x, str) for x in regs):
        raise DaimyoError(
            Diagnostic(
                str(cfg),
                0,
                0,
                L_("'registries' must be a list of index addresses"),
                code="registry.config",
                hint=L_('registries = ["https://.../index.json"]'),
            )
        )
    return [to_index_url(x, cfg.parent) for x in regs]


def config_file() -> Path:
    return config_dir() / CONFIG_NAME


def to_index_url(ref: str, base: Path | None = None) -> str:
    """A registry as written (URL, folder or index file) as the address of its index."""
    ref = ref.strip()
    try:
        scheme = urlsplit(ref).scheme.lower()
        if len(scheme) > 1:
            urlsplit(ref).port  # noqa: B018 - read to check it
    except ValueError as exc:
        raise UsageError(
            L_("registry '{ref}' is not a valid address: {exc}", ref=ref, exc=exc),
            L_("give the address of its index.json, or a folder"),
        ) from None
    if len(scheme) > 1:  # not a Windows drive letter
        if scheme not in SCHEMES:
            raise UsageError(
                L_("registry '{ref}' is not an http, https or file address", ref=ref),
                L_("give the address of its index.json, or a folder"),
            )
        return ref + INDEX_NAME if ref.endswith("/") else ref
    try:
        p = Path(ref).expanduser()
        if base is not None and not p.is_absolute():
            p = base / p
        p = p.resolve()
    except (OSError, RuntimeError, ValueError) as exc:  # a symbolic link loop, a NUL character
        raise UsageError(
            L_("registry '{ref}' cannot be read: {exc}", ref=ref, exc=exc),
            L_("give the address of its index.json, or a folder"),
        ) from None
    if p.is_dir():
        p = p / INDEX_NAME
    return p.as_uri()


def no_registry_hint() -> str:
    return "add one: 'daimyo registry add URL|FOLDER' (or set DAIMYO_REGISTRY to its index address or folder)"


# -- downloads --------------------------------------------------------------------------------


def split_address(url: str, shown: str | None = None) -> SplitResult:
    """``urlsplit(url)``, its port checked; DaimyoError (one line) for an address that cannot be
    one (``http://[::1``, a port past 65535)."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - read to check it: a port out of range raises here, not later
    except ValueError as exc:
        raise _refuse(shown or url, f"not a valid address: {exc}", "check the address") from None
    return parts


def fetch(url: str, what: str = "download", limit: int | None = None) -> bytes:
    """The bytes at ``url`` (http, https or file), at most ``limit`` bytes, within the time
    limits (``DOWNLOAD_TIMEOUT_SECONDS`` of silence, ``DOWNLOAD_TOTAL_SECONDS`` in all),
    following at most ``MAX_REDIRECTS`` redirects; DaimyoError (one line) otherwise, and for an
    answer shorter than the length its server announced."""
    from urllib.request import url2pathname  # noqa: PLC0415 - the network stack only when a pack is downloaded

    limit = limits.MAX_DOWNLOAD_BYTES if limit is None else limit
    parts = split_address(url)
    scheme = parts.scheme.lower()
    if scheme not in SCHEMES:
        raise _refuse(url, f"not an http, https or file address ({scheme or 'no scheme'})")
    if scheme == "file":
        path = url2pathname(parts.path)
        try:
            st = os.stat(path)
            if not stat.S_ISREG(st.st_mode):
                raise _refuse(url, "not a regular file")
            if st.st_size > limit:
                raise too_big_error(url, st.st_size, limit)
            with open(path, "rb") as fh:
                data = fh.read(limit + 1)
        except (OSError, ValueError) as exc:
            raise _refuse(url, f"cannot read it: {getattr(exc, 'strerror', None) or exc}") from None
        if len(data) > limit:
            raise too_big_error(url, None, limit)
        return data
    return _fetch_http(url, limit)


def _refuse(url: str, message: str, hint: str | None = None) -> DaimyoError:
    return DaimyoError(Diagnostic(one_line(url), 0, 0, one_line(message), code="registry.download", hint=hint))


def too_big_error(url: str, size: int | None, limit: int) -> DaimyoError:
    """The error of a download from ``url`` of ``size`` bytes (None: unknown, more) over ``limit``."""
    got = f"{size:,} bytes" if size is not None else "more"
    return _refuse(
        url,
        f"too large: {got}, more than the limit of {limit:,} bytes (MAX_DOWNLOAD_BYTES)",
        "a pack or an index is at most that size",
    )


def _late(url: str) -> DaimyoError:
    return _refuse(
        url,
        f"download took longer than {limits.DOWNLOAD_TOTAL_SECONDS:g} s (DOWNLOAD_TOTAL_SECONDS)",
        "try again later",
    )


class _Deadline:
    """The total time one download may take, whatever its server does: at the deadline every
    connection the download opened is shut down, which ends a read that is waiting (a server
    that sends a byte now and then is never silent long enough for the socket's timeout)."""

    def __init__(self, seconds: float):
        self.expired = threading.Event()
        self._lock = threading.Lock()
        self._socks: list[socket.socket] = []
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True

    def connect(self, *args: Any, **kwargs: Any) -> socket.socket:
        """``socket.create_connection``, the connection watched."""
        sock = socket.create_connection(*args, **kwargs)
        with self._lock:
            self._socks.append(sock)
            if self.expired.is_set():
                self._shut(sock)
        return sock

    @staticmethod
    def _shut(sock: socket.socket) -> None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def _expire(self) -> None:
        self.expired.set()
        with self._lock:
            for sock in self._socks:
                self._shut(sock)

    def __enter__(self) -> _Deadline:
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        self._timer.cancel()
        return False


def _check_redirect(url: str, target: str, new: str) -> None:
    """Refuse a redirect of the download of ``url`` to an address that is not http(s)."""
    scheme = split_address(target, url).scheme.lower()
    if scheme not in ("http", "https"):
        raise _refuse(
            url,
            f"redirected to '{new}', which is not http or https ({scheme or 'no scheme'})",
            "a registry's packs are read over http(s) only; tell its maintainers",
        )


def _fetch_http(url: str, limit: int) -> bytes:
    import urllib.request  # noqa: PLC0415 - the network stack only when a pack is downloaded

    from builder.packs import transport  # noqa: PLC0415 - the network stack only when a pack is downloaded

    deadline = _Deadline(limits.DOWNLOAD_TOTAL_SECONDS)

    host = (split_address(url).hostname or "").lower()
    handlers: list[urllib.request.BaseHandler] = [
        transport.Redirects(functools.partial(_check_redirect, url)),
        transport.DeadlineHandler(deadline.connect),
        transport.DeadlineSecureHandler(deadline.connect),
    ]
    if host in ("127.0.0.1", "localhost", "::1"):
        handlers.append(urllib.request.ProxyHandler({}))  # loopback never goes through a proxy
    opener = urllib.request.build_opener(*handlers)
    timeout = limits.DOWNLOAD_TIMEOUT_SECONDS
    req = urllib.request.Request(url, headers={"User-Agent": f"daimyo/{daimyo_version()}"})
    announced: int | None = None
    got = 0
    try:
        with deadline, opener.open(req, timeout=timeout) as resp:
            length = resp.headers.get("Content-Length")
            if length is not None and length.strip().isdigit():
                announced = int(length)
                if announced > limit:
                    raise too_big_error(url, announced, limit)
            chunks = []
            while True:
                chunk = resp.read(65536)
                if not chunk:
                    break
                got += len(chunk)
                if got > limit:
                    raise too_big_error(url, None, limit)
                chunks.append(chunk)
            if deadline.expired.is_set():
                raise _late(url)
            if announced is not None and got < announced:
                raise _cut(url, got, announced)
            return b"".join(chunks)
    except DaimyoError:
        raise
    except Exception as exc:
        if deadline.expired.is_set():
            raise _late(url) from None
        raise _failed(url, exc) from None


def _cut(url: str, got: int, announced: int | None) -> DaimyoError:
    of = f" of the {announced:,} announced" if announced is not None else ""
    return _refuse(
        url,
        f"download cut short: {got:,} bytes{of} arrived",
        "nothing is installed from a part of a file; try again",
    )


def _failed(url: str, exc: BaseException) -> DaimyoError:
    """The one line for a download that failed with ``exc`` (anything urllib, http.client or the
    network raise)."""
    import http.client  # noqa: PLC0415 - the network stack only when a pack is downloaded

    if isinstance(exc, urllib.error.HTTPError):
        if 300 <= exc.code < 400 and not (exc.headers and (exc.headers.get("location") or exc.headers.get("uri"))):
            return _refuse(url, f"the server answered {exc.code} {exc.reason} without an address to go to")
        if 300 <= exc.code < 400:
            return _refuse(
                url,
                f"too many redirects (more than {limits.MAX_REDIRECTS}) or a redirect loop",
                "the registry's address is wrong; ask its maintainers",
            )
        return _refuse(url, f"the server answered {exc.code} {exc.reason}")
    if isinstance(exc, urllib.error.URLError):
        reason = exc.reason
        if isinstance(reason, (socket.timeout, TimeoutError)):
            return _timeout(url)
        if isinstance(reason, BaseException) and not isinstance(reason, OSError):
            return _failed(url, reason)
        return _refuse(url, f"cannot connect: {reason}", "check the address and the network")
    if isinstance(exc, (socket.timeout, TimeoutError)):
        return _timeout(url)
    if isinstance(exc, http.client.IncompleteRead):
        return _cut(url, len(exc.partial), None)
    if isinstance(exc, http.client.BadStatusLine) and not isinstance(exc, ConnectionError):
        return _refuse(url, f"not an HTTP answer (its first line is {str(exc.args[0] if exc.args else '')!r})")
    if isinstance(exc, http.client.HTTPException):
        return _refuse(url, f"not an HTTP answer ({exc})")
    if isinstance(exc, ValueError):  # a chunk size that is no number, an address urllib cannot read
        return _refuse(url, f"not an HTTP answer, or not an address ({exc})")
    if isinstance(exc, OSError):
        return _refuse(url, f"download failed: {exc.strerror or exc}", "check the address and the network")
    return _refuse(url, f"download failed: {type(exc).__name__}: {exc}", "check the address and the network")


def _timeout(url: str) -> DaimyoError:
    return _refuse(
        url, f"no answer for {limits.DOWNLOAD_TIMEOUT_SECONDS:g} s (DOWNLOAD_TIMEOUT_SECONDS)", "try again later"
    )


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# registries read from their last good copy in this process (no network): (address, when)
STALE: list[tuple[str, str]] = []


def _cached_index(url: str) -> Path:
    return cache_dir() / "registries" / (hashlib.sha256(url.encode("utf-8")).hexdigest()[:24] + ".json")


def load_index(url: str) -> list[Entry]:
    """The entries of the index at ``url``. Offline first: a valid index is kept in the cache
    folder, and when the registry cannot be reached (no connection, no answer) the kept copy
    is used and the address added to ``STALE``."""
    try:
        data = fetch(url, "index")
    except DaimyoError as exc:
        msg = exc.diagnostics[0].message
        kept = _cached_index(url)
        if (msg.startswith("cannot connect") or msg.startswith("no answer")) and kept.is_file():
            when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(kept.stat().st_mtime))
            STALE.append((url, when))
            return parse_index(kept.read_text(encoding="utf-8"), url)
        raise
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DaimyoError(Diagnostic(url, 0, 0, L_("registry index is not UTF-8 text"), code="registry.index")) from exc
    entries = parse_index(text, url)
    if not url.lower().startswith("file:"):
        try:
            kept = _cached_index(url)
            kept.parent.mkdir(parents=True, exist_ok=True)
            yamlio.atomic_write(kept, text, force=True)
        except (OSError, DaimyoError):
            pass  # no cache: the next offline search has no copy, nothing worse
    return entries


def stale_notes() -> list[str]:
    """One line per registry read from its kept copy (and forget them)."""
    out = [f"{u}: note: not reachable; its index as read on {when} is used" for u, when in STALE]
    STALE.clear()
    return out


def all_entries(urls: list[str] | None = None) -> list[Entry]:
    """Every entry of every configured registry (in registry order); UsageError when none is
    configured."""
    urls = registry_urls() if urls is None else urls
    if not urls:
        raise UsageError(L_("no pack registry is configured"), no_registry_hint())
    out: list[Entry] = []
    for u in urls:
        out.extend(load_index(u))
    return out


def search(entries: list[Entry], text: str | None = None, game: str | None = None) -> list[Entry]:
    """The newest version of each pack matching ``text`` (name, description, authors; any case)
    and ``game``."""
    want = loose(text) if text else ""
    newest: dict[tuple[str, str], Entry] = {}
    for e in entries:
        if game and e.game != game:
            continue
        hay = loose(" ".join([e.name, e.description or "", *e.authors]))
        if want and want not in hay:
            continue
        key = (name_key_of(e.name), e.game)
        if key not in newest or version_key(e.version) > version_key(newest[key].version):
            newest[key] = e
    return sorted(newest.values(), key=lambda e: (e.game, e.name.lower()))


def name_key_of(name: str) -> str:
    return name_key(name)


def choose(entries: list[Entry], name: str, version: str | None = None, game: str | None = None) -> Entry:
    """The entry ``name``/``version`` asks for: that version, or the newest this daimyo can
    use. UsageError when there is none, naming what there is."""
    key = name_key_of(name)
    found = [e for e in entries if name_key_of(e.name) == key and (game is None or e.game == game)]
    if not found:
        raise UsageError(
            L_("no pack '{name}' in the registries", name=name),
            did_you_mean(name, sorted({e.name for e in entries})) or L_("'daimyo pack search' lists what they hold"),
        )
    games = sorted({e.game for e in found})
    if len(games) > 1:
        raise UsageError(
            L_(
                "pack '{name}' is in the registries for several games ({value})",
                name=found[0].name,
                value=", ".join(games),
            ),
            L_("name the game with {option}", option=option("system")),
        )
    if version is not None:
        exact = [e for e in found if e.version == version]
        if not exact:
            have = ", ".join(sorted({e.version for e in found}, key=version_key))
            raise UsageError(
                L_("pack '{name}' has no version {version} in the registries", name=found[0].name, version=version),
                L_("versions: {have}", have=have),
            )
        e = exact[0]
        if not e.compatible:
            raise UsageError(
                L_(
                    "pack '{name}' {version} needs daimyo {daimyo} or newer; this is daimyo {daimyo_version}",
                    name=e.name,
                    version=e.version,
                    daimyo=e.daimyo,
                    daimyo_version=daimyo_version(),
                ),
                L_("update daimyo, or install an older version of the pack"),
            )
        return e
    usable = [e for e in found if e.compatible]
    if not usable:
        e = max(found, key=lambda x: version_key(x.version))
        raise UsageError(
            L_(
                "pack '{name}': every version needs a newer daimyo (version {version} needs {daimyo}); this is daimyo {daimyo_version}",
                name=e.name,
                version=e.version,
                daimyo=e.daimyo,
                daimyo_version=daimyo_version(),
            ),
            L_("update daimyo"),
        )
    return max(usable, key=lambda x: version_key(x.version))


def newest(entries: list[Entry], name: str, game: str | None) -> Entry | None:
    """The newest version of ``name`` this daimyo can use, or None."""
    key = name_key_of(name)
    usable = [e for e in entries if name_key_of(e.name) == key and (game is None or e.game == game) and e.compatible]
    return max(usable, key=lambda x: version_key(x.version)) if usable else None


# -- making an index --------------------------------------------------------------------------

INDEX_DEPTH = 3


def _not_a_registry(message: str) -> UsageError:
    """The refusal of a folder too big to be a registry's, ``message`` saying what was counted."""
    return UsageError(message, L_("give the folder holding the registry's packs"))


def registry_pack_files(root: Path) -> list[Path]:
    """The pack files of a registry folder and its subfolders, INDEX_DEPTH deep, in name order
    (hidden files and folders and the index left out). Symbolic links to folders are not
    followed, so a link that loops cannot loop and no file outside the folder is published. A
    folder holding more than ``MAX_INDEX_FILES`` names, or more than ``MAX_INDEX_PACKS`` pack
    files, is refused in one line (UsageError): it is not a registry's folder."""
    files: list[Path] = []
    seen = 0
    for dirpath, dirnames, filenames in os.walk(root):
        seen += len(dirnames) + len(filenames)
        if seen > limits.MAX_INDEX_FILES:
            raise _not_a_registry(
                L_(
                    "{folder}: more than {n:,} files and folders {depth} folders deep (MAX_INDEX_FILES); not indexed",
                    folder=display_path(root),
                    n=limits.MAX_INDEX_FILES,
                    depth=INDEX_DEPTH,
                )
            )
        depth = len(Path(dirpath).relative_to(root).parts)
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and depth < INDEX_DEPTH)
        for f in sorted(filenames):
            p = Path(dirpath) / f
            if p.suffix.lower() in PACK_SUFFIXES and p.name != INDEX_NAME and not f.startswith("."):
                files.append(p)
        if len(files) > limits.MAX_INDEX_PACKS:
            raise _not_a_registry(
                L_(
                    "{folder}: more than {n:,} pack files {depth} folders deep (MAX_INDEX_PACKS); not indexed",
                    folder=display_path(root),
                    n=limits.MAX_INDEX_PACKS,
                    depth=INDEX_DEPTH,
                )
            )
    return files


def build_index(folder: str | Path, base_url: str | None = None) -> tuple[dict[str, Any], list[str]]:
    """The index of every pack in ``folder`` (and its subfolders, 3 deep): (index, lines for
    people). Every pack is checked; CatalogError lists every problem and nothing is returned
    then. Packs need ``version:``; one name and version appear once."""
    root = Path(folder)
    if not root.is_dir():
        raise UsageError(
            L_("{folder} is not a folder", folder=folder), L_("give the folder holding the registry's packs")
        )
    files = registry_pack_files(root)
    diags: list[Diagnostic] = []
    entries: list[dict[str, Any]] = []
    seen: dict[tuple[Any, ...], str] = {}
    lines: list[str] = []
    for p in files:
        shown = display_path(p)
        try:
            raw = read_bytes(p, "pack.yaml", shown)
            text = raw.decode("utf-8")
            data, pos = yamlio.parse_yaml(text, shown, "pack.yaml", max_entries=limits.MAX_PACK_ENTRIES)
            if not isinstance(data, dict):
                raise CatalogError(
                    pos.diag((), L_("a pack must be a mapping with 'system:' and sections"), code="pack.type")
                )
            report = check_pack(shown, parsed=(data, pos))
        except UnicodeDecodeError:
            diags.append(
                Diagnostic(shown, 0, 0, L_("not UTF-8 text"), code="pack.yaml", hint=L_("save the file as UTF-8"))
            )
            continue
        except DaimyoError as exc:
            diags.extend(exc.diagnostics)
            continue
        ident = PackId.of(data, p)
        if not has_entries(data):
            lines.append(
                _("warning: {file}: pack '{name}' has no entries; a friend who installs it gets nothing").format(
                    file=shown, name=ident.name
                )
            )
        if not ident.version:
            diags.append(
                Diagnostic(
                    shown,
                    1,
                    1,
                    L_("pack '{name}' has no 'version:'", name=ident.name),
                    code="registry.version",
                    hint=L_('add version: "1"; a registry offers versions'),
                )
            )
            continue
        key = (name_key_of(ident.name), report.system, ident.version)
        if key in seen:
            diags.append(
                pos.diag(
                    ("version",),
                    L_(
                        "pack '{name}' version {version} is also in {value}",
                        name=ident.name,
                        version=ident.version,
                        value=seen[key],
                    ),
                    code="registry.duplicate",
                    hint=L_("give each file its own version"),
                )
            )
            continue
        seen[key] = shown
        rel = p.relative_to(root).as_posix()

        url = quote(rel) if base_url is None else base_url.rstrip("/") + "/" + quote(rel)
        authors = [str(x) for x in data.get("authors") or []] or ([ident.author] if ident.author else [])
        e: dict[str, Any] = {
            "name": ident.name,
            "game": report.system,
            "version": ident.version,
            "description": ident.description,
            "authors": authors,
            "licence": ident.licence,
            "sha256": sha256_hex(raw),
            "size": len(raw),
            "content": ident.hash,
            "url": url,
            "needs": [str(x) for x in data.get("needs") or []],
            "daimyo": _text(data.get("daimyo")),
            "art": art_index(data, p),
        }
        entries.append({k: v for k, v in e.items() if v not in (None, [])})
        lines.append(f"{shown}: {ident.name} {ident.version} ({report.system}) ok")
    if diags:
        raise CatalogError(diags)
    names = {(name_key_of(e["name"]), e["game"]) for e in entries}
    for e in entries:  # a pack it needs that the registry lacks is worth a warning, not a refusal
        for need in e.get("needs", []):
            n, _version = split_ref(need)
            if not any(k == name_key_of(n) for k, _g in names):
                lines.append(f"warning: {e['name']} {e['version']} needs pack '{need}', which this registry lacks")
    entries.sort(key=lambda e: (e["game"], e["name"].lower(), version_key(e["version"])))
    return {INDEX_KEY: INDEX_FORMAT, "packs": entries}, lines


def has_entries(data: dict[str, Any]) -> bool:
    """True when a pack has at least one entry (a non-empty list in any section)."""
    return any(isinstance(v, list) and v for k, v in data.items() if k not in ("authors", "needs"))


def art_index(data: dict[str, Any], pack: Path) -> list[dict[str, Any]]:
    """The index's ``art`` of a pack file: each image it names, with its SHA-256 and size."""
    folder = art_folder(pack)
    out = []
    for ref in art_refs(data):
        real = within(folder, ref)
        if real is None or not real.is_file():
            continue  # check_pack refused it already
        raw = real.read_bytes()
        item: dict[str, Any] = {"path": ref, "sha256": sha256_hex(raw)}
        if len(raw) <= limits.MAX_NUMBER:  # larger numbers are not read back: its download's limit still holds
            item["size"] = len(raw)
        out.append(item)
    return out


def _text(v: object) -> str | None:
    return None if v is None else str(v)


def is_index_file(path: str | Path) -> bool:
    """True when ``path`` is a registry index (as ``daimyo pack index`` writes): the file it may
    replace without being asked. A list, a pack or any other file is never one."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(limits.MAX_DOWNLOAD_BYTES + 1)
        data = json.loads(head.decode("utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and data.get(INDEX_KEY) == INDEX_FORMAT and isinstance(data.get("packs"), list)


def dump_index(index: dict[str, Any]) -> str:
    return json_text(index, indent=2) + "\n"


__all__ = [
    "Entry",
    "all_entries",
    "build_index",
    "choose",
    "dump_index",
    "fetch",
    "load_index",
    "newest",
    "parse_index",
    "registry_pack_files",
    "registry_urls",
    "search",
    "split_ref",
    "too_big_error",
    "version_key",
]
