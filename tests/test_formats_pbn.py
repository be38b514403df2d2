"""PBN 2.1 import (tolerant, by the standard's import rules) and export (strict), against endplay.

Expected values come from hand-written files (deals written out by hand or taken from the C
program ``dealer``'s PBN output) and from endplay's PBN parser reading the same content, never
from croupier's own output.
"""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from endplay.parsers import pbn as endplay_pbn
from endplay.types import Player
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.boards import Board
from croupier.cards import Card, parse_cards
from croupier.errors import DealNotationError, FileFormatError
from croupier.formats.board_files import read_board_file, render_boards
from croupier.formats.pbn import (
    format_pbn_file,
    format_pbn_records,
    parse_pbn_file,
    parse_pbn_games,
    read_pbn_records,
)
from croupier.formats.pbn_deal import format_pbn_hand, parse_pbn_deal, parse_pbn_deal_partial
from croupier.formats.records import BoardRecord
from tests.conftest import CliRunner

# Deals written by the C program ``dealer`` (printpbn), and one written by hand.
D1 = "N:2.T98.K752.KJT84 5.J7642.986.9763 AQ8.AQ5.QJT.AQ52 KJT97643.K3.A43."
D2 = "N:Q7432.Q63.983.J4 .J92.QT6.A986532 KJT95.K854.K5.KT A86.AT7.AJ742.Q7"
D3 = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
# D1 and D2 from East, South and West, rotated by hand.
D1_FROM_E = "E:5.J7642.986.9763 AQ8.AQ5.QJT.AQ52 KJT97643.K3.A43. 2.T98.K752.KJT84"
D2_FROM_S = "S:KJT95.K854.K5.KT A86.AT7.AJ742.Q7 Q7432.Q63.983.J4 .J92.QT6.A986532"
D2_FROM_W = "W:A86.AT7.AJ742.Q7 Q7432.Q63.983.J4 .J92.QT6.A986532 KJT95.K854.K5.KT"

SEATS = (Player.north, Player.east, Player.south, Player.west)
_DEALER = {Player.north: "N", Player.east: "E", Player.south: "S", Player.west: "W"}
_VUL = {0: "None", 1: "All", 2: "NS", 3: "EW"}

Facts = tuple[int | None, str | None, str | None, tuple[str, ...]]


def _hands(deal: str) -> tuple[str, ...]:
    """The hands of a hand-written ``N:`` deal string, ``...`` for an unknown hand."""
    assert deal.startswith("N:")
    return tuple("..." if h == "-" else h for h in deal[2:].split())


def _endplay(text: str) -> list[Facts]:
    """Board number, dealer, vulnerability and hands (N, E, S, W) as endplay reads ``text``.

    endplay's parser keeps the ``Dealer`` tag only in a game with a contract; otherwise its
    dealer is the first caller of the ``Auction`` or, without one, the standard dealer of the
    board number.  Files below that show a dealer off the standard cycle to endplay therefore
    give it an ``Auction`` starting with that dealer.
    """
    facts: list[Facts] = []
    for b in endplay_pbn.load(io.StringIO(text)):
        hands = tuple(b.deal[p].to_pbn() for p in SEATS)
        vul = None if b.vul is None else _VUL[int(b.vul)]
        facts.append((b.board_num, _DEALER.get(b.dealer), vul, hands))
    return facts


def _ours(text: str, *, partial: bool = False) -> list[Facts]:
    contents = read_pbn_records(text, source="t.pbn", partial=partial)
    assert contents.skipped == []
    return [
        (r.number, r.dealer, r.vulnerable, tuple(format_pbn_hand(h) for h in r.hands))
        for r in contents.records
    ]


def _game(board: int, dealer: str, vul: str, deal: str) -> str:
    return f'[Board "{board}"]\n[Dealer "{dealer}"]\n[Vulnerable "{vul}"]\n[Deal "{deal}"]\n'


