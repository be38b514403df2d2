"""Temporary buckets of the out-of-core file shuffles, shared by
:mod:`croupier.legacy.extshuffle` and :mod:`croupier.scale.file_shuffle`.

A bucket is two files in a temporary folder: the record bytes and a side file of
fixed-size metadata (keys and lengths).  A write that fails (a full disk) is one
:class:`~croupier.files.FileWriteError` naming the folder, never a traceback.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     bucket = TempBucket(Path(folder), "b0")
...     bucket.open(); bucket.write_data(b"xy"); bucket.close()
...     size = bucket.data_path.stat().st_size
...     bucket.remove()
...     size, bucket.data_path.exists()
(2, False)
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO, cast

import numpy as np
import numpy.typing as npt

from croupier.files import FileWriteError

__all__ = ["BucketWriter", "TempBucket", "bucket_error", "same_file", "write_scattered"]


class TempBucket:
    """One temporary bucket: a data file (record bytes) and a side file (key, length)."""

    def __init__(self, folder: Path, name: str) -> None:
        self.data_path = folder / f"{name}.data"
        self.meta_path = folder / f"{name}.meta"
        self.data: BinaryIO | None = None
        self.meta: BinaryIO | None = None

    def open(self) -> None:
        self.data = open(self.data_path, "wb")  # noqa: SIM115 - closed by close()
        self.meta = open(self.meta_path, "wb")  # noqa: SIM115

    def write_data(self, data: npt.NDArray[np.uint8] | bytes) -> None:
        assert self.data is not None
        try:
            self.data.write(cast(Any, data))
        except OSError as exc:
            raise bucket_error(self.data_path, exc) from None

    def write_meta(self, meta: npt.NDArray[np.void]) -> None:
        assert self.meta is not None
        try:
            self.meta.write(meta.tobytes())
        except OSError as exc:
            raise bucket_error(self.meta_path, exc) from None

    def close(self) -> None:
        for handle in (self.data, self.meta):
            if handle is not None:
                try:
                    handle.close()
                except OSError as exc:
                    raise bucket_error(self.data_path, exc) from None
        self.data = self.meta = None

    def remove(self) -> None:
        for path in (self.data_path, self.meta_path):
            with contextlib.suppress(OSError):
                path.unlink()


def bucket_error(path: Path, exc: OSError) -> FileWriteError:
    """The one-line error of a failed write to the bucket file ``path``."""
    reason = (exc.strerror or type(exc).__name__).lower()
    return FileWriteError(
        f"cannot write the temporary buckets in {str(path.parent.parent)!r}: {reason} "
        "(nothing was written; the temporaries are removed)"
    )


def same_file(a: Path, b: Path) -> bool:
    """Whether ``a`` and ``b`` are the same file (by path when either does not exist)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


def write_scattered(
    buckets: list[TempBucket],
    gathered: npt.NDArray[np.uint8],
    meta: npt.NDArray[np.void],
    counts: npt.NDArray[np.intp],
    lengths: npt.NDArray[Any],
    put: Callable[[Callable[[Any], object], Any], object] | None = None,
) -> None:
    """Append to each bucket its run of records sorted by bucket.

    ``gathered`` holds the records' bytes one after another, ``lengths`` their
    lengths and ``meta`` their side records, all in bucket order; ``counts[b]``
    records go to ``buckets[b]``.  With ``put`` each write ``w(part)`` is
    handed to ``put(w, part)`` instead (a
    :class:`~croupier.scale.write_behind.WriteBehind`: ``gathered`` and
    ``meta`` are not changed afterwards).
    """
    if put is None:
        put = _write_now
    record_ends = np.cumsum(counts)
    byte_ends = np.cumsum(lengths)
    for b in np.flatnonzero(counts).tolist():
        r1 = int(record_ends[b])
        r0 = r1 - int(counts[b])
        b0 = int(byte_ends[r0 - 1]) if r0 else 0
        put(buckets[b].write_data, gathered[b0 : int(byte_ends[r1 - 1])])
        put(buckets[b].write_meta, meta[r0:r1])


def _write_now(write: Callable[[Any], object], part: Any) -> None:
    write(part)


class BucketWriter:
    """Appends to open buckets through their file descriptors, in one compiled call per run
    of pieces and without the interpreter lock (``croupier._core.record_kernels``).

    Every write to these buckets must go through it while it is used (their
    buffered handles are left empty).
    """

    def __init__(self, buckets: list[TempBucket]) -> None:
        self.buckets = buckets
        handles = [(b.data, b.meta) for b in buckets]
        if any(data is None or meta is None for data, meta in handles):
            raise ValueError("the buckets must be open")
        self.data_fds = np.array([data.fileno() for data, _ in handles], np.int32)  # type: ignore[union-attr]
        self.meta_fds = np.array([meta.fileno() for _, meta in handles], np.int32)  # type: ignore[union-attr]

    def write_runs(
        self,
        gathered: npt.NDArray[np.uint8],
        meta: npt.NDArray[np.void],
        counts: npt.NDArray[np.intp],
        lengths: npt.NDArray[Any],
    ) -> None:
        """What :func:`write_scattered` writes, in two calls."""
        record_bounds = np.zeros(len(self.buckets) + 1, np.int64)
        np.cumsum(counts, out=record_bounds[1:])
        byte_ends = np.zeros(lengths.size + 1, np.int64)
        np.cumsum(lengths, out=byte_ends[1:])
        self._write(self.data_fds, gathered, byte_ends[record_bounds], "data_path", 0)
        raw = meta.view(np.uint8).reshape(-1)
        self._write(self.meta_fds, raw, record_bounds * meta.dtype.itemsize, "meta_path", 0)

    def write_data(self, b: int, part: npt.NDArray[np.uint8]) -> None:
        """Append ``part`` to bucket ``b``'s data."""
        bounds = np.array([0, part.size], np.int64)
        self._write(self.data_fds[b : b + 1], part, bounds, "data_path", b)

    def write_meta(self, b: int, meta: npt.NDArray[np.void]) -> None:
        """Append the side records ``meta`` to bucket ``b``."""
        raw = meta.view(np.uint8).reshape(-1)
        bounds = np.array([0, raw.size], np.int64)
        self._write(self.meta_fds[b : b + 1], raw, bounds, "meta_path", b)

    def _write(
        self,
        fds: npt.NDArray[np.int32],
        data: npt.NDArray[np.uint8],
        bounds: npt.NDArray[np.int64],
        which: str,
        first: int,
    ) -> None:
        from croupier._core import record_kernels

        failed, code = record_kernels.write_pieces(fds, np.ascontiguousarray(data), bounds)
        if failed >= 0:
            path = getattr(self.buckets[first + failed], which)
            raise bucket_error(path, OSError(code, os.strerror(code))) from None
