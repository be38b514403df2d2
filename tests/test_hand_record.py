"""Hand records: the model, the HTML page and the PDF, checked against independent readings.

The PDF is read back with poppler's ``pdftotext -bbox`` (every word with its
position) and parsed here from the geometry alone: four suit-symbol columns make
a hand, the top one is North, the bottom one South, the left one West.  So the
test finds every card of every board in the hand it belongs to without knowing
the layout's measures.  Double-dummy numbers are compared with DDS called
directly through endplay (not through croupier's wrapper), high-card points
with a count written here.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from html.parser import HTMLParser
from itertools import pairwise
from pathlib import Path

import pytest

from croupier.boards import SEATS, Board
from croupier.formats.hand_record import (
    DoubleDummy,
    HandRecord,
    HandRecordBoard,
    ParContract,
    PdfUnavailable,
    Provenance,
    render_hand_record,
)
from croupier.formats.hand_record_pdf import printable
from croupier.formats.pbn_deal import format_pbn_deal
from croupier.simulate.double_dummy import analyse_hand_record
from croupier.tournament.verifiable import make_boards

BOARDS = make_boards(bytes(range(32)), "Tuesday Pairs", b"15234.56", 1, range(1, 17))
PROVENANCE = Provenance(
    "croupier-boards/2",
    "c0ffee" * 10 + "abcd",
    "15234.56",
    ("To verify once the key is revealed: croupier boards verify ...", "Or open the page."),
)
SUITS = "♠♥♦♣"
RANKS = "AKQJT98765432"


def _pbn_hands(board: Board) -> list[list[str]]:
    """Each hand N E S W as four suit strings of rank letters, from the PBN deal string."""
    deal = format_pbn_deal(board.hands, first="N")[2:]
    return [hand.split(".") for hand in deal.split(" ")]


def _points(suits: list[str]) -> int:
    """High-card points counted from rank letters (A 4, K 3, Q 2, J 1)."""
    return sum({"A": 4, "K": 3, "Q": 2, "J": 1}.get(r, 0) for suit in suits for r in suit)


def _ranks(text: str) -> str:
    """Printed ranks (``A K 10 2``, ``AK102``, ``—``) as PBN rank letters (``AKT2``)."""
    return "".join("T" if t == "10" else t for t in re.findall(r"10|[AKQJ2-9]", text))


# -- the model ---------------------------------------------------------------------------------


def test_points_and_suits_follow_the_cards() -> None:
    for board in BOARDS:
        hb = HandRecordBoard.from_board(board)
        hands = _pbn_hands(board)
        assert hb.hcp == tuple(_points(h) for h in hands)
        for seat in range(4):
            shown = hb.suits(seat)
            assert [_ranks(s) for s in shown] == hands[seat]
            assert all(s == "—" for s, h in zip(shown, hands[seat], strict=True) if not h)
    assert sum(sum(HandRecordBoard.from_board(b).hcp) for b in BOARDS) == 40 * len(BOARDS)


def test_header_facts() -> None:
    record = HandRecord.from_boards(
        [BOARDS[i] for i in (0, 1, 2, 4, 7)], event="Cup", session="Session 2", date="2024.05.07"
    )
    assert record.details() == ["Session 2", "2024.05.07", "Boards 1-3, 5, 8"]
    assert record.full_title == "Cup — Session 2"
    with pytest.raises(ValueError, match="one line"):
        HandRecord((), event="a\nb")


def test_layout_limits_are_one_line_errors() -> None:
    record = HandRecord.from_boards(BOARDS[:1])
    for per_page, paper, message in [(0, "a4", "1..12"), (13, "a4", "1..12"), (4, "a5", "a5")]:
        with pytest.raises(ValueError, match=message):
            render_hand_record(record, "html", per_page=per_page, paper=paper)


# -- double dummy against DDS itself ------------------------------------------------------------


def _endplay_reference(board: Board) -> tuple[dict[tuple[str, str], int], int, set[tuple]]:
    """Tricks by (declarer, strain), NS par score and par contracts, from endplay's DDS calls."""
    from endplay.dds import calc_dd_table, par
    from endplay.types import Deal, Denom, Penalty, Player, Vul

    deal = Deal(format_pbn_deal(board.hands, first="N"))
    table = calc_dd_table(deal)
    denoms = {"S": Denom.spades, "H": Denom.hearts, "D": Denom.diamonds, "C": Denom.clubs}
    denoms["NT"] = Denom.nt
    players = {"N": Player.north, "E": Player.east, "S": Player.south, "W": Player.west}
    tricks = {
        (s, d): table[denom, player] for s, player in players.items() for d, denom in denoms.items()
    }
    vul = {"None": Vul.none, "NS": Vul.ns, "EW": Vul.ew, "All": Vul.both}[board.vulnerable]
    result = par(table, vul, players[board.dealer])
    names = {v: k for k, v in denoms.items()}
    contracts = {
        (
            c.level,
            names[c.denom],
            "NS" if c.declarer in (Player.north, Player.south) else "EW",
            c.penalty is not Penalty.passed,
            c.result,
        )
        for c in result
    }
    return tricks, result.score, contracts


