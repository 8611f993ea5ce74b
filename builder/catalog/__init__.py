"""The validated catalog: pydantic models per system, YAML loading, packs, cache.

Import from the submodules (``builder.catalog.base``, ``builder.catalog.loader``);
this package imports nothing itself so that loading a cached catalog stays cheap.
"""
