"""Printable hand records as PDF (the optional extra ``pdf``: fpdf2).

The layout is the one printed hand records use: boards in a grid of two
columns (one with ``per_page=1``), ``per_page`` boards to a sheet of A4 or
Letter.  Each board is a compass diagram, North at the top, West and East at
the sides, South below, hearts and diamonds in red and ``10`` for the ten;
the top-left corner names the board, the dealer and the vulnerability; the
box in the centre gives each hand's high-card points, its edges red on the
vulnerable side; with double-dummy analysis the bottom-left corner holds the
tricks table (declarers ``N S E W``, strains ``♠ ♥ ♦ ♣ NT``) and the par.  The
first sheet starts with the event, session, date and boards, and for boards
dealt under a commitment the commitment, the delayed value and how to verify
them; every sheet repeats the title and says which boards it holds.  The
boards of a sheet are as large as its room allows, up to 11 points.

The text is embedded in DejaVu Sans (shipped in ``croupier/fonts``, a subset
that has the suit symbols), so the PDF prints the same everywhere and its
text can be searched and copied.  The subset holds Latin (ASCII, Latin-1,
Latin Extended-A), Greek and Cyrillic; a character it has no glyph for (CJK,
Arabic, Hebrew, emoji ...) prints as ``?``, one ``?`` for what a reader sees
as one character (an emoji with its skin tone, a flag), and is named:
:func:`render_pdf` returns such characters, and :func:`hand_record_pdf`
gives a :class:`~croupier.formats.hand_record.MissingGlyphsWarning`.
Control characters and bidirectional overrides print as U+FFFD
(:func:`~croupier.formats.hand_record.shown_text`).  The document's title (its
metadata, which viewers show in the title bar) keeps every character.  When
uharfbuzz is installed the header's text is shaped with it (kerning,
ligatures); without it, it is not, and nothing else changes.

>>> from croupier.boards import Board
>>> from croupier.formats.hand_record import HandRecord
>>> from croupier.ranking.bigdeal import goedel_unrank
>>> record = HandRecord.from_boards([Board.standard(1, goedel_unrank(7))], event="Cup")
>>> hand_record_pdf(record, per_page=6, paper="letter")[:5]
b'%PDF-'
>>> done = render_pdf(record.__class__(record.boards, event="Cup 日本"))
>>> done.data[:5], done.replaced
(b'%PDF-', ('日', '本'))
"""

from __future__ import annotations

import importlib.util
import math
import unicodedata
import warnings
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Final

from croupier.formats.hand_record_model import (
    DD_ROWS,
    STRAIN_SYMBOLS,
    STRAINS,
    HandRecord,
    HandRecordBoard,
    MissingGlyphsWarning,
    PdfUnavailable,
    board_range_text,
    check_layout,
    shown_text,
)
from croupier.seats import Seat

if TYPE_CHECKING:
    from fpdf import FPDF

__all__ = [
    "FONT_FILES",
    "RenderedPdf",
    "hand_record_pdf",
    "missing_glyphs",
    "printable",
    "render_pdf",
    "text_shaping_available",
]

#: The fonts embedded in every PDF (in ``croupier/fonts``): regular and bold.
FONT_FILES: Final = {"": "DejaVuSans.ttf", "B": "DejaVuSans-Bold.ttf"}
_FAMILY = "DejaVu"
_PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
_PAPER_NAME = {"a4": "A4", "letter": "Letter"}
_MARGIN = 12.0
_GAP = 4.0  # between boards
_HEAD = 7.0  # running head of sheets after the first
_FOOT = 6.0
_PT = 25.4 / 72  # millimetres per point
_MAX_FONT = 11.0  # points
_MAX_TITLE = 120  # characters of the title (and of the session, the date) printed
_MAX_LINE = 300  # characters looked at for one line of text (more never fit)
_RED = (192, 0, 0)
_BLACK = (0, 0, 0)
_GREY = (110, 110, 110)
_SUITS = (("♠", _BLACK), ("♥", _RED), ("♦", _RED), ("♣", _BLACK))


