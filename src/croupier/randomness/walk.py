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

from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import TypeVar

from croupier.errors import CroupierError
from croupier.randomness.uniform import Chooser

__all__ = ["ScriptedChooser", "WalkTooLargeError", "exact_distribution"]

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
    result: dict[T, Fraction] = {}
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    leaves = 0
    while stack:
        script, weight = stack.pop()
        try:
            outcome = algorithm(ScriptedChooser(script))
        except _NeedChoice as need:
            share = weight / need.n
            stack.extend(((*script, v), share) for v in range(need.n - 1, -1, -1))
            continue
        leaves += 1
        if leaves > max_leaves:
            raise WalkTooLargeError(
                f"more than {max_leaves} random paths; use a smaller case or raise max_leaves"
            )
        result[outcome] = result.get(outcome, Fraction(0)) + weight
    return dict(sorted(result.items(), key=lambda kv: repr(kv[0])))
