"""Pictures of fairness: heatmaps, distance curves and randomness budgets.

matplotlib (the ``analysis`` extra) is imported only here.  Figures are
built without pyplot (so a notebook's own matplotlib backend is left alone)
by the ``*_figure`` functions; :func:`figure_svg` renders one as inline SVG
text (what notebooks display).  Every ``plot_*`` function writes one file —
PNG or SVG, chosen by the file name — atomically (a temporary file in the
same folder, then a rename), with fixed metadata so the same data give the
same SVG bytes, and never over an existing file unless ``overwrite=True``.

>>> import tempfile, os
>>> with tempfile.TemporaryDirectory() as d:
...     path = os.path.join(d, "tv.svg")
...     _ = plot_curves({"riffle": [(1, 1.0), (2, 0.5)]}, path, xlabel="riffles")
...     os.path.getsize(path) > 0
True
"""

from __future__ import annotations

import io
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from croupier.analysis.stats import require
from croupier.errors import RangeError

__all__ = [
    "BarPanel",
    "bars_figure",
    "check_plot_path",
    "curves_figure",
    "figure_svg",
    "heatmap_figure",
    "plot_bars",
    "plot_bits",
    "plot_curves",
    "plot_heatmap",
]

_FORMATS = {".png": "png", ".svg": "svg"}

# Text stays text in SVG output, and element ids are derived from a fixed salt,
# so the same figure always gives the same bytes.
_RENDER_RC = {"svg.fonttype": "none", "svg.hashsalt": "croupier"}


def _new_figure(width: float, height: float) -> tuple[Any, Any]:
    """A matplotlib ``Figure`` with one axes, made without pyplot (no global backend)."""
    figure = require("matplotlib.figure")
    fig = figure.Figure(figsize=(width, height))
    return fig, fig.subplots()


def _render(fig: Any, fmt: str) -> bytes:
    matplotlib = require("matplotlib")
    metadata: dict[str, Any] = {"Date": None} if fmt == "svg" else {"Software": None}
    buffer = io.BytesIO()
    with matplotlib.rc_context(_RENDER_RC):
        fig.savefig(buffer, format=fmt, dpi=100, metadata=metadata, bbox_inches="tight")
    return buffer.getvalue()


def figure_svg(fig: Any) -> str:
    """``fig`` as SVG text to inline in HTML (the XML prolog left out); same figure, same text.

    >>> svg = figure_svg(curves_figure({"a": [(1, 0.5), (2, 0.25)]}))
    >>> svg.startswith("<svg"), svg.rstrip().endswith("</svg>")
    (True, True)
    """
    text = _render(fig, "svg").decode("utf-8")
    return text[text.index("<svg") :]


def check_plot_path(path: str | os.PathLike[str], *, overwrite: bool = False) -> Path:
    """Refuse a plot file name before any work: wrong suffix, missing folder, or taken.

    >>> check_plot_path("tv.gif")
    Traceback (most recent call last):
    ...
    croupier.errors.RangeError: plot file 'tv.gif' must end in .png or .svg
    """
    from croupier.files import check_new_files

    target = Path(path)
    if target.suffix.lower() not in _FORMATS:
        raise RangeError(f"plot file {str(target)!r} must end in .png or .svg")
    check_new_files([target], overwrite=overwrite)
    return target


def _save(fig: Any, path: str | os.PathLike[str], overwrite: bool) -> Path:
    from croupier.files import write_file

    target = check_plot_path(path, overwrite=overwrite)
    data = _render(fig, _FORMATS[target.suffix.lower()])
    write_file(target, data, overwrite=overwrite)
    return target


def heatmap_figure(
    matrix: Any,
    *,
    title: str = "",
    label: str = "probability x n",
    xlabel: str = "position after shuffling (0 = top)",
) -> Any:
    """The figure of :func:`plot_heatmap` (a matplotlib ``Figure``), not written anywhere.

    >>> heatmap_figure([[1, 0], [0, 1]]).axes[0].get_ylabel()
    'card (starting position)'
    """
    np = require("numpy")
    data = np.asarray(matrix, dtype=float)
    if data.ndim != 2 or min(data.shape) < 1 or data.sum() <= 0:
        raise RangeError(f"heatmap needs a non-empty matrix of counts, got shape {data.shape}")
    # what a fair method gives each cell: row share times column share
    expected = np.outer(data.sum(axis=1), data.sum(axis=0)) / data.sum()
    rel = data / np.where(expected > 0, expected, 1)
    spread = max(0.05, float(np.abs(rel - 1.0).max()))
    fig, ax = _new_figure(5.2, 4.4)
    image = ax.imshow(
        rel, cmap="RdBu_r", vmin=1.0 - spread, vmax=1.0 + spread, interpolation="nearest"
    )
    ax.set_xlabel(xlabel)
    ax.set_ylabel("card (starting position)")
    if title:
        ax.set_title(title, fontsize=10)
    fig.colorbar(image, ax=ax, label=f"{label} (1 = fair)")
    return fig


def plot_heatmap(
    matrix: Any,
    path: str | os.PathLike[str],
    *,
    title: str = "",
    label: str = "probability x n",
    xlabel: str = "position after shuffling (0 = top)",
    overwrite: bool = False,
) -> Path:
    """Card x position (or card x hand) heatmap of ``matrix``.

    Values are shown relative to a fair shuffle (1 everywhere: white), on a
    colour scale symmetric around 1 (red: more likely than fair, blue: less).
    Pass probabilities or frequencies.

    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = plot_heatmap([[0.5, 0.5], [0.5, 0.5]], os.path.join(d, "h.png"), title="fair")
    ...     p.suffix
    '.png'
    """
    fig = heatmap_figure(matrix, title=title, label=label, xlabel=xlabel)
    return _save(fig, path, overwrite)


