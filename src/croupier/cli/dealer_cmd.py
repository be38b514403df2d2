"""``croupier dealer SCRIPT``: run a script in the dealer language, as the program ``dealer`` does.

The script's ``condition`` picks the deals, its ``action`` list prints them
and gathers statistics (see ``docs/dealer-language.md``).  The default output
(``--format dealer``) is what ``dealer`` prints, byte for byte, so existing
post-processors keep working; ``pbn``, ``oneline`` and ``table`` are the
other formats, and ``--json`` gives everything machine-readable.

dealer's own flags work as dealer users type them: ``-g`` (generate),
``-p`` (produce), ``-s`` (a numeric seed), ``-v`` (no closing summary), ``-m``
(progress meter).  These short flags mean something else in other croupier
commands; ``croupier dealer`` follows dealer (see
:data:`croupier.cli.options.PROGRAM_FLAGS`).

>>> sorted(typer.main.get_group(app).commands)
['dealer']
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Annotated, Any, Literal, get_args

import typer

import croupier
from croupier.bulk import DealArray
from croupier.bulk.writers import open_writer
from croupier.cli.cluster_options import (
    ChunkOpt,
    ClusterRequest,
    SchedulerOpt,
    WorkersOpt,
    cluster_request,
)
from croupier.cli.options import JsonOpt, OverwriteOpt, SeedOpt, out_option
from croupier.cli.running import (
    INTERRUPTED,
    Advance,
    RunState,
    Sink,
    is_terminal,
    progress_bar,
    stop_on_ctrl_c,
)
from croupier.errors import CroupierError
from croupier.files import AtomicFile
from croupier.simulate.actions import ActionRunner, dealer_summary
from croupier.simulate.ast import Frequency, Script
from croupier.simulate.double_dummy import TricksArray
from croupier.simulate.parse import MAX_SCRIPT, parse_script
from croupier.simulate.run import RunBatch, Simulation

__all__ = ["DealerFormat", "Strategy", "app", "dealer_command", "read_script"]

app = typer.Typer(add_completion=False, rich_markup_mode=None)

DealerFormat = Literal["dealer", "pbn", "oneline", "table"]
"""What ``croupier dealer`` writes: dealer's own output, PBN games, one line per deal,
or only the statistics as tables."""

Strategy = Literal["auto", "rejection", "stacking"]
"""How deals satisfying the condition are found (see ``docs/constraint-dealing.md``)."""

BATCH = 65_536
"""Deals generated per batch (the produced deals never depend on the batch size)."""

DOUBLE_DUMMY_BATCH = 8
"""Deals generated per batch when the script solves deals double dummy (a solve takes
a good fraction of a second): the run stops close to ``produce`` and Ctrl-C is heard."""

MAX_GENERATE = 10**12
"""The most deals one run may generate."""

_FORMATS = ", ".join(get_args(DealerFormat))

DEALER_HELP = f"""\
Run a dealer script: deal bridge hands satisfying its condition, exactly
uniformly, and carry out its actions (print deals, averages, frequencies).

SCRIPT is a file in the input language of the program dealer (generate,
produce, dealer, vulnerable, predeal, pointcount, altcount, condition,
action ...), or - for standard input.  Every deal produced is exactly
uniform among the deals that satisfy the condition and the predeal.

Formats ({_FORMATS}): dealer (default) prints what dealer prints, byte for
byte, then dealer's closing lines; pbn writes a PBN 2.1 export file (CRLF;
boards from 1, Dealer and Vulnerable by the standard cycles, the Deal from the
dealer's hand); oneline is one deal per line; table prints only the
statistics (counts, means, standard errors, 95% intervals).  --json prints
one JSON document with the deals, the statistics and the run's summary.

dealer's flags: -g N (generate at most N deals), -p N (produce N deals),
-s N (a numeric seed; croupier's deals differ from dealer's for the same
number), -v (no closing lines), -m (progress bar).  Without a seed the deals
come from the OS CSPRNG; --seed or -s make the run reproducible, and the
first K deals produced never depend on -p or -g.

On a Dask cluster (the cluster extra): --workers N starts a local cluster of
N processes, --scheduler ADDRESS uses a running one.  The rows are split into
chunks of --chunk rows (default 1,048,576, or 32 when the script calls
tricks()), each solved by a worker, merged in order: the output is the same
as without a cluster, for any number of workers and any chunk size.

\b
Examples:
  croupier dealer notrump.dlr
  croupier dealer notrump.dlr -p 100 --seed "club night" --format pbn
  croupier dealer stats.dlr -g 1000000 --format table --plot hcp.svg
  echo 'condition hcp(north) >= 20 action printoneline' | croupier dealer - -p 5
  croupier dealer slam.dlr -p 1000 --seed s1 --workers 8 --format table
