"""The file shuffle croupier-keyed-split/1 and the one-pass sample croupier-reservoir/1.

Exactness by enumeration on every path (in memory, through buckets, buckets
scattered again, leaves copied one record at a time), a plain implementation
from docs/scale.md, golden vectors, statistics on bigger files, bits, and
shuf's habits on the command line.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import json
import math
import subprocess
import sys
import tempfile
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.errors import CroupierError, FileFormatError
from croupier.randomness import SeededSource, exact_distribution
from croupier.randomness.source import BitSource
from croupier.randomness.walk import exact_distribution_bits
from croupier.scale import file_sample as fsample
from croupier.scale.file_sample import ChooserDecisions, ReservoirStreams, sample_stream
from croupier.scale.file_shuffle import shuffle_file_records, shuffle_stream
from croupier.scale.keyed_split import (
    KeyedParams,
    KeyedStreams,
    SourceDraws,
    key_bits,
    keyed_order,
    leaf_tables_for,
)
from croupier.scale.records import RecordFormat, gather
from croupier.shuffling.split import accept_limit, chunk_plan, draw_width
from tests.conftest import VECTORS, CliRunner

VECTOR_DOC = json.loads((VECTORS / "shuffle_file_v1.json").read_text(encoding="utf-8"))


def make_input(kind: str, n: int) -> bytes:
    """The inputs of the golden vectors (also written out in the vector file's note)."""
    if kind == "lines":
        return b"".join(b"%d %s\n" % (i, b"xy" * (i % 5)) for i in range(n))
    if kind == "crlf-open":
        return b"".join(b"%d\r\n" % i for i in range(n - 1)) + b"%d" % (n - 1)
    if kind == "records":
        return b"".join(i.to_bytes(4, "big") + b"rec!" for i in range(n))
    if kind == "nul":
        return b"".join(b"name %d\0" % i for i in range(n))
    if kind == "bom":
        return b"\xef\xbb\xbf" + b"".join(b"row %d\n" % i for i in range(n))
    raise ValueError(kind)


# -- a plain implementation, written from docs/scale.md -----------------------------------------


class _Bits:
    """The bits of an extendable output function, read in turn."""

    def __init__(self, prefix: bytes) -> None:
        self.prefix = prefix
        self.pos = 0

    def take(self, k: int) -> int:
        need = (self.pos + k + 7) // 8
        data = hashlib.shake_128(self.prefix).digest(need)
        value = int.from_bytes(data, "big") >> (8 * need - self.pos - k)
        self.pos += k
        return value & ((1 << k) - 1)


def spec_order(n: int, key: bytes) -> list[int]:
    """croupier-keyed-split/1 from the page: the input position at each output position."""
    k = max(0, (n // 512).bit_length() - 1)
    blocks: dict[int, int] = {}
    leaves: dict[int, list[int]] = {}
    for i in range(n):
        b, r = divmod(i, 65536)
        if k and b not in blocks:
            label = key + b"croupier-keyed-split/1 keys" + b.to_bytes(8, "big")
            blocks[b] = int.from_bytes(hashlib.shake_128(label).digest(8192 * k), "big")
        j = (blocks[b] >> (65536 * k - (r + 1) * k)) & ((1 << k) - 1) if k else 0
        leaves.setdefault(j, []).append(i)
    out: list[int] = []
    for j in sorted(leaves):
        leaf = leaves[j]
        bits = _Bits(key + b"croupier-keyed-split/1 leaf" + j.to_bytes(8, "big"))
        chunks: list[list[int]] = []
        for r in range(len(leaf), 1, -1):  # radices m, m-1, ..., 2, greedily into chunks
            if chunks and math.prod(chunks[-1]) * r <= 2**60:
                chunks[-1].append(r)
            else:
                chunks.append([r])
        values = [0] * len(chunks)
        waiting = list(range(len(chunks)))
        while waiting:  # first attempts in order, then rounds of redraws
            again = []
            for c in waiting:
                size = math.prod(chunks[c])
                width = (size - 1).bit_length() + 4
                v = bits.take(width)
                if v < 2**width - 2**width % size:
                    values[c] = v % size
                else:
                    again.append(c)
            waiting = again
        for radices, value in zip(chunks, values, strict=True):
            for r in radices:  # Fisher–Yates: position r - 1 swaps with a digit below r
                value, d = divmod(value, r)
                leaf[r - 1], leaf[d] = leaf[d], leaf[r - 1]
        out += leaf
    return out


def spec_file(data: bytes, seed: str, sep: bytes = b"\n") -> bytes:
    """The whole file rule: records, the byte-order mark, a last record without its ending."""
    bom = b""
    if sep == b"\n" and data.startswith(b"\xef\xbb\xbf"):
        bom, data = data[:3], data[3:]
    pieces = data.split(sep)
    records = [p + sep for p in pieces[:-1]]
    open_end = pieces[-1] != b""
    if open_end:
        before = records[-1] if records else b""
        records.append(pieces[-1] + (b"\r\n" if sep == b"\n" and before.endswith(b"\r\n") else sep))
    key = SeededSource(seed, "shuffle-file").bits(256).to_bytes(32, "big")
    out = bom + b"".join(records[i] for i in spec_order(len(records), key))
    if open_end:
        out = out.removesuffix(sep)
        if sep == b"\n":
            out = out.removesuffix(b"\r")
    return out


@pytest.mark.parametrize("n", [0, 1, 2, 5, 1000, 1023, 1024, 3000, 70_000])
def test_the_plain_implementation_gives_the_library_order(n: int) -> None:
    key = hashlib.sha256(b"spec %d" % n).digest()
    streams = KeyedStreams(key)
    k = key_bits(n)
    order, _ = keyed_order(streams.keys(0, n, k), k, streams)
    assert order.tolist() == spec_order(n, key)


@pytest.mark.parametrize(
    "data",
    [b"a\r\nb\r\nc", b"one\ntwo\nthree\n", b"\xef\xbb\xbfx\ny\nz", b"\n\n\n", b"", b"solo"],
)
def test_the_plain_file_rule_gives_the_library_bytes(data: bytes) -> None:
    out = io.BytesIO()
    shuffle_stream(io.BytesIO(data), out.write, source=SeededSource("rule", "shuffle-file"))
    assert out.getvalue() == spec_file(data, "rule")
    assert len(out.getvalue()) == len(data)


def test_the_plain_implementation_covers_redraws_and_many_leaves() -> None:
    # 3,000 items under many keys: some leaf draw is rejected and drawn again.
    key = bytes(range(32))
    streams = KeyedStreams(key)
    k = key_bits(3000)
    keys = streams.keys(0, 3000, k)
    tables = leaf_tables_for(np.bincount(keys.astype(np.int64)).astype(np.int64), KeyedParams())
    sizes = np.bincount(keys.astype(np.int64)).astype(np.int64)
    _, bits = streams.leaf_values(np.arange(sizes.size, dtype=np.uint64), sizes, tables)
    assert bits > int(tables.leaf_bits[sizes].sum())  # redraws happened
    assert keyed_order(keys, k, streams)[0].tolist() == spec_order(3000, key)


def test_the_fast_leaf_tables_are_the_split_shuffles() -> None:
    # The tables, gathered from each size's first chunk, against the chunks the split
    # shuffle's plan gives every leaf size (chunk_plan, draw_width, accept_limit).
    for sizes, params in [
        (np.array([0, 1, 2, 3, 40, 865, 5000]), KeyedParams()),
        (np.array([1, 2, 3, 4, 7]), KeyedParams(chunk_bits=2, margin_bits=0)),
        (np.array([5, 300]), KeyedParams(chunk_bits=3, margin_bits=1)),
    ]:
        fast = leaf_tables_for(sizes, params)
        for m in sizes.tolist():
            plan = chunk_plan(m, params.chunk_bits)
            widths = [draw_width(r, params.margin_bits) for r, _, _ in plan]
            assert fast.count[m] == len(plan) and fast.leaf_bits[m] == sum(widths)
            a = slice(int(fast.first[m]), int(fast.first[m] + fast.count[m]))
            assert fast.ranges[a].tolist() == [r for r, _, _ in plan]
            assert fast.widths[a].tolist() == widths
            assert fast.highest[a].tolist() == [
                accept_limit(r, w) - 1 for (r, _, _), w in zip(plan, widths, strict=True)
            ]
            assert fast.top[a].tolist() == [top for _, top, _ in plan]
            assert fast.bottom[a].tolist() == [bottom for _, _, bottom in plan]


# -- exactly uniform on every path, by enumeration ----------------------------------------------

# memory: None in memory; 200 buckets in memory; 100 buckets scattered again; 30 a leaf
# copied record by record (the records are 3 bytes; 72 bytes are counted per record).
PATHS = [(None, "in memory"), (200, "buckets"), (100, "scattered again"), (30, "big leaves")]


def _shuffle(data: bytes, draws: Any, memory: int | None, params: KeyedParams) -> Any:
    out = io.BytesIO()
    with tempfile.TemporaryDirectory() as root:
        report = shuffle_stream(
            io.BytesIO(data), out.write, draws=draws, memory=memory or 2**20, size=len(data),
            params=params, workspace=lambda: tempfile.mkdtemp(dir=root),
        )  # fmt: skip
    return out.getvalue(), report


ENUMERATED = [
    (memory, path, n, k)
    for memory, path in PATHS
    for n, k in [(3, 0), (3, 1), (3, 2), (4, 1), (4, 2)]
    if memory is None or (n, k) != (4, 2)  # (4, 2) out of core: 840 runs with files, slow
]


@pytest.mark.parametrize(("memory", "path", "n", "k"), ENUMERATED, ids=str)
def test_every_path_gives_every_order_exactly_one_over_n_factorial(
    memory: int | None, path: str, n: int, k: int
) -> None:
    records = [b"r%d\n" % i for i in range(n)]
    data = b"".join(records)
    params = KeyedParams(key_bits=k)
    seen = []

    def run(chooser: Any) -> bytes:
        out, report = _shuffle(data, SourceDraws(chooser), memory, params)
        seen.append(report)
        return out  # type: ignore[no-any-return]

    dist = exact_distribution(run, max_leaves=100_000)
    assert set(dist) == {b"".join(p) for p in itertools.permutations(records)}
    assert set(dist.values()) == {Fraction(1, math.factorial(n))}
    # the walk went down the path named (for some of the key assignments)
    if path == "in memory":
        assert all(r.buckets == 0 for r in seen)
    elif path == "buckets" and k:
        assert any(r.buckets and not r.resplit_buckets and not r.big_leaves for r in seen)
    elif path == "scattered again" and k == 2:
        assert any(r.resplit_buckets for r in seen)
    elif path == "big leaves":
        assert any(r.big_leaves for r in seen)


@pytest.mark.parametrize(
    "params",
    [KeyedParams(1, 60, 0), KeyedParams(1, 2, 0), KeyedParams(0, 1, 1), KeyedParams(2, 60, 1)],
    ids=str,
)
def test_bit_by_bit_with_redraws_and_chunks(params: KeyedParams) -> None:
    # Every bit string the algorithm reads, to 13 bits: keys, leaf draws of several chunks,
    # redraws (margins of 0 and 1 reject often).  The unfinished runs are still redrawing.
    def run(src: BitSource) -> tuple[int, ...]:
        draws = SourceDraws(src, margin_bits=params.margin_bits)
        k = params.resolve(3)
        return tuple(keyed_order(draws.keys(0, 3, k), k, draws, params)[0].tolist())

    done, unfinished = exact_distribution_bits(run, 13)
    assert set(done) == set(itertools.permutations(range(3)))
    assert len({p for p, _ in done.values()}) == 1
    assert unfinished < Fraction(1, 3)


def test_a_biased_leaf_draw_is_caught() -> None:
    # The same enumeration fails for an arrangement that reduces a draw modulo its range.
    class Biased(SourceDraws):
        def leaf_values(self, leaves: Any, sizes: Any, tables: Any) -> Any:
            return np.array([self.source.below(8) % 6], np.uint64), 0  # type: ignore[union-attr]

    dist = exact_distribution(
        lambda c: tuple(keyed_order(np.zeros(3, np.uint64), 0, Biased(c))[0].tolist())
    )
    assert len(set(dist.values())) > 1


# -- the memory limit never changes the output -------------------------------------------------


@pytest.mark.parametrize(
    ("fmt", "data"),
    [
        (RecordFormat(), b"".join(b"line %d %s\n" % (i, b"x" * (i % 37)) for i in range(5000))),
        (RecordFormat(), b"\xef\xbb\xbf" + b"".join(b"%d\r\n" % i for i in range(3000)) + b"end"),
        (RecordFormat(0), b"".join(b"f%d\0" % i for i in range(4000)) + b"last"),
        (RecordFormat(None, 7), bytes(range(256)) * 7 * 20),
    ],
    ids=["lines", "bom-crlf-open", "nul-open", "records"],
)
def test_output_does_not_depend_on_memory(fmt: RecordFormat, data: bytes) -> None:
    def run(memory: int, stream: bool = False) -> bytes:
        out = io.BytesIO()
        with tempfile.TemporaryDirectory() as root:
            shuffle_stream(
                io.BytesIO(data), out.write, source=SeededSource("same", "shuffle-file"),
                memory=memory, size=None if stream else len(data), fmt=fmt,
                workspace=lambda: tempfile.mkdtemp(dir=root),
            )  # fmt: skip
        return out.getvalue()

    reference = run(2**26)
    assert reference != data and len(reference) == len(data)
    for memory in (2**26, 200_000, 40_000, 5_000, 600):
        assert run(memory) == reference, memory
        assert run(memory, stream=True) == reference, memory  # standard input, spooled
    if fmt.lines:
        assert reference == spec_file(data, "same")


_PIECES = st.lists(st.sampled_from([b"a", b"b", b"\n", b"\r", b"\r\n", b"\0", b"\xff", b"\xef"]))


@given(pieces=_PIECES, memory=st.sampled_from([2**20, 300, 64]), zero=st.booleans())
def test_records_are_kept_byte_for_byte(pieces: list[bytes], memory: int, zero: bool) -> None:
    data = b"".join(pieces)
    sep = b"\0" if zero else b"\n"
    out = io.BytesIO()
    with tempfile.TemporaryDirectory() as root:
        shuffle_stream(
            io.BytesIO(data), out.write, source=SeededSource("hyp", "shuffle-file"),
            memory=memory, size=len(data), fmt=RecordFormat(sep[0]),
            workspace=lambda: tempfile.mkdtemp(dir=root),
        )  # fmt: skip
    assert out.getvalue() == spec_file(data, "hyp", sep)


def test_gather_moves_records_of_every_length() -> None:
    rng = np.random.default_rng(3)
    lengths = rng.integers(1, 300, 5000)
    lengths[::97] = 2_000_000 // 97  # a few long ones
    data = rng.integers(0, 256, int(lengths.sum()), dtype=np.uint8)
    starts = np.cumsum(lengths) - lengths
    order = rng.permutation(lengths.size)
    want = b"".join(
        data[s : s + n].tobytes() for s, n in zip(starts[order], lengths[order], strict=True)
    )
    assert gather(data, starts[order], lengths[order]).tobytes() == want
    few = order[:40]  # varied lengths, few of each: joined slices
    want = b"".join(
        data[s : s + n].tobytes() for s, n in zip(starts[few], lengths[few], strict=True)
    )
    assert gather(data, starts[few], lengths[few]).tobytes() == want


def _joined(data: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> bytes:
    return b"".join(data[s : s + n].tobytes() for s, n in zip(starts, lengths, strict=True))


@pytest.mark.parametrize(
    "shape",
    ["lines", "few long", "many long", "tiny data", "one", "wide mean", "same length"],
)
def test_gather_kernel_matches_the_joined_slices(shape: str) -> None:
    # The compiled gather against its plain specification (slices joined) and against
    # bytes sliced here: every record once, in order, 32- and 64-bit places, with and
    # without an order, and a given total.
    from croupier.scale.records import gather_reference

    rng = np.random.default_rng(len(shape) * 7)
    n = {"tiny data": 3, "one": 1}.get(shape, 3000)
    lengths = rng.integers(1, 122, n)
    if shape == "few long":
        lengths[rng.choice(n, 9, replace=False)] = rng.integers(300, 5000, 9)
    if shape == "many long":
        lengths[::3] = rng.integers(200, 400, lengths[::3].size)
    if shape == "wide mean":
        lengths = rng.integers(200, 700, n)
    if shape == "same length":
        lengths[:] = 37
    data = rng.integers(0, 256, int(lengths.sum()), dtype=np.uint8)
    starts = np.cumsum(lengths) - lengths
    for order in (rng.permutation(n), np.arange(n)[::-1], np.arange(n)):
        want = _joined(data, starts[order], lengths[order])
        assert gather(data, starts[order], lengths[order]).tobytes() == want
        assert gather(data, starts, lengths, order).tobytes() == want
        narrow = gather(data, starts.astype(np.int32), lengths.astype(np.uint32), order)
        assert narrow.tobytes() == want
        given = gather(data, starts, lengths, order, total=len(want))
        assert given.tobytes() == want
        assert gather_reference(data, starts, lengths, order).tobytes() == want
        assert gather(data, starts, lengths, order, engine="python").tobytes() == want
        # records end to end: their bounds (the starts and the last end), in one or two threads
        for place in (np.int32, np.int64):
            bounds = np.append(starts, starts[-1] + lengths[-1]).astype(place)
            for threads in (1, 2):
                got = gather(data, starts, lengths, order, bounds=bounds, threads=threads)
                assert got.tobytes() == want
    assert gather(data, starts, lengths, np.zeros(0, np.int64)).size == 0


def test_gather_kernel_refuses_places_outside_its_buffers() -> None:
    from croupier._core import record_kernels

    data = np.frombuffer(b"abcdef", np.uint8)
    starts = np.array([0, 2, 4], np.int64)
    lengths = np.array([2, 2, 2], np.uint32)
    out = np.zeros(6, np.uint8)
    assert record_kernels.gather(data, starts, lengths, np.array([2, 0]), 0, 2, out) == 4
    assert out[:4].tobytes() == b"efab"
    with pytest.raises(ValueError, match="outside the data"):  # no record 3
        record_kernels.gather(data, starts, lengths, np.array([3]), 0, 1, out)
    with pytest.raises(ValueError, match="outside the data"):  # a record past the data
        record_kernels.gather(data, np.array([0, 2, 5]), lengths, np.array([2]), 0, 1, out)
    with pytest.raises(ValueError, match="do not fit"):
        record_kernels.gather(data, starts, lengths, np.array([0, 1]), 0, 2, out[:3])
    with pytest.raises(ValueError, match="a <= b"):
        record_kernels.gather(data, starts, lengths, np.array([0]), 0, 2, out)
    # the same checks for records end to end (their bounds)
    bounds = np.array([0, 2, 4, 6], np.int64)
    assert record_kernels.gather_bounds(data, bounds, np.array([1, 2]), 0, 2, out) == 4
    assert out[:4].tobytes() == b"cdef"
    with pytest.raises(ValueError, match="outside the data"):  # no record 3
        record_kernels.gather_bounds(data, bounds, np.array([3]), 0, 1, out)
    with pytest.raises(ValueError, match="outside the data"):  # an end past the data
        record_kernels.gather_bounds(data, np.array([0, 2, 7]), np.array([1]), 0, 1, out)
    with pytest.raises(ValueError, match="outside the data"):  # bounds going back
        record_kernels.gather_bounds(data, np.array([0, 4, 2]), np.array([1]), 0, 1, out)
    with pytest.raises(ValueError, match="do not fit"):
        record_kernels.gather_bounds(data, bounds, np.array([0, 1]), 0, 2, out[:3])
    with pytest.raises(ValueError, match="bounds"):
        gather(data, starts, lengths, np.array([0]), bounds=bounds[:3])


@given(
    lengths=st.lists(st.integers(1, 40), min_size=1, max_size=80),
    slice_bytes=st.integers(1, 100),
    long_record=st.integers(1, 50),
)
def test_output_slices_cover_the_order_and_keep_long_records_alone(
    lengths: list[int], slice_bytes: int, long_record: int
) -> None:
    from croupier._core import record_kernels

    sizes = np.array(lengths, np.uint32)
    order = np.random.default_rng(len(lengths)).permutation(sizes.size).astype(np.int64)
    ends, nbytes = np.zeros(sizes.size, np.int64), np.zeros(sizes.size, np.int64)
    made = record_kernels.cut_slices(sizes, order, 0, order.size, slice_bytes, long_record,
                                     ends, nbytes)  # fmt: skip
    bounds = [0, *ends[:made].tolist()]
    assert bounds[-1] == order.size and all(a < b for a, b in itertools.pairwise(bounds))
    for (a, b), size in zip(itertools.pairwise(bounds), nbytes[:made].tolist(), strict=True):
        held = [lengths[i] for i in order[a:b].tolist()]
        assert size == sum(held)
        if any(h >= long_record for h in held):
            assert len(held) == 1  # a long record is a slice alone
        elif b != order.size and lengths[int(order[b])] < long_record:
            assert size >= slice_bytes  # cut only once full (or before a long record)
            assert size - held[-1] < slice_bytes  # and at the first record that fills it


def test_positions_are_uniform_through_buckets() -> None:
    n = 100_000
    data = b"".join(b"%d\n" % i for i in range(n))
    out = io.BytesIO()
    with tempfile.TemporaryDirectory() as root:
        report = shuffle_stream(
            io.BytesIO(data), out.write, source=SeededSource("chi-square", "shuffle-file"),
            memory=100_000, size=len(data), workspace=lambda: tempfile.mkdtemp(dir=root),
        )  # fmt: skip
    assert report.buckets >= 4
    order = np.array([int(x) for x in out.getvalue().split()], np.int64)
    assert sorted(order.tolist()) == list(range(n))
    # Decile of input position against decile of output position: 100 cells of 1,000
    # expected.  Threshold: the 99.9% quantile of chi-square with 81 degrees of freedom
    # (126.1), a 0.1% false-alarm rate for this fixed seed.
    table = np.zeros((10, 10), np.int64)
    np.add.at(table, (order * 10 // n, np.arange(n) * 10 // n), 1)
    assert float(((table - 1000) ** 2 / 1000).sum()) < 126.1


@pytest.mark.parametrize("n", [2, 3, 10, 100, 1000, 5000, 100_000, 1_000_000])
def test_bits_stay_within_log2_n_factorial_plus_2n(n: int) -> None:
    streams = KeyedStreams(hashlib.sha256(b"bits %d" % n).digest())
    k = key_bits(n)
    _, leaf_bits = keyed_order(streams.keys(0, n, k), k, streams)
    used = n * k + leaf_bits
    bound = math.lgamma(n + 1) / math.log(2)
    assert bound < used <= bound + 2 * n
    if n >= 100_000:  # about 0.9 bits per item above the minimum
        assert used <= bound + 1.0 * n


# -- golden vectors -------------------------------------------------------------------------------


def _cli_bytes(args: list[str], folder: Path, stdin: bytes | None = None) -> bytes:
    done = subprocess.run(
        [sys.executable, "-m", "croupier", *args], cwd=folder, input=stdin,
        capture_output=True, check=True,
    )  # fmt: skip
    return done.stdout


@pytest.mark.parametrize(
    "case", VECTOR_DOC["cases"], ids=lambda c: f"{c['input']}-{c['n']} " + " ".join(c["args"][3:])
)
def test_golden_vectors(case: dict[str, Any], tmp_path: Path) -> None:
    data = make_input(case["input"], case["n"])
    (tmp_path / "in.bin").write_bytes(data)
    args = list(case["args"])
    stdin = data if case.get("stdin") else None
    got = _cli_bytes(args, tmp_path, stdin)
    if "--out" in args:
        got = (tmp_path / args[args.index("--out") + 1]).read_bytes()
    assert hashlib.sha256(got).hexdigest() == case["sha256"]
    assert got[:40].decode("latin-1") == case["head"]
    if case["algorithm"] == "croupier-keyed-split/1" and "--records" not in args:
        sep = b"\0" if "-z" in args else b"\n"
        assert got == spec_file(data, args[args.index("--seed") + 1], sep)


# -- the one-pass sample: croupier-reservoir/1 ---------------------------------------------------


@pytest.mark.parametrize(("n", "k"), [(4, 2), (5, 2), (4, 4), (3, 5), (5, 1), (4, 0)])
def test_every_ordered_sample_has_probability_n_minus_k_factorial_over_n_factorial(
    n: int, k: int
) -> None:
    data = b"".join(b"%d\n" % i for i in range(n))

    def run(c: Any) -> bytes:
        out = io.BytesIO()
        sample_stream(io.BytesIO(data), out.write, k, decisions=ChooserDecisions(c))
        return out.getvalue()

    dist = exact_distribution(run)
    kept = min(n, k)
    assert len(dist) == math.perm(n, kept)
    assert set(dist.values()) == {Fraction(math.factorial(n - kept), math.factorial(n))}


def test_the_keep_decision_is_exactly_k_over_i_plus_1() -> None:
    # The decision compares the bits of a uniform U with those of K/(i+1): U < K/(i+1)
    # exactly, reading on when the first 32 bits tie.  Every 32-bit word below
    # floor(K 2**32/(i+1)) keeps, every one above skips: their share plus the tie's is K/(i+1).
    streams = ReservoirStreams(bytes(32))
    for i, k in [(5, 3), (6, 1), (1000, 7), (2**40, 5)]:
        c = (k << 32) // (i + 1)
        tie_share = Fraction(k << 32, i + 1) - c  # the tie keeps with this probability
        assert Fraction(c, 2**32) + tie_share / 2**32 == Fraction(k, i + 1)
    kept = np.zeros(0, bool)
    for first in range(5, 200_005, 50_000):
        got, _ = streams.keep(first, 50_000, 3)
        kept = np.concatenate((kept, got))
    expected = sum(3 / (i + 1) for i in range(5, 200_005))
    # A sum of independent Bernoullis: mean ~ 3 ln(200005/5) = 31.8, sd ~ 5.6; the bound is
    # six standard deviations (a false alarm rate below 1e-8).
    assert abs(int(kept.sum()) - expected) < 6 * math.sqrt(expected)


def test_a_tie_reads_on_until_the_bits_differ(monkeypatch: pytest.MonkeyPatch) -> None:
    streams = ReservoirStreams(bytes(32))
    i, k = 6, 1  # 1/7 = 0.001001001...b: never ends, so a tie is always decided by more bits
    c = (k << 32) // (i + 1)
    monkeypatch.setattr(streams, "_words", lambda first, count: np.full(count, c, np.uint64))
    kept, _ = streams.keep(i, 1, k)
    digest = hashlib.shake_128(bytes(32) + b"croupier-reservoir/1 tie" + i.to_bytes(8, "big"))
    extra = int.from_bytes(digest.digest(8), "big")
    u = Fraction((c << 64) | extra, 2**96)
    assert bool(kept[0]) == (u < Fraction(k, i + 1))


def test_sample_statistics_and_one_pass(tmp_path: Path) -> None:
    n, k = 50, 5
    data = b"".join(b"%d\n" % i for i in range(n))
    counts: Counter[bytes] = Counter()
    first: Counter[bytes] = Counter()
    trials = 4000
    for t in range(trials):
        out = io.BytesIO()
        sample_stream(io.BytesIO(data), out.write, k, source=SeededSource(f"s{t}", "x"))
        lines = out.getvalue().split()
        assert len(set(lines)) == k
        counts.update(lines)
        first[lines[0]] += 1
    # Each record is in a sample with chance k/n (400 expected) and first with chance 1/n
    # (80 expected): chi-square with 49 degrees of freedom, 99.9% quantile 85.4.
    for table, share in ((counts, trials * k / n), (first, trials / n)):
        chi2 = sum((table[b"%d" % i] - share) ** 2 / share for i in range(n))
        assert chi2 < 85.4


def test_sample_keeps_records_whole_and_ends_like_the_input() -> None:
    for data, k in [(b"a\r\nb\r\nc", 3), (b"x\0y\0", 1), (b"\xef\xbb\xbfp\nq\n", 2), (b"", 3)]:
        sep = b"\0" if b"\0" in data else b"\n"
        out = io.BytesIO()
        report = sample_stream(
            io.BytesIO(data), out.write, k, source=SeededSource("w", "x"), fmt=RecordFormat(sep[0])
        )
        got = out.getvalue()
        assert report.kept == min(k, report.records)
        if k >= report.records:  # everything, shuffled: the same bytes
            assert sorted(got.removeprefix(b"\xef\xbb\xbf").replace(b"\r", b"").split(sep)) == (
                sorted(data.removeprefix(b"\xef\xbb\xbf").replace(b"\r", b"").split(sep))
            )
            assert got.startswith(b"\xef\xbb\xbf") == data.startswith(b"\xef\xbb\xbf")
    long = b"y" * (3 * fsample._CHUNK) + b"\nshort\n"  # a record longer than a block read
    out = io.BytesIO()
    sample_stream(io.BytesIO(long), out.write, 2, source=SeededSource("l", "x"))
    assert sorted(out.getvalue().split(b"\n")) == sorted(long.split(b"\n"))
    with pytest.raises(FileFormatError, match="ends inside a record"):
        sample_stream(io.BytesIO(b"abcde"), io.BytesIO().write, 1, fmt=RecordFormat(None, 2))
    with pytest.raises(CroupierError, match="count=-1"):
        sample_stream(io.BytesIO(b""), io.BytesIO().write, -1)


# -- the command line: shuf's habits ------------------------------------------------------------


def _run(args: list[str], folder: Path, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "croupier", *args], cwd=folder, input=stdin, capture_output=True,
        check=False,
    )  # fmt: skip


def test_standard_input_when_no_file_is_named(tmp_path: Path) -> None:
    data = b"".join(b"%d\n" % i for i in range(500))
    (tmp_path / "in.txt").write_bytes(data)
    piped = _run(["shuffle", "--seed", "pipe"], tmp_path, data)
    dashed = _run(["shuffle", "--file", "-", "--seed", "pipe"], tmp_path, data)
    named = _run(["shuffle", "--file", "in.txt", "--seed", "pipe"], tmp_path)
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout == dashed.stdout == named.stdout == spec_file(data, "pipe")
    spooled = _run(["shuffle", "--seed", "pipe", "--memory", "1M"], tmp_path, data * 0 + data)
    assert spooled.stdout == piped.stdout


def test_head_count_sample_zero_terminated_and_out(tmp_path: Path) -> None:
    data = b"".join(b"f%d\0" % i for i in range(300))
    (tmp_path / "names").write_bytes(data)
    sample = _run(["shuffle", "--file", "names", "-z", "-n", "7", "--seed", "s"], tmp_path)
    picked = sample.stdout.split(b"\0")
    assert sample.returncode == 0 and picked[-1] == b"" and len(set(picked[:-1])) == 7
    assert set(picked[:-1]) <= set(data.split(b"\0"))
    long = _run(["shuffle", "--file", "names", "-z", "--head-count", "7", "--seed", "s"], tmp_path)
    assert long.stdout == sample.stdout and b"croupier-reservoir/1" in long.stderr
    everything = _run(["shuffle", "--file", "names", "-z", "-n", "1000"], tmp_path)
    assert sorted(everything.stdout.split(b"\0")) == sorted(data.split(b"\0"))
    assert _run(["shuffle", "--file", "names", "-n", "0"], tmp_path).stdout == b""
    out = _run(["shuffle", "--file", "names", "-z", "-o", "o.bin", "--seed", "s"], tmp_path)
    assert out.returncode == 0 and out.stdout == b""
    assert (tmp_path / "o.bin").read_bytes() == spec_file(data, "s", b"\0")
    again = _run(["shuffle", "--file", "names", "-z", "-o", "o.bin"], tmp_path)
    assert again.returncode == 2 and b"already exists" in again.stderr
    cards = _run(["shuffle", "--cards", "20", "-n", "3", "--seed", "c"], tmp_path)
    full = _run(["shuffle", "--cards", "20", "--seed", "c"], tmp_path)
    assert cards.stdout.split() == full.stdout.split()[:3]


def test_fixed_records_in_memory_and_through_buckets(tmp_path: Path) -> None:
    data = b"".join(i.to_bytes(4, "big") * 4 for i in range(300_000))  # 4.8 MB of 16-byte rows
    (tmp_path / "rows.bin").write_bytes(data)
    args = ["shuffle", "--file", "rows.bin", "--records", "16", "--seed", "rows"]
    small = _run([*args, "--memory", "1M", "-o", "a.bin"], tmp_path)
    assert small.returncode == 0 and b"buckets" in small.stderr, small.stderr
    big = _run([*args, "-o", "b.bin"], tmp_path)
    assert b"in memory" in big.stderr
    a, b = (tmp_path / "a.bin").read_bytes(), (tmp_path / "b.bin").read_bytes()
    assert a == b != data
    rows = sorted(a[i : i + 16] for i in range(0, len(a), 16))
    assert rows == sorted(data[i : i + 16] for i in range(0, len(data), 16))
    odd = _run(["shuffle", "--file", "rows.bin", "--records", "7"], tmp_path)
    assert odd.returncode == 2 and b"not a multiple of the record size 7" in odd.stderr


def test_notes_bits_and_json(cli: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "in.txt"
    path.write_bytes(b"".join(b"item %d\n" % i for i in range(5000)))
    r = cli(["shuffle", "--file", str(path), "--seed", "a longer seed for the notes", "--bits"])
    assert r.code == 0
    assert "shuffled 5,000 lines" in r.err and "croupier-keyed-split/1" in r.err
    bits_line = r.out.splitlines()[-1]
    used = int(bits_line.split()[2])
    bound = math.lgamma(5001) / math.log(2)
    assert bits_line.startswith("bits used: ") and bound < used <= bound + 2 * 5000
    doc = json.loads(cli(["shuffle", "--file", str(path), "--seed", "j", "--json"]).out)
    assert doc["algorithm"] == "croupier-keyed-split/1" and doc["bits"] > bound
    items = doc["result"]["items"]
    assert sorted(items) == sorted(f"item {i}" for i in range(5000))
    out = io.BytesIO()
    shuffle_stream(
        io.BytesIO(path.read_bytes()), out.write, source=SeededSource("j", "shuffle-file")
    )
    assert items == out.getvalue().decode().splitlines()
    q = cli(["shuffle", "--file", str(path), "--quiet"])
    assert q.code == 0 and q.err == ""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--entropy", "hex:00"], "--entropy does not apply to the file shuffle"),
        (["--records", "4", "-z"], "not both"),
        (["--method", "keys", "-z"], "do not apply to --method keys"),
        (["--method", "keys", "-n", "3"], "do not apply to --method keys"),
        (["--memory", "1M", "--json"], "do not apply together"),
        (["--memory", "lots"], "bad --memory 'lots'"),
        (["-n", "-1"], "greater than or equal to 0"),
    ],
)
def test_refusals_are_one_line(
    cli: CliRunner, tmp_path: Path, args: list[str], message: str
) -> None:
    path = tmp_path / "in.txt"
    path.write_bytes(b"a\nb\n")
    r = cli(["shuffle", "--file", str(path), *args])
    assert r.code == 2 and message in r.err and r.err.count("\n") == 1, r.err
    assert cli(["shuffle", "--cards", "3", "-z"]).code == 2
    assert cli(["shuffle", "--method", "keys", "--cards", "3"]).code == 2


def test_the_library_reads_a_path_or_standard_input(tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_bytes(b"1\n2\n3\n")
    report = shuffle_file_records(src, tmp_path / "out.txt", source=SeededSource("x"))
    assert report.records == 3 and sorted((tmp_path / "out.txt").read_bytes().split()) == [
        b"1", b"2", b"3",
    ]  # fmt: skip
    with pytest.raises(FileFormatError, match="is the input file"):
        shuffle_file_records(src, src, overwrite=True)
    got = io.BytesIO()
    shuffle_file_records(None, None, stdin=io.BytesIO(b"x\ny\n"), stdout=got.write)
    assert sorted(got.getvalue().split()) == [b"x", b"y"]
    with pytest.raises(CroupierError, match="give out="):
        shuffle_file_records(src, None)


# -- pieces made while the first are written, and separators found while reading ----------------


@pytest.mark.parametrize(("n", "k"), [(3, 1), (3, 2), (4, 1)])
def test_one_leaf_per_piece_still_gives_every_order_exactly(
    n: int, k: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    from croupier.scale import file_shuffle

    monkeypatch.setattr(file_shuffle, "PIECE_ITEMS", 1)  # every leaf its own piece
    monkeypatch.setattr(file_shuffle, "PIECE_MOST", 1)
    records = [b"r%d\n" % i for i in range(n)]
    dist = exact_distribution(
        lambda chooser: _shuffle(b"".join(records), SourceDraws(chooser), None,
                                 KeyedParams(key_bits=k))[0],
        max_leaves=100_000,
    )  # fmt: skip
    assert set(dist) == {b"".join(p) for p in itertools.permutations(records)}
    assert set(dist.values()) == {Fraction(1, math.factorial(n))}


@pytest.mark.parametrize(("piece", "most"), [(1, 0), (7, 0), (1000, 0), (0, 0), (1, 64), (5, 900)])
def test_pieces_put_end_to_end_are_the_whole_arrangement(piece: int, most: int) -> None:
    from croupier.scale.keyed_split import keyed_pieces

    streams = KeyedStreams.from_source(SeededSource("pieces", "shuffle-file"))
    for n in (0, 1, 2, 600, 5000):
        k = key_bits(n) + 2  # many small leaves
        keys = streams.keys(0, n, k)
        whole, bits = keyed_order(keys, k, streams)
        parts = list(keyed_pieces(keys, k, streams, piece=piece, most=most))
        joined = np.concatenate([p for p, _ in parts]) if parts else np.zeros(0, np.intp)
        assert joined.tolist() == whole.tolist()
        assert sum(b for _, b in parts) == bits
        if piece and n > 2 * max(piece, most):
            assert len(parts) > 1  # (whole leaves: about n / piece of them)
        if most and n > 4 * most:  # growing pieces: fewer than at the first size
            assert len(parts) < n // piece


def test_the_pieces_of_a_file_shuffle_never_change_its_bytes(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from croupier.scale import file_shuffle, records

    data = b"".join(b"line %d %s\n" % (i, b"x" * (i % 41)) for i in range(30_000)) + b"open"
    path = tmp_path / "in.txt"
    path.write_bytes(data)

    def run() -> bytes:
        out = io.BytesIO()
        shuffle_file_records(path, None, source=SeededSource("p", "shuffle-file"), stdout=out.write)
        return out.getvalue()

    first = run()
    assert sorted(first.split(b"\n")) == sorted(data.split(b"\n"))
    for piece, most, scan in ((1, 1, 3), (257, 257, 1 << 12), (3, 5000, 1 << 12),
                              (1 << 20, 1 << 20, 1 << 22)):  # fmt: skip
        monkeypatch.setattr(file_shuffle, "PIECE_ITEMS", piece)
        monkeypatch.setattr(file_shuffle, "PIECE_MOST", most)
        monkeypatch.setattr(records, "_SCAN", scan)  # blocks read (and scanned) at a time
        assert run() == first, (piece, scan)


@given(
    st.lists(st.sampled_from([b"a", b"bc", b"\n", b"\0", b"xyz"]), max_size=60),
    st.integers(1, 9),
    st.sampled_from([RecordFormat(), RecordFormat(0), RecordFormat(None, 3)]),
)
def test_separators_found_while_reading_are_the_record_ends(
    pieces: list[bytes], block: int, fmt: RecordFormat
) -> None:
    from croupier.scale import records
    from croupier.scale.records import count_separators, read_finding, record_ends

    data = b"".join(pieces)
    buffer = np.zeros(len(data), np.uint8)
    got, found = read_finding(io.BytesIO(data), buffer, fmt, block=block)
    assert got == len(data) and buffer.tobytes() == data
    plain = [i + 1 for i, b in enumerate(data) if b == fmt.separator]
    if fmt.separator is None:
        assert found is None and count_separators(buffer, fmt) == 0
    else:
        assert found is not None and found.tolist() == plain
        old, records._SCAN = records._SCAN, block  # the threaded scan and count, in blocks
        try:
            assert record_ends(buffer, fmt, offset=5, threads=2).tolist() == [e + 5 for e in plain]
            assert count_separators(buffer, fmt) == len(plain)
        finally:
            records._SCAN = old
