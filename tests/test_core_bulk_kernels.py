"""The compiled bulk-dealing kernels give exactly what their plain-Python references give.

``croupier._core.bulk_kernels`` (Cython, and the tiled walks of
``include/bulk_unrank.h``) against the executable specifications beside their callers:

* ``unrank_narrow`` (every walk this processor runs) and ``unrank_wide`` against
  ``croupier.bulk.unrank.unrank_reference``: every digit of small layouts, seeded
  random digits of the games and of odd layouts, and ranges written at an offset;
* ``accepted_digits`` against ``croupier.bulk.digits.accepted_digits_reference``:
  seeded random bytes, every width 0 to 8, digits beyond 2**53 and a limit of 2**64;
* ``pile_masks`` against ``croupier.bulk.array.pile_masks_reference``;
* ``order_stacks`` against ``croupier.bulk.stacks.order_reference``.

The references are the rules written out, slow; the kernels must equal them bit for bit.
"""

from __future__ import annotations

import itertools
from math import comb

import numpy as np
import pytest

from croupier._core import bulk_kernels
from croupier._core.engines import resolve
from croupier.bulk.array import pile_masks, pile_masks_reference
from croupier.bulk.digits import (
    accepted_digits,
    accepted_digits_reference,
    digit_plan,
    digits_and_rejections,
    kernel_plan,
    plan_for_ranges,
)
from croupier.bulk.lex_tables import kernel_tables
from croupier.bulk.stacks import order_into, order_reference, stack_plan
from croupier.bulk.unrank import unrank_into, unrank_reference, unrank_with_masks
from croupier.dealing.layout import make_layout
from croupier.errors import CroupierError

LEVELS = list(range(bulk_kernels.LEVEL + 1))
"""Every walk of unrank_narrow this processor runs (0: scalar, 1: tiled, 2: AVX-512)."""

NARROW = [
    (13, 13, 13, 13),  # bridge: the AVX-512 walk where there is one
    (10, 10, 10, 2),  # skat
    (2, 2, 2, 2, 2, 2, 3, 1, 1, 35),  # hold'em, six players
    (5, 5, 5, 5, 4),  # euchre
    (15, 15, 15, 7),  # the largest piles of the AVX-512 walk
    (26, 26),  # piles of 16 or more: the tiled and the scalar walks
    (16, 16, 16, 4),
    (0, 13, 0, 39),  # empty piles
    (1,) * 50 + (2,),  # 51 piles
    (52,),  # one pile
    (64,),  # a deck of 64 cards, one pile
    (8,) * 8,  # 64 cards, 8 piles
    (3, 61),
]
WIDE = [(5, 5, 5, 89), (13, 13, 13, 13, 52), (2,) * 60 + (36,), (1, 200), (10, 90)]


def random_digits(sizes: tuple[int, ...], n: int, seed: int) -> np.ndarray:
    """``n`` deals' digits, uniform below each pile's range (and the extremes)."""
    rng = np.random.default_rng(seed)
    left, rows = sum(sizes), []
    for k in sizes:
        c = comb(left, k)
        row = [int(rng.integers(0, 2**63)) * int(rng.integers(0, 2**63)) % c for _ in range(n)]
        row[:2] = [0, c - 1]  # the first and the last subset
        rows.append(row)
        left -= k
    return np.array(rows, np.uint64).reshape(len(sizes), n)


def reference_masks(owners: list[int], piles: int) -> list[int]:
    return [sum(1 << c for c, o in enumerate(owners) if o == p) for p in range(piles)]


def narrow(digits: np.ndarray, sizes: tuple[int, ...], level: int) -> tuple[np.ndarray, ...]:
    t = kernel_tables(sizes)
    n = digits.shape[1]
    out = np.zeros((n, sum(sizes)), np.uint8)
    masks = np.zeros((len(sizes), n), np.uint64)
    bulk_kernels.unrank_narrow(
        digits, t.sizes, t.tables, t.at, t.stride, out, masks, 0, n, 0, level
    )
    return out, masks


# -- unranking ------------------------------------------------------------------------------


