"""``croupier handrecord``: a printable hand record (HTML page or PDF) of board files.

One module-level Typer app (:data:`app`), registered in :mod:`croupier.cli.app`.
Reading is :func:`croupier.formats.board_files.read_board_file` (every board
file croupier reads); the record is :class:`croupier.formats.hand_record.HandRecord`,
its double-dummy tables come from
:func:`croupier.simulate.double_dummy.analyse_hand_record`, the commitment
header from :mod:`croupier.tournament.provenance`, and the bytes from
:func:`croupier.formats.hand_record.render_hand_record`.  ``docs/hand-records.md``
describes the command.

>>> sorted(typer.main.get_group(app).commands)
['handrecord']
>>> record_format(None, Path("day1.PDF"))
'pdf'
"""

from __future__ import annotations

import math
import sys
import warnings
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from croupier.boards import MAX_BOARD
from croupier.cli.failures import as_flags
from croupier.cli.options import (
    JsonOpt,
    OverwriteOpt,
    QuietOpt,
    format_option,
    option,
    out_option,
)
from croupier.cli.output import file_or_standard_output
from croupier.cli.running import is_terminal
from croupier.cli.secrets_mask import mask_secrets
from croupier.errors import CroupierError, FileFormatError
from croupier.files import check_new_files, read_bounded, write_file
from croupier.formats.board_files import (
    MAX_BOARD_FILE_BYTES,
    BoardFormat,
    format_for_path,
    read_board_file,
)
from croupier.formats.envelope import envelope_json
from croupier.formats.hand_record import (
    MAX_PER_PAGE,
    HandRecord,
    MissingGlyphsWarning,
    Provenance,
    default_per_page,
    render_hand_record,
)
from croupier.formats.pbn import pbn_header_tags
from croupier.formats.records import BoardRecord, SkippedGame
from croupier.formats.registry import board_file_formats

__all__ = ["HANDRECORD_HELP", "app", "handrecord", "record_format"]

app = typer.Typer(add_completion=False, rich_markup_mode=None)

_READ_FORMATS = board_file_formats(readable=True)
_MAX_SKIP_LINES = 10
#: The flags that give the parameters of
#: :func:`croupier.tournament.provenance.boards_provenance`, named in its errors.
_PROVENANCE_FLAGS = {
    "event": "--event",
    "commitment_hex": "--commitment",
    "delayed_value": "--dv",
    "session": "--session",
    "plan": "--plan",
}

HANDRECORD_HELP = f"""\
Make a printable hand record of board files: an HTML page or a PDF.

Every board shows the four hands around a compass (suit symbols, 10 for the
ten), its number, dealer, vulnerability and each hand's high-card points;
--dd adds the double-dummy tricks of every declarer and strain and the par
(the dd extra).  FILE is any board file croupier reads ({", ".join(_READ_FORMATS)}),
its format from the extension or --from ('-': standard input, with
--from); several files make one record.
The record's format comes from --out (.html or .pdf) or --format; without
--out (or with --out -) it goes to standard output (with --out FILE, a note
on stderr says what was written; --quiet leaves it and the warnings out).
PDF needs the pdf extra.  Files with no board at all are an error.

The header gives the event (--event, or the PBN file's Event tag), session,
date and boards.  For boards dealt under a commitment give what was
published, and the record says how to check the boards: --commitment, --dv,
--session (and --plan for croupier-boards/2) for croupier boards make, or
--sqd EVENT.sqd for croupier squaredeal make.

\b
Examples:
  croupier handrecord session1.pbn --out session1.pdf
  croupier handrecord session1.pbn --dd --out session1.html
  croupier handrecord s1.pbn s2.lin --paper letter --per-page 4 --out day1.pdf
  croupier handrecord cup1.pbn --event "Club Cup" --plan "1:1-16;2:17-32" \\
      --commitment 2492166a... --dv "15234.56" --session 1 --dd --out cup1.pdf
  croupier handrecord sets/CUP1.pbn --sqd EV.sqd --session 1 --out CUP1.pdf
"""


class RecordFormat(StrEnum):
    """The formats of a hand record."""

    HTML = "html"
    PDF = "pdf"


class Paper(StrEnum):
    """Paper sizes."""

    A4 = "a4"
    LETTER = "letter"


_EXTENSIONS = {".html": "html", ".htm": "html", ".pdf": "pdf"}


def record_format(chosen: str | None, out: Path | None) -> str:
    """The record's format: ``chosen`` (``--format``), else ``out``'s extension, else ``html``.

    >>> record_format(None, None), record_format("pdf", Path("x.html"))
    ('html', 'pdf')
    >>> record_format(None, Path("x.pbn"))
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: cannot tell the format of 'x.pbn' from its extension ...
    """
    if chosen is not None:
        return str(chosen)
    if out is None:
        return "html"
    found = _EXTENSIONS.get(out.suffix.lower())
    if found is None:
        raise CroupierError(
            f"cannot tell the format of {str(out)!r} from its extension (.html or .pdf); "
            "give --format html or --format pdf"
        )
    return found


