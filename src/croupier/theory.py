"""The mathematics of deterministic shuffles: orders, traces, Elmsley's problem, groups.

Why eight out-shuffles restore 52 cards: number the positions ``0..51``.  An
out-shuffle sends the card at ``x < 51`` to ``2x mod 51`` and leaves the bottom
card alone, so after ``k`` shuffles the card is at ``2**k * x mod 51``.  Every
card is home exactly when ``2**k ≡ 1 (mod 51)``, and the least such ``k`` is the
multiplicative order of 2 modulo 51, which is 8 (``2**8 = 256 = 5 * 51 + 1``).
In general an out-shuffle of ``2N`` cards has order ``ord(2 mod 2N-1)`` and an
in-shuffle ``ord(2 mod 2N+1)``; with the factorisation of the modulus this is
computed instantly even for ``10**18`` cards.

>>> faro_order(52, "out"), faro_order(52, "in")
(8, 52)
>>> faro_order(10**18, "out")
9746383860
>>> spec_order("dealers-move:2", 6)
6
>>> elmsley(52, 5)
['in', 'out', 'in']
>>> trace("faro-out", 52, 9)
[False, False, False, False, False, False, False, True, False]
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from croupier.errors import MissingExtraError, RangeError
from croupier.moves import FARO_MODES, FaroMode, parse_faro_mode
from croupier.perm import Permutation
from croupier.spec import Chain, Move, Repeat, ShuffleSpec, Step, parse_spec

__all__ = [
    "BUILD_LIMIT",
    "GROUP_LIMIT",
    "SCHREIER_SIMS_LIMIT",
    "FaroOrder",
    "GroupInfo",
    "TooBigError",
    "cycle_counts_of_power",
    "elmsley",
    "factorint",
    "faro_cycle_counts",
    "faro_order",
    "faro_order_details",
    "follow",
    "is_prime",
    "multiplicative_order",
    "shuffle_group",
    "spec_cycle_counts",
    "spec_order",
    "trace",
    "trace_states",
]

T = TypeVar("T")

#: Decks up to this size are built as permutations; beyond it only closed forms are used.
BUILD_LIMIT = 10_000_000

#: Elmsley searches (breadth-first over positions) are limited to decks this size.
SEARCH_LIMIT = 2_000_000

#: Groups that are not the symmetric or alternating group are computed (Schreier–Sims)
#: up to this many cards; beyond it that takes minutes to hours, so it is refused.
SCHREIER_SIMS_LIMIT = 64

#: The largest deck :func:`shuffle_group` takes at all.
GROUP_LIMIT = 10_000


def _shown(n: int) -> str:
    """``n`` for a message, or its size when it is long (no 4,300-digit ``str()``).

    >>> _shown(52), _shown(10**1000)
    ('52', 'a 3322-bit number')
    """
    return str(n) if n.bit_length() < 200 else f"a {n.bit_length()}-bit number"


class TooBigError(RangeError):
    """The deck is too big to build and no closed form covers the request."""


# ------------------------------------------------------------ number theory
_SMALL_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47)


def is_prime(n: int) -> bool:
    """Deterministic Miller–Rabin primality test (exact for ``n < 3.3 * 10**24``; beyond, a
    strong probable-prime test with many bases).

    >>> [p for p in range(30) if is_prime(p)]
    [2, 3, 5, 7, 11, 13, 17, 19, 23, 29]
    >>> is_prime(2**61 - 1), is_prime(10**18 + 1)
    (True, False)
    """
    if n < 2:
        return False
    for p in _SMALL_PRIMES:
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    bases = (
        _SMALL_PRIMES
        if n < 3_317_044_064_679_887_385_961_981
        else (*_SMALL_PRIMES, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97)
    )
    for a in bases:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


#: Pollard-rho steps allowed per factorisation (about a second): prime factors up to ~10**12.
RHO_BUDGET = 3_000_000

#: Numbers left with more bits than this after trial division are not factored.
FACTOR_BITS = 512


def _rho(n: int, spent: list[int]) -> int:
    """A non-trivial factor of the odd composite ``n`` (Pollard's rho, Brent's variant).

    ``spent[0]`` counts the steps taken so far in this factorisation; past
    :data:`RHO_BUDGET` it gives up with :class:`TooBigError`.
    """
    c = 1
    while True:
        y, r, q, g = 2, 1, 1, 1
        x = ys = 2
        m = 128
        while g == 1:
            x = y
            for _ in range(r):
                y = (y * y + c) % n
            k = 0
            while k < r and g == 1:
                ys = y
                for _ in range(min(m, r - k)):
                    y = (y * y + c) % n
                    q = q * abs(x - y) % n
                g = math.gcd(q, n)
                k += m
            spent[0] += 2 * r
            if spent[0] > RHO_BUDGET:
                raise TooBigError(
                    f"cannot factor {_shown(n)} quickly (no prime factor below about 10**12 "
                    "turned up); decks up to 10**18 cards always work"
                )
            r *= 2
        if g == n:
            g = 1
            while g == 1:
                ys = (ys * ys + c) % n
                g = math.gcd(abs(x - ys), n)
        if g != n:
            return g
        c += 1


def factorint(n: int) -> dict[int, int]:
    """The prime factorisation ``{prime: exponent}`` of ``n >= 1`` (trial division + Pollard rho).

    Fast for numbers up to about ``10**30`` unless they are products of two huge primes;
    gives up with :class:`TooBigError` (after about a second) when no prime factor below
    about ``10**12`` turns up, and at once for a part of more than 512 bits left after
    trial division.

    >>> factorint(51), factorint(1), factorint(10**18 - 1)
    ({3: 1, 17: 1}, {}, {3: 4, 7: 1, 11: 1, 13: 1, 19: 1, 37: 1, 52579: 1, 333667: 1})
    """
    if n < 1:
        raise RangeError(f"can only factor integers >= 1, got {n}")
    out: dict[int, int] = {}
    for p in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71):
        while n % p == 0:
            out[p] = out.get(p, 0) + 1
            n //= p
    if n.bit_length() > FACTOR_BITS:
        raise TooBigError(
            f"cannot factor a {n.bit_length()}-bit number (limit {FACTOR_BITS} bits, about "
            "154 digits, after removing small primes); decks up to 10**18 cards always work"
        )
    stack = [n] if n > 1 else []
    spent = [0]
    while stack:
        m = stack.pop()
        if is_prime(m):
            out[m] = out.get(m, 0) + 1
            continue
        r = math.isqrt(m)
        if r * r == m:
            stack += [r, r]
            continue
        d = _rho(m, spent)
        stack += [d, m // d]
    return dict(sorted(out.items()))


def _order_mod_prime_power(a: int, p: int, e: int, cache: dict[int, dict[int, int]]) -> int:
    if p not in cache:
        cache[p] = factorint(p - 1)
    t = p - 1
    for q in cache[p]:
        while t % q == 0 and pow(a, t // q, p) == 1:
            t //= q
    pe = p**e
    while pow(a, t, pe) != 1:
        t *= p
    return t


def multiplicative_order(a: int, m: int, factors: dict[int, int] | None = None) -> int:
    """The least ``k >= 1`` with ``a**k ≡ 1 (mod m)`` (``gcd(a, m)`` must be 1; ``m = 1`` gives 1).

    >>> multiplicative_order(2, 51), multiplicative_order(2, 53), multiplicative_order(10, 7)
    (8, 52, 6)
    """
    if m < 1:
        raise RangeError(f"modulus must be >= 1, got {m}")
    if math.gcd(a, m) != 1:
        raise RangeError(f"{a} has no multiplicative order mod {m}: they share a factor")
    if m == 1:
        return 1
    fac = factorint(m) if factors is None else factors
    cache: dict[int, dict[int, int]] = {}
    result = 1
    for p, e in fac.items():
        result = math.lcm(result, _order_mod_prime_power(a, p, e, cache))
    return result


# ----------------------------------------------------------- faro structure
def _faro_modulus(n: int, mode: FaroMode) -> tuple[int, int]:
    """(m, fixed adjustment): the faro acts as x -> 2x on Z/m, plus/minus one fixed point."""
    if n < 0:
        raise RangeError(f"deck size must be >= 0, got {n}")
    if n % 2:
        return n, 0
    if mode == "out":
        return n - 1, 1  # the bottom card is an extra fixed point
    return n + 1, -1  # residue 0 is not a card


@dataclass(frozen=True)
class FaroOrder:
    """How many perfect shuffles restore ``cards`` cards, with the number theory behind it.

    ``order`` is the multiplicative order of 2 modulo ``modulus`` (``2N-1`` for an
    out-shuffle of ``2N`` cards, ``2N+1`` for an in-shuffle, ``n`` for odd ``n``).
    """

    cards: int
    mode: FaroMode
    modulus: int
    modulus_factors: dict[int, int] = field(repr=False)
    order: int
    order_factors: dict[int, int] = field(repr=False)


def faro_order_details(n: int, mode: FaroMode = "out") -> FaroOrder:
    """:func:`faro_order` with the modulus and the factorisations used.

    >>> d = faro_order_details(52, "out")
    >>> d.modulus, d.modulus_factors, d.order, d.order_factors
    (51, {3: 1, 17: 1}, 8, {2: 3})
    """
    mode = parse_faro_mode(mode)
    if n == 0:
        return FaroOrder(0, mode, 1, {}, 1, {})
    m, _ = _faro_modulus(n, mode)
    fac = factorint(m)
    order = multiplicative_order(2, m, fac)
    return FaroOrder(n, mode, m, fac, order, factorint(order))


def faro_order(n: int, mode: FaroMode = "out") -> int:
    """How many perfect ``mode`` shuffles bring ``n`` cards back, by number theory (any ``n``).

    >>> faro_order(52, "out"), faro_order(52, "in"), faro_order(50, "out")
    (8, 52, 21)
    >>> faro_order(2 * 10**18, "in")
    166666665963686860
    """
    return faro_order_details(n, mode).order


def _divisors(fac: dict[int, int]) -> list[dict[int, int]]:
    divs: list[dict[int, int]] = [{}]
    for p, e in fac.items():
        divs = [{**d, p: k} for d in divs for k in range(e + 1)]
    return [{p: k for p, k in d.items() if k} for d in divs]


def faro_cycle_counts(n: int, mode: FaroMode = "out") -> dict[int, int]:
    """The cycle type ``{length: count}`` of a perfect shuffle of ``n`` cards, by number theory.

    Multiplication by 2 on ``Z/m`` splits the residues with ``gcd(x, m) = m/d`` (there
    are ``φ(d)`` of them) into cycles of length ``ord(2 mod d)``, for each divisor ``d``.

    >>> faro_cycle_counts(52, "out")
    {8: 6, 2: 1, 1: 2}
    >>> faro_cycle_counts(10**18, "out")[9746383860]
    93078720
    """
    mode = parse_faro_mode(mode)
    if n == 0:
        return {}
    m, adjust = _faro_modulus(n, mode)
    fac = factorint(m)
    cache: dict[int, dict[int, int]] = {}
    pp_order: dict[tuple[int, int], int] = {}
    for p, e in fac.items():
        for k in range(1, e + 1):
            pp_order[p, k] = _order_mod_prime_power(2, p, k, cache) if p != 2 else 1
    counts: dict[int, int] = {}
    for d in _divisors(fac):
        phi = 1
        length = 1
        for p, k in d.items():
            phi *= (p - 1) * p ** (k - 1)
            length = math.lcm(length, pp_order[p, k])
        counts[length] = counts.get(length, 0) + phi // length
    counts[1] = counts.get(1, 0) + adjust
    if counts[1] == 0:
        del counts[1]
    return dict(sorted(counts.items(), reverse=True))


# ---------------------------------------------------------- spec orders
def cycle_counts_of_power(counts: dict[int, int], k: int) -> dict[int, int]:
    """The cycle type of ``p ** k`` from that of ``p``: an ``L``-cycle splits into ``gcd(L, k)``.

    >>> cycle_counts_of_power({6: 1, 1: 2}, 2)
    {3: 2, 1: 2}
    """
    out: dict[int, int] = {}
    for length, c in counts.items():
        g = math.gcd(length, k) if k else length
        out[length // g] = out.get(length // g, 0) + c * g
    return dict(sorted(out.items(), reverse=True))


def _closed_form(step: Step, n: int) -> dict[int, int] | None:
    """Cycle counts of a single (possibly repeated) move on ``n`` cards without building it."""
    times = 1
    while isinstance(step, Repeat) or (isinstance(step, Chain) and len(step.steps) == 1):
        if isinstance(step, Repeat):
            times *= step.times
            step = step.body
        else:
            step = step.steps[0]
    if not isinstance(step, Move):
        return None
    name = step.name
    counts: dict[int, int]
    if n == 0:
        return {}
    if name in ("faro-out", "faro-in", "unfaro-out", "unfaro-in"):
        counts = faro_cycle_counts(n, parse_faro_mode(name.rsplit("-", 1)[1]))
    elif name == "riffle":
        if n % 2 == 0:
            counts = faro_cycle_counts(n, "out")
        else:
            counts = dict(faro_cycle_counts(n - 1, "out"))
            counts[1] = counts.get(1, 0) + 1
    elif name == "cut":
        g = math.gcd(int(step.arg or 0) % n, n)
        counts = {n // g: g} if g else {1: n}
    elif name == "reverse":
        counts = {2: n // 2, 1: n % 2} if n % 2 else {2: n // 2}
    elif name == "identity":
        counts = {1: n}
    else:
        return None
    return cycle_counts_of_power({k: v for k, v in counts.items() if v}, times)


def spec_cycle_counts(spec: str | ShuffleSpec, n: int) -> dict[int, int]:
    """The cycle type ``{length: count}`` of a shuffle spec on ``n`` cards.

    Decks up to :data:`BUILD_LIMIT` are built and decomposed into cycles; bigger decks
    work for a single repeated faro, riffle, cut or reverse (closed forms).

    >>> spec_cycle_counts("faro-out", 52)
    {8: 6, 2: 1, 1: 2}
    >>> spec_cycle_counts("cut:4", 10**18)
    {250000000000000000: 4}
    """
    parsed = parse_spec(spec)
    if n < 0:
        raise RangeError(f"deck size must be >= 0, got {n}")
    if n <= BUILD_LIMIT:
        return parsed.permutation(n).cycle_counts()
    counts = _closed_form(parsed.body, n)
    if counts is None:
        raise TooBigError(
            f"{n} cards is too many to build spec {str(parsed)!r} (limit {BUILD_LIMIT}); "
            "bigger decks work for one repeated faro-out, faro-in, riffle, cut or reverse"
        )
    return counts


def spec_order(spec: str | ShuffleSpec, n: int) -> int:
    """How many times the spec must be repeated to restore ``n`` cards (lcm of cycle lengths).

    >>> spec_order("faro-out", 52), spec_order("faro-in*2", 52), spec_order("monge", 52)
    (8, 26, 12)
    >>> spec_order("faro-out", 10**18) == faro_order(10**18, "out")
    True
    """
    return math.lcm(1, *spec_cycle_counts(spec, n))


def trace(spec: str | ShuffleSpec, n: int, times: int) -> list[bool]:
    """After each of ``times`` repetitions of ``spec`` on ``n`` cards: is the deck back to start?

    For example, of 16 out-shuffles of 52 cards, exactly the 8th and the 16th restore the deck.

    >>> [i + 1 for i, back in enumerate(trace("faro-out", 52, 16)) if back]
    [8, 16]
    """
    if times < 0:
        raise RangeError(f"number of repetitions must be >= 0, got {times}")
    order = spec_order(spec, n)
    return [(i + 1) % order == 0 for i in range(times)]


def trace_states(spec: str | ShuffleSpec, seq: Sequence[T], times: int) -> list[list[T]]:
    """The deck after each of ``times`` repetitions of ``spec``, starting from ``seq``.

    >>> trace_states("faro-out", "abcd", 2)
    [['a', 'c', 'b', 'd'], ['a', 'b', 'c', 'd']]
    """
    if times < 0:
        raise RangeError(f"number of repetitions must be >= 0, got {times}")
    p = parse_spec(spec).permutation(len(seq))
    out: list[list[T]] = []
    state: list[T] = list(seq)
    for _ in range(times):
        state = p.apply(state)
        out.append(state)
    return out


# ----------------------------------------------------------------- Elmsley
def _dest(x: int, n: int, mode: FaroMode) -> int:
    """Where a perfect ``mode`` shuffle of ``n`` cards moves the card at position ``x``."""
    top = (n + 1) // 2 if mode == "out" else n // 2
    if mode == "out":
        return 2 * x if x < top else 2 * (x - top) + 1
    return 2 * x + 1 if x < top else 2 * (x - top)


def follow(n: int, position: int, moves: Iterable[FaroMode]) -> int:
    """Track one card through perfect shuffles of ``n`` cards (any size; no deck is built).

    >>> follow(52, 0, ["in", "out", "in"])
    5
    >>> follow(10**18, 0, ["in"] * 3)
    7
    """
    if not 0 <= position < n:
        raise RangeError(f"position {position} is outside 0..{n - 1}")
    for mode in moves:
        position = _dest(position, n, parse_faro_mode(mode))
    return position


def elmsley(n: int, to: int, frm: int = 0) -> list[FaroMode]:
    """The shortest sequence of perfect in/out shuffles moving the card at ``frm`` to ``to``.

    Positions count from 0 at the top.  From the top card (``frm = 0``) Elmsley's
    binary rule answers at once for any deck size: write ``to`` in binary and read
    the digits from the leading 1, doing an in-shuffle for each 1 and an
    out-shuffle for each 0 (an in-shuffle sends ``x`` to ``2x + 1``, an out-shuffle
    to ``2x``).  No sequence can be shorter, since ``j`` shuffles move the top card
    at most to ``2**j - 1``.  Other starting positions are solved by a
    breadth-first search (decks up to 2,000,000 cards).  A way always exists: the
    shuffles generate a finite group, in which the top card reaches every position,
    so every position reaches every other.

    >>> elmsley(52, 6)
    ['in', 'in', 'out']
    >>> elmsley(52, 0)
    []
    >>> elmsley(10**18, 10**18 - 1)[:3]
    ['in', 'in', 'out']
    >>> elmsley(52, 0, frm=51)
    ['in', 'in', 'out', 'out', 'in', 'in']
    >>> elmsley(4, 1, frm=0), elmsley(4, 3, frm=0), elmsley(2, 1, frm=0)
    (['in'], ['in', 'in'], ['in'])
    """
    if n < 1:
        raise RangeError(f"deck size must be >= 1, got {n}")
    for name, pos in (("target", to), ("start", frm)):
        if not 0 <= pos < n:
            raise RangeError(f"{name} position {pos} is outside 0..{n - 1}")
    if frm == to:
        return []
    if frm == 0:
        return ["in" if bit == "1" else "out" for bit in bin(to)[2:]]
    if n > SEARCH_LIMIT:
        raise TooBigError(
            f"searching {_shown(n)} cards from position {_shown(frm)} is too big "
            f"(limit {SEARCH_LIMIT}); "
            "from the top card (frm=0) any size works"
        )
    parent: dict[int, tuple[int, FaroMode]] = {frm: (frm, "out")}
    queue = deque([frm])
    while queue:
        x = queue.popleft()
        for mode in FARO_MODES:
            y = _dest(x, n, mode)
            if y not in parent:
                parent[y] = (x, mode)
                if y == to:
                    path: list[FaroMode] = []
                    while y != frm:
                        y, how = parent[y]
                        path.append(how)
                    return path[::-1]
                queue.append(y)
    raise RangeError(f"no in/out sequence moves {frm} to {to} in {n} cards")  # pragma: no cover


# ------------------------------------------------------------------ groups
@dataclass(frozen=True)
class GroupInfo:
    """The permutation group generated by some shuffles of ``degree`` cards."""

    degree: int
    generators: tuple[str, ...]
    order: int
    is_symmetric: bool
    is_alternating: bool
    factors: dict[int, int] | None = field(default=None, repr=False, compare=False)

    @property
    def order_factors(self) -> dict[int, int]:
        """The factorisation of :attr:`order`.

        >>> GroupInfo(3, ("x",), 6, True, False).order_factors
        {2: 1, 3: 1}
        """
        return dict(self.factors) if self.factors is not None else factorint(self.order)


def _factor_product(values: Iterable[int]) -> dict[int, int]:
    """The factorisation of a product of small positive integers (each factored alone)."""
    out: dict[int, int] = {}
    for v in values:
        for p, e in factorint(v).items():
            out[p] = out.get(p, 0) + e
    return dict(sorted(out.items()))


def shuffle_group(generators: Iterable[str | ShuffleSpec | Permutation], n: int) -> GroupInfo:
    """The group generated by shuffles on ``n`` cards (Schreier–Sims via sympy, extra ``groups``).

    Reports the exact order, and whether the shuffles reach every arrangement
    (the symmetric group) or exactly the even ones (the alternating group).
    Symmetric and alternating groups are recognised at once for any size (a
    Monte Carlo test whose "yes" is a proof: a transitive group with a prime
    cycle of length ``p``, ``n/2 < p < n - 2``, contains the alternating group);
    other groups need the Schreier–Sims algorithm, which is run up to
    :data:`SCHREIER_SIMS_LIMIT` cards (beyond it, it takes minutes to hours).

    >>> g = shuffle_group(["faro-in", "faro-out"], 8)
    >>> g.order, g.is_symmetric, g.is_alternating
    (24, False, False)
    >>> shuffle_group(["cut:1", "riffle"], 5).is_symmetric
    True
    >>> shuffle_group(["cut:1", "riffle"], 1001).order_factors[2]
    993
    """
    try:
        from sympy.combinatorics import Permutation as SymPerm
        from sympy.combinatorics import PermutationGroup
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise MissingExtraError(
            "computing shuffle groups needs sympy: pip install 'croupier[groups]'"
        ) from exc
    if n < 0:
        raise RangeError(f"deck size must be >= 0, got {n}")
    if n > GROUP_LIMIT:
        raise TooBigError(
            f"{_shown(n)} cards is too many for a group computation (limit {GROUP_LIMIT})"
        )
    names: list[str] = []
    perms: list[Permutation] = []
    for g in generators:
        if isinstance(g, Permutation):
            if len(g) != n:
                raise RangeError(f"generator of size {len(g)} on a deck of {n} cards")
            perms.append(g)
            names.append(g.format("cycles"))
        else:
            spec = parse_spec(g)
            perms.append(spec.permutation(n))
            names.append(str(spec))
    if not perms:
        raise RangeError("give at least one shuffle to generate a group")
    all_even = all(p.is_even() for p in perms)
    pieces: list[int]  # the order is their product (basic orbit lengths, or n!)
    if n <= 1:
        pieces = []
    else:
        group: Any = PermutationGroup([SymPerm(p.tolist()) for p in perms])
        if n >= 8 and group.is_alt_sym(eps=1e-9):
            # Proven to contain A_n: S_n if some generator is odd, otherwise A_n.
            pieces = list(range(3 if all_even else 2, n + 1))
        elif n > SCHREIER_SIMS_LIMIT:
            raise TooBigError(
                f"the group on {n} cards is neither the symmetric nor the alternating group, "
                f"and its exact order is computed up to {SCHREIER_SIMS_LIMIT} cards only"
            )
        else:
            group.schreier_sims()
            pieces = [len(orbit) for orbit in group.basic_orbits]
    factors = _factor_product(pieces)
    order = math.prod(pieces)
    full = math.factorial(n)
    return GroupInfo(
        degree=n,
        generators=tuple(names),
        order=order,
        is_symmetric=order == full,
        is_alternating=all_even and order == max(1, full // 2),
        factors=factors,
    )
