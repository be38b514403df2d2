"""Evaluate dealer expressions over deal arrays: one numpy pass per syntax-tree node.

:func:`compile_expression` turns an :class:`~croupier.simulate.ast.Expr` into
a :class:`Compiled` function that gives the expression's value for every deal
of a :class:`~croupier.bulk.DealArray` at once, with dealer's C semantics:
values are integers, truth values are 1 and 0, ``/`` truncates toward zero
and ``%`` takes the sign of the dividend, ``&&``, ``||`` and ``?:`` evaluate
their right-hand sides only for the deals that need them.  A division or
modulo by zero in a deal where it is evaluated raises
:class:`~croupier.simulate.parse.ScriptError` at the operator's position
(dealer itself crashes).  :func:`compile_condition` does the same for a
script's ``condition``, with its definitions and point scales.

>>> from croupier.bulk import deal_array
>>> from croupier.simulate import parse_expression
>>> deals = deal_array(5, seed="compile")
>>> f = compile_expression(parse_expression("(hcp(north) - 20) / 3"))
>>> from croupier.bulk.evaluate import hcp
>>> [int(v) for v in f(deals)] == [int((p - 20) / 3) for p in hcp(deals, "N")]
True
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, TypeAlias

import numpy as np
import numpy.typing as npt

import croupier.bulk.evaluate as bulk
from croupier.bulk.array import DealArray
from croupier.dealing.evaluation import ALT_COUNT_SCALES, CONTROL_SCALE, HCP_SCALE, point_scale
from croupier.seats import Seat
from croupier.simulate.ast import (
    Binary,
    Call,
    Conditional,
    Definition,
    Expr,
    HasCard,
    Imps,
    Name,
    Number,
    Rnd,
    Score,
    Script,
    Shape,
    Tricks,
    Unary,
    left_chain,
)
from croupier.simulate.parse import MAX_NESTING, ScriptError

if TYPE_CHECKING:  # (double dummy: imported by the scripts that call tricks())
    import croupier.simulate.double_dummy as double_dummy
    from croupier.simulate.draws import Draws

__all__ = [
    "Compiled",
    "compile_condition",
    "compile_expression",
    "imps",
    "known_tricks",
    "scales_of",
    "score",
    "solved_tricks",
]

IntArray: TypeAlias = npt.NDArray[np.int64]
BoolArray: TypeAlias = npt.NDArray[np.bool_]
Mask: TypeAlias = BoolArray | None  # the deals that need a value; None for all of them
_Node: TypeAlias = Callable[["_Context", Mask], IntArray]
_Step: TypeAlias = Callable[["_Context", Mask, IntArray], IntArray]  # one link of a chain

# dealer's IMP table: a difference above k of these numbers is worth k IMPs.  It is
# the standard scale (20-40 is 1 IMP, 50-80 2 ...) except that dealer gives 10 IMPs
# for 420 (standard: 9) and 16 for 1200 to 1290 (standard: 15).
# fmt: off
IMP_THRESHOLDS = np.array(
    [
        10, 40, 80, 120, 160, 210, 260, 310, 360, 410, 490, 590,
        740, 890, 1090, 1190, 1490, 1740, 1990, 2240, 2490, 2990, 3490, 3990,
    ],
    np.int64,
)
# fmt: on

_SCALED = ("hcp", "control", *(f"pt{i}" for i in range(10)))
_DEFAULT_SCALES: dict[str, tuple[int, ...]] = {
    "hcp": point_scale(HCP_SCALE),
    "control": point_scale(CONTROL_SCALE),
    **{f"pt{i}": point_scale(s) for i, s in enumerate(ALT_COUNT_SCALES)},
}


class _SolvedTables:
    """The double-dummy tables of one :class:`~croupier.bulk.evaluate.Holdings` solved so far."""

    __slots__ = ("solved", "tricks")

    def __init__(self, size: int) -> None:
        self.tricks: double_dummy.TricksArray = np.zeros((size, 4, 5), np.int8)
        self.solved: BoolArray = np.zeros(size, np.bool_)


# All 20 results of a deal come from one solve, and a solve takes a good part of a
# second: the tables solved for one Holdings are kept while it lives, so every expression
# evaluated on it (a script's condition, each of its actions) solves each deal once.
_SOLVED: weakref.WeakKeyDictionary[bulk.Holdings, _SolvedTables] = weakref.WeakKeyDictionary()


class _Context:
    """One evaluation: the deals' holdings and the values of named expressions so far.

    Double-dummy tables are kept per Holdings (see :data:`_SOLVED`), so each
    deal is solved at most once however many ``tricks()`` calls, and however
    many expressions evaluated on the same Holdings, ask for it.
    """

    __slots__ = ("draws", "holdings", "leaves", "names", "progress", "size")

    def __init__(
        self,
        deals: DealArray | bulk.Holdings,
        progress: double_dummy.Progress | None = None,
        draws: Draws | None = None,
    ) -> None:
        self.holdings = deals if isinstance(deals, bulk.Holdings) else bulk.Holdings(deals)
        self.size = len(self.holdings)
        self.names: dict[str, tuple[IntArray, Mask]] = {}
        self.leaves: dict[str, IntArray] = {}  # hand functions' values, by their text
        self.progress = progress
        self.draws = draws

    def tricks_table(self, active: Mask) -> double_dummy.TricksArray:
        """Tricks tables with every deal of ``active`` solved (others may be zeros)."""
        tables = _SOLVED.get(self.holdings)
        if tables is None:
            tables = _SOLVED[self.holdings] = _SolvedTables(self.size)
        needed = ~tables.solved if active is None else active & ~tables.solved
        rows = np.flatnonzero(needed)
        if len(rows):
            from croupier.simulate import double_dummy

            subset = self.holdings.deals[rows]
            tables.tricks[rows] = double_dummy.tricks_table(subset, progress=self.progress)
            tables.solved[rows] = True
        return tables.tricks


def solved_tricks(holdings: bulk.Holdings, rows: BoolArray) -> double_dummy.TricksArray:
    """The double-dummy tables of the deals of ``holdings`` where ``rows`` holds.

    Deals already solved for this Holdings (by a condition's ``tricks()``) are
    not solved again; the others are solved now.

    >>> from croupier.bulk.writers import parse_oneline
    >>> line = "n AKQJT98765432... e .AKQJT98765432.. s ..AKQJT98765432. w ...AKQJT98765432"
    >>> h = bulk.Holdings(parse_oneline(line))
    >>> solved_tricks(h, np.ones(1, np.bool_))[0, 0].tolist()
    [13, 0, 13, 0, 0]
    """
    tables = _Context(holdings).tricks_table(rows)
    return tables[rows]


def known_tricks(holdings: bulk.Holdings, tables: double_dummy.TricksArray) -> None:
    """Record ``tables`` (shape ``(n, 4, 5)``, from :func:`solved_tricks`) as the solved
    double-dummy tables of all the deals of ``holdings``: ``tricks()`` then reads them.

    >>> from croupier.bulk import deal_array
    >>> h = bulk.Holdings(deal_array(2, seed="k"))
    >>> known_tricks(h, np.full((2, 4, 5), 7, np.int8))
    >>> from croupier.simulate.parse import parse_expression
    >>> compile_expression(parse_expression("tricks(north, spades)"))(h).tolist()
    [7, 7]
    """
    size = len(holdings)
    if np.shape(tables) != (size, 4, 5):
        from croupier.simulate import double_dummy

        raise double_dummy.DoubleDummyError(
            f"tables= has shape {np.shape(tables)}; expected ({size}, 4, 5)"
        )
    solved = _SOLVED[holdings] = _SolvedTables(size)
    solved.tricks[:] = tables
    solved.solved[:] = True


def _int(values: npt.NDArray[np.generic]) -> IntArray:
    return values.astype(np.int64, copy=False)


_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


def _leaf(text: str, compute: Callable[[bulk.Holdings], IntArray]) -> _Node:
    """The node of a hand function written ``text`` (``hcp(south)``, ``shape(...)``):
    computed once an evaluation, for every deal (it cannot fail), however often used.
    The values are shared: no node changes an array it is given."""

    def node(ctx: _Context, active: Mask) -> IntArray:
        values = ctx.leaves.get(text)
        if values is None:
            values = ctx.leaves[text] = compute(ctx.holdings)
        return values

    return node


def _c_divide(a: IntArray, b: IntArray) -> tuple[IntArray, IntArray]:
    """C's ``a / b`` (toward zero) and ``a % b`` (sign of ``a``); ``b`` has no zeros."""
    quotient = np.abs(a) // np.abs(b)
    quotient = np.where((a < 0) != (b < 0), -quotient, quotient)
    return quotient, a - b * quotient


def score(vulnerable: bool, level: int, strain: str, tricks: IntArray) -> IntArray:
    """Declarer's duplicate score of an undoubled contract per trick count (dealer's ``score``).

    Made: trick score (minors 20, majors 30, notrump 40 then 30 a trick),
    50 for a part score or 300/500 for game (not vulnerable/vulnerable), 500/750
    for a small slam, 1000/1500 for a grand slam, and overtricks at the trick
    value.  Down: 50/100 a trick, negative.

    >>> import numpy as np
    >>> score(False, 3, "NT", np.array([9, 8])).tolist()
    [400, -50]
    >>> score(True, 4, "S", np.array([11])).tolist()
    [650]
    """
    per_trick = 20 if strain in ("C", "D") else 30
    base = per_trick * level + (10 if strain == "NT" else 0)
    bonus = 50 if base < 100 else 500 if vulnerable else 300
    if level == 6:
        bonus += 750 if vulnerable else 500
    elif level == 7:
        bonus += 1500 if vulnerable else 1000
    extra = tricks - (level + 6)
    made = base + bonus + per_trick * extra
    down = (100 if vulnerable else 50) * extra
    return _int(np.where(extra >= 0, made, down))


def imps(difference: IntArray) -> IntArray:
    """A score difference in IMPs (0 to 24), with the difference's sign (dealer's ``imps``).

    This is dealer's table, which differs from the standard one at 420 (10
    IMPs, not 9) and 1200 to 1290 (16, not 15); between multiples of 10 it
    rounds up (11 is worth 1 IMP).

    >>> import numpy as np
    >>> imps(np.array([10, 11, 20, 410, 420, 1190, 1200, -50, 5000])).tolist()
    [0, 1, 1, 9, 10, 15, 16, -2, 24]
    """
    found = np.searchsorted(IMP_THRESHOLDS, np.abs(difference), side="left")
    return _int(np.where(difference < 0, -found, found))


def scales_of(script: Script) -> dict[str, tuple[int, ...]]:
    """The point scales set by a script's ``pointcount`` and ``altcount``, as dealer applies them.

    Keys are function names (``hcp``, ``control``, ``pt0`` ... ``pt9``);
    values have 13 entries, A down to 2.  The dealer program (Debian build
    2021-11-21) numbers its tables hcp, control, pt0 ... pt9, so ``altcount 0``
    sets ``hcp``, ``altcount 1`` sets ``control`` and ``altcount K`` sets
    ``pt(K-2)``.  ``pointcount`` and ``altcount 0`` both set the hcp table; the
    parser keeps the later one, as dealer does.

    >>> from croupier.simulate import parse_script
    >>> scales_of(parse_script("pointcount 3 2 1\\naltcount 5 2 1"))
    {'hcp': (3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), 'pt3': (2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)}
    >>> scales_of(parse_script("pointcount 5 4 3 2 1\\naltcount 0 4 3 2 1"))["hcp"][:5]
    (4, 3, 2, 1, 0)
    """
    scales: dict[str, tuple[int, ...]] = {}
    if script.pointcount is not None:
        scales["hcp"] = point_scale(script.pointcount)
    for number, values in sorted(script.altcount.items()):
        scales[_SCALED[number]] = point_scale(values)
    return scales


class _Compiler:
    def __init__(
        self,
        definitions: Mapping[str, Expr | Definition],
        scales: Mapping[str, Sequence[int]],
        filename: str,
    ) -> None:
        self.definitions = {
            k: v.expr if isinstance(v, Definition) else v for k, v in definitions.items()
        }
        self.filename = filename
        self.scales = dict(_DEFAULT_SCALES)
        for name, values in scales.items():
            if name not in self.scales:
                raise ScriptError(
                    filename,
                    0,
                    0,
                    f"scales= has unknown key {name!r}; expected hcp, control or pt0 ... pt9",
                )
            self.scales[name] = point_scale(values)
        self.named: dict[str, _Node] = {}
        self.compiling: set[str] = set()
        self.depth = 0  # how deep compile() is in the expression (and evaluation will be)
        self.mentions = 0  # rnd() mentions compiled so far: each draws its own numbers
        self._random: dict[str, bool] = {}
        self._calls: dict[str, frozenset[str]] = {}
        self._pure: dict[int, tuple[Expr, bool]] = {}  # (kept: the id stays its own)

    def fail(self, expr: Expr, message: str) -> ScriptError:
        return ScriptError(self.filename, expr.pos.line, expr.pos.column, message)

    def compile(self, expr: Expr) -> _Node:
        """The node of ``expr``, one level below the expression being compiled.

        The parser limits nesting to :data:`MAX_NESTING`; trees built by other code
        are held to the same limit here, so evaluating never runs out of stack.
        """
        if self.depth > MAX_NESTING:
            raise self.fail(expr, f"nesting deeper than {MAX_NESTING} levels")
        self.depth += 1
        try:
            return self._compile(expr)
        finally:
            self.depth -= 1

    def _compile(self, expr: Expr) -> _Node:
        if isinstance(expr, Number):
            number = expr.value
            return lambda ctx, active: np.full(ctx.size, number, np.int64)
        if isinstance(expr, Name):
            return self.name(expr)
        if isinstance(expr, Call):
            return self.call(expr)
        if isinstance(expr, Shape):
            seat, pattern = expr.seat, expr.pattern
            return _leaf(str(expr), lambda h: _int(bulk.shape(h, seat, pattern)))
        if isinstance(expr, HasCard):
            seat, card = expr.seat, expr.card
            return _leaf(str(expr), lambda h: _int(bulk.hascard(h, seat, card)))
        if isinstance(expr, Unary):
            operand = self.compile(expr.operand)
            return lambda ctx, active: _int(operand(ctx, active) == 0)
        if isinstance(expr, Binary):
            return self.binary(expr)
        if isinstance(expr, Conditional):
            return self.conditional(expr)
        if isinstance(expr, Score):
            tricks = self.compile(expr.tricks)
            vul, level, strain = expr.vulnerable, expr.contract.level, expr.contract.strain
            return lambda ctx, active: score(vul, level, strain, tricks(ctx, active))
        if isinstance(expr, Imps):
            value = self.compile(expr.value)
            return lambda ctx, active: imps(value(ctx, active))
        if isinstance(expr, Tricks):
            return self.tricks(expr)
        if isinstance(expr, Rnd):
            return self.rnd(expr)
        raise self.fail(expr, f"cannot evaluate {type(expr).__name__} {str(expr)!r}")

    def rnd(self, expr: Rnd) -> _Node:
        """``rnd(limit)``: mention number ``k`` of the expression draws its own numbers
        (:class:`croupier.simulate.draws.Draws`), whatever the order of evaluation."""
        limit = self.compile(expr.limit)
        mention = self.mentions
        self.mentions += 1
        filename, pos = self.filename, expr.pos

        def draw(ctx: _Context, active: Mask) -> IntArray:
            if ctx.draws is None:
                raise ScriptError(
                    filename,
                    pos.line,
                    pos.column,
                    "rnd() draws from a run's random stream: evaluate it in a simulation "
                    "(croupier dealer, run_script, Simulation)",
                )
            bound = limit(ctx, active)
            try:
                return ctx.draws.below(mention, bound, active)
            except ValueError as exc:
                raise ScriptError(filename, pos.line, pos.column, str(exc)) from None

        return draw

    def random(self, name: str) -> bool:
        """Whether the definition ``name`` calls ``rnd``, itself or through other names."""
        if name not in self._random:
            self._random[name] = False  # a name defined in terms of itself fails elsewhere
            body = self.definitions.get(name)
            found = False
            if body is not None:
                for node in body.walk():
                    if isinstance(node, Rnd) or (isinstance(node, Name) and self.random(node.name)):
                        found = True
                        break
            self._random[name] = found
        return self._random[name]

    def tricks(self, expr: Tricks) -> _Node:
        # Refuse at compile time when the solver is missing, naming the call's position.
        from croupier.simulate import double_dummy  # (only a script that calls tricks())

        double_dummy.require_solver(f"{self.filename}:{expr.pos.line}:{expr.pos.column}: ")
        seat, strain = Seat(expr.seat).position, double_dummy.STRAINS.index(expr.strain)
        return lambda ctx, active: _int(ctx.tricks_table(active)[:, seat, strain])

    def call(self, expr: Call) -> _Node:
        """A hand function's node: its values are computed once an evaluation (by its text)."""
        return _leaf(str(expr), self.hand_function(expr))

    def hand_function(self, expr: Call) -> Callable[[bulk.Holdings], IntArray]:
        function, seat, suit = expr.function, expr.seat, expr.suit
        if function == "length":
            return lambda h: bulk.suit_length(h, seat, suit or "S")
        if function in self.scales:
            table = self.scales[function]
            return lambda h: bulk.points(h, table, seat, suit)
        if function == "loser":
            if self.scales["pt6"] != _DEFAULT_SCALES["pt6"]:
                raise self.fail(
                    expr,
                    "loser() with a changed pt6 (top3) scale: dealer derives losers from that "
                    "table; keep pt6's default scale",
                )
            return lambda h: bulk.losers(h, seat, suit)
        if function == "cccc":
            return lambda h: bulk.cccc(h, seat)
        if function == "quality":
            return lambda h: bulk.quality(h, seat, suit or "S")
        raise self.fail(expr, f"unknown hand function {function!r}")

    def name(self, expr: Name) -> _Node:
        key = expr.name
        if key not in self.named:
            if key not in self.definitions:
                known = ", ".join(sorted(self.definitions)) or "none"
                raise self.fail(expr, f"unknown name {key!r}; defined names: {known}")
            if key in self.compiling:
                raise self.fail(expr, f"name {key!r} is defined in terms of itself")
            self.compiling.add(key)
            body = self.compile(self.definitions[key])
            self.compiling.discard(key)
            if self.random(key):
                return body  # as in dealer, every use of the name draws afresh: no reuse
            if self.pure(self.definitions[key]):

                def pure(ctx: _Context, active: Mask) -> IntArray:
                    # computed once, for every deal (nothing to spare: it cannot fail)
                    if key not in ctx.names:
                        ctx.names[key] = (body(ctx, None), None)
                    return ctx.names[key][0]

                self.named[key] = pure
                return pure

            def node(ctx: _Context, active: Mask) -> IntArray:
                # Reuse the value when every deal asked for now was computed before.
                if key in ctx.names:
                    values, done = ctx.names[key]
                    if done is None or (active is not None and not (active & ~done).any()):
                        return values
                    active = None if active is None else active | done
                values = body(ctx, active)
                ctx.names[key] = (values, active)
                return values

            self.named[key] = node
        return self.named[key]

    def binary(self, expr: Binary) -> _Node:
        # A chain down the left operands (1 + 2 + ... + 30000) is one level: its links
        # are applied in a loop, each to the value so far, in the order C evaluates them.
        first, chain = left_chain(expr)
        start = self.compile(first)
        steps: list[_Step] = []
        done = self.calls(first) if any(n.op in ("&&", "||") for n in chain) else None
        for node in chain:
            right = self.compile(node.right)
            if done is None:
                steps.append(self.step(node, right))
                continue
            more = self.calls(node.right)
            if self.cheap_first(node.op, done, more):
                # the chain so far as one node, evaluated after the cheap right operand;
                # once a chain (nesting these nodes would recurse as deep as it is long)
                start = self.swapped(node.op, self.folded(start, steps), right)
                steps, done = [], None
                continue
            steps.append(self.step(node, right))
            done |= more | ({"/"} if node.op in ("/", "%") else set())
        return self.folded(start, steps)

    @staticmethod
    def folded(start: _Node, steps: list[_Step]) -> _Node:
        """``start``, then each link of ``steps`` applied in turn to the value so far."""
        if not steps:
            return start
        if len(steps) == 1:
            step = steps[0]
            return lambda ctx, active: step(ctx, active, start(ctx, active))

        def fold(ctx: _Context, active: Mask) -> IntArray:
            value = start(ctx, active)
            for step in steps:
                value = step(ctx, active, value)
            return value

        return fold

    @staticmethod
    def cheap_first(op: str, left: frozenset[str], right: frozenset[str]) -> bool:
        """Whether ``left && right`` (or ``||``), of these :meth:`calls`, may evaluate its
        right operand first: the left calls ``tricks()`` (a double-dummy solve a deal) and
        the right does not, and neither side draws with ``rnd`` or divides (so no value
        and no error changes: conditions are pure; only fewer deals are solved)."""
        if op not in ("&&", "||") or "rnd" in left | right or "/" in left | right:
            return False
        return "tricks" in left and "tricks" not in right

    def calls(self, expr: Expr) -> frozenset[str]:
        """What evaluating ``expr`` may do, through named expressions: ``tricks``,
        ``rnd`` (draws), ``/`` (divides: ``/`` or ``%``, which may fail)."""
        found: set[str] = set()
        for node in expr.walk():
            if isinstance(node, Tricks):
                found.add("tricks")
            elif isinstance(node, Rnd):
                found.add("rnd")
            elif isinstance(node, Binary) and node.op in ("/", "%"):
                found.add("/")
            elif isinstance(node, Name):
                found |= self.name_calls(node.name)
        return frozenset(found)

    def name_calls(self, name: str) -> frozenset[str]:
        """:meth:`calls` of the definition ``name`` (once per name)."""
        if name not in self._calls:
            self._calls[name] = frozenset()  # a name defined in terms of itself fails elsewhere
            body = self.definitions.get(name)
            self._calls[name] = frozenset() if body is None else self.calls(body)
        return self._calls[name]

    def pure(self, expr: Expr) -> bool:
        """Whether evaluating ``expr`` can neither draw, nor solve, nor fail (:meth:`calls`
        is empty): then it is evaluated for every deal, with no masks, as that gives the
        same values with fewer steps."""
        key = id(expr)
        if key not in self._pure:
            self._pure[key] = (expr, not self.calls(expr))
        return self._pure[key][1]

    @staticmethod
    def swapped(op: str, left: _Node, right: _Node) -> _Node:
        """``left op right`` for ``&&``/``||``, the right operand evaluated first (and the
        left only on the deals where it decides): the same values, as conditions are pure."""
        want = op == "&&"

        def logical(ctx: _Context, active: Mask) -> IntArray:
            second = right(ctx, active) != 0
            more = second if want else ~second
            if active is not None:
                more = more & active
            if not more.any():
                return _int(second)
            first = left(ctx, more) != 0
            return _int(first & second if want else first | second)

        return logical

    def step(self, node: Binary, right: _Node) -> _Step:
        """``value op right`` for the value of ``node.left`` computed before."""
        op = node.op
        if op in ("&&", "||") and self.pure(node.right):
            if op == "&&":
                return lambda ctx, active, left: _int((left != 0) & (right(ctx, None) != 0))
            return lambda ctx, active, left: _int((left != 0) | (right(ctx, None) != 0))
        if op in ("&&", "||"):
            want = op == "&&"

            def logical(ctx: _Context, active: Mask, left: IntArray) -> IntArray:
                first = left != 0
                more = first if want else ~first
                if active is not None:
                    more = more & active
                if not more.any():
                    return _int(first)
                second = right(ctx, more) != 0
                return _int(first & second if want else first | second)

            return logical
        compare: dict[str, Callable[[IntArray, IntArray | int], IntArray]] = {
            "==": lambda a, b: _int(a == b),
            "!=": lambda a, b: _int(a != b),
            "<": lambda a, b: _int(a < b),
            "<=": lambda a, b: _int(a <= b),
            ">": lambda a, b: _int(a > b),
            ">=": lambda a, b: _int(a >= b),
            "+": lambda a, b: a + b,
            "-": lambda a, b: a - b,
            "*": lambda a, b: a * b,
        }
        if op in compare:
            apply = compare[op]
            if isinstance(node.right, Number) and _INT64_MIN <= node.right.value <= _INT64_MAX:
                number = node.right.value  # (a constant: no array of it made)
                return lambda ctx, active, left: apply(left, number)
            return lambda ctx, active, left: apply(left, right(ctx, active))
        modulo = op == "%"
        filename, pos = self.filename, node.pos

        def divide(ctx: _Context, active: Mask, a: IntArray) -> IntArray:
            b = right(ctx, active)
            zero = b == 0
            if (zero if active is None else zero & active).any():
                what = "modulo" if modulo else "division"
                text = str(node)  # written only now: a long chain's text is long
                if len(text) > 80:
                    text = f"{text[:60]}... ({len(text):,} characters)"
                raise ScriptError(filename, pos.line, pos.column, f"{what} by zero in {text}")
            quotient, remainder = _c_divide(a, np.where(zero, 1, b))
            return remainder if modulo else quotient

        return divide

    def conditional(self, expr: Conditional) -> _Node:
        test, then, otherwise = (self.compile(e) for e in expr.children())
        if self.pure(expr.then) and self.pure(expr.otherwise):
            return lambda ctx, active: np.where(
                test(ctx, active) != 0, then(ctx, None), otherwise(ctx, None)
            )

        def select(ctx: _Context, active: Mask) -> IntArray:
            chosen = test(ctx, active) != 0
            out = np.zeros(ctx.size, np.int64)
            for branch, where in ((then, chosen), (otherwise, ~chosen)):
                if active is not None:
                    where = where & active
                if where.any():
                    out = np.where(where, branch(ctx, where), out)
            return out

        return select


class Compiled:
    """A compiled expression: call it on a deal array (or its Holdings) for one value per deal.

    >>> from croupier.bulk import deal_array
    >>> from croupier.simulate import parse_expression
    >>> f = compile_expression(parse_expression("spades(north) >= 5 ? 1 : 0 - 1"))
    >>> values = f(deal_array(4, seed="c"))
    >>> values.dtype.name, values.shape, set(values.tolist()) <= {1, -1}
    ('int64', (4,), True)
    """

    __slots__ = ("_node", "expr", "random")

    def __init__(self, expr: Expr, node: _Node, random: bool = False) -> None:
        self.expr = expr
        self._node = node
        self.random = random
        """Whether the expression calls ``rnd`` (then a call needs ``draws=``)."""

    def __call__(self, deals: DealArray | bulk.Holdings, draws: Draws | None = None) -> IntArray:
        ctx = _Context(deals, draws=draws)
        return self._node(ctx, None)

    def __repr__(self) -> str:
        return f"Compiled({str(self.expr)!r})"


def compile_expression(
    expr: Expr,
    definitions: Mapping[str, Expr | Definition] | None = None,
    *,
    scales: Mapping[str, Sequence[int]] | None = None,
    filename: str = "<expression>",
) -> Compiled:
    """Compile ``expr`` to a function of a deal array giving its value for every deal.

    ``definitions`` are the named expressions it may use (a script's
    ``definitions`` or plain expressions; each is compiled once and its value
    computed once per call); ``scales`` maps ``hcp``, ``control``, ``pt0`` ...
    ``pt9`` to a point scale from the ace down (see :func:`scales_of`).
    ``tricks`` solves each deal that needs it once per call (with the ``dd``
    extra; without it compiling raises
    :class:`~croupier.simulate.double_dummy.DoubleDummyUnavailable` naming the
    call's position); ``rnd`` draws from the ``draws=`` given to the call (a
    :class:`croupier.simulate.draws.Draws`: the run's stream and the deals' numbers;
    each mention of ``rnd`` draws its own numbers, and a name whose definition
    calls ``rnd`` draws afresh at every use, as in dealer).  Values
    are 64-bit, where dealer's are 32-bit C ints (no hand function comes near).

    >>> from croupier.bulk.writers import parse_oneline
    >>> from croupier.simulate import parse_expression
    >>> line = "n AKQJT98765432... e .AKQJT98765432.. s ..AKQJT98765432. w ...AKQJT98765432"
    >>> deals = parse_oneline(line)
    >>> e = parse_expression("big ? hcp(north) : 0 - 7 % 4", names=["big"])
    >>> compile_expression(e, {"big": parse_expression("spades(north) == 13")})(deals).tolist()
    [10]
    >>> compile_expression(e, {"big": parse_expression("0")}, scales={"hcp": [1]})(deals).tolist()
    [-3]
    >>> compile_expression(parse_expression("1 / (hcp(east) - 10)"))(deals)
    Traceback (most recent call last):
    ...
    croupier.simulate.parse.ScriptError: <expression>:1:1: division by zero in 1 / (hcp(east) - 10)
    """
    compiler = _Compiler(definitions or {}, scales or {}, filename)
    node = compiler.compile(expr)
    return Compiled(expr, node, random=compiler.mentions > 0)


def compile_condition(script: Script) -> Callable[[DealArray | bulk.Holdings], BoolArray]:
    """The script's ``condition`` as a function giving, for every deal, whether it passes.

    Uses the script's definitions and point scales; without a ``condition``
    every deal passes (as in dealer).

    >>> from croupier.bulk import deal_array
    >>> from croupier.simulate import parse_script
    >>> s = parse_script("pointcount 1\\nstrong = hcp(north) == 4\\ncondition strong")
    >>> accept = compile_condition(s)
    >>> deals = deal_array(1000, seed="cond")
    >>> bool((accept(deals) == (deals.piles[:, 0::13] == 0).all(axis=1)).all())  # all 4 aces
    True
    """
    if script.condition is None:
        return lambda deals: np.ones(len(deals), np.bool_)
    compiled = compile_expression(
        script.condition, script.definitions, scales=scales_of(script), filename=script.filename
    )

    def accept(deals: DealArray | bulk.Holdings) -> BoolArray:
        passed: BoolArray = compiled(deals) != 0
        return passed

    return accept
