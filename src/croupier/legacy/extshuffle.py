"""Exact out-of-core shuffles of the lines or records of a file (``croupier-extshuffle/1``).

Record ``i`` (in file order) gets the key ``K_i``, the ``i``-th 64-bit word of
the key stream (:mod:`croupier.legacy.extshuffle_keys`).  The output is the
records sorted by key; records with equal keys are put in a uniformly random
order by Fisher–Yates from the tie stream (the random source after the 256
key bits, through :class:`~croupier.randomness.UniformSampler`), tie groups
in increasing key order.  The i.i.d. uniform keys make every order equally
likely, and since a key decides both a record's bucket and its place, the
result never depends on the memory limit or the number of buckets.

Two passes when the input does not fit in ``memory``: pass 1 scatters every
record (key, length, bytes) to one of ``k = 2**j`` temporary buckets by the
top ``j`` bits of its key; pass 2 loads the buckets in key-prefix order,
sorts each by key and appends it to the output.  A bucket larger than
``memory`` is scattered again by the next bits of the keys.

>>> import io
>>> from croupier.randomness import SeededSource, UniformSampler
>>> def run(data: bytes, **kw: object) -> bytes:
...     source = SeededSource("demo", "shuffle-file")
...     out = io.BytesIO()
...     keys, ties = KeyStream.from_source(source), UniformSampler(source)
...     shuffle_records(io.BytesIO(data), len(data), out.write, keys=keys, ties=ties, **kw)
...     return out.getvalue()
>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> text = b"".join(b"line %d\\n" % i for i in range(1000))
>>> in_memory = run(text, memory=2**20)
>>> sorted(in_memory.splitlines()) == sorted(text.splitlines()), in_memory != text
(True, True)
>>> run(text, memory=2**20, buckets=8, workspace=lambda: make_workspace(folder)) == in_memory
True
"""

from __future__ import annotations

import functools
import math
import os
import stat
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Protocol

import numpy as np
import numpy.typing as npt

from croupier.algorithm_ids import EXTSHUFFLE
from croupier.errors import CroupierError, FileFormatError
from croupier.files import AtomicFile, check_new_files, read_failure
from croupier.legacy.extshuffle_keys import KeySource, KeyStream
from croupier.randomness.source import BitSource, OsRandomSource
from croupier.randomness.uniform import Chooser, UniformSampler
from croupier.scale.buckets import TempBucket, same_file, write_scattered
from croupier.scale.workspace import (
    check_free_space,
    make_workspace,
    remove_stale_workspaces,
    remove_workspace,
)
from croupier.shuffling.fair import fisher_yates_inplace

__all__ = [
    "BYTES_PER_RECORD",
    "EXTSHUFFLE_ALGORITHM_ID",
    "MAX_BUCKETS",
    "Reader",
    "ShuffleReport",
    "Write",
    "shuffle_file",
    "shuffle_records",
]

EXTSHUFFLE_ALGORITHM_ID = EXTSHUFFLE
"""Id and version of the out-of-core shuffle; bumped whenever a seed would give another order."""

BYTES_PER_RECORD = 96
"""Memory counted per record on top of its bytes (its key, length, place and sort order)."""

MAX_BUCKETS = 256
"""The most buckets one scatter writes to (two open files each)."""

META_BYTES = 12
"""Bytes per record in a bucket's side file: the key (8) and the length (4)."""

_META = np.dtype([("key", "<u8"), ("len", "<u4")])
_MIN_CHUNK = 64 * 2**10
_MAX_CHUNK = 4 * 2**20
_OUT_SLICE = 2**20
_MAX_RECORD = 2**32 - 1
_NEWLINE = 10

Advance = Callable[[int], object]
Write = Callable[[Any], object]
"""Where output bytes go: anything taking a bytes-like object (a numpy array of bytes)."""


