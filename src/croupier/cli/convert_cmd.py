"""``croupier convert``: a board file from one format to another, deals unchanged.

One module-level Typer app (:data:`app`), registered in :mod:`croupier.cli.app`.
Reading is tolerant (:func:`croupier.formats.board_files.read_board_file`: a
game that cannot be read is skipped and reported, partial deals are kept);
writing is :func:`croupier.formats.board_files.render_records`.  What the
target format cannot hold is an error, never a guess.  ``docs/convert.md``
describes the command.

>>> sorted(typer.main.get_group(app).commands)
['convert']
>>> CONVERT_FORMATS, HAND_RECORD_TARGETS
(('pbn', 'lin', 'dup', 'dlm', 'csv', 'json', 'lines'), ('html', 'pdf'))
>>> summary_line("x.pbn", 32, "y.lin", skipped=2)
'read 32 boards from x.pbn (2 games skipped); wrote y.lin'
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer

from croupier import __version__
from croupier.boards import MAX_BOARD, dealer, vulnerability
from croupier.cli.options import JsonOpt, OverwriteOpt, QuietOpt
from croupier.cli.running import is_terminal
from croupier.cli.secrets_mask import mask_secrets
from croupier.errors import CroupierError, FileFormatError
from croupier.files import check_new_files, read_bounded, write_file
from croupier.formats.board_files import (
    EXTENSIONS,
    MAX_BOARD_FILE_BYTES,
    BoardFormat,
    read_board_file,
    render_records,
)
from croupier.formats.envelope import envelope_json
from croupier.formats.records import (
    BoardFileContents,
    BoardRecord,
    SkippedGame,
    drop_repeats,
    renumber,
)
from croupier.formats.registry import board_file_formats

__all__ = [
    "CONVERT_FORMATS",
    "HAND_RECORD_TARGETS",
    "MAX_SKIP_LINES",
    "STDIO",
    "app",
    "convert",
    "summary_line",
]

app = typer.Typer(add_completion=False, rich_markup_mode=None)

#: The formats ``croupier convert`` reads and writes, by name.
CONVERT_FORMATS: tuple[str, ...] = board_file_formats(readable=True)
#: What OUT may also be: a printable hand record (``croupier handrecord`` without its options).
HAND_RECORD_TARGETS: tuple[str, ...] = ("html", "pdf")
#: The file name that stands for standard input (IN) or standard output (OUT).
STDIO = "-"
#: The most skipped games reported one per line; the rest are counted.
MAX_SKIP_LINES = 10
#: Formats that hold only complete deals with consecutive ascending board numbers.
_NUMBERED_SETS = (BoardFormat.DUP, BoardFormat.DLM)
GENERATOR = f"croupier {__version__}"
_FORMAT_LIST = ", ".join(CONVERT_FORMATS)

CONVERT_HELP = f"""\
Convert a board file to another format without changing a deal.

Formats: {_FORMAT_LIST} (lines = one deal per line, .txt).  Each comes
from the file's extension unless --from / --to say; IN '-' is standard
input, OUT '-' or no OUT is standard output (then --to is needed).  OUT may
also be a printable hand record, html or pdf (croupier handrecord makes
them with a header, double-dummy tables and par).

Games that cannot be read are skipped, one warning line each on stderr
(--strict: any skip is an error and nothing is written; --quiet: no warning
and no summary line); IN with no board to write is an error.  Partial deals
stay partial (pbn, lin, csv, json, lines hold them); DUP and DLM hold only
complete deals with consecutive board numbers: --renumber (or
--first-board N) numbers the boards 1.. (N..) in file order, the standard
dealer and vulnerability filled in where the file gave none.  A board
repeated for another room (same number, same deal) is written once.
Nothing is written on any error; an existing OUT is kept unless
--overwrite; IN is never changed.

\b
Examples:
  croupier convert session1.pbn session1.lin
  croupier convert hands.pbn --to json
  croupier convert solver.pbn machine.dup --renumber
  croupier convert - out.csv --from lin < bbo.lin
  croupier convert session.pbn session.pdf
