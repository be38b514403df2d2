"""What ``croupier dealer SCRIPT`` does, once its options are read (no Typer here).

:func:`run_dealer` runs a script with the options of
:data:`croupier.cli.dealer_options.OPTIONS`; ``cli/dealer_cmd.py`` (the Typer
command: help, usage errors, the registry) and :func:`run_quick` (the quick
path of ``croupier dealer``, which reads its arguments without Typer) both call
it, so the two cannot disagree.  Only what a run needs is imported, when it
needs it: the start-up of a short run is numpy and the simulation.

>>> import contextlib, io
>>> with contextlib.redirect_stdout(io.StringIO()) as out:
...     code = run_quick(["--dealer-version"])
>>> code, out.getvalue().splitlines()[0]
(0, 'Version info....')
"""

from __future__ import annotations

import contextlib
import io
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from typing import IO, TYPE_CHECKING, Any

from croupier.cli.dealer_options import parameter_flags, quick_parse
from croupier.cli.running import INTERRUPTED
from croupier.errors import CroupierError

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer

    from croupier.bulk import DealArray
    from croupier.simulate.ast import Script
    from croupier.simulate.double_dummy import TricksArray
    from croupier.simulate.run import RunBatch, Simulation
    from croupier.simulate.stats import Report

__all__ = [
    "INTERRUPTED",
    "MAX_GENERATE",
    "PROGRESS_AFTER",
    "WITHHELD",
    "read_script",
    "run_dealer",
    "run_quick",
]

MAX_GENERATE = 10**12
"""The most deals one run may look at."""

PROGRESS_AFTER = 1.0
"""Seconds after which a run still going shows its progress bar (on a terminal)."""

WITHHELD = "withheld"
"""What dealer's ``Initial random seed`` line and ``printpbn``'s ``[Event]`` say in place
of the seed of a seeded run (``none`` without a seed, as before)."""

VERSION_LINES = (
    "Version info....\ncroupier {version}: dealer's language and flags, as dealer 20211121\n"
)
"""What ``-V`` prints (dealer prints its own revision after the first line)."""

LIBRARY_REFUSAL = (
    "-l/--library reads deals and their double-dummy results from GIB's library.dat, "
    "which croupier does not read; croupier deals afresh and solves with tricks() or --dd"
)
EXHAUST_REFUSAL = (
    "-e/--exhaust (dealer's exhaust mode) is not offered: dealer 20211121 refuses it too "
    "('Exhaust mode not included in this executable')"
)


def _script_text(raw: bytes) -> str:
    """The text of a script's bytes: UTF-8 (a byte-order mark first is left out), else Latin-1.

    >>> _script_text(b"\\xef\\xbb\\xbfproduce 1"), _script_text(b"// caf\\xe9")
    ('produce 1', '// café')
    """
    from croupier.simulate.parse import BOM

    raw = raw.removeprefix(BOM.encode("utf-8"))
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")  # dealer scripts are plain bytes; comments may be Latin-1


def read_script(path: str) -> Script:
    """Read and parse the script at ``path`` (``-``: standard input).

    A file, and standard input, are read as bytes: UTF-8, else Latin-1, and a UTF-8
    byte-order mark at the start (Windows editors write one) is left out.

    >>> read_script("/nonexistent/x.dlr")
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: cannot read script '/nonexistent/x.dlr': no such file
    """
    from croupier.simulate.parse import MAX_SCRIPT, parse_script

    limit = 4 * MAX_SCRIPT  # bytes: at most 4 per character in UTF-8
    if path == "-":
        binary = getattr(sys.stdin, "buffer", None)
        if binary is None:  # a text stream put in place of standard input
            text = sys.stdin.read(MAX_SCRIPT + 1)  # parse_script refuses what is too long
            return parse_script(text, filename="<stdin>")
        raw = binary.read(limit + 1)
        if len(raw) > limit:
            raise CroupierError(
                f"standard input is larger than {limit:,} bytes; a dealer script is a few lines"
            )
        return parse_script(_script_text(raw), filename="<stdin>")
    file, name = _as_pathlib(path)
    try:
        with open(file, "rb") as stream:
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
    return parse_script(_script_text(raw), filename=name)


