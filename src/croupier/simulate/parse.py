"""Parse dealer scripts and expressions into the syntax tree of :mod:`croupier.simulate.ast`.

Syntax comes from :mod:`croupier.simulate.grammar` (lark, LALR(1)); this
module turns lark's tree into :class:`~croupier.simulate.ast.Script` and
applies the checks dealer makes while reading a script (names defined before
use and only once, shapes of 13 cards, predealt cards not given twice, at most
13 ``pointcount`` values, ...) plus a few that dealer leaves to chance
(``altcount`` numbers 0 to 9, ``frequency`` bounds in order, predealt cards
within a predealt suit length).  Every error is a :class:`ScriptError` whose
message is one line ``FILE:LINE:COLUMN: what was found, what was expected``.

>>> script = parse_script("produce 10\\ncondition hcp(north) >= 20\\naction printoneline")
>>> script.produce, str(script.condition), script.actions
(10, 'hcp(north) >= 20', (PrintOneLine(expr=None),))
>>> parse_script("condition hcp(north) >= ", filename="nt.dlr")
Traceback (most recent call last):
...
croupier.simulate.parse.ScriptError: nt.dlr:1:25: found the end of the script, expected an ...
"""

from __future__ import annotations

import contextlib
import functools
import gc
import re
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, NoReturn, cast

from croupier.cards import Card, parse_card
from croupier.dealing.evaluation import EvaluationError, ShapePattern, ShapeTerm, parse_shape
from croupier.errors import CroupierError, bounded_decimal, excerpt
from croupier.seats import Seat, Vulnerability
from croupier.simulate.ast import (
    Action,
    Average,
    Binary,
    Call,
    Conditional,
    Contract,
    Definition,
    Expr,
    Frequency,
    Frequency2D,
    HasCard,
    Imps,
    Name,
    Number,
    Position,
    PredealCards,
    PredealLength,
    Print,
    PrintAll,
    PrintCompact,
    PrintES,
    PrintEW,
    PrintOneLine,
    PrintPBN,
    Rnd,
    Score,
    Script,
    Shape,
    Strain,
    SuitLetter,
    Tricks,
    Unary,
    frequency_size_problem,
)
from croupier.simulate.grammar import GRAMMAR, KEYWORDS
from croupier.simulate.parser_cache import cached_parser, cached_script

if TYPE_CHECKING:
    from lark import Lark, Token, Tree
    from lark.exceptions import (
        UnexpectedCharacters,
        UnexpectedEOF,
        UnexpectedInput,
        UnexpectedToken,
    )


def _load_lark() -> None:
    """Import lark on the first parse (a script parsed before comes from the cache of
    :func:`croupier.simulate.parser_cache.cached_script`, without lark)."""
    if "Token" in globals():
        return
    import lark
    import lark.exceptions

    globals().update(
        Lark=lark.Lark,
        Token=lark.Token,
        Tree=lark.Tree,
        UnexpectedCharacters=lark.exceptions.UnexpectedCharacters,
        UnexpectedEOF=lark.exceptions.UnexpectedEOF,
        UnexpectedInput=lark.exceptions.UnexpectedInput,
        UnexpectedToken=lark.exceptions.UnexpectedToken,
    )


__all__ = [
    "BOM",
    "HEX_KEY_DIGITS",
    "LONG_KEY_RUN",
    "MAX_NESTING",
    "MAX_NUMBER",
    "MAX_SCRIPT",
    "MAX_TOKENS",
    "SHORT_TOKEN",
    "ScriptError",
    "parse_expression",
    "parse_script",
]

MAX_NUMBER = 2**31 - 1
"""The largest integer literal (dealer's numbers are C ``int``)."""

MAX_SCRIPT = 1_000_000
"""The longest script text accepted, in characters."""

BOM = "\ufeff"
"""The byte-order mark that may start a script (UTF-8 ``EF BB BF``); it is left out."""

MAX_TOKENS = 100_000
"""The most tokens (words, numbers, operators, parentheses; not comments or spaces) of a
script or expression: the parser reads about 50,000 a second, so any script is read,
or refused, within seconds."""

MAX_NESTING = 100
"""The deepest nesting of an expression, counted two ways, each at most this: while
reading, every open parenthesis (a function's too), pending ``!``/``not`` and pending
``?:``; in the syntax tree, every operand of ``!``, ``?:``, a function or an operator
(except the left operands along a chain: ``1 + 2 + ... + 30000`` is one level) and
every name, whose definition's depth it adds.  Real scripts nest a few levels; the
limit keeps every later stage (compiling, evaluating, printing, pickling) far from
Python's recursion limit, and deeper input is refused before it is parsed."""


class ScriptError(CroupierError):
    """A dealer script or expression could not be read; says where, what was found and expected.

    ``filename``, ``line`` and ``column`` (1-based) locate the problem.

    >>> err = ScriptError("x.dlr", 2, 5, "unknown name 'foo'")
    >>> str(err), err.line, err.column
    ("x.dlr:2:5: unknown name 'foo'", 2, 5)
    """

    def __init__(self, filename: str, line: int, column: int, message: str) -> None:
        super().__init__(f"{filename}:{line}:{column}: {message}")
        self.filename = filename
        self.line = line
        self.column = column

    def __reduce__(self) -> tuple[type[ScriptError], tuple[str, int, int, str]]:
        prefix = f"{self.filename}:{self.line}:{self.column}: "
        return (type(self), (self.filename, self.line, self.column, str(self)[len(prefix) :]))


