"""A small language for deterministic shuffles, shared by the API and the CLI.

A *spec* is a comma-separated list of moves, done left to right::

    cut:3, riffle, faro-out*8, (cut:1,faro-in)*3, pile:4, reverse

=================  ===========================================================
move               meaning (see :mod:`croupier.moves`)
=================  ===========================================================
``cut:K``          cut ``K`` cards to the bottom (mod ``n``; negative allowed)
``riffle``         split at ``n // 2`` and interweave the halves (top first)
``faro-out``       perfect out-shuffle (top card stays); also ``out``
``faro-in``        perfect in-shuffle (top card goes second); also ``in``
``unfaro-out``     inverse of ``faro-out`` (also ``unfaro-in``)
``dealers-move:K`` ``cut:K`` then ``riffle``
``monge``          Monge's over/under shuffle
``milk``           the milk (Klondike) shuffle
``pile:P``         deal round-robin into ``P`` piles, gather pile 0 on top
``kfaro:K``        ``K``-way perfect out-shuffle (also ``kfaro-in:K``)
``reverse``        reverse the deck
``identity``       do nothing (also ``id``)
=================  ===========================================================

``X*N`` repeats ``X`` ``N`` times (``N`` may be 0 or negative: ``X*-1`` undoes
``X``); parentheses group moves.  Names are case-insensitive and ``_`` may be
used for ``-``.

>>> spec = parse_spec("faro-out*8")
>>> spec.permutation(52).is_identity()
True
>>> parse_spec("dealers-move:2").apply([1, 2, 3, 4, 5, 6])
[3, 6, 4, 1, 5, 2]
>>> str(parse_spec(" Cut:3 , (riffle,out)*2 "))
'cut:3,(riffle,faro-out)*2'
>>> parse_spec("cut:3,rifle")
Traceback (most recent call last):
...
croupier.errors.ShuffleSpecError: unknown move 'rifle' in shuffle spec 'cut:3,rifle'; known...
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, overload

import numpy.typing as npt

from croupier import moves
from croupier.errors import ShuffleSpecError
from croupier.perm import Permutation

__all__ = ["MOVES", "Chain", "Move", "MoveInfo", "Repeat", "ShuffleSpec", "Step", "parse_spec"]

T = TypeVar("T")


@dataclass(frozen=True)
class MoveInfo:
    """How one named move is built: its argument (if any) and its permutation for ``n`` cards."""

    name: str
    arg: str | None
    build: Callable[[int, int], Permutation]
    help: str
    minimum: int | None = None


def _no_arg(f: Callable[[int], Permutation]) -> Callable[[int, int], Permutation]:
    return lambda n, _k: f(n)


MOVES: dict[str, MoveInfo] = {
    m.name: m
    for m in [
        MoveInfo("cut", "K", moves.cut_perm, "cut K cards to the bottom"),
        MoveInfo("riffle", None, _no_arg(moves.riffle_perm), "split at n//2, interweave"),
        MoveInfo(
            "faro-out", None, _no_arg(lambda n: moves.faro_perm(n, "out")), "perfect out-shuffle"
        ),
        MoveInfo(
            "faro-in", None, _no_arg(lambda n: moves.faro_perm(n, "in")), "perfect in-shuffle"
        ),
        MoveInfo(
            "unfaro-out",
            None,
            _no_arg(lambda n: moves.unfaro_perm(n, "out")),
            "undo a perfect out-shuffle",
        ),
        MoveInfo(
            "unfaro-in",
            None,
            _no_arg(lambda n: moves.unfaro_perm(n, "in")),
            "undo a perfect in-shuffle",
        ),
        MoveInfo("dealers-move", "K", moves.dealers_move_perm, "cut:K then riffle"),
        MoveInfo("monge", None, _no_arg(moves.monge_perm), "Monge over/under shuffle"),
        MoveInfo("milk", None, _no_arg(moves.milk_perm), "milk (Klondike) shuffle"),
        MoveInfo("pile", "P", moves.pile_perm, "deal into P piles, gather pile 0 on top", 1),
        MoveInfo("kfaro", "K", moves.kway_faro_perm, "K-way perfect out-shuffle", 1),
        MoveInfo(
            "kfaro-in",
            "K",
            lambda n, k: moves.kway_faro_perm(n, k, "in"),
            "K-way perfect in-shuffle",
            1,
        ),
        MoveInfo("reverse", None, _no_arg(moves.reverse_perm), "reverse the deck"),
        MoveInfo("identity", None, _no_arg(Permutation.identity), "leave the deck alone"),
    ]
}

ALIASES = {
    "out": "faro-out",
    "in": "faro-in",
    "faro": "faro-out",
    "unfaro": "unfaro-out",
    "id": "identity",
    "dealer": "dealers-move",
    "dealers": "dealers-move",
    "kfaro-out": "kfaro",
    "pile-shuffle": "pile",
}


def _known() -> str:
    return ", ".join(f"{m.name}:{m.arg}" if m.arg else m.name for m in MOVES.values())


@dataclass(frozen=True)
class Move:
    """One named move with its integer argument (``None`` for moves without one)."""

    name: str
    arg: int | None = None

    def __str__(self) -> str:
        return self.name if self.arg is None else f"{self.name}:{self.arg}"

    def permutation(self, n: int) -> Permutation:
        """This move on ``n`` cards.

        >>> Move("cut", 1).permutation(3)
        Permutation([1, 2, 0])
        """
        return MOVES[self.name].build(n, 0 if self.arg is None else self.arg)


@dataclass(frozen=True)
class Repeat:
    """``body`` done ``times`` times (negative: the inverse, ``-times`` times)."""

    body: Step
    times: int

    def __str__(self) -> str:
        inner = str(self.body)
        if isinstance(self.body, Chain) and len(self.body.steps) != 1:
            inner = f"({inner})"
        return f"{inner}*{self.times}"

    def permutation(self, n: int) -> Permutation:
        """``body`` to the power ``times`` on ``n`` cards.

        >>> Repeat(Move("cut", 1), 2).permutation(3)
        Permutation([2, 0, 1])
        """
        return self.body.permutation(n) ** self.times


@dataclass(frozen=True)
class Chain:
    """Steps done one after the other, left to right."""

    steps: tuple[Step, ...]

    def __str__(self) -> str:
        return ",".join(
            f"({s})" if isinstance(s, Chain) and len(s.steps) != 1 else str(s) for s in self.steps
        )

    def permutation(self, n: int) -> Permutation:
        """The steps composed left to right on ``n`` cards.

        >>> Chain((Move("cut", 1), Move("reverse"))).permutation(3)
        Permutation([0, 2, 1])
        """
        p = Permutation.identity(n)
        for s in self.steps:
            p = p * s.permutation(n)
        return p


Step = Move | Repeat | Chain

#: Longest integer (in digits) a spec may contain, and deepest nesting of parentheses.
MAX_DIGITS = 1000
MAX_DEPTH = 50

_BLANK_END = re.compile(r"\s*\Z")
_TOKEN = re.compile(r"\s*(?:(?P<int>[+-]?[0-9]+)|(?P<name>[A-Za-z][A-Za-z0-9_-]*)|(?P<op>[,*:()]))")


def _tokens(text: str) -> Iterator[tuple[str, str]]:
    pos = 0
    while pos < len(text):
        if _BLANK_END.match(text, pos):
            return
        m = _TOKEN.match(text, pos)
        if m is None:
            bad = text[pos:].strip().split(",")[0].strip() or text[pos:].strip()
            raise ShuffleSpecError(
                f"bad token {_clip(bad)!r} in shuffle spec {_clip(text)!r}; expected moves like "
                "'cut:3,riffle,faro-out*8'"
            )
        kind = m.lastgroup or "op"
        if kind == "int" and len(m.group(kind).lstrip("+-")) > MAX_DIGITS:
            raise ShuffleSpecError(
                f"bad token {_clip(m.group(kind))!r} in shuffle spec {_clip(text)!r}: "
                f"numbers in a spec have at most {MAX_DIGITS} digits"
            )
        yield kind, m.group(kind)
        pos = m.end()


def _clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = list(_tokens(text))
        self.i = 0
        self.depth = 0

    def peek(self) -> tuple[str, str] | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self) -> tuple[str, str]:
        tok = self.peek()
        if tok is None:
            raise ShuffleSpecError(
                f"shuffle spec {_clip(self.text)!r} ends too early; "
                "expected a move such as 'riffle'"
            )
        self.i += 1
        return tok

    def fail(self, token: str, why: str) -> ShuffleSpecError:
        return ShuffleSpecError(
            f"bad token {_clip(token)!r} in shuffle spec {_clip(self.text)!r}: {why}"
        )

    def sequence(self) -> Chain:
        steps = [self.term()]
        while self.peek() == ("op", ","):
            self.take()
            steps.append(self.term())
        return Chain(tuple(steps))

    def term(self) -> Step:
        step = self.atom()
        while self.peek() == ("op", "*"):
            self.take()
            kind, value = self.take()
            if kind != "int":
                raise self.fail(value, "a repetition count must be an integer, e.g. faro-out*8")
            times = int(value)
            if isinstance(step, Repeat):  # (x*a)*b is x*(a*b): keeps the tree shallow
                times *= step.times
                step = step.body
            if abs(times) >= 10**MAX_DIGITS:
                raise self.fail(value, f"the repetition count exceeds {MAX_DIGITS} digits")
            step = Repeat(step, times)
        return step

    def atom(self) -> Step:
        kind, value = self.take()
        if (kind, value) == ("op", "("):
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise self.fail("(", f"parentheses nest more than {MAX_DEPTH} deep")
            inner = self.sequence()
            self.depth -= 1
            if self.peek() != ("op", ")"):
                tok = self.peek()
                raise self.fail(tok[1] if tok else "(", "unclosed '('; expected ')'")
            self.take()
            return inner.steps[0] if len(inner.steps) == 1 else inner
        if kind != "name":
            raise self.fail(value, "expected a move such as 'riffle' or 'cut:3'")
        key = value.lower().replace("_", "-")
        key = ALIASES.get(key, key)
        info = MOVES.get(key)
        if info is None:
            raise ShuffleSpecError(
                f"unknown move {_clip(value)!r} in shuffle spec {_clip(self.text)!r}; "
                f"known moves: {_known()}"
            )
        if self.peek() == ("op", ":"):
            self.take()
            tok = self.peek()
            if info.arg is None:
                raise self.fail(
                    f"{value}:{tok[1] if tok else ''}", f"{info.name} takes no argument"
                )
            akind, avalue = self.take()
            if akind != "int":
                raise self.fail(
                    f"{value}:{avalue}", f"{info.name} needs an integer, e.g. {info.name}:3"
                )
            arg = int(avalue)
            if info.minimum is not None and arg < info.minimum:
                raise self.fail(
                    f"{value}:{avalue}", f"{info.name} needs {info.arg} >= {info.minimum}"
                )
            return Move(info.name, arg)
        if info.arg is not None:
            raise self.fail(value, f"{info.name} needs an argument, e.g. {info.name}:3")
        return Move(info.name)


@dataclass(frozen=True)
class ShuffleSpec:
    """A parsed shuffle spec: a sequence of moves, applied left to right.

    >>> spec = parse_spec("cut:2, riffle")
    >>> spec.apply([1, 2, 3, 4, 5, 6])
    [3, 6, 4, 1, 5, 2]
    >>> spec.permutation(6).order()
    6
    """

    body: Chain

    def __str__(self) -> str:
        return str(self.body)

    @property
    def steps(self) -> tuple[Step, ...]:
        """The top-level steps.

        >>> parse_spec("cut:1,riffle*2").steps
        (Move(name='cut', arg=1), Repeat(body=Move(name='riffle', arg=None), times=2))
        """
        return self.body.steps

    def permutation(self, n: int) -> Permutation:
        """The whole spec as one permutation of ``n`` cards.

        >>> parse_spec("faro-in*2").permutation(4)
        Permutation([3, 2, 1, 0])
        """
        return self.body.permutation(n)

    @overload
    def apply(self, seq: npt.NDArray[Any]) -> npt.NDArray[Any]: ...
    @overload
    def apply(self, seq: Sequence[T]) -> list[T]: ...
    def apply(self, seq: Sequence[T] | npt.NDArray[Any]) -> list[T] | npt.NDArray[Any]:
        """Rearrange ``seq`` by the spec (a new list; an array for numpy arrays).

        >>> parse_spec("reverse,cut:1").apply("abcd")
        ['c', 'b', 'a', 'd']
        """
        return self.permutation(len(seq)).apply(seq)

    def moves(self) -> list[Move]:
        """Every named move in the spec, left to right (repetitions not expanded).

        >>> [str(m) for m in parse_spec("(cut:1,monge)*3,milk").moves()]
        ['cut:1', 'monge', 'milk']
        """
        out: list[Move] = []

        def walk(s: Step) -> None:
            if isinstance(s, Move):
                out.append(s)
            elif isinstance(s, Repeat):
                walk(s.body)
            else:
                for t in s.steps:
                    walk(t)

        walk(self.body)
        return out


def parse_spec(text: str | ShuffleSpec) -> ShuffleSpec:
    """Parse a shuffle spec such as ``"cut:3,riffle,faro-out*8"`` (see the module docs).

    >>> parse_spec("out*8")
    ShuffleSpec(body=Chain(steps=(Repeat(body=Move(name='faro-out', arg=None), times=8),)))
    >>> parse_spec("cut:x")
    Traceback (most recent call last):
    ...
    croupier.errors.ShuffleSpecError: bad token 'cut:x' in shuffle spec 'cut:x': cut needs...
    """
    if isinstance(text, ShuffleSpec):
        return text
    if not text.strip():
        raise ShuffleSpecError("empty shuffle spec ''; expected moves like 'cut:3,riffle'")
    parser = _Parser(text)
    body = parser.sequence()
    rest = parser.peek()
    if rest is not None:
        raise parser.fail(rest[1], "expected ',' between moves or the end of the spec")
    return ShuffleSpec(body)