def _as_pathlib(path: str) -> tuple[str, str]:
    """The file ``pathlib.Path(path)`` opens, and its ``name``, without importing pathlib
    (``//`` and ``.`` parts dropped, as pathlib drops them).

    >>> _as_pathlib("a//b/./c.dlr"), _as_pathlib("/"), _as_pathlib("./"), _as_pathlib("")
    (('a/b/c.dlr', 'c.dlr'), ('/', ''), ('.', ''), ('.', ''))
    """
    parts = [p for p in path.split("/") if p and p != "."]
    root = "/" if path.startswith("/") else ""
    return (root + "/".join(parts)) or ".", parts[-1] if parts else ""


def _check_count(name: str, value: int | None, most: int) -> None:
    if value is not None and not 1 <= value <= most:
        raise CroupierError(f"{name} must be between 1 and {most:,}, got {value:,}")


def _seed_text(seed: str | None, dealer_seed: int | None) -> str | None:
    if seed is not None and dealer_seed is not None:
        raise CroupierError("give either --seed TEXT or -s NUMBER, not both")
    return str(dealer_seed) if dealer_seed is not None else seed


def _is_terminal(stream: IO[str]) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, OSError, ValueError):
        return False


class _KeepOpen(io.BufferedIOBase):
    """Writes through to ``target`` and never closes or flushes it when closed itself.

    A text wrapper closes what it wraps when it is closed or collected: wrapping
    standard output directly, a script refused after the wrapping (its scales,
    an action) closed the real standard output, and the program's exit-time
    flush then failed with a traceback.

    >>> target = io.BytesIO()
    >>> text = io.TextIOWrapper(_KeepOpen(target), encoding="utf-8", write_through=True)
    >>> _ = text.write("kept"); text.close()
    >>> target.closed, target.getvalue()
    (False, b'kept')
    """

    def __init__(self, target: IO[bytes]) -> None:
        super().__init__()
        self._target = target
        self._released = False

    @property
    def name(self) -> Any:
        return getattr(self._target, "name", "<output>")

    def writable(self) -> bool:
        return True

    def write(self, data: ReadableBuffer) -> int:
        view = memoryview(data).cast("B")
        done = 0
        while done < len(view):  # a raw stream may take part of it: write the rest too
            written = self._target.write(view[done:])
            if written is None:  # a stream that would block: nothing to retry with
                raise BlockingIOError("standard output would block")
            done += written
        return done

    def flush(self) -> None:
        if not self._released:
            self._target.flush()

    def close(self) -> None:
        self._released = True  # closing this never touches the stream it writes to
        super().close()


