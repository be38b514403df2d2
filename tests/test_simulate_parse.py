"""The dealer-language front end: every example script, every construct, errors, precedence.

Expected values come from dealer itself: its example scripts (copied under
``tests/data/dealer_examples`` with their licence), its reference output of
``Descr.test_operator_order`` and ``operators.txt``, 400 random operator
expressions whose values the real dealer 20211121 printed.  Those values are
checked with a small evaluator written here from C's rules (not croupier's).
"""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import parse_card, parse_cards
from croupier.dealing.evaluation import parse_shape
from croupier.errors import CroupierError
from croupier.simulate import Script, ScriptError, parse_expression, parse_script
from croupier.simulate.ast import (
    Average,
    Binary,
    Call,
    Conditional,
    Contract,
    Expr,
    Frequency,
    Frequency2D,
    HasCard,
    Imps,
    Name,
    Number,
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
    Shape,
    Tricks,
    Unary,
)

DATA = Path(__file__).resolve().parent / "data" / "dealer_examples"
INSTALLED = Path("/usr/share/doc/dealer/examples")
EXAMPLES = sorted(p.name for p in DATA.iterdir() if p.name.startswith(("Descr.", "Test.")))


# -- an independent evaluator of constant expressions (C semantics) -----------------------


def c_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def evaluate(expr: Expr, env: dict[str, int] | None = None) -> int:
    env = env or {}
    if isinstance(expr, Number):
        return expr.value
    if isinstance(expr, Name):
        return env[expr.name]
    if isinstance(expr, Unary):
        return int(not evaluate(expr.operand, env))
    if isinstance(expr, Conditional):
        branch = expr.then if evaluate(expr.test, env) else expr.otherwise
        return evaluate(branch, env)
    assert isinstance(expr, Binary)
    a, b = evaluate(expr.left, env), evaluate(expr.right, env)
    ops = {
        "+": lambda: a + b,
        "-": lambda: a - b,
        "*": lambda: a * b,
        "/": lambda: c_div(a, b),
        "%": lambda: a - b * c_div(a, b),
        "==": lambda: int(a == b),
        "!=": lambda: int(a != b),
        "<": lambda: int(a < b),
        "<=": lambda: int(a <= b),
        ">": lambda: int(a > b),
        ">=": lambda: int(a >= b),
        "&&": lambda: int(bool(a) and bool(b)),
        "||": lambda: int(bool(a) or bool(b)),
    }
    return ops[expr.op]()


# -- the example scripts ---------------------------------------------------------------------


def test_the_copies_are_all_the_examples() -> None:
    assert len(EXAMPLES) == 18  # 17 Descr.* scripts and Test.distribution
    if INSTALLED.is_dir():
        installed = sorted(
            p.name for p in INSTALLED.iterdir() if p.name.startswith(("Descr.", "Test."))
        )
        assert installed == EXAMPLES
        for name in EXAMPLES:
            assert (INSTALLED / name).read_bytes() == (DATA / name).read_bytes()


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_example_script_parses(name: str) -> None:
    script = parse_script((DATA / name).read_text(encoding="utf-8"), filename=name)
    assert script.filename == name
    assert script.actions  # every example has an action list


def example(name: str) -> Script:
    return parse_script((DATA / name).read_text(encoding="utf-8"), filename=name)


def test_you_hold_settings_and_predeal() -> None:
    s = example("Descr.you_hold")
    assert (s.generate, s.produce, s.vulnerable, s.dealer) == (20000, 25, "EW", "W")
    (south,) = s.predeal
    assert south.seat == "S"
    assert set(south.cards) == set(parse_cards("AS QS 5S 4S 2S KH JH 8H 7H 3D 2D AC KC"))
    assert list(s.definitions) == ["west1n", "west1h", "west1s", "west1d", "west1c", "north2d"]
    assert s.actions == (PrintAll(),)


