"""Links to a list: ``BASE/v/CODE``, where CODE is the list's share code (the whole payload).

A link opens the list in any daimyo viewer (``daimyo viewer``) at BASE; nothing is stored
anywhere. The viewer's address comes from ``--base-url``, else ``DAIMYO_VIEWER``, else
``viewer = "https://..."`` in the user's ``config.toml`` (``viewer_base``). ``link_of`` makes a
link of a code, ``code_in`` takes the code out of a link (or of a bare code), for every face:
``daimyo export --to link``, ``daimyo import URL``, the builder's Import box and printed QR
codes.
"""

from __future__ import annotations

import os
import re
import tomllib
from urllib.parse import unquote, urlsplit

from builder.catalog.packfiles import config_dir
from builder.errors import DaimyoError, Diagnostic, UsageError, option
from builder.i18n import _
from builder.limits import MAX_LINK_CHARS

__all__ = ["ENV", "code_in", "link_of", "looks_like_link", "viewer_base", "viewer_base_or_none"]

ENV = "DAIMYO_VIEWER"
CONFIG_KEY = "viewer"
_CODE_PATH = re.compile(r"/v/([A-Za-z]{3}\d+-[A-Za-z0-9_-]+)(?:/[A-Za-z]*)?/?$")


def _check_base(url: str, where: str) -> str:
    """``url`` as a viewer's base address (no trailing slash); UsageError when it is none."""
    url = url.strip()
    try:
        parts = urlsplit(url)
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise UsageError(
            _("{where}: '{url}' is not a viewer's address").format(where=where, url=url),
            _("give an http or https address such as https://lists.example.org"),
        )
    return url.rstrip("/")


def _config_viewer() -> str | None:
    cfg = config_dir() / "config.toml"
    if not cfg.is_file():
        return None
    try:
        data = tomllib.loads(cfg.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise DaimyoError(
            Diagnostic(
                str(cfg),
                0,
                0,
                _("config file unreadable: {why}").format(why=exc),
                hint='viewer = "https://lists.example.org"',
            )
        ) from None
    value = data.get(CONFIG_KEY)
    if value is None:
        return None
    if not isinstance(value, str):
        raise UsageError(
            _("{file}: 'viewer' must be an address in quotes").format(file=cfg),
            'viewer = "https://lists.example.org"',
        )
    return _check_base(value, str(cfg))


def viewer_base_or_none(explicit: str | None = None) -> str | None:
    """The viewer's base address: ``explicit`` (``--base-url``), else ``DAIMYO_VIEWER``, else the
    config file's ``viewer``; None when none is set. UsageError for an address that is none."""
    if explicit is not None:
        return _check_base(explicit, option("base-url"))
    env = os.environ.get(ENV, "").strip()
    if env:
        return _check_base(env, ENV)
    return _config_viewer()


def viewer_base(explicit: str | None = None) -> str:
    """As ``viewer_base_or_none``, with a UsageError saying how to set one when none is."""
    base = viewer_base_or_none(explicit)
    if base is None:
        raise UsageError(
            _("no viewer address is configured for links"),
            _('give {flag} URL, set {env}, or add viewer = "https://..." to {file}').format(
                flag=option("base-url"), env=ENV, file=config_dir() / "config.toml"
            ),
        )
    return base


def link_of(code: str, base: str) -> str:
    """The link that opens the list of share code ``code`` in the viewer at ``base``."""
    return f"{base.rstrip('/')}/v/{code.strip()}"


def looks_like_link(text: str) -> bool:
    """Whether ``text`` is one line that is an http(s) address (a link to a list, or not)."""
    t = text.strip()
    return "\n" not in t and t.lower().startswith(("http://", "https://")) and len(t) <= MAX_LINK_CHARS


def code_in(text: str) -> str | None:
    """The share code a link carries (``.../v/CODE``, ``.../v/CODE/table``, with any query or
    fragment); None when ``text`` is not such a link."""
    if not looks_like_link(text):
        return None
    try:
        path = urlsplit(text.strip()).path
    except ValueError:
        return None
    m = _CODE_PATH.search(unquote(path))
    return m.group(1) if m else None