class Reader(Protocol):
    """A binary input: ``readinto`` (and ``seek`` back to the start)."""

    def readinto(self, buffer: Any, /) -> int | None:
        """Fill ``buffer`` from the input; the number of bytes read."""
        ...

    def seek(self, offset: int, whence: int = 0, /) -> int:
        """Move to ``offset``."""
        ...


@dataclass
class ShuffleReport:
    """What a shuffle did: records, bytes, buckets, passes and random bits.

    >>> r = ShuffleReport(records=4, bytes=20, key_bits=256)
    >>> r.bits_used, round(r.log2_factorial, 3)
    (256.0, 4.585)
    """

    records: int = 0
    bytes: int = 0
    buckets: int = 0
    passes: int = 1
    key_bits: int = 0
    tie_bits: float = 0.0
    tied_records: int = 0
    resplit_buckets: int = 0
    removed_leftovers: list[Path] = field(default_factory=list)

    @property
    def bits_used(self) -> float:
        """Random bits used: 64 per record (the keys) plus the tie-breaking draws."""
        return self.key_bits + self.tie_bits

    @property
    def log2_factorial(self) -> float:
        """``log2(n!)`` for ``n`` records: the fewest bits any exact shuffle needs on average."""
        n = self.records
        return math.lgamma(n + 1) / math.log(2) if n > 1 else 0.0


class _Sink:
    """The output: writes pass through, but never more than ``limit`` bytes in all."""

    def __init__(self, write: Write, limit: int) -> None:
        self.write_to = write
        self.remaining = limit

    def write(self, data: npt.NDArray[np.uint8]) -> None:
        if data.size > self.remaining:
            data = data[: self.remaining]
        if data.size:
            self.write_to(data)
            self.remaining -= int(data.size)


def _gather(
    data: npt.NDArray[np.uint8] | bytes,
    starts: npt.NDArray[np.int64],
    lengths: npt.NDArray[np.int64],
) -> npt.NDArray[np.uint8]:
    """The bytes of the records ``data[starts[i] : starts[i] + lengths[i]]``, concatenated.

    >>> d = np.frombuffer(b"abcdef", np.uint8)
    >>> _gather(d, np.array([4, 0]), np.array([2, 1])).tobytes()
    b'efa'
    """
    if lengths.size == 0:
        return np.zeros(0, np.uint8)
    # Slicing one bytes object per record and joining runs in C, one pass over the
    # bytes; a numpy byte index (a running sum as long as the output) is 2-3x slower
    # and needs 4-8 bytes of index per byte gathered.
    raw = data if isinstance(data, bytes) else data.tobytes()
    ends = (starts + lengths).tolist()
    joined = b"".join([raw[a:b] for a, b in zip(starts.tolist(), ends, strict=True)])
    return np.frombuffer(joined, np.uint8)


def _bucket_of(keys: npt.NDArray[np.uint64], shift: int, count: int) -> npt.NDArray[np.intp]:
    """The bucket of each key: bits ``shift .. shift + log2(count) - 1`` of the key."""
    if count == 1:
        return np.zeros(keys.size, np.intp)
    return ((keys >> np.uint64(shift)) & np.uint64(count - 1)).astype(np.intp)


