"""Compiled dealer expressions: hand-computed values, then every value against the real dealer."""

from __future__ import annotations

import numpy as np
import pytest

from croupier.bulk import evaluate as bulk
from croupier.bulk.writers import parse_oneline
from croupier.errors import CroupierError
from croupier.simulate import (
    ScriptError,
    compile_condition,
    compile_expression,
    parse_expression,
    parse_script,
    scales_of,
)
from croupier.simulate.ast import PrintOneLine

from .conftest import run_dealer

# Two fixed deals.  Deal 1, by hand:
#   N AKQ2.KJ3.T98.765   hcp 13, 4-3-3-3, controls 4, losers 0+2+3+3 = 8
#   E JT98.AQ2.AK2.432   hcp 14, 4-3-3-3, controls 5
#   S 765.T9876.QJ3.AK   hcp 10, 3-5-3-2, controls 3
#   W 43.54.7654.QJT98   hcp 3, 2-2-4-5, controls 0, losers 2+2+3+2 = 9
# Deal 2: each seat holds one whole suit (N spades ... W clubs): hcp 10 each, losers N 0.
DEALS = parse_oneline(
    "n AKQ2.KJ3.T98.765 e JT98.AQ2.AK2.432 s 765.T9876.QJ3.AK w 43.54.7654.QJT98\n"
    "n AKQJT98765432... e .AKQJT98765432.. s ..AKQJT98765432. w ...AKQJT98765432\n"
)


def values(text: str, names: dict[str, str] | None = None, **kw: object) -> list[int]:
    definitions = {
        k: parse_expression(v, names=list(names or {})) for k, v in (names or {}).items()
    }
    expr = parse_expression(text, names=list(definitions))
    return compile_expression(expr, definitions, **kw)(DEALS).tolist()  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("hcp(north) - 2 * hcp(south)", [-7, -10]),
        ("hcp(east) + hcp(west)", [17, 20]),
        ("1 + 2 * 3 - 4 / 2 % 3", [5, 5]),
        ("2 * 3 == 6 && 1 < 2 || 0", [1, 1]),
        ("1 || 0 && 0", [1, 1]),
        ("(1 || 0) && 0", [0, 0]),
        ("1 or 0 and 0", [1, 1]),
        ("!0 + 1", [2, 2]),
        ("!(0 + 1)", [0, 0]),
        ("not 5", [0, 0]),
        ("1 < 2 == 1", [1, 1]),
        ("3 > 2 > 1", [0, 0]),
        ("5 != 4 != 1", [0, 0]),
        ("3 <= 3 && 4 >= 5 == 0", [1, 1]),
        ("10 - 4 - 3", [3, 3]),
        ("-7 / 2", [-3, -3]),
        ("7 / -2", [-3, -3]),
        ("-7 / -2", [3, 3]),
        ("-7 % 2", [-1, -1]),
        ("7 % -2", [1, 1]),
        ("-7 % -2", [-1, -1]),
        ("(hcp(west) - 10) / 4", [-1, 0]),
        ("(hcp(west) - 10) % 4", [-3, 0]),
        ("hcp(north) > 12 ? 1 : 2", [1, 2]),
        ("0 ? 1 : 0 ? 2 : 3", [3, 3]),
        ("1 ? 0 ? 4 : 5 : 6", [5, 5]),
        ("hcp(north) > 12 ? 1 : hcp(north) > 9 ? 2 : 3", [1, 2]),
        ("hcp(north, spades) * 10 + hcp(east, hearts)", [96, 110]),
        (
            "spades(north) * 1000 + hearts(south) * 100 + diamonds(west) * 10 + clubs(east)",
            [4543, 13000],
        ),
        ("control(north) * 10 + control(east, diamonds)", [43, 30]),
        ("loser(north) * 10 + loser(west, clubs)", [82, 0]),
        ("aces(north) + kings(east) * 10 + tens(south) * 100 + pt2(west) * 1000", [1111, 1111]),
        ("top2(north) * 10 + c13(east)", [49, 33]),
        ("shape(north, any 4333) + 2 * shape(west, 2245 - 5xxx)", [3, 0]),
        ("shape(south, xxxx - any 4333)", [1, 1]),
        ("hascard(north, AS) + 2 * hascard(west, TC) + 4 * hascard(east, TC)", [3, 3]),
        ("score(nv, x3N, 9)", [400, 400]),
        ("score(vul, x4S, 11) - score(vul, x1N, 5)", [650 + 200, 650 + 200]),
        ("score(nv, x6C, 12) * 10000 + score(vul, x7N, 13)", [9202220, 9202220]),
        ("score(nv, x2H, 10) * 1000 + score(nv, x1C, 7)", [170070, 170070]),
        ("score(nv, x4H, 9) * 1000 + score(vul, x5D, 11)", [-49400, -49400]),
        (
            "score(nv, x3N, hcp(west) - 1) + score(nv, x3N, 9 + spades(north) / 13)",
            [-350 + 400, 400 + 430],
        ),
        ("imps(0) + imps(10) * 10 + imps(20) * 100", [100, 100]),
        # dealer's table: 420 is 10 IMPs and 1200-1290 16 (the standard scale: 9 and 15)
        ("imps(-50) * 100 + imps(410)", [-191, -191]),
        ("imps(420) * 100 + imps(3990)", [1023, 1023]),
        ("imps(1190) * 100 + imps(1200)", [1516, 1516]),
        ("imps(1290) * 100 + imps(1300)", [1616, 1616]),
        ("imps(4000) * 100 + imps(-9999)", [2376, 2376]),
    ],
)
def test_operators_and_functions_match_hand_computation(text: str, expected: list[int]) -> None:
    assert values(text) == expected