def test_6c_predeals_four_seats() -> None:
    s = example("Descr.6c")
    assert [(p.seat, len(p.cards)) for p in s.predeal] == [("N", 13), ("W", 2), ("S", 13), ("E", 2)]
    assert s.generate == 1000000 and s.produce is None
    avg = s.actions[0] if s.actions else None
    assert isinstance(avg, Average) and avg.label == "king drops"
    assert avg.expr == Shape("W", parse_shape("xxx1"))


def test_yarb_pointcount_and_junkstayman_comma_shapes() -> None:
    assert example("Descr.yarb").pointcount == (1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0)
    shape = example("Descr.junkstayman").definitions["east_notrump"].expr
    assert isinstance(shape, Binary) and isinstance(shape.left, Binary)
    first = shape.left.left
    assert isinstance(first, Shape)
    assert first.pattern == parse_shape(
        "any 4333 + any 4432 + 2335 + 3235 + 3325 + 2353 + 3253 + 3352"
    )


def test_test_dealer_frequencies_and_hascard() -> None:
    actions = example("Descr.test_dealer").actions or ()
    assert len(actions) == 228 and all(isinstance(a, Frequency) for a in actions)
    card = actions[20]
    assert isinstance(card, Frequency) and card.label == "Card N SA"
    assert card.expr == HasCard("N", parse_card("AS")) and (card.low, card.high) == (0, 1)


def test_operator_order_matches_dealers_reference_output() -> None:
    s = example("Descr.test_operator_order")
    env: dict[str, int] = {}
    for name, definition in s.definitions.items():
        env[name] = evaluate(definition.expr, env)
    printed: list[int] = []  # the values dealer printed, left of each "=="
    for line in (DATA / "Refer.test_operator_order").read_text().splitlines():
        printed += [int(value) for value, _ in re.findall(r"(-?\d+)==(-?\d+)", line)]
    names = [
        item.name
        for action in s.actions or ()
        if isinstance(action, PrintES)
        for item in action.items
        if isinstance(item, Name)
    ]
    assert len(names) == len(printed) == 42
    assert [env[n] for n in names] == printed


def test_400_random_operator_expressions_match_dealer() -> None:
    lines = (DATA / "operators.txt").read_text().splitlines()[1:]
    assert len(lines) == 400
    for line in lines:
        text, value = line.split("\t")
        assert evaluate(parse_expression(text)) == int(value), text


# -- precedence, by hand ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text,value",
    [
        ("1 ? 3 : 1 ? 2 : 1", 3),  # ?: is right-associative
        ("1 ? 5 : 6 || 0", 5),  # and the loosest
        ("2 * 3 / 4", 1),  # * / % left-associative at one level
        ("7 % 4 * 3", 9),
        ("10 - 4 - 3", 3),
        ("16 / 4 / 2", 2),
        ("!0 == 2", 0),  # ! binds tighter than ==
        ("!0 + 1", 2),
        ("1 < 2 == 1", 1),
        ("2 + 3 == 5", 1),
        ("5 - -2", 7),  # a negative literal
        ("-7 / 2", -3),  # C division (truncation)
        ("1 || 0 && 0", 1),
        ("not not 0", 0),
    ],
)
def test_precedence_as_observed_in_dealer(text: str, value: int) -> None:
    assert evaluate(parse_expression(text)) == value


def test_and_or_not_words_mean_the_symbols() -> None:
    assert parse_expression("1 and 0 or not 1") == parse_expression("1 && 0 || !1")


# -- statements -------------------------------------------------------------------------


def test_repeated_statements_follow_dealer() -> None:
    s = parse_script(
        "generate 0 generate 5 generate 7 produce 3 produce 9\n"
        "dealer south dealer east vulnerable NS vulnerable none\n"
        "condition 0 condition 1\naction printall\naction printew"
    )
    assert (s.generate, s.produce, s.dealer, s.vulnerable) == (5, 3, "E", "None")
    assert s.condition == Number(1) and s.actions == (PrintEW(),)


