"""Models of human shuffling: the Gilbert–Shannon–Reeds riffle and Pemantle's overhand.

Neither is uniform after one shuffle; they model what real hands do, so
analysis can ask how many shuffles a deck needs.

>>> from croupier.randomness import exact_distribution
>>> dist = exact_distribution(lambda c: tuple(gsr_riffle("abc", c)))
>>> dist[("a", "b", "c")]
Fraction(1, 2)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, TypeVar

from croupier.errors import RangeError
from croupier.randomness.uniform import Chooser

__all__ = ["gsr_riffle", "gsr_riffles", "overhand_pemantle"]

T = TypeVar("T")


def gsr_riffle(seq: Sequence[T], chooser: Chooser, a: int = 2) -> list[T]:
    """One Gilbert–Shannon–Reeds ``a``-shuffle (``a = 2``: one riffle).  NOT uniform.

    Every output position gets a uniform label in ``[0, a)``; the deck is cut
    into ``a`` packets whose sizes are the label counts (so the cut is
    multinomial) and position ``t`` takes the next card of packet ``label[t]``.
    This is the GSR model: each of the ``a**n`` label strings is equally likely,
    and an arrangement with ``r`` rising sequences has probability
    ``C(a + n - r, n) / a**n`` (Bayer and Diaconis, 1992).  ``k`` riffles are
    one ``2**k``-shuffle.

    >>> from croupier.randomness import ScriptedChooser
    >>> gsr_riffle("abcd", ScriptedChooser([0, 1, 0, 1]))
    ['a', 'c', 'b', 'd']
    """
    if a < 1:
        raise RangeError(f"an a-shuffle needs a >= 1 packets, got {a}")
    items = list(seq)
    labels = [chooser.below(a) for _ in items]
    counts = [0] * a
    for label in labels:
        counts[label] += 1
    next_card = []
    top = 0
    for c in counts:
        next_card.append(top)
        top += c
    out = []
    for label in labels:
        out.append(items[next_card[label]])
        next_card[label] += 1
    return out


def gsr_riffles(k: int) -> Callable[[Sequence[Any], Chooser], list[Any]]:
    """A shuffle ``(seq, chooser) -> list`` that does ``k`` GSR riffles: one ``2**k``-shuffle.

    >>> from croupier.randomness import exact_distribution
    >>> dist = exact_distribution(lambda c: tuple(gsr_riffles(2)("abc", c)))
    >>> dist[("c", "b", "a")], dist[("a", "b", "c")]
    (Fraction(1, 16), Fraction(5, 16))
    """
    if k < 0:
        raise RangeError(f"number of riffles must be >= 0, got k={k}")

    def shuffle(seq: Sequence[Any], chooser: Chooser) -> list[Any]:
        return gsr_riffle(seq, chooser, a=2**k)

    return shuffle


def overhand_pemantle(
    seq: Sequence[T], chooser: Chooser, p: Fraction | int = Fraction(1, 2)
) -> list[T]:
    """One overhand shuffle in Pemantle's model (1989).  NOT uniform.

    Each of the ``n - 1`` gaps between adjacent cards is independently a cut
    point with probability ``p`` (a fraction); the packets so formed are
    stacked in reverse order, each keeping its own order.  Pemantle showed it
    needs of order ``n**2 log n`` shuffles to mix (Jonasson, 2006, for the
    matching lower bound), against about ``1.5 log2 n`` riffles.

    >>> from croupier.randomness import ScriptedChooser
    >>> overhand_pemantle("abcd", ScriptedChooser([1, 0, 1]))
    ['c', 'd', 'a', 'b']
    """
    prob = Fraction(p)
    if not 0 <= prob <= 1:
        raise RangeError(f"cut probability {p} is out of range; use 0 <= p <= 1")
    items = list(seq)
    if not items:
        return items
    packets: list[list[T]] = [[items[0]]]
    for item in items[1:]:
        if chooser.below(prob.denominator) < prob.numerator:
            packets.append([item])
        else:
            packets[-1].append(item)
    return [item for packet in reversed(packets) for item in packet]
