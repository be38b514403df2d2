"""Exact fairness of a random method on a small deck.

:func:`exact_analysis` walks every random choice a method can make (with
:func:`croupier.randomness.walk.exact_distribution`), so the result is the
exact probability of every outcome, as fractions.  From it come the total
variation distance to uniform, the most and least likely outcomes, how many
outcomes can happen at all and, for shuffles, obstructions such as a fixed
parity or a card that cannot reach some positions.

>>> def coin_swap(chooser):
...     deck = [0, 1, 2]
...     i = chooser.below(2)
...     deck[i], deck[i + 1] = deck[i + 1], deck[i]
...     return tuple(deck)
>>> report = exact_analysis(coin_swap, cards=3, name="coin-swap")
>>> report.reachable, report.space, str(report.tv)
(2, 6, '2/3')
>>> report.parity
'odd'
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any, Final, Literal

from croupier.analysis.mixing import format_probability
from croupier.errors import RangeError
from croupier.perm import Permutation
from croupier.randomness.uniform import Chooser
from croupier.randomness.walk import WalkTooLargeError, exact_distribution

__all__ = [
    "UNFINISHED",
    "Engine",
    "ExactAnalysis",
    "Kind",
    "Parity",
    "Route",
    "Unfinished",
    "Verdict",
    "exact_analysis",
]

Kind = Literal["arrangement", "deal"]
"""What a method produces: an arrangement of the cards, or the hand each card goes to."""

Verdict = Literal["uniform", "biased", "even-so-far", "undecided"]
""":attr:`ExactAnalysis.verdict`: the last two only when some walk paths were cut off."""

Parity = Literal["even", "odd", "both"]
""":attr:`ExactAnalysis.parity`: the parity every outcome shares, or ``both``."""

Route = Literal[
    "walk", "swap-step DP", "rising-sequence formula", "enumeration of all 86400000 seeds"
]
"""How an exact distribution was computed (:attr:`ExactAnalysis.engine`): the walk, or one of
the fast routes."""

Engine = Route
"""The former name of :data:`Route` (kept for imports of it)."""


class Unfinished:
    """The type of :data:`UNFINISHED`, the outcome of walk paths that were cut off.

    It has one instance, which never equals a real outcome (not even a string).

    >>> UNFINISHED
    UNFINISHED
    >>> Unfinished() is UNFINISHED, UNFINISHED == "<unfinished>"
    (True, False)
    """

    __slots__ = ()
    _instance: Unfinished | None = None

    def __new__(cls) -> Unfinished:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNFINISHED"

    def __reduce__(self) -> str:
        return "UNFINISHED"


UNFINISHED: Final = Unfinished()
"""The outcome of walk paths cut off after too many choices (methods that may retry forever)."""


class _CallLimit(Exception):
    """Raised inside a walked method when a path makes too many choices."""


class _Guard:
    """Passes choices through, refusing huge ranges and cutting off endless paths."""

    __slots__ = ("calls", "cutoff", "inner", "max_branch", "max_calls", "name", "product")

    def __init__(
        self, inner: Chooser, name: str, max_calls: int, max_branch: int, cutoff: int | None
    ) -> None:
        self.inner = inner
        self.name = name
        self.max_calls = max_calls
        self.max_branch = max_branch
        self.cutoff = cutoff
        self.calls = 0
        self.product = 1

    def below(self, n: int) -> int:
        if n > self.max_branch:
            raise WalkTooLargeError(
                f"{self.name!r} chooses among {n} values at once; an exact walk is out of"
                " reach (use Monte Carlo: trials=N)"
            )
        self.calls += 1
        self.product *= max(n, 1)
        if self.calls > self.max_calls or (self.cutoff is not None and self.product > self.cutoff):
            raise _CallLimit
        return self.inner.below(n)


class _Zeros:
    """A chooser that always answers 0 (to estimate the size of a walk)."""

    def below(self, n: int) -> int:
        return 0


@dataclass(frozen=True)
class ExactAnalysis:
    """The exact distribution of one method's outcomes on ``cards`` cards.

    ``space`` is the number of outcomes a fair method would spread evenly
    over (``n!`` arrangements, or the number of distinct deals); ``hands``
    the hand sizes of a deal method.
    """

    name: str
    cards: int
    kind: Kind
    space: int
    distribution: dict[Any, Fraction] = field(repr=False)
    unfinished: Fraction = Fraction(0)
    engine: Route = "walk"
    hands: tuple[int, ...] | None = None

    @property
    def reachable(self) -> int:
        """How many outcomes have non-zero probability."""
        return len(self.distribution)

    @cached_property
    def _values(self) -> dict[Fraction, int]:
        """How many outcomes have each probability."""
        return dict(Counter(self.distribution.values()))

    @cached_property
    def tv(self) -> Fraction:
        """Exact total variation distance to the uniform distribution.

        When some paths were cut off (:attr:`unfinished` > 0) this is the
        distance computed from the finished paths alone; the true distance
        lies in :attr:`tv_bounds`.
        """
        u = Fraction(1, self.space)
        present = sum((abs(p - u) * k for p, k in self._values.items()), Fraction(0))
        return (present + u * (self.space - self.reachable)) / 2

    @property
    def tv_bounds(self) -> tuple[Fraction, Fraction]:
        """Lower and upper bounds on the true distance (equal when nothing was cut off)."""
        half = self.unfinished / 2
        return max(Fraction(0), self.tv - half), min(Fraction(1), self.tv + half)

    @property
    def uniform(self) -> bool:
        """True when every outcome has probability exactly ``1/space``."""
        return self.unfinished == 0 and self.reachable == self.space and self.tv == 0

    @property
    def even_so_far(self) -> bool:
        """Every outcome reached, all with the same probability (on the finished paths)."""
        return self.reachable == self.space and len(self._values) == 1

    @property
    def verdict(self) -> Verdict:
        """``uniform``, ``biased``, or — when paths were cut off — ``even-so-far`` or ``undecided``.

        A cut-off walk proves bias only when some outcome already has more than
        ``1/space`` on the finished paths (the lower end of :attr:`tv_bounds` is
        above 0); otherwise the cut-off paths could still even things out.

        >>> exact_analysis(lambda c: (0, 1) if c.below(3) else (1, 0), cards=2).verdict
        'biased'
        """
        if not self.unfinished:
            return "uniform" if self.uniform else "biased"
        if self.even_so_far:
            return "even-so-far"
        return "biased" if self.tv_bounds[0] > 0 else "undecided"

    @property
    def max_probability(self) -> Fraction:
        """The probability of the most likely outcome."""
        return max(self._values)

    @property
    def min_probability(self) -> Fraction:
        """The probability of the least likely outcome (0 if some cannot happen)."""
        if self.reachable < self.space:
            return Fraction(0)
        return min(self._values)

    @property
    def min_reachable_probability(self) -> Fraction:
        """The probability of the least likely outcome that can happen."""
        return min(self._values)

    def _ranked(self, limit: int, *, likeliest: bool) -> list[tuple[Any, Fraction]]:
        out: list[tuple[Any, Fraction]] = []
        for value in sorted(self._values, reverse=likeliest):
            tied = sorted((o for o, p in self.distribution.items() if p == value), key=repr)
            out.extend((o, value) for o in tied[: limit - len(out)])
            if len(out) >= limit:
                break
        return out

    def most_likely(self, limit: int = 5) -> list[tuple[Any, Fraction]]:
        """Up to ``limit`` most likely outcomes with their probabilities."""
        return self._ranked(limit, likeliest=True)

    def least_likely(self, limit: int = 5) -> list[tuple[Any, Fraction]]:
        """Up to ``limit`` least likely reachable outcomes with their probabilities."""
        return self._ranked(limit, likeliest=False)

    @property
    def parity(self) -> Parity | None:
        """For shuffles: ``'even'`` or ``'odd'`` if all outcomes share it, else ``'both'``.

        >>> exact_analysis(lambda c: (1, 2, 0) if c.below(2) else (0, 1, 2), cards=3).parity
        'even'
        """
        if self.kind != "arrangement":
            return None
        parities: set[int] = set()
        for arrangement in self.distribution:
            parities.add(Permutation(arrangement).parity())
            if len(parities) == 2:
                return "both"
        return "odd" if parities == {1} else "even"

    def position_matrix(self) -> list[list[Fraction]]:
        """For shuffles: ``matrix[card][position]``, the exact chance card ends at position."""
        if self.kind != "arrangement":
            raise RangeError(f"{self.name!r} deals hands; a card x position matrix needs a shuffle")
        return self._matrix

    def hand_matrix(self) -> list[list[Fraction]]:
        """For deals: ``matrix[card][hand]``, the exact chance the card goes to the hand.

        >>> from croupier.analysis.run import exact_report
        >>> exact_report("deal:optimal", 3, (2, 1)).hand_matrix()[0]
        [Fraction(2, 3), Fraction(1, 3)]
        """
        if self.hands is None:
            raise RangeError(f"{self.name!r} is a shuffle (or its hands are unknown); no hands")
        return self._matrix

    @cached_property
    def _matrix(self) -> list[list[Fraction]]:
        n = self.cards
        columns = n if self.hands is None else len(self.hands)
        denominator = math.lcm(*(p.denominator for p in self._values))
        weights = {p: p.numerator * (denominator // p.denominator) for p in self._values}
        counts = [[0] * columns for _ in range(n)]
        for outcome, p in self.distribution.items():
            w = weights[p]
            for i, j in enumerate(outcome):
                # arrangements list the card at each position; deals the hand of each card
                card, column = (j, i) if self.hands is None else (i, j)
                counts[card][column] += w
        return [[Fraction(c, denominator) for c in row] for row in counts]

    def obstructions(self) -> list[str]:
        """Plain-language reasons the method cannot be uniform (empty when it is)."""
        notes: list[str] = []
        if self.unfinished:
            return notes
        if self.reachable < self.space:
            notes.append(
                f"only {self.reachable} of {self.space} outcomes can happen"
                f" ({self.space - self.reachable} never occur)"
            )
        if self.kind == "arrangement" and self.cards >= 2:
            parity = self.parity
            if parity in ("even", "odd"):
                notes.append(f"parity is fixed: every outcome is an {parity} permutation")
        if self.cards >= 2 and (self.kind == "arrangement" or self.hands is not None):
            where = "position" if self.hands is None else "hand"
            for card, row in enumerate(self._matrix):
                fixed = [column for column, p in enumerate(row) if p == 1]
                if fixed and len(row) > 1:
                    notes.append(f"card {card} always ends at {where} {fixed[0]}")
                    continue
                missing = [column for column, p in enumerate(row) if p == 0]
                if self.hands is not None:  # an empty hand gets no card, fairly
                    missing = [h for h in missing if self.hands[h] > 0]
                if missing:
                    notes.append(f"card {card} never reaches {where}(s) {missing}")
        if self.reachable == self.space and self.tv != 0:
            ratio = self.max_probability / self.min_probability
            notes.append(
                f"every outcome can happen, but the likeliest is {float(ratio):.4g} times"
                " as likely as the least likely"
            )
        return notes

    def to_json(self, *, outcomes: bool = True) -> dict[str, Any]:
        """A JSON-ready summary; ``outcomes`` includes every outcome's probability."""
        data: dict[str, Any] = {
            "method": self.name,
            "cards": self.cards,
            "kind": self.kind,
            "engine": self.engine,
            "space": self.space,
            "reachable": self.reachable,
            "uniform": self.uniform,
            "verdict": self.verdict,
            "tv": str(self.tv),
            "tv_float": float(self.tv),
            "unfinished": str(self.unfinished),
            "max_probability": str(self.max_probability),
            "min_probability": str(self.min_probability),
            "min_reachable_probability": str(self.min_reachable_probability),
            "most_likely": [
                {"outcome": _jsonable(o), "probability": str(p)} for o, p in self.most_likely()
            ],
            "least_likely": [
                {"outcome": _jsonable(o), "probability": str(p)} for o, p in self.least_likely()
            ],
            "obstructions": self.obstructions(),
        }
        if self.unfinished:
            low, high = self.tv_bounds
            data["tv_bounds"] = [str(low), str(high)]
        if self.hands is not None:
            data["hands"] = list(self.hands)
        if self.kind == "arrangement":
            data["parity"] = self.parity
            data["position_matrix"] = [[str(p) for p in row] for row in self.position_matrix()]
        elif self.hands is not None:
            data["hand_matrix"] = [[str(p) for p in row] for row in self.hand_matrix()]
        if outcomes:
            data["outcomes"] = [
                {"outcome": _jsonable(o), "probability": str(p)}
                for o, p in sorted(self.distribution.items(), key=lambda kv: repr(kv[0]))
            ]
        return data

    def _repr_html_(self) -> str:
        """Notebook display: a summary table and the card heatmap (:mod:`.analysis.display`).

        >>> from croupier.analysis.run import exact_report
        >>> "1/18" in exact_report("swap-any", 3)._repr_html_()
        True
        """
        from croupier.analysis.display import exact_html  # imported here: it imports this module

        return exact_html(self)

    def summary(self) -> str:
        """A short human-readable report."""
        layout = "" if self.hands is None else f", hands {'-'.join(map(str, self.hands))}"
        lines = [
            f"{self.name} on {self.cards} cards{layout}: exact distribution over"
            f" {self.space} outcomes ({self.engine})"
        ]
        if self.unfinished:
            low, high = self.tv_bounds
            lines += [
                f"  paths cut off as too long for the walk (retries, or a very deep tree):"
                f" probability {self.unfinished} ≈ {format_probability(self.unfinished)}",
                f"  reached on the finished paths: {self.reachable} of {self.space} outcomes",
                f"  total variation to uniform: between {low} and {high}"
                f" (≈ {format_probability(low)} .. {format_probability(high)})",
            ]
            verdict = {
                "even-so-far": "every outcome exactly equally likely on the finished paths",
                "undecided": "undecided: no outcome is above 1/"
                f"{self.space} yet; the cut-off paths could even it out",
                "biased": "biased (some outcomes are over-represented already)",
            }[self.verdict]
            lines.append(f"  verdict: {verdict}")
            return "\n".join(lines)
        lines += [
            f"  reachable outcomes: {self.reachable} of {self.space}",
            f"  total variation to uniform: {self.tv} ≈ {format_probability(self.tv)}",
        ]
        if self.uniform:
            lines.append("  verdict: exactly uniform")
        else:
            lines.append(
                f"  most likely outcome: {self.max_probability} "
                f"({float(self.max_probability * self.space):.6g} x fair)"
            )
            lines.append(
                f"  least likely outcome: {self.min_probability} "
                f"({float(self.min_probability * self.space):.6g} x fair)"
            )
            for o, p in self.most_likely(3):
                lines.append(f"    likeliest {_show(o)}: {p}")
            for note in self.obstructions():
                lines.append(f"  finding: {note}")
            lines.append("  verdict: biased")
        return "\n".join(lines)


