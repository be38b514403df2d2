"""The ``croupier-boards`` workflow on files: make a key, deal, verify.

The scheme itself (hashes, commitments, one board) is
:mod:`croupier.tournament.verifiable`; this module adds the key file (64 hex
digits, readable by its owner only, never replaced) and verification of board
files, returned as a :class:`~croupier.tournament.verification.VerifyReport`.

A verifier always knows which boards each file must hold: with a board plan
(``croupier-boards/2``) the commitment covers it; with ``croupier-boards/1``
the verifier gives the boards (``boards=``), and the report notes that the
commitment does not cover them.

>>> import tempfile
>>> from croupier.formats.board_files import render_boards
>>> from croupier.randomness.seeded import SeededSource
>>> folder = Path(tempfile.mkdtemp())
>>> plan = BoardPlan.parse("1:1-2")
>>> made = new_key_file(folder / "cup.key", "Cup", plan, source=SeededSource("doc", "key"))
>>> made.algorithm
'croupier-boards/2'
>>> key = read_key_file(folder / "cup.key")
>>> data = render_boards(make_boards(key, "Cup", b"7", 1, [1, 2]), "pbn")
>>> _ = (folder / "s1.pbn").write_bytes(data)
>>> files = [folder / "s1.pbn"]
>>> report = verify_boards(folder / "cup.key", "Cup", made.commitment, "7", 1, files, plan=plan)
>>> report.ok, report.files[0].boards, report.notes
(True, 2, ())
>>> plan_edited = BoardPlan.parse("1:1")
>>> verify_boards(folder / "cup.key", "Cup", made.commitment, "7", 1, files, plan=plan_edited).ok
False
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from croupier.bounded_read import read_within
from croupier.errors import CroupierError
from croupier.files import ExistingFileError, write_file
from croupier.formats.board_files import load_boards
from croupier.randomness import RandomSource
from croupier.tournament.board_plan import BoardPlan
from croupier.tournament.verifiable import (
    ALGORITHM,
    ALGORITHM_PLAN,
    commitment,
    delayed_value_bytes,
    make_boards,
    new_key,
    parse_commitment,
    parse_key,
    plan_commitment,
    verify_commitment,
    verify_plan_commitment,
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
    "KEY_GIVEN",
    "MAX_KEY_FILE_BYTES",
    "NewKey",
    "new_key_file",
    "read_key_file",
    "verify_boards",
]

#: The largest key file read (a key is 64 hex digits and a line end; white space around it is
#: allowed).  One byte more is read at most, so an endless or huge file is refused at once.
MAX_KEY_FILE_BYTES = 4096

#: The name a report gives the key when it was given as hex digits (``key=``), not a file.
KEY_GIVEN = "(key given)"

# What a commitment that does not match means, with a plan and without one.
_MUST_MATCH = {
    True: "the event name and the board plan must match exactly the text published with the "
    "commitment (every letter, space and punctuation mark), and the key must be the one revealed",
    False: "the event name must match exactly the text published with the commitment (every "
    "letter, space and punctuation mark), and the key must be the one revealed; a "
    f"{ALGORITHM_PLAN} commitment is checked with its board plan",
}


@dataclass(frozen=True)
class NewKey:
    """What :func:`new_key_file` did: the key file written and the commitment to publish.

    ``plan`` is the board plan the commitment covers (``croupier-boards/2``),
    or ``None`` for a ``croupier-boards/1`` commitment (key and event only).

    >>> NewKey(Path("cup.key"), "croupier-boards/1", "Cup", "ab").algorithm
    'croupier-boards/1'
    """

    key_file: Path
    algorithm: str
    event: str
    commitment: str
    plan: BoardPlan | None = None


def new_key_file(
    key_file: Path,
    event: str,
    plan: BoardPlan | None = None,
    *,
    source: RandomSource | None = None,
) -> NewKey:
    """Write a fresh secret key to ``key_file`` (owner-only) and return its commitment.

    With a ``plan`` the commitment is ``croupier-boards/2`` and covers the
    plan too (publish the plan with it); without one it is
    ``croupier-boards/1``.  An existing file is never replaced (it may hold
    the key of another event).

    >>> import tempfile
    >>> key_file = Path(tempfile.mkdtemp()) / "cup.key"
    >>> new_key_file(key_file, "Cup").algorithm, len(key_file.read_text())
    ('croupier-boards/1', 65)
    >>> new_key_file(key_file, "Cup")
    Traceback (most recent call last):
    ...
    croupier.files.ExistingFileError: key file '...' already exists; ...
    """
    key_file = Path(key_file)
    if key_file.exists():
        raise ExistingFileError(
            f"key file {str(key_file)!r} already exists; croupier never replaces a key "
            "(choose another key_file=)"
        )
    if plan is not None and not isinstance(plan, BoardPlan):
        raise CroupierError(f"plan= must be a BoardPlan, got {type(plan).__name__}")
    key = new_key(source)
    if plan is None:  # the commitment first: an event it refuses leaves no key file behind
        made = NewKey(key_file, ALGORITHM, event, commitment(key, event))
    else:
        made = NewKey(key_file, ALGORITHM_PLAN, event, plan_commitment(key, event, plan), plan)
    write_file(key_file, (key.hex() + "\n").encode("ascii"), private=True)
    return made


def read_key_file(key_file: Path) -> bytes:
    """The key in ``key_file`` (64 hex digits, surrounding whitespace ignored).

    A file of more than :data:`MAX_KEY_FILE_BYTES` is refused after reading one
    byte past the limit (never whole), and never quoted: it may hold a secret.

    >>> import tempfile
    >>> key_file = Path(tempfile.mkdtemp()) / "cup.key"
    >>> _ = key_file.write_text("00" * 32 + "\\n")
    >>> read_key_file(key_file) == bytes(32)
    True
    >>> _ = key_file.write_bytes(b"0" * 5000)  # far too long (read 4,097 bytes only)
    >>> read_key_file(key_file)
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: key file 'cup.key' has more than 4,096 bytes (4 KiB), ...
    """
    key_file = Path(key_file)
    data = read_within(
        key_file,
        MAX_KEY_FILE_BYTES,
        what="a key file",
        label=f"key file {key_file.name!r}",
        hint=f"; a {ALGORITHM} key file holds 64 hex digits",
    )
    return parse_key(data.decode("utf-8", "surrogateescape"))


def verify_boards(
    key_file: Path | None,
    event: str,
    commitment_hex: str,
    delayed_value: str,
    session: int,
    files: Sequence[Path],
    boards: range | None = None,
    *,
    plan: BoardPlan | None = None,
    key: str | None = None,
) -> VerifyReport:
    """Check the key against the published commitment, then regenerate and compare ``files``.

    The verifier always says which boards each file must hold, in one of two
    ways:

    * ``plan=`` — the ``croupier-boards/2`` commitment covers key, event and
      plan; each file must hold exactly the plan's boards of ``session``, in
      order;
    * ``boards=`` — a ``croupier-boards/1`` commitment (key and event only);
      each file must hold exactly ``boards``, and the report's ``notes`` say
      that the commitment does not cover them.

    The revealed key is read from ``key_file``, or given as its 64 hex digits
    with ``key=`` (then ``key_file`` is ``None``).  When the commitment does
    not match, the message says that event name and plan must be exactly the
    published text.  A file that lacks a board, has one more, twice, out of
    order or under another number fails, naming file and board; ``.txt``
    files (no board numbers) are numbered from the first board.  See the
    module docstring for an example.

    >>> verify_boards(Path("cup.key"), "Cup", "00" * 32, "7", 1, [])
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: give exactly one of plan= (the board plan ...
    """
    if (plan is None) == (boards is None):
        raise CroupierError(
            "give exactly one of plan= (the board plan a croupier-boards/2 commitment covers) "
            "or boards= (the boards each file must hold, for a croupier-boards/1 commitment)"
        )
    if (key_file is None) == (key is None):
        raise CroupierError(
            "give the revealed key exactly once: key_file= (the key file) or key= (its 64 hex "
            "digits)"
        )
    published = parse_commitment(commitment_hex)
    dv = delayed_value_bytes(delayed_value)  # bad input before any verdict
    numbers = plan.boards_for(session) if plan is not None else boards
    assert numbers is not None
    if key_file is not None:
        key_name, key_bytes = Path(key_file).name, read_key_file(Path(key_file))
        whose = f"the key in {key_name}"
    else:
        key_name, key_bytes, whose = KEY_GIVEN, parse_key(key or ""), "the key given"
    notes: tuple[str, ...] = ()
    if plan is not None:
        computed = plan_commitment(key_bytes, event, plan)
        matches = verify_plan_commitment(key_bytes, event, plan, published)
        what = f"the {ALGORITHM_PLAN} commitment (event and board plan {plan.format()})"
    else:
        computed = commitment(key_bytes, event)
        matches = verify_commitment(key_bytes, event, published)
        what = f"the {ALGORITHM} commitment"
        notes = (
            f"{ALGORITHM} commits to the key and event only: boards "
            f"{numbers.start}-{numbers.stop - 1} are the ones the verifier gave, not committed; "
            f"a {ALGORITHM_PLAN} commitment, checked with its board plan, covers the boards",
        )
    if not matches:
        message = f"{whose} does not match {what}: " + _MUST_MATCH[plan is not None]
        return VerifyReport(KeyCheck(False, key_name, published, computed, message), ())
    keys = KeyCheck(True, key_name, published, computed, f"{what} matches")
    expected = make_boards(key_bytes, event, dv, session, numbers)
    checks: list[FileCheck] = []
    for path in map(Path, files):
        found = load_boards(path, first_board=numbers[0])
        if found:
            mismatches = tuple(compare_boards(expected, found, path.name))
        else:
            mismatches = (Mismatch(path.name, None, MismatchKind.NO_BOARDS),)
        checks.append(FileCheck(path.name, len(expected), mismatches))
    return VerifyReport(keys, tuple(checks), notes)
