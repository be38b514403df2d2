"""Names a package gives on first use (PEP 562), so that importing it stays cheap.

A package lists where each of its lazy names lives and hands its module-level
``__getattr__`` and ``__dir__`` to a :class:`LazyNames`:

>>> import types
>>> package = types.ModuleType("demo")
>>> names = LazyNames(package.__dict__, {"sqrt": "math"}, relative=False)
>>> names.get("sqrt")(9.0), "sqrt" in package.__dict__, "sqrt" in names.listing()
(3.0, True, True)
>>> names.get("nothing")
Traceback (most recent call last):
...
AttributeError: module 'demo' has no attribute 'nothing'
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

__all__ = ["LazyNames"]


class LazyNames:
    """The lazy names of one package: ``homes`` maps each name to its module.

    ``namespace`` is the package's ``globals()``: a name is imported the first
    time it is asked for and kept there, so the next use costs nothing.  The
    module is ``package.home`` (``relative=True``, the default) or ``home``.
    """

    def __init__(
        self, namespace: dict[str, Any], homes: Mapping[str, str], *, relative: bool = True
    ) -> None:
        self.namespace = namespace
        self.homes = homes
        self.relative = relative

    def get(self, name: str) -> Any:
        """The value of ``name``, imported now and kept; ``AttributeError`` if it is unknown."""
        package = self.namespace["__name__"]
        home = self.homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module = f"{package}.{home}" if self.relative else home
        value = getattr(importlib.import_module(module), name)
        self.namespace[name] = value
        return value

    def listing(self) -> list[str]:
        """Every name of the package, the lazy ones included (for ``dir()``)."""
        return sorted([*self.namespace, *self.homes])
