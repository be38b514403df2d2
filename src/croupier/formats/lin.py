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

from croupier._core.deal_text import whole_md
from croupier.boards import MAX_BOARD, Board, BoardRangeError, Hands, dealer, parse_board_number
from croupier.cards import BRIDGE_DECK, BRIDGE_RANK_LETTERS, BRIDGE_SUIT_LETTERS, Card
from croupier.errors import FileFormatError, masked_excerpt
from croupier.formats.codec import BoardFileCodec
from croupier.formats.pbn_deal import format_pbn_hand, holdings_deal, plain_hand, suit_cards
from croupier.formats.records import (
    BoardFileContents,
    BoardRecord,
    SkippedGame,
    check_games,
    sorted_hands,
    sorted_record,
)
from croupier.ranking.bigdeal import BIGDEAL_CARD_ORDER
from croupier.seats import Seat, Vulnerability

__all__ = [
    "LIN_SEATS",
    "format_lin_board",
    "format_lin_file",
    "format_lin_records",
    "lin_dealer_digit",
    "parse_lin_file",
    "read_lin_records",
]

LIN_SEATS: tuple[Seat, ...] = Seat.SOUTH.clockwise()
"""The seats of the hands of an ``md`` value, in order: South, West, North, East."""

_ROOMS = {"o": "open", "c": "closed"}
_TAG = re.compile(r"[A-Za-z]{2}")
_QX = re.compile(r"\s*([A-Za-z]?)\s*([0-9]*)")
_DIGITS = re.compile(r"[0-9]+")
# Tags that start a new board once the current one holds a deal.
_OPENERS = {"md", "pn", "st"}


def lin_dealer_digit(seat: Seat | str) -> str:
    """The dealer digit of an ``md`` value: ``1`` South, ``2`` West, ``3`` North, ``4`` East.

    >>> lin_dealer_digit("N"), [lin_dealer_digit(s) for s in LIN_SEATS]
    ('3', ['1', '2', '3', '4'])
    """
    return str(LIN_SEATS.index(Seat.parse(seat)) + 1)


def _lin_hand(cards: Sequence[Card]) -> str:
    """A hand as LIN writes it, ``S…H…D…C…`` (empty for an unknown hand)."""
    if not cards:
        return ""
    holdings = format_pbn_hand(cards).split(".")
    return "".join(suit + ranks for suit, ranks in zip(BRIDGE_SUIT_LETTERS, holdings, strict=True))


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
    digit = "" if seat is None else lin_dealer_digit(seat)
    hands = ",".join(_lin_hand(record.hands[s.position]) for s in LIN_SEATS)
    number = "" if record.number is None else str(record.number)
    room = {"open": "o", "closed": "c"}.get(record.room or "")
    head = f"qx|{room}{number}|" if room else ""
    label = f"ah|Board {number}|" if number else ""
    vul = "" if record.vulnerable is None else f"sv|{record.vulnerable.lin}|"
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


@dataclass
class _Board:
    """The pairs of one board as read: first line and the values that matter."""

    line: int
    values: dict[str, tuple[str, int]] = field(default_factory=dict)


# The tags whose values are read; any other pair only has to be there.
_READ = frozenset(("md", "ah", "qx", "sv"))

# Runs of pairs that change nothing are passed over by one match of a regular expression (no
# Python step for each of a million tiny pairs).  A pair: free-text lines, then the tag and
# its bar, then a value closed by a bar; a value over line breaks is closed by a bar, or ends
# at its first line break when its last line starts a pair (as in _Reader._broken).
_WS = r"[^\S\n]*+"
_PAIR_LINE = rf"{_WS}[A-Za-z]{{2}}{_WS}\|"  # a line that starts with a pair (_TAG, stripped)


def _skip_re(tags: str) -> re.Pattern[str]:
    """Runs of pairs whose tag is none of ``tags`` (a case-insensitive alternation)."""
    return re.compile(
        rf"""
        (?:
            (?:[^|\n]*+\n)*+
            (?!{_WS}(?i:{tags}){_WS}\|)
            [^|\n]*+\|
            (?:[^|\n]*+\|
              |(?:[^|\n]*+\n)++(?:(?={_PAIR_LINE})|[^|\n]*+\|)
            )
        )*+
        """,
        re.VERBOSE,
    )


