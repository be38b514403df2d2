"""Layouts: who gets how many cards of which deck, and what is left over.

A :class:`Layout` is a deck (in a fixed canonical order), a list of hands
(seat or player names with sizes), shared piles (a flop, an upcard, a
starter) and the remainder (stock, pond, kitty, skat) that takes whatever is
left.  Every pile is either a *set*, whose order carries no information (a
bridge hand, the skat), or a *stack*, a sequence listed top first (a stock, a
pond, a War pile, the euchre kitty with its turn-up card on top).  The number
of distinct deals of a layout is the multinomial ``n! / (k_1! k_2! …)`` over
all piles, remainder included, times ``k!`` for every stack of ``k`` cards.

Game presets follow the published rules for deck, hand sizes and piles
(``docs/games.md`` names the source of each):

>>> make_layout("bridge").describe()
'bridge: N 13, E 13, S 13, W 13 from standard (52 cards)'
>>> make_layout("go-fish", players=4).describe()
'go-fish: P1 5, P2 5, P3 5, P4 5, pond 32 from standard (52 cards); stacks: pond'
>>> make_layout("holdem", players=2).describe()
'holdem: P1 2, P2 2, flop 3, turn 1, river 1, stock 43 from standard (52 cards); stacks: stock'
>>> make_layout(hands=[7, 7, 7]).describe()
'custom: P1 7, P2 7, P3 7, stock 31 from standard (52 cards)'
>>> make_layout("bridge").count
53644737765488792839237440000
>>> from math import factorial
>>> make_layout("war").count == make_layout("war").partitions * factorial(26) ** 2
True
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from functools import cached_property
from typing import NamedTuple

from croupier.cards import BRIDGE_RANKS, BRIDGE_SUITS, Card
from croupier.errors import LayoutError, bounded_decimal, excerpt
from croupier.frozen import frozen_dataclass
from croupier.ranking.partitions import multinomial
from croupier.ranking.stacks import arrangements
from croupier.seats import SEATS, Seat, SeatError

__all__ = [
    "GAMES",
    "MAX_LAYOUT_CARDS",
    "GamePreset",
    "GameSetup",
    "Layout",
    "Pile",
    "canonical_deck",
    "game_names",
    "make_layout",
]

MAX_LAYOUT_CARDS = 5_200
"""The most cards a layout deals (100 standard decks), and the most piles it has.

Numbering and unranking deals take time that grows faster than the square of
the deck size, so bigger decks are refused before any card is built (see
``docs/limits.md``).
"""

_SHOWN_STOCK = 13
"""A remainder stack of more cards is a stock that text output leaves out unless asked."""

_SUIT_POS = {s: i for i, s in enumerate(BRIDGE_SUITS)}
_RANK_POS = {r: i for i, r in enumerate(BRIDGE_RANKS)}


def _canonical_key(card: Card) -> tuple[int, int, int]:
    if card.suit is None:
        return (len(BRIDGE_SUITS), 0, card.copy)
    return (_SUIT_POS[card.suit], _RANK_POS[card.rank], card.copy)


def canonical_deck(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The cards in croupier's dealing order: suits S H D C, ranks A K … 2, jokers last.

    Deal numbers and the deal methods work over this order, so a deal's number
    does not depend on how the deck was listed.  For the 52 standard cards it
    is Big Deal's and PBN's order (ace of spades first, two of clubs last).

    >>> [c.code for c in canonical_deck([Card.parse("2C"), Card.parse("AS"), Card.parse("TH")])]
    ['AS', 'TH', '2C']
    """
    deck = tuple(sorted(cards, key=_canonical_key))
    if len(set(deck)) != len(deck):
        raise LayoutError(
            "the deck holds the same card twice; give copies distinct copy numbers (e.g. a shoe)"
        )
    return deck


