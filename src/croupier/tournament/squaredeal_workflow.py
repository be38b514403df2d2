"""The SquareDeal workflow on files: new, publish, set-dv, make and verify.

Each step reads and writes ``.sqd``/``.sqk`` files and board sets (atomically,
never over an existing file unless ``overwrite=True``), enforces the order of
the protocol (keys committed before the delayed value is known, each set
once) and returns what it did as a dataclass; the command line only prints it.

>>> import tempfile
>>> from croupier.randomness.seeded import SeededSource
>>> folder = Path(tempfile.mkdtemp())
>>> event = new_event(folder / "EV.sqd", "Club Cup", ["1:4:CUP#:Cup #"])
>>> published = publish_keys(folder / "EV.sqd", source=SeededSource("doc", "keys"))
>>> published.key_file.name, len(published.key_hash)
('EV.sqk', 64)
>>> set_delayed_value(folder / "EV.sqd", "15234.56").delayed_value
'15234.56'
>>> made = make_sessions(folder / "EV.sqd", folder / "EV.sqk", out=folder / "sets")
>>> [(m.path.name, [b.number for b in m.boards]) for m in made]
[('CUP1.pbn', [1, 2, 3, 4])]
>>> verify_sessions(folder / "EV.sqd", folder / "EV.sqk", [made[0].path]).ok
True
"""

from __future__ import annotations

import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from croupier.boards import Board
from croupier.bounded_read import read_within
from croupier.errors import VerificationError, excerpt
from croupier.files import (
    ExistingFileError,
    check_new_files,
    write_file,
    write_files_atomically,
)
from croupier.formats.board_files import EXTENSIONS, BoardFormat, load_boards, render_boards
from croupier.randomness import RandomSource
from croupier.tournament.squaredeal import (
    MAX_DEAL_BOARDS,
    MAX_EVENT_FILE_BYTES,
    Phase,
    SessionRef,
    SquareDealError,
    SquareDealEvent,
    SquareDealKeys,
    format_sqd,
    format_sqk,
    key_hash,
    make_keys,
    match_session_file,
    parse_session_spec,
    parse_sqd,
    parse_sqk,
    session_boards,
    session_file_name,
)
from croupier.tournament.verification import (
    FileCheck,
    KeyCheck,
    Mismatch,
    MismatchKind,
    VerifyReport,
    compare_boards,
)

__all__ = [
    "PublishedKeys",
    "SessionFile",
    "check_keys",
    "load_event",
    "load_keys",
    "make_sessions",
    "new_event",
    "publish_keys",
    "session_title",
    "set_delayed_value",
    "verify_sessions",
]


@dataclass(frozen=True)
class PublishedKeys:
    """What :func:`publish_keys` did: the secret key file written and ``KH`` recorded.

    >>> PublishedKeys(Path("EV.sqd"), Path("EV.sqk"), "ab").key_file
    PosixPath('EV.sqk')
    """

    event_file: Path
    key_file: Path
    key_hash: str


@dataclass(frozen=True)
class SessionFile:
    """One board set written by :func:`make_sessions`: file, session and its boards.

    >>> SessionFile(Path("CUP1.pbn"), SessionRef(1, 1), []).session
    SessionRef(phase=1, session=1, reserve=False)
    """

    path: Path
    session: SessionRef
    boards: list[Board]


def _sqd_bytes(event: SquareDealEvent) -> bytes:
    return format_sqd(event).encode("utf-8", "surrogateescape")


def _read_event_file(path: Path) -> bytes:
    """The bytes of a ``.sqd`` or ``.sqk`` file, refused when it is too large to be one.

    At most one byte past :data:`~croupier.tournament.squaredeal.MAX_EVENT_FILE_BYTES` is
    read, so an endless file (``/dev/zero``, a FIFO) or a huge one costs nothing.
    """
    return read_within(
        path, MAX_EVENT_FILE_BYTES, what="a SquareDeal event or key file", error=SquareDealError
    )


