"""Catalog models for satsuma."""

from __future__ import annotations

from builder.catalog.base import BaseCatalog


class SatsumaCatalog(BaseCatalog):
    pass


CATALOG_MODEL = SatsumaCatalog


def cross_check(catalog) -> list:
    return []