class _Progress:
    """The run's progress bar on stderr, shown when it helps: at once with ``-m``, else
    on a terminal once the run has gone on for :data:`PROGRESS_AFTER` seconds (a timer
    shows it then, even while the first batch is still being dealt or solved, on every
    strategy and on a cluster), or as soon as a batch promises a run that long; never
    with ``--quiet`` or when the deals scroll on the same terminal.

    It counts deals produced when ``produce`` ends the run, else deals generated.
    """

    def __init__(
        self, limits: tuple[int, int], *, forced: bool, allowed: bool, started: float
    ) -> None:
        produce, generate = limits
        self.by_produced = produce < generate
        self.total = min(produce, generate)
        self.allowed = allowed
        self.started = started
        self.stack = contextlib.ExitStack()
        self.advance: Any = None
        self.done = 0
        self.closed = False
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        if forced:
            self._show()
        elif allowed:
            wait = max(0.0, PROGRESS_AFTER - (time.perf_counter() - started))
            self._timer = threading.Timer(wait, self._late)
            self._timer.daemon = True
            self._timer.start()

    def _show(self) -> None:
        from croupier.cli.running import progress_bar

        self.advance = self.stack.enter_context(progress_bar(self.total, True, "producing"))
        self.advance(self.done)

    def _late(self) -> None:
        """The timer: the run has lasted :data:`PROGRESS_AFTER` seconds; show the bar."""
        with self._lock:
            if self.advance is None and not self.closed:
                self._show()

    def update(self, batch: RunBatch) -> None:
        now = batch.produced if self.by_produced else batch.generated
        with self._lock:
            if self.advance is None and self.allowed and not self.closed:
                elapsed = time.perf_counter() - self.started
                share = now / self.total if self.total else 1.0
                if elapsed > PROGRESS_AFTER or (
                    elapsed > PROGRESS_AFTER / 5 and share > 0 and elapsed / share > PROGRESS_AFTER
                ):
                    self.done = now
                    self._show()
                    return
            if self.advance is not None:
                self.advance(now - self.done)
            self.done = now

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        with self._lock:
            self.closed = True
            self.stack.close()


def _batches(
    simulation: Simulation,
    limits: tuple[int, int],
    cluster: Any,
    client: object,
    dd: bool,
    seed: str | None,
) -> Iterator[tuple[RunBatch, TricksArray | None]]:
    """The run's batches, with the deals' double-dummy tables when a cluster solved them."""
    produce, generate = limits
    if cluster is None:
        for batch in simulation.batches(produce=produce, generate=generate):
            yield batch, None
        return
    from croupier.simulate.distributed import ChunkSpec, chunk_batches

    spec = ChunkSpec.of(
        simulation.script,
        seed=seed,
        strategy=simulation.requested,
        tricks=dd,
        statistics=False,
        swap=simulation.swap,
    )
    for merged in chunk_batches(
        simulation, spec, client, produce=produce, generate=generate, chunk=cluster.chunk
    ):
        yield merged.batch, merged.tricks


def _summary(
    simulation: Simulation, generated: int, produced: int, stacked: bool, seconds: float
) -> dict[str, Any]:
    """The run's summary as a JSON-ready dict (also the source of the stderr note)."""
    rate = produced / generated if generated else None
    interval = simulation.acceptance_interval(produced, generated)
    return {
        "generated": generated,
        "produced": produced,
        "acceptance": rate,
        "acceptance_ci95": None if interval is None else [interval[0], interval[1]],
        "strategy": simulation.sampler.name if stacked else simulation.rejection.name,
        "support_probability": float(simulation.sampler.probability) if stacked else 1.0,
        "algorithm": simulation.algorithm,
        "source": simulation.source,
        "seconds": round(seconds, 3),
    }


def _percent(x: float) -> str:
    return f"{100 * x:.4g}%"


def _note(summary: dict[str, Any], seeded: bool) -> str:
    """The one-line summary on stderr (it says whether the run is seeded, never the seed)."""
    rate = summary["acceptance"]
    accepted = ""
    if rate is not None and summary["acceptance_ci95"] is None:
        accepted = (
            f" ({_percent(rate)} of them pass; no interval: swapped deals are not independent)"
        )
    elif rate is not None:
        low, high = summary["acceptance_ci95"]
        accepted = (
            f" ({_percent(rate)} of uniform deals pass, 95% interval "
            f"{_percent(low)} to {_percent(high)})"
        )
    source = (
        "the seeded stream: reproducible, and only as secret as the seed"
        if seeded
        else "the OS CSPRNG (not reproducible)"
    )
    return (
        f"croupier dealer: produced {summary['produced']:,} of {summary['generated']:,} "
        f"generated deals{accepted}; strategy {summary['strategy']}; "
        f"{summary['algorithm']} from {source}"
    )


