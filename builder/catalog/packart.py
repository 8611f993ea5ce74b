"""A pack's art: the images its entries name (``art: art/warriors.png``, relative to the pack
file), what they must be to travel with the pack, and their place in its content hash.

An image travels with its pack when it is

* inside the pack's folder (``../x.png``, an absolute path or a link that leads out is refused);
* a PNG, JPEG or WebP file, told by its first bytes, not its name (an SVG, a GIF or anything else
  is refused);
* at most ``MAX_ART_BYTES`` bytes and ``MAX_IMAGE_PIXELS`` pixels (read from its header before
  anything is decoded: a small file that claims a huge image is refused unread);
* whole (a truncated file is refused), in a colour mode daimyo prints (CMYK is converted to RGB
  when printed).

The content hash of a pack that names art covers its images: it is SHA-256 over the text::

    <the data hash, sha256:...>\\n
    <path>\\t<SHA-256 of the image's bytes>\\n      (one line per image, sorted by path)

where ``path`` is as the pack writes it, with ``/`` separators and no ``./``; an image that
cannot be read counts as ``missing``. A pack that names no art keeps its data hash.

An installed pack keeps its art beside it in a hidden folder, ``.art/<file stem>/`` next to the
pack file (``art_folder``), so two packs' ``art/warriors.png`` never meet.
"""

from __future__ import annotations

import io
import os
import warnings
from pathlib import Path, PurePosixPath

from builder import state
from builder.errors import Diagnostic
from builder.i18n import _
from builder.limits import MAX_ART_BYTES, MAX_ART_FILES, MAX_IMAGE_PIXELS
from builder.paths import within

ART_DIR = ".art"
FORMATS = ("PNG", "JPEG", "WEBP")
#: the colour modes printed (16-bit and 32-bit greyscale are scaled to 8 bits, CMYK converted to RGB)
MODES = ("1", "L", "LA", "P", "PA", "RGB", "RGBA", "RGBX", "CMYK", "I;16", "I;16B", "I;16L", "I;16N", "I", "F")


def art_folder(pack: str | os.PathLike) -> Path:
    """The folder a pack's ``art:`` paths are read from: ``.art/<stem>/`` beside it when there
    is one (an installed pack), else the pack's own folder."""
    p = Path(pack)
    kept = p.parent / ART_DIR / p.stem
    return kept if kept.is_dir() else p.parent


def art_refs(data: dict) -> list[str]:
    """The ``art:`` paths a pack's entries name, normalised (``/``, no ``./``), sorted, once each."""
    found = set()
    for value in data.values():
        if not isinstance(value, list):
            continue
        for item in value:
            if isinstance(item, dict) and isinstance(item.get("art"), str) and item["art"].strip():
                found.add(norm(item["art"]))
    return sorted(found)


def norm(path: str) -> str:
    text = path.strip().replace("\\", "/")
    parts = [p for p in text.split("/") if p not in ("", ".")]
    return ("/" if text.startswith("/") else "") + "/".join(parts)


def sniff(head: bytes) -> str | None:
    """The format of an image by its first bytes: PNG, JPEG, WEBP, or None."""
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "PNG"
    if head.startswith(b"\xff\xd8\xff"):
        return "JPEG"
    if len(head) >= 12 and head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "WEBP"
    return None


def _what(head: bytes) -> str:
    text = head[:256].lstrip().lower()
    if text.startswith(b"<?xml") or text.startswith(b"<svg") or b"<svg" in text:
        return _("an SVG drawing")
    if head.startswith((b"GIF87a", b"GIF89a")):
        return _("a GIF")
    if head.startswith(b"%PDF"):
        return _("a PDF")
    return _("not an image daimyo reads")


def image_problem(data: bytes) -> str | None:
    """Why these bytes cannot travel as a pack's art (format, size, pixels, a broken file, a
    colour mode), or None. The pixel count is read from the header before anything is decoded."""
    if len(data) > MAX_ART_BYTES:
        return too_many_bytes(len(data))
    fmt = sniff(data[:16])
    if fmt is None:
        return _("{what}; art must be a PNG, JPEG or WebP image").format(what=_what(data))
    from PIL import Image  # noqa: PLC0415 - Pillow only when art is checked

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data), formats=[fmt]) as im:
                w, h = im.size
                if w * h > MAX_IMAGE_PIXELS:
                    return too_many_pixels(w, h)
                if im.mode not in MODES:
                    return _("colour mode {mode} is not printed; save it as RGB").format(mode=im.mode)
                im.load()  # a truncated or damaged file fails here
    except Image.DecompressionBombError:
        if fmt == "PNG" and len(data) >= 24:  # the size its header claims
            w, h = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
            return too_many_pixels(w, h)
        return _("more than {limit} pixels (MAX_IMAGE_PIXELS)").format(limit=f"{MAX_IMAGE_PIXELS:,}")
    except (OSError, ValueError, SyntaxError, Image.UnidentifiedImageError) as exc:
        why = str(exc).split("\n")[0][:120] or type(exc).__name__
        return _("a damaged or truncated {format} file ({why})").format(format=fmt, why=why)
    return None


