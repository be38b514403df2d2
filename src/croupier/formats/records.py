"""What a board file says, and nothing more: board records, skipped games, the whole file read.

Files written by other programs leave things out: a solver's PBN file has no
``Board`` tag, a problem file knows only two hands, a BBO file has no
vulnerability.  A :class:`BoardRecord` keeps exactly what the file said
(``None`` where it said nothing); :meth:`BoardRecord.to_board` fills the gaps
by the standard rules when a complete :class:`~croupier.boards.Board` is
needed.  A game that cannot be read does not sink the file: readers return a
:class:`BoardFileContents` holding the records they could read and a
:class:`SkippedGame` (game number, line, reason) for each one they could not;
:meth:`BoardFileContents.require_all` turns a skip into an error (``--strict``).

>>> from croupier.formats.pbn_deal import parse_pbn_deal
>>> hands = parse_pbn_deal("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. -")
>>> record = BoardRecord(hands, number=None, dealer="E")
>>> record.complete, record.to_board(7).dealer, record.to_board(7).vulnerable
(True, <Seat.EAST: 'E'>, <Vulnerability.ALL: 'All'>)
>>> contents = BoardFileContents([record], [SkippedGame(2, 9, "bad Deal tag")], source="a.pbn")
>>> contents.to_dict()["skipped"]
[{'game': 2, 'line': 9, 'reason': 'bad Deal tag'}]
>>> contents.require_all()
Traceback (most recent call last):
...
croupier.errors.FileFormatError: a.pbn line 9 (game 2): bad Deal tag (1 game skipped; ...
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from croupier.boards import (
    MAX_BOARD,
    Board,
    Hands,
    dealer,
    is_seat,
    is_vulnerability,
    vulnerability,
)
from croupier.cards import Card
from croupier.errors import FileFormatError, excerpt
from croupier.formats.pbn_deal import format_pbn_hand
from croupier.ranking.bigdeal import BIGDEAL_CARD_ORDER, bigdeal_card_index
from croupier.seats import SEATS, Seat, Vulnerability

__all__ = [
    "MAX_FILE_GAMES",
    "BoardFileContents",
    "BoardRecord",
    "SkippedGame",
    "board_object",
    "check_games",
    "deal_goedel",
    "drop_repeats",
    "renumber",
    "sorted_hands",
    "sorted_record",
]

#: The most games (boards, records, rows) one board file may hold, read and skipped together.
#: Each costs up to a kilobyte once read; 999 boards is a large tournament.
MAX_FILE_GAMES = 100_000


def check_games(game: int, source: str) -> None:
    """Refuse a file when its game number ``game`` (counted from 1) is past :data:`MAX_FILE_GAMES`.

    Readers call it for every game they find, before reading it, so a file of
    millions of tiny games is refused after the first hundred thousand instead
    of being held in memory.

    >>> check_games(100_001, "x.lin")
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: x.lin holds more than 100,000 games; a board file holds ...
    """
    if game > MAX_FILE_GAMES:
        raise FileFormatError(
            f"{source} holds more than {MAX_FILE_GAMES:,} games; a board file holds at most "
            f"{MAX_FILE_GAMES:,} (split it)"
        )


# Big Deal index of each of the 52 cards of BIGDEAL_CARD_ORDER, by identity: readers hand out
# these very objects, and an ``id`` is found many times faster than a Card's hash is computed.
_INDEX_BY_ID = {id(card): index for index, card in enumerate(BIGDEAL_CARD_ORDER)}
_CANONICAL_IDS = frozenset(_INDEX_BY_ID)
_STANDARD_INDEX: dict[Card, int] = {card: index for index, card in enumerate(BIGDEAL_CARD_ORDER)}


def _card_key(card: Card) -> int | Card:
    """The Big Deal index of a standard card, else the card itself (two keys are equal when the
    cards are)."""
    index = _INDEX_BY_ID.get(id(card))
    if index is not None:
        return index
    return _STANDARD_INDEX.get(card, card)


def _sorted_hand(hand: Sequence[Card]) -> tuple[Card, ...]:
    get = _INDEX_BY_ID.get
    indices = [get(id(card), -1) for card in hand]
    if -1 in indices:  # not (only) the cards of BIGDEAL_CARD_ORDER themselves
        return tuple(sorted(hand, key=bigdeal_card_index))
    indices.sort()
    return tuple([BIGDEAL_CARD_ORDER[i] for i in indices])  # the same objects, in order


def sorted_hands(hands: Sequence[Sequence[Card]]) -> Hands:
    """Four hands as a :class:`BoardRecord` holds them: tuples, spades first and ace high.

    >>> from croupier.cards import parse_cards
    >>> [c.code for c in sorted_hands([parse_cards("2C AS"), [], [], []])[0]]
    ['AS', '2C']
    """
    if len(hands) != 4:
        raise FileFormatError(f"a board record holds 4 hands (N, E, S, W), got {len(hands)}")
    n, e, s, w = (_sorted_hand(h) for h in hands)
    return (n, e, s, w)


@dataclass(frozen=True, slots=True)
class SkippedGame:
    """A game of a file that could not be read: its number in the file, first line and why.

    ``game`` counts the file's games (or records, or lines) from 1; ``line``
    is the line the game starts on (the record number for binary formats).

    >>> SkippedGame(3, 41, "card 'AS' appears twice").to_dict()["line"]
    41
    """

    game: int
    line: int
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """``{"game", "line", "reason"}``, as ``croupier convert --to json`` prints it.

        >>> SkippedGame(1, 2, "x").to_dict()
        {'game': 1, 'line': 2, 'reason': 'x'}
        """
        return {"game": self.game, "line": self.line, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class BoardRecord:
    """One deal as a file gives it: hands ``(N, E, S, W)`` and the board facts it states.

    ``number``, ``dealer`` and ``vulnerable`` are ``None`` where the file does
    not say.  A hand the file does not know is empty: the record is then a
    *partial* deal (``complete`` is false).  ``game`` and ``line`` say where
    the record stands in its file (1-based; 0 when it was not read from a
    file); ``room`` is the room a result belongs to (``"open"``/``"closed"``)
    when the file says.  Hands are kept sorted, spades first and ace high, so
    records with the same content compare equal.  ``dealer`` and
    ``vulnerable`` may be given as their letters and words (``"E"``,
    ``"NS"``); the record holds them as :class:`~croupier.seats.Seat` and
    :class:`~croupier.seats.Vulnerability`.

    >>> from croupier.cards import parse_cards
    >>> rec = BoardRecord((parse_cards("AS KS"), parse_cards("QS"), (), ()), number=4)
    >>> rec.complete, rec.deal
    (False, 'N:AK... Q... - -')
    """

    hands: Hands
    number: int | None = None
    dealer: Seat | None = None
    vulnerable: Vulnerability | None = None
    game: int = field(default=0, compare=False)
    line: int = field(default=0, compare=False)
    room: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "hands", sorted_hands(self.hands))
        if self.dealer is not None:
            if not is_seat(self.dealer):
                raise FileFormatError(f"bad dealer {_shown(self.dealer)}; expected N, E, S or W")
            object.__setattr__(self, "dealer", Seat(self.dealer))
        if self.vulnerable is not None:
            if not is_vulnerability(self.vulnerable):
                raise FileFormatError(
                    f"bad vulnerability {_shown(self.vulnerable)}; expected None, NS, EW or All"
                )
            object.__setattr__(self, "vulnerable", Vulnerability(self.vulnerable))

    @property
    def complete(self) -> bool:
        """Whether the record holds a whole deal: four hands of 13 cards (52 distinct).

        >>> from croupier.ranking.bigdeal import goedel_unrank
        >>> BoardRecord(goedel_unrank(0)).complete
        True
        """
        if any(len(h) != 13 for h in self.hands):
            return False
        ids = {id(card) for hand in self.hands for card in hand}
        if ids <= _CANONICAL_IDS:  # the usual case: the cards of BIGDEAL_CARD_ORDER themselves
            return len(ids) == 52
        return len({_card_key(card) for hand in self.hands for card in hand}) == 52

    @property
    def deal(self) -> str:
        """The PBN deal string from North; an unknown (empty) hand is ``-``.

        >>> from croupier.ranking.bigdeal import goedel_unrank
        >>> BoardRecord(goedel_unrank(0)).deal[:18]
        'N:AKQJT98765432...'
        """
        return deal_text(self.hands)

    def to_board(self, number: int | None = None) -> Board:
        """A :class:`~croupier.boards.Board`, filling what the file left out.

        The number is the record's own, else ``number``; a missing dealer or
        vulnerability takes the standard cycle's value for that number.  A
        partial record gives a board with partial hands.

        >>> from croupier.ranking.bigdeal import goedel_unrank
        >>> BoardRecord(goedel_unrank(0), vulnerable="EW").to_board(1).vulnerable
        <Vulnerability.EW: 'EW'>
        >>> BoardRecord(goedel_unrank(0)).to_board()
        Traceback (most recent call last):
        ...
        croupier.errors.FileFormatError: the board in game 0 has no board number; ...
        """
        chosen = self.number if self.number is not None else number
        if chosen is None:
            raise FileFormatError(
                f"the board in game {self.game} has no board number; pass number= "
                "(or renumber the boards)"
            )
        if _BOARD_AS_RECORD and type(chosen) is int and 1 <= chosen <= MAX_BOARD:
            return _board(
                chosen,
                self.hands,
                self.dealer if self.dealer is not None else Seat.of_board(chosen),
                self.vulnerable if self.vulnerable is not None else Vulnerability.of_board(chosen),
            )
        return Board(
            chosen,
            self.hands,
            self.dealer if self.dealer is not None else dealer(chosen),
            self.vulnerable if self.vulnerable is not None else vulnerability(chosen),
        )

    @classmethod
    def from_board(cls, board: Board, *, game: int = 0, line: int = 0) -> BoardRecord:
        """The record of a complete board: every fact known.

        >>> from croupier.ranking.bigdeal import goedel_unrank
        >>> BoardRecord.from_board(Board.standard(3, goedel_unrank(0))).dealer
        <Seat.SOUTH: 'S'>
        """
        return cls(board.hands, board.number, board.dealer, board.vulnerable, game, line)

    def to_dict(self) -> dict[str, Any]:
        """The board object (:func:`board_object`), as ``croupier convert --to json`` has it.

        Unknown values are ``None`` (JSON ``null``); ``deal`` always starts
        from North.

        >>> from croupier.ranking.bigdeal import goedel_unrank
        >>> BoardRecord(goedel_unrank(0), number=2).to_dict()["dealer"] is None
        True
        """
        return board_object(self.number, self.dealer, self.vulnerable, self.hands)


def deal_text(hands: Hands) -> str:
    """The PBN deal string of four hands from North, ``-`` for a hand not known (empty).

    >>> from croupier.cards import parse_cards
    >>> deal_text((parse_cards("AS KH"), (), parse_cards("2C"), ()))
    'N:A.K.. - ...2 -'
    """
    return "N:" + " ".join(format_pbn_hand(h) if h else "-" for h in hands)


def board_object(
    number: int | None, dealer: Seat | None, vulnerable: Vulnerability | None, hands: Hands
) -> dict[str, Any]:
    """The one JSON object of a board, whatever prints it (``bigdeal``, ``boards make``,
    ``handrecord``, ``convert --to json``; docs/json.md): ``board``, ``dealer``,
    ``vulnerable``, ``deal`` (the PBN deal string from North, ``-`` for a hand not
    known) and ``hands`` (each seat's cards, spades first and ace high: ``[]`` for a
    hand not known).  A command may add keys of its own after these.

    >>> from croupier.cards import parse_cards
    >>> made = board_object(3, Seat.SOUTH, None, (parse_cards("AS KH"), (), (), ()))
    >>> made["deal"], made["hands"]
    ('N:A.K.. - - -', {'N': ['AS', 'KH'], 'E': [], 'S': [], 'W': []})
    """
    return {
        "board": number,
        "dealer": None if dealer is None else dealer.letter,
        "vulnerable": None if vulnerable is None else vulnerable.pbn,
        "deal": deal_text(hands),
        "hands": {s.letter: [c.code for c in hand] for s, hand in zip(SEATS, hands, strict=True)},
    }


_new_record = object.__new__
_set = object.__setattr__


def sorted_record(
    hands: Hands,
    number: int | None = None,
    dealer: Seat | None = None,
    vulnerable: Vulnerability | None = None,
    game: int = 0,
    line: int = 0,
    room: str | None = None,
) -> BoardRecord:
    """A :class:`BoardRecord` of hands already in its order, made without sorting them again.

    For readers that hold the hands sorted already (spades first, ace high: the
    order of :data:`~croupier.ranking.bigdeal.BIGDEAL_CARD_ORDER`), such as
    :func:`croupier.formats.pbn_deal.sorted_pbn_deal` gives them, ``dealer`` and
    ``vulnerable`` as a :class:`~croupier.seats.Seat` and a
    :class:`~croupier.seats.Vulnerability` (or ``None``): nothing is checked, and
    the record is the one ``BoardRecord(hands, ...)`` would make.

    >>> from croupier.ranking.bigdeal import goedel_unrank
    >>> hands = BoardRecord(goedel_unrank(7)).hands
    >>> sorted_record(hands, 3, game=1) == BoardRecord(hands, 3)
    True
    """
    record: BoardRecord = _new_record(BoardRecord)
    _set(record, "hands", hands)
    _set(record, "number", number)
    _set(record, "dealer", dealer)
    _set(record, "vulnerable", vulnerable)
    _set(record, "game", game)
    _set(record, "line", line)
    _set(record, "room", room)
    return record


# C(n, k) for n <= 52, k <= 13: the lex ranks of Big Deal's Gödel number, without big-number
# function calls (the three subsets of a deal are ranked in one loop over the 52 cards).
_COMB = [[math.comb(n, k) for k in range(14)] for n in range(53)]
# _LEX_TERMS[n][i][p] = C(n - 1 - p, 13 - i): the term of the (i+1)-th smallest place p.
_ITEM = cast(Callable[[list[int], int], int], list.__getitem__)
_BIT = [1 << i for i in range(52)]
_BELOW = [(1 << i) - 1 for i in range(52)]
_LEX_TERMS = {
    n: [[math.comb(n - 1 - p, 13 - i) for p in range(n)] for i in range(13)] for n in (52, 39, 26)
}


def deal_goedel(hands: Hands) -> int | None:
    """The Gödel number of a record's hands (:func:`croupier.ranking.bigdeal.goedel_rank`), or
    ``None`` when they are not a whole deal of the 52 standard cards.

    Several times quicker than ``goedel_rank`` (a CSV file's ``goedel`` column is
    checked on every row).

    >>> from croupier.ranking.bigdeal import goedel_rank, goedel_unrank
    >>> hands = BoardRecord(goedel_unrank(123456789)).hands
    >>> deal_goedel(hands), goedel_rank(hands)
    (123456789, 123456789)
    >>> deal_goedel(((), (), (), ())) is None
    True
    """
    get = _INDEX_BY_ID.get
    places: list[list[int]] = []
    for hand in hands:
        if len(hand) != 13:
            return None
        found = list(map(get, map(id, hand)))
        if None in found:  # not the cards of BIGDEAL_CARD_ORDER themselves
            found = [_STANDARD_INDEX.get(card) for card in hand]
            if None in found:
                return None
        found.sort()  # (a record's hands are sorted already: a quick pass)
        places.append(cast(list[int], found))
    if len(set().union(*places)) != 52:
        return None
    # lex rank of places p_1 < ... < p_13 among n: C(n, 13) - 1 - sum C(n - 1 - p_i, 14 - i)
    number = 0
    before = 0  # the cards of the hands ranked already, as bits of their indices
    for pile, n in ((0, 52), (1, 39), (2, 26)):
        found_places = places[pile]
        if before:
            found_places = [i - (before & _BELOW[i]).bit_count() for i in found_places]
        rank = _COMB[n][13] - 1 - sum(map(_ITEM, _LEX_TERMS[n], found_places))
        number = number * _COMB[n][13] + rank
        before |= sum(map(_BIT.__getitem__, places[pile]))
    return number


# A record's hands are sorted as a Board's are (Big Deal's card order), so a board is made from
# a record without sorting its 52 cards again (Board() sorts them by a key function: most of the
# time a verification spends on a file of boards).  Only while Board is the dataclass of these
# five fields; otherwise the constructor is called.
_BOARD_AS_RECORD = not hasattr(Board, "__slots__") and [
    f.name for f in dataclasses.fields(Board)
] == [
    "number",
    "hands",
    "dealer",
    "vulnerable",
    "goedel",
]


def _board(number: int, hands: Hands, dealer: Seat, vulnerable: Vulnerability) -> Board:
    """``Board(number, hands, dealer, vulnerable)`` for a record's checked values.

    >>> from croupier.ranking.bigdeal import goedel_unrank
    >>> hands = BoardRecord(goedel_unrank(5)).hands
    >>> _board(7, hands, Seat.SOUTH, Vulnerability.ALL) == Board(7, hands, "S", "All")
    True
    """
    board: Board = object.__new__(Board)
    board.__dict__.update(
        number=number, hands=hands, dealer=dealer, vulnerable=vulnerable, goedel=None
    )
    return board


def _shown(value: object) -> str:
    return excerpt(value) if isinstance(value, str) else repr(value)[:40]


@dataclass(frozen=True)
class BoardFileContents:
    """Everything read from one board file: its records, in file order, and its skipped games.

    >>> BoardFileContents([], [], source="x.lin").boards()
    []
    """

    records: list[BoardRecord]
    skipped: list[SkippedGame] = field(default_factory=list)
    source: str = "<file>"

    def require_all(self) -> BoardFileContents:
        """``self`` if no game was skipped; otherwise a one-line error naming the first skip.

        >>> BoardFileContents([], []).require_all().records
        []
        """
        if not self.skipped:
            return self
        first = self.skipped[0]
        count = len(self.skipped)
        plural = "game" if count == 1 else "games"
        raise FileFormatError(
            f"{self.source} line {first.line} (game {first.game}): {first.reason} "
            f"({count} {plural} skipped; strict reading accepts none)"
        )

    def boards(self, first_board: int = 1) -> list[Board]:
        """The records as boards; one without a number takes ``first_board`` + its position.

        Position counts the records read (0 for the first), so a file without
        any ``Board`` tags is numbered ``first_board``, ``first_board + 1``, …

        >>> from croupier.ranking.bigdeal import goedel_unrank
        >>> recs = [BoardRecord(goedel_unrank(0)), BoardRecord(goedel_unrank(1))]
        >>> [b.number for b in BoardFileContents(recs).boards(5)]
        [5, 6]
        """
        return [r.to_board(first_board + i) for i, r in enumerate(self.records)]

    def to_dict(self) -> dict[str, Any]:
        """``{"boards": [...], "skipped": [...]}``: the JSON of ``croupier convert --to json``.

        >>> BoardFileContents([], [SkippedGame(1, 1, "empty")]).to_dict()["boards"]
        []
        """
        return {
            "boards": [r.to_dict() for r in self.records],
            "skipped": [s.to_dict() for s in self.skipped],
        }


def drop_repeats(records: Sequence[BoardRecord]) -> tuple[list[BoardRecord], int]:
    """The records without repeats, and how many were left out.

    A repeat is a record with the same board number and the same deal as an
    earlier one: the same board as played in another room (LIN and PBN result
    files hold a board once per table).  Records without a number are kept.

    >>> from croupier.ranking.bigdeal import goedel_unrank
    >>> open_room = BoardRecord(goedel_unrank(0), number=1, room="open")
    >>> closed_room = BoardRecord(goedel_unrank(0), number=1, room="closed")
    >>> drop_repeats([open_room, closed_room, BoardRecord(goedel_unrank(0), number=2)])[1]
    1
    """
    seen: set[tuple[int, Hands]] = set()
    kept: list[BoardRecord] = []
    for r in records:
        if r.number is not None:
            if (r.number, r.hands) in seen:
                continue
            seen.add((r.number, r.hands))
        kept.append(r)
    return kept, len(records) - len(kept)


def renumber(records: Sequence[BoardRecord], first_board: int = 1) -> list[BoardRecord]:
    """The records numbered ``first_board``, ``first_board + 1``, … in order.

    A dealer or vulnerability the record states is kept; a missing one takes
    the standard cycle's value for the new number.

    >>> from croupier.ranking.bigdeal import goedel_unrank
    >>> done = renumber([BoardRecord(goedel_unrank(0), number=9, dealer="W")], 2)
    >>> done[0].number, done[0].dealer, done[0].vulnerable
    (2, <Seat.WEST: 'W'>, <Vulnerability.NS: 'NS'>)
    """
    last = first_board + len(records) - 1
    if records and last > MAX_BOARD:
        raise FileFormatError(
            f"numbering {len(records)} boards from {first_board} reaches board {last}; "
            f"board numbers go up to {MAX_BOARD}"
        )
    return [
        dataclasses.replace(
            r,
            number=first_board + i,
            dealer=r.dealer or dealer(first_board + i),
            vulnerable=r.vulnerable or vulnerability(first_board + i),
        )
        for i, r in enumerate(records)
    ]