def _input_format(name: str | None, path: Path) -> BoardFormat:
    if name is not None:
        if name.lower() not in _READ_FORMATS:
            raise CroupierError(
                f"unknown format {name!r} for --from; expected one of {', '.join(_READ_FORMATS)}"
            )
        return BoardFormat(name.lower())
    if str(path) == "-":
        raise CroupierError(
            f"FILE '-' is standard input: give its format with --from ({', '.join(_READ_FORMATS)})"
        )
    if path.suffix.lower() in (".html", ".htm"):
        raise CroupierError(
            f"{str(path)!r} is an HTML page, not a board file; give the board file it was made from"
        )
    try:
        return format_for_path(path)
    except FileFormatError:
        raise CroupierError(
            f"cannot tell the format of {str(path)!r} from its extension "
            "(.pbn, .lin, .dup, .dlm, .csv, .json, .txt); give --from"
        ) from None


def _read(
    path: Path, fmt: BoardFormat, strict: bool
) -> tuple[bytes, list[BoardRecord], list[SkippedGame]]:
    data = read_bounded(str(path), MAX_BOARD_FILE_BYTES, what=repr(str(path)))
    if len(data) > MAX_BOARD_FILE_BYTES:
        raise FileFormatError(
            f"{str(path)!r} is larger than {MAX_BOARD_FILE_BYTES // 2**20} MiB, the largest board "
            "file croupier reads"
        )
    contents = read_board_file(data, fmt, source=str(path), partial=True)
    if strict:
        contents.require_all()
    return data, contents.records, contents.skipped


def _provenance(
    record: HandRecord,
    files: list[Path],
    *,
    commitment: str | None,
    dv: str | None,
    plan: str | None,
    sqd: Path | None,
    session: int | None,
) -> tuple[Provenance | None, str | None]:
    """The commitment header asked for, and the event name the ``.sqd`` gives (if any)."""
    names = [str(f) for f in files]
    if sqd is not None:
        if commitment is not None or plan is not None or dv is not None:
            raise CroupierError(
                "give either --sqd (SquareDeal) or --commitment with --dv (croupier boards), "
                "not both"
            )
        from croupier.tournament.provenance import squaredeal_provenance
        from croupier.tournament.squaredeal_workflow import load_event

        event = load_event(sqd)
        return squaredeal_provenance(event, str(sqd), names), event.name
    if commitment is None:
        if dv is not None or plan is not None:
            raise CroupierError("--dv and --plan go with --commitment (the published commitment)")
        return None, None
    missing = [flag for flag, v in (("--dv", dv), ("--session", session)) if v is None]
    if missing:
        raise CroupierError(
            f"--commitment needs {' and '.join(missing)} too (what the verify command checks)"
        )
    if not record.event:
        raise CroupierError(
            "--commitment needs --event (the event name exactly as published), or a PBN file "
            "whose Event tag gives it"
        )
    from croupier.tournament.board_plan import BoardPlan
    from croupier.tournament.provenance import boards_provenance

    numbers = [b.number for b in record.boards]
    consecutive = bool(numbers) and numbers == list(range(numbers[0], numbers[0] + len(numbers)))
    assert dv is not None and session is not None
    try:
        made = boards_provenance(
            record.event,
            commitment,
            dv,
            session,
            plan=BoardPlan.parse(plan) if plan is not None else None,
            boards=range(numbers[0], numbers[-1] + 1) if consecutive else None,
            files=names,
        )
    except CroupierError as exc:
        raise _with_flags(exc) from None
    return made, None


def _with_flags(exc: CroupierError) -> CroupierError:
    """``exc`` naming the flags the library's message gives as parameters (``--commitment``).

    >>> from croupier.errors import VerificationError
    >>> _with_flags(VerificationError("commitment_hex= must be the 64 hex digits"))
    VerificationError('--commitment must be the 64 hex digits')
    """
    message = as_flags(str(exc), _PROVENANCE_FLAGS)
    try:
        return type(exc)(message)
    except TypeError:  # an error class that takes more than its message
        return CroupierError(message)


def _warnings(skipped: list[SkippedGame], source: str) -> list[str]:
    lines = [
        f"warning: {source} line {s.line} (game {s.game}) skipped: {s.reason}"
        for s in skipped[:_MAX_SKIP_LINES]
    ]
    if len(skipped) > _MAX_SKIP_LINES:
        lines.append(f"warning: {len(skipped) - _MAX_SKIP_LINES} more games of {source} skipped")
    return lines


