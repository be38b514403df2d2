"""croupier: shuffle anything and deal cards, fairly, frugally, reproducibly and verifiably.

The names below are the stable public API (``docs/api.md``); everything else
lives one module down.  Deal, shuffle and number deals:

>>> import croupier
>>> from typing import get_args
>>> d = croupier.deal(seed="club night")              # bridge by default
>>> [len(hand) for hand in d.hands], d.algorithm
([13, 13, 13, 13], 'croupier-deal/2')
>>> croupier.deal(seed="club night") == d             # a seed always gives the same deal
True
>>> croupier.unrank("bridge", croupier.rank(d)) == d
True
>>> croupier.shuffle(["alice", "bob", "carol"], seed="round 1")
['carol', 'bob', 'alice']

Millions of deals at once, as numpy arrays (``croupier-bulk/1``):

>>> many = croupier.deal_array(100_000, "bridge", seed="simulation 1")
>>> many.piles.shape, many[0].algorithm
((100000, 52), 'croupier-bulk/1')

A stateful deck for games, and permutations:

>>> deck = croupier.Deck("euchre", seed="kitchen table")
>>> deck.shuffle()
>>> hands = deck.deal(5, players=4)
>>> len(deck), deck.last_shuffle_bits > 0
(4, True)
>>> croupier.Permutation([1, 2, 0]).order()
3

Cards and their notations (:data:`CARD_STYLES` lists the styles, the values
of the type :data:`CardStyle`):

>>> card = croupier.parse_card("10h")
>>> card == croupier.Card(croupier.Rank.TEN, croupier.Suit.HEARTS), card.is_red
(True, True)
>>> croupier.format_cards(croupier.parse_cards("AS KH"), "symbol"), croupier.CARD_STYLES
('A♠ K♥', ('short', 'symbol', 'long', 'glyph'))
>>> croupier.format_card(card, "long"), get_args(croupier.CardStyle) == croupier.CARD_STYLES
('10 of Hearts', True)

The installed version (``croupier --version`` prints it too):

>>> croupier.__version__.count(".") >= 2
True

Every error on bad input is a :class:`CroupierError`, a :class:`ValueError`:

>>> try:
...     croupier.deal("tarot")
... except croupier.CroupierError as exc:
...     print(type(exc).__name__, isinstance(exc, ValueError))
LayoutError True

Classes that pull in numpy or the dealing machinery (:class:`Deck`,
:class:`Deal`, :class:`Layout`, :class:`Permutation`) are loaded on first
use, so ``import croupier`` stays fast.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from croupier.cards import (
    CARD_STYLES,
    Card,
    CardStyle,
    Rank,
    Suit,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
)
from croupier.errors import CroupierError

if TYPE_CHECKING:
    from croupier.bulk.array import DealArray
    from croupier.bulk.generate import deal_array
    from croupier.dealing.deal import Deal
    from croupier.dealing.layout import Layout
    from croupier.dealing.layout import make_layout as layout
    from croupier.deck import Deck
    from croupier.perm import Permutation
    from croupier.randomness.source import RandomSource

    __version__: str


__all__ = [
    "CARD_STYLES",
    "Card",
    "CardStyle",
    "CroupierError",
    "Deal",
    "DealArray",
    "Deck",
    "Layout",
    "Permutation",
    "Rank",
    "Suit",
    "__version__",
    "deal",
    "deal_array",
    "deals",
    "format_card",
    "format_cards",
    "layout",
    "parse_card",
    "parse_cards",
    "rank",
    "shuffle",
    "source",
    "unrank",
]

T = TypeVar("T")

_LAZY = {
    "Deal": ("croupier.dealing.deal", "Deal"),
    "DealArray": ("croupier.bulk.array", "DealArray"),
    "deal_array": ("croupier.bulk.generate", "deal_array"),
    "Deck": ("croupier.deck", "Deck"),
    "Layout": ("croupier.dealing.layout", "Layout"),
    "Permutation": ("croupier.perm", "Permutation"),
    "layout": ("croupier.dealing.layout", "make_layout"),
}
"""Public names loaded on first use: name -> (module, name there)."""

_DEAL_PURPOSE = "deal"
"""The purpose a ``seed=`` is derived with for deals (as ``croupier deal --seed``)."""


def _version() -> str:
    """The installed distribution's version (read on first use: importlib.metadata is slow)."""
    from importlib import metadata

    try:
        return metadata.version("croupier")
    except metadata.PackageNotFoundError:  # running from a source tree without installing
        return "0.0.0+unknown"


