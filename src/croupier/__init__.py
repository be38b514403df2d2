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

>>> many = croupier.deal_array("bridge", 100_000, seed="simulation 1")
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
import os
import sys
import threading
from collections.abc import Iterable, Iterator, MutableSequence, Sequence
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any, TypeVar, overload

from croupier.errors import CroupierError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from croupier.bulk.array import DealArray
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
    from croupier.dealing.deal import Deal
    from croupier.dealing.layout import Layout
    from croupier.dealing.layout import make_layout as layout
    from croupier.deck import Deck
    from croupier.perm import Permutation
    from croupier.randomness.seeded import Seed
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
    "permutation",
    "rank",
    "sample",
    "shuffle",
    "shuffle_in_place",
    "source",
    "unrank",
]

T = TypeVar("T")

_LAZY = {
    **{
        name: ("croupier.cards", name)
        for name in (
            "CARD_STYLES",
            "Card",
            "CardStyle",
            "Rank",
            "Suit",
            "format_card",
            "format_cards",
            "parse_card",
            "parse_cards",
        )
    },
    "Deal": ("croupier.dealing.deal", "Deal"),
    "DealArray": ("croupier.bulk.array", "DealArray"),
    "Deck": ("croupier.deck", "Deck"),
    "Layout": ("croupier.dealing.layout", "Layout"),
    "Permutation": ("croupier.perm", "Permutation"),
    "layout": ("croupier.dealing.layout", "make_layout"),
}
"""Public names loaded on first use: name -> (module, name there)."""

_DEAL_PURPOSE = "DEAL"
"""The :class:`~croupier.randomness.purposes.Purpose` (by name: nothing is imported with
the package) a ``seed=`` is derived with for deals (as ``croupier deal --seed``)."""

_SHUFFLE_PURPOSE = "SHUFFLE"
"""The purpose of shuffles, permutations and samples (as ``croupier shuffle --seed``)."""


def __getattr__(name: str) -> Any:
    if name == "__version__":
        from croupier.version import version  # (read on first use: importlib.metadata is slow)

        value: Any = version()
        globals()[name] = value
        return value
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module 'croupier' has no attribute {name!r}")
    value = getattr(importlib.import_module(where[0]), where[1])
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names (:data:`__all__`) and the module's own dunders, nothing else."""
    dunders = {name for name in globals() if name.startswith("__") and name.endswith("__")}
    return sorted(set(__all__) | dunders)


def source(
    seed: Seed | None = None,
    *,
    entropy: str | None = None,
    purpose: str = "",
    index: int = 0,
) -> RandomSource:
    """A random source that counts the bits it hands out.

    With no arguments, the OS CSPRNG (secret, not reproducible).  ``seed`` (text,
    ``hex:...`` digits, raw bytes, or a whole number meaning its decimal text) gives the
    reproducible ``croupier-seeded/1`` stream of that seed, ``purpose`` and
    ``index``; ``entropy`` (``dice:3,6,1,...``, ``coins:HTTH``, ``hex:9f...``)
    uses your own randomness and refuses to go on when it runs out.

    :func:`deal` derives its stream with purpose ``"deal"`` and :func:`shuffle`
    with ``"shuffle"``, as the command line does:

    >>> src = source(seed="club night", purpose="deal")
    >>> deal(source=src) == deal(seed="club night")
    True
    >>> str(source().kind), source(seed=42).reproducible, str(source(entropy="coins:HTTH").kind)
    ('os-csprng', True, 'entropy')
    """
    from croupier.randomness.options import resolve_source

    return resolve_source(seed, entropy, purpose=purpose, index=index)


def _source_for(
    purpose: str,
    seed: Seed | None,
    entropy: str | None,
    given: RandomSource | None,
    *,
    small: bool = False,
    bulk: int | None = None,
) -> RandomSource:
    """The source of a call: :func:`croupier.randomness.resolve_source` (the one door),
    or, with none of the three given, this thread's kept OS source or keystream."""
    if given is None and seed is None and entropy is None:
        if bulk is not None:  # a split shuffle: the OS CSPRNG, read fast (ChaCha20 keyed from it)
            split = _module("croupier.shuffling.split")
            if bulk >= split.CHACHA_FROM:  # this thread's kept keystream (see _kept_chacha)
                return _kept_chacha()
            return split.default_source(bulk)  # type: ignore[no-any-return]
        if small:  # one call, few bits: this thread's kept OS source (see _kept_os_source)
            return _kept_os_source()
    chosen = _module("croupier.randomness.purposes").Purpose[purpose]
    return _door()(seed, entropy, given, purpose=chosen)  # type: ignore[no-any-return]


