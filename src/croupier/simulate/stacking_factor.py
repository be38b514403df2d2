"""Split a condition into conjuncts and find those that one seat's hand decides suit by suit.

Smart stacking (:mod:`croupier.simulate.stacking`) deals one seat's hand
from the exact distribution of the hands that satisfy part of the condition.
That part must be a *stackable* conjunct: it depends on one seat's hand only,
through functions whose value over the hand is known from each suit's holding
on its own:

* suit lengths and ``shape`` (the four lengths);
* ``hcp``, ``control``, ``pt0`` ... ``pt9`` and ``loser``, of the whole hand
  (the sum of the suits' values) or of one suit;
* ``quality(seat, suit)`` and ``hascard(seat, card)`` (one suit each);
* numbers, arithmetic, comparisons, ``!``, ``&&``, ``||``, ``?:``, ``imps``
  and ``score`` over those, and named expressions made of them.

:func:`factor` splits the top-level ``&&`` of a condition (looking through
named expressions) into :class:`Conjunct` items, each with the seat that
decides it when it is stackable:

>>> from croupier.simulate import parse_expression
>>> expr = parse_expression(
...     "hcp(north) >= 20 && opener && hcp(north) + hcp(south) >= 25", names=["opener"]
... )
>>> defs = {"opener": parse_expression("shape(north, any 4333) && spades(south) >= 4")}
>>> [(str(c.expr), c.seat and c.seat.letter) for c in factor(expr, defs)]
[('hcp(north) >= 20', 'N'), ('shape(north, any 4333)', 'N'), ('spades(south) >= 4', 'S'), \
('hcp(north) + hcp(south) >= 25', None)]
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from croupier.seats import Seat
from croupier.simulate.ast import (
    SUITS,
    Binary,
    Call,
    Conditional,
    Definition,
    Expr,
    HasCard,
    Imps,
    Name,
    Number,
    Score,
    Shape,
    SuitLetter,
    Unary,
)
from croupier.simulate.parse import MAX_NESTING

__all__ = [
    "PER_SUIT_FUNCTIONS",
    "Conjunct",
    "Definitions",
    "SuitFeatures",
    "conjunction",
    "factor",
    "features",
    "stackable_seat",
]

Definitions = Mapping[str, Expr | Definition]
"""Named expressions, as :func:`croupier.simulate.compile_expression` takes them."""

PER_SUIT_FUNCTIONS = frozenset(
    {"length", "hcp", "control", "loser", "quality", *(f"pt{i}" for i in range(10))}
)
"""Hand functions of :class:`~croupier.simulate.ast.Call` that smart stacking decomposes by suit."""


@dataclass(frozen=True)
class Conjunct:
    """One conjunct of a condition; ``seat`` is the one seat that decides it, if stackable.

    >>> from croupier.simulate import parse_expression
    >>> Conjunct(parse_expression("hcp(east) > 10"), "E").seat
    'E'
    """

    expr: Expr
    seat: Seat | None


def _body(name: Name, definitions: Definitions) -> Expr | None:
    found = definitions.get(name.name)
    if found is None:
        return None
    return found.expr if isinstance(found, Definition) else found


def _split(expr: Expr, definitions: Definitions) -> Iterator[Expr]:
    # A loop over a stack, not recursion: a condition may be a chain of 50,000 &&.  Each
    # name is expanded once: a = b && b, b = c && c, ... would otherwise list 2^n parts.
    stack: list[Expr] = [expr]
    expanded: set[str] = set()
    while stack:
        part = stack.pop()
        if isinstance(part, Binary) and part.op == "&&":
            stack += [part.right, part.left]
            continue
        if isinstance(part, Name):
            if part.name in expanded:
                continue  # its conjuncts are listed already
            body = _body(part, definitions)
            if body is not None:
                expanded.add(part.name)
                stack.append(body)
                continue
        yield part


_Memo = dict[str, frozenset[Seat] | None]


def _seats(
    expr: Expr, definitions: Definitions, memo: _Memo, inside: frozenset[str] = frozenset()
) -> set[Seat] | None:
    """The seats ``expr`` depends on, or ``None`` when it uses something not decomposable.

    A loop, not recursion, except into a name's definition, which is looked at once
    and remembered in ``memo`` (``inside``: the names being looked at; a name used
    inside its own definition is not decomposable).
    """
    found: set[Seat] = set()
    stack: list[Expr] = [expr]
    while stack:
        part = stack.pop()
        if isinstance(part, Number):
            continue
        if isinstance(part, Name):
            if part.name not in memo:
                body = _body(part, definitions)
                if body is None or part.name in inside or len(inside) > MAX_NESTING:
                    return None
                seats = _seats(body, definitions, memo, inside | {part.name})
                memo[part.name] = None if seats is None else frozenset(seats)
            known = memo[part.name]
            if known is None:
                return None
            found |= known
        elif isinstance(part, Call):
            if part.function not in PER_SUIT_FUNCTIONS:
                return None
            found.add(part.seat)
        elif isinstance(part, Shape):
            found.add(part.seat)
        elif isinstance(part, HasCard):
            if part.card.suit is None:
                return None
            found.add(part.seat)
        elif isinstance(part, (Unary, Binary, Conditional, Imps, Score)):
            stack.extend(part.children())
        else:
            return None  # tricks, rnd and anything new
    return found


def stackable_seat(expr: Expr, definitions: Definitions | None = None) -> Seat | None:
    """The one seat whose hand decides ``expr`` suit by suit, or ``None``.

    >>> from croupier.simulate import parse_expression
    >>> stackable_seat(parse_expression("hcp(west, hearts) * 2 > loser(west) ? 1 : 0"))
    <Seat.WEST: 'W'>
    >>> [stackable_seat(parse_expression(t)) for t in ("cccc(north) > 0", "hcp(north) > hcp(east)")]
    [None, None]
    """
    return _stackable(expr, definitions or {}, {})


def _stackable(expr: Expr, definitions: Definitions, memo: _Memo) -> Seat | None:
    seats = _seats(expr, definitions, memo)
    if seats is None or len(seats) != 1:
        return None
    return next(iter(seats))


def factor(condition: Expr, definitions: Definitions | None = None) -> tuple[Conjunct, ...]:
    """The top-level ``&&`` conjuncts of ``condition`` (through named expressions), in order.

    Each has the seat that decides it when it is stackable (see the module
    documentation), else ``None``.  The condition holds exactly when every
    conjunct is non-zero.

    >>> from croupier.simulate import parse_expression
    >>> [c.seat for c in factor(parse_expression("spades(south) >= 6 && hascard(north, AS)"))]
    [<Seat.SOUTH: 'S'>, <Seat.NORTH: 'N'>]
    """
    definitions = definitions or {}
    memo: _Memo = {}  # each name's seats, found once for all the conjuncts
    return tuple(
        Conjunct(part, _stackable(part, definitions, memo))
        for part in _split(condition, definitions)
    )


def conjunction(parts: tuple[Expr, ...]) -> Expr:
    """``parts`` joined by ``&&`` (left-associative, in order).

    >>> from croupier.simulate import parse_expression
    >>> a, b, c = (parse_expression(f"hcp(north) > {i}") for i in range(3))
    >>> print(conjunction((a, b, c)))
    hcp(north) > 0 && hcp(north) > 1 && hcp(north) > 2
    """
    if not parts:
        return Number(1)
    joined = parts[0]
    for part in parts[1:]:
        joined = Binary("&&", joined, part)
    return joined


@dataclass(frozen=True)
class SuitFeatures:
    """What a stackable expression needs to know of each suit's holding of its seat.

    ``separate[s]`` lists the per-suit expressions whose value in suit ``s``
    matters on its own (``hcp(north, spades)``, ``quality``, ``hascard``);
    ``summed`` lists the functions used over the whole hand, whose suit values
    only matter through their sum.  Suit lengths always matter on their own.

    >>> from croupier.simulate import parse_expression
    >>> f = features(parse_expression("hcp(north) >= 20 && hcp(north, hearts) >= 4"), "N")
    >>> f.summed, [str(e) for e in f.separate[1]]
    (('hcp',), ['hcp(north, hearts)'])
    """

    seat: Seat
    separate: tuple[tuple[Expr, ...], ...]
    summed: tuple[str, ...]

    def summed_probe(self, function: str, suit: int) -> Expr:
        """The expression giving one suit's part of a summed function.

        >>> print(SuitFeatures("S", ((),) * 4, ("loser",)).summed_probe("loser", 2))
        loser(south, diamonds)
        """
        return Call(function, self.seat, SUITS[suit])


def _walk(expr: Expr, definitions: Definitions) -> Iterator[Expr]:
    """``expr`` and everything in it, parents first, looking into each name's definition
    once (a loop, not recursion: see :func:`_split`)."""
    stack = [expr]
    expanded: set[str] = set()
    while stack:
        part = stack.pop()
        yield part
        stack.extend(reversed(part.children()))
        if isinstance(part, Name) and part.name not in expanded:
            body = _body(part, definitions)
            if body is not None:
                expanded.add(part.name)
                stack.append(body)


def features(expr: Expr, seat: Seat, definitions: Definitions | None = None) -> SuitFeatures:
    """The :class:`SuitFeatures` of a stackable expression of ``seat``.

    >>> from croupier.simulate import parse_expression
    >>> f = features(parse_expression("hascard(south, KD) || quality(south, clubs) > 500"), "S")
    >>> [[str(e) for e in part] for part in f.separate], f.summed
    ([[], [], ['hascard(south, KD)'], ['quality(south, clubs)']], ())
    """
    separate: list[dict[Expr, None]] = [{} for _ in SUITS]
    summed: dict[str, None] = {}
    for node in _walk(expr, definitions or {}):
        if isinstance(node, Call) and node.seat == seat:
            if node.function in ("length", "quality") or node.suit is not None:
                suit: SuitLetter = node.suit or "S"
                if node.function != "length":  # lengths are always known
                    separate[SUITS.index(suit)][Call(node.function, seat, suit)] = None
            else:
                summed[node.function] = None
        elif isinstance(node, HasCard) and node.seat == seat and node.card.suit is not None:
            separate[SUITS.index(node.card.suit.letter)][HasCard(seat, node.card)] = None
    return SuitFeatures(seat, tuple(tuple(s) for s in separate), tuple(summed))
