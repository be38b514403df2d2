"""The compiled poker kernels keep their contracts: shapes checked, rows ``lo .. hi`` only,
the first bad row reported, repeated cards harmless.

Their values are held to the plain-Python scalar evaluator in ``tests/test_poker_evaluate.py``
(hand values) and ``tests/test_poker_equity.py`` (showdown tallies).
"""

from __future__ import annotations

import numpy as np
import pytest

from croupier._core import poker_eval
from croupier.poker import evaluate_array
from croupier.poker.evaluate import lookup
from croupier.poker.tables import tables


def hands(n: int, size: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.permuted(np.tile(np.arange(52, dtype=np.uint8), (n, 1)), axis=1)[:, :size]


def test_only_rows_lo_to_hi_are_written() -> None:
    cards = np.ascontiguousarray(hands(1000, 7, 1))
    out = np.zeros(1000, np.uint16)
    assert poker_eval.evaluate_rows(lookup(7), cards, out, 100, 300) == -1
    expected = evaluate_array(cards)
    assert not out[:100].any() and not out[300:].any()
    assert np.array_equal(out[100:300], expected[100:300])
    assert poker_eval.evaluate_rows(lookup(7), cards, out, 5, 5) == -1


def test_the_first_bad_row_is_reported() -> None:
    cards = np.ascontiguousarray(hands(100, 6, 2))
    cards[40, 5] = 52
    cards[70, 0] = 255
    out = np.zeros(100, np.uint16)
    assert poker_eval.evaluate_rows(lookup(6), cards, out, 0, 100) == 40
    assert poker_eval.evaluate_rows(lookup(6), cards, out, 41, 100) == 70
    hole, board = np.ascontiguousarray(cards[:, :4]), np.ascontiguousarray(cards[:, 1:6])
    assert poker_eval.evaluate_omaha(lookup(5), hole, board, out, 0, 100) == 40
    masks = np.full(10, 0b11111, np.uint64)
    masks[3] = 0b1111
    masks[6] = 1 << 52 | 0b11111
    assert poker_eval.evaluate_masks(lookup(5), None, None, masks, out[:10], 0, 10) == 3
    assert poker_eval.evaluate_masks(lookup(5), None, None, masks, out[:10], 4, 10) == 6
    masks[:] = 0b111111  # six cards without the tables of six
    assert poker_eval.evaluate_masks(lookup(5), None, lookup(7), masks, out[:10], 0, 10) == 0


def test_repeated_cards_give_some_value_and_no_harm() -> None:
    for size in (5, 6, 7):
        same = np.zeros((4, size), np.uint8)  # the ace of spades, again and again
        same[1] = 51
        same[2, :] = np.arange(size) % 2
        assert evaluate_array(same).shape == (4,)


def test_shapes_and_tables_are_checked() -> None:
    t = tables()
    h = t.hashed(7)
    out = np.zeros(10, np.uint16)
    with pytest.raises(ValueError, match="tables of 7"):
        poker_eval.evaluate_rows(lookup(5), np.zeros((10, 7), np.uint8), out, 0, 10)
    with pytest.raises(ValueError, match=r"rows 0\.\.11"):
        poker_eval.evaluate_rows(lookup(7), np.zeros((10, 7), np.uint8), out, 0, 11)
    with pytest.raises(ValueError, match="one entry a row"):
        poker_eval.evaluate_rows(lookup(7), np.zeros((9, 7), np.uint8), out, 0, 9)
    with pytest.raises(ValueError, match="52, 4096 and 8192"):
        poker_eval.Lookup(7, t.card_code[:51], t.flush_suit, t.flush, h.offsets, h.values, 12)
    with pytest.raises(ValueError, match="every row at its offset"):
        poker_eval.Lookup(7, t.card_code, t.flush_suit, t.flush, h.offsets, h.values[:-1], 12)
    with pytest.raises(ValueError, match=r"2\*\*\(24 - shift\)"):
        poker_eval.Lookup(7, t.card_code, t.flush_suit, t.flush, h.offsets, h.values, 11)
    with pytest.raises(ValueError, match="5, 6 or 7"):
        poker_eval.Lookup(8, t.card_code, t.flush_suit, t.flush, h.offsets, h.values, 12)
    counts = np.zeros((2, 2), np.int64)
    one = np.zeros(1, np.uint64)
    with pytest.raises(ValueError, match="names a combo"):
        poker_eval.holdem_boards(
            lookup(7), one, one, one, one, np.array([[0, 1]], np.int32), one, counts, 0, 1
        )
    with pytest.raises(ValueError, match="2 to 10 hands"):
        poker_eval.holdem_trials(
            lookup(7), one, one, one, one, np.zeros((1, 1), np.int32), counts[:1, :1].copy(), 0, 1
        )
    with pytest.raises(ValueError, match="4 to 6 card numbers"):
        poker_eval.omaha_boards(
            lookup(5),
            np.zeros((1, 5), np.uint8),
            np.zeros((2, 6), np.uint8),
            np.array([4, 3], np.int32),
            counts,
            0,
            1,
        )