def _font_path(name: str) -> resources.abc.Traversable:
    return resources.files("croupier") / "fonts" / name


@cache
def _font_chars() -> frozenset[int]:
    """The code points the embedded fonts can print (both fonts hold the same)."""
    try:
        from fpdf import FPDF
    except ImportError as exc:
        raise PdfUnavailable.missing() from exc
    pdf = FPDF()
    with resources.as_file(_font_path(FONT_FILES[""])) as path:
        pdf.add_font(_FAMILY, "", Path(path))
    font = pdf.fonts[_FAMILY.lower()]
    chars = frozenset(getattr(font, "cmap", {}))
    close = getattr(font, "close", None)
    if callable(close):
        close()  # fpdf2 closes its fonts when it writes a PDF; this one is never written
    return chars


_ZWJ = "\u200d"
_PLACEHOLDER = "?"


def _ignorable(ch: str) -> bool:
    """Characters that only choose how their neighbours look: joiners, variation selectors,
    tags (never printed on their own; dropped where the font lacks them)."""
    c = ord(ch)
    return (
        c in (0x200C, 0x200D)
        or 0xFE00 <= c <= 0xFE0F
        or 0xE0100 <= c <= 0xE01EF
        or 0xE0020 <= c <= 0xE007F
    )


def _regional(ch: str) -> bool:
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


def _extends(previous: str, ch: str) -> bool:
    """Whether ``ch`` belongs to the character a reader sees that ``previous`` is part of."""
    return (
        unicodedata.category(ch).startswith("M")  # combining marks
        or _ignorable(ch)
        or 0x1F3FB <= ord(ch) <= 0x1F3FF  # emoji skin tones
        or previous == _ZWJ  # the next emoji of a joined sequence
    )


def _clusters(text: str) -> Iterator[str]:
    """``text`` cut into what a reader sees as one character each (approximately: a base
    with its combining marks, an emoji sequence, a flag's two regional indicators).

    >>> [len(c) for c in _clusters("ae\u0301🇯🇵👍🏽x")]
    [1, 2, 2, 2, 1]
    """
    i, n = 0, len(text)
    while i < n:
        j = i + 1
        if _regional(text[i]) and j < n and _regional(text[j]):
            j += 1
        while j < n and _extends(text[j - 1], text[j]):
            j += 1
        yield text[i:j]
        i = j


def _shown(text: str) -> tuple[str, list[str]]:
    """``text`` as the PDF prints it, and the characters of it the font has no glyph for."""
    chars = _font_chars()
    out: list[str] = []
    lacking: list[str] = []
    for cluster in _clusters(shown_text(text).replace("\t", " ").replace("\n", " ")):
        missing = [ch for ch in cluster if ord(ch) not in chars and not _ignorable(ch)]
        if missing:
            out.append(_PLACEHOLDER)
            lacking += missing
        else:
            out.append("".join(ch for ch in cluster if ord(ch) in chars))
    return "".join(out), lacking


def printable(text: str) -> str:
    """``text`` as the PDF prints it: ``?`` for each character the embedded font lacks.

    Control characters and bidirectional overrides become U+FFFD
    (:func:`~croupier.formats.hand_record.shown_text`), tab and newline a space.

    >>> printable("Café ♠ 北京 🇯🇵")
    'Café ♠ ?? ?'
    """
    return _shown(text)[0]


def missing_glyphs(text: str) -> tuple[str, ...]:
    """The characters of ``text`` that the PDF's font has no glyph for, each once, in order.

    >>> missing_glyphs("Tōkyō 東京 Ελλάδα 東"), missing_glyphs("Zürich ♠")
    (('東', '京'), ())
    """
    return tuple(dict.fromkeys(_shown(text)[1]))


def text_shaping_available() -> bool:
    """Whether fpdf2 can shape text here: the optional package uharfbuzz is installed.

    Only looked up, never imported here (fpdf2 imports it when a PDF is drawn).
    """
    return importlib.util.find_spec("uharfbuzz") is not None


