"""Duplimate ``.dup`` files for dealing machines (156 bytes per board).

The layout follows Duplimate's published conversion notes:

* bytes 1–78, the "BRI" part: North's, East's and South's 13 cards as
  two-digit numbers, ``01`` = spade ace … ``13`` = spade two, ``14`` = heart
  ace … ``52`` = club two (West holds the rest); croupier writes each hand in
  ascending card number;
* bytes 79–146, the "DGE" part: the four hands N, E, S, W sorted, 17 bytes
  each — for every suit a suit-symbol byte followed by its ranks
  (``AKQJT98765432``);
* bytes 147–156: ``Y``/``N`` "random hands?", ``Y``/``N`` "backwards
  counting", the lowest board number (3 bytes), copies of each board (2 bytes)
  and the highest board number (3 bytes), numbers left-aligned and padded
  with spaces — ``YN1  1 32 `` for a set of boards 1–32.

The boards of a file are consecutive, starting at the lowest board number.
Which byte stands for each suit symbol is not stated in the notes; croupier
writes the IBM PC (code page 437) glyph codes ``♠ 06``, ``♥ 03``, ``♦ 04``,
``♣ 05`` and reads any byte there.  ``docs/file-formats.md`` lists what is
verified.

>>> from croupier.ranking.bigdeal import goedel_unrank
>>> from croupier.boards import Board, consecutive_numbers
>>> data = format_dup_file([Board.standard(1, goedel_unrank(0))])
>>> len(data), data[:6], data[-10:]
(156, b'010203', b'YN1  1 1  ')
>>> parse_dup_file(data)[0].hands == Board.standard(1, goedel_unrank(0)).hands
True
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier.boards import Board, consecutive_numbers
from croupier.cards import BRIDGE_RANK_LETTERS, Card
from croupier.errors import FileFormatError
from croupier.formats.pbn_deal import format_pbn_hand
from croupier.formats.records import BoardFileContents, BoardRecord
from croupier.ranking.bigdeal import BIGDEAL_CARD_ORDER, bigdeal_card_index

__all__ = [
    "DUP_RECORD_BYTES",
    "DUP_SUIT_BYTES",
    "format_dup_file",
    "parse_dup_file",
    "read_dup_records",
]

#: Size of one board's record.
DUP_RECORD_BYTES = 156
#: The bytes written before spades, hearts, diamonds and clubs in the DGE part.
DUP_SUIT_BYTES = b"\x06\x03\x04\x05"


def _bri_hand(cards: Sequence[Card]) -> bytes:
    numbers = sorted(bigdeal_card_index(c) + 1 for c in cards)
    return "".join(f"{n:02d}" for n in numbers).encode("ascii")


def _dge_hand(cards: Sequence[Card]) -> bytes:
    suits = format_pbn_hand(cards).split(".")
    out = b""
    for symbol, ranks in zip(DUP_SUIT_BYTES, suits, strict=True):
        out += bytes([symbol]) + ranks.encode("ascii")
    return out


def format_dup_file(
    boards: Sequence[Board], *, random_hands: bool = True, copies: int = 1
) -> bytes:
    """The ``.dup`` bytes of consecutive ``boards`` (no separators between records).

    >>> from croupier.ranking.bigdeal import goedel_unrank
    >>> data = format_dup_file([Board.standard(n, goedel_unrank(n)) for n in (17, 18)])
    >>> len(data), data[146:156]
    (312, b'YN17 1 18 ')
    """
    low, high = consecutive_numbers(boards, "DUP")
    if not 1 <= copies <= 99:
        raise FileFormatError(f"copies {copies} out of range; expected 1..99")
    trailer = (
        ("Y" if random_hands else "N")
        + "N"
        + str(low).ljust(3)
        + str(copies).ljust(2)
        + str(high).ljust(3)
    ).encode("ascii")
    out = bytearray()
    for board in boards:
        if any(len(h) != 13 for h in board.hands):
            raise FileFormatError(f"board {board.number}: DUP needs four 13-card hands")
        record = b"".join(_bri_hand(h) for h in board.hands[:3])
        record += b"".join(_dge_hand(h) for h in board.hands)
        out += record + trailer
    return bytes(out)


def parse_dup_file(data: bytes, *, source: str = "<dup>") -> list[Board]:
    """The boards of a ``.dup`` file, read from the BRI part and checked against DGE.

    >>> parse_dup_file(b"12345")
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: <dup>: 5 bytes is not a whole number of 156-byte DUP records
    """
    if not data or len(data) % DUP_RECORD_BYTES:
        raise FileFormatError(
            f"{source}: {len(data)} bytes is not a whole number of {DUP_RECORD_BYTES}-byte "
            "DUP records"
        )
    boards: list[Board] = []
    for i in range(0, len(data), DUP_RECORD_BYTES):
        record = data[i : i + DUP_RECORD_BYTES]
        where = f"{source} record {i // DUP_RECORD_BYTES + 1}"
        bri = record[:78].decode("ascii", "replace")
        if not bri.isdigit():
            raise FileFormatError(f"{where}: the BRI part must be 78 digits, got {bri!r}")
        numbers = [int(bri[j : j + 2]) for j in range(0, 78, 2)]
        if sorted(numbers) != sorted(set(numbers)) or not all(1 <= n <= 52 for n in numbers):
            raise FileFormatError(f"{where}: BRI card numbers must be 39 distinct values 01..52")
        hands = [
            [BIGDEAL_CARD_ORDER[n - 1] for n in numbers[k * 13 : (k + 1) * 13]] for k in range(3)
        ]
        taken = set(numbers)
        hands.append([BIGDEAL_CARD_ORDER[n - 1] for n in range(1, 53) if n not in taken])
        dge = record[78:146]
        for k, (seat, hand) in enumerate(zip("NESW", hands, strict=True)):
            written = _dge_ranks(dge[17 * k : 17 * (k + 1)], where)
            if written != format_pbn_hand(hand):
                raise FileFormatError(
                    f"{where}: the DGE part disagrees with the BRI part for {seat}"
                )
        trailer = record[146:].decode("ascii", "replace")
        low_text = trailer[2:5].strip()
        if not (low_text.isascii() and low_text.isdigit()):
            raise FileFormatError(f"{where}: bad lowest board {trailer[2:5]!r} in {trailer!r}")
        number = int(low_text) + i // DUP_RECORD_BYTES
        n, e, s, w = hands
        boards.append(Board.standard(number, (tuple(n), tuple(e), tuple(s), tuple(w))))
    return boards


def _dge_ranks(chunk: bytes, where: str) -> str:
    """The ``S.H.D.C`` ranks of one 17-byte DGE hand (any byte other than a rank is a suit mark)."""
    text = "".join(chr(b) if chr(b) in BRIDGE_RANK_LETTERS else "|" for b in chunk)
    if text.count("|") != 4 or not text.startswith("|"):
        raise FileFormatError(
            f"{where}: a DGE hand must hold 4 suit symbols and 13 ranks, got {chunk!r}"
        )
    return ".".join(text[1:].split("|"))


def read_dup_records(
    data: bytes, *, source: str = "<dup>", partial: bool = False
) -> BoardFileContents:
    """The records of a DUP file and the games skipped (see :mod:`croupier.formats.records`).

    >>> read_dup_records(b"").records
    []
    """
    del partial  # every DUP board is a whole deal
    boards = parse_dup_file(data, source=source) if data else []
    records = [BoardRecord.from_board(b, game=i + 1) for i, b in enumerate(boards)]
    return BoardFileContents(records, [], source)
