"""Senji setups as text: one line per player, NAME - FAMILY - samurai CARD - PROVINCE UNITS[+S], ...

Our game - Senji - 3 players

Aiko - red - samurai Oda - Kyushu 2+S, Shikoku 1, Owari
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from builder.kit.textform import HOLE, PLAYERS_FACET, SEP, q, unmask
from builder.names import normalize
from builder.systems.text import TextPart

if TYPE_CHECKING:
    from builder.systems.parts import ListData, Summary


def header(doc: ListData, summary: Summary) -> list[str]:
    n = len(doc.get("players", []))
    return [f"{n} player{'s' * (n != 1)}"]


def entries(doc: ListData, resolver: object) -> list[str]:
    out = []
    for p in doc.get("players", []):
        segs = [q(p["name"])]
        if "family" in p:
            segs.append(q(p["family"], segment=True))
        if "samurai" in p:
            segs.append(f"samurai {q(p['samurai'])}")
        provs = []
        for pv in p.get("provinces", []):
            s = q(pv["province"])
            if "units" in pv or pv.get("samurai") or re.search(r"[0-9]$|\+\s*s(amurai)?$", s, re.I):
                s += f" {pv.get('units', 0)}"
                if pv.get("samurai"):
                    s += "+S"
            provs.append(s)
        segs.append(", ".join(provs) if provs else "no provinces" if "provinces" in p else "provinces unset")
        out.append(" - ".join(segs))
    return out


def facet(p: Any, seg: str) -> bool:
    return bool(PLAYERS_FACET.match(seg))


def _province(part: str) -> tuple[str, str | None, str | None]:
    """(name, units, samurai mark) of 'NAME [UNITS][+S]', read from the end of the part (a
    pattern trying every place the name could end would take the square of a long part)."""
    rest, samurai = part, None
    low = part.lower()
    for mark in ("samurai", "s"):
        if low.endswith(mark):
            before = part[: len(part) - len(mark)].rstrip()
            if before.endswith("+") and len(before) > 1:
                rest, samurai = before[:-1], part[len(before) - 1 :]
                break
    body = rest.rstrip()
    units = None
    k = len(body)
    while k > 0 and body[k - 1] in "0123456789":
        k -= 1
    if 0 < k < len(body) and len(body) - k <= 30 and body[k - 1].isspace() and body[:k].strip():
        units, body = body[k:], body[:k]
    return body.strip(), units, samurai


def player_line(p: Any, line: str, no: int, col: int) -> None:
    pf = p.field("players")
    segs = [x.strip() for x in SEP.split(line)]
    if len(segs) < 2:
        p.error(
            no,
            col,
            "a player line reads 'NAME - FAMILY - PROVINCE UNITS[+S], ...'",
            hint="e.g. 'Aiko - red - Kyushu 2+S, Shikoku 1, Owari'",
        )
        return
    player: dict = {"name": unmask(p, segs[0])}
    provs_text = segs[-1]
    for seg in segs[1:-1]:
        m = re.match(r"^samurai\s+(.+)$", seg, re.I)
        if m:
            player["samurai"] = unmask(p, m.group(1))
            p.check_name(pf.part("samurai"), player["samurai"], no, col + max(line.find(player["samurai"]), 0))
        elif "family" not in player:
            fam = unmask(p, re.sub(r"^family\s+", "", seg, flags=re.I))
            player["family"] = fam
            p.check_name(pf.part("family"), fam, no, col + max(line.find(fam), 0))
        else:
            p.error(
                no,
                col + max(line.find(seg), 0),
                f"cannot read '{seg}' in a player line",
                hint="segments: name, family, 'samurai CARD', provinces",
            )
    pvf = pf.part("provinces")
    provs = []
    if normalize(provs_text) not in ("no provinces", "none", "-", "provinces unset"):
        for part in [x.strip() for x in provs_text.split(",")]:
            if not part:
                continue
            pcol = col + max(line.find(part), 0)
            readings = []
            pname, punits, psam = _province(part)
            if pname and (punits or psam):
                readings.append((pname, punits, psam))
            readings.append((part, None, None))
            cands = [(unmask(p, c[0]), c[1], c[2], bool(HOLE.fullmatch(c[0].strip()))) for c in readings]
            pick = next((c for c in cands if c[3]), None) or next(
                (c for c in cands if p.r.find(pvf.part("province"), c[0])[1] is not None), cands[0]
            )
            pv: dict[str, object] = {"province": pick[0]}
            if pick[1] is not None:
                pv["units"] = int(pick[1])
            if pick[2]:
                pv["samurai"] = True
            p.check_name(pvf.part("province"), pick[0], no, pcol)
            provs.append(pv)
    if normalize(provs_text) != "provinces unset":
        player["provinces"] = provs
    p.doc.setdefault("players", []).append(player)


class SenjiText(TextPart):
    """Senji's text form (``gs.text``): the number of players in the header, a line per player."""

    example = "write e.g. 'Our game - Senji - 4 players'"
    infers = False

    def header(self, doc: ListData, summary: Summary) -> list[str]:
        return header(doc, summary)

    def entries(self, doc: ListData, resolver: object) -> list[str]:
        return entries(doc, resolver)

    def read_facet(self, p: Any, seg: str) -> bool:
        return facet(p, seg)

    def read_entry(self, p: Any, line: str, no: int, col: int) -> None:
        player_line(p, line, no, col)