def _jsonable(outcome: Any) -> Any:
    if isinstance(outcome, tuple | list):
        return [_jsonable(x) for x in outcome]
    if isinstance(outcome, frozenset | set):
        return sorted((_jsonable(x) for x in outcome), key=repr)
    if isinstance(outcome, int | str | float | bool) or outcome is None:
        return outcome
    return str(outcome)


def _show(outcome: Any) -> str:
    value = _jsonable(outcome)
    if isinstance(value, list) and all(isinstance(v, int) for v in value):
        return " ".join(map(str, value))
    if isinstance(value, list) and all(isinstance(v, list) for v in value):
        return " | ".join(" ".join(map(str, h)) for h in value)
    return str(value)


def exact_analysis(
    algorithm: Callable[[Chooser], Hashable],
    *,
    cards: int,
    name: str = "method",
    kind: Kind = "arrangement",
    space: int | None = None,
    max_leaves: int = 2_000_000,
    max_calls: int = 10_000,
) -> ExactAnalysis:
    """Walk every random choice of ``algorithm`` and return the exact analysis.

    ``algorithm(chooser)`` returns one outcome (a tuple arrangement of
    ``0..cards-1`` for shuffles).  ``space`` defaults to ``cards!`` for
    shuffles and must be given for deals.  Methods that may retry forever
    have paths of ever smaller probability: a path is cut off once its
    probability falls below ``1/max_leaves`` (or after ``max_calls``
    choices), and the cut-off probability is reported as
    :attr:`ExactAnalysis.unfinished`.

    >>> def first_of_two(chooser):
    ...     return (0, 1) if chooser.below(3) else (1, 0)
    >>> r = exact_analysis(first_of_two, cards=2)
    >>> str(r.tv), r.max_probability
    ('1/6', Fraction(2, 3))
    >>> def retry(chooser):   # a coin until heads, then a fair bit: uniform, unbounded
    ...     while chooser.below(2):
    ...         pass
    ...     return (0, 1) if chooser.below(2) else (1, 0)
    >>> r = exact_analysis(retry, cards=2, max_leaves=1000)
    >>> r.unfinished, r.even_so_far
    (Fraction(1, 256), True)
    """
    if cards < 0:
        raise RangeError(f"deck size {cards} is negative; use 0 or more cards")
    if space is None:
        if kind != "arrangement":
            raise RangeError("the number of possible deals must be given for deal methods")
        space = math.factorial(cards)

    probe = _Guard(_Zeros(), name, max_calls, max_leaves, None)
    try:
        algorithm(probe)
    except _CallLimit:
        pass
    else:
        if probe.product > max_leaves:
            raise WalkTooLargeError(
                f"{name!r} on {cards} cards has about {probe.product} random paths, more than"
                f" {max_leaves}; use fewer cards or Monte Carlo (trials=N)"
            )

    def guarded(chooser: Chooser) -> Hashable:
        try:
            return algorithm(_Guard(chooser, name, max_calls, max_leaves, max_leaves))
        except _CallLimit:
            return UNFINISHED

    dist: dict[Hashable, Fraction] = dict(exact_distribution(guarded, max_leaves=64 * max_leaves))
    if sum(dist.values()) != 1:  # pragma: no cover - exact_distribution guarantees this
        raise RangeError(f"probabilities of {name!r} sum to {sum(dist.values())}, not 1")
    unfinished = dist.pop(UNFINISHED, Fraction(0))
    if not dist:
        raise WalkTooLargeError(
            f"every random path of {name!r} on {cards} cards is longer than an exact walk"
            f" of {max_leaves} paths allows; use fewer cards or Monte Carlo (trials=N)"
        )
    if kind == "arrangement":
        for outcome in dist:
            if not isinstance(outcome, tuple) or sorted(outcome) != list(range(cards)):
                raise RangeError(f"{name!r} returned {outcome!r}, not an arrangement of {cards}")
    return ExactAnalysis(name, cards, kind, space, dist, unfinished)
