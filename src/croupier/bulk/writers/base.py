"""What every bulk writer does: take deal arrays batch by batch, write each whole, then close.

A writer is bound to a binary stream (a file opened ``"wb"``, ``sys.stdout.buffer``,
``io.BytesIO``) and a layout.  :meth:`DealWriter.write` renders a whole batch
before writing any of it, so a batch is either all in the output or not at
all; after any batch, :meth:`DealWriter.close` finishes a valid file.
:meth:`~DealWriter.close` does not close the stream (its owner does).

>>> import io
>>> from croupier.bulk import deal_array
>>> from croupier.bulk.writers import OnelineWriter
>>> out = io.BytesIO()
>>> with OnelineWriter(out, deal_array(0).layout) as writer:
...     writer.write(deal_array(3, seed="a"))
>>> writer.rows_written, out.getvalue().count(b"\\n")
(3, 3)
"""

from __future__ import annotations

from types import TracebackType
from typing import IO, Any, Protocol, Self, runtime_checkable

import numpy as np

from croupier.bulk.array import DealArray
from croupier.dealing.layout import Layout
from croupier.errors import CroupierError

__all__ = ["BaseWriter", "BulkWriterError", "DealWriter"]


class BulkWriterError(CroupierError):
    """A bulk writer used wrongly: another layout, writing after close, bad options."""


@runtime_checkable
class DealWriter(Protocol):
    """Streams deal arrays of one layout into one file: ``write`` batches, then ``close``."""

    layout: Layout
    rows_written: int

    def write(self, batch: DealArray) -> None:
        """Write every deal of ``batch`` (all or nothing)."""

    def close(self) -> None:
        """Finish the file (headers, archives); the stream stays open."""


class BaseWriter:
    """Shared bookkeeping of the writers: layout check, row count, close once.

    Subclasses set ``format_name`` and implement ``_write_rows`` (given a
    batch's piles array) and, when the format has a trailer, ``_finish``.
    """

    format_name = "?"

    def __init__(self, stream: IO[bytes], layout: Layout) -> None:
        self.stream = stream
        self.layout = layout
        self.rows_written = 0
        self.closed = False

    def error(self, message: str) -> BulkWriterError:
        """A :class:`BulkWriterError` naming this writer's format."""
        return BulkWriterError(f"{self.format_name} writer: {message}")

    def write(self, batch: DealArray) -> None:
        """Write every deal of ``batch``: rendered whole first, then written in one go."""
        if self.closed:
            raise self.error("write() after close()")
        if not isinstance(batch, DealArray):
            raise self.error(f"write() takes a DealArray, not {type(batch).__name__}")
        if batch.layout != self.layout:
            raise self.error(
                f"a batch of layout {batch.layout.game!r} cannot go into a file of "
                f"{self.layout.game!r}; one writer takes one layout"
            )
        self._write_batch(batch)
        self.rows_written += len(batch)

    def _write_batch(self, batch: DealArray) -> None:
        self._write_rows(batch.piles)

    def _write_rows(self, piles: np.ndarray[Any, np.dtype[np.uint8]]) -> None:
        raise NotImplementedError

    def _finish(self) -> None:
        """Write what the format needs at the end (nothing by default)."""

    def close(self) -> None:
        """Finish the file once (later calls do nothing); flushes the stream."""
        if self.closed:
            return
        self.closed = True
        self._finish()
        self.stream.flush()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.layout.game}: {self.rows_written} deals>"