class _Sheet:
    """Drawing helpers around one fpdf2 document: fonts, colours, text at a baseline."""

    def __init__(self, pdf: FPDF) -> None:
        self.pdf = pdf
        self.missing: dict[str, None] = {}  # the characters printed as "?", in order

    def shown(self, text: str) -> str:
        """``text`` as printed (:func:`printable`), noting the characters it replaced."""
        done, lacking = _shown(text)
        self.missing.update(dict.fromkeys(lacking))
        return done

    def font(self, size: float, bold: bool = False) -> None:
        self.pdf.set_font(_FAMILY, "B" if bold else "", size)

    def colour(self, rgb: tuple[int, int, int]) -> None:
        self.pdf.set_text_color(*rgb)

    def width(self, text: str) -> float:
        return float(self.pdf.get_string_width(self.shown(text)))

    def text(self, x: float, y: float, text: str, rgb: tuple[int, int, int] = _BLACK) -> None:
        self.colour(rgb)
        self.pdf.text(x, y, self.shown(text))

    def right(self, x: float, y: float, text: str, rgb: tuple[int, int, int] = _BLACK) -> None:
        """Text ending at ``x``."""
        self.text(x - self.width(text), y, text, rgb)

    def centre(self, x: float, y: float, text: str, rgb: tuple[int, int, int] = _BLACK) -> None:
        """Text centred on ``x``."""
        self.text(x - self.width(text) / 2, y, text, rgb)

    def clipped(self, text: str, w: float) -> str:
        """``text`` as printed, cut with ``…`` to fit width ``w`` (in the current font)."""
        done = self.shown(_cut(text, _MAX_LINE))
        if self.width(done) <= w:
            return done
        low, high = 0, len(done)  # the longest start that fits with "…": a binary search
        while low < high:
            mid = (low + high + 1) // 2
            if self.width(done[:mid] + "…") <= w:
                low = mid
            else:
                high = mid - 1
        return done[:low].rstrip() + "…"

    def wrapped(
        self,
        x: float,
        y: float,
        w: float,
        size: float,
        text: str,
        *,
        bold: bool = False,
        leading: float = 1.3,
    ) -> float:
        """Text wrapped to width ``w`` from top ``y``; returns the y below it."""
        self.font(size, bold)
        self.colour(_BLACK)
        self.pdf.set_xy(x, y)
        self.pdf.multi_cell(w, size * _PT * leading, self.shown(text), align="L")
        return float(self.pdf.get_y())


def _cut(text: str, limit: int) -> str:
    """``text``, or its first ``limit`` characters and ``…`` when it is longer.

    >>> _cut("Club Cup", 4), _cut("Cup", 4)
    ('Club…', 'Cup')
    """
    return text if len(text) <= limit else text[:limit].rstrip() + "…"


def _lines_needed(record: HandRecord) -> float:
    """Height of a board in lines of its hands' text (with padding)."""
    return 14.2 + (2.6 if record.has_double_dummy else 0.0)


def _hand_width(sheet: _Sheet, board: HandRecordBoard, seat: int) -> float:
    widths = [
        sheet.width(symbol + " ") + sheet.width(shown)
        for (symbol, _), shown in zip(_SUITS, board.suits(seat), strict=True)
    ]
    return max(widths) if board.hands[seat] else sheet.width("—")


class _Board:
    """The geometry of one board's diagram in its cell, at a given font size."""

    def __init__(self, x: float, y: float, w: float, h: float, size: float, dd: bool) -> None:
        self.x, self.y, self.w, self.h = x, y, w, h
        self.size = size
        self.lh = size * _PT * 1.3  # line height
        self.pad = max(1.5, 0.55 * self.lh)
        self.box = 4.0 * self.lh  # the centre box, square
        self.box_x = x + (w - self.box) / 2
        lines = 12.6 + (2.6 if dd else 0.0)
        spare = h - 2 * self.pad - lines * self.lh
        self.top = y + self.pad + max(0.0, spare / 3)

    @property
    def west_room(self) -> float:
        return self.box_x - 1.2 - (self.x + self.pad)

    @property
    def east_room(self) -> float:
        return self.x + self.w - self.pad - (self.box_x + self.box + 1.5)

    @property
    def north_room(self) -> float:
        return self.x + self.w - self.pad - self.box_x


