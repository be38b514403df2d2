"""Safe file reading and writing: atomic writes, never over an existing file by accident.

A file is written to a temporary file in the target's folder and then moved
into place in one step, so a reader never sees half a file.  Unless
``overwrite`` is asked for, the move is a hard link that fails when the name
is taken, so even a file that appears while croupier is writing is never
replaced.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_file(folder / "a.txt", b"one")
>>> write_file(folder / "a.txt", b"two")
Traceback (most recent call last):
...
croupier.files.ExistingFileError: ... already exists; ...
>>> write_file(folder / "a.txt", b"two", overwrite=True); read_file(folder / "a.txt")
b'two'

Errors name the Python parameter (``overwrite=``); the command line shows the
matching flag instead.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from croupier.errors import FileFormatError

__all__ = ["ExistingFileError", "check_new_files", "read_file", "write_file"]


class ExistingFileError(FileFormatError):
    """A file croupier was asked to write exists already (and overwriting was not asked for)."""


def _exists_error(path: Path) -> ExistingFileError:
    return ExistingFileError(
        f"{str(path)!r} already exists; croupier never overwrites a file silently "
        "(choose another name, or overwrite= to replace it)"
    )


def check_new_files(paths: Iterable[Path], *, overwrite: bool = False) -> None:
    """Raise before writing anything when one of ``paths`` cannot be written as a new file.

    A path naming a folder, or in a folder that does not exist, is refused
    even with ``overwrite``; an existing file is refused unless ``overwrite``.

    >>> check_new_files([Path("/nonexistent/croupier/a.pbn")])
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: cannot write '/nonexistent/croupier/a.pbn': ...
    """
    for path in paths:
        folder = path.parent if str(path.parent) else Path(".")
        if path.is_dir():
            raise FileFormatError(f"cannot write {str(path)!r}: it is a folder; give a file name")
        if not folder.is_dir():
            raise FileFormatError(
                f"cannot write {str(path)!r}: folder {str(folder)!r} does not exist"
            )
        if path.exists() and not overwrite:
            raise _exists_error(path)


def write_file(path: Path, data: bytes, *, overwrite: bool = False, private: bool = False) -> None:
    """Write ``data`` to ``path`` atomically (temporary file in the same folder, then rename).

    The file gets the usual permissions (``0666`` less the umask), or ``0600``
    with ``private=True`` (for secret keys).  See the module docstring for an
    example.
    """
    path = Path(path)
    check_new_files([path], overwrite=overwrite)
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        if not private:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        if overwrite:
            os.replace(tmp, path)
        else:
            _move_without_overwrite(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _move_without_overwrite(tmp: str, path: Path) -> None:
    """Give ``tmp`` the name ``path`` unless that name is taken (atomically where possible)."""
    try:
        os.link(tmp, path)  # fails if path exists, even if it appeared a moment ago
    except FileExistsError:
        raise _exists_error(path) from None
    except OSError:  # pragma: no cover - file systems without hard links
        if path.exists():
            raise _exists_error(path) from None
        os.replace(tmp, path)


def read_file(path: Path) -> bytes:
    """The bytes of the file ``path``; a missing, unreadable or folder path is a one-line error.

    >>> read_file(Path("/nonexistent/croupier/a.sqd"))
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: file '/nonexistent/croupier/a.sqd' not found
    """
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise FileFormatError(f"file {str(path)!r} not found") from None
    except IsADirectoryError:
        raise FileFormatError(f"{str(path)!r} is a folder; give a file") from None
    except PermissionError:
        raise FileFormatError(f"file {str(path)!r} cannot be read (permission denied)") from None
