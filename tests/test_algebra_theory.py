"""Shuffle theory: number-theoretic orders, closed forms, traces, Elmsley's problem, groups."""

from __future__ import annotations

import math
import random

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.errors import CroupierError
from croupier.moves import faro_perm
from croupier.perm import Permutation
from croupier.spec import parse_spec
from croupier.theory import (
    TooBigError,
    cycle_counts_of_power,
    elmsley,
    factorint,
    faro_cycle_counts,
    faro_order,
    faro_order_details,
    follow,
    is_prime,
    multiplicative_order,
    shuffle_group,
    spec_cycle_counts,
    spec_order,
    trace,
    trace_states,
)

# ----------------------------------------------------------- number theory


def test_is_prime_matches_sieve_and_sympy() -> None:
    limit = 5000
    sieve = [True] * limit
    sieve[0] = sieve[1] = False
    for i in range(2, limit):
        if sieve[i]:
            for j in range(i * i, limit, i):
                sieve[j] = False
    assert [n for n in range(limit) if is_prime(n)] == [n for n in range(limit) if sieve[n]]
    rng = random.Random(1)
    for _ in range(300):
        n = rng.randrange(10**17, 10**19)
        assert is_prime(n) == sympy.isprime(n)
    # strong pseudoprimes to many small bases
    for n in (3215031751, 3825123056546413051, 318665857834031151167461):
        assert not is_prime(n)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 10**19))
def test_factorint_multiplies_back_into_primes(n: int) -> None:
    fac = factorint(n)
    assert math.prod(p**e for p, e in fac.items()) == n
    assert all(is_prime(p) for p in fac)
    assert fac == {int(p): e for p, e in sympy.factorint(n).items()}


def test_factorint_handles_hard_semiprimes_and_prime_powers() -> None:
    p, q = 999999937, 1000000007
    assert factorint(p * q) == {p: 1, q: 1}
    assert factorint(p**2) == {p: 2}
    assert factorint(2**61 - 1) == {2**61 - 1: 1}


def test_multiplicative_order_by_brute_force() -> None:
    for m in range(1, 400):
        for a in (2, 3, 10):
            if math.gcd(a, m) != 1:
                with pytest.raises(CroupierError):
                    multiplicative_order(a, m)
                continue
            k = 1
            while pow(a, k, m) != 1 % m:
                k += 1
            assert multiplicative_order(a, m) == k


def test_faro_orders_for_huge_decks_match_sympy() -> None:
    for n in (10**18, 10**18 + 2, 2 * 10**18, 999_999_999_999_999_998, 10**18 + 1):
        for mode in ("out", "in"):
            d = faro_order_details(n, mode)
            m = n if n % 2 else (n - 1 if mode == "out" else n + 1)
            assert d.modulus == m
            assert d.order == sympy.n_order(2, m)
            assert math.prod(p**e for p, e in d.order_factors.items()) == d.order


# ------------------------------------------------ theory vs decomposition


def test_number_theory_orders_agree_with_cycle_decomposition_up_to_200() -> None:
    for n in range(0, 201):
        for mode in ("out", "in"):
            p = faro_perm(n, mode)
            assert faro_order(n, mode) == p.order(), (n, mode)
            assert faro_cycle_counts(n, mode) == p.cycle_counts(), (n, mode)
    assert faro_order(52, "out") == 8
    assert faro_order(52, "in") == 52


def test_prime_2n_minus_1_bounds_the_out_shuffle_order_only_from_above() -> None:
    # "A prime 2N - 1 needs 2N - 2 out-shuffles" is only a bound: the order divides 2N - 2.
    for two_n in range(4, 400, 2):
        m = two_n - 1
        k = faro_order(two_n, "out")
        assert sympy.totient(m) % k == 0
    assert faro_order(8, "out") == 3  # 7 is prime, yet 3 shuffles suffice, not 6
    assert faro_order(54, "out") == 52  # 53 is prime and 2 is a primitive root mod 53
    # composite 2N - 1 = p*q: at most (p - 1)(q - 1) shuffles; 52 cards: at most 32, truly 8
    assert faro_order(52, "out") <= 2 * 16


def test_closed_forms_agree_with_decomposition(monkeypatch: pytest.MonkeyPatch) -> None:
    import croupier.theory as theory

    specs = [
        "faro-out",
        "faro-in*3",
        "unfaro-in*-2",
        "riffle",
        "riffle*4",
        "cut:7",
        "cut:-3*5",
        "reverse",
        "identity",
        "(faro-in)*6",
    ]
    expected = {(s, n): spec_cycle_counts(s, n) for s in specs for n in range(0, 70)}
    monkeypatch.setattr(theory, "BUILD_LIMIT", -1)  # force the closed forms
    for (s, n), counts in expected.items():
        assert spec_cycle_counts(s, n) == counts, (s, n)
    with pytest.raises(TooBigError, match="monge"):
        spec_cycle_counts("monge", 10)