"""


def summary_line(
    source: str, boards: int, target: str, *, skipped: int = 0, partial: int = 0, repeats: int = 0
) -> str:
    """The line ``croupier convert`` prints on stderr when done (unless ``--quiet``).

    >>> summary_line("<stdin>", 1, "standard output (json)", partial=1)
    'read 1 board from <stdin> (1 partial deal); wrote standard output (json)'
    """

    def count(n: int, what: str) -> str:
        return f"{n} {what}" if n == 1 else f"{n} {what.replace('board', 'boards')}"

    notes = []
    if partial:
        notes.append(f"{partial} partial deal{'s' if partial != 1 else ''}")
    if repeats:
        notes.append(f"{count(repeats, 'repeated board')} left out")
    if skipped:
        notes.append(f"{skipped} game{'s' if skipped != 1 else ''} skipped")
    note = f" ({', '.join(notes)})" if notes else ""
    return f"read {count(boards, 'board')} from {source}{note}; wrote {target}"


def _standard_cycles(record: BoardRecord) -> BoardRecord:
    """A record of a DUP or DLM file: its dealer and vulnerability are its board number's."""
    if record.number is None:
        return record
    return replace(
        record,
        dealer=record.dealer or dealer(record.number),
        vulnerable=record.vulnerable or vulnerability(record.number),
    )


def _format(name: str | None, path: str, option: str, role: str) -> BoardFormat:
    """The format named by ``--from``/``--to``, else by the extension of ``path``."""
    if name is not None:
        if name.lower() not in CONVERT_FORMATS:
            raise CroupierError(
                f"unknown format {name!r} for {option}; expected one of {_FORMAT_LIST}"
            )
        return BoardFormat(name.lower())
    if path == STDIO:
        raise CroupierError(
            f"{role} is standard {'input' if role == 'IN' else 'output'}: "
            f"give its format with {option} ({_FORMAT_LIST})"
        )
    suffix = Path(path).suffix.lower()
    for fmt, ext in EXTENSIONS.items():
        if ext == suffix and fmt.value in CONVERT_FORMATS:
            return fmt
    known = ", ".join(EXTENSIONS[BoardFormat(f)] for f in CONVERT_FORMATS)
    raise CroupierError(
        f"cannot tell the format of {path!r} from its extension ({known}); give {option}"
    )


def _hand_record_target(name: str | None, path: str | None) -> str | None:
    """``html`` or ``pdf`` when OUT is a hand record (by ``--to`` or extension), else ``None``.

    >>> _hand_record_target(None, "x.PDF"), _hand_record_target("HTML", None)
    ('pdf', 'html')
    """
    if name is not None:
        return name.lower() if name.lower() in HAND_RECORD_TARGETS else None
    if path is None or path == STDIO:
        return None
    return {".html": "html", ".htm": "html", ".pdf": "pdf"}.get(Path(path).suffix.lower())


def _read_input(path: str) -> bytes:
    """The bytes of ``path`` (``-``: standard input), refused past the board-file limit unread."""
    limit = MAX_BOARD_FILE_BYTES
    data = read_bounded(path, limit, what="standard input" if path == STDIO else repr(path))
    if len(data) > limit:
        name = "standard input" if path == STDIO else repr(path)
        raise FileFormatError(
            f"{name} is larger than {limit // 2**20} MiB, the largest board file croupier reads"
        )
    return data


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return Path(a).resolve() == Path(b).resolve()


def _check_target(records: list[BoardRecord], fmt: BoardFormat, source: str) -> None:
    """Refuse, naming the board, what DUP and DLM cannot hold (before anything is written)."""
    if fmt not in _NUMBERED_SETS:
        return
    name = fmt.value.upper()
    if not records:
        raise FileFormatError(f"{source} has no boards; a {name} file holds at least one")
    for r in records:
        if not r.complete:
            board = f"board {r.number}" if r.number is not None else f"game {r.game}"
            raise FileFormatError(
                f"{board} of {source} (line {r.line}) is a partial deal: {r.deal!r}; "
                f"{name} files hold complete deals only (convert to pbn, lin, csv, json or lines)"
            )
    for before, after in zip([None, *records], records, strict=False):
        if after.number is None:
            raise FileFormatError(
                f"game {after.game} of {source} (line {after.line}) has no board number; "
                f"{name} files hold numbered boards (--renumber numbers them 1, 2, ...)"
            )
        if before is not None and before.number is not None and after.number != before.number + 1:
            raise FileFormatError(
                f"board {after.number} follows board {before.number} in {source}; {name} files "
                "hold consecutive ascending boards (--renumber numbers them 1, 2, ...)"
            )


