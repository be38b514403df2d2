"""Duplimate ``.dup`` files for dealing machines (156 bytes per board).

Each board is one 156-byte record, with no separators:

* bytes 1–78, the "BRI" part: North's, East's and South's 13 cards as
  two-digit numbers, ``01`` = spade ace … ``13`` = spade two, ``14`` = heart
  ace … ``52`` = club two (West holds the rest), in any order; croupier writes
  each hand in ascending card number;
* bytes 79–146, the "DGE" part: the four hands N, E, S, W, 17 bytes each —
  for every suit a suit-symbol byte (``06`` spades, ``03`` hearts, ``04``
  diamonds, ``05`` clubs: the IBM PC glyph codes) followed by its ranks
  (``AKQJT98765432``);
* bytes 147–156, the trailer: ``Y``/``N`` "random hands?", ``Y``/``N``
  "backwards counting", the lowest board number (3 bytes), copies of each
  board (2 bytes) and the highest board number (3 bytes), numbers
  left-aligned and padded with spaces — ``YN1  1 32 `` for boards 1–32.

Other programs write the trailer differently, and the reader takes them all:
Big Deal writes ``YN1  0 NN `` (NN = number of boards) in every record,
deal-convert writes ``YN<first> 0 <count> `` in the first record and ten zero
bytes in the others, and Big Deal's "blind" files put 68 spaces in the DGE
part of board 1.  The reader takes the deal from the BRI part, checks it
against the DGE part when that holds cards, and numbers the boards from the
lowest board number of the first trailer that is not blank.  The other
trailer fields are not used.  ``docs/file-formats.md`` says where each rule
comes from.

>>> from croupier.ranking.bigdeal import goedel_unrank
>>> from croupier.boards import Board, consecutive_numbers
>>> data = format_dup_file([Board.standard(1, goedel_unrank(0))])
>>> len(data), data[:6], data[-10:]
(156, b'010203', b'YN1  1 1  ')
>>> parse_dup_file(data)[0].hands == Board.standard(1, goedel_unrank(0)).hands
True
"""

from __future__ import annotations

import functools
from bisect import bisect_left
from collections.abc import Sequence
from typing import cast

from croupier.boards import MAX_BOARD, Board, consecutive_numbers
from croupier.cards import BRIDGE_RANK_LETTERS, Card
from croupier.errors import FileFormatError, masked_excerpt
from croupier.formats.codec import BoardFileCodec
from croupier.formats.dlm import consecutive_record_numbers, mask_hands
from croupier.formats.pbn_deal import format_pbn_hand
from croupier.formats.records import (
    BoardFileContents,
    BoardRecord,
    SkippedGame,
    check_games,
    sorted_record,
)
from croupier.ranking.bigdeal import BIGDEAL_CARD_ORDER, bigdeal_card_index
from croupier.seats import SEATS

__all__ = [
    "DUP_RECORD_BYTES",
    "DUP_SUIT_BYTES",
    "format_dup_file",
    "format_dup_records",
    "parse_dup_file",
    "read_dup_records",
]

#: Size of one board's record.
DUP_RECORD_BYTES = 156
#: The bytes written before spades, hearts, diamonds and clubs in the DGE part.
DUP_SUIT_BYTES = b"\x06\x03\x04\x05"
_BLANK = b" \x00"


def _bri_hand(cards: Sequence[Card]) -> bytes:
    numbers = sorted(bigdeal_card_index(c) + 1 for c in cards)
    return "".join(f"{n:02d}" for n in numbers).encode("ascii")


def _dge_hand(cards: Sequence[Card]) -> bytes:
    suits = format_pbn_hand(cards).split(".")
    out = b""
    for symbol, ranks in zip(DUP_SUIT_BYTES, suits, strict=True):
        out += bytes([symbol]) + ranks.encode("ascii")
    return out


def _trailer(low: int, high: int, random_hands: bool, copies: int) -> bytes:
    if not 1 <= copies <= 99:
        raise FileFormatError(f"copies {copies} out of range; expected 1..99")
    text = (
        ("Y" if random_hands else "N")
        + "N"
        + str(low).ljust(3)
        + str(copies).ljust(2)
        + str(high).ljust(3)
    )
    return text.encode("ascii")


def _record_bytes(hands: Sequence[Sequence[Card]], trailer: bytes) -> bytes:
    record = b"".join(_bri_hand(h) for h in hands[:3])
    record += b"".join(_dge_hand(h) for h in hands)
    return record + trailer


