"""The exact shuffle of a file's records by ``croupier-keyed-split/1``, in memory or out of core.

The records (lines, NUL-terminated records or fixed-size blocks; see
:mod:`croupier.scale.records`) are put in the order of the keyed split shuffle
(:mod:`croupier.scale.keyed_split`): record ``i`` gets a ``K``-bit key from
its index, the records with one key form a leaf, and each leaf is arranged
from its own stream.  When the file fits in ``memory`` this runs in memory,
vectorised; otherwise in passes through temporary buckets: the buckets are
the top bits of the keys, so every bucket holds whole leaves and is ordered
alone, exactly as in memory.  **The output never depends on ``memory``.**

1. count the records (a regular file is read once; standard input larger than
   ``memory`` is first saved to a temporary file);
2. scatter every record (its bytes, and its key and length in a side file)
   to the bucket its key's top bits name;
3. order each bucket in key order: load it, sort it by key, arrange its
   leaves, write it (a bucket too large for ``memory`` is scattered again by
   the next key bits; a single leaf too large is copied record by record).

>>> import io
>>> from croupier.randomness import SeededSource
>>> text = b"".join(b"line %d\\n" % i for i in range(3000))
>>> def run(memory: int) -> bytes:
...     out = io.BytesIO()
...     shuffle_stream(io.BytesIO(text), out.write, source=SeededSource("doc", "shuffle-file"),
...                    memory=memory, size=len(text), workspace=tempfile.mkdtemp)
...     return out.getvalue()
>>> a = run(2**24)
>>> a != text and sorted(a.splitlines()) == sorted(text.splitlines())
True
>>> run(2**12) == a  # through temporary buckets: the same order
True
"""

from __future__ import annotations

import collections
import contextlib
import math
import os
import stat
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import numpy.typing as npt

from croupier.bounded_read import size_words
from croupier.errors import CroupierError, FileFormatError
from croupier.files import AtomicFile, check_new_files, read_failure
from croupier.randomness.source import BitSource, OsRandomSource
from croupier.scale.buckets import BucketWriter, TempBucket, bucket_error, same_file
from croupier.scale.keyed_split import (
    KEYED_SPLIT_ALGORITHM_ID,
    KeyedParams,
    KeyedStreams,
    LeafDraws,
    keyed_order,
    keyed_pieces,
)
from croupier.scale.records import (
    BOM,
    OutputSink,
    RecordFormat,
    count_separators,
    emit,
    gather,
    read_finding,
    read_into,
    record_ends,
    stdin_bytes,
)
from croupier.scale.workspace import (
    check_free_space,
    make_workspace,
    remove_stale_workspaces,
    remove_workspace,
)
from croupier.scale.write_behind import WriteBehind
from croupier.shuffling import bounds

__all__ = [
    "BYTES_PER_RECORD",
    "MAX_RECORDS",
    "MAX_RECORD_BYTES",
    "MAX_SPOOL_BYTES",
    "FileShuffleReport",
    "RecordLimits",
    "shuffle_file_records",
    "shuffle_stream",
]

BYTES_PER_RECORD = 72
"""Memory counted per record on top of its bytes (offsets, key, order, leaf digits)."""

META = np.dtype([("key", "<u8"), ("len", "<u4")])
"""A record in a bucket's side file: its key and its length (12 bytes)."""

MAX_RECORD_BYTES = 2**30
"""The longest record shuffled (1 GiB, its ending included): a line, a NUL-terminated record,
or ``--records N``.  An input without a separator (``/dev/zero`` read as lines) is one endless
record: it is refused after one byte more than this is read."""

MAX_RECORDS = 2**40
"""The most records one shuffle takes (about 10¹²): an endless input of short records stops
here at the latest (the disk-space rule for standard input stops it sooner)."""

MAX_SPOOL_BYTES = 2**40
"""The most bytes of standard input (or of any input that is not a regular file) saved to a
temporary file when it does not fit in memory (1 TiB).  The copy also stops as soon as the
disk could not hold what the rest of the run needs (see :func:`shuffle_file_records`)."""

MAX_BUCKETS = 256
_MIN_CHUNK = 1 << 16
_MAX_CHUNK = 1 << 24

Advance = Callable[[int], object]
Write = Callable[[Any], object]


@dataclass
class FileShuffleReport:
    """What a file shuffle did: records, bytes, key bits, buckets, passes and random bits.

    >>> r = FileShuffleReport(records=4, bytes=20, key_bits=0, bits_used=7)
    >>> round(r.log2_factorial, 3), r.bits_per_record
    (4.585, 1.75)
    """

    records: int = 0
    bytes: int = 0
    key_bits: int = 0
    bits_used: int = 0
    buckets: int = 0
    passes: int = 1
    resplit_buckets: int = 0
    big_leaves: int = 0
    spooled: bool = False
    algorithm: str = KEYED_SPLIT_ALGORITHM_ID
    removed_leftovers: list[Path] = field(default_factory=list)

    @property
    def log2_factorial(self) -> float:
        """``log2(n!)``: the fewest bits any exact shuffle of ``n`` records needs on average."""
        return bounds.log2_factorial(self.records)

    @property
    def bits_per_record(self) -> float:
        """Random bits used per record (the keys and the leaf draws)."""
        return self.bits_used / self.records if self.records else 0.0


