"""What ``croupier shuffle --file IN`` does once its options are read (no Typer here).

The Typer command (``cli/shuffle_cmd.py``) and the quick path of the file shuffle
(:mod:`croupier.cli.shuffle_quick`) both call these functions, so the two cannot
disagree.  :func:`shuffle_records_command` runs the file shuffle ``croupier-keyed-split/1``
(in memory or through temporary buckets, by ``--memory``) and the one-pass
sample ``croupier-reservoir/1`` (``-n K``) with ``shuf``'s habits: standard
input when no file is given, ``-z``, ``-o``, ``--records N``.
:func:`shuffle_big_file` runs the former file shuffle ``croupier-extshuffle/1``
(``--method keys``).  Both show a progress bar on a terminal and write the
note on stderr.

>>> parse_records(None), parse_records("lines"), parse_records("512")
(None, None, 512)
>>> parse_records("0")
Traceback (most recent call last):
...
croupier.errors.CroupierError: bad --records '0': give lines or a record size in bytes (1 or more)
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from pathlib import Path
from typing import Any, BinaryIO, cast

from croupier.cli.running import is_terminal, progress_bar
from croupier.errors import CroupierError, FileFormatError
from croupier.formats.envelope import envelope_json
from croupier.randomness import resolve_source, source_note
from croupier.randomness.purposes import Purpose
from croupier.randomness.source import BitSource
from croupier.scale.records import BOM, RecordFormat, stdin_bytes
from croupier.scale.workspace import parse_size

__all__ = [
    "DEFAULT_MEMORY",
    "MAX_JSON_BYTES",
    "MIN_MEMORY",
    "PROGRESS_MIN_BYTES",
    "default_memory",
    "parse_memory",
    "parse_records",
    "shuffle_big_file",
    "shuffle_records_command",
]

DEFAULT_MEMORY = "256M"
"""``--memory`` when not given."""

MIN_MEMORY = 2**20
"""The smallest ``--memory`` accepted (1M)."""

PROGRESS_MIN_BYTES = 256 * 2**20
"""Inputs from this size on show a progress bar (when stderr is a terminal)."""

SEED_PURPOSE = Purpose.SHUFFLE_FILE
"""The ``croupier-seeded/1`` purpose of ``--seed`` for the out-of-core shuffle."""


def parse_records(text: str | None) -> int | None:
    """``--records``: ``None`` for lines, else the record size in bytes (see the module).

    A record is at most :data:`croupier.scale.file_shuffle.MAX_RECORD_BYTES` (1 GiB).

    >>> parse_records("2G")
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: bad --records '2G': a record is at most 1 GiB ...
    """
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
    from croupier.scale.file_shuffle import MAX_RECORD_BYTES

    if size > MAX_RECORD_BYTES:
        raise CroupierError(
            f"bad --records {text!r}: a record is at most {MAX_RECORD_BYTES // 2**30} GiB "
            f"({MAX_RECORD_BYTES:,} bytes), the longest croupier shuffles"
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


def _echo(text: str, *, err: bool = False) -> None:
    """Print ``text`` and a line end on standard output (or error), at once."""
    print(text, file=sys.stderr if err else sys.stdout, flush=True)


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
    """Run the former file shuffle (``--method keys``) as asked, with its note on stderr."""
    from croupier.legacy.extshuffle import EXTSHUFFLE_ALGORITHM_ID, shuffle_file

    if file == "-":
        raise CroupierError(
            "--method keys reads a file, not standard input; save the input to a file first "
            "(or leave out --method)"
        )
    limit = parse_memory(memory)
    record_size = parse_records(records)
    source = resolve_source(seed, purpose=SEED_PURPOSE)
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
    for path in [] if quiet else report.removed_leftovers:
        _echo(f"removed the temporaries of a killed run: {path}", err=True)
    if quiet and not bits:
        return
    n = report.records
    kind = "lines" if record_size is None else f"{record_size:,}-byte records"
    where = "in memory" if report.buckets == 0 else f"{report.buckets} buckets"
    _echo(
        f"shuffled {n:,} {kind} ({report.bytes:,} bytes; {where}, {report.passes} "
        f"pass{'es' if report.passes > 1 else ''}) with {EXTSHUFFLE_ALGORITHM_ID} "
        f"{source_note(source)}; bits used: {report.bits_used:,.0f} (64 per record + "
        f"{report.tie_bits:,.0f} for ties; log2({n}!) = {report.log2_factorial:,.1f})",
        err=True,
    )


MAX_JSON_BYTES = 256 * 2**20
"""The largest input ``--json`` prints (every line is held as text)."""


def default_memory() -> int:
    """``--memory`` when not given: half the memory available now, at least 256 MiB.

    The choice never changes the output, only whether temporary buckets are used.

    >>> default_memory() >= 256 * 2**20
    True
    """
    try:
        free = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, AttributeError):  # pragma: no cover - not on this system
        free = 0
    return max(256 * 2**20, free // 2)


class _Tracked:
    """Standard output's binary stream, remembering the last byte written."""

    def __init__(self) -> None:
        self.last = b"\n"

    def write(self, data: Any) -> None:
        view = memoryview(data).cast("B")
        if view.nbytes:
            sys.stdout.buffer.write(view)
            self.last = bytes(view[-1:])


