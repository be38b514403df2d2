"""Seats and vulnerabilities: every spelling, the board cycles; the one vocabulary of sources."""

from __future__ import annotations

import json
import pickle

import pytest

from croupier.boards import Board, dealer, vulnerability
from croupier.errors import CroupierError
from croupier.formats.lin import LIN_SEATS, lin_dealer_digit
from croupier.randomness import BulkStream, SourceKind, make_source
from croupier.ranking.bigdeal import goedel_unrank
from croupier.seats import BOARD_CYCLE, SEATS, VULNERABILITIES, Seat, SeatError, Vulnerability

# The standard cycles as the laws print them (WBF Laws, Law 2: boards 1-16), written out here
# independently of croupier.seats.
LAW_2 = {
    1: ("N", "None"), 2: ("E", "NS"), 3: ("S", "EW"), 4: ("W", "All"),
    5: ("N", "NS"), 6: ("E", "EW"), 7: ("S", "All"), 8: ("W", "None"),
    9: ("N", "EW"), 10: ("E", "All"), 11: ("S", "None"), 12: ("W", "NS"),
    13: ("N", "All"), 14: ("E", "None"), 15: ("S", "NS"), 16: ("W", "EW"),
}  # fmt: skip


@pytest.mark.parametrize("board", [*range(1, 40), 999, 1000, 10**30 + 7])
def test_the_cycles_are_law_2(board: int) -> None:
    want = LAW_2[(board - 1) % 16 + 1]
    assert (Seat.of_board(board), Vulnerability.of_board(board)) == want
    if board <= 999:
        assert (dealer(board), vulnerability(board)) == want
        b = Board.standard(board, goedel_unrank(0))
        assert (b.dealer, b.vulnerable) == want
    assert BOARD_CYCLE == 16


@pytest.mark.parametrize("board", [0, -3, -(10**40), True, 2.0, "1"])
def test_a_cycle_refuses_what_is_no_board_number(board: object) -> None:
    for cycle in (Seat.of_board, Vulnerability.of_board):
        with pytest.raises(SeatError) as info:
            cycle(board)  # type: ignore[arg-type]
        assert "\n" not in str(info.value) and len(str(info.value)) < 80


def test_seats_spell_every_way() -> None:
    names = ["North", "East", "South", "West"]
    for i, seat in enumerate(SEATS):
        assert seat.position == i and Seat.from_index(i) is seat
        assert seat.letter == "NESW"[i] and type(seat.letter) is str
        assert seat.long_name == names[i]
        for spelling in (seat.letter, seat.letter.lower(), names[i], names[i].upper(), i):
            assert Seat.parse(spelling) is seat
        assert seat.partner.partner is seat and seat.partner.position == (i + 2) % 4
        assert seat.rotated(1).rotated(-1) is seat
        assert [s.position for s in seat.clockwise()] == [(i + k) % 4 for k in range(4)]
    assert "".join(LIN_SEATS) == "SWNE"
    assert [lin_dealer_digit(s) for s in "NESW"] == ["3", "4", "1", "2"]


@pytest.mark.parametrize("bad", ["", "NE", "x", "nord", " ", "N\nE", 4, -1, None, 1.0])
def test_bad_seats_are_one_line_errors(bad: object) -> None:
    with pytest.raises(CroupierError) as info:
        Seat.parse(bad)  # type: ignore[arg-type]
    assert "\n" not in str(info.value)


def test_vulnerabilities_spell_every_way() -> None:
    table = {
        "None": ("o", "none", "None", ["love", "-", "NONE"], ["0", "-", "O"]),
        "NS": ("n", "NS", "N-S", ["ns", "Ns"], ["N"]),
        "EW": ("e", "EW", "E-W", ["ew", "eW"], ["E"]),
        "All": ("b", "all", "All", ["both", "BOTH", "all"], ["B"]),
    }
    assert [v.pbn for v in VULNERABILITIES] == list(table)
    for vul in Vulnerability:
        lin, word, text, pbn_words, lin_letters = table[vul.pbn]
        assert (vul.lin, vul.dealer_word, vul.text) == (lin, word, text)
        assert Vulnerability.parse(vul.pbn) is vul and Vulnerability.from_lin(lin) is vul
        assert Vulnerability.from_dealer_word(word) is vul
        assert all(Vulnerability.parse(w) is vul for w in pbn_words)
        assert all(Vulnerability.from_lin(w) is vul for w in lin_letters)
    assert Vulnerability.from_word("x") is None and Vulnerability.from_lin("x") is None
    with pytest.raises(SeatError, match="bad vulnerability 'Love'"):
        Vulnerability.from_dealer_word("Love")  # dealer's language has no Love


def test_who_is_vulnerable() -> None:
    sides = {"None": "", "NS": "NS", "EW": "EW", "All": "NESW"}
    for vul in Vulnerability:
        assert "".join(s for s in "NESW" if vul.is_vulnerable(s)) == "".join(
            s for s in "NESW" if s in sides[vul.pbn]
        )


def test_enums_are_the_strings_they_replace() -> None:
    """Seats and vulnerabilities compare, hash, format and serialise as the old strings."""
    board = Board.standard(7, goedel_unrank(0))
    assert board.dealer == "S" and board.vulnerable == "All"
    assert {"S": 1}[board.dealer] == 1 and f"{board.dealer}/{board.vulnerable}" == "S/All"
    assert json.dumps({board.dealer: board.vulnerable}) == '{"S": "All"}'
    assert Board(7, board.hands, "S", "All") == board  # type: ignore[arg-type]  # strings too
    assert pickle.loads(pickle.dumps(board)) == board


def test_one_vocabulary_of_sources() -> None:
    assert [k.value for k in SourceKind] == ["os-csprng", "seeded", "entropy", "numpy", "keyed"]
    assert make_source().kind is SourceKind.OS_CSPRNG
    assert make_source(seed="s").kind is SourceKind.SEEDED
    assert make_source(entropy="coins:HT").kind is SourceKind.ENTROPY
    assert BulkStream.from_os().kind is SourceKind.OS_CSPRNG
    seeded = BulkStream.seeded("s")
    assert seeded.kind is SourceKind.SEEDED and seeded.derive("x").kind is SourceKind.SEEDED
    assert BulkStream(bytes(32)).kind is SourceKind.KEYED
    assert seeded.label == seeded.kind  # the former name
    copy = pickle.loads(pickle.dumps(seeded))
    assert copy.kind is SourceKind.SEEDED and copy.main(0, 8) == seeded.main(0, 8)


def test_the_bulk_stream_is_still_importable_where_it_was() -> None:
    from croupier.bulk import BulkStream as from_bulk
    from croupier.bulk.stream import BulkStream as from_old_module

    assert from_bulk is from_old_module is BulkStream
