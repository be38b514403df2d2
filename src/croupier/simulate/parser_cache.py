"""Keep the built dealer-language parser, and parsed scripts, between runs, in the user's
own cache folder.

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

A script parsed once is kept too (:func:`cached_script`): its syntax tree,
pickled, under a SHA-256 of its text, its file name and the parser's own
source files, so running the same script again needs neither lark nor the
tables (a few tens of milliseconds of a short run's start-up).  Other values
a run computes exactly from its script alone, such as the stacking strategy's
survey of a seat's hands, are kept the same way (:func:`cached_value`), under
a SHA-256 of their inputs and of the source files of the code that computes them.

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
import functools
import hashlib
import os
import stat
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # (a cached script is read without pathlib: a short run does without it)
    from pathlib import Path

__all__ = ["cache_folder", "cached_parser", "cached_script", "cached_value"]

T = TypeVar("T")


def cache_folder() -> Path | None:
    """The private cache folder (created with mode 0700), or ``None`` when there is none.

    >>> folder = cache_folder()
    >>> folder is None or folder.name == "croupier"
    True
    """
    folder = _cache_dir()
    if folder is None:
        return None
    from pathlib import Path

    return Path(folder)


def _cache_dir() -> str | None:
    """:func:`cache_folder` as a string."""
    if os.environ.get("CROUPIER_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "croupier")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        info = os.stat(folder)
    except (OSError, RuntimeError, ValueError):
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return None  # shared with others: a planted file could run code when loaded
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        return None
    return folder


def _path(key: str) -> str | None:
    folder = _cache_dir()
    if folder is None:
        return None
    import lark

    tag = f"{key}|lark {lark.__version__}|python {sys.version_info[:3]}"
    name = f"dealer-parser-{hashlib.sha256(tag.encode()).hexdigest()[:32]}.lark"
    return os.path.join(folder, name)


def cached_parser(key: str, build: Callable[[], T]) -> T:
    """The parser saved under ``key`` (grammar and options), else ``build()`` (then saved).

    ``build`` must return a ``lark.Lark`` for the result to be saved; other
    values are returned as they are.
    """
    path = _path(key)
    if path is not None:
        try:
            with open(path, "rb") as file:
                from lark import Lark

                loaded: Any = Lark.load(file)
            return loaded  # type: ignore[no-any-return]
        except Exception:  # missing or damaged: build it again
            pass
    parser = build()
    if path is not None and hasattr(parser, "save"):
        _save(parser, path)
    return parser


def _save(parser: Any, path: str) -> None:
    _write(path, parser.save)


def _write(path: str, write: Callable[[Any], Any]) -> None:
    import tempfile  # only to save: a run that loads its tables does without

    try:
        fd, temporary = tempfile.mkstemp(prefix=".dealer-parser-", dir=os.path.dirname(path))
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as file:
            write(file)
        os.replace(temporary, path)
    except Exception:
        with contextlib.suppress(OSError):
            os.unlink(temporary)


_PARSER_FILES = ("ast.py", "grammar.py", "parse.py", "parser_cache.py")
_SCRIPTS_KEPT = 200


@functools.cache
def _code_tag() -> str:
    """What the syntax trees depend on: the Python version and the parser's source files
    (their sizes and modification times: a changed file makes new keys)."""
    here = os.path.dirname(__file__)
    parts = [f"python {sys.version_info[:3]}"]
    for name in _PARSER_FILES:
        try:
            info = os.stat(os.path.join(here, name))
        except OSError:
            return ""
        parts.append(f"{name} {info.st_size} {info.st_mtime_ns}")
    return "|".join(parts)


def cached_script(text: str, filename: str, parse: Callable[[], T]) -> T:
    """The script ``text`` (named ``filename``) parsed before, else ``parse()`` (then kept).

    Only parsed scripts are kept (a script with an error is parsed, and refused,
    every time); at most a couple of hundred files are kept, the oldest removed.
    """
    return cached_value("script", f"{filename}\0{text}", parse)


@functools.cache
def _files_tag(packages: tuple[str, ...]) -> str:
    """The sizes and modification times of every source file of these croupier packages
    (``""`` when one cannot be read: then nothing is cached)."""
    root = os.path.dirname(os.path.dirname(__file__))
    parts = []
    for package in packages:
        folder = os.path.join(root, *package.split("."))
        try:
            names = sorted(n for n in os.listdir(folder) if n.endswith((".py", ".pyx", ".so")))
            for name in names:
                info = os.stat(os.path.join(folder, name))
                parts.append(f"{package}/{name} {info.st_size} {info.st_mtime_ns}")
        except OSError:
            return ""
    return "|".join(parts)


def cached_value(kind: str, key: str, build: Callable[[], T], *, code: tuple[str, ...] = ()) -> T:
    """The value kept under ``kind`` and ``key``, else ``build()`` (then kept, pickled).

    ``key`` names everything the value is computed from; ``code`` the croupier
    packages whose source computes it (``("simulate", "bulk")``: every file of
    ``croupier.simulate`` and ``croupier.bulk``), so a changed file makes new keys.
    At most a couple of hundred values of each kind are kept, the oldest removed.
    """
    folder = _cache_dir()
    tag = _code_tag()
    files = _files_tag(code) if code else "-"
    if folder is None or not tag or not files:
        return build()
    import pickle

    text = f"{tag}|{files}|{kind}|{key}"
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:40]
    path = os.path.join(folder, f"dealer-{kind}-{digest}.pickle")
    try:
        with open(path, "rb") as file:
            found: T = pickle.load(file)
        return found
    except Exception:  # missing or damaged: compute it again
        pass
    value = build()
    _write(path, lambda file: pickle.dump(value, file, protocol=pickle.HIGHEST_PROTOCOL))
    _prune(folder, kind)
    return value


def _prune(folder: str, kind: str) -> None:
    """Keep the newest :data:`_SCRIPTS_KEPT` values of ``kind``."""
    try:
        with os.scandir(folder) as entries:
            scripts = [
                e.path
                for e in entries
                if e.name.startswith(f"dealer-{kind}-") and e.name.endswith(".pickle")
            ]
        kept = sorted(scripts, key=lambda p: os.stat(p).st_mtime)
        for old in kept[:-_SCRIPTS_KEPT]:
            os.unlink(old)
    except OSError:
        pass
