"""Pieces of the builder page drawn once and kept: a list's entry (``_entry_row.html``) depends
only on the entry's own data and on the list's words and settings that the row shows, so after a
change only the rows that changed are drawn again (drawing every row of a big list was most of
the time of an edit's answer)."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict

from markupsafe import Markup

MAX_ROWS = 4096  # rows kept across every list the server shows
# what a row shows of the list beside its entry (the rest of the view cannot change a row)
ROW_KEYS = ("path", "layout", "count_words", "entry_words", "standard_word", "leader_word", "priced",
            "seat_words", "settings", "system")


def install(env) -> None:
    """Give the templates of ``env`` the ``entry_row(view, entry, i)`` function."""
    template = env.get_template("_entry_row.html")
    rows: OrderedDict[str, Markup] = OrderedDict()
    lock = threading.Lock()

    def entry_row(view: dict, entry: dict, i: int) -> Markup:
        key = json.dumps([i, entry, [view.get(k) for k in ROW_KEYS]], sort_keys=True, default=str)
        with lock:
            hit = rows.get(key)
            if hit is not None:
                rows.move_to_end(key)
                return hit
        html = Markup(template.render(view=view, e=entry, i=i))
        with lock:
            rows[key] = html
            while len(rows) > MAX_ROWS:
                rows.popitem(last=False)
        return html

    env.globals["entry_row"] = entry_row
