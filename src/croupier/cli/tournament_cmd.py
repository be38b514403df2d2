"""Tournament board sets: ``croupier bigdeal``, ``croupier squaredeal …``, ``croupier boards …``.

Three module-level Typer apps (:data:`bigdeal_app`, :data:`squaredeal_app`,
:data:`boards_app`), registered in :mod:`croupier.cli.app`.  The work —
dealing, the SquareDeal steps, verification — is done by
:mod:`croupier.tournament`; these commands parse arguments and print the
results, as text or, with ``--json``, as the JSON objects documented in
``docs/tournament.md``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from croupier import __version__
from croupier.boards import Board, parse_board_range
from croupier.cli.options import JsonOpt, OverwriteOpt, format_option, option, out_option
from croupier.errors import CroupierError, SeedError
from croupier.files import write_file
from croupier.formats.board_files import BoardFormat, render_boards
from croupier.formats.board_json import board_to_dict
from croupier.tournament.bigdeal import (
    bigdeal_boards,
    entropy_warning,
    seed_from_entropy,
    seed_from_hex,
)
from croupier.tournament.board_plan import BoardPlan
from croupier.tournament.squaredeal import SquareDealEvent
from croupier.tournament.squaredeal_workflow import (
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
    make_boards,
    plan_commitment,
)
from croupier.tournament.verifiable_workflow import new_key_file, read_key_file, verify_boards
from croupier.tournament.verification import FileCheck, Mismatch, VerifyReport

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
from the Generator tag.

\b
Examples:
  croupier bigdeal --owner test --entropy hello --boards 1-16
  croupier bigdeal --owner "My club" --hash 0123456789abcdef0123456789abcdef01234567 \\
      --boards 17-32 --format pbn --out night2.pbn
  croupier bigdeal --owner test --entropy hello -b 2 --json
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
def _echo_json(data: Any) -> None:
    typer.echo(json.dumps(data, ensure_ascii=False, indent=2))


def _scheme_json(algorithm: str, event: str, plan: BoardPlan | None) -> dict[str, Any]:
    """The keys every croupier-boards JSON output starts with: scheme, event, plan."""
    return {"algorithm": algorithm, "event": event, "plan": None if plan is None else plan.format()}


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


def _print_report(report: VerifyReport, as_json: bool) -> None:
    """Print a verification (``OK``/``FAIL`` lines or JSON); exit status 1 unless all match."""
    if as_json:
        _echo_json(report_to_dict(report))
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


# ------------------------------------------------------------------------------ options
BoardFormatOpt = Annotated[BoardFormat, format_option("Board file format.")]
EventOpt = Annotated[str, option("--event", "The event name (exact text).")]
KeyFileOpt = Annotated[
    Path, typer.Option("--key-file", help="The secret key file (64 hex digits).")
]
DvOpt = Annotated[str, typer.Option("--dv", help="The delayed value (UTF-8, byte-exact).")]
SessionOpt = Annotated[int, typer.Option("--session", min=1, help="Session number (1 or more).")]
SqdArg = Annotated[Path, typer.Argument(help="The event file (EVENT.sqd).")]
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
    overwrite: OverwriteOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Deal boards exactly as Big Deal 2.0 does."""
    if (hash_hex is None) == (entropy is None):
        raise SeedError(
            "give exactly one seed: --hash HEX40 or one or more --entropy TEXT "
            "(bigdealx's -h or -e)"
        )
    seed = seed_from_hex(hash_hex) if hash_hex is not None else seed_from_entropy(entropy or [])
    made = bigdeal_boards(seed, owner, parse_board_range(boards))
    warning = entropy_warning(entropy) if entropy is not None else None
    if out is not None or not as_json:
        _emit(render_boards(made, fmt, generator=GENERATOR, pbn_style="bigdeal"), out, overwrite)
    if warning is not None:  # after the boards: an error above stays the only line
        typer.echo(f"warning: {warning}", err=True)
    if as_json:
        _echo_json(
            {
                "scheme": "bigdeal",
                "owner": owner,
                "seed": seed.hex(),
                "file": None if out is None else str(out),
                "format": fmt.value if out is not None else None,
                "boards": _boards_json(made),
                "warnings": [] if warning is None else [warning],
            }
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
) -> None:
    """Create an event description (.sqd) with its phases.

    \b
    Examples:
      croupier squaredeal new EV.sqd --name "Club Cup" --delayed-info "DAX close 3 May" \\
          --phase "2:1-16,17-32:CUP#:Cup session #" --phase "0:3x8:EXTRA#:Extra #"
    """
    event = new_event(sqd, name, phase, delayed_info, overwrite=overwrite)
    if as_json:
        _echo_json({"event_file": str(sqd), **_event_to_dict(event)})
        return
    typer.echo(
        f"wrote {sqd} ({len(event.phases)} phase(s)); next: croupier squaredeal publish {sqd}"
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
    as_json: JsonOpt = False,
) -> None:
    """Make the secret keys (EVENT.sqk) and record their hash KH in the .sqd.

    \b
    Examples:
      croupier squaredeal publish EV.sqd     # writes EV.sqk (keep it secret), KH into EV.sqd
    """
    done = publish_keys(sqd, key_file)
    if as_json:
        _echo_json(
            {
                "event_file": str(done.event_file),
                "key_file": str(done.key_file),
                "key_hash": done.key_hash,
            }
        )
        return
    typer.echo(f"wrote {done.key_file} (keep it secret until the event is over)")
    typer.echo(f"KH {done.key_hash}  (publish {done.event_file.name} now)")


