"""The print page's settings, remembered in the workspace: per list, per game (what a new list
of that game starts with) and the printer's correction (scale and duplex offset, measured once
and used for every list). Kept in ``.daimyo/print-settings.json`` in the workspace folder (a
hidden folder the server never serves), written atomically."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from builder.errors import DaimyoError, UsageError
from builder.i18n import _
from builder.kit.printbounds import BOUNDS
from builder.kit.printoptions import CHECKBOXES, form_defaults
from builder.paths import within
from builder.web.printing import FIELDS, options_from
from builder.web.workspace import Refused
from builder.yamlio import atomic_write, read_text

FILE = Path(".daimyo") / "print-settings.json"
PRINTER = ("scale_x", "scale_y", "offset_x", "offset_y")  # the printer's, not the list's
MAX_LISTS = 2000  # lists remembered; the oldest go first
MAX_VALUE = 200
_LOCK = threading.Lock()


def _read(root: Path) -> dict:

    path = within(root, FILE)  # None: a link out of the workspace, never read
    if path is None or not path.exists():
        return {}
    try:
        data = json.loads(read_text(path))
    except (DaimyoError, ValueError):
        return {}  # unreadable settings are forgotten, never a failure of the page
    return data if isinstance(data, dict) else {}


def _part(data: dict, key: str) -> dict:
    v = data.get(key)
    return v if isinstance(v, dict) else {}


def _clean(values) -> dict:
    return {k: str(v)[:MAX_VALUE] for k, v in values.items() if k in FIELDS and isinstance(v, (str, int, float))}


def load(root: Path, rel: str, system: str) -> dict:
    """The form's values for list ``rel``: its own settings, else the last ones used for its game;
    the printer's correction always from the workspace. Checkboxes are "on" or ""."""
    data = _read(root)
    # the print options' defaults; a custom size starts from the default paper and card (A4, poker):
    # choosing it draws at once, then the numbers change
    out = form_defaults()
    out.update(_clean(_part(_part(data, "games"), system)))
    own = _clean(_part(_part(data, "lists"), rel))
    out.update(own)
    out["remembered"] = "on" if own else ""
    out.update(_clean({k: v for k, v in _part(data, "printer").items() if k in PRINTER}))
    return _within_bounds(out)


def _within_bounds(values: dict) -> dict:
    """The remembered values the print options' model still takes; a number it now refuses (kept
    by an older version, or written by hand) goes back to the form's default."""

    defaults = form_defaults()
    for k, bound in BOUNDS.items():
        v = str(values.get(k) or "").strip()
        if not v:
            continue
        try:
            bound.check(v)
        except UsageError:
            values[k] = defaults.get(k, "")
    return values


def save(root: Path, rel: str, system: str, params) -> dict:
    """Remember the form's values for list ``rel`` (and as its game's default, and the printer's
    correction for the workspace). Values the print would refuse are refused (nothing written)."""

    options_from(params, system)  # one clear line for a bad value, as printing says it
    sent = {k: str(params.get(k) or "")[:MAX_VALUE] for k in FIELDS}
    for k in CHECKBOXES:
        sent[k] = "on" if str(params.get(k) or "").lower() in ("1", "on", "true", "yes") else ""
    with _LOCK:
        data = _read(root)
        lists = {k: v for k, v in _part(data, "lists").items() if k != rel}
        lists[rel] = {k: v for k, v in sent.items() if k not in PRINTER}
        while len(lists) > MAX_LISTS:
            lists.pop(next(iter(lists)))
        games = _part(data, "games")
        games[system] = lists[rel]
        printer = _part(data, "printer")
        if any(k in params for k in PRINTER):  # a card game's form: the printer's correction
            printer = {k: sent[k] for k in PRINTER}
        data = {"lists": lists, "games": games, "printer": printer}
        atomic_write(_state_file(root), json.dumps(data, indent=1, sort_keys=True) + "\n", force=True)
    return sent


def _state_file(root: Path) -> Path:
    """The settings file, its folder made; refused when either leads out of the workspace."""

    words = Refused(
        _(
            "the workspace's {parent} folder leads outside the workspace (a symbolic link); print settings are not saved there"
        ).format(parent=FILE.parent),
        403,
        hint=_("remove the link {parent} from the workspace folder").format(parent=FILE.parent),
    )
    folder = within(root, FILE.parent)
    if folder is None:
        raise words
    folder.mkdir(exist_ok=True)
    target = within(root, FILE)
    if target is None or within(root, FILE.parent) is None:
        raise words
    return target
