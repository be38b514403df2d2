"""The compiled list take against its plain-Python specification, and the list shuffles
that use it (the same orders as before: golden vectors elsewhere pin them)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import croupier
from croupier.randomness import SeededSource
from croupier.shuffling.arrays import shuffle_order
from croupier.shuffling.take import take_in_order, take_in_order_reference


@given(st.lists(st.integers(), max_size=80), st.data())
def test_the_compiled_take_is_the_specification(items: list[int], data: st.DataObject) -> None:
    n = len(items)
    order = data.draw(st.lists(st.integers(0, n - 1), max_size=120)) if n else []
    array = np.array(order, dtype=np.intp)
    assert take_in_order(items, array) == take_in_order_reference(items, array)


@pytest.mark.parametrize("bad", [-1, 5, 2**40])
def test_a_place_outside_the_list_is_refused_before_anything_is_taken(bad: int) -> None:
    items = ["a", "b", "c", "d", "e"]
    order = np.array([0, 1, bad, 2], dtype=np.int64)
    with pytest.raises(IndexError, match=rf"^order\[2\] = {bad} is not a place of a list of 5$"):
        take_in_order(items, order)
    with pytest.raises(IndexError, match=rf"^order\[2\] = {bad} is not a place of a list of 5$"):
        take_in_order_reference(items, order)
    assert items == ["a", "b", "c", "d", "e"]


def test_references_are_counted_for_every_item_taken() -> None:
    import sys

    item = object()
    before = sys.getrefcount(item)
    taken = take_in_order([item, "x"], np.array([0, 0, 1, 0], dtype=np.intp))
    assert sys.getrefcount(item) == before + 3
    del taken
    assert sys.getrefcount(item) == before


def test_long_list_shuffles_take_the_order_of_the_shuffle() -> None:
    # 5,000 items: the split shuffle (above 2,048), its order taken by the compiled core
    items = [f"item {i}" for i in range(5000)]
    order = shuffle_order(5000, SeededSource("take", purpose="shuffle")).tolist()
    assert croupier.shuffle(items, seed="take") == [items[i] for i in order]
    copy = list(items)
    croupier.shuffle_in_place(copy, seed="take")
    assert copy == [items[i] for i in order]