_PARSER_OPTIONS: dict[str, Any] = {
    "parser": "lalr",
    "lexer": "basic",
    "start": ["start", "expr"],
    "propagate_positions": True,
    "maybe_placeholders": False,
}


@functools.cache
def _parser() -> Lark:
    """The LALR parser of :data:`GRAMMAR`, kept between runs by :mod:`.parser_cache`."""
    key = f"{GRAMMAR}|{sorted(_PARSER_OPTIONS.items())}"
    return cached_parser(key, lambda: Lark(GRAMMAR, **_PARSER_OPTIONS))


# -- words -----------------------------------------------------------------------------

_SUIT_OF: dict[str, SuitLetter] = {"club": "C", "diamond": "D", "heart": "H", "spade": "S"}
_SYNONYMS = ("ten", "jack", "queen", "king", "ace", "top2", "top3", "top4", "top5", "c13")


def _suit(word: str) -> SuitLetter:
    return _SUIT_OF[word.removesuffix("s")]


def _hand_function(word: str) -> str:
    word = word.removesuffix("s")
    if word in _SYNONYMS:
        return f"pt{_SYNONYMS.index(word)}"
    return word


# -- error messages --------------------------------------------------------------------

_TERMINAL_WORDS: dict[str, str] = {
    "SEAT": "a seat (north, east, south, west)",
    "SUIT": "a suit (spades, hearts, diamonds, clubs)",
    "NOTRUMP": "notrump",
    "VULNERABILITY": "a vulnerability (none, NS, EW, all)",
    "VUL": "vul or nv",
    "HOLDING": "a holding such as SAKQ (suit letter S H D C, then ranks AKQJT98765432 in order)",
    "CARD": "a card such as AS or TC (rank, then suit)",
    "CONTRACT": "a contract such as x3N or x4S",
    "DISTR": "a shape such as 4333, any 4432 or 5xxx",
    "DISTR_OR_NUMBER": "a number",
    "NUMBER": "a number",
    "IDENT": "a name",
    "STRING": 'a "string"',
    "LINE_END": "\\n",
    "HAND_FN": "a function",
    "$END": "the end of the script",
}
_EXPRESSION_START = {"NUMBER", "IDENT", "LPAR", "SUIT", "HAND_FN", "SHAPE"}
_ACTION_START = {"PRINTALL", "PRINTEW", "PRINTPBN", "PRINT", "AVERAGE", "FREQUENCY"}
_STATEMENT_START = {"GENERATE", "PRODUCE", "CONDITION", "ACTION", "PREDEAL"}


def _terminal_word(name: str) -> str:
    if name in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[name]
    if name in KEYWORDS:
        return " or ".join(repr(w.replace("?", "")) for w in KEYWORDS[name])
    for term in _parser().terminals:
        if term.name == name and term.pattern.type == "str":
            return repr(term.pattern.value)
    return name.lower()


def _expected(names: Iterable[str]) -> str:
    names = set(names)
    words: list[str] = []
    operators = {"PLUS", "STAR", "SLASH"} <= names
    if operators:
        names -= {"PLUS", "MINUS", "STAR", "SLASH", "PERCENT", "LESSTHAN", "MORETHAN"}
        names -= {"AND_WORD", "OR_WORD", "QMARK", "BANG"}
        names = {n for n in names if not n.startswith("__ANON")}
    if {"NUMBER", "MINUS"} <= names and not names >= _EXPRESSION_START:
        names.discard("MINUS")
    if names >= _STATEMENT_START:
        words.append("a statement (generate, produce, predeal, condition, action, name = ...)")
        names -= _STATEMENT_START | _EXPRESSION_START | set(KEYWORDS) | {"MINUS", "BANG"}
        names -= {"DISTR_OR_NUMBER", "DEALER", "VULNERABLE", "POINTCOUNT", "ALTCOUNT"}
    if names >= _EXPRESSION_START:
        words.append("an expression")
        names -= _EXPRESSION_START | {"DISTR_OR_NUMBER", "MINUS", "BANG", "NOT_WORD", "RND"}
        names -= {"CCCC", "QUALITY", "HASCARD", "TRICKS", "SCORE", "IMPS"}
    if names >= _ACTION_START:
        words.append("an action (printall, printoneline, average, frequency, ...)")
        names -= _ACTION_START | {"PRINTCOMPACT", "PRINTONELINE", "PRINTES", "EVALCONTRACT"}
    if operators:
        words.append("an operator")
    end = "$END" in names
    names.discard("$END")
    words += sorted({_terminal_word(n) for n in names})
    if end:
        words.append(_terminal_word("$END"))
    if not words:
        return "something else"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


# The regular expressions below are compiled on first use: a script read back from the
# cache of parsed scripts (a short run of croupier dealer) needs none of them.
@functools.cache
def _keyword_re() -> re.Pattern[str]:
    return re.compile("|".join(w for words in KEYWORDS.values() for w in words))


# A run of the characters of hex, base64 (both alphabets), base32 and SquareDeal keys; a key
# file given as a script must not end up quoted on a terminal or in a log.
_KEY_CHARS = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz+/=_-")


