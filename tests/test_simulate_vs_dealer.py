"""croupier's simulations agree with the real C program ``dealer`` on dealer's own example scripts.

For every example script of the Debian package (``tests/data/dealer_examples``)
with a condition or statistics, the script is rewritten (parsed, then
:func:`croupier.simulate.unparse.format_script`) to keep its predeal, point
scales, definitions and condition, with ``generate G`` and ``produce G`` and
only its ``average`` and ``frequency`` actions.  ``dealer -s SEED`` runs it (in
a background thread, one dealer at a time, while croupier computes) and
croupier runs it with ``strategy="rejection"`` and with ``strategy="auto"``
(``"stacking"`` instead when auto keeps rejection for a script with a
condition, so that smart stacking is always compared where it applies; ``auto``
deals its first 65,536 deals by rejection, then stacks).
Then, with a false-alarm rate of at most ``ALPHA`` for each comparison:

* the **acceptance rate**: both programs look at ``G`` uniform deals (croupier
  counts them as dealer does under every strategy: smart stacking deals only
  those in its support, but counts them all), so croupier's ``M`` of ``N`` and
  dealer's are both binomial.  croupier's rate gets a Clopper-Pearson interval
  at level ``ALPHA / 2``; dealer's count of produced deals must lie inside the
  exact two-sided binomial region at level ``ALPHA / 2`` of some rate in it (a
  union bound: at most ``ALPHA`` in all, exact for any counts).  (The
  comparison keeps a support probability ``q``, now always 1, from when smart
  stacking counted its rows instead of the uniform deals.);
* each **average**: a statistic taking only the values 0 and 1 whose dealer
  count is recoverable from the printed mean is compared with Fisher's exact
  test; any other by the difference of the means over its standard error
  ``s * sqrt(1 / M_croupier + 1 / M_dealer)``, ``s`` croupier's sample
  standard deviation (dealer prints only the mean; its count is dealer's
  ``Produced``), allowing for dealer's rounding to six significant digits; a
  statistic constant over ``CONSTANT_FROM`` or more of croupier's deals must
  have exactly that mean in dealer's output;
* each **frequency** table (one- and two-dimensional, ``Low`` and ``High``
  included): the cells, in dealer's order (row by row), are merged left to
  right until each merged cell expects at least ``MIN_EXPECTED`` deals in
  the smaller sample (the remainder joins the last cell; one cell left is cut
  in two where the pooled count reaches half); then Pearson's chi-square test
  of homogeneity (two cells: Fisher's exact test).  A table with all of at
  least ``CONSTANT_FROM`` croupier deals in one cell must be so in dealer's.

Last, every named expression, the condition and every statistic of each
script are evaluated on a few deals whose four hands are predealt in dealer:
the values must be equal.

The seeds are fixed, so the test is deterministic; ``ALPHA`` is the chance
that a choice of seeds makes two correct programs disagree.
``docs/constraint-dealing.md`` ("Agreement with dealer") gives the figures.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from croupier.boards import Seat
from croupier.bulk.array import DealArray
from croupier.bulk.writers import parse_oneline
from croupier.simulate import parse_script
from croupier.simulate.actions import ActionRunner
from croupier.simulate.ast import (
    Action,
    Average,
    Expr,
    Frequency,
    Frequency2D,
    Name,
    PredealCards,
    PrintES,
    PrintOneLine,
    Script,
)
from croupier.simulate.compile import compile_expression, scales_of
from croupier.simulate.run import Simulation
from croupier.simulate.sampler import RejectionSampler
from croupier.simulate.stats import AverageResult, Frequency2DResult, FrequencyResult, Report
from croupier.simulate.unparse import format_script

from .conftest import dealer_program, run_dealer

EXAMPLES = Path(__file__).resolve().parent / "data" / "dealer_examples"
ALPHA = 1e-6
"""The false-alarm rate of each comparison."""
MIN_EXPECTED = 10
"""Frequency cells are merged until each expects at least this many deals in either sample."""
CONSTANT_FROM = 1000
"""A statistic with one value over this many of croupier's deals must have it in dealer's too."""

# Deals generated (and at most produced) per script: dealer needs about a
# microsecond per deal; rare conditions get more so that dealer produces
# enough deals to compare.
GENERATE: dict[str, int] = {
    "Descr.1c": 200_000,
    "Descr.2nt": 1_000_000,
    "Descr.6c": 200_000,
    "Descr.blue_team": 300_000,
    "Descr.controls": 300_000,
    "Descr.evaluation": 100_000,
    "Descr.hm1dr2d": 300_000,
    "Descr.junkstayman": 1_000_000,
    "Descr.notrump": 200_000,
    "Descr.pbn": 200_000,
    "Descr.stayman": 1_000_000,
    "Descr.test_dealer": 100_000,
    "Descr.vvga2": 200_000,
    "Descr.weaktwo": 300_000,
    "Descr.yarb": 500_000,
    "Descr.you_hold": 300_000,
    "Test.distribution": 200_000,
}
NOTHING_TO_COMPARE = {"Descr.test_operator_order"}  # no condition, no statistics: printes only


def _examples() -> list[str]:
    return sorted(p.name for p in EXAMPLES.iterdir() if p.name.startswith(("Descr.", "Test.")))


def _statistics(script: Script) -> tuple[Action, ...]:
    return tuple(
        a for a in script.actions or () if isinstance(a, Average | Frequency | Frequency2D)
    )


@cache
def derived(name: str) -> Script:
    """The example with only its statistics actions, generating and producing GENERATE[name]."""
    script = parse_script((EXAMPLES / name).read_text(), name)
    count = GENERATE[name]
    return replace(script, actions=_statistics(script), generate=count, produce=count)


# -- dealer's side -------------------------------------------------------------------------


@dataclass(frozen=True)
class DealerRun:
    """What dealer printed: its counts and, per statistics action, its figures."""

    generated: int
    produced: int
    figures: tuple[str | list[int], ...]


def _dealer_seed(name: str) -> int:
    return 1300 + _examples().index(name)


def _run_dealer(name: str) -> DealerRun:
    out = run_dealer(format_script(derived(name)), _dealer_seed(name))
    return parse_dealer_output(derived(name), out)


def parse_dealer_output(script: Script, out: str) -> DealerRun:
    """dealer's figures: each average's printed mean, each frequency's full table of counts.

    A one-dimensional table becomes ``[Low, low..high, High]`` (dealer omits an
    empty ``Low``/``High`` row); a two-dimensional one is dealer's grid of
    ``Low``, the values and ``High`` both ways, without the sums, row by row.
    """
    lines = out.splitlines()
    at = 0
    figures: list[str | list[int]] = []
    for action in script.actions or ():
        if isinstance(action, Average):
            prefix = f"{action.label}: " if action.label is not None else ""
            assert lines[at].startswith(prefix), (lines[at], prefix)
            figures.append(lines[at][len(prefix) :])
            at += 1
            continue
        assert isinstance(action, Frequency | Frequency2D)
        assert lines[at] == f"Frequency {action.label or ''}:", lines[at]
        at += 1
        if isinstance(action, Frequency):
            table = dict.fromkeys(["Low", *map(str, range(action.low, action.high + 1)), "High"], 0)
            while at < len(lines) and "\t" in lines[at]:
                key, count = lines[at].split("\t")
                assert key.strip() in table, lines[at]
                table[key.strip()] = int(count)
                at += 1
            figures.append(list(table.values()))
            continue
        at += 1  # the column headings
        size = action.high - action.low + 3
        grid = [[int(x) for x in line.split()[1:-1]] for line in lines[at : at + size]]
        assert all(len(row) == action.high2 - action.low2 + 3 for row in grid), grid
        assert lines[at + size].startswith("Sum") and lines[at + size + 1] == ""
        at += size + 2
        figures.append([x for row in grid for x in row])
    counts: dict[str, int] = {}
    for line in lines[at:]:
        words = line.split()
        if words and words[0] in ("Generated", "Produced"):
            counts[words[0]] = int(words[1])
    assert len(counts) == 2, lines[at:]
    return DealerRun(counts["Generated"], counts["Produced"], tuple(figures))


_DEALER = ThreadPoolExecutor(max_workers=1)  # dealer runs on one core while croupier computes
_RUNS: dict[str, Future[DealerRun]] = {}


def dealer_run(name: str) -> DealerRun:
    """dealer's run of the derived script (all of them are queued at the first call)."""
    dealer_program()  # skips (fails under CI) without dealer
    if not _RUNS:
        for other in GENERATE:
            _RUNS[other] = _DEALER.submit(_run_dealer, other)
    return _RUNS[name].result()


