"""Poker hand evaluation: the best five of 5, 6 or 7 cards, and Omaha's two-plus-three rule.

Scalar (:func:`evaluate`, :func:`evaluate_omaha`) for one hand, with the five
cards that make it; vectorised (:func:`evaluate_array`,
:func:`evaluate_omaha_array`, :func:`evaluate_masks`, :func:`evaluate_deals`)
for millions of hands at once, as ``uint16`` arrays of hand values.  The
scalar functions work from the rules (every five-card subset is classified):
they are the executable specification.  The vectorised ones run the compiled
kernel :mod:`croupier._core.poker_eval`, which looks values up in
:mod:`croupier.poker.tables`; with ``engine="python"`` they run the scalar
evaluator on every row instead (slow: for tests and for reading).  The tests
hold the two to the same values, and both to other evaluators.

>>> v = evaluate("As Ks Qh Jd Tc 2c 2d")
>>> v.value, str(v), [c.code for c in v.best]
(5863, 'Straight, Ace high', ['AS', 'KS', 'QH', 'JD', 'TC'])
>>> str(evaluate_omaha("As Ah Kd Qc", board="Ad 7s 7h 2c 3d"))
'Full House, Aces full of Sevens'

The vectorised functions take card numbers (``AS`` = 0 … ``2C`` = 51, the
column order of the standard games' deal arrays; :func:`card_numbers`):

>>> evaluate_array(card_numbers(["As Ks Qh Jd Tc 2c 2d", "2c 2d 2h 2s 3c 4d 5h"])).tolist()
[5863, 7299]
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Literal, TypeAlias

import numpy as np
import numpy.typing as npt

from croupier._core import poker_eval
from croupier._core.engines import Engine, resolve
from croupier.cards import BRIDGE_DECK, Card, parse_cards
from croupier.errors import excerpt
from croupier.poker._threads import run_parts
from croupier.poker.tables import best_key, card_rank, card_suit, tables
from croupier.poker.values import HandValue, PokerError

__all__ = [
    "CardsLike",
    "Rule",
    "card_number",
    "card_numbers",
    "evaluate",
    "evaluate_array",
    "evaluate_deals",
    "evaluate_masks",
    "evaluate_omaha",
    "evaluate_omaha_array",
    "hand_value",
    "number_card",
    "to_cards",
]

CardsLike: TypeAlias = str | Iterable[Card | str]
"""Cards as text (``"As Kh"``, ``"AsKh"``, ``"A♠ 10♥"``) or a sequence of cards or card texts."""

Rule = Literal["auto", "best", "omaha"]
"""How a pile and a board make a hand: ``best`` five of all, ``omaha`` exactly two from the
pile and three from the board, ``auto`` Omaha for the Omaha games, else ``best``."""


def card_number(card: Card) -> int:
    """The number of a standard card: ``AS`` 0, ``KS`` 1 … ``2S`` 12, ``AH`` 13 … ``2C`` 51.

    >>> from croupier.cards import parse_card
    >>> card_number(parse_card("As")), card_number(parse_card("2c")), card_number(parse_card("Th"))
    (0, 51, 17)
    """
    if card.suit is None:
        raise PokerError(f"poker is played without jokers, not with {card.code!r}")
    if card.copy:
        raise PokerError(
            f"poker is played with one deck, not with the copy {card.code!r} "
            "(#k numbers the copies of a shoe or a pinochle deck)"
        )
    rank = (int(card.rank) - 2) % 13
    return 13 * (3 - int(card.suit)) + 12 - rank


def number_card(number: int) -> Card:
    """The card of a card number (the inverse of :func:`card_number`).

    >>> number_card(0).code, number_card(51).code
    ('AS', '2C')
    """
    if not 0 <= number < 52:
        raise PokerError(f"a card number is 0..51, not {number}")
    return BRIDGE_DECK[number]


def to_cards(cards: CardsLike, what: str = "cards") -> list[Card]:
    """Parse cards given as text or a sequence; each standard card at most once.

    >>> [c.code for c in to_cards("AsKh 10d")]
    ['AS', 'KH', 'TD']
    >>> to_cards("As Ks As")
    Traceback (most recent call last):
    ...
    croupier.poker.values.PokerError: card 'AS' appears twice in cards 'As Ks As'
    """
    if isinstance(cards, str):
        parsed = parse_cards(cards)
        shown = excerpt(cards)
    else:
        parsed = []
        for c in cards:
            if isinstance(c, Card):
                parsed.append(c)
            elif isinstance(c, str):
                parsed += parse_cards(c)
            else:
                raise PokerError(f"expected cards or card text in {what}, got {type(c).__name__}")
        shown = excerpt(" ".join(c.code for c in parsed))
    seen: set[int] = set()
    for c in parsed:
        number = card_number(c)
        if number in seen:
            raise PokerError(f"card {c.code!r} appears twice in {what} {shown}")
        seen.add(number)
    return [Card(c.rank, c.suit) for c in parsed]


def card_numbers(hands: CardsLike | Sequence[CardsLike]) -> npt.NDArray[np.uint8]:
    """Card numbers of one hand (text or cards: shape ``(k,)``) or of a list of hand texts
    of one size (shape ``(n, k)``).

    >>> card_numbers("As Kh").tolist(), card_numbers(["As Kh", "2c 2d"]).tolist()
    ([0, 14], [[0, 14], [51, 38]])
    """
    if isinstance(hands, str) or all(isinstance(c, Card) for c in hands):
        return np.array([card_number(c) for c in to_cards(hands)], np.uint8)  # type: ignore[arg-type]
    rows = [[card_number(c) for c in to_cards(h)] for h in hands]  # type: ignore[arg-type]
    if len({len(r) for r in rows}) > 1:
        raise PokerError("hands given together must have the same number of cards")
    return np.array(rows, np.uint8).reshape(len(rows), len(rows[0]) if rows else 0)


def _numbers(cards: Sequence[Card]) -> list[int]:
    return [card_number(c) for c in cards]


def _five(numbers: Sequence[int]) -> int:
    """The value of exactly five cards (by number), from the rules."""
    ranks = [card_rank(n) for n in numbers]
    flush = len({card_suit(n) for n in numbers}) == 1
    return tables().value_of[best_key(ranks, flush)]


def _best_value(numbers: Sequence[int]) -> int:
    """The value of the best five of 5 to 7 cards (by number), from the rules."""
    return max(_five(five) for five in itertools.combinations(numbers, 5))


def _omaha_value(hole: Sequence[int], board: Sequence[int]) -> int:
    """The best Omaha value of ``hole`` and ``board`` cards (by number), from the rules."""
    return max(
        _five((*two, *three))
        for two in itertools.combinations(hole, 2)
        for three in itertools.combinations(board, 3)
    )


def _best(subsets: Iterable[tuple[Card, ...]]) -> HandValue:
    best_value = 0
    best_cards: tuple[Card, ...] = ()
    for five in subsets:
        value = _five(_numbers(five))
        if value > best_value:
            best_value, best_cards = value, five
    # the five cards in the order of the hand's ranks (pairs together, kickers last),
    # equal ranks in card-number order (spades, hearts, diamonds, clubs)
    out: list[Card] = []
    pool = sorted(best_cards, key=card_number)
    for rank in HandValue(best_value).ranks:
        card = next(c for c in pool if c.rank == rank)
        pool.remove(card)
        out.append(card)
    return HandValue(best_value, tuple(out))


def evaluate(cards: CardsLike, board: CardsLike = ()) -> HandValue:
    """The value of the best five of 5, 6 or 7 cards (``cards`` and ``board`` together).

    >>> str(evaluate("Kh Kd", board="7s 7c Ah Kc 2d"))
    'Full House, Kings full of Sevens'
    >>> evaluate("Kh Kd 7s")
    Traceback (most recent call last):
    ...
    croupier.poker.values.PokerError: a poker hand is the best five of 5, 6 or 7 cards, not 3
    """
    every = to_cards([*to_cards(cards, "cards"), *to_cards(board, "board")], "cards and board")
    if not 5 <= len(every) <= 7:
        raise PokerError(f"a poker hand is the best five of 5, 6 or 7 cards, not {len(every)}")
    return _best(itertools.combinations(every, 5))


def evaluate_omaha(hole: CardsLike, board: CardsLike) -> HandValue:
    """Omaha: the best hand of exactly two of the 4, 5 or 6 ``hole`` cards and three of the
    3 to 5 ``board`` cards.

    >>> str(evaluate_omaha("As Ah Kd Qc", board="Ks Ts 9s 2s 7h"))    # one spade: no flush
    'One Pair, Aces, King Ten Nine kickers'
    """
    own = to_cards(hole, "hole cards")
    common = to_cards(board, "board")
    to_cards([*own, *common], "hole cards and board")
    _check_omaha(len(own), len(common))
    return _best(
        (*two, *three)
        for two in itertools.combinations(own, 2)
        for three in itertools.combinations(common, 3)
    )


def _check_omaha(hole: int, board: int) -> None:
    if not 4 <= hole <= 6:
        raise PokerError(f"an Omaha hand has 4, 5 or 6 hole cards, not {hole}")
    if not 3 <= board <= 5:
        raise PokerError(f"an Omaha board has 3, 4 or 5 cards, not {board}")


def hand_value(cards: CardsLike, board: CardsLike = ()) -> int:
    """The value of the best five cards as an int (:func:`evaluate` without the best five).

    >>> hand_value("As Ks Qs Js Ts"), hand_value("7c 5d 4h 3s 2c")
    (7462, 1)
    """
    every = [*to_cards(cards), *to_cards(board)]
    numbers = np.array([_numbers(to_cards(every, "cards and board"))], np.uint8)
    if not 5 <= numbers.shape[1] <= 7:
        raise PokerError(
            f"a poker hand is the best five of 5, 6 or 7 cards, not {numbers.shape[1]}"
        )
    return int(evaluate_array(numbers)[0])


# -- vectorised -----------------------------------------------------------------------


@cache
def lookup(size: int) -> poker_eval.Lookup:
    """The compiled kernel's tables of ``size`` (5, 6 or 7) cards, built on first use."""
    t = tables()
    hashed = t.hashed(size)
    return poker_eval.Lookup(
        size, t.card_code, t.flush_suit, t.flush, hashed.offsets, hashed.values, hashed.shift
    )


