"""Card sheets of a Senshiai, HeroCard or Satsuma list, and the duplex alignment sheet.

The work is split by job:

* :mod:`.template` -- card templates (``templates/cards/<system>.yaml``), the cards of a
  list and the text each field prints;
* :mod:`.art` -- finding and preparing card art, the art box at the printed size;
* :mod:`.faces` -- drawing faces and backs (:class:`CardSheetWriter`);
* :mod:`.sheet` -- sheet options, pages of cards with cut marks and chrome, the list page
  (:func:`render_cards`);
* :mod:`.alignment` -- the duplex alignment test sheet (:func:`render_test_sheet`).

The names below are the public interface; import them from here.
"""

from builder.render.cards.alignment import (
    SCALE_GAP,
    SCALE_HALF,
    TEST_POINTS,
    TEST_SHEET_MIN_MM,
    render_test_sheet,
    target_centres,
)
from builder.render.cards.art import (
    LOW_DPI,
    MAX_DPI,
    PreparedImage,
    art_box,
    face_focus,
    find_art,
    prepare_image,
    prepare_images,
)
from builder.render.cards.faces import MIN_CARD_PT, CardSheetWriter
from builder.render.cards.sheet import (
    LAYOUTS,
    MAX_PRINTED_CARDS,
    SheetOptions,
    draw_chrome,
    prepare_faces,
    render_cards,
    sheet_options,
)
from builder.render.cards.template import (
    ROMAN,
    Box,
    CardFace,
    CardTemplate,
    FieldSpec,
    LayoutSpec,
    choose_back,
    choose_layout,
    field_text,
    format_value,
    get_value,
    list_cards,
    load_template,
)

__all__ = [
    "LAYOUTS",
    "LOW_DPI",
    "MAX_DPI",
    "MAX_PRINTED_CARDS",
    "MIN_CARD_PT",
    "ROMAN",
    "SCALE_GAP",
    "SCALE_HALF",
    "TEST_POINTS",
    "TEST_SHEET_MIN_MM",
    "Box",
    "CardFace",
    "CardSheetWriter",
    "CardTemplate",
    "FieldSpec",
    "LayoutSpec",
    "PreparedImage",
    "SheetOptions",
    "art_box",
    "choose_back",
    "choose_layout",
    "draw_chrome",
    "face_focus",
    "field_text",
    "find_art",
    "format_value",
    "get_value",
    "list_cards",
    "load_template",
    "prepare_faces",
    "prepare_image",
    "prepare_images",
    "render_cards",
    "render_test_sheet",
    "sheet_options",
    "target_centres",
]
