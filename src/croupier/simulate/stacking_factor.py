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
>>> [(str(c.expr), c.seat) for c in factor(expr, defs)]
[('hcp(north) >= 20', 'N'), ('shape(north, any 4333)', 'N'), ('spades(south) >= 4', 'S'), \
('hcp(north) + hcp(south) >= 25', None)]
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from croupier.boards import Seat
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

_SUMMED = PER_SUIT_FUNCTIONS - {"length", "quality"}  # whole-hand value = sum over the suits


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


def _split(expr: Expr, definitions: Definitions, seen: frozenset[str]) -> Iterator[Expr]:
    if isinstance(expr, Binary) and expr.op == "&&":
        yield from _split(expr.left, definitions, seen)
        yield from _split(expr.right, definitions, seen)
        return
    if isinstance(expr, Name) and expr.name not in seen:
        body = _body(expr, definitions)
        if body is not None:
            yield from _split(body, definitions, seen | {expr.name})
            return
    yield expr


def _seats(expr: Expr, definitions: Definitions, seen: frozenset[str]) -> set[Seat] | None:
    """The seats ``expr`` depends on, or ``None`` when it uses something not decomposable."""
    if isinstance(expr, Number):
        return set()
    if isinstance(expr, Name):
        body = _body(expr, definitions)
        if body is None or expr.name in seen:
            return None
        return _seats(body, definitions, seen | {expr.name})
    if isinstance(expr, Call):
        return {expr.seat} if expr.function in PER_SUIT_FUNCTIONS else None
    if isinstance(expr, Shape):
        return {expr.seat}
    if isinstance(expr, HasCard):
        return {expr.seat} if expr.card.suit is not None else None
    if isinstance(expr, (Unary, Binary, Conditional, Imps, Score)):
        found: set[Seat] = set()
        for child in expr.children():
            seats = _seats(child, definitions, seen)
            if seats is None:
                return None
            found |= seats
        return found
    return None  # tricks, rnd and anything new


def stackable_seat(expr: Expr, definitions: Definitions | None = None) -> Seat | None:
    """The one seat whose hand decides ``expr`` suit by suit, or ``None``.

    >>> from croupier.simulate import parse_expression
    >>> stackable_seat(parse_expression("hcp(west, hearts) * 2 > loser(west) ? 1 : 0"))
    'W'
    >>> [stackable_seat(parse_expression(t)) for t in ("cccc(north) > 0", "hcp(north) > hcp(east)")]
    [None, None]
    """
    seats = _seats(expr, definitions or {}, frozenset())
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
    ['S', 'N']
    """
    definitions = definitions or {}
    return tuple(
        Conjunct(part, stackable_seat(part, definitions))
        for part in _split(condition, definitions, frozenset())
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


def _walk(expr: Expr, definitions: Definitions, seen: frozenset[str]) -> Iterator[Expr]:
    yield expr
    if isinstance(expr, Name) and expr.name not in seen:
        body = _body(expr, definitions)
        if body is not None:
            yield from _walk(body, definitions, seen | {expr.name})
    for child in expr.children():
        yield from _walk(child, definitions, seen)


def features(expr: Expr, seat: Seat, definitions: Definitions | None = None) -> SuitFeatures:
    """The :class:`SuitFeatures` of a stackable expression of ``seat``.

    >>> from croupier.simulate import parse_expression
    >>> f = features(parse_expression("hascard(south, KD) || quality(south, clubs) > 500"), "S")
    >>> [[str(e) for e in part] for part in f.separate], f.summed
    ([[], [], ['hascard(south, KD)'], ['quality(south, clubs)']], ())
    """
    separate: list[dict[Expr, None]] = [{} for _ in SUITS]
    summed: dict[str, None] = {}
    for node in _walk(expr, definitions or {}, frozenset()):
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
