"""Building text for many deals at once: fixed-width byte rows, assembled with numpy.

Every bulk text format writes one record per deal.  A record is a sequence of
*parts*: constant bytes, or a ``(n, width)`` ``uint8`` array with one row per
deal.  A part may pad short values with zero bytes (:data:`PAD`); the padding
is squeezed out when the rows are joined, so records of different lengths
need no Python loop per deal.

>>> import numpy as np
>>> digits = decimal_digits(np.array([7, 42, 105]), 3)
>>> join_rows([b"<", digits, b">\\n"], 3, padded=True)
b'<7>\\n<42>\\n<105>\\n'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from croupier.dealing.layout import Layout

__all__ = [
    "PAD",
    "Part",
    "decimal_digits",
    "display_order",
    "fill_rows",
    "gather_tokens",
    "join_rows",
    "pile_order",
    "token_table",
]

Bytes2D: TypeAlias = npt.NDArray[np.uint8]
Part: TypeAlias = bytes | Bytes2D
"""One field of a record: constant bytes, or one row of bytes per deal."""

PAD = 0
"""The byte that pads short values in a part; never part of the output."""


def decimal_digits(values: npt.NDArray[np.integer], width: int) -> Bytes2D:
    """Non-negative integers as right-aligned ASCII digits, padded with :data:`PAD` bytes.

    >>> decimal_digits(np.array([0, 9, 10, 123]), 3).tolist()[1:3]
    [[0, 0, 57], [0, 49, 48]]
    """
    v = np.asarray(values, dtype=np.uint64)
    out = np.zeros((v.shape[0], width), np.uint8)
    rest = v.copy()
    for col in range(width - 1, -1, -1):  # one pass per digit, lowest first
        digit = (rest % np.uint64(10)).astype(np.uint8) + np.uint8(48)
        shown = (rest > 0) | (col == width - 1)
        out[:, col] = np.where(shown, digit, np.uint8(PAD))
        rest //= np.uint64(10)
    return out


def token_table(tokens: Sequence[bytes]) -> tuple[Bytes2D, bool]:
    """A ``(len(tokens), width)`` table of byte strings padded with :data:`PAD`, and
    whether all tokens have the same width (then no padding is needed).

    >>> table, uniform = token_table([b"AS", b"10S"])
    >>> table.tolist(), uniform
    ([[0, 65, 83], [49, 48, 83]], False)
    """
    width = max((len(t) for t in tokens), default=0)
    table = np.zeros((len(tokens), width), np.uint8)
    for i, tok in enumerate(tokens):  # once per card of the deck, not per deal
        table[i, width - len(tok) :] = np.frombuffer(tok, np.uint8)
    return table, all(len(t) == width for t in tokens)


def display_order(layout: Layout) -> npt.NDArray[np.intp]:
    """Each deck card's place when a hand is shown (the layout's card order, highest first).

    >>> from croupier.dealing.layout import make_layout
    >>> display_order(make_layout("bridge"))[:3].tolist()
    [0, 1, 2]
    """
    from croupier.dealing.notation import sorted_hand  # here: dealer's printing does without

    shown = sorted_hand(layout.deck, layout.order)
    place = {card: i for i, card in enumerate(shown)}
    return np.array([place[c] for c in layout.deck], np.intp)


def pile_order(
    piles: npt.NDArray[np.uint8], place: npt.NDArray[np.intp], pile_count: int
) -> npt.NDArray[np.intp]:
    """Per deal, the deck's places (see :func:`display_order`) grouped by pile, each pile in order.

    Row ``i`` holds pile 0's cards first, then pile 1's, ...; since pile sizes
    are fixed by the layout, pile ``p`` occupies the same columns in every row.

    >>> pile_order(np.array([[1, 0, 1, 0]], np.uint8), np.arange(4), 2).tolist()
    [[1, 3, 0, 2]]
    """
    deck = piles.shape[1]
    shift = max(1, int(deck - 1).bit_length())
    dtype = np.dtype(np.uint16 if pile_count << shift <= 1 << 16 else np.uint32)
    keys: npt.NDArray[np.unsignedinteger[Any]] = piles.astype(dtype)
    keys <<= shift
    keys |= place.astype(dtype)
    keys.sort(axis=1)
    keys &= (1 << shift) - 1
    return keys.astype(np.intp)


def gather_tokens(table: Bytes2D, index: npt.NDArray[np.intp]) -> Bytes2D:
    """The rows of ``table`` that ``index`` (shape ``(n, k)``) picks, side by side: ``(n, k * w)``.

    >>> table, _ = token_table([b"AS ", b"KS "])
    >>> bytes(gather_tokens(table, np.array([[1, 0]]))[0])
    b'KS AS '
    """
    n, width = index.shape[0], table.shape[1]
    whole = np.ascontiguousarray(table).view(f"V{width}").ravel()  # one item per token
    return np.take(whole, index).view(np.uint8).reshape(n, -1)


def fill_rows(parts: Sequence[Part], out: Bytes2D) -> None:
    """Write the records of ``parts`` into ``out`` (shape ``(n, total width)``), side by side.

    >>> out = np.zeros((2, 3), np.uint8)
    >>> fill_rows([b"<", np.array([[65], [66]], np.uint8), b">"], out)
    >>> out.tobytes()
    b'<A><B>'
    """
    at = 0
    for part in parts:
        if isinstance(part, bytes):
            width = len(part)
            out[:, at : at + width] = np.frombuffer(part, np.uint8)
        else:
            width = int(part.shape[1])
            out[:, at : at + width] = part
        at += width


def join_rows(parts: Sequence[Part], n: int, *, padded: bool = False) -> bytes:
    """The records of ``n`` deals, each the concatenation of ``parts``, as one byte string.

    ``padded=True`` when some part holds :data:`PAD` bytes (they are dropped).

    >>> join_rows([b"x", np.array([[65, 0], [66, 67]], np.uint8), b"\\n"], 2, padded=True)
    b'xA\\nxBC\\n'
    """
    width = sum(len(p) if isinstance(p, bytes) else int(p.shape[1]) for p in parts)
    out = np.empty((n, width), np.uint8)
    fill_rows(parts, out)
    if padded:
        return bytes(out[out != PAD].tobytes())
    return bytes(out.tobytes())