@functools.cache
def _key_run() -> re.Pattern[str]:
    return re.compile(r"[0-9A-Za-z+/=_-]+")


#: A token of at most this many characters is always quoted: it holds too little of any key
#: to matter (an operator, a one-letter name, a small number, a card).
SHORT_TOKEN = 3
#: A run of at least this many hex digits in a row may be a key (a 128-bit key has 32).
HEX_KEY_DIGITS = 32
#: A run of at least this many characters may be a base64 or base32 key (128 bits take 22
#: base64 or 26 base32 characters; a ``.sqk`` SquareDeal key has 60).
LONG_KEY_RUN = 20


@functools.cache
def _hex_key() -> re.Pattern[str]:
    return re.compile(rf"[0-9A-Fa-f]{{{HEX_KEY_DIGITS},}}")


@functools.cache
def _base32_key() -> re.Pattern[str]:
    return re.compile(rf"[A-Z2-7]{{{LONG_KEY_RUN},}}")


def _key_like(run: str) -> bool:
    """Whether a run of key characters may be key material (never a run of digits alone).

    >>> _key_like("6b1f0e38d9c27a45f10e9b8a7c36d25e"), _key_like("x=12345678")
    (True, False)
    >>> _key_like("J4aytsBk5EVTp3H7+0eppHQAC7PRzVdy"), _key_like("north_has_5_spades_and_12_hcp")
    (True, False)
    >>> _key_like("JBSWY3DPEHPK3PXPJBSWY3DP"), _key_like("9" * 64)
    (True, False)
    """
    if run.isdigit():
        return False  # a number, however long, is no key (numbers too large are refused)
    if _hex_key().search(run):
        return True
    for match in _base32_key().finditer(run):
        piece = match.group()
        if any(c.isdigit() for c in piece) and any(c.isalpha() for c in piece):
            return True
    kinds = (str.isupper, str.islower, str.isdigit)
    return len(run) >= LONG_KEY_RUN and all(any(kind(c) for c in run) for kind in kinds)


def _quoted(word: str, source: str = "", start: int | None = None, limit: int = 30) -> str:
    """``word`` quoted for a message, or ``<N characters hidden>`` when it may be key material.

    A token of at most :data:`SHORT_TOKEN` characters is always quoted (escaped).  A longer
    one starts at ``start`` in ``source``: the run of key characters around it (letters,
    digits and ``+ / = _ -``) is judged whole, so a piece of a base64 line between two
    ``+`` is hidden too.  Hidden: a run holding :data:`HEX_KEY_DIGITS` hex digits in a
    row, a base32 piece (``A-Z 2-7``) of :data:`LONG_KEY_RUN` characters or more with
    letters and digits, or a run of that length mixing upper-case letters, lower-case
    letters and digits (base64).  Names and numbers of real scripts are not like that.

    >>> key = "6b1f0e38d9c27a45f10e9b8a7c36d25e"
    >>> _quoted("west1n"), _quoted("6b1f0e38d9c2"), _quoted("=", "x=" + key, 1), _quoted(key)
    ("'west1n'", "'6b1f0e38d9c2'", "'='", '<32 characters hidden>')
    >>> _quoted("wU9T", "wU9T+Kd8s0Zq7/Lm2Pq4Xv", 0)
    '<4 characters hidden>'
    """
    if len(word) <= SHORT_TOKEN:
        return excerpt(word, limit)
    if start is None or source[start : start + len(word)] != word:
        source, start = word, 0
    left, right = start, start + len(word)
    while left > 0 and source[left - 1] in _KEY_CHARS:
        left -= 1
    while right < len(source) and source[right] in _KEY_CHARS:
        right += 1
    if any(_key_like(run) for run in _key_run().findall(source, left, right)):
        return f"<{len(word)} characters hidden>"
    return excerpt(word, limit)


def _found(token: Token, source: str = "") -> str:
    if token.type == "$END":
        return "the end of the script"
    text = _quoted(str(token), source, token.start_pos)
    if token.type == "IDENT":
        hint = " (dealer's keywords are lower case)" if _keyword_like(str(token)) else ""
        return f"name {text}{hint}"
    if token.type in {"NUMBER", "DISTR_OR_NUMBER"}:
        return f"number {text[1:-1] if text.startswith(chr(39)) else text}"
    if token.type in {"HOLDING", "CARD", "CONTRACT", "DISTR", "STRING"}:
        return f"{token.type.lower().replace('distr', 'shape')} {text}"
    return text


