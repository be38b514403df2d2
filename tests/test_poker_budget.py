"""Monte Carlo equity keeps to a time: an estimate from its first batches, a time limit,
progress at a low rate off a terminal; and poker refuses copies of a card (``AS#2``).

The clock is injected (``plan.run(clock=...)``): every test here counts clock readings,
never real seconds, so a loaded machine cannot change what it sees.
"""

from __future__ import annotations

import functools
import importlib
import json
import math
from collections.abc import Callable
from typing import Any

import jsonschema
import pytest

from croupier.cli import poker_cmd
from croupier.cli.schemas import SCHEMAS
from croupier.poker import EquityPlan, PokerError, equity, evaluate, plan_equity
from croupier.poker.equity import MC_TIME_BUDGET, _check_budget

from .conftest import CliRunner

equity_module = importlib.import_module("croupier.poker.equity")  # the package names a function so

# Ten pairs, two of each rank: a matchup fits only when the two hands of a rank take
# disjoint pairs (1 in 6 per rank), so about 8 of the 65,536 candidates of a batch fit.
CROWDED = ["AA", "AA", "KK", "KK", "QQ", "QQ", "JJ", "JJ", "TT", "TT"]
# Three hands of aces cannot all be dealt; with seven random hands the ranges are too
# wide to list, so the sampler finds that out by trying (no candidate ever fits).
IMPOSSIBLE = ["AA", "AA", "AA", *["random"] * 7]


def ticking(step: float) -> Callable[[], float]:
    """A clock that moves on by ``step`` seconds at every reading."""
    now = [0.0]

    def clock() -> float:
        now[0] += step
        return now[0]

    return clock


def counted_batches(plan: EquityPlan) -> list[int]:
    """The batches ``plan`` samples, as they are sampled (past 40 fails: no estimate came)."""
    sampled: list[int] = []
    real = plan.sample

    def counting(key: bytes, batch: int) -> tuple[Any, Any]:
        sampled.append(batch)
        assert batch < 40, "no estimate in the first 40 batches"
        return real(key, batch)

    plan.sample = counting  # type: ignore[method-assign]
    return sampled


def test_the_budget_rule_is_the_rate_times_the_trials_left() -> None:
    # 10 trials in 1 s: 1,000 trials take 100 s, within 300 s
    _check_budget(1000, 10, 65536, 1.0, 0)
    _check_budget(3000, 10, 65536, 1.0, 0)  # exactly 300 s: still within
    with pytest.raises(PokerError) as caught:
        _check_budget(100_000, 10, 65536, 1.0, 0)  # 10,000 s
    message = str(caught.value)
    assert "100,000 trials would take about 2.8 hours" in message
    assert "10 of 65,536 candidates fitted the ranges" in message
    assert "about 3,000 fit in that time" in message  # 300 s at 10 a second
    assert "trials=" in message and "time_limit=" in message and "\n" not in message
    # trials already done before the estimate count as done
    _check_budget(3500, 10, 65536, 1.0, 500)
    with pytest.raises(PokerError):
        _check_budget(3501, 10, 65536, 1.0, 500)


def test_a_fast_rate_is_named_as_a_rate() -> None:
    with pytest.raises(PokerError, match=r"\(50,000 trials a second\)"):
        _check_budget(10**9, 50_000, 65536, 1.0, 0)


def test_no_trial_yet_estimates_as_if_the_next_one_fitted() -> None:
    with pytest.raises(PokerError, match="0 of 131,072 candidates fitted"):
        _check_budget(1000, 0, 131072, 1.0, 0)  # 1,000 s at most one a second
    _check_budget(300, 0, 131072, 1.0, 0)


def test_the_budget_is_five_minutes() -> None:
    assert MC_TIME_BUDGET == 300.0


def test_a_crowded_run_is_refused_after_its_first_batches() -> None:
    plan = plan_equity(CROWDED)  # 10^6 trials by default
    assert plan.method == "monte-carlo" and plan.total == 1_000_000
    sampled = counted_batches(plan)
    # 0.01 s a clock reading: a batch reads the clock about twice, so 16 batches take
    # far less than a second and the estimate comes after the 16th
    with pytest.raises(PokerError, match=r"1,000,000 trials would take about") as caught:
        plan.run(seed="budget", clock=ticking(0.01))
    assert sampled == list(range(16))
    assert "give time_limit=" in str(caught.value)


def test_slow_batches_are_estimated_after_a_second() -> None:
    plan = plan_equity(CROWDED)
    sampled = counted_batches(plan)
    with pytest.raises(PokerError, match="would take about"):
        plan.run(seed="budget", clock=ticking(0.6))  # 1.2 s a batch: estimated after two
    assert sampled == [0, 1]


