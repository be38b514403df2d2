"""Statistics of a simulation: averages and frequency tables, exact and mergeable.

A dealer script's ``average`` and ``frequency`` actions accumulate here.
Every result keeps exact integers (counts, the sum and the sum of squares of
the values), so merging the results of two chunks of a run gives exactly the
result of the whole run (:meth:`Report.merge`).  Derived figures:

* the **mean** (an exact :class:`~fractions.Fraction`, and as a float in JSON);
* the **standard error** ``s / sqrt(n)``, where ``s`` is the sample standard
  deviation (denominator ``n - 1``); none for fewer than two values;
* a **95% confidence interval**: for a mean, the normal-approximation (Wald)
  interval ``mean ± z · SE`` with ``z = 1.959963984540054`` (the 0.975
  quantile of the standard normal distribution), which suits the large
  samples of simulations (it is too narrow below about 30 values); for the
  fraction of deals in a frequency row, the Wilson score interval, which
  stays inside [0, 1] and is sound for rare values too.

>>> s = AverageResult.of("points", "hcp(north)", [10, 12, 14, 8])
>>> s.count, s.sum, s.sum_squares, s.mean
(4, 44, 504, Fraction(11, 1))
>>> round(s.se, 6), [round(x, 4) for x in s.ci95]
(1.290994, [8.4697, 13.5303])
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeAlias, cast

import numpy as np
import numpy.typing as npt

from croupier.errors import CroupierError, MissingExtraError
from croupier.frozen import frozen_dataclass
from croupier.simulate.ast import frequency_size_problem

if TYPE_CHECKING:
    from rich.table import Table

    from croupier.analysis.plots import BarPanel

__all__ = [
    "Z95",
    "AverageResult",
    "Frequency2DResult",
    "FrequencyResult",
    "Report",
    "Result",
    "StatisticsError",
    "exact_sums",
    "frequency_panels",
    "merge_reports",
    "plot_frequency",
    "wilson_interval",
]

Z95 = 1.9599639845400536
"""The 0.975 quantile of the standard normal distribution, ``NormalDist().inv_cdf(0.975)``
(written out: the ``statistics`` module costs start-up time).

>>> from statistics import NormalDist
>>> Z95 == NormalDist().inv_cdf(0.975)
True
"""

IntArray: TypeAlias = npt.NDArray[np.int64]


class StatisticsError(CroupierError):
    """Statistics that cannot be combined or computed (different actions, bad bounds)."""


def exact_sums(values: npt.ArrayLike) -> tuple[int, int]:
    """The exact sum and sum of squares of integer values, as Python ints (no overflow).

    >>> exact_sums([3, -4, 2**40])
    (1099511627775, 1208925819614629174706201)
    """
    v = np.asarray(values, dtype=np.int64).ravel()
    if v.size == 0:
        return 0, 0
    big = int(np.abs(v).max())
    if big < 1 << 20 and v.size < 1 << 22:  # squares and their sum fit in int64
        return int(v.sum()), int((v * v).sum())
    exact = [int(x) for x in v.tolist()]
    return sum(exact), sum(x * x for x in exact)


def _variance(count: int, total: int, squares: int) -> Fraction | None:
    if count < 2:
        return None
    return Fraction(count * squares - total * total, count * (count - 1))


def wilson_interval(hits: int, count: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval for a proportion ``hits / count`` (95% by default).

    >>> [round(x, 4) for x in wilson_interval(5, 10)]
    [0.2366, 0.7634]
    >>> wilson_interval(0, 0) is None
    True
    """
    if count <= 0:
        return None
    p = hits / count
    z2 = z * z
    centre = (p + z2 / (2 * count)) / (1 + z2 / count)
    half = z * math.sqrt(p * (1 - p) / count + z2 / (4 * count * count)) / (1 + z2 / count)
    low = 0.0 if hits <= 0 else max(0.0, centre - half)  # exactly 0 and 1 at the ends
    high = 1.0 if hits >= count else min(1.0, centre + half)
    return low, high


