"""Text records of deal arrays: dealer's one-line layout, PBN deals and games, LIN, JSON lines.

Each ``*_bytes`` function turns a whole :class:`~croupier.bulk.DealArray` into
the bytes of its records (UTF-8, LF line ends) with numpy: no Python work per
card or per deal.

* :func:`oneline_bytes`: for bridge exactly what the ``dealer`` program prints
  with ``action printoneline``: ``n <N> e <E> s <S> w <W> `` (a space before
  the line end), hands ``S.H.D.C`` with ranks ``AKQJT98765432`` and voids
  empty.  Other layouts: ``<pile> <card> <card> ... | <pile> ...``, every
  pile of the layout (remainder included) with its cards highest first, a
  stack's cards in their order, top first.
* :func:`pbn_deal_bytes`: one PBN deal string per line, ``N:<N> <E> <S> <W>``.
* :func:`pbn_game_bytes`: full games of a PBN 2.1 export file (CRLF line ends
  unless asked otherwise), board numbers counting up, ``Dealer`` and
  ``Vulnerable`` by the standard cycles, the ``Deal`` tag starting with the
  dealer's hand; :func:`pbn_header_bytes` is the file's first two lines.
* :func:`lin_bytes`: BBO LIN, one board per line, as
  :func:`croupier.formats.lin.format_lin_board` writes it.
* :func:`jsonl_bytes`: one JSON object per line, keys as ``croupier deal --format jsonl``.

>>> from croupier.bulk import DealArray
>>> from croupier.dealing.layout import make_layout
>>> from croupier.dealing.deal import deal_from_number
>>> deals = DealArray.from_deals([deal_from_number(make_layout("bridge"), 10**28)])
>>> oneline_bytes(deals).decode()
'n A9.AQ5.AQ953.Q43 e T54.J6.KT84.A962 s K87632.3.J6.KJ85 w QJ.KT98742.72.T7 \\n'
>>> pbn_deal_bytes(deals).decode()
'N:A9.AQ5.AQ953.Q43 T54.J6.KT84.A962 K87632.3.J6.KJ85 QJ.KT98742.72.T7\\n'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping

import numpy as np
import numpy.typing as npt

from croupier.bulk.array import SUIT_ORDER, DealArray
from croupier.bulk.writers.base import BulkWriterError
from croupier.bulk.writers.rows import (
    Bytes2D,
    Part,
    decimal_digits,
    display_order,
    fill_rows,
    gather_tokens,
    join_rows,
    pile_order,
    token_table,
)
from croupier.cards import BRIDGE_RANK_LETTERS, BRIDGE_SUIT_LETTERS, Rank
from croupier.dealing.layout import Layout
from croupier.errors import utf8_bytes
from croupier.formats.deal_text import sorted_hand
from croupier.formats.pbn_deal import PBN_RANKS
from croupier.seats import BOARD_CYCLE, Seat, Vulnerability

__all__ = [
    "check_first_board",
    "jsonl_bytes",
    "lin_bytes",
    "oneline_bytes",
    "parse_oneline",
    "pbn_deal_bytes",
    "pbn_game_bytes",
    "pbn_header_bytes",
    "require_bridge",
]

CHUNK_ROWS = 16384
"""Deals rendered at a time (bounds the temporary arrays to a few MB)."""


def require_bridge(layout: Layout, fmt: str) -> None:
    """Refuse ``layout`` for the bridge-only format ``fmt`` (PBN) unless it is bridge-like.

    >>> from croupier.dealing.layout import make_layout
    >>> require_bridge(make_layout("euchre"), "pbn")
    Traceback (most recent call last):
    ...
    croupier.bulk.writers.base.BulkWriterError: format 'pbn' needs a bridge layout ...
    """
    if not layout.bridge_like:
        raise BulkWriterError(
            f"format {fmt!r} needs a bridge layout (hands N, E, S, W of 13 cards of the standard "
            f"deck), not {layout.game!r}; use oneline, jsonl, npy or npz"
        )


# -- bridge hands: S.H.D.C strings of 16 characters ------------------------------------

_SUIT_SLOT = 16  # each suit's key range inside a hand; the dot after suit s sorts at s*16 + 15
_HAND_SLOT = 64  # each hand's key range (4 suits)


def _bridge_card_keys(layout: Layout) -> npt.NDArray[np.uint16]:
    """Each deck card's sort key inside its hand: suit (S H D C) * 16 + place in AKQJT98765432."""
    suit_of = {s: i for i, s in enumerate(SUIT_ORDER)}
    keys = []
    for card in layout.deck:  # the callers checked that the deck is the 52 standard cards
        letter = "T" if card.rank == Rank.TEN else card.rank.letter
        suit = 0 if card.suit is None else suit_of[card.suit]
        keys.append(suit * _SUIT_SLOT + PBN_RANKS.index(letter))
    return np.array(keys, np.uint16)