# The canonical file: one tag per line, an empty line between games; endplay reads it.
CANONICAL = "\n".join(
    [
        _game(1, "N", "None", D1),
        _game(2, "E", "NS", D1_FROM_E),
        _game(3, "W", "All", D2_FROM_S) + '[Auction "W"]\nAP\n',  # dealer off the cycle
    ]
)
EXPECTED = [
    (1, "N", "None", _hands(D1)),
    (2, "E", "NS", _hands(D1)),
    (3, "W", "All", _hands(D2)),
]

# The same three games in the free spacing of import format.
SPACED = (
    '[Board"1"][Dealer"N"] [Vulnerable "None"]\n'  # no space after the name; tags share a line
    f'[ Deal  "{D1}" ]\n'  # spaces inside the brackets
    "\t\n"  # a semi-empty line (a tab) ends the game
    '\t[Board\t"2"]\n[Dealer\n "E"]\n'  # tabs; a tag spread over two lines
    '[Vulnerable "NS"\n]\n'
    f'[\nDeal\n"{D1_FROM_E}"\n]\n'  # every token of the tag on its own line
    "   \n"
    f'[Board "3"] [Dealer "w"] [Vulnerable "all"] [Deal "{D2_FROM_S.lower()}"]\n'
)


def test_endplay_reads_the_canonical_file_as_written_by_hand() -> None:
    assert _endplay(CANONICAL) == EXPECTED
    assert _ours(CANONICAL) == EXPECTED


def test_import_spacing_tabs_and_tags_over_lines() -> None:
    assert _ours(SPACED) == _endplay(CANONICAL)


@pytest.mark.parametrize("ends", ["\r\n", "\r", "mixed"])
def test_line_ends(ends: str) -> None:
    if ends == "mixed":
        lines = SPACED.split("\n")
        text = "".join(line + ("\r\n", "\r", "\n")[i % 3] for i, line in enumerate(lines))
    else:
        text = SPACED.replace("\n", ends)
    assert _ours(text) == _endplay(CANONICAL)
    games = read_pbn_records(text).records
    assert [r.line for r in games] == [1, 4, 14]  # lines counted whatever the line ends


@pytest.mark.parametrize(
    "encode",
    [
        lambda t: t.encode("latin-1"),
        lambda t: t.encode("utf-8"),
        lambda t: b"\xef\xbb\xbf" + t.encode("utf-8"),
        lambda t: b"\xef\xbb\xbf" + t.replace("\n", "\r\n").encode("utf-8"),
    ],
    ids=["latin-1", "utf-8", "utf-8-bom", "utf-8-bom-crlf"],
)
def test_character_sets(encode: Any) -> None:
    text = '% PBN 2.1\n[Event "Coupe d\'Été"]\n' + CANONICAL
    contents = read_board_file(encode(text), "pbn", source="t.pbn")
    assert [(r.number, r.dealer, r.vulnerable) for r in contents.records] == [
        e[:3] for e in EXPECTED
    ]
    assert read_pbn_records("\ufeff" + CANONICAL).records[0].line == 1


COMMENTED = (
    "% PBN 2.1\n% EXPORT\n%Content-type: text/x-pbn; charset=ISO-8859-1\n"
    "; a comment line\n"
    '{ a comment before the game [Board "8"]\n\nwith an empty line inside }\n'
    f'[Board "1"] ; [Board "7"] after a semicolon\n[Dealer "N"]\n'
    f'[Vulnerable "None"] {{ [Vulnerable "All"] }}\n[Deal "{D1}"]\n'
    '[Auction "N"]\n1NT =1= Pass 3NT Pass\nPass Pass\n'
    '[Note "1:15-17 [balanced]"]\n'
    '[Declarer "N"]\n[Contract "3NT"]\n[Play "E"]\nS5 S8 S3 S2\n*\n'
    '[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]\n'
    "N NT 9\nS  S 8\n"
    '[ScoreTable "PairId_NS\\2R;Names_NS;Score_NS\\4R"]\n'
    ' 3 "Smith [J.] - Jones ]" 430\n'
    '[Event "The \\"Cup\\" [final]"]\n'
    "\n"
    f"{_game(2, 'E', 'NS', D1_FROM_E)}"
)


