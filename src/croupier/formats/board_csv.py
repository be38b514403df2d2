"""Board tables: CSV (one row per board) and one line per deal.

CSV columns: ``board,dealer,vulnerable,north,east,south,west,goedel`` with
each hand written ``S.H.D.C`` (ranks ``AKQJT98765432``) and ``goedel`` the
deal's Big Deal number (computed from the hands of a complete deal).

The one-line format is Big Deal's ``allpbn`` layout: the PBN ``Deal`` value
without ``N:``, hands N E S W, one deal per line.  It holds nothing but the
deals.

Two levels: :func:`format_board_csv`/:func:`parse_board_csv` (and the
``lines`` pair) work on complete :class:`~croupier.boards.Board` values and
read strictly; :func:`format_csv_records`/:func:`read_csv_records` (and
:func:`format_lines_records`/:func:`read_lines_records`) work on
:class:`~croupier.formats.records.BoardRecord` values, keep what the file
leaves out unknown (an empty CSV cell; an unknown hand is ``-``) and report a
row that cannot be read as a skipped game instead of failing the file.

Both CSV readers read a file written plainly (no quotes, one kind of line end) without
:mod:`csv`, and its usual rows (whole deals, as :func:`format_csv_records` writes them) with
str methods or, in files of many rows, numpy; every other file and row is read the general
way, with the same outcome.

>>> from croupier.ranking.bigdeal import goedel_unrank
>>> from croupier.boards import Board
>>> boards = [Board.standard(1, goedel_unrank(0))]
>>> print(format_board_lines(boards), end="")
AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432
>>> format_board_csv(boards).splitlines()[1][:28]
'1,N,None,AKQJT98765432...,.A'
>>> parse_board_csv(format_board_csv(boards)) == boards
True
>>> contents = read_csv_records("north,east,south,west,board\\nAK...,-,-,-,\\n", partial=True)
>>> contents.records[0].deal, contents.records[0].number
('N:AK... - - -', None)
"""

from __future__ import annotations

import csv
import io
import math
import re
import sys
from collections.abc import Iterator, Sequence
from itertools import compress, count, repeat
from operator import itemgetter, methodcaller
from typing import TYPE_CHECKING, Any, cast

from croupier.boards import Board, BoardRangeError, Hands, parse_board_number
from croupier.cards import Card
from croupier.errors import CroupierError, DealNotationError, FileFormatError, masked_excerpt
from croupier.formats.codec import BoardFileCodec
from croupier.formats.pbn_deal import (
    PBN_RANKS,
    format_pbn_hand,
    parse_pbn_deal_partial,
    sorted_pbn_deal,
    suit_cards,
    suit_mask,
)
from croupier.formats.records import (
    BoardFileContents,
    BoardRecord,
    SkippedGame,
    check_games,
    deal_goedel,
    sorted_hands,
    sorted_record,
)
from croupier.formats.text_lines import CSV_BREAKS, count_breaks, nonblank_lines
from croupier.ranking.bigdeal import goedel_rank
from croupier.seats import SEATS, Seat, Vulnerability

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = [
    "CSV_COLUMNS",
    "format_board_csv",
    "format_board_lines",
    "format_csv_records",
    "format_lines_records",
    "parse_board_csv",
    "parse_board_lines",
    "parse_record_deal",
    "parse_record_dealer",
    "parse_record_vulnerability",
    "read_csv_records",
    "read_lines_records",
]

_HAND_COLUMNS = tuple(seat.long_name.lower() for seat in SEATS)
#: The CSV header row: ``board,dealer,vulnerable,north,east,south,west,goedel``.
CSV_COLUMNS = ("board", "dealer", "vulnerable", *_HAND_COLUMNS, "goedel")


# ----------------------------------------------------------------------------- one deal
def parse_record_deal(text: str, *, partial: bool = False) -> Hands:
    """The hands ``(N, E, S, W)`` of a PBN deal string, partial deals allowed when asked.

    The hands come sorted as a :class:`~croupier.formats.records.BoardRecord`
    holds them (spades first, ace high), so :func:`~croupier.formats.records.sorted_record`
    makes the record at once; a plain string is read by
    :func:`~croupier.formats.pbn_deal.sorted_pbn_deal`, anything else the slow way.

    The ``X:`` prefix is optional (North first without it); ``-`` is an
    unknown hand.  One unknown hand of a 52-card deal is completed from the
    other three, as PBN does.  Any other deal that is not four hands of 13
    cards is *partial*: with ``partial=True`` it is returned with the unknown
    hands empty (a hand may hold fewer than 13 cards, never more), otherwise
    it is an error starting ``partial deal``.

    >>> [len(h) for h in parse_record_deal("N:AK... - - Q...", partial=True)]
    [2, 0, 0, 1]
    >>> parse_record_deal("AK... - - Q...")
    Traceback (most recent call last):
    ...
    croupier.errors.DealNotationError: partial deal 'AK... - - Q...' (hands N, E, S, W hold 2, ...
    """
    fast = sorted_pbn_deal(text)
    if fast is not None and (partial or all(len(h) == 13 for h in fast)):
        n, e, s, w = fast
        return (n, e, s, w)
    hands = parse_pbn_deal_partial(text)
    sizes = [len(h) for h in hands]
    if sizes != [13] * 4 and not partial:
        shown = ", ".join(str(s) for s in sizes)
        raise DealNotationError(
            f"partial deal {masked_excerpt(text)} (hands N, E, S, W hold {shown} cards); "
            "partial=True keeps it"
        )
    return sorted_hands(hands)


