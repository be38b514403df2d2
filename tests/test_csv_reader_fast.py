"""The quick CSV reader gives exactly what the general one (:mod:`csv` row by row) gives.

A CSV file written plainly (no quotes, one kind of line end) is cut into rows and cells with
str methods, and its usual rows (whole deals written plainly) are read with small tables one
row at a time, or with numpy a block of rows at a time; anything else goes the general way.
Many generated files, valid and damaged (headers missing, moved or extra columns, quoted
cells, CR LF, LF, CR and mixed line ends, blank rows, a BOM, bad board numbers, dealers,
vulnerabilities, deals and Gödel numbers, hands of too many or too few holdings), are read
both ways, with and without ``partial``, with and without a required board number: the
records (hands, the very card objects, facts, game and line), the skipped games with their
reasons and the errors must be the same.  Each quick way is taken in turn (str methods,
numpy in blocks of a few rows, and the choice the reader makes itself).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from croupier.cards import BRIDGE_DECK, BRIDGE_RANK_LETTERS
from croupier.errors import CroupierError
from croupier.formats import board_csv
from croupier.formats.board_csv import CSV_COLUMNS, parse_board_csv, read_csv_records
from croupier.formats.board_files import read_board_file, read_boards, render_boards
from croupier.formats.records import BoardFileContents, BoardRecord, deal_goedel
from croupier.ranking.bigdeal import GOEDEL_MAX, goedel_rank, goedel_unrank

Outcome = tuple[Any, ...]

MODES = ["str", "numpy", "auto"]


def _full(contents: BoardFileContents) -> Outcome:
    """Everything a read gives, the card objects and the fields equality leaves out too."""
    records = [
        (
            r.hands,
            tuple(id(card) for hand in r.hands for card in hand),
            r.number,
            r.dealer,
            r.vulnerable,
            r.game,
            r.line,
            r.room,
        )
        for r in contents.records
    ]
    return ("read", records, contents.skipped, contents.source)


def _outcome(read: Callable[[], BoardFileContents]) -> Outcome:
    try:
        return _full(read())
    except CroupierError as exc:
        return ("error", type(exc), str(exc))


def _both(text: str, partial: bool, board_required: bool) -> tuple[Outcome, Outcome]:
    """The outcome of the reader (quick where it can be) and of the general way."""
    quick = _outcome(
        lambda: board_csv._read_csv(text, "t.csv", partial, board_required=board_required)
    )
    return quick, _outcome(lambda: _general(text, partial, board_required))


def _general(text: str, partial: bool, board_required: bool) -> BoardFileContents:
    """The general way (:mod:`csv` row by row), after the reader's one check of any text."""
    if not text.strip() and not board_required:
        return BoardFileContents([], [], "t.csv")
    return board_csv._read_general_csv(text, "t.csv", partial, board_required)