def _record_format(records: str | None, zero: bool) -> RecordFormat:
    size = parse_records(records)
    if size is not None and zero:
        raise CroupierError("give --records N or -z (NUL-terminated records), not both")
    return RecordFormat(None, size) if size is not None else RecordFormat(0 if zero else 10)


def _check_text(data: bytes, fmt: RecordFormat, file: str) -> None:
    """Refuse input that is not UTF-8 text, naming the line and column (for ``--json``)."""
    if fmt.record_size is not None:
        raise CroupierError("--json prints lines of text, not --records N")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        assert fmt.separator is not None
        sep = bytes([fmt.separator])
        line_start = data.rfind(sep, 0, exc.start) + 1
        number = data.count(sep, 0, exc.start) + 1
        if line_start == 0 and data.startswith(BOM):  # the mark is not part of line 1
            line_start = len(BOM)
        raise FileFormatError(
            f"--file {file!r} line {number} is not UTF-8 (byte {data[exc.start]:#04x} at "
            f"column {exc.start - line_start + 1}); --json needs text (without --json the "
            "bytes are shuffled as they are)"
        ) from None


def _json_items(data: bytes, fmt: RecordFormat) -> list[str]:
    """The records of shuffled ``data`` as text, without their endings (for ``--json``)."""
    assert fmt.separator is not None
    text = data.removeprefix(BOM).decode("utf-8")
    pieces = text.split(chr(fmt.separator))
    if pieces and pieces[-1] == "":
        pieces.pop()
    return [piece.removesuffix("\r") if fmt.lines else piece for piece in pieces]


def shuffle_records_command(
    file: str,
    out: str | None,
    *,
    memory: str | None,
    records: str | None,
    zero: bool,
    head_count: int | None,
    seed: str | None,
    overwrite: bool,
    quiet: bool,
    bits: bool,
    as_json: bool,
) -> None:
    """``croupier shuffle --file`` with the default method: a shuffle or a sample."""
    from croupier.scale.file_sample import RESERVOIR_ALGORITHM_ID
    from croupier.scale.file_shuffle import shuffle_file_records
    from croupier.scale.keyed_split import KEYED_SPLIT_ALGORITHM_ID

    fmt = _record_format(records, zero)
    limit = default_memory() if memory is None else parse_memory(memory)
    source = resolve_source(seed, purpose=SEED_PURPOSE)
    assert isinstance(source, BitSource)
    if as_json and (out is not None or memory is not None):
        raise CroupierError(
            "--json and --out or --memory do not apply together: --json prints every line "
            f"(at most {MAX_JSON_BYTES // 2**20} MiB of them)"
        )
    name = "standard input" if file == "-" else f"--file {file!r}"
    path = None if file == "-" else file
    captured = io.BytesIO() if as_json else None
    tracked = _Tracked()
    stdout: Any = captured.write if captured is not None else tracked.write
    if out is None and captured is None:
        sys.stdout.flush()
    try:
        size = os.stat(path).st_size if path is not None and os.path.isfile(path) else 0
    except OSError:
        size = 0
    show = not quiet and size >= PROGRESS_MIN_BYTES and is_terminal(sys.stderr)
    stdin: Any = None
    if captured is not None:  # --json: the text is checked first, line by line
        from croupier.files import read_bounded

        data = read_bounded(file, MAX_JSON_BYTES, what=name)
        if len(data) > MAX_JSON_BYTES:
            raise FileFormatError(
                f"{name} is larger than {MAX_JSON_BYTES // 2**20} MiB, the most --json prints"
            )
        _check_text(data, fmt, file)
        path, stdin = None, io.BytesIO(data)
    if head_count is not None:
        report_s = _sample(path, name, out, fmt, head_count, source, overwrite, stdout, stdin)
        n, kept, used = report_s.records, report_s.kept, report_s.bits_used
        bound = report_s.log2_choices
        algorithm = RESERVOIR_ALGORITHM_ID
        done = f"sampled {kept:,} of {n:,} {fmt.describe()} ({report_s.bytes:,} bytes)"
    else:
        with progress_bar(3 * size, show, "shuffling") as advance:
            report = shuffle_file_records(
                path, out, source=source, memory=limit, fmt=fmt, overwrite=overwrite,
                stdout=stdout, stdin=stdin, advance=advance, name=name,
            )  # fmt: skip
        n, used, bound = report.records, report.bits_used, report.log2_factorial
        algorithm = KEYED_SPLIT_ALGORITHM_ID
        where = (
            "in memory"
            if report.buckets == 0
            else f"{report.buckets} buckets, {report.passes} passes"
        )
        done = f"shuffled {n:,} {fmt.describe()} ({report.bytes:,} bytes; {where})"
        for leftover in [] if quiet else report.removed_leftovers:
            _echo(f"removed the temporaries of a killed run: {leftover}", err=True)
    if captured is not None:
        doc = {
            "items": _json_items(captured.getvalue(), fmt),
            "method": "keyed-split" if head_count is None else "reservoir",
            "method_requested": "auto",
            "uniform": True,
            "source_description": source.describe(),
            "sampler": None,  # the keyed streams are read by the algorithm itself
            "bits_bound": round(bound, 4),
            "warnings": [],
        }
        meta = {"source": source.kind, "reproducible": source.reproducible, "bits": used}
        _echo(envelope_json("shuffle", doc, algorithm=algorithm, **meta))
    elif out is None:
        sys.stdout.flush()
    if bits:
        if out is None and captured is None and tracked.last != b"\n":
            _echo("")
        _echo(f"bits used: {used}  (log2 of the outcomes = {bound:.2f})")
    if quiet:
        return
    per = f"{used / n:.2f} per record, " if n else ""
    _echo(
        f"{done} with {algorithm} {source_note(source)}; bits used: {used:,} "
        f"({per}log2 of the outcomes = {bound:,.1f})",
        err=True,
    )