@frozen_dataclass
class Pile:
    """One pile of a layout: a player's (``is_hand``) or a shared/leftover pile, and a set
    (``stack=False``: its order carries no information) or a stack (a sequence, top first).

    >>> Pile("N", 13)
    Pile(name='N', size=13, is_hand=True, stack=False)
    >>> Pile("stock", 31, is_hand=False, stack=True).ordered
    True
    """

    name: str
    size: int
    is_hand: bool = True
    stack: bool = False

    @property
    def ordered(self) -> bool:
        """Whether the pile's order is part of the deal: a stack of two or more cards."""
        return self.stack and self.size > 1


@frozen_dataclass
class Layout:
    """A deck and the piles it is dealt into (the last pile may be the remainder).

    ``order`` names the card order used to display hands (see
    :mod:`croupier.orders`).  Build layouts with :func:`make_layout`.

    >>> lay = make_layout("euchre")
    >>> lay.sizes, lay.remainder_name
    ((5, 5, 5, 5, 4), 'kitty')
    """

    game: str
    deck_name: str
    deck: tuple[Card, ...]
    piles: tuple[Pile, ...]
    order: str = "bridge"
    remainder_name: str | None = None

    def __post_init__(self) -> None:
        _check_cards(len(self.deck), self.deck_name)
        if sum(p.size for p in self.piles) != len(self.deck):
            raise LayoutError(
                f"pile sizes {[p.size for p in self.piles]} do not add up to the "
                f"{len(self.deck)} cards of the deck"
            )

    @cached_property
    def _index(self) -> dict[Card, int]:
        """Each card's position in :attr:`deck` (built once per instance, never shared)."""
        return {c: i for i, c in enumerate(self.deck)}

    @property
    def sizes(self) -> tuple[int, ...]:
        """The size of every pile, remainder included."""
        return tuple(p.size for p in self.piles)

    @property
    def hand_piles(self) -> tuple[Pile, ...]:
        """The piles that are players' hands."""
        return tuple(p for p in self.piles if p.is_hand)

    @property
    def players(self) -> int:
        """The number of hands."""
        return len(self.hand_piles)

    @cached_property
    def stack_piles(self) -> tuple[int, ...]:
        """The indices of the piles whose order is dealt: the stacks of two or more cards.

        >>> make_layout("euchre").stack_piles, make_layout("bridge").stack_piles
        ((4,), ())
        """
        return tuple(i for i, p in enumerate(self.piles) if p.ordered)

    @cached_property
    def ordered(self) -> bool:
        """Whether some pile's order is dealt (a stack of two or more cards).

        >>> make_layout("war").ordered, make_layout("skat").ordered
        (True, False)
        """
        return any(p.ordered for p in self.piles)

    @cached_property
    def partitions(self) -> int:
        """``M``: the ways to split the deck into the piles, ``n! / ∏ k!`` over all piles."""
        return multinomial(self.sizes)

    @cached_property
    def arrangements(self) -> int:
        """``∏ k!`` over the stacks: the orders the stacks can lie in (1 without stacks)."""
        return arrangements([self.piles[i].size for i in self.stack_piles])

    @cached_property
    def count(self) -> int:
        """The number of distinct deals: :attr:`partitions` times :attr:`arrangements`.

        >>> make_layout("euchre").count == make_layout("euchre").partitions * 24
        True
        """
        return self.partitions * self.arrangements

    @property
    def stock_pile(self) -> int | None:
        """The index of the stock, the face-down draw pile a table does not show: the
        remainder when it is a stack of more than 13 cards (else ``None``).

        >>> make_layout("holdem").stock_pile, make_layout("euchre").stock_pile
        (9, None)
        """
        if self.remainder_name is None:
            return None
        last = self.piles[-1]
        return len(self.piles) - 1 if last.stack and last.size > _SHOWN_STOCK else None

    def with_stacks(self, *names: str) -> Layout:
        """The same layout with the piles ``names`` as stacks (dealt in order, top first).

        >>> make_layout(hands=[7, 7]).with_stacks("stock").describe()
        'custom: P1 7, P2 7, stock 38 from standard (52 cards); stacks: stock'
        >>> make_layout("bridge").with_stacks("Q")
        Traceback (most recent call last):
        ...
        croupier.errors.LayoutError: no pile 'Q' in bridge; the piles are N, E, S, W
        """
        known = [p.name for p in self.piles]
        for name in names:
            if name not in known:
                raise LayoutError(
                    f"no pile {excerpt(name)} in {self.game}; the piles are {', '.join(known)}"
                )
        piles = tuple(
            Pile(p.name, p.size, p.is_hand, p.stack or p.name in names) for p in self.piles
        )
        return replace(self, piles=piles)

    def without_stacks(self) -> Layout:
        """The same layout with every pile a set: the deals of ``croupier-deal/2`` and
        ``croupier-bulk/1``, which dealt every game so.

        >>> make_layout("go-fish").without_stacks().ordered
        False
        """
        piles = tuple(Pile(p.name, p.size, p.is_hand) for p in self.piles)
        return replace(self, piles=piles)

    @property
    def bridge_like(self) -> bool:
        """Four hands N, E, S, W of 13 from the 52 standard cards (PBN applies).

        >>> make_layout("whist").bridge_like, make_layout("euchre").bridge_like
        (True, False)
        """
        from croupier.ranking.schemes import is_bridge_deck

        return (
            [p.name for p in self.piles] == list(_NESW)
            and not self.ordered
            and is_bridge_deck(self.deck, self.sizes)
        )

    def __contains__(self, card: object) -> bool:
        """Whether ``card`` is one of the deck's cards.

        >>> Card.parse("9S") in make_layout("euchre"), Card.parse("8S") in make_layout("euchre")
        (True, False)
        """
        return card in self._index

    def index(self, card: Card) -> int:
        """The position of ``card`` in the deck (raises if it is not in it)."""
        try:
            return self._index[card]
        except KeyError:
            raise LayoutError(
                f"card {card.code!r} is not in the {self.deck_name} deck of this layout"
            ) from None

    def find_pile(self, name: object) -> int | None:
        """The index of the pile ``name`` names, or ``None``: the one lookup of a pile by name.

        An index (``0`` to the last pile), a pile's name in any case (``"kitty"``,
        ``"FLOP"``), or a compass seat (``"north"``, ``"S"``) for the piles named
        ``N``, ``E``, ``S``, ``W``.

        >>> bridge, holdem = make_layout("bridge"), make_layout("holdem")
        >>> bridge.find_pile("south"), bridge.find_pile("w"), bridge.find_pile(1)
        (2, 3, 1)
        >>> holdem.find_pile("FLOP"), holdem.find_pile("north"), holdem.find_pile(99)
        (6, None, None)
        """
        names = [p.name for p in self.piles]
        if isinstance(name, bool):
            return None
        if not isinstance(name, str):
            try:
                index = operator.index(name)  # type: ignore[arg-type]  # (a numpy integer too)
            except TypeError:
                return None
            return index if 0 <= index < len(names) else None
        key = name.strip().lower()
        for i, pile in enumerate(names):
            if pile.lower() == key:
                return i
        try:
            letter = Seat.parse(name.strip()).letter  # north, South, ...: the piles N E S W
        except SeatError:
            return None
        return names.index(letter) if letter in names else None

    def pile_records(self) -> list[dict[str, str | int | bool]]:
        """Every pile as a JSON-ready record: name, size, kind (hand, remainder or pile),
        and ``"stack": true`` for a stack (its cards are listed top first).

        >>> make_layout("euchre").pile_records()[-1]
        {'name': 'kitty', 'size': 4, 'kind': 'remainder', 'stack': True}
        >>> make_layout("bridge").pile_records()[0]
        {'name': 'N', 'size': 13, 'kind': 'hand'}
        """
        records: list[dict[str, str | int | bool]] = []
        for p in self.piles:
            kind = "hand" if p.is_hand else "remainder" if p.name == self.remainder_name else "pile"
            record: dict[str, str | int | bool] = {"name": p.name, "size": p.size, "kind": kind}
            if p.stack:
                record["stack"] = True
            records.append(record)
        return records

    def describe(self) -> str:
        """One line: the piles with their sizes and the deck, then the stacks if any."""
        piles = ", ".join(f"{p.name} {p.size}" for p in self.piles)
        text = f"{self.game}: {piles} from {self.deck_name} ({len(self.deck)} cards)"
        stacks = [p.name for p in self.piles if p.stack]
        return text + (f"; stacks: {', '.join(stacks)}" if stacks else "")


