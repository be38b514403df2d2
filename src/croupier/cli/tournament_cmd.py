"""Tournament board sets: ``croupier bigdeal``, ``croupier squaredeal …``, ``croupier boards …``.

Three module-level Typer apps (:data:`bigdeal_app`, :data:`squaredeal_app`,
:data:`boards_app`), registered in :mod:`croupier.cli.app`.  The work —
dealing, the SquareDeal steps, verification — is done by
:mod:`croupier.tournament`; these commands parse arguments and print the
results, as text or, with ``--json``, as the JSON envelope of ``docs/json.md`` (the
results' keys are in ``docs/tournament.md``).  Standard output holds what the
command was asked for: the boards, the values to publish (``KH``, a commitment,
``DV``), a verification; which files were written, and the warnings, are notes
on stderr, which ``--quiet`` leaves out.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from croupier import __version__
from croupier.boards import Board, parse_board_range
from croupier.cli.options import (
    JsonOpt,
    OverwriteOpt,
    QuietOpt,
    format_option,
    option,
    out_option,
)
from croupier.cli.output import file_or_standard_output
from croupier.errors import CroupierError, SeedError
from croupier.files import write_file
from croupier.formats.board_files import BoardFormat, render_boards
from croupier.formats.board_json import board_to_dict
from croupier.formats.envelope import envelope_json
from croupier.randomness.source import SourceKind
from croupier.tournament.bigdeal import (
    BIGDEAL_ALGORITHM_ID,
    bigdeal_boards,
    entropy_warning,
    seed_from_entropy,
    seed_from_hex,
)
from croupier.tournament.board_plan import BoardPlan
from croupier.tournament.squaredeal import SQUAREDEAL_ALGORITHM_ID, SquareDealEvent
from croupier.tournament.squaredeal_workflow import (
    load_event,
    make_sessions,
    new_event,
    publish_keys,
    set_delayed_value,
    verify_sessions,
)
from croupier.tournament.verifiable import (
    ALGORITHM,
    ALGORITHM_PLAN,
    commitment,
    delayed_value_bytes,
    make_boards,
    plan_commitment,
)
from croupier.tournament.verifiable_workflow import new_key_file, read_key_file, verify_boards
from croupier.tournament.verification import FileCheck, Mismatch, VerifyReport
from croupier.tournament.verify_page import check_verify_page, sha256sum_line, write_verify_page

__all__ = [
    "bigdeal",
    "bigdeal_app",
    "boards_app",
    "boards_commitment",
    "boards_make",
    "boards_new_key",
    "boards_verify",
    "report_to_dict",
    "squaredeal_app",
    "squaredeal_make",
    "squaredeal_new",
    "squaredeal_publish",
    "squaredeal_set_dv",
    "squaredeal_verify",
]

BIGDEAL_HELP = """\
Deal boards exactly as Big Deal 2.0 (bigdealx) does.

