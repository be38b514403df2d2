"""Records of a file: finding them, gathering them in a new order, writing the output.

Shared by the file shuffle (:mod:`croupier.scale.file_shuffle`) and the file
sample (:mod:`croupier.scale.file_sample`).  A *record* is a line (the bytes
up to and including a newline), a NUL-terminated record (``-z``) or a block
of a fixed number of bytes (``--records N``).

:func:`gather` copies records to a new order without a Python object per
record: short records are moved as fixed-size items (a strided view of the
input) written in output order, longer ones by length, each a few numpy
copies, which run at memory speed.

>>> data = np.frombuffer(b"bb\\na\\ncc\\n", np.uint8)
>>> ends = record_ends(data, RecordFormat())
>>> ends.tolist()
[3, 5, 8]
>>> starts = np.array([0, 3, 5]); lengths = ends - starts
>>> gather(data, starts[[2, 0, 1]], lengths[[2, 0, 1]]).tobytes()
b'cc\\nbb\\na\\n'
"""

from __future__ import annotations

import collections
import io
import itertools
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO, TextIO

import numpy as np
import numpy.typing as npt

from croupier.errors import CroupierError

__all__ = [
    "BOM",
    "LONG_RECORD",
    "OutputSink",
    "RecordFormat",
    "count_separators",
    "emit",
    "gather",
    "read_counting",
    "read_into",
    "record_ends",
    "stdin_bytes",
]

BOM = b"\xef\xbb\xbf"
"""A UTF-8 byte-order mark: at the start of a file of lines it stays at the start."""

LONG_RECORD = 1 << 20
"""Records of this many bytes or more are written straight from the input, not gathered."""

_SCAN = 1 << 22  # bytes compared at a time when finding separators (stays in the cache)
_FEW_PER_LENGTH = 6  # below this many records per distinct length, slices are joined instead
_NARROW_MEAN = 256
"""Records of at most this many bytes on average are gathered as fixed-size items."""
_GATHER_BLOCK = 1 << 18  # bytes of fixed-size items read at a time by gather

Write = Callable[[Any], object]


@dataclass(frozen=True)
class RecordFormat:
    """What a record is: lines (``separator=10``), NUL-terminated (``0``) or ``record_size`` bytes.

    >>> RecordFormat().describe(), RecordFormat(0).describe(), RecordFormat(None, 512).describe()
    ('lines', 'NUL-terminated records', '512-byte records')
    """

    separator: int | None = 10
    record_size: int | None = None

    def __post_init__(self) -> None:
        if (self.separator is None) == (self.record_size is None):
            raise CroupierError("a record format has a separator or a record size, not both")
        if self.record_size is not None and self.record_size < 1:
            raise CroupierError(f"record_size={self.record_size} is not a size; give 1 or more")

    @property
    def lines(self) -> bool:
        """Newline-separated lines (a byte-order mark and CRLF endings are understood)."""
        return self.separator == 10

    def describe(self) -> str:
        """The records in words."""
        if self.record_size is not None:
            return f"{self.record_size:,}-byte records"
        return "lines" if self.lines else "NUL-terminated records"

    def ending_after(self, previous: bytes) -> bytes:
        """The ending a last record without one gets: the one of the record before it.

        Lines borrow ``\\r\\n`` from a CRLF line before them, else get ``\\n``.

        >>> lines = RecordFormat()
        >>> nul = RecordFormat(0)
        >>> lines.ending_after(b"a\\r\\n"), lines.ending_after(b""), nul.ending_after(b"")
        (b'\\r\\n', b'\\n', b'\\x00')
        """
        assert self.separator is not None
        if self.lines and previous.endswith(b"\r\n"):
            return b"\r\n"
        return bytes([self.separator])


def _separators(
    data: npt.NDArray[np.uint8], separator: int, first: int, dtype: type[np.signedinteger[Any]]
) -> npt.NDArray[Any]:
    """The places one past each ``separator`` in ``data``, plus ``first``, of ``dtype``."""
    found = np.flatnonzero(data == separator)
    if dtype is not np.intp:
        found = found.astype(dtype)
    found += first + 1
    return found


