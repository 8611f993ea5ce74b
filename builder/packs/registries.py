"""The registries a person uses, kept in ``config.toml`` (``daimyo registry add|list|remove`` and
the Packs page).

The config file's ``registries`` is a list; each item is an index address or folder (text), or
``{name = "club", url = "https://.../index.json"}``. Adding one fetches and verifies its index
before anything is written; the file is then rewritten atomically with only the
``registries = [...]`` value changed, so the person's other settings and comments stay as they
were.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from builder import yamlio
from builder.errors import DaimyoError, UsageError, one_line, option
from builder.i18n import _
from builder.packs.registry import config_file, load_index, to_index_url

MAX_NAME = 60


@dataclass
class Registry:
    name: str
    url: str  # as written in the config file
    index: str  # the address of its index

    def to_json(self) -> dict:
        return {"name": self.name, "url": self.url, "index": self.index}


def _read(cfg: Path) -> tuple[str, dict]:
    if not cfg.is_file():
        return "", {}
    try:
        text = cfg.read_text(encoding="utf-8")
        return text, tomllib.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(
            _("{file}: config file unreadable: {why}").format(file=cfg, why=one_line(str(exc))),
            _("fix the file, or move it away to start a new one"),
        ) from None


def _items(data: dict, cfg: Path) -> list[Registry]:
    regs = data.get("registries", [])
    if isinstance(regs, (str, dict)):
        regs = [regs]
    if not isinstance(regs, list):
        raise UsageError(
            _("{file}: 'registries' must be a list of index addresses").format(file=cfg),
            'registries = ["https://.../index.json"]',
        )
    out = []
    for item in regs:
        if isinstance(item, str):
            out.append(Registry(default_name(item), item, to_index_url(item, cfg.parent)))
        elif isinstance(item, dict) and isinstance(item.get("url"), str):
            given = item.get("name")
            name = given if isinstance(given, str) else default_name(item["url"])
            out.append(Registry(name, item["url"], to_index_url(item["url"], cfg.parent)))
        else:
            raise UsageError(
                _("{file}: each registry must be an address or {{name = ..., url = ...}}").format(file=cfg),
                'registries = ["https://.../index.json"]',
            )
    return out


def configured() -> list[Registry]:
    """The registries of the config file (not ``DAIMYO_REGISTRY``), in order."""
    cfg = config_file()
    _text, data = _read(cfg)
    return _items(data, cfg)


def default_name(ref: str) -> str:
    """A short name for a registry: its folder's name, or its host and path."""
    parts = urlsplit(ref)
    if len(parts.scheme) > 1 and parts.scheme.lower() != "file":
        steps = [p for p in parts.path.split("/") if p and p != "index.json"]
        return (steps[-1] if steps else parts.hostname or "registry")[:MAX_NAME]
    path = unquote(parts.path) if parts.scheme.lower() == "file" else ref
    bits = [p for p in re.split(r"[\\/]+", path) if p and p != "index.json"]
    return (bits[-1] if bits else "registry")[:MAX_NAME]


def _check_name(name: str) -> str:
    name = name.strip()
    if not name or len(name) > MAX_NAME or not re.fullmatch(r"[\w.-]+", name):
        raise UsageError(
            _("registry name '{name}' is not usable").format(name=one_line(name)[:80]),
            _("use letters, digits, '.', '-' or '_', at most {n} characters").format(n=MAX_NAME),
        )
    return name


