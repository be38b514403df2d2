"""Dealer scripts at and past their limits: long chains, deep nesting, seeds, key files.

* Long left-associative chains (``1 + 1 + ... + 1``, ``a && b && ...``) are
  flat work: they parse, compile, evaluate, print, compare, hash and pickle
  without Python recursion, however long (within the script's size limits).
* Nesting (parentheses, ``!``/``not``, ``?:``, named expressions built on
  named expressions) is refused past ``MAX_NESTING`` levels with one line
  ``FILE:LINE:COLUMN: ...``, at once; everything up to the limit works in every
  later stage, even called from deep inside a program.
* ``croupier dealer --seed S`` never prints ``S``; a refused script leaves
  standard output usable (no traceback from the exit-time flush); a key file
  given as a script is refused without quoting any of the key.
"""

from __future__ import annotations

import base64
import io
import json
import os
import pickle
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

from croupier.bulk import deal_array
from croupier.simulate import parse_expression, parse_script
from croupier.simulate.actions import ActionRunner
from croupier.simulate.ast import Binary, Expr, Number
from croupier.simulate.compile import compile_condition, compile_expression
from croupier.simulate.parse import MAX_NESTING, MAX_SCRIPT, MAX_TOKENS, ScriptError
from croupier.simulate.run import Simulation, deal_where
from croupier.simulate.stacking_factor import factor
from croupier.simulate.unparse import format_script
from tests.conftest import ROOT, CliRunner

T = TypeVar("T")

DEALS = deal_array(4, seed="limits")
CROUPIER = Path(sys.executable).with_name("croupier")


HANG_FACTOR = 6
"""A watchdog fires only after this many times a call's usual bound, and never before
:data:`HANG_MINIMUM` seconds: it catches a hang, never a slow or busy machine."""
HANG_MINIMUM = 60.0


class _Hang(BaseException):
    """Raised by the watchdog inside a call that hangs (no ``except Exception`` stops it)."""


def timed(seconds: float, call: Callable[[], T]) -> T:
    """``call()``, stopped by a watchdog if it hangs (no assertion on time taken).

    ``seconds`` is what the call usually needs at most on a quiet machine; the watchdog
    fires at ``HANG_FACTOR`` times that and no sooner than ``HANG_MINIMUM`` seconds, so
    it only catches a hang or work that grows without bound, never a loaded machine.
    """
    limit = max(HANG_MINIMUM, HANG_FACTOR * seconds)

    def expire(signum: int, frame: object) -> None:
        raise _Hang

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        return call()
    except _Hang:
        raise AssertionError(f"still running after {limit:.0f} s: a hang") from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def refusal(seconds: float, call: Callable[[], object]) -> str:
    """The one-line message of the ScriptError that ``call()`` raises within ``seconds``."""
    with pytest.raises(ScriptError) as info:
        timed(seconds, call)
    message = str(info.value)
    assert "\n" not in message and len(message) < 300, message[:400]
    return message


def in_deep_stack(call: Callable[[], T], frames: int = 250) -> T:
    """``call()`` made ``frames`` Python frames deeper than here."""

    def down(n: int) -> T:
        return call() if n == 0 else down(n - 1)

    return down(frames)


def sum_of_ones(terms: int) -> str:
    return "+".join(["1"] * terms)


# -- long chains: flat work ------------------------------------------------------------


def test_a_30000_term_sum_parses_compiles_evaluates_prints_and_pickles() -> None:
    text = f"total = {sum_of_ones(30_000)}\ncondition total > 1\naction average total\n"
    script = timed(10, lambda: parse_script(text, filename="sum.dlr"))
    total = script.definitions["total"].expr
    assert isinstance(total, Binary)
    values = timed(10, lambda: compile_expression(total)(DEALS))
    assert values.tolist() == [30_000] * len(DEALS)
    assert compile_condition(script)(DEALS).all()
    assert str(total) == " + ".join(["1"] * 30_000)
    again = pickle.loads(pickle.dumps(script))
    assert again == script and hash(again.definitions["total"].expr) == hash(total)
    assert format_script(script).splitlines()[0] == f"total = {total}"
    assert repr(total).startswith("Binary(op='+', left=Binary(op='+', ")
    assert sum(1 for _ in total.walk()) == 2 * 30_000 - 1
    assert total != parse_expression(sum_of_ones(29_999) + " + 2")


