"""What a hand record says about boards dealt under a commitment, and how to check them.

A hand record of boards from ``croupier boards make`` (``croupier-boards/1``
and ``/2``) or ``croupier squaredeal make`` can carry, in its header, the value
published before the event (the commitment, or SquareDeal's key hash ``KH``),
the delayed value that was mixed in, and two lines on how anyone can check the
boards once the key is revealed: the ``croupier … verify`` command, and the
offline verification page (``croupier page verify``).  These functions build
that :class:`~croupier.formats.hand_record.Provenance` from the published
values, checking them as the verifiers do.

>>> p = boards_provenance("Club Cup", "AB" * 32, "15234.56", 1, plan=BoardPlan.parse("1:1-16"),
...                       files=["cup1.pbn"])
>>> p.scheme, p.commitment[:8]
('croupier-boards/2', 'abababab')
>>> print(p.verify[0])
To verify once the key is revealed: croupier boards verify --event "Club Cup" --plan 1:1-16 \
--commitment abababababababababababababababababababababababababababababababab --dv 15234.56 \
--session 1 --key KEY cup1.pbn
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import PurePath

from croupier.errors import CroupierError
from croupier.formats.hand_record import Provenance
from croupier.tournament.board_plan import BoardPlan
from croupier.tournament.squaredeal import SquareDealEvent
from croupier.tournament.verifiable import (
    ALGORITHM,
    ALGORITHM_PLAN,
    delayed_value_bytes,
    parse_commitment,
)

__all__ = ["boards_provenance", "shell_word", "squaredeal_provenance"]

_PLAIN = re.compile(r"[A-Za-z0-9_.,:/=+@%-]+")
_PAGE = "Or open the verification page (croupier page verify) in a browser, offline, and give it "


def shell_word(text: str) -> str:
    """``text`` as one word of a command line: as it is when plain, else in double quotes.

    >>> shell_word("1:1-16"), shell_word("Club Cup"), shell_word('say "$x"'), shell_word("")
    ('1:1-16', '"Club Cup"', '"say \\\\"\\\\$x\\\\""', '""')
    """
    if _PLAIN.fullmatch(text):
        return text
    escaped = re.sub(r'(["\\$`])', r"\\\1", text)
    return f'"{escaped}"'


def _shown(value: str) -> str:
    """Stored text as it can be printed (bytes that are not UTF-8 become U+FFFD)."""
    return value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _files(files: Sequence[str]) -> str:
    names = [shell_word(PurePath(f).name) for f in files] or ["FILE"]
    return " ".join(names)


def boards_provenance(
    event: str,
    commitment_hex: str,
    delayed_value: str,
    session: int,
    *,
    plan: BoardPlan | None = None,
    boards: range | None = None,
    files: Sequence[str] = (),
) -> Provenance:
    """The provenance of a session of ``croupier boards make`` (``croupier-boards/1`` or ``/2``).

    With ``plan`` (the board plan published with a ``croupier-boards/2``
    commitment) the verify command checks it; without, ``boards`` (the
    session's boards) stand in its place, as ``croupier boards verify
    --boards`` takes them.  ``files`` are the session files (their names go
    into the command).

    >>> p = boards_provenance("Cup", "00" * 32, "7", 1, boards=range(1, 17))
    >>> p.scheme, p.verify[0].split(" --commitment")[0].split(": ")[1]
    ('croupier-boards/1', 'croupier boards verify --event Cup --boards 1-16')
    """
    commitment = parse_commitment(commitment_hex)
    delayed_value_bytes(delayed_value)
    if isinstance(session, bool) or not isinstance(session, int) or session < 1:
        raise CroupierError(f"session= must be a session number (1 or more), got {session!r}")
    if plan is not None:
        scheme, which = ALGORITHM_PLAN, f"--plan {shell_word(plan.format())}"
        given = "the event, the board plan, the commitment, the delayed value, the revealed key"
    else:
        scheme, which = ALGORITHM, ""
        if boards is not None and len(boards):
            which = f"--boards {boards.start}-{boards.stop - 1}"
        given = "the event, the commitment, the delayed value, the revealed key"
    command = " ".join(
        part
        for part in (
            "croupier boards verify",
            f"--event {shell_word(event)}",
            which,
            f"--commitment {commitment}",
            f"--dv {shell_word(delayed_value)}",
            f"--session {session}",
            "--key KEY",
            _files(files),
        )
        if part
    )
    return Provenance(
        scheme,
        commitment,
        _shown(delayed_value),
        (
            f"To verify once the key is revealed: {command}",
            f"{_PAGE}{given} and this session's file.",
        ),
    )


def squaredeal_provenance(
    event: SquareDealEvent, event_file: str, files: Sequence[str] = ()
) -> Provenance:
    """The provenance of sessions made by ``croupier squaredeal make`` from ``event``.

    The event must have its key hash ``KH`` and its delayed value ``DV``
    (both are published before the boards are dealt); ``event_file`` is the
    ``.sqd`` file's name, and the revealed key file is named after it.

    >>> ev = SquareDealEvent("Cup", delayed_value="1", key_hash="ab" * 32)
    >>> print(squaredeal_provenance(ev, "sets/CUP.sqd", ["CUP1.pbn"]).verify[0])
    To verify once the key file is revealed: croupier squaredeal verify CUP.sqd CUP.sqk CUP1.pbn
    """
    if event.key_hash is None:
        raise CroupierError(
            f"{event_file} has no key hash (KH): publish the keys first (croupier squaredeal "
            "publish)"
        )
    if event.delayed_value is None:
        raise CroupierError(
            f"{event_file} has no delayed value (DV): set it first (croupier squaredeal set-dv)"
        )
    name = PurePath(event_file).name
    keys = PurePath(name).with_suffix(".sqk").name
    command = f"croupier squaredeal verify {shell_word(name)} {shell_word(keys)} {_files(files)}"
    return Provenance(
        "SquareDeal",
        event.key_hash,
        _shown(event.delayed_value),
        (
            f"To verify once the key file is revealed: {command}",
            f"{_PAGE}{name}, the revealed {keys} and this session's file.",
        ),
        commitment_label="Key hash KH",
    )
