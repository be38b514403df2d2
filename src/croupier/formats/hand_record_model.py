"""The model of a hand record: what the printed record of a session shows, however printed.

:class:`HandRecord`, :class:`HandRecordBoard`, :class:`DoubleDummy`,
:class:`ParContract`, :class:`Provenance` and the layout limits; the renderers
(:mod:`croupier.formats.hand_record_html`, :mod:`croupier.formats.hand_record_pdf`)
draw it, and :mod:`croupier.formats.hand_record` is the face of the three (its
:func:`~croupier.formats.hand_record.render_hand_record` chooses the renderer).

>>> from croupier.formats.records import BoardRecord, board_object
>>> from croupier.ranking.bigdeal import goedel_unrank
>>> record = HandRecord.from_records([BoardRecord(goedel_unrank(0), number=3)], event="Cup")
>>> record.title, record.board_range, record.details()
('Cup', '3', ['Board 3'])
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal

from croupier.boards import MAX_BOARD, Board, Hands, dealer, vulnerability
from croupier.cards import Card, Rank
from croupier.errors import FileFormatError, MissingExtraError
from croupier.formats.pbn_deal import format_pbn_hand
from croupier.formats.records import BoardRecord, board_object
from croupier.seats import SEATS, Seat, Vulnerability

__all__ = [
    "BIDI_CONTROLS",
    "DD_ROWS",
    "HAND_RECORD_FORMATS",
    "MAX_PER_PAGE",
    "PAPERS",
    "PDF_INSTALL_HINT",
    "STRAINS",
    "STRAIN_SYMBOLS",
    "DoubleDummy",
    "HandRecord",
    "HandRecordBoard",
    "MissingGlyphsWarning",
    "ParContract",
    "PdfUnavailable",
    "Provenance",
    "board_range_text",
    "check_layout",
    "default_per_page",
    "hand_hcp",
    "missing_glyphs_message",
    "shown_text",
]

#: The file formats a hand record is written in.
HAND_RECORD_FORMATS: Final = ("html", "pdf")
#: Paper sizes of a printed hand record.
PAPERS: Final = ("a4", "letter")
#: The most boards on one printed page.
MAX_PER_PAGE: Final = 12
#: The strains of a double-dummy table, in its column order.
STRAINS: Final = ("S", "H", "D", "C", "NT")
#: Suit symbols of the strains (``NT`` stays ``NT``).
STRAIN_SYMBOLS: Final = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "NT": "NT"}
#: The order in which printed double-dummy tables list the declarers (partners together).
DD_ROWS: Final[tuple[Seat, ...]] = (Seat.NORTH, Seat.SOUTH, Seat.EAST, Seat.WEST)

#: The bidirectional formatting characters that reorder the text after them: the
#: embeddings and overrides U+202A-U+202E (LRE, RLE, PDF, LRO, RLO) and the isolates
#: U+2066-U+2069 (LRI, RLI, FSI, PDI).
BIDI_CONTROLS: Final = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))
#: What a hand record shows in place of a control character: U+FFFD, the replacement character.
REPLACEMENT_CHARACTER: Final = "\ufffd"
#: The most characters a warning about missing glyphs names one by one.
MAX_NAMED_GLYPHS: Final = 10

Strain = Literal["S", "H", "D", "C", "NT"]

_POINTS = {Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1}
_PAR_DECLARERS = (*SEATS, Vulnerability.NS, Vulnerability.EW)  # a seat, or a side


def hand_hcp(cards: Sequence[Card]) -> int:
    """High-card points of a hand: ace 4, king 3, queen 2, jack 1.

    >>> from croupier.cards import parse_cards
    >>> hand_hcp(parse_cards("AS KH QD JC TC"))
    10
    """
    return sum(_POINTS.get(card.rank, 0) for card in cards)


def shown_text(text: str) -> str:
    r"""``text`` (an event name, a date, a file name) as a hand record shows it.

    Control characters (C0 and C1: NUL, ESC, DEL ... but not tab and newline)
    and the bidirectional controls of :data:`BIDI_CONTROLS` would act on the
    page instead of being read: an escape sequence, a right-to-left override
    that turns the rest of a line around.  Each becomes U+FFFD (the
    replacement character), so the reader sees that something was there.  The
    text is also put in Unicode's composed form (NFC): an ``e`` followed by a
    combining acute is ``é``.

    >>> shown_text("Cup\x00\x1b[31m") == "Cup\ufffd\ufffd[31m"
    True
    >>> shown_text("ab\u202edc\tx") == "ab\ufffddc\tx", shown_text("Cafe\u0301")
    (True, 'Café')
    """
    text = unicodedata.normalize("NFC", text)
    return "".join(
        REPLACEMENT_CHARACTER
        if ch in BIDI_CONTROLS or (unicodedata.category(ch) == "Cc" and ch not in "\t\n")
        else ch
        for ch in text
    )


def missing_glyphs_message(characters: Sequence[str]) -> str:
    """The one-line warning that ``characters`` had no glyph in the PDF's font.

    At most :data:`MAX_NAMED_GLYPHS` characters are named, with their code points.

    >>> missing_glyphs_message(["日", "本"])
    "the PDF font has no glyph for '日本' (U+65E5, U+672C); shown as '?'"
    >>> missing_glyphs_message([chr(0x4E00 + i) for i in range(12)]).split(") ")[1]
    "and 2 more characters; shown as '?'"
    """
    named = list(characters[:MAX_NAMED_GLYPHS])
    points = ", ".join(f"U+{ord(ch):04X}" for ch in named)
    more = len(characters) - len(named)
    rest = f" and {more} more character{'s' if more != 1 else ''}" if more > 0 else ""
    return f"the PDF font has no glyph for '{''.join(named)}' ({points}){rest}; shown as '?'"


class MissingGlyphsWarning(UserWarning):
    """A PDF hand record showed characters as ``?``: its font has no glyph for them.

    ``characters`` holds each such character once, in the order they first
    appear.  The PDF's font (DejaVu Sans, cut down to Latin, Greek and Cyrillic)
    has no CJK, Arabic, Hebrew or emoji; the HTML hand record shows them all.

    >>> w = MissingGlyphsWarning(("日",))
    >>> w.characters, str(w)
    (('日',), "the PDF font has no glyph for '日' (U+65E5); shown as '?'")
    """

    def __init__(self, characters: Sequence[str]) -> None:
        self.characters = tuple(characters)
        super().__init__(missing_glyphs_message(self.characters))


def board_range_text(numbers: Sequence[int]) -> str:
    """Board numbers as ranges in the order given: ``1-16``, ``1-8, 10, 12-13``.

    >>> board_range_text([1, 2, 3, 5, 7, 8]), board_range_text([]), board_range_text([4, 3])
    ('1-3, 5, 7-8', '', '4, 3')
    """
    parts: list[str] = []
    start = prev = None
    for n in [*numbers, None]:
        if prev is not None and n == prev + 1:
            prev = n
            continue
        if start is not None and prev is not None:
            parts.append(str(start) if start == prev else f"{start}-{prev}")
        start = prev = n
    return ", ".join(parts)


@dataclass(frozen=True)
class ParContract:
    """One par contract: level, strain, declarer (``N`` … or ``NS``/``EW``), doubled, result.

    ``result`` is the number of tricks over (positive) or under (negative)
    the contract; par sacrifices are doubled and go down.

    >>> c = ParContract(5, "D", "E", True, -2)
    >>> c.text, c.symbols
    ('E 5DX-2', '5♦X−2 E')
    >>> ParContract(3, "NT", "NS", False, 1).symbols
    '3NT+1 NS'
    """

    level: int
    strain: Strain
    declarer: str
    doubled: bool = False
    result: int = 0

    def __post_init__(self) -> None:
        if not 1 <= self.level <= 7 or self.strain not in STRAINS:
            raise FileFormatError(f"bad par contract {self.level}{self.strain}")
        if self.declarer not in _PAR_DECLARERS:
            raise FileFormatError(f"bad par declarer {self.declarer!r}")

    def _result(self, minus: str) -> str:
        if not self.result:
            return ""
        return f"+{self.result}" if self.result > 0 else f"{minus}{-self.result}"

    @property
    def text(self) -> str:
        """PBN's ``ParContract`` spelling: side, then the contract (``NS 4S``, ``E 5DX-2``)."""
        return f"{self.declarer} {self.level}{self.strain}{'X' if self.doubled else ''}" + (
            self._result("-")
        )

    @property
    def symbols(self) -> str:
        """As printed: contract with its suit symbol, then the declarer (``4♠ N``)."""
        contract = f"{self.level}{STRAIN_SYMBOLS[self.strain]}{'X' if self.doubled else ''}"
        return f"{contract}{self._result('−')} {self.declarer}"