def test_defaults_and_empty_action_list() -> None:
    s = parse_script("")
    assert (s.generate, s.produce, s.dealer, s.vulnerable, s.condition, s.actions) == (
        None,
        None,
        None,
        None,
        None,
        None,
    )
    assert parse_script("action").actions == ()
    assert parse_script("action printoneline,").actions == (PrintOneLine(),)


def test_bare_expression_is_the_condition_and_minus_binds_left() -> None:
    s = parse_script("x = 5\nhcp(north) > 10 x - 1")
    assert str(s.condition) == "x - 1"  # the last condition wins; "x -1" is one subtraction


@pytest.mark.parametrize(
    "text,vul",
    [("ns", "NS"), ("NS", "NS"), ("ew", "EW"), ("EW", "EW"), ("all", "All"), ("none", "None")],
)
def test_vulnerabilities(text: str, vul: str) -> None:
    assert parse_script(f"vulnerable {text}").vulnerable == vul


def test_predeal_forms() -> None:
    s = parse_script(
        "predeal north SAK, HQ2 south S\npredeal spades(west)==1 hearts(east) == 13 east D"
    )
    assert [(p.seat, [str(c) for c in p.cards]) for p in s.predeal] == [
        ("N", ["AS", "KS", "QH", "2H"]),
        ("S", []),
        ("E", []),
    ]
    assert s.predeal_lengths == (PredealLength("W", "S", 1), PredealLength("E", "H", 13))


def test_pointcount_and_altcount() -> None:
    s = parse_script(
        "pointcount 6 4 2 1\npointcount 4 3 2 1 0 0 0 0 0 0 0 0 -1\naltcount 3 1 2\naltcount 9"
    )
    assert s.pointcount == (4, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, -1)
    assert s.altcount == {3: (1, 2), 9: ()}
    assert parse_script("pointcount").pointcount == ()


# -- expressions ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text,expected",
    [
        ("spades(north)", Call("length", "N", "S")),
        ("spade(north)", Call("length", "N", "S")),
        ("hearts(south)", Call("length", "S", "H")),
        ("diamond(east)", Call("length", "E", "D")),
        ("clubs(west)", Call("length", "W", "C")),
        ("hcp(north)", Call("hcp", "N")),
        ("hcps(north, spades)", Call("hcp", "N", "S")),
        ("pt0(north)", Call("pt0", "N")),
        ("tens(north)", Call("pt0", "N")),
        ("ten(north)", Call("pt0", "N")),
        ("jacks(north, hearts)", Call("pt1", "N", "H")),
        ("queen(north)", Call("pt2", "N")),
        ("kings(north)", Call("pt3", "N")),
        ("aces(east)", Call("pt4", "E")),
        ("top2(north)", Call("pt5", "N")),
        ("top3(north)", Call("pt6", "N")),
        ("top4(north)", Call("pt7", "N")),
        ("top5(east, spades)", Call("pt8", "E", "S")),
        ("c13(north)", Call("pt9", "N")),
        ("pt9(north)", Call("pt9", "N")),
        ("loser(north)", Call("loser", "N")),
        ("losers(north, clubs)", Call("loser", "N", "C")),
        ("control(north)", Call("control", "N")),
        ("controls(north, spades)", Call("control", "N", "S")),
        ("cccc(north)", Call("cccc", "N")),
        ("quality(north, spades)", Call("quality", "N", "S")),
        ("hascard(west, TC)", HasCard("W", parse_card("TC"))),
        ("hascard(west, 2D)", HasCard("W", parse_card("2D"))),
        ("tricks(north, notrump)", Tricks("N", "NT")),
        ("trick(north, notrumps)", Tricks("N", "NT")),
        ("tricks(south, hearts)", Tricks("S", "H")),
        ("score(vul, x3N, 9)", Score(True, Contract(3, "NT"), Number(9))),
        ("score(nv, x7C, tricks(south, clubs))", Score(False, Contract(7, "C"), Tricks("S", "C"))),
        ("imps(420)", Imps(Number(420))),
        ("imp(-999)", Imps(Number(-999))),
        ("rnd(10)", Rnd(Number(10))),
        ("shape(north, any 4333 + 5xxx - 5332)", Shape("N", parse_shape("any 4333 + 5xxx - 5332"))),
        ("shape(north, any 4333 any 4432)", Shape("N", parse_shape("any 4333 + any 4432"))),
        ("shape(north, ,4333, 4432)", Shape("N", parse_shape("4333 + 4432"))),
        ("shape(north, - any 5xxx + xxxx)", Shape("N", parse_shape("- any 5xxx + xxxx"))),
        ("shape(east,0094)", Shape("E", parse_shape("0094"))),
        ("0094", Number(94)),
        ("-1000", Number(-1000)),
    ],
)
def test_each_function_and_form(text: str, expected: Expr) -> None:
    assert parse_expression(text) == expected


