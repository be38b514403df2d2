"""The ``croupier-boards/1`` workflow on files: make a key, deal, verify.

The scheme itself (hashes, commitment, one board) is
:mod:`croupier.tournament.verifiable`; this module adds the key file (64 hex
digits, readable by its owner only, never replaced) and verification of board
files, returned as a :class:`~croupier.tournament.verification.VerifyReport`.

>>> import tempfile
>>> from croupier.formats.board_files import render_boards
>>> from croupier.randomness.seeded import SeededSource
>>> folder = Path(tempfile.mkdtemp())
>>> made = new_key_file(folder / "cup.key", "Cup", source=SeededSource("doc", "key"))
>>> key = read_key_file(folder / "cup.key")
>>> data = render_boards(make_boards(key, "Cup", b"7", 1, [1, 2]), "pbn")
>>> _ = (folder / "s1.pbn").write_bytes(data)
>>> report = verify_boards(folder / "cup.key", "Cup", made.commitment, "7", 1, [folder / "s1.pbn"])
>>> report.ok, report.files[0].boards
(True, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from croupier.files import ExistingFileError, read_file, write_file
from croupier.randomness import RandomSource
from croupier.tournament.verifiable import (
    ALGORITHM,
    commitment,
    make_boards,
    new_key,
    parse_key,
    verify_commitment,
)
from croupier.tournament.verification import (
    FileCheck,
    KeyCheck,
    Mismatch,
    MismatchKind,
    VerifyReport,
    compare_boards,
    read_board_file,
)

__all__ = ["NewKey", "new_key_file", "read_key_file", "verify_boards"]


@dataclass(frozen=True)
class NewKey:
    """What :func:`new_key_file` did: the key file written and the commitment to publish.

    >>> NewKey(Path("cup.key"), "croupier-boards/1", "Cup", "ab").algorithm
    'croupier-boards/1'
    """

    key_file: Path
    algorithm: str
    event: str
    commitment: str


def new_key_file(key_file: Path, event: str, *, source: RandomSource | None = None) -> NewKey:
    """Write a fresh secret key to ``key_file`` (owner-only) and return its commitment.

    An existing file is never replaced (it may hold the key of another event).

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
    key = new_key(source)
    write_file(key_file, (key.hex() + "\n").encode("ascii"), private=True)
    return NewKey(key_file, ALGORITHM, event, commitment(key, event))


def read_key_file(key_file: Path) -> bytes:
    """The key in ``key_file`` (64 hex digits, surrounding whitespace ignored).

    >>> import tempfile
    >>> key_file = Path(tempfile.mkdtemp()) / "cup.key"
    >>> _ = key_file.write_text("00" * 32 + "\\n")
    >>> read_key_file(key_file) == bytes(32)
    True
    """
    return parse_key(read_file(Path(key_file)).decode("utf-8", "surrogateescape"))


def verify_boards(
    key_file: Path,
    event: str,
    published: str,
    delayed_value: str,
    session: int,
    files: Sequence[Path],
    boards: range | None = None,
) -> VerifyReport:
    """Check the key against the ``published`` commitment, then regenerate and compare ``files``.

    Without ``boards`` every board found in a file is checked; with it, each
    file must hold exactly those boards (and ``.txt`` files are numbered from
    its first board).  A file without boards never passes.  See the module
    docstring for an example.

    >>> verify_boards(Path("missing.key"), "Cup", "00" * 32, "7", 1, [])
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: file 'missing.key' not found
    """
    key_file = Path(key_file)
    key = read_key_file(key_file)
    computed = commitment(key, event)
    if not verify_commitment(key, event, published):
        message = f"the key in {key_file.name} does not match the commitment"
        return VerifyReport(KeyCheck(False, key_file.name, published, computed, message), ())
    keys = KeyCheck(True, key_file.name, published, computed, "commitment matches")
    dv = delayed_value.encode("utf-8")
    checks: list[FileCheck] = []
    for path in map(Path, files):
        found = read_board_file(path, boards[0] if boards is not None else 1)
        numbers = boards if boards is not None else sorted({b.number for b in found})
        expected = make_boards(key, event, dv, session, numbers)
        if found:
            mismatches = tuple(compare_boards(expected, found, path.name))
        else:
            mismatches = (Mismatch(path.name, None, MismatchKind.NO_BOARDS),)
        checks.append(FileCheck(path.name, len(expected), mismatches))
    return VerifyReport(keys, tuple(checks))
