"""Layouts, game presets, deal methods and the Deal result.

>>> from croupier.randomness import resolve_source
>>> d = deal(make_layout("bridge"), source=resolve_source(seed="doc", purpose="deal"))
>>> [len(h) for h in d.hands]
[13, 13, 13, 13]
"""

from typing import TYPE_CHECKING, Any

from croupier.dealing.deal import (
    ALGORITHM_ID,
    DEFAULT_SCHEME,
    STACKS_ALGORITHM_ID,
    Deal,
    deal,
    deal_algorithm,
    deal_from_number,
    deal_from_piles,
    deal_many,
)
from croupier.dealing.layout import GAMES, Layout, Pile, game_names, make_layout
from croupier.lazy_names import LazyNames

if TYPE_CHECKING:
    from croupier.dealing.methods import METHODS, get_deal_method, method_names

# The deal methods are imported on first use: croupier dealer's scripts (which evaluate
# hands with croupier.dealing.evaluation) never name one.
_LAZY = LazyNames(
    globals(), dict.fromkeys(("METHODS", "get_deal_method", "method_names"), "methods")
)


def __getattr__(name: str) -> Any:
    return _LAZY.get(name)


def __dir__() -> list[str]:
    return _LAZY.listing()


__all__ = [
    "ALGORITHM_ID",
    "DEFAULT_SCHEME",
    "GAMES",
    "METHODS",
    "STACKS_ALGORITHM_ID",
    "Deal",
    "Layout",
    "Pile",
    "deal",
    "deal_algorithm",
    "deal_from_number",
    "deal_from_piles",
    "deal_many",
    "game_names",
    "get_deal_method",
    "make_layout",
    "method_names",
]