def parse_record_dealer(text: str) -> Seat | None:
    """A dealer cell: ``N``, ``E``, ``S`` or ``W`` (any case), ``None`` when empty.

    >>> parse_record_dealer(" w "), parse_record_dealer("")
    (<Seat.WEST: 'W'>, None)
    """
    cleaned = text.strip().upper()
    if not cleaned:
        return None
    if len(cleaned) == 1 and cleaned in SEATS:
        return Seat(cleaned)
    raise FileFormatError(f"bad dealer {masked_excerpt(text)}; expected N, E, S, W or nothing")


def parse_record_vulnerability(text: str) -> Vulnerability | None:
    """A vulnerability cell: ``None``, ``NS``, ``EW``, ``All`` (any case; PBN's ``Love`` and
    ``Both`` too), ``None`` (Python's) when empty.

    >>> parse_record_vulnerability("both"), parse_record_vulnerability("")
    (<Vulnerability.ALL: 'All'>, None)
    """
    cleaned = text.strip()
    if not cleaned:
        return None
    found = Vulnerability.from_word(cleaned)
    if found is None:
        raise FileFormatError(
            f"bad vulnerability {masked_excerpt(text)}; expected None, NS, EW, All or nothing"
        )
    return found


# ---------------------------------------------------------------------------- CSV records
def format_csv_records(records: Sequence[BoardRecord], *, newline: str = "\r\n") -> str:
    """CSV text of board records with the header :data:`CSV_COLUMNS` (RFC 4180: CRLF by default).

    A value the record does not know is an empty cell; an unknown hand is
    ``-``; ``goedel`` is filled in for complete deals only.

    >>> from croupier.cards import parse_cards
    >>> rec = BoardRecord((parse_cards("AS"), (), (), ()), dealer="S")
    >>> format_csv_records([rec], newline="\\n").splitlines()[1]
    ',S,,A...,-,-,-,'
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator=newline)
    writer.writerow(CSV_COLUMNS)
    for r in records:
        hands = [format_pbn_hand(h) if h else "-" for h in r.hands]
        goedel = str(goedel_rank(r.hands)) if r.complete else ""
        writer.writerow(
            [
                "" if r.number is None else r.number,
                r.dealer or "",
                r.vulnerable or "",
                *hands,
                goedel,
            ]
        )
    return out.getvalue()


def read_csv_records(
    text: str, *, source: str = "<csv>", partial: bool = False
) -> BoardFileContents:
    """Board records from CSV text whose header has at least ``north,east,south,west``.

    Column names are matched ignoring case and spaces, in any order; other
    columns are ignored.  ``board``, ``dealer``, ``vulnerable`` and
    ``goedel`` are optional, and an empty cell means unknown.  An empty (or
    ``-``) hand cell is an unknown hand (see :func:`parse_record_deal`).  A
    row that cannot be read is a :class:`~croupier.formats.records.SkippedGame`
    (``game`` counts the data rows, ``line`` is the row's first line); a
    present ``goedel`` must agree with the hands.  Rows of empty cells are
    ignored.  An empty text is no records; a header without the hand columns
    is an error.

    >>> read_csv_records("board,north,east,south,west\\n0,-,-,-,-\\n").skipped[0].reason
    "board '0' is not a board number 1..999"
    """
    return _read_csv(text, source, partial, board_required=False)


# A row whose cells are all empty (white space, or white space in quotes), with its line end.
_EMPTY_CELL = r'(?:"[^\S\r\n]*+"|[^\S\r\n]*+)'
_EMPTY_ROWS = re.compile(rf"(?:{_EMPTY_CELL}(?:,{_EMPTY_CELL})*+(?:\r\n|\r|\n))*+")
_CSV_LINE = re.compile(r"[^\r\n]*+(?:\r\n|\r|\n)?+")


class _CsvLines:
    """The lines of CSV text, one at a time with their line ends, for :func:`csv.reader`.

    It counts lines (``line``: the last one handed out; ``row_start``: the
    first line of the row being read), and when ``skip_empty``, passes over a
    run of rows of empty cells in one step, but only between rows
    (``boundary``, set by the caller after each row), never inside a quoted
    field.  So neither a list of a million lines nor a Python step per empty
    row is ever needed.
    """

    def __init__(self, text: str, *, skip_empty: bool) -> None:
        self.text = text
        self.pos = 0
        self.line = 0
        self.row_start = 1
        self.skip_empty = skip_empty
        self.boundary = False

    def __iter__(self) -> _CsvLines:
        return self

    def __next__(self) -> str:
        text, pos = self.text, self.pos
        if self.boundary:
            if self.skip_empty:
                end = _EMPTY_ROWS.match(text, pos).end()  # type: ignore[union-attr]
                self.line += count_breaks(text, pos, end, CSV_BREAKS)
                pos = self.pos = end
            self.row_start = self.line + 1
            self.boundary = False
        if pos >= len(text):
            raise StopIteration
        end = _CSV_LINE.match(text, pos).end()  # type: ignore[union-attr]
        self.pos = end
        self.line += 1
        return text[pos:end]


def _read_csv(text: str, source: str, partial: bool, *, board_required: bool) -> BoardFileContents:
    """The records of CSV text: the plain way (:func:`_read_plain_csv`) when the text is
    written plainly, else the general way (:func:`_read_general_csv`); both give the same."""
    if not board_required and (not text or text.isspace()):  # (as `not text.strip()`)
        return BoardFileContents([], [], source)
    plain = _read_plain_csv(text, source, partial, board_required)
    if plain is not None:
        return plain
    return _read_general_csv(text, source, partial, board_required)


def _read_general_csv(
    text: str, source: str, partial: bool, board_required: bool
) -> BoardFileContents:
    """The records of any CSV text, read with :func:`csv.reader` (quotes, any line ends)."""
    lines = _CsvLines(text, skip_empty=not board_required)
    try:
        return _read_csv_rows(lines, source, partial, board_required)
    except csv.Error as exc:  # e.g. a field larger than the csv module's limit
        raise FileFormatError(f"{source} line {lines.line}: bad CSV: {exc}") from None


def _columns(header: list[str], source: str, board_required: bool) -> dict[str, int]:
    """The place of each column of :data:`CSV_COLUMNS` in a header row (names as written)."""
    names = [name.strip().lower() for name in header]
    needed = (("board",) if board_required else ()) + _HAND_COLUMNS
    missing = [c for c in needed if c not in names]
    if missing:
        raise FileFormatError(
            f"{source}: missing CSV column(s) {missing!r}; a board CSV file has the columns "
            + ",".join(CSV_COLUMNS)
        )
    return {name: names.index(name) for name in CSV_COLUMNS if name in names}


def _read_csv_rows(
    lines: _CsvLines, source: str, partial: bool, board_required: bool
) -> BoardFileContents:
    reader = csv.reader(lines)
    column = _columns(next(reader, []), source, board_required)
    rows: list[tuple[int, list[str]]] = []
    lines.boundary = True
    for row in reader:
        first_line = lines.row_start
        lines.boundary = True
        if not board_required and not any(cell.strip() for cell in row):
            continue
        check_games(len(rows) + 1, source)  # (all counted before any is read)
        rows.append((first_line, row))
    outcomes = [
        _row_outcome(row, column, game, first_line, partial, board_required)
        for game, (first_line, row) in enumerate(rows, start=1)
    ]
    return _contents(outcomes, source)


def _row_outcome(
    row: list[str],
    column: dict[str, int],
    game: int,
    line: int,
    partial: bool,
    board_required: bool,
) -> BoardRecord | SkippedGame:
    """The record of one row of cells, or the skipped game saying why it cannot be read."""
    cells = {name: row[index] if index < len(row) else "" for name, index in column.items()}
    try:
        return _csv_record(cells, game, line, partial, board_required)
    except CroupierError as exc:
        return SkippedGame(game, line, str(exc))


def _contents(outcomes: list[BoardRecord | SkippedGame], source: str) -> BoardFileContents:
    """The records and the skipped games of a file's rows (an outcome a row)."""
    records = [o for o in outcomes if isinstance(o, BoardRecord)]
    if len(records) == len(outcomes):
        return BoardFileContents(records, [], source)
    skipped = [o for o in outcomes if isinstance(o, SkippedGame)]
    return BoardFileContents(records, skipped, source)


def _csv_record(
    cells: dict[str, str], game: int, line: int, partial: bool, board_required: bool
) -> BoardRecord:
    raw_number = cells.get("board", "").strip()
    number = None
    if raw_number or board_required:
        try:
            number = parse_board_number(raw_number)
        except BoardRangeError:
            raise FileFormatError(
                f"board {masked_excerpt(raw_number)} is not a board number 1..999"
            ) from None
    deal = " ".join(cells.get(c, "").strip() or "-" for c in _HAND_COLUMNS)
    hands = parse_record_deal(deal, partial=partial)
    record = sorted_record(
        hands,
        number,
        parse_record_dealer(cells.get("dealer", "")),
        parse_record_vulnerability(cells.get("vulnerable", "")),
        game,
        line,
    )
    goedel = cells.get("goedel", "").strip()
    rank = deal_goedel(record.hands) if goedel else None
    if goedel and (rank is None or goedel != str(rank)):
        raise FileFormatError(f"goedel {masked_excerpt(goedel)} does not match the hands")
    return record


# ------------------------------------------------------------------ CSV written plainly
# A file as croupier writes it (format_csv_records) and as most programs do: no quotes, one
# kind of line end, no line longer than the csv module's field limit.  Its rows are its lines,
# its cells those of line.split(","), as csv.reader would give them.  A row of the usual kind
# (a whole deal, each hand four holdings written plainly, board facts that read, a Gödel
# number that matches) is read without the general machinery: with str methods and small
# tables row by row (_PlainRows.row), or, for a file of many rows when numpy pays, its deal
# checked with numpy a block of rows at a time (_PlainRows.block).  Any other row is read by
# _row_outcome, as the general way reads it.  Either way each row's outcome is the general
# way's, skipped games and errors too (tests/test_csv_reader_fast.py compares them).

#: Characters of text split into lines at a time (the lines of a chunk are a list at once).
_CHUNK = 1 << 16
#: Rows whose deals numpy reads at a time (its arrays take a few kB a row).
_BLOCK = 4096
#: The characters ``str.strip()`` strips (those of ``str.isspace``), and the comma: a row of
#: nothing else is a row of empty cells.
_BLANK = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000,"
_BLANK += "".join(map(chr, range(0x2000, 0x200B)))  # (U+2000 ... U+200A)
_NOT_BLANK = methodcaller("strip", _BLANK)  # (a row that does not start or end blank: itself)
_FULL_SUIT = (1 << 13) - 1
# A holding written plainly (upper-case ranks in order, each once) -> its 13-bit mask (bit r:
# rank PBN_RANKS[r]); at most 8,192 of them, learned as they are met.  An unknown holding reads
# as _UNKNOWN, a bit past the suit's 13 bits, so its deal fails the checks of _whole_hands.
_HOLDINGS: dict[str, int] = {}
_UNKNOWN = repeat(1 << 13)
# For each suit (spades first): mask -> its cards (those of BRIDGE_DECK), filled for the masks
# of _HOLDINGS.
_SUIT_CARDS: tuple[list[tuple[Card, ...]], ...] = tuple([()] * 8192 for _ in range(4))

_Facts = tuple[int | None, Seat | None, Vulnerability | None]
_Outcome = BoardRecord | SkippedGame
# The board number, dealer and vulnerability of the cells (board, dealer, vulnerable) of rows
# read so far, by whether the board number is required (parse_board_csv); a file's 999 boards
# are read once, not once a file.  At most _MOST_FACTS of each are kept.
_FACTS: dict[bool, dict[tuple[str, str, str], _Facts]] = {False: {}, True: {}}
_MOST_FACTS = 10_000


def _plain_newline(text: str) -> str | None:
    """The line end of text that is plain CSV (``\\n`` or ``\\r\\n``, one kind throughout),
    ``None`` for anything else: quotes, NUL characters, a lone ``\\r``, mixed line ends."""
    if '"' in text or "\x00" in text:
        return None
    crlf = text.count("\r\n")
    if not crlf:
        return None if "\r" in text else "\n"
    return "\r\n" if crlf == text.count("\r") == text.count("\n") else None


def _plain_rows(
    text: str, source: str, board_required: bool
) -> tuple[dict[str, int], list[int], list[str]] | None:
    """The columns and the rows (first lines, texts) of plain CSV text, or ``None`` when it is
    not plain (:func:`_plain_newline`, or a line longer than the csv module's field limit).

    The rows are found as the general way finds them: every line after the header, rows
    of empty cells left out unless ``board_required``; more than
    :data:`~croupier.formats.records.MAX_FILE_GAMES` of them is an error.
    """
    sep = _plain_newline(text)
    if sep is None:
        return None
    limit = csv.field_size_limit()
    column: dict[str, int] | None = None
    firsts: list[int] = []
    rows: list[str] = []
    seen = 0  # lines before the chunk
    for chunk, last in _chunks(text, sep):
        if column is not None and not last and not board_required and not chunk.strip(_BLANK):
            seen += chunk.count(sep) + 1  # rows of empty cells only, left out (the general way
            continue  # passes over them, line ends and all, however long, without csv)
        lines = chunk.split(sep)
        if max(map(len, lines)) > limit:
            return None  # a field may be over the limit: the general way says what it says
        start = 0
        if column is None:
            column, start = _columns(lines[0].split(","), source, board_required), 1
        numbers = range(seen + 1 + start, seen + 1 + len(lines))
        body = lines[start:]
        if board_required:
            rows += body
            firsts += numbers
        else:
            filled = list(map(len, map(_NOT_BLANK, body)))
            rows += compress(body, filled)
            firsts += compress(numbers, filled)
        check_games(len(rows), source)
        seen += len(lines)
    assert column is not None  # (the first chunk holds the header)
    return column, firsts, rows


def _chunks(text: str, sep: str) -> Iterator[tuple[str, bool]]:
    """Pieces of ``text`` of whole lines (some :data:`_CHUNK` characters), each without the
    line end after it (the text's own last line end left out), and whether it is the last."""
    size = len(text) - len(sep) if text.endswith(sep) else len(text)
    pos = 0
    while True:
        end = text.find(sep, pos + _CHUNK, size)
        if end < 0:
            yield text[pos:size], True
            return
        yield text[pos:end], False
        pos = end + len(sep)


def _read_plain_csv(
    text: str, source: str, partial: bool, board_required: bool
) -> BoardFileContents | None:
    """The records of plain CSV text (see :func:`_plain_rows`), ``None`` for other text."""
    found = _plain_rows(text, source, board_required)
    if found is None:
        return None
    column, firsts, rows = found
    reader = _PlainRows(column, partial, board_required)
    if not _numpy_pays(len(rows)):
        outcomes = list(map(reader.row, rows, count(1), firsts))
        return _contents(outcomes, source)
    outcomes = []
    for start in range(0, len(rows), _BLOCK):
        end = start + _BLOCK
        outcomes += reader.block(rows[start:end], firsts[start:end], start)
    return _contents(outcomes, source)


class _PlainRows:
    """The reader of the rows of a plain CSV file with the columns ``column``.

    :meth:`row` reads one row with str methods; :meth:`block` reads many, their cells cut
    into columns and their deals read and checked with numpy.  Both hand any row they do
    not read to :meth:`general`.
    """

    def __init__(self, column: dict[str, int], partial: bool, board_required: bool) -> None:
        self.column = column
        self.partial = partial
        self.board_required = board_required
        width = max(column.values()) + 1
        self.split = methodcaller("split", ",", width)  # (the last piece: the rest of the row)
        # the cells of CSV_COLUMNS; a missing column's is a blank past every piece of a row
        self.pick = itemgetter(*(column.get(name, width + 1) for name in CSV_COLUMNS))
        self.size = width + 2 if len(column) < len(CSV_COLUMNS) else width
        self.blank = [""] * self.size
        self.facts_of = _FACTS[board_required]

    def row(self, line: str, game: int, first: int) -> _Outcome:
        """The outcome of one row (``game``, first line ``first``), read with str methods."""
        cells = self.split(line)
        if len(cells) < self.size:
            cells += self.blank[len(cells) :]
        number, dealer, vulnerable, north, east, south, west, goedel = self.pick(cells)
        key = (number, dealer, vulnerable)
        fact = self.facts_of.get(key) or _learn_facts(self.facts_of, key, self.board_required)
        hands = None if fact is None else _plain_hands(north, east, south, west)
        goedel = goedel.strip()
        if fact is None or hands is None or (goedel and goedel != str(deal_goedel(hands))):
            return self.general(line, game, first)
        return sorted_record(hands, fact[0], fact[1], fact[2], game, first)

    def block(self, rows: list[str], firsts: list[int], before: int) -> list[_Outcome]:
        """The outcomes of ``rows`` (first lines ``firsts``), games ``before + 1``, ...: their
        deals read with numpy (:func:`_numpy_deals`), any other row by :meth:`row`."""
        cells = list(map(self.split, rows))
        if min(map(len, cells)) < self.size:
            cells = [row + self.blank[len(row) :] for row in cells]
        numbers, dealers, vulnerables, *hands, goedels = zip(*map(self.pick, cells), strict=True)
        keys = list(zip(numbers, dealers, vulnerables, strict=True))
        for key in set(keys).difference(self.facts_of):
            _learn_facts(self.facts_of, key, self.board_required)
        facts = list(map(self.facts_of.get, keys))
        outcomes: list[_Outcome | None] = [None] * len(rows)
        for row, deal, goedel in zip(*_numpy_deals(*hands), strict=True):
            fact, cell = facts[row], goedels[row].strip()
            if fact is not None and (not cell or cell == str(goedel)):
                game, first = before + row + 1, firsts[row]
                outcomes[row] = sorted_record(deal, fact[0], fact[1], fact[2], game, first)
        return [
            self.row(rows[row], before + row + 1, firsts[row]) if outcome is None else outcome
            for row, outcome in enumerate(outcomes)
        ]

    def general(self, line: str, game: int, first: int) -> _Outcome:
        """The outcome of a row read the general way (:func:`_row_outcome`)."""
        row = line.split(",")
        return _row_outcome(row, self.column, game, first, self.partial, self.board_required)


def _learn_facts(
    facts_of: dict[tuple[str, str, str], _Facts], key: tuple[str, str, str], board_required: bool
) -> _Facts | None:
    """The board number, dealer and vulnerability of the cells ``key``, as :func:`_csv_record`
    reads them, kept in ``facts_of`` (up to :data:`_MOST_FACTS`); ``None`` when one does not
    read (the general way then)."""
    number_cell, dealer_cell, vulnerable_cell = key
    raw_number = number_cell.strip()
    try:
        number = parse_board_number(raw_number) if raw_number or board_required else None
        dealer = parse_record_dealer(dealer_cell)
        vulnerable = parse_record_vulnerability(vulnerable_cell)
    except CroupierError:  # (BoardRangeError too)
        return None
    facts = (number, dealer, vulnerable)
    if len(facts_of) < _MOST_FACTS:
        facts_of[key] = facts
    return facts


def _plain_hands(north: str, east: str, south: str, west: str) -> Hands | None:
    """The hands of four hand cells, each four holdings written plainly, when they are a
    whole deal; ``None`` for anything else.  They are those
    :func:`~croupier.formats.pbn_deal.sorted_pbn_deal` reads."""
    # (a cell of more than three dots has a last piece that is no holding)
    holdings = [*north.split(".", 3), *east.split(".", 3), *south.split(".", 3)]
    holdings += west.split(".", 3)
    if len(holdings) != 16:
        return None
    hands = _whole_hands(tuple(map(_HOLDINGS.get, holdings, _UNKNOWN)))
    if hands is None:  # (holdings not met yet?)
        hands = _whole_hands(_relearned(holdings))
    return hands


def _whole_hands(deal: tuple[int, ...]) -> Hands | None:
    """The hands of a deal given as the masks of its 16 holdings (N's spades first; see
    :data:`_HOLDINGS`) when it is a whole deal (each card once, 13 a hand), else ``None``."""
    a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3, d0, d1, d2, d3 = deal
    full = _FULL_SUIT  # each suit dealt whole (a holding not met yet is past it) ...
    if not (
        a0 | b0 | c0 | d0 == full
        and a1 | b1 | c1 | d1 == full
        and a2 | b2 | c2 | d2 == full
        and a3 | b3 | c3 | d3 == full
    ):
        return None
    t0, t1, t2, t3 = _SUIT_CARDS
    n = t0[a0] + t1[a1] + t2[a2] + t3[a3]
    e = t0[b0] + t1[b1] + t2[b2] + t3[b3]
    s = t0[c0] + t1[c1] + t2[c2] + t3[c3]
    w = t0[d0] + t1[d1] + t2[d2] + t3[d3]
    if len(n) != 13 or len(e) != 13 or len(s) != 13 or len(w) != 13:
        return None  # ... and, with 52 cards in all, each card once
    return n, e, s, w


def _relearned(holdings: list[str]) -> tuple[int, ...]:
    """The masks of 16 holdings, the holdings written plainly but not met before learned first
    (:data:`_HOLDINGS`, :data:`_SUIT_CARDS`); any other is :data:`_UNKNOWN`."""
    for holding in holdings:
        if holding not in _HOLDINGS:
            mask = suit_mask(holding)
            if mask is None:
                break
            for suit, table in enumerate(_SUIT_CARDS):  # (the cards first: then the mask)
                table[mask] = suit_cards(suit, mask)
            _HOLDINGS[holding] = mask
    return tuple(map(_HOLDINGS.get, holdings, _UNKNOWN))


# ------------------------------------------------------------- deals of many rows, with numpy
#: Rows whose deals numpy reads, a block at a time, rather than _PlainRows.row one at a time
#: (about 15 microseconds a row, most of it deal_goedel's): files of _NUMPY_ROWS rows when numpy
#: is loaded already, of _NUMPY_LOAD_ROWS when it is not (loading it takes about 0.15 s).
_NUMPY_ROWS = 64
_NUMPY_LOAD_ROWS = 16_000
_HIGH = math.comb(39, 13) * math.comb(26, 13)
_LOW = math.comb(26, 13)
# The classes of the characters of _numpy_deals's text: 0..12 the rank letters (AKQJT98765432),
# then the dot between holdings, the bar between hands, the line end between rows, and any other.
_DOT, _BAR, _END, _OTHER = 13, 14, 15, 16
_NUMPY_TABLES: dict[str, Any] = {}


def _numpy_pays(rows: int) -> bool:
    """Whether numpy reads the deals of a file of ``rows`` rows (see :data:`_NUMPY_ROWS`)."""
    return rows >= _NUMPY_ROWS and ("numpy" in sys.modules or rows >= _NUMPY_LOAD_ROWS)


def _numpy_deals(
    north: Sequence[str], east: Sequence[str], south: Sequence[str], west: Sequence[str]
) -> tuple[list[int], list[Hands], list[int]]:
    """The rows whose hand cells are a whole deal, each hand four holdings written plainly (as
    :meth:`_PlainRows.row` reads), with their hands and their Gödel numbers.

    The cells are one text, a line a row (``N|E|S|W``), read as an array of character
    classes: a row must have its dots and bars where a deal has them, its rank letters in
    order (:func:`_numpy_holdings`), each suit dealt whole and 13 cards a hand.
    """
    import numpy as np

    text = "".join(map("{}|{}|{}|{}\n".format, north, east, south, west))
    kind = _numpy_table("classes")[np.frombuffer(text.encode("ascii", "replace"), np.uint8)]
    masks, good = _numpy_holdings(kind, len(north))
    hands = masks.reshape(-1, 4, 4) & _FULL_SUIT  # (hand, suit)
    good &= (np.bitwise_or.reduce(hands, axis=1) == _FULL_SUIT).all(axis=1)  # suits whole
    good &= (_numpy_table("popcount")[hands].sum(axis=2) == 13).all(axis=1)
    masks = masks[good]
    numbers = _numpy_goedel(_numpy_seats(masks))
    return np.flatnonzero(good).tolist(), _numpy_hands(masks), numbers


def _numpy_holdings(
    kind: NDArray[np.uint8], rows: int
) -> tuple[NDArray[np.int64], NDArray[np.bool_]]:
    """The 16 holding masks (see :data:`_HOLDINGS`) of each of ``rows`` lines of hand cells
    (their characters' classes ``kind``), and whether the line is four hands of four
    holdings written plainly (the masks of other lines mean nothing)."""
    import numpy as np

    seps = np.flatnonzero(kind >= _DOT)  # (dots, bars, line ends and other characters)
    if len(seps) != 16 * rows or not np.array_equal(kind[seps], _numpy_pattern(rows)):
        return _numpy_odd_holdings(kind, rows)
    starts = np.concatenate(([0], seps[:-1] + 1))  # of each holding and its separator
    masks = np.add.reduceat(_numpy_table("bits")[kind], starts).astype(np.int64)
    letter = kind < _DOT
    unordered = np.flatnonzero(letter[1:] & letter[:-1] & (kind[1:] <= kind[:-1]))
    good = np.ones(rows, dtype=np.bool_)
    good[np.searchsorted(seps, unordered) // 16] = False  # (the rows of letters out of order)
    return masks.reshape(rows, 16), good


def _numpy_odd_holdings(
    kind: NDArray[np.uint8], rows: int
) -> tuple[NDArray[np.int64], NDArray[np.bool_]]:
    """:func:`_numpy_holdings` of lines some of which are not four hands of four holdings:
    each character's line and holding found from the separators before it."""
    import numpy as np

    line = np.cumsum(kind == _END, dtype=np.int32)  # of each character (of a line end: next)
    sep = (kind == _DOT) | (kind == _BAR)
    seps = np.bincount(line[sep], minlength=rows + 1)[:rows]
    place = np.cumsum(sep, dtype=np.int32) - sep  # separators before each character ...
    place -= (np.cumsum(seps, dtype=np.int32) - seps)[np.minimum(line, rows - 1)]  # ... in line
    good = seps == 15
    misplaced = (kind[sep] == _BAR) != (place[sep] % 4 == 3)  # bars after holdings 3, 7, 11
    letter = kind < _DOT
    unordered = letter[1:] & letter[:-1] & (kind[1:] <= kind[:-1])  # (in one holding)
    good[line[sep][misplaced]] = False
    good[line[kind == _OTHER]] = False
    good[line[1:][unordered]] = False
    at = np.flatnonzero(letter)
    holding = line[at] * 16 + np.minimum(place[at], 15)
    bits = _numpy_table("bits")[kind[at]]
    masks = np.bincount(holding, weights=bits, minlength=16 * rows).astype(np.int64)
    return masks.reshape(rows, 16), good


def _numpy_pattern(rows: int) -> NDArray[np.uint8]:
    """The classes of the separators of ``rows`` lines of whole deals (see :func:`_numpy_deals`)."""
    import numpy as np

    pattern = _numpy_table("pattern")
    if len(pattern) < 16 * rows:
        pattern = _NUMPY_TABLES["pattern"] = np.tile(pattern[:16], rows)
    seps: NDArray[np.uint8] = pattern[: 16 * rows]
    return seps


def _numpy_hands(masks: NDArray[np.int64]) -> list[Hands]:
    """The hands of whole deals given as the 16 masks of their holdings (N's spades first)."""
    hands = []
    for hand in range(4):
        cards = _numpy_suit_cards(0, masks[:, 4 * hand])
        for suit in range(1, 4):
            cards = cards + _numpy_suit_cards(suit, masks[:, 4 * hand + suit])  # (tuples)
        hands.append(cards.tolist())
    return cast(list[Hands], list(zip(*hands, strict=True)))


def _numpy_suit_cards(suit: int, masks: NDArray[np.int64]) -> Any:
    """The cards of each of ``masks`` in suit ``suit`` (0: spades), an array of tuples (those of
    :func:`~croupier.formats.pbn_deal.suit_cards`), a table filled as masks are met."""
    import numpy as np

    cards, known = _numpy_table("suits")[suit]
    new = np.unique(masks[~known[masks]])
    for mask in new.tolist():
        cards[mask] = suit_cards(suit, mask)
    known[new] = True
    return cards[masks]


def _numpy_seats(masks: NDArray[np.int64]) -> NDArray[np.uint8]:
    """The seat (0: N, 1: E, 2: S, 3: W) of each of the 52 cards (Big Deal's order) of each
    whole deal given as the 16 masks of its holdings."""
    import numpy as np

    count = len(masks)
    holdings = masks.astype("<u2").view(np.uint8).reshape(count, 16, 2)
    bits = np.unpackbits(holdings, axis=2, bitorder="little")[:, :, :13].reshape(count, 4, 52)
    seats: NDArray[np.uint8] = bits[:, 1] + 2 * bits[:, 2] + 3 * bits[:, 3]
    return seats


def _numpy_goedel(seats: NDArray[np.uint8]) -> list[int]:
    """The Gödel numbers (:func:`~croupier.formats.records.deal_goedel`) of whole deals given
    as the seats of their cards (see :func:`_numpy_seats`): each hand's cards among those not
    ranked yet, ranked as deal_goedel ranks them, many deals at once."""
    count = len(seats)
    high = _lex_ranks(seats, 0)
    rest = seats[seats != 0].reshape(count, 39)  # the cards of E, S and W, in order
    low = _lex_ranks(rest, 1) * _LOW + _lex_ranks(rest[rest != 1].reshape(count, 26), 2)
    return [h * _HIGH + lo for h, lo in zip(high.tolist(), low.tolist(), strict=True)]


def _lex_ranks(seats: NDArray[np.uint8], seat: int) -> NDArray[np.int64]:
    """For each row of ``seats`` (the seat of each of ``n`` cards), the lex rank of the places
    of the 13 cards of ``seat`` among the ``n`` (as deal_goedel ranks them)."""
    import numpy as np

    count, n = seats.shape
    terms = _numpy_table(f"terms{n}")  # [i, p]: C(n - 1 - p, 13 - i), of the (i+1)-th place p
    places = np.nonzero(seats == seat)[1].reshape(count, 13)
    ranks: NDArray[np.int64] = math.comb(n, 13) - 1 - terms[np.arange(13), places].sum(axis=1)
    return ranks


def _numpy_table(name: str) -> Any:
    """A constant array of the numpy reading, made the first time it is needed."""
    table = _NUMPY_TABLES.get(name)
    if table is None:
        table = _NUMPY_TABLES[name] = _make_numpy_table(name)
    return table


def _make_numpy_table(name: str) -> Any:
    """The table ``name`` of :func:`_numpy_table`."""
    import numpy as np

    if name == "classes":  # character -> class
        table = np.full(256, _OTHER, dtype=np.uint8)
        for letter, value in [*zip(PBN_RANKS, range(13), strict=True), (".", _DOT), ("|", _BAR)]:
            table[ord(letter)] = value
        table[ord("\n")] = _END
        return table
    if name == "bits":  # class -> its bit in a mask (rank letters), else 0
        return np.array([1 << r for r in range(13)] + [0] * 4, dtype=np.uint16)
    if name == "pattern":  # the classes of the separators of a line of hand cells
        return np.array(([_DOT] * 3 + [_BAR]) * 3 + [_DOT] * 3 + [_END], dtype=np.uint8)
    if name == "popcount":  # mask -> cards
        return np.array([m.bit_count() for m in range(_FULL_SUIT + 1)], dtype=np.int64)
    if name == "suits":  # for each suit: mask -> its cards (once met), mask -> whether met
        return [
            (np.empty(_FULL_SUIT + 1, dtype=object), np.zeros(_FULL_SUIT + 1, dtype=np.bool_))
            for _ in range(4)
        ]
    n = int(name.removeprefix("terms"))
    return np.array([[math.comb(n - 1 - p, 13 - i) for p in range(n)] for i in range(13)])


# --------------------------------------------------------------------------- line records
def format_lines_records(records: Sequence[BoardRecord], *, newline: str = "\n") -> str:
    """One deal per line (hands N E S W without ``N:``; ``-`` for an unknown hand).

    >>> from croupier.cards import parse_cards
    >>> format_lines_records([BoardRecord((parse_cards("AS"), (), (), ()), number=3)])
    'A... - - -\\n'
    """
    return "".join(r.deal[2:] + newline for r in records)


def read_lines_records(
    text: str, *, source: str = "<lines>", partial: bool = False
) -> BoardFileContents:
    """Board records from one deal per line (an ``X:`` prefix is allowed); blank lines are skipped.

    The file holds no board numbers, dealers or vulnerabilities: they stay
    unknown.  A line that is not a deal is a skipped game (``game`` counts the
    non-blank lines); a text with lines but not one deal is not a one-line
    deal file (an error).

    >>> read_lines_records("- - - -\\n", partial=True).records[0].complete
    False
    """
    records: list[BoardRecord] = []
    skipped: list[SkippedGame] = []
    for game, (lineno, line) in enumerate(nonblank_lines(text), start=1):
        check_games(game, source)
        try:
            hands = parse_record_deal(line, partial=partial)
        except CroupierError as exc:
            skipped.append(SkippedGame(game, lineno, str(exc)))
            continue
        records.append(sorted_record(hands, game=game, line=lineno))
    if skipped and not records and not all(s.reason.startswith("partial") for s in skipped):
        raise FileFormatError(_not_lines(source, skipped[0].line))
    return BoardFileContents(records, skipped, source)


# ------------------------------------------------------------------------ Board functions
def format_board_csv(boards: Sequence[Board]) -> str:
    """CSV text with a header row (RFC 4180, CRLF line ends).

    >>> format_board_csv([]).strip()
    'board,dealer,vulnerable,north,east,south,west,goedel'
    """
    return format_csv_records([BoardRecord.from_board(b) for b in boards])


def parse_board_csv(text: str, *, source: str = "<csv>") -> list[Board]:
    """Boards from CSV with at least the columns ``board`` and ``north``..``west``, strictly.

    ``dealer`` and ``vulnerable`` default to the standard cycles; a ``goedel``
    column, when present and filled, must agree with the hands.  Lines may
    end in CRLF, LF or CR alone.  Any row that cannot be read is an error.

    >>> parse_board_csv("board,north\\n1,AKQ...\\n", source="x.csv")
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: x.csv: missing CSV column(s) ['east', 'south', 'west']; ...
    """
    contents = _read_csv(text, source, False, board_required=True)
    if contents.skipped:
        first = contents.skipped[0]
        raise FileFormatError(f"{source} line {first.line}: {first.reason}")
    return [r.to_board() for r in contents.records]


def format_board_lines(boards: Sequence[Board]) -> str:
    """One deal per line (hands N E S W, ``S.H.D.C``), LF line ends.

    >>> format_board_lines([])
    ''
    """
    return format_lines_records([BoardRecord.from_board(b) for b in boards])


def parse_board_lines(text: str, *, first_board: int = 1, source: str = "<lines>") -> list[Board]:
    """Boards from one deal per line, numbered from ``first_board``; blank lines are skipped.

    >>> parse_board_lines("-  .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432\\n")[0].dealer
    <Seat.NORTH: 'N'>
    """
    boards: list[Board] = []
    for lineno, line in nonblank_lines(text):
        try:
            hands = parse_record_deal(line)
            boards.append(sorted_record(hands).to_board(first_board + len(boards)))
        except (CroupierError, BoardRangeError) as exc:
            if not boards and not str(exc).startswith("partial"):  # not a file of deals at all
                raise FileFormatError(_not_lines(source, lineno)) from None
            raise FileFormatError(f"{source} line {lineno}: {exc}") from None
    return boards


def _not_lines(source: str, line: int) -> str:
    """The message for a file whose first line is no deal (the line is not quoted: it may be
    a key file given by mistake)."""
    return (
        f"not a file of one deal per line: {source} line {line} is not a deal "
        "(four hands like 'AKQ.JT9.876.5432', separated by spaces)"
    )


CSV = BoardFileCodec(
    read_boards=lambda text, *, source, first_board: parse_board_csv(text, source=source),
    read_records=read_csv_records,
    render_boards=lambda boards, o: format_board_csv(boards).encode("utf-8"),
    render_records=lambda records, o: format_csv_records(
        records, newline=o.newline or "\r\n"
    ).encode("utf-8"),
)
"""CSV board files (:mod:`croupier.formats.registry`)."""

LINES = BoardFileCodec(
    read_boards=lambda text, *, source, first_board: parse_board_lines(
        text, first_board=first_board, source=source
    ),
    read_records=read_lines_records,
    render_boards=lambda boards, o: format_board_lines(boards).encode("utf-8"),
    render_records=lambda records, o: format_lines_records(records).encode("utf-8"),
)
"""One deal a line (Big Deal's ``allpbn``) as board files (:mod:`croupier.formats.registry`):
the boards are numbered from ``first_board``."""
