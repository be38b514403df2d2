"""The board plan of an event: which boards each session plays.

A plan is written ``SESSION:BOARDS`` items separated by ``;``, where
``BOARDS`` is ``N`` (boards 1..N) or ``A-B``: ``"1:1-16;2:17-32"``.  The
``croupier-boards/2`` commitment covers the plan (see
``docs/verifiable-dealing.md``), so a verifier who knows the plan knows
exactly which boards every session file must hold, and a plan edited after
the commitment no longer matches it.

>>> plan = BoardPlan.parse("2:17-32; 1:16")
>>> plan.format(), plan.boards_for(2)
('1:1-16;2:17-32', range(17, 33))
>>> plan.encode().hex()
'00000002000000010000000100000010000000020000001100000020'
"""

from __future__ import annotations

from dataclasses import dataclass

from croupier.boards import MAX_BOARD, BoardRangeError, parse_board_range
from croupier.errors import CroupierError, bounded_decimal, excerpt

__all__ = ["MAX_PLAN_SESSIONS", "MAX_SESSION", "BoardPlan", "BoardPlanError"]

#: The most sessions a plan may list.
MAX_PLAN_SESSIONS = 1000
#: The largest session number (sessions are hashed as 4 bytes).
MAX_SESSION = 2**32 - 1
_MAX_ITEM = 40  # characters of one "SESSION:A-B" item, spaces included


class BoardPlanError(CroupierError):
    """A board plan that cannot be read, or a session it does not list."""


def _u32(n: int) -> bytes:
    return n.to_bytes(4, "big")


@dataclass(frozen=True)
class BoardPlan:
    """Sessions (ascending, each once) and the consecutive boards each plays.

    >>> BoardPlan(((1, range(1, 17)),)).sessions
    (1,)
    >>> BoardPlan(((2, range(1, 9)), (1, range(1, 9))))
    Traceback (most recent call last):
    ...
    croupier.tournament.board_plan.BoardPlanError: the sessions of a plan must ascend, each once ...
    """

    items: tuple[tuple[int, range], ...]

    def __post_init__(self) -> None:
        if not self.items:
            raise BoardPlanError("a board plan needs at least one session, like '1:1-16'")
        if len(self.items) > MAX_PLAN_SESSIONS:
            raise BoardPlanError(
                f"a board plan lists at most {MAX_PLAN_SESSIONS} sessions, got {len(self.items)}"
            )
        previous = 0
        for session, boards in self.items:
            if not 1 <= session <= MAX_SESSION:
                raise BoardPlanError(f"session {session} out of range; expected 1..{MAX_SESSION}")
            if session <= previous:
                raise BoardPlanError(
                    f"the sessions of a plan must ascend, each once (session {session} "
                    f"follows {previous})"
                )
            if boards.step != 1 or not 1 <= boards.start < boards.stop <= MAX_BOARD + 1:
                raise BoardPlanError(
                    f"session {session}: boards {boards!r} must be consecutive, within "
                    f"1..{MAX_BOARD}"
                )
            previous = session

    @classmethod
    def parse(cls, text: str) -> BoardPlan:
        """Read ``SESSION:BOARDS`` items separated by ``;`` (any order; sorted by session).

        >>> BoardPlan.parse("3:5-8").items
        ((3, range(5, 9)),)
        >>> BoardPlan.parse("1:1-16;1:17-32")
        Traceback (most recent call last):
        ...
        croupier.tournament.board_plan.BoardPlanError: bad board plan '1:1-16;1:17-32': ...
        """
        if not isinstance(text, str):
            raise BoardPlanError(f"a board plan is text like '1:1-16;2:17-32', got {text!r}")
        parts = text.split(";")
        if len(parts) > MAX_PLAN_SESSIONS:
            raise BoardPlanError(
                f"bad board plan {excerpt(text)}: at most {MAX_PLAN_SESSIONS} sessions"
            )
        items: dict[int, range] = {}
        for part in parts:
            session, boards = _parse_item(part, text)
            if session in items:
                raise BoardPlanError(
                    f"bad board plan {excerpt(text)}: session {session} is listed twice"
                )
            items[session] = boards
        return cls(tuple(sorted(items.items())))

    def format(self) -> str:
        """The plan as text, sessions ascending (``SESSION:A-B;…``).

        >>> BoardPlan.parse("1:7").format()
        '1:1-7'
        """
        return ";".join(f"{s}:{b.start}-{b.stop - 1}" for s, b in self.items)

    @property
    def sessions(self) -> tuple[int, ...]:
        """The session numbers, ascending."""
        return tuple(s for s, _ in self.items)

    def boards_for(self, session: int) -> range:
        """The boards of ``session``; :class:`BoardPlanError` for a session not in the plan.

        >>> BoardPlan.parse("1:16").boards_for(2)
        Traceback (most recent call last):
        ...
        croupier.tournament.board_plan.BoardPlanError: session=2 is not in the board plan ...
        """
        for s, boards in self.items:
            if s == session:
                return boards
        raise BoardPlanError(
            f"session={session} is not in the board plan {excerpt(self.format())}; "
            f"its sessions are {', '.join(map(str, self.sessions[:10]))}"
            + (" …" if len(self.items) > 10 else "")
        )

    def encode(self) -> bytes:
        """The bytes a commitment hashes: ``u32(n)``, then ``u32(s) u32(first) u32(last)`` each.

        >>> BoardPlan.parse("1:1").encode().hex()
        '00000001000000010000000100000001'
        """
        data = _u32(len(self.items))
        for session, boards in self.items:
            data += _u32(session) + _u32(boards.start) + _u32(boards.stop - 1)
        return data


def _parse_item(part: str, text: str) -> tuple[int, range]:
    item = part.strip()
    if len(item) > _MAX_ITEM or item.count(":") != 1:
        raise BoardPlanError(
            f"bad board plan {excerpt(text)}: item {excerpt(item)} is not SESSION:BOARDS, "
            "like '1:1-16;2:17-32'"
        )
    session_text, boards_text = item.split(":")
    session = bounded_decimal(session_text.strip(), 10)
    if session is None or not 1 <= session <= MAX_SESSION:
        raise BoardPlanError(
            f"bad board plan {excerpt(text)}: session {excerpt(session_text.strip())} must be "
            f"a number 1..{MAX_SESSION}"
        )
    try:
        boards = parse_board_range(boards_text)
    except BoardRangeError as exc:
        raise BoardPlanError(f"bad board plan {excerpt(text)}: session {session}: {exc}") from None
    return session, boards
