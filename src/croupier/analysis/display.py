"""Analysis results as HTML for notebooks: a summary table and an inline SVG plot.

Each result type of :mod:`croupier.analysis` — exact reports, repeated
shuffling (Markov chain) reports, riffle mixing curves and Monte Carlo
reports — renders as a table of what ``croupier analyze`` prints, followed by
its plot (the same figure ``--plot`` draws, from :mod:`croupier.analysis.plots`)
inlined as SVG.  matplotlib belongs to the optional ``analysis`` extra; without
it the table comes alone, with a note saying how to get the plot.  Rendering
is pure: the same result gives the same HTML, with no randomness and no files.

>>> from croupier.analysis.run import exact_report
>>> page = exact_html(exact_report("swap-any", 3), plot=False)
>>> "1/18" in page, "biased" in page
(True, True)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from croupier.analysis.exact import ExactAnalysis
from croupier.analysis.markov import ChainLimit
from croupier.analysis.mixing import MixingPoint, format_probability
from croupier.analysis.run import MonteCarloReport, RepeatReport
from croupier.analysis.stats import TestResult
from croupier.errors import MissingExtraError
from croupier.html import escape, table_html

__all__ = [
    "exact_html",
    "mixing_curve_html",
    "monte_carlo_html",
    "plot_html",
    "repeat_html",
]

NO_PLOT_NOTE = (
    '<p class="croupier-note"><i>No plot: matplotlib is not installed'
    " (pip install 'croupier[analysis]').</i></p>"
)
"""What stands in for the plot when the ``analysis`` extra is missing."""

_MAX_FRACTION_CHARS = 40  # longer exact fractions are shown as decimals only
_HEAD, _TAIL = 15, 5  # long curves: the first and last rows of the table


def plot_html(build: Callable[[], Any]) -> str:
    """The figure ``build()`` returns as inline SVG in a ``<div>``, or a note without matplotlib.

    ``build`` is called only here, so no matplotlib work happens without it.

    >>> from croupier.analysis.plots import curves_figure
    >>> html = plot_html(lambda: curves_figure({"a": [(1, 0.5)]}))
    >>> html.startswith('<div class="croupier-plot"><svg'), html.endswith("</div>")
    (True, True)
    """
    from croupier.analysis.plots import figure_svg

    try:
        svg = figure_svg(build())
    except MissingExtraError:
        return NO_PLOT_NOTE
    return f'<div class="croupier-plot">{svg}</div>'


def _probability(value: Fraction | float) -> str:
    """An exact fraction with its decimal (the decimal alone when the fraction is long)."""
    exact = Fraction(value)
    approx = escape(format_probability(exact))
    if isinstance(value, float):
        return approx
    text = escape(exact)
    if text == approx or len(text) > _MAX_FRACTION_CHARS:
        return approx
    return f"{text} ≈ {approx}"


def _page(kind: str, table: str, plot: str) -> str:
    return f'<div class="croupier-{kind}">{table}{plot}</div>'


def _rows(items: Sequence[tuple[str, str]]) -> list[list[str]]:
    """Key/value rows: the key is text (escaped here), the value HTML."""
    return [[f"<b>{escape(key)}</b>", value] for key, value in items]


def exact_html(report: ExactAnalysis, *, plot: bool = True) -> str:
    """An exact report: outcomes, distance to uniform, verdict, findings; card heatmap.

    >>> from croupier.analysis.run import exact_report
    >>> page = exact_html(exact_report("fisher-yates", 3), plot=False)
    >>> "exactly uniform" in page, "6 of 6" in page
    (True, True)
    """
    r = report
    items: list[tuple[str, str]] = [("method", escape(r.name)), ("cards", str(r.cards))]
    if r.hands is not None:
        items.append(("hands", escape("-".join(map(str, r.hands)))))
    items += [
        ("engine", escape(r.engine)),
        ("reachable outcomes", f"{r.reachable:,} of {r.space:,}"),
    ]
    if r.unfinished:
        low, high = r.tv_bounds
        items += [
            ("cut-off paths", f"probability {_probability(r.unfinished)}"),
            ("total variation", f"between {_probability(low)} and {_probability(high)}"),
        ]
    else:
        items.append(("total variation", _probability(r.tv)))
        if not r.uniform:
            items += [
                (
                    "most likely",
                    f"{_probability(r.max_probability)} "
                    f"({float(r.max_probability * r.space):.6g} × fair)",
                ),
                (
                    "least likely",
                    f"{_probability(r.min_probability)} "
                    f"({float(r.min_probability * r.space):.6g} × fair)",
                ),
            ]
    if r.parity is not None:
        items.append(("parity", escape(r.parity)))
    findings = r.obstructions()
    if findings:
        items.append(("findings", "<br>".join(escape(f) for f in findings)))
    verdict = "exactly uniform" if r.uniform else r.verdict
    items.append(("verdict", f"<b>{escape(verdict)}</b>"))
    caption = f"{r.name} on {r.cards} cards: exact distribution"
    table = table_html(_rows(items), caption=caption, kind="table")
    shown = ""
    if plot and (r.kind == "arrangement" or r.hands is not None):
        from croupier.analysis.plots import heatmap_figure

        matrix = r.position_matrix() if r.hands is None else r.hand_matrix()
        floats = [[float(p) for p in row] for row in matrix]
        shown = plot_html(
            lambda: heatmap_figure(
                floats,
                title=f"{r.name}, {r.cards} cards: exact (TV {float(r.tv):.4f})",
                xlabel="position after shuffling (0 = top)" if r.hands is None else "hand",
            )
        )
    return _page("analysis", table, shown)


def _curve_rows(rows: list[list[str]]) -> list[list[str]]:
    """At most ``_HEAD + _TAIL + 1`` rows: the first and the last, ``…`` between."""
    if len(rows) <= _HEAD + _TAIL + 1:
        return rows
    gap = ["…"] + [""] * (len(rows[0]) - 1)
    return [*rows[:_HEAD], gap, *rows[-_TAIL:]]


def _limit_items(limit: ChainLimit, space: int) -> list[tuple[str, str]]:
    items = [("reachable at all", f"{limit.group:,} of {space:,} arrangements")]
    if limit.period > 1:
        items.append(
            (
                "periodic",
                f"the deck alternates among {limit.period} classes of {limit.spread:,}"
                " arrangements",
            )
        )
    items.append(("limit of TV", _probability(limit.tv)))
    return items


def repeat_html(report: RepeatReport, *, plot: bool = True) -> str:
    """A repeated-shuffling report: TV after each repetition, where it ends up; the curve.

    Long curves show their first 15 and last 5 rows (the plot shows every point).

    >>> from croupier.analysis.run import repeat_report
    >>> page = repeat_html(repeat_report("sattolo-mistake", 4, 30), plot=False)
    >>> page.count("<tr>") < 30, "periodic" in page
    (True, True)
    """
    r = report
    kind = "exact" if r.exact else "floating point"
    items = [("method", escape(r.name)), ("cards", str(r.cards)), ("arithmetic", kind)]
    items += _limit_items(r.limit, math.factorial(r.cards))
    if r.stops_at is None:
        items.append(("stops falling", f"not within {len(r.curve)} repetitions"))
    else:
        items.append(("stops falling", f"at {r.stops_at} repetitions (within 1e-6 of its limit)"))
    summary = table_html(_rows(items), caption=f"{r.name} repeated on {r.cards} cards")
    curve = [[str(m), _probability(tv)] for m, tv in enumerate(r.curve, start=1)]
    table = table_html(_curve_rows(curve), header=["repetitions", "TV to uniform"])
    shown = ""
    if plot:
        from croupier.analysis.plots import curves_figure

        points = [(float(m), float(tv)) for m, tv in enumerate(r.curve, start=1)]
        shown = plot_html(
            lambda: curves_figure(
                {r.name: points},
                xlabel="repetitions",
                title=f"repeated shuffling of {r.cards} cards ({kind})",
            )
        )
    return _page("analysis", summary + table, shown)


def mixing_curve_html(
    points: Sequence[MixingPoint], *, cards: int | None = None, base: int = 2, plot: bool = True
) -> str:
    """Riffle mixing: total variation and separation after each number of riffles; the curves.

    >>> from croupier.analysis.mixing import riffle_mixing_curve
    >>> page = mixing_curve_html(riffle_mixing_curve(52, 10), cards=52, plot=False)
    >>> "TV below 1/2 after 7 riffles" in page
    True
    """
    deck = "" if cards is None else f" of {cards} cards"
    rows = [[str(p.shuffles), _probability(p.tv), _probability(p.separation)] for p in points]
    table = table_html(
        _curve_rows(rows),
        header=["riffles", "total variation", "separation"],
        caption=f"GSR riffles{deck} ({base} packets each), exact",
    )
    below = next((p.shuffles for p in points if p.tv < Fraction(1, 2)), None)
    note = (
        f'<p class="croupier-note">TV below 1/2 after {below} riffles.</p>'
        if below is not None
        else f'<p class="croupier-note">TV still at least 1/2 after {len(points)} riffles.</p>'
    )
    shown = ""
    if plot and points:
        from croupier.analysis.plots import curves_figure

        series = {
            "total variation": [(float(p.shuffles), float(p.tv)) for p in points],
            "separation": [(float(p.shuffles), float(p.separation)) for p in points],
        }
        shown = plot_html(
            lambda: curves_figure(
                series,
                xlabel="riffles",
                ylabel="distance to uniform",
                title=f"GSR riffles{deck} (exact)",
                reference=0.5,
            )
        )
    return _page("analysis", table + note, shown)


def _test_row(what: str, t: TestResult) -> list[str]:
    return [escape(what), escape(t.name), f"{t.statistic:.1f}", str(t.df), escape(t.verdict())]


def monte_carlo_html(report: MonteCarloReport, *, plot: bool = True) -> str:
    """A Monte Carlo report: the run, bits used against the bound, every test; count heatmap.

    >>> from croupier.analysis.run import monte_carlo
    >>> from croupier.randomness import SeededSource
    >>> report = monte_carlo("fisher-yates", 5, 200, SeededSource("doc"))
    >>> page = monte_carlo_html(report, plot=False)
    >>> page.count("chi-square"), "200" in page
    (1, True)
    """
    r = report
    what = "card x position" if r.kind == "arrangement" else "card x hand"
    items = [
        ("method", escape(r.name)),
        ("cards", str(r.cards)),
        ("trials", f"{r.trials:,}"),
        ("source", escape(r.source)),
        (
            "random bits per trial",
            f"{r.bits_per_trial:.2f} (bound log2(outcomes) = {r.bound_bits:.2f})",
        ),
    ]
    if r.min_expected < 5:
        items.append(
            (
                "note",
                f"expected counts as low as {r.min_expected:.2g} (below 5): the p-values"
                " are rough; use more trials",
            )
        )
    summary = table_html(_rows(items), caption=f"{r.name} on {r.cards} cards: Monte Carlo")
    tests = [_test_row(what, t) for t in (r.chi_square, r.g_test)]
    tests += [_test_row(g.game, t) for g in r.games for t in (g.chi_square, g.g_test)]
    table = table_html(tests, header=["counts", "test", "statistic", "df", "verdict"])
    shown = ""
    if plot:
        from croupier.analysis.plots import heatmap_figure

        counts = r.counts
        shown = plot_html(
            lambda: heatmap_figure(
                counts,
                title=f"{r.name}, {r.cards} cards: {r.trials} trials",
                label="frequency x n",
                xlabel="position after shuffling (0 = top)" if r.kind == "arrangement" else "hand",
            )
        )
    return _page("analysis", summary + table, shown)
