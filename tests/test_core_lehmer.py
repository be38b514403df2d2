"""The compiled rank-to-permutation kernel against its plain-Python specification."""

from __future__ import annotations

import math
import random
from itertools import permutations

import pytest

from croupier._core.lehmer import decode_rank_taking as compiled
from croupier.shuffling.lehmer import decode_rank_taking_reference as reference


@pytest.mark.parametrize("n", range(7))
def test_every_rank_of_small_pools_gives_every_permutation_once_as_the_reference(n: int) -> None:
    seen = set()
    for rank in range(math.factorial(n)):
        got = compiled(list(range(n)), rank)
        assert got == reference(list(range(n)), rank)
        seen.add(tuple(got))
    assert seen == set(permutations(range(n)))


@pytest.mark.parametrize("n", [31, 32, 51, 52, 53, 159, 160, 161, 700, 2048])
def test_random_and_extreme_ranks_of_larger_pools(n: int) -> None:
    # limb boundaries (2**32, 2**64, ...) fall inside these ranks; 160 is where the
    # reference changes its way of taking digits
    rng = random.Random(n)
    top = math.factorial(n)
    ranks = [0, 1, top - 1, top // 2, 2**32 - 1, 2**32, 2**64 - 1, 2**64]
    ranks += [rng.randrange(top) for _ in range(20)]
    # every limb at its largest (the remainders and quotients of each pass at their limits:
    # the compiled passes divide by several radices at once, by a reciprocal)
    ranks += [2 ** (32 * k) - 1 for k in range(1, (top.bit_length() + 31) // 32)]
    ranks += [top - 2**32 - 1] if top > 2**33 else []
    for rank in (r for r in ranks if r < top):
        assert compiled(list(range(n)), rank) == reference(list(range(n)), rank), rank


def test_the_pool_is_emptied_and_its_items_are_the_ones_handed_out() -> None:
    items = [object() for _ in range(10)]
    pool = list(items)
    got = compiled(pool, 123456)
    assert pool == [] and sorted(map(id, got)) == sorted(map(id, items))


def test_ranks_out_of_range_are_refused() -> None:
    with pytest.raises(ValueError, match="not below 5!"):
        compiled(list(range(5)), 120)
    with pytest.raises(ValueError, match=">= 0"):
        compiled(list(range(5)), -1)