_KEPT = threading.local()


def _kept(name: str, make: Any) -> RandomSource:
    """This thread's source ``name``, made by ``make()`` the first time and kept."""
    kept: RandomSource | None = getattr(_KEPT, name, None)
    if kept is None:
        kept = make()
        setattr(_KEPT, name, kept)
    return kept


def _kept_os_source() -> RandomSource:
    """This thread's OS CSPRNG source for unseeded one-off calls (``deal()``, ``sample()``).

    Made once per thread and kept: a call in a loop then reads the OS once per
    512 bytes instead of once per call, and builds no source.  It is a plain
    :class:`~croupier.randomness.OsRandomSource` (a forked child drops the bytes
    it holds); one per thread, so the bits a call reports are its own.
    """
    return _kept("source", lambda: _module("croupier.randomness.source").OsRandomSource(512))


def _kept_chacha() -> RandomSource:
    """This thread's ChaCha20 keystream keyed from the OS, for unseeded split shuffles.

    Kept as :func:`_kept_os_source` is: a shuffle in a loop then reads on in one secret
    keystream instead of drawing a new key from the OS and building a source each time.
    A forked child draws a new key (the source does so itself), so parent and child
    never share bits.
    """
    return _kept("chacha", lambda: _module("croupier.randomness.chacha").ChaChaSource())


def _door() -> Any:
    """:func:`croupier.randomness.resolve_source`, the one door of ``seed=``, ``entropy=``
    and ``source=`` (imported on first use)."""
    return _module("croupier.randomness.options").resolve_source


@cache
def _module(name: str) -> Any:
    """A module imported once (``import`` inside a function costs a lookup at every call)."""
    return importlib.import_module(name)


def _cache_key(value: object, item: type) -> object:
    """``value`` as part of a layout cache key, or ``_UNCACHED`` (then no cache).

    ``None``, text, and lists or tuples whose items are exactly of type
    ``item`` (so ``1.0`` or ``True`` never share an entry with ``1``).
    """
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, list | tuple) and all(type(v) is item for v in value):
        return tuple(value)
    return _UNCACHED


_UNCACHED = object()

_PLAIN_LAYOUTS: dict[str | None, Layout] = {}
"""The layouts of games asked for by name alone (the common case), looked up first."""


@lru_cache(maxsize=64)
def _cached_layout(game: object, players: object, hands: object, deck: object) -> Layout:
    from croupier.dealing.layout import make_layout

    return make_layout(game, players=players, hands=hands, deck=deck)  # type: ignore[arg-type]


def _layout_of(
    game: str | Layout | None,
    players: int | None,
    hands: Sequence[int] | str | None,
    deck: str | Sequence[Card] | None,
    door: str = "",
) -> Layout:
    if players is None and hands is None and deck is None and (game is None or type(game) is str):
        plain = _PLAIN_LAYOUTS.get(game)
        if plain is not None:
            return plain
    from croupier.dealing.layout import Layout as _Layout
    from croupier.dealing.layout import make_layout

    if isinstance(game, int) and not isinstance(game, bool):
        hint = f"; for {_number_text(game)} deals: deals('bridge', {_number_text(game)})"
        raise CroupierError(
            f"game= is a game name such as 'bridge' or a Layout, not the number "
            f"{_number_text(game)}{hint if door == 'deal' else ''}"
        )
    if isinstance(game, _Layout):
        if players is not None or hands is not None or deck is not None:
            raise CroupierError(
                f"players=, hands= and deck= shape a game given by name; {game.game!r} is "
                "already a Layout (build another with croupier.layout)"
            )
        return game
    from croupier.cards import Card

    key = (game, players, _cache_key(hands, int), _cache_key(deck, Card))
    if _UNCACHED not in key and isinstance(game, str | None) and type(players) in (int, type(None)):
        lay = _cached_layout(*key)  # layouts are immutable: one per set of options
        if players is None and hands is None and deck is None and len(_PLAIN_LAYOUTS) < 64:
            _PLAIN_LAYOUTS[game] = lay
        return lay
    return make_layout(game, players=players, hands=hands, deck=deck)


