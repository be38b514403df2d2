"""The seeded stream (croupier-seeded/1): golden vectors, cross-checked independently."""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.errors import SeedError
from croupier.randomness import SeededSource, UniformSampler, make_source, parse_seed
from croupier.shuffling import SHUFFLE_METHODS
from tests.conftest import VECTORS, CliRunner

DOC = json.loads((VECTORS / "seeded_v1.json").read_text(encoding="utf-8"))


# --- an independent implementation of docs/reproducibility.md ------------------------------


def _seed_bytes(seed: str) -> bytes:
    return bytes.fromhex(seed[4:]) if seed.startswith("hex:") else seed.encode("utf-8")


def _message(seed: str, purpose: str, path: list[int]) -> bytes:
    def field(x: bytes) -> bytes:
        return struct_u64(len(x)) + x

    def struct_u64(v: int) -> bytes:
        return bytes((v >> (8 * (7 - i))) & 0xFF for i in range(8))

    return (
        field(b"croupier-seeded/1")
        + field(_seed_bytes(seed))
        + field(purpose.encode("utf-8"))
        + field(b"".join(struct_u64(k) for k in path))
    )


def _stream_bytes(seed: str, purpose: str, path: list[int], nbytes: int) -> bytes:
    msg = _message(seed, purpose, path)
    out = b""
    j = 0
    while len(out) < nbytes:
        out += hashlib.shake_256(msg + j.to_bytes(8, "big")).digest(136)
        j += 1
    return out[:nbytes]


class _Bits:
    """Reads the stream as one big-endian bit string."""

    def __init__(self, data: bytes) -> None:
        self.value = int.from_bytes(data, "big")
        self.left = 8 * len(data)
        self.used = 0

    def take(self, k: int) -> int:
        self.left -= k
        self.used += k
        return (self.value >> self.left) & ((1 << k) - 1)


class _Sampler:
    """The documented uniform sampler (margin 0), written out plainly."""

    def __init__(self, bits: _Bits) -> None:
        self.bits, self.v, self.m = bits, 0, 1

    def below(self, n: int) -> int:
        if n == 1:
            return 0
        while True:
            if self.m < n:
                k = 0
                while self.m * 2**k < n:
                    k += 1
                self.v = self.v * 2**k + self.bits.take(k)
                self.m = self.m * 2**k
                continue
            q = self.m // n
            if self.v < q * n:
                result = self.v % n
                self.v, self.m = self.v // n, q
                return result
            self.v, self.m = self.v - q * n, self.m - q * n


def _unrank_msb_first(rank: int, items: list[int]) -> list[int]:
    pool = list(items)
    out = []
    for i in range(len(pool), 0, -1):
        f = math.factorial(i - 1)
        d, rank = divmod(rank, f)
        out.append(pool.pop(d))
    return out


# Every shuffle of docs/reproducibility.md §3, written from the page, on the plain sampler.


