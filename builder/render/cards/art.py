"""Card art: finding a card's image, preparing it for its box (crop, turn, resample,
cache) and the art box of a layout at the printed size."""

from __future__ import annotations

import hashlib
import io
import os
import re
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from PIL import Image, ImageOps, UnidentifiedImageError
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfutils

from builder.catalog.focus import cover_crop, parse_focus
from builder.errors import UsageError
from builder.i18n import _
from builder.kit.layout import (
    scale_box,
)
from builder.limits import MAX_IMAGE_PIXELS
from builder.names import slug
from builder.paths import cache_dir, is_file, within
from builder.render.cards.base import PreparedImage, SheetOptions
from builder.render.cards.geometry import geometry
from builder.render.cards.template import CardFace, CardTemplate, get_value

MAX_DPI = 300


# -- art ---------------------------------------------------------------------------------


def find_art(face: CardFace, tpl: CardTemplate, search_dirs: list[Path], folder: Path, warn=None) -> Path | None:
    """The image of a card: its ``art`` attribute (a path relative to ``folder``, the folder of
    the pack that gives the card, or the list's for a card of no pack) or, by convention,
    ``art/<card id>.jpg|jpeg|png`` next to the list or one of its packs (``search_dirs``: those
    ``art`` folders, each already inside its own folder).

    Art is read only from inside that folder (``builder.paths.within``: ``..``, an absolute path
    and a symbolic link that leads out are refused): a refused path is a warning naming the card
    and the rule (``warn``), and the card prints without art. A path inside the folder that does
    not exist is an error (exit 2).
    """
    value = get_value(face.entry, tpl.art_field)
    if isinstance(value, str) and value.strip():
        real = within(folder, value.strip())
        if real is None:
            if warn is not None:
                warn(
                    f"card '{face.name}': art '{value.strip()[:200]}' leads outside the folder of the pack that "
                    f"names it ({folder.name}/); art is read only from inside that folder, so the card prints "
                    "without art"
                )
            return None
        if is_file(real):
            return real
        raise UsageError(
            _("card '{name}': image file '{file}' not found").format(name=face.name, file=value),
            _("paths are relative to the folder of the pack that names them (of the list, for a card of no pack)"),
        )

    stem_candidates = {slug(face.name), str(get_value(face.entry, "id") or "")}
    for d in search_dirs:
        for stem in stem_candidates:
            if not stem:
                continue
            for ext in (".jpg", ".jpeg", ".png"):
                p = within(d, f"{stem}{ext}")  # a link that leads out of the art folder is not read
                if p is not None and is_file(p):
                    return p
    return None


JPEG_QUALITY = 90
_CACHE_VERSION = 2


def _cache_file(path: Path, st, key: str) -> Path | None:
    """Where the prepared JPEG of ``path`` (``key``: pixel size, crop, turn) is kept between runs."""
    try:
        ident = f"{_CACHE_VERSION}:{path.resolve()}:{st.st_size}:{st.st_mtime_ns}:{key}:q{JPEG_QUALITY}"
        return cache_dir() / "images" / (hashlib.sha1(ident.encode()).hexdigest()[:24] + ".jpg")
    except OSError:
        return None


def _cache_store(target: Path | None, data: bytes) -> None:
    """Keep a resampled image for the next run; a cache that cannot be written is skipped."""
    if target is None:
        return

    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, target)
    except OSError:
        pass


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a JPEG's SOF marker, or None when the bytes are not a JPEG."""
    try:
        info = pdfutils.readJPEGInfo(io.BytesIO(data))
        return int(info[0]), int(info[1])
    except Exception:
        return None


LOW_DPI = 150  # below this, art looks blurry on paper: a warning says so


def _to_8bit(im):
    """Pillow modes a PDF cannot take as they are (16-bit and 32-bit greyscale, floats)
    scaled to 8 bits: converting them directly clips them to a blank box."""
    if im.mode in ("I;16", "I;16B", "I;16L", "I;16N"):
        return im.point(lambda v: v / 256).convert("L") if hasattr(im, "point") else im.convert("L")
    if im.mode == "I":
        _lo, hi = im.getextrema()
        if hi > 255:
            return im.point(lambda v: v * (255.0 / 65535.0)).convert("L")
        return im.convert("L")
    if im.mode == "F":
        return im.point(lambda v: v * 255.0).convert("L")
    return im


