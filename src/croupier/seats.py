"""The seats of a bridge table and the vulnerabilities: every spelling, and the board cycles.

:class:`Seat` and :class:`Vulnerability` are string enums whose values are
PBN's spellings (``"N"``, ``"None"``, ``"All"``), so a seat is also the
string it stands for: it compares equal to it, is written as it in text and
JSON, and keys dictionaries the same way.  Each enum parses every spelling
the formats use and writes each one (PBN, LIN, dealer's language, hand
records), and holds the standard cycles of duplicate boards:

* the dealer rotates ``N E S W`` with period 4 (board 1 North, board 4 West);
* the vulnerability follows the 16-board cycle ``None NS EW All / NS EW All None /
  EW All None NS / All None NS EW``.

Both go on past any board number a file can hold (:func:`croupier.boards.dealer`
and :func:`croupier.boards.vulnerability` are the checked forms for board files).

>>> Seat.parse("north"), Seat.parse(2), Seat.WEST.long_name, Seat.EAST.partner
(<Seat.NORTH: 'N'>, <Seat.SOUTH: 'S'>, 'West', <Seat.WEST: 'W'>)
>>> [str(Seat.of_board(b)) for b in range(1, 6)]
['N', 'E', 'S', 'W', 'N']
>>> [str(Vulnerability.of_board(b)) for b in (1, 2, 3, 4, 5, 16, 17)]
['None', 'NS', 'EW', 'All', 'NS', 'EW', 'None']
>>> Vulnerability.parse("Both"), Vulnerability.from_lin("e").text, Seat.NORTH == "N"
(<Vulnerability.ALL: 'All'>, 'E-W', True)
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from croupier.errors import CroupierError, excerpt

__all__ = [
    "BOARD_CYCLE",
    "SEATS",
    "VULNERABILITIES",
    "Seat",
    "SeatError",
    "Vulnerability",
]

BOARD_CYCLE: Final = 16
"""Boards after which both standard cycles repeat (the dealer's repeats every 4)."""


class SeatError(CroupierError):
    """A seat or a vulnerability is spelled in no way croupier knows."""


class Seat(StrEnum):
    """A seat of a bridge table, clockwise from North; its value is the PBN letter.

    :meth:`parse` reads a letter (``N``, ``e``), a word (``north``, ``North``)
    or an index 0..3; :attr:`letter`, :attr:`long_name` and :attr:`position` (0..3) are
    the three ways it is written.

    >>> Seat.parse("S").position, Seat.SOUTH.letter, f"{Seat.SOUTH}", Seat.SOUTH.rotated(-1)
    (2, 'S', 'S', <Seat.EAST: 'E'>)
    """

    NORTH = "N"
    EAST = "E"
    SOUTH = "S"
    WEST = "W"

    @property
    def letter(self) -> str:
        """One upper-case letter: ``N``, ``E``, ``S`` or ``W`` (a plain ``str``)."""
        return str(self.value)

    @property
    def long_name(self) -> str:
        """``North``, ``East``, ``South`` or ``West``."""
        return self.name.title()

    @property
    def position(self) -> int:
        """0..3 clockwise from North: the place of the seat's hand in ``(N, E, S, W)``."""
        return _POSITION[self]

    @property
    def partner(self) -> Seat:
        """The seat across the table."""
        return self.rotated(2)

    @property
    def side(self) -> Vulnerability:
        """The seat's partnership, as the vulnerability of just that side: ``NS`` or ``EW``."""
        return Vulnerability.NS if self.position % 2 == 0 else Vulnerability.EW

    def rotated(self, steps: int = 1) -> Seat:
        """The seat ``steps`` places clockwise (1: the left-hand opponent; negative: back)."""
        return SEATS[(self.position + steps) % 4]

    def clockwise(self) -> tuple[Seat, Seat, Seat, Seat]:
        """The four seats clockwise from this one (PBN writes a deal's hands in this order).

        >>> "".join(Seat.SOUTH.clockwise())
        'SWNE'
        """
        return (self, self.rotated(1), self.rotated(2), self.rotated(3))

    @classmethod
    def from_index(cls, index: int) -> Seat:
        """The seat at ``index`` 0..3 (North, East, South, West)."""
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < 4:
            raise SeatError(f"bad seat index {index!r}; expected 0..3 (N, E, S, W)")
        return SEATS[index]

    @classmethod
    def parse(cls, value: str | int) -> Seat:
        """A seat from a letter or a word in any case (``N``, ``north``, ``North``) or 0..3.

        >>> Seat.parse(" WEST "), Seat.parse("e"), Seat.parse(Seat.NORTH)
        (<Seat.WEST: 'W'>, <Seat.EAST: 'E'>, <Seat.NORTH: 'N'>)
        >>> Seat.parse("NE")
        Traceback (most recent call last):
        ...
        croupier.seats.SeatError: bad seat 'NE'; expected N, E, S, W or north, east, south, west
        """
        if isinstance(value, int) and not isinstance(value, bool):
            return cls.from_index(value)
        found = _SEAT_WORDS.get(value.strip().lower()) if isinstance(value, str) else None
        if found is None:
            shown = excerpt(value) if isinstance(value, str) else repr(value)
            raise SeatError(f"bad seat {shown}; expected N, E, S, W or north, east, south, west")
        return found

    @classmethod
    def of_board(cls, board: int) -> Seat:
        """The dealer of board ``board`` (1, 2, ...): North deals boards 1, 5, 9, ...

        >>> Seat.of_board(0)
        Traceback (most recent call last):
        ...
        croupier.seats.SeatError: board numbers start at 1, got 0
        """
        return SEATS[(_board_number(board) - 1) % 4]


class Vulnerability(StrEnum):
    """Which side is vulnerable; its value is PBN's spelling (``None``, ``NS``, ``EW``, ``All``).

    ================  ========  ======  ===  ======================  ===========
    member            PBN       words   LIN  dealer's language       hand record
    ================  ========  ======  ===  ======================  ===========
    ``NONE``          ``None``  Love -  o    ``none``                None
    ``NS``            ``NS``            n    ``NS`` / ``ns``         N-S
    ``EW``            ``EW``            e    ``EW`` / ``ew``         E-W
    ``ALL``           ``All``   Both    b    ``all``                 All
    ================  ========  ======  ===  ======================  ===========

    >>> Vulnerability.NS.lin, Vulnerability.ALL.dealer_word, Vulnerability.NONE.text
    ('n', 'all', 'None')
    >>> Vulnerability.EW.is_vulnerable(Seat.WEST), Vulnerability.EW.is_vulnerable(Seat.NORTH)
    (True, False)
    """

    NONE = "None"
    NS = "NS"
    EW = "EW"
    ALL = "All"

    @property
    def pbn(self) -> str:
        """PBN's spelling (the value, as a plain ``str``): ``None``, ``NS``, ``EW`` or ``All``."""
        return str(self.value)

    @property
    def lin(self) -> str:
        """LIN's ``sv`` letter: ``o``, ``n``, ``e`` or ``b``."""
        return _LIN_LETTERS[self]

    @property
    def dealer_word(self) -> str:
        """The word of dealer's ``vulnerable`` statement: ``none``, ``NS``, ``EW`` or ``all``."""
        return _DEALER_WORDS[self]

    @property
    def text(self) -> str:
        """As a hand record prints it: ``None``, ``N-S``, ``E-W`` or ``All``."""
        return _TEXT[self]

    def is_vulnerable(self, seat: Seat | str) -> bool:
        """Whether ``seat``'s side is vulnerable."""
        return self is Vulnerability.ALL or self is Seat.parse(seat).side

    @classmethod
    def parse(cls, word: str) -> Vulnerability:
        """PBN's words in any case: ``None``, ``Love``, ``-``, ``NS``, ``EW``, ``All``, ``Both``.

        >>> Vulnerability.parse("love"), Vulnerability.parse(" NS ")
        (<Vulnerability.NONE: 'None'>, <Vulnerability.NS: 'NS'>)
        """
        found = cls.from_word(word)
        if found is None:
            shown = excerpt(word) if isinstance(word, str) else repr(word)
            raise SeatError(f"bad vulnerability {shown}; expected None, NS, EW or All")
        return found

    @classmethod
    def from_word(cls, word: str) -> Vulnerability | None:
        """As :meth:`parse`, but ``None`` for a word that is no vulnerability."""
        return _PBN_WORDS.get(word.strip().lower()) if isinstance(word, str) else None

    @classmethod
    def from_lin(cls, letter: str) -> Vulnerability | None:
        """LIN's ``sv`` letter, any case: ``o`` (``0``, ``-``), ``n``, ``e``, ``b``; else ``None``.

        >>> Vulnerability.from_lin("B"), Vulnerability.from_lin("0"), Vulnerability.from_lin("x")
        (<Vulnerability.ALL: 'All'>, <Vulnerability.NONE: 'None'>, None)
        """
        return _FROM_LIN.get(letter.strip().lower())

    @classmethod
    def from_dealer_word(cls, word: str) -> Vulnerability:
        """The word of dealer's ``vulnerable`` statement: ``none``, ``NS`` or ``ns``, ``all``..."""
        found = _FROM_DEALER.get(word)
        if found is None:
            raise SeatError(f"bad vulnerability {excerpt(word)}; expected none, NS, EW or all")
        return found

    @classmethod
    def of_board(cls, board: int) -> Vulnerability:
        """The vulnerability of board ``board`` (1, 2, ...) in the standard 16-board cycle."""
        return _CYCLE[(_board_number(board) - 1) % BOARD_CYCLE]


def _board_number(board: int) -> int:
    """``board``, checked: a whole number 1 or more (the cycles have no end)."""
    if isinstance(board, bool) or not isinstance(board, int):
        raise SeatError(f"a board number is a whole number from 1 on, not a {type(board).__name__}")
    if board < 1:
        raise SeatError(f"board numbers start at 1, got {board if board > -(10**9) else 'less'}")
    return board


#: The seats in clockwise order from North (index = :attr:`Seat.position`).
SEATS: Final[tuple[Seat, Seat, Seat, Seat]] = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)
#: The four vulnerabilities, in PBN's order.
VULNERABILITIES: Final[tuple[Vulnerability, ...]] = tuple(Vulnerability)