def test_cycle_counts_of_power() -> None:
    rng = random.Random(5)
    for _ in range(50):
        p = Permutation(rng.sample(range(15), 15))
        k = rng.randrange(-10, 30)
        assert cycle_counts_of_power(p.cycle_counts(), k) == (p**k).cycle_counts()


def test_spec_order_big_decks_and_errors() -> None:
    assert spec_order("faro-out", 10**18) == sympy.n_order(2, 10**18 - 1)
    assert spec_order("cut:3", 10**18) == 10**18
    assert spec_order("reverse", 10**18 + 1) == 2
    with pytest.raises(TooBigError):
        spec_order("cut:1,riffle", 10**18)
    with pytest.raises(CroupierError):
        spec_order("riffle", -1)


# --------------------------------------------------------------- traces


def test_trace_of_16_out_shuffles_of_52_cards() -> None:
    expected = [False] * 7 + [True] + [False] * 7 + [True]
    assert trace("faro-out", 52, 16) == expected
    arr = list(range(52))
    states = trace_states("faro-out", arr, 16)
    assert [s == arr for s in states] == expected
    assert trace("faro-out", 10**18, 3) == [False, False, False]


# --------------------------------------------------------------- Elmsley


def _moves_to_perm(n: int, path: list[str]) -> Permutation:
    p = Permutation.identity(n)
    for how in path:
        p = p * faro_perm(n, how)
    return p


def _bfs_lengths(n: int, start: int) -> dict[int, int]:
    dist = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for x in frontier:
            for how in ("out", "in"):
                y = faro_perm(n, how).destination(x)
                if y not in dist:
                    dist[y] = dist[x] + 1
                    nxt.append(y)
        frontier = nxt
    return dist


def test_elmsley_binary_rule_is_verified_by_applying_and_is_shortest() -> None:
    for n in range(1, 41):
        shortest = _bfs_lengths(n, 0)
        for k in range(n):
            path = elmsley(n, k)
            deck = list(range(n))
            assert _moves_to_perm(n, path).apply(deck)[k] == 0  # the top card is now at k
            assert len(path) == shortest[k] == k.bit_length()
    assert elmsley(52, 5) == ["in", "out", "in"]
    assert follow(10**18, 0, elmsley(10**18, 123456789012345678)) == 123456789012345678


def test_elmsley_general_search_is_verified_and_shortest() -> None:
    for n in (2, 3, 6, 7, 10, 13, 52):
        for i in range(n):
            shortest = _bfs_lengths(n, i)
            for j in range(n):
                assert j in shortest  # every position is reachable
                path = elmsley(n, j, frm=i)
                assert len(path) == shortest[j]
                assert _moves_to_perm(n, path).apply(list(range(n)))[j] == i
                assert follow(n, i, path) == j


def test_elmsley_bad_positions() -> None:
    with pytest.raises(CroupierError):
        elmsley(52, 52)
    with pytest.raises(CroupierError):
        elmsley(52, 3, frm=-1)
    with pytest.raises(CroupierError):
        elmsley(0, 0)
    with pytest.raises(TooBigError):
        elmsley(10**9, 3, frm=5)


# --------------------------------------------------------------- groups


def _closure_order(gens: list[Permutation]) -> int:
    n = len(gens[0])
    seen = {Permutation.identity(n)}
    frontier = list(seen)
    while frontier:
        nxt = []
        for g in frontier:
            for h in gens:
                x = g * h
                if x not in seen:
                    seen.add(x)
                    nxt.append(x)
        frontier = nxt
    return len(seen)


@pytest.mark.parametrize(
    "specs",
    [
        ["faro-in", "faro-out"],
        ["cut:1", "riffle"],
        ["monge", "faro-out"],
        ["milk"],
        ["cut:1", "reverse"],
        ["pile:3", "cut:2"],
    ],
)
def test_group_order_matches_brute_force_closure(specs: list[str]) -> None:
    for n in range(2, 8):
        gens = [parse_spec(s).permutation(n) for s in specs]
        info = shuffle_group(specs, n)
        order = _closure_order(gens)
        assert info.order == order
        assert info.is_symmetric == (order == math.factorial(n))
        assert info.is_alternating == (
            order == math.factorial(n) // 2 and all(g.is_even() for g in gens)
        )


def test_perfect_shuffle_group_of_52_cards() -> None:
    # Diaconis, Graham & Kantor (1983): for 2n cards with n ≡ 2 (mod 4), n > 6, the group
    # generated by the in- and out-shuffles has order 2**n * n!; here n = 26.
    info = shuffle_group(["faro-in", "faro-out"], 52)
    assert info.order == 2**26 * math.factorial(26)
    assert not info.is_symmetric and not info.is_alternating
    # and for a power of two, 2**k cards, the order is k * 2**k
    assert shuffle_group(["faro-in", "faro-out"], 16).order == 4 * 16