@dataclass(frozen=True)
class DoubleDummy:
    """A board's double-dummy tricks table and its par.

    ``tricks[seat][strain]``: the tricks declarer ``N E S W`` (0-3) takes in
    strain ``S H D C NT`` (0-4).  ``par_score`` is North-South's par score
    (negative when East-West gain); ``par_contracts`` is empty when par is to
    pass the deal out.

    >>> dd = DoubleDummy(((9, 8, 7, 6, 10), (4, 5, 6, 7, 3)) * 2, 430,
    ...                  (ParContract(3, "NT", "NS", False, 1),))
    >>> dd.tricks_for("S", "NT"), dd.par_text, dd.contracts_text
    (10, 'NS +430', '3NT+1 NS')
    >>> DoubleDummy(((0,) * 5,) * 4, -100, ()).par_text
    'EW +100'
    """

    tricks: tuple[tuple[int, ...], ...]
    par_score: int
    par_contracts: tuple[ParContract, ...] = ()

    def __post_init__(self) -> None:
        rows = tuple(tuple(int(v) for v in row) for row in self.tricks)
        if len(rows) != 4 or any(len(r) != 5 or min(r) < 0 or max(r) > 13 for r in rows):
            raise FileFormatError("a double-dummy table has 4 rows (N E S W) of 5 values 0..13")
        object.__setattr__(self, "tricks", rows)

    def tricks_for(self, declarer: Seat | str, strain: str) -> int:
        """The tricks ``declarer`` (``N``, ``north`` ...) takes in ``strain`` (``S H D C NT``)."""
        return self.tricks[Seat.parse(declarer).position][STRAINS.index(strain)]

    @property
    def par_text(self) -> str:
        """The par score from the side that gains: ``NS +420``, ``EW +100``, ``0``."""
        if self.par_score == 0:
            return "0"
        side = "NS" if self.par_score > 0 else "EW"
        return f"{side} +{abs(self.par_score)}"

    @property
    def contracts_text(self) -> str:
        """The par contracts as printed (``4♠ N, 4♥ S``), or ``pass`` when par is to pass."""
        return ", ".join(c.symbols for c in self.par_contracts) or "pass"

    def to_dict(self) -> dict[str, Any]:
        """``{"tricks": {"N": {"S": 9, ...}, ...}, "par_score", "par_contracts"}`` for JSON."""
        return {
            "tricks": {
                seat.letter: dict(zip(STRAINS, row, strict=True))
                for seat, row in zip(SEATS, self.tricks, strict=True)
            },
            "par_score": self.par_score,
            "par_contracts": [c.text for c in self.par_contracts],
        }


