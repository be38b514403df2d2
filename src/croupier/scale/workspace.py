"""The temporary folder of an out-of-core run: named, found again, removed.

A run keeps its buckets in one folder, ``.croupier-extshuffle-<host>-<pid>-<start>.tmp``,
created next to its output (same filesystem).  ``<host>`` is a hash of the
host name, ``<pid>`` the process id and ``<start>`` the start time in
milliseconds, so a later run on the same host recognises the folder of a
run whose process is gone (killed) and removes it
(:func:`remove_stale_workspaces`).  Sizes on the command line are parsed by
:func:`parse_size`.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> work = make_workspace(folder)
>>> work.name.startswith(".croupier-extshuffle-"), remove_stale_workspaces(folder)
(True, [])
>>> remove_workspace(work); work.exists()
False
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import time
from pathlib import Path

from croupier.errors import CroupierError, FileFormatError, excerpt
from croupier.files import HOST_TAG, pid_is_gone

__all__ = [
    "WORKSPACE_PREFIX",
    "check_free_space",
    "make_workspace",
    "parse_size",
    "remove_stale_workspaces",
    "remove_workspace",
]

WORKSPACE_PREFIX = ".croupier-extshuffle-"
"""How the name of every temporary folder of an out-of-core shuffle starts."""

_WORKSPACE = re.compile(r"\.croupier-extshuffle-([0-9a-f]{8})-([0-9]{1,10})-([0-9]{1,16})\.tmp")
_UNITS = {"": 1, "B": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
_SIZE = re.compile(r"([0-9]{1,16})\s*([KMGT]?)(?:I?B)?", re.IGNORECASE | re.ASCII)
MAX_SIZE = 2**50
"""The largest size :func:`parse_size` reads (1 PiB)."""


def parse_size(text: str, *, what: str = "size") -> int:
    """A size in bytes from ``256M``, ``1G``, ``200000K``, ``4096`` (powers of 1024).

    Only ASCII letters and digits are read (the Kelvin sign ``\u212a`` is not a
    ``K``), and at most 16 digits; sizes above 1 PiB are refused.

    >>> parse_size("256M"), parse_size("1g"), parse_size("200000K"), parse_size("4096")
    (268435456, 1073741824, 204800000, 4096)
    >>> parse_size("lots", what="memory")
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: bad memory 'lots': give a number of bytes with an optional K, ...
    >>> parse_size("9\u212a")
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: bad size '9K': give a number of bytes with an optional K, ...
    """
    match = _SIZE.fullmatch(text.strip())
    if match is None:
        raise CroupierError(
            f"bad {what} {excerpt(text)}: give a number of bytes with an optional K, M, G or T "
            "(powers of 1024), such as 256M"
        )
    value = int(match.group(1)) * _UNITS[match.group(2).upper()]
    if value > MAX_SIZE:
        raise CroupierError(f"bad {what} {excerpt(text)}: more than 1 PiB")
    return value


def _human(n: int) -> str:
    """``n`` bytes in a short human form.

    >>> _human(3 * 2**30), _human(1536), _human(12)
    ('3.0 GiB', '1.5 KiB', '12 B')
    """
    for unit, size in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n} B"


def make_workspace(folder: Path) -> Path:
    """Create this run's temporary folder in ``folder`` (private: mode 0700)."""
    name = f"{WORKSPACE_PREFIX}{HOST_TAG}-{os.getpid()}-{time.time_ns() // 10**6}.tmp"
    path = Path(folder) / name
    try:
        path.mkdir(mode=0o700)
    except OSError as exc:
        reason = (exc.strerror or type(exc).__name__).lower()
        raise FileFormatError(
            f"cannot create a temporary folder in {str(folder)!r}: {reason}"
        ) from None
    return path


def remove_workspace(path: Path) -> None:
    """Remove a temporary folder and everything in it (quietly if it is gone)."""
    shutil.rmtree(path, ignore_errors=True)
    with contextlib.suppress(OSError):
        path.rmdir()


def remove_stale_workspaces(folder: Path) -> list[Path]:
    """Remove the temporary folders of runs on this host whose process is gone; list them.

    A folder of another host, or of a process that still runs, is kept.
    """
    removed: list[Path] = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    for name in names:
        match = _WORKSPACE.fullmatch(name)
        if match is None or match.group(1) != HOST_TAG:
            continue
        pid = int(match.group(2))
        if pid == os.getpid() or not pid_is_gone(pid):
            continue
        path = Path(folder) / name
        remove_workspace(path)
        if not path.exists():
            removed.append(path)
    return removed


def check_free_space(folder: Path, needed: int, what: str) -> None:
    """Refuse, before any work, when ``folder``'s filesystem has less than ``needed`` bytes free.

    >>> check_free_space(Path("."), 2**62, "the buckets and the output")
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: not enough disk space in '.': ... needed for the buckets ...
    """
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        return
    if free < needed:
        raise FileFormatError(
            f"not enough disk space in {str(folder)!r}: {_human(needed)} ({needed:,} bytes) "
            f"needed for {what}, {_human(free)} ({free:,} bytes) free"
        )
