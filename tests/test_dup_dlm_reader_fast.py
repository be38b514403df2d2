"""The quick DUP and DLM readers give exactly what the general steps gave before them.

The DUP reader decodes a plain record (39 distinct card numbers, a DGE part that agrees)
with table look-ups, and the DLM reader a plain board line the same way; anything else goes
through the general steps.  Below is a plain copy of the readers as they were before
(``_old_*``), and many generated files, valid and damaged (flipped bytes, cut records,
wrong trailers, duplicate cards, changed line ends, keys and check numbers), are read by
both: the records (hands, card objects, numbers, game and line), the skipped games and
their reasons, the errors and the boards must be the same.
"""

from __future__ import annotations

import functools
import operator
import random
import re
from bisect import bisect_left
from typing import cast

import pytest

from croupier.boards import MAX_BOARD, Board
from croupier.cards import BRIDGE_RANK_LETTERS, Card
from croupier.errors import FileFormatError, masked_excerpt
from croupier.formats import dlm, dup
from croupier.formats.board_files import read_board_file, read_boards
from croupier.formats.dlm import DLM_FILLER, dlm_check_number, format_dlm_file
from croupier.formats.dup import DUP_RECORD_BYTES, format_dup_file
from croupier.formats.pbn_deal import suit_cards
from croupier.formats.records import (
    BoardFileContents,
    BoardRecord,
    SkippedGame,
    check_games,
    sorted_record,
)
from croupier.formats.text_lines import LINE_BREAKS, count_breaks
from croupier.ranking.bigdeal import BIGDEAL_CARD_ORDER, GOEDEL_MAX, goedel_unrank
from croupier.seats import SEATS

# --- the DUP reader as it was ------------------------------------------------------------------

_BLANK = b" \x00"
_BRI_PAIRS = [slice(j, j + 2) for j in range(0, 78, 2)]
_BRI_NUMBER = {b"%02d" % (n + 1): n for n in range(52)}
_SUIT_MARKS = bytes(b if chr(b) in BRIDGE_RANK_LETTERS else ord("|") for b in range(256))
_RANK_OF_CARD = BRIDGE_RANK_LETTERS.encode("ascii") * 4


def _old_bri_hands(bri: bytes) -> list[list[int]] | str:
    if not bri.isdigit():
        return f"the BRI part must be 78 digits, got {masked_excerpt(bri, 20)}"
    numbers = list(map(_BRI_NUMBER.get, map(bri.__getitem__, _BRI_PAIRS)))
    taken = set(numbers)
    if len(taken) != 39 or None in taken:
        return "BRI card numbers must be 39 distinct values 01..52"
    cards = cast(list[int], numbers)
    hands = [sorted(cards[k * 13 : (k + 1) * 13]) for k in range(3)]
    hands.append([n for n in range(52) if n not in taken])
    return hands


def _old_dge_written(hand: list[int]) -> bytes:
    ranks = bytes(map(_RANK_OF_CARD.__getitem__, hand))
    h, d, c = bisect_left(hand, 13), bisect_left(hand, 26), bisect_left(hand, 39)
    return b"|" + ranks[:h] + b"|" + ranks[h:d] + b"|" + ranks[d:c] + b"|" + ranks[c:]


def _old_dge_problem(dge: bytes, hands: list[list[int]]) -> str:
    if not dge.strip(_BLANK):
        return ""
    marked = dge.translate(_SUIT_MARKS)
    for k, (seat, hand) in enumerate(zip(SEATS, hands, strict=True)):
        chunk = marked[17 * k : 17 * (k + 1)]
        if chunk.count(b"|") != 4 or not chunk.startswith(b"|"):
            shown = masked_excerpt(dge[17 * k : 17 * (k + 1)])
            return f"a DGE hand must hold 4 suit symbols and 13 ranks, got {shown}"
        if chunk != _old_dge_written(hand):
            return f"the DGE part disagrees with the BRI part for {seat}"
    return ""


def _old_lowest_board(data: bytes, count: int) -> tuple[int | None, SkippedGame | None]:
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


