"""Board tables: CSV (one row per board) and one line per deal.

CSV columns: ``board,dealer,vulnerable,north,east,south,west,goedel`` with
each hand written ``S.H.D.C`` (ranks ``AKQJT98765432``) and ``goedel`` the
deal's Big Deal number (always filled in: it is computed from the hands).

The one-line format is Big Deal's ``allpbn`` layout: the PBN ``Deal`` value
without ``N:``, hands N E S W, one deal per line.

>>> from croupier.ranking.bigdeal import goedel_unrank
>>> from croupier.boards import Board
>>> boards = [Board.standard(1, goedel_unrank(0))]
>>> print(format_board_lines(boards), end="")
AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432
>>> format_board_csv(boards).splitlines()[1][:28]
'1,N,None,AKQJT98765432...,.A'
>>> parse_board_csv(format_board_csv(boards)) == boards
True
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import cast

from croupier.boards import Board, BoardRangeError, Seat, Vulnerability, parse_board_number
from croupier.errors import CroupierError, FileFormatError, excerpt
from croupier.formats.pbn_deal import format_pbn_deal, format_pbn_hand, parse_pbn_deal
from croupier.ranking.bigdeal import goedel_rank

__all__ = [
    "CSV_COLUMNS",
    "format_board_csv",
    "format_board_lines",
    "parse_board_csv",
    "parse_board_lines",
]

#: The CSV header row.
CSV_COLUMNS = ("board", "dealer", "vulnerable", "north", "east", "south", "west", "goedel")


def format_board_csv(boards: Sequence[Board]) -> str:
    """CSV text with a header row (RFC 4180, CRLF line ends).

    >>> format_board_csv([]).strip()
    'board,dealer,vulnerable,north,east,south,west,goedel'
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for b in boards:
        hands = [format_pbn_hand(h) for h in b.hands]
        writer.writerow([b.number, b.dealer, b.vulnerable, *hands, goedel_rank(b.hands)])
    return out.getvalue()


def parse_board_csv(text: str, *, source: str = "<csv>") -> list[Board]:
    """Boards from CSV with at least the columns ``board`` and ``north``..``west``.

    ``dealer`` and ``vulnerable`` default to the standard cycles; a ``goedel``
    column, when present and filled, must agree with the hands.  Lines may
    end in CRLF, LF or CR alone.

    >>> parse_board_csv("board,north\\n1,AKQ...\\n", source="x.csv")
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: x.csv: missing CSV column(s) ['east', 'south', 'west']
    """
    reader = csv.DictReader(io.StringIO(text, newline=""))
    try:
        return _read_csv_rows(reader, source)
    except csv.Error as exc:  # e.g. a field larger than the csv module's limit
        raise FileFormatError(f"{source} line {reader.line_num}: bad CSV: {exc}") from None


def _read_csv_rows(reader: csv.DictReader[str], source: str) -> list[Board]:
    missing = {"board", "north", "east", "south", "west"} - set(reader.fieldnames or ())
    if missing:
        raise FileFormatError(f"{source}: missing CSV column(s) {sorted(missing)!r}")
    boards: list[Board] = []
    for row in reader:
        where = f"{source} line {reader.line_num}"
        raw_number = (row["board"] or "").strip()
        try:
            number = parse_board_number(raw_number)
        except BoardRangeError:
            raise FileFormatError(
                f"{where}: board {excerpt(raw_number)} is not a board number"
            ) from None
        try:
            hands = parse_pbn_deal(
                "N:" + " ".join(row[s] or "-" for s in ("north", "east", "south", "west"))
            )
            n, e, s, w = hands
            frozen = (tuple(n), tuple(e), tuple(s), tuple(w))
            std = Board.standard(number, frozen)
            board = Board(  # Board checks dealer and vulnerability, naming the bad value
                number,
                frozen,
                cast(Seat, (row.get("dealer") or std.dealer).strip().upper()),
                cast(Vulnerability, (row.get("vulnerable") or std.vulnerable).strip()),
            )
        except (CroupierError, ValueError) as exc:
            raise FileFormatError(f"{where}: {exc}") from None
        goedel = (row.get("goedel") or "").strip()
        if goedel and goedel != str(goedel_rank(board.hands)):
            raise FileFormatError(f"{where}: goedel {excerpt(goedel)} does not match the hands")
        boards.append(board)
    return boards


def format_board_lines(boards: Sequence[Board]) -> str:
    """One deal per line (hands N E S W, ``S.H.D.C``), LF line ends.

    >>> format_board_lines([])
    ''
    """
    return "".join(format_pbn_deal(b.hands)[2:] + "\n" for b in boards)


def parse_board_lines(text: str, *, first_board: int = 1, source: str = "<lines>") -> list[Board]:
    """Boards from one deal per line, numbered from ``first_board``; blank lines are skipped.

    >>> parse_board_lines("-  .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432\\n")[0].dealer
    'N'
    """
    boards: list[Board] = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            n, e, s, w = parse_pbn_deal(line if ":" in line else "N:" + line)
            number = first_board + len(boards)
            boards.append(Board.standard(number, (tuple(n), tuple(e), tuple(s), tuple(w))))
        except (CroupierError, BoardRangeError) as exc:
            raise FileFormatError(f"{source} line {lineno}: {exc}") from None
    return boards
