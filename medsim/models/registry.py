"""Built-in model names (``baseline``, ``reference``, ``scripted:PATH``, ``human``) and the
factories that make them.

A module registers its factory at import with ``register_builtin(name, factory)``. The
known built-ins' modules are imported on first use, so ``resolve_model("baseline")`` works
without anyone importing ``medsim.models.baseline`` first, and nothing heavy is imported
before it is needed.

A factory is called as ``factory(arg, options)``: ``arg`` is the text after the colon
(``scripted:replies.yaml`` → ``"replies.yaml"``; ``None`` without one), ``options`` a dict
of the settings given to ``resolve_model`` (``cache``, ``temperature``, ``seed``... only
those not None); a factory takes what it needs and ignores the rest.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from medsim.models.base import ChatModel

BuiltinFactory = Callable[[str | None, dict[str, Any]], ChatModel]

_factories: dict[str, BuiltinFactory] = {}

# name -> module that registers it when imported
BUILTIN_MODULES: dict[str, str] = {
    "baseline": "medsim.models.baseline",
    "reference": "medsim.models.reference",
    "scripted": "medsim.models.scripted",
    "human": "medsim.models.human",
    "adversary": "medsim.models.adversaries",
}


def register_builtin(name: str, factory: BuiltinFactory) -> None:
    _factories[name] = factory


def builtin_names() -> list[str]:
    return sorted(set(BUILTIN_MODULES) | set(_factories))


def is_builtin(name: str) -> bool:
    return name in _factories or name in BUILTIN_MODULES


def get_builtin(name: str) -> BuiltinFactory | None:
    """The factory for ``name``, importing its module if it has not registered yet.
    None when the module does not exist (a build without that built-in)."""
    if name not in _factories and name in BUILTIN_MODULES:
        module = BUILTIN_MODULES[name]
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:  # the module exists but one of its imports is missing
                raise
    return _factories.get(name)