def test_comments_escapes_and_sections_are_skipped() -> None:
    expected = [(1, "N", "None", _hands(D1)), (2, "E", "NS", _hands(D1))]
    assert _endplay(COMMENTED) == expected
    assert _ours(COMMENTED) == expected
    first = parse_pbn_games(COMMENTED)[0]
    assert first.tags["Event"] == 'The "Cup" [final]'
    assert first.tags["Note"] == "1:15-17 [balanced]"
    assert first.line == 8


def test_percent_only_in_the_first_column_escapes() -> None:
    text = f' % [Board "5"]\n[Dealer "N"]\n[Deal "{D1}"]\n'
    assert read_pbn_records(text).records[0].number == 5
    assert read_pbn_records("% " + text).records[0].number is None


def test_repeated_tags_are_ignored() -> None:
    # Bridge Bidding Analyser writes [Room "Open"] then [Room "IMP"] in one game.
    text = (
        '[Event "BBA"]\n[Board "3"]\n[Room "Open"]\n[Dealer "S"]\n[Vulnerable "EW"]\n'
        f'[Deal "{D2_FROM_S}"]\n[Room "IMP"]\n[Board "4"]\n[Vulnerable "None"]\n\n'
        '[Board "3"]\n[Room "Closed"]\n[Room "Open"]\n[Dealer "S"]\n[Vulnerable "EW"]\n'
        f'[Deal "{D2_FROM_W}"]\n'
    )
    expected = [(3, "S", "EW", _hands(D2))] * 2
    assert _endplay(text) == expected
    assert _ours(text) == expected
    records = read_pbn_records(text).records
    assert [r.room for r in records] == ["open", "closed"]


def test_games_without_empty_lines_between_them() -> None:
    # PBN separates games by empty lines; a file that leaves them out would read as one
    # game.  A second Deal in a game starts a new game at the first tag repeated after the
    # first Deal, so every deal is read (endplay reads only the first one).
    text = CANONICAL.replace("\n\n", "\n")
    assert len(_endplay(text)) == 1
    assert _ours(text) == EXPECTED
    assert [r.line for r in read_pbn_records(text).records] == [1, 5, 9]
    # Deal first, then the other tags: the game still splits before the repeated tag
    deal_first = f'[Deal "{D1}"]\n[Board "1"]\n[Deal "{D3}"]\n[Board "2"]\n'
    assert [(r.number, r.deal) for r in read_pbn_records(deal_first).records] == [
        (1, D1),
        (2, D3),
    ]


def test_tag_value_inheritance() -> None:
    # "#": the value of the nearest previous game; "##": the value of every later game.
    text = (
        '[Event "##Club night"]\n[Date "##2024.05.01"]\n[Site "Utrecht"]\n\n'
        f'[Board "5"]\n[Site "#"]\n[Room "Open"]\n[Deal "{D1}"]\n\n'
        f'[Board "#"]\n[Room "Closed"]\n[Deal "{D1}"]\n\n'
        f'[Board "#"]\n[Date "2024.05.02"]\n[Event "#"]\n[Deal "{D3}"]\n\n'
        f'[Board "6"]\n[Deal "{D3}"]\n[Annotator "#"]\n'
    )
    games = parse_pbn_games(text)
    assert [g.tags.get("Board") for g in games] == [None, "5", "5", "5", "6"]
    assert [g.tags["Event"] for g in games] == ["Club night"] * 5
    assert [g.tags["Date"] for g in games] == ["2024.05.01"] * 3 + ["2024.05.02"] * 2
    assert games[1].tags["Site"] == "Utrecht" and "Site" not in games[2].tags
    assert games[4].tags["Annotator"] == ""  # nothing to inherit
    assert [r.number for r in read_pbn_records(text).records] == [5, 5, 5, 6]
    # endplay resolves one "#" from the game just before
    two = f'[Board "5"]\n[Deal "{D1}"]\n\n[Board "#"]\n[Deal "{D3}"]\n'
    assert [f[0] for f in _endplay(two)] == [r.number for r in read_pbn_records(two).records]


