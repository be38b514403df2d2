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

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from croupier.boards import Board
from croupier.errors import VerificationError
from croupier.files import check_new_files, read_file, write_file
from croupier.formats.board_files import EXTENSIONS, BoardFormat, render_boards
from croupier.randomness import RandomSource
from croupier.tournament.squaredeal import (
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
    VerifyReport,
    compare_boards,
    read_board_file,
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


def _write_event(path: Path, event: SquareDealEvent, *, overwrite: bool) -> None:
    write_file(path, format_sqd(event).encode("utf-8", "surrogateescape"), overwrite=overwrite)


def load_event(path: Path) -> SquareDealEvent:
    """Read and parse a ``.sqd`` file (errors name the file and line).

    >>> load_event(Path("missing.sqd"))
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: file 'missing.sqd' not found
    """
    path = Path(path)
    return parse_sqd(read_file(path).decode("utf-8", "surrogateescape"), source=path.name)


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
    _write_event(Path(path), event, overwrite=overwrite)
    return event


def publish_keys(
    event_file: Path, key_file: Path | None = None, *, source: RandomSource | None = None
) -> PublishedKeys:
    """Make the secret keys (default ``EVENT.sqk``, owner-only) and record ``KH`` in the ``.sqd``.

    Keys are made once: an event that has ``KH`` already, or a key file that
    exists, is refused.  ``source`` defaults to the operating system's CSPRNG.
    See the module docstring for the whole workflow.

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
    check_new_files([target])
    data = format_sqk(make_keys(event, source))
    write_file(target, data, private=True)
    kh = key_hash(data)
    _write_event(event_file, event.with_key_hash(kh), overwrite=True)
    return PublishedKeys(event_file, target, kh)


def set_delayed_value(event_file: Path, value: str) -> SquareDealEvent:
    """Record the delayed value ``DV`` exactly as given; returns the updated event.

    Refused before ``KH`` is recorded (a value known before the keys are
    committed proves nothing) and when a ``DV`` is there already.

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
            f"{event_file.name} already has DV {event.delayed_value!r}; a delayed value is set once"
        )
    updated = event.with_delayed_value(value)
    _write_event(event_file, updated, overwrite=True)
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
    raw = read_file(key_file)
    check = check_keys(event, raw, key_file.name, event_file)
    if not check.ok:
        raise VerificationError(check.message)
    return parse_sqk(raw.decode("ascii", "replace"), source=key_file.name)


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
) -> list[SessionFile]:
    """Deal ``sessions`` (``PHASES/SESSIONS`` as ``parse_session_spec`` reads it) into ``out``.

    Each session goes into its own file, named as SquareDeal names it.

    ``boards`` gives the board numbers of phases whose spec is ``?``.  Every
    target is checked before anything is written.  See the module docstring
    for an example.

    >>> make_sessions(Path("missing.sqd"), Path("missing.sqk"))
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: file 'missing.sqd' not found
    """
    event_file, out, fmt = Path(event_file), Path(out), BoardFormat(fmt)
    event = load_event(event_file)
    event.dv_bytes()
    key_set = load_keys(event, key_file, event_file.name)
    refs = parse_session_spec(event, sessions, reserve=reserve)
    if boards is not None and all(not event.phase(r.phase).boards.chosen_at_dealing for r in refs):
        spelled = f"{boards.start}-{boards.stop - 1}"
        raise SquareDealError(
            f"boards={spelled!r} applies only to phases whose board spec is '?'; the "
            "sessions chosen have their boards in the .sqd"
        )
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
    for item in planned:
        title = f"{event.name} — phase {item.session.phase} session {item.session.session}"
        data = render_boards(item.boards, fmt, generator=generator, title=title)
        write_file(item.path, data, overwrite=overwrite)
    return planned


def verify_sessions(event_file: Path, key_file: Path, files: Sequence[Path]) -> VerifyReport:
    """Check ``KH``, regenerate the session of every file (known by its name) and compare.

    Unusable input (no ``DV``, a file name that matches no session, an
    unreadable file) raises; differences are reported, never raised.  See
    the module docstring for an example.

    >>> verify_sessions(Path("missing.sqd"), Path("missing.sqk"), [])
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: file 'missing.sqd' not found
    """
    event_file, key_file = Path(event_file), Path(key_file)
    event = load_event(event_file)
    event.dv_bytes()
    raw = read_file(key_file)
    keys = check_keys(event, raw, key_file.name, event_file.name)
    if not keys.ok:
        return VerifyReport(keys, ())
    key_set = parse_sqk(raw.decode("ascii", "replace"), source=key_file.name)
    checks: list[FileCheck] = []
    for path in map(Path, files):
        ref = match_session_file(event, path.name)
        phase = event.phase(ref.phase)
        if phase.boards.chosen_at_dealing:  # boards chosen when dealing: the file's own range
            found = read_board_file(path)
            present = [b.number for b in found] or [1]
            numbers = range(min(present), max(present) + 1)
        else:
            numbers = phase.boards_for_session(ref.session)
            found = read_board_file(path, numbers[0])
        expected = session_boards(event, key_set, ref, numbers)
        mismatches = tuple(compare_boards(expected, found, path.name))
        checks.append(FileCheck(path.name, len(expected), mismatches, ref))
    return VerifyReport(keys, tuple(checks))