def _cost(nbytes: int, records: int) -> int:
    """Memory to order ``records`` records of ``nbytes`` bytes in memory."""
    return nbytes + BYTES_PER_RECORD * records


def _slice_bytes(memory: int) -> int:
    """Output gathered at a time: 2 MiB, less under a small memory limit."""
    return max(1 << 16, min(1 << 21, memory // 16))


def place_type(size: int) -> type[np.signedinteger[Any]]:
    """The type of record places in ``size`` bytes: 32-bit when they fit (less memory)."""
    return np.int32 if size < 2**31 - 2 else np.int64


def _too_long(what: str) -> CroupierError:
    return CroupierError(
        f"{what} has a record of more than {MAX_RECORD_BYTES:,} bytes "
        f"({size_words(MAX_RECORD_BYTES)}), the longest croupier shuffles; an input with no "
        "record separator (such as /dev/zero read as lines) is one endless record"
    )


def _too_many(what: str) -> CroupierError:
    return CroupierError(
        f"{what} has more than {MAX_RECORDS:,} records, the most one croupier shuffle takes"
    )


class RecordLimits:
    """Counts the records of an input as its bytes go by and refuses one past the limits.

    ``records`` is the complete records seen, ``open`` the bytes of the record not yet
    ended.  Each block costs one pass of the compiled core over its bytes (counting them).

    >>> limits = RecordLimits(RecordFormat(), "x")
    >>> limits.take(np.frombuffer(b"ab\\ncd", np.uint8)); (limits.records, limits.open)
    (1, 2)
    """

    def __init__(self, fmt: RecordFormat, what: str) -> None:
        self.fmt = fmt
        self.what = what
        self.records = 0
        self.open = 0
        self.seen = 0

    def take(self, block: npt.NDArray[np.uint8]) -> None:
        """Count ``block``, the next bytes of the input."""
        self.seen += block.size
        if self.fmt.record_size is not None:
            self.records = self.seen // self.fmt.record_size
        elif block.size:
            from croupier._core import record_kernels

            separator = self.fmt.separator
            assert separator is not None
            count, first, last = record_kernels.separator_span(
                np.ascontiguousarray(block), separator
            )
            if not count:
                self.open += block.size
            else:
                if self.open + first + 1 > MAX_RECORD_BYTES:
                    raise _too_long(self.what)
                if block.size > MAX_RECORD_BYTES:  # (records inside one block: never at 1 GiB)
                    places = np.flatnonzero(block == separator)
                    if places.size > 1 and int(np.diff(places).max()) > MAX_RECORD_BYTES:
                        raise _too_long(self.what)
                self.records += count
                self.open = block.size - 1 - last  # the bytes after the last separator
            if self.open >= MAX_RECORD_BYTES:  # its ending is still to come
                raise _too_long(self.what)
        if self.records > MAX_RECORDS:
            raise _too_many(self.what)


class _Layout:
    """Where the records of an in-memory buffer are: BOM, starts, lengths, an added ending."""

    def __init__(
        self,
        data: npt.NDArray[np.uint8],
        size: int,
        fmt: RecordFormat,
        what: str = "the input",
        found: npt.NDArray[Any] | None = None,
    ) -> None:
        """``data`` holds the ``size`` input bytes and room for two more (an added ending);
        the records are found in two threads (:func:`record_ends`) unless ``found`` holds
        their ends already (of all ``size`` bytes: a byte-order mark holds no separator)."""
        self.bom = _bom(data, size, fmt)
        body = data[self.bom : size]
        place = place_type(size)
        small = place is np.int32
        if found is not None and found.dtype == place:
            ends = found
        else:
            ends = record_ends(body, fmt, offset=self.bom, dtype=place)
        self.open = _open_end(data, size, fmt, self.bom)
        if self.open:
            previous = (
                bytes(data[max(self.bom, int(ends[-1]) - 2) : int(ends[-1])]) if ends.size else b""
            )
            ending = fmt.ending_after(previous)
            data[size : size + len(ending)] = np.frombuffer(ending, np.uint8)
            ends = np.append(ends, np.array([size + len(ending)], place))
        # (the records lie end to end: record i is bytes bounds[i] .. bounds[i + 1] - 1)
        self.bounds: npt.NDArray[Any] = np.empty(ends.size + 1, place)
        self.bounds[0] = self.bom
        self.bounds[1:] = ends
        del ends
        self.starts: npt.NDArray[Any] = self.bounds[:-1]
        lengths = np.diff(self.bounds)
        if lengths.size and int(lengths.max()) > MAX_RECORD_BYTES:
            raise _too_long(what)
        self.lengths = lengths.view(np.uint32) if small else lengths.astype(np.uint32)


def _bom(data: npt.NDArray[np.uint8], size: int, fmt: RecordFormat) -> int:
    """The bytes of a byte-order mark at the start of lines (3 or 0)."""
    return 3 if fmt.lines and size >= 3 and bytes(data[:3]) == BOM else 0


def _open_end(data: npt.NDArray[np.uint8], size: int, fmt: RecordFormat, bom: int) -> bool:
    """Whether the last record has no separator (one is added to shuffle it)."""
    return fmt.separator is not None and size > bom and int(data[size - 1]) != fmt.separator


def _record_count(
    data: npt.NDArray[np.uint8],
    size: int,
    fmt: RecordFormat,
    separators: int | None,
    what: str = "the input",
) -> int:
    """The records of the ``size`` input bytes in ``data``, from their ``separators``
    (counted now when ``None``): the records :class:`_Layout` will find."""
    if fmt.separator is None:
        assert fmt.record_size is not None
        n = size // fmt.record_size
    else:
        if separators is None:
            separators = count_separators(data[:size], fmt)
        n = separators + int(_open_end(data, size, fmt, _bom(data, size, fmt)))
    if n > MAX_RECORDS:
        raise _too_many(what)
    return n


PIECE_ITEMS = 1 << 16
"""Records arranged first in memory (written while the next are made); each later piece
is twice as large as the one before, up to :data:`PIECE_MOST`."""

PIECE_MOST = 1 << 19
"""The most records arranged at a time in memory."""


class _Arrangement:
    """The in-memory arrangement of ``n`` records, made in pieces in another thread.

    The work starts at once: the keys are drawn and the first pieces arranged
    while the caller finds where the records are.  Iterating gives the pieces in
    order (views of one array), each made while the one before is written, two
    at most ahead; ``report`` counts the bits as the pieces are taken.
    :meth:`close` stops the work (after an error, say).
    """

    def __init__(
        self, n: int, draws: LeafDraws, params: KeyedParams, report: FileShuffleReport
    ) -> None:
        from concurrent.futures import Future, ThreadPoolExecutor

        k = params.resolve(n)
        report.records, report.key_bits = n, k
        report.bits_used = n * k
        self._report = report
        made: list[Iterator[tuple[npt.NDArray[np.intp], int]]] = []

        def first() -> tuple[npt.NDArray[np.intp], int] | None:
            keys = draws.keys(0, n, k)
            made.append(keyed_pieces(keys, k, draws, params, piece=PIECE_ITEMS, most=PIECE_MOST))
            return next(made[0], None)

        def following() -> tuple[npt.NDArray[np.intp], int] | None:
            return next(made[0], None)  # (one worker: after first)

        self._next = following
        self._pool = ThreadPoolExecutor(1)
        self._ahead: collections.deque[Future[tuple[npt.NDArray[np.intp], int] | None]]
        self._ahead = collections.deque([self._pool.submit(first), self._pool.submit(following)])

    def __iter__(self) -> Iterator[npt.NDArray[np.intp]]:
        while (got := self._ahead.popleft().result()) is not None:
            self._ahead.append(self._pool.submit(self._next))
            part, bits = got
            self._report.bits_used += bits
            yield part

    def close(self) -> None:
        """Stop: the pieces not begun are dropped; the one being made is waited for."""
        for rest in self._ahead:
            rest.cancel()
        self._pool.shutdown(wait=True)


class _Run:
    """One out-of-core shuffle: the state its passes share."""

    def __init__(
        self,
        fmt: RecordFormat,
        draws: LeafDraws,
        params: KeyedParams,
        memory: int,
        report: FileShuffleReport,
        advance: Advance,
        what: str = "the input",
    ) -> None:
        self.what = what
        self.fmt = fmt
        self.draws = draws
        self.params = params
        self.memory = memory
        self.report = report
        self.advance = advance
        self.chunk = min(_MAX_CHUNK, max(_MIN_CHUNK, memory // 8))

    # -- pass 0: count ---------------------------------------------------------------------

    def count(self, handle: BinaryIO, size: int) -> tuple[int, int, bool]:
        """Records, the byte-order mark's length, and whether the last record lacks its ending."""
        fmt = self.fmt
        if fmt.record_size is not None:
            return size // fmt.record_size, 0, False
        buffer = np.empty(self.chunk, np.uint8)
        seen, last, bom = 0, -1, 0
        limits = RecordLimits(fmt, self.what)  # (a record too long is refused before scattering)
        while got := read_into(handle, buffer):
            part = buffer[:got]
            if seen == 0 and fmt.lines and got >= 3 and bytes(part[:3]) == BOM:
                bom = 3
                part = part[3:]
            limits.take(part)
            last = int(buffer[got - 1])
            seen += got
            self.advance(got)
        if seen != size:
            raise FileFormatError(
                f"the input changed while it was read ({seen:,} bytes, not {size:,})"
            )
        is_open = seen > bom and last != fmt.separator
        count = limits.records + int(is_open)
        if count > MAX_RECORDS:
            raise _too_many(self.what)
        return count, bom, is_open

    # -- pass 1: scatter -------------------------------------------------------------------

    def scatter(
        self, handle: BinaryIO, size: int, bom: int, k: int, shift: int, buckets: list[TempBucket]
    ) -> None:
        """Read the input again and append every record to the bucket its key's top bits name.

        A record that goes on past the chunk read is written as its bytes
        arrive (its key is known from its number).
        """
        fmt = self.fmt
        index = 0  # the next record's number
        open_bucket: int | None = None  # the bucket of a record read in part
        open_key = open_length = 0
        open_tail = b""  # the last two bytes written to the open record
        seen = 0
        for got, data, ends in self._chunks_ahead(handle, bom):
            seen += got
            self.advance(got)
            pos = 0
            if open_bucket is not None:
                pos = int(ends[0]) if ends.size else data.size
                self._write(open_bucket, data[:pos])
                open_length += pos
                open_tail = (open_tail + bytes(data[max(0, pos - 2) : pos]))[-2:]
                if not ends.size:
                    continue
                self._close_record(open_bucket, open_key, open_length)
                self.last_complete = open_tail
                open_bucket = None
                ends = ends[1:]
            if ends.size:
                starts = np.empty(ends.size, np.int64)
                starts[0] = pos
                starts[1:] = ends[:-1]
                keys = self.draws.keys(index, ends.size, k)
                index += ends.size
                self._scatter(data, starts, ends - starts, keys, shift, buckets)
                pos = int(ends[-1])
            if pos < data.size:  # a record that goes on in the next chunk: its key is known
                open_key = int(self.draws.keys(index, 1, k)[0])
                index += 1
                open_bucket = open_key >> shift if len(buckets) > 1 else 0
                self._write(open_bucket, data[pos:])
                open_length = data.size - pos
                open_tail = bytes(data[max(pos, data.size - 2) :])
        if seen != size:
            raise FileFormatError(
                f"the input changed while it was read ({seen:,} bytes, not {size:,})"
            )
        if open_bucket is not None:
            if fmt.separator is None:  # pragma: no cover - the size is a multiple
                raise FileFormatError("the input ends inside a record")
            ending = fmt.ending_after(self.last_complete)
            self._write(open_bucket, ending)
            self._close_record(open_bucket, open_key, open_length + len(ending))
        if index != self.report.records:
            raise FileFormatError(
                f"the input changed while it was read ({index:,} records, "
                f"not {self.report.records:,})"
            )

    last_complete = b""  # the last two bytes of the last complete record

    def _chunks_ahead(
        self, handle: BinaryIO, bom: int
    ) -> Iterator[tuple[int, npt.NDArray[np.uint8], npt.NDArray[np.int64]]]:
        """The input's chunks in turn: the bytes read, the chunk (less a byte-order mark at
        the start) and its record ends.

        Each next chunk is read and scanned in another thread while this one is
        scattered (two buffers, one chunk ahead: the two passes' work overlaps).
        """
        from concurrent.futures import ThreadPoolExecutor

        fmt = self.fmt
        buffers = [np.empty(self.chunk, np.uint8) for _ in range(2)]

        def read(which: int, seen: int) -> tuple[int, npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
            buffer = buffers[which]
            got = read_into(handle, buffer)
            start = bom if seen == 0 else 0
            data = buffer[start:got]
            if fmt.record_size is not None:
                first = (-(seen + start)) % fmt.record_size or fmt.record_size
                ends = np.arange(first, data.size + 1, fmt.record_size, dtype=np.int64)
            else:
                ends = record_ends(data, fmt, threads=1)
            return got, data, ends

        with ThreadPoolExecutor(1) as pool:
            seen = 0
            which = 0
            ahead = pool.submit(read, which, seen)
            while True:
                got, data, ends = ahead.result()
                if not got:
                    return
                seen += got
                which ^= 1
                ahead = pool.submit(read, which, seen)
                yield got, data, ends

    def _close_record(self, bucket: int, key: int, length: int) -> None:
        if length > MAX_RECORD_BYTES:
            raise _too_long(self.what)
        meta = np.empty(1, META)
        meta["key"], meta["len"] = key, length
        writer = self._writer()
        self._put(lambda: writer.write_meta(bucket, meta), meta.nbytes)

    # the bucket writes, made by a helper thread while the next chunk is scattered
    behind: WriteBehind | None = None
    writer: BucketWriter | None = None

    def _writer(self) -> BucketWriter:
        assert self.writer is not None, "scatter() writes through a BucketWriter"
        return self.writer

    def _put(self, write: Callable[[], object], nbytes: int) -> None:
        if self.behind is None:
            write()
        else:
            self.behind.put(lambda _: write(), None, nbytes)

    def _write(self, bucket: int, part: npt.NDArray[np.uint8] | bytes) -> None:
        """Append ``part`` (perhaps of a buffer read into again: copied) to ``bucket``."""
        data = np.frombuffer(part, np.uint8) if isinstance(part, bytes) else part.copy()
        writer = self._writer()
        self._put(lambda: writer.write_data(bucket, data), data.size)

    def _scatter(
        self,
        data: npt.NDArray[np.uint8],
        starts: npt.NDArray[np.int64],
        lengths: npt.NDArray[np.int64],
        keys: npt.NDArray[np.uint64],
        shift: int,
        buckets: list[TempBucket],
    ) -> None:
        last = int(starts[-1] + lengths[-1])
        self.last_complete = bytes(data[max(int(starts[-1]), last - 2) : last])
        if len(buckets) == 1:
            order = np.arange(keys.size, dtype=np.int64)
            counts = np.array([keys.size], np.int64)
        else:  # a stable counting sort by bucket (croupier._core.keyed)
            from croupier._core import keyed

            which = (keys >> np.uint64(shift)).astype(np.uint32)
            counts = np.zeros(len(buckets), np.int64)
            keyed.count(which, 0, which.size, counts)
            order = np.empty(which.size, np.int64)
            keyed.place(which, 0, which.size, np.cumsum(counts) - counts, order)
        s_lengths = lengths[order]
        gathered = gather(data, starts, lengths, order, threads=2)
        meta = np.empty(order.size, META)
        meta["key"] = keys[order]
        meta["len"] = s_lengths
        writer = self._writer()
        self._put(lambda: writer.write_runs(gathered, meta, counts, s_lengths), gathered.size)

    # -- pass 2: order each bucket ---------------------------------------------------------

    def load(self, bucket: TempBucket) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.void]] | None:
        """A bucket's bytes and side records when it fits in memory (else ``None``)."""
        count = bucket.meta_path.stat().st_size // META.itemsize
        if count == 0 or _cost(bucket.data_path.stat().st_size, count) > self.memory:
            return None
        return np.fromfile(bucket.data_path, np.uint8), np.fromfile(bucket.meta_path, META)

    def emit_buckets(self, buckets: list[TempBucket], k: int, depth: int, sink: OutputSink) -> None:
        """Every first-level bucket in turn, the next one read while this one is written when
        its bytes and side records take at most a quarter of the memory limit (as buckets
        are made to; the one being ordered, the next one and the writes waiting then fit in
        the limit); a larger one is read in its turn."""
        from concurrent.futures import Future, ThreadPoolExecutor

        def ahead_of(bucket: TempBucket) -> Future[Any] | None:
            held = bucket.data_path.stat().st_size + bucket.meta_path.stat().st_size
            return pool.submit(self.load, bucket) if held <= self.memory // 4 else None

        with ThreadPoolExecutor(1, thread_name_prefix="croupier-read") as pool:
            ahead = ahead_of(buckets[0]) if buckets else None
            for i, bucket in enumerate(buckets):
                loaded = None if ahead is None else ahead.result()
                ahead = ahead_of(buckets[i + 1]) if i + 1 < len(buckets) else None
                self.emit_bucket(bucket, k, depth, sink, 2, loaded)
                bucket.remove()

    def emit_bucket(
        self,
        bucket: TempBucket,
        k: int,
        depth: int,
        sink: OutputSink,
        level: int,
        loaded: tuple[npt.NDArray[np.uint8], npt.NDArray[np.void]] | None = None,
    ) -> None:
        """Write one bucket's records in order (scattering it again when too large);
        ``loaded`` is what :meth:`load` gave for it, when it was read already."""
        self.report.passes = max(self.report.passes, level)
        if loaded is None:
            count = bucket.meta_path.stat().st_size // META.itemsize
            if count == 0:
                return
            if _cost(bucket.data_path.stat().st_size, count) > self.memory:
                if depth < k:
                    self.resplit(bucket, k, depth, sink, level)
                    return
                self.emit_big_leaf(bucket, k, sink)
                return
            loaded = self.load(bucket)
            assert loaded is not None
        data, meta = loaded
        del loaded
        bucket.remove()
        lengths = meta["len"].astype(np.int64)
        starts = np.cumsum(lengths) - lengths
        order, bits = keyed_order(meta["key"].astype(np.uint64), k, self.draws, self.params)
        self.report.bits_used += bits
        del meta
        emit(data, starts, lengths, order, sink, slice_bytes=_slice_bytes(self.memory), threads=1,
             advance=self.advance)  # fmt: skip

    def emit_big_leaf(self, bucket: TempBucket, k: int, sink: OutputSink) -> None:
        """A single leaf too large for memory: order its records, then copy them one by one."""
        self.report.big_leaves += 1
        meta = np.fromfile(bucket.meta_path, META)
        lengths = meta["len"].astype(np.int64)
        starts = np.cumsum(lengths) - lengths
        order, bits = keyed_order(meta["key"].astype(np.uint64), k, self.draws, self.params)
        self.report.bits_used += bits
        with open(bucket.data_path, "rb") as handle:
            for i in order.tolist():
                handle.seek(int(starts[i]))
                left = int(lengths[i])
                while left:
                    block = handle.read(min(left, self.chunk))
                    sink.write(block)
                    self.advance(len(block))
                    left -= len(block)

    def resplit(self, bucket: TempBucket, k: int, depth: int, sink: OutputSink, level: int) -> None:
        """Scatter a bucket by its next key bits (at most 8), then order each part."""
        self.report.resplit_buckets += 1
        count = bucket.meta_path.stat().st_size // META.itemsize
        cost = _cost(bucket.data_path.stat().st_size, count)
        want = max(1, math.ceil(math.log2(max(2, 4 * cost / self.memory))))
        bits = min(k - depth, want, 8)
        shift = k - depth - bits
        folder = bucket.data_path.parent / f"{bucket.data_path.stem}.split"
        folder.mkdir()
        subs = [TempBucket(folder, f"{b:05d}") for b in range(1 << bits)]
        mask = np.uint64((1 << bits) - 1)
        try:
            for sub in subs:
                sub.open()
            with (
                open(bucket.data_path, "rb") as data_file,
                open(bucket.meta_path, "rb") as meta_file,
            ):
                while (meta := np.fromfile(meta_file, META, count=max(1, self.chunk // 64))).size:
                    lengths = meta["len"].astype(np.int64)
                    keys = meta["key"].astype(np.uint64)
                    which = ((keys >> np.uint64(shift)) & mask).astype(np.intp)
                    for i, length in enumerate(lengths.tolist()):  # a piece at a time
                        left = length
                        target = subs[int(which[i])]
                        while left:
                            block = data_file.read(min(left, self.chunk))
                            target.write_data(block)
                            left -= len(block)
                        target.write_meta(meta[i : i + 1])
        finally:
            for sub in subs:
                sub.close()
        bucket.remove()
        for sub in subs:
            self.emit_bucket(sub, k, depth + bits, sink, level + 1)
            sub.remove()
        folder.rmdir()


def _bucket_bits(size: int, memory: int, k: int) -> int:
    """Bits of the first scatter: the fewest (1 to 8, at most ``k``) keeping buckets to memory/4."""
    bits = 1
    while bits < 8 and size > (1 << bits) * (memory // 4):
        bits += 1
    return min(bits, k)


def shuffle_stream(
    infile: BinaryIO,
    write: Write,
    *,
    source: BitSource | None = None,
    draws: LeafDraws | None = None,
    memory: int = 256 * 2**20,
    size: int | None = None,
    fmt: RecordFormat | None = None,
    params: KeyedParams | None = None,
    workspace: Callable[[], str | Path] | None = None,
    advance: Advance | None = None,
    space_check: Callable[[int], object] | None = None,
    spool_check: Callable[[int, int], object] | None = None,
    name: str = "the input",
) -> FileShuffleReport:
    """Shuffle the records of ``infile`` into ``write`` (``croupier-keyed-split/1``).

    ``size`` is the input's size when it is a regular file (read twice when it
    does not fit: counted, then scattered); ``None`` for a stream (read into
    memory, and saved to a temporary file in ``workspace()`` once it is larger
    than ``memory``).  The randomness is ``draws`` (tests), or the streams
    keyed by 256 bits of ``source`` (the OS CSPRNG by default).  At most about
    ``memory`` bytes are held; the output never depends on it.  See the module
    docstring for an example.

    Every input stops at the limits, however endless: a record of more than
    :data:`MAX_RECORD_BYTES`, more than :data:`MAX_RECORDS` records, and a stream
    saved to a temporary file past :data:`MAX_SPOOL_BYTES` are refused as soon as
    the byte past the limit is read; ``spool_check(bytes, records)`` is called as
    a stream is saved, to refuse it once the disk could not hold the rest of the
    run.  ``space_check(bytes)`` is called with the temporary bytes the buckets
    need, before they are written.  ``name`` is how errors call the input.

    >>> import io
    >>> shuffle_stream(io.BytesIO(b"a\\nb"), print, fmt=RecordFormat(None, 2**31))
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: records of 2,147,483,648 bytes are longer than ...
    """
    fmt = fmt or RecordFormat()
    params = params or KeyedParams()
    if memory < 1:
        raise CroupierError(f"memory={memory} is not a size; give a positive number of bytes")
    if fmt.record_size is not None and fmt.record_size > MAX_RECORD_BYTES:
        raise CroupierError(
            f"records of {fmt.record_size:,} bytes are longer than {MAX_RECORD_BYTES:,} bytes "
            f"({size_words(MAX_RECORD_BYTES)}), the longest croupier shuffles"
        )
    if draws is None:
        draws = KeyedStreams.from_source(source or OsRandomSource(), params)
    report = FileShuffleReport()
    step: Advance = advance if advance is not None else (lambda n: None)
    made: list[Path] = []

    def folder() -> Path:
        if workspace is None:
            raise CroupierError("the input does not fit in memory= and no workspace= was given")
        made.append(Path(workspace()))
        return made[-1]

    job = _Job(write, draws, memory, fmt, params, folder, step, space_check, spool_check,
               report, name)  # fmt: skip
    try:
        if size is None:
            return _from_stream(infile, job)
        return _shuffle(infile, size, job)
    finally:
        for work in made:
            remove_workspace(work)


def _check_size(size: int, fmt: RecordFormat) -> None:
    if fmt.record_size is not None and size % fmt.record_size:
        raise FileFormatError(
            f"the input has {size:,} bytes, not a multiple of the record size "
            f"{fmt.record_size:,} ({size // fmt.record_size:,} records and "
            f"{size % fmt.record_size:,} bytes left over)"
        )


@dataclass(frozen=True)
class _Job:
    """What one :func:`shuffle_stream` call shuffles with, shared by its steps."""

    write: Write
    draws: LeafDraws
    memory: int
    fmt: RecordFormat
    params: KeyedParams
    folder: Callable[[], Path]
    step: Advance
    space_check: Callable[[int], object] | None
    spool_check: Callable[[int, int], object] | None
    report: FileShuffleReport
    what: str


def _from_stream(infile: BinaryIO, job: _Job) -> FileShuffleReport:
    """A stream: into memory, or onto disk once it is too large (then shuffled from there).

    It stays in memory while its bytes and records would be shuffled there
    (:func:`_cost`); every block read is counted against the limits first.
    """
    held = bytearray()
    limits = RecordLimits(job.fmt, job.what)
    limit = max(0, job.memory - (1 << 20))
    while block := infile.read(1 << 20):
        limits.take(np.frombuffer(block, np.uint8))
        held += block
        job.step(len(block))
        if _cost(len(held), limits.records) > limit:
            spool = job.folder() / "input.spool"
            _spool(infile, held, spool, limits, job)
            job.report.spooled = True
            with open(spool, "rb") as handle:
                return _shuffle(handle, spool.stat().st_size, job)
    data = np.zeros(len(held) + 2, np.uint8)
    data[: len(held)] = np.frombuffer(held, np.uint8)
    total = len(held)
    del held
    _check_size(total, job.fmt)
    job.report.bytes = total
    return _in_memory(data, total, job)


def _spool(infile: BinaryIO, held: bytearray, spool: Path, limits: RecordLimits, job: _Job) -> None:
    """Save ``held`` (emptied) and the rest of ``infile`` to ``spool``, within the limits."""
    try:
        with open(spool, "wb") as out:
            out.write(held)
            held.clear()
            while block := infile.read(1 << 22):
                limits.take(np.frombuffer(block, np.uint8))
                if limits.seen > MAX_SPOOL_BYTES:
                    raise CroupierError(
                        f"{job.what} is larger than {MAX_SPOOL_BYTES:,} bytes "
                        f"({size_words(MAX_SPOOL_BYTES)}), the most croupier saves to a "
                        "temporary file to shuffle; give it as a regular file (read in place)"
                    )
                if job.spool_check is not None:
                    job.spool_check(limits.seen, limits.records + 1)
                out.write(block)
                job.step(len(block))
    except OSError as exc:
        raise bucket_error(spool / "x", exc) from None


def _shuffle(infile: BinaryIO, size: int, job: _Job) -> FileShuffleReport:
    """A regular file of ``size`` bytes (or a saved stream): in memory or through buckets."""
    fmt, memory, report = job.fmt, job.memory, job.report
    _check_size(size, fmt)
    report.bytes = size
    if _cost(size + 2, 1) <= memory:
        data = np.zeros(size + 2, np.uint8)
        # (the records are found while the file is read: their number is known at once)
        got, ends = read_finding(infile, data[:size], fmt, dtype=place_type(size))
        if got != size or infile.read(1):
            raise FileFormatError(f"the input changed while it was read (not {size:,} bytes)")
        job.step(size)
        n = _record_count(data, size, fmt, None if ends is None else ends.size, job.what)
        if _cost(size + 2, n) <= memory:
            return _in_memory(data, size, job, n, ends)
        del ends
        del data
        infile.seek(0)
    run = _Run(fmt, job.draws, job.params, memory, report, job.step, job.what)
    n, bom, is_open = run.count(infile, size)
    report.records = n
    k = job.params.resolve(n)
    report.key_bits = k
    report.bits_used = n * k
    if job.space_check is not None:
        job.space_check(size + 2 + META.itemsize * n)
    bits = _bucket_bits(size, memory, k)
    report.buckets, report.passes = 1 << bits, 2
    work = job.folder()
    buckets = [TempBucket(work, f"{b:05d}") for b in range(1 << bits)]
    infile.seek(0)
    waiting = max(1 << 20, memory // 4)  # bytes a write behind may hold
    try:
        for bucket in buckets:
            bucket.open()
        run.writer = BucketWriter(buckets)
        with WriteBehind(limit=waiting) as run.behind:
            run.scatter(infile, size, bom, k, k - bits, buckets)
    finally:
        run.behind = run.writer = None
        for bucket in buckets:
            bucket.close()
    with WriteBehind(limit=waiting) as behind:
        sink = OutputSink(
            lambda part: behind.put(job.write, part), drop_final=fmt if is_open else None
        )
        if bom:
            sink.write(BOM)
        run.emit_buckets(buckets, k, bits, sink)
        sink.finish()
    return report


def _in_memory(
    data: npt.NDArray[np.uint8],
    size: int,
    job: _Job,
    n: int | None = None,
    ends: npt.NDArray[Any] | None = None,
) -> FileShuffleReport:
    """Shuffle the input held in ``data`` (and room for an added ending): one pass to write.

    ``n`` is the number of records when known, and ``ends`` the ends of the complete
    records (found while reading; :func:`~croupier.scale.records.record_ends`).  The
    arrangement of the ``n`` records begins in another thread while the records
    are found here, so neither waits for the other.  (``step`` is told of the
    output; a run through buckets reads the input twice, so the in-memory run
    counts its output twice to end where that one does.)
    """
    fmt, step = job.fmt, job.step
    n = _record_count(data, size, fmt, None, job.what) if n is None else n
    arrangement = _Arrangement(n, job.draws, job.params, job.report)
    try:
        layout = _Layout(data, size, fmt, job.what, ends)
        if layout.starts.size != n:  # (the same bytes, counted twice: never)
            raise AssertionError(f"{layout.starts.size} records found, {n} counted")
        sink = OutputSink(job.write, drop_final=fmt if layout.open else None)
        if layout.bom:
            sink.write(BOM)
        emit(data, layout.starts, layout.lengths, arrangement, sink, bounds=layout.bounds,
             slice_bytes=_slice_bytes(job.memory), advance=lambda done: step(2 * done))  # fmt: skip
        sink.finish()
    finally:
        arrangement.close()
    return job.report


class _DiskSpace:
    """The checks of :func:`shuffle_file_records` that the disk holds what a run writes.

    ``size`` is the input's size (``None`` for a stream, whose saved bytes are
    counted by :meth:`spool`); ``output``: whether the output is a file there too.
    """

    def __init__(self, folder: Path, what: str, output: bool) -> None:
        self.folder = folder
        self.what = what
        self.output = output
        self.size: int | None = None
        self.saved = 0  # bytes of a stream saved to a temporary file so far

    def buckets(self, temporary: int) -> None:
        """Before the buckets are written: room for them (and the output)."""
        data = self.size if self.size is not None else self.saved
        needed = temporary + (data if self.output else 0)
        check_free_space(self.folder, needed, "the temporary buckets and the output")

    def spool(self, spooled: int, records: int) -> None:
        """While a stream is saved: room left for its buckets (and the output)."""
        self.saved = spooled
        # (the copy is on the disk already: what is left must hold its buckets and the output)
        needed = spooled + META.itemsize * records + (spooled if self.output else 0)
        check_free_space(
            self.folder,
            needed,
            f"the buckets of the temporary copy of {self.what}"
            + (" and the output" if self.output else "")
            + " (an input that is not a regular file is saved before it is shuffled)",
        )


def shuffle_file_records(
    path: Path | str | None,
    out: Path | str | None,
    *,
    source: BitSource | None = None,
    memory: int = 256 * 2**20,
    fmt: RecordFormat | None = None,
    overwrite: bool = False,
    stdout: Write | None = None,
    stdin: BinaryIO | None = None,
    advance: Advance | None = None,
    params: KeyedParams | None = None,
    name: str | None = None,
) -> FileShuffleReport:
    """Shuffle the records of the file ``path`` (``None`` or ``"-"``: ``stdin``) into ``out``.

    Exactly uniform (``croupier-keyed-split/1``), using about ``memory``
    bytes whatever the size of the input; the output never depends on
    ``memory``.  ``out`` appears only when complete (never over an existing
    file unless ``overwrite``); with ``out=None`` the output goes to
    ``stdout`` as it is made.  Temporaries live in one folder next to ``out``
    (or in the system's temporary folder) and are removed on success, error
    and Ctrl-C; those of killed runs are removed first.  ``name`` is how
    error messages call the input (default: its path quoted).

    Standard input, or any input that is not a regular file (a pipe, a FIFO, a
    device such as ``/dev/zero``), is saved to a temporary file there once it
    does not fit in ``memory``; saving stops with a one-line error past
    :data:`MAX_SPOOL_BYTES`, and as soon as the free space left could not hold
    the rest of the run: the buckets (as many bytes again, and 12 bytes a
    record) and, with ``out``, the output (as many bytes again).  So an endless
    input never fills the disk: with ``out`` it stops at a third of the space
    that was free, without it at a half.

    >>> import tempfile
    >>> from croupier.randomness import SeededSource
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "in.txt").write_bytes(b"a\\nb\\nc\\nd\\n")
    >>> report = shuffle_file_records(folder / "in.txt", folder / "out.txt",
    ...                               source=SeededSource("demo", "shuffle-file"))
    >>> sorted((folder / "out.txt").read_bytes().splitlines()), report.records
    ([b'a', b'b', b'c', b'd'], 4)
    """
    fmt = fmt or RecordFormat()
    source = source if source is not None else OsRandomSource()
    reading_stdin = path is None or str(path) == "-"
    if out is not None:
        out = Path(out)
        if not reading_stdin and same_file(Path(str(path)), out):
            raise FileFormatError(
                f"the output {str(out)!r} is the input file; croupier never changes its input "
                "(write to another file)"
            )
        check_new_files([out], overwrite=overwrite)
    elif stdout is None:
        raise CroupierError("give out= (a file) or stdout= (a write function)")
    place = (out.parent if str(out.parent) else Path(".")) if out is not None else None
    folder = place if place is not None else Path(tempfile.gettempdir())
    removed = remove_stale_workspaces(folder)

    def workspace() -> Path:
        return make_workspace(folder)

    what = name if name is not None else "standard input" if reading_stdin else repr(str(path))
    disk = _DiskSpace(folder, what, out is not None)

    with contextlib.ExitStack() as stack:
        if reading_stdin:
            handle: BinaryIO = stdin if stdin is not None else stdin_bytes()
            size: int | None = None
        else:
            try:
                handle = stack.enter_context(open(str(path), "rb"))
            except OSError as exc:
                raise FileFormatError(f"cannot read {what}: {read_failure(exc)}") from None
            info = os.fstat(handle.fileno())
            size = info.st_size if stat.S_ISREG(info.st_mode) else None
        disk.size = size
        if size is not None:
            _check_size(size, fmt)
        if out is not None:
            if size is not None:
                check_free_space(folder, size, "the output")
            target = stack.enter_context(AtomicFile(out, overwrite=overwrite))
            write: Write = target.write
        else:
            assert stdout is not None
            write = stdout
        report = shuffle_stream(
            handle, write, source=source, memory=memory, size=size, fmt=fmt, params=params,
            workspace=workspace, advance=advance, space_check=disk.buckets,
            spool_check=disk.spool, name=what,
        )  # fmt: skip
    report.removed_leftovers = removed
    return report