def _number_text(n: int) -> str:
    """A whole number for a message, or its size when long (no 4,300-digit ``str()``)."""
    return str(n) if n.bit_length() < 100 else f"a {n.bit_length()}-bit number"


def _game_first(door: str, game: object, count: object) -> None:
    """Refuse a count given where the game goes (``deal_array(1000)``), naming the order."""
    if isinstance(game, int) and not isinstance(game, bool):
        name = repr(count) if isinstance(count, str) else "'bridge'"
        raise CroupierError(
            f"the game comes first: {door}({name}, {_number_text(game)}) "
            f"(got the number {_number_text(game)} as game=)"
        )


def deal(
    game: str | Layout | None = None,
    *,
    players: int | None = None,
    hands: Sequence[int] | str | None = None,
    deck: str | Sequence[Card] | None = None,
    method: str = "optimal",
    seed: Seed | None = None,
    entropy: str | None = None,
    source: RandomSource | None = None,
) -> Deal:
    """One exactly uniform deal of a game (bridge by default), with the fewest random bits.

    ``game``, ``players``, ``hands`` and ``deck`` choose the layout (as in
    :func:`layout`; ``game`` may also be a :class:`Layout`).  Randomness: the OS
    CSPRNG, or ``seed=`` (text, a whole number or bytes; reproducible: the same
    deal as ``croupier deal --engine deal --seed`` and the first of
    :func:`deals` with that seed), ``entropy=`` (your dice or coins) or any
    ``source=``.  ``method`` is one of the exact deal methods (``optimal``,
    ``block``, ``round-robin``, ...).  The arguments are those of :func:`deals`
    without the count.

    >>> d = deal(seed="club night")
    >>> d.layout.game, d.method, str(d.source), d.bits_used < 100
    ('bridge', 'optimal', 'seeded', True)
    >>> len(deal("holdem", players=3, seed=1).hands), len(deal("skat").remainder)
    (3, 2)
    >>> print(deal(hands=[2, 1], deck="stripped:A", seed="x"))
    custom deal 11 (method optimal)
    P1     A♦ A♣
    P2     A♥
    stock  A♠
    >>> deal(seed="club night").pbn == next(deals("bridge", 1, seed="club night")).pbn
    True
    """
    lay = _layout_of(game, players, hands, deck, "deal")
    src = _source_for(_DEAL_PURPOSE, seed, entropy, source, small=True)
    return _module("croupier.dealing.deal").deal(lay, method=method, source=src)  # type: ignore[no-any-return]


def deals(
    game: str | Layout | None = None,
    count: int = 1,
    *,
    players: int | None = None,
    hands: Sequence[int] | str | None = None,
    deck: str | Sequence[Card] | None = None,
    method: str = "optimal",
    seed: Seed | None = None,
    entropy: str | None = None,
    source: RandomSource | None = None,
) -> Iterator[Deal]:
    """``count`` independent uniform deals, one after another from one stream (an iterator).

    The game comes first, then the count; the other arguments are those of
    :func:`deal` (``game=None`` means bridge).  A deal run of the deal engine
    (``croupier-deal/2``, :mod:`croupier.runs`): with a seed it is the run
    ``croupier deal --engine deal --seed ... --count N`` prints; leftover
    randomness carries from deal to deal, so a long run costs hardly more than
    ``log2`` of the number of deals in bits per deal.  The request is checked
    at once (layout, count, method, seed; user entropy too short for the run).

    >>> run = list(deals("bridge", 3, seed="club night"))
    >>> len(run), run == list(deals("bridge", 3, seed="club night"))
    (3, True)
    >>> list(deals(None, 2, seed="club night")) == run[:2]
    True
    >>> deals("bridge", -1)
    Traceback (most recent call last):
    ...
    croupier.errors.RangeError: count= must be at least 0, got -1
    >>> deals(5)
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: the game comes first: deals('bridge', 5) (got the number 5 \
as game=)
    """
    _game_first("deals", game, count)
    lay = _layout_of(game, players, hands, deck)
    if source is not None:
        source = _door()(seed, entropy, source)
    runs = _module("croupier.runs.dealers")
    request = _module("croupier.runs.request").DealRequest.make(
        lay, count, engine="deal", method=method, seed=seed, entropy=entropy
    )
    return runs.MinimalBitsDealer(request, source=source).deals(count)  # type: ignore[no-any-return]