def test_the_reference_is_the_lexicographic_order() -> None:
    # the digits of pile 0 count its subsets in lexicographic order of their cards
    sizes = (3, 3)
    seen = [unrank_reference([d, 0], sizes) for d in range(comb(6, 3))]
    subsets = [tuple(c for c, o in enumerate(owners) if o == 0) for owners in seen]
    assert subsets == sorted(itertools.combinations(range(6), 3))


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("sizes", [(2, 2, 2), (3, 2, 1), (1, 1, 1, 1, 1), (4, 0, 4), (2, 3, 3)])
def test_every_digit_of_small_layouts(sizes: tuple[int, ...], level: int) -> None:
    ranges, left = [], sum(sizes)
    for k in sizes:
        ranges.append(comb(left, k))
        left -= k
    every = list(itertools.product(*(range(c) for c in ranges)))
    digits = np.array(every, np.uint64).T.copy()
    out, masks = narrow(digits, sizes, level)
    expected = [unrank_reference(d, sizes) for d in every]
    assert out.tolist() == expected
    assert masks.T.tolist() == [reference_masks(e, len(sizes)) for e in expected]
    assert len({tuple(e) for e in expected}) == len(every)  # every digit a different deal


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("sizes", NARROW)
def test_narrow_walks_equal_the_reference(sizes: tuple[int, ...], level: int) -> None:
    digits = random_digits(sizes, 333, seed=len(sizes) + sum(sizes))  # tiles of 32 and a rest
    out, masks = narrow(digits, sizes, level)
    for i in range(digits.shape[1]):
        expected = unrank_reference(digits[:, i].tolist(), sizes)
        assert out[i].tolist() == expected, (sizes, level, i)
        assert masks[:, i].tolist() == reference_masks(expected, len(sizes))


@pytest.mark.parametrize("sizes", WIDE)
def test_the_wide_walk_equals_the_reference(sizes: tuple[int, ...]) -> None:
    digits = random_digits(sizes, 120, seed=sum(sizes))
    out, masks = unrank_with_masks(digits, sizes)
    assert masks is None
    assert out.tolist() == [unrank_reference(digits[:, i].tolist(), sizes) for i in range(120)]


@pytest.mark.parametrize("sizes", [(13, 13, 13, 13), (26, 26), (5, 5, 5, 89)])
def test_a_range_of_deals_lands_at_its_offset(sizes: tuple[int, ...]) -> None:
    digits = random_digits(sizes, 100, seed=9)
    deck = sum(sizes)
    out = np.full((60, deck), 255, np.uint8)
    masks = np.zeros((len(sizes), 60), np.uint64) if deck <= 64 else None
    unrank_into(digits, sizes, out, masks, 30, 75, 10)  # deals 30 .. 74 to rows 10 .. 54
    whole, whole_masks = unrank_with_masks(digits, sizes)
    assert (out[:10] == 255).all() and (out[55:] == 255).all()
    assert np.array_equal(out[10:55], whole[30:75])
    if masks is not None and whole_masks is not None:
        assert np.array_equal(masks[:, 10:55], whole_masks[:, 30:75])
        assert not masks[:, :10].any() and not masks[:, 55:].any()
    python = np.full((60, deck), 255, np.uint8)
    python_masks = None if masks is None else np.zeros_like(masks)
    unrank_into(digits, sizes, python, python_masks, 30, 75, 10, engine="python")
    assert np.array_equal(python, out)
    if masks is not None:
        assert np.array_equal(python_masks, masks)


def test_the_kernels_refuse_arrays_that_do_not_fit() -> None:
    sizes = (13, 13, 13, 13)
    t = kernel_tables(sizes)
    digits = random_digits(sizes, 10, seed=1)
    out = np.zeros((10, 52), np.uint8)
    masks = np.zeros((4, 10), np.uint64)
    args = (digits, t.sizes, t.tables, t.at, t.stride)
    with pytest.raises(ValueError, match="do not fit an output"):
        bulk_kernels.unrank_narrow(*args, out, masks, 0, 10, 1)
    with pytest.raises(ValueError, match="not within"):
        bulk_kernels.unrank_narrow(*args, out, masks, 5, 11, 0)
    with pytest.raises(ValueError, match="masks disagree"):
        bulk_kernels.unrank_narrow(*args, out, np.zeros((3, 10), np.uint64), 0, 10, 0)
    with pytest.raises(ValueError, match="table of pile"):
        bulk_kernels.unrank_narrow(
            digits, t.sizes, t.tables[:100], t.at, t.stride, out, masks, 0, 10, 0
        )
    with pytest.raises(ValueError, match="add up"):
        wrong = np.array([13, 13, 13, 12], np.int64)
        bulk_kernels.unrank_wide(digits, wrong, t.tables, t.at, t.stride, out, 0, 10, 0)
    with pytest.raises(CroupierError, match="too big"):
        unrank_with_masks(np.zeros((3, 1), np.uint64), (5000, 2, 2))