def _fit(sheet: _Sheet, board: HandRecordBoard, cell: _Board) -> float:
    """The font size at which every hand of ``board`` fits its place in ``cell``."""
    sheet.font(cell.size)
    rooms = (cell.north_room, cell.east_room, cell.north_room, cell.west_room)
    scale = min(
        1.0,
        *(room / max(_hand_width(sheet, board, seat), 1e-6) for seat, room in enumerate(rooms)),
    )
    return cell.size * scale


def _draw_hand(
    sheet: _Sheet, board: HandRecordBoard, seat: int, x: float, top: float, lh: float
) -> None:
    if not board.hands[seat]:
        sheet.text(x, top + 0.8 * lh, "—")
        return
    for i, ((symbol, rgb), shown) in enumerate(zip(_SUITS, board.suits(seat), strict=True)):
        base = top + (i + 0.8) * lh
        sheet.text(x, base, symbol, rgb)
        # the space is written, not only left: copied text reads "♠ A K 10"
        sheet.text(x + sheet.width(symbol), base, " " + shown)


def _draw_centre(sheet: _Sheet, board: HandRecordBoard, cell: _Board, top: float) -> None:
    pdf, b, x = sheet.pdf, cell.box, cell.box_x
    pdf.set_fill_color(244, 244, 244)
    pdf.set_draw_color(180, 180, 180)
    pdf.set_line_width(0.3)
    pdf.rect(x, top, b, b, style="DF")
    thick = max(0.8, b / 18)
    pdf.set_fill_color(*_RED)
    if board.vulnerable.is_vulnerable(Seat.NORTH):
        pdf.rect(x, top, b, thick, style="F")
        pdf.rect(x, top + b - thick, b, thick, style="F")
    if board.vulnerable.is_vulnerable(Seat.EAST):
        pdf.rect(x, top, thick, b, style="F")
        pdf.rect(x + b - thick, top, thick, b, style="F")
    sheet.font(cell.size * 0.85)
    n, e, s, w = ("" if p is None else str(p) for p in board.hcp)
    mid = x + b / 2
    em = cell.size * _PT * 0.85
    sheet.centre(mid, top + thick + 1.1 * em, n)
    sheet.centre(mid, top + b - thick - 0.45 * em, s)
    sheet.text(x + thick + 0.35 * em, top + b / 2 + 0.35 * em, w)
    sheet.right(x + b - thick - 0.35 * em, top + b / 2 + 0.35 * em, e)


def _draw_double_dummy(sheet: _Sheet, board: HandRecordBoard, cell: _Board, top: float) -> None:
    dd = board.double_dummy
    if dd is None:
        return
    room = cell.box_x - 1.5 - (cell.x + cell.pad)
    size = cell.size * 0.85
    sheet.font(size)
    col = sheet.width("NT") + 1.6
    label = sheet.width("W") + 1.6
    scale = min(1.0, room / (label + 5 * col))
    size, col, label = size * scale, col * scale, label * scale
    sheet.font(size)
    lh = size * _PT * 1.3
    x0 = cell.x + cell.pad
    pdf = sheet.pdf
    pdf.set_draw_color(150, 150, 150)
    pdf.set_line_width(0.2)
    base = top + 0.8 * lh
    for j, strain in enumerate(STRAINS):
        rgb = _RED if strain in ("H", "D") else _BLACK
        sheet.centre(x0 + label + (j + 0.5) * col, base, STRAIN_SYMBOLS[strain], rgb)
    pdf.line(x0, top + 1.05 * lh, x0 + label + 5 * col, top + 1.05 * lh)
    pdf.line(x0 + label - 0.6, top + 0.1 * lh, x0 + label - 0.6, top + 5.05 * lh)
    for i, seat in enumerate(DD_ROWS, start=1):
        base = top + (i + 0.85) * lh
        sheet.text(x0, base, seat)
        for j, strain in enumerate(STRAINS):
            sheet.centre(x0 + label + (j + 0.5) * col, base, str(dd.tricks_for(seat, strain)))
    par_top = top + 5.4 * lh
    sheet.text(x0, par_top + 0.8 * lh, f"Par {dd.par_text}")
    contracts = dd.contracts_text
    while sheet.width(contracts) > cell.w - 2 * cell.pad and size > 4:
        size *= 0.9
        sheet.font(size)
    sheet.text(x0, par_top + 1.85 * lh, contracts)


