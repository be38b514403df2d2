"""Numbers the docs state about bits per deal and shuffle groups, checked by exact computation.

Each test reads the figure from the page (or docstring) and recomputes it from
first principles, so a wrong sentence fails here.
"""

from __future__ import annotations

import itertools
import math
import re
from fractions import Fraction

from croupier.analysis.run import exact_report
from croupier.dealing import methods as deal_methods
from croupier.dealing.methods import deal_arithmetic, interval_attempt
from croupier.randomness import Chooser, exact_distribution
from croupier.shuffling import flawed
from croupier.theory import shuffle_group
from tests.conftest import ROOT

DEALING = (ROOT / "docs" / "dealing.md").read_text(encoding="utf-8")
RANDOMNESS = (ROOT / "docs" / "randomness.md").read_text(encoding="utf-8")
FAIRNESS = (ROOT / "docs" / "fairness.md").read_text(encoding="utf-8")
BRIDGE = (13, 13, 13, 13)


def _multinomial(sizes: tuple[int, ...]) -> int:
    out, n = 1, 0
    for k in sizes:
        n += k
        out *= math.comb(n, k)
    return out


def _table_bits(method: str) -> str:
    """The 'bits (bridge)' cell of ``method`` in the methods table of docs/dealing.md."""
    found = re.search(rf"^\| `{method}` \|.*\| ([^|]+) \|$", DEALING, re.MULTILINE)
    assert found, method
    return found.group(1)


def _docstring_bits(method: str) -> str:
    """The bits column of ``method`` in the table of :mod:`croupier.dealing.methods`."""
    doc = deal_methods.__doc__ or ""
    found = re.search(rf"^``{method}``.*?  (\S+)(?: \(.*\))?$", doc, re.MULTILINE)
    assert found, method
    return found.group(1)


# -- interval: a coin-flip binary search per card, restarted on the padding -------------


def _attempt_flips(left: tuple[int, ...]) -> tuple[int, int, int]:
    """``(a, s, m)``: one attempt costs ``a / 2**m`` flips on average, succeeds w.p. ``s / 2**m``.

    Positions ``0..T-1`` belong to the piles in turn, padded to ``2**m``; a flip
    halves the dyadic interval until it lies in one pile or in the padding.
    """
    if sum(1 for k in left if k) == 1:
        return 0, 1, 0
    total = sum(left)
    bounds = list(itertools.accumulate(left))
    m = (total - 1).bit_length()

    def walk(lo: int, size: int, depth: int) -> tuple[int, int]:
        weight = 1 << (m - depth)
        if lo >= total:
            return 0, 0
        owner = next(i for i, b in enumerate(bounds) if b > lo)
        if lo + size <= bounds[owner]:
            return 0, weight
        half = size // 2
        a1, s1 = walk(lo, half, depth + 1)
        a2, s2 = walk(lo + half, half, depth + 1)
        return weight + a1 + a2, s1 + s2

    flips, success = walk(0, 1 << m, 0)
    return flips, success, m


class _CountingChooser:
    """Passes coin flips on and counts them."""

    def __init__(self, inner: Chooser) -> None:
        self.inner = inner
        self.flips = 0

    def below(self, n: int) -> int:
        assert n == 2
        self.flips += 1
        return self.inner.below(n)


def test_attempt_model_matches_the_code_on_every_state_of_a_small_layout() -> None:
    for left in itertools.product(range(4), range(3), range(4), range(2)):
        if not sum(left):
            continue

        def attempt(chooser: Chooser, left: tuple[int, ...] = left) -> tuple[bool, int]:
            counting = _CountingChooser(chooser)
            pile = interval_attempt(list(left), counting)
            return pile is not None, counting.flips

        dist = exact_distribution(attempt)
        flips, success, m = _attempt_flips(left)
        assert sum(p * k for (_, k), p in dist.items()) == Fraction(flips, 2**m), left
        assert sum(p for (ok, _), p in dist.items() if ok) == Fraction(success, 2**m), left
        if sum(1 for k in left if k) > 1:
            assert success == sum(left)  # only the padding fails


def test_interval_bits_per_bridge_deal_are_stated_exactly() -> None:
    # A state (cards still needed per pile) is reached with probability
    # multinomial(dealt) * multinomial(left) / M; there a card costs (flips per
    # attempt) / P(success) = a / T coin flips, with T the cards left.
    by_total: dict[int, int] = {}
    worst = 0.0
    for dealt in itertools.product(*(range(k + 1) for k in BRIDGE)):
        left = tuple(k - d for k, d in zip(BRIDGE, dealt, strict=True))
        total = sum(left)
        flips, _success, _m = _attempt_flips(left)
        if not flips:
            continue
        weight = _multinomial(dealt) * _multinomial(left)
        by_total[total] = by_total.get(total, 0) + weight * flips
        entropy = -sum(k / total * math.log2(k / total) for k in left if k)
        worst = max(worst, flips / total - entropy)
    m_deals = _multinomial(BRIDGE)
    mean = sum(Fraction(v, t) for t, v in by_total.items()) / m_deals
    assert f"{float(mean):.2f}" == "225.56"
    assert _table_bits("interval") == f"{float(mean):.2f} (exact mean)"
    assert _docstring_bits("interval") == f"{float(mean):.2f}"
    prose = re.search(r"add up to\s+([\d.]+) bits on average", DEALING)
    assert prose and prose.group(1) == f"{float(mean):.2f}"
    assert "227" not in DEALING and "227" not in (deal_methods.__doc__ or "")
    # "on average 2.5 bits more than its entropy (up to 5.3 in the worst state)"
    excess = (float(mean) - math.log2(m_deals)) / sum(BRIDGE)
    stated = re.search(
        r"on average ([\d.]+) bits more than its entropy \(up\s+to ([\d.]+) in the worst state\)",
        DEALING,
    )
    assert stated and stated.groups() == (f"{excess:.1f}", f"{worst:.1f}")