def deal_array(
    game: str | Layout | None = None,
    count: int = 1,
    *,
    players: int | None = None,
    hands: Sequence[int] | str | None = None,
    deck: str | Sequence[Card] | None = None,
    seed: Seed | None = None,
    entropy: str | None = None,
    source: RandomSource | None = None,
    start: int = 0,
) -> DealArray:
    """``count`` exactly uniform deals as one numpy-backed :class:`DealArray` (``croupier-bulk/1``).

    The game comes first, then the count, as in :func:`deals`; ``players``,
    ``hands`` and ``deck`` shape the layout as in :func:`deal`.  A deal run of
    the bulk engine (:mod:`croupier.runs`), millions of deals a second: from
    the OS CSPRNG, or reproducibly from ``seed`` (text, a whole number or
    bytes) — the deals ``croupier deal --seed ... --count N`` writes, in every
    format.  ``start`` skips to deal ``start`` of the seed's stream.
    ``source=`` or ``entropy=`` key the stream with 256 bits of that source or of
    your entropy instead (a seeded source of purpose ``croupier-bulk/1`` gives the
    seed's deals; :func:`deals` uses fewer bits of your entropy for a few deals).

    >>> a = deal_array("bridge", 1000, seed="demo")
    >>> a.piles.shape, a == deal_array(count=1000, seed="demo")
    ((1000, 52), True)
    >>> deal_array("bridge", 2, seed="demo", start=998) == a[998:]
    True
    >>> deal_array(1000, seed=3)
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: the game comes first: deal_array('bridge', 1000) (got the \
number 1000 as game=)
    """
    _game_first("deal_array", game, count)
    lay = _layout_of(game, players, hands, deck)
    given = None if source is None and entropy is None else _door()(seed, entropy, source)
    request = _module("croupier.runs.request").DealRequest.make(
        lay, count, engine="bulk", seed=seed
    )
    dealer = _module("croupier.runs.dealers").BulkRunDealer(request, start=start, source=given)
    return dealer.array(count)  # type: ignore[no-any-return]


def _is_array(items: object) -> bool:
    numpy = sys.modules.get("numpy")  # no numpy loaded: no numpy array either
    return numpy is not None and isinstance(items, numpy.ndarray)


@overload
def shuffle(  # type: ignore[overload-overlap]
    items: npt.NDArray[Any],
    *,
    method: str | None = ...,
    seed: Seed | None = ...,
    entropy: str | None = ...,
    source: RandomSource | None = ...,
    axis: int = ...,
) -> npt.NDArray[Any]: ...


@overload
def shuffle(
    items: Iterable[T],
    *,
    method: str | None = ...,
    seed: Seed | None = ...,
    entropy: str | None = ...,
    source: RandomSource | None = ...,
    axis: int = ...,
) -> list[T]: ...


def shuffle(
    items: Iterable[T] | npt.NDArray[Any],
    *,
    method: str | None = None,
    seed: Seed | None = None,
    entropy: str | None = None,
    source: RandomSource | None = None,
    axis: int = 0,
) -> list[T] | npt.NDArray[Any]:
    """A shuffled copy of ``items`` (the input is not changed); exactly uniform by default.

    ``method`` names a shuffle of :mod:`croupier.shuffling.registry`; the
    default is ``lehmer`` (one draw below ``n!``: the fewest bits) up to 2,048
    items and ``split`` above (``croupier-shuffle-split/1``: vectorised, about
    ``log2(n!) + 0.85 n`` bits), as ``croupier shuffle`` chooses.  Randomness
    as in :func:`deal`; a seed gives the order ``croupier shuffle ITEMS --seed
    ...`` prints.

    A numpy array gives a numpy array of the same shape and dtype, shuffled
    along ``axis`` (rows of a 2-D array by default; ``axis=1`` shuffles
    columns), in the same order as a list of the same items from the same
    seed.  Anything else gives a list.

    >>> names = ["alice", "bob", "carol", "dave"]
    >>> mixed = shuffle(names, seed="round 1")
    >>> sorted(mixed) == sorted(names), names[0]
    (True, 'alice')
    >>> shuffle(range(5), seed=7) == shuffle(range(5), source=source(seed=7, purpose="shuffle"))
    True
    >>> import numpy as np
    >>> shuffle(np.array(names), seed="round 1").tolist() == mixed
    True
    """
    is_list = type(items) is list  # (the common case: no array or iterable checks)
    if not is_list and _is_array(items):
        from croupier.shuffling.arrays import shuffle_array

        n = _length_along(items, axis)
        src = _source_for(_SHUFFLE_PURPOSE, seed, entropy, source, bulk=_bulk(n, method))
        return shuffle_array(items, src, axis=axis, method=method)  # type: ignore[arg-type]
    if axis != 0:
        raise CroupierError(f"axis= applies to numpy arrays; got axis={axis!r} for a sequence")
    if not is_list and not isinstance(items, Iterable):
        raise CroupierError(
            f"items= is a list, range, string or array to shuffle, not {type(items).__name__}"
        )
    values: list[T] = items.copy() if is_list else list(items)  # type: ignore[union-attr,assignment]
    n = len(values)
    if method is None and n <= 2048:  # lehmer: one draw below n!, decoded
        if seed is None and entropy is None and source is None:
            return _lehmer_taking()(values, _os_below_factorial(n))  # type: ignore[no-any-return]
        sampler = _module("croupier.randomness.uniform").UniformSampler(
            _source_for(_SHUFFLE_PURPOSE, seed, entropy, source)
        )
        return _lehmer_taking()(values, sampler.below(_factorial(n)))  # type: ignore[no-any-return]
    from croupier.shuffling.arrays import shuffle_order
    from croupier.shuffling.take import take_in_order

    src = _source_for(_SHUFFLE_PURPOSE, seed, entropy, source, bulk=_bulk(n, method))
    return take_in_order(values, shuffle_order(n, src, method=method, small=True))