# -- digits -------------------------------------------------------------------------------------


def _compare_digits(rows: np.ndarray, plan_ranges: tuple[int, ...]) -> None:
    plan = plan_for_ranges(tuple(range(len(plan_ranges))), plan_ranges)
    assert plan.machine_sized
    digits, rejected = accepted_digits(rows, plan)
    values, flags = accepted_digits_reference([bytes(r) for r in rows.tolist()], plan)
    assert digits.tolist() == values
    assert rejected.tolist() == flags
    python = accepted_digits(rows, plan, engine="python")
    assert python[0].tolist() == values and python[1].tolist() == flags
    listed_digits, where = digits_and_rejections(rows, plan)
    assert np.array_equal(listed_digits, digits)
    assert where.tolist() == np.flatnonzero(rejected.reshape(-1)).tolist()


@pytest.mark.parametrize(
    "ranges",
    [
        (comb(52, 13), comb(39, 13), comb(26, 13), 1),  # bridge
        (15, 6, 1),
        (2, 200, 10400600, 2**40 + 1),  # widths 1, 2, 4, 6
        (2**53 + 1, 3 * 2**55 + 7),  # digits beyond 2**53: the exact remainder
        (2**60, 2**57),  # limits of 2**64: nothing is rejected
        (2**64 // 17, 2**64 // 100, 7),  # 8 bytes, rejection near the top
        (1, 1),  # no bytes at all
    ],
)
def test_digits_equal_the_reference(ranges: tuple[int, ...]) -> None:
    plan = plan_for_ranges(tuple(range(len(ranges))), ranges)
    rng = np.random.default_rng(len(ranges))
    for n in (1, 2, 3, 700):  # short inputs: the last rows are read byte by byte
        rows = rng.integers(0, 256, (n, plan.row_bytes), dtype=np.uint8)
        rows[0] = 255  # the largest values: rejected where anything is
        _compare_digits(rows, ranges)


def test_every_byte_pair_of_a_two_digit_plan() -> None:
    values = np.arange(65536, dtype=np.uint32)
    rows = np.stack([values >> 8, values & 255], axis=1).astype(np.uint8)
    _compare_digits(rows, (15, 6))  # digit_plan((2, 2, 2)): 255 and 252 .. 255 rejected
    _compare_digits(rows, (61,))  # one digit of two bytes


def test_digits_refuse_plans_beyond_8_bytes() -> None:
    plan = digit_plan((40, 40, 24))  # C(104, 40) needs more than 8 bytes
    assert not plan.machine_sized
    with pytest.raises(ValueError, match="machine_sized"):
        accepted_digits(np.zeros((1, plan.row_bytes), np.uint8), plan)


class _Retry:
    """A retry stream of chosen bytes (block ``b``: bytes drawn from ``choices[b % 3]``)."""

    choices = ([7, 200, 13], [7, 200, 251, 252, 254, 255], [255, 255, 255, 3])

    def __init__(self) -> None:
        self.calls = 0

    def retry(self, block: int, length: int) -> bytes:
        self.calls += 1
        rng = np.random.default_rng(block)
        data = rng.choice(self.choices[block % 3], size=max(length, 1 << 14)).astype(np.uint8)
        return data.tobytes()[:length]


@pytest.mark.parametrize("rate", [0.001, 0.02, 0.3])
def test_redraws_equal_the_rule_block_by_block(rate: float) -> None:
    from croupier.bulk.generate import ROWS_PER_BLOCK, _retry, retry_group

    plan = digit_plan((2, 2, 2))  # digit 0 rejects 255, digit 1 rejects 252 .. 255
    rng = np.random.default_rng(int(rate * 1000))
    n = 4 * ROWS_PER_BLOCK
    rejected = rng.random((n, 3)) < rate
    rejected[:, 2] = False
    rejected[ROWS_PER_BLOCK : 2 * ROWS_PER_BLOCK] = False  # a block with nothing to redraw
    start = rng.integers(0, 6, (3, n)).astype(np.uint64)
    expected, expected_bits = start.copy(), np.zeros(n, np.uint32)
    for b in range(4):
        part = slice(b * ROWS_PER_BLOCK, (b + 1) * ROWS_PER_BLOCK)
        _retry(_Retry(), 5 + b, plan, expected[:, part], rejected[part], expected_bits[part])  # type: ignore[arg-type]
    digits, bits = start.copy(), np.zeros(n, np.uint32)
    stream = _Retry()
    retry_group(stream, 5, plan, digits, rejected, bits)  # type: ignore[arg-type]
    assert np.array_equal(digits, expected) and np.array_equal(bits, expected_bits)
    assert (bits[rejected.any(axis=1)] > 0).all() and not bits[~rejected.any(axis=1)].any()
    if rate >= 0.3:
        assert stream.calls > 3  # some block ran out of its first bytes and fetched more


def test_redraw_refuses_lists_out_of_order() -> None:
    widths, _, ranges, limits = kernel_plan(digit_plan((2, 2, 2)))
    digits = np.zeros((3, 10), np.uint64)
    bits = np.zeros(10, np.uint32)
    retry, at = np.zeros(8, np.uint8), np.array([0, 8], np.int64)
    with pytest.raises(ValueError, match="ascending"):
        bulk_kernels.redraw(np.array([4, 3]), widths, ranges, limits, digits, bits, retry, at, 4096)
    with pytest.raises(ValueError, match="ascending"):
        bulk_kernels.redraw(np.array([30]), widths, ranges, limits, digits, bits, retry, at, 4096)
    assert (
        bulk_kernels.redraw(np.array([3]), widths, ranges, limits, digits, bits, retry, at, 4096)
        == -1
    )
    assert int(digits[0, 1]) == 0 and int(bits[1]) == 8  # the first retry byte, 0, accepted
    assert (
        bulk_kernels.redraw(
            np.zeros(0, np.int64),
            widths,
            ranges,
            limits,
            digits,
            bits,
            retry[:0],
            np.array([0, 0]),
            4096,
        )
        == -1
    )
    assert (
        bulk_kernels.redraw(
            np.array([6]), widths, ranges, limits, digits, bits, retry[:0], np.array([0, 0]), 4096
        )
        == 0
    )


# -- pile masks and stacks ----------------------------------------------------------------------


@pytest.mark.parametrize("game", ["bridge", "euchre", "skat", "holdem"])
def test_pile_masks_equal_the_reference(game: str) -> None:
    layout = make_layout(game)
    rng = np.random.default_rng(3)
    base = np.repeat(np.arange(len(layout.sizes)), layout.sizes)
    piles = np.array([rng.permutation(base) for _ in range(500)], np.uint8)
    count = len(layout.piles)
    masks = pile_masks(piles, count)
    assert masks.tolist() == [pile_masks_reference(r, count) for r in piles.tolist()]
    assert np.array_equal(pile_masks(piles, count, engine="python"), masks)
    assert pile_masks(piles[:0], count).shape == (0, count)


@pytest.mark.parametrize(
    ("game", "players"), [("war", 2), ("go-fish", 4), ("holdem", 6), ("euchre", 4), ("draw", 4)]
)
def test_stack_orders_equal_the_reference(game: str, players: int) -> None:
    layout = make_layout(game, players=players)
    splan = stack_plan(tuple((i, layout.piles[i].size) for i in layout.stack_piles))
    rng = np.random.default_rng(11)
    base = np.repeat(np.arange(len(layout.sizes)), layout.sizes)
    piles = np.array([rng.permutation(base) for _ in range(300)], np.uint8)
    digits = np.array(
        [[int(rng.integers(0, 2**62)) % r for _ in range(300)] for r in splan.digits.ranges],
        np.uint64,
    ).reshape(len(splan.chunks), 300)
    width = sum(k for _, k in splan.stacks)
    out = np.zeros((305, width), np.uint8)
    order_into(piles, layout.sizes, digits, splan, out, 5)
    for i in range(300):
        expected = order_reference(piles[i].tolist(), digits[:, i].tolist(), splan)
        assert out[5 + i].tolist() == [c for stack in expected for c in stack]
    python = np.zeros_like(out)
    order_into(piles, layout.sizes, digits, splan, python, 5, engine="python")
    assert np.array_equal(python, out)
    wide = np.zeros((305, width), np.uint16)  # decks of more than 256 cards: 16-bit indices
    order_into(piles, layout.sizes, digits, splan, wide, 5)
    assert np.array_equal(wide, out)


def test_the_engines_are_the_compiled_core_and_python() -> None:
    assert resolve("auto") == "compiled" and resolve("python") == "python"
    assert bulk_kernels.LEVEL in (1, 2)  # the tiled walk everywhere, AVX-512 where it is
    with pytest.raises(CroupierError, match="numpy engines are gone"):
        resolve("numpy")