@app.command("handrecord", help=HANDRECORD_HELP)
def handrecord(
    files: Annotated[
        list[Path], typer.Argument(metavar="FILE", help="Board files (pbn, lin, dup, ...).")
    ],
    out: Annotated[
        Path | None, out_option("Write the record to FILE (.html or .pdf); default stdout.")
    ] = None,
    fmt: Annotated[
        RecordFormat | None, format_option("html or pdf (default: from --out, else html).")
    ] = None,
    from_fmt: Annotated[
        str | None,
        typer.Option("--from", help=f"Format of every FILE ({', '.join(_READ_FORMATS)})."),
    ] = None,
    dd: Annotated[
        bool, typer.Option("--dd", help="Add double-dummy tricks and par (needs the dd extra).")
    ] = False,
    per_page: Annotated[
        int | None,
        typer.Option(
            "--per-page",
            min=1,
            max=MAX_PER_PAGE,
            help="Boards on one printed page (default 6).",
        ),
    ] = None,
    paper: Annotated[Paper, typer.Option("--paper", help="Paper size: a4 or letter.")] = Paper.A4,
    event: Annotated[
        str | None, option("--event", "Event name (default: the PBN Event tag).")
    ] = None,
    session: Annotated[
        int | None, typer.Option("--session", min=1, max=99999, help="Session number.")
    ] = None,
    date: Annotated[
        str | None, typer.Option("--date", help="Date (default: the PBN Date tag).")
    ] = None,
    commitment: Annotated[
        str | None,
        typer.Option("--commitment", help="The croupier-boards commitment published before."),
    ] = None,
    dv: Annotated[
        str | None, typer.Option("--dv", help="The delayed value the boards were dealt with.")
    ] = None,
    plan: Annotated[
        str | None,
        typer.Option(
            "--plan", help="The board plan published with a croupier-boards/2 commitment."
        ),
    ] = None,
    sqd: Annotated[
        Path | None, typer.Option("--sqd", help="The SquareDeal event file (KH and DV).")
    ] = None,
    strict: Annotated[
        bool, typer.Option("--strict", help="Any game that cannot be read is an error.")
    ] = False,
    overwrite: OverwriteOpt = False,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Make a printable hand record of board files: an HTML page or a PDF."""
    out = file_or_standard_output(out)  # -o -: standard output, as without --out
    kind = record_format(fmt.value if fmt is not None else None, out)
    _check_destination(kind, out, as_json=as_json)
    formats = [_input_format(from_fmt, path) for path in files]
    if out is not None:
        _check_out_file(files, out, overwrite=overwrite)
    inputs = _read_inputs(files, formats, strict)
    if not inputs.records:
        for line in [] if quiet else inputs.warnings:
            typer.echo(mask_secrets(line), err=True)
        raise CroupierError(f"no boards to print: {_why_empty(files, inputs)}")
    record = _make_record(
        inputs, files, event=event, session=session, date=date, commitment=commitment,
        dv=dv, plan=plan, sqd=sqd, dd=dd,
    )  # fmt: skip
    chosen = per_page if per_page is not None else default_per_page(record)
    data, replaced = _render(record, kind, per_page=chosen, paper=paper.value)
    for line in [] if quiet else inputs.warnings:
        typer.echo(mask_secrets(line), err=True)
    _write_output(
        data, record, out, kind=kind, paper=paper, per_page=chosen, files=files,
        skipped=inputs.skipped, replaced=replaced, overwrite=overwrite, as_json=as_json,
        quiet=quiet,
    )  # fmt: skip


def _render(
    record: HandRecord, kind: str, *, per_page: int, paper: str
) -> tuple[bytes, tuple[str, ...]]:
    """The record's bytes, and the characters the PDF's font could not show (each once; a
    :class:`MissingGlyphsWarning` still says which, on stderr)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", MissingGlyphsWarning)
        data = render_hand_record(record, kind, per_page=per_page, paper=paper)
    replaced: dict[str, None] = {}
    for w in caught:
        if isinstance(w.message, MissingGlyphsWarning):
            replaced.update(dict.fromkeys(w.message.characters))
        warnings.warn(w.message, stacklevel=1)  # for the command's own warning lines
    return data, tuple(replaced)


def _write_output(
    data: bytes,
    record: HandRecord,
    out: Path | None,
    *,
    kind: str,
    paper: Paper,
    per_page: int,
    files: list[Path],
    skipped: list[dict[str, Any]],
    replaced: tuple[str, ...],
    overwrite: bool,
    as_json: bool,
    quiet: bool,
) -> None:
    """Write the record (to standard output, or to ``out`` with a report or a note)."""
    if out is None:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    write_file(out, data, overwrite=overwrite)
    pages = max(1, math.ceil(len(record.boards) / per_page))
    if as_json:
        report = {
            "file": str(out),
            "format": kind,
            "paper": paper.value,
            "per_page": per_page,
            "pages": pages,
            "inputs": [str(f) for f in files],
            "skipped": skipped,
            "replaced": [{"character": c, "code": f"U+{ord(c):04X}"} for c in replaced],
            **record.to_dict(),
        }
        typer.echo(envelope_json("handrecord", report))
    elif not quiet:
        _note_written(out, len(record.boards), pages, paper)


def _make_record(
    inputs: _Inputs,
    files: list[Path],
    *,
    event: str | None,
    session: int | None,
    date: str | None,
    commitment: str | None,
    dv: str | None,
    plan: str | None,
    sqd: Path | None,
    dd: bool,
) -> HandRecord:
    """The hand record of the boards read: header, commitment header, double-dummy tables."""
    record = HandRecord.from_records(
        inputs.records,
        event=event if event is not None else inputs.tags.get("Event", ""),
        session="" if session is None else f"Session {session}",
        date=date if date is not None else inputs.tags.get("Date", ""),
        sources=tuple(map(str, files)),
    )
    provenance, sqd_name = _provenance(
        record, files, commitment=commitment, dv=dv, plan=plan, sqd=sqd, session=session
    )
    if provenance is not None:
        record = replace(record, provenance=provenance)
        if sqd_name and event is None and not inputs.tags.get("Event"):
            record = replace(record, event=sqd_name)
    if dd:
        from croupier.simulate.double_dummy import analyse_hand_record

        record = analyse_hand_record(record)
    return record


def _check_destination(kind: str, out: Path | None, *, as_json: bool) -> None:
    """Refuse standard output where it cannot take the record (``--json``; PDF on a terminal)."""
    if out is None and as_json:
        raise CroupierError(
            "--json prints a report on standard output; give --out, the file to write"
        )
    if out is None and kind == "pdf" and is_terminal(sys.stdout):
        raise CroupierError("PDF is a binary format: give --out, or redirect standard output")


def _check_out_file(files: list[Path], out: Path, *, overwrite: bool) -> None:
    """Refuse an ``--out`` that is one of the inputs, or that exists (without --overwrite)."""
    for path in files:
        if path.exists() and out.exists() and path.resolve() == out.resolve():
            raise CroupierError(
                f"{str(out)!r} is also an input file; croupier never changes its input"
            )
    check_new_files([out], overwrite=overwrite)


@dataclass
class _Inputs:
    """What the board files gave: their boards (repeats dropped) and what was skipped."""

    records: list[BoardRecord] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    skipped: list[dict[str, Any]] = field(default_factory=list)
    tags: dict[str, str] = field(default_factory=dict)  # the first PBN file's header tags


def _read_inputs(files: list[Path], formats: list[BoardFormat], strict: bool) -> _Inputs:
    """Read every board file, keep the first of repeated boards, check the board count."""
    inputs = _Inputs()
    for path, file_fmt in zip(files, formats, strict=True):
        data, found, lost = _read(path, file_fmt, strict)
        if file_fmt is BoardFormat.PBN and not inputs.tags:
            inputs.tags = pbn_header_tags(data)
        inputs.records += found
        inputs.warnings += _warnings(lost, str(path))
        inputs.skipped += [{"file": str(path), **s.to_dict()} for s in lost]
    from croupier.formats.records import drop_repeats

    inputs.records, _ = drop_repeats(inputs.records)
    if len(inputs.records) > MAX_BOARD:
        raise CroupierError(
            f"{len(inputs.records)} boards; a hand record holds at most {MAX_BOARD} "
            "(split the files)"
        )
    return inputs


def _why_empty(files: list[Path], inputs: _Inputs) -> str:
    """Why the files gave no board: every game skipped, or none there.

    >>> _why_empty([Path("a.pbn")], _Inputs(skipped=[{}, {}]))
    "2 games skipped in 'a.pbn', none read"
    >>> _why_empty([Path("a.pbn"), Path("b.lin")], _Inputs())
    "'a.pbn' and 'b.lin' hold no games"
    """
    names = [repr(str(f)) for f in files[:3]] + (["..."] if len(files) > 3 else [])
    given = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    count = len(inputs.skipped)
    if count:
        return f"{count} game{'s' if count != 1 else ''} skipped in {given}, none read"
    return f"{given} {'holds' if len(files) == 1 else 'hold'} no games"


def _note_written(out: Path, count: int, pages: int, paper: Paper) -> None:
    """The note on stderr saying what was written."""
    sheet = "A4" if paper is Paper.A4 else "Letter"
    typer.echo(
        f"wrote {out} ({count} board{'s' if count != 1 else ''}, {pages} "
        f"page{'s' if pages != 1 else ''} of {sheet})",
        err=True,
    )