# Which pairs matter: before any pair, any two-letter tag; in a board without a deal, md, qx
# and the first ah and sv; in a board with a deal, also pn, st (a new board) and ah, sv.
_SKIP_NO_PAIR = _skip_re("[a-z]{2}")
_SKIP_NO_DEAL = {
    (ah, sv): _skip_re("|".join(("md", "qx", *(["ah"] if ah else []), *(["sv"] if sv else []))))
    for ah in (False, True)
    for sv in (False, True)
}
_SKIP_DEAL = _skip_re("md|qx|ah|sv|pn|st")


class _Reader:
    """Reads the boards of LIN text one by one (:meth:`boards`); ``seen_pair`` tells if any.

    The ``tag|value|`` pairs are found with ``str.find``, and only the values
    of ``md``, ``ah``, ``qx`` and ``sv`` are copied out of the text; a run of
    pairs that change nothing (``pg||``, bids and cards, a repeated label) is
    passed over in one step, and a board is handed on as soon as the next one
    starts.  Line breaks between pairs do not matter.  A line that ends
    without the closing ``|`` ends its value there when the next line starts
    a pair; otherwise the value goes on over the line break (which is
    dropped).  Text before a tag on the same run (a free-text line) is ignored.
    """

    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source
        self.seen_pair = False

    def boards(self) -> Iterator[_Board]:
        """The boards holding an ``md``, in file order."""
        text, size = self.text, len(self.text)
        pos, line, opened = 0, 1, 0
        current: _Board | None = None
        while True:
            if current is None:
                skip = _SKIP_NO_PAIR
            elif "md" in current.values:
                skip = _SKIP_DEAL
            else:
                skip = _SKIP_NO_DEAL["ah" not in current.values, "sv" not in current.values]
            passed = skip.match(text, pos).end()  # type: ignore[union-attr]
            if passed > pos:
                line += text.count("\n", pos, passed)
                pos = passed
            bar = text.find("|", pos)
            if bar < 0:
                break
            newline = text.rfind("\n", pos, bar)
            if newline >= 0:
                line += text.count("\n", pos, newline + 1)
                pos = newline + 1
            tag = text[pos:bar].strip().lower()
            end = text.find("|", bar + 1)
            stop = size if end < 0 else end
            pos = stop + 1
            lines = 0
            if text.find("\n", bar + 1, stop) < 0:
                value = text[bar + 1 : stop] if tag in _READ else ""
            else:
                value, lines, resume = self._broken(bar + 1, end)
                pos = pos if resume is None else resume
            if _TAG.fullmatch(tag):
                self.seen_pair = True
                values = current.values if current is not None else {}
                has_deal = "md" in values
                repeated = has_deal and tag in ("ah", "sv") and tag in values
                if current is None or tag == "qx" or (tag in _OPENERS and has_deal) or repeated:
                    if has_deal and current is not None:
                        yield current
                    opened += 1  # boards without a deal count too: each is one more object
                    check_games(opened, self.source)
                    current = _Board(line)
                    values = current.values
                if tag in _READ and tag not in values:
                    values[tag] = (value, line)
            line += lines
        if current is not None and "md" in current.values:
            yield current

    def _broken(self, start: int, end: int) -> tuple[str, int, int | None]:
        """A value with a line break in it: its text, its line breaks, and where to go on."""
        text = self.text
        value = text[start : len(text) if end < 0 else end]
        last = value.rsplit("\n", 1)[-1]
        lines = value.count("\n")
        if end >= 0 and not _TAG.fullmatch(last.strip()):
            return value.replace("\r", "").replace("\n", ""), lines, None
        # the line ended without its closing bar: the value ends there, a pair follows
        resume = None if end < 0 else end - len(last)
        return value.split("\n", 1)[0].rstrip("\r"), lines, resume


def _lin_hand_cards(text: str, seat: Seat, md: str) -> list[int] | str:
    """The cards (Big Deal indices) of one LIN hand, or the reason it cannot be read."""
    cards: list[int] = []
    suit = -1
    seen_suits: set[int] = set()
    upper = text.strip().upper().replace("10", "T")
    for ch in upper:
        if ch in BRIDGE_SUIT_LETTERS:
            suit = BRIDGE_SUIT_LETTERS.index(ch)
            if suit in seen_suits:
                return f"hand {masked_excerpt(text)} names suit {ch} twice"
            seen_suits.add(suit)
        elif ch in BRIDGE_RANK_LETTERS and suit >= 0:
            if len(cards) == 13:  # stop at once: the hand may be megabytes long
                return (
                    f"{seat} holds more than 13 cards in md {masked_excerpt(md)}; a hand holds 13"
                )
            cards.append(13 * suit + BRIDGE_RANK_LETTERS.index(ch))
        elif not ch.isspace():
            return (
                f"bad LIN hand {masked_excerpt(text)}; expected S…H…D…C… with ranks "
                "AKQJT98765432, like 'SAKQHJT9D87C6543'"
            )
    return cards