def _key_letters() -> npt.NDArray[np.uint8]:
    """The character of every sort key: a rank letter or the dot after a suit."""
    table = np.zeros(4 * _HAND_SLOT, np.uint8)
    for key in range(4 * _HAND_SLOT):
        within = key % _SUIT_SLOT
        if within < len(BRIDGE_RANK_LETTERS):
            table[key] = ord(PBN_RANKS[within])
        elif within == _SUIT_SLOT - 1:
            table[key] = ord(".")
    return table


_LETTERS = _key_letters()
_DOTS = np.array(
    [p * _HAND_SLOT + s * _SUIT_SLOT + _SUIT_SLOT - 1 for p in range(4) for s in range(3)],
    np.uint16,
)


def _lin_key_letters() -> npt.NDArray[np.uint8]:
    """:func:`_key_letters` for LIN hands: the mark after spades is ``H``, then ``D``, ``C``."""
    table = _key_letters().copy()
    for key in range(4 * _HAND_SLOT):
        suit, within = divmod(key % _HAND_SLOT, _SUIT_SLOT)
        if within == _SUIT_SLOT - 1 and suit < 3:
            table[key] = ord(BRIDGE_SUIT_LETTERS[suit + 1])
    return table


_LIN_LETTERS = _lin_key_letters()


def _bridge_hands(
    piles: npt.NDArray[np.uint8],
    card_keys: npt.NDArray[np.uint16],
    letters: npt.NDArray[np.uint8] = _LETTERS,
) -> Bytes2D:
    """The four hands N, E, S, W of every deal as ``S.H.D.C`` text: shape ``(n, 64)``.

    Every hand is 13 letters and 3 dots: each deal's card keys and the 12 dot
    keys in rising order, each written as its character (``letters``;
    :data:`_LIN_LETTERS` writes the suit marks of LIN in place of the dots).  The
    compiled core puts each key in its place without sorting
    (``croupier._core.deal_text.hand_text``); :func:`_bridge_hands_reference`,
    which sorts, is its specification.
    """
    from croupier._core.deal_text import hand_text

    out = np.empty((piles.shape[0], 64), np.uint8)
    hand_text(np.ascontiguousarray(piles, np.uint8), card_keys, _DOTS, letters, out)
    return out


def _bridge_hands_reference(
    piles: npt.NDArray[np.uint8],
    card_keys: npt.NDArray[np.uint16],
    letters: npt.NDArray[np.uint8] = _LETTERS,
) -> Bytes2D:
    """:func:`_bridge_hands` by sorting: each deal's card keys and the dot keys sorted
    together put every character in its place."""
    n = piles.shape[0]
    keys = np.empty((n, 64), np.uint16)
    np.multiply(piles, np.uint16(_HAND_SLOT), out=keys[:, :52])
    keys[:, :52] += card_keys
    keys[:, 52:] = _DOTS
    keys.sort(axis=1)
    return letters[keys]


def _chunks(deals: DealArray) -> list[npt.NDArray[np.uint8]]:
    piles = deals.piles
    return [piles[i : i + CHUNK_ROWS] for i in range(0, piles.shape[0], CHUNK_ROWS)]


_Seps = tuple[bytes, bytes, bytes, bytes, bytes]


def _hand_parts(hands: Bytes2D, seps: _Seps) -> list[Part]:
    parts: list[Part] = []
    for p in range(4):
        parts += [seps[p], hands[:, 16 * p : 16 * p + 16]]
    parts.append(seps[4])
    return parts


