"""Dealer and vulnerability cycles, board ranges and lists."""

from __future__ import annotations

import pytest
from endplay.types import Player, Vul

from croupier.boards import (
    MAX_BOARD_RANGES,
    Board,
    BoardRangeError,
    dealer,
    parse_board_list,
    parse_board_number,
    parse_board_range,
    vulnerability,
)
from croupier.errors import bounded_decimal, excerpt
from croupier.ranking.bigdeal import goedel_unrank

_ENDPLAY_VUL = {Vul.none: "None", Vul.ns: "NS", Vul.ew: "EW", Vul.both: "All"}
_ENDPLAY_SEAT = {Player.north: "N", Player.east: "E", Player.south: "S", Player.west: "W"}


def test_cycles_written_out() -> None:
    assert "".join(dealer(b) for b in range(1, 9)) == "NESWNESW"
    table = [vulnerability(b) for b in range(1, 17)]
    assert table == [
        "None", "NS", "EW", "All",
        "NS", "EW", "All", "None",
        "EW", "All", "None", "NS",
        "All", "None", "NS", "EW",
    ]  # fmt: skip


@pytest.mark.parametrize("board", range(1, 130))
def test_cycles_agree_with_endplay(board: int) -> None:
    assert dealer(board) == _ENDPLAY_SEAT[Player.from_board(board)]
    assert vulnerability(board) == _ENDPLAY_VUL[Vul.from_board(board)]


def test_periods() -> None:
    for b in range(1, 900):
        assert dealer(b) == dealer(b + 4) and vulnerability(b) == vulnerability(b + 16)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("16", range(1, 17)), ("17-32", range(17, 33)), (" 5 - 9 ", range(5, 10)), ("1", range(1, 2))],
)
def test_parse_board_range(text: str, expected: range) -> None:
    assert parse_board_range(text) == expected


@pytest.mark.parametrize("bad", ["", "0", "9-5", "1-1000", "x", "1-", "-3", "1,2", "3x7"])
def test_bad_board_ranges(bad: str) -> None:
    with pytest.raises(BoardRangeError, match="board range"):
        parse_board_range(bad)


def test_board_list() -> None:
    assert parse_board_list("1-16,17-32") == [range(1, 17), range(17, 33)]
    with pytest.raises(BoardRangeError):
        parse_board_list("1-16,,17-32")


def test_board_validation() -> None:
    hands = goedel_unrank(0)
    with pytest.raises(BoardRangeError):
        Board(1, (tuple(hands[0]), (), (), ()), "X", "None")
    with pytest.raises(BoardRangeError):
        Board(1, (tuple(hands[0]), (), (), ()), "N", "Both")
    with pytest.raises(BoardRangeError):
        Board.standard(0, hands)


def test_docs_examples_run() -> None:
    import doctest

    from tests.conftest import ROOT

    failures, attempted = doctest.testfile(
        str(ROOT / "docs" / "tournament.md"), module_relative=False
    )
    assert attempted > 0 and failures == 0


@pytest.mark.parametrize("bad", ["\u0663", "1-\u0661\u0666", "\uff11\uff16"])
def test_board_ranges_take_ascii_digits_only(bad: str) -> None:
    with pytest.raises(BoardRangeError, match="bad board range"):
        parse_board_range(bad)


@pytest.mark.parametrize(
    "bad",
    ["9" * 5000, "1-" + "9" * 5000, "0" * 4999 + "17-" + "9" * 4301, "1\x1f", "\u00b2", "1-\u0663"],
)
def test_hostile_board_ranges_are_one_short_line(bad: str) -> None:
    # Past 4,300 digits int() raises a plain ValueError; the length is checked first.
    with pytest.raises(BoardRangeError, match="bad board range") as caught:
        parse_board_range(bad)
    message = str(caught.value)
    assert len(message) < 200 and "\n" not in message


def test_board_numbers() -> None:
    assert parse_board_number("7") == 7 and parse_board_number(" 0999 ") == 999
    assert parse_board_number("0" * 5000 + "12") == 12  # leading zeros are no reason to fail
    for bad in ["0", "1000", "", " ", "+1", "-1", "1.0", "\u0663", "9" * 5000, "1 2"]:
        with pytest.raises(BoardRangeError, match="bad board number"):
            parse_board_number(bad)


def test_board_list_length_is_limited() -> None:
    assert len(parse_board_list(",".join(["1-2"] * MAX_BOARD_RANGES))) == MAX_BOARD_RANGES
    with pytest.raises(BoardRangeError, match=f"more than {MAX_BOARD_RANGES} ranges"):
        parse_board_list(",".join(["1"] * (MAX_BOARD_RANGES + 1)))


def test_bounded_decimal_and_excerpt() -> None:
    assert bounded_decimal("123", 3) == 123 and bounded_decimal("1234", 3) is None
    for bad in ["", " 1", "1 ", "+1", "\u00b2", "\u0663", "\uff11", "1_0", "0x1"]:
        assert bounded_decimal(bad, 9) is None, bad
    assert int("\u0663") == 3  # what int() alone would accept
    assert excerpt("abc") == "'abc'"
    long = excerpt("\x00" * 1000)
    assert long.startswith("'\\x00") and long.endswith("... (1000 characters)") and len(long) < 200
    assert excerpt(b"\xff" * 50, limit=3) == "b'\\xff\\xff\\xff'... (50 bytes)"