def __getattr__(name: str) -> Any:
    if name == "__version__":
        value: Any = _version()
        globals()[name] = value
        return value
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module 'croupier' has no attribute {name!r}")
    value = getattr(importlib.import_module(where[0]), where[1])
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY) | {"__version__"})


def source(
    seed: str | int | None = None,
    *,
    entropy: str | None = None,
    purpose: str = "",
    index: int = 0,
) -> RandomSource:
    """A random source that counts the bits it hands out.

    With no arguments, the OS CSPRNG (secret, not reproducible).  ``seed`` (text,
    ``hex:...`` bytes, or a whole number meaning its decimal text) gives the
    reproducible ``croupier-seeded/1`` stream of that seed, ``purpose`` and
    ``index``; ``entropy`` (``dice:3,6,1,...``, ``coins:HTTH``, ``hex:9f...``)
    uses your own randomness and refuses to go on when it runs out.

    :func:`deal` derives its stream with purpose ``"deal"`` and :func:`shuffle`
    with ``"shuffle"``, as the command line does:

    >>> src = source(seed="club night", purpose="deal")
    >>> deal(source=src) == deal(seed="club night")
    True
    >>> source().kind, source(seed=42).reproducible, source(entropy="coins:HTTH").kind
    ('os-csprng', True, 'entropy')
    """
    from croupier.deck import seed_text
    from croupier.randomness.options import make_source

    return make_source(seed_text(seed), entropy, purpose=purpose, index=index)


def _source_for(
    purpose: str, seed: str | int | None, entropy: str | None, given: RandomSource | None
) -> RandomSource:
    if given is not None:
        if seed is not None or entropy is not None:
            raise CroupierError(
                f"give either source= or seed=/entropy=, not both (seed={seed!r}, "
                f"entropy={entropy!r})"
            )
        return given
    return source(seed, entropy=entropy, purpose=purpose)


def _layout_of(
    game: str | Layout | None,
    players: int | None,
    hands: Sequence[int] | str | None,
    deck: str | Sequence[Card] | None,
) -> Layout:
    from croupier.dealing.layout import Layout as _Layout
    from croupier.dealing.layout import make_layout

    if isinstance(game, _Layout):
        if players is not None or hands is not None or deck is not None:
            raise CroupierError(
                f"players=, hands= and deck= shape a game given by name; {game.game!r} is "
                "already a Layout (build another with croupier.layout)"
            )
        return game
    return make_layout(game, players=players, hands=hands, deck=deck)


def deal(
    game: str | Layout | None = None,
    *,
    players: int | None = None,
    hands: Sequence[int] | str | None = None,
    deck: str | Sequence[Card] | None = None,
    method: str = "optimal",
    seed: str | int | None = None,
    entropy: str | None = None,
    source: RandomSource | None = None,
) -> Deal:
    """One exactly uniform deal of a game (bridge by default), with the fewest random bits.

    ``game``, ``players``, ``hands`` and ``deck`` choose the layout (as in
    :func:`layout`; ``game`` may also be a :class:`Layout`).  Randomness: the OS
    CSPRNG, or ``seed=`` (reproducible: the same deal as ``croupier deal --seed``),
    ``entropy=`` (your dice or coins) or any ``source=``.  ``method`` is one of
    the exact deal methods (``optimal``, ``block``, ``round-robin``, ...).

    >>> d = deal(seed="club night")
    >>> d.layout.game, d.method, d.source, d.bits_used < 100
    ('bridge', 'optimal', 'seeded', True)
    >>> len(deal("holdem", players=3, seed=1).hands), len(deal("skat").remainder)
    (3, 2)
    >>> print(deal(hands=[2, 1], deck="stripped:A", seed="x"))
    custom deal 11 (method optimal)
    P1     A♦ A♣
    P2     A♥
    stock  A♠
    """
    from croupier.dealing.deal import deal as deal_one

    lay = _layout_of(game, players, hands, deck)
    src = _source_for(_DEAL_PURPOSE, seed, entropy, source)
    return deal_one(lay, method=method, source=src)