@dataclass(frozen=True)
class HandRecordBoard:
    """One board of a hand record: number, dealer, vulnerability, hands ``(N, E, S, W)``.

    A hand the file did not give is empty (a partial deal); its points are
    ``None``.  ``double_dummy`` is ``None`` unless analysis was asked for.

    >>> from croupier.ranking.bigdeal import goedel_unrank
    >>> b = HandRecordBoard.from_board(Board.standard(2, goedel_unrank(5)))
    >>> b.dealer_name, b.vulnerable_text, b.complete, sum(b.hcp)
    ('East', 'N-S', True, 40)
    """

    number: int
    dealer: Seat
    vulnerable: Vulnerability
    hands: Hands
    double_dummy: DoubleDummy | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "dealer", Seat.parse(self.dealer))
        object.__setattr__(self, "vulnerable", Vulnerability.parse(self.vulnerable))

    @classmethod
    def from_board(cls, board: Board) -> HandRecordBoard:
        """The hand-record board of a complete :class:`~croupier.boards.Board`."""
        return cls(board.number, board.dealer, board.vulnerable, board.hands)

    @property
    def hcp(self) -> tuple[int | None, int | None, int | None, int | None]:
        """High-card points of ``N E S W``; ``None`` for a hand the file did not give."""
        n, e, s, w = (hand_hcp(h) if h else None for h in self.hands)
        return (n, e, s, w)

    @property
    def complete(self) -> bool:
        """Whether all 52 cards are known (double-dummy analysis needs that)."""
        return (
            all(len(h) == 13 for h in self.hands) and len({c for h in self.hands for c in h}) == 52
        )

    @property
    def dealer_name(self) -> str:
        """The dealer as a word: ``North`` …"""
        return self.dealer.long_name

    @property
    def vulnerable_text(self) -> str:
        """The vulnerability as printed: ``None``, ``N-S``, ``E-W``, ``All``."""
        return self.vulnerable.text

    def suits(self, seat: int) -> list[str]:
        """The four suit holdings of hand ``seat`` (0-3) as printed: ``A K 10 2``, ``—`` for a void.

        An unknown hand (empty) gives four empty strings.

        >>> from croupier.ranking.bigdeal import goedel_unrank
        >>> HandRecordBoard.from_board(Board.standard(1, goedel_unrank(0))).suits(0)[:2]
        ['A K Q J 10 9 8 7 6 5 4 3 2', '—']
        """
        hand = self.hands[seat]
        if not hand:
            return ["", "", "", ""]
        return [
            " ".join("10" if r == "T" else r for r in ranks) or "—"
            for ranks in format_pbn_hand(hand).split(".")
        ]

    def to_dict(self) -> dict[str, Any]:
        """The board as ``--json`` prints it: number, dealer, vulnerability, deal, points, DD."""
        return {
            **board_object(self.number, self.dealer, self.vulnerable, self.hands),
            "hcp": {seat.letter: hcp for seat, hcp in zip(SEATS, self.hcp, strict=True)},
            "double_dummy": None if self.double_dummy is None else self.double_dummy.to_dict(),
        }


