"""Threads and process-wide state: shared sources and samplers never reuse randomness.

Every test shares one object between many threads with a tiny thread switch
interval, and most make the step in the middle of a draw (reading the OS,
hashing the next block, asking the source) give way to other threads, so
that an unprotected read-modify-write of a source's buffer or a sampler's
held state is interleaved on every run, not once in a while.  They check
exact invariants, never timings.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import SupportsIndex, TypeVar

import pytest

from croupier.dealing.methods import deal_optimal, deal_round_robin
from croupier.errors import EntropyExhaustedError
from croupier.randomness import (
    EntropySource,
    NumpySource,
    OsRandomSource,
    SeededSource,
    UniformSampler,
)
from croupier.ranking.partitions import decimal, multinomial, parse_decimal

T = TypeVar("T")
THREADS = 8
PAUSE = 1e-5  # seconds: long enough that the other threads really run meanwhile


@pytest.fixture(autouse=True)
def fast_switching() -> Iterator[None]:
    """Switch threads as often as CPython allows, so races show up quickly."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def yielding(fn: Callable[..., T]) -> Callable[..., T]:
    """``fn``, letting other threads run before and after each call (a short sleep)."""

    def call(*args: object) -> T:
        time.sleep(PAUSE)
        try:
            return fn(*args)
        finally:
            time.sleep(PAUSE)

    return call


class SlowBytes(bytes):
    """Bytes whose length lets other threads run first (mid-draw for an OS source)."""

    def __len__(self) -> int:
        time.sleep(PAUSE)
        return super().__len__()


@pytest.fixture
def slow_os(monkeypatch: pytest.MonkeyPatch) -> None:
    """The OS CSPRNG's blocks make a source's draw give way to other threads midway."""
    real = os.urandom
    monkeypatch.setattr(os, "urandom", lambda n: SlowBytes(real(n)))


class SlowDigits(tuple[int, ...]):
    """Digits whose reading gives way to other threads (mid-draw for an entropy source)."""

    def __getitem__(self, i: SupportsIndex) -> int:  # type: ignore[override]
        time.sleep(PAUSE)
        return super().__getitem__(i)


def in_threads(work: Callable[[], list[T]], threads: int = THREADS) -> list[list[T]]:
    """Run ``work`` in ``threads`` threads started together; each thread's results."""
    start = threading.Barrier(threads)
    results: list[list[T]] = [[] for _ in range(threads)]
    errors: list[BaseException] = []

    def run(i: int) -> None:
        start.wait()
        try:
            results[i] = work()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    pool = [threading.Thread(target=run, args=(i,)) for i in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in pool), "a thread hung"
    assert not errors, errors
    return results


def test_a_shared_os_source_never_hands_out_the_same_bits_twice() -> None:
    source = OsRandomSource()
    draws = 20_000
    results = in_threads(lambda: [source.bits(63) for _ in range(draws)])
    values = [v for r in results for v in r]
    assert len(values) == THREADS * draws
    # 160,000 fresh 63-bit values collide with probability below 2**-25
    assert len(set(values)) == len(values)
    assert source.bits_used == THREADS * draws * 63  # every bit counted, none lost


@pytest.mark.usefixtures("slow_os")
@pytest.mark.parametrize("bits", [63, 64, 200])
def test_a_shared_os_source_never_hands_out_the_same_bytes_twice_even_midway(bits: int) -> None:
    source = OsRandomSource()
    draws = 300
    results = in_threads(lambda: [source.draw(bits)[0] for _ in range(draws)])
    values = [v for r in results for v in r]
    # 2,400 fresh values of 63 bits or more collide with probability below 2**-40
    assert len(set(values)) == len(values) == THREADS * draws
    assert source.bits_used == THREADS * draws * bits


@pytest.mark.parametrize("bits", [7, 64, 200])
def test_a_seeded_source_shared_by_threads_hands_out_the_single_thread_blocks(bits: int) -> None:
    shared = SeededSource("threads", purpose="test")
    shared.block = yielding(shared.block)  # type: ignore[method-assign]
    draws = 500
    results = in_threads(lambda: [shared.bits(bits) for _ in range(draws)])
    alone = SeededSource("threads", purpose="test")
    expected = [alone.bits(bits) for _ in range(THREADS * draws)]
    # every request takes the next `bits` bits of the stream: the same pieces, in some order
    assert Counter(v for r in results for v in r) == Counter(expected)
    assert shared.bits_used == alone.bits_used


def test_a_numpy_source_shared_by_threads_hands_out_the_single_thread_blocks() -> None:
    shared = NumpySource(2024)
    draws = 2_000
    results = in_threads(lambda: [shared.bits(40) for _ in range(draws)])
    alone = NumpySource(2024)
    expected = [alone.bits(40) for _ in range(THREADS * draws)]
    assert Counter(v for r in results for v in r) == Counter(expected)


def test_finite_entropy_shared_by_threads_hands_out_every_digit_exactly_once() -> None:
    size = 8_000
    source = EntropySource(list(range(size)), size)  # every digit different: reuse is visible
    source.digits = SlowDigits(source.digits)
    exhausted = []

    def drain() -> list[int]:
        got = []
        while True:
            try:
                got.append(source.draw(1)[0])
            except EntropyExhaustedError:
                exhausted.append(True)
                return got

    results = in_threads(drain)
    digits = [d for r in results for d in r]
    assert sorted(digits) == list(range(size))  # none twice, none lost
    assert len(exhausted) == THREADS and source.remaining == 0


