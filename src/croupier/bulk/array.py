"""Deal arrays: many deals of one layout as numpy arrays, for simulations.

A :class:`DealArray` stores, for every deal (row) and every card of the
layout's deck in canonical order (column), the index of the pile that holds
the card: a ``uint8`` array of shape ``(n, deck size)``.  A layout with stacks
(piles dealt in order, top first) also keeps, for each stack of ``k`` cards,
the deck indices of its cards top first: an ``(n, k)`` array
(:meth:`DealArray.stack`); bridge and other layouts without stacks carry
nothing more.  Views that simulation code needs (card bitmasks per pile, suit
lengths, ranks held) are computed from it without a Python loop per deal.

>>> from croupier.dealing.layout import make_layout
>>> from croupier.dealing.deal import deal_from_number
>>> lay = make_layout("bridge")
>>> deals = DealArray.from_deals([deal_from_number(lay, k) for k in (0, 1, 2)])
>>> len(deals), deals.piles.shape, deals.suit_lengths()[0, 0].tolist()
(3, (3, 52), [13, 0, 0, 0])
>>> deals[1] == deal_from_number(lay, 1), deals.numbers()
(True, [0, 1, 2])
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import lru_cache
from typing import TypeAlias, overload

import numpy as np
import numpy.typing as npt

from croupier._core import bulk_kernels
from croupier._core.engines import Engine, resolve
from croupier.algorithm_ids import BULK, BULK_STACKS
from croupier.cards import Card, Rank, Suit
from croupier.dealing.deal import Deal
from croupier.dealing.layout import Layout
from croupier.errors import CroupierError

__all__ = [
    "BULK_ALGORITHM_ID",
    "BULK_STACKS_ALGORITHM_ID",
    "MASK_CARDS",
    "SUIT_ORDER",
    "DealArray",
    "DealArrayError",
    "bulk_algorithm",
    "pile_masks",
    "pile_masks_reference",
]

BULK_ALGORITHM_ID = BULK
"""Id and version of the bulk dealing algorithm (:mod:`croupier.bulk.generate`) of layouts
without stacks, which labels every deal of a deal array; bumped whenever a seed would
give other deals."""

BULK_STACKS_ALGORITHM_ID = BULK_STACKS
"""Id of the bulk dealing algorithm of layouts with stacks: the piles of ``croupier-bulk/1``,
then every stack's order from a stream of its own (:mod:`croupier.bulk.stacks`)."""

PileArray: TypeAlias = npt.NDArray[np.uint8]
StackArray: TypeAlias = npt.NDArray[np.unsignedinteger]


def bulk_algorithm(layout: Layout) -> str:
    """The id of the bulk deals of ``layout``: ``croupier-bulk/2`` with stacks, else ``/1``.

    >>> from croupier.dealing.layout import make_layout
    >>> bulk_algorithm(make_layout("bridge")), bulk_algorithm(make_layout("go-fish"))
    ('croupier-bulk/1', 'croupier-bulk/2')
    """
    return BULK_STACKS_ALGORITHM_ID if layout.ordered else BULK_ALGORITHM_ID


def card_dtype(layout: Layout) -> np.dtype[np.unsignedinteger]:
    """The dtype of a deck index of ``layout``: ``uint8`` up to 256 cards, else ``uint16``."""
    return np.dtype(np.uint8 if len(layout.deck) <= 256 else np.uint16)


MASK_CARDS = 64
"""Decks up to this many cards have one ``uint64`` bitmask per pile (:meth:`DealArray.masks`)."""

SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
"""The suit axis of :meth:`DealArray.suit_lengths` and :meth:`DealArray.ranks_held`: S H D C."""

_MAX_PILES = 255
_SHOWN_DEALS = 5  # deals a notebook shows of a deal array


class DealArrayError(CroupierError):
    """A deal array that does not fit its layout (shape, pile indices or pile sizes)."""


def pile_masks_reference(owners: Sequence[int], count: int) -> list[int]:
    """One deal's card bitmask of each of ``count`` piles from its owners (plain Python):
    bit ``c`` of mask ``p`` is set when card ``c`` is in pile ``p``.

    >>> [bin(m) for m in pile_masks_reference([1, 0, 1, 2], 3)]
    ['0b10', '0b101', '0b1000']
    """
    masks = [0] * count
    for card, owner in enumerate(owners):
        if owner < count:
            masks[owner] |= 1 << card
    return masks


