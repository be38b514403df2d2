"""The shuffle spec language: parsing, formatting round trips, meaning, and error messages."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier import moves
from croupier.errors import ShuffleSpecError
from croupier.perm import Permutation
from croupier.spec import MOVES, Chain, Move, Repeat, Step, parse_spec


def test_examples_from_the_issue() -> None:
    deck = list(range(1, 53))
    assert parse_spec("faro-out*8").apply(deck) == deck
    assert parse_spec("cut:3").apply(deck) == moves.cut(deck, 3)
    assert parse_spec("riffle").apply(deck) == moves.riffle(deck)
    assert parse_spec("faro-in").apply(deck) == moves.faro(deck, "in")
    assert parse_spec("dealers-move:2").apply([1, 2, 3, 4, 5, 6]) == [3, 6, 4, 1, 5, 2]
    assert parse_spec("monge").apply(deck) == moves.monge(deck)
    assert parse_spec("milk").apply(deck) == moves.milk(deck)
    assert parse_spec("pile:4").apply(deck) == moves.pile_shuffle(deck, 4)
    assert parse_spec("reverse").apply(deck) == deck[::-1]
    assert parse_spec("kfaro:3").apply(deck) == moves.kway_faro(deck, 3)
    assert parse_spec("kfaro-in:3").apply(deck) == moves.kway_faro(deck, 3, "in")
    assert parse_spec("unfaro-in").apply(deck) == moves.unfaro(deck, "in")


def test_sequences_run_left_to_right() -> None:
    deck = list("abcdefghij")
    expected = moves.riffle(moves.cut(moves.reverse(deck), 3))
    assert parse_spec("reverse,cut:3,riffle").apply(deck) == expected
    assert parse_spec("reverse , cut:3 ,riffle").apply(deck) == expected
    # two dealer's moves, cuts 2 then 5, as a spec
    assert parse_spec("dealers-move:2,dealers-move:5").apply([1, 2, 3, 4, 5, 6, 7, 9, 10]) == [
        10,
        3,
        6,
        7,
        1,
        4,
        2,
        9,
        5,
    ]


def test_repetition_grouping_and_inverse() -> None:
    deck = list(range(20))
    once = parse_spec("cut:1,faro-in").apply(deck)
    assert parse_spec("(cut:1,faro-in)*2").apply(deck) == parse_spec("cut:1,faro-in").apply(once)
    assert parse_spec("faro-out*0").apply(deck) == deck
    assert parse_spec("faro-out*-1").apply(deck) == moves.unfaro(deck, "out")
    assert parse_spec("(riffle*2)*3").permutation(20) == moves.riffle_perm(20) ** 6
    assert parse_spec("faro-out*1000000000000").permutation(52) == (
        moves.faro_perm(52, "out") ** (10**12 % 8)
    )


def test_aliases_and_case() -> None:
    assert str(parse_spec("OUT,In,Faro,dealers_move:2,ID,Cut:+3")) == (
        "faro-out,faro-in,faro-out,dealers-move:2,identity,cut:3"
    )


# ---------------------------------------------------------- round trips


def _move() -> st.SearchStrategy[Step]:
    def build(name: str, arg: int) -> Step:
        info = MOVES[name]
        if info.arg is None:
            return Move(name)
        return Move(name, max(arg, info.minimum) if info.minimum is not None else arg)

    return st.builds(build, st.sampled_from(sorted(MOVES)), st.integers(-60, 60))


steps: st.SearchStrategy[Step] = st.recursive(
    _move(),
    lambda inner: st.one_of(
        st.builds(Repeat, inner, st.integers(-5, 12)),
        st.builds(lambda xs: Chain(tuple(xs)), st.lists(inner, min_size=1, max_size=3)),
    ),
    max_leaves=6,
)


@settings(max_examples=200)
@given(steps, st.integers(0, 30))
def test_format_then_parse_gives_the_same_shuffle(step: Step, n: int) -> None:
    text = str(step)
    spec = parse_spec(text)
    assert str(parse_spec(str(spec))) == str(spec)  # canonical form is a fixed point
    assert spec.permutation(n) == step.permutation(n)


def test_permutation_of_each_step_type() -> None:
    assert Move("cut", 1).permutation(3) == Permutation([1, 2, 0])
    assert Repeat(Move("reverse"), 3).permutation(4) == moves.reverse_perm(4)
    assert Chain((Move("cut", 1), Move("cut", 1))).permutation(5) == moves.cut_perm(5, 2)
    assert [str(m) for m in parse_spec("(cut:1,monge)*3,milk").moves()] == [
        "cut:1",
        "monge",
        "milk",
    ]


# --------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("rifle", "'rifle'"),
        ("cut:3,rifle", "'rifle'"),
        ("cut", "'cut'"),
        ("cut:x", "'cut:x'"),
        ("riffle:2", "'riffle:2'"),
        ("pile:0", "'pile:0'"),
        ("kfaro:-1", "'kfaro:-1'"),
        ("faro-out*x", "'x'"),
        ("faro-out*", "ends too early"),
        ("cut:3,,riffle", "','"),
        ("(cut:1,riffle", "unclosed"),
        ("cut:3 riffle", "'riffle'"),
        ("cut:3;riffle", "';riffle'"),
        ("", "empty"),
        ("   ", "empty"),
    ],
)
def test_bad_specs_get_one_line_errors_naming_the_token(text: str, token: str) -> None:
    with pytest.raises(ShuffleSpecError) as info:
        parse_spec(text)
    message = str(info.value)
    assert token in message
    assert "\n" not in message
    assert isinstance(info.value, ValueError)


def test_chained_repetitions_multiply() -> None:
    assert str(parse_spec("riffle*2*3")) == "riffle*6"
    assert str(parse_spec("((faro-in*-2)*3)*-1")) == "faro-in*6"
    assert parse_spec("riffle*2*3").permutation(14) == moves.riffle_perm(14) ** 6


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("cut:" + "9" * 1001, "at most 1000 digits"),
        ("riffle*" + "7" * 1001, "at most 1000 digits"),
        ("riffle" + "*99" * 700, "exceeds 1000 digits"),
        ("(" * 60 + "riffle" + ")" * 60, "nest more than 50"),
    ],
)
def test_oversized_specs_get_one_line_errors(text: str, needle: str) -> None:
    with pytest.raises(ShuffleSpecError) as info:
        parse_spec(text)
    message = str(info.value)
    assert needle in message and "\n" not in message
    assert len(message) < 300  # the spec is quoted, clipped


def test_nesting_within_the_limit_works() -> None:
    text = "(" * 50 + "cut:1" + ")" * 50
    assert parse_spec(text).permutation(5) == moves.cut_perm(5, 1)
    assert parse_spec("riffle" + "*1" * 3000).permutation(6) == moves.riffle_perm(6)