def _deal(md: str) -> tuple[Seat | None, list[list[Card]]] | str:
    """Dealer and hands (N, E, S, W; unknown hands empty) of an ``md`` value, or a reason."""
    value = md.strip()
    seat: Seat | None = None
    if value[:1].isdigit():
        if value[0] not in "1234":
            return f"md {masked_excerpt(md)} has dealer digit {value[0]!r}; expected 1-4 (S W N E)"
        seat = LIN_SEATS[int(value[0]) - 1]
        value = value[1:]
    parts = value.split(",", 4)  # never a list of a million pieces
    if len(parts) > 4:
        if parts[4].replace(",", "").strip():
            return f"md {masked_excerpt(md)} holds {value.count(',') + 1} hands; expected at most 4"
        parts = parts[:4]
    hands: list[list[int]] = [[], [], [], []]
    for in_md, part in zip(LIN_SEATS, parts, strict=False):
        cards = _lin_hand_cards(part, in_md, md)
        if isinstance(cards, str):
            return cards
        hands[in_md.position] = cards
    seen = [False] * 52
    for hand in hands:
        for card in hand:
            if seen[card]:
                return (
                    f"card {BIGDEAL_CARD_ORDER[card].code} appears twice in md {masked_excerpt(md)}"
                )
            seen[card] = True
    empty = [i for i, h in enumerate(hands) if not h]
    if len(empty) == 1 and sum(seen) == 39:
        hands[empty[0]] = [c for c in range(52) if not seen[c]]
    return seat, [[BIGDEAL_CARD_ORDER[c] for c in hand] for hand in hands]


_LIN_HAND = re.compile(r"S([AKQJT2-9]*)H([AKQJT2-9]*)D([AKQJT2-9]*)C([AKQJT2-9]*)")
_HAND_PATTERN = _LIN_HAND.pattern
# A dealer digit, then three hands and a comma, then the fourth hand or nothing.
_WHOLE_MD = re.compile(
    rf"([1-4]?){_HAND_PATTERN},{_HAND_PATTERN},{_HAND_PATTERN},(?:{_HAND_PATTERN})?"
)


def _whole_md_reference(md: str) -> tuple[int, Hands] | None:
    """:func:`croupier._core.deal_text.whole_md` in plain Python (its specification): the
    dealer digit (0: none) and hands of an ``md`` of three or four whole hands, or ``None``."""
    whole = _WHOLE_MD.fullmatch(md)
    if whole is None:
        return None
    digit, *ranks = whole.groups()
    hands = holdings_deal(ranks if ranks[12] is not None else ranks[:12], 2)
    if hands is None:
        return None
    n, e, s, w = hands
    return (int(digit) if digit else 0), (n, e, s, w)


def _plain_deal(md: str) -> tuple[Seat | None, Hands] | None:
    """Dealer and hands (sorted) of an ``md`` written the plain way, else ``None``.

    Plain: each hand ``S…H…D…C…`` in upper case, ranks in order, no card twice;
    :func:`_deal` reads any other ``md`` (and gives the same deal for these).

    >>> seat, hands = _plain_deal("3SAKQJT98765432HDC,SHAKQJT98765432DC,SHDAKQJT98765432C,")
    >>> seat, [h[0].code for h in hands]
    (<Seat.NORTH: 'N'>, ['AD', 'AC', 'AS', 'AH'])
    """
    whole = whole_md(md, BRIDGE_DECK)  # (the usual case: three or four whole hands)
    if whole is not None:
        digit, (n, e, s, w) = whole
        return (LIN_SEATS[digit - 1] if digit else None), (n, e, s, w)
    value = md.strip()
    seat: Seat | None = None
    if value[:1].isdigit():
        if value[0] not in "1234":
            return None
        seat = LIN_SEATS[int(value[0]) - 1]
        value = value[1:]
    parts = value.split(",", 4)
    if len(parts) > 4:
        return None
    used = [0, 0, 0, 0]
    hands: list[tuple[Card, ...]] = [(), (), (), ()]
    for in_md, part in zip(LIN_SEATS, parts, strict=False):
        if not part:
            continue
        m = _LIN_HAND.fullmatch(part)
        hand = None if m is None else plain_hand(m.groups(), used)
        if hand is None:
            return None
        hands[in_md.position] = hand
    empty = [i for i, h in enumerate(hands) if not h]
    if len(empty) == 1 and sum(len(h) for h in hands) == 39:
        full = (1 << 13) - 1
        rest: tuple[Card, ...] = ()
        for suit in range(4):
            rest += suit_cards(suit, full ^ used[suit])
        hands[empty[0]] = rest
    n, e, s, w = hands
    return seat, (n, e, s, w)


