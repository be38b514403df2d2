"""``croupier analyze`` and ``croupier mixing``: how fair is a shuffle or a deal?

Two module-level Typer apps: :data:`app` holds ``analyze``, :data:`mixing_app`
is the ``mixing`` command group (``croupier mixing riffle``).  Method names
come from :func:`croupier.analysis.methods.analysis_methods` (``--list``), the
exact engines from :data:`croupier.analysis.run.RouteChoice`; the analysis
itself is :mod:`croupier.analysis` (scipy and matplotlib are imported there,
only when a test or a plot needs them).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Annotated, Any

import typer

from croupier.analysis.methods import UnknownMethodError, analysis_methods, get_analysis_method
from croupier.analysis.mixing import format_probability, riffle_mixing_curve, riffles_needed
from croupier.analysis.plots import check_plot_path, plot_bits, plot_curves, plot_heatmap
from croupier.analysis.run import (
    MAX_BITS_CARDS,
    MONTE_CARLO_ID,
    MonteCarloReport,
    RepeatReport,
    RouteChoice,
    bits_profile,
    exact_report,
    monte_carlo,
    repeat_report,
)
from croupier.cli.options import JsonOpt, OverwriteOpt, QuietOpt, SeedOpt, option
from croupier.errors import RangeError, bounded_decimal, excerpt
from croupier.formats.envelope import envelope_json
from croupier.randomness import resolve_source
from croupier.randomness.purposes import analyze_purpose
from croupier.randomness.source import SourceKind
from croupier.ranking.partitions import decimal, short_int

__all__ = ["analyze_command", "app", "fraction_text", "mixing_app", "parse_hands", "riffle_command"]

app = typer.Typer(add_completion=False, rich_markup_mode=None)

MIXING_GROUP_HELP = """\
Exact mixing of riffle shuffles.

\b
Examples:
  croupier mixing riffle --cards 52
"""

mixing_app = typer.Typer(
    help=MIXING_GROUP_HELP, no_args_is_help=True, add_completion=False, rich_markup_mode=None
)

ANALYZE_HELP = """\
Measure how fair a shuffle or deal method is.

\b
Modes:
  exact (default up to 9 cards, or --exact): the exact probability of every
    outcome, total variation distance (TV) to uniform, reachable outcomes,
    likeliest/least likely outcomes and obstructions such as fixed parity;
  --repeat M: shuffle again and again; exact TV after 1..M repetitions and
    where it stops falling (up to 7 cards);
  --trials T: Monte Carlo on up to 10,000 cards: card x position chi-square and
    G-tests, and with 52 cards bridge suit-pattern and poker-category tests;
  --bits: random bits used per shuffle against the log2(n!) bound, for deck
    sizes up to --cards (at most 10,000).

METHOD is a name from --list (several, comma-separated, for --repeat and
--bits).  Deal methods (deal:NAME) deal --hands (default four equal hands).

\b
Examples:
  croupier analyze --list
  croupier analyze swap-any --cards 3
  croupier analyze deal:open-players --cards 8 --json
  croupier analyze riffle,overhand --cards 6 --repeat 20 --plot tv.svg
  croupier analyze riffle7 --cards 52 --trials 20000 --seed lab --plot heat.png
  croupier analyze lehmer,fisher-yates,merge-shuffle --bits --cards 52 --seed b
"""

MIXING_HELP = """\
Exact distance to uniform after k Gilbert–Shannon–Reeds riffles of N cards.

Total variation and separation come from the rising-sequence formula
(Bayer–Diaconis) as exact fractions, for up to 2,000 cards, 200 riffles and
1,000,000 packets, with riffles² x cards² x log2(packets) at most 2,000,000,000
(52 cards: up to 200 riffles; 2,000 cards: up to 22).

\b
Examples:
  croupier mixing riffle --cards 52
  croupier mixing riffle --cards 52 --max 12 --json
  croupier mixing riffle --cards 104 --plot riffles.svg
