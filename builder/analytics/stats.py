"""Statistics of a list for every system (``daimyo stats``).

``list_stats(path, odds=(), packs=())`` reads and checks the list like ``daimyo check``
and returns a plain dict: the check's verdict and summary, counts of the cards by each
field (card games), the limits of the rules with the room left, and the answers to
the odds queries. Every number comes from the rules cores: Kensei limits are the rules
engine's own measure of each restriction (``builder.games.kensei.rules.limits``).
"""

from __future__ import annotations

from builder.analytics import odds as oddsmod
from builder.catalog.loader import load_catalog
from builder.check import check_doc, resolve_house_rules
from builder.check import limit_lines as lines_of
from builder.errors import UsageError
from builder.i18n import L_, _, ngettext, tr
from builder.kit.facts import Loaded, num_text, share
from builder.lists.document import load_list
from builder.rulebooks import format_source
from builder.systems import get
from builder.systems.view import amount_text


def load(path, packs=()) -> Loaded:
    doc = load_list(path)
    catalog = load_catalog(doc.system, list(doc.packs) + [str(p) for p in packs])
    result = check_doc(doc, catalog=catalog)
    rules = resolve_house_rules(doc, catalog)
    gs = get(doc.system)
    lst, _ = gs.rules.load_list(doc, catalog)
    view = gs.analytics.deck_view(lst, catalog, rules)
    return Loaded(doc, catalog, lst, rules, result, view, gs)


def limit_lines(path, packs=()) -> list[str]:
    """``check --explain``'s lines on the limits (``builder.check.limit_lines``) of the list file
    ``path``, read and checked with ``packs`` as ``load`` does."""
    ld = load(path, packs)
    return lines_of(ld.result.system, ld.lst, ld.catalog, ld.rules)


def list_stats(path, odds=(), packs=(), loaded: Loaded | None = None) -> dict:
    ld = loaded or load(path, packs)
    res = ld.result
    counts = res.counts()
    out: dict = {
        "file": res.file,
        "system": res.system,
        "name": res.name,
        "legal": res.legal,
        "errors": counts["error"],
        "warnings": counts["warning"],
        "summary": dict(res.summary),
    }
    if ld.view is not None:
        v = ld.view
        out["cards"] = v.total
        out["hand_size"] = v.hand_size
        out["counts"] = [
            {
                "field": f.name,
                "title": f.title,
                "values": [{"value": k, "cards": n, "share": share(n, v.total)} for k, n in v.counts(f.name).items()],
            }
            for f in v.fields.values()
            if f.counted
        ]
        if v.notes:
            out["notes"] = list(v.notes)
    elif odds:
        raise UsageError(
            L_(
                "{file}: odds are for card decks (Senshiai, HeroCard, Satsuma), not {system} lists",
                file=res.file,
                system=res.system,
            )
        )

    out.update(get(res.system).analytics.stats_facts(ld))
    if odds and ld.view is not None:  # a list without a deck view was refused above
        view = ld.view
        out["odds"] = [oddsmod.answer(q, view).to_json() for q in odds]

    for row in out.get("limits", ()):
        if row.get("source"):
            row["ref"], row["source"] = row["source"], format_source(row["source"])
    return out


# -- text -----------------------------------------------------------------------------------


def format_stats(st: dict) -> list[str]:
    title = f' "{st["name"]}"' if st.get("name") else ""
    verdict = (
        _("legal")
        if st["legal"]
        else ngettext("ILLEGAL ({n} error)", "ILLEGAL ({n} errors)", st["errors"]).format(n=st["errors"])
    )
    head = f"{st['file']}: {st['system']}{title}"
    if "cards" in st:
        # "1 cards" in English as before; another language chooses its form by the count
        cards = ngettext("{n} cards", "{n} cards", st["cards"]).format(n=st["cards"])
        lines = [_("{list}, {cards}, {verdict}").format(list=head, cards=cards, verdict=verdict)]
    else:
        lines = [_("{list}, {verdict}").format(list=head, verdict=verdict)]
    for note in st.get("notes", ()):
        lines.append(f"  {tr(note)}")
    for block in st.get("counts", ()):
        if not block["values"]:
            continue
        lines.append(_("{heading}:").format(heading=tr(block["title"])))
        # "(none)": the count's key in JSON, said in the reader's language
        shown = [_("(none)") if v["value"] == "(none)" else str(v["value"]) for v in block["values"]]
        width = max(len(x) for x in shown)
        for v, value in zip(block["values"], shown, strict=True):
            bar = "#" * round(30 * v["share"])
            lines.append(f"  {value!s:<{width}}  {v['cards']:>4}  {100 * v['share']:5.1f}%  {bar}")

    lines += get(st["system"]).analytics.stats_lines(st)
    if st.get("limits"):
        lines.append(_("Limits (value, bound, room left):"))
        for r in st["limits"]:
            what = tr(r["label"]) + (f" [{r['group']}]" if r.get("group") else "")
            rel = "<=" if r["kind"] == "max" else (">=" if r["kind"] == "min" else "=")
            if r["ok"]:
                if r["kind"] == "exactly":
                    room = _("met")
                elif r["kind"] == "max":
                    room = _("room {n}").format(n=num_text(r["room"]))
                else:
                    room = _("{n} to spare").format(n=num_text(r["room"]))
            else:
                room = _("BROKEN by {n}").format(n=num_text(abs(r["room"])))
            bound = tr(r.get("bound_text") or amount_text(num_text(r["bound"]), r["unit"]))
            lines.append(f"  {what}: {num_text(r['value'])} {rel} {bound}  ({room})")
    if st.get("odds"):
        lines.append(_("Odds (exact, hypergeometric):"))
        for o in st["odds"]:
            p = o["probability"]
            pct = f"{100 * p:.2f}%" if 0 < p < 1 else f"{100 * p:.0f}%"
            lines.append(
                f"  P({o['shown']}) = {p:.4f} ({pct}); "
                + _("{matching} of {deck} cards match, {expected} expected in {drawn}").format(
                    matching=o["matching"], deck=o["deck"], expected=f"{o['expected']:.2f}", drawn=o["drawn"]
                )
            )
    return lines
