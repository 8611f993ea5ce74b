"""The viewer's answers kept in a folder, shared by every copy of the viewer on a host.

A link never seen before costs a viewer several times the CPU of a link it answered already
(the code read, the list checked, the page drawn), and each copy (``--workers N``, or viewers
behind a proxy) would pay it again. ``Shelf`` keeps each answer in a file of one folder, so a
link is drawn once for all the copies that share the folder.

An entry's name is a hash of everything its answer depends on: the code, the kind of answer,
the reader's language, daimyo's version, the fingerprint of the catalog (with its packs) the
list was checked against, and the viewer's public address. A changed catalog, pack or version
makes new names, never a stale answer. Only the viewer writes entries, and only answers it drew
itself: nothing the code says is trusted beyond being the code. An entry is written to a
temporary file and renamed into place (``os.replace``), so a reader sees a whole entry or none,
without locks; each carries the SHA-256 of its answer (status, type, body), and an entry that
does not match it (truncated, damaged) is ignored, drawn again and written over.

The folder is bounded by ``MAX_ENTRIES`` files of at most the 256 KB an answer kept (a page is
13-18 KB): every ``SWEEP_EVERY`` entries a process writes, it counts the entries, and when
there are more, it removes the oldest down to ``KEEP_AFTER_SWEEP``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
import time
from pathlib import Path

from builder import __version__

__all__ = ["KEEP_AFTER_SWEEP", "MAX_ENTRIES", "SWEEP_EVERY", "Answer", "Shelf"]

# a few thousand links (a busy weekend of an event's lists in a few languages): about 70 MB of
# pages, and at most 1 GB however large its answers (each at most the 256 KB an answer kept)
MAX_ENTRIES = 4096
# counting the entries lists the folder's names (about 1 ms for MAX_ENTRIES): once every 32
# entries written costs a small fraction of drawing them, and lets the folder pass its bound by
# at most 32 entries per process between counts
SWEEP_EVERY = 32
# an over-full folder is swept down to 7/8 of its bound: finding the oldest reads each entry's
# time (tens of ms for MAX_ENTRIES), so it is done once every 512 entries written, not at each
KEEP_AFTER_SWEEP = MAX_ENTRIES * 7 // 8
STALE_TEMP_SECONDS = 600  # a temporary file this old was left by a process that stopped mid-write
SUFFIX = ".answer"
MAX_ANSWER_BYTES = 256 * 1024  # the largest answer kept (the viewer's KEPT_BYTES): a longer entry is not one
MAGIC = b"daimyo viewer answer 1\n"
FORMAT = "1"  # the entries' format and naming, in every key

Answer = tuple[int, bytes, str, str]  # status, body, media type, download file name


class Shelf:
    """A folder of answers: ``get(key)`` and ``put(key, answer)``, ``key`` made by ``key()``."""

    def __init__(self, folder: str | os.PathLike, *, max_entries: int = MAX_ENTRIES, keep: int = KEEP_AFTER_SWEEP):
        self.folder = Path(folder)
        self.max_entries, self.keep = max_entries, min(keep, max_entries)
        self.written = SWEEP_EVERY - 1  # entries written since the last sweep: the first one sweeps
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)

    @staticmethod
    def key(code: str, kind: str, lang: str, catalog: str, root: str) -> str:
        """The name of the answer of ``code`` as ``kind``, in ``lang``, checked against the
        catalog of fingerprint ``catalog``, with links to ``root``."""
        parts = (FORMAT, __version__, kind, lang, root, catalog, code)
        return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:48]

    def path(self, key: str) -> Path:
        return self.folder / (key + SUFFIX)

    def get(self, key: str) -> Answer | None:
        """The answer kept under ``key``; None when there is none or it is not whole."""
        try:
            with open(self.path(key), "rb") as fh:
                raw = fh.read(len(MAGIC) + 65 + 4096 + MAX_ANSWER_BYTES)
        except (OSError, ValueError):
            return None
        return _parsed(raw, key)

    def put(self, key: str, answer: Answer) -> None:
        """Keep ``answer`` under ``key`` (written whole or not at all); a folder that cannot be
        written keeps nothing, and the answer is still given."""
        status, body, media, name = answer
        if len(body) > MAX_ANSWER_BYTES:
            return
        head = {"key": key, "status": status, "media": media, "name": name, "size": len(body)}
        rest = json.dumps(head, sort_keys=True).encode() + b"\n" + body
        data = MAGIC + hashlib.sha256(rest).hexdigest().encode() + b"\n" + rest
        tmp = None
        try:
            fd, tmp = tempfile.mkstemp(prefix=".", suffix=".tmp", dir=self.folder)
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, self.path(key))
            tmp = None
        except OSError:
            return
        finally:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
        self.written += 1
        if self.written >= SWEEP_EVERY:
            self.sweep()

    def sweep(self) -> int:
        """Count the entries; past the bound, remove the oldest down to ``keep``; remove the
        temporary files left behind. The number of files removed (another process sweeping at
        once may remove some of them first)."""
        self.written = 0
        try:
            names = os.listdir(self.folder)
        except OSError:
            return 0
        removed, now = 0, time.time()
        for name in names:
            if name.endswith(".tmp"):
                with contextlib.suppress(OSError):
                    if now - os.stat(self.folder / name).st_mtime > STALE_TEMP_SECONDS:
                        removed += _unlink(str(self.folder / name))
        answers = [n for n in names if n.endswith(SUFFIX)]
        if len(answers) <= self.max_entries:
            return removed
        dated = []
        for name in answers:
            with contextlib.suppress(OSError):
                dated.append((os.stat(self.folder / name).st_mtime_ns, name))
        dated.sort()
        for _mtime, name in dated[: max(0, len(dated) - self.keep)]:
            removed += _unlink(str(self.folder / name))
        return removed


def _unlink(path: str) -> int:
    try:
        os.unlink(path)
    except OSError:
        return 0
    return 1


def _parsed(raw: bytes, key: str) -> Answer | None:
    """The answer in the bytes of an entry, None unless it is whole (its SHA-256, of all that
    follows it, matches) and is the one of ``key``."""
    start = len(MAGIC) + 65  # the SHA-256 in hexadecimal and a new line
    if not raw.startswith(MAGIC) or raw[start - 1 : start] != b"\n":
        return None
    rest = raw[start:]
    if raw[len(MAGIC) : start - 1] != hashlib.sha256(rest).hexdigest().encode():
        return None
    head_end = rest.find(b"\n")
    try:
        head = json.loads(rest[:head_end])
        body = rest[head_end + 1 :]
        if head_end < 0 or head["key"] != key or head["size"] != len(body):
            return None
        status, media, name = int(head["status"]), str(head["media"]), str(head["name"])
    except (ValueError, KeyError, TypeError):
        return None
    return status, body, media, name