def _toml_str(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _render(items: list[Registry]) -> str:
    if not items:
        return "registries = []"
    body = "".join(f"  {{ name = {_toml_str(r.name)}, url = {_toml_str(r.url)} }},\n" for r in items)
    return "registries = [\n" + body + "]"


def _value_end(text: str, start: int) -> int:
    """The end of the TOML value that begins at ``start`` (an array, a string or an inline
    table), strings and comments inside it skipped."""
    depth, i, n = 0, start, len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            triple = text[i : i + 3] in ('"""', "'''")
            q = text[i : i + 3] if triple else c
            i += len(q)
            while i < n and text[i : i + len(q)] != q:
                i += 2 if (c == '"' and text[i] == "\\") else 1
            i += len(q)
            if depth == 0:
                return i
            continue
        if c == "#" and depth:
            while i < n and text[i] != "\n":
                i += 1
            continue
        if c in "[{":
            depth += 1
        elif c in "]}":
            depth -= 1
            if depth == 0:
                return i + 1
        elif depth == 0 and c == "\n":
            return i
        i += 1
    return n


_KEY = re.compile(r"""^[ \t]*(?:registries|"registries"|'registries')[ \t]*=[ \t]*""", re.M)
_TABLE = re.compile(r"^[ \t]*\[", re.M)


def _rewrite(text: str, items: list[Registry]) -> str:
    """``text`` with its top-level ``registries`` value replaced by ``items`` (added before the
    first table when it has none)."""
    first_table = _TABLE.search(text)
    limit = first_table.start() if first_table else len(text)
    m = _KEY.search(text, 0, limit)
    new = _render(items)
    if m is not None:
        end = _value_end(text, m.end())
        return text[: m.start()] + new + text[end:]
    head, tail = text[:limit], text[limit:]
    if head and not head.endswith("\n"):
        head += "\n"
    return head + new + "\n" + ("\n" if tail else "") + tail


def _save(cfg: Path, text: str, items: list[Registry]) -> None:
    new = _rewrite(text, items)
    try:
        check = _items(tomllib.loads(new), cfg)
    except (tomllib.TOMLDecodeError, DaimyoError):
        check = None
    if check is None or [(r.name, r.url) for r in check] != [(r.name, r.url) for r in items]:
        raise UsageError(
            _("{file}: its 'registries' could not be rewritten safely; nothing changed").format(file=cfg),
            _("write registries = [...] in it by hand"),
        )
    cfg.parent.mkdir(parents=True, exist_ok=True)
    yamlio.atomic_write(cfg, new, force=True)


def verify(ref: str) -> tuple[str, int]:
    """The index address of registry ``ref`` and how many pack versions it lists, once its index
    is fetched and read; DaimyoError (one line) when it cannot be reached or is not valid."""
    index = to_index_url(ref)
    return index, len(load_index(index))


def add(ref: str, name: str | None = None) -> tuple[Registry, int]:
    """Add registry ``ref`` (an index address or a folder) to the config file, its index fetched
    and verified first; (the registry, its pack versions)."""
    ref = ref.strip()
    if not ref:
        raise UsageError(_("give a registry's address or folder"), _("e.g. https://example.org/packs/index.json"))
    scheme = urlsplit(ref).scheme
    if len(scheme) <= 1:  # a folder or file here: kept as its absolute path
        ref = str(Path(ref).expanduser().resolve())
    index, count = verify(ref)
    cfg = config_file()
    text, data = _read(cfg)
    items = _items(data, cfg)
    name = _check_name(name if name is not None else default_name(ref))
    for r in items:
        if r.index == index:
            raise UsageError(
                _("registry '{name}' already has that address").format(name=r.name),
                _("'daimyo registry list' shows the registries"),
            )
        if r.name.lower() == name.lower():
            raise UsageError(
                _("a registry is already named '{name}'").format(name=name),
                _("give another name with {option}").format(option=option("name")),
            )
    reg = Registry(name, ref, index)
    _save(cfg, text, [*items, reg])
    return reg, count


def remove(which: str) -> Registry:
    """Remove the registry named ``which`` (or with that address) from the config file."""
    cfg = config_file()
    text, data = _read(cfg)
    items = _items(data, cfg)
    want = which.strip()
    hit = [r for r in items if r.name.lower() == want.lower() or want in (r.url, r.index)]
    if not hit:
        names = ", ".join(r.name for r in items) or _("none")
        raise UsageError(
            _("no registry '{name}' in {file}").format(name=one_line(want)[:100], file=cfg),
            _("registries: {names}").format(names=names),
        )
    _save(cfg, text, [r for r in items if r is not hit[0]])
    return hit[0]
