"""``croupier convert`` and the record readers and writers behind it.

Expected values come from this file, never from croupier: deals are drawn
here and written as PBN strings by :func:`_hand` (an independent writer of
``S.H.D.C``), the input files are written by hand or by ``json``/``csv`` from
the standard library, the dealer and vulnerability cycles are spelled out
below, and endplay reads the PBN and LIN that croupier writes.
"""

from __future__ import annotations

import csv
import io
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from endplay.parsers import lin as endplay_lin
from endplay.parsers import pbn as endplay_pbn
from endplay.types import Player, Vul
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cli.convert_cmd import CONVERT_FORMATS, MAX_SKIP_LINES
from croupier.errors import FileFormatError
from croupier.formats.board_csv import read_csv_records, read_lines_records
from croupier.formats.board_files import read_board_file, read_boards, render_records
from croupier.formats.board_json import read_json_records
from croupier.formats.records import renumber
from tests.conftest import CliRunner

RANKS = "AKQJT98765432"
SUITS = "SHDC"
DECK = [r + s for s in SUITS for r in RANKS]  # card i of the deck: AS KS ... 2C
SEATS = "NESW"
# The standard cycles (Laws of Duplicate Bridge): dealer N E S W; vulnerability by board 1..16.
VUL_CYCLE = [
    *("None", "NS", "EW", "All"),
    *("NS", "EW", "All", "None"),
    *("EW", "All", "None", "NS"),
    *("All", "None", "NS", "EW"),
]
EXTENSION = {"pbn": "pbn", "lin": "lin", "dup": "dup", "dlm": "dlm", "csv": "csv"}
EXTENSION |= {"json": "json", "lines": "txt"}
HOLD_NUMBERS = {"pbn", "lin", "dup", "dlm", "csv", "json"}  # lines hold deals only
HOLD_DEALER = {"pbn", "lin", "csv", "json"}  # DUP and DLM imply them by the board number
PLAYER = {"N": Player.north, "E": Player.east, "S": Player.south, "W": Player.west}
HOLD_PARTIAL = ["pbn", "lin", "csv", "json", "lines"]


def _dealer(board: int) -> str:
    return SEATS[(board - 1) % 4]


def _vul(board: int) -> str:
    return VUL_CYCLE[(board - 1) % 16]


def _hand(cards: set[str] | frozenset[str]) -> str:
    """One hand as PBN writes it, ranks high to low; ``-`` for an unknown (empty) hand."""
    if not cards:
        return "-"
    return ".".join("".join(r for r in RANKS if r + s in cards) for s in SUITS)


def _deal(hands: list[frozenset[str]]) -> str:
    """The PBN deal string from North (what the JSON ``deal`` key must hold)."""
    if sum(len(h) == 13 for h in hands) == 3 and sum(not h for h in hands) == 1:
        missing = frozenset(DECK) - frozenset().union(*hands)  # PBN completes one unknown hand
        hands = [h or missing for h in hands]
    return "N:" + " ".join(_hand(h) for h in hands)


def _json_file(boards: list[dict[str, Any]]) -> str:
    return json.dumps({"boards": boards, "skipped": []})


@st.composite
def _deals(draw: st.DrawFn, partial: bool = False) -> list[frozenset[str]]:
    order = draw(st.permutations(range(52)))
    sizes = [draw(st.integers(0, 13)) for _ in range(4)] if partial else [13] * 4
    return [frozenset(DECK[c] for c in order[13 * i : 13 * i + sizes[i]]) for i in range(4)]


def _deals_of(records: list[Any]) -> list[str]:
    return [r.deal for r in records]