def test_a_run_within_the_budget_is_not_refused() -> None:
    plan = plan_equity(["AA", "KK"], trials=300_000)
    result = plan.run(seed="quick", clock=ticking(1e-4))
    assert result.deals == 300_000 and result.stopped is None and result.requested == 300_000


def test_a_time_limit_stops_after_a_prefix_of_the_same_trials() -> None:
    plan = plan_equity(CROWDED, trials=1_000_000)
    stopped = plan.run(seed="limit", time_limit=40.0, clock=ticking(1.0))
    assert stopped.stopped == "time-limit" and stopped.requested == 1_000_000
    assert 0 < stopped.deals < 1_000_000
    # the trials done are the first ones of the stream: asking for that many repeats them
    again = equity(CROWDED, trials=stopped.deals, seed="limit")
    assert again.stopped is None
    assert [h.shares for h in again.hands] == [h.shares for h in stopped.hands]
    assert [h.interval for h in again.hands] == [h.interval for h in stopped.hands]


def test_the_interval_of_a_stopped_run_is_wider() -> None:
    short = plan_equity(["AK", "QQ"], trials=10**6).run(
        seed="wide", time_limit=3.0, clock=ticking(1.0)
    )
    long = equity(["AK", "QQ"], trials=200_000, seed="wide")
    assert short.stopped == "time-limit" and short.deals < 200_000
    width = [h.interval[1] - h.interval[0] for h in (short.hands[0], long.hands[0])]  # type: ignore[index]
    assert width[0] > width[1] * 1.5


def test_a_time_limit_needs_no_estimate() -> None:
    # the same crowded run that the estimate refuses runs under a time limit
    result = plan_equity(CROWDED).run(seed="budget", time_limit=40.0, clock=ticking(1.0))
    assert result.stopped == "time-limit" and result.deals > 0


def test_no_trial_in_the_time_limit_is_an_error() -> None:
    plan = plan_equity(IMPOSSIBLE, trials=1000)
    assert plan.method == "monte-carlo"
    with pytest.raises(PokerError, match=r"no trial in the time limit \(5 s\)"):
        plan.run(seed="none", time_limit=5.0, clock=ticking(10.0))


def test_no_trial_in_the_first_batches_is_refused_by_the_estimate() -> None:
    plan = plan_equity(IMPOSSIBLE, trials=1000)
    with pytest.raises(PokerError, match="0 of 65,536 candidates fitted the ranges"):
        plan.run(seed="none", clock=ticking(1.0))


def test_no_trial_ever_still_ends_without_a_clock_that_moves() -> None:
    plan = plan_equity(IMPOSSIBLE, trials=1000)
    with pytest.raises(PokerError, match="no matchup without a card dealt twice in"):
        plan.run(seed="none", clock=lambda: 0.0)


@pytest.mark.parametrize("bad", [0, -1.0, math.nan, math.inf, True, "5"])
def test_a_bad_time_limit_is_refused(bad: object) -> None:
    with pytest.raises(PokerError, match="time_limit= must be a number of seconds > 0"):
        equity(["AA", "KK"], trials=10, seed="x", time_limit=bad)  # type: ignore[arg-type]


def test_an_exact_run_ignores_the_time_limit() -> None:
    result = equity(["AsKs", "QhQd"], board="2s7sQc", time_limit=0.001)
    assert result.method == "exact" and result.deals == 990 and result.stopped is None


# -- command line ---------------------------------------------------------------------------


def test_cli_refuses_a_crowded_run_naming_its_flags(cli: CliRunner) -> None:
    r = cli(["poker", "equity", *CROWDED, "--seed", "budget"])
    assert r.code == 2 and r.out == "" and r.err.count("\n") == 1
    assert r.err.startswith("error: 1,000,000 trials would take about ")
    assert "--trials" in r.err and "--time-limit" in r.err
    assert "trials=" not in r.err and "time_limit=" not in r.err


def test_cli_time_limit_reports_the_trials_done(cli: CliRunner) -> None:
    r = cli(["poker", "equity", *CROWDED, "--seed", "cli", "--time-limit", "0.5"])
    assert r.code == 0, r.err
    first = r.out.splitlines()[0]
    assert "of 1,000,000 trials before the time limit" in first
    done = int(first.split("Monte Carlo, ")[1].split(" of ")[0].replace(",", ""))
    assert f"the time limit stopped the run after {done:,} of 1,000,000 trials" in r.err
    assert f"--trials {done} with the same seed repeats them" in r.err
    again = cli(["poker", "equity", *CROWDED, "--seed", "cli", "--trials", str(done)])
    assert again.code == 0
    assert again.out.splitlines()[1:] == r.out.splitlines()[1:]