@pytest.fixture(scope="module", autouse=True)
def _drop_dealer_queue() -> Iterator[None]:
    """After this file's tests, dealer runs not started yet are dropped (``-k`` picks a few)."""
    yield
    for future in _RUNS.values():
        future.cancel()


# -- croupier's side -----------------------------------------------------------------------


@dataclass(frozen=True)
class CroupierRun:
    """croupier's run: sampled rows, kept deals, the support's probability and the report."""

    strategy: str
    generated: int
    produced: int
    probability: Fraction
    report: Report


def croupier_run(name: str, simulation: Simulation) -> CroupierRun:
    """Run the derived script's simulation and feed its deals to the statistics actions.

    Both programs look at ``G`` uniform deals (croupier counts them as dealer does
    under every strategy), so the support's probability of the comparison is 1.
    """
    count = GENERATE[name]
    runner = ActionRunner(derived(name), io.StringIO())
    generated = produced = 0
    stacked = False
    for batch in simulation.batches(produce=count, generate=count):
        runner.feed(batch.deals, produced + 1)
        generated, produced, stacked = batch.generated, batch.produced, batch.stacked
    report = runner.finish()
    assert (report.produced == produced and generated in (count, None)) or produced == count
    strategy = simulation.strategy if stacked else "rejection"
    return CroupierRun(strategy, generated, produced, Fraction(1), report)