@frozen_dataclass
class _Moments:
    """Exact count, sum and sum of squares of integer values, with the figures derived."""

    count: int = 0
    sum: int = 0
    sum_squares: int = 0

    @property
    def mean(self) -> Fraction | None:
        """The exact mean, ``None`` without values."""
        return Fraction(self.sum, self.count) if self.count else None

    @property
    def variance(self) -> Fraction | None:
        """The exact sample variance (denominator ``count - 1``), ``None`` below two values."""
        return _variance(self.count, self.sum, self.sum_squares)

    @property
    def sd(self) -> float | None:
        """The sample standard deviation."""
        v = self.variance
        return None if v is None else math.sqrt(v)

    @property
    def se(self) -> float | None:
        """The standard error of the mean, ``sd / sqrt(count)``."""
        v = self.variance
        return None if v is None else math.sqrt(v / self.count)

    @property
    def ci95(self) -> tuple[float, float] | None:
        """The 95% normal-approximation interval ``mean ± 1.96 · se`` (see the module)."""
        se, mean = self.se, self.mean
        if se is None or mean is None:
            return None
        return float(mean) - Z95 * se, float(mean) + Z95 * se

    def _moments_json(self) -> dict[str, Any]:
        mean = self.mean
        return {
            "count": self.count,
            "sum": self.sum,
            "sum_squares": self.sum_squares,
            "mean": None if mean is None else float(mean),
            "mean_exact": None if mean is None else str(mean),
            "sd": self.sd,
            "se": self.se,
            "ci95": None if self.ci95 is None else list(self.ci95),
        }


def _check_same(a: Result, b: Result, fields: Sequence[str]) -> None:
    if type(a) is not type(b) or any(getattr(a, f) != getattr(b, f) for f in fields):
        raise StatisticsError(
            f"cannot merge {a.describe()!r} with {b.describe()!r}: "
            "only results of the same action (kind, label, expression, bounds) merge"
        )


