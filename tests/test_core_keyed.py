"""The compiled keyed split (``croupier._core.keyed``) against its plain specification.

The plain engine of :class:`~croupier.scale.keyed_split.KeyedStreams` draws the
keys with :mod:`hashlib` and numpy bit fields, sorts them by radix passes and
arranges the leaves from ``leaf_values`` and ``arrange_leaves``; the compiled one
does all of it in C.  They must agree exactly: keys, order, bits, on every path
(leaves of every size, redraws, streams made longer, wide keys, two threads).
"""

from __future__ import annotations

import hashlib
import pickle

import numpy as np
import pytest

from croupier._core import keyed
from croupier.scale.keyed_split import KeyedParams, KeyedStreams, keyed_order, keyed_pieces


def _pair(seed: bytes, params: KeyedParams) -> tuple[KeyedStreams, KeyedStreams]:
    key = hashlib.sha256(seed).digest()
    return KeyedStreams(key, params=params), KeyedStreams(key, params=params, engine="python")


@pytest.mark.parametrize("k", [1, 3, 8, 11, 16, 17, 25, 26, 32])
@pytest.mark.parametrize("start", [0, 65_530, 3 * 65_536 + 7])
def test_keys_equal_the_plain_ones_across_blocks(k: int, start: int) -> None:
    compiled, plain = _pair(b"keys %d" % k, KeyedParams())
    count = 70_000  # crosses a block of the key stream (65,536 keys)
    a, b = compiled.keys(start, count, k), plain.keys(start, count, k)
    assert a.dtype == b.dtype and np.array_equal(a, b)
    assert np.array_equal(compiled.keys(start + 5, 3, k), b[5:8])  # any piece alone


_PARAMS = [
    (5_000, KeyedParams()),  # the default: leaves of about 600
    (2_000, KeyedParams(key_bits=0)),  # one leaf of 2,000
    (3_000, KeyedParams(key_bits=3, chunk_bits=8, margin_bits=0)),  # many chunks, redraws
    (400, KeyedParams(key_bits=9)),  # leaves of 0, 1, 2 items
    (6_000, KeyedParams(key_bits=2, chunk_bits=1, margin_bits=0)),  # streams made longer
    (2_000, KeyedParams(key_bits=4, chunk_bits=62, margin_bits=2)),  # digits by division
    (70_000, KeyedParams()),  # the sort in two threads
]


@pytest.mark.parametrize(("n", "params"), _PARAMS)
def test_order_and_bits_equal_the_plain_ones(n: int, params: KeyedParams) -> None:
    compiled, plain = _pair(b"order %d" % n, params)
    k = params.resolve(n)
    keys = plain.keys(0, n, k)
    got, got_bits = keyed_order(compiled.keys(0, n, k), k, compiled, params)
    want, want_bits = keyed_order(keys, k, plain, params)
    assert got.tolist() == want.tolist() and got_bits == want_bits
    assert sorted(got.tolist()) == list(range(n))
    pieces = list(keyed_pieces(keys, k, compiled, params, piece=n // 5 or 1))
    assert np.concatenate([p for p, _ in pieces]).tolist() == want.tolist()
    assert sum(b for _, b in pieces) == want_bits


def test_the_longer_stream_path_is_reached(monkeypatch: pytest.MonkeyPatch) -> None:
    # With one radix a chunk and no margin, about half the draws are redrawn and some
    # leaves read past the bytes first made for them: the plain engine then makes its
    # stream longer (and the compiled one too, which the equality above checks).
    params = KeyedParams(key_bits=2, chunk_bits=1, margin_bits=0)
    _, plain = _pair(b"order 6000", params)
    calls: list[int] = []
    made = KeyedStreams.leaf_stream

    def counted(self: KeyedStreams, leaf: int, nbytes: int) -> bytes:
        calls.append(leaf)
        return made(self, leaf, nbytes)

    monkeypatch.setattr(KeyedStreams, "leaf_stream", counted)
    keyed_order(plain.keys(0, 6_000, 2), 2, plain, params)
    assert calls


def test_the_engine_is_kept_when_pickled() -> None:
    compiled, plain = _pair(b"pickle", KeyedParams())
    assert pickle.loads(pickle.dumps(plain)).engine == "python"
    assert pickle.loads(pickle.dumps(compiled)).engine == "auto"


def test_the_kernels_refuse_bad_input() -> None:
    key = bytes(32)
    with pytest.raises(ValueError, match="32 bytes"):
        keyed.keys(bytes(31), 4, 0, np.zeros(3, np.uint32))
    with pytest.raises(ValueError, match="1 to 32 bits"):
        keyed.keys(key, 33, 0, np.zeros(3, np.uint32))
    keys = np.array([0, 3, 1], np.uint32)
    with pytest.raises(ValueError, match="no counter"):
        keyed.count(keys, 0, 3, np.zeros(2, np.int64))
    with pytest.raises(ValueError, match="not among"):
        keyed.count(keys, 0, 4, np.zeros(4, np.int64))
    with pytest.raises(ValueError, match="pass the end"):
        keyed.place(keys, 0, 3, np.array([0, 2, 2, 3], np.int64), np.zeros(3, np.int64))
    order = np.zeros(4, np.int64)
    empty = np.zeros(0, np.int64)
    none = np.zeros(0, np.uint64)
    tables = (np.zeros(3, np.int64),) * 3
    with pytest.raises(ValueError, match="outside the order"):
        keyed.arrange(key, np.array([0], np.uint64), np.array([2]), np.array([3]), 0, 1,
                      *tables, none, empty, none, empty, empty, none, none, order)  # fmt: skip
    with pytest.raises(ValueError, match="do not cover"):
        keyed.arrange(key, np.array([0], np.uint64), np.array([4]), np.array([0]), 0, 1,
                      *tables, none, empty, none, empty, empty, none, none, order)  # fmt: skip


def test_keys_and_sort_by_the_compiled_core_are_the_stable_order() -> None:
    # The counting sort in two halves is the stable order: equal keys keep input order.
    compiled, _ = _pair(b"stable", KeyedParams())
    keys = compiled.keys(0, 80_000, 6)
    order, _ = keyed_order(keys, 6, compiled, KeyedParams(key_bits=6, chunk_bits=1))
    assert order.size == 80_000
    counts = np.bincount(keys.astype(np.intp), minlength=64)
    starts = np.cumsum(counts) - counts
    for j in (0, 31, 63):  # each leaf holds its items (its arrangement permutes them)
        leaf = order[starts[j] : starts[j] + counts[j]]
        assert sorted(leaf.tolist()) == np.flatnonzero(keys == j).tolist()