# -- decks ------------------------------------------------------------------------------


def _shown(n: int) -> str:
    """A number for a message, or its size when it is long (no 4,300-digit ``str()``).

    >>> _shown(7), _shown(10**400)
    ('7', 'a 1329-bit number')
    """
    return str(n) if n.bit_length() < 100 else f"a {n.bit_length()}-bit number"


def _check_cards(count: int, deck_name: str) -> None:
    """Refuse a deck of more than :data:`MAX_LAYOUT_CARDS` cards before dealing from it.

    >>> make_layout(hands=[2600, 2600], deck="shoe:101")
    Traceback (most recent call last):
    ...
    croupier.errors.LayoutError: the shoe:101 deck has 5252 cards; a layout deals at most 5200 ...
    """
    if count > MAX_LAYOUT_CARDS:
        raise LayoutError(
            f"the {deck_name} deck has {count} cards; a layout deals at most "
            f"{MAX_LAYOUT_CARDS} cards (100 standard decks)"
        )


def _deck(name: str) -> list[Card]:
    from croupier.decks import make_deck

    return make_deck(name)


def _deck_size(name: str) -> int:
    """The size of deck preset ``name`` (:func:`croupier.decks.deck_size`).

    >>> _deck_size("shoe:2")
    104
    """
    from croupier.decks import deck_size as size

    return size(name)