@lru_cache(maxsize=1)
def _lehmer_taking() -> Any:
    """:func:`croupier.shuffling.lehmer.decode_rank_taking` (imported at the first shuffle)."""
    return _module("croupier.shuffling.lehmer").decode_rank_taking


def _length_along(items: Any, axis: int) -> int:
    """The number of items along ``axis`` (0 when the axis is bad: the shuffle says why)."""
    try:
        return int(items.shape[axis])
    except (IndexError, TypeError):
        return 0


def _bulk(n: int, method: str | None) -> int | None:
    """``n`` when the default method (or ``split``) makes a split shuffle of ``n`` items."""
    return n if (method is None and n > 2048) or method == "split" else None


@lru_cache(maxsize=4096)
def _factorial(n: int) -> int:
    import math

    return math.factorial(n)


def _os_below_factorial(n: int) -> int:
    """A uniform integer below ``n!`` straight from the OS CSPRNG (the default source).

    The first attempt of :class:`~croupier.randomness.UniformSampler` on a
    fresh sampler: the fewest bits that can hold ``n! - 1``, accepted below
    ``n!``; a rejected attempt (probability under 1/2) draws afresh.  No
    source object is made: this is the OS source's draw, with nothing held
    between calls (so nothing to renew after a fork).
    """
    top, nbytes, shift = _draw_plan(n)
    if top == 1:
        return 0
    urandom = os.urandom
    while True:
        value = int.from_bytes(urandom(nbytes), "big") >> shift
        if value < top:
            return value


@lru_cache(maxsize=4096)
def _draw_plan(n: int) -> tuple[int, int, int]:
    """``(n!, bytes to read, bits to drop)`` for a draw below ``n!`` with the fewest bits."""
    top = _factorial(n)
    k = (top - 1).bit_length()
    nbytes = (k + 7) >> 3
    return top, nbytes, 8 * nbytes - k


def shuffle_in_place(
    items: MutableSequence[Any] | npt.NDArray[Any],
    *,
    method: str | None = None,
    seed: Seed | None = None,
    entropy: str | None = None,
    source: RandomSource | None = None,
    axis: int = 0,
) -> None:
    """Shuffle a list or a numpy array in place: the order :func:`shuffle` would give.

    An array is shuffled along ``axis`` using at most one more array's worth
    of memory.

    >>> names = ["alice", "bob", "carol", "dave"]
    >>> shuffle_in_place(names, seed="round 1")
    >>> names == shuffle(["alice", "bob", "carol", "dave"], seed="round 1")
    True
    """
    if _is_array(items):
        from croupier.shuffling.arrays import shuffle_array_in_place

        n = _length_along(items, axis)
        src = _source_for(_SHUFFLE_PURPOSE, seed, entropy, source, bulk=_bulk(n, method))
        shuffle_array_in_place(items, src, axis=axis, method=method)  # type: ignore[arg-type]
        return
    if axis != 0:
        raise CroupierError(f"axis= applies to numpy arrays; got axis={axis!r} for a sequence")
    if not isinstance(items, MutableSequence):
        raise CroupierError(
            f"shuffle_in_place() needs a list or a numpy array, not {type(items).__name__}; "
            "shuffle() returns a shuffled copy of anything else"
        )
    from croupier.shuffling.arrays import shuffle_sequence_in_place

    n = len(items)
    src = _source_for(_SHUFFLE_PURPOSE, seed, entropy, source, bulk=_bulk(n, method))
    shuffle_sequence_in_place(items, src, method=method)


