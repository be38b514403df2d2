"""BBO LIN deal files: one board per line, hands in LIN's seat order (S, W, N, E).

Each board is written as::

    pn|,,,|st||md|3SAKQHJT9DA87C6543,S…,S…,S…|rh||ah|Board 1|sv|o|pg||

* ``md`` holds the dealer as a digit (1 = South, 2 = West, 3 = North,
  4 = East) followed by the hands of South, West, North and East, each
  ``S…H…D…C…`` with ranks high to low (all four hands are written);
* ``ah`` is the board label ``Board N``; ``sv`` the vulnerability
  (``o`` none, ``n`` NS, ``e`` EW, ``b`` both);
* ``pn`` (player names, left empty) starts each board, as BBO's files do.

The parser accepts any LIN text with ``md`` records (one per line), completes
a missing fourth hand, and takes the board number from ``ah`` (else counts 1, 2, …).

>>> from croupier.formats.pbn_deal import parse_pbn_deal
>>> from croupier.boards import Board
>>> hands = parse_pbn_deal("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. -")
>>> line = format_lin_file([Board.standard(1, hands)]).strip()
>>> line[:36]
'pn|,,,|st||md|3SHDAKQJT98765432C,SHD'
>>> parse_lin_file(line)[0].hands == Board.standard(1, hands).hands
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from croupier.boards import (
    MAX_BOARD,
    SEATS,
    Board,
    BoardRangeError,
    Seat,
    Vulnerability,
    dealer,
    parse_board_number,
    vulnerability,
)
from croupier.cards import Card
from croupier.errors import CroupierError, FileFormatError, excerpt
from croupier.formats.pbn_deal import format_pbn_hand, parse_pbn_deal
from croupier.formats.records import BoardFileContents, BoardRecord

__all__ = ["format_lin_board", "format_lin_file", "parse_lin_file", "read_lin_records"]

_LIN_SEATS: tuple[Seat, ...] = ("S", "W", "N", "E")  # md order; dealer digit d is [d - 1]
_VUL_TO_LIN: dict[Vulnerability, str] = {"None": "o", "NS": "n", "EW": "e", "All": "b"}
# Some files write ``sv|0|`` for no vulnerability.
_LIN_TO_VUL: dict[str, Vulnerability] = {v: k for k, v in _VUL_TO_LIN.items()} | {"0": "None"}
_SEAT_INDEX = {s: i for i, s in enumerate(SEATS)}


def _lin_hand(cards: Sequence[Card]) -> str:
    spades, hearts, diamonds, clubs = format_pbn_hand(cards).split(".")
    return f"S{spades}H{hearts}D{diamonds}C{clubs}"


def format_lin_board(board: Board) -> str:
    """One board as a LIN line (no line end).

    >>> from croupier.boards import Board
    >>> from croupier.ranking.bigdeal import goedel_unrank
    >>> format_lin_board(Board.standard(2, goedel_unrank(0)))[-24:]
    'rh||ah|Board 2|sv|n|pg||'
    """
    dealer_digit = _LIN_SEATS.index(board.dealer) + 1
    hands = ",".join(_lin_hand(board.hands[_SEAT_INDEX[seat]]) for seat in _LIN_SEATS)
    return (
        f"pn|,,,|st||md|{dealer_digit}{hands}|rh||ah|Board {board.number}"
        f"|sv|{_VUL_TO_LIN[board.vulnerable]}|pg||"
    )


def format_lin_file(boards: Sequence[Board]) -> str:
    """A LIN file: one line per board, LF line ends.

    >>> from croupier.ranking.bigdeal import goedel_unrank
    >>> format_lin_file([Board.standard(n, goedel_unrank(0)) for n in (1, 2)]).count("\\n")
    2
    """
    return "".join(format_lin_board(b) + "\n" for b in boards)


def _pbn_from_lin_hand(text: str, where: str) -> str:
    m = re.fullmatch(r"S([^SHDC]*)H([^SHDC]*)D([^SHDC]*)C([^SHDC]*)", text.strip().upper())
    if m is None:
        raise FileFormatError(
            f"{where}: bad LIN hand {excerpt(text)}; expected S…H…D…C…, like 'SAKQHJT9D87C6543'"
        )
    return ".".join(m.groups())


def parse_lin_file(text: str, *, source: str = "<lin>") -> list[Board]:
    """The boards of a LIN file (one ``md`` record per line).

    >>> text = "md|3SAKQJT98765432HDC,SHAKQJT98765432DC,SHDAKQJT98765432C|ah|Board 9|sv|e|"
    >>> board = parse_lin_file(text)[0]
    >>> board.number, board.dealer, board.vulnerable, board.hands[3][0].code
    (9, 'N', 'EW', 'AH')
    """
    boards: list[Board] = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        if "md|" not in line:
            continue
        where = f"{source} line {lineno}"
        fields = line.strip().split("|")
        pairs = dict(zip(fields[::2], fields[1::2], strict=False))
        md = pairs.get("md", "")
        if not md or md[0] not in "1234":
            raise FileFormatError(
                f"{where}: md record {excerpt(md)} must start with a dealer digit 1-4"
            )
        parts = md[1:].split(",")
        if len(parts) not in (3, 4) or (len(parts) == 4 and parts[3] == ""):
            parts = parts[:3]
        if len(parts) not in (3, 4):
            raise FileFormatError(f"{where}: md record {excerpt(md)} needs 3 or 4 hands")
        by_seat = {_LIN_SEATS[i]: _pbn_from_lin_hand(p, where) for i, p in enumerate(parts)}
        pbn = " ".join(by_seat.get(seat, "-") for seat in SEATS)
        try:
            hands = parse_pbn_deal("N:" + pbn)
        except CroupierError as exc:
            raise FileFormatError(f"{where}: {exc}") from None
        label = pairs.get("ah", "")
        m = re.search(r"[0-9]+", label)
        try:
            number = parse_board_number(m.group()) if m else len(boards) + 1
        except BoardRangeError:
            raise FileFormatError(
                f"{where}: board label {excerpt(label)} holds no board number 1..{MAX_BOARD}"
            ) from None
        vul_code = pairs.get("sv", "").strip().lower()
        if vul_code and vul_code not in _LIN_TO_VUL:
            raise FileFormatError(
                f"{where}: bad sv {excerpt(vul_code)}; expected o (or 0), n, e or b"
            )
        vul = _LIN_TO_VUL[vul_code] if vul_code else vulnerability(number)
        seat = _LIN_SEATS[int(md[0]) - 1] if md[0] in "1234" else dealer(number)
        n, e, s, w = hands
        boards.append(Board(number, (tuple(n), tuple(e), tuple(s), tuple(w)), seat, vul))
    return boards


def read_lin_records(
    text: str, *, source: str = "<lin>", partial: bool = False
) -> BoardFileContents:
    """The records of a LIN file and the games skipped (see :mod:`croupier.formats.records`).

    >>> read_lin_records("").records
    []
    """
    del partial  # every LIN board is a whole deal
    boards = parse_lin_file(text, source=source) if text else []
    records = [BoardRecord.from_board(b, game=i + 1) for i, b in enumerate(boards)]
    return BoardFileContents(records, [], source)
