"""Tournament board sets: ``croupier bigdeal``, ``croupier squaredeal …``, ``croupier boards …``."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from croupier.tournament.boards import Board
    from croupier.tournament.squaredeal import SessionRef, SquareDealEvent, SquareDealKeys

__all__ = ["BoardFormat", "register"]


class BoardFormat(StrEnum):
    """File formats for board sets."""

    pbn = "pbn"
    lin = "lin"
    dup = "dup"
    dlm = "dlm"
    csv = "csv"
    lines = "lines"
    html = "html"


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
croupier's own verifiable dealing (croupier-boards/1): any board on its own,
exactly uniform, from SHAKE-256 over key, event, delayed value, session and board.

\b
Workflow:
  croupier boards new-key --event "Club Cup" --key-file cup.key   # prints the commitment
  croupier boards make --event "Club Cup" --key-file cup.key --dv "15234.56" \\
      --session 1 --boards 1-16 --out cup1.pbn
  croupier boards verify --event "Club Cup" --key-file cup.key --commitment HEX \\
      --dv "15234.56" --session 1 cup1.pbn
"""


def _generator() -> str:
    import croupier

    return f"croupier {croupier.__version__}"


def _emit(data: bytes, out: Path | None, overwrite: bool) -> None:
    if out is None:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    from croupier.tournament.files import write_file

    write_file(out, data, overwrite=overwrite)


def _read_bytes(path: Path) -> bytes:
    from croupier.errors import FileFormatError

    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise FileFormatError(f"file {str(path)!r} not found") from None
    except IsADirectoryError:
        raise FileFormatError(f"{str(path)!r} is a folder; give a file") from None
    except PermissionError:
        raise FileFormatError(f"file {str(path)!r} cannot be read (permission denied)") from None


def _read_text(path: Path) -> str:
    return _read_bytes(path).decode("utf-8", "surrogateescape")


def _compare(expected: list[Board], found: list[Board], name: str) -> list[str]:
    """Mismatch lines between regenerated and found boards (matched by board number)."""
    from croupier.formats.pbn_deal import format_pbn_deal

    problems: list[str] = []
    found_by_number: dict[int, Board] = {}
    for b in found:
        if b.number in found_by_number:
            problems.append(f"{name} board {b.number}: appears twice in the file")
        found_by_number[b.number] = b
    wanted = {b.number for b in expected}
    for want in expected:
        got = found_by_number.get(want.number)
        if got is None:
            problems.append(f"{name} board {want.number}: missing from the file")
            continue
        if got.hands != want.hands:
            problems.append(
                f"{name} board {want.number}: deal differs (expected "
                f"{format_pbn_deal(want.hands)}, found {format_pbn_deal(got.hands)})"
            )
        if got.dealer != want.dealer:
            problems.append(
                f"{name} board {want.number}: dealer {got.dealer}, expected {want.dealer}"
            )
        if got.vulnerable != want.vulnerable:
            problems.append(
                f"{name} board {want.number}: vulnerability {got.vulnerable}, "
                f"expected {want.vulnerable}"
            )
    for number in sorted(set(found_by_number) - wanted):
        problems.append(f"{name} board {number}: not part of this session")
    return problems


def _read_board_file(path: Path, first_board: int = 1) -> list[Board]:
    """The boards of a file (format from its extension; ``.txt`` numbered from ``first_board``)."""
    from croupier.formats.board_files import format_for_path, read_boards

    fmt = format_for_path(path)
    return read_boards(_read_bytes(path), fmt, source=path.name, first_board=first_board)


def _report(problems: list[str], ok_line: str) -> bool:
    """Print the ``FAIL`` lines of one file, or its ``OK`` line; True when it matched."""
    for line in problems:
        typer.echo(f"FAIL {line}")
    if not problems:
        typer.echo(f"OK   {ok_line}")
    return not problems


def _summary(failures: int, total: int) -> None:
    """The last line of a verification; exit status 1 when any file failed."""
    if failures:
        typer.echo(f"{failures} of {total} file(s) do not match")
        raise typer.Exit(1)
    typer.echo(f"all {total} file(s) match")