def _bridge_lines(deals: DealArray, seps: _Seps) -> Bytes2D:
    """Fixed-width lines ``seps[0] N seps[1] E seps[2] S seps[3] W seps[4]``, one row a deal."""
    keys = _bridge_card_keys(deals.layout)
    out = np.empty((len(deals), 64 + sum(len(s) for s in seps)), np.uint8)
    for at, chunk in zip(range(0, len(deals), CHUNK_ROWS), _chunks(deals), strict=True):
        fill_rows(_hand_parts(_bridge_hands(chunk, keys), seps), out[at : at + chunk.shape[0]])
    return out


# -- one line per deal -------------------------------------------------------------------

_ONELINE_SEPS = (b"n ", b" e ", b" s ", b" w ", b" \n")
_PBN_DEAL_SEPS = (b"N:", b" ", b" ", b" ", b"\n")


def oneline_buffer(deals: DealArray) -> Bytes2D | bytes:
    """:func:`oneline_bytes` without a copy: bridge lines come as a ``(n, 77)`` array."""
    if deals.layout.bridge_like:
        return _bridge_lines(deals, _ONELINE_SEPS)
    return _render(deals, _oneline_template(deals.layout))


def oneline_bytes(deals: DealArray) -> bytes:
    """Every deal on one line: dealer's ``printoneline`` layout for bridge (see the module).

    >>> from croupier.bulk import DealArray
    >>> from croupier.dealing.layout import make_layout
    >>> from croupier.dealing.deal import deal_from_number
    >>> one = DealArray.from_deals([deal_from_number(make_layout("bridge"), 0)])
    >>> oneline_bytes(one)
    b'n AKQJT98765432... e .AKQJT98765432.. s ..AKQJT98765432. w ...AKQJT98765432 \\n'
    >>> lay = make_layout(hands=[2, 1], deck="stripped:AK")
    >>> oneline_bytes(DealArray.from_deals([deal_from_number(lay, 0)])).decode()
    'P1 AS KS | P2 AH | stock KH AD KD AC KC\\n'
    """
    return bytes(oneline_buffer(deals))


def pbn_deal_buffer(deals: DealArray) -> Bytes2D:
    """:func:`pbn_deal_bytes` without a copy: a ``(n, 70)`` array of lines."""
    require_bridge(deals.layout, "pbn-deal")
    return _bridge_lines(deals, _PBN_DEAL_SEPS)


def pbn_deal_bytes(deals: DealArray) -> bytes:
    """Every deal as a PBN deal string ``N:<N> <E> <S> <W>`` on a line of its own.

    >>> from croupier.bulk import DealArray
    >>> from croupier.dealing.layout import make_layout
    >>> from croupier.dealing.deal import deal_from_number
    >>> pbn_deal_bytes(DealArray.from_deals([deal_from_number(make_layout("bridge"), 1)]))
    b'N:AKQJT98765432... .AKQJT98765432.. ..AKQJT9876543.A ..2.KQJT98765432\\n'
    """
    return bytes(pbn_deal_buffer(deals))


# -- PBN games and LIN boards -------------------------------------------------------------

PBN_NEWLINES = ("\r\n", "\n")
"""The line ends a PBN game file may have: CRLF (PBN's export format) or LF when asked."""


def _check_newline(newline: str) -> bytes:
    if newline not in PBN_NEWLINES:
        raise BulkWriterError(f"newline={newline!r} must be '\\r\\n' (PBN export) or '\\n'")
    return newline.encode()


def pbn_header_bytes(*, newline: str = "\r\n") -> bytes:
    """The first two lines of a PBN 2.1 export file (``% PBN 2.1``, ``% EXPORT``).

    >>> pbn_header_bytes()
    b'% PBN 2.1\\r\\n% EXPORT\\r\\n'
    >>> pbn_header_bytes(newline="\\n")
    b'% PBN 2.1\\n% EXPORT\\n'
    """
    nl = _check_newline(newline)
    return b"% PBN 2.1" + nl + b"% EXPORT" + nl


_CYCLE = range(1, BOARD_CYCLE + 1)  # boards 1..16: both standard cycles, once
_DEALER_POSITIONS = np.array([Seat.of_board(b).position for b in _CYCLE], np.int64)


