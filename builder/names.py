"""Name matching: case, repeated spaces, hyphen variants and aliases do not matter."""

from __future__ import annotations

import functools
import re
import unicodedata

_HYPHENS = dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2014\u2212"), "-")
_SPACES = re.compile(r"\s+")
_APOS = dict.fromkeys(map(ord, "\u2018\u2019\u02bc`"), "'")


def normalize(name: str) -> str:
    """The key under which a name is looked up (remembered: a long list names the same few
    troops and cards again and again)."""
    try:
        return _normalize_memo(name)
    except TypeError:   # an unhashable value (a list where a name was expected)
        return _normalize(name)


def _normalize(name) -> str:
    text = unicodedata.normalize("NFKC", str(name)).translate(_HYPHENS).translate(_APOS)
    text = " ".join(text.split()).casefold()  # runs of spaces as one (str.split: the same as \s+)
    if "-" in text:  # no spaces around a hyphen
        text = "-".join(part.strip() for part in text.split("-"))
    return text


def loose(name: str) -> str:
    """A looser key: hyphens and spaces alike (``Dai-Katana`` = ``Dai Katana``)."""
    return normalize(name).replace(" ", "").replace("-", "").replace("_", "")


def slug(name: str) -> str:
    text = unicodedata.normalize("NFKD", normalize(name)).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


def suggest(name: str, candidates, n: int = 3) -> list[str]:
    """The closest display names to ``name`` among ``candidates`` (display names)."""
    cands = list(dict.fromkeys(candidates))
    keyed = {normalize(c): c for c in cands}
    import difflib

    key = normalize(name)
    scored = []
    # the name is the second sequence, whose index difflib builds once (not once per candidate);
    # a candidate is scored in full only when the scores that bound the ratio allow 0.6
    sm = difflib.SequenceMatcher(None)
    sm.set_seq2(key)
    for k in keyed:
        sm.set_seq1(k)
        if sm.real_quick_ratio() >= 0.6 and sm.quick_ratio() >= 0.6:
            r = difflib.SequenceMatcher(None, key, k).ratio()  # the ratio as it always was
            if r >= 0.6:
                scored.append((r, k))
    scored.sort(key=lambda t: (-t[0], t[1]))
    best = scored[0][0] if scored else 0
    out = [keyed[k] for r, k in scored if r >= best - 0.08][:n]
    if not out:
        key = normalize(name)
        out = [c for k, c in keyed.items() if key and (key in k or k in key)][:n]
    return out


def did_you_mean(name: str, candidates, n: int = 3) -> str:
    hits = suggest(name, candidates, n)
    if not hits:
        return ""
    return "did you mean " + " or ".join(f"'{h}'" for h in hits) + "?"


_normalize_memo = functools.lru_cache(maxsize=1 << 16, typed=True)(_normalize)
