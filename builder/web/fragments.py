"""Pieces of the builder page drawn once and kept: a list's entry (``_entry_row.html``) depends
only on the entry's own data and on the list's words and settings that the row shows, so after a
change only the rows that changed are drawn again (drawing every row of a big list was most of
the time of an edit's answer). The same holds for the list's settings and house rules
(``_settings.html``, ``_house_rules.html``) and each finding: drawn again only when what they
show changes. A row is two pieces: its body (``_entry_body.html``: the entry's name, count,
cost and controls) and what the check found about it, so a change that only alters the findings
of other rows (the list's total moved) redraws their findings, not their bodies."""

from __future__ import annotations

import threading
from collections import OrderedDict

from markupsafe import Markup

from builder.i18n import current_language

MAX_ROWS = 4096  # rows kept across every list the server shows
MAX_PIECES = 512  # other pieces (settings, house rules) kept across every list
# what a row shows of the list beside its entry (the rest of the view cannot change a row)
ROW_KEYS = (
    "path",
    "layout",
    "count_words",
    "entry_words",
    "standard_word",
    "leader_word",
    "priced",
    "seat_words",
    "settings",
    "system",
)
_FOUND = ("findings", "needs")  # what a row shows of the check, below its body (_entry_body.html)
_AROUND = "_row_context"  # where a view keeps the written-out ROW_KEYS of its rows (see entry_row)


class _Kept:
    """Drawings of one template, each kept under the ``repr`` of what it was drawn from (plain
    data: equal data give equal keys; the same data built in another order only draws again),
    at most ``size``, the least recently used going first."""

    def __init__(self, template, size: int):
        self.template = template
        self.size = size
        self.drawn: OrderedDict[str, Markup] = OrderedDict()
        self.lock = threading.Lock()

    def __call__(self, key_of, **ctx) -> Markup:
        # several times faster than JSON with sorted keys, on every row of every answer
        return self.keyed(repr(key_of), **ctx)

    def keyed(self, key: str, **ctx) -> Markup:
        """The drawing kept under ``key`` (a string that changes whenever ``ctx`` does), in the
        current language (a drawing in one language never serves another)."""
        key = current_language() + "|" + key
        with self.lock:
            hit = self.drawn.get(key)
            if hit is not None:
                self.drawn.move_to_end(key)
                return hit
        html = Markup(self.template.render(**ctx))
        with self.lock:
            self.drawn[key] = html
            while len(self.drawn) > self.size:
                self.drawn.popitem(last=False)
        return html


def install(env) -> None:
    """Give the templates of ``env`` the ``entry_row(view, entry, i)`` function and
    ``kept(name, **ctx)``: the template ``name`` drawn with ``ctx`` (plain data only), kept until
    ``ctx`` changes."""
    rows = _Kept(env.get_template("_entry_row.html"), MAX_ROWS)
    bodies = _Kept(env.get_template("_entry_body.html"), MAX_ROWS)
    pieces: dict[str, _Kept] = {}
    guard = threading.Lock()

    def around(view: dict) -> str:
        # what the rows show of the list is the same for every row of one answer: written out once
        out = view.get(_AROUND)
        if out is None:
            out = view[_AROUND] = repr([view.get(k) for k in ROW_KEYS])
        return out

    def entry_row(view: dict, entry: dict, i: int) -> Markup:
        return rows.keyed(f"{i}|{entry!r}|{around(view)}", view=view, e=entry, i=i)

    def entry_body(view: dict, entry: dict, i: int) -> Markup:
        """A row without its findings and needs: drawn again only when the entry itself changes,
        not when only what is found about it does (a change elsewhere in the list)."""
        own = {k: v for k, v in entry.items() if k not in _FOUND}
        return bodies.keyed(f"{i}|{own!r}|{around(view)}", view=view, e=entry, i=i)

    def kept(name: str, _key=None, **ctx) -> Markup:
        """``_key``: plain data that changes whenever ``ctx`` does, shorter to write out than
        ``ctx`` (the default key)."""
        with guard:
            piece = pieces.get(name)
            if piece is None:
                piece = pieces[name] = _Kept(env.get_template(name), MAX_PIECES)
        return piece(ctx if _key is None else _key, **ctx)

    env.globals["entry_row"] = entry_row
    env.globals["entry_body"] = entry_body
    env.globals["kept"] = kept