@frozen_dataclass
class AverageResult(_Moments):
    """The ``average`` action: exact count, sum and sum of squares of the expression's values.

    >>> a = AverageResult.of(None, "x", [1, 2]).merge(AverageResult.of(None, "x", [3]))
    >>> a.count, a.mean, a.variance
    (3, Fraction(2, 1), Fraction(1, 1))
    """

    label: str | None = None
    expression: str = ""

    @classmethod
    def of(cls, label: str | None, expression: str, values: npt.ArrayLike) -> AverageResult:
        """The result for these values.

        >>> AverageResult.of("n", "1", []).mean is None
        True
        """
        total, squares = exact_sums(values)
        return cls(int(np.asarray(values).size), total, squares, label, expression)

    def add(self, values: npt.ArrayLike) -> AverageResult:
        """This result with more values.

        >>> AverageResult.of(None, "x", [4]).add([6]).mean
        Fraction(5, 1)
        """
        return self.merge(AverageResult.of(self.label, self.expression, values))

    def merge(self, other: AverageResult) -> AverageResult:
        """The result of both samples together (exact).

        >>> AverageResult.of("a", "x", [1]).merge(AverageResult.of("b", "x", [1]))
        Traceback (most recent call last):
        ...
        croupier.simulate.stats.StatisticsError: cannot merge 'average a: x' with ...
        """
        _check_same(self, other, ("label", "expression"))
        return replace(
            self,
            count=self.count + other.count,
            sum=self.sum + other.sum,
            sum_squares=self.sum_squares + other.sum_squares,
        )

    def describe(self) -> str:
        """A short name: ``average LABEL: EXPRESSION``.

        >>> AverageResult(label="pts", expression="hcp(north)").describe()
        'average pts: hcp(north)'
        """
        return (
            f"average {self.label}: {self.expression}"
            if self.label
            else f"average {self.expression}"
        )

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (see docs/simulation-output.md).

        >>> AverageResult.of(None, "x", [1, 2])  .to_json()["mean_exact"]
        '3/2'
        """
        return {
            "kind": "average",
            "label": self.label,
            "expression": self.expression,
            **self._moments_json(),
        }


@frozen_dataclass
class FrequencyResult(_Moments):
    """The one-dimensional ``frequency`` action: counts of each value from ``low`` to ``high``.

    ``below`` and ``above`` count the values outside the bounds (dealer's
    ``Low`` and ``High`` rows); ``count``, ``sum`` and ``sum_squares`` cover
    every value, inside the bounds or not.

    >>> f = FrequencyResult.of(None, "x", 1, 3, [0, 1, 1, 3, 9])
    >>> f.below, f.counts, f.above, f.count, f.mean
    (1, (2, 0, 1), 1, 5, Fraction(14, 5))
    """

    label: str | None = None
    expression: str = ""
    low: int = 0
    high: int = 0
    counts: tuple[int, ...] = ()
    below: int = 0
    above: int = 0

    @classmethod
    def of(
        cls, label: str | None, expression: str, low: int, high: int, values: npt.ArrayLike
    ) -> FrequencyResult:
        """The table of these values.

        >>> FrequencyResult.of(None, "x", 2, 1, [])
        Traceback (most recent call last):
        ...
        croupier.simulate.stats.StatisticsError: frequency bounds low=2, high=1: ...

        A table keeps a counter for each value: at most
        :data:`~croupier.simulate.ast.MAX_FREQUENCY_CELLS` of them, refused before any is made.

        >>> FrequencyResult.of(None, "x", 0, 10**9, [])
        Traceback (most recent call last):
        ...
        croupier.simulate.stats.StatisticsError: frequency bounds 0, 1000000000: 1,000,000,001 ...
        """
        if low > high:
            raise StatisticsError(
                f"frequency bounds low={low}, high={high}: the low bound must not be above the high"
            )
        too_large = frequency_size_problem((low, high))
        if too_large:  # refused before a counter is allocated
            raise StatisticsError(too_large)
        v = np.asarray(values, dtype=np.int64).ravel()
        inside = v[(v >= low) & (v <= high)]
        counts = np.bincount(inside - low, minlength=high - low + 1)
        total, squares = exact_sums(v)
        return cls(
            int(v.size),
            total,
            squares,
            label,
            expression,
            low,
            high,
            tuple(int(c) for c in counts),
            int((v < low).sum()),
            int((v > high).sum()),
        )

    @property
    def values(self) -> range:
        """The values of the rows, ``low`` to ``high``.

        >>> list(FrequencyResult(low=2, high=4).values)
        [2, 3, 4]
        """
        return range(self.low, self.high + 1)

    def fraction(self, hits: int) -> Fraction | None:
        """``hits`` as an exact fraction of all values.

        >>> FrequencyResult.of(None, "x", 0, 1, [0, 1, 1]).fraction(2)
        Fraction(2, 3)
        """
        return Fraction(hits, self.count) if self.count else None

    def add(self, values: npt.ArrayLike) -> FrequencyResult:
        """This table with more values.

        >>> FrequencyResult.of(None, "x", 0, 1, [0]).add([1, 5]).counts
        (1, 1)
        """
        more = FrequencyResult.of(self.label, self.expression, self.low, self.high, values)
        return self.merge(more)

    def merge(self, other: FrequencyResult) -> FrequencyResult:
        """Both tables added up (exact).

        >>> a = FrequencyResult.of(None, "x", 0, 2, [0, 2])
        >>> a.merge(FrequencyResult.of(None, "x", 0, 2, [-1, 2])).counts
        (1, 0, 2)
        """
        _check_same(self, other, ("label", "expression", "low", "high"))
        return replace(
            self,
            count=self.count + other.count,
            sum=self.sum + other.sum,
            sum_squares=self.sum_squares + other.sum_squares,
            counts=tuple(a + b for a, b in zip(self.counts, other.counts, strict=True)),
            below=self.below + other.below,
            above=self.above + other.above,
        )

    def rows(self) -> list[tuple[str, int]]:
        """``(row name, count)`` in dealer's order: ``Low`` (if any), each value, ``High`` (if any).

        >>> FrequencyResult.of(None, "x", 0, 1, [5]).rows()
        [('0', 0), ('1', 0), ('High', 1)]
        """
        out = [("Low", self.below)] if self.below else []
        out += [(str(v), c) for v, c in zip(self.values, self.counts, strict=True)]
        return out + ([("High", self.above)] if self.above else [])

    def describe(self) -> str:
        """A short name.

        >>> FrequencyResult(label="f", expression="x", low=0, high=3).describe()
        'frequency f: (x, 0, 3)'
        """
        name = f"frequency {self.label}:" if self.label else "frequency"
        return f"{name} ({self.expression}, {self.low}, {self.high})"

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (see docs/simulation-output.md).

        >>> FrequencyResult.of(None, "x", 0, 1, [1, 1, 3]).to_json()["rows"][1]["count"]
        2
        """
        rows = []
        for name, hits in self.rows():
            ci = wilson_interval(hits, self.count)
            p = self.fraction(hits)
            rows.append(
                {
                    "value": int(name) if name not in ("Low", "High") else name,
                    "count": hits,
                    "fraction": None if p is None else float(p),
                    "se": None if p is None else math.sqrt(p * (1 - p) / self.count),
                    "ci95": None if ci is None else list(ci),
                }
            )
        return {
            "kind": "frequency",
            "label": self.label,
            "expression": self.expression,
            "low": self.low,
            "high": self.high,
            "below": self.below,
            "above": self.above,
            "rows": rows,
            **self._moments_json(),
        }


