"""LIN as BBO, vugraph and other programs write it: reading tolerantly, writing what they read.

Expected values come from the LIN layout (hand-built deals), from endplay's LIN parser and
its ``Deal.from_lin`` (an independent reader), and from the files' own headers.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from endplay.parsers import lin as endplay_lin
from endplay.types import Deal, Player, Vul
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.errors import FileFormatError
from croupier.formats.lin import format_lin_records, parse_lin_file, read_lin_records
from croupier.formats.pbn_deal import parse_pbn_deal
from croupier.formats.records import BoardRecord
from croupier.ranking.bigdeal import GOEDEL_MAX, goedel_unrank

REAL = Path(__file__).parent / "data" / "real"
# Each hand one suit: North spades, East hearts, South diamonds, West clubs.
SUITS_DEAL = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
# The same deal in LIN's seat order S, W, N, E (ranks high to low, then BBO's low to high).
SUITS_MD = "SHDAKQJT98765432C,SHDCAKQJT98765432,SAKQJT98765432HDC,SHAKQJT98765432DC"
SUITS_MD_BBO = "SHD23456789TJQKAC,SHDC23456789TJQKA,S23456789TJQKAHDC,"
_SEATS = {Player.north: "N", Player.east: "E", Player.south: "S", Player.west: "W"}
_VULS = {Vul.none: "None", Vul.ns: "NS", Vul.ew: "EW", Vul.both: "All"}


def _endplay_deal(md: str) -> str:
    return str(Deal.from_lin(md, complete_deal=True).to_pbn())


# --- files as other programs write them --------------------------------------------------------
def test_vugraph_file_with_open_and_closed_rooms() -> None:
    # A BBO vugraph archive (bridge-bots test data): header vg/rs/pn, then each board as
    # qx|o46| ... and qx|c46| ..., spread over many lines, with commentary in between.
    path = REAL / "bridge-bots" / "usbf_sf_14502.lin"
    text = path.read_text(encoding="utf-8")
    contents = read_lin_records(text, source=path.name)
    assert contents.skipped == []
    # vg|...,I,46,60,...| : boards 46 to 60, each played in the open and the closed room
    expected = [(n, room) for n in range(46, 61) for room in ("open", "closed")]
    assert [(r.number, r.room) for r in contents.records] == expected
    # every deal as endplay's own LIN deal reader reads the md values of the file
    mds = re.findall(r"md\|([^|]*)\|", text)
    assert [r.deal for r in contents.records] == [_endplay_deal(md) for md in mds]
    assert [r.dealer for r in contents.records] == ["SWNE"[int(md[0]) - 1] for md in mds]
    # the first line of each board is its qx line
    lines = text.splitlines()
    starts = [lines[r.line - 1][:9] for r in contents.records]
    assert starts == [f"qx|{room[0]}{n}|st" for n, room in expected]


def test_deal_convert_vugraph_layout() -> None:
    # deal-convert writes a vg/rs/pn header, then qx|o1|pn|,,,,,,,|md|...|sv|0|pg|| per room.
    path = REAL / "deal-convert" / "test.lin"
    text = path.read_text(encoding="utf-8")
    records = read_lin_records(text).records
    assert [(r.number, r.room) for r in records] == [
        (n, room) for n in range(1, 17) for room in ("open", "closed")
    ]
    mds = re.findall(r"md\|([^|]*)\|", text)
    assert [r.deal for r in records] == [_endplay_deal(md) for md in mds]
    # sv|0| is "none vulnerable": board 1, 8 and 11 of the standard cycle have it
    vul = {r.number: r.vulnerable for r in records}
    assert (vul[1], vul[2], vul[3], vul[4], vul[8]) == ("None", "NS", "EW", "All", "None")


@pytest.mark.parametrize(
    "name",
    [
        "endplay/example1.lin",
        "bridge-bots/sample.lin",
        "pbntools/1047742261.lin",
        "pbntools/20784130.lin",
        "pbntools/3399598383.lin",
    ],
)
def test_bbo_hand_records_agree_with_endplay(name: str) -> None:
    # BBO hand records: one board per line, pn|...|st||md|...|rh||ah|Board N|sv|x|...
    text = (REAL / name).read_text(encoding="utf-8")
    ours = read_lin_records(text, source=name)
    theirs = endplay_lin.load(io.StringIO(text))
    assert ours.skipped == [] and len(ours.records) == len(theirs)
    for rec, board in zip(ours.records, theirs, strict=True):
        assert rec.number == board.board_num
        assert rec.dealer == _SEATS[board.dealer]
        assert rec.vulnerable == _VULS[board.vul]
        assert rec.deal == str(board.deal.to_pbn())
        assert rec.room is None


# --- layouts -----------------------------------------------------------------------------------
def test_several_boards_on_one_line_and_one_board_over_several_lines() -> None:
    one_line = (
        f"pn|a,b,c,d|st||md|3{SUITS_MD}|rh||ah|Board 1|sv|o|mb|p|pg||"
        f"pn|e,f,g,h|st||md|4{SUITS_MD_BBO}|rh||ah|Board 2|sv|n|pg||\n"
    )
    spread = f"pn|a,b,c,d|\nst||md|1{SUITS_MD}|\nrh||ah|Board 3|\nsv|e|mb|p|pg||\npc|CA|pg||\n"
    records = read_lin_records(one_line + spread).records
    assert [(r.number, r.dealer, r.vulnerable, r.line) for r in records] == [
        (1, "N", "None", 1),
        (2, "E", "NS", 1),
        (3, "S", "EW", 2),
    ]
    assert [r.deal for r in records] == [SUITS_DEAL] * 3


def test_lines_without_the_closing_bar() -> None:
    text = f"md|3{SUITS_MD}|ah|Board 5|sv|b\nmd|1{SUITS_MD}|ah|Board 6|sv|e\n"
    records = read_lin_records(text).records
    assert [(r.number, r.dealer, r.vulnerable) for r in records] == [
        (5, "N", "All"),
        (6, "S", "EW"),
    ]


def test_numbers_from_ah_then_qx_else_none() -> None:
    md = f"md|3{SUITS_MD}|"
    text = "\n".join(
        [
            f"qx|o7|{md}",  # qx only
            f"qx|c7,BOARD 7|{md}",  # qx with a label after the comma
            f"qx|o8|{md}ah|Board 12|",  # both: ah is the board's title
            f"pn|,,,|{md}",  # neither: unknown, not invented
            f"pn|,,,|{md}ah|Deal 31 of 32|",
        ]
    )
    records = read_lin_records(text).records
    assert [(r.number, r.room) for r in records] == [
        (7, "open"),
        (7, "closed"),
        (12, "open"),
        (None, None),
        (31, None),
    ]
    # the strict reader numbers a board without a number by its position
    assert [b.number for b in parse_lin_file(text)] == [7, 7, 12, 4, 31]


def test_md_dealer_and_vulnerability_spellings() -> None:
    lines = [f"md|{SUITS_MD}|sv|{code}|" for code in ("o", "O", "0", "-", "n", "E", "b", "B")]
    lines.append(f"md|2{SUITS_MD}|")
    records = read_lin_records("\n".join(lines)).records
    assert [r.vulnerable for r in records] == [
        *["None"] * 4,
        "NS",
        "EW",
        "All",
        "All",
        None,
    ]
    assert [r.dealer for r in records] == [None] * 8 + ["W"]
    assert all(r.deal == SUITS_DEAL for r in records)


def test_hand_spellings() -> None:
    # "10" for the ten, lower case, and suits left out for voids all give the same deal
    voids = "SDAKQJT98765432,SCAKQJT98765432,SAKQJT98765432,HAKQJT98765432"
    for md in (SUITS_MD.replace("T", "10"), SUITS_MD.lower(), voids):
        (record,) = read_lin_records(f"md|3{md}|").records
        assert record.deal == SUITS_DEAL, md


def test_header_and_ah_before_md() -> None:
    text = (
        "vg|Club night,,P,1,2,,,,|pn|a,b,c,d|pg||\n"
        f"ah|Board 1|md|3{SUITS_MD}|sv|o|\n"
        f"ah|Board 2|md|4{SUITS_MD}|sv|n|\n"
    )
    records = read_lin_records(text).records
    assert [(r.number, r.dealer, r.vulnerable) for r in records] == [
        (1, "N", "None"),
        (2, "E", "NS"),
    ]


def test_fourth_hand_is_completed_and_ranks_any_order() -> None:
    # BBO leaves the last hand empty and writes ranks low to high.
    (record,) = read_lin_records(f"md|3{SUITS_MD_BBO}|").records
    assert record.deal == SUITS_DEAL and record.complete
    three = "S2HDAKQJT9876543C,SHDCAKQJT98765432,SAKQJT9876543HD2C,"  # S2 and D2 swapped
    (other,) = read_lin_records(f"md|3{three}|").records
    assert other.deal == "N:AKQJT9876543..2. .AKQJT98765432.. 2..AKQJT9876543. ...AKQJT98765432"


# --- skipped boards, partial deals, not LIN ---------------------------------------------------
def test_a_bad_board_is_skipped_and_the_rest_read() -> None:
    good = f"pn|,,,|md|3{SUITS_MD}|ah|Board 1|"
    twice = "pn|,,,|md|3SAA,SK,SQ,|ah|Board 2|"
    bad_sv = f"pn|,,,|md|3{SUITS_MD}|ah|Board 3|sv|x|"
    bad_dealer = f"pn|,,,|md|7{SUITS_MD}|ah|Board 4|"
    text = "\n".join([good, twice, bad_sv, bad_dealer, good.replace("Board 1", "Board 5")])
    contents = read_lin_records(text, source="t.lin")
    assert [r.number for r in contents.records] == [1, 5]
    assert [(s.game, s.line) for s in contents.skipped] == [(2, 2), (3, 3), (4, 4)]
    reasons = [s.reason for s in contents.skipped]
    assert "card AS appears twice" in reasons[0]
    assert reasons[1].startswith("bad sv 'x'")
    assert "dealer digit '7'" in reasons[2]
    with pytest.raises(FileFormatError, match=r"^t\.lin line 2: card AS appears twice"):
        parse_lin_file(text, source="t.lin")
    with pytest.raises(FileFormatError, match=r"^t\.lin line 2 \(game 2\): card AS"):
        contents.require_all()


def test_partial_deals() -> None:
    text = "qx|o1|md|3SAKHDC,,SQJHDC,|sv|o|\n" + f"qx|o2|md|3{SUITS_MD}|"
    skipping = read_lin_records(text)
    assert [r.number for r in skipping.records] == [2]
    (skip,) = skipping.skipped
    assert skip.reason.startswith("partial deal") and (skip.game, skip.line) == (1, 1)
    keeping = read_lin_records(text, partial=True)
    first = keeping.records[0]
    assert not first.complete and first.deal == "N:QJ... - AK... -"
    assert keeping.skipped == []


def test_not_a_lin_file_and_empty_files() -> None:
    for junk in ("<html><body>hi</body></html>", '[Board "1"]\n', "\x00\x01\x02"):
        with pytest.raises(FileFormatError, match=r"^not a LIN file: j\.lin"):
            read_lin_records(junk, source="j.lin")
    assert read_lin_records("").records == []
    assert read_lin_records("vg|Match,,I,1,2,A,0,B,0|\nrs|,|\npn|a,b,c,d|pg||\n").records == []


# --- writing -----------------------------------------------------------------------------------
def _record(goedel: int, number: int | None, dealer: str | None, vul: str | None) -> BoardRecord:
    return BoardRecord(goedel_unrank(goedel), number, dealer, vul)  # type: ignore[arg-type]


def test_written_lines_are_read_by_endplay() -> None:
    records = [
        BoardRecord(parse_pbn_deal(SUITS_DEAL), 3, "S", "EW", room="open"),
        BoardRecord(parse_pbn_deal(SUITS_DEAL), 3, "S", "EW", room="closed"),
        _record(12345, 4, "W", "All"),
    ]
    text = format_lin_records(records)
    assert text.splitlines()[0].startswith("qx|o3|pn|")
    theirs = endplay_lin.load(io.StringIO(text))
    assert [b.board_num for b in theirs] == [3, 3, 4]
    assert [_SEATS[b.dealer] for b in theirs] == ["S", "S", "W"]
    assert [_VULS[b.vul] for b in theirs] == ["EW", "EW", "All"]
    assert [str(b.deal.to_pbn()) for b in theirs] == [r.deal for r in records]


def test_unknown_values_are_left_out() -> None:
    deal = goedel_unrank(99)
    line = format_lin_records([BoardRecord(deal)]).strip()
    assert "ah|" not in line and "sv|" not in line and "qx|" not in line
    assert re.search(r"md\|S", line)  # no dealer digit: nothing to write
    # an unknown dealer with a known number: the standard dealer (board 6: East, digit 4)
    assert "|md|4S" in format_lin_records([BoardRecord(deal, 6)])
    again = read_lin_records(line).records[0]
    assert (again.number, again.dealer, again.vulnerable) == (None, None, None)


@st.composite
def _records(draw: st.DrawFn) -> list[BoardRecord]:
    out = []
    for _ in range(draw(st.integers(1, 4))):
        hands = list(goedel_unrank(draw(st.integers(0, GOEDEL_MAX - 1))))
        unknown = draw(st.sampled_from([(), (0, 1), (1, 2, 3), (0, 2)]))
        for seat in unknown:
            hands[seat] = []
        number = draw(st.none() | st.integers(1, 999))
        dealer = draw(st.none() | st.sampled_from("NESW"))
        vul = draw(st.none() | st.sampled_from(["None", "NS", "EW", "All"]))
        room = draw(st.none() | st.sampled_from(["open", "closed"]))
        out.append(BoardRecord(tuple(hands), number, dealer, vul, room=room))  # type: ignore[arg-type]
    return out


@settings(max_examples=60, deadline=None)
@given(_records())
def test_round_trip(records: list[BoardRecord]) -> None:
    back = read_lin_records(format_lin_records(records), partial=True)
    assert back.skipped == []
    assert len(back.records) == len(records)
    for ours, again in zip(records, back.records, strict=True):
        assert again.hands == ours.hands and again.number == ours.number
        assert again.vulnerable == ours.vulnerable
        assert again.room == ours.room
        dealer = ours.dealer
        if dealer is None and ours.number is not None:  # the standard dealer, as endplay has it
            dealer = _SEATS[Player.from_board(ours.number)]
        assert again.dealer == dealer


@settings(max_examples=30, deadline=None)
@given(_records())
def test_endplay_reads_what_is_written(records: list[BoardRecord]) -> None:
    # endplay needs the dealer digit: give every record a dealer or a number
    whole = [
        BoardRecord(goedel_unrank(i * 7919), r.number, r.dealer or "S", r.vulnerable, room=r.room)
        for i, r in enumerate(records)
    ]
    theirs = endplay_lin.load(io.StringIO(format_lin_records(whole)))
    assert [b.board_num for b in theirs] == [r.number for r in whole]
    assert [_SEATS[b.dealer] for b in theirs] == [r.dealer for r in whole]
    # a missing sv: endplay falls back on the standard vulnerability of the number, if any
    expected = [
        r.vulnerable or (None if r.number is None else _VULS[Vul.from_board(r.number)])
        for r in whole
    ]
    assert [None if b.vul is None else _VULS[b.vul] for b in theirs] == expected
    assert [str(b.deal.to_pbn()) for b in theirs] == [r.deal for r in whole]
