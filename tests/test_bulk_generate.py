"""croupier-bulk/1: exactness by exhaustive replay, the spec re-implemented, prefix stability."""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import pickle
from fractions import Fraction
from math import comb, factorial
from multiprocessing.connection import Connection

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

from croupier.bulk import BULK_ALGORITHM_ID, BulkDealer, BulkStream, DealArray, deal_array
from croupier.bulk.digits import accepted_digits, digit_plan, digit_width
from croupier.bulk.generate import _retry, retry_group
from croupier.bulk.stream import ROWS_PER_BLOCK
from croupier.bulk.unrank import Engine, unrank_digits
from croupier.dealing.deal import deal_from_number
from croupier.dealing.layout import make_layout
from croupier.errors import CroupierError
from croupier.randomness.seeded import SeededSource
from croupier.ranking.partitions import multinomial, subsets_unrank

from .conftest import VECTORS

ENGINES: list[Engine] = ["compiled", "python"]
"""The compiled core and the plain-Python specification: every test runs both."""


def test_the_compiled_core_is_built_and_numba_is_gone() -> None:
    from croupier._core import bulk_kernels

    assert bulk_kernels.LEVEL >= 1
    with pytest.raises(CroupierError, match="numpy engines are gone"):
        BulkDealer("bridge", seed="x", engine="numpy")  # type: ignore[arg-type]
    with pytest.raises(ImportError):
        import croupier.bulk._numba  # noqa: F401


# -- the spec, written again from docs/reproducibility.md, one deal at a time ----------


def spec_widths(c: int) -> int:
    if c == 1:
        return 0
    w = 1
    while 64 * (256**w % c) > 256**w:
        w += 1
    return w


def spec_deals(seed: str, sizes: tuple[int, ...], count: int) -> list[list[int]]:
    """Deals 0..count-1 of the seeded stream, by the written rule, in plain Python."""
    key = SeededSource(seed, purpose="croupier-bulk/1").bits(256).to_bytes(32, "big")
    left, ranges = sum(sizes), []
    for k in sizes:
        ranges.append(comb(left, k))
        left -= k
    widths = [spec_widths(c) for c in ranges]
    row = sum(widths)
    out: list[list[int]] = []
    block = -1
    main = retry = b""
    pos = 0
    for i in range(count):
        b, t = divmod(i, 4096)
        if b != block:
            block, pos = b, 0
            main = hashlib.shake_128(key + b"main" + b.to_bytes(8, "big")).digest(4096 * row)
            retry = hashlib.shake_128(key + b"retry" + b.to_bytes(8, "big")).digest(1 << 16)
        offset = t * row
        number = 0
        for c, w in zip(ranges, widths, strict=True):
            limit = 256**w - 256**w % c
            value = int.from_bytes(main[offset : offset + w], "big")
            offset += w
            while value >= limit:
                value = int.from_bytes(retry[pos : pos + w], "big")
                pos += w
            number = number * c + value % c
        out.append(subsets_unrank(number, sizes, "lex"))
    return out


@pytest.mark.parametrize(
    ("game", "players"),
    [("bridge", 4), ("euchre", 4), ("holdem", 6), ("pinochle", 3), ("war", 2), ("go-fish", 5)],
)
@pytest.mark.parametrize("engine", ENGINES)
def test_vectorised_deals_follow_the_written_rule(game: str, players: int, engine: Engine) -> None:
    layout = make_layout(game, players=players)
    count = 4096 + 300  # crosses a block boundary
    expected = spec_deals("spec check", layout.sizes, count)
    got = BulkDealer(layout, seed="spec check", engine=engine).deal(count)
    assert got.piles.tolist() == expected


def test_the_written_rule_meets_retries() -> None:
    # Deals whose digits were rejected at least once used more than the main bytes.
    layout = make_layout("bridge")
    dealt = BulkDealer(layout, seed="spec check").deal(4096)
    assert dealt.bits is not None
    assert int((dealt.bits > 120).sum()) > 5


# -- exactness: every possible input replayed through the vectorised code -----------