# -- the comparisons -----------------------------------------------------------------------


@dataclass(frozen=True)
class Comparison:
    """One comparison: what, its z (normal scale, for the record) and p-value, and the verdict."""

    what: str
    z: float | None
    p: float | None
    agrees: bool
    detail: str


SEEN: list[tuple[str, str, Comparison]] = []
"""Every comparison made (script, strategy, comparison): the docs quote the extremes."""


def _binomial_region_misses(count: int, total: int, low: float, high: float) -> bool:
    """Whether ``count`` of ``total`` is improbable (ALPHA / 2) for every rate from low to high."""
    tail = ALPHA / 4
    too_many = count > 0 and stats.binom.sf(count - 1, total, high) < tail  # P(X >= count)
    too_few = count < total and stats.binom.cdf(count, total, low) < tail  # P(X <= count)
    return bool(too_many or too_few)


def compare_acceptance(mine: CroupierRun, dealer: DealerRun) -> Comparison:
    """dealer's produced count against croupier's estimate of the acceptance (see the module)."""
    q = float(mine.probability)
    m, n, k, big_n = mine.produced, mine.generated, dealer.produced, dealer.generated
    assert n > 0 and big_n > 0
    inside = stats.binomtest(m, n).proportion_ci(confidence_level=1 - ALPHA / 2, method="exact")
    low, high = q * inside.low, q * inside.high
    agrees = not _binomial_region_misses(k, big_n, low, high)
    estimate, seen = q * m / n, k / big_n
    # the z of the difference, with the pooled rate a: Var = a (q - a) / N + a (1 - a) / N'
    pooled = (m + k) / (n / q + big_n)
    variance = pooled * (q - pooled) / n + pooled * (1 - pooled) / big_n
    z = None if variance <= 0 else (estimate - seen) / math.sqrt(variance)
    p = None if z is None else float(2 * stats.norm.sf(abs(z)))
    if variance <= 0:  # both all or nothing: they must be equal
        agrees = agrees and estimate == seen
    detail = f"croupier {estimate:.6g} ({m}/{n} x {q:.6g}), dealer {seen:.6g} ({k}/{big_n})"
    return Comparison("acceptance", z, p, agrees, detail)


def _dealer_count(printed: str, total: int) -> int | None:
    """The number of deals scoring 1 behind dealer's printed mean of a 0/1 statistic, if unique."""
    mean = float(printed)
    hits = round(mean * total)
    if mean * total * 5e-6 >= 0.5 or f"{hits / total:g}" != printed:
        return None
    return hits


def compare_average(mine: AverageResult, printed: str, total: int) -> Comparison:
    """dealer's printed mean of ``total`` values against croupier's sample (see the module)."""
    what = mine.describe()
    assert mine.mean is not None and mine.variance is not None
    binary = mine.sum == mine.sum_squares  # integers whose squares sum to their sum: 0s and 1s
    if mine.variance == 0 and (mine.count >= CONSTANT_FROM or not binary):
        agrees = f"{float(mine.mean):g}" == printed
        return Comparison(what, None, None, agrees, f"constant {mine.mean}, dealer {printed}")
    hits = _dealer_count(printed, total) if binary else None
    if hits is not None:
        _, p = stats.fisher_exact(
            [[mine.sum, mine.count - mine.sum], [hits, total - hits]], alternative="two-sided"
        )
        se = mine.se or 0.0
        z = (
            (float(mine.mean) - hits / total) / (se * math.sqrt(1 + mine.count / total))
            if se
            else None
        )
        detail = f"croupier {mine.sum}/{mine.count}, dealer {hits}/{total}"
        return Comparison(what, z, float(p), float(p) >= ALPHA, detail)
    se_mine = mine.se
    assert total >= 100 and se_mine, f"{what}: {total} dealer deals, SE {se_mine}: raise GENERATE"
    spread = se_mine * math.sqrt(1 + mine.count / total)
    rounding = (
        0.5 * 10.0 ** (math.floor(math.log10(abs(float(printed)))) - 5) if float(printed) else 0
    )
    gap = abs(float(mine.mean) - float(printed))
    z = (float(mine.mean) - float(printed)) / spread
    p = float(2 * stats.norm.sf(max(gap - rounding, 0) / spread))
    mean = float(mine.mean)
    detail = f"croupier {mean:.6g} (SE {se_mine:.3g}, {mine.count}), dealer {printed} ({total})"
    return Comparison(what, z, p, p >= ALPHA, detail)


