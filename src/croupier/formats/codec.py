"""How one board-file format is read and written: the codec each format module gives.

A row of :mod:`croupier.formats.registry` names the codec of its format (the
module's ``BOARD_FILE``); :mod:`croupier.formats.board_files` reads and writes
every format through it, so adding a format is one codec and one row.

>>> from croupier.formats.registry import board_codec
>>> codec = board_codec("lines")
>>> codec.binary, codec.latin1, codec.reads
(False, False, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from croupier.frozen import frozen_dataclass

if TYPE_CHECKING:
    from croupier.boards import Board
    from croupier.formats.records import BoardFileContents, BoardRecord, SkippedGame

__all__ = ["BoardFileCodec", "RenderOptions"]


@frozen_dataclass
class RenderOptions:
    """What a writer may be asked besides the boards: each format takes what applies to it.

    ``generator`` (PBN's ``Generator`` tag, DLM's headline), ``pbn_style``
    (``"export"`` or ``"bigdeal"``), ``event`` (PBN's ``Event``), ``newline``
    (PBN's and CSV's line end; ``None``: the format's own), ``title`` (an HTML
    hand record's), ``skipped`` (the games a reader skipped: JSON writes them).
    """

    generator: str = "croupier"
    pbn_style: str = "export"
    event: str = "?"
    newline: str | None = None
    title: str = "Hand record"
    skipped: Sequence[SkippedGame] = ()


ReadBoards = Callable[..., "list[Board]"]
"""``read_boards(data, source=..., first_board=...)``: text, or bytes for a binary format."""

ReadRecords = Callable[..., "BoardFileContents"]
"""``read_records(data, source=..., partial=...)``."""

RenderBoards = Callable[["Sequence[Board]", RenderOptions], bytes]
RenderRecords = Callable[["Sequence[BoardRecord]", RenderOptions], bytes]


@frozen_dataclass
class BoardFileCodec:
    """The readers and writers of one board-file format.

    ``read_boards``/``read_records`` are ``None`` for a format that cannot be read
    (an HTML hand record); ``render_records`` is ``None`` when records are
    written as complete boards.  ``binary`` formats read bytes; the others read
    UTF-8 text (a byte-order mark dropped), or, with ``latin1``, ISO 8859-1 text
    when the file is not UTF-8 (PBN 2.1's character set, and LIN from old BBO
    exports).
    """

    read_boards: ReadBoards | None
    read_records: ReadRecords | None
    render_boards: RenderBoards
    render_records: RenderRecords | None = None
    binary: bool = False
    latin1: bool = False

    @property
    def reads(self) -> bool:
        """Whether files of this format can be read."""
        return self.read_records is not None
