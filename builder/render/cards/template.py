"""Card templates and what each card prints.

``templates/cards/<system>.yaml`` names, for each card layout (e.g. a Senshiai ``troop``),
which catalog attribute goes into which box (mm from the card's top-left corner, for the
template's reference card size; other card sizes scale), with which font size and how the
value is shown (``as: roman`` prints a cost 0-5 as N, I-V). A new catalog field needs a
template edit, not code. This module loads and checks templates, lists the cards of a list
(:func:`list_cards`) and turns an entry's values into the text of each field
(:func:`field_text`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from builder.catalog.frozen import kind
from builder.catalog.overlay import entry_translation
from builder.errors import DaimyoError, Diagnostic, UsageError
from builder.i18n import _
from builder.kit.modelerrors import pydantic_diagnostics
from builder.paths import templates_dir
from builder.systems import get, is_system
from builder.yamlio import load_yaml

if TYPE_CHECKING:
    from builder.render.cards.base import PreparedImage


def _overlap(a, b, tol: float = 0.2) -> bool:
    """Two template boxes (x, y_top, w, h) overlap by more than ``tol`` mm."""
    return (
        a[0] < b[0] + b[2] - tol and b[0] < a[0] + a[2] - tol and a[1] < b[1] + b[3] - tol and b[1] < a[1] + a[3] - tol
    )


ROMAN = ("N", "I", "II", "III", "IV", "V")


# -- templates ----------------------------------------------------------------------


class _T(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


Box = tuple[float, float, float, float]


class FieldSpec(_T):
    """One printed field: a catalog attribute (or literal text) drawn into a box."""

    field: str | None = None  # entry attribute, dotted for nested ("power.melee")
    text: str | None = None  # literal text instead of a field
    label: str = ""  # printed before the value ("Speed ")
    suffix: str = ""
    as_: Literal[
        "text", "roman", "list", "lines", "upper", "title", "words", "initial", "signed", "options", "option_names"
    ] = Field("text", alias="as")
    join: str = ", "
    box: Box
    size: float = 8.0
    min_size: float = 5.0
    bold: bool = False
    condensed: bool = False
    align: Literal["left", "center", "right"] = "left"
    valign: Literal["top", "middle", "bottom"] = "top"
    wrap: bool = True
    color: str | None = None  # text colour (#rrggbb)
    fill: str | None = None  # box background
    radius: float = 0.0  # corner radius of the fill (mm)
    reminders: str | None = None  # an attribute listing abilities: their reminder text follows
    required: bool = False  # the rulebook says the card must carry it
    missing: str | None = None  # printed (after the label) when the value is absent, e.g. a dash;
    # without it an absent value prints nothing
    none: str | None = None  # printed when the value is None but the object holding it is
    # known (a Senshiai Power trait that is nulla: "n")
    caption: str | None = None  # a small label above the value ("Melee"), part of the box
    symbols: bool = False  # each listed value drawn after its vector symbol (the template's
    # ``symbols``: Senshiai paths, Satsuma suits), in its colour
    rotate: bool = False  # drawn turned 180 degrees (the index in the opposite corner)
    only: dict[str, list[str]] = {}  # printed only when each named attribute has one of these values
    flow: bool = False  # the rules text: it takes the free room above it, the art
    # box yielding first, before its type shrinks


class FrameSpec(_T):
    color: str = "#333333"  # border and bands
    background: str = "#fbf7ee"  # card face tint (extends into the bleed)
    border: float = 2.0  # inset of the frame line from the trim (mm)
    line: float = 0.6  # frame line width (mm)
    radius: float = 2.5
    bands: list[Box] = []  # filled bands (header, stat bar), boxes like fields
    band_color: str | None = None  # default: color, lightened
    rules: list[Box] = []  # thin separator lines (use h = 0)


class LayoutSpec(_T):
    frame: FrameSpec = FrameSpec()
    art: Box | None = None  # where the card art goes when the card has art
    art_min: float = 14.0  # mm of art height kept when the rules text needs room
    emblem: str | None = None  # a field whose first symbol is drawn large and pale in an
    # art box left empty (no art on the card)
    fields: list[FieldSpec]


class SymbolSpec(_T):
    """A vector symbol for a value (a path, a suit): its shape and colour."""

    shape: Literal[
        "circle", "triangle", "square", "diamond", "drop", "star", "shield", "cross", "ring", "hexagon", "arrow", "wave"
    ]
    color: str = "#333333"
    name: str | None = None  # the value spelt out (a suit letter's name)


class BackSpec(_T):
    title: str
    subtitle: str = ""
    color: str = "#5a1a1a"
    accent: str = "#d8b26a"


class CardTemplate(_T):
    system: str
    size: tuple[float, float] = (63.5, 88.9)
    layout_field: str | None = None  # entry attribute naming the layout
    layout_map: dict[str, str] = {}  # attribute value -> layout name (default: the value)
    layout_by_model: dict[str, str] = {}  # catalog model class name -> layout (checked first)
    default_layout: str
    back_field: str | None = None  # entry attribute naming the back
    default_back: str = "default"
    art_field: str = "art"  # entry attribute with an image path (optional)
    symbols: dict[str, SymbolSpec] = {}  # value (e.g. "Air", "F") -> its symbol
    # cards a player starts the game with rather than draws (a Senshiai Capital, HeroCard
    # attribute cards): by layout, or by an attribute's value; Tabletop Simulator lays them out
    # beside the deck
    starting_layouts: list[str] = []
    starting: dict[str, list[str]] = {}
    layouts: dict[str, LayoutSpec]
    backs: dict[str, BackSpec]


def load_template(system: str, path: Path | None = None) -> CardTemplate:
    """The card template of ``system`` (errors point at the template's YAML line)."""
    own = get(system).printing.card_template if is_system(system) else None
    p = path or own or templates_dir() / "cards" / f"{system}.yaml"
    if not p.exists():
        raise UsageError(_("no card template for system '{system}' ({path})").format(system=system, path=p))
    data, pos = load_yaml(p)
    try:
        tpl = CardTemplate.model_validate(data)
    except ValidationError as exc:
        raise DaimyoError(pydantic_diagnostics(exc, pos, CardTemplate, prefix=None)) from None
    bad = [
        name
        for name in [tpl.default_layout, *tpl.layout_by_model.values(), *tpl.layout_map.values()]
        if name not in tpl.layouts
    ]
    if bad or tpl.default_back not in tpl.backs:
        raise DaimyoError(
            Diagnostic(
                str(p),
                1,
                1,
                _("the template names a layout or back it does not define: {names}").format(
                    names=", ".join(bad or [tpl.default_back])
                ),
            )
        )
    return tpl


# -- cards of a list --------------------------------------------------------------------


@dataclass
class CardFace:
    """One distinct card to print ``count`` times."""

    name: str
    entry: Any  # catalog entry (pydantic model) or a plain dict
    count: int = 1
    layout: str = ""
    back: str = "default"
    art: Path | None = None
    image: PreparedImage | None = None  # the prepared art (set by render_cards)
    shift: float = 0.0  # mm the art yields to the rules text (geometry.plan_faces)


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

    for key in get(doc.system).printing.printed_keys:
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
    if how == "words":  # base-attack -> Base Attack
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
            name = suit_name(catalog, letter) or letter
            out.append(f"{name} {getattr(o, 'strength', '?')}")
        return spec.join.join(out)
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, (list, tuple)):
        return spec.join.join(str(v) for v in value)
    return str(value)