# Hand-written: board 3 dealt from South's hand first, board 4 with West unknown.
PBN_TEXT = """\
% PBN 2.1
% written by hand for these tests
[Event "Club night"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]

[Event "Club night"]
[Board "2"]
[Dealer "E"]
[Vulnerable "NS"]
[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]

[Event "Club night"]
[Board "3"]
[Dealer "S"]
[Vulnerable "EW"]
[Deal "S:A2.A2.A2.A765432 KQJT9.KQJT.KQ.KQ 8765.987.J98.J98 43.6543.T76543.T"]

[Event "Club night"]
[Board "4"]
[Dealer "W"]
[Vulnerable "All"]
[Deal "N:AKQ.AK.AKQJT.AKQ JT98.QJT9.98.JT9 7654.8765.765.87 -"]
"""
PBN_DEALS = [
    "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765",
    "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432",
    "N:8765.987.J98.J98 43.6543.T76543.T A2.A2.A2.A765432 KQJT9.KQJT.KQ.KQ",
    "N:AKQ.AK.AKQJT.AKQ JT98.QJT9.98.JT9 7654.8765.765.87 32.432.432.65432",
]


def _write(folder: Path, name: str, data: str | bytes) -> Path:
    path = folder / name
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


def _json_out(cli: CliRunner, args: list[str]) -> dict[str, Any]:
    result = cli(["convert", *args, "--to", "json", "--quiet"])
    assert result.code == 0, result.err
    return dict(json.loads(result.out))


# ------------------------------------------------------------------- every format to every format
def test_every_format_to_every_format_on_the_command_line(cli: CliRunner, tmp_path: Path) -> None:
    source = _write(tmp_path, "club.pbn", PBN_TEXT)
    for a in CONVERT_FORMATS:
        first = tmp_path / f"a.{EXTENSION[a]}"
        assert cli(["convert", str(source), str(first), "--quiet"]).code == 0, a
        for b in CONVERT_FORMATS:
            second = tmp_path / f"{a}-to-b.{EXTENSION[b]}"
            extra = ["--renumber"] if a == "lines" and b in ("dup", "dlm") else []
            result = cli(["convert", str(first), str(second), *extra])
            assert result.code == 0, (a, b, result.err)
            assert result.err == f"read 4 boards from {first}; wrote {second}\n"
            back = read_board_file(second.read_bytes(), b, strict=True, partial=True)
            assert _deals_of(back.records) == PBN_DEALS, (a, b)
            if a in HOLD_NUMBERS and b in HOLD_NUMBERS:
                assert [r.number for r in back.records] == [1, 2, 3, 4], (a, b)
            if a in HOLD_NUMBERS and b in HOLD_DEALER:  # DUP and DLM imply them
                got = [(r.dealer, r.vulnerable) for r in back.records]
                assert got == [(_dealer(n), _vul(n)) for n in (1, 2, 3, 4)], (a, b)


@settings(max_examples=30)
@given(
    st.lists(_deals(), min_size=1, max_size=4),
    st.integers(1, 96),  # DLM numbers boards 1..99
    st.data(),
)
def test_round_trips_keep_every_deal(
    deals: list[list[frozenset[str]]], start: int, data: st.DataObject
) -> None:
    numbers = list(range(start, start + len(deals)))
    # a board set as DUP and DLM hold it: consecutive numbers, the standard cycles
    boards = [
        {"board": n, "dealer": _dealer(n), "vulnerable": _vul(n), "deal": _deal(d)}
        for n, d in zip(numbers, deals, strict=True)
    ]
    expected = [b["deal"] for b in boards]
    source = read_board_file(_json_file(boards).encode(), "json", strict=True)
    a = data.draw(st.sampled_from(CONVERT_FORMATS))
    first = read_board_file(render_records(source.records, a), a, strict=True)
    for b in CONVERT_FORMATS:
        records = first.records if a != "lines" else renumber(first.records, start)
        back = read_board_file(render_records(records, b), b, strict=True)
        assert _deals_of(back.records) == expected, (a, b)
        if b in HOLD_NUMBERS:
            assert [r.number for r in back.records] == numbers, (a, b)
        if a in HOLD_DEALER and b in HOLD_DEALER:
            got = [(r.dealer, r.vulnerable) for r in back.records]
            assert got == [(_dealer(n), _vul(n)) for n in numbers], (a, b)
    # endplay reads croupier's PBN and LIN to the same deals (it needs a dealer: renumber)
    for fmt, parser in (("pbn", endplay_pbn), ("lin", endplay_lin)):
        theirs = parser.loads(render_records(renumber(first.records, start), fmt).decode())
        assert [str(t.deal.to_pbn()) for t in theirs] == expected, fmt
        assert [t.board_num for t in theirs] == numbers
        assert [t.dealer for t in theirs] == [PLAYER[_dealer(n)] for n in numbers]