def _without(cards: list[Card], codes: str) -> list[Card]:
    drop = {Card.parse(c) for c in codes.split()}
    return [c for c in cards if c not in drop]


# -- game presets ----------------------------------------------------------------------

_NESW = tuple(seat.letter for seat in SEATS)  # the pile names of four-handed partnership games


def _names(players: int, compass: bool = False) -> list[str]:
    """Seat names: N E S W for four-handed partnership games, else P1, P2, ..."""
    return list(_NESW) if compass and players == 4 else [f"P{i + 1}" for i in range(players)]


class GameSetup(NamedTuple):
    """What a game preset builds for a number of players: the deck and the piles.

    ``remainder`` names the pile that takes the cards left over (``stock``,
    ``pond``, ``kitty``, ...), or is ``None`` when the game deals out the whole
    deck; ``remainder_stack`` says whether that pile is a stack (dealt in order,
    top first, like a stock one draws from) or a set.

    >>> setup = GAMES["euchre"].build(4)
    >>> setup.deck_name, len(setup.cards), [p.size for p in setup.piles], setup.remainder
    ('euchre', 24, [5, 5, 5, 5], 'kitty')
    >>> setup.remainder_stack, GAMES["bridge"].build(4).remainder is None
    (True, True)
    """

    deck_name: str
    cards: list[Card]
    piles: list[Pile]
    remainder: str | None
    remainder_stack: bool = False


@frozen_dataclass
class GamePreset:
    """A game: the players it allows, and how to build its layout for ``players``.

    >>> GAMES["holdem"].players[:3], GAMES["holdem"].default_players
    ((2, 3, 4), 6)
    """

    name: str
    players: tuple[int, ...]
    default_players: int
    description: str
    build: Callable[[int], GameSetup]
    order: str = "bridge"
    aliases: tuple[str, ...] = ()


def _bridge4(players: int) -> GameSetup:
    return GameSetup("standard", _deck("standard"), [Pile(s, 13) for s in _NESW], None)