def test_short_circuit_and_conditional_skip_division_by_zero() -> None:
    # Deal 2: hcp(west) == 10, so the division is only evaluated in deal 1.
    assert values("hcp(west) == 10 || 100 / (hcp(west) - 10) > 0") == [0, 1]
    assert values("hcp(west) != 10 && 100 / (hcp(west) - 10) < 0") == [1, 0]
    assert values("hcp(west) != 10 ? 100 / (hcp(west) - 10) : 7") == [-14, 7]
    assert values("0 && 1 / 0") == [0, 0]
    assert values("1 ? 2 : 1 % 0") == [2, 2]


def test_division_by_zero_names_the_operator() -> None:
    with pytest.raises(ScriptError, match=r"^<expression>:1:5: division by zero in 1 / 0$"):
        values("1 + 1 / 0")
    with pytest.raises(ScriptError, match=r":1:1: modulo by zero in 5 % \(hcp\(north\) - 13\)"):
        values("5 % (hcp(north) - 13)")  # only deal 1 divides by zero
    with pytest.raises(ScriptError) as err:
        values("hcp(west) == 3 || 1 / (hcp(west) - 10)")
    assert err.value.column == 19
    assert isinstance(err.value, CroupierError)


def test_definitions_are_evaluated_once_per_call(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = bulk.points

    def counting(*args: object, **kw: object) -> object:
        calls.append(args)
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(bulk, "points", counting)
    assert values("opener + opener * 2", {"opener": "hcp(north) >= 12"}) == [3, 0]
    assert len(calls) == 1
    assert values("a - b", {"a": "hcp(south)", "b": "a * 3"}) == [-20, -20]


def test_each_hand_function_is_computed_once_per_evaluation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    counted: dict[str, int] = {}
    for name in ("points", "suit_length", "shape", "hascard"):
        real = getattr(bulk, name)

        def counting(
            *args: object, _real: object = real, _name: str = name, **kw: object
        ) -> object:
            counted[_name] = counted.get(_name, 0) + 1
            return _real(*args, **kw)  # type: ignore[operator]

        monkeypatch.setattr(bulk, name, counting)
    text = (
        "(hcp(north) + hcp(north) * 2 > hcp(south) ? spades(north) : spades(north) + 1)"
        " + 10 * (shape(west, any 5422) + shape(west, any 5422) + hascard(north, AS))"
        " + 100 * (hascard(north, AS) && spades(north) == 4)"
    )
    # deal 1: 39 > 10, N has 4 spades and the ace, W is 2-2-4-5; deal 2: 30 > 10, 13 spades
    assert values(text) == [4 + 30 + 100, 13 + 10]
    assert counted == {"points": 2, "suit_length": 1, "shape": 1, "hascard": 1}


def test_a_definition_first_needed_for_some_deals_is_completed_later() -> None:
    # ``q`` divides by zero in deal 2, which the first use skips; the second needs deal 1 only.
    defs = {"q": "100 / (hcp(west) - 10)"}
    assert values("(hcp(west) != 10 && q < 0) + (hcp(west) == 3 ? q : 0)", defs) == [-13, 0]
    with pytest.raises(ScriptError, match="division by zero"):
        values("(hcp(west) != 10 && q < 0) + q", defs)


def test_point_scales_follow_dealers_table_numbering() -> None:
    script = parse_script("pointcount 3 2 1\naltcount 1 5\naltcount 5 1 1")
    scales = scales_of(script)
    assert set(scales) == {"hcp", "control", "pt3"}
    # N: A K Q of spades, K J of hearts: hcp A3 K2 Q1 = 8, control A5 = 5, pt3 (A, K) = 3.
    assert values("hcp(north)", scales=scales) == [8, 6]
    assert values("control(north) * 10 + kings(north)", scales=scales) == [53, 52]
    assert values("hcp(west)", scales={"hcp": [1] * 13}) == [13, 13]
    assert values("hcp(east, hearts)", scales={"hcp": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7]}) == [
        7,
        7,
    ]


