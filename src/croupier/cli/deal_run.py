"""What ``croupier deal`` does once its options are read (no Typer here).

:func:`run_deal` deals with the options of ``croupier deal``; the Typer command
(``cli/deal_cmd.py``: help, usage errors, the registry) and the quick path of
``croupier deal`` (:mod:`croupier.cli.deal_quick`, which reads its arguments
without Typer) both call it, so the two cannot disagree.  Only what a run needs
is imported, when it needs it: a cluster run's modules, a condition's simulation
and rich's progress bar stay out of a short run.

>>> _resolve_format(None, True), _resolve_format("pbn", False)
('json', 'pbn')
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from croupier.cli.running import INTERRUPTED
from croupier.errors import CroupierError

if TYPE_CHECKING:
    from pathlib import Path

    from croupier.runs.options import BoardOptions
    from croupier.runs.request import DealRequest

__all__ = ["run_deal"]


def _resolve_format(fmt: str | None, as_json: bool) -> str:
    """``--format``, with ``--json`` standing for ``--format json``; ``pbn-games`` is ``pbn``."""
    if as_json and fmt not in (None, "json"):
        raise CroupierError(f"--json is --format json; it cannot be combined with --format {fmt}")
    if fmt == "pbn-games":
        import warnings

        warnings.warn(
            "--format pbn-games is deprecated: use --format pbn", DeprecationWarning, stacklevel=2
        )
        return "pbn"
    return "json" if as_json else "text" if fmt is None else fmt


def _stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def run_deal(
    *,
    game: str | None = None,
    players: int | None = None,
    hands: str | None = None,
    deck: str | None = None,
    count: int = 1,
    method: str | None = None,
    seed: str | None = None,
    entropy: str | None = None,
    fmt: str | None = None,
    as_json: bool = False,
    bits: bool = False,
    scheme: str = "croupier",
    engine: str | None = None,
    out: Path | None = None,
    overwrite: bool = False,
    quiet: bool = False,
    where: str | None = None,
    predeal: str | None = None,
    strategy: str = "auto",
    first_board: int | None = None,
    event: str | None = None,
    lf: bool = False,
    show_stock: bool = False,
    workers: int | None = None,
    scheduler: str | None = None,
    chunk: int | None = None,
) -> int:
    """Deal ``count`` deals of a game and print them in the chosen format; the exit code.

    The options are those of ``croupier deal`` (by their parameter names); bad input
    raises :class:`CroupierError`.
    """
    from croupier.cli.layouts import check_scheme, layout
    from croupier.cli.output import file_or_standard_output
    from croupier.runs.request import DealRequest

    out = file_or_standard_output(out)
    cluster = None
    if workers is not None or scheduler is not None or chunk is not None:
        from croupier.cli.cluster_options import cluster_request

        cluster = cluster_request(workers, scheduler, chunk)
    out_format = _resolve_format(fmt, as_json)
    lay = layout(game, players, hands, deck)
    scheme = check_scheme(lay, scheme)
    request = DealRequest.make(
        lay,
        count,
        engine=engine,  # type: ignore[arg-type]  # checked by DealRequest.make
        method=method,
        seed=seed,
        entropy=entropy,
        where=where,
        predeal=predeal,
        strategy=strategy,  # type: ignore[arg-type]  # checked by DealRequest.make
    )
    from croupier.runs.options import board_options
    from croupier.runs.writers import BINARY_FORMATS

    boards = board_options(out_format, count, first_board, event, lf)
    if out_format in BINARY_FORMATS and out is None:
        raise CroupierError(
            f"--format {out_format} is binary, so it is never written to standard output; "
            f"give a file: --out FILE.{out_format}"
        )
    if cluster is not None:
        from croupier.cli.deal_cluster import deal_on_cluster

        return deal_on_cluster(
            cluster, request, out_format, out, overwrite=overwrite, quiet=quiet, bits=bits
        )
    return _deal_here(
        request, out_format, out, boards, scheme=scheme, overwrite=overwrite, quiet=quiet,
        bits=bits, show_stock=show_stock,
    )  # fmt: skip


def _deal_here(
    request: DealRequest,
    out_format: str,
    out: Path | None,
    boards: BoardOptions,
    *,
    scheme: str,
    overwrite: bool,
    quiet: bool,
    bits: bool,
    show_stock: bool,
) -> int:
    """Deal ``request`` in this process and write it; the exit code."""
    from croupier.cli.running import (
        RunState,
        is_terminal,
        progress_bar,
        progress_wanted,
        stdout_bytes,
        stop_on_ctrl_c,
    )
    from croupier.runs.notes import bits_note, run_notes
    from croupier.runs.options import write_options
    from croupier.runs.run import open_dealer, run_deals
    from croupier.runs.writers import open_deal_writer

    count, lay = request.count, request.layout
    dealer = open_dealer(request)
    options = write_options(
        request, dealer, boards, scheme=scheme, bits=bits, show_stock=show_stock
    )
    show = progress_wanted(
        count,
        request.engine,
        quiet=quiet,
        stderr_is_terminal=is_terminal(sys.stderr),
        output_is_terminal=out is None and is_terminal(sys.stdout),
    )
    state = RunState()
    file = None
    if out is not None:
        from croupier.files import AtomicFile

        file = AtomicFile(out, overwrite=overwrite)
    try:
        with stop_on_ctrl_c(state):  # Ctrl-C while the file is finished: it is still finished
            stream = file.file if file is not None else stdout_bytes()
            writer = open_deal_writer(out_format, stream, lay, options)
            with progress_bar(count, show) as advance:
                result = run_deals(
                    dealer, count, writer, advance=advance, should_stop=lambda: state.stop
                )
            if file is not None:
                file.commit()
    finally:
        if file is not None and not file.done:
            file.discard()
    if result.interrupted:
        from croupier.cli.secrets_mask import mask_secrets

        place = (
            "to standard output, which ends after the last whole deal"
            if out is None
            else f"to {mask_secrets(repr(str(out)))}, a complete, valid {out_format} file"
        )
        _stderr(
            f"warning: interrupted by Ctrl-C: wrote {result.written:,} of {count:,} deals {place}"
        )
    for line in run_notes(request, dealer, out_format, result.written, quiet=quiet):
        _stderr(line)
    if bits and out_format != "text":
        _stderr(bits_note(result.bits, result.written, lay))
    return INTERRUPTED if result.interrupted else 0