def merged_cells(mine: list[int], theirs: list[int]) -> tuple[list[int], list[int]]:
    """Adjacent cells merged until each expects MIN_EXPECTED deals in the smaller sample.

    The remainder joins the last merged cell.  When that leaves one cell though
    two or more hold deals, the cells are cut in two where the pooled count
    first reaches half (for Fisher's exact test, sound for any counts).  The
    cut depends only on the pooled counts, so the test stays exact.

    Here the smaller sample holds 21 of 231 deals: a cell of 110 deals expects 10 of them.

    >>> merged_cells([100, 5, 5, 100, 0], [10, 1, 0, 9, 1])
    ([100, 110], [10, 11])
    >>> merged_cells([0, 13, 6, 0], [0, 16, 13, 0])
    ([13, 6], [16, 13])
    """
    smaller = min(sum(mine), sum(theirs)) / (sum(mine) + sum(theirs))
    a: list[int] = []
    b: list[int] = []
    run_a = run_b = 0
    for x, y in zip(mine, theirs, strict=True):
        run_a, run_b = run_a + x, run_b + y
        if (run_a + run_b) * smaller >= MIN_EXPECTED:
            a.append(run_a)
            b.append(run_b)
            run_a = run_b = 0
    if a:
        a[-1] += run_a
        b[-1] += run_b
    else:
        a, b = [run_a], [run_b]
    pooled = [x + y for x, y in zip(mine, theirs, strict=True)]
    if len(a) == 1 and sum(1 for x in pooled if x) >= 2:
        running = np.cumsum(pooled)
        cut = int(np.searchsorted(running, running[-1] / 2)) + 1  # cells before the cut
        cut = min(cut, max(i for i, x in enumerate(pooled) if x))  # keep deals on both sides
        a, b = [sum(mine[:cut]), sum(mine[cut:])], [sum(theirs[:cut]), sum(theirs[cut:])]
    return a, b


def compare_table(what: str, mine: list[int], theirs: list[int]) -> Comparison:
    """Two tables of counts over the same cells, merged, then chi-square or Fisher's exact test."""
    detail = f"croupier {mine}, dealer {theirs}"
    if sum(1 for x in mine if x) == 1 and sum(mine) >= CONSTANT_FROM:
        cell = next(i for i, x in enumerate(mine) if x)  # constant: dealer's must be the same
        agrees = all(y == 0 for i, y in enumerate(theirs) if i != cell)
        return Comparison(what, None, None, agrees, detail)
    a, b = merged_cells(mine, theirs)
    if len(a) == 1:  # every deal of both in one cell
        return Comparison(what, None, None, True, detail)
    if len(a) == 2:
        _, p = stats.fisher_exact([a, b])
        z = float(stats.norm.isf(float(p) / 2))
        return Comparison(what, z, float(p), float(p) >= ALPHA, detail)
    chi2, p, _, _ = stats.chi2_contingency(np.array([a, b]), correction=False)
    z = float(stats.norm.isf(float(p) / 2)) if p > 0 else math.inf
    return Comparison(what, z, float(p), float(p) >= ALPHA, f"chi2 {chi2:.2f}, {len(a)} cells")


def _flat_frequency(result: FrequencyResult) -> list[int]:
    return [result.below, *result.counts, result.above]


def _flat_frequency2d(result: Frequency2DResult) -> list[int]:
    return [x for row in result.counts for x in row]


def comparisons(mine: CroupierRun, dealer: DealerRun) -> Iterator[Comparison]:
    """Every comparison of croupier's run with dealer's: acceptance, then each statistic."""
    yield compare_acceptance(mine, dealer)
    if dealer.produced == 0 or mine.produced == 0:
        return  # nothing to compare but the acceptance rate (the tests ask for deals)
    for result, figure in zip(mine.report.results, dealer.figures, strict=True):
        if isinstance(result, AverageResult):
            assert isinstance(figure, str)
            yield compare_average(result, figure, dealer.produced)
        elif isinstance(result, FrequencyResult):
            assert isinstance(figure, list)
            yield compare_table(result.describe(), _flat_frequency(result), figure)
        else:
            assert isinstance(result, Frequency2DResult) and isinstance(figure, list)
            yield compare_table(result.describe(), _flat_frequency2d(result), figure)