def deals(
    game: str | Layout | None,
    count: int,
    *,
    players: int | None = None,
    hands: Sequence[int] | str | None = None,
    deck: str | Sequence[Card] | None = None,
    method: str = "optimal",
    seed: str | int | None = None,
    entropy: str | None = None,
    source: RandomSource | None = None,
) -> Iterator[Deal]:
    """``count`` independent uniform deals, one after another from one stream (an iterator).

    The arguments are those of :func:`deal` (``game=None`` means bridge).  With
    a seed the run is the one ``croupier deal --seed ... --count N`` prints;
    leftover randomness carries from deal to deal, so a long run costs hardly
    more than ``log2`` of the number of deals in bits per deal.

    >>> run = list(deals("bridge", 3, seed="club night"))
    >>> len(run), run == list(deals("bridge", 3, seed="club night"))
    (3, True)
    >>> list(deals(None, 2, seed="club night")) == run[:2]
    True
    >>> deals("bridge", -1)
    Traceback (most recent call last):
    ...
    croupier.errors.RangeError: count= must be a whole number >= 0, got -1
    """
    from croupier.dealing.deal import deal_many
    from croupier.errors import RangeError

    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise RangeError(f"count= must be a whole number >= 0, got {count!r}")
    lay = _layout_of(game, players, hands, deck)
    src = _source_for(_DEAL_PURPOSE, seed, entropy, source)
    return deal_many(lay, count, method=method, source=src)


def shuffle(
    items: Iterable[T],
    *,
    method: str | None = None,
    seed: str | int | None = None,
    entropy: str | None = None,
    source: RandomSource | None = None,
) -> list[T]:
    """A shuffled copy of ``items`` (the input is not changed); exactly uniform by default.

    ``method`` names a shuffle of :mod:`croupier.shuffling.registry`; the
    default is ``lehmer`` (one draw below ``n!``: the fewest bits), or
    ``fisher-yates`` above 2,048 items, as ``croupier shuffle`` chooses.
    Randomness as in :func:`deal`; a seed gives the order
    ``croupier shuffle ITEMS --seed ...`` prints.

    >>> names = ["alice", "bob", "carol", "dave"]
    >>> mixed = shuffle(names, seed="round 1")
    >>> sorted(mixed) == sorted(names), names[0]
    (True, 'alice')
    >>> shuffle(range(5), seed=7) == shuffle(range(5), source=source(seed=7, purpose="shuffle"))
    True
    """
    from croupier.deck import SHUFFLE_PURPOSE
    from croupier.randomness.uniform import UniformSampler
    from croupier.shuffling.registry import default_shuffle_method, get_shuffle_method

    values = list(items)
    chosen = default_shuffle_method(len(values)) if method is None else get_shuffle_method(method)
    src = _source_for(SHUFFLE_PURPOSE, seed, entropy, source)
    return chosen(values, UniformSampler(src))


def rank(deal: Deal, scheme: str = "croupier") -> int:
    """The number of ``deal`` under a numbering ``scheme`` (the inverse of :func:`unrank`).

    Schemes: ``croupier`` (default) and ``sequence`` for any game; for bridge
    also ``bigdeal``, ``pavlicek``, ``pavlicek-1``, ``andrews``, ``andrews-1``.

    >>> d = unrank("bridge", 1, "pavlicek-1")
    >>> rank(d, "pavlicek-1"), rank(d, "pavlicek"), rank(d)
    (1, 0, 0)
    """
    return deal.number_in(scheme)


def unrank(
    game: str | Layout | None,
    number: int,
    scheme: str = "croupier",
    *,
    players: int | None = None,
    hands: Sequence[int] | str | None = None,
    deck: str | Sequence[Card] | None = None,
) -> Deal:
    """The deal of ``game`` with ``number`` under ``scheme`` (no randomness).

    >>> d = unrank("bridge", 0)
    >>> [c.code for c in d.hands[0][:3]], rank(d)
    (['AS', 'KS', 'QS'], 0)
    >>> unrank("skat", 12345).number
    12345
    """
    from croupier.dealing.deal import deal_from_number

    return deal_from_number(_layout_of(game, players, hands, deck), number, scheme)