def _old_read_dup_records(data: bytes, source: str) -> BoardFileContents:
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
    low, problem = _old_lowest_board(data, whole)
    records: list[BoardRecord] = []
    skipped: list[SkippedGame] = [problem] if problem else []
    for i in range(whole):
        record = data[i * DUP_RECORD_BYTES : (i + 1) * DUP_RECORD_BYTES]
        hands = _old_bri_hands(record[:78])
        reason = hands if isinstance(hands, str) else _old_dge_problem(record[78:146], hands)
        number = None if low is None else low + i
        if not reason and number is not None and number > MAX_BOARD:
            reason = f"board {number} is past {MAX_BOARD}"
        if reason or isinstance(hands, str):
            skipped.append(SkippedGame(i + 1, i + 1, str(reason)))
            continue
        n, e, s, w = (tuple(map(BIGDEAL_CARD_ORDER.__getitem__, h)) for h in hands)
        records.append(sorted_record((n, e, s, w), number, None, None, i + 1, i + 1))
    rest = len(data) - whole * DUP_RECORD_BYTES
    if rest:
        reason = f"the file ends with {rest} bytes, not a whole {DUP_RECORD_BYTES}-byte record"
        skipped.append(SkippedGame(whole + 1, whole + 1, reason))
    return BoardFileContents(records, skipped, source)


def _old_parse_dup_file(data: bytes, source: str) -> list[Board]:
    contents = _old_read_dup_records(data, source)
    if contents.skipped:
        first = contents.skipped[0]
        raise FileFormatError(f"{source} record {first.line}: {first.reason}")
    return contents.boards()


# --- the DLM reader as it was (the header checks it shares are unchanged) ----------------------

_BOARD_KEY = re.compile(r"board\s+([0-9]{1,6})", re.IGNORECASE)
_BOARD_VALUE = re.compile(r"([a-pA-P]{26})([0-9]{3})")
_SEAT_PAIRS = {97 + code: f"{code // 4}{code % 4}" for code in range(16)}
_ONLY_SEAT = [{48 + k: "1", **{48 + j: "0" for j in range(4) if j != k}} for k in range(4)]


def _old_board(key: str, value: str) -> tuple[int, list[tuple[Card, ...]] | str]:
    m = _BOARD_KEY.fullmatch(" ".join(key.split()))
    if m is None or not 1 <= int(m.group(1)) <= 999:
        line = masked_excerpt(key + "=" + value)
        return 0, (
            f"bad board line {line}; expected 'Board NN=' (NN 1..999) followed by 26 letters "
            "a-p and 3 digits"
        )
    number = int(m.group(1))
    v = _BOARD_VALUE.fullmatch(value)
    if v is None:
        return (
            number,
            f"board {number}: bad value {masked_excerpt(value)}; expected 26 letters a-p and "
            "3 digits",
        )
    letters, check = v.group(1).lower(), int(v.group(2))
    seats = letters.translate(_SEAT_PAIRS)
    hands: list[tuple[Card, ...]] = []
    for only in _ONLY_SEAT:
        cards = int(seats.translate(only)[::-1], 2)
        if cards.bit_count() != 13:
            return number, f"board {number} does not give 13 cards to each hand"
        hands.append(
            suit_cards(0, cards & 8191)
            + suit_cards(1, cards >> 13 & 8191)
            + suit_cards(2, cards >> 26 & 8191)
            + suit_cards(3, cards >> 39)
        )
    expected = functools.reduce(operator.xor, map(ord, letters), number)
    if check != expected:
        return number, (
            f"board {number} has check number {check:03d}, but its letters give "
            f"{expected:03d}; the line is corrupted"
        )
    return number, hands


