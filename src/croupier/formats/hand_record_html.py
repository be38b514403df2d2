"""Printable hand records as one static HTML page: a section per board, next/previous links.

Each board is a ``<section class="board" id="board-N">`` with links to the
previous and next board and back to the index at the top.  Its diagram shows
North at the top, West and East at the sides and South at the bottom, with
suit symbols (hearts and diamonds in red) and ``10`` for the ten; the corner
names the board, the dealer and the vulnerability, and the centre gives each
hand's high-card points, the vulnerable side's edges in red.  With
double-dummy analysis the board also shows the tricks table (declarers
``N S E W``, strains ``♠ ♥ ♦ ♣ NT``) and the par.  The header holds the
event, session, date and boards, and for boards dealt under a commitment the
commitment, the delayed value and how to verify them.

The page prints as a hand record: a print stylesheet hides the navigation,
keeps each board on one page, puts ``per_page`` boards on a sheet of A4 or
Letter and repeats the title at the head of every sheet.  Everything is in the
one file (inline CSS, no scripts, no fonts to fetch), so it works offline.

What the files and options say (event, session, date, file names) is shown
as text, never as markup: it is escaped, its control characters and
bidirectional overrides show as U+FFFD
(:func:`~croupier.formats.hand_record.shown_text`), and a value that shares
a line with other text is isolated in a ``<bdi>`` element, so a session name
in Hebrew or Arabic reads right to left without turning the rest of its line
around.

>>> from croupier.ranking.bigdeal import goedel_unrank
>>> from croupier.boards import Board
>>> page = format_hand_record_html([Board.standard(1, goedel_unrank(0))], title="Club <pairs>")
>>> "<title>Club &lt;pairs&gt;</title>" in page, page.count('<section class="board"')
(True, 1)
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from croupier.boards import Board
from croupier.formats.codec import BoardFileCodec
from croupier.formats.hand_record_model import (
    DD_ROWS,
    STRAIN_SYMBOLS,
    STRAINS,
    HandRecord,
    HandRecordBoard,
    board_range_text,
    check_layout,
    shown_text,
)
from croupier.seats import SEATS, Seat

__all__ = ["board_ids", "format_hand_record_html", "hand_record_html"]

_SUITS = (("♠", "black"), ("♥", "red"), ("♦", "red"), ("♣", "black"))
_PAGE_SIZE = {"a4": "A4", "letter": "letter"}

_CSS = """
:root { --red: #c00000; --line: #999; }
body { font-family: "DejaVu Sans", "Segoe UI", Arial, sans-serif; margin: 1.5em; color: #000; }
header h1 { font-size: 1.5em; margin: 0 0 0.2em 0; }
.details { margin: 0 0 0.4em 0; }
.provenance { font-size: 0.85em; margin: 0.4em 0; overflow-wrap: anywhere; }
.provenance p { margin: 0.15em 0; }
.index { margin: 0.6em 0; line-height: 1.8; }
.index a { display: inline-block; min-width: 2em; text-align: center; }
.running { display: none; font-size: 0.9em; color: #444; margin: 0 0 0.3em 0; grid-column: 1 / -1; }
.page { display: grid; grid-template-columns: 1fr 1fr; gap: 0.8em 1.2em; margin-bottom: 1.2em; }
.page.one { grid-template-columns: 1fr; }
.board { border: 1px solid var(--line); padding: 0.4em 0.6em; break-inside: avoid;
         page-break-inside: avoid; scroll-margin-top: 0.5em; }
.board-nav { display: flex; justify-content: space-between; font-size: 0.8em;
             margin-bottom: 0.3em; }
.board-nav .off { visibility: hidden; }
.diagram { display: grid; grid-template-columns: 1fr auto 1fr; grid-template-rows: auto auto auto;
           gap: 0.3em 0.6em; align-items: center; }
.hand { font-size: 1em; line-height: 1.35; white-space: nowrap; }
.info { grid-column: 1; grid-row: 1; align-self: start; font-size: 0.9em; }
.info .num { font-size: 1.3em; font-weight: bold; }
.n { grid-column: 2 / 4; grid-row: 1; }
.w { grid-column: 1; grid-row: 2; }
.c { grid-column: 2; grid-row: 2; display: grid; grid-template-columns: 1.6em 1.6em 1.6em;
     grid-template-rows: 1.4em 1.4em 1.4em; text-align: center; align-items: center;
     border: 3px solid #ccc; font-size: 0.85em; background: #f6f6f6; }
.c.vul-ns { border-top-color: var(--red); border-bottom-color: var(--red); }
.c.vul-ew { border-left-color: var(--red); border-right-color: var(--red); }
.hn { grid-column: 2; grid-row: 1; } .hw { grid-column: 1; grid-row: 2; }
.he { grid-column: 3; grid-row: 2; } .hs { grid-column: 2; grid-row: 3; }
.e { grid-column: 3; grid-row: 2; }
.s { grid-column: 2 / 4; grid-row: 3; }
.corner { grid-column: 1; grid-row: 3; align-self: end; font-size: 0.8em; }
table.dd { border-collapse: collapse; margin-bottom: 0.2em; }
table.dd th, table.dd td { padding: 0 0.25em; text-align: center; font-weight: normal; }
table.dd thead th { border-bottom: 1px solid var(--line); }
table.dd tbody th { border-right: 1px solid var(--line); }
.par { margin: 0; }
.red { color: var(--red); }
.black { color: #000; }
@page { size: PAPER; margin: 12mm; }
@media print {
  body { margin: 0; font-size: 10pt; }
  nav, .index, .board-nav { display: none; }
  .running { display: block; }
  .page { margin: 0; break-after: page; page-break-after: always; }
  .page:last-child { break-after: auto; page-break-after: auto; }
  a { color: inherit; text-decoration: none; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
"""


def _text(value: str) -> str:
    r"""``value`` as page text: escaped, control and bidi-override characters as U+FFFD.

    >>> _text("<b>\x1b\u202e") == "&lt;b&gt;\ufffd\ufffd"
    True
    """
    return html.escape(shown_text(value))


def _isolated(value: str) -> str:
    """``value`` as page text in a ``<bdi>`` of its own (its direction cannot reach out)."""
    return f"<bdi>{_text(value)}</bdi>"


def _hand_html(board: HandRecordBoard, seat: int) -> str:
    if not board.hands[seat]:
        return '<span class="unknown">—</span>'
    rows = []
    for (symbol, colour), shown in zip(_SUITS, board.suits(seat), strict=True):
        rows.append(f'<span class="{colour}">{symbol}</span> {shown}')
    return "<br>".join(rows)


def _centre_html(board: HandRecordBoard) -> str:
    ns = " vul-ns" if board.vulnerable.is_vulnerable(Seat.NORTH) else ""
    ew = " vul-ew" if board.vulnerable.is_vulnerable(Seat.EAST) else ""
    spans = "".join(
        f'<span class="h{seat.lower()}" title="{seat} high-card points">{"" if p is None else p}'
        "</span>"
        for seat, p in zip(SEATS, board.hcp, strict=True)
    )
    vul = ns + ew
    return f'<div class="c{vul}" aria-label="high-card points">{spans}</div>'


def _dd_html(board: HandRecordBoard) -> str:
    dd = board.double_dummy
    if dd is None:
        return ""
    head = "".join(
        f'<th class="{"red" if s in ("H", "D") else "black"}">{STRAIN_SYMBOLS[s]}</th>'
        for s in STRAINS
    )
    rows = "".join(
        f"<tr><th>{seat}</th>"
        + "".join(f"<td>{dd.tricks_for(seat, s)}</td>" for s in STRAINS)
        + "</tr>"
        for seat in DD_ROWS
    )
    par = f'<p class="par">Par {dd.par_text}<br>{html.escape(dd.contracts_text)}</p>'
    return (
        '<div class="corner"><table class="dd" aria-label="double-dummy tricks">'
        f"<thead><tr><th></th>{head}</tr></thead><tbody>{rows}</tbody></table>{par}</div>"
    )


def board_ids(record: HandRecord) -> list[str]:
    """The ``id`` of each board's section: ``board-N``, ``board-N-2`` for a repeated number.

    >>> from croupier.ranking.bigdeal import goedel_unrank
    >>> b = HandRecordBoard.from_board(Board.standard(1, goedel_unrank(0)))
    >>> board_ids(HandRecord((b, b)))
    ['board-1', 'board-1-2']
    """
    seen: dict[int, int] = {}
    ids = []
    for b in record.boards:
        seen[b.number] = seen.get(b.number, 0) + 1
        ids.append(f"board-{b.number}" + (f"-{seen[b.number]}" if seen[b.number] > 1 else ""))
    return ids


def _nav_html(record: HandRecord, ids: list[str], i: int) -> str:
    def link(j: int, cls: str, text: str) -> str:
        if not 0 <= j < len(ids):
            return f'<span class="{cls} off">{text}</span>'
        label = text.replace("#", str(record.boards[j].number))
        return f'<a class="{cls}" href="#{ids[j]}" rel="{cls}">{label}</a>'

    return (
        '<nav class="board-nav">'
        + link(i - 1, "prev", "← Board #")
        + '<a href="#top">All boards</a>'
        + link(i + 1, "next", "Board # →")
        + "</nav>"
    )


def _board_html(record: HandRecord, ids: list[str], i: int) -> str:
    board = record.boards[i]
    n, e, s, w = (_hand_html(board, seat) for seat in range(4))
    info = (
        f'<div class="info"><span class="num">Board {board.number}</span><br>'
        f"Dealer {board.dealer_name}<br>Vul {board.vulnerable_text}</div>"
    )
    return (
        f'<section class="board" id="{ids[i]}" aria-label="Board {board.number}">'
        + _nav_html(record, ids, i)
        + f'<div class="diagram">{info}<div class="hand n">{n}</div>'
        f'<div class="hand w">{w}</div>{_centre_html(board)}<div class="hand e">{e}</div>'
        f'<div class="hand s">{s}</div>{_dd_html(board)}</div></section>'
    )


def _header_html(record: HandRecord, ids: list[str]) -> str:
    parts = [f"<h1>{_text(record.title)}</h1>"]
    given = [v for v in (record.session, record.date) if v]  # the text the files gave
    details = [_isolated(v) for v in given] + [_text(d) for d in record.details()[len(given) :]]
    if details:
        parts.append(f'<p class="details">{" · ".join(details)}</p>')
    if record.provenance is not None:
        lines = "".join(f"<p>{_text(line)}</p>" for line in record.provenance.lines())
        parts.append(f'<div class="provenance">{lines}</div>')
    if record.boards:
        links = " ".join(
            f'<a href="#{ident}">{b.number}</a>'
            for ident, b in zip(ids, record.boards, strict=True)
        )
        parts.append(f'<nav class="index">Boards: {links}</nav>')
    return '<header id="top">' + "".join(parts) + "</header>"


def hand_record_html(record: HandRecord, *, per_page: int = 6, paper: str = "a4") -> str:
    """The hand record as one self-contained HTML page (``per_page`` boards a printed sheet).

    >>> from croupier.ranking.bigdeal import goedel_unrank
    >>> boards = [HandRecordBoard.from_board(Board.standard(n, goedel_unrank(n))) for n in (1, 2)]
    >>> page = hand_record_html(HandRecord(tuple(boards), event="Cup"), per_page=1)
    >>> page.count('class="page'), 'href="#board-2" rel="next"' in page, "@media print" in page
    (2, True, True)
    """
    check_layout(per_page, paper)
    ids = board_ids(record)
    title = record.full_title
    pages = []
    for start in range(0, len(record.boards), per_page):
        stop = min(start + per_page, len(record.boards))
        shown = record.boards[start:stop]
        word = "Board" if len(shown) == 1 else "Boards"
        numbers = board_range_text([b.number for b in shown])
        running = f"{_isolated(title)} · {word} {numbers}"
        body = "\n".join(_board_html(record, ids, i) for i in range(start, stop))
        cls = "page one" if per_page == 1 else "page"
        pages.append(f'<div class="{cls}">\n<p class="running">{running}</p>\n{body}\n</div>')
    css = _CSS.replace("PAPER", _PAGE_SIZE[paper])
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="generator" content="croupier">\n'
        f"<title>{_text(title)}</title>\n<style>{css}</style>\n</head>\n<body>\n"
        + _header_html(record, ids)
        + "\n<main>\n"
        + "\n".join(pages)
        + "\n</main>\n</body>\n</html>\n"
    )


def format_hand_record_html(
    boards: Sequence[Board], *, title: str = "Hand record", per_page: int = 6, paper: str = "a4"
) -> str:
    """A complete, self-contained HTML page with every board of ``boards`` (no analysis).

    ``title`` is the event's name at the head of the page.

    >>> format_hand_record_html([], per_page=0)
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: boards per page must be 1..12, got 0
    """
    record = HandRecord.from_boards(boards, event="" if title == "Hand record" else title)
    return hand_record_html(record, per_page=per_page, paper=paper)


BOARD_FILE = BoardFileCodec(
    read_boards=None,
    read_records=None,
    render_boards=lambda boards, o: format_hand_record_html(boards, title=o.title).encode("utf-8"),
)
"""HTML hand records as board files (:mod:`croupier.formats.registry`): written, never read
(records are printed as boards)."""