# ----------------------------------------------------------------------------- bigdeal
def _bigdeal_command(app: typer.Typer) -> None:
    @app.command("bigdeal", help=BIGDEAL_HELP)
    def bigdeal(
        owner: Annotated[
            str, typer.Option("--owner", help="Owner identification (bigdealx -W or .bigdealrc).")
        ],
        boards: Annotated[
            str, typer.Option("--boards", "-n", help="N (boards 1..N) or A-B, like 17-32.")
        ],
        hash_hex: Annotated[
            str | None, typer.Option("--hash", help="The 160-bit seed as 40 hex digits (-h).")
        ] = None,
        entropy: Annotated[
            list[str] | None,
            typer.Option("--entropy", "-e", help="Entropy string (repeatable; joined as -e)."),
        ] = None,
        fmt: Annotated[BoardFormat, typer.Option("--format", "-f", help="Output format.")] = (
            BoardFormat.pbn
        ),
        out: Annotated[
            Path | None, typer.Option("--out", "-o", help="Write to FILE instead of stdout.")
        ] = None,
        overwrite: Annotated[
            bool, typer.Option("--overwrite", help="Allow replacing an existing --out file.")
        ] = False,
    ) -> None:
        from croupier.errors import SeedError
        from croupier.formats.board_files import render_boards
        from croupier.tournament.bigdeal import bigdeal_boards, seed_from_entropy, seed_from_hex
        from croupier.tournament.boards import parse_board_range

        if (hash_hex is None) == (entropy is None):
            raise SeedError(
                "give exactly one seed: --hash HEX40 or one or more --entropy TEXT "
                "(bigdealx's -h or -e)"
            )
        seed = seed_from_hex(hash_hex) if hash_hex is not None else seed_from_entropy(entropy or [])
        numbers = parse_board_range(boards)
        made = bigdeal_boards(seed, owner, numbers)
        _emit(render_boards(made, fmt.value, generator=_generator()), out, overwrite)


# -------------------------------------------------------------------------- squaredeal
def _load_event(path: Path) -> SquareDealEvent:
    from croupier.tournament.squaredeal import parse_sqd

    return parse_sqd(_read_text(path), source=path.name)


def _load_keys(event: SquareDealEvent, path: Path, sqd_name: str) -> SquareDealKeys:
    from croupier.errors import VerificationError
    from croupier.tournament.squaredeal import key_hash, parse_sqk

    raw = _read_bytes(path)
    if event.key_hash is None:
        raise VerificationError(
            f"{sqd_name} has no key hash (KH); publish the keys first with "
            "'croupier squaredeal publish'"
        )
    actual = key_hash(raw)
    if actual != event.key_hash:
        raise VerificationError(
            f"key hash mismatch: {path.name} hashes to {actual}, but {sqd_name} "
            f"commits to KH {event.key_hash}; the key file is not the published one"
        )
    return parse_sqk(raw.decode("ascii", "replace"), source=path.name)


