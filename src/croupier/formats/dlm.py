"""Duplimate ``.dlm`` files (the Windows dealing-machine format), text in INI layout.

What croupier writes::

    [Document]
    From Board=1
    To Board=16
    Board 01=jlifaelnecgmoldfjmcflinlap023
    …

Each ``Board NN`` value holds 26 letters and a 3-digit check number:

* the 52 cards in the order ``SA SK … S2 HA … C2`` are taken two at a time;
  a pair whose cards lie with seats ``x`` and ``y`` (``N=0 E=1 S=2 W=3``)
  is the letter ``chr(ord("a") + 4*x + y)``, so ``a`` = both North, ``p`` =
  both West;
* the check number is the XOR of the 26 letter codes and the board number,
  written as 3 decimal digits.

The letter code is established by published decodings; the check number
rule agrees with the published example lines.  The reader checks both: a
board line whose check number does not match its letters is an error naming
the file, line and board (a corrupted line), and when the file has
``From Board``/``To Board`` lines the ``Board NN`` lines must be exactly
those boards, each once (an error names the board missing, extra or
repeated).  See ``docs/file-formats.md``.

>>> from croupier.ranking.bigdeal import goedel_unrank
>>> from croupier.boards import Board, consecutive_numbers
>>> text = format_dlm_file([Board.standard(1, goedel_unrank(0))])
>>> text.splitlines()[3]
'Board 01=aaaaaabffffffkkkkkklpppppp015'
>>> parse_dlm_file(text)[0].hands == Board.standard(1, goedel_unrank(0)).hands
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from croupier.boards import Board, consecutive_numbers
from croupier.cards import Card
from croupier.errors import FileFormatError, bounded_decimal, excerpt
from croupier.formats.records import BoardFileContents, BoardRecord
from croupier.ranking.bigdeal import BIGDEAL_CARD_ORDER, bigdeal_card_index

__all__ = [
    "dlm_board_value",
    "dlm_check_number",
    "format_dlm_file",
    "parse_dlm_file",
    "read_dlm_records",
]


def dlm_check_number(letters: str, board: int) -> int:
    """The check number of a board line: XOR of the letter codes and the board number.

    >>> dlm_check_number("jlifaelnecgmoldfjmcflinlap", 1)
    23
    """
    value = board
    for ch in letters:
        value ^= ord(ch)
    return value


def dlm_board_value(hands: Sequence[Sequence[Card]], board: int) -> str:
    """The ``Board NN=`` value: 26 letters and the 3-digit check number.

    >>> from croupier.ranking.bigdeal import goedel_unrank
    >>> dlm_board_value(goedel_unrank(0), 2)
    'aaaaaabffffffkkkkkklpppppp012'
    """
    seat_of = [0] * 52
    seen = 0
    for seat, hand in enumerate(hands):
        for card in hand:
            seat_of[bigdeal_card_index(card)] = seat
            seen += 1
    if len(hands) != 4 or seen != 52 or any(len(h) != 13 for h in hands):
        raise FileFormatError(f"board {board}: a DLM board needs four 13-card hands")
    letters = "".join(chr(97 + 4 * seat_of[i] + seat_of[i + 1]) for i in range(0, 52, 2))
    return f"{letters}{dlm_check_number(letters, board):03d}"


def format_dlm_file(boards: Sequence[Board]) -> str:
    """The ``.dlm`` text for consecutive ``boards`` (CRLF line ends, as INI files use).

    >>> from croupier.ranking.bigdeal import goedel_unrank
    >>> format_dlm_file([Board.standard(5, goedel_unrank(0))]).splitlines()[:3]
    ['[Document]', 'From Board=5', 'To Board=5']
    """
    low, high = consecutive_numbers(boards, "DLM")
    lines = ["[Document]", f"From Board={low}", f"To Board={high}"]
    lines += [f"Board {b.number:02d}={dlm_board_value(b.hands, b.number)}" for b in boards]
    return "\r\n".join(lines) + "\r\n"


_BOARD_RE = re.compile(r"^Board\s+([0-9]{1,6})\s*=\s*([a-p]{26})([0-9]{3})\s*$", re.IGNORECASE)
_RANGE_KEYS = {"from board": "From Board", "to board": "To Board"}


def _board_line(line: str, lineno: int, source: str) -> Board:
    m = _BOARD_RE.match(line)
    if m is None:
        raise FileFormatError(
            f"{source} line {lineno}: bad board line {excerpt(line)}; expected 'Board NN=' "
            "followed by 26 letters a-p and 3 digits"
        )
    number, letters, check = int(m.group(1)), m.group(2).lower(), int(m.group(3))
    hands: list[list[Card]] = [[], [], [], []]
    for i, ch in enumerate(letters):
        code = ord(ch) - 97
        hands[code // 4].append(BIGDEAL_CARD_ORDER[2 * i])
        hands[code % 4].append(BIGDEAL_CARD_ORDER[2 * i + 1])
    if any(len(h) != 13 for h in hands):
        raise FileFormatError(
            f"{source} line {lineno}: board {number} does not give 13 cards to each hand"
        )
    n, e, s, w = hands
    board = Board.standard(number, (tuple(n), tuple(e), tuple(s), tuple(w)))
    expected = dlm_check_number(letters, number)
    if check != expected:
        raise FileFormatError(
            f"{source} line {lineno}: board {number} has check number {check:03d}, but its "
            f"letters give {expected:03d}; the line is corrupted"
        )
    return board


def _range_value(key: str, value: str, lineno: int, source: str) -> int:
    number = bounded_decimal(value.strip(), 3)
    if number is None or number < 1:
        raise FileFormatError(
            f"{source} line {lineno}: bad {key} value {excerpt(value.strip())}; expected a "
            "board number 1..999"
        )
    return number


def _check_range(boards: list[Board], declared: dict[str, int], source: str) -> None:
    """The ``Board NN`` lines must be exactly ``From Board``..``To Board``, each once."""
    if not declared:
        return
    if len(declared) != 2:
        (have,) = declared
        other = "To Board" if have == "From Board" else "From Board"
        raise FileFormatError(f"{source}: has a {have} line but no {other} line")
    low, high = declared["From Board"], declared["To Board"]
    if low > high:
        raise FileFormatError(f"{source}: From Board={low} is after To Board={high}")
    numbers = [b.number for b in boards]
    present = set(numbers)
    for number in range(low, high + 1):
        if number not in present:
            raise FileFormatError(
                f"{source}: board {number} is missing (From Board={low}, To Board={high})"
            )
    for number in numbers:
        if not low <= number <= high:
            raise FileFormatError(
                f"{source}: board {number} is outside From Board={low}..To Board={high}"
            )
    seen: set[int] = set()
    for number in numbers:
        if number in seen:
            raise FileFormatError(f"{source}: board {number} appears twice")
        seen.add(number)


def parse_dlm_file(text: str, *, source: str = "<dlm>") -> list[Board]:
    """The boards of a ``.dlm`` file (``Board NN=`` lines of the ``[Document]`` section).

    Each board's check number must match its letters; ``From Board`` and
    ``To Board``, when present, must name exactly the boards present.

    >>> board = parse_dlm_file("[Document]\\nBoard 02=jlifaelnecgmoldfjmcflinlap020\\n")[0]
    >>> board.number, board.dealer
    (2, 'E')
    >>> parse_dlm_file("[Document]\\nBoard 02=jlifaelnecgmoldfjmcflinlap021\\n", source="s.dlm")
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: s.dlm line 2: board 2 has check number 021, but its ...
    >>> head = "[Document]\\nFrom Board=1\\nTo Board=2\\n"
    >>> parse_dlm_file(head + "Board 01=jlifaelnecgmoldfjmcflinlap023")
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: <dlm>: board 2 is missing (From Board=1, To Board=2)
    """
    boards: list[Board] = []
    declared: dict[str, int] = {}
    section = ""
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip().lower()
            continue
        if section != "document":
            continue
        key, sep, value = line.partition("=")
        range_key = _RANGE_KEYS.get(" ".join(key.lower().split())) if sep else None
        if range_key is not None:
            if range_key in declared:
                raise FileFormatError(f"{source} line {lineno}: a second {range_key} line")
            declared[range_key] = _range_value(range_key, value, lineno, source)
        elif line.lower().startswith("board "):
            boards.append(_board_line(line, lineno, source))
    if not boards:
        raise FileFormatError(f"{source}: no 'Board NN=' lines in a [Document] section")
    _check_range(boards, declared, source)
    return boards


def read_dlm_records(
    text: str, *, source: str = "<dlm>", partial: bool = False
) -> BoardFileContents:
    """The records of a DLM file and the games skipped (see :mod:`croupier.formats.records`).

    >>> read_dlm_records("").records
    []
    """
    del partial  # every DLM board is a whole deal
    boards = parse_dlm_file(text, source=source) if text else []
    records = [BoardRecord.from_board(b, game=i + 1) for i, b in enumerate(boards)]
    return BoardFileContents(records, [], source)
