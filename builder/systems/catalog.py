"""``CatalogPart``: where a game's catalog and modules are (``gs.catalog``): its catalog folder,
the module of its catalog model, its rules module and the finding codes a check may give. The
catalog loader (``builder.catalog.loader.load_catalog``) asks it where the game's catalog is; the
registry never loads a catalog itself.

The defaults find a game's ``catalog`` and ``rules`` modules beside its own module and its
catalog in its package's data folder (``data_folder``); a game kept elsewhere (a test's toy game
in one module) names them on its own part.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from builder import state
from builder.findings import from_restrictions, registry
from builder.paths import data_root

if TYPE_CHECKING:
    from builder.findings import FindingCode


def _package_dir(package: str) -> str:
    mod = sys.modules.get(package) or importlib.import_module(package)
    return str(next(iter(mod.__path__)))


def data_folder(package: str, game_id: str) -> Path:
    """Where the game ``game_id`` of ``package`` keeps its catalog files, the first of:

    * ``catalog/<id>/`` of ``DAIMYO_DATA`` when that folder is there (the game's data replaced
      for the whole process), or of daimyo's source checkout (and editable install), where
      ``catalog/`` holds every game's folder;
    * the package's ``data/`` folder: an installed wheel carries each game's folder there, as
      package data of the game's package (``pyproject.toml``), and a game of another package
      ships its own the same way;
    * ``catalog/<id>/`` beside the package's top-level package (that project's source checkout).

    Neither there: the package's ``data/`` (the loader then says no catalog files were found).
    A game in one module, outside any package (``package`` empty): ``catalog/<id>/`` of the
    data folder (``builder.paths.catalog_dir``)."""
    root = data_root()  # the same object while it holds: a cheap key
    if not package:
        return root / "catalog" / game_id
    return _data_folder(_package_dir(package), _package_dir(package.partition(".")[0]), game_id, root)


@state.memo(
    "systems.data_folders",
    bound=64,
    lifetime=state.PROCESS,
    doc="a game's catalog folder, by its package's folder, its id and the data folder",
)
def _data_folder(package_dir: str, top_dir: str, game_id: str, root: Path) -> Path:
    here = root / "catalog" / game_id
    if here.is_dir():
        return here
    own = Path(package_dir) / "data"
    if own.is_dir():
        return own
    checkout = Path(top_dir).parent / "catalog" / game_id
    return checkout if checkout.is_dir() else own


class CatalogPart:
    """The ``Catalog`` part with its defaults: the modules beside the game's, its package's data.

    ``folder``: the catalog's folder (by default ``data_folder`` of the game's package; a part
    may give its own as a class attribute); ``module_name``/``rules_name``: the modules of the
    catalog model and of the rules (None: the ``catalog`` and ``rules`` modules beside the
    game's own module)."""

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

    @property
    def folder(self) -> Path:
        """The game's catalog folder: ``data_folder`` of the package the game's class is in."""
        module = type(self.game).__module__
        is_package = hasattr(sys.modules.get(module), "__path__")  # a game defined in a package's __init__
        return data_folder(module if is_package else module.rpartition(".")[0], self.game.id)

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


__all__ = ["CatalogPart", "data_folder"]