def _not_written(records: list[BoardRecord], fmt: BoardFormat, source: str) -> list[str]:
    """What a DUP or DLM file loses: a dealer or vulnerability other than the board number's."""
    if fmt not in _NUMBERED_SETS:
        return []
    found = []
    for r in records:
        if r.number is None:
            continue
        std_dealer, std_vul = dealer(r.number), vulnerability(r.number)
        differs = []
        if r.dealer is not None and r.dealer != std_dealer:
            differs.append(f"dealer {r.dealer}")
        if r.vulnerable is not None and r.vulnerable != std_vul:
            differs.append(f"vulnerability {r.vulnerable}")
        if differs:
            found.append(
                f"board {r.number} of {source}: {' and '.join(differs)} not written; a "
                f"{fmt.value.upper()} file gives board {r.number} dealer {std_dealer}, "
                f"vulnerability {std_vul}"
            )
    return found


def _warning_lines(source: str, skipped: Sequence[SkippedGame], lost: list[str]) -> list[str]:
    lines = [
        f"warning: {source} line {s.line} (game {s.game}) skipped: {s.reason}"
        for s in skipped[:MAX_SKIP_LINES]
    ]
    if len(skipped) > MAX_SKIP_LINES:
        lines.append(f"warning: {len(skipped) - MAX_SKIP_LINES} more games skipped")
    lines += [f"warning: {message}" for message in lost[:MAX_SKIP_LINES]]
    if len(lost) > MAX_SKIP_LINES:
        lines.append(f"warning: {len(lost) - MAX_SKIP_LINES} more boards as above")
    return lines