# -- arithmetic: the flips read as one fraction, never restarted ---------------------------


class _OutOfFlips(Exception):
    pass


class _Flips:
    def __init__(self, bits: tuple[int, ...]) -> None:
        self.bits = list(bits)

    def below(self, n: int) -> int:
        assert n == 2
        if not self.bits:
            raise _OutOfFlips
        return self.bits.pop(0)


def _arithmetic_tail(m_deals: int, depth: int) -> Fraction:
    """P(more than ``depth`` flips): 1 - (dyadic intervals of that depth inside one deal's)."""
    n = 2**depth
    if n < m_deals:
        return Fraction(1)
    return Fraction(m_deals - math.gcd(m_deals, n), n)


def test_arithmetic_flip_count_tail_matches_the_code() -> None:
    sizes = (2, 2, 2)
    m_deals = _multinomial(sizes)
    for depth in range(11):
        unfinished = 0
        for bits in itertools.product((0, 1), repeat=depth):
            try:
                deal_arithmetic(sizes, _Flips(bits))
            except _OutOfFlips:
                unfinished += 1
        assert Fraction(unfinished, 2**depth) == _arithmetic_tail(m_deals, depth), depth


def test_arithmetic_bits_per_bridge_deal_are_stated_exactly() -> None:
    m_deals = _multinomial(BRIDGE)
    d0 = (m_deals - 1).bit_length()  # first depth with 2**d0 >= M
    two_adic = m_deals & -m_deals
    # sum of P(D > d): 1 for d < d0, then (M - 2**v) / 2**d, a geometric tail
    mean = d0 + Fraction(m_deals - two_adic, 2 ** (d0 - 1))
    assert mean == sum(_arithmetic_tail(m_deals, d) for d in range(d0 + 400)) + Fraction(
        m_deals - two_adic, 2 ** (d0 + 399)
    )
    excess = float(mean) - math.log2(m_deals)
    assert _table_bits("arithmetic") == f"{float(mean):.2f} (exact mean) = log2 M + {excess:.2f}"
    assert _docstring_bits("arithmetic") == f"{float(mean):.2f}"
    prose = re.search(r"costs ([\d.]+) flips on average \(log2 M \+\s+([\d.]+);", DEALING)
    assert prose and prose.groups() == (f"{float(mean):.2f}", f"{excess:.2f}")
    assert f"({float(mean):.2f} for bridge)" in (deal_methods.deal_arithmetic.__doc__ or "")


def test_other_bits_in_the_methods_table() -> None:
    log2_m = math.log2(_multinomial(BRIDGE))
    log2_deck = math.log2(math.factorial(52))
    log2_fraction = math.log2(math.factorial(52) // math.factorial(13))
    assert _table_bits("fraction") == f"{log2_fraction:.1f} = log2(52!/13!)"
    assert _docstring_bits("fraction") == f"{log2_fraction:.1f}"
    for method in ("block", "round-robin", "proportional"):
        assert _table_bits(method).startswith(f"{log2_deck:.1f}")
        assert _docstring_bits(method) == f"{log2_deck:.1f}"
    assert f"| {log2_m:.2f} = log2 M |" in DEALING
    assert _docstring_bits("optimal") == f"{log2_m:.2f}"


# -- randomize_list: the moves generate a big group; few moves reach little ----------------


def test_dealers_moves_generate_the_whole_group_not_a_small_one() -> None:
    assert "small group" not in RANDOMNESS
    assert "small group" not in (flawed.randomize_list_shuffle.__doc__ or "")

    def generated(n: int) -> str:
        group = shuffle_group([f"dealers-move:{k}" for k in range(n)], n)
        return "S" if group.is_symmetric else "A" if group.is_alternating else str(group.order)

    assert generated(52) == "S"
    assert {n: generated(n) for n in range(2, 13)} == {
        n: "A" if n in (3, 9, 11) else "S" for n in range(2, 13)
    }
    assert (
        "for 52 cards (and most sizes)\n  they generate the whole symmetric group `S_n`"
        in RANDOMNESS
    )
    assert "for some odd sizes such as 3, 9 and 11 every move is even" in RANDOMNESS
    # ... while 3 random cut values reach only n**3 of them
    report = exact_report("randomize-list", 8)
    assert report.reachable == 8**3 == 512
    assert "(512 of the 40,320 of 8 cards with 3 rounds" in RANDOMNESS
    assert "reaches 512 of 40320 arrangements of 8 cards" in FAIRNESS
