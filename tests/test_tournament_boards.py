"""Dealer and vulnerability cycles, board ranges and lists."""

from __future__ import annotations

import pytest
from endplay.types import Player, Vul

from croupier.boards import (
    Board,
    BoardRangeError,
    dealer,
    parse_board_list,
    parse_board_range,
    vulnerability,
)
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
