"""``croupier shuffle --file IN --out OUT``: the exact out-of-core shuffle, for the command line.

:func:`shuffle_big_file` turns the options (``--memory 256M``, ``--records
N|lines``, ``--seed``) into a call of :func:`croupier.scale.shuffle_file`,
shows a progress bar on a terminal and writes the note on stderr.

>>> parse_records(None), parse_records("lines"), parse_records("512")
(None, None, 512)
>>> parse_records("0")
Traceback (most recent call last):
...
croupier.errors.CroupierError: bad --records '0': give lines or a record size in bytes (1 or more)
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import typer

from croupier.cli.running import is_terminal, progress_bar
from croupier.errors import CroupierError
from croupier.randomness import make_source, seed_warning, source_note
from croupier.randomness.source import BitSource
from croupier.scale.external_shuffle import EXTSHUFFLE_ALGORITHM_ID, shuffle_file
from croupier.scale.workspace import parse_size

__all__ = [
    "DEFAULT_MEMORY",
    "MIN_MEMORY",
    "PROGRESS_MIN_BYTES",
    "parse_memory",
    "parse_records",
    "shuffle_big_file",
]

DEFAULT_MEMORY = "256M"
"""``--memory`` when not given."""

MIN_MEMORY = 2**20
"""The smallest ``--memory`` accepted (1M)."""

PROGRESS_MIN_BYTES = 256 * 2**20
"""Inputs from this size on show a progress bar (when stderr is a terminal)."""

SEED_PURPOSE = "shuffle-file"
"""The ``croupier-seeded/1`` purpose of ``--seed`` for the out-of-core shuffle."""


def parse_records(text: str | None) -> int | None:
    """``--records``: ``None`` for lines, else the record size in bytes (see the module)."""
    if text is None or text.strip().lower() == "lines":
        return None
    try:
        size = parse_size(text, what="--records")
    except CroupierError:
        size = 0
    if size < 1:
        raise CroupierError(
            f"bad --records {text!r}: give lines or a record size in bytes (1 or more)"
        )
    return size


def parse_memory(text: str | None) -> int:
    """``--memory`` in bytes (at least :data:`MIN_MEMORY`).

    >>> parse_memory(None), parse_memory("1G")
    (268435456, 1073741824)
    >>> parse_memory("100K")
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: --memory '100K' is too small: give at least 1M
    """
    value = parse_size(DEFAULT_MEMORY if text is None else text, what="--memory")
    if value < MIN_MEMORY:
        raise CroupierError(f"--memory {text!r} is too small: give at least 1M")
    return value


def _write_stdout(data: Any) -> None:
    sys.stdout.buffer.write(data)


def shuffle_big_file(
    file: str,
    out: str | None,
    *,
    memory: str | None,
    records: str | None,
    seed: str | None,
    overwrite: bool,
    quiet: bool,
    bits: bool,
) -> None:
    """Run the out-of-core shuffle of ``--file`` as the options ask, with its note on stderr."""
    if file == "-":
        raise CroupierError(
            "the out-of-core shuffle (--out, --memory, --records) reads a file, not standard "
            "input; save the input to a file first"
        )
    limit = parse_memory(memory)
    record_size = parse_records(records)
    source = make_source(seed, purpose=SEED_PURPOSE)
    assert isinstance(source, BitSource)
    size = Path(file).stat().st_size if Path(file).is_file() else 0
    show = not quiet and size >= PROGRESS_MIN_BYTES and is_terminal(sys.stderr)
    stdout = None
    if out is None:
        sys.stdout.flush()
        stdout = _write_stdout
    with progress_bar(2 * size, show, "shuffling") as advance:
        report = shuffle_file(
            file, out, source=source, memory=limit, record_size=record_size,
            overwrite=overwrite, stdout=stdout, advance=advance,
        )  # fmt: skip
    if out is None:
        sys.stdout.flush()
    for path in report.removed_leftovers:
        typer.echo(f"removed the temporaries of a killed run: {path}", err=True)
    if quiet and not bits:
        return
    n = report.records
    warning = seed_warning(
        source, report.log2_factorial, f"{n}! ~ 2^{report.log2_factorial:.1f} orders"
    )
    if warning is not None and not quiet:
        typer.echo(f"warning: {warning}", err=True)
    kind = "lines" if record_size is None else f"{record_size:,}-byte records"
    where = "in memory" if report.buckets == 0 else f"{report.buckets} buckets"
    typer.echo(
        f"shuffled {n:,} {kind} ({report.bytes:,} bytes; {where}, {report.passes} "
        f"pass{'es' if report.passes > 1 else ''}) with {EXTSHUFFLE_ALGORITHM_ID} "
        f"{source_note(source)}; bits used: {report.bits_used:,.0f} (64 per record + "
        f"{report.tie_bits:,.0f} for ties; log2({n}!) = {report.log2_factorial:,.1f})",
        err=True,
    )