def _first_bad(found: Iterable[int]) -> int:
    """The first bad row the parts of a kernel call report, or -1."""
    bad = [b for b in found if b >= 0]
    return min(bad) if bad else -1


def _mask_numbers(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def values_from_codes(
    total: npt.NDArray[np.uint64],
    size: int,
    masks: npt.NDArray[np.uint64] | None = None,
    cards: Sequence[npt.NDArray[np.integer]] | None = None,
    *,
    engine: Engine = "auto",
) -> npt.NDArray[np.uint16]:
    """Hand values from sums of card codes (:attr:`Tables.card_code`) of ``size`` cards.

    The kernel also needs the cards themselves, for the few hands with five cards of
    a suit: their ``masks`` (card bits, as :attr:`Tables.card_bit`) or the card number
    columns ``cards``.  Rows whose cards repeat give meaningless values (no error).
    ``engine="python"`` evaluates the cards of each mask by the rules.
    """
    if masks is None:
        if cards is None:
            raise ValueError("values_from_codes() needs masks or cards for flushes")
        bits = tables().card_bit
        masks = bits[np.asarray(cards[0])]
        for column in cards[1:]:
            masks = masks | bits[np.asarray(column)]
    totals = np.ascontiguousarray(total, np.uint64).reshape(-1)
    held = np.ascontiguousarray(masks, np.uint64).reshape(-1)
    if held.shape != totals.shape:
        raise ValueError("values_from_codes() needs one mask a code sum")
    if resolve(engine) == "python":
        return np.array([_best_value(_mask_numbers(m)) for m in held.tolist()], np.uint16)
    out = np.empty(totals.size, np.uint16)
    kernel = lookup(size)
    run_parts(lambda lo, hi: poker_eval.evaluate_codes(kernel, totals, held, out, lo, hi), out.size)
    return out


def _as_card_array(cards: npt.ArrayLike, what: str) -> npt.NDArray[np.integer]:
    """A 2-d integer array (not copied)."""
    array = np.asarray(cards)
    if array.ndim != 2:
        raise PokerError(f"{what} must be a 2-d array (hands, cards), not of shape {array.shape}")
    if array.size and not np.issubdtype(array.dtype, np.integer):
        raise PokerError(f"{what} must hold card numbers 0..51, not {array.dtype}")
    return array


def _uint8_rows(array: npt.NDArray[np.integer], what: str) -> npt.NDArray[np.uint8]:
    """The rows as C-contiguous ``uint8`` card numbers; the kernels check they are at most
    51, other integer types are checked here (they may not fit a byte)."""
    if array.dtype != np.uint8 and array.size and not 0 <= array.min() <= array.max() <= 51:
        raise PokerError(f"{what} must hold card numbers 0..51")
    return np.ascontiguousarray(array, np.uint8)


def _python_rows(array: npt.NDArray[np.integer], what: str) -> list[list[int]]:
    rows: list[list[int]] = array.tolist()
    if any(not 0 <= c <= 51 for row in rows for c in row):
        raise PokerError(f"{what} must hold card numbers 0..51")
    return rows


def evaluate_array(cards: npt.ArrayLike, *, engine: Engine = "auto") -> npt.NDArray[np.uint16]:
    """The hand value of every row of card numbers, shape ``(n, k)`` with ``k`` 5, 6 or 7.

    Rows must not repeat a card (not checked: a repeated card gives a meaningless value).
    The compiled kernel evaluates a few hundred million seven-card hands a second (long
    calls on two threads); ``engine="python"`` runs the scalar evaluator on every row
    (the same values, a few thousand rows a second).

    >>> hands = card_numbers(["As Ks Qs Js Ts 2c 2d", "Ah Ad Kc Kd 7h 7s 2c"])
    >>> [str(HandValue(int(v))) for v in evaluate_array(hands)]
    ['Royal Flush', 'Two Pair, Aces and Kings, Seven kicker']
    """
    array = _as_card_array(cards, "cards")
    n, size = array.shape
    if not 5 <= size <= 7:
        raise PokerError(f"a poker hand is the best five of 5, 6 or 7 cards, not {size}")
    if resolve(engine) == "python":
        return np.array([_best_value(r) for r in _python_rows(array, "cards")], np.uint16)
    rows = _uint8_rows(array, "cards")
    out = np.empty(n, np.uint16)
    kernel = lookup(size)
    found = run_parts(lambda lo, hi: poker_eval.evaluate_rows(kernel, rows, out, lo, hi), n)
    if _first_bad(found) >= 0:
        raise PokerError("cards must hold card numbers 0..51")
    return out


def evaluate_masks(masks: npt.ArrayLike, *, engine: Engine = "auto") -> npt.NDArray[np.uint16]:
    """The hand value of every card bitmask (bit ``c`` is card number ``c``; 5 to 7 bits set).

    The masks of a deal array's piles of the standard games are such bitmasks
    (:meth:`~croupier.bulk.DealArray.pile_mask`).

    >>> from croupier.poker.tables import tables
    >>> bits = tables().card_bit
    >>> int(evaluate_masks([np.bitwise_or.reduce(bits[card_numbers("As Ks Qs Js Ts")])])[0])
    7462
    """
    array = np.ascontiguousarray(np.asarray(masks, dtype=np.uint64).reshape(-1))
    sizes = np.bitwise_count(array)
    if array.size and (sizes.min() < 5 or sizes.max() > 7):
        bad = int(sizes[(sizes < 5) | (sizes > 7)][0])
        raise PokerError(f"a poker hand is the best five of 5, 6 or 7 cards, not {bad}")
    if array.size and int(array.max()) >> 52:
        raise PokerError("card bitmasks use bits 0..51 only")
    if resolve(engine) == "python":
        return np.array([_best_value(_mask_numbers(m)) for m in array.tolist()], np.uint16)
    out = np.empty(array.size, np.uint16)
    if not array.size:
        return out
    used = range(int(sizes.min()), int(sizes.max()) + 1)
    five, six, seven = (lookup(k) if k in used else None for k in (5, 6, 7))
    found = run_parts(
        lambda lo, hi: poker_eval.evaluate_masks(five, six, seven, array, out, lo, hi), out.size
    )
    if _first_bad(found) >= 0:  # pragma: no cover - checked above
        raise AssertionError("evaluate_masks() was given a mask it did not check")
    return out


def evaluate_omaha_array(
    hole: npt.ArrayLike, board: npt.ArrayLike, *, engine: Engine = "auto"
) -> npt.NDArray[np.uint16]:
    """Omaha values of every row: exactly two of the ``hole`` cards ``(n, 4..6)`` and three of
    the ``board`` cards ``(n, 3..5)``, the best such five.

    >>> hole = card_numbers(["As Ah Kd Qc", "Ah Ad 7c 2d"])
    >>> board = card_numbers(["Ks Ts 9s 2s 7h", "Ac 7s 7h Kd Qd"])
    >>> [str(HandValue(int(v))) for v in evaluate_omaha_array(hole, board)]
    ['One Pair, Aces, King Ten Nine kickers', 'Full House, Aces full of Sevens']
    """
    own = _as_card_array(hole, "hole")
    common = _as_card_array(board, "board")
    if own.shape[0] != common.shape[0]:
        raise PokerError(f"hole has {own.shape[0]} rows but board {common.shape[0]}")
    _check_omaha(own.shape[1], common.shape[1])
    if resolve(engine) == "python":
        pairs = zip(_python_rows(own, "hole"), _python_rows(common, "board"), strict=True)
        return np.array([_omaha_value(h, b) for h, b in pairs], np.uint16)
    mine, shared = _uint8_rows(own, "hole"), _uint8_rows(common, "board")
    out = np.empty(own.shape[0], np.uint16)
    kernel = lookup(5)
    found = run_parts(
        lambda lo, hi: poker_eval.evaluate_omaha(kernel, mine, shared, out, lo, hi),
        out.size,
        least=1 << 12,
    )
    bad = _first_bad(found)
    if bad >= 0:
        raise PokerError(
            f"{'hole' if mine[bad].max() > 51 else 'board'} must hold card numbers 0..51"
        )
    return out


def _deck_numbers(deck: Sequence[Card]) -> npt.NDArray[np.int16]:
    """Each deck column's card number, checking the deck is a set of standard cards."""
    numbers = []
    for card in deck:
        if card.suit is None or card.copy:
            raise PokerError(
                f"poker evaluation needs a deck of distinct standard cards, not one with {card}"
            )
        numbers.append(card_number(card))
    return np.array(numbers, np.int16)


def evaluate_deals(
    deals: object,
    seat: int | str | None = None,
    *,
    board: int | str | Sequence[int | str] | None = "board",
    rule: Rule = "auto",
    engine: Engine = "auto",
) -> npt.NDArray[np.uint16]:
    """Hand values of the hands of a :class:`~croupier.bulk.DealArray` of a poker game.

    ``seat`` is a pile index or name (``"P1"``) for shape ``(n,)``, or ``None``
    for every hand (shape ``(n, hands)``).  Each hand is made with the board:
    the piles ``board`` (a name or index, or several; ``None`` for none; the
    default ``"board"`` is the pile of that name, else the community cards
    ``flop``, ``turn`` and ``river`` of hold'em and Omaha), by ``rule``:
    ``best`` five of hole and board, ``omaha`` exactly two hole cards and three
    of the board, ``auto`` (``omaha`` for the games named ``omaha...``).
    ``engine`` as for :func:`evaluate_array`.

    >>> from croupier.bulk import deal_array
    >>> from croupier.dealing.layout import make_layout
    >>> deals = deal_array(1000, make_layout("holdem", players=3), seed="showdown")
    >>> values = evaluate_deals(deals)
    >>> values.shape, int(values.min()) >= 1
    ((1000, 3), True)
    >>> flop, turn, river = deals[7].piles[3:6]
    >>> int(values[7, 1]) == hand_value([*deals[7].hands[1], *flop, *turn, *river])
    True
    """
    from croupier.bulk.array import DealArray

    if not isinstance(deals, DealArray):
        raise PokerError(f"evaluate_deals() takes a DealArray, not {type(deals).__name__}")
    layout = deals.layout
    names = [p.name for p in layout.piles]

    def pile_index(pile: int | str, what: str) -> int:
        found = layout.find_pile(pile)  # (the one lookup of a pile by name)
        if found is not None:
            return found
        if isinstance(pile, str):
            raise PokerError(f"{what}={pile!r} is not a pile of {layout.game}: {names}")
        raise PokerError(f"{what}={pile} is not a pile index 0..{len(names) - 1}")

    lowered = [n.lower() for n in names]
    if board is None:
        board_piles: list[int] = []
    elif board == "board" and "board" not in lowered and "flop" in lowered:
        board_piles = [lowered.index(n) for n in ("flop", "turn", "river") if n in lowered]
    elif isinstance(board, int | str):
        board_piles = [pile_index(board, "board")]
    else:
        board_piles = [pile_index(b, "board") for b in board]
    if seat is None:
        seats = [i for i, p in enumerate(layout.piles) if p.is_hand and i not in board_piles]
    else:
        seats = [pile_index(seat, "seat")]
    chosen: Rule = rule
    if rule == "auto":
        chosen = "omaha" if layout.game.lower().startswith("omaha") else "best"
    if chosen not in ("best", "omaha"):
        raise PokerError(f"rule={rule!r} is not one of 'auto', 'best', 'omaha'")
    resolve(engine)  # a bad engine is refused before any work
    if chosen == "best" and tuple(layout.deck) == BRIDGE_DECK:
        # the standard deck in card-number order: the piles' bitmasks are hands already
        shared = np.zeros(len(deals), np.uint64)
        for b in board_piles:
            shared |= deals.pile_mask(b)
        columns = [evaluate_masks(deals.pile_mask(p) | shared, engine=engine) for p in seats]
        return columns[0] if seat is not None else np.column_stack(columns)
    numbers = _deck_numbers(layout.deck)
    order = np.argsort(deals.piles, axis=1, kind="stable")
    starts = np.concatenate([[0], np.cumsum(layout.sizes)])

    def pile_cards(p: int) -> npt.NDArray[np.uint8]:
        columns = order[:, starts[p] : starts[p + 1]]
        return numbers[columns].astype(np.uint8)

    common = np.concatenate([pile_cards(b) for b in board_piles], axis=1) if board_piles else None
    out = np.zeros((len(deals), len(seats)), np.uint16)
    for j, p in enumerate(seats):
        hole = pile_cards(p)
        if chosen == "omaha":
            if common is None:
                raise PokerError("the Omaha rule needs a board pile")
            out[:, j] = evaluate_omaha_array(hole, common, engine=engine)
        else:
            hand = hole if common is None else np.concatenate([hole, common], axis=1)
            out[:, j] = evaluate_array(hand, engine=engine)
    return out[:, 0] if seat is not None else out
