"""Records of a file: finding them, gathering them in a new order, writing the output.

Shared by the file shuffle (:mod:`croupier.scale.file_shuffle`) and the file
sample (:mod:`croupier.scale.file_sample`).  A *record* is a line (the bytes
up to and including a newline), a NUL-terminated record (``-z``) or a block
of a fixed number of bytes (``--records N``).

:func:`gather` copies records to a new order without a Python object per
record: one compiled copy per record, the records ahead prefetched, so it runs
at the speed of memory (``croupier._core.record_kernels``).

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
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO, TextIO

import numpy as np
import numpy.typing as npt

from croupier._core.engines import Engine, resolve
from croupier.errors import CroupierError

__all__ = [
    "BOM",
    "LONG_RECORD",
    "OutputSink",
    "RecordFormat",
    "count_separators",
    "emit",
    "gather",
    "read_finding",
    "read_into",
    "record_ends",
    "stdin_bytes",
]

BOM = b"\xef\xbb\xbf"
"""A UTF-8 byte-order mark: at the start of a file of lines it stays at the start."""

_GATHER_IN_TWO = 1 << 16
"""Records from which ``gather(threads=2)`` uses two threads."""

LONG_RECORD = 1 << 20
"""Records of this many bytes or more are written straight from the input, not gathered."""

_SCAN = 1 << 22  # bytes compared at a time when finding separators (stays in the cache)

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
    data: npt.NDArray[np.uint8],
    separator: int,
    first: int,
    dtype: type[np.signedinteger[Any]],
    engine: Engine = "auto",
) -> npt.NDArray[Any]:
    """The places one past each ``separator`` in ``data``, plus ``first``, of ``dtype``.

    Compiled: counted, then found (``croupier._core.record_kernels``); plain: numpy.
    """
    if resolve(engine) == "compiled":
        from croupier._core import record_kernels

        ends: npt.NDArray[Any] = np.empty(record_kernels.count_byte(data, separator), dtype)
        record_kernels.byte_ends(data, separator, first, ends)
        return ends
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
    engine: Engine = "auto",
) -> npt.NDArray[Any]:
    """The end (one past the separator) of every complete record of ``data``, plus ``offset``.

    Of ``dtype`` (``int64``; ``int32`` when the ends are known to fit, half the memory).
    Large inputs are scanned in ``threads`` threads (the kernels run without holding the
    interpreter); ``engine="python"`` finds them with numpy, the specification.
    """
    if fmt.record_size is not None:
        first = fmt.record_size + offset
        return np.arange(first, data.size + offset + 1, fmt.record_size, dtype=dtype)
    assert fmt.separator is not None
    separator = fmt.separator

    def scan(a: int) -> npt.NDArray[Any]:
        return _separators(data[a : a + _SCAN], separator, a + offset, dtype, engine)

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
    if data.flags.c_contiguous:
        from croupier._core import record_kernels

        return int(record_kernels.count_byte(data, fmt.separator))
    total = 0
    for a in range(0, data.size, _SCAN):  # (the comparison stays in the cache)
        total += int(np.count_nonzero(data[a : a + _SCAN] == fmt.separator))
    return total


def read_finding(
    handle: BinaryIO,
    buffer: npt.NDArray[np.uint8],
    fmt: RecordFormat,
    *,
    dtype: type[np.signedinteger[Any]] = np.int64,
    block: int = _SCAN,
) -> tuple[int, npt.NDArray[Any] | None]:
    """Fill ``buffer`` from ``handle`` and find the records' ends as it fills: bytes read,
    and the end of every complete record (:func:`record_ends` of the bytes read).

    Each block read is scanned in another thread while the next one is read
    (scanning is quicker than reading, so it costs nothing beside it).  The ends
    are ``None`` for fixed-size records (they need none) and for a stream
    without ``readinto`` (read by :func:`read_into`).

    >>> import io
    >>> buf = np.zeros(8, np.uint8)
    >>> got, ends = read_finding(io.BytesIO(b"ab\\ncd\\ne"), buf, RecordFormat(), block=2)
    >>> got, ends.tolist()
    (7, [3, 6])
    """
    readinto = getattr(handle, "readinto", None)
    if fmt.separator is None or readinto is None:
        return read_into(handle, buffer), None
    separator = fmt.separator
    view = memoryview(buffer)  # type: ignore[arg-type]
    got = 0
    from concurrent.futures import Future, ThreadPoolExecutor

    parts: list[Future[npt.NDArray[Any]]] = []
    with ThreadPoolExecutor(1) as pool:
        while got < len(view):
            n = readinto(view[got : got + block])
            if not n:
                break
            parts.append(pool.submit(_separators, buffer[got : got + n], separator, got, dtype))
            got += n
        found = [part.result() for part in parts]
    if not found:
        return got, np.zeros(0, dtype)
    return got, found[0] if len(found) == 1 else np.concatenate(found)


def gather(
    data: npt.NDArray[np.uint8],
    starts: npt.NDArray[Any],
    lengths: npt.NDArray[Any],
    order: npt.NDArray[Any] | None = None,
    *,
    total: int | None = None,
    threads: int = 1,
    engine: Engine = "auto",
    bounds: npt.NDArray[Any] | None = None,
) -> npt.NDArray[np.uint8]:
    """The records ``data[starts[i] : starts[i] + lengths[i]]`` for ``i`` in ``order``
    (``None``: every record in turn), concatenated.

    Compiled (``croupier._core.record_kernels``): one copy per record, the records a
    few places ahead prefetched, without the interpreter lock; ``total`` (the bytes
    of the result) saves counting them; ``threads=2`` gathers each half of a long
    order in its own thread.  ``bounds``, when the records lie end to end (record
    ``i`` ends where ``i + 1`` starts: ``bounds`` is ``starts`` and the last end, 32-
    or 64-bit like ``starts``), lets the kernel read a record's place and length from
    one spot, one cache miss a record fewer.  ``engine="python"``: slices joined, the
    specification.

    >>> d = np.frombuffer(b"abcdef", np.uint8)
    >>> gather(d, np.array([4, 0, 1]), np.array([2, 1, 3])).tobytes()
    b'efabcd'
    >>> gather(d, np.array([0, 2, 4]), np.array([2, 2, 2]), np.array([2, 0])).tobytes()
    b'efab'
    """
    if order is None:
        order = np.arange(lengths.size, dtype=np.int64)
    if order.size == 0:
        return np.zeros(0, np.uint8)
    if resolve(engine) == "python":
        return gather_reference(data, starts, lengths, order)
    from croupier._core import record_kernels

    narrow = lengths if lengths.dtype == np.uint32 else lengths.astype(np.uint32)
    picks = np.ascontiguousarray(order, np.int64)
    half = picks.size // 2 if threads > 1 and picks.size >= _GATHER_IN_TWO else 0
    if total is None or half:
        first_bytes = int(narrow[picks[:half]].sum(dtype=np.int64)) if half else 0
        total = first_bytes + int(narrow[picks[half:]].sum(dtype=np.int64))
    out = np.empty(total, np.uint8)

    def kernel(a: int, b: int, into: npt.NDArray[np.uint8]) -> object:
        if bounds is not None:
            return record_kernels.gather_bounds(data, bounds, picks, a, b, into)
        return record_kernels.gather(data, places, narrow, picks, a, b, into)

    if bounds is not None and (
        bounds.dtype not in (np.int32, np.int64) or bounds.size != lengths.size + 1
    ):
        raise ValueError("bounds are the records' starts and the last end, 32- or 64-bit")
    places = starts if starts.dtype == np.int32 else np.ascontiguousarray(starts, np.int64)
    if not half:
        kernel(0, picks.size, out)
        return out
    from croupier.shuffling.split_move import in_two

    in_two(
        True,
        lambda: kernel(0, half, out[:first_bytes]),
        lambda: kernel(half, picks.size, out[first_bytes:]),
    )
    return out


def gather_reference(
    data: npt.NDArray[np.uint8],
    starts: npt.NDArray[Any],
    lengths: npt.NDArray[Any],
    order: npt.NDArray[Any],
) -> npt.NDArray[np.uint8]:
    """:func:`gather` in plain Python: one slice per record, joined (the specification).

    >>> d = np.frombuffer(b"abcdef", np.uint8)
    >>> gather_reference(d, np.array([0, 4]), np.array([1, 2]), np.array([1, 0])).tobytes()
    b'efa'
    """
    raw = memoryview(data).cast("B")  # type: ignore[arg-type]
    picked = [(int(starts[i]), int(lengths[i])) for i in order.tolist()]
    return np.frombuffer(b"".join(bytes(raw[a : a + n]) for a, n in picked), np.uint8)


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
) -> Iterator[tuple[int, int, int]]:
    """Places ``[a, b)`` of ``order`` to write at once, and their bytes: about
    ``slice_bytes`` each, and every record of :data:`LONG_RECORD` bytes or more alone
    (``croupier._core.record_kernels.cut_slices``, a million places at a time).

    >>> list(_slices(np.array([3, 4, 5], np.uint32), np.array([2, 0, 1]), 6))
    [(0, 2, 8), (2, 3, 4)]
    """
    from croupier._core import record_kernels

    narrow = lengths if lengths.dtype == np.uint32 else lengths.astype(np.uint32)
    picks = np.ascontiguousarray(order, np.int64)
    block = 1 << 20
    ends = np.empty(min(block, picks.size), np.int64)
    nbytes = np.empty_like(ends)
    for first in range(0, picks.size, block):
        last = min(first + block, picks.size)
        made = record_kernels.cut_slices(
            narrow, picks, first, last, slice_bytes, LONG_RECORD, ends, nbytes
        )
        a = first
        for b, size in zip(ends[:made].tolist(), nbytes[:made].tolist(), strict=True):
            yield a, b, size
            a = b


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
    bounds: npt.NDArray[Any] | None = None,
) -> None:
    """Write the records in ``order`` (record ``order[q]`` at place ``q``), in slices
    (``bounds``: as for :func:`gather`, when the records lie end to end).

    ``order`` is one array or its pieces in turn (an iterable, made while the
    first ones are written).  Each slice of about ``slice_bytes`` is gathered
    (:func:`gather`) and written at once, the next slices being gathered
    meanwhile in ``threads`` threads (numpy copies without holding the
    interpreter); a record of :data:`LONG_RECORD` bytes or more is written
    straight from ``data``.
    """

    narrow = lengths if lengths.dtype == np.uint32 else lengths.astype(np.uint32)

    def piece(slice_of: tuple[npt.NDArray[np.intp], int]) -> Any:
        which, nbytes = slice_of
        if which.size == 1 and int(lengths[which[0]]) >= LONG_RECORD:
            start = int(starts[which[0]])
            return data[start : start + int(lengths[which[0]])]
        return gather(data, starts, narrow, which, total=nbytes, bounds=bounds)

    def put(part: Any) -> None:
        sink.write(part)
        if advance is not None:
            advance(len(part))

    def pieces() -> Iterator[tuple[npt.NDArray[np.intp], int]]:
        for part in [order] if isinstance(order, np.ndarray) else order:
            for a, b, nbytes in _slices(lengths, part, slice_bytes):
                yield part[a:b], nbytes

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
