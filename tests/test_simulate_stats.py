"""Statistics of simulations: exact sums, means, standard errors, intervals, merging, output.

Expected values come from independent code (``statistics``, ``fractions``,
``collections.Counter``, plain Python loops written from dealer's C rules),
from hand computation, or from the real ``dealer`` program.
"""

from __future__ import annotations

import io
import json
import math
import statistics
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

from croupier.bulk import deal_array
from croupier.bulk.writers import parse_oneline
from croupier.errors import MissingExtraError
from croupier.simulate import parse_script
from croupier.simulate.actions import ActionRunner
from croupier.simulate.stats import (
    Z95,
    AverageResult,
    Frequency2DResult,
    FrequencyResult,
    Report,
    StatisticsError,
    exact_sums,
    merge_reports,
    plot_frequency,
    wilson_interval,
)
from tests.conftest import dealer_program

ints = st.lists(st.integers(-(10**12), 10**12), max_size=40)


@given(ints)
def test_average_agrees_with_the_statistics_module(values: list[int]) -> None:
    r = AverageResult.of("x", "x", values)
    assert (r.count, r.sum, r.sum_squares) == (
        len(values),
        sum(values),
        sum(v * v for v in values),
    )
    if values:
        assert r.mean == statistics.mean(Fraction(v) for v in values)
    if len(values) >= 2:
        assert r.variance == statistics.variance([Fraction(v) for v in values])
        se = statistics.stdev(values) / math.sqrt(len(values))
        assert r.se == pytest.approx(se, rel=1e-9, abs=1e-9)
        assert r.ci95 is not None
        lo, hi = r.ci95
        mean = statistics.fmean(values)
        assert lo == pytest.approx(mean - 1.959963984540054 * se, rel=1e-9, abs=1e-6)
        assert hi == pytest.approx(mean + 1.959963984540054 * se, rel=1e-9, abs=1e-6)
    else:
        assert r.se is None and r.ci95 is None


def test_hand_computed_average() -> None:
    # values 2, 4, 9: mean 5, squares 4 + 16 + 81 = 101, variance (101 - 75) / 2 = 13
    r = AverageResult.of(None, "x", [2, 4, 9])
    assert r.mean == 5 and r.variance == 13
    assert r.se == pytest.approx(math.sqrt(13 / 3))
    assert round(Z95, 6) == 1.959964


def test_exact_sums_do_not_overflow() -> None:
    values = [2**62, 2**62, -(2**61), 3]
    assert exact_sums(values) == (sum(values), sum(v * v for v in values))


@given(st.lists(st.integers(-5, 20), max_size=60), st.integers(-3, 8), st.integers(0, 10))
def test_frequency_counts_like_counter(values: list[int], low: int, span: int) -> None:
    high = low + span
    r = FrequencyResult.of("f", "x", low, high, values)
    counted = Counter(values)
    assert r.counts == tuple(counted[v] for v in range(low, high + 1))
    assert r.below == sum(1 for v in values if v < low)
    assert r.above == sum(1 for v in values if v > high)
    assert r.count == len(values) and r.sum == sum(values)


def _dealer_2d(
    values: list[int], values2: list[int], b1: tuple[int, int], b2: tuple[int, int]
) -> tuple[tuple[int, ...], ...]:
    """dealer's C indexing rule, value by value."""
    (l1, h1), (l2, h2) = b1, b2
    table = [[0] * (h2 - l2 + 3) for _ in range(h1 - l1 + 3)]
    for e1, e2 in zip(values, values2, strict=True):
        v1 = h1 - l1 + 2 if e1 > h1 else max(e1 - l1 + 1, 0)
        v2 = h2 - l2 + 2 if e2 > h2 else max(e2 - l2 + 1, 0)
        table[v1][v2] += 1
    return tuple(tuple(row) for row in table)


@given(st.lists(st.tuples(st.integers(-4, 12), st.integers(-4, 12)), max_size=50))
def test_frequency2d_follows_dealers_indexing(pairs: list[tuple[int, int]]) -> None:
    v1 = [a for a, _ in pairs]
    v2 = [b for _, b in pairs]
    r = Frequency2DResult.of("j", ("x", "y"), (0, 5), (2, 9), v1, v2)
    assert r.counts == _dealer_2d(v1, v2, (0, 5), (2, 9))
    assert r.total == len(pairs)


def test_wilson_interval_hand_values() -> None:
    # p = 1/2, n = 10: centre 1/2; half width 1.96 * sqrt(0.025 + 0.0096) / 1.384 = 0.2634
    lo, hi = wilson_interval(5, 10)  # type: ignore[misc]
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    lo0, hi0 = wilson_interval(0, 20)  # type: ignore[misc]
    z2 = Z95**2
    assert lo0 == 0 and hi0 == pytest.approx(z2 / (20 + z2))