@pytest.mark.parametrize("tag", ["Dealer", "Vulnerable", "Deal"])
def test_inheritance_is_refused_where_pbn_forbids_it(tag: str) -> None:
    values = {"Dealer": "N", "Vulnerable": "NS", "Deal": D1}
    first = "".join(f'[{k} "{v}"]\n' for k, v in values.items())
    second = "".join(f'[{k} "{"#" if k == tag else v}"]\n' for k, v in values.items())
    contents = read_pbn_records(f'[Board "1"]\n{first}\n[Board "2"]\n{second}')
    assert len(contents.records) == 1
    (skip,) = contents.skipped
    assert (skip.game, skip.line) == (2, 6)
    assert skip.reason == f"board 2: {tag} '#': PBN forbids inheriting ('#', '##') the {tag} tag"


def test_board_zero_is_a_deal_without_a_number() -> None:
    # Bridge Bidding Analyser writes [Board "0"] for a deal outside any set; PBN board numbers
    # are positive, so the deal is kept with no board number (its dealer and vulnerability kept).
    text = f'[Board "0"]\n[Dealer "E"]\n[Vulnerable "All"]\n[Deal "{D1}"]\n'
    contents = read_pbn_records(text)
    assert contents.skipped == []
    (record,) = contents.records
    assert (record.number, record.dealer, record.vulnerable) == (None, "E", "All")
    ((number, _dealer, _vul, hands),) = _endplay(text)
    assert number == 0  # endplay takes any integer; the deal is the same
    assert tuple(format_pbn_hand(h) for h in record.hands) == hands


def test_no_tags_are_mandatory() -> None:
    # Solver and problem files: a Deal and nothing else.
    text = f'[Deal "{D1}"]\n\n[Deal "{D2_FROM_W}"]\n[Dealer "?"]\n[Vulnerable "?"]\n'
    records = read_pbn_records(text).records
    assert [(r.number, r.dealer, r.vulnerable) for r in records] == [(None, None, None)] * 2
    assert [r.deal for r in records] == [D1, D2]
    boards = parse_pbn_file(text)  # strict: numbered by position, standard cycles
    assert [(b.number, b.dealer, b.vulnerable) for b in boards] == [
        (1, "N", "None"),
        (2, "E", "NS"),
    ]
    # endplay agrees: no board number, dealer or vulnerability, the same deals
    plain = text.replace('[Dealer "?"]\n[Vulnerable "?"]\n', "")
    assert _endplay(plain) == [(None, None, None, _hands(D1)), (None, None, None, _hands(D2))]
    assert _ours(plain) == _endplay(plain)