@settings(max_examples=40)
@given(st.lists(_deals(partial=True), min_size=1, max_size=4), st.data())
def test_partial_deals_round_trip_where_the_format_holds_them(
    deals: list[list[frozenset[str]]], data: st.DataObject
) -> None:
    dealers = data.draw(st.lists(st.sampled_from([None, *SEATS]), min_size=4, max_size=4))
    boards = [
        {"board": None, "dealer": dealers[i], "vulnerable": None, "deal": _deal(d)}
        for i, d in enumerate(deals)
    ]
    expected = [b["deal"] for b in boards]
    source = read_board_file(_json_file(boards).encode(), "json", strict=True, partial=True)
    assert _deals_of(source.records) == expected
    for a in HOLD_PARTIAL:
        first = read_board_file(render_records(source.records, a), a, strict=True, partial=True)
        for b in HOLD_PARTIAL:
            back = read_board_file(render_records(first.records, b), b, partial=True)
            assert back.skipped == [] and _deals_of(back.records) == expected, (a, b)
            if "lines" not in (a, b):
                assert [r.dealer for r in back.records] == dealers[: len(deals)]
                assert [r.number for r in back.records] == [None] * len(deals)


def test_pbn_and_lin_written_by_convert_read_in_endplay(cli: CliRunner, tmp_path: Path) -> None:
    source = _write(tmp_path, "club.pbn", PBN_TEXT)
    for fmt, parser in (("pbn", endplay_pbn), ("lin", endplay_lin)):
        out = tmp_path / f"out.{fmt}"
        assert cli(["convert", str(source), str(out)]).code == 0
        theirs = parser.loads(out.read_text(encoding="utf-8"))
        assert [str(t.deal.to_pbn()) for t in theirs] == PBN_DEALS
        assert [t.board_num for t in theirs] == [1, 2, 3, 4]
        assert [t.dealer for t in theirs] == [Player.north, Player.east, Player.south, Player.west]
        assert [t.vul for t in theirs] == [Vul.none, Vul.ns, Vul.ew, Vul.both]


# -------------------------------------------------------------------------------- the JSON schema
def _hands(deal: str) -> dict[str, list[str]]:
    """The board object's "hands" of a PBN deal string from North, spelled out here."""
    hands = {}
    for seat, hand in zip("NESW", deal.removeprefix("N:").split(" "), strict=True):
        suits = ["", "", "", ""] if hand == "-" else hand.split(".")
        hands[seat] = [
            rank + suit for suit, ranks in zip("SHDC", suits, strict=True) for rank in ranks
        ]
    return hands


def test_json_schema_exactly(cli: CliRunner, tmp_path: Path) -> None:
    # what the file leaves out stays null; the deal starts from North whatever the source did
    rows = [
        ["board", "dealer", "vulnerable", "north", "east", "south", "west"],
        ["", "", "", "AKQJ.T98.765.432", "T98.765.432.AKQJ", "765.432.AKQJ.T98", ""],
        ["7", "w", "Both", "AK...", "", "", "QJ..."],
        ["8", "N", "None", "AS", "", "", ""],  # not a hand: skipped
    ]
    text = io.StringIO()
    csv.writer(text).writerows(rows)
    path = _write(tmp_path, "hands.csv", text.getvalue())
    got = _json_out(cli, [str(path)])
    first = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    assert got == {
        "boards": [
            {
                "board": None,
                "dealer": None,
                "vulnerable": None,
                "deal": first,
                "hands": _hands(first),
            },
            {
                "board": 7,
                "dealer": "W",
                "vulnerable": "All",
                "deal": "N:AK... - - QJ...",
                "hands": {"N": ["AS", "KS"], "E": [], "S": [], "W": ["QS", "JS"]},
            },
        ],
        "skipped": [{"game": 3, "line": 4, "reason": got["skipped"][0]["reason"]}],
    }
    assert "'AS'" in got["skipped"][0]["reason"]
    assert list(got) == ["boards", "skipped"]
    assert [list(b) for b in got["boards"]] == [
        ["board", "dealer", "vulnerable", "deal", "hands"]
    ] * 2


