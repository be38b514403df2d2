"""A uniform sample of a file's records in one pass: ``croupier-reservoir/1``.

``croupier shuffle --file F -n K`` (``--head-count K``, as GNU ``shuf -n K``)
reads the records once, whatever their number, and holds ``K`` of them:

1. records ``0 .. K-1`` fill the slots ``0 .. K-1`` of the reservoir;
2. record ``i >= K`` is kept with probability exactly ``K / (i + 1)`` and then
   replaces the record in a uniformly drawn slot (Vitter's Algorithm R);
3. at the end the reservoir (``min(K, n)`` records) is put in a uniformly
   random order by the split shuffle (``croupier-shuffle-split/1``).

So every ordered selection of ``K`` of the ``n`` records has probability
exactly ``(n - K)! / n!``.  The randomness comes from streams keyed by 256
bits of the source (``docs/scale.md`` gives them): the keep decision of record
``i`` compares the bits of a uniform number with those of ``K / (i + 1)``,
reading only as many as it takes (two on average).

>>> import io
>>> from croupier.randomness import SeededSource
>>> text = b"".join(b"%d\\n" % i for i in range(1000))
>>> out = io.BytesIO()
>>> report = sample_stream(io.BytesIO(text), out.write, 3, source=SeededSource("doc", "x"))
>>> len(out.getvalue().split()), report.records, report.kept
(3, 1000, 3)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Protocol

import numpy as np
import numpy.typing as npt

from croupier.algorithm_ids import RESERVOIR
from croupier.errors import CroupierError, FileFormatError
from croupier.randomness.keyed_blocks import KeyedBlocks, keyed_block
from croupier.randomness.source import BitSource, OsRandomSource
from croupier.randomness.uniform import Chooser
from croupier.scale.records import BOM, OutputSink, RecordFormat, record_ends

__all__ = [
    "RESERVOIR_ALGORITHM_ID",
    "ReservoirStreams",
    "SampleReport",
    "sample_stream",
]

RESERVOIR_ALGORITHM_ID = RESERVOIR
"""Id and version of the one-pass sample (``docs/reproducibility.md``)."""

_WORDS = 65536  # decision words per block
_KEEP_LABEL = b"croupier-reservoir/1 keep"  # the keyed blocks of the keep decisions
_TIE_LABEL = b"croupier-reservoir/1 tie"  # a decision's bits past its first 32
_CHUNK = 1 << 22
_U64 = np.uint64


class _BlockBits(BitSource):
    """A bit source reading ``SHAKE-128(key || label || b)`` blocks of 64 KiB in turn."""

    def __init__(self, key: bytes, label: bytes) -> None:
        super().__init__()
        self.blocks = KeyedBlocks(key, label)
        self.block = 0
        self.buffer = b""
        self.pos = 0  # bits of buffer used

    def _more(self) -> None:
        rest = self.buffer[self.pos // 8 :]
        self.buffer = rest + self.blocks.block(self.block, 1 << 16)
        self.pos %= 8
        self.block += 1

    def _random_bits(self, k: int) -> int:
        while self.pos + k > 8 * len(self.buffer):
            self._more()
        start, end = self.pos // 8, (self.pos + k + 7) // 8
        value = int.from_bytes(self.buffer[start:end], "big")
        value >>= 8 * (end - start) - (self.pos % 8) - k
        self.pos += k
        return value & ((1 << k) - 1)

    def describe(self) -> str:
        return "a keyed SHAKE-128 stream"


class Decisions(Protocol):
    """Where the keep decisions and slot draws come from (the streams, or a chooser in tests)."""

    def keep(self, first: int, count: int, k: int) -> tuple[npt.NDArray[np.bool_], int]:
        """Keep record ``i`` (``first <= i < first + count``) with probability ``k / (i + 1)``."""
        ...

    def slots(self, count: int, k: int) -> npt.NDArray[np.int64]:
        """``count`` uniform slots below ``k``, in order."""
        ...

    def order(self, n: int) -> npt.NDArray[np.intp]:
        """A uniform arrangement of the reservoir's ``n`` records."""
        ...

    @property
    def bits(self) -> int:
        """Random bits used so far."""
        ...