def _hearts(players: int) -> GameSetup:
    drop = {3: "2D", 4: "", 5: "2D 2C"}[players]
    cards = _without(_deck("standard"), drop) if drop else _deck("standard")
    name = "standard" if not drop else f"standard without {drop.replace(' ', ', ')}"
    piles = [Pile(s, len(cards) // players) for s in _names(players, True)]
    return GameSetup(name, cards, piles, None)


def _go_fish(players: int) -> GameSetup:
    size = 7 if players <= 3 else 5
    piles = [Pile(s, size) for s in _names(players)]
    return GameSetup("standard", _deck("standard"), piles, "pond", True)


def _war(players: int) -> GameSetup:
    piles = [Pile(s, 52 // players, stack=True) for s in _names(players)]
    return GameSetup("standard", _deck("standard"), piles, None)


def _ratscrew(players: int) -> GameSetup:
    base, extra = divmod(52, players)
    piles = [
        Pile(s, base + (1 if i < extra else 0), stack=True) for i, s in enumerate(_names(players))
    ]
    return GameSetup("standard", _deck("standard"), piles, None)


def _per_player(
    size: int, shared: Sequence[tuple[str, int]] = (), deck: str = "standard"
) -> Callable[[int], GameSetup]:
    """``size`` cards each, then the ``shared`` piles in turn, then the stock (a stack)."""

    def build(players: int) -> GameSetup:
        piles = [Pile(s, size) for s in _names(players)]
        piles += [Pile(name, k, is_hand=False) for name, k in shared]
        return GameSetup(deck, _deck(deck), piles, "stock", True)

    return build


_BOARD = (("flop", 3), ("turn", 1), ("river", 1))
"""The community cards of hold'em and Omaha, in the order they are turned."""

_BOARD_BURNS = (("burn1", 1), ("flop", 3), ("burn2", 1), ("turn", 1), ("burn3", 1), ("river", 1))
"""The same with a burn card before the flop, the turn and the river, as casinos deal."""


def _cribbage(players: int) -> GameSetup:
    size = 6 if players == 2 else 5
    piles = [Pile(s, size) for s in _names(players)]
    if players == 3:
        piles.append(Pile("crib", 1, is_hand=False))
    piles.append(Pile("starter", 1, is_hand=False))
    return GameSetup("standard", _deck("standard"), piles, "stock", True)


def _euchre(players: int) -> GameSetup:
    piles = [Pile(s, 5) for s in _NESW]
    return GameSetup("euchre", _deck("euchre"), piles, "kitty", True)


def _skat(players: int) -> GameSetup:
    return GameSetup("skat", _deck("skat"), [Pile(s, 10) for s in ("P1", "P2", "P3")], "skat")


def _pinochle(players: int) -> GameSetup:
    seats = _names(players, True)
    if players == 2:
        piles = [Pile(s, 12) for s in seats] + [Pile("trump", 1, is_hand=False)]
        return GameSetup("pinochle", _deck("pinochle"), piles, "stock", True)
    size = {3: 15, 4: 12}[players]
    rest = {3: "widow", 4: None}[players]
    return GameSetup("pinochle", _deck("pinochle"), [Pile(s, size) for s in seats], rest)


GAMES: dict[str, GamePreset] = {
    g.name: g
    for g in (
        GamePreset("bridge", (4,), 4, "4 hands of 13 (N E S W)", _bridge4),
        GamePreset("whist", (4,), 4, "4 hands of 13", _bridge4),
        GamePreset("spades", (4,), 4, "4 hands of 13", _bridge4),
        GamePreset(
            "hearts", (3, 4, 5), 4, "4 x 13; 3 x 17 without 2D; 5 x 10 without 2D 2C", _hearts
        ),
        GamePreset(
            "go-fish",
            (2, 3, 4, 5, 6),
            3,
            "7 cards each for 2-3 players, 5 for 4-6; the rest is the pond (a stack)",
            _go_fish,
            aliases=("gofish",),
        ),
        GamePreset("war", (2,), 2, "26 cards each, face-down stacks", _war),
        GamePreset(
            "ratscrew",
            (2, 3, 4, 5, 6, 7, 8),
            2,
            "Egyptian Ratscrew: the whole deck as evenly as possible, face-down stacks",
            _ratscrew,
            aliases=("egyptian-ratscrew",),
        ),
        GamePreset(
            "draw",
            (2, 3, 4, 5, 6, 7),
            4,
            "five-card draw: 5 cards each, the rest is the stock (a stack)",
            _per_player(5),
            aliases=("five-card-draw", "poker"),
        ),
        GamePreset(
            "holdem",
            tuple(range(2, 11)),
            6,
            "Texas hold'em: 2 hole cards each, flop, turn, river, the stock (a stack)",
            _per_player(2, _BOARD),
            aliases=("texas-holdem", "hold-em", "texas"),
        ),
        GamePreset(
            "holdem-burn",
            tuple(range(2, 11)),
            6,
            "Texas hold'em with a burn card before the flop, the turn and the river",
            _per_player(2, _BOARD_BURNS),
            aliases=("texas-holdem-burn",),
        ),
        GamePreset(
            "omaha",
            tuple(range(2, 11)),
            6,
            "Omaha: 4 hole cards each, flop, turn, river, the stock (a stack)",
            _per_player(4, _BOARD),
        ),
        GamePreset(
            "omaha-burn",
            tuple(range(2, 11)),
            6,
            "Omaha with a burn card before the flop, the turn and the river",
            _per_player(4, _BOARD_BURNS),
        ),
        GamePreset(
            "gin",
            (2,),
            2,
            "gin rummy: 10 cards each, one upcard, the rest is the stock (a stack)",
            _per_player(10, [("upcard", 1)]),
            aliases=("gin-rummy",),
        ),
        GamePreset(
            "cribbage",
            (2, 3, 4),
            2,
            "6 cards each (5 for 3-4 players, plus 1 to the crib for 3), a starter, the stock",
            _cribbage,
        ),
        GamePreset(
            "euchre",
            (4,),
            4,
            "24-card deck (9-A), 5 cards each, the kitty of 4 (a stack: its top card is turned)",
            _euchre,
        ),
        GamePreset(
            "skat",
            (3,),
            3,
            "32-card deck (7-A), 10 cards each, 2 in the skat",
            _skat,
            order="custom:ATKQJ987:SHDC",
        ),
        GamePreset(
            "pinochle",
            (2, 3, 4),
            4,
            "48-card deck (two of each 9-A), 12 cards each (15 + widow 3 for 3 players; "
            "2 players: 12 each, the trump card, the stock)",
            _pinochle,
            order="pinochle",
        ),
    )
}

_ALIASES = {alias: g.name for g in GAMES.values() for alias in (g.name, *g.aliases)}
_ALIASES.update({"texas-hold'em": "holdem", "hold'em": "holdem"})


def game_names() -> list[str]:
    """The names of the game presets.

    >>> game_names()[:4]
    ['bridge', 'whist', 'spades', 'hearts']
    """
    return list(GAMES)


def _whole(value: object, what: str) -> int:
    """``value`` as an int (a numpy integer too; ``bool``, floats and text refused).

    >>> _whole(7, "players="), _whole(7.5, "players=")
    Traceback (most recent call last):
    ...
    croupier.errors.LayoutError: players= must be a whole number, got 7.5
    """
    if not isinstance(value, bool):
        try:
            return operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            pass
    shown = excerpt(value) if isinstance(value, str) else repr(value)[:40]
    raise LayoutError(f"{what} must be a whole number, got {shown}")


def _parse_sizes(hands: Sequence[int] | str) -> list[int]:
    """Hand sizes from ``"7,7,7"`` (ASCII digits only) or a sequence of ints, range-checked.

    >>> _parse_sizes("7, 7,7"), _parse_sizes([5, 5])
    ([7, 7, 7], [5, 5])
    >>> _parse_sizes("7,٣")
    Traceback (most recent call last):
    ...
    croupier.errors.LayoutError: bad hand sizes '7,٣'; expected numbers separated by commas, ...
    """
    if isinstance(hands, str):
        parts = [p.strip() for p in hands.replace(" ", ",").split(",") if p.strip()]
        if len(parts) > MAX_LAYOUT_CARDS:
            raise LayoutError(
                f"{len(parts)} hand sizes given; a layout has at most {MAX_LAYOUT_CARDS} piles"
            )
        values = [bounded_decimal(p, 9) for p in parts]
        if any(v is None for v in values):
            raise LayoutError(
                f"bad hand sizes {excerpt(hands)}; expected numbers separated by commas, like 7,7,7"
            )
        sizes = [v for v in values if v is not None]
    else:
        if not isinstance(hands, Sequence):
            raise LayoutError(
                f"hands= is a list of hand sizes or text like '7,7,7', not {type(hands).__name__}"
            )
        if len(hands) > MAX_LAYOUT_CARDS:
            raise LayoutError(
                f"{len(hands)} hand sizes given; a layout has at most {MAX_LAYOUT_CARDS} piles"
            )
        sizes = [_whole(h, "hand size") for h in hands]
        if len(sizes) > MAX_LAYOUT_CARDS:
            raise LayoutError(
                f"{len(sizes)} hand sizes given; a layout has at most {MAX_LAYOUT_CARDS} piles"
            )
    if not sizes:
        raise LayoutError("no hands given; a layout needs at least one player")
    for s in sizes:
        if s < 0:
            raise LayoutError(f"hand size {s} is negative; hand sizes must be >= 0")
        if s > MAX_LAYOUT_CARDS:
            raise LayoutError(
                f"hand size {s} is too large; a layout deals at most {MAX_LAYOUT_CARDS} cards"
            )
    return sizes


def make_layout(
    game: str | None = None,
    *,
    players: int | None = None,
    hands: Sequence[int] | str | None = None,
    deck: str | Sequence[Card] | None = None,
    names: Sequence[str] | None = None,
) -> Layout:
    """The layout of a game preset, or a custom one from hand sizes.

    ``game`` is a preset name (see :func:`game_names`); ``None`` means bridge,
    or ``custom`` when ``hands`` is given.  ``hands`` (e.g. ``[7, 7, 7]`` or
    ``"7,7,7"``) overrides the hand sizes, the rest of the deck going to the
    game's remainder pile (``stock`` for custom layouts).  ``deck`` is a deck
    preset name (:func:`croupier.decks.make_deck`) or a list of cards.

    >>> make_layout("skat").describe()
    'skat: P1 10, P2 10, P3 10, skat 2 from skat (32 cards)'
    >>> make_layout("bridge", players=3)
    Traceback (most recent call last):
    ...
    croupier.errors.LayoutError: bridge is played by 4 players, not 3
    >>> make_layout(hands=[20, 20, 20])
    Traceback (most recent call last):
    ...
    croupier.errors.LayoutError: hands of 20, 20, 20 need 60 cards but the standard deck has 52
    """
    if game is None:
        game = "custom" if hands is not None else "bridge"
    if not isinstance(game, str):
        raise LayoutError(
            f"game= is a game name such as 'bridge' or a Layout, not {type(game).__name__}"
        )
    key = game.strip().lower().replace("_", "-").replace(" ", "-")
    if players is not None:
        players = _whole(players, "players=")
    if players is not None and players < 1:
        raise LayoutError(f"players= must be at least 1, got {_shown(players)}")
    if key == "custom":
        if hands is None and players is None:
            raise LayoutError('a custom layout needs hand sizes, e.g. hands="7,7,7"')
        setup, order = GameSetup("standard", [], [], "stock"), "bridge"
    else:
        key, setup, order = _preset_setup(game, key, players, hands)
    deck_name, cards, piles, rest, rest_stack = setup
    if hands is not None:
        piles = _resized(piles, hands, players)
        if rest is None:
            rest = "stock"
    elif key == "custom" and players is not None:
        raise LayoutError('a custom layout needs hand sizes, e.g. hands="7,7,7"')
    if deck is not None:
        deck_name, cards = _given_deck(deck)
    elif not cards:
        cards = _deck("standard")
    if not piles:
        raise LayoutError("a layout needs at least one player")
    if names is not None:
        if len(names) != len(piles):
            raise LayoutError(f"{len(names)} names given for {len(piles)} piles")
        piles = [Pile(n, p.size, p.is_hand, p.stack) for n, p in zip(names, piles, strict=True)]
    remainder = _remainder(key, deck_name, len(cards), piles, rest, rest_stack)
    if remainder is not None:
        piles.append(remainder)
    return Layout(
        game=key,
        deck_name=deck_name,
        deck=canonical_deck(cards),
        piles=tuple(piles),
        order=order,
        remainder_name=remainder.name if remainder is not None else None,
    )


def _preset_setup(
    game: str, key: str, players: int | None, hands: Sequence[int] | str | None
) -> tuple[str, GameSetup, str]:
    """The preset ``key`` names, built: ``(its name, its setup, its card order)``.

    The number of players is ``players``, else the number of ``hands``, else the
    preset's default; with ``hands`` given, a number the preset does not take
    builds the default setup (the hands replace its piles).
    """
    name = _ALIASES.get(key)
    if name is None:
        raise LayoutError(
            f"unknown game {excerpt(game)}; expected one of {', '.join(GAMES)} or custom"
        )
    preset = GAMES[name]
    count = preset.default_players if players is None else players
    if hands is not None and players is None:
        count = len(_parse_sizes(hands))
    if count not in preset.players and hands is None:
        allowed = preset.players
        span = (
            str(allowed[0])
            if len(allowed) == 1
            else f"{allowed[0]}-{allowed[-1]}"
            if list(allowed) == list(range(allowed[0], allowed[-1] + 1))
            else ", ".join(map(str, allowed))
        )
        verb = "is played by" if len(allowed) == 1 else "takes"
        raise LayoutError(f"{name} {verb} {span} players, not {_shown(count)}")
    setup = preset.build(count if count in preset.players else preset.default_players)
    return name, setup, preset.order


def _resized(piles: list[Pile], hands: Sequence[int] | str, players: int | None) -> list[Pile]:
    """``piles`` with the hands replaced by hands of the sizes ``hands`` gives."""
    sizes = _parse_sizes(hands)
    if players is not None and players != len(sizes):
        raise LayoutError(f"players={_shown(players)} but {len(sizes)} hand sizes were given")
    shared = [p for p in piles if not p.is_hand]
    stacks = any(p.stack for p in piles if p.is_hand)  # War's piles stay stacks
    names_ = _names(len(sizes))
    return [Pile(s, k, stack=stacks) for s, k in zip(names_, sizes, strict=True)] + shared


def _given_deck(deck: str | Sequence[Card]) -> tuple[str, list[Card]]:
    """``deck=`` (a preset name or cards), checked: ``(its name, its cards)``."""
    if isinstance(deck, str):
        deck_name = deck.strip().lower()
        _check_cards(_deck_size(deck), deck_name)  # before a big shoe is built
        return deck_name, _deck(deck)
    if not isinstance(deck, Iterable):
        raise LayoutError(
            f"deck= is a deck name such as 'euchre' or a list of cards, not {type(deck).__name__}"
        )
    cards = list(deck)
    _check_cards(len(cards), "custom")
    for card in cards:
        if not isinstance(card, Card):
            raise LayoutError(
                f"deck= holds cards, not {type(card).__name__}; "
                "parse text with croupier.parse_cards"
            )
    return "custom", cards


def _remainder(
    key: str, deck_name: str, deck_size: int, piles: list[Pile], rest: str | None, stack: bool
) -> Pile | None:
    """The pile ``rest`` that takes the cards the ``piles`` leave (``None``: none are left)."""
    dealt = sum(p.size for p in piles)
    if dealt > deck_size:
        sizes_text = ", ".join(str(p.size) for p in piles)
        what = "hands" if all(p.is_hand for p in piles) else "piles"
        raise LayoutError(
            f"{what} of {sizes_text} need {dealt} cards but the {deck_name} deck has {deck_size}"
        )
    if dealt == deck_size:
        return None
    if rest is None:
        raise LayoutError(
            f"{key} deals out the whole deck, but its piles take {dealt} of the "
            f"{deck_size} cards of {deck_name}; give hands= for a layout with a stock"
        )
    return Pile(rest, deck_size - dealt, is_hand=False, stack=stack)
