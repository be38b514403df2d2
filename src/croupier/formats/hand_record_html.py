"""Printable hand records: an HTML page of compass diagrams, several boards per page.

Each board shows North at the top, West and East at the sides and South at
the bottom; the centre names the board, the dealer and the vulnerability.
Suits use their symbols, hearts and diamonds in red.  Boards are laid out in
two columns, ``per_page`` boards to a printed page (a page break follows each
group, and every page repeats the title), so a director can print the file
straight from a browser.

>>> from croupier.ranking.bigdeal import goedel_unrank
>>> from croupier.boards import Board
>>> page = format_hand_record_html([Board.standard(1, goedel_unrank(0))], title="Club <pairs>")
>>> "<title>Club &lt;pairs&gt;</title>" in page, page.count('class="board"')
(True, 1)
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from croupier.boards import Board
from croupier.cards import Card
from croupier.errors import FileFormatError
from croupier.formats.pbn_deal import format_pbn_hand

__all__ = ["format_hand_record_html"]

_SUITS = (("♠", "black"), ("♥", "red"), ("♦", "red"), ("♣", "black"))
_SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
_VUL_TEXT = {"None": "None", "NS": "N-S", "EW": "E-W", "All": "All"}

_CSS = """
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 1cm; }
h1 { font-size: 14pt; margin: 0; grid-column: 1 / -1; }
.page { display: grid; grid-template-columns: 1fr 1fr; gap: 0.6cm 1cm; }
.page + .page { break-before: page; page-break-before: always; margin-top: 0.6cm; }
.board { border: 1px solid #888; padding: 0.25cm; break-inside: avoid; }
.compass { display: grid; grid-template-columns: 1fr 1fr 1fr; align-items: center; }
.hand { font-size: 11pt; line-height: 1.3; white-space: nowrap; }
.n { grid-column: 2; grid-row: 1; }
.w { grid-column: 1; grid-row: 2; }
.c { grid-column: 2; grid-row: 2; text-align: center; border: 1px solid #bbb;
     padding: 0.15cm; font-size: 9pt; }
.e { grid-column: 3; grid-row: 2; }
.s { grid-column: 2; grid-row: 3; }
.c .num { font-size: 14pt; font-weight: bold; }
.red { color: #c00000; }
.black { color: #000; }
@media print { body { margin: 0.5cm; } }
"""


def _hand_html(cards: Sequence[Card]) -> str:
    rows = []
    for (symbol, colour), ranks in zip(_SUITS, format_pbn_hand(cards).split("."), strict=True):
        shown = " ".join("10" if r == "T" else r for r in ranks) or "—"
        rows.append(f'<span class="{colour}">{symbol}</span> {shown}')
    return "<br>".join(rows)


def _board_html(board: Board) -> str:
    n, e, s, w = (_hand_html(h) for h in board.hands)
    centre = (
        f'<span class="num">{board.number}</span><br>'
        f"Dealer {_SEAT_NAMES[board.dealer]}<br>Vul {_VUL_TEXT[board.vulnerable]}"
    )
    return (
        f'<div class="board" id="board-{board.number}"><div class="compass">'
        f'<div class="hand n">{n}</div><div class="hand w">{w}</div>'
        f'<div class="c">{centre}</div><div class="hand e">{e}</div>'
        f'<div class="hand s">{s}</div></div></div>'
    )


def format_hand_record_html(
    boards: Sequence[Board], *, title: str = "Hand record", per_page: int = 6
) -> str:
    """A complete, self-contained HTML page with every board of ``boards``.

    >>> format_hand_record_html([], per_page=0)
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: boards per page must be 1..24, got 0
    """
    if not 1 <= per_page <= 24:
        raise FileFormatError(f"boards per page must be 1..24, got {per_page}")
    safe_title = html.escape(title)
    pages = []
    for i in range(0, len(boards), per_page):
        body = "\n".join(_board_html(b) for b in boards[i : i + per_page])
        pages.append(f'<section class="page">\n<h1>{safe_title}</h1>\n{body}\n</section>')
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{safe_title}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        + "\n".join(pages)
        + "\n</body>\n</html>\n"
    )