class ReservoirStreams:
    """The streams of ``croupier-reservoir/1`` under a 32-byte key.

    * decisions: record ``i`` has the 32-bit word ``i % 65536`` of block
      ``i // 65536`` of ``SHAKE-128(key || "croupier-reservoir/1 keep" || b)``
      (a tie with the bits of ``K/(i+1)``, chance ``2**-32``, reads on in
      ``SHAKE-128(key || "croupier-reservoir/1 tie" || i)``);
    * slots: ``SHAKE-128(key || "croupier-reservoir/1 slot" || b)`` read in turn;
    * the final order: ``... "croupier-reservoir/1 order" ...`` the same way.
    """

    def __init__(self, key: bytes) -> None:
        self.key = bytes(key)
        self._slot = _BlockBits(self.key, b"croupier-reservoir/1 slot")
        self._order = _BlockBits(self.key, b"croupier-reservoir/1 order")
        self._bits = 0

    @classmethod
    def from_source(cls, source: BitSource) -> ReservoirStreams:
        """The streams keyed by the next 256 bits of ``source``."""
        return cls(source.bits(256).to_bytes(32, "big"))

    @property
    def bits(self) -> int:
        return self._bits + self._slot.bits_used_exact + self._order.bits_used_exact

    def _words(self, first: int, count: int) -> npt.NDArray[np.uint64]:
        parts = []
        while count:
            block, offset = divmod(first, _WORDS)
            take = min(count, _WORDS - offset)
            raw = keyed_block(self.key, _KEEP_LABEL, block, 4 * (offset + take))
            parts.append(np.frombuffer(raw, ">u4")[offset:].astype(_U64))
            first += take
            count -= take
        return np.concatenate(parts) if parts else np.zeros(0, _U64)

    def keep(self, first: int, count: int, k: int) -> tuple[npt.NDArray[np.bool_], int]:
        u = self._words(first, count)
        places = np.arange(first + 1, first + count + 1, dtype=_U64)  # i + 1
        scaled = _U64(k) << _U64(32)  # K * 2**32: the bits of K/(i+1) are scaled // (i+1)
        c = scaled // places
        kept = u < c
        tie = np.flatnonzero((u == c) & (c * places != scaled))
        for t in tie.tolist():  # (chance 2**-32 each) read on until the bits differ
            kept[t] = self._tie(first + t, k)
        # the bits read: up to the first one where u and the bits of K/(i+1) differ
        differ = np.where(u == c, _U64(1), u ^ c)
        read = 33 - _bit_lengths(differ)
        self._bits += int(read.sum())
        return kept, 0

    def _tie(self, i: int, k: int) -> bool:
        """``U < K/(i+1)`` for record ``i`` whose first 32 bits equal those of ``K/(i+1)``."""
        known = 32
        value = int(self._words(i, 1)[0])
        size = 8
        while True:
            extra = int.from_bytes(keyed_block(self.key, _TIE_LABEL, i, size), "big")
            bits = 8 * size
            total = known + bits
            u = (value << bits) | extra
            target = (k << total) // (i + 1)  # the first total bits of K/(i+1)
            if u != target:
                self._bits += bits
                return bool(u < target)
            if target * (i + 1) == k << total:  # K/(i+1) ends here: U >= it
                self._bits += bits
                return False
            size *= 2

    def slots(self, count: int, k: int) -> npt.NDArray[np.int64]:
        if k == 1:
            return np.zeros(count, np.int64)
        from croupier.randomness.uniform import UniformSampler

        sampler = UniformSampler(self._slot)
        return np.array([sampler.below(k) for _ in range(count)], np.int64)

    def order(self, n: int) -> npt.NDArray[np.intp]:
        from croupier.shuffling.split import split_order

        return split_order(n, self._order)


def _bit_lengths(x: npt.NDArray[np.uint64]) -> npt.NDArray[np.int64]:
    """``bit_length`` of each value (below ``2**32``), exactly, in integers."""
    out = np.zeros(x.shape, np.int64)
    rest = x.copy()
    for shift in (16, 8, 4, 2, 1):
        big = rest >= _U64(1 << shift)
        out += big * shift
        rest = np.where(big, rest >> _U64(shift), rest)
    return out + (rest > 0)


class ChooserDecisions:
    """The same decisions from any chooser: keep ``below(i + 1) < K``, slot ``below(K)``.

    For tests: under :func:`~croupier.randomness.exact_distribution` every
    choice is walked.
    """

    def __init__(self, chooser: Chooser) -> None:
        self.chooser = chooser
        self.bits = 0

    def keep(self, first: int, count: int, k: int) -> tuple[npt.NDArray[np.bool_], int]:
        below = self.chooser.below
        return np.array([below(first + t + 1) < k for t in range(count)], bool), 0

    def slots(self, count: int, k: int) -> npt.NDArray[np.int64]:
        return np.array([self.chooser.below(k) for _ in range(count)], np.int64)

    def order(self, n: int) -> npt.NDArray[np.intp]:
        from croupier.shuffling.split import split_order

        return split_order(n, self.chooser)


