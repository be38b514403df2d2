"""Named shuffle methods for ``--method`` and for analysis.

:data:`SHUFFLE_METHODS` holds the fair shuffles and the human-shuffle
models; :data:`FLAWED_METHODS`, kept apart, the known-flawed ones.  Every
method is called as ``method(seq, chooser)`` and returns a new list.

>>> SHUFFLE_METHODS["fisher-yates"].uniform, FLAWED_METHODS["swap-any"].uniform
(True, False)
>>> default_shuffle_method(52).name
'lehmer'
>>> from croupier.randomness import ScriptedChooser
>>> SHUFFLE_METHODS["lehmer"]("abc", ScriptedChooser([5]))
['c', 'b', 'a']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from croupier.errors import ShuffleSpecError
from croupier.randomness.uniform import Chooser
from croupier.shuffling import fair, flawed, models, split
from croupier.shuffling.fair import LEHMER_ONE_DRAW_LIMIT

__all__ = [
    "AUTO_RULE",
    "FLAWED_METHODS",
    "LEHMER_ONE_DRAW_LIMIT",
    "SHUFFLE_METHODS",
    "ShuffleMethod",
    "default_shuffle_method",
    "get_shuffle_method",
]


@dataclass(frozen=True)
class ShuffleMethod:
    """A named shuffle: ``function(seq, chooser) -> list``, whether it is uniform, and a summary.

    >>> SHUFFLE_METHODS["riffle"].description
    'one Gilbert–Shannon–Reeds riffle (a model of a human riffle; not uniform)'
    """

    name: str
    function: Callable[[Sequence[Any], Chooser], list[Any]]
    uniform: bool
    description: str

    def __call__(self, seq: Sequence[Any], chooser: Chooser) -> list[Any]:
        return self.function(seq, chooser)

    @property
    def algorithm_id(self) -> str:
        """The id and version recorded with reproducible outputs.

        >>> SHUFFLE_METHODS["lehmer"].algorithm_id
        'croupier-shuffle-lehmer/1'
        """
        return f"croupier-shuffle-{self.name}/1"


def _registry(*methods: ShuffleMethod) -> dict[str, ShuffleMethod]:
    return {m.name: m for m in methods}


SHUFFLE_METHODS: dict[str, ShuffleMethod] = _registry(
    ShuffleMethod(
        "lehmer",
        fair.lehmer_shuffle,
        True,
        "one uniform draw below n!, decoded with the Lehmer code (fewest bits)",
    ),
    ShuffleMethod(
        "fisher-yates",
        fair.fisher_yates,
        True,
        "Fisher–Yates: swap each position with a uniform earlier-or-same one",
    ),
    ShuffleMethod(
        "split",
        split.split_shuffle,
        True,
        "random buckets by key bits, then exact Fisher–Yates in each (vectorised Rao–Sandelius)",
    ),
    ShuffleMethod(
        "rao-sandelius",
        fair.rao_sandelius,
        True,
        "Rao–Sandelius: random piles by coin flips, shuffled recursively",
    ),
    ShuffleMethod(
        "merge-shuffle",
        fair.merge_shuffle,
        True,
        "MergeShuffle: merge shuffled halves by coin flips (Bacher et al. 2015)",
    ),
    ShuffleMethod(
        "cut", fair.random_cut, False, "one cut at a uniform point (a rotation; not uniform)"
    ),
    ShuffleMethod(
        "riffle",
        models.gsr_riffle,
        False,
        "one Gilbert–Shannon–Reeds riffle (a model of a human riffle; not uniform)",
    ),
    ShuffleMethod(
        "riffle7",
        models.gsr_riffles(7),
        False,
        "seven GSR riffles (one 128-shuffle; close to uniform for 52 cards, not exact)",
    ),
    ShuffleMethod(
        "overhand",
        models.overhand_pemantle,
        False,
        "one overhand shuffle in Pemantle's model (cuts with probability 1/2; not uniform)",
    ),
)
"""Fair shuffles and models of human shuffling, by name."""

FLAWED_METHODS: dict[str, ShuffleMethod] = _registry(
    ShuffleMethod(
        "swap-any", flawed.swap_with_any, False, "swap each position with any position (n^n paths)"
    ),
    ShuffleMethod(
        "poker-1999",
        flawed.poker_1999_shuffle,
        False,
        "the 1999 online-poker off-by-one: swap with any position but the last",
    ),
    ShuffleMethod(
        "sattolo-mistake",
        flawed.sattolo_by_mistake,
        False,
        "Fisher–Yates with j < i: only cyclic arrangements (Sattolo)",
    ),
    ShuffleMethod(
        "modulo-bias",
        flawed.modulo_biased_fisher_yates,
        False,
        "Fisher–Yates with rand() % n on 15-bit rand() (modulo bias)",
    ),
    ShuffleMethod(
        "random-comparator",
        flawed.random_comparator_sort,
        False,
        "sort with a comparator that answers at random",
    ),
    ShuffleMethod(
        "randomize-list",
        flawed.randomize_list_shuffle,
        False,
        "3 dealer's moves (cut, then interweave the halves) at random cut points",
    ),
    ShuffleMethod(
        "time-seeded-32",
        flawed.time_seeded_from_chooser,
        False,
        "the 1999 poker shuffle on a 32-bit LCG seeded with the millisecond of the day",
    ),
)
"""Known-flawed shuffles, by name (never for real use)."""


def get_shuffle_method(name: str) -> ShuffleMethod:
    """The fair or flawed method called ``name``.

    >>> get_shuffle_method("merge-shuffle").uniform
    True
    >>> get_shuffle_method("bogo")
    Traceback (most recent call last):
    ...
    croupier.errors.ShuffleSpecError: unknown shuffle method 'bogo'; ...
    """
    method = SHUFFLE_METHODS.get(name) or FLAWED_METHODS.get(name)
    if method is None:
        raise ShuffleSpecError(
            f"unknown shuffle method {name!r}; choose from {', '.join(SHUFFLE_METHODS)}"
            f" (flawed, for study: {', '.join(FLAWED_METHODS)})"
        )
    return method


AUTO_RULE = 2
"""The version of the ``auto`` rule: 2 is ``lehmer`` up to 2,048 items, ``split`` above.

Version 1 (``fisher-yates`` above 2,048 items) is still what ``croupier shuffle
--file`` uses, and ``default_shuffle_method(n, rule=1)`` gives it.
"""


def default_shuffle_method(n: int, *, rule: int = AUTO_RULE) -> ShuffleMethod:
    """The shuffle for ``n`` items when none is named: ``lehmer`` to 2,048, else ``split``.

    The one home of this rule: :func:`croupier.shuffle`, :class:`croupier.Deck`
    and ``croupier shuffle --method auto`` all call it, so a seed gives the same
    order in the library and on the command line.  The bound is
    :data:`~croupier.shuffling.fair.LEHMER_ONE_DRAW_LIMIT`, the largest ``n``
    whose ``n!`` ``lehmer`` draws as one number.  ``rule=1`` is the first
    version of the rule, with ``fisher-yates`` above the bound.

    >>> default_shuffle_method(2048).name, default_shuffle_method(2049).name
    ('lehmer', 'split')
    >>> default_shuffle_method(2049, rule=1).name
    'fisher-yates'
    """
    if rule not in (1, 2):
        raise ShuffleSpecError(f"the auto rule has versions 1 and 2, not {rule!r}")
    if n <= fair.LEHMER_ONE_DRAW_LIMIT:
        return get_shuffle_method("lehmer")
    return get_shuffle_method("split" if rule == 2 else "fisher-yates")