@pytest.mark.parametrize(
    ("spelling", "meaning"),
    [
        ("None", "None"),
        ("Love", "None"),
        ("-", "None"),
        ("NS", "NS"),
        ("ns", "NS"),
        ("EW", "EW"),
        ("All", "All"),
        ("Both", "All"),
        ("both", "All"),
        ("?", None),
        ("", None),
    ],
)
def test_vulnerability_spellings(spelling: str, meaning: str | None) -> None:
    text = f'[Board "1"]\n[Vulnerable "{spelling}"]\n[Deal "{D1}"]\n'
    assert read_pbn_records(text).records[0].vulnerable == meaning
    if spelling not in ("Love", "?", ""):  # spellings endplay knows
        assert _endplay(text)[0][2] == meaning


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (f'[Board "7"]\n[Dealer "Q"]\n[Deal "{D1}"]\n', "board 7: bad Dealer 'Q'; expected N"),
        (f'[Board "7"]\n[Vulnerable "Red"]\n[Deal "{D1}"]\n', "board 7: bad Vulnerable 'Red'"),
        (f'[Board "x7"]\n[Deal "{D1}"]\n', "Board tag 'x7' is not a board number 1..999"),
        (f'[Board "-3"]\n[Deal "{D1}"]\n', "Board tag '-3' is not a board number"),
        ('[Board "7"]\n[Deal "N:AKQ"]\n', "board 7: bad Deal tag: PBN deal 'N:AKQ' has 1 hands"),
        (
            f'[Board "7"]\n[Deal "{D1.replace("2.T98", "A.T98")}"]\n',
            "board 7: bad Deal tag: card 'AS' appears in both N and S",
        ),
        ('[Board "7"]\n[Deal "N:AKQJT98765432.AK.. - - -"]\n', "has 15 cards; a hand holds"),
        (f'[Board "7"]\n[Deal "X:{D1[2:]}"]\n', "board 7: bad Deal tag: bad first seat 'X'"),
        (f'[Board 7]\n[Deal "{D1}"]\n', "malformed tag '[Board 7]'; expected [Name \"value\"]"),
        (f'[Board "7"]\n[Deal "{D1}"] {{ never closed [Board "8"]\n', "never closed"),
    ],
)
def test_a_bad_game_is_skipped_and_reading_goes_on(text: str, reason: str) -> None:
    good = f'[Board "1"]\n[Deal "{D2}"]\n'
    contents = read_pbn_records(f"{good}\n% between\n{text}\n{good}", source="t.pbn")
    bad = next(iter(contents.skipped))
    assert (bad.game, bad.line) == (2, 5) and reason in bad.reason and "\n" not in bad.reason
    expected_records = 1 if "never closed" in reason else 2
    assert [r.deal for r in contents.records] == [D2] * expected_records
    with pytest.raises(FileFormatError, match=r"^t\.pbn line 5 \(game 2\): ") as caught:
        contents.require_all()
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    "text",
    [
        "<html><body><p>results</p></body></html>\n",
        "pn|S,W,N,E|md|3SAKQ,,,|ah|Board 1|sv|o|pg||\n",
        "\x00\x01\x02 binary \x7f\x80\n[",
        "[Board 1]\n[Deal N:- - - -]\n",
    ],
)
def test_not_a_pbn_file(text: str) -> None:
    with pytest.raises(FileFormatError, match=r"^x\.pbn: not a PBN file: line 1: ") as caught:
        read_pbn_records(text, source="x.pbn")
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 200


@pytest.mark.parametrize(
    "text",
    ["", "\n\n", "% PBN 2.1\n% EXPORT\n", "; only a comment\n{ and another }\n", '[Event "x"]\n'],
)
def test_files_without_deals_hold_zero_records(text: str) -> None:
    contents = read_pbn_records(text)
    assert contents.records == [] and contents.skipped == []


# -- partial deals ------------------------------------------------------------------------------
PARTIAL_TWO = "W:KQT2.AT.J6542.85 - A8654.KQ5.T.QJT6 -"  # the standard's own example
END_POSITION = "N:AK.2.. QJ..3. T9...4 87.5.."


def test_partial_deals_are_kept_or_skipped() -> None:
    text = (
        f'[Board "1"]\n[Deal "{PARTIAL_TWO}"]\n\n[Board "2"]\n[Deal "{END_POSITION}"]\n\n'
        f'[Board "3"]\n[Deal "{D3[:-17]} -"]\n'
    )
    kept = _ours(text, partial=True)
    assert [(f[0], f[3]) for f in kept] == [(f[0], f[3]) for f in _endplay(text)[:2]] + [
        (3, _hands(D3))
    ]
    assert kept[0][3] == ("...", "A8654.KQ5.T.QJT6", "...", "KQT2.AT.J6542.85")
    assert kept[1][3] == ("AK.2..", "QJ..3.", "T9...4", "87.5..")
    records = read_pbn_records(text, partial=True).records
    assert [r.complete for r in records] == [False, False, True]
    assert records[0].deal == "N:- A8654.KQ5.T.QJT6 - KQT2.AT.J6542.85"
    strict = read_pbn_records(text)
    assert [r.number for r in strict.records] == [3]  # one "-" of a whole deal is completed
    assert [(s.game, s.line) for s in strict.skipped] == [(1, 1), (2, 4)]
    assert (
        strict.skipped[0].reason
        == "board 1: partial deal: 26 of 52 cards given (N -, E 13, S -, W 13)"
    )
    assert strict.skipped[1].reason.startswith("board 2: partial deal: 12 of 52 cards given")


