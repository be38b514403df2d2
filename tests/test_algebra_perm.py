"""Permutation laws and notation round trips for croupier.perm."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.errors import CroupierError
from croupier.perm import Permutation, PermutationError


@st.composite
def perms(draw: st.DrawFn, n: int | None = None) -> Permutation:
    size = draw(st.integers(0, 12)) if n is None else n
    return Permutation(draw(st.permutations(list(range(size)))))


@st.composite
def same_size(draw: st.DrawFn, count: int) -> list[Permutation]:
    n = draw(st.integers(0, 12))
    return [draw(perms(n)) for _ in range(count)]


def inversions(p: Permutation) -> int:
    a = p.tolist()
    return sum(1 for i in range(len(a)) for j in range(i + 1, len(a)) if a[i] > a[j])


# ------------------------------------------------------------- composition
@settings(max_examples=200)
@given(same_size(2))
def test_composition_convention_is_first_left_then_right(pq: list[Permutation]) -> None:
    p, q = pq
    deck = [f"card{i}" for i in range(len(p))]
    assert (p * q).apply(deck) == q.apply(p.apply(deck))
    assert p.then(q) == p * q
    # and as functions: (p * q)(i) = p(q(i)), numpy's p[q]
    assert (p * q).tolist() == [p[q[i]] for i in range(len(p))]
    assert (p * q).tolist() == np.asarray(p.tolist())[q.tolist()].tolist()


def test_composition_convention_on_a_worked_example() -> None:
    cut1 = Permutation([1, 2, 0])  # top card to the bottom
    swap = Permutation([1, 0, 2])  # swap the top two cards
    assert cut1.apply("abc") == ["b", "c", "a"]
    assert (cut1 * swap).apply("abc") == ["c", "b", "a"]  # cut, then swap
    assert (swap * cut1).apply("abc") == ["a", "c", "b"]  # swap, then cut


@settings(max_examples=150)
@given(same_size(3))
def test_associativity(pqr: list[Permutation]) -> None:
    p, q, r = pqr
    assert (p * q) * r == p * (q * r)


@settings(max_examples=150)
@given(perms())
def test_inverse(p: Permutation) -> None:
    e = Permutation.identity(len(p))
    assert p * p.inverse() == e
    assert p.inverse() * p == e
    assert ~p == p.inverse()
    assert p.inverse().inverse() == p
    deck = list(range(100, 100 + len(p)))
    assert p.inverse().apply(p.apply(deck)) == deck


@settings(max_examples=150)
@given(perms())
def test_order_is_least_power_giving_identity(p: Permutation) -> None:
    k = p.order()
    assert (p**k).is_identity()
    power = Permutation.identity(len(p))
    first = None
    for j in range(1, k + 1):
        power = power * p
        if power.is_identity():
            first = j
            break
    assert first == k
    assert k == math.lcm(1, *p.cycle_type())


@settings(max_examples=150)
@given(same_size(2))
def test_sign_is_a_homomorphism_and_matches_inversion_parity(pq: list[Permutation]) -> None:
    p, q = pq
    assert (p * q).sign() == p.sign() * q.sign()
    assert p.sign() == (-1) ** inversions(p)
    assert p.is_even() == (inversions(p) % 2 == 0)
    assert p.parity() == inversions(p) % 2


@settings(max_examples=100)
@given(perms(), st.integers(-70, 70))
def test_powers_match_repeated_products(p: Permutation, k: int) -> None:
    expected = Permutation.identity(len(p))
    step = p if k >= 0 else p.inverse()
    for _ in range(abs(k)):
        expected = expected * step
    assert p**k == expected


@settings(max_examples=100)
@given(perms(), st.integers(0, 10**40))
def test_huge_powers_reduce_mod_order(p: Permutation, k: int) -> None:
    assert p**k == p ** (k % p.order())
    assert p ** (-k) == (p ** (k % p.order())).inverse()


def test_both_power_paths_agree_on_a_big_permutation() -> None:
    rng = np.random.default_rng(7)
    p = Permutation(rng.permutation(5000))
    q = Permutation(p.array.copy())
    q._cycle_arrays()  # forces the cycle-based path for every exponent
    for k in (0, 1, 2, 5, 33, 63, -17):
        assert p**k == q**k


# ---------------------------------------------------------------- cycles
@settings(max_examples=150)
@given(perms())
def test_cycles_rebuild_the_permutation(p: Permutation) -> None:
    n = len(p)
    assert Permutation.from_cycles(p.cycles(), n=n) == p
    cycles = p.cycles(include_fixed=True)
    assert sorted(x for c in cycles for x in c) == list(range(n))
    for c in cycles:
        assert c[0] == min(c)
        for i, x in enumerate(c):
            assert p[x] == c[(i + 1) % len(c)]
    assert sum(p.cycle_type()) == n
    assert sorted(p.cycle_type(), reverse=True) == list(p.cycle_type())
    assert sum(k * v for k, v in p.cycle_counts().items()) == n
    assert p.sign() == (-1) ** (n - len(cycles))


@settings(max_examples=150)
@given(perms(), st.sampled_from([0, 1]))
def test_notation_round_trips(p: Permutation, base: int) -> None:
    n = len(p)
    assert Permutation.parse(p.format("one-line", base=base), base=base) == p
    assert Permutation.parse(p.format("cycles", base=base), n=n, base=base) == p
    assert Permutation.parse(str(p)) == p
    assert eval(repr(p), {"Permutation": Permutation}) == p


def test_parse_accepts_common_spellings() -> None:
    assert Permutation.parse("2 0 1") == Permutation([2, 0, 1])
    assert Permutation.parse("2,0,1") == Permutation([2, 0, 1])
    assert Permutation.parse("(0,2)(1 3)") == Permutation([2, 3, 0, 1])
    assert Permutation.parse("()", n=3).is_identity()
    assert Permutation.parse("") == Permutation([])


@pytest.mark.parametrize(
    ("text", "n", "needle"),
    [
        ("[0, 0, 1]", None, "[0, 0, 1]"),
        ("(0 1", None, "(0 1"),
        ("(0 1)(1 2)", None, "not disjoint"),
        ("(0 5)", 3, "5"),
        ("a b", None, "a b"),
        ("[1, 0]", 3, "expected 3"),
    ],
)
def test_parse_errors_quote_the_input(text: str, n: int | None, needle: str) -> None:
    with pytest.raises(CroupierError) as info:
        Permutation.parse(text, n=n)
    assert needle in str(info.value)
    assert "\n" not in str(info.value)


def test_constructor_rejects_non_permutations() -> None:
    for bad in ([1, 2], [0, 0], [0.0, 1.0], ["a"], [[0], [1]], [-1, 0]):
        with pytest.raises(PermutationError):
            Permutation(bad)  # type: ignore[arg-type]
    with pytest.raises(PermutationError, match="sizes 2 and 3"):
        Permutation([1, 0]) * Permutation([0, 1, 2])
    with pytest.raises(PermutationError, match="cannot rearrange 3"):
        Permutation([1, 0]).apply("abc")


# ------------------------------------------------------- descents & co
@settings(max_examples=150)
@given(perms())
def test_fixed_points_descents_and_rising_sequences(p: Permutation) -> None:
    a = p.tolist()
    n = len(a)
    assert p.fixed_points() == [i for i in range(n) if a[i] == i]
    assert p.descents() == [i for i in range(n - 1) if a[i] > a[i + 1]]
    # rising sequences, straight from the definition: read the arrangement for
    # card 0, 1, 2, ...; a new sequence starts whenever card x lies above card x-1.
    where = {card: pos for pos, card in enumerate(a)}
    rising = 0 if n == 0 else 1 + sum(1 for x in range(1, n) if where[x] < where[x - 1])
    assert p.rising_sequences() == rising


# ----------------------------------------------------------- applying
def test_apply_accepts_any_sequence_and_returns_new_lists() -> None:
    p = Permutation([2, 0, 1])
    src = [1, 2, 3]
    out = p.apply(src)
    assert out == [3, 1, 2] and src == [1, 2, 3] and out is not src
    assert p.apply((1, 2, 3)) == [3, 1, 2]
    assert p.apply("xyz") == ["z", "x", "y"]
    assert p.apply(range(3)) == [2, 0, 1]
    arr = np.array([10, 20, 30])
    assert p.apply(arr).tolist() == [30, 10, 20]
    assert arr.tolist() == [10, 20, 30]
    assert p([1, 2, 3]) == [3, 1, 2]


def test_apply_big_sequences_of_tuples_keeps_items_whole() -> None:
    n = 500
    p = Permutation(np.random.default_rng(3).permutation(n))
    items = [(i, str(i)) for i in range(n)]
    assert p.apply(items) == [items[i] for i in p.tolist()]
    assert p.apply(tuple(items)) == [items[i] for i in p.tolist()]


def test_empty_and_single() -> None:
    for n in (0, 1):
        e = Permutation.identity(n)
        assert e.order() == 1 and e.sign() == 1 and e.cycle_type() == (1,) * n
        assert e.apply(list(range(n))) == list(range(n))
        assert (e**-5) == e and e.inverse() == e
        assert e.format("cycles") == "()"


def test_array_is_read_only_and_hash_matches_equality() -> None:
    p = Permutation([1, 0, 2])
    with pytest.raises(ValueError):
        p.array[0] = 2
    assert hash(p) == hash(Permutation([1, 0, 2]))
    assert len({p, Permutation([1, 0, 2]), Permutation([0, 1, 2])}) == 2
    assert p != [1, 0, 2]


def test_positions_and_destination_are_the_inverse_map() -> None:
    # the out-shuffle of 2N = 10 cards: f(x) = 2x for x < N, 2x - 2N + 1 otherwise
    f = [2 * x if x < 5 else 2 * x - 10 + 1 for x in range(10)]
    p = Permutation.from_positions(f)
    assert p.positions().tolist() == f
    assert [p.destination(x) for x in range(10)] == f
    deck = [f"c{x}" for x in range(10)]
    out = p.apply(deck)
    assert all(out[f[x]] == deck[x] for x in range(10))


def test_between() -> None:
    for arrangement in itertools.permutations("abcd"):
        p = Permutation.between("abcd", arrangement)
        assert p.apply("abcd") == list(arrangement)
    with pytest.raises(PermutationError):
        Permutation.between("abc", "abd")
    with pytest.raises(PermutationError):
        Permutation.between("aab", "aba")


def test_repr_of_big_permutation_is_short() -> None:
    assert len(repr(Permutation.identity(10**5))) < 80


def test_fast_cycle_lengths_agree_with_the_cycle_walk() -> None:
    rng = np.random.default_rng(11)
    for n in (1, 2, 3, 100, 3000):
        for _ in range(5):
            p = Permutation(rng.permutation(n))
            walked = sorted((len(c) for c in p.cycles(include_fixed=True)), reverse=True)
            fresh = Permutation(p.array.copy())  # no cached cycle walk
            assert list(fresh.cycle_type()) == walked
            assert fresh.order() == math.lcm(*walked)