def _draw_board(sheet: _Sheet, board: HandRecordBoard, cell: _Board) -> None:
    pdf = sheet.pdf
    pdf.set_draw_color(150, 150, 150)
    pdf.set_line_width(0.25)
    pdf.rect(cell.x, cell.y, cell.w, cell.h)
    size = _fit(sheet, board, cell)
    lh = size * _PT * 1.3
    top = cell.top
    # the corner: board, dealer, vulnerability
    x0 = cell.x + cell.pad
    sheet.font(cell.size * 1.25, bold=True)
    sheet.text(x0, top + 1.0 * cell.lh, f"Board {board.number}")
    sheet.font(cell.size * 0.85)
    sheet.text(x0, top + 2.15 * cell.lh, f"Dealer {board.dealer_name}")
    sheet.text(x0, top + 3.05 * cell.lh, f"Vul {board.vulnerable_text}")
    # the hands around the centre box
    middle = top + 4.3 * cell.lh
    bottom = middle + cell.box + 0.3 * cell.lh
    sheet.font(size)
    hand_h = 4 * lh
    _draw_hand(sheet, board, 0, cell.box_x, top, lh)
    _draw_hand(sheet, board, 3, x0, middle + (cell.box - hand_h) / 2, lh)
    _draw_hand(sheet, board, 1, cell.box_x + cell.box + 1.5, middle + (cell.box - hand_h) / 2, lh)
    _draw_hand(sheet, board, 2, cell.box_x, bottom, lh)
    _draw_centre(sheet, board, cell, middle)
    _draw_double_dummy(sheet, board, cell, bottom)


def _header(sheet: _Sheet, record: HandRecord, width: float) -> float:
    """The first sheet's header; returns the y below it."""
    shaping = _start_shaping(sheet.pdf)
    title = _cut(record.title, _MAX_TITLE)
    y = sheet.wrapped(_MARGIN, _MARGIN, width, 15, title, bold=True, leading=1.45)
    details = " · ".join(_cut(d, _MAX_TITLE) for d in record.details())
    if details:
        y = sheet.wrapped(_MARGIN, y, width, 9.5, details, leading=1.5)
    if record.provenance is not None:
        y += 0.6
        for line in record.provenance.lines():
            y = sheet.wrapped(_MARGIN, y, width, 7.5, line)
    if shaping:
        sheet.pdf.set_text_shaping(False)  # the boards are placed by measured, unshaped widths
    return y + 2.0


def _start_shaping(pdf: FPDF) -> bool:
    """Turn on fpdf2's text shaping where uharfbuzz is installed; whether it is on."""
    if not text_shaping_available():
        return False
    try:
        pdf.set_text_shaping(True)
    except Exception:  # a broken uharfbuzz: print unshaped, as without it
        return False
    return True


def _running_head(sheet: _Sheet, record: HandRecord, width: float) -> None:
    sheet.font(8)
    sheet.text(_MARGIN, _MARGIN + 8 * _PT, sheet.clipped(record.full_title, width), _GREY)


def _footer(
    sheet: _Sheet,
    boards: tuple[HandRecordBoard, ...],
    page: int,
    pages: int,
    size: tuple[float, float],
) -> None:
    w, h = size
    sheet.font(7.5)
    y = h - _MARGIN + 7.5 * _PT
    if boards:
        word = "Board" if len(boards) == 1 else "Boards"
        sheet.text(_MARGIN, y, f"{word} {board_range_text([b.number for b in boards])}", _GREY)
    sheet.right(w - _MARGIN, y, f"Page {page} of {pages}", _GREY)