def pile_masks(
    piles: npt.NDArray[np.uint8], count: int, engine: Engine = "auto"
) -> npt.NDArray[np.uint64]:
    """Every pile's card bitmask, ``(n, count)``, from a deal array's piles (deck <= 64).

    The compiled kernel (``croupier._core.bulk_kernels.pile_masks``) runs it;
    ``engine="python"`` runs :func:`pile_masks_reference` row by row.

    >>> pile_masks(np.array([[1, 0, 1, 2]], np.uint8), 3).tolist()
    [[2, 5, 8]]
    """
    table = np.ascontiguousarray(piles, dtype=np.uint8)
    if table.ndim != 2 or table.shape[1] > MASK_CARDS:
        raise DealArrayError(f"pile masks need (n, deck) piles of at most {MASK_CARDS} cards")
    n = table.shape[0]
    if resolve(engine) == "python":
        rows = [pile_masks_reference(r, count) for r in table.tolist()]
        return np.array(rows, np.uint64).reshape(n, count)
    out = np.empty((n, count), np.uint64)
    bulk_kernels.pile_masks(table, out, 0, n)
    return out


def _suit_index(layout: Layout) -> npt.NDArray[np.intp]:
    """Each deck position's index in :data:`SUIT_ORDER` (-1 for jokers)."""
    order = {s: i for i, s in enumerate(SUIT_ORDER)}
    return np.array([-1 if c.suit is None else order[c.suit] for c in layout.deck], np.intp)


def _rank_bit(layout: Layout) -> npt.NDArray[np.uint16]:
    """Each deck position's bit in :meth:`DealArray.ranks_held` (2 -> bit 0 ... ace -> bit 12)."""
    bits = []
    for card in layout.deck:
        if card.suit is None:
            bits.append(0)
        else:
            value = 14 if card.rank == Rank.ACE else int(card.rank)
            bits.append(1 << (value - 2))
    return np.array(bits, np.uint16)


