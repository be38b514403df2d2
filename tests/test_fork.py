"""Fork safety: an unseeded object used before ``os.fork()`` never repeats itself in the child.

Each case builds one object that holds randomness (a bulk dealer, a simulation,
a sampler, a deck, a source, a stream, a shuffle's chooser, ...) and a ``draw``
that uses it and returns what it dealt as bytes.  The object is used once in
the parent, the process forks, and parent and child draw again (the child
sends its bytes through a pipe).  Unseeded, the two must differ; seeded, they
must be equal: a seeded stream is reproducible, so parent and child continue
the same stream (docs/reproducibility.md).

Every unseeded draw below is at least 64 fresh random bits, and most are
hundreds (ten bridge deals are about 950 bits; one 52-card order 225.6), so a
chance coincidence of parent and child fails one of these tests with
probability at most ``2**-64``: negligible.
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Callable

import numpy as np
import pytest

import croupier
from croupier.bulk import BulkDealer, BulkStream, DealArray
from croupier.deck import Deck
from croupier.legacy.extshuffle_keys import KeyStream
from croupier.randomness import NumpySource, OsRandomSource, SeededSource, UniformSampler
from croupier.shuffling import lehmer_shuffle
from croupier.simulate import Predeal, RejectionSampler, Simulation, parse_script
from croupier.simulate.parse import parse_expression
from croupier.simulate.stacking import plan_stacking

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork is POSIX only")

Draw = Callable[[], bytes]


def _in_parent_and_child(draw: Draw) -> tuple[bytes, bytes]:
    """Fork; ``draw()`` in the child (its bytes come back through a pipe), then in the parent."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child, which never returns
        code = 1
        try:
            os.close(read_end)
            with os.fdopen(write_end, "wb") as out:
                out.write(draw())
            code = 0
        except BaseException:
            traceback.print_exc(file=sys.stderr)
        finally:
            os._exit(code)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        child = pipe.read()
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, "the child failed (traceback on stderr)"
    return draw(), child


def _deals(rows: DealArray) -> bytes:
    return bytes(rows.piles.tobytes())


def _bulk_dealer(seed: str | None) -> Draw:
    dealer = BulkDealer("bridge", seed=seed)
    return lambda: _deals(dealer.deal(10))


def _simulation(seed: str | None) -> Draw:
    sim = Simulation(parse_script("condition hcp(north) >= 10"), seed=seed)
    return lambda: _deals(sim.run(produce=10).deals)  # every run starts at row 0 of its stream


def _rejection_sampler(seed: str | None) -> Draw:
    stream = BulkStream.from_os() if seed is None else BulkStream.seeded(seed)
    sampler = RejectionSampler(Predeal.parse("N:AKQ.-.-.-"), stream)
    position = iter(range(0, 10**6, 10))
    return lambda: _deals(sampler.rows(start := next(position), start + 10))


def _stacking_sampler(seed: str | None) -> Draw:
    # West holds all the spades: only the other seats' cards are random (the "rest" dealer)
    stream = BulkStream.from_os() if seed is None else BulkStream.seeded(seed)
    sampler = plan_stacking(parse_expression("spades(west) == 13"), {}, {}, Predeal.none(), stream)
    assert sampler is not None
    position = iter(range(0, 10**6, 10))
    return lambda: _deals(sampler.rows(start := next(position), start + 10))


def _deck(seed: str | None) -> Draw:
    deck = Deck(seed=seed)

    def draw() -> bytes:
        deck.shuffle()
        return " ".join(map(str, deck)).encode()

    return draw


def _os_source(seed: str | None) -> Draw:
    source = OsRandomSource() if seed is None else SeededSource(seed)
    return lambda: source.bits(256).to_bytes(32, "big")


def _numpy_source(seed: str | None) -> Draw:
    source = NumpySource() if seed is None else NumpySource(int.from_bytes(seed.encode(), "big"))
    return lambda: source.bits(256).to_bytes(32, "big")