def test_positions_are_recorded() -> None:
    s = parse_script("produce 1\n\nx =\n   hcp(north)  +\n  3")
    d = s.definitions["x"]
    assert (d.pos.line, d.pos.column) == (3, 1)
    assert isinstance(d.expr, Binary) and (d.expr.pos.line, d.expr.pos.column) == (4, 4)
    assert (d.expr.right.pos.line, d.expr.right.pos.column) == (5, 3)


def test_names_resolve_in_order() -> None:
    s = parse_script("a = 1\nb = a + 1\ncondition b")
    assert s.definitions["b"].expr == Binary("+", Name("a"), Number(1))
    assert parse_expression("x > y", names=["x", "y"]) == Binary(">", Name("x"), Name("y"))


# -- actions ----------------------------------------------------------------------------


def test_every_action() -> None:
    s = parse_script(
        "action printall, printew, printpbn, print(east, west), printcompact,"
        " printcompact(hcp(north)),"
        ' printoneline, printoneline(1), printes("a", 1, \\n), average hcp(north),'
        ' average "label" 2, frequency (1, 0, 3), frequency "f" (1, -3, 3),'
        ' frequency "two" (1, 0, 1, 2, 5, 9)'
    )
    assert s.actions == (
        PrintAll(),
        PrintEW(),
        PrintPBN(),
        Print(("E", "W")),
        PrintCompact(),
        PrintCompact(Call("hcp", "N")),
        PrintOneLine(),
        PrintOneLine(Number(1)),
        PrintES(("a", Number(1), "\n")),
        Average(None, Call("hcp", "N")),
        Average("label", Number(2)),
        Frequency(None, Number(1), 0, 3),
        Frequency("f", Number(1), -3, 3),
        Frequency2D("two", Number(1), 0, 1, Number(2), 5, 9),
    )


def test_strings_may_span_lines() -> None:
    (es,) = parse_script('action printes("a\nb", "")').actions or ()
    assert es == PrintES(("a\nb", ""))


# -- lexical rules ----------------------------------------------------------------------


def test_three_comment_styles() -> None:
    s = parse_script(
        "# a comment line\nproduce 2 // to the end of the line\n"
        "/* a\nblock */ generate /* in */ 9\n"
        "#last line without a newline"
    )
    assert (s.produce, s.generate) == (2, 9)
    assert parse_script("produce 3 // no newline at the end").produce == 3


def test_windows_line_ends() -> None:
    assert parse_script("produce 2\r\ncondition 1\r\n").produce == 2


