"""The text of dealer's print actions and end-of-run statistics, byte for byte.

Each ``*_records`` function renders one print action for a whole
:class:`~croupier.bulk.DealArray` with numpy and returns :class:`Records`:
the bytes of every deal's record, which :class:`croupier.simulate.actions.ActionRunner`
interleaves when a script has several print actions.  The layouts are those
of the ``dealer`` program (Debian build 2021-11-21):

* ``printall``: ``%4d.`` (the produced deal's number), then one line per suit
  (spades first) with the four hands N E S W side by side, each card
  ``"A "``, a void ``"- "``, every hand but the last padded to 20 columns,
  then an empty line;
* ``printew``: the same for West then East, without a number;
* ``printcompact``: ``n <S.H.D.C>`` and likewise ``e``, ``s``, ``w`` on four lines;
* ``printoneline``: ``n <hand> e <hand> s <hand> w <hand> `` on one line;
* the value of an optional expression follows (``%d`` and a line end);
* ``print(seats)``: each seat's hands, four deals across, at the end of the run.

>>> from croupier.bulk.writers import parse_oneline
>>> deals = parse_oneline(
...     "n AKQJT98765432... e .AKQJT98765432.. s ..AKQJT98765432. w ...AKQJT98765432 \\n")
>>> print(printew_records(deals).data.decode(), end="")
-                   -
-                   A K Q J T 9 8 7 6 5 4 3 2
-                   -
A K Q J T 9 8 7 6 5 4 3 2 -
<BLANKLINE>
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from croupier.bulk.array import DealArray
from croupier.bulk.writers.rows import PAD, Bytes2D, Part, decimal_digits, fill_rows
from croupier.frozen import frozen_dataclass
from croupier.seats import Seat, Vulnerability
from croupier.simulate.stats import AverageResult, Frequency2DResult, FrequencyResult

__all__ = [
    "Records",
    "dealer_average_text",
    "dealer_frequency2d_text",
    "dealer_frequency_text",
    "holdings_of",
    "int_column",
    "interleaved",
    "print_seat_text",
    "printall_records",
    "printcompact_records",
    "printew_records",
    "printoneline_records",
    "printpbn_records",
    "printpbn_records_reference",
]

_RANK_LETTERS = "23456789TJQKA"  # bit i of a ranks-held mask is _RANK_LETTERS[i]
_CELL = 26  # 13 cards of 2 characters
_COLUMN = 20  # dealer pads a hand to 10 cards of 2 characters


@frozen_dataclass
class Records:
    """The text of one action for a batch of deals: all records, and where each deal's ends.

    >>> r = Records.from_list([b"ab", b"", b"c"])
    >>> r.data, r.ends.tolist(), r.record(0), r.record(2)
    (b'abc', [2, 2, 3], b'ab', b'c')
    """

    data: bytes
    ends: npt.NDArray[np.int64]

    @classmethod
    def from_list(cls, records: Sequence[bytes]) -> Records:
        """Records from one byte string per deal."""
        lengths = np.fromiter((len(r) for r in records), np.int64, len(records))
        return cls(b"".join(records), np.cumsum(lengths))

    @classmethod
    def from_rows(cls, rows: Bytes2D) -> Records:
        """Records from fixed-width rows padded with :data:`~croupier.bulk.writers.rows.PAD`
        (every pad byte dropped, in the compiled core: ``record_kernels.squeeze_rows``).

        >>> Records.from_rows(np.array([[65, 0], [66, 67]], np.uint8)).ends.tolist()
        [1, 3]
        """
        from croupier._core.record_kernels import squeeze_rows

        rows = np.ascontiguousarray(rows, np.uint8)
        out = np.empty(rows.size, np.uint8)
        ends = np.empty(rows.shape[0], np.int64)
        if rows.size:
            kept = squeeze_rows(rows, PAD, out, ends)
        else:
            kept, ends[:] = 0, 0
        return cls(out[:kept].tobytes(), ends)

    @classmethod
    def formatted(cls, items: Sequence[str | npt.NDArray[np.int64]], n: int) -> Records:
        """Records of ``n`` deals, each the items in turn: a text as is, a column of whole
        numbers in decimal (``str`` of each).

        The items are laid side by side in fixed-width rows (each number right-aligned
        in its column's widest, the rest pad bytes) and the pad bytes dropped
        (:meth:`from_rows`); a text holding a NUL byte (the pad) is formatted with
        ``%`` instead, :meth:`formatted_reference`, the specification.

        >>> r = Records.formatted(["a=", np.array([5, -12, 0]), "%\\n"], 3)
        >>> r.data, r.ends.tolist()
        (b'a=5%\\na=-12%\\na=0%\\n', [5, 12, 17])
        """
        if any("\0" in item if isinstance(item, str) else np.size(item) != n for item in items):
            return cls.formatted_reference(items, n)
        parts: list[Part] = [
            item.encode() if isinstance(item, str) else int_column(np.asarray(item, np.int64))
            for item in items
        ]
        return cls.from_rows(_join(parts, n))

    @classmethod
    def formatted_reference(cls, items: Sequence[str | npt.NDArray[np.int64]], n: int) -> Records:
        """:meth:`formatted` by one ``%`` formatting of the whole batch.

        >>> Records.formatted_reference(["a=", np.array([5, -12]), "\\0"], 2).data
        b'a=5\\x00a=-12\\x00'
        """
        lengths = np.zeros(n, np.int64)
        pattern: list[str] = []
        columns: list[npt.NDArray[np.int64]] = []
        for item in items:
            if isinstance(item, str):
                pattern.append(item.replace("%", "%%"))
                lengths += len(item.encode())
            else:
                column = np.asarray(item, np.int64).reshape(-1)
                columns.append(column)
                pattern.append("%d")
                lengths += _decimal_width(column)
        text = "".join(pattern) * n
        if columns:
            text %= tuple(np.stack(columns, axis=1).reshape(-1).tolist())
        return cls(text.encode(), np.cumsum(lengths))

    def record(self, i: int) -> bytes:
        """Deal ``i``'s bytes."""
        start = int(self.ends[i - 1]) if i else 0
        return self.data[start : int(self.ends[i])]


def interleaved(records: Sequence[Records]) -> bytes:
    """Deal by deal, the record of each action in turn: deal 0's record of
    ``records[0]``, of ``records[1]``, ..., then deal 1's, ...  Gathered in one pass
    by the compiled core (``croupier._core.record_kernels.gather``; the records lie
    end to end in each action's text).

    >>> a, b = Records.from_list([b"a0 ", b"a1 "]), Records.from_list([b"b0\\n", b"\\n"])
    >>> interleaved([a, b])
    b'a0 b0\\na1 \\n'
    """
    from croupier._core.record_kernels import gather

    if not records:
        return b""
    n = records[0].ends.size
    if any(r.ends.size != n for r in records):
        raise ValueError("interleaved records hold one record a deal, as many deals each")
    starts = np.empty((n, len(records)), np.int64)
    lengths = np.empty((n, len(records)), np.uint32)
    offset = 0
    for k, r in enumerate(records):
        ends = r.ends.astype(np.int64, copy=False)
        length = np.diff(ends, prepend=0)
        lengths[:, k] = length
        starts[:, k] = ends - length + offset
        offset += len(r.data)
    data = np.frombuffer(b"".join(r.data for r in records), np.uint8)
    out = np.empty(offset, np.uint8)
    if n and offset:
        order = np.arange(starts.size, dtype=np.int64)
        gather(data, starts.reshape(-1), lengths.reshape(-1), order, 0, order.size, out)
    return out.tobytes()


_POWERS = np.array([10**k for k in range(1, 20)], np.uint64)


def _decimal_width(values: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Characters of ``str(v)`` for each whole number ``v`` (its sign included).

    >>> _decimal_width(np.array([0, 9, 10, -10, -(2**63), 2**63 - 1])).tolist()
    [1, 1, 2, 3, 20, 19]
    """
    negative = values < 0
    magnitude = values.astype(np.uint64)
    magnitude[negative] = np.uint64(0) - magnitude[negative]
    width: npt.NDArray[np.int64] = np.searchsorted(_POWERS, magnitude, side="right").astype(
        np.int64
    )
    return width + 1 + negative


def _join(parts: Sequence[Part], n: int) -> Bytes2D:
    width = sum(len(p) if isinstance(p, bytes) else int(p.shape[1]) for p in parts)
    out = np.empty((n, width), np.uint8)
    fill_rows(parts, out)
    return out


@lru_cache(maxsize=1)
def _cells() -> tuple[Bytes2D, Bytes2D]:
    """dealer's text of every suit holding (13-bit mask): padded to 20 columns, and unpadded.

    A holding is its cards highest first, each a letter and a space (``"A K 5 "``), or
    ``"- "`` for a void; the padded text is filled with spaces to 20 columns.  Built with
    numpy, rank by rank, once per process (8,192 Python strings took longer than a short
    run):

    >>> padded, last = _cells()
    >>> bytes(last[0b1000000001000][:4]), bytes(padded[0][padded[0] != PAD])
    (b'A 5 ', b'-                   ')
    """
    letters = _RANK_LETTERS.encode()
    last = np.zeros((1, 0), np.uint8)  # the holdings of no rank: one, empty
    for rank in range(13):  # the holdings of the ranks up to this one: without it, then with it
        n = last.shape[0]
        card = np.empty((n, 2), np.uint8)
        card[:, 0], card[:, 1] = letters[rank], ord(" ")
        without = np.hstack([last, np.full((n, 2), PAD, np.uint8)])
        last = np.vstack([without, np.hstack([card, last])])  # the higher card first
    last[0, :2] = np.frombuffer(b"- ", np.uint8)  # a void
    padded = last.copy()
    head = padded[:, :_COLUMN]  # each text starts a row: PAD there is after its end
    head[head == PAD] = ord(" ")
    return padded, last


def _suit_lines(ranks: npt.NDArray[np.uint16], seats: Sequence[int]) -> list[Part]:
    """Four lines (spades first): the seats' holdings side by side, as dealer's printall."""
    padded, last = _cells()
    parts: list[Part] = []
    for suit in range(4):
        for k, seat in enumerate(seats):
            table = last if k == len(seats) - 1 else padded
            parts.append(table[ranks[:, seat, suit]])
        parts.append(b"\n")
    return parts


def int_column(values: npt.ArrayLike, *, width: int = 1) -> Bytes2D:
    """C's ``%<width>d`` of each value as a row of bytes (short rows padded with PAD).

    >>> rows = int_column(np.array([7, -42, 12345]), width=4)
    >>> [bytes(r[r != 0]) for r in rows]
    [b'   7', b' -42', b'12345']
    """
    v = np.asarray(values, dtype=np.int64).ravel()
    magnitude = np.abs(v).astype(np.uint64)
    ndig = np.ones(v.shape[0], np.int64)
    for k in range(1, 20):  # one pass per possible digit
        ndig += magnitude >= np.uint64(10**k)
    digits = int(ndig.max()) if v.size else 1
    negative = v < 0
    size = max(digits + 1, width)
    out = np.zeros((v.shape[0], size), np.uint8)
    out[:, size - digits :] = decimal_digits(magnitude, digits)
    rows = np.nonzero(negative)[0]
    out[rows, size - ndig[rows] - 1] = ord("-")
    shown = ndig + negative
    cols = np.arange(size)[None, :]
    pad = (cols >= size - width) & (cols < size - shown[:, None])
    out[pad] = ord(" ")
    return out


def printall_records(deals: DealArray, first_number: int) -> Records:
    """``printall``: the deal's number and the four hands side by side.

    >>> from croupier.bulk.writers import parse_oneline
    >>> deals = parse_oneline(
    ...     "n AKQJT98765432... e .AKQJT98765432.. s ..AKQJT98765432. w ...AKQJT98765432 \\n")
    >>> print(printall_records(deals, 7).data.decode(), end="")
       7.
    A K Q J T 9 8 7 6 5 4 3 2 -                   -                   -
    -                   A K Q J T 9 8 7 6 5 4 3 2 -                   -
    -                   -                   A K Q J T 9 8 7 6 5 4 3 2 -
    -                   -                   -                   A K Q J T 9 8 7 6 5 4 3 2
    <BLANKLINE>
    """
    n = len(deals)
    numbers = np.arange(first_number, first_number + n, dtype=np.int64)
    parts: list[Part] = [int_column(numbers, width=4), b".\n"]
    parts += _suit_lines(deals.ranks_held(), (0, 1, 2, 3))
    parts.append(b"\n")
    return Records.from_rows(_join(parts, n))


def printew_records(deals: DealArray) -> Records:
    """``printew``: West's and East's hands side by side (see the module)."""
    parts = [*_suit_lines(deals.ranks_held(), (3, 1)), b"\n"]
    return Records.from_rows(_join(parts, len(deals)))


def _with_values(lines: Bytes2D, values: npt.ArrayLike | None, *, ended: bool) -> Records:
    """``lines``, then the value and a line end; a line end alone unless ``ended``."""
    parts: list[Part] = [lines]
    if values is not None:
        parts += [int_column(values), b"\n"]
    elif not ended:
        parts.append(b"\n")
    return Records.from_rows(_join(parts, lines.shape[0]))


def printcompact_records(deals: DealArray, values: npt.ArrayLike | None = None) -> Records:
    """``printcompact``: ``n <hand>`` ... on four lines, then the optional value.

    >>> from croupier.bulk.writers import parse_oneline
    >>> deals = parse_oneline(
    ...     "n AKQJT98765432... e .AKQJT98765432.. s ..AKQJT98765432. w ...AKQJT98765432 \\n")
    >>> print(printcompact_records(deals, [-3]).data.decode(), end="")
    n AKQJT98765432...
    e .AKQJT98765432..
    s ..AKQJT98765432.
    w ...AKQJT98765432
    -3
    """
    from croupier.bulk.writers.text import oneline_buffer

    lines = np.array(oneline_buffer(deals), np.uint8).reshape(len(deals), -1)[:, :76].copy()
    lines[:, [18, 37, 56, 75]] = ord("\n")
    return _with_values(lines, values, ended=True)


def printoneline_records(deals: DealArray, values: npt.ArrayLike | None = None) -> Records:
    """``printoneline``: one line per deal (a space after West's hand), then the optional value.

    >>> from croupier.bulk.writers import parse_oneline
    >>> deals = parse_oneline(
    ...     "n AKQJT98765432... e .AKQJT98765432.. s ..AKQJT98765432. w ...AKQJT98765432 \\n")
    >>> printoneline_records(deals, [10]).data
    b'n AKQJT98765432... e .AKQJT98765432.. s ..AKQJT98765432. w ...AKQJT98765432 10\\n'
    """
    from croupier.bulk.writers.text import oneline_buffer

    lines = np.array(oneline_buffer(deals), np.uint8).reshape(len(deals), -1)[:, :76]
    return _with_values(lines, values, ended=False)


def printpbn_records(
    deals: DealArray,
    first_number: int,
    *,
    event: str,
    date: str,
    dealer: str | None = None,
    vulnerable: str | None = None,
) -> Records:
    """``printpbn``: a PBN game per deal with dealer's tags.

    ``[Board]`` is the produced deal's number; ``[Dealer]`` is ``dealer``
    when the script sets it, else it rotates N E S W with the board;
    ``[Vulnerable]`` likewise (the standard 16-board cycle).

    >>> from croupier.bulk.writers import parse_oneline
    >>> deals = parse_oneline(
    ...     "n AKQJT98765432... e .AKQJT98765432.. s ..AKQJT98765432. w ...AKQJT98765432 \\n")
    >>> text = printpbn_records(deals, 2, event="e", date="2024.01.31").data.decode()
    >>> text.splitlines()[3], text.splitlines()[8], text.splitlines()[9]
    ('[Board "2"]', '[Dealer "E"]', '[Vulnerable "NS"]')
    """
    from croupier.bulk.writers.rows import token_table
    from croupier.bulk.writers.text import pbn_deal_buffer

    texts = (event, date, dealer or "", vulnerable or "")
    if any("\0" in text for text in texts):  # (the pad byte: kept by the plain loop)
        return printpbn_records_reference(
            deals, first_number, event=event, date=date, dealer=dealer, vulnerable=vulnerable
        )
    n = len(deals)
    boards = np.arange(first_number, first_number + n, dtype=np.int64)
    cycle = (boards - 1) % 16  # the dealer's and the vulnerability's cycles (4 and 16 boards)

    def column(fixed: str | None, names: list[str]) -> Part:
        if fixed:  # (as the reference's ``dealer or ...``)
            return fixed.encode()
        table, _ = token_table([name.encode() for name in names])
        return table[cycle]

    parts: list[Part] = [
        f'[Event "{event}"]\n[Site "-"]\n[Date "{date}"]\n[Board "'.encode(),
        int_column(boards),
        b'"]\n[West "-"]\n[North "-"]\n[East "-"]\n[South "-"]\n[Dealer "',
        column(dealer, [str(Seat.of_board(b)) for b in range(1, 17)]),
        b'"]\n[Vulnerable "',
        column(vulnerable, [str(Vulnerability.of_board(b)) for b in range(1, 17)]),
        b'"]\n[Deal "',
        np.ascontiguousarray(pbn_deal_buffer(deals)[:, :-1]),
        b'"]\n[Declarer "?"]\n[Contract "?"]\n[Result "?"]\n\n',
    ]
    return Records.from_rows(_join(parts, n))


def printpbn_records_reference(
    deals: DealArray,
    first_number: int,
    *,
    event: str,
    date: str,
    dealer: str | None = None,
    vulnerable: str | None = None,
) -> Records:
    """:func:`printpbn_records` deal by deal, the specification."""
    from croupier.bulk.writers.text import pbn_deal_buffer

    deal_lines = pbn_deal_buffer(deals)
    head = f'[Event "{event}"]\n[Site "-"]\n[Date "{date}"]\n[Board "'
    players = '"]\n[West "-"]\n[North "-"]\n[East "-"]\n[South "-"]\n[Dealer "'
    tail = '"]\n[Declarer "?"]\n[Contract "?"]\n[Result "?"]\n\n'
    records = []
    for i in range(len(deals)):  # per deal: printing only, the deal strings are built above
        board = first_number + i
        seat = dealer or Seat.of_board(board)
        vul = vulnerable or Vulnerability.of_board(board)
        text = f'{head}{board}{players}{seat}"]\n[Vulnerable "{vul}"]\n[Deal "'
        records.append(text.encode() + bytes(deal_lines[i, :-1]) + tail.encode())
    return Records.from_list(records)


def holdings_of(deals: DealArray, seats: Sequence[int]) -> npt.NDArray[np.uint16]:
    """The ranks held by ``seats`` (pile indices) in each suit: ``(n, len(seats), 4)`` uint16.

    This is all :func:`print_seat_text` needs (bit ``r`` is rank ``r``, 0 the deuce).

    >>> from croupier.bulk.writers import parse_oneline
    >>> deals = parse_oneline(
    ...     "n AKQJT98765432... e .AKQJT98765432.. s ..AKQJT98765432. w ...AKQJT98765432 \\n")
    >>> holdings_of(deals, [1]).tolist()
    [[[0, 8191, 0, 0]]]
    """
    return np.ascontiguousarray(deals.ranks_held()[:, list(seats)])


def print_seat_text(ranks: npt.NDArray[np.uint16], numbers: npt.ArrayLike, seat: int) -> str:
    """``print(seat)`` at the end of a run: the seat's hands, four deals across, then a form feed.

    ``ranks`` holds the seat's ranks per suit, one row per deal (``(n, 4)``,
    see :func:`holdings_of`); ``numbers`` are the deals' numbers.

    >>> from croupier.bulk.writers import parse_oneline
    >>> deals = parse_oneline(
    ...     "n AKQJT98765432... e .AKQJT98765432.. s ..AKQJT98765432. w ...AKQJT98765432 \\n")
    >>> print_seat_text(holdings_of(deals, [1])[:, 0], [1], 1).splitlines()[2::2][:4]
    ['East hands:', '', '   1.               ', 'A K Q J T 9 8 7 6 5 4 3 2 ']
    """
    nums = np.asarray(numbers, dtype=np.int64)
    n = ranks.shape[0]
    full = n - n % 4
    blocks = [f"\n\n{Seat.from_index(seat).long_name} hands:\n\n\n\n".encode()]
    if full:
        blocks.append(_seat_groups(ranks[:full].reshape(-1, 4, 4), nums[:full].reshape(-1, 4)))
    if full < n:
        rest = n - full
        blocks.append(_seat_groups(ranks[full:].reshape(1, rest, 4), nums[full:].reshape(1, rest)))
    blocks.append(b"\f")
    return b"".join(blocks).decode()


def _seat_groups(ranks: npt.NDArray[np.uint16], numbers: npt.NDArray[np.int64]) -> bytes:
    """Groups of ``k`` deals of one seat across (``ranks``: (groups, k, 4 suits))."""
    groups, k = numbers.shape
    padded, last = _cells()
    parts: list[Part] = []
    for i in range(k):
        parts += [int_column(numbers[:, i], width=4), b"." + b" " * 15]
    parts.append(b"\n")
    for suit in range(4):
        for i in range(k):
            parts.append((last if i == k - 1 else padded)[ranks[:, i, suit]])
        parts.append(b"\n")
    parts.append(b"\n")
    rows = _join(parts, groups)
    return bytes(rows[rows != PAD].tobytes())


def _g(value: float) -> str:
    """C's ``%g``, with glibc's ``-nan`` for 0/0."""
    if value != value:
        return "-nan"
    return f"{value:g}"


def dealer_average_text(result: AverageResult) -> str:
    """dealer's line for ``average``: ``label: `` (when labelled) and the mean in C's ``%g``.

    dealer divides its (32-bit) sum by the number of deals in double
    precision; without deals that is 0/0, which it prints as ``-nan``.

    >>> dealer_average_text(AverageResult.of("hcp", "hcp(north)", [10, 10, 11]))
    'hcp: 10.3333\\n'
    >>> dealer_average_text(AverageResult.of(None, "x", []))
    '-nan\\n'
    """
    mean = float(result.sum) / result.count if result.count else float("nan")
    label = f"{result.label}: " if result.label is not None else ""
    return f"{label}{_g(mean)}\n"


def dealer_frequency_text(result: FrequencyResult) -> str:
    """dealer's ``frequency`` table: every value's row, ``Low``/``High`` rows only when not empty.

    >>> print(dealer_frequency_text(FrequencyResult.of("x", "x", 1, 2, [0, 2])), end="")
    Frequency x:
    Low	       1
        1	       0
        2	       1
    """
    lines = [f"Frequency {result.label or ''}:\n"]
    if result.below:
        lines.append(f"Low\t{result.below:8d}\n")
    lines += [f"{v:5d}\t{c:8d}\n" for v, c in zip(result.values, result.counts, strict=True)]
    if result.above:
        lines.append(f"High\t{result.above:8d}\n")
    return "".join(lines)


def dealer_frequency2d_text(result: Frequency2DResult) -> str:
    """dealer's two-dimensional ``frequency`` table, with row and column sums and a blank line.

    >>> t = Frequency2DResult.of(None, ("x", "y"), (0, 0), (1, 1), [0, 0, 5], [1, 1, 1])
    >>> print(dealer_frequency2d_text(t), end="")
    Frequency :
            Low      1   High    Sum
    Low       0      0      0      0
       0      0      2      0      2
    High      0      1      0      1
    Sum       0      3      0      3
    <BLANKLINE>
    """
    (l1, _), (l2, h2) = result.bounds, result.bounds2
    lines = [f"Frequency {result.label or ''}:\n"]
    lines.append(
        "        Low" + "".join(f" {v:6d}" for v in range(l2, h2 + 1)) + "   High    Sum\n"
    )
    last = len(result.counts) - 1
    for i, row in enumerate(result.counts):
        name = "Low " if i == 0 else "High" if i == last else f"{i + l1 - 1:4d}"
        lines.append(name + "".join(f" {c:6d}" for c in row) + f" {sum(row):6d}\n")
    sums = [sum(col) for col in zip(*result.counts, strict=True)]
    lines.append("Sum " + "".join(f" {c:6d}" for c in sums) + f" {result.total:6d}\n\n")
    return "".join(lines)