def _squaredeal_commands(app: typer.Typer) -> None:
    sq = typer.Typer(help=SQUAREDEAL_HELP, no_args_is_help=True, rich_markup_mode=None)

    @sq.command("new")
    def new(
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
            str,
            typer.Option("--delayed-info", help="Where the delayed value will come from (DI)."),
        ] = "",
        overwrite: Annotated[
            bool, typer.Option("--overwrite", help="Allow replacing existing files.")
        ] = False,
    ) -> None:
        """Create an event description (.sqd) with its phases.

        \b
        Example:
          croupier squaredeal new EV.sqd --name "Club Cup" --delayed-info "DAX close 3 May" \\
              --phase "2:1-16,17-32:CUP#:Cup session #" --phase "0:3x8:EXTRA#:Extra #"
        """
        from croupier.tournament.files import write_file
        from croupier.tournament.squaredeal import (
            Phase,
            SquareDealError,
            SquareDealEvent,
            format_sqd,
        )

        for text, what in ((name, "event name"), (delayed_info, "delayed info")):
            if "\n" in text or "\r" in text:
                raise SquareDealError(f"the {what} {text!r} must be one line")
        if not name.strip():
            raise SquareDealError("the event name (--name) must not be empty")
        phases = [Phase.parse(p) for p in phase]
        event = SquareDealEvent(name.strip(), delayed_info.strip(), None, phases)
        write_file(sqd, format_sqd(event).encode("utf-8", "surrogateescape"), overwrite=overwrite)
        typer.echo(
            f"wrote {sqd} ({len(event.phases)} phase(s)); next: croupier squaredeal publish {sqd}"
        )

    @sq.command("publish")
    def publish(
        sqd: Annotated[Path, typer.Argument(help="The event file (EVENT.sqd).")],
        keys: Annotated[
            Path | None, typer.Option("--keys", help="Key file to create (default EVENT.sqk).")
        ] = None,
    ) -> None:
        """Make the secret keys (EVENT.sqk) and record their hash KH in the .sqd.

        \b
        Example:
          croupier squaredeal publish EV.sqd     # writes EV.sqk (keep it secret), KH into EV.sqd
        """
        from croupier.tournament.files import check_new_files, write_file
        from croupier.tournament.squaredeal import (
            SquareDealError,
            format_sqd,
            format_sqk,
            key_hash,
            make_keys,
        )

        event = _load_event(sqd)
        if event.key_hash is not None:
            raise SquareDealError(
                f"{sqd.name} already has a key hash (KH); its keys were published before"
            )
        target = keys if keys is not None else sqd.with_suffix(".sqk")
        check_new_files([target])
        data = format_sqk(make_keys(event))
        write_file(target, data, private=True)
        kh = key_hash(data)
        write_file(
            sqd,
            format_sqd(event.with_key_hash(kh)).encode("utf-8", "surrogateescape"),
            overwrite=True,
        )
        typer.echo(f"wrote {target} (keep it secret until the event is over)")
        typer.echo(f"KH {kh}  (publish {sqd.name} now)")

    @sq.command("set-dv")
    def set_dv(
        sqd: Annotated[Path, typer.Argument(help="The event file (EVENT.sqd).")],
        value: Annotated[str, typer.Argument(help="The delayed value, used byte for byte.")],
    ) -> None:
        """Record the delayed value (DV) exactly as given (once, after publish).

        \b
        Example:
          croupier squaredeal set-dv EV.sqd "15234.56"
        """
        from croupier.tournament.files import write_file
        from croupier.tournament.squaredeal import SquareDealError, format_sqd

        event = _load_event(sqd)
        if event.key_hash is None:
            raise SquareDealError(
                f"{sqd.name} has no key hash (KH) yet; publish the keys before the delayed "
                "value is known, or the value proves nothing"
            )
        if event.delayed_value is not None:
            raise SquareDealError(
                f"{sqd.name} already has DV {event.delayed_value!r}; a delayed value is set once"
            )
        updated = event.with_delayed_value(value)
        write_file(sqd, format_sqd(updated).encode("utf-8", "surrogateescape"), overwrite=True)
        typer.echo(f"DV {value}")

    @sq.command("make")
    def make(
        sqd: Annotated[Path, typer.Argument(help="The event file (EVENT.sqd).")],
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
            str | None,
            typer.Option("--boards", help="Board range for phases whose board spec is '?'."),
        ] = None,
        out: Annotated[Path, typer.Option("--out", help="Folder for the files.")] = Path("."),
        fmt: Annotated[BoardFormat, typer.Option("--format", "-f")] = BoardFormat.pbn,
        overwrite: Annotated[
            bool, typer.Option("--overwrite", help="Allow replacing existing files.")
        ] = False,
    ) -> None:
        """Deal the sessions into one file each (SquareDeal's names; never overwrites).

        \b
        Examples:
          croupier squaredeal make EV.sqd --keys EV.sqk --out sets/
          croupier squaredeal make EV.sqd --keys EV.sqk --sessions "2/1-3" --format dup --out sets/
          croupier squaredeal make EV.sqd --keys EV.sqk --reserve --out sets/
        """
        from croupier.formats.board_files import EXTENSIONS, render_boards
        from croupier.tournament.boards import parse_board_range
        from croupier.tournament.files import check_new_files, write_file
        from croupier.tournament.squaredeal import (
            SquareDealError,
            parse_session_spec,
            session_boards,
            session_file_name,
        )

        event = _load_event(sqd)
        event.dv_bytes()
        key_set = _load_keys(event, keys, sqd.name)
        refs = parse_session_spec(event, sessions, reserve=reserve)
        override = parse_board_range(boards) if boards is not None else None
        if override is not None and all(event.phase(r.phase).boards != "?" for r in refs):
            raise SquareDealError(
                f"--boards {boards!r} applies only to phases whose board spec is '?'; the "
                "sessions chosen have their boards in the .sqd"
            )
        planned: list[tuple[Path, list[Board], SessionRef]] = []
        for ref in refs:
            phase = event.phase(ref.phase)
            numbers = override if phase.boards == "?" else None
            made = session_boards(event, key_set, ref, numbers)
            name = session_file_name(phase.prefix, ref.session, reserve=ref.reserve)
            planned.append((out / (name + EXTENSIONS[fmt.value]), made, ref))
        paths = [p for p, _, _ in planned]
        if len(set(paths)) != len(paths):
            raise SquareDealError("two sessions would be written to the same file name")
        if out.exists() and not out.is_dir():
            raise SquareDealError(f"--out {str(out)!r} is a file; give a folder")
        out.mkdir(parents=True, exist_ok=True)
        check_new_files(paths, overwrite=overwrite)
        for path, made, ref in planned:
            title = f"{event.name} — phase {ref.phase} session {ref.session}"
            write_file(
                path,
                render_boards(made, fmt.value, generator=_generator(), title=title),
                overwrite=overwrite,
            )
            typer.echo(f"wrote {path} (boards {made[0].number}-{made[-1].number})")

    @sq.command("verify")
    def verify(
        sqd: Annotated[Path, typer.Argument(help="The event file (EVENT.sqd).")],
        sqk: Annotated[Path, typer.Argument(help="The published key file (EVENT.sqk).")],
        files: Annotated[list[Path], typer.Argument(help="Session files to check.")],
    ) -> None:
        """Check KH, regenerate every session and compare with the files (exit 0 = all match).

        Each file is recognised by its name (prefix, session, 'reserve'); exit
        status 1 when anything differs, with one FAIL line per file and board.

        \b
        Example:
          croupier squaredeal verify EV.sqd EV.sqk sets/CUP1.pbn sets/CUP2.pbn
        """
        from croupier.errors import VerificationError
        from croupier.tournament.squaredeal import match_session_file, session_boards

        event = _load_event(sqd)
        event.dv_bytes()
        try:
            key_set = _load_keys(event, sqk, sqd.name)
        except VerificationError as exc:
            typer.echo(f"FAIL {exc}")
            raise typer.Exit(1) from None
        typer.echo(f"OK   key hash {event.key_hash} matches {sqk.name}")
        failures = 0
        for path in files:
            ref = match_session_file(event, path.name)
            phase = event.phase(ref.phase)
            numbers = None if phase.boards == "?" else phase.boards_for_session(ref.session)
            found = _read_board_file(path, numbers[0] if numbers is not None else 1)
            if numbers is None:  # boards chosen when dealing: the file's own range
                present = [b.number for b in found] or [1]
                numbers = range(min(present), max(present) + 1)
            expected = session_boards(event, key_set, ref, numbers)
            kind = "reserve " if ref.reserve else ""
            ok = f"{path.name}: phase {ref.phase} {kind}session {ref.session}, "
            ok += f"{len(expected)} boards match"
            failures += not _report(_compare(expected, found, path.name), ok)
        _summary(failures, len(files))

    app.add_typer(sq, name="squaredeal")