The seed is RIPEMD-160 of the --entropy strings joined (as repeated -e), or
the 40 hex digits of --hash (as -h).  --owner is bigdealx's owner: the -W
value, or the owner= line of .bigdealrc ("Identification of owner or
tournament" by default).  PBN output equals bigdealx's byte for byte apart
from the Generator tag: with CRLF line ends as bigdealx writes on Windows,
with --lf as it writes on Linux.  --event puts the event's name in the
Event tags (Big Deal writes ?).

\b
Examples:
  croupier bigdeal --owner test --entropy hello --boards 1-16
  croupier bigdeal --owner "My club" --hash 0123456789abcdef0123456789abcdef01234567 \\
      --boards 17-32 --format pbn --out night2.pbn
  croupier bigdeal --owner test --entropy hello -b 2 --json
  croupier bigdeal --owner "My club" --entropy "..." -b 1-24 -e "Tuesday Pairs" -o tue.pbn
"""

SQUAREDEAL_HELP = """\
SquareDeal 2.x events: commit to secret keys, mix in a delayed value, deal, verify.

\b
Workflow:
  croupier squaredeal new EV.sqd --name "Club Cup" --delayed-info "DAX close 3 May" \\
      --phase "2:1-16,17-32:CUP#:Cup session #"
  croupier squaredeal publish EV.sqd           # makes EV.sqk, records KH in EV.sqd
  croupier squaredeal set-dv EV.sqd "15234.56" # once the delayed value is known
  croupier squaredeal make EV.sqd --keys EV.sqk --out sets/
  croupier squaredeal verify EV.sqd EV.sqk sets/CUP1.pbn sets/CUP2.pbn
"""

BOARDS_HELP = """\
croupier's own verifiable dealing (croupier-boards/1 and /2): any board on its
own, exactly uniform, from SHAKE-256 over key, event, delayed value, session
and board.  With --plan the commitment (croupier-boards/2) also covers which
boards every session plays.

\b
Workflow:
  croupier boards new-key --event "Club Cup" --plan "1:1-16;2:17-32" --key-file cup.key
  croupier boards make --event "Club Cup" --plan "1:1-16;2:17-32" --key-file cup.key \\
      --dv "15234.56" --session 1 --out cup1.pbn
  croupier boards verify --event "Club Cup" --plan "1:1-16;2:17-32" --key-file cup.key \\
      --commitment HEX --dv "15234.56" --session 1 cup1.pbn
"""

_SETTINGS: dict[str, Any] = {"add_completion": False, "rich_markup_mode": None}
bigdeal_app = typer.Typer(**_SETTINGS)
squaredeal_app = typer.Typer(help=SQUAREDEAL_HELP, no_args_is_help=True, **_SETTINGS)
boards_app = typer.Typer(help=BOARDS_HELP, no_args_is_help=True, **_SETTINGS)

GENERATOR = f"croupier {__version__}"


# ------------------------------------------------------------------------------ output
KEYED = SourceKind.KEYED.value
"""The ``source`` of boards dealt from a key (a Big Deal seed, SquareDeal keys, a
croupier-boards key): reproducible by whoever holds the key."""
OS_KEYS = SourceKind.OS_CSPRNG.value
"""The ``source`` of a command that makes secret keys (from the OS CSPRNG)."""


def _echo_json(
    command: str,
    result: Any,
    algorithm: str,
    source: str | None = None,
) -> None:
    """Print the JSON envelope of a tournament command (``reproducible`` unless it made keys)."""
    typer.echo(
        envelope_json(
            command,
            result,
            algorithm=algorithm,
            source=source,
            reproducible=source != OS_KEYS,
        )
    )


def _note(text: str, quiet: bool) -> None:
    """A note on stderr (what was written where), left out with ``--quiet``."""
    if not quiet:
        typer.echo(text, err=True)


def _scheme_json(event: str, plan: BoardPlan | None) -> dict[str, Any]:
    """The keys every croupier-boards JSON result starts with: event, plan."""
    return {"event": event, "plan": None if plan is None else plan.format()}


def _emit(data: bytes, out: Path | None, overwrite: bool) -> None:
    """Write a board file to ``out``, or its bytes to stdout."""
    if out is None:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    write_file(out, data, overwrite=overwrite)


def _mismatch_to_dict(m: Mismatch) -> dict[str, Any]:
    return {
        "file": m.file,
        "board": m.board,
        "what": m.what.value,
        "expected": m.expected,
        "found": m.found,
        "message": m.describe(),
    }


def _file_check_to_dict(check: FileCheck) -> dict[str, Any]:
    obj: dict[str, Any] = {"file": check.file, "ok": check.ok, "boards": check.boards}
    if check.session is not None:
        obj["phase"] = check.session.phase
        obj["session"] = check.session.session
        obj["reserve"] = check.session.reserve
    obj["mismatches"] = [_mismatch_to_dict(m) for m in check.mismatches]
    return obj


def report_to_dict(report: VerifyReport) -> dict[str, Any]:
    """The ``--json`` object of a verification (the shape is in ``docs/tournament.md``).

    >>> from croupier.tournament.verification import KeyCheck
    >>> report_to_dict(VerifyReport(KeyCheck(True, "k", "a", "a", "ok"), ()))["keys"]["ok"]
    True
    """
    keys = report.keys
    return {
        "ok": report.ok,
        "keys": {
            "ok": keys.ok,
            "key_file": keys.key_file,
            "published": keys.published,
            "computed": keys.computed,
            "message": keys.message,
        },
        "files": [_file_check_to_dict(f) for f in report.files],
        "failures": report.failures,
        "notes": list(report.notes),
    }


def _file_ok_line(check: FileCheck) -> str:
    if check.session is None:
        return f"{check.file}: {check.boards} boards match"
    ref = check.session
    kind = "reserve " if ref.reserve else ""
    return (
        f"{check.file}: phase {ref.phase} {kind}session {ref.session}, {check.boards} boards match"
    )


def _print_report(report: VerifyReport, as_json: bool, command: str, algorithm: str) -> None:
    """Print a verification (``OK``/``FAIL`` lines or JSON); exit status 1 unless all match."""
    if as_json:
        _echo_json(command, report_to_dict(report), algorithm)
    elif not report.keys.ok:
        typer.echo(f"FAIL {report.keys.message}")
    else:
        typer.echo(f"OK   {report.keys.message}")
        for check in report.files:
            for m in check.mismatches:
                typer.echo(f"FAIL {m.describe()}")
            if check.ok:
                typer.echo(f"OK   {_file_ok_line(check)}")
        for note in report.notes:
            typer.echo(f"NOTE {note}")
        if report.failures:
            typer.echo(f"{report.failures} of {len(report.files)} file(s) do not match")
        else:
            typer.echo(f"all {len(report.files)} file(s) match")
    if not report.ok:
        raise typer.Exit(1)


def _boards_json(boards: list[Board]) -> list[dict[str, Any]]:
    return [board_to_dict(b) for b in boards]


def _echo_page(page: dict[str, Any] | None, quiet: bool, width: int = 0) -> None:
    """The verification page's SHA-256 (a value to publish) and a note on where it was
    written (nothing when it was not asked for)."""
    if page is not None:
        typer.echo(f"{'page':<{width}} {sha256sum_line(page['sha256'], page['file'])}")
        _note(
            f"wrote {page['file']} (the verification page; publish it and its SHA-256 too: "
            "players check the boards with it in a browser, offline)",
            quiet,
        )


# ------------------------------------------------------------------------------ options
BoardFormatOpt = Annotated[BoardFormat, format_option("Board file format.")]
EventOpt = Annotated[str, option("--event", "The event name (exact text).")]
KeyFileOpt = Annotated[
    Path, typer.Option("--key-file", help="The secret key file (64 hex digits).")
]
DvOpt = Annotated[str, typer.Option("--dv", help="The delayed value (UTF-8, byte-exact).")]
SessionOpt = Annotated[int, typer.Option("--session", min=1, help="Session number (1 or more).")]
SqdArg = Annotated[Path, typer.Argument(help="The event file (EVENT.sqd).")]
VerifyPageOpt = Annotated[
    Path | None,
    typer.Option(
        "--verify-page",
        help="Also write the verification page (one offline HTML file) to FILE.",
    ),
]
LfOpt = Annotated[
    bool,
    typer.Option(
        "--lf", help="LF line ends in PBN (CRLF by default, as PBN 2.1 and Big Deal on Windows)."
    ),
]
PlanOpt = Annotated[
    str | None,
    typer.Option(
        "--plan",
        help="The board plan SESSION:BOARDS;... like '1:1-16;2:17-32' "
        "(croupier-boards/2: the commitment covers it).",
    ),
]


def _plan(text: str | None) -> BoardPlan | None:
    return BoardPlan.parse(text) if text is not None else None


# ----------------------------------------------------------------------------- bigdeal
@bigdeal_app.command("bigdeal", help=BIGDEAL_HELP)
def bigdeal(
    owner: Annotated[
        str, typer.Option("--owner", help="Owner identification (bigdealx -W or .bigdealrc).")
    ],
    boards: Annotated[str, option("--boards", "N (boards 1..N) or A-B, like 17-32.")],
    hash_hex: Annotated[
        str | None, typer.Option("--hash", help="The 160-bit seed as 40 hex digits (-h).")
    ] = None,
    entropy: Annotated[
        list[str] | None,
        typer.Option("--entropy", help="Entropy string (repeatable; joined as bigdealx -e)."),
    ] = None,
    fmt: BoardFormatOpt = BoardFormat.PBN,
    out: Annotated[Path | None, out_option("Write to FILE instead of stdout.")] = None,
    event: Annotated[
        str | None, option("--event", "Event name for the PBN Event tag (Big Deal writes ?).")
    ] = None,
    lf: LfOpt = False,
    overwrite: OverwriteOpt = False,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Deal boards exactly as Big Deal 2.0 does."""
    out = file_or_standard_output(out)
    if (hash_hex is None) == (entropy is None):
        raise SeedError(
            "give exactly one seed: --hash HEX40 or one or more --entropy TEXT "
            "(bigdealx's -h or -e)"
        )
    seed = seed_from_hex(hash_hex) if hash_hex is not None else seed_from_entropy(entropy or [])
    made = bigdeal_boards(seed, owner, parse_board_range(boards))
    warning = entropy_warning(entropy) if entropy is not None else None
    if out is not None or not as_json:
        data = render_boards(
            made,
            fmt,
            generator=GENERATOR,
            pbn_style="bigdeal",
            event=event if event is not None else "?",
            title=event or "Hand record",
            newline="\n" if lf else "\r\n",
        )
        _emit(data, out, overwrite)
    if warning is not None:  # after the boards: an error above stays the only line
        _note(f"warning: {warning}", quiet)
    if as_json:
        _echo_json(
            "bigdeal",
            {
                "owner": owner,
                "event": event,
                "seed": seed.hex(),
                "file": None if out is None else str(out),
                "format": fmt.value if out is not None else None,
                "boards": _boards_json(made),
                "warnings": [] if warning is None else [warning],
            },
            BIGDEAL_ALGORITHM_ID,
            KEYED,
        )


# -------------------------------------------------------------------------- squaredeal
@squaredeal_app.command("new")
def squaredeal_new(
    sqd: Annotated[Path, typer.Argument(help="The event file to create (EVENT.sqd).")],
    name: Annotated[str, typer.Option("--name", help="Event name (TN).")],
    phase: Annotated[
        list[str],
        typer.Option(
            "--phase",
            help="SESSIONS:BOARDS:PREFIX:DESCRIPTION, e.g. '2:1-16,17-32:OPRR##:Round #' "
            "(SESSIONS 0 = variable; BOARDS N, A-B, a list or KxM). Repeatable.",
        ),
    ],
    delayed_info: Annotated[
        str, typer.Option("--delayed-info", help="Where the delayed value will come from (DI).")
    ] = "",
    overwrite: OverwriteOpt = False,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Create an event description (.sqd) with its phases.

    \b
    Examples:
      croupier squaredeal new EV.sqd --name "Club Cup" --delayed-info "DAX close 3 May" \\
          --phase "2:1-16,17-32:CUP#:Cup session #" --phase "0:3x8:EXTRA#:Extra #"
    """
    event = new_event(sqd, name, phase, delayed_info, overwrite=overwrite)
    if as_json:
        result = {"event_file": str(sqd), **_event_to_dict(event)}
        _echo_json("squaredeal new", result, SQUAREDEAL_ALGORITHM_ID)
        return
    _note(
        f"wrote {sqd} ({len(event.phases)} phase(s)); next: croupier squaredeal publish {sqd}",
        quiet,
    )


def _event_to_dict(event: SquareDealEvent) -> dict[str, Any]:
    return {
        "name": event.name,
        "delayed_info": event.delayed_info,
        "delayed_value": event.delayed_value,
        "phases": [
            {
                "sessions": p.sessions,
                "boards": p.boards.format(),
                "prefix": p.prefix,
                "description": p.description,
            }
            for p in event.phases
        ],
        "key_hash": event.key_hash,
    }


@squaredeal_app.command("publish")
def squaredeal_publish(
    sqd: SqdArg,
    key_file: Annotated[
        Path | None, typer.Option("--keys", help="Key file to create (default EVENT.sqk).")
    ] = None,
    verify_page: VerifyPageOpt = None,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Make the secret keys (EVENT.sqk) and record their hash KH in the .sqd.

    --verify-page also writes the verification page (one offline HTML file)
    to publish with the .sqd: after the event players open it, give it the
    .sqd, the revealed .sqk and the session files, and see every board checked.

    \b
    Examples:
      croupier squaredeal publish EV.sqd     # writes EV.sqk (keep it secret), KH into EV.sqd
      croupier squaredeal publish EV.sqd --verify-page verify.html
    """
    if verify_page is not None:
        check_verify_page(verify_page)  # before the keys: a refused page leaves nothing behind
    done = publish_keys(sqd, key_file)
    page = write_verify_page(verify_page) if verify_page is not None else None
    if as_json:
        result = {
            "event_file": str(done.event_file),
            "key_file": str(done.key_file),
            "key_hash": done.key_hash,
            "verify_page": page,
        }
        _echo_json("squaredeal publish", result, SQUAREDEAL_ALGORITHM_ID, OS_KEYS)
        return
    _note(f"wrote {done.key_file} (keep it secret until the event is over)", quiet)
    typer.echo(f"KH {done.key_hash}  (publish {done.event_file.name} now)")
    _echo_page(page, quiet)


@squaredeal_app.command("set-dv")
def squaredeal_set_dv(
    sqd: SqdArg,
    value: Annotated[str, typer.Argument(help="The delayed value, used byte for byte.")],
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Record the delayed value (DV) exactly as given (once, after publish).

    \b
    Examples:
      croupier squaredeal set-dv EV.sqd "15234.56"
    """
    event = set_delayed_value(sqd, value)
    if as_json:
        result = {"event_file": str(sqd), "delayed_value": event.delayed_value}
        _echo_json("squaredeal set-dv", result, SQUAREDEAL_ALGORITHM_ID)
        return
    typer.echo(f"DV {value}")


@squaredeal_app.command("make")
def squaredeal_make(
    sqd: SqdArg,
    keys: Annotated[Path, typer.Option("--keys", help="The secret key file (EVENT.sqk).")],
    sessions: Annotated[
        str,
        typer.Option(
            "--sessions",
            help="PHASES/SESSIONS items separated by ';', '*' = all, e.g. '1/2-3;2/*' "
            "(default */*: every session of every fixed phase).",
        ),
    ] = "*/*",
    reserve: Annotated[
        bool, typer.Option("--reserve", help="Make the reserve sets instead of the originals.")
    ] = False,
    boards: Annotated[
        str | None, option("--boards", "Board range for phases whose board spec is '?'.")
    ] = None,
    out: Annotated[Path, out_option("Folder for the files.")] = Path("."),
    fmt: BoardFormatOpt = BoardFormat.PBN,
    event: Annotated[
        str | None,
        option("--event", "Event name for the PBN Event tag (default: TN; SquareDeal writes ?)."),
    ] = None,
    lf: LfOpt = False,
    overwrite: OverwriteOpt = False,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Deal the sessions into one file each (SquareDeal's names; never overwrites).

    PBN files have Big Deal's layout with the event's name (TN, or --event)
    in the Event tag and CRLF line ends (--lf: LF); --event "?" --lf gives
    SquareDeal's own files byte for byte, but for the Generator tag.

    \b
    Examples:
      croupier squaredeal make EV.sqd --keys EV.sqk --out sets/
      croupier squaredeal make EV.sqd --keys EV.sqk --sessions "2/1-3" --format dup --out sets/
      croupier squaredeal make EV.sqd --keys EV.sqk --reserve --out sets/
    """
    made = make_sessions(
        sqd,
        keys,
        sessions,
        reserve=reserve,
        boards=parse_board_range(boards) if boards is not None else None,
        out=out,
        fmt=fmt,
        overwrite=overwrite,
        generator=GENERATOR,
        event_name=event if event is not None else load_event(sqd).name,
        newline="\n" if lf else "\r\n",
    )
    if as_json:
        files = [
            {
                "file": str(m.path),
                "phase": m.session.phase,
                "session": m.session.session,
                "reserve": m.session.reserve,
                "boards": _boards_json(m.boards),
            }
            for m in made
        ]
        result = {"format": fmt.value, "files": files}
        _echo_json("squaredeal make", result, SQUAREDEAL_ALGORITHM_ID, KEYED)
        return
    for m in made:
        _note(f"wrote {m.path} (boards {m.boards[0].number}-{m.boards[-1].number})", quiet)


@squaredeal_app.command("verify")
def squaredeal_verify(
    sqd: SqdArg,
    sqk: Annotated[Path, typer.Argument(help="The published key file (EVENT.sqk).")],
    files: Annotated[list[Path], typer.Argument(help="Session files to check.")],
    boards: Annotated[
        str | None,
        option("--boards", "The boards announced for phases whose board spec is '?': A-B."),
    ] = None,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Check KH, regenerate every session and compare with the files (exit 0 = all match).

    Each file is recognised by its name (prefix, session, 'reserve') and must
    hold exactly its session's boards, in order; exit status 1 when anything
    differs, with one FAIL line per file and board.  Files of a phase whose
    boards are chosen at dealing time ('?') need --boards.  KH commits to the
    keys only, not to the event name or board numbers in the .sqd: NOTE
    lines say what was not covered (croupier boards --plan commits to both).

    \b
    Examples:
      croupier squaredeal verify EV.sqd EV.sqk sets/CUP1.pbn sets/CUP2.pbn
      croupier squaredeal verify EV.sqd EV.sqk --boards 1-24 sets/ASK1.pbn
    """
    numbers = parse_board_range(boards) if boards is not None else None
    report = verify_sessions(sqd, sqk, files, boards=numbers)
    _print_report(report, as_json, "squaredeal verify", SQUAREDEAL_ALGORITHM_ID)


# ------------------------------------------------------------------------------ boards
@boards_app.command("new-key")
def boards_new_key(
    event: EventOpt,
    key_file: Annotated[Path, typer.Option("--key-file", help="Secret key file to create.")],
    plan: PlanOpt = None,
    verify_page: VerifyPageOpt = None,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Make a secret key (64 hex digits) and print the commitment to publish.

    With --plan the commitment is croupier-boards/2 and covers the board plan
    (publish the plan with it); without, croupier-boards/1 (key and event).
    --verify-page also writes the verification page (one offline HTML file)
    to publish with the commitment.

    \b
    Examples:
      croupier boards new-key --event "Club Cup" --plan "1:1-16;2:17-32" --key-file cup.key
      croupier boards new-key --event "Club Cup" --key-file cup.key
      croupier boards new-key --event "Club Cup" --plan "1:1-16;2:17-32" --key-file cup.key \\
          --verify-page verify.html
    """
    if verify_page is not None:
        check_verify_page(verify_page)  # before the key: a refused page leaves nothing behind
    made = new_key_file(key_file, event, _plan(plan))
    page = write_verify_page(verify_page) if verify_page is not None else None
    if as_json:
        result = {
            "key_file": str(made.key_file),
            **_scheme_json(made.event, made.plan),
            "commitment": made.commitment,
            "verify_page": page,
        }
        _echo_json("boards new-key", result, made.algorithm, OS_KEYS)
        return
    _note(f"wrote {made.key_file} (keep it secret until the event is over)", quiet)
    typer.echo(f"algorithm  {made.algorithm}")
    typer.echo(f"event      {made.event}")
    if made.plan is not None:
        typer.echo(f"plan       {made.plan.format()}")
    typer.echo(f"commitment {made.commitment}")
    _echo_page(page, quiet, width=10)


@boards_app.command("commitment")
def boards_commitment(
    event: EventOpt,
    key_file: KeyFileOpt,
    plan: PlanOpt = None,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Print the commitment of a key file for an event (and board plan, with --plan).

    \b
    Examples:
      croupier boards commitment --event "Club Cup" --plan "1:1-16;2:17-32" --key-file cup.key
      croupier boards commitment --event "Club Cup" --key-file cup.key
    """
    key, parsed = read_key_file(key_file), _plan(plan)
    if parsed is None:
        algorithm, value = ALGORITHM, commitment(key, event)
    else:
        algorithm, value = ALGORITHM_PLAN, plan_commitment(key, event, parsed)
    if as_json:
        _echo_json(
            "boards commitment", {**_scheme_json(event, parsed), "commitment": value}, algorithm
        )
        return
    typer.echo(value)


def _session_boards(plan: BoardPlan | None, boards: str | None, session: int) -> range:
    """The boards of ``session``: from the plan, or from --boards (exactly one of them)."""
    if (plan is None) == (boards is None):
        raise CroupierError(
            "give exactly one of --plan (the committed board plan) or --boards "
            "(the boards, for a croupier-boards/1 commitment)"
        )
    return plan.boards_for(session) if plan is not None else parse_board_range(boards or "")


@boards_app.command("make")
def boards_make(
    event: EventOpt,
    key_file: KeyFileOpt,
    delayed_value: DvOpt,
    session: SessionOpt,
    boards: Annotated[
        str | None, option("--boards", "N or A-B (croupier-boards/1, without --plan).")
    ] = None,
    plan: PlanOpt = None,
    fmt: BoardFormatOpt = BoardFormat.PBN,
    out: Annotated[Path | None, out_option("Write to FILE instead of stdout.")] = None,
    lf: LfOpt = False,
    overwrite: OverwriteOpt = False,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Deal the boards of one session (the plan's boards, or --boards).

    The event name goes into every PBN Event tag.  --format html writes the
    hand record: it names event and session and gives the commitment, the
    delayed value and how to verify the boards (never the key).

    \b
    Examples:
      croupier boards make --event "Club Cup" --plan "1:1-16;2:17-32" --key-file cup.key \\
          --dv "15234.56" --session 1 --out cup1.pbn
      croupier boards make --event "Club Cup" --key-file cup.key --dv "15234.56" \\
          --session 1 --boards 1-16 --out cup1.pbn
    """
    out = file_or_standard_output(out)
    parsed = _plan(plan)
    numbers = _session_boards(parsed, boards, session)
    key = read_key_file(key_file)
    algorithm = ALGORITHM if parsed is None else ALGORITHM_PLAN
    made = make_boards(key, event, delayed_value_bytes(delayed_value), session, numbers)
    if out is not None or not as_json:
        if fmt is BoardFormat.HTML:
            data = _boards_hand_record(made, event, key, delayed_value, session, parsed, numbers)
        else:
            generator = f"{GENERATOR} {algorithm}"
            newline = "\n" if lf else "\r\n"
            data = render_boards(made, fmt, generator=generator, event=event, newline=newline)
        _emit(data, out, overwrite)
    if as_json:
        result = {
            **_scheme_json(event, parsed),
            "delayed_value": delayed_value,
            "session": session,
            "file": None if out is None else str(out),
            "format": fmt.value if out is not None else None,
            "boards": _boards_json(made),
        }
        _echo_json("boards make", result, algorithm, KEYED)


def _boards_hand_record(
    made: list[Board],
    event: str,
    key: bytes,
    delayed_value: str,
    session: int,
    plan: BoardPlan | None,
    numbers: range,
) -> bytes:
    """The HTML hand record of a session: event, session, commitment, DV, how to verify."""
    from croupier.formats.hand_record import HandRecord, render_hand_record
    from croupier.tournament.provenance import boards_provenance

    value = commitment(key, event) if plan is None else plan_commitment(key, event, plan)
    provenance = boards_provenance(
        event,
        value,
        delayed_value,
        session,
        plan=plan,
        boards=numbers if plan is None else None,
    )
    record = HandRecord.from_boards(
        made, event=event, session=f"Session {session}", provenance=provenance
    )
    return render_hand_record(record, "html")


@boards_app.command("verify")
def boards_verify(
    event: EventOpt,
    commitment_hex: Annotated[
        str, typer.Option("--commitment", help="The commitment published before the event.")
    ],
    delayed_value: DvOpt,
    session: SessionOpt,
    files: Annotated[list[Path], typer.Argument(help="Board files of this session.")],
    boards: Annotated[
        str | None,
        option("--boards", "The boards each file must hold (croupier-boards/1): N or A-B."),
    ] = None,
    plan: PlanOpt = None,
    key_file: Annotated[
        Path | None, typer.Option("--key-file", help="The revealed key file (64 hex digits).")
    ] = None,
    key: Annotated[
        str | None,
        typer.Option("--key", help="The revealed key as 64 hex digits (instead of --key-file)."),
    ] = None,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Check the commitment and regenerate the boards in FILES (exit 0 = all match).

    The key revealed after the event is --key-file or --key HEX.  Event name
    and plan must be exactly the published text: a commitment that does not
    match says so.  Give the board plan published with a croupier-boards/2 commitment
    (--plan), or, for a croupier-boards/1 commitment, the boards each file
    must hold (--boards; a NOTE says the commitment does not cover them).
    Each file must hold exactly the session's boards, in order: a missing,
    extra, repeated, reordered or renumbered board fails, naming file and
    board (exit 1).  .txt files are numbered from the first board.

    \b
    Examples:
      croupier boards verify --event "Club Cup" --plan "1:1-16;2:17-32" --key-file cup.key \\
          --commitment 2492166a... --dv "15234.56" --session 1 cup1.pbn
      croupier boards verify --event "Club Cup" --key-file cup.key \\
          --commitment 2492166a... --dv "15234.56" --session 1 --boards 1-16 cup1.pbn
      croupier boards verify --event "Club Cup" --plan "1:1-16;2:17-32" --key 5e0c... \\
          --commitment 2492166a... --dv "15234.56" --session 1 cup1.pbn
    """
    parsed = _plan(plan)
    _session_boards(parsed, boards, session)  # one of the two, valid, before any file is read
    numbers = parse_board_range(boards) if boards is not None else None
    report = verify_boards(
        key_file,
        event,
        commitment_hex,
        delayed_value,
        session,
        files,
        numbers,
        plan=parsed,
        key=key,
    )
    algorithm = ALGORITHM if parsed is None else ALGORITHM_PLAN
    _print_report(report, as_json, "boards verify", algorithm)
