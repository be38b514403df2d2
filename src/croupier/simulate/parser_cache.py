"""Keep the built dealer-language parser between runs, in the user's own cache folder.

Building the LALR tables of the grammar takes a good part of a second on a slow
machine, on every start of ``croupier dealer``; loading them takes
milliseconds.  The tables are saved with lark's own ``Lark.save`` (a pickle) in
``$XDG_CACHE_HOME/croupier`` (default ``~/.cache/croupier``), a folder only its
owner may use (mode 0700; a folder that others can write is not used, since
loading a pickle runs code).  The file name carries a SHA-256 of the grammar,
the parser options and the lark and Python versions, so a changed grammar
never loads stale tables; files are written atomically (temporary file, then
rename), so a run never reads a half-written one.  Any failure (no home
folder, a read-only disk, a damaged file) just builds the parser as usual.
``CROUPIER_NO_CACHE=1`` turns the cache off.

>>> import os
>>> calls = []
>>> def build() -> str:
...     calls.append(1)
...     return "parser"
>>> os.environ["CROUPIER_NO_CACHE"] = "1"
>>> cached_parser("k", build), len(calls)
('parser', 1)
>>> del os.environ["CROUPIER_NO_CACHE"]
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

__all__ = ["cache_folder", "cached_parser"]

T = TypeVar("T")


def cache_folder() -> Path | None:
    """The private cache folder (created with mode 0700), or ``None`` when there is none.

    >>> folder = cache_folder()
    >>> folder is None or folder.name == "croupier"
    True
    """
    if os.environ.get("CROUPIER_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = Path(base) / "croupier"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = folder.stat()
    except (OSError, RuntimeError):
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return None  # shared with others: a planted file could run code when loaded
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        return None
    return folder


def _path(key: str) -> Path | None:
    folder = cache_folder()
    if folder is None:
        return None
    import lark

    tag = f"{key}|lark {lark.__version__}|python {sys.version_info[:3]}"
    return folder / f"dealer-parser-{hashlib.sha256(tag.encode()).hexdigest()[:32]}.lark"


def cached_parser(key: str, build: Callable[[], T]) -> T:
    """The parser saved under ``key`` (grammar and options), else ``build()`` (then saved).

    ``build`` must return a ``lark.Lark`` for the result to be saved; other
    values are returned as they are.
    """
    path = _path(key)
    if path is not None:
        try:
            with path.open("rb") as file:
                from lark import Lark

                loaded: Any = Lark.load(file)
            return loaded  # type: ignore[no-any-return]
        except Exception:  # missing or damaged: build it again
            pass
    parser = build()
    if path is not None and hasattr(parser, "save"):
        _save(parser, path)
    return parser


def _save(parser: Any, path: Path) -> None:
    try:
        fd, temporary = tempfile.mkstemp(prefix=".dealer-parser-", dir=path.parent)
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as file:
            parser.save(file)
        os.replace(temporary, path)
    except Exception:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
