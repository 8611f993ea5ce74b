"""The validated catalog: pydantic models per system, YAML loading, packs, cache."""

from builder.catalog.base import BaseCatalog, Entry, HouseRule, Sourced, Strict  # noqa: F401
from builder.catalog.loader import Catalog, load_catalog  # noqa: F401