# ------------------------------------------------------------------------------ boards
def _key_from_file(path: Path) -> bytes:
    from croupier.tournament.verifiable import parse_key

    return parse_key(_read_text(path))


def _boards_commands(app: typer.Typer) -> None:
    bd = typer.Typer(help=BOARDS_HELP, no_args_is_help=True, rich_markup_mode=None)

    @bd.command("new-key")
    def new_key_cmd(
        event: Annotated[str, typer.Option("--event", help="The event name (exact text).")],
        key_file: Annotated[Path, typer.Option("--key-file", help="Secret key file to create.")],
    ) -> None:
        """Make a secret key (64 hex digits) and print the commitment to publish.

        \b
        Example:
          croupier boards new-key --event "Club Cup" --key-file cup.key
        """
        from croupier.tournament.files import write_file
        from croupier.tournament.verifiable import ALGORITHM, commitment, new_key

        key = new_key()
        write_file(key_file, (key.hex() + "\n").encode("ascii"), private=True)
        typer.echo(f"wrote {key_file} (keep it secret until the event is over)")
        typer.echo(f"algorithm  {ALGORITHM}")
        typer.echo(f"event      {event}")
        typer.echo(f"commitment {commitment(key, event)}")

    @bd.command("commitment")
    def commitment_cmd(
        event: Annotated[str, typer.Option("--event", help="The event name (exact text).")],
        key_file: Annotated[
            Path, typer.Option("--key-file", help="The secret key file (64 hex digits).")
        ],
    ) -> None:
        """Print the commitment of a key file for an event.

        \b
        Example:
          croupier boards commitment --event "Club Cup" --key-file cup.key
        """
        from croupier.tournament.verifiable import commitment

        typer.echo(commitment(_key_from_file(key_file), event))

    @bd.command("make")
    def make_cmd(
        event: Annotated[str, typer.Option("--event", help="The event name (exact text).")],
        key_file: Annotated[
            Path, typer.Option("--key-file", help="The secret key file (64 hex digits).")
        ],
        dv: Annotated[str, typer.Option("--dv", help="The delayed value (UTF-8, byte-exact).")],
        session: Annotated[
            int, typer.Option("--session", min=1, help="Session number (1 or more).")
        ],
        boards: Annotated[str, typer.Option("--boards", "-n", help="N or A-B.")],
        fmt: Annotated[BoardFormat, typer.Option("--format", "-f")] = BoardFormat.pbn,
        out: Annotated[Path | None, typer.Option("--out", "-o")] = None,
        overwrite: Annotated[
            bool, typer.Option("--overwrite", help="Allow replacing existing files.")
        ] = False,
    ) -> None:
        """Deal boards of one session with croupier-boards/1.

        \b
        Example:
          croupier boards make --event "Club Cup" --key-file cup.key --dv "15234.56" \\
              --session 1 --boards 1-16 --out cup1.pbn
        """
        from croupier.formats.board_files import render_boards
        from croupier.tournament.boards import parse_board_range
        from croupier.tournament.verifiable import ALGORITHM, make_boards

        made = make_boards(
            _key_from_file(key_file), event, dv.encode("utf-8"), session, parse_board_range(boards)
        )
        generator = f"{_generator()} {ALGORITHM}"
        title = f"{event} — session {session}"
        _emit(render_boards(made, fmt.value, generator=generator, title=title), out, overwrite)

    @bd.command("verify")
    def verify_cmd(
        event: Annotated[str, typer.Option("--event", help="The event name (exact text).")],
        key_file: Annotated[
            Path, typer.Option("--key-file", help="The secret key file (64 hex digits).")
        ],
        commitment_hex: Annotated[
            str, typer.Option("--commitment", help="The commitment published before the event.")
        ],
        dv: Annotated[str, typer.Option("--dv", help="The delayed value (UTF-8, byte-exact).")],
        session: Annotated[
            int, typer.Option("--session", min=1, help="Session number (1 or more).")
        ],
        files: Annotated[list[Path], typer.Argument(help="Board files of this session.")],
        boards: Annotated[
            str | None,
            typer.Option("--boards", "-n", help="The boards each file must hold: N or A-B."),
        ] = None,
    ) -> None:
        """Check the commitment and regenerate the boards in FILES (exit 0 = all match).

        Without --boards every board found in a file is checked; with it, each
        file must hold exactly those boards (and .txt files are numbered from
        its first board).

        \b
        Example:
          croupier boards verify --event "Club Cup" --key-file cup.key \\
              --commitment 2492166a... --dv "15234.56" --session 1 --boards 1-16 cup1.pbn
        """
        from croupier.tournament.boards import parse_board_range
        from croupier.tournament.verifiable import make_boards, verify_commitment

        key = _key_from_file(key_file)
        plan = parse_board_range(boards) if boards is not None else None
        if not verify_commitment(key, event, commitment_hex):
            typer.echo(f"FAIL the key in {key_file.name} does not match the commitment")
            raise typer.Exit(1)
        typer.echo("OK   commitment matches")
        failures = 0
        for path in files:
            found = _read_board_file(path, plan[0] if plan is not None else 1)
            numbers = plan if plan is not None else sorted({b.number for b in found})
            expected = make_boards(key, event, dv.encode("utf-8"), session, numbers)
            problems = _compare(expected, found, path.name)
            if not found:
                problems = [f"{path.name}: no boards in the file"]
            failures += not _report(problems, f"{path.name}: {len(expected)} boards match")
        _summary(failures, len(files))

    app.add_typer(bd, name="boards")


def register(app: typer.Typer) -> None:
    """Add ``bigdeal``, ``squaredeal`` and ``boards`` to the program."""
    _bigdeal_command(app)
    _squaredeal_commands(app)
    _boards_commands(app)
