"""Card sheets: one face per card copy, laid out from ``templates/cards/<system>.yaml``.

The card faces are data: a template names, for each card layout (e.g. a Senshiai
``troop``), which catalog attribute goes into which box (mm from the card's top-left
corner, for the template's reference card size; other card sizes scale), with which
font size and how the value is shown (``as: roman`` prints a cost 0-5 as N, I-V).
A new catalog field needs a template edit, not code.

Pages: fronts, then (with backs) the backs on the following page, each back at the
mirrored position of its card (``layout.back_slot``). Frames and backs are form
XObjects drawn once per document; each distinct image is embedded once.

Entry point: :func:`render_cards` (called by ``api.render_list``) and
:func:`render_test_sheet` (``daimyo print-test``).
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from builder.errors import DaimyoError, Diagnostic, UsageError, option
from builder.paths import is_file
from builder.render import fonts
from builder.render.layout import (
    MARK_LENGTH,
    MARK_OFFSET,
    Rect,
    MARK_PAGE_CLEAR,
    back_slot,
    card_matrix,
    card_size,
    cut_lines,
    cut_marks,
    page_chunks,
    paper_size,
    parse_offset,
    plan_fold,
    plan_sheet,
    pt,
    scale_box,
)

MAX_DPI = 300
MIN_CARD_PT = 6.0     # smallest card text on a poker card (scaled down with smaller cards)


def _overlap(a, b, tol: float = 0.2) -> bool:
    """Two template boxes (x, y_top, w, h) overlap by more than ``tol`` mm."""
    return (a[0] < b[0] + b[2] - tol and b[0] < a[0] + a[2] - tol
            and a[1] < b[1] + b[3] - tol and b[1] < a[1] + a[3] - tol)

ROMAN = ("N", "I", "II", "III", "IV", "V")

# -- templates ----------------------------------------------------------------------


class _T(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


Box = tuple[float, float, float, float]


class FieldSpec(_T):
    """One printed field: a catalog attribute (or literal text) drawn into a box."""

    field: str | None = None          # entry attribute, dotted for nested ("power.melee")
    text: str | None = None           # literal text instead of a field
    label: str = ""                   # printed before the value ("Speed ")
    suffix: str = ""
    as_: Literal["text", "roman", "list", "lines", "upper", "title", "words", "initial", "signed",
                 "options", "option_names"] = Field("text", alias="as")
    join: str = ", "
    box: Box
    size: float = 8.0
    min_size: float = 5.0
    bold: bool = False
    condensed: bool = False
    align: Literal["left", "center", "right"] = "left"
    valign: Literal["top", "middle", "bottom"] = "top"
    wrap: bool = True
    color: str | None = None          # text colour (#rrggbb)
    fill: str | None = None           # box background
    radius: float = 0.0               # corner radius of the fill (mm)
    reminders: str | None = None      # an attribute listing abilities: their reminder text follows
    required: bool = False            # the rulebook says the card must carry it
    missing: str | None = None        # printed (after the label) when the value is absent, e.g. a dash;
                                      # without it an absent value prints nothing


class FrameSpec(_T):
    color: str = "#333333"            # border and bands
    background: str = "#fbf7ee"       # card face tint (extends into the bleed)
    border: float = 2.0               # inset of the frame line from the trim (mm)
    line: float = 0.6                 # frame line width (mm)
    radius: float = 2.5
    bands: list[Box] = []             # filled bands (header, stat bar), boxes like fields
    band_color: str | None = None     # default: color, lightened
    rules: list[Box] = []             # thin separator lines (use h = 0)


class LayoutSpec(_T):
    frame: FrameSpec = FrameSpec()
    art: Box | None = None            # where the card art goes when the card has art
    fields: list[FieldSpec]


class BackSpec(_T):
    title: str
    subtitle: str = ""
    color: str = "#5a1a1a"
    accent: str = "#d8b26a"


class CardTemplate(_T):
    system: str
    size: tuple[float, float] = (63.5, 88.9)
    layout_field: str | None = None   # entry attribute naming the layout
    layout_map: dict[str, str] = {}   # attribute value -> layout name (default: the value)
    layout_by_model: dict[str, str] = {}  # catalog model class name -> layout (checked first)
    default_layout: str
    back_field: str | None = None     # entry attribute naming the back
    default_back: str = "default"
    art_field: str = "art"            # entry attribute with an image path (optional)
    layouts: dict[str, LayoutSpec]
    backs: dict[str, BackSpec]


def load_template(system: str, path: Path | None = None) -> CardTemplate:
    """The card template of ``system`` (errors point at the template's YAML line)."""
    from builder.catalog.loader import pydantic_diagnostics
    from builder.paths import templates_dir
    from builder.yamlio import load_yaml

    from builder.systems import get, is_system

    own = get(system).card_template if is_system(system) else None
    p = path or own or templates_dir() / "cards" / f"{system}.yaml"
    if not p.exists():
        raise UsageError(f"no card template for system '{system}' ({p})")
    data, pos = load_yaml(p)
    try:
        tpl = CardTemplate.model_validate(data)
    except ValidationError as exc:
        raise DaimyoError(pydantic_diagnostics(exc, pos, CardTemplate, prefix=None)) from None
    bad = [name for name in [tpl.default_layout, *tpl.layout_by_model.values(), *tpl.layout_map.values()]
           if name not in tpl.layouts]
    if bad or tpl.default_back not in tpl.backs:
        raise DaimyoError(Diagnostic(str(p), 1, 1, "the template names a layout or back it does not define: "
                                     + ", ".join(bad or [tpl.default_back])))
    return tpl


# -- cards of a list --------------------------------------------------------------------


@dataclass
class CardFace:
    """One distinct card to print ``count`` times."""

    name: str
    entry: Any                         # catalog entry (pydantic model) or a plain dict
    count: int = 1
    layout: str = ""
    back: str = "default"
    art: Path | None = None
    image: "PreparedImage | None" = None   # the prepared art (set by render_cards)


def get_value(entry: Any, path: str) -> Any:
    """An attribute (or dict key) of ``entry``; dotted paths go deeper."""
    cur = entry
    for part in path.split("."):
        if cur is None:
            return None
        if isinstance(cur, dict):
            cur = cur.get(part)
        else:
            cur = getattr(cur, part, None)
        if callable(cur) and not isinstance(cur, type):
            try:
                cur = cur()
            except TypeError:
                pass
    return cur


def list_cards(doc, catalog, lst) -> tuple[list[CardFace], list[str]]:
    """The cards of a list as (faces, warnings). Unknown names are left out with a warning."""
    warnings: list[str] = []
    faces: list[CardFace] = []
    entries = getattr(lst, "entries", None)
    if entries is not None and not isinstance(lst, dict):
        for e in entries:
            card = getattr(e, "card", None)
            custom = getattr(e, "custom", None)
            count = int(getattr(e, "count", 1) or 1)
            if card is not None:
                faces.append(CardFace(card.name, card, count))
            elif custom is not None:
                rec = {k: getattr(custom, k, None) for k in ("name", "printed", "side", "options")}
                rec["options"] = [_Opt(s, v) for s, v in (rec.get("options") or ())]
                faces.append(CardFace(str(rec["name"]), rec, count))
            else:
                warnings.append(f"card '{getattr(e, 'name', '?')}' is not in the catalog; not printed")
        return faces, warnings
    # generic: mappings of card names to counts in the list body
    body = doc.body()
    from builder.systems import get

    for key in get(doc.system).printed_keys:
        value = body.get(key)
        items: list[tuple[str, int]] = []
        if isinstance(value, dict):
            items = [(str(k), v if isinstance(v, int) and not isinstance(v, bool) else 1) for k, v in value.items()]
        elif isinstance(value, list):
            items = [(str(v), 1) for v in value if isinstance(v, str)]
        for name, count in items:
            _section, entry = catalog.find_any(name)
            if entry is None:
                warnings.append(f"card '{name}' is not in the catalog; not printed")
                continue
            faces.append(CardFace(entry.name, entry, max(1, count)))
    return faces, warnings


@dataclass(frozen=True)
class _Opt:
    suit: str
    strength: int


# -- value formatting -------------------------------------------------------------------


def format_value(spec: FieldSpec, value: Any, catalog=None) -> str:
    if value is None or value == [] or value == "":
        return ""
    how = spec.as_
    if how == "roman":
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(ROMAN):
            return ROMAN[value]
        return str(value)
    if how == "words":   # base-attack -> Base Attack
        return " ".join(w[:1].upper() + w[1:] for w in str(value).replace("-", " ").replace("_", " ").split())
    if how == "initial":  # body -> B
        return str(value)[:1].upper()
    if how == "signed":
        return f"+{value}" if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else str(value)
    if how == "list":
        seq = value if isinstance(value, (list, tuple)) else [value]
        return spec.join.join(str(v) for v in seq)
    if how == "lines":
        seq = value if isinstance(value, (list, tuple)) else [value]
        return "\n".join(str(v) for v in seq)
    if how == "upper":
        return str(value).upper()
    if how == "title":
        return str(value)[:1].upper() + str(value)[1:]
    if how == "options":
        seq = value if isinstance(value, (list, tuple)) else [value]
        return spec.join.join(f"{getattr(o, 'suit', '?')}{getattr(o, 'strength', '?')}" for o in seq)
    if how == "option_names":
        seq = value if isinstance(value, (list, tuple)) else [value]
        out = []
        for o in seq:
            letter = getattr(o, "suit", "?")
            name = _suit_name(catalog, letter) or letter
            out.append(f"{name} {getattr(o, 'strength', '?')}")
        return spec.join.join(out)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _suit_name(catalog, letter: str) -> str | None:
    if catalog is None:
        return None
    for s in catalog.entries("suits") if "suits" in catalog.sections() else []:
        if getattr(s, "letter", None) == letter:
            return s.name
    return None


def field_text(spec: FieldSpec, entry: Any, catalog=None) -> str | None:
    """The text a field prints for an entry, or None when it prints nothing."""
    if spec.text is not None:
        return spec.text
    value = get_value(entry, spec.field) if spec.field else None
    shown = format_value(spec, value, catalog)
    if spec.reminders:
        notes = reminder_text(get_value(entry, spec.reminders), catalog)
        if notes:
            shown = (shown + "\n" if shown else "") + notes
    if not shown:   # an unknown value: the template's mark for it (a dash), without the suffix
        return f"{spec.label}{spec.missing}" if spec.missing is not None else None
    return f"{spec.label}{shown}{spec.suffix}"


def reminder_text(abilities, catalog) -> str:
    """Reminder text of a card's abilities, from the catalog's ability definitions:
    ``Recruit: Troops may be recruited ...`` one per line (abilities the catalog does not
    define are left out)."""
    if not abilities or catalog is None or "abilities" not in catalog.sections():
        return ""
    seq = abilities if isinstance(abilities, (list, tuple)) else [abilities]
    defs = catalog.entries("abilities")
    out = []
    seen = set()
    for a in seq:
        ab = None
        try:
            from builder.catalog.senshiai import parse_ability

            ab = parse_ability(str(a), defs).ability
        except Exception:
            ab = catalog.find("abilities", str(a).split(":")[0].strip())
        text = getattr(ab, "text", None) if ab is not None else None
        if text and ab.name not in seen:
            seen.add(ab.name)
            out.append(f"{ab.name}: {text.strip()}")
    return "\n".join(out)


def choose_layout(tpl: CardTemplate, entry: Any) -> str:
    from builder.catalog.frozen import kind

    model = kind(entry)  # the catalog model's class name (an entry is frozen once validated)
    if model in tpl.layout_by_model and tpl.layout_by_model[model] in tpl.layouts:
        return tpl.layout_by_model[model]
    if tpl.layout_field:
        v = get_value(entry, tpl.layout_field)
        if v is not None:
            key = tpl.layout_map.get(str(v), str(v))
            if key in tpl.layouts:
                return key
    return tpl.default_layout


def choose_back(tpl: CardTemplate, entry: Any) -> str:
    if tpl.back_field:
        v = get_value(entry, tpl.back_field)
        if v is not None and str(v) in tpl.backs:
            return str(v)
    return tpl.default_back


# -- art ---------------------------------------------------------------------------------


def find_art(face: CardFace, tpl: CardTemplate, search_dirs: list[Path], base_dirs: list[Path]) -> Path | None:
    """The image of a card: its ``art`` attribute (a path, relative to the list or a pack) or,
    by convention, ``art/<card id>.jpg|jpeg|png`` next to the list or one of its packs.

    A path written in the data that does not exist is an error (exit 2).
    """
    value = get_value(face.entry, tpl.art_field)
    if isinstance(value, str) and value.strip():
        for base in base_dirs:
            p = (base / value).expanduser()
            if is_file(p):
                return p
        raise UsageError(f"card '{face.name}': image file '{value}' not found",
                         "paths are relative to the list or the pack that names them")
    from builder.names import slug

    stem_candidates = {slug(face.name), str(get_value(face.entry, "id") or "")}
    for d in search_dirs:
        for stem in stem_candidates:
            if not stem:
                continue
            for ext in (".jpg", ".jpeg", ".png"):
                p = d / f"{stem}{ext}"
                if is_file(p):
                    return p
    return None


@dataclass
class PreparedImage:
    key: str
    source: Any       # JPEG bytes (embedded as they are) or an ImageReader (PNG with alpha)
    width_px: int
    height_px: int
    mask: Any = None
    dpi: float = 300.0    # the resolution the source prints at in its box

    @property
    def is_jpeg(self) -> bool:
        return isinstance(self.source, (bytes, bytearray))


JPEG_QUALITY = 90
_CACHE_VERSION = 2


def _cache_file(path: Path, st, key: str) -> Path | None:
    """Where the prepared JPEG of ``path`` (``key``: pixel size, crop, turn) is kept between runs."""
    try:
        from builder.paths import cache_dir

        ident = f"{_CACHE_VERSION}:{path.resolve()}:{st.st_size}:{st.st_mtime_ns}:{key}:q{JPEG_QUALITY}"
        return cache_dir() / "images" / (hashlib.sha1(ident.encode()).hexdigest()[:24] + ".jpg")
    except OSError:
        return None


def _cache_store(target: Path | None, data: bytes) -> None:
    """Keep a resampled image for the next run; a cache that cannot be written is skipped."""
    if target is None:
        return
    import os

    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, target)
    except OSError:
        pass


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a JPEG's SOF marker, or None when the bytes are not a JPEG."""
    from reportlab.pdfbase import pdfutils

    try:
        info = pdfutils.readJPEGInfo(io.BytesIO(data))
        return int(info[0]), int(info[1])
    except Exception:
        return None