@pytest.mark.parametrize(
    "text,line,column,fragment",
    [
        (
            "produce 1\n  # indented",
            2,
            3,
            "'#', which starts a comment only at the start of a line",
        ),
        ("produce 1 # trailing", 1, 11, "'#'"),
        ("produce 1\n/* never closed", 2, 1, "'/*' that is never closed"),
        ("x = 1 /* a /* b */ */", 1, 21, "found '/'"),  # no nesting, as in dealer
        ('action printes("abc)', 1, 16, "string that is never closed"),
        ("condition hcp(North) > 1", 1, 15, "name 'North' (dealer's keywords are lower case)"),
        (
            "condition HCP(north) > 1",
            1,
            11,
            "name 'HCP' followed by '(', which no function is; dealer's",
        ),
        ("dealer n", 1, 8, "expected a seat (north, east, south, west)"),
        ("vulnerable All", 1, 12, "expected a vulnerability (none, NS, EW, all)"),
        ("condition hascard(north, SA)", 1, 26, "found holding 'SA', expected a card such as AS"),
        ("predeal north SKA", 1, 15, "found name 'SKA', expected a holding such as SAKQ"),
        ("predeal north,S2", 1, 14, "found ','"),
        ("predeal north SA HK", 1, 18, "found holding 'HK'"),
        ("predeal spades(north)==1, hearts(south)==2", 1, 25, "found ','"),
        ("condition score(vul, x3NT, 9)", 1, 22, "found name 'x3NT', expected a contract"),
        ("condition score(ns, x3N, 9)", 1, 17, "expected vul or nv"),
        ("condition shape(north, any4333)", 1, 24, "found name 'any4333'"),
        ("condition shape(north, 4 3 3 3)", 1, 24, "found number 4, expected"),
        ("condition shape(north, 4431)", 1, 24, "bad shape 4431: 4431 has 12 cards, not 13"),
        ("condition shape(north, 9xx5)", 1, 24, "9xx5 needs more than 13 cards"),
        ("condition hcp(north, notrump)", 1, 22, "expected a suit"),
        ("condition - hcp(north)", 1, 13, "only a number can be negative: write 0 - x"),
        ("condition -(1)", 1, 12, "only a number can be negative"),
        ("condition 1 ? 2", 1, 16, "found the end of the script, expected ':'"),
        ("action print()", 1, 14, "expected a seat"),
        ("action print(north south)", 1, 20, "found 'south', expected ')' or ','"),
        ("action printoneline printall", 1, 21, "found 'printall'"),
        ("action printoneline,,printall", 1, 21, "found ','"),
        ('action printes "a", 1', 1, 16, "found string '\"a\"', expected '('"),
        ("action frequency (1, 0, 2+1)", 1, 26, "found '+', expected ')' or ','"),
        ("action evalcontract", 1, 8, "evalcontract is not supported"),
        (
            "action frequency (1, 5, 2)",
            1,
            22,
            "frequency bounds 5, 2: the low bound is above the high one",
        ),
        ("shape = 1", 1, 7, "found '='"),
        ("AS = 1", 1, 1, "found card 'AS'"),
        ("x1C = 1", 1, 1, "found contract 'x1C'"),
        ("_x = 1", 1, 1, "found character '_'"),
        ("x = y\ny = 2", 1, 5, "unknown name 'y'"),
        ("x = x + 1", 1, 5, "unknown name 'x'"),
        ("x = 1\n x = 2", 2, 2, "'x' is already defined (line 1)"),
        ("produce -1", 1, 9, "produce needs a count of deals, not -1"),
        ("generate 99999999999", 1, 10, "number of 11 digits is too large (at most 2147483647)"),
        ("pointcount 1 2 3 4 5 6 7 8 9 10 11 12 13 14", 1, 42, "too many point values"),
        ("altcount 10 1", 1, 10, "altcount number 10 is not 0 to 9"),
        ("pointcount 1, 2", 1, 13, "found ','"),
        ("predeal north SAK\npredeal south SA", 2, 15, "card AS is predealt twice"),
        ("predeal north SAKQJT98765432, HA", 1, 31, "more than 13 cards predealt to north"),
        (
            "predeal spades(north)==1\npredeal spades(north)==2",
            2,
            9,
            "spades(north) is already set to 1",
        ),
        (
            "predeal spades(north)==14",
            1,
            24,
            "suit lengths predealt to north add up to more than 13",
        ),
        ("predeal spades(north)==7 spades(south)==7", 1, 41, "lengths predealt in spades add up"),
        ("predeal spades(north)==-1", 1, 24, "found '-', expected a number"),
        ("predeal north SAK spades(north)==1", 1, 19, "2 cards of that suit are predealt"),
        ("produce 1\rcondition 1", 1, 10, "found character '\\r'"),
        ("condition 1 ==", 1, 15, "found the end of the script, expected an expression"),
        ("produce", 1, 8, "expected a number"),
        ("condition (1", 1, 13, "expected ')'"),
        ("hello world", 1, 1, "unknown name 'hello'"),
        (")", 1, 1, "found ')', expected a statement"),
    ],
)
def test_errors_say_where_what_was_found_and_expected(
    text: str, line: int, column: int, fragment: str
) -> None:
    with pytest.raises(ScriptError) as info:
        parse_script(text, filename="t.dlr")
    err = info.value
    message = str(err)
    assert message.startswith(f"t.dlr:{line}:{column}: "), message
    assert fragment in message, message
    assert "\n" not in message and isinstance(err, CroupierError)
    assert (err.filename, err.line, err.column) == ("t.dlr", line, column)
    assert str(pickle.loads(pickle.dumps(err))) == message


