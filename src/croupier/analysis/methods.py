"""Every random method croupier can analyse, by name.

The analysis layer does not implement shuffles; it looks them up in the
registries of the layers below and adapts them to one shape:

* shuffles from :data:`croupier.shuffling.SHUFFLE_METHODS` (fair ones and
  human-shuffle models) and :data:`croupier.shuffling.FLAWED_METHODS` —
  their outcome is the arrangement of ``0..n-1`` they produce;
* deal methods from :data:`croupier.dealing.METHODS` as ``deal:NAME``, and
  the flawed rule that gives each card to a uniform player among those still
  open as ``deal:open-players`` — their outcome is the owner of each card;
* a few parameter variants that make exact walks feasible, such as
  ``modulo-bias-3`` (``rand() % n`` with a 3-bit ``rand``).

>>> m = get_analysis_method("fisher-yates")
>>> m.kind, m.fair, m.space(5)
('arrangement', True, 120)
>>> get_analysis_method("deal:open-players").space(8, (2, 2, 2, 2))
2520
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from croupier.analysis.exact import Kind
from croupier.errors import CroupierError, LayoutError
from croupier.randomness.uniform import Chooser

__all__ = [
    "AnalysisMethod",
    "MethodGroup",
    "UnknownMethodError",
    "analysis_methods",
    "default_hands",
    "get_analysis_method",
    "hand_sizes",
]

MethodGroup = Literal["fair", "model", "flawed", "deal"]
"""Where a method comes from: fair shuffles, human-shuffle models, flawed shuffles, deals."""
ShuffleFn = Callable[[Sequence[Any], Chooser], Sequence[Any]]
DealFn = Callable[[Sequence[int], Chooser], list[int]]


class UnknownMethodError(CroupierError):
    """No shuffle or deal method has this name."""


@dataclass(frozen=True)
class AnalysisMethod:
    """A shuffle or deal method, adapted for analysis.

    ``shuffle(seq, chooser)`` for arrangement methods; ``deal(sizes,
    chooser)`` returning the owner of each card for deal methods.  ``fair``
    is what the method's registry claims (the analysis checks it).
    """

    name: str
    description: str
    kind: Kind
    fair: bool
    group: MethodGroup
    shuffle: ShuffleFn | None = None
    deal: DealFn | None = None

    def space(self, n: int, hands: Sequence[int] | None = None) -> int:
        """How many outcomes a fair method spreads over: ``n!`` or the number of deals."""
        if self.kind == "arrangement":
            return math.factorial(n)
        sizes = hand_sizes(n, hands)
        result = math.factorial(n)
        for k in sizes:
            result //= math.factorial(k)
        return result

    def algorithm(
        self, n: int, hands: Sequence[int] | None = None
    ) -> Callable[[Chooser], Hashable]:
        """``algorithm(chooser) -> outcome`` for ``n`` cards (for walks and sampling).

        >>> from croupier.randomness import ScriptedChooser
        >>> get_analysis_method("lehmer").algorithm(3)(ScriptedChooser([5]))
        (2, 1, 0)
        """
        if self.kind == "arrangement":
            shuffle = self.shuffle
            assert shuffle is not None
            deck = list(range(n))

            def arrange(chooser: Chooser) -> tuple[int, ...]:
                return tuple(shuffle(deck, chooser))

            return arrange
        deal = self.deal
        assert deal is not None
        sizes = hand_sizes(n, hands)

        def owners(chooser: Chooser) -> tuple[int, ...]:
            return tuple(deal(sizes, chooser))

        return owners


def default_hands(n: int) -> tuple[int, ...]:
    """Four equal hands when ``n`` divides by 4, else two, else one per card.

    >>> default_hands(8), default_hands(6), default_hands(5)
    ((2, 2, 2, 2), (3, 3), (1, 1, 1, 1, 1))
    """
    for players in (4, 2):
        if n % players == 0 and n >= players:
            return (n // players,) * players
    return (1,) * n


def hand_sizes(n: int, hands: Sequence[int] | None) -> tuple[int, ...]:
    """The hand sizes of a deal of ``n`` cards: ``hands``, checked, or :func:`default_hands`.

    >>> hand_sizes(6, None), hand_sizes(6, (4, 2))
    ((3, 3), (4, 2))
    >>> hand_sizes(6, (4, 1))
    Traceback (most recent call last):
    ...
    croupier.errors.LayoutError: hand sizes [4, 1] must be >= 0 and add up to 6 cards
    """
    sizes = default_hands(n) if hands is None else tuple(hands)
    if not sizes or any(k < 0 for k in sizes) or sum(sizes) != n:
        raise LayoutError(f"hand sizes {list(sizes)} must be >= 0 and add up to {n} cards")
    return sizes


def _open_players(sizes: Sequence[int], chooser: Chooser) -> list[int]:
    from croupier.shuffling.flawed import uniform_among_open_players_deal

    hands = uniform_among_open_players_deal(list(range(sum(sizes))), sizes, chooser)
    owners = [0] * sum(sizes)
    for pile, hand in enumerate(hands):
        for card in hand:
            owners[card] = pile
    return owners


def _deal_adapter(run: Callable[[Sequence[int], Chooser], tuple[list[int], int | None]]) -> DealFn:
    def owners(sizes: Sequence[int], chooser: Chooser) -> list[int]:
        return list(run(sizes, chooser)[0])

    return owners


def _modulo_bias(bits: int) -> ShuffleFn:
    from croupier.shuffling.flawed import modulo_biased_fisher_yates

    def shuffle(seq: Sequence[Any], chooser: Chooser) -> list[Any]:
        return modulo_biased_fisher_yates(seq, chooser, bits=bits)

    return shuffle


def _randomize_rounds(rounds: int) -> ShuffleFn:
    from croupier.shuffling.flawed import randomize_list_shuffle

    def shuffle(seq: Sequence[Any], chooser: Chooser) -> list[Any]:
        return randomize_list_shuffle(seq, chooser, rounds=rounds)

    return shuffle


@cache
def analysis_methods() -> dict[str, AnalysisMethod]:
    """Every analysable method by name, in a stable order.

    >>> names = list(analysis_methods())
    >>> "swap-any" in names and "deal:optimal" in names
    True
    """
    from croupier.dealing.methods import METHODS
    from croupier.shuffling.models import gsr_riffles
    from croupier.shuffling.registry import FLAWED_METHODS, SHUFFLE_METHODS

    found: dict[str, AnalysisMethod] = {}
    for name, m in SHUFFLE_METHODS.items():
        group: MethodGroup = "fair" if m.uniform else "model"
        found[name] = AnalysisMethod(name, m.description, "arrangement", m.uniform, group, m)
    extras: list[tuple[str, str, ShuffleFn]] = [
        ("riffle2", "two GSR riffles (one 4-shuffle)", gsr_riffles(2)),
        ("riffle3", "three GSR riffles (one 8-shuffle)", gsr_riffles(3)),
    ]
    for name, text, fn in extras:
        found.setdefault(name, AnalysisMethod(name, text, "arrangement", False, "model", fn))
    for name, m in FLAWED_METHODS.items():
        found[name] = AnalysisMethod(name, m.description, "arrangement", m.uniform, "flawed", m)
    variants = [
        (
            "modulo-bias-3",
            "Fisher–Yates with rand() % n on a 3-bit rand() (exactly walkable)",
            _modulo_bias(3),
        ),
        (
            "randomize-list-1",
            "one dealer's move (cut, then interweave the halves) at a uniform cut point",
            _randomize_rounds(1),
        ),
    ]
    for name, text, fn in variants:
        found.setdefault(name, AnalysisMethod(name, text, "arrangement", False, "flawed", fn))
    for name, d in METHODS.items():
        key = f"deal:{name}"
        found[key] = AnalysisMethod(
            key, f"deal method: {d.summary}", "deal", True, "deal", deal=_deal_adapter(d.run)
        )
    found["deal:open-players"] = AnalysisMethod(
        "deal:open-players",
        "each card to a uniform player among those not yet full",
        "deal",
        False,
        "flawed",
        deal=_open_players,
    )
    return found


def get_analysis_method(name: str) -> AnalysisMethod:
    """The method called ``name``, or a one-line error listing the choices.

    >>> get_analysis_method("bogo")
    Traceback (most recent call last):
    ...
    croupier.analysis.methods.UnknownMethodError: unknown method 'bogo'; ...
    """
    methods = analysis_methods()
    found = methods.get(name.strip().lower().replace("_", "-"))
    if found is None:
        raise UnknownMethodError(
            f"unknown method {name!r}; choose from {', '.join(methods)}"
            " (analysis_methods() describes them)"
        )
    return found