def _stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def run_dealer(values: dict[str, Any]) -> int:
    """Run a dealer script with the options ``values`` (:func:`dealer_options.defaults`
    filled in); return the exit code.  Bad input raises :class:`CroupierError`."""
    if values["version"]:
        import croupier

        sys.stdout.write(VERSION_LINES.format(version=croupier.__version__))
        return 0
    if values["exhaust"]:
        raise CroupierError(EXHAUST_REFUSAL)
    if values["library"] is not None:
        raise CroupierError(LIBRARY_REFUSAL)
    fmt, quiet, as_json, dd = values["fmt"], values["quiet"], values["as_json"], values["dd"]
    overwrite, plot = values["overwrite"], values["plot"]
    progress = values["progress"] % 2 == 1  # dealer's -m toggles
    cluster = None
    if any(values[k] is not None for k in ("workers", "scheduler", "chunk")):
        from croupier.cli.cluster_options import cluster_request

        cluster = cluster_request(values["workers"], values["scheduler"], values["chunk"])
    if progress and quiet:
        raise CroupierError("give -m/--progress (a progress bar) or --quiet (none), not both")
    _check_count("-g/--generate", values["generate"], MAX_GENERATE)
    _check_count("-p/--produce", values["produce"], MAX_GENERATE)
    if values["swap"] not in (0, 2, 3):
        raise CroupierError(f"--swap must be 0, 2 or 3 (dealer's -0, -2, -3), got {values['swap']}")
    timeout = values["timeout"]
    if timeout is not None and not timeout > 0:
        raise CroupierError(f"-t/--timeout must be a number of seconds above 0, got {timeout}")
    seed_text = _seed_text(values["seed"], values["dealer_seed"])
    if dd and (fmt != "pbn" or as_json):
        raise CroupierError("--dd adds double-dummy tables to PBN games: use it with --format pbn")
    if plot is not None:
        from croupier.analysis.plots import check_plot_path

        check_plot_path(plot, overwrite=overwrite)
    if dd:
        from croupier.simulate.double_dummy import require_solver

        require_solver("--dd: ")
    script = read_script(values["script_path"])
    from croupier.simulate.ast import Frequency

    if plot is not None and not any(isinstance(a, Frequency) for a in script.actions or ()):
        raise CroupierError("--plot draws the script's frequency tables, and it has none")
    if values["swap"] and values["strategy"] == "stacking":
        raise CroupierError(
            f"-{values['swap']} (dealer's swapping) exchanges the hands of whole deals: "
            "use --strategy rejection or auto (which then deals by rejection)"
        )
    from croupier.simulate.run import Simulation

    simulation = Simulation(
        script, seed=seed_text, strategy=values["strategy"], swap=values["swap"]
    )
    return _run(simulation, script, values, cluster, seed_text, progress)


class _Tally:
    """What a run has looked at so far: deals generated and produced, whether a batch was
    stacked, the random bits used (``None`` once a batch did not say), and whether ``-t``
    ended it before it produced a deal."""

    def __init__(self) -> None:
        self.generated = self.produced = 0
        self.stacked = self.timed_out = False
        self.bits: int | None = 0

    def add(self, batch: RunBatch) -> None:
        self.generated, self.stacked = batch.generated, batch.stacked or self.stacked
        self.bits = None if self.bits is None or batch.bits is None else self.bits + batch.bits


class _Output:
    """The run's output: the ``--out`` file (written atomically, committed at the end) or
    standard output, as bytes (:attr:`binary`) and as text (:attr:`text`)."""

    def __init__(self, out: Any, overwrite: bool) -> None:
        from croupier.cli.running import Sink

        self.file = None
        if out is not None:
            from croupier.files import AtomicFile

            self.file = AtomicFile(out, overwrite=overwrite)
        self.binary = Sink(self.file).binary()
        self.text = io.TextIOWrapper(
            _KeepOpen(self.binary), encoding="utf-8", newline="\n", write_through=True
        )

    def commit(self) -> None:
        self.text.flush()
        if self.file is not None:
            self.file.commit()

    def discard_unless_done(self) -> None:
        if self.file is not None and not self.file.done:
            self.file.discard()