def test_json_deal_starts_from_north(cli: CliRunner, tmp_path: Path) -> None:
    path = _write(tmp_path, "club.pbn", PBN_TEXT)
    got = _json_out(cli, [str(path)])
    assert [b["deal"] for b in got["boards"]] == PBN_DEALS
    assert got["boards"][2] == {
        "board": 3,
        "dealer": "S",
        "vulnerable": "EW",
        "deal": PBN_DEALS[2],
        "hands": _hands(PBN_DEALS[2]),
    }


def test_json_reader_checks_every_value() -> None:
    deal = PBN_DEALS[0]
    elements = [
        {"board": 1, "dealer": "N", "vulnerable": "None", "deal": deal},
        {"board": True, "deal": deal},
        {"board": 1.0, "deal": deal},
        {"board": 1000, "deal": deal},
        {"dealer": "n", "deal": deal},
        {"vulnerable": "Both", "deal": deal},
        {"board": 2},
        ["not", "an", "object"],
        {"deal": "N:AK... - - -"},  # partial: kept only when asked
        {"deal": deal, "hands": _hands(deal), "goedel": "1"},  # other keys are ignored
        {"deal": deal, "hands": {}},  # hands, when given, must be the deal's
        {"deal": deal, "hands": {**_hands(deal), "N": _hands(deal)["E"]}},
    ]
    text = '{"boards": [\n' + ",\n".join(json.dumps(e) for e in elements) + "\n]}"
    contents = read_json_records(text, source="x.json")
    assert [s.game for s in contents.skipped] == [2, 3, 4, 5, 6, 7, 8, 9, 11, 12]
    assert [s.line for s in contents.skipped] == [3, 4, 5, 6, 7, 8, 9, 10, 12, 13]
    assert [r.line for r in contents.records] == [2, 11]
    assert "partial deal" in contents.skipped[-3].reason
    assert '"hands" is an object of the seats' in contents.skipped[-2].reason
    assert '"hands" of N is not the hand "deal" gives it' in contents.skipped[-1].reason
    assert len(read_json_records(text, partial=True).records) == 3
    for bad in ("[1, 2]", '{"boards": 3}', "{", '{"boards": [}'):
        with pytest.raises(FileFormatError, match="not a JSON board file"):
            read_json_records(bad, source="x.json")
    assert read_json_records("").records == []
    huge = read_json_records('{"boards": [{"board": 1' + "0" * 5000 + ', "deal": "N:- - - -"}]}')
    assert "5001 characters" in huge.skipped[0].reason  # refused by length, never int()-ed
    with pytest.raises(FileFormatError, match="nested too deeply"):
        read_json_records("[" * 100_000)


def test_bigdeal_json_output_reads_as_a_board_file(cli: CliRunner, tmp_path: Path) -> None:
    # the --json object of the tournament commands has a "boards" list too
    args = ["bigdeal", "--owner", "test", "--entropy", "hello", "-b", "3"]
    printed = cli([*args, "--json"])
    path = _write(tmp_path, "b.json", printed.out)
    lines = cli([*args, "--format", "lines"]).out.splitlines()
    got = _json_out(cli, [str(path)])
    assert [b["deal"] for b in got["boards"]] == ["N:" + line for line in lines]
    # and --format json is a board file format of the tournament commands
    out = tmp_path / "set.json"
    assert cli([*args, "--format", "json", "--out", str(out)]).code == 0
    assert read_boards(out.read_bytes(), "json") == read_boards(path.read_bytes(), "json")
    assert [b["board"] for b in json.loads(out.read_text())["boards"]] == [1, 2, 3]