def test_merge_refuses_different_actions() -> None:
    with pytest.raises(StatisticsError, match="cannot merge"):
        FrequencyResult.of("f", "x", 0, 3, []).merge(FrequencyResult.of("f", "x", 0, 4, []))
    with pytest.raises(StatisticsError, match="cannot merge"):
        Report(0, (AverageResult(),)).merge(Report(0, (FrequencyResult(),)))
    with pytest.raises(StatisticsError, match="low=3, high=1"):
        FrequencyResult.of(None, "x", 3, 1, [])
    with pytest.raises(StatisticsError, match="at least one"):
        merge_reports([])


SCRIPT = parse_script(
    'action average "n" hcp(north), frequency "s" (spades(south), 2, 5),'
    " frequency (hcp(north), 8, 14, hcp(south), 8, 14), average cccc(east)"
)


def _report(deals_list: list, first: int = 1) -> Report:
    runner = ActionRunner(SCRIPT, io.StringIO())
    for deals in deals_list:
        runner.feed(deals, first)
        first += len(deals)
    return runner.report()


@given(st.integers(0, 300), st.integers(0, 300))
def test_merging_the_reports_of_two_parts_equals_the_report_of_the_whole(a: int, b: int) -> None:
    deals = deal_array(300, seed="merge")
    cut = min(a, b)
    whole = _report([deals])
    halves = _report([deals[:cut]]).merge(_report([deals[cut:]]))
    assert halves == whole
    assert merge_reports([_report([deals[:cut]]), _report([deals[cut:]])]) == whole


def test_report_values_equal_a_per_deal_recount() -> None:
    deals = deal_array(500, seed="recount")
    report = _report([deals])
    hcp_scale = {0: 4, 1: 3, 2: 2, 3: 1}
    north, south, spades = [], [], []
    for deal in deals:  # independent: from Deal objects, one card at a time
        hands = deal.hands
        north.append(sum(hcp_scale.get("AKQJ".find(c.rank.letter), 0) for c in hands[0]))
        south.append(sum(hcp_scale.get("AKQJ".find(c.rank.letter), 0) for c in hands[2]))
        spades.append(sum(1 for c in hands[2] if c.suit is not None and c.suit.letter == "S"))
    avg, freq, joint, _ = report.results
    assert isinstance(avg, AverageResult) and avg.mean == Fraction(sum(north), len(north))
    assert isinstance(freq, FrequencyResult)
    assert freq.counts == tuple(Counter(spades)[v] for v in range(2, 6))
    assert isinstance(joint, Frequency2DResult)
    assert joint.counts == _dealer_2d(north, south, (8, 14), (8, 14))


def test_json_is_serialisable_and_exact() -> None:
    report = _report([deal_array(50, seed="json")])
    data = json.loads(json.dumps(report.to_json()))
    assert data["produced"] == 50
    kinds = [s["kind"] for s in data["statistics"]]
    assert kinds == ["average", "frequency", "frequency2d", "average"]
    avg = data["statistics"][0]
    assert Fraction(avg["mean_exact"]) == Fraction(avg["sum"], avg["count"])
    freq = data["statistics"][1]
    assert sum(row["count"] for row in freq["rows"]) == 50
    joint = data["statistics"][2]
    assert joint["rows"][0] == "Low" and joint["columns"][-1] == "High"
    assert sum(map(sum, joint["counts"])) == 50


def test_rich_tables_show_counts_percentages_and_intervals() -> None:
    report = Report(4, (FrequencyResult.of("tens", "x", 0, 1, [0, 1, 1, 1]),))
    (table,) = report.rich_tables()
    console = Console(record=True, width=120)
    console.print(table)
    text = console.export_text()
    assert "75.00%" in text and "25.00%" in text
    lo, hi = wilson_interval(3, 4)  # type: ignore[misc]
    assert f"{lo * 100:.2f} .. {hi * 100:.2f}" in text


def test_plot_names_the_extra_when_matplotlib_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(MissingExtraError, match=r"croupier\[analysis\]"):
        plot_frequency(FrequencyResult.of(None, "x", 0, 1, [0]))


def test_statistics_text_equals_dealers_on_a_longer_run(tmp_path: Path) -> None:
    body = (
        "produce 400\ncondition hcp(north) >= 10\n"
        'action printoneline, average "n" hcp(north), average cccc(east) - 1000,'
        ' frequency "s" (spades(south), 2, 5), frequency (loser(west), 5, 9, hcp(north), 10, 13)\n'
    )
    path = tmp_path / "s.dl"
    path.write_text(body)
    done = subprocess.run(
        [dealer_program(), "-s", "4242", str(path)], capture_output=True, check=True, timeout=30
    )
    expected = done.stdout.decode()
    expected = expected[: expected.index("Generated ")]
    deals = parse_oneline(expected)
    assert len(deals) == 400
    out = io.StringIO()
    runner = ActionRunner(parse_script(body), out)
    runner.feed(deals[:123], 1)
    runner.feed(deals[123:124], 124)
    runner.feed(deals[124:], 125)
    runner.finish()
    assert out.getvalue() == expected
