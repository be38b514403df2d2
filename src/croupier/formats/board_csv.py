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
import re
from collections.abc import Sequence

from croupier.boards import Board, BoardRangeError, Hands, parse_board_number
from croupier.errors import CroupierError, DealNotationError, FileFormatError, masked_excerpt
from croupier.formats.pbn_deal import format_pbn_hand, parse_pbn_deal_partial, sorted_pbn_deal
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
    if not text.strip() and not board_required:
        return BoardFileContents([], [], source)
    lines = _CsvLines(text, skip_empty=not board_required)
    try:
        return _read_csv_rows(lines, source, partial, board_required)
    except csv.Error as exc:  # e.g. a field larger than the csv module's limit
        raise FileFormatError(f"{source} line {lines.line}: bad CSV: {exc}") from None


def _read_csv_rows(
    lines: _CsvLines, source: str, partial: bool, board_required: bool
) -> BoardFileContents:
    reader = csv.reader(lines)
    header = [name.strip().lower() for name in next(reader, [])]
    needed = (("board",) if board_required else ()) + _HAND_COLUMNS
    missing = [c for c in needed if c not in header]
    if missing:
        raise FileFormatError(
            f"{source}: missing CSV column(s) {missing!r}; a board CSV file has the columns "
            + ",".join(CSV_COLUMNS)
        )
    column = {name: header.index(name) for name in CSV_COLUMNS if name in header}
    rows: list[tuple[int, list[str]]] = []
    lines.boundary = True
    for row in reader:
        first_line = lines.row_start
        lines.boundary = True
        if not board_required and not any(cell.strip() for cell in row):
            continue
        check_games(len(rows) + 1, source)  # (all counted before any is read)
        rows.append((first_line, row))
    records: list[BoardRecord] = []
    skipped: list[SkippedGame] = []
    for game, (first_line, row) in enumerate(rows, start=1):
        cells = {name: row[index] if index < len(row) else "" for name, index in column.items()}
        try:
            records.append(_csv_record(cells, game, first_line, partial, board_required))
        except CroupierError as exc:
            skipped.append(SkippedGame(game, first_line, str(exc)))
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
