"""Which implementation runs a kernel: the compiled core, or its plain-Python specification.

Every kernel of :mod:`croupier._core` has a plain-Python implementation beside
its caller, kept as the executable specification the tests compare the
compiled one against.  Functions that run a kernel take ``engine=``:

* ``"auto"`` (the default) and ``"compiled"``: the compiled core;
* ``"python"``: the plain-Python specification (slow; for tests and for
  reading).

Both give the same result from the same bits, so the choice never changes an
output.  This is the one place the choice is made.

>>> resolve("auto"), resolve("python")
('compiled', 'python')
>>> resolve("numpy")
Traceback (most recent call last):
...
croupier.errors.CroupierError: engine='numpy' is not one of ... (the numpy engines are gone: ...)
"""

from __future__ import annotations

from typing import Literal

from croupier.errors import CroupierError

__all__ = ["ENGINES", "Engine", "resolve"]

Engine = Literal["auto", "compiled", "python"]
"""The ``engine=`` argument of the functions that run a compiled kernel."""

ENGINES: tuple[Engine, ...] = ("auto", "compiled", "python")


def resolve(engine: str) -> Literal["compiled", "python"]:
    """The implementation ``engine`` names: ``"compiled"`` or ``"python"``.

    Anything else is refused with one line naming the choices.
    """
    if engine in ("auto", "compiled"):
        return "compiled"
    if engine == "python":
        return "python"
    hint = ""
    if engine == "numpy":
        hint = " (the numpy engines are gone: the compiled core runs every kernel; use 'auto')"
    raise CroupierError(
        f"engine={engine!r} is not one of {', '.join(repr(e) for e in ENGINES)}{hint}"
    )