def _side(contract: ParContract) -> tuple:
    side = "NS" if contract.declarer in ("N", "S", "NS") else "EW"
    return (contract.level, contract.strain, side, contract.doubled, contract.result)


@pytest.fixture(scope="module")
def analysed() -> HandRecord:
    """Boards 1-8 of the set (every dealer, every vulnerability) with their analysis."""
    record = HandRecord.from_boards(BOARDS[:8], event="Tuesday Pairs", provenance=PROVENANCE)
    return analyse_hand_record(record)


def test_double_dummy_and_par_equal_dds(analysed: HandRecord) -> None:
    for hb, board in zip(analysed.boards, BOARDS, strict=False):
        tricks, score, contracts = _endplay_reference(board)
        dd = hb.double_dummy
        assert dd is not None
        for seat in SEATS:
            for strain in ("S", "H", "D", "C", "NT"):
                assert dd.tricks_for(seat, strain) == tricks[seat, strain], (hb.number, seat)
        assert dd.par_score == score, hb.number
        assert {_side(c) for c in dd.par_contracts} == contracts, hb.number


def test_partial_deal_has_no_analysis() -> None:
    board = BOARDS[0]
    partial = Board(1, (board.hands[0], (), (), ()), "N", "None")
    with pytest.raises(ValueError, match="board 1 is a partial deal"):
        analyse_hand_record(HandRecord.from_boards([partial]))


# -- HTML ----------------------------------------------------------------------------------------


@dataclass
class _Node:
    tag: str
    attrs: dict[str, str]
    children: list[_Node | str] = field(default_factory=list)

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def find(self, cls: str | None = None, tag: str | None = None) -> list[_Node]:
        found = []
        for child in self.children:
            if isinstance(child, str):
                continue
            if (cls is None or cls in child.attrs.get("class", "").split()) and (
                tag is None or child.tag == tag
            ):
                found.append(child)
            found += child.find(cls, tag)
        return found


VOID_TAGS = frozenset({"br", "meta", "link", "img", "input", "hr"})


