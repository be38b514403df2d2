"""Hand records: what the printed record of a session shows, whatever it is printed as.

A :class:`HandRecord` is the content of a hand record, kept apart from its
layout: the header (event, session, date, the range of boards and, for boards
dealt under a commitment, a :class:`Provenance` saying how to check them) and one
:class:`HandRecordBoard` per board, with its number, dealer, vulnerability, the
four hands, their high-card points and, when double-dummy analysis was asked
for, a :class:`DoubleDummy` table with the par.  :func:`render_hand_record`
turns it into an HTML page (:mod:`croupier.formats.hand_record_html`) or a PDF
(:mod:`croupier.formats.hand_record_pdf`, the optional extra ``pdf``).

The double-dummy numbers are data here: the solver is above this layer
(:func:`croupier.simulate.double_dummy.analyse_hand_record` fills them in).

>>> from croupier.formats.records import BoardRecord
>>> from croupier.ranking.bigdeal import goedel_unrank
>>> record = HandRecord.from_records([BoardRecord(goedel_unrank(0), number=3)], event="Cup")
>>> board = record.boards[0]
>>> board.number, str(board.dealer), str(board.vulnerable), board.hcp
(3, 'S', 'EW', (10, 10, 10, 10))
>>> record.title, record.board_range, record.details()
('Cup', '3', ['Board 3'])
"""

from __future__ import annotations

from croupier.errors import FileFormatError
from croupier.formats.hand_record_model import (
    BIDI_CONTROLS,
    DD_ROWS,
    HAND_RECORD_FORMATS,
    MAX_PER_PAGE,
    PAPERS,
    PDF_INSTALL_HINT,
    STRAIN_SYMBOLS,
    STRAINS,
    DoubleDummy,
    HandRecord,
    HandRecordBoard,
    MissingGlyphsWarning,
    ParContract,
    PdfUnavailable,
    Provenance,
    board_range_text,
    check_layout,
    default_per_page,
    hand_hcp,
    shown_text,
)

__all__ = [
    "BIDI_CONTROLS",
    "DD_ROWS",
    "HAND_RECORD_FORMATS",
    "MAX_PER_PAGE",
    "PAPERS",
    "PDF_INSTALL_HINT",
    "STRAINS",
    "STRAIN_SYMBOLS",
    "DoubleDummy",
    "HandRecord",
    "HandRecordBoard",
    "MissingGlyphsWarning",
    "ParContract",
    "PdfUnavailable",
    "Provenance",
    "board_range_text",
    "check_layout",
    "default_per_page",
    "hand_hcp",
    "render_hand_record",
    "shown_text",
]


def render_hand_record(
    record: HandRecord, fmt: str, *, per_page: int | None = None, paper: str = "a4"
) -> bytes:
    """The bytes of ``record`` as an HTML page (``fmt="html"``) or a PDF (``"pdf"``).

    ``per_page`` boards go on one printed page (default :func:`default_per_page`)
    on ``paper`` (``a4`` or ``letter``).  PDF needs the extra ``pdf`` (fpdf2);
    without it the error names the extra to install.  Control characters and
    bidirectional overrides in the header's text show as U+FFFD
    (:func:`shown_text`); characters the PDF's font has no glyph for (CJK,
    Arabic, emoji ...) show as ``?``, and a :class:`MissingGlyphsWarning` names
    them (:func:`croupier.formats.hand_record_pdf.render_pdf` returns them).

    >>> page = render_hand_record(HandRecord((), event="Cup"), "html")
    >>> page.startswith(b"<!DOCTYPE html>"), b"<title>Cup</title>" in page
    (True, True)
    >>> render_hand_record(HandRecord(()), "doc")
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: unknown hand record format 'doc'; expected html or pdf
    """
    if fmt not in HAND_RECORD_FORMATS:
        raise FileFormatError(f"unknown hand record format {fmt!r}; expected html or pdf")
    chosen = default_per_page(record) if per_page is None else per_page
    check_layout(chosen, paper)
    if fmt == "html":
        from croupier.formats.hand_record_html import hand_record_html

        return hand_record_html(record, per_page=chosen, paper=paper).encode("utf-8")
    from croupier.formats.hand_record_pdf import hand_record_pdf

    return hand_record_pdf(record, per_page=chosen, paper=paper)