def _run(
    simulation: Simulation,
    script: Script,
    values: dict[str, Any],
    cluster: Any,
    seed_text: str | None,
    progress: bool,
) -> int:
    """Run the simulation: deals and actions to the output, then the summary and notes."""
    from croupier.cli.output import file_or_standard_output
    from croupier.cli.running import RunState
    from croupier.simulate.actions import ActionRunner

    fmt, quiet, as_json = values["fmt"], values["quiet"], values["as_json"]
    out = file_or_standard_output(values["out"])
    started = time.perf_counter()
    printing = fmt == "dealer" and not as_json
    scrolls = printing and script.prints_deals() and out is None and _is_terminal(sys.stdout)
    allowed = not quiet and _is_terminal(sys.stderr) and not scrolls
    output = _Output(out, values["overwrite"])
    seeded = seed_text is not None
    label = None
    if seeded:
        from croupier.runs.notes import seeded_label

        label = seeded_label(simulation.algorithm)
    runner = ActionRunner(
        script if printing else script.statistics_only(),
        output.text if printing else io.StringIO(),
        seed=f"{WITHHELD} (reproducible)" if seeded else None,
        draws=simulation.draws,
        skip_pbn=values["no_printpbn"] % 2 == 1,
    )
    run, tally = RunState(), _Tally()
    limits = simulation.limits(values["produce"], values["generate"])
    meter = _Progress(limits, forced=progress, allowed=allowed, started=started)
    try:
        with contextlib.ExitStack() as stack:
            stack.callback(meter.close)
            deals_json = _deal_all(
                stack, simulation, limits, values, cluster, seed_text, label,
                (run, tally, runner, meter, output, started),
            )  # fmt: skip
            meter.close()
            report = runner.finish()
            seconds = time.perf_counter() - started
            summary = _summary(simulation, tally.generated, tally.produced, tally.stacked, seconds)
            ending = (summary, report, deals_json, label, seconds)
            _write_summary(output.text, values, script, ending, tally)
            output.commit()
    finally:
        output.discard_unless_done()
    _after_run(values, report, summary, run, tally, seeded)
    if run.stop:
        return INTERRUPTED
    return 1 if tally.timed_out else 0


def _deal_all(
    stack: contextlib.ExitStack,
    simulation: Simulation,
    limits: tuple[int, int],
    values: dict[str, Any],
    cluster: Any,
    seed_text: str | None,
    label: str | None,
    parts: tuple[Any, _Tally, Any, _Progress, _Output, float],
) -> list[str]:
    """Deal the run's batches into its actions and writers until a limit, Ctrl-C or ``-t``
    (the PBN strings of the deals, for ``--json``)."""
    from croupier.cli.running import stop_on_ctrl_c

    run, tally, runner, meter, output, started = parts
    fmt, as_json, dd, timeout = values["fmt"], values["as_json"], values["dd"], values["timeout"]
    client = None
    if cluster is not None:
        from croupier.cluster import open_client

        client = stack.enter_context(
            open_client(workers=cluster.workers, scheduler=cluster.scheduler)
        )
    stack.enter_context(stop_on_ctrl_c(run))
    writer: Any = None
    deals_json: list[str] = []
    for batch, tricks in _batches(simulation, limits, cluster, client, dd, seed_text):
        tally.add(batch)
        deals = batch.deals
        if len(deals):
            runner.feed(deals, tally.produced + 1, tricks=tricks, numbers=batch.numbers)
            if as_json:
                deals_json.extend(_pbn_strings(deals))
            elif fmt in ("pbn", "oneline"):
                if writer is None:
                    from croupier.runs import WriteOptions, open_deal_writer

                    options = WriteOptions(label=label, dd=dd and fmt == "pbn")
                    writer = open_deal_writer(fmt, output.binary, deals.layout, options)
                writer.write(deals, tricks)
        tally.produced = batch.produced
        run.written = tally.produced
        meter.update(batch)
        if run.stop:
            break
        late = timeout is not None and time.perf_counter() - started > timeout
        if late and not tally.produced:
            tally.timed_out = True
            break
    if writer is not None:
        writer.close(bits=0.0)
    return deals_json