class _Tree(HTMLParser):
    def __init__(self, page: str) -> None:
        super().__init__()
        self.root = _Node("root", {})
        self.stack = [self.root]
        self.feed(page)
        assert len(self.stack) == 1, [n.tag for n in self.stack]  # every element closed

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = _Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in VOID_TAGS:
            self.stack.append(node)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack[-1].tag == tag, (self.stack[-1].tag, tag)
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def _html_hand(node: _Node) -> list[str]:
    lines = node.text().replace("\u00a0", " ")
    found = re.findall(r"([♠♥♦♣]) ([^♠♥♦♣]*)", lines)
    assert [s for s, _ in found] == list(SUITS), lines
    return [_ranks(text) for _, text in found]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_html_page_one_section_per_board_with_navigation(analysed: HandRecord, paper: str) -> None:
    page = render_hand_record(analysed, "html", per_page=3, paper=paper).decode("utf-8")
    tree = _Tree(page).root
    sections = tree.find("board", "section")
    assert [s.attrs["id"] for s in sections] == [f"board-{n}" for n in range(1, 9)]
    for i, (section, board) in enumerate(zip(sections, BOARDS, strict=False)):
        links = {a.attrs.get("rel"): a.attrs["href"] for a in section.find(tag="a")}
        assert links.get("prev") == (f"#board-{i}" if i else None)
        assert links.get("next") == (f"#board-{i + 2}" if i < 7 else None)
        assert links[None] == "#top"
        hands = [_html_hand(section.find(seat)[0]) for seat in ("n", "e", "s", "w")]
        assert hands == _pbn_hands(board)
        points = [section.find(f"h{seat}")[0].text() for seat in "nesw"]
        assert points == [str(_points(h)) for h in _pbn_hands(board)]
        assert f"Board {board.number}" in section.find("info")[0].text()
        tricks = _endplay_reference(board)[0] if i < 2 else None
        table = section.find("dd", "table")[0]
        rows = [[c.text() for c in row.find(tag="td")] for row in table.find(tag="tr")[1:]]
        assert [row.find(tag="th")[0].text() for row in table.find(tag="tr")[1:]] == list("NSEW")
        if tricks is not None:
            expected = [[str(tricks[s, d]) for d in ("S", "H", "D", "C", "NT")] for s in "NSEW"]
            assert rows == expected
            assert section.find("par")[0].text().startswith("Par ")
    assert len(tree.find("page")) == 3  # 8 boards, 3 to a printed page
    index = tree.find("index")[0].find(tag="a")
    assert [a.attrs["href"] for a in index] == [f"#board-{n}" for n in range(1, 9)]
    style = tree.find(tag="style")[0].text()
    assert "@media print" in style and re.search(r"nav[^{]*\{ display: none", style)
    assert f"size: {'A4' if paper == 'a4' else 'letter'};" in style
    header = tree.find(tag="header")[0].text()
    assert PROVENANCE.commitment in header and "Delayed value: 15234.56" in header
    assert "<script" not in page


def test_html_escapes_what_the_files_say() -> None:
    record = HandRecord.from_boards(BOARDS[:1], event="<b>Cup</b> & co", date='"x"')
    page = render_hand_record(record, "html").decode()
    assert "<b>Cup" not in page and "&lt;b&gt;Cup&lt;/b&gt; &amp; co" in page


# -- PDF, read back --------------------------------------------------------------------------


def _poppler(program: str) -> str:
    found = shutil.which(program)
    if found is None:
        message = f"{program} is missing: install poppler-utils (apt-get install poppler-utils)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return found


@dataclass(frozen=True)
class _Word:
    page: int
    x0: float
    y0: float
    x1: float
    y1: float
    text: str

    @property
    def height(self) -> float:
        return self.y1 - self.y0