def test_pointcount_and_altcount_0_set_one_table_and_the_later_wins() -> None:
    # dealer: both statements clear and refill the hcp table (checked against the real
    # program in tests/test_real_scripts.py with DealerV2's CountRedefine.dli)
    assert scales_of(parse_script("pointcount 1\naltcount 0 2"))["hcp"][:2] == (2, 0)
    assert scales_of(parse_script("altcount 0 2\npointcount 1"))["hcp"][:2] == (1, 0)
    later = parse_script("pointcount 5 4 3 2 1\naltcount 0 4 3 2 1\naltcount 3 1")
    assert later.pointcount is None and dict(later.altcount) == {0: (4, 3, 2, 1), 3: (1,)}


def test_scale_conflicts_and_unknown_names_are_refused() -> None:
    with pytest.raises(ScriptError, match="keep pt6's default scale"):
        values("loser(north)", scales=scales_of(parse_script("altcount 8 1 1")))
    with pytest.raises(ScriptError, match=r"scales= has unknown key 'pt10'"):
        values("1", scales={"pt10": [1]})
    with pytest.raises(ScriptError, match=r"unknown name 'x'; defined names: none"):
        compile_expression(parse_expression("x + 1", names=["x"]))


def test_rnd_needs_the_draws_of_a_run() -> None:
    compiled = compile_expression(parse_expression("rnd(10)"))
    assert compiled.random
    with pytest.raises(ScriptError, match=r"1:1: rnd\(\) draws from a run's random stream"):
        compiled(DEALS)
    assert not compile_expression(parse_expression("hcp(north)")).random


def test_compile_condition_uses_definitions_and_scales() -> None:
    script = parse_script(
        "pointcount 0 1\nbig = spades(north) == 13\ncondition big || hcp(east) == 2"
    )
    accept = compile_condition(script)
    # Deal 1: East holds K of diamonds only: K=1 on this scale, not 2; deal 2: North has 13 spades.
    assert accept(DEALS).tolist() == [False, True]
    assert accept(bulk.Holdings(DEALS)).tolist() == [False, True]
    assert compile_condition(parse_script("produce 1"))(DEALS).tolist() == [True, True]


# -- against the real dealer ------------------------------------------------------------