@dataclass(frozen=True)
class Provenance:
    """Where the boards come from, for a hand record of boards dealt under a commitment.

    ``scheme`` names the scheme (``croupier-boards/2``, ``SquareDeal``),
    ``commitment_label`` what the published value is called, ``commitment`` the
    value published before the event, ``delayed_value`` the value mixed in
    once known, and ``verify`` the lines that say how to check the boards.

    >>> p = Provenance("croupier-boards/1", "ab" * 4, "7", ("croupier boards verify ...",))
    >>> p.lines()
    ['Commitment (croupier-boards/1): abababab', 'Delayed value: 7', 'croupier boards verify ...']
    """

    scheme: str
    commitment: str
    delayed_value: str
    verify: tuple[str, ...] = ()
    commitment_label: str = "Commitment"

    def lines(self) -> list[str]:
        """The header lines: commitment, delayed value, then how to verify."""
        return [
            f"{self.commitment_label} ({self.scheme}): {self.commitment}",
            f"Delayed value: {self.delayed_value}",
            *self.verify,
        ]

    def to_dict(self) -> dict[str, Any]:
        """``{"scheme", "commitment", "delayed_value", "verify"}`` for JSON."""
        return {
            "scheme": self.scheme,
            "commitment": self.commitment,
            "delayed_value": self.delayed_value,
            "verify": list(self.verify),
        }


