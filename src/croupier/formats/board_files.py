"""Read and write board files in every format croupier knows, chosen by name or extension.

The formats and their extensions are the board-file rows of
:mod:`croupier.formats.registry` (``pbn``, ``lin``, ``dup``, ``dlm``, ``csv``,
``json``, ``lines``, and ``html`` to print); each is read and written through
its module's codec (:class:`~croupier.formats.codec.BoardFileCodec`).

Two levels: :func:`render_boards`/:func:`read_boards` work on complete
:class:`~croupier.boards.Board` values (what tournament dealing makes and
verification checks; :func:`load_boards` reads them from a path);
:func:`render_records`/:func:`read_board_file` work on
:class:`~croupier.formats.records.BoardRecord` values, which keep exactly what
a file says, partial deals and unknown values included (``croupier convert``).

>>> from croupier.ranking.bigdeal import goedel_unrank
>>> from croupier.boards import Board, BoardRangeError
>>> data = render_boards([Board.standard(1, goedel_unrank(5))], "lines")
>>> read_boards(data, "lines")[0].goedel is None, format_for_path("S1.PBN")
(True, <BoardFormat.PBN: 'pbn'>)
"""

from __future__ import annotations

import contextlib
import gc
import re
from collections.abc import Iterator, Sequence
from enum import StrEnum
from pathlib import Path, PurePath

from croupier.boards import Board, BoardRangeError
from croupier.bounded_read import read_within
from croupier.errors import FileFormatError
from croupier.formats.codec import BoardFileCodec, RenderOptions
from croupier.formats.records import (
    MAX_FILE_GAMES,
    BoardFileContents,
    BoardRecord,
    SkippedGame,
    check_games,
)
from croupier.formats.registry import FORMATS, board_codec, board_file_formats

__all__ = [
    "BOARD_FORMATS",
    "EXTENSIONS",
    "MAX_BOARD_FILE_BYTES",
    "BoardFormat",
    "format_for_path",
    "games_at_least",
    "load_boards",
    "read_board_file",
    "read_boards",
    "render_boards",
    "render_records",
]


class BoardFormat(StrEnum):
    """The board-file formats of :mod:`croupier.formats.registry` (in its order); each
    value is the format's name (tests/test_format_registry.py holds the two equal).

    >>> BoardFormat("dup"), [f.value for f in BoardFormat][:3]
    (<BoardFormat.DUP: 'dup'>, ['pbn', 'lin', 'dup'])
    """

    PBN = "pbn"
    LIN = "lin"
    DUP = "dup"
    DLM = "dlm"
    CSV = "csv"
    JSON = "json"
    LINES = "lines"
    HTML = "html"


#: Format names, in the registry's order.
BOARD_FORMATS = board_file_formats()
#: The file extension each format is written with (the registry's first).
EXTENSIONS: dict[BoardFormat, str] = {
    BoardFormat(name): FORMATS[name].extensions[0] for name in BOARD_FORMATS
}


#: The largest board file read (999 boards with auctions, play and notes take a few MiB).
MAX_BOARD_FILE_BYTES = 16 * 1024 * 1024


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a file is read, and restore it.

    A reader builds tens of thousands of small objects (records, hands) that all
    stay alive; each collection the collector runs meanwhile walks every one of
    them again, which took up to half of the reading time.  Readers make no
    reference cycles, so nothing waits for the collector; reference counting
    frees everything as before.  (If the collector was off already it stays off.)
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


# A line that starts with a printable ASCII character other than a space: for one deal per line
# a game, and for CSV (without quotes) a row with a first cell (a game, the header aside).  The
# line ends are those of str.splitlines (CSV's are fewer: a lower count still).
_GAME_LINE = re.compile(rb"(?:\A|[\n\r\x0b\x0c\x1c\x1d\x1e])[!-~]")
_CSV_ROW = re.compile(rb"(?:\A|[\n\r])[!#-+\--~]")  # (not a quote, not a comma)


