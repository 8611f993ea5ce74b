"""Catalog models for herocard."""

from __future__ import annotations

from builder.catalog.base import BaseCatalog


class HerocardCatalog(BaseCatalog):
    pass


CATALOG_MODEL = HerocardCatalog


def cross_check(catalog) -> list:
    return []
