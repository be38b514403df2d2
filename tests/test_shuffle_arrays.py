"""The split shuffle (croupier-shuffle-split/1), array shuffles, permutations and samples."""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections.abc import Callable
from fractions import Fraction
from itertools import permutations
from typing import Any

import numpy as np
import pytest

import croupier
from croupier.errors import CroupierError, RangeError
from croupier.randomness import (
    OsRandomSource,
    ScriptedChooser,
    SeededSource,
    UniformSampler,
    exact_distribution,
)
from croupier.randomness.source import BitSource
from croupier.shuffling import fair, split_shuffle
from croupier.shuffling.arrays import (
    sample_indices,
    shuffle_array,
    shuffle_array_in_place,
    shuffle_order,
)
from croupier.shuffling.split import (
    Engine,
    SplitParams,
    accept_limit,
    chunk_plan,
    draw_width,
    expected_bits_per_item,
    split_levels,
    split_order,
)
from tests.conftest import VECTORS
from tests.test_random_seeded import split_with

VECTORS_DOC = json.loads((VECTORS / "shuffle_split_v1.json").read_text(encoding="utf-8"))
ENGINES: list[Engine] = ["python", "compiled"]


def _log2_factorial(n: int) -> float:
    return math.lgamma(n + 1) / math.log(2)


def _sha(a: Any) -> str:
    return hashlib.sha256(np.ascontiguousarray(a, dtype="<i8").tobytes()).hexdigest()


# --- exact uniformity by enumeration -----------------------------------------------------------


class _Need(Exception):
    def __init__(self, k: int) -> None:
        super().__init__(k)
        self.k = k


class _Replay(BitSource):
    """A bit source whose requests are answered from a script (one value a request)."""

    def __init__(self, script: tuple[int, ...]) -> None:
        super().__init__()
        self.script = script
        self.pos = 0

    def _next(self, k: int) -> int:
        if self.pos >= len(self.script):
            raise _Need(k)
        self.pos += 1
        return self.script[self.pos - 1]

    def _random_bits(self, k: int) -> int:
        return self._next(k)

    def _random_bytes(self, k: int) -> bytes:
        return (self._next(k) << (-k & 7)).to_bytes((k + 7) >> 3, "big")


def _walk_bits(
    run: Callable[[BitSource], tuple[int, ...]], max_bits: int
) -> tuple[dict[tuple[int, ...], Fraction], Fraction]:
    """Every answer to every request an algorithm makes, to ``max_bits`` bits in all.

    Returns the exact probability of finishing with each outcome, and of not finishing.
    """
    done: dict[tuple[int, ...], Fraction] = {}
    unfinished = Fraction(0)
    stack: list[tuple[tuple[int, ...], int, Fraction]] = [((), 0, Fraction(1))]
    while stack:
        script, used, weight = stack.pop()
        try:
            outcome = run(_Replay(script))
        except _Need as need:
            if used + need.k > max_bits:
                unfinished += weight
                continue
            share = weight / (1 << need.k)
            stack.extend(((*script, v), used + need.k, share) for v in range(1 << need.k))
            continue
        done[outcome] = done.get(outcome, Fraction(0)) + weight
    return done, unfinished


# Parameters that reach every path on a few items: no split, one level, two levels, leaves
# of several draws (chunk bits 1 or 2), and redraws (margins 0 and 1 reject often).
PATHS = [
    (3, SplitParams((), 60, 0)),
    (3, SplitParams((), 1, 1)),
    (3, SplitParams((1,), 2, 1)),
    (4, SplitParams((1,), 60, 0)),
    (3, SplitParams((1, 1), 60, 1)),
    (4, SplitParams((2,), 2, 0)),
    (4, SplitParams((1,), 64, 0)),  # draws may reach 2**60: the compiled digits divide
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("n", "params"), PATHS, ids=lambda x: str(x))
def test_every_engine_and_path_is_exactly_uniform_bit_by_bit(
    engine: Engine, n: int, params: SplitParams
) -> None:
    # Every bit string the algorithm can read, to 14 bits: each of the n! orders must finish
    # with exactly the same probability (the unfinished runs are those still redrawing).
    def run(src: BitSource) -> tuple[int, ...]:
        return tuple(split_order(n, src, params=params, engine=engine).tolist())

    done, unfinished = _walk_bits(run, 14)
    assert set(done) == set(permutations(range(n)))
    assert len(set(done.values())) == 1
    assert sum(done.values()) + unfinished == 1
    assert unfinished < Fraction(1, 4)


