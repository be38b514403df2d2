"""Smart stacking: deal one seat's hand straight from the hands that satisfy its conjuncts.

When a condition holds for few deals (a 20-21 balanced opener: about one
deal in 187), rejection throws almost every deal away.  Smart stacking
finds the conjuncts of the condition that one seat's hand decides
(:func:`factor`), counts exactly the hands of that seat that satisfy them
(:mod:`croupier.simulate.stacking_plan`), and deals:

1. a number ``v`` exactly uniform below ``W``, the number of satisfying hands;
2. the hand ``v`` stands for: the class tuple whose cumulative weight
   interval holds ``v`` (a binary search), then, from the rest of ``v`` in
   mixed radix, one holding of each class;
3. the other free cards to the other piles, exactly uniform: a bulk deal
   (``croupier-bulk/1``) of a layout of "positions" (as many cards as are
   left, the other piles' free sizes), position ``j`` being the ``j``-th
   card left in deck order.

Steps 1 to 3 map ``[0, W)`` times the deals of the positions one to one onto
the deals that hold the predealt cards and satisfy the stacked
conjuncts (:meth:`StackingSampler.deals_of` is that map; the tests
enumerate it on small decks), so every row is exactly uniform over them.
The run keeps the rows that pass the whole condition, as with rejection.
See ``docs/smart-stacking.md``.

>>> from croupier.bulk import BulkStream
>>> from croupier.simulate import parse_expression
>>> from croupier.simulate.predeal import Predeal
>>> cond = parse_expression("hcp(north) >= 20 && hcp(north) <= 21 && hcp(south) >= 4")
>>> sampler = plan_stacking(cond, {}, {}, Predeal.none(), BulkStream.seeded("demo"))
>>> sampler.name, sampler.probability
('smart stacking (north)', Fraction(17250123, 1688865850))
>>> from croupier.bulk.evaluate import hcp
>>> points = hcp(sampler.rows(0, 1000), "N")
>>> int(points.min()), int(points.max())
(20, 21)
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cached_property
from math import comb

import numpy as np
import numpy.typing as npt

from croupier.bulk.array import DealArray
from croupier.bulk.digits import DigitPlan, accepted_digits, digit_width
from croupier.bulk.generate import BulkDealer, retry_group
from croupier.bulk.unrank import unrank_digits
from croupier.dealing.layout import Layout, make_layout
from croupier.errors import CroupierError
from croupier.randomness.bulk_stream import ROWS_PER_BLOCK, BulkStream
from croupier.ranking.partitions import multinomial
from croupier.seats import Seat
from croupier.simulate.ast import SEAT_WORDS, Expr
from croupier.simulate.parse import ScriptError
from croupier.simulate.predeal import Predeal
from croupier.simulate.stacking_factor import (
    Conjunct,
    Definitions,
    conjunction,
    factor,
    features,
)
from croupier.simulate.stacking_plan import (
    MAX_COMBINATIONS,
    PlanBudget,
    StackingLimitError,
    Survey,
    survey,
)
from croupier.simulate.support import STACKING_ALGORITHM_ID

__all__ = [
    "STACKING_ALGORITHM_ID",
    "Conjunct",
    "ImpossibleConditionError",
    "StackingSampler",
    "factor",
    "plan_stacking",
    "uniform_below",
]


IntArray = npt.NDArray[np.int64]


class ImpossibleConditionError(CroupierError):
    """No deal satisfies the stacked part of the condition (the sampler's probability is 0)."""


def uniform_below(
    stream: BulkStream, bound: int, start: int, stop: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint32]]:
    """Integers ``start`` .. ``stop - 1`` of ``stream``, each exactly uniform below ``bound``,
    and the random bits each read.

    Number ``i`` is read as ``croupier-bulk/1`` reads a one-pile digit: the
    ``w`` bytes of row ``i % 4096`` of block ``i // 4096``'s main stream
    (``w`` the fewest bytes that reject at most one value in 64), accepted
    below the largest multiple of ``bound`` that fits; a rejected value is
    drawn again from the block's retry stream.  So number ``i`` depends only
    on the key and ``i``.  ``bound`` is below ``2**62``.

    >>> a, bits = uniform_below(BulkStream.seeded("u"), 1000, 0, 5000)
    >>> int(a.min()) >= 0, int(a.max()) < 1000, bool((a[4090:] == uniform_below(
    ...     BulkStream.seeded("u"), 1000, 4090, 5000)[0]).all())
    (True, True, True)
    >>> int(bits.min())  # two bytes a number
    16
    """
    if not 1 <= bound < 1 << 62:
        raise StackingLimitError(f"bound={bound} must be 1..2**62-1")
    count = stop - start
    if count <= 0:
        return np.zeros(0, np.int64), np.zeros(0, np.uint32)
    width = digit_width(bound)
    limit = (1 << (8 * width)) - (1 << (8 * width)) % bound
    plan = DigitPlan((0,), (bound,), (width,), (limit,), (0,), width)
    first, last = start // ROWS_PER_BLOCK, (stop - 1) // ROWS_PER_BLOCK
    blocks = last - first + 1
    data = stream.main_blocks(first, blocks, ROWS_PER_BLOCK * width)
    rows = data.reshape(blocks * ROWS_PER_BLOCK, width)
    bits = np.full(blocks * ROWS_PER_BLOCK, 8 * width, np.uint32)
    digits, rejected = accepted_digits(rows, plan)
    retry_group(stream, first, plan, digits, rejected, bits)
    lo = start - first * ROWS_PER_BLOCK
    return digits[0, lo : lo + count].astype(np.int64), bits[lo : lo + count]