def _syntax_error(filename: str, text: str, exc: UnexpectedInput) -> ScriptError:
    line, column = exc.line, exc.column
    if isinstance(exc, UnexpectedCharacters):
        at = exc.pos_in_stream or 0
        char = text[at] if at < len(text) else ""
        if char == '"':
            message = "found a string that is never closed (no second '\"')"
        elif char == "#":
            message = "found '#', which starts a comment only at the start of a line (use //)"
        else:
            message = f"found character {char!r}, expected a word, number or operator"
        return ScriptError(filename, line, column, message)
    if isinstance(exc, UnexpectedToken):
        token = exc.token
        start = token.start_pos if token.start_pos is not None else len(text)
        line, column = token.line or line, token.column or column
        if token.type == "STAR" and start > 0 and text[start - 1] == "/":
            message = "found '/*' that is never closed by '*/'"
            return ScriptError(filename, line, column - 1, message)
        if token.type == "SLASH" and text[start + 1 : start + 2] == "*":
            return ScriptError(filename, line, column, "found '/*' that is never closed by '*/'")
        if token.type == "$END":
            line, column = _end_position(text)
        before = text[:start].rstrip(" \t\r\n")
        call = _call_before().search(before)
        if call and token.type != "$END" and _is_unknown_call(call.group(1)):
            word = call.group(1)
            lower = "; dealer's keywords are lower case" if _keyword_like(word) else ""
            at = call.start(1)
            line = text.count("\n", 0, at) + 1
            column = at - (text.rfind("\n", 0, at) + 1) + 1
            word = _quoted(word, text, at)
            message = f"found name {word} followed by '(', which no function is{lower}"
            return ScriptError(filename, line, column, message)
        expected: set[str] = set(exc.expected)
        if exc.interactive_parser is not None:  # only what can really follow (no LALR merging)
            accepts = cast(Callable[[], set[str]], exc.interactive_parser.accepts)
            expected = set(accepts()) or expected
        message = f"found {_found(token, text)}, expected {_expected(expected)}"
        if before.endswith("-") and expected <= {"NUMBER", "DISTR_OR_NUMBER"}:
            message += " (only a number can be negative: write 0 - x)"
        return ScriptError(filename, line, column, message)
    line, column = _end_position(text)
    return ScriptError(filename, line, column, "found the end of the script, expected more")


@functools.cache
def _call_before() -> re.Pattern[str]:
    return re.compile(r"(?<![A-Za-z0-9_])([A-Za-z][A-Za-z0-9_]*)[ \t\r\n]*\($")


def _keyword_like(word: str) -> bool:
    """Whether ``word`` would be a keyword in lower case (``North``, ``HCP``)."""
    return _keyword_re().fullmatch(word.lower()) is not None


def _is_unknown_call(word: str) -> bool:
    """Whether ``word(`` before a syntax error is a name used as a function."""
    if _keyword_re().fullmatch(word):
        return False
    return not re.fullmatch(
        r"[CDHS]A?K?Q?J?T?9?8?7?6?5?4?3?2?|[2-9TJQKA][CDHS]|x.{3}|x[1-7].", word
    )


def _end_position(text: str) -> tuple[int, int]:
    line = text.count("\n") + 1
    return line, len(text) - (text.rfind("\n") + 1) + 1


# -- building the tree -----------------------------------------------------------------


def _pos(node: Tree[Token] | Token) -> Position:
    if isinstance(node, Token):
        return Position(node.line or 0, node.column or 0)
    meta = node.meta
    return Position(getattr(meta, "line", 0), getattr(meta, "column", 0))


_BINARY = {
    "or_": "||",
    "and_": "&&",
    "eq": "==",
    "ne": "!=",
    "lt": "<",
    "le": "<=",
    "gt": ">",
    "ge": ">=",
    "add": "+",
    "sub": "-",
    "mul": "*",
    "div": "/",
    "mod": "%",
}


_TOO_DEEP = f"nesting deeper than {MAX_NESTING} levels"