# ------------------------------------------------------------------------------- CSV and lines
def test_csv_reader_is_tolerant_of_layout() -> None:
    text = (
        "West , NORTH,Note,east,South\r\n"
        "432.AKQJ.T98.765,AKQJ.T98.765.432,x,T98.765.432.AKQJ,765.432.AKQJ.T98\r\n"
        ",,,,\r\n"
        '"",-,"a\nb",-,-\r\n'
    )
    contents = read_csv_records(text, source="x.csv", partial=True)
    assert _deals_of(contents.records) == [PBN_DEALS[0], "N:- - - -"]
    assert [(r.game, r.line) for r in contents.records] == [(1, 2), (2, 4)]
    with pytest.raises(FileFormatError, match=r"missing CSV column\(s\) \['south'\]"):
        read_csv_records("north,east,west\n", source="x.csv")
    bad = "board,north,east,south,west,goedel\n1,AKQJ.T98.765.432,,,,\n2,-,-,-,-,5\n"
    reasons = [s.reason for s in read_csv_records(bad, partial=True).skipped]
    assert len(reasons) == 1 and "goedel '5'" in reasons[0]


def test_csv_writes_unknowns_as_empty_cells(cli: CliRunner, tmp_path: Path) -> None:
    path = _write(tmp_path, "d.json", _json_file([{"deal": "N:AK... - - QJ..."}]))
    out = cli(["convert", str(path), "-", "--to", "csv", "--lf", "--quiet"]).out
    assert out == ("board,dealer,vulnerable,north,east,south,west,goedel\n,,,AK...,-,-,QJ...,\n")
    crlf = cli(["convert", str(path), "--to", "csv", "--quiet"]).out
    assert crlf.count("\r\n") == 2


def test_line_ends_of_pbn(cli: CliRunner, tmp_path: Path) -> None:
    path = _write(tmp_path, "club.pbn", PBN_TEXT)
    crlf = cli(["convert", str(path), "--to", "pbn", "--quiet"]).out
    lines = crlf.split("\r\n")
    assert lines[:2] == ["% PBN 2.1", "% EXPORT"] and "\n" not in "".join(lines)
    assert '[Deal "S:A2.A2.A2.A765432 KQJT9.KQJT.KQ.KQ 8765.987.J98.J98 43.6543.T76543.T"]' in lines
    lf = cli(["convert", str(path), "--to", "pbn", "--quiet", "--lf"]).out
    assert "\r" not in lf and lf.split("\n") == lines


def test_lines_reader() -> None:
    text = "\n" + PBN_DEALS[0][2:] + "\nE:" + PBN_DEALS[1][2:] + "\nnot a deal\n"
    contents = read_lines_records(text, source="x.txt")
    assert [(r.game, r.line) for r in contents.records] == [(1, 2), (2, 3)]
    assert (
        contents.records[1].deal
        == "N:...AKQJT98765432 AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432."
    )
    assert [(s.game, s.line) for s in contents.skipped] == [(3, 4)]
    assert [r.number for r in contents.records] == [None, None]
    with pytest.raises(FileFormatError, match="not a file of one deal per line"):
        read_lines_records("<html>\n<body>\n", source="x.txt")


# ------------------------------------------------------------------------- standard streams
def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


