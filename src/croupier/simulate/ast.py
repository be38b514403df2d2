"""The syntax tree of a dealer script: frozen dataclasses, one per construct.

:func:`croupier.simulate.parse_script` builds a :class:`Script`;
:func:`croupier.simulate.parse_expression` builds one :class:`Expr`.  Every node
carries ``pos``, the :class:`Position` (line, column) where it starts, for
error messages; positions take no part in equality, so two trees built from
differently laid-out text compare equal when they mean the same.

Seats are ``"N" "E" "S" "W"`` (as :data:`croupier.boards.SEATS`, pile indices
0 to 3 of a bridge deal), suits ``"S" "H" "D" "C"`` (the order of
:data:`SUITS`, as in :meth:`croupier.bulk.DealArray.suit_lengths`) and a
strain is a suit or ``"NT"``.  ``str()`` of an expression is dealer text that
parses back to the same tree:

>>> from croupier.simulate import parse_expression
>>> expr = parse_expression("hcp(north)>=15 and shape(north, any 4333 + any 4432)")
>>> print(expr)
hcp(north) >= 15 && shape(north, any 4333 + any 4432)
>>> parse_expression(str(expr)) == expr
True
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import field, replace
from typing import Any, Literal

from croupier.cards import Card
from croupier.dealing.evaluation import ShapePattern
from croupier.frozen import frozen_dataclass
from croupier.seats import SEATS, Seat, Vulnerability

__all__ = [
    "BINARY_OPERATORS",
    "FUNCTIONS",
    "MAX_FREQUENCY2D_CELLS",
    "MAX_FREQUENCY_CELLS",
    "PRINT_ACTIONS",
    "SEAT_WORDS",
    "STATISTICS_ACTIONS",
    "SUITS",
    "SUIT_WORDS",
    "Action",
    "Average",
    "Binary",
    "Call",
    "Conditional",
    "Contract",
    "Definition",
    "Expr",
    "Frequency",
    "Frequency2D",
    "HasCard",
    "Imps",
    "Name",
    "Number",
    "Position",
    "PredealCards",
    "PredealLength",
    "Print",
    "PrintAll",
    "PrintCompact",
    "PrintES",
    "PrintEW",
    "PrintOneLine",
    "PrintPBN",
    "Rnd",
    "Score",
    "Script",
    "Shape",
    "Strain",
    "SuitLetter",
    "Tricks",
    "Unary",
    "frequency_size_problem",
    "left_chain",
]

SuitLetter = Literal["S", "H", "D", "C"]
Strain = Literal["S", "H", "D", "C", "NT"]

SUITS: tuple[SuitLetter, ...] = ("S", "H", "D", "C")
"""Suit letters in the order of :data:`croupier.bulk.array.SUIT_ORDER` (index = suit axis)."""

SEAT_WORDS: dict[Seat, str] = {seat: seat.long_name.lower() for seat in SEATS}
"""The dealer keyword of each seat: ``north`` ... (what :meth:`Seat.parse` reads)."""

SUIT_WORDS: dict[Strain, str] = {
    "S": "spades",
    "H": "hearts",
    "D": "diamonds",
    "C": "clubs",
    "NT": "notrump",
}
"""The dealer keyword of each strain."""

FUNCTIONS: dict[str, str] = {
    "length": "the number of cards in a suit: spades(north)",
    "hcp": "high-card points (pointcount scale): hcp(north), hcp(north, spades)",
    **{
        f"pt{i}": f"alternate count {i} (altcount {i}), also called {word}"
        for i, word in enumerate(
            ("tens", "jacks", "queens", "kings", "aces", "top2", "top3", "top4", "top5", "c13")
        )
    },
    "loser": "losing-trick count: loser(north), loser(north, spades)",
    "control": "controls, ace 2 and king 1: control(north), control(north, spades)",
    "cccc": "Kaplan-Rubens evaluation times 100: cccc(north)",
    "quality": "suit quality times 100: quality(north, spades)",
}
"""The hand functions of :class:`Call` (canonical name -> what it computes)."""

BINARY_OPERATORS: dict[str, int] = {
    "||": 1,
    "&&": 2,
    "==": 3,
    "!=": 3,
    "<": 4,
    "<=": 4,
    ">": 4,
    ">=": 4,
    "+": 5,
    "-": 5,
    "*": 6,
    "/": 6,
    "%": 6,
}
"""Binary operators and their precedence (higher binds tighter; all left-associative).