def _replay_counts(sizes: tuple[int, ...], engine: Engine, lead: range | None) -> np.ndarray:
    """How often each deal (owners as base-4 digits) comes out of the accepted inputs.

    The inputs are every byte string of the deal's length, or, with ``lead``,
    those whose first byte is in ``lead``.
    """
    plan = digit_plan(sizes)
    deck = sum(sizes)
    tail = plan.row_bytes - (lead is not None)
    values = np.arange(256**tail, dtype=np.uint32)
    rows = np.stack([(values >> (8 * (tail - 1 - j))) & 0xFF for j in range(tail)], axis=1)
    rows = rows.astype(np.uint8)
    if lead is not None:
        firsts = np.repeat(np.array(lead, np.uint8), rows.shape[0])[:, None]
        rows = np.concatenate([firsts, np.tile(rows, (len(lead), 1))], axis=1)
    digits, rejected = accepted_digits(rows, plan)
    ok = ~rejected.any(axis=1)
    owners = unrank_digits(np.ascontiguousarray(digits[:, ok]), sizes, engine)
    code = owners.astype(np.int64) @ (4 ** np.arange(deck, dtype=np.int64))
    return np.bincount(code, minlength=4**deck)


@pytest.mark.parametrize("engine", ENGINES)
def test_six_cards_into_two_two_two_every_input(engine: Engine) -> None:
    sizes = (2, 2, 2)
    counts = _replay_counts(sizes, engine, None)
    dealt = counts[counts > 0]
    assert dealt.size == multinomial(sizes) == 90
    assert (dealt == dealt[0]).all()
    # every accepted input is one deal: 255 first bytes and 252 second bytes are accepted
    assert int(dealt.sum()) == 255 * 252


def test_eight_cards_into_two_two_two_two_every_input() -> None:
    # 2**24 inputs: the compiled engine, which the python engine equals (tested above and below)
    sizes = (2, 2, 2, 2)
    assert digit_plan(sizes).row_bytes == 3
    total = np.zeros(4**8, np.int64)
    for first in range(0, 256, 32):
        total += _replay_counts(sizes, "compiled", range(first, first + 32))
    dealt = total[total > 0]
    assert dealt.size == multinomial(sizes) == 2520
    assert (dealt == dealt[0]).all()
    assert int(dealt.sum()) == 252 * 255 * 252  # accepted: 28*9, 15*17, 6*42 values


def test_rejected_digits_are_redrawn_uniformly_from_the_retry_stream() -> None:
    plan = digit_plan((2, 2, 2))  # digit 0 below 15 from one byte: 255 is rejected

    class Retry:
        def __init__(self, data: bytes) -> None:
            self.data = data

        def retry(self, block: int, length: int) -> bytes:
            return (self.data + bytes(length))[:length]

    seen = []
    for first in range(256):
        for second in (7, 255):
            stream = Retry(bytes([first, second, 3]))
            digits = np.zeros((3, 1), np.uint64)
            rejected = np.array([[True, False, False]])
            bits = np.zeros(1, np.uint32)
            _retry(stream, 0, plan, digits, rejected, bits)  # type: ignore[arg-type]
            tries = 1 if first < 255 else 2 if second < 255 else 3
            assert int(bits[0]) == 8 * tries
            expected = first if first < 255 else second if second < 255 else 3
            assert int(digits[0, 0]) == expected % 15
            if second == 7 and first < 255:
                seen.append(int(digits[0, 0]))
    assert np.bincount(seen, minlength=15).tolist() == [17] * 15


def test_digit_widths_reject_at_most_one_value_in_64() -> None:
    for c in [*range(1, 3000), comb(52, 13), comb(39, 13), comb(26, 13), 2**40 + 1]:
        w = digit_width(c)
        assert w == spec_widths(c)
        if c > 1:
            assert Fraction(256**w % c, 256**w) <= Fraction(1, 64)
            assert w == 1 or Fraction(256 ** (w - 1) % c, 256 ** (w - 1)) > Fraction(1, 64)


# -- statistics on the 52-card layout ------------------------------------------------