def _write_summary(
    text: IO[str],
    values: dict[str, Any],
    script: Script,
    ending: tuple[dict[str, Any], Report, list[str], str | None, float],
    tally: _Tally,
) -> None:
    """What the output ends with: the ``--json`` document, the tables of ``--format table``,
    or dealer's own summary lines (``ending``: the summary, the statistics, the deals for
    ``--json``, the seeded run's label and the seconds the run took)."""
    from croupier.simulate.actions import dealer_summary

    summary, report, deals_json, label, seconds = ending
    fmt = values["fmt"]
    if values["as_json"]:
        seeded = label is not None
        text.write(_json_document(script, summary, report, deals_json, seeded, tally.bits))
    elif fmt == "table":
        _print_tables(report, text)
    elif fmt == "dealer" and values["no_summary"] % 2 == 0:
        shown = None if label is None else f"{WITHHELD}; {label}"
        text.write(dealer_summary(tally.generated, tally.produced, shown, seconds))


def _after_run(
    values: dict[str, Any],
    report: Report,
    summary: dict[str, Any],
    run: Any,
    tally: _Tally,
    seeded: bool,
) -> None:
    """After the output is written: the ``--plot`` file, the tables of a deal file's run,
    and the notes on standard error."""
    quiet, plot, fmt = values["quiet"], values["plot"], values["fmt"]
    if plot is not None:
        from croupier.analysis.plots import plot_bars
        from croupier.simulate.stats import frequency_panels

        plot_bars(frequency_panels(report), plot, overwrite=values["overwrite"])
        if not quiet:
            _stderr(f"wrote {plot}")
    if fmt in ("pbn", "oneline") and not values["as_json"] and not quiet:
        _print_tables(report, sys.stderr)
    if run.stop:
        _stderr(
            f"warning: interrupted by Ctrl-C after {tally.produced:,} deals produced "
            f"of {tally.generated:,} generated"
        )
    if tally.timed_out and not quiet:
        _stderr(f"croupier dealer: no deal produced in {values['timeout']:g} seconds (-t)")
    if not quiet:
        _stderr(_note(summary, seeded))


def _json_document(
    script: Script,
    summary: dict[str, Any],
    report: Any,
    deals: list[str],
    seeded: bool,
    bits: int | None,
) -> str:
    """The ``--json`` envelope of a run: the summary, the statistics and the deals under
    ``result``; the algorithm, the source and the bits in the envelope."""
    from croupier.formats.envelope import envelope_json

    result = {k: v for k, v in summary.items() if k not in ("algorithm", "source")}
    result = {"script": script.filename, **result}
    result["statistics"] = report.to_json()["statistics"]
    result["deals"] = deals
    text = envelope_json(
        "dealer",
        result,
        algorithm=summary["algorithm"],
        source=str(summary["source"]),
        reproducible=seeded,
        bits=bits,
    )
    return text + "\n"


def _pbn_strings(deals: DealArray) -> list[str]:
    """Each deal as a PBN deal string from North."""
    from croupier.bulk.writers import open_writer

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


def run_quick(argv: Sequence[str]) -> int | None:
    """``croupier dealer`` with ``argv`` read by :func:`quick_parse`, errors worded as the
    program words them; ``None`` when Typer must read the arguments (help, a usage
    error, a cluster option)."""
    values = quick_parse(argv)
    if values is None:
        return None
    from croupier.cli.quick_run import run_guarded

    return run_guarded(
        lambda: run_dealer(values), quiet=bool(values["quiet"]), flags=parameter_flags()
    )