@pytest.mark.parametrize(
    "params",
    [SplitParams(()), SplitParams((1,)), SplitParams((1, 2)), SplitParams((2,), 3, 0)],
    ids=str,
)
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_the_choices_give_every_order_exactly_once_per_key_vector(
    n: int, params: SplitParams
) -> None:
    # Through a chooser (keys below 2**k, leaf draws below R) the walk is finite: every
    # order has probability exactly 1/n!.
    dist = exact_distribution(
        lambda c: tuple(split_order(n, c, params=params).tolist()), max_leaves=200_000
    )
    assert dist == {p: Fraction(1, math.factorial(n)) for p in permutations(range(n))}


def test_a_broken_leaf_draw_is_caught_by_the_enumeration() -> None:
    # The same walk must fail for a split whose leaf draws are reduced modulo their range.
    def biased(src: BitSource) -> tuple[int, ...]:
        v = int.from_bytes(src.bits_as_bytes(3), "big") >> 5  # 3 bits, modulo 3! = 6: biased
        order = list(range(3))
        for r in (3, 2):
            v, d = divmod(v % 6 if r == 3 else v, r)
            order[r - 1], order[d] = order[d], order[r - 1]
        return tuple(order)

    done, _ = _walk_bits(biased, 3)
    assert len(set(done.values())) > 1


@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("in_place", [False, True])
@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_array_shuffles_are_exactly_uniform(axis: int, in_place: bool, engine: Engine) -> None:
    # Rows (axis 0: the compiled engine moves them itself) or columns of a small array,
    # copied or in place, over every bit string to 14 bits.
    base = np.arange(12).reshape(3, 4) if axis == 0 else np.arange(12).reshape(4, 3)

    def run(src: BitSource) -> tuple[int, ...]:
        a = base.copy()
        if in_place:
            shuffle_array_in_place(a, src, axis=axis, method="split", engine=engine)
        else:
            a = shuffle_array(a, src, axis=axis, method="split", engine=engine)
        first = a[:, 0] // 4 if axis == 0 else a[0, :]
        return tuple(int(x) for x in first)

    done, unfinished = _walk_bits(run, 14)
    assert set(done) == set(permutations(range(3)))
    assert len(set(done.values())) == 1 and unfinished < Fraction(1, 8)


@pytest.mark.parametrize(("n", "k"), [(4, 2), (5, 3), (3, 3), (4, 0)])
def test_sample_is_exactly_uniform_over_ordered_selections(n: int, k: int) -> None:
    dist = exact_distribution(lambda c: tuple(sample_indices(n, k, c)))
    count = math.perm(n, k)
    assert len(dist) == count and set(dist.values()) == {Fraction(1, count)}


def test_permutation_and_lehmer_orders_are_exactly_uniform() -> None:
    dist = exact_distribution(lambda c: tuple(shuffle_order(4, c).tolist()))
    assert set(dist.values()) == {Fraction(1, 24)} and len(dist) == 24


