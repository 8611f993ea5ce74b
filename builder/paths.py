"""Where the bundled data lives: inside the wheel (builder/_data, and each game's catalog folder
in its package's data/) or the source tree (catalog/, templates/, examples/)."""

from __future__ import annotations

import os
from pathlib import Path

from builder import state
from builder.i18n import L_

_PKG = Path(__file__).resolve().parent


@state.memo("paths.data_root", bound=1, lifetime=state.PROCESS, doc="the data folder (DAIMYO_DATA when set)")
def data_root() -> Path:
    """Folder holding ``catalog/``, ``templates/`` and ``examples/``: ``DAIMYO_DATA`` when set,
    ``builder/_data`` in a wheel, the source tree's root in a checkout. In a wheel its
    ``catalog/`` holds what no game owns (``rulebooks.yaml``); each game's folder is installed in
    the game's package (``builder.systems.catalog.data_folder``), and ``DAIMYO_DATA``'s
    ``catalog/<id>/``, when there, is read instead."""
    env = os.environ.get("DAIMYO_DATA")
    if env:
        return Path(env)
    bundled = _PKG / "_data"
    if (bundled / "catalog").is_dir():
        return bundled
    return _PKG.parent


def catalog_dir() -> Path:
    """The data folder's ``catalog/``: ``rulebooks.yaml``, and the games' folders in a source
    checkout; a game's own folder is the game's to say (``gs.catalog.folder``)."""
    return data_root() / "catalog"


def templates_dir() -> Path:
    return data_root() / "templates"


def examples_dir() -> Path:
    return data_root() / "examples"


def cache_dir() -> Path:
    env = os.environ.get("DAIMYO_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "daimyo"


def display_path(path) -> str:
    """A path as a user would type it: relative to the current folder when inside it."""
    p = Path(path)
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError, RuntimeError):  # RuntimeError: a symbolic link loop (Python < 3.13)
        return str(path)


def is_file(path) -> bool:
    """``Path.is_file`` that says False for a path the system cannot even look up (a name too
    long, a NUL character) instead of raising."""
    try:
        return Path(path).is_file()
    except (OSError, ValueError):
        return False


def exists(path) -> bool:
    """``Path.exists`` that says False for a path the system cannot even look up."""
    try:
        return Path(path).exists()
    except (OSError, ValueError):
        return False


def _bundled_parts(file: str) -> tuple[str, ...] | None:
    """``file`` as a path of daimyo's own data, ``("catalog", "kensei", "troops.yaml")``: below
    the data folder, in a game package's ``data/`` of an installed wheel (where each
    ``catalog/<id>/`` is installed) or in the source checkout's ``catalog/``; None elsewhere."""
    try:
        real = Path(file).resolve()
        places = (
            (data_root().resolve(), ()),
            ((_PKG / "games").resolve(), None),
            ((_PKG.parent / "catalog").resolve(), ("catalog",)),
        )
    except (OSError, RuntimeError, ValueError):
        return None
    for root, prefix in places:
        if root not in real.parents:
            continue
        rel = real.relative_to(root).parts
        if prefix is not None:
            return prefix + rel
        if len(rel) > 2 and rel[1] == "data":  # games/<id>/data/<file>: the game's catalog/<id>/
            return ("catalog", rel[0], *rel[2:])
    return None


def origin_text(where: str | None) -> str:
    """Where an entry was written, as a user can use it: "the daimyo catalog", a bundled example
    pack by name, or the user's own pack file as they would type it; never the installation's path.
    The same words wherever daimyo is installed (``_bundled_parts``)."""
    if not where:
        return ""
    file, _sep, line = where.rpartition(":")
    if not file or not line.isdigit():
        file, line = where, ""
    # a message kept with its words (``builder.i18n.Text``): English as it is, said in the
    # language of whoever reads it (JSON keeps the English)
    at = L_(", line {n}", n=line) if line else ""
    rel = _bundled_parts(file)
    if rel is None or rel[0] not in ("catalog", "examples"):
        return L_("pack '{name}'{at}", name=Path(file).name, at=at)  # the user's own pack, named as they name it
    if rel[0] == "catalog":
        return L_("the daimyo catalog ({file}{at})", file="/".join(rel[1:]), at=at)
    if rel[:2] == ("examples", "packs"):
        return L_("the bundled example pack '{name}'{at}", name=Path(file).stem, at=at)
    return L_("daimyo's {file}{at}", file="/".join(rel), at=at)


def within(folder, path) -> Path | None:
    """The real path of ``path`` (relative paths taken from ``folder``; every symbolic link
    followed, at any depth, the last part too) when it lies inside the real ``folder``; None when
    it leads outside, or cannot be looked up. The one test of "inside this folder" for every file
    the web server touches and for the art a card prints."""
    try:
        root = Path(folder).resolve()
        real = (root / Path(path)).resolve()
    except (OSError, RuntimeError, ValueError):
        return None
    if real == root or root in real.parents:
        return real
    return None