class DealArray:
    """A batch of deals of one layout: ``piles[i, c]`` is the pile holding card ``c`` in deal ``i``.

    Columns follow ``layout.deck`` (the deck's canonical order); values index
    ``layout.piles``.  The array is read-only.  Build one with
    :func:`croupier.bulk.deal_array`, :meth:`from_deals` or from an array you
    made (``check=True`` verifies every row has the layout's pile sizes).

    >>> from croupier.dealing.layout import make_layout
    >>> lay = make_layout(hands=[2, 2, 2], deck="stripped:AK")
    >>> a = DealArray(lay, np.array([[0, 0, 1, 1, 2, 2, 3, 3], [3, 3, 2, 2, 1, 1, 0, 0]]))
    >>> [[c.code for c in p] for p in a[1].piles][:3]
    [['AC', 'KC'], ['AD', 'KD'], ['AH', 'KH']]
    >>> a.counts().tolist()
    [[2, 2, 2, 2], [2, 2, 2, 2]]
    """

    __slots__ = ("_bits", "_masks", "_stacks", "layout", "piles")

    def __init__(
        self,
        layout: Layout,
        piles: npt.ArrayLike,
        *,
        bits: npt.ArrayLike | None = None,
        check: bool = True,
        stacks: Mapping[int, npt.ArrayLike] | None = None,
    ) -> None:
        array = np.asarray(piles)
        deck = len(layout.deck)
        if array.ndim != 2 or array.shape[1] != deck:
            raise DealArrayError(
                f"a deal array of this layout has shape (n, {deck}), not {array.shape}"
            )
        if len(layout.piles) > _MAX_PILES:
            raise DealArrayError(f"a deal array holds at most {_MAX_PILES} piles")
        if check and array.size:
            if not np.issubdtype(array.dtype, np.integer):
                raise DealArrayError(f"pile indices must be integers, not {array.dtype}")
            if array.min() < 0 or array.max() >= len(layout.piles):
                raise DealArrayError(f"pile indices must be 0..{len(layout.piles) - 1}")
        array = np.ascontiguousarray(array, dtype=np.uint8)
        if check and array.size:
            counts = _counts(array, len(layout.piles))
            wrong = np.nonzero((counts != np.array(layout.sizes)).any(axis=1))[0]
            if wrong.size:
                row = int(wrong[0])
                raise DealArrayError(
                    f"row {row} has pile sizes {counts[row].tolist()}, "
                    f"not the layout's {list(layout.sizes)}"
                )
        array.flags.writeable = False
        self.layout = layout
        self.piles: PileArray = array
        row_bits = None
        if bits is not None:
            row_bits = np.ascontiguousarray(bits, dtype=np.uint32)
            if row_bits.shape != (array.shape[0],):
                raise DealArrayError(f"bits has shape {row_bits.shape}, not ({array.shape[0]},)")
            row_bits.flags.writeable = False
        self._bits = row_bits
        self._masks: dict[int, npt.NDArray[np.uint64]] = {}
        self._stacks: dict[int, StackArray] = {}
        for pile, given in (stacks or {}).items():
            self._stacks[pile] = self._checked_stack(pile, given, check)

    def _checked_stack(self, pile: int, given: npt.ArrayLike, check: bool) -> StackArray:
        """The order of stack ``pile`` as a read-only ``(n, k)`` array of deck indices."""
        layout = self.layout
        if pile not in layout.stack_piles:
            raise DealArrayError(
                f"pile {pile} is not a stack of {layout.game} (stacks: {list(layout.stack_piles)})"
            )
        array = np.asarray(given)
        k = layout.piles[pile].size
        if array.shape != (len(self), k):
            raise DealArrayError(f"stack {pile} has shape {array.shape}, not ({len(self)}, {k})")
        array = np.ascontiguousarray(array, dtype=card_dtype(layout))
        if (
            check
            and array.size
            and not np.array_equal(np.sort(array, axis=1), self._in_deck_order(pile))
        ):
            raise DealArrayError(f"stack {pile} does not hold the cards of pile {pile}")
        array.flags.writeable = False
        return array

    def _in_deck_order(self, pile: int) -> StackArray:
        """The deck indices of pile ``pile``'s cards, in deck order: ``(n, size)``."""
        k = self.layout.piles[pile].size
        columns = np.nonzero(self.piles == pile)[1]
        return columns.astype(card_dtype(self.layout)).reshape(len(self), k)

    # -- construction ----------------------------------------------------------------

    @classmethod
    def _dealt(
        cls,
        layout: Layout,
        piles: PileArray,
        bits: npt.NDArray[np.uint32],
        masks: npt.NDArray[np.uint64] | None,
        stacks: Mapping[int, StackArray] | None = None,
    ) -> DealArray:
        """A deal array from the generator, with the pile bitmasks ``(piles, n)`` it computed."""
        array = cls(layout, piles, bits=bits, check=False, stacks=stacks)
        if masks is not None:
            for p in range(masks.shape[0]):
                row = masks[p].view()
                row.flags.writeable = False
                array._masks[p] = row
        return array

    @classmethod
    def from_deals(cls, deals: Iterable[Deal], layout: Layout | None = None) -> DealArray:
        """The deal array of some :class:`~croupier.dealing.deal.Deal` objects of one layout.

        ``layout`` is needed only when ``deals`` is empty.

        >>> from croupier.dealing.layout import make_layout
        >>> DealArray.from_deals([], make_layout("war")).piles.shape
        (0, 52)
        """
        rows = []
        orders: list[list[int]] = []
        for d in deals:
            if layout is None:
                layout = d.layout
            elif d.layout != layout:
                raise DealArrayError("all deals of a deal array must have the same layout")
            rows.append(d.owners())
            if layout.ordered:
                index = layout.index
                orders.append([index(c) for i in layout.stack_piles for c in d.piles[i]])
        if layout is None:
            raise DealArrayError("from_deals() of no deals needs layout=")
        array = np.array(rows, np.uint8).reshape(len(rows), len(layout.deck))
        stacks: dict[int, npt.NDArray[np.unsignedinteger]] = {}
        if layout.ordered:
            width = sum(layout.piles[i].size for i in layout.stack_piles)
            flat = np.array(orders, card_dtype(layout)).reshape(len(rows), width)
            at = 0
            for i in layout.stack_piles:
                k = layout.piles[i].size
                stacks[i] = flat[:, at : at + k]
                at += k
        return cls(layout, array, check=False, stacks=stacks)

    @classmethod
    def concatenate(cls, arrays: Sequence[DealArray]) -> DealArray:
        """One deal array of the rows of several, in order (all of one layout).

        >>> from croupier.dealing.layout import make_layout
        >>> from croupier.dealing.deal import deal_from_number
        >>> lay = make_layout("war")
        >>> a = DealArray.from_deals([deal_from_number(lay, 5)])
        >>> len(DealArray.concatenate([a, a, a]))
        3
        """
        if not arrays:
            raise DealArrayError("concatenate() needs at least one deal array")
        layout = arrays[0].layout
        if any(a.layout != layout for a in arrays):
            raise DealArrayError("concatenate() needs deal arrays of one layout")
        bits = None
        if all(a._bits is not None for a in arrays):
            bits = np.concatenate([a._bits for a in arrays if a._bits is not None])
        stacks = {p: np.concatenate([a.stack(p) for a in arrays]) for p in layout.stack_piles}
        piles = np.concatenate([a.piles for a in arrays])
        return cls(layout, piles, bits=bits, check=False, stacks=stacks)

    # -- sequence protocol -----------------------------------------------------------

    def __len__(self) -> int:
        return int(self.piles.shape[0])

    @overload
    def __getitem__(self, index: int) -> Deal: ...
    @overload
    def __getitem__(
        self, index: slice | npt.NDArray[np.integer] | npt.NDArray[np.bool_]
    ) -> DealArray: ...

    def __getitem__(
        self, index: int | slice | npt.NDArray[np.integer] | npt.NDArray[np.bool_]
    ) -> Deal | DealArray:
        """Row ``i`` as a :class:`Deal`; a slice, index array or boolean mask as a deal array.

        The rows taken keep the pile bitmasks computed so far (:meth:`pile_mask`),
        so evaluating kept deals does not compute them again.
        """
        if isinstance(index, (int, np.integer)):
            row = int(index)
            if not -len(self) <= row < len(self):
                raise IndexError(f"deal array index {row} out of range for {len(self)} deals")
            return self._deal(row % len(self))
        bits = None if self._bits is None else self._bits[index]
        stacks = {p: a[index] for p, a in self._stacks.items()}
        taken = DealArray(self.layout, self.piles[index], bits=bits, check=False, stacks=stacks)
        for pile, mask in self._masks.items():
            kept = mask[index]
            kept.flags.writeable = False
            taken._masks[pile] = kept
        return taken

    def __iter__(self) -> Iterator[Deal]:
        for row in range(len(self)):
            yield self._deal(row)

    def _deal(self, row: int) -> Deal:
        layout = self.layout
        owners = self.piles[row].tolist()
        piles: list[list[Card]] = [[] for _ in layout.piles]
        for card, owner in zip(layout.deck, owners, strict=True):
            piles[owner].append(card)
        for p in layout.stack_piles:
            piles[p] = [layout.deck[c] for c in self.stack(p)[row].tolist()]
        bits = 0.0 if self._bits is None else float(self._bits[row])
        return Deal(
            layout,
            tuple(tuple(p) for p in piles),
            method="bulk",
            bits_used=bits,
            source="array",
            algorithm=bulk_algorithm(layout),
        )

    def stack(self, pile: int | str) -> StackArray:
        """The order of stack ``pile`` (an index or a name): the deck index of its cards,
        top first, shape ``(n, k)`` (read-only).

        A deal array made without the orders (from owners alone) has its stacks
        in deck order.

        >>> from croupier.dealing.layout import make_layout
        >>> from croupier.dealing.deal import deal_from_number
        >>> lay = make_layout("euchre")
        >>> a = DealArray.from_deals([deal_from_number(lay, 23)])
        >>> a.stack("kitty").tolist(), [lay.deck[c].code for c in a.stack(4)[0]]
        ([[23, 20, 21, 22]], ['9C', 'QC', 'JC', 'TC'])
        """
        layout = self.layout
        if isinstance(pile, str):
            names = [p.name for p in layout.piles]
            if pile not in names:
                raise DealArrayError(f"no pile {pile!r} in {layout.game}: {names}")
            pile = names.index(pile)
        if pile not in self._stacks:
            if pile not in layout.stack_piles:
                raise DealArrayError(
                    f"pile {pile} is not a stack of {layout.game} "
                    f"(stacks: {list(layout.stack_piles)})"
                )
            ordered = self._in_deck_order(pile)
            ordered.flags.writeable = False
            self._stacks[pile] = ordered
        return self._stacks[pile]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DealArray):
            return NotImplemented
        return (
            self.layout == other.layout
            and np.array_equal(self.piles, other.piles)
            and all(np.array_equal(self.stack(p), other.stack(p)) for p in self.layout.stack_piles)
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<DealArray {self.layout.game}: {len(self)} deals of {len(self.layout.deck)} cards>"

    def summary(self) -> str:
        """One line: how many deals of which layout, and the random bits a deal used if known.

        >>> from croupier.dealing.layout import make_layout
        >>> from croupier.dealing.deal import deal_from_number
        >>> DealArray.from_deals([deal_from_number(make_layout("skat"), 0)]).summary()
        '1 deal of skat: P1 10, P2 10, P3 10, skat 2 from skat (32 cards)'
        """
        n = len(self)
        text = f"{n:,} {'deal' if n == 1 else 'deals'} of {self.layout.describe()}"
        if self._bits is not None and n:
            mean = float(self._bits.mean(dtype=np.float64))
            text += f"; {mean:.1f} random bits a deal on average"
        return text

    def _repr_html_(self) -> str:
        """Notebook display: :meth:`summary`, then the first deals as a table (five at most).

        >>> from croupier.bulk.generate import deal_array
        >>> page = deal_array(100, seed="notebook")._repr_html_()
        >>> "100 deals of bridge" in page, page.count("<tr>"), page.count("data-card=")
        (True, 6, 260)
        """
        from croupier.dealing.display import deals_table_html  # display hooks import late

        shown = [self._deal(row) for row in range(min(len(self), _SHOWN_DEALS))]
        caption = self.summary()
        if len(self) > len(shown):
            caption += f" (the first {len(shown)} shown)"
        return deals_table_html(shown, caption=caption)

    # -- what was spent --------------------------------------------------------------

    @property
    def bits(self) -> npt.NDArray[np.uint32] | None:
        """Random bits spent on each row (``None`` when the rows were not dealt here)."""
        return self._bits

    # -- views -----------------------------------------------------------------------

    def counts(self) -> npt.NDArray[np.int64]:
        """How many cards every pile holds, shape ``(n, piles)`` (the layout's sizes)."""
        return _counts(self.piles, len(self.layout.piles))

    def numbers(self, scheme: str = "croupier") -> list[int]:
        """Every row's deal number under ``scheme`` (big ints; computed on demand).

        >>> from croupier.dealing.layout import make_layout
        >>> from croupier.dealing.deal import deal_from_number
        >>> lay = make_layout("bridge")
        >>> DealArray.from_deals([deal_from_number(lay, 10**20)]).numbers("pavlicek") == [
        ...     deal_from_number(lay, 10**20).number_in("pavlicek")]
        True
        """
        from croupier.ranking.partitions import subsets_rank
        from croupier.ranking.schemes import get_scheme
        from croupier.ranking.stacks import stacks_code

        layout = self.layout
        sizes = layout.sizes
        if scheme == "croupier":
            base = 0
            numbers = [subsets_rank(row, sizes, "lex") for row in self.piles.tolist()]
        else:
            s = get_scheme(scheme)
            base = s.base
            numbers = [s.rank(layout.deck, sizes, row) for row in self.piles.tolist()]
        if not layout.ordered:
            return numbers
        orders = layout.arrangements
        places = [np.argsort(np.argsort(self.stack(p), axis=1), axis=1) for p in layout.stack_piles]
        return [
            (number - base) * orders + stacks_code([perm[row].tolist() for perm in places]) + base
            for row, number in enumerate(numbers)
        ]

    def masks(self) -> npt.NDArray[np.uint64]:
        """Per-pile card bitmasks, shape ``(n, piles)``: bit ``c`` is deck card ``c``.

        Only for decks of at most :data:`MASK_CARDS` cards.

        >>> from croupier.dealing.layout import make_layout
        >>> from croupier.dealing.deal import deal_from_number
        >>> a = DealArray.from_deals([deal_from_number(make_layout("bridge"), 0)])
        >>> [hex(int(m)) for m in a.masks()[0]]
        ['0x1fff', '0x3ffe000', '0x7ffc000000', '0xfff8000000000']
        """
        piles = len(self.layout.piles)
        out = np.zeros((len(self), piles), np.uint64)
        for p in range(piles):
            out[:, p] = self.pile_mask(p)
        return out

    def pile_mask(self, pile: int) -> npt.NDArray[np.uint64]:
        """One pile's card bitmasks, shape ``(n,)`` (column ``pile`` of :meth:`masks`; cached)."""
        if pile not in self._masks:
            deck = len(self.layout.deck)
            if deck > MASK_CARDS:
                raise DealArrayError(
                    f"masks() needs a deck of at most {MASK_CARDS} cards, not {deck}"
                )
            if not 0 <= pile < len(self.layout.piles):
                raise DealArrayError(f"pile={pile} is not 0..{len(self.layout.piles) - 1}")
            every = pile_masks(self.piles, len(self.layout.piles)).T  # all in one pass
            for p in range(every.shape[0]):
                if p not in self._masks:
                    column = np.ascontiguousarray(every[p])
                    column.flags.writeable = False
                    self._masks[p] = column
        return self._masks[pile]

    def pile_ranks(self, pile: int) -> npt.NDArray[np.uint16]:
        """One pile's ranks held, shape ``(n, 4)`` (``ranks_held()[:, pile]``; deck <= 64 cards)."""
        table = _rank_table(self.layout)
        mask = self.pile_mask(pile)
        packed = np.zeros(len(self), np.uint64)
        for byte in range((len(self.layout.deck) + 7) // 8):
            packed |= table[byte][(mask >> np.uint64(8 * byte)) & np.uint64(0xFF)]
        return packed.astype("<u8").view("<u2").reshape(len(self), 4).astype(np.uint16)

    def suit_lengths(self) -> npt.NDArray[np.uint8]:
        """Cards of each suit in each pile, shape ``(n, piles, 4)``, suits in S H D C order."""
        n, piles = len(self), len(self.layout.piles)
        out = np.zeros((n, piles, 4), np.uint8)
        if len(self.layout.deck) <= MASK_CARDS:
            masks = self.masks()
            for s, suit_mask in enumerate(_suit_masks(self.layout)):
                out[:, :, s] = np.bitwise_count(masks & np.uint64(suit_mask))
            return out
        suit = _suit_index(self.layout)
        for s in range(4):
            cols = self.piles[:, suit == s]
            if cols.shape[1]:
                out[:, :, s] = _counts(cols, piles)
        return out

    def ranks_held(self) -> npt.NDArray[np.uint16]:
        """Ranks held per pile and suit, shape ``(n, piles, 4)``: bit 0 is the 2, bit 12 the ace.

        >>> from croupier.dealing.layout import make_layout
        >>> from croupier.dealing.deal import deal_from_number
        >>> a = DealArray.from_deals([deal_from_number(make_layout("bridge"), 0)])
        >>> hex(int(a.ranks_held()[0, 0, 0])), int(a.ranks_held()[0, 1, 0])
        ('0x1fff', 0)
        """
        n, piles = len(self), len(self.layout.piles)
        if len(self.layout.deck) <= MASK_CARDS:
            out = np.zeros((n, piles, 4), np.uint16)
            for p in range(piles):
                out[:, p] = self.pile_ranks(p)
            return out
        suit = _suit_index(self.layout)
        bit = _rank_bit(self.layout)
        out = np.zeros((n, piles, 4), np.uint16)
        for s in range(4):
            cols = np.nonzero(suit == s)[0]
            for p in range(piles):
                held = self.piles[:, cols] == p
                out[:, p, s] = np.bitwise_or.reduce(held * bit[cols], axis=1, dtype=np.uint16)
        return out


@lru_cache(maxsize=32)
def _suit_masks(layout: Layout) -> tuple[int, ...]:
    """For each suit of :data:`SUIT_ORDER`, the bitmask of its cards in the deck."""
    suit = _suit_index(layout)
    return tuple(sum(1 << c for c in np.nonzero(suit == s)[0].tolist()) for s in range(4))


@lru_cache(maxsize=32)
def _rank_table(layout: Layout) -> npt.NDArray[np.uint64]:
    """``T[b, v]``: ranks held (16-bit fields S H D C) by the cards of byte ``b`` set in ``v``."""
    suit = _suit_index(layout)
    bit = _rank_bit(layout)
    table = np.zeros((8, 256), np.uint64)
    for c in range(len(layout.deck)):
        if suit[c] < 0:
            continue
        byte, shift = divmod(c, 8)
        value = np.uint64(int(bit[c]) << (16 * int(suit[c])))
        hits = (np.arange(256) >> shift) & 1 == 1
        table[byte, hits] |= value
    table.flags.writeable = False
    return table


def _counts(array: npt.NDArray[np.uint8], piles: int) -> npt.NDArray[np.int64]:
    """How many entries of each row equal each pile index, shape ``(n, piles)``."""
    n = array.shape[0]
    flat = array.astype(np.int64) + np.arange(n, dtype=np.int64)[:, None] * piles
    return np.bincount(flat.ravel(), minlength=n * piles).reshape(n, piles)