def _old_document(text: str, source: str) -> dlm._Document:
    doc = dlm._Document()
    section = ""
    pos, counted, lineno = 0, 0, 1

    def line_of(start: int) -> int:
        nonlocal counted, lineno
        lineno += count_breaks(text, counted, start)
        counted = start
        return lineno

    while (found := dlm._MATTERS.search(text, pos)) is not None:
        start = found.start()
        sections = dlm._SECTIONS.match(text, start)
        if sections is not None:
            pos = sections.end()
            doc.found = doc.found or dlm._DOCUMENT.search(text, start, pos) is not None
            last = max(start, *(text.rfind(ch, start, pos) + 1 for ch in LINE_BREAKS))
            section = text[last:pos].strip()[1:-1].strip().lower()
            continue
        pos = dlm._REST_OF_LINE.match(text, start).end()  # type: ignore[union-attr]
        if section != "document":
            continue
        key, sep, value = text[start:pos].strip().partition("=")
        name = " ".join(key.split()).lower()
        if name.startswith("board "):
            check_games(len(doc.boards) + 1, source)
            doc.boards.append((key.strip(), value.strip(), line_of(start)))
        elif sep and name in ("from board", "to board", "status", "checksum", "duplicates"):
            if name in doc.keys and name in ("from board", "to board"):
                where = line_of(start)
                raise FileFormatError(f"{source} line {where}: a second {key.strip()} line")
            if name not in doc.keys:
                doc.keys[name] = (key.strip(), value.strip(), line_of(start))
        elif sep and name == "crypto key" and value.strip() not in ("", "0"):
            raise FileFormatError(
                f"{source} line {line_of(start)}: Crypto key={masked_excerpt(value.strip())}: "
                "the boards of an encrypted DLM file cannot be read (only Crypto key=0)"
            )
    return doc


def _old_range(doc: dlm._Document, source: str) -> tuple[int | None, int | None, str]:
    low = dlm._header_number(doc, "from board", source)
    high = dlm._header_number(doc, "to board", source)
    if (low is None) != (high is None):
        have = doc.keys["from board" if high is None else "to board"][0]
        other = "To" + have[4:] if high is None else "From" + have[2:]
        raise FileFormatError(f"{source}: has a {have} line but no {other} line")
    low_key = doc.keys["from board"][0] if low is not None else ""
    high_key = doc.keys["to board"][0] if high is not None else ""
    span = f"{low_key}={low}..{high_key}={high}"
    if low is not None and high is not None and low > high:
        raise FileFormatError(f"{source}: {low_key}={low} is after {high_key}={high}")
    return low, high, span


def _old_read_dlm(text: str, source: str) -> tuple[BoardFileContents, list[tuple[int, int, str]]]:
    if not text.strip():
        return BoardFileContents([], [], source), []
    doc = _old_document(text, source)
    if not doc.found:
        raise FileFormatError(
            f"not a DLM file: {source} has no [Document] section (a line '[Document]', then "
            "'Board 01=...' lines)"
        )
    low, high, span = _old_range(doc, source)
    records: list[BoardRecord] = []
    skipped: list[SkippedGame] = []
    seen: dict[int, int] = {}
    written: set[int] = set()
    extra: list[tuple[int, int, str]] = []
    for game, (key, value, lineno) in enumerate(doc.boards, start=1):
        number, hands = _old_board(key, value)
        written.add(number)
        reason = hands if isinstance(hands, str) else ""
        if low is not None and high is not None and not low <= number <= high:
            if number > high and not dlm._is_filler(value, number):
                extra.append((number, lineno, span))
            continue
        if not reason and number in seen:
            reason = f"board {number} appears again (first on line {seen[number]})"
        if reason or isinstance(hands, str):
            skipped.append(SkippedGame(game, lineno, reason))
            continue
        seen[number] = lineno
        n, e, s, w = hands
        records.append(sorted_record((n, e, s, w), number, None, None, game, lineno))
    header: list[SkippedGame] = []
    if low is not None and high is not None:
        header += dlm._checksum_problem(doc, low, high)
        to_line = doc.keys["to board"][2]
        for number in range(low, high + 1):
            if number not in written:
                header.append(SkippedGame(0, to_line, f"board {number} is missing ({span})"))
    return BoardFileContents(records, header + skipped, source), extra


def _old_parse_dlm_file(text: str, source: str) -> list[Board]:
    contents, extra = _old_read_dlm(text, source)
    if contents.skipped:
        first = contents.skipped[0]
        raise FileFormatError(f"{source} line {first.line}: {first.reason}")
    if extra:
        number, lineno, span = extra[0]
        slot = f"board {number}" if number else "a board line"
        raise FileFormatError(
            f"{source} line {lineno}: {slot} is past {span} but holds a deal, not the filler "
            "deal of an unused slot; the file holds more boards than its set, so it cannot be "
            "verified (remove the line, or widen the range)"
        )
    return contents.boards()


# --- comparing ---------------------------------------------------------------------------------


