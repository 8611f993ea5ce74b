"""Catalog models for senshiai."""

from __future__ import annotations

from builder.catalog.base import BaseCatalog


class SenshiaiCatalog(BaseCatalog):
    pass


CATALOG_MODEL = SenshiaiCatalog


def cross_check(catalog) -> list:
    return []