def test_stdin_to_stdout(cli: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    _stdin(monkeypatch, PBN_TEXT.encode())
    result = cli(["convert", "-", "--from", "pbn", "--to", "lines"])
    assert result.code == 0, result.err
    assert result.out.splitlines() == [d[2:] for d in PBN_DEALS]
    assert result.err == "read 4 boards from <stdin>; wrote standard output (lines)\n"
    _stdin(monkeypatch, "\n".join(d[2:] for d in PBN_DEALS).encode())
    result = cli(["convert", "-", "-", "--from", "lines", "--to", "csv"])
    rows = list(csv.reader(io.StringIO(result.out)))
    assert [" ".join(r[3:7]) for r in rows[1:]] == [d[2:] for d in PBN_DEALS]


def test_standard_streams_need_a_format(cli: CliRunner, tmp_path: Path) -> None:
    path = _write(tmp_path, "club.pbn", PBN_TEXT)
    result = cli(["convert", str(path)])
    assert result.code == 2 and "--to" in result.err and result.out == ""
    result = cli(["convert", "-", "x.pbn"])
    assert result.code == 2 and "--from" in result.err


def test_dup_is_not_written_to_a_terminal(
    cli: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _write(tmp_path, "club.pbn", PBN_TEXT)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    result = cli(["convert", str(path), "--to", "dup"])
    assert result.code == 2 and "binary" in result.err and result.out == ""


# --------------------------------------------------------------------- skipped games, --strict
BAD_LINES_TEXT = PBN_DEALS[0][2:] + "\n" + "".join(f"bad deal {i}\n" for i in range(13))


def test_skipped_games_are_reported_and_capped(cli: CliRunner, tmp_path: Path) -> None:
    path = _write(tmp_path, "some.txt", BAD_LINES_TEXT)
    out = tmp_path / "some.csv"
    result = cli(["convert", str(path), str(out)])
    assert result.code == 0
    lines = result.err.splitlines()
    assert len(lines) == MAX_SKIP_LINES + 2
    assert lines[0].startswith(f"warning: {path} line 2 (game 2) skipped: ")
    assert lines[MAX_SKIP_LINES] == f"warning: {13 - MAX_SKIP_LINES} more games skipped"
    assert lines[-1] == f"read 1 board from {path} (13 games skipped); wrote {out}"
    assert len(out.read_text().splitlines()) == 2
    quiet = cli(["convert", str(path), "--to", "json", "--quiet"])
    assert quiet.code == 0 and quiet.err == ""  # --quiet: no warning and no summary line
    skipped = json.loads(quiet.out)["skipped"]
    assert [(s["game"], s["line"]) for s in skipped] == [(g, g) for g in range(2, 15)]


def test_strict_refuses_any_skip(cli: CliRunner, tmp_path: Path) -> None:
    path = _write(tmp_path, "some.txt", BAD_LINES_TEXT)
    out = tmp_path / "some.pbn"
    result = cli(["convert", str(path), str(out), "--strict"])
    assert result.code == 2 and not out.exists() and result.out == ""
    assert result.err.startswith(f"error: {path} line 2 (game 2): ")
    assert len(result.err.splitlines()) == 1
    good = _write(tmp_path, "good.txt", PBN_DEALS[0][2:] + "\n")
    assert cli(["convert", str(good), str(out), "--strict"]).code == 0


def test_json_report(cli: CliRunner, tmp_path: Path) -> None:
    path = _write(tmp_path, "some.txt", BAD_LINES_TEXT)
    out = tmp_path / "some.lin"
    result = cli(["convert", str(path), str(out), "--json"])
    assert result.code == 0 and result.err == ""
    doc = json.loads(result.out)
    assert doc["command"] == "convert" and doc["source"] is None and doc["reproducible"] is True
    report = doc["result"]
    assert report["input"] == str(path) and report["output"] == str(out)
    assert (report["from"], report["to"], report["read"], report["written"]) == (
        "lines",
        "lin",
        1,
        1,
    )
    assert (report["partial"], report["repeats"], report["warnings"]) == (0, 0, [])
    assert len(report["skipped"]) == 13
    refused = cli(["convert", str(path), "--to", "lin", "--json"])
    assert refused.code == 2 and refused.out == ""


# ------------------------------------------------------------------------ numbering, DUP, DLM
def test_renumber_fills_only_what_the_file_left_out(cli: CliRunner, tmp_path: Path) -> None:
    boards = [
        {"board": 7, "dealer": "W", "vulnerable": None, "deal": PBN_DEALS[0]},
        {"board": None, "dealer": None, "vulnerable": "All", "deal": PBN_DEALS[1]},
    ]
    path = _write(tmp_path, "x.json", _json_file(boards))
    got = _json_out(cli, [str(path), "--first-board", "17"])
    assert [(b["board"], b["dealer"], b["vulnerable"]) for b in got["boards"]] == [
        (17, "W", "None"),
        (18, "E", "All"),
    ]
    got = _json_out(cli, [str(path), "--renumber"])
    assert [(b["board"], b["dealer"], b["vulnerable"]) for b in got["boards"]] == [
        (1, "W", "None"),
        (2, "E", "All"),
    ]
    result = cli(["convert", str(path), "--to", "json", "--first-board", "999"])
    assert result.code == 2 and "board 1000" in result.err


def test_dup_and_dlm_need_numbered_complete_boards(cli: CliRunner, tmp_path: Path) -> None:
    gap = [{"board": n, "deal": PBN_DEALS[0]} for n in (1, 3)]
    path = _write(tmp_path, "gap.json", _json_file(gap))
    for fmt in ("dup", "dlm"):
        out = tmp_path / f"gap.{fmt}"
        result = cli(["convert", str(path), str(out)])
        assert result.code == 2 and not out.exists()
        assert "board 3 follows board 1" in result.err and "--renumber" in result.err
        assert cli(["convert", str(path), str(out), "--renumber"]).code == 0
        back = read_board_file(out.read_bytes(), fmt, strict=True)
        assert [r.number for r in back.records] == [1, 2]
    lines = _write(tmp_path, "x.txt", PBN_DEALS[0][2:] + "\n")
    result = cli(["convert", str(lines), str(tmp_path / "x.dup")])
    assert result.code == 2 and "no board number" in result.err
    partial = _write(tmp_path, "p.json", _json_file([{"board": 5, "deal": "N:AK... - - -"}]))
    result = cli(["convert", str(partial), str(tmp_path / "p.dlm")])
    assert result.code == 2 and "board 5" in result.err and "partial deal" in result.err
    assert not (tmp_path / "p.dlm").exists()
    empty = _write(tmp_path, "empty.pbn", "")
    for target in ("empty.dup", "empty.json"):
        result = cli(["convert", str(empty), str(tmp_path / target)])
        assert result.code == 2 and "no boards to convert" in result.err
        assert not (tmp_path / target).exists()


# ----------------------------------------------------------------------------------- errors
def test_errors_are_one_line_and_write_nothing(cli: CliRunner, tmp_path: Path) -> None:
    source = _write(tmp_path, "club.pbn", PBN_TEXT)
    existing = _write(tmp_path, "old.lin", "keep me\n")
    cases = [
        (["--to", "xml"], "unknown format 'xml'"),
        (["--from", "html", "--to", "pbn"], "unknown format 'html'"),
    ]
    for extra, needle in cases:
        result = cli(["convert", str(source), *extra])
        assert result.code == 2 and needle in result.err, result.err
    checks = [
        (["convert", str(tmp_path / "missing.pbn"), "--to", "lin"], "no such file"),
        (["convert", str(tmp_path), "--from", "pbn", "--to", "lin"], "folder"),
        (["convert", str(source), str(tmp_path / "out.doc")], "give --to"),
        (["convert", str(tmp_path / "in.doc"), "--to", "lin"], "give --from"),
        (["convert", str(source), str(existing)], "already exists"),
        (["convert", str(source), str(source), "--overwrite"], "same file"),
        (["convert", str(source), str(tmp_path / "no" / "x.lin")], "does not exist"),
    ]
    for args, needle in checks:
        result = cli(args)
        assert result.code == 2 and needle in result.err, (args, result.err)
        assert len(result.err.splitlines()) == 1 and result.out == ""
    assert existing.read_text() == "keep me\n"
    assert source.read_text() == PBN_TEXT
    link = tmp_path / "link.pbn"
    os.link(source, link)  # another name of the same file is the same file
    result = cli(["convert", str(source), str(link), "--overwrite"])
    assert result.code == 2 and "same file" in result.err
    assert cli(["convert", str(source), str(existing), "--overwrite", "--quiet"]).code == 0
    assert "md|" in existing.read_text()


def test_not_a_board_file(cli: CliRunner, tmp_path: Path) -> None:
    page = _write(tmp_path, "page.json", "<html><body>no boards</body></html>")
    result = cli(["convert", str(page), "--to", "pbn"])
    assert result.code == 2 and "not a JSON board file" in result.err
    with tempfile.TemporaryDirectory() as folder:
        junk = _write(Path(folder), "junk.csv", "a,b\n1,2\n")
        result = cli(["convert", str(junk), "--to", "pbn"])
        assert result.code == 2 and "missing CSV column" in result.err


# Hand-written LIN of a match: boards 1 and 2, each played in the open and the closed room.
ROOMS_LIN = """\
qx|o1|md|3S765H432DAKQJCT98,S432HAKQJDT98C765,SAKQJHT98D765C432,ST98H765D432CAKQJ|sv|o|pg||
qx|c1|md|3S765H432DAKQJCT98,S432HAKQJDT98C765,SAKQJHT98D765C432,ST98H765D432CAKQJ|sv|o|pg||
qx|o2|md|4SHDAKQJT98765432C,SHDCAKQJT98765432,SAKQJT98765432HDC,SHAKQJT98765432DC|sv|n|pg||
qx|c2|md|4SHDAKQJT98765432C,SHDCAKQJT98765432,SAKQJT98765432HDC,SHAKQJT98765432DC|sv|n|pg||
"""


def test_a_board_played_in_two_rooms_is_written_once(cli: CliRunner, tmp_path: Path) -> None:
    path = _write(tmp_path, "match.lin", ROOMS_LIN)
    out = tmp_path / "match.dup"
    result = cli(["convert", str(path), str(out)])
    assert result.code == 0, result.err
    assert result.err == f"read 4 boards from {path} (2 repeated boards left out); wrote {out}\n"
    back = read_board_file(out.read_bytes(), "dup", strict=True)
    assert [r.number for r in back.records] == [1, 2]
    assert _deals_of(back.records) == PBN_DEALS[:2]
    got = _json_out(cli, [str(path)])
    assert [(b["board"], b["dealer"], b["vulnerable"]) for b in got["boards"]] == [
        (1, "N", "None"),
        (2, "E", "NS"),
    ]


def test_dup_warns_of_a_dealer_it_cannot_hold(cli: CliRunner, tmp_path: Path) -> None:
    boards = [{"board": 1, "dealer": "W", "vulnerable": "All", "deal": PBN_DEALS[0]}]
    path = _write(tmp_path, "odd.json", _json_file(boards))
    out = tmp_path / "odd.dup"
    result = cli(["convert", str(path), str(out)])
    assert result.code == 0 and out.exists()
    assert result.err.splitlines()[0] == (
        f"warning: board 1 of {path}: dealer W and vulnerability All not written; "
        "a DUP file gives board 1 dealer N, vulnerability None"
    )
    quiet = cli(["convert", str(path), str(tmp_path / "quiet.dup"), "--quiet"])
    assert quiet.code == 0 and quiet.err == "" and (tmp_path / "quiet.dup").exists()


def test_oversized_input_is_refused_unread(
    cli: CliRunner, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import croupier.cli.convert_cmd as convert_cmd

    monkeypatch.setattr(convert_cmd, "MAX_BOARD_FILE_BYTES", 100)
    path = _write(tmp_path, "big.txt", PBN_DEALS[0][2:] + "\n" + " " * 100)
    result = cli(["convert", str(path), "--to", "json"])
    assert result.code == 2 and "larger than" in result.err
    _stdin(monkeypatch, b" " * 101)
    result = cli(["convert", "-", "--from", "lines", "--to", "json"])
    assert result.code == 2 and "standard input is larger than" in result.err


SEED_FILES = {
    "json": _json_file([{"board": 1, "dealer": "N", "vulnerable": "None", "deal": PBN_DEALS[0]}]),
    "csv": "board,dealer,vulnerable,north,east,south,west\n1,N,None,"
    + ",".join(PBN_DEALS[0][2:].split())
    + "\n",
    "lines": PBN_DEALS[0][2:] + "\n",
}


@settings(max_examples=150)
@given(st.sampled_from(sorted(SEED_FILES)), st.data())
def test_readers_accept_or_refuse_cleanly(fmt: str, data: st.DataObject) -> None:
    # any edit of a good file is read (maybe with skipped games) or refused with one line
    seed = SEED_FILES[fmt]
    start = data.draw(st.integers(0, len(seed)))
    stop = data.draw(st.integers(start, min(len(seed), start + 8)))
    text = seed[:start] + data.draw(st.text(max_size=8)) + seed[stop:]
    for partial in (False, True):
        try:
            contents = read_board_file(text.encode("utf-8", "surrogatepass"), fmt, partial=partial)
        except FileFormatError as exc:
            assert "\n" not in str(exc)
            continue
        for r in contents.records:
            assert partial or r.complete
        for skip in contents.skipped:
            assert skip.game >= 1 and skip.line >= 1 and "\n" not in skip.reason