def test_a_seeded_sampler_shared_by_threads_deals_the_single_thread_deals() -> None:
    sizes = (13, 13, 13, 13)
    deals = 150
    shared_source = SeededSource("deal in threads")
    shared_source.draw = yielding(shared_source.draw)  # type: ignore[method-assign]
    shared = UniformSampler(shared_source, margin_bits=32)
    results = in_threads(lambda: [deal_optimal(sizes, shared)[1] for _ in range(deals)])
    alone = UniformSampler(SeededSource("deal in threads"), margin_bits=32)
    expected = [deal_optimal(sizes, alone)[1] for _ in range(THREADS * deals)]
    numbers = [n for r in results for n in r]
    # each deal is one draw below the same M, so the sampler's chain of states is the
    # same whatever the interleaving: the same deals, and the same bits counted
    assert Counter(numbers) == Counter(expected)
    assert len(set(numbers)) == len(numbers)
    assert shared.bits_used == alone.bits_used
    assert shared.leftover_bits == alone.leftover_bits


@pytest.mark.usefixtures("slow_os")
def test_a_shared_os_sampler_never_deals_the_same_deal_twice() -> None:
    sizes = (13, 13, 13, 13)
    sampler = UniformSampler(OsRandomSource(), margin_bits=32)
    numbers = in_threads(lambda: [deal_optimal(sizes, sampler)[1] for _ in range(150)])
    flat = [n for r in numbers for n in r]
    assert len(set(flat)) == len(flat)  # 1,200 of ~2^95.4 deals: a repeat means reuse
    assert all(n is not None and 0 <= n < multinomial(sizes) for n in flat)


@pytest.mark.usefixtures("slow_os")
def test_a_shared_sampler_dealing_card_by_card_gives_no_duplicate_deals() -> None:
    sizes = (13, 13, 13, 13)
    sampler = UniformSampler(OsRandomSource())
    results = in_threads(lambda: [tuple(deal_round_robin(sizes, sampler)[0]) for _ in range(30)])
    flat = [d for r in results for d in r]
    assert len(set(flat)) == len(flat)
    assert all(sorted(Counter(d).values()) == [13] * 4 for d in flat)


def test_a_shared_sampler_over_small_ranges_counts_every_bit() -> None:
    # many tiny draws: the held state (v, m) changes on every call
    shared_source = SeededSource("small draws")
    shared_source.draw = yielding(shared_source.draw)  # type: ignore[method-assign]
    shared = UniformSampler(shared_source, margin_bits=16)
    results = in_threads(lambda: [shared.below(6) for _ in range(300)])
    alone = UniformSampler(SeededSource("small draws"), margin_bits=16)
    expected = [alone.below(6) for _ in range(THREADS * 300)]
    assert Counter(v for r in results for v in r) == Counter(expected)
    assert shared.bits_used == alone.bits_used


@pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork is POSIX only")
def test_a_fork_while_a_lock_is_held_does_not_hang_the_child() -> None:
    # A lock held (by another thread) at the moment of a fork stays held in the child;
    # sources and samplers replace their locks there.  Here the forking thread holds
    # them itself, which is the same state for the child.
    source = OsRandomSource()
    seeded = SeededSource("fork lock")
    sampler = UniformSampler(source, margin_bits=32)
    entropy = EntropySource.parse("dice:1,2,3")
    locks = [source._lock, seeded._lock, sampler._lock, entropy._lock]
    for lock in locks:
        lock.acquire()
    try:
        pid = os.fork()
        if pid == 0:  # pragma: no cover - runs in the child
            try:
                ok = (
                    0 <= source.bits(8) < 256
                    and 0 <= seeded.bits(8) < 256
                    and 0 <= sampler.below(52) < 52
                    and entropy.draw(1) == (0, 6)
                )
            finally:
                os._exit(0 if ok else 1)
    finally:
        for lock in locks:
            lock.release()
    for _ in range(200):  # up to 10 s
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        threading.Event().wait(0.05)
    else:  # pragma: no cover - the regression: the child hangs on a copied lock
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        pytest.fail("the forked child hung on a lock held at the fork")
    assert os.waitstatus_to_exitcode(status) == 0


def test_huge_deal_numbers_never_lift_the_int_string_guard_for_other_threads() -> None:
    limit = sys.get_int_max_str_digits()
    assert limit != 0  # the guard is on (4,300 digits by default)
    huge = 7**12_000  # 10,142 digits, far beyond the guard
    text = decimal(huge)
    stop = threading.Event()
    breaches: list[str] = []

    def guard_checker() -> None:
        while not stop.is_set():
            if sys.get_int_max_str_digits() != limit:
                breaches.append("limit changed")
            try:
                int("7" * 5000)
            except ValueError:
                continue
            breaches.append("int('7' * 5000) succeeded")

    def converter() -> None:
        for _ in range(30):
            assert parse_decimal(decimal(huge)) == huge
            assert decimal(parse_decimal(text)) == text

    checkers = [threading.Thread(target=guard_checker) for _ in range(2)]
    workers = [threading.Thread(target=converter) for _ in range(3)]
    for t in checkers + workers:
        t.start()
    for t in workers:
        t.join(timeout=120)
    stop.set()
    for t in checkers:
        t.join(timeout=30)
    assert not breaches
    assert sys.get_int_max_str_digits() == limit