def games_at_least(data: bytes, fmt: BoardFormat | str, most: int = MAX_FILE_GAMES + 1) -> int:
    """A count of the games of a board file that never exceeds what its reader finds, made
    without reading the games (a search of the bytes), and that stops at ``most``; 0 when
    no quick count is known.

    Readers refuse a file of more than :data:`~croupier.formats.records.MAX_FILE_GAMES`
    games; with this count a file clearly too large is refused before any game is read.
    The search stops at ``most`` games, so it costs little however many lines the file has.

    >>> games_at_least(b"AKQ... - - -\\n\\n  \\nx - - -\\n", "lines")
    2
    >>> games_at_least(b"north,east,south,west\\nA...,-,-,-\\n,,,\\n", "csv")
    1
    """
    fmt = _check(fmt)
    if fmt is BoardFormat.LINES:
        return _count(_GAME_LINE, data, most)
    if fmt is BoardFormat.CSV and b'"' not in data:  # (a quoted cell may hold line ends)
        return max(0, _count(_CSV_ROW, data, most + 1) - 1)
    if fmt is BoardFormat.DUP:
        from croupier.formats.dup import DUP_RECORD_BYTES

        return min(most, len(data) // DUP_RECORD_BYTES)
    return 0


def _count(pattern: re.Pattern[bytes], data: bytes, most: int) -> int:
    """The matches of ``pattern`` in ``data``, counted up to ``most`` (no list of them)."""
    found = 0
    for found, _ in enumerate(pattern.finditer(data), start=1):
        if found >= most:
            break
    return found


def _refuse_many(data: bytes, fmt: BoardFormat, source: str) -> None:
    """Refuse, before reading any game, a file that clearly holds too many games.

    A file with fewer line ends than the limit cannot hold too many games (each is a line
    at least), so it is not searched: its line-end bytes are only counted.
    """
    if fmt in (BoardFormat.LINES, BoardFormat.CSV):
        breaks = sum(data.count(end) for end in _LINE_END_BYTES)
        if breaks < MAX_FILE_GAMES:
            return
        check_games(games_at_least(data, fmt), source)


_LINE_END_BYTES = (b"\n", b"\r", b"\x0b", b"\x0c", b"\x1c", b"\x1d", b"\x1e")


def _check(fmt: BoardFormat | str) -> BoardFormat:
    if fmt not in BOARD_FORMATS:
        raise FileFormatError(f"unknown format {fmt!r}; expected one of {', '.join(BOARD_FORMATS)}")
    return BoardFormat(fmt)


def format_for_path(path: str | PurePath) -> BoardFormat:
    """The format of a file, from its extension (case-insensitive).

    >>> format_for_path("deals.dlm") == "dlm"
    True
    """
    suffix = PurePath(path).suffix.lower()
    for name in BOARD_FORMATS:
        if suffix in FORMATS[name].extensions:
            return BoardFormat(name)
    raise FileFormatError(
        f"cannot tell the format of {str(path)!r} from its extension; expected one of "
        + ", ".join(EXTENSIONS.values())
    )


def render_boards(
    boards: Sequence[Board],
    fmt: BoardFormat | str,
    *,
    generator: str = "croupier",
    title: str = "Hand record",
    pbn_style: str = "export",
    event: str = "?",
    newline: str | None = None,
) -> bytes:
    """The file bytes of ``boards`` in format ``fmt`` (text formats are UTF-8).

    ``pbn_style`` is the PBN layout: ``"export"`` (PBN 2.1 export format) or
    ``"bigdeal"`` (Big Deal 2.0's own files, byte for byte); see
    :func:`croupier.formats.pbn.format_pbn_file`.  ``event`` is the value of
    every PBN game's ``Event`` tag (``?``: unknown) and ``newline`` (``"\\r\\n"``
    or ``"\\n"``) its line end; by default each style keeps its own (CR LF for
    ``export``, as PBN 2.1 requires; LF for ``bigdeal``, as Big Deal writes on
    Linux).  The commands pass CR LF unless ``--lf`` is given.

    >>> render_boards([], "pbn", generator="g", pbn_style="bigdeal").splitlines()[3]
    b'[Generator "g"]'
    """
    options = RenderOptions(
        generator=generator, title=title, pbn_style=pbn_style, event=event, newline=newline
    )
    return board_codec(_check(fmt)).render_boards(boards, options)


def read_boards(
    data: bytes, fmt: BoardFormat | str, *, source: str = "<file>", first_board: int = 1
) -> list[Board]:
    """Parse file bytes in format ``fmt`` into boards (``html`` cannot be read).

    Text is UTF-8; a PBN file that is not UTF-8 is read as ISO 8859-1, the
    character set of PBN 2.1.  ``lines`` files carry no board numbers: their
    boards are numbered from ``first_board``.  Data over
    :data:`MAX_BOARD_FILE_BYTES` is refused unparsed.

    >>> read_boards(b"", "pbn")
    []
    """
    fmt = _check(fmt)
    if len(data) > MAX_BOARD_FILE_BYTES:
        raise FileFormatError(
            f"{source}: {len(data)} bytes; a board file holds at most {MAX_BOARD_FILE_BYTES}"
        )
    _refuse_many(data, fmt, source)
    try:
        with _collector_paused():
            return _read(data, fmt, source, first_board)
    except BoardRangeError as exc:  # a board number out of range, found below the parsers
        raise FileFormatError(f"{source}: {exc}") from None


def load_boards(path: str | Path, *, first_board: int = 1) -> list[Board]:
    """The boards of the file at ``path``, its format from the extension (:func:`read_boards`).

    Errors name the file by its name (``S1.pbn: ...``); a ``.txt`` file's boards are
    numbered from ``first_board``.  At most one byte past :data:`MAX_BOARD_FILE_BYTES` is
    read: a larger or endless file is refused without being read whole.

    >>> load_boards("missing.pbn")
    Traceback (most recent call last):
    ...
    croupier.errors.FileFormatError: file 'missing.pbn' not found
    """
    path = Path(path)
    fmt = format_for_path(path)
    data = read_within(path, MAX_BOARD_FILE_BYTES, what="a board file")
    return read_boards(data, fmt, source=path.name, first_board=first_board)


def _read(data: bytes, fmt: BoardFormat, source: str, first_board: int) -> list[Board]:
    codec = board_codec(fmt)
    if codec.read_boards is None:
        raise FileFormatError(f"{source}: HTML hand records are for printing and cannot be read")
    return codec.read_boards(_contents(data, codec, source), source=source, first_board=first_board)


def _contents(data: bytes, codec: BoardFileCodec, source: str) -> str | bytes:
    """What a codec reads: the bytes of a binary format, else UTF-8 text (a byte-order mark
    dropped), or ISO 8859-1 text where the format allows it and the file is not UTF-8."""
    if codec.binary:
        return data
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        if not codec.latin1:
            raise FileFormatError(f"{source}: not UTF-8 text") from None
        return data.decode("latin-1")


def read_board_file(
    data: bytes,
    fmt: BoardFormat | str,
    *,
    source: str = "<file>",
    strict: bool = False,
    partial: bool = False,
) -> BoardFileContents:
    """Read file bytes in format ``fmt`` as board records, skipping the games that cannot be read.

    Unlike :func:`read_boards`, nothing is invented: a value the file does not
    give stays ``None`` in its :class:`~croupier.formats.records.BoardRecord`.
    A game that cannot be read is listed in ``skipped`` (game, line, reason)
    and the rest of the file is still read; ``strict=True`` makes any skip an
    error.  ``partial=True`` keeps partial deals (hands with unknown cards) as
    records; otherwise they are skipped.  A file that is not a board file at all
    (wrong format, nothing readable) is an error.

    >>> read_board_file(b"", "pbn").records
    []
    """
    fmt = _check(fmt)
    if len(data) > MAX_BOARD_FILE_BYTES:
        raise FileFormatError(
            f"{source}: {len(data)} bytes; a board file holds at most {MAX_BOARD_FILE_BYTES}"
        )
    _refuse_many(data, fmt, source)
    try:
        with _collector_paused():
            contents = _read_records(data, fmt, source, partial)
    except BoardRangeError as exc:
        raise FileFormatError(f"{source}: {exc}") from None
    return contents.require_all() if strict else contents


def _read_records(data: bytes, fmt: BoardFormat, source: str, partial: bool) -> BoardFileContents:
    codec = board_codec(fmt)
    if codec.read_records is None:
        raise FileFormatError(f"{source}: HTML hand records are for printing and cannot be read")
    return codec.read_records(_contents(data, codec, source), source=source, partial=partial)


def render_records(
    records: Sequence[BoardRecord],
    fmt: BoardFormat | str,
    *,
    skipped: Sequence[SkippedGame] = (),
    generator: str = "croupier",
    newline: str | None = None,
    title: str = "Hand record",
) -> bytes:
    """The file bytes of board ``records`` in format ``fmt`` (text formats are UTF-8).

    What a format cannot hold is refused with a one-line error, never
    invented: DUP and DLM need complete deals with consecutive ascending board
    numbers.  A value a record does not know is written as the format spells
    "unknown" (PBN ``?``, an empty CSV cell, JSON ``null``); an unknown hand is
    ``-`` (in LIN, empty).  ``skipped`` (the games the reader could not read) is written only
    by the JSON format.  ``newline`` replaces the line end of PBN (CRLF by
    default) and CSV (CRLF); the other formats keep their own.  ``html``
    prints boards, numbering those without a number by their position.

    >>> from croupier.cards import parse_cards
    >>> partial = BoardRecord((parse_cards("AS KS"), (), (), ()), number=2)
    >>> render_records([partial], "lines")
    b'AK... - - -\\n'
    >>> render_records([partial], "csv", newline="\\n").splitlines()[1]
    b'2,,,AK...,-,-,-,'
    """
    fmt = _check(fmt)
    codec = board_codec(fmt)
    options = RenderOptions(generator=generator, newline=newline, title=title, skipped=skipped)
    if codec.render_records is not None:
        return codec.render_records(records, options)
    return codec.render_boards(BoardFileContents(list(records)).boards(), options)