def record_ends(
    data: npt.NDArray[np.uint8],
    fmt: RecordFormat,
    *,
    offset: int = 0,
    dtype: type[np.signedinteger[Any]] = np.int64,
    threads: int = 2,
) -> npt.NDArray[Any]:
    """The end (one past the separator) of every complete record of ``data``, plus ``offset``.

    Of ``dtype`` (``int64``; ``int32`` when the ends are known to fit, half the memory).
    Large inputs are scanned in ``threads`` threads (numpy compares without holding the
    interpreter).
    """
    if fmt.record_size is not None:
        first = fmt.record_size + offset
        return np.arange(first, data.size + offset + 1, fmt.record_size, dtype=dtype)
    assert fmt.separator is not None
    separator = fmt.separator

    def scan(a: int) -> npt.NDArray[Any]:
        return _separators(data[a : a + _SCAN], separator, a + offset, dtype)

    starts = range(0, data.size, _SCAN)
    if threads > 1 and len(starts) > 1:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(threads) as pool:
            parts = list(pool.map(scan, starts))
    else:
        parts = [scan(a) for a in starts]
    if not parts:
        return np.zeros(0, dtype)
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


def read_into(handle: BinaryIO, buffer: npt.NDArray[np.uint8]) -> int:
    """Fill ``buffer`` from ``handle`` (several reads if needed); the bytes read."""
    view = memoryview(buffer)  # type: ignore[arg-type]
    readinto = getattr(handle, "readinto", None)
    got = 0
    while got < len(view):
        if readinto is None:  # a stream without readinto: read and copy
            block = handle.read(len(view) - got)
            view[got : got + len(block)] = block
            n = len(block)
        else:
            n = readinto(view[got:])
        if not n:
            break
        got += n
    return got


def count_separators(data: npt.NDArray[np.uint8], fmt: RecordFormat) -> int:
    """The separators in ``data`` (``0`` for fixed-size records, which have none).

    >>> count_separators(np.frombuffer(b"a\\nb\\nc", np.uint8), RecordFormat())
    2
    """
    if fmt.separator is None:
        return 0
    total = 0
    for a in range(0, data.size, _SCAN):  # (the comparison stays in the cache)
        total += int(np.count_nonzero(data[a : a + _SCAN] == fmt.separator))
    return total


def read_counting(
    handle: BinaryIO,
    buffer: npt.NDArray[np.uint8],
    fmt: RecordFormat,
    *,
    block: int = _SCAN,
) -> tuple[int, int | None]:
    """Fill ``buffer`` from ``handle`` and count the separators as it fills: bytes read,
    separators.

    Each block read is counted in another thread while the next one is read
    (counting is quicker than reading, so it costs nothing beside it).  Where the
    records are is found afterwards (:func:`record_ends`), while their
    arrangement, which needs only their number, is made.  The count is ``None``
    for fixed-size records (they need none) and for a stream without
    ``readinto`` (read by :func:`read_into`).

    >>> import io
    >>> buf = np.zeros(8, np.uint8)
    >>> read_counting(io.BytesIO(b"ab\\ncd\\ne"), buf, RecordFormat(), block=2)
    (7, 2)
    """
    readinto = getattr(handle, "readinto", None)
    if fmt.separator is None or readinto is None:
        return read_into(handle, buffer), None
    view = memoryview(buffer)  # type: ignore[arg-type]
    got = 0
    from concurrent.futures import Future, ThreadPoolExecutor

    parts: list[Future[int]] = []
    with ThreadPoolExecutor(1) as pool:
        while got < len(view):
            n = readinto(view[got : got + block])
            if not n:
                break
            parts.append(pool.submit(count_separators, buffer[got : got + n], fmt))
            got += n
        return got, sum(part.result() for part in parts)


_VOID: dict[int, np.dtype[Any]] = {}