def test_bridge_deals_fit_the_exact_distributions() -> None:
    """Chi-square tests at a false-alarm rate of 1e-6 each, fixed seed (deterministic)."""
    n = 200_000
    deals = deal_array(n, "bridge", seed="chi-square check")
    # North's number of spades: hypergeometric, exact probabilities
    spades = deals.suit_lengths()[:, 0, 0]
    probs = [Fraction(comb(13, s) * comb(39, 13 - s), comb(52, 13)) for s in range(14)]
    observed = np.bincount(spades, minlength=14)
    expected = np.array([float(p) * n for p in probs])
    keep = expected >= 5
    rest = [observed[~keep].sum(), expected[~keep].sum()]
    stat = chisquare(np.append(observed[keep], rest[0]), np.append(expected[keep], rest[1]))
    assert stat.pvalue > 1e-6
    # who holds the ace and the king of spades: 16 cells, same hand with probability 12/51
    pair = deals.piles[:, 0].astype(np.int64) * 4 + deals.piles[:, 1]
    cells = np.bincount(pair, minlength=16)
    same, other = Fraction(12, 51) / 4, Fraction(39, 51) / 12
    expected_pair = [float(same if a == b else other) * n for a in range(4) for b in range(4)]
    assert chisquare(cells, expected_pair).pvalue > 1e-6
    # every card's holder, each of the 52 columns on its own
    for card in range(52):
        holders = np.bincount(deals.piles[:, card], minlength=4)
        assert chisquare(holders).pvalue > 1e-6 / 52


def test_bits_per_bridge_deal_are_close_to_the_bound() -> None:
    dealer = BulkDealer("bridge", seed="bits")
    dealer.deal(50_000)
    per_deal = dealer.bits_used / dealer.deals
    bound = np.log2(factorial(52) / factorial(13) ** 4)
    assert bound < 96 and 120 <= per_deal < 121 < 128


# -- reproducibility ----------------------------------------------------------------


def _golden() -> dict[str, list[str]]:
    data: dict[str, list[str]] = json.loads((VECTORS / "bulk.json").read_text())
    return data


def test_golden_vectors() -> None:
    golden = _golden()
    assert golden["algorithm"] == [BULK_ALGORITHM_ID]
    for name, rows in golden.items():
        if name == "algorithm":
            continue
        game, seed, start = name.split("|")
        if game.startswith("hands="):  # a custom layout (the former hold'em layout)
            layout = make_layout(hands=game.removeprefix("hands="))
        else:  # croupier-bulk/1: every pile a set
            layout = make_layout(game).without_stacks()
        got = BulkDealer(layout, seed=seed).rows(int(start), int(start) + len(rows))
        assert ["".join(map(str, r)) for r in got.piles.tolist()] == rows


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=3000), min_size=1, max_size=6))
def test_prefix_stability_under_any_batch_sizes(batches: list[int]) -> None:
    dealer = BulkDealer("bridge", seed="prefix")
    parts = [dealer.deal(k) for k in batches]
    whole = BulkDealer("bridge", seed="prefix").deal(sum(batches))
    assert DealArray.concatenate(parts) == whole
    assert (
        BulkDealer("bridge", seed="prefix", start=sum(batches[:1])).deal(sum(batches[1:]))
        == whole[batches[0] :]
    )


@pytest.mark.parametrize(("game", "players"), [("bridge", 4), ("skat", 3), ("holdem", 9)])
def test_engines_agree_on_many_deals(game: str, players: int) -> None:
    # seeded differential runs: the compiled core against the plain-Python rule, across
    # blocks, with the redraws of rejected digits
    layout = make_layout(game, players=players)
    a = BulkDealer(layout, seed="engines", engine="python").rows(4000, 9000)
    b = BulkDealer(layout, seed="engines", engine="compiled").rows(4000, 9000)
    assert a == b
    assert a.bits is not None and b.bits is not None and np.array_equal(a.bits, b.bits)
    assert np.array_equal(a.masks(), b.masks())