def _number(ah: str | None, qx: str | None) -> int | str | None:
    """The board number from ``ah`` (else ``qx``), ``None`` if neither gives one, or a reason."""
    for tag, label in (("ah", ah), ("qx", qx)):
        if label is None:
            continue
        found = _DIGITS.search(label) if tag == "ah" else _QX.match(label)
        digits = "" if found is None else found.group() if tag == "ah" else found.group(2)
        if not digits:
            continue
        try:
            return parse_board_number(digits)
        except BoardRangeError:
            return f"board label {masked_excerpt(label)} holds no board number 1..{MAX_BOARD}"
    return None


def _record(board: _Board, game: int, partial: bool) -> BoardRecord | str:
    values = board.values
    md = values["md"][0]
    ah, qx, sv = (values[tag][0] if tag in values else None for tag in ("ah", "qx", "sv"))
    return _values_record(md, ah, qx, sv, game, board.line, partial)


# The board number, vulnerability and room of the (ah, qx, sv) values met so far, or why they
# cannot be read: a file repeats few of them.
_KNOWN_FACTS: dict[
    tuple[str | None, str | None, str | None],
    tuple[int | None, Vulnerability | None, str | None] | str,
] = {}
_MAX_KNOWN_FACTS = 10_000


def _facts(
    ah: str | None, qx: str | None, sv: str | None
) -> tuple[int | None, Vulnerability | None, str | None] | str:
    """The board number, vulnerability and room of a board's values, or the reason (the
    number's first) they cannot be read."""
    number = _number(ah, qx)
    if isinstance(number, str):
        return number
    vul: Vulnerability | None = None
    if sv is not None:
        code = sv.strip().lower()
        if code:
            vul = Vulnerability.from_lin(code)
            if vul is None:
                return f"bad sv {masked_excerpt(code)}; expected o (or 0), n, e or b"
    room = None
    if qx is not None:
        found = _QX.match(qx)
        room = _ROOMS.get(found.group(1).lower()) if found else None
    return number, vul, room