def _orientation(im) -> int:
    try:
        return int(im.getexif().get(0x0112, 1) or 1)
    except Exception:
        return 1


def prepare_image(
    path: Path, box_w_mm: float, box_h_mm: float, max_dpi: int = MAX_DPI, focus: tuple[float, float] | None = None
) -> PreparedImage:
    """Open an image with Pillow and make it fill its box: cropped to the box's proportions
    around ``focus`` (fractions from the top-left; default the centre), turned as its EXIF
    orientation says, 16-bit images scaled to 8 bits, resampled to at most ``max_dpi`` at
    the size it prints. ``dpi`` on the result is the resolution it prints at.

    A JPEG that needs none of this (same proportions, upright, within the dpi limit)
    passes through unchanged (its bytes are embedded as they are); anything else is
    re-encoded: JPEG (quality 90) for opaque images, PNG for images with transparency. A
    large JPEG is decoded at a reduced scale (Pillow's ``draft``) before the final
    resampling, and the re-encoded JPEG is kept in the cache folder (keyed by file, size,
    modification time, crop and pixel size), so printing the same deck again does not
    resample again. Unreadable files are a UsageError.
    """
    focus = focus or (0.5, 0.5)
    try:
        st = path.stat()
        with _open_image(path) as im:
            fmt = im.format
            turn = _orientation(im)
            w, h = im.size
            if turn in (5, 6, 7, 8):  # turned a quarter: width and height swap
                w, h = h, w
            crop = cover_crop(w, h, box_w_mm, box_h_mm, focus)
            cw, ch = crop[2] - crop[0], crop[3] - crop[1]
            if cw >= w * 0.99 and ch >= h * 0.99:  # within 1 %: stretched imperceptibly, not cut
                crop, cw, ch = (0, 0, w, h), w, h
            dpi = cw / (box_w_mm / 25.4)
            max_w = max(1, int(box_w_mm / 25.4 * max_dpi + 0.5))
            max_h = max(1, int(box_h_mm / 25.4 * max_dpi + 0.5))
            needs_resample = cw > max_w * 1.02 or ch > max_h * 1.02
            cropped = (cw, ch) != (w, h)
            plain = fmt == "JPEG" and im.mode in ("RGB", "L") and turn == 1 and not cropped  # CMYK: converted
            if plain and not needs_resample:
                im.load()  # a truncated or broken file fails here, not in the PDF writer
                data = path.read_bytes()
                return PreparedImage(hashlib.sha1(data).hexdigest()[:16], data, w, h, dpi=dpi)
            alpha = _has_alpha(im)
            key = f"{max_w}x{max_h}:{crop}:{turn}"
            cached = _cache_file(path, st, key) if not alpha else None
            if cached is not None and cached.is_file():
                data = cached.read_bytes()
                size = _jpeg_size(data)
                if size:
                    return PreparedImage(hashlib.sha1(data).hexdigest()[:16], data, *size, dpi=dpi)
            if needs_resample and fmt == "JPEG" and turn == 1 and not cropped:
                im.draft("RGB", (max_w, max_h))  # decode at a reduced scale: much faster
            im.load()
            img = _to_8bit(im)
            if turn != 1:
                img = ImageOps.exif_transpose(img)
            if cropped:
                sx, sy = img.size[0] / w, img.size[1] / h  # draft may have decoded smaller
                img = img.crop((round(crop[0] * sx), round(crop[1] * sy), round(crop[2] * sx), round(crop[3] * sy)))
            if needs_resample and img.size != (max_w, max_h):
                img = img.convert("RGBA" if alpha else "RGB").resize(
                    (max_w, max_h), Image.Resampling.LANCZOS, reducing_gap=3.0
                )
            buf = io.BytesIO()
            if alpha:
                img.convert("RGBA").save(buf, "PNG", optimize=False)
                buf.seek(0)
                return PreparedImage(
                    hashlib.sha1(buf.getvalue()).hexdigest()[:16],
                    ImageReader(buf),
                    img.size[0],
                    img.size[1],
                    "auto",
                    dpi=dpi,
                )
            img.convert("RGB").save(buf, "JPEG", quality=JPEG_QUALITY)
            data = buf.getvalue()
            _cache_store(cached, data)
            return PreparedImage(hashlib.sha1(data).hexdigest()[:16], data, img.size[0], img.size[1], dpi=dpi)
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        raise UsageError(
            _("cannot read image '{path}': {error}").format(path=path, error=exc.__class__.__name__),
            _("use a PNG or JPEG file"),
        ) from None


