"""croupier's version, as the installed package's metadata gives it.

The one home of the version string: ``croupier.__version__`` (the public name), the
``croupier`` field of every ``--json`` envelope and the generator line of the files
croupier writes all read :func:`version`, so no module below the top level has to
import the package itself.

>>> version().count(".") >= 2
True
"""

from __future__ import annotations

from functools import cache

__all__ = ["version"]


@cache
def version() -> str:
    """The installed croupier's version (``0.0.0+unknown`` in a source tree never installed)."""
    from importlib import metadata

    try:
        return metadata.version("croupier")
    except metadata.PackageNotFoundError:  # running from a source tree without installing
        return "0.0.0+unknown"
