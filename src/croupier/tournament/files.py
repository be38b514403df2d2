"""Safe file writing for board sets: atomic, and never over an existing file by accident.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_file(folder / "a.txt", b"one")
>>> write_file(folder / "a.txt", b"two")
Traceback (most recent call last):
...
croupier.tournament.files.ExistingFileError: ... already exists; ...
>>> write_file(folder / "a.txt", b"two", overwrite=True); (folder / "a.txt").read_bytes()
b'two'
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from croupier.errors import FileFormatError

__all__ = ["ExistingFileError", "check_new_files", "write_file"]


class ExistingFileError(FileFormatError):
    """A file croupier was asked to write exists already (and overwriting was not asked for)."""


def check_new_files(paths: Iterable[Path], *, overwrite: bool = False) -> None:
    """Raise before writing anything when one of ``paths`` exists (unless ``overwrite``).

    >>> check_new_files([Path("/nonexistent/croupier/a.pbn")])
    """
    if overwrite:
        return
    for path in paths:
        if path.exists():
            raise ExistingFileError(
                f"{str(path)!r} already exists; croupier never overwrites a file silently "
                "(choose another name or pass --overwrite)"
            )


def write_file(path: Path, data: bytes, *, overwrite: bool = False) -> None:
    """Write ``data`` to ``path`` atomically (temporary file in the same folder, then rename).

    See the module docstring for an example.
    """
    path = Path(path)
    check_new_files([path], overwrite=overwrite)
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        if not overwrite and path.exists():
            raise ExistingFileError(f"{str(path)!r} appeared while writing; not overwritten")
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
