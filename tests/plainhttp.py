"""What the tests' HTTP clients pass as ``verify`` to talk to their own plain-HTTP servers on
127.0.0.1: a TLS context that trusts no certificate authority. Made in a fraction of a
millisecond, where the default one reads the system's whole list of authorities (tens of
milliseconds for every client); no TLS connection is made, and one made by mistake would be
refused rather than let through unverified."""

from __future__ import annotations

import ssl


def no_tls() -> ssl.SSLContext:
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)  # verifies certificates and host names
    assert ctx.verify_mode == ssl.CERT_REQUIRED and ctx.check_hostname
    return ctx
