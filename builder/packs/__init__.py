"""User packs: finding them by name, their identity, templates, spreadsheets and bundles.

This package imports nothing at import time. Finding a pack by name is ``builder.catalog.packfiles``,
cheap (no YAML, no pydantic) because every list load goes through it.
"""
