"""Printer profiles: the back offset and scale corrections measured on one printer with
``daimyo print-test``, saved under a name and used by ``daimyo print --printer NAME``.

The profiles live in one JSON file, ``printers.json`` in the user's configuration folder
(``DAIMYO_PRINTERS`` names another file, as tests do). It is written atomically: a
temporary file in the same folder, then renamed over the old one.

For other front ends (the web print page): :func:`list_profiles` and :func:`get_profile`
read the profiles; :meth:`PrinterProfile.print_options` gives the keyword arguments that
``builder.render.api.print_lists`` and ``render_list`` take.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from builder import yamlio
from builder.catalog.packfiles import config_dir
from builder.errors import UsageError, command_line, option
from builder.i18n import _

NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")
FILE_NAME = "printers.json"
FORMAT = 1


@dataclass(frozen=True)
class PrinterProfile:
    name: str
    offset: tuple[float, float] = (0.0, 0.0)  # mm: the backs' shift (+x right, +y up)
    scale_x: float = 1.0
    scale_y: float = 1.0

    def print_options(self) -> dict:
        """The options of ``print_lists``/``render_list`` this profile sets."""
        return {"offset": f"{self.offset[0]:g},{self.offset[1]:g}", "scale_x": self.scale_x, "scale_y": self.scale_y}

    def describe(self) -> str:
        return (
            f"{self.name}: offset {self.offset[0]:g},{self.offset[1]:g} mm, "
            f"scale-x {self.scale_x:g}, scale-y {self.scale_y:g}"
        )


def profiles_path() -> Path:
    """The profiles file: ``DAIMYO_PRINTERS`` or ``printers.json`` in the configuration folder."""
    env = os.environ.get("DAIMYO_PRINTERS")
    if env:
        return Path(env).expanduser()

    return config_dir() / FILE_NAME


def check_name(name: str) -> str:
    if not NAME_RE.fullmatch(name or ""):
        raise UsageError(
            _("bad printer name '{name}'").format(name=name),
            _("use 1 to 40 letters, digits, '-', '_' or '.', starting with a letter or digit"),
        )
    return name


def _profile(name: str, offset, scale_x, scale_y) -> PrinterProfile:
    """A checked profile: its values are checked by the print options' model
    (``builder.kit.printoptions.PrinterCorrection``), with the bounds and words ``print`` and the
    web print page give them (UsageError)."""
    from builder.kit.printoptions import PrinterCorrection  # noqa: PLC0415 - pydantic only when a profile is checked; `printer list` needs none

    check_name(name)
    c = PrinterCorrection(
        offset=(0.0, 0.0) if offset is None else offset,
        scale_x=1.0 if scale_x is None else scale_x,
        scale_y=1.0 if scale_y is None else scale_y,
    )
    return PrinterProfile(name, c.offset, c.scale_x, c.scale_y)


def _read(path: Path) -> dict:
    """{name: PrinterProfile} from the file (empty when there is none)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(
            _("{path}: cannot read the printer profiles: {error}").format(path=path, error=exc),
            _("fix or remove the file ({option} profiles are saved there)").format(option=option("printer")),
        ) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(
            _("{path}:{line}:{col}: the printer profiles are not valid JSON: {error}").format(
                path=path, line=exc.lineno, col=exc.colno, error=exc.msg
            ),
            _("fix the file or remove it and save the profiles again"),
        ) from None
    rows = data.get("printers") if isinstance(data, dict) else None
    if not isinstance(rows, dict):
        raise UsageError(
            _("{path}:1:1: the printer profiles file holds no 'printers' table").format(path=path),
            _("fix the file or remove it and save the profiles again"),
        )
    out = {}
    for name, row in rows.items():
        if not isinstance(row, dict):
            raise UsageError(
                _("{path}: printer '{name}' is not a table of offset, scale_x and scale_y").format(
                    path=path, name=name
                ),
                _("fix the file or save the profile again"),
            )
        try:
            out[name] = _profile(str(name), row.get("offset", [0, 0]), row.get("scale_x", 1.0), row.get("scale_y", 1.0))
        except (UsageError, TypeError, ValueError) as exc:
            why = exc.lines()[0].removeprefix("daimyo: error: ") if isinstance(exc, UsageError) else str(exc)
            raise UsageError(
                _("{path}: printer '{name}': {why}").format(path=path, name=name, why=why),
                _("fix the file or save the profile again"),
            ) from None
    return out


def _write(path: Path, profiles: dict) -> None:
    data = {
        "format": FORMAT,
        "printers": {
            p.name: {"offset": list(p.offset), "scale_x": p.scale_x, "scale_y": p.scale_y}
            for p in sorted(profiles.values(), key=lambda p: p.name.lower())
        },
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    yamlio.atomic_write(path, json.dumps(data, indent=2) + "\n", force=True)


def list_profiles() -> list[PrinterProfile]:
    """Every saved profile, by name."""
    return sorted(_read(profiles_path()).values(), key=lambda p: p.name.lower())


def get_profile(name: str) -> PrinterProfile:
    """The profile called ``name`` (UsageError naming the saved ones when there is none)."""
    profiles = _read(profiles_path())
    if name in profiles:
        return profiles[name]
    known = ", ".join(sorted(profiles)) or _("none yet")
    raise UsageError(
        _("no printer profile '{name}' (saved: {known})").format(name=name, known=known),
        command_line(_("save one with 'daimyo printer save NAME --offset X,Y --scale-x F --scale-y F'")),
    )


def save_profile(name: str, offset=None, scale_x=1.0, scale_y=1.0, force: bool = False) -> PrinterProfile:
    """Save (``force``: replace) a profile; returns it."""
    prof = _profile(name, offset, scale_x, scale_y)
    path = profiles_path()
    profiles = _read(path)
    if name in profiles and not force:
        raise UsageError(
            _("printer profile '{name}' exists ({profile}); not replaced").format(
                name=name, profile=profiles[name].describe()
            ),
            _("pass {option} to replace it").format(option=option("force")),
        )
    profiles[name] = prof
    _write(path, profiles)
    return prof


def remove_profile(name: str) -> PrinterProfile:
    """Remove a profile; returns what it held."""
    path = profiles_path()
    profiles = _read(path)
    prof = profiles.pop(name, None)
    if prof is None:
        get_profile(name)  # the error naming the saved profiles
        raise AssertionError("unreachable")
    _write(path, profiles)
    return prof