def _sampler(source: Callable[[], OsRandomSource | SeededSource | NumpySource]) -> Draw:
    # A 64-bit margin leaves 64 bits held after each draw; below(2**64) is then
    # answered from held bits alone: a child must not answer from the parent's.
    sampler = UniformSampler(source(), margin_bits=64)

    def draw() -> bytes:
        sampler.margin_bits = 0
        value = sampler.below(2**64)
        sampler.margin_bits = 64
        sampler.below(2)  # hold 64 bits again
        return value.to_bytes(8, "big")

    return draw


def _stream(seed: str | None) -> Draw:
    stream = BulkStream.from_os() if seed is None else BulkStream.seeded(seed)
    return lambda: stream.main(0, 32)


def _keyed_stream(seed: str | None) -> Draw:
    # a stream keyed by the caller, as the out-of-core shuffle keys its records
    key = os.urandom(32) if seed is None else BulkStream.seeded(seed).main(0, 32)
    stream = BulkStream(key, reproducible=seed is not None)
    return lambda: stream.main(0, 32)


def _derived_stream(seed: str | None) -> Draw:
    stream = BulkStream.from_os() if seed is None else BulkStream.seeded(seed)
    child = stream.derive("fork test")
    return lambda: child.main(0, 32)


def _record_keys(seed: str | None) -> Draw:
    keys = KeyStream.from_source(OsRandomSource() if seed is None else SeededSource(seed))
    return lambda: bytes(keys.take(8).tobytes())


def _shuffler(seed: str | None) -> Draw:
    sampler = UniformSampler(OsRandomSource() if seed is None else SeededSource(seed))
    return lambda: bytes(lehmer_shuffle(range(52), sampler))


def _api_shuffle(seed: str | None) -> Draw:
    source = croupier.source(seed=seed)
    return lambda: bytes(croupier.shuffle(range(52), source=source))


def _api_deals(seed: str | None) -> Draw:
    run = croupier.deals("bridge", 100, seed=seed)  # holds leftover randomness between deals
    return lambda: str(next(run)).encode()


def _api_deal(seed: str | None) -> Draw:
    # unseeded, deal() and sample() use the thread's kept OS source (bytes held)
    return lambda: f"{croupier.deal(seed=seed)} {croupier.sample(range(99), 3, seed=seed)}".encode()


def _api_array_shuffle(seed: str | None) -> Draw:
    # unseeded, an array of 4,096 items or more is shuffled from the thread's kept keystream
    items = np.arange(5000)
    return lambda: croupier.shuffle(items, seed=seed).tobytes()


CASES: dict[str, Callable[[str | None], Draw]] = {
    "bulk dealer": _bulk_dealer,
    "simulation": _simulation,
    "rejection sampler": _rejection_sampler,
    "stacking sampler": _stacking_sampler,
    "deck": _deck,
    "os source": _os_source,
    "numpy source": _numpy_source,
    "uniform sampler (os)": lambda seed: _sampler(
        OsRandomSource if seed is None else lambda: SeededSource(seed)
    ),
    "uniform sampler (numpy)": lambda seed: _sampler(
        NumpySource if seed is None else lambda: NumpySource(1234)
    ),
    "bulk stream": _stream,
    "keyed bulk stream": _keyed_stream,
    "derived bulk stream": _derived_stream,
    "record keys": _record_keys,
    "shuffler": _shuffler,
    "croupier.shuffle": _api_shuffle,
    "croupier.deals": _api_deals,
    "croupier.deal": _api_deal,
    "croupier.shuffle (array)": _api_array_shuffle,
}


@pytest.mark.parametrize("case", list(CASES))
def test_an_unseeded_object_never_repeats_its_parent_in_a_forked_child(case: str) -> None:
    draw = CASES[case](None)
    draw()  # used once before the fork: keys made, buffers and caches filled
    parent, child = _in_parent_and_child(draw)
    assert parent and child
    assert parent != child


@pytest.mark.parametrize("case", list(CASES))
def test_a_seeded_object_continues_the_same_stream_in_a_forked_child(case: str) -> None:
    draw = CASES[case]("fork test seed")
    draw()
    parent, child = _in_parent_and_child(draw)
    assert parent
    assert parent == child