def test_partial_deal_parsing() -> None:
    assert [len(h) for h in parse_pbn_deal_partial("N:- - - -")] == [0, 0, 0, 0]
    # the strict parser is unchanged
    with pytest.raises(DealNotationError, match="has 2 unknown"):
        parse_pbn_deal(PARTIAL_TWO)
    with pytest.raises(DealNotationError, match="has 3 cards; every hand needs 13"):
        parse_pbn_deal(END_POSITION)
    with pytest.raises(DealNotationError, match="appears in both N and E"):
        parse_pbn_deal_partial("N:A... A... - -")
    full = parse_pbn_deal_partial(f"{D3[:-17]} -")
    assert [c.code for c in full[3]][:2] == ["AC", "KC"]


# -- export ---------------------------------------------------------------------------------------
def _export_game(board: str, dealer: str, vul: str, deal: str, gen: str = "croupier") -> list[str]:
    return [
        '[Event "?"]',
        '[Site "?"]',
        '[Date "?"]',
        f'[Board "{board}"]',
        '[West "?"]',
        '[North "?"]',
        '[East "?"]',
        '[South "?"]',
        f'[Dealer "{dealer}"]',
        f'[Vulnerable "{vul}"]',
        f'[Deal "{deal}"]',
        '[Scoring "?"]',
        '[Declarer "?"]',
        '[Contract "?"]',
        '[Result "?"]',
        f'[Generator "{gen}"]',
        "",
    ]


def _board(number: int, deal: str) -> Board:
    return Board.standard(number, parse_pbn_deal(deal))


def test_export_layout_by_hand() -> None:
    boards = [_board(2, D1), _board(3, D2), _board(4, D2)]
    lines = ["% PBN 2.1", "% EXPORT"]
    lines += _export_game("2", "E", "NS", D1_FROM_E, "g 1")
    lines += _export_game("3", "S", "EW", D2_FROM_S, "g 1")
    lines += _export_game("4", "W", "All", D2_FROM_W, "g 1")
    assert format_pbn_file(boards, generator="g 1") == "\r\n".join(lines) + "\r\n"
    assert format_pbn_file(boards, generator="g 1", newline="\n") == "\n".join(lines) + "\n"
    assert render_boards(boards, "pbn", generator="g 1") == ("\r\n".join(lines) + "\r\n").encode()


def test_export_of_unknown_values() -> None:
    hands = [parse_cards(h) for h in ("AS KS", "", "QH", "")]
    record = BoardRecord(hands)  # type: ignore[arg-type]
    text = format_pbn_records([record], generator="x", event="Cup", date="2024.05.01")
    lines = ["% PBN 2.1", "% EXPORT", *_export_game("?", "?", "?", "N:AK... - .Q.. -", "x")]
    lines[2], lines[4] = '[Event "Cup"]', '[Date "2024.05.01"]'
    assert text == "\r\n".join(lines) + "\r\n"


def test_export_refuses_bad_options() -> None:
    with pytest.raises(FileFormatError, match="style='pgn'; expected one of export, bigdeal"):
        format_pbn_file([], style="pgn")
    with pytest.raises(FileFormatError, match="newline='\\\\r'"):
        format_pbn_records([], newline="\r")
    with pytest.raises(FileFormatError, match="must be one line"):
        format_pbn_file([_board(1, D1)], event="a\nb")


def test_bigdeal_style_is_big_deal_layout() -> None:
    boards = [_board(5, D1)]
    lines = ["% PBN 2.1", "% EXPORT", "%", '[Generator "g"]', *_export_game("5", "N", "NS", D1)]
    del lines[-2]  # no Generator in the game
    assert format_pbn_file(boards, generator="g", style="bigdeal") == "\n".join(lines) + "\n"
    assert (
        render_boards(boards, "pbn", generator="g", pbn_style="bigdeal")
        == ("\n".join(lines) + "\n").encode()
    )


