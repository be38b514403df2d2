"""DealArray: conversions to and from Deal objects, views, checks."""

from __future__ import annotations

import numpy as np
import pytest

from croupier.bulk import BulkDealer, DealArray, DealArrayError, deal_array
from croupier.bulk.array import SUIT_ORDER
from croupier.cards import Rank
from croupier.dealing.deal import deal_from_number
from croupier.dealing.layout import make_layout

GAMES = [("bridge", 4), ("holdem", 6), ("euchre", 4), ("pinochle", 4), ("gin", 2), ("skat", 3)]


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_round_trip_through_deal_objects(game: str, players: int) -> None:
    layout = make_layout(game, players=players)
    numbers = [0, 1, layout.count // 3, layout.count - 1]
    deals = [deal_from_number(layout, k) for k in numbers]
    array = DealArray.from_deals(deals)
    assert len(array) == 4 and array.piles.dtype == np.uint8
    assert list(array) == deals
    assert array.numbers() == numbers
    assert array.numbers("sequence") == [d.number_in("sequence") for d in deals]
    assert DealArray.from_deals(list(array)) == array
    assert (array.counts() == np.array(layout.sizes)).all()


def test_rows_of_a_dealt_array_are_deals_of_their_numbers() -> None:
    array = deal_array(50, "bridge", seed="rows")
    for deal, number in zip(array, array.numbers(), strict=True):
        assert deal == deal_from_number(array.layout, number)
        assert deal.algorithm == "croupier-bulk/1" and deal.bits_used >= 120


def test_indexing_slicing_and_concatenation() -> None:
    array = deal_array(10, "bridge", seed="slices")
    assert array[-1] == array[9] and array[3] == list(array)[3]
    assert array[2:5] == DealArray.from_deals(list(array)[2:5])
    assert len(array[array.suit_lengths()[:, 0, 0] >= 0]) == 10
    assert DealArray.concatenate([array[:4], array[4:]]) == array
    with pytest.raises(IndexError):
        array[10]
    assert array != deal_array(10, "bridge", seed="other")
    assert array != "not an array"


def test_masks_match_the_cards() -> None:
    array = deal_array(200, "bridge", seed="masks")
    masks = array.masks()
    for row, deal in enumerate(array):
        for pile, cards in enumerate(deal.piles):
            expected = sum(1 << array.layout.index(c) for c in cards)
            assert int(masks[row, pile]) == expected
    assert (np.bitwise_or.reduce(masks, axis=1) == (1 << 52) - 1).all()


def test_suit_lengths_and_ranks_held_match_the_cards() -> None:
    array = deal_array(200, "euchre", seed="views")
    lengths = array.suit_lengths()
    held = array.ranks_held()
    for row, deal in enumerate(array):
        for pile, cards in enumerate(deal.piles):
            for s, suit in enumerate(SUIT_ORDER):
                in_suit = [c for c in cards if c.suit == suit]
                assert lengths[row, pile, s] == len(in_suit)
                bits = sum(1 << ((14 if c.rank == Rank.ACE else int(c.rank)) - 2) for c in in_suit)
                assert held[row, pile, s] == bits


def test_the_array_is_read_only() -> None:
    array = deal_array(3, "bridge", seed="ro")
    with pytest.raises(ValueError):
        array.piles[0, 0] = 1


def test_bad_arrays_are_refused_with_one_line() -> None:
    layout = make_layout("bridge")
    good = deal_array(2, "bridge", seed="bad").piles
    with pytest.raises(DealArrayError, match=r"shape \(n, 52\), not \(2, 51\)"):
        DealArray(layout, good[:, :51])
    with pytest.raises(DealArrayError, match=r"pile indices must be 0\.\.3"):
        DealArray(layout, np.where(good == 0, 7, good))
    uneven = good.copy()
    uneven[1] = 0
    with pytest.raises(DealArrayError, match=r"row 1 has pile sizes \[52, 0, 0, 0\]"):
        DealArray(layout, uneven)
    with pytest.raises(DealArrayError, match="integers"):
        DealArray(layout, good.astype(float))
    with pytest.raises(DealArrayError, match="same layout"):
        DealArray.from_deals([deal_from_number(layout, 0), deal_from_number(make_layout("war"), 0)])
    with pytest.raises(DealArrayError, match="layout="):
        DealArray.from_deals([])
    with pytest.raises(DealArrayError, match="at least one"):
        DealArray.concatenate([])
    big = make_layout(hands=[40, 40], deck="shoe:2")
    with pytest.raises(DealArrayError, match="at most 64 cards"):
        deal_array(1, big, seed="x").masks()


def test_compiled_masks_equal_the_plain_python_rule() -> None:
    from croupier.bulk.array import pile_masks, pile_masks_reference

    big = deal_array(20_000, "euchre", seed="masks both")
    plain = DealArray(big.layout, big.piles.copy())  # masks from the piles, not the generator
    assert (big.masks() == plain.masks()).all()
    assert (big.ranks_held() == plain.ranks_held()).all()
    count = len(big.layout.piles)
    rows = big.piles[:2000]
    assert pile_masks(rows, count).tolist() == [
        pile_masks_reference(r, count) for r in rows.tolist()
    ]
    assert (pile_masks(rows, count, engine="python") == plain.masks()[:2000]).all()


def test_masks_the_generator_hands_over_match_the_piles() -> None:
    for engine in ("compiled", "python"):
        dealt = BulkDealer("bridge", seed="handed over", engine=engine).deal(5000)
        again = DealArray(dealt.layout, dealt.piles.copy())
        assert (dealt.masks() == again.masks()).all()
        assert (dealt.ranks_held() == again.ranks_held()).all()