# -- the tests -----------------------------------------------------------------------------


def simulations(name: str) -> Iterator[Simulation]:
    """croupier's runs of the script: rejection, then auto (stacking, where a plan exists)."""
    script = derived(name)
    yield Simulation(script, seed=f"vs-dealer {name} rejection", strategy="rejection")
    auto = Simulation(script, seed=f"vs-dealer {name} auto", strategy="auto")
    if not isinstance(auto.sampler, RejectionSampler):
        yield auto
    elif script.condition is not None:  # auto kept rejection: still compare smart stacking
        yield Simulation(script, seed=f"vs-dealer {name} stacking", strategy="stacking")


def test_every_example_with_a_condition_or_statistics_is_compared() -> None:
    for name in _examples():
        script = parse_script((EXAMPLES / name).read_text(), name)
        compared = script.condition is not None or bool(_statistics(script))
        assert (name in GENERATE) == compared and (name in NOTHING_TO_COMPARE) != compared, name


@pytest.mark.parametrize("name", sorted(GENERATE))
def test_croupier_agrees_with_dealer(name: str) -> None:
    dealer = dealer_run(name)
    assert dealer.generated == GENERATE[name] or dealer.produced == GENERATE[name]
    if derived(name).actions:
        assert dealer.produced > 0, f"{name}: dealer produced nothing; raise GENERATE"
    failures = []
    strategies = []
    for simulation in simulations(name):
        mine = croupier_run(name, simulation)
        strategies.append(mine.strategy)
        for comparison in comparisons(mine, dealer):
            SEEN.append((name, mine.strategy, comparison))
            if not comparison.agrees:
                failures.append(f"{mine.strategy}: {comparison.what}: {comparison.detail}")
    assert not failures, "\n".join(failures)
    if derived(name).condition is not None:
        assert any(s.startswith("smart stacking") for s in strategies), strategies


# -- the same hands, predealt in dealer ----------------------------------------------------

SEATS: tuple[Seat, ...] = ("N", "E", "S", "W")
SAME_HANDS = 4  # per script: two deals that pass its condition, two that merely hold its predeal


def _expressions(script: Script) -> list[Expr]:
    """Every named expression, the condition and every statistic of the script."""
    found: list[Expr] = [Name(name) for name in script.definitions]
    if script.condition is not None:
        found.append(script.condition)
    for action in _statistics(script):
        found += [e for e in (getattr(action, "expr", None), getattr(action, "expr2", None)) if e]
    return found


def _same_hands_deals(name: str, script: Script) -> DealArray:
    passing = Simulation(script, seed=f"same hands {name}")
    plain = Simulation(replace(script, condition=None), seed=f"same hands {name} plain")
    half = SAME_HANDS // 2
    runs = [sim.run(produce=half, generate=GENERATE[name] * 10) for sim in (passing, plain)]
    return DealArray.concatenate([r.deals for r in runs])


@pytest.mark.parametrize("name", sorted(GENERATE))
def test_every_expression_of_the_example_agrees_with_dealer_on_predealt_hands(name: str) -> None:
    """dealer, given all four hands, prints each expression's value: croupier's is the same."""
    script = parse_script((EXAMPLES / name).read_text(), name)
    expressions = _expressions(script)
    deals = _same_hands_deals(name, script)
    assert len(deals) == SAME_HANDS
    for i, deal in enumerate(deals):
        items: list[str | Expr] = []
        for expr in expressions:
            items += [expr, " "]
        fixed = replace(
            script,
            generate=1,
            produce=1,
            predeal=tuple(
                PredealCards(seat, hand) for seat, hand in zip(SEATS, deal.hands, strict=True)
            ),
            predeal_lengths=(),
            condition=None,
            actions=(PrintOneLine(), PrintES((*items, "\n"))),
        )
        shown, values = run_dealer(format_script(fixed), 1, timeout=60).splitlines()[:2]
        assert parse_oneline(shown) == deals[i : i + 1]  # dealer dealt exactly this deal
        theirs = [int(v) for v in values.split()]
        mine = [
            int(
                compile_expression(e, script.definitions, scales=scales_of(script))(
                    deals[i : i + 1]
                )[0]
            )
            for e in expressions
        ]
        assert mine == theirs, [
            (str(e), a, b) for e, a, b in zip(expressions, mine, theirs, strict=True) if a != b
        ]