"""

#: Headings of ``analyze --list``, by method group, in the order they are listed.
_GROUP_TITLES = {
    "fair": "fair shuffles",
    "model": "models of human shuffles",
    "flawed": "flawed methods (for study)",
    "deal": "deal methods",
}

PlotOpt = Annotated[str | None, typer.Option("--plot", help="Write a figure (.png or .svg).")]


def parse_hands(spec: str | None, cards: int) -> tuple[int, ...] | None:
    """``--hands``: a number of equal hands (``4``) or sizes (``3,3,2``).

    >>> parse_hands("4", 8), parse_hands("3,3,2", 8), parse_hands(None, 8)
    ((2, 2, 2, 2), (3, 3, 2), None)
    """
    if spec is None:
        return None
    values = [bounded_decimal(x, 9) for x in spec.replace(" ", "").split(",") if x]
    parts = [v for v in values if v is not None]
    if len(parts) != len(values):
        raise RangeError(f"--hands {excerpt(spec)} is not a count or sizes like '4' or '3,3,2'")
    if len(parts) == 1:
        players = parts[0]
        if players < 1 or cards % players:
            raise RangeError(
                f"--hands {excerpt(spec)}: {cards} cards do not split into {players} equal hands;"
                " give sizes such as '3,3,2'"
            )
        return (cards // players,) * players
    if not parts or any(k < 0 for k in parts) or sum(parts) != cards:
        raise RangeError(f"--hands {excerpt(spec)} must be sizes adding up to {cards} cards")
    return tuple(parts)


def fraction_text(value: Fraction) -> str:
    """``str(value)`` (``"1/3"``, ``"0"``) for fractions of any size.

    Python refuses ``str()`` of integers over 4,300 digits; the exact
    distances of riffles of big decks have longer denominators.

    >>> fraction_text(Fraction(1, 3)), fraction_text(Fraction(0))
    ('1/3', '0')
    >>> len(fraction_text(Fraction(1, 10**5000)))
    5003
    """
    if value.denominator == 1:
        return decimal(value.numerator)
    return f"{decimal(value.numerator)}/{decimal(value.denominator)}"


def _method_name(name: str) -> str:
    """The registered name of method ``name``; the error points at ``--list``."""
    try:
        return get_analysis_method(name).name
    except UnknownMethodError:
        raise UnknownMethodError(
            f"unknown method {name!r}; choose from {', '.join(analysis_methods())}"
            " (croupier analyze --list describes them)"
        ) from None


def _names(method: str | None) -> list[str]:
    if not method:
        raise RangeError("give a METHOD (croupier analyze --list shows them)")
    return [_method_name(m) for m in method.split(",") if m.strip()]


def _list_methods(as_json: bool) -> None:
    methods = analysis_methods()
    if as_json:
        rows = [
            {
                "name": m.name,
                "kind": m.kind,
                "group": m.group,
                "claimed_fair": m.fair,
                "description": m.description,
            }
            for m in methods.values()
        ]
        typer.echo(envelope_json("analyze", {"mode": "list", "methods": rows}))
        return
    width = max(len(n) for n in methods)
    groups = [*_GROUP_TITLES, *{m.group: None for m in methods.values()}]
    for group in dict.fromkeys(groups):
        typer.echo(f"{_GROUP_TITLES.get(group, group)}:")
        for m in methods.values():
            if m.group == group:
                typer.echo(f"  {m.name:<{width}}  {m.description}")


def _plot_note(plot: str | None, quiet: bool) -> None:
    """The note on stderr that says where the figure went (none with ``--quiet``)."""
    if plot and not quiet:
        typer.echo(f"wrote {plot}", err=True)


def _report_json(report: Any) -> dict[str, Any]:
    """A report's JSON for the envelope: the algorithm id is the envelope's; the source's
    description is ``source_description`` (the envelope's ``source`` is its kind)."""
    data: dict[str, Any] = report.to_json()
    data.pop("algorithm", None)
    if "source" in data:
        data["source_description"] = data.pop("source")
    return data


def _emit(
    reports: Sequence[Any],
    as_json: bool,
    show: Callable[[Any], None],
    plot: str | None,
    mode: str,
    quiet: bool,
    seed: str | None = None,
) -> None:
    """Print reports as JSON (the envelope: ``{"mode", "reports": [...]}``, however many
    there are) or as text; ``seed`` is the Monte Carlo runs' (``mode`` ``monte-carlo``)."""
    if as_json:
        result = {"mode": mode, "reports": [_report_json(r) for r in reports]}
        if mode == "monte-carlo":
            kind = SourceKind.OS_CSPRNG if seed is None else SourceKind.SEEDED
            text = envelope_json(
                "analyze",
                result,
                algorithm=MONTE_CARLO_ID,
                source=kind.value,
                reproducible=seed is not None,
            )
        else:
            text = envelope_json("analyze", result)
        typer.echo(text)
    else:
        for i, r in enumerate(reports):
            if i:
                typer.echo("")
            show(r)
    _plot_note(plot, quiet)


def _exact(
    names: Sequence[str],
    cards: int,
    hands: tuple[int, ...] | None,
    engine: RouteChoice,
    plot: str | None,
    as_json: bool,
    overwrite: bool,
    quiet: bool,
) -> None:
    reports = [exact_report(n, cards, hands, engine=engine) for n in names]
    if plot:
        r = reports[0]
        matrix = r.position_matrix() if r.hands is None else r.hand_matrix()
        plot_heatmap(
            [[float(p) for p in row] for row in matrix],
            plot,
            title=f"{r.name}, {cards} cards: exact (TV {float(r.tv):.4f})",
            xlabel="position after shuffling (0 = top)" if r.kind == "arrangement" else "hand",
            overwrite=overwrite,
        )
    _emit(reports, as_json, lambda r: typer.echo(r.summary()), plot, "exact", quiet)


def _repeat(
    names: Sequence[str],
    cards: int,
    repetitions: int,
    plot: str | None,
    as_json: bool,
    overwrite: bool,
    quiet: bool,
) -> None:
    reports = [repeat_report(n, cards, repetitions) for n in names]
    if plot:
        plot_curves(
            {r.name: [(m, float(tv)) for m, tv in enumerate(r.curve, start=1)] for r in reports},
            plot,
            xlabel="repetitions",
            title=f"repeated shuffling of {cards} cards (exact)",
            overwrite=overwrite,
        )
    _emit(reports, as_json, _print_repeat, plot, "repeat", quiet)


def _print_repeat(r: RepeatReport) -> None:
    kind = "exact" if r.exact else "floating point"
    typer.echo(f"{r.name} repeated on {r.cards} cards ({kind}):")
    typer.echo("  repetitions  TV to uniform")
    for m, tv in enumerate(r.curve, start=1):
        shown = format_probability(tv if isinstance(tv, Fraction) else Fraction(tv))
        typer.echo(f"  {m:>11}  {shown}")
    space = math.factorial(r.cards)
    typer.echo(f"  reachable at all: {r.limit.group} of {space} arrangements")
    if r.limit.period > 1:
        typer.echo(
            f"  periodic: the deck alternates among {r.limit.period} classes"
            f" of {r.limit.spread} arrangements"
        )
    typer.echo(f"  limit of TV: {r.limit.tv} ≈ {format_probability(r.limit.tv)}")
    if r.stops_at is None:
        typer.echo(f"  still falling after {len(r.curve)} repetitions")
    else:
        typer.echo(f"  stops falling (within 1e-6 of its limit) at {r.stops_at} repetitions")


def _monte_carlo(
    names: Sequence[str],
    cards: int,
    trials: int,
    seed: str | None,
    hands: tuple[int, ...] | None,
    plot: str | None,
    as_json: bool,
    overwrite: bool,
    quiet: bool,
) -> None:
    reports = []
    for name in names:
        source = resolve_source(seed=seed, purpose=analyze_purpose(name))
        reports.append(monte_carlo(name, cards, trials, source, hands))
    if plot:
        r = reports[0]
        plot_heatmap(
            r.counts,
            plot,
            title=f"{r.name}, {cards} cards: {trials} trials",
            label="frequency x n",
            xlabel="position after shuffling (0 = top)" if r.kind == "arrangement" else "hand",
            overwrite=overwrite,
        )
    _emit(reports, as_json, _print_monte_carlo, plot, "monte-carlo", quiet, seed)


def _print_monte_carlo(r: MonteCarloReport) -> None:
    what = "card x position" if r.kind == "arrangement" else "card x hand"
    typer.echo(f"{r.name} on {r.cards} cards: {r.trials} trials from {r.source}")
    typer.echo(
        f"  random bits per trial: {r.bits_per_trial:.2f}"
        f" (bound log2(outcomes) = {r.bound_bits:.2f})"
    )
    for t in (r.chi_square, r.g_test):
        typer.echo(f"  {what} {t.name}: {t.statistic:.1f} on {t.df} df, {t.verdict()}")
    if r.min_expected < 5:
        typer.echo(
            f"  note: expected counts as low as {r.min_expected:.2g} (below 5): the p-values"
            " are rough; use more trials"
        )
    for g in r.games:
        for t in (g.chi_square, g.g_test):
            typer.echo(f"  {g.game} {t.name}: {t.statistic:.1f} on {t.df} df, {t.verdict()}")


def _bits(
    names: Sequence[str],
    cards: int,
    trials: int,
    seed: str | None,
    plot: str | None,
    as_json: bool,
    overwrite: bool,
    quiet: bool,
) -> None:
    if not 2 <= cards <= MAX_BITS_CARDS:
        raise RangeError(
            f"--cards {short_int(cards)} is out of range for the bits chart; "
            f"use 2..{MAX_BITS_CARDS}"
        )
    steps = min(10, cards - 1)
    sizes = sorted({round(2 + i * (cards - 2) / max(steps - 1, 1)) for i in range(steps)})
    series, bound = bits_profile(names, sizes, trials, seed or "croupier-bits")
    if plot:
        plot_bits(
            series,
            bound,
            plot,
            title=f"random bits per shuffle ({trials} shuffles each)",
            overwrite=overwrite,
        )
    if as_json:
        data = {
            "mode": "bits",
            "trials": trials,
            "sizes": sizes,
            "bound": [b for _, b in bound],
            "methods": {k: [b for _, b in v] for k, v in series.items()},
        }
        # the shuffles are seeded (--seed, else a fixed one): the same chart every run
        seeded = SourceKind.SEEDED.value
        typer.echo(envelope_json("analyze", data, source=seeded, reproducible=True))
        _plot_note(plot, quiet)
        return
    header = "  cards  " + "  ".join(f"{n:>14}" for n in ["log2(n!)", *series])
    typer.echo(f"average random bits per shuffle ({trials} shuffles per size):")
    typer.echo(header)
    for i, n in enumerate(sizes):
        row = [bound[i][1], *(series[k][i][1] for k in series)]
        typer.echo(f"  {n:>5}  " + "  ".join(f"{v:>14.2f}" for v in row))
    _plot_note(plot, quiet)


@app.command("analyze", help=ANALYZE_HELP)
def analyze_command(
    method: Annotated[str | None, typer.Argument(help="Method name(s); see --list.")] = None,
    cards: Annotated[int, option("--cards", "Deck size.")] = 4,
    exact: Annotated[bool, typer.Option("--exact", help="Exact distribution.")] = False,
    repeat: Annotated[
        int | None, typer.Option("--repeat", help="Repetitions for the Markov chain.")
    ] = None,
    trials: Annotated[int | None, typer.Option("--trials", help="Monte Carlo trials.")] = None,
    seed: SeedOpt = None,
    hands: Annotated[
        str | None, typer.Option("--hands", help="Deal methods: '4' hands or sizes '3,3,2'.")
    ] = None,
    bits: Annotated[bool, typer.Option("--bits", help="Bits used against the bound.")] = False,
    engine: Annotated[
        RouteChoice | None,
        typer.Option(
            "--engine",
            help="Exact engine (default auto: the walk if small enough, else a fast route).",
        ),
    ] = None,
    plot: PlotOpt = None,
    as_json: JsonOpt = False,
    list_: Annotated[bool, typer.Option("--list", help="List the methods.")] = False,
    overwrite: OverwriteOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Analyse one or more methods: exactly, repeated, by Monte Carlo or by bits spent.

    >>> from croupier.cli.app import run
    >>> run(["analyze", "swap-any", "--cards", "3"])  # doctest: +ELLIPSIS
    swap-any on 3 cards: exact distribution over 6 outcomes (walk)
      reachable outcomes: 6 of 6
      total variation to uniform: 1/18 ≈ 0.055556
    ...
      verdict: biased
    0
    """
    if list_:
        _list_methods(as_json)
        return
    names = _names(method)
    if not names:
        raise RangeError(f"no method in {method!r}; croupier analyze --list shows them")
    if cards < 1:
        raise RangeError(f"--cards {short_int(cards)} is invalid; use 1 or more")
    chosen = [
        flag
        for flag, on in (("--exact", exact), ("--repeat", repeat is not None), ("--bits", bits))
        if on
    ]
    if len(chosen) > 1:
        raise RangeError(f"choose one of {', '.join(chosen)}")
    if exact and trials is not None:
        raise RangeError("--exact and --trials exclude each other; pick one mode")
    layout = parse_hands(hands, cards)
    if layout is not None and not all(n.startswith("deal:") for n in names):
        raise RangeError(f"--hands {hands!r} applies to deal methods (deal:NAME) only")
    if trials is not None and trials < 1:
        raise RangeError(f"--trials {trials} is invalid; use 1 or more")
    is_exact = exact or (not bits and repeat is None and trials is None and cards <= 9)
    if engine is not None and not is_exact:
        raise RangeError(f"--engine {engine} applies to exact analysis only (--exact)")
    heatmap = not bits and repeat is None
    if plot:
        if heatmap and len(names) != 1:
            raise RangeError("--plot draws one heatmap; give a single METHOD")
        check_plot_path(plot, overwrite=overwrite)
    if bits:
        runs = 200 if trials is None else trials
        _bits(names, cards, runs, seed, plot, as_json, overwrite, quiet)
    elif repeat is not None:
        _repeat(names, cards, repeat, plot, as_json, overwrite, quiet)
    elif is_exact:
        _exact(names, cards, layout, engine or "auto", plot, as_json, overwrite, quiet)
    else:
        trials = 10_000 if trials is None else trials
        _monte_carlo(names, cards, trials, seed, layout, plot, as_json, overwrite, quiet)


@mixing_app.command("riffle", help=MIXING_HELP)
def riffle_command(
    cards: Annotated[int, option("--cards", "Deck size.")] = 52,
    max_k: Annotated[int, typer.Option("--max", help="Largest number of riffles.")] = 12,
    base: Annotated[
        int, typer.Option("--packets", help="Packets per riffle (2 = ordinary riffle).")
    ] = 2,
    plot: PlotOpt = None,
    as_json: JsonOpt = False,
    overwrite: OverwriteOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Print the exact distances to uniform after 1..max riffles of N cards.

    >>> from croupier.cli.app import run
    >>> run(["mixing", "riffle", "--cards", "52", "--max", "1"])
    GSR riffles of 52 cards (2 packets each), exact:
      riffles  total variation     separation
            1  1 - 5.58356e-53     1
    riffles needed for TV < 1/2: 7
    0
    """
    if plot:
        check_plot_path(plot, overwrite=overwrite)
    points = riffle_mixing_curve(cards, max_k, base)
    if plot:
        plot_curves(
            {
                "total variation": [(p.shuffles, float(p.tv)) for p in points],
                "separation": [(p.shuffles, float(p.separation)) for p in points],
            },
            plot,
            xlabel="riffles",
            ylabel="distance to uniform",
            title=f"GSR riffles of {cards} cards (exact)",
            reference=0.5,
            overwrite=overwrite,
        )
    if as_json:
        rows = [
            {
                "shuffles": p.shuffles,
                "tv": float(p.tv),
                "separation": float(p.separation),
                "tv_fraction": fraction_text(p.tv),
                "separation_fraction": fraction_text(p.separation),
            }
            for p in points
        ]
        result = {
            "cards": cards,
            "packets": base,
            "points": rows,
            "riffles_needed": riffles_needed(cards, base=base),
        }
        typer.echo(envelope_json("mixing riffle", result))
        _plot_note(plot, quiet)
        return
    typer.echo(f"GSR riffles of {cards} cards ({base} packets each), exact:")
    typer.echo(f"  {'riffles':>7}  {'total variation':<18}  separation")
    for p in points:
        typer.echo(
            f"  {p.shuffles:>7}  {format_probability(p.tv):<18}  {format_probability(p.separation)}"
        )
    typer.echo(f"riffles needed for TV < 1/2: {riffles_needed(cards, base=base)}")
    _plot_note(plot, quiet)
