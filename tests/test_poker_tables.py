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


def test_the_rank_hash_holds_every_entry_of_the_nonflush_tables() -> None:
    t = tables()
    for size in (5, 6, 7):
        table, hashed = t.nonflush(size), t.hashed(size)
        width = 1 << hashed.shift
        assert hashed.offsets.shape == (1 << (24 - hashed.shift),)
        assert hashed.values.size >= int(hashed.offsets.max()) + width  # any key stays in bounds
        assert hashed.values.nbytes < 512 * 1024  # the point: it fits in a core's cache
        keys = np.flatnonzero(table)
        at = hashed.offsets[keys >> hashed.shift].astype(np.int64) + (keys & (width - 1))
        assert np.unique(at).size == keys.size  # no two multisets share a place
        assert np.array_equal(hashed.values[at], table[keys])
        assert np.count_nonzero(hashed.values) == keys.size  # and nothing else is there


def test_place_rows_overlays_rows_without_a_clash() -> None:
    from croupier._core.poker_eval import place_rows

    rng = np.random.default_rng(9)
    width = 64
    rows = [np.sort(rng.choice(width, size=k, replace=False)) for k in rng.integers(0, 20, 300)]
    starts = np.concatenate([[0], np.cumsum([len(r) for r in rows])]).astype(np.int64)
    columns = np.concatenate(rows).astype(np.uint32)
    order = np.argsort([-len(r) for r in rows], kind="stable").astype(np.int64)
    offsets = np.zeros(len(rows), np.uint32)
    cells = place_rows(starts, columns, order, width, offsets)
    places = np.concatenate([offsets[i] + r for i, r in enumerate(rows)]).astype(np.int64)
    assert np.unique(places).size == places.size == columns.size
    assert cells == places.max() + 1 < columns.size * 2  # overlaid, not side by side