def test_group_reports_alternating_and_symmetric() -> None:
    alt = shuffle_group(["cut:1", "riffle"], 9)
    assert alt.is_alternating and not alt.is_symmetric
    assert alt.order == math.factorial(9) // 2
    full = shuffle_group(["cut:1", "riffle"], 6)
    assert full.is_symmetric and full.order == 720
    assert shuffle_group([Permutation([1, 0, 2])], 3).order == 2
    with pytest.raises(CroupierError):
        shuffle_group([], 5)
    with pytest.raises(CroupierError):
        shuffle_group([Permutation([1, 0])], 5)


# ------------------------------------------------------- limits and fast paths


def test_factorint_gives_up_cleanly_instead_of_hanging(monkeypatch: pytest.MonkeyPatch) -> None:
    import croupier.theory as theory

    assert factorint(2**600 * 3**5) == {2: 600, 3: 5}  # trial division needs no limit
    with pytest.raises(TooBigError, match="bit"):
        factorint(10**4096 - 1)
    with pytest.raises(TooBigError):
        faro_order(10**4096, "out")
    monkeypatch.setattr(theory, "RHO_BUDGET", 1000)  # far below the ~30000 steps needed
    with pytest.raises(TooBigError, match="quickly"):
        factorint(999999937 * 1000000007)


@pytest.mark.parametrize(
    "specs",
    [
        ["cut:1", "riffle"],
        ["cut:1", "faro-out"],
        ["faro-in", "faro-out"],
        ["cut:1", "reverse"],
        ["monge", "milk"],
        ["cut:2", "pile:3"],
        ["kfaro:3", "cut:1"],
    ],
)
def test_group_fast_path_agrees_with_schreier_sims(specs: list[str]) -> None:
    from sympy.combinatorics import Permutation as SymPerm
    from sympy.combinatorics import PermutationGroup

    for n in range(8, 15):
        gens = [parse_spec(s).permutation(n) for s in specs]
        order = int(PermutationGroup([SymPerm(g.tolist()) for g in gens]).order())
        info = shuffle_group(specs, n)
        assert info.order == order, (specs, n)
        assert math.prod(p**e for p, e in info.order_factors.items()) == order
        assert info.is_symmetric == (order == math.factorial(n))
        assert info.is_alternating == (order == math.factorial(n) // 2)


def test_group_of_a_thousand_cards_is_recognised_at_once() -> None:
    info = shuffle_group(["cut:1", "riffle"], 1001)
    assert info.is_alternating and not info.is_symmetric  # both generators are even
    assert info.order == math.factorial(1001) // 2
    # Legendre: the exponent of p in 1001! is sum(1001 // p**i)
    for p in (2, 3, 7, 997):
        legendre = sum(1001 // p**i for i in range(1, 12))
        assert info.order_factors[p] == legendre - (1 if p == 2 else 0)
    odd = shuffle_group(["cut:1", "faro-out"], 1000)  # a 1000-cycle is odd
    assert odd.is_symmetric and odd.order == math.factorial(1000)


@pytest.mark.parametrize("n", [0, 1, 2, 52, 10**18])
def test_every_faro_function_refuses_an_unknown_mode_for_every_deck_size(n: int) -> None:
    from croupier.errors import ShuffleSpecError
    from croupier.moves import faro, kway_faro_perm, unfaro_perm

    calls = [
        lambda: faro_order(n, "sideways"),  # type: ignore[arg-type]
        lambda: faro_order_details(n, "sideways"),  # type: ignore[arg-type]
        lambda: faro_cycle_counts(n, "sideways"),  # type: ignore[arg-type]
    ]
    if n <= 52:
        calls += [
            lambda: faro_perm(n, "sideways"),  # type: ignore[arg-type]
            lambda: unfaro_perm(n, "sideways"),  # type: ignore[arg-type]
            lambda: kway_faro_perm(n, 3, "sideways"),  # type: ignore[arg-type]
            lambda: faro(list(range(n)), "sideways"),  # type: ignore[arg-type]
        ]
    if n >= 1:
        calls.append(lambda: follow(n, 0, ["in", "sideways"]))
    for call in calls:
        with pytest.raises(
            ShuffleSpecError, match="unknown faro mode 'sideways'; expected 'out' or 'in'"
        ):
            call()


def test_faro_modes_are_one_type_shared_by_moves_and_theory() -> None:
    from typing import get_args

    import croupier.theory as theory
    from croupier.moves import FARO_MODES, FaroMode

    assert FARO_MODES == get_args(FaroMode) == ("out", "in")
    assert not hasattr(theory, "Shuffle")
    assert set(elmsley(52, 0, frm=51)) <= set(FARO_MODES)
    assert faro_order_details(52, "in").mode == "in"


def test_missing_sympy_names_the_extra_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    import croupier.theory as theory
    from croupier.errors import CroupierError, MissingExtraError

    monkeypatch.setitem(sys.modules, "sympy.combinatorics", None)  # makes the import fail
    with pytest.raises(MissingExtraError, match=r"pip install 'croupier\[groups\]'") as info:
        shuffle_group(["faro-out"], 8)
    assert isinstance(info.value, CroupierError) and "\n" not in str(info.value)
    assert "MissingExtraError" not in vars(theory).get("__all__", [])
