"""A stateful deck for games: draw, deal, burn, put back, find, cut, shuffle and sort.

Position 0 is the TOP of the deck (the card a draw takes); the last position is
the bottom.  Every method that hands out several cards returns them as a
*packet* in deck order (the card that was nearest the top first), and every
method that takes several cards back reads them the same way, so putting back
what was taken restores the deck:

>>> deck = Deck("euchre", seed="kitchen table")
>>> deck.shuffle()
>>> before = list(deck)
>>> top3 = deck.draw(3)
>>> deck.put(top3)
>>> list(deck) == before
True

Shuffles run on an injected random source (the OS CSPRNG unless ``source=`` or
``seed=`` is given) and count the bits they use; errors are
:class:`~croupier.errors.CroupierError` subclasses that say what was asked for
and what the deck holds:

>>> hands = Deck().deal(5, players=4)
>>> [len(h) for h in hands]
[5, 5, 5, 5]
>>> Deck("stripped:A").draw(5)
Traceback (most recent call last):
...
croupier.errors.NotEnoughCardsError: cannot draw 5 cards (n=5): only 4 remain in the deck

The decks a ``Deck`` starts from (``"euchre"``, ``"stripped:A"``, shoes) are the
presets of :mod:`croupier.decks`, plain lists of cards.

:meth:`Deck.deal_layout` deals a game's layout from the top as a table does and
leaves the stock in the deck, in order, for drawing:

>>> import croupier
>>> table = Deck(seed="go fish night")
>>> table.shuffle()
>>> piles = table.deal_layout(croupier.layout("go-fish", players=4))
>>> [len(cards) for cards in piles.values()], len(table)
([5, 5, 5, 5], 32)
>>> pond = table.cards
>>> table.draw() == pond[0]
True
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator, Sequence
from typing import Protocol, overload

from croupier.cards import Card, Rank, Suit, format_cards, parse_card, parse_cards
from croupier.decks import make_deck
from croupier.errors import CroupierError, DeckError, NotEnoughCardsError, RangeError
from croupier.moves import cut as cut_cards
from croupier.orders import DEFAULT_ORDER, CardNotFoundError, CardOrder, sort_cards
from croupier.randomness.options import resolve_source
from croupier.randomness.purposes import Purpose
from croupier.randomness.seeded import Seed, seed_value
from croupier.randomness.source import OsRandomSource, RandomSource
from croupier.randomness.uniform import UniformSampler
from croupier.shuffling.registry import default_shuffle_method, get_shuffle_method

__all__ = ["SHUFFLE_PURPOSE", "Deck", "LayoutLike", "PileLike", "seed_text"]

SHUFFLE_PURPOSE = Purpose.SHUFFLE
"""The purpose a ``seed=`` is derived with, the same as ``croupier shuffle --seed``."""

_REPR_CARDS = 10


def seed_text(seed: Seed | None) -> str | bytes | None:
    """A seed as the streams take it: :func:`croupier.randomness.seed_value` (its former name).

    A whole number means its decimal digits, as ``--seed 42`` does; bytes stay bytes.

    >>> seed_text(42), seed_text("hex:2a"), seed_text(b"*"), seed_text(None)
    ('42', 'hex:2a', b'*', None)
    """
    return seed_value(seed)


def _chosen_source(
    seed: Seed | None, entropy: str | None, source: RandomSource | None
) -> RandomSource | None:
    """The source ``seed=``, ``entropy=`` or ``source=`` asks for (the one door,
    :func:`croupier.randomness.resolve_source`; a seed's stream has purpose
    ``shuffle``), or ``None`` when none is given (a fresh OS CSPRNG source)."""
    if seed is None and entropy is None and source is None:
        return None
    return resolve_source(seed, entropy, source, purpose=SHUFFLE_PURPOSE)


def _whole(value: object, name: str, what: str = "a whole number") -> int:
    """``value`` as an int (``bool`` refused), or a RangeError naming the parameter."""
    if not isinstance(value, bool):
        try:
            return operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise RangeError(f"{name}= must be {what}, got {value!r}")


def _count(value: object, name: str) -> int:
    """``value`` as a count >= 0, or a RangeError naming the parameter."""
    n = _whole(value, name, "a whole number >= 0")
    if n < 0:
        raise RangeError(f"{name}= must be a whole number >= 0, got {n}")
    return n


def _card(value: Card | str) -> Card:
    """A card, parsing text such as ``"QS"``."""
    if isinstance(value, Card):
        return value
    if isinstance(value, str):
        return parse_card(value)
    raise DeckError(f"expected a card or card text such as 'QS', got {value!r}")


def _packet(cards: Card | str | Iterable[Card | str]) -> list[Card]:
    """One card, card text (``"AS KH"``) or an iterable of cards, as a list."""
    if isinstance(cards, Card):
        return [cards]
    if isinstance(cards, str):
        return parse_cards(cards)
    if not isinstance(cards, Iterable):
        raise DeckError(f"expected cards or card text such as 'AS KH', got {type(cards).__name__}")
    return [_card(c) for c in cards]


def _preset(name: str) -> list[Card]:
    """The preset deck ``name``; when ``name`` is really card text, the error says to parse it."""
    try:
        return make_deck(name)
    except DeckError as exc:
        try:
            parse_cards(name)
        except CroupierError:
            raise exc from None
        raise DeckError(f"{exc}; for these cards use Deck.parse({name!r})") from None


class PileLike(Protocol):
    """What :meth:`Deck.deal_layout` reads of a pile (:class:`croupier.dealing.Pile`)."""

    @property
    def name(self) -> str: ...

    @property
    def size(self) -> int: ...

    @property
    def is_hand(self) -> bool: ...


class LayoutLike(Protocol):
    """What :meth:`Deck.deal_layout` reads of a layout (:class:`croupier.dealing.Layout`)."""

    @property
    def game(self) -> str: ...

    @property
    def piles(self) -> Sequence[PileLike]: ...

    @property
    def remainder_name(self) -> str | None: ...

    def __contains__(self, card: object) -> bool: ...


def _plural(n: int) -> str:
    return "card" if n == 1 else "cards"


class Deck:
    """A deck you can change: draw, deal, burn, put back, insert, find, remove, cut, shuffle, sort.

    ``cards`` is a deck preset name (``"standard"``, ``"euchre"``, ``"pinochle"``,
    ``"shoe:6"``, ``"stripped:AKQJ"``; see :func:`croupier.decks.make_deck`) or
    an iterable of cards, listed from the top.  Shuffles use ``source`` (the OS
    CSPRNG by default) or, with ``seed=``, the reproducible stream that
    ``croupier shuffle --seed`` uses, or ``entropy=`` (your own randomness).
    Card arguments may also be card text (``"QS"``, ``"10♥"``).

    >>> deck = Deck()
    >>> len(deck), deck[0], deck[-1], Card.parse("QH") in deck
    (52, Card.parse('AC'), Card.parse('KS'), True)
    >>> Deck.parse("AS KH 2C")
    <Deck of 3 cards: AS KH 2C>
    """

    __slots__ = ("_cards", "_source", "last_shuffle_bits", "shuffle_bits", "shuffles")

    def __init__(
        self,
        cards: str | Iterable[Card] = "standard",
        *,
        source: RandomSource | None = None,
        seed: Seed | None = None,
        entropy: str | None = None,
    ) -> None:
        chosen = _chosen_source(seed, entropy, source)
        if isinstance(cards, str):
            self._cards = _preset(cards)
        elif not isinstance(cards, Iterable):
            raise DeckError(
                f"a deck is a preset name such as 'euchre' or cards, not {type(cards).__name__}"
            )
        else:
            self._cards = list(cards)
            for i, c in enumerate(self._cards):
                if not isinstance(c, Card):
                    raise DeckError(
                        f"a deck holds cards, got {c!r} at position {i}; "
                        "parse text with Deck.parse('AS KH ...')"
                    )
        self._source = chosen
        self.last_shuffle_bits = 0.0
        """Bits of randomness the last :meth:`shuffle` used (0 before the first)."""
        self.shuffle_bits = 0.0
        """Bits of randomness all shuffles of this deck used together."""
        self.shuffles = 0
        """How many times :meth:`shuffle` ran."""

    @classmethod
    def parse(
        cls,
        text: str,
        *,
        source: RandomSource | None = None,
        seed: Seed | None = None,
        entropy: str | None = None,
    ) -> Deck:
        """A deck of the cards written in ``text``, top first (``source``, ``seed`` and
        ``entropy`` as above).

        >>> Deck.parse("10♥ AS, KD").cards
        (Card.parse('TH'), Card.parse('AS'), Card.parse('KD'))
        """
        return cls(parse_cards(text), source=source, seed=seed, entropy=entropy)

    # -- looking ------------------------------------------------------------------
    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards from top to bottom (a snapshot; the deck is not changed through it).

        >>> Deck("stripped:A").cards
        (Card.parse('AC'), Card.parse('AD'), Card.parse('AH'), Card.parse('AS'))
        """
        return tuple(self._cards)

    @property
    def source(self) -> RandomSource | None:
        """The source shuffles use when none is passed (``None``: a fresh OS CSPRNG source)."""
        return self._source

    def __len__(self) -> int:
        return len(self._cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(tuple(self._cards))

    def __contains__(self, card: object) -> bool:
        if isinstance(card, str):
            card = parse_card(card)
        return card in self._cards

    @overload
    def __getitem__(self, index: int) -> Card: ...
    @overload
    def __getitem__(self, index: slice) -> list[Card]: ...
    def __getitem__(self, index: int | slice) -> Card | list[Card]:
        """The card at ``index`` (0 = top, -1 = bottom), or a list for a slice."""
        return self._cards[index]

    def __eq__(self, other: object) -> bool:
        """Two decks are equal when they hold the same cards in the same order."""
        if not isinstance(other, Deck):
            return NotImplemented
        return self._cards == other._cards

    __hash__ = None  # type: ignore[assignment]  # a deck changes, so it is not hashable

    def __repr__(self) -> str:
        n = len(self._cards)
        if n <= _REPR_CARDS:
            shown = format_cards(self._cards)
        else:
            shown = f"{format_cards(self._cards[:3])} … {format_cards(self._cards[-2:])}"
        return f"<Deck of {n} {_plural(n)}: {shown}>" if n else "<Deck of 0 cards>"

    def __str__(self) -> str:
        """The cards with suit symbols, top first.

        >>> print(Deck.parse("AS 10H"))
        A♠ 10♥
        """
        return format_cards(self._cards, "symbol")

    def _repr_html_(self) -> str:
        """The cards as HTML for notebooks (hearts and diamonds red)."""
        from croupier.html import cards_html

        return cards_html(self._cards)

    def _check_enough(self, asked: int, what: str) -> None:
        left = len(self._cards)
        if asked > left:
            raise NotEnoughCardsError(
                f"cannot {what}: only {left} {'remains' if left == 1 else 'remain'} in the deck",
                asked=asked,
                remaining=left,
            )

    @overload
    def peek(self, n: None = None, *, bottom: bool = False) -> Card: ...
    @overload
    def peek(self, n: int, *, bottom: bool = False) -> list[Card]: ...
    def peek(self, n: int | None = None, *, bottom: bool = False) -> Card | list[Card]:
        """Look without taking: the top card, or the top (``bottom=True``: bottom) ``n`` cards.

        >>> deck = Deck()
        >>> deck.peek(), deck.peek(2, bottom=True), len(deck)
        (Card.parse('AC'), [Card.parse('QS'), Card.parse('KS')], 52)
        """
        if n is None:
            self._check_enough(1, "peek at a card")
            return self._cards[-1 if bottom else 0]
        k = _count(n, "n")
        self._check_enough(k, f"peek at {k} {_plural(k)} (n={n})")
        if k == 0:
            return []
        return self._cards[-k:] if bottom else self._cards[:k]

    # -- taking ---------------------------------------------------------------------
    def _take(self, k: int, bottom: bool) -> list[Card]:
        if bottom:
            cut_at = len(self._cards) - k
            packet = self._cards[cut_at:]
            del self._cards[cut_at:]
        else:
            packet = self._cards[:k]
            del self._cards[:k]
        return packet

    @overload
    def draw(self, n: None = None, *, bottom: bool = False) -> Card: ...
    @overload
    def draw(self, n: int, *, bottom: bool = False) -> list[Card]: ...
    def draw(self, n: int | None = None, *, bottom: bool = False) -> Card | list[Card]:
        """Take the top card, or a packet of the top (``bottom=True``: bottom) ``n`` cards.

        The packet is in deck order (nearest the top first), so
        ``deck.put(deck.draw(n))`` restores the deck.

        >>> deck = Deck.parse("AS KS QS JS")
        >>> deck.draw(), deck.draw(bottom=True), deck
        (Card.parse('AS'), Card.parse('JS'), <Deck of 2 cards: KS QS>)
        >>> deck.draw(3)
        Traceback (most recent call last):
        ...
        croupier.errors.NotEnoughCardsError: cannot draw 3 cards (n=3): only 2 remain in the deck
        """
        if n is None:
            self._check_enough(1, "draw a card")
            return self._cards.pop(-1 if bottom else 0)
        k = _count(n, "n")
        self._check_enough(k, f"draw {k} {_plural(k)} (n={n})")
        return self._take(k, bottom)

    @overload
    def burn(self, n: None = None) -> Card: ...
    @overload
    def burn(self, n: int) -> list[Card]: ...
    def burn(self, n: int | None = None) -> Card | list[Card]:
        """Discard the top card unseen (a dealer's burn), or a packet of the top ``n`` cards.

        Returns what it discards, for a discard pile, as :meth:`draw` does: the
        card, or the packet for ``burn(n)``.

        >>> deck = Deck.parse("AS KS QS JS")
        >>> deck.burn(), deck.burn(2), deck
        (Card.parse('AS'), [Card.parse('KS'), Card.parse('QS')], <Deck of 1 card: JS>)
        """
        if n is None:
            self._check_enough(1, "burn a card")
            return self._cards.pop(0)
        k = _count(n, "n")
        self._check_enough(k, f"burn {k} {_plural(k)} (n={n})")
        return self._take(k, bottom=False)

    def deal(self, n: int, players: int) -> list[list[Card]]:
        """Deal ``n`` cards to each of ``players`` players from the top, one card at a time in turn.

        Player ``p`` receives the cards at deck positions ``p``, ``p + players``,
        ``p + 2 * players``, ... (the round-robin of a real table); each hand lists
        its cards in the order received.

        >>> Deck.parse("AS KS QS JS TS 9S").deal(2, players=3)
        [[Card.parse('AS'), Card.parse('JS')], [Card.parse('KS'), Card.parse('TS')], \
[Card.parse('QS'), Card.parse('9S')]]
        >>> Deck().deal(14, players=4)
        Traceback (most recent call last):
        ...
        croupier.errors.NotEnoughCardsError: cannot deal 14 cards to each of 4 players \
(56 cards): only 52 remain in the deck
        """
        k = _count(n, "n")
        p = _count(players, "players")
        if p == 0:
            raise RangeError(f"players= must be at least 1, got {players!r}")
        total = k * p
        self._check_enough(total, f"deal {k} {_plural(k)} to each of {p} players ({total} cards)")
        packet = self._take(total, bottom=False)
        return [packet[i::p] for i in range(p)]

    def deal_layout(self, layout: LayoutLike) -> dict[str, list[Card]]:
        """Deal ``layout``'s piles from the top as a table does; the rest stays in the deck.

        The hands are dealt one card at a time to each player in turn (a
        player whose hand is full is skipped), then every shared pile (a burn
        card, the flop, the turn, the river, an upcard, a starter) takes the
        next cards, in the layout's order.  The remainder (the stock, the
        pond, the kitty) is not dealt: it stays in the deck in order, so
        :meth:`draw` takes its top card.  Each pile lists its cards in the
        order it received them: a stack's top card first.  From a uniformly
        shuffled deck every deal of the layout, stacks in order, is equally
        likely.  ``layout`` is a :class:`croupier.dealing.Layout` (``croupier.layout``);
        every card dealt must belong to its deck.

        >>> import croupier
        >>> deck = Deck.parse("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S")
        >>> piles = deck.deal_layout(croupier.layout("holdem", players=2))
        >>> {name: " ".join(c.code for c in cards) for name, cards in piles.items()}
        {'P1': 'AS QS', 'P2': 'KS JS', 'flop': 'TS 9S 8S', 'turn': '7S', 'river': '6S'}
        >>> deck
        <Deck of 4 cards: 5S 4S 3S 2S>
        >>> Deck("euchre").deal_layout(croupier.layout("war"))
        Traceback (most recent call last):
        ...
        croupier.errors.NotEnoughCardsError: cannot deal the 52 cards of war: only 24 remain ...
        """
        piles = list(layout.piles)
        if layout.remainder_name is not None and piles and piles[-1].name == layout.remainder_name:
            piles = piles[:-1]
        hands = [p for p in piles if p.is_hand]
        shared = [p for p in piles if not p.is_hand]
        total = sum(p.size for p in piles)
        self._check_enough(total, f"deal the {total} {_plural(total)} of {layout.game}")
        for card in self._cards[:total]:
            if card not in layout:
                raise DeckError(f"card {card.code} is not in the deck of {layout.game}")
        dealt: dict[str, list[Card]] = {p.name: [] for p in piles}
        packet = self._take(total, bottom=False)
        cards = iter(packet)
        left = [p.size for p in hands]
        while any(left):
            for i, pile in enumerate(hands):
                if left[i]:
                    dealt[pile.name].append(next(cards))
                    left[i] -= 1
        for pile in shared:
            dealt[pile.name] = [next(cards) for _ in range(pile.size)]
        return dealt

    # -- giving back ----------------------------------------------------------------
    def put(self, cards: Card | str | Iterable[Card | str], *, bottom: bool = False) -> None:
        """Put a card or a packet back on top (``bottom=True``: under the bottom).

        A packet keeps its order: its first card ends up nearest the top.

        >>> deck = Deck.parse("QS")
        >>> deck.put("AS KS")
        >>> deck.put(Card.parse("2S"), bottom=True)
        >>> deck
        <Deck of 4 cards: AS KS QS 2S>
        """
        packet = _packet(cards)
        if bottom:
            self._cards.extend(packet)
        else:
            self._cards[:0] = packet

    def insert(self, index: int, cards: Card | str | Iterable[Card | str]) -> None:
        """Insert a card or a packet so that its first card lands at position ``index``.

        ``index`` runs from 0 (on top) to ``len(deck)`` (under the bottom).

        >>> deck = Deck.parse("AS QS")
        >>> deck.insert(1, "KS")
        >>> deck
        <Deck of 3 cards: AS KS QS>
        >>> deck.insert(4, "JS")
        Traceback (most recent call last):
        ...
        croupier.errors.RangeError: index=4 is out of range: with 3 cards, use 0..3
        """
        i = self._position(index, len(self._cards))
        self._cards[i:i] = _packet(cards)

    def _position(self, index: int, top: int) -> int:
        i = _whole(index, "index")
        if not 0 <= i <= top:
            n = len(self._cards)
            raise RangeError(f"index={i} is out of range: with {n} {_plural(n)}, use 0..{top}")
        return i

    # -- searching ------------------------------------------------------------------
    def find(self, card: Card | str) -> int:
        """The position of ``card`` (the first, if a shoe holds equal cards); 0 is the top.

        >>> deck = Deck()
        >>> deck.find("AC"), deck.find("KS")
        (0, 51)
        >>> Deck("euchre").find("2C")
        Traceback (most recent call last):
        ...
        croupier.orders.CardNotFoundError: card 2C is not in the deck (24 cards)
        """
        c = _card(card)
        try:
            return self._cards.index(c)
        except ValueError:
            n = len(self._cards)
            raise CardNotFoundError(
                f"card {c.code} is not in the deck ({n} {_plural(n)})"
            ) from None

    def find_all(
        self, *, rank: Rank | str | None = None, suit: Suit | str | None = None
    ) -> list[int]:
        """The positions of every card of ``rank`` and/or ``suit``, top first.

        >>> deck = Deck()
        >>> deck.find_all(rank="A"), len(deck.find_all(suit="H"))
        ([0, 13, 26, 39], 13)
        >>> deck.find_all(rank="Q", suit="♠")
        [50]
        """
        want_rank = Rank.parse(rank) if isinstance(rank, str) else rank
        want_suit = Suit.parse(suit) if isinstance(suit, str) else suit
        return [
            i
            for i, c in enumerate(self._cards)
            if (want_rank is None or c.rank is want_rank)
            and (want_suit is None or c.suit is want_suit)
        ]

    def remove(self, card: Card | str) -> int:
        """Take ``card`` out of the deck, wherever it is; returns the position it had.

        ``deck.insert(deck.remove(card), card)`` puts it back where it was.

        >>> deck = Deck.parse("AS KS QS")
        >>> deck.remove("KS"), deck
        (1, <Deck of 2 cards: AS QS>)
        """
        i = self.find(card)
        del self._cards[i]
        return i

    # -- rearranging ----------------------------------------------------------------
    def cut(self, k: int) -> None:
        """Cut: the top ``k`` cards go under the rest (``k`` wraps; negative cuts from below).

        >>> deck = Deck.parse("AS KS QS JS")
        >>> deck.cut(1)
        >>> deck
        <Deck of 4 cards: KS QS JS AS>
        """
        self._cards = cut_cards(self._cards, _whole(k, "k"))

    def shuffle(
        self,
        *,
        seed: Seed | None = None,
        entropy: str | None = None,
        source: RandomSource | None = None,
        method: str | None = None,
    ) -> None:
        """Shuffle in place with ``method`` (see :mod:`croupier.shuffling.registry`).

        The default method is the exactly uniform ``lehmer`` (``fisher-yates`` above
        2,048 cards): :func:`croupier.shuffling.default_shuffle_method`, the rule
        ``croupier shuffle`` uses.  Randomness comes from ``seed`` (a fresh stream
        of that seed, purpose ``shuffle``: this shuffle alone, reproducibly), else
        ``entropy`` (your own randomness: ``dice:...``, ``coins:...``), else
        ``source``, else the deck's own source, else the OS CSPRNG; at most one of
        the three (:func:`croupier.randomness.resolve_source`).  So
        ``deck.shuffle(seed=s)`` orders a deck as ``Deck(..., seed=s)``'s first
        shuffle and ``croupier shuffle --deck NAME --seed s`` do.
        :attr:`last_shuffle_bits` and :attr:`shuffle_bits` count the bits used.

        >>> table = Deck("euchre")
        >>> table.shuffle(seed="hand 7")
        >>> first = Deck("euchre", seed="hand 7")
        >>> first.shuffle()
        >>> table == first
        True

        >>> deck = Deck(seed="game 1")
        >>> deck.shuffle()
        >>> deck.last_shuffle_bits >= 225.58, len(deck)
        (True, 52)
        >>> again = Deck(seed="game 1")
        >>> again.shuffle()
        >>> again == deck
        True
        """
        source = _chosen_source(seed, entropy, source)
        chosen = (
            default_shuffle_method(len(self._cards))
            if method is None
            else get_shuffle_method(method)
        )
        src = source if source is not None else self._source
        if src is None:
            src = self._source = OsRandomSource()
        before = src.bits_used
        self._cards = chosen(self._cards, UniformSampler(src))
        used = src.bits_used - before
        self.last_shuffle_bits = used
        self.shuffle_bits += used
        self.shuffles += 1

    def sort(self, order: str | CardOrder = DEFAULT_ORDER, *, descending: bool = False) -> None:
        """Sort in place by a card order (:mod:`croupier.orders`); by default a fresh deck's.

        >>> deck = Deck.parse("KH 2S AH")
        >>> deck.sort()
        >>> deck
        <Deck of 3 cards: AH KH 2S>
        >>> deck.sort("bridge", descending=True)
        >>> deck
        <Deck of 3 cards: 2S AH KH>
        """
        self._cards = sort_cards(self._cards, order, descending=descending)