def format_dup_records(
    records: Sequence[BoardRecord], *, random_hands: bool = True, copies: int = 1
) -> bytes:
    """The ``.dup`` bytes of complete records numbered consecutively upwards.

    Every record carries the full trailer (lowest board, copies, highest
    board).  Anything else is a one-line :class:`~croupier.errors.FileFormatError`.

    >>> from croupier.ranking.bigdeal import goedel_unrank
    >>> data = format_dup_records([BoardRecord(goedel_unrank(0), number=n) for n in (7, 8)])
    >>> data[146:156], data[302:312]
    (b'YN7  1 8  ', b'YN7  1 8  ')
    >>> format_dup_records([BoardRecord(goedel_unrank(0), number=n) for n in (7, 9)])
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: DUP files hold consecutive ascending boards; board 9 ...
    """
    low, high = consecutive_record_numbers(records, "DUP")
    trailer = _trailer(low, high, random_hands, copies)
    return b"".join(_record_bytes(r.hands, trailer) for r in records)


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
    trailer = _trailer(low, high, random_hands, copies)
    out = bytearray()
    for board in boards:
        if any(len(h) != 13 for h in board.hands):
            raise FileFormatError(f"board {board.number}: DUP needs four 13-card hands")
        out += _record_bytes(board.hands, trailer)
    return bytes(out)


# The 39 two-digit card numbers of a BRI part, and the card (0..51) each of "01".."52" names.
_BRI_PAIRS = [slice(j, j + 2) for j in range(0, 78, 2)]
_BRI_NUMBER = {b"%02d" % (n + 1): n for n in range(52)}


def _bri_hands(bri: bytes) -> list[list[int]] | str:
    """The four hands of a BRI part (Big Deal card indices, sorted), or why it cannot be read."""
    if not bri.isdigit():
        return f"the BRI part must be 78 digits, got {masked_excerpt(bri, 20)}"
    numbers = list(map(_BRI_NUMBER.get, map(bri.__getitem__, _BRI_PAIRS)))
    taken = set(numbers)
    if len(taken) != 39 or None in taken:
        return "BRI card numbers must be 39 distinct values 01..52"
    cards = cast(list[int], numbers)  # (no None among them)
    hands = [sorted(cards[k * 13 : (k + 1) * 13]) for k in range(3)]
    hands.append([n for n in range(52) if n not in taken])
    return hands


# Every byte that is not a rank letter becomes "|", a suit mark (what the DGE part compares).
_SUIT_MARKS = bytes(b if chr(b) in BRIDGE_RANK_LETTERS else ord("|") for b in range(256))
_RANK_BYTES = BRIDGE_RANK_LETTERS.encode("ascii")


_RANK_OF_CARD = _RANK_BYTES * 4  # the rank letter of each card 0..51


def _dge_written(hand: list[int]) -> bytes:
    """A hand (sorted indices) as its DGE part reads once suit symbols become "|".

    >>> _dge_written([0, 1, 13, 51])
    b'|AK|A||2'
    """
    ranks = bytes(map(_RANK_OF_CARD.__getitem__, hand))
    h, d, c = bisect_left(hand, 13), bisect_left(hand, 26), bisect_left(hand, 39)
    return b"|" + ranks[:h] + b"|" + ranks[h:d] + b"|" + ranks[d:c] + b"|" + ranks[c:]


def _dge_problem(dge: bytes, hands: list[list[int]]) -> str:
    """Why the DGE part disagrees with the BRI hands ("" when it agrees or holds no cards)."""
    if not dge.strip(_BLANK):
        return ""  # Big Deal's "blind" files leave it blank
    marked = dge.translate(_SUIT_MARKS)
    for k, (seat, hand) in enumerate(zip(SEATS, hands, strict=True)):
        chunk = marked[17 * k : 17 * (k + 1)]
        if chunk.count(b"|") != 4 or not chunk.startswith(b"|"):
            shown = masked_excerpt(dge[17 * k : 17 * (k + 1)])
            return f"a DGE hand must hold 4 suit symbols and 13 ranks, got {shown}"
        if chunk != _dge_written(hand):
            return f"the DGE part disagrees with the BRI part for {seat}"
    return ""