class _Run:
    """One shuffle in progress (the state shared by its passes)."""

    def __init__(
        self,
        sink: _Sink,
        keys: KeySource,
        ties: Chooser,
        memory: int,
        report: ShuffleReport,
        advance: Advance,
    ) -> None:
        self.sink = sink
        self.keys = keys
        self.ties = ties
        self.memory = memory
        self.report = report
        self.advance = advance
        self.chunk = min(_MAX_CHUNK, max(_MIN_CHUNK, memory // 64))

    # -- sorting one set of records in memory -------------------------------------------------

    def emit_sorted(
        self,
        data: npt.NDArray[np.uint8],
        starts: npt.NDArray[np.int64],
        lengths: npt.NDArray[np.int64],
        keys: npt.NDArray[np.uint64],
        raw: bytes | None = None,
    ) -> None:
        """Write the records (given in file order) sorted by key, ties in random order.

        ``raw`` is ``data`` as a bytes object when the caller has one (no copy needed).
        """
        order = np.argsort(keys)
        self.break_ties(order, keys[order])
        s_starts, s_lengths = starts[order], lengths[order]
        ends = np.cumsum(s_lengths)
        raw = raw if raw is not None else data.tobytes()  # every slice gathers from it
        i, n, done = 0, int(order.size), 0
        while i < n:
            j = max(i + 1, int(np.searchsorted(ends, done + _OUT_SLICE, "right")))
            if j == i + 1:  # one record: write it as it is (no index as long as itself)
                start = int(s_starts[i])
                self.sink.write(data[start : start + int(s_lengths[i])])
            else:
                self.sink.write(_gather(raw, s_starts[i:j], s_lengths[i:j]))
            written = int(ends[j - 1]) - done
            done += written
            self.advance(written)
            i = j

    def break_ties(self, order: npt.NDArray[np.intp], sorted_keys: npt.NDArray[np.uint64]) -> None:
        """Shuffle each group of equal keys in ``order`` (Fisher–Yates), in increasing key order."""
        same = np.flatnonzero(sorted_keys[1:] == sorted_keys[:-1])
        if same.size == 0:
            return
        positions = same.tolist()
        first = last = positions[0]
        for p in [*positions[1:], -2]:
            if p == last + 1:
                last = p
                continue
            group = sorted(order[first : last + 2].tolist())  # in file order, then shuffled
            fisher_yates_inplace(group, self.ties)
            order[first : last + 2] = group
            self.report.tied_records += len(group)
            first = last = p

    # -- scattering records to buckets --------------------------------------------------------

    def scatter(
        self,
        data: npt.NDArray[np.uint8],
        starts: npt.NDArray[np.int64],
        lengths: npt.NDArray[np.int64],
        keys: npt.NDArray[np.uint64],
        shift: int,
        buckets: list[TempBucket],
    ) -> None:
        """Append each record (in file order) to the bucket its key bits name."""
        if keys.size == 0:
            return
        which = _bucket_of(keys, shift, len(buckets))
        order = np.argsort(which, kind="stable")
        counts = np.bincount(which, minlength=len(buckets))
        s_lengths = lengths[order]
        gathered = _gather(data, starts[order], s_lengths)
        meta = np.empty(order.size, _META)
        meta["key"] = keys[order]
        meta["len"] = s_lengths
        write_scattered(buckets, gathered, meta, counts, s_lengths)

    def pass_one(
        self,
        infile: Reader,
        size: int,
        record_size: int | None,
        shift: int,
        buckets: list[TempBucket],
    ) -> bool:
        """Read the input once and scatter its records; True if a final newline was added."""
        buf = bytearray(self.chunk if record_size is None else max(self.chunk, 1))
        offset = 0
        open_bucket: TempBucket | None = None
        open_key = 0
        open_length = 0

        def finish_open() -> None:
            assert open_bucket is not None
            if open_length > _MAX_RECORD:
                raise CroupierError(
                    f"record {self.report.records - 1:,} has {open_length:,} bytes; records of "
                    f"up to {_MAX_RECORD:,} bytes (4 GiB) are shuffled"
                )
            meta = np.empty(1, _META)
            meta["key"], meta["len"] = open_key, open_length
            open_bucket.write_meta(meta)

        while True:
            got = infile.readinto(buf) or 0
            if got == 0:
                break
            data = np.frombuffer(buf, np.uint8, got)
            if record_size is None:
                ends = np.flatnonzero(data == _NEWLINE) + 1
            else:
                first = (-offset) % record_size or record_size
                ends = np.arange(first, got + 1, record_size, dtype=np.int64)
            offset += got
            self.advance(got)
            pos = 0
            if open_bucket is not None:
                if ends.size == 0:
                    open_bucket.write_data(data)
                    open_length += got
                    continue
                pos = int(ends[0])
                open_bucket.write_data(data[:pos])
                open_length += pos
                finish_open()
                open_bucket = None
                ends = ends[1:]
            if ends.size:
                starts = np.empty(ends.size, np.int64)
                starts[0] = pos
                starts[1:] = ends[:-1]
                keys = self.keys.take(int(ends.size))
                self.report.records += int(ends.size)
                self.scatter(data, starts, ends - starts, keys, shift, buckets)
                pos = int(ends[-1])
            if pos < got:  # a record that goes on in the next chunk: its key is known already
                open_key = int(self.keys.take(1)[0])
                self.report.records += 1
                open_bucket = buckets[
                    int(_bucket_of(np.array([open_key], np.uint64), shift, len(buckets))[0])
                ]
                open_bucket.write_data(data[pos:])
                open_length = got - pos
        if offset != size:
            raise FileFormatError(
                f"the input changed while it was read ({offset:,} bytes, not {size:,})"
            )
        if open_bucket is None:
            return False
        if record_size is not None:  # pragma: no cover - the size was checked to be a multiple
            raise FileFormatError("the input ends inside a record")
        open_bucket.write_data(b"\n")
        open_length += 1
        finish_open()
        return True

    # -- pass 2 -------------------------------------------------------------------------------

    def emit_bucket(self, bucket: TempBucket, depth: int, level: int) -> None:
        """Write one bucket's records sorted by key (scattering it again if too large)."""
        count = bucket.meta_path.stat().st_size // META_BYTES
        nbytes = bucket.data_path.stat().st_size
        self.report.passes = max(self.report.passes, level)
        if count == 0:
            return
        if count == 1:  # one record, however long: copy it as it is
            with open(bucket.data_path, "rb") as handle:
                while block := handle.read(self.chunk):
                    self.sink.write(np.frombuffer(block, np.uint8))
                    self.advance(len(block))
            return
        if _cost(nbytes, count) > self.memory and depth < 64:
            self.resplit(bucket, depth, _cost(nbytes, count), level)
            return
        raw = bucket.data_path.read_bytes()
        data = np.frombuffer(raw, np.uint8)
        meta = np.fromfile(bucket.meta_path, _META)
        bucket.remove()
        lengths = meta["len"].astype(np.int64)
        starts = np.cumsum(lengths) - lengths
        self.emit_sorted(data, starts, lengths, meta["key"].astype(np.uint64), raw)

    def resplit(self, bucket: TempBucket, depth: int, cost: int, level: int) -> None:
        """Scatter a bucket too large for memory by the next bits of its keys, then emit those."""
        self.report.resplit_buckets += 1
        want = max(1, math.ceil(math.log2(max(2, 2 * cost / self.memory))))
        bits = min(64 - depth, want, int(math.log2(MAX_BUCKETS)))
        shift = 64 - depth - bits
        folder = bucket.data_path.parent / f"{bucket.data_path.stem}.split"
        folder.mkdir()
        subs = [TempBucket(folder, f"{b:05d}") for b in range(1 << bits)]
        try:
            for sub in subs:
                sub.open()
            with (
                open(bucket.data_path, "rb") as data_file,
                open(bucket.meta_path, "rb") as meta_file,
            ):
                while (meta := np.fromfile(meta_file, _META, count=max(1, self.chunk // 64))).size:
                    self._rescatter(data_file, meta, shift, subs)
        finally:
            for sub in subs:
                sub.close()
        bucket.remove()
        for sub in subs:
            self.emit_bucket(sub, depth + bits, level + 1)
            sub.remove()
        folder.rmdir()

    def _rescatter(
        self, data_file: BinaryIO, meta: npt.NDArray[np.void], shift: int, subs: list[TempBucket]
    ) -> None:
        lengths = meta["len"].astype(np.int64)
        keys = meta["key"].astype(np.uint64)
        ends = np.cumsum(lengths)
        i, base = 0, 0
        while i < meta.size:
            j = int(np.searchsorted(ends, base + self.chunk, "right"))
            if j <= i:  # one record longer than a chunk: copy it piece by piece
                j = i + 1
                sub = subs[int(_bucket_of(keys[i : i + 1], shift, len(subs))[0])]
                left = int(lengths[i])
                while left:
                    block = data_file.read(min(left, self.chunk))
                    sub.write_data(block)
                    left -= len(block)
                sub.write_meta(meta[i : i + 1])
            else:
                block_bytes = data_file.read(int(ends[j - 1]) - base)
                data = np.frombuffer(block_bytes, np.uint8)
                starts = ends[i:j] - lengths[i:j] - base
                self.scatter(data, starts, lengths[i:j], keys[i:j], shift, subs)
            base = int(ends[j - 1])
            i = j


def _count_records(data: npt.NDArray[np.uint8], record_size: int | None) -> int:
    """Records in ``data`` (lines: a last line without a newline counts too)."""
    if record_size is not None:
        return data.size // record_size
    count = 0
    for start in range(0, data.size, _MAX_CHUNK):
        count += int(np.count_nonzero(data[start : start + _MAX_CHUNK] == _NEWLINE))
    return count + int(data.size > 0 and data[-1] != _NEWLINE)


def _bucket_count(size: int, memory: int) -> int:
    """The smallest power of two ``k >= 2`` with ``size / k`` at most a quarter of ``memory``."""
    k = 2
    while k < MAX_BUCKETS and size > k * (memory // 4):
        k *= 2
    return k


def shuffle_records(
    infile: Reader,
    size: int,
    write: Write,
    *,
    keys: KeySource,
    ties: Chooser,
    memory: int,
    record_size: int | None = None,
    buckets: int | None = None,
    workspace: Callable[[], Path] | None = None,
    advance: Advance | None = None,
    space_check: Callable[[int], object] | None = None,
) -> ShuffleReport:
    """Shuffle the ``size`` bytes of ``infile`` (lines, or records of ``record_size`` bytes).

    The shuffled bytes go to ``write``.  ``keys`` hands out the record keys
    and ``ties`` breaks ties (tests replace them by enumerations).  In memory
    when the records take at most ``memory`` bytes (twice their bytes plus
    :data:`BYTES_PER_RECORD` each) and ``buckets`` is ``None``; otherwise in
    two passes through ``buckets`` (a power of two; by default the fewest
    that keep a bucket below a quarter of ``memory``) temporary buckets in
    the folder ``workspace()`` makes.  ``space_check(bytes)`` is called
    with the temporary disk space needed before anything is written.  See
    the module docstring for an example.
    """
    if memory < 1:
        raise CroupierError(f"memory={memory} is not a size; give a positive number of bytes")
    if record_size is not None and record_size < 1:
        raise CroupierError(f"record_size={record_size} is not a size; give 1 or more bytes")
    if record_size is not None and size % record_size:
        raise FileFormatError(
            f"the input has {size:,} bytes, not a multiple of record_size={record_size:,} "
            f"({size // record_size:,} records and {size % record_size:,} bytes left over)"
        )
    if buckets is not None and (buckets < 1 or buckets & (buckets - 1) or buckets > MAX_BUCKETS):
        raise CroupierError(f"buckets={buckets} is not a power of two from 1 to {MAX_BUCKETS}")
    report = ShuffleReport(bytes=size)
    step: Advance = advance if advance is not None else (lambda n: None)
    sink = _Sink(write, size)
    run = _Run(sink, keys, ties, memory, report, step)
    if buckets is None and _cost(size + 1, 1) <= memory:
        data = np.empty(size + 1, np.uint8)
        got = infile.readinto(data[:size]) or 0
        if got != size:
            raise FileFormatError(
                f"the input changed while it was read ({got:,} bytes, not {size:,})"
            )
        count = _count_records(data[:size], record_size)
        if _cost(size + 1, count) <= memory:
            step(size)
            _shuffle_in_memory(run, data, size, record_size)
            report.key_bits = 64 * report.records
            return report
        del data
        infile.seek(0)
    if workspace is None:
        raise CroupierError("the input does not fit in memory= and no workspace= folder was given")
    k = buckets if buckets is not None else _bucket_count(size, memory)
    if space_check is not None:
        estimate = record_size or _mean_record_estimate(size)
        space_check(size + 1 + META_BYTES * (size // estimate + 1))
    report.buckets, report.passes = k, 2
    folder = workspace()
    bucket_list = [TempBucket(folder, f"{b:05d}") for b in range(k)]
    shift = 64 - (k.bit_length() - 1)
    try:
        for bucket in bucket_list:
            bucket.open()
        run.pass_one(infile, size, record_size, shift, bucket_list)
    finally:
        for bucket in bucket_list:
            bucket.close()
    for bucket in bucket_list:
        run.emit_bucket(bucket, k.bit_length() - 1, 2)
        bucket.remove()
    report.key_bits = 64 * report.records
    return report


def _cost(nbytes: int, records: int) -> int:
    """Memory to sort ``records`` records of ``nbytes`` bytes: two copies of the bytes
    (the array and the bytes the gather slices) and :data:`BYTES_PER_RECORD` each."""
    return 2 * nbytes + BYTES_PER_RECORD * records


def _mean_record_estimate(size: int) -> int:
    """A conservative record length for the disk estimate of the side files (lines)."""
    return 16 if size >= 16 else 1


def _shuffle_in_memory(
    run: _Run, data: npt.NDArray[np.uint8], size: int, record_size: int | None
) -> None:
    """Shuffle the whole input held in ``data`` (with one spare byte at the end)."""
    view = data[:size]
    if record_size is None:
        ends = np.flatnonzero(view == _NEWLINE) + 1
        if size and data[size - 1] != _NEWLINE:  # a last line without newline gets one
            data[size] = _NEWLINE
            ends = np.append(ends, size + 1)
    else:
        ends = np.arange(record_size, size + 1, record_size, dtype=np.int64)
    starts = np.concatenate([np.zeros(1, np.int64), ends[:-1]]) if ends.size else ends
    run.report.records = int(ends.size)
    keys = run.keys.take(int(ends.size))
    run.emit_sorted(data, starts.astype(np.int64), (ends - starts).astype(np.int64), keys)


def shuffle_file(
    path: Path | str,
    out: Path | str | None,
    *,
    source: BitSource | None = None,
    memory: int = 256 * 2**20,
    record_size: int | None = None,
    overwrite: bool = False,
    buckets: int | None = None,
    stdout: Write | None = None,
    advance: Advance | None = None,
) -> ShuffleReport:
    """Shuffle the lines (or ``record_size``-byte records) of the file ``path`` into ``out``.

    Exactly uniform (``croupier-extshuffle/1``), using about ``memory``
    bytes whatever the size of the file.  ``source`` gives the randomness
    (the OS CSPRNG by default; a seeded source makes the run reproducible;
    the output never depends on ``memory`` or ``buckets``).  ``out`` appears
    only when complete (never over an existing file unless ``overwrite``);
    with ``out=None`` the output goes to ``stdout`` as it is made.
    Temporary buckets live in one folder next to ``out`` (or in the system's
    temporary folder) and are removed on success, on error and on Ctrl-C;
    those of killed runs are removed first (listed in ``removed_leftovers``).

    >>> import tempfile
    >>> from croupier.randomness import SeededSource
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "in.txt").write_bytes(b"a\\nb\\nc\\nd\\n")
    >>> report = shuffle_file(folder / "in.txt", folder / "out.txt",
    ...                       source=SeededSource("demo", "shuffle-file"), memory=2**20)
    >>> sorted((folder / "out.txt").read_bytes().splitlines()), report.records, report.passes
    ([b'a', b'b', b'c', b'd'], 4, 1)
    """
    path = Path(path)
    source = source if source is not None else OsRandomSource()
    if out is not None:
        out = Path(out)
        if same_file(path, out):
            raise FileFormatError(
                f"the output {str(out)!r} is the input file; croupier never changes its input "
                "(write to another file)"
            )
    elif stdout is None:
        raise CroupierError("give out= (a file) or stdout= (a write function)")
    try:
        infile = open(path, "rb")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise FileFormatError(f"cannot read {str(path)!r}: {read_failure(exc)}") from None
    with infile:
        size = _input_size(infile, path, record_size)
        if out is not None:
            check_new_files([out], overwrite=overwrite)
        folder = (
            (out.parent if str(out.parent) else Path("."))
            if out is not None
            else Path(tempfile.gettempdir())
        )
        removed = remove_stale_workspaces(folder)
        keys = KeyStream.from_source(source)
        ties = UniformSampler(source)
        before_ties = source.bits_used
        if out is not None:
            _check_output_space(folder, size, memory=memory, buckets=buckets)
        shuffle = functools.partial(
            shuffle_records, infile, size, keys=keys, ties=ties, memory=memory,
            record_size=record_size, buckets=buckets, advance=advance,
        )  # fmt: skip
        report = _shuffle_into(shuffle, out, stdout, folder, size, overwrite=overwrite)
    report.tie_bits = source.bits_used - before_ties
    report.removed_leftovers = removed
    return report


def _input_size(infile: BinaryIO, path: Path, record_size: int | None) -> int:
    """The size of the open input, refused unless a regular file of whole records."""
    info = os.fstat(infile.fileno())
    if not stat.S_ISREG(info.st_mode):
        raise FileFormatError(
            f"cannot shuffle {str(path)!r} out of core: it is not a regular file "
            "(save a pipe or device to a file first)"
        )
    size = info.st_size
    if record_size is not None and record_size >= 1 and size % record_size:
        raise FileFormatError(
            f"{str(path)!r} has {size:,} bytes, not a multiple of the record size "
            f"{record_size:,} ({size // record_size:,} records and {size % record_size:,} "
            "bytes left over)"
        )
    return size


def _check_output_space(folder: Path, size: int, *, memory: int, buckets: int | None) -> None:
    """Refuse to start when ``folder`` has no room for the output (and the buckets it needs)."""
    if buckets is not None or _cost(size + 1, 1) > memory:
        check_free_space(folder, 2 * size, "the temporary buckets and the output")
    else:
        check_free_space(folder, size, "the output")


def _shuffle_into(
    shuffle: functools.partial[ShuffleReport],
    out: Path | None,
    stdout: Write | None,
    folder: Path,
    size: int,
    *,
    overwrite: bool,
) -> ShuffleReport:
    """Run ``shuffle`` (:func:`shuffle_records` given all but the write function, the
    workspace and the space check) into ``out`` (atomically) or ``stdout``, its
    temporary buckets in ``folder`` (removed whatever happens)."""
    made: list[Path] = []

    def workspace() -> Path:
        made.append(make_workspace(folder))
        return made[-1]

    def space_check(temporary: int) -> None:
        needed = temporary + (size if out is not None else 0)
        check_free_space(folder, needed, "the temporary buckets and the output")

    try:
        if out is not None:
            with AtomicFile(out, overwrite=overwrite) as target:
                return shuffle(target.write, workspace=workspace, space_check=space_check)
        assert stdout is not None
        return shuffle(stdout, workspace=workspace, space_check=space_check)
    finally:
        for work in made:
            remove_workspace(work)
