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
rule agrees with the published example lines but has not been confirmed by a
dealing machine, so the parser reports but does not require it.  See
``docs/file-formats.md``.

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
from croupier.errors import FileFormatError
from croupier.ranking.bigdeal import BIGDEAL_CARD_ORDER, bigdeal_card_index

__all__ = ["dlm_board_value", "dlm_check_number", "format_dlm_file", "parse_dlm_file"]


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


_BOARD_RE = re.compile(r"^Board\s+([0-9]+)\s*=\s*([a-p]{26})([0-9]{3})?\s*$", re.IGNORECASE)


def parse_dlm_file(text: str, *, source: str = "<dlm>") -> list[Board]:
    """The boards of a ``.dlm`` file (``Board NN=`` lines of the ``[Document]`` section).

    >>> board = parse_dlm_file("[Document]\\nBoard 02=jlifaelnecgmoldfjmcflinlap020\\n")[0]
    >>> board.number, board.dealer
    (2, 'E')
    """
    boards: list[Board] = []
    section = ""
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip().lower()
            continue
        if section != "document" or not line.lower().startswith("board "):
            continue
        m = _BOARD_RE.match(line)
        if m is None:
            raise FileFormatError(
                f"{source} line {lineno}: bad board line {line!r}; expected 'Board NN=' "
                "followed by 26 letters a-p and 3 digits"
            )
        number, letters = int(m.group(1)), m.group(2).lower()
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
        boards.append(Board.standard(number, (tuple(n), tuple(e), tuple(s), tuple(w))))
    if not boards:
        raise FileFormatError(f"{source}: no 'Board NN=' lines in a [Document] section")
    return boards
