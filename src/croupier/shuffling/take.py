"""A list's items in the order a shuffle gives: ``out[q] = items[order[q]]``.

A shuffle of a list computes its order (a numpy array of positions) and then takes the
items in that order.  Taking them one by one in Python touches each item where it lies
in memory, one cache miss after another: for a million items that was most of the
shuffle.  :func:`take_in_order` does it in the compiled core
(:mod:`croupier._core.lists`), with the items ahead fetched while the current one is
taken; :func:`take_in_order_reference` is its plain-Python specification.

>>> import numpy as np
>>> take_in_order(["a", "b", "c", "d"], np.array([3, 1, 0, 2]))
['d', 'b', 'a', 'c']
"""

from __future__ import annotations

from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from croupier._core.lists import take

__all__ = ["take_in_order", "take_in_order_reference"]

T = TypeVar("T")


def take_in_order(items: list[T], order: npt.NDArray[Any]) -> list[T]:
    """A new list of ``items[order[q]]`` for every ``q`` (each position below ``len(items)``).

    >>> import numpy as np
    >>> take_in_order([10, 20], np.array([1, 1, 0]))
    [20, 20, 10]
    >>> take_in_order([10, 20], np.array([2]))
    Traceback (most recent call last):
    ...
    IndexError: order[0] = 2 is not a place of a list of 2
    """
    return take(items, np.ascontiguousarray(order, dtype=np.intp))


def take_in_order_reference(items: list[T], order: npt.NDArray[Any]) -> list[T]:
    """:func:`take_in_order` in plain Python (the specification the tests hold it to).

    >>> import numpy as np
    >>> take_in_order_reference(["a", "b", "c"], np.array([2, 0, 1]))
    ['c', 'a', 'b']
    """
    n = len(items)
    out = []
    for q, i in enumerate(order.tolist()):
        if not 0 <= i < n:
            raise IndexError(f"order[{q}] = {i} is not a place of a list of {n}")
        out.append(items[i])
    return out