def _sample(
    path: str | None,
    name: str,
    out: str | None,
    fmt: RecordFormat,
    count: int,
    source: BitSource,
    overwrite: bool,
    stdout: Any,
    stdin: Any,
) -> Any:
    """``-n K``: the one-pass sample into ``out`` (atomically) or standard output."""
    from croupier.files import AtomicFile, check_new_files, read_failure
    from croupier.scale.file_sample import sample_stream

    with contextlib.ExitStack() as stack:
        if path is None:
            handle = stdin if stdin is not None else stdin_bytes()
        else:
            try:
                handle = stack.enter_context(open(path, "rb"))
            except OSError as exc:
                raise FileFormatError(f"cannot read {name}: {read_failure(exc)}") from None
        write = stdout
        if out is not None:
            target_path = Path(out)
            if path is not None and os.path.exists(out) and os.path.samefile(path, out):
                raise FileFormatError(
                    f"the output {out!r} is the input file; croupier never changes its input "
                    "(write to another file)"
                )
            check_new_files([target_path], overwrite=overwrite)
            write = stack.enter_context(AtomicFile(target_path, overwrite=overwrite)).write
        limited = _Limited(handle, fmt, name)  # memory stays bounded: one record at most 1 GiB
        return sample_stream(cast(BinaryIO, limited), write, count, source=source, fmt=fmt)


class _Limited:
    """A binary input whose records are counted as they are read, refused past the limits.

    The one-pass sample holds the records it keeps and the record being read: a
    record longer than :data:`~croupier.scale.file_shuffle.MAX_RECORD_BYTES` (an input
    with no separator, such as ``/dev/zero`` read as lines) is refused once one
    byte more is read, and so is an input of more than
    :data:`~croupier.scale.file_shuffle.MAX_RECORDS` records.

    >>> import io
    >>> _Limited(io.BytesIO(b"a\\nb"), RecordFormat(), "x").read(10)
    b'a\\nb'
    """

    def __init__(self, handle: Any, fmt: RecordFormat, name: str) -> None:
        from croupier.scale.file_shuffle import RecordLimits

        self._handle = handle
        self._limits = RecordLimits(fmt, name)

    def read(self, size: int = -1) -> bytes:
        """At most ``size`` bytes (every byte read is counted first)."""
        import numpy as np

        block: bytes = self._handle.read(size)
        self._limits.take(np.frombuffer(block, np.uint8))
        return block
