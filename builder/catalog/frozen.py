"""Validated catalog entries as plain objects: reading a catalog from the cache needs no pydantic.

A catalog is validated once by its pydantic models (``builder.catalog.<system>``) and then
*frozen*: every model instance becomes a ``Frozen`` holding the same field values, and
remembers the name of its model class. Fields are plain attributes; a method or property
of the model class (``HouseRule.coerce``, ``ArmyBuilding.limit``) is looked up on that class
the first time it is asked for, which imports the model module then and only then. A
cached catalog is a pickle of frozen entries, so a ``check`` from the cache never imports
pydantic unless a method of a model is needed.
"""

from __future__ import annotations

import copy
import importlib
import inspect
import types
from typing import TYPE_CHECKING

from builder import state

if TYPE_CHECKING:
    from pydantic import BaseModel

_CLASSES: dict[str, type[BaseModel]] = state.cache(
    "catalog.model_classes",
    bound=None,
    lifetime=state.PROCESS,
    doc="model class by its import path (the code's classes)",
)
_STATIC: dict[tuple[str, str], object] = state.cache(
    "catalog.model_attributes",
    bound=None,
    lifetime=state.PROCESS,
    doc="what a model class holds under a name, by (model, name): the code's methods and constants",
)
_UNSEEN, _MISSING = object(), object()


def _model_class(path: str) -> type[BaseModel]:
    cls = _CLASSES.get(path)
    if cls is None:
        module, _, name = path.partition(":")
        *outer, last = name.split(".")
        owner: object = importlib.import_module(module)
        for part in outer:
            owner = getattr(owner, part)
        cls = getattr(owner, last)
        _CLASSES[path] = cls
    return cls


class Frozen:
    """A validated model instance as a plain object (see the module docstring)."""

    __slots__ = ("__dict__", "_model")

    def __init__(self, model: str, fields: dict):
        object.__setattr__(self, "_model", model)
        self.__dict__.update(fields)

    def __getattr__(self, name: str):
        if name.startswith("__") or name == "_model":
            raise AttributeError(name)
        cls = _model_class(self._model)
        key = (self._model, name)
        attr = _STATIC.get(key, _UNSEEN)
        if attr is _UNSEEN:  # looked up once per model and name (a check asks thousands of times)
            try:
                attr = inspect.getattr_static(cls, name)
            except AttributeError:
                attr = _MISSING
            _STATIC[key] = attr
        if attr is _MISSING:
            raise AttributeError(f"'{kind(self)}' has no attribute '{name}'")
        if isinstance(attr, property) and attr.fget is not None:
            return attr.fget(self)
        if isinstance(attr, (staticmethod, classmethod)):
            return getattr(cls, name)
        if isinstance(attr, types.FunctionType):
            return types.MethodType(attr, self)
        return getattr(cls, name)

    def __getstate__(self):
        return (self._model, self.__dict__)

    def __setstate__(self, state):
        object.__setattr__(self, "_model", state[0])
        self.__dict__.update(state[1])

    def __reduce__(self):
        return (_new, (self._model,), self.__getstate__())

    def __eq__(self, other):
        if not isinstance(other, Frozen):
            return NotImplemented
        return self._model == other._model and self.__dict__ == other.__dict__

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return f"{kind(self)}({', '.join(f'{k}={v!r}' for k, v in self.__dict__.items())})"

    # -- the pydantic API some callers use: answered by the thawed model -------------------------

    def thaw(self):
        """The pydantic model instance again (no validation: the values were validated)."""
        cls = _model_class(self._model)
        return cls.model_construct(**{k: thaw(v) for k, v in self.__dict__.items()})

    def model_dump(self, **kwargs):
        return self.thaw().model_dump(**kwargs)

    def model_dump_json(self, **kwargs):
        return self.thaw().model_dump_json(**kwargs)

    def model_copy(self, update: dict | None = None, deep: bool = False):
        fields = copy.deepcopy(self.__dict__) if deep else dict(self.__dict__)
        fields.update(update or {})
        return Frozen(self._model, fields)


def _new(model: str) -> Frozen:
    obj = Frozen.__new__(Frozen)
    object.__setattr__(obj, "_model", model)
    return obj


def freeze(value):
    """``value`` with every pydantic model instance in it (lists, tuples and dicts too) frozen."""
    fields = getattr(type(value), "__pydantic_fields__", None)
    if fields is not None and hasattr(value, "__pydantic_fields_set__"):
        cls = type(value)
        data = {k: freeze(v) for k, v in value.__dict__.items()}
        return Frozen(f"{cls.__module__}:{cls.__qualname__}", data)
    if type(value) is list:
        return [freeze(v) for v in value]
    if type(value) is tuple:
        return tuple(freeze(v) for v in value)
    if type(value) is dict:
        return {k: freeze(v) for k, v in value.items()}
    return value


def thaw(value):
    """The inverse of ``freeze``."""
    if isinstance(value, Frozen):
        return value.thaw()
    if type(value) is list:
        return [thaw(v) for v in value]
    if type(value) is tuple:
        return tuple(thaw(v) for v in value)
    if type(value) is dict:
        return {k: thaw(v) for k, v in value.items()}
    return value


def kind(value) -> str:
    """The model class name of a frozen or pydantic entry (``"BoundExpr"``), else the type's name."""
    if isinstance(value, Frozen):
        return value._model.rpartition(":")[2].rpartition(".")[2]
    return type(value).__name__


def model_fields(value) -> dict:
    """The fields of a frozen or pydantic entry: name -> value."""
    if isinstance(value, Frozen):
        return dict(value.__dict__)
    names = getattr(type(value), "model_fields", None) or {}
    return {n: getattr(value, n) for n in names}