"""


def read_script(path: str) -> Script:
    """Read and parse the script at ``path`` (``-``: standard input).

    >>> read_script("/nonexistent/x.dlr")
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: cannot read script '/nonexistent/x.dlr': no such file
    """
    limit = 4 * MAX_SCRIPT  # bytes: at most 4 per character in UTF-8
    if path == "-":
        text = sys.stdin.read(MAX_SCRIPT + 1)  # parse_script refuses what is too long
        return parse_script(text, filename="<stdin>")
    file = Path(path)
    try:
        with file.open("rb") as stream:
            raw = stream.read(limit + 1)
    except FileNotFoundError:
        raise CroupierError(f"cannot read script {path!r}: no such file") from None
    except IsADirectoryError:
        raise CroupierError(f"cannot read script {path!r}: it is a directory") from None
    except OSError as exc:
        raise CroupierError(f"cannot read script {path!r}: {exc.strerror or exc}") from None
    if len(raw) > limit:
        raise CroupierError(
            f"script {path!r} is larger than {limit:,} bytes; a dealer script is a few lines"
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")  # dealer scripts are plain bytes; comments may be Latin-1
    return parse_script(text, filename=file.name)


def _check_count(name: str, value: int | None, most: int) -> None:
    if value is not None and not 1 <= value <= most:
        raise CroupierError(f"{name} must be between 1 and {most:,}, got {value:,}")


def _seed_text(seed: str | None, dealer_seed: int | None) -> str | None:
    if seed is not None and dealer_seed is not None:
        raise CroupierError("give either --seed TEXT or -s NUMBER, not both")
    return str(dealer_seed) if dealer_seed is not None else seed


class _DealWriter:
    """The deals of ``--format pbn`` / ``oneline``: through the bulk writers, as they come.

    With ``dd`` every PBN game also gets its double-dummy table and par
    (``DoubleDummyTricks``, ``OptimumScore``, ``ParContract``,
    ``OptimumResultTable``), for the board's dealer and vulnerability.
    """

    def __init__(self, fmt: str, stream: IO[bytes], first: DealArray, dd: bool) -> None:
        name = "pbn" if fmt == "pbn" else "oneline"
        generator = f"croupier {croupier.__version__}"
        self.stream = stream
        self.dd = dd and fmt == "pbn"
        self.board = 1
        self.target: IO[bytes] = io.BytesIO() if self.dd else stream
        self.writer = open_writer(name, self.target, first.layout, generator=generator)
        if self.dd:  # the file header goes out at once
            stream.write(self._flush_dd())

    def _flush_dd(self) -> bytes:
        assert isinstance(self.target, io.BytesIO)
        data = self.target.getvalue()
        self.target.seek(0)
        self.target.truncate()
        return data

    def write(self, deals: DealArray, tables: TricksArray | None = None) -> None:
        """Write ``deals``; ``tables``: their double-dummy tables when already solved."""
        self.writer.write(deals)
        if not self.dd:
            return
        from croupier import boards
        from croupier.simulate.double_dummy import par_results, pbn_dd_tags, tricks_table

        numbers = range(self.board, self.board + len(deals))
        if tables is None:
            tables = tricks_table(deals)
        pars = par_results(
            deals,
            [boards.dealer((n - 1) % 16 + 1) for n in numbers],  # the cycles go on past 999
            [boards.vulnerability((n - 1) % 16 + 1) for n in numbers],
            tables=tables,
        )
        games = self._flush_dd().decode("utf-8").split("\r\n\r\n")  # each ends a game
        out = []
        for game, table, par in zip(games, tables, pars, strict=False):
            tags = pbn_dd_tags(table, par).rstrip("\n").replace("\n", "\r\n")
            out.append(f"{game}\r\n{tags}\r\n\r\n")  # after the mandatory tags
        self.stream.write("".join(out).encode("utf-8"))
        self.board += len(deals)

    def close(self) -> None:
        self.writer.close()
        if self.dd:
            self.stream.write(self._flush_dd())


def _run_batches(
    simulation: Simulation,
    limits: tuple[int, int],
    cluster: ClusterRequest | None,
    client: object,
    dd: bool,
    seed: str | None,
    strategy: Strategy,
) -> Iterator[tuple[RunBatch, TricksArray | None]]:
    """The run's batches, with the deals' double-dummy tables when a cluster solved them
    (``seed`` and ``strategy``: the simulation's, sent to the workers)."""
    produce, generate = limits
    if cluster is None:
        size = DOUBLE_DUMMY_BATCH if simulation.script.uses_double_dummy() else BATCH
        for batch in simulation.batches(produce=produce, generate=generate, batch=size):
            yield batch, None
        return
    from croupier.simulate.distributed import ChunkSpec, chunk_batches

    spec = ChunkSpec.of(
        simulation.script,
        seed=seed,
        strategy=strategy,
        tricks=dd,
        statistics=False,
    )
    for merged in chunk_batches(
        simulation, spec, client, produce=produce, generate=generate, chunk=cluster.chunk
    ):
        yield merged.batch, merged.tricks


def _batches(
    batches: Iterator[tuple[RunBatch, TricksArray | None]],
    limits: tuple[int, int],
    run: RunState,
    advance: Advance,
) -> Iterator[tuple[RunBatch, TricksArray | None]]:
    """The run's batches until the run ends or Ctrl-C asks it to stop.

    The progress bar counts deals produced when ``produce`` ends the run, else
    deals generated.
    """
    produce, generate = limits
    by_produced = produce < generate
    done = 0
    for batch, tricks in batches:
        yield batch, tricks
        run.written = batch.produced
        now = batch.produced if by_produced else batch.generated
        advance(now - done)
        done = now
        if run.stop:
            break


def _summary(
    simulation: Simulation, generated: int, produced: int, seconds: float
) -> dict[str, Any]:
    """The run's summary as a JSON-ready dict (also the source of the stderr note)."""
    probability = simulation.sampler.probability
    rate = probability * produced / generated if generated else None
    return {
        "generated": generated,
        "produced": produced,
        "acceptance": None if rate is None else float(rate),
        "strategy": simulation.strategy,
        "support_probability": float(probability),
        "algorithm": simulation.sampler.algorithm,
        "source": simulation.source,
        "seconds": round(seconds, 3),
    }


def _note(summary: dict[str, Any], seed: str | None) -> str:
    """The one-line summary on stderr."""
    rate = summary["acceptance"]
    accepted = "" if rate is None else f" ({100 * rate:.4g}% of uniform deals pass)"
    source = f"seeded stream, seed {seed!r}" if seed is not None else "OS CSPRNG"
    return (
        f"croupier dealer: produced {summary['produced']:,} of {summary['generated']:,} "
        f"generated deals{accepted}; strategy {summary['strategy']}; "
        f"{summary['algorithm']} from the {source}"
    )


@app.command("dealer", help=DEALER_HELP)
def dealer_command(
    script_path: Annotated[str, typer.Argument(metavar="SCRIPT", help="The script (- for stdin).")],
    generate: Annotated[
        int | None,
        typer.Option("--generate", "-g", help="Generate at most this many deals (dealer's -g)."),
    ] = None,
    produce: Annotated[
        int | None,
        typer.Option("--produce", "-p", help="Produce this many deals (dealer's -p)."),
    ] = None,
    dealer_seed: Annotated[
        int | None,
        typer.Option("--dealer-seed", "-s", help="dealer's -s: a numeric seed (reproducible)."),
    ] = None,
    seed: SeedOpt = None,
    no_summary: Annotated[
        bool,
        typer.Option("--no-summary", "-v", help="No closing lines after the output (dealer's -v)."),
    ] = False,
    strategy: Annotated[
        Strategy,
        typer.Option(
            "--strategy",
            help="auto (default: smart stacking when it pays), rejection or stacking.",
            case_sensitive=False,
        ),
    ] = "auto",
    fmt: Annotated[
        DealerFormat,
        typer.Option("--format", "-f", help=f"Output format: {_FORMATS}.", case_sensitive=False),
    ] = "dealer",
    dd: Annotated[
        bool,
        typer.Option(
            "--dd",
            help="With --format pbn: add each deal's double-dummy table and par "
            "(needs the dd extra).",
        ),
    ] = False,
    plot: Annotated[
        Path | None,
        typer.Option(
            "--plot", help="Also draw every frequency table (.png or .svg; needs matplotlib)."
        ),
    ] = None,
    as_json: JsonOpt = False,
    out: Annotated[Path | None, out_option("Write to this file (atomically), not stdout.")] = None,
    overwrite: OverwriteOpt = False,
    progress: Annotated[
        bool | None,
        typer.Option(
            "--progress/--quiet",
            "-m",
            help="Progress bar (dealer's -m); --quiet: no bar and no note on stderr. "
            "Default: a bar on a terminal for long runs.",
        ),
    ] = None,
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    chunk: ChunkOpt = None,
) -> None:
    """Run a dealer script."""
    cluster = cluster_request(workers, scheduler, chunk)
    _check_count("-g/--generate", generate, MAX_GENERATE)
    _check_count("-p/--produce", produce, MAX_GENERATE)
    seed_text = _seed_text(seed, dealer_seed)
    if dd and (fmt != "pbn" or as_json):
        raise CroupierError("--dd adds double-dummy tables to PBN games: use it with --format pbn")
    if plot is not None:
        from croupier.analysis.plots import check_plot_path

        check_plot_path(plot, overwrite=overwrite)
    if dd:
        from croupier.simulate.double_dummy import require_solver

        require_solver("--dd: ")
    script = read_script(script_path)
    if plot is not None and not any(isinstance(a, Frequency) for a in script.actions or ()):
        raise CroupierError("--plot draws the script's frequency tables, and it has none")
    simulation = Simulation(script, seed=seed_text, strategy=strategy)
    quiet = progress is False
    limits = simulation.limits(produce, generate)
    total = min(limits)
    show = progress is True or (
        progress is None
        and is_terminal(sys.stderr)
        and not (out is None and is_terminal(sys.stdout))
    )
    run = RunState()
    file = None if out is None else AtomicFile(out, overwrite=overwrite)
    sink = Sink(file)
    binary = sink.binary()
    text = io.TextIOWrapper(binary, encoding="utf-8", newline="\n", write_through=True)
    printing = fmt == "dealer" and not as_json
    runner = ActionRunner(
        script if printing else script.statistics_only(),
        text if printing else io.StringIO(),
        seed=seed_text,
    )
    writer: _DealWriter | None = None
    deals_json: list[str] = []
    generated = produced = 0
    started = time.perf_counter()
    try:
        with contextlib.ExitStack() as stack:
            client = None
            if cluster is not None:
                from croupier.cluster import open_client

                client = stack.enter_context(
                    open_client(workers=cluster.workers, scheduler=cluster.scheduler)
                )
            stack.enter_context(stop_on_ctrl_c(run))
            advance = stack.enter_context(progress_bar(total, show, "producing"))
            made = _run_batches(simulation, limits, cluster, client, dd, seed_text, strategy)
            for batch, tricks in _batches(made, limits, run, advance):
                generated = batch.generated
                deals = batch.deals
                if len(deals):
                    runner.feed(deals, produced + 1, tricks=tricks)
                    if as_json:
                        deals_json.extend(_pbn_strings(deals))
                    elif fmt in ("pbn", "oneline"):
                        if writer is None:
                            writer = _DealWriter(fmt, binary, deals, dd)
                        writer.write(deals, tricks)
                produced = batch.produced
            report = runner.finish()
            if writer is not None:
                writer.close()
            seconds = time.perf_counter() - started
            summary = _summary(simulation, generated, produced, seconds)
            if as_json:
                document = {
                    "script": script.filename,
                    **summary,
                    "seed": seed_text,
                    "reproducible": seed_text is not None,
                    "statistics": report.to_json(),
                    "deals": deals_json,
                }
                text.write(json.dumps(document, ensure_ascii=False, indent=2) + "\n")
            elif fmt == "table":
                _print_tables(report, text)
            elif fmt == "dealer" and not no_summary:
                text.write(dealer_summary(generated, produced, seed_text, seconds))
            text.flush()
            text.detach()
            if file is not None:
                file.commit()
    finally:
        with contextlib.suppress(ValueError):  # an error left it attached: keep stdout open
            text.detach()
        if file is not None and not file.done:
            file.discard()
    if plot is not None:
        from croupier.analysis.plots import plot_bars
        from croupier.simulate.stats import frequency_panels

        plot_bars(frequency_panels(report), plot, overwrite=overwrite)
        if not quiet:
            typer.echo(f"wrote {plot}", err=True)
    if fmt in ("pbn", "oneline") and not as_json and report is not None and not quiet:
        _print_tables(report, sys.stderr)
    interrupted = run.stop
    if interrupted:
        typer.echo(
            f"warning: interrupted by Ctrl-C after {produced:,} deals produced "
            f"of {generated:,} generated",
            err=True,
        )
    if not quiet:
        typer.echo(_note(summary, seed_text), err=True)
    if interrupted:
        raise typer.Exit(INTERRUPTED)


def _pbn_strings(deals: DealArray) -> list[str]:
    """Each deal as a PBN deal string from North."""
    stream = io.BytesIO()
    writer = open_writer("pbn-deal", stream, deals.layout)
    writer.write(deals)
    writer.close()
    return stream.getvalue().decode("ascii").splitlines()


def _print_tables(report: Any, stream: IO[str]) -> None:
    """The report's statistics as rich tables on ``stream``."""
    tables = report.rich_tables()
    if not tables:
        return
    from rich.console import Console

    console = Console(file=stream, width=100, force_terminal=False, color_system=None)
    for table in tables:
        console.print(table)
