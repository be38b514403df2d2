"""Random shuffles over any sequence, and (kept apart) known-flawed ones.

>>> from croupier.randomness import UniformSampler, SeededSource
>>> deck = list(range(10))
>>> sorted(SHUFFLE_METHODS["lehmer"](deck, UniformSampler(SeededSource("x")))) == deck
True
"""

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
from croupier.shuffling.models import gsr_riffle, overhand_pemantle
from croupier.shuffling.registry import (
    AUTO_RULE,
    FLAWED_METHODS,
    LEHMER_ONE_DRAW_LIMIT,
    SHUFFLE_METHODS,
    ShuffleMethod,
    default_shuffle_method,
    get_shuffle_method,
)
from croupier.shuffling.split import SPLIT_ALGORITHM_ID, split_order, split_shuffle

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
