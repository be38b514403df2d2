"""The exact plan of smart stacking: one seat's hands grouped into classes, counted, enumerated.

Given a stackable expression of one seat (see
:mod:`croupier.simulate.stacking_factor`) and a :class:`Predeal`, this
module finds every hand of that seat that satisfies the expression, as a
list of *combinations* with exact weights:

1. **Holdings.**  For each suit, every holding the seat can have in it (the
   cards predealt to it plus any subset of the suit's free cards) is
   evaluated once, by the same vectorised evaluator as the condition, for
   the values the expression needs of that suit (``hcp(north, spades)``,
   ``loser(north, spades)``, ``hascard`` ...).  Holdings with the same values
   form a *class*; its size is how many holdings it has.
2. **Survey.**  A dynamic programme over the suits joins the classes, suit
   by suit, into states: the suit lengths, the values needed suit by suit,
   and the running sums of the functions used over the whole hand.  Only
   states whose length can still reach the hand size are kept.  Each final
   state has a weight (how many hands it stands for: the sum, over its
   class tuples, of the product of class sizes) and one representative
   hand; the expression is evaluated once per final state, on a deal where
   the seat holds that representative.  This is exact because the
   expression's value depends on the hand only through the state.
3. **Combinations.**  The class tuples leading to satisfying states are
   listed (a backward pass marks the states that lead to one).  A hand
   satisfies the expression exactly when its class tuple is listed; the
   weight of a tuple is the product of its classes' sizes.

:func:`survey` does 1 and 2 (enough to know the exact probability),
:meth:`Survey.combinations` does 3.

>>> from croupier.simulate import parse_expression
>>> from croupier.simulate.predeal import Predeal
>>> s = survey(parse_expression("hcp(north) >= 37"), "N", Predeal.none())
>>> s.satisfying, s.hands  # 37 is the most: four aces, kings, queens and a jack
(4, 635013559600)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from math import comb, prod

import numpy as np
import numpy.typing as npt

import croupier.bulk.evaluate as bulk
from croupier.bulk.array import MASK_CARDS, DealArray
from croupier.cards import BRIDGE_SUITS
from croupier.dealing.layout import Layout
from croupier.errors import CroupierError
from croupier.seats import Seat
from croupier.simulate.ast import Expr
from croupier.simulate.compile import compile_expression
from croupier.simulate.predeal import Predeal
from croupier.simulate.stacking_factor import Definitions, SuitFeatures, features

__all__ = [
    "MAX_COMBINATIONS",
    "MAX_STATES",
    "MAX_SUIT_CARDS",
    "PLAN_BUDGET",
    "PlanBudget",
    "Space",
    "StackingLimitError",
    "SuitClasses",
    "Survey",
    "survey",
]

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

MAX_SUIT_CARDS = 15
"""The most free cards of one suit whose holdings are enumerated (2**15 subsets)."""

MAX_STATES = 20_000_000
"""The most state transitions one step of the survey may build."""

MAX_COMBINATIONS = 2_000_000
"""The most class tuples a plan lists (about 100 MB while they are listed)."""

PLAN_BUDGET = 400_000
"""The most survey work one plan may do, over every seat it tries: state transitions
built plus final states evaluated.  About a microsecond and a hundred bytes each, so a
plan takes at most about half a second and tens of megabytes, or is given up (the run
uses rejection).  The count depends only on the script, so the choice is reproducible."""

_MAX_WEIGHT = 1 << 62  # hands are counted in int64
_EVAL_CHUNK = 1 << 16


class StackingLimitError(CroupierError):
    """A stackable expression whose plan would be too large, or a layout stacking does not cover."""


class PlanBudget:
    """Survey work left to a plan (see :data:`PLAN_BUDGET`): :meth:`spend` refuses more.

    >>> budget = PlanBudget(100)
    >>> budget.spend(60, "x"); budget.left
    40
    >>> try:
    ...     budget.spend(50, "x")
    ... except StackingLimitError as error:
    ...     print(error)
    the stackable part x needs more survey work than the plan budget (100 transitions and states)
    """

    def __init__(self, total: int = PLAN_BUDGET) -> None:
        self.total = total
        self.left = total

    def spend(self, work: int, what: object) -> None:
        """Take ``work`` from the budget, or raise :class:`StackingLimitError` (and take
        nothing) when it is not there."""
        if work > self.left:
            raise StackingLimitError(
                f"the stackable part {what} needs more survey work than the plan budget "
                f"({self.total:,} transitions and states)"
            )
        self.left -= work


@dataclass(frozen=True, eq=False)
class Space:
    """The cards of one seat's hand under a predeal, and how to build deals around it.

    ``free`` are the deck indices of the free cards (the predeal's), ``slots``
    how many of them the seat receives; ``others``/``other_sizes`` are the
    other piles that receive free cards, and ``fill`` a valid way to give them
    the ``rest`` free cards left after the seat's (the piles in order).

    >>> s = Space.of(Predeal.parse("N:AK.-.-.- E:Q..."), "N")
    >>> s.pile, s.slots, s.rest, s.others, s.other_sizes
    (0, 11, 38, (1, 2, 3), (12, 13, 13))
    """

    predeal: Predeal
    pile: int
    free: npt.NDArray[np.intp]
    suit_of_free: npt.NDArray[np.intp]
    slots: int
    hand_size: int
    forced: tuple[int, ...]
    others: tuple[int, ...]
    other_sizes: tuple[int, ...]
    fill: npt.NDArray[np.uint8]

    @property
    def layout(self) -> Layout:
        """The layout dealt."""
        return self.predeal.layout

    @property
    def rest(self) -> int:
        """Free cards left for the other piles once the seat has its hand."""
        return len(self.free) - self.slots

    @classmethod
    def of(cls, predeal: Predeal, seat: str) -> Space:
        """The space of ``seat`` (a pile name) under ``predeal``.

        Raises :class:`StackingLimitError` when the layout has no such pile,
        has cards without a suit (jokers), or a suit with more than
        :data:`MAX_SUIT_CARDS` free cards.
        """
        layout = predeal.layout
        names = [p.name for p in layout.piles]
        if seat not in names:
            raise StackingLimitError(
                f"seat={str(seat)!r} is not a pile of this layout; its piles are {', '.join(names)}"
            )
        if any(card.suit is None for card in layout.deck):
            raise StackingLimitError("smart stacking needs a deck whose cards all have a suit")
        pile = names.index(seat)
        order = {s: i for i, s in enumerate(BRIDGE_SUITS)}
        free = np.array(predeal.free_cards, np.intp)
        suit_of_free = np.array([order[layout.deck[i].suit] for i in free], np.intp)
        counts = np.bincount(suit_of_free, minlength=4)
        if counts.size and counts.max() > MAX_SUIT_CARDS:
            raise StackingLimitError(
                f"a suit has {int(counts.max())} free cards; smart stacking enumerates "
                f"the holdings of suits of at most {MAX_SUIT_CARDS}"
            )
        forced = [0, 0, 0, 0]
        for card in predeal.hands[pile]:
            forced[order[card.suit]] += 1  # type: ignore[index]
        sizes = predeal.free_sizes
        others = tuple(p for p in range(len(sizes)) if p != pile and sizes[p] > 0)
        other_sizes = tuple(sizes[p] for p in others)
        fill = np.repeat(np.array(others, np.uint8), other_sizes)
        return cls(
            predeal,
            pile,
            free,
            suit_of_free,
            sizes[pile],
            layout.piles[pile].size,
            tuple(forced),
            others,
            other_sizes,
            fill,
        )

    def assemble(
        self,
        in_hand: npt.NDArray[np.bool_],
        rest: npt.NDArray[np.uint8] | None = None,
        *,
        bits: npt.NDArray[np.uint32] | None = None,
    ) -> DealArray:
        """Whole deals: the seat holds the free cards marked in ``in_hand`` (``(n, free)``).

        ``rest[i, j]`` is the pile (a layout pile index) of the ``j``-th free
        card not in the seat's hand, in deck order; without it, :attr:`fill`.
        Every row must mark exactly :attr:`slots` cards.  Vectorised.

        >>> s = Space.of(Predeal.none(), "S")
        >>> hand = np.zeros((1, 52), bool)
        >>> hand[0, 39:] = True  # the clubs
        >>> s.assemble(hand).suit_lengths()[0].tolist()  # the others in order: N, E, W
        [[13, 0, 0, 0], [0, 13, 0, 0], [0, 0, 0, 13], [0, 0, 13, 0]]
        """
        n = in_hand.shape[0]
        if rest is None:
            rest = np.broadcast_to(self.fill, (n, self.rest))
        free_piles = np.full(in_hand.shape, self.pile, np.uint8)
        if self.rest:
            # row by row, in deck order, the cards not in the hand take rest's piles
            left = np.flatnonzero(~in_hand.reshape(-1))
            free_piles.reshape(-1)[left] = rest.reshape(-1)
        deals = self.predeal.merge(free_piles, bits=bits, check=False)
        if len(self.layout.deck) > MASK_CARDS or not len(deals):
            return deals
        # the pile bitmasks, so that evaluation need not derive them (as the bulk engine does)
        piles = deals.piles
        octets = np.zeros((len(self.layout.piles), len(deals), 8), np.uint8)
        for p in range(len(self.layout.piles)):
            octets[p, :, : (piles.shape[1] + 7) // 8] = np.packbits(
                piles == p, axis=1, bitorder="little"
            )
        masks = octets.view("<u8").reshape(len(self.layout.piles), len(deals)).astype(np.uint64)
        return DealArray._dealt(self.layout, piles, deals.bits, masks)  # type: ignore[arg-type]


@dataclass(frozen=True, eq=False)
class SuitClasses:
    """The seat's holdings in one suit, grouped by the values the expression needs.

    ``columns`` are the free-card columns (into :attr:`Space.free`) of the
    suit's free cards; a holding is a bitmask over them (bit ``b`` =
    ``columns[b]``).  Class ``c`` has ``lengths[c]`` cards (predealt ones
    included), the values ``separate[c]`` needed of this suit on their own,
    ``summed[c]`` this suit's part of the whole-hand functions, and
    ``sizes[c]`` holdings: ``members[starts[c] : starts[c] + sizes[c]]``,
    ascending.  Classes are sorted by length.
    """

    columns: npt.NDArray[np.intp]
    lengths: IntArray
    separate: IntArray
    summed: IntArray
    sizes: IntArray
    starts: IntArray
    members: IntArray

    def holding_masks(self, classes: IntArray, index: IntArray) -> IntArray:
        """The holdings (bitmasks) number ``index`` of ``classes``, elementwise."""
        found: IntArray = self.members[self.starts[classes] + index]
        return found


def _probe_values(
    space: Space,
    suit: int,
    probes: Sequence[Expr],
    definitions: Definitions,
    scales: Mapping[str, Sequence[int]],
) -> tuple[npt.NDArray[np.intp], IntArray, IntArray]:
    """Every feasible holding of ``suit``: its free-card columns, bitmasks and probe values."""
    columns = np.flatnonzero(space.suit_of_free == suit)
    width = len(columns)
    masks = np.arange(1 << width, dtype=np.int64)
    count = np.zeros(len(masks), np.int64)
    for b in range(width):
        count += (masks >> b) & 1
    outside = np.flatnonzero(space.suit_of_free != suit)
    need = space.slots - count
    feasible = (need >= 0) & (need <= len(outside))
    masks, count, need = masks[feasible], count[feasible], need[feasible]
    in_hand = np.zeros((len(masks), len(space.free)), np.bool_)
    for b, column in enumerate(columns):
        in_hand[:, column] = (masks >> b) & 1
    in_hand[:, outside] = np.arange(len(outside))[None, :] < need[:, None]
    values = np.zeros((len(masks), len(probes)), np.int64)
    if probes and len(masks):
        holdings = bulk.Holdings(space.assemble(in_hand))
        for j, probe in enumerate(probes):
            values[:, j] = compile_expression(probe, definitions, scales=scales)(holdings)
    return columns, masks, np.column_stack([count + space.forced[suit], values])


def suit_classes(
    space: Space,
    suit: int,
    wanted: SuitFeatures,
    scales: Mapping[str, Sequence[int]],
) -> SuitClasses:
    """The :class:`SuitClasses` of ``suit`` for the features ``wanted``.

    >>> from croupier.simulate import parse_expression
    >>> from croupier.simulate.stacking_factor import features
    >>> f = features(parse_expression("hcp(north) > 10"), "N")
    >>> c = suit_classes(Space.of(Predeal.none(), "N"), 0, f, {})
    >>> # the first classes: a void, a spot card (9 holdings), the jack alone
    >>> c.lengths[:3].tolist(), c.summed[:3, 0].tolist(), c.sizes[:3].tolist()
    ([0, 1, 1], [0, 0, 1], [1, 9, 1])
    >>> int(c.sizes.sum()) == 2**13
    True
    """
    separate = list(wanted.separate[suit])
    probes = separate + [wanted.summed_probe(f, suit) for f in wanted.summed]
    columns, masks, values = _probe_values(space, suit, probes, {}, scales)
    first, inverse = _group(values)
    sizes = np.bincount(inverse, minlength=len(first))
    table = values[first]
    order = np.argsort(inverse, kind="stable")
    starts = np.cumsum(sizes) - sizes
    a = 1 + len(separate)
    return SuitClasses(
        columns,
        table[:, 0].copy(),
        table[:, :a].copy(),
        table[:, a:].copy(),
        sizes.astype(np.int64),
        starts.astype(np.int64),
        masks[order],
    )


def _group(matrix: IntArray) -> tuple[IntArray, IntArray]:
    """Group equal rows: each group's first row (groups in sorted order), each row's group."""
    if matrix.shape[0] == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    if matrix.shape[1] == 0:
        return np.zeros(1, np.int64), np.zeros(matrix.shape[0], np.int64)
    low = matrix.min(axis=0)
    spans = [int(v) for v in matrix.max(axis=0) - low + 1]
    if prod(spans) < _MAX_WEIGHT:
        key = np.zeros(matrix.shape[0], np.int64)
        for j, span in enumerate(spans):
            key *= span
            key += matrix[:, j] - low[j]
        _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    else:
        _, first, inverse = np.unique(matrix, axis=0, return_index=True, return_inverse=True)
    return first.astype(np.int64), inverse.reshape(-1).astype(np.int64)


def _sum_by(groups: IntArray, values: IntArray, count: int) -> IntArray:
    """Exact int64 sums of ``values`` per group."""
    order = np.argsort(groups, kind="stable")
    sizes = np.bincount(groups, minlength=count)
    starts = np.cumsum(sizes) - sizes
    total: IntArray = (
        np.add.reduceat(values[order], starts) if len(values) else np.zeros(0, np.int64)
    )
    return total


@dataclass(frozen=True, eq=False)
class _Step:
    """The transitions into one level of the survey: (parent state, class) -> state."""

    parent: IntArray
    cls: IntArray
    state: IntArray
    states: int


@dataclass(frozen=True, eq=False)
class Survey:
    """Every hand of one seat, surveyed: which satisfy the expression and how many.

    ``hands`` counts the seat's hands that hold its predealt cards and none
    of the others' (``C(free cards, slots)``); ``satisfying`` those where the
    expression is non-zero.  :meth:`combinations` lists them.
    """

    seat: Seat
    expr: Expr
    space: Space
    classes: tuple[SuitClasses, ...]
    steps: tuple[_Step, ...]
    satisfied: BoolArray
    weights: IntArray
    hands: int
    satisfying: int

    @cached_property
    def _valid(self) -> list[BoolArray]:
        """Per level, the states from which a satisfying final state is reached."""
        valid = [np.zeros(0, np.bool_)] * len(self.steps)
        valid[-1] = self.satisfied
        for k in range(len(self.steps) - 1, 0, -1):
            step = self.steps[k]
            mark = np.zeros(self.steps[k - 1].states, np.bool_)
            mark[step.parent[valid[k][step.state]]] = True
            valid[k - 1] = mark
        return valid

    @cached_property
    def combination_count(self) -> int:
        """How many class tuples :meth:`combinations` lists (counted without listing them).

        >>> from croupier.simulate import parse_expression
        >>> survey(parse_expression("spades(east) >= 11"), "E", Predeal.none()).combination_count
        10
        """
        paths = np.ones(1, np.int64)  # class tuples leading to each state
        for k, step in enumerate(self.steps):
            keep = self._valid[k][step.state]
            new = np.zeros(step.states, np.int64)
            np.add.at(new, step.state[keep], paths[step.parent[keep]])
            paths = new
        return int(paths.sum())

    def combinations(self, limit: int = MAX_COMBINATIONS) -> tuple[IntArray, IntArray]:
        """The class tuples ``(N, 4)`` of the satisfying hands and their weights ``(N,)``.

        The weights (products of class sizes) add up to :attr:`satisfying`.
        Raises :class:`StackingLimitError` beyond ``limit`` tuples.

        >>> from croupier.simulate import parse_expression
        >>> s = survey(parse_expression("spades(east) >= 11"), "E", Predeal.none())
        >>> combos, weights = s.combinations()
        >>> len(combos), int(weights.sum()) == s.satisfying  # lengths 11+2, 12+1, 13: 6+3+1
        (10, True)
        """
        if self.combination_count > limit:
            raise StackingLimitError(
                f"the stackable part {self.expr} has more than {limit} class combinations"
            )
        return self._listed

    @cached_property
    def _listed(self) -> tuple[IntArray, IntArray]:
        """:meth:`combinations`, listed once (and kept with the survey when it is saved)."""
        combos = np.zeros((1, 0), np.int64)
        where = np.zeros(1, np.int64)
        for k, step in enumerate(self.steps):
            keep = self._valid[k][step.state]
            parent, cls, state = step.parent[keep], step.cls[keep], step.state[keep]
            before = self.steps[k - 1].states if k else 1
            first = np.searchsorted(parent, np.arange(before), side="left")
            per = np.bincount(parent, minlength=before)[where]
            source = np.repeat(np.arange(len(where)), per)
            offset = np.arange(len(source)) - np.repeat(np.cumsum(per) - per, per)
            chosen = first[where][source] + offset
            combos = np.column_stack([combos[source], cls[chosen]])
            where = state[chosen]
        weights = np.ones(len(combos), np.int64)
        for s, classes in enumerate(self.classes):
            weights *= classes.sizes[combos[:, s]]
        return combos, weights


def _evaluate(
    space: Space,
    classes: Sequence[SuitClasses],
    reps: IntArray,
    expr: Expr,
    definitions: Definitions,
    scales: Mapping[str, Sequence[int]],
) -> BoolArray:
    """The expression on one deal per row of ``reps`` (a class per suit; its first holding)."""
    compiled = compile_expression(expr, definitions, scales=scales)
    out = np.zeros(len(reps), np.bool_)
    for lo in range(0, len(reps), _EVAL_CHUNK):
        part = reps[lo : lo + _EVAL_CHUNK]
        in_hand = np.zeros((len(part), len(space.free)), np.bool_)
        for s, suit in enumerate(classes):
            held = suit.holding_masks(part[:, s], np.zeros(len(part), np.int64))
            for b, column in enumerate(suit.columns):
                in_hand[:, column] = (held >> b) & 1
        out[lo : lo + len(part)] = compiled(space.assemble(in_hand)) != 0
    return out


def survey(
    expr: Expr,
    seat: Seat,
    predeal: Predeal,
    definitions: Definitions | None = None,
    scales: Mapping[str, Sequence[int]] | None = None,
    budget: PlanBudget | None = None,
) -> Survey:
    """Survey the hands of ``seat`` for the stackable expression ``expr`` (module docs, 1 and 2).

    ``definitions`` and ``scales`` are as for
    :func:`croupier.simulate.compile_expression`.  Raises
    :class:`StackingLimitError` when the layout or the expression is beyond
    what stacking enumerates, or when the survey would need more work than
    ``budget`` has left (default: a fresh :data:`PLAN_BUDGET`; the work is
    counted before it is done, so a refusal costs only the steps before), and
    the evaluator's :class:`~croupier.simulate.parse.ScriptError` when the
    expression fails.

    >>> from croupier.simulate import parse_expression
    >>> s = survey(parse_expression("spades(south) == 7"), "S", Predeal.parse("S:AKQJT98.-.-.-"))
    >>> s.hands == comb(45, 6), s.satisfying == comb(39, 6)  # 6 more cards, none a spade
    (True, True)
    """
    definitions = definitions or {}
    scales = scales or {}
    budget = PlanBudget() if budget is None else budget
    space = Space.of(predeal, seat)
    if space.slots < 0 or comb(len(space.free), space.slots) >= _MAX_WEIGHT:
        raise StackingLimitError(f"seat {seat} has too many possible hands to count in 64 bits")
    wanted = features(expr, seat, definitions)
    classes = tuple(suit_classes(space, s, wanted, scales) for s in range(4))
    lows = [int(c.lengths.min()) if len(c.lengths) else 0 for c in classes]
    highs = [int(c.lengths.max()) if len(c.lengths) else -1 for c in classes]
    size = space.hand_size

    # state columns: total length, running sums, then each suit's separate values
    summed = len(wanted.summed)
    states = np.zeros((1, 1 + summed), np.int64)
    weights = np.ones(1, np.int64)
    reps = np.zeros((1, 0), np.int64)
    steps: list[_Step] = []
    for s, suit in enumerate(classes):
        rest_low, rest_high = sum(lows[s + 1 :]), sum(highs[s + 1 :])
        length = states[:, 0]
        first = np.searchsorted(suit.lengths, size - length - rest_high, side="left")
        stop = np.searchsorted(suit.lengths, size - length - rest_low, side="right")
        per = np.maximum(stop - first, 0)
        total = int(per.sum())
        if total > MAX_STATES:
            raise StackingLimitError(
                f"the stackable part {expr} needs more than {MAX_STATES} states to survey"
            )
        budget.spend(total, expr)
        parent = np.repeat(np.arange(len(states)), per)
        cls = first[parent] + np.arange(total) - np.repeat(np.cumsum(per) - per, per)
        joined = np.column_stack(
            [
                states[parent, :1] + suit.lengths[cls, None],
                states[parent, 1 : 1 + summed] + suit.summed[cls],
                states[parent, 1 + summed :],
                suit.separate[cls],
            ]
        )
        head, group = _group(joined)
        steps.append(_Step(parent, cls, group, len(head)))
        weights = _sum_by(group, weights[parent] * suit.sizes[cls], len(head))
        reps = np.column_stack([reps[parent[head]], cls[head]])
        states = joined[head]
    budget.spend(len(reps), expr)  # each final state is evaluated once
    satisfied = _evaluate(space, classes, reps, expr, definitions, scales)
    hands = int(weights.sum())
    return Survey(
        seat,
        expr,
        space,
        classes,
        tuple(steps),
        satisfied,
        weights,
        hands,
        int(weights[satisfied].sum()),
    )
