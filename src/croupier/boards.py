"""Duplicate boards: numbers, dealer and vulnerability, board ranges (what every board file needs).

A duplicate board carries its number, the dealer and the vulnerability.  Both
follow the standard cycles every bridge organisation uses, defined with the
seats and vulnerabilities in :mod:`croupier.seats` (:meth:`Seat.of_board
<croupier.seats.Seat.of_board>`, :meth:`Vulnerability.of_board
<croupier.seats.Vulnerability.of_board>`); :func:`dealer` and
:func:`vulnerability` are those cycles for the board numbers of files, 1..999.

>>> [str(dealer(b)) for b in range(1, 6)]
['N', 'E', 'S', 'W', 'N']
>>> [str(vulnerability(b)) for b in (1, 2, 3, 4, 5, 16, 17)]
['None', 'NS', 'EW', 'All', 'NS', 'EW', 'None']
>>> parse_board_range("17-32")
range(17, 33)
>>> board = Board.standard(7, ([], [], [], []))
>>> board.dealer, board.vulnerable
(<Seat.SOUTH: 'S'>, <Vulnerability.ALL: 'All'>)
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import field
from itertools import pairwise

from croupier.cards import Card
from croupier.errors import RangeError, bounded_decimal, excerpt
from croupier.frozen import frozen_dataclass
from croupier.seats import SEATS, VULNERABILITIES, Seat, Vulnerability

__all__ = [
    "MAX_BOARD",
    "MAX_BOARD_RANGES",
    "SEATS",
    "VULNERABILITIES",
    "Board",
    "BoardRangeError",
    "Seat",
    "Vulnerability",
    "consecutive_numbers",
    "dealer",
    "is_seat",
    "is_vulnerability",
    "parse_board_list",
    "parse_board_number",
    "parse_board_range",
    "vulnerability",
    "vulnerability_from_word",
]

#: The largest board number accepted (board files use at most three digits).
MAX_BOARD = 999
#: The most ranges a comma list of board ranges may hold (one per session of a phase).
MAX_BOARD_RANGES = 9999
_BOARD_DIGITS = len(str(MAX_BOARD))

Hands = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]


class BoardRangeError(RangeError):
    """A board number or board range is malformed or out of range."""


def _check_board(number: int) -> None:
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= MAX_BOARD:
        raise BoardRangeError(
            f"board number {_shown(number)} out of range; expected 1..{MAX_BOARD}"
        )


def _shown(value: object) -> str:
    """``value`` for an error message: short, even for an int of thousands of digits."""
    if isinstance(value, int) and abs(value) >= 10**12:
        return f"of {value.bit_length()} bits"
    return excerpt(value) if isinstance(value, str) else repr(value)


def is_seat(value: object) -> bool:
    """True when ``value`` is a :class:`Seat` or one of its letters ``N``, ``E``, ``S``, ``W``.

    >>> is_seat("E"), is_seat("NE"), is_seat("e")
    (True, False, False)
    """
    return isinstance(value, str) and value in SEATS


def is_vulnerability(value: object) -> bool:
    """True when ``value`` is ``None``, ``NS``, ``EW`` or ``All`` (PBN's spelling).

    >>> is_vulnerability("All"), is_vulnerability("Both")
    (True, False)
    """
    return isinstance(value, str) and value in VULNERABILITIES


def vulnerability_from_word(word: str) -> Vulnerability | None:
    """The vulnerability a board file spells ``word`` (``Love``, ``-``, ``Both``...), else ``None``.

    PBN 2.1's list, compared case-insensitively (:meth:`Vulnerability.from_word`).

    >>> [vulnerability_from_word(w) for w in ("both", " NS ", "x")]
    [<Vulnerability.ALL: 'All'>, <Vulnerability.NS: 'NS'>, None]
    """
    return Vulnerability.from_word(word)


def dealer(board: int) -> Seat:
    """The dealer of ``board`` (1..999; ``N``, ``E``, ``S`` or ``W``): North deals board 1, 5, 9, …

    >>> dealer(1), dealer(16), dealer(33)
    (<Seat.NORTH: 'N'>, <Seat.WEST: 'W'>, <Seat.NORTH: 'N'>)
    """
    _check_board(board)
    return Seat.of_board(board)


def vulnerability(board: int) -> Vulnerability:
    """The vulnerability of ``board`` (1..999) in the 16-board cycle: None, NS, EW or All.

    >>> " ".join(vulnerability(b) for b in range(9, 17))
    'EW All None NS All None NS EW'
    """
    _check_board(board)
    return Vulnerability.of_board(board)


@functools.cache
def _range_re() -> re.Pattern[str]:
    """A board number or range of numbers (compiled on first use)."""
    return re.compile(r"^\s*([0-9]+)\s*(?:-\s*([0-9]+)\s*)?$", re.ASCII)


def parse_board_number(text: str) -> int:
    """A board number written as ASCII digits (surrounding spaces ignored), 1..:data:`MAX_BOARD`.

    The length is checked before converting, so hostile input such as
    thousands of digits or Unicode digits is a one-line error.

    >>> parse_board_number(" 017 ")
    17
    >>> parse_board_number("9" * 5000)
    Traceback (most recent call last):
    ...
    croupier.boards.BoardRangeError: bad board number '99999...'... (5000 characters); ...
    """
    cleaned = text.strip() if isinstance(text, str) else ""
    number = bounded_decimal(cleaned.lstrip("0") or cleaned[-1:], _BOARD_DIGITS)
    if number is None or not 1 <= number <= MAX_BOARD:
        raise BoardRangeError(
            f"bad board number {excerpt(text) if isinstance(text, str) else repr(text)}; "
            f"expected a number 1..{MAX_BOARD}"
        )
    return number


def parse_board_range(text: str, *, bare_count: bool = True) -> range:
    """Parse ``"A-B"`` (boards A..B) or ``"N"`` (boards 1..N, as Big Deal reads ``-n N``).

    With ``bare_count=False`` a single number means just that board.

    >>> parse_board_range("16"), parse_board_range("5-9"), parse_board_range("7", bare_count=False)
    (range(1, 17), range(5, 10), range(7, 8))
    >>> parse_board_range("9-5")
    Traceback (most recent call last):
    ...
    croupier.boards.BoardRangeError: bad board range '9-5': the first board ...
    """
    m = _range_re().match(text) if isinstance(text, str) else None
    if m is None:
        quoted = excerpt(text) if isinstance(text, str) else repr(text)
        raise BoardRangeError(
            f"bad board range {quoted}; expected N (boards 1..N) or A-B, like '16' or '17-32'"
        )
    try:
        first = parse_board_number(m.group(1))
        last = None if m.group(2) is None else parse_board_number(m.group(2))
    except BoardRangeError:
        raise BoardRangeError(
            f"bad board range {excerpt(text)}: boards are numbered 1..{MAX_BOARD}"
        ) from None
    if last is None:
        low, high = (1, first) if bare_count else (first, first)
    else:
        low, high = first, last
    if low > high:
        raise BoardRangeError(
            f"bad board range {excerpt(text)}: the first board must not exceed the last, "
            "like '17-32'"
        )
    return range(low, high + 1)


def parse_board_list(text: str) -> list[range]:
    """Parse a comma list of ranges such as ``"1-16,17-32"`` (each element as in Big Deal).

    >>> parse_board_list("1-8, 9-16")
    [range(1, 9), range(9, 17)]
    """
    if isinstance(text, str) and text.count(",") >= MAX_BOARD_RANGES:
        raise BoardRangeError(
            f"bad board list {excerpt(text)}: more than {MAX_BOARD_RANGES} ranges "
            f"(at most {MAX_BOARD_RANGES}, one per session)"
        )
    parts = text.split(",") if isinstance(text, str) else []
    if not parts or any(not p.strip() for p in parts):
        quoted = excerpt(text) if isinstance(text, str) else repr(text)
        raise BoardRangeError(
            f"bad board list {quoted}; expected ranges separated by commas, like '1-16,17-32'"
        )
    return [parse_board_range(p) for p in parts]


def consecutive_numbers(boards: Sequence[Board], what: str) -> tuple[int, int]:
    """The lowest and highest board number of ``boards``, which must be consecutive and ascending.

    File formats that store only the first board number (DUP, DLM) need this.

    >>> consecutive_numbers([Board.standard(n, ([], [], [], [])) for n in (17, 18)], "DUP")
    (17, 18)
    >>> consecutive_numbers([Board.standard(n, ([], [], [], [])) for n in (1, 3)], "DUP")
    Traceback (most recent call last):
    ...
    croupier.boards.BoardRangeError: DUP files hold consecutive ascending boards; board 3 ...
    """
    if not boards:
        raise BoardRangeError(f"a {what} file needs at least one board")
    numbers = [b.number for b in boards]
    for before, after in pairwise(numbers):
        if after != before + 1:
            raise BoardRangeError(
                f"{what} files hold consecutive ascending boards; board {after} follows "
                f"board {before}"
            )
    return numbers[0], numbers[-1]


def _freeze(hands: Sequence[Sequence[Card]]) -> Hands:
    """The hands as tuples, each sorted S, H, D, C and A … 2 (so equal boards compare equal)."""
    if len(hands) != 4:
        raise BoardRangeError(f"a board holds 4 hands (N, E, S, W), got {len(hands)}")
    from croupier.ranking.bigdeal import bigdeal_card_index

    n, e, s, w = (tuple(sorted(h, key=bigdeal_card_index)) for h in hands)
    return (n, e, s, w)


@frozen_dataclass
class Board:
    """One duplicate board: its number, four hands ``(N, E, S, W)``, dealer and vulnerability.

    Hands are stored sorted (spades first, ace high), so two boards with the
    same cards in each hand are equal whatever order the cards came in.

    ``goedel`` is the deal's Big Deal number when it is known (boards made by
    :mod:`croupier.tournament.bigdeal` or :mod:`croupier.tournament.verifiable`), else ``None``.

    ``dealer`` and ``vulnerable`` may be given as their letters and words
    (``"E"``, ``"NS"``); the board holds them as :class:`Seat` and
    :class:`Vulnerability`, which compare equal to those strings.

    >>> b = Board.standard(2, ([], [], [], []))
    >>> b.number, b.dealer, b.vulnerable, b.dealer == "E"
    (2, <Seat.EAST: 'E'>, <Vulnerability.NS: 'NS'>, True)
    """

    number: int
    hands: Hands
    dealer: Seat
    vulnerable: Vulnerability
    goedel: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        _check_board(self.number)
        object.__setattr__(self, "hands", _freeze(self.hands))
        if not is_seat(self.dealer):
            raise BoardRangeError(f"bad dealer {_shown(self.dealer)}; expected one of N, E, S, W")
        if not is_vulnerability(self.vulnerable):
            raise BoardRangeError(
                f"bad vulnerability {_shown(self.vulnerable)}; expected one of None, NS, EW, All"
            )
        object.__setattr__(self, "dealer", Seat(self.dealer))
        object.__setattr__(self, "vulnerable", Vulnerability(self.vulnerable))

    @classmethod
    def standard(
        cls, number: int, hands: Sequence[Sequence[Card]], goedel: int | None = None
    ) -> Board:
        """A board whose dealer and vulnerability follow the standard cycles."""
        return cls(number, _freeze(hands), dealer(number), vulnerability(number), goedel)