def _check_rewritable(path: Path) -> None:
    """Refuse to rewrite a ``.sqd`` its owner made read-only (it stays exactly as it is)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return  # gone: the write reports it
    if not mode & stat.S_IWUSR:
        raise SquareDealError(
            f"{path.name} is read-only; croupier leaves it unchanged (make it writable, "
            f"e.g. chmod u+w {path.name}, to record this step)"
        )


def load_event(path: Path) -> SquareDealEvent:
    """Read and parse a ``.sqd`` file (errors name the file and line).

    >>> load_event(Path("missing.sqd"))
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: file 'missing.sqd' not found
    """
    path = Path(path)
    return parse_sqd(_read_event_file(path).decode("utf-8", "surrogateescape"), source=path.name)


def new_event(
    path: Path,
    name: str,
    phases: Sequence[Phase | str],
    delayed_info: str = "",
    *,
    overwrite: bool = False,
) -> SquareDealEvent:
    """Write a new ``.sqd`` file for an event with ``phases`` (``Phase`` or its ``SN`` text).

    >>> new_event(Path("x.sqd"), " ", ["1:5:A:A"])
    Traceback (most recent call last):
    ...
    croupier.tournament.squaredeal.SquareDealError: name= (the event name) must not be empty
    """
    for text, what in ((name, "event name"), (delayed_info, "delayed info")):
        if "\n" in text or "\r" in text:
            raise SquareDealError(f"the {what} {text!r} must be one line")
    if not name.strip():
        raise SquareDealError("name= (the event name) must not be empty")
    parsed = [p if isinstance(p, Phase) else Phase.parse(p) for p in phases]
    if not parsed:
        raise SquareDealError("phases= is empty; an event needs at least one phase")
    event = SquareDealEvent(name.strip(), delayed_info.strip(), None, parsed)
    write_file(Path(path), _sqd_bytes(event), overwrite=overwrite)
    return event


def publish_keys(
    event_file: Path, key_file: Path | None = None, *, source: RandomSource | None = None
) -> PublishedKeys:
    """Make the secret keys (default ``EVENT.sqk``, owner-only) and record ``KH`` in the ``.sqd``.

    Keys are made once: an event that has ``KH`` already, or a key file that
    exists, is refused.  Both files are written or neither (the key file is
    moved into place first, and removed again if the ``.sqd`` cannot be
    rewritten), so a failed run can simply be run again.  A read-only
    ``.sqd`` is refused.  ``source`` defaults to the operating system's
    CSPRNG.  See the module docstring for the whole workflow.

    >>> publish_keys(Path("missing.sqd"))
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: file 'missing.sqd' not found
    """
    event_file = Path(event_file)
    event = load_event(event_file)
    if event.key_hash is not None:
        raise SquareDealError(
            f"{event_file.name} already has a key hash (KH); its keys were published before"
        )
    target = Path(key_file) if key_file is not None else event_file.with_suffix(".sqk")
    _check_rewritable(event_file)
    if target.exists() and not target.is_dir():
        raise ExistingFileError(
            f"key file {str(target)!r} already exists, and {event_file.name} has no key hash "
            "(KH) committing to it; croupier never replaces a key file: remove it if it is "
            "left from an interrupted publish of this event, or give key_file= another name"
        )
    check_new_files([target])
    data = format_sqk(make_keys(event, source))
    kh = key_hash(data)
    # The key file first: a .sqd committing to keys that were never written would be worse.
    write_files_atomically(
        [(target, data), (event_file, _sqd_bytes(event.with_key_hash(kh)))],
        overwrite=[event_file],  # the key file is new, and stays so even if one appears now
        private=[target],
    )
    return PublishedKeys(event_file, target, kh)


def set_delayed_value(event_file: Path, value: str) -> SquareDealEvent:
    """Record the delayed value ``DV`` exactly as given; returns the updated event.

    Refused before ``KH`` is recorded (a value known before the keys are
    committed proves nothing), when a ``DV`` is there already, and when the
    ``.sqd`` is read-only (it is left exactly as it is).

    >>> import tempfile
    >>> sqd = Path(tempfile.mkdtemp()) / "EV.sqd"
    >>> _ = new_event(sqd, "Cup", ["1:4:CUP:Cup"])
    >>> set_delayed_value(sqd, "15234.56")
    Traceback (most recent call last):
    ...
    croupier.tournament.squaredeal.SquareDealError: EV.sqd has no key hash (KH) yet; ...
    """
    event_file = Path(event_file)
    event = load_event(event_file)
    if event.key_hash is None:
        raise SquareDealError(
            f"{event_file.name} has no key hash (KH) yet; publish the keys before the delayed "
            "value is known, or the value proves nothing"
        )
    if event.delayed_value is not None:
        raise SquareDealError(
            f"{event_file.name} already has DV {excerpt(event.delayed_value)}; a delayed value "
            "is set once"
        )
    updated = event.with_delayed_value(value)
    _check_rewritable(event_file)
    write_file(event_file, _sqd_bytes(updated), overwrite=True)
    return updated


def check_keys(event: SquareDealEvent, key_data: bytes, key_file: str, event_file: str) -> KeyCheck:
    """Compare the key file's hash with the ``KH`` the event published.

    >>> ev = SquareDealEvent("T", key_hash=key_hash(b"1,1:abc\\r\\n"))
    >>> check_keys(ev, b"1,1:abc\\n", "T.sqk", "T.sqd").ok
    True
    """
    actual = key_hash(key_data)
    if event.key_hash is None:
        message = f"{event_file} has no key hash (KH); publish the keys first (the publish step)"
        return KeyCheck(False, key_file, None, actual, message)
    if actual != event.key_hash:
        message = (
            f"key hash mismatch: {key_file} hashes to {actual}, but {event_file} "
            f"commits to KH {event.key_hash}; the key file is not the published one"
        )
        return KeyCheck(False, key_file, event.key_hash, actual, message)
    message = f"key hash {event.key_hash} matches {key_file}"
    return KeyCheck(True, key_file, event.key_hash, actual, message)


def load_keys(event: SquareDealEvent, key_file: Path, event_file: str) -> SquareDealKeys:
    """Read the key file; :class:`~croupier.errors.VerificationError` unless it matches ``KH``.

    >>> import tempfile
    >>> sqk = Path(tempfile.mkdtemp()) / "T.sqk"
    >>> _ = sqk.write_bytes(b"1,1:abc\\r\\n")
    >>> ev = SquareDealEvent("T", key_hash=key_hash(b"1,1:abc\\r\\n"))
    >>> load_keys(ev, sqk, "T.sqd").keys
    {KeyId(phase=1, session=1): 'abc'}
    >>> load_keys(SquareDealEvent("T", key_hash="0" * 64), sqk, "T.sqd")
    Traceback (most recent call last):
    ...
    croupier.errors.VerificationError: key hash mismatch: T.sqk hashes to ...
    """
    key_file = Path(key_file)
    raw = _read_event_file(key_file)
    check = check_keys(event, raw, key_file.name, event_file)
    if not check.ok:
        raise VerificationError(check.message)
    return parse_sqk(raw.decode("ascii", "replace"), source=key_file.name)


def _check_board_count(
    event: SquareDealEvent, refs: Sequence[SessionRef], boards: range | None
) -> None:
    """Refuse, before any dealing, a request for more boards than one run makes."""
    total = 0
    for ref in refs:
        phase = event.phase(ref.phase)
        if not phase.boards.chosen_at_dealing:
            total += len(phase.boards_for_session(ref.session))
        elif boards is not None:
            total += len(boards)
    if total > MAX_DEAL_BOARDS:
        raise SquareDealError(
            f"the sessions chosen hold {total} boards; one run deals at most {MAX_DEAL_BOARDS} "
            "(choose fewer with sessions= and make the rest in another run)"
        )


def make_sessions(
    event_file: Path,
    key_file: Path,
    sessions: str = "*/*",
    *,
    reserve: bool = False,
    boards: range | None = None,
    out: Path = Path("."),
    fmt: BoardFormat | str = BoardFormat.PBN,
    overwrite: bool = False,
    generator: str = "croupier",
    event_name: str = "?",
    newline: str = "\n",
) -> list[SessionFile]:
    """Deal ``sessions`` (``PHASES/SESSIONS`` as ``parse_session_spec`` reads it) into ``out``.

    Each session goes into its own file, named as SquareDeal names it.
    PBN files have Big Deal's layout, with ``event_name`` in every ``Event``
    tag and ``newline`` ending every line; the defaults (``?``, LF) give the
    files SquareDeal 2.7 writes on Linux byte for byte but the ``Generator``
    tag, and ``croupier squaredeal make`` passes the event's name ``TN`` and
    CR LF (PBN 2.1, and SquareDeal on Windows) unless told otherwise.  An HTML
    hand record names the event and session and says how to verify the
    boards (``KH``, ``DV``).

    ``boards`` gives the board numbers of phases whose spec is ``?``.  Every
    target is checked before anything is written, and the files are written
    all or nothing: if one cannot be written (a full disk), none is left
    behind and the same call can simply be made again.  See the module
    docstring for an example.

    >>> make_sessions(Path("missing.sqd"), Path("missing.sqk"))
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: file 'missing.sqd' not found
    """
    event_file, out, fmt = Path(event_file), Path(out), BoardFormat(fmt)
    event = load_event(event_file)
    event.dv_bytes()
    refs = parse_session_spec(event, sessions, reserve=reserve)
    if boards is not None and all(not event.phase(r.phase).boards.chosen_at_dealing for r in refs):
        spelled = f"{boards.start}-{boards.stop - 1}"
        raise SquareDealError(
            f"boards={spelled!r} applies only to phases whose board spec is '?'; the "
            "sessions chosen have their boards in the .sqd"
        )
    _check_board_count(event, refs, boards)
    key_set = load_keys(event, key_file, event_file.name)
    planned: list[SessionFile] = []
    for ref in refs:
        phase = event.phase(ref.phase)
        numbers = boards if phase.boards.chosen_at_dealing else None
        made = session_boards(event, key_set, ref, numbers)
        name = session_file_name(phase.prefix, ref.session, reserve=ref.reserve)
        planned.append(SessionFile(out / (name + EXTENSIONS[fmt]), ref, made))
    paths = [p.path for p in planned]
    if len(set(paths)) != len(paths):
        raise SquareDealError("two sessions would be written to the same file name")
    if out.exists() and not out.is_dir():
        raise SquareDealError(f"out={str(out)!r} is a file; give a folder")
    out.mkdir(parents=True, exist_ok=True)
    check_new_files(paths, overwrite=overwrite)
    rendered: list[tuple[Path, bytes]] = []
    for item in planned:  # SquareDeal's PBN files are Big Deal's: keep its layout exactly
        if fmt is BoardFormat.HTML:
            data = _hand_record_page(event, event_file, item)
        else:
            data = render_boards(
                item.boards,
                fmt,
                generator=generator,
                pbn_style="bigdeal",
                event=event_name,
                newline=newline,
            )
        rendered.append((item.path, data))
    write_files_atomically(rendered, overwrite=overwrite)
    return planned


def session_title(event: SquareDealEvent, ref: SessionRef) -> str:
    """How a hand record names a session: the phase's description with ``#`` as the session.

    >>> cup = SquareDealEvent("Cup", phases=[Phase.parse("2:8:R#:Round #"), Phase.parse("1:8:F:")])
    >>> session_title(cup, SessionRef(1, 2)), session_title(cup, SessionRef(2, 1, reserve=True))
    ('Round 2', 'Phase 2 session 1 (reserve)')
    """
    phase = event.phase(ref.phase)
    text = re.sub(r"#+", str(ref.session), phase.description).strip()
    if not text:
        text = f"Phase {ref.phase} session {ref.session}"
    return text + (" (reserve)" if ref.reserve else "")


def _hand_record_page(event: SquareDealEvent, event_file: Path, item: SessionFile) -> bytes:
    """The HTML hand record of one session: event, session, ``KH``, ``DV``, how to verify."""
    from croupier.formats.hand_record import HandRecord, render_hand_record
    from croupier.tournament.provenance import squaredeal_provenance

    record = HandRecord.from_boards(
        item.boards,
        event=event.name,
        session=session_title(event, item.session),
        # players verify the session's board file (SquareDeal's name), not this page
        provenance=squaredeal_provenance(event, event_file.name, [item.path.stem + ".pbn"]),
    )
    return render_hand_record(record, "html")


def _phases_against_keys(event: SquareDealEvent, keys: SquareDealKeys) -> str | None:
    """Why the ``.sqd`` phases do not fit the committed keys, or ``None`` when they do.

    The keys are made one per session (``p,0`` for a variable phase), so the
    keys ``KH`` commits to fix the number of phases and of sessions.
    """
    per_phase: dict[int, set[int]] = {}
    for key_id in keys.keys:
        p, s = key_id.phase, key_id.session
        if not 1 <= p <= len(event.phases):
            phases = len(event.phases)
            return f"the keys include {key_id.format()!r} but the .sqd has {phases} phase(s)"
        phase = event.phase(p)
        if phase.variable != (s == 0) or (not phase.variable and s > phase.sessions):
            spelled = "any number of sessions" if phase.variable else f"{phase.sessions} session(s)"
            return f"the keys include {key_id.format()!r} but phase {p} of the .sqd has {spelled}"
        per_phase.setdefault(p, set()).add(s)
    for p, phase in enumerate(event.phases, start=1):
        present = per_phase.get(p, set())
        wanted = 1 if phase.variable else phase.sessions
        if len(present) != wanted:
            missing = 0 if phase.variable else min(set(range(1, len(present) + 2)) - present)
            return f"phase {p} session {missing} of the .sqd has no key ({p},{missing})"
    return None


def _verify_notes(event_file: str, chosen: range | None) -> tuple[str, ...]:
    notes = [
        f"KH commits to the keys only (and so to the number of phases and sessions): the event "
        f"name (TN) and the board numbers (SN) in {event_file} are not committed; compare "
        f"{event_file} with the copy published before the event, or deal with croupier boards "
        "--plan (croupier-boards/2), whose commitment covers the event and its board plan"
    ]
    if chosen is not None:
        notes.append(
            f"boards {chosen.start}-{chosen.stop - 1} of the phases whose boards are chosen at "
            "dealing time ('?') are the ones the verifier gave; SquareDeal cannot commit to them"
        )
    return tuple(notes)


def verify_sessions(
    event_file: Path, key_file: Path, files: Sequence[Path], *, boards: range | None = None
) -> VerifyReport:
    """Check ``KH``, regenerate the session of every file (known by its name) and compare.

    Each file must hold exactly its session's boards, in order.  ``boards``
    gives the boards of phases whose spec is ``?`` (the range announced for
    them), and is required when a file belongs to such a phase.  ``KH``
    covers the keys only; the keys fix the phases and their numbers of
    sessions, so a ``.sqd`` whose ``SN`` lines disagree with them fails the
    key check, but the event name and the board numbers are not committed:
    the report's ``notes`` say so.

    Unusable input (no ``DV``, a file name that matches no session, an
    unreadable file, a ``?`` phase without ``boards``) raises; differences
    are reported, never raised.  See the module docstring for an example.

    >>> verify_sessions(Path("missing.sqd"), Path("missing.sqk"), [])
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: file 'missing.sqd' not found
    """
    event_file, key_file = Path(event_file), Path(key_file)
    event = load_event(event_file)
    event.dv_bytes()
    paths = [Path(f) for f in files]
    refs = [match_session_file(event, path.name) for path in paths]
    chosen = [r for r in refs if event.phase(r.phase).boards.chosen_at_dealing]
    if chosen and boards is None:
        phase = event.phase(chosen[0].phase)
        raise SquareDealError(
            f"{paths[refs.index(chosen[0])].name} belongs to phase {chosen[0].phase} "
            f"({phase.prefix!r}), whose boards are chosen at dealing time ('?'): give "
            "boards=A-B, the boards announced for it"
        )
    if boards is not None and not chosen:
        raise SquareDealError(
            f"boards={boards.start}-{boards.stop - 1} applies only to files of phases whose "
            "board spec is '?'; the files given have their boards in the .sqd"
        )
    notes = _verify_notes(event_file.name, boards)
    raw = _read_event_file(key_file)
    keys = check_keys(event, raw, key_file.name, event_file.name)
    if not keys.ok:
        return VerifyReport(keys, (), notes)
    key_set = parse_sqk(raw.decode("ascii", "replace"), source=key_file.name)
    problem = _phases_against_keys(event, key_set)
    if problem is not None:
        message = (
            f"{event_file.name} does not fit the keys KH commits to: {problem}; its phases "
            "(SN lines) were changed after the keys were made"
        )
        return VerifyReport(
            KeyCheck(False, key_file.name, keys.published, keys.computed, message), (), notes
        )
    checks: list[FileCheck] = []
    for path, ref in zip(paths, refs, strict=True):
        phase = event.phase(ref.phase)
        numbers = boards if phase.boards.chosen_at_dealing else None
        if numbers is None:
            numbers = phase.boards_for_session(ref.session)
        found = load_boards(path, first_board=numbers[0])
        expected = session_boards(event, key_set, ref, numbers)
        if found:
            mismatches = tuple(compare_boards(expected, found, path.name))
        else:
            mismatches = (Mismatch(path.name, None, MismatchKind.NO_BOARDS),)
        checks.append(FileCheck(path.name, len(expected), mismatches, ref))
    return VerifyReport(keys, tuple(checks), notes)
