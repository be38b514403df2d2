"""Read a file named by the user, never more than a limit: endless inputs cost nothing.

:func:`read_limited` reads at most ``limit + 1`` bytes, so a caller can tell
a file over its limit from one at the limit without reading the rest.  The
size is never taken from ``stat``: ``/dev/zero``, a FIFO or a file that
grows while it is read have no size there (``/dev/zero`` says 0).  A missing,
unreadable or folder path is a one-line
:class:`~croupier.errors.FileFormatError`; :func:`read_within` refuses a file over its
limit in the one wording every reader uses.

>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> with open(os.path.join(folder, "k.key"), "wb") as f:
...     _ = f.write(b"ab" * 10)
>>> read_within(Path(folder) / "k.key", 8, what="a key file")
Traceback (most recent call last):
...
croupier.errors.FileFormatError: k.key has more than 8 bytes (8 bytes), the most a key file holds
>>> read_within(Path(folder) / "k.key", 20, what="a key file")
b'abababababababababab'
"""

from __future__ import annotations

from pathlib import Path

from croupier.errors import FileFormatError

__all__ = ["read_limited", "read_within", "size_words"]


def read_limited(path: Path, limit: int) -> bytes:
    """At most ``limit + 1`` bytes of the file ``path``; more than ``limit`` means too large.

    >>> read_limited(Path("/nonexistent/croupier/a.sqd"), 10)
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: file '/nonexistent/croupier/a.sqd' not found
    >>> import tempfile
    >>> big = Path(tempfile.mkdtemp()) / "big.sqd"
    >>> _ = big.write_bytes(b"x" * 10_000)
    >>> len(read_limited(big, 4096))  # one byte past the limit, never the whole file
    4097
    """
    if limit < 0:
        raise ValueError(f"limit={limit} is not a size")
    try:
        with open(path, "rb") as handle:
            return handle.read(limit + 1)
    except FileNotFoundError:
        raise FileFormatError(f"file {str(path)!r} not found") from None
    except IsADirectoryError:
        raise FileFormatError(f"{str(path)!r} is a folder; give a file") from None
    except PermissionError:
        raise FileFormatError(f"file {str(path)!r} cannot be read (permission denied)") from None
    except OSError as exc:
        from croupier.files import read_failure

        raise FileFormatError(f"cannot read {str(path)!r}: {read_failure(exc)}") from None


def size_words(limit: int) -> str:
    """``limit`` bytes as the limits are written: ``4 KiB``, ``16 MiB``, else a number.

    >>> size_words(4096), size_words(16 * 2**20), size_words(1000), size_words(2**40)
    ('4 KiB', '16 MiB', '1,000 bytes', '1 TiB')
    """
    for unit, size in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if limit >= size and limit % size == 0:
            return f"{limit // size} {unit}"
    return f"{limit:,} bytes"


def read_within(
    path: Path,
    limit: int,
    *,
    what: str,
    label: str | None = None,
    hint: str = "",
    error: type[FileFormatError] = FileFormatError,
) -> bytes:
    """The bytes of ``path``, or a one-line ``error`` when it holds more than ``limit`` bytes.

    The message names the file (``label``, by default its name), the limit, and ``what``
    the file is (``"a key file"``), then ``hint``; it never quotes the file, which may
    hold a secret.  At most one byte past the limit is read.
    """
    path = Path(path)
    data = read_limited(path, limit)
    if len(data) > limit:
        shown = path.name if label is None else label
        raise error(
            f"{shown} has more than {limit:,} bytes ({size_words(limit)}), the most {what} "
            f"holds{hint}"
        )
    return data