These are C's levels, which dealer follows: ``?:`` (right-associative) is
below ``||``, and ``!`` binds tighter than every binary operator.
"""

_UNARY_LEVEL = 7
_ATOM_LEVEL = 8


@frozen_dataclass
class Position:
    """Where a construct starts: 1-based line and column.

    >>> str(Position(3, 14))
    '3:14'
    """

    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.line}:{self.column}"


NOWHERE = Position(0, 0)


@frozen_dataclass
class Expr:
    """Base class of expressions; every expression has an integer value per deal."""

    pos: Position = field(default=NOWHERE, compare=False, repr=False, kw_only=True)

    @property
    def level(self) -> int:
        """Binding strength, for printing with just the parentheses needed."""
        return _ATOM_LEVEL

    def children(self) -> tuple[Expr, ...]:
        """The direct sub-expressions.

        >>> from croupier.simulate import parse_expression
        >>> [str(c) for c in parse_expression("1 + hcp(north)").children()]
        ['1', 'hcp(north)']
        """
        return ()

    def walk(self) -> Iterator[Expr]:
        """This expression and all its sub-expressions, parents first.

        >>> from croupier.simulate import parse_expression
        >>> [type(e).__name__ for e in parse_expression("!(1 < x)", names=["x"]).walk()]
        ['Unary', 'Binary', 'Number', 'Name']
        """
        stack: list[Expr] = [self]
        while stack:  # no recursion: a chain of 100,000 operators is a deep tree
            expr = stack.pop()
            yield expr
            stack.extend(reversed(expr.children()))


@frozen_dataclass
class Number(Expr):
    """An integer literal (dealer's ``-3`` is a literal, not a negation).

    >>> str(Number(-3))
    '-3'
    """

    value: int

    def __str__(self) -> str:
        return str(self.value)


@frozen_dataclass
class Name(Expr):
    """A reference to a named expression (``name = expr``) defined earlier in the script.

    >>> str(Name("opener"))
    'opener'
    """

    name: str

    def __str__(self) -> str:
        return self.name


@frozen_dataclass
class Call(Expr):
    """A hand function of one seat, over the whole hand or one suit (:data:`FUNCTIONS`).

    ``function`` is canonical (``"length"`` for ``spades(north)``, ``"pt3"``
    for ``kings(north)``); ``suit`` is ``None`` for the whole hand.

    >>> print(Call("hcp", "N", "S"), Call("length", "W", "H"), Call("pt3", "E"))
    hcp(north, spades) hearts(west) pt3(east)
    """

    function: str
    seat: Seat
    suit: SuitLetter | None = None

    def __str__(self) -> str:
        if self.function == "length":
            return f"{SUIT_WORDS[self.suit or 'S']}({SEAT_WORDS[self.seat]})"
        suit = f", {SUIT_WORDS[self.suit]}" if self.suit else ""
        return f"{self.function}({SEAT_WORDS[self.seat]}{suit})"


@frozen_dataclass
class Shape(Expr):
    """``shape(seat, pattern)``: 1 when the seat's suit lengths fit the pattern, else 0.

    >>> from croupier.dealing.evaluation import parse_shape
    >>> print(Shape("N", parse_shape("any 4333 - 4xxx")))
    shape(north, any 4333 - 4xxx)
    """

    seat: Seat
    pattern: ShapePattern

    def __str__(self) -> str:
        return f"shape({SEAT_WORDS[self.seat]}, {self.pattern})"


@frozen_dataclass
class HasCard(Expr):
    """``hascard(seat, card)``: 1 when the seat holds the card.

    >>> from croupier.cards import parse_card
    >>> print(HasCard("E", parse_card("TC")))
    hascard(east, TC)
    """

    seat: Seat
    card: Card

    def __str__(self) -> str:
        return f"hascard({SEAT_WORDS[self.seat]}, {self.card})"


@frozen_dataclass
class Tricks(Expr):
    """``tricks(seat, strain)``: double-dummy tricks for that declarer.

    >>> print(Tricks("S", "NT"))
    tricks(south, notrump)
    """

    seat: Seat
    strain: Strain

    def __str__(self) -> str:
        return f"tricks({SEAT_WORDS[self.seat]}, {SUIT_WORDS[self.strain]})"


@frozen_dataclass
class Contract:
    """An undoubled contract as dealer writes it in ``score``: ``x3N``, ``x4S``.

    >>> print(Contract(3, "NT"), Contract(7, "C"))
    x3N x7C
    """

    level: int
    strain: Strain

    def __str__(self) -> str:
        return f"x{self.level}{self.strain[0]}"


@frozen_dataclass
class Score(Expr):
    """``score(vul|nv, contract, tricks)``: declarer's score, negative when it fails.

    >>> print(Score(True, Contract(3, "NT"), Number(9)))
    score(vul, x3N, 9)
    """

    vulnerable: bool
    contract: Contract
    tricks: Expr

    def children(self) -> tuple[Expr, ...]:
        return (self.tricks,)

    def __str__(self) -> str:
        return f"score({'vul' if self.vulnerable else 'nv'}, {self.contract}, {self.tricks})"


@frozen_dataclass
class Imps(Expr):
    """``imps(difference)``: a score difference on the IMP scale, with its sign.

    >>> print(Imps(Number(420)))
    imps(420)
    """

    value: Expr

    def children(self) -> tuple[Expr, ...]:
        return (self.value,)

    def __str__(self) -> str:
        return f"imps({self.value})"


@frozen_dataclass
class Rnd(Expr):
    """``rnd(limit)``: a random integer (dealer draws 0 to limit - 1).

    >>> print(Rnd(Number(10)))
    rnd(10)
    """

    limit: Expr

    def children(self) -> tuple[Expr, ...]:
        return (self.limit,)

    def __str__(self) -> str:
        return f"rnd({self.limit})"


@frozen_dataclass
class Unary(Expr):
    """Logical negation ``!x`` (also written ``not x``): 1 when x is 0, else 0.

    >>> print(Unary("!", Number(0)))
    !0
    """

    op: Literal["!"]
    operand: Expr

    @property
    def level(self) -> int:
        return _UNARY_LEVEL

    def children(self) -> tuple[Expr, ...]:
        return (self.operand,)

    def __str__(self) -> str:
        inner = str(self.operand)
        if self.operand.level < _UNARY_LEVEL:
            inner = f"({inner})"
        return f"!{inner}"


@frozen_dataclass
class Binary(Expr):
    """``left op right`` for an operator of :data:`BINARY_OPERATORS`.

    ``and``/``or`` are stored as ``&&``/``||``.  Printing adds only the
    parentheses that the precedence needs:

    >>> print(Binary("-", Number(1), Binary("-", Number(2), Number(3))))
    1 - (2 - 3)

    A chain of left-associative operators (``1 + 2 + ... + 30000``) is a tree
    as deep as it is long, down its left operands: printing, comparing,
    hashing, ``repr`` and pickling follow that chain in a loop (see
    :func:`left_chain`), so only the nesting of right operands, which the
    parser limits, costs Python recursion.
    """

    op: str
    left: Expr
    right: Expr

    @property
    def level(self) -> int:
        return BINARY_OPERATORS[self.op]

    def children(self) -> tuple[Expr, ...]:
        return (self.left, self.right)

    def __str__(self) -> str:
        first, chain = left_chain(self)
        opened = 0  # parentheses opened before everything written so far
        pieces = [str(first)]
        below = first.level
        for node in chain:
            if below < node.level:
                opened += 1
                pieces.append(")")
            right = str(node.right)
            if node.right.level <= node.level:
                right = f"({right})"
            pieces.append(f" {node.op} {right}")
            below = node.level
        return "(" * opened + "".join(pieces)

    def __repr__(self) -> str:
        first, chain = left_chain(self)
        head = "".join(f"Binary(op={node.op!r}, left=" for node in reversed(chain))
        tail = "".join(f", right={node.right!r})" for node in chain)
        return f"{head}{first!r}{tail}"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Binary):
            return NotImplemented
        a: Expr = self
        b: Expr = other
        while isinstance(a, Binary) and isinstance(b, Binary):
            if a is b:
                return True
            if type(a) is not type(b) or a.op != b.op or a.right != b.right:
                return False
            a, b = a.left, b.left
        return a == b if not (isinstance(a, Binary) or isinstance(b, Binary)) else False

    def __hash__(self) -> int:
        first, chain = left_chain(self)
        return hash((Binary, first, tuple((node.op, node.right) for node in chain)))

    def __reduce__(self) -> tuple[Any, tuple[Expr, tuple[tuple[str, Expr, Position], ...]]]:
        first, chain = left_chain(self)
        return (_build_chain, (first, tuple((node.op, node.right, node.pos) for node in chain)))


def left_chain(expr: Binary) -> tuple[Expr, tuple[Binary, ...]]:
    """The chain of binary operators down ``expr``'s left operands: the first operand,
    then the operators from the innermost (applied first) to ``expr`` itself.

    ``1 - 2 * 3 - 4`` is ``(1 - (2 * 3)) - 4``: its chain is ``1``, then ``1 - 2 * 3``
    and the whole expression; evaluating the chain in order, each node on the value so far
    and its right operand, gives the whole value.  A loop, not recursion, however long.

    >>> from croupier.simulate import parse_expression
    >>> first, chain = left_chain(parse_expression("1 - 2 * 3 - 4"))
    >>> str(first), [f"{node.op} {node.right}" for node in chain]
    ('1', ['- 2 * 3', '- 4'])
    """
    nodes: list[Binary] = []
    node: Expr = expr
    while isinstance(node, Binary):
        nodes.append(node)
        node = node.left
    nodes.reverse()
    return node, tuple(nodes)


def _build_chain(first: Expr, chain: tuple[tuple[str, Expr, Position], ...]) -> Expr:
    """The inverse of :func:`left_chain` (how a :class:`Binary` is unpickled)."""
    expr = first
    for op, right, pos in chain:
        expr = Binary(op, expr, right, pos=pos)
    return expr


@frozen_dataclass
class Conditional(Expr):
    """``test ? then : otherwise`` (right-associative, the loosest operator).

    >>> print(Conditional(Number(1), Number(2), Conditional(Number(0), Number(3), Number(4))))
    1 ? 2 : 0 ? 3 : 4
    """

    test: Expr
    then: Expr
    otherwise: Expr

    @property
    def level(self) -> int:
        return 0

    def children(self) -> tuple[Expr, ...]:
        return (self.test, self.then, self.otherwise)

    def __str__(self) -> str:
        test = str(self.test)
        if self.test.level == 0:
            test = f"({test})"
        return f"{test} ? {self.then} : {self.otherwise}"


# -- actions ---------------------------------------------------------------------------


@frozen_dataclass
class Action:
    """Base class of the actions of an ``action`` list."""

    pos: Position = field(default=NOWHERE, compare=False, repr=False, kw_only=True)


@frozen_dataclass
class PrintAll(Action):
    """``printall``: the four hands side by side (dealer's default action)."""


@frozen_dataclass
class PrintEW(Action):
    """``printew``: the West and East hands."""


@frozen_dataclass
class PrintPBN(Action):
    """``printpbn``: each deal as a PBN game with Dealer and Vulnerable tags."""


@frozen_dataclass
class Print(Action):
    """``print(seats)``: the named seats' hands, each seat on its own page.

    >>> Print(("E", "W")).seats
    ('E', 'W')
    """

    seats: tuple[Seat, ...]


@frozen_dataclass
class PrintCompact(Action):
    """``printcompact`` or ``printcompact(expr)``: four lines per deal, then the value."""

    expr: Expr | None = None


@frozen_dataclass
class PrintOneLine(Action):
    """``printoneline`` or ``printoneline(expr)``: one line per deal, then the value."""

    expr: Expr | None = None


@frozen_dataclass
class PrintES(Action):
    """``printes(item, ...)``: strings (``\\n`` is a line end) and expression values.

    >>> PrintES(("hcp ", Number(1), "\\n")).items[0]
    'hcp '
    """

    items: tuple[str | Expr, ...]


@frozen_dataclass
class Average(Action):
    """``average ["label"] expr``: the mean of ``expr`` over the produced deals."""

    label: str | None
    expr: Expr


MAX_FREQUENCY_CELLS = 1_000_000
"""The most values (``high - low + 1``) of a one-dimensional ``frequency`` table.

A table keeps a counter for every value of its range, allocated before the first deal (as
in dealer, which has no limit and runs out of memory instead); real tables are far smaller:
points 0 to 37, a score from -7600 to 7600 (15,201 values)."""

MAX_FREQUENCY2D_CELLS = 1_000_000
"""The most cells (values of the first expression times values of the second) of a
two-dimensional ``frequency`` table; real ones are far smaller (points by points: 38 × 38)."""


def frequency_size_problem(bounds: tuple[int, int], bounds2: tuple[int, int] | None = None) -> str:
    """Why a ``frequency`` table of these bounds is too large to count, or ``""``.

    Checked before the table is allocated (its cells are counted, never made), when the
    bounds are in order; at most :data:`MAX_FREQUENCY_CELLS` values in one dimension,
    :data:`MAX_FREQUENCY2D_CELLS` cells in two.

    >>> frequency_size_problem((0, 37)), frequency_size_problem((0, 37), (0, 37))
    ('', '')
    >>> frequency_size_problem((0, 100_000_000))
    'frequency bounds 0, 100000000: 100,000,001 cells, more than the 1,000,000 of a table'
    >>> print(frequency_size_problem((0, 99_999), (1, 100_000)))
    frequency bounds 0, 99999 and 1, 100000: 100,000 × 100,000 = 10,000,000,000 cells, more
    than the 1,000,000 of a table
    """
    (low, high) = bounds
    if bounds2 is None:
        cells = high - low + 1
        if cells <= MAX_FREQUENCY_CELLS:
            return ""
        return (
            f"frequency bounds {low}, {high}: {cells:,} cells, "
            f"more than the {MAX_FREQUENCY_CELLS:,} of a table"
        )
    (low2, high2) = bounds2
    rows, columns = high - low + 1, high2 - low2 + 1
    if rows * columns <= MAX_FREQUENCY2D_CELLS:
        return ""
    return (
        f"frequency bounds {low}, {high} and {low2}, {high2}: "
        f"{rows:,} × {columns:,} = {rows * columns:,} cells, "
        f"more than the {MAX_FREQUENCY2D_CELLS:,} of a table"
    )


@frozen_dataclass
class Frequency(Action):
    """``frequency ["label"] (expr, low, high)``: a histogram; outside values go to Low/High."""

    label: str | None
    expr: Expr
    low: int
    high: int


@frozen_dataclass
class Frequency2D(Action):
    """``frequency ["label"] (expr, low, high, expr2, low2, high2)``: a joint histogram."""

    label: str | None
    expr: Expr
    low: int
    high: int
    expr2: Expr
    low2: int
    high2: int


PRINT_ACTIONS: tuple[type[Action], ...] = (
    PrintAll,
    PrintEW,
    PrintPBN,
    Print,
    PrintCompact,
    PrintOneLine,
    PrintES,
)
"""The actions that print deals or values for each produced deal."""

STATISTICS_ACTIONS: tuple[type[Action], ...] = (Average, Frequency, Frequency2D)
"""The actions that gather statistics over the produced deals."""


# -- script ----------------------------------------------------------------------------


@frozen_dataclass
class PredealCards:
    """``predeal seat holdings``: these cards go to this seat.

    >>> from croupier.cards import parse_cards
    >>> PredealCards("S", tuple(parse_cards("AS KS"))).seat
    'S'
    """

    seat: Seat
    cards: tuple[Card, ...]
    pos: Position = field(default=NOWHERE, compare=False, repr=False, kw_only=True)


@frozen_dataclass
class PredealLength:
    """``predeal spades(north)==1``: the seat gets exactly this many cards of the suit."""

    seat: Seat
    suit: SuitLetter
    length: int
    pos: Position = field(default=NOWHERE, compare=False, repr=False, kw_only=True)


@frozen_dataclass
class Definition:
    """``name = expr``: a named expression, usable after this line."""

    name: str
    expr: Expr
    pos: Position = field(default=NOWHERE, compare=False, repr=False, kw_only=True)


@frozen_dataclass
class Script:
    """A parsed dealer script, with dealer's rules for repeated statements applied.

    ``generate``/``produce``: the first non-zero value (``None`` when absent);
    ``dealer``, ``vulnerable``, ``condition``, ``action`` and each
    ``pointcount``/``altcount N``: the last one; ``predeal`` statements add
    up.  ``actions`` is ``None`` without an ``action`` statement (dealer then
    prints every deal with ``printall``) and ``()`` for an empty one.
    ``pointcount`` and each ``altcount`` list values from the ace down; the
    cards after the last value count 0.

    >>> from croupier.simulate import parse_script
    >>> s = parse_script("produce 5\\nopener = hcp(north) >= 12\\ncondition opener")
    >>> s.produce, list(s.definitions), str(s.condition), s.actions
    (5, ['opener'], 'opener', None)
    """

    filename: str = "<script>"
    generate: int | None = None
    produce: int | None = None
    dealer: Seat | None = None
    vulnerable: Vulnerability | None = None
    predeal: tuple[PredealCards, ...] = ()
    predeal_lengths: tuple[PredealLength, ...] = ()
    pointcount: tuple[int, ...] | None = None
    altcount: Mapping[int, tuple[int, ...]] = field(default_factory=dict)
    definitions: Mapping[str, Definition] = field(default_factory=dict)
    condition: Expr | None = None
    actions: tuple[Action, ...] | None = None

    def expressions(self) -> Iterator[Expr]:
        """Every top-level expression: definitions, the condition, then the actions'.

        >>> from croupier.simulate import parse_script
        >>> s = parse_script("x = hcp(north)\\ncondition x > 10\\naction average x")
        >>> [str(e) for e in s.expressions()]
        ['hcp(north)', 'x > 10', 'x']
        """
        for definition in self.definitions.values():
            yield definition.expr
        if self.condition is not None:
            yield self.condition
        for action in self.actions or ():
            for name in ("expr", "expr2"):
                value = getattr(action, name, None)
                if isinstance(value, Expr):
                    yield value
            if isinstance(action, PrintES):
                yield from (item for item in action.items if isinstance(item, Expr))

    def prints_deals(self) -> bool:
        """Whether the script prints something per deal (no ``action`` means ``printall``).

        >>> from croupier.simulate import parse_script
        >>> parse_script("").prints_deals(), parse_script("action average 1").prints_deals()
        (True, False)
        """
        return self.actions is None or any(isinstance(a, PRINT_ACTIONS) for a in self.actions)

    def statistics_only(self) -> Script:
        """The same script with only its ``average`` and ``frequency`` actions.

        >>> from croupier.simulate import parse_script
        >>> s = parse_script("action printall, average hcp(north)").statistics_only()
        >>> [type(a).__name__ for a in s.actions]
        ['Average']
        """
        kept = tuple(a for a in self.actions or () if isinstance(a, STATISTICS_ACTIONS))
        return replace(self, actions=kept)

    def uses_double_dummy(self) -> bool:
        """Whether any expression of the script calls ``tricks`` (a slow double-dummy solve).

        >>> from croupier.simulate import parse_script
        >>> parse_script("action average tricks(north, notrump)").uses_double_dummy()
        True
        >>> parse_script("condition hcp(north) > 20").uses_double_dummy()
        False
        """
        return any(isinstance(e, Tricks) for expr in self.expressions() for e in expr.walk())