@pytest.fixture(params=MODES)
def mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Which quick way the reader takes: str methods row by row, numpy in blocks of 5 rows
    (and odd-sized last blocks), or its own choice."""
    if request.param == "str":
        monkeypatch.setattr(board_csv, "_numpy_pays", lambda rows: False)
    elif request.param == "numpy":
        monkeypatch.setattr(board_csv, "_numpy_pays", lambda rows: True)
        monkeypatch.setattr(board_csv, "_BLOCK", 5)
    return str(request.param)


# --- generated files ----------------------------------------------------------------------------


def _hand(cards: list[int]) -> str:
    """A hand of card numbers (Big Deal's order) written ``S.H.D.C``."""
    suits: list[list[str]] = [[], [], [], []]
    for card in sorted(cards):
        suits[card // 13].append(BRIDGE_RANK_LETTERS[card % 13])
    return ".".join("".join(s) for s in suits)


def _deal(rng: random.Random) -> tuple[list[list[int]], list[str], int]:
    """A random whole deal: its hands (card numbers), hand cells and Gödel number."""
    cards = list(range(52))
    rng.shuffle(cards)
    hands = [sorted(cards[13 * i : 13 * i + 13]) for i in range(4)]
    number = goedel_rank([[BRIDGE_DECK[c] for c in h] for h in hands])
    return hands, [_hand(h) for h in hands], number


def _damage_hands(rng: random.Random, hands: list[list[int]], cells: list[str]) -> None:
    """Spoil (or respell) the hand cells of a row in one of many ways."""
    i = rng.randrange(4)
    kind = rng.randrange(16)
    if kind == 0:
        cells[i] = cells[i].lower()
    elif kind == 1:  # ranks out of order
        suits = cells[i].split(".")
        j = max(range(4), key=lambda s: len(suits[s]))
        suits[j] = suits[j][::-1]
        cells[i] = ".".join(suits)
    elif kind == 2:  # a card twice
        cells[i] = _hand([*hands[i], hands[(i + 1) % 4][0]])
    elif kind == 3:  # a card from one hand to another (14 and 12 cards)
        other = (i + 1) % 4
        cells[i] = _hand([*hands[i], hands[other][0]])
        cells[other] = _hand(hands[other][1:])
    elif kind == 4:  # an unknown hand (completed), or two (partial)
        cells[i] = "-"
        if rng.random() < 0.5:
            cells[(i + 2) % 4] = rng.choice(["-", ""])
    elif kind == 5:  # a card missing (partial)
        cells[i] = _hand(hands[i][1:])
    elif kind == 6:  # a holding too many in one hand, one too few in the next
        other = (i + 1) % 4
        head, _, rest = cells[other].partition(".")
        cells[i], cells[other] = f"{cells[i]}.{head}", rest
    elif kind == 7:
        cells[i] = cells[i] + "."
    elif kind == 8:
        cells[i] = cells[i].replace(".", "", 1)
    elif kind == 9:
        cells[i] = rng.choice([" ", "\t", "\u3000"]) + cells[i] + rng.choice(["", " "])
    elif kind == 10:
        cells[0] = rng.choice("NESWn") + ":" + cells[0]
    elif kind == 11:
        cells[i] = ""
    elif kind == 12:
        cells[i] = cells[i].replace("T", "10")
    elif kind == 13:
        cells[i] = cells[i] + rng.choice(["\u00e9", "|", "x", "?", "\x0c"])
    elif kind == 14:  # holdings swapped between two hands: still a whole deal
        cells[i], cells[(i + 1) % 4] = cells[(i + 1) % 4], cells[i]
    else:
        cells[i] = rng.choice(["AKQJT98765432...", "....", "AKQJT98765432.AKQJT98765432.."])


def _board(rng: random.Random, index: int) -> str:
    if rng.random() < 0.85:
        return str(1 + index % 999)
    return rng.choice(["0", "1000", "x", "", " 12 ", "007", "1.5", "-3", "\u0663", "99999"])


def _dealer(rng: random.Random, index: int) -> str:
    if rng.random() < 0.85:
        return "NESW"[index % 4]
    return rng.choice(["", "n", " w ", "X", "NE", "North", "-"])


def _vulnerable(rng: random.Random, index: int) -> str:
    if rng.random() < 0.85:
        return ["None", "NS", "EW", "All"][index % 4]
    return rng.choice(["", "both", "Love", " ns ", "x", "None.", "all"])


def _goedel(rng: random.Random, number: int) -> str:
    if rng.random() < 0.9:
        return str(number)
    return rng.choice(
        ["", str(number + 1), f" {number} ", f"0{number}", "abc", f"{number}.0", str(GOEDEL_MAX)]
    )


def _row(rng: random.Random, index: int, columns: list[str], damage: float) -> str:
    hands, cells, number = _deal(rng)
    if rng.random() < damage:
        _damage_hands(rng, hands, cells)
    values = {
        "board": _board(rng, index) if rng.random() < 1 - damage / 2 else rng.choice(["", "x"]),
        "dealer": _dealer(rng, index),
        "vulnerable": _vulnerable(rng, index),
        "north": cells[0],
        "east": cells[1],
        "south": cells[2],
        "west": cells[3],
        "goedel": _goedel(rng, number) if rng.random() < 1 - damage / 2 else str(number + 7),
    }
    row = [values.get(name.strip().lower(), rng.choice(["", "x", "a.b", "7"])) for name in columns]
    if rng.random() < damage / 3:
        row = row[: rng.randrange(len(row) + 1)]  # cut short
    if rng.random() < damage / 3:
        row += ["extra", "1.2"]
    return ",".join(row)


def _header(rng: random.Random) -> list[str]:
    columns = list(CSV_COLUMNS)
    if rng.random() < 0.3:
        rng.shuffle(columns)
    if rng.random() < 0.3:  # some optional columns left out
        columns = [
            c for c in columns if c in ("north", "east", "south", "west") or rng.random() < 0.6
        ]
    if rng.random() < 0.2:
        columns.insert(rng.randrange(len(columns) + 1), rng.choice(["notes", "event", "north"]))
    if rng.random() < 0.15:
        columns = [c.upper() if rng.random() < 0.5 else f" {c} " for c in columns]
    if rng.random() < 0.05:  # a hand column missing: an error
        columns.remove(rng.choice([c for c in columns if c.strip().lower() == "west"] or ["x"]))
    return columns


def _blank_row(rng: random.Random, width: int) -> str:
    return rng.choice(["", " ", "\t", "," * (width - 1), " , ,", ",,", "\u3000,"])


def _quote(rng: random.Random, lines: list[str]) -> None:
    """Quote a cell (sometimes holding a comma or a line end): a file for the general way."""
    i = rng.randrange(len(lines))
    cells = lines[i].split(",")
    j = rng.randrange(len(cells))
    cells[j] = '"' + cells[j] + rng.choice(["", ",", "\n", '""']) + '"'
    lines[i] = ",".join(cells)


def _join(rng: random.Random, lines: list[str]) -> str:
    newline = rng.choice(["\n", "\r\n", "\r\n", "\r", "mixed"])
    if newline == "mixed":
        text = "".join(line + rng.choice(["\n", "\r\n", "\r"]) for line in lines)
    else:
        text = newline.join(lines) + (newline if rng.random() < 0.7 else "")
    if rng.random() < 0.1:
        text = "\ufeff" + text
    if rng.random() < 0.03:
        text = "\n" + text  # a blank line before the header
    return text


def _file(rng: random.Random) -> str:
    """A CSV board file, most often plain and sound, sometimes not."""
    columns = _header(rng)
    damage = rng.choice([0.0, 0.0, 0.05, 0.2, 0.6])
    rows = rng.choice([0, 1, 2, 3, 5, 8, 13, 30, 70])
    first = rng.randrange(999)
    lines = [",".join(columns)] if rng.random() < 0.95 else []
    for index in range(first, first + rows):
        if rng.random() < damage / 4:
            lines.append(_blank_row(rng, len(columns)))
        lines.append(_row(rng, index, columns, damage))
    if lines and rng.random() < 0.1:
        _quote(rng, lines)
    return _join(rng, lines)


def _files(seed: int, count: int) -> Iterator[str]:
    rng = random.Random(seed)
    for _ in range(count):
        yield _file(rng)


# --- the quick ways and the general way agree ---------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_the_quick_reader_reads_generated_files_as_the_general_way(mode: str, seed: int) -> None:
    plain = 0
    for number, text in enumerate(_files(seed, 120)):
        plain += board_csv._plain_newline(text) is not None
        for partial in (False, True):
            for board_required in (False, True):
                quick, general = _both(text, partial, board_required)
                assert quick == general, (number, partial, board_required, text[:300])
    assert plain > 60  # (most files are for the quick way)


def test_the_files_hold_every_kind_of_outcome() -> None:
    """The generated files make records, skipped games of many reasons, and errors."""
    reasons: set[str] = set()
    kinds: set[str] = set()
    records = 0
    for text in _files(0, 120):
        outcome = _outcome(functools.partial(read_csv_records, text, partial=False))
        kinds.add(outcome[0])
        if outcome[0] == "read":
            records += len(outcome[1])
            reasons.update(s.reason.split(" ")[0] for s in outcome[2])
    assert kinds == {"read", "error"}
    assert records > 500
    assert {"board", "bad", "goedel", "partial"} <= reasons, reasons


def test_a_hand_of_five_holdings_next_to_one_of_three(mode: str) -> None:
    """The 16 holdings of a whole deal, one hand a holding too long, the next one too short.

    The quick ways leave such a row to the general way, which reads it as it reads its deal
    string: :func:`~croupier.formats.pbn_deal.sorted_pbn_deal` takes it for the deal of its
    16 holdings (its slow way calls a hand of five suits an error).
    """
    rng = random.Random(7)
    lines = ["board,north,east,south,west"]
    for board in range(1, 80):
        _, cells, _ = _deal(rng)
        head, _, rest = cells[1].partition(".")
        cells[0], cells[1] = f"{cells[0]}.{head}", rest
        lines.append(",".join([str(board), *cells]))
    text = "\n".join(lines) + "\n"
    for partial in (False, True):
        quick, general = _both(text, partial, False)
        assert quick == general
        assert len(quick[1]) + len(quick[2]) == 79


def test_large_files_of_whole_deals(mode: str) -> None:
    """Files as croupier writes them, and with a few damaged rows among many."""
    rng = random.Random(11)
    boards = [
        BoardRecord(goedel_unrank(rng.randrange(GOEDEL_MAX))).to_board(1 + i % 999)
        for i in range(300)
    ]
    text = render_boards(boards, "csv").decode("utf-8")
    for damaged in (text, _damaged_rows(rng, text)):
        for partial in (False, True):
            for board_required in (False, True):
                quick, general = _both(damaged, partial, board_required)
                assert quick == general
    assert read_boards(text.encode(), "csv") == boards


def _damaged_rows(rng: random.Random, text: str) -> str:
    lines = text.split("\r\n")
    for i in rng.sample(range(1, len(lines) - 1), 20):
        cells = lines[i].split(",")
        j = rng.choice([0, 1, 2, 3, 4, 7])
        cells[j] = rng.choice(["", "x", cells[j].lower(), cells[j][::-1], cells[j] + "1"])
        lines[i] = ",".join(cells)
    return "\r\n".join(lines)


@pytest.mark.parametrize(
    "text",
    [
        "",
        " \r\n\t",
        "north,east,south,west",
        "north,east,south,west\r\n",
        "north,east,south\r\nA...,-,-\r\n",
        "\ufeffnorth,east,south,west\n-,-,-,-\n",
        "\ufeffboard,north,east,south,west\n1,-,-,-,-\n",
        "board,north,east,south,west\n\n\n,,,,\n",
        "north,east,south,west\n" + "x" * 140_000 + "\n",  # a field over the csv module's limit
        "north,east,south,west\n" + "a," * 70_000 + "\n",  # a long line of short fields
        "north,east,south,west\n" + "A...,-,-,-\n" * 100_001,  # too many games
        "north,east,south,west\n" + ",A...,-,-,-\n" * 100_001,
        "north,east,south,west\r\nA...,-,-,-\nA...,-,-,-\r\n",  # mixed line ends
        "north,east,south,west\rA...,-,-,-\r",
        "north,east,south,west\nA...,-,-,-\x00\n",
        "north,east,south,west\nA...,-,-,-\n" + ",,,\n \t\n" * 30_000 + "-,A...,-,-\n",
        "north,east,south,west\r\n" + " " * 200_000 + "\r\n-,-,-,-\r\n",  # a long blank row
        "north,east,south,west\n-,-,-,-\n" + " " * 200_000,  # ... as the last line: too long
    ],
    ids=lambda t: repr(t[:24]) + f"+{len(t)}",
)
def test_edge_cases(mode: str, text: str) -> None:
    for partial in (False, True):
        for board_required in (False, True):
            quick, general = _both(text, partial, board_required)
            assert quick == general


def test_files_cut_into_small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lines are split a chunk of text at a time, chunks of rows of empty cells passed over."""
    monkeypatch.setattr(board_csv, "_CHUNK", 40)
    rng = random.Random(6)
    for text in _files(6, 80):
        head, newline, rest = text.partition("\n")
        blank = "".join(_blank_row(rng, 5) + newline for _ in range(rng.randrange(60)))
        for board_required in (False, True):
            for spaced in (text, head + newline + blank + rest):
                quick, general = _both(spaced, False, board_required)
                assert quick == general


def test_a_fresh_process(mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With nothing learned yet (holdings, board facts, numpy's tables), as in a new process."""
    monkeypatch.setattr(board_csv, "_HOLDINGS", {})
    monkeypatch.setattr(board_csv, "_SUIT_CARDS", tuple([()] * 8192 for _ in range(4)))
    monkeypatch.setattr(board_csv, "_FACTS", {False: {}, True: {}})
    monkeypatch.setattr(board_csv, "_NUMPY_TABLES", {})
    monkeypatch.setattr(board_csv, "_MOST_FACTS", 50)  # (and the facts kept are capped)
    for text in _files(5, 60):
        for board_required in (False, True):
            quick, general = _both(text, False, board_required)
            assert quick == general
    assert len(board_csv._FACTS[False]) <= 50


# --- the quick ways are taken ----------------------------------------------------------------


def _never(*args: object, **kwargs: object) -> Any:
    raise AssertionError("the general way was taken")


@pytest.mark.parametrize("newline", ["\r\n", "\n"])
def test_a_plain_file_is_read_the_quick_way(
    mode: str, newline: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(3)
    boards = [
        BoardRecord(goedel_unrank(rng.randrange(GOEDEL_MAX))).to_board(1 + i) for i in range(100)
    ]
    data = render_boards(boards, "csv").replace(b"\r\n", newline.encode())
    expected = _full(_general(data.decode(), False, False))
    monkeypatch.setattr(board_csv, "_csv_record", _never)
    monkeypatch.setattr(board_csv, "_read_general_csv", _never)
    monkeypatch.setattr(board_csv, "parse_record_deal", _never)
    assert _full(read_board_file(data, "csv", source="t.csv")) == expected
    assert read_boards(data, "csv") == boards
    assert parse_board_csv(data.decode()) == boards


def test_numpy_is_used_for_many_rows_when_it_pays(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    assert board_csv._numpy_pays(board_csv._NUMPY_ROWS)  # (numpy is loaded: this file uses it)
    assert not board_csv._numpy_pays(board_csv._NUMPY_ROWS - 1)
    monkeypatch.delitem(sys.modules, "numpy")  # as if not loaded: only for a large file
    assert not board_csv._numpy_pays(board_csv._NUMPY_LOAD_ROWS - 1)
    assert board_csv._numpy_pays(board_csv._NUMPY_LOAD_ROWS)


def test_numpy_goedel_numbers_and_hands_are_those_of_deal_goedel() -> None:
    import numpy as np

    rng = random.Random(5)
    numbers = [0, 1, GOEDEL_MAX - 1, GOEDEL_MAX - 2]
    numbers += [rng.randrange(GOEDEL_MAX) for _ in range(500)]
    hands = [BoardRecord(goedel_unrank(n)).hands for n in numbers]
    place = {card: i for i, card in enumerate(BRIDGE_DECK)}
    masks = []
    for deal in hands:
        row = [0] * 16  # the holdings of N, E, S, W, spades first
        for seat, hand in enumerate(deal):
            for card in hand:
                row[4 * seat + place[card] // 13] |= 1 << (place[card] % 13)
        masks.append(row)
    array = np.array(masks, dtype=np.int64)
    assert board_csv._numpy_goedel(board_csv._numpy_seats(array)) == numbers
    assert numbers == [deal_goedel(h) for h in hands]
    assert board_csv._numpy_hands(array) == hands


def test_the_blank_characters_are_those_str_strip_strips() -> None:
    import sys

    spaces = {c for c in map(chr, range(sys.maxunicode + 1)) if c.isspace()}
    assert set(board_csv._BLANK) == spaces | {","}