def permutation(
    n: int,
    *,
    method: str | None = None,
    seed: Seed | None = None,
    entropy: str | None = None,
    source: RandomSource | None = None,
) -> npt.NDArray[np.intp]:
    """A uniform arrangement of ``0, 1, ..., n-1`` as a numpy array.

    The same as ``shuffle(numpy.arange(n))`` (and as ``shuffle(range(n))``,
    as a list) from the same seed.

    >>> p = permutation(10, seed="draw")
    >>> sorted(p.tolist()) == list(range(10)), p.tolist() == shuffle(range(10), seed="draw")
    (True, True)
    """
    from croupier.shuffling.arrays import shuffle_order

    bulk = _bulk(n, method) if isinstance(n, int) else None
    src = _source_for(_SHUFFLE_PURPOSE, seed, entropy, source, bulk=bulk)
    return shuffle_order(n, src, method=method)


@overload
def sample(
    population: npt.NDArray[Any],
    k: int,
    *,
    seed: Seed | None = ...,
    entropy: str | None = ...,
    source: RandomSource | None = ...,
) -> npt.NDArray[Any]: ...


@overload
def sample(
    population: Sequence[T],
    k: int,
    *,
    seed: Seed | None = ...,
    entropy: str | None = ...,
    source: RandomSource | None = ...,
) -> list[T]: ...


def sample(
    population: Sequence[T] | npt.NDArray[Any],
    k: int,
    *,
    seed: Seed | None = None,
    entropy: str | None = None,
    source: RandomSource | None = None,
) -> list[T] | npt.NDArray[Any]:
    """``k`` distinct items of ``population`` in random order, exactly uniform.

    Each of the ``n!/(n-k)!`` ordered selections is equally likely
    (``croupier-sample/1``: the first ``k`` steps of a forward Fisher–Yates,
    each an exact draw; about ``log2(n!/(n-k)!)`` bits).  The population is
    never copied, so ``range(10**12)`` is fine; a numpy array gives an array
    (rows of a 2-D array).

    >>> sample(range(10**12), 3, seed="lottery")
    [..., ..., ...]
    >>> len(set(sample("abcdefgh", 8, seed=1)))
    8
    >>> sample("abc", 4)
    Traceback (most recent call last):
    ...
    croupier.errors.RangeError: sample size k=4 is out of range; use 0 <= k <= 3
    """
    from croupier.randomness.uniform import UniformSampler
    from croupier.shuffling.arrays import sample_indices

    src = _source_for(_SHUFFLE_PURPOSE, seed, entropy, source, small=True)
    if _is_array(population):
        import numpy as np

        picked = sample_indices(len(population), k, UniformSampler(src))
        return population[np.array(picked, dtype=np.intp)]  # type: ignore[call-overload]
    if not isinstance(population, Sequence):
        raise CroupierError(
            f"population must be a sequence (a list, range, string, array), not "
            f"{type(population).__name__}"
        )
    return [population[i] for i in sample_indices(len(population), k, UniformSampler(src))]


def rank(deal: Deal, scheme: str = "croupier") -> int:
    """The number of ``deal`` under a numbering ``scheme`` (the inverse of :func:`unrank`).

    Schemes: ``croupier`` (default) and ``sequence`` for any game; for bridge
    also ``bigdeal``, ``pavlicek``, ``pavlicek-1``, ``andrews``, ``andrews-1``.

    >>> d = unrank("bridge", 1, "pavlicek-1")
    >>> rank(d, "pavlicek-1"), rank(d, "pavlicek"), rank(d)
    (1, 0, 0)
    """
    from croupier.dealing.deal import Deal as _Deal

    if not isinstance(deal, _Deal):
        raise CroupierError(f"rank() numbers a Deal, not {type(deal).__name__}")
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