@frozen_dataclass
class Frequency2DResult:
    """The two-dimensional ``frequency`` action: a joint table with ``Low``/``High`` rows, columns.

    ``counts[i][j]`` is dealer's layout: row 0 counts values of the first
    expression below ``low``, rows 1 to ``high - low + 1`` the values ``low``
    to ``high``, the last row those above ``high``; columns likewise for the
    second expression.

    >>> t = Frequency2DResult.of(None, ("x", "y"), (0, 1), (0, 0), [0, 1, 7], [0, 0, -2])
    >>> t.counts
    ((0, 0, 0), (0, 1, 0), (0, 1, 0), (1, 0, 0))
    """

    label: str | None = None
    expressions: tuple[str, str] = ("", "")
    bounds: tuple[int, int] = (0, 0)
    bounds2: tuple[int, int] = (0, 0)
    counts: tuple[tuple[int, ...], ...] = ()

    @classmethod
    def of(
        cls,
        label: str | None,
        expressions: tuple[str, str],
        bounds: tuple[int, int],
        bounds2: tuple[int, int],
        values: npt.ArrayLike,
        values2: npt.ArrayLike,
    ) -> Frequency2DResult:
        """The joint table of these value pairs.

        >>> Frequency2DResult.of(None, ("x", "y"), (0, 0), (0, 0), [0], [0]).total
        1

        At most :data:`~croupier.simulate.ast.MAX_FREQUENCY2D_CELLS` cells, refused before any
        is made:

        >>> Frequency2DResult.of(None, ("x", "y"), (0, 10**5), (0, 10**5), [], [])
        Traceback (most recent call last):
        ...
        croupier.simulate.stats.StatisticsError: frequency bounds 0, 100000 and 0, 100000: ...
        """
        for lo, hi in (bounds, bounds2):
            if lo > hi:
                raise StatisticsError(
                    f"frequency bounds low={lo}, high={hi}: "
                    "the low bound must not be above the high"
                )
        too_large = frequency_size_problem(bounds, bounds2)
        if too_large:  # refused before a counter is allocated
            raise StatisticsError(too_large)
        (l1, h1), (l2, h2) = bounds, bounds2
        rows, cols = h1 - l1 + 3, h2 - l2 + 3
        v1 = np.asarray(values, dtype=np.int64).ravel()
        v2 = np.asarray(values2, dtype=np.int64).ravel()
        i = np.clip(v1 - l1 + 1, 0, rows - 1)
        j = np.clip(v2 - l2 + 1, 0, cols - 1)
        flat = np.bincount(i * cols + j, minlength=rows * cols).reshape(rows, cols)
        counts = tuple(tuple(int(c) for c in row) for row in flat.tolist())
        return cls(label, expressions, bounds, bounds2, counts)

    @property
    def total(self) -> int:
        """The number of value pairs counted."""
        return sum(sum(row) for row in self.counts)

    @property
    def row_names(self) -> list[str]:
        """``Low``, the first expression's values, ``High``.

        >>> Frequency2DResult(bounds=(3, 4)).row_names
        ['Low', '3', '4', 'High']
        """
        return ["Low", *map(str, range(self.bounds[0], self.bounds[1] + 1)), "High"]

    @property
    def column_names(self) -> list[str]:
        """``Low``, the second expression's values, ``High``."""
        return ["Low", *map(str, range(self.bounds2[0], self.bounds2[1] + 1)), "High"]

    def add(self, values: npt.ArrayLike, values2: npt.ArrayLike) -> Frequency2DResult:
        """This table with more value pairs.

        >>> t = Frequency2DResult.of(None, ("x", "y"), (0, 0), (0, 0), [0], [0])
        >>> t.add([0], [0]).counts[1][1]
        2
        """
        more = Frequency2DResult.of(
            self.label, self.expressions, self.bounds, self.bounds2, values, values2
        )
        return self.merge(more)

    def merge(self, other: Frequency2DResult) -> Frequency2DResult:
        """Both tables added up (exact).

        >>> t = Frequency2DResult.of(None, ("x", "y"), (0, 0), (0, 0), [1], [1])
        >>> t.merge(t).counts[2][2]
        2
        """
        _check_same(self, other, ("label", "expressions", "bounds", "bounds2"))
        counts = tuple(
            tuple(a + b for a, b in zip(r, s, strict=True))
            for r, s in zip(self.counts, other.counts, strict=True)
        )
        return replace(self, counts=counts)

    def describe(self) -> str:
        """A short name.

        >>> Frequency2DResult(None, ("x", "y"), (0, 1), (2, 3)).describe()
        'frequency (x, 0, 1, y, 2, 3)'
        """
        name = f"frequency {self.label}:" if self.label else "frequency"
        (l1, h1), (l2, h2) = self.bounds, self.bounds2
        e1, e2 = self.expressions
        return f"{name} ({e1}, {l1}, {h1}, {e2}, {l2}, {h2})"

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (see docs/simulation-output.md).

        >>> Frequency2DResult.of(None, ("x", "y"), (0, 0), (0, 0), [0], [0]).to_json()["count"]
        1
        """
        return {
            "kind": "frequency2d",
            "label": self.label,
            "expressions": list(self.expressions),
            "low": self.bounds[0],
            "high": self.bounds[1],
            "low2": self.bounds2[0],
            "high2": self.bounds2[1],
            "rows": self.row_names,
            "columns": self.column_names,
            "counts": [list(r) for r in self.counts],
            "count": self.total,
        }


Result: TypeAlias = AverageResult | FrequencyResult | Frequency2DResult
"""One statistics action's result."""


