"""Random shuffles over any sequence, and (kept apart) known-flawed ones.

>>> from croupier.randomness import UniformSampler, SeededSource
>>> deck = list(range(10))
>>> sorted(SHUFFLE_METHODS["lehmer"](deck, UniformSampler(SeededSource("x")))) == deck
True
"""

from typing import TYPE_CHECKING, Any

from croupier.lazy_names import LazyNames

if TYPE_CHECKING:
    from croupier.shuffling.fair import (
        fisher_yates,
        fisher_yates_inplace,
        lehmer_shuffle,
        merge_shuffle,
        random_cut,
        rao_sandelius,
        sample,
    )
    from croupier.shuffling.lehmer import (
        permutation_from_rank,
        rank_permutation,
        unrank_permutation,
    )
    from croupier.shuffling.models import (
        gsr_riffle,
        overhand_pemantle,
    )
    from croupier.shuffling.registry import (
        AUTO_RULE,
        FLAWED_METHODS,
        LEHMER_ONE_DRAW_LIMIT,
        SHUFFLE_METHODS,
        ShuffleMethod,
        default_shuffle_method,
        get_shuffle_method,
    )
    from croupier.shuffling.split import (
        SPLIT_ALGORITHM_ID,
        split_order,
        split_shuffle,
    )

# Each name is imported from its module on first use: a run that needs one shuffle
# (the split shuffle of a file, say) does not import them all.
_HOMES = {
    "fisher_yates": "fair",
    "fisher_yates_inplace": "fair",
    "lehmer_shuffle": "fair",
    "merge_shuffle": "fair",
    "random_cut": "fair",
    "rao_sandelius": "fair",
    "sample": "fair",
    "permutation_from_rank": "lehmer",
    "rank_permutation": "lehmer",
    "unrank_permutation": "lehmer",
    "gsr_riffle": "models",
    "overhand_pemantle": "models",
    "AUTO_RULE": "registry",
    "FLAWED_METHODS": "registry",
    "LEHMER_ONE_DRAW_LIMIT": "registry",
    "SHUFFLE_METHODS": "registry",
    "ShuffleMethod": "registry",
    "default_shuffle_method": "registry",
    "get_shuffle_method": "registry",
    "SPLIT_ALGORITHM_ID": "split",
    "split_order": "split",
    "split_shuffle": "split",
}
_NAMES = LazyNames(globals(), _HOMES)


__all__ = [
    "AUTO_RULE",
    "FLAWED_METHODS",
    "LEHMER_ONE_DRAW_LIMIT",
    "SHUFFLE_METHODS",
    "SPLIT_ALGORITHM_ID",
    "ShuffleMethod",
    "default_shuffle_method",
    "fisher_yates",
    "fisher_yates_inplace",
    "get_shuffle_method",
    "gsr_riffle",
    "lehmer_shuffle",
    "merge_shuffle",
    "overhand_pemantle",
    "permutation_from_rank",
    "random_cut",
    "rank_permutation",
    "rao_sandelius",
    "sample",
    "split_order",
    "split_shuffle",
    "unrank_permutation",
]


def __getattr__(name: str) -> Any:
    return _NAMES.get(name)


def __dir__() -> list[str]:
    return _NAMES.listing()