@dataclass
class SampleReport:
    """What a sample did: records read, kept, and random bits used."""

    records: int = 0
    kept: int = 0
    bytes: int = 0
    bits_used: int = 0
    algorithm: str = RESERVOIR_ALGORITHM_ID
    removed_leftovers: list[Path] = field(default_factory=list)

    @property
    def log2_choices(self) -> float:
        """``log2(n! / (n - K)!)``: the fewest bits an exact ordered sample needs on average."""
        n, k = self.records, self.kept
        return (math.lgamma(n + 1) - math.lgamma(n - k + 1)) / math.log(2) if n else 0.0


def sample_stream(
    infile: BinaryIO,
    write: Any,
    count: int,
    *,
    source: BitSource | None = None,
    decisions: Decisions | None = None,
    fmt: RecordFormat | None = None,
) -> SampleReport:
    """Write ``count`` records of ``infile`` drawn uniformly without replacement, in random order.

    One pass over the input, holding the ``count`` kept records (see the
    module docstring).  Fewer records than ``count``: all of them, shuffled.
    """
    fmt = fmt or RecordFormat()
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise CroupierError(f"count={count!r} is not a number of records (0 or more)")
    if decisions is None:
        decisions = ReservoirStreams.from_source(source or OsRandomSource())
    report = SampleReport()
    slots: list[bytes] = []
    index = 0
    pending: list[bytes] = []  # the pieces of a record that goes on past the blocks read
    bom = b""
    last_complete = b""
    while block := infile.read(_CHUNK):
        if report.bytes == 0 and fmt.lines:
            while len(block) < 3 and (more := infile.read(3 - len(block))):
                block += more
            if block.startswith(BOM):
                bom, block = BOM, block[3:]
        report.bytes += len(block) + len(bom) * (report.bytes == 0)
        if fmt.record_size is not None:  # whole records only: keep the rest for the next block
            block = b"".join(pending) + block
            pending = []
        data = np.frombuffer(block, np.uint8)
        ends = record_ends(data, fmt)
        if ends.size == 0:
            pending.append(block)
            continue
        tail = int(ends[-1])  # the bytes after it begin a record that goes on
        starts = np.concatenate(([0], ends[:-1]))
        if pending:  # the first record began in earlier blocks
            head = b"".join(pending) + block[: int(ends[0])]
            pending = []
            index = _take(head, np.zeros(1, np.int64), np.array([len(head)]), index, count,
                          slots, decisions)  # fmt: skip
            starts, ends = starts[1:], ends[1:]
            last_complete = head[-2:]
        if ends.size:
            index = _take(block, starts, ends, index, count, slots, decisions)
            last_complete = block[max(int(starts[-1]), tail - 2) : tail]
        if tail < len(block):
            pending.append(block[tail:])
    carry = b"".join(pending)
    is_open = bool(carry)
    if is_open:
        if fmt.separator is None:
            raise FileFormatError(
                f"the input ends inside a record ({len(carry):,} bytes left over, not a "
                f"whole record of {fmt.record_size:,})"
            )
        record = carry + fmt.ending_after(last_complete)
        index = _take(record, np.zeros(1, np.int64), np.array([len(record)]), index, count,
                      slots, decisions)  # fmt: skip
    report.records = index
    report.kept = len(slots)
    order = decisions.order(len(slots))
    sink = OutputSink(write, drop_final=fmt if is_open else None)
    if bom:
        sink.write(bom)
    for i in order.tolist():
        sink.write(slots[i])
    sink.finish()
    report.bits_used = decisions.bits
    return report


def _take(
    block: bytes,
    starts: npt.NDArray[np.int64],
    ends: npt.NDArray[np.int64],
    index: int,
    count: int,
    slots: list[bytes],
    decisions: Decisions,
) -> int:
    """Records ``index, index + 1, ...`` (the pieces of ``block``) through the reservoir."""
    total = starts.size
    fill = min(total, max(0, count - index))
    for a, b in zip(starts[:fill].tolist(), ends[:fill].tolist(), strict=True):
        slots.append(block[a:b])
    if fill == total:
        return index + total
    kept, _ = decisions.keep(index + fill, total - fill, count)
    chosen = np.flatnonzero(kept) + fill
    if chosen.size:
        where = decisions.slots(int(chosen.size), count)
        # the last record placed in a slot is the one that stays there
        last: dict[int, int] = {}
        for place, slot in enumerate(where.tolist()):
            last[slot] = place
        winners = np.array(sorted(last.values()), np.intp)
        for slot, j in zip(where[winners].tolist(), chosen[winners].tolist(), strict=True):
            slots[slot] = block[int(starts[j]) : int(ends[j])]
    return index + total