class _Builder:
    """Turns lark's tree into the syntax tree, checking names and values on the way.

    ``source`` is the text parsed (to judge what an error message may quote).
    Chains of binary operators are built in a loop; every other nesting costs one
    level of recursion, at most :data:`MAX_NESTING` (``heights`` holds how deep each
    definition goes, so a name adds its definition's depth).
    """

    def __init__(self, filename: str, names: Iterable[str] = (), source: str = "") -> None:
        self.filename = filename
        self.source = source
        self.defined: dict[str, Position] = {name: Position(0, 0) for name in names}
        self.heights: dict[str, int] = {}
        self.deepest = 0

    def fail(self, where: Tree[Token] | Token | Position, message: str) -> NoReturn:
        pos = where if isinstance(where, Position) else _pos(where)
        raise ScriptError(self.filename, pos.line, pos.column, message)

    # numbers

    def number(self, node: Tree[Token] | Token) -> int:
        if isinstance(node, Token):
            value = bounded_decimal(str(node), 10)
            if value is None or value > MAX_NUMBER:
                # Not quoted: 10 digits or more may be a piece of a key; say only how long.
                digits = len(str(node))
                self.fail(node, f"number of {digits} digits is too large (at most {MAX_NUMBER})")
            return value
        child = node.children[0]
        if isinstance(child, Tree):  # negative
            return -self.number(cast(Token, child.children[0]))
        return self.number(child)

    # expressions

    def expr(self, node: Tree[Token] | Token, depth: int = 0) -> Expr:
        """The expression of ``node``, nested ``depth`` levels deep in the whole one."""
        pos = _pos(node)
        if depth > MAX_NESTING:
            self.fail(node, _TOO_DEEP)
        self.deepest = max(self.deepest, depth)
        if isinstance(node, Token):  # cannot happen with this grammar; kept for safety
            self.fail(
                node,
                f"found {_quoted(str(node), self.source, node.start_pos)}, expected an expression",
            )
        kind = str(node.data)
        kids = node.children
        if kind == "number":
            return Number(self.number(node), pos=pos)
        if kind in _BINARY:  # a chain down the left operands: one level, built in a loop
            chain: list[Tree[Token]] = []
            first: Tree[Token] | Token = node
            while isinstance(first, Tree) and str(first.data) in _BINARY:
                chain.append(first)
                first = first.children[0]
            result = self.expr(first, depth + 1)
            for link in reversed(chain):
                right = self.expr(link.children[-1], depth + 1)
                result = Binary(_BINARY[str(link.data)], result, right, pos=_pos(link))
            return result
        if kind == "not_":
            return Unary("!", self.expr(kids[-1], depth + 1), pos=pos)
        if kind == "conditional":
            test, then, otherwise = (self.expr(k, depth + 1) for k in kids)
            return Conditional(test, then, otherwise, pos=pos)
        words = [str(k) for k in kids if isinstance(k, Token)]
        if kind == "name":
            return self.name(cast(Token, kids[0]), depth)
        if kind == "length":
            return Call("length", Seat.parse(words[1]), _suit(words[0]), pos=pos)
        if kind == "hand_fn":
            suit = _suit(words[2]) if len(words) > 2 else None
            return Call(_hand_function(words[0]), Seat.parse(words[1]), suit, pos=pos)
        if kind == "cccc":
            return Call("cccc", Seat.parse(words[1]), pos=pos)
        if kind == "quality":
            return Call("quality", Seat.parse(words[1]), _suit(words[2]), pos=pos)
        if kind == "shape":
            items = [k for k in kids if isinstance(k, Tree)]
            return Shape(Seat.parse(words[1]), self.shape(items), pos=pos)
        if kind == "hascard":
            return HasCard(Seat.parse(words[1]), parse_card(words[2]), pos=pos)
        if kind == "tricks":
            strain: Strain = "NT" if words[2].startswith("notrump") else _suit(words[2])
            return Tricks(Seat.parse(words[1]), strain, pos=pos)
        if kind == "score":
            level, letter = int(words[2][1]), words[2][2]
            contract = Contract(level, cast(Strain, "NT" if letter == "N" else letter))
            return Score(words[1] == "vul", contract, self.expr(kids[-1], depth + 1), pos=pos)
        if kind == "imps":
            return Imps(self.expr(kids[-1], depth + 1), pos=pos)
        if kind == "rnd":
            return Rnd(self.expr(kids[-1], depth + 1), pos=pos)
        self.fail(node, f"unexpected construct {kind}")  # pragma: no cover - grammar bug

    def name(self, token: Token, depth: int = 0) -> Name:
        name = str(token)
        if name not in self.defined:
            if _keyword_like(name):
                hint = "; dealer's keywords are lower case"
            else:
                hint = "; define it (name = expression) before its use"
            self.fail(token, f"unknown name {_quoted(name, self.source, token.start_pos)}{hint}")
        height = self.heights.get(name)
        if height is not None:  # evaluating the name evaluates its definition, one level down
            reached = depth + 1 + height
            if reached > MAX_NESTING:
                shown = _quoted(name, self.source, token.start_pos)
                self.fail(token, f"{_TOO_DEEP}, through the definition of {shown}")
            self.deepest = max(self.deepest, reached)
        return Name(name, pos=_pos(token))

    def shape(self, items: list[Tree[Token]]) -> ShapePattern:
        terms: list[ShapeTerm] = []
        for item in items:
            exclude = False
            is_any = False
            body = ""
            for part in item.children:
                if isinstance(part, Tree):
                    exclude = part.data == "minus_sign"
                elif part.type == "ANY":
                    is_any = True
                else:
                    body = str(part)
                    where = part
            text = ("any " if is_any else "") + body
            try:
                (term,) = parse_shape(text).terms
            except EvaluationError as exc:
                detail = str(exc).rsplit(": ", 1)[-1]
                self.fail(where, f"bad shape {body}: {detail}")
            terms.append(ShapeTerm(term.lengths, any=is_any, exclude=exclude))
        return ShapePattern(tuple(terms))

    # actions

    def label(self, kids: list[Any]) -> str | None:
        for kid in kids:
            if isinstance(kid, Tree) and kid.data == "string":
                return self.string(kid)
        return None

    def string(self, node: Tree[Token]) -> str:
        token = cast(Token, node.children[0])
        return "\n" if token.type == "LINE_END" else str(token)[1:-1]

    def action(self, node: Tree[Token]) -> Action:
        kind = str(node.data)
        pos = _pos(node)
        kids = node.children
        label = self.label(kids)
        parts = [k for k in kids if isinstance(k, Tree) and k.data != "string"]
        simple: dict[str, Callable[..., Action]] = {
            "printall": PrintAll,
            "printew": PrintEW,
            "printpbn": PrintPBN,
        }
        if kind in simple:
            return simple[kind](pos=pos)
        if kind == "print":
            seats = tuple(
                Seat.parse(str(k)) for k in kids if isinstance(k, Token) and k.type == "SEAT"
            )
            return Print(seats, pos=pos)
        if kind == "printcompact":
            return PrintCompact(self.expr(parts[0]) if parts else None, pos=pos)
        if kind == "printoneline":
            return PrintOneLine(self.expr(parts[0]) if parts else None, pos=pos)
        if kind == "printes":
            items: list[str | Expr] = []
            for kid in kids:
                if isinstance(kid, Tree):
                    items.append(self.string(kid) if kid.data == "string" else self.expr(kid))
            return PrintES(tuple(items), pos=pos)
        if kind == "average":
            return Average(label, self.expr(parts[0]), pos=pos)
        if kind == "frequency":
            exprs = [self.expr(parts[i]) for i in range(0, len(parts), 3)]
            bounds = [self.number(parts[i]) for i in range(len(parts)) if i % 3]
            for i in range(0, len(bounds), 2):
                low, high = bounds[i], bounds[i + 1]
                if low > high:
                    self.fail(
                        parts[1 + 3 * (i // 2)],
                        f"frequency bounds {low}, {high}: the low bound is above the high one",
                    )
            # Counted before anything is allocated: a table keeps a counter for each cell.
            second = (bounds[2], bounds[3]) if len(exprs) > 1 else None
            too_large = frequency_size_problem((bounds[0], bounds[1]), second)
            if too_large:
                self.fail(parts[1], too_large)
            if len(exprs) == 1:
                return Frequency(label, exprs[0], bounds[0], bounds[1], pos=pos)
            low2, high2 = bounds[2], bounds[3]
            return Frequency2D(
                label, exprs[0], bounds[0], bounds[1], exprs[1], low2, high2, pos=pos
            )
        self.fail(node, "evalcontract is not supported (dealer aborts on it); use score and imps")

    # statements

    def script(self, tree: Tree[Token]) -> Script:
        values: dict[str, Any] = {"filename": self.filename}
        predeal: list[PredealCards] = []
        lengths: list[PredealLength] = []
        altcount: dict[int, tuple[int, ...]] = {}
        definitions: dict[str, Definition] = {}
        owner: dict[Card, Seat] = {}
        for statement in tree.children:
            if not isinstance(statement, Tree):
                continue
            kind = str(statement.data)
            kids = statement.children
            if kind in {"generate", "produce"}:
                value = self.number(kids[1])
                if value < 0:
                    self.fail(kids[1], f"{kind} needs a count of deals, not {value}")
                if not values.get(kind):
                    values[kind] = value or None
            elif kind == "dealer":
                values["dealer"] = Seat.parse(str(kids[1]))
            elif kind == "vulnerable":
                values["vulnerable"] = Vulnerability.from_dealer_word(str(kids[1]))
            elif kind == "predeal":
                for item in kids[1:]:
                    if not isinstance(item, Tree):
                        continue
                    if item.data == "predeal_cards":
                        predeal.append(self.predeal_cards(item, owner))
                    else:
                        lengths.append(self.predeal_length(item, lengths))
            elif kind == "pointcount":
                values["pointcount"] = self.counts(kids[1:])
                altcount.pop(0, None)  # both set the hcp table: the later one wins, as in dealer
            elif kind == "altcount":
                index = self.number(kids[1])
                if not 0 <= index <= 9:
                    self.fail(kids[1], f"altcount number {index} is not 0 to 9 (pt0 ... pt9)")
                altcount[index] = self.counts(kids[2:])
                if index == 0:
                    values.pop("pointcount", None)
            elif kind in {"condition", "bare_condition"}:
                values["condition"] = self.expr(kids[-1])
            elif kind == "definition":
                token = cast(Token, kids[0])
                name = str(token)
                if name in self.defined:
                    first = self.defined[name]
                    shown = _quoted(name, self.source, token.start_pos)
                    self.fail(token, f"{shown} is already defined (line {first.line})")
                self.deepest = 0
                expr = self.expr(kids[1])
                self.defined[name] = _pos(token)
                self.heights[name] = self.deepest
                definitions[name] = Definition(name, expr, pos=_pos(token))
            elif kind == "action_statement":
                values["actions"] = tuple(self.action(k) for k in kids if isinstance(k, Tree))
        self.check_predeal(predeal, lengths)
        return Script(
            **values,
            predeal=tuple(predeal),
            predeal_lengths=tuple(lengths),
            altcount=altcount,
            definitions=definitions,
        )

    def counts(self, kids: list[Any]) -> tuple[int, ...]:
        values = tuple(self.number(k) for k in kids)
        if len(values) > 13:
            self.fail(kids[13], "too many point values: 13 at most, from the ace down to the 2")
        return values

    def predeal_cards(self, item: Tree[Token], owner: dict[Card, Seat]) -> PredealCards:
        seat_token = cast(Token, item.children[0])
        seat = Seat.parse(str(seat_token))
        cards: list[Card] = []
        for holding in item.children[1:]:
            holding = cast(Token, holding)
            suit = str(holding)[0]
            for rank in str(holding)[1:]:
                card = parse_card(rank + suit)
                if card in owner:
                    self.fail(holding, f"card {card} is predealt twice")
                owner[card] = seat
                cards.append(card)
        if sum(1 for s in owner.values() if s == seat) > 13:
            self.fail(item.children[-1], f"more than 13 cards predealt to {seat_token!s}")
        return PredealCards(seat, tuple(cards), pos=_pos(seat_token))

    def predeal_length(self, item: Tree[Token], lengths: list[PredealLength]) -> PredealLength:
        suit_token, seat_token, number = (cast(Token, k) for k in item.children)
        seat, suit = Seat.parse(str(seat_token)), _suit(str(suit_token))
        length = self.number(number)
        for old in lengths:
            if (old.seat, old.suit) == (seat, suit):
                self.fail(suit_token, f"{suit_token}({seat_token}) is already set to {old.length}")
        if sum(x.length for x in lengths if x.seat == seat) + length > 13:
            self.fail(number, f"suit lengths predealt to {seat_token} add up to more than 13")
        if sum(x.length for x in lengths if x.suit == suit) + length > 13:
            self.fail(number, f"lengths predealt in {suit_token} add up to more than 13")
        return PredealLength(seat, suit, length, pos=_pos(suit_token))

    def check_predeal(self, predeal: list[PredealCards], lengths: list[PredealLength]) -> None:
        for fixed in lengths:
            held = sum(
                1
                for p in predeal
                if p.seat == fixed.seat
                for card in p.cards
                if str(card)[-1] == fixed.suit
            )
            if held > fixed.length:
                self.fail(
                    fixed.pos,
                    f"{held} cards of that suit are predealt to that seat, "
                    f"more than the length {fixed.length}",
                )


# -- limits before parsing -------------------------------------------------------------


# What the scan before parsing tells apart: spaces and comments (not tokens), strings,
# words and numbers, and operators (the two-character ones first).
@functools.cache
def _scan_re() -> re.Pattern[str]:
    return re.compile(
        r"(?P<skip>[ \t\r\n]+|//[^\n]*|/\*.*?\*/|(?<![^\n])#[^\n]*)"
        r'|(?P<string>"[^"]*")'
        r"|(?P<word>[0-9]+|[A-Za-z_][A-Za-z0-9_]*)"
        r"|(?P<op>&&|\|\||==|!=|<=|>=|\\n|.)",
        re.DOTALL,
    )


_STATEMENT_WORDS = frozenset(
    {"generate", "produce", "dealer", "vulnerable", "predeal", "pointcount", "altcount"}
    | {"condition", "action"}
)
_OPERATOR_WORDS = frozenset({"and", "or", "not"})


# Functions and actions whose parentheses hold no expression, or one that starts afresh
# (an action's): their parenthesis is no level of nesting.  imps, rnd and score are not.
@functools.cache
def _flat_call() -> re.Pattern[str]:
    return re.compile(
        "|".join(
            word
            for name in (
                *("SUIT", "HAND_FN", "CCCC", "QUALITY", "SHAPE", "HASCARD", "TRICKS"),
                *("PRINT", "PRINTES", "PRINTCOMPACT", "PRINTONELINE", "FREQUENCY"),
            )
            for word in KEYWORDS[name]
        )
    )


def _scan(text: str, filename: str) -> None:
    """Refuse, before the (slower) parser runs, a text of more than :data:`MAX_TOKENS`
    tokens or nested deeper than :data:`MAX_NESTING` levels as it is read.

    The depth while reading is each open parenthesis and, at each parenthesis
    level, the ``!``/``not`` still waiting for their operand and the ``?`` of the
    conditionals still open (until the level closes, a ``,`` or a new statement:
    a statement word, ``name =``, or an operand right after an operand); a name
    adds one level and the depth its definition reached.  Operators of rising
    precedence, which the syntax tree also counts, are left to the parser's check.

    >>> _scan("condition " + "!" * 101 + "1", "x.dlr")
    Traceback (most recent call last):
    ...
    croupier.simulate.parse.ScriptError: x.dlr:1:111: nesting deeper than 100 levels ...
    """
    scan = _Scan()
    tokens = 0
    for match in _scan_re().finditer(text):
        kind = match.lastgroup or ""
        if kind == "skip":
            continue
        tokens += 1
        if tokens > MAX_TOKENS:
            _refuse(text, filename, match.start(), _TOO_MANY)
        problem = scan.read(match.group(), kind)
        if problem:
            _refuse(text, filename, match.start(), problem)


class _Scan:
    """The state of :func:`_scan`: open parentheses, pending operators, definitions."""

    def __init__(self) -> None:
        self.levels = [[0, 0, 0]]  # per parenthesis: pending !/not, pending ?, its own level
        self.depth = 0  # parentheses and pending operators of every level
        self.after_operand = False  # the last token ended an operand (number, name, ")")
        self.last = ""  # the last token, if a word
        self.last_string = False  # whether the last token was a string (a label)
        self.heights: dict[str, int] = {}  # how deep each definition went
        self.defining: str | None = None  # the definition being read
        self.reached = 0  # how deep it went so far

    def statement(self) -> None:
        """A new statement starts (outside any parenthesis)."""
        level = self.levels[-1]
        self.depth -= level[0] + level[1]
        level[0] = level[1] = 0
        if self.defining is not None:
            self.heights[self.defining] = self.reached
            self.defining = None

    def read(self, token: str, kind: str) -> str:
        """Take one token; the message of a refusal, or ``""``."""
        levels = self.levels
        level = levels[-1]
        outside = len(levels) == 1
        operand = False
        through = ""
        if token == "(":
            if self.after_operand and outside and not self.last:
                self.statement()  # "... : 0 (x) ? ..." starts a new statement
            flat = self.last_string or bool(self.last and _flat_call().fullmatch(self.last))
            levels.append([0, 0, 0 if flat else 1])
            self.depth += levels[-1][2]
        elif token == ")":
            if not outside:
                inner = levels.pop()
                level = levels[-1]
                self.depth -= inner[0] + inner[1] + inner[2] + level[0]
                level[0] = 0  # the parenthesis was the operand of the pending !/not
            operand = True
        elif token in ("!", "not"):
            level[0] += 1
            self.depth += 1
        elif token == "?":
            level[1] += 1
            self.depth += 1
        elif token == ",":
            self.depth -= level[0] + level[1]
            level[0] = level[1] = 0
        elif outside and (token == "=" or token in _STATEMENT_WORDS):
            name = self.last if token == "=" else ""
            self.statement()
            if name:
                self.defining, self.reached = name, 0
        elif kind in ("word", "string") and token not in _OPERATOR_WORDS:
            if self.after_operand and outside:
                self.statement()  # an operand right after an operand: a new statement
            height = self.heights.get(token)
            if height is not None:
                deepest = self.depth + 1 + height
                self.reached = max(self.reached, deepest)
                if deepest > MAX_NESTING:
                    through = f", through the definition of {_quoted(token)}"
            self.depth -= level[0]
            level[0] = 0
            operand = True
        self.reached = max(self.reached, self.depth)
        self.after_operand = operand
        self.last = token if kind == "word" else ""
        self.last_string = kind == "string"
        if through or self.depth > MAX_NESTING:
            return f"{_TOO_DEEP}{through or ' (parentheses, !, not and ?:)'}"
        return ""


_TOO_MANY = (
    f"more than {MAX_TOKENS:,} tokens (words, numbers, operators); a dealer script has "
    "a few hundred"
)


def _refuse(text: str, filename: str, at: int, message: str) -> NoReturn:
    line = text.count("\n", 0, at) + 1
    column = at - (text.rfind("\n", 0, at) + 1) + 1
    raise ScriptError(filename, line, column, message)


# -- public ----------------------------------------------------------------------------


@contextlib.contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Pause Python's cycle collector while a script is read.

    Reading builds a tree of up to a few hundred thousand objects, none in a
    cycle; the collector would run over all of them again and again (a fifth of
    the time of a long script).  It is turned back on after, if it was on.
    """
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def _run(text: str, filename: str, start: str) -> Tree[Token]:
    if not isinstance(text, str):
        raise ScriptError(filename, 1, 1, f"a script is text, not {type(text).__name__}")
    if len(text) > MAX_SCRIPT:
        raise ScriptError(filename, 1, 1, f"script of {len(text)} characters is too long")
    _scan(text, filename)
    _load_lark()
    try:
        return _parser().parse(text, start=start)
    except (UnexpectedInput, UnexpectedEOF) as exc:
        error = _syntax_error(filename, text, exc)
    # Raised outside the handler, so the error carries no context: lark's exception holds
    # its parser, which must not travel with the error (tblib, which dask installs,
    # pickles an exception's context too).
    raise error


def parse_script(text: str, filename: str = "<script>") -> Script:
    """Parse a whole dealer script (``generate``, ``predeal``, ``condition``, ``action``, ...).

    Errors name ``filename``, the line and column, what was found and what
    was expected.

    >>> s = parse_script('''
    ... predeal south SAQ542, HKJ87, D32, CAK
    ... west1n = shape(west, any 4333 + any 4432 + any 5332) && hcp(west) > 14
    ... condition not west1n
    ... action average "hearts" hearts(north), frequency (hcp(north), 0, 37)
    ... ''')
    >>> [str(c) for c in s.predeal[0].cards][:3], str(s.condition)
    (['AS', 'QS', '5S'], '!west1n')
    >>> parse_script("condition hcp(north) > 10 && spade(north) > x")
    Traceback (most recent call last):
    ...
    croupier.simulate.parse.ScriptError: <script>:1:45: unknown name 'x'; define it (name = ...

    A script parsed before is read back from the cache of
    :func:`~croupier.simulate.parser_cache.cached_script` (the same syntax tree).
    A byte-order mark (``U+FEFF``) at the very start, which Windows editors write, is
    left out; lines and columns count from the character after it.

    >>> parse_script("\ufeffproduce 2").produce
    2
    """
    if isinstance(text, str) and text.startswith(BOM):
        text = text[len(BOM) :]

    def parse() -> Script:
        with _no_cycle_collection():
            return _Builder(filename, source=text).script(_run(text, filename, "start"))

    if not isinstance(text, str) or len(text) > MAX_SCRIPT:
        return parse()  # refused at once
    return cached_script(text, filename, parse)


def parse_expression(text: str, names: Iterable[str] = (), filename: str = "<expression>") -> Expr:
    """Parse one dealer expression, such as a condition; ``names`` may be used in it.

    >>> print(parse_expression("hcp(north)>=15 and shape(north, any 4333 + any 4432 + any 5332)"))
    hcp(north) >= 15 && shape(north, any 4333 + any 4432 + any 5332)
    >>> parse_expression("1 +")
    Traceback (most recent call last):
    ...
    croupier.simulate.parse.ScriptError: <expression>:1:4: found the end of the script, expected ...
    """
    with _no_cycle_collection():
        return _Builder(filename, names, text).expr(_run(text, filename, "expr"))