def _values_record(
    md: str, ah: str | None, qx: str | None, sv: str | None, game: int, line: int, partial: bool
) -> BoardRecord | str:
    """The record of a board's ``md``, ``ah``, ``qx`` and ``sv`` values (``None``: not
    given), or the reason it cannot be read."""
    plain = _plain_deal(md)
    if plain is not None:
        seat, hands = plain
    else:
        deal = _deal(md)
        if isinstance(deal, str):
            return deal
        seat, hands = deal[0], sorted_hands(deal[1])
    key = (ah, qx, sv)
    facts = _KNOWN_FACTS.get(key)
    if facts is None:
        facts = _facts(ah, qx, sv)
        if len(_KNOWN_FACTS) < _MAX_KNOWN_FACTS:
            _KNOWN_FACTS[key] = facts
    if isinstance(facts, str):
        return facts
    number, vul, room = facts
    record = sorted_record(hands, number, seat, vul, game, line, room)
    if not partial and not len(hands[0]) == len(hands[1]) == len(hands[2]) == len(hands[3]) == 13:
        known = sum(len(h) for h in hands)  # (no card twice: 52 cards are a whole deal)
        return f"partial deal: md {masked_excerpt(md)} gives {known} of 52 cards"
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
    >>> [(r.number, r.room, str(r.dealer), str(r.vulnerable)) for r in rec]
    [(4, 'open', 'E', 'All'), (4, 'closed', 'E', 'All')]
    >>> read_lin_records("md|3SAK,,,|").skipped[0].reason
    "partial deal: md '3SAK,,,' gives 2 of 52 cards"
    >>> read_lin_records("<html>", source="x.lin")
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: not a LIN file: x.lin holds no 'tag|value|' pairs ...
    """
    plain = _plain_records(text, source, partial)
    if plain is not None:
        return plain
    reader = _Reader(text, source)
    boards: list[_Board] = []
    for game, board in enumerate(reader.boards(), start=1):
        check_games(game, source)  # (all counted before any is read: a file too large is not)
        boards.append(board)
    records: list[BoardRecord] = []
    skipped: list[SkippedGame] = []
    for game, board in enumerate(boards, start=1):
        result = _record(board, game, partial)
        if isinstance(result, str):
            skipped.append(SkippedGame(game, board.line, result))
        else:
            records.append(result)
    if not reader.seen_pair and text.strip():
        raise FileFormatError(
            f"not a LIN file: {source} holds no 'tag|value|' pairs such as 'md|...|' "
            "(two letters, a bar, a value, a bar)"
        )
    return BoardFileContents(records, skipped, source)


# A plain LIN file, as croupier and hand viewers write one: one board a line, its pairs in this
# order (qx, pn, st, md, rh, ah, sv, pg; only md is needed), tags in lower case, no line break
# inside a value.  Each line is one board of the general reader (every line starts a new one:
# it holds a deal, and its first tag is qx, pn, st or md), read the same way.
_PLAIN_BOARD = (
    r"(?:qx\|([^|\n]*)\|)?(?:pn\|[^|\n]*\|)?(?:st\|[^|\n]*\|)?md\|([^|\n]*)\|(?:rh\|[^|\n]*\|)?"
    r"(?:ah\|([^|\n]*)\|)?(?:sv\|([^|\n]*)\|)?(?:pg\|[^|\n]*\|)?"
)
_PLAIN_FILE = re.compile(rf"(?:{_PLAIN_BOARD}\n)*+(?:{_PLAIN_BOARD})?")
_PLAIN_LINE = re.compile(rf"^{_PLAIN_BOARD}$", re.MULTILINE)


def _plain_records(text: str, source: str, partial: bool) -> BoardFileContents | None:
    """The records of a plain LIN file (see above), exactly as the general reader gives
    them, or ``None`` for any other file."""
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        if "\r" in text:
            return None
    if not text or _PLAIN_FILE.fullmatch(text) is None:
        return None
    boards = _PLAIN_LINE.findall(text)
    check_games(len(boards), source)  # (all counted before any is read)
    records: list[BoardRecord] = []
    skipped: list[SkippedGame] = []
    for game, (qx, md, ah, sv) in enumerate(boards, start=1):
        # an empty value reads as a missing one (no number, no vulnerability, no room)
        result = _values_record(md, ah or None, qx or None, sv or None, game, game, partial)
        if isinstance(result, str):
            skipped.append(SkippedGame(game, game, result))
        else:
            records.append(result)
    return BoardFileContents(records, skipped, source)


def parse_lin_file(text: str, *, source: str = "<lin>") -> list[Board]:
    """The boards of a LIN file, strictly: any board that cannot be read is an error.

    A board without a number (no ``ah``, no ``qx``) is numbered by its
    position (1, 2, …).

    >>> text = "md|3SAKQJT98765432HDC,SHAKQJT98765432DC,SHDAKQJT98765432C|ah|Board 9|sv|e|"
    >>> board = parse_lin_file(text)[0]
    >>> board.number, board.dealer, board.vulnerable, board.hands[3][0].code
    (9, <Seat.NORTH: 'N'>, <Vulnerability.EW: 'EW'>, 'AH')
    """
    contents = read_lin_records(text, source=source)
    if contents.skipped:
        first = contents.skipped[0]
        raise FileFormatError(f"{source} line {first.line}: {first.reason}")
    return contents.boards()


BOARD_FILE = BoardFileCodec(
    read_boards=lambda text, *, source, first_board: parse_lin_file(text, source=source),
    read_records=read_lin_records,
    render_boards=lambda boards, o: format_lin_file(boards).encode("utf-8"),
    render_records=lambda records, o: format_lin_records(records).encode("utf-8"),
    latin1=True,
)
"""LIN files as board files (:mod:`croupier.formats.registry`): text, ISO 8859-1 when
not UTF-8 (as old BBO exports are)."""