@pytest.mark.parametrize("engine", ENGINES)
def test_unranking_equals_the_deal_numbers(engine: Engine) -> None:
    rng = np.random.default_rng(5)
    for game, players in [("bridge", 4), ("skat", 3), ("omaha", 9), ("cribbage", 3)]:
        layout = make_layout(game, players=players)
        plan = digit_plan(layout.sizes)
        digits = np.stack(
            [
                np.array([int(rng.integers(0, min(c, 2**62))) for _ in range(200)], np.uint64)
                for c in plan.ranges
            ]
        )
        digits %= np.array(plan.ranges, np.uint64)[:, None]
        owners = unrank_digits(digits, layout.sizes, engine)
        for i in range(200):
            number = plan.number([int(d) for d in digits[:, i]])  # the piles' number
            whole = number * layout.arrangements  # with the stacks in deck order
            assert owners[i].tolist() == deal_from_number(layout, whole).owners()


def test_big_digits_take_the_exact_path() -> None:
    layout = make_layout(hands=[40, 40], deck="shoe:2")  # C(104, 40) needs more than 8 bytes
    plan = digit_plan(layout.sizes)
    assert not plan.machine_sized
    got = BulkDealer(layout, seed="wide").deal(5)
    assert got.piles.tolist() == spec_deals("wide", layout.sizes, 5)


_INHERITED: list[BulkStream] = []


def _child_bytes(conn: Connection) -> None:
    conn.send(_INHERITED[0].main(0, 32))


def _bytes_in_forked_child(stream: BulkStream) -> bytes:
    _INHERITED[:] = [stream]
    parent, child = multiprocessing.Pipe()
    process = multiprocessing.get_context("fork").Process(target=_child_bytes, args=(child,))
    process.start()
    data: bytes = parent.recv()
    process.join(timeout=30)
    return data


def test_os_streams_differ_and_are_rekeyed_after_fork() -> None:
    stream = BulkStream.from_os()
    assert stream.main(0, 32) != BulkStream.from_os().main(0, 32)
    assert _bytes_in_forked_child(stream) != stream.main(0, 32)
    seeded = BulkStream.seeded("same in every process")
    assert _bytes_in_forked_child(seeded) == seeded.main(0, 32)


def test_os_streams_get_a_fresh_key_when_pickled() -> None:
    stream = BulkStream.from_os()
    assert pickle.loads(pickle.dumps(stream)).main(0, 16) != stream.main(0, 16)
    seeded = BulkStream.seeded("kept")
    assert pickle.loads(pickle.dumps(seeded)).main(0, 16) == seeded.main(0, 16)


def test_bad_arguments() -> None:
    with pytest.raises(CroupierError, match="seed= or stream="):
        BulkDealer("bridge", seed="x", stream=BulkStream.seeded("y"))
    with pytest.raises(CroupierError, match="stop=1 is before start=2"):
        BulkDealer("bridge", seed="x").rows(2, 1)
    with pytest.raises(CroupierError, match="count=-1"):
        BulkDealer("bridge", seed="x").deal(-1)
    with pytest.raises(CroupierError, match="start="):
        BulkDealer("bridge", seed="x", start=-5)
    assert len(BulkDealer("bridge", seed="x").deal(0)) == 0


def test_rows_far_into_the_stream() -> None:
    dealer = BulkDealer("bridge", seed="far")
    far = dealer.rows(10**12, 10**12 + 3)
    block = 10**12 // ROWS_PER_BLOCK
    assert far == BulkDealer("bridge", seed="far").rows(10**12, 10**12 + 3)
    assert len(far) == 3 and block > 0


def test_threads_change_no_deal() -> None:
    one = BulkDealer("bridge", seed="threads", threads=1).deal(3 * 65536 + 17)
    dealer = BulkDealer("bridge", seed="threads", threads=2)
    two = DealArray.concatenate([dealer.deal(100), dealer.deal(3 * 65536 - 83)])
    assert one == two
    three = BulkDealer("bridge", seed="threads", threads=3).rows(50, 3 * 65536 + 17)
    assert three == one[50:]
    assert one.bits is not None and three.bits is not None
    assert np.array_equal(three.bits, one.bits[50:])
    assert np.array_equal(three.masks(), one.masks()[50:])
    with pytest.raises(CroupierError, match="threads=0"):
        BulkDealer("bridge", threads=0)


def test_long_calls_take_two_threads_by_default_and_deal_the_same() -> None:
    from croupier.bulk.generate import PARALLEL_FROM

    count = PARALLEL_FROM + 4096 + 5
    auto = BulkDealer("go-fish", seed="auto threads").deal(count)  # stacks too
    one = BulkDealer("go-fish", seed="auto threads", threads=1).deal(count)
    assert auto == one
    assert auto.bits is not None and one.bits is not None
    assert np.array_equal(auto.bits, one.bits)