class StackingSampler:
    """Deals exactly uniform over those holding the predealt cards where ``seat``'s part holds.

    Built by :func:`plan_stacking` from a :class:`~croupier.simulate.stacking_plan.Survey`.
    ``hand_count`` (``W``) is the number of the seat's hands that satisfy the
    stacked part, ``rest_count`` the ways to deal the other free cards;
    ``probability`` is ``W * rest_count`` over the deals holding the
    predealt cards.  Rows come from two streams derived from ``stream``
    (``stacking/hand`` and ``stacking/rest``), so row ``i`` depends only on
    the key and ``i``.

    >>> from croupier.bulk import BulkStream
    >>> from croupier.simulate import parse_expression
    >>> from croupier.simulate.predeal import Predeal
    >>> s = plan_stacking(parse_expression("spades(west) == 13"), {}, {}, Predeal.none(),
    ...                   BulkStream.seeded("x"))
    >>> s.hand_count, s.rest_count == multinomial((13, 13, 13))
    (1, True)
    >>> s.rows(0, 3).suit_lengths()[:, 3, 0].tolist()
    [13, 13, 13]
    """

    def __init__(self, plan: Survey, stream: BulkStream) -> None:
        if plan.combination_count > MAX_COMBINATIONS:
            raise StackingLimitError(
                f"the stackable part {plan.expr} has more than {MAX_COMBINATIONS} class "
                "combinations"
            )
        self.plan = plan
        self.seat: Seat = plan.seat
        self.expr: Expr = plan.expr
        self.space = plan.space
        self.layout: Layout = plan.space.layout
        pile = self.layout.piles[self.space.pile].name
        self.name = f"smart stacking ({SEAT_WORDS.get(self.seat, pile)})"
        self.algorithm = STACKING_ALGORITHM_ID
        self.hand_count = plan.satisfying
        space = self.space
        self.rest_count = multinomial(space.other_sizes) if space.others else 1
        total = comb(len(space.free), space.slots) * self.rest_count
        self.probability = Fraction(self.hand_count * self.rest_count, total)
        self.rest_layout: Layout | None = None
        self._rest_dealer: BulkDealer | None = None
        if len(space.others) > 0 and space.rest > 0:
            self.rest_layout = make_layout(
                hands=list(space.other_sizes),
                deck=list(self.layout.deck[: space.rest]),
                names=[self.layout.piles[p].name for p in space.others],
            )
            self._rest_dealer = BulkDealer(self.rest_layout, stream=stream.derive("stacking/rest"))
        self._hand_stream = stream.derive("stacking/hand")
        self._others = np.array(space.others, np.uint8)

    @cached_property
    def _table(self) -> tuple[IntArray, IntArray]:
        """The class tuples and where each one's hand numbers start (listed on first use)."""
        combos, weights = self.plan.combinations()
        return combos, np.cumsum(weights) - weights

    def __repr__(self) -> str:
        return f"StackingSampler({self.name!r}, {str(self.expr)!r}, probability={self.probability})"

    def hands(self, values: npt.ArrayLike) -> npt.NDArray[np.bool_]:
        """The seat's free cards (``(n, free)`` marks) of the hands numbered ``values`` (< ``W``).

        >>> from croupier.bulk import BulkStream
        >>> from croupier.simulate import parse_expression
        >>> from croupier.simulate.predeal import Predeal
        >>> s = plan_stacking(parse_expression("hcp(north) == 37"), {}, {}, Predeal.none(),
        ...                   BulkStream.seeded("x"))
        >>> marks = s.hands(range(s.hand_count))
        >>> [int(m[3::13].sum()) for m in marks]  # the four aces, kings, queens and one jack
        [1, 1, 1, 1]
        """
        v = np.asarray(values, np.int64).reshape(-1)
        if v.size and (int(v.min()) < 0 or int(v.max()) >= self.hand_count):
            raise StackingLimitError(
                f"values= holds numbers outside the hand numbers 0..{self.hand_count - 1}"
            )
        combos, starts = self._table
        combo = np.searchsorted(starts, v, side="right") - 1
        left = v - starts[combo]
        marks = np.zeros((len(v), len(self.space.free)), np.bool_)
        for s, classes in enumerate(self.plan.classes):
            cls = combos[combo, s]
            size = classes.sizes[cls]
            held = classes.holding_masks(cls, left % size)
            left //= size
            for b, column in enumerate(classes.columns):
                marks[:, column] = (held >> b) & 1
        return marks

    def _assemble(
        self,
        values: IntArray,
        rest: npt.NDArray[np.uint8],
        bits: npt.NDArray[np.uint32] | None = None,
    ) -> DealArray:
        """Deals from hand numbers and deals of the positions layout (``rest`` its piles)."""
        real = self._others[rest] if rest.size else np.zeros((len(values), 0), np.uint8)
        return self.space.assemble(self.hands(values), real, bits=bits)

    def deals_of(self, numbers: Sequence[int] | npt.ArrayLike) -> DealArray:
        """The deals numbered ``numbers`` in ``[0, W * rest_count)``: hand ``u // rest_count``,
        the rest dealt as the positions layout's deal number ``u % rest_count`` (``croupier``
        scheme).  A bijection onto the support; :meth:`rows` deals through it.

        >>> from croupier.bulk import BulkStream
        >>> from croupier.simulate import parse_expression
        >>> from croupier.simulate.predeal import Predeal
        >>> p = Predeal.parse("N:AKQJT98765432.-.-.- E:-.AKQJT98765432.-.-")
        >>> cond = parse_expression("diamonds(south) == 13")
        >>> s = plan_stacking(cond, {}, {}, p, BulkStream.seeded("x"))
        >>> s.hand_count, s.rest_count  # one hand for south; west gets the clubs
        (1, 1)
        >>> s.deals_of([0]).suit_lengths()[0].tolist()
        [[13, 0, 0, 0], [0, 13, 0, 0], [0, 0, 13, 0], [0, 0, 0, 13]]
        """
        u = np.asarray(numbers, np.int64).reshape(-1)
        values = u // self.rest_count
        left = u % self.rest_count
        if self.rest_layout is None:
            rest = np.zeros((len(u), 0), np.uint8)
        else:
            sizes = self.rest_layout.sizes
            digits = []
            for p in range(len(sizes)):
                below = multinomial(sizes[p + 1 :]) if p + 1 < len(sizes) else 1
                digits.append((left // below).astype(np.uint64))
                left = left % below
            rest = unrank_digits(digits, sizes)
        return self._assemble(values, rest)

    def rows(self, start: int, stop: int) -> DealArray:
        """Deals ``start`` .. ``stop - 1``; row ``i`` depends only on the stream key and ``i``.

        >>> from croupier.bulk import BulkStream
        >>> from croupier.simulate import parse_expression
        >>> from croupier.simulate.predeal import Predeal
        >>> s = plan_stacking(parse_expression("shape(east, any 6511)"), {}, {}, Predeal.none(),
        ...                   BulkStream.seeded("x"))
        >>> s.rows(0, 5000)[4000:] == s.rows(4000, 5000)
        True
        """
        if not self.hand_count:
            raise ImpossibleConditionError(
                f"no deal holding the predealt cards satisfies {self.expr}: nothing to deal"
            )
        values, bits = uniform_below(self._hand_stream, self.hand_count, start, stop)
        if self._rest_dealer is None:
            rest = np.zeros((len(values), 0), np.uint8)
        else:
            dealt = self._rest_dealer.rows(start, stop)
            rest = dealt.piles
            if dealt.bits is not None:
                bits = bits + dealt.bits
        return self._assemble(values, rest, bits)

    def bits(self, start: int, stop: int) -> int:
        """Random bits deals ``start`` .. ``stop - 1`` read (the hand numbers and the rest).

        >>> from croupier.bulk import BulkStream
        >>> from croupier.simulate import parse_expression
        >>> from croupier.simulate.predeal import Predeal
        >>> s = plan_stacking(parse_expression("spades(west) == 13"), {}, {}, Predeal.none(),
        ...                   BulkStream.seeded("x"))
        >>> s.bits(0, 10) == int(s.rows(0, 10).bits.sum()) > 0  # one hand: only the rest is read
        True
        """
        _, bits = uniform_below(self._hand_stream, max(self.hand_count, 1), start, stop)
        total = int(bits.sum(dtype=np.uint64))
        if self._rest_dealer is not None:
            dealt = self._rest_dealer.rows(start, stop).bits
            total += 0 if dealt is None else int(dealt.sum(dtype=np.uint64))
        return total


def plan_stacking(
    condition: Expr,
    definitions: Definitions | None,
    scales: Mapping[str, Sequence[int]] | None,
    predeal: Predeal,
    stream: BulkStream,
    *,
    seat: Seat | None = None,
    worth_below: Fraction | int = 1,
) -> StackingSampler | None:
    """A :class:`StackingSampler` for ``condition``, or ``None`` when stacking does not apply.

    Every seat with stackable conjuncts (:func:`factor`) is surveyed; the
    seat whose conjunction holds with the smallest exact probability is
    stacked (or ``seat``, when given).  ``None`` when no seat has a
    stackable conjunct, when its plan would be too large, when the stacked
    part cannot be evaluated (the run then meets the error itself), or when
    its probability is above ``worth_below``.  Whether stacking pays is the
    caller's choice: a stacked row costs about twice a rejection row, so it
    pays when the probability is well below one half (the simulation's
    ``auto`` strategy stacks from one in four down).  When no deal can
    satisfy the stacked part, the sampler has probability 0 and its
    :meth:`~StackingSampler.rows` raise :class:`ImpossibleConditionError`.

    >>> from croupier.bulk import BulkStream
    >>> from croupier.simulate import parse_expression
    >>> from croupier.simulate.predeal import Predeal
    >>> cond = parse_expression("hcp(north) >= 10 && spades(south) >= 7 && hcp(east) >= 0")
    >>> plan_stacking(cond, {}, {}, Predeal.none(), BulkStream.seeded("p")).name
    'smart stacking (south)'
    >>> print(plan_stacking(parse_expression("hcp(north) + hcp(south) > 25"), {}, {},
    ...                     Predeal.none(), BulkStream.seeded("p")))
    None
    """
    parts: dict[Seat, list[Expr]] = {}
    for conjunct in factor(condition, definitions):
        if conjunct.seat is not None and (seat is None or conjunct.seat == seat):
            parts.setdefault(conjunct.seat, []).append(conjunct.expr)
    best = _best_survey(parts, predeal, definitions, scales)
    if best is None or best.satisfying > worth_below * best.hands:
        return None
    try:
        return StackingSampler(best, stream)
    except StackingLimitError:
        return None


def _cheap(exprs: list[Expr], who: Seat, definitions: Definitions | None) -> list[Expr]:
    """The conjuncts that need nothing of a suit but its length and sums (hcp, shape):
    their survey is small whatever the others need."""
    return [e for e in exprs if not any(features(e, who, definitions).separate)]


_SURVEYS: OrderedDict[object, Survey | None] = OrderedDict()
_SURVEY_CACHE = 8


def _best_survey(
    parts: Mapping[Seat, list[Expr]],
    predeal: Predeal,
    definitions: Definitions | None,
    scales: Mapping[str, Sequence[int]] | None,
) -> Survey | None:
    """The survey of the smallest exact probability, within one :class:`PlanBudget`.

    Each seat's cheap conjuncts (lengths and sums only) are surveyed first, then all
    its conjuncts while the budget lasts; a survey that would need more than is left
    is given up.  Plans are kept for the next simulation of the same condition in
    this process (a small cache).
    """
    try:
        key: object = (
            tuple((who, tuple(map(str, exprs))) for who, exprs in parts.items()),
            predeal,
            tuple(sorted((k, str(v)) for k, v in (definitions or {}).items())),
            tuple(sorted((k, tuple(v)) for k, v in (scales or {}).items())),
        )
        hash(key)
    except TypeError:
        key = None
    if key is not None and key in _SURVEYS:
        _SURVEYS.move_to_end(key)
        return _SURVEYS[key]
    if key is not None:  # (an exact count from the condition alone: kept between runs too)
        from croupier.simulate.parser_cache import cached_value

        best = cached_value(
            "survey",
            repr(key),
            lambda: _surveyed(parts, predeal, definitions, scales),
            code=_SURVEY_CODE,
        )
        _SURVEYS[key] = best
        while len(_SURVEYS) > _SURVEY_CACHE:
            _SURVEYS.popitem(last=False)
        return best
    return _surveyed(parts, predeal, definitions, scales)


_SURVEY_CODE = ("simulate", "bulk", "dealing", "ranking", "_core")
"""The packages whose code a survey's result depends on (their files key the kept ones)."""


def _surveyed(
    parts: Mapping[Seat, list[Expr]],
    predeal: Predeal,
    definitions: Definitions | None,
    scales: Mapping[str, Sequence[int]] | None,
) -> Survey | None:
    """:func:`_best_survey`, computed."""
    attempts: list[tuple[Seat, tuple[Expr, ...]]] = []
    for who, exprs in parts.items():
        cheap = _cheap(exprs, who, definitions)
        if cheap and len(cheap) < len(exprs):
            attempts.append((who, tuple(cheap)))
    attempts += [(who, tuple(exprs)) for who, exprs in parts.items()]
    budget = PlanBudget()
    best: Survey | None = None
    for who, chosen in attempts:
        try:
            found = survey(conjunction(chosen), who, predeal, definitions, scales, budget)
        except (StackingLimitError, ScriptError):
            continue
        if not found.hands:
            continue
        if best is None or found.satisfying * best.hands < best.satisfying * found.hands:
            best = found
    if best is not None and best.combination_count <= MAX_COMBINATIONS:
        best.combinations()  # (listed now: a kept survey then holds its list too)
    return best