@app.command("convert", help=CONVERT_HELP)
def convert(
    source_path: Annotated[
        str, typer.Argument(metavar="IN", help="The board file to read ('-': standard input).")
    ],
    target_path: Annotated[
        str | None,
        typer.Argument(metavar="OUT", help="The file to write ('-' or none: standard output)."),
    ] = None,
    from_fmt: Annotated[
        str | None, typer.Option("--from", help=f"Format of IN ({_FORMAT_LIST}).")
    ] = None,
    to_fmt: Annotated[
        str | None, typer.Option("--to", help=f"Format of OUT ({_FORMAT_LIST}, html, pdf).")
    ] = None,
    strict: Annotated[
        bool, typer.Option("--strict", help="Any game that cannot be read is an error.")
    ] = False,
    renumber_boards: Annotated[
        bool,
        typer.Option(
            "--renumber", help="Number the boards 1, 2, ... (or from --first-board) in file order."
        ),
    ] = False,
    first_board: Annotated[
        int | None,
        typer.Option(
            "--first-board",
            min=1,
            max=MAX_BOARD,
            help="Number the boards from N in file order (implies --renumber).",
        ),
    ] = None,
    lf: Annotated[
        bool, typer.Option("--lf", help="LF line ends in PBN and CSV (CRLF by default).")
    ] = False,
    overwrite: OverwriteOpt = False,
    quiet: QuietOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Convert a board file to another format without changing a deal."""
    source_fmt = _format(from_fmt, source_path, "--from", "IN")
    to_stdout = target_path is None or target_path == STDIO
    record_fmt = _hand_record_target(to_fmt, None if to_stdout else str(target_path))
    target_fmt = (
        BoardFormat.HTML
        if record_fmt is not None
        else _format(to_fmt, STDIO if to_stdout else str(target_path), "--to", "OUT")
    )
    target_name = record_fmt or target_fmt.value
    source = "<stdin>" if source_path == STDIO else source_path
    target = None if to_stdout else Path(str(target_path))
    _check_destination(source_path, target, target_name, as_json=as_json, overwrite=overwrite)

    contents, records, repeats = _read_records(
        source_path, source_fmt, source, strict=strict, first_board=first_board,
        renumber_boards=renumber_boards,
    )  # fmt: skip
    if not records:
        for line in [] if quiet or as_json else _warning_lines(source, contents.skipped, []):
            typer.echo(mask_secrets(line), err=True)
        raise CroupierError(f"no boards to convert: {_why_empty(source, contents)}")
    data, lost = _render(records, target_fmt, record_fmt, source, contents.skipped, lf=lf)
    if target is None:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        write_file(target, data, overwrite=overwrite)
    partial = sum(not r.complete for r in records)
    if as_json:
        report: dict[str, Any] = {
            "input": source,
            "from": source_fmt.value,
            "output": None if target is None else str(target),
            "to": target_name,
            "read": len(contents.records),
            "written": len(records),
            "partial": partial,
            "repeats": repeats,
            "skipped": [s.to_dict() for s in contents.skipped],
            "warnings": lost,
        }
        typer.echo(envelope_json("convert", report))
    elif not quiet:
        for line in _warning_lines(source, contents.skipped, lost):
            typer.echo(mask_secrets(line), err=True)
        written = f"standard output ({target_name})" if target is None else str(target)
        counts = {"skipped": len(contents.skipped), "partial": partial, "repeats": repeats}
        typer.echo(summary_line(source, len(contents.records), written, **counts), err=True)


def _why_empty(source: str, contents: BoardFileContents) -> str:
    """Why IN gave no board: every game skipped, or none there.

    >>> _why_empty("x.pbn", BoardFileContents([], []))
    'x.pbn holds no games'
    """
    count = len(contents.skipped)
    if count:
        return f"{count} game{'s' if count != 1 else ''} skipped in {source}, none read"
    return f"{source} holds no games"


def _read_records(
    source_path: str,
    source_fmt: BoardFormat,
    source: str,
    *,
    strict: bool,
    first_board: int | None,
    renumber_boards: bool,
) -> tuple[BoardFileContents, list[BoardRecord], int]:
    """IN read: ``(what it holds, the boards to write, how many repeats were left out)``.

    The boards to write are the first of each repeated board, with the standard dealer
    and vulnerability where a DUP or DLM file implies them, renumbered when asked.
    """
    contents = read_board_file(_read_input(source_path), source_fmt, source=source, partial=True)
    if strict:
        contents.require_all()
    records, repeats = drop_repeats(contents.records)
    if source_fmt in _NUMBERED_SETS:  # the board number implies dealer and vulnerability
        records = [_standard_cycles(r) for r in records]
    if renumber_boards or first_board is not None:
        records = renumber(records, first_board or 1)
    return contents, records, repeats


def _check_destination(
    source_path: str, target: Path | None, target_name: str, *, as_json: bool, overwrite: bool
) -> None:
    """Refuse an OUT that cannot be written: standard output where it cannot take the
    output (``--json``; a binary format on a terminal), IN itself, an existing file."""
    if target is None and as_json:
        raise CroupierError(
            "--json prints a report on standard output; give OUT, the file to write"
        )
    if target is None and target_name in ("dup", "pdf") and is_terminal(sys.stdout):
        raise CroupierError(
            f"{target_name.upper()} is a binary format: give OUT, or redirect standard output to "
            "a file"
        )
    if target is not None:
        if source_path != STDIO and _same_file(source_path, str(target)):
            raise CroupierError(
                f"IN and OUT are the same file {source_path!r}; croupier never changes its input"
            )
        check_new_files([target], overwrite=overwrite)


def _render(
    records: list[BoardRecord],
    target_fmt: BoardFormat,
    record_fmt: str | None,
    source: str,
    skipped: Sequence[SkippedGame],
    *,
    lf: bool,
) -> tuple[bytes, list[str]]:
    """The bytes of OUT, and what the target format loses (warnings), after checking that
    it can hold the records."""
    if record_fmt is not None:
        from croupier.formats.hand_record import HandRecord, render_hand_record

        return render_hand_record(HandRecord.from_records(records), record_fmt), []
    _check_target(records, target_fmt, source)
    lost = _not_written(records, target_fmt, source)
    data = render_records(
        records,
        target_fmt,
        skipped=skipped,
        generator=GENERATOR,
        newline="\n" if lf else None,
    )
    return data, lost