def test_identifiers_that_look_like_tokens() -> None:
    names = ["St", "northern", "x_1", "except", "X", "xxxxy", "x12", "tops", "pt10"]
    script = "\n".join(f"{n} = 1" for n in names)
    assert list(parse_script(script).definitions) == names


# -- round trips and fuzzing ----------------------------------------------------------------

SEATS = st.sampled_from(["N", "E", "S", "W"])
SUIT_LETTERS = st.sampled_from(["S", "H", "D", "C"])
LEAVES = st.one_of(
    st.integers(-(2**31) + 1, 2**31 - 1).map(Number),
    st.sampled_from(["a", "b2", "long_name"]).map(Name),
    st.builds(
        Call, st.sampled_from(["length", "hcp", "pt4", "loser", "control"]), SEATS, SUIT_LETTERS
    ),
    st.builds(Call, st.sampled_from(["hcp", "cccc", "pt9"]), SEATS),
    st.builds(
        Shape,
        SEATS,
        st.sampled_from(["any 4333 + any 4432", "5xxx - 5332", "xxxx", "- any 0xxx"]).map(
            parse_shape
        ),
    ),
    st.builds(HasCard, SEATS, st.sampled_from(["AS", "TC", "2D", "KH"]).map(parse_card)),
    st.builds(Tricks, SEATS, st.sampled_from(["S", "H", "D", "C", "NT"])),
)


def _compound(inner: st.SearchStrategy[Expr]) -> st.SearchStrategy[Expr]:
    ops = st.sampled_from(["+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||"])
    return st.one_of(
        st.builds(Binary, ops, inner, inner),
        st.builds(Unary, st.just("!"), inner),
        st.builds(Conditional, inner, inner, inner),
        st.builds(Imps, inner),
        st.builds(Rnd, inner),
        st.builds(
            Score,
            st.booleans(),
            st.builds(Contract, st.integers(1, 7), st.sampled_from(["S", "NT"])),
            inner,
        ),
    )


EXPRESSIONS = st.recursive(LEAVES, _compound, max_leaves=12)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(EXPRESSIONS)
def test_printing_then_parsing_gives_the_same_tree(expr: Expr) -> None:
    text = str(expr)
    assert parse_expression(text, names=["a", "b2", "long_name"]) == expr


ATOMS = [
    "hcp(",
    "north",
    ")",
    ",",
    " ",
    "\n",
    "+",
    "-",
    "*",
    "/",
    "%",
    "?",
    ":",
    "==",
    "!",
    "&&",
    "and",
    "shape(",
    "any",
    "4333",
    "5xxx",
    "x",
    "AS",
    "SAK",
    "x3N",
    '"',
    "#",
    "//",
    "/*",
    "*/",
    "1",
    "99999999999",
    "predeal",
    "action",
    "printes(",
    "frequency",
    "=",
    "condition",
    "(",
    "é",
    "\r",
]


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(ATOMS), max_size=25).map("".join))
def test_any_text_parses_or_raises_a_one_line_script_error(text: str) -> None:
    try:
        parse_script(text)
    except ScriptError as err:
        assert "\n" not in str(err) and str(err).startswith("<script>:")
