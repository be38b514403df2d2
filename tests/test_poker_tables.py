"""The lookup tables of poker evaluation, checked against the rules entry by entry."""

from __future__ import annotations

import itertools
import random

import numpy as np

from croupier.poker.tables import RANK_KEYS, hand_classes, tables
from tests.poker_reference import rules_best, rules_key


def _multisets(size: int) -> list[tuple[int, ...]]:
    return [
        m
        for m in itertools.combinations_with_replacement(range(13), size)
        if max(m.count(r) for r in set(m)) <= 4
    ]


def _cards(ranks: tuple[int, ...], suited: bool) -> list[int]:
    """Card numbers with these rank indices: all spades, or suits dealt round so no flush."""
    out, used = [], set()
    for i, r in enumerate(ranks):
        suit = 0 if suited else i % 4
        while 13 * suit + 12 - r in used:
            suit = (suit + 1) % 4
        used.add(13 * suit + 12 - r)
        out.append(13 * suit + 12 - r)
    return out


def test_rank_keys_tell_multisets_apart() -> None:
    for size, count in ((5, 6175), (6, 18395), (7, 49205)):
        sums = {sum(RANK_KEYS[r] for r in m) for m in _multisets(size)}
        assert len(sums) == count
    assert max(sum(RANK_KEYS[r] for r in m) for m in _multisets(7)) < 1 << 24


def test_hand_classes_are_in_the_order_of_the_rules() -> None:
    classes = hand_classes()
    assert len(classes) == len(set(classes)) == 7462
    keys = [rules_key(_cards(c, suited=cat in (5, 8))) for cat, c in map(_example, classes)]
    assert keys == sorted(keys) and len(set(keys)) == 7462


def _example(cls: tuple[int, tuple[int, ...]]) -> tuple[int, tuple[int, ...]]:
    """Five rank indices of a class, straight from its category and deciding ranks."""
    category, ranks = cls
    if category in (4, 8):
        top = ranks[0]
        return category, (3, 2, 1, 0, 12) if top == 3 else tuple(range(top, top - 5, -1))
    repeat = {1: (2, 1, 1, 1), 2: (2, 2, 1), 3: (3, 1, 1), 6: (3, 2), 7: (4, 1)}
    shape = repeat.get(category, (1,) * 5)
    return category, tuple(r for r, k in zip(ranks, shape, strict=True) for _ in range(k))


def test_nonflush_tables_hold_the_best_hand_of_each_multiset() -> None:
    t = tables()
    rng = random.Random(5)
    for size in (5, 6, 7):
        table = t.nonflush(size)
        every = _multisets(size)
        chosen = every if size == 5 else rng.sample(every, 1500)
        values = [int(table[sum(RANK_KEYS[r] for r in m)]) for m in chosen]
        keys = [rules_best(_cards(m, suited=False)) for m in chosen]
        for (v1, k1), (v2, k2) in itertools.pairwise(sorted(zip(values, keys, strict=True))):
            assert (v1 < v2) == (k1 < k2), (v1, k1, v2, k2)
        # every multiset has an entry, and nothing else does
        filled = {sum(RANK_KEYS[r] for r in m) for m in every}
        assert set(np.flatnonzero(table).tolist()) == filled


def test_flush_table_holds_the_best_flush_of_each_suit_set() -> None:
    t = tables()
    for mask in range(1 << 13):
        bits = mask.bit_count()
        if bits < 5:
            assert t.flush[mask] == 0
            continue
        if bits > 7:
            continue
        cards = [i for i in range(13) if mask >> i & 1]  # spades: card number = bit
        expected = rules_best(cards)
        value = int(t.flush[mask])
        category, ranks = hand_classes()[value - 1]
        assert category in (5, 8)
        assert rules_key(_cards(_example((category, ranks))[1], suited=True)) == expected


def test_flush_suit_names_the_suit_with_five_cards() -> None:
    t = tables()
    for counts in itertools.product(range(8), repeat=4):
        if sum(counts) > 7:
            continue
        field = sum(c << (3 * s) for s, c in enumerate(counts))
        five = [s for s, c in enumerate(counts) if c >= 5]
        assert int(t.flush_suit[field]) == (five[0] if five else 4)