def test_cli_time_limit_json_says_it_stopped(cli: CliRunner) -> None:
    r = cli(["poker", "equity", *CROWDED, "--seed", "j", "--time-limit", "0.3", "--json"])
    assert r.code == 0, r.err
    document = json.loads(r.out)
    jsonschema.validate(document, SCHEMAS["poker equity"])
    result = document["result"]
    assert result["stopped"] == "time-limit" and result["trials_requested"] == 1_000_000
    assert 0 < result["trials"] < 1_000_000
    finished = json.loads(
        cli(["poker", "equity", "AA", "KK", "--trials", "500", "--seed", "j", "--json"]).out
    )
    jsonschema.validate(finished, SCHEMAS["poker equity"])
    assert "stopped" not in finished["result"] and "trials_requested" not in finished["result"]


def test_cli_time_limit_without_a_seed_promises_no_repeat(cli: CliRunner) -> None:
    r = cli(["poker", "equity", *CROWDED, "--time-limit", "0.3"])
    assert r.code == 0 and "the time limit stopped the run after" in r.err
    assert "repeats" not in r.err


def test_cli_exact_notes_an_unused_time_limit(cli: CliRunner) -> None:
    r = cli(["poker", "equity", "AsKs", "QhQd", "--board", "2s7sQc", "--time-limit", "9"])
    assert r.code == 0 and "exact, 990 boards" in r.out
    assert r.err == "note: the result is exact, so --time-limit was not used\n"
    both = cli(["poker", "equity", "AsKs", "QhQd", "--board", "2s7sQc", "--time-limit", "9",
                "--seed", "s"])  # fmt: skip
    assert both.err == "note: the result is exact, so --seed and --time-limit were not used\n"


@pytest.mark.parametrize("bad", ["0", "-3", "nan", "inf"])
def test_cli_bad_time_limit_is_one_line(cli: CliRunner, bad: str) -> None:
    r = cli(["poker", "equity", "AA", "KK", "--trials", "10", f"--time-limit={bad}"])
    assert r.code == 2 and r.out == "" and r.err.count("\n") == 1
    assert "--time-limit" in r.err


def test_cli_progress_lines_off_a_terminal(cli: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    # every reading of the clock is a line's worth of time: a line after every chunk
    monkeypatch.setattr(
        poker_cmd, "progress_lines", functools.partial(poker_cmd.progress_lines, every=0.0)
    )
    r = cli(["poker", "equity", "AA", "KK", "--trials", "100000", "--seed", "p"])
    assert r.code == 0
    lines = [line for line in r.err.splitlines() if line.startswith("sampling: ")]
    assert len(lines) >= 5
    assert lines[0].startswith("sampling: 8,192 of 100,000 trials (8.2%), about ")
    assert all(line.endswith(" left") for line in lines)
    quiet = cli(["poker", "equity", "AA", "KK", "--trials", "100000", "--seed", "p", "--quiet"])
    assert quiet.code == 0 and quiet.err == ""


def test_progress_lines_wait_before_the_first(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from croupier.cli.running import progress_lines

    out = io.StringIO()
    readings = iter([0.0, 10.0, 29.9, 30.0, 45.0, 60.5, 61.0])
    with progress_lines(700, "enumerating", "deals", clock=lambda: next(readings),
                        stream=out) as advance:  # fmt: skip
        for _ in range(6):
            advance(100)
    assert out.getvalue().splitlines() == [
        "enumerating: 300 of 700 deals (42.9%), about 40 seconds left",
        "enumerating: 500 of 700 deals (71.4%), about 24 seconds left",
    ]


# -- copies of a card -----------------------------------------------------------------------


@pytest.mark.parametrize("cards", ["AS#2 KS QS JS TS", "As Ks Qs Js Ts#3"])
def test_poker_refuses_copies_of_a_card(cards: str) -> None:
    with pytest.raises(PokerError, match=r"played with one deck, not with the copy '(AS#2|TS#3)'"):
        evaluate(cards)


def test_the_first_copy_is_the_card_itself() -> None:
    assert evaluate("AS#1 KS QS JS TS").value == evaluate("AS KS QS JS TS").value


def test_equity_refuses_copies(cli: CliRunner) -> None:
    with pytest.raises(PokerError, match="copy 'AS#2'"):
        equity(["AS#2 AH", "KK"])
    with pytest.raises(PokerError, match="copy 'KD#2'"):
        equity(["AsAh", "QQ"], board="KD#2 7c 2s")
    r = cli(["poker", "equity", "AS#2AH", "KK"])
    assert r.code == 2 and "copy 'AS#2'" in r.err and r.err.count("\n") == 1
    r = cli(["poker", "eval", "AS#2", "KS", "QS", "JS", "TS"])
    assert r.code == 2 and "copy 'AS#2'" in r.err


def test_the_module_budget_is_the_one_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(equity_module, "MC_TIME_BUDGET", 1e-3)
    with pytest.raises(PokerError, match="more than the 1 second a run may take"):
        plan_equity(["AA", "KK"], trials=10**6).run(seed="b", clock=ticking(0.1))
