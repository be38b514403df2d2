"""Exact distributions of random algorithms, by walking their decision trees.

A random algorithm written against the :class:`~croupier.randomness.uniform.Chooser`
protocol makes a sequence of choices ``below(n1)``, ``below(n2)``, ... .
:func:`exact_distribution` runs it once for every possible sequence of answers,
weighting each run by the exact probability ``1/(n1*n2*...)``, and adds up the
weights of equal outcomes.  The answer is exact (``fractions.Fraction``), so
uniformity and bias can be shown, not estimated.

>>> def two_coins(chooser: Chooser) -> int:
...     return chooser.below(2) + chooser.below(2)
>>> exact_distribution(two_coins)
{0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import TypeVar

from croupier.errors import CroupierError
from croupier.randomness.source import BitSource
from croupier.randomness.uniform import Chooser

__all__ = [
    "ReplayBitSource",
    "ScriptedChooser",
    "WalkTooLargeError",
    "exact_distribution",
    "exact_distribution_bits",
    "exact_distribution_truncated",
]

T = TypeVar("T", bound=Hashable)


class WalkTooLargeError(CroupierError):
    """The decision tree has more leaves than the walk was allowed to visit."""


class _NeedChoice(Exception):
    """Raised by :class:`ScriptedChooser` when the script runs out."""

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self.n = n


class ScriptedChooser:
    """A chooser that replays a fixed list of answers (for tests and walks).

    >>> c = ScriptedChooser([2, 0])
    >>> c.below(3), c.below(5)
    (2, 0)
    """

    __slots__ = ("_pos", "_script")

    def __init__(self, script: list[int] | tuple[int, ...]) -> None:
        self._script = tuple(script)
        self._pos = 0

    def below(self, n: int) -> int:
        if n < 1:
            raise CroupierError(f"cannot choose below {n}: the range [0, {n}) is empty")
        if n == 1:
            return 0
        if self._pos >= len(self._script):
            raise _NeedChoice(n)
        value = self._script[self._pos]
        self._pos += 1
        if not 0 <= value < n:
            raise CroupierError(f"scripted choice {value} is not below {n}")
        return value


def _too_many_paths(max_leaves: int) -> WalkTooLargeError:
    return WalkTooLargeError(
        f"more than {max_leaves} random paths; use a smaller case or a larger max_leaves="
    )


def exact_distribution(
    algorithm: Callable[[Chooser], T], *, max_leaves: int = 2_000_000
) -> dict[T, Fraction]:
    """The exact probability of every outcome of ``algorithm``.

    ``algorithm`` receives a :class:`Chooser` and must make all its random
    choices through ``below``; its result must be hashable (return tuples, not
    lists).  Only outcomes with non-zero probability appear; the probabilities
    sum to exactly 1.  Raises :class:`WalkTooLargeError` past ``max_leaves`` runs.

    >>> def pick_one_of_three(chooser: Chooser) -> str:
    ...     return "abc"[chooser.below(3)]
    >>> exact_distribution(pick_one_of_three)
    {'a': Fraction(1, 3), 'b': Fraction(1, 3), 'c': Fraction(1, 3)}
    """
    return _walk(algorithm, None, max_leaves)[0]


def exact_distribution_truncated(
    algorithm: Callable[[Chooser], T], max_choices: int, *, max_leaves: int = 2_000_000
) -> tuple[dict[T, Fraction], Fraction]:
    """Exact outcome probabilities over runs making at most ``max_choices`` choices.

    For algorithms whose decision tree is infinite (rejection, Rao–Sandelius):
    returns ``(finished, unfinished)`` where ``finished`` maps outcomes to the
    exact probability of finishing with them within ``max_choices`` choices
    and ``unfinished`` is the exact probability of needing more; the two add
    up to exactly 1.

    >>> def retry(chooser: Chooser) -> int:
    ...     while (v := chooser.below(4)) == 3:
    ...         pass
    ...     return v
    >>> done, left = exact_distribution_truncated(retry, 2)
    >>> done[0], left
    (Fraction(5, 16), Fraction(1, 16))
    """
    return _walk(algorithm, max_choices, max_leaves)


def _walk(
    algorithm: Callable[[Chooser], T], max_choices: int | None, max_leaves: int
) -> tuple[dict[T, Fraction], Fraction]:
    """Walk the decision tree (down to ``max_choices`` choices, or all of it for ``None``)."""
    result: dict[T, Fraction] = {}
    unfinished = Fraction(0)
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    leaves = 0
    while stack:
        script, weight = stack.pop()
        try:
            outcome = algorithm(ScriptedChooser(script))
        except _NeedChoice as need:
            if max_choices is not None and len(script) >= max_choices:
                unfinished += weight
                continue
            share = weight / need.n
            stack.extend(((*script, v), share) for v in range(need.n - 1, -1, -1))
            continue
        leaves += 1
        if leaves > max_leaves:
            raise _too_many_paths(max_leaves)
        result[outcome] = result.get(outcome, Fraction(0)) + weight
    return dict(sorted(result.items(), key=lambda kv: repr(kv[0]))), unfinished


class _NeedBits(Exception):
    def __init__(self, k: int) -> None:
        super().__init__(k)
        self.k = k


class ReplayBitSource(BitSource):
    """A bit source that replays fixed bit chunks (for exact bit-level walks).

    ``chunks`` lists the values returned by successive ``bits(k)`` calls.

    >>> src = ReplayBitSource([5])
    >>> src.bits(3), src.bits_used
    (5, 3.0)
    """

    def __init__(self, chunks: Sequence[int]) -> None:
        super().__init__()
        self._chunks = tuple(chunks)
        self._pos = 0

    def _random_bits(self, k: int) -> int:
        if self._pos >= len(self._chunks):
            self._bits_used -= k
            raise _NeedBits(k)
        value = self._chunks[self._pos]
        self._pos += 1
        return value


def exact_distribution_bits(
    algorithm: Callable[[BitSource], T], max_bits: int, *, max_leaves: int = 2_000_000
) -> tuple[dict[T, tuple[Fraction, Fraction]], Fraction]:
    """Walk every bit string an algorithm can read from a source, up to ``max_bits``.

    Returns ``(finished, unfinished)``: ``finished`` maps each outcome to
    ``(probability, expected_bits_contribution)`` — the exact probability of
    finishing with that outcome within ``max_bits`` bits, and the sum over
    those runs of probability times bits read — and ``unfinished`` the exact
    probability that more than ``max_bits`` bits are needed.

    >>> from croupier.randomness.uniform import UniformSampler
    >>> done, left = exact_distribution_bits(lambda s: UniformSampler(s).below(3), 4)
    >>> done[0][0], left
    (Fraction(5, 16), Fraction(1, 16))
    """
    result: dict[T, tuple[Fraction, Fraction]] = {}
    unfinished = Fraction(0)
    stack: list[tuple[tuple[int, ...], int, Fraction]] = [((), 0, Fraction(1))]
    leaves = 0
    while stack:
        chunks, used, weight = stack.pop()
        source = ReplayBitSource(chunks)
        try:
            outcome = algorithm(source)
        except _NeedBits as need:
            if used + need.k > max_bits:
                unfinished += weight
                continue
            share = weight / (1 << need.k)
            stack.extend(
                ((*chunks, v), used + need.k, share) for v in range((1 << need.k) - 1, -1, -1)
            )
            continue
        leaves += 1
        if leaves > max_leaves:
            raise _too_many_paths(max_leaves)
        p, e = result.get(outcome, (Fraction(0), Fraction(0)))
        result[outcome] = (p + weight, e + weight * used)
    return dict(sorted(result.items(), key=lambda kv: repr(kv[0]))), unfinished
