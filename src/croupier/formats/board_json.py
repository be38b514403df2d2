"""Boards as JSON: the board objects the commands print, and the JSON board file.

The JSON board file (``croupier convert --to json``, :func:`format_json_records`,
:func:`read_json_records`) is::

    {"boards": [{"board": 1, "dealer": "N", "vulnerable": "None",
                 "deal": "N:AKQ.JT9.876.5432 ..."}, ...],
     "skipped": [{"game": 2, "line": 9, "reason": "..."}]}

``board``, ``dealer`` and ``vulnerable`` are ``null`` where the source did not
say; ``deal`` always starts from North, ``-`` standing for an unknown hand;
``skipped`` lists the games of the source that could not be read.  Reading
takes any JSON object with a ``boards`` list, or whose ``result`` is one (other
keys, and other keys of a board object, are ignored, so the ``--json`` output of
``croupier bigdeal``, the envelope of docs/json.md, reads too); a board object
whose values have the wrong type or spelling is a skipped game.

The board object the tournament commands print with ``--json``
(:func:`board_to_dict`) has more keys:

==============  ==============================================================
``board``       the board number (1..999)
``dealer``      ``N``, ``E``, ``S`` or ``W``
``vulnerable``  ``None``, ``NS``, ``EW`` or ``All`` (as PBN spells them)
``deal``        the PBN ``Deal`` string, hands N E S W, e.g. ``N:AKQ.…``
``hands``       ``{"N": [codes], "E": …, "S": …, "W": …}``, spades first, ace high
``goedel``      the deal's Big Deal (Gödel) number as a decimal **string**
                (it exceeds 2**53), or ``null`` when the board was read from a file
==============  ==============================================================

>>> from croupier.boards import Board
>>> from croupier.ranking.bigdeal import goedel_unrank
>>> obj = board_to_dict(Board.standard(2, goedel_unrank(0), goedel=0))
>>> obj["board"], obj["dealer"], obj["vulnerable"], obj["goedel"], obj["hands"]["N"][:2]
(2, 'E', 'NS', '0', ['AS', 'KS'])
>>> text = format_json_records([BoardRecord.from_board(Board.standard(2, goedel_unrank(0)))])
>>> read_json_records(text).records[0].vulnerable
<Vulnerability.NS: 'NS'>
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from croupier.boards import MAX_BOARD, Board
from croupier.cards import Card
from croupier.errors import CroupierError, FileFormatError, masked_excerpt
from croupier.formats.board_csv import parse_record_deal
from croupier.formats.codec import BoardFileCodec
from croupier.formats.records import (
    BoardFileContents,
    BoardRecord,
    SkippedGame,
    board_object,
    check_games,
    sorted_record,
)
from croupier.seats import SEATS, Seat, Vulnerability

__all__ = ["MAX_JSON_CONTAINERS", "board_to_dict", "format_json_records", "read_json_records"]

_SPACE = re.compile(r"[ \t\n\r]*")
_MAX_INT_DIGITS = 40
#: The most arrays and objects (``[`` and ``{``) a JSON board file may hold: 100,000 boards of
#: ``croupier bigdeal --json`` have 600,000.  Python's own ``json`` takes up to 80 bytes for
#: each (a file of ``[[]],[[]],...`` costs 32 times its size), so this bounds that memory.
MAX_JSON_CONTAINERS = 1_000_000


class _LongNumber(str):
    """A JSON integer too long to be anything croupier reads (kept as its text)."""


def _bounded_int(text: str) -> int | _LongNumber:
    """A JSON integer; past 40 digits its text (Python refuses to convert thousands of digits)."""
    return int(text) if len(text) <= _MAX_INT_DIGITS else _LongNumber(text)


_DECODER = json.JSONDecoder(parse_int=_bounded_int)


def board_to_dict(board: Board) -> dict[str, Any]:
    """The JSON object of one board (see the module docstring for the keys).

    >>> from croupier.boards import Board
    >>> from croupier.ranking.bigdeal import goedel_unrank
    >>> board_to_dict(Board.standard(1, goedel_unrank(5)))["goedel"] is None
    True
    """
    return {
        **board_object(board.number, board.dealer, board.vulnerable, board.hands),
        "goedel": None if board.goedel is None else str(board.goedel),
    }


def format_json_records(records: Sequence[BoardRecord], skipped: Sequence[SkippedGame] = ()) -> str:
    """The JSON board file of ``records`` and ``skipped`` games (indented, one final newline).

    >>> from croupier.ranking.bigdeal import goedel_unrank
    >>> text = format_json_records([BoardRecord(goedel_unrank(0))])
    >>> print(text[:177])
    {
      "boards": [
        {
          "board": null,
          "dealer": null,
          "vulnerable": null,
          "deal": "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432",
    >>> json.loads(text)["boards"][0]["hands"]["E"][:3], text.endswith("}\\n")
    (['AH', 'KH', 'QH'], True)
    """
    contents = BoardFileContents(list(records), list(skipped))
    return json.dumps(contents.to_dict(), indent=2, ensure_ascii=False) + "\n"


def read_json_records(
    text: str, *, source: str = "<json>", partial: bool = False
) -> BoardFileContents:
    """Board records from a JSON board file (see the module docstring).

    Each element of ``boards`` is checked: ``deal`` a deal string (from any
    seat), ``board`` an integer 1..999 or null, ``dealer`` one of ``N E S W``
    or null, ``vulnerable`` one of ``None NS EW All`` or null (a missing key
    is null).  A bad element is a skipped game (``game`` its position from 1,
    ``line`` the line it starts on); so is a partial deal unless ``partial``.
    The file's own ``skipped`` list is not read back.  Text that is not JSON,
    or not an object with a ``boards`` list (itself or as its ``result``, the
    JSON envelope of a croupier command), is an error; an empty text is no
    records.

    >>> read_json_records('{"boards": [{"deal": "N:- - - -", "board": 0}]}').skipped[0].reason
    'board 0 is not a board number 1..999'
    >>> envelope = '{"command": "boards make",\\n "result": {"boards": [\\n{"deal": "N:- - - -"}]}}'
    >>> read_json_records(envelope, partial=True).records[0].line
    3
    """
    if not text.strip():
        return BoardFileContents([], [], source)
    containers = text.count("[") + text.count("{")  # an upper bound (brackets in strings count)
    if containers > MAX_JSON_CONTAINERS:
        raise FileFormatError(
            f"{source}: not a JSON board file croupier reads: {containers:,} '[' and '{{' "
            f"(at most {MAX_JSON_CONTAINERS:,}: every array and object takes memory)"
        )
    try:
        document, end = _DECODER.raw_decode(text, _SPACE.match(text).end())  # type: ignore[union-attr]
        if text[end:].strip():
            raise json.JSONDecodeError("Extra data", text, end)
    except json.JSONDecodeError as exc:
        raise FileFormatError(
            f"{source} line {exc.lineno} column {exc.colno}: not a JSON board file: {exc.msg}"
        ) from None
    except RecursionError:
        raise FileFormatError(f"{source}: not a JSON board file: nested too deeply") from None
    boards = document.get("boards") if isinstance(document, dict) else None
    in_result = False
    if boards is None and isinstance(document, dict) and isinstance(document.get("result"), dict):
        boards, in_result = document["result"].get("boards"), True  # a croupier --json envelope
    if not isinstance(boards, list):
        raise FileFormatError(
            f'{source}: not a JSON board file: expected an object with a "boards" list, '
            'like {"boards": [{"board": 1, "deal": "N:..."}]}'
        )
    check_games(len(boards), source)
    del document  # the other values go now: _element_lines decodes them again, one at a time
    lines = _element_lines(text, "result" if in_result else None)
    records: list[BoardRecord] = []
    skipped: list[SkippedGame] = []
    for index, element in enumerate(boards):
        game = index + 1
        line = lines[index] if index < len(lines) else 0
        try:
            records.append(_json_record(element, game, line, partial))
        except CroupierError as exc:
            skipped.append(SkippedGame(game, line, str(exc)))
    return BoardFileContents(records, skipped, source)


def _json_record(element: object, game: int, line: int, partial: bool) -> BoardRecord:
    if not isinstance(element, dict):
        raise FileFormatError(
            f'a board is a JSON object with a "deal" string, got {_shown(element)}'
        )
    deal = element.get("deal")
    if not isinstance(deal, str):
        raise FileFormatError(
            f'"deal" is a deal string like "N:AKQ.JT9.876.5432 ...", got {_shown(deal)}'
        )
    number = element.get("board")
    if number is not None and (
        isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= MAX_BOARD
    ):
        raise FileFormatError(f"board {_shown(number)} is not a board number 1..{MAX_BOARD}")
    dealer = element.get("dealer")
    seat = None
    if dealer is not None:
        seat = _SEAT_OF.get(dealer) if isinstance(dealer, str) else None
        if seat is None:
            raise FileFormatError(f'dealer {_shown(dealer)} is not one of "N", "E", "S", "W", null')
    vulnerable = element.get("vulnerable")
    vul = None
    if vulnerable is not None:
        vul = _VULNERABILITY_OF.get(vulnerable) if isinstance(vulnerable, str) else None
        if vul is None:
            raise FileFormatError(
                f'vulnerable {_shown(vulnerable)} is not one of "None", "NS", "EW", "All", null'
            )
    hands = parse_record_deal(deal, partial=partial)
    if "hands" in element:  # (written since the one board object: it must say what deal says)
        _check_hands(element["hands"], hands)
    return sorted_record(hands, number, seat, vul, game, line)


def _check_hands(given: object, hands: Sequence[Sequence[Card]]) -> None:
    """Refuse a board's ``hands`` that is not the seats' cards of its ``deal``."""
    want = {s.letter: sorted(c.code for c in hand) for s, hand in zip(SEATS, hands, strict=True)}
    if not isinstance(given, dict) or set(given) != set(want):
        raise FileFormatError(
            f'"hands" is an object of the seats N, E, S, W and their cards, got {_shown(given)}'
        )
    for seat, cards in want.items():
        listed = given[seat]
        if not isinstance(listed, list) or not all(isinstance(c, str) for c in listed):
            raise FileFormatError(f'"hands" of {seat} is a list of cards, got {_shown(listed)}')
        if sorted(c.upper() for c in listed) != cards:
            raise FileFormatError(f'"hands" of {seat} is not the hand "deal" gives it')


# The dealers and vulnerabilities a JSON board file spells (is_seat, is_vulnerability).
_SEAT_OF = {str(seat.value): seat for seat in Seat}
_VULNERABILITY_OF = {str(v.value): v for v in Vulnerability}


def _shown(value: object) -> str:
    """A JSON value for an error message, quoted short."""
    if isinstance(value, _LongNumber):
        return masked_excerpt(str(value))
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):  # pragma: no cover - values came from JSON
        text = repr(value)
    shown = masked_excerpt(text)
    return text if len(text) <= 40 and shown == repr(text) else shown


def _element_lines(text: str, inside: str | None = None) -> list[int]:
    """The line on which each element of the top-level ``boards`` list starts (``inside``:
    of the ``boards`` list of the top-level object's key ``inside``).

    Called on text that :func:`json.loads` accepted, so only the objects on the
    way and the ``boards`` list are walked here; the stdlib decoder skips
    every value in between.  With a repeated key the last counts, as in
    :func:`json.loads`.

    >>> _element_lines('{"x": [1],\\n "boards": [\\n{}, {},\\n{}]}')
    [3, 3, 4]
    >>> _element_lines('{"result": {"boards": [{},\\n{}]}}', "result")
    [1, 2]
    """
    decoder = _DECODER
    counted_to, line = 0, 1

    def skip(pos: int) -> int:
        match = _SPACE.match(text, pos)
        return match.end() if match else pos

    def line_at(pos: int) -> int:
        nonlocal counted_to, line
        line += text.count("\n", counted_to, pos)
        counted_to = pos
        return line

    def walk(pos: int, inside: str | None) -> tuple[list[int], int]:
        """The lines of the object at ``pos`` (see above), and the position after it."""
        found: list[int] = []
        pos = skip(pos) + 1  # past "{"
        while True:
            pos = skip(pos)
            if text[pos] == "}":
                return found, pos + 1
            if text[pos] == ",":
                pos = skip(pos + 1)
            key, pos = decoder.raw_decode(text, pos)
            pos = skip(skip(pos) + 1)  # past ":"
            if inside is not None and key == inside and text[pos] == "{":
                found, pos = walk(pos, None)
            elif inside is None and key == "boards" and text[pos] == "[":
                found = []
                pos = skip(pos + 1)
                while text[pos] != "]":
                    if text[pos] == ",":
                        pos = skip(pos + 1)
                    found.append(line_at(pos))
                    _, pos = decoder.raw_decode(text, pos)
                    pos = skip(pos)
                pos += 1
            else:
                _, pos = decoder.raw_decode(text, pos)

    return walk(0, inside)[0]


BOARD_FILE = BoardFileCodec(
    read_boards=lambda text, *, source, first_board: (
        read_json_records(text, source=source).require_all().boards(first_board)
    ),
    read_records=read_json_records,
    render_boards=lambda boards, o: format_json_records(
        [BoardRecord.from_board(b) for b in boards]
    ).encode("utf-8"),
    render_records=lambda records, o: format_json_records(records, o.skipped).encode("utf-8"),
)
"""JSON board files (:mod:`croupier.formats.registry`); the games a reader skipped are
written too."""
