"""PBN 2.1 files of boards: export (as Big Deal writes them) and import.

An export file starts ``% PBN 2.1``, ``% EXPORT``, ``%`` and a ``Generator``
tag; every board then has the mandatory tags in PBN's order, ``?`` where the
value is unknown, and a blank line::

    [Event "?"] [Site "?"] [Date "?"] [Board "5"] [West "?"] [North "?"]
    [East "?"] [South "?"] [Dealer "N"] [Vulnerable "NS"]
    [Deal "N:<N> <E> <S> <W>"] [Scoring "?"] [Declarer "?"] [Contract "?"]
    [Result "?"]

(one tag per line).  Apart from the ``Generator`` value, this is byte for byte
what Big Deal 2.0 writes, so files can be compared with its output.

Import reads any PBN file: tag pairs (one or more per line), ``%``
directives, ``;`` and ``{…}`` comments, and skips auction and play sections.
A game is a run of tags ended by a blank line (or by a tag the game already
has, for files that leave the blank lines out); every game with a ``Deal``
tag becomes a :class:`~croupier.boards.Board`.

>>> from croupier.boards import Board
>>> from croupier.formats.pbn_deal import parse_pbn_deal
>>> hands = parse_pbn_deal("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. -")
>>> text = format_pbn_file([Board.standard(3, hands)], generator="croupier")
>>> print(text.splitlines()[3], text.splitlines()[12], sep="\\n")
[Generator "croupier"]
[Dealer "S"]
>>> parse_pbn_file(text)[0].vulnerable
'EW'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from croupier.boards import (
    Board,
    BoardRangeError,
    Seat,
    Vulnerability,
    dealer,
    is_seat,
    parse_board_number,
    vulnerability,
)
from croupier.errors import CroupierError, FileFormatError, excerpt
from croupier.formats.pbn_deal import format_pbn_deal, parse_pbn_deal
from croupier.formats.records import BoardFileContents, BoardRecord

__all__ = [
    "PbnGame",
    "format_pbn_file",
    "parse_pbn_file",
    "parse_pbn_games",
    "pbn_escape",
    "read_pbn_records",
]

_TAG_RE = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')

_VUL_WORDS: dict[str, Vulnerability] = {
    "none": "None",
    "love": "None",
    "-": "None",
    "ns": "NS",
    "ew": "EW",
    "all": "All",
    "both": "All",
}


def pbn_escape(value: str) -> str:
    r"""Escape a tag value for PBN: ``\`` becomes ``\\`` and ``"`` becomes ``\"``.

    >>> pbn_escape('say "hi"')
    'say \\"hi\\"'
    """
    if "\n" in value or "\r" in value:
        raise FileFormatError(f"PBN tag value {excerpt(value)} must be one line")
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def format_pbn_file(
    boards: Sequence[Board],
    *,
    generator: str = "croupier",
    event: str = "?",
    site: str = "?",
    date: str = "?",
) -> str:
    """A PBN 2.1 export file of ``boards`` in Big Deal's layout (LF line ends).

    >>> print(format_pbn_file([], generator="croupier 0.1"), end="")
    % PBN 2.1
    % EXPORT
    %
    [Generator "croupier 0.1"]
    """
    lines = ["% PBN 2.1", "% EXPORT", "%", f'[Generator "{pbn_escape(generator)}"]']
    for board in boards:
        tags = [
            ("Event", event),
            ("Site", site),
            ("Date", date),
            ("Board", str(board.number)),
            ("West", "?"),
            ("North", "?"),
            ("East", "?"),
            ("South", "?"),
            ("Dealer", board.dealer),
            ("Vulnerable", board.vulnerable),
            ("Deal", format_pbn_deal(board.hands, first="N")),
            ("Scoring", "?"),
            ("Declarer", "?"),
            ("Contract", "?"),
            ("Result", "?"),
        ]
        lines.extend(f'[{name} "{pbn_escape(value)}"]' for name, value in tags)
        lines.append("")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class PbnGame:
    """One game of a PBN file: its tags (in file order) and the line it starts on.

    >>> PbnGame({"Board": "1"}, 5).tags["Board"]
    '1'
    """

    tags: dict[str, str] = field(default_factory=dict)
    line: int = 0


def parse_pbn_games(text: str, *, source: str = "<pbn>") -> list[PbnGame]:
    """Split a PBN file into games (tag dictionaries); comments and sections are skipped.

    >>> [g.tags["Board"] for g in parse_pbn_games('[Board "1"]\\n\\n[Board "2"]\\n')]
    ['1', '2']
    """
    games: list[PbnGame] = []
    current: dict[str, str] = {}
    start = 0
    in_comment = False
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r")
        if in_comment:
            if "}" in line:
                in_comment = False
                line = line.split("}", 1)[1]
            else:
                continue
        stripped = line.strip()
        if not stripped:
            if current:
                games.append(PbnGame(current, start))
                current = {}
            continue
        if stripped.startswith("%") or stripped.startswith(";"):
            continue
        # remove {...} comments, possibly opening a multi-line one
        while "{" in line:
            before, after = line.split("{", 1)
            if "}" in after:
                line = before + after.split("}", 1)[1]
            else:
                line = before
                in_comment = True
        if not line.strip().startswith("["):
            continue  # auction, play or other section data
        for m in _TAG_RE.finditer(line):
            if m.group(1) in current:  # a tag appears once per game: this one starts the next
                games.append(PbnGame(current, start))
                current = {}
            if not current:
                start = lineno
            current[m.group(1)] = _unescape(m.group(2))
        if not _TAG_RE.search(line):
            raise FileFormatError(
                f"{source} line {lineno}: malformed tag {excerpt(stripped)}; "
                'expected [Name "value"]'
            )
    if current:
        games.append(PbnGame(current, start))
    return games


def parse_pbn_file(text: str, *, source: str = "<pbn>") -> list[Board]:
    """The boards of a PBN file: every game with a ``Deal`` tag, in file order.

    ``Board`` must be a number; a missing ``Dealer`` or ``Vulnerable`` (or
    ``?``) takes the standard value for the board number.

    >>> parse_pbn_file('[Board "x"]\\n[Deal "N:- - - -"]\\n', source="a.pbn")
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: a.pbn line 1: Board tag 'x' is not a board number
    """
    boards: list[Board] = []
    for game in parse_pbn_games(text, source=source):
        tags = game.tags
        if "Deal" not in tags:
            continue
        where = f"{source} line {game.line}"
        raw_number = tags.get("Board", "").strip()
        try:
            number = parse_board_number(raw_number)
        except BoardRangeError:
            raise FileFormatError(
                f"{where}: Board tag {excerpt(raw_number)} is not a board number"
            ) from None
        try:
            hands = parse_pbn_deal(tags["Deal"])
        except CroupierError as exc:
            raise FileFormatError(f"{where} (board {number}): {exc}") from None
        raw_dealer = tags.get("Dealer", "?").strip().upper()
        seat: Seat
        if raw_dealer in ("", "?"):
            seat = dealer(number)
        elif is_seat(raw_dealer):
            seat = raw_dealer
        else:
            raise FileFormatError(
                f"{where} (board {number}): bad Dealer {excerpt(tags['Dealer'])}; "
                "expected N, E, S or W"
            )
        raw_vul = tags.get("Vulnerable", "?").strip()
        vul: Vulnerability
        if raw_vul in ("", "?"):
            vul = vulnerability(number)
        else:
            found = _VUL_WORDS.get(raw_vul.lower())
            if found is None:
                raise FileFormatError(
                    f"{where} (board {number}): bad Vulnerable {excerpt(raw_vul)}; "
                    "expected None, NS, EW or All"
                )
            vul = found
        n, e, s, w = hands
        boards.append(Board(number, (tuple(n), tuple(e), tuple(s), tuple(w)), seat, vul))
    return boards


def read_pbn_records(
    text: str, *, source: str = "<pbn>", partial: bool = False
) -> BoardFileContents:
    """The records of a PBN file and the games skipped (see :mod:`croupier.formats.records`).

    >>> read_pbn_records("").records
    []
    """
    del partial  # every PBN board is a whole deal
    boards = parse_pbn_file(text, source=source) if text else []
    records = [BoardRecord.from_board(b, game=i + 1) for i, b in enumerate(boards)]
    return BoardFileContents(records, [], source)