_POSITION: dict[Seat, int] = {seat: i for i, seat in enumerate(SEATS)}
_SEAT_WORDS: dict[str, Seat] = {s.letter.lower(): s for s in Seat} | {
    s.long_name.lower(): s for s in Seat
}

_NONE, _NS, _EW, _ALL = Vulnerability.NONE, Vulnerability.NS, Vulnerability.EW, Vulnerability.ALL
_CYCLE: tuple[Vulnerability, ...] = (
    _NONE, _NS, _EW, _ALL,
    _NS, _EW, _ALL, _NONE,
    _EW, _ALL, _NONE, _NS,
    _ALL, _NONE, _NS, _EW,
)  # fmt: skip
"""Boards 1 to 16: each row of four boards starts one step further than the row before."""

_LIN_LETTERS = {_NONE: "o", _NS: "n", _EW: "e", _ALL: "b"}
# ``0`` (older files, deal-convert) and ``-`` also mean "none vulnerable".
_FROM_LIN = {letter: vul for vul, letter in _LIN_LETTERS.items()} | {"0": _NONE, "-": _NONE}
_PBN_WORDS = {v.pbn.lower(): v for v in Vulnerability} | {"love": _NONE, "-": _NONE, "both": _ALL}
_DEALER_WORDS = {_NONE: "none", _NS: "NS", _EW: "EW", _ALL: "all"}
_FROM_DEALER = {w: v for v, w in _DEALER_WORDS.items()} | {"ns": _NS, "ew": _EW}
_TEXT = {_NONE: "None", _NS: "N-S", _EW: "E-W", _ALL: "All"}
