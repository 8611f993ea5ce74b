"""The limits paragraph of the command tour (docs/tour.md) lists every limit with its value (the constants the code
enforces), so a user reads the same numbers the errors name."""

import importlib
import re

from conftest import ROOT

# (module, constant, how the page writes it)
LIMITS = [
    ("builder.limits", "MAX_NUMBER", "{:,}"),
    ("builder.limits", "MAX_DEPTH", "{} levels"),
    ("builder.limits", "MAX_FILE_BYTES", "mib"),
    ("builder.limits", "MAX_VALUES", "{:,} values"),
    ("builder.limits", "MAX_PACK_ENTRIES", "{:,} entries"),
    ("builder.limits", "MAX_PACK_VALUES", "{:,} values (counted"),
    ("builder.limits", "MIN_PAPER_MM", "from {:g}"),
    ("builder.limits", "MAX_PAPER_MM", "to {:,.0f} mm"),
    ("builder.limits", "MAX_IMAGE_PIXELS", "{:,} pixels"),
    ("builder.limits", "MAX_ART_BYTES", "mib"),
    ("builder.limits", "MAX_ART_FILES", "at most {:,} images a pack"),
    ("builder.limits", "MAX_SHEET_UNPACKED", "mib"),
    ("builder.limits", "MAX_TEXT_LINES", "{:,} lines"),
    ("builder.limits", "MAX_CODE_EXPANSION", "{} times its own size"),
    ("builder.limits", "MIN_CODE_BODY", "kib"),
    ("builder.limits", "MAX_LINK_CHARS", "kib"),
    ("builder.limits", "MAX_VIEWER_CODE_CHARS", "kib"),
    ("builder.limits", "MAX_VIEWER_BODY", "kib"),
    ("builder.render.cards", "MAX_PRINTED_CARDS", "{:,}\ncards"),
    ("builder.render.cards", "MAX_DPI", "{} dpi"),
    ("builder.analytics.odds", "MAX_DRAWN", "{:,} cards"),
    ("builder.analytics.hands", "MAX_HANDS", "{:,} hands"),
    ("builder.games.satsuma.simulate", "MAX_DECK", "{:,} cards"),
    ("builder.games.satsuma.sim", "MAX_HANDS", "after {:,} hands"),
    ("builder.web.app", "MAX_BODY", "mib"),
    ("builder.web.workspace", "MAX_DEPTH", "{} folders deep"),
    ("builder.web.workspace", "MAX_LISTS", "{:,} lists"),
    ("builder.web.printing", "MAX_PAGES_PREVIEW", "{} pages"),
    ("builder.yamlio", "LOCK_WAIT_SECONDS", "{:.0f} s"),
    ("builder.limits", "MAX_DOWNLOAD_BYTES", "mib"),
    ("builder.limits", "MAX_REDIRECTS", "at most {} redirects"),
    ("builder.limits", "MAX_PACKS_PER_INSTALL", "at most {} packs"),
    ("builder.limits", "MAX_INDEX_ENTRIES", "at most {:,} pack versions"),
    ("builder.limits", "MAX_INDEX_PACKS", "at most {:,} pack files"),
    ("builder.limits", "MAX_INDEX_FILES", "among {:,} files and folders"),
    ("builder.limits", "DOWNLOAD_TIMEOUT_SECONDS", "after {:.0f} s"),
    ("builder.limits", "DOWNLOAD_TOTAL_SECONDS", "or {:.0f} s in all"),
    ("builder.lists.packchanges", "MAX_LISTS", "at most {:,} lists"),
    ("builder.lists.packchanges", "LIST_DEPTH", "{} folders deep"),
]


def limits_paragraph() -> str:
    text = (ROOT / "docs" / "tour.md").read_text(encoding="utf-8")
    start = text.index("**Limits**")
    return " ".join(text[start : text.index("\n\n", start)].split())


def test_every_limit_is_in_the_docs_with_its_value():
    para = limits_paragraph()
    missing = []
    for module, name, form in LIMITS:
        value = getattr(importlib.import_module(module), name)
        if form == "mib":
            want = f"{value // (1024 * 1024)} MiB"
        elif form == "kib":
            want = f"{value // 1024} KiB"
        else:
            want = " ".join(form.format(value).split())
        if want not in para:
            missing.append(f"{module}.{name} = {value} (as '{want}')")
    assert not missing, "not in the limits paragraph of docs/tour.md: " + "; ".join(missing)


def test_every_constant_of_the_limits_module_is_covered():
    import builder.limits as limits

    names = {n for n in vars(limits) if re.fullmatch(r"(MAX|MIN)_[A-Z_]+|[A-Z_]+_SECONDS", n)}
    assert names == {name for module, name, _ in LIMITS if module == "builder.limits"}