def _lowest_board(data: bytes, count: int) -> tuple[int | None, SkippedGame | None]:
    """The lowest board number from the first trailer that is not blank."""
    for i in range(count):
        trailer = data[i * DUP_RECORD_BYTES + 146 : (i + 1) * DUP_RECORD_BYTES]
        if not trailer.strip(_BLANK):
            continue
        low = trailer[2:5].decode("latin-1").strip()
        if low.isascii() and low.isdigit() and 1 <= int(low) <= MAX_BOARD:
            return int(low), None
        reason = (
            f"bad lowest board {masked_excerpt(trailer[2:5])} in trailer "
            f"{masked_excerpt(trailer)}; board numbers unknown"
        )
        return None, SkippedGame(0, i + 1, reason)
    return None, None


_SUIT = 8191  # the 13 bits of one suit in a 52-bit hand (bit i: card i of Big Deal's order)
_ALL_CARDS = (1 << 52) - 1


@functools.cache
def _plain_tables() -> tuple[list[int], list[bytes]]:
    """The tables of :func:`_plain_masks`, made on the first read.

    The bit of each card number read as a hexadecimal byte (``b"01"`` … ``b"52"`` as
    ``0x01`` … ``0x52``; 0 for any other byte), and the rank letters of each 13-bit suit
    mask (bit ``r``: rank ``r``, ace first) as the DGE part writes them.

    >>> bits, ranks = _plain_tables()
    >>> bits[0x01] == 1 << 0, bits[0x52] == 1 << 51, bits[0x0A], ranks[0b1000000000101]
    (True, True, 0, b'AQ2')
    """
    bits = [0] * 256
    for card in range(52):
        tens, units = divmod(card + 1, 10)
        bits[tens << 4 | units] = 1 << card
    ranks = [b""]
    for rank in _RANK_BYTES:
        ranks += [letters + bytes([rank]) for letters in ranks]
    return bits, ranks


def _plain_masks(
    data: bytes, offset: int, bits: list[int], ranks: list[bytes]
) -> tuple[int, int, int, int] | None:
    """The hands N, E, S, W of the record at ``offset`` as 52-bit masks (bit ``i``: card ``i``
    of Big Deal's order), when its BRI part is 39 distinct card numbers and its DGE part
    writes the same hands; ``None`` for any other record (the general steps then say why).

    ``bits`` and ``ranks`` are :func:`_plain_tables`.
    """
    try:  # the 39 card numbers, each read as a hexadecimal byte ("52" is 0x52)
        numbers = bytes.fromhex(data[offset : offset + 78].decode("latin-1"))
    except ValueError:  # not hexadecimal digits: not 39 card numbers
        return None
    n = sum(map(bits.__getitem__, numbers[:13]))
    e = sum(map(bits.__getitem__, numbers[13:26]))
    s = sum(map(bits.__getitem__, numbers[26:]))
    # 39 bits, each added once, give 39 ones: a number twice carries, and one that is not
    # 01..52 adds 0, as a shorter "numbers" lacks some (fromhex passes over white space)
    if (n + e + s).bit_count() != 39:
        return None
    w = _ALL_CARDS - n - e - s
    written = b"|".join(  # "|" before each suit of each hand, as _SUIT_MARKS make them
        (
            b"",
            ranks[n & _SUIT],
            ranks[n >> 13 & _SUIT],
            ranks[n >> 26 & _SUIT],
            ranks[n >> 39],
            ranks[e & _SUIT],
            ranks[e >> 13 & _SUIT],
            ranks[e >> 26 & _SUIT],
            ranks[e >> 39],
            ranks[s & _SUIT],
            ranks[s >> 13 & _SUIT],
            ranks[s >> 26 & _SUIT],
            ranks[s >> 39],
            ranks[w & _SUIT],
            ranks[w >> 13 & _SUIT],
            ranks[w >> 26 & _SUIT],
            ranks[w >> 39],
        )
    )
    if data[offset + 78 : offset + 146].translate(_SUIT_MARKS) != written:
        return None
    return n, e, s, w


def _general_record(record: bytes, index: int, number: int | None) -> BoardRecord | SkippedGame:
    """The record (``index`` from 0) read by the general steps, or why it is skipped."""
    hands = _bri_hands(record[:78])
    reason = hands if isinstance(hands, str) else _dge_problem(record[78:146], hands)
    if not reason and number is not None and number > MAX_BOARD:
        reason = f"board {number} is past {MAX_BOARD}"
    if reason or isinstance(hands, str):
        return SkippedGame(index + 1, index + 1, str(reason))
    n, e, s, w = (tuple(map(BIGDEAL_CARD_ORDER.__getitem__, h)) for h in hands)
    return sorted_record((n, e, s, w), number, None, None, index + 1, index + 1)