def too_many_bytes(size: int) -> str:
    return _("{size} bytes, more than {limit} (MAX_ART_BYTES); scale it down").format(
        size=f"{size:,}", limit=f"{MAX_ART_BYTES:,}"
    )


def too_many_pixels(w: int, h: int) -> str:
    return _(
        "{w} x {h} pixels, more than {limit} (MAX_IMAGE_PIXELS); scale it to the size it prints at (300 dpi is plenty)"
    ).format(w=f"{w:,}", h=f"{h:,}", limit=f"{MAX_IMAGE_PIXELS:,}")


def path_problem(ref: str) -> str | None:
    """Why an ``art:`` path can never name a file inside the pack's folder, or None."""
    p = PurePosixPath(norm(ref))
    if p.is_absolute() or ":" in ref or ".." in p.parts:
        return _("leads outside the pack's folder; art must lie in the pack's folder or below it")
    return None


def art_diagnostics(data: dict, folder: str | os.PathLike, shown: str, pos=None) -> list[Diagnostic]:
    """One located problem per image the pack names that cannot travel with it."""
    out: list[Diagnostic] = []
    refs = art_refs(data)

    def at(ref: str, message: str) -> Diagnostic:
        for key, value in data.items():
            if isinstance(value, list):
                for i, item in enumerate(value):
                    if isinstance(item, dict) and isinstance(item.get("art"), str) and norm(item["art"]) == ref:
                        if pos is not None:
                            return pos.diag((key, i, "art"), message, code="pack.art")
        return Diagnostic(shown, 0, 0, message, code="pack.art")

    if len(refs) > MAX_ART_FILES:
        return [
            Diagnostic(
                shown,
                0,
                0,
                _("names {n} images, more than {limit} (MAX_ART_FILES)").format(
                    n=f"{len(refs):,}", limit=f"{MAX_ART_FILES:,}"
                ),
            )
        ]
    for ref in refs:
        why = path_problem(ref)
        real = within(folder, ref) if why is None else None
        if why is None and real is None:
            why = _("leads outside the pack's folder (a link); art must lie in the pack's folder or below it")
        if why is None and real is not None:
            try:
                size = real.stat().st_size
                if size > MAX_ART_BYTES:
                    why = too_many_bytes(size)
                else:
                    why = image_problem(real.read_bytes())
            except OSError:
                why = _("not found beside the pack") if not real.exists() else _("cannot be read")
        if why:
            out.append(at(ref, _("art '{path}': {why}").format(path=ref[:200], why=why)))
    return out


_DIGESTS: dict[tuple, str] = state.cache(
    "packart.digests", bound=4096, lifetime=state.FILE, doc="an image's SHA-256 by its path, size and modification time"
)


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file, kept while its size and time stay the same."""
    try:
        st = path.stat()
    except OSError:
        return "missing"
    key = (str(path), st.st_size, st.st_mtime_ns)
    hit = _DIGESTS.get(key)
    if hit is None:
        try:
            hit = sha256_hex(path.read_bytes())
        except OSError:
            return "missing"
        if len(_DIGESTS) > 4096:
            _DIGESTS.clear()
        _DIGESTS[key] = hit
    return hit


def art_digests(data: dict, folder: str | os.PathLike) -> dict[str, str]:
    """{path: SHA-256} of the images the pack names, read from ``folder`` (``missing`` for one
    that cannot be read or leads outside)."""
    out = {}
    for ref in art_refs(data):
        real = within(folder, ref) if path_problem(ref) is None else None
        out[ref] = file_sha256(real) if real is not None and real.is_file() else "missing"
    return out


def with_art(data_hash: str, digests: dict[str, str]) -> str:
    """The content hash of a pack whose data hash is ``data_hash`` and whose images are
    ``digests`` (the data hash itself when it names none)."""
    if not digests:
        return data_hash
    text = data_hash + "\n" + "".join(f"{p}\t{digests[p]}\n" for p in sorted(digests))
    return "sha256:" + sha256_hex(text.encode("utf-8"))


def sha256_hex(data: bytes) -> str:
    import hashlib  # noqa: PLC0415 - OpenSSL only when something is hashed (tests/test_startup.py)

    return hashlib.sha256(data).hexdigest()