def _open_image(path: Path):
    """``Image.open`` of a file whose pixel count is within MAX_IMAGE_PIXELS (read from its
    header, before anything is decoded); a larger image is one line naming the file and size."""

    def too_large(size: str):
        return UsageError(
            _("image '{path}' is too large: {size} (at most {most} pixels)").format(
                path=path, size=size, most=f"{MAX_IMAGE_PIXELS:,}"
            ),
            _("scale it down to the size it prints at (300 dpi is plenty)"),
        )

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            im = Image.open(path)
    except Image.DecompressionBombError as exc:
        m = re.search(r"\((\d+) pixels\)", str(exc))
        raise too_large(_("{n} pixels").format(n=f"{int(m.group(1)):,}") if m else _("over Pillow's limit")) from None
    w, h = im.size
    if w * h > MAX_IMAGE_PIXELS:
        im.close()
        raise too_large(_("{w} x {h}, {n} pixels").format(w=w, h=h, n=f"{w * h:,}"))
    return im


def _has_alpha(im) -> bool:
    return im.mode in ("RGBA", "LA", "PA") or (im.mode == "P" and "transparency" in im.info)


# -- the document ---------------------------------------------------------------------------


def art_box(
    tpl: CardTemplate, layout: str, opts: SheetOptions, shift: float = 0.0
) -> tuple[float, float, float, float] | None:
    """The art box of a layout in card mm (x, y from the bottom-left, w, h) at the printed
    card size, ``shift`` mm shorter where it yields to the rules text. A side of the box that
    lies on the card's edge (full-bleed art) reaches out into the bleed."""
    box = geometry(tpl, layout, shift).art
    if box is None:
        return None
    x, y, w, h = scale_box(box, tpl.size, opts.card)
    b = opts.bleed
    if b:
        cw, ch = opts.card
        tol = 0.3
        x0, y0, x1, y1 = x, y, x + w, y + h
        x0 = -b if x0 <= tol else x0
        y0 = -b if y0 <= tol else y0
        x1 = cw + b if x1 >= cw - tol else x1
        y1 = ch + b if y1 >= ch - tol else y1
        x, y, w, h = x0, y0, x1 - x0, y1 - y0
    return x, y, w, h


def face_focus(face: CardFace) -> tuple[float, float]:
    try:
        return parse_focus(get_value(face.entry, "focus"))
    except ValueError as exc:
        raise UsageError(_("card '{name}': {error}").format(name=face.name, error=exc)) from None


def prepare_images(faces: list[CardFace], tpl: CardTemplate, opts: SheetOptions, warn=None) -> dict:
    """Prepare the art of every face: once per distinct file, printed size and focus, the
    images in parallel threads (Pillow decodes and resamples without holding the GIL). Sets
    ``face.image``; returns {(path, w, h, focus): PreparedImage}. The first unreadable image
    in list order raises its UsageError. Art printing below 150 dpi is reported through
    ``warn`` (one line per image, with its dpi)."""
    if opts.ink_saver:
        return {}
    wanted: dict[tuple, tuple] = {}
    keys: dict[int, tuple] = {}
    for f in faces:
        box = art_box(tpl, f.layout, opts, f.shift)
        if f.art is not None and box is not None:
            _, _, w, h = box
            fx = face_focus(f)
            want = (f.art, round(w, 3), round(h, 3), fx)
            wanted.setdefault(want, (f.art, w, h, MAX_DPI, fx))
            keys[id(f)] = want
    if not wanted:
        return {}
    workers = max(1, min(len(wanted), os.cpu_count() or 1, 8))
    if workers == 1:
        images = {k: prepare_image(*args) for k, args in wanted.items()}
    else:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            futures = {k: pool.submit(prepare_image, *args) for k, args in wanted.items()}
            images = {k: fut.result() for k, fut in futures.items()}
    reported = set()
    for f in faces:
        k = keys.get(id(f))
        if k is None:
            continue
        f.image = images[k]
        if warn and f.image.dpi < LOW_DPI and k not in reported:
            reported.add(k)
            warn(
                f"card '{f.name}': its art prints at {f.image.dpi:.0f} dpi (below {LOW_DPI}), it will look "
                f"blurry; use an image of at least {round(k[1] / 25.4 * 300)} x {round(k[2] / 25.4 * 300)} px"
            )
    return images
