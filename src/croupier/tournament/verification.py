"""Verification results: what a regenerated board set is compared against, and how it differs.

Shared by every scheme: SquareDeal (:mod:`croupier.tournament.squaredeal_workflow`)
and croupier's own scheme (:mod:`croupier.tournament.verifiable`, whose boards are
*verifiable*; this module holds the outcome of a *verification*).

A verification first checks the keys against what was published before the
event (:class:`KeyCheck`), then regenerates the boards of each file and
compares them board by board (:func:`compare_boards`).  Every difference is a
:class:`Mismatch` that names the file, the board and what differs; a
:class:`VerifyReport` holds them all.

>>> from croupier.ranking.bigdeal import goedel_unrank
>>> want = [Board.standard(1, goedel_unrank(0)), Board.standard(2, goedel_unrank(1))]
>>> [m.describe() for m in compare_boards(want, want[:1], "S1.pbn")]
['S1.pbn board 2: missing from the file']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from croupier.boards import Board
from croupier.formats.pbn_deal import format_pbn_deal
from croupier.seats import SEATS
from croupier.tournament.squaredeal import SessionRef

__all__ = [
    "FileCheck",
    "KeyCheck",
    "Mismatch",
    "MismatchKind",
    "VerifyReport",
    "compare_boards",
]


class MismatchKind(Enum):
    """What differs between a regenerated board and the board found in a file.

    >>> MismatchKind("missing"), MismatchKind.NO_BOARDS.value
    (<MismatchKind.MISSING: 'missing'>, 'no-boards')
    """

    DEAL = "deal"
    DEALER = "dealer"
    VULNERABILITY = "vulnerability"
    MISSING = "missing"
    DUPLICATE = "duplicate"
    EXTRA = "extra"
    ORDER = "order"
    NO_BOARDS = "no-boards"


@dataclass(frozen=True)
class Mismatch:
    """One difference: the file, the board (``None`` for the whole file) and what differs.

    ``expected`` and ``found`` hold the two values for a deal, dealer or
    vulnerability that differ (deals as PBN ``Deal`` strings).

    >>> Mismatch("S1.pbn", 3, MismatchKind.DEALER, "S", "N").describe()
    'S1.pbn board 3: dealer N, expected S'
    """

    file: str
    board: int | None
    what: MismatchKind
    expected: str | None = None
    found: str | None = None

    def describe(self) -> str:
        """One line naming file, board and what differs.

        >>> Mismatch("S1.pbn", None, MismatchKind.NO_BOARDS).describe()
        'S1.pbn: no boards in the file'
        """
        where = self.file if self.board is None else f"{self.file} board {self.board}"
        if self.what is MismatchKind.DEAL:
            seats = _differing_seats(self.expected or "", self.found or "")
            return (
                f"{where}: deal differs in the hands of {seats} "
                f"(expected {self.expected}, found {self.found})"
            )
        if self.what is MismatchKind.DEALER:
            return f"{where}: dealer {self.found}, expected {self.expected}"
        if self.what is MismatchKind.VULNERABILITY:
            return f"{where}: vulnerability {self.found}, expected {self.expected}"
        if self.what is MismatchKind.ORDER:
            return f"{where}: out of order (it comes after board {self.found} in the file)"
        return f"{where}: {_PLAIN[self.what]}"


def _differing_seats(expected: str, found: str) -> str:
    """The seats whose hands differ between two PBN deal strings from North, as words.

    >>> _differing_seats("N:A... K... Q... J...", "N:K... A... Q... J...")
    'North and East'
    """
    want, got = expected[2:].split(" "), found[2:].split(" ")
    seats = [s.long_name for i, s in enumerate(SEATS) if want[i : i + 1] != got[i : i + 1]]
    if len(seats) <= 1:
        return "".join(seats)
    return f"{', '.join(seats[:-1])} and {seats[-1]}"


_PLAIN = {
    MismatchKind.MISSING: "missing from the file",
    MismatchKind.DUPLICATE: "appears twice in the file",
    MismatchKind.EXTRA: "not part of this session",
    MismatchKind.NO_BOARDS: "no boards in the file",
}


@dataclass(frozen=True)
class KeyCheck:
    """The keys checked against what was published before the event.

    ``published`` is the key hash (SquareDeal's ``KH``) or the commitment, or
    ``None`` when nothing was published; ``computed`` is the value of the key
    file given.  ``message`` says the outcome in one line.

    >>> KeyCheck(True, "EV.sqk", "ab", "ab", "key hash ab matches EV.sqk").ok
    True
    """

    ok: bool
    key_file: str
    published: str | None
    computed: str | None
    message: str


@dataclass(frozen=True)
class FileCheck:
    """One file compared with the regenerated boards.

    ``boards`` is the number of boards regenerated for it; ``session`` the
    SquareDeal session the file belongs to (``None`` for other schemes).

    >>> FileCheck("S1.pbn", 16, ()).ok
    True
    """

    file: str
    boards: int
    mismatches: tuple[Mismatch, ...]
    session: SessionRef | None = None

    @property
    def ok(self) -> bool:
        """True when the file holds exactly the regenerated boards."""
        return not self.mismatches


@dataclass(frozen=True)
class VerifyReport:
    """The outcome of a verification: the key check, then one :class:`FileCheck` per file.

    When the key check fails no file is compared (``files`` is empty).
    ``notes`` are lines the verifier must read even when everything matches:
    what the published commitment does *not* cover (printed as ``NOTE``).

    >>> report = VerifyReport(KeyCheck(True, "k", "a", "a", "ok"), (FileCheck("S1.pbn", 16, ()),))
    >>> report.ok, report.failures, report.mismatches, report.notes
    (True, 0, (), ())
    """

    keys: KeyCheck
    files: tuple[FileCheck, ...]
    notes: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """True when the keys are the published ones and every file matches."""
        return self.keys.ok and all(f.ok for f in self.files)

    @property
    def failures(self) -> int:
        """The number of files that do not match."""
        return sum(not f.ok for f in self.files)

    @property
    def mismatches(self) -> tuple[Mismatch, ...]:
        """Every mismatch of every file, in file order."""
        return tuple(m for f in self.files for m in f.mismatches)


def compare_boards(expected: Sequence[Board], found: Sequence[Board], file: str) -> list[Mismatch]:
    """The differences between regenerated and found boards (matched by board number).

    ``expected`` is the exact set of boards, in order: a board it lacks is
    reported missing, a board it does not list extra, a board found twice a
    duplicate, and a board found before one that should precede it out of
    order.  Where a board appears twice, its first copy is compared.

    >>> from croupier.ranking.bigdeal import goedel_unrank
    >>> b = Board.standard(1, goedel_unrank(0))
    >>> [m.what for m in compare_boards([b], [b, b], "x.pbn")]
    [<MismatchKind.DUPLICATE: 'duplicate'>]
    """
    problems: list[Mismatch] = []
    found_by_number: dict[int, Board] = {}
    position = {b.number: i for i, b in enumerate(expected)}
    last: Board | None = None
    for b in found:
        if b.number in found_by_number:
            problems.append(Mismatch(file, b.number, MismatchKind.DUPLICATE))
            continue
        found_by_number[b.number] = b
        if b.number in position:
            if last is not None and position[b.number] < position[last.number]:
                problems.append(
                    Mismatch(file, b.number, MismatchKind.ORDER, None, str(last.number))
                )
            else:
                last = b
    wanted = set(position)
    for want in expected:
        got = found_by_number.get(want.number)
        if got is None:
            problems.append(Mismatch(file, want.number, MismatchKind.MISSING))
            continue
        if got.hands != want.hands:
            problems.append(
                Mismatch(
                    file,
                    want.number,
                    MismatchKind.DEAL,
                    format_pbn_deal(want.hands),
                    format_pbn_deal(got.hands),
                )
            )
        if got.dealer != want.dealer:
            problems.append(
                Mismatch(
                    file, want.number, MismatchKind.DEALER, want.dealer.letter, got.dealer.letter
                )
            )
        if got.vulnerable != want.vulnerable:
            problems.append(
                Mismatch(
                    file,
                    want.number,
                    MismatchKind.VULNERABILITY,
                    want.vulnerable.pbn,
                    got.vulnerable.pbn,
                )
            )
    for number in sorted(set(found_by_number) - wanted):
        problems.append(Mismatch(file, number, MismatchKind.EXTRA))
    return problems