def _outcome(read: functools.partial[object]) -> object:
    """What a read gives, in a form that compares everything: the records with their game,
    line and the very card objects, the skipped games, the boards, or the error."""
    try:
        got = read()
    except FileFormatError as exc:
        return ("error", str(exc))
    if isinstance(got, BoardFileContents):
        return (
            "contents",
            got.source,
            [
                (r.hands, [[id(c) for c in h] for h in r.hands], r.number, r.dealer, r.vulnerable)
                for r in got.records
            ],
            [(r.game, r.line, r.room) for r in got.records],
            got.skipped,
        )
    boards = cast(list[Board], got)
    return ("boards", [(b, [[id(c) for c in h] for h in b.hands]) for b in boards])


def _same_dup(data: bytes) -> None:
    old = _outcome(functools.partial(_old_read_dup_records, data, "f.dup"))
    for partial in (False, True):
        read = functools.partial(dup.read_dup_records, data, source="f.dup", partial=partial)
        assert _outcome(read) == old
        via = functools.partial(read_board_file, data, "dup", source="f.dup", partial=partial)
        assert _outcome(via) == old
    old_boards = _outcome(functools.partial(_old_parse_dup_file, data, "f.dup"))
    assert _outcome(functools.partial(dup.parse_dup_file, data, source="f.dup")) == old_boards
    if old_boards[0] == "boards":
        assert _outcome(functools.partial(read_boards, data, "dup", source="f.dup")) == old_boards


def _same_dlm(text: str) -> None:
    old_contents = _outcome(functools.partial(lambda: _old_read_dlm(text, "f.dlm")[0]))
    for partial in (False, True):
        read = functools.partial(dlm.read_dlm_records, text, source="f.dlm", partial=partial)
        assert _outcome(read) == old_contents
    if not text.startswith("\ufeff"):
        via = functools.partial(read_board_file, text.encode(), "dlm", source="f.dlm")
        assert _outcome(via) == old_contents
    old_boards = _outcome(functools.partial(_old_parse_dlm_file, text, "f.dlm"))
    assert _outcome(functools.partial(dlm.parse_dlm_file, text, source="f.dlm")) == old_boards


# --- DUP files ---------------------------------------------------------------------------------


def _boards(rng: random.Random, first: int, count: int) -> list[Board]:
    return [
        Board.standard(first + i, goedel_unrank(rng.randrange(GOEDEL_MAX))) for i in range(count)
    ]


def _dup_file(rng: random.Random) -> bytes:
    count = rng.randint(1, 12)
    first = rng.choice([1, 1, 7, MAX_BOARD - count + 1, rng.randint(1, MAX_BOARD - count + 1)])
    return format_dup_file(_boards(rng, first, count), random_hands=rng.random() < 0.5)


def _shuffled_bri(rng: random.Random, record: bytearray) -> None:
    """The BRI numbers of one hand in another order (a valid record: "in any order")."""
    k = rng.randrange(3)
    pairs = [bytes(record[26 * k + j : 26 * k + j + 2]) for j in range(0, 26, 2)]
    rng.shuffle(pairs)
    record[26 * k : 26 * k + 26] = b"".join(pairs)


# Trailers of Big Deal and deal-convert, blank ones, and ones with a bad lowest board.
_TRAILERS = [b"YN1  0 32 ", b"\x00" * 10, b" " * 10, b"YNabc1 2  ", b"YN0  1 3  ", b"YN999 1 9 "]
_TRAILERS += [b"YN1000 1  ", b"YN 5 1 9  ", b"YN\xe91 1 9  "]