def test_endplay_reads_the_export_back() -> None:
    boards = [_board(n, d) for n, d in enumerate([D1, D2, D3, D2_FROM_W, D1_FROM_E], start=1)]
    text = format_pbn_file(boards, generator='say "hi" \\o/')
    assert _endplay(text) == [
        (1, "N", "None", _hands(D1)),
        (2, "E", "NS", _hands(D2)),
        (3, "S", "EW", _hands(D3)),
        (4, "W", "All", _hands(D2)),
        (5, "N", "NS", _hands(D1)),
    ]
    assert "\n" not in text.replace("\r\n", "")  # every line ends CR LF


def test_boards_make_writes_export_format(cli: CliRunner, tmp_path: Any) -> None:
    key_file, out = tmp_path / "cup.key", tmp_path / "cup1.pbn"
    assert cli(["boards", "new-key", "--event", "Cup", "--key-file", str(key_file)]).code == 0
    base = ["--event", "Cup", "--key-file", str(key_file), "--dv", "1", "--session", "1"]
    r = cli(["boards", "make", *base, "--boards", "1-4", "--out", str(out)])
    assert r.code == 0, r.err
    data = out.read_bytes().decode()
    assert data.startswith("% PBN 2.1\r\n% EXPORT\r\n[Event ") and "\n" not in data.replace(
        "\r\n", ""
    )
    deals = re.findall(r'\[Dealer "(.)"\]\r\n\[Vulnerable "[^"]*"\]\r\n\[Deal "(.):', data)
    assert deals == [("N", "N"), ("E", "E"), ("S", "S"), ("W", "W")]
    assert [f[1] for f in _endplay(data)] == ["N", "E", "S", "W"]


# -- round trip -----------------------------------------------------------------------------------
ALL_CARDS = parse_cards(" ".join(r + s for s in "SHDC" for r in "AKQJT98765432"))


@st.composite
def records(draw: st.DrawFn) -> BoardRecord:
    order = draw(st.permutations(range(52)))
    keep = draw(st.lists(st.sampled_from([0, 1, 5, 12, 13, 13, 13]), min_size=4, max_size=4))
    hands = [[ALL_CARDS[c] for c in order[13 * i : 13 * i + keep[i]]] for i in range(4)]
    return BoardRecord(
        hands,  # type: ignore[arg-type]
        draw(st.none() | st.integers(1, 999)),
        draw(st.none() | st.sampled_from(["N", "E", "S", "W"])),
        draw(st.none() | st.sampled_from(["None", "NS", "EW", "All"])),
    )


def _completed(record: BoardRecord) -> BoardRecord:
    """What import makes of a record: one unknown hand beside three whole ones is completed."""
    sizes = [len(h) for h in record.hands]
    if sorted(sizes) != [0, 13, 13, 13]:
        return record
    held = set().union(*record.hands)
    missing = [c for c in ALL_CARDS if c not in held]
    hands = [list(h) if h else missing for h in record.hands]
    return BoardRecord(hands, record.number, record.dealer, record.vulnerable)  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None)
@given(st.lists(records(), max_size=4), st.sampled_from(["\r\n", "\n"]))
def test_export_then_import_is_the_identity(recs: list[BoardRecord], newline: str) -> None:
    text = format_pbn_records(recs, newline=newline)
    back = read_pbn_records(text, partial=True)
    assert back.skipped == []
    assert back.records == [_completed(r) for r in recs]
    whole = [_completed(r) for r in recs if r.dealer and r.vulnerable and r.number]
    whole = [r for r in whole if r.complete]
    if whole:  # endplay reads the same whole deals (its dealer is not the Dealer tag's)
        theirs = _endplay(format_pbn_records(whole))
        ours = [(r.number, r.vulnerable, r.deal) for r in whole]
        assert [(n, v, "N:" + " ".join(h)) for n, _, v, h in theirs] == ours


def test_hypothesis_cards_are_the_standard_deck() -> None:
    assert len(set(ALL_CARDS)) == 52 and all(isinstance(c, Card) for c in ALL_CARDS)
