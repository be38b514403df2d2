"""BBO LIN files: hand records, tournament and vugraph files, one or many boards.

A LIN file is a run of ``tag|value|`` pairs (two-letter tags, no escapes).
The pairs that matter for a deal:

* ``md|<dealer><South>,<West>,<North>,<East>|``: the dealer digit
  (1 = South, 2 = West, 3 = North, 4 = East; it may be missing) and the
  hands in LIN's seat order S, W, N, E, each ``S…H…D…C…`` (ranks in any
  order; BBO writes them low to high).  BBO leaves the fourth hand empty
  (``md|3…,…,…,|``); it is the 13 cards the others do not hold.  Empty hands
  in other places make a *partial* deal;
* ``ah|Board 12|``: the board label, read for its number;
* ``qx|o12|`` / ``qx|c12|``: open or closed room, board 12 (tournament and
  vugraph files; a board appears once per room);
* ``sv|o|``: vulnerability ``o`` (or ``0``, ``-``) none, ``n`` NS, ``e`` EW,
  ``b`` both, any case.

A board starts at ``qx``, or at ``md``/``pn``/``st`` once the board before
holds a deal; pairs before the first board (``vg``, ``rs``, ``pn``) are the
file's header.  So a board may span many lines (vugraph files break a line at
every ``pg||``) and several boards may share a line.  A board that cannot be
read is skipped with its reason (see :mod:`croupier.formats.records`).
``docs/file-formats.md`` lists where each rule comes from.

What croupier writes, one board per line (``qx`` only for a record with a
room)::

    pn|,,,|st||md|3SAKQHJT9DA87C6543,S…,S…,S…|rh||ah|Board 1|sv|o|pg||

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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from croupier.boards import (
    MAX_BOARD,
    SEATS,
    Board,
    BoardRangeError,
    Seat,
    Vulnerability,
    dealer,
    parse_board_number,
)
from croupier.cards import Card
from croupier.errors import FileFormatError, excerpt
from croupier.formats.pbn_deal import format_pbn_hand
from croupier.formats.records import BoardFileContents, BoardRecord, SkippedGame
from croupier.ranking.bigdeal import BIGDEAL_CARD_ORDER

__all__ = [
    "format_lin_board",
    "format_lin_file",
    "format_lin_records",
    "parse_lin_file",
    "read_lin_records",
]

_LIN_SEATS: tuple[Seat, ...] = ("S", "W", "N", "E")  # md order; dealer digit d is [d - 1]
_VUL_TO_LIN: dict[Vulnerability, str] = {"None": "o", "NS": "n", "EW": "e", "All": "b"}
# ``0`` (older files, deal-convert) and ``-`` also mean "none vulnerable".
_LIN_TO_VUL: dict[str, Vulnerability] = {v: k for k, v in _VUL_TO_LIN.items()} | {
    "0": "None",
    "-": "None",
}
_SEAT_INDEX = {s: i for i, s in enumerate(SEATS)}
_ROOMS = {"o": "open", "c": "closed"}
_SUIT_LETTERS = "SHDC"
_RANKS = "AKQJT98765432"
_TAG = re.compile(r"[A-Za-z]{2}")
_QX = re.compile(r"\s*([A-Za-z]?)\s*([0-9]*)")
_DIGITS = re.compile(r"[0-9]+")
# Tags that start a new board once the current one holds a deal.
_OPENERS = {"md", "pn", "st"}


def _lin_hand(cards: Sequence[Card]) -> str:
    if not cards:
        return ""
    spades, hearts, diamonds, clubs = format_pbn_hand(cards).split(".")
    return f"S{spades}H{hearts}D{diamonds}C{clubs}"


def format_lin_records(records: Sequence[BoardRecord]) -> str:
    """LIN text of board records: one board per line, LF line ends.

    Each line is ``pn|,,,|st||md|…|rh||ah|Board N|sv|…|pg||`` with all four
    hands (an unknown hand is empty).  A record with a room starts with
    ``qx|o<N>|`` or ``qx|c<N>|``.  What the record does not know is left out:
    no number, no ``ah`` (and no number in ``qx``); no vulnerability, no
    ``sv`` (as endplay writes it).  The dealer digit
    is what readers need to place the hands, so an unknown dealer is written
    as the standard dealer of the board number; with no number either, the
    ``md`` value has no dealer digit.

    >>> from croupier.ranking.bigdeal import goedel_unrank
    >>> rec = BoardRecord(goedel_unrank(0), number=None, dealer="E")
    >>> line = format_lin_records([rec])
    >>> line[11:15], line[-12:]
    ('md|4', 'DC|rh||pg||\\n')
    >>> format_lin_records([BoardRecord(goedel_unrank(0), number=3, room="closed")])[:25]
    'qx|c3|pn|,,,|st||md|1SHDA'
    """
    return "".join(_lin_line(r) + "\n" for r in records)


def _lin_line(record: BoardRecord) -> str:
    seat = record.dealer
    if seat is None and record.number is not None:
        seat = dealer(record.number)
    digit = "" if seat is None else str(_LIN_SEATS.index(seat) + 1)
    hands = ",".join(_lin_hand(record.hands[_SEAT_INDEX[s]]) for s in _LIN_SEATS)
    number = "" if record.number is None else str(record.number)
    room = {"open": "o", "closed": "c"}.get(record.room or "")
    head = f"qx|{room}{number}|" if room else ""
    label = f"ah|Board {number}|" if number else ""
    vul = "" if record.vulnerable is None else f"sv|{_VUL_TO_LIN[record.vulnerable]}|"
    return f"{head}pn|,,,|st||md|{digit}{hands}|rh||{label}{vul}pg||"


def format_lin_board(board: Board) -> str:
    """One board as a LIN line (no line end).

    >>> from croupier.boards import Board
    >>> from croupier.ranking.bigdeal import goedel_unrank
    >>> format_lin_board(Board.standard(2, goedel_unrank(0)))[-24:]
    'rh||ah|Board 2|sv|n|pg||'
    """
    return _lin_line(BoardRecord.from_board(board))


def format_lin_file(boards: Sequence[Board]) -> str:
    """A LIN file: one line per board, LF line ends.

    >>> from croupier.ranking.bigdeal import goedel_unrank
    >>> format_lin_file([Board.standard(n, goedel_unrank(0)) for n in (1, 2)]).count("\\n")
    2
    """
    return format_lin_records([BoardRecord.from_board(b) for b in boards])


# --- reading ---------------------------------------------------------------------------------


def _tokens(text: str) -> Iterator[tuple[str, str, int]]:
    """The ``(tag, value, line)`` pairs of LIN text; tags lower-cased.

    Line breaks between pairs do not matter.  A line that ends without the
    closing ``|`` ends its value there when the next line starts a pair;
    otherwise the value goes on over the line break (which is dropped).
    Text before a tag on the same run (a free-text line) is ignored.
    """
    pos, line, size = 0, 1, len(text)
    while True:
        bar = text.find("|", pos)
        if bar < 0:
            return
        raw_tag = text[pos:bar]
        line += raw_tag.count("\n")
        tag = raw_tag.rsplit("\n", 1)[-1].strip().lower()
        end = text.find("|", bar + 1)
        value = text[bar + 1 : size if end < 0 else end]
        pos = size if end < 0 else end + 1
        if "\n" not in value:
            yield tag, value, line
            continue
        last = value.rsplit("\n", 1)[-1]
        if end < 0 or _TAG.fullmatch(last.strip()):
            # the line ended without its closing bar: the value ends there, a pair follows
            yield tag, value.split("\n", 1)[0].rstrip("\r"), line
            if end >= 0:
                pos = end - len(last)
        else:
            yield tag, value.replace("\r", "").replace("\n", ""), line
        line += value.count("\n")


@dataclass
class _Board:
    """The pairs of one board as read: first line and the values that matter."""

    line: int
    values: dict[str, tuple[str, int]] = field(default_factory=dict)

    def put(self, tag: str, value: str, line: int) -> None:
        self.values.setdefault(tag, (value, line))


def _boards(text: str) -> tuple[list[_Board], bool]:
    """The boards of LIN text (only those holding an ``md``), and whether any LIN pair was seen."""
    boards: list[_Board] = []
    current: _Board | None = None
    seen_pair = False
    for tag, value, line in _tokens(text):
        if not _TAG.fullmatch(tag):
            continue
        seen_pair = True
        if current is None:
            current = _Board(line)
            boards.append(current)
        has_deal = "md" in current.values
        repeated = has_deal and tag in ("ah", "sv") and tag in current.values
        if tag == "qx" or (tag in _OPENERS and has_deal) or repeated:
            current = _Board(line)
            boards.append(current)
        current.put(tag, value, line)
    return [b for b in boards if "md" in b.values], seen_pair


def _lin_hand_cards(text: str) -> list[Card] | str:
    """The cards of one LIN hand, or the reason it cannot be read."""
    cards: list[Card] = []
    suit = -1
    seen_suits: set[int] = set()
    upper = text.strip().upper().replace("10", "T")
    for ch in upper:
        if ch in _SUIT_LETTERS:
            suit = _SUIT_LETTERS.index(ch)
            if suit in seen_suits:
                return f"hand {excerpt(text)} names suit {ch} twice"
            seen_suits.add(suit)
        elif ch in _RANKS and suit >= 0:
            cards.append(BIGDEAL_CARD_ORDER[13 * suit + _RANKS.index(ch)])
        elif not ch.isspace():
            return (
                f"bad LIN hand {excerpt(text)}; expected S…H…D…C… with ranks AKQJT98765432, "
                "like 'SAKQHJT9D87C6543'"
            )
    return cards


def _deal(md: str) -> tuple[Seat | None, list[list[Card]]] | str:
    """Dealer and hands (N, E, S, W; unknown hands empty) of an ``md`` value, or a reason."""
    value = md.strip()
    seat: Seat | None = None
    if value[:1].isdigit():
        if value[0] not in "1234":
            return f"md {excerpt(md)} has dealer digit {value[0]!r}; expected 1-4 (S W N E)"
        seat = _LIN_SEATS[int(value[0]) - 1]
        value = value[1:]
    parts = value.split(",")
    if len(parts) > 4 and not any(p.strip() for p in parts[4:]):
        parts = parts[:4]
    if len(parts) > 4:
        return f"md {excerpt(md)} holds {len(parts)} hands; expected at most 4"
    hands: list[list[Card]] = [[], [], [], []]
    for i, part in enumerate(parts):
        cards = _lin_hand_cards(part)
        if isinstance(cards, str):
            return cards
        hands[_SEAT_INDEX[_LIN_SEATS[i]]] = cards
    seen: set[Card] = set()
    for hand, name in zip(hands, SEATS, strict=True):
        if len(hand) > 13:
            return f"{name} holds {len(hand)} cards in md {excerpt(md)}; a hand holds 13"
        for card in hand:
            if card in seen:
                return f"card {card.code} appears twice in md {excerpt(md)}"
            seen.add(card)
    empty = [i for i, h in enumerate(hands) if not h]
    if len(empty) == 1 and len(seen) == 39:
        hands[empty[0]] = [c for c in BIGDEAL_CARD_ORDER if c not in seen]
    return seat, hands


def _number(board: _Board) -> int | str | None:
    """The board number from ``ah`` (else ``qx``), ``None`` if neither gives one, or a reason."""
    for tag in ("ah", "qx"):
        if tag not in board.values:
            continue
        label = board.values[tag][0]
        found = _DIGITS.search(label) if tag == "ah" else _QX.match(label)
        digits = "" if found is None else found.group() if tag == "ah" else found.group(2)
        if not digits:
            continue
        try:
            return parse_board_number(digits)
        except BoardRangeError:
            return f"board label {excerpt(label)} holds no board number 1..{MAX_BOARD}"
    return None


def _record(board: _Board, game: int, partial: bool) -> BoardRecord | str:
    deal = _deal(board.values["md"][0])
    if isinstance(deal, str):
        return deal
    seat, hands = deal
    number = _number(board)
    if isinstance(number, str):
        return number
    vul: Vulnerability | None = None
    if "sv" in board.values:
        code = board.values["sv"][0].strip().lower()
        if code:
            if code not in _LIN_TO_VUL:
                return f"bad sv {excerpt(code)}; expected o (or 0), n, e or b"
            vul = _LIN_TO_VUL[code]
    room = None
    if "qx" in board.values:
        qx = _QX.match(board.values["qx"][0])
        room = _ROOMS.get(qx.group(1).lower()) if qx else None
    n, e, s, w = (tuple(h) for h in hands)
    record = BoardRecord((n, e, s, w), number, seat, vul, game, board.line, room)
    if not record.complete and not partial:
        known = sum(len(h) for h in hands)
        return f"partial deal: md {excerpt(board.values['md'][0])} gives {known} of 52 cards"
    return record


def read_lin_records(
    text: str, *, source: str = "<lin>", partial: bool = False
) -> BoardFileContents:
    """The records of a LIN file and the boards skipped (see :mod:`croupier.formats.records`).

    Every ``md`` is one record, so a board played in the open and the closed
    room gives two records with the same number (``room`` tells them apart).
    A board's number comes from ``ah`` (``Board 7``), else from ``qx``
    (``o7``), else it is ``None``.  ``partial=True`` keeps deals with unknown
    hands or cards; otherwise they are skipped.

    >>> text = "qx|o4|md|4SAKQJT98765432HDC,SHAKQJT98765432DC,SHDAKQJT98765432C,|sv|B|pg||"
    >>> rec = read_lin_records(text + "\\n" + text.replace("o4", "c4")).records
    >>> [(r.number, r.room, r.dealer, r.vulnerable) for r in rec]
    [(4, 'open', 'E', 'All'), (4, 'closed', 'E', 'All')]
    >>> read_lin_records("md|3SAK,,,|").skipped[0].reason
    "partial deal: md '3SAK,,,' gives 2 of 52 cards"
    >>> read_lin_records("<html>", source="x.lin")
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: not a LIN file: x.lin holds no 'tag|value|' pairs ...
    """
    boards, seen_pair = _boards(text)
    records: list[BoardRecord] = []
    skipped: list[SkippedGame] = []
    for game, board in enumerate(boards, start=1):
        result = _record(board, game, partial)
        if isinstance(result, str):
            skipped.append(SkippedGame(game, board.line, result))
        else:
            records.append(result)
    if not seen_pair and text.strip():
        raise FileFormatError(
            f"not a LIN file: {source} holds no 'tag|value|' pairs such as 'md|...|' "
            f"(it starts {excerpt(text.lstrip()[:40], 20)})"
        )
    return BoardFileContents(records, skipped, source)


def parse_lin_file(text: str, *, source: str = "<lin>") -> list[Board]:
    """The boards of a LIN file, strictly: any board that cannot be read is an error.

    A board without a number (no ``ah``, no ``qx``) is numbered by its
    position (1, 2, …).

    >>> text = "md|3SAKQJT98765432HDC,SHAKQJT98765432DC,SHDAKQJT98765432C|ah|Board 9|sv|e|"
    >>> board = parse_lin_file(text)[0]
    >>> board.number, board.dealer, board.vulnerable, board.hands[3][0].code
    (9, 'N', 'EW', 'AH')
    """
    contents = read_lin_records(text, source=source)
    if contents.skipped:
        first = contents.skipped[0]
        raise FileFormatError(f"{source} line {first.line}: {first.reason}")
    return contents.boards()
