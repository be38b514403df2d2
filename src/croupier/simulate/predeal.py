"""Predeal: cards fixed to seats before the rest of the deck is dealt, and fixed suit lengths.

A :class:`Predeal` fixes some cards of a layout to its piles (dealer's
``predeal north SAQ542, HKJ87``) and may fix suit lengths (dealer's
``predeal spades(north)==1``).  The cards not predealt (:attr:`Predeal.free_cards`)
are dealt into what is left of each pile (:attr:`Predeal.free_sizes`);
:meth:`Predeal.merge` puts the predealt cards back, for many deals at once.
A fixed suit length is a condition on the deal, not a card: the simulation
adds it to the script's condition (see ``docs/constraint-dealing.md``).

Two notations are read by :meth:`Predeal.parse`: dealer's, and a PBN-like
one where each hand is ``SEAT:spades.hearts.diamonds.clubs`` (``-`` or
nothing for a suit or a hand with no predealt card):

>>> p = Predeal.parse("north SAQ542, HKJ87, D32, CAK")
>>> p == Predeal.parse("N:AQ542.KJ87.32.AK")
True
>>> q = Predeal.parse("N:AK.-.-.- S:..Q.")
>>> [[c.code for c in h] for h in q.hands]
[['AS', 'KS'], [], ['QD'], []]
>>> len(q.free_cards), q.free_sizes
(49, (11, 13, 12, 13))
>>> q.count == Predeal.none().count * 13 * 12 * 13 // (52 * 51 * 50)
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import field
from functools import cached_property
from itertools import combinations
from typing import TypeAlias

import numpy as np
import numpy.typing as npt

from croupier.bulk.array import DealArray
from croupier.cards import Card, Suit, parse_card, parse_cards
from croupier.dealing.layout import Layout, Pile, make_layout
from croupier.errors import CroupierError, excerpt
from croupier.frozen import frozen_dataclass
from croupier.ranking.partitions import multinomial
from croupier.seats import SEATS
from croupier.simulate.ast import (
    SEAT_WORDS,
    SUIT_WORDS,
    SUITS,
    Binary,
    Call,
    Expr,
    Number,
    PredealLength,
    Script,
    SuitLetter,
)

__all__ = ["Predeal", "PredealError", "PredealLike"]

PredealLike: TypeAlias = "Predeal | str | Mapping[str, str | Iterable[Card | str]] | None"
"""What the Python API accepts as a predeal (see :meth:`Predeal.coerce`)."""

_SUIT_OF_LETTER: dict[str, Suit] = {s.letter: s for s in Suit}


class PredealError(CroupierError):
    """A predeal that cannot be dealt: a card twice, too many cards for a seat, an unknown seat."""


def _bridge() -> Layout:
    return make_layout("bridge")


@frozen_dataclass
class Predeal:
    """Cards fixed to the piles of a layout (``hands``, one tuple per pile) and fixed suit lengths.

    ``hands`` are kept in the deck's canonical order; ``lengths`` are
    dealer's ``predeal spades(north)==1`` items (they need piles named
    ``N E S W``).  The layout is bridge unless given.  Build one with
    :meth:`parse`, :meth:`from_script`, :meth:`none` or :meth:`coerce`.

    >>> from croupier.cards import parse_cards
    >>> p = Predeal((tuple(parse_cards("KS AS")), (), (), ()))
    >>> [c.code for c in p.hands[0]], p.free_sizes
    (['AS', 'KS'], (11, 13, 13, 13))
    >>> Predeal((tuple(parse_cards("AS")), tuple(parse_cards("AS")), (), ()))
    Traceback (most recent call last):
    ...
    croupier.simulate.predeal.PredealError: card AS is predealt to both N and E; give each card ...
    """

    hands: tuple[tuple[Card, ...], ...]
    lengths: tuple[PredealLength, ...] = ()
    layout: Layout = field(default_factory=_bridge)

    def __post_init__(self) -> None:
        layout = self.layout
        names = [p.name for p in layout.piles]
        if len(self.hands) != len(names):
            raise PredealError(
                f"a predeal of this layout has {len(names)} hands ({', '.join(names)}), "
                f"not {len(self.hands)}"
            )
        owner: dict[Card, int] = {}
        hands: list[tuple[Card, ...]] = []
        for pile, cards in enumerate(self.hands):
            for card in cards:
                if not isinstance(card, Card):
                    raise PredealError(f"predealt cards are Card objects, not {card!r}")
                if card not in layout:
                    raise PredealError(
                        f"card {card.code} is not in the {layout.deck_name} deck of this layout"
                    )
                if card in owner:
                    first, second = names[owner[card]], names[pile]
                    if first == second:
                        raise PredealError(f"card {card.code} is predealt to {first} twice")
                    raise PredealError(
                        f"card {card.code} is predealt to both {first} and {second}; "
                        "give each card to one seat"
                    )
                owner[card] = pile
            if len(cards) > layout.piles[pile].size:
                raise PredealError(
                    f"{len(cards)} cards are predealt to {names[pile]}, which holds "
                    f"{layout.piles[pile].size}"
                )
            hands.append(tuple(sorted(cards, key=layout.index)))
        object.__setattr__(self, "hands", tuple(hands))
        object.__setattr__(self, "lengths", self._checked_lengths())

    # -- construction ------------------------------------------------------------------

    @classmethod
    def none(cls, layout: Layout | str | None = None) -> Predeal:
        """Nothing predealt (every card is dealt at random).

        >>> Predeal.none().count == make_layout("bridge").count
        True
        """
        lay = _layout(layout)
        return cls(tuple(() for _ in lay.piles), (), lay)

    @classmethod
    def from_script(cls, script: Script) -> Predeal:
        """The predeal of a dealer script: its ``predeal`` cards and suit lengths (bridge).

        >>> from croupier.simulate import parse_script
        >>> s = parse_script("predeal south SAK, HQ\\npredeal hearts(north)==1")
        >>> p = Predeal.from_script(s)
        >>> [c.code for c in p.hands[2]], str(p.length_condition())
        (['AS', 'KS', 'QH'], 'hearts(north) == 1')
        """
        layout = _bridge()
        hands: list[list[Card]] = [[] for _ in layout.piles]
        for item in script.predeal:
            hands[SEATS.index(item.seat)].extend(item.cards)
        return cls(tuple(tuple(h) for h in hands), tuple(script.predeal_lengths), layout)

    @classmethod
    def parse(cls, text: str, layout: Layout | str | None = None) -> Predeal:
        """Read a predeal in dealer's notation or the PBN-like one.

        Dealer's: ``north SAQ542, HKJ87, D32, CAK south SK`` (seat words,
        then holdings; ``spades(north)==1`` fixes a suit length).  PBN-like:
        hands separated by spaces, each ``SEAT:S.H.D.C`` with ``-`` or
        nothing for a suit with no predealt card, or ``SEAT:-`` for none;
        ``SEAT`` is a pile name of the layout (or ``north`` ...); a hand
        without ``SEAT:`` goes to the pile after the previous one, as in a
        PBN deal string.  A hand may also be a list of cards
        (``P1:AS,KH``) for decks that are not the bridge deck.

        >>> [len(h) for h in Predeal.parse("W:AKQ.-.-.- - - J..Q.").hands]
        [0, 0, 2, 3]
        >>> Predeal.parse("P2:AS,KS", make_layout("holdem", players=2)).free_sizes
        (2, 0, 3, 1, 1, 43)
        >>> Predeal.parse("N:AKQJT98765432.A.-.-")
        Traceback (most recent call last):
        ...
        croupier.simulate.predeal.PredealError: 14 cards are predealt to N, which holds 13
        """
        if not isinstance(text, str):
            raise PredealError(f"a predeal is text, not {type(text).__name__}")
        lay = _layout(layout)
        if ":" in text:
            return cls._parse_pbn(text, lay)
        return cls._parse_dealer(text, lay)

    @classmethod
    def _parse_pbn(cls, text: str, layout: Layout) -> Predeal:
        hands: list[list[Card]] = [[] for _ in layout.piles]
        pile = -1
        for token in text.split():
            if ":" in token:
                seat, holding = token.split(":", 1)
                pile = _pile_index(layout, seat, text)
            elif pile < 0:
                raise PredealError(
                    f"predeal {excerpt(text)} starts without a seat; write SEAT:HAND, like "
                    "'N:AQ542.KJ87.32.AK'"
                )
            else:
                pile, holding = (pile + 1) % len(layout.piles), token
            hands[pile].extend(_holding(holding, text))
        return cls(tuple(tuple(h) for h in hands), (), layout)

    @classmethod
    def _parse_dealer(cls, text: str, layout: Layout) -> Predeal:
        from croupier.simulate.parse import ScriptError, parse_script

        body = text.strip()
        if body.lower().startswith("predeal "):
            body = body[len("predeal ") :]
        if not body:
            return cls.none(layout)
        try:
            script = parse_script("predeal " + body, filename="<predeal>")
        except ScriptError as exc:
            reason = str(exc).split(": ", 1)[-1]
            raise PredealError(f"bad predeal {excerpt(text)}: {reason}") from None
        only = Script(
            script.filename, predeal=script.predeal, predeal_lengths=script.predeal_lengths
        )
        if script != only:
            raise PredealError(
                f"bad predeal {excerpt(text)}: only seats with holdings and suit lengths "
                "(spades(north)==1) belong in a predeal"
            )
        hands: list[list[Card]] = [[] for _ in layout.piles]
        for item in script.predeal:
            hands[_pile_index(layout, item.seat, text)].extend(item.cards)
        return cls(tuple(tuple(h) for h in hands), tuple(script.predeal_lengths), layout)

    @classmethod
    def coerce(cls, value: PredealLike, layout: Layout | str | None = None) -> Predeal:
        """A predeal from what the Python API accepts: a :class:`Predeal`, text
        (:meth:`parse`), a mapping of seat to cards (text or :class:`Card` objects), or
        ``None`` (nothing predealt).

        >>> Predeal.coerce({"S": "AS KS", "north": ["QS"]}).free_sizes
        (12, 13, 11, 13)
        >>> Predeal.coerce(None, "euchre").free_sizes
        (5, 5, 5, 5, 4)
        """
        lay = _layout(layout)
        if value is None:
            return cls.none(lay)
        if isinstance(value, Predeal):
            if value.layout != lay:
                raise PredealError(
                    f"predeal= is for the layout {value.layout.describe()!r}, "
                    f"not {lay.describe()!r}"
                )
            return value
        if isinstance(value, str):
            return cls.parse(value, lay)
        if isinstance(value, Mapping):
            hands: list[list[Card]] = [[] for _ in lay.piles]
            for seat, cards in value.items():
                pile = _pile_index(lay, str(seat), str(seat))
                if isinstance(cards, str):
                    hands[pile].extend(_holding(cards, cards))
                else:
                    hands[pile].extend(parse_card(c) if isinstance(c, str) else c for c in cards)
            return cls(tuple(tuple(h) for h in hands), (), lay)
        raise PredealError(
            f"predeal= must be text, a mapping of seat to cards or a Predeal, "
            f"not {type(value).__name__}"
        )

    # -- what is left to deal ----------------------------------------------------------

    @cached_property
    def owners(self) -> tuple[int, ...]:
        """The predealt pile of every card of the deck (canonical order), -1 when free.

        >>> Predeal.parse("E:A...").owners[:3]
        (1, -1, -1)
        """
        owner = [-1] * len(self.layout.deck)
        for pile, cards in enumerate(self.hands):
            for card in cards:
                owner[self.layout.index(card)] = pile
        return tuple(owner)

    @cached_property
    def free_cards(self) -> tuple[int, ...]:
        """Deck indices (into ``layout.deck``) of the cards not predealt, ascending.

        >>> Predeal.parse("S:-.-.-.2").free_cards[-3:]
        (48, 49, 50)
        """
        return tuple(i for i, pile in enumerate(self.owners) if pile < 0)

    @cached_property
    def free_sizes(self) -> tuple[int, ...]:
        """Cards still to deal to each pile.

        >>> Predeal.parse("S:AKQ.-.-.-").free_sizes
        (13, 13, 10, 13)
        """
        return tuple(p.size - len(h) for p, h in zip(self.layout.piles, self.hands, strict=True))

    @cached_property
    def free_layout(self) -> Layout:
        """The layout of the free cards: the same piles with :attr:`free_sizes`.

        With nothing predealt it is :attr:`layout` itself.

        >>> Predeal.parse("N:AKQJ.-.-.-").free_layout.describe()
        'bridge: N 9, E 13, S 13, W 13 from standard, free cards (48 cards)'
        """
        if not any(self.hands):
            return self.layout
        lay = self.layout
        piles = tuple(
            Pile(p.name, size, p.is_hand)
            for p, size in zip(lay.piles, self.free_sizes, strict=True)
        )
        return Layout(
            game=lay.game,
            deck_name=f"{lay.deck_name}, free cards",
            deck=tuple(lay.deck[i] for i in self.free_cards),
            piles=piles,
            order=lay.order,
            remainder_name=lay.remainder_name,
        )

    @cached_property
    def count(self) -> int:
        """The number of deals of the layout that hold the predealt cards (exact).

        Fixed suit lengths are not counted in: they are part of the condition.

        >>> Predeal.parse("N:AQ542.KJ87.32.AK").count == make_layout("bridge").count // 635013559600
        True
        """
        return multinomial(self.free_sizes)

    @cached_property
    def _columns(self) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.uint8]]:
        owners = np.array(self.owners, np.int64)
        fixed = np.flatnonzero(owners >= 0)
        return np.flatnonzero(owners < 0), fixed, owners[fixed].astype(np.uint8)

    def merge(
        self,
        free_piles: npt.ArrayLike,
        *,
        bits: npt.ArrayLike | None = None,
        check: bool = True,
    ) -> DealArray:
        """Deals of the whole layout from deals of the free cards (one row per deal, vectorised).

        ``free_piles[i, j]`` is the pile of free card ``j`` (``free_cards[j]``)
        in deal ``i``; the predealt cards are put back in their piles.
        ``check`` verifies that every row has the layout's pile sizes.

        >>> from croupier.bulk import deal_array
        >>> p = Predeal.parse("N:AKQJT98765432.-.-.-")
        >>> free = deal_array(3, p.free_layout, seed="m")
        >>> deals = p.merge(free.piles)
        >>> deals.suit_lengths()[:, 0, 0].tolist(), bool((deals.piles[:, 13:] == free.piles).all())
        ([13, 13, 13], True)
        """
        free = np.asarray(free_piles)
        width = len(self.free_cards)
        if free.ndim != 2 or free.shape[1] != width:
            raise PredealError(
                f"free_piles= has shape {free.shape}; expected (n, {width}): "
                "one column per free card"
            )
        free_columns, fixed_columns, fixed_owner = self._columns
        if not fixed_columns.size:
            return DealArray(self.layout, free, bits=bits, check=check)
        full = np.empty((free.shape[0], len(self.layout.deck)), np.uint8)
        full[:, fixed_columns] = fixed_owner
        full[:, free_columns] = free
        return DealArray(self.layout, full, bits=bits, check=check)

    # -- suit lengths ------------------------------------------------------------------

    def length_condition(self) -> Expr | None:
        """The fixed suit lengths as one dealer condition (``None`` without any).

        >>> print(Predeal.parse("spades(north)==1 hearts(south)==5").length_condition())
        spades(north) == 1 && hearts(south) == 5
        """
        result: Expr | None = None
        for item in self.lengths:
            test = Binary("==", Call("length", item.seat, item.suit), Number(item.length))
            result = test if result is None else Binary("&&", result, test)
        return result

    def _checked_lengths(self) -> tuple[PredealLength, ...]:
        """The fixed suit lengths without repeats; refuses what no deal can satisfy."""
        layout = self.layout
        kept: dict[tuple[int, SuitLetter], PredealLength] = {}
        for item in self.lengths:
            if not isinstance(item, PredealLength):
                raise PredealError(f"a fixed suit length is a PredealLength, not {item!r}")
            name = f"{SUIT_WORDS[item.suit]}({SEAT_WORDS.get(item.seat, item.seat)})"
            names = [p.name for p in layout.piles]
            if item.seat not in names:
                raise PredealError(
                    f"{name}=={item.length}: this layout has no seat {item.seat}; "
                    f"its piles are {', '.join(names)}"
                )
            key = (names.index(item.seat), item.suit)
            old = kept.get(key)
            if old is not None and old.length != item.length:
                raise PredealError(f"{name} is fixed to both {old.length} and {item.length}")
            kept[key] = item
        if kept:
            self._check_feasible(kept)
        return tuple(kept.values())

    def _check_feasible(self, fixed: Mapping[tuple[int, SuitLetter], PredealLength]) -> None:
        """Refuse fixed lengths that no deal holding the predealt cards satisfies.

        The free cards of each suit must be shared between the piles with the
        lengths fixed; a transportation problem, feasible exactly when every set
        of piles can be filled from the suits left open to it (Hall's condition).
        """
        layout = self.layout
        suits: list[Suit | None] = sorted(
            {c.suit for c in layout.deck},
            key=lambda s: (s is None, SUITS.index(s.letter) if s else 0),
        )
        column = {s: j for j, s in enumerate(suits)}
        free_in = [0] * len(suits)
        for i in self.free_cards:
            free_in[column[layout.deck[i].suit]] += 1
        need: dict[tuple[int, int], int] = {}
        for (pile, letter), item in fixed.items():
            name = f"{SUIT_WORDS[letter]}({SEAT_WORDS.get(item.seat, item.seat)})=={item.length}"
            suit = _SUIT_OF_LETTER[letter]
            if suit not in column:
                raise PredealError(f"{name} cannot be dealt: the deck has no {SUIT_WORDS[letter]}")
            held = sum(1 for c in self.hands[pile] if c.suit == suit)
            if held > item.length:
                raise PredealError(
                    f"{name} cannot be dealt: {held} cards of the suit are predealt to {item.seat}"
                )
            need[pile, column[suit]] = item.length - held
        rows = [
            size - sum(n for (p, _), n in need.items() if p == pile)
            for pile, size in enumerate(self.free_sizes)
        ]
        cols = [
            free_in[j] - sum(n for (_, s), n in need.items() if s == j) for j in range(len(suits))
        ]
        constrained = sorted({p for p, _ in need})
        text = " ".join(
            f"{SUIT_WORDS[i.suit]}({SEAT_WORDS.get(i.seat, i.seat)})=={i.length}"
            for i in fixed.values()
        )
        if min(rows) < 0 or min(cols) < 0:
            raise PredealError(
                f"the fixed suit lengths {text} cannot be dealt: more cards than a seat "
                "holds or than a suit has left"
            )
        for size in range(1, len(constrained) + 1):
            for group in combinations(constrained, size):
                open_suits = {j for j in range(len(suits)) for p in group if (p, j) not in need}
                if sum(rows[p] for p in group) > sum(cols[j] for j in open_suits):
                    raise PredealError(
                        f"the fixed suit lengths {text} cannot be dealt with the predealt "
                        f"cards: {', '.join(layout.piles[p].name for p in group)} cannot be filled"
                    )


def _layout(layout: Layout | str | None) -> Layout:
    if layout is None:
        return _bridge()
    return make_layout(layout) if isinstance(layout, str) else layout


def _pile_index(layout: Layout, seat: str, text: str) -> int:
    """The pile named ``seat`` (case-insensitive; ``north`` ... for piles ``N`` ...)."""
    found = layout.find_pile(seat)
    if found is not None:
        return found
    names = [p.name for p in layout.piles]
    raise PredealError(
        f"unknown seat {excerpt(seat)} in predeal {excerpt(text)}; "
        f"expected one of {', '.join(names)}"
    )


def _holding(holding: str, text: str) -> list[Card]:
    """The cards of one PBN-like hand: ``S.H.D.C`` (``-`` or nothing for none) or a card list."""
    from croupier.formats.pbn_deal import parse_pbn_hand

    part = holding.strip()
    if part in ("", "-"):
        return []
    if "." in part:
        suits = ["" if s == "-" else s for s in part.split(".")]
        try:
            return parse_pbn_hand(".".join(suits))
        except CroupierError as exc:
            raise PredealError(f"bad hand {excerpt(holding)} in predeal: {exc}") from None
    try:
        return parse_cards(part)
    except CroupierError:
        raise PredealError(
            f"bad hand {excerpt(holding)} in predeal {excerpt(text)}; expected S.H.D.C like "
            "'AQ542.KJ87.-.AK' or cards like 'AS,KH'"
        ) from None