def curves_figure(
    series: Mapping[str, Sequence[tuple[float, float]]],
    *,
    xlabel: str = "repetitions",
    ylabel: str = "total variation distance to uniform",
    title: str = "",
    log: bool = False,
    reference: float | None = None,
) -> Any:
    """The figure of :func:`plot_curves` (a matplotlib ``Figure``), not written anywhere.

    >>> [line.get_label() for line in curves_figure({"a": [(1, 0.9)]}).axes[0].get_lines()]
    ['a']
    """
    if not series:
        raise RangeError("no curves to plot")
    fig, ax = _new_figure(6.0, 3.8)
    for name, points in series.items():
        xs = [x for x, _ in points]
        ys = [y for _, y in points]
        ax.plot(xs, ys, marker="o", markersize=3, label=name)
    if reference is not None:
        ax.axhline(reference, color="grey", linestyle="--", linewidth=0.8)
    if log:
        ax.set_yscale("log")
    else:
        ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title, fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return fig


def plot_curves(
    series: Mapping[str, Sequence[tuple[float, float]]],
    path: str | os.PathLike[str],
    *,
    xlabel: str = "repetitions",
    ylabel: str = "total variation distance to uniform",
    title: str = "",
    log: bool = False,
    reference: float | None = None,
    overwrite: bool = False,
) -> Path:
    """Distance-to-uniform curves, one line per series of ``(x, y)`` points.

    ``reference`` draws a dashed horizontal line (e.g. 0.5); ``log`` a log y axis.

    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = plot_curves({"a": [(1, 0.9), (2, 0.1)]}, os.path.join(d, "c.svg"), log=True)
    ...     p.name
    'c.svg'
    """
    fig = curves_figure(
        series, xlabel=xlabel, ylabel=ylabel, title=title, log=log, reference=reference
    )
    return _save(fig, path, overwrite)


def plot_bits(
    series: Mapping[str, Sequence[tuple[float, float]]],
    bound: Sequence[tuple[float, float]],
    path: str | os.PathLike[str],
    *,
    title: str = "",
    xlabel: str = "cards",
    overwrite: bool = False,
) -> Path:
    """Random bits used (per shuffle, averaged) against the information bound.

    ``bound`` is the ``(cards, log2(number of outcomes))`` line no fair
    method can beat on average.

    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = plot_bits({"m": [(4, 5.0)]}, [(4, 4.58)], os.path.join(d, "b.svg"))
    ...     p.exists()
    True
    """
    fig, ax = _new_figure(6.0, 3.8)
    ax.plot(
        [x for x, _ in bound],
        [y for _, y in bound],
        color="black",
        linestyle="--",
        label="bound: log2(outcomes)",
    )
    for name, points in series.items():
        ax.plot(
            [x for x, _ in points], [y for _, y in points], marker="o", markersize=3, label=name
        )
    ax.set_xlabel(xlabel)
    ax.set_ylabel("random bits per shuffle")
    if title:
        ax.set_title(title, fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return _save(fig, path, overwrite)


class BarPanel(NamedTuple):
    """One bar chart: a title, the x-axis label, and per bar its name, share and interval."""

    title: str
    xlabel: str
    names: Sequence[str]
    shares: Sequence[float]
    intervals: Sequence[tuple[float, float]]


def bars_figure(panels: Sequence[BarPanel]) -> Any:
    """One bar chart per panel, stacked vertically, each bar with its interval as error bars.

    >>> fig = bars_figure([BarPanel("hcp", "hcp(north)", ["0", "1"], [0.25, 0.75],
    ...                             [(0.1, 0.4), (0.6, 0.9)])])
    >>> [round(float(b.get_height()), 2) for b in fig.axes[0].patches]
    [0.25, 0.75]
    """
    if not panels:
        raise RangeError("no frequency tables to plot")
    figure = require("matplotlib.figure")
    fig = figure.Figure(figsize=(6.0, 2.8 * len(panels)))
    axes = fig.subplots(len(panels), 1, squeeze=False)[:, 0]
    for ax, panel in zip(axes, panels, strict=True):
        below = [max(0.0, p - lo) for p, (lo, _) in zip(panel.shares, panel.intervals, strict=True)]
        above = [max(0.0, hi - p) for p, (_, hi) in zip(panel.shares, panel.intervals, strict=True)]
        ax.bar(list(panel.names), list(panel.shares), yerr=[below, above], capsize=2)
        ax.set_title(panel.title, fontsize=10)
        ax.set_xlabel(panel.xlabel)
        ax.set_ylabel("share of deals")
        ax.grid(True, axis="y", alpha=0.3)
    fig.tight_layout()
    return fig


def plot_bars(
    panels: Sequence[BarPanel], path: str | os.PathLike[str], *, overwrite: bool = False
) -> Path:
    """Write :func:`bars_figure` to ``path`` (``.png`` or ``.svg``, atomically).

    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as d:
    ...     panel = BarPanel("t", "x", ["a"], [1.0], [(0.9, 1.0)])
    ...     p = plot_bars([panel], os.path.join(d, "f.svg"))
    ...     p.exists()
    True
    """
    return _save(bars_figure(panels), path, overwrite)
