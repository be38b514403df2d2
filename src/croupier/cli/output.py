"""Standard output of the ``croupier`` program: the one place every command writes through.

Every command prints with ``print``, ``typer.echo`` or ``sys.stdout.buffer.write``;
:func:`install` makes ``sys.stdout`` a buffered text stream over
:class:`StandardOutput`, whose :meth:`~StandardOutput.write` is the only code that
hands bytes of standard output to the operating system (through :func:`write_fd`).
So:

* a partial write is retried until every byte is out or the system says why not
  (Python's own unbuffered standard output, with ``PYTHONUNBUFFERED`` set or
  ``python -u``, silently drops the rest of a partial write: a full disk then
  left a truncated file and exit code 0);
* a failure is an :class:`OutputError` (an :class:`OSError` with the same
  ``errno``), which the command line reports as one line
  ``error: cannot write the output: no space left on device`` and a non-zero exit;
* after a failure, the rest of the output is dropped (:meth:`~StandardOutput.discard`),
  so the exit-time flush cannot fail a second time.

A closed pipe (``croupier deal -n 1000000 | head``) stays a :class:`BrokenPipeError`,
which ends the program quietly (no ``error:`` line).

>>> chunks = []
>>> raw = StandardOutput(1, write=lambda fd, data: chunks.append(bytes(data[:3])) or 3)
>>> raw.write(b"abcdefgh"), b"".join(chunks)
(8, b'abcdefgh')
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Callable
from typing import TextIO, TypeVar

__all__ = [
    "BUFFER_BYTES",
    "STANDARD_OUTPUT",
    "OutputError",
    "StandardOutput",
    "file_or_standard_output",
    "install",
    "output_failed",
    "write_fd",
]

STANDARD_OUTPUT = "-"
"""What ``--out``/``-o`` (and every file argument that is written) takes for standard output."""

PathT = TypeVar("PathT", bound=str | os.PathLike[str])


def file_or_standard_output(out: PathT | None) -> PathT | None:
    """``out`` as given, or ``None`` (standard output) for ``-``, as every command reads ``-o -``.

    >>> from pathlib import Path
    >>> file_or_standard_output(Path("-")), file_or_standard_output("deals.pbn")
    (None, 'deals.pbn')

    A file that is really named ``-`` is written by giving its whole path (``$PWD/-``).
    """
    if out is None:
        return None
    return None if str(out) == STANDARD_OUTPUT else out


BUFFER_BYTES = 1 << 16
"""Bytes gathered before a write to the operating system (64 KiB)."""

WriteFunction = Callable[[int, memoryview], int]


def write_fd(fd: int, data: memoryview) -> int:
    """Hand ``data`` to the operating system; return how many bytes it took.

    The one call through which standard output leaves the program (tests replace
    it to simulate a full disk on any machine).
    """
    return os.write(fd, data)


class OutputError(OSError):
    """Standard output could not be written (a full disk, a read-only file, ...)."""

    def describe(self) -> str:
        """What went wrong, in words: ``cannot write the output: no space left on device``."""
        from croupier.files import os_error_words  # (pathlib and more: only after a failure)

        return f"cannot write the output: {os_error_words(self)}"


class StandardOutput(io.RawIOBase):
    """File descriptor ``fd`` as a raw stream that writes every byte or raises.

    ``write`` is the function that performs one system write (default
    :func:`write_fd`, looked up at each call).
    """

    def __init__(self, fd: int, *, write: WriteFunction | None = None) -> None:
        super().__init__()
        self._fd = fd
        self._write = write
        self._discarding = False

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:
        try:
            return os.isatty(self._fd)
        except OSError:
            return False

    def discard(self) -> None:
        """Drop everything written from now on (after a failure has been reported)."""
        self._discarding = True

    @property
    def discarding(self) -> bool:
        """Whether output is being dropped after a failure."""
        return self._discarding

    def write(self, data: object) -> int:
        view = memoryview(data).cast("B")  # type: ignore[arg-type]
        total = len(view)
        if self._discarding:
            return total
        write = self._write or write_fd
        done = 0
        while done < total:
            try:
                written = write(self._fd, view[done:])
            except (BrokenPipeError, InterruptedError):
                raise
            except OSError as exc:
                raise OutputError(exc.errno, exc.strerror or str(exc)) from None
            if written <= 0:  # a write that takes nothing and says nothing: give up, not spin
                raise OutputError(0, "the system accepted no bytes")
            done += written
        return total


def install(fd: int = 1, *, write: WriteFunction | None = None) -> StandardOutput | None:
    """Make ``sys.stdout`` a buffered text stream over :class:`StandardOutput` on ``fd``.

    The text encoding and error handler of the current ``sys.stdout`` are kept;
    a terminal gets line buffering.  Returns the raw stream, or ``None`` when
    ``fd`` is not open (nothing is changed then).
    """
    try:
        os.fstat(fd)
    except OSError:
        return None
    previous: TextIO | None = sys.stdout
    encoding = getattr(previous, "encoding", None) or "utf-8"
    errors = getattr(previous, "errors", None) or "strict"
    if previous is not None:
        with contextlib.suppress(OSError, ValueError):
            previous.flush()
    raw = StandardOutput(fd, write=write)
    buffered = io.BufferedWriter(raw, buffer_size=BUFFER_BYTES)
    sys.stdout = io.TextIOWrapper(
        buffered, encoding=encoding, errors=errors, line_buffering=raw.isatty()
    )
    return raw


def output_failed() -> None:
    """After reporting a failed write: drop the rest of standard output, if it is ours."""
    buffer = getattr(sys.stdout, "buffer", None)
    raw = getattr(buffer, "raw", None)
    if isinstance(raw, StandardOutput):
        raw.discard()