def _fixed_view(buffer: npt.NDArray[np.uint8], size: int) -> npt.NDArray[Any]:
    """``buffer`` as overlapping items of ``size`` bytes, one starting at every byte."""
    dtype = _VOID.get(size)
    if dtype is None:
        dtype = _VOID.setdefault(size, np.dtype((np.void, size)))
    return np.ndarray((buffer.size - size + 1,), dtype, buffer, strides=(1,))


def gather(
    data: npt.NDArray[np.uint8], starts: npt.NDArray[Any], lengths: npt.NDArray[Any]
) -> npt.NDArray[np.uint8]:
    """The records ``data[starts[i] : starts[i] + lengths[i]]``, concatenated in this order.

    Short records (a mean of at most :data:`_NARROW_MEAN` bytes, as lines of text
    are) move as fixed-size items (:func:`_gather_fixed`): a few numpy copies,
    whatever their lengths.  Longer records move by length (:func:`_by_length`).

    >>> d = np.frombuffer(b"abcdef", np.uint8)
    >>> gather(d, np.array([4, 0, 1]), np.array([2, 1, 3])).tobytes()
    b'efabcd'
    """
    count = lengths.size
    if count == 0:
        return np.zeros(0, np.uint8)
    ends = np.cumsum(lengths, dtype=np.int64)
    total = int(ends[-1])
    if total == 0:
        return np.zeros(0, np.uint8)
    out_starts = ends - lengths
    del ends
    mean = total / count
    if mean > _NARROW_MEAN or not _writes_in_order():
        return _by_length(data, starts, lengths, out_starts, total)
    width = min(_round_up(int(lengths.max())), _round_up(int(2 * mean) + 1), data.size)
    return _gather_fixed(data, starts, lengths, out_starts, total, width)