@squaredeal_app.command("set-dv")
def squaredeal_set_dv(
    sqd: SqdArg,
    value: Annotated[str, typer.Argument(help="The delayed value, used byte for byte.")],
    as_json: JsonOpt = False,
) -> None:
    """Record the delayed value (DV) exactly as given (once, after publish).

    \b
    Examples:
      croupier squaredeal set-dv EV.sqd "15234.56"
    """
    event = set_delayed_value(sqd, value)
    if as_json:
        _echo_json({"event_file": str(sqd), "delayed_value": event.delayed_value})
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
    overwrite: OverwriteOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Deal the sessions into one file each (SquareDeal's names; never overwrites).

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
        _echo_json({"format": fmt.value, "files": files})
        return
    for m in made:
        typer.echo(f"wrote {m.path} (boards {m.boards[0].number}-{m.boards[-1].number})")


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
    _print_report(verify_sessions(sqd, sqk, files, boards=numbers), as_json)


# ------------------------------------------------------------------------------ boards
@boards_app.command("new-key")
def boards_new_key(
    event: EventOpt,
    key_file: Annotated[Path, typer.Option("--key-file", help="Secret key file to create.")],
    plan: PlanOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Make a secret key (64 hex digits) and print the commitment to publish.

    With --plan the commitment is croupier-boards/2 and covers the board plan
    (publish the plan with it); without, croupier-boards/1 (key and event).

    \b
    Examples:
      croupier boards new-key --event "Club Cup" --plan "1:1-16;2:17-32" --key-file cup.key
      croupier boards new-key --event "Club Cup" --key-file cup.key
    """
    made = new_key_file(key_file, event, _plan(plan))
    if as_json:
        _echo_json(
            {
                "key_file": str(made.key_file),
                **_scheme_json(made.algorithm, made.event, made.plan),
                "commitment": made.commitment,
            }
        )
        return
    typer.echo(f"wrote {made.key_file} (keep it secret until the event is over)")
    typer.echo(f"algorithm  {made.algorithm}")
    typer.echo(f"event      {made.event}")
    if made.plan is not None:
        typer.echo(f"plan       {made.plan.format()}")
    typer.echo(f"commitment {made.commitment}")


@boards_app.command("commitment")
def boards_commitment(
    event: EventOpt, key_file: KeyFileOpt, plan: PlanOpt = None, as_json: JsonOpt = False
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
            {
                **_scheme_json(algorithm, event, parsed),
                "commitment": value,
            }
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
    overwrite: OverwriteOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Deal the boards of one session (the plan's boards, or --boards).

    \b
    Examples:
      croupier boards make --event "Club Cup" --plan "1:1-16;2:17-32" --key-file cup.key \\
          --dv "15234.56" --session 1 --out cup1.pbn
      croupier boards make --event "Club Cup" --key-file cup.key --dv "15234.56" \\
          --session 1 --boards 1-16 --out cup1.pbn
    """
    parsed = _plan(plan)
    numbers = _session_boards(parsed, boards, session)
    key = read_key_file(key_file)
    algorithm = ALGORITHM if parsed is None else ALGORITHM_PLAN
    made = make_boards(key, event, delayed_value.encode("utf-8"), session, numbers)
    if out is not None or not as_json:
        generator = f"{GENERATOR} {algorithm}"
        title = f"{event} — session {session}"
        _emit(render_boards(made, fmt, generator=generator, title=title), out, overwrite)
    if as_json:
        _echo_json(
            {
                **_scheme_json(algorithm, event, parsed),
                "delayed_value": delayed_value,
                "session": session,
                "file": None if out is None else str(out),
                "format": fmt.value if out is not None else None,
                "boards": _boards_json(made),
            }
        )


@boards_app.command("verify")
def boards_verify(
    event: EventOpt,
    key_file: KeyFileOpt,
    commitment_hex: Annotated[
        str, typer.Option("--commitment", help="The commitment published before the event.")
    ],
    dv: DvOpt,
    session: SessionOpt,
    files: Annotated[list[Path], typer.Argument(help="Board files of this session.")],
    boards: Annotated[
        str | None,
        option("--boards", "The boards each file must hold (croupier-boards/1): N or A-B."),
    ] = None,
    plan: PlanOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Check the commitment and regenerate the boards in FILES (exit 0 = all match).

    Give the board plan published with a croupier-boards/2 commitment
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
    """
    parsed = _plan(plan)
    _session_boards(parsed, boards, session)  # one of the two, valid, before any file is read
    numbers = parse_board_range(boards) if boards is not None else None
    report = verify_boards(
        key_file, event, commitment_hex, dv, session, files, numbers, plan=parsed
    )
    _print_report(report, as_json)
