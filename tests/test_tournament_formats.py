"""Board files: PBN (read back by endplay), LIN, DUP, DLM, CSV, lines, HTML."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from endplay.parsers import lin as endplay_lin
from endplay.parsers import pbn as endplay_pbn
from endplay.types import Player, Vul
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.boards import Board, BoardRangeError
from croupier.errors import FileFormatError
from croupier.formats.board_csv import (
    format_board_csv,
    format_board_lines,
    parse_board_csv,
    parse_board_lines,
)
from croupier.formats.board_files import (
    MAX_BOARD_FILE_BYTES,
    format_for_path,
    read_boards,
    render_boards,
)
from croupier.formats.dlm import dlm_check_number, format_dlm_file, parse_dlm_file
from croupier.formats.dup import DUP_SUIT_BYTES, format_dup_file, parse_dup_file
from croupier.formats.hand_record_html import format_hand_record_html
from croupier.formats.lin import format_lin_file, parse_lin_file
from croupier.formats.pbn import format_pbn_file, parse_pbn_file
from croupier.formats.pbn_deal import format_pbn_deal, format_pbn_hand
from croupier.ranking.bigdeal import GOEDEL_MAX, goedel_unrank
from croupier.tournament.bigdeal import bigdeal_boards, seed_from_entropy
from tests.conftest import VECTORS, CliRunner

BOARDS = bigdeal_boards(seed_from_entropy(["formats"]), "croupier", range(1, 21))
_SEAT = {"N": Player.north, "E": Player.east, "S": Player.south, "W": Player.west}
_VUL = {"None": Vul.none, "NS": Vul.ns, "EW": Vul.ew, "All": Vul.both}


def _endplay_deal_string(deal: object) -> str:
    return str(deal.to_pbn())  # type: ignore[attr-defined]


# Deals with many voids too: Gödel 0 and D - 1 give every hand a single suit.
ENDPLAY_BOARDS = [
    *BOARDS,
    Board.standard(21, goedel_unrank(0)),
    Board.standard(22, goedel_unrank(GOEDEL_MAX - 1)),
]


def _assert_endplay_agrees(parsed: list[Any], boards: list[Board]) -> None:
    assert len(parsed) == len(boards)
    for ours, theirs in zip(boards, parsed, strict=True):
        assert theirs.board_num == ours.number
        assert theirs.dealer == _SEAT[ours.dealer]
        assert theirs.vul == _VUL[ours.vulnerable]
        assert _endplay_deal_string(theirs.deal) == format_pbn_deal(ours.hands)


def test_pbn_parses_in_endplay_to_the_same_deals() -> None:
    text = format_pbn_file(ENDPLAY_BOARDS, generator="croupier test")
    _assert_endplay_agrees(endplay_pbn.load(io.StringIO(text)), ENDPLAY_BOARDS)


def test_lin_parses_in_endplay_to_the_same_deals() -> None:
    text = format_lin_file(ENDPLAY_BOARDS)
    _assert_endplay_agrees(endplay_lin.load(io.StringIO(text)), ENDPLAY_BOARDS)


def test_cli_files_parse_in_endplay(cli: CliRunner, tmp_path: Path) -> None:
    # What the command line writes (not just the library functions) reads the same in endplay.
    expected = bigdeal_boards(seed_from_entropy(["hello"]), "test", range(17, 33))
    for fmt, parser in (("pbn", endplay_pbn), ("lin", endplay_lin)):
        out = tmp_path / f"set.{fmt}"
        args = ["bigdeal", "--owner", "test", "--entropy", "hello", "-b", "17-32", "-f", fmt]
        assert cli([*args, "-o", str(out)]).code == 0
        with out.open(encoding="utf-8") as handle:
            _assert_endplay_agrees(parser.load(handle), expected)


def test_lin_written_by_endplay_reads_back() -> None:
    text = format_lin_file(BOARDS[:4])
    boards = endplay_lin.load(io.StringIO(text))
    again = endplay_lin.dumps(boards)
    assert [b.hands for b in parse_lin_file(again)] == [b.hands for b in BOARDS[:4]]


def test_pbn_round_trip_and_big_deal_files() -> None:
    assert parse_pbn_file(format_pbn_file(BOARDS)) == BOARDS
    one = parse_pbn_file((VECTORS / "bigdeal" / "ONE.pbn").read_text())
    assert [b.number for b in one] == [5, 6, 7, 8, 9]
    assert one[0].vulnerable == "NS" and one[3].dealer == "W"


def test_pbn_import_reads_comments_sections_and_escapes() -> None:
    text = (
        "% PBN 2.1\n; a comment\n"
        '[Event "The \\"Cup\\""] {a {brace} comment}\n[Board "7"]\n'
        '[Dealer "?"]\n[Vulnerable "Both"]\n'
        f'[Deal "E:{format_pbn_deal(BOARDS[0].hands, first="E")[2:]}"]\n'
        '[Auction "N"]\n1NT Pass 3NT AP\n{ multi\nline comment }\n\n'
        '[Board "8"]\n[Event "no deal"]\n'
    )
    boards = parse_pbn_file(text, source="x.pbn")
    assert len(boards) == 1
    assert boards[0].hands == BOARDS[0].hands
    assert (boards[0].number, boards[0].dealer, boards[0].vulnerable) == (7, "S", "All")


FULL = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. -"


def test_pbn_games_without_blank_lines_are_not_merged() -> None:
    text = format_pbn_file(BOARDS[:3]).replace("\r\n\r\n", "\r\n")
    assert "\r\n\r\n" not in text and text.count("[Deal ") == 3
    assert parse_pbn_file(text) == BOARDS[:3]


def test_csv_rows_with_missing_cells() -> None:
    row = format_board_csv(BOARDS[:1]).splitlines()[1].split(",")
    short = "board,north,east,south,west\r\n" + ",".join(row[:1] + row[3:6]) + "\r\n"
    assert parse_board_csv(short)[0].hands == BOARDS[0].hands  # West completed
    with pytest.raises(FileFormatError, match="line 2: bad PBN hand"):
        parse_board_csv("board,north,east,south,west\n1,AKQ\n")
    with pytest.raises(FileFormatError, match="board '' is not a board number"):
        parse_board_csv("board,north,east,south,west\n,,,,\n")


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        (
            '[Board "1"]\n[Deal "N:AKQ"]\n',
            "x.pbn line 1 (game 1): board 1: bad Deal tag: PBN deal 'N:AKQ' has 1 hands",
        ),
        (f'[Board "1"]\n[Dealer "Q"]\n[Deal "{FULL}"]\n', "bad Dealer 'Q'"),
        ('[Board "one"]\n[Deal "N:- - - -"]\n', "Board tag 'one' is not a board number"),
        (f'[Board "1"]\n[Vulnerable "Red"]\n[Deal "{FULL}"]\n', "bad Vulnerable 'Red'"),
        ('\n[Board "1"\n', "x.pbn: not a PBN file: line 2: malformed tag"),
    ],
)
def test_pbn_import_errors(text: str, needle: str) -> None:
    with pytest.raises(FileFormatError) as info:
        parse_pbn_file(text, source="x.pbn")
    assert needle in str(info.value) and "\n" not in str(info.value)


def test_pbn_export_escapes_tag_values() -> None:
    text = format_pbn_file(BOARDS[:1], generator='say "hi" \\o/')
    assert '[Generator "say \\"hi\\" \\\\o/"]' in text
    assert endplay_pbn.loads(text)[0].board_num == 1


# --- DUP -------------------------------------------------------------------------------------
# The worked example of Duplimate's conversion notes (one board).
PUBLISHED_BRI = (
    "18043727240822422106250717",
    "51503215164929412640314645",
    "43351128302039140152133403",
)
PUBLISHED_DGE = ("♠J987♥JT7643♦A4♣Q", "♠♥KQ2♦QT9♣AK98543", "♠AQ42♥A8♦KJ762♣J2", "♠KT653♥95♦853♣T76")


def _dge_bytes(text: str) -> bytes:
    table = dict(zip("♠♥♦♣", DUP_SUIT_BYTES, strict=True))
    return bytes(table[ch] if ch in table else ord(ch) for ch in text)


def test_dup_reads_the_published_example() -> None:
    record = "".join(PUBLISHED_BRI).encode() + b"".join(_dge_bytes(h) for h in PUBLISHED_DGE)
    record += b"YN1  1 32 "
    assert len(record) == 156
    (board,) = parse_dup_file(record)
    expected = [
        "".join(h).replace("♥", ".").replace("♦", ".").replace("♣", ".")[1:] for h in PUBLISHED_DGE
    ]
    assert [format_pbn_hand(h) for h in board.hands] == expected
    # and writes it back: same DGE bytes, same BRI cards (croupier sorts them)
    ours = format_dup_file([board])
    assert ours[78:146] == record[78:146]
    for k, bri in enumerate(PUBLISHED_BRI):
        chunk = ours[26 * k : 26 * (k + 1)].decode()
        assert sorted(chunk[i : i + 2] for i in range(0, 26, 2)) == sorted(
            bri[i : i + 2] for i in range(0, 26, 2)
        )
    assert ours[146:] == b"YN1  1 1  "


def test_dup_round_trip_and_trailer() -> None:
    data = format_dup_file(BOARDS[:16])
    assert len(data) == 16 * 156
    assert data[146:156] == b"YN1  1 16 "
    assert parse_dup_file(data) == BOARDS[:16]
    later = bigdeal_boards(seed_from_entropy(["x"]), "o", range(17, 33))
    assert format_dup_file(later)[146:156] == b"YN17 1 32 "
    assert parse_dup_file(format_dup_file(later)) == later


def test_dup_errors() -> None:
    with pytest.raises(BoardRangeError, match="consecutive"):
        format_dup_file([BOARDS[0], BOARDS[2]])
    with pytest.raises(BoardRangeError, match="at least one board"):
        format_dup_file([])
    with pytest.raises(FileFormatError, match="whole number"):
        parse_dup_file(b"123")
    bad = bytearray(format_dup_file(BOARDS[:1]))
    bad[80] = ord("2") if bad[80] != ord("2") else ord("3")  # DGE no longer matches BRI
    with pytest.raises(FileFormatError):
        parse_dup_file(bytes(bad))


# --- DLM -------------------------------------------------------------------------------------
# Board lines published in discussions of the format (both board 1).
PUBLISHED_DLM = ["jlifaelnecgmoldfjmcflinlap023", "cgcajjjnakpkchipnjhmbmbpbh022"]


@pytest.mark.parametrize("line", PUBLISHED_DLM)
def test_dlm_published_lines(line: str) -> None:
    letters, check = line[:26], int(line[26:])
    assert dlm_check_number(letters, 1) == check
    (board,) = parse_dlm_file(f"[Document]\r\nBoard 01={line}\r\n")
    assert sorted(len(h) for h in board.hands) == [13] * 4
    assert f"\r\nBoard 01={line}\r\n" in format_dlm_file([board])


def test_dlm_published_decoding() -> None:
    # "j l i f" was published as SE SW SN EE: pairs of cards SA SK, SQ SJ, ST S9, S8 S7.
    (board,) = parse_dlm_file(f"[Document]\nBoard 01={PUBLISHED_DLM[0]}\n")
    seat = {c.code: "NESW"[i] for i, h in enumerate(board.hands) for c in h}
    assert [seat[c] for c in ("AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S")] == list("SESWSNEE")


def test_dlm_round_trip_and_errors() -> None:
    text = format_dlm_file(BOARDS)
    assert "\r\nFrom board=1\r\nTo board=20\r\n" in text
    assert parse_dlm_file(text) == BOARDS
    with pytest.raises(FileFormatError, match="line 2"):
        parse_dlm_file("[Document]\nBoard 01=xyz\n")
    with pytest.raises(FileFormatError, match="13 cards"):
        parse_dlm_file("[Document]\nBoard 01=" + "a" * 26 + "000\n")
    with pytest.raises(FileFormatError, match="not a DLM file"):
        parse_dlm_file("[Other]\nBoard 01=" + "a" * 26 + "\n")


# --- CSV, lines, HTML ------------------------------------------------------------------------
def test_csv_and_lines_round_trip() -> None:
    assert parse_board_csv(format_board_csv(BOARDS)) == BOARDS
    assert parse_board_lines(format_board_lines(BOARDS)) == BOARDS
    row = format_board_csv(BOARDS[:1]).splitlines()[1].split(",")
    assert row[:3] == ["1", "N", "None"] and int(row[7]) == BOARDS[0].goedel


def test_csv_errors() -> None:
    with pytest.raises(FileFormatError, match="missing CSV column"):
        parse_board_csv("board,north\n1,x\n")
    text = format_board_csv(BOARDS[:1]).replace(str(BOARDS[0].goedel), "12345")
    with pytest.raises(FileFormatError, match="does not match"):
        parse_board_csv(text, source="t.csv")


def test_lines_match_big_deal_allpbn_layout() -> None:
    line = format_board_lines(BOARDS[:1]).strip()
    assert "N:" + line == format_pbn_deal(BOARDS[0].hands)


def test_hand_record_html() -> None:
    page = format_hand_record_html(BOARDS, title="Club <night>", per_page=6)
    assert page.count('<section class="board"') == 20
    assert page.count('<div class="page">') == 4
    assert page.count("<h1>Club &lt;night&gt;</h1>") == 1 and "<night>" not in page
    assert page.count('<p class="running"><bdi>Club &lt;night&gt;</bdi> · Boards ') == 4
    assert '<span class="red">♥</span>' in page and '<span class="black">♠</span>' in page
    assert "Dealer North" in page and "Vul E-W" in page
    assert 'id="board-17"' in page
    # every card of board 1 is printed in its suit row
    for seat_hand in BOARDS[0].hands:
        spades = format_pbn_hand(seat_hand).split(".")[0]
        shown = " ".join("10" if r == "T" else r for r in spades) or "—"
        assert f'<span class="black">♠</span> {shown}' in page


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=GOEDEL_MAX - 1), min_size=1, max_size=5))
def test_every_format_round_trips(numbers: list[int]) -> None:
    boards = [Board.standard(i + 1, goedel_unrank(g)) for i, g in enumerate(numbers)]
    for fmt in ("pbn", "lin", "dup", "dlm", "csv", "lines"):
        assert read_boards(render_boards(boards, fmt), fmt) == boards, fmt


def test_lin_reads_sv_zero_and_rejects_unknown_codes() -> None:
    line = format_lin_file(BOARDS[:1]).replace("|sv|o|", "|sv|0|")
    assert parse_lin_file(line)[0].vulnerable == "None"
    with pytest.raises(FileFormatError, match="bad sv 'x'"):
        parse_lin_file(line.replace("|sv|0|", "|sv|x|"))


def test_pbn_in_latin_1_is_read() -> None:
    # PBN 2.1's character set is ISO 8859-1: an Event tag with an accent must not stop a reader.
    text = format_pbn_file(BOARDS[:2], event="Coupe d'Été")
    assert read_boards(text.encode("latin-1"), "pbn") == BOARDS[:2]
    with pytest.raises(FileFormatError, match="not UTF-8"):
        read_boards("é".encode("latin-1"), "lines", source="x.txt")


def test_lines_are_numbered_from_first_board() -> None:
    data = render_boards(BOARDS[:3], "lines")
    boards = read_boards(data, "lines", first_board=17)
    assert [b.number for b in boards] == [17, 18, 19]
    assert [b.hands for b in boards] == [b.hands for b in BOARDS[:3]]
    assert [b.vulnerable for b in boards] == ["None", "NS", "EW"]


@pytest.mark.parametrize(
    ("data", "fmt", "needle"),
    [
        (b"[Document]\nBoard 00=aaaaaabffffffkkkkkklpppppp000\n", "dlm", "x.f line 2: bad board"),
        (
            format_lin_file(BOARDS[:1]).replace("Board 1|", "Board 1000|").encode(),
            "lin",
            "x.f line 1: board label 'Board 1000' holds no board number 1..999",
        ),
        ('[Board "\u00b2"]\n[Deal "N:- - - -"]\n'.encode(), "pbn", "is not a board number"),
        ('[Board "\u0663"]\n[Deal "N:- - - -"]\n'.encode(), "pbn", "is not a board number"),
        # numbers past Python's 4,300-digit int() guard: refused by length, quoted short
        (('[Board "' + "9" * 5000 + '"]\n[Deal "N:- - - -"]\n').encode(), "pbn", "5000 char"),
        (
            format_lin_file(BOARDS[:1]).replace("Board 1|", f"Board {'7' * 5000}|").encode(),
            "lin",
            "x.f line 1: board label .* holds no board number",
        ),
        (
            f"[Document]\nBoard {'1' * 5000}=aaaaaabffffffkkkkkklpppppp000\n".encode(),
            "dlm",
            "x.f line 2: bad board line",
        ),
        (("board,north,east,south,west\n" + "9" * 5000 + ",-,-,-,-\n").encode(), "csv", "5000"),
        ("board,north,east,south,west\n\u00b2,-,-,-,-\n".encode(), "csv", "not a board number"),
    ],
)
def test_bad_board_numbers_in_files(data: bytes, fmt: str, needle: str) -> None:
    with pytest.raises(FileFormatError, match=needle) as caught:
        read_boards(data, fmt, source="x.f")
    assert len(str(caught.value)) < 200 and "\n" not in str(caught.value)


def test_csv_with_cr_line_ends_and_oversized_fields() -> None:
    # CR-only line ends (old Mac files) read like CRLF ones; the csv module's own errors
    # (a field over its size limit) become one-line FileFormatErrors.
    text = format_board_csv(BOARDS[:3])
    assert parse_board_csv(text.replace("\r\n", "\r")) == BOARDS[:3]
    assert parse_board_csv(text.replace("\r\n", "\n")) == BOARDS[:3]
    huge = text + '4,"' + "A" * 200_000 + '",-,-,-\r\n'
    with pytest.raises(FileFormatError, match=r"^x.csv line \d+: bad CSV: field larger") as caught:
        parse_board_csv(huge, source="x.csv")
    assert len(str(caught.value)) < 200


def test_messages_quote_bad_input_short() -> None:
    # A long malformed line or deal is quoted as a short escaped excerpt, never whole.
    long_tag = "[" + "x\x00" * 5000 + "\n"
    with pytest.raises(FileFormatError, match=r"malformed tag '\[x\\x00.*\.\.\. \(10001") as c:
        parse_pbn_file(long_tag, source="a.pbn")
    assert len(str(c.value)) < 200
    long_deal = '[Board "1"]\n[Deal "N:' + "A" * 10_000 + '"]\n'
    with pytest.raises(FileFormatError) as c:
        parse_pbn_file(long_deal, source="a.pbn")
    assert len(str(c.value)) < 300
    with pytest.raises(FileFormatError) as c:
        parse_lin_file("md|3" + "S" * 10_000 + ",x,y|", source="a.lin")
    assert len(str(c.value)) < 300


def test_format_for_path() -> None:
    assert format_for_path(Path("a/B.LIN")) == "lin"
    with pytest.raises(FileFormatError, match="extension"):
        format_for_path("deals.doc")


def test_cli_bigdeal_formats(cli: CliRunner, tmp_path: Path) -> None:
    for fmt in ("pbn", "lin", "dup", "dlm", "csv", "lines", "html"):
        out = tmp_path / f"d.{fmt}"
        r = cli(
            [
                "bigdeal",
                "--owner",
                "test",
                "--entropy",
                "hello",
                "-b",
                "3",
                "-f",
                fmt,
                "-o",
                str(out),
            ]
        )
        assert r.code == 0, r.err
        if fmt != "html":
            assert [b.goedel is None for b in read_boards(out.read_bytes(), fmt)] == [True] * 3


def test_oversized_board_files_are_refused_unparsed() -> None:
    data = render_boards(BOARDS[:1], "pbn")
    padded = data + b"%" * (MAX_BOARD_FILE_BYTES - len(data))
    assert read_boards(padded, "pbn") == BOARDS[:1]
    with pytest.raises(FileFormatError, match=f"^x.pbn: {MAX_BOARD_FILE_BYTES + 1} bytes"):
        read_boards(padded + b"%", "pbn", source="x.pbn")