def _words(pdf: Path) -> list[_Word]:
    out = subprocess.run(
        [_poppler("pdftotext"), "-bbox", str(pdf), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    words: list[_Word] = []
    for page, body in enumerate(re.split(r"<page [^>]*>", out)[1:], start=1):
        for m in re.finditer(
            r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>',
            body,
        ):
            x0, y0, x1, y1 = (float(v) for v in m.groups()[:4])
            text = m.group(5).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
            words.append(_Word(page, x0, y0, x1, y1, text))
    return words


@dataclass
class _PdfBoard:
    number: int
    words: list[_Word]


def _cells(words: list[_Word]) -> list[_PdfBoard]:
    """Each board's words: a word belongs to the nearest ``Board N`` label above and left of it."""
    labels = []
    dealers = [w for w in words if w.text == "Dealer"]
    for w, nxt in pairwise(words):
        # a board's corner says "Dealer ..." just below (a footer "Board 7" does not)
        if (
            w.text == "Board"
            and nxt.text.isdigit()
            and abs(nxt.y0 - w.y0) < 1
            and any(
                d.page == w.page and abs(d.x0 - w.x0) < 1 and 0 < d.y0 - w.y0 < 3 * w.height
                for d in dealers
            )
        ):
            labels.append((w, int(nxt.text)))
    labels.sort(key=lambda label: (label[0].page, round(label[0].y0), label[0].x0))  # rows
    cells = [_PdfBoard(n, []) for _, n in labels]
    for w in words:
        best = None
        for k, (label, _) in enumerate(labels):
            if label.page == w.page and label.y0 <= w.y0 + 1 and label.x0 <= w.x0 + 1:
                key = (label.y0, label.x0)
                if best is None or key > best[0]:
                    best = (key, k)
        if best is not None:
            cells[best[1]].words.append(w)
    return cells


def _same_line(a: _Word, b: _Word) -> bool:
    return abs((a.y0 + a.y1) / 2 - (b.y0 + b.y1) / 2) < 0.3 * a.height


Place = tuple[float, float, float]  # a hand's left edge, its top and its bottom


def _hands(cell: _PdfBoard) -> tuple[dict[str, list[str]], dict[str, Place]]:
    """The four hands of a board cell (N E S W) and where each stands, read from geometry."""
    symbols = [w for w in cell.words if w.text in SUITS]
    columns: dict[int, list[_Word]] = {}
    for w in symbols:
        columns.setdefault(round(w.x0), []).append(w)
    hands: list[tuple[float, float, float, list[str]]] = []
    for column in columns.values():
        column.sort(key=lambda w: w.y0)
        if len(column) not in (4, 8):
            continue  # the suit symbols heading the double-dummy table
        for start in range(0, len(column), 4):
            group = column[start : start + 4]
            assert "".join(w.text for w in group) == SUITS
            suits = []
            for sym in group:
                line = sorted(
                    (w for w in cell.words if _same_line(sym, w) and w.x0 > sym.x0),
                    key=lambda w: w.x0,
                )
                taken, last = [], sym
                for w in line:  # the words that follow the symbol, one space apart
                    if w.x0 - last.x1 > 0.5 * sym.height or w.text in SUITS:
                        break
                    taken.append(w.text)
                    last = w
                suits.append(_ranks(" ".join(taken)))
            hands.append((group[0].x0, group[0].y0, group[-1].y1, suits))
    assert len(hands) == 4, f"board {cell.number}: {len(hands)} hands"
    by_y = sorted(hands, key=lambda h: h[1])
    north, south = by_y[0], by_y[-1]
    west, east = sorted(by_y[1:3], key=lambda h: h[0])
    seats = {"N": north, "E": east, "S": south, "W": west}
    return {s: h[3] for s, h in seats.items()}, {s: h[:3] for s, h in seats.items()}


def _points_in_box(cell: _PdfBoard, where: dict[str, Place]) -> dict[str, int]:
    """The four numbers between the hands: high-card points, by their place in the box."""
    top, bottom = where["N"][2], where["S"][1]  # below North's hand, above South's
    left, right = where["N"][0], where["E"][0]  # right of West's hand, left of East's
    inside = [
        w
        for w in cell.words
        if w.text.isdigit() and top < w.y0 and w.y1 < bottom and left - 1 < w.x0 < right - 1
    ]
    assert len(inside) == 4, [w.text for w in inside]
    by_y = sorted(inside, key=lambda w: w.y0)
    west, east = sorted(by_y[1:3], key=lambda w: w.x0)
    return {
        "N": int(by_y[0].text),
        "S": int(by_y[-1].text),
        "W": int(west.text),
        "E": int(east.text),
    }


def _dd_table(cell: _PdfBoard) -> dict[tuple[str, str], int]:
    heads = [w for w in cell.words if w.text == "NT"]
    assert len(heads) == 1
    head = heads[0]
    # the strains heading the table (South's hand may share the line, further right)
    suits = (w for w in cell.words if _same_line(head, w) and w.text in SUITS and w.x0 < head.x0)
    columns = [*sorted(suits, key=lambda w: w.x0), head]
    names = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "NT": "NT"}
    assert [names[w.text] for w in columns] == ["S", "H", "D", "C", "NT"]
    found = {}
    for label in (w for w in cell.words if w.text in "NESW" and w.y0 > head.y0 and w.x0 < head.x0):
        row = [w for w in cell.words if _same_line(label, w) and w.x0 > label.x1 and w.x0 < head.x1]
        if len(row) != 5 or not all(w.text.isdigit() for w in row):
            continue
        for w in row:
            centre = (w.x0 + w.x1) / 2
            column = min(columns, key=lambda c: abs((c.x0 + c.x1) / 2 - centre))
            found[label.text, names[column.text]] = int(w.text)
    return found


def _par(cell: _PdfBoard) -> str:
    start = next(w for w in cell.words if w.text == "Par")
    return " ".join(w.text for w in cell.words if _same_line(start, w) and w.x0 >= start.x0)


def _write(tmp_path: Path, record: HandRecord, **kwargs: object) -> Path:
    path = tmp_path / "record.pdf"
    path.write_bytes(render_hand_record(record, "pdf", **kwargs))  # type: ignore[arg-type]
    return path


@pytest.mark.parametrize(
    ("paper", "per_page"), [("a4", 6), ("letter", 4), ("a4", 1), ("letter", 9)]
)
def test_pdf_holds_every_card_in_its_hand(tmp_path: Path, paper: str, per_page: int) -> None:
    record = HandRecord.from_boards(BOARDS, event="Tuesday Pairs", provenance=PROVENANCE)
    pdf = _write(tmp_path, record, per_page=per_page, paper=paper)
    words = _words(pdf)
    assert max(w.page for w in words) == -(-len(BOARDS) // per_page)
    cells = _cells(words)
    assert [c.number for c in cells] == [b.number for b in BOARDS]
    for cell, board in zip(cells, BOARDS, strict=True):
        hands, where = _hands(cell)
        expected = _pbn_hands(board)
        assert [hands[s] for s in "NESW"] == expected, board.number
        points = _points_in_box(cell, where)
        assert [points[s] for s in "NESW"] == [_points(h) for h in expected]
        text = " ".join(w.text for w in cell.words)
        assert f"Dealer {dict(N='North', E='East', S='South', W='West')[board.dealer]}" in text
        vul = {"None": "None", "NS": "N-S", "EW": "E-W", "All": "All"}[board.vulnerable]
        assert f"Vul {vul}" in text


def test_pdf_double_dummy_equals_dds(tmp_path: Path, analysed: HandRecord) -> None:
    for paper in ("a4", "letter"):
        cells = _cells(_words(_write(tmp_path, analysed, paper=paper)))
        assert [c.number for c in cells] == list(range(1, 9))
        for cell, board in zip(cells, BOARDS, strict=False):
            tricks, score, _ = _endplay_reference(board)
            assert _dd_table(cell) == tricks, board.number
            side = "NS" if score > 0 else "EW"
            assert _par(cell) == ("Par 0" if score == 0 else f"Par {side} +{abs(score)}")
            hands, _ = _hands(cell)
            assert [hands[s] for s in "NESW"] == _pbn_hands(board)


def test_pdf_header_and_embedded_font(tmp_path: Path) -> None:
    record = HandRecord.from_boards(
        BOARDS[:2],
        event="Ćwiczenia — Club Cup",
        session="Session 3",
        date="2024.05.07",
        provenance=PROVENANCE,
    )
    pdf = _write(tmp_path, record)
    text = subprocess.run(
        [_poppler("pdftotext"), str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "Ćwiczenia — Club Cup" in text and "Session 3 · 2024.05.07 · Boards 1-2" in text
    assert PROVENANCE.commitment in text.replace("\n", "")
    assert "Delayed value: 15234.56" in text and "To verify once the key is revealed" in text
    fonts = subprocess.run(
        [_poppler("pdffonts"), str(pdf)], capture_output=True, text=True, check=True
    ).stdout
    rows = [line.split() for line in fonts.splitlines()[2:]]
    assert rows and all("DejaVuSans" in r[0] and "yes" in r for r in rows)  # embedded subsets


def test_characters_the_font_lacks_print_as_question_marks() -> None:
    assert printable("Zürich ♠♥♦♣ 東京") == "Zürich ♠♥♦♣ ??"


def test_pdf_without_fpdf2_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(__import__("sys").modules, "fpdf", None)
    with pytest.raises(PdfUnavailable, match=r"pip install 'croupier\[pdf\]'$"):
        render_hand_record(HandRecord.from_boards(BOARDS[:1]), "pdf")


def test_empty_record_still_prints(tmp_path: Path) -> None:
    text = subprocess.run(
        [_poppler("pdftotext"), str(_write(tmp_path, HandRecord((), event="Cup"))), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "Cup" in text and "No boards." in text
    assert b"No boards" not in render_hand_record(HandRecord(()), "html")


def test_double_dummy_values_are_checked() -> None:
    with pytest.raises(ValueError, match="4 rows"):
        DoubleDummy(((0,) * 5,) * 3, 0)
    with pytest.raises(ValueError, match="par contract"):
        ParContract(8, "S", "N")