def _damaged_record(rng: random.Random, record: bytearray) -> None:
    """One change to a 156-byte record: to its BRI part, DGE part or trailer."""
    kind = rng.randrange(12)
    if kind == 0:  # any byte, any value
        record[rng.randrange(156)] = rng.randrange(256)
    elif kind == 1:  # a BRI digit changed: another card, a number twice, or 00, 53..99
        record[rng.randrange(78)] = rng.choice(b"0123456789")
    elif kind == 2:  # a card number twice (from another hand or the same)
        i, j = rng.sample(range(39), 2)
        record[2 * j : 2 * j + 2] = record[2 * i : 2 * i + 2]
    elif kind == 3:  # two numbers of different hands swapped: BRI is valid, DGE disagrees
        i, j = rng.randrange(13), 13 + rng.randrange(26)
        a, b = bytes(record[2 * i : 2 * i + 2]), bytes(record[2 * j : 2 * j + 2])
        record[2 * i : 2 * i + 2], record[2 * j : 2 * j + 2] = b, a
    elif kind == 4:
        _shuffled_bri(rng, record)
    elif kind == 5:  # a blank ("blind") DGE part, of spaces or NUL bytes
        record[78:146] = rng.choice([b" ", b"\x00"]) * 68
    elif kind == 6:  # other suit symbols (any byte that is not a rank letter marks a suit)
        record[78:146] = bytes(record[78:146]).translate(
            bytes.maketrans(b"\x06\x03\x04\x05", rng.choice([b"SHDC", b"\x00\x00\x00\x00"]))
        )
    elif kind == 7:  # a rank letter in lower case, or a suit symbol moved
        k = 78 + rng.randrange(68)
        record[k], record[k - 1] = record[k - 1], record[k]
    elif kind == 8:  # white space, hexadecimal letters or signs among the BRI digits
        record[rng.randrange(78)] = rng.choice(b" \t\naAfF+-x\x00")
    elif kind == 9:  # a trailer of other writers, blank, or with a bad lowest board
        record[146:156] = rng.choice(_TRAILERS)
    elif kind == 10:  # the trailer's lowest board changed
        record[148:151] = str(rng.randint(1, MAX_BOARD)).ljust(3).encode()
    else:  # a DGE hand with a card moved to another suit
        k = 78 + 17 * rng.randrange(4) + rng.randrange(17)
        record[k] = rng.choice(b"\x06\x03\x04\x05AKQJT98765432")