def test_long_chains_of_every_operator_evaluate_as_dealer_does() -> None:
    # (((0 - 1) - 1) ...) and products, divisions, logical chains, comparisons
    cases = {
        "0" + " - 1" * 5000: -5000,
        " * ".join(["1"] * 5000): 1,
        "1000000" + " / 1" * 5000: 1_000_000,
        "7" + " % 5" * 3000: 2,
        " && ".join(["hcp(north) >= 0"] * 5000): 1,
        " || ".join(["hcp(north) > 40"] * 5000) + " || 1": 1,
        " == ".join(["1"] * 5000): 1,  # ((1 == 1) == 1) ...
        "1 < 2" + " < 2" * 5000: 1,
    }
    for text, value in cases.items():
        expr = parse_expression(text)
        assert compile_expression(expr)(DEALS).tolist() == [value] * len(DEALS), text[:40]


def test_a_division_by_zero_at_the_end_of_a_long_chain_is_one_short_line() -> None:
    expr = parse_expression("1" + " / 1" * 20_000 + " / (hcp(north) - hcp(north))")
    message = refusal(10, lambda: compile_expression(expr)(DEALS))
    assert "division by zero" in message


def test_a_long_and_chain_is_split_into_conjuncts_for_smart_stacking() -> None:
    text = " && ".join(f"hcp(north) >= {i % 10}" for i in range(10_000))
    expr = parse_expression(text)
    parts = timed(10, lambda: factor(expr))
    assert len(parts) == 10_000 and {p.seat for p in parts} == {"N"}
    shorter = " && ".join(f"hcp(north) >= {i % 10}" for i in range(2_000))
    deals = timed(30, lambda: deal_where(shorter, 2, seed="chain"))
    assert len(deals) == 2


def test_croupier_deal_where_a_40000_term_sum(cli: CliRunner) -> None:
    where = sum_of_ones(40_000) + " > 1"
    result = timed(15, lambda: cli(["deal", "--where", where, "--seed", "w", "-f", "oneline"]))
    assert result.code == 0, result.err
    assert result.out.count("\n") == 1  # the deal alone (the seeded note is on stderr)


