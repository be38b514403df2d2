"""Boards as JSON objects: number, dealer, vulnerability, the deal, and its Big Deal number.

==============  ==============================================================
``board``       the board number (1..999)
``dealer``      ``N``, ``E``, ``S`` or ``W``
``vulnerable``  ``None``, ``NS``, ``EW`` or ``All`` (as PBN spells them)
``deal``        the PBN ``Deal`` string, hands N E S W, e.g. ``N:AKQ.…``
``hands``       ``{"N": [codes], "E": …, "S": …, "W": …}``, spades first, ace high
``goedel``      the deal's Big Deal (Gödel) number as a decimal **string**
                (it exceeds 2**53), or ``null`` when the board was read from a file
==============  ==============================================================

>>> from croupier.boards import Board
>>> from croupier.ranking.bigdeal import goedel_unrank
>>> obj = board_to_dict(Board.standard(2, goedel_unrank(0), goedel=0))
>>> obj["board"], obj["dealer"], obj["vulnerable"], obj["goedel"], obj["hands"]["N"][:2]
(2, 'E', 'NS', '0', ['AS', 'KS'])
"""

from __future__ import annotations

from typing import Any

from croupier.boards import SEATS, Board
from croupier.formats.pbn_deal import format_pbn_deal

__all__ = ["board_to_dict"]


def board_to_dict(board: Board) -> dict[str, Any]:
    """The JSON object of one board (see the module docstring for the keys).

    >>> from croupier.boards import Board
    >>> from croupier.ranking.bigdeal import goedel_unrank
    >>> board_to_dict(Board.standard(1, goedel_unrank(5)))["goedel"] is None
    True
    """
    return {
        "board": board.number,
        "dealer": board.dealer,
        "vulnerable": board.vulnerable,
        "deal": format_pbn_deal(board.hands),
        "hands": {
            seat: [c.code for c in hand] for seat, hand in zip(SEATS, board.hands, strict=True)
        },
        "goedel": None if board.goedel is None else str(board.goedel),
    }