GENERATED = 3000
DEFINITIONS = """\
opener = hcp(north) >= 12 && hcp(north) <= 21
balanced = shape(north, any 4333 + any 4432 + any 5332)
diff = score(nv, x2H, hcp(east) % 14) - score(vul, x7D, hcp(west) % 14)
"""
EXPRESSIONS = [
    "hcp(north) - 2 * hcp(south)",
    "(hcp(north) - 20) / 3",
    "(hcp(east) - 11) % 4",
    "(7 - hcp(west)) / (spades(south) - 14)",
    "(hcp(west) - 9) % (hearts(north) - 14)",
    "(3 - hcp(south)) % (clubs(west) + 1) * 7 / (diamonds(east) - 20)",
    "hcp(north, spades) * hearts(east) - clubs(west)",
    "shape(south, 5xxx - 5332) + 2 * shape(east, any 6xxx + any 55xx)",
    "hcp(north) >= 15 && hcp(north) <= 17 || spades(north) >= 5 && !balanced",
    "opener and balanced or not hearts(south) > 3",
    "hcp(north) > 12 ? loser(north) : 0 - control(south)",
    "hcp(north) > 15 ? 1 : hcp(north) > 10 ? 2 : 3",
    "control(east, diamonds) * 10 + loser(west, clubs) - loser(south)",
    "quality(north, spades) - cccc(south) / 7 + quality(west, hearts)",
    "tens(north) + jacks(east) * 2 + queens(south) - kings(west) + aces(north) * top2(east)"
    " + top3(south) + top4(west) + top5(north) + c13(east)",
    "hascard(north, AS) + 2 * hascard(east, TC) - hascard(west, 2D)",
    "hcp(north) == hcp(south) != (clubs(west) < 3)",
    "score(vul, x4S, hcp(north) % 14) + score(nv, x3N, (hcp(south) + hcp(west)) % 14)",
    "score(vul, x6C, spades(east) + 7) - score(nv, x1D, 13 - hcp(north) % 14)",
    "imps(hcp(north) * 97 - 1000) * 100 + imps(diff)",
    "imps(diff * 3 - 25)",
]
SCALED = [
    "pointcount 6 4 2 1\naltcount 5 3 2 1\naltcount 1 3 1 1",
    "hcp(north) - hcp(west, spades)",
    "kings(east) * 100 + control(south)",
    "aces(north) + hcp(south, clubs) * 3",
]


def _compare_with_dealer(header: str, expressions: list[str], seed: int) -> None:
    actions = ", ".join(f"printoneline ({e})" for e in expressions)
    text = f"generate {GENERATED}\nproduce {GENERATED}\n{header}\naction {actions}\n"
    out = run_dealer(text, seed, timeout=60)
    lines = [ln.rsplit(" ", 1) for ln in out.splitlines() if ln.startswith("n ")]
    assert len(lines) == GENERATED * len(expressions)
    deals = parse_oneline("\n".join(deal for deal, _ in lines[:: len(expressions)]))
    expected = np.array([int(v) for _, v in lines], np.int64).reshape(GENERATED, len(expressions))
    script = parse_script(text)
    holdings = bulk.Holdings(deals)
    for k, action in enumerate(script.actions or ()):
        assert isinstance(action, PrintOneLine) and action.expr is not None
        got = compile_expression(action.expr, script.definitions, scales=scales_of(script))(
            holdings
        )
        wrong = np.flatnonzero(got != expected[:, k])
        assert not wrong.size, (
            f"{expressions[k]}: deal {wrong[0]} croupier {got[wrong[0]]} "
            f"dealer {expected[wrong[0], k]}"
        )
    # the condition-free script accepts everything, as dealer produced every deal
    assert compile_condition(script)(deals).all()


def test_every_value_matches_dealer() -> None:
    _compare_with_dealer(DEFINITIONS, EXPRESSIONS, 1)


def test_values_with_point_scales_match_dealer() -> None:
    _compare_with_dealer(SCALED[0], SCALED[1:], 2)
