"""Catalog models for kensei."""

from __future__ import annotations

from builder.catalog.base import BaseCatalog


class KenseiCatalog(BaseCatalog):
    pass


CATALOG_MODEL = KenseiCatalog


def cross_check(catalog) -> list:
    return []