def _gather_fixed(
    data: npt.NDArray[np.uint8],
    starts: npt.NDArray[Any],
    lengths: npt.NDArray[Any],
    out_starts: npt.NDArray[Any],
    total: int,
    width: int,
) -> npt.NDArray[np.uint8]:
    """:func:`gather` by ``width``-byte items written in output order.

    Every record is read as a ``width``-byte item (the input seen as overlapping
    items, a view, no copy), and the items are written at the records' output
    places in output order, a block of items per numpy copy: the bytes a record
    writes past its end are written over by the records after it.  The records
    longer than ``width``, and those too near the end of ``data`` to be read as
    whole items, are then copied again exactly (:func:`_copy_by_length`).
    """
    count = lengths.size
    out = np.empty(total + width, np.uint8)
    limit = data.size - width
    read_from = np.minimum(starts, limit)
    items, places = _fixed_view(data, width), _fixed_view(out, width)
    block = max(1, _GATHER_BLOCK // width)  # (the items read stay in the cache: no more memory)
    for a in range(0, count, block):
        places[out_starts[a : a + block]] = items[read_from[a : a + block]]
    again = np.flatnonzero((lengths > width) | (starts > limit))
    if again.size:
        _copy_by_length(out, out_starts[again], data, starts[again], lengths[again])
    return out[:total]


_IN_ORDER: list[bool] = []  # the answer of _writes_in_order, once known


def _writes_in_order() -> bool:
    """Whether this numpy writes the items of an index array in index order.

    :func:`_gather_fixed` needs it where items overlap.  numpy does so (one
    pass over a one-dimensional index), but its documentation promises no order
    for places written more than once, so it is checked once per process, on
    4,096 records in one copy, every item overlapping the next ones; if the
    bytes come out wrong, :func:`gather` moves records by length instead.
    """
    if not _IN_ORDER:
        lengths = np.resize(np.arange(1, 8, dtype=np.int64), 4096)
        starts = np.cumsum(lengths) - lengths
        data = (np.arange(int(lengths.sum()), dtype=np.int64) % 251).astype(np.uint8)
        order = np.arange(lengths.size)[::-1]
        out_starts = np.cumsum(lengths[order]) - lengths[order]
        got = _gather_fixed(data, starts[order], lengths[order], out_starts, data.size, 16)
        shift = np.repeat(starts[order] - out_starts, lengths[order])  # output byte -> input
        want = data[np.arange(data.size) + shift]
        _IN_ORDER.append(bool(np.array_equal(got, want)))
    return _IN_ORDER[0]


def _round_up(size: int) -> int:
    """``size`` rounded up to whole 16-byte blocks (items the copy moves quickly)."""
    return -(-size // 16) * 16


def _copy_by_length(
    out: npt.NDArray[np.uint8],
    out_starts: npt.NDArray[Any],
    data: npt.NDArray[np.uint8],
    starts: npt.NDArray[Any],
    lengths: npt.NDArray[Any],
) -> None:
    """Copy ``data[starts[i]:][:lengths[i]]`` to ``out[out_starts[i]:]``, exactly.

    Records of one length ``L`` move together: the input and the output are seen as
    overlapping ``L``-byte items and one numpy copy moves every record of that
    length (the records' output places never overlap, so neither do the items).
    """
    small = lengths.astype(np.uint16) if int(lengths.max()) < 1 << 16 else lengths
    by_length = np.argsort(small, kind="stable")
    sorted_lengths = lengths[by_length]
    cut = np.flatnonzero(sorted_lengths[1:] != sorted_lengths[:-1]) + 1
    bounds = [0, *cut.tolist(), lengths.size]
    for a, b in itertools.pairwise(bounds):
        size = int(sorted_lengths[a])
        which = by_length[a:b]
        _fixed_view(out, size)[out_starts[which]] = _fixed_view(data, size)[starts[which]]


def _by_length(
    data: npt.NDArray[np.uint8],
    starts: npt.NDArray[Any],
    lengths: npt.NDArray[Any],
    out_starts: npt.NDArray[Any],
    total: int,
) -> npt.NDArray[np.uint8]:
    """:func:`gather` of long records: by length, or sliced and joined when lengths vary."""
    distinct = np.unique(lengths).size if lengths.size > _FEW_PER_LENGTH else lengths.size
    if distinct > lengths.size // _FEW_PER_LENGTH:
        view = memoryview(data)  # type: ignore[arg-type]
        ends = (starts + lengths).tolist()
        joined = b"".join(map(view.__getitem__, map(slice, starts.tolist(), ends)))
        return np.frombuffer(joined, np.uint8)
    out = np.empty(total, np.uint8)
    _copy_by_length(out, out_starts, data, starts, lengths)
    return out


class OutputSink:
    """Where the output goes: every write passes through, except the final ending when asked.

    With ``drop_final`` (the input's last record had no ending: one was added to
    shuffle it), the output's last record loses its ending again — ``\\n`` or
    ``\\r\\n`` for lines, the separator otherwise — so the output ends as the
    input did.  The last two bytes are held back until :meth:`finish`.

    >>> parts = []
    >>> sink = OutputSink(parts.append, drop_final=RecordFormat())
    >>> sink.write(b"b\\r\\na\\r\\n"); sink.finish(); b"".join(parts)
    b'b\\r\\na'
    """

    def __init__(self, write: Write, *, drop_final: RecordFormat | None = None) -> None:
        self.write_to = write
        self.drop_final = drop_final
        self.tail = b""
        self.written = 0

    def write(self, data: Any) -> None:
        """Write ``data`` (bytes or a numpy array of bytes)."""
        view = memoryview(data).cast("B")
        if not view.nbytes:
            return
        if self.drop_final is None:
            self.write_to(view)
            self.written += view.nbytes
            return
        if view.nbytes >= 2:
            if self.tail:
                self.write_to(self.tail)
                self.written += len(self.tail)
            if view.nbytes > 2:
                self.write_to(view[:-2])
                self.written += view.nbytes - 2
            self.tail = bytes(view[-2:])
        else:
            held = self.tail + bytes(view)
            if len(held) > 2:
                self.write_to(held[:-2])
                self.written += len(held) - 2
            self.tail = held[-2:]

    def finish(self) -> None:
        """Write what is held back (without the final ending, when asked)."""
        tail = self.tail
        fmt = self.drop_final
        if fmt is not None and fmt.separator is not None:
            tail = tail.removesuffix(bytes([fmt.separator]))
            if fmt.lines:
                tail = tail.removesuffix(b"\r")
        if tail:
            self.write_to(tail)
            self.written += len(tail)
        self.tail = b""


def _slices(
    lengths: npt.NDArray[Any], order: npt.NDArray[np.intp], slice_bytes: int
) -> Iterator[tuple[int, int]]:
    """Places ``[a, b)`` of ``order`` to write at once: about ``slice_bytes`` each, and every
    record of :data:`LONG_RECORD` bytes or more alone."""
    block = 1 << 20
    for first in range(0, order.size, block):
        sizes = lengths[order[first : first + block]]
        total = np.cumsum(sizes)
        cuts = np.searchsorted(total, np.arange(slice_bytes, int(total[-1]), slice_bytes), "right")
        long = np.flatnonzero(sizes >= LONG_RECORD)
        bounds = sorted(set(np.concatenate(([0, sizes.size], cuts, long, long + 1)).tolist()))
        for a, b in itertools.pairwise(bounds):
            yield first + a, first + b


def emit(
    data: npt.NDArray[np.uint8],
    starts: npt.NDArray[Any],
    lengths: npt.NDArray[Any],
    order: npt.NDArray[np.intp] | Iterable[npt.NDArray[np.intp]],
    sink: OutputSink,
    *,
    slice_bytes: int,
    advance: Callable[[int], object] | None = None,
    threads: int = 2,
) -> None:
    """Write the records in ``order`` (record ``order[q]`` at place ``q``), in slices.

    ``order`` is one array or its pieces in turn (an iterable, made while the
    first ones are written).  Each slice of about ``slice_bytes`` is gathered
    (:func:`gather`) and written at once, the next slices being gathered
    meanwhile in ``threads`` threads (numpy copies without holding the
    interpreter); a record of :data:`LONG_RECORD` bytes or more is written
    straight from ``data``.
    """

    def piece(which: npt.NDArray[np.intp]) -> Any:
        if which.size == 1 and int(lengths[which[0]]) >= LONG_RECORD:
            start = int(starts[which[0]])
            return data[start : start + int(lengths[which[0]])]
        return gather(data, starts[which], lengths[which])

    def put(part: Any) -> None:
        sink.write(part)
        if advance is not None:
            advance(len(part))

    def pieces() -> Iterator[npt.NDArray[np.intp]]:
        for part in [order] if isinstance(order, np.ndarray) else order:
            for a, b in _slices(lengths, part, slice_bytes):
                yield part[a:b]

    if threads < 2 or (isinstance(order, np.ndarray) and order.size < 20_000):
        for which in pieces():
            put(piece(which))
        return
    from concurrent.futures import Future, ThreadPoolExecutor

    ahead: collections.deque[Future[Any]] = collections.deque()
    with ThreadPoolExecutor(threads) as pool:
        for which in pieces():
            ahead.append(pool.submit(piece, which))
            if len(ahead) > threads:
                put(ahead.popleft().result())
        while ahead:
            put(ahead.popleft().result())


class _EncodedText(io.RawIOBase):
    """A text stream read as UTF-8 bytes, a block at a time (never all at once)."""

    def __init__(self, text: TextIO) -> None:
        super().__init__()
        self._text = text
        self._pending = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while not self._pending:
            block = self._text.read(1 << 16)
            if not block:
                return 0
            self._pending = block.encode("utf-8", "surrogateescape")
        view = memoryview(buffer).cast("B")
        size = min(len(view), len(self._pending))
        view[:size] = self._pending[:size]
        self._pending = self._pending[size:]
        return size


def stdin_bytes() -> BinaryIO:
    r"""Standard input as bytes; a text-only stream (in some hosts) is encoded as it is read,
    a block at a time, so an endless one meets the same limits as a byte stream.

    >>> import io
    >>> stream = io.BufferedReader(_EncodedText(io.StringIO("a\u00e9\n" * 3)))
    >>> stream.read(4), stream.read()
    (b'a\xc3\xa9\n', b'a\xc3\xa9\na\xc3\xa9\n')
    """
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        return io.BufferedReader(_EncodedText(sys.stdin))
    return stream  # type: ignore[no-any-return]