def test_a_script_of_too_many_tokens_is_refused_at_once() -> None:
    text = "condition " + sum_of_ones((MAX_SCRIPT - 20) // 2) + "\n"
    assert len(text) <= MAX_SCRIPT
    message = refusal(2, lambda: parse_script(text, filename="big.dlr"))
    assert message.startswith("big.dlr:1:") and f"{MAX_TOKENS:,}" in message


def test_long_comments_and_spaces_are_not_tokens() -> None:
    text = "// " + "x" * 400_000 + "\n/* " + "(" * 300_000 + " */\n" + " " * 200_000 + "produce 3"
    assert len(text) <= MAX_SCRIPT
    assert timed(5, lambda: parse_script(text)).produce == 3


def test_the_biggest_scripts_answer_within_seconds() -> None:
    just_under = "condition " + sum_of_ones(MAX_TOKENS // 2 - 4) + " > 1\n"
    # the issue asked for an answer within 5 s; the bound leaves room for a slow machine
    assert timed(8, lambda: compile_condition(parse_script(just_under))(DEALS).all())


# -- nesting: a limit, refused at once, and everything below it works --------------------

DEEP = f"deeper than {MAX_NESTING} levels"
TOO_MANY = f"more than {MAX_TOKENS:,} tokens"
DEEP_REPRODUCERS = {
    "200,000 nots": ("condition " + "not " * 200_000 + "1\n", DEEP),
    "100,000 chained ?:": ("condition " + "1 ? 1 : " * 100_000 + "1\n", DEEP),
    "100,000 parentheses": ("condition " + "(" * 100_000 + "1" + ")" * 100_000 + "\n", DEEP),
    "50,000 chained definitions": (
        "a0 = 1\n" + "".join(f"a{i} = a{i - 1}\n" for i in range(1, 50_000)) + "a49999\n",
        DEEP,
    ),
    "20,000 chained definitions": (
        "a0 = 1\n" + "".join(f"a{i} = a{i - 1}\n" for i in range(1, 20_000)) + "a19999\n",
        DEEP,
    ),
    "a right-nested sum": ("condition " + "1 + (" * 20_000 + "1" + ")" * 20_000 + "\n", DEEP),
    "nested function arguments": ("imps(" * 5_000 + "1" + ")" * 5_000 + "\n", DEEP),
    "a million characters of 1+1": ("1" + "+1" * 499_999, TOO_MANY),
}


@pytest.mark.parametrize(("text", "why"), DEEP_REPRODUCERS.values(), ids=DEEP_REPRODUCERS)
def test_deep_nesting_is_refused_at_once(text: str, why: str) -> None:
    message = refusal(2, lambda: parse_script(text, filename="deep.dlr"))
    assert message.startswith("deep.dlr:") and why in message


def test_the_refusal_names_where_the_limit_is_passed() -> None:
    text = "produce 1\ncondition " + "!" * (MAX_NESTING + 1) + "1"
    assert refusal(2, lambda: parse_script(text, filename="n.dlr")).startswith(
        f"n.dlr:2:{len('condition ') + MAX_NESTING + 1}: "
    )


def test_operators_of_rising_precedence_count_as_nesting() -> None:
    # a || b && c == d < e + f * (...): each level nests five operators deep without a
    # parenthesis; the parse tree's depth is what is limited
    level = "hcp(north) || hcp(north) && hcp(north) == hcp(north) < hcp(north) + 1 * ("
    text = level * 40 + "1" + ")" * 40
    message = refusal(2, lambda: parse_expression(text, filename="ops"))
    assert f"deeper than {MAX_NESTING} levels" in message


def _names(count: int) -> str:
    """Definitions a0 ... a{count - 1}, each naming the one before (a{k} is k levels deep)."""
    return "a0 = hcp(north)\n" + "".join(f"a{k} = a{k - 1}\n" for k in range(1, count))


N = MAX_NESTING
AT_THE_LIMIT = {  # each one exactly MAX_NESTING levels deep, one way
    "!": "!" * N + "hcp(north)",
    "?:": "hcp(north) ? 1 : " * N + "0",
    "parentheses": "(" * N + "1" + ")" * N,
    "right operands": "hcp(north) + (" * N + "1" + ")" * N,
    "functions": "score(nv, x1C, " * N + "7" + ")" * N,
    "names": f"a{N - 1}",
}


@pytest.mark.parametrize("expr", AT_THE_LIMIT.values(), ids=AT_THE_LIMIT)
def test_everything_up_to_the_nesting_limit_works_in_every_stage(expr: str) -> None:
    text = f"{_names(N)}condition {expr}\naction average {expr}, frequency ({expr}, 0, 5)\n"

    def every_stage() -> None:
        script = parse_script(text, filename="deepest.dlr")
        assert parse_script(format_script(script), filename="deepest.dlr") == script
        for part in script.expressions():
            assert pickle.loads(pickle.dumps(part)) == part
            assert parse_expression(str(part), names=script.definitions) == part
            hash(part), repr(part), list(part.walk())
        assert pickle.loads(pickle.dumps(script)) == script
        assert Simulation(script, seed="deep").run(produce=3, generate=100).produced == 3
        runner = ActionRunner(script, io.StringIO())
        runner.feed(DEALS, 1)
        assert runner.finish().results[0].count == len(DEALS)

    in_deep_stack(every_stage)
    one_more = "!(" + expr + ")" if expr != f"a{N - 1}" else f"!a{N - 1}"
    message = refusal(2, lambda: parse_script(f"{_names(N)}condition {one_more}\n"))
    assert DEEP in message


def test_nesting_through_named_expressions_counts() -> None:
    text = _names(N + 1)  # a{N} is N levels deep
    assert compile_condition(parse_script(text + f"condition a{N - 1}\n"))(DEALS).all()
    for deeper in (f"x = a{N}\n", f"x = !a{N - 1}\n", f"condition a{N}\n"):
        message = refusal(2, lambda text=text + deeper: parse_script(text, filename="n.dlr"))
        assert message.startswith(f"n.dlr:{N + 2}:")
        assert "through the definition of 'a" in message
    nested = text.replace(f"a{N} = ", f"a{N} = 1 + 2 * ")  # operators: only the tree knows
    message = refusal(5, lambda: parse_script(nested, filename="n.dlr"))
    assert message.startswith(f"n.dlr:{N + 1}:")


def test_compiling_a_hand_built_deep_tree_is_refused() -> None:
    expr: Expr = Number(1)
    for _ in range(5_000):
        expr = Binary("+", Number(1), expr)  # right-nested: no parser would build it
    message = refusal(5, lambda: compile_expression(expr))
    assert f"deeper than {MAX_NESTING} levels" in message


# -- the command line ------------------------------------------------------------------


def _program(
    args: list[str], folder: Path, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """The real console script (so the exit-time flush of standard output runs too)."""
    program = [str(CROUPIER)] if CROUPIER.exists() else [sys.executable, "-m", "croupier"]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [*program, *args],
        cwd=folder,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


REFUSED_LATE = {
    "division-by-zero": ("condition 1 / (hcp(north) - hcp(north))\n", []),
    "rnd-beyond-2-to-62": (
        "action average rnd(2147483647 * 2147483647 * 2)\n",
        ["--format", "oneline"],
    ),
    "loser-with-a-changed-pt6": ("altcount 8 1\naction printes(loser(north))\n", ["-o", "o"]),
    "200000-nots": ("condition " + "not " * 200_000 + "1\n", ["--json"]),
}


@pytest.mark.parametrize(("text", "extra"), REFUSED_LATE.values(), ids=REFUSED_LATE)
def test_a_refused_script_is_one_error_line_from_the_real_program(
    text: str, extra: list[str], tmp_path: Path
) -> None:
    # refused after standard output was wrapped: the exit-time flush must still work
    (tmp_path / "s.dlr").write_text(text, encoding="utf-8")
    done = _program(["dealer", "s.dlr", "-g", "10", *extra], tmp_path)
    assert done.returncode == 2, done.stderr[-2000:]
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: s.dlr:"), done.stderr
    assert done.stdout == ""


SECRET = "6b1f0e38d9c27a45f10e9b8a7c36d25e4f3a1b0c9d8e7f6a5b4c3d2e1f0a9b8c"
RAW = bytes.fromhex(SECRET)
KEYS = {
    "hex": SECRET,
    "HEX": SECRET.upper(),
    "digits": "9" * 64,
    "base64": base64.b64encode(RAW + RAW[:16]).decode(),
    "base64-urlsafe": base64.urlsafe_b64encode(RAW[::-1] * 3).decode(),
    # a name of 16 characters between '+' signs: judged with the whole run around it
    "base64-short-name": "J4aytsBk5EVTp3H7+0eppHQAC7PRzVdy7GJzVjlMvbG8PhoIY78Qf1NjyVVUhEWW",
    "base64-lines": base64.encodebytes(RAW * 4).decode(),
    "after-a-keyword": "condition " + SECRET,
    "number-after-an-operator": "x = 1\ncondition hcp(north) > " + SECRET,
    "in-a-string": f'condition "{SECRET}"',
    "called": f"condition {SECRET[1:]}(north)",
}


@pytest.mark.parametrize("secret", KEYS.values(), ids=KEYS)
def test_a_key_given_as_a_script_is_refused_without_quoting_it(
    secret: str, cli: CliRunner, tmp_path: Path
) -> None:
    key = tmp_path / "cup.key"
    key.write_text(secret + "\n", encoding="ascii")
    result = cli(["dealer", str(key), "-g", "10"])
    assert result.code == 2 and result.err.startswith("error: cup.key:"), result.err
    shown = result.out + result.err
    pieces = {secret[i : i + 8] for i in range(len(secret) - 7)}
    leaked = [p for p in pieces if p in shown and not {" ", "\n", '"', "(", ")"} & set(p)]
    assert not leaked, result.err


def test_names_of_a_real_script_are_still_quoted() -> None:
    message = refusal(2, lambda: parse_script("condition nt15to17 && west_opener_1n"))
    assert "'nt15to17'" in message


def _seeded_outputs(cli: CliRunner, tmp_path: Path, seed: list[str]) -> str:
    script = tmp_path / "s.dlr"
    script.write_text("produce 2\naction printoneline, printpbn, average hcp(north)\n")
    shown = []
    for extra in (
        [],
        ["--json"],
        ["--format", "pbn"],
        ["--format", "oneline"],
        ["--format", "table"],
        ["-o", str(tmp_path / "out.txt")],
        ["--format", "pbn", "-o", str(tmp_path / "out.pbn")],
    ):
        result = cli(["dealer", str(script), *seed, *extra])
        assert result.code == 0, result.err
        shown += [result.out, result.err]
    shown += [(tmp_path / name).read_text() for name in ("out.txt", "out.pbn")]
    return "\n".join(shown)


@pytest.mark.parametrize(
    "seed", [["--seed", "Zebra-Quokka-8841"], ["-s", "884137"]], ids=["--seed", "-s"]
)
def test_a_seeded_dealer_run_says_it_is_reproducible_without_printing_the_seed(
    seed: list[str], cli: CliRunner, tmp_path: Path
) -> None:
    shown = _seeded_outputs(cli, tmp_path, seed)
    assert seed[1] not in shown
    assert "reproducible from its seed" in shown
    script = tmp_path / "s.dlr"
    doc = json.loads(cli(["dealer", str(script), *seed, "--json", "--quiet"]).out)
    assert doc["reproducible"] is True and doc["source"] == "seeded"
    assert "seed" not in doc and "seed" not in doc["result"]
    out = cli(["dealer", str(script), *seed, "--quiet"]).out
    assert "Initial random seed withheld" in out
    assert "seed withheld" in cli(["dealer", str(script), *seed, "--quiet"]).out
    again = cli(["dealer", str(script), *seed, "--quiet", "-v"]).out
    assert again == cli(["dealer", str(script), *seed, "--quiet", "-v"]).out


def test_an_unseeded_dealer_run_says_so(cli: CliRunner, tmp_path: Path) -> None:
    script = tmp_path / "s.dlr"
    script.write_text("produce 1\naction printoneline\n")
    result = cli(["dealer", str(script)])
    assert "Initial random seed none" in result.out and "OS CSPRNG" in result.err
    doc = json.loads(cli(["dealer", str(script), "--json", "--quiet"]).out)
    assert doc["reproducible"] is False and doc["source"] == "os-csprng"
    assert "seed" not in doc["result"]


def test_a_script_on_standard_input_keeps_its_output(tmp_path: Path) -> None:
    done = _program(
        ["dealer", "-", "--seed", "in", "-v"], tmp_path, "produce 2 action printoneline"
    )
    assert done.returncode == 0 and done.stdout.count("\n") == 2, done.stderr
