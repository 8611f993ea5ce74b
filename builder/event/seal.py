"""Tokens and commitments.

A token is 32 random bytes (``secrets``), written URL-safe; the database keeps only its
SHA-256, so a copy of the database lets nobody submit in a player's name.

A **commitment** seals one submission: the SHA-256, in hex, of ::

    daimyo-event-commitment/1 LF
    CANONICAL LF
    PACK-HASHES LF
    SECRET

where CANONICAL is the list as sorted, compact JSON of its canonical form (what ``daimyo export
--to json`` holds, with ``checked_with`` and ``packs`` as handed in; the public fingerprint,
docs/fingerprint.md, leaves those two out and is not salted), PACK-HASHES the content
hashes of the packs it was checked with, sorted and joined by commas (empty without packs), and
SECRET 32 random bytes in hex, drawn for this submission alone. The event page shows every
commitment at once; the list and its secret are shown at the reveal, and anyone can then
recompute the commitment from them (``daimyo event verify``). Without the secret a commitment
says nothing of the list, not even whether two players handed in the same one.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets

from builder.share.api import parse_source_text
from builder.share.canonical import canonical

PREFIX = b"daimyo-event-commitment/1\n"


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_secret() -> str:
    return secrets.token_hex(32)


def canonical_json(canon: dict) -> str:
    """The canonical list as the bytes a commitment is taken of (sorted, compact JSON)."""
    return json.dumps(canon, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def commitment(canonical: str, pack_hashes: list[str], secret: str) -> str:
    blob = (
        PREFIX
        + canonical.encode("utf-8")
        + b"\n"
        + ",".join(sorted(pack_hashes)).encode("ascii")
        + b"\n"
        + secret.encode("ascii")
    )
    return hashlib.sha256(blob).hexdigest()


def csrf_token(event_secret: str, token_hash_hex: str) -> str:
    """The form token of one signed-in player or organiser: nothing to keep between requests."""
    return hmac.new(bytes.fromhex(event_secret), b"csrf:" + token_hash_hex.encode(), "sha256").hexdigest()[:40]


def same(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())


def verify_revealed(entry: dict) -> tuple[bool, str]:
    """Recompute the commitment of one revealed submission from its list text: ``(ok, why)``.

    ``entry``: ``list`` (the list as text, in any share format), ``packs`` (hashes), ``secret``,
    ``commitment`` and ``system``. The list is read and put in canonical form again here, so a
    list text changed after the reveal fails, whatever the server says."""
    try:
        imp = parse_source_text(entry["list"], "<revealed>", entry.get("system"))
        again = commitment(canonical_json(canonical(dict(imp.doc))), list(entry.get("packs") or []), entry["secret"])
    except Exception as exc:
        return False, f"the list cannot be read back: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}"
    if not same(again, str(entry.get("commitment", ""))):
        return False, f"commitment {entry.get('commitment')} does not match the list (it gives {again})"
    return True, "matches its commitment"