def _damaged_dup(rng: random.Random, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        start = DUP_RECORD_BYTES * rng.randrange(len(out) // DUP_RECORD_BYTES)
        record = out[start : start + DUP_RECORD_BYTES]
        _damaged_record(rng, record)
        assert len(record) == DUP_RECORD_BYTES
        out[start : start + DUP_RECORD_BYTES] = record
    cut = rng.random()
    if cut < 0.15:  # a truncated last record
        out = out[: len(out) - rng.randint(1, DUP_RECORD_BYTES - 1)]
    elif cut < 0.25:  # bytes after the last record
        out += bytes(rng.randrange(256) for _ in range(rng.randint(1, 200)))
    return bytes(out)


def test_valid_dup_files_read_as_before() -> None:
    rng = random.Random(20250101)
    for _ in range(150):
        data = _dup_file(rng)
        _same_dup(data)
        shuffled = bytearray(data)
        for start in range(0, len(data), DUP_RECORD_BYTES):
            record = shuffled[start : start + DUP_RECORD_BYTES]
            _shuffled_bri(rng, record)
            shuffled[start : start + DUP_RECORD_BYTES] = record
        _same_dup(bytes(shuffled))


def test_damaged_dup_files_read_as_before() -> None:
    rng = random.Random(7)
    for _ in range(1500):
        _same_dup(_damaged_dup(rng, _dup_file(rng)))


def test_dup_files_past_board_999_and_of_other_writers_read_as_before() -> None:
    rng = random.Random(99)
    one = format_dup_file(_boards(rng, 1, 40))
    _same_dup(one * 30)  # boards 1..1200: those past 999 are skipped
    _same_dup(_damaged_dup(rng, one * 30))
    big_deal = bytearray(one)  # Big Deal: "YN1  0 NN " in every record, board 1 blind
    for start in range(0, len(one), DUP_RECORD_BYTES):
        big_deal[start + 146 : start + 156] = b"YN1  0 40 "
    big_deal[78:146] = b" " * 68
    _same_dup(bytes(big_deal))
    convert = bytearray(one)  # deal-convert: the trailer in the first record only
    for start in range(DUP_RECORD_BYTES, len(one), DUP_RECORD_BYTES):
        convert[start + 146 : start + 156] = b"\x00" * 10
    _same_dup(bytes(convert))
    convert[146:156] = b"\x00" * 10  # no trailer at all: numbers unknown
    _same_dup(bytes(convert))


@pytest.mark.parametrize(
    "data",
    [b"", b"1", b"<html>" * 100, b"0" * 155, b"a" + b"0" * 155, b"0" * 156, b"0" * 78 * 5],
)
def test_odd_dup_inputs_read_as_before(data: bytes) -> None:
    _same_dup(data)


# --- DLM files ---------------------------------------------------------------------------------


def _dlm_file(rng: random.Random) -> str:
    count = rng.randint(1, 20)
    first = rng.randint(1, 99 - count + 1)
    return format_dlm_file(_boards(rng, first, count))


def _checked(key: str, value: str) -> str:
    """``value`` with the check number its letters give under the number of ``key``."""
    found = re.search(r"[0-9]+", key)
    check = dlm_check_number(value[:26].lower(), int(found.group()) if found else 0)
    return value[:26] + f"{check % 1000:03d}"


def _board_line(rng: random.Random, line: str) -> str:
    """A board line changed: its key, letters, check number or white space."""
    key, _, value = line.partition("=")
    found = re.search(r"[0-9]+", key)
    number = int(found.group()) if found else 1
    kind = rng.randrange(12)
    if kind == 0:  # a letter changed: 13 cards no more, or the check number wrong
        i = rng.randrange(26)
        value = value[:i] + rng.choice("abcdefghijklmnop") + value[i + 1 :]
    elif kind == 1:  # another check number
        value = value[:26] + f"{rng.randrange(1000):03d}"
    elif kind == 2:  # upper-case letters (read, as lower case)
        value = value.upper() if rng.random() < 0.5 else value[:5].upper() + value[5:]
    elif kind == 3:  # a letter past p, a digit short, a letter more
        value = rng.choice(["q" + value[1:], value[:-1], "a" + value, value + "0"])
    elif kind == 4:  # other keys for the same board, and keys that are no board
        key = rng.choice([f"Board {number}", f"Board {number:03d}", f"board {number:02d}"])
        key = rng.choice([key, f"BOARD  {number}", "Board 0", "Board 1000", "Board x"])
        value = _checked(key, value) if rng.random() < 0.5 else value
    elif kind == 5:  # white space around the key, the value or the line
        key = rng.choice([" " + key, key + " ", "\t" + key])
        value = rng.choice([value, " " + value, value + " \t"])
    elif kind == 6:  # another board's number (a board twice, one missing)
        key = f"Board {rng.randint(1, 99):02d}"
        value = _checked(key, value) if rng.random() < 0.5 else value
    elif kind == 7:  # the filler deal, with its check number for the key's slot
        value = f"{DLM_FILLER}{dlm_check_number(DLM_FILLER, number):03d}"
    elif kind == 8:  # a non-ASCII letter or digit
        i = rng.randrange(29)
        value = value[:i] + rng.choice("\u00e9\u0661\uff41") + value[i + 1 :]
    elif kind == 9:  # no value, no "="
        return rng.choice([key, key + "=", "Board"])
    elif kind == 10 and len(value) >= 26:  # two letters swapped: 13 cards each still
        i, j = rng.sample(range(26), 2)
        letters = list(value[:26])
        letters[i], letters[j] = letters[j], letters[i]
        value = "".join(letters) + value[26:]
    return f"{key}={value}"


# Lines that matter, put among the board lines: keys in other cases, a board line in lower case
# or after white space, section headers.
_AMONG_BOARDS = [
    "Crypto Key=7",
    "CRYPTO KEY=0",
    "crypto key=9",
    "From Board=3",
    "TO BOARD=99",
    "board NN=" + DLM_FILLER + "015",
    "BOARD NN=" + DLM_FILLER + "015",
    "  Board NN=" + DLM_FILLER + "015",
    "[Other]",
    " [Document]",
]


def _damaged_dlm(rng: random.Random, text: str) -> str:
    lines = text.split("\r\n")
    boards = [i for i, line in enumerate(lines) if line.startswith("Board ")]
    for _ in range(rng.randint(1, 4)):
        i = rng.choice(boards)
        lines[i] = _board_line(rng, lines[i])
    kind = rng.randrange(10)
    if kind == 0:  # a header value changed
        i = rng.choice([4, 5, 9])
        key = lines[i].partition("=")[0]
        lines[i] = f"{key}={rng.choice(['0', '1', '50', '99', '100', 'x', ''])}"
    elif kind == 1:  # a line removed, or one more
        i = rng.choice(boards)
        lines.insert(i, rng.choice(["", "  ", "[Other]", "Board", "Duplicates 01=3"]))
    elif kind == 2:  # another section around some boards
        i = rng.choice(boards)
        lines[i:i] = [rng.choice(["[Other]", "[ document ]", "[DOCUMENT]"])]
    elif kind == 3:
        del lines[rng.choice(boards)]
    elif kind == 4:  # a board past To board holding a deal, a crypto key
        lines.append(rng.choice([lines[boards[0]].replace("01=", "99="), "Crypto key=5"]))
    elif kind == 5:  # no range: every slot is a board, its number any key's
        lines = [line for line in lines if not line.startswith(("From board", "To board"))]
    elif kind == 6:  # lines that matter among the boards, in any case
        for i in sorted(rng.sample(boards, 3), reverse=True):
            lines.insert(i, rng.choice(_AMONG_BOARDS).replace("NN", f"{rng.randint(1, 99):02d}"))
    newline = rng.choice(["\r\n", "\r\n", "\n", "\r", "\x0c", "\u2028", "\x85"])
    ends = [newline] * (len(lines) - 1)
    for _ in range(rng.choice([0, 0, 1, 3])):  # another line end before some lines
        ends[rng.randrange(len(ends))] = rng.choice(["\r", "\n", "\x0b", "\u2029", "\x85", "\x1e"])
    out = lines[0] + "".join(end + line for end, line in zip(ends, lines[1:], strict=True))
    if rng.random() < 0.2:  # a lone CR or an odd line end in a file of CR LF
        i = rng.randrange(len(out))
        out = out[:i] + rng.choice(["\r", "\x0b", "\u2029", "\r\n"]) + out[i:]
    return out


def test_valid_dlm_files_read_as_before() -> None:
    rng = random.Random(2024)
    for _ in range(50):
        text = _dlm_file(rng)
        _same_dlm(text)
        _same_dlm(text.replace("\r\n", "\n"))
        _same_dlm(text.replace("\r\n", rng.choice(["\r", "\x0c", "\u2028", "\n\r"])))


def test_damaged_dlm_files_read_as_before() -> None:
    rng = random.Random(31337)
    for _ in range(300):
        _same_dlm(_damaged_dlm(rng, _dlm_file(rng)))


def test_dlm_files_of_other_writers_read_as_before() -> None:
    rng = random.Random(5)
    text = _dlm_file(rng)
    body = text.replace("From board", "From Board").replace("To board", "To Board")
    _same_dlm(body)  # croupier's older key spelling
    _same_dlm("[Document]\r\n" + "\r\n".join(text.splitlines()[10:]))  # no range: all slots
    _same_dlm(text.replace("Board 0", "Board "))  # "Board 1" keys
    _same_dlm(text.replace("=", " = "))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "  \n",
        "Board 01=aaaaaabffffffkkkkkklpppppp015",
        "[Document]\nBoard 01=aaaaaabffffffkkkkkklpppppp015",
        "[Document]\nBoard 01=aaaaaabffffffkkkkkklpppppp015\n" * 2,
        "[Document]\nFrom board=2\nTo board=1\n",
        "[Document]\nFrom board=1\n",
        "[Document]\nBoard 0=jlifaelnecgmoldfjmcflinlap022\n",
        "[Document]\nBoard 00=jlifaelnecgmoldfjmcflinlap022\n",
        "[Document]\nBoard 1000=jlifaelnecgmoldfjmcflinlap022\n",
        "[Document]\nBoard 01=jlifaelnecgmoldfjmcflinlap023\r\n"
        "Board 02=jlifaelnecgmoldfjmcflinlap023",
    ],
)
def test_odd_dlm_inputs_read_as_before(text: str) -> None:
    _same_dlm(text)


def test_the_comparison_sees_a_difference() -> None:
    """The reference is not the reader itself: a changed decoding is caught."""
    rng = random.Random(1)
    data = _dup_file(rng)
    old = _outcome(functools.partial(_old_read_dup_records, data, "f.dup"))
    moved = bytearray(data)
    moved[0:4] = moved[2:4] + moved[0:2]  # the same cards: the same records
    assert _outcome(functools.partial(dup.read_dup_records, bytes(moved), source="f.dup")) == old
    other = data[:146] + b"YN2" + data[149:]  # another lowest board: other numbers
    assert _outcome(functools.partial(dup.read_dup_records, other, source="f.dup")) != old