@dataclass(frozen=True)
class HandRecord:
    """A whole hand record: header facts and the boards, in print order.

    ``event``, ``session`` (``Session 2``, ``Round 3``) and ``date`` are free
    text, shown as they are (empty: not shown).

    >>> HandRecord(()).title, HandRecord((), event="Cup", session="Session 2").details()
    ('Hand record', ['Session 2'])
    """

    boards: tuple[HandRecordBoard, ...]
    event: str = ""
    session: str = ""
    date: str = ""
    provenance: Provenance | None = None
    sources: tuple[str, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "boards", tuple(self.boards))
        for name in ("event", "session", "date"):
            value = getattr(self, name)
            if not isinstance(value, str) or any(ch in value for ch in "\r\n"):
                raise FileFormatError(f"{name}= of a hand record must be one line of text")

    @classmethod
    def from_records(
        cls, records: Sequence[BoardRecord], *, first_board: int = 1, **header: Any
    ) -> HandRecord:
        """The hand record of board records; one without a number takes ``first_board`` + its
        position, and a missing dealer or vulnerability the standard cycle's value."""
        boards = []
        for i, r in enumerate(records):
            number = r.number if r.number is not None else first_board + i
            if not 1 <= number <= MAX_BOARD:
                raise FileFormatError(
                    f"board number {number} out of range; expected 1..{MAX_BOARD}"
                )
            boards.append(
                HandRecordBoard(
                    number,
                    r.dealer or dealer(number),
                    r.vulnerable or vulnerability(number),
                    r.hands,
                )
            )
        return cls(tuple(boards), **header)

    @classmethod
    def from_boards(cls, boards: Sequence[Board], **header: Any) -> HandRecord:
        """The hand record of complete boards."""
        return cls(tuple(HandRecordBoard.from_board(b) for b in boards), **header)

    @property
    def title(self) -> str:
        """The event's name, or ``Hand record``."""
        return self.event or "Hand record"

    @property
    def full_title(self) -> str:
        """The title and the session: ``Cup — Session 2``."""
        return f"{self.title} — {self.session}" if self.session else self.title

    @property
    def board_range(self) -> str:
        """The boards' numbers as ranges (``1-16``)."""
        return board_range_text([b.number for b in self.boards])

    @property
    def has_double_dummy(self) -> bool:
        """Whether any board carries a double-dummy table."""
        return any(b.double_dummy is not None for b in self.boards)

    def details(self) -> list[str]:
        """The facts under the title: the session, the date, ``Boards …``."""
        parts = []
        if self.session:
            parts.append(self.session)
        if self.date:
            parts.append(self.date)
        if self.boards:
            word = "Board" if len(self.boards) == 1 else "Boards"
            parts.append(f"{word} {self.board_range}")
        return parts

    def with_double_dummy(self, results: Sequence[DoubleDummy]) -> HandRecord:
        """A copy with ``results[i]`` as the double-dummy analysis of board ``i``."""
        if len(results) != len(self.boards):
            raise FileFormatError(
                f"{len(results)} double-dummy results for {len(self.boards)} boards"
            )
        boards = tuple(
            replace(b, double_dummy=r) for b, r in zip(self.boards, results, strict=True)
        )
        return replace(self, boards=boards)

    def to_dict(self) -> dict[str, Any]:
        """The hand record as ``croupier handrecord --json`` prints it (less the file)."""
        return {
            "event": self.event or None,
            "session": self.session or None,
            "date": self.date or None,
            "boards_range": self.board_range,
            "provenance": None if self.provenance is None else self.provenance.to_dict(),
            "boards": [b.to_dict() for b in self.boards],
        }


def default_per_page(record: HandRecord) -> int:
    """Boards per printed page when none is asked for: 6, with or without double-dummy tables.

    >>> default_per_page(HandRecord(()))
    6
    """
    return 6


def check_layout(per_page: int, paper: str) -> None:
    """Refuse a number of boards per page or a paper size that cannot be printed.

    >>> check_layout(0, "a4")
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: boards per page must be 1..12, got 0
    """
    if isinstance(per_page, bool) or not isinstance(per_page, int):
        raise FileFormatError(f"boards per page must be a number 1..{MAX_PER_PAGE}")
    if not 1 <= per_page <= MAX_PER_PAGE:
        raise FileFormatError(f"boards per page must be 1..{MAX_PER_PAGE}, got {per_page}")
    if paper not in PAPERS:
        raise FileFormatError(f"unknown paper {paper!r}; expected one of {', '.join(PAPERS)}")


#: What to run to get PDF output.
PDF_INSTALL_HINT: Final = "pip install 'croupier[pdf]'"


class PdfUnavailable(MissingExtraError):
    """PDF hand records need fpdf2 (the extra ``pdf``), which is not installed.

    >>> str(PdfUnavailable.missing())
    "PDF hand records need the fpdf2 package, which is not installed: pip install 'croupier[pdf]'"
    """

    @classmethod
    def missing(cls) -> PdfUnavailable:
        """The error naming the extra to install."""
        return cls(
            f"PDF hand records need the fpdf2 package, which is not installed: {PDF_INSTALL_HINT}"
        )