def _fmt(x: float | None, digits: int = 4) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _ci(ci: tuple[float, float] | None, digits: int = 4) -> str:
    return "-" if ci is None else f"{ci[0]:.{digits}f} .. {ci[1]:.{digits}f}"


def _pct(p: Fraction | None) -> str:
    return "-" if p is None else f"{float(p) * 100:.2f}%"


@frozen_dataclass
class Report:
    """The statistics of a run: ``produced`` deals and one result per statistics action, in order.

    >>> a = Report(2, (AverageResult.of(None, "x", [1, 2]),))
    >>> b = Report(1, (AverageResult.of(None, "x", [6]),))
    >>> a.merge(b).results[0].mean, a.merge(b).produced
    (Fraction(3, 1), 3)
    """

    produced: int = 0
    results: tuple[Result, ...] = field(default=())

    def merge(self, other: Report) -> Report:
        """The report of both runs together (exact): e.g. two chunks of one run.

        >>> Report(1, ()).merge(Report(2, (AverageResult(),)))
        Traceback (most recent call last):
        ...
        croupier.simulate.stats.StatisticsError: cannot merge reports of 0 and 1 statistics; ...
        """
        if len(self.results) != len(other.results):
            raise StatisticsError(
                f"cannot merge reports of {len(self.results)} and {len(other.results)} statistics; "
                "merge only reports of the same script"
            )
        merged: list[Result] = []
        for a, b in zip(self.results, other.results, strict=True):
            _check_same(a, b, ())
            merged.append(a.merge(b))  # type: ignore[arg-type]
        return Report(self.produced + other.produced, tuple(merged))

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict ``{"produced": n, "statistics": [...]}`` (docs/simulation-output.md).

        >>> import json
        >>> r = Report(3, (FrequencyResult.of("f", "x", 0, 1, [0, 1, 1]),))
        >>> json.dumps(r.to_json())[:60]
        '{"produced": 3, "statistics": [{"kind": "frequency", "label"'
        """
        return {"produced": self.produced, "statistics": [r.to_json() for r in self.results]}

    def rich_tables(self) -> list[Table]:
        """rich tables: one of the averages, one per frequency (counts, percentages, SE, CI).

        >>> r = Report(3, (AverageResult.of("pts", "x", [1, 2, 6]),))
        >>> [t.title for t in r.rich_tables()]
        ['Averages']
        """
        from rich.table import Table

        tables: list[Table] = []
        averages = [r for r in self.results if isinstance(r, AverageResult)]
        if averages:
            table = Table(title="Averages")
            for name in ("label", "expression", "deals", "mean", "SE", "95% CI"):
                table.add_column(
                    name, justify="left" if name in ("label", "expression") else "right"
                )
            for a in averages:
                mean = a.mean
                table.add_row(
                    a.label or "",
                    a.expression,
                    str(a.count),
                    _fmt(None if mean is None else float(mean)),
                    _fmt(a.se),
                    _ci(a.ci95),
                )
            tables.append(table)
        for r in self.results:
            if isinstance(r, FrequencyResult):
                tables.append(_frequency_table(r))
            elif isinstance(r, Frequency2DResult):
                tables.append(_frequency2d_table(r))
        return tables

    def text(self) -> str:
        """The statistics as plain text (croupier's own layout, with SE and confidence intervals).

        >>> print(Report(2, (AverageResult.of("pts", "x", [1, 2]),)).text())
        pts: mean 1.5000, SE 0.5000, 95% CI 0.5200 .. 2.4800 (2 deals)
        """
        lines: list[str] = []
        for r in self.results:
            if isinstance(r, AverageResult):
                mean = None if r.mean is None else float(r.mean)
                lines.append(
                    f"{r.label or r.expression}: mean {_fmt(mean)}, SE {_fmt(r.se)}, "
                    f"95% CI {_ci(r.ci95)} ({r.count} deals)"
                )
            elif isinstance(r, FrequencyResult):
                mean = None if r.mean is None else float(r.mean)
                lines.append(
                    f"{r.label or r.expression}: {r.count} deals, "
                    f"mean {_fmt(mean)}, SE {_fmt(r.se)}"
                )
                for name, hits in r.rows():
                    lines.append(
                        f"  {name:>5} {hits:>10} {_pct(r.fraction(hits)):>8}  "
                        f"95% CI {_ci(wilson_interval(hits, r.count))}"
                    )
            else:
                lines.append(f"{r.label or ' x '.join(r.expressions)}: {r.total} deals")
                width = max(6, *(len(n) for n in r.column_names + r.row_names))
                lines.append(" " * width + "".join(f" {c:>{width}}" for c in r.column_names))
                for name, row in zip(r.row_names, r.counts, strict=True):
                    lines.append(f"{name:>{width}}" + "".join(f" {c:>{width}}" for c in row))
        return "\n".join(lines)


def _frequency_table(r: FrequencyResult) -> Table:
    from rich.table import Table

    mean = None if r.mean is None else float(r.mean)
    table = Table(
        title=f"{r.describe()}",
        caption=f"{r.count} deals, mean {_fmt(mean)}, SE {_fmt(r.se)}, 95% CI {_ci(r.ci95)}",
    )
    for name in ("value", "count", "percent", "SE", "95% CI"):
        table.add_column(name, justify="right")
    for name, hits in r.rows():
        p = r.fraction(hits)
        se = None if p is None else math.sqrt(p * (1 - p) / r.count) * 100
        ci = wilson_interval(hits, r.count)
        shown = None if ci is None else (ci[0] * 100, ci[1] * 100)
        table.add_row(name, str(hits), _pct(p), _fmt(se, 2), _ci(shown, 2))
    return table


def _frequency2d_table(r: Frequency2DResult) -> Table:
    from rich.table import Table

    table = Table(title=r.describe(), caption=f"{r.total} deals")
    table.add_column(f"{r.expressions[0]} \\ {r.expressions[1]}", justify="right")
    for name in (*r.column_names, "Sum"):
        table.add_column(name, justify="right")
    for name, row in zip(r.row_names, r.counts, strict=True):
        table.add_row(name, *map(str, row), str(sum(row)))
    sums = [sum(col) for col in zip(*r.counts, strict=True)]
    table.add_row("Sum", *map(str, sums), str(r.total))
    return table


def frequency_panels(report: Report) -> list[BarPanel]:
    """The report's one-dimensional frequency tables as bar-chart panels (share and 95%
    Wilson interval of every row), for :func:`croupier.analysis.plots.plot_bars`.

    >>> r = Report(4, (FrequencyResult.of("sp", "spades(north)", 0, 1, [0, 1, 1, 1]),))
    >>> [(p.title, list(p.names), [round(x, 2) for x in p.shares]) for p in frequency_panels(r)]
    [('sp', ['0', '1'], [0.25, 0.75])]
    """
    from croupier.analysis.plots import BarPanel

    panels = []
    for result in report.results:
        # by kind, not class: the same answer for results of a re-imported module
        if result.to_json()["kind"] != "frequency":
            continue
        table = cast(FrequencyResult, result)
        rows = table.rows()
        panels.append(
            BarPanel(
                table.label or table.expression,
                table.expression,
                [name for name, _ in rows],
                [float(table.fraction(hits) or 0) for _, hits in rows],
                [wilson_interval(hits, table.count) or (0.0, 0.0) for _, hits in rows],
            )
        )
    return panels


def plot_frequency(result: FrequencyResult, ax: Any = None) -> Any:
    """A bar chart of a frequency table with 95% Wilson intervals (needs matplotlib).

    Returns the matplotlib ``Axes``.  Without matplotlib installed it raises
    :class:`~croupier.errors.MissingExtraError` naming the extra to install.

    >>> import importlib.util
    >>> table = FrequencyResult.of("hcp", "hcp(north)", 0, 3, [0, 1, 1, 3])
    >>> if importlib.util.find_spec("matplotlib"):
    ...     import matplotlib
    ...     matplotlib.use("Agg")
    ...     heights = [float(b.get_height()) for b in plot_frequency(table).patches]
    ... else:  # without matplotlib: MissingExtraError naming croupier[analysis]
    ...     heights = [0.25, 0.5, 0.0, 0.25]
    >>> heights
    [0.25, 0.5, 0.0, 0.25]
    """
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise MissingExtraError(
            "plot_frequency needs matplotlib: pip install 'croupier[analysis]'"
        ) from exc
    if ax is None:
        _, ax = plt.subplots()
    names = [name for name, _ in result.rows()]
    heights = [float(result.fraction(h) or 0) for _, h in result.rows()]
    intervals = [wilson_interval(h, result.count) or (0.0, 0.0) for _, h in result.rows()]
    errors = [
        [max(0.0, p - lo) for p, (lo, _) in zip(heights, intervals, strict=True)],
        [max(0.0, hi - p) for p, (_, hi) in zip(heights, intervals, strict=True)],
    ]
    ax.bar(names, heights, yerr=errors, capsize=3)
    ax.set_title(result.label or result.expression)
    ax.set_xlabel(result.expression)
    ax.set_ylabel("fraction of deals")
    return ax


def merge_reports(reports: Iterable[Report]) -> Report:
    """All reports merged, in order (exact).

    >>> r = Report(1, (AverageResult.of(None, "x", [2]),))
    >>> merge_reports([r, r, r]).results[0].sum
    6
    """
    items = list(reports)
    if not items:
        raise StatisticsError("merge_reports() needs at least one report; got none")
    out = items[0]
    for more in items[1:]:
        out = out.merge(more)
    return out