def _deal_in_child(conn: Connection) -> None:
    conn.send(BulkDealer("bridge", seed="fork pool", threads=2).deal(3 * 65536).piles.tobytes())


def test_the_thread_pool_is_made_again_in_a_forked_child() -> None:
    BulkDealer("bridge", seed="fork pool", threads=2).deal(3 * 65536)  # the parent's pool
    parent, child = multiprocessing.Pipe()
    process = multiprocessing.get_context("fork").Process(target=_deal_in_child, args=(child,))
    process.start()
    assert parent.poll(60)  # a pool of the parent's (dead) threads would hang here
    data = parent.recv()
    process.join(timeout=30)
    expected = BulkDealer("bridge", seed="fork pool", threads=1).deal(3 * 65536)
    assert data == expected.piles.tobytes()


def test_one_array_is_bounded_before_any_work() -> None:
    with pytest.raises(CroupierError, match="exceed one array's 16 GiB; deal them in batches"):
        BulkDealer("bridge", seed="x").deal(10**9)


def test_the_compiled_engine_takes_digits_up_to_64_bits() -> None:
    layout = make_layout(hands=[15], deck="shoe:2")  # C(104, 15) is above 2**58 (numba's bound)
    compiled = BulkDealer(layout, seed="x", engine="compiled").deal(300)
    assert compiled == BulkDealer(layout, seed="x", engine="python").deal(300)
    assert compiled.piles.tolist()[:20] == spec_deals("x", layout.sizes, 20)


def test_engines_agree_on_a_deck_of_more_than_64_cards() -> None:
    layout = make_layout(hands=[5, 5, 5], deck="shoe:2")  # 104 cards: the wide kernel
    python = BulkDealer(layout, seed="wide decks", engine="python").deal(3000)
    compiled = BulkDealer(layout, seed="wide decks", engine="compiled").deal(3000)
    assert python == compiled
    assert python.piles.tolist()[:50] == spec_deals("wide decks", layout.sizes, 50)


def test_group_redraws_equal_the_one_by_one_rule() -> None:
    """The vectorised redraw of a group equals redrawing block by block, digit by digit."""
    plan = digit_plan((2, 2, 2))  # digit 0 rejects 255, digit 1 rejects 252..255

    class Retry:
        def retry(self, block: int, length: int) -> bytes:
            # block 5: always accepted (the vectorised path); block 7: often rejected again
            rng = np.random.default_rng(block)
            choices = [7, 200, 13] if block == 5 else [7, 200, 251, 252, 254, 255]
            return rng.choice(choices, size=length).astype(np.uint8).tobytes()

    rng = np.random.default_rng(3)
    n = 3 * ROWS_PER_BLOCK
    rejected = rng.random((n, 3)) < 0.02
    rejected[:, 2] = False
    rejected[ROWS_PER_BLOCK : 2 * ROWS_PER_BLOCK] = False  # a block with nothing to redraw
    expected_digits = np.zeros((3, n), np.uint64)
    expected_bits = np.zeros(n, np.uint32)
    for b in range(3):
        part = slice(b * ROWS_PER_BLOCK, (b + 1) * ROWS_PER_BLOCK)
        _retry(Retry(), 5 + b, plan, expected_digits[:, part], rejected[part], expected_bits[part])  # type: ignore[arg-type]
    digits = np.zeros((3, n), np.uint64)
    bits = np.zeros(n, np.uint32)
    retry_group(Retry(), 5, plan, digits, rejected, bits)  # type: ignore[arg-type]
    assert (digits == expected_digits).all() and (bits == expected_bits).all()
    redraws = 8 * rejected.sum(axis=1)
    first, last = slice(0, ROWS_PER_BLOCK), slice(2 * ROWS_PER_BLOCK, n)
    assert (expected_bits[first] == redraws[first]).all()  # block 5: each redraw accepted
    assert (expected_bits[last] > redraws[last]).any()  # block 7: some rejected again