def _phase(boards: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Each board's place in the standard cycles: the index of :data:`_CYCLE` it repeats."""
    return (boards - 1) % BOARD_CYCLE


def _cycle_tables() -> tuple[Bytes2D, Bytes2D]:
    """Dealer letter and (padded) vulnerability of boards 1..16, indexed by :func:`_phase`."""
    dealers = np.array([[ord(Seat.of_board(b))] for b in _CYCLE], np.uint8)
    vuls, _ = token_table([Vulnerability.of_board(b).encode() for b in _CYCLE])
    return dealers, vuls


def _from_dealer(hands: Bytes2D, dealer: npt.NDArray[np.int64]) -> Bytes2D:
    """The four 16-byte hands of each row, turned so that the hand of ``dealer`` (0..3) is first."""
    n = hands.shape[0]
    turn = (dealer[:, None] + np.arange(4)) % 4  # the seats N E S W = 0 1 2 3 from the dealer on
    by_seat = hands.reshape(n, 4, 16)
    return np.take_along_axis(by_seat, turn[:, :, None], axis=1).reshape(n, 64)


def pbn_game_bytes(
    deals: DealArray,
    first_board: int = 1,
    *,
    generator: str = "croupier",
    event: str = "?",
    site: str = "?",
    date: str = "?",
    newline: str = "\r\n",
) -> bytes:
    """The PBN 2.1 export games of ``deals``, boards numbered from ``first_board`` (no header).

    Every game has the mandatory tags in PBN's order: ``Event``, ``Site``,
    ``Date``, ``Board``, ``West``, ``North``, ``East``, ``South`` (``?``),
    ``Dealer`` and ``Vulnerable`` by the standard cycles, ``Deal`` starting
    with the dealer's hand, ``Scoring``, ``Declarer``, ``Contract``,
    ``Result`` (``?``), then ``Generator``, and an empty line; every line
    ends with ``newline`` (CRLF by default, as the export format has it).
    Board numbers go on past 999 (PBN sets no limit; croupier's readers
    take 1..999).

    >>> from croupier.bulk import deal_array
    >>> text = pbn_game_bytes(deal_array(20, seed="docs"), first_board=7).decode()
    >>> lines = text.split("\\r\\n")
    >>> [line for line in lines if line.startswith(("[Board", "[Dealer", "[Vul"))][:3]
    ['[Board "7"]', '[Dealer "S"]', '[Vulnerable "All"]']
    >>> [line[:9] for line in lines if line.startswith("[Deal ")][:2]
    ['[Deal "S:', '[Deal "W:']
    """
    from croupier.formats.pbn import pbn_escape  # here: one-line and PBN deals do without

    require_bridge(deals.layout, "pbn")
    first = check_first_board(first_board)
    nl = _check_newline(newline).decode()
    keys = _bridge_card_keys(deals.layout)
    dealers, vuls = _cycle_tables()
    head = f'[Event "{pbn_escape(event)}"]{nl}[Site "{pbn_escape(site)}"]{nl}'
    head += f'[Date "{pbn_escape(date)}"]{nl}[Board "'
    players = f'"]{nl}[West "?"]{nl}[North "?"]{nl}[East "?"]{nl}[South "?"]{nl}[Dealer "'
    tail = f'"]{nl}[Scoring "?"]{nl}[Declarer "?"]{nl}[Contract "?"]{nl}[Result "?"]{nl}'
    tail += f'[Generator "{pbn_escape(generator)}"]{nl}{nl}'
    out = []
    start = first
    for chunk in _chunks(deals):
        n = chunk.shape[0]
        boards = np.arange(start, start + n, dtype=np.int64)
        phase = _phase(boards)
        width = len(str(start + n - 1))
        hands = _from_dealer(_bridge_hands(chunk, keys), _DEALER_POSITIONS[phase])
        parts: list[Part] = [head.encode(), decimal_digits(boards, width), players.encode()]
        parts += [dealers[phase], f'"]{nl}[Vulnerable "'.encode(), vuls[phase]]
        parts += [f'"]{nl}[Deal "'.encode(), dealers[phase]]
        parts += _hand_parts(hands, (b":", b" ", b" ", b" ", tail.encode()))
        out.append(join_rows(parts, n, padded=True))
        start += n
    return b"".join(out)


def lin_bytes(deals: DealArray, first_board: int = 1) -> bytes:
    """Every deal as a BBO LIN line (LF line ends), boards numbered from ``first_board``.

    Byte for byte what :func:`croupier.formats.lin.format_lin_board` writes for
    the same boards: ``pn|,,,|st||md|`` and the dealer's digit (1 South,
    2 West, 3 North, 4 East), the hands of South, West, North and East as
    ``S…H…D…C…``, ``|rh||ah|Board N|sv|`` and the vulnerability (``o``,
    ``n``, ``e``, ``b``), then ``|pg||``.  Board numbers go on past 999.

    >>> from croupier.bulk import DealArray
    >>> from croupier.dealing.layout import make_layout
    >>> from croupier.dealing.deal import deal_from_number
    >>> line = lin_bytes(DealArray.from_deals([deal_from_number(make_layout("bridge"), 0)]), 2)
    >>> line.decode().split("|")[5:9]
    ['4SHDAKQJT98765432C,SHDCAKQJT98765432,SAKQJT98765432HDC,SHAKQJT98765432DC', 'rh', '', 'ah']
    >>> line[-21:]
    b'ah|Board 2|sv|n|pg||\\n'
    """
    from croupier.formats.lin import LIN_SEATS, lin_dealer_digit  # here: only LIN needs it

    require_bridge(deals.layout, "lin")
    first = check_first_board(first_board)
    keys = _bridge_card_keys(deals.layout)
    lin_hands = tuple(seat.position for seat in LIN_SEATS)  # LIN writes S, W, N, E
    digits = np.array([[ord(lin_dealer_digit(Seat.of_board(b)))] for b in _CYCLE], np.uint8)
    vuls = np.array([[ord(Vulnerability.of_board(b).lin)] for b in _CYCLE], np.uint8)
    out = []
    start = first
    for chunk in _chunks(deals):
        n = chunk.shape[0]
        boards = np.arange(start, start + n, dtype=np.int64)
        phase = _phase(boards)
        width = len(str(start + n - 1))
        hands = _bridge_hands(chunk, keys, _LIN_LETTERS)
        parts: list[Part] = [b"pn|,,,|st||md|", digits[phase]]
        for k, seat in enumerate(lin_hands):
            parts += [b"S" if k == 0 else b",S", hands[:, 16 * seat : 16 * seat + 16]]
        parts += [b"|rh||ah|Board ", decimal_digits(boards, width), b"|sv|", vuls[phase]]
        parts.append(b"|pg||\n")
        out.append(join_rows(parts, n, padded=True))
        start += n
    return b"".join(out)


def check_first_board(first_board: int) -> int:
    """``first_board``, checked: the number of the first board a writer numbers (1 or more).

    >>> check_first_board(17)
    17
    """
    if isinstance(first_board, bool) or not isinstance(first_board, int) or first_board < 1:
        raise BulkWriterError(f"first_board={first_board!r} must be a whole number >= 1")
    return first_board


# -- JSON lines and the generic one-line layout -------------------------------------------

_Cards = tuple[int, Bytes2D, Bytes2D, bool]
"""Pile ``p`` as tokens: ``(p, tokens with separator, tokens alone, all of one width)``."""
_Template = list[bytes | _Cards]
"""A record: constant bytes and card lists, in order."""
_After = Callable[[npt.NDArray[np.uint8], int], list[Part]]
"""More parts of a record, from a chunk of rows and the index of its first row."""


def _card_tables(layout: Layout, quote: str, join: str) -> tuple[Bytes2D, Bytes2D, bool]:
    """Every card's token in display order (:func:`display_order`), with and without ``join``."""
    codes = [quote + c.code + quote for c in sorted_hand(layout.deck, layout.order)]
    with_sep, uniform = token_table([(c + join).encode() for c in codes])
    alone, _ = token_table([c.encode() for c in codes])
    return with_sep, alone, uniform


def _render(
    deals: DealArray, template: _Template, after: _After | None = None, *, padded: bool = False
) -> bytes:
    """The records of ``template`` for every deal (card lists in each pile's display order,
    a stack's in its order)."""
    layout = deals.layout
    stacks = {p: deals.stack(p) for p in layout.stack_piles}
    place = display_order(layout)
    starts = np.cumsum([0, *layout.sizes]).tolist()
    padded = padded or not all(item[3] for item in template if not isinstance(item, bytes))
    out = []
    for at in range(0, len(deals), CHUNK_ROWS):
        chunk = deals.piles[at : at + CHUNK_ROWS]
        n = chunk.shape[0]
        order = pile_order(chunk, place, len(layout.piles))
        parts: list[Part] = []
        for item in template:
            if isinstance(item, bytes):
                parts.append(item)
                continue
            p, sep, last, _ = item
            first, size = starts[p], layout.sizes[p]
            if p in stacks:
                cards = place[stacks[p][at : at + CHUNK_ROWS]]
            else:
                cards = order[:, first : first + size]
            if size > 1:
                parts.append(gather_tokens(sep, cards[:, : size - 1]))
            if size > 0:
                parts.append(gather_tokens(last, cards[:, size - 1 :]))
        if after is not None:
            parts += after(chunk, at)
        out.append(join_rows(parts, n, padded=padded))
    return b"".join(out)


def _oneline_template(layout: Layout) -> _Template:
    sep, last, uniform = _card_tables(layout, "", " ")
    template: _Template = []
    for p, pile in enumerate(layout.piles):
        lead = ("" if p == 0 else " | ") + pile.name + (" " if pile.size else "")
        template += [lead.encode(), (p, sep, last, uniform)]
    template.append(b"\n")
    return template


def _json(value: str | int) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode()


def jsonl_bytes(
    deals: DealArray,
    *,
    bits_used: bool = False,
    fields: Mapping[str, str | int] | None = None,
) -> bytes:
    """One JSON object per deal and line, with the keys of ``croupier deal --format jsonl``.

    Keys, in order: ``game``; ``hands`` (each hand by its pile's name,
    ``{"N": [codes], ...}``, cards highest first, a stack's top first); ``piles``
    (shared piles by name, ``{"flop": [codes]}``); ``remainder`` (codes); ``deal``
    (the PBN deal string, bridge layouts only: the keys of a board's JSON object,
    docs/json.md); ``bits_used`` (the
    row's random bits, when ``bits_used=True`` and the array carries them);
    then ``fields`` (constant values, e.g. ``{"algorithm": "croupier-bulk/1"}``).

    >>> import json
    >>> from croupier.bulk import DealArray
    >>> from croupier.dealing.layout import make_layout
    >>> from croupier.dealing.deal import deal_from_number
    >>> deals = DealArray.from_deals([deal_from_number(make_layout("euchre"), 0)])
    >>> obj = json.loads(jsonl_bytes(deals, fields={"source": "array"}))
    >>> list(obj)
    ['game', 'hands', 'piles', 'remainder', 'source']
    >>> obj["hands"]["N"], obj["remainder"]
    (['AS', 'KS', 'QS', 'JS', 'TS'], ['QC', 'JC', 'TC', '9C'])
    """
    layout = deals.layout
    sep, last, uniform = _card_tables(layout, '"', ", ")
    template: _Template
    hands = [p for p, pile in enumerate(layout.piles) if pile.is_hand]
    shared = [
        p
        for p, pile in enumerate(layout.piles)
        if not pile.is_hand and pile.name != layout.remainder_name
    ]
    template = [b'{"game": ' + _json(layout.game) + b', "hands": {']
    for key, group in ((b"hands", hands), (b"piles", shared)):
        for i, p in enumerate(group):  # (each pile by its name: {"N": [...], ...})
            lead = (b", " if i else b"") + _json(layout.piles[p].name) + b": ["
            template += [lead, (p, sep, last, uniform), b"]"]
        template.append(b'}, "piles": {' if key == b"hands" else b'}, "remainder": [')
    if layout.remainder_name is not None:
        template.append((len(layout.piles) - 1, sep, last, uniform))
    template.append(b"]")
    tail = b"".join(b", " + _json(k) + b": " + _json(v) for k, v in (fields or {}).items())
    card_keys = _bridge_card_keys(layout) if layout.bridge_like else None
    bits = deals.bits if bits_used else None

    def after(chunk: npt.NDArray[np.uint8], at: int) -> list[Part]:
        parts: list[Part] = []
        if card_keys is not None:
            hands = _bridge_hands(chunk, card_keys)
            parts += _hand_parts(hands, (b', "deal": "N:', b" ", b" ", b" ", b'"'))
        if bits is not None:
            digits = decimal_digits(bits[at : at + chunk.shape[0]], 10)
            parts += [b', "bits_used": ', digits, b".0"]
        return [*parts, tail + b"}\n"]

    return _render(deals, template, after, padded=bits is not None)


# -- reading dealer's one-line output -------------------------------------------------------

_ONELINE_WIDTH = 77  # "n " + 16 + " e " + 16 + " s " + 16 + " w " + 16 + " \n"


def parse_oneline(text: str | bytes, layout: Layout | None = None) -> DealArray:
    """The bridge deals of lines in dealer's ``printoneline`` layout (other lines are skipped).

    A deal line starts ``n ``; every hand has 13 cards in 4 suits.  Lines
    that do not start ``n `` (dealer's statistics) are ignored.

    >>> text = "n AKQJT98765432... e .AKQJT98765432.. s ..AKQJT98765432. w ...AKQJT98765432 \\n"
    >>> deals = parse_oneline(text + "Generated 1 hands\\n")
    >>> deals.numbers()
    [0]
    >>> parse_oneline("n AKQ... e x")
    Traceback (most recent call last):
    ...
    croupier.bulk.writers.base.BulkWriterError: line 1 'n AKQ... e x' is not a printoneline ...
    >>> parse_oneline("n \\ud800")
    Traceback (most recent call last):
    ...
    croupier.bulk.writers.base.BulkWriterError: the oneline text is not valid text: character 3 ...
    """
    from croupier.dealing.layout import make_layout

    layout = layout or make_layout("bridge")
    require_bridge(layout, "oneline")
    raw = (
        text
        if isinstance(text, bytes)
        else utf8_bytes(text, "the oneline text", error=BulkWriterError)
    )
    lines = [ln for ln in raw.splitlines() if ln.startswith(b"n ")]
    shown = raw.splitlines()
    for ln in lines:
        if len(ln.rstrip()) != _ONELINE_WIDTH - 2:
            row = shown.index(ln) + 1
            raise BulkWriterError(
                f"line {row} {ln.decode(errors='replace')[:40]!r} is not a printoneline deal; "
                "expected 'n <S.H.D.C> e <...> s <...> w <...>' with 13 cards a hand"
            )
    rows = np.frombuffer(b"".join(ln.rstrip() + b" " for ln in lines), np.uint8)
    rows = rows.reshape(len(lines), _ONELINE_WIDTH - 1)
    column = _bridge_card_keys(layout)
    col_of_key = np.full(256, 255, np.int64)
    col_of_key[column] = np.arange(52)
    piles = np.full((len(lines), 52), 255, np.uint8)
    seen = np.zeros((len(lines), 52), np.int64)
    letter_rank = np.full(256, -1, np.int64)
    for i, ch in enumerate(PBN_RANKS):
        letter_rank[ord(ch)] = i
    for p, seat in enumerate(b"nesw"):
        at = 19 * p
        if not (rows[:, at] == seat).all() or not (rows[:, at + 1] == 32).all():
            raise BulkWriterError(
                f"printoneline hands must be labelled {chr(seat)!r} at column {at + 1}; "
                "expected 'n <hand> e <hand> s <hand> w <hand>'"
            )
        hand = rows[:, at + 2 : at + 18]
        dots = hand == ord(".")
        suit = np.cumsum(dots, axis=1) - dots
        rank = letter_rank[hand]
        bad = (~dots & (rank < 0)) | (dots.sum(axis=1) != 3)[:, None]
        if bad.any():
            row = int(np.nonzero(bad.any(axis=1))[0][0])
            raise BulkWriterError(
                f"bad hand {bytes(hand[row]).decode(errors='replace')!r} in deal {row + 1}; "
                "expected 13 cards as S.H.D.C with ranks AKQJT98765432"
            )
        r, c = np.nonzero(~dots)
        cols = col_of_key[suit[r, c] * _SUIT_SLOT + rank[r, c]]
        piles[r, cols] = p
        np.add.at(seen, (r, cols), 1)
    if (seen != 1).any():
        row = int(np.nonzero((seen != 1).any(axis=1))[0][0])
        raise BulkWriterError(f"deal {row + 1} does not hold every card exactly once")
    return DealArray(layout, piles)
