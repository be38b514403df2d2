"""How a run writes its deals: board numbering and tags, labels, metadata.

:func:`board_options` checks ``first_board``, ``event`` and line ends against the
format and the count before anything is dealt; :func:`write_options` gathers
everything a writer needs from the request and its dealer.

>>> board_options("lin", 16, 17, None, False)
BoardOptions(first=17, event='?', newline='\\r\\n')
>>> board_options("pbn", 20, 990, None, False)
Traceback (most recent call last):
...
croupier.errors.CroupierError: --count 20 from --first-board 990 would reach board 1,009; ...
"""

from __future__ import annotations

from croupier.errors import CroupierError
from croupier.frozen import frozen_dataclass
from croupier.runs.dealers import RunDealer
from croupier.runs.notes import label_algorithm, seeded_label
from croupier.runs.request import DealRequest, short_int
from croupier.runs.writers import NUMBERED_FORMATS, WriteOptions

__all__ = ["BoardOptions", "board_options", "write_options"]


@frozen_dataclass
class BoardOptions:
    """How the board formats number and tag boards: first board, Event tag, line ends."""

    first: int = 1
    event: str = "?"
    newline: str = "\r\n"


def board_options(
    fmt: str, count: int, first_board: int | None, event: str | None, lf: bool
) -> BoardOptions:
    """``first_board``, ``event`` and ``lf`` checked against the format and ``count``.

    Every board of the run must have a number up to :data:`MAX_BOARD`; a run
    that would pass it is refused before anything is dealt.
    """
    from croupier.boards import MAX_BOARD

    pbn = fmt == "pbn"
    if first_board is not None and fmt not in NUMBERED_FORMATS:
        raise CroupierError(
            f"--first-board numbers the boards of --format pbn or lin; --format {fmt} has no "
            "board numbers"
        )
    if event is not None and not pbn:
        raise CroupierError(
            f"--event is the Event tag of PBN games: use it with --format pbn, not {fmt}"
        )
    if lf and not pbn:
        raise CroupierError(
            f"--lf gives --format pbn LF line ends (PBN export has CRLF); --format {fmt} "
            "has no CRLF to change"
        )
    first = 1 if first_board is None else first_board
    if not 1 <= first <= MAX_BOARD:
        raise CroupierError(
            f"--first-board must be a board number 1..{MAX_BOARD}, got {short_int(first)}"
        )
    last = first + count - 1
    if fmt in NUMBERED_FORMATS and last > MAX_BOARD:
        raise CroupierError(
            f"--count {short_int(count)} from --first-board {first} would reach board "
            f"{last:,}; board numbers go up to {MAX_BOARD}: deal at most "
            f"{MAX_BOARD - first + 1} boards, or use --format pbn-deal for more deals"
        )
    if event is not None:
        from croupier.formats.pbn import pbn_escape

        pbn_escape(event)  # one line, refused before dealing
    return BoardOptions(first, "?" if event is None else event, "\n" if lf else "\r\n")


def write_options(
    request: DealRequest,
    dealer: RunDealer,
    boards: BoardOptions | None = None,
    *,
    scheme: str = "croupier",
    bits: bool = False,
    dd: bool = False,
    command: str = "deal",
    show_stock: bool = False,
) -> WriteOptions:
    """What the writers of ``request``'s run need: its label, numbering and metadata
    (``show_stock``: the text format shows the stock, top first)."""
    chosen = BoardOptions() if boards is None else boards
    label = seeded_label(label_algorithm(request, dealer)) if request.reproducible else None
    return WriteOptions(
        label=label,
        scheme=scheme,
        bits=bits,
        first_board=chosen.first,
        event=chosen.event,
        newline=chosen.newline,
        dd=dd,
        algorithm=dealer.algorithm,
        source=dealer.source_kind,
        # the same seed, or the same rolls of --entropy, give the same deals
        reproducible=request.reproducible or request.entropy is not None,
        describe=dealer.describe(),
        command=command,
        show_stock=show_stock,
    )
