"""Catalog models for senji."""

from __future__ import annotations

from builder.catalog.base import BaseCatalog


class SenjiCatalog(BaseCatalog):
    pass


CATALOG_MODEL = SenjiCatalog


def cross_check(catalog) -> list:
    return []