def _lehmer(items: list[int], s: _Sampler) -> list[int]:
    n = len(items)
    if n <= 2048:
        return _unrank_msb_first(s.below(math.factorial(n)), items)
    digits: list[int] = []  # blocks of radices n, n-1, ... with products of <= 4096 bits
    radix = n
    while radix > 0:
        block = [radix]
        while radix - 1 > 0 and (math.prod(block) * (radix - 1)).bit_length() <= 4096:
            radix -= 1
            block.append(radix)
        radix -= 1
        value = s.below(math.prod(block))
        for i in range(len(block)):  # the first radix is the most significant digit
            below = math.prod(block[i + 1 :])
            digits.append(value // below)
            value %= below
    pool = list(items)
    return [pool.pop(d) for d in digits]


def _fisher_yates(items: list[int], s: _Sampler) -> list[int]:
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        j = s.below(i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def _rao_sandelius(items: list[int], s: _Sampler) -> list[int]:
    if len(items) <= 1:
        return list(items)
    labels = [s.below(2) for _ in items]
    pile0 = [x for x, b in zip(items, labels, strict=True) if b == 0]
    pile1 = [x for x, b in zip(items, labels, strict=True) if b == 1]
    first = _rao_sandelius(pile0, s)  # pile 0 is finished before pile 1 draws anything
    return first + _rao_sandelius(pile1, s)


def _merge_shuffle(items: list[int], s: _Sampler) -> list[int]:
    t, n, width = list(items), len(items), 1
    while width < n:
        start = 0
        while start < n - width:
            lo, mid, hi = start, start + width, min(start + 2 * width, n)
            i, j = lo, mid
            while True:
                if s.below(2) == 0:
                    if i == j:
                        break
                elif j == hi:
                    break
                else:
                    t[i], t[j] = t[j], t[i]
                    j += 1
                i += 1
            while i < hi:
                k = lo + s.below(i - lo + 1)
                t[i], t[k] = t[k], t[i]
                i += 1
            start += 2 * width
        width *= 2
    return t


def _gsr(a: int) -> Callable[[list[int], _Sampler], list[int]]:
    def riffle(items: list[int], s: _Sampler) -> list[int]:
        labels = [s.below(a) for _ in items]
        starts = [sum(1 for x in labels if x < p) for p in range(a)]
        out = []
        for label in labels:
            out.append(items[starts[label]])
            starts[label] += 1
        return out

    return riffle


def _overhand(items: list[int], s: _Sampler) -> list[int]:
    packets = [[items[0]]] if items else []
    for x in items[1:]:
        if s.below(2) == 0:  # cut here, probability 1/2
            packets.append([x])
        else:
            packets[-1].append(x)
    return [x for packet in reversed(packets) for x in packet]


def _cut(items: list[int], s: _Sampler) -> list[int]:
    c = s.below(len(items)) if items else 0
    return items[c:] + items[:c]


def split_with(
    items: list[int], take: Callable[[int], int], levels: list[int], chunk: int, margin: int
) -> list[int]:
    """A split shuffle from docs/shuffling-at-scale.md; ``take(k)`` reads the next ``k`` bits."""
    n = len(items)
    leaves = [list(items)]
    for k in levels:  # a key for every item, in the current order; stable split by key
        keys = iter([take(k) for _ in range(n)])
        split: list[list[int]] = []
        for leaf in leaves:
            by_key: dict[int, list[int]] = {}
            for x in leaf:
                by_key.setdefault(next(keys), []).append(x)
            split += [by_key[key] for key in sorted(by_key)]
        leaves = split
    draws: list[tuple[int, list[int]]] = []  # (leaf, its radices m, m-1, ... in one chunk)
    for number, leaf in enumerate(leaves):
        radices: list[int] = []
        for r in range(len(leaf), 1, -1):
            if radices and math.prod(radices) * r > 2**chunk:
                draws.append((number, radices))
                radices = []
            radices.append(r)
        if radices:
            draws.append((number, radices))
    values: list[int] = [0] * len(draws)
    waiting = list(range(len(draws)))
    while waiting:  # first attempts in order, then rounds of redraws
        rejected = []
        for i in waiting:
            size = math.prod(draws[i][1])
            width = (size - 1).bit_length() + margin
            v = take(width)
            if v < 2**width - 2**width % size:
                values[i] = v % size
            else:
                rejected.append(i)
        waiting = rejected
    for (number, radices), value in zip(draws, values, strict=True):
        leaf = leaves[number]
        for r in radices:  # Fisher–Yates: position r - 1 swaps with a digit below r
            value, d = divmod(value, r)
            leaf[r - 1], leaf[d] = leaf[d], leaf[r - 1]
    return [x for leaf in leaves for x in leaf]


def split_levels(n: int) -> list[int]:
    """The key bits of each level of croupier-shuffle-split/1 for ``n`` items."""
    total = max(0, (n // 512).bit_length() - 1)
    return [] if total == 0 else [total] if total <= 14 else [(total + 1) // 2, total // 2]


def _split(items: list[int], s: _Sampler) -> list[int]:
    """croupier-shuffle-split/1: it reads the bits directly, not through the sampler."""
    return split_with(items, s.bits.take, split_levels(len(items)), 60, 4)


INDEPENDENT: dict[str, Callable[[list[int], _Sampler], list[int]]] = {
    "split": _split,
    "lehmer": _lehmer,
    "fisher-yates": _fisher_yates,
    "rao-sandelius": _rao_sandelius,
    "merge-shuffle": _merge_shuffle,
    "riffle": _gsr(2),
    "riffle7": _gsr(128),
    "overhand": _overhand,
    "cut": _cut,
}


# --- tests ------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", DOC["streams"], ids=lambda c: f"{c['seed']}/{c['purpose']}")
def test_stream_vectors_match_croupier_and_independent_implementation(case: dict) -> None:
    path = [case["index"], *case["spawn_key"]]
    independent = _stream_bytes(case["seed"], case["purpose"], path, 64).hex()
    assert independent == case["first_512_bits_hex"]
    src = SeededSource(
        case["seed"], case["purpose"], case["index"], spawn_key=tuple(case["spawn_key"])
    )
    # read in odd-sized pieces: the stream must not depend on how it is read
    pieces = [src.bits(k) for k in (1, 7, 100, 300, 104)]
    value = 0
    for k, p in zip((1, 7, 100, 300, 104), pieces, strict=True):
        value = (value << k) | p
    assert format(value, "0128x") == case["first_512_bits_hex"]
    assert src.bits_used == 512


def test_draw_vectors_match_independent_sampler() -> None:
    case = DOC["draws"][0]
    bits = _Bits(_stream_bytes(case["seed"], case["purpose"], [case["index"]], 8192))
    sampler = _Sampler(bits)
    assert [sampler.below(n) for n in case["n"]] == case["values"]
    assert bits.used == case["bits_used"]
    src = SeededSource(case["seed"], case["purpose"], case["index"])
    u = UniformSampler(src)
    assert [u.below(n) for n in case["n"]] == case["values"]


@pytest.mark.parametrize(
    "case", DOC["shuffles"], ids=lambda c: f"{c['seed']}/{c['method']}/{c['n']}"
)
def test_shuffle_vectors(case: dict) -> None:
    src = SeededSource(case["seed"], case["purpose"], case["index"])
    out = SHUFFLE_METHODS[case["method"]](list(range(case["n"])), UniformSampler(src))
    assert out == case["result"]
    assert src.bits_used == case["bits_used"]
    assert sorted(out) == list(range(case["n"]))
    # the same order and the same bits from the page's description, on the plain sampler
    bits = _Bits(_stream_bytes(case["seed"], case["purpose"], [case["index"]], 8192))
    assert INDEPENDENT[case["method"]](list(range(case["n"])), _Sampler(bits)) == case["result"]
    assert bits.used == case["bits_used"]


def test_every_registered_method_has_vectors() -> None:
    assert {c["method"] for c in DOC["shuffles"]} == set(SHUFFLE_METHODS) == set(INDEPENDENT)


def test_seed_forms_and_domain_separation() -> None:
    a = SeededSource("abc").bits(256)
    assert SeededSource(b"abc").bits(256) == a
    assert SeededSource("hex:616263").bits(256) == a
    others = [
        SeededSource("abd").bits(256),
        SeededSource("abc", purpose="deal").bits(256),
        SeededSource("abc", index=1).bits(256),
        SeededSource("abc", spawn_key=(0,)).bits(256),
        SeededSource("ab", purpose="c").bits(256),  # length prefixes keep fields apart
    ]
    assert len({a, *others}) == 6


def test_derive_and_spawn_give_distinct_reproducible_streams() -> None:
    root = SeededSource("tournament", "boards")
    kids = root.spawn(3)
    values = [k.bits(128) for k in kids]
    assert len(set(values)) == 3
    assert [k.bits(128) for k in SeededSource("tournament", "boards").spawn(3)] == values
    grandkids = kids[0].spawn(2)
    assert grandkids[1].spawn_key == (0, 1)
    assert root.derive(index=5).bits(64) == SeededSource("tournament", "boards", 5).bits(64)
    assert root.derive(purpose="x").purpose == "x"


def test_seed_errors_and_labels() -> None:
    for bad in ("", b"", "hex:abc", "hex:zz"):
        with pytest.raises(SeedError, match="seed"):
            SeededSource(bad)
    with pytest.raises(SeedError, match="index"):
        SeededSource("x", index=-1)
    with pytest.raises(SeedError, match="index"):
        SeededSource("x", index=2**64)
    src = make_source(seed="42")
    assert src.kind == "seeded" and src.reproducible
    assert isinstance(src, SeededSource) and src.seed_bits == 16
    assert "only as secret as the seed" in src.describe()
    assert parse_seed("hex:00 ff") == b"\x00\xff"


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=70), min_size=1, max_size=12))
def test_stream_is_independent_of_request_sizes(sizes: list[int]) -> None:
    total = sum(sizes)
    whole = SeededSource("split").bits(total)
    src = SeededSource("split")
    value = 0
    for k in sizes:
        value = (value << k) | src.bits(k)
    assert value == whole


# --- seed strength ----------------------------------------------------------------------------

BRIDGE = math.log2(math.factorial(52) // math.factorial(13) ** 4)  # ~2^95.4 deals


def _random_bytes(n: int, label: str) -> bytes:
    """``n`` bytes that behave like CSPRNG output (SHAKE-256), reproducibly."""
    return hashlib.shake_256(label.encode()).digest(n)


@pytest.mark.parametrize(
    ("seed", "reason"),
    [
        ("a" * 24, "repetition"),
        ("hex:" + "00" * 32, "repetition"),
        ("1234567890123", "sequence"),
        ("abababababababababababababab", "repetition"),
        ("passwordpasswordpassword", "repetition"),
        ("qwertyuiopasdfghjklzxcvbnm", "common words"),
        ("31415926535897932384626433", "digits only"),
    ],
)
def test_long_but_guessable_seeds_are_labelled(seed: str, reason: str) -> None:
    source = make_source(seed=seed)
    assert isinstance(source, SeededSource) and source.seed_bits > BRIDGE  # long enough...
    warning = make_seed_warning(source)
    assert warning is not None and reason in warning  # ...but labelled, with the reason
    assert "guessable in about 2^" in warning and "only as secret as the seed" in warning


def make_seed_warning(source: SeededSource) -> str | None:
    from croupier.randomness import seed_warning

    return seed_warning(source, BRIDGE, "~2^95.4 deals of bridge")


@pytest.mark.parametrize("size", [12, 16, 29, 32, 64])
def test_random_bytes_score_their_full_length(size: int) -> None:
    from croupier.randomness.seed_strength import seed_strength

    for i in range(100):
        seed = _random_bytes(size, f"strength {size} {i}")
        assert seed_strength(seed).bits == 8 * size
    # so 12 random bytes (96 bits) pass for one bridge deal, and a 'hex:' seed does too
    assert make_seed_warning(SeededSource(_random_bytes(12, "bridge"))) is None
    assert make_seed_warning(SeededSource("hex:" + _random_bytes(16, "hex").hex())) is None


def test_estimates_follow_the_documented_costs() -> None:
    from croupier.randomness.seed_strength import COMMON_WORDS, seed_strength

    # one character, then one copy at distance 1: log2(26) + 1 + log2(n - 1)
    for n in (8, 24, 200):
        assert seed_strength(b"z" * n).bits <= math.log2(26) + 1 + math.log2(n - 1) + 1e-9
    # digits only: never more than a run of digits, 3 + log2(10) per digit
    digits = "".join(str(b % 10) for b in _random_bytes(40, "digits")).encode()
    assert seed_strength(digits).bits <= 3 + 40 * math.log2(10) + 1e-9
    # a common word costs log2 of the list's length (+1 bit when capitalised)
    assert round(math.log2(len(COMMON_WORDS)), 1) == 7.3  # the figure in docs/randomness.md
    assert seed_strength(b"Password").bits <= math.log2(len(COMMON_WORDS)) + 1 + 1e-9
    # hex text carries 4 bits per digit, not log2(36)
    assert seed_strength(_random_bytes(16, "hex text").hex().encode()).bits <= 128 + 1e-9
    # never more than 8 bits per byte, never negative
    for seed in (b"x", b"\x00", "ñ".encode(), _random_bytes(300, "long")):
        assert 0 <= seed_strength(seed).bits <= 8 * len(seed)


def test_huge_seeds_are_estimated_in_bounded_work() -> None:
    from croupier.randomness.seed_strength import seed_strength

    repeated = seed_strength(b"x" * 1_000_000)  # only the first 256 characters are analysed
    assert repeated.bits < 10_000 and repeated.reason == "repetition"  # of 8,000,000
    random_tail = _random_bytes(100_000, "tail")
    assert seed_strength(random_tail).bits == 8 * len(random_tail)  # incompressible


def test_short_seeds_keep_their_byte_bound_message_and_add_the_estimate() -> None:
    warning = make_seed_warning(SeededSource("42"))
    assert warning is not None
    assert warning.startswith("the seed has at most 16 bits, so it can reach at most 2^16 of")
    assert "guessable in about 2^7 tries (digits only)" in warning  # 2 * log2(10) = 6.6


def test_the_cli_labels_a_long_guessable_seed(cli: CliRunner) -> None:
    r = cli(["deal", "--seed", "a" * 24, "--format", "pbn"])
    assert r.code == 0
    assert any(
        line.startswith("warning: the seed looks guessable") and "repetition" in line
        for line in r.err.splitlines()
    )
    strong = cli(["deal", "--seed", "hex:" + _random_bytes(16, "cli").hex(), "--format", "pbn"])
    assert strong.code == 0 and "warning" not in strong.err