def suit_name(catalog, letter: str) -> str | None:
    """The name of the catalog's suit of ``letter``; None when there is none."""
    if catalog is None:
        return None
    for s in catalog.entries("suits") if "suits" in catalog.sections() else []:
        if getattr(s, "letter", None) == letter:
            return s.name
    return None


def words(text: str | None) -> str:
    """A template's fixed words (a label, a caption, a suffix) in the current language: the
    card templates' words are in the print catalog (``scripts/i18n.py`` extracts them)."""
    if not text or not any(ch.isalpha() for ch in text):
        return text or ""
    return _(text)


def field_text(spec: FieldSpec, entry: Any, catalog=None) -> str | None:
    """The text a field prints for an entry, or None when it prints nothing."""
    for attr, allowed in spec.only.items():
        if str(get_value(entry, attr)) not in allowed:
            return None
    if spec.text is not None:
        return _(spec.text)
    value = get_value(entry, spec.field) if spec.field else None
    if spec.field in ("name", "text") and value is not None:  # a translation overlay's, in its language
        value = entry_translation(catalog, entry, spec.field) or value
    if (
        value is None
        and spec.none is not None
        and spec.field
        and "." in spec.field
        and get_value(entry, spec.field.rsplit(".", 1)[0]) is not None
    ):
        return f"{words(spec.label)}{spec.none}{words(spec.suffix)}"
    shown = format_value(spec, value, catalog)
    if spec.reminders:
        notes = reminder_text(get_value(entry, spec.reminders), catalog)
        if notes:
            shown = (shown + "\n" if shown else "") + notes
    if not shown:  # an unknown value: the template's mark for it (a dash), without the suffix
        return f"{words(spec.label)}{spec.missing}" if spec.missing is not None else None
    return f"{words(spec.label)}{shown}{words(spec.suffix)}"


def reminder_text(abilities, catalog) -> str:
    """Reminder text of a card's abilities, from the catalog's ability definitions:
    ``Recruit: Troops may be recruited ...`` one per line (abilities the catalog does not
    define are left out)."""
    if not abilities or catalog is None or "abilities" not in catalog.sections():
        return ""

    seq = abilities if isinstance(abilities, (list, tuple)) else [abilities]
    game = get(catalog.system)
    out = []
    seen = set()
    for a in seq:
        ab = game.printing.ability(catalog, a)
        text = getattr(ab, "text", None) if ab is not None else None
        if ab is not None and text and ab.name not in seen:
            seen.add(ab.name)
            out.append(f"{ab.name}: {text.strip()}")
    return "\n".join(out)


def is_starting(tpl: CardTemplate, face: CardFace) -> bool:
    """The card is one a player starts with (laid out, not shuffled into the deck)."""
    if face.layout in tpl.starting_layouts:
        return True
    return any(str(get_value(face.entry, attr)) in values for attr, values in tpl.starting.items())


def description(tpl: CardTemplate, face: CardFace, catalog=None) -> str:
    """What the card says, as text (a Tabletop Simulator card's description): every field it
    prints but its name, captioned values with their caption, one per line."""
    out: list[str] = []
    for spec in tpl.layouts[face.layout].fields:
        if spec.field == "name":
            continue
        text = field_text(spec, face.entry, catalog)
        if not text:
            continue
        text = f"{words(spec.caption)} {text}" if spec.caption else text
        if text not in out:
            out.append(text)
    return "\n".join(out)


def choose_layout(tpl: CardTemplate, entry: Any) -> str:
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
