"""``CatalogPart``: where a game's catalog and modules are (``gs.catalog``): its catalog folder,
the module of its catalog model, its rules module and the finding codes a check may give. The
catalog loader (``builder.catalog.loader.load_catalog``) asks it where the game's catalog is; the
registry never loads a catalog itself.

The defaults find a game's ``catalog`` and ``rules`` modules beside its own module and its
catalog in ``catalog/<id>`` of the installation; a game kept elsewhere (a test's toy game, a
game of another package) names them on its own part.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from builder.findings import from_restrictions, registry

if TYPE_CHECKING:
    from builder.findings import FindingCode


class CatalogPart:
    """The ``Catalog`` part with its defaults: the modules beside the game's, ``catalog/<id>``.

    ``folder``: the catalog's folder (None: ``catalog/<id>`` of the installation);
    ``module_name``/``rules_name``: the modules of the catalog model and of the rules (None: the
    ``catalog`` and ``rules`` modules beside the game's own module)."""

    folder: Path | None = None
    module_name: str | None = None
    rules_name: str | None = None

    def __init__(self, game: Any):
        self.game = game

    def _beside(self, name: str) -> str:
        """The module ``name`` in the game's package; the game's own module when it is not in a
        package (a game in one module holds its catalog model and rules itself)."""
        module = type(self.game).__module__
        package = module.rpartition(".")[0]
        return f"{package}.{name}" if package else module

    def module(self) -> ModuleType:
        """The module holding the game's catalog model (``CATALOG_MODEL``)."""
        return importlib.import_module(self.module_name or self._beside("catalog"))

    def rules(self) -> ModuleType:
        """The game's rules module (``load_list``, ``check``, ``summary``, ``FINDING_CODES``)."""
        return importlib.import_module(self.rules_name or self._beside("rules"))

    def finding_codes(self, catalog: Any) -> dict[str, FindingCode]:
        """Every finding code a check of the game may give: ``{code: FindingCode}`` (severity,
        meaning, rulebook source), those of the rules module and those of the declarative
        restrictions of ``catalog`` (the game's catalog, as ``load_catalog`` gives it)."""
        out = registry(getattr(self.rules(), "FINDING_CODES", {}))
        restrictions = getattr(catalog.model, "restrictions", None)
        for code, fc in from_restrictions(self.game.id, restrictions).items():
            out.setdefault(code, fc)
        return dict(sorted(out.items()))


__all__ = ["CatalogPart"]