LOW_DPI = 150    # below this, art looks blurry on paper: a warning says so


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


def prepare_image(path: Path, box_w_mm: float, box_h_mm: float, max_dpi: int = MAX_DPI,
                  focus: tuple[float, float] | None = None) -> PreparedImage:
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
    from PIL import Image, ImageOps, UnidentifiedImageError

    from builder.catalog.focus import cover_crop

    focus = focus or (0.5, 0.5)
    try:
        st = path.stat()
        with _open_image(path) as im:
            fmt = im.format
            turn = _orientation(im)
            w, h = im.size
            if turn in (5, 6, 7, 8):       # turned a quarter: width and height swap
                w, h = h, w
            crop = cover_crop(w, h, box_w_mm, box_h_mm, focus)
            cw, ch = crop[2] - crop[0], crop[3] - crop[1]
            if cw >= w * 0.99 and ch >= h * 0.99:    # within 1 %: stretched imperceptibly, not cut
                crop, cw, ch = (0, 0, w, h), w, h
            dpi = cw / (box_w_mm / 25.4)
            max_w = max(1, int(box_w_mm / 25.4 * max_dpi + 0.5))
            max_h = max(1, int(box_h_mm / 25.4 * max_dpi + 0.5))
            needs_resample = cw > max_w * 1.02 or ch > max_h * 1.02
            cropped = (cw, ch) != (w, h)
            plain = fmt == "JPEG" and im.mode in ("RGB", "L", "CMYK") and turn == 1 and not cropped
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
                im.draft("RGB", (max_w, max_h))   # decode at a reduced scale: much faster
            im.load()
            img = _to_8bit(im)
            if turn != 1:
                img = ImageOps.exif_transpose(img)
            if cropped:
                sx, sy = img.size[0] / w, img.size[1] / h     # draft may have decoded smaller
                img = img.crop((round(crop[0] * sx), round(crop[1] * sy), round(crop[2] * sx), round(crop[3] * sy)))
            if needs_resample and img.size != (max_w, max_h):
                img = img.convert("RGBA" if alpha else "RGB").resize((max_w, max_h), Image.LANCZOS,
                                                                     reducing_gap=3.0)
            buf = io.BytesIO()
            if alpha:
                from reportlab.lib.utils import ImageReader

                img.convert("RGBA").save(buf, "PNG", optimize=False)
                buf.seek(0)
                return PreparedImage(hashlib.sha1(buf.getvalue()).hexdigest()[:16], ImageReader(buf),
                                     img.size[0], img.size[1], "auto", dpi=dpi)
            img.convert("RGB").save(buf, "JPEG", quality=JPEG_QUALITY)
            data = buf.getvalue()
            _cache_store(cached, data)
            return PreparedImage(hashlib.sha1(data).hexdigest()[:16], data, img.size[0], img.size[1], dpi=dpi)
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        raise UsageError(f"cannot read image '{path}': {exc.__class__.__name__}",
                         "use a PNG or JPEG file") from None


