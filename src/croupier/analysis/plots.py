"""Pictures of fairness: heatmaps, distance curves and randomness budgets.

matplotlib (the ``analysis`` extra) is imported only here, with the
non-interactive Agg backend.  Every function writes one file — PNG or SVG,
chosen by the file name — atomically (a temporary file in the same folder,
then a rename), with fixed metadata so the same data give the same SVG bytes,
and never over an existing file unless ``overwrite=True``.

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
from typing import Any

from croupier.analysis.stats import require
from croupier.errors import RangeError

__all__ = ["check_plot_path", "plot_bits", "plot_curves", "plot_heatmap"]

_FORMATS = {".png": "png", ".svg": "svg"}


def _pyplot() -> Any:
    matplotlib = require("matplotlib")
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.fonttype"] = "none"
    matplotlib.rcParams["svg.hashsalt"] = "croupier"
    return require("matplotlib.pyplot")


def check_plot_path(path: str | os.PathLike[str], *, overwrite: bool = False) -> Path:
    """Refuse a plot file name before any work: wrong suffix, missing folder, or taken.

    >>> check_plot_path("tv.gif")
    Traceback (most recent call last):
    ...
    croupier.errors.RangeError: plot file 'tv.gif' must end in .png or .svg
    """
    from croupier.tournament.files import check_new_files

    target = Path(path)
    if target.suffix.lower() not in _FORMATS:
        raise RangeError(f"plot file {str(target)!r} must end in .png or .svg")
    check_new_files([target], overwrite=overwrite)
    return target


def _save(fig: Any, path: str | os.PathLike[str], overwrite: bool) -> Path:
    from croupier.tournament.files import write_file

    try:
        target = check_plot_path(path, overwrite=overwrite)
        fmt = _FORMATS[target.suffix.lower()]
        metadata: dict[str, Any] = {"Date": None} if fmt == "svg" else {"Software": None}
        buffer = io.BytesIO()
        fig.savefig(buffer, format=fmt, dpi=100, metadata=metadata, bbox_inches="tight")
    finally:
        require("matplotlib.pyplot").close(fig)
    write_file(target, buffer.getvalue(), overwrite=overwrite)
    return target


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
    np = require("numpy")
    plt = _pyplot()
    data = np.asarray(matrix, dtype=float)
    if data.ndim != 2 or min(data.shape) < 1 or data.sum() <= 0:
        raise RangeError(f"heatmap needs a non-empty matrix of counts, got shape {data.shape}")
    # what a fair method gives each cell: row share times column share
    expected = np.outer(data.sum(axis=1), data.sum(axis=0)) / data.sum()
    rel = data / np.where(expected > 0, expected, 1)
    spread = max(0.05, float(np.abs(rel - 1.0).max()))
    fig, ax = plt.subplots(figsize=(5.2, 4.4))
    image = ax.imshow(
        rel, cmap="RdBu_r", vmin=1.0 - spread, vmax=1.0 + spread, interpolation="nearest"
    )
    ax.set_xlabel(xlabel)
    ax.set_ylabel("card (starting position)")
    if title:
        ax.set_title(title, fontsize=10)
    fig.colorbar(image, ax=ax, label=f"{label} (1 = fair)")
    return _save(fig, path, overwrite)


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
    plt = _pyplot()
    if not series:
        raise RangeError("no curves to plot")
    fig, ax = plt.subplots(figsize=(6.0, 3.8))
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
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.0, 3.8))
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