def hand_record_pdf(record: HandRecord, *, per_page: int = 6, paper: str = "a4") -> bytes:
    """The hand record as a PDF: ``per_page`` boards a sheet of ``paper`` (``a4``, ``letter``).

    Needs fpdf2 (``pip install 'croupier[pdf]'``); without it
    :class:`~croupier.formats.hand_record.PdfUnavailable` names the extra.
    """
    done = render_pdf(record, per_page=per_page, paper=paper)
    if done.replaced:
        warnings.warn(MissingGlyphsWarning(done.replaced), stacklevel=2)
    return done.data


@dataclass(frozen=True)
class RenderedPdf:
    """A PDF hand record: its bytes, and the characters it printed as ``?`` (each once).

    ``replaced`` is empty when the font had a glyph for every character.
    """

    data: bytes
    replaced: tuple[str, ...] = ()


def render_pdf(record: HandRecord, *, per_page: int = 6, paper: str = "a4") -> RenderedPdf:
    """The hand record as a PDF, and the characters its font had no glyph for.

    As :func:`hand_record_pdf`, but the characters printed as ``?`` are returned
    (:attr:`RenderedPdf.replaced`) instead of given as a warning.
    """
    check_layout(per_page, paper)
    try:
        from fpdf import FPDF
    except ImportError as exc:
        raise PdfUnavailable.missing() from exc
    size = _PAPER_MM[paper]
    pdf = FPDF(unit="mm", format=_PAPER_NAME[paper])
    pdf.set_auto_page_break(False)
    pdf.set_margins(_MARGIN, _MARGIN, _MARGIN)
    pdf.c_margin = 0  # wrapped header text starts at the margin, like the title
    # the metadata has every character (a viewer's fonts show them), not only the font's
    pdf.set_title(_cut(" ".join(shown_text(record.title).split()), 1000))
    pdf.set_creator("croupier")
    pdf.set_subject("Hand record")
    sheet = _Sheet(pdf)
    with ExitStack() as stack:
        for style, name in FONT_FILES.items():
            path = stack.enter_context(resources.as_file(_font_path(name)))
            pdf.add_font(_FAMILY, style, Path(path))
        _draw(sheet, record, per_page, size)
    return RenderedPdf(bytes(pdf.output()), tuple(sheet.missing))


def _draw(sheet: _Sheet, record: HandRecord, per_page: int, size: tuple[float, float]) -> None:
    pdf = sheet.pdf
    w, h = size
    width = w - 2 * _MARGIN
    cols = 1 if per_page == 1 else 2
    rows = math.ceil(per_page / cols)
    groups = [record.boards[i : i + per_page] for i in range(0, len(record.boards), per_page)]
    groups = groups or [()]
    cell_w = (width - (cols - 1) * _GAP) / cols
    bottom = h - _MARGIN - _FOOT
    # the first sheet's header leaves less room for its boards than the running head of the
    # others: each sheet's boards are as large as its room allows (up to 11 points)
    pdf.add_page()
    first_top = _header(sheet, record, width)
    other_top = _MARGIN + _HEAD
    tops = [first_top] + [other_top] * (len(groups) - 1)
    heights = [(bottom - top - (rows - 1) * _GAP) / rows for top in tops]
    lines = _lines_needed(record)
    for page, (group, top, cell_h) in enumerate(zip(groups, tops, heights, strict=True), start=1):
        font = min(_MAX_FONT, cell_h / (lines * _PT * 1.3))
        if page > 1:
            pdf.add_page()
            _running_head(sheet, record, width)
        if not group:
            sheet.font(10)
            sheet.text(_MARGIN, top + 10 * _PT, "No boards.")
        for k, board in enumerate(group):
            r, c = divmod(k, cols)
            x = _MARGIN + c * (cell_w + _GAP)
            y = top + r * (cell_h + _GAP)
            _draw_board(sheet, board, _Board(x, y, cell_w, cell_h, font, record.has_double_dummy))
        _footer(sheet, group, page, len(groups), size)