def _open_image(path: Path):
    """``Image.open`` of a file whose pixel count is within MAX_IMAGE_PIXELS (read from its
    header, before anything is decoded); a larger image is one line naming the file and size."""
    import re
    import warnings

    from PIL import Image

    from builder.limits import MAX_IMAGE_PIXELS

    def too_large(size: str):
        return UsageError(f"image '{path}' is too large: {size} (at most {MAX_IMAGE_PIXELS:,} pixels)",
                          "scale it down to the size it prints at (300 dpi is plenty)")

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            im = Image.open(path)
    except Image.DecompressionBombError as exc:
        m = re.search(r"\((\d+) pixels\)", str(exc))
        raise too_large(f"{int(m.group(1)):,} pixels" if m else "over Pillow's limit") from None
    w, h = im.size
    if w * h > MAX_IMAGE_PIXELS:
        im.close()
        raise too_large(f"{w} x {h}, {w * h:,} pixels")
    return im


def _has_alpha(im) -> bool:
    return im.mode in ("RGBA", "LA", "PA") or (im.mode == "P" and "transparency" in im.info)


# -- colours -----------------------------------------------------------------------------


def _rgb(hexstr: str | None, default=(0, 0, 0)) -> tuple[float, float, float]:
    if not hexstr:
        return default
    s = hexstr.lstrip("#")
    if len(s) == 3:
        s = "".join(ch * 2 for ch in s)
    try:
        return tuple(int(s[i:i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]
    except ValueError:
        return default


def _lighten(rgb, f: float):
    return tuple(c + (1 - c) * f for c in rgb)


# -- rendering ----------------------------------------------------------------------------


@dataclass
class SheetOptions:
    paper: tuple[float, float] = (210.0, 297.0)
    card: tuple[float, float] = (63.5, 88.9)
    bleed: float = 0.0
    marks: bool = True
    backs: bool = True
    duplex: str = "long"
    offset: tuple[float, float] = (0.0, 0.0)
    ink_saver: bool = False
    layout: str = "duplex"            # duplex | fold | separate
    gutter: float | None = None       # mm between neighbouring trims (None: each card its own bleed)
    cut_lines: bool = False           # full-length cut lines across the sheet besides the marks
    scale: tuple[float, float] = (1.0, 1.0)   # printer scale correction (x, y)


LAYOUTS = ("duplex", "fold", "separate")


def _scale_value(v, axis: str) -> float:
    try:
        f = float(v)
    except (TypeError, ValueError):
        raise UsageError(f"bad {option('scale-' + axis)} '{v}'", "give a factor such as 1.01 (50 / the ruler's measured mm)") from None
    if not 0.9 <= f <= 1.1:
        raise UsageError(f"{option('scale-' + axis)} {f:g} is out of range",
                         "use 0.9 to 1.1: 50 divided by the length your 50 mm ruler measures")
    return f


def sheet_options(paper="a4", card="poker", bleed=0.0, marks=True, backs=True, duplex="long",
                  offset=(0.0, 0.0), ink_saver=False, layout="duplex", gutter=None, cut_lines=False,
                  scale_x=1.0, scale_y=1.0) -> SheetOptions:
    """Validate the user's print options (UsageError, exit 2, for anything wrong)."""
    p = paper_size(paper) if isinstance(paper, str) else tuple(paper)
    c = card_size(card) if isinstance(card, str) else tuple(card)
    try:
        b = float(bleed or 0)
    except (TypeError, ValueError):
        raise UsageError(f"bad bleed '{bleed}'", "give millimetres such as 3") from None
    if duplex not in ("long", "short"):
        raise UsageError(f"unknown duplex mode '{duplex}'", "use long or short")
    if layout not in LAYOUTS:
        raise UsageError(f"unknown layout '{layout}'", "use duplex, fold or separate")
    g = None
    if gutter is not None:
        try:
            g = float(gutter)
        except (TypeError, ValueError):
            raise UsageError(f"bad gutter '{gutter}'", "give millimetres such as 0") from None
        if not 0 <= g <= 50:
            raise UsageError(f"gutter {g:g} mm is out of range", "use 0 to 50 mm")
    off = parse_offset(offset) if isinstance(offset, str) or offset is None else tuple(float(v) for v in offset)
    return SheetOptions(p, c, b, bool(marks), bool(backs), duplex, off, bool(ink_saver), layout, g,
                        bool(cut_lines), (_scale_value(scale_x, "x"), _scale_value(scale_y, "y")))


class CardSheetWriter:
    """Draws card faces and backs on a PdfJob (forms are created lazily, once)."""

    def __init__(self, job, tpl: CardTemplate, opts: SheetOptions, catalog=None):
        self.job = job
        self.c = job.canvas
        self.tpl = tpl
        self.opts = opts
        self.catalog = catalog
        self.forms: set[str] = set()
        self.images: dict[str, str] = {}
        self.sx = opts.card[0] / tpl.size[0]
        self.sy = opts.card[1] / tpl.size[1]
        self.fscale = min(self.sx, self.sy)
        self.reported: set[tuple[str, str]] = set()
        self.face_names: dict[int, str] = {}

    # boxes in card points (origin bottom-left of the card)
    def box_pt(self, box: Box) -> tuple[float, float, float, float]:
        x, y, w, h = scale_box(box, self.tpl.size, self.opts.card)
        return pt(x), pt(y), pt(w), pt(h)

    # -- forms ------------------------------------------------------------------
    def frame_form(self, layout: str) -> str:
        name = f"frame_{layout}"
        if name in self.forms:
            return name
        spec = self.tpl.layouts[layout].frame
        c = self.c
        cw, ch = self.opts.card
        b = self.opts.bleed
        c.beginForm(name, lowerx=pt(-b) - 1, lowery=pt(-b) - 1, upperx=pt(cw + b) + 1, uppery=pt(ch + b) + 1)
        c.saveState()
        color = _rgb(spec.color)
        if not self.opts.ink_saver:
            c.setFillColorRGB(*_rgb(spec.background, (1, 1, 1)))
            c.rect(pt(-b), pt(-b), pt(cw + 2 * b), pt(ch + 2 * b), stroke=0, fill=1)
            band = _rgb(spec.band_color) if spec.band_color else _lighten(color, 0.78)
            c.setFillColorRGB(*band)
            for bx in spec.bands:
                x, y, w, h = self.box_pt(bx)
                c.roundRect(x, y, w, h, pt(1.0), stroke=0, fill=1)
        else:
            c.setStrokeColorRGB(0.55, 0.55, 0.55)
            c.setLineWidth(pt(0.15))
            for bx in spec.bands:
                x, y, w, h = self.box_pt(bx)
                c.roundRect(x, y, w, h, pt(1.0), stroke=1, fill=0)
        c.setStrokeColorRGB(*(color if not self.opts.ink_saver else (0.35, 0.35, 0.35)))
        c.setLineWidth(pt(spec.line if not self.opts.ink_saver else 0.25))
        inset = spec.border * min(self.sx, self.sy)
        c.roundRect(pt(inset), pt(inset), pt(cw - 2 * inset), pt(ch - 2 * inset), pt(spec.radius), stroke=1, fill=0)
        c.setLineWidth(pt(0.2))
        for rb in spec.rules:
            x, y, w, h = self.box_pt(rb)
            c.line(x, y + h, x + w, y + h)
        c.restoreState()
        c.endForm()
        self.forms.add(name)
        return name

    def back_form(self, key: str) -> str:
        name = f"back_{key}"
        if name in self.forms:
            return name
        spec = self.tpl.backs[key]
        c = self.c
        cw, ch = self.opts.card
        b = self.opts.bleed
        c.beginForm(name, lowerx=pt(-b) - 1, lowery=pt(-b) - 1, upperx=pt(cw + b) + 1, uppery=pt(ch + b) + 1)
        c.saveState()
        main, accent = _rgb(spec.color), _rgb(spec.accent)
        ink = self.opts.ink_saver
        if not ink:
            c.setFillColorRGB(*main)
            c.rect(pt(-b), pt(-b), pt(cw + 2 * b), pt(ch + 2 * b), stroke=0, fill=1)
        c.setStrokeColorRGB(*(accent if not ink else (0.4, 0.4, 0.4)))
        c.setLineWidth(pt(0.6 if not ink else 0.25))
        inset = 3.0 * self.fscale
        c.roundRect(pt(inset), pt(inset), pt(cw - 2 * inset), pt(ch - 2 * inset), pt(2.5), stroke=1, fill=0)
        c.roundRect(pt(inset + 1.2), pt(inset + 1.2), pt(cw - 2 * inset - 2.4), pt(ch - 2 * inset - 2.4),
                    pt(2.0), stroke=1, fill=0)
        # a simple emblem (a diamond around a circle) above the title
        cx, cy = pt(cw / 2), pt(ch * 0.6)
        r = pt(min(cw, ch) * 0.26)
        p = c.beginPath()
        p.moveTo(cx, cy + r)
        p.lineTo(cx + r, cy)
        p.lineTo(cx, cy - r)
        p.lineTo(cx - r, cy)
        p.close()
        c.drawPath(p, stroke=1, fill=0)
        c.circle(cx, cy, r * 0.55, stroke=1, fill=0)
        c.setFillColorRGB(*(accent if not ink else (0.2, 0.2, 0.2)))
        if not ink:
            c.circle(cx, cy, r * 0.2, stroke=0, fill=1)
        w = pt(cw - 2 * inset - 6)
        from builder.render.pdfbase import draw_text_box

        draw_text_box(c, spec.title, (cx - w / 2, pt(ch * 0.24), w, pt(9)), fonts.BOLD, 12 * self.fscale,
                      6, align="center", valign="middle", wrap=False, what=f"back '{key}' title",
                      warn=self.job.warn)
        if spec.subtitle:
            draw_text_box(c, spec.subtitle, (cx - w / 2, pt(ch * 0.24 - 6), w, pt(5)), fonts.REGULAR,
                          7 * self.fscale, 5, align="center", valign="middle", wrap=False,
                          what=f"back '{key}' subtitle", warn=self.job.warn)
        c.restoreState()
        c.endForm()
        self.forms.add(name)
        return name

    def image_form(self, img: PreparedImage) -> str:
        name = f"img_{img.key}"
        if name in self.forms:
            return name
        c = self.c
        c.beginForm(name, lowerx=0, lowery=0, upperx=1, uppery=1)
        if img.is_jpeg:
            _draw_jpeg_unit(c, f"img{img.key}", img.source)
        else:
            c.drawImage(img.source, 0, 0, 1, 1, mask=img.mask)
        c.endForm()
        self.forms.add(name)
        return name

    # -- placing ------------------------------------------------------------------
    def _enter(self, trim: Rect, rotated: bool, turn180: bool, clip: Rect | None = None) -> None:
        c = self.c
        c.saveState()
        if clip is not None:     # shared gutters: a card's bleed stops where its neighbour's starts
            p = c.beginPath()
            p.rect(pt(clip.x), pt(clip.y), pt(clip.w), pt(clip.h))
            c.clipPath(p, stroke=0, fill=0)
        a, b, cc, d, e, f = card_matrix(trim, rotated, turn180)
        c.transform(a, b, cc, d, pt(e), pt(f))

    def draw_face(self, face: CardFace, trim: Rect, rotated: bool, images: dict, clip: Rect | None = None) -> None:
        """Place a card face; each distinct face is drawn once, as a form, and reused for its copies."""
        c = self.c
        self._enter(trim, rotated, False, clip)
        c.doForm(self.face_form(face, images))
        c.restoreState()

    def face_form(self, face: CardFace, images: dict) -> str:
        name = self.face_names.get(id(face))
        if name is not None:
            return name
        name = f"face_{len(self.face_names) + 1}"
        self.face_names[id(face)] = name
        c = self.c
        cw, ch = self.opts.card
        b = self.opts.bleed
        frame = self.frame_form(face.layout)
        art = None
        if face.art is not None and self.tpl.layouts[face.layout].art is not None and not self.opts.ink_saver:
            art = face.image or images.get(face.art)
            if art is not None:
                self.image_form(art)
        c.beginForm(name, lowerx=pt(-b) - 1, lowery=pt(-b) - 1, upperx=pt(cw + b) + 1, uppery=pt(ch + b) + 1)
        c.saveState()
        c.doForm(frame)
        self._draw_face_content(face, art)
        c.restoreState()
        c.endForm()
        self.forms.add(name)
        return name

    def _draw_face_content(self, face: CardFace, img: "PreparedImage | None") -> None:
        c = self.c
        layout = self.tpl.layouts[face.layout]
        c.saveState()
        if img is not None:   # cropped to the box's proportions: it fills the box
            x, y, w, h = (pt(v) for v in art_box(self.tpl, face.layout, self.opts))
            c.saveState()
            c.translate(x, y)
            c.scale(w, h)
            c.doForm(self.image_form(img))
            c.restoreState()
        grown = self._grown_boxes(face, layout) if img is None and layout.art is not None else {}
        for idx, spec in enumerate(layout.fields):
            text = field_text(spec, face.entry, self.catalog)
            if not text:
                continue
            x, y, w, h = self.box_pt(grown.get(idx, spec.box))
            if spec.fill and not self.opts.ink_saver:
                c.setFillColorRGB(*_rgb(spec.fill))
                c.roundRect(x, y, w, h, pt(spec.radius), stroke=0, fill=1)
            elif spec.fill:
                c.setStrokeColorRGB(0.5, 0.5, 0.5)
                c.setLineWidth(0.4)
                c.roundRect(x, y, w, h, pt(spec.radius), stroke=1, fill=0)
            col = (0, 0, 0) if self.opts.ink_saver else _rgb(spec.color, (0.08, 0.08, 0.08))
            c.setFillColorRGB(*col)
            font = fonts.font_name(spec.bold, spec.condensed)
            pad = pt(0.4) if spec.fill else 0
            key = (face.name, spec.field or spec.text or "")

            def warn(msg, key=key):
                if key not in self.reported:
                    self.reported.add(key)
                    self.job.warn(msg)

            from builder.render.pdfbase import draw_text_box

            small = min(1.0, self.fscale)         # smaller cards: the floors shrink with them
            size = max(spec.size * self.fscale, MIN_CARD_PT * small)
            floor = min(size, max(spec.min_size * small, MIN_CARD_PT * small))
            wrap = spec.wrap
            if not wrap and fonts.fit_text(fonts.printable(text, font), w - 2 * pad, h, font, size, floor,
                                           wrap=False).overflow:
                wrap = True    # a long name takes two lines rather than being cut
            draw_text_box(c, text, (x + pad, y, w - 2 * pad, h), font, size, floor, align=spec.align,
                          valign=spec.valign, wrap=wrap,
                          what=f"card '{face.name}', field '{spec.field or 'text'}'", warn=warn)
        c.restoreState()

    def draw_number(self, trim: Rect, rotated: bool, deck: str, number: str) -> None:
        """The deck's name and the card's number in the deck ("12/50") in small print along
        the card's bottom edge, inside the frame."""
        c = self.c
        cw, _ = self.opts.card
        small = min(1.0, self.fscale)
        size = MIN_CARD_PT * small
        inset = 2.0 * self.fscale + 0.9
        self._enter(trim, rotated, False)
        c.setFillColorRGB(0.35, 0.35, 0.35)
        num_w = fonts.string_width(number, fonts.CONDENSED, size)
        c.setFont(fonts.CONDENSED, size)
        c.drawRightString(pt(cw - inset - 1.0), pt(inset), number)
        room = pt(cw - 2 * inset - 2.0) - num_w - pt(2)
        label = fonts.fit_text(fonts.printable(deck, fonts.CONDENSED), room, size * 1.3, fonts.CONDENSED, size,
                               size, wrap=False)
        if label.lines:
            c.drawString(pt(inset + 1.0), pt(inset), label.lines[0])
        c.restoreState()

    def _grown_boxes(self, face: CardFace, layout: LayoutSpec) -> dict[int, Box]:
        """Boxes of fields that may use the empty art box (the card has no art): the field
        with the most text among those that do not fit at their own size gets the art box
        joined to its own box when nothing lies between them, or else the art box alone
        when that is larger. {field index: template box}."""
        ax, ay, aw, ah = layout.art
        best = None
        for idx, spec in enumerate(layout.fields):
            if not spec.wrap or spec.fill or spec.bold:     # rules text, not a labelled value
                continue
            text = field_text(spec, face.entry, self.catalog)
            if not text:
                continue
            _x, _y, w, h = self.box_pt(spec.box)
            font = fonts.font_name(spec.bold, spec.condensed)
            size = spec.size * self.fscale
            if not fonts.fit_text(fonts.printable(text, font), w, h, font, size, size).overflow:
                continue
            if best is None or len(text) > best[1]:
                best = (idx, len(text))
        if best is None:
            return {}
        idx = best[0]
        fx, fy, fw, fh = layout.fields[idx].box
        if fy >= ay + ah - 0.5 and fx < ax + aw and ax < fx + fw:   # below the art box
            x0, x1 = max(ax, fx), min(ax + aw, fx + fw)
            between = (x0, ay + ah, x1 - x0, fy - (ay + ah))
            others = [f.box for i, f in enumerate(layout.fields) if i != idx
                      and field_text(f, face.entry, self.catalog)] + list(layout.frame.bands)
            if not any(_overlap(between, o) for o in others):
                return {idx: (x0, ay, x1 - x0, fy + fh - ay)}
        if aw * ah > fw * fh:
            return {idx: (ax, ay, aw, ah)}
        return {}

    def draw_back(self, key: str, trim: Rect, rotated: bool, turn180: bool, clip: Rect | None = None) -> None:
        self._enter(trim, rotated, turn180, clip)
        self.c.doForm(self.back_form(key))
        self.c.restoreState()


def _draw_jpeg_unit(c, name: str, data: bytes) -> None:
    """Draw JPEG ``data`` into the unit square, embedding the bytes as they are (DCTDecode).

    reportlab's ``drawImage`` would decode an in-memory JPEG again only to name it; the
    image XObject is registered here under a name derived from the bytes instead, exactly
    as ``drawImage`` registers one read from a file.
    """
    from reportlab.pdfbase import pdfdoc

    reg = c._doc.getXObjectName(name)
    if c._doc.idToObject.get(reg) is None:
        obj = pdfdoc.PDFImageXObject(name)
        if not obj.loadImageFromJPEG(io.BytesIO(data)):
            raise UsageError("cannot embed a JPEG image", "re-save the image as a baseline JPEG or PNG")
        obj.name = name
        c._setXObjects(obj)
        c._doc.Reference(obj, reg)
        c._doc.addForm(name, obj)
    c._currentPageHasImages = 1
    c._code.append(f"/{reg} Do")
    c._formsinuse.append(name)   # lists the image in the resources of the form or page


def draw_marks(c, segments, ink_saver: bool = False, grey: bool = False) -> None:
    c.saveState()
    if grey:    # full-length cut lines run over the cards: thin and grey
        c.setStrokeColorRGB(0.55, 0.55, 0.55)
        c.setLineWidth(pt(0.1))
    else:
        c.setStrokeColorRGB(0, 0, 0)
        c.setLineWidth(pt(0.15))
    for s in segments:
        c.line(pt(s.x0), pt(s.y0), pt(s.x1), pt(s.y1))
    c.restoreState()


# -- page chrome placement ----------------------------------------------------------------


@dataclass
class Band:
    side: str          # bottom | top | left | right
    depth: float       # usable depth (mm) between the page-edge clearance and the marks
    start: float       # distance of the usable region from the page edge (mm)


EDGE_CLEAR = MARK_PAGE_CLEAR + 0.5   # mm: nothing (descenders included) is printed closer to the paper edge


def free_bands(plan, marks: bool) -> list[Band]:
    pw, ph = plan.paper
    a = plan.area
    used = MARK_OFFSET + MARK_LENGTH + 0.5 if marks else 1.0
    gaps = {"bottom": a.y, "top": ph - a.y1, "left": a.x, "right": pw - a.x1}
    return [Band(side, g - used - EDGE_CLEAR, EDGE_CLEAR) for side, g in gaps.items()]


RULER_BLOCK = 50.0 + 45.0   # mm along the band: the bar and its label


CHROME_SIZE = 5.0      # pt, footer text on card sheets
CHROME_MIN = 4.5
CHROME_LEAD = 1.2


def _band_length(plan, band: Band) -> float:
    """Usable text length (points) along a band: the page side less 8 mm at each end."""
    pw, ph = plan.paper
    return pt((pw if band.side in ("bottom", "top") else ph) - 16)


def _rows(text: str, length: float) -> list:
    from builder.render.pdfbase import footer_rows

    return footer_rows(text, length, CHROME_SIZE, CHROME_MIN, fonts.CONDENSED)


def _rows_depth(rows) -> float:
    return sum(r.size * CHROME_LEAD for r in rows) / 72 * 25.4 + 0.3


def draw_chrome(job, plan, lines: list[str], info: str, marks: bool, ruler: bool = True,
                last_resort: bool = False) -> list:
    """Footer lines, the 50 mm ruler and an info line beside it, in the free page margins.

    Items are stacked into the margin bands outside the cut marks: the footer lines
    together in the first band deep enough (bottom, top, left, right) or else each line
    on its own, the ruler block in the deepest band left. The share code is never cut: it
    wraps onto a second line in smaller type, and a wrapped code stays in one band. In a
    side band the text is turned to read upwards. Returns the items that found no room
    (draw them on the back page). With ``last_resort`` a share code that finds no room is
    replaced by how to get it (``daimyo export LIST --to code``).
    """
    order = {"bottom": 0, "top": 1, "left": 2, "right": 3}
    bands = sorted(free_bands(plan, marks), key=lambda b: order[b.side])
    used = {b.side: 0.0 for b in bands}

    def room(b: Band) -> float:
        return b.depth - used[b.side]

    def place(texts: list[str]) -> bool:
        """All of ``texts`` in the first band deep enough; False when none is."""
        for b in bands:
            rows = [r for t in texts for r in _rows(t, _band_length(plan, b))]
            need = _rows_depth(rows)
            if room(b) >= need:
                _band_text(job.canvas, plan.paper, b, rows, used[b.side])
                used[b.side] += need + 0.6
                return True
        return False

    left_over: list = []
    lines = [t for t in lines if t]
    if lines and not place(lines):
        rest = [t for t in lines if not place([t])]
        if rest and last_resort:
            rest = [t for t in rest if not (getattr(t, "fallback", "") and place([t.fallback]))]
        if rest:
            left_over.append(("lines", rest))
    if ruler:
        # a band long enough for the 50 mm bar (5 mm from the paper's edges), the roomiest
        long_enough = [b for b in bands if (plan.paper[0] if b.side in ("bottom", "top") else plan.paper[1])
                       >= 8.0 + 50.0 + 5.0]
        band = max(long_enough or bands, key=room)
        if long_enough and room(band) >= 3.6:
            _ruler_in(job.canvas, plan.paper, band, used[band.side], info, 5.5)
            used[band.side] += 4.2
        else:
            left_over.append(("ruler", info))
            if info and not place([info]):      # the label goes on without its ruler
                left_over.append(("lines", [info]))
    elif info and not place([info]):
        left_over.append(("lines", [info]))
    return left_over


def _ruler_in(c, paper, band: "Band", offset: float, info: str, size: float) -> None:
    from builder.render.pdfbase import draw_ruler

    from builder.render.pdfbase import ruler_label_width

    pw, ph = paper
    c.saveState()
    along = pw if band.side in ("bottom", "top") else ph
    label = along >= 8.0 + 50.0 + 1.5 + ruler_label_width() + 5.0   # else the bar alone (small paper)
    if band.side in ("bottom", "top"):
        y = band.start + offset if band.side == "bottom" else ph - band.start - offset - 3.5
        draw_ruler(c, 8.0, y, label=label)
        _line_at(c, 8.0 + RULER_BLOCK, y + 0.3, pw - 16 - RULER_BLOCK, info, size)
    else:
        # turned to read upwards: local y runs to the left of the page
        x = (band.start + offset + 3.5) if band.side == "left" else (pw - band.start - offset)
        c.translate(pt(x), 0)
        c.rotate(90)
        draw_ruler(c, 8.0, 0, label=label)
        _line_at(c, 8.0 + RULER_BLOCK, 0.3, ph - 16 - RULER_BLOCK, info, size)
    c.restoreState()


def _line_at(c, x: float, y: float, width: float, text: str, size: float) -> None:
    if not text or width <= 5:
        return
    fit = fonts.fit_text(fonts.printable(text, fonts.CONDENSED), pt(width), size * 1.3, fonts.CONDENSED,
                         size, 4.0, wrap=False)
    c.setFillColorRGB(0.15, 0.15, 0.15)
    c.setFont(fonts.CONDENSED, fit.size)
    c.drawString(pt(x), pt(y), fit.lines[0] if fit.lines else "")


def _band_text(c, paper, band: Band, rows: list, offset: float = 0.0) -> None:
    """Footer rows (``pdfbase.FooterRow``) in a margin band, in reading order from the top
    (from the left of a side band, where the text is turned to read upwards)."""
    pw, ph = paper
    c.saveState()
    c.setFillColorRGB(0.15, 0.15, 0.15)
    depth = sum(r.size * CHROME_LEAD for r in rows)
    if band.side == "bottom":
        x0, y0 = pt(8), pt(band.start + offset)
    elif band.side == "top":
        x0, y0 = pt(8), pt(ph - band.start - offset) - depth
    else:
        edge = band.start + offset + depth / 72 * 25.4 if band.side == "left" else pw - band.start - offset
        c.translate(pt(edge), 0)
        c.rotate(90)
        # local x runs up the page, local y runs to the left: row i sits further left
        x0, y0 = pt(8), 0.0
    y = y0
    for row in reversed(rows):
        c.setFont(fonts.CONDENSED, row.size)
        c.drawString(x0 + row.indent, y + 0.25 * row.size, row.text)
        y += row.size * CHROME_LEAD
    c.restoreState()


# -- the document ---------------------------------------------------------------------------


def art_box(tpl: CardTemplate, layout: str, opts: "SheetOptions") -> tuple[float, float, float, float] | None:
    """The art box of a layout in card mm (x, y from the bottom-left, w, h) at the printed
    card size. A side of the box that lies on the card's edge (full-bleed art) reaches out
    into the bleed."""
    box = tpl.layouts[layout].art
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
    from builder.catalog.focus import parse_focus

    try:
        return parse_focus(get_value(face.entry, "focus"))
    except ValueError as exc:
        raise UsageError(f"card '{face.name}': {exc}") from None


def prepare_images(faces: list[CardFace], tpl: CardTemplate, opts: "SheetOptions", warn=None) -> dict:
    """Prepare the art of every face: once per distinct file, printed size and focus, the
    images in parallel threads (Pillow decodes and resamples without holding the GIL). Sets
    ``face.image``; returns {(path, w, h, focus): PreparedImage}. The first unreadable image
    in list order raises its UsageError. Art printing below 150 dpi is reported through
    ``warn`` (one line per image, with its dpi)."""
    import os
    from concurrent.futures import ThreadPoolExecutor

    if opts.ink_saver:
        return {}
    wanted: dict[tuple, tuple] = {}
    keys: dict[int, tuple] = {}
    for f in faces:
        box = art_box(tpl, f.layout, opts)
        if f.art is not None and box is not None:
            _, _, w, h = box
            fx = face_focus(f)
            k = (f.art, round(w, 3), round(h, 3), fx)
            wanted.setdefault(k, (f.art, w, h, MAX_DPI, fx))
            keys[id(f)] = k
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
            warn(f"card '{f.name}': its art prints at {f.image.dpi:.0f} dpi (below {LOW_DPI}), it will look "
                 f"blurry; use an image of at least {round(k[1] / 25.4 * 300)} x {round(k[2] / 25.4 * 300)} px")
    return images


MAX_PRINTED_CARDS = 10_000  # about 1,100 sheets of poker cards: far beyond any deck of the five games


def prepare_faces(doc, catalog, lst, tpl: CardTemplate, opts: SheetOptions):
    """The distinct cards of a list, each with its layout, back and prepared art:
    (faces, warnings, images, art warnings)."""
    faces, warnings = list_cards(doc, catalog, lst)
    total_cards = sum(f.count for f in faces)
    if total_cards > MAX_PRINTED_CARDS:
        raise UsageError(f"the list holds {total_cards} cards; one PDF prints at most {MAX_PRINTED_CARDS}",
                         "check the card counts")
    base_dirs = [Path(doc.base_dir)] + [Path(p).parent for p in doc.packs]
    search = []
    for d in base_dirs:
        if (d / "art").is_dir() and (d / "art") not in search:
            search.append(d / "art")
    for f in faces:
        f.layout = choose_layout(tpl, f.entry)
        f.back = choose_back(tpl, f.entry)
        f.art = find_art(f, tpl, search, base_dirs)
    art_warnings: list[str] = []
    images = prepare_images(faces, tpl, opts, warn=art_warnings.append)
    return faces, warnings, images, art_warnings


def render_cards(doc, catalog, lst, result, out_path, force: bool = False, share_code: str | None = None,
                 template: CardTemplate | None = None, **options) -> Path:
    """Card sheets of a Senshiai, HeroCard or Satsuma list. Returns the written path."""
    from builder.render.pdfbase import PdfJob, ShareLine, footer_lines, list_display_name

    opts = sheet_options(**options)
    tpl = template or load_template(doc.system)
    fold_mode = fold_line = None
    if opts.layout == "fold":
        plan, fold_mode, fold_line = plan_fold(opts.paper, opts.card, opts.bleed, opts.gutter, marks=opts.marks)
    else:
        plan = plan_sheet(opts.paper, opts.card, opts.bleed, marks=opts.marks, gutter=opts.gutter)
    faces, warnings, images, art_warnings = prepare_faces(doc, catalog, lst, tpl, opts)
    # glyph coverage of everything printed, before drawing
    items = []
    for f in faces:
        for spec in tpl.layouts[f.layout].fields:
            t = field_text(spec, f.entry, catalog)
            if t:
                items.append((f"card '{f.name}'", spec.field or "text", t))
    for key, b in tpl.backs.items():
        items.append((f"back '{key}'", "title", b.title + b.subtitle))
    footer = footer_lines(result, share_code, list_name=list_display_name(doc))
    items.extend(("footer", "footer", x) for x in footer)
    title = f"{doc.name or Path(doc.file).stem} ({doc.system} cards)"
    items.append(("the list", "name", title))
    problems = fonts.check_glyphs(items, fonts.REGULAR)
    copies = [f for f in faces for _ in range(f.count)]
    chunks = page_chunks(len(copies), plan.per_page) or [range(0)]
    n_sheets = len(chunks)
    backs = opts.backs
    if opts.layout == "fold":
        sheet_pages = n_sheets
    else:
        sheet_pages = n_sheets * (2 if backs else 1)
    total_pages = sheet_pages + 1          # and the list page
    title = f"{doc.name or Path(doc.file).stem} ({doc.system} cards)"
    size = f"{opts.card[0]:g}x{opts.card[1]:g} mm" + (f", bleed {opts.bleed:g} mm" if opts.bleed else "")
    from builder.render.pdfbase import validation_lines

    # one short line on every sheet (it fits a narrow margin); the findings in full, the share
    # code and its QR code on the list page
    verdict = validation_lines(result, limit=0)
    if share_code:
        verdict.append(f"share code and its QR code: page {total_pages}")
    elif verdict and len(footer) > 1:
        verdict.append(f"details: page {total_pages}")
    verdict = ["; ".join(verdict)] if verdict else []
    duplex_pdf = opts.duplex if backs and opts.layout == "duplex" else None
    with PdfJob(out_path, opts.paper, title=title, author=doc.author, subject=f"{doc.system} card sheets",
                duplex=duplex_pdf, force=force, total_pages=total_pages) as job:
        for w in warnings:
            job.warn(w)
        for p in problems:
            job.warn(p.message())
        for w in art_warnings:
            job.warn(w)
        if opts.bleed and plan.outer_bleed != (opts.bleed, opts.bleed) and opts.gutter is not None:
            job.warn(f"the bleed on the outer edges of the sheet is {plan.outer_bleed[0]:.2g} mm at the sides "
                     f"and {plan.outer_bleed[1]:.2g} mm at the top and bottom to fit {plan.per_page} cards")
        writer = CardSheetWriter(job, tpl, opts, catalog)
        sheet = _SheetDrawer(job, writer, plan, opts, images, fold_mode, fold_line)
        sheet.deck_label, sheet.total = (doc.name or Path(doc.file).stem), len(copies)
        first = True

        def next_page():
            nonlocal first
            if not first:
                job.new_page()
            first = False

        def page_cards(pi):
            return [copies[i] for i in chunks[pi]]

        hint_separate = (f"print pages 1-{n_sheets} (fronts), put the printed stack back in the tray turned over "
                         f"on its {opts.duplex} edge, then print pages {n_sheets + 1}-{2 * n_sheets} (backs)")
        for pi in range(n_sheets):
            next_page()
            cards = page_cards(pi)
            if opts.layout == "fold":
                label = (f"{title}: sheet {pi + 1} of {n_sheets}, {len(copies)} cards, {size}; "
                         + ("fold along the dashed line, glue, then cut" if backs else "fronts only"))
                sheet.fronts(cards, backs_too=backs, start=chunks[pi].start)
            else:
                how = f"; print duplex, flip on the {opts.duplex} edge" if backs and opts.layout == "duplex" else ""
                label = f"{title}: sheet {pi + 1} of {n_sheets}, fronts, {len(copies)} cards, {size}{how}"
                sheet.fronts(cards, start=chunks[pi].start)
            hint = [hint_separate[:1].upper() + hint_separate[1:]] if backs and opts.layout == "separate" else []
            sheet.chrome([label] + hint + verdict, marks=opts.marks)
            if backs and opts.layout == "duplex":
                next_page()
                sheet.backs(cards)
                sheet.chrome([f"{title}: sheet {pi + 1} of {n_sheets}, backs (this side of the sheet)"], marks=False)
        if backs and opts.layout == "separate":
            for pi in range(n_sheets):
                next_page()
                sheet.backs(page_cards(pi))
                sheet.chrome([f"{title}: backs of sheet {pi + 1} of {n_sheets} (page {pi + 1}); "
                              f"page {n_sheets + pi + 1} goes on the back of page {pi + 1}"], marks=False)
        next_page()
        draw_list_page(job, opts, doc, faces, footer, share_code, title, total_pages)
    return job.path


class _SheetDrawer:
    """Draws the cards and chrome of one sheet page, inside the printer's scale correction."""

    def __init__(self, job, writer, plan, opts, images, fold_mode, fold_line):
        self.job, self.writer, self.plan, self.opts, self.images = job, writer, plan, opts, images
        self.fold_mode, self.fold_line = fold_mode, fold_line
        self.back_mode = fold_mode or opts.duplex
        self.own_bleed = opts.gutter is None or opts.gutter >= 2 * opts.bleed
        self.deck_label: str | None = None    # the deck's name, printed small with the card's number
        self.total = 0

    def _scaled(self):
        c = self.job.canvas
        sx, sy = self.opts.scale
        pw, ph = self.opts.paper
        c.saveState()
        if (sx, sy) != (1.0, 1.0):   # about the page centre: the margins stay even
            c.translate(pt(pw / 2), pt(ph / 2))
            c.scale(sx, sy)
            c.translate(-pt(pw / 2), -pt(ph / 2))

    def fronts(self, cards, backs_too: bool = False, start: int = 0) -> None:
        c = self.job.canvas
        self._scaled()
        for i, (slot, face) in enumerate(zip(self.plan.slots, cards, strict=False)):
            self.writer.draw_face(face, slot.trim, slot.rotated, self.images,
                                  clip=None if self.own_bleed else slot.bleed)
            if self.deck_label is not None:
                self.writer.draw_number(slot.trim, slot.rotated, self.deck_label, f"{start + i + 1}/{self.total}")
        if backs_too:
            self._backs(cards, offset=(0.0, 0.0))
            ln = self.fold_line
            c.saveState()
            c.setDash(pt(2), pt(1.5))
            c.setLineWidth(pt(0.2))
            c.setStrokeColorRGB(0.35, 0.35, 0.35)
            if ln.x0 == ln.x1:
                c.line(pt(ln.x0), pt(MARK_PAGE_CLEAR), pt(ln.x0), pt(ln.y1 - MARK_PAGE_CLEAR))
            else:
                c.line(pt(MARK_PAGE_CLEAR), pt(ln.y0), pt(ln.x1 - MARK_PAGE_CLEAR), pt(ln.y0))
            c.restoreState()
        used = self.plan.slots[:len(cards)]
        if self.opts.marks:
            # a part-filled last sheet: no marks for the rows and columns left empty
            if len(used) == len(self.plan.slots):
                draw_marks(c, self.plan.marks)
            else:
                draw_marks(c, cut_marks(used, self.plan.area, self.opts.paper))
        if self.opts.cut_lines:
            draw_marks(c, cut_lines(used, self.opts.paper), grey=True)
        c.restoreState()

    def _backs(self, cards, offset) -> None:
        for slot, face in zip(self.plan.slots, cards, strict=False):
            trim, bleed, turn = back_slot(slot, self.opts.paper, self.back_mode, offset)
            self.writer.draw_back(face.back, trim, slot.rotated, turn == 180,
                                  clip=None if self.own_bleed else bleed)

    def backs(self, cards) -> None:
        self._scaled()
        self._backs(cards, self.opts.offset)
        self.job.canvas.restoreState()

    def chrome(self, lines, marks: bool) -> None:
        """The sheet label beside the 50 mm ruler (or alone), the other lines in another band.
        What finds no room is on the list page (verdict, share code, ruler) or warned about."""
        self._scaled()
        info, rest_lines = lines[0], list(lines[1:])
        rest = draw_chrome(self.job, self.plan, rest_lines, info, marks, ruler=True)
        self.job.canvas.restoreState()
        missing = [t for kind, p in rest if kind == "lines" for t in p]
        if info in missing:
            self.job.warn("the page margins leave no room for the sheet labels (the list page has the details)")
        if any(t != info for t in missing):
            self.job.warn("the page margins leave no room for the check result (it is on the list page)")


def draw_list_page(job, opts, doc, faces, footer, share_code, title, total_pages) -> None:
    """The last page: the deck list with counts, the check result, the share code and its QR
    code (scan it to import the list), the ruler."""
    from builder.render.pdfbase import ShareLine, draw_qr, draw_ruler, draw_text_box, qr_size

    c = job.canvas
    pw, ph = opts.paper
    m = 15.0
    y = ph - m
    c.setFillColorRGB(0.1, 0.1, 0.1)
    c.setFont(fonts.BOLD, 14)
    c.drawString(pt(m), pt(y - 5), fonts.printable(title, fonts.BOLD))
    y -= 10
    c.setFont(fonts.REGULAR, 8)
    n = sum(f.count for f in faces)
    c.drawString(pt(m), pt(y - 3), f"{n} cards, {len(faces)} different; page {total_pages} of {total_pages}")
    y -= 8
    for line in footer:
        if isinstance(line, ShareLine):
            continue
        fit = draw_text_box(c, line, (pt(m), pt(y - 8), pt(pw - 2 * m), pt(8)), fonts.REGULAR, 8, 6)
        y -= max(4.0, fit.height / pt(1)) + 1
    qr = 0.0
    if share_code:
        qr = min(60.0, max(qr_size(share_code, 0.4), 25.0))
        draw_qr(c, share_code, pw - m - qr, y - qr - 2, qr)
        c.setFont(fonts.REGULAR, 7)
        c.drawRightString(pt(pw - m), pt(y - qr - 6), "scan to import: daimyo import CODE")
        box_w = pw - 2 * m - qr - 6
        draw_text_box(c, "share code: " + share_code, (pt(m), pt(y - qr - 2), pt(box_w), pt(qr)),
                      fonts.CONDENSED, 7, 5, wrap=True, what="share code", warn=job.warn)
        y -= qr + 10
    c.setFont(fonts.BOLD, 9)
    c.drawString(pt(m), pt(y - 4), "Cards")
    y -= 8
    rows = [f"{f.count} x {f.name}" for f in faces]
    per_col = max(1, int((y - m - 10) // 4.2))
    cols = max(1, -(-len(rows) // per_col))
    col_w = (pw - 2 * m) / max(cols, 2 if len(rows) > 12 else 1)
    c.setFont(fonts.REGULAR, 8)
    for i, r in enumerate(rows):
        col, row = divmod(i, per_col)
        c.drawString(pt(m + col * col_w), pt(y - 3 - row * 4.2), fonts.printable(r, fonts.REGULAR))
    draw_ruler(c, m, 6.0)


# -- duplex alignment test sheet ------------------------------------------------------------


TEST_POINTS = ((0.5, 0.5), (0.2, 0.2), (0.8, 0.2), (0.2, 0.8), (0.8, 0.8))
SCALE_HALF = 6.0   # mm each side of zero on the back scales
TICK_STEP = 0.5
TARGET_ARM = 12.0  # mm: each crosshair line reaches this far from its target's centre
TEXT_LEFT = 15.0   # mm: the title and instructions start here (the vertical ruler is left of it)
TEXT_TOP = 22.0    # mm from the top edge to the first instruction line's baseline
TEXT_SIZE = 8.0    # pt
MARK_CLEAR = 2.0   # mm between the instructions and the nearest crosshair line
LOW_TARGET_MIN = 31.0   # mm: the lowest targets (and their back scales) stay above the bottom ruler


def _test_instructions(duplex: str) -> list[str]:
    return [
        f"Print both pages on one sheet, duplex, flip on the {duplex} edge, at 100 % (actual size, no fit-to-page).",
        "Hold the sheet against a window or lamp and look at the BACK side (page 2).",
        "Each crosshair of this page shows through on a scale of the back page. Read where its",
        "vertical line crosses the horizontal scale (X) and where its horizontal line crosses the",
        "vertical scale (Y), in mm. Then print with:  daimyo print LIST --offset X,Y",
        f"(and --duplex {duplex}). Check the rulers: the bars must measure exactly 100 mm.",
        "A printer that stretches or shrinks: measure the bar across the page (W mm) and the one",
        "down the left edge (H mm), then print with  --scale-x 100/W  --scale-y 100/H  (e.g. 1.004).",
    ]


def _test_text_lines(paper: tuple[float, float], duplex: str) -> tuple[list[str], float]:
    """The instruction lines as printed on ``paper`` and their leading (pt): one line each
    where the paper is wide enough (A4, Letter), else the text wrapped to the width."""
    width = pt(paper[0] - 2 * TEXT_LEFT)
    text = _test_instructions(duplex)
    if all(fonts.string_width(t, fonts.REGULAR, TEXT_SIZE) <= width for t in text):
        return text, 11.0
    lead = TEXT_SIZE * 1.3
    return fonts.wrap_lines(" ".join(text), fonts.REGULAR, TEXT_SIZE, width), lead


def target_centres(paper: tuple[float, float], duplex: str = "long") -> list[tuple[float, float]]:
    """Centres (mm from the bottom-left corner) of the front page's crosshair targets: the
    centre of the sheet and four near its corners (a fifth of the way in), the upper ones
    moved down below the instructions and the lower ones up above the bottom ruler where
    the paper is too short for those fractions (A5, small paper)."""
    pw, ph = paper
    lines, lead = _test_text_lines(paper, duplex)
    last_baseline = ph - TEXT_TOP - (len(lines) - 1) * lead / pt(1)
    text_bottom = last_baseline - TEXT_SIZE * 0.3 / pt(1)        # descenders
    top = min(ph * 0.8, text_bottom - MARK_CLEAR - TARGET_ARM)
    low = max(ph * 0.2, LOW_TARGET_MIN)
    mid = (top + low) / 2
    ys = {0.8: top, 0.5: mid, 0.2: low}
    return [(pw * fx, ys[fy]) for fx, fy in TEST_POINTS]


def render_test_sheet(out_path, paper: tuple[float, float], duplex: str = "long", force: bool = False) -> Path:
    """Two pages: crosshair targets on the front, graduated scales on the back.

    Print duplex, hold the sheet against the light and look from the back side: where a
    front crosshair line crosses a back scale is the printer's misalignment; the value
    read on the horizontal scale is X, on the vertical scale Y of ``--offset X,Y``.
    The instructions and labels never touch a target (:func:`target_centres`).
    """
    from builder.render.pdfbase import PdfJob, draw_ruler

    if duplex not in ("long", "short"):
        raise UsageError(f"unknown duplex mode '{duplex}'", "use long or short")
    pw, ph = paper
    if min(pw, ph) < TEST_SHEET_MIN_MM:
        raise UsageError(f"the alignment sheet does not fit on {pw:g}x{ph:g} mm paper: its rulers are 100 mm long",
                         f"print it on paper of at least {TEST_SHEET_MIN_MM:g}x{TEST_SHEET_MIN_MM:g} mm "
                         "(A5 or larger) of the same printer")
    from builder.render.pdfbase import draw_text_box

    points = target_centres(paper, duplex)
    with PdfJob(out_path, paper, title="daimyo duplex alignment test", subject="print-test",
                duplex=duplex, force=force) as job:
        c = job.canvas
        c.setLineWidth(pt(0.15))
        for x, y in points:
            c.line(pt(x - TARGET_ARM), pt(y), pt(x + TARGET_ARM), pt(y))
            c.line(pt(x), pt(y - TARGET_ARM), pt(x), pt(y + TARGET_ARM))
            c.circle(pt(x), pt(y), pt(3), stroke=1, fill=0)
            c.circle(pt(x), pt(y), pt(5.5), stroke=1, fill=0)
        draw_text_box(c, "daimyo duplex alignment test: FRONT",
                      (pt(TEXT_LEFT), pt(ph - 17), pt(pw - 2 * TEXT_LEFT), pt(6)), fonts.BOLD, 11, 6, wrap=False)
        c.setFont(fonts.REGULAR, TEXT_SIZE)
        lines, lead = _test_text_lines(paper, duplex)
        for i, t in enumerate(lines):
            c.drawString(pt(TEXT_LEFT), pt(ph - TEXT_TOP) - i * lead, t)
        from builder.render.pdfbase import ruler_label_width

        room = ruler_label_width(100.0) + 1.5 + 5.0   # the label beside the bar, 5 mm from the edge
        draw_ruler(c, TEXT_LEFT, 12, length=100.0, label_below=pw < TEXT_LEFT + 100 + room)
        c.saveState()                     # the same bar down the page, for --scale-y
        c.translate(pt(10), pt(40))
        c.rotate(90)
        draw_ruler(c, 0, 0, length=100.0, label_below=ph < 40 + 100 + room)
        c.restoreState()
        job.new_page()
        c.setLineWidth(pt(0.15))
        draw_text_box(c, "daimyo duplex alignment test: BACK (read the scales from this side)",
                      (pt(TEXT_LEFT), pt(ph - 17), pt(pw - 2 * TEXT_LEFT), pt(6)), fonts.BOLD, 11, 6, wrap=False)
        for x0, y0 in points:
            # the mirrored position of the front target on the back page
            if duplex == "long":
                bx, by = pw - x0, y0
            else:
                bx, by = x0, ph - y0
            _scale(c, bx, by)
        draw_ruler(c, pw - 15 - 50 - 78, 12)
    return job.path


TEST_SHEET_MIN_MM = 148.0   # the alignment sheet's 100 mm rulers and targets need A5 or larger

SCALE_GAP = 9.0    # mm from the target centre to each scale's base line


def _scale(c, x: float, y: float) -> None:
    """Two mm scales for the target whose ideal position is (x, y): a horizontal one
    ``SCALE_GAP`` mm below it (read X where the front's vertical line crosses it) and a
    vertical one ``SCALE_GAP`` mm to its left (read Y where the front's horizontal line
    crosses it). 0 is the ideal position, positive to the right and up as seen on this
    side. The two scales do not cross, so no tick or label overlaps another; the
    horizontal scale's labels alternate between two rows to stay legible."""
    n = int(SCALE_HALF / TICK_STEP)
    size = 4.5
    hy = y - SCALE_GAP          # base line of the horizontal scale
    vx = x - SCALE_GAP          # base line of the vertical scale
    c.saveState()
    c.setLineWidth(pt(0.15))
    c.setFont(fonts.CONDENSED, size)
    c.line(pt(x - SCALE_HALF), pt(hy), pt(x + SCALE_HALF), pt(hy))
    c.line(pt(vx), pt(y - SCALE_HALF), pt(vx), pt(y + SCALE_HALF))
    for i in range(-n, n + 1):
        v = i * TICK_STEP
        h = 2.0 if i % 2 == 0 else 1.0
        if i == 0:
            h = 3.0
        c.line(pt(x + v), pt(hy), pt(x + v), pt(hy + h))      # ticks rise towards the target
        c.line(pt(vx), pt(y + v), pt(vx + h), pt(y + v))      # ticks point towards the target
        if i % 4 == 0:
            label = f"{v:+g}" if v else "0"
            row = 0 if (i // 4) % 2 == 0 else 1
            c.drawCentredString(pt(x + v), pt(hy - 2.0 - row * 1.9), label)
            c.drawRightString(pt(vx - 0.8), pt(y + v) - size * 0.35, label)
    c.drawString(pt(x + SCALE_HALF + 1), pt(hy - 0.6), "X mm")
    c.drawCentredString(pt(vx), pt(y + SCALE_HALF + 1.8), "Y mm")
    c.restoreState()