def _read_whole_records(
    data: bytes, whole: int, low: int | None, skipped: list[SkippedGame]
) -> list[BoardRecord]:
    """The records of the ``whole`` records of ``data`` (numbered from ``low``); the skipped
    ones are added to ``skipped``.

    A plain record (:func:`_plain_masks`) is read from table look-ups; any other goes
    through the general steps (:func:`_general_record`), which give the same for a plain
    one.
    """
    bits, ranks = _plain_tables()
    records: list[BoardRecord] = []
    for index in range(whole):
        number = None if low is None else low + index
        masks = _plain_masks(data, index * DUP_RECORD_BYTES, bits, ranks)
        if masks is None:
            start = index * DUP_RECORD_BYTES
            found = _general_record(data[start : start + DUP_RECORD_BYTES], index, number)
            if isinstance(found, SkippedGame):
                skipped.append(found)
            else:
                records.append(found)
        elif number is not None and number > MAX_BOARD:
            skipped.append(SkippedGame(index + 1, index + 1, f"board {number} is past {MAX_BOARD}"))
        else:
            hands = mask_hands(*masks)
            records.append(sorted_record(hands, number, None, None, index + 1, index + 1))
    return records


def read_dup_records(
    data: bytes, *, source: str = "<dup>", partial: bool = False
) -> BoardFileContents:
    """The records of a DUP file and the boards skipped (see :mod:`croupier.formats.records`).

    ``game`` and ``line`` are the record number (from 1).  A record that cannot
    be read is skipped, and so is a short piece at the end; a bad trailer is
    reported as game 0 and leaves the numbers ``None``.  DUP holds no dealer or
    vulnerability, so those stay ``None``.

    >>> read_dup_records(b"").records
    []
    >>> read_dup_records(b"<html>", source="x.dup")
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: not a DUP file: x.dup (6 bytes) does not start with a ...
    """
    del partial  # every DUP board is a whole deal
    if not data:
        return BoardFileContents([], [], source)
    whole = len(data) // DUP_RECORD_BYTES
    if whole == 0 or not data[:78].isdigit():
        raise FileFormatError(
            f"not a DUP file: {source} ({len(data)} bytes) does not start with a "
            f"{DUP_RECORD_BYTES}-byte DUP record (78 digits, then the DGE hands); "
            f"{len(data)} bytes is not a whole number of {DUP_RECORD_BYTES}-byte DUP records"
            if len(data) % DUP_RECORD_BYTES
            else f"not a DUP file: {source} ({len(data)} bytes) does not start with a "
            f"{DUP_RECORD_BYTES}-byte DUP record (78 digits, then the DGE hands)"
        )
    check_games(whole, source)
    low, problem = _lowest_board(data, whole)
    skipped: list[SkippedGame] = [problem] if problem else []
    records = _read_whole_records(data, whole, low, skipped)
    rest = len(data) - whole * DUP_RECORD_BYTES
    if rest:
        skipped.append(
            SkippedGame(
                whole + 1,
                whole + 1,
                f"the file ends with {rest} bytes, not a whole {DUP_RECORD_BYTES}-byte record",
            )
        )
    return BoardFileContents(records, skipped, source)


def parse_dup_file(data: bytes, *, source: str = "<dup>") -> list[Board]:
    """The boards of a ``.dup`` file, strictly: any record skipped is an error.

    >>> parse_dup_file(b"12345")
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: not a DUP file: <dup> (5 bytes) does not start with a ...
    """
    contents = read_dup_records(data, source=source)
    if contents.skipped:
        first = contents.skipped[0]
        raise FileFormatError(f"{source} record {first.line}: {first.reason}")
    return contents.boards()


BOARD_FILE = BoardFileCodec(
    read_boards=lambda data, *, source, first_board: parse_dup_file(data, source=source),
    read_records=read_dup_records,
    render_boards=lambda boards, o: format_dup_file(boards),
    render_records=lambda records, o: format_dup_records(records),
    binary=True,
)
"""``.dup`` files as board files (:mod:`croupier.formats.registry`): bytes."""