def test_the_default_52_card_draw_is_exact_rejection(monkeypatch: pytest.MonkeyPatch) -> None:
    # croupier.shuffle's default draw below n! reads the fewest bits from the OS and draws
    # again above n! - 1: fed every byte once, every rank below 3! comes equally often.
    feed = iter(range(256))
    monkeypatch.setattr(os, "urandom", lambda k: bytes([next(feed)]))
    counts = [0] * 6
    for _ in range(256 * 6 // 8):
        counts[croupier._os_below_factorial(3)] += 1
    assert counts == [32] * 6


# --- engines, the specification, golden vectors ------------------------------------------------


@pytest.mark.parametrize("trial", range(40))
def test_both_engines_read_the_same_bits_and_agree(trial: int) -> None:
    rng = np.random.default_rng(trial)
    n = int(rng.choice([0, 1, 2, 7, 64, 700, 5000]))
    levels = [(), (1,), (3,), (2, 2), (5, 4), (9,), (9, 8)][trial % 7]  # (9, 8): two radix passes
    params = SplitParams(levels, int(rng.choice([4, 9, 60])), int(rng.choice([0, 1, 4])))
    results = []
    for engine in ENGINES:
        src = SeededSource(f"engines {trial}", "shuffle")
        order = split_order(n, src, params=params, engine=engine)
        results.append((order.tolist(), src.bits_used))
    assert results[0] == results[1]
    assert sorted(results[0][0]) == list(range(n))


@pytest.mark.parametrize("case", VECTORS_DOC["parameters"], ids=lambda c: str(c["levels"]))
def test_the_specification_written_out_gives_the_parameter_vectors(case: dict[str, Any]) -> None:
    src = SeededSource(case["seed"], case["purpose"])
    want = split_with(
        list(range(case["n"])), src.bits, case["levels"], case["chunk_bits"], case["margin_bits"]
    )
    assert want == case["order"] and src.bits_used == case["bits_used"]
    params = SplitParams(tuple(case["levels"]), case["chunk_bits"], case["margin_bits"])
    for engine in ENGINES:
        got = SeededSource(case["seed"], case["purpose"])
        assert split_order(case["n"], got, params=params, engine=engine).tolist() == want
        assert got.bits_used == case["bits_used"]


@pytest.mark.parametrize("n", [4096, 70_000])
def test_the_specification_written_out_agrees_on_larger_inputs(n: int) -> None:
    src = SeededSource("spec check", "shuffle")
    want = split_with(list(range(n)), src.bits, list(split_levels(n)), 60, 4)
    got = SeededSource("spec check", "shuffle")
    assert split_order(n, got).tolist() == want and got.bits_used == src.bits_used


@pytest.mark.parametrize("case", VECTORS_DOC["orders"], ids=lambda c: str(c["n"]))
def test_golden_orders(case: dict[str, Any]) -> None:
    n = case["n"]
    assert list(split_levels(n)) == case["levels"]
    src = SeededSource(case["seed"], case["purpose"])
    order = split_order(n, src)
    assert order[:8].tolist() == case["first"] and _sha(order) == case["order_sha256"]
    assert src.bits_used == case["bits_used"]


def test_golden_public_calls() -> None:
    calls = {c["call"]: c for c in VECTORS_DOC["api"]}
    assert (
        croupier.permutation(10, seed="api").tolist()
        == calls["permutation(10, seed='api')"]["result"]
    )
    rows = croupier.shuffle(np.arange(3000).reshape(1000, 3), seed="api")
    case = calls["shuffle(numpy.arange(3000).reshape(1000, 3), seed='api')"]
    assert rows[:3].tolist() == case["first_rows"] and _sha(rows) == case["sha256"]
    for call in ("sample(range(10**12), 5, seed='api')", "sample(range(52), 13, seed='api')"):
        population = range(10**12) if "10**12" in call else range(52)
        k = 5 if "10**12" in call else 13
        assert croupier.sample(population, k, seed="api") == calls[call]["result"]


def test_chunk_plans_and_limits() -> None:
    for m in range(2, 200):
        plan = chunk_plan(m)
        assert [r for _, top, bottom in plan for r in range(top, bottom - 1, -1)] == list(
            range(m, 1, -1)
        )
        assert all(size == math.prod(range(bottom, top + 1)) for size, top, bottom in plan)
        assert all(size <= 2**60 for size, _, _ in plan)
        for size, _, _ in plan:
            w = draw_width(size)
            assert w <= 64 and accept_limit(size, w) % size == 0
            assert 2**w - accept_limit(size, w) < size  # a rejection has chance < 1/16
            assert size * 16 <= 2**w


# --- bits -------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2049, 10_000, 100_000, 1_000_000])
def test_bits_stay_within_log2_n_factorial_plus_n(n: int) -> None:
    # The bound is log2(n!) + 2n; the standard parameters give about 0.85 n
    # (docs/shuffling-at-scale.md), so this checks log2(n!) + n on fixed seeds.
    src = SeededSource(f"bits {n}", "shuffle")
    split_order(n, src)
    extra = (src.bits_used - _log2_factorial(n)) / n
    assert 0.5 < extra < 1.0, extra


def test_expected_bits_match_the_measured_ones() -> None:
    n = 1_000_000
    src = SeededSource("bits expected", "shuffle")
    split_order(n, src)
    measured = (src.bits_used - _log2_factorial(n)) / n
    assert abs(measured - expected_bits_per_item(n / 2**10)) < 0.03


# --- a statistical check on a large shuffle ----------------------------------------------------


def test_positions_of_items_pass_chi_square() -> None:
    # 400 shuffles of 200,000 items (two levels forced: 6 + 6 key bits, leaves of about
    # 49), the positions of 100 items (every 2,000th) in 20 equal bins: a 100 x 20 table,
    # expected 20 a cell.  Degrees of freedom 100 * 19 (each row's total is fixed); the
    # threshold's false-alarm rate for a uniform shuffle is 1e-6; fixed seed.
    from scipy.stats import chi2

    n, rounds, bins = 200_000, 400, 20
    items = np.arange(0, n, n // 100)
    params = SplitParams((6, 6))
    src = SeededSource("chi-square split", "shuffle")
    counts = np.zeros((len(items), bins), np.int64)
    for _ in range(rounds):
        order = split_order(n, src, params=params, engine="compiled")
        where = np.empty(n, np.int64)
        where[order] = np.arange(n)
        np.add.at(counts, (np.arange(len(items)), where[items] * bins // n), 1)
    expected = rounds / bins
    stat = float(((counts - expected) ** 2 / expected).sum())
    assert stat < chi2.isf(1e-6, len(items) * (bins - 1)), stat
    # ... and the same check catches keys that are not uniform (one bit stuck at 0)
    stuck = counts.copy()
    stuck[:, : bins // 2] *= 2
    stuck[:, bins // 2 :] = 0
    assert float(((stuck - expected) ** 2 / expected).sum()) > chi2.isf(1e-6, 1900)


# --- arrays, lists, permutations, samples ------------------------------------------------------


DTYPES = ["int8", "uint16", "int32", "int64", "float32", "float64", "complex128", "U3", "bool"]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [0, 1, 5, 3000])
def test_arrays_keep_dtype_and_shape_and_follow_the_list_order(dtype: str, n: int) -> None:
    a = (np.arange(n) % 7).astype(dtype)
    items = a.tolist()
    b = croupier.shuffle(a, seed="dtype")
    assert b.dtype == a.dtype and b.shape == a.shape and a.tolist() == items
    assert b.tolist() == croupier.shuffle(items, seed="dtype")
    c = a.copy()
    croupier.shuffle_in_place(c, seed="dtype")
    assert c.tolist() == b.tolist()


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_rows_columns_and_other_layouts_take_the_same_order(engine: Engine) -> None:
    n = 5000
    order = shuffle_order(n, SeededSource("layouts"), engine=engine)
    m = np.arange(3 * n, dtype=np.int16).reshape(n, 3)
    assert (shuffle_array(m, SeededSource("layouts"), engine=engine) == m[order]).all()
    t = np.ascontiguousarray(m.T)
    got = shuffle_array(t, SeededSource("layouts"), axis=1, engine=engine)
    assert (got == t[:, order]).all()
    got = shuffle_array(t, SeededSource("layouts"), axis=-1, engine=engine)
    assert (got == t[:, order]).all()
    cube = np.arange(n * 4, dtype=np.float64).reshape(n, 2, 2)
    assert (shuffle_array(cube, SeededSource("layouts"), engine=engine) == cube[order]).all()
    strided = np.arange(2 * n)[::2]  # not contiguous
    assert (shuffle_array(strided, SeededSource("layouts"), engine=engine) == strided[order]).all()
    odd = np.zeros(n, dtype=[("a", "u1"), ("b", "i4")])  # 5-byte records
    odd["b"] = np.arange(n)
    assert (shuffle_array(odd, SeededSource("layouts"), engine=engine)["b"] == order).all()
    objects = np.array([str(i) for i in range(n)], dtype=object)
    got = shuffle_array(objects, SeededSource("layouts"), engine=engine)
    assert got.tolist() == [str(i) for i in order]
    in_place = m.copy()
    shuffle_array_in_place(in_place, SeededSource("layouts"), engine=engine)
    assert (in_place == m[order]).all()
    big = np.arange(70_000, dtype=np.int64)
    big_order = shuffle_order(70_000, SeededSource("layouts big"), engine=engine)
    assert (shuffle_array(big, SeededSource("layouts big"), engine=engine) == big_order).all()
    shuffle_array_in_place(big, SeededSource("layouts big"), engine=engine)
    assert (big == big_order).all()


def test_permutation_is_shuffle_of_arange_and_of_range() -> None:
    for n in (0, 1, 52, 2049, 40_000):
        p = croupier.permutation(n, seed=f"perm {n}")
        assert p.tolist() == croupier.shuffle(range(n), seed=f"perm {n}")
        assert (croupier.shuffle(np.arange(n), seed=f"perm {n}") == p).all()
        assert sorted(p.tolist()) == list(range(n))


def test_lists_in_place_and_copies_agree() -> None:
    for n in (5, 3000):
        items = [f"x{i}" for i in range(n)]
        copy = croupier.shuffle(items, seed="lists")
        croupier.shuffle_in_place(items, seed="lists")
        assert items == copy


def test_methods_by_name_work_on_arrays() -> None:
    a = np.arange(40)
    for name in ("fisher-yates", "lehmer", "merge-shuffle", "split"):
        got = croupier.shuffle(a, seed="names", method=name)
        assert got.tolist() == croupier.shuffle(range(40), seed="names", method=name)


def test_split_is_registered_and_reads_the_source_directly() -> None:
    src = SeededSource("direct", "shuffle")
    sampler = UniformSampler(src)
    out = split_shuffle(list(range(3000)), sampler)
    assert sampler.leftover_bits == 0 and src.bits_used > _log2_factorial(3000)
    assert out == croupier.shuffle(range(3000), source=SeededSource("direct", "shuffle"))


def test_the_default_source_is_the_os() -> None:
    a = croupier.shuffle(np.arange(10_000))
    b = croupier.shuffle(np.arange(10_000))
    assert sorted(a.tolist()) == list(range(10_000)) and (a != b).any()
    src = OsRandomSource()
    croupier.shuffle(np.arange(10_000), source=src)
    assert src.bits_used > _log2_factorial(10_000)


def test_samples() -> None:
    assert sorted(croupier.sample("abcdefgh", 8, seed=3)) == list("abcdefgh")
    chooser = UniformSampler(SeededSource("same", "shuffle"))
    want = fair.sample(list(range(30)), 7, chooser)
    assert croupier.sample(range(30), 7, seed="same") == want
    arr = np.arange(60).reshape(30, 2)
    rows = croupier.sample(arr, 7, seed="same")
    assert isinstance(rows, np.ndarray) and rows[:, 0].tolist() == [2 * x for x in want]
    assert croupier.sample(range(10**15), 2, seed=1)[0] < 10**15
    assert croupier.sample([], 0) == []
    src = SeededSource("sample bits")
    croupier.sample(range(1000), 100, source=src)
    assert src.bits_used < math.log2(math.perm(1000, 100)) + 2 * 100


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: croupier.shuffle(np.array(3.0)), "0-dimensional"),
        (lambda: croupier.shuffle(np.arange(4), axis=1), "axis=1 is out of range"),
        (lambda: croupier.shuffle([1, 2], axis=1), "axis= applies to numpy arrays"),
        (lambda: croupier.sample(range(3), 4), "k=4 is out of range"),
        (lambda: croupier.sample({1, 2}, 1), "population must be a sequence"),  # type: ignore[call-overload]
        (lambda: croupier.permutation(-1), "n must be a whole number"),
        (lambda: croupier.shuffle(np.arange(3), method="bogo"), "unknown shuffle method"),
        (lambda: split_order(5, SeededSource("x"), engine="gpu"), "engine='gpu'"),  # type: ignore[arg-type]
        (lambda: SplitParams((17,)), "1 to 16 key bits"),
    ],
)
def test_bad_input_is_one_line_error(call: Callable[[], object], message: str) -> None:
    with pytest.raises(CroupierError) as info:
        call()
    assert message in str(info.value) and "\n" not in str(info.value)


def test_read_only_arrays_are_refused_in_place() -> None:
    a = np.arange(5)
    a.flags.writeable = False
    with pytest.raises(CroupierError, match="read-only"):
        croupier.shuffle_in_place(a)
    with pytest.raises(RangeError):
        croupier.permutation(True)


def test_scripted_choosers_drive_the_split_by_choices() -> None:
    # keys below 2, then one draw below 2 for each leaf of two items
    order = split_order(4, ScriptedChooser([1, 0, 0, 1, 1, 0]), params=SplitParams((1,)))
    assert order.tolist() == [1, 2, 3, 0]  # leaf 0 = items 1, 2 (kept); leaf 1 = 0, 3 (swapped)


# --- the ChaCha20 source (the default randomness of large shuffles) ---------------------------


def test_chacha_source_reads() -> None:
    from croupier.randomness import ChaChaSource
    from croupier.randomness.chacha import chacha_blocks

    key = bytes(range(32))
    stream = chacha_blocks(key, 0, 40)
    src = ChaChaSource(key)
    assert src.bits(4) == stream[0] >> 4  # small requests: bits of 8-byte words
    assert src.bits(100) == int.from_bytes(stream[8:21], "big") >> 4  # large: whole bytes
    assert src.bits_as_bytes(16) == stream[21:23]
    # a bulk read into an array starts at the next block not made yet (16 are made at a time)
    block = src.bits_as_array(8 * 100 + 3, pad=5)
    assert block[:100].tobytes() == stream[1024:1124] and block[100] == stream[1124] & 0xE0
    assert len(block) == 106 and not block[101:].any()
    assert src.bits_used == 4 + 100 + 16 + 803 and src.reproducible and src.kind == "chacha"
    assert not ChaChaSource().reproducible
    with pytest.raises(CroupierError, match="32 bytes"):
        ChaChaSource(b"short")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork is POSIX only")
def test_an_os_keyed_chacha_source_never_repeats_its_parent_in_a_forked_child() -> None:
    import pickle

    from croupier.randomness import ChaChaSource

    src = ChaChaSource()
    src.bits(8)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            os.close(read_end)
            with os.fdopen(write_end, "wb") as out:
                out.write(src.bits_as_bytes(256))
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        child = pipe.read()
    os.waitpid(pid, 0)
    assert len(child) == 32 and child != src.bits_as_bytes(256)
    copy = pickle.loads(pickle.dumps(src))
    assert copy.bits_as_bytes(256) != src.bits_as_bytes(256)
    keyed = ChaChaSource(bytes(32))
    assert pickle.loads(pickle.dumps(keyed)).bits(64) == ChaChaSource(bytes(32)).bits(64)


def test_large_default_shuffles_read_chacha_keyed_from_the_os() -> None:
    from croupier.randomness import ChaChaSource
    from croupier.shuffling.split import default_source

    assert isinstance(default_source(10**6), ChaChaSource)
    assert default_source(10).kind == "os-csprng"


@pytest.mark.parametrize(("n", "params"), [p for p in PATHS if p[1].levels], ids=str)
def test_fisher_yates_in_two_threads_is_exactly_uniform_bit_by_bit(
    n: int, params: SplitParams, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The compiled engine's Fisher-Yates in two threads (each over half of the leaves, from
    # where its first leaf begins), forced on a few items: every order exactly as likely.
    from croupier.shuffling import split_move

    monkeypatch.setattr(split_move, "PARALLEL_FROM", 2)

    def run(src: BitSource) -> tuple[int, ...]:
        return tuple(split_order(n, src, params=params, engine="compiled").tolist())

    done, unfinished = _walk_bits(run, 14)
    assert set(done) == set(permutations(range(n)))
    assert len(set(done.values())) == 1
    assert unfinished < Fraction(1, 4)


def test_fisher_yates_in_two_threads_gives_the_one_thread_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from croupier.shuffling import split_move

    for n in (3_000, 70_001, 300_000):
        rows = np.arange(2 * n).reshape(n, 2)
        monkeypatch.setattr(split_move, "PARALLEL_FROM", 10**12)
        one = croupier.shuffle(rows, seed=f"threads {n}")
        monkeypatch.setattr(split_move, "PARALLEL_FROM", 2)
        two = croupier.shuffle(rows, seed=f"threads {n}")
        assert (one == two).all() and sorted(two[:, 0].tolist()) == list(range(0, 2 * n, 2))


_TWO_THREAD_CASES = [
    (levels, form, width, beside)
    for levels in [(7,), (4, 3), (2,)]
    for form in ["copy", "in place", "permutation"]
    for width in ([1] if form == "permutation" else [1, 3])
    for beside in ([True, False] if len(levels) == 1 else [False])  # (one level only)
]


@pytest.mark.parametrize(("levels", "form", "width", "beside"), _TWO_THREAD_CASES, ids=str)
def test_every_pass_in_two_threads_gives_the_one_thread_arrangement(
    levels: tuple[int, ...], form: str, width: int, beside: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Both halves of the first level counted side by side, then moved side by side (or
    # the leaf draws made beside the move), both halves of the buckets sorted side by
    # side, Fisher-Yates in two halves of the leaves: the very arrangement and bits of
    # one thread.
    from croupier.shuffling.split_move import split_move

    monkeypatch.setattr("croupier.shuffling.split_move.BESIDE_BELOW", 10**12 if beside else 0)
    n = 50_003
    params = SplitParams(levels)
    results = []
    for parallel_from in (10**12, 2):
        monkeypatch.setattr("croupier.shuffling.split_move.PARALLEL_FROM", parallel_from)
        src = SeededSource(f"two threads {levels} {form}")
        rows = np.arange(n * width, dtype=np.uint64).reshape(n, width)
        out = np.zeros_like(rows)
        if form == "permutation":
            split_move(None, out, src, params, in_place=False)
        else:
            split_move(rows, out, src, params, in_place=form == "in place")
        results.append((rows if form == "in place" else out, src.bits_used))
    (one, one_bits), (two, two_bits) = results
    assert (one == two).all() and one_bits == two_bits
    assert sorted(two[:, 0].tolist()) == list(range(0, n * width, width))
    assert not (two[:, 0] == np.arange(0, n * width, width)).all()


@pytest.mark.parametrize("levels", [(4, 3), (2, 5), (6,)], ids=str)
@pytest.mark.parametrize("dtype", [np.int64, np.int32])
def test_a_permutation_made_without_an_input_is_the_shuffle_of_the_numbers(
    levels: tuple[int, ...], dtype: type[np.signedinteger[Any]]
) -> None:
    # A permutation's first level writes the numbers 0 .. n-1 as it moves them (one or two
    # levels): the very order, and bits, of shuffling an array of those numbers.
    from croupier.shuffling.split_move import split_move

    n = 20_011
    params = SplitParams(levels)
    made = np.zeros((n, 1), dtype)
    split_move(None, made, SeededSource("numbers"), params, in_place=False)
    rows = np.arange(n, dtype=dtype).reshape(n, 1)
    moved = np.zeros_like(rows)
    split_move(rows, moved, SeededSource("numbers"), params, in_place=False)
    assert (made == moved).all()
    assert sorted(made[:, 0].tolist()) == list(range(n)) and not (made[:, 0] == rows[:, 0]).all()


def test_reciprocals_divide_exactly() -> None:
    # x // r by a multiply and a shift, for every radix the compiled leaves use and the
    # dividends where a wrong multiplier would first show: around multiples of r and 2**60.
    from croupier.shuffling.split_move import RECIPROCAL_BITS, reciprocals

    magic, shift = reciprocals(1 << 12)
    top = 1 << RECIPROCAL_BITS
    rng = np.random.default_rng(7)
    for r in range(2, 1 << 12):
        m, s = int(magic[r]), int(shift[r])
        assert m < 1 << 64
        q_top = (top - 1) // r
        xs = {0, 1, r - 1, r, r + 1, top - 1, q_top * r, q_top * r - 1}
        xs |= {int(v) for v in rng.integers(0, top, 8, dtype=np.uint64)}
        for x in xs:
            assert ((x * m) >> 64) >> s == x // r, (x, r)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork is POSIX only")
def test_a_forked_child_shuffles_in_two_threads_with_its_own_helper() -> None:
    # A fork copies no threads: the child must make its own helper, not wait for the
    # parent's forever.
    import select
    import signal

    n = 200_000
    parent = croupier.shuffle(np.arange(n), seed="fork")  # the parent's helper exists now
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            child = croupier.shuffle(np.arange(n), seed="fork")
            os.write(write_end, b"same" if (child == parent).all() else b"different")
        finally:
            os._exit(0)
    os.close(write_end)
    ready, _, _ = select.select([read_end], [], [], 60)
    if not ready:
        os.kill(pid, signal.SIGKILL)
    answer = os.read(read_end, 16) if ready else b"hung"
    os.close(read_end)
    os.waitpid(pid, 0)
    assert answer == b"same"
